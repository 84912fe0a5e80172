"""Additive pattern databases of the sliding-tile puzzle (Korf & Felner, "Disjoint pattern database
heuristics", AIJ 134, 2002).

A pattern is a set of tiles. Its PDB stores, for every placement of those tiles on the board (the
other tiles unlabelled), the fewest moves *of pattern tiles* that bring them home with the blank
back at the top-left. Moves of other tiles cost nothing, so the PDBs of disjoint patterns can be
added: every real move moves one tile and is counted by at most one of them. The stored value is the
minimum over where the blank is.

How it is built. Searching over (placement, blank cell) with a 0-1 BFS is slow in NumPy: a 5-tile
pattern of the 24-puzzle has 6,375,600 placements x 20 blank cells, and the blank's free moves
dominate the work. Here the blank's free moves are collapsed: the abstract state is
(placement, *region*), where the region is the connected set of non-pattern cells that holds the
blank. Inside a region the blank moves for free, so every edge between such states is a pattern
tile sliding into the region, cost 1, and a plain breadth-first search suffices: 7,871,280 states
for the pattern {1,2,5,6,7} instead of 127,512,000.

1. Regions. Each placement's non-pattern cells split into regions, found by flood fills on bitboards
   (bit c set = cell c in the region; grow by shifting one row up and down and one column left and
   right, masked to the free cells, until nothing changes), for all placements of a chunk at once.
   `_regions` stores, per placement and cell, the region's lowest cell, which names the region: one
   byte per (placement, cell).
2. Search. dist[rank, r] is the distance of (placement `rank`, region named by cell r). Level by
   level, the frontier is expanded in chunks: pattern tile i at cell t slides into a neighbouring
   cell b of the blank's region (a table lookup: region[rank, b] == r); the child's placement has
   tile i on b and the blank on t, so its region is region[rank', t]. Children not seen before get
   the next level.
3. Table. The PDB entry of a placement is the minimum of dist over its regions.

The goal is la's (`la.domains.sliding_tile`): tile t on cell t, the blank on cell 0. The working
table holds 2·N + 1 bytes per placement (region names and dist), 325 MB for a 5-tile pattern of the
24-puzzle; a build of {1,2,5,6,7} peaked at about 400 MB and took 8-15 s on one core of a busy
2-core machine.

A pattern leaves at least two tiles out (k ≤ N − 3): the two unlabelled tiles can then swap places,
so every placement is reachable whatever the permutation's parity. With one tile left out some are
not (a 7-tile pattern of the 8-puzzle reaches 131,040 of its 181,440 placements), and their entries
would mean nothing.
"""
import numpy as np

from la.pdb import rank as ranking

CHUNK = 1 << 16       # placements or frontier states handled per NumPy call: ~100 MB of temporaries
UNSEEN = 255          # dist of a state not reached yet (uint8)
NO_REGION = 254       # region name of a cell outside the board or holding a pattern tile


class TilePattern:
    """The abstraction of a (W²−1)-puzzle that keeps the tiles `tiles` and the blank's region."""

    cost = "moves of pattern tiles (Korf & Felner 2002)"

    def __init__(self, width: int, tiles):
        self.width, self.cells = width, width * width
        self.domain = f"{self.cells - 1}-puzzle"
        self.pattern = tuple(sorted(int(t) for t in tiles))
        k = len(self.pattern)
        if not 2 <= width <= 8:                   # regions are 64-bit bitboards
            raise ValueError(f"tile patterns are built for boards 2x2 to 8x8, got width {width}")
        if len(set(self.pattern)) != k or not all(1 <= t < self.cells for t in self.pattern):
            raise ValueError(f"a pattern of the {self.domain} is a set of distinct tiles "
                             f"1..{self.cells - 1}, got {list(tiles)}")
        if not 1 <= k <= self.cells - 3:        # two unlabelled tiles: every placement is reachable
            raise ValueError(f"a pattern of the {self.domain} has 1..{self.cells - 3} tiles, "
                             f"got {k}")
        self.size = ranking.count(self.cells, k)

    def __repr__(self):
        return f"TilePattern({self.domain}, {list(self.pattern)})"

    # --- lookup -----------------------------------------------------------------------------------

    def placement(self, states: np.ndarray) -> np.ndarray:
        """The cell of each pattern tile, (n, k): where[s, t] = the cell of tile t in state s."""
        n, N = states.shape
        where = np.empty(n * N, dtype=np.uint8)
        where[(np.arange(n) * N)[:, None] + states] = np.arange(N, dtype=np.uint8)
        return where.reshape(n, N)[:, self.pattern]

    def rank_cells(self, cells: np.ndarray) -> np.ndarray:
        """The table index of each placement (n, k) of the pattern tiles (in pattern order)."""
        return ranking.rank(cells, self.cells)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """The table index of each state (n, N)."""
        return self.rank_cells(self.placement(states))

    # --- build ------------------------------------------------------------------------------------

    def build(self, progress=None) -> np.ndarray:
        """The PDB, one uint8 per placement rank: breadth-first search over (placement, region)."""
        N, P = self.cells, self.size
        # One row per placement: the region name of each cell (N, plus NO_REGION for "off the
        # board"), then dist of each region by name (N); a child's two lookups then fall in the same
        # cache line or two.
        row = 2 * N + 1
        if P * row >= 2**31:
            raise ValueError(f"{self} has {P:,} placements: too many to build in memory")
        table = np.empty((P, row), dtype=np.uint8)
        self._regions(table[:, :N + 1], progress)
        table[:, N + 1:] = UNSEEN
        table = table.reshape(-1)
        reached = np.zeros(P, dtype=bool)                         # placements seen, for progress
        goal = np.array(self.pattern, dtype=np.uint8)[:, None]    # (k, 1) columns: tile t on cell t
        rank = ranking.rank_columns(goal, N)
        name = table[rank * row]                                  # the blank's region: cell 0's
        table[rank * row + N + 1 + name] = 0
        reached[rank] = True
        frontier, level, states = (goal, rank, name), 0, 1
        while len(frontier[1]):
            level += 1
            if level == UNSEEN:
                raise RuntimeError(f"{self}: distances beyond {UNSEEN - 1} do not fit the uint8 "
                                   f"table")
            parts = [self._expand(frontier[0][:, i:i + CHUNK], frontier[1][i:i + CHUNK],
                                  frontier[2][i:i + CHUNK], table, reached, level)
                     for i in range(0, len(frontier[1]), CHUNK)]
            frontier = tuple(np.concatenate([p[j] for p in parts], axis=-1) for j in range(3))
            states += len(frontier[1])
            if progress is not None:
                progress(0.1 + 0.9 * np.count_nonzero(reached) / P,
                         f"level {level}, {states:,} states")
        if not reached.all():            # cannot happen for k <= N - 3 (see the module's docstring)
            raise RuntimeError(f"{self}: {P - np.count_nonzero(reached):,} placements were not "
                               f"reached")
        return table.reshape(P, row)[:, N + 1:].min(axis=1)

    def _expand(self, cells, rank, name, table, reached, level):
        """Children of a chunk of frontier states (cells (k, n), rank, region name) not seen before,
        which get dist `level`: (cells, rank, name) of the new states."""
        N, k = self.cells, len(cells)
        row = 2 * N + 1
        base = rank * row
        children = []
        for i in range(k):                               # pattern tile i slides from t into cell b
            t = cells[i]
            for step in self._neighbour.T:
                b = step[t]                              # (n,) N = off the board: never in a region
                slide = np.flatnonzero(table[base + b] == name)
                child = [c[slide] for c in cells]
                child[i] = b[slide].astype(np.uint8)
                children.append((child, t[slide]))
        child = np.concatenate([np.array(c) for c, _ in children], axis=1)  # (k, m)
        moved_from = np.concatenate([t for _, t in children])
        child_rank = ranking.rank_columns(child, N)
        child_base = child_rank * row
        child_name = table[child_base + moved_from]         # the blank is on the cell the tile left
        at = child_base + (N + 1) + child_name
        new = np.flatnonzero(table[at] == UNSEEN)
        at, first = np.unique(at[new], return_index=True)
        keep = new[first]
        table[at] = level
        reached[child_rank[keep]] = True
        return child[:, keep], child_rank[keep], child_name[keep]

    @property
    def _neighbour(self) -> np.ndarray:
        """neighbour[c, d]: the cell next to c in direction d (up, left, right, down); N: none."""
        W, N = self.width, self.cells
        cell = np.arange(N)
        row, col = cell // W, cell % W
        steps = [(row > 0, -W), (col > 0, -1), (col < W - 1, 1), (row < W - 1, W)]
        return np.stack([np.where(ok, cell + step, N) for ok, step in steps],
                        axis=1).astype(np.int32)

    def _regions(self, out: np.ndarray, progress) -> None:
        """out[rank, c] = the lowest cell of the region holding free cell c of placement `rank`,
        (P, N+1)."""
        N, P, k = self.cells, self.size, len(self.pattern)
        for start in range(0, P, CHUNK):
            cells = ranking.unrank(np.arange(start, min(start + CHUNK, P)), N, k)
            out[start:start + len(cells)] = self._name_regions(cells)
            if progress is not None:
                progress(0.1 * (start + len(cells)) / P, "regions")

    def _name_regions(self, cells: np.ndarray) -> np.ndarray:
        """Region names (n, N+1) of placements (n, k): a free cell's region's lowest cell, or
        NO_REGION."""
        N = self.cells
        bit = np.uint64(1) << np.arange(N, dtype=np.uint64)                 # (N,) one bit per cell
        # (n,) bitboards
        free = np.bitwise_or.reduce(bit) & ~np.bitwise_or.reduce(bit[cells], axis=1)
        names = np.full((len(cells), N + 1), NO_REGION, dtype=np.uint8)
        rows, left = np.arange(len(cells)), free.copy()
        while len(rows):
            # the lowest free cell not named yet, and its cell (a power of two: log2 is exact)
            seed = left & (~left + np.uint64(1))
            grown = self._flood(seed, free[rows])
            lowest = np.log2(seed.astype(np.float64)).astype(np.uint8)
            inside = (grown[:, None] & bit) != 0                            # (m, N)
            names[rows, :N] = np.where(inside, lowest[:, None], names[rows, :N])
            left &= ~grown
            more = left != 0
            rows, left = rows[more], left[more]
        return names

    def _flood(self, region: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Grow bitboards `region` inside `free` until they stop growing: the connected regions."""
        W, N = self.width, self.cells
        col = np.arange(N) % W
        one, w = np.uint64(1), np.uint64(W)
        bit = one << np.arange(N, dtype=np.uint64)
        not_first = np.bitwise_or.reduce(bit[col != 0])              # cells a right shift may enter
        not_last = np.bitwise_or.reduce(bit[col != W - 1])           # cells a left shift may enter
        while True:
            grown = (region | ((region << one) & not_first) | ((region >> one) & not_last)
                     | (region << w) | (region >> w)) & free
            if np.array_equal(grown, region):
                return region
            region = grown
