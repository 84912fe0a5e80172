"""The searches of the paper: IDA* (Korf 1985), the batched search used everywhere (`ida_star`, in
the authors' depth-first order) and the plain one-node one (`reference`); exact distances for small
domains (`bfs`).

The batched ("shallowest goal") order, kept to compare, is `la.search.shallowest`; Heller et al.
(2022)'s greedy best-first and dual-queue searches are in `la.heller`.
"""
from la.search import reference
from la.search.ida_star import ida_star
from la.search.result import SearchResult, check_plan

__all__ = ["ida_star", "reference", "SearchResult", "check_plan"]
