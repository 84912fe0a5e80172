"""The 24-puzzle's 15 network inputs (paper §5; the authors' `SlidingPuzzle/Heuristics/MultHeuristic24.cs` and
`SlidingPuzzle/Representations/Features.cs`), in their order and scaling:

    HArr[0..4]   the additive PDBs of partition A (Korf & Felner 2002), each / its largest value
    HArr[5..9]   the PDBs of partition B, the same way
    HArr[10, 11] the sums of A and of B, each / the sum of its PDBs' largest values
    HArr[12]     Manhattan distance (blank excluded) / 168, the sum of the 24 largest entries of the 25 x 25
                 tile-to-cell distance table (the authors' `MDHeuristic.MDMax`)
    HArr[13]     Hamming, the non-blank tiles out of place, / 25
    input 14     the blank's cell (0..24, row-major) / 25

All 14 HArr entries are admissible, so h_ad = max(HArr). The paper says "5-5-5-4 PDBs"; each partition in the
authors' code, and here, is 5-5-5-5-4, five patterns covering the 24 tiles (`la.pdb.sets`).

Inside IDA* the features are incremental (`la.features.base`): a move slides one tile, so the carry is HArr
itself and a child changes the two PDB lookups of the moved tile's patterns (one per partition, re-ranked from
the parent's tile cells), that tile's Manhattan and Hamming terms (tables by tile and move, as in
`la.heuristics.classical.Manhattan`), the sums, and the blank's cell.
"""
import numpy as np

from la.domains import SlidingTile
from la.features.base import Features, partition_list, pdb_scales
from la.pdb.sets import load_set


class TileFeatures(Features):
    """PDB features of a sliding-tile puzzle. `pdbs` = {partition name: [PDB of a TilePattern, ...]}, disjoint
    patterns within a partition; by default the paper's partitions A and B of the 24-puzzle (`load_set`,
    built into `folder` on first use, `progress(fraction, text)` told)."""

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
        # A partition's sum is at least each of its PDBs, and Manhattan at least Hamming: max(HArr) is theirs.
        self.floor_columns = [P + g for g in range(G)] + [self.md_column]
        self._tables()
        # owner[g, v] = which PDB of partition g holds tile v (-1: none); slot[g, v] = v's place in its pattern
        self.owner = np.full((G, N), -1, dtype=np.intp)
        self.slot = np.zeros((G, N), dtype=np.intp)
        for g, group in enumerate(self.groups):
            for i in group:
                self.owner[g, self.tiles[i]] = i
                self.slot[g, self.tiles[i]] = np.arange(len(self.tiles[i]))
        self.scale = np.array(pdb_scales(self.pdbs, self.groups) + [self.md_max, N], dtype=np.float32)
        self.size = len(self.scale) + 1

    def _tables(self):
        """Manhattan and Hamming by (tile, cell), and their change by (tile, move code)."""
        d = self.domain
        table = np.abs(d.row[:, None] - d.row[None, :]) + np.abs(d.col[:, None] - d.col[None, :])  # (N, N)
        # MDMax: the N-1 largest entries of the whole table, blank row included, as the authors count it.
        self.md_max = int(np.sort(table, axis=None)[::-1][:d.size - 1].sum())
        self.distance = table.copy()
        self.distance[0] = 0                                                     # the blank is not counted
        tile, cell = np.arange(d.size)[:, None], np.arange(d.size)[None, :]
        self.wrong = ((tile != cell) & (tile != 0)).astype(np.int64)             # Hamming's term
        # Move code m sends the blank from blank_from[m] to blank_to[m]: the tile goes blank_to -> blank_from.
        self.md_delta = (self.distance[:, d.blank_from] - self.distance[:, d.blank_to]).reshape(-1)
        self.hamming_delta = (self.wrong[:, d.blank_from] - self.wrong[:, d.blank_to]).reshape(-1)
        self.moves = len(d.blank_from)

    def where(self, states) -> np.ndarray:
        """where[s, v] = the cell holding tile v in state s, (n, N)."""
        n, N = states.shape
        where = np.empty(n * N, dtype=np.uint8)
        where[(np.arange(n) * N)[:, None] + states] = np.arange(N, dtype=np.uint8)
        return where.reshape(n, N)

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 14 for the 24-puzzle): PDBs of each partition, the partitions' sums, Manhattan, Hamming."""
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
        states = self.check(states)
        h = self.h_arr(states)
        return self.inputs(h, self.others(states)), self.h_ad(h), h

    def step(self, states, x, h_ad, carry, parent, move):
        tile, t, b = self.domain.moved_tile(states, parent, move)        # the tile leaves cell t for cell b
        tile = tile.astype(np.intp)
        h = np.take(carry, parent, axis=0)                                # (m, k) the parents' HArr
        code = tile * self.moves + move
        h[:, self.md_column] += np.take(self.md_delta, code)
        h[:, self.hamming_column] += np.take(self.hamming_delta, code)
        where = self.where(states)
        P = len(self.pdbs)
        for g, group in enumerate(self.groups):
            owner = np.take(self.owner[g], tile)                          # (m,) the moved tile's PDB in g
            for i in group:
                sel = np.flatnonzero(owner == i)
                if len(sel) == 0:
                    continue
                cells = where[parent[sel][:, None], self.tiles[i]]         # (s, k) the parents' placements
                cells[np.arange(len(sel)), self.slot[g, tile[sel]]] = b[sel]
                pdb = self.pdbs[i]
                value = np.take(pdb.table, pdb.abstraction.rank_cells(cells))
                h[sel, P + g] += value - h[sel, i]
                h[sel, i] = value
        return self.inputs(h, self._blank_input(t)), self.h_ad(h), h
