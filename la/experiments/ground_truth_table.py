"""The ground-truth experiment's record, table, results files and printout
(`la.experiments.ground_truth`, and `la.experiments.merge` for the folders of single runs): per row
(the learned rows, then the admissible reference), over runs, the search's columns (suboptimality,
% optimal, nodes, unsolved) beside coverage h <= h* on the three sets and the guarantee, each as
mean and sd.
"""
from dataclasses import asdict
from pathlib import Path

import numpy as np

from la.io import write_json, write_text
from la.runs.runner import mean_std

# table column -> what a run gives it (a test unit's summary, or its row of the measure unit)
COLUMNS = ("subopt", "optimal", "generated", "unsolved", "all", "plans", "searched", "held",
           "bound", "held_goal", "bound_goal")


def run_values(test: dict, measured: dict) -> dict:
    """One run's values of the table's columns for one row: percentages in %."""
    def percent(v):
        return None if v is None else 100 * v
    return {"subopt": test["subopt"], "optimal": test["optimal"], "generated": test["generated"],
            "unsolved": test["unsolved"],
            **{k: percent(measured[k]["by_h_star"]["coverage"])
               for k in ("all", "plans", "searched")},
            "held": percent(measured["held"]), "bound": percent(measured["bound"]),
            "held_goal": percent(measured["held_goal"]),
            "bound_goal": percent(measured["bound_goal"])}


def table(cfg, tests: list, measures: list, reference: list = ()) -> list:
    """Per row, the reference's last (its runs' `reference` units): each column's mean and sd over
    the runs that have it."""
    measured = {(m["run"], r["row"]): r for m in measures for r in m["rows"]}
    measured.update({(u["run"], u["row"]["row"]): u["row"] for u in reference})
    rows = []
    for row in [*cfg.rows(), *([cfg.reference] if reference else [])]:
        values = [run_values(t, measured[(t["run"], row)]) for t in tests
                  if t["row"] == row and (t["run"], row) in measured]
        entry = {"row": row, "runs": len(values)}
        for column in COLUMNS:
            present = [v[column] for v in values if v[column] is not None]
            entry[column], entry[f"{column}_sd"] = mean_std(present)
        rows.append(entry)
    return rows


def results_record(cfg, quick: bool, seed: int, runs: list, about: dict, training: list,
                   tests: list, measures: list, reference: list, conformal: list) -> dict:
    """results.json's record of runs `runs`, the units' results given in run order; `about`: the
    provenance (`la.runs.folder.provenance`, or the merge's) and the machine(s). A search's sample
    of scored states stays in its unit's unit.json (the measure unit reads it there): it is most of
    a full run's size and nothing after the measurements reads it."""
    return {"experiment": "ground_truth", "domain": cfg.domain, "arm": cfg.arm, "quick": quick,
            "seed": seed, "config": asdict(cfg), "runs": runs, **about,
            "table": table(cfg, tests, measures, reference), "training": training,
            "measures": measures, "reference": reference,
            **({"conformal": conformal} if cfg.arm == "conformal" else {}),
            "tests": [{**{k: v for k, v in t.items() if k not in ("summary", "records")},
                       "records": [{k: v for k, v in r.items() if k != "sample"}
                                   for r in t["records"]]} for t in tests]}


def write_results(out: Path, record: dict) -> None:
    """results.json (everything the figures need) and results.csv (one line per run, row and
    task)."""
    write_json(out / "results.json", record)
    head = "run,row,id,optimal,solved,cost,generated,evaluated\n"
    write_text(out / "results.csv", head + "".join(
        f"{t['run']},{t['row']},{r['id']},{r['optimal']},{r['solved']},"
        f"{r['cost'] if r['solved'] else ''},{r['generated']},{r['evaluated']}\n"
        for t in record["tests"] for r in t["records"]))


def format_table(rows: list) -> str:
    """The table as text: mean over runs (the sd in the results files)."""
    def cell(v, spec):
        return f"{'—':>9}" if v is None else format(v, spec)
    head = (f"{'row':>5} {'subopt %':>9}{'optimal %':>10}{'nodes':>13}{'unsolved':>9}  "
            f"{'h<=h*: all':>10}{'plans':>8}{'searched':>9}  {'held':>6}{'α^|π*|':>8}"
            f"{'+goal':>7}{'α^(|π*|+1)':>11}")
    lines = [head]
    for r in rows:
        lines.append(f"{r['row']:>5} {cell(r['subopt'], '9.2f')}{cell(r['optimal'], '10.1f')}"
                     f"{cell(r['generated'], '13,.0f')}{cell(r['unsolved'], '9.1f')}  "
                     f"{cell(r['all'], '10.1f')}{cell(r['plans'], '8.1f')}"
                     f"{cell(r['searched'], '9.1f')}  {cell(r['held'], '6.1f')}"
                     f"{cell(r['bound'], '8.1f')}{cell(r['held_goal'], '7.1f')}"
                     f"{cell(r['bound_goal'], '11.1f')}")
    lines.append("coverage: % of states with h <= h* (all states, or 100,000 uniform ones; the "
                 "states on the test tasks' optimal plans; those the test searches generated); "
                 "held: % of test tasks with an optimal plan whose every state before the goal "
                 "has h <= h*, beside the paper's bound α^|π*| averaged over the tasks; +goal: the "
                 "goal's h too (IDA*'s goal test reads it), beside α^(|π*|+1)")
    return "\n".join(lines)


def label_lines(measures: list) -> list:
    """Per network, the training labels against h* over all iterations, one line each run."""
    lines = []
    for m in measures:
        for which, audit in m["labels"].items():
            records = sum(a["records"] for a in audit)
            mean = (sum(a["mean_error"] * a["records"] for a in audit if a["records"])
                    / records if records else float("nan"))
            above = (sum(a["above"] * a["records"] for a in audit if a["records"])
                     / records if records else float("nan"))
            lines.append(f"run {m['run']}, {which} network: {records:,} training records, label "
                         f"− h* {mean:+.2f} on average, {100 * above:.1f} % above h*")
    return lines


def calibration_gap(measures: list) -> float:
    """The largest |observed − p| of the reliability diagram on every state, over runs."""
    return float(max(abs(d["observed"] - d["p"]) for m in measures
                     for d in m["reliability"]["all"])) if measures else float(np.nan)
