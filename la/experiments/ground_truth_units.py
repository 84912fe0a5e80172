"""The ground-truth experiment's units (`la.experiments.ground_truth`): training one network of a
run with LearnHeuristicPrac (in the oracle arm with every label h*), the conformal arm's
calibration of q_α on searched states, testing one row on the run's uniform test tasks with IDA*
(a sample of the states each search generates kept), and measuring one run against exact h*
(`la.experiments.ground_truth_audit`). Each is called by the runner (`la.runs.runner.run_units`)
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
from la.heuristics.classical import classical_admissible
from la.heuristics.likely_admissible import LikelyAdmissible
from la.io import write_json
from la.pdb.exact import h_star_table
from la.rivals.calibration import conformal_quantile, residuals
from la.rivals.optimal_labels import table_solver
from la.runs.folder import TASKS, read_result, read_tasks
from la.runs.machine import machine
from la.runs.network import encoding_for, save_network
from la.runs.progress import duration
from la.runs.runner import unit_progress, unit_rng
from la.runs.training import train
from la.search import ida_star

# unit_rng keys under a run: the two networks, the test tasks, each row's samples (+ its index;
# the reference row's index follows the learned rows'), the conformal arm's calibration tasks and
# (+ 1 + the α's index) their samples
KEYS = {"alpha": 0, "mean": 1, "tasks": 2, "rows": 3, "calibration": 100}
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
    domain = make_domain(cfg.domain)
    learner = train(domain, learn_cfg, unit_rng(spec["seed"], spec["run"], KEYS[which]), encoding,
                    checkpoint=folder / "checkpoint.npz",
                    progress=unit_progress(folder, name, verbose), snapshots=None,
                    relabel=table_solver(domain, exact(spec)) if cfg.arm == "oracle" else None)
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


def row_heuristic(spec: dict):
    """The row's test-time heuristic (σ_t = σ_a, paper §5): y^α of the α network (in the conformal
    arm with its q_α), the N/A network's mean, or the admissible reference (MD or gap)."""
    cfg, row = spec["config"], spec["row"]
    if row == cfg.reference:
        return classical_admissible(make_domain(cfg.domain))
    network, encoding = trained_network(spec, "mean" if row == "N/A" else "alpha")
    if row == "N/A" or cfg.arm != "conformal":
        return LikelyAdmissible(network, encoding, None if row == "N/A" else float(row))
    calibrated = read_result(Path(spec["networks"]) / f"run{spec['run']}" / "conformal"
                             / "unit.json")
    q = next(r["q"] for r in calibrated["rows"] if str(r["alpha"]) == row)
    return LikelyAdmissible(network, encoding, float(row), quantile=q)


def conformal_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """The conformal arm's q_α for each α: the one-sided split-conformal quantile
    (`la.rivals.calibration`, the (n + 1) rank) of the standardised residuals of states drawn
    uniformly from every state the searches of the plain y^α generated on `calibration_tasks`
    uniform tasks, each labelled with its h* (goals left out). Searched states are neither
    independent nor drawn like the test searches' (those of the calibrated h): the guarantee of
    split conformal prediction does not carry over, and the measurements say how far it falls."""
    cfg, run = spec["config"], spec["run"]
    domain, table = make_domain(cfg.domain), exact(spec)
    progress = unit_progress(out / spec["name"], spec["name"], verbose)
    network, encoding = trained_network(spec, "alpha")
    starts = uniform_states(domain, cfg.calibration_tasks,
                            unit_rng(spec["seed"], run, KEYS["calibration"]))
    rows = []
    for k, alpha in enumerate(cfg.alphas):
        plain = LikelyAdmissible(network, encoding, alpha)
        # one reservoir over all the searches: uniform over every state they generated
        sampler = Sampler(plain, domain, cfg.calibration_tasks * cfg.searched_per_task,
                          unit_rng(spec["seed"], run, KEYS["calibration"] + 1 + k))
        for start in starts:
            ida_star(domain, sampler, start, node_limit=cfg.test_node_limit, order=cfg.order)
        h_star = table(sampler.sample)
        states, h_star = sampler.sample[h_star > 0], h_star[h_star > 0]
        q = conformal_quantile(residuals(plain, states, h_star), alpha)
        # the plain y^α = μ − σ_a·Φ⁻¹(α) is the bound μ + σ_a·q at q = −Φ⁻¹(α)
        rows.append({"alpha": alpha, "q": q, "plain_q": -float(plain.z_alpha),
                     "states": int(len(h_star)), "evaluated": sampler.evaluated})
        progress(f"α {alpha}: q_α {q:+.3f} (plain −Φ⁻¹(α) {rows[-1]['plain_q']:+.3f}) from "
                 f"{len(h_star):,} searched states")
    return {"run": run, "rows": rows,
            "summary": ", ".join(f"α {r['alpha']}: q_α {r['q']:+.2f}" for r in rows)}


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
    index = [*cfg.rows(), cfg.reference].index(row)
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
