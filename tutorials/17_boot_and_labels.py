"""Tutorial 17: where the labels come from, and Boot, the bootstrap learner the paper compares with
(8-puzzle).

The paper measures itself against two other ways of learning a heuristic. Boot, the bootstrap
learner of Jabbari Arfaee, Zilles & Holte (SoCS 2010; AIJ 2011), has a row in Table 3, quoted from
its authors; and Ernandes & Gori (2004), from whom the paper takes "likely admissible" (§2), trained
on states solved optimally (tutorial 18). The three learners differ mainly in where their training
labels come from. `la` runs both rivals on its own terms, as rows of the suboptimality experiment
(`la.rivals.boot`, `la.rivals.optimal_labels`, `la.experiments.baselines`). Everything here runs on
the 8-puzzle, where a breadth-first search from the goal gives h* for all its states (tutorial 00),
so every label can be checked exactly:

  1. labels. LearnHeuristicPrac labels each state of a plan with its cost-to-go along that plan
     (paper §4; tutorial 08). The plans come from IDA* with the current heuristic, which is not
     admissible, so they can be longer than optimal, and then their labels lie above h*, never
     below. Here 2 × Manhattan distance (2·MD) stands in for that heuristic;
  2. Boot (`la.rivals.boot`). IDA* with h_{i−1} tries every still unsolved instance of a fixed set
     Ins within a node budget. Each solved plan's states join the training set with their
     plan-suffix costs. If at least ins_min instances were solved, h_i is trained on the training
     set; if fewer, the budget doubles. It stops once fewer than ins_min instances are left
     unsolved, or when the budget would pass its cap. Its labels are of part 1's kind, from plans of
     its own heuristic, and its network plans with its mean, round(μ). On the 8-puzzle the network
     reads the one-hot encoding of tutorial 01 (9 tiles × (3 rows + 3 columns) = 54 inputs), which
     has no admissible floor, so Boot starts from h0 = MD (`la.rivals.boot.initial_heuristic`). Its
     rounds, then its heuristic on random tasks beside MD;
  3. the committed full-scale Boot rows, if there are any.

Scale. Boot runs on 200 instances with ins_min 10 (`la.rivals.boot.BootConfig` keeps its authors'
values, printed with ours). Its first budget is 250 nodes and its cap 64,000, with 500 Adam steps
per training (TrainIter 1,000). `la.rivals.boot.boot_config` knows only the paper's domains, so this
BootConfig is built directly, with the 15-puzzle's single-output network (20 hidden units, no
dropout). The RandomWalk phase, which starts only when h0 solves none of Ins, is switched off: MD
solves some of Ins within 250 nodes. The test tasks are 100 uniform random 8-puzzles, at most
200,000 nodes each. None of this is the paper's protocol; part 3 names the command that is.

What to expect. The plan-suffix labels overestimate on a good part of the records. Boot's examples
do on a few, from the rounds in which its network planned. Boot's heuristic needs a fraction of MD's
nodes, and some of its plans are not optimal. Each part prints what held this time.

Run from the repository root:  python tutorials/17_boot_and_labels.py
"""
import sys
import time
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import FIGURES, ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402
import numpy as np  # noqa: E402

from la.buffer import MemoryBuffer  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.domains.uniform import uniform_states  # noqa: E402
from la.domains.walk import random_walk  # noqa: E402
from la.config import DOMAINS  # noqa: E402
from la.experiments.suboptimality_table import summarize  # noqa: E402
from la.heuristics.classical import Manhattan, Weighted  # noqa: E402
from la.plots.baselines import read_all  # noqa: E402
from la.rivals.boot import BootConfig, bootstrap  # noqa: E402
from la.search import check_plan, ida_star  # noqa: E402
from la.search.bfs import ExactDistances  # noqa: E402

# %%
SEED = 15
WEIGHT = 2                         # part 1's inadmissible planner: IDA* with 2 × Manhattan distance
TASKS = 100                        # part 1's tasks: random walks back from the goal, of WALKS moves
WALKS = (1, 60)                    # (the 8-puzzle's diameter: 31)
TEST_TASKS = 100                   # uniform random 8-puzzles, solved with every heuristic
TEST_BUDGET = 200_000              # nodes per test task
began = time.perf_counter()

eight = make_domain("8-puzzle")
exact = ExactDistances(eight)       # h* of every state, breadth-first from the goal (tutorial 00)
print(f"the 8-puzzle: {len(exact):,} states, h* from 0 to {exact.distance.max()} "
      f"(breadth-first search)")

# %%
# --- 1. Labels from plans that are not optimal ----------------------------------------------------
# LearnHeuristicPrac's memory buffer (`la.buffer`) holds every state of each solved plan with its
# cost-to-go along the plan, the goal with 0, each distinct (state, label) pair once: a state
# reached by two plans of different lengths is two records. The plans here are IDA*'s with 2·MD, as
# in tutorial 00. On a sliding-tile puzzle every path from a state to the goal has the parity of h*,
# so a label is off by an even number of moves.
rng = np.random.default_rng([SEED, 1])
md = Manhattan(eight)
starts = random_walk(eight, rng.integers(WALKS[0], WALKS[1], endpoint=True, size=TASKS), rng,
                     n=TASKS)
plans = [ida_star(eight, Weighted(md, WEIGHT), start).plan for start in starts]
buffer = MemoryBuffer(DOMAINS["15-puzzle"].learn().buffer_size, eight.size)
buffer.add_plans(plans)
suffix_excess = buffer.labels() - exact(buffer.states())  # label − h*, per record
plan_excess = np.array([len(plan) - 1 for plan in plans]) - exact(starts)
print(f"\n{TASKS} tasks (walks of {WALKS[0]}-{WALKS[1]} moves) solved by IDA* with {WEIGHT}·MD: "
      f"{np.mean(plan_excess > 0):.0%} of the plans longer than optimal, by up to "
      f"{plan_excess.max()} moves")
print(f"  their {len(suffix_excess):,} plan-suffix records: label > h* on "
      f"{np.mean(suffix_excess > 0):.1%}, by {suffix_excess[suffix_excess > 0].mean():.2f} moves "
      f"on average there and at most {suffix_excess.max()}; label < h* on "
      f"{np.sum(suffix_excess < 0)}")

# %%
# --- 2. Boot --------------------------------------------------------------------------------------
# One line per round, from `Boot.log`: the instances tried and solved, the budget it ran with, the
# examples in the training set TS (they accumulate), whether it trained, and the instances left
# unsolved in Ins.
boot_config = BootConfig(learn=replace(DOMAINS["15-puzzle"].learn(n_out=1), train_iter=500),
                         instances=200, ins_min=10, node_limit=250, max_node_limit=64_000,
                         walk_instances=0)
print(f"\nBoot on {boot_config.instances} uniform random 8-puzzles, ins_min {boot_config.ins_min} "
      f"(its authors': {BootConfig().instances:,} and {BootConfig().ins_min}), budget "
      f"{boot_config.node_limit:,} nodes doubling up to {boot_config.max_node_limit:,}, h0 = MD:")
boot = bootstrap(eight, boot_config, np.random.default_rng([SEED, 2]), progress=None)
log = boot.log
for e in log:
    print(f"  round {e['round']:2d}: solved {e['solved']:3d} of {e['tried']:3d} within "
          f"{e['node_limit']:6,d} nodes, TS {e['examples']:5,d} examples, "
          + (f"trained ({e['steps']} Adam steps)" if e["trained"] else
             f"fewer than {boot_config.ins_min} solved: not trained")
          + f", {e['remaining']:3d} left"
          + ("" if e["stopped"] is None else f"; stopped: {e['stopped']!r}"))
doubled = [after["node_limit"] == 2 * e["node_limit"] for e, after in zip(log, log[1:])]
too_few = [e["solved"] < boot_config.ins_min for e in log[:-1]]
print(f"  the budget doubled after rounds {[e['round'] for e, d in zip(log, doubled) if d]}; fewer "
      f"than {boot_config.ins_min} were solved in rounds "
      f"{[e['round'] for e, s in zip(log, too_few) if s]}")
print(f"  it trained after rounds {[e['round'] for e in log if e['trained']]} (at least "
      f"{boot_config.ins_min} solved) and stopped after round {len(log)}: {boot.stopped!r}, "
      f"{len(boot.instances)} instances left")
boot_excess = boot.examples.labels() - exact(boot.examples.states())
print(f"  its {len(boot_excess):,} examples: label > h* on {np.mean(boot_excess > 0):.1%} (by at "
      f"most {boot_excess.max()} moves); those from round 1, planned with h0 = MD, are all exact: "
      f"{bool((boot_excess[:log[0]['added']] == 0).all())}")

# IDA* with each heuristic on the same uniform random tasks (drawn afresh, not Boot's Ins). The
# columns over the solved tasks, as the paper's (`summarize`); every plan is replayed to the goal
# (check_plan). h(goal): the heuristic's value at the goal, where h* = 0. IDA* recognises the goal
# only once f = g + h(goal) <= the bound (tutorial 02), so the last iteration's bound lies at least
# h(goal) above the plan's cost: a positive h(goal) costs iterations, each larger than the one
# before.
test_states = uniform_states(eight, TEST_TASKS, np.random.default_rng([SEED, 4]))
test_h_star = exact(test_states)
rows = {}


def test_row(name, h):
    """IDA* with h on every test task: the table's columns, printed and kept in `rows`."""
    tasks = []
    for state, optimal in zip(test_states, test_h_star):
        result = ida_star(eight, h, state, node_limit=TEST_BUDGET)
        if result.solved:
            check_plan(eight, state, result.plan)
        tasks.append({"solved": result.solved, "cost": result.cost, "optimal": int(optimal),
                      "generated": result.generated, "seconds": result.seconds,
                      "past": result.bounds[-1] - result.cost if result.solved else None})
    solved = [t for t in tasks if t["solved"]]
    rows[name] = row = {**summarize(tasks), "h_goal": int(h(eight.goal[None])[0]),
                        "past": np.mean([t["past"] for t in solved]),
                        "not_below": all(t["cost"] >= t["optimal"] for t in solved)}
    print(f"  {name:33} {row['unsolved']:3d}/{row['tasks']} {row['subopt']:9.2f} "
          f"{row['optimal']:9.0f} {row['generated']:11,.0f} {row['h_goal']:7d} {row['past']:18.2f}")


print(f"\nIDA* on {TEST_TASKS} uniform random 8-puzzles (mean h* {test_h_star.mean():.2f}), at "
      f"most {TEST_BUDGET:,} nodes each\n  {'heuristic':33} {'unsolved':>7} {'subopt %':>9} "
      f"{'optimal %':>9} {'nodes/task':>11} {'h(goal)':>7} {'last bound − cost':>18}")
test_row("Manhattan distance", md)
test_row("Boot: round(μ)", boot.heuristic())

# %%
# --- 3. The committed full-scale Boot rows --------------------------------------------------------
# `python -m la.experiments.suboptimality ... --baselines boot --only-baselines` writes a record
# whose table holds the paper's rows unmeasured and Boot's row; once adopted it is committed as
# figures/baselines_<domain>*.json.
# Each file is read on its own: `read_all` of several files of one domain merges them into one
# record under the first file's name and command, which would print Boot's row under another run's.
committed = {}
for path in sorted(FIGURES.glob("baselines_*.json")):
    domain, (path, record) = next(iter(read_all([path]).items()))
    for r in record["table"]:
        if r["row"] == "Boot" and r["runs"] > 0:
            committed[domain] = r
            print(f"\n{path.name} ({domain}; {record.get('command', 'command not recorded')}):\n  "
                  f"Boot: {r['subopt']:.2f} % suboptimal, {r['optimal']:.1f} % optimal, "
                  f"{r['generated']:,.0f} nodes per task, "
                  f"{sum(r['unsolved'])}/{r['tasks'] * r['runs']} unsolved")
if not committed:
    print("\nno committed Boot row yet: `python -m la.experiments.suboptimality --domain "
          "24-pancake --full --baselines boot --only-baselines` makes one")

# %%
# --- The figure -----------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(12, 4.3))
ax = axes[0]
edges = np.arange(-0.5, max(suffix_excess.max(), boot_excess.max()) + 1.5)
for excess, label, colour in ((suffix_excess, f"plan suffixes, IDA* with {WEIGHT}·MD", "C3"),
                              (boot_excess, "Boot's examples (TS)", "C1")):
    ax.hist(excess, edges, weights=np.full(len(excess), 1 / len(excess)), histtype="step", lw=1.5,
            color=colour, label=f"{label}: {len(excess):,} records")
ax.set(yscale="log", xlabel="label − h* (moves)", ylabel="share of the records",
       title="training labels")
ax.legend(fontsize=7)
ax = axes[1]
rounds = [e["round"] for e in log]
ax.bar(rounds, [e["solved"] for e in log], color=["C2" if e["trained"] else "C7" for e in log])
budgets = [e["node_limit"] for e in log]
handles = [Patch(color="C2", label="instances solved; then trained"),
           Patch(color="C7", label="fewer than ins_min solved: no training"),
           Line2D([], [], color="k", ls=":", lw=1, label=f"ins_min = {boot_config.ins_min}"),
           Line2D([], [], color="k", lw=1, label="budget (right axis)")]
ax.axhline(boot_config.ins_min, color="k", ls=":", lw=1)
ax.set(xlabel="round", ylabel="instances solved", title=f"Boot's rounds (stopped: {boot.stopped})",
       ylim=(0, 1.5 * max(e["solved"] for e in log)))
ax.legend(handles=handles, fontsize=7, loc="upper left")
twin = ax.twinx()
twin.step(rounds, budgets, "k-", where="mid", lw=1)
twin.set(yscale="log", ylabel="budget (nodes per instance)")
twin.set_yticks(sorted(set(budgets)), [f"{b:,}" for b in sorted(set(budgets))])
twin.yaxis.set_minor_formatter(NullFormatter())
fig.suptitle("Where the labels come from, and Boot, on the 8-puzzle with exact h* "
             "(tutorial scale)", fontsize=10)
fig.tight_layout()
out = figure_path("17_boot_and_labels")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"\nsaved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
# Every plan found above was replayed to the goal (check_plan) before it was counted.
assert (suffix_excess > 0).any() and (suffix_excess >= 0).all(), \
    "plan-suffix labels from an inadmissible planner lie above h* on some records, below it on none"
assert (boot_excess >= 0).all() and (boot_excess[:log[0]["added"]] == 0).all(), \
    "Boot's labels never lie below h*, and those planned with h0 = MD are exact"
assert doubled == too_few, \
    "Boot's budget doubles exactly after the rounds that solved fewer than ins_min"
assert all(e["trained"] == (e["solved"] >= boot_config.ins_min) for e in log), \
    "... and trains after the others"
assert boot.stopped == "solved" and len(boot.instances) < boot_config.ins_min, \
    "Boot stopped: too few left"
assert (rows["Manhattan distance"]["optimal"] == 100
        and all(r["not_below"] for r in rows.values())), \
    "MD is admissible, and no plan is shorter than h*"
assert rows["Boot: round(μ)"]["generated"] < rows["Manhattan distance"]["generated"], \
    "Boot's h needs fewer nodes"
assert rows["Boot: round(μ)"]["optimal"] < 100, "... and some of its plans are not optimal"
