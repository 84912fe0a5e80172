"""Tutorial 10: LearnHeuristicPrac, the whole loop, at a reduced scale.

Tutorials 04–09 built the pieces: the two-output planning FFNN and its likely-admissible heuristic
y^α (04, 06), the WUNN and its σ_e (05), the loop itself (07), the Update and the α and β rules
(08), and GenerateTaskPrac (09). LearnHeuristicPrac (the paper's Alg. 2 in its practical form, §4;
`la.learn.learn_heuristic_prac`) runs one iteration NumIter times: tutorial 07's run, with the same
seed and settings, continued to 14 iterations. What to watch in the run below, one line per
iteration:

  * task length: GenerateTaskPrac's moves per task (its count, `Task.steps`, averaged over the 10
    tasks). The walks start at one move (the first iteration's tasks, and the walks of the next few
    iterations, stop at once while σ_e is high everywhere, tutorial 07) and grow as the WUNN learns
    and β decays;
  * solved: the tasks grow until some exceed the node budget; an iteration that solves fewer than 6
    lowers α;
  * β: it decays only in an Update whose WUNN ran all its blocks, after an iteration that solved
    enough tasks.

Scale. The paper's suboptimality network trains for NumIter = 50 iterations with 66 M nodes per
task. Here: 14 iterations with 110,000 nodes per task (a tenth of the efficiency experiment's 1 s),
so that the tasks outgrow the budget within a short run and the α schedule has something to do; the
FFNN's batch and the buffer are capped at 2,500 records, as in tutorial 07. Such a heuristic has
learnt labels up to some thirty moves (part 2 prints the largest), far short of Korf's instances
(part 3 prints their range), so part 3 asks where it works: on Korf's instances cut to 10, 20, ...,
50 moves from the goal. Part 4 counts, after 14 iterations, the overestimates that tutorial 07's two
mechanisms prevent. The full-scale runs, and what they reach on Korf's 100, are `python -m
la.experiments.suboptimality --paper --run K` for K = 1..10, joined by `python -m
la.experiments.merge`; the committed record of those ten runs (the README's headline) is printed at
the end of part 3 and drawn in figures/table1-gap/control/ten-runs/table1_suboptimality.png. The
full-strength loop in a tutorial is the next one, 11: the same method at the paper's settings on the
8-puzzle, where every h* is known, watched iteration by iteration.

Run from the repository root:  python tutorials/10_learn_heuristic.py
"""
import sys
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import (ROOT, committed_table1, committed_table1_header, data,  # noqa: E402
                    figure_path, train)

import matplotlib.pyplot as plt
import numpy as np

from la.config import NODES_PER_SECOND, LearnConfig, node_budget
from la.domains.names import make_domain
from la.heuristics.classical import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible
from la.features import OneHot
from la.search import check_plan, ida_star

# %%
SEED = 8
CUTS = (10, 20, 30, 40, 50)            # test tasks: Korf's instances, this many moves from the goal
PER_CUT = 4                            # instances per cut
TEST_BUDGET = node_budget(1)           # per test task: 1.1 M nodes, the efficiency experiment's
                                       # t_max = 1 s
ALPHA = 0.9                            # the test-time α of part 3 (exercise 3)
NUM_ITER = 14                          # iterations (exercise 1)
TASK_SECONDS = 0.1                     # the budget per training task, in seconds of the authors' C#
                                       # (exercise 2)
puzzle = make_domain("15-puzzle")

# %%
# --- 1. The run -----------------------------------------------------------------------------------
config = replace(LearnConfig(), num_iter=NUM_ITER, node_limit=node_budget(TASK_SECONDS),
                 ffnn_batch=2_500, buffer_size=2_500)
print(f"LearnHeuristicPrac on the 15-puzzle: NumIter {config.num_iter} (paper 50), "
      f"{config.node_limit:,} nodes per task (paper 66 M), FFNN batch and buffer cap "
      f"{config.ffnn_batch:,} (paper 25,000)")
learner = train(puzzle, config, np.random.default_rng(SEED), OneHot(puzzle),
                progress=print)   # a line per iteration
log = learner.log

# %%
# --- 2. What happened -----------------------------------------------------------------------------
alphas = [e["alpha"] for e in log]
drops = [e["iteration"] for e in log if e["solved"] < config.solved_threshold]
decays = [e["iteration"] for e in log if e.get("beta_decayed")]
tasks = [t for e in log for t in e["tasks"]]
search_seconds = sum(t["seconds"] for t in tasks)                    # IDA* alone
task_seconds = sum(e["plan_seconds"] for e in log) - search_seconds  # GenerateTaskPrac's walks
                                                                     # (the WUNN)
train_seconds = sum(e["train_seconds"] for e in log)                 # the Updates
nodes = sum(t["generated"] for t in tasks)
print(f"\nsolved {learner.solved_fraction():.0%} of {len(tasks)} training tasks; "
      f"{train_seconds:.0f} s in the Updates, {task_seconds:.0f} s making tasks, "
      f"{search_seconds:.1f} s searching: {nodes:,} nodes, {nodes / len(tasks):,.0f} per search on "
      f"average, {nodes / search_seconds / 1e6:.1f} M nodes/s")
print(f"(`la` counts a task's budget in nodes at {NODES_PER_SECOND / 1e6:.1f} M nodes/s, the "
      f"authors' C# planning speed that the paper's Table 1 implies)")
# Why so few nodes per second here: most of these searches are a few hundred or thousand nodes, and
# the batched IDA* pays NumPy's fixed cost per call on every small batch. On long searches it runs
# several times faster (`python -m la.bench --only neural` measures it; la/bench/README.md keeps the
# dated numbers). The time a run takes is the Updates', not the searches'.
print(f"α: fewer than {config.solved_threshold} tasks solved in iterations {drops}; α fell by "
      f"{config.delta} after each, from {alphas[0]} to {alphas[-1]} for the last iteration "
      f"({learner.alpha} for a next one)" if drops else
      f"α: every iteration solved at least {config.solved_threshold} tasks, so α stayed at "
      f"{learner.alpha}")
early = [e["iteration"] for e in log[1:-1] if e["wunn_blocks"] < config.wunn_blocks]
frozen = [e["iteration"] for e in log[1:-1]
          if e["wunn_blocks"] == config.wunn_blocks and not e["beta_decayed"]]
print(f"β decayed in {len(decays)} of the {len(log) - 2} Updates after the first (iterations "
      f"{decays}), to {learner.beta:.2e}; reaching β_NumIter = {config.beta_final} would take "
      f"{config.num_iter} decays, but at most {config.num_iter - 2} can happen. It stayed put in "
      f"{early or 'none'}, where the WUNN got every σ_e below 0.8 early, and in "
      f"{frozen or 'none'}, where it could not but too few tasks were solved")
repeated = len(learner.buffer) - len({s.tobytes() for s in learner.buffer.states()})
print(f"buffer: {len(learner.buffer):,} records, labels 0..{learner.buffer.labels().max()}, "
      f"{repeated} of them a second label for a state already there (cap {config.buffer_size:,})")
# Why at most NumIter − 2 decays: the first Update never decays β (an untrained WUNN's σ_e means
# nothing, tutorial 08), and the last iteration's Update is skipped. So β never reaches β_NumIter.
# The Update is skipped because of what is evaluated after training, on which the paper is silent:
# the authors' code saves the network before each Update and evaluates the one saved last, the one
# that planned the last iteration (their repository, `HeuristicSearch/Program.cs`, method `Train`),
# and `la` does the same; a last Update would train a network nobody uses.

assert len(learner.buffer) <= config.ffnn_batch, \
    "a buffer larger than the FFNN batch would leave records out"

# %%
# --- 3. Where the heuristic works -----------------------------------------------------------------
# At test time the heuristic is y^α with σ_t = σ_a (no quantile rule; paper §5), here at α = 0.9.
# The test tasks: the last PER_CUT of Korf's instances that are at least 50 moves long, each cut to
# the state `cut` moves from the goal along its stored optimal solution, so that its optimal cost is
# exactly `cut`. Manhattan distance (MD) on the same tasks, for scale.
korf = [i for i in data.korf100() if i.optimal >= max(CUTS)][-PER_CUT:]
moves = data.optimal_blank_moves("korf100")
heuristics = {f"y^{ALPHA}": learner.test_heuristic(ALPHA), "MD": Manhattan(puzzle)}
largest = learner.buffer.labels().max()
print(f"\nKorf #{', #'.join(str(i.id) for i in korf)} cut to k moves from the goal, "
      f"{TEST_BUDGET:,} nodes per task; the largest label trained on is {largest}:")
print(f"{'k':>4}" + "".join(f"{name + ': solved, optimal, mean nodes':>44}" for name in heuristics))
found = {}
for cut in CUTS:
    line = f"{cut:4d}"
    for name, h in heuristics.items():
        results = []
        for instance in korf:
            plan = data.optimal_plan(instance.state, moves[instance.id])
            results.append(ida_star(puzzle, h, plan[len(plan) - 1 - cut], node_limit=TEST_BUDGET))
        solved = [r for r in results if r.solved]
        for r in solved:
            check_plan(puzzle, r.plan[0], r.plan)
        found[name, cut] = len(solved), sum(r.cost == cut for r in solved)
        nodes = np.mean([r.generated for r in results])
        line += f"{len(solved):>22d}/{PER_CUT} {found[name, cut][1]:6d} {nodes:12,.0f}"
    print(line)
# Reading it. Well within the labels it was trained on, the learned heuristic solves these tasks,
# optimally; as k nears the largest label its searches grow, and beyond it the network extrapolates
# and its searches exhaust the budget. MD needs no training, and on tasks this short it is also the
# cheaper heuristic: what a learned heuristic buys shows on long tasks, where MD's searches explode.
# A short run cannot get there; the full-scale runs (NumIter = 50, 66 M nodes per task) do, and
# their committed results follow: the mean over the runs (± their standard deviation).
print(f"Korf's 100 need {min(i.optimal for i in data.korf100())} to "
      f"{max(i.optimal for i in data.korf100())} moves")
committed = committed_table1()                   # committed results, read only
if committed is not None:
    full, rows = committed
    print(committed_table1_header(full) + ":")
    for name in (str(ALPHA), "MD"):
        if name in rows:
            row = rows[name]
            spread = f" ± {row['subopt_sd']:.2f}" if row.get("subopt_sd") is not None else ""
            print(f"  {name:>4}: {row['optimal']:5.1f} % of the plans optimal, "
                  f"{row['subopt']:5.2f}{spread} % suboptimality, {row['generated']:13,.0f} nodes "
                  f"per instance over {row['runs']} run(s) (paper: {row['paper']['optimal']} %, "
                  f"{row['paper']['subopt']} %, {row['paper']['generated']:,} nodes)")

# %%
# --- 4. The two mechanisms after 14 iterations ----------------------------------------------------
# Tutorial 07 named them: while training, plan with y^α, not the mean, using σ_a where the network's
# mean lies below y^q (a) and σ_t = √ε beyond it (b). Here the training-time heuristic as it planned
# the last iteration, against round(10μ), on the states along the stored optimal solutions of the
# same four instances, h* = 1..50 (known exactly: a suffix of an optimal plan is optimal).
probe = np.array([data.optimal_plan(i.state, moves[i.id])[-1 - k]
                  for i in korf for k in range(1, max(CUTS) + 1)])
h_star = np.tile(np.arange(1, max(CUTS) + 1), len(korf))
training_h = learner.planning_heuristic()                      # α, y^q as in the last iteration
over_alpha = training_h(probe) > h_star
over_mean = LikelyAdmissible(learner.ffnn, learner.encoding)(probe) > h_star
familiar = 10 * learner.ffnn.predict(learner.encoding(probe))[0] < learner.y_q
print(f"\nafter {len(log)} iterations (α = {learner.alpha}, y^q = {learner.y_q:.1f}), {len(probe)} "
      f"states with h* = 1..{max(CUTS)}: h > h* with round(10μ) / with the training-time y^α")
for name, branch in (("(a) 10μ < y^q", familiar), ("(b) 10μ >= y^q", ~familiar)):
    print(f"  {name}: {branch.sum():3d} states, {over_mean[branch].sum():3d} / "
          f"{over_alpha[branch].sum():3d}")
# The mean overestimates on some of these states; the training-time heuristic, below the mean by
# σ_a·Φ⁻¹(α) in branch (a) and by √ε·Φ⁻¹(α) in branch (b), on fewer. Fewer overestimates along a
# plan mean fewer plans longer than optimal, so labels closer to h* for the next Update: the point
# of both.

# %%
# --- figure ---------------------------------------------------------------------------------------
it = np.arange(1, len(log) + 1)
fig, axes = plt.subplots(1, 5, figsize=(18, 3.6))
axes[0].bar(it, [e["solved"] for e in log],
            color=["C0" if e["solved"] >= config.solved_threshold else "C3" for e in log])
axes[0].axhline(config.solved_threshold, color="r", lw=0.8,
                label=f"threshold {config.solved_threshold}")
axes[0].set(title="tasks solved (of 10)", ylim=(0, 10.5))
axes[1].plot(it, alphas, "o-")
axes[1].axhline(config.alpha_min, color="k", lw=0.8, ls=":", label="floor 0.5")
axes[1].set(title="α used for planning", ylim=(0.45, 1.01))
axes[2].semilogy(it, [e["beta_after"] for e in log], "o-", color="C1")
axes[2].plot([d for d in decays], [log[d - 1]["beta_after"] for d in decays], "v", color="k",
             label="decayed in this Update")
axes[2].set(title="β after the iteration's Update")
for e in log:
    steps = [t["steps"] for t in e["tasks"]]
    axes[3].plot([e["iteration"]] * len(steps), steps, ".", color="0.6")
axes[3].plot(it, [np.mean([t["steps"] for t in e["tasks"]]) for e in log], "o-", color="C2",
             label="mean")
axes[3].set(title="GenerateTaskPrac steps per task")
axes[4].plot(it, [e["buffer"] for e in log], "o-", color="C4")
axes[4].set(title="memory buffer (records)")
for ax in axes:
    ax.set_xlabel("iteration")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="lower left" if ax is axes[1] else "best")
fig.suptitle(f"LearnHeuristicPrac on the 15-puzzle, reduced: {config.num_iter} iterations, "
             f"{config.node_limit:,} nodes per task", fontsize=10)
fig.tight_layout()
out = figure_path("10_learn_heuristic")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
name = f"y^{ALPHA}"
assert log[0]["wunn_blocks"] == config.wunn_blocks and log[0]["beta_after"] == config.beta0, \
    "the first Update trains the WUNN for all its steps and never decays β"
assert all(e["solved"] >= config.solved_threshold for e in log if e.get("beta_decayed")), \
    "β decays only in iterations that solved enough tasks"
assert all(e["wunn_blocks"] == config.wunn_blocks for e in log if e.get("beta_decayed")), \
    "... and whose WUNN ran all its blocks"
assert len(decays) <= config.num_iter - 2 and learner.beta > config.beta_final, \
    "at most NumIter − 2 decays, so β never reaches β_NumIter"
assert all(np.isclose(b, max(a - config.delta, config.alpha_min)
                      if e["solved"] < config.solved_threshold else a)
           for e, a, b in zip(log, alphas, alphas[1:] + [learner.alpha])), \
    "α falls after each failing iteration"
assert learner.solved_fraction() > 0.5, "the run should solve most of its training tasks"
assert (np.mean([t["steps"] for t in log[-1]["tasks"]])
        > 5 * np.mean([t["steps"] for t in log[1]["tasks"]])), \
    "GenerateTaskPrac's tasks should grow as the heuristic learns"
assert all(found[name, k] == (PER_CUT, PER_CUT) for k in CUTS if k <= largest // 2), \
    "well within its labels the heuristic solves every task, optimally"
assert found[name, max(CUTS)][0] <= found[name, min(CUTS)][0], "... and far beyond them, no more"
assert all(found["MD", k][1] == found["MD", k][0] for k in CUTS), "MD's plans are optimal"
assert all(over_alpha[b].sum() <= over_mean[b].sum() for b in (familiar, ~familiar)), \
    "in each branch, the training-time y^α overestimates no more often than the mean"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set NUM_ITER = 8: the run stops before its tasks outgrow the budget, so α stays at 0.99; its
#    labels stop shorter, and part 3's learned heuristic fails sooner as k grows.
# 2. Set TASK_SECONDS = 0.05 (55,000 nodes per task): more iterations solve fewer than 6 tasks, and
#    α falls further than with 0.1.
# 3. Set ALPHA = 0.5: part 3 tests the mean, a stronger heuristic than y^0.9 (a larger h prunes
#    more): it solves more of the tasks 30 moves from the goal, with fewer nodes where both solve.
