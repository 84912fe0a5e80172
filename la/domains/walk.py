"""Random walks back from the goal: LengthInc's training tasks (paper §5) and every test set."""
import numpy as np


def random_walk(domain, steps, rng: np.random.Generator, n: int = 1, trace: bool = False):
    """`n` independent walks from the goal, each step uniform over the moves not undoing the last.

    Where undoing is the only move (a single tower in blocksworld, the 2-pancake), a walk takes it.

    `steps` is one length for all walks or an array of n lengths. All domains here are reversible,
    so walking forward from the goal is walking backward along E_rev. Walks may revisit states.
    Returns the end states (n, size), or with `trace=True` the list of the batch after every step
    (the first entry is the goal).
    """
    steps = np.broadcast_to(np.asarray(steps, dtype=np.int64), (n,))
    if (steps < 0).any():
        raise ValueError(f"a walk cannot have a negative length, got {int(steps.min())}")
    states = np.tile(domain.goal, (n, 1))
    pop = np.full(n, -1, dtype=np.int64)
    history = [states.copy()]
    for i in range(int(steps.max(initial=0))):
        walking = np.flatnonzero(steps > i)
        parent, move = domain.successors(states[walking])
        # no step undoes the last one, as the authors' `SearchDomain.Generate(int steps)`
        undo = move == pop[walking][parent]
        dead_end = np.bincount(parent, ~undo, minlength=len(walking)) == 0
        parent, move = parent[~undo | dead_end[parent]], move[~undo | dead_end[parent]]
        counts = np.bincount(parent, minlength=len(walking))
        first = np.cumsum(counts) - counts
        pick = first + rng.integers(counts)
        states[walking] = domain.apply(states[walking], parent[pick], move[pick])
        pop[walking] = domain.inverse(move[pick])
        if trace:
            history.append(states.copy())
    return history if trace else states
