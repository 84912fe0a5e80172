"""LearnHeuristicPrac as a run that survives interruption: `la.learn.learn_heuristic_prac` with a
checkpoint after every iteration, snapshots of the networks, and one progress line per iteration.

    learner = train(domain, config, rng, encoding, checkpoint=path, progress=print,
    snapshots=folder)

With `checkpoint` (a file path) an existing checkpoint is resumed, and the finished run equals an
uninterrupted one (`la.runs.checkpoint`). `progress` gets one line per iteration (None: silent).
With `snapshots` (a folder), the FFNN and WUNN after every `snapshot_every`-th iteration are saved
there as `iterNN-ffnn.npz` / `iterNN-wunn.npz`, to study how they changed during training.
"""
import os
import time
from pathlib import Path

import numpy as np

from la.config import LearnConfig
from la.learn import Learner, learn_heuristic_prac
from la.runs.checkpoint import restore_learner, save_learner
from la.runs.network import save_network
from la.runs.progress import duration

PACE_OVER = 5                           # iterations the estimate of what is left is taken over


def train(domain, config: LearnConfig, rng: np.random.Generator, encoding, checkpoint=None,
          progress=print, snapshots=None, snapshot_every: int = 5, minibatch=None,
          relabel=None) -> Learner:
    """Run LearnHeuristicPrac to the end, checkpointing after every iteration (module docstring).
    `minibatch`: how the WUNN's minibatches are drawn, if not as the paper says
    (`la.rivals.authors_sampler`); `relabel`: start -> the plan kept for a solved task instead of
    the search's (`la.rivals.optimal_labels.optimal_solver`: exact labels)."""
    resume = checkpoint is not None and os.path.exists(checkpoint)
    learner = (restore_learner(checkpoint, domain, config, encoding) if resume
               else Learner(domain, config, rng, encoding))
    if minibatch is not None:
        learner.minibatch = minibatch
    if relabel is not None:
        learner.relabel = relabel
    # when each iteration since this start ended (the start first)
    ends = [time.perf_counter()]

    def after_iteration(learner: Learner) -> None:
        if checkpoint is not None:
            save_learner(learner, checkpoint)
        if snapshots is not None and learner.iteration % snapshot_every == 0:
            for name in ("ffnn", "wunn"):
                if getattr(learner, name) is not None:
                    save_network(getattr(learner, name), learner.encoding,
                                 Path(snapshots) / f"iter{learner.iteration:02d}-{name}.npz")
        ends.append(time.perf_counter())
        if progress is not None:
            progress(progress_line(learner,
                                   recent_pace(ends) * (config.num_iter - learner.iteration)))

    return learn_heuristic_prac(domain, config, rng, encoding, learner, after_iteration)


def recent_pace(ends: list, last: int = PACE_OVER) -> float:
    """Seconds per iteration over the `last` iterations (fewer at the start): iterations grow longer
    as the tasks do (a 15-puzzle run's first take seconds, its last minutes), so the pace since the
    start says too little."""
    recent = ends[-(last + 1):]
    return (recent[-1] - recent[0]) / (len(recent) - 1)


def progress_line(learner: Learner, left: float) -> str:
    """One line per finished iteration, with the estimated seconds `left`."""
    e, cfg = learner.log[-1], learner.config
    steps = np.mean([t["steps"] for t in e["tasks"]])
    alpha = "mean" if e["alpha"] is None else f"{e['alpha']:.2f}"
    return (f"iter {learner.iteration:3d}/{cfg.num_iter}  "
            f"solved {e['solved']:2d}/{cfg.tasks_per_iter}  "
            f"α {alpha}  β {e['beta_after']:.2e}  buffer {e['buffer']:6,d}  "
            f"task length {steps:6.1f}  "
            f"nodes {e['nodes'] / 1e6:7.1f}M  {e['plan_seconds'] + e['train_seconds']:6.1f} s  "
            f"(about {duration(left)} left)")
