"""Pancake and blocksworld pattern databases against independent plain-Python searches and exact
distances.

The oracles here work on tuples, one state at a time, and share nothing with `la.pdb` but the
definitions: a pancake abstract state is the heights of the pattern pancakes; a blocksworld abstract
state is the sorted tuple of stacks, each a tuple of labels (0 = anonymous, i = the i-th pattern
block).
"""
import collections
import itertools

import numpy as np
import pytest

from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.walk import random_walk
from la.pdb.blocksworld import BlockPattern, towers
from la.pdb.pancake import PancakePattern, heights
from la.pdb.rank import unrank
from la.search.bfs import ExactDistances


def all_states(domain) -> tuple[np.ndarray, np.ndarray]:
    """Every state of a small domain (n, N) and its exact distance to the goal."""
    exact = ExactDistances(domain)
    return exact.states(), exact.distance


# --- pancake --------------------------------------------------------------------------------------

def pancake_distances(n: int, pattern, authors: bool = False) -> dict:
    """Plain 0-1 BFS backwards from the goal over pattern heights; a flip costs 1 if a pattern
    pancake lands on top, so going backwards every edge into a state with a pattern pancake on top
    costs 1. With `authors`, the authors' search instead: each generated state with a pattern
    pancake on top costs 1."""
    goal = tuple(pattern)                                       # pancake p at height p
    distance, queue = {goal: 0}, collections.deque([goal])
    while queue:
        state = queue.popleft()
        for k in range(1, n):
            before = tuple(k - p if p <= k else p for p in state)
            cost = 1 if 0 in (before if authors else state) else 0
            if before not in distance or distance[state] + cost < distance[before]:
                distance[before] = distance[state] + cost
                (queue.append if cost else queue.appendleft)(before)
    return distance


@pytest.mark.parametrize("pattern", [(0, 1, 2, 3), (4, 5, 6, 7)])
def test_pancake_entries_equal_the_authors_search_done_plainly(pattern):
    abstraction = PancakePattern(8, pattern)
    table = abstraction.build()
    expected = pancake_distances(8, pattern, authors=True)
    assert abstraction.size == len(expected) == 8 * 7 * 6 * 5
    places = np.array(list(expected), dtype=np.uint8)
    assert np.array_equal(table[abstraction.rank_places(places)], np.array(list(expected.values())))


def test_the_two_charges_differ_by_the_top_pancake_only():
    """Charging the pancake arriving on top instead of the one leaving it shifts each entry by
    [a pattern pancake on top] - [pancake 0 in the pattern], which cancels over a partition."""
    for pattern in [(0, 1, 2), (3, 5)]:
        abstraction = PancakePattern(7, pattern)
        arriving = pancake_distances(7, pattern, authors=False)
        places = np.array(list(arriving), dtype=np.uint8)
        theirs = abstraction.build()[abstraction.rank_places(places)].astype(np.int64)
        assert np.array_equal(theirs - (places == 0).any(axis=1) + (0 in pattern),
                              list(arriving.values()))
        assert not np.array_equal(theirs, list(arriving.values()))


def test_pancake_partition_sum_is_admissible_on_every_8_pancake():
    states, h_star = all_states(Pancake(8))
    tables = [(p, p.build())
              for p in (PancakePattern(8, (0, 1, 2, 3)), PancakePattern(8, (4, 5, 6, 7)))]
    total = sum(table[p.rank(states)].astype(np.int64) for p, table in tables)
    assert (total <= h_star).all()
    assert total[h_star == 0].tolist() == [0]
    assert (total == h_star).mean() > 0.05                      # informative, not a table of zeros


def test_pancake_rank_is_a_bijection_onto_the_table():
    abstraction = PancakePattern(7, (1, 3, 4))
    states = np.array(list(itertools.permutations(range(7))), dtype=np.uint8)
    ranks = abstraction.rank(states)
    places = [tuple(int(np.flatnonzero(s == p)[0]) for p in (1, 3, 4)) for s in states]
    assert sorted(set(ranks.tolist())) == list(range(abstraction.size))
    assert len(set(zip(places, ranks.tolist()))) == abstraction.size      # one rank per placement
    assert np.array_equal(heights(states), np.argsort(states, axis=1).T)


@pytest.mark.parametrize("n, pancakes, message", [
    (8, (0, 0, 1), "distinct pancakes 0..7"), (8, (3, 8), "distinct pancakes 0..7"),
    (8, (), "has 1..8 pancakes"), (1, (0,), "at least 2 pancakes")])
def test_pancake_pattern_rejects_bad_arguments(n, pancakes, message):
    with pytest.raises(ValueError, match=message):
        PancakePattern(n, pancakes)


# --- blocksworld ----------------------------------------------------------------------------------

def abstract(state, pattern) -> tuple:
    """The abstract state of a concrete one: its stacks as sorted label tuples."""
    label = {b: i for i, b in enumerate(pattern, 1)}
    return tuple(sorted(tuple(label.get(b, 0) for b in stack)
                        for stack in Blocksworld(len(state)).towers(state)))


def blocks_distances(n: int, pattern) -> dict:
    """Plain BFS over abstract states from the goal tower; every move costs 1."""
    goal = abstract(tuple(range(n)), pattern)
    distance, queue = {goal: 0}, collections.deque([goal])
    while queue:
        stacks = queue.popleft()
        for i, source in enumerate(stacks):
            others = stacks[:i] + stacks[i + 1:]
            left = (source[:-1],) if len(source) > 1 else ()
            targets = [others[:j] + others[j + 1:] + (others[j] + source[-1:],)
                       for j in range(len(others))]
            if len(source) > 1:
                targets.append(others + (source[-1:],))          # onto the table
            for onto in targets:
                child = tuple(sorted(onto + left))
                if child not in distance:
                    distance[child] = distance[stacks] + 1
                    queue.append(child)
    return distance


@pytest.mark.parametrize("pattern", [(1, 2, 3, 4), (2, 3, 5, 6)])
def test_blocksworld_entries_equal_plain_bfs(pattern):
    abstraction = BlockPattern(6, pattern)
    table = abstraction.build()
    expected = blocks_distances(6, pattern)
    states, _ = all_states(Blocksworld(6))
    ranks = abstraction.rank(states).tolist()
    keys = [abstract(tuple(s), pattern) for s in states]
    assert abstraction.size == len(expected) == len(set(keys))
    # a bijection onto the table
    assert len(set(zip(keys, ranks))) == len(set(ranks)) == abstraction.size
    assert sorted(set(ranks)) == list(range(abstraction.size))
    assert all(table[r] == expected[key] for r, key in zip(ranks, keys))


def test_blocksworld_pdbs_are_admissible_on_every_7_blocksworld():
    states, h_star = all_states(Blocksworld(7))
    for pattern in [(1, 2, 3, 4), (4, 5, 6, 7), (1, 3, 5, 7), (2, 6)]:
        abstraction = BlockPattern(7, pattern)
        table = abstraction.build()
        ranks = abstraction.rank(states)
        # every entry belongs to some state
        assert np.unique(ranks).size == abstraction.size
        h = table[ranks]
        assert (h <= h_star).all(), pattern
        assert h[h_star == 0].tolist() == [0]
        assert h.max() == table.max() > 0


def test_towers_give_levels_and_bottoms():
    states, _ = all_states(Blocksworld(5))
    walks = random_walk(Blocksworld(9), 40, np.random.default_rng(0), n=200)
    for batch in (states, walks):
        level, bottom = towers(batch)
        for state, lv, bt in zip(batch, level, bottom):
            for stack in Blocksworld(len(state)).towers(state):
                assert [lv[b - 1] for b in stack] == list(range(len(stack)))
                assert {int(bt[b - 1]) for b in stack} == {stack[0]}


@pytest.mark.parametrize("n, blocks, message", [
    (6, (1, 1, 2), "distinct blocks 1..6"), (6, (0, 2), "distinct blocks 1..6"),
    (6, (7,), "distinct blocks 1..6"), (6, (), "at least one block"),
    (1, (1,), "take 2..20 blocks"), (25, (1, 2), "take 2..20 blocks"),
    (15, range(1, 9), "keys, more than")])
def test_block_pattern_rejects_bad_arguments(n, blocks, message):
    with pytest.raises(ValueError, match=message):
        BlockPattern(n, blocks)


# --- the paper's sizes (slow) ---------------------------------------------------------------------

@pytest.mark.slow
def test_24_pancake_pdb_is_complete_and_consistent():
    abstraction = PancakePattern(24, (0, 1, 2, 3, 4))
    table = abstraction.build()
    assert abstraction.size == len(table) == 5_100_480 and table.max() < 255
    # Bellman's equation on sampled entries: each is the cheapest flip plus the entry it leads to.
    ranks = np.random.default_rng(1).integers(0, abstraction.size, 20_000)
    places = unrank(ranks, 24, 5).astype(np.int64)
    best = np.full(len(ranks), 255)
    for k in range(1, 24):
        child = np.where(places <= k, k - places, places)
        cost = (child == 0).any(axis=1)                       # a pattern pancake lands on top
        best = np.minimum(best, cost + table[abstraction.rank_places(child)])
    goal = abstraction.rank_places(np.arange(5)[None])[0]
    assert np.array_equal(table[ranks], np.where(ranks == goal, 0, best))
    assert PancakePattern(24, (0, 1, 2, 18)).size == 255_024


@pytest.mark.slow
@pytest.mark.parametrize("pattern, maximum", [((1, 2, 3, 4), 28), ((12, 13, 14, 15), 19)])
def test_15_blocksworld_pdb_size_and_maximum(pattern, maximum):
    abstraction = BlockPattern(15, pattern)
    table = abstraction.build()
    assert abstraction.size == len(table) == 2_278_239
    assert table.max() == maximum
