"""Checkpoints: one mechanism for every run that must survive an interruption, LearnHeuristicPrac's
(`la.learn.Learner`), Boot's (`la.rivals.boot.Boot`) and Boot's round under way
(`la.rivals.boot_round`).

A checkpoint is one .npz, written atomically: each network and optimiser state under
'<part>/<array>' (the layout of `la.runs.persist`), any other arrays by name, and '__meta__', one
JSON string with the run's identity (domain, encoding `la.features.encodings.describe`,
configuration), its scalar state, the random generator's state and, under "parts", how to rebuild
each network. A resumed run continues exactly where the interrupted one stopped, and a checkpoint is
never resumed by another run.

    save_state(path, parts, arrays, meta)     write; `parts` maps names to networks and optimisers
    arrays, meta = read_state(path, what)     every array and the metadata; ValueError naming the
                                              file
    parts = unpack_parts(arrays, meta, path)  the networks and optimisers rebuilt
    check_identity(meta, identity, path, what)

LearnHeuristicPrac's checkpoint: `save_learner`, `restore_learner`, `check_checkpoint`,
`buffer_size`. The algorithms know nothing of files: these functions read their state and set it
back. Files of earlier versions are read through `la.runs.compat`.
"""
import json
import math
from dataclasses import asdict, is_dataclass

import numpy as np

from la.buffer import MemoryBuffer
from la.features.encodings import describe
from la.io import write_npz
from la.learn import Learner
from la.runs.compat import checkpoint_identity
from la.runs.persist import pack, read_arrays, unpack

META = "__meta__"
IDENTITY = ("domain", "encoding", "config")       # what makes two checkpoints the same run's
PARTS = ("ffnn", "ffnn_adam", "wunn", "wunn_adam")                 # the learner's networks and
                                                                   # optimisers
STATE = ("iteration", "alpha", "beta", "y_q", "trained", "log")    # and its scalar state
META_KEYS = ("domain", "config", "parts", "rng") + STATE
BUFFER = ("buffer/states", "buffer/labels")


class Prefixed:
    """The arrays of one part of a checkpoint, seen without their 'part/' prefix (for
    `la.runs.persist`)."""

    def __init__(self, data, prefix: str):
        self.data, self.prefix = data, prefix
        self.files = [k[len(prefix):] for k in data if k.startswith(prefix)]

    def __getitem__(self, key):
        return self.data[self.prefix + key]


# --- the mechanism
# ------------------------------------------------------------------------------------------

def save_state(path, parts: dict, arrays: dict, meta: dict) -> None:
    """Write a run's state atomically: `parts` maps names to networks and optimisers (None: not in
    this run), `arrays` names the other arrays, `meta` is JSON (how to rebuild each part is added as
    "parts")."""
    out, packed = {}, {}
    for name, obj in parts.items():
        if obj is not None:
            part_arrays, packed[name] = pack(obj)
            out.update({f"{name}/{k}": a for k, a in part_arrays.items()})
    out.update(arrays)
    out[META] = np.array([json.dumps({**meta, "parts": packed}, default=_plain)])
    write_npz(path, out)


def read_state(path, what: str = "checkpoint") -> tuple[dict, dict]:
    """Every array of the file at `path` and its metadata (a JSON object with "parts"); ValueError
    naming the file, and `what` it should have been, if it is not one."""
    arrays = read_arrays(path, what)
    try:
        meta = json.loads(str(arrays[META].reshape(-1)[0]))
    except (KeyError, IndexError, ValueError) as error:
        raise ValueError(f"{path}: no {what} metadata "
                         f"('{META}': {type(error).__name__}: {error})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: no {what} metadata ('{META}' is not a JSON object)")
    return arrays, meta


def unpack_parts(arrays: dict, meta: dict, path, names=None) -> dict:
    """The networks and optimisers saved under meta["parts"] (only `names`, if given), rebuilt and
    checked."""
    parts = meta.get("parts")
    if not isinstance(parts, dict):
        raise ValueError(f"{path}: '{META}' lists no parts")
    rebuilt = {}
    for name, part in parts.items():
        if (names is not None and name not in names or not isinstance(part, dict)
                or "class" not in part):
            raise ValueError(f"{path}: part '{name}' is not one this checkpoint holds")
        rebuilt[name] = unpack(part, Prefixed(arrays, name + "/"), str(path))
    return rebuilt


def check_identity(meta: dict, identity: dict, path, what: str = "run") -> None:
    """ValueError unless the checkpoint's domain, encoding and configuration are `identity`'s."""
    if checkpoint_identity(meta, IDENTITY) != as_json({key: identity[key] for key in IDENTITY}):
        raise ValueError(f"{path}: the checkpoint belongs to another {what} "
                         "(different domain, encoding or config)")


def as_json(value):
    """`value` as it reads back from JSON (tuples become lists, dataclasses dicts): how checkpoints
    compare."""
    if is_dataclass(value):
        value = asdict(value)
    return json.loads(json.dumps(value, default=_plain))


def _plain(value):
    if is_dataclass(value) and not isinstance(value, type):          # a configuration inside a dict
        return asdict(value)
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in a checkpoint")


# --- LearnHeuristicPrac
# -------------------------------------------------------------------------------------

def learner_identity(learner: Learner) -> dict:
    """What a checkpoint must match to continue `learner`'s run: the domain, the encoding and the
    configuration."""
    return {"domain": learner.domain.name, "encoding": describe(learner.encoding),
            "config": as_json(learner.config)}


def save_learner(learner: Learner, path) -> None:
    """Everything needed to continue `learner`'s run: networks, optimisers, buffer, α, β, y^q, rng,
    log."""
    meta = {**learner_identity(learner), **{key: getattr(learner, key) for key in STATE},
            "rng": learner.rng.bit_generator.state}
    meta["y_q"] = None if math.isinf(learner.y_q) else learner.y_q   # −∞ before the first Update
    save_state(path, {name: getattr(learner, name) for name in PARTS},
               {BUFFER[0]: learner.buffer.states(), BUFFER[1]: learner.buffer.labels()}, meta)


def restore_learner(path, domain, config, encoding) -> Learner:
    """The learner saved at `path` by `save_learner`; ValueError if the file is damaged or belongs
    to another run."""
    learner = Learner(domain, config, np.random.default_rng(0), encoding)
    arrays, meta = _read_learner(path)
    check_identity(meta, learner_identity(learner), path)
    parts = unpack_parts(arrays, meta, path, PARTS)
    for name in PARTS:
        if getattr(learner, name) is not None:
            if name not in parts:
                raise ValueError(f"{path}: missing part '{name}'")
            setattr(learner, name, parts[name])
    learner.buffer = MemoryBuffer.from_arrays(config.buffer_size, arrays[BUFFER[0]],
                                              arrays[BUFFER[1]])
    for key in STATE:
        setattr(learner, key, meta[key])
    learner.y_q = -math.inf if meta["y_q"] is None else meta["y_q"]
    learner.rng.bit_generator.state = meta["rng"]
    return learner


def check_checkpoint(path) -> dict:
    """ValueError naming `path` unless it is a whole LearnHeuristicPrac checkpoint; else its arrays.

    Checked without knowing the run: every array is read (so a damaged member of the zip shows), the
    metadata holds every entry, each saved network and optimiser state rebuilds from arrays of the
    right shapes, and the buffer's states and labels match. Whether it belongs to the run at hand is
    `restore_learner`'s check.
    """
    arrays, meta = _read_learner(path)
    unpack_parts(arrays, meta, path, PARTS)
    states, labels = arrays[BUFFER[0]], arrays[BUFFER[1]]
    if states.ndim != 2 or labels.ndim != 1 or len(states) != len(labels):
        raise ValueError(f"{path}: the buffer's states {states.shape} and labels {labels.shape} "
                         "do not match")
    return arrays


def buffer_size(path) -> int:
    """How many records the memory buffer of the checkpoint at `path` holds (checked as
    `check_checkpoint`)."""
    return len(check_checkpoint(path)[BUFFER[1]])


def _read_learner(path) -> tuple[dict, dict]:
    arrays, meta = read_state(path, "checkpoint")
    if not isinstance(meta.get("parts"), dict):
        raise ValueError(f"{path}: '{META}' is not a checkpoint's metadata")
    missing = [key for key in META_KEYS if key not in meta]
    if missing:
        raise ValueError(f"{path}: '{META}' lacks '{missing[0]}'")
    if any(key not in arrays for key in BUFFER):
        raise ValueError(f"{path}: missing the memory buffer ('{BUFFER[0]}', '{BUFFER[1]}')")
    return arrays, meta
