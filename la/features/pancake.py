"""The 24-pancake's 14 network inputs (paper §5; the authors' `PancakePuzzle/Heuristics/MultHeuristic24.cs`
and `PancakePuzzle/Representations/Features.cs`), in their order and scaling:

    HArr[0..4]   the location-based PDBs of partition A (Yang et al. 2008), each / its largest value
    HArr[5..9]   the PDBs of partition B, the same way
    HArr[10, 11] the sums of A and of B, each / the sum of its PDBs' largest values
    input 12     1 if the middle pancake (N/2 = 12) is in place, else 0
    input 13     the largest pancake not at its goal height (0 if none) / N = 24

The 12 HArr entries are admissible, so h_ad = max(HArr). A flip moves up to all N pancakes, changing most of
the ten lookups, so `step` builds the children and computes their features afresh.
"""
import numpy as np

from la.domains import Pancake
from la.features.base import Features, partition_list, pdb_scales
from la.pdb.pancake import heights
from la.pdb.sets import load_set


class PancakeFeatures(Features):
    """PDB features of a pancake puzzle. `pdbs` = {partition name: [PDB of a PancakePattern, ...]}, disjoint
    patterns within a partition; by default the paper's partitions A and B of the 24-pancake (`load_set`,
    built into `folder` on first use, `progress(fraction, text)` told)."""

    def __init__(self, domain: Pancake, pdbs: dict | None = None, folder=None, progress=None):
        if not isinstance(domain, Pancake):
            raise ValueError(f"PancakeFeatures is for pancake puzzles, not the {domain.name}")
        if pdbs is None:
            pdbs = load_set(domain.name, folder, progress)
        self.domain = domain
        self.pdbs, self.groups = partition_list(pdbs, domain, additive=True)
        self.middle = domain.size // 2                                   # the authors' Global.SIZE / 2
        # A partition's sum is at least each of its PDBs: max(HArr) is the largest sum.
        self.floor_columns = list(range(len(self.pdbs), len(self.pdbs) + len(self.groups)))
        self.scale = np.array(pdb_scales(self.pdbs, self.groups), dtype=np.float32)
        self.size = len(self.scale) + 2

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 12 for the 24-pancake): the PDBs of each partition, then the partitions' sums."""
        P = len(self.pdbs)
        h = np.empty((len(states), len(self.scale)), dtype=np.int32)
        at = heights(states)                                             # (N, n), shared by the ten lookups
        for i, pdb in enumerate(self.pdbs):
            h[:, i] = np.take(pdb.table, pdb.abstraction.rank_heights(at))
        for g, group in enumerate(self.groups):
            h[:, P + g] = h[:, group].sum(axis=1)
        return h

    def others(self, states) -> np.ndarray:
        """The middle pancake in place (1/0), the largest misplaced pancake / N: (n, 2) float32."""
        N = self.domain.size
        out = np.empty((len(states), 2), dtype=np.float32)
        # The paper says "whether the middle pancake is out of place"; the authors' code, followed here, sets
        # 1 when it is in place (Features.cs: stateArr[middle] == middle ? 1 : 0).
        out[:, 0] = states[:, self.middle] == self.middle
        misplaced = np.where(states != self.domain.goal, states, 0)          # pancake 0 misplaced counts as 0
        out[:, 1] = misplaced.max(axis=1).astype(np.float32) / np.float32(N)
        return out
