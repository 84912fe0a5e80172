"""Every figure of the reproduction, regenerated from saved results: `python -m la.plots`.

One function per figure; each reads a results record (the `results.json` an experiment wrote) and writes one
PNG with the Agg backend. The records the committed figures come from are committed beside them,
`figures/efficiency.json`, `figures/suboptimality.json` (Table 1, the 15-puzzle) and, per Table 3 domain,
`figures/table3_<domain>.json`, each with the command and commit that made it.

    python -m la.plots                                   # redraw figures/*.png from figures/*.json
    python -m la.plots --efficiency results/efficiency-paper/results.json --suboptimality \\
        results/suboptimality-full/results.json --copy   # adopt new results, then redraw
    python -m la.plots --table3 results/table3-24-pancake-full/results.json --copy   # adopt a Table 3 record
    python -m la.plots --confidence results/confidence-15-puzzle/results.json --copy   # and a confidence record

A Table 3 record (`la.experiments.suboptimality --domain D`) draws figures/table3_<D>.png, with its
calibration (`table3_<D>_calibration.png`; on blocksworld also `_calibration_uniform.png`, uniform states) and
learning curves (`table3_<D>_learning_curves.png`). Figures 1 and 2 draw GenerateTaskPrac on 15-puzzle boards,
so only 15-puzzle records hold their data; on the other domains they are skipped, and said so. A confidence
record (`la.experiments.confidence --domain D`, figures/confidence_<D>.json) draws its two figures
(`la.plots_confidence`), the records of the baselines beside saved networks (figures/baselines_<D>*.json) their
two (`la.plots_baselines`); Figures 1 and 2 are drawn by `la.plots_generate_task`.
"""
import shutil
import sys
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from la.cli import Parser, existing_file, out_folder, run  # noqa: E402
from la.plots_records import read_record, read_table3  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"
TUTORIAL_FIGURES = FIGURES / "tutorials"          # ignored by git (.gitignore)


def tutorial_figure_path(tutorial) -> Path:
    """Where a tutorial (pass its `__file__`) saves its figure: figures/tutorials/<its name>.png.

    The folder is ignored by git, so reading the tutorials never changes a committed file; the committed
    figures in figures/ are drawn only by `python -m la.plots`, from committed results."""
    TUTORIAL_FIGURES.mkdir(parents=True, exist_ok=True)
    return TUTORIAL_FIGURES / f"{Path(tutorial).stem}.png"


def _save(fig, path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def table2_efficiency(results: dict, path) -> None:
    """Table 2 as bars: Solved Train and Solved Test per LengthInc and GTP, ours (mean ± sd) beside the paper's."""
    rows = results["table"]
    x = np.arange(len(rows))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, key, title in zip(axes, ("solved_train", "solved_test"), ("Solved Train", "Solved Test")):
        ax.bar(x - 0.2, [r[key] for r in rows], 0.4, yerr=[r[key + "_sd"] for r in rows], capsize=3,
               label=f"la, {rows[0]['runs']} run(s)", color="tab:blue")
        ax.bar(x + 0.2, [r["paper_" + key] for r in rows], 0.4, label="paper", color="tab:gray")
        ax.set_xticks(x, [r["variant"] for r in rows])
        ax.set_xlabel("LengthInc (GTP: GenerateTaskPrac)")
        ax.set_title(title)
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("% of tasks solved")
    axes[0].legend()
    fig.suptitle("Efficiency on the 15-puzzle (paper Table 2); error bars: sd over runs", fontsize=11)
    fig.tight_layout()
    _save(fig, path)


def _unsolved(row: dict) -> tuple:
    """A Table 1 row's tasks left unsolved within the test budget, and its tasks, over all its runs."""
    return sum(row["unsolved"]), row["tasks"] * row["runs"]


def _or_nan(values) -> list:
    """Numbers for plotting: None (no value: no solved task, or none in the paper) becomes NaN, not drawn."""
    return [np.nan if v is None else v for v in values]


def table1_suboptimality(results: dict, path) -> None:
    """Table 1 (or Table 3) against α: suboptimality, % optimal and nodes generated, ours (mean ± sd) and the
    paper's where it gives them; the rows that are not an α (N/A, and the admissible baseline: MD, PDB, Gap or
    max-PDB) as horizontal lines named by their row.

    The averages leave out unsolved tasks (as the paper's do), so every row's unsolved count is printed under the
    panels and beside each point or line that has any: a row with few solved tasks can look better than it is."""
    rows = {r["row"]: r for r in results["table"]}
    alphas = [a for a in results["config"]["alphas"]]
    others = [r["row"] for r in results["table"]                                 # N/A, baseline, Boot
              if r["row"] not in {str(a) for a in alphas} and " " not in r["row"]]
    series = {}                     # the competing learners' rows of an α (la.experiments.baselines): OP, OP4, conf
    for r in results["table"]:
        prefix, _, alpha = r["row"].partition(" ")
        if alpha:
            series.setdefault(prefix, []).append((float(alpha), r))
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.8))
    for ax, key, label in zip(axes, ("subopt", "optimal", "generated"),
                              ("suboptimality (%)", "solved optimally (%)", "nodes generated per task")):
        ours = _or_nan(rows[str(a)][key] for a in alphas)                                # None: none solved
        spread = _or_nan(rows[str(a)][key + "_sd"] for a in alphas)
        if rows[str(alphas[0])]["runs"]:            # none: a run of the baselines alone (--only-baselines)
            ax.errorbar(alphas, ours, yerr=spread, fmt="o-", capsize=3,
                        label=f"la, {rows[str(alphas[0])]['runs']} run(s)")
        paper = _or_nan(rows[str(a)]["paper"][key] for a in alphas)                      # None: not in the paper
        if np.isfinite(paper).any():
            ax.plot(alphas, paper, "s--", color="tab:gray", label="paper")
        for a, y in zip(alphas, ours):
            k = _unsolved(rows[str(a)])[0]
            if k and np.isfinite(y):                # upright above its point: neighbouring α's labels never meet
                ax.annotate(f"{k} unsolved", (a, y), xytext=(4, 8), textcoords="offset points", rotation=90,
                            ha="left", va="bottom", fontsize=7, color="tab:blue")
        for (prefix, points), style in zip(series.items(), ("v-", "^-", "D:")):
            ax.plot([a for a, _ in points], _or_nan(r[key] for _, r in points), style, ms=4, lw=1,
                    label=f"{prefix} α (la)")
        for row in others:
            if rows[row][key] is not None:
                k = _unsolved(rows[row])[0]
                ax.axhline(rows[row][key], color={"N/A": "tab:red", "Boot": "tab:purple"}.get(row, "tab:green"),
                           ls=":" if row == "N/A" else "-.", lw=1,
                           label=f"{row} (la)" + (f", {k} unsolved" if k else ""))
        ax.set_xlabel("α")
        ax.set_ylabel(label)
        if key == "generated":
            ax.set_yscale("log")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="center right", fontsize=8)   # beside, over no data
    fig.suptitle(results.get("title", "Suboptimality on Korf's 100 (paper Table 1); averages over solved tasks, "
                                      "error bars: sd over runs"), fontsize=11)
    counts = []
    for r in results["table"]:
        name = f"α = {r['row']}" if r["row"] in {str(a) for a in alphas} else r["row"]
        counts.append(f"{name}: %d/%d" % _unsolved(r))
    lines = textwrap.wrap("not solved within the test budget:   " + ",   ".join(counts), 190)   # many rows: wrap
    fig.text(0.5, 0.01, "\n".join(lines), ha="center", fontsize=9)
    fig.tight_layout(rect=(0, 0.04 + 0.025 * len(lines), 0.89, 1))
    _save(fig, path)


KORF_STATES = 5_305     # the 15-puzzle's calibration states (la.calibration), for records that do not say


def calibration(results: dict, path, key: str = "calibration") -> None:
    """For each α, the fraction of the states with known h* with y^α <= h*, beside the line y = α: the states
    along the test tasks' optimal plans (`key` "calibration"), or blocksworld's uniform ones ("calibration_random")."""
    rows = results[key]
    if key == "calibration":
        states = f"{results.get('calibration_states', KORF_STATES):,} states"     # older records: Korf's 100
    else:
        states = f"{results['config']['calibration_random']:,} uniform states"
    domain = results.get("domain", "15-puzzle")
    title = f"Calibration on {states} " if domain == "15-puzzle" else f"Calibration on {states} of the {domain}\n"
    alphas = np.array([r["alpha"] for r in rows])
    fig, ax = plt.subplots(figsize=(5, 4.5))
    ax.plot([0, 1], [0, 1], "k:", label="calibrated: fraction = α")
    ax.errorbar(alphas, [r["y_alpha_below_h_star"] for r in rows], yerr=[r["y_alpha_below_h_star_sd"] for r in rows],
                fmt="o-", capsize=3, label="y^α <= h*")
    ax.plot(alphas, [r["h_admissible"] for r in rows], "s--", label="integer h <= h* (admissible)")
    ax.set_xlabel("α")
    ax.set_ylabel("fraction of states")
    ax.set_title(title + f"with known h* ({rows[0]['runs']} run(s))", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)


def learning_curves(results: dict, path) -> None:
    """Per iteration of LearnHeuristicPrac: tasks solved, α, β, GenerateTaskPrac task length, buffer size."""
    tasks = results["config"].get("learn", {}).get("tasks_per_iter", 10)          # paper §5: NumTasksPerIter
    panels = (("solved", f"tasks solved (of {tasks})", "linear"), ("alpha", "α", "linear"), ("beta", "β", "log"),
              ("task_steps", "GenerateTaskPrac steps", "linear"), ("buffer", "memory buffer records", "linear"))
    fig, axes = plt.subplots(1, len(panels), figsize=(16, 3.4))
    for which, color in (("alpha", "tab:blue"), ("mean", "tab:red")):
        for i, curve in enumerate(results["learning_curves"].get(which, [])):
            x = [e["iteration"] for e in curve]
            for ax, (key, label, scale) in zip(axes, panels):
                y = [np.nan if e[key] is None else e[key] for e in curve]
                ax.plot(x, y, color=color, alpha=0.7, lw=1,
                        label=("two outputs, y^α" if which == "alpha" else "one output, mean") if i == 0 else None)
                ax.set_title(label, fontsize=10)
                ax.set_yscale(scale)
                ax.set_xlabel("iteration")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"LearnHeuristicPrac on the {results.get('domain', '15-puzzle')}, one line per run", fontsize=11)
    fig.tight_layout()
    _save(fig, path)


def figure_names(results: dict) -> dict:
    """The file name of each figure of a suboptimality record: Table 1's on the 15-puzzle (records written
    before --domain are the 15-puzzle's), table3_<domain>*.png on the others, so that domains share a folder."""
    domain = results.get("domain", "15-puzzle")
    if domain == "15-puzzle":
        return {"table": "table1_suboptimality.png", "calibration": "calibration.png",
                "calibration_random": "calibration_uniform.png", "learning_curves": "learning_curves.png",
                "generate_task": "figure1_generate_task.png"}
    stem = f"table3_{domain}"
    return {"table": f"{stem}.png", "calibration": f"{stem}_calibration.png",
            "calibration_random": f"{stem}_calibration_uniform.png", "learning_curves": f"{stem}_learning_curves.png"}


def all_from_suboptimality(results: dict, folder) -> list:
    """The figures of a suboptimality record (Table 1 or 3, `figure_names`), drawn into `folder`; returns a
    note for each figure it could not draw from this record (Figures 1 and 2 need a 15-puzzle walk)."""
    folder, names, notes = Path(folder), figure_names(results), []
    table1_suboptimality(results, folder / names["table"])
    calibration(results, folder / names["calibration"])
    if results.get("calibration_random"):
        calibration(results, folder / names["calibration_random"], "calibration_random")
    learning_curves(results, folder / names["learning_curves"])
    if results.get("generate_task"):
        from la.plots_generate_task import figure1_generate_task     # it draws with this module's helpers
        figure1_generate_task(results, folder / names["generate_task"])
    elif "generate_task" in names:
        notes.append("Figures 1 and 2 not drawn: the record holds no GenerateTaskPrac walk (generate_task is null)")
    else:
        notes.append(f"Figures 1 and 2 not drawn: they show GenerateTaskPrac on 15-puzzle boards, and "
                     f"{results['domain']} runs record no walk")
    return notes


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.plots", description="Regenerate every figure from saved results.")
    parser.add_argument("--efficiency", type=existing_file, default=FIGURES / "efficiency.json",
                        help="the efficiency experiment's results.json (default figures/efficiency.json)")
    parser.add_argument("--suboptimality", type=existing_file, default=FIGURES / "suboptimality.json",
                        help="the 15-puzzle suboptimality experiment's results.json (default "
                             "figures/suboptimality.json)")
    parser.add_argument("--table3", type=existing_file, action="append", metavar="FILE",
                        help="a Table 3 record (the results.json of la.experiments.suboptimality --domain D), once "
                             "per domain (default: every figures/table3_<domain>.json there is)")
    parser.add_argument("--confidence", type=existing_file, action="append", metavar="FILE",
                        help="a confidence record (the results.json of la.experiments.confidence --domain D), once "
                             "per domain (default: every figures/confidence_<domain>.json there is)")
    parser.add_argument("--baselines", type=existing_file, action="append", metavar="FILE",
                        help="a record of the baselines beside saved networks (suboptimality --only-baselines); "
                             "the records of a domain are drawn as one (default: every figures/baselines_*.json)")
    parser.add_argument("--diagnostics", type=existing_file, default=None,
                        help="the diagnostics experiment's diagnostics.json (default figures/diagnostics.json "
                             "when it is there)")
    parser.add_argument("--out", type=out_folder, default=FIGURES, help="where the figures go (default figures/)")
    parser.add_argument("--copy", action="store_true", help="also copy the results files into --out")
    args = parser.parse_args(argv)
    paths = {"efficiency": args.efficiency, "suboptimality": args.suboptimality}
    diagnostics = args.diagnostics or (FIGURES / "diagnostics.json" if (FIGURES / "diagnostics.json").exists()
                                       else None)
    if diagnostics:
        paths["diagnostics"] = diagnostics
    from la import plots_baselines, plots_confidence, plots_diagnostics     # they draw with this module's helpers
    records = {name: plots_diagnostics.read_diagnostics(path) if name == "diagnostics" else read_record(path, name)
               for name, path in paths.items()}      # every input, before any figure
    if records["suboptimality"].get("domain", "15-puzzle") != "15-puzzle":
        raise ValueError(f"{str(paths['suboptimality'])!r}: holds Table 3 results on the "
                         f"{records['suboptimality']['domain']}: pass it as --table3")
    for domain, (path, record) in read_table3(args.table3 or sorted(FIGURES.glob("table3_*.json"))).items():
        paths[f"table3_{domain}"], records[f"table3_{domain}"] = path, record
    confidence = args.confidence or sorted(FIGURES.glob("confidence_*.json"))
    for domain, (path, record) in plots_confidence.read_all(confidence).items():
        paths[f"confidence_{domain}"], records[f"confidence_{domain}"] = path, record
    for domain, (path, record) in plots_baselines.read_all(args.baselines
                                                          or sorted(FIGURES.glob("baselines_*.json"))).items():
        paths[f"baselines_{domain}"], records[f"baselines_{domain}"] = path, record
    for name, record in records.items():
        path = paths[name]
        if args.copy and path.resolve() != (args.out / f"{name}.json").resolve():
            args.out.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, args.out / f"{name}.json")
        if name == "efficiency":
            table2_efficiency(record, args.out / "table2_efficiency.png")
        elif name == "diagnostics":
            plots_diagnostics.all_from_diagnostics(record, args.out)
        elif name.startswith("confidence_"):
            plots_confidence.draw(record, args.out)
        elif name.startswith("baselines_"):              # beside the saved networks' own rows, if committed
            domain = name.removeprefix("baselines_")
            own = records.get("suboptimality" if domain == "15-puzzle" else f"table3_{domain}")
            if own is not None and own["config"]["alphas"] != record["config"]["alphas"]:
                print(f"{name}: drawn without the saved networks' own rows: the {domain} record given has other α")
                own = None
            plots_baselines.draw(record, args.out, own)
        else:
            for note in all_from_suboptimality(record, args.out):
                print(f"{name}: {note}")
        print(f"drew the {name} figures from {path}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
