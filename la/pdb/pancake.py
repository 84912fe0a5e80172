"""Location-based additive pattern databases of the pancake puzzle (Yang, Culberson, Holte, Zahavi &
Felner, "A general theory of additive state space abstractions", JAIR 32, 2008).

A pattern is a set of pancakes. The abstract state keeps the height of each pattern pancake; the
other pancakes look alike. Flip k reverses heights 0..k, so a pancake at height p <= k moves to
k - p. Every flip moves exactly one pancake onto the top and one off it, so charging each flip to
the PDB of the pancake that arrives on top, or to that of the pancake that leaves it, splits its
cost among the PDBs of a partition, and their sum is admissible either way (Yang et al. 2008).

Which end of a flip is charged. The authors search from the goal and charge every state they
generate whose top pancake is in the pattern: read towards the goal, a flip costs 1 when the pancake
*leaving* the top is a pattern pancake. `la` follows them, since each PDB is also a network input
(`la.features.pancake`) whose values and scale (its largest entry) should be the authors'. It
searches with the other charge, the pancake *arriving* on top, for which the cost of a flip depends
only on the state it reaches (below), and converts: along any plan the pancake leaving the top in
one flip arrived there in the flip before, so the two charges differ by [a pattern pancake on top at
the start] - [one on top at the goal, i.e. pancake 0 in the pattern], the same for every plan from a
state: the entries differ by that amount. Over a partition both terms sum to 1, so the partition
sums (the `pdb` heuristic) are the same under either charge.

How it is built: a 0-1 breadth-first search backwards from the goal, level by level over whole
frontiers. The cost of s -> flip(s) depends only on the state it reaches (a pattern pancake on top
of flip(s) or not), so going backwards every predecessor of a state t costs the same, c(t). Level d
holds the states at distance d: first its states with c = 0 are expanded, their unseen predecessors
join level d, and so on until no new ones appear (the zero-cost closure); then its states with c = 1
are expanded, and their unseen predecessors form level d + 1. Each state is expanded at most once.
The table is indexed by `la.pdb.rank` of the pattern pancakes' heights (in pattern order):
24!/19! = 5,100,480 entries for 5 pancakes of 24, one byte each; the build then needs about 150 MB.
"""
import numpy as np

from la.pdb import rank as ranking

CHUNK = 1 << 14  # states expanded per NumPy call: x (N - 1) flips, ~20 MB of temporaries for N = 24
UNSEEN = 255     # table entry of a state not reached yet (uint8)


def heights(states: np.ndarray) -> np.ndarray:
    """Where each pancake is, (N, n) uint8: heights[p, s] = pancake p's height in state s (0 = top).

    Row p is contiguous, so a pattern's heights are cheap to read: compute it once for all PDBs."""
    n, N = states.shape
    index = states.astype(np.intp)                  # intp: NumPy would convert any other index type
    index *= n
    index += np.arange(n)[:, None]
    at = np.empty(N * n, dtype=np.uint8)
    at[index] = np.arange(N, dtype=np.uint8)
    return at.reshape(N, n)


class PancakePattern:
    """The abstraction of an N-pancake puzzle that keeps the heights of the pancakes `pancakes`."""

    # the authors' charge: `PancakePuzzle/Heuristics/PDBLocHeuristic.cs`, built by
    # `PancakePuzzle/BuildPDBs.cs` (module docstring)
    cost = "flips that take a pattern pancake off the top (the authors' charge; Yang et al. 2008)"

    def __init__(self, n: int, pancakes):
        self.n = int(n)
        self.domain = f"{self.n}-pancake"
        self.pattern = tuple(sorted(int(p) for p in pancakes))
        k = len(self.pattern)
        if self.n < 2:
            raise ValueError(f"a pancake puzzle needs at least 2 pancakes, got {n}")
        if len(set(self.pattern)) != k or not all(0 <= p < self.n for p in self.pattern):
            raise ValueError(f"a pattern of the {self.domain} is a set of distinct pancakes "
                             f"0..{self.n - 1}, got {list(pancakes)}")
        if not 1 <= k <= self.n:
            raise ValueError(f"a pattern of the {self.domain} has 1..{self.n} pancakes, got {k}")
        self.size = ranking.count(self.n, k)
        if self.size >= 2**31:
            raise ValueError(f"{self} has {self.size:,} abstract states: too many for one table")

    def __repr__(self):
        return f"PancakePattern({self.domain}, {list(self.pattern)})"

    # --- lookup -----------------------------------------------------------------------------------

    def places(self, states: np.ndarray) -> np.ndarray:
        """The height of each pattern pancake, (n, k), in pattern order."""
        return heights(states)[list(self.pattern)].T

    def rank_places(self, places: np.ndarray) -> np.ndarray:
        """The table index of each row of pattern pancakes' heights (n, k)."""
        return ranking.rank(places, self.n)

    def rank_heights(self, at: np.ndarray) -> np.ndarray:
        """The table index of each state given `heights(states)` (N, n), which PDBs can share."""
        return ranking.rank_columns([at[p] for p in self.pattern], self.n)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """The table index of each state (n, N)."""
        return self.rank_heights(heights(np.asarray(states)))

    # --- build ------------------------------------------------------------------------------------

    def build(self, progress=None) -> np.ndarray:
        """The PDB: the fewest flips charged to the pattern from each abstract state to the goal."""
        table = np.full(self.size, UNSEEN, dtype=np.uint8)
        owner = np.empty(self.size, dtype=np.int32)         # scratch: which copy of a child is kept
        goal = np.array(self.pattern, dtype=np.uint8)[:, None]              # (k, 1): pancake p at p
        table[ranking.rank_columns(goal, self.n)] = 0
        fresh, level = goal, 0                              # states (k, m) by their pattern heights
        while fresh.shape[1] and (table == UNSEEN).any():
            members = [fresh]
            while fresh.shape[1]:                           # zero-cost closure of level `level`
                fresh = self._expand(fresh[:, ~_charged(fresh)], table, owner, level)
                members.append(fresh)
            members = np.concatenate(members, axis=1)
            if level + 1 >= UNSEEN:
                raise ValueError(f"{self} has abstract distances above {UNSEEN - 2}: they do not "
                                 f"fit a byte")
            fresh = self._expand(members[:, _charged(members)], table, owner, level + 1)
            level += 1
            if progress is not None:
                progress(np.count_nonzero(table != UNSEEN) / self.size, f"level {level}")
        return self._authors_charge(table)

    def _authors_charge(self, table: np.ndarray) -> np.ndarray:
        """Entries under the authors' charge: + [pattern pancake on top] - [0 in the pattern]."""
        shift = int(0 in self.pattern)
        for start in range(0, self.size, CHUNK * 16):
            ranks = np.arange(start, min(start + CHUNK * 16, self.size))
            on_top = (ranking.unrank(ranks, self.n, len(self.pattern)) == 0).any(axis=1)
            # >= 0 (it is a cost)
            table[ranks] = (table[ranks].astype(np.int16) + on_top - shift).astype(np.uint8)
        return table

    def _expand(self, places: np.ndarray, table: np.ndarray, owner: np.ndarray,
                level: int) -> np.ndarray:
        """Flip states (k, m) every way; the children not reached before get `level`: their heights
        (k, m')."""
        flips = np.arange(1, self.n, dtype=np.uint8)[:, None]                  # (N-1, 1)
        found = [np.empty((len(places), 0), dtype=np.uint8)]
        for start in range(0, places.shape[1], CHUNK):
            # Flip f sends a pancake at height p <= f to f - p: (N-1)·m children, flip-major.
            child = np.stack([np.where(p <= flips, flips - p, p).reshape(-1)
                              for p in places[:, start:start + CHUNK]])       # (k, (N-1)·m)
            rank = ranking.rank_columns(child, self.n)
            new = np.flatnonzero(table[rank] == UNSEEN)
            rank = rank[new]
            owner[rank] = np.arange(len(rank), dtype=np.int32)          # the last copy of each wins
            keep = new[owner[rank] == np.arange(len(rank))]
            table[rank] = level
            found.append(child[:, keep])
        return np.concatenate(found, axis=1)


def _charged(places: np.ndarray) -> np.ndarray:
    """Whether a pattern pancake is on top of each abstract state (k, m): the cost of any flip into
    it."""
    return (places == 0).any(axis=0)
