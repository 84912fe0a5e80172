"""Benchmark: greedy best-first search guided by a classification network (Heller et al. 2022) on
the 15-puzzle, the faithful search (`la.search.gbfs`, one expansion and one network call at a time)
against la's batched variant (`la.search.batched_gbfs`, K nodes per step and one network call for
all their children).

The network is trained here, in seconds, as the confidence experiment trains its own
(`la.experiments.confidence`) but small: the teacher solves a few dozen seeds (`la.heller.teacher`:
walks back from the goal, GBFS with Manhattan distance), and a classifier of the experiment's shape
(`ClassifierConfig`: 128 → 64 → 64 → 64 → H+1) trains on the plans' states for a few epochs. A
stand-in of realistic size: speed is what is measured, not the heuristic's quality. Both searches
then run on Korf's first instances, each up to a node limit, with h^NN from
`la.heller.evaluators.NNEvaluator` (the one-hot's first layer as a gather of weight rows).
"""
from dataclasses import replace

import numpy as np

from la import data
from la.bench import speed, speed_line
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.heller.batched_best_first import batched_gbfs
from la.heller.classifier_fit import split_folds, train
from la.heller.config import ClassifierConfig, build_classifier
from la.heller.evaluators import NNEvaluator
from la.heller.greedy import gbfs
from la.heller.teacher import label_plans
from la.heller.thresholds import values_only
from la.heuristics.classical import Manhattan
from la.search import check_plan

SEEDS, WALK_MAX, EPOCHS = 60, 300, 10     # teacher seeds, their walks' longest length, training
                                          # epochs at most
INSTANCES, NODE_LIMIT = tuple(range(1, 11)), 100_000     # Korf's first 10, up to 100,000 nodes each
QUICK_SEEDS, QUICK_EPOCHS, QUICK_INSTANCES, QUICK_NODE_LIMIT = 12, 2, (1, 2), 5_000
K = 128                                   # nodes per step of the batched search
TARGETS = {"gbfs": 30_000, "gbfs_batched": 300_000}      # generated nodes per second


def trained_evaluator(rng: np.random.Generator, seeds: int, epochs: int):
    """An NN evaluator from a classifier trained on `seeds` teacher plans, and the number of states
    it saw."""
    domain = SlidingTile(4)
    starts = random_walk(domain, rng.integers(1, WALK_MAX + 1, seeds), rng, n=seeds)
    teacher = label_plans(domain, starts, Manhattan(domain))
    encoding = OneHot(domain)
    X, costs = encoding(teacher.states), teacher.costs
    val = split_folds(len(X), ClassifierConfig().folds, rng)[0]
    trn = np.setdiff1d(np.arange(len(X)), val)
    cfg = replace(ClassifierConfig(), max_epochs=epochs)
    net, opt = build_classifier(cfg, X.shape[1], int(costs.max()), rng)
    train(net, opt, X[trn], costs[trn], X[val], costs[val], cfg, rng)
    return NNEvaluator(net, encoding), len(X)


def search(run, tasks) -> dict:
    """Speed of `run(start)` over the tasks; every plan found is replayed to the goal."""
    results = [run(task.state) for task in tasks]
    for task, r in zip(tasks, results):
        if r.solved:
            check_plan(SlidingTile(4), task.state, r.plan)
    return {**speed(results), "solved": sum(r.solved for r in results)}


def run(rng: np.random.Generator, quick: bool = False) -> dict:
    """Generated nodes per second of the faithful and the batched GBFS with the same h^NN."""
    domain = SlidingTile(4)
    evaluator, states = trained_evaluator(rng, QUICK_SEEDS if quick else SEEDS,
                                          QUICK_EPOCHS if quick else EPOCHS)
    h = values_only(evaluator)
    ids, limit = (QUICK_INSTANCES, QUICK_NODE_LIMIT) if quick else (INSTANCES, NODE_LIMIT)
    tasks = [i for i in data.korf100() if i.id in ids]
    row = {"quick": quick, "instances": list(ids), "node_limit": limit, "k": K,
           "teacher_states": states, "hidden": list(evaluator.classifier.hidden),
           "classes": evaluator.classifier.H + 1}
    row["gbfs"] = search(lambda start: gbfs(domain, h, start, node_limit=limit), tasks)
    row["gbfs_batched"] = search(lambda start: batched_gbfs(domain, h, start, K, node_limit=limit),
                                 tasks)
    for name, target in TARGETS.items():
        row[name]["target_nodes_per_second"] = target
    return {**row,
            "ratio": row["gbfs_batched"]["nodes_per_second"] / row["gbfs"]["nodes_per_second"]}


def report(row: dict) -> list:
    """Human-readable lines."""
    net = "-".join(map(str, [128, *row["hidden"], row["classes"]]))
    lines = [f"GBFS + classification heuristic "
             f"({net} classifier on {row['teacher_states']:,} teacher states), "
             f"Korf's 15-puzzle instances {row['instances'][0]}..{row['instances'][-1]}, up to "
             f"{row['node_limit']:,} nodes each"
             + (" (quick: no target applies)" if row["quick"] else "")]
    for name, label in (("gbfs", "faithful"), ("gbfs_batched", f"batched, K = {row['k']}")):
        r = row[name]
        target = "" if row["quick"] else f"; target >= {r['target_nodes_per_second']:,} nodes/s"
        lines.append(speed_line(label, r, f"({r['solved']} solved{target})"))
    lines.append(f"  batched / faithful: {row['ratio']:.1f}x")
    return lines
