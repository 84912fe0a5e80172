"""The networks' inputs, one encoding per domain (paper §5), all meeting one contract
(`la.features.base`).

    one_hot        the 15-puzzle's 128-input two-dimensional one-hot
    sliding_tile   the 24-puzzle's 15 features: PDBs of two partitions, their sums, Manhattan,
                   Hamming, blank
    pancake        the 24-pancake's 14: location-based PDBs of two partitions, their sums, two more
                   inputs
    blocksworld    the 15-blocksworld's 14: twelve 4-block PDBs, Hamming, the number of stacks

    encodings      which encoding each domain takes (`for_domain`), and `describe` /
                   `from_description`, which write down and remake an encoding (saved with networks
                   and checkpoints)
    base           the contract every encoding meets, and what the PDB encodings share

Every encoding has `size`, is called on a batch of states, and gives its admissible part h_ad (the
floor of max(y^α, h_ad)) with `admissible`. Only the one-hot is loaded with the package: the PDB
encodings load the pattern databases (`la.pdb`), which the 15-puzzle never needs.
"""
from la.features.one_hot import OneHot, one_hot_index, one_hot_inputs, one_hot_size

__all__ = ["OneHot", "one_hot_index", "one_hot_inputs", "one_hot_size"]
