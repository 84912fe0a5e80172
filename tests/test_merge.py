"""`python -m la.experiments.merge`: separate runs' folders combine into the whole experiment's
results, and mismatched settings, overlapping runs and gaps are refused in one line; a merge stopped
half-way leaves nothing, and two merges into one folder cannot both write."""
import errno
import json
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from la.experiments import confidence, efficiency
from la.experiments import merge as merging
from la.experiments.confidence_config import QUICK
from la.io import PARTIAL
from la.runs import cli
from la.runs.lock import LOCK
from refusals import refused, refused_process

ROOT = Path(__file__).resolve().parents[1]


def command(module, *args):
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def merge(*args):
    return command("la.experiments.merge", *args)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Runs 1 and 2 of a --quick --runs 2 efficiency experiment, each made alone in its own
    folder."""
    out = tmp_path_factory.mktemp("merge")
    for k in (1, 2):
        done = command("la.experiments.efficiency", "--quick", "--runs", "2", "--run", k,
                       "--out", out / f"r{k}", "--jobs", "1")
        assert done.returncode == 0, done.stderr
    return out


def test_two_single_run_folders_merge_into_the_two_run_results(runs, tmp_path):
    done = merge(tmp_path / "m", runs / "r2", runs / "r1")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "m" / "results.json").read_text())
    one, two = (json.loads((runs / f"r{k}" / "results.json").read_text()) for k in (1, 2))
    assert record["runs"] == [1, 2] and record["units"] == one["units"] + two["units"]
    assert all(r["runs"] == 2 for r in record["table"]) and record["config"]["runs"] == 2
    gtp = [u["solved_test"] for u in record["units"] if u["variant"] == "GTP"]
    assert record["table"][0]["solved_test"] == pytest.approx(100 * sum(gtp) / 2)
    assert ([m["runs"] for m in record["merged"]] == [[2], [1]]
            and record["commits"] == [one["commit"]])
    csv = (tmp_path / "m" / "results.csv").read_text().splitlines()
    assert len(csv) == 1 + 2 * 7 and (tmp_path / "m" / "table2_efficiency.png").exists()


def test_overlaps_gaps_and_mismatches_are_refused(runs, tmp_path):
    shutil.copytree(runs / "r2", tmp_path / "again")
    refused_process(merge(tmp_path / "a", runs / "r1", runs / "r2", tmp_path / "again"),
                    "run 2 is in both")
    refused_process(merge(tmp_path / "b", runs / "r2"),
                    f"runs 1 of 1..2 are in none of the folders ({runs / 'r2'} holds run 2)")
    other = json.loads((runs / "r2" / "experiment.json").read_text())
    other["settings"]["seed"] = 7
    (tmp_path / "again" / "experiment.json").write_text(json.dumps(other))
    refused_process(merge(tmp_path / "c", runs / "r1", tmp_path / "again"), "different settings")
    other["settings"]["seed"] = 0
    other["settings"]["config"]["test_tasks"] = 5
    (tmp_path / "again" / "experiment.json").write_text(json.dumps(other))
    refused_process(merge(tmp_path / "c", runs / "r1", tmp_path / "again"),
                    "config differs in test_tasks")
    refused_process(merge(tmp_path / "d", runs / "r1", runs / "r1"), "named twice")
    assert not any((tmp_path / name).exists() for name in "abcd")         # nothing written


def damaged_copy(folder: Path, to: Path, change) -> Path:
    """`folder`'s experiment.json and results.json (all a merge reads of an efficiency or confidence
    folder) in `to`, its record changed by `change(record)`, which returns the record to write."""
    to.mkdir()
    shutil.copy(folder / "experiment.json", to)
    record = change(json.loads((folder / "results.json").read_text()))
    (to / "results.json").write_text(json.dumps(record))
    return to / "results.json"


def merged_in_process(capsys, *args) -> tuple:
    """`python -m la.experiments.merge ARGS` in this process: exit status and stderr."""
    status = cli.run(merging.main, [str(a) for a in args])
    return status, capsys.readouterr().err


def without_run(record: dict) -> dict:
    for unit in record["units"]:
        del unit["run"]
    return record


def with_tests_as_text(record: dict) -> dict:
    record["units"][1]["tests"] = "three test sets"
    return record


@pytest.mark.parametrize("change, message", [
    (lambda record: record["units"], "expected a JSON object of results, got list"),
    (lambda record: {k: v for k, v in record.items() if k != "units"}, "the record has no 'units'"),
    (with_tests_as_text, "units[1].tests should be a list, got a string"),
    (without_run, "units[0] has no 'run'"),
    (lambda record: dict(record, config=dict(record["config"], length_incs=6)),
     "config.length_incs should be a list, got 6"),
    (lambda record: dict(record,
                         config=dict(record["config"],
                                     learn=dict(record["config"]["learn"], time_limit="1"))),
     "config.learn.time_limit should be float | None, got '1'"),
    (lambda record: dict(record, units=[dict(u, variant="7") for u in record["units"]]),
     "units[0] is of variant '7', which its config has not"),
])
def test_damaged_results_are_refused_before_anything_is_written(runs, tmp_path, capsys, change,
                                                                message):
    """Each damaged results.json is one line naming it, and OUT is not created (before:
    AttributeError, KeyError, or a TypeError after OUT/results.json was written)."""
    path = damaged_copy(runs / "r2", tmp_path / "bad", change)
    refused(merging.main, [tmp_path / "m", runs / "r1", tmp_path / "bad"], capsys,
            f"{path}: {message}", absent=tmp_path / "m", argparse=False)


@pytest.mark.slow
def test_units_that_lack_their_run_number_are_named(confidence_runs, tmp_path, capsys):
    """A confidence folder of --run 2 whose tests name no run (null is the GBFS classical row's):
    the file is named, not 'runs 2 of 1..2 are in none of the folders'."""
    path = damaged_copy(confidence_runs / "r2", tmp_path / "bad",
                        lambda record: dict(record,
                                            tests=[dict(t, run=None) for t in record["tests"]]))
    status, err = merged_in_process(capsys, tmp_path / "m", confidence_runs / "r1",
                                    tmp_path / "bad")
    assert status == 2 and len(err.splitlines()) == 1
    assert f"{path}: no unit names run 2, which {tmp_path / 'bad'} ran (--run 2" in err
    assert "its units lack their run numbers" in err and not (tmp_path / "m").exists()


@pytest.mark.parametrize("out", ["m", "new/m"])
def test_a_merge_whose_write_fails_leaves_nothing(runs, tmp_path, monkeypatch, out):
    """A full disk while writing results.csv, after results.json: both are gone, and OUT and the
    folders made for it too."""
    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(efficiency, "write_text", full)
    with pytest.raises(OSError, match="No space left"):
        merging.main([str(tmp_path / out), str(runs / "r1"), str(runs / "r2")])
    assert sorted(tmp_path.iterdir()) == []
    (tmp_path / "empty").mkdir()
    with pytest.raises(OSError, match="No space left"):
        merging.main([str(tmp_path / "empty"), str(runs / "r1"), str(runs / "r2")])
    assert list((tmp_path / "empty").iterdir()) == []


def test_provenance_does_not_count_as_settings(runs, tmp_path):
    """Folders made by other commands and commits of the same algorithm merge; every commit is
    listed."""
    shutil.copytree(runs / "r2", tmp_path / "r2")
    about = json.loads((tmp_path / "r2" / "experiment.json").read_text())
    about.update(command="python -m la.experiments.efficiency --quick --runs 2 --run 2 --jobs 8",
                 commit="abc123")
    (tmp_path / "r2" / "experiment.json").write_text(json.dumps(about))
    done = merge(tmp_path / "m", runs / "r1", tmp_path / "r2")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "m" / "results.json").read_text())["commits"][-1] == "abc123"


@pytest.mark.slow
def test_merged_runs_equal_the_two_run_experiment(runs, tmp_path):
    """The issue's check: runs 1 and 2 computed in separate folders and merged equal `--runs 2` in
    one."""
    whole = command("la.experiments.efficiency", "--quick", "--runs", "2",
                    "--out", tmp_path / "whole", "--jobs", "2")
    done = merge(tmp_path / "m", runs / "r1", runs / "r2")
    assert whole.returncode == 0 and done.returncode == 0, whole.stderr + done.stderr
    merged, one = (json.loads((tmp_path / name / "results.json").read_text())
                   for name in ("m", "whole"))
    untimed = lambda units: [{k: v for k, v in u.items() if "seconds" not in k}   # noqa: E731
                             for u in units]
    assert untimed(merged["units"]) == untimed(one["units"])
    assert merged["table"] == one["table"] and merged["config"] == one["config"]
    assert ((tmp_path / "m" / "results.csv").read_text()
            == (tmp_path / "whole" / "results.csv").read_text())


@pytest.mark.slow
def test_suboptimality_runs_merge_into_the_two_run_experiment(tmp_path):
    """The same on the suboptimality experiment: the tests, calibration and training of `--runs 2`,
    with the baseline row (which no run owns) once."""
    sub = lambda *args: command("la.experiments.suboptimality", "--quick",   # noqa: E731
                                "--runs", "2", *args)
    made = [sub("--run", k, "--out", tmp_path / f"r{k}", "--jobs", "1") for k in (1, 2)]
    made.append(sub("--out", tmp_path / "whole", "--jobs", "2"))
    made.append(merge(tmp_path / "m", tmp_path / "r1", tmp_path / "r2"))
    assert all(done.returncode == 0 for done in made), "".join(done.stderr for done in made)
    merged, whole = (json.loads((tmp_path / name / "results.json").read_text())
                     for name in ("m", "whole"))
    untimed = lambda tests: [(t["run"], t["row"],   # noqa: E731
                              [{k: v for k, v in r.items() if k != "seconds"}
                               for r in t["records"]]) for t in tests]
    assert untimed(merged["tests"]) == untimed(whole["tests"]) and merged["runs"] == [1, 2]
    assert merged["calibration"] == whole["calibration"] and merged["config"] == whole["config"]
    assert merged["learning_curves"] == whole["learning_curves"]
    assert [r["unsolved"] for r in merged["table"]] == [r["unsolved"] for r in whole["table"]]


def untimed(units: list) -> list:
    """Units' results without their times: 'seconds', also in each of their records."""
    return [{k: untimed(v) if k == "records" else v for k, v in u.items() if k != "seconds"}
            for u in units]


def untimed_csv(path: Path) -> list:
    """A CSV file's rows without its seconds column."""
    rows = [line.split(",") for line in path.read_text().splitlines()]
    drop = rows[0].index("seconds")
    return [row[:drop] + row[drop + 1:] for row in rows]


@pytest.fixture(scope="module")
def confidence_runs(tmp_path_factory):
    """A --runs 2 confidence experiment below --quick's scale (fewer seeds, one X, one test task):
    runs 1 and 2 each made alone in its own folder, and both in one ("whole")."""
    out = tmp_path_factory.mktemp("confidence")
    tiny = replace(QUICK["15-puzzle"], seeds=12, X=(20,), instances=(2,), noise_rows=100)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(QUICK, "15-puzzle", tiny)
        for name, run in (("r1", ["--run", "1"]), ("r2", ["--run", "2"]), ("whole", [])):
            assert confidence.main(["--quick", "--runs", "2", *run, "--jobs", "1", "--out",
                                    str(out / name)]) == 0
    return out


@pytest.mark.slow
def test_confidence_runs_merge_into_the_two_run_experiment(confidence_runs, tmp_path):
    """Both tables, the units and the CSV files of `--runs 2`, but for the times, with the GBFS
    classical row (which no run owns) once."""
    done = merge(tmp_path / "m", confidence_runs / "r2", confidence_runs / "r1")
    assert done.returncode == 0, done.stderr
    merged = json.loads((tmp_path / "m" / "results.json").read_text())
    whole = json.loads((confidence_runs / "whole" / "results.json").read_text())
    for key in ("teacher", "training", "tests"):
        assert untimed(merged[key]) == untimed(whole[key]), key
    assert merged["ood"] == whole["ood"] and merged["coverage"] == whole["coverage"]
    assert merged["config"] == whole["config"] and merged["runs"] == [1, 2] and merged["quick"]
    assert [t["name"] for t in merged["tests"]].count("GBFS classical") == 1
    assert ([m["runs"] for m in merged["merged"]] == [[2], [1]]
            and merged["commits"] == [whole["commit"]])
    for name in ("results.csv", "ood.csv"):
        assert (untimed_csv(tmp_path / "m" / name)
                == untimed_csv(confidence_runs / "whole" / name)), name
    assert all((tmp_path / "m" / f"confidence_15-puzzle_{name}.png").exists()
               for name in ("ood", "coverage"))


@pytest.mark.slow
def test_confidence_and_suboptimality_folders_are_refused_together(confidence_runs, tmp_path):
    sub = command("la.experiments.suboptimality", "--quick", "--runs", "2", "--run", "2",
                  "--out", tmp_path / "sub", "--jobs", "1")
    assert sub.returncode == 0, sub.stderr
    refused_process(merge(tmp_path / "m", confidence_runs / "r1", tmp_path / "sub"),
                    "holds a suboptimality experiment and")
    refused_process(merge(tmp_path / "m", tmp_path / "sub", confidence_runs / "r1"),
                    "a suboptimality one")
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_confidence_overlaps_and_a_different_classical_row_are_refused(confidence_runs, tmp_path):
    runs = confidence_runs
    refused_process(merge(tmp_path / "a", runs / "r1", runs / "r2", runs / "whole"),
                    "run 1 is in both")
    shutil.copytree(runs / "r2", tmp_path / "r2")
    record = json.loads((tmp_path / "r2" / "results.json").read_text())
    # the classical row, run None
    record["tests"][0]["records"][0]["generated"] += 1
    (tmp_path / "r2" / "results.json").write_text(json.dumps(record))
    refused_process(merge(tmp_path / "b", runs / "r1", tmp_path / "r2"),
                    "disagree on the GBFS classical row")
    assert not any((tmp_path / name).exists() for name in "ab")


def test_sigterm_during_a_merge_leaves_no_folder_and_the_merge_runs_again(runs, tmp_path):
    """Issue 58, G: SIGTERM once the merge writes (its temporary folder exists in OUT): OUT goes,
    one line says so, and the same merge then succeeds."""
    out = tmp_path / "m"
    process = subprocess.Popen([sys.executable, "-m", "la.experiments.merge", str(out),
                                str(runs / "r1"), str(runs / "r2")], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out.is_dir() and any(p.name.startswith(PARTIAL) for p in out.iterdir())):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    printed, err = process.communicate(timeout=120)
    assert process.returncode == 143 and not out.exists(), err
    assert err.strip().splitlines() == [f"terminated: nothing was written in {out}; "
                                        "run the same merge again"]
    done = merge(out, runs / "r1", runs / "r2")
    assert done.returncode == 0, done.stderr


def test_what_a_killed_merge_left_does_not_stop_the_next(runs, tmp_path):
    """SIGKILL leaves the temporary folder and the lock file; the next merge clears them."""
    out = tmp_path / "m"
    (out / f"{PARTIAL}abc").mkdir(parents=True)
    (out / f"{PARTIAL}abc" / "results.json").write_text("{")
    (out / LOCK).write_text("12345\n")
    assert merging.main([str(out), str(runs / "r1"), str(runs / "r2")]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json",
                                                     "table2_efficiency.png"]


def test_two_merges_into_one_folder_cannot_both_write(runs, tmp_path):
    """Another process holds OUT (a merge under way): refused in one line, nothing written."""
    out = tmp_path / "m"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from la.runs.lock import hold; "
                               f"hold({str(out)!r}); print('held', flush=True); sys.stdin.read()"],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(ValueError) as refused:
            merging.main([str(out), str(runs / "r1"), str(runs / "r2")])
    finally:
        holder.communicate("")
    assert str(refused.value) == (f"{out} is being written by another merge or run (process "
                                  f"{holder.pid}): wait for it to end, or name another OUT "
                                  "folder")              # OUT is positional: no --out
    assert [p.name for p in out.iterdir()] == [LOCK]


def test_a_merge_into_a_finished_merge_s_folder_says_so_and_names_it(runs, tmp_path, capsys):
    """A second merge into a folder that already holds merged results, or other files."""
    out, other = tmp_path / "m", tmp_path / "other"
    assert merging.main([str(out), str(runs / "r1"), str(runs / "r2")]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert merged_in_process(capsys, out, runs / "r1", runs / "r2") == (2, (
        f"error: {out} already holds merged results (results.json): name another OUT folder, or "
        "delete that one to merge again\n"))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    assert merged_in_process(capsys, other, runs / "r1", runs / "r2") == (2, (
        f"error: {other} is not empty (notes.txt): a merge writes into a new or empty folder; "
        "name another OUT folder\n"))
