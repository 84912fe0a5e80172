"""The results records the figures are drawn from (`la.plots`), checked before anything is drawn:
each holds all that its figures read, in the right shape, or a one-line ValueError names the file
and what is wrong."""
import re

from la.runs.shapes import (FRACTION, MAYBE_PERCENT, PERCENT, Range, Records, Where, check_shape,
                             read_results, whole)

# What the figures read from each results record: `read_record` checks it all before anything is
# drawn (la.runs.shapes.check_shape explains the notation). Keep these in step with the figure
# functions of `la.plots.tables` and `la.plots.generate_task`.
_COLUMNS = ("subopt", "optimal", "generated")
_COLUMN = {"subopt": Range(0, null=True), "optimal": MAYBE_PERCENT,
           "generated": Range(0, null=True)}                 # cost >= optimal: subopt >= 0
_CURVE_POINT = {"iteration": whole(), "solved": whole(null=True), "alpha": Range(0, 1, null=True),
                **dict.fromkeys(("beta", "task_steps", "buffer"), Range(0, null=True))}
_CALIBRATION = Records({"runs": whole(1), "alpha": FRACTION,
                        **dict.fromkeys(("y_alpha_below_h_star", "y_alpha_below_h_star_sd",
                                         "h_admissible"), FRACTION)}, key="alpha")
_CALIBRATION = Where(_CALIBRATION, bool, "is empty")
# A row's tasks and the unsolved ones of each of its runs, where it has them (not the paper's rows
# of a baselines record)
_TABLE_ROW = Where({"row": str, "runs": whole(), "tasks?": whole(), "unsolved?": [whole(), ...],
                    "paper": _COLUMN, **_COLUMN,
                    **{c + "_sd": Range(0, null=True) for c in _COLUMNS}},
                   lambda r: ("unsolved" not in r or "tasks" in r
                              and all(u <= r["tasks"] for u in r["unsolved"])),
                   "has more tasks unsolved than it has tasks")
SHAPES = {
    "efficiency": {"table": Where(Records({"variant": str, "runs": whole(1), **dict.fromkeys(
        ("solved_train", "solved_train_sd", "solved_test", "solved_test_sd", "paper_solved_train",
         "paper_solved_test"), PERCENT)}, key="variant"), bool, "is empty")},
    "suboptimality": {
        "domain?": str, "config": {"alphas": [FRACTION]}, "title?": str,
        # The paper's values may be null: Table 3 has "?" (the 24-puzzle PDB's time) and rows it
        # lacks (blocksworld's baseline); a null is not drawn. Our own are null for a row that
        # solved nothing.
        "table": Where(Records(_TABLE_ROW, key="row"), bool, "is empty"),
        "calibration": _CALIBRATION, "calibration_states?": whole(1),
        "calibration_random?": (list, type(None)),
        "learning_curves": {"alpha?": [[_CURVE_POINT, ...], ...],
                            "mean?": [[_CURVE_POINT, ...], ...]}},
}
GENERATE_TASK = {"epsilon": Range(0), "start": [whole(0, 255)],
                 "sigma_e_after_update?": [Range(0)], "steps_after?": whole(),
                 "before": [{"state": [whole(0, 255)], "candidates": [[whole(0, 255)]],
                             "sigma_e": [Range(0)], "p": [FRACTION], "chosen": whole()}]}


def read_record(path, experiment: str) -> dict:
    """The results record in `path`, checked to hold all that its figures read; ValueError names the
    file."""
    record = read_results(path, experiment, SHAPES[experiment])
    if experiment == "suboptimality":
        _check_suboptimality(record, repr(str(path)))
    return record


def _check_suboptimality(record: dict, file: str) -> None:
    """What a shape cannot say: a domain name fit for a file name, a row per α, uniform calibration
    states with their number, and a GenerateTaskPrac walk whose parts agree (Figures 1, 2)."""
    if "domain" in record and not re.fullmatch(r"[A-Za-z0-9-]+", record["domain"]):
        raise ValueError(f"{file}: domain {record['domain'][:40]!r} is not a domain's name "
                         "(letters, digits, -)")
    rows = {r["row"] for r in record["table"]}
    for alpha in record["config"]["alphas"]:
        if str(alpha) not in rows:
            raise ValueError(f"{file}: table has no row for α {alpha}, which config.alphas lists")
    if record.get("calibration_random"):
        check_shape(record["calibration_random"], _CALIBRATION, file, "calibration_random")
        check_shape(record["config"], {"calibration_random": whole(1)}, file, "config")
    task = record.get("generate_task")
    if not task:                                   # absent or null: Figure 1 is not drawn
        return
    check_shape(task, GENERATE_TASK, file, "generate_task")
    for i, step in enumerate(task["before"]):
        where = f"{file}: generate_task.before[{i}]"
        if not len(step["candidates"]) == len(step["sigma_e"]) == len(step["p"]):
            raise ValueError(f"{where}: candidates, sigma_e and p differ in length")
        if not 0 <= step["chosen"] < len(step["candidates"]):
            raise ValueError(f"{where}.chosen is {step['chosen']}, "
                             f"not one of its {len(step['candidates'])} candidates")
        if not all(0 in candidate for candidate in step["candidates"]):
            raise ValueError(f"{where}: a candidate state has no blank (0)")
    if "sigma_e_after_update" in task:
        if len(task["sigma_e_after_update"]) != len(task["before"]) or "steps_after" not in task:
            raise ValueError(f"{file}: generate_task.sigma_e_after_update needs one value per step "
                             f"of the walk ({len(task['before'])}) and steps_after")


def read_table3(paths: list) -> dict:
    """The Table 3 records in `paths`, by domain, each checked (`read_record`): a 15-puzzle record,
    or a second one of the same domain, is refused, naming the file."""
    records = {}
    for path in paths:
        record, file = read_record(path, "suboptimality"), repr(str(path))
        domain = record.get("domain", "15-puzzle")
        if domain == "15-puzzle":
            raise ValueError(f"{file}: holds the 15-puzzle's results (Table 1): "
                             "pass it as --suboptimality")
        if domain in records:
            first = str(records[domain][0])
            raise ValueError(f"{file}: a second Table 3 record on the {domain} "
                             f"(the first: {first!r})")
        records[domain] = (path, record)
    return records
