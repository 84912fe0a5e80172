"""The sliding-tile puzzle's two-dimensional one-hot, the 15-puzzle's network input (paper §5).

For every value v = 0..N-1 in increasing order, the blank (v = 0) included, the encoding has 2·W
bits: a one-hot of v's column (W bits) followed by a one-hot of v's row (W bits). For the 15-puzzle
(W = 4, N = 16) that is 16 · 8 = 128 inputs with exactly 32 ones.
"""
import numpy as np

from la.domains.sliding_tile import SlidingTile


def one_hot_size(width: int) -> int:
    """Number of inputs of the encoding for a width x width board."""
    return width * width * 2 * width


def one_hot_index(width: int, value, position):
    """Indices of the column bit and the row bit of `value` at `position` (arrays broadcast)."""
    # The bit layout, which the paper does not give, is the authors' `Representations/TwoDim.cs`.
    value = np.asarray(value, dtype=np.int64)
    position = np.asarray(position, dtype=np.int64)
    base = 2 * width * value
    return base + position % width, base + width + position // width


def one_hot_inputs(states: np.ndarray, width: int) -> np.ndarray:
    """Encode states (n, W·W), the tile at each position, as (n, 2·W³) float32 one-hot rows."""
    states = np.asarray(states)
    n, cells = states.shape
    if cells != width * width:
        raise ValueError(f"states have {cells} cells, expected {width * width} for width {width}")
    x = np.zeros((n, one_hot_size(width)), dtype=np.float32)
    rows = np.repeat(np.arange(n), cells)                      # (n·N,)
    positions = np.tile(np.arange(cells), n)                   # (n·N,)
    col_bit, row_bit = one_hot_index(width, states.reshape(-1), positions)
    x[rows, col_bit] = 1.0
    x[rows, row_bit] = 1.0
    return x


class OneHot:
    """The one-hot under the encoding contract (`la.features.base`). It has no admissible features:
    h_ad is None, and the planning floor is 0."""

    step_reads = ("x",)        # `step` flips eight bits of the parents' x

    def __init__(self, domain: SlidingTile):
        if not isinstance(domain, SlidingTile):
            raise ValueError(f"the one-hot encoding is for sliding-tile puzzles, "
                             f"not the {domain.name}")
        self.domain, self.width = domain, domain.width
        self.size = one_hot_size(domain.width)

    def __repr__(self):
        return f"OneHot({self.domain.name}, {self.size} inputs)"

    def __call__(self, states) -> np.ndarray:
        return one_hot_inputs(states, self.width)

    def admissible(self, states):
        return None             # floor 0, as the authors' `NNBayesHeuristic.H` without HArr

    def start(self, states):
        return self(states), None, None

    def step(self, states, x, h_ad, carry, parent, move):
        """A move slides a tile from cell t to the blank's cell b: four bits off, four on."""
        tile, t, b = self.domain.moved_tile(states, parent, move)
        x = np.take(x, parent, axis=0)                                            # (m, size)
        rows = np.arange(len(parent))
        W = self.width
        # Clear first: a bit that stays (same row or column) is set again below.
        for bit in (*one_hot_index(W, tile, t), *one_hot_index(W, 0, b)):
            x[rows, bit] = 0.0
        for bit in (*one_hot_index(W, tile, b), *one_hot_index(W, 0, t)):
            x[rows, bit] = 1.0
        return x, None, None
