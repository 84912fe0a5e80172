"""The networks of the confidence experiment (`la.experiments.confidence`), built and fitted to a
run's teacher data: Heller et al.'s classifiers (Standard, U50, U90, W50, W90;
`la.heller.classifier_fit`) and the two-output FFNN and the WUNN (`la.heller.uncertainty_fit`). A
fit prints a line every `EPOCH_LINES` epochs and is saved every few, so that an interrupted unit
continues where it stopped with the same result (`la.heller.fit_checkpoint`).
"""
import time
from pathlib import Path

from la.experiments.confidence_config import SIGMA_NETWORKS, noise_of
from la.heller import fit_checkpoint
from la.heller.classifier_fit import train
from la.heller.config import build_classifier
from la.heller.uncertainty_fit import fit_ffnn, fit_wunn
from la.nn.config import build_ffnn, build_wunn
from la.runs.folder import read_experiment, read_result

EPOCH_LINES = 50                               # epochs per progress line of a network


def fit_resumable(which: str, cfg, X, costs, trn, val, H: int, rng, folder: Path,
                  progress) -> tuple:
    """(network, History, seconds): `which` (a classifier: outputs 0..H) built and fitted to the
    teacher's costs on the rows `trn`, validated on `val`, saved every few epochs to `folder` and
    continued from there after an interruption (`la.heller.fit_checkpoint`)."""
    fit_cfg = cfg.supervised if which in SIGMA_NETWORKS.values() else cfg.classifier
    net, opt = build_network(which, cfg, X.shape[1], H, rng)
    saved = folder / fit_checkpoint.FILE
    identity = {"network": which, "config": fit_cfg, "n_in": X.shape[1],
                "rows": [len(trn), len(val)]}
    keeper, before = fit_checkpoint.restore(saved, net, opt, rng, fit_cfg, identity)
    began, done = (time.perf_counter() - before,
                   0 if keeper is None else len(keeper.history.val_loss))
    if done:
        progress(f"{which}: continues after epoch {done} ({before / 60:.1f} min so far)")
    show = epoch_progress(which, fit_cfg.max_epochs, began, progress, first=done,
                          first_seconds=before)
    save = fit_checkpoint.saver(saved, net, opt, rng, identity, lambda: time.perf_counter() - began)

    def on_epoch(at):
        show(at)
        save(at)
    history = fit_network(which, net, opt, cfg, X, costs, trn, val, rng, on_epoch, keeper)
    return net, history, time.perf_counter() - began


def epoch_progress(which: str, max_epochs: int, began: float, progress, every: int = EPOCH_LINES,
                   clock=time.perf_counter, first: int = 0, first_seconds: float = 0.0):
    """A network's progress line every `every` epochs: its validation loss, its best epoch so far,
    the time since `began` on `clock`, and the most it can take yet (early stopping ends it sooner,
    which no one can say ahead), at the pace of the epochs since `first` (a fit continued from a
    checkpoint: the epochs it had done, in `first_seconds`)."""
    def on_epoch(keeper) -> None:
        epochs = len(keeper.history.val_loss)
        if epochs % every == 0:
            seconds = clock() - began
            pace = (seconds - first_seconds) / max(epochs - first, 1)
            progress(f"{which}: epoch {epochs}, validation loss {keeper.history.val_loss[-1]:.4g} "
                     f"(best: epoch {keeper.best + 1}), {seconds / 60:.1f} min; at most "
                     f"{(max_epochs - epochs) * pace / 60:.0f} min more")
    return on_epoch


def build_network(which: str, cfg, n_in: int, H: int, rng) -> tuple:
    """(network, Adam) of `which`: a classifier with outputs 0..H, the two-output FFNN or the
    WUNN."""
    if which == "FFNN":
        # own rng: dropout
        return build_ffnn(cfg.ffnn, n_in, rng.spawn(1)[0], cfg.supervised.target_scale)
    if which == "WUNN":
        return build_wunn(cfg.wunn, n_in, rng)
    return build_classifier(cfg.classifier, n_in, H, rng)


def fit_network(which: str, net, opt, cfg, X, costs, trn, val, rng, on_epoch=None, keeper=None):
    """Fit `which` to the teacher's costs on the rows `trn`, validated on `val`: a classifier with
    its noise (`la.heller.classifier_fit`), the FFNN or the WUNN (`la.heller.uncertainty_fit`); its
    History."""
    if which == "FFNN":
        return fit_ffnn(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.supervised, rng,
                        on_epoch, keeper)
    if which == "WUNN":
        return fit_wunn(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.supervised, rng,
                        cfg.wunn.S, on_epoch, keeper)
    sampler, Y = noise_of(which)
    return train(net, opt, X[trn], costs[trn], X[val], costs[val], cfg.classifier, rng,
                 None if sampler is None else sampler(X[trn]), Y, on_epoch, keeper)


# What a search-only run may change of the run whose networks it reuses: the test blocks and their
# budgets, and the number of runs (it searches with some or all of them).
SEARCH_SETTINGS = ("node_limit", "hard_node_limit", "blocks", "runs")


def saved_units(folder: Path, config: dict, seed: int, runs: list, networks: tuple) -> tuple:
    """(teachers, trained): the teacher and network units of `runs` in an earlier results folder
    (`--networks`), for a run that only searches with their networks; ValueError in one line
    unless the folder was made with the same seed and training settings and holds each network
    and its training confidences."""
    where = f"--networks {folder}"
    settings = read_experiment(folder)["settings"]
    if settings.get("seed") != seed:
        raise ValueError(f"{where}: its networks were trained with --seed {settings.get('seed')}, "
                         f"not {seed}")
    theirs, ours = settings["config"], config
    differ = sorted(k for k in {*theirs, *ours} - set(SEARCH_SETTINGS)
                    if theirs.get(k) != ours.get(k))
    if differ:
        raise ValueError(f"{where}: trained with other settings ({', '.join(differ)}): only the "
                         f"test blocks, their budgets and --runs may differ")
    teachers, trained = [], []
    for r in runs:
        for name, kind in [("teacher", "teacher"), *((w, "network") for w in networks)]:
            unit = folder / f"run{r}" / name
            files = ["unit.json"] + ([] if kind == "teacher" else ["network.npz",
                                                                  "confidences.npz"])
            missing = [f for f in files if not (unit / f).is_file()]
            if missing:
                raise ValueError(f"{where}: run {r}'s {name} is not finished there (no "
                                 f"{', '.join(missing)})")
            try:
                result = read_result(unit / "unit.json")
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
            if result.get("run") != r or (kind == "network" and result.get("network") != name):
                raise ValueError(f"{where}: {unit / 'unit.json'} is not the record of run {r}'s "
                                 f"{name}")
            (teachers if kind == "teacher" else trained).append(result)
    return teachers, trained
