"""Tutorial 15: pattern databases, the admissible heuristics behind the paper's features.

A pattern database (PDB; Culberson & Schaeffer 1998) solves a smaller puzzle exactly and remembers
every answer. Keep only some tiles, the *pattern*, and let the other tiles lose their numbers: the
abstract state is where the pattern tiles are. For every such placement the PDB stores the fewest
moves that bring the pattern tiles home. A breadth-first search backwards from the goal fills the
whole table once; during search a lookup gives h. Korf & Felner (2002) count only the moves of
pattern tiles (moves of the others are free): then the PDBs of disjoint patterns can be added, and
their sum is far stronger than Manhattan distance while staying admissible.

The paper plans on the 24-puzzle, the 24-pancake and 15-blocksworld with such PDBs as network inputs
(§5), and with the largest of them, h_ad, as a floor under y^α. `la.pdb` builds them, caches them on
disk (`la.pdb.store`) and `la.features` turns them into the networks' inputs. Here:

  1. a PDB of the 8-puzzle, checked against the exact distance h* of all 181,440 states;
  2. why the PDBs of a partition add up, and why overlapping ones may only be combined by max;
  3. the 24-puzzle's 15 network inputs for one state (only if its PDBs are already built: they take
     minutes);
  4. how many fewer nodes IDA* generates on the 15-puzzle with an additive PDB sum than with
     Manhattan distance.

The 8- and 15-puzzle PDBs are built afresh in a temporary folder (removed at the end), so the times
printed are real.

Run from the repository root:  python tutorials/15_pattern_databases.py
"""
import sys
import tempfile
import time
from pathlib import Path

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt                                           # noqa: E402
import numpy as np                                                        # noqa: E402

from la import data                                                       # noqa: E402
from la.domains.sliding_tile import SlidingTile                                        # noqa: E402
from la.runs.progress import BuildProgress                              # noqa: E402
from la.features.sliding_tile import TileFeatures                                      # noqa: E402
from la.heuristics.classical import Manhattan                                       # noqa: E402
from la.heuristics.pdb import PDBHeuristic, partition_sums                # noqa: E402
from la.pdb import sets, store                                            # noqa: E402
from la.pdb.sliding_tile import TilePattern                               # noqa: E402
from la.search import check_plan, ida_star                                # noqa: E402
from la.search.bfs import ExactDistances                                  # noqa: E402

# %%
scratch = tempfile.TemporaryDirectory(prefix="la-tutorial-13-")  # this tutorial's PDB tables


def build(width, patterns):
    """The PDBs of `patterns` on the (width²−1)-puzzle, built into the scratch folder; and the
    seconds taken."""
    began = time.perf_counter()
    pdbs = [store.load(TilePattern(width, tiles), Path(scratch.name))  # silent: no progress
            for tiles in patterns]
    return pdbs, time.perf_counter() - began


def braces(tiles):
    """A pattern as a set: {1,2,3,4}."""
    return "{" + ",".join(str(t) for t in tiles) + "}"


def abstract(domain, state, tiles):
    """The board as the PDB of `tiles` sees it: the other tiles without their numbers (x)."""
    cells = ["." if v == 0 else str(v) if v in tiles else "x" for v in state.tolist()]
    return [" ".join(cells[r * domain.width:(r + 1) * domain.width]) for r in range(domain.width)]


# %%
# --- 1. A PDB of the 8-puzzle, checked against h* -------------------------------------------------
# The abstraction of pattern {1,2,3,4} keeps where tiles 1-4 and the blank are. Its PDB is filled by
# a breadth-first search backwards from the goal over the abstract states (la.pdb.sliding_tile
# explains how the blank's free moves are folded away), one table entry per placement of the four
# tiles: 9·8·7·6 = 3,024.
eight = SlidingTile(3)
exact = ExactDistances(eight)  # h* of every state, by breadth-first search from the goal
# It keys a state by its 9 numbers read as a base-10 integer; decoding the sorted keys lists every
# reachable state.
states, h_star = exact.states(), exact.distance                             # (181440, 9), (181440,)
print(f"8-puzzle: {len(states):,} states, h* from 0 to {h_star.max()}, mean {h_star.mean():.2f}")

PARTITION = [(1, 2, 3, 4), (5, 6, 7, 8)]            # disjoint patterns covering every tile
OVERLAPPING = [(1, 2, 3, 4, 5), (4, 5, 6, 7, 8)]    # tiles 4 and 5 are in both
built, seconds = build(3, PARTITION + OVERLAPPING)
pdb = dict(zip(PARTITION + OVERLAPPING, built))
print(f"built {len(built)} PDBs ({sum(p.abstraction.size for p in built):,} entries) in "
      f"{seconds:.2f} s")

start, tiles = eight.validate([8, 1, 2, 0, 4, 3, 7, 5, 6]), PARTITION[0]
print(f"a state, and what the PDB of {braces(tiles)} sees of it:")
for left, right in zip(eight.format(start).split("\n"), abstract(eight, start, tiles)):
    print(f"    {left}      {right}")
print(f"PDB {braces(tiles)} = {pdb[tiles](start[None])[0]} moves of tiles 1-4; h* = "
      f"{exact(start[None])[0]}")

# Why a PDB never overestimates: take an optimal plan and erase the numbers of the other tiles. It
# becomes a path of the abstract puzzle that brings tiles 1-4 home, and the PDB holds the cheapest
# such path, counting only the moves of tiles 1-4. So PDB(s) <= (moves of pattern tiles in the plan)
# <= h*(s). Checked on every state:
for tiles, table in pdb.items():
    h = table(states)
    print(f"  PDB {braces(tiles):12} {table.abstraction.size:6,} entries, max {table.max}, mean "
          f"{h.mean():5.2f}; never above h*: {bool((h <= h_star).all())}")
    assert (h <= h_star).all()

# %%
# --- 2. Disjoint patterns add up; overlapping ones only max ---------------------------------------
# Each move slides one tile. Split an optimal plan's h*(s) moves by the tile they move: with
# disjoint patterns each move is counted by at most one PDB, and by the argument above PDB_P(s) <=
# (moves of P's tiles). Adding up,
#     PDB_1(s) + PDB_2(s) <= (moves of tiles 1-4) + (moves of tiles 5-8) <= h*(s).
# Each PDB is also at least the Manhattan distance (MD) of its tiles (a tile moves one cell at a
# time), so the sum is never below MD, and often above it: the PDB sees the tiles of its pattern get
# in each other's way.
md = Manhattan(eight)(states)
partition_sum = sum(pdb[tiles](states) for tiles in PARTITION)
print(f"\npartition {' + '.join(map(braces, PARTITION))}: the sum is admissible on all "
      f"{len(states):,} states: {bool((partition_sum <= h_star).all())}\n  never below MD: "
      f"{bool((partition_sum >= md).all())}, above it on {100 * (partition_sum > md).mean():.0f} % "
      f"of the states")
print(f"  mean h: MD {md.mean():.2f}, partition sum {partition_sum.mean():.2f}, h* "
      f"{h_star.mean():.2f}")
assert (partition_sum <= h_star).all() and (partition_sum >= md).all()

# With overlapping patterns, a move of tile 4 or 5 is counted by both PDBs, so the sum can exceed
# h*. Each PDB alone is still a lower bound, so their maximum is admissible; it wastes the
# information of the smaller one.
a, b = (pdb[tiles](states) for tiles in OVERLAPPING)
too_high = np.flatnonzero(a + b > h_star)
print(f"overlapping {' + '.join(map(braces, OVERLAPPING))}: the sum exceeds h* on "
      f"{len(too_high):,} states ({100 * len(too_high) / len(states):.0f} %), by up to "
      f"{(a + b - h_star).max()} moves")
example = too_high[np.argmin(h_star[too_high])]                 # the one closest to the goal
plan = ida_star(eight, Manhattan(eight), states[example]).plan  # an optimal plan (MD is admissible)
blank = (plan == 0).argmax(axis=1)
moved = plan[np.arange(len(plan) - 1), blank[1:]]               # the tile that slides at each step
shared = np.isin(moved, np.intersect1d(*OVERLAPPING))
print(f"  e.g. this state, h* = {h_star[example]}:  PDB {braces(OVERLAPPING[0])} = {a[example]}, "
      f"PDB {braces(OVERLAPPING[1])} = {b[example]}, sum {a[example] + b[example]}")
print("\n".join(f"    {line}" for line in eight.format(states[example]).split("\n")))
print(f"  an optimal plan slides the tiles {moved.tolist()}; both PDBs count each move of tile 4 "
      f"or 5 ({shared.sum()} here)")
overlap_max = np.maximum(a, b)
print(f"  the max is admissible on every state: {bool((overlap_max <= h_star).all())}; "
      f"mean {overlap_max.mean():.2f} (MD {md.mean():.2f}, partition sum "
      f"{partition_sum.mean():.2f})")
assert len(too_high) > 0 and (overlap_max <= h_star).all()

# %%
# --- 3. The 24-puzzle's 15 network inputs ---------------------------------------------------------
# On the 24-puzzle the paper's networks see not the board but 15 numbers (§5): the ten PDBs of two
# partitions A and B, the two partition sums, Manhattan and Hamming distance, each divided by a
# scale (about the largest value it can take, as the authors' code chooses it), and the blank's
# cell. The paper writes "5-5-5-4" partitions; the authors' code
# (OfirMarom/LearnHeuristicWithUncertaintly,
# `HeuristicSearch/SlidingPuzzle/Heuristics/MultHeuristic24.cs`) builds 5-5-5-5-4, five PDBs per
# partition, and so does `la`. All but the last are admissible, so h_ad = their maximum is a floor
# the network may plan above. The ten PDBs take minutes to build: only read here if cached.
cache = store.default_folder()
patterns24 = [tiles for patterns in sets.partitions("24-puzzle").values() for tiles in patterns]
missing = [t for t in patterns24
           if not all(path.exists() for path in store.paths(TilePattern(5, t), cache))]
if not missing:
    # Loads the ten PDBs, checking each file; one found damaged is built again, with a progress line
    # on stderr.
    features = TileFeatures(SlidingTile(5), folder=cache, progress=BuildProgress())
    instance = data.korf50_24()[0]
    state, optimal = instance.state, instance.optimal
    print(f"\nthe 24-puzzle's inputs for instance {instance.id} of Korf & Felner's 50 (optimal "
          f"cost {optimal}):")
else:
    # The same layout on the 8-puzzle: partition A as above, partition B the board's columns.
    print(f"\nthe 24-puzzle's PDBs are not in the cache ({len(missing)} of {len(patterns24)} "
          f"missing); `python -m la.pdb build --domain 24-puzzle`\nbuilds them (la/bench/README.md "
          f"keeps the measured time), and then this part shows the 24-puzzle's 15 inputs.")
    columns, _ = build(3, [(1, 4, 7), (2, 5, 8), (3, 6)])
    features = TileFeatures(eight, pdbs={"A": [pdb[tiles] for tiles in PARTITION], "B": columns})
    state, optimal = start, exact(start[None])[0]
    print(f"Meanwhile, the same layout on the 8-puzzle, for the first state above (h* = "
          f"{optimal}):")
x = features(state[None])[0]                                     # the network's inputs, float32
h_arr = features.h_arr(state[None])[0]                           # the admissible features, unscaled
names = [f"PDB {part}{j + 1} {braces(features.pdbs[i].abstraction.pattern)}"
         for part, group in zip("AB", features.groups) for j, i in enumerate(group)]
names += ["sum of partition A", "sum of partition B", "Manhattan distance",
          "Hamming (tiles out of place)"]
for name, value, scale, scaled in zip(names, h_arr, features.scale, x):
    print(f"  {name:30} {value:4d} / {scale:3.0f} = {scaled:.3f}")
print(f"  {'the blank cell':30} {int(np.flatnonzero(state == 0)[0]):4d} / "
      f"{features.domain.size:3d} = {x[-1]:.3f}")
h_ad = features.admissible(state[None])[0]
print(f"  {len(x)} inputs; h_ad = max of the admissible ones = {h_ad}, the optimal cost {optimal}")
assert len(names) == len(h_arr) and len(x) == len(h_arr) + 1 and h_ad <= optimal

# %%
# --- 4. How much stronger than Manhattan distance: the 15-puzzle ----------------------------------
# Two additive partitions of small patterns, each built in seconds: 4-4-4-3 and 5-5-5 (sizes printed
# below). Larger patterns see more of the tiles' interference, so they prune more. (`la.pdb.sets`
# has Korf & Felner's stronger 6-6-3 partition and its reflection, four 6-tile PDBs of millions of
# entries each, for `la.solve --heuristic pdb`; `python -m la.pdb build --domain 15-puzzle` builds
# them.)
#     .  1  2  3
#     4  5  6  7        4-4-4-3: {1,2,3,7} {4,5,8,9} {6,10,11,15} {12,13,14}
#     8  9 10 11        5-5-5:   {1,2,3,6,7} {4,5,8,9,12} {10,11,13,14,15}
#    12 13 14 15
# `TileFeatures` with one partition and `PDBHeuristic` on its sum column give an incremental
# heuristic: a move slides one tile, so a child re-ranks only the one PDB holding that tile.
puzzle = SlidingTile(4)
PARTITIONS_15 = {"4-4-4-3": [(1, 2, 3, 7), (4, 5, 8, 9), (6, 10, 11, 15), (12, 13, 14)],
                 "5-5-5": [(1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)]}
heuristics = {"MD": Manhattan(puzzle)}
print()
for name, patterns in PARTITIONS_15.items():
    pdbs, seconds = build(4, patterns)
    encoding = TileFeatures(puzzle, pdbs={name: pdbs})
    heuristics[name] = PDBHeuristic(encoding, partition_sums(encoding))
    print(f"15-puzzle {name} PDBs: {' + '.join(f'{p.abstraction.size:,}' for p in pdbs)} = "
          f"{sum(p.abstraction.size for p in pdbs):,} entries, built in {seconds:.1f} s")

EASIEST = 20  # Korf's instances that IDA* with MD solves in the fewest nodes (Korf 1985's counts):
              # MD takes seconds
counts, korf = data.korf100_md_nodes(), {instance.id: instance for instance in data.korf100()}
ids = sorted(counts, key=lambda i: counts[i].reproduced)[:EASIEST]
nodes, search_seconds = {name: [] for name in heuristics}, dict.fromkeys(heuristics, 0.0)
for i in ids:
    for name, heuristic in heuristics.items():
        result = ida_star(puzzle, heuristic, korf[i].state)
        assert result.cost == korf[i].optimal, f"{name} found cost {result.cost} on Korf #{i}"
        check_plan(puzzle, korf[i].state, result.plan)
        nodes[name].append(result.generated)
        search_seconds[name] += result.seconds
nodes = {name: np.array(n) for name, n in nodes.items()}
print(f"IDA* on the {EASIEST} easiest of Korf's 100 (optimal costs "
      f"{min(korf[i].optimal for i in ids)}-{max(korf[i].optimal for i in ids)}), "
      f"every plan optimal:")
for name, n in nodes.items():
    ratio = "" if name == "MD" else f"; MD generates {nodes['MD'].sum() / n.sum():.0f}x as many " \
                                    f"(median per instance {np.median(nodes['MD'] / n):.0f}x)"
    print(f"  {name:8} {n.sum():11,} nodes, {search_seconds[name]:4.1f} s "
          f"({n.sum() / search_seconds[name] / 1e6:4.1f} M nodes/s){ratio}")
# Per node a PDB sum costs more than MD (re-ranking a placement and a table lookup instead of one
# addition), and these PDB searches are small: a few thousand nodes per iteration fill few batches,
# so NumPy's cost per call weighs more than in long searches. The time saved is therefore smaller
# than the nodes saved.
print(f"  in time the 5-5-5 sum saves {search_seconds['MD'] / search_seconds['5-5-5']:.1f}x, "
      f"against {nodes['MD'].sum() / nodes['5-5-5'].sum():.0f}x in nodes")

# %%
# --- The figure: what the heuristics know, and what it buys ---------------------------------------
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
levels = np.arange(h_star.max() + 1)
for h, label in [(partition_sum, "partition sum " + " + ".join(map(braces, PARTITION))),
                 (md, "Manhattan distance"),
                 (overlap_max, "max of the overlapping " + ", ".join(map(braces, OVERLAPPING))),
                 (a + b, "sum of the overlapping (not admissible)")]:
    left.plot(levels, np.bincount(h_star, weights=h) / np.bincount(h_star), label=label)
left.plot(levels, levels, "k:", label="h = h*")
left.set(xlabel="h* (exact cost to the goal)", ylabel="mean h over the states with that h*")
left.set_title("8-puzzle, all 181,440 states", fontsize=10)
left.legend(fontsize=7)
order = np.argsort(nodes["MD"])
for name in heuristics:
    right.semilogy(np.arange(1, EASIEST + 1), nodes[name][order], "o-", ms=3, label=name)
right.set_xticks(np.arange(1, EASIEST + 1), [str(ids[k]) for k in order], fontsize=6)
right.set(xlabel="Korf instance (sorted by MD's nodes)", ylabel="nodes generated by IDA*")
right.set_title(f"15-puzzle, the {EASIEST} easiest of Korf's 100: MD vs additive PDB sums",
                fontsize=10)
right.legend(fontsize=8)
fig.tight_layout()
out = figure_path("15_pattern_databases")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=120)
print(f"saved {out.relative_to(ROOT)}")
scratch.cleanup()

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert nodes["MD"].sum() > 5 * nodes["5-5-5"].sum(), \
    "the 5-5-5 PDB sum should prune far more than MD"
assert nodes["MD"].sum() > nodes["4-4-4-3"].sum() > nodes["5-5-5"].sum(), \
    "larger patterns prune more"
assert search_seconds["MD"] / search_seconds["5-5-5"] < nodes["MD"].sum() / nodes["5-5-5"].sum(), \
    "per node a PDB sum costs more than MD: the time saved is smaller than the nodes saved"
