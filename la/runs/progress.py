"""The printer of PDB builds: `la.pdb.store`'s `progress(fraction, text)` calls as lines on stderr,
each build's with an estimate of the time left. The command lines, experiments, benchmarks and
tutorials that may build a PDB pass one, e.g.

    load_set("24-puzzle", folder, BuildProgress())          # what `python -m la.pdb build` does

    la.pdb: <folder>/24-puzzle_1-2-5-6-7.npy: corrupted (its checksum does not match the header);
    building it again 24-puzzle PDB 1 of 10, [1, 2, 5, 6, 7] (127,512,000 entries): 40% (level 12,
    3,870,214 states), about 2 min left 24-puzzle PDB 1 of 10, [1, 2, 5, 6, 7] (127,512,000
    entries): done in 81.2 s, saved in <folder>

And `Heartbeat`, which makes long work with no step to report after (one long search) say how it
goes every HEARTBEAT seconds.
"""
import math
import sys
import threading
import time

HEARTBEAT = 15.0            # seconds: long work says how it is going at least this often (the
                            # project's habit)


class BuildProgress:
    """`progress(fraction, text)` for PDB builds (`la.pdb.store`'s module docstring): prints on
    `stream` (default stderr) a note as one line "la.pdb: <note>", and each build as one line
    "<label>: <percent> (<text>), about <time> left", ended by "<label>: done in <seconds> s, saved
    in <folder>".

    On a terminal the line is rewritten in place a few times a second; in a log a new line is
    written every `every` seconds. The estimate assumes the rest goes as fast as what is done, so it
    is rough. One printer serves any number of builds, one after the other."""

    def __init__(self, stream=None, every: float = 10.0):
        self.stream = sys.stderr if stream is None else stream
        self.live = self.stream.isatty()
        self.every = 0.25 if self.live else every
        self._start("building a PDB")

    def _start(self, label: str) -> None:
        self.label, self.began, self.shown = label, time.monotonic(), -math.inf

    def __call__(self, fraction, text: str) -> None:
        if fraction is None:
            self._write(f"la.pdb: {text}", end="\n")
            return
        if fraction == 0:
            self._start(text)
            return
        now = time.monotonic()
        elapsed = now - self.began
        if fraction >= 1.0:
            self._write(f"{self.label}: done in {elapsed:.1f} s, {text}", end="\n")
            return
        if now - self.shown < self.every:
            return
        self.shown = now
        left = "estimating the time left" if fraction < 0.01 or elapsed < 1 else \
            f"about {duration(elapsed * (1 - fraction) / fraction)} left"
        self._write(f"{self.label}: {100 * fraction:.0f}% ({text}), {left}",
                    end="" if self.live else "\n")

    def _write(self, line: str, end: str) -> None:
        start = "\r\x1b[K" if self.live else ""             # back to the start of the line, cleared
        print(start + line, end=end, file=self.stream, flush=True)


def duration(seconds: float) -> str:
    """A time left, in the unit that reads best."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


class Heartbeat:
    """`with Heartbeat(beat):` calls `beat()` every `every` seconds from a thread while the block
    runs: a line at least that often from work with no natural step to report after, such as one
    long search. An error in `beat` (a log that cannot be written) ends the beats and is raised when
    the block ends."""

    def __init__(self, beat, every: float = HEARTBEAT):
        self.beat, self.every, self.error = beat, every, None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.beat()
            except Exception as error:
                self.error = error
                return

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, kind, error, trace):
        self._stop.set()
        self._thread.join()
        if kind is None and self.error is not None:
            raise self.error
