"""Batched IDA*: the IDA* used everywhere in `la` (Korf 1985; the authors' C#: `IDAStar.cs`).

Plain IDA* visits one node at a time; in Python that means one heuristic call per node, about 10^4–10^5
nodes per second. Here every step expands up to `batch_size` nodes at once: one call generates all their
children (parent pruning included), one heuristic call scores them, and those with f = g + h > bound are
dropped (the smallest such f becomes the next bound). Every iteration that ends without reaching the goal
explores the same tree as the reference (`la.search.reference`) and generates exactly as many nodes. As in
the authors' code, the goal is recognised only when f <= bound. Two orders decide which goal ends the last
iteration:

- `order="depth-first"` (the default, the paper's): exactly the reference's search, the first goal in
  depth-first move order, with the reference's node counts (`la.search.depth_first` explains how).
- `order="batched"`: `la`'s earlier order, kept to compare. It always expands the deepest non-empty depth,
  up to `batch_size` of its nodes, and returns the first goal among the children of such a chunk. While a
  depth's nodes fit in one chunk this runs level by level and returns the *shallowest* goal within the
  bound; otherwise the first goal of a chunk. With an admissible heuristic both orders return optimal
  plans; with an inadmissible one the batched order's plan can be shorter than the reference's, and its
  last iteration's node count differs (it counts every child of the chunk that holds the goal).
"""
import math
import time

import numpy as np

from la.heuristics.base import incremental
from la.search.depth_first import DepthFirst
from la.search.result import Budget, SearchResult

BATCH_SIZE = 32768   # nodes expanded per heuristic call: amortises NumPy's per-call cost, ~100 MB at most
ORDERS = ("depth-first", "batched")


class Nodes:
    """A batch of search nodes: states, h, the heuristic's carry, the pruned move, the parent's index."""

    __slots__ = ("state", "h", "carry", "pop", "parent")

    def __init__(self, state, h, carry, pop, parent):
        self.state, self.h, self.carry, self.pop, self.parent = state, h, carry, pop, parent

    def __len__(self):
        return len(self.h)

    def take(self, index):
        """The nodes at `index`: a slice (views) or an array of indices (copies)."""
        if isinstance(index, slice):
            pick = lambda a: a[index]                                     # noqa: E731
        else:
            pick = lambda a: np.take(a, index, axis=0)                    # far faster than a[index] for rows
        carry = None if self.carry is None else pick(self.carry)
        return Nodes(pick(self.state), pick(self.h), carry, pick(self.pop), pick(self.parent))


def ida_star(domain, heuristic, start, node_limit=None, time_limit=None,
             batch_size: int = BATCH_SIZE, order: str = "depth-first", progress=None) -> SearchResult:
    """IDA* over batches of nodes; returns the plan from `start` to the goal and Korf's node counts.

    `progress`, if given, is called after every iteration as progress(bound, nodes generated in the
    iteration, nodes generated so far, seconds so far)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    engine = DepthFirst if order == "depth-first" else _Search
    search = engine(domain, incremental(heuristic, domain), budget, batch_size)
    root_state = domain.validate(start)[None]
    h, carry = search.h.start(root_state)
    root = Nodes(root_state, h, carry, np.full(1, -1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    bound, plan, status, per_iteration, bounds = int(h[0]), None, None, [], []
    if domain.is_goal(root_state)[0]:
        plan, status, per_iteration, bounds = root_state, "solved", [1], [bound]
    while status is None:
        before = search.generated - (0 if per_iteration else 1)        # the root belongs to iteration 1
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
                        search.generated, search.expanded, len(per_iteration), time.perf_counter() - began,
                        status, per_iteration, bounds)


class _Search:
    """The batched order: the state shared by the iterations of one search (domain, heuristic, counters)."""

    def __init__(self, domain, h, budget, batch_size):
        if batch_size < 1:
            raise ValueError(f"batch size must be positive, got {batch_size}")
        self.domain, self.h, self.budget, self.batch_size = domain, h, budget, batch_size
        self.generated, self.expanded = 1, 0                      # the root counts as generated

    def iteration(self, root: Nodes, bound: int):
        """One depth-first pass with f-bound `bound`: (plan, smallest f beyond the bound, status)."""
        todo = [root]        # todo[d]: nodes of depth d still to expand
        batches = []         # batches[d]: the nodes of depth d being expanded; todo[d + 1] are their children
        next_bound = math.inf
        while todo:
            if len(todo[-1]) == 0:
                todo.pop()
                if batches:
                    batches.pop()
                continue
            depth = len(todo) - 1
            batch, todo[-1] = todo[-1].take(slice(self.batch_size)), todo[-1].take(slice(self.batch_size, None))
            batches.append(batch)
            children, beyond = self.expand(batch, depth + 1, bound)
            next_bound = min(next_bound, beyond)
            status = self.budget.exceeded(self.generated, time.perf_counter())
            if status is not None:
                return None, next_bound, status
            goal = np.flatnonzero(self.domain.is_goal(children.state))
            if len(goal):
                return self.plan(batches, children, goal[0]), next_bound, "solved"
            todo.append(children)
        return None, next_bound, None

    def expand(self, batch: Nodes, g: int, bound: int):
        """The children of a batch with f <= bound, and the smallest f of those beyond it."""
        domain = self.domain
        parent, move = domain.successors(batch.state, batch.pop)
        self.expanded += len(batch)
        self.generated += len(parent)
        h, carry = self.h.step(batch.state, batch.h, batch.carry, parent, move)
        within = h <= bound - g                                   # f = g + h <= bound
        beyond = math.inf if within.all() else g + int(h[~within].min())
        keep = np.flatnonzero(within)
        parent, move = np.take(parent, keep), np.take(move, keep)
        children = Nodes(domain.apply(batch.state, parent, move), np.take(h, keep),
                         None if carry is None else np.take(carry, keep, axis=0), domain.inverse(move), parent)
        return children, beyond

    @staticmethod
    def plan(batches, children: Nodes, goal: int) -> np.ndarray:
        """Follow parent indices from the goal back to the root: the states from start to goal."""
        states, index = [children.state[goal]], children.parent[goal]
        for batch in reversed(batches):
            states.append(batch.state[index])
            index = batch.parent[index]
        return np.array(states[::-1])
