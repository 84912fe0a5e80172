"""The weight-uncertainty network, WUNN (Blundell et al. 2015; paper §2, Eq. (2)).

Every weight and bias w has a Gaussian posterior N(μ, σ²) with σ = softplus(ρ); `params` holds the
μ's and ρ's (`W1_mu, W1_rho, b1_mu, b1_rho, W2_mu, W2_rho, b2_mu, b2_rho`). Architecture
n_in → n_hidden ReLU → 1.

Both layers use the local reparameterisation trick (Kingma, Salimans & Welling 2015), in training
and in prediction: instead of sampling weights, sample each pre-activation directly,
    z = m + √v · ξ,   m = a·W_mu + b_mu,   v = (a²)·σ_W² + σ_b²,   ξ ~ N(0, 1) per row and unit,
which has the same distribution per row and a lower-variance gradient. Note that v is itself a dense
layer, applied to a² with weights σ_W² and bias σ_b².

Uncertainty unit: σ_e is a STANDARD DEVIATION here, compared with ε = 1 (task generation, Alg. 1)
and with 0.8 = √(κε) = √0.64 (training, Alg. 2); the paper writes the variance σ_e². With ε = 1 both
readings give the same rules (`predict` says whose reading this is).
"""
import numpy as np
from scipy.special import ndtr

from la.nn.layers import (dense_backward, dense_forward, he_normal, relu_backward, relu_forward,
                          softplus, softplus_grad)

RHO_INIT_SCHEMES = ("reference", "constant")
LAYERS = ("W1", "b1", "W2", "b2")
_CHUNK_BYTES = 16 * 2 ** 20     # one block of hidden-layer noise in `predict`; keeps memory flat


def gaussian_kl(mu, sigma, prior_mu: float, prior_var: float):
    """KL(N(μ, σ²) ‖ N(μ0, σ0²)) in closed form, summed over all entries: (kl, dmu, dsigma)."""
    kl = np.sum(0.5 * np.log(prior_var) - np.log(sigma)
                + (sigma ** 2 + (mu - prior_mu) ** 2) / (2 * prior_var) - 0.5)
    # The authors' `NNOperations.KLUnivariateNormal` writes ln(σ0/(σ + 1e-8)); the 1e-8 only guards
    # σ = 0, which softplus never returns here.
    return float(kl), (mu - prior_mu) / prior_var, sigma / prior_var - 1 / sigma


def lrt_forward(a, W_mu, W_rho, b_mu, b_rho, xi):
    """Local reparameterisation (Kingma et al. 2015): z = m + √v·ξ, m = a·W_mu + b_mu,
    v = (a²)·σ_W² + σ_b²."""
    sigma_W, sigma_b = softplus(W_rho), softplus(b_rho)
    m, cache_m = dense_forward(a, W_mu, b_mu)                             # (..., B, n_out)
    v, cache_v = dense_forward(a * a, sigma_W ** 2, sigma_b ** 2)        # (..., B, n_out)
    sqrt_v = np.sqrt(v)
    z = m + sqrt_v * xi                                                   # (S, B, n_out)
    return z, (a, cache_m, cache_v, W_rho, b_rho, sigma_W, sigma_b, sqrt_v, xi)


def lrt_backward(dz, cache, need_da: bool = True):
    """Gradients of `lrt_forward`: (da, dW_mu, dW_rho, db_mu, db_rho)."""
    a, cache_m, cache_v, W_rho, b_rho, sigma_W, sigma_b, sqrt_v, xi = cache
    # m and v broadcast over the S samples when a has no sample axis (first layer): sum their
    # gradients back.
    dm = _sum_to(dz, sqrt_v.shape)                                       # (..., B, n_out)
    dv = _sum_to(dz * xi / (2 * sqrt_v), sqrt_v.shape)                   # (..., B, n_out)
    da_m, dW_mu, db_mu = dense_backward(dm, cache_m, need_da)
    da2, dvar_W, dvar_b = dense_backward(dv, cache_v, need_da)           # d/d(a²), d/dσ_W², d/dσ_b²
    dW_rho = dvar_W * 2 * sigma_W * softplus_grad(W_rho)
    db_rho = dvar_b * 2 * sigma_b * softplus_grad(b_rho)
    da = da_m + 2 * a * da2 if need_da else None
    return da, dW_mu, dW_rho, db_mu, db_rho


def _sum_to(x, shape):
    """Sum x over its extra leading axes so that it has `shape` (undoes broadcasting)."""
    return x.sum(axis=tuple(range(x.ndim - len(shape)))) if x.shape != shape else x


class WUNN:
    """Bayes-by-backprop network with one hidden ReLU layer and one output (paper §2, §5)."""

    def __init__(self, n_in: int, n_hidden: int, rng: np.random.Generator, prior_mu: float = 0.0,
                 prior_var: float = 10.0, rho_init: str = "reference", rho_0: float = -5.0,
                 dtype=np.float64):
        if rho_init not in RHO_INIT_SCHEMES:
            raise ValueError(f"rho_init must be one of {RHO_INIT_SCHEMES}, got {rho_init!r}")
        if prior_var <= 0:
            raise ValueError(f"prior_var must be > 0, got {prior_var}")
        self.n_in, self.n_hidden = n_in, n_hidden
        self.prior_mu, self.prior_var = prior_mu, prior_var
        self.rho_init, self.rho_0 = rho_init, rho_0
        self.dtype = np.dtype(dtype)
        self.params = {}
        for name, fan_in, fan_out in (("1", n_in, n_hidden), ("2", n_hidden, 1)):
            self.params["W" + name + "_mu"] = he_normal(fan_in, fan_out, rng, self.dtype)
            self.params["W" + name + "_rho"] = self._init_rho(fan_in, fan_out, rng)
            # biases: μ_b starts at 0, ρ_b at ρ0 (σ_b ≈ 0.0067)
            self.params["b" + name + "_mu"] = np.zeros(fan_out, dtype=self.dtype)
            self.params["b" + name + "_rho"] = np.full(fan_out, rho_0, dtype=self.dtype)

    def _init_rho(self, fan_in: int, fan_out: int, rng: np.random.Generator):
        """ρ_W at initialisation: 'reference' draws N(ρ0, 1)·√(2/fan_in), 'constant' sets ρ0."""
        if self.rho_init == "constant":
            # ρ ≈ ρ0 everywhere, as `BayesLayer` does for the biases only: every σ_W = softplus(ρ0).
            return np.full((fan_in, fan_out), self.rho_0, dtype=self.dtype)
        # 'reference' is the authors' `BayesLayer`: the He factor multiplies the whole draw, mean
        # included: for the 15-puzzle's first layer ρ ≈ −0.63, σ_W ≈ 0.43 at the start, far above
        # softplus(−5). We follow the code, since it made the paper's numbers.
        return (rng.normal(self.rho_0, 1.0, (fan_in, fan_out))
                * np.sqrt(2.0 / fan_in)).astype(self.dtype)

    def config(self) -> dict:
        """Constructor arguments (except rng), as JSON-able values (la.runs.persist)."""
        return {"n_in": self.n_in, "n_hidden": self.n_hidden, "prior_mu": self.prior_mu,
                "prior_var": self.prior_var, "rho_init": self.rho_init, "rho_0": self.rho_0,
                "dtype": self.dtype.name}

    def sigmas(self) -> dict:
        """σ = softplus(ρ) for every weight and bias, keyed 'W1', 'b1', 'W2', 'b2'."""
        return {name: softplus(self.params[name + "_rho"]) for name in LAYERS}

    def kl(self):
        """KL(q ‖ prior) over every weight and bias, and its gradients keyed like `params`."""
        total, grads = 0.0, {}
        for name in LAYERS:
            mu, rho = self.params[name + "_mu"], self.params[name + "_rho"]
            kl, dmu, dsigma = gaussian_kl(mu, softplus(rho), self.prior_mu, self.prior_var)
            total += kl
            grads[name + "_mu"], grads[name + "_rho"] = dmu, dsigma * softplus_grad(rho)
        return total, grads

    def forward(self, X, xi):
        """S sampled outputs ŷ (S, B), and caches, for inputs X (B, n_in) and noise
        xi = [(S, B, H), (S, B, 1)]."""
        X = self._check_X(X)
        xi1, xi2 = self._check_xi(xi, len(X))
        p = self.params
        # z1, a1: (S, B, H); z2: (S, B, 1)
        z1, cache1 = lrt_forward(X, p["W1_mu"], p["W1_rho"], p["b1_mu"], p["b1_rho"], xi1)
        a1, cache_relu = relu_forward(z1)
        z2, cache2 = lrt_forward(a1, p["W2_mu"], p["W2_rho"], p["b2_mu"], p["b2_rho"], xi2)
        return z2[..., 0], (cache1, cache_relu, cache2)

    def loss_and_grads(self, X, y, beta: float, xi):
        """Eq. (2) with a per-example likelihood: β·KL − mean_batch mean_S [−½(ŷ − y)²].

        Returns (loss, grads)."""
        y_hat, (cache1, cache_relu, cache2) = self.forward(X, xi)                           # (S, B)
        y = np.asarray(y, dtype=self.dtype).reshape(-1)
        if y.shape != (y_hat.shape[1],):
            raise ValueError(f"y has {y.size} values, expected {y_hat.shape[1]} to match X")
        r = y_hat - y                                                                       # (S, B)
        # Unit-variance Gaussian likelihood, constants dropped; its weight is per EXAMPLE (a mean,
        # not a sum over the data set), so β alone sets the balance with the prior (as in the
        # authors' `NNs/NNBayes.cs`).
        nll = 0.5 * float(np.mean(r * r))
        kl, dkl = self.kl()
        da1, dW2_mu, dW2_rho, db2_mu, db2_rho = lrt_backward((r / r.size)[..., None], cache2)
        dz1 = relu_backward(da1, cache_relu)
        _, dW1_mu, dW1_rho, db1_mu, db1_rho = lrt_backward(dz1, cache1, need_da=False)
        grads = {"W1_mu": dW1_mu, "W1_rho": dW1_rho, "b1_mu": db1_mu, "b1_rho": db1_rho,
                 "W2_mu": dW2_mu, "W2_rho": dW2_rho, "b2_mu": db2_mu, "b2_rho": db2_rho}
        for name in grads:
            grads[name] = grads[name] + beta * dkl[name]
        return beta * kl + nll, grads

    def sample_xi(self, S: int, batch: int, rng: np.random.Generator):
        """Standard-normal noise for `loss_and_grads`: [(S, batch, H), (S, batch, 1)]."""
        return [rng.standard_normal((S, batch, self.n_hidden), dtype=self.dtype),
                rng.standard_normal((S, batch, 1), dtype=self.dtype)]

    def sample_loss_and_grads(self, X, y, beta: float, S: int, rng: np.random.Generator):
        """`loss_and_grads` with fresh noise from rng: one training step's S-sample objective."""
        return self.loss_and_grads(X, y, beta, self.sample_xi(S, len(X), rng))

    def predict(self, X, K: int, rng: np.random.Generator, chunk_rows: int | None = None):
        """Sample mean and σ_e = population std of K sampled outputs (paper §2); float64 (n,).

        The noise is drawn in the network's dtype (float32 for speed in training runs); rows are
        processed in chunks of `chunk_rows` (default: about 16 MB of hidden-layer noise per chunk).
        """
        X = self._check_X(X)
        if K < 1:
            raise ValueError(f"K must be >= 1, got {K}")
        m1, sqrt_v1 = self._hidden_moments(X)           # (n, H): the same for every sample, so once
        sigma = self.sigmas()
        W2_mu, b2_mu = self.params["W2_mu"], self.params["b2_mu"]
        var_W2, var_b2 = sigma["W2"] ** 2, sigma["b2"] ** 2
        n = len(X)
        chunk = chunk_rows or max(1, _CHUNK_BYTES // (K * self.n_hidden * self.dtype.itemsize))
        mean, sigma_e = np.empty(n), np.empty(n)
        for lo in range(0, n, chunk):
            hi = min(n, lo + chunk)
            # lrt_forward, written in place for speed: ξ becomes z1, then a1, then a1².
            z1 = rng.standard_normal((K, hi - lo, self.n_hidden), dtype=self.dtype)    # (K, c, H)
            z1 *= sqrt_v1[lo:hi]
            z1 += m1[lo:hi]
            a1 = np.maximum(z1, 0, out=z1)
            m2 = a1 @ W2_mu + b2_mu                                                      # (K, c, 1)
            v2 = np.square(a1, out=a1) @ var_W2 + var_b2                                 # (K, c, 1)
            xi2 = rng.standard_normal(m2.shape, dtype=self.dtype)
            y_hat = (m2 + np.sqrt(v2) * xi2)[..., 0]                                     # (K, c)
            # σ_e is a standard deviation, not the paper's σ_e², as the authors'
            # `SearchDomain.Generate` and `NNBayesHeuristic.Update` read it; their formula
            # sqrt(max(0, E[ŷ²] − E[ŷ]²)) (`NNBayesHeuristic.GetSummaryStatistics`), in float64
            # against cancellation.
            mean[lo:hi] = y_hat.mean(axis=0, dtype=np.float64)
            mean_sq = np.square(y_hat, dtype=np.float64).mean(axis=0)
            sigma_e[lo:hi] = np.sqrt(np.maximum(0.0, mean_sq - mean[lo:hi] ** 2))
        return mean, sigma_e

    def predict_exact(self, X):
        """The K → ∞ limit of `predict` in closed form (see tutorial 05); float64 (n,), (n,)."""
        m1, sqrt_v1 = (t.astype(np.float64)
                       for t in self._hidden_moments(self._check_X(X)))        # (n, H) each
        # Given X the hidden units are independent, z_j ~ N(m_j, v_j); moments of relu(z_j):
        alpha = m1 / sqrt_v1
        cdf, pdf = ndtr(alpha), np.exp(-0.5 * alpha ** 2) / np.sqrt(2 * np.pi)
        E_a = m1 * cdf + sqrt_v1 * pdf                                                 # E[a_j]
        E_a2 = m1 * E_a + sqrt_v1 ** 2 * cdf         # E[a_j²] = (m² + v) Φ(t) + m s φ(t), regrouped
        var_a = np.maximum(E_a2 - E_a ** 2, 0.0)
        # ŷ | a ~ N(a·W2_mu + b2_mu, (a²)·σ_W2² + σ_b2²); the law of total variance then gives
        # Var ŷ = Σ_j μ_j² Var a_j + Σ_j σ_j² E[a_j²] + σ_b².
        W2_mu = self.params["W2_mu"][:, 0].astype(np.float64)
        sigma = {k: s.astype(np.float64) for k, s in self.sigmas().items()}
        mean = E_a @ W2_mu + float(self.params["b2_mu"][0])
        var = var_a @ W2_mu ** 2 + E_a2 @ sigma["W2"][:, 0] ** 2 + float(sigma["b2"][0]) ** 2
        return mean, np.sqrt(var)

    def _hidden_moments(self, X):
        """Mean m1 and standard deviation √v1 of the hidden pre-activations, each (n, H)."""
        sigma = self.sigmas()
        m1 = X @ self.params["W1_mu"] + self.params["b1_mu"]
        v1 = (X * X) @ sigma["W1"] ** 2 + sigma["b1"] ** 2
        return m1, np.sqrt(v1)

    def _check_X(self, X):
        X = np.asarray(X, dtype=self.dtype)
        if X.ndim != 2 or X.shape[1] != self.n_in:
            raise ValueError(f"X has shape {X.shape}, expected (n, {self.n_in})")
        return X

    def _check_xi(self, xi, batch: int):
        if len(xi) != 2:
            raise ValueError(f"xi must be a list of two noise arrays, got {len(xi)}")
        xi1, xi2 = (np.asarray(x, dtype=self.dtype) for x in xi)
        S = xi1.shape[0] if xi1.ndim == 3 else -1
        for name, x, shape in (("xi[0]", xi1, (S, batch, self.n_hidden)),
                               ("xi[1]", xi2, (S, batch, 1))):
            if S < 1 or x.shape != shape:
                raise ValueError(f"{name} has shape {x.shape}, expected (S, {batch}, {shape[2]})")
        return xi1, xi2
