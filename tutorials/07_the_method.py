"""Tutorial 07: the method on one page. Alg. 1 and Alg. 2 with each line tied to `la`, run for two
iterations.

Tutorials 00–06 built the pieces: IDA* (02), the planning network FFNN with its mean μ and aleatoric
spread σ_a (03, 04, Eq. 1), the weight-uncertainty network WUNN with its epistemic σ_e (05, Eq. 2)
and the likely-admissible heuristic y^α with the training-time quantile rule (06, Eqs. 3–4). Here is
how the paper puts them together. Its §3 states two conceptual algorithms, GenerateTask (Alg. 1) and
LearnHeuristic (Alg. 2); §4 makes them practical (the paper's GenerateTaskPrac and
LearnHeuristicPrac, printed in its supplementary material, which we did not have: this form follows
§4–§5 and, where they are silent, the authors' code). [l. n] is the line of the paper's Alg. 1 or
Alg. 2 that a step carries out.

Three of the paper's constants appear in the pseudocode before part 1 prints them all (§4–§5;
tutorials/GLOSSARY.md): NumIter, the number of iterations of the training loop (50 for Table 1);
NumTasksPerIter, the tasks generated and planned per iteration (10); and MaxSteps (1,000), the cap
on GenerateTaskPrac's walk back from the goal, which replaces Alg. 1's record of visited states: a
walk that has not reached a state with σ_e >= ε after MaxSteps − 1 moves stops where it is (the
count is checked before each move, as in the authors' code).

GenerateTaskPrac: a training task, found by walking back from the goal    la
  1  s := the goal; u := 0; count := 0                   [l. 3]      la.tasks.generate_task_prac
  2  while u < ε:                                        [l. 5, 17, 22]
  3     count += 1; stop if count >= MaxSteps            §4 (replaces the visited set, l. 4, 6–9)
  4     C := E_undo(s), the states one move back from s  [l. 10–11]  domain.expand(s, previous move)
          (E_rev(s) here: tutorial 01), except the one the
          walk came from (§4)
  5     σ_e(c) for each c in C: the spread of K = 100    [l. 12–15]  WUNN.predict(encoding(C), K)
          sampled WUNN outputs
  6     draw c from softmax(σ_e) over C: unknown states  [l. 16]     la.nn.layers.softmax
          are more likely
  7     s := c; u := σ_e(c)                              [l. 17, 21]
  8  return the task "from s to the goal"                [l. 18–19]  la.tasks.Task

LearnHeuristicPrac: the training loop                                     la
  1  the model M of Eq. (4), as two untrained networks:  [l. 4–5]     la.learn.Learner
     the FFNN (μ, σ_a) and the WUNN (σ_e); an empty
     memory buffer; α := α0 = 0.99, β := β0 = 0.05,
     y^q := −∞
  2  repeat NumIter times:                               [l. 6, 19]   la.learn.learn_heuristic_prac
  3     h := max(round(y^α), 0), with the quantile rule  [l. 9]       Learner.planning_heuristic
  4     NumTasksPerIter = 10 times:                      [l. 7]       Learner.run_iteration
  5        task := GenerateTaskPrac (a 1-move random     [l. 8]       Learner.make_task
           walk until something has been trained)
  6        plan := IDA*(task, h) within the budget;      [l. 9]       la.search.ida_star
           keep it
  7     if fewer than NumTasksPerIterThresh = 6          §4           Learner.run_iteration
        were solved:
           α := max(α − Δ, 0.5), Δ = 0.05
  8     Update:                                          [l. 18]      Learner.update
  9        each plan's states with their cost-to-goal    [l. 10–16]   MemoryBuffer.add_plans
           along the plan join the memory buffer
           (the goal too)
 10        the FFNN trains until it predicts every       [l. 18]      Learner.train_ffnn
           record within 0.5, or for
           TrainIter = 1000 steps
 11        the WUNN trains until σ_e < √(κε) = 0.8 on    [l. 18], §4  Learner.train_wunn
           every record; if it cannot, and if this is
           not the first Update and at least
           NumTasksPerIterThresh tasks were solved,
           β := γ·β (tutorial 08)
 12        y^q := the 0.95-quantile of the               §4           Learner.update
           buffer's labels

Tutorial 08 takes the Update (lines 8–12) and β apart, 09 follows GenerateTaskPrac step by step, 10
runs the loop for 14 iterations. Part 1 lists the constants; part 2 runs the loop's first two
iterations, printing every quantity; part 3 names the two mechanisms that keep errors from
compounding, and shows them at work.

Run from the repository root:  python tutorials/07_the_method.py
"""
import sys
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path, state_text  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import norm  # noqa: E402

from la.config import LearnConfig, node_budget  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.domains.walk import random_walk  # noqa: E402
from la.features import OneHot  # noqa: E402
from la.heuristics.classical import Manhattan  # noqa: E402
from la.heuristics.likely_admissible import LikelyAdmissible  # noqa: E402
from la.learn import Learner  # noqa: E402
from la.search import check_plan, ida_star  # noqa: E402
from la.tasks import generate_task_prac  # noqa: E402

# %%
SEED = 8                    # tutorial 10 trains with this seed and these settings,
                            # for 14 iterations
EPSILON = 1.0               # ε, the paper's value (exercise 3 changes it)
ALPHA0 = 0.99               # α0, the paper's value (exercise 2 changes it)
puzzle = make_domain("15-puzzle")

# %%
# --- 1. The constants, and which experiment they belong to ----------------------------------------
# The paper trains 15-puzzle heuristics in two experiments: the suboptimality one (Table 1,
# tutorial 12) and the efficiency one (Table 2, tutorial 13). Tutorials 07–10 and 12 cut the
# suboptimality run down so that it takes a minute (tutorial 11 runs its settings unreduced, on the
# 8-puzzle): 14 iterations, a budget per task of a tenth of the efficiency
# experiment's, and smaller FFNN steps: each full-batch step trains on the buffer's records repeated
# in turn until they fill 2,500 rows, not the paper's 25,000 (the fewer the records, the more copies
# of each; the buffer is capped at 2,500 to match). Budgets: the paper stops a search after t_max
# seconds of the authors' C#; `la` counts generated nodes instead, at the 1.1 M nodes per second the
# paper's Table 1 implies (`la.config`), so that results do not depend on the machine.
config = replace(LearnConfig(), num_iter=14, node_limit=node_budget(0.1), ffnn_batch=2_500,
                 buffer_size=2_500, epsilon=EPSILON, alpha0=ALPHA0)
rows = [("NumIter", "50", "20", config.num_iter),
        ("t_max per task, as nodes", "60 s = 66,000,000", "1 s = 1,100,000",
         f"{config.node_limit:,}"),
        ("FFNN outputs: plans with", "2: y^α from α0 = 0.99", "1: the mean",
         f"{config.ffnn.n_out}: y^α from α0 = {config.alpha0}"),
        ("FFNN dropout", "2.5 %", "none", f"{config.ffnn.dropout * 100:g} %"),
        ("MaxSteps", "1000", "1000", config.max_steps),
        ("buffer cap = FFNN rows", "25,000", "25,000", f"{config.buffer_size:,}"),
        ("tasks", "GenerateTaskPrac", "GTP or LengthInc", "GenerateTaskPrac")]
print(f"{'':26}{'suboptimality (Table 1)':25}{'efficiency (Table 2)':23}tutorials 07-10, 12")
for name, sub, eff, ours in rows:
    print(f"{name:26}{sub:25}{eff:23}{ours}")
print(f"both: ε {config.epsilon}, NumTasksPerIter {config.tasks_per_iter}, NumTasksPerIterThresh "
      f"{config.solved_threshold}, Δ {config.delta}, β0 {config.beta0}, "
      f"β_NumIter {config.beta_final}, κ {config.kappa}, q {config.q}, K {config.wunn.K}, "
      f"TrainIter {config.train_iter}, WUNN steps at most "
      f"{config.wunn_blocks * config.wunn_block_steps:,} in blocks of {config.wunn_block_steps}, "
      f"minibatches of {config.minibatch}, {config.ffnn.n_hidden} hidden units, "
      f"prior N({config.wunn.prior_mu:g}, {config.wunn.prior_var:g})")

# %%
# --- 2. Two iterations, every quantity printed ----------------------------------------------------
# The body of `Learner.run_iteration`, written out with a print after each line. The learner keeps
# the state: networks, optimisers, buffer, α, β, y^q, and one random generator for everything the
# loop samples.
learner = Learner(puzzle, config, np.random.default_rng(SEED), OneHot(puzzle))
md = Manhattan(puzzle)
_, _, one_move = puzzle.expand(puzzle.goal[None])  # the goal's two neighbours: blank right, down
trained_before, traces = [], []


def sigma_e_exact(states):
    """The WUNN's σ_e in closed form (tutorial 05): printing it draws no random numbers, so the run
    is not changed."""
    return learner.wunn.predict_exact(learner.encoding(states))[1]


for n in range(2):
    print(f"\n=== iteration {n + 1}: α = {learner.alpha}, β = {learner.beta:.4g}, "
          f"y^q = {learner.y_q} (buffer: {len(learner.buffer)} records)")
    h = learner.planning_heuristic()                                          # line 3
    if n == 0:
        # Nothing is trained: the FFNN's outputs come from its random initial weights, and with
        # y^q = −∞ every state takes the quantile rule's second branch, σ_t = √ε:
        # h = max(round(10μ − √ε·Φ⁻¹(α)), 0).
        probe = np.concatenate([puzzle.goal[None], one_move])
        mu, _ = learner.ffnn.predict(learner.encoding(probe))
        print(f"line 3, untrained: h = max(round(10μ − {np.sqrt(config.epsilon):g}·"
              f"{norm.ppf(config.alpha0):.2f}), 0) "
              "on the goal and the two 1-move tasks: " + ", ".join(
                  f"10μ = {10 * m:.2f} → h = {v}" for m, v in zip(mu, h(probe))))
    plans = []
    for i in range(config.tasks_per_iter):                                    # line 4
        if learner.trained:                                                   # line 5
            task = generate_task_prac(puzzle, learner.wunn, learner.rng, config.epsilon,
                                      config.max_steps, config.wunn.K, trace=True,
                                      encoding=learner.encoding)              # = make_task(n)
            traces.append(task.trace)
            walk = " → ".join(f"{s['sigma_e'][s['chosen']]:.2f}" for s in task.trace)
            made = f"GenerateTaskPrac: {task.steps} move(s), σ_e of each state it stepped to {walk}"
        else:
            task = learner.make_task(n)
            made = "a 1-move random walk (nothing trained yet)"
        result = ida_star(puzzle, h, task.start, node_limit=config.node_limit,
                          time_limit=config.time_limit, order=config.order)   # line 6
        if result.solved:
            check_plan(puzzle, task.start, result.plan)
            plans.append(result.plan)
        optimal = ida_star(puzzle, md, task.start).cost                       # for us, not the loop
        print(f"task {i + 1:2d}: {made}; IDA* {'solved it' if result.solved else 'ran out'} "
              f"with cost {result.cost} (optimal {optimal}), {result.generated} nodes")
    update_beta = len(plans) >= config.solved_threshold                       # line 7
    if not update_beta and learner.alpha is not None:
        learner.alpha = round(max(learner.alpha - config.delta, config.alpha_min), 12)
    print(f"line 7: {len(plans)} of {config.tasks_per_iter} solved, "
          + (f"at least {config.solved_threshold}: α stays {learner.alpha}" if update_beta else
             f"fewer than {config.solved_threshold}: α falls to {learner.alpha}"))
    trained_before.append(learner.trained)
    before = len(learner.buffer)
    beta = learner.beta
    update = learner.update(plans, update_beta)                               # lines 8-12
    states, labels = learner.buffer.states(), learner.buffer.labels()
    print(f"line 9: {update['added']} new records, the buffer holds {len(labels)}:")
    for s, y in zip(states[before:], labels[before:]):
        print(f"    [{state_text(s)}]  cost-to-goal {y}")
    mu, _ = learner.ffnn.predict(learner.encoding(states))
    print(f"line 10: the FFNN took {update['ffnn_steps']} full-batch steps; "
          f"now every record is within {np.abs(10 * mu - labels).max():.2f} of its label")
    sigma_e = sigma_e_exact(states)
    print(f"line 11: the WUNN trained for {update['wunn_blocks']} blocks of "
          f"{config.wunn_block_steps} steps"
          + (" (all of them: the first Update never stops early)" if not trained_before[-1] else "")
          + f"; σ_e on the records from {sigma_e.min():.2f} to {sigma_e.max():.2f} (target < "
          f"{config.sigma_e_target:.1f}); β {beta:.4g} → {learner.beta:.4g}"
          + (" (decayed: all blocks ran, not the first Update, enough tasks solved)"
             if update["beta_decayed"] else " (kept)"))
    print(f"line 12: y^q = {learner.y_q:.2f}, the {config.q}-quantile of the labels "
          f"{sorted(set(labels.tolist()))}")

# The loop written out above is the library's: the same seed and settings through
# `Learner.run_iteration` end in the same buffer, α, β, y^q and weights.
twin = Learner(puzzle, config, np.random.default_rng(SEED), OneHot(puzzle))
for _ in range(2):
    twin.run_iteration()
same = (np.array_equal(twin.buffer.states(), learner.buffer.states())
        and np.array_equal(twin.buffer.labels(), learner.buffer.labels())
        and (twin.alpha, twin.beta, twin.y_q) == (learner.alpha, learner.beta, learner.y_q)
        and all(np.array_equal(twin.ffnn.params[k], learner.ffnn.params[k])
                for k in learner.ffnn.params)
        and all(np.array_equal(twin.wunn.params[k], learner.wunn.params[k])
                for k in learner.wunn.params))
print(f"\nLearner.run_iteration, twice from the same seed, ends in the same state: {same}")

# %%
# --- 3. Two mechanisms against compounding errors -------------------------------------------------
# Compounding (paper §1, tutorial 00): a heuristic that overestimates on a task's optimal plan can
# make IDA* return a longer plan; its labels lie above h*; the next network learns them and
# overestimates more. The paper's answer (§1, §3–§4) combines both uncertainties in the planning
# heuristic, so that it stays likely admissible:
#   (a) aleatoric: plan with y^α = 10μ − 10σ_a·Φ⁻¹(α), not the mean, where the network has seen such
#       states (10μ < y^q);
#   (b) epistemic: where it has not (10μ >= y^q), its σ_a is not to be trusted and σ_e would be
#       large but is too slow to compute inside IDA*, so σ_t = √ε, the smallest σ_e at which
#       GenerateTaskPrac calls a state unknown: h = 10μ − √ε·Φ⁻¹(α).
# Shown on the network after two iterations, on states 1–12 moves from the goal (the ends of 20
# random walks of each length, each state once) whose h* IDA* with Manhattan distance finds
# (admissible, so exact): which branch each state takes, and how often each heuristic overestimates
# there.
rng = np.random.default_rng([SEED, 1])
probe = np.unique(random_walk(puzzle, np.repeat(np.arange(1, 13), 20), rng, n=240), axis=0)
probe = probe[~(probe == puzzle.goal).all(axis=1)]               # walks can end at the goal
h_star = np.array([ida_star(puzzle, md, s).cost for s in probe])
mean_h = LikelyAdmissible(learner.ffnn, learner.encoding)(probe)  # round(10μ)
alpha_h = learner.planning_heuristic()(probe)                     # (a) and (b)
mu, sigma_a = learner.ffnn.predict(learner.encoding(probe))
familiar = 10 * mu < learner.y_q
over_mean, over_alpha = mean_h > h_star, alpha_h > h_star
print(f"\nafter 2 iterations (α = {learner.alpha}, y^q = {learner.y_q:.2f}), {len(probe)} states "
      f"with h* = {h_star.min()}..{h_star.max()}:")
for name, branch in (("(a) 10μ < y^q, σ_t = σ_a", familiar),
                     ("(b) 10μ >= y^q, σ_t = √ε", ~familiar)):
    print(f"  {name}: {branch.sum():3d} states, "
          f"h* {h_star[branch].min() if branch.any() else '-'}.."
          f"{h_star[branch].max() if branch.any() else '-'}; "
          f"h > h* with round(10μ) on {over_mean[branch].sum()}, "
          f"with y^{learner.alpha} on {over_alpha[branch].sum()}" + (
              f"; median 10σ_a {np.median(10 * sigma_a[branch]):.2f}" if branch.any() else ""))
weaker = np.mean(alpha_h / h_star) < np.mean(mean_h / h_star)
print(f"mean h/h*: {np.mean(mean_h / h_star):.2f} with round(10μ), "
      f"{np.mean(alpha_h / h_star):.2f} with y^α: "
      + ("the caution costs strength (a weaker h prunes less, tutorial 06)" if weaker else
         "y^α is no weaker than the mean here, so the caution costs no strength"))
for k in np.flatnonzero(over_mean | over_alpha):
    print(f"  h* = {h_star[k]:2d}: 10μ = {10 * mu[k]:5.2f}, 10σ_a = {10 * sigma_a[k]:4.2f}, branch "
          f"{'a' if familiar[k] else 'b'}: round(10μ) = {mean_h[k]}, y^α gives h = {alpha_h[k]}")
# Reading it, from the counts just printed: on the states where round(10μ) overestimates, did the
# branch each took keep y^α at or below h*?
kept = over_mean & ~over_alpha
print(f"round(10μ) overestimates on {over_mean.sum()} of the {len(probe)} states; y^α on "
      f"{over_alpha.sum()}, on {(over_alpha & ~over_mean).sum()} of them where the mean does not; "
      f"on {kept.sum()} of the {over_mean.sum()} the branch kept y^α at or below h*"
      + ("" if over_mean.any() else " (none to keep: the young network's mean overestimates "
         "nowhere here)"))
# Whether fewer overestimates give better plans shows once the network is trained enough to
# overestimate often: tutorial 00 shows it on the 8-puzzle with exact h*, tutorial 10 counts the
# branches again after 14 iterations, and tutorial 12 compares the rows α with the single-output
# network, which plans with the mean.

# %%
# --- figure: the two iterations' records and the heuristic after them -----------------------------
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
levels = np.arange(1, 13)
for values, label in ((mean_h, "round(10μ): the mean"),
                      (alpha_h, f"y^{learner.alpha}, training time")):
    axes[0].plot(levels, [values[h_star == k].mean() for k in levels], "o-", label=label)
axes[0].plot(levels, levels, "k:", label="h = h*")
axes[0].axvline(learner.y_q, color="C3", lw=0.8, label=f"y^q = {learner.y_q:.1f}")
axes[0].set(title="after two iterations: mean h at each h*", xlabel="h* (moves)", ylabel="mean h")
axes[0].legend(fontsize=8)
steps = [len(trace) for trace in traces]
axes[1].bar(np.arange(1, len(steps) + 1), steps)
axes[1].set(title="iteration 2: GenerateTaskPrac's moves per task", xlabel="task", ylabel="moves")
fig.tight_layout()
out = figure_path("07_the_method")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert same, "the loop written out is Learner.run_iteration"
assert trained_before == [False, True], (
    "iteration 1 plans untrained; iteration 2 uses GenerateTaskPrac")
assert len(traces) == config.tasks_per_iter and all(
    s["sigma_e"][s["chosen"]] >= config.epsilon for t in traces for s in t[-1:]), \
    "each GenerateTaskPrac walk stopped at the first state with σ_e >= ε (MaxSteps is far)"
assert all((s["sigma_e"][s["chosen"]] < config.epsilon) for t in traces for s in t[:-1]), (
    "... and not before")
assert all(over_alpha[b].sum() <= over_mean[b].sum() for b in (familiar, ~familiar)), \
    "in each branch, y^α overestimates no more often than the mean"
assert (alpha_h <= mean_h).all(), "with α >= 0.5, y^α never plans above the mean"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set SEED = 1 and run again. Iteration 1 cannot change in substance: its tasks are the goal's
#    two neighbours, its buffer the same three records, its Update runs all 101 WUNN blocks and
#    keeps β at 0.05. The untrained network's outputs, iteration 2's walks and plans, and part 3's
#    counts change.
# 2. Set ALPHA0 = 0.5: Φ⁻¹(0.5) = 0, so y^α is the mean in both branches. Part 3 then prints the
#    same numbers of overestimates for round(10μ) and y^0.5, and line 3's untrained h is
#    max(round(10μ), 0).
# 3. Set EPSILON = 2.0: GenerateTaskPrac walks until σ_e >= 2 and the WUNN trains until
#    σ_e < √(0.64·2) = 1.13. Iteration 2's walks get longer, its plans add many more records, and in
#    part 3 the mean now overestimates on states of branch (a) too, where y^α, planning below it by
#    10σ_a·Φ⁻¹(α), mostly does not.
