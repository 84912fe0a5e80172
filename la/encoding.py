"""Network inputs: the sliding-tile puzzle's two-dimensional one-hot encoding (reference §7.1, "TwoDim").

For every value v = 0..N-1 in increasing order, the blank (v = 0) included, the encoding has 2·W bits:
a one-hot of v's column (W bits) followed by a one-hot of v's row (W bits). For the 15-puzzle
(W = 4, N = 16) that is 16 · 8 = 128 inputs with exactly 32 ones.
"""
import numpy as np

from la.domains import SlidingTile


def two_dim_size(width: int) -> int:
    """Number of inputs of the encoding for a width x width board."""
    return width * width * 2 * width


def two_dim_index(width: int, value, position):
    """Indices of the column bit and the row bit of `value` standing at `position` (arrays broadcast)."""
    value = np.asarray(value, dtype=np.int64)
    position = np.asarray(position, dtype=np.int64)
    base = 2 * width * value
    return base + position % width, base + width + position // width


def two_dim(states: np.ndarray, width: int) -> np.ndarray:
    """Encode a batch of states (n, W·W), tile at each position, as (n, 2·W³) float32 one-hot rows."""
    states = np.asarray(states)
    n, cells = states.shape
    if cells != width * width:
        raise ValueError(f"states have {cells} cells, expected {width * width} for width {width}")
    x = np.zeros((n, two_dim_size(width)), dtype=np.float32)
    rows = np.repeat(np.arange(n), cells)                      # (n·N,)
    positions = np.tile(np.arange(cells), n)                   # (n·N,)
    col_bit, row_bit = two_dim_index(width, states.reshape(-1), positions)
    x[rows, col_bit] = 1.0
    x[rows, row_bit] = 1.0
    return x


def encode(domain, states: np.ndarray) -> np.ndarray:
    """The networks' input for a batch of states of `domain` (float32 rows)."""
    if isinstance(domain, SlidingTile):
        return two_dim(states, domain.width)
    raise ValueError(f"no network encoding for the {domain.name} yet: only sliding-tile puzzles have one")


def encoding_size(domain) -> int:
    """Number of network inputs for `domain`."""
    return encode(domain, domain.goal[None]).shape[1]
