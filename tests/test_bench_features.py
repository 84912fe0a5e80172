"""`python -m la.bench --only features`: the quick run's JSON and report, its temporary PDB folder,
and the stand-ins it plans with (plans with known h*, a network of the paper's size,
one-state-at-a-time = batched)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from la import data
from la.bench import features as bench_features
from la.config import DOMAINS
from la.domains.blocksworld_cost import optimal_cost
from la.domains.names import make_domain
from la.search import check_plan, ida_star

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_gives_one_object_per_domain_and_leaves_no_pdb_behind(tmp_path):
    # The user's cache folder and the temporary folders are pointed into tmp_path, to see what the
    # run writes.
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "LA_PDB_DIR": str(tmp_path / "cache"),
           "XDG_CACHE_HOME": str(tmp_path / "xdg"), "TMPDIR": str(tmp_path / "tmp")}
    out = subprocess.run([sys.executable, "-m", "la.bench", "--only", "features", "--quick",
                          "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["features"]
    assert list(rows) == ["24-puzzle", "24-pancake", "15-blocksworld"]
    for name, row in rows.items():
        assert row["quick"] and row["hidden"] == DOMAINS[name].n_hidden == 8
        assert row["inputs"] == {"24-puzzle": 15, "24-pancake": 14, "15-blocksworld": 14}[name]
        assert row["fitted_states"] > 0 and len(row["tasks"]) == bench_features.QUICK_TASKS
        r, s = row["incremental"], row["one_at_a_time"]
        assert len(row["tasks"]) < r["generated"] <= len(row["tasks"]) * (row["node_limit"] + 1)
        assert 0 < r["cpu_seconds"] and 0 <= r["solved"] <= len(row["tasks"])
        assert s["generated"] == bench_features.QUICK_ONE_AT_A_TIME_NODES + 1
        assert row["ratio"] == r["nodes_per_second"] / s["nodes_per_second"] > 1
        assert row["target_nodes_per_second"] >= 2e6 and row["authors_nodes_per_second"] > 0
    assert not (tmp_path / "cache").exists() and not (tmp_path / "xdg").exists()
    assert not any(p.name.startswith("la-bench-features-") for p in (tmp_path / "tmp").iterdir())
    text = "\n".join(bench_features.report(rows))
    assert all(f"{name}: " in text for name in rows) and text.count("M nodes/s") == 2 * 3


def test_the_fitted_plans_are_optimal_plans():
    """Each plan the network is fitted to ends at the goal by legal moves and is as long as the
    state's known optimal cost, so the targets along it are h*."""
    rng = np.random.default_rng(0)
    for name in bench_features.CASES:
        domain = make_domain(name)
        plans = bench_features.plans(name, rng, quick=True)
        assert plans
        for plan in plans[:3]:
            check_plan(domain, plan[0], plan)
        if name == "15-blocksworld":
            assert all(optimal_cost(p[:1])[0] == len(p) - 1 for p in plans)
        if name == "24-puzzle":
            assert [len(p) - 1 for p in plans] == [i.optimal for i in data.korf50_24()[:len(plans)]]


def test_one_state_at_a_time_searches_exactly_as_the_batched_heuristic(tmp_path):
    rng = np.random.default_rng(1)
    encoding = bench_features.encoding_of("24-pancake", tmp_path, quick=True)
    net = bench_features.fitted_network(encoding,
                                        bench_features.plans("24-pancake", rng, quick=True), rng)
    h = bench_features.LikelyAdmissible(net, encoding, alpha=bench_features.ALPHA)
    start = bench_features.CASES["24-pancake"]["tasks"]()[0].state
    batched = ida_star(encoding.domain, h, start, node_limit=3_000)
    single = ida_star(encoding.domain, bench_features.OneAtATime(h), start, node_limit=3_000)
    assert (batched.status, batched.generated, batched.bounds) == (single.status, single.generated,
                                                                   single.bounds)
    assert net.n_hidden == 8 and net.n_in == encoding.size
