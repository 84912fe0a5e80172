"""What every command-line entry point shares: its checks of arguments and inputs, one-line errors,
exit status 2.

Every command checks everything it was given before it trains, searches or writes anything: a typo
found after an hour of training, or a figure that cannot be saved at the end of a run, costs the
hour. The checks live here, one place per kind, as argparse `type=` functions (a refusal is one line
naming the option) or, for results files, a reader that raises ValueError naming the file:

    numbers        integer(low, high) and its instances node_limit, seed, count, weight, bytes_;
                   real_weight; seconds; alpha
    paths          out_folder, pdb_folder, figure_file, existing_folder, existing_file: none creates
                   anything
    lists          names(allowed, what): comma-separated names, each one of `allowed`
    states         parse_state(domain, text), state_text(state): a state as a line of integers, and
                   back
    running        run(main): what goes wrong becomes one line (bad input, a full disk or stdout,
                   the system's limits, Ctrl-C and SIGTERM with `when_stopped`'s advice); a
                   terminal that cannot show α gets "alpha" (`readable`)

Results files are read and checked by `la.runs.shapes` (read_results, check_shape).
"""
import argparse
import codecs
import contextlib
import errno
import math
import os
import re
import stat
import sys
import unicodedata
from argparse import ArgumentTypeError
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np

from la.io import WriteError
from la.runs.processes import Terminated, terminated_raises

NODES_MAX = 10**18          # node counts are int64 (at most 9.2e18) in la.search
SEED_MAX = 2**32 - 1        # the usual seed range: every tool and JSON reader keeps such a seed
                            # exact
COUNT_MAX = 1_000           # runs, test sets, jobs: far beyond any real run, short of filling the
                            # memory
WEIGHT_MAX = 10**6          # weighted IDA*'s W (and weighted A*'s w): W·h stays far inside int64
                            # for every domain here
ROOM = 255                  # bytes of path kept free below an output folder for what a run writes
                            # there (a unit's folder, a file, a temporary's prefix: under 60 here,
                            # NAME_MAX at most)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit status 2, no usage dump."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def first_paragraph(doc: str) -> str:
    """A module docstring's first paragraph on one line: its command's --help description."""
    return " ".join(doc.split("\n\n")[0].split())


def run(main, argv=None) -> int:
    """Call `main(argv)`; a ValueError (bad input) or a file that cannot be written (disk full,
    read-only, a full stdout, ...) becomes one line on stderr and exit status 2, a limit of the
    system (memory, open files) one line and status 1, Ctrl-C and SIGTERM outside the runner (which
    reports its own) one line saying what is kept and how to continue (`when_stopped`) and status
    130 or 143, and output cut short by its reader (`| head`) nothing more and status 1. Text the
    terminal cannot show (an α on an ASCII stdout) is spelled out (`readable`)."""
    global _advice
    _advice = None
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
        print(f"error: out of memory{detail}: allow more memory (ulimit -v), or ask for less",
              file=sys.stderr)
        return 1
    except OSError as error:
        if error.filename is not None:
            print(f"error: {file_error(error)}", file=sys.stderr)
            return 2
        # Every file `la` writes names itself (`la.io`): a full disk naming none is stdout's (a full
        # disk or /dev/full behind it)
        if error.errno in OUTPUT_ERRORS or not _stdout_works():
            _silence_stdout()
            print(f"error: cannot write the output ({error.strerror or error})", file=sys.stderr)
            return 2
        if error.errno in LIMITS:
            print(f"error: {error.strerror} ({LIMITS[error.errno]})", file=sys.stderr)
            return 1
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


def _say_stopped(what: str) -> None:
    print(f"{what}: {_advice}" if _advice else what, file=sys.stderr, flush=True)


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


# --- numbers
# ------------------------------------------------------------------------------------------------

def integer(low: int, high: int):
    """An argparse type: an integer from `low` to `high`; scientific notation is read when it is
    whole (1e3)."""
    def parse(text: str) -> int:
        try:
            value = Decimal(text)                   # exact: 2e9 and 2000000000 are the same number
        except InvalidOperation:
            value = Decimal("NaN")
        if not value.is_finite() or value != value.to_integral_value():
            raise ArgumentTypeError(f"expected an integer, got {shown(text)}")
        if value < low:
            raise ArgumentTypeError(f"must be at least {low}, got {shown(text)}")
        if value > high:
            raise ArgumentTypeError(f"must be at most {high:,}, got {shown(text)}")
        return int(value)
    parse.__name__ = "integer"
    return parse


node_limit = integer(1, NODES_MAX)
seed = integer(0, SEED_MAX)
count = integer(1, COUNT_MAX)
weight = integer(1, WEIGHT_MAX)
bytes_ = integer(1, NODES_MAX)      # a memory limit in bytes


def real_weight(text: str) -> float:
    """An argparse type: a bounded-suboptimal search's weight w, a real number from 1 to
    WEIGHT_MAX."""
    try:
        value = float(text)
    except ValueError:
        raise ArgumentTypeError(f"expected a number, got {shown(text)}") from None
    if value != value:                                      # nan
        raise ArgumentTypeError(f"expected a number, got {shown(text)}")
    if value < 1:
        raise ArgumentTypeError(f"must be at least 1, got {shown(text)}")
    if value > WEIGHT_MAX:
        raise ArgumentTypeError(f"must be at most {WEIGHT_MAX:,}, got {shown(text)}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise ArgumentTypeError(f"expected a number of seconds, got {shown(text)}") from None
    if not math.isfinite(value):
        raise ArgumentTypeError(f"must be a finite number of seconds, got {shown(text)}")
    if value <= 0:
        raise ArgumentTypeError(f"must be more than 0 seconds, got {shown(text)}")
    return value


def alpha(text: str) -> float:
    """An argparse type: the α of y^α, a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise ArgumentTypeError(f"expected a number between 0 and 1, got {shown(text)}") from None
    if not 0 < value < 1:                                   # also refuses nan
        raise ArgumentTypeError(f"must lie strictly between 0 and 1, got {shown(text)}")
    return value


# --- paths
# --------------------------------------------------------------------------------------------------

def _kind(path: Path, text: str) -> str | None:
    """'folder', 'file' or None (nothing there, or a name too long to exist); other failures refuse
    the path."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            return None                                # `_creatable` says which name is too long
        raise ArgumentTypeError(f"cannot use {shown(text)} ({error.strerror})") from None
    except ValueError:                                 # a NUL character
        raise ArgumentTypeError(f"cannot use {shown(text)} as a file name") from None
    return "folder" if stat.S_ISDIR(mode) else "file"


def _creatable(path: Path) -> None:
    """Refuse `path`, which does not exist yet, unless it could be created; nothing is created to
    find out."""
    place, missing = path.absolute(), []
    while not os.path.lexists(place):
        missing.append(place.name)
        place = place.parent
    if not place.is_dir():
        raise ArgumentTypeError(f"cannot create {shown(str(path))}: {shown(str(place))} is a file, "
                                "not a folder")
    if not os.access(place, os.W_OK | os.X_OK):
        raise ArgumentTypeError(f"cannot write in {shown(str(place))}")
    try:
        longest = os.pathconf(place, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        longest = 255
    if any(len(os.fsencode(name)) > longest for name in missing):
        raise ArgumentTypeError(f"cannot create {shown(str(path))}: a name in it is longer than "
                                f"{longest} bytes")


def _fits(path: Path, text: str, room: int = 0) -> None:
    """Refuse a path whose full form, with `room` bytes more, is longer than the system takes
    (PATH_MAX). Each name in it is checked by `_creatable`; the files are written by full path
    (`la.io`)."""
    try:
        limit = os.pathconf("/", "PC_PATH_MAX") - 1         # PATH_MAX counts the closing NUL byte
    except (OSError, ValueError, AttributeError):
        limit = 4095
    size = len(os.fsencode(str(path.absolute())))
    if size + room > limit:
        kept = f", less {room} kept for the files written in it" if room else ""
        raise ArgumentTypeError(f"{shown(text)} is too long: its full path has {size:,} bytes, "
                                f"and a path here may have at most {limit:,}{kept}")


def out_folder(text: str) -> Path:
    """An argparse type: a folder to write results in, existing and writable or possible to
    create."""
    if not text:
        raise ArgumentTypeError("expected a folder name, got '' (write . for the current folder)")
    path = Path(text)
    kind = _kind(path, text)
    _fits(path, text, ROOM)
    if kind is None:
        _creatable(path)
    elif kind == "file":
        raise ArgumentTypeError(f"{shown(text)} is a file, not a folder")
    elif not os.access(path, os.W_OK | os.X_OK):
        raise ArgumentTypeError(f"cannot write in {shown(text)}")
    return path


def pdb_folder(text: str) -> Path:
    """An argparse type: a PDB cache folder (--pdb-dir). A folder that exists is accepted even if it
    cannot be written: PDBs already there are only read, and `la.pdb.store` refuses the folder when
    one must be built."""
    if text and Path(text).is_dir():
        return Path(text)
    return out_folder(text)


def figure_types() -> list:
    """The file types matplotlib can save a figure as, from its canvas (png, pdf, svg, ...)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # here: most commands never draw
    return sorted(FigureCanvasAgg.get_supported_filetypes())


def figure_file(text: str) -> Path:
    """An argparse type: where to save a figure, a file type matplotlib writes in a place that can
    be written."""
    if not text:
        raise ArgumentTypeError("expected a file name, got ''")
    path, kinds = Path(text), figure_types()
    kind = _kind(path, text)
    _fits(path, text)
    if kind == "folder":
        raise ArgumentTypeError(f"{shown(text)} is a folder, not a file")
    listed = ", ".join("." + suffix for suffix in kinds)
    if not path.suffix:
        raise ArgumentTypeError(f"{shown(text)} has no file type: end it with one of {listed}")
    if path.suffix[1:].lower() not in kinds:
        raise ArgumentTypeError(f"matplotlib cannot write {path.suffix!r} files: "
                                f"end the name with one of {listed}")
    if kind is None:
        _creatable(path)
    elif not os.access(path, os.W_OK):
        raise ArgumentTypeError(f"cannot write {shown(text)}")
    _drawable(path.suffix[1:].lower())
    return path


def _drawable(kind: str) -> None:
    """Refuse a file type matplotlib lists but cannot write with the tools installed here (.pgf
    without xelatex): a one-inch figure with a label is saved in memory to find out, before any
    work."""
    import io                                            # the standard library's (not la.io)
    from matplotlib.figure import Figure
    figure = Figure(figsize=(1, 1))
    figure.text(0.5, 0.5, "α = 0.95")
    try:
        figure.savefig(io.BytesIO(), format=kind)
    except Exception as error:      # whatever the format's writer lacks (a TeX system, a library)
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ArgumentTypeError(f"cannot write .{kind} figures here ({reason}): "
                                "choose another type, such as .png or .pdf") from None


def _existing(wanted: str):
    """An argparse type: a `wanted` ('file' or 'folder') that exists; its contents are checked by
    its reader."""
    other = "folder" if wanted == "file" else "file"

    def parse(text: str) -> Path:
        if not text:
            raise ArgumentTypeError(f"expected a {wanted} name, got ''")
        kind = _kind(Path(text), text)
        if kind is None:
            raise ArgumentTypeError(f"no {wanted} {shown(text)}")
        if kind == other:
            raise ArgumentTypeError(f"{shown(text)} is a {other}, not a {wanted}")
        return Path(text)
    parse.__name__ = f"existing_{wanted}"
    return parse


existing_folder = _existing("folder")
existing_file = _existing("file")


# --- lists of names
# -----------------------------------------------------------------------------------------

def names(allowed, what: str):
    """An argparse type: comma-separated names, each one of `allowed`, at least one; repeats count
    once."""
    listed = ", ".join(allowed)

    def parse(text: str) -> list:
        chosen = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
        if not chosen:
            raise ArgumentTypeError(f"name at least one {what}: {listed}")
        unknown = [name for name in chosen if name not in allowed]
        if unknown:
            raise ArgumentTypeError(f"unknown {what} {shown(unknown[0])}: "
                                    f"expected some of {listed}")
        return chosen
    parse.__name__ = "names"
    return parse


# --- states
# ------------------------------------------------------------------------------------------------

def parse_state(domain, text: str) -> np.ndarray:
    """A state of `domain` from space- or comma-separated integers, checked (`Domain.validate`)."""
    fields = [f for f in re.split(r"[\s,]+", text.strip()) if f]
    try:
        values = [int(f) for f in fields]
    except ValueError:
        shown = text.strip() if len(text.strip()) <= 60 else text.strip()[:57] + "..."
        raise ValueError(f"a {domain.name} state is a list of integers, got {shown!r}") from None
    huge = [v for v in values if not -2**63 <= v < 2**63]   # beyond int64: out of range everywhere
    if huge:
        raise ValueError(f"{huge[0]} is out of range for the {domain.name}")
    return domain.validate(np.array(values, dtype=np.int64))


def state_text(state) -> str:
    """The state as one line of space-separated integers (what `parse_state` reads)."""
    return " ".join(str(int(v)) for v in state)
