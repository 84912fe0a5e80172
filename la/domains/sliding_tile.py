"""The sliding-tile puzzle: the square 8-, 15- and 24-puzzle, and rectangular boards (2x5, 3x4).

A state is a row of N = H·W small integers (H rows, W columns), `state[p]` = the tile at board
position p (row-major, 0 = top-left), 0 = the blank. The goal is Korf's: the blank top-left and tile
t at position t, row by row.

A move sends the blank from position b to a neighbouring position t; the tile at t slides into b.
Its code is `b·N + t` (N = W·W cells), so the move that undoes it, `t·N + b`, follows from the code
alone. Moves are tried in the order up, left, right, down (which reproduces Korf's 1985 node
counts).
"""
import numpy as np

from la.domains.domain import STATE_MAX, Domain


class SlidingTile(Domain):
    """The (H·W−1)-puzzle: `SlidingTile(4)` is the 15-puzzle, `SlidingTile(5, height=2)` the 2x5
    puzzle (2 rows of 5)."""

    def __init__(self, width: int, height: int | None = None):
        height = width if height is None else height
        if width < 2 or height < 2:
            raise ValueError(f"a sliding-tile puzzle needs at least 2 rows and 2 columns, "
                             f"got {height}x{width}")
        if width * height - 1 > STATE_MAX:  # tiles 0..H·W-1
            raise ValueError(f"a sliding-tile puzzle holds at most {STATE_MAX} tiles, 16x16 "
                             f"(states are rows of uint8), got {height}x{width}")
        self.width, self.height = width, height
        self.size = width * height
        # Square boards by their tiles (Korf's 15-puzzle), rectangles by rows x columns.
        self.name = (f"{self.size - 1}-puzzle" if width == height
                     else f"{height}x{width}-puzzle")
        self.goal = np.arange(self.size, dtype=np.uint8)
        position = np.arange(self.size)
        row, col = position // width, position % width
        self.row, self.col = row, col
        # One column per direction, in the order up, left, right, down: the authors'
        # (`SlidingPuzzle/SlidingPuzzle.cs`), where the paper gives none.
        self.offsets = np.array([-width, -1, 1, width])
        # (N, 4) each
        self._legal = np.stack([row > 0, col > 0, col < width - 1, row < height - 1], axis=1)
        self._target = np.where(self._legal, position[:, None] + self.offsets, 0)
        self._code = position[:, None] * self.size + self._target
        # Tables indexed by move code, so that the hot path gathers instead of dividing; (N²,) each.
        self.blank_from, self.blank_to = np.divmod(np.arange(self.size ** 2), self.size)
        self._inverse = self.blank_to * self.size + self.blank_from
        # _allowed[b, pop] = which directions are legal from blank b and not the pruned move `pop`;
        # the last column (index -1, the root's pop) prunes nothing.
        pops = np.append(np.arange(self.size ** 2), -1)
        # (N, N²+1, 4)
        allowed = self._legal[:, None, :] & (self._code[:, None, :] != pops[None, :, None])
        self._allowed = allowed.reshape(-1, 4)           # row b·(N²+1) + pop, pop = -1 -> column N²

    # --- moves ------------------------------------------------------------------------------------

    def blank(self, states: np.ndarray) -> np.ndarray:
        """Position of the blank in each state, (n,)."""
        return (states == 0).argmax(axis=1)

    def successors(self, states, pop=None):
        """Legal moves of every state minus each state's `pop` (parent pruning), parent-major."""
        blank = self.blank(states)
        if pop is None:
            allowed = np.take(self._legal, blank, axis=0)                          # (n, 4)
        else:
            allowed = np.take(self._allowed,
                              blank * (self.size ** 2 + 1) + pop % (self.size ** 2 + 1), axis=0)
        index = np.flatnonzero(allowed)
        parent = index >> 2
        return parent, np.take(self._code, np.take(blank, parent) * 4 + (index & 3))

    def apply(self, states, parent, move):
        """The children `move[i]` applied to `states[parent[i]]`, (len(parent), N)."""
        children = np.take(states, parent, axis=0)              # rows: np.take beats states[parent]
        flat = children.reshape(-1)
        base = np.arange(len(parent)) * self.size
        t = base + self.blank_to[move]
        flat[base + self.blank_from[move]] = flat[t]
        flat[t] = 0
        return children

    def inverse(self, move):
        """The move that undoes `move`: the blank goes straight back."""
        return self._inverse[move]

    def moved_tile(self, states, parent, move):
        """For each move: the tile that slides, the position it leaves and the one it enters."""
        t = np.take(self.blank_to, move)
        return (np.take(states.reshape(-1), parent * self.size + t), t,
                np.take(self.blank_from, move))

    def neighbours(self, state: tuple, pop: int = -1) -> list:
        """Plain-Python successors of one state, (move, child) in move order, for reference IDA*."""
        b = state.index(0)
        result = []
        for legal, t, code in zip(self._legal[b], self._target[b], self._code[b]):
            if legal and code != pop:
                child = list(state)
                child[b], child[t] = child[t], 0
                result.append((int(code), tuple(child)))
        return result

    # --- validation and text ----------------------------------------------------------------------

    def check(self, state: np.ndarray) -> None:
        """Raise ValueError unless `state` is a permutation of 0..N-1 that can reach the goal."""
        self._check_permutation(state, "tile")
        blank = int(np.flatnonzero(state == 0)[0])
        # Every move is one transposition of the N cells and moves the blank one step: the
        # permutation's parity always equals the parity of the blank's distance (row + column)
        # from its goal at 0.
        if permutation_parity(state) != (self.row[blank] + self.col[blank]) % 2:
            raise ValueError(f"unsolvable {self.name} state: the permutation's parity does not "
                             f"match the blank's distance from the top-left corner")

    def format(self, state) -> str:
        """The board as text, '.' for the blank."""
        digits = len(str(self.size - 1))
        cells = [("." if v == 0 else str(int(v))).rjust(digits) for v in state]
        return "\n".join(" ".join(cells[r * self.width:(r + 1) * self.width])
                         for r in range(self.height))


def permutation_parity(perm: np.ndarray) -> int:
    """0 for an even permutation of 0..n-1, 1 for an odd one ((n − number of cycles) mod 2)."""
    perm = np.asarray(perm)
    seen = np.zeros(len(perm), dtype=bool)
    cycles = 0
    for i in range(len(perm)):
        if not seen[i]:
            cycles += 1
            while not seen[i]:
                seen[i] = True
                i = perm[i]
    return (len(perm) - cycles) % 2
