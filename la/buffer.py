"""The memory buffer of LearnHeuristicPrac (paper §4, Alg. 2).

Every solved plan s_0, ..., s_L contributes the records (s_i, L − i): each state with its
cost-to-goal along the plan, the goal included with label 0 (Alg. 2 leaves the goal out; the label
teaches h(goal) = 0, without which IDA* could not recognise the goal until the bound passed the
network's h(goal)). A record is added only if the buffer does not already hold the same state with
the same label (the same state with another label is a second one). Beyond the cap
(MemoryBufferMaxRecords), the oldest records go.
"""
import numpy as np


class MemoryBuffer:
    """An ordered set of (state, cost-to-goal) records, oldest first, at most `cap` of them."""

    def __init__(self, cap: int, size: int):
        self.cap, self.size = cap, size
        self._records = {}               # (state bytes, label) -> None; dicts keep insertion order

    def __len__(self) -> int:
        return len(self._records)

    def add_plans(self, plans) -> int:
        """Add every plan's records (suffix costs, goal included); drop the oldest beyond the cap.

        Returns how many records were new.
        """
        before = len(self._records)
        for plan in plans:
            plan = np.asarray(plan, dtype=np.uint8)
            # the goal too; exact duplicates only: the authors' `NNBaseHeuristic.ManageMemoryBuffer`
            for i, state in enumerate(plan):
                self._records.setdefault((state.tobytes(), len(plan) - 1 - i), None)
        added = len(self._records) - before
        while len(self._records) > self.cap:
            del self._records[next(iter(self._records))]
        return added

    def states(self) -> np.ndarray:
        """(M, size) uint8, oldest first."""
        joined = b"".join(key for key, _ in self._records)
        return np.frombuffer(joined, dtype=np.uint8).reshape(len(self._records), self.size).copy()

    def labels(self) -> np.ndarray:
        """(M,) cost-to-goal labels, oldest first."""
        return np.array([label for _, label in self._records], dtype=np.int64)

    @classmethod
    def from_arrays(cls, cap: int, states: np.ndarray, labels: np.ndarray) -> "MemoryBuffer":
        """A buffer holding these records in this order (restoring a checkpoint)."""
        if len(states) != len(labels) or len(states) > cap:
            raise ValueError(f"a buffer of {len(labels)} labels and {len(states)} states does "
                             f"not fit cap {cap}")
        buffer = cls(cap, states.shape[1])
        for state, label in zip(np.asarray(states, dtype=np.uint8), labels):
            buffer._records[(state.tobytes(), int(label))] = None
        return buffer


def weighted_minibatch(weight: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n records by `weight`, without replacement unless there are at most n (paper §5)."""
    # The authors' `NNBaseHeuristic.SampleFromMemoryBuffer` over-draws the newest record; it is
    # la.rivals.authors_sampler.
    return rng.choice(len(weight), n, replace=len(weight) <= n, p=weight)
