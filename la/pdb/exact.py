"""Exact distance tables: h* of every state of a small permutation domain, by one breadth-first
search over perfect ranks.

A pattern database keeps some tiles and forgets the rest; keep them all and the abstraction is the
domain itself, so the "PDB" of the full pattern is the exact cost-to-goal h*. That is what this
module builds, for the domains whose states are permutations of 0..N-1 with the identity as the
goal (`state[p]` = the item at place p): sliding-tile boards (the 8-puzzle, 2x5, 3x4) and pancake
stacks (9, 10). The table is indexed by `la.pdb.rank` of the places of items 1..N-1 (item 0 takes
the place left over): N! entries of one byte, h* of the reachable states and UNSEEN for the others
(half of a sliding-tile board's permutations, by parity; none of a pancake stack's).

    domain        entries        states         diameter   mean h*
    8-puzzle          362,880        181,440      31       21.97
    2x5-puzzle      3,628,800      1,814,400      55       34.73
    9-pancake         362,880        362,880      10        7.66
    10-pancake      3,628,800      3,628,800      11        8.68
    3x4-puzzle    479,001,600    239,500,800      53       35.10

(tests/test_exact.py checks the first three rows; the 3x4 table, built once: 330 s on one core of a
busy 2-core machine, 1.26 GiB at its peak.)

The search goes from the goal, level by level: a level's states are expanded in chunks, every move
applied (no parent pruning: a child seen before is simply not new), and the children's ranks index
the table; those still UNSEEN, once each, get the next level's distance and form the next level.
So the search holds the table, two levels of states and one chunk's children. Every domain here is
reversible, so a search from the goal over successors finds the distances to it.

The tables go through `la.pdb.store` like every PDB: cached on disk as
`<domain>_1-2-...-(N-1).npy` with its JSON header (its cost "exact"), checked when read, built on
first use with progress and a free-space check. Before a build, `check_memory` refuses a table
whose build would not fit in the memory available.
"""
import os

import numpy as np

from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.pdb import rank as ranking

UNSEEN = 255                 # table entry of a state the goal does not reach (uint8)
CHUNK = 1 << 16              # states expanded per NumPy call: ~40 MB of temporaries for N = 12
FRONTIER_SHARE = 0.15        # the largest level, as a share of the reachable states (3x4: ~11 %)


class ExactTable:
    """The abstraction of a permutation domain that keeps every item: its PDB is h*."""

    cost = "moves: exact, every item in the pattern (h*)"

    def __init__(self, domain):
        if not isinstance(domain, (SlidingTile, Pancake)):
            raise ValueError(f"exact tables are built for sliding-tile boards and pancake "
                             f"stacks, not the {domain.name}")
        self.space = domain                       # the domain object; `domain` is its name, for
        self.domain = domain.name                 # `la.pdb.store`'s file names and headers
        self.n = domain.size
        self.pattern = tuple(range(1, self.n))
        self.size = ranking.count(self.n, self.n - 1)           # N!
        if self.size >= 2**40:                  # a terabyte: no machine here holds the table
            raise ValueError(f"the {self.domain} has {self.n}! = {self.size:.2e} permutations: "
                             f"far too many for an exact table")
        self.reachable = self.size // 2 if isinstance(domain, SlidingTile) else self.size

    def __repr__(self):
        return f"ExactTable({self.domain}, {self.size:,} entries)"

    # --- lookup -----------------------------------------------------------------------------------

    def places(self, states: np.ndarray) -> np.ndarray:
        """Where items 1..N-1 are, as N-1 contiguous columns (N-1, n): places[i-1, s] = the
        position of item i in state s (columns, since ranking reads one item at a time)."""
        n, N = states.shape
        where = np.empty(n * N, dtype=np.uint8)
        where[(np.arange(n) * N)[:, None] + states] = np.arange(N, dtype=np.uint8)
        return np.ascontiguousarray(where.reshape(n, N)[:, 1:].T)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """The table index of each state (n, N)."""
        return ranking.rank_columns(self.places(np.asarray(states)), self.n)

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """The states (n, N) uint8 of some table indices: the inverse of `rank`."""
        places = ranking.unrank(ranks, self.n, self.n - 1).astype(np.intp)      # (n, N-1)
        m, N = len(places), self.n
        states = np.zeros((m, N), dtype=np.uint8)              # item 0 where nothing else is
        rows = (np.arange(m) * N)[:, None]
        states.reshape(-1)[rows + places] = np.arange(1, N, dtype=np.uint8)
        return states

    # --- build ------------------------------------------------------------------------------------

    def peak_bytes(self) -> int:
        """A bound on what `build` holds at once: the table, two levels' states (the frontier and
        the next) and one chunk's children with their ranks and indices."""
        moves = 4 if isinstance(self.space, SlidingTile) else self.n - 1
        frontiers = 2 * int(FRONTIER_SHARE * self.reachable) * self.n
        chunk = CHUNK * moves * (4 * self.n + 4 * 8)
        return self.size + frontiers + chunk

    def build(self, progress=None) -> np.ndarray:
        """h* of every rank, uint8 (UNSEEN: unreachable), by breadth-first search from the goal."""
        check_memory(self)
        table = np.full(self.size, UNSEEN, dtype=np.uint8)
        frontier = self.space.goal[None].copy()
        table[self.rank(frontier)] = 0
        level, reached = 0, 1
        while len(frontier):
            level += 1
            if level == UNSEEN:
                raise RuntimeError(f"{self}: distances beyond {UNSEEN - 1} do not fit the table")
            found = []
            for i in range(0, len(frontier), CHUNK):
                _, _, children = self.space.expand(frontier[i:i + CHUNK])
                child = self.rank(children)
                fresh = np.flatnonzero(table[child] == UNSEEN)
                child, first = np.unique(child[fresh], return_index=True)
                table[child] = level
                found.append(children[fresh[first]])
            frontier = np.concatenate(found)
            reached += len(frontier)
            if progress is not None and len(frontier):
                progress(reached / self.reachable, f"level {level}, {reached:,} states")
        if reached != self.reachable:
            raise RuntimeError(f"{self}: reached {reached:,} states, expected {self.reachable:,}")
        return table


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux's MemAvailable), None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(table: ExactTable, available: int | None = None) -> None:
    """ValueError, in one line, if building `table` needs more memory than is available."""
    available = available_memory() if available is None else available
    need = table.peak_bytes()
    if available is not None and need > available:
        raise ValueError(f"the exact table of the {table.domain} needs about "
                         f"{need / 2**30:.1f} GiB to build, and {available / 2**30:.1f} GiB is "
                         f"available")


def h_star_table(domain, folder=None, progress=None):
    """h* of `domain` as a PDB (`la.pdb.store.PDB`: call it on states), from the cache folder or
    built there on first use."""
    from la.pdb import store
    return store.load(ExactTable(domain), folder, progress)
