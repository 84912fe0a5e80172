"""Pattern databases (PDBs): exact costs of abstract problems, stored as tables and used as
admissible heuristics.

    la.pdb.rank           perfect ranks of partial permutations: where k items sit among n places,
                          as one integer
    la.pdb.sliding_tile   additive sliding-tile PDBs (Korf & Felner 2002), built over (placement,
                          blank region)
    la.pdb.pancake        location-based pancake PDBs (Yang et al. 2008)
    la.pdb.blocksworld    4-block blocksworld PDBs with anonymous other blocks, combined by max
    la.pdb.store          the cache folder: .npy table + JSON header, checked on every read; the
                          `PDB` class
    la.pdb.sets           each domain's named partitions; `load_set` loads or builds them all

An abstraction has `domain`, `pattern`, `cost`, `size`, `build(progress)` (the uint8 table) and
`rank(states)` (each state's table index); `load(abstraction)` gives a `PDB`, and `pdb(states)` its
values. `python -m la.pdb build --domain D` builds a domain's set ahead of time.
"""
from la.pdb.sets import load_set, partitions
from la.pdb.sliding_tile import TilePattern
from la.pdb.store import PDB, load

__all__ = ["PDB", "load", "load_set", "partitions", "TilePattern"]
