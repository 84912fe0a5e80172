"""Children's heuristic values from their parents, for the batched best-first searches
(`la.search.best_first`).

IDA* keeps an incremental heuristic's carry with every node on its stack (`la.heuristics.base`);
best-first search stores every node it reaches, and a carry per node would cost more memory than
the node (the 15-puzzle network's z1: 20 float64, 160 bytes). So it keeps none, and scores a batch's
children from the nodes it expands:

- a heuristic whose `start` gives no carry (Manhattan distance, gap) by its `step` on the parents'
  stored values: one tile's or one pair's change;
- the one-hot network (`la.heuristics.likely_admissible`) by its `step` on the parents' z1, which
  `FirstLayer` recomputes for the K parents: the children's z1 is the parents' plus the moved tile's
  row, as in IDA*;
- any other heuristic on the children themselves.

Each gives the values the heuristic gives the children; the network's z1 differs from the product
from scratch by float64 rounding (~1e-15), as IDA*'s does, which the integer h absorbs.
"""
import sys

import numpy as np

from la.features import one_hot_index


class FirstLayer:
    """z1 = x·W1 + b1 of the one-hot network without x: b1 plus one row of P per pair of cells,
    P[(u·N + v)·half + j] = the share of value u at cell 2j and v at cell 2j + 1 (an odd board's
    last cell pairs with a padding cell of share 0); half as many rows as cells to add."""

    def __init__(self, heuristic):
        domain, W1 = heuristic.domain, heuristic.net.params["W1"]
        n = domain.size
        col_bit, row_bit = one_hot_index(domain.width, np.arange(n)[:, None],
                                         np.arange(n)[None, :], domain.height)     # (N, N)
        share = W1[col_bit] + W1[row_bit]                        # (N values, N cells, H)
        share = np.concatenate([share, np.zeros((n, n % 2, W1.shape[1]))], axis=1)
        self.pairs = (share[:, None, 0::2] + share[None, :, 1::2]).reshape(-1, W1.shape[1])
        self.n, self.half, self.b1 = n, share.shape[1] // 2, heuristic.net.params["b1"]

    def __call__(self, states: np.ndarray) -> np.ndarray:
        """(n, N) states -> (n, H) float64 z1."""
        cells = np.zeros((len(states), 2 * self.half), np.intp)
        cells[:, :self.n] = states
        pair = (cells[:, 0::2] * self.n + cells[:, 1::2]) * self.half + np.arange(self.half)
        z1 = np.take(self.pairs, pair[:, 0], axis=0)
        for j in range(1, self.half):
            z1 += np.take(self.pairs, pair[:, j], axis=0)
        z1 += self.b1
        return z1


def scorer(heuristic, root: np.ndarray):
    """`score(parents, h_parents, parent, move, children)` -> the children's values, where children
    = domain.apply(parents, parent, move) and h_parents the parents' values (module docstring);
    `root` (1, N), a state to ask `start` whether the heuristic has a carry."""
    # A network is a LikelyAdmissible only if its module is loaded: importing it here would load
    # SciPy for every search (`la.solve`'s refusals must not).
    networks = sys.modules.get("la.heuristics.likely_admissible")
    if networks is not None and isinstance(heuristic, networks.LikelyAdmissible) \
            and heuristic.one_hot:
        z1 = FirstLayer(heuristic)
        return lambda parents, h, parent, move, children: \
            heuristic.step(parents, h, z1(parents), parent, move)[0]
    if hasattr(heuristic, "start") and hasattr(heuristic, "step") \
            and heuristic.start(root)[1] is None:
        return lambda parents, h, parent, move, children: \
            heuristic.step(parents, h, None, parent, move)[0]
    return lambda parents, h, parent, move, children: heuristic(children)
