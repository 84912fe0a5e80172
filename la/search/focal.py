"""Focal search (Pearl & Kim 1982, A*_ε): a learned heuristic's guidance with a bound that always
holds.

OPEN is ordered by the admissible f = g + h_ad; FOCAL is the part of OPEN with f <= w · min f; the
next node is the one of FOCAL that the learned heuristic h_F (y^α or μ of `la`'s networks, or any
heuristic) likes best. Whatever h_F says, a plan of cost C returned with LB = min f satisfies
LB <= C* <= C <= w · LB, so C <= w · C*: the guarantee rests on h_ad alone, and α, calibration or a
network that overestimates add nothing to it and take nothing from it. The proof's idea
(`la.search.best_first`): with reopening, an optimal path always has a node on OPEN with its optimal
g, whose f <= C*, so min f <= C*; and only nodes with f <= w · min f are eligible, the goal's f
being its cost. h_ad must be admissible (never above h*); it need not be consistent.

Ties: among FOCAL, the smallest h_F first, then the smallest f, then the node pushed first (a node
pushed again when reopened counts from its new push). K nodes are taken and expanded at once (one
network call for all their children); K = 1 is the textbook algorithm, and equals
`la.search.bounded_reference.focal_search` node for node.
"""
from la.search.best_first import CertifiedResult, search, within


def focal_search(domain, h_ad, h_focal, start, weight: float, k: int = 1,
                 node_limit: int | None = None, memory_limit: int | None = None,
                 reopen: bool = True) -> CertifiedResult:
    """A*_ε: OPEN by f = g + h_ad, FOCAL = {f <= weight · min f} by h_focal (module docstring)."""
    if not weight >= 1:
        raise ValueError(f"the weight w of a bounded-suboptimal search is a number >= 1, "
                         f"got {weight}")
    return search(domain, start, h_ad, h_focal,
                  keys=lambda g, h, h_f: (h_f, g + h), bound=lambda lower: within(weight, lower),
                  weight=weight, k=k, node_limit=node_limit, memory_limit=memory_limit,
                  reopen=reopen)
