"""Files written atomically: a temporary file in the target's directory, renamed over the target.

An interrupted run therefore leaves either the old file or the new one, never half of one (style
habit 9). The temporary file is created the way `open(path, "w")` creates a file, so the result has
the user's usual permissions (the umask), not the owner-only 0600 of `tempfile.mkstemp`. If the
process is stopped by a signal it cannot handle (SIGKILL), a temporary file named `.tmp-*` may stay
behind; `remove_partial` clears those. A write that fails (disk full, read-only file system, ...)
raises `WriteError` naming the file asked for.
"""
import contextlib
import json
import os
import secrets

import numpy as np

PARTIAL = ".tmp-"                   # the prefix of a temporary file not yet renamed over its target


class WriteError(OSError):
    """A file could not be written; `filename` is the file asked for, not its temporary stand-in."""


def _partial_path(folder: str, suffix: str) -> str:
    """A fresh name for a temporary file in `folder` (48 random bits: no other writer's has it)."""
    return os.path.join(folder, f"{PARTIAL}{secrets.token_hex(6)}{suffix}")


def _atomic(path, write, mode: str) -> None:
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        while True:
            # Named before it exists: SIGTERM raises SystemExit as `os.open` returns, and the
            # cleanup below must still know which file to delete. Created the way `open(path, "w")`
            # creates a file (0666 less the umask).
            tmp = _partial_path(folder, os.path.splitext(path)[1])
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                break
            except FileExistsError:
                tmp = None
        # text in UTF-8 whatever the locale (an α in a CSV row on an ASCII or Latin-1 system)
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())        # the data is on disk before the rename makes it the file
        os.replace(tmp, path)
    except BaseException as error:
        if tmp is not None:                          # (no such file yet if os.open itself failed)
            # e.g. on a file system turned read-only: remove_partial's job
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        # A full disk shows at write, flush, fsync or close, naming no file or the temporary one; an
        # error that names another file (one `write` reads) is left as it is.
        if isinstance(error, OSError) and (tmp is None or error.filename in (None, tmp)):
            raise WriteError(error.errno, error.strerror or str(error), path) from None
        raise


def remove_partial(folder) -> list:
    """Delete the temporary files left under `folder` by processes killed mid-write; return their
    paths.

    Only safe while no other process writes there (the experiments hold the folder's lock,
    `la.runs.lock`).
    """
    removed = []
    for root, _, files in os.walk(folder):
        for name in files:
            if name.startswith(PARTIAL):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(root, name))
                    removed.append(os.path.join(root, name))
    return removed


def write_npy(path, array) -> None:
    """np.save, atomically."""
    _atomic(path, lambda f: np.save(f, array, allow_pickle=False), "wb")


def write_npz(path, arrays: dict) -> None:
    """np.savez, atomically."""
    _atomic(path, lambda f: np.savez(f, **arrays), "wb")


def _nested(value) -> bool:
    return isinstance(value, (dict, list, tuple)) and len(value) > 0   # json.dumps: tuple = list


def dumps(obj, pad: str = "") -> str:
    """JSON with one flat object or list per line: a dict or list holding another non-empty one is
    spread over lines, indented by two spaces a level; one holding only numbers, strings and empty
    containers is written on one line. A record of a thousand searches is then a thousand lines of
    one search each, about half the size of `json.dumps(obj, indent=2)` and as easy to read."""
    inner = pad + "  "
    if isinstance(obj, dict) and any(map(_nested, obj.values())):
        items = (f"{inner}{json.dumps(k if isinstance(k, str) else json.dumps(k))}: "
                 f"{dumps(v, inner)}" for k, v in obj.items())      # keys as json.dumps writes them
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, (list, tuple)) and any(map(_nested, obj)):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj)


def write_json(path, obj) -> None:
    """JSON with one flat object or list per line (`dumps`), atomically."""
    _atomic(path, lambda f: f.write(dumps(obj) + "\n"), "w")


def write_text(path, text: str) -> None:
    """A text file, atomically."""
    _atomic(path, lambda f: f.write(text), "w")


def write_binary(path, write) -> None:
    """What `write(f)` writes into a binary file, atomically (a figure:
    `fig.savefig(f, format="png")`)."""
    _atomic(path, write, "wb")
