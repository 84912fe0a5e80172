"""The run machinery when the machine misbehaves: a full disk, a path longer than the system takes,
a Ctrl-C at the worst moment, damaged unit records; and what a long run says while it works (a line
every ~15 s, the time left). A full disk is simulated by an `os.fsync` that fails with ENOSPC, as it
does on a real one when the data cannot be placed, or by /dev/full, where every write fails so.
"""
import errno
import json
import os
import signal
import time
from multiprocessing import get_context, resource_tracker
from pathlib import Path

import numpy as np
import pytest
from test_runner import children, toy_unit, toy_units

import la.io
import la.runs.lock
from la.domains.sliding_tile import SlidingTile
from la.experiments import efficiency
from la.heuristics.classical import Manhattan
from la.io import PARTIAL, WriteError, write_json, write_npz
from la.plots import style
from la.runs import processes, runner
from la.runs.cli import run
from la.runs.progress import Heartbeat
from la.runs.runner import Stopped, run_units, unit_progress

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
FULL = os.strerror(errno.ENOSPC)                        # "No space left on device"


def no_space(fd):
    raise OSError(errno.ENOSPC, FULL)                   # as the kernel says it: no file named


# --- a full disk ----------------------------------------------------------------------------------

@pytest.mark.parametrize("write", [lambda p: write_json(p, {"a": 2}),
                                   lambda p: write_npz(p, {"a": np.arange(2)})])
def test_a_failed_write_names_the_file_asked_for_and_keeps_the_old_one(write, tmp_path,
                                                                       monkeypatch):
    target = tmp_path / "a.file"
    target.write_bytes(b"old")
    monkeypatch.setattr(la.io.os, "fsync", no_space)
    with pytest.raises(WriteError) as failed:
        write(target)
    # not the .tmp-* name
    assert failed.value.filename == str(target) and failed.value.errno == errno.ENOSPC
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["a.file"]


def test_cli_run_turns_a_file_that_cannot_be_written_into_one_line(capsys):
    def failing(error):
        def main(argv):
            raise error
        return main

    assert run(failing(WriteError(errno.ENOSPC, FULL, "results/x.json"))) == 2
    assert capsys.readouterr().err == f"error: cannot write 'results/x.json' ({FULL})\n"
    assert run(failing(OSError(errno.EROFS, "Read-only file system", "results/run1"))) == 2
    assert capsys.readouterr().err == "error: 'results/run1': Read-only file system\n"
    with pytest.raises(OSError):                     # names no file: a bug, whose traceback is kept
        run(failing(OSError(errno.EBADF, "Bad file descriptor")))


@pytest.mark.parametrize("name", ["f.png", "f.pdf"])
def test_a_figure_is_written_whole_or_not_at_all(name, tmp_path, monkeypatch):
    fig = style.plt.figure()
    style.plt.plot([0, 1], [1, 0])
    style.save(fig, tmp_path / name)
    assert (tmp_path / name).read_bytes()[:4] in (b"\x89PNG", b"%PDF")      # the type its name says
    fig = style.plt.figure()
    monkeypatch.setattr(la.io.os, "fsync", no_space)
    with pytest.raises(WriteError) as failed:
        style.save(fig, tmp_path / "g.png")
    assert (failed.value.filename == str(tmp_path / "g.png")
            and [p.name for p in tmp_path.iterdir()] == [name])


@pytest.mark.parametrize("where", ["experiment.json", ".lock"])
def test_a_full_disk_before_the_run_starts_is_one_line_and_leaves_no_folder(where, tmp_path,
                                                                            monkeypatch, capsys):
    out = tmp_path / "new" / "eff"
    if where == ".lock":                           # the lock's process id is the first byte written
        monkeypatch.setattr(la.runs.lock.os, "pwrite", lambda *args: no_space(None))
    else:
        monkeypatch.setattr(la.io.os, "fsync", no_space)
    assert run(efficiency.main, ["--quick", "--out", str(out), "--figure",
                                 str(tmp_path / "f.png")]) == 2
    err = capsys.readouterr().err
    assert (err.startswith("error: cannot write ") and err.endswith(f" ({FULL})\n")
            and err.count("\n") == 1)
    assert str(out / where) in err
    assert list(tmp_path.iterdir()) == []           # neither folder made for the run is left behind


def full_unit(unit: dict, out: Path, verbose: bool) -> dict:
    """A toy unit whose process finds the disk full when it saves its data (when unit["do"] is
    "full")."""
    unit_progress(out / unit["name"], unit["name"], verbose)("step 1")
    if unit["do"] == "full":
        os.fsync = no_space                            # this process's disk is full from now on ...
    try:
        write_json(out / unit["name"] / "data.json", {"value": unit["value"]})
    finally:
        os.fsync = REAL_FSYNC                   # ... until the unit ends (a worker's or the test's)
    return {"summary": "ok", "value": unit["value"]}


REAL_FSYNC = os.fsync


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_full_disk_in_a_unit_stops_the_run_with_one_line_naming_the_file(jobs, tmp_path, capsys):
    units = toy_units("ok", "full", "ok")[:2 if jobs == 1 else 3]
    with pytest.raises(Stopped) as stopped:
        run_units(full_unit, units, tmp_path, jobs, progress=None)
    lines = capsys.readouterr().err.strip().splitlines()
    full = tmp_path / units[1]["name"]
    assert stopped.value.code == 2 and len(lines) == 1, lines
    assert (lines[0].startswith("error: cannot write ")
            and f"{full / 'data.json'}' ({FULL}): " in lines[0])
    assert f"of {len(units)} units done" in lines[0] and "--resume" in lines[0]
    assert not (full / "data.json").exists() and not (full / "unit.json").exists()
    assert (not list(tmp_path.rglob(PARTIAL + "*"))
            and "Traceback" not in (full / "progress.log").read_text())
    assert not [pid for pid, cmd in children(os.getpid()) if "spawn_main" in cmd]


def test_a_signal_as_the_temporary_file_is_made_leaves_no_temporary_file(tmp_path, monkeypatch):
    """SIGTERM in a worker raises SystemExit at the first bytecode after the system call it
    interrupted: here, the moment `os.open` has made the temporary file, before `os.open` has
    returned its descriptor."""
    real_open = os.open

    def open_then_terminated(*args, **kwargs):
        real_open(*args, **kwargs)
        raise SystemExit(143)

    monkeypatch.setattr(la.io.os, "open", open_then_terminated)
    with pytest.raises(SystemExit):
        write_json(tmp_path / "a.json", {"a": 1})
    assert list(tmp_path.iterdir()) == []


def stuck_unit(unit: dict, out: Path, verbose: bool) -> dict:
    """A toy unit: "stuck" begins a write (its temporary file), then ignores SIGTERM as a long NumPy
    call would; "fail" fails once the stuck one's write has begun."""
    folder = out / unit["name"]
    folder.mkdir(parents=True, exist_ok=True)
    if unit["do"] == "stuck":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        (folder / f"{PARTIAL}begun.json").write_text("{")
        time.sleep(60)
    while not list(out.rglob(PARTIAL + "*")):
        time.sleep(0.01)
    raise RuntimeError("the toy unit fails")


def test_a_worker_killed_after_its_grace_time_leaves_no_temporary_file(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.setattr(processes, "GRACE", 0.5)       # the main process's wait before SIGKILL
    began = time.monotonic()
    with pytest.raises(Stopped) as stopped:
        run_units(stuck_unit, toy_units("stuck", "fail"), tmp_path, 2, progress=None)
    assert stopped.value.code == 1 and time.monotonic() - began < 30
    assert "u1-fail failed: RuntimeError: the toy unit fails" in capsys.readouterr().err
    assert not list(tmp_path.rglob(PARTIAL + "*"))
    assert not [pid for pid, cmd in children(os.getpid()) if "spawn_main" in cmd]


def test_a_progress_log_on_a_full_disk_names_itself(tmp_path):
    folder = tmp_path / "unit"
    folder.mkdir()
    (folder / "progress.log").symlink_to("/dev/full")     # Linux's device where every write: ENOSPC
    with pytest.raises(WriteError) as failed:
        unit_progress(folder, "unit", False)("a line")
    assert (failed.value.filename == str(folder / "progress.log")
            and failed.value.errno == errno.ENOSPC)


# --- Ctrl-C while the workers start ---------------------------------------------------------------

class InterruptedStart:
    """The spawn context, but Ctrl-C (SIGINT to this process) arrives once the first worker has
    started and the second is being made: inside the window where the workers start, the worst
    moment. (`Workers` makes the lifeline's pipe, then for each worker its pipe, then the
    worker.)"""

    def __init__(self):
        self.spawn, self.pipes = get_context("spawn"), 0
        self.Process = self.spawn.Process

    def Pipe(self, *args, **kwargs):
        self.pipes += 1
        if self.pipes == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return self.spawn.Pipe(*args, **kwargs)


def test_ctrl_c_while_the_workers_start_stops_the_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(processes, "get_context", lambda method: InterruptedStart())
    # as from a terminal, even in background
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(Stopped) as stopped:
            run_units(toy_unit, toy_units("ok", "ok", "ok"), tmp_path, 2, progress=None)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stopped.value.code == 130
    assert "interrupted: 0 of 3 units done" in capsys.readouterr().err
    # no worker survives
    assert not [pid for pid, cmd in children(os.getpid()) if "spawn_main" in cmd]
    assert not list(tmp_path.rglob("unit.json"))


class Watched:
    """The spawn context, noting whether SIGINT is blocked each time `Workers` makes a worker's
    pipe."""

    def __init__(self):
        self.spawn, self.blocked = get_context("spawn"), []
        self.Process = self.spawn.Process

    def Pipe(self, *args, **kwargs):
        self.blocked.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return self.spawn.Pipe(*args, **kwargs)


def test_ctrl_c_is_held_back_all_the_while_the_workers_start(monkeypatch):
    """Even in a run's first start, when multiprocessing starts its resource tracker, which unblocks
    SIGINT."""
    fresh = resource_tracker.ResourceTracker()               # none running yet, as in a new process
    monkeypatch.setattr(resource_tracker, "ensure_running", fresh.ensure_running)
    monkeypatch.setattr(resource_tracker, "getfd", fresh.getfd)
    watched = Watched()
    monkeypatch.setattr(processes, "get_context", lambda method: watched)
    try:
        with processes.Workers(3):
            pass
    finally:
        fresh._stop()
    # the lifeline's pipe, then the three workers'
    assert watched.blocked == [False, True, True, True]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


# --- damaged unit records -------------------------------------------------------------------------

def test_stopping_counts_the_units_of_the_earlier_steps_too(tmp_path, capsys):
    (tmp_path / "broken").touch()
    # an earlier step: 2 units
    run_units(toy_unit, toy_units("ok", "ok"), tmp_path, 1, progress=None)
    with pytest.raises(Stopped):
        run_units(toy_unit, [{"name": "test-fail", "do": "fail", "value": 0}], tmp_path, 1,
                  progress=None)
    assert ("stopped: 0 of 1 units done (2 in all, with the earlier steps')"
            in capsys.readouterr().err)


# --- what a long run says -------------------------------------------------------------------------

class Clock:
    """A stand-in for time.perf_counter that the test moves."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("jobs, left", [(1, 50.0), (2, 20.0), (3, 10.0)])
def test_the_time_left_counts_the_units_still_running(jobs, left, monkeypatch):
    """Six units of 10 s each, started together on `jobs` workers; one has just ended, the others
    have run as long: (6 - jobs) wait. The time so far per unit done would say 50 s for any number
    of workers."""
    clock = Clock()
    monkeypatch.setattr(runner.time, "perf_counter", clock)
    schedule = runner._Schedule(jobs, 6)
    schedule.start([{"name": f"u{i}"} for i in range(jobs)])
    clock.now = 10.0
    schedule.finish("u0")
    assert schedule.left() == left


def test_the_time_left_counts_what_a_running_unit_has_done(monkeypatch):
    """Two workers, six units of 10 s: u0 ran from 0 to 10 s, u1 began at 6 s. u1 needs 6 s more;
    the four waiting go two by two on the worker free at 10 s and the one free at 16 s: the last
    ends at 26 + 10 = 36 s."""
    clock = Clock()
    monkeypatch.setattr(runner.time, "perf_counter", clock)
    schedule = runner._Schedule(2, 6)
    schedule.start([{"name": "u0"}])
    clock.now = 6.0
    schedule.start([{"name": "u0"}, {"name": "u1"}])  # a unit seen running again keeps its start
    clock.now = 10.0
    schedule.finish("u0")
    assert schedule.left() == 36.0 - 10.0


def test_a_heartbeat_beats_while_its_block_runs_and_hands_on_an_error():
    beats = []
    with Heartbeat(lambda: beats.append(1), every=0.01):
        time.sleep(0.2)
    assert len(beats) >= 5
    count = len(beats)
    time.sleep(0.05)
    assert len(beats) == count                        # no beat after the block

    def broken():
        raise WriteError(errno.ENOSPC, FULL, "progress.log")
    with pytest.raises(WriteError):
        with Heartbeat(broken, every=0.01):
            time.sleep(0.1)


def test_a_test_set_says_how_far_it_is_while_one_search_runs(tmp_path):
    puzzle = SlidingTile(4)
    manhattan = Manhattan(puzzle)

    def slow(states):                       # 20 ms a batch: a search of a few batches takes a while
        time.sleep(0.02)
        return manhattan(states)

    starts, lines = efficiency.test_set(0, 1, 0, 6), []
    said = efficiency.solve_in_order(slow, starts, 10**6, 10**6, progress=lines.append, every=0.01)
    assert said == efficiency.solve_in_order(manhattan, starts, 10**6, 10**6)      # the same answer
    assert len(lines) >= 3 and all(" of 6 (" in line and "M of the set's 1.0 M nodes" in line
                                   for line in lines)
    assert json.dumps(said)                           # what unit.json holds
