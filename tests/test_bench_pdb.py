"""`python -m la.bench --only pdb`: the quick run's JSON and report, its temporary folder, the child's memory."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from la.bench import pdb as bench_pdb

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_gives_one_object_per_domain_and_leaves_no_pdb_behind(tmp_path):
    # The user's cache folder and the temporary folders are pointed into tmp_path, to see what the run writes.
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "LA_PDB_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
           "TMPDIR": str(tmp_path / "tmp")}
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "pdb", "--quick", "--json"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300)
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
    """Linux's ru_maxrss of a spawned child starts at its parent's size: the child must not report that."""
    ballast = np.ones(300 << 20, dtype=np.uint8)                   # this process holds 300 MiB more
    row = bench_pdb.build_in_child("24-pancake", [(0, 1)], str(tmp_path), quiet=True)
    assert bench_pdb.peak_memory_mb() > 300 > 200 > row["peak_memory_mb"] and ballast[-1] == 1
    assert len(row["pdb_seconds"]) == 1 and (tmp_path / "24-pancake_0-1.npy").exists()


def test_a_build_starts_from_scratch(tmp_path):
    bench_pdb.build("24-pancake", [(0, 1)], str(tmp_path), quiet=True)
    with pytest.raises(RuntimeError, match="exists before the build"):
        bench_pdb.build("24-pancake", [(0, 1)], str(tmp_path), quiet=True)
