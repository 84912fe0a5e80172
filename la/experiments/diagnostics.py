"""Why the trained networks behave as they do: σ_e against walk distance, and where calibration is
lost.

    python -m la.experiments.diagnostics \
        --run figures/suboptimality-networks                       # into results/diagnostics
    python -m la.experiments.diagnostics --run results/suboptimality-full \
        --out results/diagnostics-full --sample 100 --node-limit 1000000000

Reads a Table 1 results folder (each run's two-output network, its WUNN snapshots of every fifth
iteration, and the memory buffer of its last checkpoint), and only reads it: `diagnostics.json` and
two figures drawn from it (`la/plots/diagnostics.py`) are written to --out. Every file is read and
checked before any work starts.

1. **σ_e against distance.** For each WUNN snapshot, σ_e on random walks of d steps back from the
   goal (d = 1 … MaxSteps): how far from the goal the WUNN still reaches ε = 1, which is where
   GenerateTaskPrac stops its walks (Alg. 1). σ_e here is the closed form (`WUNN.predict_exact`, the
   K → ∞ limit of the sampled σ_e that training compares with ε), in cost units, as ε is: the WUNN
   learns unscaled costs (the authors' WUNN features take no transform), only the FFNN learns y/10.
2. **Does σ_e cover the WUNN's own error?** On Korf's 5,305 states with known h*: the share with
   |ŷ − h*/10| <= σ_e, which a calibrated Gaussian σ would make about 68 %.
3. **Where calibration is lost.** For each α, the share of states with y^α <= h* (calibrated: α),
   then the same once the mean's bias (μ − h*) is removed, and once σ_a is also rescaled to the
   spread of the remaining errors: what is left after each step is what that step does not explain.
   On Korf's states and on states drawn like the training tasks: a sample of the last memory buffer,
   solved optimally (IDA* with Manhattan distance), where the labels' own bias (label − h*, costs of
   suboptimal plans) is measured too.

The optimal costs of the sampled buffer states are kept in `OUT/h-star.json`,
{"solved": {state: h*}, "unsolved": {state: node limit}}, so an interrupted run continues where it
stopped, and a state left unsolved within a node limit is tried again with a larger one. A run
folder's `diagnostics-h-star.json` (what earlier versions kept there: {state: h*}, −1 for unsolved
within a limit it does not record) is read for its solved states.
"""
import json
import re
import sys
import time
from argparse import ArgumentTypeError
from pathlib import Path

import numpy as np
from scipy.stats import norm

from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features.encodings import describe, encode, for_domain
from la.heuristics.classical import Manhattan
from la.io import write_json
from la.plots.diagnostics import FIGURE_NAMES as FIGURES  # the figures' files
from la.plots.diagnostics import all_from_diagnostics
from la.rivals.calibration import ALPHAS, korf_states_with_h_star
from la.runs import cli
from la.runs.checkpoint import BUFFER, check_checkpoint
from la.runs.cli import (Parser, count, existing_folder, first_paragraph, node_limit, run,
                         seed)
from la.runs.folder import ROOT
from la.runs.network import load_network
from la.runs.shapes import check_shape
from la.search import ida_star

DISTANCES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)   # walk lengths, up to the paper's MaxSteps
WALKS = 500                                                # walks per distance
H_STAR = "h-star.json"                       # the cache of h* under --out
OLD_H_STAR = "diagnostics-h-star.json"       # earlier versions' cache, in each run's folder: read,
                                             # never written


def sigma_e_by_distance(wunn, domain, rng: np.random.Generator, distances=DISTANCES,
                        walks=WALKS) -> list:
    """Mean and quartiles of σ_e (closed form, cost units) on random walks of each length."""
    rows = []
    for d in distances:
        _, sigma_e = wunn.predict_exact(encode(domain, random_walk(domain, d, rng, n=walks)))
        q25, q50, q75 = np.percentile(sigma_e, [25, 50, 75])
        rows.append({"distance": d, "mean": float(sigma_e.mean()), "q25": float(q25),
                     "median": float(q50), "q75": float(q75),
                     "below_epsilon": float(np.mean(sigma_e < 1.0))})
    return rows


def coverage(wunn, domain, states, h_star) -> dict:
    """How often σ_e covers the WUNN's own error |ŷ − h*| on states with known h*, both in cost
    units."""
    mean, sigma_e = wunn.predict_exact(encode(domain, states))
    error = np.abs(mean - np.asarray(h_star))
    return {"states": len(states), "covered": float(np.mean(error <= sigma_e)),
            "mean_sigma_e": float(sigma_e.mean()), "mean_abs_error": float(error.mean())}


def decompose(mu, sigma_a, h_star, alphas=ALPHAS) -> dict:
    """Calibration of y^α = μ − σ_a·Φ⁻¹(α) (cost units), then without the mean's bias, then also
    with σ_a rescaled so that the bias-free errors divided by σ_a have unit spread."""
    error = mu - h_star
    bias, spread = float(error.mean()), float(error.std())
    scale = float(np.std((error - bias) / sigma_a))
    rows = []
    for alpha in alphas:
        z = norm.ppf(alpha)
        rows.append({"alpha": alpha, "observed": float(np.mean(mu - sigma_a * z <= h_star)),
                     "without_bias": float(np.mean(mu - bias - sigma_a * z <= h_star)),
                     "without_bias_sigma_rescaled": float(np.mean(mu - bias - scale * sigma_a * z
                                                                  <= h_star))})
    return {"states": len(h_star), "bias": bias, "error_sd": spread,
            "mean_sigma_a": float(sigma_a.mean()), "sigma_scale": scale, "rows": rows}


def predict_costs(ffnn, domain, states) -> tuple:
    """The FFNN's μ and σ_a in cost units (its outputs times its target scale; the WUNN learns y
    itself)."""
    mu, sigma_a = ffnn.predict(encode(domain, states))
    return (ffnn.scale * np.asarray(mu, dtype=np.float64),
            ffnn.scale * np.asarray(sigma_a, dtype=np.float64))


# --- reading, all before any work -----------------------------------------------------------------

def read_run(folder: Path, domain) -> dict:
    """One run's two-output network, WUNN snapshots and memory buffer, read and checked (ValueError
    naming the file): `folder` = `<results>/runN/alpha`."""
    ffnn = read_network(folder / "network.npz", domain, "FFNN")
    if ffnn.n_out != 2:
        raise ValueError(f"{folder / 'network.npz'}: a single-output FFNN; the diagnostics need μ "
                         f"and σ_a")
    snapshots = {p.name[4:-len("-wunn.npz")]: read_network(p, domain, "WUNN")    # "iter05-wunn.npz"
                 for p in sorted((folder / "snapshots").glob("iter*-wunn.npz"))}
    path = folder / "checkpoint.npz"
    arrays = check_checkpoint(path)
    states, labels = arrays[BUFFER[0]], arrays[BUFFER[1]]
    if not (states.shape[1:] == (domain.size,) and np.issubdtype(states.dtype, np.integer)
            and np.issubdtype(labels.dtype, np.integer)):
        raise ValueError(f"{path}: its buffer holds no {domain.name} states with integer costs "
                         f"(states {states.dtype} {states.shape}, labels {labels.dtype})")
    if not (np.sort(states, axis=1) == np.arange(domain.size)).all() or (labels < 0).any():
        raise ValueError(f"{path}: its buffer holds a state that is not a permutation of "
                         f"0..{domain.size - 1} or a negative cost")
    return {"name": folder.parent.name, "ffnn": ffnn, "snapshots": snapshots, "states": states,
            "labels": labels}


def read_network(path: Path, domain, kind: str):
    """The network at `path`, which must be a `kind` (FFNN or WUNN) on the domain's own encoding."""
    net, about = load_network(path, domain)
    if type(net).__name__ != kind:
        raise ValueError(f"{path}: holds a network of class {type(net).__name__}, expected {kind}")
    if about["encoding"] != describe(for_domain(domain)):
        raise ValueError(f"{path}: a network on the encoding {about['encoding']}; the diagnostics "
                         f"encode states as {describe(for_domain(domain))}")
    return net


def read_h_star(path: Path, domain, old: bool = False) -> dict:
    """A cache of h*, {"solved": {state: h*}, "unsolved": {state: node limit}}, empty if there is
    none; `old`: an earlier version's {state: h*}, whose −1 (unsolved, within a limit it does not
    record) is tried again."""
    cache = {"solved": {}, "unsolved": {}}
    if not path.exists():
        return cache
    remedy = ("it caches the optimal costs of sampled buffer states: delete it, and they are "
              "solved again")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error.msg}: line {error.lineno}, column "
                         f"{error.colno}); {remedy}"
                         ) from None
    except (OSError, ValueError, RecursionError) as error:  # unreadable, not UTF-8, nested too deep
        raise ValueError(f"{path}: cannot read it ({' '.join(str(error).split())}); "
                         f"{remedy}") from None
    try:
        if old:
            cache["solved"] = {k: v for k, v in _entries(data, domain, -1, path, "").items()
                               if v >= 0}
        else:
            check_shape(data, {"solved": dict, "unsolved": dict}, str(path))
            cache = {"solved": _entries(data["solved"], domain, 0, path, "solved "),
                     "unsolved": _entries(data["unsolved"], domain, 1, path, "unsolved ")}
    except ValueError as error:
        raise ValueError(f"{error}; {remedy}") from None
    return cache


def _entries(entries, domain, low: int, path: Path, where: str) -> dict:
    """{state text: integer >= low}, each state checked and written as `cli.state_text` writes
    it."""
    if not isinstance(entries, dict):
        raise ValueError(f"{path}: expected an object of states and costs, got "
                         f"{type(entries).__name__}")
    checked = {}
    for key, value in entries.items():
        try:
            state = cli.state_text(cli.parse_state(domain, key))
        except ValueError as error:
            raise ValueError(f"{path}: {where}entry {key[:40]!r} is not a {domain.name} state "
                             f"({error})") from None
        if type(value) is not int or value < low:
            raise ValueError(f"{path}: {where}entry {key[:40]!r} should be an integer of at least "
                             f"{low}, got {value!r:.40}")
        checked[state] = value
    return checked


# --- the work -------------------------------------------------------------------------------------

def buffer_sample(states, labels, size: int, rng: np.random.Generator) -> tuple:
    """`size` records drawn without replacement from a memory buffer: (states, labels)."""
    keep = (labels > 0)                                   # the goal's record (label 0) says nothing
    states, labels = states[keep], labels[keep]
    pick = np.sort(rng.choice(len(labels), size=min(size, len(labels)), replace=False))
    return states[pick], labels[pick].astype(np.int64)


def solve_optimally(domain, states, cache: dict, path: Path, node_limit: int,
                    progress=print) -> np.ndarray:
    """h* of each state by IDA* with Manhattan distance (admissible, so optimal); -1 where the
    budget ran out.
    A state is searched unless `cache` knows its h* or that it stays unsolved within `node_limit`;
    the cache is written to `path` after each search, so a rerun continues."""
    keys = [cli.state_text(state) for state in states]
    todo = [i for i, key in enumerate(keys)
            if key not in cache["solved"] and cache["unsolved"].get(key, 0) < node_limit]
    md, began = Manhattan(domain), time.perf_counter()
    for done, i in enumerate(todo, start=1):
        result = ida_star(domain, md, states[i], node_limit=node_limit)
        if result.solved:
            cache["solved"][keys[i]] = int(result.cost)
            cache["unsolved"].pop(keys[i], None)
        else:
            cache["unsolved"][keys[i]] = node_limit
        write_json(path, cache)
        left = (time.perf_counter() - began) / done * (len(todo) - done)
        h = cache["solved"].get(keys[i], "—")
        progress(f"  state {i + 1}/{len(states)}: h* {h} ({result.generated:,} nodes; about "
                 f"{left / 60:.0f} min left)")
    return np.array([cache["solved"].get(key, -1) for key in keys], dtype=np.int64)


def diagnose_run(run_inputs: dict, domain, korf: tuple, sample: int, node_limit: int,
                 rng: np.random.Generator, cache: dict, cache_path: Path, progress=print) -> dict:
    """Every diagnostic for one run's two-output network (`read_run`'s inputs; `korf`: states and
    their h*)."""
    snapshots, ffnn = run_inputs["snapshots"], run_inputs["ffnn"]
    by_distance = {name: sigma_e_by_distance(wunn, domain, rng) for name, wunn in snapshots.items()}
    korf_states, korf_h = korf
    last_wunn = snapshots[max(snapshots, key=int)] if snapshots else None
    mu, sigma_a = predict_costs(ffnn, domain, korf_states)
    states, labels = buffer_sample(run_inputs["states"], run_inputs["labels"], sample, rng)
    h_star = solve_optimally(domain, states, cache, cache_path, node_limit, progress)
    solved = h_star >= 0
    buffer = {"sampled": int(len(solved)), "solved": int(solved.sum()), "node_limit": node_limit,
              "label_minus_h_star": {"mean": None, "optimal_labels": None, "max": None},
              "mu_minus_h_star": None, "calibration": None}        # none solved: nothing to measure
    if solved.any():
        states, labels, h_star = states[solved], labels[solved], h_star[solved]
        b_mu, b_sigma = predict_costs(ffnn, domain, states)
        buffer.update(label_minus_h_star={"mean": float(np.mean(labels - h_star)),
                                          "optimal_labels": float(np.mean(labels == h_star)),
                                          "max": int(np.max(labels - h_star))},
                      mu_minus_h_star=float(np.mean(b_mu - h_star)),
                      calibration=decompose(b_mu, b_sigma, h_star))
    return {"sigma_e_by_distance": by_distance,
            "wunn_coverage_korf": (None if last_wunn is None
                                   else coverage(last_wunn, domain, korf_states, korf_h)),
            "calibration_korf": decompose(mu, sigma_a, korf_h), "buffer": buffer}


# --- the command ----------------------------------------------------------------------------------

def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.diagnostics",
                    description=first_paragraph(__doc__))
    parser.add_argument("--run", type=existing_folder, required=True,
                        help="a Table 1 results folder with trained networks (only read)")
    parser.add_argument("--out", type=cli.out_folder, default=None,
                        help="where diagnostics.json, its figures and the h* cache go (default "
                             "results/diagnostics)")
    parser.add_argument("--sample", type=count, default=100,
                        help="buffer records solved optimally per run (100)")
    parser.add_argument("--node-limit", type=node_limit, default=1_000_000_000,
                        help="IDA* budget per buffer state, in generated nodes (default "
                             "1,000,000,000)")
    parser.add_argument("--seed", type=seed, default=0,
                        help="seed of the walks and the buffer sample (0)")
    args = parser.parse_args(argv)
    if args.out is None:
        try:
            args.out = cli.out_folder(str(ROOT / "results" / "diagnostics"))
        except ArgumentTypeError as error:
            raise ValueError(f"--out (default): {error}") from None
    for name in ("diagnostics.json", H_STAR, *FIGURES):
        if (args.out / name).is_dir():
            raise ValueError(f"--out {args.out}: {args.out / name} is a folder, not a file it can "
                             f"write")
    runs = sorted((p for p in args.run.glob("run*/alpha") if re.fullmatch(r"run\d+", p.parent.name)
                   and (p / "network.npz").exists()), key=lambda p: int(p.parent.name[3:]))
    if not runs:
        raise ValueError(f"--run {args.run}: no trained two-output network "
                         f"(runN/alpha/network.npz)")
    for folder in runs:
        if not (folder / "checkpoint.npz").exists():
            raise ValueError(f"--run {args.run}: {folder.parent.name}/alpha has no checkpoint.npz "
                             f"(needed for its buffer)")
    run_folder, out = args.run.resolve(), args.out.resolve()
    if out == run_folder or run_folder in out.parents:      # --run is only read (module docstring)
        raise ValueError(f"--out {args.out} is inside --run {args.run}, which diagnostics only "
                         f"reads: choose an --out outside it")
    return args, runs


def summary(name: str, r: dict) -> str:
    """One line per run: the Korf states' bias and σ_a, σ_e's coverage, and the buffer sample's
    labels."""
    k, b, cover = r["calibration_korf"], r["buffer"], r["wunn_coverage_korf"]
    labels = (f"label − h* {b['label_minus_h_star']['mean']:+.2f}" if b["solved"] else
              f"label − h* — (none solved; node limit {b['node_limit']:,})")
    return (f"{name}: Korf states: μ − h* {k['bias']:+.2f} (sd {k['error_sd']:.2f}), "
            f"mean σ_a {k['mean_sigma_a']:.2f}; "
            + ("" if cover is None
               else f"σ_e covers the WUNN's error on {100 * cover['covered']:.0f} %; ")
            + f"buffer sample: {b['solved']}/{b['sampled']} solved, {labels}")


def main(argv=None) -> int:
    args, runs = parse_args(argv)
    domain = SlidingTile(4)
    inputs = [read_run(folder, domain) for folder in runs]       # every file read and checked first
    cache = read_h_star(args.out / H_STAR, domain)
    for folder in runs:                # earlier versions' caches: their solved states are known too
        cache["solved"] = {**read_h_star(folder / OLD_H_STAR, domain, old=True)["solved"],
                           **cache["solved"]}
    cache["unsolved"] = {k: v for k, v in cache["unsolved"].items() if k not in cache["solved"]}
    korf = korf_states_with_h_star()
    record = {"experiment": "diagnostics", "seed": args.seed, "distances": list(DISTANCES),
              "walks": WALKS, "runs": {}}
    for run_inputs in inputs:
        name = run_inputs["name"]
        print(f"{name}: diagnostics", flush=True)
        rng = np.random.default_rng([args.seed, int(name[3:])])
        record["runs"][name] = diagnose_run(run_inputs, domain, korf, args.sample, args.node_limit,
                                            rng, cache, args.out / H_STAR)
    write_json(args.out / "diagnostics.json", record)
    all_from_diagnostics(record, args.out)
    for name, r in record["runs"].items():
        print(summary(name, r))
    print(f"results: {args.out / 'diagnostics.json'}; figures: {', '.join(FIGURES)} there")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
