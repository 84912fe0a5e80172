"""Issue 58 D: what each experiment describes of its units' records (`la.runs.shapes.tested`,
`search_record`), held to the unit's own settings before a resume appends anything
(`la.runs.folder.check_folder`): a unit of the suboptimality, confidence and efficiency experiments,
made whole and then tampered with one field at a time, refused in one line naming the file and the
field; their training, calibration, teacher and network units too, the ground-truth experiment's
training, conformal and reference units and the suboptimality baselines' units. (The
ground-truth experiment's test rows, through its command line: tests/test_ground_truth.py.)"""
import json

import pytest

from la.experiments import efficiency, ground_truth
from la.experiments.ground_truth_blocks import BlocksTruthConfig
from la.experiments.baselines import BaselinesConfig
from la.experiments.confidence_config import QUICK as CONFIDENCE
from la.experiments.confidence_table import summarize as coverage_summary
from la.experiments.ground_truth_config import QUICK as GROUND_TRUTH, with_arm
from la.experiments.unit_shapes import unit_shape
from la.experiments.suboptimality_table import summarize
from la.experiments.table1 import QUICK as TABLE1
from la.io import write_json
from la.runs.folder import check_folder


def searched(ids, limit, **more):
    """A record per task of `ids`, each solved at its optimal cost but the second (two moves
    more)."""
    return [{"id": i, "optimal": 40, "solved": True, "cost": 40 + 2 * (k == 1),
             "generated": limit // 2, "seconds": 0.5, **more} for k, i in enumerate(ids)]


def suboptimality_unit():
    records = searched(TABLE1.instances, TABLE1.test_node_limit)
    return {"run": 1, "row": "0.9", "records": records, **summarize(records), "summary": "done"}


def confidence_unit(row):
    cfg = CONFIDENCE["15-puzzle"]
    records = searched(cfg.instances, cfg.node_limit, expanded=3, status="solved")
    return {"run": 1, "row": {}, "name": row.name, "records": records,
            **coverage_summary(records), "summary": "done"}


def efficiency_unit():
    tests = [{"solved": 20, "attempted": 25, "nodes": 1_000, "tasks": efficiency.QUICK.test_tasks}]
    return {"run": 1, "variant": "GTP", "solved_train": 0.5, "solved_test": 20 / 30,
            "train_nodes": 10, "train_seconds": 1.0, "tests": tests, "summary": "done"}


def training_unit():
    return {"run": 1, "network": "alpha", "solved_train": 0.9, "iterations": TABLE1.learn.num_iter,
            "seconds": 12.5, "summary": "solved 90.0 % of its training tasks"}


def calibration_unit():
    return {"run": 1, "calibration": [{"alpha": a, "y_alpha_below_h_star": 0.9,
                                       "h_admissible": 0.8, "network_above_h_ad": None}
                                      for a in TABLE1.alphas], "summary": "done"}


def teacher_unit():
    seeds = CONFIDENCE["15-puzzle"].seeds
    return {"run": 1, "seeds": seeds, "unsolved": 0, "states": 100, "train": 80, "validation": 10,
            "held_out": 10, "H": 30, "mean_plan_cost": 12.5, "generated": 5_000, "seconds": 1.5,
            "summary": "done"}


def network_unit():
    return {"run": 1, "network": "WUNN", "epochs": 30, "best_epoch": 20, "val_loss": -1.5,
            "seconds": 8.0, "in": 0.03, "out_u": 0.06, "out_w": 0.03, "tau": 0.89, "mae": 1.27,
            "summary": "done"}


def truth_training_unit():
    return {"run": 1, "network": "mean", "solved_train": 0.75, "seconds": 3.5,
            "iterations": GROUND_TRUTH.learn_mean.num_iter, "machine": {"cpus": 2},
            "summary": "solved 75.0 % of its training tasks"}


CONFORMAL = with_arm(GROUND_TRUTH, "conformal", 10)


def truth_conformal_unit():
    return {"run": 1, "rows": [{"alpha": a, "q": -1.2, "plain_q": -1.28, "states": 40,
                                "evaluated": 900} for a in CONFORMAL.alphas],
            "summary": "done"}


def measured(row):
    """A measured row (`la.plots.ground_truth.ROW`) of 8 states, all within h*."""
    bins = [{"key": 3, "states": 8, "coverage": 1.0}]
    on = {"by_h_star": {"coverage": 1.0, "states": 8, "by": bins}, "by_distance": bins}
    return {"row": row, "all": on, "plans": on, "searched": on, "held": 1.0, "held_goal": 1.0,
            "bound": None, "guarantee": [{"length": 3, "tasks": 10, "bound": None, "held": 1.0,
                                          "realised": 1.0}]}


def truth_reference_unit():
    return {"run": 1, "row": measured(GROUND_TRUTH.reference), "summary": "done"}


BASELINES = BaselinesConfig()


def boot_unit():
    return {"run": 1, "network": "boot", "rounds": 12, "stopped": "solved", "examples": 9_000,
            "seconds": 40.0, "summary": "done"}


def optimal_unit():
    return {"run": 1, "network": "optimal4", "records": 4 * 20_000, "steps": 5_000,
            "starts_solved": 900, "seconds": 60.0, "summary": "done"}


def baseline_conformal_unit():
    def on(states):
        return {"states": states, "conformal": 0.9, "plain": 0.8, "mean_h_star": 40.0,
                "mean_h": {"conformal": 35.0, "plain": 37.5}}
    return {"run": 1, "calibration_states": 4_000, "summary": "done",
            "rows": [{"alpha": a, "q": -1.0, "z_alpha": -1.28, "held_out": on(3_900),
                      "test_plans": on(2_000), "searched": on(BASELINES.searched_sample)}
                     for a in BASELINES.conformal_alphas]}


def baseline_shape(name):
    return unit_shape("suboptimality", name, TABLE1, rows=(), baselines=BASELINES)


BLOCKS = BlocksTruthConfig((0.95, 0.9), sample=1_000)


def blocks_measure_unit():
    """The 15-blocksworld's ground truth of one run (`la.experiments.ground_truth_blocks`)."""
    def on(y):
        return {"states": 900, "coverage": 0.8, "y_coverage": y,
                "by": [{"key": 20, "states": 900, "coverage": 0.8}]}
    rows = [{"row": row, "uniform": on(0.7), "plan": on(0.7), "dag": on(None), "held": 0.5,
             "held_goal": 0.4, "realised": 0.3, "bound": 0.2, "bound_goal": 0.1,
             "guarantee": [{"length": 30, "tasks": 50, "bound": 0.2, "held": 0.5,
                            "held_goal": 0.4, "realised": 0.3}]} for row in BLOCKS.rows()]
    return {"run": 1, "rows": rows, "states": {"uniform": 998, "plan": 1_200, "dag": 50_000},
            "summary": "done"}


ROW = next(r for r in CONFIDENCE["15-puzzle"].rows() if r.signal != "classical")
CASES = {  # experiment: (the unit's folder, its unit.json, the shape its run describes it by)
    "suboptimality": ("run1/test-0.9", suboptimality_unit,
                      lambda name: unit_shape("suboptimality", name, TABLE1)),
    "confidence": (f"run1/search/{ROW.key}", lambda: confidence_unit(ROW),
                   lambda name: unit_shape("confidence", name, CONFIDENCE["15-puzzle"])),
    "efficiency": ("run1/GTP", efficiency_unit,
                   lambda name: efficiency.unit_shape(efficiency.QUICK, name)),
    # the units that are not test rows (issue 58 gaps, item 6)
    "training": ("run1/alpha", training_unit,
                 lambda name: unit_shape("suboptimality", name, TABLE1)),
    "calibration": ("run1/calibration", calibration_unit,
                    lambda name: unit_shape("suboptimality", name, TABLE1)),
    "teacher": ("run1/teacher", teacher_unit,
                lambda name: unit_shape("confidence", name, CONFIDENCE["15-puzzle"])),
    "network": ("run1/WUNN", network_unit,
                lambda name: unit_shape("confidence", name, CONFIDENCE["15-puzzle"])),
    # the ground truth's and the suboptimality baselines' (issue 58 gaps, round 2)
    "truth training": ("run1/mean", truth_training_unit,
                       lambda name: ground_truth.unit_shape(GROUND_TRUTH, name)),
    "truth conformal": ("run1/conformal", truth_conformal_unit,
                        lambda name: ground_truth.unit_shape(CONFORMAL, name)),
    "truth reference": ("run1/reference", truth_reference_unit,
                        lambda name: ground_truth.unit_shape(GROUND_TRUTH, name)),
    "boot": ("run1/boot", boot_unit, baseline_shape),
    "optimal": ("run1/optimal4", optimal_unit, baseline_shape),
    "baseline conformal": ("run1/conformal", baseline_conformal_unit, baseline_shape),
    "blocks measure": ("run2/measure", lambda: {**blocks_measure_unit(), "run": 2},
                       BLOCKS.unit_shape),
}
TAMPERED = [  # (experiment, how, what the line names)
    ("suboptimality", lambda u: u.update(row="0.5"), "row is"),
    ("suboptimality", lambda u: u.update(run=3), "run is"),
    ("suboptimality", lambda u: u.update(subopt=-111.1), "does not agree with its records"),
    ("suboptimality", lambda u: u["records"].append(dict(u["records"][0])), "records"),
    ("suboptimality", lambda u: u["records"][0].update(id=10**6), r"records\[0\]\.id"),
    ("suboptimality", lambda u: u["records"][1].update(cost=30), r"records\[1\] has a cost"),
    ("suboptimality", lambda u: u["records"][1].update(generated=10**12),
     r"records\[1\]\.generated"),
    ("suboptimality", lambda u: u["records"][2].update(seconds="fast"), r"records\[2\]\.seconds"),
    ("suboptimality", lambda u: u["records"][2].update(optimal=-4), r"records\[2\]\.optimal"),
    ("suboptimality", lambda u: u["records"].pop(), "records"),
    ("confidence", lambda u: u.update(name="dual A99"), "name is"),
    ("confidence", lambda u: u.update(coverage=1.5), "does not agree"),
    ("confidence", lambda u: u["records"][0].update(expanded=None), r"records\[0\]\.expanded"),
    ("efficiency", lambda u: u.update(variant="4"), "variant is"),
    ("efficiency", lambda u: u["tests"][0].update(solved=26), r"tests\[0\] has more"),
    ("efficiency", lambda u: u["tests"].append(dict(u["tests"][0])), "one result per test set"),
    ("efficiency", lambda u: u.update(solved_train=50.0), "solved_train"),
    ("efficiency", lambda u: u["tests"][0].update(tasks=31), r"tests\[0\]\.tasks"),
    ("training", lambda u: u.update(run=2), "run is 2, expected 1"),
    ("training", lambda u: u.update(network="mean"), "network is"),
    ("training", lambda u: u.update(solved_train=1.5), "solved_train is 1.5"),
    ("training", lambda u: u.update(iterations=TABLE1.learn.num_iter + 1), "iterations is"),
    ("training", lambda u: u.update(seconds="long"), "seconds should be"),
    ("calibration", lambda u: u.update(run=3), "run is 3"),
    ("calibration", lambda u: u["calibration"].append(dict(u["calibration"][0])),
     r"calibration\[\d+\] comes twice"),
    ("calibration", lambda u: u["calibration"][0].update(h_admissible=-0.1),
     r"calibration\[0\]\.h_admissible"),
    ("teacher", lambda u: u.update(seeds=7), "seeds is 7"),
    ("teacher", lambda u: u.update(unsolved=10**6), "unsolved is"),
    ("teacher", lambda u: u.update(train=81), "does not add up"),
    ("teacher", lambda u: u.update(H=None), "H should be"),
    ("network", lambda u: u.update(network="FFNN"), "network is"),
    ("network", lambda u: u.update(best_epoch=30), "best epoch past"),
    ("network", lambda u: u.update(tau=1.5), "tau is 1.5"),
    ("network", lambda u: u.update(mae=-1.0), "mae is"),
    ("truth training", lambda u: u.update(run=2), "run is 2, expected 1"),
    ("truth training", lambda u: u.update(network="alpha"), "network is"),
    ("truth training", lambda u: u.update(solved_train=-0.5), "solved_train is"),
    ("truth training", lambda u: u.update(iterations=GROUND_TRUTH.learn_mean.num_iter + 1),
     "iterations is"),
    ("truth training", lambda u: u.update(seconds=None), "seconds should be"),
    ("truth conformal", lambda u: u.update(run=0), "run is 0"),
    ("truth conformal", lambda u: u["rows"].pop(), "rows holds 1 records, expected 2"),
    ("truth conformal", lambda u: u["rows"][0].update(alpha=0.75), r"rows\[0\]\.alpha"),
    ("truth conformal", lambda u: u["rows"].reverse(), "rows does not list"),
    ("truth conformal", lambda u: u["rows"][1].update(q="low"), r"rows\[1\]\.q should be"),
    ("truth conformal", lambda u: u["rows"][0].update(states=51), r"rows\[0\]\.states is 51"),
    ("truth conformal", lambda u: u["rows"][0].update(evaluated=39), "more states than it"),
    ("truth reference", lambda u: u.update(run=3), "run is 3"),
    ("truth reference", lambda u: u["row"].update(row="0.9"), r"row\.row is"),
    ("truth reference", lambda u: u["row"].update(held=1.5), r"row\.held is 1\.5"),
    ("truth reference", lambda u: u["row"]["all"]["by_h_star"].update(coverage=2),
     r"row\.all\.by_h_star\.coverage"),
    ("truth reference", lambda u: u["row"].pop("guarantee"), "has no 'guarantee'"),
    ("boot", lambda u: u.update(run=2), "run is 2"),
    ("boot", lambda u: u.update(network="optimal"), "network is"),
    ("boot", lambda u: u.update(rounds=BASELINES.boot.max_rounds + 1), "rounds is"),
    ("boot", lambda u: u.update(stopped=None), "stopped is null"),
    ("boot", lambda u: u.update(examples=10**9), "examples is"),
    ("optimal", lambda u: u.update(network="optimal"), "network is"),
    ("optimal", lambda u: u.update(records=4 * TABLE1.learn.buffer_size + 1), "records is"),
    ("optimal", lambda u: u.update(steps=BASELINES.optimal.max_steps + 1), "steps is"),
    ("optimal", lambda u: u.update(starts_solved=-1), "starts_solved is"),
    ("baseline conformal", lambda u: u.update(calibration_states=0), "calibration_states is 0"),
    ("baseline conformal", lambda u: u["rows"].append(dict(u["rows"][0])),
     r"rows\[3\] comes twice"),
    ("baseline conformal", lambda u: u["rows"][2].update(alpha=0.95), r"rows\[2\]\.alpha"),
    ("baseline conformal", lambda u: u["rows"][1]["held_out"].update(plain=1.01),
     r"rows\[1\]\.held_out\.plain is"),
    ("baseline conformal", lambda u: u["rows"][0]["searched"].update(
        states=BASELINES.searched_sample + 1), r"rows\[0\]\.searched\.states is"),
    ("baseline conformal", lambda u: u["rows"][0]["test_plans"].update(mean_h_star=-3.0),
     r"rows\[0\]\.test_plans\.mean_h_star"),
    ("blocks measure", lambda u: u.update(run=1), "run is 1, expected 2"),
    ("blocks measure", lambda u: u["rows"].pop(1), "rows holds 3 records, expected 4"),
    ("blocks measure", lambda u: u["rows"].reverse(), "rows does not list"),
    ("blocks measure", lambda u: u["rows"][0].update(row="0.5"), r"rows\[0\]\.row"),
    ("blocks measure", lambda u: u["rows"][2]["dag"].update(coverage=1.2),
     r"rows\[2\]\.dag\.coverage is 1\.2"),
    ("blocks measure", lambda u: u["rows"][3].update(held="all"), r"rows\[3\]\.held should"),
    ("blocks measure", lambda u: u["rows"][1]["guarantee"][0].update(tasks=0),
     r"rows\[1\]\.guarantee\[0\]\.tasks is 0"),
    ("blocks measure", lambda u: u["states"].update(uniform=1_001), r"states\.uniform is"),
]


def folder_with(tmp_path, name, unit, file="unit.json"):
    write_json(tmp_path / "experiment.json",
               {"settings": {"config": {}}, "command": "python -m la.experiments.x"})
    (tmp_path / name).mkdir(parents=True, exist_ok=True)
    (tmp_path / name / file).write_text(json.dumps(unit))
    return tmp_path / name / file


@pytest.mark.parametrize("experiment", CASES)
def test_a_whole_unit_is_accepted(experiment, tmp_path):
    name, made, shape = CASES[experiment]
    folder_with(tmp_path, name, made())
    check_folder(tmp_path, shape)


@pytest.mark.parametrize("experiment, tamper, field", TAMPERED)
def test_a_tampered_unit_is_refused_naming_the_file_and_the_field(experiment, tamper, field,
                                                                   tmp_path):
    name, made, shape = CASES[experiment]
    unit = made()
    tamper(unit)
    path = folder_with(tmp_path, name, unit)
    with pytest.raises(ValueError, match=field) as refused:
        check_folder(tmp_path, shape)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_tasks_json_is_held_to_the_records_of_its_unit(tmp_path):
    """An unfinished unit's records so far: fewer than its tasks, but each of the same shape."""
    name, made, shape = CASES["suboptimality"]
    records = made()["records"][:2]
    folder_with(tmp_path, name, records, "tasks.json")
    check_folder(tmp_path, shape)
    path = folder_with(tmp_path, name, records + [dict(records[0])], "tasks.json")
    with pytest.raises(ValueError, match=r"tasks\[2\] comes twice") as refused:
        check_folder(tmp_path, shape)
    assert str(path) in str(refused.value)
    folder_with(tmp_path, name, [replace_cost(records[0], "52")], "tasks.json")
    with pytest.raises(ValueError, match=r"tasks\[0\]\.cost should be an integer"):
        check_folder(tmp_path, shape)


def replace_cost(record, cost):
    return {**record, "cost": cost}
