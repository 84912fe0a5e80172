"""Table 1's gap (figures/table1-gap/): the label audit, and the suboptimality options its experiments use."""
import json
from dataclasses import replace

import numpy as np
import pytest

from la.config import LearnConfig
from la.experiments import label_audit, suboptimality
from la.experiments.runs.checkpoint import BUFFER, read_state
from la.experiments.runs.training import train
from la.features import OneHot
from la.search.bfs import ExactDistances
from tests.test_learn import EIGHT

# Long enough that iterations solve several plans each and the buffer skips records it already holds.
RUN = LearnConfig(num_iter=9, node_limit=100_000, max_steps=60, train_iter=60, wunn_blocks=3)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """An 8-puzzle LearnHeuristicPrac run with its checkpoint, in results-folder layout (run1/alpha)."""
    results = tmp_path_factory.mktemp("results")
    folder = results / "run1" / "alpha"
    folder.mkdir(parents=True)
    train(EIGHT, RUN, np.random.default_rng(3), OneHot(EIGHT), checkpoint=folder / "checkpoint.npz", progress=None)
    return results


def test_starts_read_back_from_the_buffer_are_the_logged_ones(toy_run):
    arrays, meta = read_state(toy_run / "run1" / "alpha" / "checkpoint.npz")
    logged = label_audit.logged_starts(meta["log"])
    inferred, missing = label_audit.infer_starts(meta["log"], arrays[BUFFER[0]], arrays[BUFFER[1]], EIGHT)
    assert len(logged) > 30 and 0 < len(inferred) and len(inferred) + missing == len(logged)
    # Each inferred start is a logged one, in the logged order (a subsequence: the others were already held).
    keys = [(i, label, s.tobytes()) for i, _, label, s in logged]
    position = -1
    for i, _, label, s in inferred:
        position = keys.index((i, label, s.tobytes()), position + 1)
    # The last iteration's plans are not trained on, so none of its starts is audited.
    assert max(i for i, *_ in logged) == RUN.num_iter - 1


def test_the_audit_finds_each_starts_exact_cost(toy_run, tmp_path, capsys):
    assert label_audit.main([str(toy_run), "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "label-audit.json").read_text())
    unit = record["units"]["run1/alpha"]
    assert unit["source"] == "logged" and unit["not_found"] == 0
    exact = ExactDistances(EIGHT)                              # breadth-first over all 181,440 states
    h_star = exact(np.array([r["start"] for r in unit["records"]], dtype=np.uint8))
    assert [r["h_star"] for r in unit["records"]] == h_star.tolist()
    assert all(r["label"] >= r["h_star"] for r in unit["records"])
    assert "plans trained on" in capsys.readouterr().out
    # A second call reuses the costs it found (the file is its cache) and prints the same.
    assert label_audit.main([str(toy_run), "--out", str(tmp_path), "--min-label", "3"]) == 0
    again = json.loads((tmp_path / "label-audit.json").read_text())["units"]["run1/alpha"]["records"]
    assert again == [r for r in unit["records"] if r["label"] >= 3]


def test_the_audit_refuses_a_folder_without_a_training_checkpoint(tmp_path, capsys):
    assert label_audit.run(label_audit.main, [str(tmp_path)]) == 2
    assert "no training checkpoint" in capsys.readouterr().err


def test_train_budget_hold_alpha_and_rows_change_only_what_they_say(tmp_path):
    out = tmp_path / "out"
    assert suboptimality.main(["--quick", "--hold-alpha", "--train-budget", "50000", "--rows", "0.9",
                               "--jobs", "1", "--out", str(out)]) == 0
    learn = json.loads((out / "experiment.json").read_text())["settings"]["config"]["learn"]
    assert learn["node_limit"] == 50_000 and learn["delta"] == 0.0
    log = json.loads((out / "run1" / "alpha" / "train_log.json").read_text())
    assert {e["alpha"] for e in log} == {0.99}
    assert all(t["generated"] <= 50_001 for e in log for t in e["tasks"])
    results = json.loads((out / "results.json").read_text())
    assert {r["row"]: r["runs"] for r in results["table"]} == {"MD": 0, "0.9": 1, "0.5": 0, "N/A": 0}
    assert results["rows"] == ["0.9"] and results["machine"]["numpy"] == np.__version__


@pytest.mark.parametrize("argv, message", [
    (["--quick", "--rows", "0.95"], "this scale tests no row 0.95"),
    (["--quick", "--rows", "0.33"], "unknown row '0.33'"),
    (["--quick", "--train-budget", "0"], "must be at least 1"),
])
def test_bad_options_are_refused_before_anything_is_written(argv, message, tmp_path, capsys):
    try:
        status = suboptimality.run(suboptimality.main, [*argv, "--out", str(tmp_path / "out")])
    except SystemExit as stop:                        # argparse's refusals
        status = stop.code
    assert status == 2 and message in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_saved_networks_cannot_be_retrained_with_other_options(tmp_path, capsys):
    (tmp_path / "nets").mkdir()
    status = suboptimality.run(suboptimality.main, ["--quick", "--networks", str(tmp_path / "nets"), "--hold-alpha",
                                                    "--out", str(tmp_path / "out")])
    assert status == 2 and not (tmp_path / "out").exists()
