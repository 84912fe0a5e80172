"""Tutorial 02: IDA*, first as the textbook writes it, then on batches of nodes.

IDA* (Korf 1985) is depth-first search with a cost bound. An iteration explores every path whose
f = g + h (cost so far plus heuristic estimate) stays within the bound, h(start) at first; if the
goal is not among them, the bound rises to the smallest f that went over it, and the search starts
again from the root. With an admissible heuristic (one that never overestimates) the first goal
found is optimal. IDA* needs almost no memory, which is why the paper (and Korf, on the 15-puzzle)
use it. (These terms, and the course's others: tutorials/GLOSSARY.md.)

Two things make or break a Python IDA*:
  * integer bounds: h must be an integer, or every tiny float difference becomes a new iteration;
  * batches: a Python search that expands one node and calls the heuristic once per node is only
    as fast as a few Python calls per node allow; section 2 measures how fast that is on this
    machine (it depends on the machine and on what else runs on it). `la`'s IDA* expands a whole
    batch of nodes per step and calls the heuristic once for all their children; section 3
    measures the same searches that way, and prints the speed-up, computed from both rates.

Run from the repository root:  python tutorials/02_ida_star.py
"""
import sys

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, data, figure_path  # noqa: E402

import matplotlib.pyplot as plt                                           # noqa: E402
import numpy as np                                                        # noqa: E402

from la.domains.names import make_domain                                        # noqa: E402
from la.heuristics.classical import Manhattan                                       # noqa: E402
from la.heuristics.classical import Hamming              # noqa: E402,F401  (for exercise 2)
from la.search import check_plan, ida_star, reference                     # noqa: E402
from la.search.ida_star import BATCH_SIZE                                 # noqa: E402

# %%
START = [8, 1, 2, 0, 4, 3, 7, 5, 6]        # section 1's 8-puzzle (exercise 1)
HEURISTIC = Manhattan                      # section 1's heuristic (exercise 2)
HARDER = [2, 5, 16, 20, 23]                # section 3's Korf instances (exercise 3)

# %%
# --- 1. The textbook IDA* on an 8-puzzle ----------------------------------------------------------
# `reference.ida_star` is the textbook algorithm, one state at a time, in the authors' move order
# (blank up, left, right, down). Manhattan distance (MD) is admissible: every move moves one tile
# one step.
eight = make_domain("8-puzzle")
md8 = HEURISTIC(eight)
start = eight.validate(START)
result = reference.ida_star(eight, md8, start)
print(eight.format(start))
print(f"{HEURISTIC.__name__} = {md8(start[None])[0]}, optimal cost {result.cost}, "
      f"found in {result.iterations} iterations")
for i, (bound, nodes) in enumerate(zip(result.bounds, result.per_iteration)):
    print(f"  iteration {i + 1}: bound {bound}, {nodes:,} nodes generated")
# (MD changes by exactly 1 per move, so f = g + h only ever changes by 0 or 2: bounds go up in steps
# of 2.)
check_plan(eight, start, result.plan)  # raises unless every step is legal and it ends at the goal
print(f"the plan's {len(result.plan)} states replay from the start to the goal")

# %%
# --- 2. Korf's 100, and his node counts -----------------------------------------------------------
# Korf (1985) published, for each of his 100 15-puzzle instances, the number of nodes IDA* with MD
# generates: the root plus every child created after parent pruning, over all iterations. Our
# reference reproduces them exactly, but for a few published values that are misprints (the data
# file's header says which).
puzzle = make_domain("15-puzzle")
md = Manhattan(puzzle)
korf = {i.id: i for i in data.korf100()}
published = data.korf100_md_nodes()
print(f"Korf's table: {len(published)} instances, "
      f"{sum(c.published != c.reproduced for c in published.values())} of its counts misprinted")
plain = {}
for i in (79, 12):
    plain[i] = reference.ida_star(puzzle, md, korf[i].state)
    print(f"Korf #{i}: cost {plain[i].cost} (optimal {korf[i].optimal}), "
          f"{plain[i].generated:,} nodes "
          f"(Korf: {published[i].published:,}) in {plain[i].seconds:.1f} s = "
          f"{plain[i].nodes_per_second / 1e3:.0f} k nodes/s")

# %%
# --- 3. The same searches on batches --------------------------------------------------------------
# The batched IDA* explores exactly the same tree in every iteration that does not find the goal,
# only in a different order. Which goal ends the last iteration depends on the search's order, the
# option `order` (`--order` of `python -m la.solve` and of the experiments), which `ida_star` takes
# as `order=`:
#   order="depth-first" (the default, the authors' order; class `DepthFirst`): it meets the goal
#       exactly where the reference does, so even the last iteration's count is the same;
#   order="batched" (`la`'s earlier order; class `Shallowest`): it returns the first goal among a
#       whole batch of children and counts them all, so its last iteration differs.
batched = {i: ida_star(puzzle, md, korf[i].state) for i in plain}
for i in plain:
    same = batched[i].per_iteration == plain[i].per_iteration
    other = ida_star(puzzle, md, korf[i].state, order="batched")
    print(f"Korf #{i}: batched IDA*, order='depth-first': cost {batched[i].cost}, "
          f"every iteration's count identical: {same}; "
          f"order='batched': the last iteration has {other.per_iteration[-1]:,} nodes "
          f"against {plain[i].per_iteration[-1]:,}, the others identical: "
          f"{other.per_iteration[:-1] == plain[i].per_iteration[:-1]}")
    assert same and batched[i].cost == plain[i].cost == other.cost

speed_plain = sum(r.generated for r in plain.values()) / sum(r.seconds for r in plain.values())
harder = HARDER
results = [ida_star(puzzle, md, korf[i].state) for i in harder]
for i, r in zip(harder, results):
    assert r.cost == korf[i].optimal
speed_batched = sum(r.generated for r in results) / sum(r.seconds for r in results)
print(f"batched IDA* (up to {BATCH_SIZE:,} nodes a step) on Korf #{', #'.join(map(str, harder))}: "
      f"{sum(r.generated for r in results):,} nodes, {speed_batched / 1e6:.1f} M nodes/s, "
      "all optimal")
print(f"speed-up over the reference: {speed_batched / speed_plain:.0f}x "
      f"({speed_batched / 1e6:.1f} M against {speed_plain / 1e3:.0f} k nodes/s)")

# %%
# --- 4. Where the nodes go ------------------------------------------------------------------------
# Each iteration costs several times the one before (the effective branching factor per bound step
# of 2), so the last iteration or two dominate the total.
# full iterations
growth = [b / a for r in results for a, b in zip(r.per_iteration[:-2], r.per_iteration[1:-1])]
last_two = sum(sum(r.per_iteration[-2:]) for r in results) / sum(r.generated for r in results)
print(f"each iteration generated {np.median(growth):.1f} times the nodes of the one before "
      f"(median), and the last two iterations {last_two:.0%} of all nodes")
fig, ax = plt.subplots(figsize=(6, 4))
for i, r in zip(harder, results):
    ax.semilogy(range(1, r.iterations + 1), r.per_iteration, "o-",
                label=f"Korf #{i} (cost {r.cost})")
ax.set_xlabel("IDA* iteration")
ax.set_ylabel("nodes generated in the iteration")
ax.set_title(f"Batched IDA* + MD: {speed_batched / 1e6:.0f} M nodes/s, "
             f"{speed_batched / speed_plain:.0f}x the reference", fontsize=10)
ax.legend()
fig.tight_layout()
out = figure_path("02_ida_star")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=120)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
if HEURISTIC is Manhattan:
    assert all(b - a == 2 for a, b in zip(result.bounds, result.bounds[1:])), (
        "with MD, bounds rise in steps of 2")
assert all(plain[i].generated == published[i].reproduced for i in plain), (
    "the reference reproduces Korf's counts")
assert speed_batched > 10 * speed_plain, (
    "the batched search should be far faster than one node at a time")
assert np.median(growth) > 2 and last_two > 0.5, "each iteration costs several times the one before"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set START = [8, 0, 6, 5, 4, 7, 2, 3, 1], one of the two 8-puzzle states farthest from the goal
#    (31 moves): section 1 needs about thirty times the nodes. The last iteration can be smaller
#    than the one before: it stops at the first goal it meets.
# 2. Set HEURISTIC = Hamming (tiles out of place; also admissible, weaker than MD). Section 1 finds
#    a plan of the same cost with more nodes and many more iterations, its bounds rising by 1:
#    Hamming changes by at most 1 per move, or not at all.
# 3. Set HARDER = [2, 5, 16, 20, 23, 1]: Korf #1 adds most of the nodes, and section 4's median
#    growth per iteration stays about the same.

