"""The ground-truth experiment's arms (`--arm`, `la.experiments.ground_truth_config`): what each
changes in the configuration, the oracle's plans read off the exact table and handed to training,
an old results folder resumed as the paper's arm; in the slow tier each arm's quick run."""
import json

import numpy as np
import pytest

from la.domains.names import make_domain
from la.experiments import ground_truth, ground_truth_units
from la.experiments.ground_truth_config import ADDED, ARMS, QUICK, config_for, with_arm
from la.pdb.exact import UNSEEN, h_star_table
from la.rivals.optimal_labels import table_solver
from la.runs.folder import check_folder, prepare
from la.runs.lock import release
from la.search.result import check_plan

PUZZLE = make_domain("8-puzzle")


@pytest.fixture(scope="module")
def exact():
    return h_star_table(PUZZLE)


def test_each_arm_changes_only_its_own_settings():
    paper = config_for("8-puzzle", True)
    assert paper == QUICK and paper.arm == "paper" and paper.calibration_tasks is None
    batched = config_for("8-puzzle", True, "batched")
    assert (batched.order, batched.learn.order, batched.learn_mean.order) == ("batched",) * 3
    assert config_for("8-puzzle", True, "oracle") == with_arm(QUICK, "oracle")
    conformal = config_for("8-puzzle", True, "conformal")
    assert conformal.calibration_tasks == 10
    assert with_arm(QUICK, "conformal").calibration_tasks == 100
    for cfg in (batched, conformal, config_for("8-puzzle", True, "oracle")):
        changed = {k for k in vars(cfg) if getattr(cfg, k) != getattr(paper, k)}
        assert changed <= {"arm", "order", "learn", "learn_mean", "calibration_tasks"}
    with pytest.raises(ValueError, match="unknown arm 'bogus'"):
        with_arm(QUICK, "bogus")
    assert config_for("2x5-puzzle", False).reference == "MD"
    assert config_for("10-pancake", False).reference == "gap"


def test_the_default_folder_names_the_arm_but_the_papers():
    names = {arm: ground_truth.default_out(config_for("2x5-puzzle", False, arm), False).name
             for arm in ARMS}
    assert names == {"paper": "ground-truth-2x5-puzzle",
                     **{arm: f"ground-truth-2x5-puzzle-{arm}" for arm in ARMS[1:]}}
    assert ground_truth.default_out(QUICK, True).name == "ground-truth-quick"


def test_the_table_solver_returns_optimal_plans_that_replay(exact):
    """From every h* level of the 8-puzzle: a legal plan to the goal of exactly h* moves, every
    state's suffix cost its h* (so every label the oracle arm trains on is exact)."""
    solve, rng = table_solver(PUZZLE, exact), np.random.default_rng(0)
    for v in range(0, 32):
        ranks = np.flatnonzero(exact.table == v)
        start = exact.abstraction.unrank(rng.choice(ranks, 1))[0]
        plan = solve(start)
        check_plan(PUZZLE, start, plan)
        assert len(plan) - 1 == v
        np.testing.assert_array_equal(exact(plan), np.arange(v, -1, -1))
    assert not np.any(exact.table[exact.table != UNSEEN] > 31)


class Handed(Exception):
    """Raised by the stand-in for training, once it has seen what it was handed."""


@pytest.mark.parametrize("arm", ARMS)
def test_only_the_oracle_arm_trains_on_plans_from_the_table(arm, monkeypatch, exact, tmp_path):
    seen = {}

    def train(domain, config, rng, encoding, relabel=None, **kwargs):
        seen.update(relabel=relabel, order=config.order)
        raise Handed

    monkeypatch.setattr(ground_truth_units, "train", train)
    spec = {"seed": 0, "config": with_arm(QUICK, arm), "networks": str(tmp_path),
            "pdb_dir": None, "name": "run1/alpha", "run": 1, "network": "alpha"}
    with pytest.raises(Handed):
        ground_truth_units.train_unit(spec, tmp_path, False)
    assert seen["order"] == ("batched" if arm == "batched" else "depth-first")
    if arm != "oracle":
        assert seen["relabel"] is None
        return
    start = exact.abstraction.unrank(np.flatnonzero(exact.table == 20)[:1])[0]
    np.testing.assert_array_equal(seen["relabel"](start), table_solver(PUZZLE, exact)(start))


def test_a_folder_from_before_the_arms_resumes_as_the_papers_arm_only(tmp_path):
    """A folder whose settings lack the arm (made before it) resumes with the paper's arm, and not
    with another (`prepare`'s `added`)."""
    out = tmp_path / "out"
    old = {"config": {"domain": "2x5-puzzle", "runs": 10}, "seed": 0, "run": 1}
    prepare(out, old, False, ["old"])
    release(out)
    paper = {**old, "config": {**old["config"], "arm": "paper", "calibration_tasks": None}}
    prepare(out, paper, True, ["paper"], added=ADDED)
    release(out)
    for settings, added in (({**paper, "config": {**paper["config"], "arm": "oracle"}}, ADDED),
                            (paper, None)):
        with pytest.raises(ValueError, match="other settings"):
            prepare(out, settings, True, ["other"], added=added)
    about = json.loads((out / "experiment.json").read_text())
    assert about["settings"] == old and [r["command"] for r in about["resumed"]] == ["paper"]


def quick_arm(arm: str, out) -> dict:
    assert ground_truth.main(["--quick", "--arm", arm, "--jobs", "1", "--out", str(out)]) == 0
    return json.loads((out / "results.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("arm", ARMS[1:])
def test_each_arms_quick_run_is_recorded_and_measured(arm, tmp_path):
    record = quick_arm(arm, tmp_path / arm)
    settings = json.loads((tmp_path / arm / "experiment.json").read_text())["settings"]
    assert record["arm"] == arm == settings["config"]["arm"] == record["config"]["arm"]
    assert [r["row"] for r in record["table"]] == ["0.9", "0.5", "N/A", "MD"]
    assert all(r["runs"] == 1 for r in record["table"])
    if arm == "batched":
        assert record["config"]["order"] == record["config"]["learn"]["order"] == "batched"
    if arm == "oracle":
        for network in ("alpha", "mean"):
            log = json.loads((tmp_path / arm / "run1" / network / "train_log.json").read_text())
            solved = [t for e in log for t in e["tasks"] if t["solved"]]
            assert solved and all("label_cost" in t for t in solved)
            audit = record["measures"][0]["labels"][network]
            assert sum(a["records"] for a in audit) > 0
            assert all(a["max_error"] == 0 and a["mean_error"] == 0
                       for a in audit if a["records"])
    # what --resume checks first: every unit held to its run's settings (the conformal one too)
    check_folder(tmp_path / arm, lambda name: ground_truth.unit_shape(config_for(
        "8-puzzle", True, arm), name))
    if arm == "conformal":
        (calibrated,) = record["conformal"]
        assert [r["alpha"] for r in calibrated["rows"]] == list(QUICK.alphas)
        for r in calibrated["rows"]:
            assert np.isfinite(r["q"]) and r["states"] >= 9 and r["evaluated"] >= r["states"]
    else:
        assert "conformal" not in record
