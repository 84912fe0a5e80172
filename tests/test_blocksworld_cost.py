"""The blocksworld tools behind the 15-blocksworld test set: the exact single-tower cost rule and
the uniform sampler of Slaney & Thiébaux (2001)."""
import numpy as np
import pytest
from scipy.stats import chi2

from la.domains.blocksworld import Blocksworld
from la.domains.walk import random_walk
from la.domains.blocksworld_cost import (blocked, optimal_cost, optimal_plan, smallest_below,
                                         well_placed)
from la.domains.blocksworld_uniform import (completions, number_of_states, uniform_below,
                                            uniform_state, uniform_states)
from la.search import check_plan, ida_star
from la.search.bfs import ExactDistances


def every_state(exact: ExactDistances) -> np.ndarray:
    """All states an ExactDistances table holds, read back from their keys (digits in base
    `exact.base`)."""
    digits = exact.keys[:, None] // exact.powers[None, :] % exact.base
    return digits.astype(np.uint8)


# --- the cost rule --------------------------------------------------------------------------------

def test_a_hand_checked_state():
    # 3 blocks: 3 on the table, 1 on 3, 2 on 1. Nothing is home; 2 is blocked (1 is below it); 1 is
    # not (only 3 is below it). Cost 3 + 1 = 4: 2 to the table, 1 to the table, 2 onto 1, 3 onto 2.
    state = np.array([[3, 1, 0]], dtype=np.uint8)
    assert well_placed(state).tolist() == [[False, False, False]]
    assert blocked(state).tolist() == [[False, True, False]]
    assert optimal_cost(state).tolist() == [4]
    assert optimal_plan(state[0]).tolist() == [[3, 1, 0], [3, 0, 0], [0, 0, 0], [0, 1, 0],
                                               [0, 1, 2]]


def test_home_blocks_never_count():
    # 1 on the table and 2 on 1 are home; 4 stands on 2 (blocked: 1 and 2 below it), 3 on the table
    # (not home).
    state = np.array([[0, 1, 0, 2]], dtype=np.uint8)
    assert well_placed(state).tolist() == [[True, True, False, False]]
    assert blocked(state).tolist() == [[False, False, False, True]]
    assert optimal_cost(state).tolist() == [3]
    assert optimal_cost(np.arange(6, dtype=np.uint8)[None]).tolist() == [0]          # the goal


@pytest.mark.parametrize("n", range(2, 9))
def test_rule_equals_breadth_first_distances_on_every_state(n):
    exact = ExactDistances(Blocksworld(n))
    states = every_state(exact)
    assert len(states) == number_of_states(n)                   # BFS reaches all g(n, 0) states
    for s in states[:: max(1, len(states) // 50)]:              # the key decoding gives real states
        Blocksworld(n).check(s)
    h = optimal_cost(states)
    assert h.dtype == np.int64
    assert np.array_equal(h, exact(states))


@pytest.mark.slow
def test_rule_equals_breadth_first_distances_on_every_state_of_9_blocks():
    exact = ExactDistances(Blocksworld(9))                  # 4,596,553 states: about a minute, 2 GB
    states = every_state(exact)
    assert len(states) == number_of_states(9)
    assert np.array_equal(optimal_cost(states), exact(states))


def test_smallest_below_matches_walking_down_each_tower():
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 7, 15, 40):
        states = uniform_states(n, 30, rng)
        for s, low in zip(states, smallest_below(states)):
            for b in range(1, n + 1):
                below, c = [], int(s[b - 1])
                while c != 0:
                    below.append(c)
                    c = int(s[c - 1])
                assert low[b - 1] == min(below, default=n + 1)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 11, 15])
def test_optimal_plan_is_legal_ends_at_the_goal_and_costs_the_rule(n):
    domain = Blocksworld(n)
    rng = np.random.default_rng(n)
    states = np.concatenate([uniform_states(n, 25, rng), random_walk(domain, 3 * n, rng, n=10),
                             domain.goal[None], np.zeros((1, n), dtype=np.uint8)])
    for s, cost in zip(states, optimal_cost(states)):
        plan = optimal_plan(s)
        check_plan(domain, s, plan)                     # each step one legal move, ends at the goal
        assert len(plan) - 1 == cost


def test_optimal_plan_refuses_a_state_that_is_not_one():
    with pytest.raises(ValueError, match="cycle"):
        optimal_plan(np.array([2, 1, 0], dtype=np.uint8))


def test_the_rule_as_idas_heuristic_gives_one_iteration():
    domain = Blocksworld(15)
    for s in uniform_states(15, 5, np.random.default_rng(3)):
        result = ida_star(domain, optimal_cost, s)
        assert result.solved and result.iterations == 1
        assert result.cost == optimal_cost(s[None])[0]


# --- the uniform sampler --------------------------------------------------------------------------

def test_counts_are_oeis_a000262():
    assert [number_of_states(n) for n in range(8)] == [1, 1, 3, 13, 73, 501, 4051, 37633]
    assert number_of_states(8) == 394_353
    assert number_of_states(15) == 65_573_803_186_921
    g = completions(6)                                           # the recurrence, entry by entry
    for n in range(6):
        for k in range(6 - n):
            assert g[n + 1][k] == (n + k) * g[n][k] + g[n][k + 1]


def chi_square(states: np.ndarray, n: int) -> float:
    """Pearson's statistic of the drawn states against the uniform distribution over all g(n, 0)
    states."""
    _, counts = np.unique(states, axis=0, return_counts=True)
    # states never drawn
    counts = np.concatenate([counts, np.zeros(number_of_states(n) - len(counts))])
    expected = len(states) / number_of_states(n)
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("n", [3, 4])
def test_every_state_is_drawn_about_equally_often(n):
    draws = 100 * number_of_states(n)                            # about 100 of each state
    limit = chi2.isf(1e-6, number_of_states(n) - 1)    # loose: a fair sampler fails it once in 10^6
    uniform = uniform_states(n, draws, np.random.default_rng(4))
    assert len(np.unique(uniform, axis=0)) == number_of_states(n)
    assert chi_square(uniform, n) < limit
    # Samplers with a bias fail the same test: random walks (they favour states with many moves),
    # and the tower placement with every choice equally likely instead of weighted by the counts g.
    walked = random_walk(Blocksworld(n), 30, np.random.default_rng(4), n=draws)
    assert chi_square(walked, n) > limit
    rng = np.random.default_rng(4)
    assert chi_square(np.array([unweighted_state(n, rng) for _ in range(draws)]), n) > limit


def unweighted_state(n: int, rng: np.random.Generator) -> np.ndarray:
    """`uniform_state` with the weights left out: each tower goes to the table or onto each other
    tower alike."""
    floating, rooted = [[b] for b in range(1, n + 1)], []
    while floating:
        tower, others = floating.pop(), floating + rooted
        choice = rng.integers(len(others) + 1)
        if choice == len(others):
            rooted.append(tower)
        else:
            others[choice].extend(tower)
    state = np.zeros(n, dtype=np.uint8)
    for tower in rooted:
        for below, above in zip(tower, tower[1:]):
            state[above - 1] = below
    return state


def test_drawn_states_are_valid_and_the_seed_fixes_them():
    for n in (2, 9, 15, 30):
        states = uniform_states(n, 40, np.random.default_rng(5))
        assert states.shape == (40, n) and states.dtype == np.uint8
        for s in states:
            Blocksworld(n).check(s)
        assert np.array_equal(states, uniform_states(n, 40, np.random.default_rng(5)))
    assert not np.array_equal(uniform_states(15, 5, np.random.default_rng(5)),
                              uniform_states(15, 5, np.random.default_rng(6)))


def test_uniform_below_is_exact_beyond_64_bits():
    rng = np.random.default_rng(7)
    total = 3 * 2**70 + 1
    draws = [uniform_below(total, rng) for _ in range(2000)]
    assert all(0 <= x < total for x in draws)
    assert 0.45 < np.mean([x / total for x in draws]) < 0.55     # spread over the whole range
    assert max(draws) > 2**71                                     # bits above 64 are drawn
    assert np.bincount([uniform_below(3, rng) for _ in range(3000)]).min() > 900
    assert uniform_below(1, rng) == 0


def test_sampler_arguments_are_checked():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="positive count"):
        uniform_below(0, rng)
    with pytest.raises(ValueError, match="1..255 blocks"):
        uniform_state(0, rng)
    with pytest.raises(ValueError, match="1..255 blocks"):
        uniform_states(256, 1, rng)
    with pytest.raises(ValueError, match="negative number"):
        uniform_states(5, -1, rng)
    with pytest.raises(ValueError, match="not 5"):
        uniform_state(5, rng, completions(4))
