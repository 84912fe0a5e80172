"""Figures 1 and 2 of the paper from a 15-puzzle suboptimality record: GenerateTaskPrac's walk on
the boards, with the candidates' σ_e and sampling probabilities, before and after training
(`la.plots.tables` calls it)."""
import numpy as np

from la.plots import style
from la.plots.style import plt


def _board(ax, state, width, annotations=None, title=""):
    """A 15-puzzle board; `annotations` maps a position to (text, highlighted)."""
    ax.set_xlim(0, width)
    ax.set_ylim(width, 0)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title, fontsize=9)
    for p, v in enumerate(state):
        r, c = divmod(p, width)
        note = (annotations or {}).get(p)
        color = "white" if v == 0 else ("#f4a6c6" if note and note[1] else "#dde6f0")
        ax.add_patch(plt.Rectangle((c, r), 1, 1, facecolor=color, edgecolor="k"))
        if v:
            ax.text(c + 0.5, r + 0.42, str(v), ha="center", va="center", fontsize=10)
        if note:
            ax.text(c + 0.5, r + 0.82, note[0], ha="center", va="center", fontsize=7)


def _why_walk_stopped(steps: int, trace: list, epsilon: float, max_steps: int) -> str:
    """Why a GenerateTaskPrac walk ended (la/tasks.py): its step count is MaxSteps only when the cap
    stopped it (the cap is checked before each step, so it walked MaxSteps − 1 steps); otherwise its
    last sampled state's σ_e reached ε. The trace must agree, or the config describes another walk
    than the one drawn."""
    capped = steps >= max_steps
    reached = bool(trace) and trace[-1]["sigma_e"][trace[-1]["chosen"]] >= epsilon
    if capped == reached:
        raise ValueError(f"a GenerateTaskPrac walk of {steps} steps does not fit "
                         f"MaxSteps = {max_steps} and ε = {epsilon:g}: "
                         f"its last σ_e is {'at least' if reached else 'below'} ε")
    return (f"MaxSteps = {max_steps} reached" if capped
            else f"σe ≥ ε = {epsilon:g} after {steps} steps")


def figure1_generate_task(results: dict, path) -> None:
    """Figure 1 from a trained WUNN: GenerateTaskPrac's first and last steps, each candidate's σ_e
    and softmax probability on the tile that would move (the sampled one pink), and the task's
    start; Figure 2: the σ_e of the walked states before and after one more Update on that task."""
    data = results["generate_task"]
    steps = data["before"]
    # the walk is by the two-output network, config `learn`
    max_steps = results["config"]["learn"]["max_steps"]
    shown = list(range(len(steps))) if len(steps) <= 4 else [0, 1, len(steps) - 2, len(steps) - 1]
    fig, axes = plt.subplots(1, len(shown) + 2, figsize=(3 * (len(shown) + 2), 3.6),
                             gridspec_kw={"width_ratios": [1] * (len(shown) + 1) + [1.6]})
    for ax, i in zip(axes, shown):
        step = steps[i]
        state = np.array(step["state"])
        notes = {}
        for k, (cand, s, p) in enumerate(zip(step["candidates"], step["sigma_e"], step["p"])):
            # the tile there slides into the blank
            moved_from = int(np.flatnonzero(np.array(cand) == 0)[0])
            notes[moved_from] = (f"σe {s:.2f} p {p:.2f}", k == step["chosen"])
        _board(ax, state, 4, notes, f"step {i + 1} of {len(steps)}")
    why = _why_walk_stopped(data["steps"], steps, data["epsilon"], max_steps)
    _board(axes[len(shown)], data["start"], 4, title=f"task start ({why})")
    walked = [s["sigma_e"][s["chosen"]] for s in steps]
    ax = axes[-1]
    ax.plot(range(1, len(walked) + 1), walked, "o-", ms=3, label="before")
    if "sigma_e_after_update" in data:
        ax.plot(range(1, len(walked) + 1), data["sigma_e_after_update"], "s-", ms=3,
                label="after an Update on it; next walk: "
                      + _why_walk_stopped(data["steps_after"], data["after"],
                                          data["epsilon"], max_steps))
    ax.axhline(data["epsilon"], color="k", ls=":", lw=1, label="ε")
    ax.set_xlabel("step of the walk")
    ax.set_ylabel("σ_e of the sampled state")
    ax.set_title("Figure 2: the same states after training", fontsize=9)
    ax.legend(fontsize=7)
    fig.suptitle("GenerateTaskPrac with a trained WUNN (paper Figure 1)", fontsize=11)
    fig.tight_layout()
    style.save(fig, path)
