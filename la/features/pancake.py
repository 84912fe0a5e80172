"""The 24-pancake's 14 network inputs (paper §5), in this order and scaling:

    HArr[0..4]   the location-based PDBs of partition A (Yang et al. 2008), each / its largest value
    HArr[5..9]   the PDBs of partition B, the same way
    HArr[10, 11] the sums of A and of B, each / the sum of its PDBs' largest values
    input 12     1 if the middle pancake (N/2 = 12) is in place, else 0 (the paper: out of place;
                 `others_of` says why)
    input 13     the largest pancake not at its goal height (0 if none) / N = 24

The 12 HArr entries are admissible, so h_ad = max(HArr). A flip moves up to all N pancakes, changing
most of the ten lookups, so `step` computes the children's features afresh, from where each pancake
is (`la.pdb.pancake.heights`, which the ten lookups share). It takes the children's heights from the
parents' without building the children: flip k sends a pancake at height p <= k to k - p.
"""
import numpy as np

from la.domains.pancake import Pancake
from la.features.base import Features, end_to_end, partition_list, pdb_scales, rank_many
from la.pdb import rank as ranking
from la.pdb.pancake import heights
from la.pdb.sets import load_set


class PancakeFeatures(Features):
    """PDB features of a pancake puzzle. `pdbs` = {partition name: [PDB of a PancakePattern, ...]},
    disjoint patterns within a partition; by default the paper's partitions A and B of the
    24-pancake (`load_set`, built into `folder` on first use, `progress(fraction, text)` told)."""

    def __init__(self, domain: Pancake, pdbs: dict | None = None, folder=None, progress=None):
        if not isinstance(domain, Pancake):
            raise ValueError(f"PancakeFeatures is for pancake puzzles, not the {domain.name}")
        if pdbs is None:
            pdbs = load_set(domain.name, folder, progress)
        self.domain = domain
        self.pdbs, self.groups = partition_list(pdbs, domain, additive=True)
        self.middle = domain.size // 2                                # the authors' Global.SIZE / 2
        # A partition's sum is at least each of its PDBs: max(HArr) is the largest sum.
        self.floor_columns = list(range(len(self.pdbs), len(self.pdbs) + len(self.groups)))
        # order and scaling, which §5 does not give: the authors' `PancakePuzzle/Heuristics/
        # MultHeuristic24.cs` and `PancakePuzzle/Representations/Features.cs`
        self.scale = np.array(pdb_scales(self.pdbs, self.groups), dtype=np.float32)
        self.size = len(self.scale) + 2
        # (N, 1): pancake p's goal height is p
        self.pancake = np.arange(domain.size, dtype=np.uint8)[:, None]
        # The ten lookups at once: the tables end to end, the patterns' pancakes (K, PDBs) and their
        # rank weights (K, PDBs, 1), padded with weight 0 (`rank_many`).
        self.pdbs, self.table, self.offset = end_to_end(self.pdbs)
        patterns = [pdb.abstraction.pattern for pdb in self.pdbs]
        K = max(map(len, patterns))
        self.items = np.zeros((K, len(patterns)), dtype=np.intp)
        self.weights = np.zeros((K, len(patterns), 1), dtype=np.int32)
        for i, pattern in enumerate(patterns):
            self.items[:len(pattern), i] = pattern
            self.weights[:len(pattern), i, 0] = ranking.weights(domain.size, len(pattern))

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 12 for the 24-pancake): each partition's PDBs, then the partitions' sums."""
        return self.h_arr_of(heights(states))

    def others(self, states) -> np.ndarray:
        """The middle pancake in place (1/0), the largest misplaced pancake / N: (n, 2) float32."""
        return self.others_of(heights(states))

    def h_arr_of(self, at) -> np.ndarray:
        """HArr from the heights `at` (N, n) of `la.pdb.pancake.heights`."""
        P = len(self.pdbs)
        # (PDBs, n), as `rank_heights`
        rank = rank_many(np.take(at, self.items, axis=0), self.weights)
        value = np.take(self.table, rank + self.offset[:, None])            # (PDBs, n)
        h = np.empty((at.shape[1], len(self.scale)), dtype=np.int32)
        h[:, :P] = value.T
        for g, group in enumerate(self.groups):
            total = value[group[0]].astype(np.int32)
            for i in group[1:]:                                # row by row: faster than sum(axis=0)
                total += value[i]
            h[:, P + g] = total
        return h

    def others_of(self, at) -> np.ndarray:
        """The other inputs from the heights `at` (N, n)."""
        out = np.empty((at.shape[1], 2), dtype=np.float32)
        # The paper says "whether the middle pancake is out of place"; the authors' code, followed
        # here, sets 1 when it is in place (Features.cs: stateArr[middle] == middle ? 1 : 0).
        out[:, 0] = at[self.middle] == self.middle
        misplaced = (at != self.pancake) * self.pancake             # (N, n): p if misplaced, else 0
        out[:, 1] = misplaced.max(axis=0).astype(np.float32) / np.float32(self.domain.size)
        return out

    def start(self, states):
        at = heights(self.check(states))
        h = self.h_arr_of(at)
        return self.inputs(h, self.others_of(at)), self.h_ad(h), None

    def step(self, states, x, h_ad, carry, parent, move):
        """The children's x and h_ad from the parents' states (not x, h_ad or the carry)."""
        at = np.take(heights(states), parent, axis=1)       # (N, n) the parents' heights, per child
        k = move.astype(np.uint8)
        # Flip k sends height p <= k to k - p (for p > k the uint8 k - p wraps, but is not taken).
        at = np.where(at <= k, k - at, at)
        h = self.h_arr_of(at)
        return self.inputs(h, self.others_of(at)), self.h_ad(h), None
