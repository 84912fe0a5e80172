"""`python -m la.solve --search focal|wastar`: one task by a bounded-suboptimal search, with its
certificate: a plan of cost C, a lower bound LB <= C* and the ratio C / LB <= W.

Focal search (`la.search.focal`) orders OPEN by f = g + h_floor and takes the next node from FOCAL
(f <= W · min f) by a second heuristic: a network's y^α (`--alpha`) or mean μ (`--network`), or
one named by `--heuristic`, admissible or not. Weighted A* (`la.search.weighted_a_star`) orders
OPEN by g + W · h_floor and needs no second heuristic. The bound rests on the floor alone, so the
floor must be admissible on the task's domain (`ADMISSIBLE`); every option is checked before a
pattern database is loaded or built and before the search starts.
"""
import json

from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import CLASSICAL, make_heuristic
from la.runs import cli
from la.runs.progress import BuildProgress
from la.search import bounded_reference
from la.search.focal import focal_search
from la.search.weighted_a_star import weighted_a_star
from la.solve import BATCH, DEFAULT_HEURISTIC, HEURISTICS, heuristic_named

# The heuristics `la.solve` names that never overestimate on each kind of domain: Hamming counts
# items out of place and a move changes one tile or block, but one flip can put many pancakes in
# place; the PDB sums and maxima and the exact tables are admissible by construction.
ADMISSIBLE = {SlidingTile: ("md", "hamming", "pdb", "max-pdb", "exact"),
              Pancake: ("gap", "pdb", "max-pdb", "exact"),
              Blocksworld: ("hamming", "max-pdb", "exact")}


def check_options(args) -> None:
    """Refuse, in one line, options that make no sense with the chosen bounded search."""
    focal = args.search == "focal"
    reference = args.algorithm == "reference"
    refused = [("--order", args.order is not None,
                "IDA*'s goal order (these searches take their goal from OPEN)"),
               ("--time-limit", args.time_limit is not None,
                "IDA*'s (these searches stop by --node-limit and --memory-limit)"),
               ("--network", args.network is not None and not focal,
                "focal search's (weighted A* orders OPEN by the floor alone)"),
               ("--heuristic", args.heuristic is not None and not focal,
                "focal search's (weighted A* orders OPEN by the floor alone)"),
               ("--memory-limit", args.memory_limit is not None and reference,
                "the batched search's (the reference keeps Python dicts)"),
               ("--batch", args.batch not in (None, 1) and reference,
                "the batched search's (the reference takes one node at a time)")]
    for option, given, whose in refused:
        if given:
            raise ValueError(f"{option} is not an option of --search {args.search}"
                             f"{' --algorithm reference' if reference else ''}: it is {whose}")
    if args.floor is not None and args.floor not in HEURISTICS:
        raise ValueError(f"--floor {cli.shown(args.floor)} is not the name of an admissible "
                         f"heuristic: one of {', '.join(HEURISTICS)} (a network is likely "
                         f"admissible, never certainly: give it as --network, to order FOCAL)")
    if focal and args.network is None and args.heuristic is None:
        raise ValueError("--search focal orders FOCAL by a second heuristic: give --network PATH "
                         "(with --alpha A for y^α) or --heuristic NAME")


def floor_name(args, domain) -> str:
    """The admissible floor's name: --floor, else the domain's default heuristic; refused unless it
    is admissible on `domain` and `la` has it there."""
    name = args.floor or DEFAULT_HEURISTIC.get(type(domain), "md")
    admissible = next(names for kind, names in ADMISSIBLE.items() if isinstance(domain, kind))
    if name not in admissible:
        raise ValueError(f"--floor {name} is not an admissible heuristic on the {domain.name} "
                         f"(admissible there: {', '.join(admissible)})")
    check_available(name, domain)
    return name


def check_available(name: str, domain) -> None:
    """Refuse a heuristic `domain` lacks before any pattern database is loaded or built (each
    call below raises its one-line refusal without loading anything)."""
    if name in CLASSICAL:
        make_heuristic(name, domain)
    elif name == "pdb":
        from la.heuristics.pdb import pdb_heuristic
        from la.pdb.sets import PARTITIONS
        if domain.name not in PARTITIONS or isinstance(domain, Blocksworld):
            pdb_heuristic(domain)
    elif name == "max-pdb":
        from la.features.encodings import PAPER_FEATURES
        from la.heuristics.pdb import max_pdb_heuristic
        if domain.name not in PAPER_FEATURES:
            max_pdb_heuristic(domain)
    elif name == "exact" and not isinstance(domain, Blocksworld):
        from la.pdb.exact import ExactTable
        ExactTable(domain)


def solve(args, domain, start, optimal, network, about) -> int:
    """Check the floor and the focal heuristic, load them, search, print; the exit status."""
    floor = floor_name(args, domain)
    if args.heuristic is not None:
        check_available(args.heuristic, domain)
    if network is not None:
        from la.runs.network import check_domain
        check_domain(about, domain, args.network)
    h_floor = heuristic_named(floor, domain, args.pdb_dir)
    h_focal, focal_name = None, None
    if network is not None:
        from la.heuristics.likely_admissible import LikelyAdmissible
        from la.runs.network import network_encoding
        encoding = network_encoding(about, args.pdb_dir, BuildProgress(), args.network)
        h_focal, focal_name = LikelyAdmissible(network, encoding, args.alpha), "network"
    elif args.heuristic is not None:
        focal_name = args.heuristic
        h_focal = (h_floor if args.heuristic == floor
                   else heuristic_named(args.heuristic, domain, args.pdb_dir))
    result = search(args, domain, start, h_floor, h_focal)
    if args.json:
        record = {"domain": domain.name, "search": args.search, "algorithm": args.algorithm,
                  "floor": floor, "heuristic": focal_name, "weight": args.weight,
                  "batch": batch(args), "start": start.astype(int).tolist(), "optimal": optimal,
                  **result_json(result), "nodes_per_second": result.nodes_per_second}
        if network is not None:
            record.update(network=str(args.network), alpha=args.alpha)
        print(json.dumps(record))
    else:
        print("\n".join(report(domain, start, optimal, result)))
    return 0 if result.solved else 1


def batch(args) -> int:
    """K, the nodes expanded per step."""
    return 1 if args.algorithm == "reference" else (args.batch or BATCH)


def search(args, domain, start, h_floor, h_focal):
    """The chosen search's `CertifiedResult`."""
    if args.algorithm == "reference":
        if args.search == "focal":
            return bounded_reference.focal_search(domain, h_floor, h_focal, start, args.weight,
                                                  node_limit=args.node_limit)
        return bounded_reference.weighted_a_star(domain, h_floor, start, args.weight,
                                                 node_limit=args.node_limit)
    limits = {"k": batch(args), "node_limit": args.node_limit, "memory_limit": args.memory_limit}
    if args.search == "focal":
        return focal_search(domain, h_floor, h_focal, start, args.weight, **limits)
    return weighted_a_star(domain, h_floor, start, args.weight, **limits)


def report(domain, start, optimal, result) -> list:
    """The human-readable output: the start, the plan, the certificate and the counts."""
    lines = [domain.format(start)]
    if result.solved:
        lines += [f"plan ({result.cost} move{'' if result.cost == 1 else 's'}), "
                  "one state per line:", *map(cli.state_text, result.plan)]
    known = f" (optimal {optimal})" if optimal is not None else ""
    if result.solved:
        lines.append(f"cost {result.cost}{known}  lower bound {result.lower_bound}  "
                     f"certified ratio {result.certified_ratio:.4f} <= {result.weight:g}")
    else:
        bound = ("" if result.lower_bound is None
                 else f"  lower bound {result.lower_bound} (the optimal cost is at least that)")
        lines.append(f"not solved ({result.status}){known}{bound}")
    lines.append(f"generated {result.generated:,}  expanded {result.expanded:,}  "
                 f"reopened {result.reopened:,}  stored {result.stored:,}  "
                 f"{result.peak_bytes / 1e6:.1f} MB  {result.seconds:.2f} s  "
                 f"{result.nodes_per_second / 1e6:.2f} M nodes/s")
    return lines


def result_json(result) -> dict:
    """A `CertifiedResult` as plain JSON types; `plan` as a list of states."""
    return {"solved": result.solved, "cost": result.cost,
            "plan": None if result.plan is None else result.plan.astype(int).tolist(),
            "lower_bound": result.lower_bound, "certified_ratio": result.certified_ratio,
            "generated": result.generated, "expanded": result.expanded,
            "reopened": result.reopened, "stored": result.stored,
            "peak_bytes": result.peak_bytes, "seconds": result.seconds, "status": result.status}
