"""Fuzzed records against their readers (`la.plots`, `la.experiments.merge`): committed records,
each changed in one place (a value's type, NaN, Infinity, a huge integer, 1e308, a string, a null, a key
dropped, a record duplicated), are either read as before or refused in one line naming the file,
exit status 2; never a traceback, never a NaN or an absurd number drawn or merged. The readers run
in this process (`main(argv)`), their figures built but not rendered (`style.save` is replaced by a
check of what each figure holds). Deterministic: each case's mutation comes from its own seed."""
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

from la.experiments import merge, suboptimality_table
from la.plots import __main__ as plots
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
                            ["results.json", "experiment.json", "run1/calibration/unit.json"])}
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


def read_with(main, argv, capsys, monkeypatch, draw):
    """(exit status, stderr, what was drawn) of `main(argv)` as the command line runs it; unless
    `draw`, with every figure left out (building them takes most of a reader's time)."""
    drawn = Drawn()
    monkeypatch.setattr(style, "save", drawn.save)
    if not draw:
        planned = plots.all_plans
        monkeypatch.setattr(plots, "all_plans", lambda records, out: {
            name: (files, lambda folder: []) for name, (files, _) in planned(records, out).items()})
        for module, name in ((suboptimality_table, "draw"), (plots_tables, "table2_efficiency")):
            monkeypatch.setattr(module, name, lambda *args: None)
    capsys.readouterr()
    status = run(main, argv)
    return status, capsys.readouterr().err, drawn


def judge(status, err, drawn, before, change, file, where):
    """Read as before, or refused in one line naming the file (exit status 2)."""
    case = f"{change} at {where} in {file}"
    if status == 0 and drawn is not None:
        assert not drawn.nonsense(), f"{case}: drawn {drawn.nonsense()[:3]}"
        if change in CORRUPT:
            assert drawn.texts == before.texts, f"{case}: read, and drawn differently"
    else:
        assert status == 2, f"{case}: exit status {status}, stderr {err[-300:]}"
        assert err.count("\n") == 1 and Path(file).name in err, f"{case}: {err[-300:]}"


def plots_case(seed, tmp_path, capsys, monkeypatch, baseline, draw=True):
    rng = np.random.default_rng(seed)
    option = list(PLOTTED)[rng.integers(len(PLOTTED))]
    record, change, where = mutate(json.loads((FIGURES / PLOTTED[option]).read_text()), rng)
    folder = tmp_path / str(seed)
    folder.mkdir()
    mutated = folder / PLOTTED[option]
    mutated.write_text(json.dumps(record))
    argv = [a for o, name in PLOTTED.items()
            for a in (o, str(mutated if o == option else FIGURES / name))]
    status, err, drawn = read_with(plots.main, argv + ["--out", str(folder / "out")], capsys,
                                   monkeypatch, draw)
    judge(status, err, drawn if draw else None, baseline, change, mutated, where)


def merge_case(seed, tmp_path, capsys, monkeypatch, baselines, draw=True):
    rng = np.random.default_rng(seed)
    kind = list(MERGED)[rng.integers(len(MERGED))]
    source, files = MERGED[kind]
    folder = tmp_path / str(seed) / "run"
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIGURES / source / name, folder / name)
    name = files[rng.integers(len(files))]
    record, change, where = mutate(json.loads((folder / name).read_text()), rng)
    (folder / name).write_text(json.dumps(record))
    out = tmp_path / str(seed) / "out"
    status, err, drawn = read_with(merge.main, [str(out), str(folder)], capsys, monkeypatch, draw)
    judge(status, err, drawn if draw else None, baselines[kind][1], change, folder / name, where)
    if status == 0:            # what it wrote is strict JSON, and its table what the record gives
        merged = json.loads((out / "results.json").read_text(), parse_constant=_refuse)
        assert (baselines is None or change not in CORRUPT
                or merged["table"] == baselines[kind][0]["table"]), \
            f"{change} at {where} in {name}: merged into another table"


def _refuse(name):
    raise AssertionError(f"{name} written into a merged record")


@pytest.fixture(scope="module")
def plots_baseline(tmp_path_factory):
    monkeypatch, capsys = pytest.MonkeyPatch(), None
    drawn = Drawn()
    monkeypatch.setattr(style, "save", drawn.save)
    argv = [a for o, name in PLOTTED.items() for a in (o, str(FIGURES / name))]
    assert plots.main(argv + ["--out", str(tmp_path_factory.mktemp("plots"))]) == 0
    monkeypatch.undo()
    del capsys
    return drawn


@pytest.fixture(scope="module")
def merge_baselines(tmp_path_factory):
    monkeypatch, made = pytest.MonkeyPatch(), {}
    for kind, (source, _) in MERGED.items():
        drawn = Drawn()
        monkeypatch.setattr(style, "save", drawn.save)
        out = tmp_path_factory.mktemp("merged") / kind
        assert merge.main([str(out), str(FIGURES / source)]) == 0
        made[kind] = (json.loads((out / "results.json").read_text()), drawn)
    monkeypatch.undo()
    return made


QUICK, SLOW = range(12), range(1000, 1300)


@pytest.mark.parametrize("seed", QUICK)
def test_a_fuzzed_plot_record_is_read_as_before_or_refused_in_one_line(
        seed, tmp_path, capsys, monkeypatch):
    plots_case(seed, tmp_path, capsys, monkeypatch, None, draw=False)


@pytest.mark.parametrize("seed", QUICK)
def test_a_fuzzed_run_folder_is_merged_as_before_or_refused_in_one_line(
        seed, tmp_path, capsys, monkeypatch):
    merge_case(seed, tmp_path, capsys, monkeypatch, None, draw=False)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
def test_many_fuzzed_plot_records(seed, tmp_path, capsys, monkeypatch, plots_baseline):
    plots_case(seed, tmp_path, capsys, monkeypatch, plots_baseline)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
def test_many_fuzzed_run_folders(seed, tmp_path, capsys, monkeypatch, merge_baselines):
    merge_case(seed, tmp_path, capsys, monkeypatch, merge_baselines)
