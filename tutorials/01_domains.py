"""Tutorial 01: planning domains as batches of states.

The paper learns heuristics for four domains: the 15- and 24-puzzle, the 24-pancake puzzle and
15-blocksworld. Here we meet them as `la` holds them: a state is a row of small integers, and a
*batch* of states is a 2-D NumPy array, one state per row. Everything later — search, task
generation, training — works on whole batches, because one NumPy call on thousands of states costs
far less than a Python call per state (section 2 measures by how much). Section 5 shows what a
neural network reads of a state (its one-hot encoding), and section 6 how hard a task made by
walking back from the goal really is.

The authors' C# reaches all four domains through generic types, which makes it hard to follow one
domain through it. Here every domain offers the same few batch methods (`expand`, `apply`,
`inverse`, `parse`, `format`), so the search and the learning never ask which domain they run on,
and the tutorials after this one work concretely on the sliding-tile puzzles (tutorials 15 and 16
show what the other domains' networks read).

Run from the repository root:  python tutorials/01_domains.py
"""
import sys

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path, state_text  # noqa: E402

import matplotlib.pyplot as plt                                           # noqa: E402
import numpy as np                                                        # noqa: E402
import time                                                               # noqa: E402

from la.domains.names import make_domain                           # noqa: E402
from la.domains.walk import random_walk                                   # noqa: E402
from la.features.encodings import for_domain                                        # noqa: E402
from la.search.bfs import ExactDistances                                  # noqa: E402

# %%
BATCH = 10_000                   # section 2's timing: states expanded in one call
LONGEST = 60                     # section 6: the longest walk (exercise 1)
VALUES = (0, 1, 7)               # section 5: the values whose one-hots are printed (exercise 3)
BAD = [("15-puzzle", "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15"), ("15-puzzle", "0 1 2 3"),
       ("6-blocksworld", "0 1 1 0 0 0"), ("6-blocksworld", "2 3 1 0 0 0")]  # section 4 (exercise 2)
rng = np.random.default_rng(2020)

# %%
# --- 1. Three domains, drawn ----------------------------------------------------------------------
# What the integers of a row mean (tutorials/GLOSSARY.md), and each domain's goal:
#   sliding-tile puzzle  state[p] = the tile at position p, row by row, 0 the blank; the goal is
#                        Korf's: blank top-left, tile t at position t, [0 1 2 ... 15];
#   N-pancake            state[p] = the pancake at height p from the top (0 the smallest, N − 1 the
#                        largest); the goal [0 1 ... N−1] has the smallest on top;
#   N-blocksworld        blocks 1..N; state[b − 1] = what block b stands on: another block's number,
#                        or 0 for the table (Slaney & Thiébaux's format). So [0 1 1 0 0 0] says:
#                        block 1 on the table, blocks 2 and 3 both on block 1 (impossible: section
#                        4 refuses it), 4, 5 and 6 on the table. The goal [0 1 2 ... N−1] is one
#                        tower, 1 at the bottom, N on top. `format` draws the towers upright.
puzzle, pancakes, blocks = (make_domain("15-puzzle"), make_domain("8-pancake"),
                            make_domain("6-blocksworld"))
for domain in (puzzle, pancakes, blocks):
    state = random_walk(domain, 12, rng)[0]
    print(f"A {domain.name} state, 12 random moves from the goal:  [{state_text(state)}]")
    print(domain.format(state), end="\n\n")

# %%
# --- 2. Moves on a batch --------------------------------------------------------------------------
# `expand` lists every legal move of every state in one call, as (parent, move, children):
# `parent[i]` says which state child i comes from, `move[i]` which move made it. A move's code also
# tells which move undoes it, so a search can skip the move straight back to the parent
# (parent pruning), the cheapest and most important trick in IDA*.
batch = random_walk(puzzle, 20, rng, n=4)
parent, move, children = puzzle.expand(batch)
print(f"4 states have {len(parent)} children; moves per state: {np.bincount(parent).tolist()}")
pruned_parent, _, _ = puzzle.expand(children, puzzle.inverse(move))
print(f"their {len(children)} children have {len(pruned_parent)} children "
      "once the move back is pruned")
back = puzzle.apply(children, np.arange(len(children)), puzzle.inverse(move))
undone = bool((back == batch[parent]).all())                         # every move can be undone
# Why batches: the children of BATCH states in one call, against a Python call per state
# (`neighbours`, the one-state-at-a-time version that the textbook search of tutorial 02 uses),
# timed on a tenth as many states. Each is timed five times and the fastest kept: on a busy machine
# the others include waiting for the processor.
many = random_walk(puzzle, 20, rng, n=BATCH)


def fastest(work, repeat=5):
    """The shortest of `repeat` timings of work(), in seconds."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


batched = fastest(lambda: puzzle.expand(many)) / BATCH
single = fastest(lambda: [puzzle.neighbours(tuple(int(v) for v in s))
                          for s in many[:BATCH // 10]]) / (BATCH // 10)
print(f"children of {BATCH:,} states in one call: {batched * 1e6:.2f} µs per state; "
      f"one call per state: {single * 1e6:.1f} µs per state ({single / batched:.0f}x)")

# %%
# --- 3. A walk back from the goal -----------------------------------------------------------------
# Training tasks in the paper's baseline (and every test set) are made by walking k random steps
# back from the goal, never undoing the previous step. A step back needs the paper's undo-effect
# function
#     E_undo(s') = {s : some legal move o of s has E(s, o) = s'},
#     E(s, o) = the state move o leads to from s:
# the states one move BEFORE s'. All domains here are reversible (every move can be undone,
# section 2), so E_undo(s') = E_rev(s') = {E(s', o) : o a legal move of s'}: a state's predecessors
# are its successors, and `expand` gives both.
eight = make_domain("8-puzzle")
trace = random_walk(eight, 6, rng, trace=True)
boards = [eight.format(t[0]).split("\n") for t in trace]
print("A walk of 6 steps back from the 8-puzzle goal:")
for line in range(3):
    print("    ".join(b[line] for b in boards))

# %%
# --- 4. Bad states are refused with a reason ------------------------------------------------------
refused = 0
for name, text in BAD:
    try:
        make_domain(name).validate(np.array(text.split(), dtype=np.int64))
    except ValueError as error:
        print(f"{name} [{text}]: {error}")
        refused += 1

# %%
# --- 5. What the network sees: the one-hot encoding -----------------------------------------------
# A network cannot read "tile 7 is on cell 5" directly; it reads a vector of numbers. For the
# 15-puzzle the paper (§5) gives every value v = 0..15, the blank included, two one-hots: which of
# the 4 columns v stands in, and which of the 4 rows. That is 16 × (4 + 4) = 128 inputs with exactly
# 32 ones, half as many inputs as the earlier encoding that gives each value a one-hot of its cell,
# 16 × 16 (Ernandes & Gori 2004).
# The 8-puzzle of tutorial 00 gets 9 × (3 + 3) = 54. `la.features.encodings.for_domain` picks the
# encoding for a domain.
encoding = for_domain(puzzle)
state = random_walk(puzzle, 12, rng)[0]
x = encoding(state[None])[0]                                        # (128,) float32
print(f"\nthe network's input for [{state_text(state)}]: {encoding.size} numbers, "
      f"{int(x.sum())} of them 1")
print("  value  cell   column one-hot   row one-hot")
for v in VALUES:
    cell = int(np.flatnonzero(state == v)[0])
    bits = x[8 * v:8 * v + 8].astype(int)
    print(f"  {v:5d} {cell:5d}   {' '.join(map(str, bits[:4])):>14}   "
          f"{' '.join(map(str, bits[4:])):>11}"
          f"    (row {cell // 4}, column {cell % 4})")
print(f"(a one-hot of each value's cell would take {puzzle.size * puzzle.size} inputs; "
      f"the 8-puzzle's encoding has {for_domain(eight).size})")

# %%
# --- 6. How hard is a task k steps from the goal? -------------------------------------------------
# The 8-puzzle has 181,440 reachable states: few enough for a breadth-first search to find the exact
# cost-to-goal h* of every one. A walk of k steps makes a task of cost at most k: short walks come
# close, but longer ones wander and double back, and their cost levels off near the average distance
# over all states, with a wide spread. Walk length is a blunt dial for "a little harder than last
# time", which is what the LengthInc baseline turns (tutorial 13); the paper looks for a better one
# (tutorial 09).
exact = ExactDistances(eight)
lengths = np.arange(0, LONGEST + 1, 4)
costs = [exact(random_walk(eight, k, rng, n=2000)) for k in lengths]
means = np.array([c.mean() for c in costs])
for k, c in zip(lengths[::3], costs[::3]):
    print(f"walk of {k:2d} steps: optimal cost mean {c.mean():5.2f}, range {c.min()}..{c.max()}")
print(f"the average distance over all {len(exact):,} states: {exact.distance.mean():.2f}")

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(lengths, lengths, "k:", label="cost = walk length")
ax.plot(lengths, means, "o-", label="mean optimal cost h*")
ax.fill_between(lengths, [np.percentile(c, 5) for c in costs],
                [np.percentile(c, 95) for c in costs], alpha=0.3, label="5–95 % of walks")
ax.set_xlabel("random-walk length k (steps back from the goal)")
ax.set_ylabel("optimal cost of the task")
ax.set_title("8-puzzle: cost of random-walk tasks (exact h* by BFS)", fontsize=10)
ax.legend()
fig.tight_layout()
out = figure_path("01_domains")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=120)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert undone, "every move can be undone"
assert single > 10 * batched, "a call per state costs far more than one call on a batch"
assert refused == len(BAD), "bad states are refused with a reason"
assert encoding.size == 128 and x.sum() == 32 and for_domain(eight).size == 54, \
    "the one-hot: 128 inputs with 32 ones (54 inputs on the 8-puzzle)"
assert all((c <= k).all() for k, c in zip(lengths, costs)), (
    "a walk of k steps makes a task of cost at most k")
assert means[-1] < 0.6 * lengths[-1] and abs(means[-1] - exact.distance.mean()) < 1, \
    "long walks make tasks much cheaper than their length, near the average distance"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set LONGEST = 120. However long the walk, section 6's mean cost stays near the average distance
#    over all states, and the 5–95 % band in the figure stays as wide.
# 2. Add ("6-blocksworld", "1 0 0 0 0 0") to BAD: section 4 prints why it is refused
#    (block 1 on itself).
# 3. Set VALUES = (0, 1, 7, 15): section 5 also prints tile 15's two one-hots, and they say where it
#    stands.

