"""GBFS: hand-checked graphs and 8-puzzles, plans replayed on three domains, budgets, and the
batched variant."""
import numpy as np
import pytest

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.classical import Gap, Hamming, Manhattan
from la.heller.batched_best_first import batched_gbfs
from la.heller.greedy import gbfs
from la.search import check_plan
from la.search.bfs import ExactDistances
from toy_graph import Graph, Table

EIGHT, FIFTEEN = SlidingTile(3), SlidingTile(4)
KORF = {i.id: i for i in data.korf100()}


class Recording:
    """A heuristic that records the batches it scores."""

    def __init__(self, heuristic):
        self.heuristic, self.calls = heuristic, []

    def __call__(self, states):
        self.calls.append(states.copy())
        return self.heuristic(states)


def test_one_move_from_the_goal_by_hand():
    """1 . 2 / 3 4 5 / 6 7 8 (MD 1): expanding it generates blank-left (the goal, h 0), blank-right
    and blank-down; the goal is popped next and recognised when expanded: 1 expansion, 1 + 3 nodes
    generated."""
    start = np.array([1, 0, 2, 3, 4, 5, 6, 7, 8])
    result = gbfs(EIGHT, Manhattan(EIGHT), start)
    assert ((result.solved, result.cost, result.status, result.expanded, result.generated)
            == (True, 1, "solved", 1, 4))
    np.testing.assert_array_equal(result.plan, [start, EIGHT.goal])


def test_the_goal_itself_costs_nothing():
    result = gbfs(FIFTEEN, Manhattan(FIFTEEN), FIFTEEN.goal)
    assert (result.cost, result.generated, result.expanded) == (0, 1, 0)


def test_ties_are_broken_first_in_first_out():
    """S -> A, B; A -> C; B -> D; C, D -> G; h = 1 everywhere but S (2) and G (0).

    After S and A the queue holds B and C, both h 1: B, generated first, goes first (FIFO), then C,
    whose child is the goal. A last-in-first-out queue would expand C right after A and never B."""
    S, A, B, C, D, G = range(6)
    graph = Graph({S: [A, B], A: [C], B: [D], C: [G], D: [G]}, goal=G)
    h = Table({S: 2, A: 1, B: 1, C: 1, D: 1, G: 0})
    result = gbfs(graph, h, np.array([S]))
    assert h.calls == [[S], [A, B], [C], [D], [G]]           # the root, then one call per expansion
    assert (result.expanded, result.cost) == (4, 3)
    assert result.plan[:, 0].tolist() == [S, A, C, G]


def test_the_goal_is_recognised_when_expanded_not_when_generated():
    """S -> G, A with h(A) = 0 < h(G) = 1: A is expanded before the goal, already generated, is
    popped."""
    S, A, G = range(3)
    result = gbfs(Graph({S: [G, A]}, goal=G), Table({S: 2, A: 0, G: 1}), np.array([S]))
    assert (result.solved, result.expanded, result.generated, result.cost) == (True, 2, 3, 1)


def test_a_cheaper_path_found_later_becomes_the_parent():
    """S -> A, B; A -> A2 -> C; B -> C; C -> G, with h(A) = h(A2) = 1 < h(B) = 3 < h(C) = 4.

    C is first generated from A2 (g 3); expanding B reaches it with g 2, so B becomes C's parent
    without queueing C again (Fast Downward's GBFS): the plan is S B C G, not S A A2 C G."""
    S, A, B, A2, C, G = range(6)
    graph = Graph({S: [A, B], A: [A2], A2: [C], B: [C], C: [G]}, goal=G)
    h = Table({S: 9, A: 1, B: 3, A2: 1, C: 4, G: 0})
    result = gbfs(graph, h, np.array([S]))
    assert result.plan[:, 0].tolist() == [S, B, C, G]
    assert result.expanded == 5 and sum(len(c) for c in h.calls) == 6             # C evaluated once


def test_no_solution_when_the_queue_runs_dry():
    S, A, B, G = range(4)
    result = gbfs(Graph({S: [A, B], A: [S], B: []}, goal=G), Table({S: 1, A: 1, B: 1, G: 0}),
                  np.array([S]))
    assert ((result.solved, result.status, result.plan, result.expanded)
            == (False, "no solution", None, 3))


def test_each_state_is_evaluated_once_in_one_call_per_expansion():
    h = Recording(Manhattan(FIFTEEN))
    result = gbfs(FIFTEEN, h, random_walk(FIFTEEN, 200, np.random.default_rng(2))[0])
    assert result.solved
    assert len(h.calls) <= result.expanded + 1 and all(1 <= len(c) <= 4 for c in h.calls)
    rows = np.concatenate(h.calls)
    assert len(np.unique(rows, axis=0)) == len(rows)                 # no state scored twice


def test_plans_replay_and_are_never_shorter_than_optimal_on_the_8_puzzle():
    exact = ExactDistances(EIGHT)
    starts = random_walk(EIGHT, 60, np.random.default_rng(0), n=30)
    for start in starts:
        result = gbfs(EIGHT, Manhattan(EIGHT), start)
        check_plan(EIGHT, start, result.plan)
        assert result.cost >= exact(start[None])[0]
        assert result.cost == len(result.plan) - 1


@pytest.mark.parametrize("domain, heuristic, steps", [(FIFTEEN, Manhattan, 300),
                                                      (Pancake(12), Gap, 50),
                                                      (Blocksworld(8), Hamming, 50)])
def test_random_tasks_are_solved_and_plans_replay(domain, heuristic, steps):
    for start in random_walk(domain, steps, np.random.default_rng(1), n=8):
        result = gbfs(domain, heuristic(domain), start, node_limit=300_000)
        assert result.solved, result.status
        check_plan(domain, start, result.plan)


def test_node_limit_stops_the_search():
    result = gbfs(FIFTEEN, Hamming(FIFTEEN), KORF[1].state, node_limit=2_000)
    assert (result.solved, result.status, result.plan) == (False, "node limit", None)
    assert 2_000 < result.generated <= 2_000 + 4                     # checked after every expansion


def test_a_solution_found_within_the_budget_counts():
    start = random_walk(FIFTEEN, 300, np.random.default_rng(3))[0]
    full = gbfs(FIFTEEN, Manhattan(FIFTEEN), start)
    assert gbfs(FIFTEEN, Manhattan(FIFTEEN), start, node_limit=full.generated).solved
    assert not gbfs(FIFTEEN, Manhattan(FIFTEEN), start, node_limit=full.generated - 1).solved


def test_time_limit_stops_the_search():
    result = gbfs(FIFTEEN, Hamming(FIFTEEN), KORF[1].state, time_limit=0.05)
    assert (result.solved, result.status) == (False, "time limit")


def test_batched_with_k_1_is_the_faithful_search():
    for start in random_walk(FIFTEEN, 300, np.random.default_rng(4), n=5):
        a = gbfs(FIFTEEN, Manhattan(FIFTEEN), start)
        b = batched_gbfs(FIFTEEN, Manhattan(FIFTEEN), start, k=1)
        assert (a.generated, a.expanded, a.status) == (b.generated, b.expanded, b.status)
        np.testing.assert_array_equal(a.plan, b.plan)


@pytest.mark.parametrize("k", [4, 64])
def test_batched_returns_valid_plans_with_one_call_per_batch(k):
    for start in random_walk(FIFTEEN, 300, np.random.default_rng(5), n=5):
        h = Recording(Manhattan(FIFTEEN))
        result = batched_gbfs(FIFTEEN, h, start, k=k)
        check_plan(FIFTEEN, start, result.plan)
        # the first batches are short: the queue is small
        assert len(h.calls) <= result.expanded / k + 10
        assert max(len(c) for c in h.calls) <= 4 * k


def test_batched_node_limit_stops_within_one_batch():
    result = batched_gbfs(FIFTEEN, Hamming(FIFTEEN), KORF[1].state, k=16, node_limit=2_000)
    assert result.status == "node limit" and 2_000 < result.generated <= 2_000 + 4 * 16


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unsolvable"):
        gbfs(EIGHT, Manhattan(EIGHT), np.array([0, 2, 1, 3, 4, 5, 6, 7, 8]))
    with pytest.raises(ValueError, match="node limit"):
        gbfs(EIGHT, Manhattan(EIGHT), EIGHT.goal, node_limit=0)
    with pytest.raises(ValueError, match="at least 1"):
        batched_gbfs(EIGHT, Manhattan(EIGHT), EIGHT.goal, k=0)
    with pytest.raises(TypeError, match="integers"):
        gbfs(EIGHT, lambda s: Manhattan(EIGHT)(s) / 2, EIGHT.goal)
