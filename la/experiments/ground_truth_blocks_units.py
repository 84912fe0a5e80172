"""The 15-blocksworld's ground truth (`la.experiments.ground_truth_blocks`): the states measured,
their exact h* (`la.domains.blocksworld_cost`), and one run of Table 3's networks measured on them,
the unit `run<r>/measure`.

The ground-truth experiment's measurements (`la.experiments.ground_truth_measures`) index h* by the
perfect rank of an exact table. The 15-blocksworld has 65,573,803,186,921 states, too many for a
table, but its h* is a batched rule, so here a state's key is its 15 supports (0..15) packed 4 bits
each into an int64 (`PackedStates`), and "looking h* up" computes the rule on the unpacked states
(`ExactCost`). With those two in place of the table, `optimal_dag` and `optimal_plan_held` run
unchanged: the optimal DAG of a task is every state on some optimal plan (from each state, the
children one step cheaper by the rule), and the dynamic programming over it finds whether one of
those plans has h <= h* on every state.
"""
from pathlib import Path

import numpy as np

from la import data
from la.domains.blocksworld_cost import (blocked, optimal_cost, optimal_plan, smallest_below,
                                         well_placed)
from la.domains.names import make_domain
from la.experiments import ground_truth_measures as gm
from la.experiments.ground_truth_audit import chunked
from la.experiments.trained import trained_network
from la.heuristics.likely_admissible import LikelyAdmissible
from la.heuristics.pdb import PDBHeuristic
from la.rivals.calibration import plan_states, uniform_blocksworld
from la.runs.runner import unit_progress, unit_rng

BITS = 4               # bits per support: 0 (the table) .. 15
CHUNK = 1 << 14        # states expanded per NumPy call: (CHUNK, N, N + 1) int64 move codes
UNIFORM_KEY = (0, 1)   # the uniform states' stream: run 0 is no run's, so the same in every run;
                       # Table 3's uniform calibration states are its first draws (same seed)
REFERENCE = "max-PDB"  # Table 3's admissible floor h_ad alone: h <= h* must hold on every state


class PackedStates:
    """States as int64 keys, 4 bits a block: the `rank`/`unrank` of an exact table's abstraction,
    for N <= 15 blocks."""

    def __init__(self, N: int):
        if not 1 <= N <= 64 // BITS - 1:
            raise ValueError(f"packed keys hold 1..{64 // BITS - 1} blocks, got {N}")
        self.shifts = BITS * np.arange(N, dtype=np.int64)                        # (N,)

    def rank(self, states) -> np.ndarray:
        return (np.asarray(states).astype(np.int64) << self.shifts).sum(axis=1)     # (n,)

    def unrank(self, keys) -> np.ndarray:
        keys = np.asarray(keys, dtype=np.int64).reshape(-1)
        return ((keys[:, None] >> self.shifts) & (1 << BITS) - 1).astype(np.uint8)   # (n, N)


class ExactCost:
    """h* by key, `cost[keys]`, as an exact table is indexed: the rule of
    `la.domains.blocksworld_cost` on the unpacked states."""

    def __init__(self, packed: PackedStates):
        self.packed = packed

    def __getitem__(self, keys) -> np.ndarray:
        keys = np.asarray(keys, dtype=np.int64).reshape(-1)
        return chunked(lambda k: optimal_cost(self.packed.unrank(k)), keys).astype(np.int64)


def table3_starts(ids) -> np.ndarray:
    """Table 3's 15-blocksworld test tasks with these ids (`la.data.blocksworld50_15`), (n, 15)."""
    by_id = {i.id: i.state for i in data.blocksworld50_15()}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ValueError(f"no 15-blocksworld test task #{missing[0]} (expected 1..{len(by_id)})")
    return np.array([by_id[i] for i in ids], dtype=np.uint8)


def optimal_steps(domain, states) -> tuple:
    """The moves that lower h* by one, by the rule's terms of the moved block alone: (parent row,
    child) of each.

    A move takes a clear block b onto dst (a clear block or the table, 0). Nothing stands on b and
    nothing will stand on it, so no other block's home or blocked status changes, and h* changes
    by b's terms: [b not home] + [b blocked] after the move, minus before. After it, b is home
    when dst = b - 1 is home (the table for b = 1), and blocked when not home with a block
    smaller than b at or below dst."""
    N, parents, children = domain.size, [], []
    for i in range(0, len(states), CHUNK):
        part = states[i:i + CHUNK]
        home, low, stuck = well_placed(part), smallest_below(part), blocked(part)   # (n, N)
        parent, move = domain.successors(part)
        b, _, dst = domain.decode(move)
        under = np.maximum(dst - 1, 0)                          # dst's column (the table: unused)
        before = ~home[parent, b - 1] + stuck[parent, b - 1].astype(np.int64)
        home_after = (dst == b - 1) & ((dst == 0) | home[parent, under])
        low_after = np.where(dst == 0, N + 1, np.minimum(dst, low[parent, under]))
        after = ~home_after + (~home_after & (low_after < b)).astype(np.int64)
        keep = after == before - 1
        parents.append(parent[keep] + i)
        children.append(domain.apply(part, parent[keep], move[keep]))
    return (np.concatenate(parents or [np.empty(0, dtype=np.int64)]),
            np.concatenate(children or [np.empty((0, N), dtype=np.uint8)]))


def optimal_dag(domain, starts) -> tuple:
    """The optimal DAG of `starts` (`la.experiments.ground_truth_measures.optimal_dag`'s levels,
    h* -> sorted keys) and its moves (`optimal_moves`' form), walked down by `optimal_steps`."""
    packed = PackedStates(domain.size)
    keys, h_star = packed.rank(starts), optimal_cost(starts)
    levels, moves, above = {}, {}, np.empty((0, domain.size), dtype=np.uint8)
    for v in range(int(h_star.max()), -1, -1):
        parent, children = optimal_steps(domain, above)
        child = packed.rank(children)
        levels[v] = np.unique(np.concatenate([child, keys[h_star == v]]))
        if v + 1 in levels:
            moves[v + 1] = (parent, np.searchsorted(levels[v], child))
        above = packed.unrank(levels[v])
    return levels, moves


def state_sets(domain, starts, sample: int, seed: int, progress=lambda line: None) -> dict:
    """What every row is measured on: `sample` uniform states (goal left out), the states of one
    optimal plan per start (rules (1)-(2), Table 3's calibration states), and the optimal DAG's
    levels (h* -> sorted keys), its moves and its non-goal states; each set as (states, h*)."""
    packed = PackedStates(domain.size)
    progress(f"drawing {sample:,} uniform states")
    uniform = uniform_blocksworld(domain.size, sample, unit_rng(seed, *UNIFORM_KEY))
    progress(f"walking the optimal plans of the {len(starts)} test tasks down from h* "
             f"{int(optimal_cost(starts).max())}")
    levels, moves = optimal_dag(domain, starts)
    dag = np.concatenate([levels[v] for v in sorted(levels) if v > 0])
    progress(f"{len(dag):,} states on optimal plans")
    return {"uniform": uniform, "plan": plan_states([optimal_plan(s) for s in starts]),
            "dag": (packed.unrank(dag), ExactCost(packed)[dag]), "levels": levels,
            "moves": moves}


def row_heuristics(spec: dict, row: str) -> tuple:
    """The row's h as IDA* used it in Table 3 and its real value before rounding and the floor
    (y^α, or μ for N/A; None for the reference, which is h_ad itself)."""
    network, encoding = trained_network(spec, "mean" if row == "N/A" else "alpha")
    if row == REFERENCE:
        return PDBHeuristic(encoding, encoding.floor_columns), None
    h = LikelyAdmissible(network, encoding, None if row == "N/A" else float(row))
    return h, lambda states: h.values(h.hidden(states))


def row_measures(domain, h, y, sets: dict, starts, realised, alpha) -> dict:
    """Coverage h <= h* (and y <= h*) on each set, by h*; the exact share of starts with an optimal
    plan within h* (the goal left out, and kept: `held`, `held_goal`) beside α^|π*| and the
    `realised` share of optimal plans (bool per start), in all and by |π*|."""
    result = {}
    for name in ("uniform", "plan", "dag"):
        states, h_star = sets[name]
        result[name] = gm.coverage_by(chunked(h, states) <= h_star, h_star)
        result[name]["y_coverage"] = (None if y is None else
                                      float(np.mean(chunked(y, states) <= h_star)))
    packed = PackedStates(domain.size)
    cost = ExactCost(packed)
    held, held_goal = (gm.optimal_plan_held(packed, cost, domain, sets["levels"],
                                            lambda s: chunked(h, s) <= cost[packed.rank(s)],
                                            starts, goal, sets["moves"])
                       for goal in (False, True))
    length, realised = optimal_cost(starts), np.asarray(realised, dtype=bool)
    result.update(held=float(held.mean()), held_goal=float(held_goal.mean()),
                  realised=float(realised.mean()),
                  bound=None if alpha is None else float(np.mean(alpha ** length)),
                  bound_goal=None if alpha is None else float(np.mean(alpha ** (length + 1))))
    result["guarantee"] = [{"length": int(L), "tasks": int(np.sum(length == L)),
                            "realised": float(realised[length == L].mean()),
                            "held": float(held[length == L].mean()),
                            "held_goal": float(held_goal[length == L].mean()),
                            "bound": None if alpha is None else alpha ** int(L)}
                           for L in np.unique(length)]
    return result


def measure_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Every row of one run measured (`la.experiments.ground_truth_blocks`)."""
    cfg, run = spec["config"], spec["run"]
    progress = unit_progress(out / spec["name"], spec["name"], verbose)
    domain, ids = make_domain(cfg.domain), [t["id"] for t in spec["realised"][REFERENCE]]
    starts = table3_starts(ids)
    sets = state_sets(domain, starts, cfg.sample, spec["seed"], progress)
    progress(f"{len(sets['uniform'][1]):,} uniform states, {len(sets['plan'][1]):,} on one "
             f"optimal plan per task, {len(sets['dag'][1]):,} on every optimal plan of the "
             f"{len(starts)} test tasks")
    rows = []
    for row in cfg.rows():
        h, y = row_heuristics(spec, row)
        realised = [t["solved"] and t["cost"] == t["optimal"] for t in spec["realised"][row]]
        alpha = float(row) if row not in ("N/A", REFERENCE) else None
        rows.append({"row": row, **row_measures(domain, h, y, sets, starts, realised, alpha)})
        progress(coverage_line(rows[-1]))
    return {"run": run, "rows": rows, "states": {k: int(len(sets[k][1]))
                                                 for k in ("uniform", "plan", "dag")},
            "summary": ", ".join(f"{r['row']}: {100 * r['uniform']['coverage']:.0f} %"
                                 for r in rows) + " of uniform states with h <= h*"}


def coverage_line(row: dict) -> str:
    """A measured row in one line."""
    return (f"row {row['row']}: h <= h* on {100 * row['uniform']['coverage']:.1f} % of uniform "
            f"states, {100 * row['dag']['coverage']:.1f} % on optimal plans; an optimal plan "
            f"within h*: {100 * row['held']:.1f} % of tasks (realised {100 * row['realised']:.1f}"
            f" % optimal)")
