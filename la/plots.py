"""Figures from saved results: one function per figure, each reading a results dict and writing a PNG.

Every figure is drawn from the JSON that an experiment wrote, never by hand, with the Agg backend.
"""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def table2_efficiency(results: dict, path) -> None:
    """Table 2 as bars: Solved Train and Solved Test per LengthInc and GTP, ours (mean ± sd) beside the paper's."""
    rows = results["table"]
    labels = [r["variant"] for r in rows]
    x = np.arange(len(rows))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, key, title in zip(axes, ("solved_train", "solved_test"), ("Solved Train", "Solved Test")):
        ax.bar(x - 0.2, [r[key] for r in rows], 0.4, yerr=[r[key + "_sd"] for r in rows], capsize=3,
               label=f"la ({rows[0]['runs']} run(s))", color="tab:blue")
        ax.bar(x + 0.2, [r["paper_" + key] for r in rows], 0.4, label="paper", color="tab:gray")
        ax.set_xticks(x, labels)
        ax.set_xlabel("LengthInc (GTP: GenerateTaskPrac)")
        ax.set_title(title)
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("% of tasks solved")
    axes[0].legend()
    fig.suptitle("Efficiency on the 15-puzzle (paper Table 2)", fontsize=11)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
