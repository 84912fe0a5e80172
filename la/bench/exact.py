"""Benchmark: exact h* tables (`la.pdb.exact`) built from scratch, one child process per domain.

Each table is built as on first use (`la.pdb.exact.h_star_table`: the breadth-first search over
perfect ranks, then the write to the cache folder with its header) in a temporary folder, never the
user's PDB cache, in a fresh child process on one core; the row gives its wall-clock and CPU
seconds, its peak resident memory and the table's size, diameter and mean h*, which must be the
known ones (a wrong search fails the benchmark instead of timing it).

Targets (the ground-truth issue): the 2x5 board's table in at most 5 s, the 10-pancake's in at most
20 s. `quick` builds the two small tables only (the 8-puzzle's and the 9-pancake's): a smoke run of
the same code. The 3x4 board's table (239,500,800 states, about 5 minutes and 1.3 GiB) is not
benchmarked here; `la/pdb/exact.py` gives its one measured build.
"""
import tempfile
import time

import numpy as np

from la.bench.pdb import peak_memory_mb
from la.domains.names import make_domain
from la.pdb.exact import UNSEEN, h_star_table
from la.runs.processes import Workers

# Per domain: the known number of states, diameter and mean h* (la/pdb/exact.py's table), and the
# issue's target in seconds (None: no target).
CASES = {
    "8-puzzle": {"states": 181_440, "diameter": 31, "mean": 21.97, "target_seconds": None},
    "9-pancake": {"states": 362_880, "diameter": 10, "mean": 7.66, "target_seconds": None},
    "2x5-puzzle": {"states": 1_814_400, "diameter": 55, "mean": 34.73, "target_seconds": 5},
    "10-pancake": {"states": 3_628_800, "diameter": 11, "mean": 8.68, "target_seconds": 20},
}
QUICK = ("8-puzzle", "9-pancake")


def build(name: str, folder: str) -> dict:
    """Build `name`'s table into `folder` (it must not be there yet) and describe it."""
    began, cpu = time.perf_counter(), time.process_time()
    table = h_star_table(make_domain(name), folder).table
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    h = table[table != UNSEEN]
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_memory_mb": peak_memory_mb(),
            "entries": int(table.size), "states": int(h.size), "diameter": int(h.max()),
            "mean": float(h.mean())}


def build_in_child(name: str, folder: str) -> dict:
    """`build` in a fresh spawned process (`la.runs.processes.Workers`), so that its peak memory
    is the build's alone and the child never outlives this process."""
    with Workers(1) as worker:
        for _, kind, answer in worker.run(_build_unit, [name], folder):
            if kind == "failed":
                raise RuntimeError(f"the {name} table's build failed in its process: {answer[0]}")
            return answer


def _build_unit(name: str, folder: str, verbose: bool) -> dict:
    """`build` as a worker runs a unit (`Workers.run` calls function(unit, out, verbose))."""
    return build(name, folder)


def measure(name: str, folder: str) -> dict:
    """One domain's row: the child's build, checked against the known size, diameter and mean."""
    known = CASES[name]
    row = {**build_in_child(name, folder), "target_seconds": known["target_seconds"]}
    found = (row["states"], row["diameter"], round(row["mean"], 2))
    if found != (known["states"], known["diameter"], known["mean"]):
        raise RuntimeError(f"the {name} table has {found[0]:,} states, diameter {found[1]}, mean "
                           f"{found[2]}; expected {known['states']:,}, {known['diameter']}, "
                           f"{known['mean']}")
    row["states_per_second"] = row["states"] / row["seconds"]
    return row


def run(rng: np.random.Generator, quick: bool = False) -> dict:
    """One row per domain, keyed by its name; the tables live in a temporary folder removed at the
    end. (`rng` is unused: a breadth-first search draws nothing.)"""
    with tempfile.TemporaryDirectory(prefix="la-bench-exact-") as folder:
        rows = {}
        for name in QUICK if quick else CASES:
            rows[name] = {**measure(name, folder), "quick": quick}
        return rows


def report(rows: dict) -> list[str]:
    """Human-readable lines."""
    lines = ["Exact h* tables built from scratch (one child process per domain, one core):",
             "  breadth-first search over perfect ranks, written to a temporary cache folder"]
    for name, row in rows.items():
        target = row["target_seconds"]
        note = f" (target <= {target} s)" if target is not None and not row["quick"] else ""
        lines += [f"  {name:<11} {row['states']:>10,} states, diameter {row['diameter']:>2}, "
                  f"mean h* {row['mean']:5.2f}",
                  f"    built in {row['seconds']:.2f} s{note}, {row['cpu_seconds']:.2f} s of CPU "
                  f"({row['states_per_second'] / 1e6:.2f} M states/s); peak memory "
                  f"{row['peak_memory_mb']:.0f} MB"]
    return lines
