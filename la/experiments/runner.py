"""What the experiments share: seeds, an output folder that can be resumed, parallel units, progress lines.

An experiment is a list of independent *units* (e.g. "train GTP for run 3, then test it"). Each unit gets its
own random stream from (seed, its name), so results do not depend on which process runs it or in which order,
and writes `<out>/<unit>/unit.json` when it is done; `--resume` skips finished units and lets an interrupted one
continue from its training checkpoint. Units run in parallel processes with `--jobs N` (stdlib only).
"""
import json
import os
import re
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from la.io import write_json

ROOT = Path(__file__).resolve().parents[2]
SAFE_NAME = re.compile(r"[A-Za-z0-9._-]+")     # a unit name's parts become folder names


def unit_rng(seed: int, *key: int) -> np.random.Generator:
    """An independent random stream for one unit, from the experiment's seed and the unit's integer key."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def commit() -> str | None:
    """The repository's current commit, if this is a git checkout (recorded with every result)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def prepare(out: Path, settings: dict, resume: bool, command: list) -> None:
    """Create the output folder, or check that a resumed one was started with the same settings.

    The number of runs may differ: runs are independent units, so `--resume --runs 3` adds runs to a folder
    that holds one. The commands of every start and resume are kept.
    """
    marker = out / "experiment.json"
    if marker.exists():
        if not resume:
            raise ValueError(f"{out} already holds a run: add --resume to continue it, or choose another --out")
        previous = json.loads(marker.read_text())
        if _without_runs(previous["settings"]) != _without_runs(json.loads(json.dumps(settings))):
            raise ValueError(f"{out} holds a run with other settings; resume it with the same options, "
                             f"or choose another --out")
        previous.setdefault("resumed", []).append({"command": " ".join(map(str, command)), "commit": commit()})
        write_json(marker, previous)
        return
    if resume:
        raise ValueError(f"nothing to resume: {out} holds no run")
    write_json(marker, {"settings": settings, "command": " ".join(map(str, command)), "commit": commit()})


def provenance(out: Path) -> dict:
    """The command and commit that started the run in `out`, and every command that resumed it (see `prepare`)."""
    marker = json.loads((out / "experiment.json").read_text())
    return {"command": marker["command"], "commit": marker["commit"], "resumed": marker.get("resumed", [])}


def _without_runs(settings: dict) -> dict:
    return {**settings, "config": {k: v for k, v in settings["config"].items() if k != "runs"}}


def run_units(function, units: list, out: Path, jobs: int, progress=print) -> list:
    """Run `function(unit, out, verbose)` for every unit not yet finished; return every unit's result.

    One progress line per finished unit, with an estimate of the time left from the mean time per unit.
    """
    for unit in units:
        if not all(SAFE_NAME.fullmatch(part) for part in unit["name"].split("/")):
            raise ValueError(f"unit name {unit['name']!r}: each part must be letters, digits, '.', '_' or '-'")
    results, todo = {}, []
    for unit in units:
        done = out / unit["name"] / "unit.json"
        if done.exists():
            results[unit["name"]] = json.loads(done.read_text())
        else:
            todo.append(unit)
    if results and progress:
        progress(f"{len(results)} of {len(units)} units already done")
    began = time.perf_counter()

    def finished(unit, result):
        write_json(out / unit["name"] / "unit.json", result)
        results[unit["name"]] = result
        if progress:
            count = len(results) - (len(units) - len(todo))
            elapsed = time.perf_counter() - began
            left = elapsed / count * (len(todo) - count)
            progress(f"[{len(results)}/{len(units)}] {unit['name']} done: {summary(result)}  "
                     f"({elapsed / 60:.1f} min so far, about {left / 60:.1f} min left)")

    if jobs <= 1:
        for unit in todo:
            finished(unit, function(unit, out, True))
    else:
        # Fresh interpreters (spawn), so that each loads NumPy with one BLAS thread (see la/__init__.py).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            futures = {pool.submit(function, unit, out, False): unit for unit in todo}
            for future in as_completed(futures):
                finished(futures[future], future.result())
    return [results[u["name"]] for u in units]


def unit_progress(folder: Path, name: str, verbose: bool):
    """A progress callback for a unit: appends each line to `<folder>/progress.log` (follow it with `tail -f`
    when units run in parallel) and, when `verbose`, prints it too."""
    folder.mkdir(parents=True, exist_ok=True)

    def progress(line: str) -> None:
        with open(folder / "progress.log", "a") as log:
            log.write(line + "\n")
        if verbose:
            print(f"  {name}: {line}", flush=True)
    return progress


def summary(result: dict) -> str:
    """A unit's own one-line summary, if it gives one."""
    return result.get("summary", "")


def mean_std(values) -> tuple:
    """Mean and (population) standard deviation over runs, or (None, None) for none (JSON has no NaN)."""
    values = np.asarray(list(values), dtype=float)
    return (float(values.mean()), float(values.std())) if len(values) else (None, None)
