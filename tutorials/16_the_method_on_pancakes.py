"""Tutorial 16: the method on the 24-pancake, at tutorial scale.

Tutorials 10 and 12 ran LearnHeuristicPrac on the 15-puzzle, whose network reads the board. On the
paper's three other domains (§5, "Experiments for Other Domains") the networks read a few numbers,
mostly PDBs (tutorial 15), and plan with

    h = max(round(y^α), h_ad),       h_ad = the largest of the admissible inputs.

Here on the 24-pancake, the paper's second Table 3 domain:

  1. the 14 inputs of a stack (location-based PDBs, Yang et al. 2008; the paper's ten, read from the
     PDB cache) and h_ad, their admissible part; how far below h* h_ad lies, and what IDA* with h_ad
     alone does on a test stack;
  2. LearnHeuristicPrac, both networks (two outputs for the rows α, one output for the row N/A),
     shortened;
  3. Table 3's pancake rows at tutorial scale: a few α, N/A and the gap heuristic (Helmert 2010),
     the paper's admissible baseline, with IDA* in the authors' depth-first order; the paper's
     values beside ours;
  4. calibration against exact costs: how often y^α <= h* on the states along optimal plans of the
     test stacks, and how often the floor h_ad is what IDA* actually uses;
  5. the committed full-scale result, if there is one.

Scale. The paper trains for NumIter = 75 iterations with t_max = 300 s per task and tests on 50
stacks, 5 runs over. Here both networks train for 16 iterations with a far smaller budget per task
and are tested once on the 10 cheapest of the 50 test stacks, with a small budget each; part 2
prints every reduction. None of this is the paper's protocol; that is `python -m
la.experiments.suboptimality --domain 24-pancake --full` (and --paper for its 5 runs).

What will and will not show at this scale. The gap heuristic is admissible and almost exact on
pancakes: it solves every stack optimally with few nodes, as in the paper's Table 3 (printed beside
ours). Among the learned rows the paper's trend can show even here: the larger α, the more plans
optimal and the more nodes (so more stacks unsolved within a small budget), and the single-output
network, trained on its own suboptimal plans, more suboptimal than the α rows; a learned row can
need fewer nodes than gap only by giving up optimality. One short run shows this roughly, not row by
row; the rows may leave different stacks unsolved, so few or none may be solved by every row
(part 3).

Run from the repository root:  python tutorials/16_the_method_on_pancakes.py
"""
import sys
import time
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import FIGURES, ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from la.plots.records import read_record  # noqa: E402
from la.rivals.calibration import calibration  # noqa: E402
from la.config import DOMAINS  # noqa: E402
from la.runs.progress import BuildProgress  # noqa: E402
from la.buffer import weighted_minibatch  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.experiments import suboptimality, table3  # noqa: E402
from la.experiments.suboptimality_table import (format_table, reductions, summarize,  # noqa: E402
                                                table)
from la.features.encodings import for_domain  # noqa: E402
from la.heuristics.classical import Gap  # noqa: E402
from la.heuristics.pdb import PDBHeuristic  # noqa: E402
from la.runs.training import train  # noqa: E402
from la.pdb import sets, store  # noqa: E402
from la.search import check_plan, ida_star  # noqa: E402

# %%
DOMAIN = "24-pancake"
SEED = 8
ALPHAS = (0.95, 0.9, 0.75, 0.5, 0.25, 0.05)       # a few of the paper's seven α rows
TEST_TASKS = 10                                    # the cheapest of the 50 test stacks
                                                   # (`table3.easiest`)
TEST_BUDGET = 2_000_000                            # nodes per test task (the full experiment:
                                                   # 1.1 billion)
began, pancake = time.perf_counter(), make_domain(DOMAIN)

# %%
# --- 1. The 14 inputs, and h_ad -------------------------------------------------------------------
# A location-based PDB of a pattern, say pancakes {0,...,4}, knows only where those five are, and
# stores the fewest flips that bring them home, counting only the flips that take one of them off
# the top (`la.pdb.pancake`). Every flip takes exactly one pancake off the top, so the PDBs of a
# partition of the 24 pancakes count each flip at most once and add up to a lower bound (Yang et al.
# 2008). The paper's inputs: the ten PDBs of two partitions A and B (5-5-5-5-4 pancakes each;
# `la.pdb.sets`) and the two sums, each divided by the largest value it can take, then the middle
# pancake and the largest pancake out of place. The paper's middle-pancake feature says "out of
# place"; the authors' code (`HeuristicSearch/PancakePuzzle/Representations/Features.cs`) sets it to
# 1 when the pancake is IN place, and `la` follows the code. The first twelve are admissible; h_ad,
# their maximum, is the larger sum. The PDBs come from the PDB cache (`la.pdb.store`), built there
# once on first use (the first line says which, and how long; `python -m la.pdb build --domain
# 24-pancake` builds them ahead).
patterns = [p for group in sets.partitions(DOMAIN).values() for p in group]
missing = [p for p in patterns
           if not all(path.exists() for path in store.paths(sets.abstraction(DOMAIN, p)))]
loading = time.perf_counter()
# a progress line on stderr for each PDB built
features = for_domain(pancake, progress=BuildProgress())
print(f"the {DOMAIN}'s {len(patterns)} PDBs: {len(patterns) - len(missing)} read from the PDB "
      f"cache, {len(missing)} built into it, in {time.perf_counter() - loading:.1f} s")
tasks = {i.id: i for i in table3.TEST_SETS[DOMAIN]()}
costs, easiest = ([t.optimal for t in tasks.values()],
                  [tasks[i].optimal for i in table3.easiest(DOMAIN, TEST_TASKS)])
print(f"the {len(tasks)} test stacks: optimal costs {min(costs)}-{max(costs)}, mean "
      f"{np.mean(costs):.2f}; the {TEST_TASKS} cheapest, tested in part 3: "
      f"{min(easiest)}-{max(easiest)}")
example = tasks[1]
x, h_arr = features(example.state[None])[0], features.h_arr(example.state[None])[0]
names = [f"PDB {part}{j + 1} {{{','.join(map(str, features.pdbs[i].abstraction.pattern))}}}"
         for part, group in zip("AB", features.groups) for j, i in enumerate(group)]
names += ["sum of partition A", "sum of partition B"]
print(f"\nthe {features.size} inputs of test stack #{example.id} (optimal cost {example.optimal}):")
for name, value, scale, scaled in zip(names, h_arr, features.scale, x):
    print(f"  {name:32} {value:3d} / {scale:3.0f} = {scaled:.3f}")
print(f"  {f'middle pancake {features.middle} in place':32} {x[-2]:9.0f}")
print(f"  {'largest pancake out of place':32} {round(x[-1] * pancake.size):3d} / {pancake.size:3d} "
      f"= {x[-1]:.3f}")
h_ad, gap = int(features.admissible(example.state[None])[0]), Gap(pancake)
print(f"  h_ad = max of the 12 admissible inputs = {h_ad};  the gap heuristic "
      f"{gap(example.state[None])[0]};  h* = {example.optimal}")

# All 50 test stacks, solved optimally by IDA* with the gap heuristic (admissible, so its plans are
# optimal), give the states along optimal plans, each with its exact cost to the goal h*
# (la.rivals.calibration).
states, h_star = suboptimality.calibration_states(DOMAIN)
h_ad_all, gap_all = features.admissible(states), gap(states)
print(f"\non the {len(h_star):,} states along optimal plans of the 50 test stacks: mean h* "
      f"{h_star.mean():.2f}, gap {gap_all.mean():.2f}, h_ad {h_ad_all.mean():.2f}")
share = 100 * np.bincount(h_star - h_ad_all) / len(h_star)  # % of the states, by h* − h_ad
print(f"  gap = h* on {100 * (gap_all == h_star).mean():.0f} % of them; h_ad = h* on "
      f"{share[0]:.0f} %, and falls short by 1, 2, 3, ... flips on "
      + ", ".join(f"{v:.0f}" for v in share[1:]) + " %")
alone = ida_star(pancake, PDBHeuristic(features, features.floor_columns), example.state,
                 node_limit=TEST_BUDGET)
with_gap = ida_star(pancake, gap, example.state)
print(f"IDA* on stack #{example.id} with h_ad alone: {'' if alone.solved else 'not '}solved within "
      f"{TEST_BUDGET:,} nodes (its last bound {alone.bounds[-1]}); with gap: cost {with_gap.cost}, "
      f"{with_gap.generated:,} nodes")
# So h_ad alone is too weak to plan with; the network has to add the flips it misses. Why keep it as
# a floor under y^α? It never costs admissibility: h_ad <= h* on every state, so whenever y^α <= h*,
# also max(y^α, h_ad) <= h*; the floor changes h only where y^α lies below a certainly safe bound,
# and there it saves nodes for free. So P(max(y^α, h_ad) <= h*) = P(y^α <= h*) = α for a calibrated
# y^α (paper §5: "when planning we now use max(y^α, h^ad)"). The rounding is the authors' code's
# (C#'s Math.Round, half to even): IDA*'s bounds are integers, and round(y^α) <= h* whenever y^α <=
# h*, so it costs no admissibility either. Part 4 counts how often the floor binds.

# %%
# --- 2. LearnHeuristicPrac on the 24-pancake, shortened -------------------------------------------
# The domain's settings (la.config.DOMAINS: 8 hidden units, no dropout, the paper's MaxSteps), with
# fewer iterations and a far smaller node budget per training task; all else, the WUNN's training
# included, is the paper's.
full = table3.full(DOMAIN)
shorter = dict(num_iter=16, node_limit=500_000)
cfg = replace(full, learn=replace(full.learn, **shorter),
              learn_mean=replace(full.learn_mean, **shorter), alphas=ALPHAS,
              instances=table3.easiest(DOMAIN, TEST_TASKS), test_node_limit=TEST_BUDGET,
              baseline_instances=table3.easiest(DOMAIN, TEST_TASKS),
              baseline_node_limit=TEST_BUDGET)
print(f"\nsmaller than the paper's protocol ({DOMAINS[DOMAIN].t_max:.0f} s per task = "
      f"{DOMAINS[DOMAIN].node_limit:,} nodes at the authors' rate): "
      + "; ".join(reductions(cfg, full)))
# An iteration's Update can run all 101 blocks of 50 WUNN steps (tutorial 08), the longest silent
# step here. Its minibatches are drawn by `weighted_minibatch`, handed to `train` below wrapped so
# that every WUNN_LINE draws print where the training stands: the same draws from the same
# generator, so the same networks.
WUNN_LINE = 25 * cfg.learn.wunn_block_steps                # a line every 25 blocks


def with_progress(sample, started):
    """`sample`, printing a line every WUNN_LINE calls (WUNN steps) since `started`."""
    steps = 0

    def draw(weight, n, rng):
        nonlocal steps
        steps += 1
        if steps % WUNN_LINE == 0:
            print(f"    the Update's WUNN training: {steps:,} steps since the start "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
        return sample(weight, n, rng)
    return draw


learners = {}
for which, learn_cfg, seed in (("alpha", cfg.learn, SEED), ("mean", cfg.learn_mean, [SEED, 1])):
    print(f"training the {'two-output' if which == 'alpha' else 'single-output'} network:")
    started = time.perf_counter()
    learners[which] = learner = train(pancake, learn_cfg, np.random.default_rng(seed), features,
                                      progress=print,
                                      minibatch=with_progress(weighted_minibatch, started))
    last = learner.log[-1]
    print(f"  {time.perf_counter() - started:.0f} s: {100 * learner.solved_fraction():.0f} % of "
          f"its training tasks solved, labels up to {learner.buffer.labels().max()}, the last "
          f"iteration's tasks {np.mean([t['steps'] for t in last['tasks']]):.0f} moves long"
          + (", planning with the mean (no α)" if last["alpha"] is None
             else f", α at the end {last['alpha']}"))

# %%
# --- 3. Table 3's pancake rows at tutorial scale --------------------------------------------------
# At test time σ_t = σ_a, without the training-time quantile rule (paper §5):
# `test_heuristic(alpha)`, floored at h_ad as in training; the single-output network plans with
# max(round(μ), h_ad).
heuristics = {cfg.baseline_row: gap, "N/A": learners["mean"].test_heuristic()}
heuristics.update({str(a): learners["alpha"].test_heuristic(a) for a in cfg.alphas})
chosen = [tasks[i] for i in cfg.instances]
print(f"\ntesting {len(heuristics)} rows on {len(chosen)} stacks, {TEST_BUDGET:,} nodes each")
tests = []
for row in cfg.rows():
    records = []
    for instance in chosen:
        result = ida_star(pancake, heuristics[row], instance.state, node_limit=TEST_BUDGET,
                          order=cfg.order)
        if result.solved:
            check_plan(pancake, instance.state, result.plan)  # every plan is replayed
        records.append({"id": instance.id, "optimal": instance.optimal, "solved": result.solved,
                        "cost": result.cost, "generated": result.generated,
                        "seconds": result.seconds})
    tests.append({"row": row, "records": records, **summarize(records)})
    print(f"  row {row:>4}: {tests[-1]['tasks'] - tests[-1]['unsolved']}/{len(chosen)} solved")
rows = table(cfg, tests, table3.PAPER[DOMAIN])
print(f"\nTable 3, 24-pancake, at tutorial scale: the {TEST_TASKS} cheapest test stacks, "
      f"{TEST_BUDGET:,} nodes each, one run; columns over each row's solved tasks. The paper's: 50 "
      f"stacks, full training, 5 runs, C# seconds")
print(format_table(rows, table3.BOOT[DOMAIN]))
by_row = {r["row"]: r for r in rows}
learned = [str(a) for a in cfg.alphas]                                 # largest α first
common = {row: by_row[row]["common"] for row in cfg.rows()}          # on the tasks every row solved
n_common = common["Gap"]["tasks"]
print(f"\nwhat showed, on the {n_common} stacks every row solved:")
if n_common == 0:
    # A small budget and a young network can leave each row a different stack unsolved: no stack to
    # compare on.
    print("  none: every stack was left unsolved by some row within the budget, so the rows cannot "
          "be compared on the same stacks (the first table compares each row's own solved stacks)")
else:
    fewer = {r: common["Gap"]["generated"] < common[r]["generated"] for r in learned + ["N/A"]}
    print(f"  gap needed fewer nodes than every learned row: {all(fewer.values())}; fewer than "
          f"every optimal one: {all(fewer[r] for r in fewer if common[r]['optimal'] == 100)}")
    print(f"  α = {learned[0]} against {learned[-1]}: {common[learned[0]]['subopt']:.2f} % against "
          f"{common[learned[-1]]['subopt']:.2f} % suboptimal, {common[learned[0]]['optimal']:.0f} "
          f"% against {common[learned[-1]]['optimal']:.0f} % optimal")
    subopts = [common[r]["subopt"] for r in learned]
    print(f"  suboptimality rises row by row as α falls: "
          f"{all(a <= b for a, b in zip(subopts, subopts[1:]))}")
    print(f"  N/A: {common['N/A']['subopt']:.2f} % suboptimal, the best α row {min(subopts):.2f} %")
print(f"  unsolved within the budget (of all {TEST_TASKS}): α = {learned[0]} "
      f"{sum(by_row[learned[0]]['unsolved'])}, α = {learned[-1]} "
      f"{sum(by_row[learned[-1]]['unsolved'])}")

# %%
# --- 4. Calibration against exact costs, and the floor --------------------------------------------
# On the same states as in part 1: for each α the share with y^α <= h* (a calibrated y^α puts it at
# α), the share with the integer h = max(round(y^α), h_ad) <= h* (at least as large: rounding and
# the floor never break admissibility, and can restore it), and the share on which the floor binds,
# h_ad > round(y^α).
heuristic_for = learners["alpha"].test_heuristic
checked = calibration(heuristic_for, states, h_star)
by_alpha = {c["alpha"]: heuristic_for(c["alpha"]) for c in checked}
binds = {a: float(np.mean(h_ad_all > np.rint(h.values(h.hidden(states)))))
         for a, h in by_alpha.items()}
print(f"\ncalibration on the {len(h_star):,} states along optimal plans of the 50 test stacks:")
print(f"{'α':>6} {'y^α <= h*':>10} {'h <= h*':>8} {'floor binds':>12}")
for c in checked:
    print(f"{c['alpha']:6} {c['y_alpha_below_h_star']:10.2f} {c['h_admissible']:8.2f} "
          f"{binds[c['alpha']]:12.2f}")
mean_h = learners["mean"].test_heuristic()
print(f"the single-output network: h = max(round(μ), h_ad) <= h* on "
      f"{np.mean(mean_h(states) <= h_star):.2f} of them")

# %%
# --- 5. The committed full-scale run (`python -m la.plots --table3 ... --copy` adopts one) --------
record = FIGURES / f"table3_{DOMAIN}.json"                        # committed results, read only
if record.exists():
    committed = read_record(record, "suboptimality")
    print(f"\nthe committed full-scale run ({committed['command']}, commit "
          f"{(committed.get('commit') or '?')[:7]}):")
    print(format_table(committed["table"], table3.BOOT[DOMAIN]))
else:
    print(f"\nno committed full-scale result yet ({record.relative_to(ROOT)} does not exist): "
          f"`python -m la.experiments.suboptimality --domain {DOMAIN} --full` makes one")

# %%
# --- The figure: what the network learnt, and how calibrated it is --------------------------------
# (the training curves are printed, line by line)
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
alphas = [c["alpha"] for c in checked]
left.plot([0, 1], [0, 1], "k:", label="calibrated: fraction = α")
left.plot(alphas, [c["y_alpha_below_h_star"] for c in checked], "o-", label="y^α <= h*")
left.plot(alphas, [c["h_admissible"] for c in checked], "s--", label="max(round(y^α), h_ad) <= h*")
left.plot(alphas, [binds[a] for a in alphas], "^-.", label="the floor binds: h_ad > round(y^α)")
left.set(xlabel="α", ylabel="fraction of states", title=f"{len(h_star):,} states with known h*")
left.legend(fontsize=7)
levels, h_09 = np.arange(1, h_star.max() + 1), heuristic_for(0.9)
curves = {"gap": gap_all, "h_ad": h_ad_all,
          "round(y^0.9)": np.rint(h_09.values(h_09.hidden(states))),
          "max(round(y^0.9), h_ad)": h_09(states), "N/A: max(round(μ), h_ad)": mean_h(states)}
for label, values in curves.items():
    right.plot(levels, np.bincount(h_star, weights=values)[1:] / np.bincount(h_star)[1:],
               label=label)
right.plot(levels, levels, "k:", label="h = h*")
right.set(xlabel="h* (flips to the goal)", ylabel="mean h over the states with that h*",
          title="what each heuristic knows")
right.legend(fontsize=7)
fig.suptitle("LearnHeuristicPrac on the 24-pancake at tutorial scale (reduced, not the paper's "
             "protocol)", fontsize=10)
fig.tight_layout()
out = figure_path("16_the_method_on_pancakes")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
# Every test plan of part 3 was replayed to the goal (check_plan) before it was counted.
assert (h_ad_all <= h_star).all() and (gap_all <= h_star).all(), "h_ad and gap never overestimate"
assert not alone.solved and with_gap.solved, "h_ad alone is too weak to plan with; gap is not"
assert by_row["Gap"]["unsolved"] == [0] and by_row["Gap"]["optimal"] == 100, \
    "gap is admissible: always optimal"
assert n_common == 0 or all(fewer[r] for r in fewer if common[r]["optimal"] == 100), \
    "a learned row needs fewer nodes than gap only by giving up optimality"
below = [c["y_alpha_below_h_star"] for c in checked]
assert all(a <= b for a, b in zip(below, below[1:])), "the larger α, the more states with y^α <= h*"
assert all(c["h_admissible"] >= c["y_alpha_below_h_star"] for c in checked), \
    "rounding and the admissible floor never turn an underestimate into an overestimate"
assert max(binds.values()) > 0, "somewhere the floor should lift the network's estimate"
