"""Tutorial 00: the problem. What is learnt, why it is hard, and what "likely admissible" buys.

A planner such as IDA* looks for a cheapest plan from a start state to the goal, guided by a
heuristic h(s): an estimate of h*(s), the cost of the cheapest plan from s to the goal. IDA*
(Korf 1985; tutorial 02 builds it) scores a path from the start to a state s by f = g + h(s): g, the
cost of the path so far, plus h's estimate of the rest. It searches depth first, following a path
only while its f stays within a bound, which starts at h(start); if no path within the bound reaches
the goal, the bound rises to the smallest f that went over it, and the search starts again. If h
never overestimates, h(s) <= h*(s) for every state s, it is *admissible*: f never exceeds the cost
of the cheapest plan through s, the bound never passes the optimal cost, and the first plan IDA*
finds is optimal. (The terms of the course are gathered in tutorials/GLOSSARY.md.) Strong
admissible heuristics take expert knowledge or much memory (tutorial 15's pattern databases), so
Marom & Rosman (ICAPS 2020) learn one with a neural network instead. Two things stand in the way
(paper §1–§2):

  * Where do the training costs come from? One would like to learn from optimal plans, but finding
    those is the hard problem itself. The bootstrap method (Arfaee, Zilles & Holte 2010, 2011)
    learns from plans the learner finds with its own, current heuristic. Those plans are not all
    optimal, so the costs it learns from are too high; the network learns to overestimate; its next
    plans are worse; errors compound.
  * A network's prediction is a mean. Even trained on exact costs, it overestimates some states, and
    one overestimated state on an optimal plan can be enough for IDA* to return a longer plan.

The paper's answer: let the network predict a distribution of the cost-to-goal,
y | s ~ N(μ(s), σ(s)²), and plan with its α-quantile y^α = μ − σ·Φ⁻¹(α), a value that lies below y
with probability α (Φ⁻¹ is the inverse of Φ, the standard normal distribution function: y^0.95 lies
Φ⁻¹(0.95) = 1.645 standard deviations below the mean; which σ the paper uses is tutorial 06's
subject). A heuristic is *likely admissible* (Ernandes & Gori 2004; paper §2) with probability α
when

    P(h(s) <= h*(s)) >= α      for every state s          (the paper writes "= α")

Use ">= α": a heuristic admissible on a state more often than α asks is no worse for it, and the
guarantee below needs only "at least α".

What it buys (paper §2, after Ernandes & Gori): only overestimates of states ON an optimal plan π*
can stop IDA* from returning an optimal plan (if every state of one optimal plan has h <= h*, IDA*'s
bound never passes the optimal cost before that plan lies within it). If each of those states is
admissible with probability α, independently of the others, IDA* therefore returns an optimal plan
with probability at least α^|π*| (the paper states it for A*; the argument is the same). Part 5 puts
numbers on this, counts the states exactly, and says where the guarantee is weak.

Everything here is shown on the 8-puzzle, where a breadth-first search gives h* for all 181,440
states, so that every claim can be checked exactly. The tutorials that follow build the paper's
method piece by piece; the main path, 00–13, ends with the paper's Tables 1 and 2, and 14–20 extend
it:

    00 the problem (this one)          the 8-puzzle: heuristics, overestimation, y^α, calibration,
                                       the guarantee
    01 domains                         states as rows of arrays, moves on batches, the network's
                                       one-hot input
    02 IDA*                            the textbook search, Korf's node counts, the batched search
    03 backpropagation by hand         the planning network's gradients, checked by finite
                                       differences
    04 aleatoric uncertainty           σ_a: a second output that learns how noisy the costs are
                                       (Eq. 1)
    05 epistemic uncertainty           σ_e: a weight-uncertainty network that knows where it has
                                       seen no data (Eq. 2), and the local reparameterisation trick
                                       that trains it
    06 the likely-admissible heuristic y^α on the 15-puzzle: integers, which σ (Eqs. 3, 4), the
                                       quantile rule
    07 the method on one page          Alg. 1 and Alg. 2, each line tied to the code, run for two
                                       iterations
    08 the Update and β                how the two networks train between iterations; β too large or
                                       too small
    09 GenerateTaskPrac                how σ_e chooses the next training task (the paper's Figures 1
                                       and 2)
    10 LearnHeuristicPrac              the whole training loop, and what its heuristic can solve
    11 every h* known                  the whole loop at full strength on the 8-puzzle, its
                                       promises checked against exact h* iteration by iteration
    12 Table 1 at tutorial scale       suboptimality against α, the single-output network, Manhattan
                                       distance
    13 Table 2 at tutorial scale       GenerateTaskPrac against LengthInc task generation
    14 a bound that holds              the same network in IDA* (a probability) and in focal search
                                       (a certified bound cost <= w · C*)
    15 pattern databases               the admissible heuristics behind the features of the other
                                       domains
    16 the method on pancakes          Table 3's domains: PDB inputs, the floor h_ad, both networks
                                       on the 24-pancake
    17 Boot and the labels             the bootstrap learner the paper compares with, and where
                                       labels come from
    18 optimal labels, conformal y^α   a network trained on optimal plans; a calibration that holds
    19 confidence (Heller et al. 2022) a classifier's confidence, in and out of distribution
    20 confidence-aware search         pruning greedy search by confidence; σ_e against max-softmax

Every tutorial needs only NumPy, SciPy and matplotlib (`pip install -r requirements.txt`; no .NET,
no TensorFlow): the search, the networks and their gradients are written out in `la` and can be
read. Each main-path tutorial ends with exercises: a change to make, and what running it again
should show.

Run from the repository root:  python tutorials/00_the_problem.py
"""
import sys

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ALPHAS, ROOT, TABLE1, figure_path  # noqa: E402

import matplotlib.pyplot as plt                                           # noqa: E402
import numpy as np                                                        # noqa: E402
from scipy.stats import norm                                              # noqa: E402

from la.domains.names import make_domain                                        # noqa: E402
from la.features.encodings import for_domain                                        # noqa: E402
from la.heuristics.classical import Manhattan, Weighted                             # noqa: E402
from la.heuristics.likely_admissible import LikelyAdmissible, y_alpha, z_alpha     # noqa: E402
from la.nn import FFNN, Adam                                              # noqa: E402
from la.search import ida_star                                            # noqa: E402
from la.search.bfs import ExactDistances                                  # noqa: E402

# %%
SEED = 0
TRAIN_TASKS = 200            # tasks whose plans the networks learn from
TEST_TASKS = 100             # tasks IDA* solves with each heuristic
WEIGHT = 2                   # the suboptimal planner: IDA* with 2 × Manhattan distance
STEPS = 1000                 # full-batch Adam steps per network
ALPHA = 0.95                 # one of the paper's test values
rng = np.random.default_rng(SEED)

# %%
# --- 1. Every state's exact cost to the goal ------------------------------------------------------
# ExactDistances searches breadth-first backwards from the goal and records the depth at which each
# state is first reached: h*(s), the perfect heuristic. It keys a state by its 9 numbers read as the
# digits of a base-10 integer; decoding its sorted keys lists every reachable state.
eight = make_domain("8-puzzle")
exact = ExactDistances(eight)
states = exact.states()        # (181440, 9)
h_star = exact.distance                                                               # (181440,)
print(f"8-puzzle: {len(states):,} states, h* from 0 to {h_star.max()}, mean {h_star.mean():.2f}")

# %%
# --- 2. Admissible or not: what it does to IDA*'s plans -------------------------------------------
# Manhattan distance (MD) counts, for each tile, the rows and columns between it and its goal cell.
# A move slides one tile one cell, so MD never overestimates. 2·MD does, and IDA* with it returns
# plans that can be longer than necessary, though it searches less: the bootstrap's learner,
# planning with a heuristic that overestimates, is in the same position.
md = Manhattan(eight)
print(f"MD <= h* on every state: {bool((md(states) <= h_star).all())};  "
      f"2·MD > h* on {np.mean(WEIGHT * md(states) > h_star):.0%} of them")
test = rng.choice(len(states), TEST_TASKS, replace=False)
part2 = {}
for name, h in (("MD", md), (f"{WEIGHT}·MD", Weighted(md, WEIGHT))):
    results = [ida_star(eight, h, states[i]) for i in test]
    extra = np.array([r.cost for r in results]) - h_star[test]
    print(f"IDA* with {name:5} on {TEST_TASKS} random tasks: {np.mean(extra == 0):4.0%} "
          f"of the plans optimal, {np.mean(extra / h_star[test]):5.1%} longer than optimal "
          f"on average, {sum(r.generated for r in results):9,} nodes generated")
    part2[name] = (np.mean(extra == 0), sum(r.generated for r in results))
    if name == "MD":
        md_optimal = bool((extra == 0).all())
        optimal_plans = [r.plan for r in results]  # one optimal plan per test task, for part 5

# %%
# --- 3. A network trained on costs from suboptimal plans overestimates ----------------------------
# A plan s_0, ..., s_L gives every state on it a training label: s_i is L − i moves from the goal
# ALONG THE PLAN. If the plan is optimal, that is h*(s_i); if not, it can be more. We solve
# TRAIN_TASKS random tasks with IDA* + 2·MD and train a network on the labels of their plans; a
# second network, identical, learns the same states with their true h*, as if the plans had been
# optimal.
# The networks. Each reads a state as 54 numbers, 0 or 1: for every tile (and the blank), which of
# the 3 rows and which of the 3 columns it is in (tutorial 01 shows this "one-hot" encoding). Each
# has two outputs, as the paper's planning network does: μ, its guess of the cost-to-goal, and
# σ_a > 0, how far off it expects that guess to be. They learn by minimising the average over the
# records of (μ − y)²/(2σ_a²) + ln σ_a, the paper's Eq. (1): the first term pays for errors, less
# where σ_a is large; the second pays for a large σ_a. So σ_a grows where the labels scatter and
# shrinks where they do not (tutorial 04 derives it). As in the authors' code, the networks learn
# y/10: their outputs stay near 1, and σ_a's clipped range (tutorial 04) then spans a fraction of a
# move to over a dozen moves; we multiply by 10 to read moves. They are trained by Adam (Kingma & Ba
# 2015), the paper's optimiser: gradient descent in which each weight moves by a running mean of its
# gradients divided by the root of a running mean of their squares, so every weight takes steps of
# about the learning rate whatever its gradients' scale (tutorial 03 writes it out; GLOSSARY.md).
# Here at the learning rate 0.003 rather than the paper's 0.001, so that it takes seconds.
starts = states[rng.choice(len(states), TRAIN_TASKS, replace=False)]
plans = [ida_star(eight, Weighted(md, WEIGHT), s).plan for s in starts]
train_states = np.concatenate(plans)
# costs left along each plan
labels = np.concatenate([np.arange(len(p) - 1, -1, -1) for p in plans])
train_h_star = exact(train_states)
print(f"\n{TRAIN_TASKS} plans by IDA* + {WEIGHT}·MD give {len(labels):,} training records; "
      f"the label is above h* on {np.mean(labels > train_h_star):.0%} of them, "
      f"by {np.mean(labels - train_h_star):.2f} moves on average")

encoding = for_domain(eight)                    # 9 tiles × (3 rows + 3 columns) = 54 inputs
X = encoding(train_states)
nets = {}
for name, y in (("suboptimal plans", labels), ("optimal plans", train_h_star)):
    net = FFNN(encoding.size, 20, 2, np.random.default_rng(SEED), dtype=np.float32)
    opt = Adam(net.params, lr=0.003)
    for _ in range(STEPS):
        opt.step(net.params, net.loss_and_grads(X, y / 10)[1])
    nets[name] = net

print(f"on all {len(states):,} states, trained on   mean μ − h*   round(μ) > h*   median σ_a   "
      "(in moves)")
mu, sigma_a = {}, {}
for name, net in nets.items():
    m, s = net.predict(encoding(states))
    mu[name], sigma_a[name] = 10 * m, 10 * s
    print(f"  {name:30} {np.mean(mu[name] - h_star):+9.2f} "
          f"{np.mean(np.rint(mu[name]) > h_star):14.0%} "
          f"{np.median(sigma_a[name]):12.2f}")
SUB, OPT = nets
# Even the network trained on exact costs overestimates many states: a mean is not a bound. The one
# trained on the suboptimal plans' labels has learnt their excess, and overestimates more. In the
# bootstrap, its plans would be worse still, and the next network would learn from them: errors
# compound.

# %%
# --- 4. The mean, and the α-quantile y^α ----------------------------------------------------------
# Read the network's two outputs as a Gaussian, y | s ~ N(μ, σ_a²). Its mean is exceeded half the
# time; y^α lies Φ⁻¹(α) standard deviations below the mean and is exceeded with probability α. One
# state, far from the goal:
far = int(np.argmax(h_star))
print(f"\none state with h* = {h_star[far]}: the network trained on {SUB} predicts "
      f"μ = {mu[SUB][far]:.2f}, σ_a = {sigma_a[SUB][far]:.2f}")
for alpha in (0.05, 0.5, 0.9, ALPHA, 0.99):
    m, s = mu[SUB][far], sigma_a[SUB][far]
    print(f"  α = {alpha:4}:  y^α = μ − σ_a·Φ⁻¹(α) = {m:.2f} − {s:.2f}·({norm.ppf(alpha):+.3f}) "
          f"= {y_alpha(m, s, z_alpha(alpha)):6.2f}")

# Calibration: if the Gaussian were the truth about h*, y^α <= h* would hold on a fraction α of the
# states. We can count it, on every state of the puzzle.
calibration = {name: np.array([np.mean(y_alpha(mu[name], sigma_a[name], z_alpha(a)) <= h_star)
                               for a in ALPHAS])
               for name in nets}
print("\nfraction of all states with y^α <= h*, trained on")
print(f"  {'α':18}" + "".join(f"{a:7.2f}" for a in ALPHAS))
for name in nets:
    print(f"  {name:18}" + "".join(f"{c:7.3f}" for c in calibration[name]))
# Trained on exact costs, the fractions at the large α that matter come out near α or above it (not
# exactly α: the network was fitted on the states of 200 plans and is judged here on every state).
# Trained on suboptimal labels, y^α is a quantile of the wrong distribution, the labels', and at
# those α the fractions fall well short. (The definition asks P(h(s) <= h*(s)) >= α of EACH state, a
# probability over how the network came out; a fraction over many states is its average, and what
# can be counted.)
print(f"at α = {ALPHA}: {calibration[OPT][ALPHAS.index(ALPHA)]:.3f} of the states with "
      f"exact-cost training, {calibration[SUB][ALPHAS.index(ALPHA)]:.3f} with suboptimal labels")
# Why exact-cost training comes out calibrated here, even above α; tutorial 06 trains a 15-puzzle
# network on exact labels too, and it falls short (0.805 at α = 0.95 there). σ_a is learnt from the
# errors on the training records, and y^α is calibrated on the states it is judged on only if the
# network errs there about as σ_a says. The line below measures it. Here the states judged are every
# state of the 8-puzzle, and the records (the states of 200 plans from uniform random starts) are a
# sample of the same space, at most 2.8 % of it; at these settings the root-mean-square error on
# all states and the median σ_a nearly agree (3.40 and 3.36 moves), and the mean lies below h* on
# average (−1.14 above), which puts y^α below h* more often still.
m_train, s_train = (10 * v for v in nets[OPT].predict(X))
rms_train = np.sqrt(np.mean((m_train - train_h_star) ** 2))
print(f"trained on optimal plans: 10μ is off by {rms_train:.2f} moves (root mean square) on its "
      f"{len(X):,} training records, median σ_a "
      f"{np.median(s_train):.2f}; on all states by "
      f"{np.sqrt(np.mean((mu[OPT] - h_star) ** 2)):.2f}, median σ_a {np.median(sigma_a[OPT]):.2f}")

# %%
# --- 5. Likely admissibility, and what it guarantees ----------------------------------------------
# The guarantee: P(optimal plan) >= α^|π*|. How much is that?
lengths = {"8-puzzle (mean h*)": h_star.mean(), "15-puzzle (Korf's 100)": 53.05,
           "24-puzzle (Korf's 50)": 100.78}
print(f"\nthe bound α^|π*| {'':25}" + "".join(f"{f'α = {a}':>10}" for a in (0.5, 0.9, 0.95, 0.99)))
for name, length in lengths.items():
    print(f"  {name:24} |π*| = {length:6.2f}  "
          + "".join(f"{a ** length:10.4f}" for a in (0.5, 0.9, 0.95, 0.99)))
paper_optimal = TABLE1["0.95"][3]  # the paper's Table 1, α = 0.95: % of Korf's 100 optimal
korf_bound = 0.95 ** lengths["15-puzzle (Korf's 100)"]
print(f"the paper's Table 1 at α = 0.95: {paper_optimal} % of Korf's 100 solved optimally, "
      f"where the bound promises {korf_bound:.1%}")

# Now plan with the learnt heuristics on the test tasks. `LikelyAdmissible` is the paper's
# heuristic: h = max(round(y^α), 0), or round(μ) without an α (tutorial 06 says why an integer, and
# why the floor). "Admissible along π*" counts the tasks on which every state of one optimal plan
# (IDA* + MD's), the goal included, has h <= h*: on those, IDA* must return an optimal plan.
# How many states does the guarantee need? A plan of |π*| moves passes |π*| + 1 states, the start
# and the goal included. IDA* accepts the goal only when f = g + h(goal) lies within its bound, so
# h(goal) must be admissible too, that is 0: all |π*| + 1 states count. (The paper's α^|π*| counts
# one fewer, as if h(goal) = 0 were given; for a learnt heuristic it is not, which is why
# `la.buffer` teaches the network the goal's label 0, tutorial 08.) The column before the nodes is
# that bound, p^(|π*| + 1) averaged over the tasks, with p, the fraction of all states on which this
# h is admissible, in place of α.
print(f"\n{f'IDA* on the {TEST_TASKS} test tasks with':42}{'optimal':>9}{'admissible along π*':>21}"
      f"{'bound p^(|π*|+1)':>19}{'nodes':>13}")
outcomes, bounds = {}, {}
for name in nets:
    for alpha in (None, ALPHA):
        h = LikelyAdmissible(nets[name], encoding, alpha)
        results = [ida_star(eight, h, states[i]) for i in test]
        optimal = np.array([r.cost == h_star[i] for r, i in zip(results, test)])
        along = np.array([(h(plan) <= exact(plan)).all() for plan in optimal_plans])
        p = np.mean(h(states) <= h_star)          # the measured chance that a state is admissible
        bound = np.mean(p ** (h_star[test] + 1))  # |π*| + 1 states: the goal's h counts too
        outcomes[name, alpha], bounds[name, alpha] = (optimal, along), bound
        label = f"{'the mean' if alpha is None else f'y^{alpha}'}, trained on {name}"
        print(f"  {label:40}{optimal.mean():9.0%}{along.mean():21.0%}{bound:19.3f}"
              f"{sum(r.generated for r in results):13,}")
# Reading it. On both networks, planning with y^α instead of the mean gives more optimal plans, for
# more nodes: that is what α buys. Every task that is admissible along π* was solved optimally, as
# the argument at the top says; many more were: admissibility along π* is sufficient, not necessary.
# The bound lies below what happens.
#
# Where the guarantee is weak:
#   * It falls exponentially with the plan's length: on Korf's 15-puzzle instances α = 0.95 promises
#     the few per cent printed above, while the paper's Table 1 reports far more optimal plans at
#     α = 0.95. It says little.
#   * It needs P(h(s) <= h*(s)) >= α to hold, and that needs a model trained on optimal plans
#     (paper §3). The paper's training plans are not optimal, and its §3 says so: y^α is then "not
#     formally" likely admissible. Part 4 shows the consequence: trained on suboptimal plans,
#     y^α <= h* far less often than α.
#   * It treats the states of a plan as independent, which neighbouring states are not.
# What remains is an ordering, which the paper's tables show: a larger α, fewer overestimates, more
# optimal plans, more nodes. Tutorials 06, 11 and 12 measure how calibrated a heuristic trained by
# the paper's method is (11 on every state of the 8-puzzle, exactly).

# %%
# --- figure ---------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
ax = axes[0]
levels = np.arange(h_star.max() + 1)
for name in nets:
    ax.plot(levels, np.bincount(h_star, weights=mu[name]) / np.bincount(h_star), "o-", ms=3,
            label=f"mean μ, trained on {name}")
ax.plot(levels, levels, "k:", label="h = h*")
ax.set(title="8-puzzle: the networks' mean at each h*", xlabel="h*",
       ylabel="mean μ over the states with that h*")
ax.legend(fontsize=8)
ax = axes[1]
m, s = mu[SUB][far], sigma_a[SUB][far]
grid = np.linspace(m - 4 * s, m + 4 * s, 400)
ax.plot(grid, norm.pdf(grid, m, s), color="k", lw=1)
for alpha, color in ((0.5, "C0"), (0.9, "C1"), (0.99, "C3")):
    y = y_alpha(m, s, z_alpha(alpha))
    ax.axvline(y, ymax=0.7, color=color, label=f"y^{alpha} = {y:.1f}")
ax.axvline(h_star[far], color="k", ls="--", label=f"h* = {h_star[far]}")
ax.set(title=f"one state, h* = {h_star[far]}: N(μ, σ_a²) ({SUB})", xlabel="cost-to-goal (moves)",
       ylabel="density")
ax.legend(fontsize=8)
ax = axes[2]
ax.plot(ALPHAS, ALPHAS, "k:", label="P = α (calibrated)")
for name in nets:
    ax.plot(ALPHAS, calibration[name], "o-", label=f"trained on {name}")
ax.set(title="calibration on all 181,440 states", xlabel="α",
       ylabel="fraction of states with y^α <= h*", xlim=(0, 1), ylim=(0, 1))
ax.legend(fontsize=8)
fig.tight_layout()
out = figure_path("00_the_problem")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
at = ALPHAS.index(ALPHA)
assert md_optimal, "IDA* with an admissible heuristic returns optimal plans"
assert part2[f"{WEIGHT}·MD"][0] < 1 and part2[f"{WEIGHT}·MD"][1] < part2["MD"][1], \
    "IDA* with 2·MD returns some longer plans, and searches less"
assert np.mean(np.rint(mu[SUB]) > h_star) > np.mean(np.rint(mu[OPT]) > h_star) > 0.1, \
    ("learning from suboptimal plans should overestimate more often; "
     "even exact costs give a mean that overestimates")
assert np.mean(mu[SUB] - h_star) > np.mean(mu[OPT] - h_star) + 0.5, "... and by more"
# seen: 0.77-0.85 against 0.97
assert calibration[SUB][at] < ALPHA - 0.05 < calibration[OPT][at], \
    "suboptimal labels should break calibration at the large α, exact ones not"
assert all((optimal | ~along).all() for optimal, along in outcomes.values()), (
    "admissible along π* means optimal")
assert all(outcomes[name, ALPHA][0].mean() > outcomes[name, None][0].mean() for name in nets), \
    "planning with y^α should give more optimal plans than the mean"
assert all(bounds[key] <= outcomes[key][0].mean() for key in outcomes), (
    "the bound lies below what happens")
assert korf_bound < 0.1 < paper_optimal / 100, "on Korf's 100 the bound says little"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set WEIGHT = 3. IDA* with 3·MD returns longer plans (part 2); their labels lie above h* on more
#    records, and the network trained on them overestimates more (part 3's first row).
# 2. Set ALPHA = 0.99. Part 5's y^α rows give more optimal plans than at 0.95, for more nodes, and
#    part 4's last line compares the two networks' calibration at 0.99.
# 3. Set TRAIN_TASKS = 50. Both networks learn from a quarter of the records. Even the one trained
#    on exact costs is then no longer calibrated at the large α: part 4's fraction at α = 0.95 falls
#    well below 0.95, and part 5's y^0.95 row trained on optimal plans finds fewer optimal plans.
#    The run then ends in an AssertionError at the check "suboptimal labels should break
#    calibration at the large α, exact ones not": that claim no longer holds, which is the point.
