"""Table 2's comparison (paper §5): GTP against each LengthInc setting, paired by run.

    python -m la.experiments.table2          # the committed runs of figures/efficiency-paper
    python -m la.experiments.table2 results/efficiency-paper-run1 results/efficiency-paper-run2 ...

Table 2 asks whether GenerateTaskPrac (GTP), which sets the length of its training tasks from the
WUNN's uncertainty, does better than a fixed schedule that lengthens them by LengthInc steps each
iteration. Each run trains the seven variants from its own seed and tests every one on the run's ten
test sets of 100 tasks, so the run is the unit of replication and a comparison is paired by run: per
run, GTP's Solved Test % (and Solved Train %) less the variant's; over the runs, the mean
difference, its 95 % t-interval, the paired t-test's p and the Wilcoxon signed-rank test's, with
Holm's correction over the six comparisons of each measure, and on how many runs GTP was ahead. The
folders are read as `la.experiments.merge` reads them (one experiment, one settings hash, every run
once, no gap). Only reads.
"""
import sys
from pathlib import Path

import numpy as np

from la.experiments.merge_check import check, read_folder
from la.experiments.paired import LEVEL, holm, interval, signed_rank
from la.runs.cli import Parser, existing_folder, first_paragraph, run
from la.runs.folder import ROOT

GTP = "GTP"
MEASURES = {"solved_test": "Solved Test", "solved_train": "Solved Train"}
COMMITTED = ROOT / "figures" / "efficiency-paper"


def run_folders(folder: Path) -> list:
    """The run folders under `folder` (run<K>/ holding results.json), in run order."""
    found = [p for p in folder.glob("run*")
             if p.name[3:].isdigit() and (p / "results.json").exists()]
    return sorted(found, key=lambda p: int(p.name[3:]))


def per_run(folders: list) -> tuple:
    """(runs, {variant: {measure: [% per run]}}) from checked run folders; ValueError if a run
    lacks a variant."""
    read = [read_folder(Path(f)) for f in folders]
    if read[0]["record"]["experiment"] != "efficiency":
        raise ValueError(f"{read[0]['folder']} holds a {read[0]['record']['experiment']} "
                         f"experiment, not Table 2's (efficiency)")
    runs = check(read)
    units = {(u["run"], u["variant"]): u for f in read for u in f["record"]["units"]}
    variants = read[0]["config"].variants()
    values = {}
    for v in variants:
        lacking = [r for r in runs if (r, v) not in units]
        if lacking:
            raise ValueError(f"run {lacking[0]} has no unit of variant {v!r}: finish it with "
                             f"--resume first")
        values[v] = {m: [100 * units[(r, v)][m] for r in runs] for m in MEASURES}
    return runs, values


def compare(values: dict) -> dict:
    """{measure: [one row per LengthInc setting]}: GTP less the setting, run by run, with the mean,
    interval, tests and Holm-adjusted p over the measure's comparisons."""
    out = {}
    for m in MEASURES:
        rows = []
        for v in (v for v in values if v != GTP):
            changes = np.subtract(values[GTP][m], values[v][m])
            found = interval(changes)
            mean, low, high, p = found if found else (float(changes.mean()), None, None, None)
            rows.append({"variant": v, "gtp": float(np.mean(values[GTP][m])),
                         "other": float(np.mean(values[v][m])), "changes": changes.tolist(),
                         "mean": mean, "low": low, "high": high, "p": p,
                         "wilcoxon": signed_rank(changes), "ahead": int((changes > 0).sum()),
                         "behind": int((changes < 0).sum())})
        for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
            row["holm"] = adjusted
        out[m] = rows
    return out


def _p(value) -> str:
    if value is None:
        return f"{'—':>6}"
    return f"{'<0.001':>6}" if value < 0.001 else f"{value:6.3f}"


def format_comparison(runs: list, compared: dict) -> str:
    """One block per measure: a line per LengthInc setting."""
    lines = [f"Table 2's comparison over {len(runs)} runs ({runs[0]}..{runs[-1]}): GTP less each "
             f"LengthInc setting in points of % solved, paired by run; "
             f"{100 * (1 - LEVEL):.0f} % t-interval, paired t-test and Wilcoxon signed-rank p, "
             f"Holm's correction over the {len(next(iter(compared.values())))} settings"]
    for m, rows in compared.items():
        lines += ["", f"{MEASURES[m]:<12} | {'GTP':>5} | {'it':>5} | {'GTP − it':>8} | "
                      f"{'95 % interval':>16} | {'t p':>6} | {'W p':>6} | {'Holm p':>6} | "
                      f"GTP ahead"]
        for r in rows:
            span = ("—".rjust(16) if r["low"] is None
                    else f"[{r['low']:+6.1f}, {r['high']:+6.1f}]".rjust(16))
            name = f"LengthInc {r['variant']}"
            lines.append(f"{name:<12} | {r['gtp']:5.1f} | {r['other']:5.1f} | {r['mean']:+8.1f} | "
                         f"{span} | {_p(r['p'])} | {_p(r['wilcoxon'])} | {_p(r['holm'])} | "
                         f"{r['ahead']} of {len(r['changes'])}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.experiments.table2", description=first_paragraph(__doc__))
    parser.add_argument("folders", nargs="*", type=existing_folder,
                        help="finished run folders of `la.experiments.efficiency` (default: the "
                             "run<K>/ folders of figures/efficiency-paper)")
    args = parser.parse_args(argv)
    folders = args.folders or run_folders(COMMITTED)
    if not folders:
        raise ValueError(f"{COMMITTED}: no run<K>/results.json in it")
    runs, values = per_run(folders)
    if len(runs) < 2:
        raise ValueError(f"{len(runs)} run: a paired comparison needs at least 2")
    print(format_comparison(runs, compare(values)))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
