"""Network encodings (paper §5): the one-hot and the PDB features against plain-Python oracles
written from the definitions, incremental = from scratch along walks, h_ad = max(HArr) and
admissible on whole small domains.

PDB parts use small domains whose PDBs build in well under a second (an 8-puzzle, an 8-pancake, a
6-blocksworld); the paper-sized encodings are in the slow tier.
"""
import numpy as np
import pytest

from la.data import korf50_24
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot, one_hot_inputs
from la.features.blocksworld import BlockFeatures
from la.features.encodings import encode, encoding_size, for_domain
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures
from la.features.base import rank_many
from la.pdb import rank as ranking
from la.pdb.blocksworld import BlockPattern
from la.pdb.pancake import PancakePattern
from la.pdb.sliding_tile import TilePattern
from la.pdb.store import load
from la.search.bfs import ExactDistances


def quiet(fraction, text):
    """A progress callback that prints nothing."""


def load_all(groups: dict, make, folder) -> dict:
    """{name: [PDB, ...]} from {name: [pattern, ...]}, built into `folder`."""
    return {name: [load(make(p), folder, quiet) for p in patterns]
            for name, patterns in groups.items()}


# Small partitions: A and B disjoint within themselves, B cutting across A.
PUZZLE8 = {"A": [[1, 2, 3, 4], [5, 6, 7, 8]], "B": [[1, 4, 7], [2, 5, 8], [3, 6]]}
PANCAKE8 = {"A": [[0, 1, 2, 3], [4, 5, 6, 7]], "B": [[0, 1, 6, 7], [2, 3, 4, 5]]}
BLOCKS6 = {"max": [[1, 2, 3, 4], [3, 4, 5, 6], [1, 2, 5, 6]]}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="module")
def tiles(folder):
    domain = SlidingTile(3)
    return TileFeatures(domain, load_all(PUZZLE8, lambda p: TilePattern(3, p), folder))


@pytest.fixture(scope="module")
def pancakes(folder):
    domain = Pancake(8)
    return PancakeFeatures(domain, load_all(PANCAKE8, lambda p: PancakePattern(8, p), folder))


@pytest.fixture(scope="module")
def blocks(folder):
    domain = Blocksworld(6)
    return BlockFeatures(domain, load_all(BLOCKS6, lambda p: BlockPattern(6, p), folder))


# --- oracles: one state at a time, plain Python over the definitions ------------------------------

def pdb_values(pdbs: dict, state) -> list[list[int]]:
    """Each partition's PDB values of one state, by the PDB's own lookup."""
    return [[int(pdb(np.array([state]))[0]) for pdb in group] for group in pdbs.values()]


def scaled(values, scales) -> list:
    return [np.float32(v) / np.float32(s) for v, s in zip(values, scales)]


def tile_oracle(pdbs, width, state):
    """(x, HArr) of the sliding-tile features: PDBs, partition sums, Manhattan, Hamming, then the
    blank."""
    N = width * width
    groups = pdb_values(pdbs, state)
    maxima = [[int(pdb.table.max()) for pdb in group] for group in pdbs.values()]
    manhattan = hamming = 0
    for cell, tile in enumerate(state):
        if tile != 0:
            manhattan += abs(cell // width - tile // width) + abs(cell % width - tile % width)
            hamming += cell != tile
    distances = sorted((abs(a // width - b // width) + abs(a % width - b % width)
                        for a in range(N) for b in range(N)), reverse=True)
    h = [v for g in groups for v in g] + [sum(g) for g in groups] + [manhattan, hamming]
    scales = [m for g in maxima for m in g] + [sum(g) for g in maxima] + [sum(distances[:N - 1]), N]
    blank = list(state).index(0)
    return scaled(h, scales) + [np.float32(blank) / np.float32(N)], h


def pancake_oracle(pdbs, state):
    """(x, HArr) of the pancake features: PDBs, partition sums, middle in place, largest misplaced /
    N."""
    N = len(state)
    groups = pdb_values(pdbs, state)
    maxima = [[int(pdb.table.max()) for pdb in group] for group in pdbs.values()]
    h = [v for g in groups for v in g] + [sum(g) for g in groups]
    scales = [m for g in maxima for m in g] + [sum(g) for g in maxima]
    largest = 0
    for height, pancake in enumerate(state):
        if pancake != height and pancake > largest:
            largest = pancake
    middle = 1.0 if state[N // 2] == N // 2 else 0.0
    return scaled(h, scales) + [np.float32(middle), np.float32(largest) / np.float32(N)], h


def block_oracle(pdbs, state):
    """(x, HArr) of the blocksworld features: PDBs, Hamming, then the number of stacks / N."""
    N = len(state)
    h = [v for g in pdb_values(pdbs, state) for v in g]
    scales = [int(pdb.table.max()) for group in pdbs.values() for pdb in group]
    hamming = sum(1 for b in range(1, N + 1) if state[b - 1] != b - 1)
    stacks = sum(1 for support in state if support == 0)
    return scaled(h + [hamming], scales + [N]) + [np.float32(stacks) / np.float32(N)], h + [hamming]


def two_dim_oracle(width, state):
    """The one-hot: for each value v, bit 2Wv + column and bit 2Wv + W + row of its cell."""
    x = [0.0] * (width * width * 2 * width)
    for cell, value in enumerate(state):
        x[2 * width * value + cell % width] = 1.0
        x[2 * width * value + width + cell // width] = 1.0
    return x


def drawn(domain, seed, n=12, steps=40):
    return random_walk(domain, steps, np.random.default_rng(seed), n=n)


def check_against(encoding, oracle, states):
    x, h_ad = encoding(states), encoding.admissible(states)
    assert x.dtype == np.float32 and x.shape == (len(states), encoding.size)
    assert h_ad.dtype == np.int64
    for row, state in enumerate(states):
        expected_x, h = oracle(state.tolist())
        assert x[row].tolist() == [float(v) for v in expected_x]          # bit for bit, float32
        assert h_ad[row] == max(h)
        assert encoding.h_arr(states[row:row + 1])[0].tolist() == h


# --- hand-checked states --------------------------------------------------------------------------

def test_tile_features_by_hand(tiles):
    # Two moves from the goal (blank right, then down):   1 4 2
    #                                                       3 . 5
    #                                                       6 7 8
    # Tiles 1 and 4 are each one step from home: Manhattan 2, Hamming 2. Both lie in A's {1,2,3,4}
    # and in B's {1,4,7}, whose PDBs need both to move (2); the other patterns sit at home (0).
    # Sums: A 2, B 2.
    state = np.array([[1, 4, 2, 3, 0, 5, 6, 7, 8]], dtype=np.uint8)
    assert tiles.h_arr(state)[0].tolist() == [2, 0, 2, 0, 0, 2, 2, 2, 2]
    assert tiles.admissible(state).tolist() == [2]
    assert tiles(state)[0, -1] == np.float32(4) / np.float32(9)           # the blank on cell 4 of 9
    assert tiles.size == 5 + 2 + 3


def test_pancake_features_by_hand(pancakes):
    # Flip 1 of the goal: 1 0 2 3 4 5 6 7. Pancakes 0 and 1 are misplaced, so the largest misplaced
    # is 1; the middle pancake (4 at height 4) is in place. One flip fixes it, moving pancakes 0 and
    # 1 only, which lie in A's {0,1,2,3} and B's {0,1,6,7}: those PDBs say 1, the others 0.
    state = np.array([[1, 0, 2, 3, 4, 5, 6, 7]], dtype=np.uint8)
    assert pancakes.h_arr(state)[0].tolist() == [1, 0, 1, 0, 1, 1]
    assert pancakes(state)[0, -2:].tolist() == [1.0, np.float32(1) / np.float32(8)]
    assert pancakes.size == 4 + 2 + 2


def test_blocksworld_features_by_hand(blocks):
    # Block 6 taken off the tower onto the table: two stacks, one block on a wrong support. Every
    # PDB sees the changed shape (an anonymous block moved, and each move costs 1), so each says 1.
    state = np.array([[0, 1, 2, 3, 4, 0]], dtype=np.uint8)
    assert blocks.h_arr(state)[0].tolist() == [1, 1, 1, 1]
    assert blocks(state)[0, -1] == np.float32(2) / np.float32(6)
    assert blocks.size == 3 + 1 + 1


def test_the_24_puzzle_manhattan_scale_is_the_authors_168(folder):
    # One-tile patterns build instantly; MDMax and the other scales do not depend on the PDBs.
    pdbs = load_all({"A": [[1]], "B": [[2]]}, lambda p: TilePattern(5, p), folder)
    features = TileFeatures(SlidingTile(5), pdbs)
    assert features.md_max == 168
    assert features.scale[-2:].tolist() == [168, 25]


# --- drawn states against the oracles -------------------------------------------------------------

def test_tile_features_match_the_definition(tiles):
    check_against(tiles, lambda s: tile_oracle(load_groups(tiles), 3, s), drawn(tiles.domain, 1))


def test_pancake_features_match_the_definition(pancakes):
    check_against(pancakes, lambda s: pancake_oracle(load_groups(pancakes), s),
                  drawn(pancakes.domain, 2))


def test_blocksworld_features_match_the_definition(blocks):
    check_against(blocks, lambda s: block_oracle(load_groups(blocks), s), drawn(blocks.domain, 3))


def load_groups(encoding) -> dict:
    """The encoding's PDBs grouped back into its partitions."""
    groups = getattr(encoding, "groups", None) or [list(range(len(encoding.pdbs)))]
    return {g: [encoding.pdbs[i] for i in group] for g, group in enumerate(groups)}


def test_one_hot_through_the_contract_is_two_dim():
    domain = SlidingTile(4)
    encoding = for_domain(domain)
    assert isinstance(encoding, OneHot) and encoding.size == 128 == encoding_size(domain)
    states = drawn(domain, 4, n=20)
    x = encoding(states)
    assert x.dtype == np.float32 and x.shape == (20, 128)
    assert (np.array_equal(x, one_hot_inputs(states, 4))
            and np.array_equal(x, encode(domain, states)))
    assert [row.tolist() for row in x] == [two_dim_oracle(4, s.tolist()) for s in states]
    assert encoding.admissible(states) is None
    assert x.sum(axis=1).tolist() == [32.0] * 20


# --- incremental = from scratch -------------------------------------------------------------------

def walk_incrementally(encoding, seed, n=16, steps=30):
    """Expand every move of a batch, as IDA* does, compare the incremental result with a fresh start
    on the children, then follow one child of each parent (without undoing its last move) and
    repeat."""
    domain, rng = encoding.domain, np.random.default_rng(seed)
    states = drawn(domain, seed + 100, n=n, steps=5)
    x, h_ad, carry = encoding.start(states)
    pop = np.full(n, -1)                                                  # -1: nothing to prune
    for _ in range(steps):
        parent, move = domain.successors(states, pop)
        if np.bincount(parent, minlength=n).min() == 0:         # a single tower: only the move back
            pop = np.where(np.bincount(parent, minlength=n) == 0, -1, pop)
            parent, move = domain.successors(states, pop)
        x, h_ad, carry = encoding.step(states, x, h_ad, carry, parent, move)
        children = domain.apply(states, parent, move)
        fresh = encoding.start(children)
        assert np.array_equal(x, fresh[0]) and x.dtype == np.float32
        if h_ad is None:
            assert fresh[1] is None
        else:
            assert np.array_equal(h_ad, fresh[1]) and h_ad.dtype == np.int64
        if carry is not None:
            assert len(carry) == len(children) and np.array_equal(carry, fresh[2])
        counts = np.bincount(parent, minlength=n)
        pick = np.cumsum(counts) - counts + rng.integers(counts)         # one child of each parent
        states, pop = children[pick], domain.inverse(move[pick])
        x, h_ad = x[pick], None if h_ad is None else h_ad[pick]
        carry = None if carry is None else carry[pick]


def test_one_hot_step_equals_from_scratch():
    walk_incrementally(OneHot(SlidingTile(4)), 5)


def test_tile_features_step_equals_from_scratch(tiles):
    walk_incrementally(tiles, 6)


def test_pancake_features_step_equals_from_scratch(pancakes):
    walk_incrementally(pancakes, 7)


def test_blocksworld_features_step_equals_from_scratch(blocks):
    walk_incrementally(blocks, 8, steps=15)


def test_tile_features_step_with_partitions_that_leave_tiles_out(folder):
    """A partition need not hold every tile (the benchmarks' cut patterns do not): a move of a tile
    outside it leaves that partition's PDBs as they were."""
    partial = TileFeatures(SlidingTile(3), load_all({"A": [[1, 2], [5, 6]], "B": [[3, 4, 7]]},
                                                    lambda p: TilePattern(3, p), folder))
    check_against(partial, lambda s: tile_oracle(load_groups(partial), 3, s),
                  drawn(partial.domain, 4))
    walk_incrementally(partial, 11)


def test_rank_many_is_la_pdb_rank_for_patterns_of_any_size():
    """Patterns of 1, 3 and 4 items ranked in one call, padded to 4 with weight 0 and arbitrary
    places."""
    rng, n, rows = np.random.default_rng(0), 9, 50
    cells = [np.stack([rng.permutation(n)[:k] for _ in range(rows)]).astype(np.uint8)
             for k in (1, 3, 4)]
    padded = rng.integers(0, n, (4, len(cells), rows)).astype(np.uint8)
    weights = np.zeros((4, len(cells), 1), dtype=np.int32)
    for p, c in enumerate(cells):
        padded[:c.shape[1], p] = c.T
        weights[:c.shape[1], p, 0] = ranking.weights(n, c.shape[1])
    np.testing.assert_array_equal(rank_many(padded, weights),
                                  np.stack([ranking.rank(c, n) for c in cells]))


# --- h_ad: the max of HArr, admissible everywhere -------------------------------------------------

def every_state(exact: ExactDistances) -> np.ndarray:
    """All states the BFS reached, decoded from their keys (values as digits in base
    `exact.base`)."""
    digits, rest = [], exact.keys.copy()
    for _ in range(exact.domain.size):
        rest, digit = np.divmod(rest, exact.base)
        digits.append(digit)
    return np.stack(digits, axis=1).astype(np.uint8)


@pytest.mark.parametrize("name", ["tiles", "pancakes", "blocks"])
def test_h_ad_is_the_max_of_harr_and_admissible_on_every_state(name, request):
    encoding = request.getfixturevalue(name)
    exact = ExactDistances(encoding.domain)
    states = every_state(exact)
    assert np.array_equal(exact(states), exact.distance)                     # the decoding is right
    h_ad = encoding.admissible(states)
    assert np.array_equal(h_ad, encoding.h_arr(states).max(axis=1))
    assert (h_ad <= exact.distance).all()
    assert h_ad.max() > 0 and (h_ad[exact.distance == 0] == 0).all()


# --- the contract's edges -------------------------------------------------------------------------

def test_for_domain_refuses_domains_without_an_encoding():
    with pytest.raises(ValueError, match="no network encoding for the 8-pancake"):
        for_domain(Pancake(8))
    with pytest.raises(ValueError, match="sliding-tile"):
        OneHot(Blocksworld(4))


def test_partitions_must_be_disjoint_and_of_the_domain(folder):
    overlapping = load_all({"A": [[1, 2], [2, 3]]}, lambda p: TilePattern(3, p), folder)
    with pytest.raises(ValueError, match="overlap"):
        TileFeatures(SlidingTile(3), overlapping)
    fifteen = load_all({"A": [[1, 2]]}, lambda p: TilePattern(4, p), folder)
    with pytest.raises(ValueError, match="not a PDB of the 8-puzzle"):
        TileFeatures(SlidingTile(3), fifteen)
    with pytest.raises(ValueError, match="at least one"):
        TileFeatures(SlidingTile(3), {"A": []})


def test_states_of_another_size_are_refused(tiles):
    with pytest.raises(ValueError, match=r"rows of 9 numbers; got an array of shape \(2, 16\)"):
        tiles(np.zeros((2, 16), dtype=np.uint8))


# --- the paper's encodings (slow: the full PDBs, built into the cache on first use) ---------------

PAPER = {"24-puzzle": (SlidingTile(5), TileFeatures, 15),
         "24-pancake": (Pancake(24), PancakeFeatures, 14),
         "15-blocksworld": (Blocksworld(15), BlockFeatures, 14)}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PAPER))
def test_the_papers_encodings(name):
    domain, kind, size = PAPER[name]
    encoding = for_domain(domain)
    assert isinstance(encoding, kind) and encoding.size == size
    oracle = {"24-puzzle": lambda s: tile_oracle(load_groups(encoding), 5, s),
              "24-pancake": lambda s: pancake_oracle(load_groups(encoding), s),
              "15-blocksworld": lambda s: block_oracle(load_groups(encoding), s)}[name]
    check_against(encoding, oracle, drawn(domain, 9, n=5, steps=200))
    walk_incrementally(encoding, 10, n=8, steps=10)


@pytest.mark.slow
def test_the_24_puzzles_h_ad_is_below_korfs_optimal_costs():
    encoding = for_domain(SlidingTile(5))
    instances = korf50_24()
    h_ad = encoding.admissible(np.stack([i.state for i in instances]))
    assert (h_ad <= np.array([i.optimal for i in instances])).all()
