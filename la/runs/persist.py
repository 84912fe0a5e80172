"""Save and load an FFNN, a WUNN, a Classifier or an Adam state without pickle: one .npz per object
(style habit 9). Heller et al.'s Classifier is registered by `la.heller` (`register`): this room
imports no room above it.

Layout: one array per parameter, keyed by its name (`W1`, `W1_mu`, ...; Adam: `m/<name>`,
`v/<name>`, `t`), plus `__meta__`, a one-element string array holding JSON: the class name, the
constructor arguments and, for the FFNN, the state of its dropout rng. Restoring that rng means a
reloaded FFNN draws the same dropout masks the original would have drawn next, so an
interrupted-and-resumed training run matches an uninterrupted one.

`save` writes atomically (`la.io`), so an interrupted run never leaves a half-written file.
`pack`/`unpack` give the same arrays and metadata to callers that store several objects in one file
(training checkpoints). `load` reads with allow_pickle=False and checks, before it allocates
anything, that the file is a regular file and that every array the metadata implies is present with
the expected shape and finite numbers; a problem raises ValueError naming the file and the key.
"""
import json
import os
import stat
import zipfile
import zlib

import numpy as np

from la.io import write_npz
from la.nn.adam import Adam
from la.nn.ffnn import FFNN
from la.nn.wunn import WUNN

META = "__meta__"
FORMAT = 1


def _ffnn_layout(config: dict, size) -> dict:
    n_in = size(config.get("n_in"), "n_in")
    H, n_out = size(config.get("n_hidden"), "n_hidden"), size(config.get("n_out"), "n_out")
    return {"W1": (n_in, H), "b1": (H,), "W2": (H, n_out), "b2": (n_out,)}


def _wunn_layout(config: dict, size) -> dict:
    n_in, H = size(config.get("n_in"), "n_in"), size(config.get("n_hidden"), "n_hidden")
    layers = {"W1": (n_in, H), "b1": (H,), "W2": (H, 1), "b2": (1,)}
    return {f"{name}_{part}": shape for name, shape in layers.items() for part in ("mu", "rho")}


# The networks this module saves and loads: class name -> (class, the shape of each parameter
# `cls(**config)` allocates, from the config's sizes alone; see `_layout`). A registry: the rooms
# above add their own networks when imported (`la.heller` its Classifier), so that this one imports
# none of them.
NETWORKS = {"FFNN": (FFNN, _ffnn_layout), "WUNN": (WUNN, _wunn_layout)}


def register(cls, layout) -> None:
    """Save and load the network class `cls` as the FFNN and the WUNN are; `layout(config, size)`:
    the shape of each of its parameters, every size read through `size(value, name)`, which checks
    it."""
    NETWORKS[cls.__name__] = (cls, layout)


def _known() -> str:
    """What this module saves: "FFNN, WUNN, ... or Adam"."""
    return f"{', '.join(NETWORKS)} or Adam"


def pack(obj) -> tuple[dict, dict]:
    """An FFNN, WUNN, Classifier or Adam as (arrays keyed by name, JSON-able metadata)."""
    if isinstance(obj, tuple(cls for cls, _ in NETWORKS.values())):
        arrays = dict(obj.params)
        meta = {"config": obj.config()}
        if isinstance(obj, FFNN):
            meta["rng_state"] = obj.rng.bit_generator.state
    elif isinstance(obj, Adam):
        arrays = {**{"m/" + k: a for k, a in obj.m.items()},
                  **{"v/" + k: a for k, a in obj.v.items()},
                  "t": np.array(obj.t)}
        meta = {"config": obj.config(),
                "shapes": {k: list(a.shape) for k, a in obj.m.items()},
                "dtypes": {k: a.dtype.name for k, a in obj.m.items()}}
    else:
        raise ValueError(f"can only save {_known()} objects, got {type(obj).__name__}")
    return arrays, json.loads(json.dumps({"class": type(obj).__name__, "format": FORMAT, **meta},
                                         default=_jsonable))


def save(obj, path, about: dict | None = None) -> None:
    """Write an FFNN, WUNN, Classifier or Adam to `path` (.npz), atomically; `about` (JSON) is
    stored with it: what a network was trained on (`la.runs.network`)."""
    arrays, meta = pack(obj)
    if about is not None:
        meta["about"] = about
    write_npz(path, {**arrays, META: np.array([json.dumps(meta)])})


def load(path, rng: np.random.Generator | None = None):
    """Read an object written by `save`. For an FFNN, `rng` (if given) replaces the saved dropout
    rng."""
    path = os.fspath(path)
    with _open(path) as data:
        return unpack(_read_meta(data, path), data, path, rng)


def read_about(path) -> dict | None:
    """The `about` saved with the object at `path`; None if it was saved without one."""
    path = os.fspath(path)
    with _open(path) as data:
        return _read_meta(data, path).get("about")


def unpack(meta: dict, data, path: str, rng: np.random.Generator | None = None):
    """The object described by `meta` with its arrays from `data` (anything with `.files` and
    `[key]`)."""
    cls, config = meta["class"], meta.get("config", {})
    if not isinstance(config, dict):
        raise ValueError(f"{path}: key '{META}' has a 'config' that is not a JSON object")
    if cls in NETWORKS:
        # The arrays the config implies are checked against the file's first: a damaged config that
        # claims 10^12 inputs would otherwise be allocated (MemoryError) before any shape is
        # compared.
        _check_arrays(_layout(cls, config, path), data, path)
        _check_dtype(config.get("dtype", "float64"), "config", path)
        # Any rng will do for construction: every parameter it initialises is overwritten below.
        net = _construct(NETWORKS[cls][0], path, rng=np.random.default_rng(0), **config)
        _fill(net.params, data, path)
        _check_no_extra(data, net.params.keys(), path)
        if cls == "FFNN":
            net.rng = rng if rng is not None else _restore_rng(meta.get("rng_state"), path)
        return net
    if cls == "Adam":
        shapes, dtypes = _adam_layout(meta, path)
        _check_arrays({**{"m/" + k: s for k, s in shapes.items()},
                       **{"v/" + k: s for k, s in shapes.items()},
                       "t": ()}, data, path)
        zeros = {k: np.zeros(shape, dtype=dtypes.get(k, "float64")) for k, shape in shapes.items()}
        opt = _construct(Adam, path, params=zeros, **config)
        _fill(opt.m, data, path, prefix="m/")
        _fill(opt.v, data, path, prefix="v/")
        opt.t = int(_fill({"t": np.zeros((), dtype=np.int64)}, data, path)["t"])
        _check_no_extra(data, ["m/" + k for k in shapes] + ["v/" + k for k in shapes] + ["t"], path)
        return opt
    raise ValueError(f"{path}: unknown class {cls!r} in {META}; expected {_known()}")


def _open(path: str):
    # (a missing file: FileNotFoundError, as np.load would raise)
    mode = os.stat(path).st_mode
    # opening a FIFO would wait for a writer, reading a device for ever
    if not stat.S_ISREG(mode):
        raise ValueError(f"{path}: {_NOT_REGULAR.get(stat.S_IFMT(mode), 'not a regular file')}, "
                         "not an .npz archive "
                         f"written by la.runs.persist.save")
    try:
        data = np.load(path, allow_pickle=False)
    # neither .npy nor .npz (NumPy takes it for a pickle, which it refuses), or a damaged archive
    except DAMAGED as error:
        raise ValueError(f"{path}: not an .npz archive written by la.runs.persist.save "
                         f"({_reason(error)})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: a single array, "
                         "not an .npz archive written by la.runs.persist.save")
    return data


# what NumPy and zipfile raise on a damaged file (a truncated, zeroed or empty .npz or .npy); a
# system's limit (too few file descriptors) is an OSError, left to say itself
DAMAGED = (ValueError, EOFError, zipfile.BadZipFile, zlib.error)


def _reason(error) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"


def read_arrays(path, what: str = ".npz archive") -> dict:
    """Every array of the .npz archive at `path`, each read whole (a damaged member shows here);
    ValueError naming the file, and `what` it should have been, if it is not a readable one."""
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
        with data:
            return {key: data[key] for key in data.files}
    except (*DAMAGED, MemoryError) as error:        # MemoryError: a header claiming 10^12 entries
        raise ValueError(f"{path}: not a readable {what} ({_reason(error)})") from None


def _read_meta(data, path: str) -> dict:
    if META not in data.files:
        raise ValueError(f"{path}: missing key '{META}'; "
                         "not a file written by la.runs.persist.save")
    stored = _array(data, META, path)
    try:
        meta = json.loads(str(stored.reshape(-1)[0]))
    except (ValueError, IndexError) as e:
        raise ValueError(f"{path}: key '{META}' does not hold valid JSON ({e})") from e
    except RecursionError:                  # JSON nested deeper than Python's stack
        raise ValueError(f"{path}: key '{META}' does not hold valid JSON "
                         "(nested too deeply)") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("class"), str):
        raise ValueError(f"{path}: key '{META}' has no 'class' entry")
    return meta


def _layout(cls: str, config: dict, path: str) -> dict:
    """The shape of each parameter `cls(**config)` allocates (la.nn.ffnn, la.nn.wunn, and the
    networks registered, such as la.heller.classifier), from the config's sizes alone, each checked
    to be a whole number >= 1."""
    def size(value, name: str) -> int:
        if type(value) is not int or value < 1:            # bool is an int subclass: refused too
            raise ValueError(f"{name} = {value!r}, expected a whole number >= 1")
        return value
    try:
        return NETWORKS[cls][1](config, size)
    except ValueError as error:
        raise ValueError(f"{path}: key '{META}' gives {error}") from None


def _adam_layout(meta: dict, path: str) -> tuple[dict, dict]:
    """An Adam state's parameter shapes and dtypes from its metadata, checked to be lists of whole
    numbers and float types."""
    shapes, dtypes = meta.get("shapes", {}), meta.get("dtypes", {})
    if not isinstance(shapes, dict) or not isinstance(dtypes, dict):
        raise ValueError(f"{path}: key '{META}' has damaged 'shapes' or 'dtypes' "
                         "for the Adam state")
    for name, shape in shapes.items():
        if not isinstance(shape, list) or any(type(n) is not int or n < 0 for n in shape):
            raise ValueError(f"{path}: key '{META}' gives the shape of {name!r} as {shape!r}, "
                             "expected a list of "
                             f"whole numbers")
        _check_dtype(dtypes.get(name, "float64"), f"dtypes.{name}", path)
    return {name: tuple(shape) for name, shape in shapes.items()}, dtypes


def _check_dtype(name, where: str, path: str) -> None:
    """Refuse a dtype name that is not a float type (a network computes in float32 or float64)."""
    try:
        floating = np.dtype(name).kind == "f"
    except TypeError:                       # not a dtype name at all
        floating = False
    if not floating:
        raise ValueError(f"{path}: key '{META}' gives {where} dtype {name!r}, "
                         "expected float32 or float64")


def _array(data, key: str, path: str) -> np.ndarray:
    """The file's array `key`; ValueError naming the file and the key if it cannot be read. An
    array's own .npy header may claim more than the file holds: NumPy then fails to allocate it
    (MemoryError) or runs out of data."""
    try:
        return data[key]
    except (*DAMAGED, MemoryError, OSError) as e:
        raise ValueError(f"{path}: key '{key}' cannot be read ({_reason(e)})") from None


def _check_arrays(shapes: dict, data, path: str) -> None:
    """Every array of `shapes` (key -> shape) is in `data` with that shape and holds finite real
    numbers: a NaN weight would make every h NaN, which rounds to -2^63 and sends IDA*'s bounds
    below any cost."""
    for key, shape in shapes.items():
        if key not in data.files:
            raise ValueError(f"{path}: missing key '{key}'")
        array = _array(data, key, path)
        if array.shape != tuple(shape):
            raise ValueError(f"{path}: key '{key}' has shape {array.shape}, "
                             f"expected {tuple(shape)}")
        if array.dtype.kind not in "iuf":
            raise ValueError(f"{path}: key '{key}' holds {array.dtype} values, not real numbers")
        if not np.isfinite(array).all():
            raise ValueError(f"{path}: key '{key}' holds NaN or infinite values "
                             "(a diverged run or a damaged file)")


def _construct(cls, path: str, **kwargs):
    try:
        return cls(**kwargs)
    # an unknown, missing or out-of-range constructor argument in the file
    except (TypeError, ValueError) as e:
        raise ValueError(f"{path}: the arguments in '{META}' do not fit "
                         f"{cls.__name__}: {e}") from None


def _fill(target: dict, data, path: str, prefix: str = "") -> dict:
    """Replace every array of `target` by the file's array of the same key, checked
    (`_check_arrays`)."""
    _check_arrays({prefix + name: expected.shape for name, expected in target.items()}, data, path)
    for name, expected in target.items():
        target[name] = _array(data, prefix + name, path).astype(expected.dtype)
    return target


def _check_no_extra(data, expected_keys, path: str) -> None:
    extra = sorted(set(data.files) - set(expected_keys) - {META})
    if extra:
        raise ValueError(f"{path}: unexpected key '{extra[0]}' (is this file for another network?)")


def _restore_rng(state, path: str) -> np.random.Generator:
    try:
        return generator_from_state(state)
    except ValueError as e:
        raise ValueError(f"{path}: key '{META}' has {e} for the FFNN's dropout rng") from None


def generator_from_state(state) -> np.random.Generator:
    """The generator whose bit generator (PCG64, MT19937, ...) has `state`, as
    `rng.bit_generator.state` gave it; ValueError saying what is wrong with a state that is not
    one."""
    name = state.get("bit_generator") if isinstance(state, dict) else None
    kind = getattr(np.random, name, None) if isinstance(name, str) else None
    # Only a bit generator (PCG64, MT19937, ...) has a state to set: not "default_rng" nor
    # "Generator".
    if not (isinstance(kind, type) and issubclass(kind, np.random.BitGenerator)):
        raise ValueError("no usable 'rng_state'")
    bit_generator = kind()
    try:
        bit_generator.state = state
    # what NumPy raises, by field
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as e:
        raise ValueError(f"a damaged 'rng_state' ({type(e).__name__}: {e})") from None
    return np.random.Generator(bit_generator)


_NOT_REGULAR = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a named pipe (FIFO)",
                stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


def _jsonable(value):
    """JSON fallback for the numpy arrays and scalars inside some bit generators' states."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in {META}")
