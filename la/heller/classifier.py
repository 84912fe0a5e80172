"""The classification heuristic network of Heller et al. (2022, "Setup"), after Ferber, Helmert &
Hoffmann (2020): n_in → 3 sigmoid hidden layers → softmax over the costs 0..H.

The output f(s) ∈ [0, 1]^(H+1) is a distribution over the cost estimates 0..H, H the largest cost in
the training data; training minimises the cross-entropy L = −log f(s)_c of a state s with stored
cost c ("Planning Background"). In search the network gives h^NN(s) = argmax_i f(s)_i and the
confidence c^NN(s) = max_i f(s)_i ("Search Methods"). `predict` takes both from the logits z without
forming f: argmax f = argmax z, and max f = 1 / Σ_i exp(z_i − max z).

Weights start Glorot-uniform and biases at 0, Keras' defaults (the paper trained in Keras and names
no other). `params` holds W1, b1, ..., W4, b4 for three hidden layers (W4, b4: the output layer).
"""
import numpy as np
from scipy.special import expit

from la.nn.layers import astype, dense_backward, dense_forward, sigmoid, softmax


def glorot_uniform(fan_in: int, fan_out: int, rng: np.random.Generator,
                   dtype=np.float64) -> np.ndarray:
    """Glorot-uniform init (Glorot & Bengio 2010; Keras' default): W ~ U(−l, l), l =
    √(6/(fan_in + fan_out))."""
    if fan_in < 1 or fan_out < 1:
        raise ValueError(f"glorot_uniform needs fan_in, fan_out >= 1, got {fan_in}, {fan_out}")
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, (fan_in, fan_out)).astype(dtype)


def sigmoid_forward(z):
    """a = 1/(1 + e^−z), as scipy's expit: one ufunc, finite for any z, float32 stays float32; not
    `la.nn.layers.sigmoid`, which differs in the last bit (see there)."""
    a = expit(z)
    return a, a


def sigmoid_backward(da, cache):
    """dz = da ⊙ a(1 − a)."""
    a = cache
    return da * a * (1 - a)


def log_softmax(z):
    """log f_i = z_i − max z − log Σ_j exp(z_j − max z) over the last axis: finite for any finite
    logits."""
    shifted = z - z.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


SMALL = 4096        # `_sigmoid`: up to this many entries scipy's expit, beyond them the tanh form


def _sigmoid(z, out=None):
    """1/(1 + e^−z), into `out` if given. A search calls this on a few rows per step
    (scipy's expit: one call) or, batched, on hundreds: there `la.nn.layers.sigmoid`'s
    (1 + tanh(z/2))/2 is faster, NumPy's tanh being vectorised. The two differ in the last bit, so
    which one a batch gets stays as it was. A stack of blocks (k, rows, width) is judged by one
    block's size, so that every block gets the same one."""
    if np.prod(z.shape[-2:]) <= SMALL:
        return expit(z, out=out)
    return sigmoid(z, out=out)


def cross_entropy(z, c, weight=None):
    """L = −log f(s)_c ("Planning Background") from logits z (B, H+1) and costs c (B,), summed with
    row weights (default 1/B, the batch mean); returns (loss, dz)."""
    B = len(z)
    w = np.broadcast_to(np.asarray(1.0 / B if weight is None else weight, dtype=z.dtype), (B,))
    rows = np.arange(B)
    log_f = log_softmax(z)                                    # (B, H+1)
    loss = -float(w @ log_f[rows, c])
    # d/dz of −log softmax(z)_c is f − onehot(c)
    dz = np.exp(log_f) * w[:, None]
    dz[rows, c] -= w
    return loss, dz


class Classifier:
    """n_in → hidden sigmoid layers → H+1 softmax outputs, with explicit forward/backward (Heller
    et al. 2022, "Setup"; Ferber, Helmert & Hoffmann 2020)."""

    def __init__(self, n_in: int, H: int, rng: np.random.Generator,
                 hidden=(64, 64, 64), dtype=np.float64):
        hidden = tuple(int(n) for n in hidden)
        if n_in < 1 or H < 1:
            raise ValueError("need n_in >= 1 and a largest cost H >= 1 (two classes), "
                             f"got {n_in}, {H}")
        if not hidden or min(hidden) < 1:
            raise ValueError(f"hidden must list at least one layer width, each >= 1, got {hidden}")
        self.n_in, self.H, self.hidden = n_in, H, hidden
        self.dtype = np.dtype(dtype)
        widths = (n_in, *hidden, H + 1)
        # the last is the output layer
        self.layers = [(f"W{i}", f"b{i}") for i in range(1, len(widths))]
        self.params = {}
        for (W, b), fan_in, fan_out in zip(self.layers, widths[:-1], widths[1:]):
            self.params[W] = glorot_uniform(fan_in, fan_out, rng, self.dtype)    # (fan_in, fan_out)
            self.params[b] = np.zeros(fan_out, dtype=self.dtype)                 # (fan_out,)

    def config(self) -> dict:
        """Constructor arguments (except rng), as JSON-able values; used by la.runs.persist."""
        return {"n_in": self.n_in, "H": self.H, "hidden": list(self.hidden),
                "dtype": self.dtype.name}

    def astype(self, dtype) -> "Classifier":
        """A copy with parameters of another dtype (`la.nn.layers.astype`)."""
        return astype(self, dtype)

    def z1(self, X):
        """The first hidden layer's pre-activations z1 = X·W1 + b1, (n, hidden[0])."""
        W, b = self.layers[0]
        z1 = self.check_inputs(X) @ self.params[W]
        z1 += self.params[b]
        return z1

    def logits_from_hidden(self, z1):
        """Logits z (n, H+1) from z1 (left unchanged): one new array per layer, every other step in
        place.

        A search can update z1 incrementally when a move flips a few one-hot bits, and then needs
        only this.
        """
        p = self.params
        a = _sigmoid(z1)                                      # (n, hidden[0])
        for W, b in self.layers[1:-1]:
            a = a @ p[W]                                      # (n, width)
            a += p[b]
            _sigmoid(a, out=a)
        W, b = self.layers[-1]
        z = a @ p[W]                                          # (n, H+1)
        z += p[b]
        return z

    def logits(self, X):
        """z (n, H+1) for inputs X (n, n_in)."""
        return self.logits_from_hidden(self.z1(X))

    def predict_from_hidden(self, z1):
        """(h^NN, c^NN) from z1 (left unchanged); see `predict`. z1 may be a stack of blocks
        (k, rows, width): then h and c are (k, rows)."""
        z = self.logits_from_hidden(z1)
        # argmax f = argmax z: softmax is monotone
        h = z.argmax(axis=-1)
        z -= z.max(axis=-1, keepdims=True)
        np.exp(z, out=z)
        return h, 1 / z.sum(axis=-1)                          # max f = e^0 / Σ_i e^(z_i − max z)

    def predict(self, X):
        """h^NN = argmax_i f(s)_i (int64) and c^NN = max_i f(s)_i (the network's dtype), each (n,),
        for inputs X (n, n_in) ("Search Methods")."""
        return self.predict_from_hidden(self.z1(X))

    def probabilities(self, X):
        """f(s) (n, H+1), each row a distribution over the costs 0..H."""
        return softmax(self.logits(X))

    def forward(self, X):
        """Logits z (B, H+1) and the caches `backward` needs."""
        X = self.check_inputs(X)
        p, caches = self.params, []
        a = X
        for W, b in self.layers[:-1]:
            z, cache_dense = dense_forward(a, p[W], p[b])     # (B, width)
            a, cache_sigmoid = sigmoid_forward(z)             # (B, width)
            caches.append((cache_dense, cache_sigmoid))
        W, b = self.layers[-1]
        z, cache_out = dense_forward(a, p[W], p[b])           # (B, H+1)
        return z, (caches, cache_out)

    def backward(self, dz, cache) -> dict:
        """Gradients of the loss w.r.t. every parameter, keyed like `params`, from dz = dloss/dz
        (B, H+1)."""
        caches, cache_out = cache
        grads = {}
        W, b = self.layers[-1]
        da, grads[W], grads[b] = dense_backward(dz, cache_out)
        for i in reversed(range(len(caches))):
            cache_dense, cache_sigmoid = caches[i]
            dz_i = sigmoid_backward(da, cache_sigmoid)
            W, b = self.layers[i]
            da, grads[W], grads[b] = dense_backward(dz_i, cache_dense, need_da=i > 0)
        return {name: grads[name] for name in self.params}

    def loss_and_grads(self, X, c, weight=None):
        """The batch cross-entropy (mean, or weighted by `weight` (B,) summing to 1) and its
        gradients."""
        z, cache = self.forward(X)
        loss, dz = cross_entropy(z, self.check_costs(c, len(z)), weight)
        return loss, self.backward(dz, cache)

    def check_costs(self, c, n: int):
        """c as int64 (n,), each in 0..H; ValueError otherwise."""
        c = np.asarray(c)
        if c.shape != (n,) or (c.size and not np.issubdtype(c.dtype, np.integer)):
            raise ValueError(f"costs have shape {c.shape} and dtype {c.dtype}, "
                             f"expected ({n},) integers")
        if c.size and (c.min() < 0 or c.max() > self.H):
            raise ValueError(f"costs must lie in 0..H = 0..{self.H}, got {c.min()}..{c.max()}")
        return c.astype(np.int64, copy=False)

    def check_inputs(self, X):
        """X as an (n, n_in) array of the network's dtype; ValueError otherwise."""
        X = np.asarray(X, dtype=self.dtype)
        if X.ndim != 2 or X.shape[1] != self.n_in:
            raise ValueError(f"X has shape {X.shape}, expected (n, {self.n_in})")
        return X


def layout(config: dict, size) -> dict:
    """The shape of each parameter `Classifier(**config)` allocates, from `config()`'s sizes alone,
    each read through `size(value, name)` (which refuses one that is not a whole number >= 1):
    `la.runs.persist` checks a saved classifier's arrays against it before it allocates anything."""
    n_in, hidden = size(config.get("n_in"), "n_in"), config.get("hidden")
    if not isinstance(hidden, list) or not hidden:
        raise ValueError(f"hidden = {hidden!r}, expected a list of layer widths")
    widths = [n_in, *(size(width, "a hidden width") for width in hidden),
              size(config.get("H"), "H") + 1]
    layers = {f"W{i}": (fan_in, fan_out)
              for i, (fan_in, fan_out) in enumerate(zip(widths, widths[1:]), 1)}
    return {**layers, **{f"b{i}": (fan_out,) for i, fan_out in enumerate(widths[1:], 1)}}
