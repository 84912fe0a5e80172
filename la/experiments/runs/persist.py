"""Save and load an FFNN, a WUNN, a Classifier or an Adam state without pickle: one .npz per object (style
habit 9).

Layout: one array per parameter, keyed by its name (`W1`, `W1_mu`, ...; Adam: `m/<name>`, `v/<name>`, `t`),
plus `__meta__`, a one-element string array holding JSON: the class name, the constructor arguments and, for
the FFNN, the state of its dropout rng. Restoring that rng means a reloaded FFNN draws the same dropout masks
the original would have drawn next, so an interrupted-and-resumed training run matches an uninterrupted one.

`save` writes atomically (`la.io`), so an interrupted run never leaves a half-written file. `pack`/`unpack` give
the same arrays and metadata to callers that store several objects in one file (training checkpoints). `load`
reads with allow_pickle=False and checks that every expected array is present with the expected shape; a problem
raises ValueError naming the file and the key.
"""
import json
import os

import numpy as np

from la.heller.classifier import Classifier
from la.io import write_npz
from la.nn.adam import Adam
from la.nn.ffnn import FFNN
from la.nn.wunn import WUNN

META = "__meta__"
FORMAT = 1


def pack(obj) -> tuple[dict, dict]:
    """An FFNN, WUNN, Classifier or Adam as (arrays keyed by name, JSON-able metadata)."""
    if isinstance(obj, (FFNN, WUNN, Classifier)):
        arrays = dict(obj.params)
        meta = {"config": obj.config()}
        if isinstance(obj, FFNN):
            meta["rng_state"] = obj.rng.bit_generator.state
    elif isinstance(obj, Adam):
        arrays = {**{"m/" + k: a for k, a in obj.m.items()}, **{"v/" + k: a for k, a in obj.v.items()},
                  "t": np.array(obj.t)}
        meta = {"config": obj.config(),
                "shapes": {k: list(a.shape) for k, a in obj.m.items()},
                "dtypes": {k: a.dtype.name for k, a in obj.m.items()}}
    else:
        raise ValueError(f"can only save FFNN, WUNN, Classifier or Adam objects, got {type(obj).__name__}")
    return arrays, json.loads(json.dumps({"class": type(obj).__name__, "format": FORMAT, **meta}, default=_jsonable))


def save(obj, path, about: dict | None = None) -> None:
    """Write an FFNN, WUNN, Classifier or Adam to `path` (.npz), atomically; `about` (JSON) is stored with it: what a
    network was trained on (`la.experiments.runs.network`)."""
    arrays, meta = pack(obj)
    if about is not None:
        meta["about"] = about
    write_npz(path, {**arrays, META: np.array([json.dumps(meta)])})


def load(path, rng: np.random.Generator | None = None):
    """Read an object written by `save`. For an FFNN, `rng` (if given) replaces the saved dropout rng."""
    path = os.fspath(path)
    with _open(path) as data:
        return unpack(_read_meta(data, path), data, path, rng)


def read_about(path) -> dict | None:
    """The `about` saved with the object at `path`; None if it was saved without one."""
    path = os.fspath(path)
    with _open(path) as data:
        return _read_meta(data, path).get("about")


def unpack(meta: dict, data, path: str, rng: np.random.Generator | None = None):
    """The object described by `meta` with its arrays from `data` (anything with `.files` and `[key]`)."""
    cls, config = meta["class"], meta.get("config", {})
    networks = {"FFNN": FFNN, "WUNN": WUNN, "Classifier": Classifier}
    if cls in networks:
        # Any rng will do for construction: every parameter it initialises is overwritten below.
        net = _construct(networks[cls], path, rng=np.random.default_rng(0), **config)
        _fill(net.params, data, path)
        _check_no_extra(data, net.params.keys(), path)
        if cls == "FFNN":
            net.rng = rng if rng is not None else _restore_rng(meta.get("rng_state"), path)
        return net
    if cls == "Adam":
        shapes, dtypes = meta.get("shapes", {}), meta.get("dtypes", {})
        zeros = {k: np.zeros(shape, dtype=dtypes.get(k, "float64")) for k, shape in shapes.items()}
        opt = _construct(Adam, path, params=zeros, **config)
        _fill(opt.m, data, path, prefix="m/")
        _fill(opt.v, data, path, prefix="v/")
        opt.t = int(_fill({"t": np.zeros((), dtype=np.int64)}, data, path)["t"])
        _check_no_extra(data, ["m/" + k for k in shapes] + ["v/" + k for k in shapes] + ["t"], path)
        return opt
    raise ValueError(f"{path}: unknown class {cls!r} in {META}; expected FFNN, WUNN, Classifier or Adam")


def _open(path: str):
    try:
        data = np.load(path, allow_pickle=False)
    except ValueError:                  # neither .npy nor .npz: NumPy takes it for a pickle, which it refuses
        raise ValueError(f"{path}: not an .npz archive written by la.experiments.runs.persist.save") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: a single array, not an .npz archive written by la.experiments.runs.persist.save")
    return data


def _read_meta(data, path: str) -> dict:
    if META not in data.files:
        raise ValueError(f"{path}: missing key '{META}'; not a file written by la.experiments.runs.persist.save")
    try:
        meta = json.loads(str(data[META].reshape(-1)[0]))
    except (ValueError, IndexError) as e:
        raise ValueError(f"{path}: key '{META}' does not hold valid JSON ({e})") from e
    if not isinstance(meta, dict) or "class" not in meta:
        raise ValueError(f"{path}: key '{META}' has no 'class' entry")
    return meta


def _construct(cls, path: str, **kwargs):
    try:
        return cls(**kwargs)
    except TypeError as e:      # unknown or missing constructor argument in the file
        raise ValueError(f"{path}: the arguments in '{META}' do not fit {cls.__name__}: {e}") from e


def _fill(target: dict, data, path: str, prefix: str = "") -> dict:
    """Replace every array of `target` by the file's array of the same key, checking presence and shape."""
    for name, expected in target.items():
        key = prefix + name
        if key not in data.files:
            raise ValueError(f"{path}: missing key '{key}'")
        array = data[key]
        if array.shape != expected.shape:
            raise ValueError(f"{path}: key '{key}' has shape {array.shape}, expected {expected.shape}")
        target[name] = array.astype(expected.dtype)
    return target


def _check_no_extra(data, expected_keys, path: str) -> None:
    extra = sorted(set(data.files) - set(expected_keys) - {META})
    if extra:
        raise ValueError(f"{path}: unexpected key '{extra[0]}' (is this file for another network?)")


def _restore_rng(state, path: str) -> np.random.Generator:
    if not isinstance(state, dict) or not hasattr(np.random, str(state.get("bit_generator"))):
        raise ValueError(f"{path}: key '{META}' has no usable 'rng_state' for the FFNN's dropout rng")
    bit_generator = getattr(np.random, state["bit_generator"])()
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def _jsonable(value):
    """JSON fallback for the numpy arrays and scalars inside some bit generators' states."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in {META}")
