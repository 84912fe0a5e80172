"""Classical heuristics: hand-checked values, incremental = from scratch, admissibility against
h*."""
import numpy as np
import pytest

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.base import incremental
from la.heuristics.classical import Gap, Hamming, Manhattan, make_heuristic
from la.search.bfs import ExactDistances


def test_manhattan_by_hand():
    md = Manhattan(SlidingTile(3))
    assert md(np.arange(9, dtype=np.uint8)[None]).tolist() == [0]
    # tile 1 and the blank swapped: tile 1 is one step from home; the blank is not counted
    assert md(np.array([[1, 0, 2, 3, 4, 5, 6, 7, 8]], dtype=np.uint8)).tolist() == [1]
    # 8 in the top-left corner: 2 rows and 2 columns away
    assert md(np.array([[8, 1, 2, 3, 4, 5, 6, 7, 0]], dtype=np.uint8)).tolist() == [4]


def test_manhattan_of_korfs_instances_matches_the_published_initial_estimates():
    md = Manhattan(SlidingTile(4))
    counts = data.korf100_md_nodes()
    states = np.array([i.state for i in data.korf100()])
    assert md(states).tolist() == [counts[i].h0 for i in range(1, 101)]


def test_gap_by_hand():
    gap = Gap(Pancake(5))
    assert gap(np.array([[0, 1, 2, 3, 4]], dtype=np.uint8)).tolist() == [0]
    # only 0 above the plate
    assert gap(np.array([[4, 3, 2, 1, 0]], dtype=np.uint8)).tolist() == [1]
    assert gap(np.array([[0, 2, 1, 3, 4]], dtype=np.uint8)).tolist() == [2]       # 0|2 and 1|3


def test_hamming_by_hand():
    assert Hamming(SlidingTile(3))(np.array([[1, 0, 2, 3, 4, 5, 6, 7, 8]],
                                            dtype=np.uint8)).tolist() == [1]
    assert Hamming(Pancake(4))(np.array([[3, 2, 1, 0]], dtype=np.uint8)).tolist() == [4]
    assert Hamming(Blocksworld(4))(np.array([[0, 1, 0, 0]], dtype=np.uint8)).tolist() == [2]


@pytest.mark.parametrize("domain, heuristic", [(SlidingTile(4), Manhattan),
                                               (SlidingTile(5), Manhattan),
                                               (Pancake(24), Gap), (Pancake(7), Gap)])
def test_incremental_values_equal_values_from_scratch(domain, heuristic):
    h = heuristic(domain)
    states = random_walk(domain, 50, np.random.default_rng(0), n=300)
    values, carry = h.start(states)
    parent, move, children = domain.expand(states)
    stepped, _ = h.step(states, values, carry, parent, move)
    np.testing.assert_array_equal(stepped, h(children))


@pytest.mark.parametrize("domain, names", [(SlidingTile(3), ["md", "hamming"]),
                                           (Pancake(7), ["gap"]), (Blocksworld(6), ["hamming"])])
def test_admissible_against_exact_distances(domain, names):
    exact = ExactDistances(domain)
    states = random_walk(domain, 60, np.random.default_rng(1), n=2000)
    h_star = exact(states)
    for name in names:
        h = make_heuristic(name, domain)(states)
        assert h.dtype.kind == "i" and (h <= h_star).all() and (h >= 0).all()
        assert (h == h_star).mean() < 1                                  # and not trivially exact


def test_pancake_hamming_is_not_admissible():
    state = np.array([[3, 2, 1, 0]], dtype=np.uint8)                       # one flip from the goal
    assert Hamming(Pancake(4))(state)[0] > 1


def test_names_and_mismatches():
    assert isinstance(make_heuristic("md", SlidingTile(4)), Manhattan)
    for name, domain in [("md", Pancake(5)), ("gap", SlidingTile(3)), ("mystery", SlidingTile(3))]:
        with pytest.raises(ValueError):
            make_heuristic(name, domain)


def test_a_float_heuristic_is_refused():
    domain = SlidingTile(3)
    wrapped = incremental(lambda states: np.zeros(len(states)), domain)
    with pytest.raises(TypeError, match="integers"):
        wrapped.start(domain.goal[None])
