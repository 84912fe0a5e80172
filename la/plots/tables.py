"""The figures of the paper's tables from a results record: Table 2 (efficiency) as bars, and Table
1 (or Table 3, or the competing learners' rows, `la.plots.baselines`) against α, with the
calibration and the learning curves of the same suboptimality record. `all_from_suboptimality` draws
a suboptimality record's figures, Figures 1 and 2 among them on the 15-puzzle
(`la.plots.generate_task`)."""
import textwrap
from pathlib import Path

import numpy as np

from la.plots import style
from la.plots.generate_task import figure1_generate_task
from la.plots.style import or_nan, plt


def table2_efficiency(results: dict, path) -> None:
    """Table 2 as bars: Solved Train and Solved Test per LengthInc and GTP, ours (mean ± sd) beside
    the paper's."""
    rows = results["table"]
    x = np.arange(len(rows))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, key, title in zip(axes, ("solved_train", "solved_test"),
                              ("Solved Train", "Solved Test")):
        ax.bar(x - 0.2, [r[key] for r in rows], 0.4, yerr=[r[key + "_sd"] for r in rows], capsize=3,
               label=f"la, {rows[0]['runs']} run(s)", color="tab:blue")
        ax.bar(x + 0.2, [r["paper_" + key] for r in rows], 0.4, label="paper", color="tab:gray")
        ax.set_xticks(x, [r["variant"] for r in rows])
        ax.set_xlabel("LengthInc (GTP: GenerateTaskPrac)")
        ax.set_title(title)
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("% of tasks solved")
    axes[0].legend()
    fig.suptitle("Efficiency on the 15-puzzle (paper Table 2); error bars: sd over runs",
                 fontsize=11)
    fig.tight_layout()
    style.save(fig, path)


def _unsolved(row: dict) -> tuple:
    """A Table 1 row's tasks left unsolved within the test budget, and its tasks, over all its
    runs."""
    return sum(row["unsolved"]), row["tasks"] * row["runs"]


def table1_suboptimality(results: dict, path) -> None:
    """Table 1 (or Table 3) against α: suboptimality, % optimal and nodes generated, ours
    (mean ± sd) and the paper's where it gives them; the rows that are not an α (N/A, and the
    admissible baseline: MD, PDB, Gap or max-PDB) as horizontal lines named by their row.

    The averages leave out unsolved tasks (as the paper's do), so every row's unsolved count is
    printed under the panels and beside each point or line that has any: a row with few solved tasks
    can look better than it is."""
    rows = {r["row"]: r for r in results["table"]}
    alphas = [a for a in results["config"]["alphas"]]
    # N/A, baseline, Boot
    others = [r["row"] for r in results["table"]
              if r["row"] not in {str(a) for a in alphas} and " " not in r["row"]]
    # the competing learners' rows of an α (la.experiments.baselines): OP, OP4, conf
    series = {}
    for r in results["table"]:
        prefix, _, alpha = r["row"].partition(" ")
        if alpha:
            series.setdefault(prefix, []).append((float(alpha), r))
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.8))
    for ax, key, label in zip(axes, ("subopt", "optimal", "generated"),
                              ("suboptimality (%)", "solved optimally (%)",
                               "nodes generated per task")):
        # None: none solved
        ours = or_nan(rows[str(a)][key] for a in alphas)
        spread = or_nan(rows[str(a)][key + "_sd"] for a in alphas)
        # none: a run of the baselines alone (--only-baselines)
        if rows[str(alphas[0])]["runs"]:
            ax.errorbar(alphas, ours, yerr=spread, fmt="o-", capsize=3,
                        label=f"la, {rows[str(alphas[0])]['runs']} run(s)")
        # None: not in the paper
        paper = or_nan(rows[str(a)]["paper"][key] for a in alphas)
        if np.isfinite(paper).any():
            ax.plot(alphas, paper, "s--", color="tab:gray", label="paper")
        for a, y in zip(alphas, ours):
            k = _unsolved(rows[str(a)])[0]
            # upright above its point: neighbouring α's labels never meet
            if k and np.isfinite(y):
                ax.annotate(f"{k} unsolved", (a, y), xytext=(4, 8), textcoords="offset points",
                            rotation=90, ha="left", va="bottom", fontsize=7, color="tab:blue")
        for (prefix, points), fmt in zip(series.items(), ("v-", "^-", "D:")):
            ax.plot([a for a, _ in points], or_nan(r[key] for _, r in points), fmt, ms=4, lw=1,
                    label=f"{prefix} α (la)")
        for row in others:
            if rows[row][key] is not None:
                k = _unsolved(rows[row])[0]
                ax.axhline(rows[row][key],
                           color={"N/A": "tab:red", "Boot": "tab:purple"}.get(row, "tab:green"),
                           ls=":" if row == "N/A" else "-.", lw=1,
                           label=f"{row} (la)" + (f", {k} unsolved" if k else ""))
        ax.set_xlabel("α")
        ax.set_ylabel(label)
        if key == "generated":
            ax.set_yscale("log")
    # beside, over no data
    fig.legend(*axes[0].get_legend_handles_labels(), loc="center right", fontsize=8)
    fig.suptitle(results.get("title", "Suboptimality on Korf's 100 (paper Table 1); averages over "
                                      "solved tasks, error bars: sd over runs"), fontsize=11)
    counts = []
    for r in results["table"]:
        name = f"α = {r['row']}" if r["row"] in {str(a) for a in alphas} else r["row"]
        counts.append(f"{name}: %d/%d" % _unsolved(r))
    # many rows: wrap
    lines = textwrap.wrap("not solved within the test budget:   " + ",   ".join(counts), 190)
    fig.text(0.5, 0.01, "\n".join(lines), ha="center", fontsize=9)
    fig.tight_layout(rect=(0, 0.04 + 0.025 * len(lines), 0.89, 1))
    style.save(fig, path)


# the 15-puzzle's calibration states (la.rivals.calibration), for records that do not say
KORF_STATES = 5_305


def calibration(results: dict, path, key: str = "calibration") -> None:
    """For each α, the fraction of the states with known h* with y^α <= h*, beside the line y = α:
    the states along the test tasks' optimal plans (`key` "calibration"), or blocksworld's uniform
    ones ("calibration_random")."""
    rows = results[key]
    if key == "calibration":
        # older records: Korf's 100
        states = f"{results.get('calibration_states', KORF_STATES):,} states"
    else:
        states = f"{results['config']['calibration_random']:,} uniform states"
    domain = results.get("domain", "15-puzzle")
    title = (f"Calibration on {states} " if domain == "15-puzzle"
             else f"Calibration on {states} of the {domain}\n")
    alphas = np.array([r["alpha"] for r in rows])
    fig, ax = plt.subplots(figsize=(5, 4.5))
    ax.plot([0, 1], [0, 1], "k:", label="calibrated: fraction = α")
    ax.errorbar(alphas, [r["y_alpha_below_h_star"] for r in rows],
                yerr=[r["y_alpha_below_h_star_sd"] for r in rows],
                fmt="o-", capsize=3, label="y^α <= h*")
    ax.plot(alphas, [r["h_admissible"] for r in rows], "s--", label="integer h <= h* (admissible)")
    ax.set_xlabel("α")
    ax.set_ylabel("fraction of states")
    ax.set_title(title + f"with known h* ({rows[0]['runs']} run(s))", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    style.save(fig, path)


def learning_curves(results: dict, path) -> None:
    """Per iteration of LearnHeuristicPrac: tasks solved, α, β, GenerateTaskPrac task length, buffer
    size."""
    # paper §5: NumTasksPerIter
    tasks = results["config"].get("learn", {}).get("tasks_per_iter", 10)
    panels = (("solved", f"tasks solved (of {tasks})", "linear"), ("alpha", "α", "linear"),
              ("beta", "β", "log"), ("task_steps", "GenerateTaskPrac steps", "linear"),
              ("buffer", "memory buffer records", "linear"))
    fig, axes = plt.subplots(1, len(panels), figsize=(16, 3.4))
    for which, color in (("alpha", "tab:blue"), ("mean", "tab:red")):
        for i, curve in enumerate(results["learning_curves"].get(which, [])):
            x = [e["iteration"] for e in curve]
            for ax, (key, label, scale) in zip(axes, panels):
                y = [np.nan if e[key] is None else e[key] for e in curve]
                ax.plot(x, y, color=color, alpha=0.7, lw=1,
                        label=(("two outputs, y^α" if which == "alpha" else "one output, mean")
                               if i == 0 else None))
                ax.set_title(label, fontsize=10)
                ax.set_yscale(scale)
                ax.set_xlabel("iteration")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"LearnHeuristicPrac on the {results.get('domain', '15-puzzle')}, "
                 f"one line per run", fontsize=11)
    fig.tight_layout()
    style.save(fig, path)


def figure_names(results: dict) -> dict:
    """The file name of each figure of a suboptimality record: Table 1's on the 15-puzzle (records
    written before --domain are the 15-puzzle's), table3_<domain>*.png on the others, so that
    domains share a folder."""
    domain = results.get("domain", "15-puzzle")
    if domain == "15-puzzle":
        return {"table": "table1_suboptimality.png", "calibration": "calibration.png",
                "calibration_random": "calibration_uniform.png",
                "learning_curves": "learning_curves.png",
                "generate_task": "figure1_generate_task.png"}
    stem = f"table3_{domain}"
    return {"table": f"{stem}.png", "calibration": f"{stem}_calibration.png",
            "calibration_random": f"{stem}_calibration_uniform.png",
            "learning_curves": f"{stem}_learning_curves.png"}


def drawn_figures(results: dict) -> dict:
    """The figures `all_from_suboptimality` draws from this record, {kind: file name}
    (`figure_names`): the uniform calibration only with its states, the learning curves only with a
    training log (a test of saved networks may have none), Figures 1 and 2 only with a
    GenerateTaskPrac walk."""
    wanted = {"table": True, "calibration": True,
              "calibration_random": bool(results.get("calibration_random")),
              "learning_curves": any(results["learning_curves"].values()),
              "generate_task": bool(results.get("generate_task"))}
    return {kind: name for kind, name in figure_names(results).items() if wanted[kind]}


def all_from_suboptimality(results: dict, folder) -> list:
    """The figures of a suboptimality record (Table 1 or 3, `drawn_figures`), drawn into `folder`;
    returns a note for each figure it could not draw from this record."""
    folder, drawn, notes = Path(folder), drawn_figures(results), []
    draw = {"table": table1_suboptimality, "calibration": calibration,
            "learning_curves": learning_curves,
            "calibration_random": lambda r, path: calibration(r, path, "calibration_random"),
            "generate_task": figure1_generate_task}
    for kind, name in drawn.items():
        draw[kind](results, folder / name)
    if "learning_curves" not in drawn:
        notes.append("learning curves not drawn: the record holds none (the networks' folder kept "
                     "no training log)")
    if "generate_task" in drawn:
        return notes
    if "generate_task" in figure_names(results):
        notes.append("Figures 1 and 2 not drawn: the record holds no GenerateTaskPrac walk "
                     "(generate_task is null)")
    else:
        notes.append(f"Figures 1 and 2 not drawn: they show GenerateTaskPrac on 15-puzzle boards, "
                     f"and {results['domain']} runs record no walk")
    return notes
