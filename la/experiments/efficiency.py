"""The efficiency experiment (paper §5, Table 2): task generation by GenerateTaskPrac versus
LengthInc.

    python -m la.experiments.efficiency             # 2 runs x 3 test sets, about 6 min on 2 cores
    python -m la.experiments.efficiency --paper     # the paper's 10 runs x 10 test sets
    python -m la.experiments.efficiency --quick     # a smoke run, under a minute
    python -m la.experiments.efficiency --paper --run 3 --out DIR   # run 3 of the 10 alone
                                                                      (la.experiments.merge)

Each run trains seven single-output networks with LearnHeuristicPrac, NumIter = 20 and a budget
of 1.1 M nodes per task (the paper's t_max = 1 s; see la/config.py): one with GenerateTaskPrac
("GTP"), six with random walks of LengthInc·(n+1) steps, LengthInc in {1, 2, 4, 6, 8, 10}. Each
network is then tested on the run's test sets: 100 tasks, task k a walk of k random steps back from
the goal, solved in order with the mean heuristic, new tasks started while the set has used less
than 66 M nodes (the paper's 60 s), each task allowed 66 M nodes (the authors'
`Program.SolveTestData`). "Solved Train" is the share of the 200 training tasks solved within
budget, "Solved Test" the share of the 100 test tasks solved with a cost above 0; both are averaged
over test sets and runs.
"""
import contextlib
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from la.config import LearnConfig, node_budget
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.io import write_json, write_text
from la.nn.config import FFNNConfig
from la.runs.cli import COUNT_MAX, Parser, count, figure_file, first_paragraph, run
from la.runs.folder import ROOT, prepare, provenance
from la.runs.network import save_network
from la.runs.progress import HEARTBEAT, Heartbeat
from la.runs.runner import (add_run_options, mean_std, run_units, selected_runs, unit_progress,
                             unit_rng)
from la.runs.shapes import FRACTION, NUMBER, SECONDS, Is, Where, whole
from la.runs.training import train
from la.search import ida_star

# The paper's Table 2 (percent), to print and draw beside ours: LengthInc -> (Solved Train, Solved
# Test).
PAPER = {"1": (100.0, 38.6), "2": (95.1, 48.2), "4": (61.8, 51.4), "6": (36.2, 39.6),
         "8": (19.2, 35.2), "10": (11.8, 31.8), "GTP": (93.3, 60.6)}
# What each unit's unit.json holds (`unit`): a resumed run checks every one first (la.runs.folder).
UNIT = {"run": int, "variant": str, "solved_train": NUMBER, "solved_test": NUMBER,
        "train_nodes": int, "train_seconds": NUMBER,
        "tests": [{"solved": int, "attempted": int, "nodes": int, "tasks": int}]}


def unit_shape(cfg: "EfficiencyConfig", name: str) -> Where:
    """What the unit `name` ("run3/GTP") of a run with configuration `cfg` holds: its own run and
    variant, shares in 0..1, and one result per test set of cfg.test_tasks tasks, solved <=
    attempted <= tasks, within the set's budget (a set starts no task past `test_budget` nodes,
    and a task stops at the first node past `test_task_limit`)."""
    run, variant = name.split("/")
    budget = cfg.test_budget + cfg.test_task_limit + 1
    test = Where({"solved": whole(), "attempted": whole(), "nodes": whole(0, budget),
                  "tasks": Is(cfg.test_tasks)},
                 lambda t: t["solved"] <= t["attempted"] <= t["tasks"],
                 "has more tasks solved than attempted, or attempted than it has")
    return Where({**UNIT, "run": Is(int(run.removeprefix("run"))), "variant": Is(variant),
                  "solved_train": FRACTION, "solved_test": FRACTION, "train_nodes": whole(),
                  "train_seconds": SECONDS, "tests": [test]},
                 lambda u: len(u["tests"]) == cfg.test_sets and u["solved_test"] == float(
                     np.mean([t["solved"] / t["tasks"] for t in u["tests"]])),
                 f"does not hold one result per test set ({cfg.test_sets}) with their mean")


@dataclass(frozen=True)
class EfficiencyConfig:
    """The paper's efficiency experiment on the 15-puzzle (§5); `runs` and `test_sets` as in the
    paper."""
    learn: LearnConfig = field(default_factory=lambda: LearnConfig(
        num_iter=20,                        # paper §5: NumIter = 20 for this experiment
        node_limit=node_budget(1),          # paper §5: t_max = 1 s, as 1.1 M nodes
        ffnn=FFNNConfig(n_out=1, dropout=0.0)))   # paper §5: one output, plan with the mean; no
                                                  # dropout
    length_incs: tuple = (1, 2, 4, 6, 8, 10)   # paper §5
    test_tasks: int = 100                   # paper §5: task k takes k random steps back from the
                                            # goal
    test_budget: int = node_budget(60)      # paper §5: 60 s per test set, as 66 M nodes
    test_task_limit: int = node_budget(60)  # `Program.SolveTestData`: a started task may run to its
                                            # own 60 s
    runs: int = 10                          # paper §5: 10 independent runs
    test_sets: int = 10                     # paper §5: 10 test sets per network
    order: str = "depth-first"              # IDA*'s goal order when testing (training: learn.order)

    def variants(self) -> list:
        return ["GTP"] + [str(k) for k in self.length_incs]

    def learn_config(self, variant: str) -> LearnConfig:
        if variant == "GTP":
            return self.learn
        return replace(self.learn, task_generation="length_inc", length_inc=int(variant))


DEFAULT = replace(EfficiencyConfig(), runs=2, test_sets=3)
QUICK = replace(EfficiencyConfig(learn=replace(EfficiencyConfig().learn, num_iter=3,
                                               node_limit=200_000, train_iter=100, wunn_blocks=5)),
                test_tasks=30, test_budget=2_000_000, test_task_limit=1_000_000, runs=1,
                test_sets=1)


def test_set(seed: int, run_index: int, index: int, tasks: int) -> np.ndarray:
    """Test set `index` of a run: task k (k = 1..tasks) is an independent walk of k steps back from
    the goal."""
    return random_walk(SlidingTile(4), np.arange(1, tasks + 1), unit_rng(seed, run_index, 1, index),
                       n=tasks)


def solve_in_order(heuristic, starts, budget: int, task_limit: int, order: str = "depth-first",
                   progress=None, every: float = HEARTBEAT) -> dict:
    """Solve tasks in order, starting each only while the set has used fewer than `budget` nodes.
    `progress`, if given, hears how far the set is every `every` seconds: one search may run for a
    minute."""
    done = {"solved": 0, "attempted": 0, "nodes": 0, "tasks": len(starts)}
    searching = [0]            # nodes of the task under way, as of its last finished IDA* iteration

    def beat():
        progress(f"task {done['attempted'] + 1} of {len(starts)} ({done['solved']} solved so far), "
                 f"{(done['nodes'] + searching[0]) / 1e6:.1f} M of the set's {budget / 1e6:.1f} M "
                 f"nodes")

    def iteration(bound, generated, so_far, seconds):
        searching[0] = so_far

    with Heartbeat(beat, every) if progress else contextlib.nullcontext():
        for start in starts:
            if done["nodes"] >= budget:
                break
            result = ida_star(SlidingTile(4), heuristic, start, node_limit=task_limit, order=order,
                              progress=iteration)
            done["nodes"], done["attempted"] = (done["nodes"] + result.generated,
                                                done["attempted"] + 1)
            searching[0] = 0
            # `Program.SolveTestData`: cost > 0
            done["solved"] += bool(result.solved and result.cost > 0)
    return done


def unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Train one network (GTP or one LengthInc) for one run, then test it on the run's test sets."""
    cfg, name = spec["config"], spec["name"]
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    rng = unit_rng(spec["seed"], spec["run"], 0, cfg.variants().index(spec["variant"]))
    puzzle = SlidingTile(4)
    progress = unit_progress(folder, name, verbose)
    learner = train(puzzle, cfg.learn_config(spec["variant"]), rng, OneHot(puzzle),
                    checkpoint=folder / "checkpoint.npz", progress=progress)
    save_network(learner.ffnn, learner.encoding, folder / "network.npz")
    write_json(folder / "train_log.json", learner.log)
    h, tests = learner.test_heuristic(), []
    for j in range(cfg.test_sets):
        where = f"test set {j + 1} of {cfg.test_sets}"
        t = solve_in_order(h, test_set(spec["seed"], spec["run"], j, cfg.test_tasks),
                           cfg.test_budget, cfg.test_task_limit, cfg.order,
                           progress=lambda line: progress(f"{where}: {line}"))
        progress(f"{where}: solved {t['solved']} of {t['tasks']} ({t['attempted']} attempted, "
                 f"{t['nodes'] / 1e6:.1f} M nodes)")
        tests.append(t)
    solved_test = float(np.mean([t["solved"] / t["tasks"] for t in tests]))
    return {"run": spec["run"], "variant": spec["variant"],
            "solved_train": learner.solved_fraction(), "solved_test": solved_test, "tests": tests,
            "train_nodes": sum(e["nodes"] for e in learner.log),
            "train_seconds": sum(e["plan_seconds"] + e["train_seconds"] for e in learner.log),
            "summary": f"solved train {100 * learner.solved_fraction():.1f} %, test "
                       f"{100 * solved_test:.1f} %"}


def table(cfg: EfficiencyConfig, results: list) -> list:
    """Table 2: per variant, Solved Train and Solved Test (percent), mean and spread over runs."""
    rows = []
    for variant in cfg.variants():
        mine = [r for r in results if r["variant"] == variant]
        train, train_sd = mean_std(100 * r["solved_train"] for r in mine)
        test, test_sd = mean_std(100 * r["solved_test"] for r in mine)
        rows.append({"variant": variant, "runs": len(mine), "solved_train": train,
                     "solved_train_sd": train_sd, "solved_test": test, "solved_test_sd": test_sd,
                     "paper_solved_train": PAPER[variant][0],
                     "paper_solved_test": PAPER[variant][1]})
    return rows


def format_table(rows: list, cfg: EfficiencyConfig) -> str:
    lines = [f"Table 2, 15-puzzle: {cfg.runs} run(s) x {cfg.test_sets} test set(s) of "
             f"{cfg.test_tasks} tasks (mean ± sd over runs)",
             f"{'LengthInc':>9} | {'Solved Train':>15} {'Solved Test':>15} | {'paper: Train':>12} "
             f"{'Test':>6}"]
    for r in rows:
        lines.append(f"{r['variant']:>9} | {r['solved_train']:7.1f} % ± "
                     f"{r['solved_train_sd']:4.1f} {r['solved_test']:7.1f} % ± "
                     f"{r['solved_test_sd']:4.1f} | {r['paper_solved_train']:11.1f}% "
                     f"{r['paper_solved_test']:5.1f}%")
    return "\n".join(lines)


def write_results(out: Path, cfg: EfficiencyConfig, seed: int, rows: list, results: list,
                  about=None) -> dict:
    """results.json (everything the figures need) and results.csv (one row per run, variant and test
    set).
    `about`: the record's provenance (default: the run in `out`'s; `la.experiments.merge` gives the
    merged)."""
    record = {"experiment": "efficiency", "seed": seed, "config": asdict(cfg),
              "runs": sorted({r["run"] for r in results}), **(about or provenance(out)),
              "table": rows,
              "units": [{k: v for k, v in r.items() if k != "summary"} for r in results]}
    write_json(out / "results.json", record)
    header = ["run", "variant", "solved_train", "test_set", "solved", "attempted", "tasks", "nodes"]
    lines = [",".join(header)]
    for r in results:
        for j, t in enumerate(r["tests"]):
            lines.append(",".join(str(v) for v in [r["run"], r["variant"],
                                                   f"{r['solved_train']:.4f}", j, t["solved"],
                                                   t["attempted"], t["tasks"], t["nodes"]]))
    write_text(out / "results.csv", "\n".join(lines) + "\n")
    return record


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.efficiency",
                    description=first_paragraph(__doc__))
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--paper", action="store_true",
                       help="the paper's 10 runs x 10 test sets (hours)")
    scale.add_argument("--quick", action="store_true",
                       help="a smoke run at toy scale, under a minute")
    parser.add_argument("--runs", type=count,
                        help=f"independent runs, 1..{COUNT_MAX} (default {DEFAULT.runs})")
    parser.add_argument("--test-sets", type=count,
                        help=f"test sets per run, 1..{COUNT_MAX} (default {DEFAULT.test_sets})")
    add_run_options(parser, "results/efficiency")
    parser.add_argument("--figure", type=figure_file, default=None,
                        help="where to save the figure, any file type matplotlib writes (.png, "
                             ".pdf, .svg, ...; default: table2_efficiency.png in --out)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    from la.plots import tables as plots_tables
    args = parse_args(argv)
    cfg = QUICK if args.quick else EfficiencyConfig() if args.paper else DEFAULT
    cfg = replace(cfg, runs=args.runs or cfg.runs, test_sets=args.test_sets or cfg.test_sets,
                  order=args.order, learn=replace(cfg.learn, order=args.order))
    runs = selected_runs(cfg.runs, args.run)
    out = args.out or ROOT / "results" / ("efficiency-quick" if args.quick else "efficiency")
    prepare(out, {"config": asdict(cfg), "seed": args.seed,
                  **({} if args.run is None else {"run": args.run})},
            args.resume,
            command=["python", "-m", "la.experiments.efficiency",
                     *(argv if argv is not None else sys.argv[1:])],
            unit_shape=lambda name: unit_shape(cfg, name))
    specs = [{"name": f"run{r}/{variant}", "run": r, "variant": variant, "seed": args.seed,
              "config": cfg}
             for r in runs for variant in cfg.variants()]
    print(f"efficiency experiment: {len(specs)} units ({len(runs)} run(s) x {len(cfg.variants())} "
          f"networks), results in {out}", flush=True)
    results = run_units(unit, specs, out, args.jobs, progress=lambda line: print(line, flush=True))
    rows = table(cfg, results)
    record = write_results(out, cfg, args.seed, rows, results)
    # figures/ is redrawn by `python -m la.plots`
    figure = args.figure or out / "table2_efficiency.png"
    plots_tables.table2_efficiency(record, figure)
    print(format_table(rows, cfg))
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figure: {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
