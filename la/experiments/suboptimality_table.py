"""Table 1 and Table 3 from the suboptimality experiment's units (`la.experiments.suboptimality`):
the paper's columns per row and their spread over runs, the tasks every row solved, calibration
averaged over runs, learning curves, and the results files and figures.

A row's columns are averaged over its solved tasks, as the authors' test code does
(`Program.TestAdmissibility`), and its unsolved tasks are counted beside them, never dropped
silently.
"""
import json
from pathlib import Path

import numpy as np

from la.experiments.table3 import ROW_NAMES
from la.io import write_json, write_text
from la.rivals.calibration import ALPHAS
from la.runs.runner import mean_std, spread

COLUMNS = ("time", "generated", "subopt", "optimal")      # the paper's columns
NETWORKS = ("alpha", "mean")   # the two-output network (rows α) and the single-output one (row N/A)
BASELINE_ROWS = set(ROW_NAMES.values())     # the admissible baselines' rows: MD, PDB, Gap, max-PDB


def summarize(records: list) -> dict:
    """The paper's columns over the solved tasks (as the authors' test code averages), and the
    unsolved count."""
    solved = [r for r in records if r["solved"]]
    if not solved:
        return {"tasks": len(records), "unsolved": len(records), "time": None, "generated": None,
                "subopt": None, "optimal": None}
    return {"tasks": len(records), "unsolved": len(records) - len(solved),
            "time": float(np.mean([r["seconds"] for r in solved])),
            "generated": float(np.mean([r["generated"] for r in solved])),
            "subopt": 100 * float(np.mean([r["cost"] / r["optimal"] - 1 for r in solved])),
            "optimal": 100 * float(np.mean([r["cost"] == r["optimal"] for r in solved]))}


def solved_by_every_row(tests: list) -> list:
    """The instances that every row solved in every run: a common ground when rows leave different
    tasks unsolved (the paper's columns average each row over its own solved tasks)."""
    solved = [{r["id"] for r in t["records"] if r["solved"]} for t in tests]
    return sorted(set.intersection(*solved)) if solved else []


def table(cfg, tests: list, paper: dict, extra=()) -> list:
    """Table 1 (or 3): per row, each column's mean and spread over runs, the unsolved tasks, the
    paper's values (`paper`: row -> the four columns; None where it has none); and the same columns
    on the tasks every row solved (`common`). A baseline tested on other tasks than the learned rows
    does not count for `common`. `extra`: rows after the paper's (the competing learners',
    `la.experiments.baselines`)."""
    same = tuple(cfg.baseline_instances) == tuple(cfg.instances)
    common = set(solved_by_every_row([t for t in tests if same or t["row"] != cfg.baseline_row]))
    rows = []
    for row in [*cfg.rows(), *extra]:
        mine = [t for t in tests if t["row"] == row]
        entry = {"row": row, "runs": len(mine), "tasks": mine[0]["tasks"] if mine else 0,
                 "unsolved": [t["unsolved"] for t in mine],
                 "paper": dict(zip(COLUMNS, paper.get(row, (None,) * len(COLUMNS))))}
        for column in COLUMNS:
            entry[column], entry[column + "_sd"] = mean_std(t[column] for t in mine
                                                            if t[column] is not None)
        # how far the paper's mean lies is read in standard errors
        for column in ("subopt", "optimal"):
            entry[column + "_se"] = spread(t[column] for t in mine if t[column] is not None)[2]
        on_common = [summarize([r for r in t["records"] if r["id"] in common]) for t in mine]
        # A row tested on only some of those tasks (the 24-puzzle's `pdb`) has no columns
        # there: "—".
        tested = all(common <= {r["id"] for r in t["records"]} for t in mine)
        entry["common"] = {"tasks": len(common)}
        for column in ("generated", "subopt", "optimal"):
            values = [s[column] for s in on_common if s[column] is not None]
            entry["common"][column] = mean_std(values)[0] if tested else None
        rows.append(entry)
    return rows


def _paper_cells(values) -> str:
    """The paper's four columns as format_table prints them, "?" where the paper gives none."""
    cells = [(values["time"], "11.2f", 11, ""), (values["generated"], "12,.0f", 12, ""),
             (values["subopt"], "5.2f", 5, "%"), (values["optimal"], "6.1f", 6, "%")]
    return " ".join(f"{'?':>{width + len(unit)}}" if v is None else f"{v:{spec}}{unit}"
                    for v, spec, width, unit in cells)


def format_table(rows: list, boot=None) -> str:
    """Table 1 or 3 as text: the paper's columns over each row's solved tasks, then over the tasks
    all rows solved; with `boot`, the paper's Boot row (quoted, not run) at the end."""
    lines = [f"{'α':>9} {'runs':>4} | {'time s':>8} {'generated':>13} {'subopt %':>15} "
             f"{'optimal %':>15} {'unsolved':>8} | {'paper: time':>11} {'generated':>12} "
             f"{'subopt':>6} {'optimal':>7}"]
    for r in rows:
        if r["subopt"] is None:
            mine = f"{'—':>8} {'—':>13} {'—':>15} {'—':>15}"
        else:
            spread = r["runs"] > 1          # one run has no spread: print none rather than ± 0
            subopt_sd = f"{r['subopt_sd']:5.2f}" if spread else f"{'—':>5}"
            optimal_sd = f"{r['optimal_sd']:5.1f}" if spread else f"{'—':>5}"
            mine = (f"{r['time']:8.2f} {r['generated']:13,.0f} {r['subopt']:7.2f} ± {subopt_sd} "
                    f"{r['optimal']:7.1f} ± {optimal_sd}")
        lines.append(f"{r['row']:>9} {r['runs']:>4} | {mine} "
                     f"{sum(r['unsolved']):>4}/{r['tasks'] * r['runs']:<3} | "
                     + _paper_cells(r["paper"]))
    if boot is not None:
        lines.append(f"{'Boot':>9} {'':>4} | "
                     f"{'the paper only: Arfaee, Zilles & Holte (2010), other test tasks':<63} | "
                     + _paper_cells(dict(zip(COLUMNS, boot))))
    learned = [r for r in rows if r["runs"] and r["row"] not in BASELINE_ROWS]
    if learned and all(r["subopt"] is None for r in learned):
        lines.append("No learned row solved a test task within its budget (expected at --quick's "
                     "toy scale: its networks have seen only states a few steps from the goal).")
    lines += standard_errors(rows)
    tasks = rows[0]["common"]["tasks"] if rows else 0
    lines.append(f"\nThe same columns on the {tasks} task(s) that every row solved in every run "
                 f"(mean over runs):")
    lines.append(f"{'α':>9} | {'generated':>13} {'subopt %':>9} {'optimal %':>9}")
    for r in rows:
        c = r["common"]
        lines.append(f"{r['row']:>9} | " + (f"{'—':>13} {'—':>9} {'—':>9}" if c["subopt"] is None
                                            else f"{c['generated']:13,.0f} {c['subopt']:9.2f} "
                                                 f"{c['optimal']:9.1f}"))
    return "\n".join(lines)


def standard_errors(rows: list) -> list:
    """The lines that read each row's distance from the paper's mean in standard errors of ours
    (rows of two or more runs with a paper value); [] when no row has them."""
    def cell(r, column, spec):
        if r[column + "_se"] is None:
            return f"{'—':>9} {'—':>16}"
        paper = r["paper"][column]
        distance = ("—" if paper is None or r[column + "_se"] == 0
                    else f"{(r[column] - paper) / r[column + '_se']:+.1f}")
        return f"{r[column + '_se']:{spec}} {distance:>16}"
    shown = [r for r in rows if r.get("subopt_se") is not None]
    if not shown:
        return []
    return ["\nThe standard error of each mean over runs (the sample sd / √runs; the ± above is "
            "the population sd), and how many of them our mean lies above the paper's:",
            f"{'α':>9} {'runs':>4} | {'subopt se':>9} {'(ours − paper)/se':>16} | "
            f"{'optimal se':>9} {'(ours − paper)/se':>16}",
            *(f"{r['row']:>9} {r['runs']:>4} | {cell(r, 'subopt', '9.2f')} | "
              f"{cell(r, 'optimal', '9.1f')}" for r in shown)]


def calibration_table(results: list, key: str = "calibration") -> list:
    """Per α, the fraction of states with y^α <= h* (and h <= h*, and where an encoding has a floor
    h_ad, with round(y^α) > h_ad) averaged over runs; `key` names which states
    ("calibration_random": blocksworld's uniform ones)."""
    rows = []
    for i, alpha in enumerate(ALPHAS):
        below = [r[key][i]["y_alpha_below_h_star"] for r in results]
        admissible = [r[key][i]["h_admissible"] for r in results]
        above = [r[key][i].get("network_above_h_ad") for r in results]
        rows.append({"alpha": alpha, "y_alpha_below_h_star": mean_std(below)[0],
                     "y_alpha_below_h_star_sd": mean_std(below)[1],
                     "h_admissible": mean_std(admissible)[0],
                     "network_above_h_ad": None if None in above else mean_std(above)[0],
                     "runs": len(results)})
    return rows


def learning_curves(out: Path, runs: int) -> dict:
    """Per network and run: per iteration tasks solved, α, β, mean GenerateTaskPrac steps, buffer
    size."""
    curves = {}
    for which in NETWORKS:
        curves[which] = []
        for r in range(1, runs + 1):
            path = out / f"run{r}" / which / "train_log.json"
            if path.exists():
                log = json.loads(path.read_text(encoding="utf-8"))
                curves[which].append([{"iteration": e["iteration"], "solved": e["solved"],
                                       "alpha": e["alpha"], "beta": e["beta"],
                                       "buffer": e["buffer"],
                                       "task_steps": float(np.mean([t["steps"]
                                                                    for t in e["tasks"]]))}
                                      for e in log])
    return curves


def reductions(cfg, full) -> list:
    """What `cfg` runs at a smaller scale than `full`, the paper's protocol: one phrase each, [] for
    none."""
    said = []
    for what, key in (("NumIter", "num_iter"), ("t_max in nodes", "node_limit"),
                      ("MaxSteps", "max_steps"), ("TrainIter", "train_iter"),
                      ("WUNN blocks", "wunn_blocks")):
        mine, paper = getattr(cfg.learn, key), getattr(full.learn, key)
        if mine != paper:
            said.append(f"{what} {mine:,} (paper: {paper:,})")
    if tuple(cfg.alphas) != tuple(full.alphas):
        said.append(f"only the α rows {', '.join(map(str, cfg.alphas))}")
    for what, mine, paper in (("test tasks", cfg.instances, full.instances),
                              ("baseline's tasks", cfg.baseline_instances,
                               full.baseline_instances)):
        if tuple(mine) != tuple(paper):
            said.append(f"{what} {len(mine)} of {len(paper)}")
    for what, mine, paper in (("nodes per test task", cfg.test_node_limit, full.test_node_limit),
                              ("baseline's nodes per task", cfg.baseline_node_limit,
                               full.baseline_node_limit),
                              ("uniform calibration states", cfg.calibration_random,
                               full.calibration_random)):
        if mine != paper:
            said.append(f"{what} {mine:,} (full: {paper:,})")
    return said


def write_results(out: Path, record: dict, tests: list) -> None:
    """results.json (everything the figures need) and results.csv (one line per row, run and
    task)."""
    write_json(out / "results.json", record)
    write_text(out / "results.csv", "run,row,id,optimal,solved,cost,generated,seconds\n" + "".join(
        f"{t['run'] or ''},{t['row']},{r['id']},{r['optimal']},{r['solved']},"
        f"{r['cost'] if r['solved'] else ''},{r['generated']},{r['seconds']:.3f}\n"
        for t in tests for r in t["records"]))


def draw(record: dict, out: Path) -> list:
    """The figures into the results folder, named as `la.plots.tables.figure_names` says: the
    15-puzzle's four, or Table 3's, its calibration and learning curves (and, on blocksworld,
    calibration on uniform states).
    Returns a note for each figure the record cannot give (Figures 1 and 2 off the 15-puzzle). A run
    of the baselines alone (--only-baselines) draws theirs (`la.plots.baselines`)."""
    from la.plots import baselines as plots_baselines
    from la.plots import tables as plots_tables
    if plots_baselines.only_baselines(record):
        plots_baselines.draw(record, out)
        return []
    return plots_tables.all_from_suboptimality(record, out)
