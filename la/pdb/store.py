"""Pattern databases on disk: built once, kept in a cache folder, checked every time they are read.

A PDB is two files named after its abstraction, e.g. `24-puzzle_1-2-5-6-7.npy` (the uint8 table,
`np.save`) and `24-puzzle_1-2-5-6-7.json`, its header: the format version, domain, pattern, cost
model, entry count and the SHA-256 of the table's bytes. The header does not name the `la` commit,
so a new commit reuses the tables; FORMAT changes only when what a table means or how it is laid out
does.

The folder is `folder` if given (the command lines' --pdb-dir), else $LA_PDB_DIR, else `la/pdb`
under the user's cache directory ($XDG_CACHE_HOME, by default ~/.cache).

Reading checks everything: both files present, the header describing this abstraction, the table's
shape and bytes matching it. A file that fails is never used: the PDB is built again, as a missing
one is, then saved.

Nothing here prints. A caller that wants to hear about builds passes `progress(fraction, text)`:
    (None, note)
        once, before a damaged or mismatched file is built again; the note names the file and what
        is wrong: "<folder>/8-puzzle_1-2-3-4.npy: corrupted (...); building it again"
    (0.0, label)
        when a build starts; the label names the PDB: "building the 8-puzzle PDB of [1, 2, 3, 4]
        (3,024 entries)", or the `label` given to `load` (`load_set`'s "24-puzzle PDB 3 of 10,
        [10, 15, 16, 20, 21] (127,512,000 entries)")
    (fraction, text)
        during the build, 0 < fraction < 1, a rough fraction done and where the build is
        ("level 12, 3,870,214 states")
    (1.0, "saved in <folder>")
        once, when the table and its header are written.
A PDB read from the cache makes no call. The command lines' printer of these calls (one line on
stderr per build, with the time left) is `la.runs.progress.BuildProgress`.

Writing goes through `la.io` (a temporary file renamed over the target), the table before its
header. Two processes building the same PDB at once write identical bytes (the builds are
deterministic), so whichever rename lands last the pair on disk is consistent; a reader that catches
a new table beside an old header finds the checksums differ and builds the PDB itself. Before a
build, a folder that cannot be written or lacks the room for the table is refused (ValueError, one
line in the CLIs); a write that fails all the same (a full disk) is a ValueError naming the file,
and leaves neither a temporary file nor a table without its header.
"""
import contextlib
import hashlib
import json
import os
from pathlib import Path

import numpy as np

from la import io

FORMAT = 1           # the version of the files' layout and meaning (not of the code)
SLACK = 16 << 10     # bytes per PDB beyond its table: the .npy and JSON headers, file-system blocks


class PDB:
    """A pattern database in memory: h(s) = table[rank(s)], admissible for the abstract cost."""

    def __init__(self, abstraction, table: np.ndarray):
        self.abstraction, self.table = abstraction, table
        self.max = int(table.max())

    def __call__(self, states) -> np.ndarray:
        """The table entry of each state (n, N) -> (n,) int64."""
        return np.take(self.table, self.abstraction.rank(states)).astype(np.int64)

    def __repr__(self):
        return f"PDB({self.abstraction!r}, max {self.max})"


def default_folder() -> Path:
    """$LA_PDB_DIR, else la/pdb under $XDG_CACHE_HOME (used only if absolute, as its spec says)
    or ~/.cache."""
    if os.environ.get("LA_PDB_DIR"):
        return Path(os.environ["LA_PDB_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(cache) if os.path.isabs(cache) else Path.home() / ".cache"
    return base / "la" / "pdb"


def paths(abstraction, folder=None) -> tuple[Path, Path]:
    """The table's and the header's file: <folder>/<domain>_<pattern joined by ->.npy and .json."""
    folder = default_folder() if folder is None else Path(folder)
    stem = f"{abstraction.domain}_{'-'.join(str(int(p)) for p in abstraction.pattern)}"
    return folder / f"{stem}.npy", folder / f"{stem}.json"


def header(abstraction, table: np.ndarray) -> dict:
    """What the .json file says about a table."""
    return {"format": FORMAT, "domain": abstraction.domain,
            "pattern": [int(p) for p in abstraction.pattern],
            "cost": abstraction.cost, "size": int(abstraction.size), "dtype": "uint8",
            "sha256": hashlib.sha256(np.ascontiguousarray(table).data).hexdigest(),
            "max": int(table.max())}


def load(abstraction, folder=None, progress=None, label=None) -> PDB:
    """The abstraction's PDB from the cache folder, checked; else built and saved.

    `progress(fraction, text)`, if given, hears about a rebuild and the build (module docstring);
    `label` names the PDB when its build starts (default: "building the <domain> PDB of [pattern]
    (N entries)")."""
    report = progress if progress is not None else _silent
    table_path, header_path = paths(abstraction, folder)
    table, problem = _read(abstraction, table_path, header_path)
    if table is not None:
        return PDB(abstraction, table)
    if problem is not None:
        report(None, f"{table_path}: {problem}; building it again")
    check_room(table_path.parent, [abstraction])
    report(0.0, f"building {_describe(abstraction)}" if label is None else label)
    # A build's own fraction is a rough clock that may reach 1 before the end (or report 0 at its
    # start): 0 and 1 are said once each, here.
    table = abstraction.build(lambda fraction, text: report(min(max(fraction, 1e-6), 0.99), text))
    if table.dtype != np.uint8 or table.shape != (abstraction.size,):
        raise RuntimeError(f"{abstraction!r}.build returned {table.dtype} {table.shape}, "
                           f"expected uint8 ({abstraction.size},)")
    _write(table_path, lambda: io.write_npy(table_path, table))
    _write(header_path, lambda: io.write_json(header_path, header(abstraction, table)), table_path)
    report(1.0, f"saved in {table_path.parent}")
    return PDB(abstraction, table)


def _silent(fraction, text) -> None:
    """The progress of a caller who gave none."""


def _describe(abstraction) -> str:
    return (f"the {abstraction.domain} PDB of {list(abstraction.pattern)} "
            f"({abstraction.size:,} entries)")


def _read(abstraction, table_path: Path, header_path: Path):
    """(table, None) if both files are there and check out; else (None, what is wrong), or
    (None, None) if neither file exists."""
    if not table_path.exists() and not header_path.exists():
        return None, None
    for path in (table_path, header_path):         # reading a FIFO or a device could block for ever
        if path.exists() and not path.is_file():
            return None, f"{path.name} is not a regular file"
    try:
        stored = json.loads(header_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"no header {header_path.name}"
    except (OSError, ValueError) as error:                  # unreadable, not UTF-8, not JSON
        return None, f"unreadable header {header_path.name} ({error})"
    except RecursionError:                                  # JSON nested deeper than Python's stack
        return None, f"unreadable header {header_path.name} (JSON nested too deeply)"
    try:
        table = np.load(table_path, allow_pickle=False)
    except FileNotFoundError:
        return None, "the table is missing"
    except (OSError, ValueError, EOFError) as error:        # truncated, bad .npy header, ...
        return None, f"unreadable table ({error})"
    if (not isinstance(table, np.ndarray) or table.dtype != np.uint8
            or table.shape != (abstraction.size,)):
        return None, f"a {getattr(table, 'dtype', '?')} table of shape " \
                     f"{getattr(table, 'shape', '?')}, expected uint8 ({abstraction.size:,},)"
    wanted = header(abstraction, table)
    if not isinstance(stored, dict):
        return None, "the header is not a JSON object"
    for key in ("format", "domain", "pattern", "cost", "size", "dtype", "sha256"):
        if stored.get(key) != wanted[key]:
            what = "corrupted (its checksum does not match the header)" if key == "sha256" else \
                f"its header has {key} {stored.get(key)!r}, expected {wanted[key]!r}"
            return None, what
    return table, None


def check_room(folder, abstractions) -> None:
    """Before building `abstractions` in `folder`: create the folder if needed, and raise ValueError
    (one line in the CLIs) if it cannot be written or its file system has no room for their tables;
    nothing is built yet."""
    folder = Path(folder)
    what = (_describe(abstractions[0]) if len(abstractions) == 1
            else f"{len(abstractions)} missing PDBs")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create the PDB folder {str(folder)!r} ({error.strerror}) to "
                         f"build {what}; choose another with --pdb-dir or LA_PDB_DIR") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write in the PDB folder {str(folder)!r} to build {what}; "
                         f"choose another with --pdb-dir or LA_PDB_DIR")
    needed = sum(a.size + SLACK for a in abstractions)     # a uint8 table: one byte per entry
    space = os.statvfs(folder)
    free = space.f_bavail * space.f_frsize
    if needed > free:
        raise ValueError(f"no room in the PDB folder {str(folder)!r} for {what}: "
                         f"{needed / 2**20:,.1f} MiB needed, {free / 2**20:,.1f} MiB free; free "
                         f"some space or choose another folder with --pdb-dir or LA_PDB_DIR")


def _write(path: Path, write, written=None) -> None:
    """Call `write()`, which writes `path` atomically; an OSError (a full disk) becomes a ValueError
    naming the file, and the file `written` just before it (the table of this header) is removed: no
    half of a pair stays."""
    try:
        write()
    except OSError as error:
        if written is not None:
            with contextlib.suppress(OSError):
                written.unlink(missing_ok=True)
        why = error.strerror or str(error)
        if error.errno is None:         # NumPy's short write: "N requested and M written", no errno
            why += ": is the disk full?"
        raise ValueError(f"cannot write the PDB file {str(path)!r} ({why}); free some space or "
                         f"choose another folder with --pdb-dir or LA_PDB_DIR") from None
