"""Split conformal calibration of y^α: the quantile by hand, coverage on a Gaussian problem, the
heuristic in IDA*."""
import numpy as np
import pytest
from scipy.stats import norm

from la.rivals.calibration import (admissible_fraction, conformal_heuristic, conformal_quantile,
                                   plan_states, residuals, standardised_residuals)
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features.encodings import for_domain
from la.features import OneHot
from la.heuristics.classical import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible, to_h, y_alpha, z_alpha
from la.nn import FFNN
from la.nn.ffnn import SCALE
from la.search import check_plan, ida_star


def test_conformal_quantile_by_hand():
    r = np.array([3.0, 1.0, 2.0, 5.0, 4.0])                        # n = 5, so k = ⌊6(1 − α)⌋
    assert conformal_quantile(r, 0.5) == 3.0                       # k = 3
    assert conformal_quantile(r, 0.2) == 4.0                       # k = ⌊4.8⌋ = 4
    assert conformal_quantile(r, 0.8) == 1.0                       # k = ⌊1.2⌋ = 1
    assert conformal_quantile(r, 0.01) == 5.0                      # k = ⌊5.94⌋ = 5, the largest
    # k = ⌊10·0.1⌋ = 1, though 10·(1 − 0.9) < 1
    assert conformal_quantile(np.arange(9.0)[::-1], 0.9) == 0.0


@pytest.mark.parametrize("residuals_, alpha, words", [
    # k = ⌊0.6⌋ = 0
    ([3.0, 1.0, 2.0, 5.0, 4.0], 0.9, "n=5 states is too small for alpha=0.9: it needs n >= 9"),
    ([], 0.5, "n=0 states is too small for alpha=0.5: it needs n >= 1"),
    ([1.0, 2.0], 0.0, "alpha must lie strictly between 0 and 1, got 0.0"),
    ([1.0, 2.0], 1.0, "alpha must lie strictly between 0 and 1, got 1.0"),
    ([1.0, 2.0], -0.5, "alpha must lie strictly between 0 and 1, got -0.5"),
    ([1.0, np.nan], 0.5, "residuals must be finite, got 1 that are not"),
])
def test_conformal_quantile_rejects_with_one_line(residuals_, alpha, words):
    with pytest.raises(ValueError) as error:
        conformal_quantile(residuals_, alpha)
    assert words in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("alpha", [0.5, 0.75, 0.9])
def test_conformal_bound_covers_alpha_on_a_gaussian_problem(alpha):
    """y = m + s·ξ; the models report μ = m/SCALE and σ_a = s/SCALE (right) or s/(3·SCALE)
    (misestimated)."""
    rng = np.random.default_rng(7)
    n_cal, n_test = 4000, 4000
    m, s = rng.uniform(20, 60, n_cal + n_test), rng.uniform(1, 5, n_cal + n_test)
    y = m + s * rng.standard_normal(n_cal + n_test)
    cal, test = slice(0, n_cal), slice(n_cal, None)
    # The test set's coverage varies by a binomial sd, and the calibration set's q_α moves it by
    # about as much
    tolerance = 4 * np.sqrt(alpha * (1 - alpha) * (1 / n_cal + 1 / n_test))
    for shrink in (1, 3):
        mu, sigma_a = m / SCALE, s / (shrink * SCALE)
        q = conformal_quantile(standardised_residuals(mu[cal], sigma_a[cal], y[cal], SCALE), alpha)
        covered = admissible_fraction(SCALE * (mu[test] + sigma_a[test] * q), y[test])
        # >= α, and at most α + 1/(n + 1) above
        assert abs(covered - alpha) <= tolerance + 1 / (n_cal + 1)
        uncalibrated = admissible_fraction(y_alpha(SCALE * mu[test], SCALE * sigma_a[test],
                                                   z_alpha(alpha)), y[test])
        if shrink == 1:
            assert abs(uncalibrated - alpha) <= tolerance       # the right noise: y^α is calibrated
        elif alpha > 0.5:                                      # at α = 0.5 y^α is the median anyway
            assert uncalibrated < alpha - tolerance                     # Φ(Φ⁻¹(α)/3): 0.59 and 0.67


def manhattan_net(width: int, rng) -> FFNN:
    """A two-output network on the one-hot encoding: μ·SCALE is Manhattan distance plus a little of
    19 random hidden units, σ_a is random. The first hidden unit sums |column − goal column| +
    |row − goal row| of each tile."""
    net = FFNN(2 * width ** 3, 20, 2, rng)
    # tile v's goal is cell v
    tile, place = np.arange(1, width * width)[:, None], np.arange(width)[None, :]
    base = 2 * width * tile
    net.params["W1"][:, 0] = 0
    net.params["W1"][base + place, 0] = np.abs(place - tile % width)                  # column bits
    net.params["W1"][base + width + place, 0] = np.abs(place - tile // width)         # row bits
    net.params["W2"][:, 0] *= 0.05
    net.params["W2"][0, 0] = 1 / SCALE
    return net


def eight_puzzle_with_h_star(rng):
    """The 8-puzzle, its one-hot encoding, and the states along optimal plans of random walks' ends
    with h*."""
    domain = SlidingTile(3)
    plans = [ida_star(domain, Manhattan(domain), start).plan
             for start in random_walk(domain, 24, rng, n=12)]
    return domain, for_domain(domain), *plan_states(plans)


class Checked:
    """Hands a heuristic to IDA*, checking every value it gives against `scratch` on the built
    states."""

    def __init__(self, h, scratch, domain):
        self.h, self.scratch, self.domain, self.checked = h, scratch, domain, 0

    def start(self, states):
        values, carry = self.h.start(states)
        np.testing.assert_array_equal(values, self.scratch(states))
        self.checked += len(values)
        return values, carry

    def step(self, states, h, carry, parent, move):
        values, carry = self.h.step(states, h, carry, parent, move)
        np.testing.assert_array_equal(values, self.scratch(self.domain.apply(states, parent, move)))
        self.checked += len(values)
        return values, carry


def test_calibrated_heuristic_in_ida_star_equals_values_from_scratch():
    rng = np.random.default_rng(11)
    domain, encoding, states, h_star = eight_puzzle_with_h_star(rng)
    net, alpha = manhattan_net(3, rng), 0.9
    h = conformal_heuristic(net, encoding, states, h_star, alpha)
    float64 = net.astype(np.float64)

    def scratch(batch):                                    # max(round(SCALE·(μ + σ_a·q)), 0) from x
        mu, sigma_a = float64.predict(encoding(batch).astype(np.float64))
        return to_h(SCALE * (mu + sigma_a * h.quantile))

    mu, sigma_a = float64.predict(encoding(states).astype(np.float64))
    r = (h_star - SCALE * mu) / (SCALE * sigma_a)
    np.testing.assert_allclose(residuals(h, states, h_star), r, rtol=1e-12)
    # k = ⌊(n + 1)(1 − α)⌋
    assert h.quantile == pytest.approx(np.sort(r)[int((len(r) + 1) * 0.1) - 1], rel=1e-12)
    assert h.alpha == alpha and "conformal" in repr(h) and f"q={h.quantile:.6g}" in repr(h)
    assert len(np.unique(h(states))) > 3                               # a heuristic, not a constant
    checked = Checked(h, scratch, domain)
    for start in random_walk(domain, 20, rng, n=3):
        result = ida_star(domain, checked, start, node_limit=200_000)
        assert result.solved
        check_plan(domain, start, result.plan)
    assert checked.checked > 1000


def test_quantile_minus_probit_alpha_is_the_plain_heuristic():
    rng = np.random.default_rng(3)
    domain, net = SlidingTile(3), manhattan_net(3, rng)
    states = random_walk(domain, rng.integers(0, 30, 500), rng, n=500)
    start = random_walk(domain, 18, rng)[0]
    for alpha in (0.25, 0.75, 0.9):
        plain = LikelyAdmissible(net, OneHot(domain), alpha)
        conformal = LikelyAdmissible(net, OneHot(domain), alpha, quantile=-norm.ppf(alpha))
        np.testing.assert_array_equal(conformal(states), plain(states))
        np.testing.assert_array_equal(conformal.values(conformal.hidden(states)),
                                      plain.values(plain.hidden(states)))
        a, b = ida_star(domain, plain, start), ida_star(domain, conformal, start)
        assert a.solved and np.array_equal(a.plan, b.plan) and a.generated == b.generated
        assert "conformal" not in repr(plain) and f"α={alpha}" in repr(plain)


def test_quantile_needs_alpha_test_time_and_a_finite_number():
    domain, net = SlidingTile(3), manhattan_net(3, np.random.default_rng(0))
    for kwargs, words in [({"quantile": 1.0}, "needs the α it was calibrated for"),
                          ({"alpha": 0.9, "y_q": 30.0, "quantile": 1.0},
                           "is for the test-time heuristic"),
                          ({"alpha": 0.9, "quantile": np.inf}, "must be a finite number, got inf")]:
        with pytest.raises(ValueError, match=words):
            LikelyAdmissible(net, OneHot(domain), **kwargs)
    states, h_star = random_walk(domain, 10, np.random.default_rng(1), n=20), np.full(20, 10)
    with pytest.raises(ValueError, match="n=20 states is too small for alpha=0.99"):
        conformal_heuristic(net, OneHot(domain), states, h_star, 0.99)
    with pytest.raises(ValueError, match="expected one h\\* per state, 20 of them"):
        conformal_heuristic(net, OneHot(domain), states, h_star[:5], 0.9)
