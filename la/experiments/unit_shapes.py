"""What a finished unit of a run must hold before `--resume` keeps it (`unit_shape`): the entry of
results.json it becomes, held to the run's own settings (its run, its row or network, counts within
the configuration's limits), so that a resumed run reads only units its tables can use
(`la.runs.folder.prepare`). The merge reads the same calibration rows (`CALIBRATION`).
"""
from la.runs.shapes import (FRACTION, MAYBE_FRACTION, SECONDS, Is, Range, Records, Where,
                            search_record, tested, whole)

CALIBRATION = [{"y_alpha_below_h_star": FRACTION, "h_admissible": FRACTION,
                 "network_above_h_ad?": MAYBE_FRACTION}]
# A unit's kind alone, when its run's configuration is not at hand (`unit_shape` without `cfg`):
# what the tables read of each, by type.
_MAYBE, _SEARCHED = (int, float, type(None)), {"id": int, "optimal": int, "solved": bool,
                                               "cost": (int, float, type(None)),
                                               "generated": int, "seconds": (int, float)}
_KINDS = {
    "suboptimality": {"tests": {"run": (int, type(None)), "row": str, "tasks": int,
                                "unsolved": int, "records": [_SEARCHED, ...],
                                **dict.fromkeys(("time", "generated", "subopt", "optimal"),
                                                _MAYBE)},
                      "training": {"run": int}},
    "confidence": {"tests": {"run": (int, type(None)), "name": str, "tasks": int, "solved": int,
                             "records": [{**_SEARCHED, "expanded": int, "status": str}, ...],
                             **dict.fromkeys(("coverage", "cost", "generated"), _MAYBE)},
                   "teacher": {"run": int},
                   "training": {"run": int, "network": str, "seconds": (int, float),
                                **dict.fromkeys(("in", "out_u", "out_w", "tau", "mae", "epochs"),
                                                _MAYBE)}},
}


def unit_shape(experiment: str, unit: str, cfg=None, rows=(), baselines=None) -> dict:
    """What the finished unit `unit` of `experiment` ("run1/test-0.9", "md",
    "run2/search/dual-A40-softmax") must hold: the entry of results.json it becomes (`SHAPES`), so
    that a resumed run reads only units its tables can use (`la.runs.folder.prepare`).
    Suboptimality: a test row (the baseline's unit has no run folder), a calibration, else a
    training; confidence: a search row (GBFS classical has no run folder), a teacher, else a
    network. Given the run's configuration `cfg` (and, for suboptimality, the `rows` it tests
    besides cfg.rows()), a test row's unit is held to it (`test_row`), and every other unit too
    (`run_unit`; given the suboptimality baselines' configuration `baselines`, theirs too:
    `la.experiments.baselines.unit_shape`)."""
    last = unit.rsplit("/", 1)[-1]
    tests = "/" not in unit or last.startswith("test-") or "/search/" in unit
    if cfg is not None and tests and experiment in ("suboptimality", "confidence"):
        return test_row(experiment, unit, cfg, rows)
    if baselines is not None and not tests and last not in ("alpha", "mean", "calibration"):
        from la.experiments.baselines import unit_shape as baseline_shape
        return baseline_shape(baselines, cfg, unit)
    # a run's own units (without `baselines`, the suboptimality baselines' by kind below)
    ours = experiment == "confidence" or (experiment == "suboptimality"
                                          and last in ("alpha", "mean", "calibration"))
    if cfg is not None and ours:
        return run_unit(experiment, unit, cfg)
    if experiment == "suboptimality":
        if last == "calibration":
            return {"run": int, "calibration": CALIBRATION, "calibration_random?": CALIBRATION}
        return _KINDS[experiment]["tests" if tests else "training"]
    if experiment == "confidence":
        if last == "teacher":
            return _KINDS[experiment]["teacher"]
        return _KINDS[experiment]["tests" if tests else "training"]
    from la.experiments.efficiency import UNIT
    return UNIT


_RATIO = Range(0, null=True)          # a median confidence, σ or error of a network: >= 0


def run_unit(experiment: str, unit: str, cfg) -> dict:
    """What a run's training, calibration or teacher unit ("run2/alpha", "run2/calibration",
    "run1/teacher", "run1/WUNN") of a run with configuration `cfg` holds: its own run and network,
    every number in its range, the counts within the configuration's (at most NumIter iterations,
    cfg.seeds seeds, a split that adds up to the states, a best epoch among the epochs)."""
    run, last = Is(int(unit.split("/")[0].removeprefix("run"))), unit.rsplit("/", 1)[-1]
    if experiment == "suboptimality" and last == "calibration":
        table = Records({**CALIBRATION[0], "alpha": FRACTION}, key="alpha")
        return {"run": run, "calibration": table, "calibration_random?": table}
    if experiment == "suboptimality":
        learn = cfg.learn if last == "alpha" else cfg.learn_mean
        return {"run": run, "network": Is(last), "solved_train": FRACTION,
                "iterations": whole(1, learn.num_iter), "seconds": SECONDS, "machine?": dict}
    if last == "teacher":
        return Where({"run": run, "seeds": Is(cfg.seeds), "unsolved": whole(0, cfg.seeds),
                      **dict.fromkeys(("states", "train", "validation", "held_out", "H",
                                       "generated"), whole()),
                      "mean_plan_cost": Range(0), "seconds": SECONDS},
                     lambda u: u["train"] + u["validation"] + u["held_out"] == u["states"],
                     "has a split (train, validation, held_out) that does not add up to its "
                     "states")
    return Where({"run": run, "network": Is(last), "epochs": whole(1), "best_epoch": whole(),
                  "val_loss": Range(), "seconds": SECONDS,
                  **dict.fromkeys(("in", "out_u", "out_w", "mae"), _RATIO),
                  "tau": Range(-1, 1, null=True)},
                 lambda u: u["best_epoch"] < u["epochs"], "has a best epoch past its epochs")


def test_row(experiment: str, unit: str, cfg, rows=()) -> Where:
    """What a test row's unit of a run with configuration `cfg` holds (`la.runs.shapes.tested`):
    its own run and row, the records of exactly its tasks, each within its node limit, and the
    summary they make. The row is the one the unit's name says (`rows`: those besides
    cfg.rows())."""
    run = int(unit.split("/")[0].removeprefix("run")) if "/" in unit else None
    if experiment == "confidence":
        from la.experiments.confidence_table import summarize
        # a best-first search checks its limit per expansion: no tighter bound on generated
        record = search_record(None, expanded=whole(), status=str)
        return tested(record, cfg.instances, summarize, run=run, name=_confidence_row(unit, cfg))
    from la.experiments.suboptimality_table import summarize
    if run is None:                                               # the baseline's unit
        return tested(search_record(cfg.baseline_node_limit), cfg.baseline_instances, summarize,
                      run=None, row=cfg.baseline_row)
    last = unit.rsplit("/", 1)[-1].removeprefix("test-")
    named = {("mean" if row == "N/A" else row.replace(" ", "-")): row
             for row in [*cfg.rows(), *rows]}
    if last not in named:
        raise ValueError(f"{unit}: not a test row of this run's configuration")
    return tested(search_record(cfg.test_node_limit), cfg.instances, summarize, run=run,
                  row=named[last])


def _confidence_row(unit: str, cfg) -> str:
    """The name of the coverage row a confidence unit ("run2/search/dual-A40-softmax",
    "classical", "hard-classical") tests (`la.experiments.confidence_search.search_specs`)."""
    for row in cfg.rows():
        if row.signal == "classical":
            name = "classical" if row.block == "moderate" else f"{row.block}-classical"
            if unit == name:
                return row.name
        elif unit.endswith(f"/search/{row.key}"):
            return row.name
    raise ValueError(f"{unit}: not a search row of this run's configuration")
