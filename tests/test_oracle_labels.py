"""The oracle-label arm: LearnHeuristicPrac exactly as the paper's, except that each solved
training task's plan is replaced by an optimal plan from the same start (`Learner.relabel`), so
every label in the buffer is h* (the states change with the plans)."""
import numpy as np
import pytest

from la.config import LearnConfig
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.learn import Learner, learn_heuristic_prac
from la.rivals.optimal_labels import optimal_solver
from la.runs.training import train
from la.search.bfs import ExactDistances

EIGHT = SlidingTile(3)
SMALL = LearnConfig(num_iter=5, node_limit=100_000, max_steps=60, train_iter=60, wunn_blocks=3)


def oracle_run(seed=0):
    learner = Learner(EIGHT, SMALL, np.random.default_rng(seed), OneHot(EIGHT))
    learner.relabel = optimal_solver(EIGHT)
    return learn_heuristic_prac(EIGHT, SMALL, np.random.default_rng(seed), OneHot(EIGHT), learner)


@pytest.fixture(scope="module")
def whole():
    return oracle_run()


def test_with_oracle_plans_every_label_is_h_star_and_the_log_keeps_both_costs(whole):
    learner = whole
    states, labels = learner.buffer.states(), learner.buffer.labels()
    assert len(labels) > 20
    np.testing.assert_array_equal(labels, ExactDistances(EIGHT)(states))
    solved = [t for e in learner.log for t in e["tasks"] if t["solved"]]
    assert solved and all(t["label_cost"] <= t["cost"] for t in solved)
    assert all("label_cost" not in t for e in learner.log for t in e["tasks"] if not t["solved"])


def test_a_resumed_oracle_run_equals_an_uninterrupted_one(whole, tmp_path):
    checkpoint = tmp_path / "checkpoint.npz"

    def stop_after_two(line, count=[0]):
        count[0] += 1
        if count[0] == 2:
            raise KeyboardInterrupt

    try:
        train(EIGHT, SMALL, np.random.default_rng(0), OneHot(EIGHT), checkpoint=checkpoint,
              progress=stop_after_two, relabel=optimal_solver(EIGHT))
    except KeyboardInterrupt:
        pass
    resumed = train(EIGHT, SMALL, np.random.default_rng(0), OneHot(EIGHT), checkpoint=checkpoint,
                    progress=None, relabel=optimal_solver(EIGHT))
    np.testing.assert_array_equal(resumed.buffer.labels(), whole.buffer.labels())
    assert [e["solved"] for e in resumed.log] == [e["solved"] for e in whole.log]


def test_the_option_is_refused_with_saved_networks(tmp_path):
    from la.experiments import suboptimality
    with pytest.raises(ValueError, match="--labels change training"):
        suboptimality.main(["--quick", "--labels", "optimal", "--networks", str(tmp_path),
                            "--out", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_run_with_oracle_labels_is_recorded_and_resumed_only_with_them(tmp_path):
    import json
    from la.experiments import suboptimality
    out = tmp_path / "out"
    assert suboptimality.main(["--quick", "--labels", "optimal", "--rows", "0.9", "--jobs", "1",
                               "--out", str(out)]) == 0
    assert json.loads((out / "experiment.json").read_text())["settings"]["labels"] == "optimal"
    assert json.loads((out / "results.json").read_text())["labels"] == "optimal"
    log = json.loads((out / "run1" / "alpha" / "train_log.json").read_text())
    assert any("label_cost" in t for e in log for t in e["tasks"])
    with pytest.raises(ValueError, match="other settings"):
        suboptimality.main(["--quick", "--rows", "0.9", "--jobs", "1", "--out", str(out),
                            "--resume"])
