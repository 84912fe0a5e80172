"""The likely-admissible heuristic: y^α, integer rounding, the quantile rule, incremental = from
scratch."""
import math

import numpy as np
import pytest
from scipy.stats import norm

from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.heuristics.likely_admissible import LikelyAdmissible, to_h, y_alpha, z_alpha
from la.nn import FFNN
from la.search import check_plan, ida_star


def constant_net(mu_s: float, phi: float, n_in: int = 128) -> FFNN:
    """A two-output network whose outputs are μ_s and φ for every input."""
    net = FFNN(n_in, 20, 2, np.random.default_rng(0))
    net.params["W2"][:] = 0
    net.params["b2"][:] = [mu_s, phi]
    return net


def test_y_alpha_is_the_alpha_quantile_from_below():
    for alpha in (0.05, 0.5, 0.9, 0.99):
        y = y_alpha(40.0, 3.0, z_alpha(alpha))
        assert norm.sf(y, loc=40.0, scale=3.0) == pytest.approx(alpha)        # P(y^α <= y) = α
    assert y_alpha(40.0, 3.0, z_alpha(0.5)) == 40.0


def test_to_h_rounds_half_to_even_and_floors():
    assert to_h(np.array([0.5, 1.5, 2.5, -3.2, 7.49])).tolist() == [0, 2, 2, 0, 7]
    assert to_h(np.array([1.0, 9.0]), floor=np.array([3, 2])).tolist() == [3, 9]
    assert to_h(np.array([2.0])).dtype == np.int64


def test_test_time_and_training_time_values_by_hand():
    domain = SlidingTile(4)
    states = domain.goal[None]
    net = constant_net(mu_s=4.2, phi=0.3)                # μ = 42 cost units, σ_a = 10·softplus(0.3)
    sigma = 10 * math.log1p(math.exp(0.3))
    z = norm.ppf(0.9)
    test = LikelyAdmissible(net, OneHot(domain), alpha=0.9)
    assert test.values(test.hidden(states))[0] == pytest.approx(42 - sigma * z)
    below = LikelyAdmissible(net, OneHot(domain), alpha=0.9, y_q=50.0)    # μ < y^q: σ_t = σ_a
    assert below.values(below.hidden(states))[0] == pytest.approx(42 - sigma * z)
    # μ >= y^q: σ_t = 1 cost unit
    above = LikelyAdmissible(net, OneHot(domain), alpha=0.9, y_q=40.0)
    assert above.values(above.hidden(states))[0] == pytest.approx(42 - z)
    untrained = LikelyAdmissible(net, OneHot(domain), alpha=0.99, y_q=-math.inf)
    # `NNBayesHeuristic.H`: round(10μ − 2.33)
    assert untrained(states)[0] == round(42 - norm.ppf(0.99))
    mean = LikelyAdmissible(FFNN(128, 20, 1, np.random.default_rng(1)), OneHot(domain))
    assert mean.alpha is None and mean(states).dtype == np.int64


def test_clipped_sigma_and_floor():
    domain = SlidingTile(4)
    # σ_a clipped at softplus(1)
    h = LikelyAdmissible(constant_net(mu_s=0.1, phi=30.0), OneHot(domain), alpha=0.95)
    assert h(domain.goal[None])[0] == 0                                      # 1 − 21.6 floored at 0
    with pytest.raises(ValueError):
        LikelyAdmissible(FFNN(128, 20, 1, np.random.default_rng(1)), OneHot(domain), alpha=0.9)
    with pytest.raises(ValueError):
        LikelyAdmissible(constant_net(1.0, 0.0), OneHot(domain), alpha=1.0)


@pytest.mark.parametrize("width", [3, 4])
@pytest.mark.parametrize("alpha, y_q", [(None, None), (0.9, None), (0.75, 30.0), (0.99, -math.inf)])
def test_incremental_equals_from_scratch(width, alpha, y_q):
    domain, rng = SlidingTile(width), np.random.default_rng(width)
    n_in = 2 * width ** 3
    net = FFNN(n_in, 20, 1 if alpha is None else 2, rng)
    net.params["b2"][0] = 3.0                                      # values around 30 cost units
    h = LikelyAdmissible(net, OneHot(domain), alpha, y_q)
    states = random_walk(domain, rng.integers(0, 80, 2000), rng, n=2000)
    values, carry = h.start(states)
    parent, move, children = domain.expand(states)
    stepped, z1 = h.step(states, values, carry, parent, move)
    np.testing.assert_array_equal(stepped, h(children))
    np.testing.assert_allclose(z1, h.hidden(children), rtol=0, atol=1e-9)


def test_search_with_the_network_returns_legal_plans():
    domain, rng = SlidingTile(4), np.random.default_rng(5)
    net = FFNN(128, 20, 2, rng)
    h = LikelyAdmissible(net, OneHot(domain), alpha=0.9)
    for start in random_walk(domain, 12, rng, n=3):
        result = ida_star(domain, h, start, node_limit=2_000_000)
        assert result.solved
        check_plan(domain, start, result.plan)
