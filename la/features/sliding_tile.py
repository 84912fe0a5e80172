"""The 24-puzzle's 15 network inputs (paper §5), in this order and scaling:

    HArr[0..4]   the additive PDBs of partition A (Korf & Felner 2002), each / its largest value
    HArr[5..9]   the PDBs of partition B, the same way
    HArr[10, 11] the sums of A and of B, each / the sum of its PDBs' largest values
    HArr[12]     Manhattan distance (blank excluded) / 168, the sum of the 24 largest entries of the
                 25 x 25 tile-to-cell distance table
    HArr[13]     Hamming, the non-blank tiles out of place, / 25
    input 14     the blank's cell (0..24, row-major) / 25

All 14 HArr entries are admissible, so h_ad = max(HArr). The paper says "5-5-5-4 PDBs"; each
partition here is 5-5-5-5-4, five patterns covering the 24 tiles (`la.pdb.sets` says why).

Inside IDA* the features are incremental (`la.features.base`): a move slides one tile, so a child
changes the two PDB lookups of the moved tile's patterns (one per partition, re-ranked from the
tiles' cells), that tile's Manhattan and Hamming terms (tables by tile and move, as in
`la.heuristics.classical.Manhattan`), the sums, and the blank's cell. The carry is one row of bytes
per node: HArr, then the cell of each tile (blank first), which the move updates in two places.
Every HArr entry lies in 0..255, so the updates run in uint8 arithmetic, which wraps modulo 256:
adding (new - old) mod 256 gives the new value exactly.
"""
import numpy as np

from la.domains.sliding_tile import SlidingTile
from la.features.base import Features, end_to_end, partition_list, pdb_scales, rank_many
from la.pdb import rank as ranking
from la.pdb.sets import load_set


class TileFeatures(Features):
    """PDB features of a sliding-tile puzzle. `pdbs` = {partition: [PDB of a TilePattern, ...]},
    disjoint patterns within a partition; by default the paper's partitions A and B of the
    24-puzzle (`load_set`, built into `folder` on first use, `progress(fraction, text)` told)."""

    def __init__(self, domain: SlidingTile, pdbs: dict | None = None, folder=None, progress=None):
        if not isinstance(domain, SlidingTile):
            raise ValueError(f"TileFeatures is for sliding-tile puzzles, not the {domain.name}")
        if pdbs is None:
            pdbs = load_set(domain.name, folder, progress)
        self.domain = domain
        self.pdbs, self.groups = partition_list(pdbs, domain, additive=True)
        self.tiles = [np.array(pdb.abstraction.pattern, dtype=np.intp) for pdb in self.pdbs]
        N = domain.size
        P, G = len(self.pdbs), len(self.groups)
        self.md_column, self.hamming_column = P + G, P + G + 1
        # A partition's sum is at least each of its PDBs, and Manhattan at least Hamming: so
        # max(HArr) is the largest of those.
        self.floor_columns = [P + g for g in range(G)] + [self.md_column]
        self._tables()
        # order and scaling, which §5 does not give: the authors' `SlidingPuzzle/Heuristics/
        # MultHeuristic24.cs` and `SlidingPuzzle/Representations/Features.cs`
        self.scale = np.array(pdb_scales(self.pdbs, self.groups) + [self.md_max, N],
                              dtype=np.float32)
        self.size = len(self.scale) + 1
        if self.scale.max() > 255:
            raise ValueError(f"{self!r} has features up to {int(self.scale.max())}, but its carry "
                             f"holds them in bytes: at most 255")
        self.pdbs, self.table, offset = end_to_end(self.pdbs)
        self.patterns = [self._pattern_tables(group, offset) for group in self.groups]

    def _pattern_tables(self, group, offset):
        """What `step` needs of one partition: for each tile, which of the partition's PDBs holds it
        (-1: none); whether every tile has one; for each of its PDBs, the carry columns of its
        tiles' cells and their rank weights ((K, PDBs), padded with weight 0 to the largest
        pattern's K tiles), where its table begins in `self.table`, and its HArr column."""
        k, K = len(self.scale), max(len(self.tiles[i]) for i in group)
        local = np.full(self.domain.size, -1, dtype=np.intp)
        cells_at = np.full((K, len(group)), k, dtype=np.intp)      # padding: any cell (the blank's)
        weights = np.zeros((K, len(group)), dtype=np.int32)
        for l, i in enumerate(group):
            tiles = self.tiles[i]
            local[tiles] = l
            cells_at[:len(tiles), l] = k + tiles
            weights[:len(tiles), l] = ranking.weights(self.domain.size, len(tiles))
        covered = bool((local[1:] >= 0).all())
        return local, covered, cells_at, weights, offset[group], np.array(group, dtype=np.intp)

    def _tables(self):
        """Manhattan and Hamming by (tile, cell), and their change by (tile, move code)."""
        d = self.domain
        table = (np.abs(d.row[:, None] - d.row[None, :])
                 + np.abs(d.col[:, None] - d.col[None, :]))           # (N, N)
        # MDMax: the N-1 largest entries of the whole table, blank row included, as the authors
        # count it (`MDHeuristic.MDMax`).
        self.md_max = int(np.sort(table, axis=None)[::-1][:d.size - 1].sum())
        self.distance = table.copy()
        self.distance[0] = 0                                          # the blank is not counted
        tile, cell = np.arange(d.size)[:, None], np.arange(d.size)[None, :]
        self.wrong = ((tile != cell) & (tile != 0)).astype(np.int64)  # Hamming's term
        # Move code m sends the blank from blank_from[m] to blank_to[m]: the tile goes
        # blank_to -> blank_from. The changes are kept mod 256, for the carry's uint8 arithmetic
        # (module docstring).
        self.md_delta = np.mod(self.distance[:, d.blank_from] - self.distance[:, d.blank_to],
                               256).astype(np.uint8).reshape(-1)      # (N·M,)
        self.hamming_delta = np.mod(self.wrong[:, d.blank_from] - self.wrong[:, d.blank_to],
                                    256).astype(np.uint8).reshape(-1)
        self.moves = len(d.blank_from)

    def where(self, states) -> np.ndarray:
        """where[s, v] = the cell holding tile v in state s, (n, N)."""
        n, N = states.shape
        where = np.empty(n * N, dtype=np.uint8)
        where[(np.arange(n) * N)[:, None] + states] = np.arange(N, dtype=np.uint8)
        return where.reshape(n, N)

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 14 for the 24-puzzle): each partition's PDBs, their sums, Manhattan, Hamming."""
        n, N = states.shape
        P = len(self.pdbs)
        h = np.empty((n, len(self.scale)), dtype=np.int32)
        where = self.where(states)
        for i, (pdb, tiles) in enumerate(zip(self.pdbs, self.tiles)):
            h[:, i] = np.take(pdb.table, pdb.abstraction.rank_cells(where[:, tiles]))
        for g, group in enumerate(self.groups):
            h[:, P + g] = h[:, group].sum(axis=1)
        cell = np.arange(N)
        h[:, self.md_column] = self.distance[states, cell].sum(axis=1)
        h[:, self.hamming_column] = self.wrong[states, cell].sum(axis=1)
        return h

    def others(self, states) -> np.ndarray:
        """The blank's cell / N, (n, 1) float32."""
        return self._blank_input((states == 0).argmax(axis=1))

    def _blank_input(self, blank) -> np.ndarray:
        return (blank.astype(np.float32) / np.float32(self.domain.size))[:, None]

    def start(self, states):
        """x, h_ad and the carry [HArr, where] (n, k + N) uint8 of a batch."""
        states = self.check(states)
        h, where = self.h_arr(states), self.where(states)
        return (self.inputs(h, self.others(states)), self.h_ad(h),
                np.concatenate([h.astype(np.uint8), where], 1))

    def step(self, states, x, h_ad, carry, parent, move):
        """The children's x, h_ad and carry from the parents' carry (x and h_ad are not read)."""
        # the tile leaves cell t for cell b
        tile, t, b = self.domain.moved_tile(states, parent, move)
        tile = tile.astype(np.intp)
        c = np.take(carry, parent, axis=0)                 # (n, k + N) the parents' rows
        k, flat = len(self.scale), c.reshape(-1)           # flat: one gather per value
        row = np.arange(0, c.size, c.shape[1])             # where each child's row begins
        flat[row + k + tile] = b                           # where[tile] = b
        flat[row + k] = t                                  # where[blank] = t
        code = tile * self.moves + move
        # mod 256, the two below
        flat[row + self.md_column] += np.take(self.md_delta, code)
        flat[row + self.hamming_column] += np.take(self.hamming_delta, code)
        P = len(self.pdbs)
        for g, (local, covered, cells_at, weights, offset, column) in enumerate(self.patterns):
            l, r = np.take(local, tile), row               # (n,) which of g's PDBs holds the tile
            if not covered:                                # a tile in none of them changes none
                keep = np.flatnonzero(l >= 0)
                l, r = np.take(l, keep), np.take(row, keep)
            # (K, n): the cells of that PDB's tiles
            cells = np.take(flat, np.take(cells_at, l, axis=1) + r)
            value = np.take(self.table,
                            np.take(offset, l) + rank_many(cells, np.take(weights, l, axis=1)))
            at = r + np.take(column, l)                    # that PDB's HArr entry
            flat[r + (P + g)] += value - np.take(flat, at) # the partition's sum, mod 256
            flat[at] = value
        h = c[:, :k]
        return self.inputs(h, self._blank_input(t)), self.h_ad(h), c
