"""The confidence experiment's two tables from its units (`la.experiments.confidence`), as text and as files.

    OOD table       per network: the median confidence c^NN on held-out teacher states ("In"), on uniform and on
                    weighted noise (Out-U, Out-W), Kendall's τ between h^NN and the teacher's cost on the held-out
                    states, mean |h^NN − cost| (Heller et al. 2022, Table 1); for the FFNN and the WUNN the same
                    columns with their σ (cost units) in place of c^NN, and their mean prediction for h^NN
    coverage table  per search row: coverage on the test tasks, mean plan cost and mean generated nodes over the
                    solved tasks (Heller et al., Table 2, gives coverage only)

Every number is a mean over runs, with its standard deviation over runs beside it; unsolved tasks are counted,
never dropped silently.
"""
from dataclasses import asdict
from pathlib import Path

import numpy as np

from la.experiments.confidence_config import PAPER_OOD, SIGMA_NETWORKS
from la.experiments.runs.runner import mean_std
from la.io import write_json, write_text

OOD_COLUMNS = ("in", "out_u", "out_w", "tau", "mae")
COVERAGE_COLUMNS = ("coverage", "cost", "generated")


def summarize(records: list) -> dict:
    """One row's results on its tasks: tasks, solved, coverage (a fraction), mean cost and mean generated nodes
    over the solved tasks (None when none was solved)."""
    solved = [r for r in records if r["solved"]]
    mean = lambda key: float(np.mean([r[key] for r in solved])) if solved else None          # noqa: E731
    return {"tasks": len(records), "solved": len(solved), "coverage": len(solved) / len(records) if records else None,
            "cost": mean("cost"), "generated": mean("generated")}


def ood_table(cfg, trained: list) -> list:
    """Per network (classifiers, then the FFNN and the WUNN): each column's mean and sd over runs, and the paper's
    Table 1 values where it has the network (as fractions, like ours)."""
    rows = []
    for network in (*cfg.networks, *SIGMA_NETWORKS.values()):
        mine = [t for t in trained if t["network"] == network]
        entry = {"network": network, "runs": len(mine),
                 "score": "sigma" if network in SIGMA_NETWORKS.values() else "confidence"}
        for key in (*OOD_COLUMNS, "epochs"):
            entry[key], entry[key + "_sd"] = mean_std(t[key] for t in mine if t[key] is not None)
        paper = PAPER_OOD.get(network)
        entry["paper"] = None if paper is None else dict(zip(("in", "out_u", "out_w", "tau"), np.divide(paper, 100)))
        rows.append(entry)
    return rows


def coverage_table(cfg, searched: list) -> list:
    """Per row of `cfg.rows()`: coverage, mean cost and mean generated nodes, each a mean and sd over runs."""
    rows = []
    for row in cfg.rows():
        mine = [s for s in searched if s["name"] == row.name]
        entry = {"row": row.name, **asdict(row), "runs": len(mine), "tasks": mine[0]["tasks"] if mine else 0,
                 "solved": [s["solved"] for s in mine]}
        for key in COVERAGE_COLUMNS:
            entry[key], entry[key + "_sd"] = mean_std(s[key] for s in mine if s[key] is not None)
        rows.append(entry)
    return rows


def _cell(value, spec: str, width: int) -> str:
    return f"{'—':>{width}}" if value is None else f"{value:{width}{spec}}"


def format_tables(record: dict) -> str:
    """Both tables as text."""
    lines = [f"OOD table, {record['domain']} ({len(record['runs'])} run(s)); held-out teacher states, noise inputs; "
             f"the paper's Table 1 is over IPC domains",
             f"{'network':>9} | {'In':>7} {'Out-U':>7} {'Out-W':>7} {'τ':>6} {'|err|':>6} | "
             f"{'paper: In':>9} {'Out-U':>6} {'Out-W':>6} {'τ':>6}"]
    for r in record["ood"]:
        sigma = r["score"] == "sigma"
        spec = ".2f" if sigma else ".1%"
        mine = " ".join(_cell(r[k], spec, 7) for k in ("in", "out_u", "out_w"))
        paper = "(median σ, cost units)" if sigma else " ".join(
            _cell(r["paper"][k] if r["paper"] else None, ".1%", w) for k, w in
            (("in", 9), ("out_u", 6), ("out_w", 6), ("tau", 6)))
        lines.append(f"{r['network']:>9} | {mine} {_cell(r['tau'], '.3f', 6)} {_cell(r['mae'], '.1f', 6)} | {paper}")
    cfg = record["config"]
    lines += ["", f"Coverage table, {record['domain']}: {len(cfg['instances'])} test tasks, {cfg['node_limit']:,} "
                  f"nodes each; h^NN from {cfg['search_network']}; cost and nodes over solved tasks",
              f"{'row':>16} | {'coverage':>14} {'mean cost':>10} {'mean nodes':>12}"]
    for r in record["coverage"]:
        coverage = "—" if r["coverage"] is None else f"{r['coverage']:.1%}"
        if r["coverage"] is not None and r["runs"] > 1:                  # one run has no spread
            coverage += f" ± {r['coverage_sd']:.1%}"
        lines.append(f"{r['row']:>16} | {coverage:>14} {_cell(r['cost'], ',.1f', 10)} "
                     f"{_cell(r['generated'], ',.0f', 12)}")
    return "\n".join(lines)


def write_results(out: Path, record: dict) -> None:
    """results.json (everything the figures need), results.csv (one line per search row, run and task) and
    ood.csv (one line per network and run)."""
    write_json(out / "results.json", record)
    write_text(out / "results.csv", "run,row,id,optimal,solved,cost,generated,expanded,seconds,status\n" + "".join(
        f"{t['run'] or ''},{t['name']},{r['id']},{r['optimal']},{r['solved']},{r['cost'] if r['solved'] else ''},"
        f"{r['generated']},{r['expanded']},{r['seconds']:.3f},{r['status']}\n" for t in record["tests"]
        for r in t["records"]))
    cells = lambda t: ",".join("" if t[k] is None else f"{t[k]:.6g}" for k in OOD_COLUMNS)     # noqa: E731
    write_text(out / "ood.csv", "run,network," + ",".join(OOD_COLUMNS) + ",epochs,seconds\n" + "".join(
        f"{t['run']},{t['network']},{cells(t)},{t['epochs']},{t['seconds']:.1f}\n" for t in record["training"]))
