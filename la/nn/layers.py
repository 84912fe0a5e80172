"""Layers by hand: each `*_forward` returns (out, cache) and each `*_backward` maps d(out) back
through the cache.

Shapes: a batch is the first axis (B rows); the dense layer also accepts extra leading axes, e.g.
(S, B, n_in) for S Monte-Carlo samples, because `@` broadcasts over them. Gradients are named
`d` + the forward name. Nothing here averages over the batch: the losses (ffnn.py, wunn.py,
classifier.py) put the 1/B into d(out).
"""
import numpy as np


def he_normal(fan_in: int, fan_out: int, rng: np.random.Generator, dtype=np.float64) -> np.ndarray:
    """He-normal initialisation (He et al. 2015; paper §5): W ~ N(0, 1)·√(2/fan_in), untruncated."""
    if fan_in < 1 or fan_out < 1:
        raise ValueError(f"he_normal needs fan_in, fan_out >= 1, got {fan_in}, {fan_out}")
    return (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(dtype)


def astype(net, dtype):
    """A copy of the network `net` with parameters of another dtype, its other attributes shared
    (search scores in float64, training runs in float32)."""
    copy = type(net).__new__(type(net))
    copy.__dict__.update(net.__dict__)
    copy.dtype = np.dtype(dtype)
    copy.params = {name: p.astype(dtype) for name, p in net.params.items()}
    return copy


def dense_forward(a, W, b):
    """z = a·W + b."""
    z = a @ W + b                                             # (..., B, n_out)
    return z, (a, W)


def dense_backward(dz, cache, need_da: bool = True):
    """Gradients of z = a·W + b: (da, dW, db), summed over every leading (batch, sample) axis.

    The first layer's da (the gradient w.r.t. the inputs) is never used, and for 25,000 × 128 inputs
    it costs as much as dW, so callers may skip it with need_da=False (da is then None).
    """
    a, W = cache
    da = dz @ W.T if need_da else None                        # (..., B, n_in)
    dW = a.reshape(-1, a.shape[-1]).T @ dz.reshape(-1, dz.shape[-1])   # (n_in, n_out)
    db = dz.reshape(-1, dz.shape[-1]).sum(axis=0)             # (n_out,)
    return da, dW, db


def relu_forward(z):
    """a = max(z, 0)."""
    return np.maximum(z, 0), z


def relu_backward(da, cache):
    """dz = da where z > 0, else 0 (the kink at 0 gets gradient 0)."""
    z = cache
    return da * (z > 0)


def dropout_mask(shape, p: float, rng: np.random.Generator, dtype=np.float64) -> np.ndarray:
    """Inverted-dropout mask: each entry is 0 with probability p, else 1/(1 − p), so E[mask] = 1."""
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout probability must be in [0, 1), got {p}")
    keep = rng.random(shape) >= p
    return (keep / (1.0 - p)).astype(dtype)


def dropout_forward(a, mask):
    """out = a ⊙ mask (training only; at prediction time there is no dropout and no rescaling)."""
    return a * mask, mask


def dropout_backward(dout, cache):
    """da = dout ⊙ mask: dropped units get no gradient."""
    mask = cache
    return dout * mask      # the authors' `FastNN.Backward` forgets the mask; standard dropout here


def sigmoid(x, out=None):
    """1/(1 + e^−x) as (1 + tanh(x/2))/2, which never overflows for large |x|; into `out` if given.

    Heller et al.'s classifier also uses scipy's expit (`la.heller.classifier`): the two differ in
    the last bit on most float32 inputs, and each produced the committed numbers where it is used,
    so both stay."""
    a = np.multiply(x, 0.5, out=out)
    np.tanh(a, out=a)
    a += 1
    a *= 0.5
    return a


def softmax(z):
    """Softmax over the last axis, f_i = exp(z_i − max z) / Σ_j exp(z_j − max z): no overflow."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softplus(x):
    """ln(1 + e^x), the map ρ ↦ σ of paper §2, as max(x, 0) + ln(1 + e^−|x|): finite for any x, and
    ten times faster than np.logaddexp(0, x), which matters inside search."""
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def softplus_grad(x):
    """d softplus(x)/dx = sigmoid(x)."""
    return sigmoid(x)
