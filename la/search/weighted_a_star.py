"""Weighted A* (Pohl 1970): f_w = g + w · h_ad, the classic bounded-suboptimal search, with the
same certificate as focal search.

With an admissible h_ad and reopening, a goal taken from OPEN has cost C = f_w(goal) <= f_w(n) =
g(n) + w · h_ad(n) <= w · f(n) for every open node n, in particular for the one of smallest
f = g + h_ad, LB; so C <= w · LB <= w · C* (`la.search.best_first` for why LB <= C*).

Ties: the smallest f_w first, then the smallest h_ad (the node nearer the goal), then the node
pushed first. K nodes are taken and expanded at once; K = 1 equals
`la.search.bounded_reference.weighted_a_star` node for node.
"""
from la.search.best_first import CertifiedResult, search


def weighted_a_star(domain, h_ad, start, weight: float, k: int = 1,
                    node_limit: int | None = None, memory_limit: int | None = None,
                    reopen: bool = True) -> CertifiedResult:
    """Weighted A*: OPEN by g + weight · h_ad, with reopening (module docstring)."""
    if not weight >= 1:
        raise ValueError(f"the weight w of a bounded-suboptimal search is a number >= 1, "
                         f"got {weight}")
    return search(domain, start, h_ad, None,
                  keys=lambda g, h, h_f: (g + weight * h, h), bound=lambda lower: float("inf"),
                  weight=weight, k=k, node_limit=node_limit, memory_limit=memory_limit,
                  reopen=reopen)
