"""Pattern databases: perfect ranks, sliding-tile tables against a plain-Python 0-1 BFS,
admissibility against h*, the cache folder (reload, damage detected and repaired, concurrent
builders, silent but for its progress calls), the printer of those calls, the named sets and the
CLI."""
import collections
import io
import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import Manhattan
from la.pdb import __main__ as cli
from la.pdb import rank as ranking
from la.pdb import sets, store
from la.pdb.sliding_tile import TilePattern
from la.runs import progress as printer
from la.runs.progress import BuildProgress
from la.search.bfs import ExactDistances
from refusals import refused, refused_process

ROOT = Path(__file__).resolve().parents[1]


def quiet(fraction, text):
    """A progress report that says nothing."""


class Heard(list):
    """A progress callback that keeps its calls, (fraction, text) each."""

    def __call__(self, fraction, text):
        self.append((fraction, text))


# --- ranks ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, k", [(1, 1), (5, 5), (6, 3), (9, 4), (9, 1), (16, 3)])
def test_rank_numbers_placements_lexicographically_without_holes(n, k):
    # itertools.permutations lists the placements in lexicographic order: their ranks must be 0, 1,
    # 2, ...
    cells = np.array(list(itertools.permutations(range(n), k)), dtype=np.uint8)
    assert len(cells) == ranking.count(n, k) == math.perm(n, k)
    np.testing.assert_array_equal(ranking.rank(cells, n), np.arange(len(cells)))
    np.testing.assert_array_equal(ranking.unrank(np.arange(len(cells)), n, k), cells)


def test_rank_round_trip_beyond_int32():
    # 64!/58! ≈ 5.3e10 placements
    n, k = 64, 6
    assert ranking.count(n, k) > 2**31
    ranks = np.random.default_rng(0).integers(0, ranking.count(n, k), size=5000)
    cells = ranking.unrank(ranks, n, k)
    assert all(len(set(row)) == k for row in cells.tolist()) and cells.max() < n
    np.testing.assert_array_equal(ranking.rank(cells, n), ranks)


# --- sliding-tile PDBs against an independent plain-Python search ---------------------------------

def abstract_distances(width: int, tiles) -> dict:
    """{placement: PDB value} by a plain 0-1 BFS over (cells of `tiles` in order, blank cell), from
    the goal: the blank moves freely among other tiles and a pattern tile's move costs 1; minimum
    over the blank."""
    start = (tuple(tiles), 0)
    dist, queue = {start: 0}, collections.deque([start])
    while queue:
        cells, blank = state = queue.popleft()
        row, col = divmod(blank, width)
        for r, c in [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]:
            if not (0 <= r < width and 0 <= c < width):
                continue
            target = r * width + c
            cost = int(target in cells)
            moved = tuple(blank if cell == target else cell for cell in cells)
            child, d = (moved, target), dist[state] + cost
            if d < dist.get(child, math.inf):
                dist[child] = d
                queue.append(child) if cost else queue.appendleft(child)
    best = {}
    for (cells, _), d in dist.items():
        best[cells] = min(best.get(cells, math.inf), d)
    return best


@pytest.mark.parametrize("width, tiles", [(3, (1, 2, 3)), (3, (2, 4, 6, 8)), (3, (4, 5, 6, 7, 8)),
                                          (3, (1, 2, 3, 4, 5, 6)), (4, (5, 10, 15)), (2, (2,))])
def test_entries_equal_exact_abstract_distances(width, tiles):
    pattern = TilePattern(width, tiles)
    table = pattern.build()
    expected = abstract_distances(width, tiles)
    # every placement is reachable
    assert len(expected) == pattern.size == len(table)
    cells = np.array(list(expected), dtype=np.uint8)
    np.testing.assert_array_equal(table[pattern.rank_cells(cells)], list(expected.values()))


def test_rank_of_states_reads_the_pattern_tiles_cells():
    pattern = TilePattern(3, (2, 7))
    # tile 2 on cell 7, tile 7 on cell 0
    state = np.array([[7, 0, 1, 3, 4, 5, 6, 2, 8]], dtype=np.uint8)
    assert pattern.rank(state).tolist() == ranking.rank(np.array([[7, 0]]), 9).tolist()


def every_state(exact: ExactDistances) -> np.ndarray:
    """All states ExactDistances found, decoded from its keys (digits in base `exact.base`)."""
    digits = exact.keys[:, None] // exact.powers[None, :] % exact.base
    return digits.astype(np.uint8)


@pytest.fixture(scope="module")
def eight_puzzle():
    """Every 8-puzzle state and its h*."""
    exact = ExactDistances(SlidingTile(3))
    return every_state(exact), exact.distance


@pytest.mark.parametrize("partition", [[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 3, 5, 7), (2, 4, 6, 8)],
                                       [(1, 2, 5), (3, 4, 8), (6, 7)]])
def test_a_partitions_sum_is_admissible_on_every_8_puzzle_state(partition, eight_puzzle, tmp_path):
    domain = SlidingTile(3)
    states, h_star = eight_puzzle
    assert len(states) == 181_440
    pdbs = [store.load(TilePattern(3, tiles), tmp_path, quiet) for tiles in partition]
    h = sum(pdb(states) for pdb in pdbs)
    assert (h <= h_star).all()
    # each PDB counts at least its tiles' Manhattan distances, and the sum sees more than Manhattan
    # does
    md = Manhattan(domain)(states)
    assert (h >= md).all() and (h > md).any()
    assert h[h_star == 0].tolist() == [0]


def test_patterns_are_checked():
    for width, tiles in [(3, (1, 1)), (3, (0, 1)), (3, (9,)), (3, ()), (3, (1, 2, 3, 4, 5, 6, 7)),
                         (9, (1,))]:
        with pytest.raises(ValueError):
            TilePattern(width, tiles)


# --- the cache folder -----------------------------------------------------------------------------

class Counted(TilePattern):
    """A TilePattern that counts its builds."""
    builds = 0

    def build(self, progress=None):
        type(self).builds += 1
        return super().build(progress)


@pytest.fixture
def counted():
    Counted.builds = 0
    return Counted(3, (1, 2, 3, 4))


def test_built_once_then_reloaded_and_silent_without_a_printer(counted, tmp_path, capsys):
    first = store.load(counted, tmp_path)
    assert Counted.builds == 1
    # the core prints nothing of its own
    assert capsys.readouterr() == ("", "")
    table_path, header_path = store.paths(counted, tmp_path)
    assert table_path.exists() and header_path.exists()
    stamp = table_path.stat().st_mtime_ns
    heard = Heard()
    again = store.load(counted, tmp_path, heard)
    assert Counted.builds == 1 and table_path.stat().st_mtime_ns == stamp
    # a good cached PDB loads without a call
    assert heard == [] and capsys.readouterr() == ("", "")
    np.testing.assert_array_equal(again.table, first.table)
    assert again.max == first.table.max()
    states = np.array([[1, 0, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1, 0]], dtype=np.uint8)
    values = again(states)
    assert (values.dtype == np.int64
            and values.tolist() == first.table[counted.rank(states)].tolist())
    header = json.loads(header_path.read_text())
    assert (header["pattern"] == [1, 2, 3, 4] and header["size"] == 3024
            and header["domain"] == "8-puzzle")
    assert (header["format"] == store.FORMAT and len(header["sha256"]) == 64
            and "commit" not in header)


def test_a_build_calls_progress_with_its_label_then_fractions_then_1_once(counted, tmp_path,
                                                                          capsys):
    heard = Heard()
    store.load(counted, tmp_path, heard)
    assert capsys.readouterr() == ("", "")
    assert heard[0] == (0.0, "building the 8-puzzle PDB of [1, 2, 3, 4] (3,024 entries)")
    assert heard[-1] == (1.0, f"saved in {tmp_path}")
    during = heard[1:-1]
    assert during and all(0 < fraction < 1 and isinstance(text, str) for fraction, text in during)
    heard.clear()
    store.load(Counted(3, (5, 6)), tmp_path, heard, label="8-puzzle PDB 2 of 2")
    assert heard[0] == (0.0, "8-puzzle PDB 2 of 2") and [f for f, _ in heard].count(1.0) == 1


def test_the_printer_prints_a_build_as_one_line_with_the_time_done(counted, tmp_path, capsys):
    store.load(counted, tmp_path, BuildProgress())
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(
        line.startswith("building the 8-puzzle PDB of [1, 2, 3, 4] (3,024 entries): ")
        for line in lines)
    assert "".join(lines).count("done in") == 1 and lines[-1].endswith(f" s, saved in {tmp_path}")


class Clock:
    """time.monotonic for the printer, set by hand."""
    now = 0.0

    @classmethod
    def monotonic(cls):
        return cls.now


def test_the_printer_estimates_the_time_left_and_writes_a_log_line_every_so_often(monkeypatch):
    monkeypatch.setattr(printer, "time", Clock)
    stream, said = io.StringIO(), []
    Clock.now = 0.0
    show = BuildProgress(stream, every=10)
    for now, fraction, text in [(100, None, "pdbs/x.npy: corrupted (its checksum does not match "
                                            "the header); building it again"),
                                (100, 0.0, "8-puzzle PDB 1 of 2, [1, 2] (72 entries)"),
                                (100.5, 0.4, "level 1"), (120, 0.5, "level 2"),
                                (125, 0.6, "level 3"), (131, 0.75, "level 4"),
                                (400, 0.9, "level 5"), (420, 1.0, "saved in pdbs"),
                                (430, 0.0, "8-puzzle PDB 2 of 2, [3] (9 entries)"),
                                (432, 1.0, "saved in pdbs")]:
        Clock.now = now
        show(fraction, text)
    said = stream.getvalue().splitlines()
    assert said == [
        "la.pdb: pdbs/x.npy: corrupted (its checksum does not match the header); building it again",
        # under 1 s in
        "8-puzzle PDB 1 of 2, [1, 2] (72 entries): 40% (level 1), estimating the time left",
        "8-puzzle PDB 1 of 2, [1, 2] (72 entries): 50% (level 2), about 20 s left",
        # 60% too soon
        "8-puzzle PDB 1 of 2, [1, 2] (72 entries): 75% (level 4), about 10 s left",
        "8-puzzle PDB 1 of 2, [1, 2] (72 entries): 90% (level 5), about 33 s left",
        "8-puzzle PDB 1 of 2, [1, 2] (72 entries): done in 320.0 s, saved in pdbs",
        "8-puzzle PDB 2 of 2, [3] (9 entries): done in 2.0 s, saved in pdbs"]


def test_the_printer_rewrites_its_line_in_place_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(printer, "time", Clock)
    Clock.now, stream = 0.0, Terminal()
    show = BuildProgress(stream)
    for now, fraction, text in [(0, 0.0, "L"), (2, 0.5, "a"), (2.1, 0.55, "b"), (3, 0.6, "c"),
                                (5, 1.0, "saved")]:
        Clock.now = now
        show(fraction, text)
    clear = "\r\x1b[K"
    assert stream.getvalue() == (f"{clear}L: 50% (a), about 2 s left"
                                 f"{clear}L: 60% (c), about 2 s left"
                                 f"{clear}L: done in 5.0 s, saved\n")


def flip_a_byte(table_path, header_path):
    raw = bytearray(table_path.read_bytes())
    raw[-100] ^= 1
    table_path.write_bytes(bytes(raw))


def truncate(table_path, header_path):
    table_path.write_bytes(table_path.read_bytes()[:-10])


def garble_header(table_path, header_path):
    header_path.write_text("{not json")


def other_pattern(table_path, header_path):
    header = json.loads(header_path.read_text())
    header["pattern"] = [1, 2, 3, 5]
    header_path.write_text(json.dumps(header))


def other_format(table_path, header_path):
    header = json.loads(header_path.read_text())
    header["format"] = store.FORMAT + 1
    header_path.write_text(json.dumps(header))


def drop_header(table_path, header_path):
    header_path.unlink()


def drop_table(table_path, header_path):
    table_path.unlink()


@pytest.mark.parametrize("damage, said",
                         [(flip_a_byte, "corrupted"), (truncate, "unreadable table"),
                          (garble_header, "unreadable header"), (other_pattern, "pattern"),
                          (other_format, "format"), (drop_header, "no header"),
                          (drop_table, "table is missing")])
def test_a_damaged_or_mismatched_file_is_reported_and_rebuilt(damage, said, counted, tmp_path,
                                                              capsys):
    good = store.load(counted, tmp_path, quiet).table.copy()
    table_path, header_path = store.paths(counted, tmp_path)
    damage(table_path, header_path)
    heard = Heard()
    repaired = store.load(counted, tmp_path, heard)
    notes = [text for fraction, text in heard if fraction is None]
    # the note, then the build
    assert len(notes) == 1 and heard[0] == (None, notes[0]) and heard[1][0] == 0.0
    assert (notes[0].startswith(f"{table_path}: ") and said in notes[0]
            and notes[0].endswith("; building it again"))
    assert capsys.readouterr() == ("", "")
    assert Counted.builds == 2
    np.testing.assert_array_equal(repaired.table, good)
    heard.clear()
    # the repaired files are good again
    store.load(counted, tmp_path, heard)
    assert Counted.builds == 2 and heard == []


def test_the_printer_reports_a_damaged_file_in_one_line_before_building_it_again(counted, tmp_path,
                                                                                 capsys):
    store.load(counted, tmp_path, quiet)
    table_path, header_path = store.paths(counted, tmp_path)
    flip_a_byte(table_path, header_path)
    store.load(counted, tmp_path, BuildProgress())
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (f"la.pdb: {table_path}: corrupted (its checksum does not match the "
                        "header); building it again")
    assert all(line.startswith("building the 8-puzzle PDB of [1, 2, 3, 4]") for line in lines[1:])
    assert lines[-1].count("done in") == 1 and "".join(lines).count("done in") == 1


def test_the_folder_comes_from_the_argument_then_LA_PDB_DIR_then_the_cache_directory(tmp_path,
                                                                                     monkeypatch):
    monkeypatch.delenv("LA_PDB_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert store.default_folder() == tmp_path / "xdg" / "la" / "pdb"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert store.default_folder() == Path.home() / ".cache" / "la" / "pdb"
    monkeypatch.setenv("LA_PDB_DIR", str(tmp_path / "env"))
    assert store.default_folder() == tmp_path / "env"
    store.load(TilePattern(3, (1,)), progress=quiet)
    assert store.paths(TilePattern(3, (1,)), tmp_path / "env")[0].exists()
    store.load(TilePattern(3, (1,)), tmp_path / "given", quiet)
    assert store.paths(TilePattern(3, (1,)), tmp_path / "given")[1].exists()


def test_an_unwritable_folder_is_refused_before_building(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="PDB folder"):
        store.load(TilePattern(3, (1,)), tmp_path / "file" / "pdbs", quiet)


BUILD = """
import sys
from la.pdb.sliding_tile import TilePattern
from la.pdb.store import load
load(TilePattern(3, (4, 5, 6, 7, 8)), sys.argv[1], lambda fraction, text: None)
"""


def test_two_processes_building_the_same_pdb_leave_a_good_pair(tmp_path):
    builders = [subprocess.Popen([sys.executable, "-c", BUILD, str(tmp_path)], cwd=ROOT)
                for _ in range(2)]
    assert [builder.wait(timeout=120) for builder in builders] == [0, 0]
    assert (sorted(path.name for path in tmp_path.iterdir())
            == ["8-puzzle_4-5-6-7-8.json", "8-puzzle_4-5-6-7-8.npy"])
    Counted.builds = 0
    store.load(Counted(3, (4, 5, 6, 7, 8)), tmp_path, quiet)         # the pair on disk checks out
    assert Counted.builds == 0


# --- the named sets and the command line ----------------------------------------------------------

@pytest.mark.parametrize("domain, items", [("15-puzzle", range(1, 16)), ("24-puzzle", range(1, 25)),
                                           ("24-pancake", range(24))])
def test_additive_sets_are_partitions(domain, items):
    named = sets.partitions(domain)
    assert len(named) == 2
    for patterns in named.values():
        flat = [item for pattern in patterns for item in pattern]
        # disjoint, and every item once
        assert sorted(flat) == list(items)


def test_set_shapes():
    assert [len(p) for p in sets.partitions("24-puzzle")["A"]] == [5, 5, 5, 5, 4]
    assert sorted(len(p) for p in sets.partitions("15-puzzle")["A"]) == [3, 6, 6]
    blocks = sets.partitions("15-blocksworld")["max"]
    assert len(blocks) == 12 and len(set(blocks)) == 12
    assert all(len(set(p)) == 4 and set(p) <= set(range(1, 16)) for p in blocks)
    # the reflection about the main diagonal maps row-neighbours to column-neighbours and undoes
    # itself
    assert sets.reflect((1, 2, 3), 4) == (4, 8, 12)
    assert ([sets.reflect(p, 4) for p in sets.partitions("15-puzzle")["reflected"]]
            == sets.partitions("15-puzzle")["A"])
    with pytest.raises(ValueError, match="8-puzzle"):
        sets.partitions("8-puzzle")


def test_load_set_loads_each_pattern_once(tmp_path, monkeypatch):
    monkeypatch.setitem(sets.PARTITIONS, "8-puzzle", {"X": [(1, 2, 3, 4), (5, 6, 7, 8)],
                                                      "Y": [(5, 6, 7, 8), (1, 2, 3, 4)]})
    heard = Heard()
    loaded = sets.load_set("8-puzzle", tmp_path, heard)
    assert list(loaded) == ["X", "Y"] and loaded["X"][0] is loaded["Y"][1]
    assert len(list(tmp_path.glob("*.npy"))) == 2
    assert [text for fraction, text in heard if fraction == 0] == [
        "8-puzzle PDB 1 of 2, [1, 2, 3, 4] (3,024 entries)",
        "8-puzzle PDB 2 of 2, [5, 6, 7, 8] (3,024 entries)"]


def test_cli_refuses_bad_options_before_any_work(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    for argv in [["build", "--domain", "8-puzzle", "--pdb-dir", str(tmp_path / "new")], ["build"],
                 [], ["build", "--domain", "24-puzzle", "--pdb-dir", str(tmp_path / "file" / "x")]]:
        refused(cli.main, argv, capsys, absent=tmp_path / "new", bare=True)


def test_cli_builds_then_finds_the_set(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sets.PARTITIONS, "8-puzzle", {"A": [(1, 2, 3, 4), (5, 6, 7, 8)]})
    monkeypatch.setattr(cli, "DOMAINS", (*sets.DOMAINS, "8-puzzle"))
    assert cli.main(["build", "--domain", "8-puzzle", "--pdb-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "8-puzzle A: [1, 2, 3, 4]  3,024 entries" in out and str(tmp_path) in out
    assert err.count("done in") == 2 and "PDB 2 of 2" in err             # one progress line per PDB
    assert cli.main(["build", "--domain", "8-puzzle", "--pdb-dir", str(tmp_path)]) == 0
    # already built: nothing to do
    assert capsys.readouterr().err == ""


def test_cli_exits_2_on_a_bad_domain():
    result = subprocess.run([sys.executable, "-m", "la.pdb", "build", "--domain", "25-puzzle"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    refused_process(result, "25-puzzle")


# --- slow tier: the paper's PDBs ------------------------------------------------------------------

def manhattan_of_cells(cells: np.ndarray, tiles, width: int) -> np.ndarray:
    """Sum of the tiles' Manhattan distances when tile tiles[i] is on cells[:, i]."""
    home = np.array(tiles)
    return (np.abs(cells // width - home // width)
            + np.abs(cells % width - home % width)).sum(axis=1)


@pytest.mark.slow
def test_24_puzzle_pdbs_never_below_their_tiles_manhattan_distance(tmp_path):
    loaded = sets.load_set("24-puzzle", tmp_path)
    rng = np.random.default_rng(2020)
    for pdb in loaded["A"] + loaded["B"]:
        tiles, size = pdb.abstraction.pattern, pdb.abstraction.size
        ranks = rng.integers(0, size, size=200_000)
        cells = ranking.unrank(ranks, 25, len(tiles)).astype(np.int64)
        assert (pdb.table[ranks] >= manhattan_of_cells(cells, tiles, 5)).all(), tiles
        assert pdb.table[pdb.abstraction.rank(np.arange(25, dtype=np.uint8)[None])[0]] == 0
    # known: a plain 0-1 BFS over (tile cells, blank cell) gives these tables the same maxima and
    # means
    first, last = loaded["A"][0], loaded["A"][4]
    assert (first.abstraction.pattern == (1, 2, 5, 6, 7)
            and last.abstraction.pattern == (11, 12, 17, 22))
    assert (first.max, round(first.table.mean(), 3)) == (30, 17.307)
    assert (last.max, round(last.table.mean(), 3)) == (20, 10.964)
