"""Adam (Kingma & Ba 2015, Algorithm 1) over dicts of arrays, plus the variant that trained the
paper's WUNN.

Standard Adam, per parameter θ with gradient g at step t:
    m ← β1·m + (1 − β1)·g,  v ← β2·v + (1 − β2)·g²,  m_hat = m/(1 − β1^t),  v_hat = v/(1 − β2^t),
    θ ← θ − lr·m_hat/(√v_hat + ε).
Two options reproduce TensorFlow's ApplyAdam as the WUNN behind the paper's numbers called it:
  * nesterov=True: step along β1·m + (1 − β1)·g instead of m (Dozat 2016; ApplyAdam's use_nesterov);
  * frozen_bias_correction=True: the bias corrections keep their step-1 values 1 − β1 and 1 − β2
    forever (constant "beta powers" 0.9 and 0.999).
With either option on we follow TensorFlow's kernel, which is Kingma & Ba's "more efficient" form
(end of their §2): lr_t = lr·√(1 − β2^t)/(1 − β1^t), θ ← θ − lr_t·m/(√v + ε), ε on √v rather than
√v_hat. With both on, lr_t is the constant lr·√(1 − β2)/(1 − β1): the effective rule, a step of
0.0031623 for the paper's lr = 0.01 (§5).
"""
import math

import numpy as np


class Adam:
    """Adam's state (m, v per parameter, step t) and its update, in place on a dict of arrays."""

    def __init__(self, params: dict, lr: float = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, nesterov: bool = False,
                 frozen_bias_correction: bool = False):
        if lr <= 0 or not (0 <= beta1 < 1) or not (0 <= beta2 < 1) or epsilon <= 0:
            raise ValueError(f"need lr > 0, 0 <= beta1, beta2 < 1, epsilon > 0; got {lr}, {beta1}, "
                             f"{beta2}, {epsilon}")
        self.lr, self.beta1, self.beta2, self.epsilon = lr, beta1, beta2, epsilon
        self.nesterov, self.frozen_bias_correction = nesterov, frozen_bias_correction
        self.m = {name: np.zeros_like(p) for name, p in params.items()}   # first moments, from 0
        self.v = {name: np.zeros_like(p) for name, p in params.items()}   # second moments, from 0
        self.t = 0                                                         # steps taken

    def config(self) -> dict:
        """Hyperparameters, as JSON-able values; used by la.runs.persist."""
        return {"lr": self.lr, "beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon,
                "nesterov": self.nesterov, "frozen_bias_correction": self.frozen_bias_correction}

    def step(self, params: dict, grads: dict) -> None:
        """Update every parameter in `params` in place from `grads` (Algorithm 1, or TF's form)."""
        if grads.keys() != self.m.keys():
            raise ValueError(f"grads have keys {sorted(grads)}, expected {sorted(self.m)}")
        self.t += 1
        # frozen: as the authors' `AdamOptimizer.Apply` (`TFComponents/AdamOptimizer.cs`) runs it
        t = 1 if self.frozen_bias_correction else self.t
        c1, c2 = 1 - self.beta1 ** t, 1 - self.beta2 ** t          # bias corrections
        b1, b2, eps = self.beta1, self.beta2, self.epsilon
        tensorflow_form = self.nesterov or self.frozen_bias_correction
        for name, g in grads.items():
            m, v = self.m[name], self.v[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            if tensorflow_form:                                     # TF's ApplyAdam kernel
                lr_t = self.lr * math.sqrt(c2) / c1    # a Python float keeps float32 arrays float32
                m_bar = b1 * m + (1 - b1) * g if self.nesterov else m
                params[name] -= lr_t * m_bar / (np.sqrt(v) + eps)
            else:                                                   # Algorithm 1
                m_hat, v_hat = m / c1, v / c2
                params[name] -= self.lr * m_hat / (np.sqrt(v_hat) + eps)
