"""The suboptimality experiment (paper §5, Table 1) on Korf's 100, and the calibration the paper claims.

    python -m la.experiments.suboptimality            # reduced protocol, 1 run (wall time: see the README)
    python -m la.experiments.suboptimality --full     # the paper's protocol, 1 run (hours)
    python -m la.experiments.suboptimality --paper    # the paper's protocol, 10 runs
    python -m la.experiments.suboptimality --quick    # a smoke run, about a minute
    python -m la.experiments.suboptimality --networks results/suboptimality-full   # re-test saved networks

Per run, LearnHeuristicPrac trains two heuristics with GenerateTaskPrac: the two-output FFNN (dropout 2.5 %,
α from 0.99) and the single-output one ("N/A"). Both are then tested on Korf's 100 instances with IDA*: the
two-output network with y^α, σ_t = σ_a, for α in {0.95, 0.9, 0.75, 0.5, 0.25, 0.1, 0.05}; the single-output
one with its mean; and Manhattan distance ("MD", once: it does not depend on the run). (The reduced default
tests on the 25 of them that Manhattan distance solves fastest: see DEFAULT.) Each row reports the
paper's columns over the solved tasks — time, generated nodes, suboptimality (mean of found/optimal − 1,
paper footnote 2) and % solved optimally — and the number of tasks not solved within the budget. The
two-output network's calibration (for each α, how often y^α <= h*) is measured on the 5,305 states with known
h* along the optimal solutions (la/calibration.py).
"""
import json
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from la import data
from la.calibration import ALPHAS, calibration, korf_states_with_h_star
from la.cli import COUNT_MAX, Parser, count, existing_folder, run
from la.config import LearnConfig, node_budget
from la.domains import SlidingTile
from la.experiments import figure_data
from la.experiments.folder import ROOT, prepare, provenance
from la.experiments.runner import add_run_options, mean_std, run_units, unit_progress, unit_rng
from la.heuristics import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible
from la.io import write_json, write_text
from la.learn import learn_heuristic
from la.network import load_network, save_network
from la.nn.config import FFNNConfig
from la.search import ida_star

# The paper's Table 1: row -> (time s, generated nodes, suboptimality %, % optimal).
PAPER = {"MD": (80.7, 363_028_080, 0.0, 100.0), "0.95": (74.6, 78_787_262, 2.2, 67.8),
         "0.9": (26.7, 29_342_747, 2.5, 65.2), "0.75": (8.7, 9_357_055, 3.0, 59.0),
         "0.5": (5.1, 5_284_645, 3.4, 52.3), "0.25": (4.9, 5_107_840, 4.5, 38.3),
         "0.1": (3.9, 4_285_483, 5.3, 30.7), "0.05": (3.8, 4_189_753, 5.6, 25.3),
         "N/A": (2.3, 3_071_956, 10.8, 10.9)}
NETWORKS = ("alpha", "mean")       # the two-output network (rows α) and the single-output one (row N/A)


@dataclass(frozen=True)
class SuboptimalityConfig:
    """The paper's 15-puzzle suboptimality experiment (§5): NumIter 50, t_max 60 s, MaxSteps 1000, 10 runs."""
    learn: LearnConfig = field(default_factory=LearnConfig)      # two outputs, dropout 2.5 %, α0 = 0.99
    learn_mean: LearnConfig = field(default_factory=lambda: LearnConfig(ffnn=FFNNConfig(n_out=1, dropout=0.0)))
    alphas: tuple = (0.95, 0.9, 0.75, 0.5, 0.25, 0.1, 0.05)    # paper Table 1
    instances: tuple = tuple(range(1, 101))                      # Korf's 100
    test_node_limit: int = 2_000_000_000    # per task: ~30 min of the authors' C#, far above the paper's means
    md_node_limit: int = 10_000_000_000     # MD needs up to 6.3 billion nodes (Korf #88)
    runs: int = 10                          # paper §5: 10 runs
    order: str = "depth-first"              # IDA*'s goal order when testing (training: learn.order)

    def rows(self) -> list:
        return ["MD"] + [str(a) for a in self.alphas] + ["N/A"]


def easiest_korf(k: int) -> tuple:
    """The k of Korf's 100 that IDA* with Manhattan distance solves in the fewest generated nodes (Korf 1985)."""
    counts = data.korf100_md_nodes()
    return tuple(sorted(sorted(counts, key=lambda i: counts[i].reproduced)[:k]))


FULL = replace(SuboptimalityConfig(), runs=1)
# The reduced default: 20 iterations with t_max = 6 s train networks that plan well only near the goal, so they
# are tested on the 25 instances that are easiest for Manhattan distance (optimal lengths 41-56, mean 47.5;
# MD needs at most 10 M nodes on each), each within 20 M nodes.
_reduced = dict(num_iter=20, node_limit=node_budget(6))         # 20 iterations, t_max = 6 s
DEFAULT = replace(FULL, learn=replace(FULL.learn, **_reduced), learn_mean=replace(FULL.learn_mean, **_reduced),
                  instances=easiest_korf(25), test_node_limit=20_000_000, md_node_limit=20_000_000)
_toy = dict(num_iter=3, node_limit=200_000, train_iter=100, wunn_blocks=3, max_steps=100)
QUICK = replace(FULL, learn=replace(FULL.learn, **_toy), learn_mean=replace(FULL.learn_mean, **_toy),
                alphas=(0.9, 0.5), instances=(12, 79, 42), test_node_limit=1_000_000, md_node_limit=1_000_000)


def summarize(records: list) -> dict:
    """The paper's columns over the solved tasks (as the authors' test code averages), and the unsolved count."""
    solved = [r for r in records if r["solved"]]
    if not solved:
        return {"tasks": len(records), "unsolved": len(records), "time": None, "generated": None,
                "subopt": None, "optimal": None}
    return {"tasks": len(records), "unsolved": len(records) - len(solved),
            "time": float(np.mean([r["seconds"] for r in solved])),
            "generated": float(np.mean([r["generated"] for r in solved])),
            "subopt": 100 * float(np.mean([r["cost"] / r["optimal"] - 1 for r in solved])),
            "optimal": 100 * float(np.mean([r["cost"] == r["optimal"] for r in solved]))}


def train_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Train one network of one run; keep its checkpoint, network and log."""
    cfg, name, which = spec["config"], spec["name"], spec["network"]
    folder = out / name
    learn_cfg = cfg.learn if which == "alpha" else cfg.learn_mean
    learner = learn_heuristic(SlidingTile(4), learn_cfg, unit_rng(spec["seed"], spec["run"], NETWORKS.index(which)),
                              checkpoint=folder / "checkpoint.npz",
                              progress=unit_progress(folder, name, verbose), snapshots=folder / "snapshots")
    save_network(learner.ffnn, learner.encoding, folder / "network.npz")
    write_json(folder / "train_log.json", learner.log)
    if which == "alpha":
        write_json(folder / "generate_task.json", figure_data.generate_task_traces(folder / "checkpoint.npz",
                                                                                   learn_cfg, spec["seed"]))
    return {"run": spec["run"], "network": which, "solved_train": learner.solved_fraction(),
            "iterations": learner.iteration,
            "seconds": sum(e["plan_seconds"] + e["train_seconds"] for e in learner.log),
            "summary": f"solved {100 * learner.solved_fraction():.1f} % of its training tasks"}


def test_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Solve the chosen Korf instances with one row's heuristic; one record per instance."""
    cfg, row = spec["config"], spec["row"]
    domain = SlidingTile(4)
    if row == "MD":
        h, limit = Manhattan(domain), cfg.md_node_limit
    else:
        network, _ = load_network(Path(spec["networks"]) / f"run{spec['run']}" / ("mean" if row == "N/A" else "alpha")
                                  / "network.npz", domain)
        h, limit = LikelyAdmissible(network, domain, None if row == "N/A" else float(row)), cfg.test_node_limit
    records, progress = [], unit_progress(out / spec["name"], spec["name"], verbose)
    for instance in [i for i in data.korf100() if i.id in cfg.instances]:
        result = ida_star(domain, h, instance.state, node_limit=limit, order=cfg.order)
        records.append({"id": instance.id, "optimal": instance.optimal, "solved": result.solved,
                        "cost": result.cost, "generated": result.generated, "seconds": result.seconds})
        progress(f"Korf #{instance.id} " + (f"cost {result.cost} (optimal {instance.optimal})" if result.solved
                                            else "not solved") + f", {result.generated:,} nodes, {result.seconds:.1f} s")
    s = summarize(records)
    return {"run": spec.get("run"), "row": row, "records": records, **s,
            "summary": f"{s['tasks'] - s['unsolved']}/{s['tasks']} solved"
                       + ("" if s["subopt"] is None else f", subopt {s['subopt']:.2f} %, optimal {s['optimal']:.1f} %")}


def calibration_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """For each α, the fraction of the 5,305 states with y^α <= h* (and with h <= h*)."""
    network, _ = load_network(Path(spec["networks"]) / f"run{spec['run']}" / "alpha" / "network.npz", SlidingTile(4))
    states, h_star = korf_states_with_h_star()
    rows = calibration(lambda alpha: LikelyAdmissible(network, SlidingTile(4), alpha), states, h_star)
    at_09 = next(r for r in rows if r["alpha"] == 0.9)["y_alpha_below_h_star"]
    return {"run": spec["run"], "calibration": rows, "summary": f"y^0.9 <= h* on {100 * at_09:.1f} % of states"}


def solved_by_every_row(tests: list) -> list:
    """The instances that every row solved in every run: a common ground when rows leave different tasks
    unsolved (the paper's columns average each row over its own solved tasks)."""
    solved = [{r["id"] for r in t["records"] if r["solved"]} for t in tests]
    return sorted(set.intersection(*solved)) if solved else []


def table(cfg: SuboptimalityConfig, tests: list) -> list:
    """Table 1: per row, each column's mean and spread over runs, the unsolved tasks, the paper's values;
    and the same columns on the instances every row solved (`common`)."""
    rows, common = [], set(solved_by_every_row(tests))
    for row in cfg.rows():
        mine = [t for t in tests if t["row"] == row]
        entry = {"row": row, "runs": len(mine), "tasks": mine[0]["tasks"] if mine else 0,
                 "unsolved": [t["unsolved"] for t in mine], "paper": dict(zip(("time", "generated", "subopt",
                                                                                  "optimal"), PAPER[row]))}
        for column in ("time", "generated", "subopt", "optimal"):
            entry[column], entry[column + "_sd"] = mean_std(t[column] for t in mine if t[column] is not None)
        on_common = [summarize([r for r in t["records"] if r["id"] in common]) for t in mine]
        entry["common"] = {"tasks": len(common), **{column: mean_std(s[column] for s in on_common
                                                                     if s[column] is not None)[0]
                                                    for column in ("generated", "subopt", "optimal")}}
        rows.append(entry)
    return rows


def format_table(rows: list) -> str:
    """Table 1 as text: the paper's columns over each row's solved tasks, then over the tasks all rows solved."""
    lines = [f"{'α':>5} {'runs':>4} | {'time s':>8} {'generated':>13} {'subopt %':>15} {'optimal %':>15} "
             f"{'unsolved':>8} | {'paper: time':>11} {'generated':>12} {'subopt':>6} {'optimal':>7}"]
    for r in rows:
        p = r["paper"]
        if r["subopt"] is None:
            mine = f"{'—':>8} {'—':>13} {'—':>15} {'—':>15}"
        else:
            mine = (f"{r['time']:8.2f} {r['generated']:13,.0f} {r['subopt']:7.2f} ± {r['subopt_sd']:5.2f} "
                    f"{r['optimal']:7.1f} ± {r['optimal_sd']:5.1f}")
        lines.append(f"{r['row']:>5} {r['runs']:>4} | {mine} {sum(r['unsolved']):>4}/{r['tasks'] * r['runs']:<3} | "
                     f"{p['time']:11.1f} {p['generated']:12,.0f} {p['subopt']:5.1f}% {p['optimal']:6.1f}%")
    tasks = rows[0]["common"]["tasks"] if rows else 0
    lines.append(f"\nThe same columns on the {tasks} instance(s) that every row solved in every run (mean over runs):")
    lines.append(f"{'α':>5} | {'generated':>13} {'subopt %':>9} {'optimal %':>9}")
    for r in rows:
        c = r["common"]
        lines.append(f"{r['row']:>5} | " + (f"{'—':>13} {'—':>9} {'—':>9}" if c["subopt"] is None else
                                            f"{c['generated']:13,.0f} {c['subopt']:9.2f} {c['optimal']:9.1f}"))
    return "\n".join(lines)


def calibration_table(results: list) -> list:
    """Per α, the fraction of states with y^α <= h* (and h <= h*) averaged over runs."""
    rows = []
    for i, alpha in enumerate(ALPHAS):
        below = [r["calibration"][i]["y_alpha_below_h_star"] for r in results]
        admissible = [r["calibration"][i]["h_admissible"] for r in results]
        rows.append({"alpha": alpha, "y_alpha_below_h_star": mean_std(below)[0],
                     "y_alpha_below_h_star_sd": mean_std(below)[1], "h_admissible": mean_std(admissible)[0],
                     "runs": len(results)})
    return rows


def learning_curves(out: Path, runs: int) -> dict:
    """Per network and run: per iteration tasks solved, α, β, mean GenerateTaskPrac steps, buffer size."""
    curves = {}
    for which in NETWORKS:
        curves[which] = []
        for r in range(1, runs + 1):
            path = out / f"run{r}" / which / "train_log.json"
            if path.exists():
                log = json.loads(path.read_text())
                curves[which].append([{"iteration": e["iteration"], "solved": e["solved"], "alpha": e["alpha"],
                                       "beta": e["beta"], "buffer": e["buffer"],
                                       "task_steps": float(np.mean([t["steps"] for t in e["tasks"]]))}
                                      for e in log])
    return curves


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.suboptimality", description=__doc__.split("\n")[0])
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--full", action="store_true", help="the paper's protocol, 1 run (hours)")
    scale.add_argument("--paper", action="store_true", help="the paper's protocol, 10 runs (days on 2 cores)")
    scale.add_argument("--quick", action="store_true", help="a smoke run at toy scale")
    parser.add_argument("--runs", type=count, help=f"independent runs, 1..{COUNT_MAX} (default: 1, or 10 with --paper)")
    add_run_options(parser, "results/suboptimality-<scale>")
    parser.add_argument("--networks", type=existing_folder, default=None,
                        help="test the networks saved in this earlier results folder instead of training "
                             "(run<r>/alpha/network.npz and run<r>/mean/network.npz for every run)")
    return parser.parse_args(argv)


def check_networks(folder: Path, runs: int) -> None:
    """Refuse a --networks folder unless every run's two networks are there, readable and of the right kind."""
    for r in range(1, runs + 1):
        for which, outputs in zip(NETWORKS, (2, 1)):
            path = folder / f"run{r}" / which / "network.npz"
            if not path.is_file():
                raise ValueError(f"--networks {folder}: no network for run {r} ({which}/network.npz)")
            try:
                network, _ = load_network(path, SlidingTile(4))
            except ValueError as error:
                raise ValueError(f"--networks: {error}") from None
            if getattr(network, "n_out", None) != outputs:
                raise ValueError(f"--networks: {path} is not a {outputs}-output FFNN, as the {which!r} network must be")


def main(argv=None) -> int:
    from la import plots
    args = parse_args(argv)
    scale = "quick" if args.quick else "paper" if args.paper else "full" if args.full else "reduced"
    cfg = {"quick": QUICK, "paper": SuboptimalityConfig(), "full": FULL, "reduced": DEFAULT}[scale]
    cfg = replace(cfg, runs=args.runs or cfg.runs, order=args.order)
    if args.networks is None:            # saved networks keep the order they were trained with
        cfg = replace(cfg, learn=replace(cfg.learn, order=args.order), learn_mean=replace(cfg.learn_mean, order=args.order))
    out = args.out or ROOT / "results" / f"suboptimality-{scale}"
    networks = args.networks or out
    if args.networks is not None:
        check_networks(args.networks, cfg.runs)
    command = ["python", "-m", "la.experiments.suboptimality", *(argv if argv is not None else sys.argv[1:])]
    prepare(out, {"config": asdict(cfg), "seed": args.seed, "networks": str(args.networks)}, args.resume, command)
    base = {"seed": args.seed, "config": cfg, "networks": str(networks)}
    progress = lambda line: print(line, flush=True)                                   # noqa: E731
    trained = []
    if args.networks is None:
        print(f"suboptimality ({scale}): training {2 * cfg.runs} networks, results in {out}", flush=True)
        trained = run_units(train_unit, [{**base, "name": f"run{r}/{w}", "run": r, "network": w}
                                         for r in range(1, cfg.runs + 1) for w in NETWORKS], out, args.jobs, progress)
    specs = [{**base, "name": "md", "row": "MD"}]
    specs += [{**base, "name": f"run{r}/test-{'mean' if row == 'N/A' else row}", "run": r, "row": row}
              for r in range(1, cfg.runs + 1) for row in cfg.rows()[1:]]
    print(f"testing {len(specs)} rows on {len(cfg.instances)} of Korf's instances", flush=True)
    tests = run_units(test_unit, specs, out, args.jobs, progress)
    calibrations = run_units(calibration_unit, [{**base, "name": f"run{r}/calibration", "run": r}
                                                for r in range(1, cfg.runs + 1)], out, args.jobs, progress)
    rows = table(cfg, tests)
    first = networks / "run1" / "alpha" / "generate_task.json"
    record = {"experiment": "suboptimality", "scale": scale, "seed": args.seed, "config": asdict(cfg),
              **provenance(out),
              "table": rows, "calibration": calibration_table(calibrations), "training": trained,
              "learning_curves": learning_curves(networks, cfg.runs),
              "generate_task": json.loads(first.read_text()) if first.exists() else None,
              "tests": [{k: v for k, v in t.items() if k != "summary"} for t in tests]}
    write_json(out / "results.json", record)
    write_text(out / "results.csv", "run,row,id,optimal,solved,cost,generated,seconds\n" + "".join(
        f"{t['run'] or ''},{t['row']},{r['id']},{r['optimal']},{r['solved']},{r['cost'] if r['solved'] else ''},"
        f"{r['generated']},{r['seconds']:.3f}\n" for t in tests for r in t["records"]))
    plots.all_from_suboptimality(record, out)
    print(format_table(rows))
    print("calibration: " + ", ".join(f"α {c['alpha']}: {100 * c['y_alpha_below_h_star']:.1f} %"
                                       for c in record["calibration"]))
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
