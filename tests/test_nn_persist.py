"""Persistence: round trips without pickle, resumption that matches an uninterrupted run, errors
that name the key."""
import json
import os
import re

import numpy as np
import pytest

from la.nn import FFNN, WUNN, Adam
from la.runs import persist
from la.runs.persist import META, load, save


def trained_ffnn(seed=0):
    rng = np.random.default_rng(seed)
    net = FFNN(12, 6, 2, rng, dropout=0.2, dtype=np.float32)
    opt = Adam(net.params, lr=0.01)
    X, y = rng.random((30, 12)).astype(np.float32), rng.uniform(0, 5, 30)
    for _ in range(3):
        opt.step(net.params, net.loss_and_grads(X, y)[1])
    return net, opt, X, y


def rewrite(path, drop=None, replace=None):
    """Copy of an .npz with one key dropped or one array replaced."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k != drop}
    arrays.update(replace or {})
    np.savez(path, **arrays)


def test_ffnn_round_trip_keeps_config_params_dtype_and_predictions(tmp_path):
    net, _, X, _ = trained_ffnn()
    save(net, tmp_path / "ffnn.npz")
    back = load(tmp_path / "ffnn.npz")
    assert isinstance(back, FFNN) and back.config() == net.config()
    for k in net.params:
        assert back.params[k].dtype == np.float32
        np.testing.assert_array_equal(back.params[k], net.params[k])
    np.testing.assert_array_equal(back.predict(X)[1], net.predict(X)[1])


def test_resumed_ffnn_and_adam_continue_exactly_like_an_uninterrupted_run(tmp_path):
    net, opt, X, y = trained_ffnn(1)
    save(net, tmp_path / "net.npz")
    save(opt, tmp_path / "adam.npz")
    net2, opt2 = load(tmp_path / "net.npz"), load(tmp_path / "adam.npz")
    for _ in range(3):                       # dropout masks continue from the saved rng state
        opt.step(net.params, net.loss_and_grads(X, y)[1])
        opt2.step(net2.params, net2.loss_and_grads(X, y)[1])
    for k in net.params:
        np.testing.assert_array_equal(net2.params[k], net.params[k])
    assert opt2.t == opt.t == 6


def test_an_explicit_rng_replaces_the_saved_one(tmp_path):
    net, _, X, y = trained_ffnn(2)
    save(net, tmp_path / "net.npz")
    a = load(tmp_path / "net.npz", rng=np.random.default_rng(7)).loss_and_grads(X, y)[1]
    b = load(tmp_path / "net.npz", rng=np.random.default_rng(7)).loss_and_grads(X, y)[1]
    c = load(tmp_path / "net.npz").loss_and_grads(X, y)[1]
    np.testing.assert_array_equal(a["W1"], b["W1"])
    assert not np.array_equal(a["W1"], c["W1"])


def test_wunn_round_trip(tmp_path):
    rng = np.random.default_rng(3)
    net = WUNN(9, 5, rng, prior_var=4.0, rho_init="constant", rho_0=-4.0)
    net.params["W1_rho"] += rng.standard_normal((9, 5))
    save(net, tmp_path / "wunn.npz")
    back = load(tmp_path / "wunn.npz")
    assert isinstance(back, WUNN) and back.config() == net.config()
    X = rng.random((4, 9))
    np.testing.assert_array_equal(back.predict_exact(X)[1], net.predict_exact(X)[1])


def test_adam_round_trip_keeps_moments_step_and_variant(tmp_path):
    params = {"w": np.ones((2, 3), dtype=np.float32), "b": np.zeros(3, dtype=np.float32)}
    opt = Adam(params, lr=0.01, nesterov=True, frozen_bias_correction=True)
    opt.step(params,
             {"w": np.full((2, 3), 0.5, dtype=np.float32), "b": np.ones(3, dtype=np.float32)})
    save(opt, tmp_path / "adam.npz")
    back = load(tmp_path / "adam.npz")
    assert back.config() == opt.config() and back.t == 1
    for k in params:
        np.testing.assert_array_equal(back.m[k], opt.m[k])
        np.testing.assert_array_equal(back.v[k], opt.v[k])
        assert back.m[k].dtype == np.float32


def test_file_is_plain_npz_with_a_json_meta_entry(tmp_path):
    net, _, _, _ = trained_ffnn()
    save(net, tmp_path / "net.npz")
    with np.load(tmp_path / "net.npz", allow_pickle=False) as data:
        assert sorted(data.files) == sorted(["W1", "b1", "W2", "b2", META])
        meta = json.loads(str(data[META][0]))
    assert meta["class"] == "FFNN" and meta["config"]["dropout"] == 0.2


@pytest.mark.parametrize("key", ["W2", "b1"])
def test_missing_key_raises_an_error_naming_it(tmp_path, key):
    save(FFNN(4, 3, 2, np.random.default_rng(0)), tmp_path / "net.npz")
    rewrite(tmp_path / "net.npz", drop=key)
    with pytest.raises(ValueError, match=f"missing key '{key}'"):
        load(tmp_path / "net.npz")


def test_wrong_shape_raises_an_error_naming_the_key(tmp_path):
    save(WUNN(4, 3, np.random.default_rng(0)), tmp_path / "wunn.npz")
    rewrite(tmp_path / "wunn.npz", replace={"W2_rho": np.zeros((3, 2))})
    with pytest.raises(ValueError, match=r"key 'W2_rho' has shape \(3, 2\), expected \(3, 1\)"):
        load(tmp_path / "wunn.npz")
    opt = Adam({"w": np.zeros(2)})
    save(opt, tmp_path / "adam.npz")
    rewrite(tmp_path / "adam.npz", drop="v/w")
    with pytest.raises(ValueError, match="missing key 'v/w'"):
        load(tmp_path / "adam.npz")


def test_foreign_or_broken_files_are_refused_with_a_clear_error(tmp_path):
    np.savez(tmp_path / "plain.npz", W1=np.zeros(3))
    with pytest.raises(ValueError, match=f"missing key '{META}'"):
        load(tmp_path / "plain.npz")
    save(FFNN(4, 3, 1, np.random.default_rng(0)), tmp_path / "net.npz")
    rewrite(tmp_path / "net.npz", replace={"W1_mu": np.zeros((4, 3))})
    with pytest.raises(ValueError, match="unexpected key 'W1_mu'"):
        load(tmp_path / "net.npz")
    rewrite(tmp_path / "net.npz", replace={META: np.array([json.dumps({"class": "GPT"})])})
    with pytest.raises(ValueError, match="unknown class 'GPT'"):
        load(tmp_path / "net.npz")
    with pytest.raises(ValueError, match="can only save"):
        save({"W1": np.zeros(2)}, tmp_path / "dict.npz")


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path, monkeypatch):
    first = FFNN(4, 3, 1, np.random.default_rng(0))
    save(FFNN(4, 3, 1, np.random.default_rng(1)), tmp_path / "net.npz")
    save(first, tmp_path / "net.npz")                                        # overwrite in place
    assert os.listdir(tmp_path) == ["net.npz"]

    # dies half-way through writing
    def interrupted_savez(f, **arrays):
        f.write(b"PK\x03\x04 half a zip file")
        raise OSError("disk full")

    monkeypatch.setattr(persist.np, "savez", interrupted_savez)
    with pytest.raises(OSError, match="disk full"):
        save(FFNN(4, 3, 1, np.random.default_rng(2)), tmp_path / "net.npz")
    monkeypatch.undo()
    # no temporary file left behind
    assert os.listdir(tmp_path) == ["net.npz"]
    # old file intact
    np.testing.assert_array_equal(load(tmp_path / "net.npz").params["W1"], first.params["W1"])


def test_an_ffnn_keeps_its_target_scale_and_a_file_saved_without_one_reads_as_y_over_10(tmp_path):
    net = FFNN(6, 4, 2, np.random.default_rng(0), scale=20.0)
    save(net, tmp_path / "scaled.npz")
    assert load(tmp_path / "scaled.npz").scale == 20.0
    with np.load(tmp_path / "scaled.npz") as data:
        meta = json.loads(str(data[META][0]))
    # as files written before the scale was
    del meta["config"]["scale"]
    rewrite(tmp_path / "scaled.npz", replace={META: np.array([json.dumps(meta)])})
    assert load(tmp_path / "scaled.npz").scale == 10.0


def rewrite_meta(path, change):
    """Apply `change(metadata)` to the file's `__meta__` JSON."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data[META][0]))
    change(meta)
    rewrite(path, replace={META: np.array([json.dumps(meta)])})


def make(kind):
    from la.heller.classifier import Classifier
    rng = np.random.default_rng(0)
    return {"WUNN": lambda: WUNN(4, 3, rng),
            "Classifier": lambda: Classifier(4, 3, rng, hidden=(5, 6)),
            "Adam": lambda: Adam({"w": np.zeros((2, 3))})}[kind]()


# Issue 39: sizes the metadata claims are compared with the stored arrays before anything that size
# is allocated (10^12 would be a MemoryError), and every stored number must be finite.
DAMAGED = [
    ("WUNN", lambda m: m["config"].update(n_hidden=10**9), {},
     r"key 'W1_mu' has shape \(4, 3\), expected \(4, 10+\)"),
    ("WUNN", lambda m: m["config"].update(n_in=0), {},
     "gives n_in = 0, expected a whole number >= 1"),
    ("Classifier", lambda m: m["config"].update(H=10**12), {},
     r"key 'W3' has shape \(6, 4\), expected \(6, 10+1\)"),
    ("Classifier", lambda m: m["config"].update(hidden=[5, -6]), {}, "gives a hidden width = -6"),
    ("Classifier", lambda m: m["config"].update(hidden="56"), {},
     "expected a list of layer widths"),
    ("Adam", lambda m: m["shapes"].update(w=[10**6, 10**6]), {},
     r"key 'm/w' has shape \(2, 3\), expected \(10+, 10+\)"),
    ("Adam", lambda m: m["shapes"].update(w="big"), {}, "gives the shape of 'w' as 'big'"),
    ("Adam", lambda m: m["dtypes"].update(w="U3"), {},
     "gives dtypes.w dtype 'U3', expected float32 or float64"),
    ("Adam", None, {"v/w": np.full((2, 3), np.inf)}, "key 'v/w' holds NaN or infinite values"),
    ("WUNN", None, {"b1_rho": np.array([0.0, np.nan, 0.0])},
     "key 'b1_rho' holds NaN or infinite values"),
]


@pytest.mark.parametrize("kind, meta, arrays, said", DAMAGED)
def test_damaged_sizes_and_numbers_are_refused_naming_the_file_and_key(kind, meta, arrays, said,
                                                                       tmp_path):
    path = tmp_path / "saved.npz"
    save(make(kind), path)
    assert type(load(path)).__name__ == kind
    if meta is not None:
        rewrite_meta(path, meta)
    rewrite(path, replace=arrays)
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}: .*{said}"):
        load(path)


@pytest.mark.parametrize("state", [{"bit_generator": "default_rng"},
                                   {"bit_generator": "SeedSequence"},
                                   {"bit_generator": "PCG64", "state": "garbage"},
                                   {"bit_generator": "PCG64", "state": {"state": -1, "inc": 1}},
                                   {"bit_generator": "MT19937", "state": {"key": [1, 2], "pos": 0}},
                                   ["PCG64"]])
def test_a_damaged_dropout_rng_state_is_refused_naming_the_file(state, tmp_path):
    """Issue 39, cases 14-15: TypeError, AttributeError, OverflowError, IndexError, ... become one
    ValueError."""
    path = tmp_path / "net.npz"
    save(FFNN(4, 3, 2, np.random.default_rng(0)), path)
    rewrite_meta(path, lambda meta: meta.update(rng_state=state))
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}: key '__meta__' has "
                                         "(no usable|a damaged) 'rng_state'"):
        load(path)


@pytest.mark.parametrize("shape, why", [((10**12,), "MemoryError"), ((10**6,), "ValueError: EOF")])
def test_an_array_whose_own_header_lies_about_its_size_is_refused_naming_it(shape, why, tmp_path):
    """The .npy header inside the archive claims 10^12 (or 10^6) numbers the file does not hold."""
    import io as bytes_io
    import zipfile
    path, lying = tmp_path / "net.npz", tmp_path / "lying.npz"
    save(FFNN(4, 3, 2, np.random.default_rng(0)), path)
    with zipfile.ZipFile(path) as good, zipfile.ZipFile(lying, "w") as bad:
        for member in good.infolist():
            data = good.read(member)
            if member.filename == "W1.npy":
                header = bytes_io.BytesIO()
                np.lib.format.write_array_header_1_0(
                    header, {"descr": "<f8", "fortran_order": False, "shape": shape})
                data = header.getvalue() + bytes(96)
            bad.writestr(member, data)
    with pytest.raises(ValueError,
                       match=f"^{re.escape(str(lying))}: key 'W1' cannot be read \\({why}"):
        load(lying)


# --- a damaged file, for every reader of .npz (issue 58 gaps, item 5) -----------------------------

def _readers():
    """Every reader of an .npz in la, each taking a path (the PDB cache's: tests/test_pdb.py)."""
    from la.experiments.confidence_search import thresholds
    from la.experiments.confidence_config import Row
    from la.rivals.optimal_labels import load_records
    from la.runs.checkpoint import read_state
    from la.runs.folder import _check_file
    from la.runs.network import load_network
    row = Row("softmax", "single", "M", 80)
    return {"load": load, "read_about": persist.read_about, "load_network": load_network,
            "read_state": read_state, "read_arrays": persist.read_arrays,
            "resume's check": _check_file, "load_records": load_records,
            "thresholds": lambda path: thresholds(row, path)}


DAMAGES = {"truncated to half": lambda b: b[:len(b) // 2], "its last byte cut": lambda b: b[:-1],
           "zeroed": lambda b: bytes(len(b)), "empty": lambda b: b"",
           "64 KiB of garbage appended": lambda b: b + b"\x00garbage" * 9000}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("reader", _readers())
def test_a_damaged_npz_is_one_error_naming_the_file_for_every_reader(tmp_path, reader, damage):
    net, _, _, _ = trained_ffnn()
    path = tmp_path / "network.npz"
    save(net, path)
    path.write_bytes(DAMAGES[damage](path.read_bytes()))
    with pytest.raises(ValueError) as refused:
        _readers()[reader](path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_little_garbage_after_a_whole_archive_leaves_its_arrays_as_they_were(tmp_path):
    """zip reads its directory from the end: a few bytes after it hide nothing (each member's
    CRC is checked), so the network reads back whole."""
    net, _, X, _ = trained_ffnn()
    path = tmp_path / "network.npz"
    save(net, path)
    path.write_bytes(path.read_bytes() + b"garbage")
    np.testing.assert_array_equal(load(path).predict(X), net.predict(X))
