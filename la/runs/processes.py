"""Worker processes for `--jobs N` that never outlive the run: they stop when told, and when their
parent dies.

`Workers(jobs)` starts `jobs` fresh interpreters (spawn, so that each loads NumPy with one BLAS
thread; see la/__init__.py) that run units sent to them one at a time and answer with the unit's
result or its error. What makes them safe to interrupt:

- They ignore SIGINT. A Ctrl-C reaches the terminal's whole process group; the main process alone
  decides what happens, stops them and says how to continue. The main process blocks SIGINT while it
  starts them, so they are born with it blocked (a worker still starting up cannot die with a
  traceback of its own) until they ignore it, and a Ctrl-C in those milliseconds waits, pending, and
  reaches the main process once they have started.
- They stop on SIGTERM by unwinding (SystemExit): an atomic write in progress (`la.io`) removes its
  temporary file instead of finishing, so a stopped unit leaves its last whole checkpoint and
  nothing half-written.
- Each holds the reading end of a pipe (the lifeline) whose only writing end is the main process's.
  The kernel closes it when the main process dies, even by SIGKILL; a thread in the worker sees the
  end of file at once and stops the worker as SIGTERM would, before it writes anything more into the
  results folder.
"""
import contextlib
import os
import signal
import threading
import time
import traceback
from multiprocessing import get_context, resource_tracker
from multiprocessing.connection import wait

from la.io import WriteError

GRACE = 5.0                 # seconds a stopped worker may take to unwind before it is killed
TICK = 0.5                  # seconds between the main process's looks at the running units


class Terminated(BaseException):
    """The main process received SIGTERM (a scheduler's kill): stop like a Ctrl-C."""


@contextlib.contextmanager
def terminated_raises():
    """While inside, SIGTERM raises Terminated in the main thread, so the run can stop its workers
    first."""
    def handler(signum, frame):
        raise Terminated()
    with _handler(signal.SIGTERM, handler):
        yield


@contextlib.contextmanager
def _blocked(signum):
    """Hold `signum` back while inside: one that arrives stays pending and is delivered on the way
    out. Processes started inside are born with it blocked (the mask survives fork and exec)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signum})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})


@contextlib.contextmanager
def _handler(signum, handler):
    """Handle `signum` with `handler` while inside (only the main thread may; elsewhere, nothing
    changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, previous)


class Workers:
    """`jobs` worker processes; use as a context manager, which stops every worker on the way
    out."""

    def __init__(self, jobs: int):
        context = get_context("spawn")
        lifeline, self._lifeline = context.Pipe(duplex=False)
        self._idle, self._all = [], []
        # multiprocessing's resource tracker, started with the first process, unblocks SIGINT once
        # it is up: so it starts now, before SIGINT is blocked, and not in the middle of the
        # workers' start.
        resource_tracker.ensure_running()
        try:
            # not ignored: a Ctrl-C now would be lost (module docstring)
            with _blocked(signal.SIGINT):
                for _ in range(jobs):
                    mine, theirs = context.Pipe()
                    process = context.Process(target=_serve, args=(theirs, lifeline), daemon=True)
                    process.start()
                    theirs.close()
                    self._idle.append((process, mine))
                    self._all.append(process)
        except BaseException:                       # e.g. the Ctrl-C held back, raised as SIGINT is
                                                    # unblocked
            self.stop(graceful=False)
            raise
        finally:
            lifeline.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        self.stop(graceful=kind is None)

    def run(self, function, units: list, out, tick=lambda running: None):
        """Yield (unit, "done", result) or (unit, "failed", (one line, traceback, file: see
        `_failed`)) as each unit ends.

        `tick(running units)` is called at least every TICK seconds while units run.
        """
        waiting, busy = list(units), {}                    # busy: connection -> (process, unit)
        while waiting or busy:
            while waiting and self._idle:
                process, connection = self._idle.pop()
                unit = waiting.pop(0)
                busy[connection] = process, unit
                with contextlib.suppress(OSError):  # a worker that died shows as end of file below
                    connection.send((function, unit, out))
            if not busy:
                raise RuntimeError("every worker process has died")
            ready = wait(list(busy), timeout=TICK)
            tick([unit for _, unit in busy.values()])
            for connection in ready:
                process, unit = busy.pop(connection)
                try:
                    kind, payload = connection.recv()
                    self._idle.append((process, connection))
                except (EOFError, OSError):
                    process.join(1)
                    kind, payload = "failed", (f"its worker process died "
                                               f"({_status(process.exitcode)})", "", None)
                yield unit, kind, payload

    def stop(self, graceful: bool) -> None:
        """Let idle workers exit (graceful), or stop them all with SIGTERM; kill any still alive
        after GRACE."""
        for process, connection in self._idle:
            with contextlib.suppress(OSError):
                connection.send(None)
        for process in self._all:
            if not graceful and process.is_alive():
                process.terminate()
        deadline = time.monotonic() + GRACE
        for process in self._all:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        self._lifeline.close()


def _serve(tasks, lifeline) -> None:
    """A worker's life: run each (function, unit, out) it is sent with verbose=False, until None or
    EOF."""
    # drops a Ctrl-C pending since it was born (`_blocked`)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, _unwind)
    threading.Thread(target=_watch_parent, args=(lifeline,), daemon=True).start()
    while True:
        try:
            task = tasks.recv()             # a unit whose code cannot be imported fails here, and
                                            # is reported
        except EOFError:
            return
        except Exception as error:
            tasks.send(_failed(error))
            continue
        if task is None:
            return
        function, unit, out = task
        try:
            answer = "done", function(unit, out, False)
        except Exception as error:          # reported to the main process, which stops the run
            answer = _failed(error)
        tasks.send(answer)


def _failed(error) -> tuple:
    """("failed", (one line, traceback, file)); `file`, for an OSError naming a file, is (whether it
    is a la.io.WriteError, errno, reason, file name): the main process decides whether the disk is
    to blame."""
    file = None
    if isinstance(error, OSError) and error.filename is not None:
        file = (isinstance(error, WriteError), error.errno, error.strerror or str(error),
                str(error.filename))
    return "failed", (f"{type(error).__name__}: {error}", traceback.format_exc(), file)


def _status(exitcode) -> str:
    return (f"killed by signal {-exitcode}" if exitcode is not None and exitcode < 0
            else f"exit status {exitcode}")


def _unwind(signum, frame):
    raise SystemExit(128 + signum)


def _watch_parent(lifeline) -> None:
    """Wait for the main process's end of the lifeline to close, then stop this worker like SIGTERM
    would."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE)                       # the main thread may be inside a long NumPy call; do
                                            # not wait for ever
    os._exit(128 + signal.SIGTERM)
