"""Damaged or awkward files given to `python -m la.solve` and `python -m la.pdb` (issue 39): each is
one line on stderr naming the file, exit status 2 and nothing written; and what `la.solve` imports
before its arguments are checked.

The network cases damage one field of a good network file; the PDB cases run on the 8-puzzle, whose
PDBs build in milliseconds (its set is patched into `la.pdb.sets.PARTITIONS`, as tests/test_pdb.py
does).
"""
import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import la.solve as solve
from la import io
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.nn import FFNN
from la.pdb import __main__ as pdb_cli
from la.pdb import sets, store
from la.pdb.sliding_tile import TilePattern
from la.runs.cli import run
from la.runs.network import save_network
from la.runs.persist import META

ROOT = Path(__file__).resolve().parents[1]
KORF_1 = ["--korf", "1", "--node-limit", "200"]


def one_line(capsys) -> str:
    """The single line the command wrote on stderr (nothing on stdout)."""
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, (out, err)
    return err


def error_line(capsys) -> str:
    """The command's last line on stderr, its one error line: after a build's progress lines, no
    traceback."""
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and [line for line in lines if line.startswith("error:")] == lines[-1:], err
    assert "Traceback" not in err
    return lines[-1]


# --- network files --------------------------------------------------------------------------------

@pytest.fixture
def network(tmp_path) -> Path:
    """A 128-20-2 network on the 15-puzzle's one-hot, saved as the experiments save one."""
    path = tmp_path / "network.npz"
    encoding = OneHot(SlidingTile(4))
    save_network(FFNN(encoding.size, 20, 2, np.random.default_rng(0)), encoding, path)
    return path


def damage(path: Path, meta=None, **arrays) -> None:
    """Rewrite the network file with `meta(metadata)` applied to its metadata and `arrays` replacing
    its own."""
    with np.load(path, allow_pickle=False) as data:
        stored = {key: data[key] for key in data.files}
    record = json.loads(str(stored[META][0]))
    if meta is not None:
        meta(record)
    np.savez(path, **{**stored, **arrays, META: np.array([json.dumps(record)])})


def nan_first_weight(stored):
    stored["W1"][0, 0] = np.nan


CASES = {  # case of issue 39: (what is damaged, what the one line must say besides the file's name)
    "13: 10^12 inputs": (lambda m: m["config"].update(n_in=10**12), {},
                         "key 'W1' has shape (128, 20), expected (1000000000000, 20)"),
    "22: -5 inputs": (lambda m: m["config"].update(n_in=-5), {},
                      "gives n_in = -5, expected a whole number >= 1"),
    "14: a garbage rng state": (lambda m: m["rng_state"].update(state="garbage"), {},
                                "damaged 'rng_state'"),
    "14: an rng state of strings": (lambda m: m["rng_state"]["state"].update(state="x"), {},
                                    "damaged 'rng_state'"),
    "15: the rng named default_rng": (lambda m: m["rng_state"].update(bit_generator="default_rng"),
                                      {}, "no usable 'rng_state'"),
    "17: a NaN weight": (None, {"W1": np.full((128, 20), np.nan)},
                         "key 'W1' holds NaN or infinite values"),
    "17: an infinite bias": (None, {"b2": np.array([0.0, np.inf])},
                             "key 'b2' holds NaN or infinite values"),
    "a weight of strings": (None, {"W2": np.full((20, 2), "x")},
                            "key 'W2' holds <U1 values, not real numbers"),
    "a config that is a list": (lambda m: m.update(config=[1, 2]), {},
                                "'config' that is not a JSON object"),
    "the class a list": (lambda m: m.update({"class": ["FFNN"]}), {}, "has no 'class' entry"),
    "an object dtype": (lambda m: m["config"].update(dtype="object"), {},
                        "expected float32 or float64"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_damaged_network_file_is_one_line_naming_it(case, network, capsys):
    assert run(solve.main, ["--network", str(network), *KORF_1]) in (0, 1)      # intact, it plans
    capsys.readouterr()
    meta, arrays, said = CASES[case]
    damage(network, meta, **arrays)
    assert run(solve.main, ["--network", str(network), *KORF_1]) == 2
    err = one_line(capsys)
    assert str(network) in err and said in err


def test_metadata_nested_100000_deep_is_one_line(network, capsys):
    with np.load(network, allow_pickle=False) as data:
        stored = {key: data[key] for key in data.files}
    np.savez(network, **{**stored, META: np.array(["[" * 100_000 + "]" * 100_000])})
    assert run(solve.main, ["--network", str(network), *KORF_1]) == 2
    assert "nested too deeply" in one_line(capsys)


def test_a_fifo_given_as_network_is_refused_before_it_is_opened(tmp_path):
    """Case 18. Opening a FIFO waits for a writer that never comes: a subprocess, so a regression
    fails by its timeout instead of hanging the suite."""
    fifo = tmp_path / "network.npz"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "la.solve", "--network", str(fifo), "--korf", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and f"{fifo}: a named pipe (FIFO)" in done.stderr


@contextlib.contextmanager
def within(seconds: int):
    """Fail, rather than hang the suite, if the block blocks (on a FIFO) for `seconds`: SIGALRM
    interrupts it."""
    def late(signum, frame):
        raise TimeoutError(f"still blocked after {seconds} s")
    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_given_as_network_is_refused(capsys):
    with within(30):
        assert run(solve.main, ["--network", "/dev/zero", "--korf", "1"]) == 2
    assert "/dev/zero: a device" in one_line(capsys)


# --- PDB files ------------------------------------------------------------------------------------

EIGHT = {"A": [(1, 2, 3, 4), (5, 6, 7, 8)]}          # two PDBs of 3,024 entries each


@pytest.fixture
def eight_puzzle_set(monkeypatch):
    monkeypatch.setitem(sets.PARTITIONS, "8-puzzle", EIGHT)
    monkeypatch.setattr(pdb_cli, "DOMAINS", (*sets.DOMAINS, "8-puzzle"))


def build(folder) -> int:
    """`python -m la.pdb build --domain 8-puzzle --pdb-dir folder`, in-process: its exit status."""
    return run(pdb_cli.main, ["build", "--domain", "8-puzzle", "--pdb-dir", str(folder)])


def test_a_full_disk_is_refused_before_the_build(eight_puzzle_set, tmp_path, monkeypatch, capsys):
    """Case 3: the room for every missing table is checked before the first is built."""
    class Full:
        f_bavail, f_frsize = 4, 4096                   # 16 KiB free
    monkeypatch.setattr(os, "statvfs", lambda path: Full())
    monkeypatch.setattr(TilePattern, "build", lambda *args: pytest.fail("a PDB was built"))
    assert build(tmp_path / "pdbs") == 2
    err = one_line(capsys)
    assert (f"no room in the PDB folder '{tmp_path / 'pdbs'}' for 2 missing PDBs" in err
            and "MiB free" in err)
    assert list((tmp_path / "pdbs").iterdir()) == []


@pytest.mark.parametrize("failing", ["write_npy", "write_json"])
def test_a_write_that_fills_the_disk_is_one_line_naming_the_file(failing, eight_puzzle_set,
                                                                 tmp_path, monkeypatch, capsys):
    """Case 3: a write that fails all the same (the disk filled meanwhile): no traceback, no file
    left, not even the table written before its header failed."""
    def full(path, *args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(io, failing, full)
    assert build(tmp_path) == 2
    err = error_line(capsys)
    suffix = ".npy" if failing == "write_npy" else ".json"
    assert (f"cannot write the PDB file '{tmp_path / ('8-puzzle_1-2-3-4' + suffix)}' "
            f"(No space left on device)" in err)
    assert list(tmp_path.iterdir()) == []


def test_a_short_write_without_errno_is_named_too(tmp_path, capsys, monkeypatch):
    """NumPy reports a short write as a bare OSError("... requested and ... written"), with no
    errno."""
    def short(path, array):
        raise OSError("24192 requested and 4096 written")
    monkeypatch.setattr(io, "write_npy", short)
    with pytest.raises(ValueError, match=r"8-puzzle_1-2\.npy' \(24192 requested and 4096 written: "
                                         r"is the disk full"):
        store.load(TilePattern(3, (1, 2)), tmp_path)


def test_a_header_nested_100000_deep_is_damaged_and_rebuilt(tmp_path):
    """Case 12: RecursionError is the usual "damaged, building it again"."""
    abstraction = TilePattern(3, (1, 2))
    first = store.load(abstraction, tmp_path)
    table_path, header_path = store.paths(abstraction, tmp_path)
    header_path.write_text("[" * 100_000 + "]" * 100_000)
    heard = []
    again = store.load(abstraction, tmp_path, lambda fraction, text: heard.append((fraction, text)))
    assert heard[0] == (None, f"{table_path}: unreadable header {header_path.name} "
                              f"(JSON nested too deeply); building it again")
    np.testing.assert_array_equal(again.table, first.table)
    assert json.loads(header_path.read_text())["pattern"] == [1, 2]


def test_a_fifo_in_place_of_a_table_is_damaged_and_rebuilt(tmp_path):
    abstraction = TilePattern(3, (1, 2))
    store.load(abstraction, tmp_path)
    table_path, _ = store.paths(abstraction, tmp_path)
    table_path.unlink()
    os.mkfifo(table_path)
    heard = []
    with within(30):                                    # np.load would wait for a writer
        store.load(abstraction, tmp_path, lambda fraction, text: heard.append((fraction, text)))
    assert heard[0] == (None, f"{table_path}: {table_path.name} is not a regular file; "
                              f"building it again")
    assert table_path.is_file()


def read_only(folder: Path, monkeypatch) -> None:
    """Make `folder` read-only for this process: its mode (which root ignores) and os.access (which
    root's programs ask)."""
    folder.chmod(0o555)
    real = os.access

    def access(path, mode, **options):
        if mode & os.W_OK and Path(path).absolute() == folder.absolute():
            return False
        return real(path, mode, **options)
    monkeypatch.setattr(os, "access", access)


def test_a_read_only_pdb_dir_serves_the_pdbs_already_there(eight_puzzle_set, tmp_path, monkeypatch,
                                                           capsys):
    """Case 19: --pdb-dir is refused only when a PDB must be built in it, as LA_PDB_DIR is."""
    folder = tmp_path / "pdbs"
    assert build(folder) == 0
    read_only(folder, monkeypatch)
    try:
        capsys.readouterr()
        assert build(folder) == 0 and capsys.readouterr().err == ""         # checked, nothing built
        state = ["1", "0", "2", "3", "4", "5", "6", "7", "8"]
        assert run(solve.main, ["--domain", "8-puzzle", *state, "--heuristic", "pdb", "--pdb-dir",
                                str(folder)]) == 0
        assert "cost 1" in capsys.readouterr().out
        # one to build
        monkeypatch.setitem(sets.PARTITIONS, "8-puzzle", {"A": [*EIGHT["A"], (1, 2)]})
        assert build(folder) == 2
        assert one_line(capsys) == (f"error: cannot write in the PDB folder '{folder}' to build "
                                    f"the 8-puzzle PDB of [1, 2] (72 entries); choose another "
                                    f"with --pdb-dir or LA_PDB_DIR\n")
        assert (sorted(path.suffix for path in folder.iterdir())
                == [".json", ".json", ".npy", ".npy"])
    finally:
        folder.chmod(0o755)


# --- what `la.solve` imports before its arguments are checked -------------------------------------

PROBE = """
import atexit, runpy, sys
listing = sys.argv.pop(1)
atexit.register(lambda: open(listing, "w").write("\\n".join(sys.modules)))
sys.argv[0] = "python -m la.solve"
runpy.run_module("la.solve", run_name="__main__", alter_sys=False)
"""
HEAVY = ("scipy", "matplotlib", "la.nn", "la.heller", "la.runs.persist")


def imported(tmp_path, *argv) -> tuple[int, set]:
    """`python -m la.solve argv...`'s exit status and the modules loaded when it exits."""
    listing = tmp_path / "modules.txt"
    done = subprocess.run([sys.executable, "-c", PROBE, str(listing), *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, set(listing.read_text().split())


def test_help_and_refusals_import_neither_scipy_nor_the_networks(network, tmp_path):
    """Start-up: SciPy and the networks wait until the arguments are checked (CPU seconds: la.bench
    --only startup). The network run shows the probe does see them."""
    for argv, status in [(["--help"], 0), (["--korf", "0"], 2),
                         (["--weight", "0", "--korf", "1"], 2),
                         (["--alpha", "0.9", "--korf", "1"], 2),
                         (["--domain", "8-puzzle", "1", "0", "2"], 2)]:
        code, modules = imported(tmp_path, *argv)
        assert code == status and "numpy" in modules
        assert not [m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)], argv
    code, modules = imported(tmp_path, "--network", str(network), *KORF_1)
    assert code in (0, 1) and "scipy" in modules and "la.nn" in modules
