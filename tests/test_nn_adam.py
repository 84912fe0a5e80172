"""Adam: Algorithm 1 by hand, the authors' WUNN variant (`AdamOptimizer.Apply`) by formula, and
convergence."""
import numpy as np
import pytest

from la.nn import Adam


def test_first_step_of_algorithm_1_moves_every_entry_by_lr_against_the_gradient_sign():
    params = {"w": np.array([1.0, -2.0, 3.0])}
    opt = Adam(params, lr=0.1)
    opt.step(params, {"w": np.array([0.5, -40.0, 1e-3])})
    # m_hat = g and v_hat = g² after one step, so the step is lr·g/(|g| + ε)
    np.testing.assert_allclose(params["w"], [0.9, -1.9, 2.9], rtol=1e-6)
    assert opt.t == 1


def test_two_steps_match_algorithm_1_written_out():
    g1, g2 = np.array([0.3, -1.0]), np.array([-0.2, 0.5])
    params = {"w": np.zeros(2)}
    opt = Adam(params, lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-8)
    opt.step(params, {"w": g1})
    opt.step(params, {"w": g2})
    theta, m, v = np.zeros(2), np.zeros(2), np.zeros(2)
    for t, g in ((1, g1), (2, g2)):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g ** 2
        theta = theta - 0.01 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    np.testing.assert_allclose(params["w"], theta, rtol=1e-12)
    np.testing.assert_allclose(opt.m["w"], m, rtol=1e-12)
    np.testing.assert_allclose(opt.v["w"], v, rtol=1e-12)


def test_the_authors_wunn_adam_variant_is_the_effective_rule():
    rng = np.random.default_rng(0)
    params = {"W": rng.standard_normal((3, 2)), "b": rng.standard_normal(2)}
    theta = {k: v.copy() for k, v in params.items()}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v_ = {k: np.zeros_like(v) for k, v in params.items()}
    opt = Adam(params, lr=0.01, nesterov=True, frozen_bias_correction=True)
    lr_t = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9)
    assert lr_t == pytest.approx(0.0031623, abs=1e-7)
    for _ in range(6):
        grads = {k: rng.standard_normal(p.shape) for k, p in params.items()}
        opt.step(params, grads)
        for k, g in grads.items():
            m[k] = 0.9 * m[k] + 0.1 * g
            v_[k] = 0.999 * v_[k] + 0.001 * g ** 2
            theta[k] = theta[k] - lr_t * (0.9 * m[k] + 0.1 * g) / (np.sqrt(v_[k]) + 1e-8)
    for k in params:
        np.testing.assert_allclose(params[k], theta[k], rtol=1e-12)


def test_frozen_variant_settles_at_the_constant_step_lr_t():
    params = {"w": np.zeros(1)}
    opt = Adam(params, lr=0.01, nesterov=True, frozen_bias_correction=True)
    for _ in range(20_000):                 # constant gradient: m → g, v → g²
        before = params["w"].copy()
        opt.step(params, {"w": np.array([2.0])})
    assert (before - params["w"])[0] == pytest.approx(0.0031623, rel=1e-4)
    standard = {"w": np.zeros(1)}
    plain = Adam(standard, lr=0.01)
    for _ in range(200):
        before = standard["w"].copy()
        plain.step(standard, {"w": np.array([2.0])})
    assert (before - standard["w"])[0] == pytest.approx(0.01, rel=1e-6)


@pytest.mark.parametrize("nesterov, frozen",
                         [(False, False), (True, False), (False, True), (True, True)])
def test_every_variant_reaches_the_minimum_of_a_quadratic(nesterov, frozen):
    rng = np.random.default_rng(1)
    c, a = rng.standard_normal((4, 3)), rng.uniform(0.1, 10.0, (4, 3))        # f = ½ Σ a (θ − c)²
    params = {"theta": np.zeros((4, 3))}
    opt = Adam(params, lr=0.05, nesterov=nesterov, frozen_bias_correction=frozen)
    for _ in range(3000):
        opt.step(params, {"theta": a * (params["theta"] - c)})
    np.testing.assert_allclose(params["theta"], c, atol=1e-3)


def test_float32_parameters_stay_float32():
    params = {"w": np.ones(3, dtype=np.float32)}
    opt = Adam(params, lr=0.1)
    opt.step(params, {"w": np.ones(3, dtype=np.float32)})
    assert params["w"].dtype == opt.m["w"].dtype == opt.v["w"].dtype == np.float32


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="lr"):
        Adam({"w": np.zeros(1)}, lr=0.0)
    with pytest.raises(ValueError, match="beta1"):
        Adam({"w": np.zeros(1)}, beta1=1.0)
    opt = Adam({"w": np.zeros(1)})
    with pytest.raises(ValueError, match="keys"):
        opt.step({"w": np.zeros(1)}, {"v": np.zeros(1)})
