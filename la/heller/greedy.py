"""Greedy best-first search (GBFS), one expansion at a time: the teacher search of Ferber, Helmert &
Hoffmann (2020) and the single-queue search of Heller et al. (2022, Planning Background), as Fast
Downward's eager GBFS runs it.

- One queue ordered by h, ties first-in-first-out (Fast Downward's tie-breaking open lists).
- Duplicate detection: a state is queued the first time it is generated, never again; reached again
  by a cheaper path, it only takes the new parent (`best_first.SearchSpace.add`).
- The goal test is made when a node is expanded (popped), not when it is generated, as in Fast
  Downward. Testing at generation could stop sooner, by the expansions of the nodes queued before
  the goal (none when h is 0 at goals only); testing at expansion keeps the order of expansions
  exactly the queue's.
- No parent pruning: the closed list catches the parent among the children. `generated` counts the
  root and every child, duplicates included (Fast Downward's count); `expanded` the nodes whose
  children were made.
- The heuristic is called once per expansion, on the children never reached before
  (usually 1-3 rows).

With `prune` (Heller et al. 2022, Mean Threshold and Adaptive Threshold), `heuristic` is an NN
evaluator `(states) -> (h, c)` and a generated state is dropped unless `prune.confident(h, c)`; a
dropped state counts as reached, so it is never evaluated again. The search is then incomplete, as
the paper says.
"""
import time
from heapq import heappop, heappush

from la.heller.best_first import SearchSpace, expand, finish, first_values
from la.search.result import Budget, SearchResult


def gbfs(domain, heuristic, start, node_limit=None, time_limit=None, prune=None) -> SearchResult:
    """GBFS from `start`; the plan is the path traced back from the first goal expanded."""
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    space = SearchSpace(domain, start)
    h, _ = first_values(heuristic, space.states([0]), prune is not None)
    # (h, node id); the root is never pruned: it is not generated
    queue = [(int(h[0]), 0)]
    key, goal = space.key, space.goal
    generated, expanded, status = 1, 0, None
    while status is None:
        if not queue:
            status = "no solution"
            break
        _, node = heappop(queue)
        if key[node] == goal:
            return finish(space, node, "solved", generated, expanded, began)
        expanded += 1
        generated, status, ids, batch = expand(space, domain, node, generated, budget)
        if status is not None:
            break
        if batch is None:
            continue
        if prune is None:
            for h_child, j in zip(heuristic(batch).tolist(), ids):
                heappush(queue, (h_child, j))
        else:
            h, c = heuristic(batch)
            for h_child, j, keep in zip(h.tolist(), ids, prune.confident(h, c).tolist()):
                if keep:
                    heappush(queue, (h_child, j))
    return finish(space, None, status, generated, expanded, began)
