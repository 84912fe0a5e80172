"""What the best-first searches share: every state reached, once, with its parent and g (Fast
Downward's state registry and search space), and the evaluator contract of the confidence-aware
searches.

The searches (`greedy.gbfs`, `dual_queue.dual_queue` and la's batched variants in
`batched_best_first`) keep no per-node objects. A node is an integer id, given in the order states
are first generated; the search space holds, per id, the state's bytes (a row of uint8; the bytes
are also its hash key), its parent's id and g. A queue is a heapq list of (h, id) pairs: since ids
grow with generation, the id breaks ties first-in-first-out, as Fast Downward's tie-breaking open
lists do (a FIFO bucket per h value).

Two evaluators (Heller et al. 2022, Search Methods):

    h = heuristic(states)  # the heuristic contract (`la.heuristics.base`): (n, size) -> (n,) int64
    h, c = nn(states)      # an NN evaluator: h^NN(s) = argmax_i f(s)_i as (n,) int64 and the
                           # confidence c^NN(s) = max_i f(s)_i as (n,) float

Each is called once per expansion, on the batch of that expansion's children that were never reached
before (not at all when there are none).
"""
import time

import numpy as np

from la.heuristics.base import as_int
from la.search.result import SearchResult


class SearchSpace:
    """Every state a best-first search has reached, once: node id -> bytes, parent id, g
    (unit costs)."""

    def __init__(self, domain, start):
        root = domain.validate(start)
        self.size = domain.size
        self.key = [root.tobytes()]                  # node id -> the state's bytes
        self.index = {self.key[0]: 0}                # the state's bytes -> node id
        self.parent = [-1]                           # node id -> the parent's id (-1: the root)
        # node id -> the cost of the path to it through `parent`
        self.g = [0]
        self.goal = domain.goal.astype(np.uint8).tobytes()

    def __len__(self) -> int:
        return len(self.key)

    def states(self, nodes) -> np.ndarray:
        """The states of some nodes, (len(nodes), size) uint8 (a copy)."""
        raw = bytearray(b"".join([self.key[n] for n in nodes]))
        return np.frombuffer(raw, dtype=np.uint8).reshape(len(nodes), self.size)

    def add(self, children: np.ndarray, parents: list) -> list:
        """Register `children` (rows) generated from `parents` (a node id per child); return the
        positions of the states never reached before, which become the next node ids in order.

        A state reached before by a costlier path takes the new parent and g without being queued
        again: Fast Downward's eager search without reopening (its GBFS), which shortens the plan
        traced back.
        """
        raw, size = children.tobytes(), self.size
        key, index, parent, g = self.key, self.index, self.parent, self.g
        fresh = []
        for i, p in enumerate(parents):
            k = raw[i * size:(i + 1) * size]
            j = index.get(k)
            if j is None:
                index[k] = len(key)
                key.append(k)
                parent.append(p)
                g.append(g[p] + 1)
                fresh.append(i)
            elif g[j] > g[p] + 1:
                parent[j], g[j] = p, g[p] + 1
        return fresh

    def state(self, node: int) -> np.ndarray:
        """One node's state, a (1, size) read-only view of its bytes (expanding a state only reads
        it)."""
        return np.frombuffer(self.key[node], dtype=np.uint8).reshape(1, self.size)

    def register(self, children: np.ndarray, parents: list) -> tuple:
        """`add`, then (ids, batch): the new nodes' ids (a range) and their states, the rows of
        `children` never reached before; batch is None when there are none."""
        fresh = self.add(children, parents)
        ids = range(len(self.key) - len(fresh), len(self.key))
        if not fresh:
            return ids, None
        return ids, children if len(fresh) == len(children) else np.take(children, fresh, axis=0)

    def plan(self, node: int) -> np.ndarray:
        """The states from the root to `node` along parent pointers, (g + 1, size) uint8."""
        path = []
        while node != -1:
            path.append(node)
            node = self.parent[node]
        return self.states(path[::-1])


def first_values(heuristic, states, with_confidence: bool):
    """Evaluate the root: (h, c or None), checking once that h holds integers
    (the heuristic contract)."""
    if with_confidence:
        h, c = split(heuristic(states))
        return as_int(h), np.asarray(c, dtype=np.float64)
    return as_int(heuristic(states)), None


def split(values):
    """An NN evaluator's (h, c), or ValueError if the evaluator returned something else."""
    if not isinstance(values, tuple) or len(values) != 2:
        raise ValueError(f"an NN evaluator returns a pair (h, c) of arrays, "
                         f"got {type(values).__name__}: pass an NN evaluator "
                         f"where confidence is used (prune, prioritise, the h^NN queue)")
    return values


def expand(space: SearchSpace, domain, node: int, generated: int, budget):
    """Expand `node` one at a time: its children counted, then the budget checked, then the children
    never reached before registered. (generated, status, ids, batch): status None while the budget
    holds."""
    _, _, children = domain.expand(space.state(node))
    generated += len(children)
    status = budget.exceeded(generated, time.perf_counter())
    if status is not None:
        return generated, status, None, None
    ids, batch = space.register(children, [node] * len(children))
    return generated, None, ids, batch


def finish(space: SearchSpace, goal, status: str, generated: int, expanded: int,
           began: float) -> SearchResult:
    """The SearchResult of a best-first search: one 'iteration', the plan traced back from
    `goal`."""
    plan = None if goal is None else space.plan(goal)
    return SearchResult(goal is not None, None if goal is None else len(plan) - 1, plan, generated,
                        expanded, 1, time.perf_counter() - began, status, [generated], [])
