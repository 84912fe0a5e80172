"""The networks' hyperparameters: frozen dataclasses whose defaults are the paper's values (§5), or
the values behind the paper's numbers where it gives none.

FFNNConfig and WUNNConfig are Marom & Rosman's networks (Heller et al.'s classifier has its own, in
`la.heller.config`).

Variants come from `dataclasses.replace`, e.g. the mean-only "N/A" planning net is
`replace(FFNNConfig(), n_out=1, dropout=0.0)` and the feature domains use `n_hidden=8`.
Experiment-level settings (β schedule, ε, κ, minibatch size, buffer size, the target scale y/10
given to `build_ffnn`, ...) belong to the experiment configs.
"""
from dataclasses import dataclass

import numpy as np

from la.nn.adam import Adam
from la.nn.ffnn import FFNN, SCALE
from la.nn.wunn import WUNN


@dataclass(frozen=True)
class FFNNConfig:
    """The planning network (paper §4, §5), as for the two-output 15-puzzle net."""
    n_hidden: int = 20              # paper §5: 20 for the 15-puzzle's 128 inputs, 8 on features
    n_out: int = 2                  # μ, φ (Eq. (1)); 1: "N/A" and efficiency runs (`Program.Main`)
    # dropout: paper §5 gives 2.5 % on the 15-puzzle; the authors' `Program.Train` uses it in the
    # two-output 15-puzzle net only, and we follow it: 0 everywhere else
    dropout: float = 0.025
    # φ's clip, which the paper has not: the authors' `Global.PHIMIN` and `Global.PHIMAX`
    phi_min: float = -5.0           # σ_a = softplus(clip(φ)) ≥ 0.0067
    phi_max: float = 1.0            # σ_a ≤ 1.313
    lr: float = 1e-3                # paper §5 "initial learning rate of 0.001"
    # The paper names only Adam's learning rate; the authors' `FastNN/Optimizers/Adam.cs` runs plain
    # Adam (Kingma & Ba's Algorithm 1, with bias correction) with its default β1, β2, ε.
    beta1: float = 0.9              # Adam default (Kingma & Ba)
    beta2: float = 0.999            # Adam default
    epsilon: float = 1e-8           # Adam default, added to √v_hat
    adam_nesterov: bool = False     # plain Adam (Algorithm 1) for the FFNN
    adam_frozen_bias_correction: bool = False   # bias correction as in Algorithm 1
    dtype: str = "float32"          # `FastNN` trains in float32; gradient checks use float64


@dataclass(frozen=True)
class WUNNConfig:
    """The task-generation network (paper §2, §5)."""
    n_hidden: int = 20              # `Program.Train`: the FFNN's width (8 for the feature domains)
    prior_mu: float = 0.0           # paper §5 μ0 = 0
    prior_var: float = 10.0         # paper §5 σ0² = 10
    rho_init: str = "reference"     # `BayesLayer`: ρ_W ~ N(ρ0, 1)·√(2/fan_in), not ρ ≈ ρ0
    rho_0: float = -5.0             # `BayesLayer`: ρ_b = −5 (σ_b ≈ 0.0067), the ρ_W draw's mean
    S: int = 5                      # paper §5: Monte-Carlo samples of Eq. (2) per training step
    K: int = 100                    # paper §5: output samples per σ_e estimate
    lr: float = 0.01                # paper §5 "initial learning rate of 0.01" (nominal, see below)
    beta1: float = 0.9              # TensorFlow ApplyAdam's default, as the WUNN's optimiser ran it
    beta2: float = 0.999            # TensorFlow ApplyAdam's default
    epsilon: float = 1e-8           # TensorFlow ApplyAdam's default
    # The authors' TF Adam ran with use_nesterov and constant bias-correction powers
    # (`AdamOptimizer.Apply` in `TFComponents/AdamOptimizer.cs`): an effective constant step of
    # 0.01·√0.001/0.1 = 0.0031623. That is the optimiser that produced the paper's numbers (how fast
    # σ_e falls sets how many WUNN steps, β decays and tasks each iteration gets), so it is the
    # default; set both to False for textbook Adam, whose steady steps at lr 0.01 are about 3x as
    # large.
    adam_nesterov: bool = True
    adam_frozen_bias_correction: bool = True
    dtype: str = "float32"          # speed; float64 for gradient checks


def build_ffnn(cfg: FFNNConfig, n_in: int, rng: np.random.Generator, scale: float = SCALE):
    """An FFNN learning y/`scale` and its Adam, from a config; the FFNN keeps `rng` for dropout."""
    net = FFNN(n_in, cfg.n_hidden, cfg.n_out, rng, dropout=cfg.dropout, phi_min=cfg.phi_min,
               phi_max=cfg.phi_max, dtype=np.dtype(cfg.dtype), scale=scale)
    opt = Adam(net.params, lr=cfg.lr, beta1=cfg.beta1, beta2=cfg.beta2, epsilon=cfg.epsilon,
               nesterov=cfg.adam_nesterov, frozen_bias_correction=cfg.adam_frozen_bias_correction)
    return net, opt


def build_wunn(cfg: WUNNConfig, n_in: int, rng: np.random.Generator):
    """A WUNN and its Adam from a config; `rng` is used only for the initial weights."""
    net = WUNN(n_in, cfg.n_hidden, rng, prior_mu=cfg.prior_mu, prior_var=cfg.prior_var,
               rho_init=cfg.rho_init, rho_0=cfg.rho_0, dtype=np.dtype(cfg.dtype))
    opt = Adam(net.params, lr=cfg.lr, beta1=cfg.beta1, beta2=cfg.beta2, epsilon=cfg.epsilon,
               nesterov=cfg.adam_nesterov, frozen_bias_correction=cfg.adam_frozen_bias_correction)
    return net, opt
