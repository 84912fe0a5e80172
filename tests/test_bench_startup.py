"""`python -m la.bench --only startup`: one quick round of each command, its JSON and report (a
measurement: no time is asserted), and a command that exits otherwise than expected is an error, not
a fast time."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from la.bench import startup

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_times_each_command_once_and_reports_the_target():
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "startup", "--quick",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["startup"]
    assert results["quick"] and results["rounds"] == startup.QUICK_ROUNDS == 1
    assert list(results["commands"]) == list(startup.COMMANDS)
    for name, row in results["commands"].items():
        assert (len(row["cpu_seconds"]) == 1
                and row["median"] == row["least"] == row["cpu_seconds"][0] > 0)
        assert row["target"] == (startup.TARGET_CPU_SECONDS if name in startup.CHECKED else None)
    text = "\n".join(startup.report(results))
    assert (text.count("(target <= 0.5 s)") == len(startup.CHECKED) == 2
            and "la.solve --help" in text)


def test_a_command_that_exits_otherwise_is_refused():
    with pytest.raises(RuntimeError, match="exited with 2, expected 0"):
        startup.cpu_seconds(["-m", "la.solve", "--korf", "0"], 0)
