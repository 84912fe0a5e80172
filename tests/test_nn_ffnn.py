"""The planning network: gradients of both losses by finite differences, the straight-through clip,
behaviour."""
import numpy as np
import pytest

from la.nn import FFNN, Adam
from la.nn.ffnn import gaussian_nll, phi_to_sigma_a, squared_loss
from la.nn.gradcheck import check_grads, numeric_grad, rel_error, report
from la.nn.layers import dropout_mask, softplus

TOL = 1e-6


def small_net(n_out, dropout=0.0, seed=0):
    """A 5-7-n_out float64 net and a batch of 11 rows; φ is kept well inside the clip range."""
    rng = np.random.default_rng(seed)
    net = FFNN(5, 7, n_out, rng, dropout=dropout)
    net.params["W2"] *= 0.3
    net.params["b1"] += 0.1 * rng.standard_normal(7)
    X, y = rng.standard_normal((11, 5)), rng.standard_normal(11)
    return net, X, y, rng


def phi_of(net, X):
    z1 = X @ net.params["W1"] + net.params["b1"]
    return (np.maximum(z1, 0) @ net.params["W2"] + net.params["b2"])[:, 1]


def assert_gradcheck(net, X, y, mask=None):
    _, grads = net.loss_and_grads(X, y, mask=mask)
    rows = check_grads(lambda: net.loss_and_grads(X, y, mask=mask)[0], net.params, grads)
    assert all(r.rel_error < TOL for r in rows), "\n" + report(rows)


def test_params_have_exactly_the_documented_keys_and_shapes():
    for n_out in (1, 2):
        net = FFNN(128, 20, n_out, np.random.default_rng(0))
        shapes = {k: v.shape for k, v in net.params.items()}
        assert shapes == {"W1": (128, 20), "b1": (20,), "W2": (20, n_out), "b2": (n_out,)}
        assert all(v.dtype == np.float64 for v in net.params.values())
        # biases start at 0 (paper §5)
        assert not net.params["b1"].any() and not net.params["b2"].any()


def test_one_output_loss_is_half_squared_error_and_its_gradients_check():
    net, X, y, _ = small_net(1)
    mu, sigma_a = net.predict(X)
    assert sigma_a is None
    loss, _ = net.loss_and_grads(X, y)
    assert loss == pytest.approx(0.5 * np.mean((mu - y) ** 2), rel=1e-12)
    assert_gradcheck(net, X, y)


def test_two_output_loss_is_eq_1_and_its_gradients_check_inside_the_clip_range():
    net, X, y, _ = small_net(2)
    phi = phi_of(net, X)
    assert np.all((phi > -5 + 0.1) & (phi < 1 - 0.1))
    mu, sigma_a = net.predict(X)
    loss, _ = net.loss_and_grads(X, y)
    assert loss == pytest.approx(np.mean((mu - y) ** 2 / (2 * sigma_a ** 2) + np.log(sigma_a)),
                                 rel=1e-12)
    assert_gradcheck(net, X, y)


@pytest.mark.parametrize("n_out", [1, 2])
def test_gradients_check_with_a_fixed_dropout_mask(n_out):
    net, X, y, rng = small_net(n_out, dropout=0.3)
    mask = dropout_mask((11, 7), 0.3, rng)
    assert (mask == 0).any()
    assert_gradcheck(net, X, y, mask=mask)


def test_loss_functions_check_on_their_own():
    rng = np.random.default_rng(1)
    mu, phi, y = rng.standard_normal(9), rng.uniform(-4, 0.5, 9), rng.standard_normal(9)
    _, dmu, dphi = gaussian_nll(mu, phi, y, -5.0, 1.0)
    f = lambda: gaussian_nll(mu, phi, y, -5.0, 1.0)[0]
    assert rel_error(dmu, numeric_grad(f, mu)) < TOL and rel_error(dphi, numeric_grad(f, phi)) < TOL
    _, dmu = squared_loss(mu, y)
    assert rel_error(dmu, numeric_grad(lambda: squared_loss(mu, y)[0], mu)) < TOL


def test_clip_is_straight_through_outside_the_range():
    mu, y = np.array([0.3, 0.3, 0.3, 0.3]), np.array([1.5, 1.5, 0.2, 0.2])
    # two outside the range, each next to its bound
    phi = np.array([3.0, 1.0, -8.0, -5.0])
    loss_terms = [gaussian_nll(mu[i:i + 1], phi[i:i + 1], y[i:i + 1], -5.0, 1.0) for i in range(4)]
    for outside, bound in ((0, 1), (2, 3)):
        # same σ_a, same loss, and the same (non-zero) gradient as at the bound: not the true
        # derivative, 0
        assert loss_terms[outside][0] == loss_terms[bound][0]
        assert loss_terms[outside][2][0] == loss_terms[bound][2][0] != 0.0
        assert loss_terms[outside][1][0] == loss_terms[bound][1][0]
    np.testing.assert_allclose(phi_to_sigma_a(phi, -5.0, 1.0),
                               softplus(np.array([1.0, 1.0, -5.0, -5.0])))


def test_straight_through_in_the_network_gradient():
    net, X, y, _ = small_net(2)
    net.params["b2"][1] = 40.0                                # every φ far above φ_max = 1
    _, grads_far = net.loss_and_grads(X, y)
    # shift so the smallest φ sits exactly at 1
    net.params["b2"][1] = 40.0 - (phi_of(net, X).min() - 1.0)
    assert np.all(phi_of(net, X) >= 1.0)
    _, grads_bound = net.loss_and_grads(X, y)
    for name in grads_far:
        np.testing.assert_allclose(grads_far[name], grads_bound[name], rtol=1e-12, atol=1e-15)
    assert grads_far["b2"][1] != 0.0


def test_dropout_draws_a_fresh_mask_from_the_network_rng_every_call():
    net, X, y, _ = small_net(1, dropout=0.3, seed=2)
    twin, _, _, _ = small_net(1, dropout=0.3, seed=2)
    g1, g2 = net.loss_and_grads(X, y)[1], net.loss_and_grads(X, y)[1]
    assert not np.allclose(g1["W1"], g2["W1"])                # a new mask each step
    # same seed, same masks
    np.testing.assert_array_equal(twin.loss_and_grads(X, y)[1]["W1"], g1["W1"])
    with pytest.raises(ValueError, match="dropout=0"):
        small_net(1)[0].loss_and_grads(X, y, mask=np.ones((11, 7)))


def test_predict_has_no_dropout_and_goes_through_predict_from_hidden():
    net, X, _, _ = small_net(2, dropout=0.5)
    mu, sigma_a = net.predict(X)
    mu2, sigma_a2 = net.predict(X)
    np.testing.assert_array_equal(mu, mu2)
    z1 = X @ net.params["W1"] + net.params["b1"]
    mu3, sigma_a3 = net.predict_from_hidden(z1)
    np.testing.assert_array_equal(mu, mu3)
    np.testing.assert_array_equal(sigma_a, sigma_a3)
    assert mu.shape == sigma_a.shape == (11,)
    assert np.all((sigma_a >= softplus(-5.0)) & (sigma_a <= softplus(1.0)))


def test_float32_networks_stay_float32():
    rng = np.random.default_rng(3)
    net = FFNN(128, 20, 2, rng, dropout=0.025, dtype=np.float32)
    X, y = (rng.random((64, 128)) < 0.25).astype(np.float32), rng.uniform(0, 6, 64)
    loss, grads = net.loss_and_grads(X, y)
    assert np.isfinite(loss)
    assert all(v.dtype == np.float32 for v in list(net.params.values()) + list(grads.values()))
    assert net.predict(X)[0].dtype == np.float32


def test_bad_arguments_raise_value_errors_that_name_the_problem():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="n_out"):
        FFNN(3, 4, 3, rng)
    with pytest.raises(ValueError, match="dropout"):
        FFNN(3, 4, 1, rng, dropout=1.0)
    net = FFNN(3, 4, 2, rng)
    with pytest.raises(ValueError, match=r"expected \(n, 3\)"):
        net.predict(np.zeros((5, 4)))
    with pytest.raises(ValueError, match="y has shape"):
        net.loss_and_grads(np.zeros((5, 3)), np.zeros(4))


def test_two_output_net_recovers_a_known_heteroscedastic_noise_level():
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, 1500)
    sigma_true = lambda x: 0.05 + 0.45 * x ** 2
    y = np.sin(3 * x) + sigma_true(x) * rng.standard_normal(x.size)
    net = FFNN(1, 16, 2, rng)
    opt = Adam(net.params, lr=0.01)
    for _ in range(1500):
        opt.step(net.params, net.loss_and_grads(x[:, None], y)[1])
    grid = np.linspace(-0.9, 0.9, 7)
    mu, sigma_a = net.predict(grid[:, None])
    np.testing.assert_allclose(sigma_a, sigma_true(grid), rtol=0.3)
    np.testing.assert_allclose(mu, np.sin(3 * grid), atol=0.1)


@pytest.mark.parametrize("n_out", [1, 2])
def test_row_weights_equal_repeated_rows(n_out):
    """A row of weight k/B gives the gradient of k copies of it among B rows (no dropout)."""
    rng = np.random.default_rng(3)
    net = FFNN(6, 5, n_out, rng)
    X, y = rng.standard_normal((4, 6)), rng.standard_normal(4)
    rows = np.resize(np.arange(4), 11)                               # 3, 3, 3, 2 copies
    loss_cycled, g_cycled = net.loss_and_grads(X[rows], y[rows])
    loss_weighted, g_weighted = net.loss_and_grads(X, y, weight=np.bincount(rows) / len(rows))
    assert loss_weighted == pytest.approx(loss_cycled, rel=1e-12)
    for name in g_cycled:
        np.testing.assert_allclose(g_weighted[name], g_cycled[name], rtol=1e-10, atol=1e-14)
