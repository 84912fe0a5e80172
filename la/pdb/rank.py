"""Perfect ranks of partial permutations: where k pattern items sit among n places, as one integer.

The abstract state of a sliding-tile or pancake pattern is the list of places of its k items (tile i
of the pattern on cell `cells[i]`, pancake i at height `cells[i]`): k distinct numbers out of
0..n-1, in the pattern's order. There are n!/(n-k)! such lists; `rank` numbers them 0, 1, ... in
lexicographic order, so a table of that many entries holds one value per abstract state with no
holes (the base-n key Σ cells[i]·n^(k-1-i) leaves holes: 25^5 = 9,765,625 slots for 6,375,600
placements).

Lexicographic rank, as in any combinatorics text: item i has n - i places left once items 0..i-1
are placed; its *digit* is the number of free places below its own, and the digits are a
mixed-radix number

    rank = Σ_i digit_i · (n-1-i)!/(n-k)!,    digit_i = cells[i] − #{j < i : cells[j] < cells[i]}.
"""
import math

import numpy as np


def count(n: int, k: int) -> int:
    """The number of ways to place k distinct items on n places: n!/(n-k)!."""
    return math.perm(n, k)


def weights(n: int, k: int) -> np.ndarray:
    """The place value of each digit, (k,): (n-1-i)!/(n-k)!."""
    return np.array([math.perm(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)


def rank(cells: np.ndarray, n: int) -> np.ndarray:
    """The lexicographic rank of each row of `cells` (m, k), distinct places 0..n-1 a row, (m,)."""
    # The authors' `Heuristics/PDBBaseHeuristic.cs` keys a hash map by the base-n key instead.
    return rank_columns(np.asarray(cells).T, n)


def rank_columns(columns, n: int) -> np.ndarray:
    """`rank` of placements given as k columns of m places each (an array (k, m), or k arrays).

    Ranks are int32 when all of them fit (halving the searches' memory traffic), else int64."""
    k = len(columns)
    dtype = np.int32 if count(n, k) < 2**31 else np.int64
    place = weights(n, k).astype(dtype)
    total = np.zeros(len(columns[0]), dtype=dtype)
    for i in range(k):
        digit = columns[i].astype(dtype)
        for j in range(i):
            digit -= columns[j] < columns[i]
        total += digit * place[i]
    return total


def unrank(ranks: np.ndarray, n: int, k: int) -> np.ndarray:
    """The places (m, k) uint8 of each rank: the inverse of `rank`."""
    rest = np.asarray(ranks, dtype=np.int64)
    cells = np.empty((len(rest), k), dtype=np.int64)
    for i, place in enumerate(weights(n, k)):
        cells[:, i], rest = np.divmod(rest, place)
    # A digit counts free places only: step over each earlier item at or below it, in order.
    for i in range(1, k):
        earlier = np.sort(cells[:, :i], axis=1)
        for j in range(i):
            cells[:, i] += earlier[:, j] <= cells[:, i]
    return cells.astype(np.uint8)
