"""Calibration of a likely-admissible heuristic: is y^α really below h* a fraction α of the time?

The paper defines y^α by P(y^α <= y | x) = α (§3) but never measures it. Every state along an
optimal plan has a known cost-to-goal h* (the steps left), so the claim can be checked directly: for
each α, the fraction of those states with y^α <= h*. A calibrated heuristic lies on the line y = α.
The same is reported for the integer h = max(round(y^α), h_ad) that IDA* uses, which is admissible
on a state exactly when h <= h*.

Where the optimal plans come from (`optimal_plans`; goal states are left out):

    15-puzzle, 24-puzzle   the stored optimal solutions of Korf's 100 (5,305 states) and of Korf &
                           Felner's 50
    pancake puzzles        IDA* with the gap heuristic (Helmert 2010), admissible, so its plans are
                           optimal; on the 50 24-pancake test stacks it takes under a second, so the
                           plans are not stored
    blocksworld            the exact single-tower plans of `la.domains.blocksworld_cost`; besides,
                           states drawn uniformly (Slaney & Thiébaux 2001), whose h* that module's
                           rule gives directly
    other sliding tiles    IDA* with Manhattan distance

Where y^α is not calibrated, states with known h* can calibrate it by split conformal prediction
(Vovk et al. 2005; Angelopoulos & Bates 2021, "A gentle introduction to conformal prediction"). On n
calibration states the standardised residuals r_i = (h*_i − SCALE·μ_i)/(SCALE·σ_a,i) are ranked, and
q_α is the k-th smallest with k = ⌊(n + 1)(1 − α)⌋ (with k < 1, i.e. n < α/(1 − α), there is no
finite q_α). Then P(SCALE·(μ + σ_a·q_α) <= h*) >= α for a new state *exchangeable* with the
calibration states (drawn the same way, e.g. a random split of one set), however wrong μ and σ_a
are; as h* is an integer and h_ad <= h*, also P(h <= h*) >= α for the integer h =
max(round(SCALE·(μ + σ_a·q_α)), h_ad) that IDA* uses (`LikelyAdmissible(..., quantile=q_α)`). The
guarantee is marginal over states drawn like the calibration states, not for each state, and it can
fail where the searched states do not look like them: IDA* scores every node it generates, most of
them off any optimal plan, and those are not drawn like the states along optimal plans.
"""
import math
from fractions import Fraction

import numpy as np

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost, optimal_plan
from la.domains.blocksworld_uniform import uniform_states
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import classical_admissible
from la.heuristics.likely_admissible import LikelyAdmissible, to_h
from la.search import ida_star

ALPHAS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)
# domains with stored optimal solutions (la.data)
SHIPPED = {"15-puzzle": "korf100", "24-puzzle": "korf50_24"}


def optimal_plans(domain, instances) -> list:
    """One optimal plan per instance, each the states (cost + 1, N) from its start to the goal
    (see above).

    ValueError if a plan's length is not the instance's stored optimal cost."""
    if domain.name in SHIPPED:
        moves = data.optimal_blank_moves(SHIPPED[domain.name])
        plans = [data.optimal_plan(i.state, moves[i.id]) for i in instances]
    elif isinstance(domain, Blocksworld):
        plans = [optimal_plan(i.state) for i in instances]
    elif (h := classical_admissible(domain)) is not None:
        plans = [ida_star(domain, h, i.state).plan for i in instances]
    else:
        raise ValueError(f"no optimal plans for the {domain.name}: expected a sliding-tile "
                         f"puzzle, a pancake puzzle or blocksworld")
    for instance, plan in zip(instances, plans):
        if len(plan) - 1 != instance.optimal:
            raise ValueError(f"the plan found for {domain.name} task {instance.id} "
                             f"costs {len(plan) - 1}, "
                             f"but its stored optimal cost is {instance.optimal}")
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
    """Every non-goal state along the stored optimal solutions of Korf's 100, and its h*:
    (5305, 16), (5305,)."""
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
    """For each α: the fraction with y^α <= h*, the fraction with the integer h <= h*, the mean
    h/h*, and, where the encoding has an admissible floor h_ad (paper §5), the fraction on which the
    network sets h: round(y^α) > h_ad, so h = max(round(y^α), h_ad) is not h_ad's value
    (None without a floor).

    `heuristic_for(alpha)` returns a LikelyAdmissible heuristic for that α.
    """
    rows = []
    for alpha in alphas:
        h = heuristic_for(alpha)
        y = h.values(h.hidden(states))
        h_ad = h.encoding.admissible(states)
        rows.append({"alpha": alpha, "y_alpha_below_h_star": admissible_fraction(y, h_star),
                     "h_admissible": admissible_fraction(h(states), h_star),
                     "mean_h_over_h_star": float(np.mean(h(states) / h_star)),
                     "network_above_h_ad": (None if h_ad is None
                                            else float(np.mean(to_h(y) > h_ad)))})
    return rows


def conformal_quantile(residuals, alpha: float) -> float:
    """q_α: the k-th smallest of n residuals, k = ⌊(n + 1)(1 − α)⌋ (split conformal prediction, see
    above)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    r = np.asarray(residuals, dtype=np.float64)
    if r.ndim != 1:
        raise ValueError(f"expected a 1-D array of residuals, got shape {r.shape}")
    if not np.isfinite(r).all():
        raise ValueError("residuals must be finite, "
                         f"got {int(np.sum(~np.isfinite(r)))} that are not")
    n, a = len(r), Fraction(repr(float(alpha)))
    # 1 − α as the decimal α was written as: in floats (9 + 1)·(1 − 0.9) is 0.999…, and k would be
    # 0, not 1
    k = math.floor((n + 1) * (1 - a))
    if k < 1:
        raise ValueError(f"a calibration set of n={n} states is too small for alpha={alpha}: "
                         f"it needs n >= {math.ceil(a / (1 - a))}")
    return float(np.partition(r, k - 1)[k - 1])


def standardised_residuals(mu, sigma_a, h_star, scale: float) -> np.ndarray:
    """r = (h* − SCALE·μ)/(SCALE·σ_a): how many predicted spreads h* lies above the predicted
    mean."""
    return ((np.asarray(h_star, dtype=np.float64) - scale * np.asarray(mu))
            / (scale * np.asarray(sigma_a)))


def residuals(heuristic, states, h_star) -> np.ndarray:
    """The standardised residuals (n,) of a LikelyAdmissible heuristic's two-output network on
    states with h*."""
    h_star = np.asarray(h_star)
    if h_star.shape != (len(states),):
        raise ValueError(f"expected one h* per state, {len(states)} of them, "
                         f"got an array of shape {h_star.shape}")
    if heuristic.net.n_out != 2:
        raise ValueError(f"conformal calibration needs the two-output network (μ and σ_a), got "
                         f"{heuristic.net.n_out} output")
    # (n,), (n,) in units of y/10
    mu, sigma_a = heuristic.net.predict_from_hidden(heuristic.hidden(states))
    return standardised_residuals(mu, sigma_a, h_star, heuristic.scale)


def conformal_heuristic(ffnn, encoding, states, h_star, alpha: float) -> LikelyAdmissible:
    """h = max(round(SCALE·(μ + σ_a·q_α)), h_ad), q_α calibrated on `states` and their h*
    (see above)."""
    # checks α, the two outputs and the encoding
    uncalibrated = LikelyAdmissible(ffnn, encoding, alpha)
    q = conformal_quantile(residuals(uncalibrated, states, h_star), alpha)
    return LikelyAdmissible(ffnn, uncalibrated.encoding, alpha, quantile=q)
