"""The confidence experiment's searches (`la.experiments.confidence`, phase 3): one unit per row of
the coverage table (`la.experiments.confidence_config.Row`), which searches every test task of its
block with the row's network, confidence signal, threshold and queue, within the block's budget.

A row's threshold comes from the confidences its network gave the training states, kept by the
network unit (`confidences.npz`): X % of them lie below it (`la.heller.thresholds`).
"""
import functools
from dataclasses import asdict
from pathlib import Path

from la.domains.names import make_domain
from la.experiments import confidence_table as tables
from la.experiments.confidence_config import SIGMA_NETWORKS, Row
from la.experiments.suboptimality_units import TASK_LABELS
from la.experiments.table3 import TEST_SETS
from la.heller.dual_queue import dual_queue
from la.heller.evaluators import NNEvaluator, SigmaA, SigmaE
from la.heller.greedy import gbfs
from la.heller.teacher import teacher_heuristic
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold, values_only
from la.runs.network import encoding_for, load_network
from la.runs.persist import read_arrays
from la.runs.runner import unit_progress
from la.search import check_plan


@functools.lru_cache(maxsize=None)
def classical_heuristic(domain: str, pdb_dir: str | None):
    """The teacher's and the dual queue's heuristic, made once per process (PDBs loaded once)."""
    return teacher_heuristic(make_domain(domain), pdb_dir)


def sigma_signal(which: str, net, cfg):
    """The confidence −σ of the WUNN ("WUNN") or the FFNN ("FFNN", whose σ_a is scaled back to cost
    units)."""
    return SigmaE(net) if which == "WUNN" else SigmaA(net)


def thresholds(row: Row, path: Path):
    """The row's MeanThreshold or AdaptiveThreshold at X %, from the confidences kept in `path`."""
    kept = read_arrays(path, "file of training confidences")
    if not {"c", "costs"} <= kept.keys():
        raise ValueError(f"{path}: holds no training confidences (arrays 'c' and 'costs')")
    c, costs = kept["c"], kept["costs"]
    if row.threshold == "mean":
        return MeanThreshold.from_training(c, row.X)
    return AdaptiveThreshold.from_training(c, costs, row.X)


def search(row: Row, domain, evaluator, classical, rule, start, limit: int):
    """One test task with the row's search configuration (`Row`)."""
    if row.signal == "classical":
        return gbfs(domain, classical, start, node_limit=limit)
    if row.queue == "single":
        if rule is None:
            return gbfs(domain, values_only(evaluator), start, node_limit=limit)
        return gbfs(domain, evaluator, start, node_limit=limit, prune=rule)
    rules = {} if rule is None else {row.rule: rule}                        # prune= or prioritise=
    return dual_queue(domain, evaluator, classical, start, node_limit=limit, **rules)


def searcher(cfg, row: Row, folder: Path, pdb_dir) -> tuple:
    """What `search` needs for `row`: (domain, NN evaluator, classical heuristic, threshold rule),
    the networks and their training confidences read from a run's `folder`; the evaluator and rule
    are None for GBFS classical."""
    domain, classical = make_domain(cfg.domain), classical_heuristic(cfg.domain, pdb_dir)
    if row.signal == "classical":
        return domain, None, classical, None
    source = row.network or cfg.search_network                          # Table 3 names its network
    net, about = load_network(folder / source / "network.npz", domain)
    signal = None
    if row.signal != "softmax":
        source = SIGMA_NETWORKS[row.signal]
        signal = sigma_signal(source, load_network(folder / source / "network.npz", domain)[0], cfg)
    evaluator = NNEvaluator(net, encoding_for(cfg.domain, about["encoding"], pdb_dir), signal)
    rule = None if row.threshold is None else thresholds(row, folder / source / "confidences.npz")
    return domain, evaluator, classical, rule


def search_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Phase 3: one row of the coverage table on every test task, within its block's budget; one
    record per task."""
    cfg, name, row = spec["config"], spec["name"], Row(**spec["row"])
    limit = cfg.node_limit if row.block == "moderate" else cfg.hard_node_limit
    trained = Path(spec["networks"]) if spec.get("networks") else out    # --networks: another run's
    domain, evaluator, classical, rule = searcher(cfg, row, trained / f"run{spec.get('run')}",
                                                  spec["pdb_dir"])
    progress, records = unit_progress(out / name, name, verbose), []
    label = TASK_LABELS.get(cfg.domain, f"{cfg.domain} task #")
    for task in [t for t in TEST_SETS[cfg.domain]() if t.id in cfg.instances]:
        result = search(row, domain, evaluator, classical, rule, task.state, limit)
        if result.solved:
            check_plan(domain, task.state, result.plan)
        records.append({"id": task.id, "optimal": task.optimal, "solved": result.solved,
                        "cost": result.cost, "generated": result.generated,
                        "expanded": result.expanded, "seconds": result.seconds,
                        "status": result.status})
        found = f"cost {result.cost}" if result.solved else result.status
        progress(f"{label}{task.id}: {found}, {result.generated:,} nodes, {result.seconds:.1f} s")
    s = tables.summarize(records)
    return {"run": spec.get("run"), "row": asdict(row), "name": row.name, "records": records, **s,
            "summary": f"{row.name}: {s['solved']}/{s['tasks']} solved"
                       + ("" if s["generated"] is None
                          else f", {s['generated']:,.0f} nodes on average")}


def search_specs(cfg, runs: list, base: dict) -> list:
    """One unit per row and run; GBFS with the classical heuristic belongs to no run, one unit per
    block."""
    rows = cfg.rows()
    specs = [{**base, "name": "classical" if row.block == "moderate" else f"{row.block}-classical",
              "row": asdict(row)} for row in rows if row.signal == "classical"]
    return specs + [{**base, "name": f"run{r}/search/{row.key}", "run": r, "row": asdict(row)}
                    for r in runs for row in rows if row.signal != "classical"]
