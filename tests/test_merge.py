"""`python -m la.experiments.merge`: separate runs' folders combine into the whole experiment's results, and
mismatched settings, overlapping runs and gaps are refused in one line."""
import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from la.experiments import confidence
from la.experiments.confidence_config import QUICK

ROOT = Path(__file__).resolve().parents[1]


def command(module, *args):
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def merge(*args):
    return command("la.experiments.merge", *args)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Runs 1 and 2 of a --quick --runs 2 efficiency experiment, each made alone in its own folder."""
    out = tmp_path_factory.mktemp("merge")
    for k in (1, 2):
        done = command("la.experiments.efficiency", "--quick", "--runs", "2", "--run", k, "--out", out / f"r{k}",
                       "--jobs", "1")
        assert done.returncode == 0, done.stderr
    return out


def refused(done, message):
    return done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_two_single_run_folders_merge_into_the_two_run_results(runs, tmp_path):
    done = merge(tmp_path / "m", runs / "r2", runs / "r1")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "m" / "results.json").read_text())
    one, two = (json.loads((runs / f"r{k}" / "results.json").read_text()) for k in (1, 2))
    assert record["runs"] == [1, 2] and record["units"] == one["units"] + two["units"]
    assert all(r["runs"] == 2 for r in record["table"]) and record["config"]["runs"] == 2
    gtp = [u["solved_test"] for u in record["units"] if u["variant"] == "GTP"]
    assert record["table"][0]["solved_test"] == pytest.approx(100 * sum(gtp) / 2)
    assert [m["runs"] for m in record["merged"]] == [[2], [1]] and record["commits"] == [one["commit"]]
    csv = (tmp_path / "m" / "results.csv").read_text().splitlines()
    assert len(csv) == 1 + 2 * 7 and (tmp_path / "m" / "table2_efficiency.png").exists()


def test_overlaps_gaps_and_mismatches_are_refused(runs, tmp_path):
    shutil.copytree(runs / "r2", tmp_path / "again")
    assert refused(merge(tmp_path / "a", runs / "r1", runs / "r2", tmp_path / "again"), "run 2 is in both")
    assert refused(merge(tmp_path / "b", runs / "r2"), "runs 1 of 1..2 are in none of the folders")
    other = json.loads((runs / "r2" / "experiment.json").read_text())
    other["settings"]["seed"] = 7
    (tmp_path / "again" / "experiment.json").write_text(json.dumps(other))
    assert refused(merge(tmp_path / "c", runs / "r1", tmp_path / "again"), "different settings")
    other["settings"]["seed"] = 0
    other["settings"]["config"]["test_tasks"] = 5
    (tmp_path / "again" / "experiment.json").write_text(json.dumps(other))
    assert refused(merge(tmp_path / "c", runs / "r1", tmp_path / "again"), "config differs in test_tasks")
    assert refused(merge(tmp_path / "d", runs / "r1", runs / "r1"), "named twice")
    assert not any((tmp_path / name).exists() for name in "abcd")         # nothing written


def test_provenance_does_not_count_as_settings(runs, tmp_path):
    """Folders made by other commands and commits of the same algorithm merge; every commit is listed."""
    shutil.copytree(runs / "r2", tmp_path / "r2")
    about = json.loads((tmp_path / "r2" / "experiment.json").read_text())
    about.update(command="python -m la.experiments.efficiency --quick --runs 2 --run 2 --jobs 8", commit="abc123")
    (tmp_path / "r2" / "experiment.json").write_text(json.dumps(about))
    done = merge(tmp_path / "m", runs / "r1", tmp_path / "r2")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "m" / "results.json").read_text())["commits"][-1] == "abc123"


@pytest.mark.slow
def test_merged_runs_equal_the_two_run_experiment(runs, tmp_path):
    """The issue's check: runs 1 and 2 computed in separate folders and merged equal `--runs 2` in one."""
    whole = command("la.experiments.efficiency", "--quick", "--runs", "2", "--out", tmp_path / "whole", "--jobs", "2")
    done = merge(tmp_path / "m", runs / "r1", runs / "r2")
    assert whole.returncode == 0 and done.returncode == 0, whole.stderr + done.stderr
    merged, one = (json.loads((tmp_path / name / "results.json").read_text()) for name in ("m", "whole"))
    untimed = lambda units: [{k: v for k, v in u.items() if "seconds" not in k} for u in units]   # noqa: E731
    assert untimed(merged["units"]) == untimed(one["units"])
    assert merged["table"] == one["table"] and merged["config"] == one["config"]
    assert (tmp_path / "m" / "results.csv").read_text() == (tmp_path / "whole" / "results.csv").read_text()


@pytest.mark.slow
def test_suboptimality_runs_merge_into_the_two_run_experiment(tmp_path):
    """The same on the suboptimality experiment: the tests, calibration and training of `--runs 2`, with the
    baseline row (which no run owns) once."""
    sub = lambda *args: command("la.experiments.suboptimality", "--quick", "--runs", "2", *args)   # noqa: E731
    made = [sub("--run", k, "--out", tmp_path / f"r{k}", "--jobs", "1") for k in (1, 2)]
    made.append(sub("--out", tmp_path / "whole", "--jobs", "2"))
    made.append(merge(tmp_path / "m", tmp_path / "r1", tmp_path / "r2"))
    assert all(done.returncode == 0 for done in made), "".join(done.stderr for done in made)
    merged, whole = (json.loads((tmp_path / name / "results.json").read_text()) for name in ("m", "whole"))
    untimed = lambda tests: [(t["run"], t["row"], [{k: v for k, v in r.items() if k != "seconds"}   # noqa: E731
                                                   for r in t["records"]]) for t in tests]
    assert untimed(merged["tests"]) == untimed(whole["tests"]) and merged["runs"] == [1, 2]
    assert merged["calibration"] == whole["calibration"] and merged["config"] == whole["config"]
    assert merged["learning_curves"] == whole["learning_curves"]
    assert [r["unsolved"] for r in merged["table"]] == [r["unsolved"] for r in whole["table"]]


def untimed(units: list) -> list:
    """Units' results without their times: 'seconds', also in each of their records."""
    return [{k: untimed(v) if k == "records" else v for k, v in u.items() if k != "seconds"} for u in units]


def untimed_csv(path: Path) -> list:
    """A CSV file's rows without its seconds column."""
    rows = [line.split(",") for line in path.read_text().splitlines()]
    drop = rows[0].index("seconds")
    return [row[:drop] + row[drop + 1:] for row in rows]


@pytest.fixture(scope="module")
def confidence_runs(tmp_path_factory):
    """A --runs 2 confidence experiment below --quick's scale (fewer seeds, one X, one test task): runs 1 and 2
    each made alone in its own folder, and both in one ("whole")."""
    out = tmp_path_factory.mktemp("confidence")
    tiny = replace(QUICK["15-puzzle"], seeds=12, X=(20,), instances=(2,), noise_rows=100)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(QUICK, "15-puzzle", tiny)
        for name, run in (("r1", ["--run", "1"]), ("r2", ["--run", "2"]), ("whole", [])):
            assert confidence.main(["--quick", "--runs", "2", *run, "--jobs", "1", "--out", str(out / name)]) == 0
    return out


def test_confidence_runs_merge_into_the_two_run_experiment(confidence_runs, tmp_path):
    """Both tables, the units and the CSV files of `--runs 2`, but for the times, with the GBFS classical row
    (which no run owns) once."""
    done = merge(tmp_path / "m", confidence_runs / "r2", confidence_runs / "r1")
    assert done.returncode == 0, done.stderr
    merged = json.loads((tmp_path / "m" / "results.json").read_text())
    whole = json.loads((confidence_runs / "whole" / "results.json").read_text())
    for key in ("teacher", "training", "tests"):
        assert untimed(merged[key]) == untimed(whole[key]), key
    assert merged["ood"] == whole["ood"] and merged["coverage"] == whole["coverage"]
    assert merged["config"] == whole["config"] and merged["runs"] == [1, 2] and merged["quick"]
    assert [t["name"] for t in merged["tests"]].count("GBFS classical") == 1
    assert [m["runs"] for m in merged["merged"]] == [[2], [1]] and merged["commits"] == [whole["commit"]]
    for name in ("results.csv", "ood.csv"):
        assert untimed_csv(tmp_path / "m" / name) == untimed_csv(confidence_runs / "whole" / name), name
    assert all((tmp_path / "m" / f"confidence_15-puzzle_{name}.png").exists() for name in ("ood", "coverage"))


def test_confidence_and_suboptimality_folders_are_refused_together(confidence_runs, tmp_path):
    sub = command("la.experiments.suboptimality", "--quick", "--runs", "2", "--run", "2", "--out", tmp_path / "sub",
                  "--jobs", "1")
    assert sub.returncode == 0, sub.stderr
    assert refused(merge(tmp_path / "m", confidence_runs / "r1", tmp_path / "sub"),
                   "holds a suboptimality experiment and")
    assert refused(merge(tmp_path / "m", tmp_path / "sub", confidence_runs / "r1"), "a suboptimality one")
    assert not (tmp_path / "m").exists()


def test_confidence_overlaps_and_a_different_classical_row_are_refused(confidence_runs, tmp_path):
    runs = confidence_runs
    assert refused(merge(tmp_path / "a", runs / "r1", runs / "r2", runs / "whole"), "run 1 is in both")
    shutil.copytree(runs / "r2", tmp_path / "r2")
    record = json.loads((tmp_path / "r2" / "results.json").read_text())
    record["tests"][0]["records"][0]["generated"] += 1                   # the classical row, run None
    (tmp_path / "r2" / "results.json").write_text(json.dumps(record))
    assert refused(merge(tmp_path / "b", runs / "r1", tmp_path / "r2"), "disagree on the GBFS classical row")
    assert not any((tmp_path / name).exists() for name in "ab")
