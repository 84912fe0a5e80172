"""Training tasks: random walks back from the goal, and GenerateTaskPrac (paper Alg. 1, practical
form, §4).

GenerateTaskPrac walks back from the goal like a random walk, but each step is drawn from a softmax
over the epistemic uncertainty σ_e of the candidate predecessors (the previous state excluded), so
the walk heads for what the WUNN has not learnt; it stops at the first state whose σ_e reaches ε,
which becomes the task's start, or after MaxSteps − 1 steps (the count is checked before each step).
Where undoing the last step is the only move, the walk takes it, as `la.domains.random_walk` does.
"""
from dataclasses import dataclass, field

import numpy as np

from la.domains.walk import random_walk
from la.nn.layers import softmax


@dataclass
class Task:
    """A start state and how it was made: `steps` is the walk length, or GenerateTaskPrac's step
    count (MaxSteps when the cap stopped the walk)."""
    start: np.ndarray
    steps: int                                   # NumSteps, as the authors' `Program.Train` logs it
    trace: list = field(default_factory=list)    # GenerateTaskPrac's steps, when asked for


def random_walk_tasks(domain, n: int, length: int, rng: np.random.Generator) -> list:
    """n tasks, each a random walk of `length` steps back from the goal (LengthInc; test sets)."""
    return [Task(start, length) for start in random_walk(domain, length, rng, n=n)]


def generate_task_prac(domain, wunn, rng: np.random.Generator, epsilon: float = 1.0,
                       max_steps: int = 1000, K: int = 100, trace: bool = False, *,
                       encoding) -> Task:
    """GenerateTaskPrac (Alg. 1, practical form, §4): walk back from the goal by softmax(σ_e) until
    σ_e >= ε or MaxSteps.

    σ_e is the standard deviation of K sampled WUNN outputs, not the paper's variance (`la.nn.wunn`;
    with ε = 1 the paper's σ_e² >= ε is the same test). Only the sampled state is tested against ε.
    With `trace`, every step's candidates, their σ_e and probabilities and the chosen index are kept
    (tutorial 09, Figure 1). `encoding` gives the WUNN's inputs (`la.features`).
    """
    if encoding.domain.name != domain.name:
        raise ValueError(f"{encoding!r} encodes {encoding.domain.name} states, "
                         f"not {domain.name} ones")
    state, pop, count, u = domain.goal.copy(), -1, 0, 0.0
    steps = []
    while u < epsilon:
        count += 1
        # checked before the step, as the authors' `SearchDomain.Generate`: ≤ MaxSteps − 1 steps
        if count >= max_steps:
            break
        # E_rev minus the previous state
        _, move, candidates = domain.expand(state[None], np.array([pop]))
        if len(candidates) == 0:
            # the only move is back (a single tower in blocksworld): take it, as `random_walk` does
            _, move, candidates = domain.expand(state[None])
        _, sigma_e = wunn.predict(encoding(candidates), K, rng)
        p = softmax(sigma_e)
        k = int(rng.choice(len(p), p=p))
        if trace:
            steps.append({"state": state, "candidates": candidates, "sigma_e": sigma_e, "p": p,
                          "chosen": k})
        state, pop, u = candidates[k], int(domain.inverse(move[k])), max(u, float(sigma_e[k]))
    return Task(state, count, steps)
