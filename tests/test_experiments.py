"""The experiments' command lines at smoke scale: outputs, resume, determinism, bad options."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from la import data
from refusals import refused_process

ROOT = Path(__file__).resolve().parents[1]


def efficiency(*args):
    return subprocess.run([sys.executable, "-m", "la.experiments.efficiency", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("efficiency")
    done = efficiency("--quick", "--out", out / "a", "--figure", out / "a.png", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return out, done


def test_quick_efficiency_writes_results_table_and_figure(quick_run):
    out, done = quick_run
    record = json.loads((out / "a" / "results.json").read_text())
    assert [r["variant"] for r in record["table"]] == ["GTP", "1", "2", "4", "6", "8", "10"]
    assert all(0 <= r["solved_train"] <= 100 and 0 <= r["solved_test"] <= 100
               for r in record["table"])
    csv = (out / "a" / "results.csv").read_text().splitlines()
    assert csv[0].startswith("run,variant") and len(csv) == 1 + 7
    assert (out / "a.png").stat().st_size > 10_000
    assert "paper: Train" in done.stdout and "GTP" in done.stdout
    assert "  run1/GTP: test set 1 of 1: solved " in done.stdout   # the test phase says how it went
    assert "la.experiments.efficiency --quick" in (out / "a" / "experiment.json").read_text()
    # the goal order
    assert record["config"]["order"] == record["config"]["learn"]["order"] == "depth-first"


def test_resume_skips_finished_units_and_repeats_the_table(quick_run):
    out, _ = quick_run
    again = efficiency("--quick", "--out", out / "a", "--figure", out / "b.png", "--resume")
    assert again.returncode == 0, again.stderr
    assert "7 of 7 units already done" in again.stdout


@pytest.mark.slow
def test_same_seed_same_table_with_parallel_jobs(quick_run):
    out, _ = quick_run
    other = efficiency("--quick", "--out", out / "c", "--figure", out / "c.png", "--jobs", "2")
    assert other.returncode == 0, other.stderr
    first, second = (json.loads((out / d / "results.json").read_text())["table"]
                     for d in ("a", "c"))
    assert first == second


@pytest.mark.parametrize("args, message", [
    (["--runs", "0"], "--runs: must be at least 1"),
    (["--quick", "--paper"], "not allowed with"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_options_are_one_line_and_exit_2(args, message, tmp_path):
    refused_process(efficiency(*args, "--out", tmp_path / "x"), message, absent=tmp_path / "x")


def test_an_existing_run_is_not_overwritten_without_resume(quick_run):
    out, _ = quick_run
    refused_process(efficiency("--quick", "--out", out / "a"), "--resume")
    refused_process(efficiency("--quick", "--out", out / "nothing", "--resume"),
                    absent=out / "nothing")


def suboptimality(*args):
    return subprocess.run([sys.executable, "-m", "la.experiments.suboptimality", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_quick_suboptimality_then_retest_the_saved_networks(tmp_path):
    done = suboptimality("--quick", "--out", tmp_path / "a", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "a" / "results.json").read_text())
    assert [r["row"] for r in record["table"]] == ["MD", "0.9", "0.5", "N/A"]
    assert all(sum(r["unsolved"]) + (r["tasks"] * r["runs"] - sum(r["unsolved"])) == 3
               for r in record["table"])
    assert len(record["calibration"]) == 8 and record["generate_task"]["before"]
    config = record["config"]
    assert (config["order"] == config["learn"]["order"] == config["learn_mean"]["order"]
            == "depth-first")
    assert "The same columns on the" in done.stdout and "common" in record["table"][0]
    # the N/A row, not test-N/A
    assert (tmp_path / "a" / "run1" / "test-mean" / "unit.json").exists()
    for figure in ("table1_suboptimality", "calibration", "learning_curves",
                   "figure1_generate_task"):
        assert (tmp_path / "a" / f"{figure}.png").exists()
    # settings files keep their shape
    assert record["domain"] == "15-puzzle" and "domain" not in config
    again = suboptimality("--quick", "--domain", "15-puzzle", "--out", tmp_path / "b",
                          "--networks", tmp_path / "a", "--jobs", "1")  # the default domain, named
    assert again.returncode == 0, again.stderr
    assert "training" not in again.stdout.split("testing")[0]
    retest = json.loads((tmp_path / "b" / "results.json").read_text())
    assert retest["calibration"] == record["calibration"] and retest["config"] == record["config"]
    assert ([t["records"] for t in retest["tests"]] == [t["records"] for t in record["tests"]]
            or all([(r["solved"], r["cost"], r["generated"]) for r in t1["records"]] ==
                   [(r["solved"], r["cost"], r["generated"]) for r in t2["records"]]
                   for t1, t2 in zip(retest["tests"], record["tests"])))


@pytest.mark.slow
def test_quick_table3_on_the_24_pancake_builds_its_pdbs_then_resumes(tmp_path):
    """End to end on a feature domain: the paper's 24-pancake PDBs built into --pdb-dir (about
    20 s), toy training, the rows Gap, α and N/A on 3 test tasks, calibration on the 50 tasks'
    optimal plans."""
    args = ("--domain", "24-pancake", "--quick", "--pdb-dir", tmp_path / "pdb", "--out",
            tmp_path / "a")
    done = suboptimality(*args, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "24-pancake PDB 10 of 10" in done.stderr                # built once, by the main process
    record = json.loads((tmp_path / "a" / "results.json").read_text())
    assert record["domain"] == "24-pancake" and record["config"]["domain"] == "24-pancake"
    assert [r["row"] for r in record["table"]] == ["Gap", "0.9", "0.5", "N/A"]
    gap = record["table"][0]
    assert (gap["unsolved"] == [0] and gap["optimal"] == 100.0
            and gap["paper"]["generated"] == 48_599.5)
    assert record["calibration_states"] == sum(i.optimal for i in data.pancake50_24())
    assert len(list((tmp_path / "pdb").glob("24-pancake_*.npy"))) == 10
    assert (tmp_path / "a" / "table3_24-pancake.png").exists() and record["reduced"]
    again = suboptimality(*args, "--resume", "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert "4 of 4 units already done" in again.stdout and "PDB 1 of" not in again.stderr


def test_suboptimality_refuses_missing_networks(tmp_path):
    refused_process(suboptimality("--quick", "--out", tmp_path / "a", "--networks",
                                  tmp_path / "nowhere"),
                    "--networks: no folder", absent=tmp_path / "a")


@pytest.mark.slow
def test_resume_can_add_runs(quick_run, tmp_path):
    import shutil
    out, _ = quick_run
    shutil.copytree(out / "a", tmp_path / "d")
    more = efficiency("--quick", "--out", tmp_path / "d", "--figure", tmp_path / "d.png",
                      "--resume", "--runs", "2")
    assert more.returncode == 0, more.stderr
    assert "7 of 14 units already done" in more.stdout
    record = json.loads((tmp_path / "d" / "results.json").read_text())
    assert all(r["runs"] == 2 for r in record["table"])
    # the results say which commands made them
    assert "--runs 2" in record["resumed"][-1]["command"]


def test_run_k_must_be_one_of_the_runs(tmp_path):
    # checked before any work
    refused_process(efficiency("--quick", "--runs", "2", "--run", "3", "--out", tmp_path / "x"),
                    "--run 3: expected a run of the experiment, 1..2", absent=tmp_path / "x")
    refused_process(suboptimality("--quick", "--run", "2", "--out", tmp_path / "y"), "1..1",
                    absent=tmp_path / "y")


def same_unit(a: Path, b: Path) -> None:
    """Two unit folders hold the same results: unit.json without its timings, and the network's
    arrays."""
    import numpy as np
    untimed = lambda r: {k: v for k, v in r.items() if "seconds" not in k}              # noqa: E731
    assert (untimed(json.loads((a / "unit.json").read_text()))
            == untimed(json.loads((b / "unit.json").read_text())))
    with np.load(a / "network.npz") as x, np.load(b / "network.npz") as y:
        assert sorted(x.files) == sorted(y.files)
        assert all(np.array_equal(x[k], y[k]) for k in x.files)


@pytest.mark.slow
def test_run_k_alone_is_run_k_of_the_whole_experiment(tmp_path):
    """`--runs 2 --run 2` trains and tests with exactly the seeds run 2 has in a `--runs 2`
    experiment."""
    both = efficiency("--quick", "--out", tmp_path / "both", "--runs", "2", "--jobs", "2")
    alone = efficiency("--quick", "--out", tmp_path / "two", "--runs", "2", "--run", "2",
                       "--jobs", "1")
    assert both.returncode == 0 and alone.returncode == 0, both.stderr + alone.stderr
    assert sorted(p.name for p in (tmp_path / "two").iterdir() if p.is_dir()) == ["run2"]
    for variant in ("GTP", "1", "2", "4", "6", "8", "10"):
        same_unit(tmp_path / "both" / "run2" / variant, tmp_path / "two" / "run2" / variant)
    record = json.loads((tmp_path / "two" / "results.json").read_text())
    assert record["runs"] == [2] and all(u["run"] == 2 for u in record["units"])
