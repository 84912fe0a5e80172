"""A pilot for the confidence experiment's budgets: how many tasks its base rows solve at every
budget, measured on tasks disjoint from the test set, so that a budget can be chosen without looking
at the test tasks.

    python -m la.experiments.confidence_pilot --domain 24-puzzle          # 50 tasks, up to
                                                                            10 x its node_limit
    python -m la.experiments.confidence_pilot --domain 15-puzzle --tasks 40 --max-nodes 100000
    python -m la.experiments.confidence_pilot --quick                     # a smoke run at toy scale

It trains what the experiment's run 1 trains first, with the same seed and the same units
(`la.experiments.confidence`: the teacher data, then the search network W50), then searches
`--tasks` states drawn uniformly from the domain's solvable states (`la.domains.uniform`, none of
them a test task) with the base rows, each up to `--max-nodes` generated nodes: GBFS with the
classical heuristic (for reference), GBFS with h^NN (the moderate block's base row; not on the
24-puzzle, which runs the hard block only) and the dual queue (the hard block's base row). A
best-first search's path does not depend on its budget, which only stops it, so a task is solved
within B nodes exactly when it was solved with at most B generated: one search per task gives the
coverage at every budget up to --max-nodes.

Printed, and written to pilot.json: the coverage at a ladder of budgets, and the budgets at which
each base row solves 30, 60 and 90 % of the pilot tasks. The experiment's budgets aim at 30-90 %
base coverage (its moderate block: GBFS base; its hard block: the dual queue's base): pass the 60 %
budget as --node-limit or --hard-node-limit. Each domain's default budgets in
`la.experiments.confidence_config` are its committed pilot's
(figures/confidence-pilot_<domain>.json).
"""
import math
import sys
from dataclasses import asdict

import numpy as np

from la.domains.names import make_domain
from la.domains.uniform import uniform_states
from la.experiments.confidence import network_unit, teacher_unit
from la.experiments.confidence_config import CONFIGS, QUICK, Row
from la.experiments.confidence_search import classical_heuristic, search, searcher
from la.experiments.table3 import TEST_SETS
from la.io import write_json
from la.runs.cli import (COUNT_MAX, Parser, first_paragraph, integer, node_limit, pdb_folder,
                         run)
from la.runs.folder import ROOT, prepare, provenance
from la.runs.network import encoding_for
from la.runs.runner import add_run_options, run_units, unit_progress, unit_rng
from la.search import check_plan

CLASSICAL, GBFS_BASE, DUAL_BASE = (Row("classical", "single"), Row("softmax", "single"),
                                   Row("softmax", "dual"))
SHARES = (0.3, 0.6, 0.9)            # the coverage band the experiment aims at, and its middle
PILOT_RUN = 0                       # the pilot tasks' random stream: run 0, which no run of the
                                    # experiment is
LADDER = (1, 2, 5)                  # budgets 1,000, 2,000, 5,000, 10,000, ... up to --max-nodes


def pilot_tasks(domain_name: str, n: int, seed: int) -> np.ndarray:
    """n states drawn uniformly from the domain's solvable states, none of them one of its test
    tasks."""
    domain = make_domain(domain_name)
    test = {task.state.tobytes() for task in TEST_SETS[domain_name]()}
    rng = unit_rng(seed, PILOT_RUN)
    kept = []
    while len(kept) < n:           # a test task is drawn with probability below 1e-10: almost never
        kept += [s for s in uniform_states(domain, n - len(kept), rng) if s.tobytes() not in test]
    return np.array(kept, dtype=np.uint8).reshape(n, domain.size)


def pilot_rows(cfg) -> list:
    """GBFS with the classical heuristic (for reference), the moderate block's base row if the
    domain runs that block (the 24-puzzle does not), and the hard block's, the dual queue."""
    return [CLASSICAL, *([GBFS_BASE] if "moderate" in cfg.blocks else []), DUAL_BASE]


def pilot_unit(spec: dict, out, verbose: bool) -> dict:
    """One base row on every pilot task, up to the pilot's budget; one record per task."""
    cfg, name, row = spec["config"], spec["name"], Row(**spec["row"])
    domain, evaluator, classical, rule = searcher(cfg, row, out / "run1", spec["pdb_dir"])
    progress, records = unit_progress(out / name, name, verbose), []
    for i, state in enumerate(pilot_tasks(cfg.domain, spec["tasks"], spec["seed"]), start=1):
        result = search(row, domain, evaluator, classical, rule, state, spec["max_nodes"])
        if result.solved:
            check_plan(domain, state, result.plan)
        records.append({"id": i, "solved": result.solved, "cost": result.cost,
                        "generated": result.generated, "seconds": result.seconds,
                        "status": result.status})
        progress(f"pilot task {i}: {f'cost {result.cost}' if result.solved else result.status}, "
                 f"{result.generated:,} nodes, {result.seconds:.1f} s")
    solved = sum(r["solved"] for r in records)
    return {"row": row.name, "records": records,
            "summary": f"{row.name}: {solved}/{len(records)} solved"}


def budgets(max_nodes: int) -> list:
    """The ladder 1,000, 2,000, 5,000, 10,000, ... below `max_nodes`, then `max_nodes` itself."""
    ladder = [k * 10 ** e for e in range(3, 19) for k in LADDER if k * 10 ** e < max_nodes]
    return ladder + [max_nodes]


def coverage_at(records: list, budget: int) -> float:
    """The share of tasks solved with at most `budget` generated nodes."""
    return sum(r["solved"] and r["generated"] <= budget for r in records) / len(records)


def budget_for(records: list, share: float) -> int | None:
    """The least budget at which the row solves `share` of the tasks; None if it does not within the
    pilot's."""
    needed = sorted(r["generated"] for r in records if r["solved"])
    k = math.ceil(share * len(records))
    return needed[k - 1] if 1 <= k <= len(needed) else None


def summarize(results: list, max_nodes: int) -> dict:
    """Per row: coverage on the ladder of budgets and the budgets for each share of SHARES."""
    return {r["row"]: {"coverage": {str(b): coverage_at(r["records"], b)
                                    for b in budgets(max_nodes)},
                       "budget_for": {f"{share:.0%}": budget_for(r["records"], share)
                                      for share in SHARES}}
            for r in results}


def format_pilot(domain: str, tasks: int, max_nodes: int, table: dict) -> str:
    """The pilot's table as text, with the budgets it suggests."""
    names = list(table)
    lines = [f"Pilot on the {domain}: {tasks} uniform tasks (none a test task), up to "
             f"{max_nodes:,} generated nodes each; h^NN of run 1's W50. Coverage within each "
             f"budget:", f"{'budget':>13} | " + " ".join(f"{n:>14}" for n in names)]
    for b in budgets(max_nodes):
        lines.append(f"{b:>13,} | " + " ".join(f"{table[n]['coverage'][str(b)]:>14.0%}"
                                               for n in names))
    for share in SHARES:
        cells = (table[n]["budget_for"][f"{share:.0%}"] for n in names)
        lines.append(f"{f'{share:.0%} within':>13} | " + " ".join(
            f"{'> max' if b is None else f'{b:,}':>14}" for b in cells))
    middle = f"{SHARES[1]:.0%}"
    suggest = [(option, table[row.name]["budget_for"][middle]) for option, row in
               (("--node-limit", GBFS_BASE), ("--hard-node-limit", DUAL_BASE)) if row.name in table]
    lines.append("The budgets at which a base row solves 60 %, for the experiment: " + "; ".join(
        f"{option} {'(beyond this pilot: raise --max-nodes)' if b is None else f'{b:,}'}"
        for option, b in suggest))
    return "\n".join(lines)


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.confidence_pilot",
                    description=first_paragraph(__doc__))
    parser.add_argument("--domain", choices=tuple(CONFIGS), default="24-puzzle",
                        help="the domain, with its teacher and networks as the experiment's "
                             "(default 24-puzzle)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run at toy scale (the experiment's --quick)")
    parser.add_argument("--tasks", type=integer(1, COUNT_MAX), default=50,
                        help=f"pilot tasks, 1..{COUNT_MAX} (default 50, as many as the test tasks)")
    parser.add_argument("--max-nodes", type=node_limit, metavar="N",
                        help="generated nodes per pilot task and row at most (default: 10 times "
                             "the domain's node_limit)")
    add_run_options(parser, "results/confidence-pilot-<domain>", order=False,
                    jobs="searches run in parallel")
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached (default: $LA_PDB_DIR, else "
                             "~/.cache/la/pdb)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.run is not None:
        raise ValueError("--run: the pilot trains run 1's networks only; it has no runs to choose "
                         "from")
    cfg = (QUICK if args.quick else CONFIGS)[args.domain]
    max_nodes = args.max_nodes or 10 * cfg.node_limit
    out = (args.out
           or ROOT / "results" / f"confidence-pilot-{cfg.domain}{'-quick' if args.quick else ''}")
    pdb_dir = None if args.pdb_dir is None else str(args.pdb_dir)
    encoding_for(cfg.domain, None, pdb_dir)   # PDBs read, checked, missing ones built: before `out`
    classical_heuristic(cfg.domain, pdb_dir)
    command = ["python", "-m", "la.experiments.confidence_pilot",
               *(argv if argv is not None else sys.argv[1:])]
    prepare(out,
            {"config": asdict(cfg), "seed": args.seed, "tasks": args.tasks, "max_nodes": max_nodes},
            args.resume, command)
    base = {"seed": args.seed, "config": cfg, "pdb_dir": pdb_dir, "run": 1}
    progress = lambda line: print(line, flush=True)                                     # noqa: E731
    print(f"confidence pilot on the {cfg.domain}{' (quick)' if args.quick else ''}: run 1's "
          f"teacher data and {cfg.search_network}, then {len(pilot_rows(cfg))} rows on "
          f"{args.tasks} pilot tasks, up to {max_nodes:,} nodes each; results in {out}", flush=True)
    run_units(teacher_unit, [{**base, "name": "run1/teacher"}], out, args.jobs, progress)
    run_units(network_unit,
              [{**base, "name": f"run1/{cfg.search_network}", "network": cfg.search_network}], out,
              args.jobs, progress)
    results = run_units(pilot_unit, [{**base, "name": f"pilot/{row.key}", "row": asdict(row),
                                      "tasks": args.tasks, "max_nodes": max_nodes}
                                     for row in pilot_rows(cfg)], out, args.jobs, progress)
    table = summarize(results, max_nodes)
    write_json(out / "pilot.json",
               {"experiment": "confidence-pilot", "domain": cfg.domain, "quick": args.quick,
                "seed": args.seed, "tasks": args.tasks, "max_nodes": max_nodes,
                "config": asdict(cfg), **provenance(out), "table": table, "rows": results})
    print(format_pilot(cfg.domain, args.tasks, max_nodes, table))
    print(f"results: {out / 'pilot.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
