"""`python -m la.experiments.ground_truth --quick`, end to end: its results files and figure, the
Manhattan row admissible everywhere, the same results bit for bit (but the timings) after a stop in
training and after a test unit cut short (and, in the slow tier, with two jobs, and as the code
before the arms made them), folders of single runs merged (of different arms refused), and bad
input refused in one line (exit 2)."""
import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from refusals import refused
from tests.test_numerics import untimed
from la.experiments import ground_truth, merge
from la.experiments.ground_truth_config import ADDED, QUICK
from la.experiments.ground_truth_table import COLUMNS
from la.runs.runner import mean_std

ROOT = Path(__file__).resolve().parents[1]


def results(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("ground_truth") / "quick"
    assert ground_truth.main(["--quick", "--jobs", "1", "--out", str(out)]) == 0
    return out, results(out)


def test_the_quick_run_writes_its_table_measures_and_figure(quick):
    out, record = quick
    assert [r["row"] for r in record["table"]] == ["0.9", "0.5", "N/A", "MD"]
    assert record["arm"] == "paper" and record["config"]["arm"] == "paper"
    measure = record["measures"][0]
    assert [r["row"] for r in measure["rows"]] == ["0.9", "0.5", "N/A"]
    for row in measure["rows"]:
        for name in ("all", "plans", "searched"):
            assert 0 <= row[name]["by_h_star"]["coverage"] <= 1 and row[name]["by_distance"]
        assert sum(g["tasks"] for g in row["guarantee"]) == QUICK.test_tasks
    assert [d["p"] for d in measure["reliability"]["all"]] == list(QUICK.quantiles)
    assert set(measure["labels"]) == {"alpha", "mean"} and measure["sigma_e"]
    csv = (out / "results.csv").read_text().splitlines()
    assert csv[0].startswith("run,row,id") and len(csv) == 1 + 4 * QUICK.test_tasks
    assert (out / "ground_truth_8-puzzle.png").read_bytes()[:4] == b"\x89PNG"


def test_the_manhattan_row_is_admissible_everywhere_it_is_measured(quick):
    """Manhattan distance never exceeds h*: coverage 1 on every set and every h*, every test task
    solved optimally, and every task has an optimal plan within h*."""
    _, record = quick
    (unit,) = record["reference"]
    row = unit["row"]
    assert row["row"] == "MD" and row["held"] == 1 and row["bound"] is None
    for name in ("all", "plans", "searched"):
        assert row[name]["by_h_star"]["coverage"] == 1 and row[name]["by_h_star"]["states"] > 0
        assert all(b["coverage"] == 1 for b in row[name]["by_h_star"]["by"])
    md = next(r for r in record["table"] if r["row"] == "MD")
    assert (md["all"], md["plans"], md["searched"], md["held"]) == (100, 100, 100, 100)
    assert md["optimal"] == 100 and md["unsolved"] == 0 and md["runs"] == 1


@pytest.mark.slow
def test_two_jobs_give_the_same_results(quick, tmp_path):
    _, record = quick
    assert ground_truth.main(["--quick", "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    assert untimed(results(tmp_path / "two")) == untimed(record)


def test_a_run_stopped_in_training_resumes_to_the_same_results(quick, tmp_path):
    """A second run, stopped by SIGTERM and resumed, gives the first run's results: deterministic,
    and resumed bit for bit."""
    _, record = quick
    out = tmp_path / "stopped"
    command = [sys.executable, "-m", "la.experiments.ground_truth", "--quick", "--jobs", "1",
               "--out", str(out)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    for line in process.stdout:                   # stop after the second network's first iteration
        if "run1/mean: iter   1/" in line:
            process.send_signal(signal.SIGTERM)
            break
    process.stdout.read()
    assert process.wait(timeout=120) == 143 and not (out / "run1" / "mean" / "unit.json").exists()
    assert (out / "run1" / "mean" / "checkpoint.npz").exists()
    again = subprocess.run([*command, "--resume"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    assert untimed(results(out)) == untimed(record)


def test_a_test_unit_cut_short_continues_after_its_last_task(quick, tmp_path, capsys):
    source, record = quick
    out = tmp_path / "cut"
    shutil.copytree(source, out)
    unit = out / "run1" / "test-0.5"
    done = json.loads((unit / "unit.json").read_text())["records"]
    (unit / "unit.json").unlink()
    (unit / "tasks.json").write_text(json.dumps(done[:4]))
    for stale in ("results.json", "run1/measure/unit.json"):
        (out / stale).unlink()
    assert ground_truth.main(["--quick", "--jobs", "1", "--out", str(out), "--resume"]) == 0
    assert "continuing after the 4 tasks done before" in capsys.readouterr().out
    assert untimed(results(out)) == untimed(record)


def test_folders_of_different_arms_are_not_merged(quick, tmp_path, capsys):
    source, _ = quick
    other = tmp_path / "oracle"
    shutil.copytree(source, other)
    about = json.loads((other / "experiment.json").read_text())
    about["settings"]["config"]["arm"] = "oracle"
    (other / "experiment.json").write_text(json.dumps(about))
    refused(merge.main, [tmp_path / "merged", source, other], capsys, "config differs in arm",
            absent=tmp_path / "merged", argparse=False)


@pytest.mark.slow
def test_two_single_run_folders_merge_into_mean_and_sd_per_measure(quick, tmp_path):
    """Run 1 (the quick run) and run 2 of `--runs 2`, each alone, merged: every column of every row
    is the mean and sd of the two runs' own values."""
    source, first = quick
    two = tmp_path / "run2"
    assert ground_truth.main(["--quick", "--runs", "2", "--run", "2", "--jobs", "1", "--out",
                              str(two)]) == 0
    second = results(two)
    assert merge.main([str(tmp_path / "merged"), str(two), str(source)]) == 0
    merged = results(tmp_path / "merged")
    assert merged["runs"] == [1, 2] and merged["arm"] == "paper"
    assert [t["run"] for t in merged["tests"]] == [1] * 4 + [2] * 4
    for row, a, b in zip(merged["table"], first["table"], second["table"]):
        assert row["row"] == a["row"] == b["row"] and row["runs"] == 2
        for column in COLUMNS:
            present = [v[column] for v in (a, b) if v[column] is not None]
            assert (row[column], row[f"{column}_sd"]) == mean_std(present), (row["row"], column)
    assert (tmp_path / "merged" / "ground_truth_8-puzzle.png").exists()


BEFORE_THE_ARMS = "22853c9f576b7e50eb1fdb8fe52cbd1db59dcd46"   # the last commit without --arm


@pytest.mark.slow
def test_the_papers_arm_gives_the_results_of_the_code_before_the_arms(quick, tmp_path):
    """The default arm is the experiment as it was, bit for bit: the quick run of the commit before
    the arms (its code taken with git archive) gives every entry it had, the same but the
    timings; the arms added only the arm and the reference row (and its tests)."""
    _, record = quick
    git = ["git", "-C", str(ROOT)]
    if subprocess.run([*git, "cat-file", "-e", BEFORE_THE_ARMS], capture_output=True).returncode:
        pytest.skip("needs the git history (the commit before the arms)")
    code = tmp_path / "before"
    code.mkdir()
    archive = subprocess.run([*git, "archive", "--format=tar", BEFORE_THE_ARMS, "la"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "la.experiments.ground_truth", "--quick", "--jobs", "1",
                    "--out", str(tmp_path / "out")], cwd=code, check=True, capture_output=True)
    before = untimed(results(tmp_path / "out"))
    now = untimed(record)
    assert set(now) - set(before) == {"arm", "reference"}
    now["config"] = {k: v for k, v in now["config"].items() if k not in ADDED}
    now["table"] = [r for r in now["table"] if r["row"] != "MD"]
    now["tests"] = [t for t in now["tests"] if t["row"] != "MD"]
    assert {k: now[k] for k in before} == before


@pytest.mark.parametrize("argv, message", [
    (["--domain", "3x4-puzzle"], "invalid choice"),
    (["--quick", "--domain", "10-pancake"], "--quick is a smoke run on the 8-puzzle"),
    (["--quick", "--bogus"], "unrecognized arguments: --bogus"),
    (["--quick", "--run", "2"], "--run 2: expected a run of the experiment, 1..1"),
    (["--quick", "--resume"], "nothing to resume"),
    (["--quick", "--arm", "bogus"], "invalid choice: 'bogus'"),
    (["--quick", "--order", "batched"], "unrecognized arguments: --order"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    refused(ground_truth.main, [*argv, "--out", tmp_path / "x"], capsys, message,
            absent=tmp_path / "x")


def _tasks(change):
    """A tasks.json of the first four records, changed by `change(records)` in place."""
    def tamper(records):
        records = records[:4]
        change(records)
        return records
    return tamper


# (which file, how it is tampered with, what the one line must name)
TAMPERED = [
    ("tasks.json", _tasks(lambda r: r.append(dict(r[3]))), r"tasks\[4\] comes twice"),
    ("tasks.json", _tasks(lambda r: r[1].update(id=QUICK.test_tasks)), r"tasks\[1\]\.id"),
    ("tasks.json", _tasks(lambda r: r[2].update(cost="12")), r"tasks\[2\]\.cost"),
    ("tasks.json", _tasks(lambda r: r[0].update(seconds=float("inf"))), "Infinity"),
    ("tasks.json", _tasks(lambda r: r[0].update(generated=10**30)), r"tasks\[0\]\.generated"),
    ("tasks.json", _tasks(lambda r: r[3].update(optimal=None)), r"tasks\[3\]\.optimal"),
    ("tasks.json", _tasks(lambda r: r[0].update(generated=QUICK.test_node_limit + 2)),
     r"tasks\[0\]\.generated"),
    ("tasks.json", _tasks(lambda r: r[1].update(solved=True, cost=0, optimal=5)),
     r"tasks\[1\] has a cost that does not fit"),
    ("unit.json", lambda u: u.update(row="0.9"), "row"),
    ("unit.json", lambda u: u.update(run=2), "run"),
    ("unit.json", lambda u: u.update(subopt=-111.1), "does not agree with its records"),
    ("unit.json", lambda u: u["records"].append(dict(u["records"][0])), r"records\[\d+\]"),
    ("unit.json", lambda u: u["records"][5].update(sample=["x"]), r"records\[5\]\.sample"),
]


@pytest.mark.parametrize("name, tamper, field", TAMPERED)
def test_a_resume_refuses_a_tampered_record_in_one_line_before_anything_is_appended(
        quick, tmp_path, capsys, name, tamper, field):
    """Issue 58 D: every record a resume would keep is checked against the unit's own settings
    (its run and row, its tasks, the node limit) before any work: one line naming the file and
    the field, exit status 2, the folder as it was."""
    source, _ = quick
    out = tmp_path / "cut"
    shutil.copytree(source, out)
    unit = out / "run1" / "test-0.5"
    finished = json.loads((unit / "unit.json").read_text())
    if name == "tasks.json":
        (unit / "unit.json").unlink()
        (out / "results.json").unlink()
        (unit / "tasks.json").write_text(json.dumps(tamper(finished["records"])))
    else:
        tamper(finished)
        (unit / "unit.json").write_text(json.dumps(finished))
    said = refused(ground_truth.main, ["--quick", "--jobs", "1", "--out", out, "--resume"], capsys,
                   str(unit / name), unchanged=out, argparse=False)
    assert re.search(field, said), said
