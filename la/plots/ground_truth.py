"""The ground-truth experiment's figures (`la.experiments.ground_truth`), from its results.json: one
figure of four panels per domain, `ground_truth_<domain>.png`, every run drawn.

- coverage: for each α, the share of states with h <= h* on every state, on the test tasks'
  optimal plans and on the searched states, against the promise P = α (paper §3);
- the guarantee: by plan length, the paper's bound α^|π*|, the exact share of tasks with an
  optimal plan all within h*, and the realised share of optimal plans, at α = 0.9 (or the first α);
- the reliability diagram of N(μ, σ_a²) against h* on every state and on the optimal plans;
- σ_e against the distance to the nearest training state, and the labels' error by iteration.
"""
from pathlib import Path

from la.plots import style
from la.plots.style import plt
from la.runs.shapes import BIG, FRACTION, MAYBE_FRACTION, Range, Records, Where, whole

SETS = {"all": "every state", "plans": "optimal plans", "searched": "searched states"}
# What the figure reads of a run's measures (a measure unit's unit.json, an entry of results.json's
# "measures"), checked by --resume and the merge before anything is drawn (la.runs.shapes).
_BINS = Records({"key": whole(), "states": whole(1), "coverage": FRACTION}, key="key")
_SET = {"by_h_star": {"coverage": FRACTION, "states": whole(), "by": _BINS}, "by_distance": _BINS}
_GUARANTEE = Records({"length": whole(), "tasks": whole(1), "bound": MAYBE_FRACTION,
                      "bound_goal?": MAYBE_FRACTION, "held": FRACTION, "held_goal?": FRACTION,
                      "realised": FRACTION}, key="length")
ROW = {"row": str, **dict.fromkeys(SETS, _SET), "held": FRACTION, "held_goal": FRACTION,
        "bound?": MAYBE_FRACTION, "bound_goal?": MAYBE_FRACTION, "guarantee": _GUARANTEE}
_AUDIT = Records({"iteration": whole(1), "records": whole(), "mean_error": Range(null=True),
                  "above": MAYBE_FRACTION, "max_error": whole(-BIG, null=True)}, key="iteration")
_DIAGRAM = Records({"p": FRACTION, "observed": FRACTION}, key="p")
MEASURE = {"run": whole(1),
           "rows": Where(Records(ROW, key="row"),
                         lambda rows: any(r["row"] != "N/A" for r in rows), "has no row of an α"),
           "reliability": {"all": _DIAGRAM, "plans": _DIAGRAM},
           "sigma_e": Records({"key": whole(), "states": whole(1), "mean": Range(0),
                               "median?": Range(0)}, key="key"),
           "labels": {"alpha": _AUDIT, "mean?": _AUDIT}}


def _alpha_rows(measure: dict) -> list:
    return [r for r in measure["rows"] if r["row"] != "N/A"]


def coverage(ax, record: dict) -> None:
    for m in record["measures"]:
        rows = _alpha_rows(m)
        alphas = [float(r["row"]) for r in rows]
        for (name, label), marker in zip(SETS.items(), "osD"):
            ax.plot(alphas, [r[name]["by_h_star"]["coverage"] for r in rows], marker + "-",
                    ms=4, label=label if m is record["measures"][0] else None)
    ax.plot([0, 1], [0, 1], "k:", label="P = α (the promise)")
    ax.set(xlabel="α", ylabel="share with h <= h*", title="Coverage of h = max(round(y^α), 0)")
    ax.legend(fontsize=7)


def guarantee(ax, record: dict) -> None:
    for m in record["measures"]:
        rows = _alpha_rows(m)
        row = next((r for r in rows if r["row"] == "0.9"), rows[0])
        g = row["guarantee"]
        first = m is record["measures"][0]
        length = [e["length"] for e in g]
        ax.plot(length, [e["bound"] for e in g], "k--",
                label=f"bound α^|π*| (α = {row['row']})" if first else None)
        ax.plot(length, [e["held"] for e in g], "o-", ms=3,
                label="an optimal plan within h* (the goal aside)" if first else None)
        ax.plot(length, [e["realised"] for e in g], "s-", ms=3,
                label="optimal plan found" if first else None)
    ax.set(xlabel="|π*| (h* of the start)", ylabel="share of test tasks", ylim=(-0.02, 1.02),
           title="The guarantee against what happened")
    ax.legend(fontsize=7)


def reliability(ax, record: dict) -> None:
    for m in record["measures"]:
        for name, marker in zip(("all", "plans"), "os"):
            diagram = m["reliability"][name]
            ax.plot([d["p"] for d in diagram], [d["observed"] for d in diagram], marker + "-",
                    ms=3, label=SETS[name] if m is record["measures"][0] else None)
    ax.plot([0, 1], [0, 1], "k:", label="calibrated")
    ax.set(xlabel="p (quantile of N(μ, σ_a²))", ylabel="share with h* <= the p-quantile",
           title="Reliability of σ_a")
    ax.legend(fontsize=7)


def sigma_e(ax, record: dict) -> None:
    for m in record["measures"]:
        rows = m["sigma_e"]
        ax.plot([r["key"] for r in rows], [r["mean"] for r in rows], "o-", ms=3,
                label=f"run {m['run']}")
        audit = m["labels"]["alpha"]
        twin = ax.twiny() if m is record["measures"][0] else twin
        twin.plot([a["iteration"] for a in audit if a["records"]],
                  [a["mean_error"] for a in audit if a["records"]], "r.", ms=3)
    twin.set_xlabel("training iteration (red: mean label − h*, α network)", color="r",
                    fontsize=8)
    ax.axhline(1.0, color="k", ls=":", label="ε = 1")
    ax.set(xlabel="distance to the nearest training state (moves)",
           ylabel="σ_e (mean, cost units)")
    ax.legend(fontsize=7)


def draw(record: dict, out) -> list:
    """The figure into `out`; returns its file name."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 8.5))
    coverage(axes[0][0], record)
    guarantee(axes[0][1], record)
    reliability(axes[1][0], record)
    sigma_e(axes[1][1], record)
    arm = record.get("arm", "paper")              # a record made before the arms: the paper's
    fig.suptitle(f"Ground truth on the {record['domain']}: runs {record['runs']}"
                 + ("" if arm == "paper" else f", the {arm} arm")
                 + (" (a smoke run)" if record.get("quick") else ""), fontsize=11)
    fig.tight_layout()
    name = f"ground_truth_{record['domain']}.png"
    style.save(fig, Path(out) / name)
    return [name]
