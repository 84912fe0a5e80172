"""What every command's refusal of bad input looks like, checked in one place: exit status 2, one
non-empty line on stderr naming the problem, nothing on stdout, nothing written (style habit 8,
`la.runs.cli`).

`refused(main, argv, capsys, ...)` calls a command in-process, as `la.runs.cli.run` does on the
command line; `refused_process(done, ...)` checks a finished `subprocess.run` the same way. Both
return the line, for a test that checks more of it.
"""
import re
from pathlib import Path

from la.runs.cli import run


def status(main, argv, bare=False, argparse=True) -> int:
    """`main(argv)` as `la.runs.cli.run` calls it, argparse's refusals (SystemExit(2)) included.
    `bare`: main itself (a ValueError is not made status 2); `argparse=False`: a SystemExit is not
    caught (the refusal must be the command's own check, not argparse's)."""
    argv = [str(a) for a in argv]
    if not argparse:
        return run(main, argv)
    try:
        return main(argv) if bare else run(main, argv)
    except SystemExit as stop:
        return stop.code


def files(folder: Path) -> dict:
    """Every file under `folder` with its bytes, and every folder (as None): what 'unchanged'
    compares."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
            for p in sorted(Path(folder).rglob("*"))}


def refused(main, argv, capsys, message=None, *, absent=None, unchanged=None, quiet=True,
            bare=False, argparse=True) -> str:
    """Assert that `main(argv)` refuses (see `check`); `unchanged`: a folder whose files and
    folders must be as they were; `bare`, `argparse`: see `status`."""
    before = files(unchanged) if unchanged is not None else None
    capsys.readouterr()                             # what earlier calls printed is not this one's
    code = status(main, argv, bare, argparse)
    out, err = capsys.readouterr()
    line = check(code, out, err, message, absent=absent, quiet=quiet)
    if unchanged is not None:
        assert files(unchanged) == before, f"{unchanged} changed"
    return line


def refused_process(done, message=None, *, absent=None, quiet=True) -> str:
    """Assert that the finished process `done` (text output) refused (see `check`)."""
    return check(done.returncode, done.stdout, done.stderr, message, absent=absent, quiet=quiet)


def check(code, out: str, err: str, message=None, *, absent=None, quiet=True) -> str:
    """Exit status 2 and exactly one non-empty line on stderr, which contains `message` (a str) or
    matches it (an re.Pattern, by re.search); with `quiet`, nothing on stdout; `absent`: a path
    that must not exist."""
    assert code == 2, f"exit status {code}, expected 2; stderr: {err!r}"
    assert err.count("\n") == 1 and err.endswith("\n") and err.strip(), f"not one line: {err!r}"
    line = err.rstrip("\n")
    if isinstance(message, re.Pattern):
        assert message.search(line), f"{message.pattern!r} not in {line!r}"
    elif message is not None:
        assert message in line, f"{message!r} not in {line!r}"
    if quiet:
        assert out == "", f"stdout: {out!r}"
    if absent is not None:
        assert not Path(absent).exists(), f"{absent} was written"
    return line
