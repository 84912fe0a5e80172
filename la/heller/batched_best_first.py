"""Batched best-first search: la's own variant, not in the papers. Each step pops the k best nodes
of one queue (skipping nodes already expanded), expands them in one `domain.expand` call and scores
all their new children in one call per evaluator, as DeepCubeA batches its A* (Agostinelli et al.
2019, Methods). Fewer, larger evaluator calls: worth it when one call costs far more than scoring
one more row (a network).

Everything else is `la.heller.greedy` (one queue) or `la.heller.dual_queue` (two): duplicates, ties,
the goal test at expansion (the first goal among the k popped nodes ends the search, before the
batch is expanded), pruning, and the alternation, which here switches queues after each batch. With
`prioritise`, queue 0 keeps the turn while every state of its batch was confident. With k = 1 both
searches are exactly the faithful ones.
"""
import time
from heapq import heappop, heappush

from la.heller.best_first import SearchSpace, finish, split
from la.heller.dual_queue import CLASSICAL, NN
from la.heuristics.base import as_int
from la.search.result import Budget, SearchResult


def batched_gbfs(domain, heuristic, start, k: int, node_limit=None, time_limit=None,
                 prune=None) -> SearchResult:
    """GBFS expanding the k best nodes at once (la's batching); `heuristic` and `prune` as in
    `gbfs`."""
    return _search(domain, start, k, Evaluators(heuristic, None, prune, None),
                   node_limit, time_limit, None)


def batched_dual_queue(domain, nn, classical, start, k: int, node_limit=None, time_limit=None,
                       prune=None, prioritise=None, trace=None) -> SearchResult:
    """Dual-queue search expanding the k best nodes of a queue at once (la's batching); else
    `dual_queue`."""
    if prune is not None and prioritise is not None:
        raise ValueError("give prune or prioritise, not both: "
                         "Heller et al. use confidence for one or the other")
    return _search(domain, start, k, Evaluators(nn, classical, prune, prioritise),
                   node_limit, time_limit, trace)


class Evaluators:
    """The queues' evaluators: a batch -> (h per queue as lists, which states queue 0 keeps, which
    are confident)."""

    def __init__(self, first, classical, prune, prioritise):
        self.first, self.classical, self.prune, self.prioritise = (
            first, classical, prune, prioritise)
        # does `first` return (h, c)?
        self.confidence = classical is not None or prune is not None

    def __call__(self, batch):
        if not self.confidence:
            return [self.first(batch).tolist()], None, None
        h, c = split(self.first(batch))
        values = ([h.tolist()] if self.classical is None
                  else [h.tolist(), self.classical(batch).tolist()])
        keep = None if self.prune is None else self.prune.confident(h, c).tolist()
        confident = None if self.prioritise is None else self.prioritise.confident(h, c).tolist()
        return values, keep, confident


def _search(domain, start, k, evaluate: Evaluators, node_limit, time_limit, trace) -> SearchResult:
    """The search loop of both: one queue per list of values `evaluate` returns."""
    if k < 1:
        raise ValueError(f"k, the nodes expanded per step, must be at least 1, got {k}")
    began = time.perf_counter()
    budget = Budget(node_limit, time_limit, began)
    space = SearchSpace(domain, start)
    values, _, confident = evaluate(space.states([0]))
    queues = [[(int(as_int(h)[0]), 0)] for h in values]           # the root goes into every queue
    # node id -> bool, with `prioritise`
    confident = confident or []
    closed, key, goal = set(), space.key, space.goal
    generated, expanded, status, turn = 1, 0, None, NN
    while status is None:
        q, nodes = pop_batch(queues, turn, closed, k)
        if not nodes:
            status = "no solution"
            break
        for node in nodes:
            if key[node] == goal:
                return finish(space, node, "solved", generated, expanded, began)
        closed.update(nodes)
        expanded += len(nodes)
        if trace is not None:
            trace.extend([q] * len(nodes))
        if evaluate.prioritise is not None:
            turn = NN if q == CLASSICAL or all(confident[n] for n in nodes) else CLASSICAL
        else:
            turn = (q + 1) % len(queues)
        parent, _, children = domain.expand(space.states(nodes))
        generated += len(children)
        status = budget.exceeded(generated, time.perf_counter())
        if status is not None:
            break
        ids, batch = space.register(children, [nodes[p] for p in parent.tolist()])
        if batch is not None:
            values, keep, flags = evaluate(batch)
            push(queues, ids, values, keep)
            if flags is not None:
                confident.extend(flags)
    return finish(space, None, status, generated, expanded, began)


def pop_batch(queues, turn: int, closed: set, k: int):
    """(queue, nodes): up to k best unexpanded nodes of queue `turn`, else of the next non-empty
    queue."""
    for q in [turn] + [p for p in range(len(queues)) if p != turn]:
        queue, nodes = queues[q], []
        while queue and len(nodes) < k:
            _, node = heappop(queue)
            if node not in closed:
                nodes.append(node)
        if nodes:
            return q, nodes
    return None, []


def push(queues, ids, values, keep) -> None:
    """Queue new nodes `ids` with their values per queue; queue 0 takes only those `keep` allows."""
    for q, (queue, h) in enumerate(zip(queues, values)):
        if q == NN and keep is not None:
            for h_child, j, kept in zip(h, ids, keep):
                if kept:
                    heappush(queue, (h_child, j))
        else:
            for h_child, j in zip(h, ids):
                heappush(queue, (h_child, j))
