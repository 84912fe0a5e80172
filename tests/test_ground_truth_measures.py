"""The ground-truth measurements (`la.experiments.ground_truth_measures`) against brute force on the
8-puzzle: the optimal DAG and the "an optimal plan within h*" event against every optimal plan
enumerated one state at a time, with hand-made heuristics (Manhattan distance, 2·MD, h* + noise);
the multi-source distances against their defining property; coverage, reliability, the label audit
and the search summary on hand-computed cases; the searched-state sampler; the pancake one-hot."""
import numpy as np
import pytest

from la.domains.names import make_domain
from la.domains.uniform import uniform_states
from la.experiments import ground_truth_measures as gm
from la.experiments.ground_truth_units import Sampler
from la.features.pancake_one_hot import PancakeOneHot
from la.heuristics.classical import make_heuristic
from la.heuristics.likely_admissible import LikelyAdmissible
from la.nn.config import build_ffnn
from la.nn.ffnn import SCALE
from la.nn.config import FFNNConfig
from la.pdb.exact import UNSEEN, h_star_table
from la.search import ida_star

PUZZLE = make_domain("8-puzzle")


@pytest.fixture(scope="module")
def exact():
    return h_star_table(PUZZLE)


def optimal_plans(domain, h_star, start: tuple) -> list:
    """Every optimal plan from `start`, one state at a time: each move that lowers h* by one."""
    if h_star(np.array([start], dtype=np.uint8))[0] == 0:
        return [[start]]
    children = [c for _, c in domain.neighbours(start)]
    costs = h_star(np.array(children, dtype=np.uint8))
    here = h_star(np.array([start], dtype=np.uint8))[0]
    return [[start, *rest] for c, v in zip(children, costs) if v == here - 1
            for rest in optimal_plans(domain, h_star, c)]


def starts(n: int, most: int, exact, seed: int = 0) -> np.ndarray:
    """n 8-puzzle states of h* 1..`most` (short walks keep the brute force small)."""
    rng = np.random.default_rng(seed)
    ranks = np.flatnonzero((exact.table != UNSEEN) & (exact.table >= 1) & (exact.table <= most))
    return exact.abstraction.unrank(rng.choice(ranks, n, replace=False))


HEURISTICS = {"MD": lambda md, hs, s, rng: md(s),
              "2MD": lambda md, hs, s, rng: 2 * md(s),
              "h* + noise": lambda md, hs, s, rng: hs(s) + rng.integers(-1, 2, len(s)),
              "MD, 1 at the goal": lambda md, hs, s, rng: md(s) + (hs(s) == 0)}


@pytest.mark.parametrize("name", HEURISTICS)
def test_the_optimal_dag_and_the_plan_within_h_star_agree_with_every_plan_enumerated(name, exact):
    tasks = starts(12, 9, exact)
    md, score = make_heuristic("md", PUZZLE), HEURISTICS[name]
    noise = {}                                      # h* + noise: the same h for a state each time

    def h(states):
        values = score(md, exact, states, np.random.default_rng(0))
        for i, s in enumerate(map(bytes, states)):
            values[i] = noise.setdefault(s, values[i])
        return values

    ok_of = lambda states: h(states) <= exact(states)                                # noqa: E731
    levels = gm.optimal_dag(exact.abstraction, exact.table, PUZZLE, tasks)
    plans = [optimal_plans(PUZZLE, exact, tuple(int(v) for v in s)) for s in tasks]
    on_plans = {s for task in plans for plan in task for s in plan}
    assert {bytes(s) for v in levels for s in exact.abstraction.unrank(levels[v])} == \
        {bytes(s) for s in on_plans}
    for goal in (False, True):                       # the goal's h counted, or not
        held = gm.optimal_plan_held(exact.abstraction, exact.table, PUZZLE, levels, ok_of, tasks,
                                    goal)
        brute = [any(all(ok_of(np.array(plan if goal else plan[:-1], dtype=np.uint8)))
                     for plan in task) for task in plans]
        assert held.tolist() == brute
        if name == "MD, 1 at the goal":              # within h* but at the goal, on every plan
            assert held.all() != goal and held.any() != goal
    if name == "MD":
        assert held.all()                            # admissible: every plan is within h*
    if name == "2MD":
        assert not held.all()


def test_distances_are_zero_at_the_sources_and_one_more_than_the_nearest_neighbour(exact):
    sources = uniform_states(PUZZLE, 3, np.random.default_rng(1))
    d = gm.distances(exact.abstraction, PUZZLE, sources, len(exact.table))
    assert (d[exact.abstraction.rank(sources)] == 0).all()
    assert ((d == UNSEEN) == (exact.table == UNSEEN)).all()      # every reachable state reached
    goal_only = gm.distances(exact.abstraction, PUZZLE, PUZZLE.goal[None], len(exact.table))
    assert (goal_only == exact.table).all()                     # from the goal alone: h*
    sample = exact.abstraction.unrank(np.random.default_rng(2).choice(
        np.flatnonzero((d != UNSEEN) & (d > 0)), 200, replace=False))
    parent, _, children = PUZZLE.expand(sample)
    child = d[exact.abstraction.rank(children)].astype(int)
    nearest = np.full(len(sample), 99)
    np.minimum.at(nearest, parent, child)
    assert (nearest == d[exact.abstraction.rank(sample)].astype(int) - 1).all()


def test_coverage_by_key_and_weight_by_hand():
    ok = np.array([True, False, True, True])
    result = gm.coverage_by(ok, key=[1, 1, 2, 3], weight=[1.0, 3.0, 1.0, 1.0])
    assert result["coverage"] == pytest.approx(3 / 6) and result["states"] == 4
    assert [(b["key"], b["states"], b["coverage"]) for b in result["by"]] == \
        [(1, 2, 0.25), (2, 1, 1.0), (3, 1, 1.0)]
    assert gm.coverage_by(ok)["coverage"] == 0.75


def test_reliability_by_value_labels_and_summary_by_hand():
    rows = gm.reliability([10.0, 10.0], [1.0, 1.0], [10, 12], [0.5, 0.99])
    # the median 10 covers h* = 10 only; the 0.99-quantile 12.33 covers both
    assert [r["observed"] for r in rows] == [0.5, 1.0]
    assert gm.by_value([1.0, 3.0, 5.0], [0, 0, 2]) == [
        {"key": 0, "states": 2, "mean": 2.0, "median": 2.0},
        {"key": 2, "states": 1, "mean": 5.0, "median": 5.0}]
    audit = gm.label_audit([3, 2, 1, 0, 5], [3, 1, 1, 0, 4], [2, 0, 3])
    assert [(a["records"], a["mean_error"], a["above"]) for a in audit] == \
        [(2, 0.5, 0.5), (0, None, None), (3, 1 / 3, 1 / 3)]
    with pytest.raises(ValueError, match="added 4 records, the buffer holds 5"):
        gm.label_audit([3, 2, 1, 0, 5], [3, 1, 1, 0, 4], [2, 2])
    summary = gm.subopt_summary([
        {"optimal": 10, "solved": True, "cost": 12, "generated": 100},
        {"optimal": 5, "solved": True, "cost": 5, "generated": 300},
        {"optimal": 7, "solved": False, "cost": None, "generated": 999}])
    assert summary == {"tasks": 3, "unsolved": 1, "subopt": pytest.approx(10.0),
                       "optimal": 50.0, "generated": 200.0}


def test_the_sampler_leaves_the_search_alone_and_keeps_states_it_scored(exact):
    h = make_heuristic("md", PUZZLE)

    class Incremental:                        # MD with start/step, as LikelyAdmissible has
        def start(self, states):
            return h(states), None

        def step(self, states, values, carry, parent, move):
            return h(PUZZLE.apply(states, parent, move)), None

    start = uniform_states(PUZZLE, 1, np.random.default_rng(3))[0]
    plain = ida_star(PUZZLE, h, start)
    sampler = Sampler(Incremental(), PUZZLE, 20, np.random.default_rng(4))
    sampled = ida_star(PUZZLE, sampler, start)
    assert (sampled.cost, sampled.generated) == (plain.cost, plain.generated)
    # it scores what the search generated and the nodes a batch ran ahead to (la.search.depth_first)
    assert sampler.evaluated >= plain.generated and len(sampler.sample) == 20
    assert len({bytes(s) for s in sampler.sample}) > 1
    # each sampled state lies at most the last bound from the start, so its h* differs by at most it
    assert (np.abs(exact(sampler.sample) - exact(start[None])) <= plain.cost).all()
    # the 20 smallest of one key per generated node: a uniform sample of the generated nodes
    keys = np.random.default_rng(4).random(sampler.evaluated)
    assert (np.sort(sampler.keys) == np.sort(keys)[:20]).all()


def test_the_pancake_one_hot_encodes_and_steps_like_encoding_the_children():
    stacks = make_domain("9-pancake")
    encoding = PancakeOneHot(stacks)
    states = uniform_states(stacks, 5, np.random.default_rng(5))
    x = encoding(states)
    assert x.shape == (5, 81) and (x.sum(axis=1) == 9).all()
    assert all(x[i, p * 9 + states[i, p]] == 1 for i in range(5) for p in range(9))
    ffnn, _ = build_ffnn(FFNNConfig(), encoding.size, np.random.default_rng(6), SCALE)
    h = LikelyAdmissible(ffnn, encoding, 0.9)
    values, carry = h.start(states)
    parent, move, children = stacks.expand(states)
    stepped, _ = h.step(states, values, carry, parent, move)      # the parents' states
    assert (stepped == h(children)).all()
    with pytest.raises(ValueError, match="not the 8-puzzle"):
        PancakeOneHot(PUZZLE)
