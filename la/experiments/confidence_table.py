"""The confidence experiment's tables from its units (`la.experiments.confidence`), as text and as
files.

    OOD table       per network: the median confidence c^NN on held-out teacher states ("In"), on
                    uniform and on weighted noise (Out-U, Out-W), Kendall's τ between h^NN and the
                    teacher's cost on the held-out states, mean |h^NN − cost| (Heller et al. 2022,
                    Table 1); for the FFNN and the WUNN the same columns with their σ (cost units)
                    in place of c^NN, and their mean prediction for h^NN
    coverage table  per search row and block: coverage on the test tasks, its change from the
                    queue's base row, mean plan cost and mean generated nodes over the solved tasks
                    (Heller et al., Table 2, gives coverage and its change only), beside the paper's
                    Table 2 where it has the row
    Table 3         per block and classifier: the dual queue with A40 searched with that network,
                    its coverage and its change from Standard's, beside the paper's Table 3

Every number is a mean over runs, with its standard deviation over runs beside it, and for coverage
also the standard error of the mean (the sample standard deviation over √runs); a change is taken
run by run (the same teacher data and test tasks), then averaged, and tested task by task: McNemar's
exact test over the (run, task) pairs that one row solved and the other did not (`mcnemar`; three
runs give an se with 2 degrees of freedom, so "2 se" is only p ≈ 0.18). Unsolved tasks are
counted, never dropped silently. The paper's values are summarised by their mean and range over its
IPC domains (8; the hard block's 7, Storage having no hard task): other domains, so only the pattern
compares.
"""
from dataclasses import asdict
from pathlib import Path

import numpy as np
from scipy.stats import binomtest

from la.experiments.confidence_config import SIGMA_NETWORKS, Row, paper_table2, table3_row
from la.heller.paper import PAPER_OOD, PAPER_TABLE3
from la.io import write_json, write_text
from la.runs.runner import mean_std, spread

OOD_COLUMNS = ("in", "out_u", "out_w", "tau", "mae")
COVERAGE_COLUMNS = ("coverage", "cost", "generated")


def summarize(records: list) -> dict:
    """One row's results on its tasks: tasks, solved, coverage (a fraction), mean cost and mean
    generated nodes over the solved tasks (None when none was solved)."""
    solved = [r for r in records if r["solved"]]
    mean = lambda key: float(np.mean([r[key] for r in solved])) if solved else None     # noqa: E731
    return {"tasks": len(records), "solved": len(solved),
            "coverage": len(solved) / len(records) if records else None,
            "cost": mean("cost"), "generated": mean("generated")}


def ood_table(cfg, trained: list) -> list:
    """Per network (classifiers, then the FFNN and the WUNN): each column's mean and sd over runs,
    and the paper's Table 1 values where it has the network (as fractions, like ours)."""
    rows = []
    for network in (*cfg.networks, *SIGMA_NETWORKS.values()):
        mine = [t for t in trained if t["network"] == network]
        entry = {"network": network, "runs": len(mine),
                 "score": "sigma" if network in SIGMA_NETWORKS.values() else "confidence"}
        for key in (*OOD_COLUMNS, "epochs"):
            entry[key], entry[key + "_sd"] = mean_std(t[key] for t in mine if t[key] is not None)
        paper = PAPER_OOD.get(network)
        entry["paper"] = (None if paper is None
                          else dict(zip(("in", "out_u", "out_w", "tau"), np.divide(paper, 100))))
        rows.append(entry)
    return rows


def change(units: list, base_units: list) -> tuple:
    """(mean, sd, se) over runs of a row's coverage less its base row's, run by run; Nones without a
    pair."""
    base = {u["run"]: u["coverage"] for u in base_units if u["coverage"] is not None}
    return spread(u["coverage"] - base[u["run"]] for u in units
                  if u["coverage"] is not None and u["run"] in base)


def mcnemar(units: list, base_units: list) -> dict | None:
    """McNemar's exact test of a row against its base over the (run, task) pairs both searched:
    `gained` pairs only the row solved, `lost` only the base did; p, two-sided, from
    Binomial(gained + lost, 1/2) (McNemar 1947). None without per-task records on both sides."""
    base = {(u["run"], r["id"]): r["solved"] for u in base_units for r in u.get("records", [])}
    pairs = [(r["solved"], base[u["run"], r["id"]]) for u in units for r in u.get("records", [])
             if (u["run"], r["id"]) in base]
    if not pairs:
        return None
    gained = sum(mine and not theirs for mine, theirs in pairs)
    lost = sum(theirs and not mine for mine, theirs in pairs)
    p = 1.0 if gained + lost == 0 else float(binomtest(gained, gained + lost).pvalue)
    return {"pairs": len(pairs), "gained": gained, "lost": lost, "p": p}


def base_row(row: Row) -> Row | None:
    """The row whose coverage `row` changes (Heller et al., Table 2): the base of its queue and
    block; None for a base row, GBFS with the classical heuristic and Table 3's rows of other
    networks (`table3` compares those)."""
    if row.signal == "classical" or row.method == "base" or row.network is not None:
        return None
    return Row("softmax", row.queue, block=row.block)


def paper_summary(values, kind: str) -> dict | None:
    """The paper's values over its IPC domains (None where it has none), their mean and range;
    `kind` says whether they are coverages or changes of coverage (fractions, as ours)."""
    if values is None:
        return None
    known = [v for v in values if v is not None]
    return {"kind": kind, "values": list(values), "mean": float(np.mean(known)), "min": min(known),
            "max": max(known), "domains": len(known)}


def paper_domains(block: str) -> int:
    """How many of the paper's IPC domains a block's means are over: 8, the hard block's 7 (Storage
    has no hard task)."""
    return sum(v is not None for v in PAPER_TABLE3[block]["Standard"])


def _units(searched: list) -> dict:
    by_name = {}
    for unit in searched:
        by_name.setdefault(unit["name"], []).append(unit)
    return by_name


def coverage_table(cfg, searched: list) -> list:
    """Per row of `cfg.rows()`: coverage (mean, sd, se), its change from the base row, mean cost and
    mean generated nodes (mean and sd over runs), and the paper's Table 2 values of the row, if it
    has them."""
    by_name, rows = _units(searched), []
    for row in cfg.rows():
        mine = by_name.get(row.name, [])
        entry = {"row": row.name, **asdict(row), "runs": len(mine),
                 "tasks": mine[0]["tasks"] if mine else 0, "solved": [s["solved"] for s in mine]}
        for key in COVERAGE_COLUMNS:
            entry[key], entry[key + "_sd"] = mean_std(s[key] for s in mine if s[key] is not None)
        entry["coverage_se"] = spread(s["coverage"] for s in mine if s["coverage"] is not None)[2]
        base = base_row(row)
        entry["base"] = None if base is None else base.name
        entry["change"], entry["change_sd"], entry["change_se"] = (
            (None, None, None) if base is None else change(mine, by_name.get(base.name, [])))
        entry["mcnemar"] = None if base is None else mcnemar(mine, by_name.get(base.name, []))
        paper = paper_table2(row)
        entry["paper"] = paper_summary(paper, "coverage" if row.method == "base" else "change")
        rows.append(entry)
    return rows


TABLE3_ORDER = ("Standard", "W50", "W90", "U50", "U90")      # Heller et al., Table 3's order


def table3(cfg, searched: list) -> list:
    """Per block and classifier: the dual queue with A40 searched with it (Heller et al., Table 3):
    coverage and, but for Standard, its change from Standard's row, run by run; the paper's values
    of the same block."""
    by_name, table = _units(searched), []
    networks = ([n for n in TABLE3_ORDER if n in cfg.networks]
                + [n for n in cfg.networks if n not in TABLE3_ORDER])
    for block in cfg.blocks:
        standard = by_name.get(table3_row(cfg, block, "Standard").name, [])
        for network in networks:
            row = table3_row(cfg, block, network)
            mine = by_name.get(row.name, [])
            entry = {"block": block, "network": network, "row": row.name, "runs": len(mine),
                     "tasks": mine[0]["tasks"] if mine else 0,
                     "solved": [s["solved"] for s in mine]}
            entry["coverage"], entry["coverage_sd"], entry["coverage_se"] = spread(
                s["coverage"] for s in mine if s["coverage"] is not None)
            entry["change"], entry["change_sd"], entry["change_se"] = (
                (None, None, None) if network == "Standard" else change(mine, standard))
            entry["mcnemar"] = None if network == "Standard" else mcnemar(mine, standard)
            entry["paper"] = paper_summary(PAPER_TABLE3[block].get(network),
                                           "coverage" if network == "Standard" else "change")
            table.append(entry)
    return table


def _cell(value, spec: str, width: int) -> str:
    return f"{'—':>{width}}" if value is None else f"{value:{width}{spec}}"


def _points(r: dict, key: str, signed: bool = False) -> str:
    """A coverage (or change) in %: the mean, and over several runs ± sd (se)."""
    mean = r.get(key)
    if mean is None:
        return "—"
    text = f"{100 * mean:+.1f}" if signed else f"{100 * mean:.1f}"
    if r.get(key + "_se") is not None:                                  # one run has no spread
        text += f" ± {100 * r[key + '_sd']:.1f} ({100 * r[key + '_se']:.1f})"
    return text


def _p(r: dict) -> str:
    """McNemar's p of a change (`mcnemar`), blank without one."""
    test = r.get("mcnemar")
    return "" if test is None else f"{test['p']:.2g}" if test["p"] >= 0.001 else "<0.001"


def _paper(summary: dict | None) -> str:
    """The paper's values as mean [min, max] in %, a change signed."""
    if summary is None:
        return ""
    sign = "+" if summary["kind"] == "change" else ""
    return (f"{100 * summary['mean']:{sign}.1f} [{100 * summary['min']:{sign}.0f}, "
            f"{100 * summary['max']:{sign}.0f}]")


def format_tables(record: dict) -> str:
    """The tables as text: OOD, coverage per block, and Table 3 when the record has it."""
    lines = [f"OOD table, {record['domain']} ({len(record['runs'])} run(s)); held-out teacher "
             f"states, noise inputs; the paper's Table 1 is over IPC domains",
             f"{'network':>9} | {'In':>7} {'Out-U':>7} {'Out-W':>7} {'τ':>6} {'|err|':>6} | "
             f"{'paper: In':>9} {'Out-U':>6} {'Out-W':>6} {'τ':>6}"]
    for r in record["ood"]:
        sigma = r["score"] == "sigma"
        spec = ".2f" if sigma else ".1%"
        mine = " ".join(_cell(r[k], spec, 7) for k in ("in", "out_u", "out_w"))
        paper = "(median σ, cost units)" if sigma else " ".join(
            _cell(r["paper"][k] if r["paper"] else None, ".1%", w) for k, w in
            (("in", 9), ("out_u", 6), ("out_w", 6), ("tau", 6)))
        lines.append(f"{r['network']:>9} | {mine} {_cell(r['tau'], '.3f', 6)} "
                     f"{_cell(r['mae'], '.1f', 6)} | {paper}")
    cfg = record["config"]
    budgets = {"moderate": cfg["node_limit"], "hard": cfg.get("hard_node_limit")}
    spread_note = ("; in %, mean ± sd (standard error) over runs" if len(record["runs"]) > 1
                   else "; in %")
    for block in cfg.get("blocks", ["moderate"]):
        rows = [r for r in record["coverage"] if r.get("block", "moderate") == block]
        lines += ["", f"Coverage table, {record['domain']}, {block} block: {len(cfg['instances'])} "
                      f"test tasks, {budgets[block]:,} nodes each; h^NN from "
                      f"{cfg['search_network']} (Table 3's rows: their own){spread_note}; change: "
                      f"from the queue's base row, p: McNemar's over runs x tasks; cost and "
                      f"nodes over solved tasks; paper: "
                      f"Heller et al.'s Table 2, mean [min, max] over {paper_domains(block)} IPC "
                      f"domains, their P "
                      f"beside la's PA",
                  f"{'row':>23} | {'coverage':>20} {'change':>20} {'p':>6} | {'mean cost':>9} "
                  f"{'mean nodes':>10} | paper"]
        for r in rows:
            lines.append(f"{r['row']:>23} | {_points(r, 'coverage'):>20} "
                         f"{_points(r, 'change', True):>20} {_p(r):>6} | "
                         f"{_cell(r['cost'], ',.1f', 9)} "
                         f"{_cell(r['generated'], ',.0f', 10)} | {_paper(r.get('paper'))}")
        if not any(r["coverage"] for r in rows):
            lines.append(f"No row solved a test task within {budgets[block]:,} nodes, GBFS with "
                         f"the classical heuristic included: a budget too small for these tasks "
                         f"(as --quick's is on the 24-puzzle).")
    for block in cfg.get("blocks", []) if record.get("table3") else []:
        lines += ["", f"Table 3, {block} block: the dual queue with A40 searched with each "
                      f"network; coverage and its change from Standard{spread_note}, p: "
                      f"McNemar's over runs x tasks; paper: Heller et al.'s Table 3 ({block}), "
                      f"mean [min, max] over {paper_domains(block)} IPC domains",
                  f"{'network':>9} | {'coverage':>20} {'change':>20} {'p':>6} | paper"]
        for r in (r for r in record["table3"] if r["block"] == block):
            lines.append(f"{r['network']:>9} | {_points(r, 'coverage'):>20} "
                         f"{_points(r, 'change', True):>20} {_p(r):>6} | {_paper(r['paper'])}")
    return "\n".join(line.rstrip() for line in lines)


def write_results(out: Path, record: dict) -> None:
    """results.json (everything the figures need), results.csv (one line per search row, run and
    task) and ood.csv (one line per network and run)."""
    write_json(out / "results.json", record)
    write_text(out / "results.csv",
               "run,row,id,optimal,solved,cost,generated,expanded,seconds,status\n" + "".join(
                   f"{t['run'] or ''},{t['name']},{r['id']},{r['optimal']},{r['solved']},"
                   f"{r['cost'] if r['solved'] else ''},{r['generated']},{r['expanded']},"
                   f"{r['seconds']:.3f},{r['status']}\n"
                   for t in record["tests"] for r in t["records"]))
    cells = lambda t: ",".join("" if t[k] is None else f"{t[k]:.6g}"             # noqa: E731
                               for k in OOD_COLUMNS)
    write_text(out / "ood.csv",
               "run,network," + ",".join(OOD_COLUMNS) + ",epochs,seconds\n" + "".join(
                   f"{t['run']},{t['network']},{cells(t)},{t['epochs']},{t['seconds']:.1f}\n"
                   for t in record["training"]))
