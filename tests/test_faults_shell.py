"""Every command line when the world is against it outside the units (issue 58, G to K): SIGTERM
while figures are drawn, a terminal that cannot show α, a figure type no installed tool writes, a
full stdout, a system out of memory or of file descriptors, and the small inconsistencies. Each
ends in one line that says what was kept and how to go on, never a traceback or a leftover
temporary file. Subprocesses only where the signal, the device or the limit must be real."""
import errno
import io
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import la
from la import solve
from la.experiments import diagnostics, efficiency, label_audit
from la.io import PARTIAL
from la.runs import cli
from la.runs.network import load_network
from la.runs.persist import save
from la.runs.processes import Terminated

ROOT = Path(__file__).resolve().parents[1]
STATE = ["--domain", "8-puzzle", "8 1 2 0 4 3 7 5 6"]           # solved in a few hundred nodes
NETWORK = ROOT / "figures" / "suboptimality-networks" / "run1" / "alpha" / "network.npz"


def partials(folder: Path) -> list:
    return [p for p in folder.rglob(f"{PARTIAL}*")] if folder.exists() else []


def wait_for(condition, process, seconds=120.0):
    """Poll until `condition()`; fail if the process ends first or the time runs out."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- G. signals outside the units -----------------------------------------------------------------

def test_sigterm_while_la_plots_draws_leaves_nothing_and_says_so(tmp_path):
    """SIGTERM once the temporary folder exists: it goes, --out (new) goes, one line, status 143."""
    out = tmp_path / "figs"
    process = subprocess.Popen([sys.executable, "-m", "la.plots", "--out", str(out)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(lambda: bool(partials(out)), process)
    process.send_signal(signal.SIGTERM)
    printed, err = process.communicate(timeout=120)
    assert process.returncode == 143, err
    assert err.strip().splitlines() == [f"terminated: no figure was written in {out}; "
                                        "run the same command again"]
    assert not out.exists() and printed == ""


SCRIPT = """
import os, signal, sys
from pathlib import Path
from la.io import write_binary
from la.runs.cli import run
from la.runs.folder import prepare

def main(argv):
    out = Path(sys.argv[1])
    prepare(out, {"config": {}}, False, ["python", "-m", "la.experiments.toy", "--out", str(out)])
    def write(f):                        # SIGTERM half-way through a figure's file
        f.write(b"half a png")
        os.kill(os.getpid(), signal.SIGTERM)
        f.write(b"the rest")
    write_binary(out / "figure.png", write)
    return 0

sys.exit(run(main))
"""


def test_sigterm_while_an_experiment_draws_its_figures_says_how_to_finish(tmp_path):
    """After the units, in a figure's write: status 143, no .tmp file, and the resume command."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 143
    assert done.stderr.strip().splitlines() == [
        f"terminated: the units done so far are kept in {out}; to continue: python -m "
        f"la.experiments.toy --out {out} --resume"]
    assert partials(out) == [] and not (out / "figure.png").exists()


@pytest.mark.parametrize("command", [["la.solve", *STATE],
                                     ["la.experiments.efficiency", "--quick", "--out", "OUT"],
                                     ["la.plots", "--out", "OUT"]])
def test_sigterm_while_a_command_loads_says_so_and_writes_nothing(tmp_path, command):
    """SIGTERM during the imports (a NumPy that sends it as it loads): one line, status 143."""
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text(
        "import os, signal, time\nos.kill(os.getpid(), signal.SIGTERM)\ntime.sleep(60)\n",
        encoding="utf-8")
    out = tmp_path / "out"
    argv = [str(out) if a == "OUT" else a for a in command]
    done = subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 143 and done.stdout == ""
    assert done.stderr.splitlines() == [f"terminated: python -m {command[0]} was stopped while "
                                        "starting, before it wrote anything; run the same "
                                        "command again"]
    assert not out.exists()


@pytest.mark.parametrize("signal_, what", [(KeyboardInterrupt, "interrupted"),
                                           (Terminated, "terminated")])
def test_a_command_stopped_before_it_says_what_it_keeps_still_says_how_to_go_on(capsys, signal_,
                                                                              what):
    """Ctrl-C or SIGTERM after the imports, before a run has its folder (its options checked, a
    figure type tried): one line naming the command, not a bare "terminated"."""
    def command(argv):
        raise signal_()
    assert cli.run(command, []) == (130 if what == "interrupted" else 143)
    assert capsys.readouterr().err.splitlines() == [
        f"{what}: {la._COMMAND} stopped before it finished, leaving no half-written file; run the "
        "same command again"]


def test_sigterm_once_a_command_has_loaded_is_its_own_again():
    """`run` takes SIGTERM over from the loading's handler and leaves the default behind it."""
    script = ("import signal, la; from la.runs.stops import run; "
              "signal.signal(signal.SIGTERM, la.stopped_while_starting); "
              "assert run(lambda argv: 0) == 0; print(signal.getsignal(signal.SIGTERM) == 0)")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.strip() == "True", done.stderr              # SIG_DFL


# --- H-J. the terminal, the tools, the system's limits --------------------------------------------

@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_alpha_gets_it_spelled(monkeypatch, encoding):
    """--help and an experiment's first α on an ASCII or Latin-1 stdout: 'alpha', not an error."""
    stdout = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    monkeypatch.setattr(sys, "stdout", stdout)
    with pytest.raises(SystemExit) as help_shown:
        cli.run(solve.main, ["--help"])
    assert help_shown.value.code == 0
    assert cli.run(lambda argv: print("calibration: α 0.95, σ_a ≤ 1.5") or 0) == 0
    stdout.flush()
    text = stdout.buffer.getvalue().decode(encoding)
    assert "y^alpha" in text and "calibration: alpha 0.95, sigma_a <= 1.5" in text


def test_a_figure_type_no_installed_tool_writes_is_refused_before_work(tmp_path, monkeypatch,
                                                                      capsys):
    """.pgf without a TeX system (none on PATH): refused by the option, nothing created."""
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    with pytest.raises(SystemExit) as refused:
        efficiency.main(["--quick", "--figure", str(tmp_path / "t.pgf"),
                         "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "cannot write .pgf figures here" in err
    assert len(err.strip().splitlines()) == 1 and sorted(tmp_path.iterdir()) == []


def test_a_full_stdout_is_one_line_and_a_nonzero_status(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "la.solve", *STATE], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == ("error: cannot write the output "
                                                    "(No space left on device)")
    assert "Traceback" not in done.stderr


def test_too_few_file_descriptors_is_one_line_naming_the_folder_and_resume(tmp_path):
    """`ulimit -n 12`: the workers' pipes cannot be made once the folder holds its experiment.json;
    the line says where the run is kept and the command that goes on from it."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))
    out = tmp_path / "out"
    argv = ["-m", "la.experiments.efficiency", "--quick", "--jobs", "2", "--out", str(out)]
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, preexec_fn=limit)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "error: Too many open files (the limit on open files, ulimit -n, is too low for this "
        f"command); the units done so far are kept in {out}; to continue: python {' '.join(argv)} "
        "--resume")


def test_a_limit_of_the_system_met_opening_a_named_file_is_the_limit_s_line(tmp_path, capsys):
    """EMFILE or ENOMEM naming the file it stopped: the system's limit, status 1, not bad input."""
    def command(argv):
        raise OSError(errno.EMFILE, "Too many open files", str(tmp_path / "x.json"))
    assert cli.run(command, []) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        "error: Too many open files (the limit on open files, ulimit -n, is too low for this "
        "command)"]


@pytest.mark.parametrize("error, line, status", [
    (MemoryError("Unable to allocate 161. KiB for an array"),        # la.solve says it itself
     "not solved within the limits: out of memory (unable to allocate 161. KiB); a lower "
     "--node-limit bounds it (see --help: memory)", 1),
    (OSError(errno.EMFILE, "Too many open files"),
     "error: Too many open files (the limit on open files, ulimit -n, is too low for this "
     "command)", 1),
    (OSError(errno.ENOSPC, "No space left on device"),
     "error: cannot write the output (No space left on device)", 2)])
def test_the_system_s_limits_are_one_line(monkeypatch, capsys, error, line, status):
    """`ulimit -v 150000` (NumPy's MemoryError deep in a search), `ulimit -n`, a full stdout."""
    def search(*args, **kwargs):
        raise error
    monkeypatch.setattr(solve, "ida_star", search)
    assert cli.run(solve.main, STATE) == status
    assert capsys.readouterr().err.strip().splitlines() == [line]


def test_a_memory_error_outside_a_search_is_one_line(capsys):
    """Any command: NumPy's MemoryError that nothing else catches ends in `la.runs.cli.run`."""
    def command(argv):
        raise MemoryError("Unable to allocate 161. KiB for an array")
    assert cli.run(command, []) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        "error: out of memory (Unable to allocate 161. KiB for an array): allow more memory "
        "(ulimit -v), or ask for less"]


# --- K. small inconsistencies ---------------------------------------------------------------------

def test_no_heuristic_is_suggested_that_is_then_refused(capsys):
    assert cli.run(solve.main, [*STATE, "--heuristic", "pdb"]) == 2
    err = capsys.readouterr().err
    assert "needs additive PDB partitions" in err and "max-pdb" not in err
    assert cli.run(solve.main, [*STATE, "--heuristic", "max-pdb"]) == 2


@pytest.mark.parametrize("option, count", [("--korf", 100), ("--korf24", 50)])
def test_korf_instances_are_refused_with_their_own_range(capsys, option, count):
    for text in (str(count + 1), "1e30"):
        with pytest.raises(SystemExit) as refused:
            solve.parse_args([option, text])
        err = capsys.readouterr().err
        assert refused.value.code == 2 and f"numbered 1..{count}" in err and "1,000" not in err


@pytest.mark.parametrize("encoding, message", [
    ({"encoding": "Bogus"}, "unknown encoding"),
    ({"encoding": "TileFeatures", "partitions": "x"}, "needs 'partitions'"),
    ({"encoding": "TileFeatures", "partitions": [[[99, 1]]]}, "a set of distinct tiles")])
def test_a_network_s_damaged_encoding_is_refused_naming_the_file(tmp_path, capsys, encoding,
                                                                  message):
    net, about = load_network(NETWORK)
    path = tmp_path / "network.npz"
    save(net, path, about={**about, "encoding": encoding})
    for search in ("ida", "focal"):
        assert cli.run(solve.main, ["--network", str(path), "--korf", "1", "--node-limit", "10",
                                    "--search", search]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: ") and message in err


def test_label_audit_finds_the_efficiency_experiment_s_training_units(tmp_path):
    """Its --help: a results folder of the suboptimality or efficiency experiment."""
    for unit in ("run1/GTP", "run1/4", "run2/alpha", "run1/test-mean"):
        (tmp_path / unit).mkdir(parents=True)
        (tmp_path / unit / "checkpoint.npz").touch()
    assert label_audit.training_units(tmp_path) == [tmp_path / u for u in
                                                    ("run1/4", "run1/GTP", "run2/alpha")]


def test_diagnostics_refuses_an_out_inside_the_run_it_only_reads(tmp_path):
    for name in ("network.npz", "checkpoint.npz"):
        (tmp_path / "run1" / "alpha").mkdir(parents=True, exist_ok=True)
        (tmp_path / "run1" / "alpha" / name).touch()
    before = sorted(tmp_path.rglob("*"))
    for out in (tmp_path, tmp_path / "run1" / "diagnostics"):
        with pytest.raises(ValueError, match="inside --run"):
            diagnostics.main(["--run", str(tmp_path), "--out", str(out)])
    assert sorted(tmp_path.rglob("*")) == before


def test_pytest_run_from_tests_imports_la_whatever_its_configuration():
    """From tests/, with pyproject's `pythonpath` not applied (as by a pytest before 7)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p",
                           "no:cacheprovider", "-o", "pythonpath=", "test_lines.py"],
                          cwd=ROOT / "tests", env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
