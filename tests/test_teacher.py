"""The teacher's training data: plans replayed from their seeds, labels = remaining plan cost,
optimal labels with IDA*, unsolved seeds counted, the heuristic chosen by domain."""
import numpy as np
import pytest

from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import Gap, Hamming, Manhattan
from la.search import check_plan, ida_star
from la.search.bfs import ExactDistances
from la.heller.teacher import label_plans, teacher_data, teacher_heuristic
from toy_graph import Graph

EIGHT = SlidingTile(3)


@pytest.fixture(scope="module")
def exact():
    return ExactDistances(EIGHT)


def plans(data):
    return [data.states[a:b] for a, b in zip(data.starts[:-1], data.starts[1:])]


def test_labels_are_remaining_plan_costs_and_plans_start_at_seeds(exact):
    rng = np.random.default_rng(0)
    data = teacher_data(EIGHT, Manhattan(EIGHT), 20, rng.integers(0, 40, 20), rng)
    assert (data.solved.all() and data.unsolved == 0
            and len(data.states) == len(data.costs) == data.starts[-1])
    for seed, plan, costs in zip(data.seeds, plans(data), np.split(data.costs, data.starts[1:-1])):
        # from the seed, legal moves, to the goal
        check_plan(EIGHT, seed, plan)
        assert costs.tolist() == list(range(len(plan) - 1, -1, -1))    # remaining cost on the plan
    # a satisficing teacher: never below h*
    assert (data.costs >= exact(data.states)).all()


def test_optimal_labels_with_ida_star(exact):
    rng = np.random.default_rng(1)
    data = teacher_data(EIGHT, Manhattan(EIGHT), 15, 30, rng, search=ida_star)
    assert data.solved.all()
    # every suffix of an optimal plan is optimal
    np.testing.assert_array_equal(data.costs, exact(data.states))


def test_unsolved_seeds_are_counted_and_leave_no_states():
    rng = np.random.default_rng(2)
    data = teacher_data(EIGHT, Manhattan(EIGHT), 30, rng.integers(0, 40, 30), rng, node_limit=12)
    assert 0 < data.unsolved < 30 and data.unsolved == (~data.solved).sum()
    assert len(data.starts) - 1 == data.solved.sum()
    for seed, plan in zip(data.seeds[data.solved], plans(data)):
        check_plan(EIGHT, seed, plan)


def test_states_are_not_deduplicated():
    """Two copies of one seed give its plan twice: every state of every plan is kept."""
    seed = np.array([1, 2, 0, 3, 4, 5, 6, 7, 8])
    data = label_plans(EIGHT, np.stack([seed, seed]), Manhattan(EIGHT))
    assert len(data.states) == 2 * 3 and data.costs.tolist() == [2, 1, 0, 2, 1, 0]


def test_same_seed_same_data():
    a, b = (teacher_data(EIGHT, Manhattan(EIGHT), 10, 30, np.random.default_rng(3))
            for _ in range(2))
    np.testing.assert_array_equal(a.states, b.states)
    np.testing.assert_array_equal(a.costs, b.costs)


def test_the_15_puzzle_teacher():
    rng = np.random.default_rng(4)
    domain = SlidingTile(4)
    data = teacher_data(domain, teacher_heuristic(domain), 4, 200, rng)
    assert data.solved.all() and data.generated > 0
    for seed, plan in zip(data.seeds, plans(data)):
        check_plan(domain, seed, plan)


@pytest.mark.parametrize("domain, kind", [(SlidingTile(4), Manhattan), (SlidingTile(3), Manhattan),
                                          (Pancake(24), Gap), (Blocksworld(6), Hamming)])
def test_teacher_heuristic_by_domain(domain, kind):
    assert isinstance(teacher_heuristic(domain), kind)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="at least one seed"):
        teacher_data(EIGHT, Manhattan(EIGHT), 0, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="no teacher heuristic"):
        teacher_heuristic(Graph({0: [1]}, goal=1))
