"""N-blocksworld without a hand (paper §5): move a clear block onto another clear block or table.

Blocks are numbered 1..N. A state is a row of N supports, `state[b-1]` = the block that block b
stands on, 0 = the table (Slaney & Thiébaux's format). The goal is one tower: 1 on the table, 2 on
1, ..., N on top, i.e. `state = [0, 1, ..., N-1]`. A move takes a clear block b from its support
`src` to `dst` (a clear block or the table). Its code packs (b, src, dst), so the undoing move
(b, dst, src) follows from the code: parent pruning works here, as the paper intends (`inverse`
says where the authors' code differs).
"""
import numpy as np

from la.domains.domain import STATE_MAX, Domain


class Blocksworld(Domain):
    """N blocks without a hand; `Blocksworld(15)` is the paper's 15-blocksworld."""

    def __init__(self, n: int):
        if n < 2:
            raise ValueError(f"a blocksworld needs at least 2 blocks, got {n}")
        if n > STATE_MAX:                  # supports 0 (the table) .. n
            raise ValueError(f"a blocksworld holds at most {STATE_MAX} blocks (states are rows of "
                             f"uint8), got {n}")
        self.size = n
        self.name = f"{n}-blocksworld"
        self.goal = np.arange(n, dtype=np.uint8)
        # A block's destinations in the authors' order: clear blocks 1..N ascending, then the table.
        self._destination = np.append(np.arange(1, n + 1), 0)                    # (N+1,)

    def encode(self, block, src, dst):
        """The move code of moving `block` from `src` to `dst` (arrays broadcast)."""
        return (block * (self.size + 1) + src) * (self.size + 1) + dst

    def decode(self, move):
        """(block, src, dst) of each move code."""
        rest, dst = np.divmod(move, self.size + 1)
        block, src = np.divmod(rest, self.size + 1)
        return block, src, dst

    def clear(self, states) -> np.ndarray:
        """Which blocks have nothing on them, (n, N) bool, column b-1 for block b."""
        covered = np.zeros((len(states), self.size + 1), dtype=bool)
        covered[np.arange(len(states))[:, None], states] = True          # column 0 = table, ignored
        return ~covered[:, 1:]

    def successors(self, states, pop=None):
        """Legal moves of every state, minus each state's `pop` move; per state block-major, each
        block's destinations in `_destination`'s order."""
        N = self.size                                                        # N blocks, n states
        clear = self.clear(states)                                           # (n, N)
        # (n, block, dst block)
        onto_block = clear[:, :, None] & clear[:, None, :] & ~np.eye(N, dtype=bool)
        to_table = clear & (states != 0)                                     # (n, block)
        legal = np.concatenate([onto_block, to_table[:, :, None]], axis=2)   # (n, N, N+1)
        block = np.arange(1, N + 1)[None, :, None]
        codes = self.encode(block, states[:, :, None].astype(np.int64), self._destination)
        if pop is not None:
            legal &= codes != np.asarray(pop)[:, None, None]
        index = np.flatnonzero(legal)
        return index // (N * (N + 1)), codes.reshape(-1)[index]

    def apply(self, states, parent, move):
        """The children: each block moved onto its destination."""
        block, _, dst = self.decode(move)
        children = states[parent]
        children[np.arange(len(parent)), block - 1] = dst
        return children

    def inverse(self, move):
        """Moving the block straight back: (b, src, dst) -> (b, dst, src)."""
        # Parent pruning, which the authors' code never does here: `BlocksWorld.cs` records the move
        # itself as the "previous operator", which no child's move can equal.
        block, src, dst = self.decode(move)
        return self.encode(block, dst, src)

    def neighbours(self, state: tuple, pop: int = -1) -> list:
        """Plain-Python successors of one state as (move, child) pairs, in `successors`' order."""
        covered = set(state)
        clear = [b for b in range(1, self.size + 1) if b not in covered]
        result = []
        for b in clear:
            src = state[b - 1]
            for dst in [c for c in clear if c != b] + ([0] if src != 0 else []):
                code = int(self.encode(b, src, dst))
                if code != pop:
                    child = list(state)
                    child[b - 1] = dst
                    result.append((code, tuple(child)))
        return result

    def check(self, state: np.ndarray) -> None:
        """ValueError unless every block stands on the table or one other block, with no cycle."""
        N = self.size
        if ((state < 0) | (state > N)).any():
            bad = int(state[(state < 0) | (state > N)][0])
            raise ValueError(f"support {bad} is out of range for the {self.name} "
                             f"(0 = table, blocks 1..{N})")
        blocks = np.arange(1, N + 1)
        if (state == blocks).any():
            raise ValueError(f"block {int(blocks[state == blocks][0])} stands on itself")
        counts = np.bincount(state, minlength=N + 1)[1:]
        if (counts > 1).any():
            below = int(np.argmax(counts > 1)) + 1
            on_it = [int(b) for b in blocks[state == below]]
            raise ValueError(f"blocks {on_it[0]} and {on_it[1]} both stand on block {below}")
        # following supports from any block must reach the table
        height = np.zeros(N + 1, dtype=np.int64)
        for b in range(1, N + 1):
            seen, c = [], b
            while c != 0 and height[c] == 0:
                if c in seen:
                    cycle = ", ".join(str(b) for b in sorted(seen[seen.index(c):]))
                    raise ValueError(f"blocks {cycle} stand on each other in a cycle")
                seen.append(c)
                c = int(state[c - 1])
            height[seen] = 1

    def towers(self, state) -> list:
        """The stacks, each listed bottom to top, ordered by their bottom block."""
        above = {int(s): b for b, s in enumerate(state, start=1) if s != 0}
        stacks = []
        for bottom in [b for b, s in enumerate(state, start=1) if s == 0]:
            stack = [bottom]
            while stack[-1] in above:
                stack.append(above[stack[-1]])
            stacks.append(stack)
        return stacks

    def format(self, state) -> str:
        """The stacks drawn upright on the table."""
        stacks = self.towers(state)
        height = max(len(s) for s in stacks)
        w = len(str(self.size))
        rows = [" ".join(f"[{s[level]:>{w}}]" if level < len(s) else " " * (w + 2) for s in stacks)
                for level in reversed(range(height))]
        return "\n".join([r.rstrip() for r in rows]
                         + ["=" * (len(stacks) * (w + 3) - 1) + "  table"])
