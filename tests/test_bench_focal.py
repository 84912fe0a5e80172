"""`python -m la.bench --only focal`: the quick run's JSON (K = 4,096 and K = 1 with nodes per
second and bytes per node) and its report."""
import json

from la.bench import focal as bench_focal
from la.bench.__main__ import main


def test_quick_run_gives_both_batch_sizes_speed_and_memory_and_the_report_names_them(capsys):
    assert main(["--only", "focal", "--quick", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["focal"]
    assert row["quick"] and (row["instance"], row["weight"], row["alpha"]) == (1, 1.5, 0.9)
    for k, limit in bench_focal.QUICK_NODE_LIMITS.items():
        r = row[f"k{k}"]
        assert r["k"] == k and r["node_limit"] == limit and r["rounds"] == 1
        assert r["status"] == "node limit" and limit < r["generated"] <= limit + 4 * k
        assert r["nodes_per_second"] == r["generated"] / r["seconds"] > 0
        assert r["bytes_per_node"] == r["peak_bytes"] / r["stored"] and r["stored"] > 1
    assert row["ratio"] == row["k4096"]["nodes_per_second"] / row["k1"]["nodes_per_second"]
    text = "\n".join(bench_focal.report(row))
    assert text.count(" nodes/s ") == 2 and "bytes/node" in text and "K = 4096 / K = 1" in text
