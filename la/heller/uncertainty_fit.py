"""Supervised training of the two-output FFNN (σ_a) and the WUNN (σ_e) on a fixed labelled data set,
with early stopping on a validation fold: la's way to give the confidence experiment
(`la.experiments.confidence`) the uncertainty networks of Marom & Rosman (2020) trained on the same
teacher data as Heller et al.'s classifier.

The networks, their losses and their optimisers are the paper's (`la.nn.config`): the FFNN minimises
Eq. (1) on the targets y/10 (the authors' `Program.Main`; `target_scale`), the WUNN Eq. (2) on y
itself with S Monte-Carlo samples per step, as LearnHeuristicPrac trains them. What differs from its
Update (`la.learn`, the authors' `NNBayesHeuristic.Update`):

- the data: a fixed set of teacher plans (`la.heller.teacher`) split into training rows and a
  validation fold, not a memory buffer of IDA* plans that grows with the iterations;
- the FFNN: Adam on shuffled minibatches of `batch_size` rows, epoch after epoch until the
  validation loss (Eq. (1) without dropout) has not improved for `patience` epochs, keeping the best
  epoch's parameters (as `la.heller.classifier_fit` trains the classifier); LearnHeuristicPrac takes
  warm-started full-batch steps until every record is within 0.5 of its label, at most TrainIter of
  them;
- the WUNN: uniform minibatches, a fixed β and the same early stopping on its validation objective,
  β·KL + ½·mean((mean − y)² + σ_e²), which is Eq. (2)'s expectation over the weights in closed form
  (`WUNN.predict_exact`); LearnHeuristicPrac trains in blocks until σ_e < √(κε) on every record,
  samples minibatches with weights e^σ_e and lets β decay from one iteration to the next.
"""
from dataclasses import dataclass

import numpy as np

from la.heller.classifier_fit import BestEpoch, History
from la.nn.ffnn import SCALE


@dataclass(frozen=True)
class SupervisedConfig:
    """The supervised fit of the FFNN and the WUNN; where it can, as the classifier's
    (`ClassifierConfig`)."""
    batch_size: int = 100           # paper §5 MiniBatchSize (also ClassifierConfig's)
    # as ClassifierConfig: stop after 10 epochs without a better validation loss
    patience: int = 10
    min_delta: float = 0.0          # as ClassifierConfig
    max_epochs: int = 500           # as ClassifierConfig
    target_scale: float = SCALE     # the authors' `Program.Main`: the FFNN learns y/10 (given to
    #                                 `build_ffnn`); longer labels need more
    #                                 (la.experiments.confidence_config: 50 on sliding tiles)
    # β of Eq. (2), fixed: the paper's final β_NumIter = 1e-5 (§5), where LearnHeuristicPrac's β
    # ends; about 1/N, which makes Eq. (2) with a per-example likelihood the evidence lower bound of
    # N examples, divided by N.
    beta: float = 1e-5


def ffnn_val_loss(net, X, y) -> float:
    """Eq. (1) over (X, y), y already scaled, without dropout: mean of (μ − y)²/(2σ_a²) + ln σ_a."""
    mu, sigma_a = net.predict(X)
    return float(np.mean((mu - y) ** 2 / (2 * sigma_a ** 2) + np.log(sigma_a)))


def wunn_val_loss(net, X, y, beta: float) -> float:
    """Eq. (2)'s expectation over the weights: β·KL + ½·mean((mean − y)² + σ_e²)
    (`WUNN.predict_exact`)."""
    mean, sigma_e = net.predict_exact(X)
    return beta * net.kl()[0] + 0.5 * float(np.mean((mean - y) ** 2 + sigma_e ** 2))


def fit_ffnn(net, opt, X, y, X_val, y_val, cfg: SupervisedConfig, rng: np.random.Generator,
             on_epoch=None, keeper: BestEpoch | None = None) -> History:
    """The two-output FFNN on costs y (unscaled: divided by the network's `scale` here); its dropout
    masks come from the network's own generator, the minibatch order from `rng`; `on_epoch`,
    `keeper` as in `_train`."""
    scale = net.scale
    return _train(net, opt, lambda Xb, yb: net.loss_and_grads(Xb, yb),
                  lambda: ffnn_val_loss(net, X_val, np.asarray(y_val) / scale),
                  X, np.asarray(y) / scale, cfg, rng, on_epoch, keeper)


def fit_wunn(net, opt, X, y, X_val, y_val, cfg: SupervisedConfig, rng: np.random.Generator, S: int,
             on_epoch=None, keeper: BestEpoch | None = None) -> History:
    """The WUNN on costs y, S weight samples per step (paper §5: S = 5); noise and minibatches from
    `rng`; `on_epoch`, `keeper` as in `_train`."""
    return _train(net, opt, lambda Xb, yb: net.sample_loss_and_grads(Xb, yb, cfg.beta, S, rng),
                  lambda: wunn_val_loss(net, X_val, y_val, cfg.beta), X, np.asarray(y, dtype=float),
                  cfg, rng, on_epoch, keeper)


def _train(net, opt, loss_and_grads, val_loss, X, y, cfg: SupervisedConfig, rng, on_epoch=None,
           keeper: BestEpoch | None = None) -> History:
    """Minibatch Adam until the validation loss stops improving; `net` ends with its best epoch's
    parameters.
    `on_epoch(keeper)`, if given, is called after each epoch with where the training stands (a
    progress line, a checkpoint; it only reads); `keeper` continues a training from there
    (`la.heller.classifier_fit.train`)."""
    if len(X) != len(y) or len(X) == 0:
        raise ValueError("need as many labels as inputs, at least one, "
                         f"got {len(X)} inputs and {len(y)} labels")
    if cfg.max_epochs < 1 or cfg.batch_size < 1:
        raise ValueError(f"need max_epochs, batch_size >= 1, "
                         f"got {cfg.max_epochs}, {cfg.batch_size}")
    keeper = BestEpoch(cfg) if keeper is None else keeper
    history = keeper.history
    while not keeper.done():
        order, losses = rng.permutation(len(X)), []
        for start in range(0, len(order), cfg.batch_size):
            rows = order[start:start + cfg.batch_size]
            loss, grads = loss_and_grads(X[rows], y[rows])
            opt.step(net.params, grads)
            losses.append(loss)
        history.train_loss.append(float(np.mean(losses)))
        history.val_loss.append(val_loss())
        keeper.stop_after(net)
        if on_epoch is not None:
            on_epoch(keeper)
    return keeper.restore(net)
