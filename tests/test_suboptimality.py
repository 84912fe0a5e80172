"""Table 1's arithmetic, the calibration measure, and every figure drawn from small saved
results."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from la.plots import (generate_task as plots_generate_task, style as plots_style,
                      tables as plots_tables)
from la.rivals.calibration import admissible_fraction, calibration, korf_states_with_h_star
from la import data
from la.experiments.suboptimality_table import summarize
from la.experiments.table1 import DEFAULT, easiest_korf
from la.experiments.suboptimality_table import format_table
from refusals import refused_process

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def test_suboptimality_and_percent_optimal_by_hand():
    records = [{"solved": True, "cost": 50, "optimal": 50, "generated": 100, "seconds": 1.0},
               {"solved": True, "cost": 44, "optimal": 40, "generated": 300, "seconds": 3.0},
               {"solved": True, "cost": 60, "optimal": 60, "generated": 200, "seconds": 2.0},
               {"solved": False, "cost": None, "optimal": 55, "generated": 999, "seconds": 9.0}]
    s = summarize(records)
    assert s["tasks"] == 4 and s["unsolved"] == 1                        # never silently dropped
    # mean of found/optimal − 1 (footnote 2)
    assert s["subopt"] == pytest.approx(100 * (0 + 0.1 + 0) / 3)
    assert s["optimal"] == pytest.approx(100 * 2 / 3)
    # over solved tasks
    assert s["generated"] == pytest.approx(200) and s["time"] == pytest.approx(2.0)
    assert summarize(records[3:])["subopt"] is None


def test_a_baseline_tested_on_some_tasks_has_no_columns_on_the_tasks_every_row_solved():
    from types import SimpleNamespace
    from la.experiments.suboptimality_table import table

    # outcomes: id -> cost (None: unsolved); every optimal cost is 10
    def test(row, outcomes):
        records = [{"id": i, "solved": c is not None, "cost": c, "optimal": 10, "generated": 100,
                    "seconds": 1.0}
                   for i, c in outcomes.items()]
        return {"run": 1, "row": row, "records": records, **summarize(records)}

    cfg = SimpleNamespace(instances=(1, 2, 3), baseline_instances=(1,), baseline_row="PDB",
                          rows=lambda: ["PDB", "0.9"])
    tests = [test("PDB", {1: 10}), test("0.9", {1: 11, 2: 10, 3: None})]
    pdb, learned = table(cfg, tests, {})
    assert (learned["common"]
            == pytest.approx({"tasks": 2, "generated": 100, "subopt": 5.0, "optimal": 50.0}))
    # not "100 % on 2"
    assert pdb["common"] == {"tasks": 2, "generated": None, "subopt": None, "optimal": None}
    cfg.baseline_instances = cfg.instances
    tests[0] = test("PDB", {1: 10, 2: 10, 3: 10})
    assert table(cfg, tests, {})[0]["common"]["optimal"] == 100.0


def test_the_table_prints_no_spread_for_one_run_and_the_papers_small_times():
    def row(name, runs, sd):
        return {"row": name, "runs": runs, "tasks": 4, "unsolved": [1] * runs,
                "time": 2.0, "generated": 200.0,
                "subopt": 3.33, "subopt_sd": sd, "optimal": 66.7, "optimal_sd": sd,
                "paper": {"time": 0.03, "generated": 48_599.5, "subopt": 0.0, "optimal": 100.0},
                "common": {"tasks": 3, "generated": 200.0, "subopt": 3.33, "optimal": 66.7}}
    one, two = format_table([row("Gap", 1, 0.0), row("0.9", 2, 1.25)]).splitlines()[1:3]
    # one run: no spread
    assert "3.33 ±     —" in one and "66.7 ±     —" in one and "± 0.00" not in one
    assert "3.33 ±  1.25" in two and "66.7 ±   1.2" in two
    assert " 0.03 " in one and "1/4" in one and "2/8" in two           # the paper's 0.03 s, not 0.0


def test_each_rows_standard_error_over_runs_and_the_papers_distance_in_them():
    from types import SimpleNamespace
    from la.experiments.suboptimality_table import table

    def test(run, costs):             # every optimal cost is 10: subopt % = 10 × (cost − 10)
        records = [{"id": i, "solved": True, "cost": c, "optimal": 10, "generated": 100,
                    "seconds": 1.0}
                   for i, c in enumerate(costs)]
        return {"run": run, "row": "0.9", "records": records, **summarize(records)}

    cfg = SimpleNamespace(instances=(0, 1), baseline_instances=(0, 1), baseline_row="MD",
                          rows=lambda: ["MD", "0.9"])
    paper = {"0.9": (1.0, 100, 2.5, 65.2)}
    # subopt 5, 15, 0; optimal 50, 0, 100
    many = [test(1, (10, 11)), test(2, (11, 12)), test(3, (10, 10))]
    md, row = table(cfg, many, paper)
    assert md["subopt_se"] is None and md["optimal_se"] is None                           # no runs
    assert (row["subopt"] == pytest.approx(20 / 3)
            and row["subopt_se"] == pytest.approx(np.std([5, 15, 0], ddof=1) / np.sqrt(3)))
    assert row["optimal_se"] == pytest.approx(np.std([50, 0, 100], ddof=1) / np.sqrt(3))
    text = format_table([md, row])
    distance = (20 / 3 - 2.5) / row["subopt_se"]
    assert f"{row['subopt_se']:9.2f} {distance:+16.1f}" in text.split("how many of them")[1]
    one = table(cfg, many[:1], paper)
    # one run: no se
    assert one[1]["subopt_se"] is None and "standard error" not in format_table(one)


def test_the_table_says_when_no_learned_row_solved_a_task():
    """A --quick run's networks solve none of Korf's tasks: said under the table, not left to a
    column of "—"."""
    def row(name, solved):
        columns = (2.0, 200.0, 3.33, 66.7) if solved else (None,) * 4
        return {"row": name, "runs": 1, "tasks": 3, "unsolved": [3 - solved],
                **dict(zip(("time", "generated", "subopt", "optimal"), columns)),
                "subopt_sd": 0.0, "optimal_sd": 0.0,
                "paper": dict.fromkeys(("time", "generated", "subopt", "optimal")),
                "common": {"tasks": 0, "generated": None, "subopt": None, "optimal": None}}
    said = "No learned row solved a test task within its budget"
    # MD is no learned row
    assert said in format_table([row("MD", 3), row("0.9", 0), row("N/A", 0)])
    assert said not in format_table([row("MD", 3), row("0.9", 0), row("N/A", 1)])
    assert said not in format_table([row("Gap", 0), row("0.9", 2)])


class ToyHeuristic:
    """y^α(state i) = 10 + i − 100α + 0.5 over states 0..99, whose h* is 10: y^α <= h* for exactly
    100α states."""

    class encoding:   # noqa: N801 (no floor h_ad, as one-hot)
        admissible = staticmethod(lambda states: None)

    def __init__(self, alpha):
        self.alpha = alpha

    def hidden(self, states):
        return states

    def values(self, states):
        return 10 + states - 100 * self.alpha + 0.5

    def __call__(self, states):
        return np.maximum(np.rint(self.values(states)), 0).astype(int)


def test_the_reduced_default_tests_on_the_instances_easiest_for_manhattan_distance():
    chosen = easiest_korf(25)
    assert DEFAULT.instances == chosen and len(set(chosen)) == 25
    nodes = {i: c.reproduced for i, c in data.korf100_md_nodes().items()}
    assert max(nodes[i] for i in chosen) <= min(nodes[i] for i in nodes if i not in chosen)
    assert max(nodes[i] for i in chosen) <= DEFAULT.md_node_limit


def test_calibration_of_a_toy_heuristic_with_a_known_answer():
    states, h_star = np.arange(100), np.full(100, 10)
    rows = calibration(ToyHeuristic, states, h_star, alphas=(0.05, 0.25, 0.5, 0.9))
    assert [r["y_alpha_below_h_star"] for r in rows] == pytest.approx([0.05, 0.25, 0.5, 0.9])
    assert admissible_fraction([1, 2, 3], [1, 1, 5]) == pytest.approx(2 / 3)
    assert all(r["network_above_h_ad"] is None for r in rows)


class FlooredToy(ToyHeuristic):
    """The toy with the floor h_ad = 30 on every state."""

    class encoding:                                                  # noqa: N801
        admissible = staticmethod(lambda states: np.full(len(states), 30))


def test_calibration_counts_the_states_where_the_network_lifts_h_above_its_floor():
    # round(10.5 + i − 100α) > 30 exactly for i >= 21 + 100α (30.5 rounds half to even, to 30): 79 −
    # 100α states
    rows = calibration(FlooredToy, np.arange(100), np.full(100, 10), alphas=(0.05, 0.25, 0.5, 0.9))
    assert [r["network_above_h_ad"] for r in rows] == pytest.approx([0.74, 0.54, 0.29, 0.0])


def test_the_korf_states_with_known_h_star():
    states, h_star = korf_states_with_h_star()
    assert states.shape == (5305, 16) and h_star.min() == 1 and h_star.sum() == 144_858


@pytest.mark.parametrize("name, function", [
    ("efficiency_quick.json", plots_tables.table2_efficiency),
    ("suboptimality_quick.json", plots_tables.table1_suboptimality),
    ("suboptimality_quick.json", plots_tables.calibration),
    ("suboptimality_quick.json", plots_tables.learning_curves),
    ("suboptimality_quick.json", plots_generate_task.figure1_generate_task),
])
def test_each_figure_function_draws_from_a_small_saved_results_file(name, function, tmp_path):
    function(json.loads((DATA / name).read_text()), tmp_path / "figure.png")
    assert (tmp_path / "figure.png").stat().st_size > 10_000


@pytest.mark.slow
def test_plots_command_redraws_every_figure(tmp_path):
    out = subprocess.run([sys.executable, "-m", "la.plots",
                          "--efficiency", DATA / "efficiency_quick.json",
                          "--suboptimality", DATA / "suboptimality_quick.json",
                          "--out", tmp_path, "--copy"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    # The quick record's α rows are not those of the committed 15-puzzle baselines records: drawn
    # without them.
    assert "baselines_15-puzzle: drawn without the saved networks' own rows" in out.stdout
    # Records committed in figures/ are drawn by default too: each figures/table3_*.json,
    # confidence_*.json and baselines_*.json (one domain's baselines records as one), and
    # figures/diagnostics.json. A domain gets its coverage figure only if one of its records holds
    # conformal rows (not a Boot-only record).
    committed, conformal = set(), set()
    for path in (ROOT / "figures").glob("baselines_*.json"):
        domain = path.name.split("_")[1].split(".")[0]
        committed.add(domain)
        if json.loads(path.read_text()).get("conformal"):
            conformal.add(domain)
    assert {p.name for p in tmp_path.iterdir() if p.name.startswith("baselines_")} == (
        {f"baselines_{d}{end}" for d in committed for end in (".json", ".png")}
        | {f"baselines_{d}_conformal.png" for d in conformal})
    drawn = sorted(p.name for p in tmp_path.iterdir()
                   if not p.name.startswith(("table3_", "confidence_", "baselines_")))
    assert drawn == ["calibration.png", "calibration_decomposition.png", "diagnostics.json",
                     "efficiency.json", "figure1_generate_task.png", "learning_curves.png",
                     "sigma_e_by_distance.png", "suboptimality.json", "table1_suboptimality.png",
                     "table2_efficiency.png"]


def test_a_15_puzzle_record_from_before_domains_is_drawn_as_before(tmp_path, monkeypatch):
    """Records written before --domain name no domain and no calibration_states: the 15-puzzle's,
    Korf's states."""
    record = json.loads((DATA / "suboptimality_quick.json").read_text())
    assert "domain" not in record and "calibration_states" not in record
    figures, real = {}, plots_style.save
    monkeypatch.setattr(plots_style, "save",
                        lambda fig, path: figures.update({Path(path).name: fig}) or real(fig, path))
    assert plots_tables.all_from_suboptimality(record, tmp_path) == []
    assert sorted(figures) == ["calibration.png", "figure1_generate_task.png",
                               "learning_curves.png", "table1_suboptimality.png"]
    assert figures["calibration.png"].axes[0].get_title().startswith(
        "Calibration on 5,305 states with known h*")
    table = figures["table1_suboptimality.png"]
    assert "MD (la)" in [t.get_text() for t in table.legends[0].get_texts()]
    footer = " ".join(t.get_text() for t in table.texts)
    assert "MD: 0/3" in footer and "α = 0.9: " in footer and "α = MD" not in footer
    assert "on the 15-puzzle" in figures["learning_curves.png"]._suptitle.get_text()


@pytest.mark.parametrize("args, message", [
    (["--efficiency", "nowhere.json"], "no file 'nowhere.json'"),
    (["--efficiency", str(DATA / "suboptimality_quick.json")], "not 'efficiency'"),
])
def test_plots_command_refuses_bad_results(args, message, tmp_path):
    out = subprocess.run([sys.executable, "-m", "la.plots", *args, "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    refused_process(out, message)
