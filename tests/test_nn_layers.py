"""Layers by hand: every backward pass against central differences, plus the small contracts of each
layer."""
import numpy as np
import pytest

from la.nn.gradcheck import GradCheck, check_grads, numeric_grad, rel_error, report
from la.nn.layers import (dense_backward, dense_forward, dropout_backward, dropout_forward,
                          dropout_mask, he_normal, relu_backward, relu_forward, sigmoid, softplus,
                          softplus_grad)

TOL = 1e-6


def assert_all_pass(rows):
    assert all(r.rel_error < TOL for r in rows), "\n" + report(rows)


@pytest.mark.parametrize("lead", [(), (3,)], ids=["batch", "samples-batch"])
def test_dense_backward_matches_finite_differences(lead):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(lead + (6, 4))                   # (..., B, n_in)
    W, b = rng.standard_normal((4, 5)), rng.standard_normal(5)
    G = rng.standard_normal(lead + (6, 5))                   # the loss is Σ z ⊙ G, so dz = G
    _, cache = dense_forward(a, W, b)
    da, dW, db = dense_backward(G, cache)
    arrays = {"a": a, "W": W, "b": b}
    assert_all_pass(check_grads(lambda: float(np.sum(dense_forward(a, W, b)[0] * G)), arrays,
                                {"a": da, "W": dW, "b": db}))


def test_dense_backward_can_skip_the_input_gradient():
    rng = np.random.default_rng(1)
    a, W, b = rng.standard_normal((6, 4)), rng.standard_normal((4, 5)), np.zeros(5)
    _, cache = dense_forward(a, W, b)
    da, dW, _ = dense_backward(np.ones((6, 5)), cache, need_da=False)
    assert da is None and dW.shape == (4, 5)


def test_relu_backward_matches_finite_differences():
    rng = np.random.default_rng(2)
    z = rng.standard_normal((7, 5))
    z[np.abs(z) < 0.05] = 0.5                                # keep every entry away from the kink
    G = rng.standard_normal((7, 5))
    _, cache = relu_forward(z)
    assert_all_pass(check_grads(lambda: float(np.sum(relu_forward(z)[0] * G)), {"z": z},
                                {"z": relu_backward(G, cache)}))


def test_dropout_backward_matches_finite_differences_and_applies_the_mask():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((50, 8))
    mask = dropout_mask(a.shape, 0.3, rng)
    G = rng.standard_normal((50, 8))
    _, cache = dropout_forward(a, mask)
    da = dropout_backward(G, cache)
    assert_all_pass(check_grads(lambda: float(np.sum(dropout_forward(a, mask)[0] * G)), {"a": a},
                                {"a": da}))
    # dropped units: no gradient, unlike `FastNN.Backward`
    assert np.all(da[mask == 0] == 0)
    np.testing.assert_allclose(da[mask > 0], G[mask > 0] / 0.7)


def test_dropout_mask_is_inverted_and_reproducible():
    mask = dropout_mask((400, 250), 0.2, np.random.default_rng(4))
    assert set(np.unique(mask)) == {0.0, 1 / 0.8}
    assert abs(np.mean(mask == 0) - 0.2) < 0.01
    # E[mask] = 1: no rescaling needed at prediction
    assert abs(mask.mean() - 1.0) < 0.01
    np.testing.assert_array_equal(mask, dropout_mask((400, 250), 0.2, np.random.default_rng(4)))
    assert np.all(dropout_mask((3, 3), 0.0, np.random.default_rng(4)) == 1)


@pytest.mark.parametrize("p", [-0.1, 1.0, 1.5])
def test_dropout_mask_rejects_bad_probability(p):
    with pytest.raises(ValueError, match="dropout probability"):
        dropout_mask((2, 2), p, np.random.default_rng(0))


def test_he_normal_scale_dtype_and_determinism():
    W = he_normal(128, 400, np.random.default_rng(5))
    assert W.shape == (128, 400) and W.dtype == np.float64
    assert abs(W.std() - np.sqrt(2 / 128)) < 0.005 and abs(W.mean()) < 0.005
    W32 = he_normal(128, 400, np.random.default_rng(5), np.float32)
    assert W32.dtype == np.float32
    np.testing.assert_allclose(W32, W, rtol=1e-6)            # same draws, whatever the dtype
    with pytest.raises(ValueError, match="fan_in"):
        he_normal(0, 3, np.random.default_rng(0))


def test_softplus_and_sigmoid_are_stable_and_correct():
    x = np.array([-1000.0, -30.0, -1.0, 0.0, 1.0, 30.0, 1000.0])
    # underflow to 0 is the right answer
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        sp, sg = softplus(x), sigmoid(x)
    np.testing.assert_allclose(sp[2:6], np.log1p(np.exp(x[2:6])), rtol=1e-12)
    assert sp[0] == 0.0 and sp[-1] == 1000.0
    np.testing.assert_allclose(sg[2:6], 1 / (1 + np.exp(-x[2:6])), rtol=1e-12)
    assert sg[0] == 0.0 and sg[-1] == 1.0
    np.testing.assert_allclose(softplus(np.float32(-5.0)), 0.006715348, rtol=1e-6)   # σ_b at ρ = −5


def test_softplus_grad_is_the_derivative_of_softplus():
    x = np.linspace(-6, 6, 25)
    assert rel_error(softplus_grad(x), numeric_grad(lambda: float(np.sum(softplus(x))), x)) < TOL


def test_gradcheck_reports_one_line_per_parameter_and_flags_failures():
    x = np.array([1.0, 2.0])
    rows = check_grads(lambda: float(np.sum(x ** 2)), {"x": x}, {"x": 2 * x})
    assert rows[0].rel_error < TOL and rows[0].ok
    bad = check_grads(lambda: float(np.sum(x ** 2)), {"x": x}, {"x": 3 * x})
    assert not bad[0].ok
    text = report(rows + [GradCheck("y", 1.0, 2.0, 0.3)])
    lines = text.splitlines()
    assert (len(lines) == 3 and "rel. error" in lines[0] and lines[1].startswith("x ")
            and "FAILS" in lines[2])
    # the check restores every entry it perturbs
    np.testing.assert_array_equal(x, [1.0, 2.0])


def test_gradcheck_refuses_float32_and_mismatched_keys():
    with pytest.raises(ValueError, match="float64"):
        numeric_grad(lambda: 0.0, np.zeros(2, dtype=np.float32))
    with pytest.raises(ValueError, match="keys"):
        check_grads(lambda: 0.0, {"a": np.zeros(2)}, {"b": np.zeros(2)})
