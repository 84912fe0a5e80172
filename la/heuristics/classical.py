"""Classical heuristics: Manhattan distance, Helmert's gap heuristic and Hamming (out of place).

All take a batch of states and return int64 values. Manhattan and gap are also incremental (see
`la.heuristics.base`): a move changes one tile's distance, or one pair of neighbouring pancakes.
"""
import numpy as np

from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile


class Manhattan:
    """Σ over the tiles (blank excluded) of |Δrow| + |Δcol| to their goal cells: the paper's MD."""

    def __init__(self, domain: SlidingTile):
        self.domain = domain
        row, col = domain.row, domain.col
        self.table = (np.abs(row[None, :] - row[:, None])
                      + np.abs(col[None, :] - col[:, None]))            # (tile, pos)
        self.table[0] = 0                                               # the blank is not counted
        # change of each tile's distance under each move code (blank b -> t: the tile goes t -> b)
        self.delta = (self.table[:, domain.blank_from]
                      - self.table[:, domain.blank_to])                 # (tile, move)

    def __call__(self, states):
        return self.table[states, np.arange(self.domain.size)].sum(axis=1)

    def start(self, states):
        return self(states), None

    def step(self, states, h, carry, parent, move):
        tile, _, _ = self.domain.moved_tile(states, parent, move)
        return (np.take(h, parent)
                + np.take(self.delta, tile.astype(np.int64) * self.delta.shape[1] + move)), None


class Gap:
    """Helmert's gap heuristic: neighbouring pancakes (and plate) that differ by more than one."""

    def __init__(self, domain: Pancake):
        self.domain = domain

    def __call__(self, states):
        below = np.concatenate([states[:, 1:], np.full((len(states), 1), self.domain.size)], axis=1)
        return (np.abs(states.astype(np.int64) - below) > 1).sum(axis=1)

    def start(self, states):
        return self(states), None

    def step(self, states, h, carry, parent, move):
        # Flip k reverses positions 0..k: only the pair (k, k+1) changes, to (top pancake, k+1).
        plate = np.concatenate([states, np.full((len(states), 1), self.domain.size, states.dtype)],
                               axis=1)
        top = plate[parent, 0].astype(np.int64)
        at_k = plate[parent, move].astype(np.int64)
        below = plate[parent, move + 1].astype(np.int64)
        return h[parent] + (np.abs(top - below) > 1) - (np.abs(at_k - below) > 1), None


class Hamming:
    """Number of tiles, pancakes or blocks not where the goal has them (the blank is not counted).

    Admissible for the sliding-tile puzzle and blocksworld (a move changes one tile or one block),
    but not for the pancake puzzle, where one flip can put many pancakes in place.
    """

    def __init__(self, domain):
        self.domain = domain
        self.blank = isinstance(domain, SlidingTile)

    def __call__(self, states):
        wrong = states != self.domain.goal
        if self.blank:
            wrong &= states != 0
        return wrong.sum(axis=1)


class Weighted:
    """W·h: weighted IDA*'s heuristic, inadmissible for W > 1 (plans hang on IDA*'s goal order).
    Incremental when h is (`la.heuristics.base`): else every step would build and score each
    chunk's children afresh (a 255-pancake's gap so needed 1.8 GB at a 10^6-node limit)."""

    def __init__(self, heuristic, weight: int):
        self.heuristic, self.weight = heuristic, weight
        if hasattr(heuristic, "start") and hasattr(heuristic, "step"):
            self.start, self.step = self._start, self._step

    def __call__(self, states):
        return self.weight * self.heuristic(states)

    def _start(self, states):
        h, carry = self.heuristic.start(states)
        return self.weight * h, carry

    def _step(self, states, h, carry, parent, move):
        # the parents' W·h back to h: exact, as W·h is a multiple of the integer W
        h, carry = self.heuristic.step(states, h // self.weight, carry, parent, move)
        return self.weight * h, carry


CLASSICAL = ("md", "gap", "hamming")


def make_heuristic(name: str, domain):
    """The classical heuristic `name` ('md', 'gap' or 'hamming') for `domain`."""
    if name == "md":
        if not isinstance(domain, SlidingTile):
            raise ValueError(f"heuristic 'md' (Manhattan distance) is for sliding-tile puzzles, "
                             f"not the {domain.name}")
        return Manhattan(domain)
    if name == "gap":
        if not isinstance(domain, Pancake):
            raise ValueError(f"heuristic 'gap' is for pancake puzzles, not the {domain.name}")
        return Gap(domain)
    if name == "hamming":
        return Hamming(domain)
    raise ValueError(f"unknown heuristic {name!r}: expected one of {', '.join(CLASSICAL)}")


def classical_admissible(domain):
    """The domain's classical admissible heuristic: Manhattan distance on sliding-tile puzzles, the
    gap heuristic (Helmert 2010) on pancake puzzles; None for a domain without one here
    (blocksworld, whose h* has a rule)."""
    if isinstance(domain, SlidingTile):
        return Manhattan(domain)
    if isinstance(domain, Pancake):
        return Gap(domain)
    return None
