"""The NN evaluators of the confidence searches (la.heller.evaluators) and the supervised fit of the
σ networks (la.heller.uncertainty_fit): h^NN from the classifier whatever the signal, the one-hot's
gathered first layer equal to the product, c = −σ ordered as σ reversed so that thresholds keep the
least uncertain states, the fits keep their best epoch."""
from dataclasses import replace

import numpy as np
import pytest

from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.heller.classifier import Classifier
from la.heller.evaluators import CHUNK, NNEvaluator, SigmaA, SigmaE
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold
from la.heller.uncertainty_fit import (SupervisedConfig, ffnn_val_loss, fit_ffnn, fit_wunn,
                                       wunn_val_loss)
from la.heuristics.classical import Manhattan
from la.nn import FFNN, WUNN
from la.nn.config import FFNNConfig, WUNNConfig, build_ffnn, build_wunn

FIFTEEN = SlidingTile(4)


class Plain:
    """An encoding that is not the one-hot: each state's numbers as floats (enough for the
    evaluator)."""

    def __init__(self, domain):
        self.domain, self.size = domain, domain.size

    def __call__(self, states):
        return np.asarray(states, dtype=np.float32)


def states(n, seed=0):
    rng = np.random.default_rng(seed)
    return random_walk(FIFTEEN, rng.integers(0, 80, n), rng, n=n)


def classifier(n_in=128, H=40, seed=1, dtype=np.float64):
    return Classifier(n_in, H, np.random.default_rng(seed), hidden=(12, 10, 8), dtype=dtype)


def test_the_one_hot_gather_gives_the_classifiers_own_h_and_c():
    net, s = classifier(), states(300)
    h, c = NNEvaluator(net, OneHot(FIFTEEN))(s)
    h_ref, c_ref = net.predict(OneHot(FIFTEEN)(s))
    assert h.dtype == np.int64 and c.dtype == np.float64 and h.shape == c.shape == (300,)
    np.testing.assert_array_equal(h, h_ref)
    np.testing.assert_allclose(c, c_ref, rtol=1e-12)
    np.testing.assert_allclose(NNEvaluator(net, OneHot(FIFTEEN)).z1(s), net.z1(OneHot(FIFTEEN)(s)),
                               atol=1e-12)


def test_any_other_encoding_goes_through_the_product_and_a_large_batch_through_chunks():
    net, s = classifier(n_in=16), states(CHUNK + 7, seed=2)
    h, c = NNEvaluator(net, Plain(FIFTEEN))(s)
    h_ref, c_ref = net.predict(s.astype(np.float64))
    np.testing.assert_array_equal(h, h_ref)
    np.testing.assert_allclose(c, c_ref, rtol=1e-12)
    assert ((0 < c) & (c <= 1)).all()


@pytest.mark.parametrize("encoding", [OneHot(FIFTEEN), Plain(FIFTEEN)], ids=["one-hot", "product"])
def test_a_states_value_is_the_same_bits_in_any_batch(encoding):
    """The thresholds are percentiles of the training states' confidences, scored thousands at a
    time; a search scores a few children at a time. Without fixed blocks a third of these states' c
    moved in the last bit with the batch's size (OpenBLAS: gemv for one row, gemm split by size),
    enough to flip a state at its threshold."""
    rng = np.random.default_rng(13)
    # the experiment's shape
    net = Classifier(encoding.size, 350, rng, hidden=(64, 64, 64), dtype=np.float32)
    s = states(600, seed=14)
    for signal in (None, SigmaE(WUNN(encoding.size, 20, rng)),
                   SigmaA(FFNN(encoding.size, 20, 2, rng))):
        evaluator = NNEvaluator(net, encoding, signal)
        h, c = evaluator(s)                                       # one call, as the training states
        for size in (1, 2, 3, 5, 23, 100):                      # as a search's children, or batched
            parts = [evaluator(s[i:i + size]) for i in range(0, len(s), size)]
            np.testing.assert_array_equal(np.concatenate([p[0] for p in parts]), h)
            np.testing.assert_array_equal(np.concatenate([p[1] for p in parts]), c)    # bit for bit
        if signal is not None:
            # as the experiment scores training states
            np.testing.assert_array_equal(signal(encoding(s)), c)
    assert NNEvaluator(net, encoding)(s[:0])[0].shape == (0,)


def test_the_sigma_signals_keep_h_and_give_minus_sigma():
    s = states(200, seed=3)
    net = classifier()
    wunn = WUNN(128, 6, np.random.default_rng(4))
    ffnn = FFNN(128, 6, 2, np.random.default_rng(5))
    encoding = OneHot(FIFTEEN)
    h, _ = NNEvaluator(net, encoding)(s)
    h_e, c_e = NNEvaluator(net, encoding, SigmaE(wunn))(s)
    h_a, c_a = NNEvaluator(net, encoding, SigmaA(ffnn))(s)
    np.testing.assert_array_equal(h_e, h)                     # only the confidence changes
    np.testing.assert_array_equal(h_a, h)
    X = encoding(s)
    np.testing.assert_allclose(c_e, -wunn.predict_exact(X)[1], rtol=1e-12)
    # σ_a in cost units (y/10 learnt)
    np.testing.assert_allclose(c_a, -10 * ffnn.predict(X)[1], rtol=1e-6)
    assert (c_e < 0).all() and (c_a < 0).all() and np.ptp(c_e) > 0


def test_thresholds_on_minus_sigma_keep_the_least_uncertain_states():
    """A state is confident exactly when its σ is at most the (100 − X)-th percentile of the
    training σ: the thresholds of Heller et al. apply to −σ unchanged."""
    s = states(500, seed=6)
    wunn = WUNN(128, 6, np.random.default_rng(7))
    evaluator = NNEvaluator(classifier(), OneHot(FIFTEEN), SigmaE(wunn))
    h, c = evaluator(s)
    sigma = wunn.predict_exact(OneHot(FIFTEEN)(s))[1]
    for X in (5, 40, 80):
        keep = MeanThreshold.from_training(c, X).confident(h, c)
        np.testing.assert_array_equal(keep, sigma <= np.percentile(sigma, 100 - X))
        assert abs((~keep).mean() - X / 100) < 0.01
    costs = Manhattan(FIFTEEN)(s)
    adaptive = AdaptiveThreshold.from_training(c, costs, 40)
    assert abs((~adaptive.confident(costs, c)).mean() - 0.4) < 0.02


def test_mismatched_networks_are_refused():
    with pytest.raises(ValueError, match="two-output"):
        SigmaA(FFNN(128, 6, 1, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="classifier has 16 inputs"):
        NNEvaluator(classifier(n_in=16), OneHot(FIFTEEN))
    with pytest.raises(ValueError, match="σ network has 16 inputs"):
        NNEvaluator(classifier(), OneHot(FIFTEEN), SigmaE(WUNN(16, 4, np.random.default_rng(0))))


# --- the supervised fit of the FFNN and the WUNN --------------------------------------------------

@pytest.fixture(scope="module")
def md_data():
    """8-puzzle one-hot inputs labelled with Manhattan distance: training rows and a validation
    fold."""
    eight = SlidingTile(3)
    rng = np.random.default_rng(8)
    s = random_walk(eight, rng.integers(0, 30, 1200), rng, n=1200)
    X, y = OneHot(eight)(s), Manhattan(eight)(s)
    return X[:1000], y[:1000], X[1000:], y[1000:]


def test_the_ffnn_fit_learns_and_keeps_its_best_epoch(md_data):
    X, y, X_val, y_val = md_data
    cfg = SupervisedConfig(max_epochs=12, patience=3)
    net, opt = build_ffnn(replace(FFNNConfig(), n_hidden=16, dropout=0.0), X.shape[1],
                          np.random.default_rng(9))
    before = ffnn_val_loss(net, X_val, y_val / 10)
    history = fit_ffnn(net, opt, X, y, X_val, y_val, cfg, np.random.default_rng(10))
    assert ffnn_val_loss(net, X_val, y_val / 10) == pytest.approx(min(history.val_loss), rel=1e-5)
    assert history.val_loss[history.best_epoch] == min(history.val_loss) < before
    mu, _ = net.predict(X_val)
    assert np.mean(np.abs(10 * mu - y_val)) < 1.5           # learnt MD in cost units (y/10 targets)
    seen = []
    net, opt = build_ffnn(replace(FFNNConfig(), n_hidden=16, dropout=0.0), X.shape[1],
                          np.random.default_rng(9))
    again = fit_ffnn(net, opt, X, y, X_val, y_val, cfg, np.random.default_rng(10),
                     on_epoch=lambda at: seen.append((len(at.history.val_loss), at.best)))
    assert again == history and seen == [(e + 1, seen[e][1]) for e in range(len(history.val_loss))]
    assert seen[-1][1] == history.best_epoch                         # a progress line only reads


def test_the_wunn_fit_learns_and_keeps_its_best_epoch(md_data):
    X, y, X_val, y_val = md_data
    cfg = SupervisedConfig(max_epochs=8, patience=3)
    net, opt = build_wunn(replace(WUNNConfig(), n_hidden=16), X.shape[1], np.random.default_rng(11))
    before = wunn_val_loss(net, X_val, y_val, cfg.beta)
    history = fit_wunn(net, opt, X, y, X_val, y_val, cfg, np.random.default_rng(12), S=5)
    assert (wunn_val_loss(net, X_val, y_val, cfg.beta)
            == pytest.approx(min(history.val_loss), rel=1e-5))
    assert min(history.val_loss) < before and len(history.train_loss) == len(history.val_loss)
    with pytest.raises(ValueError, match="as many labels"):
        fit_wunn(net, opt, X, y[:-1], X_val, y_val, cfg, np.random.default_rng(0), S=5)
