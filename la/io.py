"""Files written atomically: a temporary file in the target's directory, then a rename over the target.

An interrupted run therefore leaves either the old file or the new one, never half of one (style habit 9).
"""
import json
import os
import tempfile

import numpy as np


def _atomic(path, write, mode: str) -> None:
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.splitext(path)[1])
    try:
        with os.fdopen(fd, mode) as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_npz(path, arrays: dict) -> None:
    """np.savez, atomically."""
    _atomic(path, lambda f: np.savez(f, **arrays), "wb")


def write_json(path, obj) -> None:
    """JSON with two-space indentation, atomically."""
    _atomic(path, lambda f: f.write(json.dumps(obj, indent=2) + "\n"), "w")


def write_text(path, text: str) -> None:
    """A text file, atomically."""
    _atomic(path, lambda f: f.write(text), "w")
