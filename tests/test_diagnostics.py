"""The σ_e and calibration diagnostics: known answers on synthetic data, and one run on a toy training run."""
import json

import numpy as np
import pytest

from la.config import LearnConfig
from la.domains.sliding_tile import SlidingTile
from la.experiments import diagnostics
from la.experiments.runs.persist import save
from la.experiments.runs.training import train
from la.features import OneHot
from la.plots import diagnostics as plots_diagnostics


def test_decompose_finds_a_known_bias_and_a_too_small_sigma():
    """Errors N(2, 3²) with σ_a = 1: calibration is off; removing the bias and rescaling σ by 3 restores it."""
    rng = np.random.default_rng(0)
    h_star = rng.integers(20, 60, size=200_000).astype(float)
    mu = h_star + 2.0 + 3.0 * rng.standard_normal(len(h_star))
    result = diagnostics.decompose(mu, np.ones_like(mu), h_star, alphas=(0.5, 0.9))
    assert result["bias"] == pytest.approx(2.0, abs=0.05) and result["sigma_scale"] == pytest.approx(3.0, abs=0.05)
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
    assert result["covered"] == 0.5 and result["mean_abs_error"] == pytest.approx((1 + 2 + 3 + 27) / 4)


def test_diagnostics_on_a_toy_run(tmp_path):
    folder = tmp_path / "run1" / "alpha"
    cfg = LearnConfig(num_iter=4, node_limit=100_000, train_iter=50, wunn_blocks=2, max_steps=50)
    learner = train(SlidingTile(4), cfg, np.random.default_rng(0), OneHot(SlidingTile(4)),
                    checkpoint=folder / "checkpoint.npz", progress=None, snapshots=folder / "snapshots",
                    snapshot_every=1)
    save(learner.ffnn, folder / "network.npz")
    assert diagnostics.main(["--run", str(tmp_path), "--sample", "5", "--node-limit", "200000"]) == 0
    record = json.loads((tmp_path / "diagnostics.json").read_text())["runs"]["run1"]
    assert sorted(record["sigma_e_by_distance"]) == ["01", "02", "03", "04"]
    assert len(record["sigma_e_by_distance"]["04"]) == len(diagnostics.DISTANCES)
    assert 0 <= record["wunn_coverage_korf"]["covered"] <= 1
    buffer = record["buffer"]
    assert buffer["solved"] == buffer["sampled"] == 5
    assert buffer["label_minus_h_star"]["mean"] >= 0                 # a plan's cost is never below h*
    cached = json.loads((folder / "diagnostics-h-star.json").read_text())
    assert len(cached) == 5 and all(h >= 1 for h in cached.values())


def test_diagnostics_needs_trained_networks(tmp_path):
    with pytest.raises(ValueError, match="no trained two-output network"):
        diagnostics.main(["--run", str(tmp_path)])


def test_diagnostics_figures_are_drawn_and_bad_records_refused(tmp_path):
    """The two figures from a record with one run, and one-line refusals of records that lack what they read."""
    rows = [{"distance": d, "mean": 0.5 * i, "q25": 0.4 * i, "median": 0.5 * i, "q75": 0.6 * i,
             "below_epsilon": 1.0 if i < 2 else 0.0} for i, d in enumerate((1, 10, 100), start=1)]
    decomposed = {"states": 10, "bias": 1.0, "error_sd": 2.0, "mean_sigma_a": 1.0, "sigma_scale": 2.0,
                  "rows": [{"alpha": a, "observed": a / 2, "without_bias": a - 0.1, "without_bias_sigma_rescaled": a}
                           for a in (0.5, 0.9)]}
    run = {"sigma_e_by_distance": {"05": rows, "10": rows}, "wunn_coverage_korf": {"covered": 0.2},
           "calibration_korf": decomposed,
           "buffer": {"sampled": 5, "solved": 5, "label_minus_h_star": {"mean": 3.0, "optimal_labels": 0.2},
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
