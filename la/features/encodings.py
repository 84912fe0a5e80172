"""Which encoding each domain's networks take (paper §5), and how a saved network's encoding is
written down and remade: the 15-puzzle's one-hot, PDB features for the 24-puzzle, the 24-pancake and
the 15-blocksworld.

Importing this module loads the PDB modules (`la.pdb`); the learner itself does not (it is handed
its encoding).
"""
from la.domains.sliding_tile import SlidingTile
from la.features.blocksworld import BlockFeatures
from la.features.one_hot import OneHot
from la.features.pancake import PancakeFeatures
from la.features.pancake_one_hot import PancakeOneHot
from la.features.sliding_tile import TileFeatures
from la.pdb import store
from la.pdb.sets import abstraction

# The domains the paper gives PDB features (§5); the other sliding-tile puzzles take the one-hot.
PAPER_FEATURES = {"24-puzzle": TileFeatures, "24-pancake": PancakeFeatures,
                  "15-blocksworld": BlockFeatures}
# The name each encoding has in the files that describe it: the one-hot's is the authors'
# (`TwoDim.cs`), the name it had when networks and checkpoints began recording their encoding.
# The pancake one-hot is not the paper's: the ground-truth experiment names it for its small stacks.
ENCODINGS = {"TwoDim": OneHot,
             **{kind.__name__: kind for kind in (TileFeatures, PancakeFeatures, BlockFeatures,
                                                 PancakeOneHot)}}
NAMES = {kind: name for name, kind in ENCODINGS.items()}
ONE_HOT = {"encoding": "TwoDim"}     # how `describe` writes the one-hot down


def for_domain(domain, pdb_folder=None, progress=None):
    """The paper's encoding for `domain`: the one-hot for every sliding-tile puzzle but the
    24-puzzle (the 15-puzzle's), and PDB features for the 24-puzzle, 24-pancake and 15-blocksworld,
    their PDBs loaded from `pdb_folder` (or built there on first use, told to
    `progress(fraction, text)`)."""
    if domain.name in PAPER_FEATURES:
        return PAPER_FEATURES[domain.name](domain, folder=pdb_folder, progress=progress)
    if isinstance(domain, SlidingTile):
        return OneHot(domain)
    raise ValueError(f"no network encoding for the {domain.name}: the one-hot is for sliding-tile "
                     f"puzzles, and the paper's features are for the {', '.join(PAPER_FEATURES)}")


def encode(domain, states):
    """The networks' input for a batch of states of `domain` (float32 rows). Each call makes the
    encoding afresh (loading PDBs where it has them): to encode often, keep `for_domain(domain)`."""
    return for_domain(domain)(states)


def encoding_size(domain) -> int:
    """Number of network inputs for `domain`."""
    return for_domain(domain).size


def describe(encoding) -> dict:
    """What remakes `encoding` on its domain, as JSON: its class and, for PDB features, the patterns
    of each partition (a PDB's table follows from its pattern). E.g. {"encoding": "TwoDim"} (the
    one-hot), {"encoding": "BlockFeatures", "partitions": [[[1, 2, 3, 4], [5, 6, 7, 8], ...]]}."""
    name = NAMES.get(type(encoding))
    if name is None:
        raise ValueError(f"cannot describe {encoding!r}: expected one of the encodings "
                         f"{', '.join(kind.__name__ for kind in NAMES)}")
    if type(encoding) is OneHot:
        return dict(ONE_HOT)
    if type(encoding) is PancakeOneHot:
        return {"encoding": name}
    return {"encoding": name,
            "partitions": [[[int(t) for t in encoding.pdbs[i].abstraction.pattern] for i in group]
                           for group in encoding.groups]}


def check_description(domain, description, patterns: bool = True) -> tuple:
    """(the encoding's class, its partitions or None) that `describe` wrote down, each pattern
    checked on `domain` unless not `patterns` (a blocksworld pattern's check takes seconds the first
    time), no PDB loaded; ValueError if it is no description of an encoding there."""
    kind = ENCODINGS.get(description.get("encoding")) if isinstance(description, dict) else None
    if kind is None:
        raise ValueError(f"unknown encoding {description!r}: expected one of "
                         f"{', '.join(ENCODINGS)}")
    if kind in (OneHot, PancakeOneHot):
        return kind, None
    partitions = description.get("partitions")
    if not (isinstance(partitions, list) and partitions and all(
            isinstance(group, list) and group and all(isinstance(p, list) and p and all(
                isinstance(t, int) and not isinstance(t, bool) for t in p) for p in group)
            for group in partitions)):
        raise ValueError(f"the {kind.__name__} description needs 'partitions', non-empty lists of "
                         f"patterns (lists of integers); got {partitions!r}")
    for pattern in (p for group in partitions for p in group) if patterns else ():
        abstraction(domain.name, pattern)                   # ValueError: not a pattern of domain
    return kind, partitions


def from_description(domain, description, pdb_folder=None, progress=None):
    """The encoding `describe` wrote down, on `domain`; its PDBs loaded from `pdb_folder` (or built
    there on first use, `progress(fraction, text)` told). ValueError if it is no description."""
    kind, partitions = check_description(domain, description)
    if partitions is None:
        return kind(domain)
    loaded = {}
    for pattern in dict.fromkeys(tuple(p) for group in partitions for p in group):
        loaded[pattern] = store.load(abstraction(domain.name, pattern), pdb_folder, progress)
    return kind(domain, {str(g): [loaded[tuple(p)] for p in group]
                         for g, group in enumerate(partitions)})
