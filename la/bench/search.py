"""Benchmark: IDA* with Manhattan distance on Korf's 15-puzzle instances, both batched orders
against the reference."""
import resource

from la import data
from la.bench import speed, speed_line
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import Manhattan
from la.search import ida_star, reference
from la.search.ida_star import ORDERS

INSTANCES = (2, 5, 6, 8, 16, 20, 23, 28, 45, 61)    # 6–40 M nodes each with MD: long enough to time
QUICK_INSTANCES = (28, 45, 61)
REFERENCE_NODES = 300_000                           # the reference is timed on the first nodes of
                                                    # each


def run(rng=None, quick: bool = False) -> dict:
    """Nodes per second of both IDA* versions on the same instances, and their ratio (no randomness:
    `rng` unused)."""
    domain = SlidingTile(4)
    h = Manhattan(domain)
    ids = QUICK_INSTANCES if quick else INSTANCES
    instances = [i for i in data.korf100() if i.id in ids]
    runs = {}
    for order in ORDERS:
        runs[order] = [ida_star(domain, h, i.state, order=order) for i in instances]
        wrong = [i.id for i, r in zip(instances, runs[order]) if r.cost != i.optimal]
        if wrong:
            raise RuntimeError(f"IDA* in {order} order missed the optimal cost "
                               f"on instances {wrong}")
    runs["reference"] = [reference.ida_star(domain, h, i.state, node_limit=REFERENCE_NODES)
                         for i in instances]
    row = {name: speed(results) for name, results in runs.items()}
    return {"instances": list(ids), "reference_node_limit": REFERENCE_NODES, **row,
            "ratio": row["depth-first"]["nodes_per_second"] / row["reference"]["nodes_per_second"],
            "target_nodes_per_second": 10e6,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def report(row: dict) -> list[str]:
    """Human-readable lines."""
    lines = [f"IDA* + Manhattan distance, Korf's 15-puzzle instances "
             f"{', '.join(map(str, row['instances']))}"]
    for name in ORDERS:
        lines.append(speed_line(name, row[name],
                                f"(target >= {row['target_nodes_per_second'] / 1e6:.0f} M/s; "
                                f"every instance solved optimally)"))
    lines += [speed_line("reference", row["reference"],
                         f"(the first {row['reference_node_limit']:,} nodes of each instance)"),
              f"  depth-first / reference: {row['ratio']:.0f}x;  "
              "peak memory of this process so far: "
              f"{row['max_rss_mb']:.0f} MB"]
    return lines
