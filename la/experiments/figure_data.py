"""Data for the paper's Figures 1 and 2 from a trained LearnHeuristicPrac run (drawn by `la.plots`).

Figure 1: a GenerateTaskPrac walk with the trained WUNN — at each step the candidates, their σ_e and
softmax probabilities, the sampled one — ending at the first state with σ_e >= ε. Figure 2: after
one more Update on that task's plan, the σ_e of the same states (the walk's end should now be below
ε) and the next walk, which must go further.

The 15-puzzle's only: the figures draw 4 × 4 boards, so `la.experiments.suboptimality` records a
walk on that domain alone, and `la.plots` says so when a Table 3 record has none.
"""
import numpy as np

from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.runs.checkpoint import restore_learner
from la.runs.runner import unit_rng
from la.search import ida_star
from la.tasks import generate_task_prac


def trace_json(task) -> list:
    """A GenerateTaskPrac trace as plain JSON."""
    return [{"state": s["state"].tolist(), "candidates": s["candidates"].tolist(),
             "sigma_e": s["sigma_e"].tolist(), "p": s["p"].tolist(), "chosen": s["chosen"]}
            for s in task.trace]


def generate_task_traces(checkpoint, config, seed: int) -> dict:
    """A walk with the checkpoint's WUNN, then the same states and a new walk after an Update on its
    plan."""
    domain = SlidingTile(4)
    learner = restore_learner(checkpoint, domain, config, OneHot(domain))
    K, epsilon = config.wunn.K, config.epsilon
    before = generate_task_prac(domain, learner.wunn, unit_rng(seed, 7, 1), epsilon,
                                config.max_steps, K, trace=True, encoding=learner.encoding)
    result = ida_star(domain, learner.planning_heuristic(), before.start,
                      node_limit=config.node_limit, order=config.order)
    record = {"epsilon": epsilon, "before": trace_json(before), "start": before.start.tolist(),
              "steps": before.steps, "solved": result.solved, "cost": result.cost}
    if not result.solved:
        return record
    learner.update([result.plan], update_beta=False)
    walked = np.array([s["candidates"][s["chosen"]] for s in record["before"]], dtype=np.uint8)
    _, sigma_e = learner.wunn.predict(learner.encoding(walked), K, unit_rng(seed, 7, 2))
    after = generate_task_prac(domain, learner.wunn, unit_rng(seed, 7, 1), epsilon,
                               config.max_steps, K, trace=True, encoding=learner.encoding)
    record.update({"sigma_e_after_update": sigma_e.tolist(), "after": trace_json(after),
                   "steps_after": after.steps})
    return record
