"""How la writes JSON (la.io.dumps): one flat object or list per line, the same values as
json.dumps, and every record committed under figures/ in that form (it keeps figures/ within its
budget)."""
import json
from pathlib import Path

import numpy as np

from la.io import dumps, write_json

ROOT = Path(__file__).resolve().parents[1]


def random_value(rng: np.random.Generator, depth: int = 0):
    """A random JSON value: nested dicts and lists of numbers, strings, booleans and None."""
    kind = rng.integers(0, 8 if depth < 4 else 5)
    if kind == 0:
        return int(rng.integers(-10**6, 10**6))
    if kind == 1:
        return float(rng.normal() * 10.0 ** rng.integers(-8, 8))
    if kind == 2:
        return ["a", "é ∑", "", 'q"uote'][rng.integers(0, 4)]
    if kind == 3:
        return [None, True, False][rng.integers(0, 3)]
    if kind == 4:
        return [] if rng.random() < 0.5 else {}
    if kind in (5, 6):
        return [random_value(rng, depth + 1) for _ in range(rng.integers(0, 5))]
    keys = ["id", "cost", 7, 0.9, True, None, "α"]
    return {keys[i]: random_value(rng, depth + 1)
            for i in rng.choice(len(keys), rng.integers(0, 5), replace=False)}


def test_the_values_are_json_dumps_values():
    rng = np.random.default_rng(11)
    for _ in range(500):
        value = random_value(rng)
        assert json.loads(dumps(value)) == json.loads(json.dumps(value))


def test_a_flat_record_is_one_line_and_a_nested_one_a_line_per_entry():
    record = {"tests": [{"id": 0, "cost": 43, "solved": True}, {"id": 1, "cost": None,
                                                               "solved": False}],
              "alphas": [0.9, 0.5], "empty": {}, "name": "run1"}
    assert dumps(record).splitlines() == [
        "{",
        '  "tests": [',
        '    {"id": 0, "cost": 43, "solved": true},',
        '    {"id": 1, "cost": null, "solved": false}',
        "  ],",
        '  "alphas": [0.9, 0.5],',
        '  "empty": {},',
        '  "name": "run1"',
        "}"]


def test_a_tuple_is_written_as_the_list_it_reads_back_as():
    record = {"config": {"alphas": (0.95, 0.9), "rows": ({"a": 1},)}, "runs": [1]}
    assert dumps(record) == dumps(json.loads(json.dumps(record)))


def test_write_json_writes_dumps_with_a_final_newline(tmp_path):
    write_json(tmp_path / "r.json", {"a": [{"b": 1}]})
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == dumps({"a": [{"b": 1}]}) + "\n"


def test_every_committed_record_is_in_the_writers_form():
    found = [p for p in (ROOT / "figures").rglob("*.json")
             if "unfinished" not in p.relative_to(ROOT / "figures").parts]
    assert len(found) > 100
    wrong = [str(p.relative_to(ROOT)) for p in found
             if (text := p.read_text(encoding="utf-8")) != dumps(json.loads(text)) + "\n"]
    assert wrong == [], f"not in la.io.dumps' form (rewrite with la.io.write_json): {wrong[:5]}"
