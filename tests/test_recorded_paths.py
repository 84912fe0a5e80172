"""Records name no folder of the machine they were made on: a path inside the project is kept
relative to it (la.runs.folder.as_recorded), and no committed record holds an absolute path."""
import json
from pathlib import Path

from la.runs.folder import ROOT, as_recorded


def test_a_path_inside_the_project_is_recorded_relative_to_it(tmp_path):
    assert as_recorded(ROOT / "figures" / "table3_15-blocksworld.json") == \
        str(Path("figures") / "table3_15-blocksworld.json")
    assert as_recorded("results/x") == "results/x"                      # as the user typed it
    assert as_recorded(tmp_path / "elsewhere") == str(tmp_path / "elsewhere")


def strings(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, str):
        yield value


def test_no_committed_record_names_an_absolute_path():
    found = []
    for path in (ROOT / "figures").rglob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        found += [(str(path.relative_to(ROOT)), s[:60]) for s in strings(record)
                  if s.startswith("/") or s[1:3] == ":\\"]
    assert found == [], found[:5]
