"""Every merged record committed under figures/table1-gap/ and figures/efficiency-paper/ is what
`python -m la.experiments.merge` makes of its run folders today, so the tables its write-up quotes
cannot drift from the runs they stand on."""
import json
from pathlib import Path

import pytest

from la.experiments import merge, suboptimality_table
from la.plots import tables as plots_tables

ROOT = Path(__file__).resolve().parents[1]
MERGED = sorted(p for p in [*(ROOT / "figures" / "table1-gap").glob("*/*/results.json"),
                             *(ROOT / "figures" / "efficiency-paper").glob("*/results.json")]
                if "merged" in json.loads(p.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "path", MERGED, ids=lambda p: str(p.parent.relative_to(ROOT / "figures")))
def test_a_committed_merge_is_made_again_from_its_folders(path, tmp_path, monkeypatch):
    record = json.loads(path.read_text())
    folders = [m["folder"] for m in record["merged"]]        # relative to the repository, as merged
    monkeypatch.chdir(ROOT)
    # the figures: not compared
    monkeypatch.setattr(suboptimality_table, "draw", lambda record, out: None)
    monkeypatch.setattr(plots_tables, "table2_efficiency", lambda record, path: None)
    out = tmp_path / "m"
    assert merge.main([str(out), *folders]) == 0
    again = json.loads((out / "results.json").read_text())
    merged_by = "python -m la.experiments.merge {} " + " ".join(folders)          # only OUT differs
    assert record.pop("command") == merged_by.format(path.parent.relative_to(ROOT))
    assert again.pop("command") == merged_by.format(out)
    assert again == record
    assert (out / "results.csv").read_text() == (path.parent / "results.csv").read_text()


def test_the_records_the_write_up_quotes_are_among_those_checked():
    checked = {str(p.parent.relative_to(ROOT / "figures")) for p in MERGED}
    assert {f"table1-gap/{m}" for m in ("control/merged", "control/ten-runs", "budget-x4/merged",
                                        "sampler/merged")} <= checked
