"""Pattern-database heuristics: `pdb` (additive partitions, the larger sum) and `max-pdb` (h_ad),
read off the PDB features of `la.features` so that IDA* gets their incremental update.

    pdb       max over partitions of the sum of the partition's PDBs (Korf & Felner 2002: the
              15-puzzle's 6-6-3 partition and its reflection, the 24-puzzle's partitions A and B;
              the 24-pancake's A and B, Yang et al. 2008). Admissible: within a partition every
              move is counted by one PDB at most.
    max-pdb   the largest of the admissible features HArr (`la.features.base`): the admissible
              floor the paper plans with, max(y^α, h_ad), on its own.

Both follow the heuristic contract of `la.heuristics.base`: the carry is the encoding's (for the
sliding-tile puzzle HArr and the tiles' cells, so that a move re-ranks two patterns only).
"""
import numpy as np

from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures


class PDBHeuristic:
    """h = the largest of the HArr columns `columns` of a PDB encoding (`la.features`)."""

    def __init__(self, encoding, columns):
        self.encoding, self.columns = encoding, list(columns)
        self.floor = sorted(self.columns) == sorted(encoding.floor_columns)  # then h is h_ad itself

    def _from(self, h_ad, h_arr):
        if self.floor:
            return h_ad
        h = h_arr[:, self.columns[0]].astype(np.int64)
        for c in self.columns[1:]:
            np.maximum(h, h_arr[:, c], out=h)
        return h

    def __call__(self, states):
        h_arr = self.encoding.h_arr(self.encoding.check(states))
        return self._from(self.encoding.h_ad(h_arr), h_arr)

    def start(self, states):
        _, h_ad, carry = self.encoding.start(states)
        return self._from(h_ad, carry), carry

    def step(self, states, h, carry, parent, move):
        # The PDB encodings compute a child from the parents' states and carry, not from x or h_ad.
        _, h_ad, carry = self.encoding.step(states, None, None, carry, parent, move)
        return self._from(h_ad, carry), carry


def partition_sums(encoding) -> list:
    """The HArr columns holding each partition's sum (they follow the PDB columns)."""
    return [len(encoding.pdbs) + g for g in range(len(encoding.groups))]


def pdb_heuristic(domain, folder=None, progress=None) -> PDBHeuristic:
    """`pdb`: the larger of the partition sums (15-puzzle, 24-puzzle, pancake puzzles)."""
    from la.features.encodings import PAPER_FEATURES
    from la.pdb.sets import PARTITIONS, load_set
    if domain.name not in PARTITIONS or domain.name.endswith("blocksworld"):
        other = " (try max-pdb)" if domain.name in PAPER_FEATURES else ""    # where max-pdb exists
        raise ValueError(f"heuristic 'pdb' needs additive PDB partitions, which la has for the "
                         f"15-puzzle, 24-puzzle and 24-pancake, not the {domain.name}{other}")
    kind = PancakeFeatures if domain.name.endswith("pancake") else TileFeatures
    encoding = kind(domain, load_set(domain.name, folder, progress))
    return PDBHeuristic(encoding, partition_sums(encoding))


def max_pdb_heuristic(domain, folder=None, progress=None) -> PDBHeuristic:
    """`max-pdb`: h_ad, the largest admissible feature (24-puzzle, 24-pancake, 15-blocksworld)."""
    # not a baseline of the paper's: the authors' `MaxHeuristic`
    from la.features.encodings import PAPER_FEATURES
    if domain.name not in PAPER_FEATURES:
        raise ValueError(f"heuristic 'max-pdb' is the paper's admissible floor, defined for the "
                         f"{', '.join(PAPER_FEATURES)}, not the {domain.name}")
    encoding = PAPER_FEATURES[domain.name](domain, folder=folder, progress=progress)
    return PDBHeuristic(encoding, encoding.floor_columns)
