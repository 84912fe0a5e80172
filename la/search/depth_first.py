"""One IDA* iteration in the authors' depth-first order, expanded a chunk of nodes at a time.

The textbook IDA* (`la.search.reference`, the authors' C#) returns the *first goal in depth-first
move order*: with an inadmissible heuristic that may be deeper than the shallowest goal within the
bound, and the count of nodes generated before it is its position in the depth-first preorder. This
module finds exactly that goal, with exactly that count, while expanding up to `batch_size` nodes
per NumPy call.

The pending nodes (generated, f <= bound, not yet expanded) are kept on a stack in depth-first
preorder, the leftmost on top. Each step expands the leftmost chunk; a node's children, in move
order, take its place, so the stack stays in preorder. Every pending node carries a weight w: the
number of generated nodes that are *not* pending (expanded, or pruned with f > bound) lying between
it and the pending node before it in preorder. When a parent is replaced by its children, its weight
plus one (itself) and its pruned children flow forward onto the next pending node. So the leftmost
pending node's w is the number of nodes the depth-first search generates before it, and a pending
goal is the depth-first search's goal exactly when it reaches the top of the stack: everything
before it has then been expanded. A chunk never reaches past the first pending goal. A second weight
x counts the expanded nodes in the same way. The stack is a list of segments, one per chunk's
pending children, so pushing copies nothing, and a chunk lying in one segment is a view of it.

Expanding a chunk runs ahead of the depth-first search: the pending nodes right of its position
(about depth × chunk size × branching factor of them) are generated but not yet counted, and are
wasted work if the goal or the node limit comes first. So a chunk's children are at most 1/AHEAD of
the nodes the search has counted so far, earlier iterations included (IDA*'s iterations grow about
geometrically, so they give the scale of this one), but at least FIRST_CHILDREN; and near the node
limit at most 1/LIMIT_AHEAD of what is left of it (at least LAST_CHILDREN). Counting children, not
expanded nodes, keeps the pancake's 23 flips and blocksworld's dozens of moves per node from
multiplying the run-ahead. Smaller chunks waste less and pay NumPy's per-call cost more often; the
constants were chosen with `python -m la.bench` (the learned 15-puzzle heuristic on Korf #1–20 up to
3 M nodes each: the run-ahead costs about 11 % more generated nodes than counted, in 5,578 NumPy
rounds; with 1/32 and at least 64 expanded nodes it was 18 % in 7,356 rounds). The result never
depends on the chunk sizes; only the work does.

Two caps keep memory in proportion to the limits; neither engages in an ordinary search. The nodes
run ahead (generated here, not yet by the depth-first search) stay below the nodes counted, plus
AHEAD_FLOOR: on a plateau that a large weight lets the search dive into without end, the depth-first
search counts one node per step while chunks would pile up subtrees to its right (a 10^5-node limit
once grew past 24 GB so); there the chunks shrink to the one node the depth-first search expands
next. And a chunk's children hold at most CHUNK_CELLS state cells (a 255-pancake node has 254
children of 255 cells each).

A chunk's nodes need not share a depth, so each carries g. Plans are read from an archive of
expanded chunks (states and parent ids), dropped once the stack has shrunk below the height at which
their children were pushed: no pending node can then descend from them. That alone is not enough in
long iterations: while the search works sideways at a steady stack height, each chunk holds a few
descendants of the one before, so a chain of chunks stays archived though few of their nodes are
still ancestors of a pending node (a 2-billion-node search once grew past 12 GB so). When the
archive holds more than COMPACT_AT nodes and twice what the last compaction kept, it is compacted:
the ancestors of the pending nodes are marked by following parent ids, one level per step, and only
they are kept, in one block with explicit ids.
"""
import bisect
import math
import time

import numpy as np


FIRST_CHILDREN = 8192  # a chunk's children: at least this many (fewer, and NumPy's per-call cost
                       # dominates),
AHEAD = 128            # at most 1/AHEAD of the nodes the search has counted so far,
LAST_CHILDREN = 128    # and near the node limit at most 1/LIMIT_AHEAD of what is left of it, but at
                       # least this
LIMIT_AHEAD = 16
COMPACT_AT = 4_000_000   # archived nodes (24 bytes each) before the archive is first compacted
AHEAD_FLOOR = 1 << 18    # nodes run ahead: at most the nodes counted plus this (module docstring)
CHUNK_CELLS = 1 << 26    # state cells (bytes) of a chunk's children, at most


class Stack:
    """Pending nodes in preorder, as segments: a push puts the pending children of one chunk on top
    as a new segment (no copying), and a chunk is taken from the top segments (a view when it lies
    in one)."""

    def __init__(self):
        # [first row not yet popped, first goal's row, rows]: rows holds the fields state, h, pop,
        # g, parent, w, x and carry (None when the heuristic carries nothing); the last segment is
        # the top
        self.segments = []
        self.size = 0

    def __len__(self):
        return self.size

    def push(self, goal, **rows):
        """Put nodes, given in preorder with their goal flags, in front of the leftmost."""
        n = len(rows["h"])
        if n:
            self.segments.append([0, int(np.argmax(goal)) if goal.any() else n, rows])
            self.size += n

    def top(self, name):
        """A field of the leftmost node."""
        first, _, rows = self.segments[-1]
        return rows[name][first]

    def top_is_goal(self) -> bool:
        """Whether the leftmost node is a goal (a chunk never takes a goal: it waits on top)."""
        first, first_goal, _ = self.segments[-1]
        return first == first_goal

    def add_to_top(self, w: int, x: int) -> None:
        """Add to the leftmost node's weights."""
        first, _, rows = self.segments[-1]
        rows["w"][first] += w
        rows["x"][first] += x

    def pop_chunk(self, m):
        """Remove up to m leftmost nodes, stopping before the first goal, and return them in
        preorder. States and parent ids are copies (the archive keeps them); the other fields may be
        views."""
        parts = []
        while m and self.segments:
            segment = self.segments[-1]
            first, first_goal, rows = segment
            k = min(first + m, first_goal, len(rows["h"])) - first
            if k == 0:
                break
            parts.append((rows, first, first + k))
            segment[0] += k
            self.size -= k
            m -= k
            if segment[0] == len(rows["h"]):
                self.segments.pop()
        fields = parts[0][0]
        # views, but the archive keeps states and parent ids: copies of those
        if len(parts) == 1:
            _, a, b = parts[0]
            return {name: None if array is None
                    else array[a:b].copy() if name in ("state", "parent") else array[a:b]
                    for name, array in fields.items()}
        return {name: None if fields[name] is None
                else np.concatenate([rows[name][a:b] for rows, a, b in parts])
                for name in fields}

    def parents(self) -> np.ndarray:
        """The parent ids of all pending nodes."""
        return np.concatenate([rows["parent"][first:] for first, _, rows in self.segments]
                              or [np.empty(0, np.int64)])


class Order:
    """What IDA*'s goal orders share (`la.search.ida_star`): the search's domain, heuristic, budget
    and counters."""

    def __init__(self, domain, h, budget, batch_size, exact_counts=False):
        if batch_size < 1:
            raise ValueError(f"batch size must be positive, got {batch_size}")
        self.domain, self.h, self.budget, self.batch_size = domain, h, budget, batch_size
        self.exact_counts = exact_counts
        self.generated, self.expanded = 1, 0      # as the depth-first search counts them (root = 1)


class DepthFirst(Order):
    """The iterations of one search in depth-first order, with the counts the depth-first search
    would report."""

    def __init__(self, domain, h, budget, batch_size, exact_counts=False):
        super().__init__(domain, h, budget, batch_size, exact_counts)
        self.node_limit = budget.node_limit
        # nodes this implementation generated, beyond-goal ones too
        self.work = 1

    def iteration(self, root, bound: int):
        """One depth-first pass with f-bound `bound`: (plan, smallest f beyond the bound,
        status)."""
        root_state, root_h, root_carry = root.state, root.h, root.carry
        stack = Stack()
        # The root is not counted again in later iterations (w = -1 cancels the +1 a parent adds)
        # but is expanded again in each (x = 0, as the reference counts it).
        stack.push(np.zeros(1, bool), state=root_state, h=root_h, carry=root_carry,
                   pop=np.full(1, -1), g=np.zeros(1, np.int64), parent=np.full(1, -1),
                   w=np.full(1, -1), x=np.zeros(1, np.int64))
        archive = Archive()
        generated0, expanded0, next_bound = self.generated, self.expanded, math.inf
        while len(stack):
            w, x = int(stack.top("w")), int(stack.top("x"))     # of the leftmost pending node
            if self.node_limit is not None and generated0 + w + 1 > self.node_limit:
                return self._out_of_nodes(expanded0 + x), next_bound, "node limit"
            if stack.top_is_goal():
                self.generated, self.expanded = generated0 + w + 1, expanded0 + x
                return archive.plan(stack.top("state"), stack.top("parent")), next_bound, "solved"
            top = stack.top("state"), stack.top("parent"), w, x      # T, for the exact counts
            if self.work - generated0 - w >= generated0 + w + AHEAD_FLOOR:   # run-ahead spent
                from la.search.dive import dive                      # loaded when used
                plan, beyond, status, subtree = dive(self, stack, archive, bound, generated0,
                                                     expanded0)
                next_bound = min(next_bound, beyond)
                if status is not None:
                    return plan, next_bound, status
            else:
                chunk = stack.pop_chunk(self._chunk_size(generated0 + w))  # stops before a goal
                offset = archive.add(chunk["state"], chunk["parent"], len(stack))
                next_bound = min(next_bound, self._expand(stack, chunk, offset, bound))
                subtree = None
            if self.exact_counts and self._past_limit(stack, generated0):
                from la.search.limit_counts import count_to_limit     # loaded when used
                count_to_limit(self, archive, top, bound, generated0, expanded0, subtree)
                return None, next_bound, "node limit"
            archive.drop_below(len(stack))
            if archive.large():
                archive.compact(stack.parents())
            if self.budget.out_of_time(time.perf_counter()):
                if len(stack):          # the depth-first search's counts before its next node
                    self.generated = generated0 + int(stack.top("w"))
                    self.expanded = expanded0 + int(stack.top("x"))
                else:
                    self.generated = self.work
                return None, next_bound, "time limit"
        # a whole iteration: the depth-first search generates every node too
        self.generated = self.work
        if self.node_limit is not None and self.generated > self.node_limit:
            return self._out_of_nodes(self.expanded), next_bound, "node limit"
        return None, next_bound, None

    def _chunk_size(self, counted: int) -> int:
        """Nodes to expand: children of at most 1/AHEAD of what the depth-first search has counted
        so far (at least FIRST_CHILDREN) and of 1/LIMIT_AHEAD of what is left of the limit (at least
        LAST_CHILDREN), at the children per expansion seen so far; at least 1 and at most
        `batch_size` nodes."""
        children = max(FIRST_CHILDREN, counted / AHEAD)
        if self.node_limit is not None:
            children = min(children, max(LAST_CHILDREN, (self.node_limit - counted) / LIMIT_AHEAD))
        ahead = self.work - counted              # generated here, not yet by the depth-first search
        if ahead > counted:                      # rare: the run-ahead cap (module docstring)
            children = min(children, counted + AHEAD_FLOOR - ahead)
        branching = max(1.0, (self.work - 1) / max(self.expanded, 1))
        most = min(self.batch_size, CHUNK_CELLS / (branching * self.domain.size))
        return int(max(1.0, min(children / branching, most)))

    def _past_limit(self, stack, generated0) -> bool:
        """Whether the depth-first search has passed the node limit before the leftmost pending
        node (or in the whole iteration)."""
        if self.node_limit is None:
            return False
        counted = generated0 + int(stack.top("w")) + 1 if len(stack) else self.work
        return counted > self.node_limit

    def _expand(self, stack, chunk, offset, bound) -> float:
        """Expand a chunk (in preorder); push its pending children in its place; the smallest f
        beyond."""
        domain = self.domain
        parent, move = domain.successors(chunk["state"], chunk["pop"])
        self.work += len(parent)
        self.expanded += len(chunk["h"])
        h, carry = self.h.step(chunk["state"], chunk["h"], chunk.get("carry"), parent, move)
        g = chunk["g"].take(parent) + 1
        f = g + h
        within = f <= bound
        beyond = math.inf if within.all() else int(f[~within].min())
        # Non-pending nodes before each kept child, counted from the chunk's start: the parents up
        # to its own (each with its weight: w_parents) and the pruned children before it
        # (pruned_before).
        # pruned: not expanded
        w_parents, x_parents = np.cumsum(chunk["w"] + 1), np.cumsum(chunk["x"] + 1)
        pruned_before = np.cumsum(~within)
        keep = np.flatnonzero(within)
        parent, move = parent.take(keep), move.take(keep)
        before, before_x = w_parents.take(parent) + pruned_before.take(keep), x_parents.take(parent)
        # what follows the last pending child flows onto the next node
        if len(stack):                    # (a chunk may have no children: blocksworld's dead ends)
            stack.add_to_top(int(w_parents[-1]) + (int(pruned_before[-1]) if len(f) else 0)
                             - (int(before[-1]) if len(keep) else 0),
                             int(x_parents[-1]) - (int(before_x[-1]) if len(keep) else 0))
        if len(keep):
            children = domain.apply(chunk["state"], parent, move)
            stack.push(domain.is_goal(children), state=children, h=h.take(keep),
                       pop=domain.inverse(move), g=g.take(keep),
                       carry=None if carry is None else carry.take(keep, axis=0),
                       parent=offset + parent, w=_differences(before), x=_differences(before_x))
        return beyond

    def _out_of_nodes(self, expanded):
        """The depth-first search stops the moment its count passes the limit, as the reference
        does.

        Without `exact_counts`, `expanded` is then the count before the leftmost pending node (or
        all the iteration expanded): the reference may have stopped a little before it, so only
        `generated` is exact here."""
        self.generated, self.expanded = self.node_limit + 1, int(expanded)
        return None


class Archive:
    """The expanded chunks whose nodes may be ancestors of pending nodes: enough to read the plan
    back.

    Node ids are global: a chunk's nodes get consecutive ids from `offset`. Entries are (first id,
    ids or None, states, parent ids, stack height when archived); a compacted block lists its ids
    explicitly."""

    def __init__(self):
        self.entries, self.next_id = [], 0
        self.size, self.kept = 0, 0          # nodes archived now, and after the last compaction

    def add(self, states, parents, height) -> int:
        """Archive an expanded chunk; its first node's id (its children's parent ids count from
        it)."""
        offset = self.next_id
        self.entries.append((offset, None, states, parents, height))
        self.next_id += len(states)
        self.size += len(states)
        return offset

    def drop_below(self, height) -> None:
        """Drop the newest chunks while the stack is no higher than it was when they were
        archived."""
        while self.entries and self.entries[-1][4] >= height:
            self.size -= len(self.entries.pop()[2])

    def large(self) -> bool:
        """Time to compact: more than COMPACT_AT nodes and twice what the last compaction kept."""
        return self.size > max(COMPACT_AT, 2 * self.kept)

    def compact(self, pending_parents) -> None:
        """Keep only the ancestors of the pending nodes."""
        ids = np.concatenate([e[1] if e[1] is not None else e[0] + np.arange(len(e[2]))
                              for e in self.entries])
        parents = np.concatenate([e[3] for e in self.entries])
        keep = np.zeros(len(ids), dtype=bool)
        frontier = np.unique(pending_parents[pending_parents >= 0])
        while len(frontier):                                  # one level of ancestors per step
            at = np.searchsorted(ids, frontier)
            keep[at] = True
            up = parents.take(at)
            frontier = np.unique(up[up >= 0])
            frontier = frontier[~keep[np.searchsorted(ids, frontier)]]
        states = np.concatenate([e[2] for e in self.entries])[keep]
        self.entries = [(int(ids[keep][0]) if keep.any() else 0,
                         ids[keep], states, parents[keep], 0)]
        self.size = self.kept = len(states)

    def plan(self, goal_state, parent) -> np.ndarray:
        """Follow parent ids back to the root: the states from start to goal."""
        firsts = [entry[0] for entry in self.entries]
        states = [goal_state]
        while parent >= 0:
            first, ids, chunk_states, chunk_parents, _ = self.entries[
                bisect.bisect_right(firsts, parent) - 1]
            at = parent - first if ids is None else int(np.searchsorted(ids, parent))
            states.append(chunk_states[at])
            parent = chunk_parents[at]
        return np.array(states[::-1])


def _differences(cumulative: np.ndarray) -> np.ndarray:
    """[c0, c1 - c0, c2 - c1, ...]: running counts back to the counts between consecutive
    entries."""
    counts = cumulative.copy()
    counts[1:] -= cumulative[:-1]
    return counts
