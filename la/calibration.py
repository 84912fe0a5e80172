"""Calibration of a likely-admissible heuristic: is y^α really below h* a fraction α of the time?

The paper defines y^α by P(y^α <= y | x) = α (§3) but never measures it. Every state along an optimal plan has
a known cost-to-goal h* (the steps left), so the claim can be checked directly: for each α, the fraction of
those states with y^α <= h*. A calibrated heuristic lies on the line y = α. The same is reported for the
integer h = max(round(y^α), h_ad) that IDA* uses, which is admissible on a state exactly when h <= h*.

Where the optimal plans come from (`optimal_plans`; goal states are left out):

    15-puzzle, 24-puzzle   the stored optimal solutions of Korf's 100 (5,305 states) and of Korf & Felner's 50
    pancake puzzles        IDA* with the gap heuristic (Helmert 2010), admissible, so its plans are optimal; on
                           the 50 24-pancake test stacks it takes under a second, so the plans are not stored
    blocksworld            the exact single-tower plans of `la.domains.blocksworld_cost`; besides, states drawn
                           uniformly (Slaney & Thiébaux 2001), whose h* that module's rule gives directly
    other sliding tiles    IDA* with Manhattan distance
"""
import numpy as np

from la import data
from la.domains import Blocksworld, Pancake, SlidingTile
from la.domains.blocksworld_cost import optimal_cost, optimal_plan
from la.domains.blocksworld_uniform import uniform_states
from la.heuristics import Gap, Manhattan
from la.search import ida_star

ALPHAS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)
SHIPPED = {"15-puzzle": "korf100", "24-puzzle": "korf50_24"}     # domains with stored optimal solutions (la.data)


def optimal_plans(domain, instances) -> list:
    """One optimal plan per instance, each the states (cost + 1, N) from its start to the goal (see above).

    ValueError if a plan's length is not the instance's stored optimal cost."""
    if domain.name in SHIPPED:
        moves = data.optimal_blank_moves(SHIPPED[domain.name])
        plans = [data.optimal_plan(i.state, moves[i.id]) for i in instances]
    elif isinstance(domain, Blocksworld):
        plans = [optimal_plan(i.state) for i in instances]
    elif isinstance(domain, (Pancake, SlidingTile)):
        h = Gap(domain) if isinstance(domain, Pancake) else Manhattan(domain)
        plans = [ida_star(domain, h, i.state).plan for i in instances]
    else:
        raise ValueError(f"no optimal plans for the {domain.name}: expected a sliding-tile puzzle, a pancake "
                         f"puzzle or blocksworld")
    for instance, plan in zip(instances, plans):
        if len(plan) - 1 != instance.optimal:
            raise ValueError(f"the plan found for {domain.name} task {instance.id} costs {len(plan) - 1}, but its "
                             f"stored optimal cost is {instance.optimal}")
    return plans


def plan_states(plans) -> tuple:
    """Every non-goal state along `plans` and its h*, the steps left: (n, N) and (n,)."""
    states = [np.asarray(plan)[:-1] for plan in plans]
    h_star = [np.arange(len(plan) - 1, 0, -1) for plan in plans]
    return np.concatenate(states), np.concatenate(h_star)


def states_with_h_star(domain, instances) -> tuple:
    """The non-goal states along optimal plans of `instances` and their h*."""
    return plan_states(optimal_plans(domain, instances))


def korf_states_with_h_star() -> tuple:
    """Every non-goal state along the stored optimal solutions of Korf's 100, and its h*: (5305, 16), (5305,)."""
    return states_with_h_star(SlidingTile(4), data.korf100())


def uniform_blocksworld(N: int, count: int, rng: np.random.Generator) -> tuple:
    """`count` uniformly drawn states of N blocks, the goal left out, and their exact h*."""
    states = uniform_states(N, count, rng)
    h_star = optimal_cost(states)
    return states[h_star > 0], h_star[h_star > 0]


def admissible_fraction(values, h_star) -> float:
    """Fraction of states whose heuristic value does not exceed the true cost-to-goal."""
    return float(np.mean(np.asarray(values) <= np.asarray(h_star)))


def calibration(heuristic_for, states, h_star, alphas=ALPHAS) -> list:
    """For each α: the fraction with y^α <= h*, the fraction with the integer h <= h*, and the mean h/h*.

    `heuristic_for(alpha)` returns a LikelyAdmissible heuristic for that α.
    """
    rows = []
    for alpha in alphas:
        h = heuristic_for(alpha)
        y = h.values(h.hidden(states))
        rows.append({"alpha": alpha, "y_alpha_below_h_star": admissible_fraction(y, h_star),
                     "h_admissible": admissible_fraction(h(states), h_star),
                     "mean_h_over_h_star": float(np.mean(h(states) / h_star))})
    return rows
