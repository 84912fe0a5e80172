"""The bounded-suboptimal experiment's rows, results files and printout (`la.experiments.bounded`):
per (search, heuristic, w) the largest certified ratio, the realised suboptimality and share of
optimal plans against the known optimal costs, nodes, time, memory and the tasks not solved within
the budget; beside them the committed IDA* rows of Tables 1 and 3 with the same networks, read from
their records, not run again.
"""
import json
from pathlib import Path

import numpy as np

from la.experiments.bounded_config import HEURISTICS, IDA_ROWS, record_path
from la.io import write_json, write_text
from la.search.best_first import within

CSV_FIELDS = ("id", "optimal", "solved", "status", "cost", "lower_bound", "certified_ratio",
              "generated", "expanded", "reopened", "stored", "peak_bytes")


def _mean(values) -> float | None:
    return float(np.mean(values)) if len(values) else None


def _max(values):
    return max(values) if len(values) else None


def violations(records: list, weight: float) -> int:
    """Tasks whose certificate is contradicted by the known C*: cost > w·C* or LB > C*."""
    return sum(1 for r in records
               if (r["solved"] and r["cost"] > within(weight, r["optimal"]))
               or (r.get("lower_bound") is not None and r["lower_bound"] > r["optimal"]))


def summarize(records: list, weight: float | None = None) -> dict:
    """A row's columns: suboptimality (cost / C* − 1, paper footnote 2), % optimal, nodes and time
    over the solved tasks, as Tables 1 and 3; nodes over every task too (an unsolved one counts its
    budget's worth), the largest search memory, and (with a w) the certificates' violations."""
    solved = [r for r in records if r["solved"]]
    subopt = [100 * (r["cost"] / r["optimal"] - 1) for r in solved]
    ratios = [r["certified_ratio"] for r in solved if r.get("certified_ratio") is not None]
    peaks = [r["peak_bytes"] for r in records if r.get("peak_bytes") is not None]
    return {"tasks": len(records), "solved": len(solved), "unsolved": len(records) - len(solved),
            "ratio_max": _max(ratios), "subopt": _mean(subopt), "subopt_max": _max(subopt),
            "optimal": _mean([100.0 * (r["cost"] == r["optimal"]) for r in solved]),
            "generated": _mean([r["generated"] for r in solved]),
            "generated_all": _mean([r["generated"] for r in records]),
            "seconds": _mean([r["seconds"] for r in solved]), "peak_bytes": _max(peaks),
            "violations": None if weight is None else violations(records, weight)}


def read_record(path: Path) -> dict:
    """A committed Table 1 or 3 record, checked for what the IDA* rows need."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} cannot be read as JSON ({' '.join(str(error).split())}): it "
                         f"holds the committed IDA* rows") from None
    if not (isinstance(record, dict) and isinstance(record.get("tests"), list)
            and isinstance(record.get("config"), dict)):
        raise ValueError(f"{path} is not a suboptimality record (no 'tests' and 'config')")
    return record


def ida_rows(cfg) -> list:
    """The committed IDA* rows of the same networks (y^0.9, y^0.5, the mean: Tables 1 and 3's
    rows 0.9, 0.5 and N/A of run `cfg.network_run`) on the experiment's tasks."""
    path = record_path(cfg.domain)
    record, ids = read_record(path), {t.id for t in cfg.tasks()}
    rows = []
    for heuristic in cfg.heuristics:
        test = next((t for t in record["tests"] if t.get("run") == cfg.network_run
                     and t.get("row") == IDA_ROWS[heuristic]), None)
        if test is None:
            raise ValueError(f"{path} has no row {IDA_ROWS[heuristic]} of run {cfg.network_run}")
        records = [r for r in test["records"] if r["id"] in ids]
        rows.append({"search": "ida", "heuristic": heuristic, "weight": None,
                     "node_limit": record["config"]["test_node_limit"],
                     "source": path.relative_to(path.parents[1]).as_posix(),
                     "records": records, **summarize(records)})
    return rows


def table(units: list, ida: list) -> list:
    """Every row without its task records: the searches in unit order, then the IDA* rows."""
    return [{k: v for k, v in row.items() if k not in ("records", "summary")}
            for row in units + ida]


def write_results(out: Path, record: dict) -> None:
    """results.json (everything the figure needs) and results.csv (one line per row and task)."""
    write_json(out / "results.json", record)

    def cell(value):
        return "" if value is None else str(value)
    lines = ["search,heuristic,weight," + ",".join(CSV_FIELDS) + "\n"]
    for row in record["units"] + record["ida"]:
        lines += [f"{row['search']},{cell(row['heuristic'])},{cell(row['weight'])},"
                  + ",".join(cell(r.get(f)) for f in CSV_FIELDS) + "\n" for r in row["records"]]
    write_text(out / "results.csv", "".join(lines))


def row_name(row: dict) -> str:
    """focal y^0.9, wastar, IDA* y^0.9."""
    search = {"focal": "focal", "wastar": "wA*", "ida": "IDA*"}[row["search"]]
    heuristic = row["heuristic"]
    if heuristic is None:
        return search
    mean = HEURISTICS[heuristic][1] is None
    return f"{search} {'μ (one output)' if mean else 'y^' + heuristic[1:]}"


def format_table(rows: list) -> str:
    """The rows as text (every column in results.json)."""
    def cell(v, spec, width):
        return f"{'—':>{width}}" if v is None else format(v, f"{width}{spec}")
    lines = [f"{'row':<20}{'w':>6}{'ratio max':>10}{'subopt %':>9}{'optimal %':>10}"
             f"{'nodes':>14}{'time s':>8}{'MB':>8}{'unsolved':>10}"]
    for r in rows:
        mb = None if r["peak_bytes"] is None else r["peak_bytes"] / 1e6
        lines.append(f"{row_name(r):<20}{cell(r['weight'], 'g', 6)}"
                     f"{cell(r['ratio_max'], '.3f', 10)}"
                     f"{cell(r['subopt'], '.2f', 9)}{cell(r['optimal'], '.1f', 10)}"
                     f"{cell(r['generated'], ',.0f', 14)}{cell(r['seconds'], '.2f', 8)}"
                     f"{cell(mb, ',.0f', 8)}{r['unsolved']:>5}/{r['tasks']:<4}")
    lines.append("ratio max: the largest certified ratio cost / LB (at most w); subopt, optimal, "
                 "nodes, time over the solved tasks against the known C*; MB: the largest search's "
                 "arrays; IDA* rows: the committed Table 1/3 records (no certificate)")
    return "\n".join(lines)
