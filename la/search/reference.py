"""IDA* as the textbook writes it (Korf 1985): depth first, one state at a time.

For teaching and for tests. It visits nodes in exactly the authors' order (`IDAStar.cs`): children
in the domain's move order, the goal recognised only when f <= bound, the bound raised to the
smallest f that exceeded it. The heuristic is called once per expanded node, on the batch of that
node's children.
"""
import math
import time

import numpy as np

from la.heuristics.base import as_int
from la.search.result import Budget, SearchResult

FOUND = -1


class _OutOfBudget(Exception):
    """Raised deep in the search when a limit runs out."""


def ida_star(domain, heuristic, start, node_limit=None, time_limit=None) -> SearchResult:
    """IDA*: depth-first searches under an f-bound that rises until the goal lies within it."""
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    node_cap = math.inf if node_limit is None else node_limit
    goal = tuple(int(v) for v in domain.goal)
    generated, expanded = 1, 0                                     # the root counts as generated

    def h_of(states):
        return as_int(heuristic(np.array(states, dtype=np.uint8))).tolist()

    def search(path, h, bound):
        """FOUND, or the smallest f beyond the bound below the root, path[0]. The recursion of the
        textbook, on an explicit stack (on plateaus a path can be deeper than Python's recursion
        allows): a frame per node on the path, [its children, their h, the next one, smallest f]."""
        nonlocal generated
        if h > bound:
            return h
        if path[0] == goal:
            return FOUND
        frames = [open_node(path[0], -1)]
        while frames:
            frame = frames[-1]
            children, hs, i, smallest = frame
            if i == len(children):                                    # the node's return
                frames.pop()
                if not frames:
                    return smallest
                path.pop()
                frames[-1][3] = min(frames[-1][3], smallest)
                continue
            frame[2] += 1
            generated += 1
            if generated > node_cap or (generated % 4096 == 0
                                        and budget.exceeded(generated, time.perf_counter())):
                raise _OutOfBudget
            (move, child), f = children[i], len(path) + hs[i]        # g of the child = len(path)
            if f > bound:
                frame[3] = min(smallest, f)
                continue
            path.append(child)
            if child == goal:
                return FOUND
            frames.append(open_node(child, int(domain.inverse(move))))
        return math.inf

    def open_node(node, pop):
        """Expand a node: a frame with its children (parent pruning: not `pop`) and their h."""
        nonlocal expanded
        expanded += 1
        children = domain.neighbours(node, pop)
        return [children, h_of([c for _, c in children]) if children else [], 0, math.inf]

    path = [tuple(int(v) for v in domain.validate(start))]
    h0 = h_of(path)[0]
    bound, status, per_iteration, bounds = h0, None, [], []
    try:
        while status is None:
            before = generated - (0 if per_iteration else 1)   # the root belongs to iteration 1
            bounds.append(bound)
            t = search(path, h0, bound)
            per_iteration.append(generated - before)
            if t == FOUND:
                status = "solved"
            elif t == math.inf:
                status = "no solution"
            bound = t
    except _OutOfBudget:
        per_iteration.append(generated - before)
        status = budget.exceeded(generated, time.perf_counter())
    solved = status == "solved"
    return SearchResult(solved, len(path) - 1 if solved else None,
                        np.array(path, dtype=np.uint8) if solved else None, generated, expanded,
                        len(per_iteration), time.perf_counter() - began, status, per_iteration,
                        bounds)
