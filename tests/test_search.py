"""IDA*: hand-checked cases, Korf's published node counts, batched = reference, optimal plans replayed."""
import resource

import numpy as np
import pytest

from la import data
from la.domains import Blocksworld, Pancake, SlidingTile, random_walk
from la.heuristics import Gap, Hamming, Manhattan
from la.heuristics.base import FromStates
from la.search import check_plan, ida_star, reference
from la.search.bfs import ExactDistances

PUZZLE = SlidingTile(4)
MD = Manhattan(PUZZLE)
NODES = data.korf100_md_nodes()
KORF = {i.id: i for i in data.korf100()}
EASIEST = sorted(NODES, key=lambda i: NODES[i].published)               # by Korf's node count


@pytest.mark.parametrize("search", [ida_star, reference.ida_star])
def test_one_move_from_the_goal_by_hand(search):
    """. 1 2 / 3 4 5 / 6 7 8 with 1 and the blank swapped: the blank moves left once.

    Iteration 1 (bound = MD = 1): the root's children are blank-left (the goal, f = 1) and blank-down
    (f = 1 + 2): the goal is the first child, so 2 nodes are generated with the root.
    """
    domain = SlidingTile(3)
    start = np.array([1, 0, 2, 3, 4, 5, 6, 7, 8])
    result = search(domain, Manhattan(domain), start)
    assert (result.solved, result.cost, result.iterations) == (True, 1, 1)
    np.testing.assert_array_equal(result.plan, [start, domain.goal])
    assert result.generated == (2 if search is reference.ida_star else 4)   # batched: all 3 children at once


@pytest.mark.parametrize("search", [ida_star, reference.ida_star])
def test_the_goal_itself_costs_nothing(search):
    result = search(PUZZLE, MD, PUZZLE.goal)
    assert (result.cost, result.generated, result.expanded) == (0, 1, 0)


@pytest.mark.parametrize("instance", EASIEST[:2])
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
        if heuristic is not Hamming or not isinstance(domain, Pancake):     # admissible: same optimal cost
            assert batched.cost == plain.cost


@pytest.mark.parametrize("domain, heuristic", [(SlidingTile(3), Manhattan), (Pancake(7), Gap),
                                               (Blocksworld(6), Hamming)])
def test_costs_are_optimal_against_exact_distances(domain, heuristic):
    exact = ExactDistances(domain)
    starts = random_walk(domain, 50, np.random.default_rng(1), n=30)
    costs = [ida_star(domain, heuristic(domain), s).cost for s in starts]
    assert costs == exact(starts).tolist()


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
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024            # Linux reports kilobytes
    assert peak < 1e9, f"peak memory {peak / 1e6:.0f} MB over Korf's 100 (the whole test process)"


@pytest.mark.parametrize("search", [ida_star, reference.ida_star])
def test_node_limit_stops_the_search(search):
    result = search(PUZZLE, MD, KORF[1].state, node_limit=20_000)
    assert (result.solved, result.cost, result.plan, result.status) == (False, None, None, "node limit")
    assert 20_000 < result.generated < 20_000 + 4 * 16384                  # at most one batch beyond


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
