"""LearnHeuristicPrac (paper Alg. 2, practical form; the authors' `Program.Train`) and its baselines, through
one loop.

    repeat NumIter times:
        for each of NumTasksPerIter tasks:
            generate a task: GenerateTaskPrac with the WUNN (a 1-step walk until anything is trained),
                             or a random walk of LengthInc·(n+1) steps for the LengthInc baseline
            solve it with IDA* and h = max(round(y^α), h_ad) within a node budget; keep the plan if solved
        if fewer than NumTasksPerIterThresh were solved: α := max(α − Δ, 0.5), and β may not decay
        Update: add the plans' (state, cost-to-goal) records to the memory buffer; train the FFNN on the
                buffer; train the WUNN until σ_e < √(κε) on every record, or decay β if it cannot; y^q := the
                q-quantile of the buffer's labels

The single-output network ("N/A", and every efficiency run) plans with the mean and has no α schedule.
Every domain goes through one encoding (`la.features`, made once per learner): the networks' inputs, and
h_ad, the admissible floor of the feature domains (paper §5; 0 for the one-hot).
"""
import math
import os
import time
from pathlib import Path

import numpy as np

from la.buffer import MemoryBuffer
from la.checkpoint import PARTS, as_json, read_checkpoint, save_checkpoint
from la.config import LearnConfig
from la.features import describe, for_domain
from la.heuristics.likely_admissible import LikelyAdmissible
from la.network import save_network
from la.nn.config import build_ffnn, build_wunn
from la.nn.ffnn import fit_full_batch
from la.search import ida_star
from la.tasks import generate_task_prac, random_walk_tasks


class Learner:
    """One LearnHeuristicPrac run: networks, optimisers, memory buffer, α, β, y^q and the per-iteration log."""

    def __init__(self, domain, config: LearnConfig, rng: np.random.Generator, encoding=None):
        """`encoding`: the networks' inputs (`la.features`); by default the paper's for `domain`."""
        if encoding is None:
            encoding = for_domain(domain)
        elif encoding.domain.name != domain.name:
            raise ValueError(f"{encoding!r} encodes {encoding.domain.name} states, not {domain.name} ones")
        self.domain, self.config, self.rng, self.encoding = domain, config, rng, encoding
        n_in = encoding.size
        ffnn_rng, wunn_rng = rng.spawn(2)
        self.ffnn, self.ffnn_adam = build_ffnn(config.ffnn, n_in, ffnn_rng)    # keeps ffnn_rng for dropout
        self.wunn, self.wunn_adam = (build_wunn(config.wunn, n_in, wunn_rng)
                                     if config.task_generation == "gtp" else (None, None))  # LengthInc: no WUNN
        self.buffer = MemoryBuffer(config.buffer_size, domain.size)
        self.alpha = config.alpha0 if config.uses_alpha else None
        self.beta = config.beta0
        self.y_q = -math.inf             # `NNBayesHeuristic`: before the first Update every state is "unfamiliar"
        self.trained = False             # `IsTrained`: true after the first Update with a non-empty buffer
        self.iteration = 0               # iterations completed
        self.log = []

    # --- one iteration ---------------------------------------------------------------------------------------

    def run_iteration(self) -> dict:
        """Generate and solve NumTasksPerIter tasks, update α, then Update (paper Alg. 2; the authors'
        `Program.Train`)."""
        cfg, n = self.config, self.iteration
        began = time.perf_counter()
        h = self.planning_heuristic()
        plans, tasks = [], []
        for _ in range(cfg.tasks_per_iter):
            task = self.make_task(n)
            result = ida_star(self.domain, h, task.start, node_limit=cfg.node_limit, time_limit=cfg.time_limit,
                              order=cfg.order)
            if result.solved:
                plans.append(result.plan)
            tasks.append({"steps": task.steps, "solved": result.solved, "cost": result.cost,
                          "generated": result.generated, "expanded": result.expanded, "seconds": result.seconds})
        planned = time.perf_counter()
        alpha_used, beta_used = self.alpha, self.beta
        update_beta = len(plans) >= cfg.solved_threshold
        if not update_beta and self.alpha is not None:
            self.alpha = round(max(self.alpha - cfg.delta, cfg.alpha_min), 12)
        # The network evaluated after training is the one that planned the last iteration: the authors'
        # `Program.Train` saves it before each Update, so their final Update is never saved and is skipped here.
        training = self.update(plans, update_beta) if n < cfg.num_iter - 1 else {}
        self.iteration += 1
        entry = {"iteration": self.iteration, "alpha": alpha_used, "beta": beta_used, "beta_after": self.beta,
                 "y_q": self.y_q, "solved": len(plans), "tasks": tasks, "buffer": len(self.buffer),
                 "nodes": sum(t["generated"] for t in tasks),
                 "plan_seconds": planned - began, "train_seconds": time.perf_counter() - planned, **training}
        self.log.append(entry)
        return entry

    def planning_heuristic(self):
        """The training-time heuristic (the authors' `NNBayesHeuristic.H`): round(μ), or y^α with the quantile
        rule."""
        if self.alpha is None:
            return LikelyAdmissible(self.ffnn, self.encoding)
        return LikelyAdmissible(self.ffnn, self.encoding, self.alpha, y_q=self.y_q,
                                sigma_else=math.sqrt(self.config.epsilon))      # σ_t² = ε beyond y^q

    def make_task(self, n: int):
        """GenerateTaskPrac once something is trained, a 1-step walk before; LengthInc: a longer walk."""
        cfg = self.config
        if cfg.task_generation == "length_inc":
            return random_walk_tasks(self.domain, 1, cfg.length_inc * (n + 1), self.rng)[0]
        if not self.trained:
            return random_walk_tasks(self.domain, 1, 1, self.rng)[0]     # `Program.Train`: the first iteration(s)
        return generate_task_prac(self.domain, self.wunn, self.rng, cfg.epsilon, cfg.max_steps, cfg.wunn.K,
                                  encoding=self.encoding)

    # --- Update (the authors' `NNBayesHeuristic.Update`) ----------------------------------------------------

    def update(self, plans: list, update_beta: bool) -> dict:
        """Memory buffer, FFNN, WUNN, y^q (the authors' `NNBayesHeuristic.Update`), even when no plan was found."""
        added = self.buffer.add_plans(plans)
        if len(self.buffer) == 0:
            return {"added": 0}
        states, y = self.buffer.states(), self.buffer.labels()
        X = self.encoding(states)
        ffnn_steps = self.train_ffnn(X, y)
        wunn_blocks, decayed = self.train_wunn(X, y, update_beta) if self.wunn is not None else (0, False)
        self.y_q = float(np.quantile(y, self.config.q, method="median_unbiased"))   # R-8, as MathNet's
        self.trained = True
        return {"added": added, "ffnn_steps": ffnn_steps, "wunn_blocks": wunn_blocks, "beta_decayed": decayed}

    def train_ffnn(self, X: np.ndarray, y: np.ndarray) -> int:
        """Warm-started full-batch Adam steps on the buffer cycled to 25,000 rows, targets y/10, until every
        record is predicted within 0.5 or TrainIter steps (`NNBayesHeuristic.Update`; `fit_full_batch`)."""
        cfg = self.config
        return fit_full_batch(self.ffnn, self.ffnn_adam, X, y, cfg.ffnn_batch, cfg.target_scale, cfg.train_iter,
                              cfg.train_tolerance)

    def train_wunn(self, X: np.ndarray, y: np.ndarray, update_beta: bool) -> tuple:
        """WUNN training in blocks of 50 steps until σ_e < √(κε) on every record; β decays by γ only if all
        101 blocks ran, this is not the first Update and enough tasks were solved (`NNBayesHeuristic.Update`)."""
        cfg, target = self.config, self.config.sigma_e_target
        was_trained = self.trained
        for block in range(cfg.wunn_blocks):
            _, sigma_e = self.wunn.predict(X, cfg.wunn.K, self.rng)
            if was_trained and sigma_e.max() < target:          # checked before training; never on the first
                return block, False
            # Paper §5: sample by f(x) = e^σ_e where σ_e is still too high, e^−C elsewhere.
            weight = np.where(sigma_e > target, np.exp(sigma_e), math.exp(-cfg.C))
            weight /= weight.sum()
            for _ in range(cfg.wunn_block_steps):
                # Weighted sampling without replacement, done correctly: the authors'
                # `NNBaseHeuristic.SampleFromMemoryBuffer` over-draws the newest buffer record.
                batch = self.rng.choice(len(y), cfg.minibatch, replace=len(y) <= cfg.minibatch, p=weight)
                _, grads = self.wunn.sample_loss_and_grads(X[batch], y[batch], self.beta, cfg.wunn.S, self.rng)
                self.wunn_adam.step(self.wunn.params, grads)
        decayed = was_trained and update_beta
        if decayed:
            self.beta *= cfg.gamma
        return cfg.wunn_blocks, decayed

    # --- checkpoints (la.checkpoint) ---------------------------------------------------------------------------

    def identity(self) -> dict:
        """What a checkpoint must match to continue this run: the domain, the encoding and the configuration."""
        return {"domain": self.domain.name, "encoding": describe(self.encoding), "config": as_json(self.config)}

    def save(self, path) -> None:
        """Hand everything needed to continue this run to `la.checkpoint`, which writes it to `path`."""
        meta = {**self.identity(), "iteration": self.iteration, "alpha": self.alpha, "beta": self.beta,
                "y_q": None if math.isinf(self.y_q) else self.y_q, "trained": self.trained,
                "rng": self.rng.bit_generator.state, "log": self.log}
        save_checkpoint(path, {name: getattr(self, name) for name in PARTS},
                        (self.buffer.states(), self.buffer.labels()), meta)

    @classmethod
    def restore(cls, path, domain, config: LearnConfig, encoding=None) -> "Learner":
        """The learner saved at `path` by `save`; ValueError if the file is damaged or belongs to another run."""
        learner = cls(domain, config, np.random.default_rng(0), encoding)
        state = read_checkpoint(path, learner.identity())
        for name in PARTS:
            if getattr(learner, name) is not None:
                if name not in state["parts"]:
                    raise ValueError(f"{path}: missing part '{name}'")
                setattr(learner, name, state["parts"][name])
        learner.buffer = MemoryBuffer.from_arrays(config.buffer_size, *state["buffer"])
        learner.iteration, learner.alpha, learner.beta = state["iteration"], state["alpha"], state["beta"]
        learner.y_q = -math.inf if state["y_q"] is None else state["y_q"]
        learner.trained, learner.log = state["trained"], state["log"]
        learner.rng.bit_generator.state = state["rng"]
        return learner

    # --- results ---------------------------------------------------------------------------------------------

    def test_heuristic(self, alpha: float | None = None):
        """The heuristic used on test tasks: σ_t = σ_a, no quantile rule (paper §5; the authors'
        `NNPreTrainedHeuristic.H`)."""
        return LikelyAdmissible(self.ffnn, self.encoding, alpha)

    def solved_fraction(self) -> float:
        """Fraction of all training tasks solved within the budget ("Solved Train", paper Table 2)."""
        tasks = [t for entry in self.log for t in entry["tasks"]]
        return sum(t["solved"] for t in tasks) / len(tasks) if tasks else 0.0

    def progress_line(self, left: float) -> str:
        """One line per finished iteration, with the estimated seconds `left`."""
        e, cfg = self.log[-1], self.config
        steps = np.mean([t["steps"] for t in e["tasks"]])
        alpha = "mean" if e["alpha"] is None else f"{e['alpha']:.2f}"
        return (f"iter {self.iteration:3d}/{cfg.num_iter}  solved {e['solved']:2d}/{cfg.tasks_per_iter}  "
                f"α {alpha}  β {e['beta_after']:.2e}  buffer {e['buffer']:6,d}  task length {steps:6.1f}  "
                f"nodes {e['nodes'] / 1e6:7.1f}M  {e['plan_seconds'] + e['train_seconds']:6.1f} s  "
                f"(about {_duration(left)} left)")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def learn_heuristic(domain, config: LearnConfig, rng: np.random.Generator, checkpoint=None,
                    progress=print, snapshots=None, snapshot_every: int = 5, encoding=None) -> Learner:
    """Run LearnHeuristicPrac to the end, checkpointing after every iteration.

    With `checkpoint` (a file path) an existing checkpoint is resumed, and the finished run equals an
    uninterrupted one: the checkpoint holds the networks, optimiser states, buffer, α, β, y^q, the random
    generator's state and the log. `progress` gets one line per iteration (None: silent). With `snapshots`
    (a folder), the FFNN and WUNN after every `snapshot_every`-th iteration are saved there as
    `iterNN-ffnn.npz` / `iterNN-wunn.npz`, to study how they changed during training. `encoding`: the
    networks' inputs (`la.features`), by default the paper's for `domain`.
    """
    if encoding is None:
        encoding = for_domain(domain)
    resume = checkpoint is not None and os.path.exists(checkpoint)
    learner = (Learner.restore(checkpoint, domain, config, encoding) if resume
               else Learner(domain, config, rng, encoding))
    began, done_before = time.perf_counter(), learner.iteration
    while learner.iteration < config.num_iter:
        learner.run_iteration()
        if checkpoint is not None:
            learner.save(checkpoint)
        if snapshots is not None and learner.iteration % snapshot_every == 0:
            for name in ("ffnn", "wunn"):
                if getattr(learner, name) is not None:
                    save_network(getattr(learner, name), learner.encoding,
                                 Path(snapshots) / f"iter{learner.iteration:02d}-{name}.npz")
        if progress is not None:
            per_iteration = (time.perf_counter() - began) / (learner.iteration - done_before)
            progress(learner.progress_line(per_iteration * (config.num_iter - learner.iteration)))
    return learner

