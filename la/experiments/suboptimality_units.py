"""The suboptimality experiment's units (`la.experiments.suboptimality`): training one network of a
run with LearnHeuristicPrac, testing one row on the test tasks with IDA*, and one run's calibration
(for each α, how often y^α <= h*). Each is called by the runner (`la.runs.runner.run_units`) with
its spec, the results folder and whether to print progress, and returns what its `unit.json` keeps.
"""
from pathlib import Path

from la.domains.names import make_domain
from la.experiments import baselines, figure_data, table3
from la.experiments.suboptimality_table import NETWORKS, summarize
from la.experiments.trained import calibration_states, trained_network
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures
from la.heuristics.classical import make_heuristic
from la.heuristics.likely_admissible import LikelyAdmissible
from la.heuristics.pdb import PDBHeuristic, partition_sums
from la.io import write_json
from la.rivals.authors_sampler import authors_minibatch
from la.rivals.calibration import calibration, uniform_blocksworld
from la.rivals.optimal_labels import optimal_solver
from la.runs.folder import TASKS, read_tasks
from la.runs.machine import machine
from la.runs.network import encoding_for, save_network
from la.runs.runner import unit_progress, unit_rng
from la.runs.training import train
from la.search import ida_star

# how progress lines name a test task
TASK_LABELS = {"15-puzzle": "Korf #", "24-puzzle": "Korf & Felner #"}
UNIFORM_KEY = (0, 1)     # blocksworld's uniform calibration states: run 0 is no run's, so no unit's


def baseline_heuristic(cfg, domain, pdb_dir=None):
    """The admissible baseline row's heuristic: md or gap, or pdb / max-pdb on the networks' PDB
    features (`la.heuristics.pdb`), whose PDBs are then loaded once."""
    if cfg.baseline in ("md", "gap"):
        return make_heuristic(cfg.baseline, domain)
    encoding = encoding_for(cfg.domain, cfg.encoding, pdb_dir)
    if cfg.baseline == "max-pdb":
        return PDBHeuristic(encoding, encoding.floor_columns)
    if not isinstance(encoding, (TileFeatures, PancakeFeatures)):
        raise ValueError(f"baseline 'pdb' needs additive PDB partitions, not {encoding!r} (try "
                         f"max-pdb)")
    return PDBHeuristic(encoding, partition_sums(encoding))


def train_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Train one network of one run; keep its checkpoint, network and log."""
    cfg, name, which = spec["config"], spec["name"], spec["network"]
    folder = out / name
    learn_cfg = cfg.learn if which == "alpha" else cfg.learn_mean
    learner = train(make_domain(cfg.domain), learn_cfg,
                    unit_rng(spec["seed"], spec["run"], NETWORKS.index(which)),
                    encoding_for(cfg.domain, cfg.encoding, spec.get("pdb_dir")),
                    checkpoint=folder / "checkpoint.npz",
                    progress=unit_progress(folder, name, verbose), snapshots=folder / "snapshots",
                    minibatch=authors_minibatch if spec.get("sampler") == "authors" else None,
                    relabel=(optimal_solver(make_domain(cfg.domain), pdb_folder=spec.get("pdb_dir"))
                             if spec.get("labels") == "optimal" else None))
    save_network(learner.ffnn, learner.encoding, folder / "network.npz")
    write_json(folder / "train_log.json", learner.log)
    if which == "alpha" and cfg.domain == "15-puzzle":       # Figures 1 and 2 draw 15-puzzle boards
        write_json(folder / "generate_task.json",
                   figure_data.generate_task_traces(folder / "checkpoint.npz",
                                                    learn_cfg, spec["seed"]))
    return {"run": spec["run"], "network": which, "solved_train": learner.solved_fraction(),
            "iterations": learner.iteration, "machine": machine(),
            "seconds": sum(e["plan_seconds"] + e["train_seconds"] for e in learner.log),
            "summary": f"solved {100 * learner.solved_fraction():.1f} % of its training tasks"}


def test_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Solve the chosen test tasks with one row's heuristic; one record per task."""
    cfg, row = spec["config"], spec["row"]
    domain = make_domain(cfg.domain)
    if row == cfg.baseline_row:
        h, limit, chosen = baseline_heuristic(cfg, domain, spec.get("pdb_dir")), \
            cfg.baseline_node_limit, cfg.baseline_instances
    elif row == "N/A" or row in map(str, cfg.alphas):
        network, encoding = trained_network(spec, "mean" if row == "N/A" else "alpha")
        h = LikelyAdmissible(network, encoding, None if row == "N/A" else float(row))
        limit, chosen = cfg.test_node_limit, cfg.instances
    else:                                                  # Boot, OP α, OP4 α, conf α (--baselines)
        h = baselines.row_heuristic(spec, row, lambda: trained_network(spec, "alpha"))
        limit, chosen = cfg.test_node_limit, cfg.instances
    folder = out / spec["name"]
    progress = unit_progress(folder, spec["name"], verbose)
    # those done before an interruption
    records = read_tasks(folder / TASKS) if (folder / TASKS).exists() else []
    if any(r["id"] not in chosen for r in records):
        raise ValueError(f"{folder / TASKS} holds tasks this row does not test; delete it to redo "
                         f"the row")
    if records:
        progress(f"continuing after the {len(records)} tasks done before (kept in {TASKS})")
    done = {r["id"] for r in records}
    label = TASK_LABELS.get(cfg.domain, f"{cfg.domain} task #")
    todo = [i for i in table3.TEST_SETS[cfg.domain]() if i.id in chosen and i.id not in done]
    tasks = len(records) + len(todo)
    for instance in todo:
        result = ida_star(domain, h, instance.state, node_limit=limit, order=cfg.order)
        records.append({"id": instance.id, "optimal": instance.optimal, "solved": result.solved,
                        "cost": result.cost, "generated": result.generated,
                        "seconds": result.seconds})
        write_json(folder / TASKS, records)
        found = (f"cost {result.cost} (optimal {instance.optimal})" if result.solved
                 else "not solved")
        # at the row's pace
        left = sum(r["seconds"] for r in records) / len(records) * (tasks - len(records))
        progress(f"{label}{instance.id} {found}, {result.generated:,} nodes, "
                 f"{result.seconds:.1f} s ({len(records)} of {tasks}; "
                 f"about {left / 60:.1f} min left)")
    s = summarize(records)
    return {"run": spec.get("run"), "row": row, "records": records, **s,
            "summary": f"{s['tasks'] - s['unsolved']}/{s['tasks']} solved"
                       + ("" if s["subopt"] is None
                          else f", subopt {s['subopt']:.2f} %, optimal {s['optimal']:.1f} %")}


def calibration_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """For each α, the fraction of the states with known h* with y^α <= h* (and with h <= h*): on
    the test tasks' optimal plans (the 5,305 states of Korf's 100 on the 15-puzzle) and, on
    blocksworld, on uniform states too, the same ones in every run."""
    cfg = spec["config"]
    network, encoding = trained_network(spec, "alpha")
    heuristic_for = lambda alpha: LikelyAdmissible(network, encoding, alpha)            # noqa: E731
    rows = calibration(heuristic_for, *calibration_states(cfg.domain))
    at_09 = next(r for r in rows if r["alpha"] == 0.9)
    result = {"run": spec["run"], "calibration": rows,
              "summary": f"y^0.9 <= h* on {100 * at_09['y_alpha_below_h_star']:.1f} % of states"}
    if at_09["network_above_h_ad"] is not None:
        result["summary"] += f", round(y^0.9) > h_ad on {100 * at_09['network_above_h_ad']:.1f} %"
    if cfg.calibration_random:
        states, h_star = uniform_blocksworld(make_domain(cfg.domain).size, cfg.calibration_random,
                                             unit_rng(spec["seed"], *UNIFORM_KEY))
        result["calibration_random"] = calibration(heuristic_for, states, h_star)
        at_09 = next(r for r in result["calibration_random"]
                     if r["alpha"] == 0.9)["y_alpha_below_h_star"]
        result["summary"] += f", on {len(h_star):,} uniform states {100 * at_09:.1f} %"
    return result
