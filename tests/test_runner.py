"""The experiment runner under stress: Ctrl-C, SIGTERM and SIGKILL during `--jobs 2`, one run per
folder, failing units, damaged folders, file permissions.

The signal tests start a real `python -m la.experiments.efficiency --quick --jobs 2` in its own
session, signal it once both workers are busy, and ask the kernel (/proc) whether any process of the
run is left.
"""
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from la.experiments import efficiency
from la.io import PARTIAL, remove_partial, write_json, write_npz
from la.runs.checkpoint import check_checkpoint
from la.runs.cli import run
from la.runs.folder import check_folder
from la.runs.lock import hold, release
from la.runs.runner import Stopped, run_units, unit_progress

ROOT = Path(__file__).resolve().parents[1]
UNITS = 7                                       # --quick: 1 run x 7 networks
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


# --- helpers: a real run, and what the kernel says about its processes ----------------------------

class Run:
    """`efficiency --quick --jobs 2` into `out`, in a session of its own (so it has its own process
    group).

    A context manager: on the way out, any process of the run still alive is killed, so that a
    failing test leaves nothing running (only processes this test started: the run and the children
    it was seen with).
    """

    def __init__(self, out: Path, *extra):
        self.out, self.pids = out, []
        out.parent.mkdir(parents=True, exist_ok=True)
        self.console = out.parent / f"{out.name}.console"
        with open(self.console, "w") as console, open(self.console.with_suffix(".err"), "w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "la.experiments.efficiency", "--quick", "--jobs", "2",
                 "--out", str(out), "--figure", str(out.parent / f"{out.name}.png"), *extra],
                cwd=ROOT, stdout=console, stderr=err, start_new_session=True,
                # as from a terminal, even if these tests run in background
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def __enter__(self):
        return self

    def __exit__(self, *error):
        for pid in [self.process.pid, *self.pids]:
            if state(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stderr(self) -> str:
        return self.console.with_suffix(".err").read_text()

    def busy(self, finished: int = 0, timeout: float = 180) -> list:
        """Wait until `finished` units are done and two more run (both workers busy); the run's
        children."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.process.poll() is None, (f"the run ended before it could be signalled: "
                                                 f"{self.stderr()}")
            assert time.monotonic() < deadline, "the run never had two units in progress"
            done = {p.parent for p in self.out.glob("run1/*/unit.json")}
            running = {p.parent for p in self.out.glob("run1/*/progress.log")} - done
            if len(done) >= finished and len(running) >= 2:
                break
            time.sleep(0.05)
        processes = children(self.process.pid)
        self.pids = [pid for pid, _ in processes]
        # both workers alive now
        assert sum("spawn_main" in cmd for _, cmd in processes) == 2, processes
        return self.pids


def state(pid: int) -> str | None:
    """The process's state letter, or None if there is no such process (a zombie, Z, counts as
    gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None if fields[0] in "ZX" else fields[0]


def children(pid: int) -> list:
    """Live processes whose parent is `pid`, as (pid, command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                cmdline = ((entry / "cmdline").read_bytes().replace(b"\0", b" ")
                           .decode(errors="replace"))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
            if ppid == pid and state(int(entry.name)):
                found.append((int(entry.name), cmdline))
    return found


def gone(pids: list, within: float) -> bool:
    deadline = time.monotonic() + within
    while any(state(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def files(folder: Path) -> dict:
    """Every file under `folder` but the lock, with its bytes: to see that nothing was touched."""
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


# --- signals --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A real run stopped by Ctrl-C (SIGINT to its process group) once a unit is done and two are
    running."""
    out = tmp_path_factory.mktemp("runner") / "interrupted"
    # units of a few seconds: the signal lands while two run
    with Run(out, "--test-sets", "3") as job:
        pids = job.busy(finished=1)
        os.killpg(job.process.pid, signal.SIGINT)
        signalled = time.monotonic()
        job.process.wait(timeout=60)
        return {"out": out, "status": job.process.returncode, "pids": pids, "stderr": job.stderr(),
                "seconds": time.monotonic() - signalled}


def test_ctrl_c_stops_every_worker_and_says_how_to_resume(interrupted):
    out, stderr = interrupted["out"], interrupted["stderr"]
    assert interrupted["status"] == 130, stderr
    assert interrupted["seconds"] < 20 and gone(interrupted["pids"], within=5)
    done = len(list(out.glob("run1/*/unit.json")))
    # the units in progress were stopped, not finished
    assert 1 <= done < UNITS
    assert f"{done} of {UNITS} units done" in stderr and "--resume" in stderr
    assert f"la.experiments.efficiency --quick --jobs 2 --out {out}" in stderr
    assert "Traceback" not in stderr and not list(out.rglob(PARTIAL + "*"))
    check_folder(out)                                           # whole: a --resume would accept it


def test_sigterm_to_the_main_process_stops_its_workers(tmp_path):
    # long units: no time to just finish them
    with Run(tmp_path / "terminated", "--test-sets", "20") as job:
        pids = job.busy()
        job.process.send_signal(signal.SIGTERM)
        job.process.wait(timeout=60)
        assert job.process.returncode == 143, job.stderr()
        assert gone(pids, within=5)
        assert f"terminated: 0 of {UNITS} units done" in job.stderr() and "--resume" in job.stderr()
        assert "Traceback" not in job.stderr()


def test_workers_stop_by_themselves_when_the_main_process_is_killed(tmp_path):
    out = tmp_path / "killed"
    with Run(out, "--test-sets", "20") as job:
        pids = job.busy()
        # SIGKILL: the main process can do nothing
        job.process.kill()
        job.process.wait(timeout=10)
        # long before the units could have finished
        assert gone(pids, within=3)
    assert not list(out.rglob("unit.json")) and not list(out.rglob(PARTIAL + "*"))
    check_folder(out)
    # the kernel released the dead run's lock
    hold(out)
    release(out)


def test_one_run_per_folder(tmp_path):
    out = tmp_path / "shared"
    with Run(out) as first:
        # written once the run holds the folder
        while not (out / "experiment.json").exists():
            assert first.process.poll() is None, first.stderr()
            time.sleep(0.05)
        # --resume twice, or a second run on the same --out
        for extra in (["--resume"], []):
            second = subprocess.run([sys.executable, "-m", "la.experiments.efficiency", "--quick",
                                     "--out", str(out), *extra],
                                    cwd=ROOT, capture_output=True, text=True, timeout=120)
            assert second.returncode == 2
            assert len(second.stderr.strip().splitlines()) == 1
            assert str(out) in second.stderr and f"process {first.process.pid}" in second.stderr


# --- failing units and the console, in this process with a toy unit -------------------------------

def toy_unit(unit: dict, out: Path, verbose: bool) -> dict:
    """A unit for these tests: logs a step, then fails or waits a minute while `<out>/broken`
    exists."""
    progress = unit_progress(out / unit["name"], unit["name"], verbose)
    progress("step 1")
    if (out / "broken").exists() and unit["do"] == "fail":
        raise RuntimeError("the toy unit is broken")
    if (out / "broken").exists() and unit["do"] == "wait":
        time.sleep(60)
    progress("step 2")
    return {"summary": f"{unit['name']} ok", "value": unit["value"]}


def toy_units(*plan) -> list:
    return [{"name": f"u{i}-{do}", "do": do, "value": i} for i, do in enumerate(plan)]


@pytest.mark.parametrize("jobs, plan",
                         [(1, ("ok", "fail", "ok")), (2, ("ok", "wait", "fail", "ok"))])
def test_a_failing_unit_stops_the_run_at_once_and_keeps_finished_units(jobs, plan, tmp_path,
                                                                       capsys):
    units, out = toy_units(*plan), tmp_path / "toy"
    out.mkdir()
    (out / "broken").touch()
    began = time.monotonic()
    with pytest.raises(Stopped) as stopped:
        run_units(toy_unit, units, out, jobs, progress=None)
    # not after the waiting unit's minute
    assert stopped.value.code == 1 and time.monotonic() - began < 30
    failed = out / units[plan.index("fail")]["name"]
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and f"unit {failed} failed: RuntimeError" in lines[0]
    assert (str(failed / "progress.log") in lines[0]
            and "Traceback" in (failed / "progress.log").read_text())
    assert f"1 of {len(units)} units done" in lines[1] and "--resume" in lines[1]
    assert ([u["name"] for u in units if (out / u["name"] / "unit.json").exists()]
            == [units[0]["name"]])
    # the run stopped before the last unit began
    assert not (out / units[-1]["name"]).exists()
    assert not [pid for pid, cmd in children(os.getpid()) if "spawn_main" in cmd]

    # fixed: resume from the finished unit
    (out / "broken").unlink()
    lines = []
    results = run_units(toy_unit, units, out, jobs, progress=lines.append)
    assert [r["value"] for r in results] == list(range(len(units)))
    assert lines[0] == f"1 of {len(units)} units already done"


def test_parallel_units_echo_their_progress_log(tmp_path):
    lines, units = [], toy_units("ok", "ok", "ok")
    run_units(toy_unit, units, tmp_path, 2, progress=lines.append)
    for unit in units:
        name = unit["name"]
        mine = [line for line in lines if name in line]
        # each step, before the unit's end
        assert mine[:2] == [f"  {name}: step 1", f"  {name}: step 2"]
        assert f"] {name} done: {name} ok" in mine[2] and "min left" in mine[2]
    assert [line[:5] for line in lines if line.startswith("[")] == ["[1/3]", "[2/3]", "[3/3]"]


# --- damaged folders ------------------------------------------------------------------------------

def _truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _random(path):
    path.write_bytes(np.random.default_rng(0).bytes(4096))


@pytest.mark.parametrize("which, damage", [
    ("experiment.json", lambda p: p.write_text('{"settings": ')),
    ("experiment.json", lambda p: p.write_text('["not", "a", "record"]')),
    ("unit.json", lambda p: p.write_text("not JSON")),
    ("unit.json", lambda p: p.write_text("{}")),
    ("unit.json", lambda p: p.write_text("[1, 2]")),
    # a result, but not an efficiency unit's
    ("unit.json", lambda p: p.write_text('{"summary": "x"}')),
    ("unit.json",
     lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "tests": [{"solved": "1"}]}))),
    ("tasks.json", lambda p: p.write_text('{"id": 1}')),
    ("checkpoint.npz", _truncate),
    ("checkpoint.npz", _random),
    ("network.npz", _random),
], ids=["experiment-not-json", "experiment-a-list", "unit-not-json", "unit-empty", "unit-a-list",
        "unit-summary-only", "unit-tests-of-strings", "tasks-not-a-list", "checkpoint-truncated",
        "checkpoint-random", "network-random"])
def test_resume_refuses_a_damaged_folder_in_one_line_and_touches_nothing(which, damage, interrupted,
                                                                         tmp_path, capsys):
    out = tmp_path / "copy"
    shutil.copytree(interrupted["out"], out)
    done = next(out.glob("run1/*/unit.json")).parent
    damaged = out / which if which == "experiment.json" else done / which
    damage(damaged)
    before = files(out)
    assert run(efficiency.main, ["--quick", "--test-sets", "3", "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(damaged) in err and ("delete" in err or "restore" in err)
    assert files(out) == before                                 # nothing trained, nothing rewritten


_SEARCHED = {"id": 1, "optimal": 50, "solved": True, "cost": 52, "generated": 10, "seconds": 0.1}


@pytest.mark.parametrize("experiment, unit, result, missing", [
    # no run folder
    ("suboptimality", "md", {"run": None, "row": "MD", "tasks": 1, "unsolved": 0}, "records"),
    ("suboptimality", "run1/test-0.9", {"run": 1, "row": "0.9", "tasks": 1, "unsolved": 0},
     "records"),
    ("suboptimality", "run1/calibration", {"run": 1}, "calibration"),
    ("suboptimality", "run1/alpha", {"network": "alpha"}, "run"),
    ("confidence", "hard-classical",
     {"run": None, "name": "GBFS classical", "tasks": 1, "solved": 1}, "records"),
    ("confidence", "run1/search/dual-A40-softmax",
     {"run": 1, "name": "dual A40", "tasks": 1, "solved": 1}, "records"),
    ("confidence", "run1/teacher", {"H": 50}, "run"),
    ("confidence", "run1/W50", {"run": 1, "network": "W50"}, "seconds"),
])
def test_a_resume_checks_each_unit_against_what_its_kind_must_hold(experiment, unit, result,
                                                                   missing, tmp_path):
    """The suboptimality and confidence experiments' units are of several kinds
    (`unit_shapes.unit_shape`): a unit whose unit.json lacks what its tables read is refused before
    the resume starts, naming file and key."""
    from functools import partial
    from la.experiments.unit_shapes import unit_shape
    write_json(tmp_path / "experiment.json",
               {"settings": {"config": {}}, "command": "python -m la.experiments.x"})
    records = {"records": [{**_SEARCHED, "expanded": 5, "status": "solved"}], "coverage": 100.0,
               "cost": 52.0, "generated": 10.0, **dict.fromkeys(("time", "subopt", "optimal"), 0.0)}
    whole = {"run": 1, "network": "W50", "seconds": 1.0, "H": 50, "summary": "done", **records,
             "calibration": [{"y_alpha_below_h_star": 0.9, "h_admissible": 0.95}],
             **dict.fromkeys(("in", "out_u", "out_w", "tau", "mae", "epochs"), 0.5), **result}
    write_json(tmp_path / unit / "unit.json", whole)
    check_folder(tmp_path, partial(unit_shape, experiment))                       # whole: accepted
    write_json(tmp_path / unit / "unit.json", {k: v for k, v in whole.items() if k != missing})
    # still a unit's result (JSON with a 'summary') ...
    check_folder(tmp_path)
    with pytest.raises(ValueError,
                       match=f"unit.json: the record has no '{missing}'.*delete the folder"):
        # ... but not one its tables can read
        check_folder(tmp_path, partial(unit_shape, experiment))


def test_a_new_run_into_a_used_folder_needs_resume_or_another_out(interrupted, capsys):
    assert run(efficiency.main, ["--quick", "--out", str(interrupted["out"])]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--resume" in err and "another --out" in err


def test_check_checkpoint_accepts_a_whole_one_and_names_what_is_missing(interrupted, tmp_path):
    good = next(interrupted["out"].glob("run1/*/checkpoint.npz"))
    check_checkpoint(good)
    with np.load(good, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != "buffer/labels"}
    write_npz(tmp_path / "checkpoint.npz", arrays)
    with pytest.raises(ValueError, match="buffer"):
        check_checkpoint(tmp_path / "checkpoint.npz")


# --- files ----------------------------------------------------------------------------------------

def test_files_are_written_with_the_users_umask(tmp_path):
    previous = os.umask(0o027)
    try:
        write_json(tmp_path / "a.json", {"a": 1})
        write_npz(tmp_path / "a.npz", {"x": np.arange(3)})
    finally:
        os.umask(previous)
    assert ([(tmp_path / name).stat().st_mode & 0o777 for name in ("a.json", "a.npz")]
            == [0o640, 0o640])


def test_an_interrupted_write_leaves_the_old_file_and_no_partial_one(tmp_path):
    write_json(tmp_path / "a.json", {"a": 1})
    with pytest.raises(TypeError):
        write_json(tmp_path / "a.json", {"a": object()})        # fails halfway: cannot serialise
    assert json.loads((tmp_path / "a.json").read_text()) == {"a": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
    (tmp_path / f"{PARTIAL}left-by-a-killed-run.npz").write_bytes(b"half")
    assert (len(remove_partial(tmp_path)) == 1
            and sorted(p.name for p in tmp_path.iterdir()) == ["a.json"])
