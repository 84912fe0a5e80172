"""Training the classification heuristic with early stopping on a validation fold (Heller et al.
2022, "Setup").

The labelled data (x, cost) is split into k folds (`split_folds`). The paper trains one network per
fold, each on the other k − 1 folds, "once progress on that validation fold converges, the training
stops": `fit_folds`. By default we train one of them (`fit`, validating on fold 0), which is what
one search needs. Each network gets minibatch Adam over shuffled training rows, optionally with
noise rows mixed in (`la.heller.ood`), and stops when the validation loss has not improved for
`patience` epochs (`early_stopping`), keeping the parameters of its best epoch (Keras' EarlyStopping
with restore_best_weights).

H, the number of output classes less one, is the largest cost in all the labelled data, so every
fold's network has the same outputs and every validation cost is a class.
"""
from dataclasses import dataclass, field

import numpy as np

from la.heller.classifier import Classifier, cross_entropy
from la.heller.config import ClassifierConfig, build_classifier
from la.heller.ood import mixed_loss_and_grads, ood_rows


@dataclass
class History:
    """Per-epoch training record; epochs count from 0."""
    # mean minibatch loss over the epoch (the mixed loss with Y > 0)
    train_loss: list = field(default_factory=list)
    # cross-entropy over the validation fold, after the epoch
    val_loss: list = field(default_factory=list)
    val_accuracy: list = field(default_factory=list)   # share of validation rows with h^NN(s) = c
    # the epoch whose parameters the network keeps
    best_epoch: int = -1
    stopped_early: bool = False                         # False: ran to max_epochs


def split_folds(n: int, k: int, rng: np.random.Generator) -> list:
    """k disjoint index arrays covering 0..n−1 exactly, in random order, sizes differing by at most
    one."""
    if not 2 <= k <= n:
        raise ValueError(f"need 2 <= folds <= rows to split into folds, got {k} folds of {n} rows")
    return np.array_split(rng.permutation(n), k)


def early_stopping(val_loss, patience: int, min_delta: float = 0.0) -> tuple[int, bool]:
    """(best epoch so far, stop now?): an epoch improves on the best before it if its loss is lower
    by more than min_delta; stop once `patience` epochs in a row have not (Keras' EarlyStopping)."""
    if patience < 1:
        raise ValueError(f"patience must be >= 1 epoch, got {patience}")
    best = 0
    for epoch in range(1, len(val_loss)):
        if val_loss[epoch] < val_loss[best] - min_delta:
            best = epoch
    return best, len(val_loss) - 1 - best >= patience


def evaluate(net: Classifier, x, cost) -> tuple[float, float]:
    """(mean cross-entropy, accuracy of h^NN) over labelled data."""
    z = net.logits(x)
    loss, _ = cross_entropy(z, net.check_costs(cost, len(z)))
    return loss, float(np.mean(z.argmax(axis=1) == cost))


class BestEpoch:
    """Early stopping that keeps the best epoch's parameters and puts them back (Keras'
    restore_best_weights).
    With the epochs' `history` it is where a training stands after an epoch: what a checkpoint keeps
    besides the network, its optimiser and the generator (`la.heller.fit_checkpoint`)."""

    def __init__(self, cfg, history: History | None = None, best: int = 0,
                 params: dict | None = None):
        self.cfg, self.history, self.best, self.params = cfg, history or History(), best, params

    def done(self) -> bool:
        """Whether the training is over: stopped early, or at `max_epochs`."""
        return self.history.stopped_early or len(self.history.val_loss) >= self.cfg.max_epochs

    def stop_after(self, net) -> bool:
        """After an epoch whose validation loss `history` holds: keep `net`'s parameters if it is
        the best so far; True once `patience` epochs have passed without improvement."""
        history = self.history
        self.best, stop = early_stopping(history.val_loss, self.cfg.patience, self.cfg.min_delta)
        if self.best == len(history.val_loss) - 1:
            self.params = {name: p.copy() for name, p in net.params.items()}
        history.stopped_early = stop
        return stop

    def restore(self, net) -> History:
        """Put the best epoch's parameters back into `net`, record that epoch and return the
        history."""
        for name, p in self.params.items():
            net.params[name][...] = p
        self.history.best_epoch = self.best
        return self.history


def train(net: Classifier, opt, x_train, c_train, x_val, c_val, cfg: ClassifierConfig,
          rng: np.random.Generator, sampler=None, Y: float = 0.0, on_epoch=None,
          keeper: BestEpoch | None = None) -> History:
    """Minibatch Adam with early stopping on (x_val, c_val); `net` ends with its best epoch's
    parameters.

    With a noise `sampler` (`la.heller.ood.UniformNoise` or `WeightedNoise`, built from the training
    inputs) and Y > 0, every minibatch of b training rows gets `ood_rows(b, Y)` fresh noise rows.
    `on_epoch(keeper)`, if given, is called after each epoch with where the training stands
    (`BestEpoch`: a progress line, a checkpoint; it only reads). `keeper`: continue a training from
    there (net, opt and rng restored with it).
    """
    n_ood = ood_rows(cfg.batch_size, Y)                  # checks Y
    if n_ood and sampler is None:
        raise ValueError(f"an OOD share Y = {Y} needs a noise sampler")
    keeper = BestEpoch(cfg) if keeper is None else keeper
    history = keeper.history
    while not keeper.done():
        order = rng.permutation(len(x_train))
        losses = []
        for start in range(0, len(order), cfg.batch_size):
            rows = order[start:start + cfg.batch_size]
            if n_ood:
                X_ood = sampler(ood_rows(len(rows), Y), rng)
                loss, grads = mixed_loss_and_grads(net, x_train[rows], c_train[rows], X_ood)
            else:
                loss, grads = net.loss_and_grads(x_train[rows], c_train[rows])
            opt.step(net.params, grads)
            losses.append(loss)
        val_loss, val_accuracy = evaluate(net, x_val, c_val)
        history.train_loss.append(float(np.mean(losses)))
        history.val_loss.append(val_loss)
        history.val_accuracy.append(val_accuracy)
        keeper.stop_after(net)
        if on_epoch is not None:
            on_epoch(keeper)
    return keeper.restore(net)


def fit(x, cost, cfg: ClassifierConfig, rng: np.random.Generator,
        sampler=None, Y: float = 0.0, fold: int = 0):
    """One network trained on all folds but `fold` and validated on it: (Classifier, History)."""
    return fit_folds(x, cost, cfg, rng, sampler, Y, only=fold)[0]


def fit_folds(x, cost, cfg: ClassifierConfig, rng: np.random.Generator, sampler=None,
              Y: float = 0.0, only: int | None = None) -> list:
    """One network per validation fold, as the paper's 10-fold cross-validation ("Setup"):
    [(Classifier, History), ...] in fold order; `only` = i trains fold i's network alone.

    The split uses `rng`; each fold then trains with its own child generator (`rng.spawn`), so fold
    i's network is the same whether it is trained alone or with the others.
    """
    x, cost = _check_data(x, cost)
    if cfg.max_epochs < 1 or cfg.batch_size < 1:
        raise ValueError(f"need max_epochs, batch_size >= 1, "
                         f"got {cfg.max_epochs}, {cfg.batch_size}")
    folds = split_folds(len(x), cfg.folds, rng)
    fold_rngs = rng.spawn(cfg.folds)
    if only is not None and not 0 <= only < cfg.folds:
        raise ValueError(f"fold must be in 0..{cfg.folds - 1}, got {only}")
    H = int(cost.max())
    results = []
    for i in range(cfg.folds) if only is None else [only]:
        val = folds[i]
        trn = np.concatenate([folds[j] for j in range(cfg.folds) if j != i])
        net, opt = build_classifier(cfg, x.shape[1], H, fold_rngs[i])
        history = train(net, opt, x[trn], cost[trn], x[val], cost[val], cfg, fold_rngs[i],
                        sampler, Y)
        results.append((net, history))
    return results


def _check_data(x, cost):
    x, cost = np.asarray(x), np.asarray(cost)
    if x.ndim != 2 or cost.shape != (len(x),):
        raise ValueError("need inputs (n, n_in) and costs (n,), "
                         f"got shapes {x.shape} and {cost.shape}")
    if not np.issubdtype(cost.dtype, np.integer) or (cost.size and cost.min() < 0):
        raise ValueError(f"costs must be integers >= 0, got dtype {cost.dtype}")
    return x, cost.astype(np.int64)
