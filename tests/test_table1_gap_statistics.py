"""What la.experiments.table1_gap says about few seeds: t-intervals, the seeds a change needs, and
the paper's central comparison (α = 0.9 against the single-output row), each against a hand
computation."""
import numpy as np
import pytest
from scipy import stats

from la.experiments import table1_gap as gap


def test_the_interval_is_the_t_interval_of_the_changes():
    mean, low, high, p = gap.interval([0.29, -4.11, 3.20])      # budget x2 at α = 0.9, seeds 1-3
    sd = np.std([0.29, -4.11, 3.20], ddof=1)
    half = stats.t.ppf(0.975, 2) * sd / np.sqrt(3)                  # 4.303 · sd / √3
    assert mean == pytest.approx(-0.2067, abs=1e-4)
    assert (low, high) == (pytest.approx(mean - half), pytest.approx(mean + half))
    # from the rounded changes; the records' own digits give [-9.36, +8.94]
    assert round(low, 1) == -9.3 and round(high, 1) == 8.9 and round(p, 2) == 0.93
    assert gap.interval([1.0]) is None


def test_the_seeds_needed_give_the_power_and_one_fewer_does_not():
    sd = 5.0
    n = gap.seeds_needed(sd)

    def power(n):
        df, shift = n - 1, 4.0 / (sd / np.sqrt(n))
        edge = stats.t.ppf(0.975, df)
        return stats.nct.sf(edge, df, shift) + stats.nct.cdf(-edge, df, shift)
    assert power(n) >= 0.8 > power(n - 1)
    # the normal approximation (z_0.975 + z_0.8)² (sd / effect)² ≈ 12.3 falls a little short of
    # the t's
    assert 12 < ((1.95996 + 0.84162) * sd / 4.0) ** 2 < n == 15
    assert gap.seeds_needed(2.0) < n < gap.seeds_needed(8.0)


def seed(subopt_09, subopt_na, nodes_09, nodes_na):
    return {"rows": {"0.9": (subopt_09, 40.0, 0), "N/A": (subopt_na, 10.0, 0)},
            "solved": {"0.9": {1: (1.05, nodes_09), 2: (1.0, nodes_09)},
                       "N/A": {1: (1.1, nodes_na)}}}


def test_the_central_comparison_pairs_the_controls_seeds():
    table = {("control", 1): seed(2.0, 6.0, 100, 10), ("control", 2): seed(4.0, 5.0, 300, 30),
             ("control", 3): seed(6.0, 5.0, 200, 20), ("budget-x2", 1): seed(0.0, 0.0, 1, 1)}
    c = gap.against_single_output(table)
    assert c["seeds"] == [1, 2, 3] and c["alpha"] == 4.0 and c["single"] == pytest.approx(16 / 3)
    assert c["mean"] == pytest.approx(-4 / 3) and c["single_better"] == 1
    assert c["p"] == pytest.approx(stats.ttest_rel([2, 4, 6], [6, 5, 5]).pvalue)
    assert c["nodes"] == [200.0, 20.0]
    assert gap.control_spread(table) == pytest.approx(np.sqrt(2) * 2.0)
    text = gap.format_statistics([{"arm": "budget-x2", "row": "0.9", "changes": [1.0, -1.0, 3.0]}],
                                 table)
    assert "budget-x2  0.9 |     3 |  +1.00 |" in text and "(10.0 times)" in text
    assert gap.against_single_output({("control", 1): seed(2.0, 6.0, 1, 1)}) is None
