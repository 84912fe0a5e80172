"""LearnHeuristicPrac (paper Alg. 2, practical form, §4–§5) and its baselines: one loop.

    repeat NumIter times:
        for each of NumTasksPerIter tasks:
            generate a task: GenerateTaskPrac with the WUNN (a 1-step walk until anything is
                             trained), or for the LengthInc baseline a walk of LengthInc·(n+1) steps
            solve it with IDA*, h = max(round(y^α), h_ad), in a node budget; keep the plan if solved
        if fewer than NumTasksPerIterThresh were solved: α := max(α − Δ, 0.5), and β may not decay
        Update: add the plans' (state, cost-to-goal) records to the memory buffer; train the FFNN
                on it; train the WUNN until σ_e < √(κε) on every record, or decay β if it cannot;
                y^q := the labels' q-quantile

The single-output network ("N/A", and every efficiency run) plans with the mean and has no α
schedule. Every domain goes through one encoding (`la.features`, handed to the learner): the
networks' inputs, and h_ad, the admissible floor of the feature domains (paper §5; 0 for the
one-hot).

The learner is its state (`Learner`: networks, optimiser states, memory buffer, α, β, y^q,
iteration, log) and one step (`Learner.run_iteration`); `learn_heuristic_prac` runs the steps.
Nothing here touches a file or prints: checkpoints, snapshots and progress lines are the caller's
(`la.runs.training`).
"""
import math
import time

import numpy as np

from la.buffer import MemoryBuffer, weighted_minibatch
from la.config import LearnConfig
from la.heuristics.likely_admissible import LikelyAdmissible
from la.nn.config import build_ffnn, build_wunn
from la.nn.ffnn import fit_full_batch
from la.search import ida_star
from la.tasks import generate_task_prac, random_walk_tasks


class Learner:
    """One LearnHeuristicPrac run: networks, optimisers, memory buffer, α, β, y^q, iteration log."""

    def __init__(self, domain, config: LearnConfig, rng: np.random.Generator, encoding):
        """`encoding`: the networks' inputs (`la.features`; the paper's for a domain:
        `la.features.encodings`); IDA* searches in the goal order `config.order` names
        (`la.search.ida_star`)."""
        if encoding.domain.name != domain.name:
            raise ValueError(f"{encoding!r} encodes {encoding.domain.name} states, "
                             f"not {domain.name} ones")
        self.domain, self.config, self.rng, self.encoding = domain, config, rng, encoding
        n_in, (ffnn_rng, wunn_rng) = encoding.size, rng.spawn(2)
        # the FFNN keeps ffnn_rng; LengthInc has no WUNN
        self.ffnn, self.ffnn_adam = build_ffnn(config.ffnn, n_in, ffnn_rng, config.target_scale)
        self.wunn, self.wunn_adam = (build_wunn(config.wunn, n_in, wunn_rng)
                                     if config.task_generation == "gtp" else (None, None))
        self.buffer = MemoryBuffer(config.buffer_size, domain.size)
        self.alpha = config.alpha0 if config.uses_alpha else None
        self.beta = config.beta0
        # Where the paper is silent, as the authors' `NNBayesHeuristic`: y^q = −∞ before the first
        # Update (every state is "unfamiliar"), and `IsTrained` only after an Update with records.
        self.y_q = -math.inf
        self.trained = False
        self.iteration = 0               # iterations completed
        self.log = []
        self.minibatch = weighted_minibatch   # draws WUNN minibatches (the authors' way: la.rivals)
        # start -> the plan kept for a solved task instead of the search's own (None: the search's,
        # as the paper); an optimal plan makes every label exact (the oracle-label arm, la.rivals)
        self.relabel = None

    # --- one iteration ---------------------------------------------------------------------------

    def run_iteration(self) -> dict:
        """One iteration of Alg. 2: generate and solve NumTasksPerIter tasks, update α, Update."""
        cfg, n = self.config, self.iteration
        began = time.perf_counter()
        h = self.planning_heuristic()
        plans, tasks = [], []
        for _ in range(cfg.tasks_per_iter):
            task = self.make_task(n)
            result = ida_star(self.domain, h, task.start, node_limit=cfg.node_limit,
                              time_limit=cfg.time_limit, order=cfg.order)
            if result.solved:
                plans.append(result.plan if self.relabel is None else self.relabel(task.start))
            tasks.append({"start": task.start.tolist(), "steps": task.steps,
                          "solved": result.solved, "cost": result.cost,
                          "generated": result.generated, "expanded": result.expanded,
                          "seconds": result.seconds})
            if result.solved and self.relabel is not None:
                tasks[-1]["label_cost"] = len(plans[-1]) - 1
        planned = time.perf_counter()
        alpha_used, beta_used = self.alpha, self.beta
        update_beta = len(plans) >= cfg.solved_threshold
        if not update_beta and self.alpha is not None:
            self.alpha = round(max(self.alpha - cfg.delta, cfg.alpha_min), 12)
        # The network evaluated after training is the one that planned the last iteration: the
        # authors' `Program.Train` saves it before each Update, so their final Update is never saved
        # and is skipped here.
        training = self.update(plans, update_beta) if n < cfg.num_iter - 1 else {}
        self.iteration += 1
        entry = {"iteration": self.iteration, "alpha": alpha_used, "beta": beta_used,
                 "beta_after": self.beta, "y_q": self.y_q, "solved": len(plans), "tasks": tasks,
                 "buffer": len(self.buffer), "nodes": sum(t["generated"] for t in tasks),
                 "plan_seconds": planned - began,
                 "train_seconds": time.perf_counter() - planned, **training}
        self.log.append(entry)
        return entry

    def planning_heuristic(self):
        """The training-time heuristic (§4–§5): round(μ), or y^α with the quantile rule."""
        if self.alpha is None:
            return LikelyAdmissible(self.ffnn, self.encoding)
        # σ_t² = ε beyond y^q
        return LikelyAdmissible(self.ffnn, self.encoding, self.alpha, y_q=self.y_q,
                                sigma_else=math.sqrt(self.config.epsilon))

    def make_task(self, n: int):
        """GenerateTaskPrac once trained, a 1-step walk before; LengthInc: a longer walk."""
        cfg = self.config
        if cfg.task_generation == "length_inc":
            return random_walk_tasks(self.domain, 1, cfg.length_inc * (n + 1), self.rng)[0]
        if not self.trained:
            # the first iteration(s): a 1-step walk, as the authors' `Program.Train`
            return random_walk_tasks(self.domain, 1, 1, self.rng)[0]
        return generate_task_prac(self.domain, self.wunn, self.rng, cfg.epsilon, cfg.max_steps,
                                  cfg.wunn.K, encoding=self.encoding)

    # --- Update (Alg. 2) -------------------------------------------------------------------------

    def update(self, plans: list, update_beta: bool) -> dict:
        """Alg. 2's Update: memory buffer, FFNN, WUNN, y^q; even when no plan was found."""
        added = self.buffer.add_plans(plans)
        if len(self.buffer) == 0:
            return {"added": 0}
        states, y = self.buffer.states(), self.buffer.labels()
        X = self.encoding(states)
        ffnn_steps = self.train_ffnn(X, y)
        wunn_blocks, decayed = (self.train_wunn(X, y, update_beta) if self.wunn is not None
                                else (0, False))
        # y^q by the R-8 quantile, as MathNet's `Statistics.Quantile` in the authors' code
        self.y_q = float(np.quantile(y, self.config.q, method="median_unbiased"))
        self.trained = True
        return {"added": added, "ffnn_steps": ffnn_steps, "wunn_blocks": wunn_blocks,
                "beta_decayed": decayed}

    def train_ffnn(self, X: np.ndarray, y: np.ndarray) -> int:
        """Warm-started full-batch Adam steps on the buffer cycled to 25,000 rows, targets y/10,
        until every record is predicted within 0.5 or TrainIter steps (`fit_full_batch`)."""
        cfg = self.config
        return fit_full_batch(self.ffnn, self.ffnn_adam, X, y, cfg.ffnn_batch, cfg.train_iter,
                              cfg.train_tolerance)

    def train_wunn(self, X: np.ndarray, y: np.ndarray, update_beta: bool) -> tuple:
        """The WUNN's training in Update: blocks of 50 steps until σ_e < √(κε) on every record.

        β decays by γ only if all 101 blocks ran, this is not the first Update and enough tasks
        were solved."""
        # The paper gives MaxTrainIter = 5,000 steps and no β rule; the blocks (at most 101 × 50)
        # and the rule are the authors' `NNBayesHeuristic.Update`.
        cfg, target = self.config, self.config.sigma_e_target
        was_trained = self.trained
        for block in range(cfg.wunn_blocks):
            _, sigma_e = self.wunn.predict(X, cfg.wunn.K, self.rng)
            if was_trained and sigma_e.max() < target:     # checked before training; not the first
                return block, False
            # Paper §5: sample by f(x) = e^σ_e where σ_e is still too high, e^−C elsewhere.
            weight = np.where(sigma_e > target, np.exp(sigma_e), math.exp(-cfg.C))
            weight /= weight.sum()
            for _ in range(cfg.wunn_block_steps):
                batch = self.minibatch(weight, cfg.minibatch, self.rng)
                _, grads = self.wunn.sample_loss_and_grads(X[batch], y[batch], self.beta,
                                                           cfg.wunn.S, self.rng)
                self.wunn_adam.step(self.wunn.params, grads)
        decayed = was_trained and update_beta
        if decayed:
            self.beta *= cfg.gamma
        return cfg.wunn_blocks, decayed

    # --- results ---------------------------------------------------------------------------------

    def test_heuristic(self, alpha: float | None = None):
        """The heuristic used on test tasks: σ_t = σ_a, no quantile rule (paper §5)."""
        return LikelyAdmissible(self.ffnn, self.encoding, alpha)

    def solved_fraction(self) -> float:
        """Fraction of all training tasks solved within the budget ("Solved Train", Table 2)."""
        tasks = [t for entry in self.log for t in entry["tasks"]]
        return sum(t["solved"] for t in tasks) / len(tasks) if tasks else 0.0


def learn_heuristic_prac(domain, config: LearnConfig, rng: np.random.Generator, encoding,
                         learner=None, after_iteration=None) -> Learner:
    """LearnHeuristicPrac (paper Alg. 2): NumIter iterations of `Learner.run_iteration`.

    `learner`: a run to continue (a `Learner` restored by the caller) instead of a new one.
    `after_iteration`, if given, is called with the learner after each iteration: where a caller
    saves a checkpoint or prints.
    """
    if learner is None:
        learner = Learner(domain, config, rng, encoding)
    while learner.iteration < config.num_iter:
        learner.run_iteration()
        if after_iteration is not None:
            after_iteration(learner)
    return learner
