"""The confidence experiment's figures (`la/experiments/confidence.py`), one per table, from its
results.json.

    python -m la.plots --confidence results/confidence-15-puzzle/results.json --copy
                                      # adopt, then redraw
    python -m la.plots                # also redraws every figures/confidence_<domain>.json there is

- `ood` (confidence_<domain>_ood.png): the OOD table. The classifiers' median confidence on held-out
  teacher states and on uniform and weighted noise, Kendall's τ of every network's prediction
  against the teacher's cost, and the FFNN's σ_a and the WUNN's σ_e on the same inputs; the paper's
  Table 1 as markers (IPC domains).
- `coverage` (confidence_<domain>_coverage.png), for a record with the moderate block: the coverage
  table. Coverage and mean generated nodes (solved tasks) against X for each thresholded row, single
  queue and dual queue apart; the rows without a threshold (base, GBFS with the classical heuristic)
  as horizontal lines; the moderate block's rows of Table 2.
- `tables` (confidence_<domain>_tables.png), for a record with Table 3's rows (records made before
  them have none and skip it): Heller et al.'s Tables 2 and 3 beside the paper's, drawn by
  `la/plots/confidence_tables.py` (which also draws them for every domain at once,
  confidence_tables.png).

A record kept as figures/confidence_<domain>_run<K>.json (an earlier run, kept beside the newer
record of its domain) draws its figures under that name: confidence_<domain>_run<K>_ood.png, ...
"""
import re
from pathlib import Path

import numpy as np

from la.heller.paper import BLOCKS
from la.plots import style
from la.plots.confidence_tables import tables
from la.plots.style import or_nan, plt
from la.runs.shapes import (FRACTION, MAYBE_FRACTION, Nullable, Range, Records, Where,
                             read_results, whole)

_OOD = {"network": str, "runs": whole(1), "score": str,
        "paper": Nullable({"in?": FRACTION, "out_u?": FRACTION, "out_w?": FRACTION,
                           "tau?": Range(-1, 1)}),
        # a mean confidence (a share) or a mean σ (cost units): non-negative; Kendall's τ
        **dict.fromkeys(("in", "out_u", "out_w", "in_sd", "out_u_sd", "out_w_sd", "tau_sd"),
                        Range(0, null=True)), "tau": Range(-1, 1, null=True)}
_NAME = (str, type(None))
# Table 3's rows, their blocks and the spreads came later: a record from before them lacks these
# keys.
_CHANGE = Range(-1, 1, null=True)               # a change of coverage, a share of tasks
_COVERAGE = {"row": str, "signal": str, "queue": str, "method": str, "X": whole(1, 100, True),
             "runs": whole(1), "network?": _NAME, "block?": str, "change?": _CHANGE,
             "change_se?": _CHANGE, "coverage": MAYBE_FRACTION, "coverage_sd": MAYBE_FRACTION,
             **dict.fromkeys(("generated", "generated_sd"), Range(0, null=True))}
_TABLE3 = {"row": str, "block": str, "network": str, "runs": whole(1), "coverage": MAYBE_FRACTION,
           "change": _CHANGE, "change_se": _CHANGE}
SHAPE = {"domain": str,
         # the runs averaged (Tables 2 and 3's figures count them)
         "runs": Where([whole(1)], lambda runs: len(set(runs)) == len(runs), "names a run twice"),
         "config": {"X": [whole(1, 100)], "node_limit": whole(1),
                                   "instances": [whole()], "search_network": str,
                                   "blocks?": [str], "hard_node_limit?": whole(1, null=True)},
         "ood": Records(_OOD, key="network"), "coverage": Records(_COVERAGE, key="row"),
         "table3?": Records(_TABLE3, key="row")}
# an earlier run's record, kept
ARCHIVE = re.compile(r"confidence_(?P<domain>[A-Za-z0-9-]+)_run(?P<run>[0-9]+)")
COLOURS = {"softmax": "tab:blue", "sigma_e": "tab:orange", "sigma_a": "tab:green"}
LABELS = {"softmax": "max-softmax", "sigma_e": "−σ_e (WUNN)", "sigma_a": "−σ_a (FFNN)"}
STYLES = {"M": ":", "A": "-", "PM": "-.", "PA": "--"}
KINDS = (("in", "In (held-out)"), ("out_u", "Out-U"), ("out_w", "Out-W"))


def read_confidence(path) -> dict:
    """The confidence record in `path`, checked to hold all that the figures read; ValueError names
    the file."""
    record = read_results(path, "confidence", SHAPE)
    file = repr(str(path))
    if not re.fullmatch(r"[A-Za-z0-9-]+", record["domain"]):
        raise ValueError(f"{file}: domain {record['domain'][:40]!r} is not a domain's name "
                         "(letters, digits, -)")
    for r in [*record["coverage"], *record.get("table3", [])]:
        if r.get("block", "moderate") not in BLOCKS:
            raise ValueError(f"{file}: row {r['row'][:40]!r} is of an unknown block "
                             f"{r['block'][:40]!r}")
    for r in record["coverage"]:
        if r["method"] not in ("base", *STYLES) or r["signal"] not in ("classical", *COLOURS):
            raise ValueError(f"{file}: coverage row {r['row'][:40]!r} has an unknown "
                             "method or signal")
        if (r["X"] is None) != (r["method"] == "base"):
            raise ValueError(f"{file}: coverage row {r['row'][:40]!r}: "
                             "X must be given exactly for thresholded rows")
    return record


def figure_names(record: dict) -> dict:
    """The figures' file names; `coverage` only for a record with the moderate block (the 24-puzzle
    runs the hard block alone, whose rows the `tables` figure draws), `tables` only for a record
    with Table 3's rows."""
    # an archive's: see `read_all`
    stem = record.get("figure_stem", f"confidence_{record['domain']}")
    names = {"ood": f"{stem}_ood.png"}
    if "moderate" in record["config"].get("blocks", ["moderate"]):
        names["coverage"] = f"{stem}_coverage.png"
    if record.get("table3"):
        names["tables"] = f"{stem}_tables.png"
    return names


def ood(record: dict, path) -> None:
    """Median confidence of the classifiers, Kendall's τ of every network, median σ of the FFNN and
    the WUNN."""
    rows = record["ood"]
    classifiers = [r for r in rows if r["score"] == "confidence"]
    sigmas = [r for r in rows if r["score"] == "sigma"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.9), gridspec_kw={"width_ratios": [1.4, 1.2, 0.8]})
    for ax, group, scale in ((axes[0], classifiers, 100), (axes[2], sigmas, 1)):
        x = np.arange(len(group))
        for i, (key, label) in enumerate(KINDS):
            ax.bar(x + (i - 1) * 0.27,
                   or_nan(None if r[key] is None else scale * r[key] for r in group), 0.27,
                   yerr=or_nan(None if r[key + "_sd"] is None else scale * r[key + "_sd"]
                               for r in group),
                   capsize=2, label=label)
            paper = [np.nan if r["paper"] is None else scale * r["paper"][key] for r in group]
            if np.isfinite(paper).any():
                ax.plot(x + (i - 1) * 0.27, paper, "kx",
                        label="paper (IPC domains)" if i == 0 else None)
        ax.set_xticks(x, [r["network"] for r in group])
    axes[0].set_ylabel("median confidence c^NN (%)")
    axes[0].set_title("max-softmax confidence", fontsize=10)
    axes[0].legend(fontsize=7)
    axes[2].set_ylabel("median σ (cost units)")
    axes[2].set_title("σ of the uncertainty networks", fontsize=10)
    x = np.arange(len(rows))
    axes[1].bar(x, or_nan(r["tau"] for r in rows), 0.6,
                yerr=or_nan(r["tau_sd"] for r in rows), capsize=2)
    axes[1].plot(x, [np.nan if r["paper"] is None else r["paper"]["tau"] for r in rows],
                 "kx", label="paper")
    axes[1].set_xticks(x, [r["network"] for r in rows], fontsize=8)
    axes[1].set_ylabel("Kendall τ, prediction vs teacher cost")
    axes[1].set_title("ranking on held-out states", fontsize=10)
    fig.suptitle(f"OOD table on the {record['domain']} (Heller et al. 2022, Table 1); mean over "
                 f"{classifiers[0]['runs'] if classifiers else 0} run(s), error bars: sd",
                 fontsize=11)
    fig.tight_layout()
    style.save(fig, path)


def table2_rows(record: dict) -> list:
    """The moderate block's rows of Table 2: h^NN of the search network (Table 3's other networks
    and the hard block have their own figure)."""
    return [r for r in record["coverage"]
            if r.get("block", "moderate") == "moderate" and not r.get("network")]


def coverage(record: dict, path) -> None:
    """Coverage and mean generated nodes against X, single queue and dual queue, one line per method
    and signal."""
    cfg = record["config"]
    rows = table2_rows(record)
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5), sharex=True)
    for col, queue in enumerate(("single", "dual")):
        for line, (key, scale) in enumerate((("coverage", 100), ("generated", 1))):
            ax = axes[line][col]
            _rows_without_threshold(ax, rows, queue, key, scale)
            _rows_by_X(ax, rows, queue, cfg["X"], key, scale)
            ax.set_xticks(range(len(cfg["X"])), [f"X = {x} %" for x in cfg["X"]])
            if key == "generated":
                ax.set_ylabel("mean generated nodes (solved tasks)")
                if _solved_any(rows, queue):
                    ax.set_yscale("log")
                else:
                    # no mean to show, and a log axis of nothing cannot be drawn
                    ax.text(0.5, 0.5, "no task solved: no mean to show", transform=ax.transAxes,
                            ha="center", va="center", color="tab:gray")
                    ax.set_yticks([])
                continue
            ax.set_ylabel("coverage (%)")
            ax.set_ylim(-2, 102)
            ax.set_title("single queue (GBFS)" if queue == "single"
                         else "dual queue (h^NN + classical)", fontsize=10)
            ax.legend(fontsize=6, ncol=2)
    fig.suptitle(f"Coverage on the {record['domain']}: {len(cfg['instances'])} test tasks, "
                 f"{cfg['node_limit']:,} nodes each, h^NN of {cfg['search_network']} "
                 f"(Heller et al. 2022, Table 2)", fontsize=11)
    fig.tight_layout()
    style.save(fig, path)


def _solved_any(rows: list, queue: str) -> bool:
    """Whether a row drawn in the queue's panels (its own, and GBFS with the classical heuristic)
    solved a task."""
    return any(r["generated"] for r in rows if r["queue"] == queue or r["signal"] == "classical")


def _rows_without_threshold(ax, rows: list, queue: str, key: str, scale: float) -> None:
    """The queue's base row and GBFS with the classical heuristic, as horizontal lines."""
    for r in rows:
        if (r["method"] == "base" and (r["queue"] == queue or r["signal"] == "classical")
                and r[key] is not None):
            classical = r["signal"] == "classical"
            ax.axhline(scale * r[key], color="k" if classical else "tab:blue",
                       ls="-." if classical else "-", lw=1, alpha=0.7, label=r["row"])


def _rows_by_X(ax, rows: list, queue: str, X: list, key: str, scale: float) -> None:
    """One line per thresholded method and signal of the queue, against X; equal lines drawn side by
    side."""
    lines = {}
    for r in rows:
        if r["queue"] == queue and r["method"] != "base" and r["X"] in X:
            lines.setdefault((r["signal"], r["method"]), {})[r["X"]] = r
    for i, ((signal, method), by_X) in enumerate(lines.items()):
        value = lambda x, k: (None if x not in by_X or by_X[x][k] is None  # noqa: E731
                              else scale * by_X[x][k])
        ax.errorbar(np.arange(len(X)) + 0.02 * (i - (len(lines) - 1) / 2),
                    or_nan(value(x, key) for x in X), yerr=or_nan(value(x, key + "_sd") for x in X),
                    color=COLOURS[signal], ls=STYLES[method], marker="o", ms=4, capsize=2,
                    label=f"{method} {LABELS[signal]}")


def draw(record: dict, folder) -> list:
    """The record's figures (`figure_names`) into `folder`; returns their paths."""
    names = figure_names(record)
    paths = {kind: Path(folder) / name for kind, name in names.items()}
    ood(record, paths["ood"])
    if "coverage" in paths:
        coverage(record, paths["coverage"])
    if "tables" in paths:
        tables(record, paths["tables"])
    return list(paths.values())


def read_all(paths: list) -> dict:
    """The confidence records in `paths` by domain, each checked; a second record of one domain is
    refused, but for an earlier run kept as confidence_<domain>_run<K>.json: it is keyed, and drawn,
    under that name."""
    records = {}
    for path in paths:
        record = read_confidence(path)
        key = record["domain"]
        kept = ARCHIVE.fullmatch(Path(path).stem)
        if kept and kept["domain"] == record["domain"]:
            key = f"{record['domain']}_run{kept['run']}"
            record["figure_stem"] = Path(path).stem
        if key in records:
            raise ValueError(f"{str(path)!r}: a second confidence record on the {record['domain']} "
                             f"(the first: {str(records[key][0])!r})")
        records[key] = (path, record)
    return records

