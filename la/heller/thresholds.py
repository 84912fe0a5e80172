"""Confidence thresholds (Heller et al. 2022, Search Methods): when is the network confident in a
state?

The confidence of a classification network f is c^NN(s) = max_i f(s)_i, its heuristic h^NN(s) =
argmax_i f(s)_i. A threshold is built from the network's confidences on its training states (and,
for the adaptive one, their cost labels), as plain arrays, so it does not depend on how the network
is written. It answers

    threshold.confident(h, c)        # (n,) bool: c^NN(s) >= t, or >= t_i with i = h^NN(s)

which the searches use in two ways: `prune=` drops the unconfident states (Mean Threshold, Adaptive
Threshold; in `dual_queue` from the h^NN queue only) and `dual_queue(prioritise=...)` switches
queues after an unconfident expansion (Prioritizing Queue).

t is the X-th percentile of the training confidences, NumPy's default (linear interpolation between
order statistics), so that about X % of the training states lie below it: "X % of the training data
are pruned".
"""
import numpy as np

X_PAPER = (5, 20, 40, 80)   # Heller et al., Search Method Performance: the fractions X % of Table 2
# Heller et al., Adaptive Threshold: cost groups are merged until each holds >= 100
MIN_GROUP = 100


class MeanThreshold:
    """Mean Threshold: s is confident when c^NN(s) >= t, one t for all states."""

    def __init__(self, t: float):
        self.t = float(t)

    @classmethod
    def from_training(cls, confidences, X: float) -> "MeanThreshold":
        """t = the X-th percentile of the network's confidences on its training states."""
        return cls(percentile(_confidences(confidences), X))

    def confident(self, h, c) -> np.ndarray:
        return np.asarray(c) >= self.t

    def __repr__(self) -> str:
        return f"MeanThreshold(t={self.t:.4g})"


class AdaptiveThreshold:
    """Adaptive Threshold: s is confident when c^NN(s) >= t_i, i = the cost group of h^NN(s).

    Group g covers the costs lower[g] .. lower[g+1]-1 (the last group: lower[-1] and above); a
    predicted cost below every training cost falls in the first group. So a cost outside the
    training costs uses the nearest group, and a cost missing between training costs the group below
    it.
    """

    def __init__(self, lower, t):
        # (groups,) the smallest cost of each group, ascending
        self.lower = np.asarray(lower, dtype=np.int64)
        self.t = np.asarray(t, dtype=np.float64)            # (groups,) t_i of each group
        if self.lower.ndim != 1 or len(self.lower) == 0 or self.lower.shape != self.t.shape:
            raise ValueError(f"an adaptive threshold needs one t per cost group, "
                             f"got {self.t.size} thresholds for {self.lower.size} groups")
        if (np.diff(self.lower) <= 0).any():
            raise ValueError("cost groups must start at increasing costs, "
                             f"got {self.lower.tolist()}")

    @classmethod
    def from_training(cls, confidences, costs, X: float,
                      min_group: int = MIN_GROUP) -> "AdaptiveThreshold":
        """t_i = the X-th percentile of the confidences in cost group i (`cost_groups`)."""
        confidences = _confidences(confidences)
        costs = np.asarray(costs)
        if costs.shape != confidences.shape or not np.issubdtype(costs.dtype, np.integer):
            raise ValueError(f"costs must be one integer per confidence, got {costs.dtype} "
                             f"{costs.shape} for {confidences.shape[0]} confidences")
        lower = cost_groups(costs, min_group)
        group = np.searchsorted(lower, costs, side="right") - 1
        return cls(lower, [percentile(confidences[group == g], X) for g in range(len(lower))])

    def group(self, h) -> np.ndarray:
        """The cost group of each predicted cost h, (n,) int."""
        return np.maximum(np.searchsorted(self.lower, np.asarray(h), side="right") - 1, 0)

    def confident(self, h, c) -> np.ndarray:
        return np.asarray(c) >= self.t[self.group(h)]

    def __repr__(self) -> str:
        return f"AdaptiveThreshold(lower={self.lower.tolist()}, t={np.round(self.t, 4).tolist()})"


def cost_groups(costs, min_group: int = MIN_GROUP) -> np.ndarray:
    """The smallest cost of each group of adjacent cost labels (Heller et al., Adaptive Threshold).

    Sweep the costs upward from the smallest, adding each cost's states (none for a cost no state
    has) to the current group until it holds at least `min_group` states, then start the next group.
    A last group left with fewer than `min_group` states joins the group below it; with fewer than
    `min_group` states in all, there is one group.
    """
    costs = np.asarray(costs)
    if costs.size == 0:
        raise ValueError("cost groups need at least one training state, got none")
    if min_group < 1:
        raise ValueError(f"min_group must be at least 1 state, got {min_group}")
    values, counts = np.unique(costs, return_counts=True)
    # `held` states in the group being built
    lower, held = [], min_group
    for value, count in zip(values.tolist(), counts.tolist()):
        if held >= min_group:
            lower.append(value)
            held = 0
        held += count
    if held < min_group and len(lower) > 1:
        lower.pop()
    return np.array(lower, dtype=np.int64)


def percentile(confidences: np.ndarray, X: float) -> float:
    """The X-th percentile (NumPy's linear interpolation) of the confidences."""
    if not 0 <= X <= 100:
        raise ValueError(f"X is a percentage of the training states, 0..100, got {X}")
    return float(np.percentile(confidences, X))


def _confidences(confidences) -> np.ndarray:
    """The training confidences as a float array, or ValueError if empty or not all finite.

    Any finite score where higher means more confident will do, not only c^NN in [0, 1]: la also
    thresholds −σ_e and −σ_a (`la.heller.evaluators`), and a percentile does not depend on the
    scale."""
    c = np.asarray(confidences, dtype=np.float64).reshape(-1)
    if c.size == 0:
        raise ValueError("a threshold needs the network's confidences on its training "
                         "states, got none")
    if not np.isfinite(c).all():
        raise ValueError(f"confidences must be finite numbers, got {c[~np.isfinite(c)][0]}")
    return c


def values_only(nn):
    """h^NN alone: an NN evaluator (states -> (h, c)) seen as a plain heuristic, for GBFS without
    pruning."""
    return lambda states: nn(states)[0]
