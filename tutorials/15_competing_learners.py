"""Tutorial 15: the competing learners, and a calibration that holds, on the 8-puzzle.

The paper measures itself against two other ways of learning a heuristic. Boot, the bootstrap learner of Jabbari Arfaee,
Zilles & Holte (SoCS 2010; AIJ 2011), has a row in Table 3, quoted from its authors. And Ernandes & Gori (2004), from
whom the paper takes "likely admissible" (§2), trained on states solved optimally; the paper sets its α = 0.9
heuristic's optimal plans on the 15-puzzle beside their 63.86 %. The three learners differ mainly in where their
training labels come from. `la` runs both rivals on its own terms, as rows of the suboptimality experiment
(`la.rivals.boot`, `la.rivals.optimal_labels`, `la.experiments.baselines`), and adds something the paper does not have:
a conformal quantile in place of Φ⁻¹(α) (`la.rivals.calibration`). Everything here runs on the 8-puzzle, where a
breadth-first search from the goal gives h* for all 181,440 states (tutorial 00), so every label and every coverage can
be checked exactly:

  1. labels. LearnHeuristicPrac labels each state of a plan with its cost-to-go along that plan (paper §4;
     tutorial 07). The plans come from IDA* with the current heuristic, which is not admissible, so they can be
     longer than optimal, and then their labels lie above h*, never below. Here 2 × Manhattan distance (2·MD)
     stands in for that heuristic. `la.rivals.optimal_labels` labels only the states of optimal plans, found by IDA*
     with an admissible heuristic (MD on the 8-puzzle). Every suffix of an optimal plan is optimal, so each of
     its labels is h* itself: checked against breadth-first search;
  2. Boot (`la.rivals.boot`). IDA* with h_{i−1} tries every still unsolved instance of a fixed set Ins within a node
     budget. Each solved plan's states join the training set with their plan-suffix costs. If at least ins_min
     instances were solved, h_i is trained on the training set; if fewer, the budget doubles. It stops once fewer than
     ins_min instances are left unsolved, or when the budget would pass its cap. The labels are of part 1's
     kind, from plans of its own heuristic, and the network plans with its mean, round(μ). On the 8-puzzle, the
     network reads the one-hot encoding `la.features.encodings.for_domain` gives every sliding-tile puzzle but the
     24-puzzle (9 tiles × (3 rows + 3 columns) = 54 inputs). The one-hot has no admissible floor, so Boot starts
     from h0 = MD (`la.rivals.boot.initial_heuristic`). Its rounds, then its heuristic on random tasks beside MD;
  3. the optimal-plan network (`la.rivals.optimal_labels`). This is the paper's two-output network trained on part
     1's exact labels: Ernandes & Gori's idea, with everything else as the α network has it. It plans with
     y^α = μ − σ_a·Φ⁻¹(α) (tutorial 06). Is P(y^α <= h*) = α on held-out states? Even with exact labels, a
     Gaussian read off one network is a model, and nothing makes it right;
  4. conformal y^α (not in the paper; Vovk et al. 2005, Angelopoulos & Bates 2021). Take the standardised
     residuals r = (h* − 10μ)/(10σ_a) of n calibration states, and let q_α be the k-th smallest of them, with
     k = ⌊(n + 1)(1 − α)⌋. Then y = 10(μ + σ_a·q_α) satisfies P(y <= h*) >= α for a new state that is
     *exchangeable* with the calibration states, e.g. drawn independently from the same distribution. This
     holds however wrong μ and σ_a are, but only on average over such states, not for each state. Here the
     states are drawn independently, either near the goal (the ends of random walks of 1-20 steps) or uniformly.
     The bound is calibrated on one kind and tested on held-out states of both kinds. (The full experiment
     calibrates on the states along optimal plans of uniform random instances. States of one plan depend on
     each other, so there the guarantee is only approximate.) IDA* scores every state it generates, and those
     are drawn like neither kind;
  5. the committed full-scale results of the baselines, if there are any.

Scale. Boot runs on 200 instances with ins_min 10 (its authors': 5,000 and 75, `la.rivals.boot.BootConfig`). Its
first budget is 250 nodes and its cap 64,000 (their 1 s, and our cap of LearnHeuristicPrac's t_max = 60 s,
are 1.1 M and 66 M nodes at `la.config`'s rate), with 500 Adam steps per training (TrainIter 1,000).
`la.rivals.boot.boot_config` knows only the paper's domains, so this BootConfig is built directly, with the
15-puzzle's single-output network (20 hidden units, no dropout). The RandomWalk phase, which starts only when
h0 solves none of Ins, is switched off: MD solves some of Ins within 250 nodes. The optimal-plan network
learns 3,000 records from walks of 1-60 steps, in at most 3,000 full-batch Adam steps. The full experiment
gives it as many records as the α run's final buffer held, and up to (NumIter − 1) × TrainIter steps (49,000
on the 15-puzzle). The test tasks are 100 uniform random 8-puzzles, at most 200,000 nodes each. None of this
is the paper's protocol; part 5 names the command that is.

What to expect. The plan-suffix labels overestimate on a good part of the records. Boot's examples do on a
few, from the rounds in which its network planned. Boot's heuristic needs a fraction of MD's nodes, and some
of its plans are not optimal. Trained on exact labels, the network still gives a y^α that is not calibrated.
It underestimates on average, so y^α <= h* holds on more states than α says, by most at the smaller α. In so
short a training it has not learnt h(goal) = 0, and at this scale that drives its node counts more than α does.
The conformal bound meets α on held-out states of the kind it was calibrated on. Calibrated on uniform states,
it covers the states near the goal below α, far below at the smaller α. Each part prints what held this time.

Run from the repository root:  python tutorials/15_competing_learners.py   (70-90 s on 2 cores, measured while other
experiments kept both busy; 22-25 s of CPU time)
"""
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import la  # noqa: E402,F401  (before NumPy, so that it runs with one BLAS thread: la/__init__.py)

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402
import numpy as np  # noqa: E402

from la.plots.style import FIGURES, tutorial_figure_path  # noqa: E402
from la.rivals.boot import BootConfig, bootstrap  # noqa: E402
from la.buffer import MemoryBuffer  # noqa: E402
from la.rivals.calibration import ALPHAS, calibration, conformal_heuristic  # noqa: E402
from la.experiments.domains import DOMAINS  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.domains.walk import random_walk
from la.domains.uniform import uniform_states  # noqa: E402
from la.experiments.baselines import coverage  # noqa: E402
from la.experiments.suboptimality_table import summarize  # noqa: E402
from la.heuristics.classical import Manhattan, Weighted  # noqa: E402
from la.heuristics.likely_admissible import LikelyAdmissible  # noqa: E402
from la.rivals.optimal_labels import OptimalPlanConfig, labelled_states, train_optimal_plan_network  # noqa: E402
from la.plots.baselines import read_all  # noqa: E402
from la.search import check_plan, ida_star  # noqa: E402
from la.search.bfs import ExactDistances  # noqa: E402

SEED = 15
WEIGHT = 2                          # part 1's inadmissible planner: IDA* with 2 × Manhattan distance
TASKS = 100                         # part 1's tasks: random walks back from the goal, of WALKS steps
WALKS = (1, 60)                     # ... and the optimal-plan network's starts (the 8-puzzle's diameter: 31)
RECORDS = 3000                      # the optimal-plan network's records, each with its exact h*
NEAR = (1, 20)                      # states "near the goal": the ends of random walks of 1-20 steps
N_CAL, N_TEST = 1000, 5000          # conformal calibration states; held-out states near the goal
CONFORMAL_ALPHAS = (0.5, 0.75, 0.9, 0.95)
TEST_TASKS = 100                    # uniform random 8-puzzles, solved with every heuristic
TEST_BUDGET = 200_000               # nodes per test task
began = time.perf_counter()

eight = make_domain("8-puzzle")
exact = ExactDistances(eight)       # h* of every state, breadth-first from the goal (tutorial 00)
print(f"the 8-puzzle: {len(exact):,} states, h* from 0 to {exact.distance.max()} (breadth-first search)")

# --- 1. Labels: plan suffixes against optimal plans ------------------------------------------------------------
# LearnHeuristicPrac's memory buffer (`la.buffer`) holds every state of each solved plan with its cost-to-go
# along the plan, the goal with 0, each distinct (state, label) pair once: a state reached by two plans of
# different lengths is two records. The plans here are IDA*'s with 2·MD, as in tutorial 00. On a sliding-tile
# puzzle every path from a state to the goal has the parity of h*, so a label is off by an even number of moves.
rng = np.random.default_rng([SEED, 1])
md = Manhattan(eight)
starts = random_walk(eight, rng.integers(WALKS[0], WALKS[1], endpoint=True, size=TASKS), rng, n=TASKS)
plans = [ida_star(eight, Weighted(md, WEIGHT), start).plan for start in starts]
buffer = MemoryBuffer(DOMAINS["15-puzzle"].learn().buffer_size, eight.size)
buffer.add_plans(plans)
suffix_excess = buffer.labels() - exact(buffer.states())                          # label − h*, per record
plan_excess = np.array([len(plan) - 1 for plan in plans]) - exact(starts)
print(f"\n{TASKS} tasks (walks of {WALKS[0]}-{WALKS[1]} steps) solved by IDA* with {WEIGHT}·MD: "
      f"{np.mean(plan_excess > 0):.0%} of the plans longer than optimal, by up to {plan_excess.max()} moves")
print(f"  their {len(suffix_excess):,} plan-suffix records: label > h* on {np.mean(suffix_excess > 0):.1%}, "
      f"by {suffix_excess[suffix_excess > 0].mean():.2f} moves on average there and at most "
      f"{suffix_excess.max()}; label < h* on {np.sum(suffix_excess < 0)}")

# The optimal labels: walks of the same lengths, each start solved by IDA* with MD (admissible, so every plan is
# optimal), every state of its plan kept with its cost-to-go. Part 3 trains the network on these very records.
op_config = OptimalPlanConfig(records=RECORDS, walk_lengths=WALKS,
                              learn=replace(DOMAINS["15-puzzle"].learn(), num_iter=4, train_iter=1000,
                                            buffer_size=RECORDS, ffnn_batch=RECORDS))
records = labelled_states(eight, RECORDS, np.random.default_rng([SEED, 3]), op_config)
optimal_excess = records.h_star - exact(records.states)
print(f"la.rivals.optimal_labels: {len(records.h_star):,} records from the optimal plans of {records.solved} walk "
      f"starts; label = breadth-first h* on {np.sum(optimal_excess == 0):,} of them")

# --- 2. Boot -----------------------------------------------------------------------------------------------------
# One line per round, from `Boot.log` (`Boot.progress_line` prints the same with each round's seconds): the
# instances tried and solved, the budget it ran with, the examples in the training set TS (they accumulate),
# whether it trained, and the instances left unsolved in Ins.
boot_config = BootConfig(learn=replace(DOMAINS["15-puzzle"].learn(n_out=1), train_iter=500), instances=200,
                         ins_min=10, node_limit=250, max_node_limit=64_000, walk_instances=0)
print(f"\nBoot on {boot_config.instances} uniform random 8-puzzles, ins_min {boot_config.ins_min}, budget "
      f"{boot_config.node_limit:,} nodes doubling up to {boot_config.max_node_limit:,}, h0 = MD:")
boot = bootstrap(eight, boot_config, np.random.default_rng([SEED, 2]), progress=None)
log = boot.log
for e in log:
    print(f"  round {e['round']:2d}: solved {e['solved']:3d} of {e['tried']:3d} within {e['node_limit']:6,d} nodes, "
          f"TS {e['examples']:5,d} examples, " + (f"trained ({e['steps']} Adam steps)" if e["trained"] else
                                                   f"fewer than {boot_config.ins_min} solved: not trained")
          + f", {e['remaining']:3d} left" + ("" if e["stopped"] is None else f"; stopped: {e['stopped']!r}"))
doubled = [after["node_limit"] == 2 * e["node_limit"] for e, after in zip(log, log[1:])]
too_few = [e["solved"] < boot_config.ins_min for e in log[:-1]]
print(f"  the budget doubled after rounds {[e['round'] for e, d in zip(log, doubled) if d]}; fewer than "
      f"{boot_config.ins_min} were solved in rounds {[e['round'] for e, s in zip(log, too_few) if s]}")
print(f"  it trained after rounds {[e['round'] for e in log if e['trained']]} (at least {boot_config.ins_min} "
      f"solved) and stopped after round {len(log)}: {boot.stopped!r}, {len(boot.instances)} instances left")
boot_excess = boot.examples.labels() - exact(boot.examples.states())
print(f"  its {len(boot_excess):,} examples: label > h* on {np.mean(boot_excess > 0):.1%} (by at most "
      f"{boot_excess.max()} moves); those from round 1, planned with h0 = MD, are all exact: "
      f"{bool((boot_excess[:log[0]['added']] == 0).all())}")

# IDA* with each heuristic on the same uniform random tasks (drawn afresh, not Boot's Ins). The columns over
# the solved tasks, as the paper's (`summarize`); every plan is replayed to the goal (check_plan). h(goal): the
# heuristic's value at the goal, where h* = 0. IDA* recognises the goal only once f = g + h(goal) <= the bound
# (the authors' rule, `la.search.ida_star`), so the last iteration's bound lies at least h(goal) above the plan's
# cost: a positive h(goal) costs iterations, each larger than the one before.
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
    print(f"  {name:33} {row['unsolved']:3d}/{row['tasks']} {row['subopt']:9.2f} {row['optimal']:9.0f} "
          f"{row['generated']:11,.0f} {row['h_goal']:7d} {row['past']:18.2f}")


HEADER = (f"  {'heuristic':33} {'unsolved':>7} {'subopt %':>9} {'optimal %':>9} {'nodes/task':>11} {'h(goal)':>7} "
          f"{'last bound − cost':>18}")
print(f"\nIDA* on {TEST_TASKS} uniform random 8-puzzles (mean h* {test_h_star.mean():.2f}), at most "
      f"{TEST_BUDGET:,} nodes each\n{HEADER}")
test_row("Manhattan distance", md)
test_row("Boot: round(μ)", boot.heuristic())

# --- 3. The optimal-plan network ------------------------------------------------------------------------------
# The α network of the 15-puzzle (20 hidden units, two outputs, 2.5 % dropout, y/10), trained by
# `fit_full_batch` on part 1's records: the same generator, so the same records.
op = train_optimal_plan_network(eight, op_config, np.random.default_rng([SEED, 3]))
same = np.array_equal(op.records.states, records.states) and np.array_equal(op.records.h_star, records.h_star)
print(f"\nthe optimal-plan network: {len(op.records.h_star):,} records (part 1's: {same}), {op.steps:,} Adam steps")
trained_on = exact.key(op.records.states)


def draw(kind, n, rng):
    """n states drawn independently, "near" (walk ends) or "uniform", the goal and training records left out."""
    out = np.empty((0, eight.size), np.uint8)
    while len(out) < n:
        batch = (random_walk(eight, rng.integers(NEAR[0], NEAR[1], endpoint=True, size=n), rng, n=n)
                 if kind == "near" else uniform_states(eight, n, rng))
        out = np.concatenate([out, batch[~np.isin(exact.key(batch), trained_on) & (exact(batch) > 0)]])
    return out[:n], exact(out[:n])


# Held out: every state that is not the goal or a training record. Uniform states are the whole of that set,
# counted exactly; states near the goal are sampled.
held_out = ~np.isin(exact.keys, trained_on) & (exact.distance > 0)
sets = {"near": draw("near", N_TEST, np.random.default_rng([SEED, 5])),
        "uniform": (exact.states()[held_out], exact.distance[held_out])}
plain = {kind: calibration(lambda a: LikelyAdmissible(op.net, op.encoding, a), *states)
         for kind, states in sets.items()}
print(f"held-out states, neither the goal nor a training record: {N_TEST:,} drawn near the goal (mean h* "
      f"{sets['near'][1].mean():.2f}) and all {len(sets['uniform'][1]):,} of them, the uniform kind counted "
      f"exactly (mean h* {sets['uniform'][1].mean():.2f}); the share with y^α <= h*:")
print(f"  {'α':>5} {'near':>7} {'uniform':>8}")
for near, uniform in zip(plain["near"], plain["uniform"]):
    print(f"  {near['alpha']:5} {near['y_alpha_below_h_star']:7.3f} {uniform['y_alpha_below_h_star']:8.3f}")
every = exact.states()
mu, sigma_a = op.net.predict(op.encoding(every))
print(f"on all states 10μ − h* is {np.mean(10 * mu - exact.distance):+.2f} moves on average, median 10σ_a "
      f"{np.median(10 * sigma_a):.2f}; at the goal 10μ = {10 * mu[exact.distance == 0][0]:.2f}, "
      f"10σ_a = {10 * sigma_a[exact.distance == 0][0]:.2f}")
print(HEADER)
for alpha in (0.5, 0.75, 0.9, 0.95):
    test_row(f"optimal-plan net, y^{alpha}", LikelyAdmissible(op.net, op.encoding, alpha))
# Reading. Exact labels do not make y^α calibrated. N(10μ, (10σ_a)²) is the network's model of its own errors,
# fitted on 3,000 records, and nothing checks it elsewhere. Where 10μ lies below h* on average (printed above),
# y^α <= h* holds on more states than α says. The goal is one record of the 3,000 (`la.buffer` keeps it so that
# the network learns h(goal) = 0), and the printed 10μ there says how far this short training got. Compare the
# node counts with the h(goal) and last-bound columns: the larger α, the smaller h(goal), and IDA* stops its
# last iteration that much nearer the plan's cost. At this scale, that can outweigh a weaker h everywhere else.

# --- 4. Conformal y^α --------------------------------------------------------------------------------------------
# q_α from N_CAL states of one kind (`conformal_heuristic`, which ranks the residuals of `la.rivals.calibration`), then
# coverage, the share with y <= h* (`la.experiments.baselines.coverage`), on the held-out states of both kinds.
# The sampling tolerance: 3 standard deviations of a coverage measured on N_CAL calibration and n test states.
calibrate = {kind: draw(kind, N_CAL, np.random.default_rng([SEED, 6, i])) for i, kind in enumerate(sets)}


def tolerance(alpha, n):
    """3 standard deviations of the sampling error of a coverage near α (the calibration set's and the test set's)."""
    return 3 * np.sqrt(alpha * (1 - alpha) * (1 / N_CAL + 1 / n))


cover, quantile = {}, {}
for alpha in CONFORMAL_ALPHAS:
    for source, states in calibrate.items():
        h = conformal_heuristic(op.net, op.encoding, *states, alpha)
        quantile[source, alpha] = h.quantile
        for kind, test in sets.items():
            cover[source, kind, alpha] = coverage(h, *test)
    plain_h = LikelyAdmissible(op.net, op.encoding, alpha)
    for kind, test in sets.items():
        cover["plain", kind, alpha] = coverage(plain_h, *test)
print(f"\nconformal bounds 10(μ + σ_a·q_α), q_α calibrated on {N_CAL:,} states near the goal or on {N_CAL:,} "
      f"uniform ones; plain y^α is q = −Φ⁻¹(α):")
print(f"  {'α':>5} {'q_α, near':>10} {'q_α, uniform':>13} {'−Φ⁻¹(α)':>8}")
for alpha in CONFORMAL_ALPHAS:
    print(f"  {alpha:5} {quantile['near', alpha]:+10.3f} {quantile['uniform', alpha]:+13.3f} "
          f"{0.0 - LikelyAdmissible(op.net, op.encoding, alpha).z_alpha:+8.3f}")
print("the share of held-out states with y <= h*, and the tolerance (3 sd of the sampling error) on each kind:")
print(f"  {'tested on':>9} {'held-out states near the goal':^44} | {'all held-out states (uniform)':^44}".rstrip())
print(f"  {'α':>9} " + " | ".join([f"{'plain y^α':>10} {'cal. near':>10} {'cal. uniform':>12} {'tolerance':>9}"] * 2))
for alpha in CONFORMAL_ALPHAS:
    cells = " | ".join(f"{cover['plain', kind, alpha]:10.3f} {cover['near', kind, alpha]:10.3f} "
                       f"{cover['uniform', kind, alpha]:12.3f} {tolerance(alpha, len(sets[kind][1])):9.3f}"
                       for kind in sets)
    print(f"  {alpha:9} {cells}")
same_kind = {(source, alpha): cover[source, source, alpha] >= alpha - tolerance(alpha, len(sets[source][1]))
             for source in calibrate for alpha in CONFORMAL_ALPHAS}
short = [alpha for alpha in CONFORMAL_ALPHAS
         if cover["uniform", "near", alpha] < alpha - tolerance(alpha, N_TEST)]
print(f"  same kind, coverage >= α − tolerance: {sum(same_kind.values())} of {len(same_kind)}; calibrated on "
      f"uniform states, the states near the goal fall short of it at α = {short}")
print(HEADER)
for source in calibrate:
    test_row(f"conformal 0.9, calibrated {source}",
             conformal_heuristic(op.net, op.encoding, *calibrate[source], 0.9))

# --- 5. The committed full-scale results ---------------------------------------------------------------------
# `python -m la.experiments.suboptimality ... --baselines ... --only-baselines` writes a record whose table holds
# the paper's rows unmeasured (runs 0) and the baselines' rows; once adopted it is committed as
# figures/baselines_<domain>.json (`la.plots.baselines` reads and checks it, and merges one domain's records).


def committed(folder):
    """Print the measured rows and the conformal coverage of every committed baselines record in `folder`."""
    paths = sorted(folder.glob("baselines_*.json"))
    if not paths:
        print("\nno committed baselines record yet: `python -m la.experiments.suboptimality --domain 24-pancake "
              "--full --baselines boot,optimal,conformal` makes one")
        return
    for domain, (path, record) in read_all(paths).items():
        print(f"\n{path.name} ({domain}; {record.get('command', 'command not recorded')}):")
        print(f"  {'row':>9} {'runs':>4} {'subopt %':>9} {'optimal %':>9} {'nodes/task':>13} {'unsolved':>8}")
        for r in record["table"]:
            if r["runs"] > 0:
                measured = (f"{'—':>9} {'—':>9} {'—':>13}" if r["subopt"] is None else
                            f"{r['subopt']:9.2f} {r['optimal']:9.1f} {r['generated']:13,.0f}")
                print(f"  {r['row']:>9} {r['runs']:4d} {measured} {sum(r['unsolved']):>4}/{r['tasks'] * r['runs']}")
        for run in record.get("conformal") or []:
            for r in run["rows"]:
                print(f"  run {run['run']}, conformal α {r['alpha']}: y <= h* (conformal / plain) " + ", ".join(
                    f"{key.replace('_', ' ')} {r[key]['conformal']:.3f} / {r[key]['plain']:.3f} "
                    f"({r[key]['states']:,} states)" for key in ("held_out", "test_plans", "searched")))
                if "mean_h" in r["searched"]:       # what the coverage cost: the h the search used there
                    m = r["searched"]
                    print(f"    on the searched states mean h {m['mean_h']['conformal']:.1f} (conformal) / "
                          f"{m['mean_h']['plain']:.1f} (plain) against mean h* {m['mean_h_star']:.1f}")


committed(FIGURES)

# --- The figure ----------------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 3, figsize=(18, 4.3), gridspec_kw={"width_ratios": [1, 1, 0.8]})
ax = axes[0]
edges = np.arange(-0.5, max(suffix_excess.max(), boot_excess.max()) + 1.5)
for excess, label, style in ((suffix_excess, f"plan suffixes, IDA* with {WEIGHT}·MD", "C3"),
                             (boot_excess, "Boot's examples (TS)", "C1"),
                             (optimal_excess, "la.rivals.optimal_labels", "C0")):
    ax.hist(excess, edges, weights=np.full(len(excess), 1 / len(excess)), histtype="step", lw=1.5, color=style,
            label=f"{label}: {len(excess):,} records")
ax.set(yscale="log", xlabel="label − h* (moves)", ylabel="share of the records", title="training labels")
ax.legend(fontsize=7)
ax = axes[1]
rounds = [e["round"] for e in log]
ax.bar(rounds, [e["solved"] for e in log], color=["C2" if e["trained"] else "C7" for e in log])
ax.axhline(boot_config.ins_min, color="k", ls=":", lw=1, label=f"ins_min = {boot_config.ins_min}")
budgets = [e["node_limit"] for e in log]
handles = [Patch(color="C2", label="instances solved; then trained"),
           Patch(color="C7", label="fewer than ins_min solved: no training"),
           Line2D([], [], color="k", ls=":", lw=1, label=f"ins_min = {boot_config.ins_min}"),
           Line2D([], [], color="k", lw=1, label="budget (right axis)")]
ax.set(xlabel="round", ylabel="instances solved", title=f"Boot's rounds (stopped: {boot.stopped})",
       ylim=(0, 1.5 * max(e["solved"] for e in log)))
ax.legend(handles=handles, fontsize=7, loc="upper left")
twin = ax.twinx()
twin.step(rounds, budgets, "k-", where="mid", lw=1)
twin.set(yscale="log", ylabel="budget (nodes per instance)")
twin.set_yticks(sorted(set(budgets)), [f"{b:,}" for b in sorted(set(budgets))])
twin.yaxis.set_minor_formatter(NullFormatter())
ax = axes[2]
ax.plot([0, 1], [0, 1], "k:", lw=1, label="y = α")
for kind, style in (("near", "-"), ("uniform", "--")):
    ax.plot(ALPHAS, [c["y_alpha_below_h_star"] for c in plain[kind]], "s" + style, color="C7", ms=4,
            label=f"plain y^α, test {kind}")
ax.plot(CONFORMAL_ALPHAS, [cover["near", "near", a] for a in CONFORMAL_ALPHAS], "o-", color="C0",
        label="conformal: cal. near, test near")
ax.plot(CONFORMAL_ALPHAS, [cover["uniform", "uniform", a] for a in CONFORMAL_ALPHAS], "o--", color="C0",
        label="conformal: cal. uniform, test uniform")
ax.plot(CONFORMAL_ALPHAS, [cover["uniform", "near", a] for a in CONFORMAL_ALPHAS], "^-", color="C3",
        label="conformal: cal. uniform, test near")
ax.plot(CONFORMAL_ALPHAS, [cover["near", "uniform", a] for a in CONFORMAL_ALPHAS], "^--", color="C1",
        label="conformal: cal. near, test uniform")
ax.set(xlabel="α", ylabel="share of held-out states with y <= h*", title="coverage: the optimal-plan network",
       xlim=(0, 1), ylim=(0, 1))
ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
fig.suptitle("The competing learners on the 8-puzzle, with exact h* (tutorial scale)", fontsize=10)
fig.tight_layout()
out = tutorial_figure_path(__file__)                          # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"\nsaved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# --- the point, loosely ---------------------------------------------------------------------------------------
# Every plan found above was replayed to the goal (check_plan) before it was counted.
assert (optimal_excess == 0).all() and same, "la.rivals.optimal_labels' labels are the breadth-first h*, every one"
assert (suffix_excess > 0).any() and (suffix_excess >= 0).all(), \
    "plan-suffix labels from an inadmissible planner lie above h* on some records, below it on none"
assert doubled == too_few, "Boot's budget doubles exactly after the rounds that solved fewer than ins_min"
assert all(e["trained"] == (e["solved"] >= boot_config.ins_min) for e in log), "... and trains after the others"
assert boot.stopped == "solved" and len(boot.instances) < boot_config.ins_min, "Boot stopped: too few left"
assert rows["Manhattan distance"]["optimal"] == 100 and all(r["not_below"] for r in rows.values()), \
    "MD is admissible, and no plan is shorter than h*"
assert rows["Boot: round(μ)"]["generated"] < rows["Manhattan distance"]["generated"], "Boot's h needs fewer nodes"
assert all(same_kind.values()), "conformal coverage on held-out states of the calibration kind: α or above"
assert short, "calibrated on uniform states, the bound should cover the states near the goal less than α"
assert cover["plain", "uniform", 0.5] > 0.5 + tolerance(0.5, N_TEST), "plain y^α: not calibrated, above α"
