"""The networks' hyperparameters: frozen dataclasses whose defaults are the paper's (or the authors') values.

FFNNConfig and WUNNConfig are Marom & Rosman's networks (Heller et al.'s classifier has its own, in
`la.heller.config`).

Variants come from `dataclasses.replace`, e.g. the mean-only "N/A" planning net is
`replace(FFNNConfig(), n_out=1, dropout=0.0)` and the feature domains use `n_hidden=8`. Experiment-level settings
(β schedule, ε, κ, minibatch size, buffer size, the target scale y/10 given to `build_ffnn`, ...) belong to the
experiment configs.
"""
from dataclasses import dataclass

import numpy as np

from la.nn.adam import Adam
from la.nn.ffnn import FFNN, SCALE
from la.nn.wunn import WUNN


@dataclass(frozen=True)
class FFNNConfig:
    """The planning network (paper §4, §5; the authors' `NNs/MyNN.cs`, `FastNN/FastNN.cs`), as for the two-output
    15-puzzle net."""
    n_hidden: int = 20              # `Program.Train`: 20 for the 15-puzzle's 128 inputs, 8 for the feature domains
    n_out: int = 2                  # μ and φ for Eq. (1); 1 for the "N/A" and efficiency runs (`Program.Main`)
    dropout: float = 0.025          # `Program.Train`: two-output 15-puzzle net only; 0 everywhere else
    phi_min: float = -5.0           # `Global.PHIMIN`: σ_a = softplus(clip(φ)) ≥ 0.0067
    phi_max: float = 1.0            # `Global.PHIMAX`: σ_a ≤ 1.313
    lr: float = 1e-3                # paper §5 "initial learning rate of 0.001"; `FastNN/FastNN.cs`
    beta1: float = 0.9              # Adam default (Kingma & Ba), as in `FastNN/Optimizers/Adam.cs`
    beta2: float = 0.999            # Adam default, as in `FastNN/Optimizers/Adam.cs`
    epsilon: float = 1e-8           # Adam default, added to √v_hat as in `FastNN/Optimizers/Adam.cs`
    adam_nesterov: bool = False     # `FastNN/Optimizers/Adam.cs`: plain Adam (Algorithm 1) for the FFNN
    adam_frozen_bias_correction: bool = False   # `FastNN/Optimizers/Adam.cs`: bias correction as in Algorithm 1
    dtype: str = "float32"          # `FastNN` trains in float32; gradient checks use float64


@dataclass(frozen=True)
class WUNNConfig:
    """The task-generation network (paper §2, §5; the authors' `NNs/NNBayes.cs`, `BayesLayer.cs`)."""
    n_hidden: int = 20              # `Program.Train`: same width as the FFNN (8 for the feature domains)
    prior_mu: float = 0.0           # paper §5 μ0 = 0
    prior_var: float = 10.0         # paper §5 σ0² = 10 (`NNs/NNBayes.cs`: (1/√0.1)²)
    rho_init: str = "reference"     # `BayesLayer`: ρ_W ~ N(ρ0, 1)·√(2/fan_in), not ρ ≈ ρ0
    rho_0: float = -5.0             # `BayesLayer`: ρ_b = −5 (σ_b ≈ 0.0067) and the mean of the ρ_W draw
    S: int = 5                      # paper §5: Monte-Carlo samples of Eq. (2) per training step
    K: int = 100                    # paper §5: output samples per σ_e estimate
    lr: float = 0.01                # paper §5 "initial learning rate of 0.01" (nominal, see below)
    beta1: float = 0.9              # TensorFlow ApplyAdam default, as in `TFComponents/AdamOptimizer.cs`
    beta2: float = 0.999            # TensorFlow ApplyAdam default, as in `TFComponents/AdamOptimizer.cs`
    epsilon: float = 1e-8           # `TFComponents/AdamOptimizer.cs`
    # The authors' TF Adam ran with use_nesterov and constant bias-correction powers (`AdamOptimizer.Apply` in
    # `TFComponents/AdamOptimizer.cs`): an effective constant step of 0.01·√0.001/0.1 = 0.0031623. That is the
    # optimiser that produced the paper's numbers (how fast σ_e falls sets how many WUNN steps, β decays and
    # tasks each iteration gets), so it is the default; set both to False for textbook Adam, whose steady steps
    # at lr 0.01 are about 3x larger.
    adam_nesterov: bool = True
    adam_frozen_bias_correction: bool = True
    dtype: str = "float32"          # speed; float64 for gradient checks


def build_ffnn(cfg: FFNNConfig, n_in: int, rng: np.random.Generator, scale: float = SCALE):
    """An FFNN learning y/`scale` and its Adam from a config; the FFNN keeps `rng` for its dropout masks."""
    net = FFNN(n_in, cfg.n_hidden, cfg.n_out, rng, dropout=cfg.dropout, phi_min=cfg.phi_min,
               phi_max=cfg.phi_max, dtype=np.dtype(cfg.dtype), scale=scale)
    opt = Adam(net.params, lr=cfg.lr, beta1=cfg.beta1, beta2=cfg.beta2, epsilon=cfg.epsilon,
               nesterov=cfg.adam_nesterov, frozen_bias_correction=cfg.adam_frozen_bias_correction)
    return net, opt


def build_wunn(cfg: WUNNConfig, n_in: int, rng: np.random.Generator):
    """A WUNN and its Adam from a config; `rng` is used only for the initial weights."""
    net = WUNN(n_in, cfg.n_hidden, rng, prior_mu=cfg.prior_mu, prior_var=cfg.prior_var, rho_init=cfg.rho_init,
               rho_0=cfg.rho_0, dtype=np.dtype(cfg.dtype))
    opt = Adam(net.params, lr=cfg.lr, beta1=cfg.beta1, beta2=cfg.beta2, epsilon=cfg.epsilon,
               nesterov=cfg.adam_nesterov, frozen_bias_correction=cfg.adam_frozen_bias_correction)
    return net, opt
