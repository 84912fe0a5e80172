"""Benchmark: what `python -m la.solve` costs before it searches: its --help, a refused argument, a
small solve.

Each command runs in a fresh interpreter, ROUNDS times; the time is CPU time, user + system, of the
finished child (`resource.getrusage(RUSAGE_CHILDREN)` before and after), not the wall clock, which a
busy machine stretches. The bare interpreter (`python -c pass`) and `import numpy` are timed beside
them: all `la.solve` needs before its arguments are checked. The target (issue 39): --help and a
refusal within 0.5 s of CPU, so SciPy and the networks are imported only once the arguments are
known to need them.
"""
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]           # the folder holding `la`, so that
                                                     # `-m la.solve` finds it
ROUNDS, QUICK_ROUNDS = 5, 1
TARGET_CPU_SECONDS = 0.5                             # --help and a refusal (issue 39)

# name -> (the interpreter's arguments, the exit status expected)
COMMANDS = {
    "python -c pass": (["-c", "pass"], 0),
    "import numpy": (["-c", "import numpy"], 0),
    "la.solve --help": (["-m", "la.solve", "--help"], 0),
    "la.solve --korf 0 (refused)": (["-m", "la.solve", "--korf", "0"], 2),
    "la.solve an 8-puzzle (solved)": (["-m", "la.solve", "--domain", "8-puzzle",
                                       "8 1 2 0 4 3 7 5 6"], 0),
}
CHECKED = ("la.solve --help", "la.solve --korf 0 (refused)")    # the commands the target applies to


def cpu_seconds(arguments: list, status: int) -> float:
    """The CPU seconds (user + system) of `python <arguments>` run to its end; RuntimeError unless
    it exits with `status`, so that a broken command is never timed as a fast one."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != status:
        raise RuntimeError(f"python {' '.join(arguments)} exited with {done.returncode}, "
                           f"expected {status}: "
                           f"{done.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(rng, quick: bool = False) -> dict:
    """Per command, the CPU seconds of each round, their median and least; `rng` is unused (nothing
    is drawn)."""
    rounds = QUICK_ROUNDS if quick else ROUNDS
    rows = {}
    for name, (arguments, status) in COMMANDS.items():
        seconds = [cpu_seconds(arguments, status) for _ in range(rounds)]
        rows[name] = {"cpu_seconds": seconds, "median": statistics.median(seconds),
                      "least": min(seconds),
                      "target": TARGET_CPU_SECONDS if name in CHECKED else None}
    return {"quick": quick, "rounds": rounds, "commands": rows}


def report(results: dict) -> list[str]:
    """Human-readable lines."""
    lines = [f"CPU seconds (user + system) of a fresh interpreter, "
             f"median and least of {results['rounds']} "
             f"round{'s' if results['rounds'] > 1 else ''}"]
    for name, row in results["commands"].items():
        target = "" if row["target"] is None else f"   (target <= {row['target']} s)"
        lines.append(f"  {name:<32}{row['median']:6.3f} s  least {row['least']:6.3f} s{target}")
    return lines
