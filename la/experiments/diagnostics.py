"""Why the trained networks behave as they do: σ_e against walk distance, and where calibration is lost.

    python -m la.experiments.diagnostics --run results/suboptimality-full
    python -m la.experiments.diagnostics --run results/suboptimality-full --sample 100 --node-limit 1000000000

Reads a Table 1 results folder (each run's two-output network, its WUNN and FFNN snapshots of every fifth
iteration, and the memory buffer of its last checkpoint) and writes `diagnostics.json` there, with two
figures drawn from it (`la/plots/diagnostics.py`):

1. **σ_e against distance.** For each WUNN snapshot, σ_e on random walks of d steps back from the goal
   (d = 1 … MaxSteps): how far from the goal the WUNN still reaches ε = 1, which is where GenerateTaskPrac
   stops its walks (Alg. 1). σ_e here is the closed form (`WUNN.predict_exact`, the K → ∞ limit of the
   sampled σ_e that training compares with ε), in cost units, as ε is: the WUNN learns unscaled costs (the
   authors' WUNN features take no transform), only the FFNN learns y/10.
2. **Does σ_e cover the WUNN's own error?** On Korf's 5,305 states with known h*: the share with
   |ŷ − h*/10| <= σ_e, which a calibrated Gaussian σ would make about 68 %.
3. **Where calibration is lost.** For each α, the share of states with y^α <= h* (calibrated: α), then the
   same once the mean's bias (μ − h*) is removed, and once σ_a is also rescaled to the spread of the
   remaining errors: what is left after each step is what that step does not explain. On Korf's states and
   on states drawn like the training tasks: a sample of the last memory buffer, solved optimally (IDA* with
   Manhattan distance), where the labels' own bias (label − h*, costs of suboptimal plans) is measured too.

Solved buffer states are kept in `diagnostics-h-star.json`, so an interrupted run continues where it stopped.
"""
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import norm

from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.experiments.runs import cli
from la.experiments.runs.cli import Parser, count, existing_folder, node_limit, run, seed
from la.experiments.runs.persist import load
from la.features.encodings import encode
from la.heuristics.classical import Manhattan
from la.io import write_json
from la.plots.diagnostics import all_from_diagnostics
from la.rivals.calibration import ALPHAS, korf_states_with_h_star
from la.search import ida_star

DISTANCES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)   # walk lengths, up to the paper's MaxSteps
WALKS = 500                                                # walks per distance


def sigma_e_by_distance(wunn, domain, rng: np.random.Generator, distances=DISTANCES, walks=WALKS) -> list:
    """Mean and quartiles of σ_e (closed form, cost units) on random walks of each length."""
    rows = []
    for d in distances:
        _, sigma_e = wunn.predict_exact(encode(domain, random_walk(domain, d, rng, n=walks)))
        q25, q50, q75 = np.percentile(sigma_e, [25, 50, 75])
        rows.append({"distance": d, "mean": float(sigma_e.mean()), "q25": float(q25), "median": float(q50),
                     "q75": float(q75), "below_epsilon": float(np.mean(sigma_e < 1.0))})
    return rows


def coverage(wunn, domain, states, h_star) -> dict:
    """How often σ_e covers the WUNN's own error |ŷ − h*| on states with known h*, both in cost units."""
    mean, sigma_e = wunn.predict_exact(encode(domain, states))
    error = np.abs(mean - np.asarray(h_star))
    return {"states": len(states), "covered": float(np.mean(error <= sigma_e)),
            "mean_sigma_e": float(sigma_e.mean()), "mean_abs_error": float(error.mean())}


def decompose(mu, sigma_a, h_star, alphas=ALPHAS) -> dict:
    """Calibration of y^α = μ − σ_a·Φ⁻¹(α) (cost units), then without the mean's bias, then also with σ_a
    rescaled so that the bias-free errors divided by σ_a have unit spread."""
    error = mu - h_star
    bias, spread = float(error.mean()), float(error.std())
    scale = float(np.std((error - bias) / sigma_a))
    rows = []
    for alpha in alphas:
        z = norm.ppf(alpha)
        rows.append({"alpha": alpha, "observed": float(np.mean(mu - sigma_a * z <= h_star)),
                     "without_bias": float(np.mean(mu - bias - sigma_a * z <= h_star)),
                     "without_bias_sigma_rescaled": float(np.mean(mu - bias - scale * sigma_a * z <= h_star))})
    return {"states": len(h_star), "bias": bias, "error_sd": spread, "mean_sigma_a": float(sigma_a.mean()),
            "sigma_scale": scale, "rows": rows}


def predict_costs(ffnn, domain, states) -> tuple:
    """The FFNN's μ and σ_a in cost units (its outputs times its target scale; the WUNN learns y itself)."""
    mu, sigma_a = ffnn.predict(encode(domain, states))
    return ffnn.scale * np.asarray(mu, dtype=np.float64), ffnn.scale * np.asarray(sigma_a, dtype=np.float64)


def buffer_sample(checkpoint: Path, size: int, rng: np.random.Generator) -> tuple:
    """`size` records drawn without replacement from a checkpoint's memory buffer: (states, labels)."""
    with np.load(checkpoint, allow_pickle=False) as data:
        states, labels = data["buffer/states"], data["buffer/labels"]
    keep = (labels > 0)                                       # the goal's record (label 0) says nothing
    states, labels = states[keep], labels[keep]
    pick = np.sort(rng.choice(len(labels), size=min(size, len(labels)), replace=False))
    return states[pick], labels[pick].astype(np.int64)


def solve_optimally(domain, states, cache: Path, node_limit: int, progress=print) -> np.ndarray:
    """h* of each state by IDA* with Manhattan distance (admissible, so optimal); -1 where the budget ran
    out. Solved states are cached in `cache` (JSON: state text -> h*), so a rerun continues."""
    known = json.loads(cache.read_text()) if cache.exists() else {}
    h, md, began = np.empty(len(states), dtype=np.int64), Manhattan(domain), time.perf_counter()
    for i, state in enumerate(states):
        key = cli.state_text(state)
        if key not in known:
            result = ida_star(domain, md, state, node_limit=node_limit)
            known[key] = result.cost if result.solved else -1
            write_json(cache, known)
            left = (time.perf_counter() - began) / (i + 1) * (len(states) - i - 1)
            progress(f"  state {i + 1}/{len(states)}: h* {known[key]} ({result.generated:,} nodes; "
                     f"about {left / 60:.0f} min left)")
        h[i] = known[key]
    return h


def diagnose_run(folder: Path, domain, sample: int, node_limit: int, rng: np.random.Generator,
                 progress=print) -> dict:
    """Every diagnostic for one run's two-output network (`folder` = `<results>/runN/alpha`)."""
    snapshots = sorted((folder / "snapshots").glob("iter*-wunn.npz"))
    by_distance = {p.name[4:6]: sigma_e_by_distance(load(p), domain, rng) for p in snapshots}
    korf_states, korf_h = korf_states_with_h_star()
    last_wunn = load(snapshots[-1]) if snapshots else None
    ffnn = load(folder / "network.npz")
    mu, sigma_a = predict_costs(ffnn, domain, korf_states)
    states, labels = buffer_sample(folder / "checkpoint.npz", sample, rng)
    h_star = solve_optimally(domain, states, folder / "diagnostics-h-star.json", node_limit, progress)
    solved = h_star >= 0
    states, labels, h_star = states[solved], labels[solved], h_star[solved]
    b_mu, b_sigma = predict_costs(ffnn, domain, states)
    return {"sigma_e_by_distance": by_distance,
            "wunn_coverage_korf": None if last_wunn is None else coverage(last_wunn, domain, korf_states, korf_h),
            "calibration_korf": decompose(mu, sigma_a, korf_h),
            "buffer": {"sampled": int(len(solved)), "solved": int(solved.sum()), "node_limit": node_limit,
                       "label_minus_h_star": {"mean": float(np.mean(labels - h_star)),
                                              "optimal_labels": float(np.mean(labels == h_star)),
                                              "max": int(np.max(labels - h_star)) if len(h_star) else None},
                       "mu_minus_h_star": float(np.mean(b_mu - h_star)) if len(h_star) else None,
                       "calibration": decompose(b_mu, b_sigma, h_star) if len(h_star) else None}}


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.diagnostics", description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=existing_folder, required=True,
                        help="a Table 1 results folder with trained networks")
    parser.add_argument("--sample", type=count, default=100, help="buffer records solved optimally per run (100)")
    parser.add_argument("--node-limit", type=node_limit, default=1_000_000_000,
                        help="IDA* budget per buffer state, in generated nodes (default 1,000,000,000)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the walks and the buffer sample (0)")
    args = parser.parse_args(argv)
    runs = sorted(p for p in args.run.glob("run*/alpha") if (p / "network.npz").exists())
    if not runs:
        raise ValueError(f"--run {args.run}: no trained two-output network (runN/alpha/network.npz)")
    for folder in runs:
        if not (folder / "checkpoint.npz").exists():
            raise ValueError(f"--run {args.run}: {folder.name} has no checkpoint.npz (needed for its buffer)")
    return args, runs


def main(argv=None) -> int:
    args, runs = parse_args(argv)
    domain = SlidingTile(4)
    record = {"experiment": "diagnostics", "seed": args.seed, "distances": list(DISTANCES), "walks": WALKS,
              "runs": {}}
    for folder in runs:
        print(f"{folder.parent.name}: diagnostics", flush=True)
        rng = np.random.default_rng([args.seed, int(folder.parent.name[3:])])
        record["runs"][folder.parent.name] = diagnose_run(folder, domain, args.sample, args.node_limit, rng)
    write_json(args.run / "diagnostics.json", record)
    all_from_diagnostics(record, args.run)
    for name, r in record["runs"].items():
        k, b = r["calibration_korf"], r["buffer"]
        cover = r["wunn_coverage_korf"]
        print(f"{name}: Korf states: μ − h* {k['bias']:+.2f} (sd {k['error_sd']:.2f}), "
              f"mean σ_a {k['mean_sigma_a']:.2f}; "
              + ("" if cover is None else f"σ_e covers the WUNN's error on {100 * cover['covered']:.0f} %; ")
              + f"buffer sample: {b['solved']}/{b['sampled']} solved, "
              f"label − h* {b['label_minus_h_star']['mean']:+.2f}")
    print(f"results: {args.run / 'diagnostics.json'}; figures: sigma_e_by_distance.png, "
          f"calibration_decomposition.png there")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
