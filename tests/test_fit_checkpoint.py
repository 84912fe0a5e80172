"""A network's fit in the confidence experiment, stopped and continued from its checkpoint, ends bit
for bit as one that never stopped (`la.heller.fit_checkpoint`,
`la.experiments.confidence_networks`)."""
import json
from dataclasses import replace

import numpy as np
import pytest

from la.experiments import confidence_networks
from la.experiments.confidence_config import QUICK
from la.heller import fit_checkpoint
from la.io import write_npz
from la.runs.checkpoint import META, read_state

CFG = QUICK["24-pancake"]
CFG = replace(CFG, classifier=replace(CFG.classifier, hidden=(8, 8, 8), batch_size=20,
                                      max_epochs=25, patience=30),
              supervised=replace(CFG.supervised, batch_size=20, max_epochs=25, patience=30),
              # dropout: its masks too must continue where they stopped
              ffnn=replace(CFG.ffnn, n_hidden=8, dropout=0.1), wunn=replace(CFG.wunn, n_hidden=8))
STOP_AT = 15                         # the last save before it is at epoch 10 (fit_checkpoint.EVERY)


def data():
    rng = np.random.default_rng(3)
    X = (rng.random((200, 12)) < 0.5).astype(np.float32)
    return X, rng.integers(0, 10, 200), np.arange(150), np.arange(150, 200)


def fit(which, folder, lines=None):
    X, costs, trn, val = data()
    lines = [] if lines is None else lines
    return confidence_networks.fit_resumable(which, CFG, X, costs, trn, val, 9,
                                             np.random.default_rng(5), folder, lines.append)


def fit_stopped(which, folder, monkeypatch):
    """Fit `which` into `folder` and stop it after epoch STOP_AT, as Ctrl-C would (its last save:
    epoch 10)."""
    def stopping(*args, **kwargs):
        def on_epoch(at):
            if len(at.history.val_loss) == STOP_AT:
                raise KeyboardInterrupt
        return on_epoch
    with monkeypatch.context() as patch, pytest.raises(KeyboardInterrupt):
        patch.setattr(confidence_networks, "epoch_progress", stopping)
        fit(which, folder)


# noise rows, dropout masks, weight noise
@pytest.mark.parametrize("which", ["U50", "W90", "FFNN", "WUNN"])
def test_a_fit_stopped_and_continued_ends_as_one_that_never_stopped(which, tmp_path, monkeypatch):
    whole, whole_history, _ = fit(which, tmp_path / "whole")
    assert len(whole_history.val_loss) == 25                     # no early stop: every save is used
    fit_stopped(which, tmp_path / "parts", monkeypatch)
    saved = tmp_path / "parts" / fit_checkpoint.FILE
    assert len(fit_checkpoint.read(saved, CFG.classifier)[2].history.val_loss) == 10
    lines = []
    parts, history, _ = fit(which, tmp_path / "parts", lines)
    assert lines[0].startswith(f"{which}: continues after epoch 10 (")
    assert history == whole_history
    assert all(np.array_equal(parts.params[k], whole.params[k]) for k in whole.params)


def test_a_checkpoint_of_another_fit_or_a_damaged_one_is_refused_by_name(tmp_path, monkeypatch):
    fit_stopped("U50", tmp_path, monkeypatch)
    saved = tmp_path / fit_checkpoint.FILE
    with pytest.raises(ValueError, match="belongs to another fit"):
        fit("W50", tmp_path)
    saved.write_bytes(saved.read_bytes()[:300])
    with pytest.raises(ValueError, match=f"{saved}: not a readable fit checkpoint"):
        fit_checkpoint.read(saved, None)


@pytest.mark.parametrize("rng", [{"bit_generator": 5}, {"bit_generator": "default_rng"}, "PCG64",
                                 {"bit_generator": "PCG64", "state": "garbage"}])
def test_a_checkpoint_with_a_damaged_generator_state_is_refused_by_name(rng, tmp_path, monkeypatch):
    fit_stopped("W50", tmp_path, monkeypatch)
    saved = tmp_path / fit_checkpoint.FILE
    arrays, meta = read_state(saved)
    arrays[META] = np.array([json.dumps({**meta, "rng": rng})])
    write_npz(saved, arrays)
    with pytest.raises(ValueError, match=f"^{saved}: not a whole fit checkpoint"):
        fit("W50", tmp_path)
