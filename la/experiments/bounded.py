"""Certified bounded-suboptimal search with the learned heuristics: focal search ordered by the
committed networks of Tables 1 and 3, beside weighted A* on the admissible floor alone and the
committed IDA* rows, on test tasks with known optimal costs.

    python -m la.experiments.bounded --domain 15-puzzle          # Korf's 100, every w (hours)
    python -m la.experiments.bounded --domain 24-pancake --jobs 2 --resume
    python -m la.experiments.bounded --domain 15-puzzle --floor pdb   # the 6-6-3 PDBs as the floor
    python -m la.experiments.bounded --quick                     # a smoke run: seconds

Each unit is one search at one w in {1.0, 1.05, 1.1, 1.25, 1.5, 2.0} on the domain's test tasks
(Korf's 100, the 24-puzzle's 50, la's 50 24-pancake stacks and 50 15-blocksworld states, `la.data`):
focal search (`la.search.focal`: OPEN by g + h_ad, FOCAL = f <= w · min f, ordered by y^0.9 or y^0.5
of the α network or by the single-output network's mean) or weighted A*
(`la.search.weighted_a_star`, g + w · h_ad). Both return a plan with a certificate, a lower bound LB
<= C* and the ratio cost / LB <= w, within a budget of generated nodes and of memory per task. Per
row: the largest certified ratio, the realised suboptimality and % optimal against the known C*,
nodes, time, the largest search memory, the tasks not solved within the budget, and any task whose
certificate the known C* contradicts (none, if the searches are right). The IDA* rows of the same
networks come from the committed records (`figures/suboptimality.json`,
`figures/table3_<domain>.json`), not run again. Settings and why: `la.experiments.bounded_config`;
results: experiment.json, results.json, results.csv and the figure bounded_<domain>.png in --out
(default results/bounded-<domain>).
"""
import sys
from argparse import ArgumentTypeError
from dataclasses import asdict, replace

from la.experiments.bounded_config import (BATCH, DOMAIN_NAMES, FLOORS, MEMORY_LIMIT,
                                           NODE_LIMIT, WEIGHTS, config_for, networks_folder,
                                           unit_name)
from la.experiments.bounded_table import format_table, ida_rows, table, write_results
from la.experiments.bounded_units import floor_heuristic, search_unit
from la.experiments.suboptimality_table import NETWORKS
from la.experiments.trained import trained_network
from la.plots.bounded import draw
from la.runs.cli import (COUNT_MAX, Parser, bytes_, count, first_paragraph, node_limit, out_folder,
                         pdb_folder, real_weight, run)
from la.runs.folder import ROOT, prepare, provenance
from la.runs.machine import machine
from la.runs.runner import run_units

QUICK = config_for("15-puzzle", quick=True)


def weights(text: str) -> tuple:
    """An argparse type: comma-separated weights w, each a real number >= 1, at least one."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ArgumentTypeError("name at least one weight w >= 1, e.g. 1.5 or 1.25,1.5")
    return tuple(sorted(set(real_weight(p) for p in parts)))


UNIT_SHAPE = {"search": str, "weight": (int, float), "records": list, "tasks": int}


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.bounded", description=first_paragraph(__doc__))
    parser.add_argument("--domain", choices=DOMAIN_NAMES, default="15-puzzle",
                        help="the test set's domain (default: the 15-puzzle, Korf's 100)")
    parser.add_argument("--floor", metavar="H",
                        help="the admissible heuristic under both searches: "
                             + "; ".join(f"{d}: {', '.join(f)}" for d, f in FLOORS.items())
                             + " (default: the first)")
    parser.add_argument("--network-run", type=count, default=1, metavar="R",
                        help="the committed run whose networks order FOCAL (default 1; the "
                             "15-puzzle has runs 1..3)")
    parser.add_argument("--weights", type=weights, metavar="W,...",
                        help="only these w, comma-separated real numbers >= 1 (default: "
                             f"{', '.join(f'{w:g}' for w in WEIGHTS)}); e.g. 1.5 alone first, "
                             "into its own --out")
    parser.add_argument("--node-limit", type=node_limit, metavar="N",
                        help=f"generated nodes per task (default {NODE_LIMIT:,}; --quick "
                             f"{QUICK.node_limit:,})")
    parser.add_argument("--memory-limit", type=bytes_, metavar="BYTES",
                        help=f"bytes of one search's arrays (default {MEMORY_LIMIT:g}; --quick "
                             f"{QUICK.memory_limit:g})")
    parser.add_argument("--batch", type=node_limit, metavar="K",
                        help=f"nodes expanded per step (default {BATCH:,}; 1: the textbook "
                             f"search)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run in seconds: the 2 cheapest tasks, w 1.0 and 2.0, y^0.9 "
                             "and the mean; its numbers say only that every part runs")
    parser.add_argument("--jobs", type=count, default=1,
                        help=f"units run in parallel processes, 1..{COUNT_MAX} (default 1)")
    parser.add_argument("--out", type=out_folder, default=None,
                        help="results folder, created if need be (default results/bounded-<domain>"
                             "[-<floor>], or results/bounded-<domain>-quick)")
    parser.add_argument("--resume", action="store_true",
                        help="continue an interrupted run in --out")
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached (default: $LA_PDB_DIR, else "
                             "~/.cache/la/pdb); missing ones are built there first")
    return parser.parse_args(argv)


def configure(args):
    """The configuration the options ask for, checked: ValueError in one line."""
    cfg = config_for(args.domain, args.floor, args.quick)
    cfg = replace(cfg, network_run=args.network_run, weights=args.weights or cfg.weights,
                  node_limit=args.node_limit or cfg.node_limit,
                  memory_limit=args.memory_limit or cfg.memory_limit,
                  batch=args.batch or cfg.batch)
    folder = networks_folder(cfg.domain)
    runs = sorted(p.name for p in folder.glob("run*") if (p / "alpha" / "network.npz").is_file())
    for which in NETWORKS:
        if not (folder / f"run{cfg.network_run}" / which / "network.npz").is_file():
            raise ValueError(f"--network-run {cfg.network_run}: the committed {cfg.domain} "
                             f"networks are {', '.join(runs)} ({folder.name})")
    return cfg


def default_out(cfg, quick: bool):
    """results/bounded-<domain>, -<floor> for another than the default floor, -quick."""
    floor = "" if cfg.floor == FLOORS[cfg.domain][0] else f"-{cfg.floor}"
    return ROOT / "results" / f"bounded-{cfg.domain}{floor}{'-quick' if quick else ''}"


def main(argv=None) -> int:
    args = parse_args(argv)
    cfg = configure(args)
    ida = ida_rows(cfg)
    base = {"config": cfg, "networks": str(networks_folder(cfg.domain)),
            "pdb_dir": None if args.pdb_dir is None else str(args.pdb_dir)}
    # the networks and the floor loaded (their PDBs built if missing) before `out` is touched
    floor_heuristic(cfg.domain, cfg.floor, args.pdb_dir)
    for which in NETWORKS:
        trained_network({**base, "run": cfg.network_run}, which)
    out = args.out or default_out(cfg, args.quick)
    command = ["python", "-m", "la.experiments.bounded",
               *(argv if argv is not None else sys.argv[1:])]
    prepare(out, {"config": asdict(cfg)}, args.resume, command, unit_shape=UNIT_SHAPE)
    units = [{**base, "name": unit_name(s, h, w), "search": s, "heuristic": h, "weight": w}
             for s, h, w in cfg.units()]
    print(f"certified bounded-suboptimal search on the {cfg.domain} (floor {cfg.floor}): "
          f"{len(units)} units on {len(cfg.tasks())} tasks, {cfg.node_limit:,} nodes and "
          f"{cfg.memory_limit / 1e9:g} GB a task; results in {out}", flush=True)
    results = run_units(search_unit, units, out, args.jobs, lambda line: print(line, flush=True))
    rows = table(results, ida)
    record = {"experiment": "bounded", "domain": cfg.domain, "quick": args.quick,
              "config": asdict(cfg), **provenance(out), "machine": machine(), "table": rows,
              "units": results, "ida": ida}
    write_results(out, record)
    names = draw(record, out)
    print(format_table(rows))
    print(f"results: {out / 'results.json'}, {out / 'results.csv'}; figure: {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
