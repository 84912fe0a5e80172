"""Tutorial 07: the pieces of LearnHeuristicPrac, and its first iteration, before anything is trained.

LearnHeuristicPrac (paper Alg. 2 in its practical form, §4 and the supplementary material; the authors'
`Program.Train`; `la.learn`) repeats one iteration NumIter times:

    for each of NumTasksPerIter = 10 tasks:
        generate a task, and solve it with IDA* and the planning heuristic h = max(round(y^α), 0) (tutorial 06),
        within a budget; keep the plan if one is found
    if fewer than NumTasksPerIterThresh = 6 were solved:  α := max(α − Δ, 0.5)
    Update: add the plans to the memory buffer; train the FFNN on the buffer; train the WUNN until σ_e < 0.8
            on every record, or, if it cannot, decay β; y^q := the 0.95-quantile of the buffer's labels

This tutorial takes that iteration apart, piece by piece, and runs the first one; tutorial 08 shows how
GenerateTaskPrac makes the tasks of every later iteration, and tutorial 09 runs the whole loop.

Parameters. The paper trains 15-puzzle heuristics in two experiments with different settings, and its
parameters are spread over §4, §5 and the supplementary material. Part 1 prints them side by side, with the
scale the next tutorials use, so that one can always tell which value belongs where.

Tasks. Three ways, all walks back from the goal (tutorial 01):
  * LengthInc, the baseline of Arfaee et al.: in iteration n = 1, 2, ... each task is a walk of LengthInc·n
    random steps;
  * GenerateTaskPrac (tutorial 08): a walk steered by the WUNN's σ_e, stopping where σ_e reaches ε = 1;
  * the first iteration, before anything is trained: 1-step walks. An untrained WUNN's σ_e says nothing, so
    GenerateTaskPrac takes over only once the buffer has held something (the authors' `Program.Train`). The
    15-puzzle's goal has the blank in a corner, so there are exactly two such tasks, and ten draws repeat them.

The first iteration, before anything is trained (what the paper leaves to the reader). The FFNN's outputs are
whatever its random initial weights give, and there are no labels yet, so y^q = −∞: every state takes the
σ_t = 1 branch of the training-time rule (tutorial 06), h = max(round(10μ − 2.33), 0), with Φ⁻¹(0.99) = 2.33 for
α0 = 0.99. Such an h is nonsense, but a task one move from the goal is solved whatever h says: IDA* raises its
bound until the goal falls within it. The first Update then trains the WUNN for all 101 blocks of 50 steps (the
paper says 5,000 steps), with no early stop, and β does not decay, whatever happens.

The memory buffer. A solved plan s_0, ..., s_L adds the records (s_i, L − i): every state with its cost to the
goal along the plan, the goal itself included with label 0 (the authors' code does this, the paper's Alg. 2
leaves the goal out; without it nothing teaches the network h(goal) = 0, and IDA* recognises the goal only once
its bound covers h(goal)). A record already present with the same label is not added again; the same state with
another label is a second record. Beyond MemoryBufferMaxRecords = 25,000 records the oldest go.

The Update (the authors' `NNBayesHeuristic.Update`). The FFNN takes full-batch Adam steps on the whole buffer,
cycled to 25,000 rows, until every record's 10μ is within 0.5 of its label or TrainIter = 1000 steps have run.
The WUNN trains in blocks of 50 minibatch steps, drawing records with weight e^σ_e where σ_e is still at least
√(κε) = 0.8 and e^−1 elsewhere (paper §5), and stops as soon as σ_e < 0.8 on every record, or after 101 blocks.

The α schedule. α0 = 0.99 is very cautious: a low h makes IDA* generate many nodes. When fewer than 6 of an
iteration's 10 tasks are solved within the budget, α falls by Δ = 0.05 for the next iteration, trading
admissibility for speed, and never below 0.5, where y^α is the mean. It never rises again.

β and its decay. β weighs the WUNN's prior against its data (Eq. 2, tutorial 05). It starts at β0 = 0.05 and is
multiplied by γ = (β_NumIter/β0)^(1/NumIter), with β_NumIter = 1e-5, in an Update where (i) the WUNN ran all
101 blocks without bringing every record's σ_e below 0.8, (ii) it is not the first Update, and (iii) at least 6
tasks were solved. A smaller β lets the data outweigh the prior, σ_e falls further, and the next walks go further
before σ_e reaches ε: tasks get harder (§4). When tasks are already failing, β is left alone. γ depends on NumIter,
so a short run decays β in fewer, bigger steps; β reaches 1e-5 only if it decays in every iteration.

Budgets. The paper stops each search after t_max seconds of the authors' C# (60 s in the suboptimality
experiment, 1 s in the efficiency one). `la` counts generated nodes instead, at the 1.1 M nodes per second the
paper's Table 1 implies, so results do not depend on the machine (`la.config`).

Run from the repository root:  python tutorials/07_first_iteration.py   (under a minute)
"""
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import la  # noqa: E402,F401  (before NumPy, so that it runs with one BLAS thread: la/__init__.py)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import norm

from la.buffer import MemoryBuffer
from la.config import LearnConfig, node_budget
from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.experiments.runs import cli  # noqa: E402
from la.heuristics.classical import Manhattan
from la.features import OneHot
from la.learn import Learner
from la.plots.style import tutorial_figure_path
from la.search import check_plan, ida_star
from la.tasks import random_walk_tasks

SEED = 7
puzzle = make_domain("15-puzzle")

# --- 1. Which parameter belongs to which experiment -------------------------------------------------------------
# The suboptimality experiment makes Table 1 (tutorial 10), the efficiency experiment Table 2 (tutorial 11).
# Tutorials 09 and 10 train the suboptimality network, cut down: 14 iterations, and a tenth of the efficiency
# experiment's budget per task, so that the tasks outgrow the budget within a short run and the α schedule has
# something to do; each FFNN step repeats the buffer to 2,500 rows rather than 25,000, and the buffer is capped at
# 2,500 records to match. This tutorial uses the same settings; tutorial 11 cuts the efficiency experiment down.
config = replace(LearnConfig(), num_iter=14, node_limit=node_budget(0.1), ffnn_batch=2_500, buffer_size=2_500)
rows = [("NumIter", "50", "20", config.num_iter),
        ("t_max per task (as nodes)", "60 s = 66,000,000", "1 s = 1,100,000", f"{config.node_limit:,}"),
        ("FFNN outputs: plans with", "2: y^α, α0 = 0.99", "1: the mean", f"{config.ffnn.n_out}: y^α, α0 = "
                                                                         f"{config.alpha0}"),
        ("FFNN dropout", "2.5 %", "none", f"{config.ffnn.dropout * 100:g} %"),
        ("MaxSteps", "1000", "1000", config.max_steps),
        ("buffer cap = FFNN rows", "25,000", "25,000", f"{config.buffer_size:,}"),
        ("tasks", "GenerateTaskPrac", "GTP or LengthInc", "GenerateTaskPrac"),
        ("test tasks", "Korf's 100", "walks of 1..100 steps", "Korf's, cut to 10-50 moves")]
print(f"{'':28}{'suboptimality (Table 1)':25}{'efficiency (Table 2)':24}tutorials 07, 09, 10")
for name, sub, eff, ours in rows:
    print(f"{name:28}{sub:25}{eff:24}{ours}")
print(f"shared by both: ε {config.epsilon}, NumTasksPerIter {config.tasks_per_iter}, threshold "
      f"{config.solved_threshold}, Δ {config.delta}, β0 {config.beta0}, β_NumIter {config.beta_final}, κ "
      f"{config.kappa}, q {config.q}, K {config.wunn.K}, S {config.wunn.S}, MiniBatchSize {config.minibatch}, "
      f"TrainIter {config.train_iter}, MaxTrainIter {config.wunn_blocks * config.wunn_block_steps:,}, "
      f"hidden units {config.ffnn.n_hidden}, learning rates {config.ffnn.lr} (FFNN) and {config.wunn.lr} (WUNN)")

# --- 2. Tasks ---------------------------------------------------------------------------------------------------
rng = np.random.default_rng(SEED)
print()
for length_inc in (1, 4, 10):
    walks = [random_walk_tasks(puzzle, 1, length_inc * n, rng)[0].steps for n in range(1, 6)]
    print(f"LengthInc = {length_inc:2d}: the tasks of iterations 1-5 are walks of {walks} steps")
learner = Learner(puzzle, config, np.random.default_rng(SEED), OneHot(puzzle))
first_tasks = [learner.make_task(0) for _ in range(config.tasks_per_iter)]
_, _, one_step = puzzle.expand(puzzle.goal[None])                      # the only possible first tasks
print(f"the first iteration, untrained: {len(first_tasks)} walks of {sorted({t.steps for t in first_tasks})} "
      f"step; {len({t.start.tobytes() for t in first_tasks})} different starts (the goal has {len(one_step)} "
      f"neighbours)")

# --- 3. The memory buffer, on three small plans -----------------------------------------------------------------
# A toy cap of 6 records, so that the oldest can be seen to go.
buffer = MemoryBuffer(cap=6, size=puzzle.size)
md = Manhattan(puzzle)
a, b = (ida_star(puzzle, md, s).plan for s in random_walk(puzzle, 3, rng, n=2))
_, _, children = puzzle.expand(a[:1])
away = children[(children != a[1]).any(axis=1)][0]          # a neighbour of A's start, off A's path
detour = np.concatenate([a[:1], away[None], a])             # step away and back: legal, two moves too long
check_plan(puzzle, detour[0], detour)
for name, plan in (("plan A", a), ("plan A again", a), ("A with a step away and back", detour), ("plan B", b)):
    added = buffer.add_plans([plan])
    print(f"\nadd {name} (cost {len(plan) - 1}): {added} new records, the buffer holds {len(buffer)}:")
    for s, y in zip(buffer.states(), buffer.labels()):
        print(f"  [{cli.state_text(s)}]  cost-to-goal {y}")
# Plan A again adds nothing. The detour, the kind of plan a weak heuristic finds, labels A's start two moves too
# high: a second record for that state, and the start of aleatoric noise (tutorial 04). Plan B then pushes the
# oldest records out.

# --- 4. The first iteration ---------------------------------------------------------------------------------------
first = np.concatenate([puzzle.goal[None], one_step])
mu, _ = learner.ffnn.predict(learner.encoding(first))
z = norm.ppf(config.alpha0)                               # 2.33: y^α = 10μ − σ_t·Φ⁻¹(α), σ_t = 1
h = learner.planning_heuristic()(first)
print(f"\nuntrained: y^q = {learner.y_q}, α = {learner.alpha}, β = {learner.beta}; the planning heuristic on "
      f"the goal and the two 1-step tasks:")
for name, m, v in zip(("goal", "blank right", "blank down"), mu, h):
    print(f"  {name:12} 10μ = {10 * m:6.2f}   10μ − {z:.2f} = {10 * m - z:6.2f}   h = {v}")

entry = learner.run_iteration()
states, labels = learner.buffer.states(), learner.buffer.labels()
walks, costs = sorted({t["steps"] for t in entry["tasks"]}), sorted({t["cost"] for t in entry["tasks"]})
print(f"iteration 1: {entry['solved']} of {config.tasks_per_iter} tasks solved (walk lengths {walks}, plan costs "
      f"{costs}); the buffer holds {len(labels)} records:")
for s, y in zip(states, labels):
    print(f"  [{cli.state_text(s)}]  cost-to-goal {y}")
print(f"  ({entry['solved']} plans, {len(labels)} records: repeated records are dropped)")
print(f"the first Update: FFNN {entry['ffnn_steps']} steps, WUNN {entry['wunn_blocks']} blocks of 50 steps "
      f"(no early stop), β {entry['beta']} → {entry['beta_after']} (no decay); y^q = {learner.y_q:.1f}")
mu, _ = learner.ffnn.predict(learner.encoding(first))
sigma_e = learner.wunn.predict_exact(learner.encoding(first))[1]
print("after it: 10μ = " + ", ".join(f"{10 * m:.2f}" for m in mu) + " and σ_e = "
      + ", ".join(f"{s:.2f}" for s in sigma_e) + " on the goal and the two 1-step tasks")
# Compare σ_e with the Update's target 0.8: at β0 = 0.05 the prior weighs heavily against three records, which is
# why the first Update runs all its blocks whatever happens, and why the next iteration's GenerateTaskPrac walks
# (tutorial 08) stop after a step or two until β has decayed a few times (tutorial 09).

# --- 5. The α and β schedules, as numbers -----------------------------------------------------------------------
alphas = [config.alpha0]
while alphas[-1] > config.alpha_min:
    alphas.append(round(max(alphas[-1] - config.delta, config.alpha_min), 12))
print(f"\nα after 0, 1, 2, ... iterations that solve fewer than {config.solved_threshold} tasks: "
      + ", ".join(f"{a:g}" for a in alphas) + f" (the floor after {len(alphas) - 1})")
for num_iter in (50, 20, config.num_iter):
    gamma = replace(config, num_iter=num_iter).gamma
    print(f"NumIter = {num_iter:2d}: γ = {gamma:.4f}; β after 1, 5, 10 decays: "
          + ", ".join(f"{config.beta0 * gamma ** k:.2e}" for k in (1, 5, 10)))

# An Update that may decay β: ten plans of 3-step tasks (solved with Manhattan distance, so optimal) given to the
# Update as a second iteration's would be. Either the WUNN gets σ_e below 0.8 on every record before 101 blocks,
# and β stays, or it runs all 101 and β is multiplied by γ.
plans = [ida_star(puzzle, md, s).plan for s in random_walk(puzzle, 3, rng, n=config.tasks_per_iter)]
beta_before = learner.beta
second = learner.update(plans, update_beta=True)
print(f"a second Update on 10 plans of 3 moves: {second['added']} new records; WUNN {second['wunn_blocks']} "
      f"blocks; β {beta_before} → {learner.beta:.4g} ({'decayed' if second['beta_decayed'] else 'kept'})")

# --- figure ------------------------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
axes[0].plot(range(len(alphas)), alphas, "o-")
axes[0].set(title="α schedule: one step per iteration that solves < 6 tasks",
            xlabel="iterations that solved fewer than 6 tasks", ylabel="α", ylim=(0.45, 1.01))
for num_iter in (50, 20, config.num_iter):
    gamma = replace(config, num_iter=num_iter).gamma
    axes[1].semilogy(range(num_iter + 1), config.beta0 * gamma ** np.arange(num_iter + 1), label=f"NumIter {num_iter}")
axes[1].axhline(config.beta_final, color="k", lw=0.8, ls=":", label="β_NumIter = 1e-5")
axes[1].set(title="β if it decays in every Update", xlabel="decays", ylabel="β")
axes[1].legend(fontsize=8)
fig.tight_layout()
out = tutorial_figure_path(__file__)                    # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# --- the point, loosely --------------------------------------------------------------------------------------------
assert {t.steps for t in first_tasks} == {1}, "the first iteration's tasks are 1-step walks"
assert all(y == (0 if (s == puzzle.goal).all() else 1) for s, y in zip(states, labels)), \
    "the first plans give the goal the label 0 and its neighbours 1"
assert entry["solved"] == config.tasks_per_iter, "1-step tasks are solved whatever the untrained h says"
assert entry["wunn_blocks"] == config.wunn_blocks and entry["beta_after"] == config.beta0, \
    "the first Update trains the WUNN for all its steps and never decays β"
assert second["beta_decayed"] == (second["wunn_blocks"] == config.wunn_blocks), \
    "β decays exactly when the WUNN ran all its blocks (and enough tasks were solved)"
assert alphas[-1] == config.alpha_min and len(alphas) == 11, "α reaches its floor of 0.5 after 10 failing iterations"
