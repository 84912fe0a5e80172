"""Exact distances to the goal by breadth-first search over the whole state space (small domains
only).

The 8-puzzle (181,440 states), a 7-pancake (5,040) or a 6-blocksworld (4,051) fit easily. The table
is the perfect heuristic h*: the ground truth that tests check admissibility and optimality against.
"""
import numpy as np

MAX_STATES = 5_000_000


class ExactDistances:
    """h*(s) for every state reachable from the goal, found by a batched breadth-first search over
    E_rev."""

    def __init__(self, domain, max_states: int = MAX_STATES):
        self.domain = domain
        self.base = domain.size + 1                     # values are 0..size in every domain here
        if self.base ** domain.size >= 2 ** 63:
            raise ValueError(f"the {domain.name} is too large to enumerate")
        self.powers = self.base ** np.arange(domain.size, dtype=np.int64)
        frontier = domain.goal[None]
        keys, depth, distance = [self.key(frontier)], 0, [np.zeros(1, dtype=np.int64)]
        seen = keys[0]
        while len(frontier):
            depth += 1
            _, before = domain.predecessors(frontier)
            new_keys, first = np.unique(self.key(before), return_index=True)
            fresh = ~np.isin(new_keys, seen, assume_unique=True)
            frontier = before[first[fresh]]
            keys.append(new_keys[fresh])
            distance.append(np.full(fresh.sum(), depth, dtype=np.int64))
            seen = np.union1d(seen, new_keys[fresh])
            if len(seen) > max_states:
                raise ValueError(f"the {domain.name} has more than {max_states:,} states: "
                                 "too many to enumerate")
        order = np.argsort(np.concatenate(keys))
        self.keys = np.concatenate(keys)[order]
        self.distance = np.concatenate(distance)[order]

    def key(self, states) -> np.ndarray:
        """A unique integer per state: its values as digits in base `base`."""
        return states.astype(np.int64) @ self.powers

    def __len__(self) -> int:
        return len(self.keys)

    def states(self) -> np.ndarray:
        """Every state reachable from the goal, (len, size) uint8, in the order of `keys` and
        `distance`."""
        return (self.keys[:, None] // self.powers % self.base).astype(np.uint8)

    def __call__(self, states) -> np.ndarray:
        """h* of each state; ValueError for a state the goal cannot reach."""
        keys = self.key(np.asarray(states))
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        if (self.keys[at] != keys).any():
            raise ValueError(f"a state is not reachable from the goal of the {self.domain.name}")
        return self.distance[at]
