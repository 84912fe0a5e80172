"""`python -m la.experiments.ground_truth_blocks`: packed keys and their exact cost; a toy network
on the 6-blocksworld measured by brute force (plain Python distances from the goal, every optimal
plan enumerated one state at a time); the table over any number of runs; bad input refused in one
line (exit 2) with nothing written; and, in the slow tier, run 1 of Table 3 measured end to end."""
import functools
import json
from pathlib import Path

import numpy as np
import pytest

from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost
from la.domains.blocksworld_uniform import uniform_states
from la.experiments import ground_truth_blocks as gtb
from la.experiments.ground_truth_blocks_units import (REFERENCE, ExactCost, PackedStates,
                                                      optimal_steps, row_measures, state_sets)
from la.features.blocksworld import BlockFeatures
from la.heuristics.likely_admissible import LikelyAdmissible
from la.heuristics.pdb import PDBHeuristic
from la.nn.ffnn import FFNN
from la.pdb.blocksworld import BlockPattern
from la.pdb.store import load
from la.runs.shapes import check_shape
from refusals import refused

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "figures" / "table3_15-blocksworld.json"
N = 6
PATTERNS = [[1, 2, 3, 4], [3, 4, 5, 6], [1, 2, 5, 6]]


def test_packed_keys_round_trip_and_give_the_exact_cost():
    states = uniform_states(15, 200, np.random.default_rng(1))
    packed = PackedStates(15)
    keys = packed.rank(states)
    assert (packed.unrank(keys) == states).all()
    assert len(np.unique(keys)) == len(np.unique(states, axis=0))
    assert (ExactCost(packed)[keys] == optimal_cost(states)).all()
    with pytest.raises(ValueError, match="1..15 blocks"):
        PackedStates(16)


def test_the_optimal_steps_are_the_children_one_move_cheaper():
    """On 15 blocks, against every child's h* by the rule."""
    domain = Blocksworld(15)
    states = uniform_states(15, 300, np.random.default_rng(2))
    parent, children = optimal_steps(domain, states)
    every_parent, _, every_child = domain.expand(states)
    cheaper = optimal_cost(every_child) == optimal_cost(states)[every_parent] - 1
    packed = PackedStates(15)
    assert (sorted(zip(parent.tolist(), packed.rank(children).tolist()))
            == sorted(zip(every_parent[cheaper].tolist(),
                          packed.rank(every_child[cheaper]).tolist())))
    assert len(parent) >= len(states) - (optimal_cost(states) == 0).sum()   # one at least each


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The 6-blocksworld, its PDB features, a two-output FFNN on them whose mean is a positive
    combination of the features (so that h <= h* holds along some optimal plans and not along
    others), and every state's distance to the goal by a plain breadth-first search."""
    domain = Blocksworld(N)
    folder = tmp_path_factory.mktemp("pdb")
    encoding = BlockFeatures(domain, {"max": [load(BlockPattern(N, p), folder, lambda *a: None)
                                              for p in PATTERNS]})
    # μ = 10·(0.1 + Σ_k w_k x_k) over the scaled features x, w_k in [0, 0.35); σ_a constant
    rng = np.random.default_rng(3)
    net = FFNN(encoding.size, encoding.size, 2, rng)
    net.params.update(W1=np.eye(encoding.size), b1=np.zeros(encoding.size),
                      W2=np.stack([rng.uniform(0, 0.35, encoding.size), np.zeros(encoding.size)],
                                  axis=1), b2=np.array([0.1, -2.0]))
    goal = tuple(int(v) for v in domain.goal)
    distance, frontier = {goal: 0}, [goal]
    while frontier:
        following = []
        for s in frontier:
            for _, child in domain.neighbours(s):
                if child not in distance:
                    distance[child] = distance[s] + 1
                    following.append(child)
        frontier = following
    return domain, encoding, net, distance


def optimal_children(domain, distance, s) -> list:
    return [c for _, c in domain.neighbours(s) if distance[c] == distance[s] - 1]


def brute_held(domain, distance, ok, start, goal: bool) -> bool:
    """Whether one optimal plan from `start` has ok on each state (the goal's counted if `goal`)."""
    @functools.lru_cache(maxsize=None)
    def held(s):
        if distance[s] == 0:
            return ok(s) or not goal
        return ok(s) and any(held(c) for c in optimal_children(domain, distance, s))
    return held(tuple(int(v) for v in start))


def test_a_toy_network_measured_as_brute_force_measures_it(toy):
    domain, encoding, net, distance = toy
    assert len(distance) == 4051                                    # OEIS A000262 at 6
    starts = uniform_states(N, 40, np.random.default_rng(5))
    starts = starts[optimal_cost(starts) > 0]
    sets = state_sets(domain, starts, 500, seed=7)
    on_plans = set()
    for start in starts:
        todo = [tuple(int(v) for v in start)]
        while todo:
            s = todo.pop()
            if s not in on_plans and distance[s] > 0:
                on_plans.add(s)
                todo += optimal_children(domain, distance, s)
    assert {tuple(int(v) for v in s) for s in sets["dag"][0]} == on_plans
    realised = np.arange(len(starts)) % 3 == 0
    held_shares = []
    for alpha in (0.9, 0.5):
        h = LikelyAdmissible(net, encoding, alpha)
        y = lambda states: h.values(h.hidden(states))                      # noqa: E731
        measured = row_measures(domain, h, y, sets, starts, realised, alpha)
        ok = lambda s: int(h(np.array([s], dtype=np.uint8))[0]) <= distance[s]   # noqa: E731
        for name in ("uniform", "plan", "dag"):
            states = [tuple(int(v) for v in s) for s in sets[name][0]]
            assert measured[name]["coverage"] == pytest.approx(np.mean([ok(s) for s in states]))
            for entry in measured[name]["by"]:
                mine = [ok(s) for s in states if distance[s] == entry["key"]]
                assert (entry["states"], entry["coverage"]) == (len(mine),
                                                                 pytest.approx(np.mean(mine)))
        assert 0 < measured["dag"]["coverage"] < 1                    # the toy is no trivial case
        for goal, key in ((False, "held"), (True, "held_goal")):
            held = [brute_held(domain, distance, ok, s, goal) for s in starts]
            assert measured[key] == pytest.approx(np.mean(held))
            lengths = [distance[tuple(int(v) for v in s)] for s in starts]
            for entry in measured["guarantee"]:
                mine = [x for x, L in zip(held, lengths) if L == entry["length"]]
                assert entry[key] == pytest.approx(np.mean(mine))
                assert entry["bound"] == pytest.approx(alpha ** entry["length"])
        assert measured["realised"] == pytest.approx(realised.mean())
        held_shares += [measured["held"], measured["held_goal"]]
    assert 0 < max(held_shares) < 1                                   # no trivial case either
    # h raised at the goal alone: `held` leaves the goal out, `held_goal` counts it
    h = LikelyAdmissible(net, encoding, 0.9)
    lifted = row_measures(domain, lambda s: h(s) + domain.is_goal(s), None, sets, starts,
                          realised, 0.9)
    plain = row_measures(domain, h, None, sets, starts, realised, 0.9)
    assert lifted["held"] == plain["held"] > 0 and lifted["held_goal"] == 0
    floor = row_measures(domain, PDBHeuristic(encoding, encoding.floor_columns), None, sets,
                         starts, realised, None)
    assert all(floor[name]["coverage"] == 1 for name in ("uniform", "plan", "dag"))
    assert floor["held"] == floor["held_goal"] == 1 and floor["bound"] is None
    # a measure unit of such rows is what --resume accepts (`BlocksTruthConfig.unit_shape`)
    unit = {"run": 1, "rows": [{"row": row, **m} for row, m in
                               (("0.9", plain), ("N/A", plain), (REFERENCE, floor))],
            "states": {k: len(sets[k][1]) for k in ("uniform", "plan", "dag")}}
    check_shape(unit, gtb.BlocksTruthConfig((0.9,), 500).unit_shape("run1/measure"), "unit.json")


def test_the_table_averages_any_number_of_runs():
    cfg = gtb.BlocksTruthConfig((0.9,))
    def row(name, c, y):
        return {"row": name, "uniform": {"coverage": c, "y_coverage": y},
                "dag": {"coverage": c / 2, "y_coverage": y},
                "plan": {"coverage": c, "y_coverage": y},
                "held": c, "held_goal": c, "bound": None if y is None else 0.5, "realised": 0.25}
    measures = [{"run": r, "rows": [row("0.9", c, c), row("N/A", c, c), row(REFERENCE, 1.0, None)]}
                for r, c in ((1, 0.2), (2, 0.4), (3, 0.9))]
    table = {r["row"]: r for r in gtb.table(cfg, measures)}
    assert table["0.9"]["runs"] == 3 and table["0.9"]["uniform"] == pytest.approx(50.0)
    assert table["0.9"]["dag"] == pytest.approx(25.0) and table["0.9"]["uniform_sd"] > 0
    assert table[REFERENCE]["uniform_y"] is None and table[REFERENCE]["held"] == 100
    assert "max-PDB" in gtb.format_table(gtb.table(cfg, measures[:1]))


def test_bad_input_is_refused_in_one_line_with_nothing_written(tmp_path, capsys):
    out = tmp_path / "out"

    def refuses(argv, message=None):
        refused(gtb.main, [*argv, "--out", out], capsys, message, absent=out, argparse=False)

    refuses(["--record", ROOT / "figures" / "table3_24-pancake.json"], "not the 15-blocksworld")
    refuses(["--run", "9"], "no run 9")
    refuses(["--networks", str(tmp_path)], "no network for run 1")
    record = json.loads(RECORD.read_text())
    damaged = tmp_path / "damaged.json"
    shuffled = json.loads(json.dumps(record))
    shuffled["tests"][1]["records"].reverse()
    damaged.write_text(json.dumps(shuffled))
    refuses(["--record", str(damaged)], f"row {shuffled['tests'][1]['row']} of run 1")
    record["tests"] = [t for t in record["tests"] if t["row"] != "N/A"]
    damaged.write_text(json.dumps(record))
    refuses(["--record", str(damaged)], "row N/A of run 1")
    record["experiment"] = "efficiency"
    damaged.write_text(json.dumps(record))
    refuses(["--record", str(damaged)], "not 'suboptimality'")
    refused(gtb.main, ["--sample", "0", "--out", out], capsys, "--sample", absent=out, bare=True)


@pytest.mark.slow
def test_run_1_of_table_3_measured_end_to_end(tmp_path, capsys):
    """The committed run: the floor holds everywhere, and the one-plan set is Table 3's calibration
    set, so its coverage is the record's own h_admissible."""
    out = tmp_path / "run"
    assert gtb.main(["--sample", "1000", "--jobs", "1", "--out", str(out)]) == 0
    result = json.loads((out / "results.json").read_text())
    rows = {r["row"]: r for r in result["table"]}
    assert all(rows[REFERENCE][c] == 100 for c in ("uniform", "dag", "plan", "held", "held_goal"))
    table3 = json.loads(RECORD.read_text())
    for c in table3["calibration"]:
        if str(c["alpha"]) in rows:
            assert rows[str(c["alpha"])]["plan"] == pytest.approx(100 * c["h_admissible"])
    assert gtb.main(["--sample", "1000", "--out", str(out), "--resume"]) == 0
    assert "1 of 1 units already done" in capsys.readouterr().out
