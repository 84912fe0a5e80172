"""Table 1's gap, seed by seed: what each experiment of figures/table1-gap/ changed against the
control.

    python -m la.experiments.table1_gap                  # the committed records, figures/table1-gap
    python -m la.experiments.table1_gap results/table1-gap

Reads every `<arm>/run<K>/results.json` under the folder (the suboptimality experiment's record of
seed K of that arm) and, where it is there, the seed's label audit `label-audit_<arm>-run<K>.json`
(`la.experiments.label_audit`), and prints for each seed: how the α network trained (the final α,
the last iteration still at α0 = 0.99, the share of its training tasks solved), how far above
optimal the labels of its plans of cost 30 or more were (the α network's and the single-output
network's), the share of the states of Korf's optimal plans with y^0.9 <= h*, and the test rows
α = 0.9, 0.5 and N/A (suboptimality %, % optimal, unsolved). Then each arm against the control, seed
by seed: an arm runs the control's seeds with one thing changed, so a difference on one seed is the
change's effect on that seed and the mean over seeds is the effect; the same again over the tasks
both solved, since a row's suboptimality is over its own solved tasks only. Last, over every seed of
every arm, what the α = 0.9 row goes with: its correlation (Pearson's r, Spearman's ρ) with the
labels, y^0.9 <= h*, the final α and the share of training tasks solved. Only reads.
"""
import re
import sys
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr, spearmanr, wilcoxon

from la.experiments.label_audit import LONG, columns, read_audit
from la.experiments.merge_check import SHAPES
from la.experiments.paired import EFFECT, LEVEL, POWER, interval, seeds_needed
from la.runs.cli import Parser, existing_folder, first_paragraph, run
from la.runs.folder import ROOT
from la.runs.shapes import read_results

CONTROL = "control"
# the issue's order; others after
ORDER = (CONTROL, "budget-x2", "budget-x4", "ceiling", "batched", "sampler", "oracle")
ROWS = ("0.9", "0.5", "N/A")               # the rows every arm tests
ALPHA0 = 0.99                              # α at the start of training (paper §5)


def seeds(folder: Path) -> dict:
    """{(arm, K): results.json path} for every finished seed under `folder`, arms in the issue's
    order."""
    found = {}
    for path in folder.glob("*/run*/results.json"):
        match = re.fullmatch(r"run(\d+)", path.parent.name)
        if match:
            found[(path.parent.parent.name, int(match[1]))] = path
    rank = lambda key: (ORDER.index(key[0]) if key[0] in ORDER else len(ORDER),   # noqa: E731
                        key[0], key[1])
    return dict(sorted(found.items(), key=lambda item: rank(item[0])))


def long_labels(audit: dict | None, network: str) -> float | None:
    """The audited labels of plans of cost >= 30 of `network` ("alpha" or "mean"): mean
    label/h* − 1, in %."""
    if audit is None:
        return None
    units = [u for name, u in audit["units"].items() if name.endswith("/" + network)]
    records = [r for u in units for r in u["records"]
               if r["label"] >= LONG and r["h_star"] is not None]
    return columns(records)["subopt"] if records else None


def seed_row(record: dict, audit: dict | None) -> dict:
    """One seed's training, labels, calibration and test rows, from its results record and label
    audit."""
    curves = [c for c in record["learning_curves"].get("alpha", []) if c]
    curve = curves[0] if curves else []
    alpha_net = [t for t in record["training"] if t.get("network") == "alpha"]
    calibration = {c["alpha"]: c["y_alpha_below_h_star"] for c in record.get("calibration", [])}
    rows, solved = {}, {}
    for test in record["tests"]:
        if test["row"] in ROWS:
            rows[test["row"]] = (test["subopt"], test["optimal"], test["unsolved"])
            solved[test["row"]] = {r["id"]: (r["cost"] / r["optimal"], r["generated"])
                                   for r in test["records"] if r["solved"]}
    return {"final_alpha": curve[-1]["alpha"] if curve else None,
            "held_through": max((e["iteration"] for e in curve if e["alpha"] >= ALPHA0),
                                default=None),
            "solved_train": 100 * alpha_net[0]["solved_train"] if alpha_net else None,
            "labels_alpha": long_labels(audit, "alpha"), "labels_mean": long_labels(audit, "mean"),
            "y09_below": 100 * calibration[0.9] if 0.9 in calibration else None, "rows": rows,
            "solved": solved}


def read_seeds(folder: Path) -> dict:
    """{(arm, K): seed_row} for every finished seed under `folder`; ValueError names a damaged
    file."""
    table = {}
    for (arm, k), path in seeds(folder).items():
        record = read_results(path, "suboptimality", SHAPES["suboptimality"])
        audit_path = folder / f"label-audit_{arm}-run{k}.json"
        audit = read_audit(audit_path) if audit_path.exists() else None
        table[(arm, k)] = seed_row(record, audit)
    return table


def _cell(value, spec: str, width: int) -> str:
    return f"{'—':>{width}}" if value is None else format(value, spec).rjust(width)


def format_seeds(table: dict) -> str:
    """Every seed as one line: training, labels, calibration, and the three rows (subopt % / optimal
    %, unsolved)."""
    lines = [f"{'arm':>10} {'seed':>4} | {'final α':>7} {'α0 until':>8} {'solved':>6} | "
             f"{'labels ≥ 30: α':>14} {'N/A':>5} | "
             f"{'y^0.9<=h*':>9} | " + " | ".join(f"{row:>19}" for row in ROWS)]
    for (arm, k), s in table.items():
        cells = []
        for row in ROWS:
            if row in s["rows"] and s["rows"][row][0] is not None:
                subopt, optimal, unsolved = s["rows"][row]
                cells.append(f"{subopt:6.2f} / {optimal:5.1f} ({unsolved})".rjust(19))
            else:
                cells.append(f"{'—':>19}")
        lines.append(f"{arm:>10} {k:>4} | {_cell(s['final_alpha'], '.2f', 7)} "
                     f"{_cell(s['held_through'], 'd', 8)} {_cell(s['solved_train'], '.1f', 6)} | "
                     f"{_cell(s['labels_alpha'], '.2f', 14)} {_cell(s['labels_mean'], '.2f', 5)} | "
                     f"{_cell(s['y09_below'], '.1f', 9)} | " + " | ".join(cells))
    return "\n".join(lines)


def paired(table: dict) -> list:
    """Per arm other than the control and per row: the seeds both ran, the arm's subopt % less the
    control's on each, and their mean; then the same on the tasks both solved (an arm that leaves
    the hardest tasks unsolved is not credited for their plans), with how many those were and the
    arm's mean nodes generated on them as a multiple of the control's. Rows with no common seed are
    left out."""
    out = []
    for arm in dict.fromkeys(a for a, _ in table if a != CONTROL):
        for row in ROWS:
            both = sorted(k for a, k in table if a == arm and (CONTROL, k) in table
                          and table[(arm, k)]["rows"].get(row, (None,))[0] is not None
                          and table[(CONTROL, k)]["rows"].get(row, (None,))[0] is not None)
            if both:
                changes = [table[(arm, k)]["rows"][row][0] - table[(CONTROL, k)]["rows"][row][0]
                           for k in both]
                common = [_on_common(table[(arm, k)]["solved"][row],
                                     table[(CONTROL, k)]["solved"][row])
                          for k in both]
                known = [c for c, _, _ in common if c is not None]
                out.append({"arm": arm, "row": row, "seeds": both, "changes": changes,
                            "mean": float(np.mean(changes)),
                            "common_changes": [c for c, _, _ in common],
                            "common_tasks": [n for _, n, _ in common],
                            "common_nodes": [x for _, _, x in common],
                            "common_mean": float(np.mean(known)) if known else None})
    return out


def _on_common(arm: dict, control: dict) -> tuple:
    """Over the tasks both solved ({id: (cost / optimal, generated)} each): the arm's subopt % less
    the control's, how many tasks those are, and the arm's mean generated nodes as a multiple of the
    control's; None if none."""
    ids = sorted(arm.keys() & control.keys())
    if not ids:
        return None, 0, None
    (arm_ratio, arm_nodes), (control_ratio, control_nodes) = (
        np.mean([side[i] for i in ids], axis=0) for side in (arm, control))
    return 100 * float(arm_ratio - control_ratio), len(ids), float(arm_nodes / control_nodes)


def format_paired(pairs: list) -> str:
    lines = ["Each arm against the control on the same seeds: subopt % of the arm less the "
             "control's (negative: the arm is closer to optimal); then over the tasks both solved "
             "(their number in brackets, and the arm's nodes generated on them as a multiple of "
             "the control's)",
             f"{'arm':>10} {'row':>4} | {'seeds':>8} | {'per seed':<30} | {'mean':>6} | "
             f"{'tasks both solved: per seed':<72} | {'mean':>6}"]
    for p in pairs:
        per_seed = ", ".join(f"{k}: {c:+.2f}" for k, c in zip(p["seeds"], p["changes"]))
        common = ", ".join(f"{k}: —" if c is None else f"{k}: {c:+.2f} ({n}) ×{x:.2f}"
                           for k, c, n, x in zip(p["seeds"], p["common_changes"],
                                                 p["common_tasks"], p["common_nodes"]))
        lines.append(f"{p['arm']:>10} {p['row']:>4} | {','.join(map(str, p['seeds'])):>8} | "
                     f"{per_seed:<30} | {p['mean']:+6.2f} | {common:<72} | "
                     f"{_cell(p['common_mean'], '+.2f', 6)}")
    return "\n".join(lines)


ASSOCIATED = {"labels_alpha": "labels of plans >= 30, α network",
              "y09_below": "y^0.9 <= h* on Korf's plans",
              "final_alpha": "final α", "solved_train": "training tasks solved"}


def association(table: dict, row: str = "0.9") -> list:
    """Over the seeds that have both: (what, seeds, Pearson's r, Spearman's ρ) of the row's subopt %
    with each of `ASSOCIATED`; left out where fewer than 3 seeds have both or either side is
    constant."""
    out = []
    for key, what in ASSOCIATED.items():
        pairs = [(s[key], s["rows"][row][0]) for s in table.values()
                 if s[key] is not None and s["rows"].get(row, (None,))[0] is not None]
        if len(pairs) >= 3 and all(len(set(side)) > 1 for side in zip(*pairs)):
            x, y = np.array(pairs, dtype=float).T
            out.append((what, len(pairs), float(pearsonr(x, y)[0]), float(spearmanr(x, y)[0])))
    return out


def format_association(found: list, row: str = "0.9") -> str:
    lines = [f"What the row α = {row} (subopt %) goes with, over every seed of every arm:",
             f"{'':>36} | {'seeds':>5} | {'r':>6} | {'ρ':>6}"]
    lines += [f"{what:>36} | {n:>5} | {r:+6.2f} | {rho:+6.2f}" for what, n, r, rho in found]
    return "\n".join(lines)


# --- what three seeds can and cannot say ----------------------------------------------------------

def control_spread(table: dict, row: str = "0.9") -> float | None:
    """The sample sd of the control's seeds at `row`, times √2: the sd of the change between two
    runs that share nothing (what a changed run that diverges at its first differing task is)."""
    x = [s["rows"][row][0] for (arm, _), s in table.items()
         if arm == CONTROL and s["rows"].get(row, (None,))[0] is not None]
    return float(np.sqrt(2) * np.std(x, ddof=1)) if len(x) >= 2 else None


def against_single_output(table: dict, row: str = "0.9") -> dict | None:
    """The paper's central comparison over the control's seeds: `row` against the single-output row
    (N/A) seed by seed: the mean difference of subopt %, its interval and tests, how many seeds N/A
    was better on, and the mean nodes per solved task of each (the mean of the seeds' means)."""
    both = sorted(k for arm, k in table if arm == CONTROL
                  and all(table[(arm, k)]["rows"].get(r, (None,))[0] is not None
                          for r in (row, "N/A")))
    if len(both) < 2:
        return None
    a = np.array([table[(CONTROL, k)]["rows"][row][0] for k in both])
    b = np.array([table[(CONTROL, k)]["rows"]["N/A"][0] for k in both])
    nodes = [float(np.mean([np.mean([n for _, n in table[(CONTROL, k)]["solved"][r].values()])
                            for k in both])) for r in (row, "N/A")]
    mean, low, high, p = interval(a - b)
    return {"row": row, "seeds": both, "alpha": float(a.mean()), "single": float(b.mean()),
            "mean": mean, "sd": float(np.std(a - b, ddof=1)), "low": low, "high": high, "p": p,
            "wilcoxon": float(wilcoxon(a, b).pvalue), "single_better": int((b < a).sum()),
            "nodes": nodes}


def format_statistics(pairs: list, table: dict) -> str:
    """Each arm's mean change with its 95 % interval and p, the seeds a gap-sized change needs, and
    the paper's central comparison."""
    lines = ["What the seeds can say: each arm's mean change from the control (subopt %), its 95 % "
             "t-interval and the paired t-test's p",
             f"{'arm':>10} {'row':>4} | {'seeds':>5} | {'mean':>6} | {'95 % interval':>17} | "
             f"{'p':>5}"]
    for p in pairs:
        found = interval(p["changes"])
        if found is not None:
            mean, low, high, pvalue = found
            lines.append(f"{p['arm']:>10} {p['row']:>4} | {len(p['changes']):>5} | {mean:+6.2f} | "
                         f"[{low:+6.2f}, {high:+6.2f}] | {pvalue:5.2f}")
    sd = control_spread(table)
    if sd is not None:
        lines.append(f"A change of {EFFECT:.0f} points at α = 0.9 needs {seeds_needed(sd)} seeds "
                     f"per arm to be detected with {POWER:.0%} power at the {LEVEL:.0%} level "
                     f"(two-sided), if a changed run is as independent a draw as two control "
                     f"runs: sd of the change √2 × the control's {sd / np.sqrt(2):.2f} = {sd:.2f} "
                     f"points")
    c = against_single_output(table)
    if c is not None:
        lines += ["", f"The paper's central comparison over the control's {len(c['seeds'])} "
                      f"seeds: α = {c['row']} {c['alpha']:.2f} % against the single-output row's "
                      f"{c['single']:.2f} %; per seed {c['mean']:+.2f} points (sd "
                      f"{c['sd']:.2f}, 95 % interval [{c['low']:+.2f}, {c['high']:+.2f}], paired "
                      f"t-test p = {c['p']:.3f}, Wilcoxon signed-rank p = {c['wilcoxon']:.3f}); "
                      f"the single-output row better on {c['single_better']} of {len(c['seeds'])}; "
                      f"nodes per solved task {c['nodes'][0]:,.0f} against {c['nodes'][1]:,.0f} "
                      f"({c['nodes'][0] / c['nodes'][1]:.1f} times)"]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.experiments.table1_gap",
                    description=first_paragraph(__doc__))
    parser.add_argument("folder", nargs="?", type=existing_folder,
                        default=ROOT / "figures" / "table1-gap",
                        help="the folder of the arms (default: the committed figures/table1-gap)")
    args = parser.parse_args(argv)
    table = read_seeds(args.folder)
    if not table:
        raise ValueError(f"{args.folder}: no <arm>/run<K>/results.json in it (is it Table 1's "
                         f"gap's folder?)")
    print(f"Table 1's gap, {len(table)} finished seeds in {args.folder}; labels: audited plans of "
          f"cost >= {LONG}, label / h* − 1 in %; rows: subopt % / optimal % (unsolved of 100)")
    print(format_seeds(table))
    pairs = paired(table)
    if pairs:
        print()
        print(format_paired(pairs))
    found = association(table)
    if found:
        print()
        print(format_association(found))
    if pairs:
        print()
        print(format_statistics(pairs, table))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
