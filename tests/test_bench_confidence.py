"""`python -m la.bench --only confidence`: the quick run's JSON (sections gbfs and gbfs_batched with
nodes per second) and its report."""
import json
import subprocess
import sys
from pathlib import Path

from la.bench import confidence as bench_confidence

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_gives_both_searches_speed_and_the_report_names_them():
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "confidence", "--quick",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)["confidence"]
    tasks = len(row["instances"])
    assert row["quick"] and row["instances"] == list(bench_confidence.QUICK_INSTANCES)
    assert row["hidden"] == [64, 64, 64] and row["classes"] > 2 and row["teacher_states"] > 0
    # a step's children past the limit
    for name, overshoot in (("gbfs", 4), ("gbfs_batched", 4 * row["k"])):
        r = row[name]
        assert (tasks < r["generated"] <= tasks * (row["node_limit"] + overshoot)
                and 0 <= r["solved"] <= tasks)
        assert r["nodes_per_second"] == r["generated"] / r["seconds"] > 0
        assert r["target_nodes_per_second"] == bench_confidence.TARGETS[name]
    assert row["ratio"] == row["gbfs_batched"]["nodes_per_second"] / row["gbfs"]["nodes_per_second"]
    text = "\n".join(bench_confidence.report(row))
    assert text.count("M nodes/s") == 2 and "faithful" in text and f"K = {row['k']}" in text
