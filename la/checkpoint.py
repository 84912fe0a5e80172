"""Checkpoints of a LearnHeuristicPrac run: one .npz written atomically after every iteration.

It holds the FFNN and WUNN with their Adam states, the memory buffer, α, β, y^q, the random generator's
state and the per-iteration log, so that a resumed run continues exactly where the interrupted one stopped.
"""
import json
import math
import zipfile
import zlib
from dataclasses import asdict

import numpy as np

from la.buffer import MemoryBuffer
from la.io import write_npz
from la.nn.persist import pack, unpack

META = "__meta__"
PARTS = ("ffnn", "ffnn_adam", "wunn", "wunn_adam")
META_KEYS = ("domain", "config", "parts", "iteration", "alpha", "beta", "y_q", "trained", "rng", "log")
BUFFER = ("buffer/states", "buffer/labels")


class _Prefixed:
    """The arrays of one part of a checkpoint, seen without their 'part/' prefix (for `la.nn.persist`)."""

    def __init__(self, data, prefix: str):
        self.data, self.prefix = data, prefix
        self.files = [k[len(prefix):] for k in data if k.startswith(prefix)]

    def __getitem__(self, key):
        return self.data[self.prefix + key]


def save_checkpoint(learner, path) -> None:
    """Write everything needed to continue `learner`, atomically."""
    arrays, parts = {}, {}
    for name in PARTS:
        obj = getattr(learner, name)
        if obj is not None:
            part_arrays, parts[name] = pack(obj)
            arrays.update({f"{name}/{k}": a for k, a in part_arrays.items()})
    arrays["buffer/states"], arrays["buffer/labels"] = learner.buffer.states(), learner.buffer.labels()
    meta = {"domain": learner.domain.name, "config": _config_json(learner.config), "parts": parts,
            "iteration": learner.iteration, "alpha": learner.alpha, "beta": learner.beta,
            "y_q": None if math.isinf(learner.y_q) else learner.y_q, "trained": learner.trained,
            "rng": learner.rng.bit_generator.state, "log": learner.log}
    arrays[META] = np.array([json.dumps(meta, default=_plain)])
    write_npz(path, arrays)


def load_checkpoint(path, domain, config):
    """The learner saved at `path`; ValueError if the file is damaged or belongs to another run."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return _restore(data, path, domain, config)
    except (OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not a readable checkpoint ({error})") from None


def check_checkpoint(path) -> None:
    """ValueError naming `path` unless it is a whole checkpoint that `load_checkpoint` can read.

    Checked without knowing the run: every array is read (so a damaged member of the zip shows), the metadata
    holds every entry, each saved network and optimiser state rebuilds from arrays of the right shapes, and the
    buffer's states and labels match. Whether it belongs to the run at hand is `load_checkpoint`'s check.
    """
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
        with data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error) as error:
        raise ValueError(f"{path}: not a readable checkpoint ({error})") from None
    meta = _read_meta(arrays, path)
    for name, part in meta["parts"].items():
        if name not in PARTS or not isinstance(part, dict) or "class" not in part:
            raise ValueError(f"{path}: part '{name}' is not one a checkpoint holds")
        unpack(part, _Prefixed(arrays, name + "/"), path)
    if any(key not in arrays for key in BUFFER):
        raise ValueError(f"{path}: missing the memory buffer ('{BUFFER[0]}', '{BUFFER[1]}')")
    states, labels = arrays["buffer/states"], arrays["buffer/labels"]
    if states.ndim != 2 or labels.ndim != 1 or len(states) != len(labels):
        raise ValueError(f"{path}: the buffer's states {states.shape} and labels {labels.shape} do not match")


def _read_meta(data, path) -> dict:
    """The checkpoint's metadata (`data`: an open .npz or a dict of its arrays), checked for every entry."""
    if META not in data:
        raise ValueError(f"{path}: not a checkpoint (no '{META}')")
    try:
        meta = json.loads(str(data[META].reshape(-1)[0]))
    except (ValueError, IndexError) as error:
        raise ValueError(f"{path}: '{META}' does not hold JSON ({error})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("parts"), dict):
        raise ValueError(f"{path}: '{META}' is not a checkpoint's metadata")
    missing = [key for key in META_KEYS if key not in meta]
    if missing:
        raise ValueError(f"{path}: '{META}' lacks '{missing[0]}'")
    return meta


def _restore(data, path, domain, config):
    from la.learn import Learner
    meta = _read_meta(data, path)
    if meta["domain"] != domain.name or meta["config"] != _config_json(config):
        raise ValueError(f"{path}: the checkpoint belongs to another run (different domain or config)")
    learner = Learner(domain, config, np.random.default_rng(0))
    for name in PARTS:
        if getattr(learner, name) is not None:
            if name not in meta["parts"]:
                raise ValueError(f"{path}: missing part '{name}'")
            setattr(learner, name, unpack(meta["parts"][name], _Prefixed(data, name + "/"), path))
    learner.buffer = MemoryBuffer.from_arrays(config.buffer_size, data["buffer/states"], data["buffer/labels"])
    learner.iteration, learner.alpha, learner.beta = meta["iteration"], meta["alpha"], meta["beta"]
    learner.y_q = -math.inf if meta["y_q"] is None else meta["y_q"]
    learner.trained, learner.log = meta["trained"], meta["log"]
    learner.rng.bit_generator.state = meta["rng"]
    return learner


def _config_json(config) -> dict:
    return json.loads(json.dumps(asdict(config)))


def _plain(value):
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in a checkpoint")
