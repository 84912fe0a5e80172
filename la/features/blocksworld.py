"""The 15-blocksworld's 14 network inputs (paper §5), in this order and scaling:

    HArr[0..11]  the 4-block PDBs {1,2,3,4}, {5,6,7,8}, {9,10,11,12}, {12,13,14,15}, {3,4,5,6},
                 {7,8,9,10}, {11,12,13,14}, {1,2,14,15}, {2,3,4,5}, {6,7,8,9}, {10,11,12,13},
                 {1,13,14,15}, each / its largest value
    HArr[12]     Hamming, the blocks on a wrong support, / N = 15
    input 13     the number of stacks (blocks on the table) / N

Every move costs 1 in these PDBs, anonymous blocks' moves included, so they are not additive: the
patterns even overlap, and nothing is summed. The 13 HArr entries are admissible, so
h_ad = max(HArr). Every move changes the stacks' shape, which every PDB sees, so `step` computes the
children's lookups afresh, from each block's level and stack bottom (`la.pdb.blocksworld.towers`,
shared by the twelve lookups). It takes those from the parents' without building the children:
moving block b onto block c sets b's level to c's + 1 and its bottom to c's (onto the table: 0 and b
itself) and changes nothing else, since b was clear. Hamming and the number of stacks change by the
moved block's terms.
"""
import numpy as np

from la.domains.blocksworld import Blocksworld
from la.features.base import Features, end_to_end, partition_list, pdb_scales, rank_many
from la.pdb import rank as ranking
from la.pdb.blocksworld import keys, shapes, towers
from la.pdb.sets import load_set


class BlockFeatures(Features):
    """PDB features of blocksworld. `pdbs` = {name: [PDB of a BlockPattern, ...]}, combined by max
    only; by default the paper's 12 patterns of the 15-blocksworld (`load_set`, built into `folder`
    on first use, `progress(fraction, text)` told)."""

    def __init__(self, domain: Blocksworld, pdbs: dict | None = None, folder=None, progress=None):
        if not isinstance(domain, Blocksworld):
            raise ValueError(f"BlockFeatures is for blocksworld, not the {domain.name}")
        if pdbs is None:
            pdbs = load_set(domain.name, folder, progress)
        self.domain = domain
        # groups: only to describe it
        self.pdbs, self.groups = partition_list(pdbs, domain, additive=False)
        N = domain.size
        # order and scaling, which §5 does not give: the authors' `BlocksWorld/Heuristics/
        # MultHeuristic15.cs` and `BlocksWorld/Representations/Features.cs`
        self.scale = np.array(pdb_scales(self.pdbs) + [N], dtype=np.float32)
        self.size = len(self.scale) + 1
        self.floor_columns = list(range(len(self.scale)))
        # The lookups of all patterns of one size at once (`BlockPattern.rank_layout` for each):
        # their tables end to end; per size the keys, the patterns' blocks' rows of `place`
        # (k, PDBs), the rank weights (k, 1, 1), the tables' offsets and the HArr columns.
        self.pdbs, self.table, offset = end_to_end(self.pdbs)
        self.by_size = []
        for k in sorted({len(pdb.abstraction.pattern) for pdb in self.pdbs}):
            which = [i for i, pdb in enumerate(self.pdbs) if len(pdb.abstraction.pattern) == k]
            rows = np.array([[b - 1 for b in self.pdbs[i].abstraction.pattern] for i in which],
                            dtype=np.intp).T
            weights = ranking.weights(N, k).astype(np.int32)[:, None, None]
            self.by_size.append((keys(N, k), rows, weights, offset[which][:, None], which))

    def h_arr(self, states) -> np.ndarray:
        """HArr (n, 13 for the 15-blocksworld): the PDBs, then Hamming."""
        return self.h_arr_of(*towers(states), self.hamming(states))

    def others(self, states) -> np.ndarray:
        """The number of stacks / N, (n, 1) float32."""
        return self.others_of(self.stacks(states))

    def hamming(self, states) -> np.ndarray:
        """The blocks on a wrong support, (n,)."""
        return (states != self.domain.goal).sum(axis=1)

    def stacks(self, states) -> np.ndarray:
        """The blocks on the table, (n,)."""
        return (states == 0).sum(axis=1)

    def h_arr_of(self, level, bottom, hamming) -> np.ndarray:
        """HArr from each block's level and bottom ((n, N) each, from `towers`) and Hamming."""
        N = self.domain.size
        h = np.empty((len(hamming), len(self.scale)), dtype=np.int32)
        place, shape = shapes(N).layout(level, bottom)                # shared by the twelve lookups
        for patterns, rows, weights, offset, columns in self.by_size:
            # (PDBs, n)
            key = shape * patterns.placements + rank_many(np.take(place, rows, axis=0), weights)
            h[:, columns] = np.take(self.table, np.take(patterns.dense, key) + offset).T
        h[:, -1] = hamming
        return h

    def others_of(self, stacks) -> np.ndarray:
        return (stacks.astype(np.float32) / np.float32(self.domain.size))[:, None]

    def start(self, states):
        states = self.check(states)
        h = self.h_arr(states)
        return self.inputs(h, self.others(states)), self.h_ad(h), None

    def step(self, states, x, h_ad, carry, parent, move):
        """The children's x and h_ad from the parents' states (not x, h_ad or the carry)."""
        n = len(parent)
        block, src, dst = self.domain.decode(move)      # block moves from src onto dst (0: table)
        # (N, m): a row per block
        level, bottom = (np.ascontiguousarray(a.T) for a in towers(states))
        # dst's entry among the parents' (if a block)
        on_block = np.maximum(dst - 1, 0) * len(states) + parent
        table = dst == 0
        child_level, child_bottom = (np.take(level, parent, axis=1),
                                     np.take(bottom, parent, axis=1))       # (N, n) each
        moved = (block - 1) * n + np.arange(n)          # the moved block's entry of each child
        child_level.reshape(-1)[moved] = np.where(table, 0, np.take(level, on_block) + 1)
        child_bottom.reshape(-1)[moved] = np.where(table, block, np.take(bottom, on_block))
        goal = block - 1                                # block b's support in the goal tower
        hamming = np.take(self.hamming(states), parent) + (dst != goal) - (src != goal)
        stacks = np.take(self.stacks(states), parent) + table - (src == 0)
        # (N, n) arrays seen as (n, N): `layout` transposes them back without a copy
        h = self.h_arr_of(child_level.T, child_bottom.T, hamming)
        return self.inputs(h, self.others_of(stacks)), self.h_ad(h), None
