"""IDA*: hand-checked cases, Korf's published node counts, batched = reference, optimal plans
replayed."""
import resource
from functools import partial

import numpy as np
import pytest

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.base import FromStates
from la.heuristics.classical import Gap, Hamming, Manhattan, Weighted
from la.search import check_plan, ida_star, reference
from la.search.bfs import ExactDistances

PUZZLE = SlidingTile(4)
MD = Manhattan(PUZZLE)
NODES = data.korf100_md_nodes()
KORF = {i.id: i for i in data.korf100()}
EASIEST = sorted(NODES, key=lambda i: NODES[i].published)               # by Korf's node count


@pytest.mark.parametrize("search, generated", [(reference.ida_star, 2), (ida_star, 2),
                                               (partial(ida_star, order="batched"), 4)])
def test_one_move_from_the_goal_by_hand(search, generated):
    """1 . 2 / 3 4 5 / 6 7 8: the blank moves left once.

    Iteration 1 (bound = MD = 1): the root's children are blank-left (the goal, f = 1), blank-right
    and blank-down (f = 1 + 2 each). Depth-first, the goal is the first child: 2 nodes with the
    root. The batched order generates all 3 children at once: 4.
    """
    domain = SlidingTile(3)
    start = np.array([1, 0, 2, 3, 4, 5, 6, 7, 8])
    result = search(domain, Manhattan(domain), start)
    assert (result.solved, result.cost, result.iterations) == (True, 1, 1)
    np.testing.assert_array_equal(result.plan, [start, domain.goal])
    assert result.generated == generated


@pytest.mark.parametrize("search", [ida_star, reference.ida_star])
def test_the_goal_itself_costs_nothing(search):
    result = search(PUZZLE, MD, PUZZLE.goal)
    assert (result.cost, result.generated, result.expanded) == (0, 1, 0)


@pytest.mark.parametrize("instance",
                         [EASIEST[0], pytest.param(EASIEST[1], marks=pytest.mark.slow)])
def test_korfs_node_counts_reference_exactly_batched_in_every_completed_iteration(instance):
    plain = reference.ida_star(PUZZLE, MD, KORF[instance].state)
    assert plain.cost == KORF[instance].optimal
    assert plain.generated == sum(plain.per_iteration) == NODES[instance].published
    batched = ida_star(PUZZLE, MD, KORF[instance].state)
    assert batched.cost == KORF[instance].optimal
    assert batched.per_iteration[:-1] == plain.per_iteration[:-1]
    assert len(batched.per_iteration) == batched.iterations == plain.iterations
    assert sum(batched.per_iteration) == batched.generated


@pytest.mark.slow
@pytest.mark.parametrize("instance", [i for i in EASIEST if NODES[i].agree][2:12])
def test_korfs_node_counts_slow(instance):
    test_korfs_node_counts_reference_exactly_batched_in_every_completed_iteration(instance)


@pytest.mark.parametrize("domain, heuristic, steps", [
    (SlidingTile(3), Manhattan, 40), (SlidingTile(5), Manhattan, 30), (Pancake(9), Gap, 30),
    (Blocksworld(7), Hamming, 30), (Pancake(8), Hamming, 20)])
def test_batched_and_reference_agree_on_other_domains(domain, heuristic, steps):
    h = heuristic(domain)
    for start in random_walk(domain, steps, np.random.default_rng(0), n=4):
        batched, plain = ida_star(domain, h, start), reference.ida_star(domain, h, start)
        assert batched.per_iteration[:-1] == plain.per_iteration[:-1]
        check_plan(domain, start, batched.plan)
        check_plan(domain, start, plain.plan)
        # admissible: same optimal cost
        if heuristic is not Hamming or not isinstance(domain, Pancake):
            assert batched.cost == plain.cost


@pytest.mark.parametrize("domain, heuristic", [(SlidingTile(3), Manhattan), (Pancake(7), Gap),
                                               (Blocksworld(6), Hamming)])
def test_costs_are_optimal_against_exact_distances(domain, heuristic):
    exact = ExactDistances(domain)
    starts = random_walk(domain, 50, np.random.default_rng(1), n=30)
    costs = [ida_star(domain, heuristic(domain), s).cost for s in starts]
    assert costs == exact(starts).tolist()


def test_exact_distances_list_every_state_once_with_its_distance():
    domain = Blocksworld(5)
    exact = ExactDistances(domain)
    states = exact.states()
    # OEIS A000262
    assert len(states) == len(exact) == 501 and len(np.unique(states, axis=0)) == 501
    np.testing.assert_array_equal(exact(states), exact.distance)
    for state in states[:50]:
        domain.check(state)


def test_batch_size_changes_only_the_last_iteration():
    start = KORF[EASIEST[0]].state
    a, b = ida_star(PUZZLE, MD, start, batch_size=100), ida_star(PUZZLE, MD, start, batch_size=5000)
    assert a.per_iteration[:-1] == b.per_iteration[:-1] and a.cost == b.cost


def test_incremental_and_plain_heuristics_search_identically():
    start = KORF[EASIEST[0]].state
    a, b = ida_star(PUZZLE, MD, start), ida_star(PUZZLE, FromStates(MD, PUZZLE), start)
    assert a.per_iteration == b.per_iteration
    np.testing.assert_array_equal(a.plan, b.plan)


def test_optimal_on_the_20_easiest_korf_instances_with_plans_replayed():
    for i in EASIEST[:20]:
        result = ida_star(PUZZLE, MD, KORF[i].state)
        assert result.cost == KORF[i].optimal, i
        check_plan(PUZZLE, KORF[i].state, result.plan)


@pytest.mark.slow
def test_optimal_on_all_of_korfs_100():
    for i in EASIEST[20:]:
        result = ida_star(PUZZLE, MD, KORF[i].state)
        assert result.cost == KORF[i].optimal, i
        check_plan(PUZZLE, KORF[i].state, result.plan)
    # Linux reports kilobytes
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert peak < 1e9, f"peak memory {peak / 1e6:.0f} MB over Korf's 100 (the whole test process)"


@pytest.mark.parametrize("search", [ida_star, reference.ida_star])
def test_node_limit_stops_the_search(search):
    result = search(PUZZLE, MD, KORF[1].state, node_limit=20_000)
    assert ((result.solved, result.cost, result.plan, result.status)
            == (False, None, None, "node limit"))
    # at most one batch beyond
    assert 20_000 < result.generated < 20_000 + 4 * 16384


def test_time_limit_stops_the_search():
    result = ida_star(PUZZLE, MD, KORF[1].state, time_limit=0.05)
    assert (result.solved, result.status) == (False, "time limit")


def test_a_solution_found_within_the_budget_counts():
    i = EASIEST[0]
    full = ida_star(PUZZLE, MD, KORF[i].state)
    assert ida_star(PUZZLE, MD, KORF[i].state, node_limit=full.generated).solved
    assert not ida_star(PUZZLE, MD, KORF[i].state, node_limit=full.generated - 1).solved


def test_bad_limits_are_refused():
    with pytest.raises(ValueError, match="node limit"):
        ida_star(PUZZLE, MD, PUZZLE.goal, node_limit=0)
    with pytest.raises(ValueError, match="unsolvable"):
        ida_star(PUZZLE, MD, np.array([0, 2, 1] + list(range(3, 16))))


def test_check_plan_rejects_broken_plans():
    result = ida_star(PUZZLE, MD, KORF[EASIEST[0]].state)
    with pytest.raises(ValueError, match="legal move"):
        check_plan(PUZZLE, result.plan[0], np.delete(result.plan, 3, axis=0))
    with pytest.raises(ValueError, match="goal"):
        check_plan(PUZZLE, result.plan[0], result.plan[:-1])


# --- the depth-first order: exactly the reference's search ----------------------------------------

@pytest.fixture(scope="module")
def learned():
    """y^0.9 of a 128-20-2 network fitted to h* on Korf's optimal paths (the benchmark's):
    inadmissible."""
    from la.bench.neural import fitted_network
    from la.features import OneHot
    from la.heuristics.likely_admissible import LikelyAdmissible
    return LikelyAdmissible(fitted_network(np.random.default_rng(0)), OneHot(PUZZLE), alpha=0.9)


def assert_same_search(a, b):
    """Equal searches; `expanded` too unless the node limit stopped them (then only `generated` is
    exact)."""
    assert ((a.status, a.cost, a.generated, a.iterations)
            == (b.status, b.cost, b.generated, b.iterations))
    assert a.status == "node limit" or a.expanded == b.expanded
    assert a.bounds == b.bounds and a.per_iteration == b.per_iteration
    if b.solved:
        np.testing.assert_array_equal(a.plan, b.plan)


@pytest.mark.parametrize("weight", [1, 2, 3])
@pytest.mark.parametrize("batch_size", [pytest.param(1, marks=pytest.mark.slow), 5, 32768])
def test_depth_first_order_is_the_reference_search(weight, batch_size):
    """Same plan, same node counts, same bounds as the recursive IDA*, whatever the chunk size."""
    h = Weighted(MD, weight)
    for start in random_walk(PUZZLE, 30, np.random.default_rng(weight), n=5):
        plain = reference.ida_star(PUZZLE, h, start)
        assert_same_search(ida_star(PUZZLE, h, start, batch_size=batch_size), plain)


def test_depth_first_order_with_a_learned_heuristic(learned):
    solved = 0
    for start in random_walk(PUZZLE, 30, np.random.default_rng(5), n=5):
        plain = reference.ida_star(PUZZLE, learned, start, node_limit=30_000)
        assert_same_search(ida_star(PUZZLE, learned, start, node_limit=30_000), plain)
        assert_same_search(ida_star(PUZZLE, learned, start, node_limit=30_000, batch_size=3), plain)
        solved += plain.solved
    # the plans themselves are compared, not only the limits
    assert solved >= 3


def test_depth_first_archive_compaction_keeps_the_plans(learned, monkeypatch):
    """Compacting the archive after every chunk (it keeps only ancestors of pending nodes) changes
    nothing."""
    import la.search.depth_first as depth_first
    monkeypatch.setattr(depth_first, "COMPACT_AT", 0)
    for start in random_walk(PUZZLE, 30, np.random.default_rng(5), n=3):
        plain = reference.ida_star(PUZZLE, learned, start, node_limit=30_000)
        assert_same_search(ida_star(PUZZLE, learned, start, node_limit=30_000, batch_size=3), plain)
    for start in random_walk(PUZZLE, 30, np.random.default_rng(2), n=3):
        h = Weighted(MD, 2)
        assert_same_search(ida_star(PUZZLE, h, start, batch_size=5),
                           reference.ida_star(PUZZLE, h, start))


def test_depth_first_archive_stays_small_in_a_long_iteration(monkeypatch):
    """A chain of chunks, each with one node still an ancestor of the pending one (as when a search
    works sideways at a steady stack height): the archive keeps that chain, not every node (it once
    passed 12 GB)."""
    import la.search.depth_first as depth_first
    monkeypatch.setattr(depth_first, "COMPACT_AT", 1_000)
    archive, parent = depth_first.Archive(), -1
    for _ in range(400):
        parent = archive.add(np.zeros((100, 16), np.uint8), np.full(100, parent), height=5)
        if archive.large():
            archive.compact(np.array([parent]))
    assert archive.next_id == 40_000 and archive.size <= 1_100
    # the whole chain of ancestors
    assert len(archive.plan(np.zeros(16, np.uint8), parent)) == 401


def test_depth_first_stack_pops_in_preorder_across_segments_and_stops_before_a_goal():
    """The newest segment is the leftmost; a chunk runs on into older segments and stops before the
    first goal."""
    from la.search.depth_first import Stack
    stack = Stack()

    def rows(ids, goal):
        n = len(ids)
        return dict(goal=np.array(goal), state=np.tile(np.array(ids, np.uint8)[:, None], (1, 2)),
                    h=np.array(ids), pop=np.zeros(n, np.int64), g=np.zeros(n, np.int64),
                    parent=np.array(ids), w=np.ones(n, np.int64), x=np.zeros(n, np.int64),
                    carry=None)

    stack.push(**rows([10, 11, 12, 13, 14], [False, False, False, True, False]))
    stack.push(**rows([1, 2], [False, False]))
    assert len(stack) == 7 and stack.top("h") == 1 and not stack.top_is_goal()
    one = stack.pop_chunk(1)
    assert one["h"].tolist() == [1] and one["carry"] is None
    chunk = stack.pop_chunk(100)
    assert (chunk["h"].tolist() == [2, 10, 11, 12]
            and chunk["state"][:, 0].tolist() == [2, 10, 11, 12])
    assert len(stack) == 2 and stack.top("h") == 13 and stack.top_is_goal()
    stack.add_to_top(5, 2)
    assert (stack.top("w"), stack.top("x")) == (6, 2)
    assert stack.parents().tolist() == [13, 14]


@pytest.mark.parametrize("domain, heuristic", [(Pancake(9), Hamming), (Blocksworld(7), Hamming),
                                               (SlidingTile(3), Manhattan)])
def test_depth_first_order_on_other_domains(domain, heuristic):
    for weight in (1, 3):
        h = Weighted(heuristic(domain), weight)
        for start in random_walk(domain, 25, np.random.default_rng(weight), n=4):
            assert_same_search(ida_star(domain, h, start, batch_size=4),
                               reference.ida_star(domain, h, start))


def test_depth_first_order_solves_within_a_budget_exactly_when_the_reference_does():
    h = Weighted(MD, 2)
    for start in random_walk(PUZZLE, 40, np.random.default_rng(9), n=3):
        needed = reference.ida_star(PUZZLE, h, start).generated
        for limit in (needed - 1, needed, needed + 1, needed // 2):
            batched, plain = (ida_star(PUZZLE, h, start, node_limit=limit),
                              reference.ida_star(PUZZLE, h, start, node_limit=limit))
            assert batched.solved == plain.solved == (limit >= needed)
            assert batched.generated == plain.generated
            assert batched.per_iteration == plain.per_iteration


def test_the_orders_differ_with_an_inadmissible_heuristic():
    """The batched order returns the shallowest goal within the bound, depth-first order the first
    one met."""
    h = Weighted(MD, 3)
    costs = {order: [ida_star(PUZZLE, h, s, order=order).cost
                     for s in random_walk(PUZZLE, 60, np.random.default_rng(2), n=8)]
             for order in ("depth-first", "batched")}
    assert all(b <= d for b, d in zip(costs["batched"], costs["depth-first"]))
    assert costs["batched"] != costs["depth-first"]


def test_an_unknown_order_is_refused_and_the_learner_searches_in_its_configs_order(monkeypatch):
    import la.learn
    from la.config import LearnConfig
    from la.features import OneHot
    with pytest.raises(ValueError, match="order must be one of"):
        LearnConfig(order="breadth-first")
    with pytest.raises(ValueError, match="one of depth-first, batched, got 'breadth-first'"):
        ida_star(PUZZLE, MD, KORF[1].state, order="breadth-first")

    class Searched(Exception):
        """Raised by the learner's first search, with the order it asked for."""

    def search(*args, order="depth-first", **kwargs):
        raise Searched(order)
    monkeypatch.setattr(la.learn, "ida_star", search)
    learner = la.learn.Learner(PUZZLE, LearnConfig(order="batched"), np.random.default_rng(0),
                               OneHot(PUZZLE))
    with pytest.raises(Searched, match="^batched$"):
        learner.run_iteration()


@pytest.mark.slow
@pytest.mark.parametrize("weight, instances",
                         [(1, EASIEST[:3]), (2, range(1, 16)), (3, range(1, 16))])
def test_depth_first_order_on_korf_instances_slow(weight, instances):
    h = Weighted(MD, weight)
    for instance in instances:
        start = KORF[instance].state
        assert_same_search(ida_star(PUZZLE, h, start), reference.ida_star(PUZZLE, h, start))
