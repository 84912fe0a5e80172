"""How a command ends: one line and an exit status for bad input, limits, Ctrl-C and SIGTERM."""
import codecs
import contextlib
import errno
import os
import signal
import sys
import threading
import unicodedata

import la
from la.io import WriteError
from la.runs.processes import Terminated, terminated_raises


def run(main, argv=None) -> int:
    """Call `main(argv)`; a ValueError (bad input) or a file that cannot be written (disk full,
    read-only, a full stdout, ...) becomes one line on stderr and exit status 2, a limit of the
    system (memory, open files) one line and status 1, Ctrl-C and SIGTERM outside the runner (which
    reports its own) one line saying what is kept and how to continue (`when_stopped`) and status
    130 or 143, and output cut short by its reader (`| head`) nothing more and status 1. Text the
    terminal cannot show (an α on an ASCII stdout) is spelled out (`readable`)."""
    global _advice
    _advice = None
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGTERM) is la.stopped_while_starting):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)   # loaded: its line no longer holds
    readable(sys.stdout)
    readable(sys.stderr)
    try:
        with terminated_raises():            # SIGTERM unwinds, as Ctrl-C: temporary files go
            status = main(argv)
            sys.stdout.flush()               # buffered output meets a reader gone away here, not at
                                             # the exit
        return status
    except BrokenPipeError:                  # the reader went away (`| head`): stop quietly, as a
                                             # shell tool does
        _silence_stdout()                    # and leave nothing for the exit's flush to fail on
        return 1
    except ValueError as error:
        print(f"error: {str(error).replace(chr(10), ' ')}", file=sys.stderr)
        return 2
    except MemoryError as error:
        detail = f" ({' '.join(str(error).split())})" if str(error) else ""
        print(f"error: out of memory{detail}: allow more memory (ulimit -v), or ask for less"
              f"{_kept()}", file=sys.stderr)
        return 1
    except OSError as error:
        if error.errno in LIMITS:            # a limit of the system, whatever file it stopped
            print(f"error: {error.strerror} ({LIMITS[error.errno]}){_kept()}", file=sys.stderr)
            return 1
        if error.filename is not None:
            print(f"error: {file_error(error)}", file=sys.stderr)
            return 2
        # Every file `la` writes names itself (`la.io`): a full disk naming none is stdout's (a full
        # disk or /dev/full behind it)
        if error.errno in OUTPUT_ERRORS or not _stdout_works():
            _silence_stdout()
            print(f"error: cannot write the output ({error.strerror or error})", file=sys.stderr)
            return 2
        raise                                # names no file: not the place but a bug, so keep its
                                             # traceback
    except KeyboardInterrupt:
        _say_stopped("interrupted")
        return 130
    except Terminated:
        _say_stopped("terminated")
        return 143


OUTPUT_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
# errno -> the system's limit behind it, for the one line `run` prints
LIMITS = {errno.EMFILE: "the limit on open files, ulimit -n, is too low for this command",
          errno.ENFILE: "the system's table of open files is full",
          errno.ENOMEM: "out of memory: allow more memory (ulimit -v), or ask for less"}
_advice = None          # what the command in progress keeps if it is stopped, and how to continue


def when_stopped(advice: str) -> None:
    """Say what a Ctrl-C or SIGTERM from now on leaves and how to continue ("no figure was written;
    run the command again"), for `run` to print after "interrupted: "."""
    global _advice
    _advice = advice


def _kept() -> str:
    """What a command stopped by a limit of the system keeps, and how to go on, if it said
    (`when_stopped`): a run started in its folder resumes there once the limit is raised."""
    return f"; {_advice}" if _advice else ""


def _say_stopped(what: str) -> None:
    """One line: what the command said it keeps (`when_stopped`), else that, as every file `la`
    writes is written whole or not at all (`la.io`), running it again is all there is to do."""
    advice = _advice or (f"{la._COMMAND} stopped before it finished, leaving no half-written file; "
                         "run the same command again")
    print(f"{what}: {advice}", file=sys.stderr, flush=True)


def _stdout_works() -> bool:
    """Whether stdout still takes its buffered output (false on a full disk or /dev/full)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):            # ValueError: closed
        return False
    return True


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at the exit has nothing to fail on again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def readable(stream) -> None:
    """Let `stream` write what its encoding cannot show (an α on an ASCII or Latin-1 terminal) in
    letters instead ("alpha"), rather than fail; a UTF-8 stream is left as it is."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "ασ−≤·".encode(encoding)
        return
    except UnicodeEncodeError:
        pass
    except LookupError:
        return
    with contextlib.suppress(AttributeError, ValueError, OSError):
        stream.reconfigure(errors=SPELLED)


SPELLED = "la-spelled"
SPELLING = {"−": "-", "–": "-", "—": "--", "·": "*", "×": "x", "≤": "<=", "≥": ">=", "≈": "~",
            "≠": "!=", "±": "+/-", "√": "sqrt ", "→": "->", "…": "...", "∞": "inf", "²": "^2",
            "’": "'", "‘": "'", "“": '"', "”": '"', "∈": " in ", "§": "section "}


def _spelled(error: UnicodeEncodeError) -> tuple:
    """A codecs error handler: each character the encoding lacks in letters (α -> alpha, σ ->
    sigma, ≤ -> <=), else '?'."""
    out = []
    for char in error.object[error.start:error.end]:
        name = unicodedata.name(char, "")
        if char in SPELLING:
            out.append(SPELLING[char])
        elif name.startswith("GREEK SMALL LETTER "):
            out.append(name.removeprefix("GREEK SMALL LETTER ").split()[0].lower())
        elif name.startswith("GREEK CAPITAL LETTER "):
            out.append(name.removeprefix("GREEK CAPITAL LETTER ").split()[0].capitalize())
        else:
            out.append("?")
    text = "".join(out)
    try:
        text.encode(error.encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode("ascii", "replace").decode("ascii")
    return text, error.end


codecs.register_error(SPELLED, _spelled)


def file_error(error: OSError) -> str:
    """An OSError that names its file as one line: "cannot write <file> (No space left on
    device)"."""
    reason = error.strerror or str(error)
    if isinstance(error, WriteError):
        return f"cannot write {shown(str(error.filename))} ({reason})"
    return f"{shown(str(error.filename))}: {reason}"


def shown(text: str) -> str:
    """The user's text quoted for a message; an absurdly long one keeps only its two ends."""
    return repr(text) if len(text) <= 120 else (f"{text[:40]!r}...{text[-40:]!r} "
                                                f"({len(text):,} characters)")
