"""Blocksworld pattern databases with anonymous blocks, combined by max.

The abstraction keeps the labels of the k pattern blocks and makes the other blocks alike: an
abstract state is the multiset of stacks, each a bottom-to-top word over {anonymous, pattern block
1..k}. Its moves are the concrete ones (a clear block onto another clear block, or onto the table if
it is not on it already), and *every* move costs 1, anonymous ones included, as in the authors' code
(`BlockPattern.cost`). So these PDBs are not additive: their maximum is the heuristic. The table is
filled by a plain breadth-first search backwards from the goal tower, level by level.

An exact key. The authors key a state by a base-15 number that overflows int64 and can carry; here a
key is exact by construction. Lay the stacks out one after the other, tallest first, each bottom to
top: N *places*, and the multiset of heights (the *shape*, a partition of N) says which places form
which stack. A state is then (shape, the places of the k pattern blocks) with la.pdb.rank numbering
the places: one of p(N)·N!/(N-k)! keys (176 · 32,760 = 5,765,760 for 4 blocks of 15). Stacks of
equal height may be laid out in either order, so an abstract state can have several keys; `Keys`
maps every key to the dense index of the state's canonical key (equal-height stacks ordered by their
lowest-numbered pattern block, the stacks without pattern blocks last). The PDB is indexed by that
dense index: 2,278,239 entries for 4 blocks of 15.

Looking up a batch: `towers` finds each block's level and its stack's bottom by pointer jumping
(log2 N gathers); `Shapes.layout` finds every block's place and the shape with N broadcast
comparisons over blocks (rows of n contiguous bytes); a pattern then needs its blocks' rows, one
la.pdb.rank and one gather. The first two steps are shared by all patterns of a state; compute them
once with `towers` and `layout`, then call `rank_layout` per pattern. A search can also carry
(level, bottom) from parent to child instead of calling `towers`: moving block b onto block c sets
level[b] = level[c] + 1 and bottom[b] = bottom[c] (onto the table: 0 and b), and changes nothing
else, since b was clear. `build` expands states that way.
"""
import functools
import math

import numpy as np

from la.pdb import rank as ranking

MAX_KEYS = 1 << 24       # p(N)·N!/(N-k)! keys at most: 64 MB of int32 for the key -> index map
MAX_BLOCKS = 20          # the shape is found through a table of 2^(N-1) bit patterns
CHUNK = 1 << 12          # states expanded per NumPy call: ~40 children each
UNSEEN = 255             # table entry of a state not reached yet (uint8)


def towers(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """By pointer jumping: each block's level (blocks under it) and its stack's bottom block, (n, N)
    uint8 each."""
    states = np.asarray(states).astype(np.uint8, copy=False)
    n, N = states.shape
    rows = (np.arange(n) * N)[:, None]
    on_table = states == 0
    # the column of the block each block stands on; a bottom block: its own
    below = np.where(on_table, np.arange(N, dtype=np.uint8), states - np.uint8(1))
    level = (~on_table).view(np.uint8).copy()
    for _ in range(max(1, math.ceil(math.log2(max(N - 1, 1))))):       # each round doubles the jump
        index = below + rows
        level += np.take(level, index)                  # np.take: far faster than level.flat[index]
        below = np.take(below, index)
    return level, below + np.uint8(1)


def partitions(n: int, largest: int = None) -> list:
    """The partitions of n as non-increasing tuples, largest parts first."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    return [(first,) + rest for first in range(min(n, largest), 0, -1)
            for rest in partitions(n - first, first)]


class Shapes:
    """The shapes of N blocks (partitions of N, tallest stack first) and where their places are."""

    def __init__(self, n: int):
        self.n, self.shapes = n, partitions(n)
        count = len(self.shapes)
        # Per shape and place: its stack's height, its level in the stack, the place of the stack's
        # bottom, the stack's rank among those as tall; per height: the places in taller stacks;
        # and per bit pattern of the bottoms' places: the shape.
        self.height = np.zeros((count, n), dtype=np.int64)
        self.level = np.zeros((count, n), dtype=np.int64)
        self.start = np.zeros((count, n), dtype=np.int64)
        self.slot = np.zeros((count, n), dtype=np.int64)
        self.taller = np.zeros((count, n + 1), dtype=np.int64)
        self.index = np.full(1 << (n - 1), -1, dtype=np.int16)
        for s, heights in enumerate(self.shapes):
            bottoms = np.cumsum((0,) + heights[:-1])
            for stack, (h, q) in enumerate(zip(heights, bottoms)):
                self.height[s, q:q + h], self.level[s, q:q + h], self.start[s, q:q + h] = (
                    h, np.arange(h), q)
                self.slot[s, q:q + h] = stack - heights.index(h)
            for h in range(n + 1):
                self.taller[s, h] = sum(t for t in heights if t > h)
            self.index[sum(1 << int(q) for q in bottoms) >> 1] = s

    def layout(self, level: np.ndarray, bottom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every block's place, (N, n) uint8 (row b-1: block b), and the shape index, (n,) int32."""
        # (N, n): contiguous rows
        lv, bt = np.ascontiguousarray(level.T), np.ascontiguousarray(bottom.T)
        height = np.zeros_like(bt)
        for row in bt:
            height += bt == row                             # blocks with the same bottom: the stack
        # Stacks in layout order: taller first, then the larger bottom block first (any fixed
        # tie-break does); in bytes if they fit.
        order = height << 4 | bt if self.n < 16 else height.astype(np.uint16) << 8 | bt
        place = lv.copy()
        for row in order:
            place += row > order                         # the blocks of every stack laid out before
        starts = np.zeros(len(lv[0]), dtype=np.uint32)
        for b in range(self.n):
            starts |= (lv[b] == 0).astype(np.uint32) << place[b]
        return place, self.index[starts >> 1].astype(np.int32)


@functools.lru_cache(maxsize=None)
def shapes(n: int) -> Shapes:
    """The `Shapes` of n blocks, built once per process."""
    return Shapes(n)


class Keys:
    """For k of N blocks: the map from each (shape, placement) key to its state's dense index."""

    def __init__(self, n: int, k: int):
        self.shapes, self.placements = shapes(n), math.perm(n, k)
        place = ranking.unrank(np.arange(self.placements), n, k).T.astype(np.intp)  # (k, P) columns
        canonical = np.empty((len(self.shapes.shapes), self.placements), dtype=np.int32)
        for s in range(len(canonical)):
            canonical[s] = s * self.placements + ranking.rank_columns(self._canonical(s, place), n)
        seen = np.zeros(canonical.size, dtype=bool)
        seen[canonical.reshape(-1)] = True
        self.canonical = np.flatnonzero(seen).astype(np.int32)        # dense index -> canonical key
        # any key -> dense index
        self.dense = (np.cumsum(seen, dtype=np.int32) - 1)[canonical.reshape(-1)]

    def _canonical(self, s: int, place: np.ndarray) -> np.ndarray:
        """The places (k, P) of the same abstract states with equal-height stacks in canonical
        order: pattern block i's stack gets the next free slot of its height unless an earlier
        pattern block shares it."""
        sh = self.shapes
        height, level, slot = sh.height[s][place], sh.level[s][place], sh.slot[s][place]   # (k, P)
        new_slot = np.zeros_like(slot)
        first = np.ones(place.shape, dtype=bool)    # the lowest-numbered pattern block of its stack
        for i in range(len(place)):
            count, shared = np.zeros_like(slot[i]), np.zeros_like(slot[i])
            for j in range(i):
                as_tall = height[j] == height[i]
                same = as_tall & (slot[j] == slot[i])
                first[i] &= ~same
                shared = np.where(same, new_slot[j], shared)   # the slot of the stack it shares
                count += as_tall & first[j]                    # stacks as tall already given a slot
            new_slot[i] = np.where(first[i], count, shared)
        return sh.taller[s][height] + new_slot * height + level


@functools.lru_cache(maxsize=None)
def keys(n: int, k: int) -> Keys:
    """The `Keys` of k pattern blocks among n, built once per process (a second for 4 of 15)."""
    return Keys(n, k)


class BlockPattern:
    """The abstraction of an N-blocksworld that keeps the labels of the blocks `blocks` (1..N)."""

    # Every move costs 1, as in the authors' `BlocksWorld/Heuristics/PDBHeuristic.cs` (built by
    # `BlocksWorld/BuildPDBs.cs`), where the line that would count only pattern-block moves is
    # commented out.
    cost = "every move (pattern PDBs combined by max)"

    def __init__(self, n: int, blocks):
        self.n = int(n)
        self.domain = f"{self.n}-blocksworld"
        self.pattern = tuple(sorted(int(b) for b in blocks))
        k = len(self.pattern)
        if not 2 <= self.n <= MAX_BLOCKS:
            raise ValueError(f"blocksworld PDBs take 2..{MAX_BLOCKS} blocks, got {n}")
        if len(set(self.pattern)) != k or not all(1 <= b <= self.n for b in self.pattern):
            raise ValueError(f"a pattern of the {self.domain} is a set of distinct blocks "
                             f"1..{self.n}, got {list(blocks)}")
        if k == 0:
            raise ValueError(f"a pattern of the {self.domain} needs at least one block, got none")
        count = len(partitions(self.n)) * math.perm(self.n, k)
        if count > MAX_KEYS:
            raise ValueError(f"a pattern of {k} blocks of the {self.domain} has {count:,} keys, "
                             f"more than {MAX_KEYS:,}: use fewer blocks")
        self.size = len(self._keys.canonical)

    def __repr__(self):
        return f"BlockPattern({self.domain}, {list(self.pattern)})"

    @property
    def _keys(self) -> Keys:
        return keys(self.n, len(self.pattern))

    # --- lookup -----------------------------------------------------------------------------------

    def rank_layout(self, place: np.ndarray, shape: np.ndarray) -> np.ndarray:
        """The table index of each state given its `layout` (places (N, n), shape (n,))."""
        keys = self._keys
        key = shape * keys.placements + ranking.rank_columns([place[b - 1] for b in self.pattern],
                                                             self.n)
        return np.take(keys.dense, key)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """The table index of each state (n, N)."""
        return self.rank_layout(*shapes(self.n).layout(*towers(states)))

    # --- build ------------------------------------------------------------------------------------

    def build(self, progress=None) -> np.ndarray:
        """The PDB: the fewest moves from each abstract state to the goal tower, breadth first."""
        N = self.n
        table = np.full(self.size, UNSEEN, dtype=np.uint8)
        # the goal tower's levels and bottoms
        tower = np.arange(N, dtype=np.uint8)[None], np.ones((1, N), dtype=np.uint8)
        table[self.rank_layout(*shapes(N).layout(*tower))] = 0
        frontier, level = np.flatnonzero(table == 0), 0
        while len(frontier):
            if level + 1 >= UNSEEN:
                raise ValueError(f"{self} has abstract distances above {UNSEEN - 2}: they do not "
                                 f"fit a byte")
            for start in range(0, len(frontier), CHUNK):
                child = self._children(frontier[start:start + CHUNK])
                table[child[table[child] == UNSEEN]] = level + 1
            level += 1
            frontier = np.flatnonzero(table == level)
            if progress is not None:
                progress(np.count_nonzero(table != UNSEEN) / self.size, f"level {level}")
        return table

    def _representatives(self, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A concrete state of each abstract state, as `towers` gives it: levels and bottoms,
        (m, N) uint8.

        The pattern blocks stand on their canonical places, the others on free places in order."""
        keys, N, k = self._keys, self.n, len(self.pattern)
        shape, placement = np.divmod(keys.canonical[ranks].astype(np.int64), keys.placements)
        m, rows = len(ranks), np.arange(len(ranks))[:, None]
        place = ranking.unrank(placement, N, k)                                   # (m, k)
        pattern = np.zeros((m, N), dtype=bool)
        pattern[rows, place] = True
        others = np.array([b for b in range(1, N + 1) if b not in self.pattern], dtype=np.uint8)
        block_at = (others[np.cumsum(~pattern, axis=1) - 1] if len(others)
                    else np.zeros((m, N), np.uint8))
        block_at[rows, place] = np.array(self.pattern, dtype=np.uint8)      # (m, N): place -> block
        level, bottom = np.empty((m, N), dtype=np.uint8), np.empty((m, N), dtype=np.uint8)
        sh = shapes(N)
        level[rows, block_at - 1] = sh.level[shape]
        bottom[rows, block_at - 1] = block_at[rows, sh.start[shape]]
        return level, bottom

    def _children(self, ranks: np.ndarray) -> np.ndarray:
        """The table indices of the states one move away from each abstract state of `ranks`."""
        N = self.n
        level, bottom = self._representatives(ranks)
        height = (bottom[:, :, None] == bottom[:, None, :]).sum(axis=2)  # (m, N) stack heights
        clear = level == height - 1                                      # the top of its stack
        # (m, block, onto block), then a last column: onto the table
        onto = clear[:, :, None] & clear[:, None, :] & ~np.eye(N, dtype=bool)
        legal = np.concatenate([onto, (clear & (level > 0))[:, :, None]], axis=2)
        parent, block, dst = np.unravel_index(np.flatnonzero(legal), legal.shape)
        to_table = dst == N
        dst = np.where(to_table, 0, dst)
        child_level, child_bottom = level[parent], bottom[parent]
        moved = np.arange(len(parent))
        child_level[moved, block] = np.where(to_table, 0, level[parent, dst] + 1)
        child_bottom[moved, block] = np.where(to_table, block + 1, bottom[parent, dst])
        return self.rank_layout(*shapes(N).layout(child_level, child_bottom))
