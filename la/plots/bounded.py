"""The bounded-suboptimal experiment's figure (`la.experiments.bounded`), from its results.json: one
figure per domain, `bounded_<domain>.png`, of two panels.

- left: against the mean generated nodes per task (an unsolved task counts what it spent), the
  realised suboptimality (solid, over the solved tasks) and the guarantee w − 1 (dotted, where a
  task was solved) of focal search with each learned heuristic and of weighted A* on the floor, one
  point per w; the committed IDA* rows of the same networks as single points, with no guarantee;
- right: the share of tasks solved within the budget against w, IDA*'s as horizontal lines.
"""
from pathlib import Path

from la.plots import style
from la.plots.style import or_nan, plt


def label(row: dict) -> str:
    heuristic = row["heuristic"]
    name = {"focal": "focal", "wastar": "weighted A*", "ida": "IDA*"}[row["search"]]
    if heuristic is None:
        return f"{name} (floor only)"
    return f"{name}, {'μ (one output)' if heuristic == 'mean' else 'y^' + heuristic[1:]}"


def series(rows: list) -> dict:
    """label -> the rows of one search and heuristic, by w."""
    out = {}
    for row in rows:
        out.setdefault(label(row), []).append(row)
    return {k: sorted(v, key=lambda r: r["weight"] or 0) for k, v in out.items()}


def nodes_panel(ax, record: dict) -> None:
    colours = iter(plt.rcParams["axes.prop_cycle"].by_key()["color"])
    for name, rows in series(record["table"]).items():
        colour = next(colours)
        x = or_nan([r["generated_all"] for r in rows])
        if rows[0]["search"] == "ida":
            ax.plot(x, or_nan([r["subopt"] for r in rows]), "*", ms=11, color=colour, label=name)
            continue
        ax.plot(x, or_nan([r["subopt"] for r in rows]), "o-", ms=4, color=colour, label=name)
        held = [(xi, 100 * (r["weight"] - 1), r["weight"]) for r, xi in zip(rows, x)
                if r["solved"]]                    # a guarantee is drawn where a plan was found
        ax.plot([h[0] for h in held], [h[1] for h in held], ":", marker="_", color=colour)
        for xi, bound, weight in held:
            ax.annotate(f"w {weight:g}", (xi, bound), fontsize=6, color=colour, xytext=(2, 2),
                        textcoords="offset points")
    ax.set_xscale("log")
    ax.set(xlabel="mean generated nodes per task (an unsolved task: what it spent)",
           ylabel="suboptimality % (solid: realised; dotted: guarantee w − 1)",
           title="Realised suboptimality and the guarantee")
    ax.legend(fontsize=7)


def solved_panel(ax, record: dict) -> None:
    colours = iter(plt.rcParams["axes.prop_cycle"].by_key()["color"])
    for name, rows in series(record["table"]).items():
        colour = next(colours)
        share = [100 * r["solved"] / r["tasks"] if r["tasks"] else float("nan") for r in rows]
        if rows[0]["search"] == "ida":
            ax.axhline(share[0], color=colour, ls="--", lw=1, label=name)
        else:
            ax.plot([r["weight"] for r in rows], share, "o-", ms=4, color=colour, label=name)
    ax.axhline(80, color="k", ls=":", lw=0.8)
    ax.set(xlabel="w", ylabel="% of tasks solved within the budget", ylim=(-2, 102),
           title="Solved within the budget")
    ax.legend(fontsize=7)


def draw(record: dict, out) -> list:
    """The figure into `out`; returns its file name."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    nodes_panel(axes[0], record)
    solved_panel(axes[1], record)
    cfg = record["config"]
    fig.suptitle(f"Certified bounded-suboptimal search on the {record['domain']} (floor "
                 f"{cfg['floor']}, {cfg['node_limit']:,} nodes a task)"
                 + (" (a smoke run)" if record.get("quick") else ""), fontsize=11)
    fig.tight_layout()
    name = f"bounded_{record['domain']}.png"
    style.save(fig, Path(out) / name)
    return [name]
