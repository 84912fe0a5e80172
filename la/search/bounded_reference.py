"""Focal search and weighted A* as a textbook writes them: one node at a time, states as tuples in
dicts, two heaps. For teaching and for tests: with K = 1 the batched searches (`la.search.focal`,
`la.search.weighted_a_star`) must return the same plan, cost, lower bound and node counts.

OPEN's smallest f comes from a heap of (f, push number) with stale entries skipped; the candidates
are a heap by the search's key (p1, p2, push number) holding the entries with p2 <= the current
bound, the others waiting in a heap by p2 until the bound reaches them (focal search's FOCAL). A
node reached again by a cheaper path is reopened; a goal is accepted when taken.
"""
import heapq
import itertools
import time

import numpy as np

from la.heuristics.base import as_int
from la.search.best_first import CertifiedResult, within


def focal_search(domain, h_ad, h_focal, start, weight: float, node_limit=None) -> CertifiedResult:
    """A*_ε, plain: FOCAL = {f <= weight · min f}, taken by (h_F, f, push order)."""
    return _search(domain, h_ad, h_focal, start, weight, lambda g, h, h_f: (h_f, g + h),
                   lambda lower: within(weight, lower), node_limit)


def weighted_a_star(domain, h_ad, start, weight: float, node_limit=None) -> CertifiedResult:
    """Weighted A*, plain: taken by (g + weight · h_ad, h_ad, push order)."""
    return _search(domain, h_ad, None, start, weight, lambda g, h, h_f: (g + weight * h, h),
                   lambda lower: float("inf"), node_limit)


def _search(domain, h_ad, h_focal, start, weight, key, bound, node_limit) -> CertifiedResult:
    began = time.perf_counter()
    goal = tuple(int(v) for v in domain.goal)
    root = tuple(int(v) for v in domain.validate(start))
    g, parent, pop, h, h_f, closed = {}, {}, {}, {}, {}, set()
    lowest, candidates, waiting = [], [], []        # heaps: (f, n, s), (key, n, s), (p2, key, n, s)
    pushes = itertools.count()
    generated, expanded, reopened = 1, 0, 0

    def evaluate(states):
        batch = np.array(states, dtype=np.uint8)
        values = as_int(h_ad(batch)).tolist()
        focal = ([0.0] * len(states) if h_focal is None
                 else np.asarray(h_focal(batch), float).tolist())
        for s, v, u in zip(states, values, focal):
            h[s], h_f[s] = v, u

    def push(s, limit):
        n, k = next(pushes), key(g[s], h[s], h_f[s])
        heapq.heappush(lowest, (g[s] + h[s], n, s, g[s]))
        if k[1] <= limit:
            heapq.heappush(candidates, (k, n, s, g[s]))
        else:
            heapq.heappush(waiting, (k[1], k, n, s, g[s]))

    def is_open(s, g_entry):
        return g[s] == g_entry and s not in closed

    g[root], parent[root], pop[root] = 0, None, -1
    evaluate([root])
    push(root, bound(h[root]))
    status, lower, found = None, None, None
    while status is None:
        while lowest and not is_open(lowest[0][2], lowest[0][3]):
            heapq.heappop(lowest)
        if not lowest:
            status = "no solution"
            break
        lower = lowest[0][0]
        limit = bound(lower)
        while waiting and waiting[0][0] <= limit:               # the bound reached them
            heapq.heappush(candidates, heapq.heappop(waiting)[1:])
        while True:
            k, n, s, g_entry = heapq.heappop(candidates)
            if not is_open(s, g_entry):
                continue
            if k[1] > limit:                                     # min f fell: not eligible now
                heapq.heappush(waiting, (k[1], k, n, s, g_entry))
                continue
            break
        if s == goal:
            status, found = "solved", s
            break
        closed.add(s)
        expanded += 1
        children = domain.neighbours(s, pop[s])
        generated += len(children)
        if node_limit is not None and generated > node_limit:
            status = "node limit"
            break
        fresh = [c for _, c in children if c not in g]
        if fresh:
            evaluate(fresh)
        for move, c in children:
            if c not in g or g[s] + 1 < g[c]:
                if c in closed:
                    closed.discard(c)
                    reopened += 1
                g[c], parent[c], pop[c] = g[s] + 1, s, int(domain.inverse(np.array([move]))[0])
                push(c, limit)
    solved = status == "solved"
    plan = None
    if solved:
        path, s = [], found
        while s is not None:
            path.append(s)
            s = parent[s]
        plan = np.array(path[::-1], dtype=np.uint8)
    cost = g[found] if solved else None
    ratio = (1.0 if cost == 0 else cost / lower) if solved else None
    return CertifiedResult(solved, cost, plan, lower, ratio, weight, generated, expanded, reopened,
                           len(g), 0, time.perf_counter() - began, status)
