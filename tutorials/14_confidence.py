"""Tutorial 14: taking the network's confidence into account (Heller et al. 2022), at tutorial scale.

Every network so far gave one number per state. Heller, Ferber, Bitterwolf, Hein & Hoffmann (SoCS 2022) train a
*classification* network instead: f(s) is a distribution over the costs 0..H, the heuristic is the most likely
cost and the confidence its probability ("Search Methods"),

    h^NN(s) = argmax_i f(s)_i,        c^NN(s) = max_i f(s)_i,

trained by cross-entropy on a teacher's data: greedy plans from random-walk seeds, each plan state labelled with
its remaining cost on its plan ("Planning Background"; `la.heller.teacher`). Here:

  1. Is c^NN lower on inputs unlike the training states? Not necessarily: nothing in training asks the network
     to be unsure anywhere. Out-of-distribution (OOD) training adds noise inputs whose target is the uniform
     distribution ("Training with OOD Inputs"): uniform noise (every input bit a fair coin) or weighted noise
     (bit e on with its frequency p_e in the training inputs). The paper's Table 1 for two of its networks:
     Standard (no noise) and W50 (weighted noise, half of every batch), the one it searches with.
  2. What pruning by confidence does to greedy best-first search (GBFS). A generated state is dropped if
     c^NN(s) < t, t the X-th percentile of the confidences on the training states (Mean Threshold), or if
     c^NN(s) < t_i, the X-th percentile among the training states of cost i = h^NN(s) (Adaptive Threshold). In a
     single queue this makes GBFS incomplete; in a dual queue (Röger & Helmert 2010), which alternates between
     h^NN and a classical heuristic and prunes the h^NN queue only, the search stays complete (Table 2).
  3. Why two thresholds: confidence falls with the distance to the goal, so one threshold for all states prunes
     the states far from the goal first ("Adaptive Threshold"). Confidence against h^NN on the training states,
     on held-out ones and on the states the search met, and what each threshold prunes of them.
  4. (la's question) σ_e against max-softmax. Marom & Rosman's WUNN (tutorial 05) measures epistemic
     uncertainty σ_e, meant to be large where data are missing. Fitted on the same teacher data
     (`la.heller.uncertainty_fit`): do −σ_e and c^NN rank states alike, and does either rank them by how wrong h^NN
     is, on held-out teacher states and on states the search met?

The domain is the experiment's (`la.experiments.confidence_config`): the 15-puzzle, one-hot inputs
(`la.features.one_hot`), Manhattan distance (MD) as the teacher's heuristic (standing in for the paper's h^FF) and
as the dual queue's classical heuristic, Korf's instances as test tasks. The 8-puzzle would be faster and has
exact h*, but its teacher plans run through the same few thousand states again and again: most held-out states
have been seen in training, and confidence on them measures memory rather than generalisation.

Scale. The experiment (`python -m la.experiments.confidence --domain 15-puzzle`) labels the plans of 1,000 seeds
(about 130,000 states), trains seven networks for up to 500 epochs each and runs 51 search rows on Korf's 100
instances, 10,000 nodes each. Here: 300 seeds, three networks (Standard, W50 and the WUNN) of at most 100 epochs,
and 15 search rows (X = 5, 20, 40 %) on Korf's first 10 instances with the same 10,000 nodes. The paper measures
on IPC planning tasks (Blocksworld, Depots, Grid, ...), not puzzles: its numbers, printed beside ours, are for
other domains and far larger training.

What to expect at this scale. OOD training does what Table 1 shows: W50 is far less confident on weighted noise
than Standard; unlike in the paper, it is also somewhat less confident on the held-out states. The networks are
still improving when the epoch cap stops them, so their confidence stays low (the paper's In: 29 %). Confidence
falls steeply with h^NN: the mean threshold prunes the far states first, the adaptive one much more evenly. The
network is weak: GBFS with h^NN alone solves fewer of the 10 tasks than GBFS with MD, because it is drawn to
states that h^NN wrongly puts near the goal; its confidence there is low, so mild pruning can help GBFS here,
where the paper's mean threshold hurt. With 10 tasks, one network and one seed, a task or two between rows is
noise; each part prints which of the paper's claims held this time.

Run from the repository root:  python tutorials/14_confidence.py   (about 1.5 minutes on 2 cores, measured while
other experiments shared them)
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
from matplotlib.ticker import NullFormatter  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

from la import data  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.experiments.confidence import (HELD_OUT, TRAIN, VALIDATION, ood_stats, predictor, search,  # noqa: E402
                                       split_roles)
from la.experiments.confidence_config import CONFIGS, PAPER_OOD, noise_of, rows  # noqa: E402
from la.experiments.confidence_table import summarize  # noqa: E402
from la.features.encodings import for_domain  # noqa: E402
from la.heller.evaluators import NNEvaluator, SigmaE  # noqa: E402
from la.heller.classifier_fit import train  # noqa: E402
from la.heller.config import build_classifier  # noqa: E402
from la.nn.config import build_wunn
from la.heller.ood import UniformNoise, WeightedNoise  # noqa: E402
from la.heller.uncertainty_fit import fit_wunn  # noqa: E402
from la.plots.style import tutorial_figure_path  # noqa: E402
from la.search import check_plan  # noqa: E402
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold  # noqa: E402
from la.heller.teacher import label_plans, teacher_data, teacher_heuristic  # noqa: E402

SEED = 14
EPOCHS = 100                    # per network (the experiment: up to 500, stopping early)
full = CONFIGS["15-puzzle"]
cfg = replace(full, seeds=300, instances=tuple(range(1, 11)), X=(5, 20, 40), noise_rows=2_000,
              networks=("Standard", "W50"), classifier=replace(full.classifier, max_epochs=EPOCHS),
              supervised=replace(full.supervised, max_epochs=EPOCHS))
X_SHOWN = 20                    # the X whose thresholds part 3 and the figure show
BANDS = (0, 20, 60, 120)        # h^NN bands, from near the goal to far from it (teacher plans: up to ~350 moves)
TOLERANCE = 5                   # part 4: h^NN is "right" within 5 moves of the teacher's cost
MET_SAMPLE = 200                # part 4: states met by the search, labelled by the teacher
rng = np.random.default_rng(SEED)
began = time.perf_counter()
puzzle = make_domain(cfg.domain)
md = teacher_heuristic(puzzle)                 # Manhattan distance: teacher and classical heuristic
encoding = for_domain(puzzle)                  # the one-hot, 128 inputs


def band_of(h):
    """Each h^NN's band: 0 for 0-19, 1 for 20-59, 2 for 60-119, 3 for 120 and more."""
    return np.searchsorted(BANDS, h, side="right") - 1


def span(b):
    """Band b as text: '0-19', ..., '>= 120'."""
    return f"{BANDS[b]}-{BANDS[b + 1] - 1}" if b + 1 < len(BANDS) else f">= {BANDS[b]}"


# --- 1. Teacher data, two classifiers, and Table 1 -----------------------------------------------------------------
# Seeds: random walks of 1..300 moves back from the goal (la's puzzles have one goal; the paper walks forward
# from a task's initial state). Each seed is solved by GBFS with MD; every state of every plan is labelled with
# its remaining cost on that plan. A tenth of the plans is held out (the "In" column and Kendall's τ), one fold of
# the rest validates for early stopping (`split_roles`, as the experiment splits).
started = time.perf_counter()
walks = rng.integers(1, cfg.walk_max + 1, cfg.seeds)
teacher = teacher_data(puzzle, md, cfg.seeds, walks, rng, cfg.teacher_node_limit)
states, costs = teacher.states, teacher.costs
role = split_roles(teacher.starts, cfg.classifier.folds, cfg.held_out, rng)
trn, val, held = (np.flatnonzero(role == r) for r in (TRAIN, VALIDATION, HELD_OUT))
X = encoding(states)                                                  # (n, 128) float32, 32 ones per row
print(f"teacher: {cfg.seeds} seeds solved by GBFS with MD ({teacher.unsolved} unsolved), {len(states):,} plan "
      f"states, costs 0-{costs.max()} (so H = {costs.max()}: {costs.max() + 1} classes), "
      f"{time.perf_counter() - started:.0f} s")
print(f"  {len(trn):,} training, {len(val):,} validation and {len(held):,} held-out states (whole plans held out)")

# Noise for the OOD columns, drawn once and shown to both networks. A state's one-hot has 32 ones of 128
# (a column bit and a row bit per value); uniform noise has about 64, weighted noise about 32 in the usual places.
noise = {"U": UniformNoise(X[trn])(cfg.noise_rows, rng), "W": WeightedNoise(X[trn])(cfg.noise_rows, rng)}
nets, stats, scores = {}, {}, {}
for name in cfg.networks:
    sampler, Y = noise_of(name)                                       # W50: WeightedNoise, Y = 50 %
    started = time.perf_counter()
    net, opt = build_classifier(cfg.classifier, X.shape[1], int(costs.max()), rng)
    history = train(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.classifier, rng,
                    None if sampler is None else sampler(X[trn]), Y)
    nets[name] = net
    predict = predictor(name, net, cfg)                               # X -> (h^NN, c^NN)
    stats[name] = ood_stats(predict, costs[held], X[held], noise)
    scores[name] = {"In": predict(X[held])[1], "Out-U": predict(noise["U"])[1], "Out-W": predict(noise["W"])[1]}
    print(f"trained {name}: {len(history.val_loss)} epochs (best {history.best_epoch + 1}), "
          f"{time.perf_counter() - started:.0f} s")

print(f"\nTable 1 at tutorial scale: median c^NN on {len(held):,} held-out states (In) and on {cfg.noise_rows:,} "
      f"noise inputs; Kendall's τ of h^NN against the teacher's cost on the held-out states.")
print("The paper's: medians over IPC tasks (other domains, full training).")
print(f"{'network':>9} | {'In':>6} {'Out-U':>6} {'Out-W':>6} {'τ':>6} {'|err|':>6} | "
      f"{'paper: In':>9} {'Out-U':>6} {'Out-W':>6} {'τ':>6}")
for name in cfg.networks:
    s, paper = stats[name], PAPER_OOD[name]
    print(f"{name:>9} | {100 * s['in']:5.1f}% {100 * s['out_u']:5.1f}% {100 * s['out_w']:5.1f}% {s['tau']:6.3f} "
          f"{s['mae']:6.1f} | {paper[0]:8.1f}% {paper[1]:5.1f}% {paper[2]:5.1f}% {paper[3] / 100:6.3f}")
print(f"(|err|: mean |h^NN − teacher cost| in moves. A network that knew nothing would put 1/{costs.max() + 1} = "
      f"{100 / (costs.max() + 1):.1f}% on every cost.)")

print("what held:")
standard, w50 = stats["Standard"], stats["W50"]
print(f"  W50 far less confident on weighted noise than Standard: {100 * w50['out_w']:.1f}% against "
      f"{100 * standard['out_w']:.1f}% (the paper: 1.1% against 10.9%)")
print(f"  ... and on uniform noise, which it never saw: {100 * w50['out_u']:.1f}% against "
      f"{100 * standard['out_u']:.1f}% (the paper: 10.9% against 14.5%)")
print(f"  in distribution: In {100 * w50['in']:.1f}% against {100 * standard['in']:.1f}%, τ {w50['tau']:.3f} against "
      f"{standard['tau']:.3f} (the paper: unchanged, 29.0% against 29.3%, 0.846 against 0.841)")

# --- 2. Pruning in GBFS and in the dual queue -------------------------------------------------------------------
# The searches use W50 (the paper's choice); the thresholds are percentiles of its confidences on the training
# states, the adaptive ones per cost group (`la.heller.thresholds`). The rows are those of the coverage table
# (`la.experiments.confidence_config.rows`) that prune by c^NN: GBFS with MD alone, GBFS with h^NN (base) and with
# the mean (M) or adaptive (A) threshold at X %, then the dual queue (h^NN and MD in turn) without pruning and
# pruning its h^NN queue. Every plan is replayed to the goal before it counts.
evaluator = NNEvaluator(nets[cfg.search_network], encoding)           # states -> (h^NN, c^NN), batched
h_train, c_train = evaluator(states[trn])
threshold = {"mean": lambda x: MeanThreshold.from_training(c_train, x),
             "adaptive": lambda x: AdaptiveThreshold.from_training(c_train, costs[trn], x)}
tasks = [t for t in data.korf100() if t.id in cfg.instances]
table_rows = [r for r in rows(cfg.X) if r.signal in ("classical", "softmax") and r.method in ("base", "M", "A")]
met = []                                   # every batch of states GBFS with h^NN evaluates, for parts 3 and 4


def watched(batch):
    """W50's evaluator, keeping each batch of states it scores."""
    met.append(np.array(batch))
    return evaluator(batch)


results, replayed = {}, 0
started = time.perf_counter()
for row in table_rows:
    rule = None if row.threshold is None else threshold[row.threshold](row.X)
    nn = watched if row.name == "GBFS base" else evaluator
    records = []
    for task in tasks:
        result = search(row, puzzle, nn, md, rule, task.state, cfg.node_limit)
        if result.solved:
            check_plan(puzzle, task.state, result.plan)
            replayed += 1
        records.append({"id": task.id, "solved": result.solved, "cost": result.cost,
                        "generated": result.generated, "status": result.status})
    results[row.name] = {**summarize(records), "emptied": sum(r["status"] == "no solution" for r in records)}
print(f"\nsearch on Korf's instances {cfg.instances[0]}-{cfg.instances[-1]} (optimal costs "
      f"{min(t.optimal for t in tasks)}-{max(t.optimal for t in tasks)}), {cfg.node_limit:,} generated nodes each, "
      f"{time.perf_counter() - started:.0f} s; cost and nodes are means over the solved tasks")
print(f"{'row':>15} {'solved':>7} {'mean cost':>10} {'mean nodes':>11} {'queue emptied':>14}")
for name, r in results.items():
    cost = "—" if r["cost"] is None else f"{r['cost']:.0f}"
    nodes = "—" if r["generated"] is None else f"{r['generated']:,.0f}"
    print(f"{name:>15} {r['solved']:4}/{r['tasks']:<2} {cost:>10} {nodes:>11} {r['emptied']:14}")
print("('queue emptied': pruning left nothing to expand, and the search stopped before its budget ran out)")
solved = {name: r["solved"] for name, r in results.items()}
single = sum(solved[f"GBFS {m}{x}"] for m in "MA" for x in cfg.X)
dual = sum(solved[f"dual {m}{x}"] for m in "MA" for x in cfg.X)
print("what held this time (10 tasks: a task or two either way is noise):")
print(f"  the dual queue without pruning solved more than GBFS with h^NN and more than GBFS with MD: "
      f"{solved['dual base'] > max(solved['GBFS base'], solved['GBFS classical'])}")
print(f"  pruning in the dual queue solved at least as many as pruning in GBFS, over all {2 * len(cfg.X)} "
      f"thresholds: {dual >= single} ({dual} against {single} tasks)")
adaptive_wins = [x for x in cfg.X if solved[f"GBFS A{x}"] >= solved[f"GBFS M{x}"]]
print(f"  in GBFS, the adaptive threshold solved at least as many as the mean one at X = "
      f"{', '.join(map(str, adaptive_wins)) or 'none'} (of {', '.join(map(str, cfg.X))}); the paper's Table 2: "
      f"almost always")
print(f"  the mildest pruning in GBFS: M{cfg.X[0]} {solved[f'GBFS M{cfg.X[0]}']}, A{cfg.X[0]} "
      f"{solved[f'GBFS A{cfg.X[0]}']} against base {solved['GBFS base']} (the paper: A5 helps in 5 of its 8 "
      f"domains, M5 harms in all)")

# --- 3. Why: confidence against h^NN --------------------------------------------------------------------------------
# The states GBFS with h^NN evaluated, beside the training and held-out states. By construction the adaptive
# threshold prunes X % of each cost group of the training states; the mean one prunes X % of all of them, taken
# where confidence is lowest: far from the goal.
met_states = np.unique(np.concatenate(met), axis=0)
h_held, c_held = evaluator(states[held])
h_met, c_met = evaluator(met_states)
mean_t, adaptive_t = threshold["mean"](X_SHOWN), threshold["adaptive"](X_SHOWN)
rho_h = spearmanr(c_held, h_held)[0]
print(f"\n{cfg.search_network}: Spearman's ρ between c^NN and h^NN on the held-out states {rho_h:+.2f}. "
      f"X = {X_SHOWN} %: the mean threshold t = {mean_t.t:.3f}, the adaptive")
print(f"one {len(adaptive_t.t)} cost groups of >= 100 training states with t_i from {adaptive_t.t.max():.3f} down to "
      f"{adaptive_t.t.min():.3f}. By h^NN band: median c^NN, and the share each threshold prunes.")
sets3 = {"train": (h_train, c_train), "held-out": (h_held, c_held), "met": (h_met, c_met)}
print(f"{'':>8} | {'median c^NN':^22} | {f'pruned by M{X_SHOWN}':^20} | {f'pruned by A{X_SHOWN}':^20} | states met")
print(f"{'h^NN':>8} | " + " | ".join(" ".join(f"{k:>6}" for k in ("train", "held", "met")) for _ in range(3)) + " |")
pruned = {}
for label, (h, c) in sets3.items():
    pruned[label] = {"M": ~mean_t.confident(h, c), "A": ~adaptive_t.confident(h, c), "band": band_of(h)}
for b in range(len(BANDS)):
    cells = []
    for what in ("median", "M", "A"):
        for label, (h, c) in sets3.items():
            m = pruned[label]["band"] == b
            if not m.any():
                cells.append(f"{'—':>6}")
            elif what == "median":
                cells.append(f"{np.median(c[m]):6.3f}")
            else:
                cells.append(f"{100 * pruned[label][what][m].mean():5.0f}%")
    print(f"{span(b):>8} | {' '.join(cells[:3])} | {' '.join(cells[3:6])} | {' '.join(cells[6:])} | "
          f"{(pruned['met']['band'] == b).sum():10,}")
print(f"GBFS with h^NN evaluated {len(met_states):,} distinct states, {(pruned['met']['band'] == 0).mean():.0%} of "
      f"them with h^NN < {BANDS[1]} (of the held-out states: {(pruned['held-out']['band'] == 0).mean():.0%}).")
# Read the met columns against the held-out ones. A held-out state that h^NN puts near the goal is confident: it
# lies on the last moves of plans much like the training plans. If the states GBFS met there are not, h^NN is
# likely wrong about them (part 4 asks the teacher); GBFS, which always expands a smallest h next, keeps expanding
# them, and a threshold that prunes them frees the search to go elsewhere: mild pruning can then help GBFS.

# --- 4. σ_e against max-softmax -----------------------------------------------------------------------------------
# The WUNN learns the teacher's cost itself (Eq. 2, β fixed at 1e-5), with early stopping like the classifiers.
started = time.perf_counter()
wunn, opt = build_wunn(cfg.wunn, X.shape[1], rng)
history = fit_wunn(wunn, opt, X[trn], costs[trn], X[val], costs[val], cfg.supervised, rng, cfg.wunn.S)
wunn_stats = ood_stats(predictor("WUNN", wunn, cfg), costs[held], X[held], noise)
minus_sigma_e = SigmaE(wunn)                                          # X -> −σ_e: higher = more confident
print(f"\ntrained the WUNN: {len(history.val_loss)} epochs, {time.perf_counter() - started:.0f} s. Median σ_e: "
      f"{wunn_stats['in']:.2f} moves on held-out states, {wunn_stats['out_u']:.2f} on uniform and "
      f"{wunn_stats['out_w']:.2f} on weighted noise, without OOD training; its mean is off by "
      f"{wunn_stats['mae']:.1f} moves on average (h^NN: {stats[cfg.search_network]['mae']:.1f})")

# States met by the search have no label: the teacher labels a sample, solving each by GBFS with MD as it solved
# its seeds. The test of a signal: does it rank the states by how wrong h^NN is, i.e. Spearman's ρ between the
# signal and −|h^NN − teacher cost| (+1: the more confident, the smaller the error, always)?
sample = met_states[rng.choice(len(met_states), size=min(MET_SAMPLE, len(met_states)), replace=False)]
labelled = label_plans(puzzle, sample, md, cfg.teacher_node_limit)
sets4 = {"held-out": (states[held], costs[held]),
         "met": (sample[labelled.solved], labelled.costs[labelled.starts[:-1]])}    # a plan's first cost: its length
print(f"{'':>9} {'states':>7} {'|err|':>6} {f'> {TOLERANCE}':>5} {'median c^NN':>12} {'median σ_e':>11} "
      f"{'ρ(c^NN, −σ_e)':>14} | ρ with −|err|: {'c^NN':>6} {'−σ_e':>6} {'−h^NN':>6}")
signals = {}
for label, (s, cost) in sets4.items():
    h, c = evaluator(s)
    e = minus_sigma_e(encoding(s))
    err = np.abs(h - cost)
    rank = {name: spearmanr(score, -err)[0] for name, score in (("c", c), ("e", e), ("h", -h))}
    signals[label] = {"h": h, "c": c, "e": e, "cost": cost, "rho": spearmanr(c, e)[0], "rank": rank}
    print(f"{label:>9} {len(s):7,} {np.median(err):6.0f} {100 * np.mean(err > TOLERANCE):4.0f}% "
          f"{np.median(c):12.3f} {-np.median(e):11.2f} {signals[label]['rho']:+14.2f} | {'':15}"
          + " ".join(f"{rank[name]:+6.2f}" for name in ("c", "e", "h")))
print(f"(|err|: median |h^NN − teacher cost| in moves; > {TOLERANCE}: share off by more than {TOLERANCE} moves; "
      f"−h^NN, distance alone, as a yardstick)")
held_out, met_sig = signals["held-out"], signals["met"]
near = met_sig["h"] < BANDS[1]
print(f"of the sampled states met, {near.sum()} of {len(near)} have h^NN < {BANDS[1]}; the teacher needs a median of "
      f"{np.median(met_sig['cost'][near]):.0f} moves from them (median c^NN {np.median(met_sig['c'][near]):.3f}, "
      f"σ_e {-np.median(met_sig['e'][near]):.2f})")
unfamiliar = bool(np.median(met_sig["c"]) < np.median(held_out["c"])
                  and np.median(met_sig["e"]) < np.median(held_out["e"]))      # e = −σ_e
print("what held:")
print(f"  both signals find the states met less familiar than the held-out ones (lower c^NN, higher σ_e): "
      f"{unfamiliar}")
ahead = {name: held_out["rank"][name] - held_out["rank"]["h"] for name in ("c", "e")}
barely = max(ahead.values()) < 0.1
print(f"  on held-out states, each signal's ρ with −|err| beyond that of distance alone: c^NN {ahead['c']:+.2f}, "
      f"−σ_e {ahead['e']:+.2f}" + ("; little: what either knows is mostly how far the goal is" if barely else ""))
print(f"  on the states met, the two signals agree (ρ > 0): {bool(met_sig['rho'] > 0)}; either ranks the errors "
      f"there (ρ > 0.3): c^NN {met_sig['rank']['c'] > 0.3}, −σ_e {met_sig['rank']['e'] > 0.3}")

# --- The figure -----------------------------------------------------------------------------------------------------
fig, axes = plt.subplots(2, 2, figsize=(13, 9))
ax = axes[0, 0]
for name, style in zip(cfg.networks, ("-", "--")):
    for (kind, c), colour in zip(scores[name].items(), ("C0", "C1", "C2")):
        ax.plot(np.sort(c), np.linspace(0, 1, len(c)), linestyle=style, color=colour, label=f"{name}: {kind}")
ax.axhline(0.5, color="grey", linewidth=0.5)                          # where each curve crosses: its median
ax.set(xscale="log", xlabel="c^NN = max_i f(s)_i", ylabel="fraction of inputs with a lower c^NN",
       title="confidence in and out of distribution (solid: Standard, dashed: W50)")
ax.legend(fontsize=7)
ax = axes[0, 1]
shown = rng.choice(len(h_met), size=min(4000, len(h_met)), replace=False)
ax.scatter(h_held, c_held, s=3, alpha=0.3, color="C0", label="held-out teacher states")
ax.scatter(h_met[shown], c_met[shown], s=3, alpha=0.3, color="C3", label="states GBFS with h^NN evaluated")
ax.axhline(mean_t.t, color="k", linestyle=":", label=f"mean threshold, X = {X_SHOWN} %")
edges = np.append(adaptive_t.lower, max(costs.max(), h_met.max()) + 1)
ax.stairs(adaptive_t.t, edges, color="k", label=f"adaptive thresholds t_i, X = {X_SHOWN} %")
ax.set(yscale="log", xlabel="h^NN(s)", ylabel="c^NN(s)",
       title=f"{cfg.search_network}: a state below the line is pruned")
ax.legend(fontsize=7, loc="lower left")
ax = axes[1, 0]
names = list(results)
ax.barh(np.arange(len(names)), [solved[n] for n in names],
        color=["C7" if n.startswith("GBFS") else "C2" for n in names])
ax.set_yticks(np.arange(len(names)), names, fontsize=8)
ax.invert_yaxis()
ax.set(xlabel=f"tasks solved of {len(tasks)} (Korf's {cfg.instances[0]}-{cfg.instances[-1]}, "
              f"{cfg.node_limit:,} nodes)", title="coverage by row (grey: single queue, green: dual queue)")
ax = axes[1, 1]
for label, colour, text in (("held-out", "C0", "held-out teacher states"),
                            ("met", "C3", "states met by GBFS with h^NN (sample)")):
    sig = signals[label]
    ax.scatter(-sig["e"], sig["c"], s=4, alpha=0.4, color=colour,
               label=f"{text}: ρ(c^NN, −σ_e) = {sig['rho']:+.2f}")
ax.set(xscale="log", yscale="log", xlabel="σ_e (WUNN, moves)", ylabel=f"c^NN ({cfg.search_network})",
       title="two signals on the same states")
ax.set_xticks([0.05, 0.1, 0.2, 0.5], ["0.05", "0.1", "0.2", "0.5"])
ax.xaxis.set_minor_formatter(NullFormatter())      # no labels on the minor ticks: they overlap
ax.legend(fontsize=7)
fig.suptitle("Confidence of a classification heuristic on the 15-puzzle, at tutorial scale (Heller et al. 2022)",
             fontsize=11)
fig.tight_layout()
out = tutorial_figure_path(__file__)                    # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"\nsaved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# --- the point, loosely -------------------------------------------------------------------------------------------
assert replayed == sum(solved.values()), "every plan found was replayed to the goal"
assert w50["out_w"] < standard["out_w"] / 2, "W50 should be far less confident on weighted noise than Standard"
near_goal, far = pruned["held-out"]["band"] == 0, pruned["held-out"]["band"] == len(BANDS) - 1
assert np.median(c_held[near_goal]) > np.median(c_held[far]), "confidence should fall with the distance to the goal"
assert pruned["held-out"]["M"][far].mean() > pruned["held-out"]["M"][near_goal].mean(), \
    "the mean threshold should prune far states first"
assert dual >= single, "the dual queue's complete MD queue should make up for pruning"
assert signals["held-out"]["rho"] > 0, "−σ_e and c^NN should rank held-out states alike, if loosely"
assert unfamiliar, "the states the search met should look less familiar to both signals than held-out states"
