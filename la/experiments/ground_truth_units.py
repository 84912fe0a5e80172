"""The ground-truth experiment's units (`la.experiments.ground_truth`): training one network of a
run with LearnHeuristicPrac, testing one row on the run's uniform test tasks with IDA* (a sample of
the states each search generates kept), and measuring one run against exact h*
(`la.experiments.ground_truth_measure`). Each is called by the runner (`la.runs.runner.run_units`)
with its spec, the results folder and whether to print progress, and returns what its `unit.json`
keeps.
"""
import time
from pathlib import Path

import numpy as np

from la.domains.names import make_domain
from la.domains.uniform import uniform_states
from la.experiments.ground_truth_measures import subopt_summary
from la.experiments.trained import trained_network
from la.heuristics.likely_admissible import LikelyAdmissible
from la.io import write_json
from la.pdb.exact import h_star_table
from la.runs.folder import TASKS, read_tasks
from la.runs.machine import machine
from la.runs.network import encoding_for, save_network
from la.runs.progress import duration
from la.runs.runner import unit_progress, unit_rng
from la.runs.training import train
from la.search import ida_star

# unit_rng keys under a run: the two networks, the test tasks, each row's samples (+ its index)
KEYS = {"alpha": 0, "mean": 1, "tasks": 2, "rows": 3}
SAVE_EVERY = 5.0     # seconds: a test unit keeps its tasks.json at most this often (and at its end)


def exact(spec: dict):
    """The domain's exact table (`la.pdb.exact`), from the PDB cache (built there by the command
    line before any unit starts)."""
    return h_star_table(make_domain(spec["config"].domain), spec.get("pdb_dir"))


def test_tasks(spec: dict) -> np.ndarray:
    """The run's uniform test tasks (n, N): the same for every row of the run."""
    cfg = spec["config"]
    return uniform_states(make_domain(cfg.domain), cfg.test_tasks,
                          unit_rng(spec["seed"], spec["run"], KEYS["tasks"]))


def train_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Train one network of one run; keep its checkpoint, the FFNN, the WUNN and the log."""
    cfg, name, which = spec["config"], spec["name"], spec["network"]
    folder = out / name
    learn_cfg = cfg.learn if which == "alpha" else cfg.learn_mean
    encoding = encoding_for(cfg.domain, cfg.encoding, spec.get("pdb_dir"))
    learner = train(make_domain(cfg.domain), learn_cfg,
                    unit_rng(spec["seed"], spec["run"], KEYS[which]), encoding,
                    checkpoint=folder / "checkpoint.npz",
                    progress=unit_progress(folder, name, verbose), snapshots=None)
    save_network(learner.ffnn, encoding, folder / "network.npz")
    save_network(learner.wunn, encoding, folder / "wunn.npz")
    write_json(folder / "train_log.json", learner.log)
    return {"run": spec["run"], "network": which, "solved_train": learner.solved_fraction(),
            "iterations": learner.iteration, "machine": machine(),
            "seconds": sum(e["plan_seconds"] + e["train_seconds"] for e in learner.log),
            "summary": f"solved {100 * learner.solved_fraction():.1f} % of its training tasks"}


class Sampler:
    """The row's heuristic, passing every call through, that keeps a uniform sample of `size` of
    the states it scores over one search (each node once, a state generated again in a later IDA*
    iteration again; besides the nodes IDA* counts as generated, those its batches ran ahead to in
    the last iteration, `la.search.depth_first`): each gets a key U(0, 1), the `size` smallest
    stay. Incremental like the heuristic it wraps (`la.heuristics.base`), so the search runs at
    its own speed; a step's children are built only where they enter the sample."""

    def __init__(self, h, domain, size: int, rng: np.random.Generator):
        self.h, self.domain, self.size, self.rng = h, domain, size, rng
        self.sample, self.keys, self.evaluated = None, np.empty(0), 0

    def _keep(self, count: int, states_of) -> None:
        """Draw `count` keys; `states_of(index)` builds the new states at those indices."""
        self.evaluated += count
        keys = np.concatenate([self.keys, self.rng.random(count)])
        keep = np.sort(np.argsort(keys, kind="stable")[:self.size])
        old = len(self.keys)
        new = states_of(keep[keep >= old] - old)
        self.sample = new if self.sample is None else np.concatenate(
            [self.sample[keep[keep < old]], new])
        self.keys = np.concatenate([keys[keep[keep < old]], keys[keep[keep >= old]]])

    def start(self, states):
        self._keep(len(states), lambda i: states[i])
        return self.h.start(states)

    def step(self, states, h, carry, parent, move):
        """`states` are the parents (`la.heuristics.base`); the children are parent[i] + move[i]."""
        self._keep(len(parent), lambda i: self.domain.apply(states, parent[i], move[i]))
        return self.h.step(states, h, carry, parent, move)


def row_heuristic(spec: dict) -> LikelyAdmissible:
    """The row's test-time heuristic (σ_t = σ_a, paper §5): y^α of the α network, or the N/A
    network's mean."""
    row = spec["row"]
    network, encoding = trained_network(spec, "mean" if row == "N/A" else "alpha")
    return LikelyAdmissible(network, encoding, None if row == "N/A" else float(row))


def test_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Solve the run's test tasks with one row's heuristic; per task its record and the ranks of a
    sample of the states its search generated."""
    cfg, row = spec["config"], spec["row"]
    domain, table, h = make_domain(cfg.domain), exact(spec), row_heuristic(spec)
    starts = test_tasks(spec)
    optimal = table(starts)
    folder = out / spec["name"]
    progress = unit_progress(folder, spec["name"], verbose)
    records = read_tasks(folder / TASKS) if (folder / TASKS).exists() else []
    if len(records) > len(starts) or [r["id"] for r in records] != list(range(len(records))):
        raise ValueError(f"{folder / TASKS} holds other tasks than this row's; delete it to redo "
                         f"the row")
    if records:
        progress(f"continuing after the {len(records)} tasks done before (kept in {TASKS})")
    saved, began, done_before = time.perf_counter(), time.perf_counter(), len(records)
    index = cfg.rows().index(row)
    for i in range(len(records), len(starts)):
        sampler = Sampler(h, domain, cfg.searched_per_task,
                          unit_rng(spec["seed"], spec["run"], KEYS["rows"] + index, i))
        result = ida_star(domain, sampler, starts[i], node_limit=cfg.test_node_limit,
                          order=cfg.order)
        records.append({"id": i, "optimal": int(optimal[i]), "solved": result.solved,
                        "cost": result.cost, "generated": result.generated,
                        "seconds": result.seconds, "evaluated": sampler.evaluated,
                        "sample": table.abstraction.rank(sampler.sample).tolist()})
        now = time.perf_counter()
        if now - saved >= SAVE_EVERY or i == len(starts) - 1:
            write_json(folder / TASKS, records)
            left = (now - began) / (i + 1 - done_before) * (len(starts) - i - 1)
            progress(f"{i + 1} of {len(starts)} tasks, {sum(r['solved'] for r in records)} "
                     f"solved (about {duration(left)} left)")
            saved = now
    s = subopt_summary(records)
    return {"run": spec["run"], "row": row, "records": records, **s,
            "summary": f"{s['tasks'] - s['unsolved']}/{s['tasks']} solved"
                       + ("" if s["subopt"] is None
                          else f", subopt {s['subopt']:.2f} %, optimal {s['optimal']:.1f} %")}
