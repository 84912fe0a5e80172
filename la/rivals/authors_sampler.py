"""The WUNN's minibatch sampler as the authors' code runs it
(`NNBaseHeuristic.SampleFromMemoryBuffer` with `Global.Sample`, in HeuristicSearch/ of
github.com/OfirMarom/LearnHeuristicWithUncertaintly), for Table 1's gap (figures/table1-gap/): does
it change what LearnHeuristicPrac learns?

The paper (§5) samples a minibatch of 100 records by f(x) = e^σ_e without replacement; `la` does
exactly that (`la.buffer.weighted_minibatch`). The authors' loop, written here from its description,
does something else. With at most 100 records it draws 100 times with replacement. With more, each
draw takes u ~ U[0, 1) and walks the records adding w_i / norm, returning the first record whose
running sum passes u, or the last record if none does; then it sets w_i := 0 and norm := 1 − w_i
(meant: norm − w_i). After the second draw the remaining weights scaled by 1/norm sum to less than
1, so a draw falls past them with probability 1 − (weight left)/norm and returns the last record,
the newest in the buffer, whether it was drawn before or not.

`authors_minibatch` draws from exactly those probabilities, not the same numbers as their code (its
random generator is .NET's, seeded from the clock). Use it with `--sampler authors`
(la.experiments.suboptimality).
"""
import numpy as np


def authors_minibatch(weight: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n record indices drawn as the authors' sampler draws them from normalised weights `weight`
    (docstring)."""
    m = len(weight)
    if m <= n:
        return rng.choice(m, n, replace=True, p=weight)
    running = np.cumsum(weight)               # the walk's sums before any weight is zeroed
    u = rng.random(n)
    picked, norm, out = np.zeros(0, dtype=np.int64), 1.0, np.empty(n, dtype=np.int64)
    for k in range(n):
        # The walk returns the first i with running[i] − (weight zeroed at or before i) > u·norm.
        # Between two zeroed records that subtracted weight is constant, so each stretch is one
        # binary search.
        removed = np.concatenate(([0.0], np.cumsum(weight[picked])))
        found = np.searchsorted(running, u[k] * norm + removed, side="right")
        starts, ends = np.concatenate(([0], picked)), np.concatenate((picked, [m]))
        inside = (found >= starts) & (found < ends)
        # past every weight: the last record
        i = int(found[inside.argmax()]) if inside.any() else m - 1
        out[k] = i
        zeroed = i in picked
        # their norm ← 1 − w_i, w_i as it stands
        norm = 1.0 - (0.0 if zeroed else weight[i])
        if not zeroed:
            picked = np.insert(picked, np.searchsorted(picked, i), i)
    return out
