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

How a command ends (run(main), when_stopped, readable: one line for what goes wrong, Ctrl-C and
SIGTERM) is `la.runs.stops`'s; it is named here too, as every command imports it from here.
Results files are read and checked by `la.runs.shapes` (read_results, check_shape).
"""
import argparse
import errno
import math
import os
import re
import stat
from argparse import ArgumentTypeError
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np

from la.runs.stops import file_error, readable, run, shown, when_stopped  # noqa: F401 (theirs)

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
