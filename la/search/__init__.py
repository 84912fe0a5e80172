"""The searches.

IDA* (Korf 1985): the batched search used everywhere (`ida_star`) and the plain recursive one (`reference`).
Greedy best-first search and the dual-queue search of Röger & Helmert (2010), one expansion at a time as in
Heller et al. (2022) (`gbfs`, `dual_queue`), la's batched variants of both (`batched_gbfs`,
`batched_dual_queue`), and Heller et al.'s confidence thresholds (`MeanThreshold`, `AdaptiveThreshold`).
"""
from la.search import reference
from la.search.batched_best_first import batched_dual_queue, batched_gbfs
from la.search.confidence import AdaptiveThreshold, MeanThreshold
from la.search.dual_queue import dual_queue
from la.search.greedy import gbfs
from la.search.ida_star import ida_star
from la.search.result import SearchResult, check_plan

__all__ = ["ida_star", "reference", "SearchResult", "check_plan", "gbfs", "dual_queue", "batched_gbfs",
           "batched_dual_queue", "MeanThreshold", "AdaptiveThreshold"]
