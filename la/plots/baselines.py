"""The figures of a run of the competing learners beside saved networks
(`la.experiments.suboptimality --baselines ... --only-baselines`, `la/experiments/baselines.py`):
their rows against α, and the conformal rows' coverage. Records are
`figures/baselines_<domain>.json`; `python -m la.plots` redraws them."""
from pathlib import Path

import numpy as np

from la.plots import style
from la.plots.records import read_record
from la.plots.style import plt
from la.plots.tables import table1_suboptimality
from la.runs.shapes import FRACTION, NUMBER, Records, check_shape, whole

SETS = {"held_out": "held-out states drawn like the calibration set",
        "test_plans": "states along the test tasks' optimal plans",
        "searched": "states IDA* evaluated"}
_COVER = {"states": whole(), "conformal": FRACTION, "plain": FRACTION,
          # mean h: records since the uniform sample
          "mean_h_star?": NUMBER, "mean_h?": {"conformal": NUMBER, "plain": NUMBER}}
CONFORMAL = Records({"run": whole(1), "rows": Records({"alpha": FRACTION, "q": NUMBER,
                                                        "z_alpha": NUMBER,
                                                        **dict.fromkeys(SETS, _COVER)},
                                                       key="alpha")}, key="run")


def read_all(paths: list) -> dict:
    """The baselines records in `paths` by domain, each checked; a record of another kind is refused
    in one line naming the file. Records of one domain (Boot's run and the other baselines', say)
    are drawn as one (`merge`); the first file names them."""
    records = {}
    for path in paths:
        record, file = read_record(path, "suboptimality"), repr(str(path))
        if not only_baselines(record) or "baselines" not in record:
            raise ValueError(f"{file}: not a run of the baselines beside saved networks "
                             "(--only-baselines)")
        if record.get("conformal"):                 # empty in a run without the conformal rows
            check_shape(record["conformal"], CONFORMAL, file, "conformal")
        domain = record.get("domain", "15-puzzle")
        if domain in records:
            record = merge(records[domain][1], record, file)
            path = records[domain][0]
        records[domain] = (Path(path), record)
    return records


def only_baselines(record: dict) -> bool:
    """Whether a suboptimality record is a run of the baselines beside saved networks
    (--only-baselines); records written before the flag was show it in their command."""
    return (bool(record.get("only_baselines"))
            or "--only-baselines" in str(record.get("command", "")).split())


def merge(first: dict, second: dict, file: str) -> dict:
    """Two baselines records of one domain as one: the rows measured in either (the paper's rows,
    which such a record holds unmeasured, once) and the conformal runs of both; a row measured in
    both is refused."""
    if first["config"]["alphas"] != second["config"]["alphas"]:
        raise ValueError(f"{file}: its α rows differ from the other "
                         f"{second.get('domain', '15-puzzle')} record's")
    rows = {r["row"]: r for r in first["table"]}
    for row in second["table"]:
        if row["runs"] and rows.get(row["row"], {}).get("runs"):
            raise ValueError(f"{file}: row {row['row']!r} was measured in another "
                             "baselines record too")
        if row["runs"] or row["row"] not in rows:
            rows[row["row"]] = row
    conformal = first.get("conformal", []) + second.get("conformal", [])
    return {**first, "table": list(rows.values()), "conformal": conformal}


def figure_names(record: dict) -> dict:
    stem = f"baselines_{record.get('domain', '15-puzzle')}"
    return {"table": f"{stem}.png", "conformal": f"{stem}_conformal.png"}


def drawn_figures(record: dict, own: dict | None = None) -> dict:
    """What `draw` draws from these records, {kind: file name}: the rows, and the conformal rows'
    coverage if any."""
    names = figure_names(record)
    if own is not None:
        record = merge(own, record, "the saved networks' own record")
    return {kind: name for kind, name in names.items()
            if kind == "table" or record.get("conformal")}


def draw(record: dict, out, own: dict | None = None) -> None:
    """The rows against α (as Table 1's figure draws them) and, if there are conformal rows, their
    coverage.
    `own`: the record of the saved networks' own run (figures/suboptimality.json,
    figures/table3_<domain>.json), whose measured rows (α, N/A, the admissible baseline) are drawn
    beside the baselines'."""
    names = drawn_figures(record, own)
    if own is not None:
        record = merge(own, record, "the saved networks' own record")
    table1_suboptimality(record, Path(out) / names["table"])
    if "conformal" in names:
        conformal_coverage(record, Path(out) / names["conformal"])


def conformal_coverage(record: dict, path) -> None:
    """Per state set, the fraction of states with y ≤ h* against α: the conformal bound and the
    plain y^α, mean over runs; calibrated points lie on or above the diagonal."""
    runs = record["conformal"]
    alphas = [r["alpha"] for r in runs[0]["rows"]]
    fig, axes = plt.subplots(1, len(SETS), figsize=(13, 3.8), sharey=True)
    for ax, (key, title) in zip(axes, SETS.items()):
        for which, fmt in (("conformal", "o-"), ("plain", "s--")):
            cover = [np.mean([run["rows"][i][key][which] for run in runs])
                     for i in range(len(alphas))]
            label = "μ + σ_a·q_α (conformal)" if which == "conformal" else "y^α (plain)"
            ax.plot(alphas, cover, fmt, label=label)
        ax.plot([0, 1], [0, 1], ":", color="tab:gray", lw=1, label="y = α")
        states = runs[0]["rows"][0][key]["states"]
        ax.set_title(f"{title}\n({states:,} states per run)", fontsize=9)
        ax.set_xlim(min(alphas) - 0.05, max(alphas) + 0.05)
        ax.set_xlabel("α")
    axes[0].set_ylabel("fraction of states with y ≤ h*")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Conformal y^α on the {record.get('domain', '15-puzzle')}: coverage, "
                 f"{len(runs)} run(s)", fontsize=11)
    fig.tight_layout()
    style.save(fig, path)
