"""What the experiments share: seeds, an output folder that can be resumed, parallel units, progress
lines.

An experiment is a list of independent *units* (e.g. "train GTP for run 3, then test it"). Each unit
gets its own random stream from (seed, its name), so results do not depend on which process runs it
or in which order, and writes `<out>/<unit>/unit.json` when it is done; `--resume` skips finished
units and lets an interrupted one continue from its training checkpoint, or a test unit after the
last task it finished (`<out>/<unit>/tasks.json`). Units run in parallel processes with `--jobs N`
(stdlib only; see `la.runs.processes`), and the folder belongs to one run at a time
(`la.runs.folder`).

A run stops early, and says how far it got and how to continue with `--resume`, when a unit fails
(exit status 1; the unit's traceback goes to the end of its progress.log), when a file cannot be
written (2: disk full, read-only, ...; one line names the file), on Ctrl-C (130) or on SIGTERM
(143). The units already finished keep their `unit.json`; those in progress keep their last
checkpoint.
"""
import errno
import heapq
import os
import re
import sys
import time
import traceback
from pathlib import Path

import numpy as np

from la.io import WriteError, remove_partial, write_json
from la.runs.cli import COUNT_MAX, SEED_MAX, count, file_error, out_folder, seed
from la.runs.folder import is_result, read_result, resume_command
from la.runs.processes import Terminated, Workers, terminated_raises
from la.search.ida_star import ORDERS

SAFE_NAME = re.compile(r"[A-Za-z0-9._-]+")     # a unit name's parts become folder names
# the disk cannot take the write
PLACE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


class Stopped(SystemExit):
    """The run stopped before its units were done; the reason and how to continue have been
    printed."""


class _UnitFailed(Exception):
    """A unit raised an error; it has been reported."""


def unit_rng(seed: int, *key: int) -> np.random.Generator:
    """An independent random stream for one unit, from the experiment's seed and the unit's integer
    key."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def add_run_options(parser, default_out: str, order: bool = True,
                    jobs: str = "units run in parallel processes") -> None:
    """The options every experiment has: --seed, --jobs (`jobs` says what the processes do), --out,
    --resume, --run and (unless `order` is False, for an experiment without IDA*) IDA*'s --order."""
    parser.add_argument("--seed", type=seed, default=0,
                        help=f"the experiment's seed, 0..{SEED_MAX} (default 0)")
    parser.add_argument("--jobs", type=count, default=os.cpu_count() or 1,
                        help=f"{jobs} (1..{COUNT_MAX}; default: one per core)")
    parser.add_argument("--out", type=out_folder, default=None,
                        help=f"results folder, created if need be (default {default_out})")
    parser.add_argument("--resume", action="store_true",
                        help="continue an interrupted run in --out")
    parser.add_argument("--run", type=count, default=None, metavar="K",
                        help="only run K of the --runs N, 1..N, "
                             "with exactly the seeds it has among the N "
                             "(folders of single runs are combined with "
                             "`python -m la.experiments.merge`)")
    if not order:
        return
    parser.add_argument("--order", choices=ORDERS, default="depth-first",
                        help="IDA*'s goal order in training and testing: "
                             "depth-first (the authors', default) "
                             "or batched (the shallowest goal within the bound; "
                             "see la/search/ida_star.py)")


def selected_runs(runs: int, run: int | None) -> list:
    """The runs this process computes: all of 1..`runs`, or only `run` (--run K). Each unit's seed
    depends on its run's number, not on how many runs there are (`unit_rng`), so run K alone is run
    K of the whole experiment."""
    if run is None:
        return list(range(1, runs + 1))
    if not 1 <= run <= runs:
        raise ValueError(f"--run {run}: expected a run of the experiment, 1..{runs} "
                         f"(set --runs N to at least {run})")
    return [run]


def run_units(function, units: list, out: Path, jobs: int, progress=print) -> list:
    """Run `function(unit, out, verbose)` for every unit not yet finished; return every unit's
    result.

    A result is a JSON object with a one-line 'summary'. One progress line per finished unit, with
    an estimate of the time left (`_Schedule`); with `jobs` > 1 the units' own progress lines (their
    progress.log) are echoed too, prefixed with the unit's name. Raises `Stopped` if the run stops
    early: status 2 if a file cannot be written (disk full, read-only, ...; `la.io.WriteError`), as
    for bad input.
    """
    for unit in units:
        if not all(SAFE_NAME.fullmatch(part) and part not in (".", "..")
                   for part in unit["name"].split("/")):
            raise ValueError(f"unit name {unit['name']!r}: "
                             "each part must be letters, digits, '.', '_' or '-' "
                             f"(and not '.' or '..')")
    results, todo = {}, []
    for unit in units:
        done = out / unit["name"] / "unit.json"
        if done.exists():
            results[unit["name"]] = read_result(done)
        else:
            todo.append(unit)
    if results and progress:
        progress(f"{len(results)} of {len(units)} units already done")
    jobs = 1 if jobs <= 1 or len(todo) <= 1 else min(jobs, len(todo))
    schedule = _Schedule(jobs, len(todo))

    def finished(unit, result):
        if not is_result(result):
            raise ValueError(f"unit {unit['name']} returned {type(result).__name__}, "
                             "not a dict with a 'summary'")
        write_json(out / unit["name"] / "unit.json", result)
        results[unit["name"]] = result
        schedule.finish(unit["name"])
        if progress:
            progress(f"[{len(results)}/{len(units)}] {unit['name']} done: {summary(result)}  "
                     f"({schedule.elapsed() / 60:.1f} min so far, "
                     f"about {schedule.left() / 60:.1f} min left)")

    try:
        with terminated_raises():
            if jobs == 1:
                _run_here(function, todo, out, finished, schedule)
            else:
                _run_in_workers(function, todo, out, jobs, finished, progress, schedule)
    except _UnitFailed:
        _stop(1, "stopped", out, len(results), len(units), "fix the cause, then continue with")
    except KeyboardInterrupt:
        _stop(130, "interrupted", out, len(results), len(units), "to continue")
    except Terminated:
        _stop(143, "terminated", out, len(results), len(units), "to continue")
    except OSError as error:
        if not out_of_place(error):
            raise
        _stop(2, f"error: {file_error(error)}", out, len(results), len(units),
              "fix the cause, then continue with")
    return [results[u["name"]] for u in units]


def out_of_place(error: BaseException) -> bool:
    """Whether `error` says a file of the run cannot be written (disk full, quota, read-only, I/O
    error): the place's fault, not the unit's, so the run stops as for bad input (status 2) rather
    than as a failed unit."""
    return isinstance(error, OSError) and error.filename is not None and (
        isinstance(error, WriteError) or error.errno in PLACE_ERRORS)


def _run_here(function, todo: list, out: Path, finished, schedule) -> None:
    """Run the units one after the other in this process, printing their progress lines."""
    for unit in todo:
        schedule.start([unit])
        try:
            result = function(unit, out, True)
        except Exception as error:
            if out_of_place(error):
                raise
            _report_failure(unit, out, f"{type(error).__name__}: {error}", traceback.format_exc())
            raise _UnitFailed() from error
        finished(unit, result)


def _run_in_workers(function, todo: list, out: Path, jobs: int, finished, progress,
                    schedule) -> None:
    """Run the units in `jobs` worker processes, echoing their progress.log lines as they are
    written."""
    logs = {unit["name"]: _Tail(out / unit["name"] / "progress.log") for unit in todo}

    def echo(running):
        schedule.start(running)
        for unit in running if progress else []:
            for line in logs[unit["name"]].new_lines():
                progress(f"  {unit['name']}: {line}")

    try:
        with Workers(jobs) as workers:
            for unit, kind, payload in workers.run(function, todo, out, tick=echo):
                echo([unit])
                if kind == "failed":
                    line, trace, file = payload
                    error = None if file is None else _oserror(*file)
                    if out_of_place(error):
                        raise error
                    _report_failure(unit, out, line, trace)
                    raise _UnitFailed()
                finished(unit, payload)
    except BaseException:
        # The workers have stopped. One killed after its grace time (deep in a NumPy call) may have
        # left a temporary file of a write it had begun; no other process writes in these folders.
        for unit in todo:
            remove_partial(out / unit["name"])
        raise


def _oserror(write: bool, number: int | None, reason: str, filename: str) -> OSError:
    """The OSError a worker reported (`la.runs.processes`), made again in this process."""
    return (WriteError if write else OSError)(number, reason, filename)


def _report_failure(unit: dict, out: Path, line: str, trace: str) -> None:
    """Say at once which unit failed and where its traceback is: the end of its progress.log."""
    log = out / unit["name"] / "progress.log"
    line = " ".join(line.split())
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"failed: {line}\n{trace}")
        where = f"traceback at the end of {log}"
    except OSError as error:                # the unit's failure is the news; say the log could not
                                            # take it
        where = f"its traceback could not be saved: {file_error(error)}"
    print(f"error: unit {out / unit['name']} failed: {line} ({where})", file=sys.stderr, flush=True)


def _stop(code: int, what: str, out: Path, done: int, total: int, advice: str) -> None:
    """Say how far the run got, counting the units of the folder's earlier steps too, and how to
    continue."""
    everything = sum(1 for _ in out.rglob("unit.json"))
    earlier = f" ({everything} in all, with the earlier steps')" if everything > done else ""
    print(f"{what}: {done} of {total} units done{earlier}, kept in {out}; "
          f"{advice}: {resume_command(out)}",
          file=sys.stderr, flush=True)
    raise Stopped(code)


class _Schedule:
    """When each unit began and how long the finished ones took, for the estimate of the time left.

    The estimate assumes each unit takes the mean time of those finished so far (the units of one
    call have the same budgets), less what a running one has run already, and plays out the rest:
    each waiting unit goes to the first of the `jobs` workers free. Dividing the time so far by the
    units done would, with two workers, count the other running unit's work as not begun: at the
    first unit's end, twice the time left."""

    def __init__(self, jobs: int, units: int):
        self.jobs, self.units, self.began, self.took = jobs, units, {}, []
        self.clock = time.perf_counter()

    def start(self, running: list) -> None:
        for unit in running:
            self.began.setdefault(unit["name"], time.perf_counter())

    def finish(self, name: str) -> None:
        self.took.append(time.perf_counter() - self.began.pop(name, self.clock))

    def elapsed(self) -> float:
        return time.perf_counter() - self.clock

    def left(self) -> float:
        """Seconds until the last unit ends (0 if every one has ended)."""
        mean, now = sum(self.took) / len(self.took), time.perf_counter()
        # the running units
        free = [max(mean - (now - began), 0.0) for began in self.began.values()]
        free += [0.0] * (self.jobs - len(free))
        heapq.heapify(free)
        # the waiting units
        for _ in range(self.units - len(self.took) - len(self.began)):
            heapq.heapreplace(free, free[0] + mean)
        return max(free)


class _Tail:
    """The lines added to a unit's progress.log since the run started (only complete lines)."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0

    def new_lines(self) -> list:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except FileNotFoundError:
            return []
        end = chunk.rfind(b"\n") + 1
        self.offset += end
        return chunk[:end].decode(errors="replace").splitlines()


def unit_progress(folder: Path, name: str, verbose: bool):
    """A progress callback for a unit: appends each line to `<folder>/progress.log` and, when
    `verbose`, prints it too (with `--jobs N` the main process echoes the log's new lines
    instead)."""
    folder.mkdir(parents=True, exist_ok=True)

    def progress(line: str) -> None:
        try:
            with open(folder / "progress.log", "a", encoding="utf-8") as log:
                log.write(line + "\n")
        except OSError as error:           # a full disk shows at write or close, with no file named
            raise WriteError(error.errno, error.strerror or str(error),
                             str(folder / "progress.log")) from None
        if verbose:
            print(f"  {name}: {line}", flush=True)
    return progress


def summary(result: dict) -> str:
    """A unit's own one-line summary."""
    return result.get("summary", "")


def mean_std(values) -> tuple:
    """Mean and (population) standard deviation over runs, or (None, None) for none (JSON has no
    NaN)."""
    values = np.asarray(list(values), dtype=float)
    return (float(values.mean()), float(values.std())) if len(values) else (None, None)


def spread(values) -> tuple:
    """(mean, sd, se) over runs: sd as `mean_std` (population), se = the sample sd / √n, None below
    two runs."""
    values = [float(v) for v in values]
    mean, sd = mean_std(values)
    se = float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else None
    return mean, sd, se
