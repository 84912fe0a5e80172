"""The bounded-suboptimal experiment's unit (`la.experiments.bounded`): one search, one focal
heuristic (or none: weighted A*) and one w on the domain's test tasks, one record per task with its
certificate. Called by the runner (`la.runs.runner.run_units`) with its spec, the results folder and
whether to print progress; returns what its `unit.json` keeps. A unit cut short continues after the
last task it finished (its tasks.json).
"""
import time
from pathlib import Path

from la.domains.names import make_domain
from la.experiments.bounded_config import HEURISTICS
from la.experiments.bounded_table import summarize
from la.experiments.trained import trained_network
from la.heuristics.classical import make_heuristic
from la.heuristics.likely_admissible import LikelyAdmissible
from la.heuristics.pdb import PDBHeuristic, partition_sums, pdb_heuristic
from la.io import write_json
from la.runs.folder import TASKS, read_tasks
from la.runs.network import encoding_for
from la.runs.progress import BuildProgress, Heartbeat, duration
from la.runs.runner import unit_progress
from la.search.focal import focal_search
from la.search.weighted_a_star import weighted_a_star

TASK_LABELS = {"15-puzzle": "Korf #", "24-puzzle": "Korf & Felner #"}


def floor_heuristic(domain: str, floor: str, pdb_dir=None):
    """h_ad: md, gap or hamming; max-pdb or pdb from the networks' own PDB features (loaded once
    per process, `encoding_for`); the 15-puzzle's pdb from its 6-6-3 PDBs (`la.pdb.sets`)."""
    made = make_domain(domain)
    if floor in ("md", "gap", "hamming"):
        return make_heuristic(floor, made)
    if domain == "15-puzzle":
        return pdb_heuristic(made, pdb_dir, BuildProgress())
    encoding = encoding_for(domain, None, pdb_dir)
    return PDBHeuristic(encoding, encoding.floor_columns if floor == "max-pdb"
                        else partition_sums(encoding))


def focal_heuristic(spec: dict):
    """h_F: y^α of the committed α network, or the single-output network's mean (the floor h_ad
    of the network's inputs under either, as in IDA*: `la.heuristics.likely_admissible`)."""
    which, alpha = HEURISTICS[spec["heuristic"]]
    network, encoding = trained_network({**spec, "run": spec["config"].network_run}, which)
    return LikelyAdmissible(network, encoding, alpha)


def task_record(instance, result) -> dict:
    """One task's outcome: its certificate and counts, and what it is checked against (C*)."""
    return {"id": instance.id, "optimal": instance.optimal, "solved": result.solved,
            "status": result.status, "cost": result.cost, "lower_bound": result.lower_bound,
            "certified_ratio": result.certified_ratio, "generated": result.generated,
            "expanded": result.expanded, "reopened": result.reopened, "stored": result.stored,
            "peak_bytes": result.peak_bytes, "seconds": result.seconds}


def search_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Search every test task with the unit's search, focal heuristic and w."""
    cfg, search, heuristic, weight = (spec["config"], spec["search"], spec["heuristic"],
                                      spec["weight"])
    domain = make_domain(cfg.domain)
    h_ad = floor_heuristic(cfg.domain, cfg.floor, spec.get("pdb_dir"))
    h_focal = None if search == "wastar" else focal_heuristic(spec)
    folder = out / spec["name"]
    progress = unit_progress(folder, spec["name"], verbose)
    records = read_tasks(folder / TASKS) if (folder / TASKS).exists() else []
    tasks = cfg.tasks()
    if [r["id"] for r in records] != [t.id for t in tasks[:len(records)]]:
        raise ValueError(f"{folder / TASKS} holds other tasks than this unit's; delete it to redo "
                         f"the unit")
    if records:
        progress(f"continuing after the {len(records)} tasks done before (kept in {TASKS})")
    label = TASK_LABELS.get(cfg.domain, f"{cfg.domain} task #")
    limits = dict(k=cfg.batch, node_limit=cfg.node_limit, memory_limit=cfg.memory_limit)
    began, done_before = time.perf_counter(), len(records)
    for i, instance in enumerate(tasks[len(records):], start=len(records)):
        started = time.perf_counter()
        beat = lambda: progress(f"{label}{instance.id}: searching for "                   # noqa
                                f"{duration(time.perf_counter() - started)}")
        with Heartbeat(beat):
            result = (weighted_a_star(domain, h_ad, instance.state, weight, **limits)
                      if h_focal is None else
                      focal_search(domain, h_ad, h_focal, instance.state, weight, **limits))
        records.append(task_record(instance, result))
        write_json(folder / TASKS, records)
        found = (f"cost {result.cost} (optimal {instance.optimal}), certified ratio "
                 f"{result.certified_ratio:.3f}" if result.solved
                 else f"not solved ({result.status}; optimal {instance.optimal})")
        left = (time.perf_counter() - began) / (i + 1 - done_before) * (len(tasks) - i - 1)
        progress(f"{label}{instance.id} {found}, {result.generated:,} nodes, "
                 f"{result.peak_bytes / 1e6:.0f} MB, {result.seconds:.1f} s ({i + 1} of "
                 f"{len(tasks)}; about {duration(left)} left)")
    s = summarize(records, weight)
    return {"search": search, "heuristic": heuristic, "weight": weight, "records": records, **s,
            "summary": f"{s['solved']}/{s['tasks']} solved"
                       + ("" if s["subopt"] is None else
                          f", largest certified ratio {s['ratio_max']:.3f}, subopt "
                          f"{s['subopt']:.2f} %, optimal {s['optimal']:.1f} %")}
