"""Dual-queue search (Röger & Helmert 2010), one expansion at a time, with the confidence-aware
rules of Heller et al. (2022, Search Methods): queue 0 is ordered by h^NN, queue 1 by a classical
heuristic.

- Every generated state never reached before is evaluated once by each evaluator (one call per
  evaluator per expansion, on the batch of those children) and inserted into every queue whose
  pruning rule keeps it: queue 1 keeps all, queue 0 those with `prune.confident(h^NN, c)` (Mean
  Threshold, Adaptive Threshold). With queue 1 complete, the search stays complete however much
  queue 0 prunes.
- The queues take turns round-robin, one expansion each, queue 0 first. A queue that is empty gives
  its turn to the other. A node already expanded from the other queue is skipped when popped, and
  the turn goes on. (Fast Downward's alternation open list counts pops instead, stale ones included,
  and lets a queue that was empty catch up on the turns it missed; we follow the papers' plain
  alternation.)
- With `prioritise` (Prioritizing Queue), queue 0 keeps the turn while the states it expands are
  confident; after it expands an unconfident one, queue 1 expands one node, then queue 0 again.
- Duplicates, the goal test at expansion, ties and node counts as in `la.heller.greedy`.

`trace`, if a list, receives the queue (0 or 1) of every expansion in order.
"""
import time
from heapq import heappop, heappush

from la.heller.best_first import SearchSpace, expand, finish, first_values
from la.search.result import Budget, SearchResult

NN, CLASSICAL = 0, 1     # the queues: ordered by h^NN, ordered by the classical heuristic


def dual_queue(domain, nn, classical, start, node_limit=None, time_limit=None, prune=None,
               prioritise=None, trace=None) -> SearchResult:
    """Dual-queue GBFS with h^NN (`nn`: states -> (h, c)) and a classical heuristic
    (Röger & Helmert 2010)."""
    if prune is not None and prioritise is not None:
        raise ValueError("give prune or prioritise, not both: "
                         "Heller et al. use confidence for one or the other")
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    space = SearchSpace(domain, start)
    root = space.states([0])
    h_nn, c = first_values(nn, root, True)
    h_cl, _ = first_values(classical, root, False)
    # the root goes into both, never pruned
    queues = ([(int(h_nn[0]), 0)], [(int(h_cl[0]), 0)])
    # node id -> bool
    confident = [] if prioritise is None else prioritise.confident(h_nn, c).tolist()
    closed = set()
    key, goal = space.key, space.goal
    generated, expanded, status, turn = 1, 0, None, NN
    while status is None:
        q, node = pop(queues, turn, closed)
        if node is None:
            status = "no solution"
            break
        if key[node] == goal:
            return finish(space, node, "solved", generated, expanded, began)
        closed.add(node)
        expanded += 1
        if trace is not None:
            trace.append(q)
        if prioritise is None:
            turn = 1 - q
        else:
            turn = NN if q == CLASSICAL or confident[node] else CLASSICAL
        generated, status, ids, batch = expand(space, domain, node, generated, budget)
        if status is not None:
            break
        if batch is not None:
            insert(queues, ids, batch, nn, classical, prune, prioritise, confident)
    return finish(space, None, status, generated, expanded, began)


def pop(queues, turn: int, closed: set):
    """(queue, node): the best node not yet expanded of queue `turn`, else of the other;
    (None, None) if none."""
    for q in (turn, 1 - turn):
        queue = queues[q]
        while queue:
            _, node = heappop(queue)
            if node not in closed:
                return q, node
    return None, None


def insert(queues, ids, batch, nn, classical, prune, prioritise, confident: list) -> None:
    """Evaluate new nodes `ids` (states `batch`) once per evaluator and queue them where they are
    kept."""
    h_nn, c = nn(batch)
    for h, j in zip(classical(batch).tolist(), ids):
        heappush(queues[CLASSICAL], (h, j))
    if prioritise is not None:
        confident.extend(prioritise.confident(h_nn, c).tolist())
    if prune is None:
        for h, j in zip(h_nn.tolist(), ids):
            heappush(queues[NN], (h, j))
    else:
        for h, j, keep in zip(h_nn.tolist(), ids, prune.confident(h_nn, c).tolist()):
            if keep:
                heappush(queues[NN], (h, j))
