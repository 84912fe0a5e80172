"""`python -m la.experiments.confidence --quick`, end to end in a temporary folder: both tables with their rows,
the CSV files and the figures, the classical row's known answer, --resume after finished units, bad arguments
refused in one line, and `python -m la.plots --confidence` redrawing from the results file."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import la.plots.__main__ as plots
from la.experiments import confidence
from la.experiments.confidence_config import CLASSIFIERS, QUICK
from la.experiments.runs.cli import run

ROOT = Path(__file__).resolve().parents[1]
CFG = QUICK["15-puzzle"]


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """One quick run (jobs 1, in this process), its folder and record."""
    out = tmp_path_factory.mktemp("confidence") / "quick"
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(out)]) == 0
    return out, json.loads((out / "results.json").read_text())


def test_the_quick_run_writes_both_tables_with_their_rows(quick):
    out, record = quick
    assert record["experiment"] == "confidence" and record["domain"] == "15-puzzle" and record["runs"] == [1]
    assert [r["network"] for r in record["ood"]] == [*CLASSIFIERS, "FFNN", "WUNN"]
    for r in record["ood"]:
        assert r["runs"] == 1 and r["in"] is not None and r["out_u"] is not None and r["out_w"] is not None
        if r["score"] == "confidence":
            assert 0 < r["in"] <= 1 and r["paper"]["in"] == pytest.approx(
                {"Standard": 0.293, "U50": 0.300, "U90": 0.308, "W50": 0.290, "W90": 0.292}[r["network"]])
        else:
            assert r["in"] > 0 and r["paper"] is None                 # a σ, in cost units
    names = [r["row"] for r in record["coverage"]]
    assert names == [row.name for row in CFG.rows()]
    assert names[:4] == ["GBFS classical", "GBFS base", "GBFS M20", "GBFS M80"]
    assert {"dual PA80", "dual PM20", "GBFS A20 σe", "dual PA80 σe", "dual A20 σa"} <= set(names)
    assert all(r["runs"] == 1 and r["tasks"] == len(CFG.instances) for r in record["coverage"])
    # GBFS with Manhattan distance solves Korf #2 in 2,881 generated nodes, plan cost 135, and neither #7 nor #8
    # within 3,000 (`la.search.gbfs`, checked by hand with the search alone).
    classical = record["coverage"][0]
    assert (classical["solved"], classical["cost"], classical["generated"]) == ([1], 135.0, 2881.0)
    teacher = record["teacher"][0]
    assert teacher["states"] == teacher["train"] + teacher["validation"] + teacher["held_out"] > 0


def test_the_csv_files_and_figures_are_written(quick):
    out, record = quick
    lines = (out / "results.csv").read_text().splitlines()
    assert lines[0] == "run,row,id,optimal,solved,cost,generated,expanded,seconds,status"
    assert len(lines) == 1 + len(CFG.rows()) * len(CFG.instances)
    assert lines[1].startswith(",GBFS classical,2,") and ",True,135,2881," in lines[1]
    ood = (out / "ood.csv").read_text().splitlines()
    assert ood[0].startswith("run,network,in,out_u,out_w,tau") and len(ood) == 1 + len(CLASSIFIERS) + 2
    for name in ("confidence_15-puzzle_ood.png", "confidence_15-puzzle_coverage.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_resume_redoes_only_the_missing_unit_and_gives_the_same_tables(quick, capsys):
    out, record = quick
    unit = out / "run1" / "search" / "dual-PA20-sigma_e" / "unit.json"
    unit.unlink()
    (out / "results.json").unlink()
    capsys.readouterr()
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(out), "--resume"]) == 0
    said = capsys.readouterr().out
    assert "1 of 1 units already done" in said and "7 of 7 units already done" in said
    assert f"{len(CFG.rows()) - 1} of {len(CFG.rows())} units already done" in said and unit.exists()
    again = json.loads((out / "results.json").read_text())
    assert again["coverage"] == record["coverage"] and again["ood"] == record["ood"]
    assert len(again["resumed"]) == 1


def test_la_plots_redraws_the_figures_from_the_results_file(quick, tmp_path):
    out, _ = quick
    assert plots.main(["--confidence", str(out / "results.json"), "--out", str(tmp_path), "--copy"]) == 0
    assert all((tmp_path / f"confidence_15-puzzle_{name}.png").exists() for name in ("ood", "coverage"))
    assert json.loads((tmp_path / "confidence_15-puzzle.json").read_text())["experiment"] == "confidence"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"experiment": "confidence", "domain": "15-puzzle"}))
    assert run(plots.main, ["--confidence", str(broken), "--out", str(tmp_path / "figs")]) == 2
    assert not (tmp_path / "figs").exists()


@pytest.mark.parametrize("argv, message", [
    (["--domain", "16-puzzle"], "invalid choice"),
    (["--node-limit", "0"], "must be at least 1"),
    (["--runs", "0"], "must be at least 1"),
    (["--quick", "--run", "2"], "--run 2: expected a run of the experiment, 1..1"),
    (["--quick", "--resume"], "nothing to resume"),
    (["--quick", "--order", "batched"], "unrecognized arguments: --order"),
])
def test_bad_arguments_are_refused_in_one_line_with_exit_2(argv, message, tmp_path):
    done = subprocess.run([sys.executable, "-m", "la.experiments.confidence", *argv, "--out", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert message in done.stderr and done.stdout == "" and not (tmp_path / "out").exists()


def test_the_coverage_table_prints_a_spread_only_over_several_runs():
    from la.experiments.confidence_table import format_tables
    record = json.loads((ROOT / "figures" / "confidence_24-pancake.json").read_text())     # one run
    coverage = format_tables(record).split("Coverage table")[1]
    assert "±" not in coverage and "100.0%" in coverage
    record["coverage"][1].update(runs=2, coverage=0.5, coverage_sd=0.1)
    lines = format_tables(record).split("Coverage table")[1].splitlines()
    assert [line for line in lines if "±" in line] == [line for line in lines if "50.0% ± 10.0%" in line] != []
