"""Exact distance tables (la.pdb.exact) and the rectangular sliding-tile boards they are built for:
sizes, diameters and means that a wrong search cannot reproduce, agreement with an independent BFS
and with optimal IDA*, the cache's checks, and one-line refusals."""
import json

import numpy as np
import pytest

from la.domains.names import make_domain
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.heuristics.classical import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible
from la.nn.ffnn import FFNN
from la.pdb import store
from la.pdb.exact import ExactTable, UNSEEN, check_memory, h_star_table
from la.search import check_plan, ida_star
from la.search.bfs import ExactDistances

TWO_BY_FIVE = SlidingTile(5, height=2)


@pytest.fixture(scope="module")
def tables():
    """The built tables, by domain name (built once for the module; seconds each)."""
    return {d.name: ExactTable(d).build()
            for d in (SlidingTile(3), TWO_BY_FIVE, Pancake(9))}


# (domain, entries, reachable states, diameter, mean h* over the reachable states): half of N!
# states reachable on a board, all on a stack; the 8-puzzle's diameter 31 (Reinefeld, IJCAI 1993;
# its whole table is also checked against ExactDistances below), the pancakes' diameters the
# pancake numbers P(9) = 10 and P(10) = 11 (OEIS A058986).
FACTS = [("8-puzzle", 362_880, 181_440, 31, 21.97), ("2x5-puzzle", 3_628_800, 1_814_400, 55, 34.73),
         ("9-pancake", 362_880, 362_880, 10, None)]


@pytest.mark.parametrize("name, entries, states, diameter, mean", FACTS)
def test_each_table_has_the_known_size_diameter_and_mean(tables, name, entries, states, diameter,
                                                         mean):
    table = tables[name]
    reached = table[table != UNSEEN]
    assert table.shape == (entries,) and table.dtype == np.uint8
    assert len(reached) == states and reached.max() == diameter
    assert np.bincount(reached).min() > 0                       # every level 0..diameter is there
    if mean is not None:
        assert round(float(reached.mean()), 2) == mean


@pytest.mark.slow
def test_the_10_pancake_table_has_every_state_and_diameter_11():
    table = ExactTable(Pancake(10)).build()
    assert table.shape == (3_628_800,) and (table != UNSEEN).all() and table.max() == 11


@pytest.mark.slow
def test_the_3x4_table_has_half_of_12_factorial_states_and_diameter_53():
    table = ExactTable(make_domain("3x4-puzzle")).build()        # about 6 minutes, 1.3 GiB
    reached = table[table != UNSEEN]
    assert len(reached) == 239_500_800 and reached.max() == 53
    assert round(float(reached.mean()), 2) == 35.10


@pytest.mark.parametrize("domain", [SlidingTile(3), Pancake(7)], ids=lambda d: d.name)
def test_the_table_equals_an_independent_breadth_first_search_on_every_state(domain):
    exact, table = ExactDistances(domain), ExactTable(domain)
    built = table.build()
    states = exact.states()
    np.testing.assert_array_equal(built[table.rank(states)], exact(states))
    assert np.count_nonzero(built != UNSEEN) == len(exact)


def test_rank_and_unrank_are_inverse_and_cover_every_entry_once():
    table = ExactTable(Pancake(6))
    ranks = np.arange(table.size)
    states = table.unrank(ranks)
    np.testing.assert_array_equal(table.rank(states), ranks)
    assert len(np.unique(states, axis=0)) == table.size


def test_h_star_equals_an_optimal_ida_star_solve_on_random_2x5_states(tables):
    rng, table = np.random.default_rng(7), ExactTable(TWO_BY_FIVE)
    h_star = tables["2x5-puzzle"]
    states = random_walk(TWO_BY_FIVE, rng.integers(20, 200, 12), rng, n=12)
    for state in states:
        result = ida_star(TWO_BY_FIVE, Manhattan(TWO_BY_FIVE), state, node_limit=50_000_000)
        assert result.solved
        check_plan(TWO_BY_FIVE, state, result.plan)
        assert result.cost == h_star[table.rank(state[None])[0]]


def test_manhattan_distance_is_admissible_and_consistent_on_a_tenth_of_the_2x5_states(tables):
    table = ExactTable(TWO_BY_FIVE)
    h_star = tables["2x5-puzzle"]
    states = table.unrank(np.flatnonzero(h_star != UNSEEN)[::10])
    md = Manhattan(TWO_BY_FIVE)(states)
    assert len(states) == 181_440 and (md <= h_star[table.rank(states)]).all()
    parent, _, children = TWO_BY_FIVE.expand(states)
    assert (np.abs(md[parent] - Manhattan(TWO_BY_FIVE)(children)) == 1).all()


# --- the rectangular board ------------------------------------------------------------------------

def test_a_rectangular_board_by_name_moves_and_goal():
    board = make_domain("2x5-puzzle")
    assert (board.name, board.size, board.height, board.width) == ("2x5-puzzle", 10, 2, 5)
    assert make_domain("3x3-puzzle").name == "8-puzzle"
    assert board.format(board.goal) == ". 1 2 3 4\n5 6 7 8 9"
    # the blank top-left moves right (to 1) or down (to 5): up, left, right, down order
    parent, move, children = board.expand(board.goal[None])
    assert [list(c) for c in children] == [[1, 0, 2, 3, 4, 5, 6, 7, 8, 9],
                                           [5, 1, 2, 3, 4, 0, 6, 7, 8, 9]]
    np.testing.assert_array_equal(board.inverse(board.inverse(move)), move)
    corner = np.array([1, 2, 3, 4, 0, 5, 6, 7, 8, 9], dtype=np.uint8)   # blank top-right: 2 moves
    assert len(board.expand(corner[None])[2]) == 2
    for state in random_walk(board, np.full(5, 40), np.random.default_rng(1), n=5):
        board.check(state)                                         # a walk stays solvable
        neighbours = [c for _, c in board.neighbours(tuple(int(v) for v in state))]
        children = board.expand(state[None])[2]
        assert sorted(neighbours) == sorted(tuple(map(int, c)) for c in children)


def test_an_unsolvable_rectangular_state_and_bad_boards_are_refused():
    board = make_domain("2x5-puzzle")
    swapped = board.goal.copy()
    swapped[[1, 2]] = swapped[[2, 1]]
    with pytest.raises(ValueError, match="unsolvable 2x5-puzzle state"):
        board.check(swapped)
    for name, message in [("1x5-puzzle", "at least 2 rows and 2 columns"),
                          ("16x17-puzzle", "at most 255 tiles"), ("2x-puzzle", "unknown domain"),
                          ("7-puzzle", "<rows>x<columns>-puzzle")]:
        with pytest.raises(ValueError, match=message):
            make_domain(name)


def test_the_one_hot_of_a_rectangle_has_w_plus_h_bits_per_value_and_steps_exactly():
    board, rng = TWO_BY_FIVE, np.random.default_rng(3)
    encoding = OneHot(board)
    states = random_walk(board, rng.integers(0, 60, 500), rng, n=500)
    x = encoding(states)
    assert encoding.size == 70 and x.shape == (500, 70) and (x.sum(axis=1) == 20).all()
    parent, move, children = board.expand(states)
    stepped, _, _ = encoding.step(states, x, None, None, parent, move)
    np.testing.assert_array_equal(stepped, encoding(children))
    net = FFNN(70, 20, 2, rng)
    net.params["b2"][0] = 3.0
    h = LikelyAdmissible(net, encoding, alpha=0.9)
    values, carry = h.start(states)
    np.testing.assert_array_equal(h.step(states, values, carry, parent, move)[0], h(children))


# --- the cache and the refusals -------------------------------------------------------------------

def test_the_table_is_cached_checked_and_rebuilt_when_damaged(tmp_path):
    pdb = h_star_table(SlidingTile(3), tmp_path)
    table_path, header_path = store.paths(ExactTable(SlidingTile(3)), tmp_path)
    assert table_path.name == "8-puzzle_1-2-3-4-5-6-7-8.npy"
    header = json.loads(header_path.read_text())
    # the largest entry is UNSEEN, the unreachable half of the permutations
    assert header["cost"].startswith("moves: exact") and header["max"] == UNSEEN
    assert pdb(SlidingTile(3).goal[None])[0] == 0
    raw = bytearray(table_path.read_bytes())
    raw[-1] ^= 0xFF                                                 # damage one entry
    table_path.write_bytes(bytes(raw))
    notes = []
    again = h_star_table(SlidingTile(3), tmp_path, lambda f, text: notes.append((f, text)))
    assert notes[0][0] is None and "building it again" in notes[0][1]
    np.testing.assert_array_equal(again.table, pdb.table)


def test_a_table_that_does_not_fit_in_memory_is_refused_in_one_line():
    table = ExactTable(make_domain("3x4-puzzle"))
    with pytest.raises(ValueError, match=r"3x4-puzzle needs about 1\.\d GiB to build") as error:
        check_memory(table, available=2**30)
    assert "\n" not in str(error.value)
    check_memory(ExactTable(SlidingTile(3)), available=2**30)        # 8-puzzle: a few MB
    with pytest.raises(ValueError, match="24-puzzle has 25! = 1.55e"):
        ExactTable(make_domain("24-puzzle"))
    with pytest.raises(ValueError, match="not the 6-blocksworld"):
        ExactTable(make_domain("6-blocksworld"))
