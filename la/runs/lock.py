"""One process per results folder: an exclusive lock that the kernel releases when its holder dies.

`hold(folder)` takes `fcntl.flock` on `<folder>/.lock` and writes this process's id into it. The
lock belongs to the open file, so it lasts until this process exits, however it exits: a crashed or
killed run never leaves a stale lock behind, and the file that stays is harmless. A second process
asking for the same folder is refused at once (`FolderInUse`, a ValueError, so the command lines
report it in one line with exit status 2), naming the holder's process id. Within one process `hold`
may be called again for the same folder.
"""
import contextlib
import fcntl
import os
from pathlib import Path

from la.io import WriteError

LOCK = ".lock"
_held = {}                                     # resolved folder -> the open lock file's descriptor


class FolderInUse(ValueError):
    """Another process holds the folder; `holder` is its process id as its lock file gives it."""

    def __init__(self, message: str, holder: str):
        super().__init__(message)
        self.holder = holder


def hold(folder) -> bool:
    """Lock `folder` (which must exist) for this process until it exits; FolderInUse if another
    holds it.

    True if this call took the lock, False if this process held it already.
    """
    folder = Path(folder).resolve()
    if folder in _held:
        return False
    try:
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise ValueError(f"{folder}: cannot create its lock file {LOCK} "
                         f"({error.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        holder = holder or "unknown"
        raise FolderInUse(f"{folder} is in use by another run (process {holder}); wait for it to "
                          "end or stop it, or choose another --out", holder) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError as error:                   # a full disk: no trace left, and the file named
        with contextlib.suppress(OSError):
            os.unlink(folder / LOCK)
        os.close(fd)
        raise WriteError(error.errno, error.strerror, str(folder / LOCK)) from None
    _held[folder] = fd
    return True


def release(folder) -> None:
    """Give up the lock on `folder` early (a process's locks are released anyway when it exits)."""
    fd = _held.pop(Path(folder).resolve(), None)
    if fd is not None:
        os.close(fd)
