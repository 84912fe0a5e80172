"""`python -m la.experiments.confidence --quick`, end to end in a temporary folder: the tables with
their rows (Tables 2 and 3, moderate and hard blocks, the σ rows), the CSV files and the figures,
the classical row's known answer, --resume after finished units, the same results with --jobs 2,
H from the training data, bad arguments refused in one line, `python -m la.plots --confidence`
redrawing from the results file (an earlier run's record too; the figure across domains), the
spreads over runs, the paper's Tables 2 and 3 as transcribed, and the budget pilot."""
import json
import re
import shutil
import subprocess
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import la.plots.__main__ as plots
from tests.test_numerics import untimed     # a record without its command, commit and timings
from la.experiments import confidence, confidence_networks, confidence_pilot
from la.experiments.confidence_config import (CLASSIFIERS, CONFIGS, QUICK, SIGMA_NETWORKS, Row,
                                              table3_row)
from la.experiments.confidence_table import coverage_table, format_tables, table3
from la.experiments.table3 import TEST_SETS
from la.heller import fit_checkpoint
from la.heller.paper import PAPER_TABLE2, PAPER_TABLE3
from la.plots import confidence as plots_confidence, confidence_tables
from la.runs.cli import run
from la.runs.network import load_network

ROOT = Path(__file__).resolve().parents[1]
CFG = QUICK["15-puzzle"]


def saved_arrays(out: Path) -> dict:
    """Every network's weights and every network's training confidences in a results folder, as
    bytes."""
    arrays = {}
    for path in sorted([*out.glob("run*/*/network.npz"), *out.glob("run*/*/confidences.npz")]):
        with np.load(path, allow_pickle=False) as f:
            arrays[str(path.relative_to(out))] = {k: f[k].tobytes() for k in f.files}
    return arrays


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """One quick run (jobs 1, in this process), its folder and record."""
    out = tmp_path_factory.mktemp("confidence") / "quick"
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(out)]) == 0
    return out, json.loads((out / "results.json").read_text())


def test_the_quick_run_writes_both_tables_with_their_rows(quick):
    out, record = quick
    assert (record["experiment"] == "confidence" and record["domain"] == "15-puzzle"
            and record["runs"] == [1])
    assert [r["network"] for r in record["ood"]] == [*CLASSIFIERS, "FFNN", "WUNN"]
    for r in record["ood"]:
        assert (r["runs"] == 1 and r["in"] is not None and r["out_u"] is not None
                and r["out_w"] is not None)
        if r["score"] == "confidence":
            assert 0 < r["in"] <= 1 and r["paper"]["in"] == pytest.approx(
                {"Standard": 0.293, "U50": 0.300, "U90": 0.308, "W50": 0.290,
                 "W90": 0.292}[r["network"]])
        else:
            assert r["in"] > 0 and r["paper"] is None                 # a σ, in cost units
    names = [r["row"] for r in record["coverage"]]
    assert names == [row.name for row in CFG.rows()]
    assert names[:4] == ["GBFS classical", "GBFS base", "GBFS M20", "GBFS M80"]
    # σ rows too
    assert {"dual PA80", "dual PM20", "GBFS A20 σe", "dual PA80 σe", "dual A20 σa"} <= set(names)
    # Table 3: the dual queue with A40 and each classifier, in both blocks (--quick's X lacks 40:
    # W50's row too).
    assert {"dual A40", "dual A40 Standard", "dual A40 U50", "dual A40 U90",
            "dual A40 W90"} <= set(names)
    hard = [n for n in names if n.startswith("hard: ")]
    assert hard == ["hard: GBFS classical", "hard: dual base", "hard: dual A40", "hard: dual A80",
                    "hard: dual PA20", "hard: dual PA80", "hard: dual A40 Standard",
                    "hard: dual A40 U50", "hard: dual A40 U90", "hard: dual A40 W90"]
    assert all(r["runs"] == 1 and r["tasks"] == len(CFG.instances) for r in record["coverage"])
    assert [(t["block"], t["network"]) for t in record["table3"]] == [
        (b, n) for b in ("moderate", "hard") for n in ("Standard", "W50", "W90", "U50", "U90")]
    by_name = {r["row"]: r for r in record["coverage"]}
    for t in record["table3"]:                              # the same searches as the coverage rows
        assert (t["solved"] == by_name[t["row"]]["solved"]
                and t["coverage"] == by_name[t["row"]]["coverage"])
        assert t["paper"]["values"] == list(PAPER_TABLE3[t["block"]][t["network"]])
    hard_tests = [t for t in record["tests"] if t["name"].startswith("hard: ")]
    # its budget
    assert all(r["generated"] <= CFG.hard_node_limit + 4 for t in hard_tests for r in t["records"])
    # GBFS with Manhattan distance solves Korf #2 in 2,881 generated nodes, plan cost 135, and
    # neither #7 nor #8 within 3,000 (`la.search.gbfs`, checked by hand with the search alone).
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
    assert (ood[0].startswith("run,network,in,out_u,out_w,tau")
            and len(ood) == 1 + len(CLASSIFIERS) + 2)
    for name in ("ood", "coverage", "tables"):
        assert (out / f"confidence_15-puzzle_{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_resume_redoes_only_the_missing_unit_and_gives_the_same_tables(quick, capsys):
    out, record = quick
    unit = out / "run1" / "search" / "dual-PA20-sigma_e" / "unit.json"
    unit.unlink()
    (out / "results.json").unlink()
    capsys.readouterr()
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(out), "--resume"]) == 0
    said = capsys.readouterr().out
    assert "1 of 1 units already done" in said and "7 of 7 units already done" in said
    assert (f"{len(CFG.rows()) - 1} of {len(CFG.rows())} units already done" in said
            and unit.exists())
    again = json.loads((out / "results.json").read_text())
    assert again["coverage"] == record["coverage"] and again["ood"] == record["ood"]
    assert len(again["resumed"]) == 1


def test_a_damaged_fit_under_way_is_refused_in_one_line_before_any_work(quick, tmp_path, capsys):
    out, _ = quick
    copy = tmp_path / "quick"
    shutil.copytree(out, copy)
    unit = copy / "run1" / "U90"
    (unit / "unit.json").unlink()
    (unit / fit_checkpoint.FILE).write_bytes(b"PK\x03\x04 not a whole zip")
    capsys.readouterr()
    assert run(confidence.main, ["--quick", "--jobs", "1", "--out", str(copy), "--resume"]) == 2
    said = capsys.readouterr().err.strip()
    assert (len(said.splitlines()) == 1
            and f"{unit / fit_checkpoint.FILE}: not a readable fit checkpoint" in said)
    assert f"delete the folder {unit}" in said and not (unit / "unit.json").exists()


def test_networks_searches_again_without_training_and_gives_the_same_rows(quick, tmp_path, capsys):
    """--networks: a run that reuses an earlier run's networks trains nothing and, at the same
    budgets, finds the same rows; at another hard budget only the hard block's rows change."""
    out, record = quick
    again = tmp_path / "again"
    capsys.readouterr()
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(again),
                            "--networks", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"the 7 networks of {out}" in said and "teacher:" not in said
    redone = json.loads((again / "results.json").read_text())
    assert redone["networks"] == str(out) and not list(again.glob("run*/*/network.npz"))
    assert untimed(redone["tests"]) == untimed(record["tests"])
    assert redone["ood"] == record["ood"] and redone["coverage"] == record["coverage"]
    low = tmp_path / "low"
    assert confidence.main(["--quick", "--jobs", "1", "--out", str(low), "--networks", str(out),
                            "--blocks", "hard", "--hard-node-limit", "40"]) == 0
    swept = json.loads((low / "results.json").read_text())
    assert {t["row"]["block"] for t in swept["tests"]} == {"hard"}
    most = [max(x["generated"] for t in r["tests"] if t["row"]["block"] == "hard"
                for x in t["records"]) for r in (record, swept)]
    assert most[0] > 1000 and most[1] < 50, most     # each stops past its budget by one expansion


@pytest.mark.parametrize("change, message", [
    (["--seed", "5"], "were trained with --seed 0, not 5"),
    (["--node-limit", "77"], None),                                       # a budget may differ
    ("no-network", "run 1's W50 is not finished there (no network.npz)"),
    ("itself", "names the results folder itself"),
])
def test_networks_from_another_training_are_refused_in_one_line(quick, tmp_path, capsys, change,
                                                                message):
    out, _ = quick
    source, target = out, tmp_path / "new"
    if change == "no-network":
        source = tmp_path / "copy"
        shutil.copytree(out, source)
        (source / "run1" / "W50" / "network.npz").unlink()
    if change == "itself":
        target = out
    argv = ["--quick", "--jobs", "1", "--out", str(target), "--networks", str(source),
            *(change if isinstance(change, list) else [])]
    if message is None:
        assert confidence.main(argv) == 0
        return
    capsys.readouterr()
    assert run(confidence.main, argv) == 2
    said = capsys.readouterr().err.strip()
    assert len(said.splitlines()) == 1 and message in said, said
    assert not target.exists() or target == out


@pytest.mark.slow
def test_the_same_results_with_two_jobs(quick, tmp_path):
    """Same seed, same results, bit for bit (but the timings), whichever process ran which unit: the
    records, every network's weights and its training confidences (the thresholds)."""
    out, record = quick
    assert confidence.main(["--quick", "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    assert untimed(json.loads((tmp_path / "two" / "results.json").read_text())) == untimed(record)
    arrays = saved_arrays(out)
    assert (len(arrays) == 2 * (len(CLASSIFIERS) + len(SIGMA_NETWORKS))
            and saved_arrays(tmp_path / "two") == arrays)


def test_the_classifiers_H_is_the_largest_cost_of_the_training_data(quick, tmp_path):
    """H (Heller et al., Planning Background) from the training and validation folds, not the
    held-out plans."""
    out, _ = quick
    with np.load(out / "run1" / "teacher" / "teacher.npz", allow_pickle=False) as f:
        data = {k: f[k] for k in f.files}
    lengths = np.diff(data["starts"])
    longest = int(np.argmax(lengths))                      # hold out the plan with the largest cost
    data["role"][data["role"] == confidence.HELD_OUT] = confidence.TRAIN
    data["role"][data["starts"][longest]:data["starts"][longest + 1]] = confidence.HELD_OUT
    trained = data["costs"][data["role"] != confidence.HELD_OUT].max()
    assert trained < data["costs"].max()
    (tmp_path / "run1" / "teacher").mkdir(parents=True)
    np.savez(tmp_path / "run1" / "teacher" / "teacher.npz", **data)
    spec = {"config": CFG, "name": "run1/Standard", "run": 1, "network": "Standard", "seed": 0,
            "pdb_dir": None}
    confidence.network_unit(spec, tmp_path, False)
    net, _ = load_network(tmp_path / "run1" / "Standard" / "network.npz")
    assert net.H == trained


@pytest.mark.slow
def test_la_plots_redraws_the_figures_from_the_results_file(quick, tmp_path):
    out, _ = quick
    assert plots.main(["--confidence", str(out / "results.json"), "--out", str(tmp_path),
                       "--copy"]) == 0
    assert all((tmp_path / f"confidence_15-puzzle_{name}.png").exists()
               for name in ("ood", "coverage", "tables"))
    assert (json.loads((tmp_path / "confidence_15-puzzle.json").read_text())["experiment"]
            == "confidence")
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
    (["--quick", "--blocks", "easy"], "unknown block 'easy'"),
    (["--quick", "--blocks", "moderate", "--hard-node-limit", "500"], "leaves the hard block out"),
    (["--domain", "24-puzzle", "--node-limit", "9000", "--hard-node-limit", "9000"],
     "has no moderate block"),
    (["--hard-node-limit", "-3"], "must be at least 1"),
])
def test_bad_arguments_are_refused_in_one_line_with_exit_2(argv, message, tmp_path):
    done = subprocess.run([sys.executable, "-m", "la.experiments.confidence", *argv,
                           "--out", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert message in done.stderr and done.stdout == "" and not (tmp_path / "out").exists()


def test_a_hard_block_without_a_budget_is_refused(monkeypatch):
    monkeypatch.setitem(CONFIGS, "24-puzzle", replace(CONFIGS["24-puzzle"], hard_node_limit=None))
    with pytest.raises(ValueError, match="the hard block on the 24-puzzle has no budget yet"):
        confidence.configured(confidence.parse_args(["--domain", "24-puzzle"]))


@pytest.mark.parametrize("domain", ["15-puzzle", "24-pancake", "15-blocksworld", "24-puzzle"])
def test_each_domains_budgets_are_its_pilots(domain):
    """The hard block's default budget is where the committed pilot's dual base solved 60 %; the
    15-puzzle's moderate budget is where its GBFS base did (the others' moderate budgets predate
    their pilots)."""
    pilot = json.loads((ROOT / "figures" / f"confidence-pilot_{domain}.json").read_text())["table"]
    cfg = confidence.configured(confidence.parse_args(["--domain", domain]))
    assert cfg.hard_node_limit == pilot["dual base"]["budget_for"]["60%"] and "hard" in cfg.blocks
    if domain == "15-puzzle":
        assert cfg.node_limit == pilot["GBFS base"]["budget_for"]["60%"]


def test_the_coverage_table_prints_a_spread_only_over_several_runs():
    # one run, before blocks
    record = json.loads((ROOT / "figures" / "confidence_24-pancake_run1.json").read_text())
    coverage = format_tables(record).split("Coverage table")[1]
    assert "±" not in coverage and " 100.0 " in coverage and "moderate block" in coverage
    record["coverage"][1].update(runs=2, coverage=0.5, coverage_sd=0.1, coverage_se=0.1)
    lines = format_tables(record).split("Coverage table")[1].splitlines()
    assert ([line for line in lines if "±" in line]
            == [line for line in lines if "50.0 ± 10.0 (10.0)" in line] != [])


def units(name: str, solved: list, tasks: int = 10) -> list:
    """A row's search units over runs 1, 2, ... with these numbers of tasks solved."""
    return [{"run": r, "name": name, "tasks": tasks, "solved": k, "coverage": k / tasks,
             "cost": None, "generated": None} for r, k in enumerate(solved, start=1)]


def test_coverage_has_its_spread_and_its_change_is_taken_run_by_run():
    """Two runs by hand: GBFS base solves 4 and 8 of 10, GBFS M20 3 and 8; the change is −1 and 0
    tasks, so −5 points ± 5 (sd), standard error 5 (sample sd 7.07 / √2); over the means it would be
    the same −5, but the spread of each row alone (20 points) hides that M20 never beat the base."""
    cfg = replace(CFG, X=(20,), blocks=("moderate",), runs=2)
    searched = units("GBFS base", [4, 8]) + units("GBFS M20", [3, 8])
    rows = {r["row"]: r for r in coverage_table(cfg, searched)}
    base, m20 = rows["GBFS base"], rows["GBFS M20"]
    assert ((base["coverage"], base["coverage_sd"], base["coverage_se"])
            == pytest.approx((0.6, 0.2, 0.2)))
    assert (base["change"] is None and base["paper"]["kind"] == "coverage"
            and m20["base"] == "GBFS base")
    assert (m20["change"], m20["change_sd"], m20["change_se"]) == pytest.approx((-0.05, 0.05, 0.05))
    assert m20["paper"] is None                                           # the paper has no M20 row
    # not searched: none
    assert rows["dual base"]["runs"] == 0 and rows["dual base"]["coverage"] is None
    standard, w90 = (table3_row(cfg, "moderate", "Standard").name,
                     table3_row(cfg, "moderate", "W90").name)
    t3 = {t["network"]: t for t in table3(cfg, units(standard, [5, 5]) + units(w90, [7, 9]))}
    assert t3["Standard"]["change"] is None and t3["Standard"]["coverage"] == 0.5
    assert (t3["W90"]["change"], t3["W90"]["change_se"]) == pytest.approx((0.3, 0.1))
    assert t3["W50"]["runs"] == 0 and t3["W50"]["change"] is None


def with_records(name: str, solved: list) -> list:
    """A row's search units over runs 1, 2, ..., each with its tasks' records: solved[r][i] says
    whether run r + 1 solved task i + 1."""
    return [{"run": r, "name": name, "tasks": len(s), "solved": sum(s), "coverage": sum(s) / len(s),
             "cost": None, "generated": None,
             "records": [{"id": i, "solved": bool(x)} for i, x in enumerate(s, start=1)]}
            for r, s in enumerate(solved, start=1)]


def test_a_change_is_tested_task_by_task_with_mcnemars_exact_test():
    """Three runs of 4 tasks: the row loses 5 (run, task) pairs the base solved and gains none: p =
    2 / 2^5 = 0.0625, though it never beats the base; a row that gains one pair and loses two has
    p = 1. The paper's hard-block means are over its 7 domains with hard
    tasks."""
    cfg = replace(CFG, X=(20,), blocks=("moderate",), runs=3)
    base = with_records("GBFS base", [[1, 1, 1, 0], [1, 1, 0, 0], [1, 1, 1, 1]])
    m20 = with_records("GBFS M20", [[0, 0, 1, 0], [1, 0, 0, 0], [1, 1, 0, 0]])
    a20 = with_records("GBFS A20", [[0, 1, 1, 1], [1, 1, 0, 0], [1, 0, 1, 1]])
    rows = {r["row"]: r for r in coverage_table(cfg, base + m20 + a20)}
    assert rows["GBFS M20"]["mcnemar"] == {"pairs": 12, "gained": 0, "lost": 5,
                                           "p": pytest.approx(0.0625)}
    assert rows["GBFS A20"]["mcnemar"] == {"pairs": 12, "gained": 1, "lost": 2,
                                           "p": pytest.approx(1.0)}
    assert rows["GBFS base"]["mcnemar"] is None
    no_records = units("GBFS base", [4]) + units("GBFS M20", [3])
    assert coverage_table(cfg, no_records)[1]["mcnemar"] is None
    hard = table3(replace(CFG, blocks=("hard",)), [])
    assert {t["paper"]["domains"] for t in hard} == {7}


def test_the_papers_tables_2_and_3_agree_where_they_share_a_search():
    """Transcribed from the paper (their minus signs lost in our copy of the text, restored):
    Table 3's W50 row is Table 2's dual queue with A40, so base + change must agree in every domain
    of both blocks, to rounding; and "the mean-threshold variant consistently decreases coverage"
    in the single queue."""
    for block in ("moderate", "hard"):
        table2, table3 = PAPER_TABLE2[f"{block} dual"], PAPER_TABLE3[block]
        for base, a40, standard, w50 in zip(table2["base"], table2["A40"], table3["Standard"],
                                            table3["W50"]):
            assert (base is None) == (a40 is None) == (standard is None) == (w50 is None)
            if base is not None:
                assert base + a40 == pytest.approx(standard + w50, abs=0.011)
    assert all(v < 0 for label in ("M5", "M40") for v in PAPER_TABLE2["moderate single"][label])


def test_the_paper_rows_la_sets_beside_its_own():
    from la.experiments.confidence_config import paper_table2
    assert paper_table2(Row("softmax", "dual", "PA", 20)) == PAPER_TABLE2["moderate dual"]["P20"]
    assert (paper_table2(Row("softmax", "dual", "A", 80, block="hard"))
            == PAPER_TABLE2["hard dual"]["A80"])
    assert paper_table2(Row("softmax", "single")) == PAPER_TABLE2["moderate single"]["base"]
    for row in (Row("softmax", "dual", "PM", 20), Row("sigma_e", "single", "A", 5),
                Row("classical", "single"), Row("softmax", "dual", "A", 40, "U90"),
                Row("softmax", "single", "A", 80)):
        assert paper_table2(row) is None


@pytest.mark.slow
def test_an_earlier_runs_record_is_drawn_beside_the_newer_one_and_skips_the_tables_figure(
        quick, tmp_path):
    """figures/confidence_<domain>_run1.json (a record from before Table 3's rows) beside a newer
    record of the same domain: both drawn, each under its own name; the old one has no tables
    figure, and needs none."""
    out, _ = quick
    given = tmp_path / "given"
    given.mkdir()
    shutil.copy(out / "results.json", given / "confidence_15-puzzle.json")
    shutil.copy(ROOT / "figures" / "confidence_15-puzzle_run1.json",
                given / "confidence_15-puzzle_run1.json")
    old = plots_confidence.read_confidence(given / "confidence_15-puzzle_run1.json")
    assert "table3" not in old and "tables" not in plots_confidence.figure_names(old)
    assert plots.main(["--confidence", str(given / "confidence_15-puzzle.json"), "--confidence",
                       str(given / "confidence_15-puzzle_run1.json"), "--out", str(tmp_path / "f"),
                       "--copy"]) == 0
    drawn = sorted(p.name for p in (tmp_path / "f").glob("confidence_15-puzzle*"))
    assert drawn == sorted([*(f"confidence_15-puzzle_{n}.png"
                              for n in ("ood", "coverage", "tables")),
                            "confidence_15-puzzle_run1_ood.png",
                            "confidence_15-puzzle_run1_coverage.png",
                            "confidence_15-puzzle.json", "confidence_15-puzzle_run1.json"])
    shutil.copy(given / "confidence_15-puzzle.json", given / "confidence_15-puzzle_again.json")
    assert run(plots.main, ["--confidence", str(given / "confidence_15-puzzle.json"),
                            "--confidence", str(given / "confidence_15-puzzle_again.json"),
                            "--out", str(tmp_path / "g")]) == 2


@pytest.mark.slow
def test_the_figure_across_domains_draws_each_domain_the_folder_will_hold(quick, tmp_path):
    """confidence_tables.png: the record given, and for every other domain the record --out holds
    already; an earlier run's record (…_run1.json) and a record without Table 3's rows are left out;
    a damaged record in --out is refused in one line before anything is drawn."""
    out, record = quick
    shutil.copy(ROOT / "figures" / "confidence_24-pancake.json",
                tmp_path / "confidence_24-pancake.json")
    shutil.copy(ROOT / "figures" / "confidence_24-pancake_run1.json",
                tmp_path / "confidence_24-pancake_run1.json")
    shutil.copy(ROOT / "figures" / "confidence_15-puzzle.json",
                tmp_path / "confidence_15-puzzle.json")  # replaced
    hard = json.loads((ROOT / "figures" / "confidence_15-blocksworld.json").read_text())
    hard["config"]["blocks"] = ["hard"]                     # a domain that ran the hard block alone
    hard["coverage"] = [r for r in hard["coverage"] if r.get("block") == "hard"]
    hard["table3"] = [r for r in hard["table3"] if r["block"] == "hard"]
    (tmp_path / "confidence_15-blocksworld.json").write_text(json.dumps(hard))
    records, _ = plots.read_all(plots.parse_args(["--confidence", str(out / "results.json"),
                                                  "--out", str(tmp_path)]))
    across = plots.across_domains(records, tmp_path)
    assert [r["domain"] for r in across] == ["15-blocksworld", "15-puzzle", "24-pancake"]
    assert across[1]["table3"] == record["table3"]        # the record given, not the one --out held
    titles = [[title for title, *_ in confidence_tables.panels(r)] for r in across]
    assert titles[0] == ["Table 2, hard, dual queue", "Table 3, hard: dual A40, network"]
    assert titles[2] == confidence_tables.PANELS                # every panel, in the figure's order
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no empty panel or legend for the hard-only domain
        assert plots.main(["--confidence", str(out / "results.json"), "--out", str(tmp_path)]) == 0
    assert (tmp_path / confidence_tables.ACROSS).stat().st_size > 0
    # its hard rows: in the tables figure
    assert "coverage" not in plots_confidence.figure_names(across[0])
    shutil.copy(tmp_path / "confidence_15-blocksworld.json", tmp_path / "hard.json")
    assert plots.main(["--confidence", str(tmp_path / "hard.json"), "--out",
                       str(tmp_path / "h")]) == 0
    assert sorted(p.name for p in (tmp_path / "h").glob("confidence_*.png")) == [
        "confidence_15-blocksworld_ood.png", "confidence_15-blocksworld_tables.png",
        confidence_tables.ACROSS]
    (tmp_path / "confidence_24-pancake.json").write_text("{")
    (tmp_path / confidence_tables.ACROSS).unlink()
    assert run(plots.main, ["--confidence", str(out / "results.json"), "--out", str(tmp_path)]) == 2
    assert not (tmp_path / confidence_tables.ACROSS).exists()
    del records["confidence_15-puzzle"]
    assert plots.across_domains(records, tmp_path / "nowhere") == []


def test_the_coverage_table_says_when_no_row_solved_a_task():
    """The 24-puzzle's --quick run: 3,000 nodes are too few for any row, the classical heuristic's
    too."""
    from la.experiments.confidence_table import format_tables
    record = json.loads((ROOT / "figures" / "confidence_24-pancake_run1.json").read_text())
    said = "No row solved a test task within 1,250 nodes"
    assert said not in format_tables(record)
    for r in record["coverage"]:
        r.update(coverage=0.0, cost=None, generated=None)
    assert format_tables(record).splitlines()[-1].startswith(said)


def test_the_pilot_measures_coverage_at_every_budget_on_tasks_outside_the_test_set(quick, tmp_path,
                                                                                   capsys):
    """The pilot's teacher and W50 are the experiment's run 1 units (same seed, same names: found
    done here); its tasks are uniform states, none a test task; coverage at a budget is read off one
    search per task."""
    out, _ = quick
    pilot = tmp_path / "pilot"
    for unit in ("teacher", "W50"):
        shutil.copytree(out / "run1" / unit, pilot / "run1" / unit)
    capsys.readouterr()
    assert confidence_pilot.main(["--quick", "--domain", "15-puzzle", "--tasks", "4",
                                  "--max-nodes", "4000", "--jobs", "1", "--out", str(pilot)]) == 0
    said = capsys.readouterr().out
    assert said.count("1 of 1 units already done") == 2 and "--hard-node-limit" in said
    made = json.loads((pilot / "pilot.json").read_text())
    assert [r["row"] for r in made["rows"]] == ["GBFS classical", "GBFS base", "dual base"]
    tasks = confidence_pilot.pilot_tasks("15-puzzle", 4, 0)
    tests = {t.state.tobytes() for t in TEST_SETS["15-puzzle"]()}
    assert len({s.tobytes() for s in tasks}) == 4 and not {s.tobytes() for s in tasks} & tests
    for r in made["rows"]:
        records, table = r["records"], made["table"][r["row"]]
        assert len(records) == 4 and all(x["generated"] <= 4000 + 4 or not x["solved"]
                                         for x in records)
        for budget, share in table["coverage"].items():
            assert share == sum(x["solved"] and x["generated"] <= int(budget) for x in records) / 4
        for share, budget in table["budget_for"].items():
            if budget is not None:                         # the least budget that reaches the share
                assert confidence_pilot.coverage_at(records, budget) >= float(share[:-1]) / 100
                assert confidence_pilot.coverage_at(records, budget - 1) < float(share[:-1]) / 100
    classical = made["table"]["GBFS classical"]["coverage"]
    assert list(classical) == ["1000", "2000", "4000"]


def test_a_network_says_how_far_it_is_every_fifty_epochs():
    from types import SimpleNamespace
    clock = iter([400.0])                             # read once, at epoch 50: 300 s after it began
    lines = []
    on_epoch = confidence_networks.epoch_progress("U90", 500, 100.0, lines.append,
                                                  clock=lambda: next(clock))
    for epochs in range(1, 51):
        on_epoch(SimpleNamespace(history=SimpleNamespace(val_loss=[0.5] * (epochs - 1) + [0.25]),
                                 best=41))
    assert lines == ["U90: epoch 50, validation loss 0.25 (best: epoch 42), 5.0 min; "
                     "at most 45 min more"]
    clock, lines = iter([400.0]), []            # continued after epoch 40, which took 280 s in all:
    on_epoch = confidence_networks.epoch_progress("U90", 500, 100.0, lines.append,
                                                  clock=lambda: next(clock),
                                                  # 20 s for the last 10 epochs
                                                  first=40, first_seconds=280.0)
    for epochs in range(41, 51):
        on_epoch(SimpleNamespace(history=SimpleNamespace(val_loss=[0.5] * (epochs - 1) + [0.25]),
                                 best=41))
    assert lines == ["U90: epoch 50, validation loss 0.25 (best: epoch 42), 5.0 min; "
                     "at most 15 min more"]


SUMMARY = {   # figures/README.md's summary across domains: a conclusion's row -> (row, base row)
    "(M5) |": ("GBFS M5", "GBFS base"), "(A5 − M5)": ("GBFS A5", "GBFS M5"),
    "(A5) |": ("GBFS A5", "GBFS base"), "(A40) |": ("GBFS A40", "GBFS base"),
    "(A80 − M80)": ("dual A80", "dual M80"),
    "A40 does not cost": ("hard: dual A40", "hard: dual base"),
    "A80 about level": ("hard: dual A80", "hard: dual base"),
    "P20 about level, hard": ("hard: dual PA20", "hard: dual base"),
    "(P20 − P80)": ("hard: dual PA20", "hard: dual PA80")}
DOMAINS = ("24-pancake", "15-blocksworld", "15-puzzle", "24-puzzle")


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p {p:.2g}"


def test_the_summary_across_domains_is_the_committed_records_mcnemar_tests():
    """Every cell of figures/README.md's summary across domains that gives a change, its se and its
    p is what the committed records give (`mcnemar`, `change`), and its verdict follows p."""
    from la.experiments.confidence_table import change, mcnemar
    text = (ROOT / "figures" / "README.md").read_text()
    checked = 0
    for line in text.splitlines():
        key = next((k for k in SUMMARY if k in line and line.startswith("| ")), None)
        if key is None or "se " not in line:
            continue
        cells = [c.strip() for c in line.strip("|").split("|")][2:]
        for domain, cell in zip(DOMAINS, cells):
            if "p " not in cell and "p <" not in cell:
                continue
            record = json.loads((ROOT / "figures" / f"confidence_{domain}.json").read_text())
            by = {}
            for t in record["tests"]:
                by.setdefault(t["name"], []).append(t)
            row, base = SUMMARY[key]
            mean, _, se = change(by[row], by[base])
            p = mcnemar(by[row], by[base])["p"]
            quoted = f"{100 * mean:+.1f} (se {100 * se:.1f}, {p_text(p)})".replace("-", "−")
            assert quoted in cell, (key, domain, cell, quoted)
            verdict = cell.split(":")[0]
            assert (verdict in ("holds", "reversed")) == (p < 0.05), (key, domain, cell)
            checked += 1
    assert checked >= 25


SWEEP_ROWS = ("hard: dual A40", "hard: dual A80", "hard: dual PA20", "hard: dual PA80")


def test_the_hard_block_sweep_is_the_committed_records():
    """Every line of figures/README.md's table of the 24-pancake's hard block at seven budgets is
    what the committed records give: coverage of GBFS with the gap heuristic and of the dual base,
    and each row's change with its se and McNemar's p (852 nodes: the three runs' own record)."""
    from la.experiments.confidence_table import change, mcnemar
    text = (ROOT / "figures" / "README.md").read_text(encoding="utf-8")
    section = text[text.index("#### The 24-pancake's hard block at seven budgets"):]
    lines = [line for line in section[:section.index("\n#")].splitlines()
             if re.match(r"^\| [\d,]+ \|", line)]
    assert len(lines) == 7
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split("|")]
        nodes = int(cells[0].replace(",", ""))
        path = (ROOT / "figures" / ("confidence_24-pancake.json" if nodes == 852 else
                                    f"confidence-sweep_24-pancake/hard-{nodes}.json"))
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["config"]["hard_node_limit"] == nodes
        by = {}
        for t in record["tests"]:
            by.setdefault(t["name"], []).append(t)
        covered = [100 * sum(u["solved"] for u in by[name]) / sum(u["tasks"] for u in by[name])
                   for name in ("hard: GBFS classical", "hard: dual base")]
        assert cells[1:3] == [f"{c:.1f}" for c in covered], line
        for row, cell in zip(SWEEP_ROWS, cells[3:]):
            mean, _, se = change(by[row], by["hard: dual base"])
            p = mcnemar(by[row], by["hard: dual base"])["p"]
            quoted = f"{100 * mean:+.1f} (se {100 * se:.1f}, {p_text(p)})".replace("-", "−")
            assert cell == quoted, (nodes, row)
