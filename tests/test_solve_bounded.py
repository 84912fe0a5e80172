"""`python -m la.solve --search focal|wastar`: the plan with its certificate (lower bound, certified
ratio) as text and JSON, the same search one node at a time as the reference, the limits, and the
refusals, each one line and exit status 2 before any work."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import la.solve as solve
import la.solve_bounded as solve_bounded
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.classical import make_heuristic
from la.search import check_plan, ida_star
from refusals import refused, refused_process

ROOT = Path(__file__).resolve().parents[1]
NETWORK = ROOT / "figures" / "suboptimality-networks" / "run1" / "alpha" / "network.npz"
EIGHT = "8 1 2 0 4 3 7 5 6"                  # an 8-puzzle state 21 moves from the goal (C* = 21)


class WorkStarted(BaseException):
    """Raised when a refused command gets as far as loading heuristics or searching."""


def tripwire(*args, **kwargs):
    raise WorkStarted()


def run(*args):
    return subprocess.run([sys.executable, "-m", "la.solve", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def certified(record, c_star, weight):
    """The certificate holds: LB <= C* <= cost <= weight · LB, the ratio as stated."""
    assert record["solved"] and record["status"] == "solved"
    assert record["lower_bound"] <= c_star <= record["cost"] <= weight * record["lower_bound"]
    assert record["certified_ratio"] == pytest.approx(record["cost"] / record["lower_bound"])
    assert record["certified_ratio"] <= weight


def test_focal_search_prints_its_plan_cost_lower_bound_and_certified_ratio():
    out = run("--search", "focal", "--weight", "1.25", "--heuristic", "hamming",
              "--domain", "8-puzzle", EIGHT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[3] == "plan (21 moves), one state per line:" and lines[4] == EIGHT
    assert lines[-2].startswith("cost 21  lower bound ") and "certified ratio" in lines[-2]
    assert "generated" in lines[-1] and "stored" in lines[-1] and "MB" in lines[-1]


def test_one_node_at_a_time_the_batched_search_equals_the_reference_through_the_command():
    records = [json.loads(run("--search", "focal", "--weight", "1.5", "--heuristic", "hamming",
                              "--domain", "8-puzzle", EIGHT, "--json", *extra).stdout)
               for extra in (["--batch", "1"], ["--algorithm", "reference"])]
    for record in records:
        certified(record, 21, 1.5)
        check_plan(SlidingTile(3), np.array(record["start"]), np.array(record["plan"]))
    fields = ("plan", "cost", "lower_bound", "certified_ratio", "generated", "expanded",
              "reopened", "stored")
    assert [records[0][f] for f in fields] == [records[1][f] for f in fields]
    assert (records[0]["batch"], records[1]["batch"]) == (1, 1)


def test_weighted_a_star_on_korf_12_keeps_its_bound_in_json():
    out = run("--search", "wastar", "--weight", "1.25", "--korf", "12", "--json", "--batch", "256")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    certified(record, 45, 1.25)
    assert (record["search"], record["floor"], record["heuristic"], record["optimal"]) == \
        ("wastar", "md", None, 45)
    assert record["peak_bytes"] > 0 and record["stored"] <= record["generated"]


def test_focal_search_with_a_committed_network_and_y_alpha():
    domain = SlidingTile(4)
    start = random_walk(domain, np.array([40]), np.random.default_rng(2), 1)[0]
    c_star = ida_star(domain, make_heuristic("md", domain), start).cost
    out = run("--search", "focal", "--weight", "1.1", "--floor", "md", "--network", NETWORK,
              "--alpha", "0.9", "--json", *start)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    certified(record, c_star, 1.1)
    assert (record["heuristic"], record["alpha"], record["network"]) == \
        ("network", 0.9, str(NETWORK))
    check_plan(domain, start, np.array(record["plan"]))


@pytest.mark.parametrize("limit, status", [("--node-limit", "node limit"),
                                           ("--memory-limit", "memory limit")])
def test_a_limit_stops_the_search_unsolved_with_exit_1_and_a_lower_bound(limit, status):
    out = run("--search", "wastar", "--weight", "1.0", "--korf", "1", limit,
              "2000" if limit == "--node-limit" else "1e6")
    assert out.returncode == 1, out.stderr
    assert f"not solved ({status}) (optimal 57)  lower bound " in out.stdout


@pytest.mark.parametrize("args, message", [
    (["--search", "focal", "--korf", "1"], "give --network PATH"),
    (["--search", "focal", "--weight", "0.9", "--heuristic", "md", "--korf", "1"],
     "--weight: must be at least 1"),
    (["--search", "wastar", "--weight", "nan", "--korf", "1"], "expected a number"),
    (["--search", "wastar", "--floor", "network", "--korf", "1"], "a network is likely"),
    (["--search", "wastar", "--floor", "hamming", "--domain", "5-pancake", "1 0 2 3 4"],
     "--floor hamming is not an admissible heuristic on the 5-pancake"),
    (["--search", "wastar", "--floor", "gap", "--domain", "4-blocksworld", "0 1 0 3"],
     "admissible there: hamming, max-pdb, exact"),
    (["--search", "wastar", "--floor", "pdb", "--domain", "8-puzzle", "1 0 2 3 4 5 6 7 8"],
     "'pdb' needs additive PDB partitions"),
    (["--search", "wastar", "--floor", "exact", "--korf", "1"], "far too many"),
    (["--search", "focal", "--heuristic", "max-pdb", "--korf", "1"], "'max-pdb'"),
    (["--search", "wastar", "--heuristic", "md", "--korf", "1"], "focal search's"),
    (["--search", "wastar", "--network", NETWORK, "--korf", "1"], "focal search's"),
    (["--search", "focal", "--heuristic", "md", "--order", "batched", "--korf", "1"],
     "IDA*'s goal order"),
    (["--search", "wastar", "--time-limit", "5", "--korf", "1"], "--time-limit is not"),
    (["--search", "wastar", "--algorithm", "reference", "--memory-limit", "1e9", "--korf", "1"],
     "--memory-limit is not an option of --search wastar --algorithm reference"),
    (["--search", "wastar", "--algorithm", "reference", "--batch", "8", "--korf", "1"],
     "--batch is not"),
    (["--search", "wastar", "--memory-limit", "0", "--korf", "1"], "must be at least 1"),
    (["--search", "wastar", "--batch", "1.5", "--korf", "1"], "expected an integer"),
    (["--search", "astar", "--korf", "1"], "invalid choice"),
    (["--weight", "1.5", "--korf", "1"], "IDA*'s weight"),
    (["--floor", "md", "--korf", "1"], "--floor is an option of --search focal or wastar"),
    (["--memory-limit", "1e9", "--korf", "1"], "not of IDA*"),
    (["--search", "focal", "--network", NETWORK, "--domain", "8-puzzle", "1 0 2 3 4 5 6 7 8"],
     "not the 8-puzzle"),
])
def test_refusals_are_one_line_and_exit_2_before_any_work(args, message, capsys, monkeypatch):
    for name in ("focal_search", "weighted_a_star", "heuristic_named"):
        monkeypatch.setattr(solve_bounded, name, tripwire)
    monkeypatch.setattr(solve, "ida_star", tripwire)
    refused(solve.main, args, capsys, message)


def test_a_refusal_from_a_real_process():
    out = run("--search", "focal", "--floor", "hamming", "--heuristic", "gap",
              "--domain", "5-pancake", "1 0 2 3 4")
    refused_process(out, "not an admissible heuristic on the 5-pancake")
