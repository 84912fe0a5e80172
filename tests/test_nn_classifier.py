"""The classification heuristic (Heller et al. 2022): gradients by finite differences, stable
softmax, h^NN and c^NN, folds, early stopping, persistence, and learning the Manhattan distance of
8-puzzle states."""
from dataclasses import replace

import numpy as np
import pytest

from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.features import OneHot
from la.runs.persist import load, save
from la.heller.classifier import (
    Classifier,
    cross_entropy,
    glorot_uniform,
    log_softmax,
    sigmoid_backward,
    sigmoid_forward,
)
from la.heller.classifier_fit import early_stopping, evaluate, fit, fit_folds, split_folds, train
from la.heller.config import ClassifierConfig, build_classifier
from la.heuristics.classical import Manhattan
from la.nn.gradcheck import check_grads, numeric_grad, rel_error, report
from la.nn.layers import softmax

TOL = 1e-6


def small_net(seed=0, H=4):
    """A 5 → (6, 5, 4) → H+1 float64 net, a batch of 11 rows and costs 0..H."""
    rng = np.random.default_rng(seed)
    net = Classifier(5, H, rng, hidden=(6, 5, 4))
    for name in net.params:
        if name.startswith("b"):
            # non-zero biases get checked
            net.params[name] += 0.3 * rng.standard_normal(net.params[name].shape)
    X, c = rng.standard_normal((11, 5)), rng.integers(0, H + 1, 11)
    return net, X, c, rng


def test_params_have_the_documented_keys_shapes_and_initialisation():
    net = Classifier(128, 30, np.random.default_rng(0), hidden=(64, 48, 32), dtype=np.float32)
    shapes = {k: v.shape for k, v in net.params.items()}
    assert shapes == {"W1": (128, 64), "b1": (64,), "W2": (64, 48), "b2": (48,), "W3": (48, 32),
                      "b3": (32,), "W4": (32, 31), "b4": (31,)}
    assert all(v.dtype == np.float32 for v in net.params.values())
    # biases start at 0
    assert not any(net.params[b].any() for b in ("b1", "b2", "b3", "b4"))
    # Glorot-uniform bound
    limit = np.sqrt(6 / (128 + 64))
    assert np.abs(net.params["W1"]).max() <= limit and np.abs(net.params["W1"]).max() > 0.95 * limit
    assert net.config() == {"n_in": 128, "H": 30, "hidden": [64, 48, 32], "dtype": "float32"}


def test_glorot_uniform_and_sigmoid_layer():
    W = glorot_uniform(100, 300, np.random.default_rng(1))
    # Var U(−l, l) = l²/3
    assert W.shape == (100, 300) and abs(W.std() - np.sqrt(2 / 400)) < 0.002
    with pytest.raises(ValueError, match="fan_in"):
        glorot_uniform(0, 3, np.random.default_rng(0))
    rng = np.random.default_rng(2)
    z, G = rng.standard_normal((7, 5)) * 3, rng.standard_normal((7, 5))
    _, cache = sigmoid_forward(z)
    rows = check_grads(lambda: float(np.sum(sigmoid_forward(z)[0] * G)), {"z": z},
                       {"z": sigmoid_backward(G, cache)})
    assert rows[0].rel_error < TOL, report(rows)


def test_softmax_and_log_softmax_are_stable_on_large_logits():
    z = np.array([[1000.0, 0.0, -1000.0], [-1e4, -1e4, -1e4 + np.log(2.0)], [3e5, 3e5, 3e5]])
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        f, log_f = softmax(z), log_softmax(z)
        loss, dz = cross_entropy(z, np.array([2, 0, 1]))
    np.testing.assert_allclose(f, [[1, 0, 0], [0.25, 0.25, 0.5], [1 / 3, 1 / 3, 1 / 3]],
                               rtol=1e-12, atol=0)
    np.testing.assert_allclose(log_f[0], [0.0, -1000.0, -2000.0], rtol=1e-12)
    np.testing.assert_allclose(log_f[1], np.log([0.25, 0.25, 0.5]), rtol=1e-12)
    assert np.isfinite(loss) and np.isfinite(dz).all()
    # −mean log f(s)_c
    assert loss == pytest.approx((2000 + np.log(4) + np.log(3)) / 3, rel=1e-12)
    np.testing.assert_allclose(softmax(z + 1e6), f, rtol=1e-9, atol=0)            # shift invariance


def test_cross_entropy_is_minus_log_f_c_and_its_gradient_checks():
    rng = np.random.default_rng(3)
    z, c, w = rng.standard_normal((9, 6)) * 2, rng.integers(0, 6, 9), rng.dirichlet(np.ones(9))
    loss, dz = cross_entropy(z, c)
    assert loss == pytest.approx(-np.mean(np.log(softmax(z)[np.arange(9), c])), rel=1e-12)
    assert rel_error(dz, numeric_grad(lambda: cross_entropy(z, c)[0], z)) < TOL
    _, dz_w = cross_entropy(z, c, weight=w)
    assert rel_error(dz_w, numeric_grad(lambda: cross_entropy(z, c, weight=w)[0], z)) < TOL


def test_network_gradients_check_by_central_differences():
    net, X, c, rng = small_net()
    _, grads = net.loss_and_grads(X, c)
    rows = check_grads(lambda: net.loss_and_grads(X, c)[0], net.params, grads)
    assert len(rows) == 8 and all(r.rel_error < TOL for r in rows), "\n" + report(rows)
    w = rng.dirichlet(np.ones(11))
    _, grads = net.loss_and_grads(X, c, weight=w)
    rows = check_grads(lambda: net.loss_and_grads(X, c, weight=w)[0], net.params, grads)
    assert all(r.rel_error < TOL for r in rows), "\n" + report(rows)


def test_h_is_argmax_and_c_is_max_on_a_hand_made_case():
    net = Classifier(3, 2, np.random.default_rng(0), hidden=(2, 2, 2))
    for name in net.params:
        # every hidden unit is sigmoid(0) = 1/2 whatever the input
        net.params[name][...] = 0.0
    net.params["b4"][:] = np.log([0.2, 0.5, 0.3])      # so f(s) = (0.2, 0.5, 0.3) for every s
    h, c = net.predict(np.eye(3))
    np.testing.assert_array_equal(h, [1, 1, 1])
    np.testing.assert_allclose(c, 0.5, rtol=1e-12)
    # logit 2 gains 2·½·2 ln 4 = ln 16: f ∝ (0.2, 0.5, 4.8)
    net.params["W4"][:, 2] = 2 * np.log(4.0)
    h, c = net.predict(np.zeros((2, 3)))
    np.testing.assert_array_equal(h, [2, 2])
    np.testing.assert_allclose(c, 4.8 / 5.5, rtol=1e-12)
    assert h.dtype == np.int64


def test_predict_agrees_with_the_softmax_and_leaves_z1_alone():
    rng = np.random.default_rng(4)
    net = Classifier(128, 40, rng, dtype=np.float32)
    X = (rng.random((3, 128)) < 0.25).astype(np.float32)
    h, c = net.predict(X)
    f = net.probabilities(X)
    np.testing.assert_array_equal(h, f.argmax(axis=1))
    np.testing.assert_allclose(c, f.max(axis=1), rtol=1e-6)
    assert h.dtype == np.int64 and c.dtype == np.float32 and c.shape == (3,)
    z1 = net.z1(X)
    kept = z1.copy()
    h1, c1 = net.predict_from_hidden(z1)
    np.testing.assert_array_equal(z1, kept)
    np.testing.assert_array_equal(h1, h)
    np.testing.assert_array_equal(c1, c)
    h64, c64 = net.astype(np.float64).predict(X)
    assert c64.dtype == np.float64 and net.params["W1"].dtype == np.float32
    np.testing.assert_allclose(c64, c, rtol=1e-5)


def test_a_stack_of_blocks_gives_each_blocks_own_prediction():
    """The confidence searches score states in blocks of 4 rows stacked (k, 4, width), in one pass:
    each block's (h, c) must be the bits it gets alone, the sigmoid chosen by a block's size, not
    the stack's."""
    rng = np.random.default_rng(5)
    net = Classifier(20, 30, rng, dtype=np.float32)
    # 1100·4·64 > SMALL
    z1 = net.z1(rng.random((4 * 1100, 20)).astype(np.float32)).reshape(1100, 4, -1)
    h, c = net.predict_from_hidden(z1)
    assert h.shape == c.shape == (1100, 4)
    alone = [net.predict_from_hidden(block) for block in z1]
    np.testing.assert_array_equal(h, [a[0] for a in alone])
    np.testing.assert_array_equal(c, [a[1] for a in alone])


def test_bad_arguments_raise_value_errors_that_name_the_problem():
    net = Classifier(3, 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"expected \(n, 3\)"):
        net.predict(np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"0\.\.H = 0\.\.4"):
        net.loss_and_grads(np.zeros((2, 3)), np.array([1, 5]))
    with pytest.raises(ValueError, match="integers"):
        net.loss_and_grads(np.zeros((2, 3)), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="H >= 1"):
        Classifier(3, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="hidden"):
        Classifier(3, 2, np.random.default_rng(0), hidden=())


def test_folds_partition_the_rows_exactly():
    folds = split_folds(103, 10, np.random.default_rng(5))
    assert len(folds) == 10
    together = np.concatenate(folds)
    # every row once, none twice
    np.testing.assert_array_equal(np.sort(together), np.arange(103))
    assert {len(f) for f in folds} == {10, 11}
    assert not np.array_equal(together, np.arange(103))                         # shuffled
    again = split_folds(103, 10, np.random.default_rng(5))
    assert all(np.array_equal(a, b) for a, b in zip(folds, again))
    for k in (1, 104):
        with pytest.raises(ValueError, match="folds"):
            split_folds(103, k, np.random.default_rng(0))


def test_early_stopping_rule_on_constructed_histories():
    losses = [5.0, 4.0, 3.0, 3.5, 3.2, 3.1]
    assert early_stopping(losses, patience=3) == (2, True)
    assert early_stopping(losses, patience=4) == (2, False)
    assert early_stopping(losses[:3], patience=1) == (2, False)
    # too small to count
    assert early_stopping([1.0, 0.95, 0.92, 0.91], patience=3, min_delta=0.1) == (0, True)
    assert early_stopping([1.0, 0.95, 0.8], patience=3, min_delta=0.1) == (2, False)
    assert early_stopping([2.0, 2.0, 2.0], patience=2) == (0, True)            # ties do not improve
    with pytest.raises(ValueError, match="patience"):
        early_stopping([1.0], patience=0)


def noisy_two_bit_data(n, rng):
    """Cost = x0 + x1 of 8 random bits, 30% of the labels replaced at random: a small training set
    overfits."""
    x = (rng.random((n, 8)) < 0.5).astype(np.float64)
    c = (x[:, 0] + x[:, 1]).astype(np.int64)
    noisy = rng.random(n) < 0.3
    c[noisy] = rng.integers(0, 3, noisy.sum())
    return x, c


def test_training_stops_when_validation_loss_turns_up_and_keeps_the_best_epoch():
    rng = np.random.default_rng(0)
    (xt, ct), (xv, cv) = noisy_two_bit_data(60, rng), noisy_two_bit_data(400, rng)
    cfg = replace(ClassifierConfig(), hidden=(32, 32, 32), lr=1e-2, batch_size=10, patience=5,
                  max_epochs=300, dtype="float64")
    net, opt = build_classifier(cfg, 8, 2, np.random.default_rng(1))
    history = train(net, opt, xt, ct, xv, cv, cfg, np.random.default_rng(2))
    best = history.best_epoch
    assert history.stopped_early and len(history.val_loss) < cfg.max_epochs
    # it learned before it overfitted
    assert best == int(np.argmin(history.val_loss)) >= 5
    assert (len(history.val_loss) == len(history.train_loss) == len(history.val_accuracy)
            == best + cfg.patience + 1)
    # no later epoch was better
    assert min(history.val_loss[best + 1:]) > history.val_loss[best]
    # while training loss kept falling
    assert history.train_loss[-1] < history.train_loss[best]
    loss, accuracy = evaluate(net, xv, cv)
    # the best epoch's params
    assert loss == history.val_loss[best] and accuracy == history.val_accuracy[best]


def test_the_epoch_callback_sees_every_epoch_and_changes_nothing():
    rng = np.random.default_rng(0)
    (xt, ct), (xv, cv) = noisy_two_bit_data(60, rng), noisy_two_bit_data(100, rng)
    cfg = replace(ClassifierConfig(), hidden=(8, 8, 8), lr=1e-2, batch_size=10, patience=3,
                  max_epochs=20)
    runs, seen = [], []
    for on_epoch in (None, lambda at: seen.append((len(at.history.val_loss), at.best))):
        net, opt = build_classifier(cfg, 8, 2, np.random.default_rng(1))
        runs.append((train(net, opt, xt, ct, xv, cv, cfg, np.random.default_rng(2),
                           on_epoch=on_epoch), net))
    (plain, a), (watched, b) = runs
    assert plain == watched and all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert [epochs for epochs, _ in seen] == list(range(1, len(plain.val_loss) + 1))
    # the best epoch so far, as early stopping keeps it
    assert seen[-1][1] == plain.best_epoch


def test_fit_trains_fold_i_exactly_as_fit_folds_does():
    rng = np.random.default_rng(6)
    x, cost = (rng.random((60, 6)) < 0.5).astype(np.float32), rng.integers(0, 4, 60)
    # H is the largest cost of all data
    cost[0] = 5
    cfg = replace(ClassifierConfig(), hidden=(8, 8, 8), folds=3, max_epochs=4, batch_size=16)
    every = fit_folds(x, cost, cfg, np.random.default_rng(7))
    assert len(every) == 3 and all(net.H == 5 for net, _ in every)
    net, history = fit(x, cost, cfg, np.random.default_rng(7), fold=1)
    for name in net.params:
        np.testing.assert_array_equal(net.params[name], every[1][0].params[name])
    assert history.val_loss == every[1][1].val_loss
    assert not np.array_equal(every[0][0].params["W1"], every[1][0].params["W1"])
    with pytest.raises(ValueError, match="fold must be in 0..2"):
        fit(x, cost, cfg, np.random.default_rng(7), fold=3)
    with pytest.raises(ValueError, match="integers >= 0"):
        fit(x, cost - 1, cfg, np.random.default_rng(7))


def test_save_load_round_trip_gives_identical_predictions(tmp_path):
    rng = np.random.default_rng(8)
    net = Classifier(20, 7, rng, hidden=(9, 8, 7), dtype=np.float32)
    for p in net.params.values():
        p += rng.standard_normal(p.shape).astype(np.float32)
    save(net, tmp_path / "classifier.npz")
    back = load(tmp_path / "classifier.npz")
    assert isinstance(back, Classifier) and back.config() == net.config()
    X = (rng.random((50, 20)) < 0.3).astype(np.float32)
    for got, want in zip(back.predict(X), net.predict(X)):
        np.testing.assert_array_equal(got, want)
    assert all(back.params[k].dtype == np.float32 for k in back.params)
    with np.load(tmp_path / "classifier.npz", allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != "W3"}
    np.savez(tmp_path / "broken.npz", **arrays)
    with pytest.raises(ValueError, match="missing key 'W3'"):
        load(tmp_path / "broken.npz")


def test_learns_the_manhattan_distance_of_8_puzzle_states():
    """Inputs: the one-hot of states from random walks of 0..30 steps; classes: their Manhattan
    distance."""
    domain = make_domain("8-puzzle")
    rng = np.random.default_rng(0)
    states = random_walk(domain, rng.integers(0, 31, 2000), rng, n=2000)
    x, cost = OneHot(domain)(states), Manhattan(domain)(states)
    cfg = replace(ClassifierConfig(), lr=1e-2, batch_size=32, patience=5, max_epochs=60, folds=5)
    net, history = fit(x, cost, cfg, np.random.default_rng(1))
    assert net.H == cost.max() >= 15
    # chance: about 1 in 8
    assert history.val_accuracy[history.best_epoch] >= 0.9
    h, c = net.predict(x[:500])
    assert np.mean(h == cost[:500]) >= 0.9 and np.median(c) > 0.8
