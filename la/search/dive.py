"""The depth-first engine's dive: where chunks would only run ahead, one node at a time.

On a plateau that a large weight opens (`--weight 1000000`: f <= bound for every h below the root's,
down to a depth of a million), the depth-first search dives: it expands a node and at once its first
child, counting one node per expansion, while a chunk of the leftmost pending nodes expands mostly
nodes far to its right, which the search may never reach. When the run-ahead has spent its allowance
(`la.search.depth_first`), the engine takes the leftmost pending node T off the stack and searches
below it as the reference does (`la.search.reference`): a frame per node of the path, each node's
children generated and scored at once and visited in move order, the node limit checked at each.
Once it has generated DIVE_CHILDREN children it stops just before a child within the bound, and
puts the frames' unvisited children back on the stack in preorder, with the weights w and x the
engine keeps (the nodes the dive counted go to the first of them).
"""
import math
import time

import numpy as np

DIVE_CHILDREN = 32768      # children generated per dive, between the engine's checks of its
                           # run-ahead


class Frame:
    """An expanded node of the dive's path: its children (states, h, carry, pops, goal flags, f)
    and the next one to visit."""

    def __init__(self, search, state, h, carry, pop, g: int):
        domain = search.domain
        parent, move = domain.successors(state, pop)
        self.h, self.carry = search.h.step(state, h, carry, parent, move)
        self.state, self.pop = domain.apply(state, parent, move), domain.inverse(move)
        self.g, self.goal, self.f = g + 1, domain.is_goal(self.state), g + 1 + self.h
        self.next = 0
        search.work += len(move)
        search.expanded += 1

    def child(self, i):
        """Child i as a one-node batch: (state, h, carry, pop, g)."""
        return (self.state[i:i + 1], self.h[i:i + 1],
                None if self.carry is None else self.carry[i:i + 1], self.pop[i:i + 1], self.g)


def dive(search, stack, archive, bound: int, generated0: int, expanded0: int):
    """Search below the leftmost pending node T one node at a time: (plan, smallest f beyond the
    bound, status, T's subtree's (generated, expanded) if the dive finished it); status None when
    the dive hands back to the chunks."""
    t = stack.pop_chunk(1)
    w, x = int(t["w"][0]), int(t["x"][0])
    t_id = archive.add(t["state"], t["parent"], len(stack))
    counted = generated0 + w + 1                       # T's count; the dive's nodes follow it
    frames = [Frame(search, t["state"], t["h"], t.get("carry"), t["pop"], int(t["g"][0]))]
    expanded, beyond, node_limit, last = 1, math.inf, search.node_limit, search.work + DIVE_CHILDREN
    while frames:
        frame = frames[-1]
        i = frame.next
        if i == len(frame.f):
            frames.pop()
            continue
        f = int(frame.f[i])
        if f <= bound and not frame.goal[i] and search.work >= last:
            break                                      # hand back before a child within the bound
        if node_limit is not None and counted + 1 > node_limit:    # as the reference stops
            search.generated, search.expanded = node_limit + 1, expanded0 + x + expanded
            return None, beyond, "node limit", None
        counted, frame.next = counted + 1, i + 1
        if f > bound:
            beyond = min(beyond, f)
        elif frame.goal[i]:
            search.generated, search.expanded = counted, expanded0 + x + expanded
            steps = np.array([fr.state[fr.next - 1] for fr in frames])   # below T, to the goal
            return (np.concatenate([archive.plan(t["state"][0], t["parent"][0]), steps]), beyond,
                    "solved", None)
        else:
            frames.append(Frame(search, *frame.child(i)))
            expanded += 1
        if counted % 4096 == 0 and search.budget.out_of_time(time.perf_counter()):
            search.generated, search.expanded = counted, expanded0 + x + expanded
            return None, beyond, "time limit", None
    subtree = None if frames else (counted - generated0 - w, expanded)
    hand_back(stack, archive, frames, t_id, bound, counted - generated0, x + expanded)
    return None, beyond, None, subtree


def hand_back(stack, archive, frames, t_id: int, bound: int, w: int, x: int) -> None:
    """Put the frames' unvisited children on the stack in preorder (the deepest frame's first) with
    their weights; w and x, the nodes counted since the last pending node, go to the first."""
    ids = [t_id]
    if len(frames) > 1:                        # the path below T: archived, its nodes are parents
        base = archive.next_id
        archive.add(np.array([fr.state[fr.next - 1] for fr in frames[:-1]]),
                    np.array([t_id] + [base + j for j in range(len(frames) - 2)]), len(stack))
        ids += [base + j for j in range(len(frames) - 1)]
    segments = []
    for frame, parent in zip(reversed(frames), reversed(ids)):        # preorder
        rest = slice(frame.next, len(frame.f))
        pruned = frame.f[rest] > bound
        before = np.cumsum(pruned)                 # pruned children up to each one
        keep = np.flatnonzero(~pruned)
        if len(keep):
            weights = before[keep]
            weights[1:] -= before[keep[:-1]]
            weights[0] += w
            x_kept = np.zeros(len(keep), np.int64)
            x_kept[0] = x
            segments.append((frame, parent, frame.next + keep, weights, x_kept))
            w, x = int(before[-1] - before[keep[-1]]), 0
        else:
            w += int(before[-1]) if len(before) else 0
    if len(stack):
        stack.add_to_top(w, x)                     # what follows the last of them
    if segments:                                   # one segment, in preorder: few arrays per dive
        rows = [(frame.state[at], frame.h[at], frame.pop[at], np.full(len(at), frame.g),
                 np.full(len(at), parent), weights, x_kept, frame.goal[at],
                 None if frame.carry is None else frame.carry[at])
                for frame, parent, at, weights, x_kept in segments]
        state, h, pop, g, parent, w, x, goal = (np.concatenate(c) for c in list(zip(*rows))[:8])
        carry = None if rows[0][8] is None else np.concatenate([r[8] for r in rows])
        stack.push(goal, state=state, h=h, pop=pop, g=g.astype(np.int64),
                   parent=parent.astype(np.int64), carry=carry, w=w, x=x)
