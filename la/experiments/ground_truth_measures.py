"""The ground-truth experiment's measurements (`la.experiments.ground_truth`): pure, batched
functions of states, heuristic values and exact h* (`la.pdb.exact`), each checked by brute force on
the 8-puzzle in tests/test_ground_truth_measures.py.

    coverage_by          the fraction with h <= h* (paper §3: P(y^α <= y | x) = α), in all and by
                         a key (h*, the distance to the training data), optionally weighted
    optimal_dag          the states on some optimal plan of each start: the h*-layered DAG
    optimal_moves        the DAG's moves, each a parent and a child index one level down
    optimal_plan_held    per start: does one optimal plan have h <= h* on every one of its |π*|
                         states before the goal (and, with goal=True, at the goal too)? The event
                         behind the paper's α^|π*| (§3), and α^(|π*| + 1)
    distances            each state's distance to the nearest of some states (multi-source BFS)
    reliability          for quantiles p, how often h* <= the predicted N(μ, σ_a²) p-quantile
    by_value             the mean of a value (σ_e, label − h*) by a key
    subopt_summary       suboptimality, % optimal and nodes of searches, against h*

States are handled through an exact table's perfect ranks (`la.pdb.exact.ExactTable`: `rank`,
`unrank`), so a set of states is a sorted array of integers and a lookup is a `searchsorted`.
"""
import numpy as np
from scipy.special import ndtri

from la.pdb.exact import CHUNK, UNSEEN


def coverage_by(ok, key=None, weight=None) -> dict:
    """The (weighted) fraction of `ok` (bool (n,)), in all and for each value of `key` (int
    (n,))."""
    ok = np.asarray(ok, dtype=bool)
    w = np.ones(len(ok)) if weight is None else np.asarray(weight, dtype=np.float64)
    total = float(w.sum())
    result = {"states": int(len(ok)), "coverage": float(w[ok].sum() / total) if total else None}
    if key is not None:
        key = np.asarray(key, dtype=np.int64)
        values, where = np.unique(key, return_inverse=True)
        mass, held = np.bincount(where, w), np.bincount(where, w * ok)
        count = np.bincount(where)
        result["by"] = [{"key": int(v), "states": int(c), "coverage": float(h / m)}
                        for v, c, m, h in zip(values, count, mass, held)]
    return result


def by_value(values, key) -> list:
    """Per value of `key` (int (n,)): how many, the mean and the median of `values` (n,)."""
    values, key = np.asarray(values, dtype=np.float64), np.asarray(key, dtype=np.int64)
    order = np.argsort(key, kind="stable")
    keys, starts = np.unique(key[order], return_index=True)
    groups = np.split(values[order], starts[1:])
    return [{"key": int(k), "states": len(g), "mean": float(g.mean()),
             "median": float(np.median(g))} for k, g in zip(keys, groups)]


def optimal_dag(exact, h_star, domain, starts) -> dict:
    """h* value v -> the sorted ranks of every state with h* = v on some optimal plan of a start.

    `exact`: the table's abstraction (`rank`, `unrank`); `h_star`: its table (uint8 by rank). From
    the largest h* down, a level is its starts and the children of the level above that lie one
    step nearer the goal (the optimal successors); the goal is level 0."""
    start_ranks = exact.rank(np.asarray(starts))
    start_h = h_star[start_ranks].astype(np.int64)
    levels, above = {}, np.empty(0, dtype=np.int64)
    for v in range(int(start_h.max()), -1, -1):
        children = _children(exact, domain, above)
        children = children[h_star[children] == v]
        levels[v] = np.unique(np.concatenate([children, start_ranks[start_h == v]]))
        above = levels[v]
    return levels


def _children(exact, domain, ranks) -> np.ndarray:
    """The ranks of every child of the states of `ranks` (no parent pruning), parent-major."""
    out = [np.empty(0, dtype=np.int64)]
    for i in range(0, len(ranks), CHUNK):
        _, _, children = domain.expand(exact.unrank(ranks[i:i + CHUNK]))
        out.append(exact.rank(children).astype(np.int64))
    return np.concatenate(out)


def _edges(exact, domain, states) -> tuple:
    """Every move of `states` (no parent pruning): the parent's row and the child's rank, CHUNK
    states expanded at a time."""
    parents, children = [np.empty(0, dtype=np.int64)], [np.empty(0, dtype=np.int64)]
    for i in range(0, len(states), CHUNK):
        parent, _, child = domain.expand(states[i:i + CHUNK])
        parents.append(parent.astype(np.int64) + i)
        children.append(exact.rank(child).astype(np.int64))
    return np.concatenate(parents), np.concatenate(children)


def optimal_moves(exact, domain, levels: dict) -> dict:
    """h* value v > 0 -> (parent, child) of every move one step down the optimal DAG
    (`optimal_dag`): the parent's index in levels[v], the child's in levels[v - 1] (h* = v - 1)."""
    moves = {}
    for v in sorted(levels):
        if v == 0:
            continue
        parent, child = _edges(exact, domain, exact.unrank(levels[v]))
        below = levels[v - 1]
        at = np.minimum(np.searchsorted(below, child), max(len(below) - 1, 0))
        on = below[at] == child if len(below) else child < 0
        moves[v] = (parent[on], at[on])
    return moves


def optimal_plan_held(exact, h_star, domain, levels: dict, ok_of, starts,
                      goal: bool = False, moves: dict | None = None) -> np.ndarray:
    """Per start (bool (n,)): one of its optimal plans has ok on its |π*| states before the goal
    (goal=True: on all its |π*| + 1 states).

    `ok_of(states)` -> bool per state (h <= h*). Dynamic programming from the goal up: a state is
    good if it is ok and is the goal or has an optimal child that is good; without `goal` the goal
    counts as good whatever its h (A* with one goal state never compares the goal's h; IDA*'s goal
    test g + h <= bound does, hence both). `moves`: the DAG's `optimal_moves`, found if None."""
    moves = optimal_moves(exact, domain, levels) if moves is None else moves
    good = {}
    for v in sorted(levels):
        ranks = levels[v]
        held = (np.asarray(ok_of(exact.unrank(ranks)), dtype=bool) if len(ranks)
                else np.zeros(0, dtype=bool))
        if v == 0 and not goal:
            held = np.ones(len(ranks), dtype=bool)
        if v > 0:
            parent, child = moves[v]
            held &= np.bincount(parent[good[v - 1][child]], minlength=len(ranks)) > 0
        good[v] = held
    start_ranks = exact.rank(np.asarray(starts)).astype(np.int64)
    start_h = h_star[start_ranks].astype(np.int64)
    return np.array([good[v][np.searchsorted(levels[v], r)]
                     for v, r in zip(start_h, start_ranks)], dtype=bool)


def distances(exact, domain, sources, size: int) -> np.ndarray:
    """Each rank's distance in moves to the nearest state of `sources` (uint8 (size,), UNSEEN
    where none is reached): a breadth-first search from all of them at once, as
    `la.pdb.exact.ExactTable.build` searches from the goal."""
    table = np.full(size, UNSEEN, dtype=np.uint8)
    frontier = np.unique(exact.rank(np.asarray(sources)).astype(np.int64))
    table[frontier] = 0
    level = 0
    while len(frontier) and level < UNSEEN - 1:
        level += 1
        child = np.unique(_children(exact, domain, frontier))
        frontier = child[table[child] == UNSEEN]
        table[frontier] = level
    return table


def reliability(mu, sigma_a, h_star, ps) -> list:
    """For each p: the fraction of states with h* <= μ + σ_a·Φ⁻¹(p), the p-quantile of N(μ, σ_a²)
    (cost units). Calibrated, it is p (the diagram's diagonal)."""
    mu, sigma_a = np.asarray(mu, dtype=np.float64), np.asarray(sigma_a, dtype=np.float64)
    h_star = np.asarray(h_star, dtype=np.float64)
    return [{"p": float(p), "observed": float(np.mean(h_star <= mu + sigma_a * ndtri(p)))}
            for p in ps]


def label_audit(labels, h_star, added) -> list:
    """Per iteration: its records (`added[i]` of them, oldest first, as `la.buffer` appends them)
    and their label − h*: mean, share above h*, largest. `labels`, `h_star`: the records'."""
    error = np.asarray(labels, dtype=np.int64) - np.asarray(h_star, dtype=np.int64)
    ends = np.cumsum(added)
    if len(ends) and ends[-1] != len(error):
        raise ValueError(f"the iterations added {int(ends[-1])} records, the buffer holds "
                         f"{len(error)}")
    rows = []
    for i, (begin, end) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends), 1):
        e = error[begin:end]
        rows.append({"iteration": i, "records": int(len(e)),
                     "mean_error": float(e.mean()) if len(e) else None,
                     "above": float(np.mean(e > 0)) if len(e) else None,
                     "max_error": int(e.max()) if len(e) else None})
    return rows


def subopt_summary(records: list) -> dict:
    """Over the solved tasks: suboptimality (mean of cost/h* − 1, paper footnote 2, in %), % solved
    optimally and mean generated nodes; and how many tasks were not solved."""
    solved = [r for r in records if r["solved"]]
    nonzero = [r for r in solved if r["optimal"] > 0]
    return {"tasks": len(records), "unsolved": len(records) - len(solved),
            "subopt": (100 * float(np.mean([r["cost"] / r["optimal"] - 1 for r in nonzero]))
                       if nonzero else None),
            "optimal": (100 * float(np.mean([r["cost"] == r["optimal"] for r in solved]))
                        if solved else None),
            "generated": float(np.mean([r["generated"] for r in solved])) if solved else None}
