"""The planning network, the FFNN of paper §4–§5: n_in → n_hidden ReLU → 1 output (μ) or 2 outputs
(μ, φ).

With two outputs the second one, φ, gives the aleatoric standard deviation
σ_a = softplus(clip(φ, φ_min, φ_max)) and the loss is Eq. (1). With one output the loss is
½(μ − y)², i.e. Eq. (1) with σ_a fixed at 1.

Dropout (§5: 2.5 %): the network keeps the `rng` it was built with and draws a fresh
inverted-dropout mask from it at every `loss_and_grads` call, i.e. at every training step. So the
sequence of training steps is reproducible from the construction seed; `la.runs.persist`
saves that rng's state with the weights so that a reloaded network continues the same mask sequence.
The rng is shared, not copied: to keep the masks independent of a caller's other draws, give the
network its own generator (e.g. `rng.spawn(1)[0]`).

Target scale: the network learns y/`scale` (`SCALE`, 10), so μ·scale and σ_a·scale are in cost
units. The scale is the network's own, saved with it: whoever trains or plans with it reads
`net.scale`.
"""
import numpy as np

from la.nn.layers import (astype, dense_backward, dense_forward, dropout_backward, dropout_forward,
                          dropout_mask, he_normal, relu_backward, relu_forward, softplus,
                          softplus_grad)

SCALE = 10.0      # the paper gives no target scale: the authors' `Program.Main` trains on y/10


def phi_to_sigma_a(phi, phi_min: float, phi_max: float):
    """σ_a = softplus(clip(φ, φ_min, φ_max)): §2's softplus, after a clip the paper has not."""
    return softplus(np.clip(phi, phi_min, phi_max))     # the clip: the authors' `Global.TrimPhi`


def squared_loss(mu, y, weight=None):
    """½(μ − y)² averaged over the batch (row weights summing to 1; default 1/B): (loss, dmu)."""
    r = mu - y                                                # (B,)
    weight = 1 / len(r) if weight is None else weight
    return 0.5 * float(np.sum(weight * r * r)), weight * r


def gaussian_nll(mu, phi, y, phi_min: float, phi_max: float, weight=None):
    """Eq. (1): the mean over the batch (weighted; default 1/B) of (μ − y)²/(2σ_a²) + ln σ_a.

    Returns (loss, dmu, dphi).
    """
    phi_c = np.clip(phi, phi_min, phi_max)                    # (B,)
    sigma_a = softplus(phi_c)                                 # (B,)
    r = mu - y
    weight = 1 / len(r) if weight is None else weight
    loss = float(np.sum(weight * (r * r / (2 * sigma_a * sigma_a) + np.log(sigma_a))))
    dmu = weight * r / (sigma_a * sigma_a)
    dsigma_a = weight * (1 / sigma_a - r * r / sigma_a ** 3)
    # Straight-through clip (as in the authors' `FastNN.SetOutputDelta`): d clip/dφ is taken as 1
    # everywhere, so outside the range φ receives the gradient evaluated at the bound. The true
    # derivative is 0 there, and a φ that once left the range (initialisation, one large step) would
    # never move again, freezing σ_a at the bound; with the straight-through gradient it comes back
    # as soon as the data asks for a σ_a inside the range.
    dphi = dsigma_a * softplus_grad(phi_c)
    return loss, dmu, dphi


class FFNN:
    """Two-layer ReLU network with explicit forward/backward (paper §4, §5)."""

    def __init__(self, n_in: int, n_hidden: int, n_out: int, rng: np.random.Generator,
                 dropout: float = 0.0, phi_min: float = -5.0, phi_max: float = 1.0,
                 dtype=np.float64, scale: float = SCALE):
        if n_out not in (1, 2):
            raise ValueError(f"n_out must be 1 (mean only) or 2 (mean and φ), got {n_out}")
        if not 0.0 <= dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {dropout}")
        if not phi_min < phi_max:
            raise ValueError(f"need phi_min < phi_max, got {phi_min}, {phi_max}")
        self.n_in, self.n_hidden, self.n_out = n_in, n_hidden, n_out
        self.dropout, self.phi_min, self.phi_max = dropout, phi_min, phi_max
        self.scale = float(scale)           # outputs are in units of y/scale (module docstring)
        self.dtype = np.dtype(dtype)
        self.rng = rng          # kept for the dropout masks, see the module docstring
        self.params = {
            "W1": he_normal(n_in, n_hidden, rng, self.dtype),       # (n_in, H)
            "b1": np.zeros(n_hidden, dtype=self.dtype),             # (H,)  starts at 0 (paper §5)
            "W2": he_normal(n_hidden, n_out, rng, self.dtype),      # (H, n_out)
            "b2": np.zeros(n_out, dtype=self.dtype),                # (n_out,)
        }

    def astype(self, dtype) -> "FFNN":
        """A copy with parameters of another dtype (`la.nn.layers.astype`)."""
        return astype(self, dtype)

    def config(self) -> dict:
        """Constructor arguments (except rng), as JSON-able values (la.runs.persist)."""
        return {"n_in": self.n_in, "n_hidden": self.n_hidden, "n_out": self.n_out,
                "dropout": self.dropout, "phi_min": self.phi_min, "phi_max": self.phi_max,
                "dtype": self.dtype.name, "scale": self.scale}

    def predict_from_hidden(self, z1):
        """Outputs (μ, σ_a) from hidden PRE-activations z1 = X·W1 + b1, shape (n, H); σ_a is None
        for one output.

        Search can update z1 incrementally when one tile moves, and then needs only this second
        half.
        """
        a1 = np.maximum(z1, 0)                                           # (n, H)
        W2, b2 = self.params["W2"], self.params["b2"]
        # One matrix-vector product per output: NumPy's (n, H) @ (H, 2) is several times slower.
        mu = a1 @ W2[:, 0] + b2[0]                                       # (n,)
        if self.n_out == 1:
            return mu, None
        return mu, phi_to_sigma_a(a1 @ W2[:, 1] + b2[1], self.phi_min, self.phi_max)

    def predict(self, X):
        """(μ, σ_a) for a batch of inputs (n, n_in); no dropout at prediction time."""
        X = self._check_X(X)
        return self.predict_from_hidden(X @ self.params["W1"] + self.params["b1"])

    def loss_and_grads(self, X, y, mask=None, weight=None):
        """Batch loss (Eq. (1), or ½(μ − y)² for one output) and its gradients, keyed like `params`.

        `mask` (B, H) fixes the dropout mask (for gradient checks); by default a fresh one is drawn
        from self.rng. `weight` (B,), summing to 1, weighs the rows (default: the plain mean, 1/B
        each): a row of weight k/B gives the gradient of k copies of it in a batch of B rows, when
        there is no dropout.
        """
        X = self._check_X(X)
        y = self._check_y(y, len(X))
        weight = None if weight is None else self._check_y(weight, len(X))
        p = self.params
        z1, cache1 = dense_forward(X, p["W1"], p["b1"])                 # (B, H)
        a1, cache_relu = relu_forward(z1)                               # (B, H)
        if self.dropout > 0:
            if mask is None:
                mask = dropout_mask(a1.shape, self.dropout, self.rng, self.dtype)
            a1, cache_drop = dropout_forward(a1, mask)
        elif mask is not None:
            raise ValueError("a dropout mask was given to a network built with dropout=0")
        out, cache2 = dense_forward(a1, p["W2"], p["b2"])               # (B, n_out)
        if self.n_out == 1:
            loss, dmu = squared_loss(out[:, 0], y, weight)
            dout = dmu[:, None]                                         # (B, 1)
        else:
            loss, dmu, dphi = gaussian_nll(out[:, 0], out[:, 1], y, self.phi_min, self.phi_max,
                                           weight)
            dout = np.stack([dmu, dphi], axis=1)                        # (B, 2)
        da1, dW2, db2 = dense_backward(dout, cache2)
        if self.dropout > 0:
            da1 = dropout_backward(da1, cache_drop)
        dz1 = relu_backward(da1, cache_relu)
        _, dW1, db1 = dense_backward(dz1, cache1, need_da=False)
        return loss, {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}

    def _check_X(self, X):
        X = np.asarray(X, dtype=self.dtype)
        if X.ndim != 2 or X.shape[1] != self.n_in:
            raise ValueError(f"X has shape {X.shape}, expected (n, {self.n_in})")
        return X

    def _check_y(self, y, n: int):
        y = np.asarray(y, dtype=self.dtype)
        if y.size != n or y.ndim > 2:
            raise ValueError(f"y has shape {y.shape}, expected ({n},) to match X")
        return y.reshape(n)


def fit_full_batch(net: FFNN, adam, X, y, rows: int, max_steps: int, tolerance: float) -> int:
    """The FFNN's training in Alg. 2's Update (at most TrainIter steps, §5): warm-started full-batch
    Adam steps on the M records cycled to `rows` rows, targets y/`net.scale`, until every record is
    predicted within `tolerance` of its label (checked from the third step on) or `max_steps` steps;
    returns the steps taken."""
    # The paper is silent on all but TrainIter; the rest is the authors' `NNBayesHeuristic.Update`.
    scale = net.scale
    order = np.resize(np.arange(len(y)), rows)             # the oldest records get the extra copies
    if net.dropout > 0:                                    # each copy draws its own dropout mask
        X_batch, y_batch, weight = X[order], y[order] / scale, None
    else:                                                  # the same gradient, from M rows only
        X_batch, y_batch = X, y / scale
        weight = np.bincount(order, minlength=len(y)) / len(order)
    for step in range(1, max_steps + 1):
        _, grads = net.loss_and_grads(X_batch, y_batch, weight=weight)
        adam.step(net.params, grads)
        mu, _ = net.predict(X)
        if step >= 3 and np.abs(scale * mu - y).max() < tolerance:
            break
    return step
