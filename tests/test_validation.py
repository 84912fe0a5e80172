"""Every command checks its arguments and inputs before it trains, searches or writes anything.

First the checks of `la.runs.cli`, one kind at a time (numbers, paths, results files) and the
domains' sizes; then a table of bad command lines, each run in-process through its entry point's
`main(argv)` as `la.runs.cli.run` runs it, with the work itself (search, training, benchmarks,
drawing, copying) replaced by a tripwire: a bad input must end in exit status 2 and at most three
lines on stderr, without a traceback, before the tripwire and without writing anything. Last, one
real `python -m` process per entry point.
"""
import json
import os
import shutil
import subprocess
import sys
from argparse import ArgumentTypeError
from pathlib import Path

import numpy as np
import pytest

import la.bench.__main__ as bench
import la.experiments.efficiency as efficiency
import la.experiments.suboptimality as suboptimality
import la.experiments.suboptimality_units as suboptimality_units
import la.plots.__main__ as plots
import la.search.reference
import la.solve as solve
from la.domains.blocksworld import Blocksworld
from la.domains.names import make_domain
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.nn import FFNN, WUNN
from la.plots import records as plots_records
from la.plots import tables as plots_tables
from la.runs import cli, shapes
from la.runs.network import save_network
from la.runs.persist import save

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"
LONG = "12345678901234567890123"                      # a 23-digit integer
KORF1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"       # Korf's instance 1, a valid 15-puzzle state


# --- numbers --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value",
                         [("1", 1), ("1000", 1000), ("1e3", 1000), ("2.5e9", 2_500_000_000),
                          (" 7 ", 7), ("1.0", 1)])
def test_integers_may_be_written_in_scientific_notation_when_whole(text, value):
    assert cli.integer(1, 10**18)(text) == value and cli.node_limit(text) == value


@pytest.mark.parametrize("text, message", [
    ("", "expected an integer"), ("x", "expected an integer"), ("1.5", "expected an integer"),
    ("nan", "expected an integer"), ("inf", "expected an integer"), ("1e-3", "expected an integer"),
    ("0", "at least 1"), ("-5", "at least 1"), (LONG, "at most"), ("1e999999999", "at most"),
    ("9" * 5000, "at most"),
])
def test_integers_out_of_range_or_malformed_are_refused(text, message):
    with pytest.raises(ArgumentTypeError, match=message) as refused:
        cli.node_limit(text)
    # an absurd input is shown shortened
    assert len(str(refused.value)) < 200


def test_seeds_counts_and_weights_have_their_ranges():
    assert cli.seed("0") == 0 and cli.seed(str(2**32 - 1)) == 2**32 - 1
    for bad in ("-1", str(2**32), LONG, "0.5"):
        with pytest.raises(ArgumentTypeError):
            cli.seed(bad)
    assert cli.count("1") == 1 and cli.count("1000") == 1000
    for bad in ("0", "-1", "1001", LONG):
        with pytest.raises(ArgumentTypeError):
            cli.count(bad)
    assert cli.weight("3") == 3
    with pytest.raises(ArgumentTypeError):
        cli.weight(LONG)


@pytest.mark.parametrize("text, message", [("nan", "finite"), ("inf", "finite"), ("-inf", "finite"),
                                           ("1e400", "finite"), ("0", "more than 0"),
                                           ("-1", "more than 0"), ("x", "number of seconds"),
                                           ("", "number of seconds")])
def test_seconds_must_be_finite_and_positive(text, message):
    assert cli.seconds("0.5") == 0.5
    with pytest.raises(ArgumentTypeError, match=message):
        cli.seconds(text)


def test_a_list_of_names_must_name_known_ones():
    sections = cli.names(["search", "nn", "neural"], "benchmark section")
    assert sections(" nn, search,nn ") == ["nn", "search"]
    for bad, message in [("", "at least one"), (",,,", "at least one"),
                         ("everything", "search, nn, neural")]:
        with pytest.raises(ArgumentTypeError, match=message):
            sections(bad)


# --- paths ----------------------------------------------------------------------------------------

def read_only(folder: Path) -> Path:
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def deny_writing(monkeypatch, folder: Path) -> None:
    """Make `folder` read-only for the checks even where the tests run as root, who may write
    anywhere."""
    if os.access(folder, os.W_OK):
        real = os.access
        monkeypatch.setattr(os, "access",
                            lambda p, mode: False if Path(p) == folder else real(p, mode))


def test_out_folder_refuses_files_empty_names_and_places_that_cannot_be_made(tmp_path):
    (tmp_path / "file").write_text("x")
    assert cli.out_folder(str(tmp_path / "new" / "deeper")) == tmp_path / "new" / "deeper"
    assert cli.out_folder(str(tmp_path)) == tmp_path                 # an existing folder is fine
    for bad, message in [("", "folder name"), (tmp_path / "file", "is a file"),
                         (tmp_path / "file" / "sub", "is a file"),
                         (tmp_path / ("x" * 300), "longer than")]:
        with pytest.raises(ArgumentTypeError, match=message):
            cli.out_folder(str(bad))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]    # nothing was created


def path_of(base: Path, size: int) -> Path:
    """`base`/eee.../eee...: a path of exactly `size` bytes, no name in it longer than 200."""
    names, rest = [], size - len(str(base))
    while rest:
        n = min(200, rest - 1)
        # never leave room for a name of 0 bytes
        n -= rest - n - 1 == 1
        names.append("e" * n)
        rest -= n + 1
    return base.joinpath(*names)


def test_paths_longer_than_the_system_takes_are_refused_however_short_each_name(tmp_path):
    # 5,024 bytes, each name within NAME_MAX
    deep = "/".join(["d" * 200] * 25)
    with pytest.raises(ArgumentTypeError, match="is too long: its full path has"):
        cli.out_folder(str(tmp_path / deep))
    with pytest.raises(ArgumentTypeError, match="is too long"):
        cli.figure_file(str(tmp_path / deep) + ".png")
    # ROOM bytes left for the files
    fits = path_of(tmp_path, os.pathconf("/", "PC_PATH_MAX") - 1 - cli.ROOM)
    assert cli.out_folder(str(fits)) == fits
    with pytest.raises(ArgumentTypeError, match=f"less {cli.ROOM} kept"):
        cli.out_folder(str(fits) + "e")
    assert list(tmp_path.iterdir()) == []                           # nothing was created


def test_out_folder_refuses_a_read_only_place(tmp_path, monkeypatch):
    locked = read_only(tmp_path / "locked")
    deny_writing(monkeypatch, locked)
    for path in (locked / "out", locked / "out" / "deeper", locked):
        with pytest.raises(ArgumentTypeError, match="cannot write in"):
            cli.out_folder(str(path))
    assert list(locked.iterdir()) == []


def test_figure_file_needs_a_suffix_matplotlib_writes_and_a_writable_place(tmp_path):
    (tmp_path / "file").write_text("x")
    for good in ("a.png", "a.PDF", "a.svg", "sub/a.png"):
        assert cli.figure_file(str(tmp_path / good)) == tmp_path / good
    for bad, message in [("", "file name"), (tmp_path / "a.xyz", "cannot write '.xyz'"),
                         (tmp_path / "a", "no file type"), (tmp_path, "is a folder"),
                         (tmp_path / "file" / "a.png", "is a file")]:
        with pytest.raises(ArgumentTypeError, match=message):
            cli.figure_file(str(bad))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_existing_folders_and_files(tmp_path):
    (tmp_path / "file").write_text("x")
    assert (cli.existing_folder(str(tmp_path)) == tmp_path
            and cli.existing_file(str(tmp_path / "file")))
    for check, bad, message in [(cli.existing_folder, "", "folder name"),
                                (cli.existing_folder, "nowhere", "no folder"),
                                (cli.existing_folder, tmp_path / "file", "is a file"),
                                (cli.existing_file, "", "file name"),
                                (cli.existing_file, "nowhere", "no file"),
                                (cli.existing_file, tmp_path, "is a folder")]:
        with pytest.raises(ArgumentTypeError, match=message):
            check(str(bad))


# --- results files --------------------------------------------------------------------------------

def toy_shape():
    return {"experiment": str, "table": [{"row": str, "value": shapes.NUMBER, "sd?": shapes.MAYBE}],
            "curves": [[int], ...]}


@pytest.mark.parametrize("content, message", [
    (b"[]", "expected a JSON object"), (b"{}", "not 'toy' results"), (b"", "not JSON"),
    (b"\x00garbage", "not JSON"), (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000, "nested too deeply"), (b'{"experiment": "toy"}', "has no 'table'"),
    (b'{"experiment": "toy", "table": [], "curves": []}', "table is empty"),
    (b'{"experiment": "toy", "table": {}, "curves": []}', "table should be a list, got an object"),
    (b'{"experiment": "toy", "table": [{"row": "a", "value": "1"}], "curves": []}',
     r"table\[0\].value should be a number, got a string"),
    (b'{"experiment": "toy", "table": [{"row": "a", "value": true}], "curves": []}',
     "got true/false"),
    (b'{"experiment": "toy", "table": [{"row": "a", "value": 1, "sd": "x"}], "curves": []}',
     "sd should be"),
    (b'{"experiment": "toy", "table": [{"row": "a", "value": 1}], "curves": [[]]}',
     r"curves\[0\] is empty"),
])
def test_results_files_of_the_wrong_shape_are_one_line_naming_the_file(tmp_path, content, message):
    path = tmp_path / "results.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as refused:
        shapes.read_results(path, "toy", toy_shape())
    assert "results.json" in str(refused.value) and "\n" not in str(refused.value)


def test_a_results_file_of_the_right_shape_is_read(tmp_path):
    path = tmp_path / "results.json"
    record = {"experiment": "toy", "table": [{"row": "a", "value": 1.5, "sd": None}], "curves": [],
              "more": 1}
    path.write_text(json.dumps(record))
    assert shapes.read_results(path, "toy", toy_shape()) == record
    with pytest.raises(ValueError, match="cannot read it"):
        shapes.read_results(tmp_path / "missing.json", "toy", toy_shape())


def test_the_committed_results_have_the_shape_the_figures_read():
    plots_records.read_record(FIGURES / "efficiency.json", "efficiency")
    plots_records.read_record(FIGURES / "suboptimality.json", "suboptimality")
    table3 = plots_records.read_table3(sorted(FIGURES.glob("table3_*.json")))
    assert "24-pancake" in table3


# --- domain sizes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: Pancake(256), "at most 255 pancakes"),
    (lambda: Pancake(10**12), "at most 255 pancakes"),
    (lambda: Blocksworld(256), "at most 255 blocks"),
    (lambda: SlidingTile(17), "at most 255 tiles"),
    (lambda: make_domain("300-pancake"), "at most 255 pancakes"),
    (lambda: make_domain("1000000000000-pancake"), "at most 255 pancakes"),
    (lambda: make_domain("288-puzzle"), "at most 255 tiles"),
    (lambda: make_domain("999999999999-puzzle"), "at most 255 tiles"),
    (lambda: make_domain("9" * 5000 + "-blocksworld"), "far too large"),
])
def test_domains_larger_than_a_uint8_state_holds_are_refused_with_the_reason(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_the_largest_domains_a_uint8_state_holds_still_work():
    for domain in (Pancake(255), Blocksworld(255), make_domain("255-pancake")):
        np.testing.assert_array_equal(domain.validate(domain.goal), domain.goal)
    assert SlidingTile(16).size == 256


@pytest.mark.parametrize("text, message",
                         [(f"0 1 2 {LONG}", "out of range"), ("0 1 " + "9" * 5000, "integers"),
                          ("0 1 -1 2", "out of range")])
def test_huge_or_negative_numbers_in_a_state_are_one_line(text, message):
    with pytest.raises(ValueError, match=message) as refused:
        cli.parse_state(Pancake(4), text)
    assert len(str(refused.value)) < 200


# --- every entry point: bad command lines end before any work -------------------------------------

class WorkStarted(BaseException):
    """Raised by a tripwire: the command got past its checks with a bad input."""


def tripwire(*args, **kwargs):
    raise WorkStarted()


@pytest.fixture
def no_work(monkeypatch, inputs):
    """Replace everything that searches, trains, benchmarks, draws or copies by a tripwire."""
    deny_writing(monkeypatch, inputs / "locked")
    for module, name in [(solve, "ida_star"), (la.search.reference, "ida_star"),
                         (efficiency, "run_units"), (efficiency, "train"),
                         (suboptimality, "run_units"), (suboptimality_units, "train"),
                         (plots_tables, "table2_efficiency"),
                         (plots_tables, "all_from_suboptimality"), (shutil, "copyfile")]:
        monkeypatch.setattr(module, name, tripwire)
    for section in bench.SECTIONS.values():
        monkeypatch.setattr(section, "run", tripwire)
    # prepare() may refuse, but must not get to write
    for module in (efficiency, suboptimality):
        real = module.prepare

        def prepare(out, *args, real=real, **kwargs):
            place = Path(out).resolve()
            assert (place != Path.cwd().resolve()
                    and ROOT not in (place, *place.parents)), f"--out {out} is not a test's"
            real(out, *args, **kwargs)
            raise WorkStarted()
        monkeypatch.setattr(module, "prepare", prepare)


def tree(folder: Path) -> list:
    """Every file under `folder` with its size and modification time, and every folder: to see that
    nothing was written. `la.runs.lock`'s lock files are left out: taking the lock leaves one
    behind, by design."""
    return sorted((str(p.relative_to(folder)),)
                  + (() if p.is_dir() else (p.lstat().st_size, p.lstat().st_mtime_ns))
                  for p in folder.rglob("*") if p.name != ".lock")


def call(main, argv) -> int:
    """`main(argv)` as `la.runs.cli.run` calls it; argparse's refusals are SystemExit(2)."""
    try:
        return cli.run(main, argv)
    except SystemExit as exit:
        return exit.code


def make_inputs(folder: Path) -> None:
    """The files and folders the table's command lines point at (`{in}` in the table)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "file").write_text("not a folder")
    (folder / "empty").mkdir()
    read_only(folder / "locked")
    (folder / "run").mkdir()
    (folder / "run" / "experiment.json").write_text(
        json.dumps({"settings": {}, "command": "", "commit": None}))
    for which in ("alpha", "mean"):
        (folder / "broken" / "run1" / which).mkdir(parents=True)
        (folder / "broken" / "run1" / which / "network.npz").write_bytes(b"not a network")
    rng = np.random.default_rng(0)
    save_network(FFNN(128, 20, 1, rng), OneHot(SlidingTile(4)), folder / "mean.npz")
    save_network(WUNN(128, 20, rng), OneHot(SlidingTile(4)), folder / "wunn.npz")
    # PDBs never built
    pancake = {"encoding": "PancakeFeatures", "partitions": [[[0, 1, 2, 3], [4, 5, 6, 7]]]}
    save(FFNN(6, 8, 2, rng), folder / "pancake.npz",
         about={"domain": "8-pancake", "encoding": pancake})
    efficiency_record = json.loads((FIGURES / "efficiency.json").read_text())
    sub_record = json.loads((FIGURES / "suboptimality.json").read_text())
    files = {"efficiency.json": efficiency_record, "suboptimality.json": sub_record}

    def variant(name, record, change):
        record = json.loads(json.dumps(record))
        change(record)
        files[name] = record

    variant("eff-no-table.json", efficiency_record, lambda r: r.pop("table"))
    variant("eff-empty-table.json", efficiency_record, lambda r: r.update(table=[]))
    variant("eff-row-missing.json", efficiency_record, lambda r: r["table"][3].pop("solved_test"))
    variant("eff-row-string.json", efficiency_record,
            lambda r: r["table"][0].update(solved_train="90"))
    variant("eff-table-object.json", efficiency_record, lambda r: r.update(table={"GTP": 1}))
    variant("sub-no-calibration.json", sub_record, lambda r: r.pop("calibration"))
    variant("sub-alpha-without-row.json", sub_record, lambda r: r["config"]["alphas"].append(0.99))
    variant("sub-curves-list.json", sub_record, lambda r: r.update(learning_curves=[]))
    variant("sub-curve-missing-beta.json", sub_record,
            lambda r: r["learning_curves"]["alpha"][0][5].pop("beta"))
    variant("sub-paper-missing.json", sub_record, lambda r: r["table"][1].pop("paper"))
    variant("sub-walk-chosen.json", sub_record,
            lambda r: r["generate_task"]["before"][0].update(chosen=9))
    variant("sub-walk-after.json", sub_record,
            lambda r: r["generate_task"]["sigma_e_after_update"].pop())
    variant("sub-no-experiment.json", sub_record, lambda r: r.pop("experiment"))
    for name, record in files.items():
        (folder / name).write_text(json.dumps(record))
    raw = {"list.json": b"[]", "object.json": b"{}", "empty.json": b"",
           "garbage.json": b"\x00\x01garbage\x02",
           "latin1.json": '{"experiment": "caf\xe9"}'.encode("latin-1"),
           "deep.json": b"[" * 100_000,
           "truncated.json": (FIGURES / "efficiency.json").read_bytes()[:500]}
    for name, content in raw.items():
        (folder / name).write_bytes(content)


CASES = [
    # la.solve: limits and weights
    ("solve", ["--korf", "1", "--time-limit", "nan"], "finite"),
    ("solve", ["--korf", "1", "--time-limit", "inf"], "finite"),
    ("solve", ["--korf", "1", "--time-limit", "1e400"], "finite"),
    ("solve", ["--korf", "1", "--time-limit", "-1"], "more than 0"),
    ("solve", ["--korf", "1", "--time-limit", "0"], "more than 0"),
    ("solve", ["--korf", "1", "--time-limit", "soon"], "number of seconds"),
    ("solve", ["--korf", "1", "--node-limit", "0"], "at least 1"),
    ("solve", ["--korf", "1", "--node-limit", "-5"], "at least 1"),
    ("solve", ["--korf", "1", "--node-limit", "1.5"], "expected an integer"),
    ("solve", ["--korf", "1", "--node-limit", "nan"], "expected an integer"),
    ("solve", ["--korf", "1", "--node-limit", "inf"], "expected an integer"),
    ("solve", ["--korf", "1", "--node-limit", "1e-3"], "expected an integer"),
    ("solve", ["--korf", "1", "--node-limit", LONG], "at most"),
    ("solve", ["--korf", "1", "--node-limit", ""], "expected an integer"),
    ("solve", ["--korf", "1", "--weight", "0"], "at least 1"),
    ("solve", ["--korf", "1", "--weight", "-2"], "at least 1"),
    ("solve", ["--korf", "1", "--weight", "1.5"], "expected an integer"),
    ("solve", ["--korf", "1", "--weight", LONG], "at most"),
    # la.solve: which task
    ("solve", ["--korf", "0"], "--korf: must be at least 1"),
    ("solve", ["--korf", "101"], "no instance 101"),
    ("solve", ["--korf", "-1"], "--korf: must be at least 1"),
    ("solve", ["--korf", LONG], "Korf's 15-puzzle instances are numbered 1..100"),
    ("solve", ["--korf", "1.5"], "--korf: expected an integer"),
    ("solve", ["--korf24", "0"], "--korf24: must be at least 1"),
    ("solve", ["--korf24", "51"], "no instance 51"),
    ("solve", ["--korf", "1", "--korf24", "1"], "exactly one of"),
    ("solve", ["--korf", "1", KORF1], "exactly one of"),
    ("solve", [], "exactly one of"),
    ("solve", ["--korf", "1", "--domain", "8-puzzle"], "not 8-puzzle"),
    ("solve", ["--korf", "1", "--algorithm", "fast"], "invalid choice"),
    ("solve", ["--korf", "1", "--order", "random"], "invalid choice"),
    ("solve", ["--korf", "1", "--heuristic", "gap"], "pancake puzzles"),
    ("solve", ["--domain", "5-pancake", "--heuristic", "md", "0 1 2 3 4"], "sliding-tile"),
    # la.solve: trained networks
    ("solve", ["--korf", "1", "--network", "{in}/nowhere.npz"], "no file"),
    ("solve", ["--korf", "1", "--network", "{in}/empty"], "is a folder"),
    ("solve", ["--korf", "1", "--network", "{in}/file"], "not an .npz archive"),
    ("solve", ["--korf", "1", "--network", "{in}/wunn.npz"], "not a planning network"),
    ("solve", ["--korf", "1", "--network", "{in}/mean.npz", "--alpha", "0.9"],
     "two-output network"),
    ("solve", ["--korf", "1", "--network", "{in}/mean.npz", "--alpha", "1"],
     "strictly between 0 and 1"),
    ("solve", ["--korf", "1", "--network", "{in}/mean.npz", "--alpha", "nan"],
     "strictly between 0 and 1"),
    ("solve", ["--korf", "1", "--network", "{in}/mean.npz", "--alpha", "x"],
     "a number between 0 and 1"),
    ("solve", ["--korf", "1", "--network", "{in}/mean.npz", "--heuristic", "md"], "not both"),
    ("solve", ["--korf", "1", "--alpha", "0.9"], "give --network too"),
    ("solve", ["--korf", "1", "--network", "{in}/pancake.npz"],
     "trained on the 8-pancake, not the 15-puzzle"),
    ("solve", ["--network", "{in}/pancake.npz", "--domain", "9-pancake", "0 1 2 3 4 5 6 7 8"],
     "not the 9-pancake"),
    ("solve", ["--network", "{in}/pancake.npz", "0 1 2"], "8-pancake state has 8 numbers"),
    # la.solve: malformed states
    ("solve", ["1 2 3"], "has 16 numbers"),
    ("solve", ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 x"], "list of integers"),
    ("solve", ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15.0"], "list of integers"),
    ("solve", ["0 1 1 3 4 5 6 7 8 9 10 11 12 13 14 15"], "appears more than once"),
    ("solve", ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16"], "out of range"),
    ("solve", ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 -1"], "out of range"),
    ("solve", [f"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 {LONG}"], "out of range"),
    ("solve", ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 " + "9" * 5000], "list of integers"),
    ("solve", ["0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15"], "unsolvable"),
    ("solve", ["--domain", "4-blocksworld", "2 3 1 0"], "cycle"),
    # la.solve: domains
    ("solve", ["--domain", "15-towers", "0 1"], "unknown domain"),
    ("solve", ["--domain", "", "0 1"], "unknown domain"),
    ("solve", ["--domain", "7-puzzle", "0 1"], "no sliding-tile puzzle has 7 tiles"),
    ("solve", ["--domain", "1-pancake", "0"], "at least 2 pancakes"),
    ("solve", ["--domain", "300-pancake", " ".join(map(str, range(300)))], "at most 255 pancakes"),
    ("solve", ["--domain", "1000000000000-pancake", "0 1"], "at most 255 pancakes"),
    ("solve", ["--domain", "288-puzzle", " ".join(map(str, range(289)))], "at most 255 tiles"),
    ("solve", ["--domain", "999999999999-puzzle", "0 1"], "at most 255 tiles"),
    ("solve", ["--domain", "256-blocksworld", "0"], "at most 255 blocks"),
    ("solve", ["--domain", "9" * 5000 + "-pancake", "0 1"], "far too large"),
    # la.bench
    ("bench", ["--only", ""], "search, nn, neural"),
    ("bench", ["--only", ",,,"], "search, nn, neural"),
    ("bench", ["--only", " , "], "search, nn, neural"),
    ("bench", ["--only", "everything"], "search, nn, neural"),
    ("bench", ["--only", "search,gpu"], "'gpu'"),
    ("bench", ["--seed", "-1"], "at least 0"),
    ("bench", ["--seed", "x"], "expected an integer"),
    ("bench", ["--seed", LONG], "at most"),
    ("bench", ["--bogus"], "unrecognized arguments"),
    # la.experiments.efficiency (with --out {out}/eff and --figure {out}/eff.png unless given)
    ("efficiency", ["--out", ""], "folder name"),
    ("efficiency", ["--out", "{in}/file"], "is a file"),
    ("efficiency", ["--out", "{in}/file/sub"], "is a file"),
    ("efficiency", ["--out", "{in}/locked/sub"], "cannot write in"),
    ("efficiency", ["--out", "{out}/" + "x" * 300], "longer than"),
    ("efficiency", ["--figure", "{out}/table.xyz"], "cannot write '.xyz'"),
    ("efficiency", ["--figure", "{out}/table"], "no file type"),
    ("efficiency", ["--figure", ""], "file name"),
    ("efficiency", ["--figure", "{in}/empty"], "is a folder"),
    ("efficiency", ["--figure", "{in}/file/table.png"], "is a file"),
    ("efficiency", ["--figure", "{in}/locked/table.png"], "cannot write in"),
    ("efficiency", ["--runs", "0"], "at least 1"),
    ("efficiency", ["--run", "0"], "at least 1"),
    ("efficiency", ["--runs", "2", "--run", "3"],
     "--run 3: expected a run of the experiment, 1..2"),
    ("efficiency", ["--quick", "--run", "2"], "1..1"),
    ("efficiency", ["--runs", "-1"], "at least 1"),
    ("efficiency", ["--runs", LONG], "at most"),
    ("efficiency", ["--runs", "nan"], "expected an integer"),
    ("efficiency", ["--test-sets", "0"], "at least 1"),
    ("efficiency", ["--test-sets", LONG], "at most"),
    ("efficiency", ["--jobs", "0"], "at least 1"),
    ("efficiency", ["--jobs", LONG], "at most"),
    ("efficiency", ["--seed", "-1"], "at least 0"),
    ("efficiency", ["--seed", "1.5"], "expected an integer"),
    ("efficiency", ["--quick", "--paper"], "not allowed with"),
    ("efficiency", ["--order", "random"], "invalid choice"),
    ("efficiency", ["--bogus"], "unrecognized arguments"),
    ("efficiency", ["--quick", "--resume", "--out", "{in}/empty"], "nothing to resume"),
    ("efficiency", ["--quick", "--out", "{in}/run"], "--resume"),
    # la.experiments.suboptimality (with --out {out}/sub unless given)
    ("suboptimality", ["--networks", "{in}/nowhere"], "no folder"),
    ("suboptimality", ["--networks", "{in}/file"], "is a file"),
    ("suboptimality", ["--networks", ""], "folder name"),
    ("suboptimality", ["--networks", "{in}/empty"], "no network for run 1"),
    ("suboptimality", ["--quick", "--networks", "{in}/broken"], "network.npz"),
    ("suboptimality", ["--out", ""], "folder name"),
    ("suboptimality", ["--out", "{in}/file"], "is a file"),
    ("suboptimality", ["--out", "{in}/locked/sub"], "cannot write in"),
    ("suboptimality", ["--runs", "0"], "at least 1"),
    ("suboptimality", ["--run", "x"], "expected an integer"),
    ("suboptimality", ["--quick", "--runs", "3", "--run", "4"], "1..3"),
    ("suboptimality", ["--quick", "--run", "2", "--networks", "{in}"], "1..1"),
    ("suboptimality", ["--runs", LONG], "at most"),
    ("suboptimality", ["--jobs", "nan"], "expected an integer"),
    ("suboptimality", ["--seed", "-1"], "at least 0"),
    ("suboptimality", ["--full", "--quick"], "not allowed with"),
    # la.plots (with --out {out}/figs and the good results files unless given)
    ("plots", ["--efficiency", "{in}/missing.json"], "no file"),
    ("plots", ["--efficiency", "{in}/empty"], "is a folder"),
    ("plots", ["--efficiency", ""], "file name"),
    ("plots", ["--efficiency", "{in}/list.json"], "expected a JSON object"),
    ("plots", ["--efficiency", "{in}/object.json"], "not 'efficiency'"),
    ("plots", ["--efficiency", "{in}/empty.json"], "not JSON"),
    ("plots", ["--efficiency", "{in}/garbage.json"], "not JSON"),
    ("plots", ["--efficiency", "{in}/truncated.json"], "not JSON"),
    ("plots", ["--efficiency", "{in}/latin1.json"], "not UTF-8"),
    ("plots", ["--efficiency", "{in}/deep.json"], "nested too deeply"),
    ("plots", ["--efficiency", "{in}/suboptimality.json"], "not 'efficiency'"),
    ("plots", ["--efficiency", "{in}/eff-no-table.json"], "has no 'table'"),
    ("plots", ["--efficiency", "{in}/eff-empty-table.json"], "table is empty"),
    ("plots", ["--efficiency", "{in}/eff-row-missing.json"], "table[3] has no 'solved_test'"),
    ("plots", ["--efficiency", "{in}/eff-row-string.json"], "should be a number"),
    ("plots", ["--efficiency", "{in}/eff-table-object.json"], "should be a list"),
    ("plots", ["--suboptimality", "{in}/sub-no-calibration.json"], "has no 'calibration'"),
    ("plots", ["--suboptimality", "{in}/sub-alpha-without-row.json"], "no row for α 0.99"),
    ("plots", ["--suboptimality", "{in}/sub-curves-list.json"], "should be an object"),
    ("plots", ["--suboptimality", "{in}/sub-curve-missing-beta.json"], "has no 'beta'"),
    ("plots", ["--suboptimality", "{in}/sub-paper-missing.json"], "has no 'paper'"),
    ("plots", ["--suboptimality", "{in}/sub-walk-chosen.json"], "chosen"),
    ("plots", ["--suboptimality", "{in}/sub-walk-after.json"], "sigma_e_after_update"),
    ("plots", ["--suboptimality", "{in}/sub-no-experiment.json"], "not 'suboptimality'"),
    ("plots", ["--suboptimality", "{in}/efficiency.json"], "not 'suboptimality'"),
    ("plots", ["--suboptimality", "{in}/missing.json"], "no file"),
    ("plots", ["--out", ""], "folder name"),
    ("plots", ["--out", "{in}/file"], "is a file"),
    ("plots", ["--out", "{in}/locked/figs"], "cannot write in"),
    ("plots", ["--copy", "--out", "{in}/file/figs"], "is a file"),
]
MAINS = {"solve": solve.main, "bench": bench.main, "efficiency": efficiency.main,
         "suboptimality": suboptimality.main, "plots": plots.main}
DEFAULTS = {"efficiency": ["--out", "{out}/eff", "--figure", "{out}/eff.png"],
            "suboptimality": ["--out", "{out}/sub"],
            "plots": ["--out", "{out}/figs", "--efficiency", "{in}/efficiency.json",
                      "--suboptimality", "{in}/suboptimality.json"]}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inputs")
    make_inputs(folder)
    return folder


@pytest.mark.parametrize("entry, argv, message", CASES,
                         ids=[f"{e}{i}" for i, (e, _, _) in enumerate(CASES)])
def test_bad_input_is_one_line_exit_2_before_any_work(entry, argv, message, inputs, tmp_path,
                                                      no_work, capsys):
    given = {a for a in argv if a.startswith("--")}
    defaults = DEFAULTS.get(entry, [])
    extra = [x for i in range(0, len(defaults), 2) if defaults[i] not in given
             for x in defaults[i:i + 2]]
    argv = [a.replace("{in}", str(inputs)).replace("{out}", str(tmp_path)) for a in argv + extra]
    before = tree(inputs), tree(tmp_path)
    try:
        status = call(MAINS[entry], argv)
    except WorkStarted:
        pytest.fail("the bad input was not refused before the work began")
    err = capsys.readouterr().err
    assert status == 2, err
    assert (message in err and 1 <= len(err.strip().splitlines()) <= 3
            and "Traceback" not in err), err
    # nothing written, nothing created
    assert (tree(inputs), tree(tmp_path)) == before


def test_good_results_files_are_drawn_only_after_both_are_read(inputs, tmp_path, no_work, capsys):
    # the efficiency file is fine, the suboptimality one is not: not even the efficiency figure may
    # be drawn
    argv = ["--efficiency", str(inputs / "efficiency.json"),
            "--suboptimality", str(inputs / "list.json"), "--out", str(tmp_path / "figs"), "--copy"]
    assert call(plots.main, argv) == 2 and not (tmp_path / "figs").exists()


# --- one real process per entry point -------------------------------------------------------------

@pytest.mark.parametrize("module, argv", [
    ("la.solve", ["--korf", "1", "--time-limit", "nan"]),
    ("la.bench", ["--only", ""]),
    ("la.experiments.efficiency",
     ["--seed", "-1", "--out", "{out}/eff", "--figure", "{out}/eff.png"]),
    # > PATH_MAX
    ("la.experiments.efficiency", ["--quick", "--out", "{out}/" + "/".join(["p" * 200] * 25)]),
    ("la.experiments.suboptimality", ["--networks", "{out}/nowhere", "--out", "{out}/sub"]),
    ("la.plots", ["--efficiency", "{out}/missing.json", "--out", "{out}/figs"]),
])
def test_a_real_process_exits_2_with_one_line(module, argv, tmp_path):
    argv = [a.replace("{out}", str(tmp_path)) for a in argv]
    done = subprocess.run([sys.executable, "-m", module, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []
