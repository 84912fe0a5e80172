"""The classification network's hyperparameters (Heller et al. 2022, "Setup"): a frozen dataclass
whose paper fixes the architecture and the optimiser but no sizes or rates: where it is silent the
default is Keras' (the paper trained in Keras) or ours, as each field says.
"""
from dataclasses import dataclass

import numpy as np

from la.heller.classifier import Classifier
from la.nn.adam import Adam


@dataclass(frozen=True)
class ClassifierConfig:
    """The classification heuristic network and its training (Heller et al. 2022, "Setup"; Ferber,
    Helmert & Hoffmann 2020)."""
    # "Setup": 3 sigmoid hidden layers; widths not stated, ours (modest, for search)
    hidden: tuple = (64, 64, 64)
    lr: float = 1e-3                # "Setup": Adam, no rate given; Keras' default
    beta1: float = 0.9              # Keras' default
    beta2: float = 0.999            # Keras' default
    # Keras' default; Keras adds it to √v rather than √v_hat (Kingma & Ba's "efficient" form), la's
    # Adam to √v_hat (Algorithm 1): the two differ only where √v is as small as ε.
    epsilon: float = 1e-7
    # training rows per minibatch (noise rows come on top, `la.heller.ood`); ours
    batch_size: int = 100
    # "Setup": 10-fold cross-validation, one network per validation fold
    folds: int = 10
    # "Setup": stop once validation progress "converges"; ours: 10 epochs
    patience: int = 10
    # an epoch improves if its validation loss is lower by more than this; ours
    min_delta: float = 0.0
    max_epochs: int = 500           # a cap should the validation loss keep creeping down; ours
    dtype: str = "float32"          # speed; float64 for gradient checks


def build_classifier(cfg: ClassifierConfig, n_in: int, H: int, rng: np.random.Generator):
    """A Classifier over the costs 0..H and its Adam from a config; `rng` is used only for the
    initial weights."""
    net = Classifier(n_in, H, rng, hidden=cfg.hidden, dtype=np.dtype(cfg.dtype))
    opt = Adam(net.params, lr=cfg.lr, beta1=cfg.beta1, beta2=cfg.beta2, epsilon=cfg.epsilon)
    return net, opt
