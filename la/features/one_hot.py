"""The sliding-tile puzzle's two-dimensional one-hot, the 15-puzzle's network input (paper §5).

For every value v = 0..N-1 in increasing order, the blank (v = 0) included, the encoding has 2·W
bits: a one-hot of v's column (W bits) followed by a one-hot of v's row (W bits). For the 15-puzzle
(W = 4, N = 16) that is 16 · 8 = 128 inputs with exactly 32 ones. A rectangular board of H rows and
W columns has W + H bits per value: the 2x5 puzzle, 10 · 7 = 70 inputs.
"""
import numpy as np

from la.domains.sliding_tile import SlidingTile


def one_hot_size(width: int, height: int | None = None) -> int:
    """Number of inputs of the encoding for a board of `height` (default: `width`) rows."""
    height = width if height is None else height
    return width * height * (width + height)


def one_hot_index(width: int, value, position, height: int | None = None):
    """Indices of the column bit and the row bit of `value` at `position` (arrays broadcast)."""
    # The bit layout, which the paper does not give, is the authors' `Representations/TwoDim.cs`.
    height = width if height is None else height
    value = np.asarray(value, dtype=np.int64)
    position = np.asarray(position, dtype=np.int64)
    base = (width + height) * value
    return base + position % width, base + width + position // width


def one_hot_inputs(states: np.ndarray, width: int, height: int | None = None) -> np.ndarray:
    """Encode states (n, H·W), the tile at each position, as (n, H·W·(W+H)) float32 one-hot rows
    (the 15-puzzle's: (n, 2·W³))."""
    height = width if height is None else height
    states = np.asarray(states)
    n, cells = states.shape
    if cells != width * height:
        raise ValueError(f"states have {cells} cells, expected {width * height} for a "
                         f"{height}x{width} board")
    x = np.zeros((n, one_hot_size(width, height)), dtype=np.float32)
    rows = np.repeat(np.arange(n), cells)                      # (n·N,)
    positions = np.tile(np.arange(cells), n)                   # (n·N,)
    col_bit, row_bit = one_hot_index(width, states.reshape(-1), positions, height)
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
        self.domain, self.width, self.height = domain, domain.width, domain.height
        self.size = one_hot_size(domain.width, domain.height)

    def __repr__(self):
        return f"OneHot({self.domain.name}, {self.size} inputs)"

    def __call__(self, states) -> np.ndarray:
        return one_hot_inputs(states, self.width, self.height)

    def admissible(self, states):
        return None             # floor 0, as the authors' `NNBayesHeuristic.H` without HArr

    def start(self, states):
        return self(states), None, None

    def step(self, states, x, h_ad, carry, parent, move):
        """A move slides a tile from cell t to the blank's cell b: four bits off, four on."""
        tile, t, b = self.domain.moved_tile(states, parent, move)
        x = np.take(x, parent, axis=0)                                            # (m, size)
        rows = np.arange(len(parent))
        W, H = self.width, self.height
        # Clear first: a bit that stays (same row or column) is set again below.
        for bit in (*one_hot_index(W, tile, t, H), *one_hot_index(W, 0, b, H)):
            x[rows, bit] = 0.0
        for bit in (*one_hot_index(W, tile, b, H), *one_hot_index(W, 0, t, H)):
            x[rows, bit] = 1.0
        return x, None, None
