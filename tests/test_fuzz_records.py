"""Fuzzed records against their readers (`la.plots`, `la.experiments.merge`): committed records,
each changed in one place (a value's type, NaN, Infinity, a huge integer, 1e308, a string, a null,
a key dropped, a record duplicated), are either read as before or refused in one line naming the
file, exit status 2; never a traceback, never a NaN or an absurd number drawn or merged. The readers
run in this process (`main(argv)`), their figures built but not rendered (`style.save` is replaced
by a check of what each figure holds; by default only the figures the changed record feeds, every
figure in a tenth of the `--slow` cases). Deterministic: each case's mutation comes from its own
seed (np.random.default_rng(seed))."""
import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from la.experiments import label_audit, merge, suboptimality_table
from la.plots import __main__ as plots
from la.plots import ground_truth as plots_ground_truth
from la.plots import style, tables as plots_tables
from la.runs.cli import run
BIG = 2**53                  # beyond it a JSON number loses integers (la.runs.shapes.BIG)

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"
# The records `python -m la.plots` reads, by option; one of each family keeps a call short.
PLOTTED = {"--efficiency": "efficiency.json", "--suboptimality": "suboptimality.json",
           "--table3": "table3_24-pancake.json", "--confidence": "confidence_15-puzzle.json",
           "--baselines": "baselines_24-pancake.json", "--diagnostics": "diagnostics.json"}
# Run folders `python -m la.experiments.merge` combines: the files it reads in each.
MERGED = {"efficiency": ("efficiency-paper/run1", ["results.json", "experiment.json"]),
          "suboptimality": ("table1-gap/control/run1",
                            ["results.json", "experiment.json", "run1/calibration/unit.json"]),
          "ground_truth": ("ground-truth/2x5-puzzle/paper/run1",
                           ["results.json", "experiment.json"])}
# A label audit (`la.experiments.label_audit`), read by the audit itself and by table1_gap.
AUDITED = FIGURES / "table1-gap" / "label-audit_control-run1.json"
# A change that no reader may take for a value it reads: if the record is read, the field was not.
CORRUPT = ("nan", "infinity", "huge", "1e308", "string", "list", "object", "bool", "negative")
CHANGES = CORRUPT + ("null", "drop", "twice")
VALUES = {"nan": math.nan, "infinity": math.inf, "huge": 10**400, "1e308": 1e308, "string": "7",
          "list": [1], "object": {"a": 1}, "bool": True, "null": None}


def places(value, at=()):
    """Every place in a JSON value: (path, value) for each object entry and list item, depth
    first."""
    children = (value.items() if isinstance(value, dict)
                else enumerate(value) if isinstance(value, list) else ())
    for key, child in children:
        yield at + (key,), child
        yield from places(child, at + (key,))


def mutate(record, rng: np.random.Generator):
    """`record` changed in one place, chosen by `rng`; (the record, the change, where)."""
    record = json.loads(json.dumps(record))
    spots = list(places(record))
    path, old = spots[rng.integers(len(spots))]
    change = CHANGES[rng.integers(len(CHANGES))]
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if change == "drop":
        del parent[key]
    elif change == "twice":
        if isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(old)))
        else:
            parent[key + "_"] = parent[key]       # a key twice is refused by the JSON reader: a
            # near-twin beside it must be harmless
    elif change == "negative":
        parent[key] = -1 - old if isinstance(old, (int, float)) and not isinstance(old, bool) \
            else -1
    else:
        parent[key] = VALUES[change]
    return record, change, "/".join(map(str, path))


class Drawn:
    """What the figures saved held: their texts and any number that is infinite or huge."""

    def __init__(self):
        self.texts, self.absurd = [], []

    def save(self, fig, path) -> None:
        for artist in fig.findobj(lambda a: isinstance(a, (Text, Line2D, Rectangle))):
            if isinstance(artist, Text):
                self.texts.append(artist.get_text())
                continue
            data = (np.asarray(artist.get_xydata(), float) if isinstance(artist, Line2D)
                    else np.array([artist.get_x(), artist.get_y(), artist.get_width(),
                                   artist.get_height()], float))
            if np.isinf(data).any() or (np.abs(np.nan_to_num(data)) > BIG).any():
                self.absurd.append(f"{Path(path).name}: {data.ravel()[:4]}")
        style.plt.close(fig)

    def nonsense(self) -> list:
        """Texts that show a NaN, an infinity or a number of 16 digits or more, and absurd data."""
        shown = [t for t in self.texts
                 if re.search(r"\bnan\b|\binf\b|∞|\d{16}|e\+\d\d", t, re.IGNORECASE)]
        return shown + self.absurd


# The figures each record's option feeds (`la.plots.__main__.plan` names): the others are not
# drawn, in the default tier, where building every figure would take most of a minute per case.
FEEDS = {"--efficiency": ("efficiency",), "--suboptimality": ("suboptimality", "baselines_"),
         "--table3": ("table3_", "baselines_"), "--confidence": ("confidence",),
         "--baselines": ("baselines_",), "--diagnostics": ("diagnostics",)}


def read_with(main, argv, capsys, monkeypatch, only=None):
    """(exit status, stderr, what was drawn) of `main(argv)` as the command line runs it; with
    `only` (name prefixes), la.plots draws only those figures."""
    drawn = Drawn()
    monkeypatch.setattr(style, "save", drawn.save)
    if only is not None:
        planned = plots.all_plans
        monkeypatch.setattr(plots, "all_plans", lambda records, out: {
            name: (files, draw if name.startswith(only) else lambda folder: [])
            for name, (files, draw) in planned(records, out).items()})
    capsys.readouterr()
    status = run(main, argv)
    return status, capsys.readouterr().err, drawn


def judge(status, err, drawn, before, change, file, where):
    """Read as before, or refused in one line naming the file (exit status 2)."""
    case = f"{change} at {where} in {file}"
    if status == 0:
        assert not drawn.nonsense(), f"{case}: drawn {drawn.nonsense()[:3]}"
        if change in CORRUPT:
            assert drawn.texts == before.texts, f"{case}: read, and drawn differently"
    else:
        assert status == 2, f"{case}: exit status {status}, stderr {err[-300:]}"
        assert err.count("\n") == 1 and Path(file).name in err, f"{case}: {err[-300:]}"


_BEFORE = {}            # what the unchanged records draw, by the figures drawn


def drawn_before(only, tmp_path, capsys, monkeypatch) -> Drawn:
    if only not in _BEFORE:
        argv = [a for o, name in PLOTTED.items() for a in (o, str(FIGURES / name))]
        with monkeypatch.context() as patch:
            status, err, drawn = read_with(plots.main, argv + ["--out", str(tmp_path / "before")],
                                           capsys, patch, only)
        assert status == 0, err
        _BEFORE[only] = drawn
    return _BEFORE[only]


def plots_case(seed, tmp_path, capsys, monkeypatch, every=False):
    """A committed record changed at one place; with `every`, every figure is drawn."""
    rng = np.random.default_rng(seed)
    option = list(PLOTTED)[rng.integers(len(PLOTTED))]
    record, change, where = mutate(json.loads((FIGURES / PLOTTED[option]).read_text()), rng)
    mutated = tmp_path / PLOTTED[option]
    mutated.write_text(json.dumps(record))
    argv = [a for o, name in PLOTTED.items()
            for a in (o, str(mutated if o == option else FIGURES / name))]
    only = None if every else FEEDS[option]
    before = drawn_before(only, tmp_path, capsys, monkeypatch)
    status, err, drawn = read_with(plots.main, argv + ["--out", str(tmp_path / "out")], capsys,
                                   monkeypatch, only)
    judge(status, err, drawn, before, change, mutated, where)


_MERGED = {}            # (kind, drawn?): its folder merged unchanged: (results.json, what it drew)


def merge_case(seed, tmp_path, capsys, monkeypatch, draw=False):
    """A committed run folder with one file changed at one place, merged on its own; unless `draw`,
    without its figure (the merged table is compared)."""
    if not draw:
        for module, name in ((suboptimality_table, "draw"), (plots_tables, "table2_efficiency"),
                             (plots_ground_truth, "draw")):
            monkeypatch.setattr(module, name, lambda *args: None)
    rng = np.random.default_rng(seed)
    kind = list(MERGED)[rng.integers(len(MERGED))]
    source, files = MERGED[kind]
    if (kind, draw) not in _MERGED:
        status, err, drawn = read_with(merge.main, [str(tmp_path / "before"),
                                                    str(FIGURES / source)], capsys, monkeypatch)
        assert status == 0, err
        _MERGED[kind, draw] = (json.loads((tmp_path / "before" / "results.json").read_text()),
                               drawn)
    folder = tmp_path / "run"
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIGURES / source / name, folder / name)
    name = files[rng.integers(len(files))]
    record, change, where = mutate(json.loads((folder / name).read_text()), rng)
    (folder / name).write_text(json.dumps(record))
    out = tmp_path / "out"
    status, err, drawn = read_with(merge.main, [str(out), str(folder)], capsys, monkeypatch)
    judge(status, err, drawn, _MERGED[kind, draw][1], change, folder / name, where)
    if status == 0:            # what it wrote is strict JSON, and its table what the record gives
        merged = json.loads((out / "results.json").read_text(), parse_constant=_refuse)
        assert change not in CORRUPT or merged["table"] == _MERGED[kind, draw][0]["table"], \
            f"{change} at {where} in {name}: merged into another table"


def _refuse(name):
    raise AssertionError(f"{name} written into a merged record")


def audit_case(seed, tmp_path, capsys):
    """A committed label audit changed at one place, read as the audit and table1_gap read it: read
    with every column it makes finite, or refused in one line naming the file."""
    rng = np.random.default_rng(seed)
    record, change, where = mutate(json.loads(AUDITED.read_text(encoding="utf-8")), rng)
    path = tmp_path / AUDITED.name
    path.write_text(json.dumps(record), encoding="utf-8")

    def read(argv):
        for unit in label_audit.read_audit(path)["units"].values():
            found = [r for r in unit["records"] if r["h_star"] is not None]
            columns = label_audit.columns(found)
            assert all(v is None or math.isfinite(v) and abs(v) <= BIG
                       for v in columns.values()), f"{change} at {where}: {columns}"
            assert columns["subopt"] is None or columns["subopt"] >= 0, f"{change} at {where}"
        return 0
    capsys.readouterr()
    status, err = run(read, []), capsys.readouterr().err
    assert status == 0 or (status == 2 and err.count("\n") == 1 and path.name in err), \
        f"{change} at {where}: exit status {status}, {err[-300:]}"


QUICK, SLOW = range(4), range(1000, 1300)


@pytest.mark.parametrize("seed", QUICK)
def test_a_fuzzed_plot_record_is_read_as_before_or_refused_in_one_line(seed, tmp_path, capsys,
                                                                       monkeypatch):
    plots_case(seed, tmp_path, capsys, monkeypatch)


@pytest.mark.parametrize("seed", range(8))
def test_a_fuzzed_run_folder_is_merged_as_before_or_refused_in_one_line(seed, tmp_path, capsys,
                                                                        monkeypatch):
    merge_case(seed, tmp_path, capsys, monkeypatch)


@pytest.mark.parametrize("seed", range(8))
def test_a_fuzzed_label_audit_is_read_or_refused_in_one_line(seed, tmp_path, capsys):
    audit_case(seed, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
def test_many_fuzzed_label_audits(seed, tmp_path, capsys):
    audit_case(seed, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
def test_many_fuzzed_plot_records(seed, tmp_path, capsys, monkeypatch):
    plots_case(seed, tmp_path, capsys, monkeypatch, every=seed % 10 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
def test_many_fuzzed_run_folders(seed, tmp_path, capsys, monkeypatch):
    merge_case(seed, tmp_path, capsys, monkeypatch, draw=True)


def changed(record, path: str, value):
    """`record` with the value at `path` ("table/1/subopt") replaced by `value` (or, if `value` is
    TWICE, that list item duplicated)."""
    record, keys = json.loads(json.dumps(record)), path.split("/")
    parent = record
    at = lambda place, key: int(key) if isinstance(place, list) else key        # noqa: E731
    for key in keys[:-1]:
        parent = parent[at(parent, key)]
    last = at(parent, keys[-1])
    if value is TWICE:
        parent.insert(last, json.loads(json.dumps(parent[last])))
    else:
        parent[last] = value
    return record


TWICE = "(the item twice)"   # not a value: `changed` duplicates the list item there
# The issue's examples of each class, one each: a NaN or 1e308 percentage drawn, a huge integer
# that ends in a traceback, a record counted twice, a NaN copied into a merged record.
PLOTS_KNOWN = [("--table3", "table/1/subopt", math.nan), ("--table3", "table/1/optimal", 1e308),
               ("--baselines", "table/16/tasks", 10**400),
               ("--diagnostics", "runs/run2/sigma_e_by_distance/15/1/distance", 10**400),
               ("--efficiency", "table/0", TWICE), ("--confidence", "coverage/3/coverage", "0.4"),
               # the confidence tables' figure (issue 58 gaps, item 7): its runs counted
               ("--confidence", "runs", 3), ("--confidence", "runs/1", TWICE)]
MERGE_KNOWN = [("suboptimality", "results.json", "generate_task/after/0/state/4", math.nan),
               ("suboptimality", "results.json", "tests/1", TWICE),
               ("suboptimality", "results.json", "tests/2/records/0/cost", -5),
               ("efficiency", "results.json", "units/0/solved_test", math.inf),
               ("efficiency", "results.json", "units/0", TWICE),
               # the ground truth's figure (issue 58 gaps, item 7)
               ("ground_truth", "results.json", "measures/0/reliability/all/3/observed", 1e308),
               ("ground_truth", "results.json", "measures/0/rows/2/guarantee/4/held", 2.5),
               ("ground_truth", "results.json", "measures/0/sigma_e/2/key", "7"),
               ("ground_truth", "results.json", "measures/0/labels/alpha/0/iteration", 10**400),
               ("ground_truth", "results.json", "measures/0/rows/3/all/by_h_star/coverage", -0.5)]


@pytest.mark.parametrize("option, path, value", PLOTS_KNOWN, ids=lambda v: str(v)[:30])
def test_the_issues_plot_records_are_refused_in_one_line(option, path, value, tmp_path, capsys):
    mutated = tmp_path / PLOTTED[option]
    mutated.write_text(json.dumps(changed(json.loads((FIGURES / PLOTTED[option]).read_text()),
                                          path, value)))
    argv = [a for o, name in PLOTTED.items()
            for a in (o, str(mutated if o == option else FIGURES / name))]
    with pytest.MonkeyPatch.context() as patch:   # refused while reading: nothing is drawn
        patch.setattr(style, "save", lambda fig, path: pytest.fail(f"drew {path}"))
        assert run(plots.main, argv + ["--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and mutated.name in err, err


@pytest.mark.parametrize("kind, name, path, value", MERGE_KNOWN, ids=lambda v: str(v)[:30])
def test_the_issues_merge_records_are_refused_in_one_line(kind, name, path, value, tmp_path,
                                                          capsys):
    source, files = MERGED[kind]
    folder = tmp_path / "run"
    for file in files:
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIGURES / source / file, folder / file)
    (folder / name).write_text(json.dumps(changed(json.loads((folder / name).read_text()), path,
                                                  value)))
    assert run(merge.main, [str(tmp_path / "out"), str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and name in err, err
    assert not (tmp_path / "out").exists()
