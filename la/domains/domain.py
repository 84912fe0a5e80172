"""What every domain provides, and the parts they share.

A domain works on batches: `states` is an (n, size) uint8 array, one state per row. Moves are
integer codes chosen so that the move undoing a move follows from its code alone (`inverse`). Search
keeps, for every node, the code of the move that would undo the step that created it (its `pop`, as
the reference calls it) and asks `successors` to leave that move out: that is parent pruning.

    parent, move = domain.successors(states, pop)
        legal moves, minus each state's pop; parent-major order, the domain's move order within one
        parent
    children = domain.apply(states, parent, move)
        children[i] = move[i] applied to states[parent[i]]
    domain.inverse(move)
        the move that undoes each move
    domain.neighbours(state_tuple, pop)
        the same for one state, in plain Python (reference IDA*)

Every domain here is reversible, so the predecessors of a state (E_rev in the paper) are its
successors.
"""
import numpy as np

STATE_MAX = int(np.iinfo(np.uint8).max)     # rows of uint8: no tile, pancake or support above 255


class Domain:
    """Shared behaviour; subclasses set `name`, `size`, `goal`, and implement moves and `check`."""

    name: str
    size: int
    goal: np.ndarray

    def successors(self, states, pop=None):
        raise NotImplementedError

    def apply(self, states, parent, move):
        raise NotImplementedError

    def inverse(self, move):
        raise NotImplementedError

    def neighbours(self, state: tuple, pop: int = -1) -> list:
        raise NotImplementedError

    def check(self, state: np.ndarray) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name}>"

    # --- batches ----------------------------------------------------------------------------------

    def expand(self, states, pop=None):
        """Children of a batch after parent pruning: (parent, move, children)."""
        parent, move = self.successors(states, pop)
        return parent, move, self.apply(states, parent, move)

    def predecessors(self, states):
        """E_rev (reversible domains): the states with a move into each state, (parent, preds)."""
        parent, _, before = self.expand(states)
        return parent, before

    def is_goal(self, states) -> np.ndarray:
        """Which rows are the goal, (n,) bool."""
        # Each row as one opaque value of `size` bytes: one comparison per row instead of `size`.
        row = np.dtype((np.void, self.size * self.goal.itemsize))
        states = np.ascontiguousarray(states, dtype=self.goal.dtype)
        return states.view(row)[:, 0] == self.goal.view(row)[0]

    # --- single states: validation --------------------------------------------------------------

    def validate(self, state) -> np.ndarray:
        """The state as a (size,) uint8 array, or ValueError naming what is wrong with it."""
        array = np.asarray(state)
        if array.ndim != 1 or len(array) != self.size:
            raise ValueError(f"a {self.name} state has {self.size} numbers, got {array.size}")
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"a {self.name} state holds integers, got {array.dtype}")
        self.check(array)
        return array.astype(np.uint8)

    def _check_permutation(self, state: np.ndarray, what: str, first: int = 0) -> None:
        """Raise ValueError unless `state` holds each of first..first+size-1 exactly once."""
        expected = np.arange(first, first + self.size)
        outside = state[(state < first) | (state >= first + self.size)]
        if outside.size:
            raise ValueError(f"{what} {int(outside[0])} is out of range for the {self.name} "
                             f"({what}s are {first}..{first + self.size - 1})")
        counts = np.bincount(state - first, minlength=self.size)
        if (counts > 1).any():
            raise ValueError(f"{what} {int(expected[np.argmax(counts > 1)])} appears more than "
                             f"once")
        if (counts == 0).any():
            raise ValueError(f"{what} {int(expected[np.argmax(counts == 0)])} is missing")
