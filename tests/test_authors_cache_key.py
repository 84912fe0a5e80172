"""The authors' heuristic-cache key on the 15-blocksworld cannot hand the goal another state's h.

Their IDA* caches h per state under `GetHashCodeLong` = sum_i Arr[i] * 15^(14 - i) (the authors'
`SearchDomain` and `IDAStar.cs`), where Arr[b - 1] is the block under block b, 0 to 15: a digit 15
lets two states share a key. figures/README.md ("Why the paper's rows α ≤ 0.5 can exist") rests on
the goal's key having one preimage only; these tests count the preimages exactly.
"""
from functools import lru_cache

import numpy as np

from la.domains.blocksworld import Blocksworld

N = 15                                   # blocks; supports 0 (the table) .. 15


def key(support) -> int:
    """The authors' key: sum_i support[i] * 15^(N - 1 - i), exact (it does not reach 2^63 here)."""
    return sum(int(s) * 15 ** (N - 1 - i) for i, s in enumerate(support))


def preimages(value: int) -> int:
    """The number of strings of N digits 0..15 whose key is `value` (from the lowest digit up)."""
    @lru_cache(maxsize=None)
    def count(rest: int, digits: int) -> int:
        if digits == 0:
            return int(rest == 0)
        low = rest % 15
        options = [low] + ([15] if low == 0 and rest >= 15 else [])
        return sum(count((rest - d) // 15, digits - 1) for d in options)
    return count(value, N)


def test_the_goals_key_has_one_preimage():
    goal = Blocksworld(N).goal                       # block b on block b - 1, block 1 on the table
    support = np.asarray(goal)
    assert list(support) == list(range(N)) and key(support) < 2 ** 63
    assert preimages(key(support)) == 1


def test_a_state_with_a_zero_after_a_nonzero_digit_shares_its_key():
    # the probe: block 1 on block 3 and block 2 on the table, an (a + 1, 0) pair, shares its key
    # with the digits (a, 15): the count can exceed 1
    support = [3, 0] + list(range(2, N))
    other = [2, 15] + list(range(2, N))
    assert key(support) == key(other) and preimages(key(support)) >= 2
