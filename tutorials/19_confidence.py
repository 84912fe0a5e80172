"""Tutorial 19: a network's confidence, in and out of distribution (Heller et al. 2022), at tutorial
scale.

Every network so far gave one number per state. Heller, Ferber, Bitterwolf, Hein & Hoffmann (SoCS
2022) train a *classification* network instead: f(s) is a distribution over the costs 0..H, the
heuristic is the most likely cost and the confidence its probability ("Search Methods"),

    h^NN(s) = argmax_i f(s)_i,        c^NN(s) = max_i f(s)_i,

trained by cross-entropy on a teacher's data: greedy plans from random-walk seeds, each plan state
labelled with its remaining cost on its plan ("Planning Background"; `la.heller.teacher`). Here, and
in tutorial 20, which searches with this confidence:

  1. Is c^NN lower on inputs unlike the training states? Not necessarily: nothing in training asks
     the network to be unsure anywhere. Out-of-distribution (OOD) training adds noise inputs whose
     target is the uniform distribution ("Training with OOD Inputs"): uniform noise (every input bit
     a fair coin) or weighted noise (bit e on with its frequency p_e in the training inputs). The
     paper's Table 1 for two of its networks: Standard (no noise) and W50 (weighted noise, half of
     every batch), the one it searches with.
  2. Why two thresholds. Tutorial 20 prunes a state when c^NN(s) < t, t the X-th percentile of the
     confidences on the training states (Mean Threshold), or when c^NN(s) < t_i, the X-th percentile
     among the training states of cost i = h^NN(s) (Adaptive Threshold). Confidence falls with the
     distance to the goal, so one threshold for all states prunes the states far from the goal first
     ("Adaptive Threshold"): confidence against h^NN on the training and held-out states, and what
     each threshold prunes of them.

Two rank correlations measure agreement below (tutorials/GLOSSARY.md). Kendall's τ between two
lists of numbers about the same items: over every pair of items, the share of pairs the two lists
put in the same order minus the share they put in opposite orders (+1: the same order throughout,
0: no relation, −1: reversed; scipy's `kendalltau`, τ-b, also corrects for ties). Heller et al.
report τ between h^NN and the teacher's cost: how well the heuristic orders states by their distance
to the goal. Spearman's ρ: the ordinary (Pearson) correlation of the two lists' ranks, again +1, 0
or −1 at the extremes. Both see only the order of the values, never their size.

The domain is the experiment's (`la.experiments.confidence_config`): the 15-puzzle, one-hot inputs
(tutorial 01), Manhattan distance (MD) as the teacher's heuristic (standing in for the paper's
h^FF). The 8-puzzle would be faster and has exact h*, but its teacher plans run through the same few
thousand states again and again: most held-out states have been seen in training, and confidence on
them measures memory rather than generalisation.

Scale. The experiment (`python -m la.experiments.confidence --domain 15-puzzle`) labels the plans of
more seeds and trains more networks for more epochs (the first line prints how many). Here: 300
seeds and two networks of at most 100 epochs, trained 25 epochs at a time (each time keeping its
best epoch) so that a line is printed between. The paper measures on IPC planning tasks
(Blocksworld, Depots, Grid, ...), not puzzles: its numbers, printed beside ours, are for other
domains and far larger training.

What to expect at this scale. OOD training does what Table 1 shows: W50 is far less confident on
weighted noise than Standard. The networks are still improving when the epoch cap stops them, so
their confidence stays low (the paper's In is printed for comparison). Confidence falls steeply with
h^NN: the mean threshold prunes the far states first, the adaptive one more evenly. Each part prints
which of the paper's claims held this time.

Run from the repository root:  python tutorials/19_confidence.py
"""
import sys
import time
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import (ROOT, figure_path, fingerprint, network_identity, output_path,  # noqa: E402
                    save_network, teacher_in_parts)

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

from la.domains.names import make_domain  # noqa: E402
from la.experiments.confidence import (HELD_OUT, TRAIN, VALIDATION, ood_stats,  # noqa: E402
                                       predictor, split_roles)
from la.experiments.confidence_config import CONFIGS, noise_of  # noqa: E402
from la.heller.paper import PAPER_OOD  # noqa: E402
from la.features.encodings import for_domain  # noqa: E402
from la.heller.classifier_fit import train  # noqa: E402
from la.heller.config import build_classifier  # noqa: E402
from la.heller.evaluators import NNEvaluator  # noqa: E402
from la.heller.ood import UniformNoise, WeightedNoise  # noqa: E402
from la.domains.walk import random_walk  # noqa: E402
from la.heller.teacher import teacher_heuristic  # noqa: E402
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold  # noqa: E402

# %%
SEED = 14
EPOCHS, CHUNK = 100, 25         # per network (the experiment: up to 500, stopping early); a line
                                # every CHUNK
full = CONFIGS["15-puzzle"]
cfg = replace(full, seeds=300, noise_rows=2_000, networks=("Standard", "W50"),
              classifier=replace(full.classifier, max_epochs=CHUNK))
X_SHOWN = 20                    # the X whose thresholds part 2 and the figure show
BANDS = (0, 20, 60, 120)        # h^NN bands, from near the goal to far from it (teacher plans:
                                # up to ~350 moves)
W50_FILE = output_path("19_confidence", "_W50.npz")   # the W50 network, which tutorial 20 reuses
PROGRESS = 5                    # while a network trains: a progress line every 5 epochs
began = time.perf_counter()
puzzle = make_domain(cfg.domain)
md = teacher_heuristic(puzzle)                 # Manhattan distance
encoding = for_domain(puzzle)                  # the one-hot, 128 inputs


def band_of(h):
    """Each h^NN's band: 0 for 0-19, 1 for 20-59, 2 for 60-119, 3 for 120 and more."""
    return np.searchsorted(BANDS, h, side="right") - 1


def span(b):
    """Band b as text: '0-19', ..., '>= 120'."""
    return f"{BANDS[b]}-{BANDS[b + 1] - 1}" if b + 1 < len(BANDS) else f">= {BANDS[b]}"


def epoch_line(name, first, started):
    """`on_epoch` for a training whose epoch 1 is epoch first + 1 of network `name`: a line every
    PROGRESS epochs while it lasts (it only reads; the training is unchanged)."""
    def on_epoch(keeper):
        done = len(keeper.history.val_loss)
        if done % PROGRESS == 0 and not keeper.done():
            print(f"    {name}: epoch {first + done}, validation loss "
                  f"{keeper.history.val_loss[-1]:.3f} ({time.perf_counter() - started:.0f} s)",
                  flush=True)
    return on_epoch


def verdict(held: bool) -> str:
    """A claim's outcome, as printed: computed from the numbers printed with it."""
    return "held" if held else "did not hold"


# %%
# --- 1. Teacher data, two classifiers, and Table 1 ------------------------------------------------
# Seeds: random walks of 1..walk_max moves back from the goal (la's puzzles have one goal; the paper
# walks forward from a task's initial state). Each seed is solved by GBFS with MD; every state of
# every plan is labelled with its remaining cost on that plan. A tenth of the plans is held out (the
# "In" column and Kendall's τ), one fold of the rest validates for early stopping (`split_roles`, as
# the experiment splits). Tutorial 20 draws the same data.
rng = np.random.default_rng([SEED, 0])
print(f"(the experiment: {full.seeds:,} seeds, {len(full.networks)} networks "
      f"({', '.join(full.networks)}), up to {full.classifier.max_epochs} epochs each)")
print(f"the teacher: {cfg.seeds} seeds, each solved by GBFS with MD ...")
started = time.perf_counter()
# (`teacher_in_parts`: `la.heller.teacher.teacher_data`'s searches, with a line after each part)
seeds = random_walk(puzzle, rng.integers(1, cfg.walk_max + 1, cfg.seeds), rng, n=cfg.seeds)
teacher = teacher_in_parts(puzzle, md, seeds, cfg.teacher_node_limit)
states, costs = teacher.states, teacher.costs
role = split_roles(teacher.starts, cfg.classifier.folds, cfg.held_out, rng)
trn, val, held = (np.flatnonzero(role == r) for r in (TRAIN, VALIDATION, HELD_OUT))
X = encoding(states)  # (n, 128) float32, 32 ones per row
print(f"  {teacher.unsolved} unsolved, {len(states):,} plan states, costs 0-{costs.max()} (so H = "
      f"{costs.max()}: {costs.max() + 1} classes), {time.perf_counter() - started:.0f} s; "
      f"{len(trn):,} training, {len(val):,} validation and {len(held):,} held-out states "
      f"(whole plans held out)")

# Noise for the OOD columns, drawn once and shown to both networks. A state's one-hot has 32 ones of
# 128 (a column bit and a row bit per value); uniform noise has about 64, weighted noise about 32 in
# the usual places.
noise = {"U": UniformNoise(X[trn])(cfg.noise_rows, rng),
         "W": WeightedNoise(X[trn])(cfg.noise_rows, rng)}
nets, stats, scores, chunks = {}, {}, {}, {}
for k, name in enumerate(cfg.networks):
    sampler, Y = noise_of(name)                                      # W50: WeightedNoise, Y = 50 %
    net_rng = np.random.default_rng([SEED, 1 + k])                  # each network its own generator
    net, opt = build_classifier(cfg.classifier, X.shape[1], int(costs.max()), net_rng)
    started, chunks[name] = time.perf_counter(), []
    for first in range(0, EPOCHS, CHUNK):
        history = train(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.classifier, net_rng,
                        None if sampler is None else sampler(X[trn]), Y,
                        on_epoch=epoch_line(name, first, started))
        print(f"  {name}: epochs {first + 1}-{first + len(history.val_loss)}, validation loss "
              f"{min(history.val_loss):.3f}, accuracy {max(history.val_accuracy):.3f} "
              f"({time.perf_counter() - started:.0f} s)")
        chunks[name].append(min(history.val_loss))
    nets[name] = net
    if name == cfg.search_network:   # tutorial 20 searches with it: saved, not trained again there
        # What it was made from: tutorial 20 reuses it only if all of this is the same there.
        identity = network_identity("19_confidence", network=name, seed=SEED, epochs=EPOCHS,
                                    chunk=CHUNK, classifier=repr(cfg.classifier),
                                    data=fingerprint(states, costs, role))
        save_network(net, W50_FILE, identity, chunks[name])
    predict = predictor(name, net, cfg)                               # X -> (h^NN, c^NN)
    stats[name] = ood_stats(predict, costs[held], X[held], noise)
    scores[name] = {"In": predict(X[held])[1], "Out-U": predict(noise["U"])[1],
                    "Out-W": predict(noise["W"])[1]}

improving = all(all(a > b for a, b in zip(c, c[1:])) for c in chunks.values())
print(f"both networks still improving when the epoch cap stopped them (the best validation loss "
      f"lower in every chunk of {CHUNK} epochs): {verdict(improving)}")

print(f"\nTable 1 at tutorial scale: median c^NN on {len(held):,} held-out states (In) and on "
      f"{cfg.noise_rows:,} noise inputs; Kendall's τ of h^NN against the teacher's cost on the "
      f"held-out states.")
print("The paper's: medians over IPC tasks (other domains, full training).")
print(f"{'network':>9} | {'In':>6} {'Out-U':>6} {'Out-W':>6} {'τ':>6} {'|err|':>6} | "
      f"{'paper: In':>9} {'Out-U':>6} {'Out-W':>6} {'τ':>6}")
for name in cfg.networks:
    s, paper = stats[name], PAPER_OOD[name]
    print(f"{name:>9} | {100 * s['in']:5.1f}% {100 * s['out_u']:5.1f}% {100 * s['out_w']:5.1f}% "
          f"{s['tau']:6.3f} {s['mae']:6.1f} | {paper[0]:8.1f}% {paper[1]:5.1f}% {paper[2]:5.1f}% "
          f"{paper[3] / 100:6.3f}")
print(f"(|err|: mean |h^NN − teacher cost| in moves. A network that knew nothing would put "
      f"1/{costs.max() + 1} = {100 / (costs.max() + 1):.1f}% on every cost.)")
standard, w50 = stats["Standard"], stats["W50"]
# Each claim's verdict is computed from the numbers printed beside it (the criteria: "far less" is
# less than half; "little cost in distribution" is In at least 0.9 × Standard's and τ at most 0.02
# below it: the paper's W50 is within 0.5 points of its Standard on both).
claims = {"far_w": w50["out_w"] < standard["out_w"] / 2,
          "less_u": w50["out_u"] < standard["out_u"],
          "in_dist": w50["in"] >= 0.9 * standard["in"] and w50["tau"] >= standard["tau"] - 0.02}
print("the paper's claims, and whether each held this time:")
print(f"  W50 far less confident (under half) on weighted noise than Standard: "
      f"{verdict(claims['far_w'])}, {100 * w50['out_w']:.1f}% against "
      f"{100 * standard['out_w']:.1f}% (the paper: {PAPER_OOD['W50'][2]}% against "
      f"{PAPER_OOD['Standard'][2]}%)")
print(f"  W50 less confident than Standard on uniform noise too, which it never saw: "
      f"{verdict(claims['less_u'])}, {100 * w50['out_u']:.1f}% against "
      f"{100 * standard['out_u']:.1f}% (the paper: {PAPER_OOD['W50'][1]}% against "
      f"{PAPER_OOD['Standard'][1]}%)")
print(f"  OOD training costs little in distribution (In >= 0.9 × Standard's, τ at most 0.02 "
      f"below): {verdict(claims['in_dist'])}, In {100 * w50['in']:.1f}% against "
      f"{100 * standard['in']:.1f}%, τ {w50['tau']:.3f} against {standard['tau']:.3f} (the paper: "
      f"In {PAPER_OOD['W50'][0]}% against {PAPER_OOD['Standard'][0]}%, τ "
      f"{PAPER_OOD['W50'][3] / 100:.3f} against {PAPER_OOD['Standard'][3] / 100:.3f})")

# %%
# --- 2. Why two thresholds: confidence against h^NN -----------------------------------------------
# W50 (the network tutorial 20 searches with); the thresholds are percentiles of its confidences on
# the training states, the adaptive ones per cost group (`la.heller.thresholds`). By construction
# the adaptive threshold prunes X % of each cost group of the training states; the mean one prunes
# X % of all of them, taken where confidence is lowest: far from the goal.
evaluator = NNEvaluator(nets[cfg.search_network], encoding)  # states -> (h^NN, c^NN), batched
h_train, c_train = evaluator(states[trn])
h_held, c_held = evaluator(states[held])
mean_t = MeanThreshold.from_training(c_train, X_SHOWN)
adaptive_t = AdaptiveThreshold.from_training(c_train, costs[trn], X_SHOWN)
rho_h = spearmanr(c_held, h_held)[0]
print(f"\n{cfg.search_network}: Spearman's ρ between c^NN and h^NN on the held-out states "
      f"{rho_h:+.2f}. X = {X_SHOWN} %: the mean threshold t = {mean_t.t:.3f}, the adaptive")
print(f"one {len(adaptive_t.t)} cost groups of >= 100 training states with t_i from "
      f"{adaptive_t.t.max():.3f} down to {adaptive_t.t.min():.3f}. By h^NN band: median c^NN, and "
      f"the share each threshold prunes.")
sets = {"train": (h_train, c_train), "held-out": (h_held, c_held)}
print(f"{'h^NN':>8} | {'median c^NN':^13} | {f'pruned by M{X_SHOWN}':^13} | "
      f"{f'pruned by A{X_SHOWN}':^13}")
print(f"{'':>8} | " + " | ".join(" ".join(f"{k:>6}" for k in ("train", "held")) for _ in range(3)))
pruned = {label: {"M": ~mean_t.confident(h, c), "A": ~adaptive_t.confident(h, c),
                  "band": band_of(h)}
          for label, (h, c) in sets.items()}
for b in range(len(BANDS)):
    cells = []
    for what in ("median", "M", "A"):
        for label, (h, c) in sets.items():
            m = pruned[label]["band"] == b
            cells.append(f"{'—':>6}" if not m.any() else
                         f"{np.median(c[m]):6.3f}" if what == "median" else
                         f"{100 * pruned[label][what][m].mean():5.0f}%")
    print(f"{span(b):>8} | {' '.join(cells[:2])} | {' '.join(cells[2:4])} | {' '.join(cells[4:])}")
near_goal, far = pruned["held-out"]["band"] == 0, pruned["held-out"]["band"] == len(BANDS) - 1
spread = {m: pruned["held-out"][m][far].mean() - pruned["held-out"][m][near_goal].mean()
          for m in "MA"}
falls = np.median(c_held[near_goal]) > np.median(c_held[far])
print("on the held-out states, the claims of part 2 (\"Adaptive Threshold\"):")
print(f"  confidence falls with the distance to the goal (median c^NN {span(0)} against "
      f"{span(len(BANDS) - 1)}: {np.median(c_held[near_goal]):.3f} against "
      f"{np.median(c_held[far]):.3f}): {verdict(falls)}")
print(f"  the mean threshold prunes the far states first (pruned far minus pruned near: "
      f"{100 * spread['M']:+.0f} points): {verdict(spread['M'] > 0)}")
print(f"  the adaptive one more evenly ({100 * spread['A']:+.0f} points): "
      f"{verdict(spread['A'] < spread['M'])}")

# %%
# --- The figure -----------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
ax = axes[0]
for name, style in zip(cfg.networks, ("-", "--")):
    for (kind, c), colour in zip(scores[name].items(), ("C0", "C1", "C2")):
        ax.plot(np.sort(c), np.linspace(0, 1, len(c)), linestyle=style, color=colour,
                label=f"{name}: {kind}")
ax.axhline(0.5, color="grey", linewidth=0.5)  # where each curve crosses: its median
ax.set(xscale="log", xlabel="c^NN = max_i f(s)_i", ylabel="fraction of inputs with a lower c^NN",
       title="confidence in and out of distribution (solid: Standard, dashed: W50)")
ax.legend(fontsize=7)
ax = axes[1]
ax.scatter(h_held, c_held, s=3, alpha=0.3, color="C0", label="held-out teacher states")
ax.axhline(mean_t.t, color="k", linestyle=":", label=f"mean threshold, X = {X_SHOWN} %")
edges = np.append(adaptive_t.lower, max(costs.max(), h_held.max()) + 1)
ax.stairs(adaptive_t.t, edges, color="k", label=f"adaptive thresholds t_i, X = {X_SHOWN} %")
ax.set(yscale="log", xlabel="h^NN(s)", ylabel="c^NN(s)",
       title=f"{cfg.search_network}: a state below the line is pruned")
ax.legend(fontsize=7, loc="lower left")
fig.suptitle("Confidence of a classification heuristic on the 15-puzzle, at tutorial scale "
             "(Heller et al. 2022)",
             fontsize=11)
fig.tight_layout()
out = figure_path("19_confidence")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"\nsaved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert improving, "the networks are still improving when the epoch cap stops them"
assert claims["far_w"], \
    "W50 should be far less confident on weighted noise than Standard"
assert falls, "confidence should fall with the distance to the goal"
assert spread["M"] > 0, "the mean threshold should prune far states first"
assert spread["A"] < spread["M"], "... the adaptive one more evenly"
