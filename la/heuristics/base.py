"""The heuristic contract: the one place it is written down.

A heuristic is a callable on a batch of states that returns integers:

    h = heuristic(states)            # (n, size) uint8 -> (n,) int64

That is all the reference IDA* uses, and all most heuristics provide. The batched IDA* also
understands an *incremental* heuristic, which carries per-node state from a parent to its children,
so that a child's value costs less than computing it afresh (Manhattan distance changes by one
tile's move; the neural heuristic updates its hidden layer for the two cells a move changes). Such a
heuristic has two more methods:

    h, carry = heuristic.start(states)
        the values of a batch of roots, and `carry`: None or an array with one row per state;
    h, carry = heuristic.step(states, h, carry, parent, move)
        the values of the children `domain.apply(states, parent, move)` computed from the parents'
        states, values and carry, without building the children; the returned carry has one row
        per child.

The search keeps `h` and `carry` with every node and indexes both with the node's index, so a carry
is a NumPy array (any trailing shape) or None. `incremental(heuristic, domain)` gives any heuristic
that shape. Values must be integers: IDA* compares f = g + h with integer bounds, and a float h
makes bounds creep.
"""
import numpy as np


class FromStates:
    """A plain heuristic seen as an incremental one: `step` builds the children and scores them."""

    def __init__(self, heuristic, domain):
        self.heuristic, self.domain = heuristic, domain

    def start(self, states):
        return as_int(self.heuristic(states)), None

    def step(self, states, h, carry, parent, move):
        return as_int(self.heuristic(self.domain.apply(states, parent, move))), None


def incremental(heuristic, domain):
    """`heuristic` itself if it has `start` and `step`, else a wrapper scoring built children."""
    if hasattr(heuristic, "start") and hasattr(heuristic, "step"):
        return heuristic
    return FromStates(heuristic, domain)


def as_int(h) -> np.ndarray:
    """Check that a heuristic returned integers and give them as int64."""
    h = np.asarray(h)
    if not np.issubdtype(h.dtype, np.integer):
        raise TypeError(f"a heuristic must return integers, got {h.dtype}; round it first")
    return h.astype(np.int64, copy=False)
