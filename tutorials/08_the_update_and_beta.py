"""Tutorial 08: the Update, and β. How LearnHeuristicPrac trains its two networks, and what β does
to the tasks.

Tutorial 07 ran the Update (Alg. 2, lines 8–12 of its listing) as one call, `Learner.update`. Here
it is taken apart:

  1. the memory buffer (line 9): which records a plan adds, which it does not, and which are pushed
     out;
  2. the FFNN (line 10): full-batch Adam steps until every record is predicted within 0.5 of its
     label, or for TrainIter = 1000 steps;
  3. the WUNN (line 11): minibatch steps in blocks of 50 until σ_e < √(κε) on every record, or for
     101 blocks, records drawn by the paper's f(x) (§5): weight e^σ_e(x) where σ_e(x) > √(κε), e^−C
     (C = 1) elsewhere;
  4. when β decays, and when α falls;
  5. β too large, β too small: what each does to σ_e and to the tasks GenerateTaskPrac makes
     (paper §4).

κ. GenerateTaskPrac calls a state unknown when σ_e >= ε. The WUNN's σ_e is estimated from K = 100
sampled outputs, so it is itself noisy: trained only to σ_e < ε, a record could still come out above
ε the next time the walk meets it. The paper (§4) therefore trains until σ_e² < κε with κ = 0.64;
with σ_e a standard deviation (tutorial 05), the same test reads σ_e < √(κε) = 0.8.

β. Eq. (2) weighs the prior, N(0, σ0² = 10) on every weight, by β against the data (tutorial 05). A
large β keeps the weights near the broad prior, so σ_e stays large, on the records too; a small β
lets the data win, and σ_e shrinks, on the records and, less, around them. LearnHeuristicPrac starts
at β0 = 0.05 and multiplies β by γ = (β_NumIter/β0)^(1/NumIter), β_NumIter = 1e-5, in an Update
whose WUNN could not bring σ_e below 0.8.

Where the paper is silent, `la` does what the authors' code does (their repository OfirMarom/
LearnHeuristicWithUncertaintly, `HeuristicSearch/Heuristics/NNBayesHeuristic.cs`, method `Update`),
and the difference is the point here. The paper trains the FFNN for TrainIter = 1000 steps and wants
its "training error sufficiently small" (Alg. 2, line 18); the code stops as soon as every record is
within 0.5, which a rounded h then reproduces exactly. The paper trains the WUNN for
MaxTrainIter = 5000 steps, checking σ_e after each; the code checks every 50 steps, at most 101
times (5,050 steps). The paper decays β whenever training ran out; the code also requires that it is
not the first Update and that at least 6 of the iteration's 10 tasks were solved.

Run from the repository root:  python tutorials/08_the_update_and_beta.py
"""
import copy
import sys
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path, state_text  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from la.buffer import MemoryBuffer  # noqa: E402
from la.config import LearnConfig, node_budget  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.domains.walk import random_walk  # noqa: E402
from la.features import OneHot  # noqa: E402
from la.heuristics.classical import Manhattan  # noqa: E402
from la.learn import Learner  # noqa: E402
from la.nn.ffnn import fit_full_batch  # noqa: E402
from la.search import check_plan, ida_star  # noqa: E402
from la.tasks import generate_task_prac  # noqa: E402

# %%
SEED = 7
CAP = 6                                   # part 1's toy buffer (exercise 1 changes it)
KAPPA = 0.64                              # κ, the paper's (exercise 2 changes it)
BETAS = (0.5, 0.05, 0.005, 1e-5)          # part 5: too large, β0, smaller, β_NumIter
                                          # (exercise 3 adds one)
puzzle = make_domain("15-puzzle")
md = Manhattan(puzzle)
rng = np.random.default_rng(SEED)
config = replace(LearnConfig(), num_iter=14, node_limit=node_budget(0.1), ffnn_batch=2_500,
                 buffer_size=2_500, kappa=KAPPA)                  # tutorial 07's settings
target = config.sigma_e_target

# %%
# --- 1. The memory buffer -------------------------------------------------------------------------
# A solved plan s_0, ..., s_L adds the records (s_i, L − i): each state with its cost to the goal
# along the plan, the goal with 0. The paper's Alg. 2 leaves the goal out (line 11); the authors'
# code keeps it, and so does `la`: without it nothing teaches the network h(goal) = 0, and IDA*
# recognises the goal only once its bound covers h(goal) (tutorial 02's goal test, f <= bound). A
# record the buffer already holds, same state and same label, is not added again; the same state
# with another label is a second record. Beyond the cap the oldest records go.
buffer = MemoryBuffer(cap=CAP, size=puzzle.size)
starts = random_walk(puzzle, 3, rng, n=8)
a = ida_star(puzzle, md, starts[0]).plan
# a start off A's plan
b = ida_star(puzzle, md, next(s for s in starts if not (a == s).all(axis=1).any())).plan
_, _, children = puzzle.expand(a[:1])
away = children[(children != a[1]).any(axis=1)][0]          # a neighbour of A's start, off A's path
# a step away and back: legal, two moves too long
detour = np.concatenate([a[:1], away[None], a])
check_plan(puzzle, detour[0], detour)
added = {}
for name, plan in (("plan A", a), ("plan A again", a), ("A with a step away and back", detour),
                   ("plan B", b)):
    added[name] = buffer.add_plans([plan])
    print(f"add {name} (cost {len(plan) - 1}): {added[name]} new records, "
          f"the buffer (cap {CAP}) holds {len(buffer)}:")
    for s, y in zip(buffer.states(), buffer.labels()):
        print(f"  [{state_text(s)}]  cost-to-goal {y}")
# Plan A again adds nothing. The detour, the kind of plan a weak heuristic finds, labels A's start
# two moves too high: a second record for that state, and noise that σ_a learns (tutorial 04). Plan
# B pushes the oldest out.

# %%
# --- 2. The FFNN: until every record is within 0.5 ------------------------------------------------
# The records of an iteration's worth of plans: ten walks each of 1, 2, 4, 6, 8 and 10 moves back
# from the goal, solved optimally by IDA* with Manhattan distance, so that the planning network
# plays no part. `fit_full_batch` (what `Learner.train_ffnn` calls) takes full-batch Adam steps on
# all records (repeated to 2,500 rows here), and after each step checks the largest error |10μ − y|
# over the records. We take its steps one at a time to watch.
learner = Learner(puzzle, config, rng, OneHot(puzzle))
plans = [ida_star(puzzle, md, s).plan for k in (1, 2, 4, 6, 8, 10)
         for s in random_walk(puzzle, k, rng, n=10)]
learner.buffer.add_plans(plans)
X, y = learner.encoding(learner.buffer.states()), learner.buffer.labels()
print(f"\n{len(plans)} optimal plans of 1-10 moves: {len(y)} records, labels 0..{y.max()}")
updates, sigma_ends = [], []
for update in range(2):
    library = copy.deepcopy(learner).train_ffnn(X, y)            # the library's count, on a copy
    errors = []
    for step in range(1, config.train_iter + 1):
        fit_full_batch(learner.ffnn, learner.ffnn_adam, X, y, config.ffnn_batch, 1,
                       config.train_tolerance)
        mu, sigma_a = learner.ffnn.predict(X)  # no dropout, no random numbers drawn
        errors.append(np.abs(10 * mu - y).max())
        if step >= 3 and errors[-1] < config.train_tolerance:
            break
    updates.append(errors)
    sigma_ends.append(sigma_a)
    shown = ([k for k in (1, 10, 100, 500, 1000) if k <= len(errors)]
             + ([len(errors)] if len(errors) % 500 else []))
    print(f"Update {update + 1}: the largest error after step "
          + ", ".join(f"{k}: {errors[k - 1]:.2f}" for k in shown)
          + (f" -> stopped: every record within {config.train_tolerance}"
             if len(errors) < config.train_iter else
             f" -> TrainIter = {config.train_iter} steps ran out")
          + f" (Learner.train_ffnn: {library} steps)")
    assert len(errors) == library
off = np.abs(10 * mu - y) > config.train_tolerance                    # after the second Update
if off.any():
    print(f"{off.sum()} record(s) still off by more than {config.train_tolerance}; "
          f"their mean 10σ_a went from {10 * sigma_ends[0][off].mean():.2f} "
          f"to {10 * sigma_ends[1][off].mean():.2f} during Update 2")
# The largest error falls fast, then slowly: the learning rate is the paper's 0.001, and 2.5 %
# dropout makes every step's gradient a little noisy, so whether the last records get within 0.5
# before TrainIter runs out depends on the records. The weights and Adam's moments carry over
# between Updates (a warm start): the second, on the same records, starts where the first left off,
# yet its largest error can drift up: training lowers Eq. (1) on average, not the largest error, and
# a record not yet fitted pulls its σ_a up towards its error (tutorial 04); the larger σ_a, the less
# Eq. (1) charges for that error, and dropout's noisy steps let it wander (the line above).


# %%
# --- 3. The WUNN: blocks of 50 steps, the unknown records drawn more often ------------------------
def train_wunn(learner, first):
    """`Learner.train_wunn` written out, printing some blocks: (blocks run, per block: max σ_e,
    share >= target)."""
    history = []
    for block in range(config.wunn_blocks):
        # K = 100 samples per record
        _, sigma_e = learner.wunn.predict(X, config.wunn.K, learner.rng)
        history.append((sigma_e.max(), np.mean(sigma_e > target)))
        # never in the first Update
        if not first and sigma_e.max() < target:
            return block, history
        # paper §5's f(x), C = 1
        weight = np.where(sigma_e > target, np.exp(sigma_e), np.exp(-config.C))
        weight /= weight.sum()
        high, drawn = sigma_e > target, []
        for _ in range(config.wunn_block_steps):
            # without replacement
            batch = learner.minibatch(weight, config.minibatch, learner.rng)
            # Eq. (2), S = 5 samples
            _, grads = learner.wunn.sample_loss_and_grads(X[batch], y[batch], learner.beta,
                                                          config.wunn.S, learner.rng)
            learner.wunn_adam.step(learner.wunn.params, grads)
            drawn.append(high[batch].mean())
        # records above the target, and their minibatch share
        shares.append((high.mean(), np.mean(drawn)))
        if block % 20 == 0 or block == config.wunn_blocks - 1:
            print(f"  block {block + 1:3d}: σ_e up to {sigma_e.max():.2f}; "
                  f"{high.mean():.0%} of the records have σ_e > {target:.2f}, "
                  f"weight e^σ_e against e^-{config.C:g}: {weight[high].sum():.0%} of the weight, "
                  f"{np.mean(drawn):.0%} of each minibatch of {config.minibatch}")
    return config.wunn_blocks, history


print(f"\nthe WUNN, target σ_e < √(κε) = {target:.2f}:")
blocks, shares = {}, []
for first in (True, False):
    if first:
        print(f"the first Update, β = {learner.beta} "
              "(no early stop: an untrained WUNN's σ_e means nothing)")
    else:
        after_first = copy.deepcopy(learner)                      # for parts 4 and 5
        learner.beta = config.beta0 * config.gamma ** 5           # as after 5 decays
        print(f"a later Update on the same records, once β has decayed 5 times to "
              f"{learner.beta:.4f} (it stops once σ_e < {target:.2f} on every record)")
    twin = copy.deepcopy(learner)
    blocks[first], history = train_wunn(learner, first)
    assert (blocks[first], False) == twin.train_wunn(X, y, update_beta=False), (
        "the written-out loop is the library's")
    print(f"  {blocks[first]} blocks; σ_e at the last check up to {history[-1][0]:.2f}, "
          f"{history[-1][1]:.0%} of the records above {target:.2f}")
    learner.trained = True  # what `Learner.update` sets after the first
# Each 50-step block draws its minibatches from weights computed once, at its start, no record twice
# in one minibatch (`la.buffer.weighted_minibatch`). At β0 = 0.05 the prior outweighs these records:
# σ_e stays above the target on them and the WUNN runs every block. At the smaller β the weights
# matter: the records still above the target get more than their share of each minibatch, and the
# loop stops once none is left (if within 101 blocks).

# %%
# --- 4. When β decays, and when α falls -----------------------------------------------------------
# β := γ·β at the end of an Update if (i) the WUNN ran all 101 blocks, (ii) it was not the first
# Update and (iii) at least 6 of the iteration's tasks were solved: when tasks are already failing,
# making them harder would not help. α := max(α − Δ, 0.5) after an iteration that solved fewer than
# 6: a weaker, faster heuristic. Neither ever goes back up. α starts high, at 0.99, because the
# larger α, the further below the mean IDA* plans: fewer overestimates, more optimal plans, labels
# closer to h*, the defence against compounding errors (tutorial 07, part 3). The price, a weaker
# heuristic and more nodes, is paid while enough tasks are solved; if not, α gives way.
alphas = [config.alpha0]
while alphas[-1] > config.alpha_min:
    alphas.append(round(max(alphas[-1] - config.delta, config.alpha_min), 12))
print(f"\nα after 0, 1, 2, ... iterations that solve fewer than {config.solved_threshold} tasks: "
      + ", ".join(f"{a:g}" for a in alphas) + f" (the floor after {len(alphas) - 1})")
for num_iter in (50, 20, config.num_iter):
    gamma = replace(config, num_iter=num_iter).gamma
    print(f"NumIter = {num_iter:2d}: γ = {gamma:.4f}; β after 1, 5, 10 decays: "
          + ", ".join(f"{config.beta0 * gamma ** k:.2e}" for k in (1, 5, 10)))
decays = {}
for solved in (config.solved_threshold, config.solved_threshold - 1):
    twin = copy.deepcopy(after_first)
    _, decays[solved] = twin.train_wunn(X, y, update_beta=solved >= config.solved_threshold)
    print(f"the second Update at β0, after an iteration that solved {solved} tasks: "
          f"all blocks ran, β {after_first.beta} → {twin.beta:.4g}")

# %%
# --- 5. β too large, β too small ------------------------------------------------------------------
# Four copies of the learner, each running one Update's WUNN training (with its early stop) at its
# own β; then σ_e on the records and on states 30 random moves from the goal, far from every record,
# and ten GenerateTaskPrac tasks from each. The FFNN is the same for all: its training-time
# heuristic tries each task within the budget of tutorial 07 (110,000 nodes), and Manhattan distance
# (MD) of the task's start says how far it lies, at least.
far = random_walk(puzzle, 30, rng, n=200)
sweep = {}
print(f"\n{'β':>7} {'blocks':>6} {'σ_e on the records':>19} {'< target':>8} {'σ_e far':>8} | "
      "ten tasks: moves, MD of the start, solved, mean nodes")
for beta in BETAS:
    twin = copy.deepcopy(after_first)
    twin.beta = beta
    ran, _ = twin.train_wunn(X, y, update_beta=False)
    on_records = twin.wunn.predict_exact(X)[1]    # the closed form (tutorial 05): no sampling
    far_sigma = twin.wunn.predict_exact(twin.encoding(far))[1]
    walk_rng = np.random.default_rng([SEED, 1])   # the same random numbers for every β
    tasks = [generate_task_prac(puzzle, twin.wunn, walk_rng, config.epsilon, config.max_steps,
                                config.wunn.K, encoding=twin.encoding) for _ in range(10)]
    h = twin.planning_heuristic()
    results = [ida_star(puzzle, h, t.start, node_limit=config.node_limit) for t in tasks]
    moves = [len(t.trace) if t.trace else t.steps for t in tasks]
    sweep[beta] = {"blocks": ran, "max": on_records.max(), "below": np.mean(on_records < target),
                   "far": np.median(far_sigma), "moves": moves,
                   "solved": sum(r.solved for r in results),
                   "md": md(np.array([t.start for t in tasks])),
                   "nodes": np.mean([r.generated for r in results])}
    s = sweep[beta]
    print(f"{beta:7g} {ran:6d} {'up to':>13} {s['max']:5.2f} {s['below']:8.0%} {s['far']:8.2f} | "
          f"{moves}, {s['md'].tolist()}, {s['solved']}/10, {s['nodes']:,.0f}")
# Reading it (paper §4). With β too large the prior wins: σ_e stays above the target on the records,
# so Alg. 2's line 18 can never be met, and σ_e >= ε already one move from the goal: every task is a
# state the network has learnt, and teaches nothing new. The smaller β, the more records meet the
# target and the further the walks go before σ_e reaches ε (far from the records it shrinks much
# less), and the more nodes the heuristic, which has learnt tasks of up to 10 moves, needs for them:
# with β too small, the tasks outgrow what it can solve quickly. (Once the records meet the target
# early, the Update stops: the smallest β values then differ little.) The σ_e columns are its closed
# form, while the Update stops on σ_e sampled with K = 100: a row that stopped early can still show
# records at or above the target here. κ's margin below ε is there for such sampling noise.
# The schedule starts large and decays β only when the WUNN cannot meet the target, so the tasks
# grow as the heuristic does.

# %%
# --- figure ---------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
for k, errors in enumerate(updates):
    axes[0].semilogy(np.arange(1, len(errors) + 1), errors,
                     label=f"Update {k + 1}: {len(errors)} steps")
axes[0].axhline(config.train_tolerance, color="k", ls=":",
                label="0.5: every record rounds to its label")
axes[0].set(title="the FFNN: largest |10μ − y| over the records", xlabel="Adam step",
            ylabel="moves")
axes[0].legend(fontsize=8)
for beta in BETAS:
    axes[1].plot(np.arange(1, 11), sorted(sweep[beta]["moves"]), "o-", label=f"β = {beta:g}")
axes[1].set(title="GenerateTaskPrac's tasks after one Update at β", xlabel="task (sorted)",
            ylabel="moves", yscale="log")
axes[1].legend(fontsize=8)
fig.tight_layout()
out = figure_path("08_the_update_and_beta")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert added["plan A again"] == 0 and added["A with a step away and back"] >= 1, (
    "repeats are dropped, new labels kept")
assert updates[1][0] < updates[0][0] / 5, (
    "the warm-started second Update starts where the first left off")
assert all(e[-1] < config.train_tolerance or len(e) == config.train_iter for e in updates), \
    "the FFNN stops at 0.5 or after TrainIter steps"
assert blocks[True] == config.wunn_blocks, "the first Update runs every block"
assert all(drawn >= share for share, drawn in shares if 0 < share < 1), \
    "records above the target get more than their share of each minibatch"
assert decays[config.solved_threshold] and not decays[config.solved_threshold - 1], \
    "β decays only after an Update that ran out of blocks and an iteration that solved enough tasks"
large, small = sweep[max(BETAS)], sweep[min(BETAS)]
assert large["below"] == 0 and set(large["moves"]) == {1}, (
    "β too large: σ_e never meets the target, 1-move tasks")
beta0 = sweep[config.beta0]
assert (small["below"] >= 0.9
        and np.mean(small["moves"]) > np.mean(beta0["moves"]) > np.mean(large["moves"])), \
    "the smaller β, the more records meet the target and the further the walks go"
assert small["nodes"] > 10 * beta0["nodes"], "with β too small the tasks take far more nodes"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set CAP = 4. The detour already pushes out A's two oldest records, and plan B then pushes out
#    the goal's: a buffer too small forgets even h(goal) = 0.
# 2. Set KAPPA = 0.36 (target σ_e < 0.6). The later Update in part 3 has further to go, and in
#    part 5 fewer records meet the target at β = 0.005.
# 3. Set BETAS = (0.5, 0.05, 0.005, 0.0005, 1e-5). The new row, like 1e-5's, meets the target within
#    a few dozen blocks (its blocks column), and its walks are about as long: once every record's
#    sampled σ_e is below the target the Update stops, whatever β.
