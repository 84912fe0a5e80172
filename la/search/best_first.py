"""Bounded-suboptimal best-first search on batches, with a certificate: the engine of focal search
(`la.search.focal`) and weighted A* (`la.search.weighted_a_star`).

Both keep OPEN, the nodes generated and not yet expanded, and an admissible heuristic h_ad that
gives every node f = g + h_ad <= the cost of the cheapest plan through it. They differ only in which
open node comes next: the caller's `keys` give each node a key (p1, p2) and `bound` says which p2
are eligible (`la.search.open_list`). Each step takes the K eligible open nodes of smallest key
(K = 1: the textbook search), tests them for the goal in that order, and expands them together: one
call of each heuristic for all their children, scored from their parents where the heuristic allows
(`la.search.from_parents`: the network adds the moved tile's row to the parents' first layer,
Manhattan distance and gap change by one tile or pair).

The certificate. LB = min f over OPEN is a lower bound on the optimal cost C*, as long as an optimal
path keeps a node on OPEN with its optimal g (Hart, Nilsson & Raphael 1968, Lemma 1): true at the
start, and kept because a node reached again by a cheaper path is reopened (put back on OPEN with
its new g), whether it was open or already expanded. Without reopening the invariant fails once a
node is expanded with a g above its optimum, and the bound can break (tests/test_focal.py draws a
graph where it does). A goal is accepted when it is taken from OPEN, not when generated; the search
returns its cost C and LB, the min f at the step that took it, and C / LB <= w is checked, not
assumed (`certified_ratio`).

Memory: a node holds its state, parent, g, pop, h_ad, h_F and a closed flag (`Nodes`: 53 bytes on
the 15-puzzle), its packed key and hash slots (`la.search.state_table`: 8 + 16-32 bytes) and an
open entry (16 bytes, until taken), but no heuristic carry (`la.search.from_parents`). Arrays
double when full, so up to half of them can wait empty: `python -m la.bench --only focal` reports
the bytes per stored node (110 when focal search solves Korf's instance 1 at w = 1.5 with K =
4,096). The search stops, unsolved, when it has generated more than `node_limit` nodes (the root
counts), or before an array grows past `memory_limit` bytes.
"""
import time
from dataclasses import dataclass

import numpy as np

from la.heuristics.base import as_int
from la.search.from_parents import scorer
from la.search.open_list import OpenList
from la.search.state_table import StateTable, bits_for

ENTRY_BYTES = 16                  # an open-list entry: its id and g (int64 each)


def within(weight: float, lower: int) -> int:
    """The largest integer cost <= weight * lower (a hair of slack for the float product: 1.15 *
    20 is 22.999999999999996)."""
    return int(np.floor(weight * lower + 1e-9))


@dataclass
class CertifiedResult:
    """The outcome of a bounded-suboptimal search, with its certificate."""
    solved: bool
    cost: int | None              # plan length in moves (unit costs), None if not solved
    plan: np.ndarray | None       # (cost + 1, size): the states from the start to the goal
    lower_bound: int | None       # LB <= C*: min f over OPEN when the search stopped
    certified_ratio: float | None  # cost / LB (1.0 when the start is the goal), <= weight
    weight: float
    generated: int                # the root and every child generated (after parent pruning)
    expanded: int                 # nodes whose children were generated
    reopened: int                 # nodes put back on OPEN by a cheaper path
    stored: int                   # distinct states reached
    peak_bytes: int               # bytes of the search's arrays at the end
    seconds: float
    status: str                   # "solved", "node limit", "memory limit" or "no solution"

    @property
    def nodes_per_second(self) -> float:
        return self.generated / self.seconds if self.seconds > 0 else float("inf")


class Nodes:
    """Per node id: state, parent, g, pop (the move undoing the one that made it), h_ad, h_F,
    closed."""

    FIELDS = {"parent": np.int64, "g": np.int64, "pop": np.int32, "h": np.int64,
              "h_focal": np.float64, "closed": bool}

    def __init__(self, size: int, capacity: int = 1 << 10):
        self.size = size
        self.states = np.zeros((capacity, size), np.uint8)
        for name, dtype in self.FIELDS.items():
            setattr(self, name, np.zeros(capacity, dtype))

    @property
    def per_node(self) -> int:
        return self.size + sum(np.dtype(d).itemsize for d in self.FIELDS.values())

    @property
    def nbytes(self) -> int:
        return len(self.states) * self.per_node

    def bytes_after(self, count: int) -> int:
        capacity = len(self.states)
        while count > capacity:
            capacity *= 2
        return capacity * self.per_node

    def grow(self, count: int) -> None:
        if count <= len(self.states):
            return
        capacity = len(self.states)
        while count > capacity:
            capacity *= 2
        for name in ("states", *self.FIELDS):
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def plan(self, node: int) -> np.ndarray:
        path = []
        while node != -1:
            path.append(node)
            node = int(self.parent[node])
        return self.states[path[::-1]].copy()


def cheapest(cid, new, g_child, before: int) -> np.ndarray:
    """Per state reached by a batch's children (ids `cid`), the position of its child of smallest
    g, the first such in child order; positions ascending. Only states reached twice need a sort:
    those known before the batch (ids < `before`) and new ones that a later child reached again."""
    first_seen = np.flatnonzero(new)                 # a new state's first child: its id's order
    again = np.flatnonzero(~new)
    if not len(again):
        return first_seen
    repeated = cid[again]
    repeated = repeated[repeated >= before] - before
    once = np.ones(len(first_seen), bool)
    once[repeated] = False
    rivals = np.concatenate([again, first_seen[repeated]])
    order = rivals[np.lexsort((rivals, g_child[rivals], cid[rivals]))]
    ids = cid[order]
    best = order[np.concatenate(([True], ids[1:] != ids[:-1]))]
    return np.sort(np.concatenate([first_seen[once], best]))


def search(domain, start, h_ad, h_focal, keys, bound, weight: float, k: int = 1,
           node_limit: int | None = None, memory_limit: int | None = None,
           reopen: bool = True) -> CertifiedResult:
    """Best-first search from `start` with the certificate of the module docstring.

    `keys(g, h, h_focal)` -> (p1, p2) arrays; `bound(f_min)` -> the largest eligible p2; `h_focal`
    may be None (then h_F = 0 for every node). `reopen=False` leaves an expanded node closed when a
    cheaper path reaches it: only to show, in the tests, that the certificate then breaks."""
    if k < 1:
        raise ValueError(f"a batch takes at least one node, got k = {k}")
    if node_limit is not None and node_limit < 1:
        raise ValueError(f"node limit must be a positive number of nodes, got {node_limit}")
    if memory_limit is not None and memory_limit < 1:
        raise ValueError(f"memory limit must be a positive number of bytes, got {memory_limit}")
    began = time.perf_counter()
    root = domain.validate(start)[None]
    table, nodes, open_ = StateTable(domain.size, bits_for(domain)), Nodes(domain.size), OpenList()
    counts = np.zeros(64, np.int64)                   # open nodes per f value: min f is LB

    def checked(h):
        h = as_int(h)
        if len(h) and h.min() < 0:
            raise ValueError(f"the admissible heuristic gave {int(h.min())}: h_ad is never "
                             f"negative")
        return h

    def values(states):
        f_values = (np.zeros(len(states)) if h_focal is None
                    else np.asarray(h_focal(states), dtype=np.float64))
        return checked(h_ad(states)), f_values

    score_ad = scorer(h_ad, root)
    score_focal = None if h_focal is None else scorer(h_focal, root)

    def values_of_children(parents, ids, parent, move, children):
        h = checked(score_ad(parents, nodes.h[ids], parent, move, children))
        f_values = (np.zeros(len(children)) if h_focal is None else np.asarray(
            score_focal(parents, nodes.h_focal[ids], parent, move, children), dtype=np.float64))
        return h, f_values

    def count(f, sign):
        nonlocal counts
        if len(f) and f.max() >= len(counts):
            counts = np.concatenate([counts, np.zeros(int(f.max()) + 1, np.int64)])
        np.add.at(counts, f, sign)

    def valid(ids, g):
        return (nodes.g[ids] == g) & ~nodes.closed[ids]

    def used(stored, entries):
        return table.bytes_after(stored) + nodes.bytes_after(stored) + ENTRY_BYTES * entries

    table.find_or_add(root)
    nodes.states[0], nodes.parent[0], nodes.pop[0] = root[0], -1, -1
    h0, hf0 = values(root)
    nodes.h[0], nodes.h_focal[0] = h0[0], hf0[0]
    count(h0, 1)
    p1, p2 = keys(np.zeros(1, np.int64), h0, hf0)
    open_.push(p1, p2, np.zeros(1, np.int64), np.zeros(1, np.int64))
    generated, expanded, reopened = 1, 0, 0
    status, goal, lower = None, None, None
    while status is None:
        live = np.flatnonzero(counts)
        if not len(live):
            status = "no solution"
            break
        lower = int(live[0])
        ids = open_.take(k, bound(lower), valid)
        if not len(ids):
            raise RuntimeError("an open node of smallest f has no open-list entry")
        is_goal = domain.is_goal(nodes.states[ids])
        if is_goal.any():
            # A goal is accepted when taken and within weight x LB: always so for K = 1, and for
            # focal search (only f <= w LB is eligible); weighted A* with K > 1 can take a goal in
            # the same batch as a node of smaller f, and then keeps it open for a later step.
            goals = ids[is_goal]
            accepted = goals[nodes.g[goals] <= within(weight, lower)]
            if len(accepted):
                goal, status = int(accepted[0]), "solved"
                break
            p1, p2 = keys(nodes.g[goals], nodes.h[goals], nodes.h_focal[goals])
            open_.push(p1, p2, goals, nodes.g[goals])
            ids = ids[~is_goal]
        nodes.closed[ids] = True
        count(nodes.g[ids] + nodes.h[ids], -1)
        expanded += len(ids)
        parents = nodes.states[ids]
        parent, move = domain.successors(parents, nodes.pop[ids])
        generated += len(parent)
        if node_limit is not None and generated > node_limit:
            status = "node limit"
            break
        if not len(parent):                   # every node of the batch was a dead end
            continue
        children = domain.apply(parents, parent, move)
        before = table.count
        if memory_limit is not None and used(before + len(children),
                                             open_.entries + len(children)) > memory_limit:
            status = "memory limit"
            break
        cid, new = table.find_or_add(children)
        nodes.grow(table.count)
        fresh = cid[new]
        nodes.g[fresh] = np.iinfo(np.int64).max          # new: any path improves on none
        g_child = nodes.g[ids][parent] + 1
        first = cheapest(cid, new, g_child, before)
        first = first[g_child[first] < nodes.g[cid[first]]]
        if not reopen:
            first = first[~nodes.closed[cid[first]]]
        better = cid[first]
        known = better[better < before]                  # reached before, now by a cheaper path
        if len(known):
            still_open = known[~nodes.closed[known]]
            count(nodes.g[still_open] + nodes.h[still_open], -1)
            reopened += int(nodes.closed[known].sum())
        nodes.states[fresh] = children[new]
        nodes.parent[better] = ids[parent[first]]
        nodes.g[better] = g_child[first]
        nodes.pop[better] = domain.inverse(move[first])
        nodes.closed[better] = False
        if len(fresh):
            nodes.h[fresh], nodes.h_focal[fresh] = values_of_children(
                parents, ids, parent[new], move[new], children[new])
        count(nodes.g[better] + nodes.h[better], 1)
        p1, p2 = keys(nodes.g[better], nodes.h[better], nodes.h_focal[better])
        open_.push(p1, p2, better, nodes.g[better])
    solved = status == "solved"
    cost = int(nodes.g[goal]) if solved else None
    ratio = None
    if solved:
        ratio = 1.0 if cost == 0 else cost / lower
        if ratio > weight + 1e-9:
            raise RuntimeError(f"certificate broken: cost {cost} > {weight} x lower bound {lower}")
    return CertifiedResult(solved, cost, nodes.plan(goal) if solved else None, lower, ratio, weight,
                           generated, expanded, reopened, table.count,
                           int(table.nbytes + nodes.nbytes + ENTRY_BYTES * open_.entries),
                           time.perf_counter() - began, status)
