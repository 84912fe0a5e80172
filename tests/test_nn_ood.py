"""Training with OOD inputs (Heller et al. 2022): L^OOD and its gradients, the batch mix, the two
noises on fact vectors and on features, and the effect that motivates it: low confidence on noise,
accuracy kept."""
from dataclasses import replace

import numpy as np
import pytest

from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.features import OneHot
from la.heller.classifier import Classifier, cross_entropy, log_softmax
from la.heller.classifier_fit import fit, train
from la.heller.config import ClassifierConfig, build_classifier
from la.heller.ood import (UniformNoise, WeightedNoise, input_kind, mixed_loss_and_grads, ood_loss,
                           ood_rows)
from la.heuristics.classical import Manhattan
from la.nn.gradcheck import check_grads, numeric_grad, rel_error, report

TOL = 1e-6


def binomial_ok(freq, p, n, z=5.0):
    """|freq − p| within z binomial standard deviations (plus one count, for p at 0 or 1),
    entrywise."""
    return np.abs(freq - p) <= z * np.sqrt(p * (1 - p) / n) + 1 / n


def test_ood_loss_is_the_cross_entropy_with_the_uniform_target_and_its_gradient_checks():
    rng = np.random.default_rng(0)
    z, w = rng.standard_normal((7, 5)) * 2, rng.dirichlet(np.ones(7))
    loss, dz = ood_loss(z)
    assert loss == pytest.approx(-np.mean(log_softmax(z).sum(axis=1)) / 5, rel=1e-12)
    assert rel_error(dz, numeric_grad(lambda: ood_loss(z)[0], z)) < TOL
    _, dz_w = ood_loss(z, weight=w)
    assert rel_error(dz_w, numeric_grad(lambda: ood_loss(z, weight=w)[0], z)) < TOL
    # f uniform: the minimum, log(H + 1)
    flat = np.full((3, 5), 4.2)
    loss, dz = ood_loss(flat)
    assert loss == pytest.approx(np.log(5), rel=1e-12) and np.abs(dz).max() < 1e-15
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        loss, dz = ood_loss(np.array([[1e4, 0.0, -1e4]]))
    assert loss == pytest.approx(1e4, rel=1e-12) and np.isfinite(dz).all()     # −(0 − 1e4 − 2e4)/3


def test_mixed_loss_is_the_row_mean_of_both_losses_and_its_gradients_check():
    rng = np.random.default_rng(1)
    net = Classifier(5, 3, rng, hidden=(6, 5, 4))
    for name in ("b1", "b2", "b3", "b4"):
        net.params[name] += 0.3 * rng.standard_normal(net.params[name].shape)
    X, c, X_ood = rng.standard_normal((6, 5)), rng.integers(0, 4, 6), rng.standard_normal((9, 5))
    loss, grads = mixed_loss_and_grads(net, X, c, X_ood)
    in_mean, ood_mean = cross_entropy(net.logits(X), c)[0], ood_loss(net.logits(X_ood))[0]
    assert loss == pytest.approx((6 * in_mean + 9 * ood_mean) / 15, rel=1e-12)
    rows = check_grads(lambda: mixed_loss_and_grads(net, X, c, X_ood)[0], net.params, grads)
    assert all(r.rel_error < TOL for r in rows), "\n" + report(rows)
    plain_loss, plain_grads = net.loss_and_grads(X, c)
    empty_loss, empty_grads = mixed_loss_and_grads(net, X, c, np.zeros((0, 5)))
    assert empty_loss == pytest.approx(plain_loss, rel=1e-12)
    for name in plain_grads:
        np.testing.assert_allclose(empty_grads[name], plain_grads[name], rtol=1e-12, atol=1e-15)


def test_ood_rows_give_the_stated_share():
    assert ood_rows(100, 50) == 100                               # the paper's 1:1 ratio
    assert ood_rows(10, 90) == 90                                 # 9:1
    assert ood_rows(75, 25) == 25 and ood_rows(7, 0) == 0
    assert ood_rows(100, 30) == 43                                # round(42.86): 30.07% of 143 rows
    for Y in (-1, 100, 150):
        with pytest.raises(ValueError, match="percentage"):
            ood_rows(10, Y)


class Recording:
    """A sampler that records how many rows each call asked for and draws weighted noise."""

    def __init__(self, X):
        self.noise, self.calls = WeightedNoise(X), []

    def __call__(self, n, rng):
        self.calls.append(n)
        return self.noise(n, rng)


@pytest.mark.parametrize("Y, expected", [(50, [32, 32, 6]), (75, [96, 96, 18]), (20, [8, 8, 2])])
def test_training_batches_carry_exactly_the_stated_noise_rows(Y, expected):
    rng = np.random.default_rng(2)
    x, c = (rng.random((70, 6)) < 0.4).astype(np.float32), rng.integers(0, 3, 70)
    cfg = replace(ClassifierConfig(), hidden=(4, 4, 4), batch_size=32, max_epochs=2, patience=5)
    net, opt = build_classifier(cfg, 6, 2, np.random.default_rng(3))
    sampler = Recording(x)
    train(net, opt, x, c, x[:10], c[:10], cfg, np.random.default_rng(4), sampler, Y)
    # batches of 32, 32, 6 training rows, two epochs
    assert sampler.calls == expected * 2


def test_Y_zero_is_plain_training_and_Y_needs_a_sampler():
    rng = np.random.default_rng(5)
    x, c = (rng.random((50, 6)) < 0.4).astype(np.float32), rng.integers(0, 3, 50)
    cfg = replace(ClassifierConfig(), hidden=(4, 4, 4), batch_size=16, max_epochs=3, folds=5)
    plain, _ = fit(x, c, cfg, np.random.default_rng(6))
    sampler = Recording(x)
    with_sampler, _ = fit(x, c, cfg, np.random.default_rng(6), sampler=sampler, Y=0)
    assert sampler.calls == []
    for name in plain.params:
        np.testing.assert_array_equal(with_sampler.params[name], plain.params[name])
    with pytest.raises(ValueError, match="needs a noise sampler"):
        fit(x, c, cfg, np.random.default_rng(6), Y=50)


def fact_vectors(rng, n=400):
    """Bit rows with per-entry frequencies from 0 to 1, two entries constant."""
    p = np.linspace(0, 1, 12)
    return (rng.random((n, 12)) < p).astype(np.float32), p


def test_uniform_noise_on_fact_vectors_is_a_fair_coin_per_entry():
    x, _ = fact_vectors(np.random.default_rng(7))
    noise = UniformNoise(x)
    assert noise.kind == "binary"
    s = noise(20000, np.random.default_rng(8))
    assert s.shape == (20000, 12) and s.dtype == np.float32 and set(np.unique(s)) == {0.0, 1.0}
    # constant entries too: the paper's ½ for all
    assert binomial_ok(s.mean(axis=0), 0.5, 20000).all()
    np.testing.assert_array_equal(s, noise(20000, np.random.default_rng(8)))
    assert noise(0, np.random.default_rng(8)).shape == (0, 12)


def test_weighted_noise_on_fact_vectors_matches_each_entrys_frequency():
    x, _ = fact_vectors(np.random.default_rng(9))
    noise = WeightedNoise(x)
    p_e = x.mean(axis=0)
    np.testing.assert_allclose(noise.p, p_e)
    s = noise(20000, np.random.default_rng(10))
    assert binomial_ok(s.mean(axis=0), p_e, 20000).all()
    assert (s[:, 0] == 0).all() and (s[:, -1] == 1).all()        # p_e = 0 and 1 exactly
    assert np.abs(s.mean(axis=0) - 0.5).max() > 0.4               # not the uniform noise


def pdb_like_features(rng, n=2000):
    """Three entries like la.features': a PDB value / its scale, a 0/1 indicator, a blank cell /
    9."""
    pdb = np.minimum(rng.poisson(4.0, n), 12) / 12
    indicator = (rng.random(n) < 0.2).astype(float)
    cell = rng.choice([0, 2, 4, 8], n, p=[0.7, 0.1, 0.1, 0.1]) / 9
    return np.stack([pdb, indicator, cell], axis=1).astype(np.float32)


def test_uniform_noise_on_features_is_uniform_over_each_entrys_training_values():
    x = pdb_like_features(np.random.default_rng(11))
    noise = UniformNoise(x)
    assert noise.kind == "features"
    s = noise(30000, np.random.default_rng(12))
    assert s.dtype == np.float32
    for e in range(3):
        values = np.unique(x[:, e])
        drawn, counts = np.unique(s[:, e], return_counts=True)
        # only values the entry takes, each of them
        np.testing.assert_array_equal(drawn, values)
        assert binomial_ok(counts / 30000, 1 / len(values), 30000).all()


def test_weighted_noise_on_features_draws_each_entry_from_its_empirical_marginal():
    x = pdb_like_features(np.random.default_rng(13))
    noise = WeightedNoise(x)
    s = noise(30000, np.random.default_rng(14))
    for e in range(3):
        values, counts = np.unique(x[:, e], return_counts=True)
        drawn, drawn_counts = np.unique(s[:, e], return_counts=True)
        assert set(drawn) <= set(values)
        freq = dict(zip(drawn, drawn_counts / 30000))
        assert binomial_ok(np.array([freq.get(v, 0.0) for v in values]), counts / len(x),
                           30000).all()
    # entries are drawn independently: the joint frequency of two entries is the product of the
    # marginals
    both = np.mean((s[:, 1] == 1) & (s[:, 2] == 0))
    p = np.mean(x[:, 1] == 1) * np.mean(x[:, 2] == 0)
    assert binomial_ok(both, p, 30000)


def test_kind_is_detected_or_chosen_and_bad_inputs_are_refused():
    bits, _ = fact_vectors(np.random.default_rng(15))
    assert (input_kind(bits) == "binary"
            and input_kind(pdb_like_features(np.random.default_rng(0))) == "features")
    # the 0/1 values of each varying entry
    as_features = UniformNoise(bits, kind="features")
    s = as_features(20000, np.random.default_rng(16))
    assert (s[:, 0] == 0).all() and binomial_ok(s[:, 5].mean(), 0.5, 20000)
    with pytest.raises(ValueError, match="all 0 or 1"):
        WeightedNoise(pdb_like_features(np.random.default_rng(0)), kind="binary")
    with pytest.raises(ValueError, match="kind must be"):
        UniformNoise(bits, kind="gaussian")
    with pytest.raises(ValueError, match=r"shape \(n, n_in\)"):
        WeightedNoise(np.zeros(5))
    with pytest.raises(ValueError, match="whole number"):
        UniformNoise(bits)(-1, np.random.default_rng(0))


def test_weighted_noise_training_lowers_confidence_on_noise_and_keeps_accuracy():
    """Heller et al.'s Table 1 in miniature: the 8-puzzle's Manhattan distance classes, standard vs
    W50."""
    domain = make_domain("8-puzzle")
    rng = np.random.default_rng(0)
    states = random_walk(domain, rng.integers(0, 31, 2000), rng, n=2000)
    x, cost = OneHot(domain)(states), Manhattan(domain)(states)
    cfg = replace(ClassifierConfig(), lr=1e-2, batch_size=32, patience=5, max_epochs=60, folds=5)
    noise = WeightedNoise(x)
    s_bar = noise(1000, np.random.default_rng(2))
    standard, h_std = fit(x, cost, cfg, np.random.default_rng(1))
    trained, h_ood = fit(x, cost, cfg, np.random.default_rng(1), sampler=noise, Y=50)
    for history in (h_std, h_ood):
        assert history.val_accuracy[history.best_epoch] >= 0.9
    c_std, c_ood = np.median(standard.predict(s_bar)[1]), np.median(trained.predict(s_bar)[1])
    # 1/(H+1) = 1/23 is the least it can be
    assert c_std > 0.5 and c_ood < 0.2
    # still confident on the training states
    assert np.median(trained.predict(x)[1]) > 0.8
