"""The WUNN: Eq. (2) and its gradients with fixed noise, the closed-form KL, σ_e sampled and exact,
behaviour."""
import numpy as np
import pytest

from la.nn import WUNN, Adam
from la.nn.gradcheck import check_grads, report
from la.nn.layers import softplus
from la.nn.wunn import gaussian_kl, lrt_backward, lrt_forward

TOL = 1e-6
KEYS = ["W1_mu", "W1_rho", "b1_mu", "b1_rho", "W2_mu", "W2_rho", "b2_mu", "b2_rho"]


def assert_all_pass(rows):
    assert all(r.rel_error < TOL for r in rows), "\n" + report(rows)


def small_wunn(seed=0, **kwargs):
    rng = np.random.default_rng(seed)
    net = WUNN(5, 7, rng, **kwargs)
    X, y = rng.standard_normal((11, 5)), 3 + rng.standard_normal(11)
    return net, X, y, rng


def test_params_have_exactly_the_documented_keys_and_shapes():
    net = WUNN(128, 20, np.random.default_rng(0))
    assert list(net.params) == KEYS
    assert {k: v.shape for k, v in net.params.items()} == {
        "W1_mu": (128, 20), "W1_rho": (128, 20), "b1_mu": (20,), "b1_rho": (20,),
        "W2_mu": (20, 1), "W2_rho": (20, 1), "b2_mu": (1,), "b2_rho": (1,)}


def test_reference_rho_initialisation_scales_the_whole_draw_by_the_he_factor():
    net = WUNN(128, 20, np.random.default_rng(1))
    rho1, rho2 = net.params["W1_rho"], net.params["W2_rho"]
    # ≈ −0.625 (`BayesLayer`)
    assert rho1.mean() == pytest.approx(-5 * np.sqrt(2 / 128), abs=0.02)
    assert rho1.std() == pytest.approx(np.sqrt(2 / 128), abs=0.01)            # ≈ 0.125
    assert rho2.mean() == pytest.approx(-5 * np.sqrt(2 / 20), abs=0.15)       # ≈ −1.58
    assert softplus(rho1).mean() == pytest.approx(0.43, abs=0.02)
    assert np.all(net.params["b1_rho"] == -5) and np.all(net.params["b2_rho"] == -5)
    assert not net.params["b1_mu"].any()
    const = WUNN(128, 20, np.random.default_rng(1), rho_init="constant")
    assert np.all(const.params["W1_rho"] == -5) and np.all(const.params["W2_rho"] == -5)
    with pytest.raises(ValueError, match="rho_init"):
        WUNN(3, 2, np.random.default_rng(0), rho_init="paper")


def test_closed_form_kl_agrees_with_monte_carlo():
    rng = np.random.default_rng(2)
    mu, sigma = rng.normal(0.5, 1.0, 4), rng.uniform(0.1, 2.0, 4)
    kl, _, _ = gaussian_kl(mu, sigma, 0.0, 10.0)
    w = mu + sigma * rng.standard_normal((400_000, 4))                       # w ~ q
    log_q = -0.5 * ((w - mu) / sigma) ** 2 - np.log(sigma)
    # common constants cancel
    log_p = -0.5 * w ** 2 / 10.0 - 0.5 * np.log(10.0)
    estimate = np.sum(np.mean(log_q - log_p, axis=0))
    assert estimate == pytest.approx(kl, rel=0.01)
    assert (gaussian_kl(np.zeros(3), np.full(3, np.sqrt(10.0)), 0.0, 10.0)[0]
            == pytest.approx(0.0, abs=1e-12))


def test_kl_gradients_check():
    net, _, _, _ = small_wunn(3)
    _, grads = net.kl()
    assert_all_pass(check_grads(lambda: net.kl()[0], net.params, grads))


@pytest.mark.parametrize("a_shape", [(6, 4), (3, 6, 4)], ids=["shared-input", "per-sample-input"])
def test_lrt_layer_gradients_check(a_shape):
    rng = np.random.default_rng(4)
    arrays = {"a": rng.standard_normal(a_shape), "W_mu": rng.standard_normal((4, 5)),
              "W_rho": rng.normal(-1, 0.5, (4, 5)), "b_mu": rng.standard_normal(5),
              "b_rho": rng.normal(-2, 0.5, 5)}
    xi, G = rng.standard_normal((3, 6, 5)), rng.standard_normal((3, 6, 5))
    f = lambda: float(np.sum(lrt_forward(**arrays, xi=xi)[0] * G))
    _, cache = lrt_forward(**arrays, xi=xi)
    da, dW_mu, dW_rho, db_mu, db_rho = lrt_backward(G, cache)
    grads = {"a": da, "W_mu": dW_mu, "W_rho": dW_rho, "b_mu": db_mu, "b_rho": db_rho}
    assert_all_pass(check_grads(f, arrays, grads))


@pytest.mark.parametrize("rho_init", ["reference", "constant"])
def test_whole_objective_gradients_check_with_fixed_noise(rho_init):
    net, X, y, rng = small_wunn(5, rho_init=rho_init)
    xi = net.sample_xi(4, len(X), rng)
    _, grads = net.loss_and_grads(X, y, 0.05, xi)
    assert list(grads) == KEYS
    assert_all_pass(check_grads(lambda: net.loss_and_grads(X, y, 0.05, xi)[0], net.params, grads))


def test_objective_is_beta_kl_plus_mean_half_squared_error():
    net, X, y, rng = small_wunn(6)
    xi = net.sample_xi(5, len(X), rng)
    y_hat, _ = net.forward(X, xi)                                            # (S, B)
    loss, _ = net.loss_and_grads(X, y, 0.3, xi)
    expected = 0.3 * net.kl()[0] - np.mean(np.mean(-0.5 * (y_hat - y) ** 2, axis=0))
    assert loss == pytest.approx(expected, rel=1e-12)


def test_noise_shapes_are_checked():
    net, X, y, rng = small_wunn(7)
    with pytest.raises(ValueError, match=r"xi\[1\]"):
        net.loss_and_grads(X, y, 0.1, [np.zeros((2, 11, 7)), np.zeros((3, 11, 1))])
    with pytest.raises(ValueError, match=r"xi\[0\]"):
        net.loss_and_grads(X, y, 0.1, [np.zeros((2, 10, 7)), np.zeros((2, 11, 1))])


def test_predict_is_the_training_forward_pass_with_the_same_noise():
    net, X, _, _ = small_wunn(8)
    K = 50
    mean, sigma_e = net.predict(X, K, np.random.default_rng(9))
    # predict's draws, in its order
    noise = np.random.default_rng(9)
    xi = [noise.standard_normal((K, 11, 7)), noise.standard_normal((K, 11, 1))]
    y_hat, _ = net.forward(X, xi)
    np.testing.assert_allclose(mean, y_hat.mean(axis=0), rtol=1e-10)
    np.testing.assert_allclose(sigma_e, y_hat.std(axis=0), rtol=1e-8)       # population std


def test_closed_form_agrees_with_sampling_actual_weights():
    net, X, _, rng = small_wunn(10)
    mean, sigma_e = net.predict_exact(X)
    N, p, sigma = 100_000, net.params, net.sigmas()
    draw = lambda name: (p[name + "_mu"]
                         + sigma[name] * rng.standard_normal((N,) + p[name + "_mu"].shape))
    # no local reparameterisation
    W1, b1, W2, b2 = draw("W1"), draw("b1"), draw("W2"), draw("b2")
    h = np.maximum(np.einsum("ni,sij->snj", X, W1) + b1[:, None, :], 0)
    y_hat = np.einsum("snj,sjk->snk", h, W2)[..., 0] + b2                    # (N, n)
    np.testing.assert_allclose(mean, y_hat.mean(axis=0), atol=4 * sigma_e.max() / np.sqrt(N) + 1e-3)
    np.testing.assert_allclose(sigma_e, y_hat.std(axis=0), rtol=0.02)


def test_sampled_sigma_e_converges_to_the_closed_form_as_k_grows():
    rng = np.random.default_rng(11)
    net = WUNN(16, 20, rng)
    X = (rng.random((40, 16)) < 0.3).astype(float)
    _, exact = net.predict_exact(X)
    errors = [np.mean(np.abs(net.predict(X, K, rng)[1] / exact - 1))
              for K in (10, 100, 1000, 20_000)]
    assert errors[0] > errors[1] > errors[2] > errors[3]
    # ≈ 1/√(2K) relative error
    assert errors[1] < 0.15 and errors[3] < 0.01


def test_predict_chunks_rows_and_is_reproducible():
    net, X, _, _ = small_wunn(12, dtype=np.float32)
    a = net.predict(X, 30, np.random.default_rng(0), chunk_rows=4)
    b = net.predict(X, 30, np.random.default_rng(0), chunk_rows=4)
    np.testing.assert_array_equal(a[1], b[1])
    assert a[0].dtype == np.float64 and a[1].shape == (11,)
    c = net.predict(X, 20_000, np.random.default_rng(1), chunk_rows=3)
    np.testing.assert_allclose(c[1], net.predict_exact(X)[1], rtol=0.03)
    with pytest.raises(ValueError, match="K must be"):
        net.predict(X, 0, np.random.default_rng(0))


def test_sigma_e_is_several_times_larger_far_from_the_training_inputs():
    """Train on binary inputs that only use bits 0-7; 'far' inputs use only bits 8-15, never
    seen."""
    rng = np.random.default_rng(13)

    def inputs(n, first_bit):
        X = np.zeros((n, 16))
        np.put_along_axis(X, first_bit + rng.integers(0, 8, (n, 3)), 1.0, axis=1)
        return X

    X_train, X_far = inputs(200, 0), inputs(200, 8)
    y_train = X_train[:, :8] @ np.arange(1.0, 9.0)
    net = WUNN(16, 10, rng)
    opt = Adam(net.params, lr=0.01, nesterov=True, frozen_bias_correction=True)
    for _ in range(1000):
        batch = rng.choice(200, 50, replace=False)
        opt.step(net.params,
                 net.sample_loss_and_grads(X_train[batch], y_train[batch], 0.001, 5, rng)[1])
    on, far = net.predict(X_train, 100, rng)[1], net.predict(X_far, 100, rng)[1]
    assert np.median(far) > 5 * np.median(on)
    assert far.min() > 3 * on.max()
