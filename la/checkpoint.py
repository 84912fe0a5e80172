"""Checkpoints of a LearnHeuristicPrac run: one .npz written atomically after every iteration.

It holds the FFNN and WUNN with their Adam states, the memory buffer, α, β, y^q, the random generator's
state and the per-iteration log, so that a resumed run continues exactly where the interrupted one stopped;
and the run's identity — its domain, encoding (`la.features.describe`) and configuration — so that a
checkpoint is never resumed by another run. The learner hands its state to `save_checkpoint` and restores
itself from what `read_checkpoint` returns (`la.learn.Learner.save`, `Learner.restore`): this module knows
the file, not the learner.
"""
import json
import zipfile
import zlib
from dataclasses import asdict, is_dataclass

import numpy as np

from la.features import ONE_HOT
from la.io import write_npz
from la.nn.persist import pack, unpack

META = "__meta__"
PARTS = ("ffnn", "ffnn_adam", "wunn", "wunn_adam")
META_KEYS = ("domain", "config", "parts", "iteration", "alpha", "beta", "y_q", "trained", "rng", "log")
BUFFER = ("buffer/states", "buffer/labels")
IDENTITY = ("domain", "encoding", "config")       # what makes two checkpoints the same run's
LEGACY = {"encoding": ONE_HOT}                     # checkpoints written before the encoding was recorded


class Prefixed:
    """The arrays of one part of a checkpoint, seen without their 'part/' prefix (for `la.nn.persist`)."""

    def __init__(self, data, prefix: str):
        self.data, self.prefix = data, prefix
        self.files = [k[len(prefix):] for k in data if k.startswith(prefix)]

    def __getitem__(self, key):
        return self.data[self.prefix + key]


def save_checkpoint(path, parts: dict, buffer: tuple, meta: dict) -> None:
    """Write a run's state atomically: `parts` maps names in PARTS to networks and optimisers (None: not in
    this run), `buffer` is the memory buffer's (states, labels), `meta` every JSON entry of META_KEYS but
    'parts', and the encoding."""
    arrays, packed = {}, {}
    for name, obj in parts.items():
        if obj is not None:
            part_arrays, packed[name] = pack(obj)
            arrays.update({f"{name}/{k}": a for k, a in part_arrays.items()})
    arrays[BUFFER[0]], arrays[BUFFER[1]] = buffer
    arrays[META] = np.array([json.dumps({**meta, "parts": packed}, default=_plain)])
    write_npz(path, arrays)


def read_checkpoint(path, identity: dict) -> dict:
    """The state saved at `path`: its metadata, with "parts" mapping names to the rebuilt networks and
    optimisers and "buffer" holding (states, labels). ValueError if the file is damaged, or if it belongs to
    another run: one whose domain, encoding or configuration differs from `identity`'s."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = _read_meta(data, path)
            saved = {key: meta.get(key, LEGACY.get(key)) for key in IDENTITY}
            if saved != as_json({key: identity[key] for key in IDENTITY}):
                raise ValueError(f"{path}: the checkpoint belongs to another run (different domain, encoding "
                                 f"or config)")
            parts = {name: unpack(part, Prefixed(data, name + "/"), path)
                     for name, part in meta["parts"].items() if name in PARTS}
            return {**meta, "parts": parts, "buffer": (data[BUFFER[0]], data[BUFFER[1]])}
    except (OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not a readable checkpoint ({error})") from None


def check_checkpoint(path) -> None:
    """ValueError naming `path` unless it is a whole checkpoint that `read_checkpoint` can read.

    Checked without knowing the run: every array is read (so a damaged member of the zip shows), the metadata
    holds every entry, each saved network and optimiser state rebuilds from arrays of the right shapes, and the
    buffer's states and labels match. Whether it belongs to the run at hand is `read_checkpoint`'s check.
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
        unpack(part, Prefixed(arrays, name + "/"), path)
    if any(key not in arrays for key in BUFFER):
        raise ValueError(f"{path}: missing the memory buffer ('{BUFFER[0]}', '{BUFFER[1]}')")
    states, labels = arrays["buffer/states"], arrays["buffer/labels"]
    if states.ndim != 2 or labels.ndim != 1 or len(states) != len(labels):
        raise ValueError(f"{path}: the buffer's states {states.shape} and labels {labels.shape} do not match")


def buffer_size(path) -> int:
    """How many records the memory buffer of the checkpoint at `path` holds (checked as `check_checkpoint`)."""
    check_checkpoint(path)
    with np.load(path, allow_pickle=False) as data:
        return len(data[BUFFER[1]])


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


def as_json(value):
    """`value` as it reads back from JSON (tuples become lists, dataclasses dicts): how checkpoints compare."""
    if is_dataclass(value):
        value = asdict(value)
    return json.loads(json.dumps(value, default=_plain))


def _plain(value):
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in a checkpoint")
