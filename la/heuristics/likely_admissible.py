"""The likely-admissible heuristic y^α from the planning network (paper §3–§5).

The FFNN predicts, for a state x, a mean μ and an aleatoric spread σ_a of the cost-to-goal y, both
in units of y/10 (`la.nn.ffnn.SCALE`). Reading y | x ~ N(μ, σ²), the value y^α with
P(y^α <= y | x) = α is

    y^α = μ − σ·Φ⁻¹(α),

an underestimate with probability α: α = 0.5 is the mean, α = 0.9 sits 1.28 σ below it. IDA* needs
integers, so h = max(round(y^α), h_ad), rounded half to even (numpy.rint; `to_h`). h_ad is the floor
the encoding gives (`la.features.base`): on the feature domains the largest admissible feature
(paper §5), for the one-hot none, and the floor is 0.

Which σ: at test time σ_t = σ_a (paper §5). During training the paper's quantile rule (§4) applies:
where the network's mean lies below y^q, the q-quantile of the training labels, it has seen such
states and σ_t = σ_a; above it, σ_a is not to be trusted and σ_t = √ε = 1 cost unit. Before anything
is trained y^q = −∞, so every state takes the second branch. A mean-only network plans with
max(round(μ), h_ad). The floor applies in every case.

Not in the paper: `quantile=q` replaces Φ⁻¹(α) by −q, so y = μ + σ_a·q, where q is a split conformal
quantile of the standardised residuals on states with known h* (`la.rivals.calibration`), which
makes P(y <= h*) >= α hold.

Inside IDA* the network costs about as much as the search itself, so the heuristic is incremental
(see `la.heuristics.base`), through the encoding's `start` and `step`:

- The one-hot (`la.features.one_hot`) carries each node's hidden pre-activation z1 = x·W1 + b1. A
  move changes four input bits — the moved tile's column or row and the blank's — so a child's z1 is
  its parent's plus one precomputed row of a (tile, move) table: one gather and one add instead of a
  128 × 20 product. z1 is kept in float64, in which the sum of a path's updates equals the product
  from scratch to ~1e-13; the tests check that the two give the same integer h.
- Any other encoding carries what its `step` reads (`step_reads`, `la.features.base`): for the PDB
  features only the encoding's own carry (HArr and the tiles' cells for the sliding-tile puzzle,
  nothing for the pancake and blocksworld), otherwise also the inputs x and floor h_ad, in one NumPy
  structured array per node. The encoding's `step` gives the children's x and h_ad, and
  z1 = x·W1 + b1 is computed from the child's x: with 14 or 15 inputs that product costs less than
  the features themselves.
"""
import numpy as np
from scipy.special import ndtri

from la.features import OneHot, one_hot_index

BLOCK = 1 << 18   # multiply-adds per matrix product in `hidden` (OpenBLAS's one-thread threshold)


def z_alpha(alpha: float) -> float:
    """Φ⁻¹(α), the standard normal's α-quantile (paper §3)."""
    return float(ndtri(alpha))


def y_alpha(mu, sigma, z):
    """y^α = μ − σ·z with z = Φ⁻¹(α): P(y^α <= y) = α for y ~ N(μ, σ²) (paper §3)."""
    return mu - sigma * z


def to_h(v, floor=0) -> np.ndarray:
    """An integer heuristic from real values: rounded half to even, floored."""
    # The paper does not say how y^α is rounded: half to even, as the authors' C# `Math.Round`.
    return np.maximum(np.rint(v), floor).astype(np.int64)


class LikelyAdmissible:
    """h(s) = max(round(y^α), h_ad) from an FFNN on an encoding of the states (`la.features`).

    `encoding` gives the network's inputs (`la.features`; the paper's for a domain:
    `la.features.encodings`), and the network its target scale (`ffnn.scale`: its outputs times the
    scale are in cost units). alpha=None plans with the mean (the single-output "N/A" network). With
    an alpha, y_q=None is the test-time heuristic (σ_t = σ_a); a number (or -inf before the first
    training) switches on the training-time quantile rule, y_q in cost units. `quantile=q` (test
    time only) plans with μ + σ_a·q, a conformal bound for coverage α (`la.rivals.calibration`).
    """

    def __init__(self, ffnn, encoding, alpha: float | None = None, y_q: float | None = None,
                 sigma_else: float = 1.0, *, quantile: float | None = None):
        if alpha is not None and not 0 < alpha < 1:
            raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
        if alpha is not None and ffnn.n_out != 2:
            raise ValueError("a likely-admissible heuristic needs the two-output network "
                             "(μ and σ_a)")
        if quantile is not None and alpha is None:
            raise ValueError(f"a conformal quantile q={quantile} needs the α it was calibrated "
                             f"for, got alpha=None")
        if quantile is not None and y_q is not None:
            raise ValueError(f"a conformal quantile is for the test-time heuristic (y_q=None), "
                             f"got y_q={y_q}")
        if quantile is not None and not np.isfinite(quantile):
            raise ValueError(f"a conformal quantile must be a finite number, got {quantile}")
        if ffnn.n_in != encoding.size:
            raise ValueError(f"the network has {ffnn.n_in} inputs, but {encoding!r} gives "
                             f"{encoding.size}")
        self.net = ffnn.astype(np.float64)       # a frozen float64 copy: training goes on elsewhere
        self.encoding, self.domain = encoding, encoding.domain
        self.alpha, self.y_q, self.quantile = (alpha, y_q,
                                               None if quantile is None else float(quantile))
        self.sigma_else, self.scale = sigma_else, ffnn.scale
        self.z_alpha = None if alpha is None else z_alpha(alpha)
        if quantile is not None:                   # v = μ − σ_a·(−q) = μ + σ_a·q below, in `values`
            self.z_alpha = -self.quantile
        self.one_hot = isinstance(encoding, OneHot)
        if self.one_hot:
            self._tables()
        self.reads = tuple(encoding.step_reads)     # what a node keeps besides the encoding's carry

    def __repr__(self):
        if self.alpha is None:
            rule = "mean: μ"
        elif self.quantile is not None:
            rule = f"α={self.alpha}, conformal: μ + σ_a·q, q={self.quantile:.6g}"
        else:
            rule = (f"α={self.alpha}: μ − σ_t·Φ⁻¹(α)"
                    + ("" if self.y_q is None else f", y_q={self.y_q}"))
        return f"LikelyAdmissible({rule}, {self.encoding!r})"

    def _tables(self):
        """T[v, p]: v at position p's share of z1; D[v·M + m]: z1's change when move m slides
        tile v."""
        width, n = self.domain.width, self.domain.size
        W1 = self.net.params["W1"]                                      # ((W+rows)·N, H)
        col_bit, row_bit = one_hot_index(width, np.arange(n)[:, None], np.arange(n)[None, :],
                                         self.domain.height)            # (N, N)
        T = W1[col_bit] + W1[row_bit]                                   # (N values, N positions, H)
        b, t = self.domain.blank_from, self.domain.blank_to             # move m: blank b -> t
        blank_change = T[0, t] - T[0, b]                                # (M, H)
        self.delta = (T[:, b] - T[:, t]
                      + blank_change[None]).reshape(-1, W1.shape[1])    # (N·M, H)
        self.moves = len(b)

    def hidden(self, states) -> np.ndarray:
        """z1 = x·W1 + b1 from scratch, float64 (n, H)."""
        return self._hidden(self.encoding(states))

    def _hidden(self, x) -> np.ndarray:
        W1, b1 = self.net.params["W1"], self.net.params["b1"]
        if self.one_hot:                        # as it always was: the 15-puzzle's numbers stay put
            return x.astype(np.float64) @ W1 + b1
        # In row blocks of BLOCK multiply-adds: OpenBLAS spreads a larger product over threads, and
        # on a busy machine waiting for the other core costs up to 30 times the product itself.
        z1 = np.empty((len(x), W1.shape[1]))
        rows = max(1, BLOCK // W1.size)
        for start in range(0, len(x), rows):
            # a float32 x is exact in float64
            np.matmul(x[start:start + rows], W1, out=z1[start:start + rows])
        z1 += b1
        return z1

    def floor(self, states):
        """h_ad, the encoding's admissible floor of each state ((n,) int64), or 0 if it has none."""
        h_ad = self.encoding.admissible(states)
        return 0 if h_ad is None else h_ad

    def values(self, z1) -> np.ndarray:
        """Real-valued y^α (or μ) in cost units from hidden pre-activations."""
        mu, sigma_a = self.net.predict_from_hidden(z1)
        if self.alpha is None:
            return self.scale * mu
        v = self.scale * y_alpha(mu, sigma_a, self.z_alpha)                       # σ_t = σ_a
        if self.y_q is not None:
            # Training: §4's quantile rule, with σ_t = √ε in cost units above y^q and y^q = −∞
            # before the first Update, where the paper is silent, as the authors'
            # `NNBayesHeuristic.H`.
            v = np.where(self.scale * mu < self.y_q, v,
                         y_alpha(self.scale * mu, self.sigma_else, self.z_alpha))
        return v

    def from_inputs(self, x, h_ad) -> np.ndarray:
        """max(round(y^α), h_ad) from the inputs x and floors h_ad (None: 0) of a batch."""
        return to_h(self.values(self._hidden(x)), 0 if h_ad is None else h_ad)

    def __call__(self, states) -> np.ndarray:
        x, h_ad, _ = self.encoding.start(states)                            # x and h_ad in one pass
        return self.from_inputs(x, h_ad)

    def start(self, states):
        if self.one_hot:
            z1 = self.hidden(states)
            return to_h(self.values(z1)), z1
        x, h_ad, carry = self.encoding.start(states)
        return self.from_inputs(x, h_ad), self._keep(x, h_ad, carry)

    def step(self, states, h, carry, parent, move):
        if self.one_hot:
            tile, _, _ = self.domain.moved_tile(states, parent, move)
            z1 = np.take(carry, parent, axis=0)                                   # (n, H)
            z1 += np.take(self.delta, tile.astype(np.int64) * self.moves + move, axis=0)
            return to_h(self.values(z1)), z1
        x = h_ad = None
        if self.reads:
            x, h_ad, carry = unpack(carry, ("x", "h_ad", "carry"))
        x, h_ad, carry = self.encoding.step(states, x, h_ad, carry, parent, move)
        return self.from_inputs(x, h_ad), self._keep(x, h_ad, carry)

    def _keep(self, x, h_ad, carry):
        """A node's carry: the encoding's own, packed with x and h_ad if the encoding's step reads
        them."""
        if not self.reads:
            return carry
        return pack(x=x if "x" in self.reads else None,
                    h_ad=h_ad if "h_ad" in self.reads else None, carry=carry)


def pack(**fields) -> np.ndarray:
    """Arrays with one row per node as one structured array (the search keeps one carry per node);
    fields that are None are left out."""
    present = {name: a for name, a in fields.items() if a is not None}
    rows = len(next(iter(present.values())))
    packed = np.empty(rows, dtype=[(name, a.dtype, a.shape[1:]) for name, a in present.items()])
    for name, a in present.items():
        packed[name] = a
    return packed


def unpack(packed: np.ndarray, names) -> list:
    """The fields `names` of a `pack`ed array (views), None for those left out."""
    return [packed[name] if name in packed.dtype.names else None for name in names]
