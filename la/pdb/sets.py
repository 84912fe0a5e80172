"""The named pattern sets of each domain: the PDBs a heuristic adds up, and those it maximises.

`partitions(domain)` maps a name to a list of patterns. Within a partition of the sliding-tile
puzzle or the pancake puzzle the patterns are disjoint and every move is counted by at most one PDB,
so their values add up (Korf & Felner 2002; Yang et al. 2008); two partitions are combined by taking
the larger sum. The blocksworld PDBs count every move and overlap, so only their maximum is
admissible.

24-puzzle, A and B: 5-5-5-5-4 each, where the paper says "5-5-5-4" (`PARTITIONS` says whose).

15-puzzle, A: the 6-6-3 partition of Korf & Felner (2002), drawn in a figure of their paper that
could not be checked here. The tiles are those of public implementations of their method, which
agree: alexyuisingwu/sliding-puzzle-database-generator (`Partitions.java`, blank top-left as here)
and C code with the blank bottom-right ({1,5,6,9,10,13}, {7,8,11,12,14,15}, {2,3,4}, the same cells
turned by 180°). On la's board (blank top-left, tile t on cell t):

     .  1  2  3        A:  {1,2,4,5,8,9}  {3,6,7,10,11,15}  {12,13,14}
     4  5  6  7        reflected about the main diagonal (cell (r, c) -> (c, r), the blank stays):
     8  9 10 11            {1,2,4,5,6,8}  {9,10,12,13,14,15}  {3,7,11}
    12 13 14 15

Korf & Felner take the larger of the partition's sum and its reflection's; here the reflection is
partition "reflected". With it, IDA* (la.search, depth-first order) generated 3.56 M nodes on Korf's
instances 1-10 instead of 10.39 M with A alone, and took less time despite the extra lookups.

24-pancake, A and B: location-based PDBs (`la.pdb.pancake`). 15-blocksworld: twelve 4-block patterns
(`la.pdb.blocksworld`), combined by max. Those two modules are imported only when their domain is
asked for. The paper does not list these patterns; `PARTITIONS` says whose they are.
"""
from la.pdb.sliding_tile import TilePattern
from la.pdb.store import PDB, check_room, load, paths


def reflect(tiles, width: int) -> tuple:
    """The tiles on the cells mirrored about the main diagonal: tile r·W + c -> c·W + r."""
    return tuple(sorted((t % width) * width + t // width for t in tiles))


_PUZZLE_15 = [(1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 15), (12, 13, 14)]

# The 24-puzzle's, 24-pancake's and 15-blocksworld's patterns are the authors':
# `SlidingPuzzle/Heuristics/MultHeuristic24.cs` (5-5-5-5-4, where the paper says "5-5-5-4"),
# `PancakePuzzle/Heuristics/MultHeuristic24.cs` and `BlocksWorld/Heuristics/MultHeuristic15.cs`.
PARTITIONS = {
    "15-puzzle": {"A": _PUZZLE_15, "reflected": [reflect(tiles, 4) for tiles in _PUZZLE_15]},
    "24-puzzle": {"A": [(1, 2, 5, 6, 7), (3, 4, 8, 9, 14), (10, 15, 16, 20, 21),
                        (13, 18, 19, 23, 24), (11, 12, 17, 22)],
                  "B": [(1, 2, 3, 7, 8), (5, 6, 10, 11, 12), (15, 16, 17, 20, 21),
                        (18, 19, 22, 23, 24), (4, 9, 13, 14)]},
    "24-pancake": {"A": [(0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14),
                         (15, 16, 17, 18, 19), (20, 21, 22, 23)],
                   "B": [(0, 1, 2, 18), (3, 4, 5, 6, 7), (8, 9, 10, 11, 12), (13, 14, 15, 16, 17),
                         (19, 20, 21, 22, 23)]},
    "15-blocksworld": {"max": [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (12, 13, 14, 15),
                               (3, 4, 5, 6), (7, 8, 9, 10), (11, 12, 13, 14), (1, 2, 14, 15),
                               (2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13), (1, 13, 14, 15)]},
}
DOMAINS = tuple(PARTITIONS)


def partitions(domain: str) -> dict:
    """The named pattern lists of `domain`: partitions("24-puzzle") -> {"A": [...], "B": [...]}."""
    if domain not in PARTITIONS:
        raise ValueError(f"no PDB set for the domain {domain!r}: expected one of "
                         f"{', '.join(DOMAINS)}")
    return {name: list(patterns) for name, patterns in PARTITIONS[domain].items()}


def abstraction(domain: str, pattern):
    """The abstraction of `domain` that keeps `pattern`."""
    kind, n = domain.split("-")[1], int(domain.split("-")[0])
    if kind == "puzzle":
        return TilePattern(round((n + 1) ** 0.5), pattern)
    if kind == "pancake":
        from la.pdb.pancake import PancakePattern           # written separately; loaded when needed
        return PancakePattern(n, pattern)
    from la.pdb.blocksworld import BlockPattern
    return BlockPattern(n, pattern)


def load_set(domain: str, folder=None, progress=None) -> dict:
    """Every PDB of `domain`'s set by partition name, {"A": [PDB, ...], ...}; builds missing ones.

    `progress(fraction, text)` hears about each build (`la.pdb.store`), which starts with the label
    "<domain> PDB i of n, [pattern] (N entries)"; None: silent."""
    named = partitions(domain)
    patterns = list(dict.fromkeys(tuple(p) for patterns in named.values() for p in patterns))
    chosen = [abstraction(domain, pattern) for pattern in patterns]
    missing = [a for a in chosen if not paths(a, folder)[0].exists()]
    if missing:                          # refused before the first build, not after an hour of them
        check_room(paths(missing[0], folder)[0].parent, missing)
    loaded = {}
    for i, (pattern, made) in enumerate(zip(patterns, chosen), 1):
        label = f"{domain} PDB {i} of {len(patterns)}, {list(pattern)} ({made.size:,} entries)"
        loaded[pattern] = load(made, folder, progress, label)
    return {name: [loaded[tuple(p)] for p in patterns] for name, patterns in named.items()}


__all__ = ["PARTITIONS", "DOMAINS", "partitions", "abstraction", "load_set", "reflect", "PDB"]
