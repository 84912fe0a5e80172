"""An experiment's results folder: one run at a time, and a resumed run checks every file it will
read first.

`prepare` locks the folder for this process (`la.runs.lock`: a second run on it is refused, naming
the holder's process id), then either starts a new run by writing `experiment.json` or, with
`--resume`, checks that the settings are the same and that nothing in the folder is damaged —
`experiment.json`, every unit's `unit.json`, every checkpoint, network and log — before any work
starts. A damaged file is reported in one line naming it and what to do, and the folder is left as
it was. The lock is held until the process exits, through every phase, the results files and the
figures.
"""
import contextlib
import json
import shlex
import subprocess
from pathlib import Path

from la.io import PARTIAL, remove_partial, write_json
from la.runs.checkpoint import check_checkpoint
from la.runs.cli import when_stopped
from la.runs.lock import LOCK, hold, release
from la.runs.persist import read_arrays
from la.runs.shapes import check_shape, tasks_shape

ROOT = Path(__file__).resolve().parents[2]
MARKER = "experiment.json"
TASKS = "tasks.json"        # the records of the tasks an unfinished test unit has done, so it
#                             continues after them
# what only a unit's own folder holds
UNIT_MARKERS = ("unit.json", "checkpoint.npz", "progress.log", TASKS)
# What `check_folder` knows of the files a unit leaves besides its JSON. Registries, which the rooms
# that write such files fill when they are imported, so that this one imports none of them:
READERS = {"checkpoint.npz": check_checkpoint}  # file name -> reads it whole, ValueError if damaged
#                                                 (la.heller.fit_checkpoint adds its fits under way)
REMEDIES = {}               # end of a file name -> what to do if it is damaged, when less than
#                             redoing its unit will do (la.rivals.boot_round adds the progress of
#                             a Boot round)


def commit() -> str | None:
    """The repository's current commit, if this is a git checkout (recorded with every result)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def prepare(out: Path, settings: dict, resume: bool, command: list, unit_shape=None,
            added: dict | None = None) -> None:
    """Lock `out` and start a run there, or check that a resumed one was started with the same
    settings.

    The number of runs may differ: runs are independent units, so `--resume --runs 3` adds runs to a
    folder that holds one. The commands of every start and resume are kept. `unit_shape`: what every
    `unit.json` must hold besides its 'summary' (`la.runs.shapes.check_shape`), or a function of the
    unit's name (its folder under `out`, "run1/alpha") that says it for that unit; checked before a
    resume begins. `added`: configuration entries an experiment gained after runs were started, each
    with the value a folder made before it ran with, so that such a folder, lacking it, still
    resumes. If the run cannot start, folders this call created are removed again (they hold
    nothing).
    """
    out, marker = Path(out), Path(out) / MARKER
    if resume and not marker.exists():
        raise ValueError(f"nothing to resume: {out} holds no run")
    created = [folder for folder in (out, *out.parents) if not folder.exists()]  # the deepest first
    taken = False
    try:
        out.mkdir(parents=True, exist_ok=True)
        taken = hold(out)
        if not marker.exists():
            write_json(marker, {"settings": settings, "command": shlex.join(map(str, command)),
                                "commit": commit()})
            _advise(out)
            return
        if not resume:
            raise ValueError(f"{out} already holds a run: add --resume to continue it, "
                             "or choose another --out")
        previous = read_experiment(out)
        if (_without_runs(with_added(previous["settings"], added))
                != _without_runs(json.loads(json.dumps(settings)))):
            raise ValueError(f"{out} holds a run with other settings; "
                             "resume it with the same options, "
                             f"or choose another --out")
        check_folder(out, unit_shape)
    except BaseException:
        _remove_empty(created, taken)
        if taken:
            release(out)
        raise
    remove_partial(out)                 # what runs killed mid-write left behind (we hold the lock)
    previous.setdefault("resumed", []).append({"command": shlex.join(map(str, command)),
                                               "commit": commit()})
    write_json(marker, previous)
    _advise(out)


def _advise(out: Path) -> None:
    """What a Ctrl-C or SIGTERM outside the units (PDBs, results files, figures) leaves, for
    `la.runs.cli.run` to say: the units run so far, and the command that goes on from them."""
    when_stopped(f"the units done so far are kept in {out}; to continue: {resume_command(out)}")


def _remove_empty(created: list, locked: bool) -> None:
    """Remove the folders a failed `prepare` created, the deepest first, while they hold nothing
    (but the lock file, if this process holds it: removed before the lock is released, so no other
    run can have taken it)."""
    for folder in created:
        if locked:
            with contextlib.suppress(FileNotFoundError):
                (folder / LOCK).unlink()
        try:
            folder.rmdir()
        except OSError:                      # not made after all, or something is in it: leave it
                                             # and those above
            return


def read_experiment(out: Path) -> dict:
    """`experiment.json`, checked: ValueError in one line if it is not JSON or not of the expected
    shape."""
    path = Path(out) / MARKER
    remedy = "it records the run's settings: restore it, or start again with another --out"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} is damaged (not JSON: {_one_line(error)}); {remedy}") from None
    if not (isinstance(record, dict) and isinstance(record.get("settings"), dict)
            and isinstance(record["settings"].get("config"), dict)
            and isinstance(record.get("command"), str)
            and isinstance(record.get("resumed", []), list)):
        raise ValueError(f"{path} is damaged "
                         f"(not an experiment's record of settings and command); {remedy}")
    return record


def check_folder(out: Path, unit_shape=None) -> None:
    """ValueError naming the first damaged file under `out` and what to do; the files are only read.

    Checked: every unit's `unit.json` (a JSON object with a 'summary', see `read_result`, and of
    `unit_shape` if given, as `prepare` says) and `tasks.json` (see `read_tasks`: the records
    `unit_shape` gives a finished unit, `la.runs.shapes.tasks_shape`), every other JSON
    file and every .npz below the top level (by the reader `READERS` names for it: checkpoints with
    `la.runs.checkpoint.check_checkpoint`, a network's fit under way with
    `la.heller.fit_checkpoint.read`). A file `REMEDIES` names, such as a damaged Boot round's
    progress (`la.rivals.boot_round`), is remedied as it says: deleting that file alone, which costs
    only the round under way. The top level's results files and figures are not read by a run, which
    writes them anew at its end.
    """
    out = Path(out)
    read_experiment(out)
    for path in sorted(p for p in out.rglob("*") if p.parent != out and p.is_file()):
        if path.name.startswith(PARTIAL):
            continue
        try:
            name = path.parent.relative_to(out).as_posix()        # "run1/alpha": the unit's name
            _check_file(path, unit_shape(name) if callable(unit_shape) else unit_shape)
        except ValueError as error:
            unit = _unit_folder(path, out)
            remedy = next((r for end, r in REMEDIES.items() if path.name.endswith(end)), None)
            if remedy is None:
                remedy = f"delete the folder {unit} to redo that unit" if unit else "delete it"
            raise ValueError(f"{_one_line(error)}; {remedy}, then --resume again") from None


def _strict(name: str):
    raise ValueError(f"{name} is not a JSON number")


def read_result(path: Path) -> dict:
    """A finished unit's `unit.json`: ValueError unless it is a JSON object with a one-line
    'summary' (and no NaN or Infinity)."""
    try:
        result = json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_strict)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} is damaged (not JSON: {_one_line(error)})") from None
    if not is_result(result):
        raise ValueError(f"{path} is damaged (not a unit's result: a JSON object with a 'summary')")
    return result


def read_tasks(path: Path, shape=None) -> list:
    """An unfinished unit's `tasks.json`: ValueError unless it is a JSON list of task records, each
    with an 'id', and of `shape` if given (`la.runs.shapes.tasks_shape`: ids once and the unit's,
    each field of its type and range)."""
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_strict)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} is damaged (not JSON: {_one_line(error)})") from None
    if not (isinstance(records, list)
            and all(isinstance(r, dict) and isinstance(r.get("id"), int) for r in records)):
        raise ValueError(f"{path} is damaged "
                         "(not a list of task records, each with an integer 'id')")
    if shape is not None:
        check_shape(records, shape, str(path), "tasks")
    return records


def is_result(result) -> bool:
    """What every unit returns and its `unit.json` holds: a JSON object with a one-line
    'summary'."""
    return isinstance(result, dict) and isinstance(result.get("summary"), str)


def as_recorded(path) -> str:
    """A path as a record keeps it: relative to the project when it lies inside (the defaults, the
    committed networks), so that a record names no folder of the machine it was made on; else as
    given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(ROOT.resolve())) if path.is_absolute() else str(path)
    except ValueError:
        return str(path)


def provenance(out: Path) -> dict:
    """The command and commit that started the run in `out`, and every command that resumed it (see
    `prepare`)."""
    marker = read_experiment(out)
    return {"command": marker["command"], "commit": marker.get("commit"),
            "resumed": marker.get("resumed", [])}


def resume_command(out: Path) -> str:
    """The command that continues the run in `out`: its latest command, with --resume."""
    try:
        record = read_experiment(out)
        words = shlex.split((record.get("resumed") or [record])[-1]["command"])
    except (ValueError, KeyError, TypeError):
        return "the same command with --resume"
    return shlex.join(words if "--resume" in words else [*words, "--resume"])


def _check_file(path: Path, unit_shape=None) -> None:
    if path.name == "unit.json":
        result = read_result(path)
        if unit_shape is not None:
            check_shape(result, unit_shape, str(path))
    elif path.name == TASKS:
        read_tasks(path, None if unit_shape is None else tasks_shape(unit_shape))
    elif path.suffix == ".json":
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise ValueError(f"{path} is damaged (not JSON: {_one_line(error)})") from None
    elif path.name in READERS:
        READERS[path.name](path)
    elif path.suffix == ".npz":
        read_arrays(path)                  # "<path>: not a readable .npz archive (<why>)"


def _unit_folder(path: Path, out: Path) -> Path | None:
    """The unit folder a file belongs to: its nearest folder below `out` that holds a unit's own
    files."""
    for folder in path.parents:
        if folder == out:
            return None
        if any((folder / name).exists() for name in UNIT_MARKERS):
            return folder
    return None


def with_added(settings: dict, added: dict | None) -> dict:
    """`settings` with the configuration entries `added` it lacks (`prepare`)."""
    config = settings.get("config")
    if not added or not isinstance(config, dict):
        return settings
    return {**settings, "config": {**added, **config}}


def _without_runs(settings: dict) -> dict:
    """The settings without the number of runs and the run selection (--run K): runs are independent
    units."""
    return {**{k: v for k, v in settings.items() if k != "run"},
            "config": {k: v for k, v in settings["config"].items() if k != "runs"}}


def _one_line(error) -> str:
    return " ".join(str(error).split())
