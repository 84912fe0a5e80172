"""The tutorials' helper: what the main path (00-10) takes from outside the core, in one place.

A tutorial runs as a script, `python tutorials/NN_name.py`, and cell by cell (its `# %%` cells) in
a notebook. Python finds this file beside the script, in a kernel started in tutorials/, or, in a
kernel started at the repository root, through the tutorial's `sys.path.insert(0, "tutorials")`. A
notebook's cells have no `__file__`, but a module has: so this file, not the tutorial, puts the
repository on `sys.path`, and imports `la` before NumPy (one BLAS thread, one rounding:
la/__init__.py).

    ROOT, FIGURES             the repository, and its figures/ (committed results, read here)
    figure_path(name)         where a tutorial saves its figure: figures/tutorials/<name>.png
    state_text(state)         a state on one line
    train(...)                LearnHeuristicPrac (`la.learn`), printing one line per iteration

Re-exported from the shell, each from its one home:

    data                      Korf's instances and their optimal solutions (`la.data`, la/data/)
    TABLE1                    the paper's Table 1 (`la.experiments.table1.PAPER`)
    ALPHAS                    the α values calibration is measured at (`la.rivals.calibration`)
    korf_states_with_h_star   the 5,305 states along Korf's 100's optimal solutions, with h* (same)
    DOMAINS                   the paper's settings per domain (§5; `la.config`, core)
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"
sys.path.insert(0, str(ROOT))
import la  # noqa: E402,F401  (before NumPy)

import matplotlib  # noqa: E402

if "ipykernel" not in sys.modules:      # a script writes its figure to a file; a notebook shows it
    matplotlib.use("Agg")
import numpy as np  # noqa: E402

from la import data  # noqa: E402,F401
from la.config import DOMAINS  # noqa: E402,F401
from la.experiments.table1 import PAPER as TABLE1  # noqa: E402,F401
from la.learn import Learner, learn_heuristic_prac  # noqa: E402
from la.rivals.calibration import ALPHAS, korf_states_with_h_star  # noqa: E402,F401


def figure_path(name: str) -> Path:
    """Where tutorial `name` (its file's name without .py) saves its figure:
    figures/tutorials/<name>.png.

    The folder is ignored by git, so reading the tutorials never changes a committed file; the
    committed figures in figures/ are drawn only by `python -m la.plots`, from committed results."""
    if not (ROOT / "tutorials" / f"{name}.py").exists():
        raise ValueError(f"no tutorial {name!r}: expected a file's name without .py, "
                         f"e.g. '00_the_problem'")
    folder = FIGURES / "tutorials"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def state_text(state) -> str:
    """The state as one line of space-separated integers."""
    return " ".join(str(int(v)) for v in state)


def train(domain, config, rng: np.random.Generator, encoding, progress=print) -> Learner:
    """LearnHeuristicPrac (paper Alg. 2, `la.learn.learn_heuristic_prac`), with one line per
    iteration passed to `progress` (None: silent). The experiments' loop trains the same, seed for
    seed, and adds checkpoints and snapshots."""
    began = time.perf_counter()

    def after_iteration(learner: Learner) -> None:
        if progress is not None:
            progress(iteration_line(learner, time.perf_counter() - began))

    return learn_heuristic_prac(domain, config, rng, encoding, after_iteration=after_iteration)


def iteration_line(learner: Learner, seconds: float) -> str:
    """What the last iteration did (`Learner.log`), and the `seconds` since the run began."""
    e, cfg = learner.log[-1], learner.config
    alpha = "mean" if e["alpha"] is None else f"{e['alpha']:.2f}"
    steps = np.mean([t["steps"] for t in e["tasks"]])
    return (f"iter {learner.iteration:3d}/{cfg.num_iter}  solved {e['solved']:2d}/"
            f"{cfg.tasks_per_iter}  α {alpha}  β {e['beta_after']:.2e}  buffer {e['buffer']:6,d}  "
            f"task length {steps:6.1f}  nodes {e['nodes'] / 1e6:7.1f}M  {seconds:6.0f} s")
