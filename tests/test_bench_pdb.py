"""`python -m la.bench --only pdb`: the quick run's JSON and report, its temporary folder, the
child's memory, and its build process, which never outlives the bench."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from la.bench import pdb as bench_pdb
from la.runs.processes import GRACE

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_gives_one_object_per_domain_and_leaves_no_pdb_behind(tmp_path):
    # The user's cache folder and the temporary folders are pointed into tmp_path, to see what the
    # run writes.
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "LA_PDB_DIR": str(tmp_path / "cache"),
           "XDG_CACHE_HOME": str(tmp_path / "xdg"), "TMPDIR": str(tmp_path / "tmp")}
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "pdb", "--quick", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["pdb"]
    assert list(rows) == ["24-puzzle", "24-pancake", "15-blocksworld"]
    for name, row in rows.items():
        assert row["quick"] and len(row["pdb_seconds"]) == len(row["patterns"]) > 0
        assert all(len(p) == bench_pdb.QUICK_ITEMS for p in row["patterns"])
        assert row["build_seconds"] >= sum(row["pdb_seconds"]) > 0
        assert row["peak_memory_mb"] >= row["start_memory_mb"] > 0
        heuristics = ["pdb", "max-pdb"] if name == "24-puzzle" else ["max-pdb"]
        assert [h for h in ("pdb", "max-pdb") if h in row] == heuristics
        for h in heuristics:
            assert row[h]["nodes_per_second"] > 0 and row[h]["generated"] > len(row["tasks"])
            assert row[h]["generated"] <= len(row["tasks"]) * (row["node_limit"] + 1)
        assert row["encodings_per_second"] > 0 and row["encoding_batch"] == bench_pdb.QUICK_BATCH
    assert not (tmp_path / "cache").exists() and not (tmp_path / "xdg").exists()
    assert not any(p.name.startswith("la-bench-pdb-") for p in (tmp_path / "tmp").iterdir())
    text = "\n".join(bench_pdb.report(rows))
    assert all(f"{name}: " in text for name in rows) and text.count("M nodes/s") == 4 + 3


def test_a_child_build_reports_its_own_peak_memory(tmp_path):
    """Linux's ru_maxrss of a spawned child starts at its parent's size: the child must not report
    that."""
    ballast = np.ones(300 << 20, dtype=np.uint8)                   # this process holds 300 MiB more
    row = bench_pdb.build_in_child("24-pancake", [(0, 1)], str(tmp_path), quiet=True)
    assert bench_pdb.peak_memory_mb() > 300 > 200 > row["peak_memory_mb"] and ballast[-1] == 1
    assert len(row["pdb_seconds"]) == 1 and (tmp_path / "24-pancake_0-1.npy").exists()


def test_a_build_starts_from_scratch(tmp_path):
    bench_pdb.build("24-pancake", [(0, 1)], str(tmp_path), quiet=True)
    with pytest.raises(RuntimeError, match="exists before the build"):
        bench_pdb.build("24-pancake", [(0, 1)], str(tmp_path), quiet=True)


def children(pid: int) -> list:
    """The live processes whose parent is `pid` (a zombie counts as gone), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[1]) == pid and fields[0] not in "ZX":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM])
def test_the_build_process_dies_with_the_bench(stop, tmp_path):
    """A `ProcessPoolExecutor` worker outlived a killed bench, blocked on a pipe for ever. Now the
    bench's build process is an experiments' worker: the bench is signalled inside its first
    24-puzzle build, and the worker (and multiprocessing's resource tracker) must be gone long
    before that build could end. SIGTERM (a timeout's kill) also removes the temporary PDB folder
    and exits with 143."""
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "LA_PDB_DIR": str(tmp_path / "cache"), "TMPDIR": str(tmp_path / "tmp")}
    err = tmp_path / "err"
    with open(err, "w") as stderr:
        bench = subprocess.Popen([sys.executable, "-m", "la.bench", "--only", "pdb"], cwd=ROOT,
                                 env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                                 start_new_session=True)
    started = []
    try:
        deadline = time.monotonic() + 120
        while "building the 24-puzzle PDB" not in err.read_text():  # the worker is inside the build
            assert bench.poll() is None and time.monotonic() < deadline, err.read_text()
            time.sleep(0.05)
        started = children(bench.pid)
        assert started, "no build process"
        os.kill(bench.pid, stop)
        status = bench.wait(timeout=60)
        # a worker inside a long NumPy call is killed after GRACE
        deadline = time.monotonic() + GRACE + 3
        while any(alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in started if alive(pid)]
        if stop == signal.SIGTERM:
            assert status == 143 and err.read_text().endswith("terminated\n")
            assert list((tmp_path / "tmp").iterdir()) == []
        assert not (tmp_path / "cache").exists()
    finally:                                            # leave nothing running, whatever failed
        for pid in [bench.pid, *started]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        bench.wait(timeout=10)
