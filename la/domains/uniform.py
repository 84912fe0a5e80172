"""States drawn uniformly from a domain's solvable states: how the test tasks are drawn (Korf's 100
and Korf & Felner's 50 are random solvable boards, the 24-pancake's stacks random permutations, the
15-blocksworld's states uniform in Slaney & Thiébaux's sense), so a set drawn here looks like the
test tasks.

A sliding-tile board is a random permutation; half of all permutations are unsolvable (Johnson &
Story 1879), and swapping tiles 1 and 2 turns each unsolvable board into a solvable one and back, so
a board that comes out unsolvable has those two tiles swapped: every solvable board stays equally
likely.
"""
import numpy as np

from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_uniform import uniform_states as uniform_blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile, permutation_parity


def uniform_states(domain, n: int, rng: np.random.Generator) -> np.ndarray:
    """n states (n, N) uint8, each drawn uniformly from the solvable states of `domain`."""
    if n < 0:
        raise ValueError(f"expected a number of states >= 0, got {n}")
    if isinstance(domain, Blocksworld):
        return uniform_blocksworld(domain.size, n, rng)
    if not isinstance(domain, (SlidingTile, Pancake)):
        raise ValueError(f"no uniform states for the {domain.name}: expected a sliding-tile "
                         f"puzzle, a pancake puzzle or blocksworld")
    states = rng.permuted(np.tile(np.arange(domain.size, dtype=np.uint8), (n, 1)), axis=1)  # (n, N)
    if isinstance(domain, SlidingTile):
        for state in states:
            blank = int(np.flatnonzero(state == 0)[0])
            # unsolvable: swap tiles 1 and 2
            if permutation_parity(state) != (domain.row[blank] + domain.col[blank]) % 2:
                one, two = np.flatnonzero(state == 1)[0], np.flatnonzero(state == 2)[0]
                state[one], state[two] = 2, 1
    return states
