"""Batched IDA*: the IDA* used everywhere in `la` (Korf 1985; the authors' C#: `IDAStar.cs`).

Plain IDA* visits one node at a time; in Python that means one heuristic call per node, about
10^4–10^5 nodes per second. Here every step expands up to `batch_size` nodes at once: one call
generates all their children (parent pruning included), one heuristic call scores them, and those
with f = g + h > bound are dropped (the smallest such f becomes the next bound). Every iteration
that ends without reaching the goal explores the same tree as the reference (`la.search.reference`)
and generates exactly as many nodes. As in the authors' code, the goal is recognised only when f <=
bound. The goal order (`order`, one of ORDERS) runs one iteration, and decides which goal ends the
last one:

- "depth-first" (the default, the paper's order; `DepthFirst`): exactly the reference's search, the
  first goal in depth-first move order, with the reference's node counts (`la.search.depth_first`).
- "batched" (`la.search.shallowest.Shallowest`): `la`'s earlier order, kept to compare (see there).
"""
import math
import time

import numpy as np

from la.heuristics.base import incremental
from la.search.depth_first import DepthFirst
from la.search.result import Budget, SearchResult

# nodes expanded per heuristic call: amortises NumPy's per-call cost, ~100 MB at most
BATCH_SIZE = 32768
ORDERS = ("depth-first", "batched")       # IDA*'s goal orders (module docstring)


class Nodes:
    """A batch of search nodes: states, h, the heuristic's carry, the pruned move, the parent's
    index."""

    __slots__ = ("state", "h", "carry", "pop", "parent")

    def __init__(self, state, h, carry, pop, parent):
        self.state, self.h, self.carry, self.pop, self.parent = state, h, carry, pop, parent

    def __len__(self):
        return len(self.h)


def ida_star(domain, heuristic, start, node_limit=None, time_limit=None,
             batch_size: int = BATCH_SIZE, order: str = "depth-first",
             progress=None, exact_counts: bool = False) -> SearchResult:
    """IDA* over batches of nodes; returns the plan from `start` to the goal and Korf's node counts.

    `order`: the goal order, how one iteration runs (module docstring). `progress`, if given, is
    called after every iteration as progress(bound, nodes generated in the iteration, nodes
    generated so far, seconds so far). `exact_counts` (depth-first order): at the node limit,
    `generated` = limit + 1 and `expanded` exactly the reference's, which stops the moment it
    generates node limit + 1 (`la.search.limit_counts`); without it `expanded` may count a little
    more."""
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    search = order_class(order)(domain, incremental(heuristic, domain), budget, batch_size,
                                exact_counts)
    root_state = domain.validate(start)[None]
    h, carry = search.h.start(root_state)
    root = Nodes(root_state, h, carry, np.full(1, -1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    bound, plan, status, per_iteration, bounds = int(h[0]), None, None, [], []
    if domain.is_goal(root_state)[0]:
        plan, status, per_iteration, bounds = root_state, "solved", [1], [bound]
    while status is None:
        before = search.generated - (0 if per_iteration else 1)   # the root belongs to iteration 1
        bounds.append(bound)
        plan, next_bound, status = search.iteration(root, bound)
        per_iteration.append(search.generated - before)
        if progress is not None:
            progress(bounds[-1], per_iteration[-1], search.generated, time.perf_counter() - began)
        if status is None and next_bound == math.inf:
            status = "no solution"
        bound = next_bound
    solved = status == "solved"
    return SearchResult(solved, len(plan) - 1 if solved else None, plan if solved else None,
                        search.generated, search.expanded, len(per_iteration),
                        time.perf_counter() - began, status, per_iteration, bounds)


def order_class(order: str):
    """The class that runs IDA*'s iterations in `order` (one of ORDERS). The batched one is imported
    only when asked for, so that the learner loads the paper's order alone
    (tests/test_layout.py)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    if order == "batched":
        from la.search.shallowest import Shallowest
        return Shallowest
    return DepthFirst
