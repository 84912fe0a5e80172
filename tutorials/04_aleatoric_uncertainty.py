"""Tutorial 04: aleatoric uncertainty, learnt by a network with two outputs.

Start with a coin that lands heads with probability p = 0.7, and suppose we do not know p. Two
different things are uncertain here. Before we have flipped it, we do not know p: that is EPISTEMIC
uncertainty, and it shrinks as flips come in (the standard error of the estimate p̂ falls like
1/√n). But even once we know p exactly, we cannot say how the next flip will land: a single flip has
spread √(p(1 − p)) ≈ 0.46 however much data we have. That irreducible noise is ALEATORIC
uncertainty. Part 1 below shows both numbers side by side.

In the paper the "coin" is the cost-to-goal of a state. Training plans are not all optimal, and the
same features can belong to states with different costs, so the targets are noisy, and more so in
some regions of the state space than in others. The planning network therefore has two outputs: a
mean μ and a φ that gives σ_a = softplus(clip(φ, −5, 1)), trained with Eq. (1), the Gaussian
negative log-likelihood
    L = (1/B) Σ (μ − y)²/(2σ_a²) + ln σ_a.
The first term alone would make σ_a huge; the second alone would make it tiny; the minimum over σ_a
for a fixed residual is σ_a² = (μ − y)², so on average σ_a learns the local noise level. A noise
level that changes with x is called heteroscedastic, and part 2 checks that the network recovers one
we chose.

Why it matters: the likely-admissible heuristic of the paper plans with a quantile, not the mean,
    y^α = μ − σ_t·Φ⁻¹(α),   σ_t = σ_a at test time (paper §5),
which underestimates the cost-to-goal with probability α (Φ⁻¹ is the standard normal's inverse
distribution function: Φ⁻¹(0.95) = 1.645, so y^0.95 lies 1.645 σ_t below the mean). σ_t is the total
spread, σ_a combined with the epistemic spread σ_e of tutorial 05 (the paper's Eq. (3):
σ_t² = σ_a² + σ_e²; tutorial 06 says which is used when). At test time the probability α holds in
every region only if σ_a is right everywhere: part 3 shows that a single noise level for all x gets
the α right on average but wrong locally. (The authors train this network on y/10 so that σ_a's clip
range, printed first, covers a fraction of a move to 13 moves, and use 2.5 % dropout on its hidden
layer: at each training step every hidden unit is set to zero with probability 2.5 % and the others
are scaled up by 1/0.975; when predicting, none is dropped. `FFNN` draws each dropout mask from the
rng it was built with.)

Run from the repository root:  python tutorials/04_aleatoric_uncertainty.py
"""
import sys

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import norm

from la.nn import FFNN, Adam
from la.nn.layers import softplus

# %%
SEED = 4
STEPS = 2000                     # Adam steps per network (exercise 3)
ALPHA = 0.95                     # admissibility probability, one of the paper's test values
                                 # (exercise 2)
EDGE_NOISE = 0.45                # how much noisier the edges are than the middle (exercise 1)
rng = np.random.default_rng(SEED)
low, high = softplus(np.array([-5.0, 1.0]))
print(f"σ_a = softplus(clip(φ, −5, 1)) lies in [{low:.4f}, {high:.3f}]: "
      f"on y/10, {10 * low:.3f} to {10 * high:.1f} moves\n")

# %%
# --- 1. The coin: epistemic uncertainty shrinks with data, aleatoric does not ---------------------
p = 0.7
print("flips   estimate p   epistemic: std error of p   aleatoric: spread of one flip")
for n in (10, 100, 1_000, 10_000):
    p_hat = rng.binomial(1, p, n).mean()
    spread = np.sqrt(p_hat * (1 - p_hat))
    print(f"{n:6d}   {p_hat:10.3f}   {spread / np.sqrt(n):26.4f}   {spread:28.3f}")


# %%
# --- 2. Learn a noise level that varies with x ----------------------------------------------------
def f(x):
    return np.sin(3 * x)


def sigma_true(x):
    return 0.05 + EDGE_NOISE * x ** 2    # quiet in the middle, noisy at the edges


x = rng.uniform(-1, 1, 2000)
y = f(x) + sigma_true(x) * rng.standard_normal(x.size)
# Learning rate 0.01 rather than the paper's 0.001 so that the toy problem trains in seconds.
two = FFNN(n_in=1, n_hidden=20, n_out=2, rng=rng)
one = FFNN(n_in=1, n_hidden=20, n_out=1, rng=rng)        # the mean-only network, for comparison
for net in (two, one):
    opt = Adam(net.params, lr=0.01)
    for _ in range(STEPS):
        opt.step(net.params, net.loss_and_grads(x[:, None], y)[1])
sigma_one = float(np.sqrt(np.mean((one.predict(x[:, None])[0] - y) ** 2)))   # one σ for every x

probe = np.array([-0.9, -0.5, 0.0, 0.5, 0.9])
_, sigma_probe = two.predict(probe[:, None])
print("\n   x   true noise   learnt sigma_a")
for xi, s_true, s in zip(probe, sigma_true(probe), sigma_probe):
    print(f"{xi:5.1f}   {s_true:10.3f}   {s:14.3f}")
print(f"the mean-only network's single noise level: {sigma_one:.3f}")

# %%
# --- 3. Does y^α underestimate with probability α, in every region? -------------------------------
x_test = rng.uniform(-1, 1, 20_000)
y_test = f(x_test) + sigma_true(x_test) * rng.standard_normal(x_test.size)
mu_two, sigma_a = two.predict(x_test[:, None])
mu_one, _ = one.predict(x_test[:, None])
z = norm.ppf(1 - ALPHA)                                  # −1.645 for α = 0.95
y_alpha_two, y_alpha_one = mu_two + sigma_a * z, mu_one + sigma_one * z
middle, edges = np.abs(x_test) < 0.4, np.abs(x_test) > 0.7
print(f"\nfraction of test targets with y^alpha <= y (want {ALPHA}):   all    |x|<0.4   |x|>0.7")
for name, y_alpha in (("sigma_a from the two-output net", y_alpha_two),
                      ("one sigma for all x", y_alpha_one)):
    ok = y_alpha <= y_test
    print(f"  {name:<46} {ok.mean():6.3f} {ok[middle].mean():9.3f} {ok[edges].mean():9.3f}")
coverage_two = [(y_alpha_two <= y_test)[m].mean() for m in (middle, edges)]
coverage_one = [(y_alpha_one <= y_test)[m].mean() for m in (slice(None), middle, edges)]

# %%
# --- figure ---------------------------------------------------------------------------------------
grid = np.linspace(-1, 1, 201)
mu_grid, sigma_grid = two.predict(grid[:, None])
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
ax = axes[0]
ax.plot(x, y, ".", ms=2, color="k", alpha=0.4, label="training data")
ax.plot(grid, mu_grid, label="mu")
ax.fill_between(grid, mu_grid + z * sigma_grid, mu_grid - z * sigma_grid, alpha=0.3,
                label=f"mu ± {abs(z):.3f} sigma_a (the alpha = {ALPHA} band)")
ax.plot(grid, mu_grid + z * sigma_grid, lw=1, color="C2", label="y^alpha, the heuristic's value")
ax.set(title="two outputs: a mean and a noise level", xlabel="x", ylabel="y")
ax.legend(fontsize=8)
ax = axes[1]
ax.plot(grid, sigma_true(grid), "--", color="k", label="true noise level")
ax.plot(grid, sigma_grid, label="learnt sigma_a")
ax.axhline(sigma_one, color="C3", label="mean-only net: one sigma for all x")
ax.set(title="sigma_a learns the heteroscedastic noise", xlabel="x", ylabel="standard deviation")
ax.legend(fontsize=8)
fig.tight_layout()
out = figure_path("04_aleatoric_uncertainty")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert np.allclose(sigma_probe, sigma_true(probe), rtol=0.3), (
    "sigma_a should recover the noise level")
assert all(abs(c - ALPHA) < 0.04 for c in coverage_two), (
    "y^alpha should hold with probability alpha locally")
assert abs(coverage_one[0] - ALPHA) < 0.02, "one sigma for all x gets alpha right on average"
if EDGE_NOISE > 0.2 and ALPHA > 0.6:                 # with α = 0.5, σ plays no part (exercise 2)
    assert max(abs(c - ALPHA) for c in coverage_one[1:]) > 0.04, (
        "... but wrong where the noise differs")

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set EDGE_NOISE = 0: the noise is the same everywhere. The two-output network learns a flat σ_a,
#    and one σ for all x now gets α right in the middle and at the edges too.
# 2. Set ALPHA = 0.5: y^α is the mean, and both rows of part 3 print about 0.5 everywhere: with
#    σ_t·Φ⁻¹(0.5) = 0, σ no longer matters.
# 3. Set STEPS = 200: the learnt σ_a in part 2 is further from the true noise, most of all at the
#    noisy edges.
