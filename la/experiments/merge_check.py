"""Reading and checking the results folders `la.experiments.merge` combines: each folder's record,
settings, runs and calibrations, read and checked against what the merge and the tables read
(`SHAPES`), then the folders checked against each other (`check`): one experiment, one settings
hash, every run exactly once.
"""
import hashlib
import json
import types
import typing
from dataclasses import asdict, fields, is_dataclass
from pathlib import Path

from la.experiments.unit_shapes import CALIBRATION
from la.plots.ground_truth import MEASURE
from la.runs.folder import read_experiment, read_result, with_added
from la.runs.shapes import (FRACTION, MAYBE_FRACTION, MAYBE_PERCENT, SECONDS, Range, Records, Where,
                             check_shape, read_json, search_record, whole)

EXPERIMENTS = ("suboptimality", "efficiency", "confidence", "ground_truth")
# computed by every folder
RUNLESS = {"suboptimality": "the baseline row", "confidence": "the GBFS classical row"}
# the units that name runs
UNITS = {"efficiency": "units", "suboptimality": "tests", "confidence": "tests",
         "ground_truth": "tests"}

# What the merge and the experiments' table functions read from each results.json (check_shape's
# notation). "run" is a unit's run, null for a row no run owns (the baseline, GBFS classical).
_RUN = whole(1, null=True)
_SEARCH = Records(search_record())                    # each task once, a cost no plan beats
_MEAN = Range(0, null=True)                           # a mean over solved tasks, or null for none
_SEED = whole(0, 2**32 - 1)
SHAPES = {
    "efficiency": {"seed": _SEED, "config": {"runs": whole(1)}, "units": [{
        "run": whole(1), "variant": str, "solved_train": FRACTION, "solved_test": FRACTION,
        "tests": [Where(dict.fromkeys(("solved", "attempted", "tasks", "nodes"), whole()),
                        lambda t: t["solved"] <= t["attempted"] <= t["tasks"],
                        "has more tasks solved than attempted, or attempted than it has")]}]},
    "suboptimality": {
        "domain?": str, "seed": _SEED, "config": {"runs": whole(1)},
        "table": Records({"row": str}, key="row"),
        "training": [{"run": whole(1)}, ...], "learning_curves": {"alpha?": list, "mean?": list},
        "tests": [Where(
            {"run": _RUN, "row": str, "tasks": whole(), "unsolved": whole(), "records": _SEARCH,
             "time": _MEAN, "generated": _MEAN, "subopt": _MEAN, "optimal": MAYBE_PERCENT},
            lambda t: len(t["records"]) <= t["tasks"] and t["unsolved"] <= t["tasks"],
            "holds more records, or unsolved tasks, than tasks")]},
    "confidence": {
        "quick": bool, "seed": _SEED, "config": {"runs": whole(1)},
        "teacher": [{"run": whole(1)}, ...],
        "training": Records({"run": whole(1), "network": str, "seconds": SECONDS,
                             **dict.fromkeys(("in", "out_u", "out_w", "mae", "epochs"), _MEAN),
                             "tau": Range(-1, 1, null=True)}, key=("run", "network")),
        "tests": [Where(
            {"run": _RUN, "name": str, "tasks": whole(), "solved": whole(),
             "records": Records(search_record(expanded=whole(), status=str)),
             "coverage": MAYBE_FRACTION, "cost": _MEAN, "generated": _MEAN},
            lambda t: len(t["records"]) <= t["tasks"] and t["solved"] <= t["tasks"],
            "holds more records, or solved tasks, than tasks")]},
    "ground_truth": {
        "quick": bool, "seed": _SEED, "config": {"runs": whole(1)}, "arm?": str,
        "training": [{"run": whole(1), "network": str}, ...],
        # what la.plots.ground_truth draws
        "measures": Where(Records(MEASURE, key="run"), bool, "is empty"),
        "reference?": [{"run": whole(1), "row": {"row": str, "held": FRACTION}}, ...],
        "conformal?": [{"run": whole(1), "rows": list}, ...],
        "tests": [Where(
            {"run": whole(1), "row": str, "tasks": whole(), "unsolved": whole(),
             "records": Records(search_record(evaluated=whole())),
             "generated": _MEAN, "subopt": _MEAN, "optimal": MAYBE_PERCENT},
            lambda t: len(t["records"]) <= t["tasks"] and t["unsolved"] <= t["tasks"],
            "holds more records, or unsolved tasks, than tasks"), ...]},
}
def settings_hash(settings: dict, added: dict | None = None) -> str:
    """A hash of what decides a run's results: the settings without the number of runs, the run
    selection and the rows tested (`--rows`: a row's results do not depend on the other rows; the
    merged table says each row's runs); `added`: entries a folder made before them lacks
    (`la.runs.folder.prepare`)."""
    settings = with_added(settings, added)
    kept = {**{k: v for k, v in settings.items() if k not in ("run", "rows")},
            "config": {k: v for k, v in settings["config"].items() if k != "runs"}}
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16]


def rebuild(cls, values: dict, where: str = "config"):
    """The configuration dataclass `cls` from its `asdict` form as JSON kept it (nested dataclasses,
    tuples); ValueError naming the first entry (`where`.field) that cannot be one of its fields."""
    if not isinstance(values, dict):
        raise ValueError(f"{where} should be an object (a {cls.__name__}), got {values!r:.40}")
    hints, made = typing.get_type_hints(cls), {}
    for f in fields(cls):
        if f.name in values:
            value, hint, at = values[f.name], hints[f.name], f"{where}.{f.name}"
            if is_dataclass(hint):
                made[f.name] = rebuild(hint, value, at)
            elif not _fits(value, hint):
                # int | None
                wanted = "a list" if hint is tuple else getattr(hint, "__name__", str(hint))
                raise ValueError(f"{at} should be {wanted}, got {value!r:.40}")
            else:
                made[f.name] = tuple(value) if isinstance(value, list) else value
    cfg = cls(**made)
    if json.loads(json.dumps(asdict(cfg))) != values:
        raise ValueError(f"{where} has entries that {cls.__name__} has not")
    return cfg


def _fits(value, hint) -> bool:
    """Whether a JSON value can be a field of type `hint`: a tuple is kept as a list, an int may be
    a float."""
    if isinstance(hint, types.UnionType):                                  # int | None, ...
        return any(_fits(value, h) for h in typing.get_args(hint))
    kinds = (int, float) if hint is float else list if hint is tuple else hint
    return isinstance(value, kinds) and (hint is bool or not isinstance(value, bool))


def read_folder(folder: Path) -> dict:
    """A finished run's experiment.json and results.json, checked; its settings' hash, configuration
    and runs."""
    about = read_experiment(folder)
    check_shape(about.get("resumed", []), [dict, ...], str(folder / "experiment.json"), "resumed")
    path = folder / "results.json"
    if not path.exists():
        raise ValueError(f"{folder} holds no finished run (no results.json): finish it with "
                         f"--resume first")
    record = read_json(path)               # no NaN or Infinity, which a merge would copy through
    if not isinstance(record, dict):
        raise ValueError(f"{path}: expected a JSON object of results, got {type(record).__name__}")
    kind = record.get("experiment")
    if kind not in EXPERIMENTS:
        raise ValueError(f"{path}: experiment {str(kind)[:40]!r}, expected one of "
                         f"{', '.join(EXPERIMENTS)}")
    check_shape(record, SHAPES[kind], str(path))
    cfg = config_of(record, path)
    runs = runs_of(folder, about, record, path)
    check_units(record, cfg, path)
    return {"folder": folder, "about": about, "record": record,
            "hash": settings_hash(about["settings"], added_of(kind)), "config": cfg, "runs": runs,
            "calibrations": (read_calibrations(folder, runs, cfg) if kind == "suboptimality"
                             else None)}


def added_of(kind: str) -> dict | None:
    """The configuration entries `kind` gained after runs were made (`la.runs.folder.prepare`)."""
    if kind != "ground_truth":
        return None
    from la.experiments.ground_truth_config import ADDED
    return ADDED


def config_of(record: dict, path: Path):
    """The experiment's configuration dataclass, rebuilt from the record; ValueError naming the
    file."""
    kind, values = record["experiment"], record["config"]
    if kind == "ground_truth":
        from la.experiments.ground_truth_config import ADDED, GroundTruthConfig as cls
        values = {**ADDED, **values}               # a record made before the arms: the paper's
    elif kind == "efficiency":
        from la.experiments.efficiency import EfficiencyConfig as cls
    elif kind == "confidence":
        from la.experiments.confidence_config import ConfidenceConfig as cls
    elif record.get("domain", "15-puzzle") == "15-puzzle":
        # records from before Table 3 name no domain
        from la.experiments.table1 import SuboptimalityConfig as cls
    else:
        from la.experiments.table3 import Table3Config as cls
    try:
        return rebuild(cls, values)
    except (TypeError, ValueError) as error:       # a wrong entry, or one its constructor refuses
        raise ValueError(f"{path}: {' '.join(str(error).split())}") from None


def runs_of(folder: Path, about: dict, record: dict, path: Path) -> list:
    """The runs the folder ran (--run K, else 1..runs), which its units must name: a unit that lacks
    its run number would otherwise leave a gap that no folder seems to fill."""
    chosen, count = about["settings"].get("run"), record["config"]["runs"]
    if count < 1:
        raise ValueError(f"{path}: config.runs is {count}, not a number of runs")
    if chosen is not None and not (type(chosen) is int and 1 <= chosen <= count):
        raise ValueError(f"{folder / 'experiment.json'}: settings.run {chosen!r} is not one of "
                         f"runs 1..{count}")
    ran, how = (([chosen], f"--run {chosen}") if chosen
                else (list(range(1, count + 1)), f"runs 1..{count}"))
    named = {u["run"] for u in record[UNITS[record["experiment"]]] if u["run"] is not None}
    lacking, stray = sorted(set(ran) - named), sorted(named - set(ran))
    if lacking:
        raise ValueError(f"{path}: no unit names run {lacking[0]}, which {folder} ran ({how}, says "
                         f"its experiment.json): its units lack their run numbers")
    if stray:
        raise ValueError(f"{path}: a unit names run {stray[0]}, which {folder} did not run ({how}, "
                         f"says its experiment.json)")
    return ran


def check_units(record: dict, cfg, path: Path) -> None:
    """What a shape cannot say: each unit's variant or row is one of the configuration's, each
    once in its run, and a solved task has a cost and an optimal cost to divide by."""
    kind = record["experiment"]
    if kind == "efficiency":
        allowed, key = cfg.variants(), "variant"
    elif kind == "ground_truth":
        allowed, key = [*cfg.rows(), cfg.reference], "row"
    elif kind == "suboptimality":
        allowed, key = [*cfg.rows(), *(r["row"] for r in record["table"])], "row"
        if "baselines" in record:
            check_shape(record, {"conformal": [dict, ...]}, str(path))
    else:
        check_shape(record["tests"], Records(dict, key=("run", "name")), str(path), "tests")
        return
    for i, unit in enumerate(record[UNITS[kind]]):
        if unit[key] not in allowed:
            raise ValueError(f"{path}: {UNITS[kind]}[{i}] is of {key} {unit[key][:40]!r}, which "
                             f"its config has not")
        for j, r in enumerate(unit.get("records", [])):
            if r["solved"] and not (isinstance(r["cost"], int) and r["optimal"] >= 1):
                raise ValueError(f"{path}: {UNITS[kind]}[{i}].records[{j}] is solved without a "
                                 f"cost and an optimal cost of at least 1")
    check_shape(record[UNITS[kind]], Records(dict, key=("run", key)), str(path), UNITS[kind])


def read_calibrations(folder: Path, runs: list, cfg) -> list:
    """Each run's calibration unit (`runN/calibration/unit.json`), checked to hold a row per α."""
    from la.rivals.calibration import ALPHAS
    keys = ["calibration"] + (["calibration_random"] if cfg.calibration_random else [])
    results = []
    for r in runs:
        path = folder / f"run{r}" / "calibration" / "unit.json"
        if not path.is_file():
            raise ValueError(f"{path}: missing (run {r}'s calibration): finish the run with "
                             f"--resume first")
        result = read_result(path)
        check_shape(result, dict.fromkeys(keys, CALIBRATION), str(path))
        for key in keys:
            if len(result[key]) != len(ALPHAS):
                raise ValueError(f"{path}: {key} has {len(result[key])} rows, expected one per α "
                                 f"({len(ALPHAS)})")
        results.append(result)
    return results


def check(folders: list) -> list:
    """Refuse mismatched settings, overlapping runs and gaps (ValueError, one line); the runs, in
    order."""
    first, kind = folders[0], folders[0]["record"]["experiment"]
    for f in folders[1:]:
        if f["record"]["experiment"] != kind:
            raise ValueError(f"{f['folder']} holds a {f['record']['experiment']} experiment and "
                             f"{first['folder']} a {kind} one: they cannot be merged")
        if f["hash"] != first["hash"]:
            config, other = first["about"]["settings"]["config"], f["about"]["settings"]["config"]
            differ = sorted(k for k in set(config) | set(other)
                            if k != "runs" and config.get(k) != other.get(k))
            raise ValueError(f"{f['folder']} and {first['folder']} were made with different "
                             f"settings (hash {f['hash']} vs {first['hash']}"
                             + (f"; config differs in {', '.join(differ)}" if differ else "")
                             + "): they cannot be merged")
    untimed = lambda f: [[{k: v for k, v in r.items() if k != "seconds"}         # noqa: E731
                          for r in t["records"]]
                         for t in f["record"].get("tests", []) if t.get("run") is None]
    for f in folders[1:]:
        if kind in RUNLESS and untimed(f) != untimed(first):
            raise ValueError(f"{f['folder']} and {first['folder']} disagree on {RUNLESS[kind]}, "
                             f"which does not depend on the run: they cannot be merged")
    where = {}
    for f in folders:
        for r in f["runs"]:
            if r in where:
                raise ValueError(f"run {r} is in both {where[r]} and {f['folder']}: merge each run "
                                 f"once")
            where[r] = f["folder"]
    missing = sorted(set(range(1, max(where) + 1)) - set(where))
    if missing:
        held = "; ".join(f"{f['folder']} holds run{'s' * (len(f['runs']) > 1)} "
                         f"{', '.join(map(str, f['runs']))}" for f in folders)
        raise ValueError(f"runs {', '.join(map(str, missing))} of 1..{max(where)} are in none of "
                         f"the folders ({held}): add their folders")
    return sorted(where)
