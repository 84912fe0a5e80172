"""Benchmark: focal search with the learned 15-puzzle heuristic, K = 4,096 nodes a step against one
at a time (issue 57's speed targets: >= 1 M generated nodes/s batched and >= 20 times K = 1).

Korf's instance 1, FOCAL ordered by y^0.9 of the committed Table 1 α network (run 1) over OPEN by
Manhattan distance, w = 1.5, each search stopped by a node budget. Memory per node is the search's
arrays (`CertifiedResult.peak_bytes`: states, node fields, closed list and open list) divided by the
states stored.
"""
import resource

from la import data
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible
from la.runs.folder import ROOT
from la.runs.network import load_network, network_encoding
from la.search.focal import focal_search

NETWORK = ROOT / "figures" / "suboptimality-networks" / "run1" / "alpha" / "network.npz"
INSTANCE, WEIGHT, ALPHA = 1, 1.5, 0.9
K = 4096
NODE_LIMITS = {K: 3_000_000, 1: 20_000}            # K = 1 runs at a few thousand nodes a second
QUICK_NODE_LIMITS = {K: 50_000, 1: 1_000}
ROUNDS = 3                                         # K = 4,096 is timed in rounds: the median
TARGET_NODES_PER_SECOND, TARGET_RATIO = 1e6, 20


def run(rng=None, quick: bool = False) -> dict:
    """Both searches' nodes per second and bytes per node (no randomness: `rng` unused)."""
    domain = SlidingTile(4)
    network, about = load_network(NETWORK, domain)
    h_focal = LikelyAdmissible(network, network_encoding(about), ALPHA)
    start = next(i.state for i in data.korf100() if i.id == INSTANCE)
    rows = {}
    for k, limit in (QUICK_NODE_LIMITS if quick else NODE_LIMITS).items():
        rounds = [focal_search(domain, Manhattan(domain), h_focal, start, WEIGHT, k=k,
                               node_limit=limit) for _ in range(1 if quick or k == 1 else ROUNDS)]
        r = sorted(rounds, key=lambda r: r.nodes_per_second)[len(rounds) // 2]
        rows[f"k{k}"] = {"k": k, "node_limit": limit, "rounds": len(rounds), "status": r.status,
                         "cost": r.cost, "lower_bound": r.lower_bound, "generated": r.generated,
                         "stored": r.stored, "seconds": r.seconds,
                         "nodes_per_second": r.nodes_per_second, "peak_bytes": r.peak_bytes,
                         "bytes_per_node": r.peak_bytes / r.stored}
    return {"instance": INSTANCE, "weight": WEIGHT, "alpha": ALPHA,
            "network": str(NETWORK.relative_to(ROOT)), "quick": quick, **rows,
            "ratio": rows[f"k{K}"]["nodes_per_second"] / rows["k1"]["nodes_per_second"],
            "target_nodes_per_second": TARGET_NODES_PER_SECOND, "target_ratio": TARGET_RATIO,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def report(row: dict) -> list[str]:
    """Human-readable lines."""
    lines = [f"Focal search, Korf's 15-puzzle instance {row['instance']}, w = {row['weight']:g}: "
             f"FOCAL by y^{row['alpha']:g} of {row['network']}, OPEN by Manhattan distance"]
    for name, target in ((f"k{K}", f"(target >= {row['target_nodes_per_second'] / 1e6:.0f} M/s)"),
                         ("k1", "(the textbook search)")):
        r = row[name]
        lines.append(f"  K = {r['k']:<6}{r['generated']:>11,} nodes {r['seconds']:8.2f} s "
                     f"{r['nodes_per_second']:11,.0f} nodes/s  {r['bytes_per_node']:5.0f} "
                     f"bytes/node  {r['status']} (budget {r['node_limit']:,}; median of "
                     f"{r['rounds']})  {target}")
    lines.append(f"  K = {K} / K = 1: {row['ratio']:.0f}x (target >= {row['target_ratio']}x);  "
                 f"peak memory of this process so far: {row['max_rss_mb']:.0f} MB")
    return lines
