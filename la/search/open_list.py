"""The open list of the batched best-first searches: entries taken in (p1, p2, first-in-first-out)
order, a batch at a time, optionally only those with p2 <= a bound.

An entry is a node id with the g it had when pushed. Entries are kept in buckets, one per distinct
key (p1, p2), each a queue of NumPy chunks in push order; a sorted list of the p1 values and, per
p1, a heap of its p2 values find the next bucket. Pushing a batch groups it by key (one sort);
Python touches a bucket, never a node. A node whose g has dropped since (a cheaper path was found)
or that was expanded meanwhile leaves a stale entry behind: the search's `valid` says which, and
stale entries are dropped when reached (lazy deletion), as in Fast Downward's open lists. A take
checks the front entries of as many buckets as hold K entries with one call of `valid`.

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
        self.queue = {}           # (p1, p2) -> deque of (2, n) chunks (ids; g), in push order
        self.entries = 0          # entries held, stale ones included (memory)

    def push(self, p1: np.ndarray, p2: np.ndarray, ids: np.ndarray, g: np.ndarray) -> None:
        """Add entries; those with equal keys keep their order."""
        if not len(ids):
            return
        order = np.lexsort((p2, p1))                       # stable: equal keys keep their order
        p1, p2 = p1[order], p2[order]
        entries = np.stack([ids[order], g[order]])         # (2, n): id and g, one slice per bucket
        cut = np.flatnonzero((p1[1:] != p1[:-1]) | (p2[1:] != p2[:-1])) + 1
        bounds = [0, *cut.tolist(), len(ids)]
        starts = bounds[:-1]
        for a, b, lo, hi in zip(p1[starts].tolist(), p2[starts].tolist(), starts, bounds[1:]):
            self._bucket(a, b).append(entries[:, lo:hi])
        self.entries += len(ids)

    def _bucket(self, a, b) -> deque:
        """The queue of key (a, b), made if there is none."""
        chunks = self.queue.get((a, b))
        if chunks is None:
            chunks = self.queue[(a, b)] = deque()
            if a not in self.p2:
                bisect.insort(self.p1, a)
                self.p2[a] = []
            heapq.heappush(self.p2[a], b)
        return chunks

    def take(self, k: int, bound, valid) -> np.ndarray:
        """Up to k ids of valid entries with p2 <= bound, in (p1, p2, push) order; the entries
        taken and the stale ones met on the way are removed. `valid(ids, g)` -> bool mask.

        The entries are checked a batch at a time: as many from the front as it takes to hold k
        (one call of `valid` for many buckets), and again while stale ones leave fewer than k."""
        taken, need = [], k
        while need:
            front = self._pop_front(need, bound)
            if not front:
                break
            ids, g = np.concatenate([chunk for _, _, chunk in front], axis=1)
            good = np.flatnonzero(valid(ids, g))
            used = len(ids)
            if len(good) > need:                  # the rest goes back, in order, for later
                used = int(good[need])
                good = good[:need]
                self._put_back(front, used)
            self.entries -= used
            taken.append(ids[good])
            need -= len(good)
        return np.concatenate(taken) if taken else np.zeros(0, np.int64)

    def _pop_front(self, wanted: int, bound) -> list:
        """Remove chunks from the front, in key order, until they hold `wanted` entries or no
        bucket with p2 <= bound is left: [(p1, p2, chunk), ...]."""
        front, held, i = [], 0, 0
        while held < wanted and i < len(self.p1):
            a = self.p1[i]
            heap = self.p2[a]
            while held < wanted and heap and heap[0] <= bound:
                b = heap[0]
                chunks = self.queue[(a, b)]
                while held < wanted and chunks:
                    front.append((a, b, chunks.popleft()))
                    held += front[-1][2].shape[1]
                if not chunks:
                    del self.queue[(a, b)]
                    heapq.heappop(heap)
            if heap:
                i += 1
            else:
                del self.p2[a]
                self.p1.pop(i)
        return front

    def _put_back(self, front: list, used: int) -> None:
        """Return the entries of `front` from position `used` on to the fronts of their buckets."""
        rest, start = [], 0
        for a, b, chunk in front:
            end = start + chunk.shape[1]
            if end > used:
                rest.append((a, b, chunk[:, max(used - start, 0):]))
            start = end
        for a, b, chunk in reversed(rest):
            self._bucket(a, b).appendleft(chunk)
