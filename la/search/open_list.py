"""The open list of the batched best-first searches: entries taken in (p1, p2, first-in-first-out)
order, a batch at a time, optionally only those with p2 <= a bound.

An entry is a node id with the g it had when pushed. Entries are kept in buckets, one per distinct
key (p1, p2), each a queue of NumPy chunks in push order; a sorted list of the p1 values and, per
p1, a heap of its p2 values find the next bucket. Pushing a batch groups it by key (one sort);
Python touches a bucket, never a node. A node whose g has dropped since (a cheaper path was found)
or that was expanded meanwhile leaves a stale entry behind: the search's `valid` says which, and
stale entries are dropped when reached (lazy deletion), as in Fast Downward's open lists.

Focal search takes p1 = the learned heuristic h_F, p2 = f = g + h_ad and the bound w · min f;
weighted A* takes p1 = g + w · h_ad, p2 = h_ad and no bound.
"""
import bisect
import heapq
from collections import deque

import numpy as np


class OpenList:
    """Entries (id, g) under keys (p1, p2)."""

    def __init__(self):
        self.p1 = []              # sorted distinct p1 values that have entries
        self.p2 = {}              # p1 -> heap of its p2 values that have entries
        self.queue = {}           # (p1, p2) -> deque of (ids, g) chunks, in push order
        self.entries = 0          # entries held, stale ones included (memory)

    def push(self, p1: np.ndarray, p2: np.ndarray, ids: np.ndarray, g: np.ndarray) -> None:
        """Add entries; those with equal keys keep their order."""
        if not len(ids):
            return
        order = np.lexsort((np.arange(len(ids)), p2, p1))
        p1, p2, ids, g = p1[order], p2[order], ids[order], g[order]
        cut = np.flatnonzero((p1[1:] != p1[:-1]) | (p2[1:] != p2[:-1])) + 1
        for lo, hi in zip([0, *cut.tolist()], [*cut.tolist(), len(ids)]):
            a, b = p1[lo].item(), p2[lo].item()
            chunks = self.queue.get((a, b))
            if chunks is None:
                chunks = self.queue[(a, b)] = deque()
                if a not in self.p2:
                    bisect.insort(self.p1, a)
                    self.p2[a] = []
                heapq.heappush(self.p2[a], b)
            chunks.append((ids[lo:hi], g[lo:hi]))
        self.entries += len(ids)

    def take(self, k: int, bound, valid) -> np.ndarray:
        """Up to k ids of valid entries with p2 <= bound, in (p1, p2, push) order; the entries
        taken and the stale ones met on the way are removed. `valid(ids, g)` -> bool mask."""
        taken, need, i = [], k, 0
        while need and i < len(self.p1):
            a = self.p1[i]
            heap = self.p2[a]
            while need and heap and heap[0] <= bound:
                b = heap[0]
                chunks = self.queue[(a, b)]
                while need and chunks:
                    ids, g = chunks.popleft()
                    good = np.flatnonzero(valid(ids, g))
                    if len(good) > need:                  # the rest stays, in order, for later
                        chunks.appendleft((ids[good[need]:], g[good[need]:]))
                        self.entries -= good[need]
                        good = good[:need]
                    else:
                        self.entries -= len(ids)
                    taken.append(ids[good])
                    need -= len(good)
                if not chunks:
                    del self.queue[(a, b)]
                    heapq.heappop(heap)
            if heap:
                i += 1
            else:
                del self.p2[a]
                self.p1.pop(i)
        return np.concatenate(taken) if taken else np.zeros(0, np.int64)
