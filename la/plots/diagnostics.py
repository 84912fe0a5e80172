"""The figures of the σ_e and calibration diagnostics (`la/experiments/diagnostics.py`), from
`diagnostics.json`.

    python -m la.plots       # also redraws these two from figures/diagnostics.json when it is there

- `sigma_e_by_distance`: how σ_e of the WUNN grows with a state's distance from the goal, at every
  fifth training iteration, against ε = 1 (where GenerateTaskPrac stops a walk, paper Alg. 1).
- `calibration_decomposition`: for each α, how often y^α <= h*, then without the mean's bias, then
  also with σ_a rescaled to the spread of the remaining errors; on Korf's states and on states like
  the training tasks.
"""
from pathlib import Path

from la.plots import style
from la.plots.style import plt
from la.runs.shapes import FRACTION, NUMBER, Range, check_shape, read_results, whole

EPSILON = 1.0                 # GenerateTaskPrac's threshold on σ_e (paper §5, the 15-puzzle's ε)

_DISTANCE = {"distance": whole(1), "below_epsilon": FRACTION,
             **dict.fromkeys(("mean", "q25", "median", "q75"), Range(0))}       # σ_e >= 0
_DECOMPOSED = {"states": whole(1), "bias": NUMBER,
               **dict.fromkeys(("error_sd", "mean_sigma_a", "sigma_scale"), Range(0)),
               "rows": [dict.fromkeys(("alpha", "observed", "without_bias",
                                       "without_bias_sigma_rescaled"), FRACTION)]}
_RUN = {"calibration_korf": _DECOMPOSED, "wunn_coverage_korf?": (dict, type(None)),
        "buffer": {"sampled": whole(), "solved": whole(),
                   "label_minus_h_star": {"mean": Range(null=True),
                                          "optimal_labels": Range(null=True)},
                   "calibration": (dict, type(None))}}


def read_diagnostics(path) -> dict:
    """The diagnostics record in `path`, checked to hold all that the figures read; ValueError names
    the file."""
    record = read_results(path, "diagnostics", {"runs": dict})
    file = repr(str(path))
    if not record["runs"]:
        raise ValueError(f"{file}: runs is empty")
    for name, run in record["runs"].items():
        check_shape(run, _RUN, file, f"runs.{name}")
        if not isinstance(run.get("sigma_e_by_distance"), dict):
            raise ValueError(f"{file}: runs.{name}.sigma_e_by_distance should be an object")
        if run.get("wunn_coverage_korf"):
            check_shape(run["wunn_coverage_korf"], {"covered": FRACTION}, file,
                        f"runs.{name}.wunn_coverage_korf")
        for iteration, rows in run["sigma_e_by_distance"].items():
            if not iteration.isdigit() or len(iteration) > 9:
                raise ValueError(f"{file}: runs.{name}.sigma_e_by_distance has an entry "
                                 f"{iteration[:20]!r}, not an iteration's number")
            check_shape(rows, [_DISTANCE], file, f"runs.{name}.sigma_e_by_distance.{iteration}")
        if run["buffer"]["calibration"] is not None:
            check_shape(run["buffer"]["calibration"], _DECOMPOSED, file,
                        f"runs.{name}.buffer.calibration")
    return record


def sigma_e_by_distance(record: dict, path) -> None:
    """σ_e (median and quartiles over random walks) against walk length, one line per WUNN
    snapshot."""
    runs = record["runs"]
    fig, axes = plt.subplots(1, len(runs), figsize=(4.2 * len(runs), 3.8),
                             sharey=True, squeeze=False)
    for ax, (name, run) in zip(axes[0], sorted(runs.items())):
        snapshots = sorted(run["sigma_e_by_distance"].items())
        colours = plt.cm.viridis([i / max(1, len(snapshots) - 1) for i in range(len(snapshots))])
        for colour, (iteration, rows) in zip(colours, snapshots):
            d = [r["distance"] for r in rows]
            ax.plot(d, [r["median"] for r in rows], "o-", ms=3, color=colour,
                    label=f"iteration {int(iteration)}")
            ax.fill_between(d, [r["q25"] for r in rows],
                            [r["q75"] for r in rows], color=colour, alpha=0.15)
        ax.axhline(EPSILON, color="k", ls=":", label="ε = 1")
        ax.set_xscale("log")
        ax.set_xlabel("random-walk steps from the goal")
        cover = run.get("wunn_coverage_korf")
        note = ("" if not cover
                else f"\nσ_e covers its error on Korf's states: {100 * cover['covered']:.0f} %")
        ax.set_title(f"{name}{note}", fontsize=9)
    axes[0][0].set_ylabel("σ_e (median, quartiles; cost units)")
    axes[0][-1].legend(fontsize=7)
    fig.suptitle("The WUNN's epistemic uncertainty against distance from the goal, "
                 "every 5th iteration", fontsize=10)
    fig.tight_layout()
    style.save(fig, path)


def _mean_rows(decomposed: list) -> dict:
    """Each decomposition column averaged over runs, per α."""
    columns = ("observed", "without_bias", "without_bias_sigma_rescaled")
    alphas = [r["alpha"] for r in decomposed[0]["rows"]]
    return {"alpha": alphas, **{c: [sum(d["rows"][i][c] for d in decomposed) / len(decomposed)
                                    for i in range(len(alphas))] for c in columns}}


def calibration_decomposition(record: dict, path) -> None:
    """Per α: the share of states with y^α <= h*, then without the mean's bias, then with σ_a
    rescaled too."""
    runs = list(record["runs"].values())
    sets = [("Korf's 100, states on optimal paths", [r["calibration_korf"] for r in runs]),
            ("last memory buffer, solved optimally", [r["buffer"]["calibration"] for r in runs
                                                      if r["buffer"]["calibration"] is not None])]
    sets = [(title, d) for title, d in sets if d]
    fig, axes = plt.subplots(1, len(sets), figsize=(5 * len(sets), 4.3), sharey=True, squeeze=False)
    for ax, (title, decomposed) in zip(axes[0], sets):
        rows = _mean_rows(decomposed)
        ax.plot([0, 1], [0, 1], "k:", label="calibrated")
        ax.plot(rows["alpha"], rows["observed"], "o-", label="y^α <= h* (as trained)")
        ax.plot(rows["alpha"], rows["without_bias"], "s--", label="... without the mean's bias")
        ax.plot(rows["alpha"], rows["without_bias_sigma_rescaled"], "^-.",
                label="... and σ_a rescaled")
        bias = sum(d["bias"] for d in decomposed) / len(decomposed)
        scale = sum(d["sigma_scale"] for d in decomposed) / len(decomposed)
        states = sum(d["states"] for d in decomposed) // len(decomposed)
        ax.set_title(f"{title}\n{states:,} states per run; μ − h* {bias:+.2f}; "
                     f"σ_a too small by ×{scale:.1f}", fontsize=9)
        ax.set_xlabel("α")
    axes[0][0].set_ylabel("fraction of states with y^α <= h*")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Where calibration is lost (mean over {len(runs)} run(s))", fontsize=10)
    fig.tight_layout()
    style.save(fig, path)


# what `all_from_diagnostics` draws
FIGURE_NAMES = ("sigma_e_by_distance.png", "calibration_decomposition.png")


def all_from_diagnostics(record: dict, folder) -> None:
    """Both diagnostics figures, into `folder`."""
    sigma_e_by_distance(record, Path(folder) / FIGURE_NAMES[0])
    calibration_decomposition(record, Path(folder) / FIGURE_NAMES[1])
