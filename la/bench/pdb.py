"""Benchmark: pattern databases of the 24-puzzle, 24-pancake and 15-blocksworld, built from scratch
and used.

For each domain, in a temporary folder (never the user's PDB cache):

1. build its PDB set (`la.pdb.sets`: the 24-puzzle's partitions A and B, ten PDBs; the 24-pancake's
   ten; the 15-blocksworld's twelve) in a fresh child process, one PDB after the other on one core,
   and read the child's wall-clock and CPU seconds and its peak resident memory (the Python, NumPy
   and `la` baseline included);
2. load those PDBs (a missing one is an error here, not a silent build) and run IDA* (`la.search`,
   depth-first order) on the first tasks of the domain's test set with a node limit each: generated
   nodes per second with `pdb` (the 24-puzzle only: the larger of the partitions' sums) and
   `max-pdb` (h_ad, the authors' `MaxHeuristic`), built as `la.heuristics.pdb.pdb_heuristic` and
   `max_pdb_heuristic` build them;
3. time the domain's network inputs (`la.features`) on a batch of random-walk states.

The authors' C# planned at about 0.46, 0.27 and 2.1 M generated nodes per second in these domains
(paper, Table 3), with their learned heuristics: printed beside as a reference, not a like-for-like
comparison.

`quick` cuts every pattern to its first QUICK_ITEMS items (PDBs that build in a fraction of a
second) and runs fewer, shorter searches: a smoke run of the same code, whose numbers say nothing
about the targets.
"""
import resource
import sys
import tempfile
import time

import numpy as np

from la import data
from la.bench import speed, speed_line
from la.bench.nn import best_time
from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.features.encodings import PAPER_FEATURES
from la.heuristics.pdb import PDBHeuristic, partition_sums
from la.pdb import sets, store
from la.runs.processes import Workers
from la.runs.progress import BuildProgress
from la.search import ida_star

# Per domain: its test set, the heuristics timed, the targets of the issue and the authors' speed
# (Table 3).
CASES = {
    "24-puzzle": {"tasks": data.korf50_24, "heuristics": ("pdb", "max-pdb"),
                  "target_build_seconds": 180,
                  "target_peak_memory_mb": 1024, "target_nodes_per_second": {"pdb": 3e6},
                  "authors_nodes_per_second": 0.46e6},
    "24-pancake": {"tasks": data.pancake50_24, "heuristics": ("max-pdb",),
                   "target_build_seconds": 300,
                   "target_peak_memory_mb": None, "target_nodes_per_second": {"max-pdb": 2e6},
                   "authors_nodes_per_second": 0.27e6},
    "15-blocksworld": {"tasks": data.blocksworld50_15, "heuristics": ("max-pdb",),
                       "target_build_seconds": 600,
                       "target_peak_memory_mb": None, "target_nodes_per_second": {"max-pdb": 2e6},
                       "authors_nodes_per_second": 2.1e6},
}
TASKS, NODE_LIMIT = 5, 3_000_000          # the first 5 tasks of each test set, up to 3 M nodes each
QUICK_TASKS, QUICK_NODE_LIMIT = 2, 100_000
BATCH, QUICK_BATCH = 25_000, 2_500        # states encoded at once: paper §5 MemoryBufferMaxRecords
WALK_STEPS = 100                          # the random walks' lengths are drawn from 1..WALK_STEPS
QUICK_ITEMS = 2                           # quick: each pattern cut to its first two tiles, pancakes
                                          # or blocks


def patterns(domain: str, quick: bool) -> dict:
    """The domain's named pattern lists (`la.pdb.sets`), each pattern cut to QUICK_ITEMS items if
    `quick`."""
    named = sets.partitions(domain)
    return {name: [tuple(p[:QUICK_ITEMS]) if quick else tuple(p) for p in group]
            for name, group in named.items()}


def unique(named: dict) -> list:
    """Every pattern once, in order (as `la.pdb.sets.load_set` builds them)."""
    return list(dict.fromkeys(p for group in named.values() for p in group))


def peak_memory_mb() -> float:
    """This process's peak resident memory so far, in MiB.

    On Linux, ru_maxrss of a spawned process starts at its parent's size when it forked, before the
    exec (a 100 MB parent's child reports 100 MB however little it uses), so the kernel's own
    high-water mark of the running program, VmHWM in /proc/self/status, is read instead; ru_maxrss
    elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024                     # "VmHWM:  123456 kB"
    except OSError:
        pass
    kib = 1024 if sys.platform == "darwin" else 1                    # macOS counts bytes, Linux KiB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / kib / 1024


def build(domain: str, todo: list, folder: str, quiet: bool) -> dict:
    """Build the PDBs of `todo` into `folder`, one after the other: run in a child process of its
    own."""
    start_mb = peak_memory_mb()
    began, cpu = time.perf_counter(), time.process_time()
    seconds = []
    for pattern in todo:
        abstraction = sets.abstraction(domain, pattern)
        if store.paths(abstraction, folder)[0].exists():
            raise RuntimeError(f"{store.paths(abstraction, folder)[0]} exists before the build: "
                               "not from scratch")
        tick = time.perf_counter()
        store.load(abstraction, folder, None if quiet else BuildProgress())
        seconds.append(time.perf_counter() - tick)
    return {"build_seconds": time.perf_counter() - began,
            "build_cpu_seconds": time.process_time() - cpu,
            "pdb_seconds": seconds, "peak_memory_mb": peak_memory_mb(), "start_memory_mb": start_mb}


def build_in_child(domain: str, todo: list, folder: str, quiet: bool) -> dict:
    """`build` in a fresh spawned process, so that its peak memory is the build's alone. The process
    is one of the experiments' workers (`la.runs.processes`): it stops when this process dies, even
    by SIGKILL, where a `ProcessPoolExecutor`'s worker would wait for its next task for ever."""
    with Workers(1) as worker:
        for _, kind, answer in worker.run(_build_unit, [(domain, todo, quiet)], folder):
            if kind == "failed":
                raise RuntimeError(f"the {domain} PDB build failed in its process: {answer[0]}")
            return answer


def _build_unit(unit: tuple, folder: str, verbose: bool) -> dict:
    """`build` as a worker runs a unit (`Workers.run` calls function(unit, out, verbose))."""
    domain, todo, quiet = unit
    return build(domain, todo, folder, quiet)


def _no_build(fraction, text):
    raise RuntimeError(f"a PDB was missing from the benchmark's folder after the build ({text})")


def heuristic(encoding, kind: str) -> PDBHeuristic:
    """`pdb` or `max-pdb` on an encoding's PDBs, as `la.heuristics.pdb.pdb_heuristic` /
    `max_pdb_heuristic` make them from the cache folder."""
    return PDBHeuristic(encoding,
                        partition_sums(encoding) if kind == "pdb" else encoding.floor_columns)


def search(domain, h, tasks, node_limit: int) -> dict:
    """Nodes per second of IDA* over `tasks`, and the CPU seconds taken (on a busy machine, fewer
    than the wall clock's); a solved task must have its known optimal cost."""
    cpu = time.process_time()
    results = [ida_star(domain, h, task.state, node_limit=node_limit) for task in tasks]
    cpu = time.process_time() - cpu
    for task, r in zip(tasks, results):
        if r.bounds[0] > task.optimal or (r.solved and r.cost != task.optimal):
            raise RuntimeError(f"{domain.name} task {task.id}: h(start) {r.bounds[0]}, "
                               f"cost {r.cost}, "
                               f"expected h(start) <= cost = {task.optimal}")
    return {**speed(results), "cpu_seconds": cpu, "solved": sum(r.solved for r in results)}


def measure(name: str, folder: str, rng: np.random.Generator, quick: bool) -> dict:
    """Build the domain's PDB set into `folder` (a child process), then time IDA* and the encoding
    with it."""
    case, domain = CASES[name], make_domain(name)
    named = patterns(name, quick)
    row = {"patterns": [list(p) for p in unique(named)], "quick": quick,
           **build_in_child(name, unique(named), folder, quiet=quick)}
    pdbs = {group: [store.load(sets.abstraction(name, p), folder, _no_build)
                    for p in group_patterns]
            for group, group_patterns in named.items()}
    encoding = PAPER_FEATURES[name](domain, pdbs)
    tasks = case["tasks"]()[:QUICK_TASKS if quick else TASKS]
    node_limit = QUICK_NODE_LIMIT if quick else NODE_LIMIT
    row.update(tasks=[t.id for t in tasks], node_limit=node_limit)
    for h in case["heuristics"]:
        row[h] = {**search(domain, heuristic(encoding, h), tasks, node_limit),
                  "target_nodes_per_second": case["target_nodes_per_second"].get(h)}
    n = QUICK_BATCH if quick else BATCH
    states = random_walk(domain, rng.integers(1, WALK_STEPS + 1, n), rng, n)
    row.update(encoding_batch=n, encodings_per_second=n / best_time(lambda: encoding(states), 3),
               **{k: case[k] for k in ("target_build_seconds", "target_peak_memory_mb",
                                       "authors_nodes_per_second")})
    return row


def run(rng: np.random.Generator, quick: bool = False) -> dict:
    """One row per domain, keyed by its name; the PDBs live in a temporary folder removed at the
    end."""
    with tempfile.TemporaryDirectory(prefix="la-bench-pdb-") as folder:
        return {name: measure(name, folder, rng, quick) for name in CASES}


def report(rows: dict) -> list[str]:
    """Human-readable lines."""
    lines = ["PDBs built from scratch (one child process per domain, one core), "
             "then IDA* (depth-first order) "
             "and the network inputs with them"]
    for name, row in rows.items():
        kind = (f"each pattern cut to {QUICK_ITEMS} items (quick: no target applies)"
                if row["quick"] else "the paper's set")
        target = "" if row["quick"] else f" (target <= {row['target_build_seconds'] / 60:.0f} min)"
        memory = "" if row["quick"] or row["target_peak_memory_mb"] is None else \
            f" (target <= {row['target_peak_memory_mb']:.0f} MB)"
        lines += [f"{name}: {len(row['patterns'])} PDBs, {kind}",
                  f"  built in {row['build_seconds']:.1f} s{target}, "
                  f"{row['build_cpu_seconds']:.1f} s of CPU; "
                  f"peak memory {row['peak_memory_mb']:.0f} MB{memory} "
                  f"({row['start_memory_mb']:.0f} MB before "
                  f"building)"]
        tasks = (f"tasks {row['tasks'][0]}..{row['tasks'][-1]}, "
                 f"up to {row['node_limit']:,} nodes each")
        for h in CASES[name]["heuristics"]:
            target = row[h]["target_nodes_per_second"]
            per_cpu = row[h]["generated"] / row[h]["cpu_seconds"] / 1e6
            note = f"({per_cpu:.2f} M per CPU second; {row[h]['solved']} solved" + \
                   (f"; target >= {target / 1e6:.0f} M/s)" if target and not row["quick"] else ")")
            lines.append(speed_line(f"IDA* + {h}", row[h], note))
        lines += [f"  IDA* on {tasks}; the authors' C# planned at about "
                  f"{row['authors_nodes_per_second'] / 1e6:.2f} M nodes/s "
                  "here with its learned heuristic "
                  f"(paper, Table 3)",
                  f"  network inputs: {row['encodings_per_second']:,.0f} states/s (batches of "
                  f"{row['encoding_batch']:,} random-walk states)"]
    return lines
