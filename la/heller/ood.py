"""Training with out-of-distribution inputs (Heller et al. 2022, "Training with OOD Inputs").

Besides the training states, the network sees noise inputs s̄ whose target is the uniform
distribution over the H+1 costs; their loss is the cross-entropy with that target, L^OOD(s̄) =
−1/(H+1) Σ_i log f(s̄)_i.

The mix, "Y% OOD inputs": a minibatch of b training rows gets `ood_rows(b, Y)` =
round(b·Y/(100 − Y)) noise rows, so that Y% of its rows are noise (exactly when b·Y/(100 − Y) is a
whole number: Y = 50 is the paper's "1:1 ratio", Y = 90 is 9:1). The batch loss is the mean over all
its rows of L (training rows) and L^OOD (noise rows), which is what a Keras model trained on the
mixed data with uniform target vectors computes. Holding the training rows per batch fixed, rather
than the total, keeps the steps per epoch and the early-stopping schedule of a run with noise equal
to those of one without; Y = 0 is plain training. The paper does not say whether its noise was drawn
once or per batch; we draw fresh noise for every minibatch.

Noise, as the paper defines it for Boolean fact vectors (the 15-puzzle's one-hot,
`la.features.one_hot`):
    uniform noise   every entry 0 or 1 with probability ½;
    weighted noise  entry e ~ Bernoulli(p_e), p_e the frequency of 1 in entry e over the training
                    inputs.
The 24-puzzle, 24-pancake and 15-blocksworld take PDB features instead (`la.features.base`):
admissible integer heuristics divided by a fixed scale, plus a few other small-integer inputs, so
each entry lives on a grid of values, not in {0, 1}. There a fair coin per entry would put every
feature at one end of its scale (0, or the largest value of the heuristic), so we carry both
definitions over entry by entry:
    uniform noise   entry e drawn uniformly from the values it takes in the training inputs (a fair
                    coin for an entry that takes 0 and 1);
    weighted noise  entry e drawn from its empirical marginal: entry e of a training row chosen
                    uniformly at random, independently for every entry (for a 0/1 entry,
                    Bernoulli(p_e) again).
So noise entries are always values the encoding produces, while their combinations are not. An entry
that never varies in the training data stays constant in feature noise, as its range is unknown.
`input_kind` tells the two kinds apart from the training inputs; pass `kind` to choose.
"""
import numpy as np

from la.heller.classifier import cross_entropy, log_softmax

KINDS = ("binary", "features")


def input_kind(X) -> str:
    """'binary' if every training input is 0 or 1 (fact vectors, the one-hot), else 'features'."""
    X = np.asarray(X)
    return "binary" if np.all((X == 0) | (X == 1)) else "features"


def _training_inputs(X, kind):
    X = np.asarray(X)
    if X.ndim != 2 or len(X) == 0 or X.shape[1] == 0:
        raise ValueError("noise needs training inputs of shape (n, n_in) "
                         f"with n, n_in >= 1, got {X.shape}")
    kind = input_kind(X) if kind is None else kind
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS} or None (detect), got {kind!r}")
    if kind == "binary" and input_kind(X) != "binary":
        raise ValueError("kind 'binary' needs training inputs that are all 0 or 1")
    return X, kind


def _check_n(n) -> int:
    if int(n) != n or n < 0:
        raise ValueError(f"the number of noise rows must be a whole number >= 0, got {n}")
    return int(n)


class UniformNoise:
    """Uniform noise ("Training with OOD Inputs"): each entry 0/1 with probability ½ for fact
    vectors; uniform over the entry's training values for features (module docstring)."""

    def __init__(self, X, kind: str | None = None):
        X, self.kind = _training_inputs(X, kind)
        self.n_in, self.dtype = X.shape[1], X.dtype
        if self.kind == "features":
            values = [np.unique(X[:, e]) for e in range(self.n_in)]         # once, at construction
            # (n_in,) distinct values per entry
            self.k = np.array([len(v) for v in values])
            # (n_in, max k), 0-padded
            self.values = np.zeros((self.n_in, self.k.max()), dtype=X.dtype)
            for e, v in enumerate(values):
                self.values[e, :len(v)] = v

    def __call__(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n noise inputs, (n, n_in) in the training inputs' dtype."""
        n = _check_n(n)
        if self.kind == "binary":
            return (rng.random((n, self.n_in)) < 0.5).astype(self.dtype)
        # (n, n_in): entry e's value index
        pick = rng.integers(0, self.k, size=(n, self.n_in))
        return self.values[np.arange(self.n_in), pick]


class WeightedNoise:
    """Weighted noise ("Training with OOD Inputs"): entry e ~ Bernoulli(p_e) for fact vectors; entry
    e from its empirical marginal for features (module docstring)."""

    def __init__(self, X, kind: str | None = None):
        X, self.kind = _training_inputs(X, kind)
        self.n_in, self.dtype = X.shape[1], X.dtype
        if self.kind == "binary":
            self.p = X.mean(axis=0, dtype=np.float64)                        # (n_in,) p_e
        else:
            # (N, n_in) the marginals' samples
            self.X = X.copy()

    def __call__(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n noise inputs, (n, n_in) in the training inputs' dtype."""
        n = _check_n(n)
        if self.kind == "binary":
            return (rng.random((n, self.n_in)) < self.p).astype(self.dtype)
        # one training row per entry
        row = rng.integers(0, len(self.X), size=(n, self.n_in))
        return self.X[row, np.arange(self.n_in)]


def ood_loss(z, weight=None):
    """L^OOD = −1/(H+1) Σ_i log f(s̄)_i ("Training with OOD Inputs") from logits z (B, H+1), summed
    with row weights (default 1/B); returns (loss, dz)."""
    B, classes = z.shape
    w = np.broadcast_to(np.asarray(1.0 / B if weight is None else weight, dtype=z.dtype), (B,))
    log_f = log_softmax(z)                                                   # (B, H+1)
    loss = -float(w @ log_f.sum(axis=1)) / classes
    dz = (np.exp(log_f) - 1.0 / classes) * w[:, None]                        # f − uniform target
    return loss, dz


def ood_rows(b: int, Y: float) -> int:
    """Noise rows for a minibatch of b training rows, so that Y% of the batch is noise:
    round(b·Y/(100 − Y))."""
    if not 0 <= Y < 100:
        raise ValueError(f"the OOD share Y must be a percentage in [0, 100), got {Y}")
    return int(round(b * Y / (100 - Y)))


def mixed_loss_and_grads(net, X, c, X_ood):
    """The mixed batch's loss, the mean of L over the training rows (X, c) and of L^OOD over the
    noise rows X_ood, and its gradients keyed like `net.params` (one forward and backward pass over
    all rows)."""
    X, X_ood = net.check_inputs(X), net.check_inputs(X_ood)
    c = net.check_costs(c, len(X))
    b, weight = len(X), 1.0 / (len(X) + len(X_ood))
    z, cache = net.forward(np.concatenate([X, X_ood]))                       # (b + m, H+1)
    loss_in, dz_in = cross_entropy(z[:b], c, weight)
    loss_ood, dz_ood = ood_loss(z[b:], weight)
    return loss_in + loss_ood, net.backward(np.concatenate([dz_in, dz_ood]), cache)
