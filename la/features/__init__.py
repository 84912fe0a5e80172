"""The networks' inputs, one encoding per domain (paper §5), all meeting one contract (`la.features.base`).

    one_hot        the 15-puzzle's 128-input two-dimensional one-hot (the authors' TwoDim.cs)
    sliding_tile   the 24-puzzle's 15 features: PDBs of two partitions, their sums, Manhattan, Hamming, blank
    pancake        the 24-pancake's 14: location-based PDBs of two partitions, their sums, two more inputs
    blocksworld    the 15-blocksworld's 14: twelve 4-block PDBs, Hamming, the number of stacks

`for_domain(domain)` picks the paper's encoding for a domain; every encoding has `size`, is called on a batch
of states, and gives its admissible part h_ad (the floor of max(y^α, h_ad)) with `admissible`.
"""
from la.domains import SlidingTile
from la.features.blocksworld import BlockFeatures
from la.features.one_hot import TwoDim, two_dim, two_dim_index, two_dim_size
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures

__all__ = ["for_domain", "encode", "encoding_size", "TwoDim", "TileFeatures", "PancakeFeatures",
           "BlockFeatures", "two_dim", "two_dim_index", "two_dim_size", "PAPER_FEATURES"]

# The domains the paper gives PDB features (§5); the other sliding-tile puzzles take the one-hot.
PAPER_FEATURES = {"24-puzzle": TileFeatures, "24-pancake": PancakeFeatures, "15-blocksworld": BlockFeatures}


def for_domain(domain, pdb_folder=None, progress=None):
    """The paper's encoding for `domain`: PDB features for the 24-puzzle, 24-pancake and 15-blocksworld (their
    PDBs loaded from `pdb_folder`, or built there on first use with `progress(fraction, text)` told), the
    one-hot for every other sliding-tile puzzle (the 15-puzzle's)."""
    if domain.name in PAPER_FEATURES:
        return PAPER_FEATURES[domain.name](domain, folder=pdb_folder, progress=progress)
    if isinstance(domain, SlidingTile):
        return TwoDim(domain)
    raise ValueError(f"no network encoding for the {domain.name}: the one-hot is for sliding-tile puzzles, "
                     f"and the paper's features are for the {', '.join(PAPER_FEATURES)}")


def encode(domain, states):
    """The networks' input for a batch of states of `domain` (float32 rows). Each call makes the encoding
    afresh (loading PDBs where it has them): to encode often, keep `for_domain(domain)` instead."""
    return for_domain(domain)(states)


def encoding_size(domain) -> int:
    """Number of network inputs for `domain`."""
    return for_domain(domain).size
