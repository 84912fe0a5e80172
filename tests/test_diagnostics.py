"""The σ_e and calibration diagnostics: known answers on synthetic data; on a toy training run, a
run folder only read, an h* cache that remembers its node limit, and damaged inputs refused before
any work."""
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from la.config import LearnConfig
from la.domains.sliding_tile import SlidingTile
from la.experiments import diagnostics
from la.features import OneHot
from la.plots import diagnostics as plots_diagnostics
from la.runs import cli
from la.runs.persist import save
from la.runs.training import train


def test_decompose_finds_a_known_bias_and_a_too_small_sigma():
    """Errors N(2, 3²) with σ_a = 1: calibration is off; removing the bias and rescaling σ by 3
    restores it."""
    rng = np.random.default_rng(0)
    h_star = rng.integers(20, 60, size=200_000).astype(float)
    mu = h_star + 2.0 + 3.0 * rng.standard_normal(len(h_star))
    result = diagnostics.decompose(mu, np.ones_like(mu), h_star, alphas=(0.5, 0.9))
    assert (result["bias"] == pytest.approx(2.0, abs=0.05)
            and result["sigma_scale"] == pytest.approx(3.0, abs=0.05))
    at_09 = result["rows"][1]
    assert at_09["observed"] < at_09["without_bias"] < 0.9 - 0.1
    assert at_09["without_bias_sigma_rescaled"] == pytest.approx(0.9, abs=0.01)
    assert result["rows"][0]["without_bias"] == pytest.approx(0.5, abs=0.01)


class _FixedWUNN:
    """A stand-in WUNN whose closed-form prediction is ŷ = 30 and σ_e = 2 on every state."""

    def predict_exact(self, X):
        return np.full(len(X), 30.0), np.full(len(X), 2.0)


def test_coverage_compares_the_wunn_and_h_star_in_cost_units():
    """The WUNN learns unscaled costs: ŷ = 30 ± 2 covers h* = 29 and 32, not 27 or 3 (= 30/10)."""
    domain = SlidingTile(4)
    states = np.repeat(domain.goal[None, :], 4, axis=0)
    result = diagnostics.coverage(_FixedWUNN(), domain, states, [29, 32, 27, 3])
    assert (result["covered"] == 0.5
            and result["mean_abs_error"] == pytest.approx((1 + 2 + 3 + 27) / 4))


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """A results folder with one briefly trained run: run1/alpha's network, WUNN snapshots and
    checkpoint."""
    results = tmp_path_factory.mktemp("toy")
    folder = results / "run1" / "alpha"
    cfg = LearnConfig(num_iter=4, node_limit=100_000, train_iter=50, wunn_blocks=2, max_steps=50)
    learner = train(SlidingTile(4), cfg, np.random.default_rng(0), OneHot(SlidingTile(4)),
                    checkpoint=folder / "checkpoint.npz", progress=None,
                    snapshots=folder / "snapshots", snapshot_every=1)
    save(learner.ffnn, folder / "network.npz")
    return results


def copy(toy_run, tmp_path) -> Path:
    shutil.copytree(toy_run, tmp_path / "run")
    return tmp_path / "run"


def tree(folder: Path) -> dict:
    """Every file under `folder` and its bytes: what 'left untouched' compares."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def diagnose(run, out, node_limit, capsys) -> tuple:
    """The command on `run` (5 buffer states): its exit status, stdout and stderr."""
    try:
        status = cli.run(diagnostics.main, ["--run", str(run), "--out", str(out), "--sample", "5",
                                            "--node-limit", str(node_limit)])
    except SystemExit as refused:                     # an option's refusal, by argparse
        status = refused.code
    printed = capsys.readouterr()
    return status, printed.out, printed.err


def searches(out: str) -> int:
    """How many buffer states the command searched: one progress line each."""
    return sum(line.startswith("  state ") for line in out.splitlines())


def test_diagnostics_read_a_read_only_run_and_write_only_under_out(toy_run, tmp_path, capsys):
    """The run folder is only read (made read-only here; as root, the comparison of its files still
    checks)."""
    run = copy(toy_run, tmp_path)
    before = tree(run)
    for path in [run, *run.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        status, printed, err = diagnose(run, tmp_path / "out", 200_000, capsys)
    finally:
        for path in [run, *run.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    assert status == 0 and err == "" and searches(printed) == 5
    assert tree(run) == before
    record = json.loads((tmp_path / "out" / "diagnostics.json").read_text())["runs"]["run1"]
    assert sorted(record["sigma_e_by_distance"]) == ["01", "02", "03", "04"]
    assert len(record["sigma_e_by_distance"]["04"]) == len(diagnostics.DISTANCES)
    assert 0 <= record["wunn_coverage_korf"]["covered"] <= 1
    buffer = record["buffer"]
    assert buffer["solved"] == buffer["sampled"] == 5
    assert buffer["label_minus_h_star"]["mean"] >= 0               # a plan's cost is never below h*
    cached = json.loads((tmp_path / "out" / diagnostics.H_STAR).read_text())
    assert (len(cached["solved"]) == 5 and all(h >= 1 for h in cached["solved"].values())
            and not cached["unsolved"])
    assert all((tmp_path / "out" / name).stat().st_size > 0 for name in diagnostics.FIGURES)


@pytest.mark.filterwarnings("error")
def test_nothing_solved_prints_a_dash_and_a_larger_node_limit_tries_again(toy_run, capsys,
                                                                          tmp_path):
    """Within 1 node nothing is solved: "—", no nan and no warning; the cache keeps the limit with
    each unsolved state, so the same limit does not search again and a larger one does."""
    out = tmp_path / "out"
    status, printed, _ = diagnose(toy_run, out, 1, capsys)
    assert status == 0 and searches(printed) == 5
    assert ("0/5 solved, label − h* — (none solved; node limit 1)" in printed
            and "nan" not in printed)
    # still a record the plots read
    record = plots_diagnostics.read_diagnostics(out / "diagnostics.json")
    buffer = record["runs"]["run1"]["buffer"]
    assert (buffer["solved"] == 0 and buffer["label_minus_h_star"]["mean"] is None
            and buffer["calibration"] is None)
    assert "nan" not in (out / "diagnostics.json").read_text().lower()
    cached = json.loads((out / diagnostics.H_STAR).read_text())
    assert cached["solved"] == {} and list(cached["unsolved"].values()) == [1] * 5
    status, printed, _ = diagnose(toy_run, out, 1, capsys)
    assert status == 0 and searches(printed) == 0                    # unsolved within 1 node: known
    status, printed, _ = diagnose(toy_run, out, 200_000, capsys)
    cached = json.loads((out / diagnostics.H_STAR).read_text())
    assert (status == 0 and searches(printed) == 5 and len(cached["solved"]) == 5
            and cached["unsolved"] == {})


def test_summary_of_a_run_with_nothing_solved_shows_a_dash():
    korf = diagnostics.decompose(np.array([3.0, 5.0]), np.ones(2), np.array([2.0, 4.0]))
    run = {"calibration_korf": korf, "wunn_coverage_korf": None,
           "buffer": {"sampled": 5, "solved": 0, "node_limit": 1000,
                      "label_minus_h_star": {"mean": None}}}
    line = diagnostics.summary("run1", run)
    assert "0/5 solved, label − h* — (none solved; node limit 1,000)" in line and "nan" not in line


def test_an_earlier_versions_cache_in_the_run_folder_is_read_and_its_unsolved_tried_again(
        toy_run, tmp_path, capsys):
    """The run folder's diagnostics-h-star.json ({state: h*}, -1 unsolved within a limit it does not
    record): its h* are used, its -1 is searched again."""
    diagnose(toy_run, tmp_path / "first", 200_000, capsys)
    solved = json.loads((tmp_path / "first" / diagnostics.H_STAR).read_text())["solved"]
    run = copy(toy_run, tmp_path)
    old = dict(solved, **{next(iter(solved)): -1})
    (run / "run1" / "alpha" / diagnostics.OLD_H_STAR).write_text(json.dumps(old))
    status, printed, _ = diagnose(run, tmp_path / "out", 200_000, capsys)
    assert status == 0 and searches(printed) == 1
    assert json.loads((tmp_path / "out" / diagnostics.H_STAR).read_text())["solved"] == solved


@pytest.mark.parametrize("damaged", ["checkpoint.npz", "network.npz", "snapshots/iter03-wunn.npz"])
def test_a_truncated_file_is_refused_before_any_work(toy_run, tmp_path, capsys, damaged):
    run = copy(toy_run, tmp_path)
    path = run / "run1" / "alpha" / damaged
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])
    status, printed, err = diagnose(run, tmp_path / "out", 200_000, capsys)
    assert status == 2 and len(err.splitlines()) == 1 and str(path) in err
    assert printed == "" and not (tmp_path / "out").exists()


GOAL = " ".join(map(str, range(16)))
ONE_MOVE = "1 0 " + " ".join(map(str, range(2, 16)))


@pytest.mark.parametrize("old, text, message", [
    (False, '{"solved": {',
     "not JSON (Expecting property name enclosed in double quotes: line 1, column 13)"),
    (False, "[]", "the record should be an object, got a list"),
    (False, '{"solved": {}}', "the record has no 'unsolved'"),
    (False, '{"solved": {"1 2 3": 4}, "unsolved": {}}',
     "solved entry '1 2 3' is not a 15-puzzle state"),
    (False, f'{{"solved": {{}}, "unsolved": {{"{ONE_MOVE}": 0}}}}',
     "should be an integer of at least 1, got 0"),
    (True, '{"1 2', "not JSON (Unterminated string starting at: line 1, column 2)"),
    (True, f'{{"{ONE_MOVE}": "1"}}',
     f"entry '{ONE_MOVE}' should be an integer of at least -1, got '1'"),
])
def test_a_damaged_h_star_cache_is_named_with_what_is_wrong(toy_run, tmp_path, capsys, old, text,
                                                            message):
    """The cache under --out, or an earlier version's in the run folder (`old`): one line, nothing
    written."""
    run, out = (copy(toy_run, tmp_path), tmp_path / "out") if old else (toy_run, tmp_path / "out")
    path = run / "run1" / "alpha" / diagnostics.OLD_H_STAR if old else out / diagnostics.H_STAR
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    status, printed, err = diagnose(run, out, 200_000, capsys)
    assert status == 2 and len(err.splitlines()) == 1, err
    assert f"{path}: " in err and message in err and "delete it" in err
    assert printed == "" and path.read_text() == text and not (out / "diagnostics.json").exists()


def test_outputs_that_cannot_be_written_are_refused_first(toy_run, tmp_path, capsys):
    (tmp_path / "file").write_text("")
    status, _, err = diagnose(toy_run, tmp_path / "file", 1, capsys)
    assert status == 2 and "is a file, not a folder" in err
    (tmp_path / "out" / "diagnostics.json").mkdir(parents=True)
    status, printed, err = diagnose(toy_run, tmp_path / "out", 1, capsys)
    assert status == 2 and "diagnostics.json is a folder" in err and printed == ""
    assert list((tmp_path / "out").iterdir()) == [tmp_path / "out" / "diagnostics.json"]


def test_diagnostics_needs_trained_networks(tmp_path):
    with pytest.raises(ValueError, match="no trained two-output network"):
        diagnostics.main(["--run", str(tmp_path), "--out", str(tmp_path / "out")])


def test_diagnostics_figures_are_drawn_and_bad_records_refused(tmp_path):
    """The two figures from a record with one run, and one-line refusals of records that lack what
    they read."""
    rows = [{"distance": d, "mean": 0.5 * i, "q25": 0.4 * i, "median": 0.5 * i, "q75": 0.6 * i,
             "below_epsilon": 1.0 if i < 2 else 0.0} for i, d in enumerate((1, 10, 100), start=1)]
    decomposed = {"states": 10, "bias": 1.0, "error_sd": 2.0, "mean_sigma_a": 1.0,
                  "sigma_scale": 2.0,
                  "rows": [{"alpha": a, "observed": a / 2, "without_bias": a - 0.1,
                            "without_bias_sigma_rescaled": a}
                           for a in (0.5, 0.9)]}
    run = {"sigma_e_by_distance": {"05": rows, "10": rows}, "wunn_coverage_korf": {"covered": 0.2},
           "calibration_korf": decomposed,
           "buffer": {"sampled": 5, "solved": 5,
                      "label_minus_h_star": {"mean": 3.0, "optimal_labels": 0.2},
                      "calibration": decomposed}}
    path = tmp_path / "diagnostics.json"
    path.write_text(json.dumps({"experiment": "diagnostics", "runs": {"run1": run}}))
    record = plots_diagnostics.read_diagnostics(path)
    plots_diagnostics.all_from_diagnostics(record, tmp_path)
    assert (tmp_path / "sigma_e_by_distance.png").stat().st_size > 0
    assert (tmp_path / "calibration_decomposition.png").stat().st_size > 0
    del run["calibration_korf"]["rows"]
    path.write_text(json.dumps({"experiment": "diagnostics", "runs": {"run1": run}}))
    with pytest.raises(ValueError, match="runs.run1.calibration_korf has no 'rows'"):
        plots_diagnostics.read_diagnostics(path)
    path.write_text(json.dumps({"experiment": "diagnostics", "runs": {}}))
    with pytest.raises(ValueError, match="runs is empty"):
        plots_diagnostics.read_diagnostics(path)
