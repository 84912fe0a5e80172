"""Paired comparisons over few runs: the t-interval of per-run changes, the tests, Holm's correction
and the runs a change of a given size needs. Used by Table 1's gap (seeds of two arms) and Table 2
(GTP against each LengthInc setting): in both a run is the unit of replication and two systems run
on the same seed, so the per-run difference is the observation."""
import numpy as np
from scipy.stats import nct, t, ttest_1samp, wilcoxon

EFFECT = 4.0            # points of subopt %: about the gap between la's α = 0.9 (6.6 %) on Korf's
                        # 100 and the paper's (2.5 %)
POWER, LEVEL = 0.8, 0.05


def interval(changes) -> tuple:
    """(mean, 95 % t-interval low, high, paired t-test p) of per-seed changes; None for fewer than
    2."""
    x = np.asarray(changes, dtype=float)
    if len(x) < 2:
        return None
    half = t.ppf(1 - LEVEL / 2, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return (float(x.mean()), float(x.mean() - half), float(x.mean() + half),
            float(ttest_1samp(x, 0).pvalue))


def signed_rank(changes) -> float | None:
    """The two-sided Wilcoxon signed-rank test's p of per-run changes (exact for few runs without
    ties); None when every change is 0, where the test has nothing to rank."""
    x = np.asarray(changes, dtype=float)
    if len(x) < 2 or not np.any(x):
        return None
    return float(wilcoxon(x).pvalue)


def holm(pvalues) -> list:
    """Holm's (1979) step-down adjustment of a family of p-values, in their order: the i-th smallest
    is multiplied by (m − i + 1), made monotone and capped at 1. None stays None (a test that was
    not made is not counted in m)."""
    made = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    adjusted, running = [None] * len(pvalues), 0.0
    for rank, (p, i) in enumerate(made):
        running = max(running, min(1.0, (len(made) - rank) * p))
        adjusted[i] = running
    return adjusted


def seeds_needed(sd: float, effect: float = EFFECT, power: float = POWER,
                 level: float = LEVEL) -> int:
    """Seeds a two-sided paired t-test at `level` needs to detect a mean change `effect` with
    `power`, when the per-seed changes have standard deviation `sd` (the noncentral t
    distribution)."""
    for n in range(2, 10_000):
        df, shift = n - 1, effect / (sd / np.sqrt(n))
        edge = t.ppf(1 - level / 2, df)
        if nct.sf(edge, df, shift) + nct.cdf(-edge, df, shift) >= power:
            return n
    raise ValueError(f"no number of seeds below 10,000 detects {effect} points at sd {sd}")
