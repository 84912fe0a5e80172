"""The 15-blocksworld's 14 network inputs (paper §5; the authors' `BlocksWorld/Heuristics/MultHeuristic15.cs`
and `BlocksWorld/Representations/Features.cs`), in their order and scaling:

    HArr[0..11]  the 4-block PDBs {1,2,3,4}, {5,6,7,8}, {9,10,11,12}, {12,13,14,15}, {3,4,5,6}, {7,8,9,10},
                 {11,12,13,14}, {1,2,14,15}, {2,3,4,5}, {6,7,8,9}, {10,11,12,13}, {1,13,14,15}, each / its
                 largest value
    HArr[12]     Hamming, the blocks on a wrong support, / N = 15
    input 13     the number of stacks (blocks on the table) / N

Every move costs 1 in these PDBs, anonymous blocks' moves included, so they are not additive: the patterns even
overlap, and nothing is summed. The 13 HArr entries are admissible, so h_ad = max(HArr). Every move changes the
stacks' shape, which every PDB sees, so `step` builds the children and computes their features afresh.
"""
import numpy as np

from la.domains import Blocksworld
from la.features.base import Features, partition_list, pdb_scales
from la.pdb.blocksworld import shapes, towers
from la.pdb.sets import load_set


class BlockFeatures(Features):
    """PDB features of blocksworld. `pdbs` = {name: [PDB of a BlockPattern, ...]}, combined by max only; by
    default the paper's 12 patterns of the 15-blocksworld (`load_set`, built into `folder` on first use,
    `progress(fraction, text)` told)."""

    def __init__(self, domain: Blocksworld, pdbs: dict | None = None, folder=None, progress=None):
        if not isinstance(domain, Blocksworld):
            raise ValueError(f"BlockFeatures is for blocksworld, not the {domain.name}")
        if pdbs is None:
            pdbs = load_set(domain.name, folder, progress)
        self.domain = domain
        self.pdbs, self.groups = partition_list(pdbs, domain, additive=False)   # groups: only to describe it
        N = domain.size
        self.scale = np.array(pdb_scales(self.pdbs) + [N], dtype=np.float32)
        self.size = len(self.scale) + 1
        self.floor_columns = list(range(len(self.scale)))

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 13 for the 15-blocksworld): the PDBs, then Hamming."""
        h = np.empty((len(states), len(self.scale)), dtype=np.int32)
        place, shape = shapes(self.domain.size).layout(*towers(states))   # shared by the twelve lookups
        for i, pdb in enumerate(self.pdbs):
            h[:, i] = np.take(pdb.table, pdb.abstraction.rank_layout(place, shape))
        h[:, -1] = (states != self.domain.goal).sum(axis=1)
        return h

    def others(self, states) -> np.ndarray:
        """The number of stacks / N, (n, 1) float32."""
        stacks = (states == 0).sum(axis=1)
        return (stacks.astype(np.float32) / np.float32(self.domain.size))[:, None]
