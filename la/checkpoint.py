"""Checkpoints of a LearnHeuristicPrac run: one .npz written atomically after every iteration.

It holds the FFNN and WUNN with their Adam states, the memory buffer, α, β, y^q, the random generator's
state and the per-iteration log, so that a resumed run continues exactly where the interrupted one stopped.
"""
import json
import math
import zipfile
from dataclasses import asdict

import numpy as np

from la.buffer import MemoryBuffer
from la.io import write_npz
from la.nn.persist import pack, unpack

META = "__meta__"
PARTS = ("ffnn", "ffnn_adam", "wunn", "wunn_adam")


class _Prefixed:
    """The arrays of one part of a checkpoint, seen without their 'part/' prefix (for `la.nn.persist`)."""

    def __init__(self, data, prefix: str):
        self.data, self.prefix = data, prefix
        self.files = [k[len(prefix):] for k in data.files if k.startswith(prefix)]

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


def _restore(data, path, domain, config):
    from la.learn import Learner
    if META not in data.files:
        raise ValueError(f"{path}: not a checkpoint (no '{META}')")
    meta = json.loads(str(data[META][0]))
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
