"""Calibration of a likely-admissible heuristic: is y^α really below h* a fraction α of the time?

The paper defines y^α by P(y^α <= y | x) = α (§3) but never measures it. Every state along the stored optimal
solutions of Korf's 100 has a known cost-to-goal h* (5,305 states, the goals left out), so the claim can be
checked directly: for each α, the fraction of those states with y^α <= h*. A calibrated heuristic lies on the
line y = α. The same is reported for the integer h = max(round(y^α), 0) that IDA* uses, which is admissible on
a state exactly when h <= h*.
"""
import numpy as np

from la import data

ALPHAS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


def korf_states_with_h_star() -> tuple:
    """Every non-goal state along the stored optimal solutions of Korf's 100, and its h*: (5305, 16), (5305,)."""
    moves = data.optimal_blank_moves("korf100")
    states, h_star = [], []
    for instance in data.korf100():
        plan = data.optimal_plan(instance.state, moves[instance.id])
        states.append(plan[:-1])
        h_star.append(np.arange(len(plan) - 1, 0, -1))
    return np.concatenate(states), np.concatenate(h_star)


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
