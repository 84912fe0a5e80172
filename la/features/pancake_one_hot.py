"""A one-hot of a pancake stack: the input of the networks on the small stacks of the ground-truth
experiment (9 and 10 pancakes), where every state's h* is known (`la.pdb.exact`).

Not in the paper, which gives its 24-pancake PDB features (§5, `la.features.pancake`); on a stack
small enough for an exact table the one-hot is the natural input, as the 15-puzzle's one-hot is for
its board: it hides nothing, so whatever the network gets wrong is the method's, not the
features'. For every height p = 0..N-1 from the top, N bits: a one-hot of the pancake at p, so
x[p·N + state[p]] = 1; N² inputs (100 for the 10-pancake) with exactly N ones. There is no
admissible feature: h_ad is None and the planning floor is 0, as with the sliding tiles' one-hot.
"""
import numpy as np

from la.domains.pancake import Pancake


def pancake_one_hot_inputs(states: np.ndarray, n: int) -> np.ndarray:
    """Encode stacks (m, N) as (m, N·N) float32 rows, x[p·N + state[p]] = 1."""
    states = np.asarray(states)
    if states.ndim != 2 or states.shape[1] != n:
        raise ValueError(f"expected stacks of {n} pancakes, rows of {n} numbers; got an array of "
                         f"shape {states.shape}")
    x = np.zeros((len(states), n * n), dtype=np.float32)
    bits = np.arange(n) * n + states.astype(np.int64)                            # (m, N)
    np.put_along_axis(x, bits, 1.0, axis=1)
    return x


class PancakeOneHot:
    """The pancake one-hot under the encoding contract (`la.features.base`); h_ad is None."""

    step_reads = ()            # a flip moves up to N pancakes: `step` encodes the children afresh

    def __init__(self, domain: Pancake):
        if not isinstance(domain, Pancake):
            raise ValueError(f"the pancake one-hot is for pancake puzzles, not the {domain.name}")
        self.domain, self.size = domain, domain.size * domain.size

    def __repr__(self):
        return f"PancakeOneHot({self.domain.name}, {self.size} inputs)"

    def __call__(self, states) -> np.ndarray:
        return pancake_one_hot_inputs(states, self.domain.size)

    def admissible(self, states):
        return None                                                   # floor 0, as the one-hot's

    def start(self, states):
        return self(states), None, None

    def step(self, states, x, h_ad, carry, parent, move):
        return self(self.domain.apply(states, parent, move)), None, None
