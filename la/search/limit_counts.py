"""The reference's node counts where a node limit stops it (`ida_star(..., exact_counts=True)`).

The reference IDA* (`la.search.reference`) stops the moment it generates node L + 1, L the node
limit; its `expanded` then counts the nodes it expanded before, that is the expanded nodes among
the first L of the iteration's depth-first preorder (the search expands a node right after
generating it). The depth-first engine (`la.search.depth_first`) knows that count only at its
pending nodes, and its last chunk may jump past the limit: from the last pending node T within the
limit, everything up to the stop is done, so this module walks the preorder on from T. A subtree
that ends before the stop is only counted, a batch at a time in any order (its counts do not depend
on the order); the one the stop falls in is opened, its root counted and its children walked in
move order. After T's subtree come T's right siblings, then its parent's, and so on up to the root.
Every node walked lies before the stop, and no goal within the bound does (the search would have
ended there), so every node within the bound is expanded.
"""
import numpy as np


class Siblings:
    """Nodes of one depth in move order, walked from `next`: states, h, carry and pops."""

    def __init__(self, state, h, carry, pop, g: int):
        self.state, self.h, self.carry, self.pop, self.g = state, h, carry, pop, g
        self.next = 0

    def __len__(self):
        return len(self.h) - self.next

    def take(self, index):
        """The nodes at `index`: arrays (state, h, carry, pop)."""
        return (self.state[index], self.h[index],
                None if self.carry is None else self.carry[index], self.pop[index])


def children(search, nodes: Siblings, index) -> Siblings:
    """The children of the nodes at `index` (all of depth nodes.g), in preorder of their parents."""
    state, h, carry, pop = nodes.take(index)
    parent, move = search.domain.successors(state, pop)
    h_child, carry_child = search.h.step(state, h, carry, parent, move)
    return Siblings(search.domain.apply(state, parent, move), h_child, carry_child,
                    search.domain.inverse(move), nodes.g + 1)


def subtree_counts(search, node: Siblings, bound: int, cap: int) -> tuple:
    """(generated, expanded) in the subtree of the single node `node` under `bound`; stops once
    more than `cap` are generated."""
    todo, generated, expanded = [node], 0, 0
    while todo and generated <= cap:
        nodes = todo.pop()
        if len(nodes) > search.batch_size:             # memory: one batch at a time, depth first
            rest = Siblings(*nodes.take(slice(search.batch_size, None)), nodes.g)
            todo.append(rest)
            nodes = Siblings(*nodes.take(slice(search.batch_size)), nodes.g)
        generated += len(nodes)
        within = np.flatnonzero(nodes.g + nodes.h <= bound)    # f = g + h <= bound: expanded
        expanded += len(within)
        if len(within):
            todo.append(children(search, nodes, within))
    return generated, expanded


def path_nodes(search, path: np.ndarray) -> list:
    """The root ... T as one-node Siblings, with the h, carry and pop the search gave them."""
    domain, d = search.domain, len(path) - 1
    pop = np.full(d + 1, -1, dtype=np.int64)
    if d:                                  # the move into each path node: the one that reaches it
        parent, move = domain.successors(path[:-1])
        reached = (domain.apply(path[:-1], parent, move) == path[parent + 1]).all(axis=1)
        pop[parent[reached] + 1] = domain.inverse(move[reached])
    h, carry = search.h.start(path)
    nodes = []
    for i in range(d + 1):
        if i and carry is not None:        # a carried heuristic (a network's hidden layer): its
            # values along the path as the search computed them, one step from the parent
            step = search.h.step(path[i - 1:i], h[i - 1:i], carry[i - 1:i],
                                 np.zeros(1, np.int64), np.asarray(move[reached][i - 1:i]))
            h[i], carry[i] = step[0][0], step[1][0]
        nodes.append(Siblings(path[i:i + 1], h[i:i + 1],
                              None if carry is None else carry[i:i + 1], pop[i:i + 1], i))
    return nodes


def right_siblings(search, parent: Siblings, node: Siblings) -> Siblings:
    """The children of `parent` that come after `node` in move order."""
    all_children = children(search, parent, slice(None))
    at = int(np.flatnonzero((all_children.state == node.state[0]).all(axis=1))[0])
    all_children.next = at + 1
    return all_children


def count_to_limit(search, archive, top, bound, generated0, expanded0, subtree) -> None:
    """Set the search's counts to the reference's where it stops, at node limit + 1, walking on
    from the last pending node T = top within the limit; `subtree`: T's subtree's counts if a
    dive finished it."""
    state, parent, w, x = top
    n = search.node_limit - generated0 - w       # T and the nodes after it, before the stop
    expanded = expanded_among(search, archive.plan(state, parent), bound, n, subtree)
    search.generated, search.expanded = search.node_limit + 1, expanded0 + x + expanded


def expanded_among(search, path: np.ndarray, bound: int, n: int, subtree=None) -> int:
    """The expanded nodes among the first n nodes of the depth-first preorder from T = path[-1]
    on (T pending: within the bound, no goal); `subtree`: T's subtree's (generated, expanded) if
    known, and then wholly before the stop."""
    levels = path_nodes(search, path)
    if subtree is None:
        todo = [children(search, levels[-1], slice(None))]     # T opened: its children next
        expanded, n = 1, n - 1
    else:
        todo, expanded, n = [], subtree[1], n - subtree[0]
    while n > 0:
        while todo and not len(todo[-1]):
            todo.pop()
        if not todo:                                   # T's subtree done: up one level
            if len(levels) == 1:                       # the iteration's end (not before the stop)
                break
            node = levels.pop()
            todo.append(right_siblings(search, levels[-1], node))
            continue
        nodes = todo[-1]
        node = Siblings(*nodes.take(slice(nodes.next, nodes.next + 1)), nodes.g)
        nodes.next += 1
        generated, below = subtree_counts(search, node, bound, n)
        if generated <= n:                             # the whole subtree lies before the stop
            n, expanded = n - generated, expanded + below
        else:                                          # the stop lies inside: open it
            n, expanded = n - 1, expanded + 1
            todo.append(children(search, node, slice(None)))
    return expanded
