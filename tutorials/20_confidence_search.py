"""Tutorial 20: searching with a network's confidence (Heller et al. 2022), and σ_e against it, at
tutorial scale.

Tutorial 19 trained a classification network, the heuristic h^NN(s) = argmax_i f(s)_i with its
confidence c^NN(s) = max_i f(s)_i, and showed that OOD training (W50) makes it unsure of noise. Here
the same network (the same data and seeds, so the same numbers) searches:

  1. What pruning by confidence does to greedy best-first search (GBFS), which always expands a
     state of smallest h next. A generated state is dropped if c^NN(s) < t, t the X-th percentile of
     the confidences on the training states (Mean Threshold), or if c^NN(s) < t_i, the X-th
     percentile among the training states of cost i = h^NN(s) (Adaptive Threshold; tutorial 19 shows
     why two). In a single queue this makes GBFS incomplete; in a dual queue (Röger & Helmert 2010),
     which alternates between h^NN and a classical heuristic and prunes the h^NN queue only, the
     search stays complete (the paper's Table 2).
  2. The states the search met, beside the held-out ones: how confident the network is there.
  3. (la's question) σ_e against max-softmax. Marom & Rosman's WUNN (tutorial 05) measures epistemic
     uncertainty σ_e, meant to be large where data are missing. Fitted on the same teacher data
     (`la.heller.uncertainty_fit`): do −σ_e and c^NN rank states alike, and does either rank them by
     how wrong h^NN is, on held-out teacher states and on states the search met?

Two terms from the experiment (tutorials/GLOSSARY.md). Its *hard block*: Heller et al. also ran
their dual queue on hard tasks (their Table 2's bottom block, Table 3's "Hard"), since on their
moderate tasks the dual queue without pruning already solved nearly all. `la`'s test sets are
uniform samples of the state space, with no harder tasks of the same size to draw, so its hard
block searches the same test tasks within a smaller node budget, one within which the dual queue
without pruning solves about 60 % of tasks set apart for it
(`la.experiments.confidence_config`). Part 3 measures agreement with Spearman's ρ, the
correlation of two lists' ranks (+1: the same order, 0: none, −1: reversed), which tutorial 19
introduces with Kendall's τ.

Manhattan distance (MD) is the teacher's heuristic and the dual queue's classical one; Korf's
instances are the test tasks. Scale. The experiment (`python -m la.experiments.confidence --domain
15-puzzle`) runs more rows on more of Korf's instances (the first line prints how many). Here: 15
rows (X = 5, 20, 40 %) on Korf's first 10 within 10,000 nodes each (the experiment's first budget,
now 138,508), and a WUNN of at most 60 epochs.

What to expect at this scale. The network is weak: GBFS with h^NN alone solves fewer of the 10 tasks
than GBFS with MD, because it is drawn to states that h^NN wrongly puts near the goal; its
confidence there is low, so mild pruning can help GBFS here, where the paper's mean threshold hurt.
With 10 tasks, one network and one seed, a task or two between rows is noise; each part prints which
of the paper's claims held this time.

Run from the repository root:  python tutorials/20_confidence_search.py
"""
import sys
import time
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import (ROOT, figure_path, fingerprint, load_network, network_identity,  # noqa: E402
                    output_path, save_network, teacher_in_parts)

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

from la import data  # noqa: E402
from la.domains.names import make_domain  # noqa: E402
from la.experiments.confidence import HELD_OUT, TRAIN, VALIDATION, split_roles  # noqa: E402
from la.experiments.confidence_search import search  # noqa: E402
from la.experiments.confidence_config import CONFIGS, noise_of, rows  # noqa: E402
from la.experiments.confidence_table import summarize  # noqa: E402
from la.features.encodings import for_domain  # noqa: E402
from la.heller.classifier_fit import train  # noqa: E402
from la.heller.config import build_classifier  # noqa: E402
from la.heller.evaluators import NNEvaluator, SigmaE  # noqa: E402
from la.domains.walk import random_walk  # noqa: E402
from la.heller.teacher import label_plans, teacher_heuristic  # noqa: E402
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold  # noqa: E402
from la.heller.uncertainty_fit import fit_wunn  # noqa: E402
from la.nn.config import build_wunn  # noqa: E402
from la.search import check_plan  # noqa: E402

# %%
SEED = 14                       # tutorial 19's
EPOCHS, CHUNK = 100, 25         # tutorial 19's
WUNN_EPOCHS = 60                # part 3's WUNN (the experiment: up to 500, stopping early)
full = CONFIGS["15-puzzle"]
cfg = replace(full, seeds=300, instances=tuple(range(1, 11)), X=(5, 20, 40), node_limit=10_000,
              classifier=replace(full.classifier, max_epochs=CHUNK),
              supervised=replace(full.supervised, max_epochs=WUNN_EPOCHS))
NEAR = 20                       # "near the goal": h^NN below 20
TOLERANCE = 5                   # part 3: h^NN is "right" within 5 moves of the teacher's cost
MET_SAMPLE = 100                # part 3: states met by the search, labelled by the teacher,
LABEL_PART = 25                 # ... 25 at a time
W50_FILE = output_path("19_confidence", "_W50.npz")   # tutorial 19's W50 network, saved there
PROGRESS = 5                    # while a network trains: a progress line every 5 epochs
began = time.perf_counter()
puzzle = make_domain(cfg.domain)
md = teacher_heuristic(puzzle)                 # Manhattan distance: teacher and classical heuristic
encoding = for_domain(puzzle)                  # the one-hot, 128 inputs


def epoch_line(first):
    """`on_epoch` for a training whose epoch 1 is epoch first + 1 of the network: a line every
    PROGRESS epochs while it lasts (it only reads; the training is unchanged)."""
    def on_epoch(keeper):
        done = len(keeper.history.val_loss)
        if done % PROGRESS == 0 and not keeper.done():
            print(f"    epoch {first + done}: validation loss {keeper.history.val_loss[-1]:.3f} "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
    return on_epoch


# %%
# --- The network of tutorial 19 -------------------------------------------------------------------
# The same teacher data and split as tutorial 19 (the same seeds), and its W50 network: read from
# the file tutorial 19 saved if that file is whole (its weights match their checksum) and was made
# from the same settings, data, code and numerics; otherwise trained again here, as tutorial 19
# trains it, which gives the same network bit for bit.
rng = np.random.default_rng([SEED, 0])
print(f"(the experiment: {len(rows(full))} search rows on {len(full.instances)} of Korf's "
      f"instances, {full.node_limit:,} nodes each, its hard block's {full.hard_node_limit:,})")
print(f"the teacher: {cfg.seeds} seeds, each solved by GBFS with MD ...")
# (`teacher_in_parts`: `la.heller.teacher.teacher_data`'s searches, with a line after each part)
seeds = random_walk(puzzle, rng.integers(1, cfg.walk_max + 1, cfg.seeds), rng, n=cfg.seeds)
teacher = teacher_in_parts(puzzle, md, seeds, cfg.teacher_node_limit)
states, costs = teacher.states, teacher.costs
role = split_roles(teacher.starts, cfg.classifier.folds, cfg.held_out, rng)
trn, val, held = (np.flatnonzero(role == r) for r in (TRAIN, VALIDATION, HELD_OUT))
X = encoding(states)
print(f"  {len(states):,} plan states, {time.perf_counter() - began:.0f} s")
identity = network_identity("19_confidence", network=cfg.search_network, seed=SEED, epochs=EPOCHS,
                            chunk=CHUNK, classifier=repr(cfg.classifier),
                            data=fingerprint(states, costs, role))
net, found = load_network(W50_FILE, identity)      # (net, its chunks' losses) or (None, why not)
if net is not None:
    print(f"  {cfg.search_network}: tutorial 19's network, read from "
          f"{W50_FILE.relative_to(ROOT)}; its validation loss after each {CHUNK} epochs: "
          + ", ".join(f"{loss:.3f}" for loss in found))
else:
    print(f"  {found}: training {cfg.search_network} as tutorial 19 does ...")
    sampler, Y = noise_of(cfg.search_network)   # W50: weighted noise, half of every batch
    net_rng = np.random.default_rng([SEED, 2])  # tutorial 19's W50 generator
    net, opt = build_classifier(cfg.classifier, X.shape[1], int(costs.max()), net_rng)
    chunks = []
    for first in range(0, EPOCHS, CHUNK):
        history = train(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.classifier, net_rng,
                        sampler(X[trn]), Y, on_epoch=epoch_line(first))
        chunks.append(min(history.val_loss))
        print(f"  {cfg.search_network}: epochs {first + 1}-{first + len(history.val_loss)}, "
              f"validation loss {chunks[-1]:.3f} ({time.perf_counter() - began:.0f} s)")
    save_network(net, W50_FILE, identity, chunks)     # for the next run
evaluator = NNEvaluator(net, encoding)  # states -> (h^NN, c^NN), batched

# %%
# --- 1. Pruning in GBFS and in the dual queue -----------------------------------------------------
# The thresholds are percentiles of W50's confidences on the training states, the adaptive ones per
# cost group. The rows are those of the experiment's coverage table
# (`la.experiments.confidence_config.rows`) that prune by c^NN: GBFS with MD alone, GBFS with h^NN
# (base) and with the mean (M) or adaptive (A) threshold at X %, then the dual queue (h^NN and MD in
# turn) without pruning and pruning its h^NN queue. Every plan is replayed to the goal.
h_train, c_train = evaluator(states[trn])
threshold = {"mean": lambda x: MeanThreshold.from_training(c_train, x),
             "adaptive": lambda x: AdaptiveThreshold.from_training(c_train, costs[trn], x)}
tasks = [t for t in data.korf100() if t.id in cfg.instances]
table_rows = [r for r in rows(cfg) if r.signal in ("classical", "softmax")
              and r.method in ("base", "M", "A") and r.block == "moderate" and r.network is None]
met = []  # every batch of states GBFS with h^NN evaluates, for parts 2 and 3


def watched(batch):
    """W50's evaluator, keeping each batch of states it scores."""
    met.append(np.array(batch))
    return evaluator(batch)


results, replayed = {}, 0
print(f"\nsearching Korf's instances {cfg.instances[0]}-{cfg.instances[-1]} (optimal costs "
      f"{min(t.optimal for t in tasks)}-{max(t.optimal for t in tasks)}), {cfg.node_limit:,} "
      f"generated nodes each; cost and nodes are means over the solved tasks")
print(f"{'row':>15} {'solved':>7} {'mean cost':>10} {'mean nodes':>11} {'queue emptied':>14}")
for row in table_rows:
    rule = None if row.threshold is None else threshold[row.threshold](row.X)
    records = []
    for task in tasks:
        result = search(row, puzzle, watched if row.name == "GBFS base" else evaluator, md, rule,
                        task.state, cfg.node_limit)
        if result.solved:
            check_plan(puzzle, task.state, result.plan)
            replayed += 1
        records.append({"id": task.id, "solved": result.solved, "cost": result.cost,
                        "generated": result.generated, "status": result.status})
    r = results[row.name] = {**summarize(records),
                             "emptied": sum(x["status"] == "no solution" for x in records)}
    cost = "—" if r["cost"] is None else f"{r['cost']:.0f}"
    nodes = "—" if r["generated"] is None else f"{r['generated']:,.0f}"
    print(f"{row.name:>15} {r['solved']:4}/{r['tasks']:<2} {cost:>10} {nodes:>11} "
          f"{r['emptied']:14}")
print("('queue emptied': pruning left nothing to expand, and the search stopped before its budget "
      "ran out)")
solved = {name: r["solved"] for name, r in results.items()}
single = sum(solved[f"GBFS {m}{x}"] for m in "MA" for x in cfg.X)
dual = sum(solved[f"dual {m}{x}"] for m in "MA" for x in cfg.X)
print("what held this time (10 tasks: a task or two either way is noise):")
print(f"  the dual queue without pruning solved more than GBFS with h^NN and more than GBFS with "
      f"MD: {solved['dual base'] > max(solved['GBFS base'], solved['GBFS classical'])}")
print(f"  pruning in the dual queue solved at least as many as pruning in GBFS, over all "
      f"{2 * len(cfg.X)} thresholds: {dual >= single} ({dual} against {single} tasks)")
adaptive_wins = [x for x in cfg.X if solved[f"GBFS A{x}"] >= solved[f"GBFS M{x}"]]
print(f"  in GBFS, the adaptive threshold solved at least as many as the mean one at X = "
      f"{', '.join(map(str, adaptive_wins)) or 'none'} (of {', '.join(map(str, cfg.X))}); the "
      f"paper's Table 2: almost always")
print(f"  the mildest pruning in GBFS: M{cfg.X[0]} {solved[f'GBFS M{cfg.X[0]}']}, A{cfg.X[0]} "
      f"{solved[f'GBFS A{cfg.X[0]}']} against base {solved['GBFS base']} (the paper: A5 helps in 5 "
      f"of its 8 domains, M5 harms in all)")

# %%
# --- 2. The states the search met -----------------------------------------------------------------
# The distinct states GBFS with h^NN evaluated, beside the held-out teacher states: a held-out state
# that h^NN puts near the goal is confident, for it lies on the last moves of plans much like the
# training plans. If the states GBFS met there are not, h^NN is likely wrong about them (part 3 asks
# the teacher); GBFS, which always expands a smallest h next, keeps expanding them, and a threshold
# that prunes them frees the search to go elsewhere: mild pruning can then help GBFS.
met_states = np.unique(np.concatenate(met), axis=0)
h_held, c_held = evaluator(states[held])
h_met, c_met = evaluator(met_states)
print(f"\nGBFS with h^NN evaluated {len(met_states):,} distinct states, "
      f"{np.mean(h_met < NEAR):.0%} of them with h^NN < {NEAR} (of the held-out states: "
      f"{np.mean(h_held < NEAR):.0%}); median c^NN there {np.median(c_met[h_met < NEAR]):.3f} "
      f"(held-out: {np.median(c_held[h_held < NEAR]):.3f})")

# %%
# --- 3. σ_e against max-softmax -------------------------------------------------------------------
# The WUNN learns the teacher's cost itself (Eq. 2, β fixed at 1e-5), with early stopping like the
# classifiers.
started = time.perf_counter()
wunn_rng = np.random.default_rng([SEED, 3])
wunn, wunn_opt = build_wunn(cfg.wunn, X.shape[1], wunn_rng)
print(f"\ntraining the WUNN on the teacher's data (at most {cfg.supervised.max_epochs} epochs) ...")
history = fit_wunn(wunn, wunn_opt, X[trn], costs[trn], X[val], costs[val], cfg.supervised,
                   wunn_rng, cfg.wunn.S, on_epoch=epoch_line(0))
minus_sigma_e = SigmaE(wunn)  # X -> −σ_e: higher = more confident
print(f"  {len(history.val_loss)} epochs, {time.perf_counter() - started:.0f} s")

# States met by the search have no label: the teacher labels a sample, solving each by GBFS with MD
# as it solved its seeds. The test of a signal: does it rank the states by how wrong h^NN is, i.e.
# Spearman's ρ between the signal and −|h^NN − teacher cost| (+1: the more confident, the smaller
# the error, always)?
print(f"labelling {MET_SAMPLE} of the states met with the teacher ...")
sample = met_states[np.random.default_rng([SEED, 4]).choice(len(met_states),
                                                            size=min(MET_SAMPLE, len(met_states)),
                                                            replace=False)]
solved_met, cost_met = [], []                # in parts, a line after each: one search per state
for k in range(0, len(sample), LABEL_PART):
    part = label_plans(puzzle, sample[k:k + LABEL_PART], md, cfg.teacher_node_limit)
    solved_met.append(part.solved)
    cost_met.append(part.costs[part.starts[:-1]])          # a plan's first cost: its length
    print(f"  {k + len(part.seeds)} of {len(sample)} labelled "
          f"({time.perf_counter() - began:.0f} s)", flush=True)
sets = {"held-out": (states[held], costs[held]),
        "met": (sample[np.concatenate(solved_met)], np.concatenate(cost_met))}
print(f"{'':>9} {'states':>7} {'|err|':>6} {f'> {TOLERANCE}':>5} {'median c^NN':>12} "
      f"{'median σ_e':>11} {'ρ(c^NN, −σ_e)':>14} | ρ with −|err|: {'c^NN':>6} {'−σ_e':>6} "
      f"{'−h^NN':>6}")
signals = {}
for label, (s, cost) in sets.items():
    h, c = evaluator(s)
    e = minus_sigma_e(encoding(s))
    err = np.abs(h - cost)
    rank = {name: spearmanr(score, -err)[0] for name, score in (("c", c), ("e", e), ("h", -h))}
    signals[label] = {"h": h, "c": c, "e": e, "cost": cost, "rho": spearmanr(c, e)[0], "rank": rank}
    print(f"{label:>9} {len(s):7,} {np.median(err):6.0f} {100 * np.mean(err > TOLERANCE):4.0f}% "
          f"{np.median(c):12.3f} {-np.median(e):11.2f} {signals[label]['rho']:+14.2f} | {'':15}"
          + " ".join(f"{rank[name]:+6.2f}" for name in ("c", "e", "h")))
print(f"(|err|: median |h^NN − teacher cost| in moves; > {TOLERANCE}: share off by more than "
      f"{TOLERANCE} moves; −h^NN, distance alone, as a yardstick)")
held_out, met_sig = signals["held-out"], signals["met"]
unfamiliar = bool(np.median(met_sig["c"]) < np.median(held_out["c"])
                  and np.median(met_sig["e"]) < np.median(held_out["e"]))      # e = −σ_e
ahead = {name: held_out["rank"][name] - held_out["rank"]["h"] for name in ("c", "e")}
print("what held:")
print(f"  both signals find the states met less familiar than the held-out ones (lower c^NN, "
      f"higher σ_e): {unfamiliar}")
print(f"  on held-out states, each signal's ρ with −|err| beyond that of distance alone: c^NN "
      f"{ahead['c']:+.2f}, −σ_e {ahead['e']:+.2f}"
      + ("; little: what either knows is mostly how far the goal is"
         if max(ahead.values()) < 0.1 else ""))
print(f"  on the states met, the two signals agree (ρ > 0): {bool(met_sig['rho'] > 0)}; either "
      f"ranks the errors there (ρ > 0.3): c^NN {met_sig['rank']['c'] > 0.3}, −σ_e "
      f"{met_sig['rank']['e'] > 0.3}")

# %%
# --- The figure -----------------------------------------------------------------------------------
fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.6))
names = list(results)
left.barh(np.arange(len(names)), [solved[n] for n in names],
          color=["C7" if n.startswith("GBFS") else "C2" for n in names])
left.set_yticks(np.arange(len(names)), names, fontsize=8)
left.invert_yaxis()
left.set(xlabel=f"tasks solved of {len(tasks)} (Korf's {cfg.instances[0]}-{cfg.instances[-1]}, "
                f"{cfg.node_limit:,} nodes)",
         title="coverage by row (grey: single queue, green: dual queue)")
for label, colour, text in (("held-out", "C0", "held-out teacher states"),
                            ("met", "C3", "states met by GBFS with h^NN (sample)")):
    sig = signals[label]
    right.scatter(-sig["e"], sig["c"], s=4, alpha=0.4, color=colour,
                  label=f"{text}: ρ(c^NN, −σ_e) = {sig['rho']:+.2f}")
right.set(xscale="log", yscale="log", xlabel="σ_e (WUNN, moves)",
          ylabel=f"c^NN ({cfg.search_network})", title="two signals on the same states")
right.set_xticks([0.05, 0.1, 0.2, 0.5], ["0.05", "0.1", "0.2", "0.5"])
right.xaxis.set_minor_formatter(NullFormatter())      # no labels on the minor ticks: they overlap
right.legend(fontsize=7)
fig.suptitle("Searching with a classifier's confidence on the 15-puzzle, at tutorial scale "
             "(Heller et al. 2022)",
             fontsize=11)
fig.tight_layout()
out = figure_path("20_confidence_search")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"\nsaved {out.relative_to(ROOT)}; {time.perf_counter() - began:.0f} s in all")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert replayed == sum(solved.values()), "every plan found was replayed to the goal"
assert solved["GBFS base"] < solved["GBFS classical"], \
    "the network is weak: GBFS with h^NN alone solves fewer"
assert np.median(c_met[h_met < NEAR]) < np.median(c_held[h_held < NEAR]), \
    "states the search met near the goal (by h^NN) get low confidence, unlike held-out ones"
assert dual >= single, "the dual queue's complete MD queue should make up for pruning"
assert signals["held-out"]["rho"] > 0, "−σ_e and c^NN should rank held-out states alike, if loosely"
assert unfamiliar, \
    "the states the search met should look less familiar to both signals than held-out states"
