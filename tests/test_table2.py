"""Table 2's comparison (la.experiments.table2): GTP less each LengthInc setting, paired by run,
against a hand computation from the committed records; Holm's correction by hand; the folders
checked as the merge checks them."""
import json
import shutil

import numpy as np
import pytest
from scipy import stats

from la.experiments import table2
from la.experiments.paired import holm, signed_rank
from la.runs.folder import ROOT

RUNS = [ROOT / "figures" / "efficiency-paper" / f"run{k}" for k in (1, 2, 3)]


def test_the_changes_are_gtp_less_the_setting_run_by_run():
    runs, values = table2.per_run(RUNS)
    assert runs == [1, 2, 3]
    test = {}
    for folder in RUNS:                                        # by hand, from each record's units
        units = json.loads((folder / "results.json").read_text(encoding="utf-8"))["units"]
        for u in units:
            test.setdefault(u["variant"], []).append(100 * u["solved_test"])
    row = {r["variant"]: r for r in table2.compare(values)["solved_test"]}
    changes = np.subtract(test["GTP"], test["2"])
    assert row["2"]["changes"] == pytest.approx(changes.tolist())
    assert row["2"]["mean"] == pytest.approx(changes.mean())
    half = stats.t.ppf(0.975, 2) * changes.std(ddof=1) / np.sqrt(3)
    assert (row["2"]["low"], row["2"]["high"]) == pytest.approx((changes.mean() - half,
                                                                 changes.mean() + half))
    assert row["2"]["p"] == pytest.approx(stats.ttest_rel(test["GTP"], test["2"]).pvalue)
    assert row["2"]["ahead"] == int((changes > 0).sum())
    assert set(row) == {"1", "2", "4", "6", "8", "10"}


def test_holm_multiplies_the_ith_smallest_by_m_minus_i_and_keeps_the_order():
    adjusted = holm([0.01, 0.04, 0.03, None])
    assert adjusted[3] is None and adjusted[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])      # capped at 1
    assert signed_rank([0.0, 0.0, 0.0]) is None


def test_a_gap_in_the_runs_is_refused(capsys):
    assert table2.run_folders(RUNS[0].parent)[:3] == RUNS
    with pytest.raises(ValueError, match="runs 2 of 1..3 are in none of the folders"):
        table2.per_run([RUNS[0], RUNS[2]])


def test_a_run_lacking_a_variant_is_refused(tmp_path):
    folder = tmp_path / "run2"
    shutil.copytree(RUNS[1], folder, ignore=shutil.ignore_patterns("*.npz", "*.csv"))
    record = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    record["units"] = [u for u in record["units"] if u["variant"] != "6"]
    (folder / "results.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ValueError, match="run 2 has no unit of variant '6'"):
        table2.per_run([RUNS[0], folder])


def test_the_command_prints_both_measures(capsys):
    assert table2.main([str(f) for f in RUNS]) == 0
    out = capsys.readouterr().out
    assert "over 3 runs (1..3)" in out and "Solved Test" in out and "Solved Train" in out
    assert out.count("LengthInc 10") == 2


def test_the_write_up_quotes_the_comparison_of_the_committed_runs(capsys):
    """figures/README.md's block of Table 2's comparison is what the command prints today on the
    ten committed runs, line for line."""
    text = (ROOT / "figures" / "README.md").read_text(encoding="utf-8")
    start = text.index("Table 2's comparison over 10 runs")
    quoted = text[start:text.index("```", start)].rstrip("\n")
    assert table2.main([]) == 0
    assert capsys.readouterr().out.rstrip("\n") == quoted
