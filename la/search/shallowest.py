"""The batched ("shallowest goal") order of IDA*: `la`'s earlier order, kept to compare with the
authors' depth-first one (Table 1's second block, `--order batched`, and the benchmarks).

It always expands the deepest non-empty depth, up to `batch_size` of its nodes, and returns the
first goal among the children of such a chunk. While a depth's nodes fit in one chunk this runs
level by level and returns the *shallowest* goal within the bound; otherwise the first goal of a
chunk. With an admissible heuristic both orders return optimal plans; with an inadmissible one the
batched order's plan can be shorter than the reference's, and its last iteration's node count
differs (it counts every child of the chunk that holds the goal).

    ida_star(domain, h, start, order="batched")         # the class: Shallowest
"""
import math
import time

import numpy as np

from la.search import depth_first
from la.search.depth_first import Order
from la.search.ida_star import Nodes


def take(nodes: Nodes, index) -> Nodes:
    """The nodes at `index`: a slice (views) or an array of indices (copies)."""
    if isinstance(index, slice):
        pick = lambda a: a[index]                                     # noqa: E731
    else:
        # far faster than a[index] for rows
        pick = lambda a: np.take(a, index, axis=0)
    carry = None if nodes.carry is None else pick(nodes.carry)
    return Nodes(pick(nodes.state), pick(nodes.h), carry, pick(nodes.pop), pick(nodes.parent))


class Shallowest(Order):
    """The batched order: the iterations of one search, each to the shallowest goal within its
    bound."""

    def iteration(self, root: Nodes, bound: int):
        """One depth-first pass with f-bound `bound`: (plan, smallest f beyond the bound,
        status)."""
        todo = [root]        # todo[d]: nodes of depth d still to expand
        batches = []         # batches[d]: the nodes of depth d being expanded; todo[d + 1] are
                             # their children
        next_bound = math.inf
        while todo:
            if len(todo[-1]) == 0:
                todo.pop()
                if batches:
                    batches.pop()
                continue
            depth, m = len(todo) - 1, self.chunk_size()
            batch, todo[-1] = take(todo[-1], slice(m)), take(todo[-1], slice(m, None))
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

    def chunk_size(self) -> int:
        """`batch_size` nodes, but children of at most CHUNK_CELLS state cells at the children per
        expansion seen so far (a 255-pancake's 32,768 nodes have 8.3 M children of 255 cells)."""
        branching = max(1.0, (self.generated - 1) / max(self.expanded, 1))
        cells = depth_first.CHUNK_CELLS / (branching * self.domain.size)
        return int(max(1, min(self.batch_size, cells)))

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
                         None if carry is None else np.take(carry, keep, axis=0),
                         domain.inverse(move), parent)
        return children, beyond

    @staticmethod
    def plan(batches, children: Nodes, goal: int) -> np.ndarray:
        """Follow parent indices from the goal back to the root: the states from start to goal."""
        states, index = [children.state[goal]], children.parent[goal]
        for batch in reversed(batches):
            states.append(batch.state[index])
            index = batch.parent[index]
        return np.array(states[::-1])
