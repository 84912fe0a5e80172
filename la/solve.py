"""Solve one task with IDA* and a classical heuristic, pattern databases or a trained network, or
with a bounded-suboptimal search that certifies its plan is at most W times optimal.

    python -m la.solve --korf 12
    python -m la.solve --domain 8-puzzle "8 1 2 0 4 3 7 5 6" --algorithm reference
    python -m la.solve --domain 10-pancake --json 9 3 5 1 0 2 8 7 4 6
    python -m la.solve --korf24 1 --heuristic pdb          # pattern databases, built on first use
    python -m la.solve --network results/suboptimality-reduced/run1/alpha/network.npz \\
        --alpha 0.9 --korf 12
    python -m la.solve --search focal --weight 1.5 --floor md --network \\
        figures/suboptimality-networks/run1/alpha/network.npz --alpha 0.9 --korf 1

Exit status: 0 solved, 1 not solved within the limits (or no solution), 2 bad input.

The networks (and SciPy, which they need) are imported only with --network, once the arguments are
checked: --help and a refused argument load little more than NumPy
(`python -m la.bench --only startup` times them).
"""
import argparse
import json
import math
import sys

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost
from la.domains.names import make_domain
from la.domains.pancake import Pancake
from la.heuristics.classical import CLASSICAL, Weighted, make_heuristic
from la.runs import cli
from la.runs.cli import (
    NODES_MAX,
    WEIGHT_MAX,
    Parser,
    alpha,
    bytes_,
    existing_file,
    node_limit,
    pdb_folder,
    real_weight,
    run,
    first_paragraph,
    integer,
    seconds,
)
from la.runs.progress import BuildProgress
from la.search import ida_star, reference
from la.search.ida_star import ORDERS



def instance(collection: str, count: int):
    """An argparse type: the number of one of `collection`'s `count` instances, 1..`count` (1e1 =
    10, as other integers here)."""
    number = integer(1, math.inf)

    def parse(text: str) -> int:
        value = number(text)
        if value > count:
            shown = text if len(text) <= 20 else cli.shown(text)
            raise argparse.ArgumentTypeError(f"there is no instance {shown}: "
                                             f"{collection} instances are numbered 1..{count}")
        return value
    parse.__name__ = "instance"
    return parse


DEFAULT_HEURISTIC = {Pancake: "gap", Blocksworld: "hamming"}  # and "md" for the sliding-tile puzzle
HEURISTICS = CLASSICAL + ("pdb", "max-pdb", "exact")
SEARCHES = ("ida", "focal", "wastar")
# Nodes a bounded-suboptimal search takes and expands per step when --batch is not given: one
# network call scores all their children (`python -m la.bench --only focal` measures this K).
BATCH = 4096

EPILOG = (
    "states (space- or comma-separated integers, one per position):\n"
    "  <n>-puzzle      W*W numbers, row by row from the top-left, 0 = the blank; "
    "the goal is 0 1 2 ... (blank\n"
    "                  top-left). e.g. --domain 8-puzzle 1 0 2 3 4 5 6 7 8  "
    "(one move from the goal)\n"
    "  <n>-pancake     n pancakes 0..n-1 from the top (the spatula side) down; "
    "the goal is 0 1 ... n-1.\n"
    "                  e.g. --domain 5-pancake 1 0 2 3 4\n"
    "  <n>-blocksworld for each block 1..n the block it stands on, 0 = the table; "
    "the goal is one tower\n"
    "                  0 1 2 ... n-1 (1 on the table, 2 on 1, ...). "
    "e.g. --domain 3-blocksworld 0 1 0\n"
    "  or --korf N (Korf's 15-puzzle instance N, 1..100) / "
    "--korf24 N (Korf & Felner's 24-puzzle, 1..50)\n"
    "\n"
    "heuristics: md (sliding tiles), gap (pancakes), hamming (any); "
    "pdb: the larger of two additive PDB partitions'\n"
    "  sums (15-puzzle: Korf & Felner's 6-6-3 and its reflection; "
    "24-puzzle and 24-pancake: the paper's partitions\n"
    "  A and B); max-pdb: the largest admissible feature of the paper's encodings "
    "(24-puzzle, 24-pancake,\n"
    "  15-blocksworld; the authors' MaxHeuristic); "
    "exact: h = h*, blocksworld's single-tower cost rule, or the table of every\n"
    "  state's h* on small boards and stacks (8-puzzle, 2x5-puzzle, 3x4-puzzle, up to the "
    "10-pancake; la.pdb.exact).\n"
    "  PDBs missing from the cache folder (--pdb-dir, else $LA_PDB_DIR, else ~/.cache/la/pdb) "
    "are built first,\n"
    "  with a progress line on stderr: the 24-puzzle's ten took 47 s on a quiet 2-core machine "
    "(la.bench --only pdb).\n"
    "\n"
    "trained networks: --network PATH plans with a network saved by la's experiments "
    "(network.npz) on the domain\n"
    "  it was trained on, which it records (files saved before that are 15-puzzle networks); "
    "a state without\n"
    "  --domain is read as a state of that domain. "
    "h = max(round(y^α), h_ad), h_ad the largest admissible feature\n"
    "  on the 24-puzzle, 24-pancake and 15-blocksworld (paper §5; 0 on the 15-puzzle). "
    "--alpha A plans with y^α,\n"
    "  two-output networks only; without it, with the network's mean μ "
    "(for a two-output network, as --alpha 0.5).\n"
    "\n"
    "output: the start, the plan as one state per line (each after a move), "
    "and the cost, node counts and time;\n"
    "  one line per IDA* iteration on stderr (bound, nodes, time). "
    "--json prints one object instead: domain,\n"
    "  heuristic, algorithm, order, weight, start, optimal (if known), solved, cost, "
    "plan (a list of states),\n"
    "  generated, expanded, iterations, seconds, status, "
    "per_iteration (nodes per iteration), bounds,\n"
    "  nodes_per_second; with --network also network (its path) and alpha (null: the mean).\n"
    "\n"
    "\n"
    "bounded-suboptimal search: --search focal|wastar --weight W (a real number >= 1) returns a "
    "plan of cost C\n"
    "  with a certificate, a lower bound LB <= C* and the certified ratio C / LB <= W, so C <= "
    "W * C* whatever\n"
    "  the second heuristic says. --floor H is the admissible heuristic under both (default: "
    "the domain's\n"
    "  default heuristic): md, hamming, pdb, max-pdb, exact on sliding tiles; gap, pdb, max-pdb, "
    "exact on\n"
    "  pancakes; hamming, max-pdb, exact on blocksworld, where la has them. focal (Pearl & Kim's "
    "A*_eps) takes\n"
    "  the next node among those with f <= W * min f by --network (y^α with --alpha, else μ) or "
    "--heuristic NAME;\n"
    "  wastar (weighted A*) orders by g + W * h_floor. --batch K nodes expanded per step "
    f"(default {BATCH:,};\n"
    "  1: the textbook search), --node-limit, --memory-limit BYTES; --algorithm reference: "
    "the plain one-node\n"
    "  search. --json adds search, floor, batch, lower_bound, certified_ratio, reopened, stored "
    "and peak_bytes.\n"
    "\n"
    "memory: IDA* holds at most 2 * NODES + 300,000 nodes with --node-limit NODES, whatever the "
    "weight (a node:\n"
    "  its state, a few integers and, with --network, the network's first hidden layer), and "
    "builds children at\n"
    "  most 64 MiB of states at a time; the reference holds one path of at most NODES. Without "
    "--node-limit both\n"
    "  grow with the nodes generated (--time-limit bounds that too). focal and wastar keep the "
    "nodes they\n"
    "  generate: --memory-limit BYTES stops them.\n"
    "  A search that cannot get the memory it needs ends with one line naming it, exit status 1.\n"
    "\n"
    "exit status: 0 solved, 1 not solved within the limits (or no solution), 2 bad input.\n"
)


def parse_args(argv):
    parser = Parser(prog="python -m la.solve", description=first_paragraph(__doc__), epilog=EPILOG,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("state", nargs="*", help="the start state: space-separated integers")
    parser.add_argument("--domain", default=None, help="8-puzzle, 15-puzzle (default), 24-puzzle, "
                        "<rows>x<columns>-puzzle (e.g. 2x5-puzzle), <n>-pancake or "
                        "<n>-blocksworld")
    parser.add_argument("--heuristic", choices=HEURISTICS, default=None,
                        help="md (sliding tiles, default there), gap (pancakes, default there), "
                             "hamming, pdb, "
                             "max-pdb, exact (blocksworld, small boards and stacks); see below")
    parser.add_argument("--network", type=existing_file, metavar="PATH",
                        help="plan with this trained network (a network.npz saved by la) "
                             "instead of --heuristic")
    parser.add_argument("--alpha", type=alpha, metavar="A",
                        help="with --network: plan with y^α, 0 < A < 1 (two-output networks); "
                             "default: the mean")
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached "
                             "(default: $LA_PDB_DIR, else ~/.cache/la/pdb); "
                             "read-only is fine once they are there")
    parser.add_argument("--algorithm", choices=("batched", "reference"), default="batched")
    parser.add_argument("--order", choices=ORDERS, default=None,
                        help="IDA*'s goal order: "
                             "depth-first (the reference's plan and node counts, "
                             "default) or batched (the shallowest goal within the bound)")
    parser.add_argument("--search", choices=SEARCHES, default="ida",
                        help="ida (IDA*, default); focal (focal search) or wastar (weighted A*): "
                             "bounded-suboptimal, with a certificate (see below)")
    parser.add_argument("--weight", type=real_weight, default=1, metavar="W",
                        help=f"IDA*: multiply the heuristic by W, an integer 1..{WEIGHT_MAX:,} "
                             "(weighted IDA*: inadmissible "
                             "for W > 1, so the two orders can return different plans); default 1. "
                             "focal, wastar: the bound W >= 1, a real number")
    parser.add_argument("--floor", metavar="H",
                        help="focal, wastar: the admissible heuristic, one of "
                             f"{', '.join(HEURISTICS)} (default: the domain's default)")
    parser.add_argument("--batch", type=node_limit, metavar="K",
                        help=f"focal, wastar: nodes expanded per step, 1..{NODES_MAX:,} "
                             f"(default {BATCH:,})")
    parser.add_argument("--memory-limit", type=bytes_, metavar="BYTES",
                        help="focal, wastar: stop before the search's arrays would hold more than "
                             "this many bytes (e.g. 4e9)")
    parser.add_argument("--korf", type=instance("Korf's 15-puzzle", 100), metavar="N",
                        help="Korf's 15-puzzle instance N (1..100)")
    parser.add_argument("--korf24", type=instance("Korf & Felner's 24-puzzle", 50), metavar="N",
                        help="Korf & Felner's 24-puzzle instance N (1..50)")
    parser.add_argument("--node-limit", type=node_limit, metavar="NODES",
                        help=f"stop after this many generated nodes, 1..{NODES_MAX:,}; "
                             "whole numbers may be written "
                             "in scientific notation (1e3 = 1000, 2.5e9 = 2500000000)")
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                        help="stop after this many seconds (a finite number above 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def task(args, default_domain: str = "15-puzzle"):
    """The domain, the start state and its optimal cost if known, from the arguments; a state
    without --domain belongs to `default_domain`."""
    chosen = [name for name, given in [("a state", bool(args.state)),
                                       ("--korf", args.korf is not None),
                                       ("--korf24", args.korf24 is not None)] if given]
    if len(chosen) != 1:
        raise ValueError("give exactly one of: a state, --korf N, --korf24 N"
                         + (f" (got {' and '.join(chosen)})" if chosen else ""))
    if args.state:
        domain = make_domain(default_domain if args.domain is None else args.domain)
        return domain, cli.parse_state(domain, " ".join(args.state)), None
    korf15 = args.korf is not None
    name, instances = ("15-puzzle", data.korf100()) if korf15 else ("24-puzzle", data.korf50_24())
    number = args.korf if korf15 else args.korf24          # in range: its type (`instance`)
    if args.domain is not None and make_domain(args.domain).name != name:     # 15-PUZZLE too
        raise ValueError(f"--korf{'' if korf15 else '24'} instances are {name} tasks, "
                         f"not {args.domain}")
    instance = instances[number - 1]
    return make_domain(name), instance.state, instance.optimal


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        return solve(args)
    except MemoryError as error:        # numpy's names the array: "Unable to allocate 1.2 GiB ..."
        needed = str(error).split(" for an array")[0] if str(error) else "more memory"
        print(f"not solved within the limits: out of memory ({needed[:1].lower()}{needed[1:]}); "
              "a lower --node-limit bounds it (see --help: memory)", file=sys.stderr)
        return 1


def solve(args) -> int:
    """Solve the task the checked arguments give; print the plan or the JSON record."""
    if args.search != "ida":
        from la import solve_bounded
        solve_bounded.check_options(args)
    else:
        check_ida_options(args)
    network, about = trained_network(args)
    domain, start, optimal = task(args, about["domain"] if about else "15-puzzle")
    if args.search != "ida":
        return solve_bounded.solve(args, domain, start, optimal, network, about)
    if network is not None:
        from la.runs.network import check_domain, network_encoding
        from la.heuristics.likely_admissible import LikelyAdmissible
        check_domain(about, domain, args.network)
        name = "network"
        heuristic = LikelyAdmissible(network,
                                     network_encoding(about, args.pdb_dir, BuildProgress(),
                                                      args.network),
                                     args.alpha)
    else:
        name = args.heuristic or DEFAULT_HEURISTIC.get(type(domain), "md")
        heuristic = heuristic_named(name, domain, args.pdb_dir)
    if args.weight > 1:
        heuristic = Weighted(heuristic, args.weight)
    if (domain.size >= 25 and name in ("md", "hamming") and args.node_limit is None
            and args.time_limit is None):
        print(f"note: the {domain.name} with {name} may take hours or days "
              "(Korf & Felner solved these with "
              f"pattern databases); --node-limit or --time-limit stop it earlier",
              file=sys.stderr, flush=True)
    if args.algorithm == "batched":
        result = ida_star(domain, heuristic, start, node_limit=args.node_limit,
                          time_limit=args.time_limit,
                          order=args.order, progress=None if args.json else _iteration_line,
                          exact_counts=True)
    else:
        result = reference.ida_star(domain, heuristic, start, node_limit=args.node_limit,
                                    time_limit=args.time_limit)
    if args.json:
        record = {"domain": domain.name, "heuristic": name,
                  "algorithm": args.algorithm,
                  "order": args.order if args.algorithm == "batched" else None,
                  "weight": args.weight, "start": start.astype(int).tolist(), "optimal": optimal,
                  **result_json(result), "nodes_per_second": result.nodes_per_second}
        if network is not None:
            record.update(network=str(args.network), alpha=args.alpha)
        print(json.dumps(record))
    else:
        print(domain.format(start))
        if result.solved:
            print(f"plan ({result.cost} move{'' if result.cost == 1 else 's'}), "
                  "one state per line:")
            print("\n".join(cli.state_text(state) for state in result.plan))
        outcome = f"cost {result.cost}" if result.solved else f"not solved ({result.status})"
        known = f" (optimal {optimal})" if optimal is not None else ""
        print(f"{outcome}{known}  generated {result.generated:,}  expanded {result.expanded:,}  "
              f"iterations {result.iterations}  {result.seconds:.2f} s  "
              f"{result.nodes_per_second / 1e6:.2f} M nodes/s")
    return 0 if result.solved else 1


def check_ida_options(args) -> None:
    """Refuse the bounded searches' options with IDA*, and a weight that is not an integer."""
    for option, value in [("--floor", args.floor), ("--batch", args.batch),
                          ("--memory-limit", args.memory_limit)]:
        if value is not None:
            raise ValueError(f"{option} is an option of --search focal or wastar, not of IDA*")
    if args.weight != int(args.weight):
        raise ValueError(f"--weight {args.weight:g}: IDA*'s weight multiplies an integer "
                         f"heuristic: expected an integer 1..{WEIGHT_MAX:,} (a real W >= 1 goes "
                         f"with --search focal or wastar)")
    args.weight = int(args.weight)
    args.order = args.order or "depth-first"


def trained_network(args) -> tuple:
    """The --network's FFNN and its record of domain and encoding (None, None without --network),
    checked against --heuristic and --alpha; its PDBs are loaded later, once the task is known to be
    its domain's."""
    if args.network is None:
        if args.alpha is not None:
            raise ValueError("--alpha is the α of a trained network's y^α: give --network too")
        return None, None
    if args.heuristic is not None:
        raise ValueError(f"give either --heuristic or --network, not both "
                         f"(got --heuristic {args.heuristic})")
    from la.runs.network import load_network      # here: the networks load SciPy (see the top)
    from la.nn import FFNN
    network, about = load_network(args.network)
    if not isinstance(network, FFNN):
        raise ValueError(f"{args.network}: a {type(network).__name__} (task generation), "
                         "not a planning network")
    if args.alpha is not None and network.n_out != 2:
        raise ValueError(f"--alpha needs a two-output network (μ and σ_a); "
                         f"{args.network} predicts the mean "
                         f"only: leave --alpha out")
    return network, about


def heuristic_named(name: str, domain, pdb_folder=None):
    """The heuristic `name` for `domain`; PDBs are loaded from `pdb_folder` (built there if missing,
    with a progress line on stderr)."""
    if name == "pdb":
        from la.heuristics.pdb import pdb_heuristic
        return pdb_heuristic(domain, pdb_folder, BuildProgress())
    if name == "max-pdb":
        from la.heuristics.pdb import max_pdb_heuristic
        return max_pdb_heuristic(domain, pdb_folder, BuildProgress())
    if name == "exact":
        if isinstance(domain, Blocksworld):
            return optimal_cost
        from la.pdb.exact import h_star_table       # ValueError for a domain too large for one
        return h_star_table(domain, pdb_folder, BuildProgress())
    return make_heuristic(name, domain)


def _iteration_line(bound, nodes, total, seconds):
    print(f"iteration: bound {bound}  {nodes:,} nodes  ({total:,} in all, {seconds:.1f} s)",
          file=sys.stderr, flush=True)


def result_json(result) -> dict:
    """A `SearchResult` as plain JSON types; `plan` as a list of states, each a list of integers."""
    return {"solved": result.solved, "cost": result.cost,
            "plan": None if result.plan is None else result.plan.astype(int).tolist(),
            "generated": result.generated, "expanded": result.expanded,
            "iterations": result.iterations,
            "seconds": result.seconds, "status": result.status,
            "per_iteration": list(result.per_iteration), "bounds": list(result.bounds)}


if __name__ == "__main__":
    sys.exit(run(main))

