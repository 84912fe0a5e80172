"""One run of the ground-truth experiment measured against exact h* (`la.experiments.ground_truth`):
the unit `run<r>/measure`, after the run's networks are trained and its rows tested, and the unit
`run<r>/reference`, the admissible reference row (MD or gap) measured the same way.

For each row (α of Table 1, and N/A), with h the heuristic as IDA* uses it (`LikelyAdmissible`,
σ_t = σ_a): coverage h <= h* over (i) every state but the goal, or a uniform sample of them (the
same in every run), (ii) the states on some optimal plan of a test task (the optimal DAG), (iii)
the states the test searches generated (each task's sample, weighted by how many its search
generated), each by h* and by the distance to the nearest training state; the guarantee beside
what happened, by plan length; then the training labels against h*, the reliability of N(μ, σ_a²)
and σ_e against the distance to the training data. Goal states are left out of the coverage sets
(their h* is 0), never out of a plan.
"""
from pathlib import Path

import numpy as np

from la.domains.names import make_domain
from la.domains.uniform import uniform_states
from la.experiments import ground_truth_measures as gm
from la.experiments.ground_truth_units import exact, row_heuristic, test_tasks
from la.experiments.trained import trained_network
from la.heuristics.likely_admissible import LikelyAdmissible
from la.pdb.exact import UNSEEN
from la.runs.checkpoint import BUFFER, read_state
from la.runs.folder import read_result
from la.runs.network import load_network
from la.runs.runner import unit_progress, unit_rng

COVERAGE_KEY = (0, 1)   # the uniform coverage states: run 0 is no run's, so the same in every run
CHUNK = 1 << 16         # states scored per network call


def chunked(f, states) -> np.ndarray:
    """f(states) in chunks of CHUNK rows, concatenated."""
    return np.concatenate([f(states[i:i + CHUNK]) for i in range(0, len(states), CHUNK)] or
                          [np.empty(0)])


def coverage_states(spec: dict, table) -> np.ndarray:
    """Set (i): the ranks of every non-goal state, or of a uniform sample of them."""
    cfg = spec["config"]
    if cfg.coverage_sample is None:
        return np.flatnonzero((table.table != UNSEEN) & (table.table > 0))
    states = uniform_states(make_domain(cfg.domain), cfg.coverage_sample,
                            unit_rng(spec["seed"], *COVERAGE_KEY))
    ranks = table.abstraction.rank(states).astype(np.int64)
    return ranks[table.table[ranks] > 0]


def training_data(folder: Path, table) -> tuple:
    """A trained network's final buffer (every training record, unless the cap dropped the oldest)
    as ranks and labels, and the records each iteration added."""
    arrays, meta = read_state(folder / "checkpoint.npz")
    added = [e["added"] for e in meta["log"] if "added" in e]
    return (table.abstraction.rank(arrays[BUFFER[0]]).astype(np.int64), arrays[BUFFER[1]],
            added)


def searched(tests: dict, row: str) -> tuple:
    """Set (iii) of a row: the sampled ranks and their weights (evaluations / sample size)."""
    ranks, weight = [], []
    for r in tests[row]["records"]:
        ranks += r["sample"]
        weight += [r["evaluated"] / len(r["sample"])] * len(r["sample"])
    return np.array(ranks, dtype=np.int64), np.array(weight)


def row_measures(spec, row, h, table, sets, distance, levels, tests, starts) -> dict:
    """Coverage over the three sets, and for an α row the guarantee by plan length."""
    domain, h_star = make_domain(spec["config"].domain), table.table
    result = {"row": row}
    for name, (ranks, weight) in sets.items():
        states = table.abstraction.unrank(ranks)
        ok = chunked(h, states) <= h_star[ranks]
        result[name] = {"by_h_star": gm.coverage_by(ok, h_star[ranks], weight),
                        "by_distance": gm.coverage_by(ok, distance[ranks], weight)["by"]}
    held, held_goal = (gm.optimal_plan_held(table.abstraction, h_star, domain, levels,
                                            lambda s: chunked(h, s) <= table(s), starts, goal)
                       for goal in (False, True))
    length = np.array([r["optimal"] for r in tests[row]["records"]])
    optimal = np.array([r["solved"] and r["cost"] == r["optimal"] for r in tests[row]["records"]])
    alpha = float(row) if row in map(str, spec["config"].alphas) else None   # N/A, MD, gap: none
    result["held"], result["held_goal"] = float(held.mean()), float(held_goal.mean())
    result["guarantee"] = [{"length": int(L), "tasks": int(np.sum(length == L)),
                            "realised": float(optimal[length == L].mean()),
                            "held": float(held[length == L].mean()),
                            "held_goal": float(held_goal[length == L].mean()),
                            "bound": None if alpha is None else alpha ** int(L),
                            "bound_goal": None if alpha is None else alpha ** (int(L) + 1)}
                           for L in np.unique(length)]
    result["bound"] = None if alpha is None else float(np.mean(alpha ** length))
    result["bound_goal"] = None if alpha is None else float(np.mean(alpha ** (length + 1)))
    return result


def run_sets(spec: dict, out: Path) -> dict:
    """What every row of a run is measured on: the exact table, the test tasks, their optimal DAG,
    the coverage sets (i) and (ii), and each network's training data and distances to it."""
    cfg, run = spec["config"], spec["run"]
    domain, table = make_domain(cfg.domain), exact(spec)
    starts = test_tasks(spec)
    levels = gm.optimal_dag(table.abstraction, table.table, domain, starts)
    trained = {w: training_data(out / f"run{run}" / w, table) for w in ("alpha", "mean")}
    return {"table": table, "starts": starts, "levels": levels, "trained": trained,
            "on_plans": np.concatenate([levels[v] for v in sorted(levels) if v > 0]),
            "everywhere": coverage_states(spec, table),
            "distance": {w: gm.distances(table.abstraction, domain, table.abstraction.unrank(t[0]),
                                         len(table.table)) for w, t in trained.items()}}


def measure_row(spec: dict, out: Path, row: str, run_set: dict, distance) -> dict:
    """`row_measures` of one row, its searched states read from its test unit."""
    tests = {row: read_result(out / f"run{spec['run']}" / test_name(row) / "unit.json")}
    sets = {"all": (run_set["everywhere"], None), "plans": (run_set["on_plans"], None),
            "searched": searched(tests, row)}
    return row_measures(spec, row, row_heuristic({**spec, "row": row}), run_set["table"], sets,
                        distance, run_set["levels"], tests, run_set["starts"])


def coverage_line(row: dict) -> str:
    """A measured row's coverage on the three sets and its held share, in one line."""
    return (f"row {row['row']}: h <= h* on {100 * row['all']['by_h_star']['coverage']:.1f} % of "
            f"states, {100 * row['plans']['by_h_star']['coverage']:.1f} % on optimal plans, "
            f"{100 * row['searched']['by_h_star']['coverage']:.1f} % searched; an optimal plan "
            f"within h*: {100 * row['held']:.1f} % of tasks, the goal too: "
            f"{100 * row['held_goal']:.1f} %")


def measure_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Every measurement of one run (module docstring)."""
    cfg, run = spec["config"], spec["run"]
    progress = unit_progress(out / spec["name"], spec["name"], verbose)
    run_set = run_sets(spec, out)
    table, trained, distance = run_set["table"], run_set["trained"], run_set["distance"]
    progress(f"{len(run_set['everywhere']):,} states for coverage, {len(run_set['on_plans']):,} "
             f"on the test tasks' optimal plans; distances to the training data found")
    rows = []
    for row in cfg.rows():
        rows.append(measure_row(spec, out, row, run_set,
                                distance["mean" if row == "N/A" else "alpha"]))
        progress(coverage_line(rows[-1]))
    labels = {w: gm.label_audit(t[1], table.table[t[0]], t[2]) for w, t in trained.items()}
    sigma = sigma_measures(spec, table, {"all": run_set["everywhere"],
                                         "plans": run_set["on_plans"]}, distance["alpha"])
    return {"run": run, "rows": rows, "labels": labels, **sigma,
            "dropped": {w: int(sum(t[2]) - len(t[1])) for w, t in trained.items()},
            "summary": ", ".join(f"{r['row']}: {100 * r['all']['by_h_star']['coverage']:.0f} %"
                                 for r in rows) + " of states with h <= h*"}


def reference_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """The admissible reference row (MD or gap) of one run, measured as the learned rows are (its
    distances: to the α network's training data)."""
    run_set = run_sets(spec, out)
    row = measure_row(spec, out, spec["config"].reference, run_set, run_set["distance"]["alpha"])
    unit_progress(out / spec["name"], spec["name"], verbose)(coverage_line(row))
    return {"run": spec["run"], "row": row,
            "summary": f"{100 * row['all']['by_h_star']['coverage']:.0f} % of states with h <= h*"}


def sigma_measures(spec: dict, table, sets: dict, distance) -> dict:
    """The reliability of N(μ, σ_a²) against h* on each set, and σ_e (the α run's WUNN, closed form)
    by the distance to the training data over set (i)."""
    network, encoding = trained_network(spec, "alpha")
    h = LikelyAdmissible(network, encoding, 0.5)              # its float64 network and scale
    wunn, _ = load_network(Path(spec["networks"]) / f"run{spec['run']}" / "alpha" / "wunn.npz")
    diagrams, sigma_e = {}, None
    for name, ranks in sets.items():
        mu, sigma_a, sigma_e_of = (np.empty(len(ranks)) for _ in range(3))
        for i in range(0, len(ranks), CHUNK):                 # (CHUNK, inputs) at a time
            states = table.abstraction.unrank(ranks[i:i + CHUNK])
            mu[i:i + CHUNK], sigma_a[i:i + CHUNK] = (h.scale * v for v in
                                                     h.net.predict_from_hidden(h.hidden(states)))
            sigma_e_of[i:i + CHUNK] = wunn.predict_exact(encoding(states))[1]
        diagrams[name] = gm.reliability(mu, sigma_a, table.table[ranks], spec["config"].quantiles)
        sigma_e = gm.by_value(sigma_e_of, distance[ranks]) if name == "all" else sigma_e
    return {"reliability": diagrams, "sigma_e": sigma_e}


def test_name(row: str) -> str:
    """A row's test unit's folder: test-0.9, test-mean."""
    return "test-mean" if row == "N/A" else f"test-{row}"
