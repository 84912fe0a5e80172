"""Blocksworld states drawn uniformly at random: Slaney & Thiébaux's counting of floating and rooted
towers.

J. Slaney and S. Thiébaux, "Blocks World revisited", Artificial Intelligence 125 (2001), and their
program `bwstates` (function `make_state`). A state is built by placing towers: at the start every
block is a *floating* tower of its own; one floating tower at a time is put either onto the table
(it becomes *rooted*) or on top of one of the other towers, floating or rooted (the two merge). Let
g(n, k) be the number of states that can be completed from a part-state with n floating and k rooted
towers. Placing one of n + 1 floating towers leaves n floating towers, and k + 1 rooted ones if it
went onto the table, k otherwise:

    g(0, k) = 1,        g(n + 1, k) = (n + k) · g(n, k) + g(n, k + 1).

Every state arises from exactly one sequence of placements (which tower is placed next is fixed;
where it goes is read off the finished state: its bottom block's support, which is then the top of
another tower or the table), so drawing the table with weight g(n, k + 1) and each of the n + k
other towers with weight g(n, k) gives every one of the g(N, 0) states the same probability: each
choice has probability g(after)/g(before), and along a sequence these multiply out to g(0, k)/g(N,
0) = 1/g(N, 0). g(N, 0) is OEIS A000262: 1, 3, 13, 73, 501, 4051, ... It passes 2^53 at N = 17,
beyond which doubles no longer hold it exactly, and 2^64 at N = 20, so the counts here are Python
integers and each draw is an exact uniform integer below g (`bwstates` draws with floating-point
probabilities derived from such counts, exact only up to rounding).
"""
import numpy as np

from la.domains.domain import STATE_MAX


def completions(N: int) -> list[list[int]]:
    """The table g[n][k] of the recurrence above for n + k <= N, exact Python integers."""
    if N < 0:
        raise ValueError(f"a number of blocks cannot be negative, got {N}")
    g = [[1] * (N + 1)]                                        # g(0, k) = 1
    for n in range(N):
        g.append([g[n][k] * (n + k) + g[n][k + 1] for k in range(N - n)])
    return g


def number_of_states(N: int) -> int:
    """How many states N blocks have: g(N, 0)."""
    return completions(N)[N][0]


def uniform_below(total: int, rng: np.random.Generator) -> int:
    """An exact uniform integer in [0, total), for any size of `total`.

    `rng.integers` stops at 64 bits, so this draws whole random bytes, keeps as many bits as `total
    - 1` has and starts again when the number is >= total (rejection: each try succeeds with
    probability > 1/2).
    """
    if total < 1:
        raise ValueError(f"cannot draw below {total}: expected a positive count")
    bits = (total - 1).bit_length()
    while True:
        x = int.from_bytes(rng.bytes((bits + 7) // 8), "little") >> (-bits % 8)
        if x < total:
            return x


def _check_size(N: int) -> None:
    if not 1 <= N <= STATE_MAX:
        raise ValueError(f"a blocksworld state has 1..{STATE_MAX} blocks, got {N}")


def uniform_state(N: int, rng: np.random.Generator, g: list[list[int]] | None = None) -> np.ndarray:
    """One state of N blocks, each of the g(N, 0) states with the same probability, (N,) uint8."""
    _check_size(N)
    g = completions(N) if g is None else g
    if len(g) != N + 1:
        raise ValueError(f"the table of counts is for {len(g) - 1} blocks, not {N}: "
                         f"pass completions({N})")
    floating = [[b] for b in range(1, N + 1)]             # towers, each listed bottom to top
    rooted = []
    while floating:
        tower = floating.pop()                            # the tower to place next: always the last
        n, k = len(floating), len(rooted)
        r = uniform_below(g[n + 1][k], rng)
        if r < g[n][k + 1]:
            rooted.append(tower)                          # onto the table
        else:
            others = floating + rooted                    # n + k towers, each of weight g(n, k)
            others[(r - g[n][k + 1]) // g[n][k]].extend(tower)
    state = np.zeros(N, dtype=np.uint8)
    for tower in rooted:
        for below, above in zip(tower, tower[1:]):
            state[above - 1] = below
    return state


def uniform_states(N: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` independent uniform states of N blocks, (count, N) uint8."""
    _check_size(N)
    if count < 0:
        raise ValueError(f"cannot draw a negative number of states, got {count}")
    g = completions(N)
    return np.array([uniform_state(N, rng, g) for _ in range(count)],
                    dtype=np.uint8).reshape(count, N)
