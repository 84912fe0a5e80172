"""The exact optimal cost of a single-tower blocksworld task: which blocks move once, which twice.

The goal is one tower, 1 on the table, 2 on 1, ..., N on top; `state[b-1]` is the support of block b
(0 = the table), as in `la.domains.blocksworld`. Two definitions, both about the state s:

- b is *home* when b and every block below it stand where the goal has them. The home blocks are
  1..w for some w >= 0 (w = 0 unless 1 is on the table): the bottom of the goal tower, already
  built.
- b is *blocked* when it is not home and some block below it, in its tower, is smaller than b.

Then the optimal cost (the exact h*) is

    h*(s) = (number of blocks not home) + (number of blocked blocks):

home blocks never move, the others move once, blocked ones twice.

Lower bound. A move moves one block, so it is enough to show that every block that is not home moves
at least once and every blocked block at least twice. One fact does most of the work:
(a) If c < b, no move of c comes after the last move of b. After its last move b stands on b-1 for
    good, so b-1 is covered and never moves again; then neither does b-2, and so on down to c.
(b) A block b that is not home moves. If its support is wrong, clearly. Otherwise let c be the
    lowest block of b's tower that is not home: c's support is wrong (everything under c is home, so
    if c stood on c-1, or were block 1 on the table, c would be home), so c must move, and it cannot
    while b is on top of it.
(c) A blocked block b moves twice. Let c < b be a block below b.
    - If c is not home, c moves (b), and b must leave c's tower before c's first move; that comes
      before c's last move, which comes before b's last move (a). So b's first and last moves are
      different moves.
    - If c is home, b stands above the home blocks 1..w, and the block on w is not w+1 (else w+1
      would be home). So w+1 must move onto w, which needs b gone from w's tower first. If b = w+1,
      that move is b's last; otherwise b's last move comes after w+1's last move (a). Either way b
      moves before its last move.

Upper bound: a plan of that length (`optimal_plan`). Let m be the smallest block that is not home;
the goal tower holds 1..m-1 at the bottom. Repeat until m > N:
(1) if m is clear and so is the top of the goal tower (m-1, or the table for m = 1), move m home;
(2) otherwise move to the table a clear blocked block that has not moved yet.
(1) moves each block that is not home once and (2) each blocked block at most once; home
blocks never move.
The plan never gets stuck. Blocks that have not moved still have below them what they had in s
(nothing under a block can move while it stays), and a moved block is either home or alone on the
table (moves only go home or to the table). If nothing stands on the goal tower's top, (1) or (2)
applies: if m is not clear, m is neither home nor alone on the table, so it lies in a tower of
blocks that have not moved, under that tower's top block t. If (2) does not apply, t is not blocked:
every block below t in s is larger than t, m included. So t < m is home, which it is not. And if
something stands on the goal tower's top, it never moved, it stands above w, and all of 1..w are
smaller: it is blocked and (2) applies to the clear one.

Optimal blocksworld planning is NP-hard in general (Gupta & Nau, "On the complexity of blocks-world
planning", AIJ 56, 1992); the hard part is choosing which blocks to set aside on the table. With one
goal tower holding every block, the state alone decides which blocks must be set aside.
`optimal_cost` is batched and returns int64, so it serves as IDA*'s heuristic too (IDA* then walks
straight down an optimal plan). `tests/test_blocksworld_cost.py` checks it against breadth-first
distances on every state of 2..8 blocks.
"""
import numpy as np

from la.domains.blocksworld import Blocksworld


def well_placed(states) -> np.ndarray:
    """Which blocks are home (they and everything below them as in the goal), (n, N) bool."""
    states = np.asarray(states)
    return np.logical_and.accumulate(states == np.arange(states.shape[1]), axis=1)


def smallest_below(states) -> np.ndarray:
    """The smallest block below each block in its tower, N + 1 for those on the table: (n, N) int64.

    Pointer jumping: after round r, `low[b]` is the smallest of b's 2^r nearest blocks below and
    `down[b]` the 2^r-th block below (0 = the table, which stays put), so ceil(log2 N) rounds cover
    every tower.
    """
    states = np.asarray(states, dtype=np.int64)
    n, N = states.shape
    down = np.zeros((n, N + 1), dtype=np.int64)     # column 0 is the table, columns 1..N the blocks
    down[:, 1:] = states
    low = np.full((n, N + 1), N + 1, dtype=np.int64)
    low[:, 1:] = np.where(states == 0, N + 1, states)
    rows = np.arange(n)[:, None]
    reach = 1                                       # how many blocks below `low` covers so far
    while reach < N:
        low = np.minimum(low, low[rows, down])
        down = down[rows, down]
        reach *= 2
    return low[:, 1:]


def blocked(states) -> np.ndarray:
    """Blocks that must move twice: not home, with a smaller block somewhere below, (n, N) bool."""
    states = np.asarray(states)
    return ~well_placed(states) & (smallest_below(states) < np.arange(1, states.shape[1] + 1))


def optimal_cost(states) -> np.ndarray:
    """h* of each state for the single-tower goal, (n,) int64; also usable as IDA*'s heuristic."""
    states = np.asarray(states)
    return ((~well_placed(states)).sum(axis=1) + blocked(states).sum(axis=1)).astype(np.int64)


def optimal_plan(state) -> np.ndarray:
    """An optimal plan by rules (1) and (2) of the module docstring: the states from `state` on.

    Plain Python, one state: (cost + 1, N) uint8, the format of `SearchResult.plan`.
    """
    state = np.asarray(state)
    s = [int(v) for v in Blocksworld(len(state)).validate(state)]
    N = len(s)
    aside = set((np.flatnonzero(blocked(np.array([s]))[0]) + 1).tolist())   # blocked, not moved yet
    m = int(well_placed(np.array([s]))[0].sum()) + 1          # the smallest block not home
    plan = [list(s)]
    while m <= N:
        covered = set(s)
        if m not in covered and (m == 1 or m - 1 not in covered):
            s[m - 1] = m - 1                        # (1) home: onto m-1, or block 1 onto the table
            aside.discard(m)
            m += 1
        else:
            clear = sorted(b for b in aside if b not in covered)
            if not clear:                           # impossible, by the module docstring
                raise AssertionError(f"the plan is stuck at {s}")
            s[clear[0] - 1] = 0                     # (2) set a blocked block aside on the table
            aside.discard(clear[0])
        plan.append(list(s))
    return np.array(plan, dtype=np.uint8)
