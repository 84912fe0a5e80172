"""What a search returns."""
from dataclasses import dataclass

import numpy as np


@dataclass
class SearchResult:
    """The outcome of one search.

    Counts follow Korf (1985): `generated` is the root plus every child generated after parent
    pruning, summed over all iterations; `expanded` counts the nodes whose children were generated.
    """
    solved: bool
    cost: int | None            # plan length in moves (unit costs), None if not solved
    plan: np.ndarray | None     # (cost + 1, size): the states from the start to the goal
    generated: int
    expanded: int
    iterations: int             # IDA* iterations started (f-bounds tried)
    seconds: float
    status: str                 # "solved", "node limit", "time limit" or "no solution"
    per_iteration: list         # nodes generated in each iteration (the root counted in the first)
    bounds: list                # the f-bound of each iteration

    @property
    def nodes_per_second(self) -> float:
        return self.generated / self.seconds if self.seconds > 0 else float("inf")


class Budget:
    """A node budget and a time limit, either of which may be absent."""

    def __init__(self, node_limit: int | None, time_limit: float | None, start: float):
        if node_limit is not None and node_limit < 1:
            raise ValueError(f"node limit must be a positive number of nodes, got {node_limit}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time limit must be a positive number of seconds, got {time_limit}")
        self.node_limit, self.time_limit, self.start = node_limit, time_limit, start

    def exceeded(self, generated: int, now: float) -> str | None:
        """Which limit has run out, if any."""
        if self.node_limit is not None and generated > self.node_limit:
            return "node limit"
        return "time limit" if self.out_of_time(now) else None

    def out_of_time(self, now: float) -> bool:
        return self.time_limit is not None and now - self.start > self.time_limit


def check_plan(domain, start, plan) -> None:
    """Replay a plan: raise ValueError unless it starts at `start`, makes only legal moves and ends
    at the goal."""
    plan = np.asarray(plan)
    if not np.array_equal(plan[0], start):
        raise ValueError("the plan does not begin at the start state")
    for i, (state, following) in enumerate(zip(plan[:-1], plan[1:])):
        children = [child for _, child in domain.neighbours(tuple(int(v) for v in state))]
        if tuple(int(v) for v in following) not in children:
            raise ValueError(f"step {i + 1} of the plan is not a legal move")
    if not domain.is_goal(plan[-1:])[0]:
        raise ValueError("the plan does not end at the goal")
