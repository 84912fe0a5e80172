"""`la.bench.exact`: the quick run's rows and report, its temporary folder, and the check that
refuses a table whose size, diameter or mean is not the known one."""
import os

import numpy as np
import pytest

from la.bench import exact as bench_exact


@pytest.fixture
def quiet_folders(tmp_path, monkeypatch):
    """The user's cache folders and the temporary folders pointed into tmp_path (the child process
    inherits the environment), to see what the run writes."""
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("LA_PDB_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr("tempfile.tempdir", None)          # re-read TMPDIR
    return tmp_path


def test_quick_run_builds_the_small_tables_and_leaves_nothing_behind(quiet_folders):
    rows = bench_exact.run(np.random.default_rng(0), quick=True)
    assert list(rows) == list(bench_exact.QUICK) == ["8-puzzle", "9-pancake"]
    assert rows["8-puzzle"]["entries"] == 362_880 == 2 * rows["8-puzzle"]["states"]
    assert rows["9-pancake"]["entries"] == 362_880 == rows["9-pancake"]["states"]
    for row in rows.values():
        assert row["quick"] and row["seconds"] > 0 and row["cpu_seconds"] > 0
        assert row["peak_memory_mb"] > 0 and row["states_per_second"] > 0
    assert not (quiet_folders / "cache").exists() and not (quiet_folders / "xdg").exists()
    assert os.listdir(quiet_folders / "tmp") == []
    text = "\n".join(bench_exact.report(rows))
    assert "8-puzzle" in text and "9-pancake" in text and "target" not in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_a_table_that_is_not_the_known_one_fails_the_benchmark(quiet_folders, monkeypatch):
    wrong = {**bench_exact.CASES["8-puzzle"], "diameter": 30}
    monkeypatch.setitem(bench_exact.CASES, "8-puzzle", wrong)
    with pytest.raises(RuntimeError, match="8-puzzle table has 181,440 states, diameter 31"):
        bench_exact.measure("8-puzzle", str(quiet_folders / "tmp"))


def test_the_full_rows_name_their_targets():
    rows = {name: {**case, "quick": False, "entries": 0, "seconds": 1.0, "cpu_seconds": 1.0,
                   "peak_memory_mb": 1.0, "states_per_second": 1.0}
            for name, case in bench_exact.CASES.items()}
    text = "\n".join(bench_exact.report(rows))
    assert text.count("target") == 2 and "(target <= 5 s)" in text and "(target <= 20 s)" in text


def test_the_section_runs_from_the_command_line(quiet_folders):
    import json
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "exact", "--quick", "--json"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["exact"]
    assert [(name, row["diameter"]) for name, row in rows.items()] == [("8-puzzle", 31),
                                                                        ("9-pancake", 10)]
