"""Domain invariants: moves undo, predecessors, walks, validation, text."""
import itertools

import numpy as np
import pytest

from la.domains.blocksworld import Blocksworld
from la.domains.names import make_domain
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.runs import cli

NAMES = ["8-puzzle", "15-puzzle", "24-puzzle", "7-pancake", "24-pancake", "6-blocksworld",
         "15-blocksworld"]


def sample(domain, rng, n=200, steps=40):
    """Reachable states: random walks of random lengths from the goal."""
    return random_walk(domain, rng.integers(0, steps, n), rng, n=n)


@pytest.mark.parametrize("name", NAMES)
def test_undo_of_every_move_restores_the_parent(name):
    domain, rng = make_domain(name), np.random.default_rng(1)
    states = sample(domain, rng)
    parent, move, children = domain.expand(states)
    back = domain.apply(children, np.arange(len(children)), domain.inverse(move))
    assert len(parent) > len(states)
    np.testing.assert_array_equal(back, states[parent])
    np.testing.assert_array_equal(domain.inverse(domain.inverse(move)), move)


@pytest.mark.parametrize("name", NAMES)
def test_batched_moves_agree_with_the_plain_python_ones_in_order(name):
    domain, rng = make_domain(name), np.random.default_rng(2)
    states = sample(domain, rng, n=50)
    _, move, _ = domain.expand(states)
    pop = domain.inverse(move[rng.integers(len(move), size=len(states)) % len(move)])
    pop[::3] = -1                                                # some states without a pruned move
    parent, move, children = domain.expand(states, pop)
    for i, state in enumerate(states):
        plain = domain.neighbours(tuple(int(v) for v in state), int(pop[i]))
        mine = parent == i
        assert [m for m, _ in plain] == move[mine].tolist()
        assert [list(c) for _, c in plain] == children[mine].tolist()


@pytest.mark.parametrize("name", NAMES)
def test_parent_pruning_removes_exactly_the_move_back(name):
    domain, rng = make_domain(name), np.random.default_rng(3)
    states = sample(domain, rng, n=50)
    parent, move, children = domain.expand(states)
    child_index, _, grandchildren = domain.expand(children, domain.inverse(move))
    # one move fewer per child
    assert len(child_index) == len(domain.expand(children)[0]) - len(children)
    grandparents = states[parent][child_index]
    assert not np.all(grandchildren == grandparents, axis=1).any()        # none leads straight back


@pytest.mark.parametrize("domain, enumerate_states", [
    (SlidingTile(2), lambda d: [p for p in itertools.permutations(range(4)) if valid(d, p)]),
    (Pancake(4), lambda d: list(itertools.permutations(range(4)))),
    (Blocksworld(4), lambda d: [s for s in itertools.product(range(5), repeat=4) if valid(d, s)]),
])
def test_predecessors_are_exactly_the_states_with_a_move_into_the_state(domain, enumerate_states):
    states = np.array(enumerate_states(domain), dtype=np.uint8)
    parent, children = domain.expand(states)[0], domain.expand(states)[2]
    into = {tuple(s): set() for s in states.tolist()}
    for p, c in zip(parent, children.tolist()):
        into[tuple(c)].add(tuple(states[p].tolist()))
    pred_parent, preds = domain.predecessors(states)
    for i, s in enumerate(states.tolist()):
        assert {tuple(p) for p in preds[pred_parent == i].tolist()} == into[tuple(s)]
    assert {SlidingTile: 12, Pancake: 24, Blocksworld: 73}[type(domain)] == len(states)


def valid(domain, state) -> bool:
    try:
        domain.validate(np.array(state))
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("name", NAMES)
def test_random_walks_never_undo_their_previous_step_unless_forced(name):
    domain, rng = make_domain(name), np.random.default_rng(4)
    trace = random_walk(domain, 30, rng, n=100, trace=True)
    for before, now, after in zip(trace, trace[1:], trace[2:]):
        undone = np.all(before == after, axis=1)
        for i in np.flatnonzero(undone):                         # only where the only move was back
            assert len(domain.neighbours(tuple(int(v) for v in now[i]))) == 1
    assert not np.all(trace[-1] == domain.goal, axis=1).all()


def test_random_walks_are_reproducible_and_take_per_walk_lengths():
    domain = make_domain("15-puzzle")
    a = random_walk(domain, [0, 1, 5], np.random.default_rng(7), n=3)
    b = random_walk(domain, [0, 1, 5], np.random.default_rng(7), n=3)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a[0], domain.goal)
    assert (a[1] != domain.goal).sum() == 2                    # one move: blank and one tile differ


def test_blocksworld_single_tower_walks_are_forced_back():
    domain = Blocksworld(2)
    trace = random_walk(domain, 4, np.random.default_rng(0), trace=True)
    assert [t[0].tolist() for t in trace][:2] == [[0, 1], [0, 0]]


@pytest.mark.parametrize("name", NAMES)
def test_goal_and_text_round_trip(name):
    domain, rng = make_domain(name), np.random.default_rng(5)
    assert domain.is_goal(domain.goal[None])[0]
    for state in sample(domain, rng, n=20):
        np.testing.assert_array_equal(cli.parse_state(domain, cli.state_text(state)), state)
        assert isinstance(domain.format(state), str)
    states = sample(domain, rng, n=20)
    assert domain.is_goal(states).tolist() == np.all(states == domain.goal, axis=1).tolist()


def test_branching_factors():
    assert len(SlidingTile(4).neighbours(tuple(range(16)))) == 2                 # blank in a corner
    assert len(Pancake(24).neighbours(tuple(range(24)))) == 23
    tower = Blocksworld(15)
    assert len(tower.neighbours(tuple(range(15)))) == 1                   # only the top block moves
    # k stacks: k(k-1) moves block to block plus one move to the table per stack of height >= 2
    state = (0, 1, 0, 3, 4, 0)                                            # stacks [1 2] [3 4 5] [6]
    assert len(Blocksworld(6).neighbours(state)) == 3 * 2 + 2


def test_names():
    assert make_domain("8-puzzle").width == 3 and make_domain("24-puzzle").width == 5
    assert make_domain("24-pancake").size == 24 and make_domain("15-blocksworld").size == 15
    for bad in ["7-puzzle", "puzzle", "15-towers", "1-pancake"]:
        with pytest.raises(ValueError):
            make_domain(bad)


@pytest.mark.parametrize("domain, state, message", [
    (SlidingTile(4), list(range(15)), "has 16 numbers"),
    (SlidingTile(4), [0, 1, 1] + list(range(3, 16)), "tile 1 appears more than once"),
    (SlidingTile(4), [0, 1, 2] + list(range(4, 17)), "out of range"),
    (SlidingTile(4), [0, 2, 1] + list(range(3, 16)), "unsolvable"),
    (SlidingTile(3), [1, 0, 2, 3, 4, 5, 6, 8, 7], "unsolvable"),
    (Pancake(5), [0, 1, 2, 3, 3], "pancake 3 appears more than once"),
    (Pancake(5), [0, 1, 2, 3], "has 5 numbers"),
    (Blocksworld(4), [0, 1, 1, 0], "blocks 2 and 3 both stand on block 1"),
    (Blocksworld(4), [2, 3, 1, 0], "cycle"),
    (Blocksworld(4), [0, 2, 0, 0], "block 2 stands on itself"),
    (Blocksworld(4), [0, 5, 0, 0], "out of range"),
])
def test_validation_names_the_problem(domain, state, message):
    with pytest.raises(ValueError, match=message):
        domain.validate(np.array(state))
    with pytest.raises(ValueError):
        cli.parse_state(domain, "1 2 x")


def test_solvability_matches_reachability_on_the_8_puzzle():
    from la.search.bfs import ExactDistances
    domain = SlidingTile(3)
    reachable = ExactDistances(domain)
    keys = set(reachable.keys.tolist())
    rng = np.random.default_rng(6)
    for perm in [rng.permutation(9) for _ in range(200)]:
        assert valid(domain, perm) == (int(reachable.key(perm[None])[0]) in keys)


@pytest.mark.parametrize("domain, count", [(SlidingTile(2), 12), (SlidingTile(3), 181_440),
                                           (Pancake(3), 6), (Blocksworld(3), 13)])
def test_uniform_states_are_reachable_and_equally_likely(domain, count):
    from la.domains.uniform import uniform_states
    from la.search.bfs import ExactDistances
    states = uniform_states(domain, 24_000, np.random.default_rng(1))
    assert states.shape == (24_000, domain.size) and states.dtype == np.uint8
    exact = ExactDistances(domain)
    assert len(exact.distance) == count
    exact(states)                                          # raises if a state cannot reach the goal
    if count <= 100:                                     # and each state about 24,000 / count times
        _, seen = np.unique(states, axis=0, return_counts=True)
        expected = 24_000 / count
        assert len(seen) == count and np.abs(seen - expected).max() < 5 * np.sqrt(expected)


def test_uniform_states_refuse_a_negative_count():
    from la.domains.uniform import uniform_states
    with pytest.raises(ValueError, match="number of states"):
        uniform_states(Pancake(4), -1, np.random.default_rng(0))
