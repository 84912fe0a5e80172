"""The ground-truth experiment: LearnHeuristicPrac at full strength on domains where every state's
h* is known (`la.pdb.exact`), and every promise of the paper measured against it exactly.

    python -m la.experiments.ground_truth --domain 2x5-puzzle          # 1 run at full strength
    python -m la.experiments.ground_truth --domain 10-pancake --runs 3 --run 2   # run 2 of 3 alone
    python -m la.experiments.ground_truth --quick                      # a smoke run, 8-puzzle
    python -m la.experiments.ground_truth --domain 2x5-puzzle --arm oracle   # labels all h*

Per run, LearnHeuristicPrac trains the two-output network (the α rows) and the single-output one
(N/A) with GenerateTaskPrac, at the paper's 15-puzzle settings (§5; the table and the reason for
each value: `la.experiments.ground_truth_config`, la/experiments/README.md "Ground truth"). Each
row (α of Table 1 with y^α, σ_t = σ_a; N/A with the mean) then solves the run's 1,000 uniform test
tasks with IDA*, keeping a sample of the states each search generated; and the run is measured
against h* (`la.experiments.ground_truth_audit`): coverage h <= h* on every state, on the test
tasks' optimal plans and on the searched states, by h* and by the distance to the training data;
the paper's bound α^|π*| beside the realised share of optimal plans and the exact share of tasks
with an optimal plan all within h*; the training labels against h*; N(μ, σ_a²)'s reliability and
σ_e against the distance to the training data. Beside the learned rows, the admissible reference
(Manhattan distance on boards, the gap on pancakes) is tested and measured the same way. `--arm`
changes one thing in the method (`la.experiments.ground_truth_config`): the batched goal order,
oracle labels, or conformal q_α. Results: experiment.json, results.json, results.csv and the figures
in --out (default results/ground-truth-<domain>, with -<arm> but for the paper's arm).
"""
import sys
from dataclasses import asdict, replace

from la.domains.names import make_domain
from la.experiments.ground_truth_audit import measure_unit, reference_unit, test_name
from la.experiments.ground_truth_config import ADDED, ARMS, DOMAIN_NAMES, config_for
from la.experiments.ground_truth_measures import subopt_summary
from la.experiments.ground_truth_table import (calibration_gap, format_table, label_lines,
                                               results_record, write_results)
from la.experiments.ground_truth_units import conformal_unit, test_unit, train_unit
from la.pdb.exact import h_star_table
from la.plots.ground_truth import MEASURE, ROW, draw
from la.runs.cli import COUNT_MAX, Parser, count, first_paragraph, pdb_folder, run
from la.runs.folder import ROOT, prepare, provenance
from la.runs.machine import machine
from la.runs.progress import BuildProgress
from la.runs.runner import add_run_options, run_units, selected_runs
from la.runs.shapes import (FRACTION, SECONDS, Is, Range, Records, Where, search_record,
                            tested, whole)

NETWORKS = ("alpha", "mean")


def unit_shape(cfg, unit: str):
    """What a finished unit of a run with configuration `cfg` must hold, checked before a resume
    (`la.runs.folder.prepare`): a training, conformal, measure or reference unit its own run's
    (`run_unit`); a test row's unit its own run and row and the records of exactly the run's test
    tasks, in order, each within the node limit, with the summary they make
    (`la.runs.shapes.tested`; its tasks.json the same records, fewer)."""
    run, last = unit.split("/")[0], unit.rsplit("/", 1)[-1]
    if not (run.startswith("run") and run.removeprefix("run").isdigit() and "/" in unit):
        return {"run": int}                                       # no unit of a run
    if not last.startswith("test-"):
        return run_unit(cfg, int(run.removeprefix("run")), last)
    rows = {test_name(row): row for row in [*cfg.rows(), cfg.reference]}
    if last not in rows:
        raise ValueError(f"{unit}: not a test row of this run's configuration")
    record = search_record(cfg.test_node_limit, evaluated=whole(),
                           sample=[whole(), ...])
    return tested(record, range(cfg.test_tasks), subopt_summary, ordered=True,
                  run=int(run.removeprefix("run")), row=rows[last])


def run_unit(cfg, run: int, last: str):
    """What run `run`'s unit `last` (alpha, mean, conformal, measure, reference) holds: its own run
    and network or row, shares in 0..1, at most NumIter iterations, a q_α per α of the
    configuration from at most the states its searches sampled (`ground_truth_units`), and what
    the figure draws of a measure (`la.plots.ground_truth.MEASURE`)."""
    own = Is(run)
    if last in NETWORKS:
        learn = cfg.learn if last == "alpha" else cfg.learn_mean
        return {"run": own, "network": Is(last), "solved_train": FRACTION,
                "iterations": whole(1, learn.num_iter), "seconds": SECONDS, "machine?": dict}
    if last == "measure":
        return {**MEASURE, "run": own}
    if last == "reference":
        return {"run": own, "row": {**ROW, "row": Is(cfg.reference)}}
    if last == "conformal" and cfg.calibration_tasks is not None:
        sampled = cfg.calibration_tasks * cfg.searched_per_task
        row = Where({"alpha": Range(0, 1), "q": Range(), "plain_q": Range(),
                     "states": whole(1, sampled), "evaluated": whole()},
                    lambda r: r["states"] <= r["evaluated"], "has more states than it evaluated")
        return {"run": own, "rows": Where(
            Records(row, key="alpha", among=set(cfg.alphas), most=len(cfg.alphas),
                    complete=True),
            lambda rows: [r["alpha"] for r in rows] == list(cfg.alphas),
            "does not list the configuration's α in order")}
    raise ValueError(f"run{run}/{last}: not a unit of this run's configuration")


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.ground_truth",
                    description=first_paragraph(__doc__))
    parser.add_argument("--domain", choices=DOMAIN_NAMES, default="8-puzzle",
                        help="the domain, one with an exact table (default: the 8-puzzle)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run on the 8-puzzle, well under a minute: its numbers say "
                             "only that every part runs")
    parser.add_argument("--runs", type=count, default=None,
                        help=f"independent runs, 1..{COUNT_MAX} (default 1)")
    parser.add_argument("--arm", choices=ARMS, default="paper",
                        help="the method's variant: paper (default), batched (IDA*'s batched goal "
                             "order in training and testing), oracle (every training label h*), "
                             "conformal (q_α calibrated on searched states)")
    add_run_options(parser, "results/ground-truth-<domain>[-<arm>], or "
                            "results/ground-truth-quick[-<arm>]", order=False)
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where the exact table is cached (default: $LA_PDB_DIR, else "
                             "~/.cache/la/pdb); built there first if missing")
    return parser.parse_args(argv)


def default_out(cfg, quick: bool):
    """results/ground-truth-<domain> (or -quick), with -<arm> but for the paper's arm."""
    name = "ground-truth-" + ("quick" if quick else cfg.domain)
    return ROOT / "results" / (name if cfg.arm == "paper" else f"{name}-{cfg.arm}")


def main(argv=None) -> int:
    args = parse_args(argv)
    cfg = config_for(args.domain, args.quick, args.arm)
    cfg = replace(cfg, runs=args.runs or cfg.runs)
    runs = selected_runs(cfg.runs, args.run)
    out = args.out or default_out(cfg, args.quick)
    # read and checked, or built, before `out` is touched
    h_star_table(make_domain(cfg.domain), args.pdb_dir, BuildProgress())
    command = ["python", "-m", "la.experiments.ground_truth",
               *(argv if argv is not None else sys.argv[1:])]
    prepare(out, {"config": asdict(cfg), "seed": args.seed,
                  **({} if args.run is None else {"run": args.run})}, args.resume, command,
            unit_shape=lambda unit: unit_shape(cfg, unit), added=ADDED)
    base = {"seed": args.seed, "config": cfg, "networks": str(out),
            "pdb_dir": None if args.pdb_dir is None else str(args.pdb_dir)}
    progress = lambda line: print(line, flush=True)                                   # noqa: E731
    scale = "quick (a smoke run)" if args.quick else "full strength"
    print(f"ground truth on the {cfg.domain}, {scale}, the {cfg.arm} arm: training "
          f"{2 * len(runs)} networks, results in {out}", flush=True)
    trained = run_units(train_unit, [{**base, "name": f"run{r}/{w}", "run": r, "network": w}
                                     for r in runs for w in NETWORKS], out, args.jobs, progress)
    conformal = [] if cfg.arm != "conformal" else run_units(
        conformal_unit, [{**base, "name": f"run{r}/conformal", "run": r} for r in runs], out,
        args.jobs, progress)
    rows = [*cfg.rows(), cfg.reference]
    print(f"testing {len(rows)} rows on {cfg.test_tasks:,} uniform test tasks per run",
          flush=True)
    tests = run_units(test_unit, [{**base, "name": f"run{r}/{test_name(row)}", "run": r,
                                   "row": row} for r in runs for row in rows],
                      out, args.jobs, progress)
    print("measuring every run against exact h*", flush=True)
    measures = run_units(measure_unit, [{**base, "name": f"run{r}/measure", "run": r}
                                        for r in runs], out, args.jobs, progress)
    reference = run_units(reference_unit, [{**base, "name": f"run{r}/reference", "run": r}
                                           for r in runs], out, args.jobs, progress)
    record = results_record(cfg, args.quick, args.seed, runs,
                            {**provenance(out), "machine": machine()}, trained, tests, measures,
                            reference, conformal)
    write_results(out, record)
    names = draw(record, out)
    print(format_table(record["table"]))
    print("\n".join(label_lines(measures)))
    print(f"N(μ, σ_a²) against h* on every state: the largest |observed − p| over the quantiles "
          f"is {calibration_gap(measures):.3f}")
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figures: "
          + ", ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
