"""The suboptimality experiment (paper §5, Tables 1 and 3), with the calibration the paper claims.

    python -m la.experiments.suboptimality            # the paper's training, 1 run, a reduced
                                                        test: ~15 min on 2 cores
    python -m la.experiments.suboptimality --full     # the paper's protocol, 1 run (hours)
    python -m la.experiments.suboptimality --paper    # the paper's protocol, 10 runs
    python -m la.experiments.suboptimality --quick    # a smoke run, about a minute
    python -m la.experiments.suboptimality --paper --run 3 \
        --out DIR                                     # run 3 of the 10 alone, as it is in the
                                                      # whole (folders merged: la.experiments.merge)
    python -m la.experiments.suboptimality \
        --networks results/suboptimality-full         # re-test saved networks
    python -m la.experiments.suboptimality --full \
        --test-budget 100000000                       # every row within 100 M nodes a task
    python -m la.experiments.suboptimality \
        --domain 24-pancake                           # Table 3 on the 24-puzzle, 24-pancake or
                                                      # 15-blocksworld (la/experiments/table3.py)

Per run, LearnHeuristicPrac trains two heuristics with GenerateTaskPrac: the two-output FFNN
(dropout 2.5 %, α from 0.99) and the single-output one ("N/A"). Both are then tested on Korf's 100
instances with IDA*: the two-output network with y^α, σ_t = σ_a, for α in {0.95, 0.9, 0.75, 0.5,
0.25, 0.1, 0.05}; the single-output one with its mean; and Manhattan distance ("MD", once: it does
not depend on the run). (The reduced default tests on the 25 of them that Manhattan distance solves
fastest: see `la.experiments.table1`.) Each row reports the paper's columns over the solved tasks —
time, generated nodes, suboptimality (mean of found/optimal − 1, paper footnote 2) and % solved
optimally — and the number of tasks not solved within the budget. The two-output network's
calibration (for each α, how often y^α <= h*) is measured on the 5,305 states with known h* along
the optimal solutions (la/rivals/calibration.py).

With --domain, the same on the 24-puzzle, 24-pancake or 15-blocksworld (paper Table 3): their
settings, test tasks, admissible baselines and the paper's values are in `la.experiments.table3`.
Their networks read the paper's PDB features; the PDBs come from --pdb-dir (read and checked, and
built there when missing, by this process before anything is written in the results folder), and
each worker process loads them once for all its units.

This module is the command line; the units it runs (training a network, testing a row, a run's
calibration) are in `la.experiments.suboptimality_units`, the tables, results files and figures in
`la.experiments.suboptimality_table`.
"""
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from la.domains.names import make_domain
from la.experiments import baselines, table3
from la.experiments.unit_shapes import unit_shape
from la.runs.cli import (COUNT_MAX, Parser, count, existing_folder, first_paragraph, integer, names,
                         node_limit, pdb_folder, run)
from la.experiments.trained import calibration_states, check_networks, load_pdbs, saved_training
from la.runs.folder import ROOT, prepare, provenance
from la.runs.machine import machine
from la.runs.runner import add_run_options, run_units, selected_runs
from la.experiments.suboptimality_table import (COLUMNS, NETWORKS, calibration_table, draw,
                                                format_table, learning_curves, reductions, table,
                                                write_results)
from la.experiments.suboptimality_units import calibration_unit, test_unit, train_unit
from la.experiments.table1 import DEFAULT, FULL, PAPER, QUICK, SuboptimalityConfig
from la.rivals.optimal_labels import optimal_heuristic

PAPER_ALPHAS = SuboptimalityConfig().alphas       # Tables 1 and 3's α rows


def with_test_budget(cfg, nodes: int):
    """`cfg` with one per-task node budget for every test row, the admissible baseline's included
    (--test-budget)."""
    baseline = "md_node_limit" if isinstance(cfg, SuboptimalityConfig) else "baseline_node_limit"
    return replace(cfg, test_node_limit=nodes, **{baseline: nodes})


def paper_values(domain: str) -> dict:
    """The paper's row -> (time s, generated, subopt %, optimal %): Table 1 on the 15-puzzle, else
    Table 3."""
    return PAPER if domain == "15-puzzle" else table3.PAPER.get(domain, {})


DOMAIN_NAMES = ("15-puzzle", *table3.BASELINES)       # --domain: Table 1's, then Table 3's
# --rows: "baseline" is the admissible row (MD, ...)
ROW_NAMES = ("baseline", *map(str, PAPER_ALPHAS), "N/A")


def config_for(domain: str, scale: str):
    """The configuration of `scale` (quick, reduced, full, paper) on `domain`."""
    if domain == "15-puzzle":
        return {"quick": QUICK, "paper": SuboptimalityConfig(), "full": FULL,
                "reduced": DEFAULT}[scale]
    return table3.configs(domain)[scale]


def default_out(domain: str, scale: str) -> Path:
    """results/suboptimality-<scale> on the 15-puzzle (as before --domain),
    results/table3-<domain>-<scale> else."""
    return ROOT / "results" / (f"suboptimality-{scale}" if domain == "15-puzzle"
                               else f"table3-{domain}-{scale}")


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.suboptimality",
                    description=first_paragraph(__doc__))
    parser.add_argument("--domain", choices=DOMAIN_NAMES, default="15-puzzle",
                        help="the 15-puzzle (Table 1, default) or a domain of the paper's Table 3")
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--full", action="store_true",
                       help="the paper's protocol, 1 run (hours to days)")
    scale.add_argument("--paper", action="store_true",
                       help="the paper's protocol and runs: 10 on the 15-puzzle, 5 elsewhere "
                            "(days on 2 cores)")
    scale.add_argument("--quick", action="store_true", help="a smoke run at toy scale")
    parser.add_argument("--runs", type=count,
                        help=f"independent runs, 1..{COUNT_MAX} (default: 1, or the paper's with "
                             f"--paper)")
    add_run_options(parser, "results/suboptimality-<scale>, or results/table3-<domain>-<scale>",
                    jobs="units run in parallel processes; Boot, when it trains alone, spreads its "
                         "searches over them")
    parser.add_argument("--networks", type=existing_folder, default=None,
                        help="test the networks saved in this earlier results folder instead of "
                             "training (run<r>/alpha/network.npz and run<r>/mean/network.npz for "
                             "every run)")
    parser.add_argument("--test-budget", type=node_limit, default=None, metavar="N",
                        help="generated nodes per test task for every row, the admissible "
                             "baseline's included (default: the scale's; a budget other than "
                             "--full's is said with the table)")
    parser.add_argument("--baselines", type=names(baselines.NAMES, "baseline"), default=None,
                        metavar="NAMES",
                        help="also the competing learners' rows, some of "
                             + ", ".join(baselines.NAMES)
                             + " (la/experiments/baselines.py): Boot; networks trained on optimal "
                               "plans (OP, OP4); our α network with conformal quantiles (conf)")
    parser.add_argument("--only-baselines", action="store_true",
                        help="with --baselines and --networks: test only the baselines' rows (the "
                             "paper's rows of those networks are in their own run's results)")
    parser.add_argument("--boot-instances", type=integer(1, 10**6), default=None, metavar="N",
                        help="Boot's training instances (default: its authors' 5,000; fewer is "
                             "said in the table)")
    parser.add_argument("--optimal-records", type=integer(1, 10**7), default=None, metavar="N",
                        help="records of the optimal-plan network (default: as many as the α run's "
                             "final buffer)")
    parser.add_argument("--train-budget", type=node_limit, default=None, metavar="N",
                        help="generated nodes per training task, both networks (default: the "
                             "scale's; --full: 66,000,000, the paper's t_max = 60 s at the "
                             "authors' 1.1 M nodes/s, la/config.py)")
    parser.add_argument("--hold-alpha", action="store_true",
                        help="keep the α network's α at α0 = 0.99 through training (Δ = 0): a "
                             "ceiling on how much the α schedule costs (figures/table1-gap/)")
    parser.add_argument("--sampler", choices=("paper", "authors"), default="paper",
                        help="how the WUNN draws its minibatches: by e^σ_e without replacement "
                             "(paper §5, default), or as the authors' code does, over-drawing the "
                             "newest record (la/rivals/authors_sampler.py)")
    parser.add_argument("--labels", choices=("plans", "optimal"), default="plans",
                        help="where a solved training task's labels come from: its own plan's "
                             "suffix costs (Alg. 2, default), or an optimal plan from the same "
                             "start, so that every label is h* and the states change with the "
                             "plans (the oracle-label arm of figures/table1-gap/)")
    parser.add_argument("--test-order", choices=("depth-first", "batched"), default=None,
                        help="IDA*'s goal order in testing only (default: --order's): e.g. train "
                             "with --order batched and test depth-first, to tell the order's two "
                             "effects apart")
    parser.add_argument("--rows", type=names(ROW_NAMES, "row"), default=None, metavar="ROWS",
                        help="test only these rows, some of " + ", ".join(ROW_NAMES)
                             + " (default: all; the α rows must be among the scale's)")
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached, for the domains other than the "
                             "15-puzzle (default: $LA_PDB_DIR, else ~/.cache/la/pdb); missing ones "
                             "are built there first")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    scale = "quick" if args.quick else "paper" if args.paper else "full" if args.full else "reduced"
    cfg = config_for(args.domain, scale)
    cfg = replace(cfg, runs=args.runs or cfg.runs, order=args.test_order or args.order)
    if args.test_budget is not None:
        cfg = with_test_budget(cfg, args.test_budget)
    if args.networks is None:            # saved networks keep the order they were trained with
        cfg = replace(cfg, learn=replace(cfg.learn, order=args.order),
                      learn_mean=replace(cfg.learn_mean, order=args.order))
    elif (args.train_budget is not None or args.hold_alpha or args.sampler != "paper"
          or args.labels != "plans"):
        raise ValueError("--train-budget, --hold-alpha, --sampler and --labels change training: "
                         "they cannot go with --networks")
    if args.train_budget is not None:
        cfg = replace(cfg, learn=replace(cfg.learn, node_limit=args.train_budget),
                      learn_mean=replace(cfg.learn_mean, node_limit=args.train_budget))
    if args.hold_alpha:
        cfg = replace(cfg, learn=replace(cfg.learn, delta=0.0))     # α = max(α − 0, α_min) stays α0
    tested = (cfg.rows() if args.rows is None
              else [cfg.baseline_row if r == "baseline" else r for r in args.rows])
    missing = [r for r in tested if r not in cfg.rows()]
    if missing:
        raise ValueError(f"--rows: this scale tests no row {missing[0]} (its rows: "
                         f"{', '.join(cfg.rows())})")
    runs = selected_runs(cfg.runs, args.run)
    out = args.out or default_out(cfg.domain, scale)
    networks = args.networks or out
    if args.networks is not None:
        check_networks(args.networks, runs, cfg.domain)
    trained = [] if args.networks is None else saved_training(args.networks, runs)
    # read, checked, missing ones built: before `out` is touched
    load_pdbs(cfg, args.networks, args.pdb_dir, runs)
    bcfg = (None if args.baselines is None
            else baselines.baselines_config(cfg.domain, scale, args.baselines, args.optimal_records,
                                            args.boot_instances))
    if bcfg is not None and args.networks is not None:
        baselines.check_networks(bcfg, args.networks, runs)
    if args.only_baselines and (bcfg is None or args.networks is None):
        raise ValueError("--only-baselines tests the baselines' rows beside saved networks: give "
                         "--baselines and --networks too")
    # built once, here, before the units read them
    baselines.load_pdbs(bcfg, cfg.domain, args.pdb_dir)
    if args.labels == "optimal":                  # the optimal solver's PDBs (la.rivals)
        optimal_heuristic(make_domain(cfg.domain), args.pdb_dir)
    command = ["python", "-m", "la.experiments.suboptimality",
               *(argv if argv is not None else sys.argv[1:])]
    extra_rows = [] if bcfg is None else baselines.rows(bcfg, cfg.alphas)
    prepare(out, {"config": asdict(cfg), "seed": args.seed, "networks": str(args.networks),
                  **({} if args.run is None else {"run": args.run}),
                  **({} if args.rows is None else {"rows": tested}),
                  **({} if args.sampler == "paper" else {"sampler": args.sampler}),
                  **({} if args.labels == "plans" else {"labels": args.labels}),
                  **({} if bcfg is None else {"baselines": asdict(bcfg)}),
                  **({"only_baselines": True} if args.only_baselines else {})}, args.resume,
            command,
            unit_shape=lambda unit: unit_shape("suboptimality", unit, cfg, extra_rows, bcfg))
    base = {"seed": args.seed, "config": cfg, "networks": str(networks), "baselines": bcfg,
            "sampler": args.sampler, "baseline_networks": str(out),
            **({} if args.labels == "plans" else {"labels": args.labels}),
            "pdb_dir": None if args.pdb_dir is None else str(args.pdb_dir)}
    progress = lambda line: print(line, flush=True)                                   # noqa: E731
    name = "suboptimality" if cfg.domain == "15-puzzle" else f"Table 3 on the {cfg.domain}"
    reduced = reductions(cfg, config_for(cfg.domain, "full")) + baselines.reductions(bcfg, scale)
    reduced += ["α held at α0 (Δ = 0)"] if args.hold_alpha else []
    reduced += ["the authors' minibatch sampler"] if args.sampler == "authors" else []
    reduced += ["labels from optimal plans (h*)"] if args.labels == "optimal" else []
    if reduced:
        print(f"{name} ({scale}) differs from the paper's protocol: " + "; ".join(reduced),
              flush=True)
    if args.networks is None:
        # The single-output network only if its row is tested; the α one always (calibration reads
        # it).
        which = [w for w in NETWORKS if w == "alpha" or "N/A" in tested]
        print(f"{name} ({scale}): training {len(which) * len(runs)} networks, results in {out}",
              flush=True)
        trained = run_units(train_unit, [{**base, "name": f"run{r}/{w}", "run": r, "network": w}
                                         for r in runs for w in which], out, args.jobs, progress)
    extra, conformal = [] if bcfg is None else baselines.rows(bcfg, cfg.alphas), []
    if bcfg is not None:
        print(f"{name} ({scale}): the baselines {', '.join(bcfg.names)}", flush=True)
        trained += run_units(baselines.train_unit,
                             baselines.train_specs(bcfg, runs, base, args.jobs), out, args.jobs,
                             progress)
        if "conformal" in bcfg.names:
            conformal = run_units(baselines.conformal_unit,
                                  [{**base, "name": f"run{r}/conformal", "run": r} for r in runs],
                                  out, args.jobs, progress)
    specs = [] if args.only_baselines or cfg.baseline_row not in tested else [
        {**base, "name": cfg.baseline, "row": cfg.baseline_row}]
    specs += [{**base, "name": f"run{r}/test-{'mean' if row == 'N/A' else row.replace(' ', '-')}",
               "run": r, "row": row}
              for r in runs for row in ([] if args.only_baselines else
                                        [w for w in cfg.rows()[1:] if w in tested]) + extra]
    tasks = "Korf's instances" if cfg.domain == "15-puzzle" else f"the {cfg.domain}'s test tasks"
    print(f"testing {len(specs)} rows on {len(cfg.instances)} of {tasks}", flush=True)
    tests = run_units(test_unit, specs, out, args.jobs, progress)
    calibrations = run_units(calibration_unit, [{**base, "name": f"run{r}/calibration", "run": r}
                                                for r in runs], out, args.jobs, progress)
    rows = table(cfg, tests, paper_values(cfg.domain), extra)
    first = networks / "run1" / "alpha" / "generate_task.json"
    record = {"experiment": "suboptimality", "domain": cfg.domain, "scale": scale,
              "seed": args.seed, "config": asdict(cfg), "runs": runs, "reduced": reduced,
              **provenance(out), "machine": machine(), "table": rows,
              "calibration": calibration_table(calibrations),
              "calibration_states": len(calibration_states(cfg.domain)[1]), "training": trained,
              "learning_curves": learning_curves(networks, cfg.runs),
              "generate_task": (json.loads(first.read_text(encoding="utf-8")) if first.exists()
                                else None),
              "tests": [{k: v for k, v in t.items() if k != "summary"} for t in tests]}
    if bcfg is not None:
        record.update(baselines=asdict(bcfg),
                      conformal=[{k: v for k, v in c.items() if k != "summary"} for c in conformal])
    if args.only_baselines:
        record["only_baselines"] = True
    if args.sampler != "paper":
        record["sampler"] = args.sampler
    if args.labels != "plans":
        record["labels"] = args.labels
    if args.rows is not None:
        record["rows"] = tested          # the rows tested; the others are in the table with no runs
    if cfg.domain != "15-puzzle":
        record.update(title=f"Suboptimality on the {cfg.domain}, {len(cfg.instances)} test tasks "
                            f"(paper Table 3); averages over solved tasks, error bars: sd over "
                            f"runs",
                      paper_boot=(dict(zip(COLUMNS, table3.BOOT[cfg.domain]))
                                  if cfg.domain in table3.BOOT else None))
    if cfg.calibration_random:
        record["calibration_random"] = calibration_table(calibrations, "calibration_random")
    write_results(out, record, tests)
    for note in draw(record, out):
        print(note)
    print(format_table(rows, table3.BOOT.get(cfg.domain)))
    for key, states in (("calibration", "optimal plans"), ("calibration_random", "uniform states")):
        if key in record:
            print(f"calibration ({states}): "
                  + ", ".join(f"α {c['alpha']}: {100 * c['y_alpha_below_h_star']:.1f} %"
                              for c in record[key]))
            if record[key][0].get("network_above_h_ad") is not None:
                print("the network sets h (round(y^α) > h_ad) on: " + ", ".join(
                    f"α {c['alpha']}: {100 * c['network_above_h_ad']:.1f} %" for c in record[key]))
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
