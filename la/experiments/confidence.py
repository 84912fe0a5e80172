"""The confidence experiment: Heller et al. (2022, SoCS), Tables 1-3, on la's domains, with la's σ
signals.

    python -m la.experiments.confidence --domain 15-puzzle     # 1 run: teacher data, 7 networks,
                                                                 all tables
    python -m la.experiments.confidence --domain 24-pancake --runs 3 --jobs 2
    python -m la.experiments.confidence --quick                # a smoke run at toy scale, well
                                                                 under a minute
    python -m la.experiments.confidence --node-limit 200000    # another budget per test task
    python -m la.experiments.confidence --domain 24-puzzle \
        --hard-node-limit N                                    # another hard budget
    python -m la.experiments.confidence --domain 24-pancake --runs 3 --blocks hard \
        --hard-node-limit 2025 --networks results/confidence-24-pancake
                                                               # search again, no training

Per run, in three phases of units (`la.runs.runner`: each with its own random stream, `--resume`):

1. teacher   seeds from random walks back from the goal, each solved by GBFS with the domain's
             classical heuristic, every plan state labelled with its remaining cost
             (`la.heller.teacher`); a share of the plans is held out, and one fold of the rest
             validates (Heller et al., Setup).
2. networks  the classifiers Standard, U50, U90, W50 and W90 (`la.heller.classifier_fit`,
             `la.heller.ood`), then the two-output FFNN and the WUNN (`la.heller.uncertainty_fit`),
             all on the same data and inputs, each saved every 10 epochs and continued from there by
             --resume (`la.experiments.confidence_networks`). Each unit measures its network for the
             OOD table: median confidence on the held-out plans' states, on uniform noise and on
             weighted noise (the same noise for every network), and Kendall's τ between its
             prediction and the teacher's cost on the held-out states; and keeps its confidences on
             the training states, from which the searches' thresholds are taken
             (`la.heller.thresholds`).
3. searches  one unit per row of the coverage table (`la.experiments.confidence_config.rows`,
             `la.experiments.confidence_search`) on the domain's test tasks, each within its block's
             budget (the moderate block: `node_limit`; the hard block, the dual queue's rows of
             Tables 2 and 3: `hard_node_limit`): coverage, mean plan cost and mean generated nodes
             over the solved tasks.

With `--networks DIR` a run trains nothing: it searches with the networks and training
confidences of an earlier run in DIR (the same seed and training settings; the blocks, budgets and
runs may differ), whose teacher and network units it copies into its record, so that one training
serves a sweep of budgets.

Several runs (`--runs N`, or `--run K` of them per folder, combined by
`python -m la.experiments.merge`) give every coverage its spread over runs
(`la.experiments.confidence_table`).

Differences from Heller et al.: our domains are puzzles with one goal and many initial states, so
the seeds walk back from the goal and the test tasks are the usual test sets (Korf's 100; la's 50
pancake stacks and blocksworld states); the classical heuristic (md, gap, pdb, max-pdb:
`la.heller.teacher.teacher_heuristic`) stands in for h^FF as teacher and in the dual queue; tasks
are limited by generated nodes, not by time; the hard block searches the same test tasks on a budget
where the dual queue is not yet at full coverage, and the 24-puzzle is la's hard domain
(`la.experiments.confidence_config` says why); and where the paper trains ten networks per task, one
per validation fold, each searching a tenth of the test tasks, we train one per run, validated on
one fold, and search every task with it (`--runs` gives independent repetitions). Beyond the paper:
the rows marked σe and σa keep W50's h^NN and threshold −σ_e (WUNN) or −σ_a (FFNN) instead of c^NN;
on the sliding-tile puzzles the FFNN learns y/50, not y/10 (`la.experiments.confidence_config` says
why).
"""
import json
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
from scipy.stats import kendalltau

from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.experiments import confidence_table as tables
from la.experiments.confidence_config import CONFIGS, QUICK, SIGMA_NETWORKS
from la.experiments.confidence_networks import fit_resumable, saved_units
from la.experiments.confidence_search import (classical_heuristic, search_specs, search_unit,
                                               sigma_signal)
from la.experiments.unit_shapes import unit_shape
from la.heller import fit_checkpoint
from la.heller.classifier_fit import split_folds
from la.heller.evaluators import NNEvaluator
from la.heller.ood import UniformNoise, WeightedNoise
from la.heller.paper import BLOCKS
from la.heller.teacher import label_plans
from la.io import write_json, write_npz
from la.runs.cli import (COUNT_MAX, Parser, count, existing_folder, first_paragraph, names,
                         node_limit, pdb_folder, run)
from la.runs.folder import ROOT, prepare, provenance
from la.runs.network import encoding_for, save_network
from la.runs.persist import read_arrays
from la.runs.runner import add_run_options, run_units, selected_runs, unit_progress, unit_rng

TEACHER_KEY, NETWORK_KEY, NOISE_KEY = 0, 1, 2  # unit_rng keys after the run's number
TRAIN, VALIDATION, HELD_OUT = 0, 1, 2          # a teacher state's role
TEACHER_CHUNK = 100                            # seeds per progress line of the teacher


def split_roles(starts, folds: int, held_out: float, rng) -> np.ndarray:
    """Each teacher state's role: a share `held_out` of the plans HELD_OUT, then one fold of the
    other states VALIDATION (`split_folds`, as the classifier's training splits), the rest TRAIN;
    (n,) int8."""
    plans = len(starts) - 1
    plan_of = np.repeat(np.arange(plans), np.diff(starts))
    role = np.full(len(plan_of), TRAIN, dtype=np.int8)
    # >= 1 each
    held = rng.choice(plans, size=min(plans - 1, max(1, round(held_out * plans))), replace=False)
    role[np.isin(plan_of, held)] = HELD_OUT
    rest = np.flatnonzero(role == TRAIN)
    role[rest[split_folds(len(rest), folds, rng)[0]]] = VALIDATION
    return role


def teacher_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Phase 1: the run's teacher data and its split, into teacher.npz."""
    cfg, name = spec["config"], spec["name"]
    progress = unit_progress(out / name, name, verbose)
    domain, rng = make_domain(cfg.domain), unit_rng(spec["seed"], spec["run"], TEACHER_KEY)
    seeds = random_walk(domain, rng.integers(1, cfg.walk_max + 1, cfg.seeds), rng, n=cfg.seeds)
    heuristic, began, parts = (classical_heuristic(cfg.domain, spec["pdb_dir"]),
                               time.perf_counter(), [])
    for start in range(0, cfg.seeds, TEACHER_CHUNK):
        parts.append(label_plans(domain, seeds[start:start + TEACHER_CHUNK], heuristic,
                                 cfg.teacher_node_limit))
        progress(f"teacher: {start + len(parts[-1].seeds)}/{cfg.seeds} seeds, "
                 f"{sum(len(p.states) for p in parts):,} states, "
                 f"{time.perf_counter() - began:.0f} s")
    lengths = np.concatenate([np.diff(p.starts) for p in parts])
    data = {"states": np.concatenate([p.states for p in parts]),
            "costs": np.concatenate([p.costs for p in parts]),
            "starts": np.concatenate([[0], np.cumsum(lengths)]), "seeds": seeds,
            "solved": np.concatenate([p.solved for p in parts])}
    if len(lengths) < 2:
        raise ValueError(f"the teacher solved {len(lengths)} of {cfg.seeds} seeds: too few "
                         f"plans to hold some out (raise teacher_node_limit or seeds)")
    data["role"] = split_roles(data["starts"], cfg.classifier.folds, cfg.held_out, rng)
    write_npz(out / name / "teacher.npz", data)
    roles = np.bincount(data["role"], minlength=3).tolist()
    return {"run": spec["run"], "seeds": cfg.seeds, "unsolved": int((~data["solved"]).sum()),
            "states": len(data["costs"]), "train": roles[TRAIN], "validation": roles[VALIDATION],
            "held_out": roles[HELD_OUT], "H": int(data["costs"].max()),
            "mean_plan_cost": float(lengths.mean() - 1),
            "generated": sum(p.generated for p in parts), "seconds": time.perf_counter() - began,
            "summary": f"{len(lengths)}/{cfg.seeds} seeds solved, {len(data['costs']):,} "
                       f"states, H = {int(data['costs'].max())}"}


def load_teacher(out: Path, r: int) -> dict:
    return read_arrays(out / f"run{r}" / "teacher" / "teacher.npz", "teacher's data")


def network_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Phase 2: train one network of a run on its teacher data; measure it for the OOD table; keep
    the network and its confidences on the training states, from which the searches take their
    thresholds."""
    cfg, name, which, r = spec["config"], spec["name"], spec["network"], spec["run"]
    progress = unit_progress(out / name, name, verbose)
    data = load_teacher(out, r)
    encoding = encoding_for(cfg.domain, None, spec["pdb_dir"])
    X, costs, role = encoding(data["states"]), data["costs"], data["role"]
    trn, val, held = (np.flatnonzero(role == k) for k in (TRAIN, VALIDATION, HELD_OUT))
    # the same for every network
    noise = {kind: sampler(X[trn])(cfg.noise_rows, unit_rng(spec["seed"], r, NOISE_KEY, i))
             for i, (kind, sampler) in enumerate((("U", UniformNoise), ("W", WeightedNoise)))}
    rng = unit_rng(spec["seed"], r, NETWORK_KEY,
                   (*cfg.networks, *SIGMA_NETWORKS.values()).index(which))
    # H: the largest cost of the training data ("Planning Background"), which the paper splits into
    # its 10 folds, the validation fold included; not of the plans held out for the OOD table.
    H = int(costs[role != HELD_OUT].max())
    net, history, seconds = fit_resumable(which, cfg, X, costs, trn, val, H, rng, out / name,
                                          progress)
    progress(f"{which}: {len(history.val_loss)} epochs in {seconds:.0f} s, best epoch "
             f"{history.best_epoch + 1}")
    sigma = which in SIGMA_NETWORKS.values()
    c_train = (sigma_signal(which, net, cfg)(X[trn]) if sigma
               else NNEvaluator(net, encoding)(data["states"][trn])[1])    # the searches' evaluator
    stats = ood_stats(predictor(which, net, cfg), costs[held], X[held], noise)
    save_network(net, encoding, out / name / "network.npz")
    write_npz(out / name / "confidences.npz", {"c": c_train, "costs": costs[trn]})
    write_json(out / name / "history.json", asdict(history))
    (out / name / fit_checkpoint.FILE).unlink(missing_ok=True)  # the fit is kept in network.npz now
    score = "σ" if which in SIGMA_NETWORKS.values() else "confidence"
    tau = "—" if stats["tau"] is None else f"{stats['tau']:.3f}"
    return {"run": r, "network": which, "epochs": len(history.val_loss),
            "best_epoch": history.best_epoch, "val_loss": history.val_loss[history.best_epoch],
            "seconds": seconds, **stats,
            "summary": f"τ = {tau}, median {score} in/U/W "
                       + " / ".join(f"{stats[k]:.3g}" for k in ("in", "out_u", "out_w"))}


def predictor(which: str, net, cfg):
    """X -> (prediction in cost units, the OOD table's score): h^NN and c^NN for a classifier; the
    mean and σ_a (the FFNN, scaled back to cost units) or σ_e (the WUNN, exact)."""
    if which == "WUNN":
        return net.predict_exact
    if which == "FFNN":
        net64, scale = net.astype(np.float64), net.scale
        return lambda X: tuple(scale * v for v in net64.predict(X))
    return net.astype(np.float64).predict


def ood_stats(predict, costs, X_held, noise: dict) -> dict:
    """The OOD table's numbers for one network: the median score on the held-out states and on each
    noise, Kendall's τ (τ-b) between its prediction and the teacher's cost on the held-out states,
    mean |error|."""
    h, score = predict(X_held)
    tau = float(kendalltau(h, costs)[0])                # NaN when h is constant: no ranking at all
    return {"in": float(np.median(score)), "out_u": float(np.median(predict(noise["U"])[1])),
            "out_w": float(np.median(predict(noise["W"])[1])),
            "tau": tau if np.isfinite(tau) else None, "mae": float(np.mean(np.abs(h - costs)))}


def results_record(cfg, quick: bool, seed: int, runs: list, about: dict, teachers: list,
                   trained: list, searched: list) -> dict:
    """results.json's record: the tables (`la.experiments.confidence_table`) from the units'
    results, in the order of their runs, and the results themselves; `about` is the provenance (a
    run's, or a merge's)."""
    return {"experiment": "confidence", "domain": cfg.domain, "quick": quick, "seed": seed,
            "config": asdict(cfg), "runs": runs, **about, "teacher": teachers,
            "ood": tables.ood_table(cfg, trained), "coverage": tables.coverage_table(cfg, searched),
            "table3": tables.table3(cfg, searched),
            "training": [{k: v for k, v in t.items() if k != "summary"} for t in trained],
            "tests": [{k: v for k, v in s.items() if k != "summary"} for s in searched]}


def default_out(domain: str, quick: bool) -> Path:
    return ROOT / "results" / f"confidence-{domain}{'-quick' if quick else ''}"


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.confidence",
                    description=first_paragraph(__doc__))
    parser.add_argument("--domain", choices=tuple(CONFIGS), default="15-puzzle",
                        help="the domain, with its teacher, budgets and test tasks (default "
                             "15-puzzle)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run at toy scale, well under a minute")
    parser.add_argument("--runs", type=count, help=f"independent runs, 1..{COUNT_MAX} (default 1)")
    parser.add_argument("--blocks", type=names(BLOCKS, "block"), metavar="B[,B]",
                        help="the test blocks: moderate (Tables 2 and 3, every row) and/or hard "
                             "(the dual queue's rows at --hard-node-limit; default: both, the "
                             "24-puzzle: hard only)")
    parser.add_argument("--node-limit", type=node_limit, metavar="N",
                        help="the moderate block's generated nodes per test task and row (default: "
                             "the domain's, " +
                             ", ".join(f"{d} {c.node_limit:,}" for d, c in CONFIGS.items()
                                       if "moderate" in c.blocks)
                             + "; la/experiments/confidence_config.py says how they were chosen)")
    parser.add_argument("--hard-node-limit", type=node_limit, metavar="N",
                        help="the hard block's nodes per test task and row (default: the "
                             "domain's, " +
                             ", ".join(f"{d} {c.hard_node_limit:,}" for d, c in CONFIGS.items()
                                       if c.hard_node_limit)
                             + ", each from python -m la.experiments.confidence_pilot)")
    parser.add_argument("--networks", type=existing_folder, metavar="DIR",
                        help="train nothing: search with the networks of an earlier run in DIR "
                             "(the same seed and training settings; blocks, budgets and runs may "
                             "differ)")
    add_run_options(parser, "results/confidence-<domain>, or results/confidence-<domain>-quick",
                    order=False)
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached, for the PDB features and "
                             "heuristics (default: $LA_PDB_DIR, else ~/.cache/la/pdb); missing "
                             "ones are built there first")
    return parser.parse_args(argv)


def configured(args):
    """The domain's configuration with the options applied; ValueError for a block without its
    budget."""
    cfg = (QUICK if args.quick else CONFIGS)[args.domain]
    blocks = set(args.blocks or cfg.blocks)
    cfg = replace(cfg, runs=args.runs or cfg.runs, node_limit=args.node_limit or cfg.node_limit,
                  hard_node_limit=args.hard_node_limit or cfg.hard_node_limit,
                  blocks=tuple(b for b in BLOCKS if b in blocks))
    if args.node_limit and "moderate" not in cfg.blocks:
        raise ValueError(f"--node-limit sets the moderate block's budget, and this run has no "
                         f"moderate block (the {cfg.domain} runs {', '.join(cfg.blocks)}: add "
                         f"--blocks moderate,hard)")
    if args.hard_node_limit and "hard" not in cfg.blocks:
        raise ValueError("--hard-node-limit sets the hard block's budget, and --blocks leaves the "
                         "hard block out")
    if "hard" in cfg.blocks and cfg.hard_node_limit is None:
        raise ValueError(f"the hard block on the {cfg.domain} has no budget yet: measure one with "
                         f"python -m la.experiments.confidence_pilot --domain {cfg.domain}, then "
                         f"pass --hard-node-limit N")
    return cfg


def main(argv=None) -> int:
    args = parse_args(argv)
    cfg = configured(args)
    runs = selected_runs(cfg.runs, args.run)
    out = args.out or default_out(cfg.domain, args.quick)
    pdb_dir = None if args.pdb_dir is None else str(args.pdb_dir)
    encoding_for(cfg.domain, None, pdb_dir)   # PDBs read, checked, missing ones built: before `out`
    classical_heuristic(cfg.domain, pdb_dir)
    command = ["python", "-m", "la.experiments.confidence",
               *(argv if argv is not None else sys.argv[1:])]
    networks = (*cfg.networks, *SIGMA_NETWORKS.values())
    saved = None
    if args.networks is not None:              # checked before anything is written in `out`
        if args.networks.resolve() == out.resolve():
            raise ValueError("--networks names the results folder itself: choose another --out")
        saved = saved_units(args.networks, json.loads(json.dumps(asdict(cfg))), args.seed, runs,
                            networks)
    prepare(out, {"config": asdict(cfg), "seed": args.seed,
                  **({} if args.run is None else {"run": args.run}),
                  **({} if saved is None else {"networks": str(args.networks)})},
            args.resume, command, unit_shape=lambda unit: unit_shape("confidence", unit, cfg))
    base = {"seed": args.seed, "config": cfg, "pdb_dir": pdb_dir,
            **({} if saved is None else {"networks": str(args.networks)})}
    progress = lambda line: print(line, flush=True)                                     # noqa: E731
    budgets = {"moderate": cfg.node_limit, "hard": cfg.hard_node_limit}
    trains = (f"{cfg.seeds} teacher seeds, {len(networks)} networks" if saved is None
              else f"the {len(networks)} networks of {args.networks}")
    print(f"confidence experiment on the {cfg.domain}{' (quick)' if args.quick else ''}: "
          f"{len(runs)} run(s) of {trains} and "
          f"{len(cfg.rows())} search rows on {len(cfg.instances)} test tasks, "
          + ", ".join(f"{budgets[b]:,} nodes each in the {b} block" for b in cfg.blocks)
          + f"; results in {out}", flush=True)
    if saved is None:
        teachers = run_units(teacher_unit,
                             [{**base, "name": f"run{r}/teacher", "run": r} for r in runs], out,
                             args.jobs, progress)
        trained = run_units(network_unit,
                            [{**base, "name": f"run{r}/{w}", "run": r, "network": w}
                             for r in runs for w in networks], out, args.jobs, progress)
    else:
        teachers, trained = saved
    searched = run_units(search_unit, search_specs(cfg, runs, base), out, args.jobs, progress)
    record = results_record(cfg, args.quick, args.seed, runs, provenance(out), teachers, trained,
                            searched)
    if saved is not None:
        record["networks"] = str(args.networks)
    tables.write_results(out, record)
    from la.plots import confidence as plots_confidence
    figures = plots_confidence.draw(record, out)
    print(tables.format_tables(record))
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figures: "
          f"{', '.join(p.name for p in figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
