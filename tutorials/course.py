"""The tutorials' helper: what the path to the full loop (00-10) takes from outside the core, in one
place, and what later tutorials share (10 and 12 the committed Table 1; 19 and 20 the teacher and a
network).

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
    output_path(name, suffix) another file a tutorial writes beside its figure
    committed_table1()        the committed full-scale Table 1 the README's headline quotes
    committed_table1_header(record)  the line a tutorial prints before that record's rows
    teacher_in_parts(...)     Heller et al.'s teacher data, with a line after each part
    fingerprint(...)          a SHA-256 of arrays and files: what a saved network was made from
    network_identity(...)     all that a saved network was made from: settings, data, code, numerics
    save_network, load_network  a network one tutorial trains and a later one reuses (17 -> 18),
                              checked for damage and for what it was made from

Re-exported from the shell, each from its one home:

    data                      Korf's instances and their optimal solutions (`la.data`, la/data/)
    TABLE1                    the paper's Table 1 (`la.experiments.table1.PAPER`)
    ALPHAS                    the α values calibration is measured at (`la.rivals.calibration`)
    korf_states_with_h_star   the 5,305 states along Korf's 100's optimal solutions, with h* (same)
    DOMAINS                   the paper's settings per domain (§5; `la.config`, core)
"""
import hashlib
import json
import os
import sys
import time
import zipfile
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
from la.heller.teacher import TeacherData, label_plans  # noqa: E402
from la.runs import persist  # noqa: E402
from la.runs.machine import machine  # noqa: E402


# The committed Table 1 that the README's headline quotes: ten runs of the paper's protocol, merged
# (figures/table1-gap/README.md, item 4). Its MD row is not re-run (MD does not depend on training):
# MD's row comes from the first committed record, three runs on older numerics.
TABLE1_RECORD = FIGURES / "table1-gap" / "control" / "ten-runs" / "results.json"
MD_RECORD = FIGURES / "suboptimality.json"


def committed_table1():
    """(the record, its rows by name, MD's from MD_RECORD) of the committed full-scale Table 1;
    None if a file is missing (a partial checkout)."""
    if not (TABLE1_RECORD.exists() and MD_RECORD.exists()):
        return None
    record = json.loads(TABLE1_RECORD.read_text(encoding="utf-8"))
    rows = {r["row"]: r for r in record["table"] if r["runs"] > 0}
    rows["MD"] = next(r for r in json.loads(MD_RECORD.read_text(encoding="utf-8"))["table"]
                      if r["row"] == "MD")
    return record, rows


def committed_table1_header(record: dict) -> str:
    """The line that introduces the committed full-scale Table 1 (`committed_table1`'s record) in a
    tutorial's printout: how many runs, and the two files it comes from."""
    return (f"\nthe committed full-scale record, {len(record['runs'])} runs of the paper's "
            f"protocol ({TABLE1_RECORD.relative_to(ROOT)}; MD, which training does not change, "
            f"from {MD_RECORD.relative_to(ROOT)}), on Korf's 100")


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


def output_path(name: str, suffix: str) -> Path:
    """Another file tutorial `name` writes beside its figure: figures/tutorials/<name><suffix>
    (ignored by git, as the figures are)."""
    return figure_path(name).with_name(f"{name}{suffix}")


def fingerprint(*parts) -> str:
    """A SHA-256 (hex) of arrays (their dtype, shape and bytes) and files (their paths under ROOT
    and bytes, folders searched for *.py), in the order given."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            files = sorted(part.rglob("*.py")) if part.is_dir() else [part]
            for file in files:
                digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes())
        else:
            a = np.ascontiguousarray(part)
            digest.update(f"{a.dtype.str}{a.shape}".encode() + a.tobytes())
    return digest.hexdigest()


def network_identity(tutorial: str, **settings) -> dict:
    """What a network trained by `tutorial` was made from: `settings` (seeds, sizes, a fingerprint
    of its data), la's code and the tutorial's, and the numerics (`la.runs.machine`, NumPy's SIMD
    settings), which decide its bits as much as the rest."""
    simd = {k: os.environ.get(k) for k in ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES")}
    return {**settings, "code": fingerprint(ROOT / "la", ROOT / "tutorials" / f"{tutorial}.py"),
            "numerics": {**machine(), **simd}}


def save_network(net, path: Path, identity: dict, history: list) -> None:
    """Write `net` (`la.runs.persist`, atomically) with `identity` (what it was made from, JSON),
    `history` (what its training printed) and a SHA-256 of its parameters."""
    digest = fingerprint(*(net.params[k] for k in sorted(net.params)))
    persist.save(net, path, about={"identity": identity, "history": history, "digest": digest})


def load_network(path: Path, identity: dict):
    """(net, history) saved by `save_network` at `path` with this `identity`, its parameters
    matching their SHA-256; else (None, why not), for the caller to train it again."""
    if not path.exists():
        return None, f"no {path.name} yet"
    try:
        net, about = persist.load(path), persist.read_about(path)
    # damaged: persist names the file and the key; a truncated archive reaches NumPy's zipfile
    except (ValueError, OSError, zipfile.BadZipFile) as error:
        return None, f"{path.name} is unreadable ({error})"
    if not isinstance(about, dict) or about.get("identity") != json.loads(json.dumps(identity)):
        return None, f"{path.name} was made from other settings, data or code"
    if about.get("digest") != fingerprint(*(net.params[k] for k in sorted(net.params))):
        return None, f"{path.name}'s weights do not match their checksum"
    return net, about.get("history")


def teacher_in_parts(domain, heuristic, seeds, node_limit: int, part: int = 50,
                     progress=print) -> TeacherData:
    """Heller et al.'s teacher data for `seeds` (`la.heller.teacher.label_plans`), solved `part`
    seeds at a time with a line after each (`progress`; None: silent): the same searches, so the
    same data as one call."""
    began, parts = time.perf_counter(), []
    for k in range(0, len(seeds), part):
        parts.append(label_plans(domain, seeds[k:k + part], heuristic, node_limit))
        if progress is not None:
            progress(f"  {k + len(parts[-1].seeds)} of {len(seeds)} seeds solved "
                     f"({time.perf_counter() - began:.0f} s)")
    lengths = np.concatenate([np.diff(p.starts) for p in parts])       # each plan's states
    return TeacherData(np.concatenate([p.states for p in parts]),
                       np.concatenate([p.costs for p in parts]),
                       np.concatenate([[0], np.cumsum(lengths)]),
                       np.concatenate([p.seeds for p in parts]),
                       np.concatenate([p.solved for p in parts]), sum(p.generated for p in parts))


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
