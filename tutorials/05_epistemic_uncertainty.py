"""Tutorial 05: epistemic uncertainty with a weight-uncertainty network (WUNN).

Epistemic uncertainty is what the model does not know yet. Go back to the coin of tutorial 04: before the first
flip, p could be anything, and every flip narrows it down. Unlike the coin's aleatoric spread p(1 − p), this
uncertainty is "explained away" by data. A WUNN (Blundell et al. 2015) represents it by keeping a Gaussian
N(μ, σ²) over every weight instead of a single value. Sampling weights and looking at how much the output
moves gives σ_e: the standard deviation of ŷ(x) over K sampled networks (paper §2; we report the standard
deviation, as the authors' code does, where the paper writes the variance σ_e²).

The WUNN is trained with Eq. (2):   β·KL(q(w) ‖ prior) − E_q[log P(D | w)].
The likelihood term pulls weights that the data touches towards values that fit, with small σ. The KL term
pulls every weight back towards the broad prior N(0, 10). A weight that no training input ever uses feels only
the KL term, so its σ drifts up towards √10: the network becomes unsure exactly where it has seen nothing.

Why this matters for the paper. GenerateTaskPrac (paper §4; `SearchDomain.Generate`) builds a training task by
walking backwards from the goal, choosing each step by a softmax over the σ_e of the candidate states, and
stopping at the first state with σ_e ≥ ε = 1. The walk therefore heads for the unknown and stops at the edge of
what the heuristic has learnt. A "Bayesian" network whose σ_e does not grow away from its data is useless for
this: the softmax would be flat, so the walk would be a random walk again, and the threshold would fire at once
or never, giving tasks that teach nothing or tasks the heuristic cannot solve. This tutorial checks the
property directly, on 1-D data with a gap.

What β does. β weighs the prior against the data. Here the likelihood is a MEAN over examples, not a sum (as in
the authors' code), so adding data does not by itself shrink σ_e on the data: β alone sets how far it can fall.
With β large the prior wins and σ_e stays above the training threshold κε (σ_e < 0.8) even where there is data;
the paper starts at β0 = 0.05 and multiplies β by γ whenever training cannot get below that threshold, down to
1e-5 after the last iteration. We will see both effects: σ_e falls where data arrives, and falls as β shrinks.

σ_e in closed form. For this one-hidden-layer network, the local reparameterisation makes each hidden
pre-activation z_j ~ N(m_j, v_j), independent across j given x, with m = x·W1_mu + b1_mu and
v = x²·σ_W1² + σ_b1². So a_j = relu(z_j) is a rectified Gaussian with, writing s = √v_j, t = m_j/s,
    E[a_j] = m_j Φ(t) + s φ(t),    E[a_j²] = (m_j² + s²) Φ(t) + m_j s φ(t).
Given a, the output is ŷ ~ N(a·μ2 + μ_b, (a²)·σ2² + σ_b²), and the law of total variance gives
    E[ŷ] = Σ_j E[a_j] μ2_j + μ_b,    Var[ŷ] = Σ_j μ2_j² Var[a_j] + Σ_j σ2_j² E[a_j²] + σ_b².
`WUNN.predict_exact` computes this; `WUNN.predict` samples K outputs, and the two agree as K grows.

Run from the repository root:  python tutorials/05_epistemic_uncertainty.py
"""
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import la  # noqa: E402,F401  (before NumPy, so that it runs with one BLAS thread: la/__init__.py)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from la.nn import WUNNConfig, build_wunn
from la.plots.style import tutorial_figure_path

SEED = 5
STEPS = 3000                 # WUNN minibatch steps per stage (the authors' cap is 5,050 per iteration)
BATCH = 100                  # MiniBatchSize, paper §5
CENTRES = np.linspace(-1.5, 1.5, 25)
LEFT, RIGHT, GAP = (-1.0, -0.4), (0.4, 1.0), (-0.4, 0.4)


def target(x):
    """A smooth 'cost-to-goal' curve; the WUNN's likelihood assumes unit noise, as on raw puzzle costs."""
    return 10 + 8 * np.sin(2.5 * x)


def bumps(x):
    """Encode x as 25 Gaussian bumps, each input saying 'x is near c_k' (like the puzzle's one-hot bits)."""
    width = CENTRES[1] - CENTRES[0]
    return np.exp(-0.5 * ((x[:, None] - CENTRES) / width) ** 2)


def raw(x):
    """x itself, one input."""
    return x[:, None]


def train(net, opt, encode, x, y, beta, rng):
    """STEPS minibatch steps of Eq. (2), S = 5 noise samples per step."""
    X = encode(x)
    for _ in range(STEPS):
        batch = rng.choice(len(x), BATCH, replace=False)
        _, grads = net.sample_loss_and_grads(X[batch], y[batch], beta, cfg.S, rng)
        opt.step(net.params, grads)


rng = np.random.default_rng(SEED)
cfg = replace(WUNNConfig(), dtype="float64")   # the paper's WUNN: 20 hidden, prior N(0, 10), the authors' Adam
x_sides = np.concatenate([rng.uniform(*LEFT, 150), rng.uniform(*RIGHT, 150)])
x_gap = rng.uniform(*GAP, 100)
y_sides = target(x_sides) + 0.3 * rng.standard_normal(x_sides.size)
y_gap = target(x_gap) + 0.3 * rng.standard_normal(x_gap.size)
grid = np.linspace(-1.5, 1.5, 301)
on_data = ((grid >= LEFT[0]) & (grid <= LEFT[1])) | ((grid >= RIGHT[0]) & (grid <= RIGHT[1]))
in_gap = np.abs(grid) <= 0.25                    # the middle of the gap, away from both edges


def summary(sigma_e):
    return np.median(sigma_e[on_data]), sigma_e[in_gap].max()


# --- 1. On the raw input x, the gap is invisible -----------------------------------------------------------
# With one input, every hidden unit sees the line x·w + b; the gap lies between data on both sides and the
# network cannot raise its uncertainty there (Foong et al. 2019 prove this for one-hidden-layer mean-field
# networks). σ_e grows only by extrapolation, with |x|.
net_raw, opt_raw = build_wunn(cfg, 1, rng)
train(net_raw, opt_raw, raw, x_sides, y_sides, 0.05, rng)
raw_sigma = net_raw.predict_exact(raw(grid))[1]
raw_on, raw_gap = summary(raw_sigma)
print(f"raw x:  sigma_e on data (median) {raw_on:.2f}, in the gap (max) {raw_gap:.2f}")

# --- 2. With bump features, each part of the line has its own weights, as each tile placement does ---------
net, opt = build_wunn(cfg, CENTRES.size, rng)
# Untrained, σ_e is small and flat: large σ_e away from the data is not built in, the KL term builds it while
# the likelihood holds σ down on the data.
curves = {"untrained": net.predict_exact(bumps(grid))[1]}
train(net, opt, bumps, x_sides, y_sides, 0.05, rng)
curves["A: data with a gap, beta 0.05"] = net.predict_exact(bumps(grid))[1]
mean_A = net.predict_exact(bumps(grid))[0]
x_all, y_all = np.concatenate([x_sides, x_gap]), np.concatenate([y_sides, y_gap])
train(net, opt, bumps, x_all, y_all, 0.05, rng)          # the gap gets data: "the tasks were solved"
curves["B: gap filled, beta 0.05"] = net.predict_exact(bumps(grid))[1]
# At β = 0.05 σ_e on the data stays above 0.8, so the paper's training loop would give up and decay β.
train(net, opt, bumps, x_all, y_all, 0.005, rng)         # β shrinks, as the paper's schedule does
curves["C: gap filled, beta 0.005"] = net.predict_exact(bumps(grid))[1]
sampled_mean, sampled_sigma = net.predict(bumps(grid), cfg.K, rng)

print("bumps:  stage                            sigma_e on data   in the gap")
for name, sigma_e in curves.items():
    on, gap = summary(sigma_e)
    print(f"        {name:<32} {on:14.2f} {gap:12.2f}")
err = np.median(np.abs(sampled_sigma / curves["C: gap filled, beta 0.005"] - 1))
print(f"sampled sigma_e (K = {cfg.K}) vs closed form at stage C: median relative difference {err:.3f}")

# --- figure ------------------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
ax = axes[0]
sigma_A = curves["A: data with a gap, beta 0.05"]
ax.fill_between(grid, mean_A - 2 * sigma_A, mean_A + 2 * sigma_A, alpha=0.3, label="mean ± 2 sigma_e")
ax.plot(grid, mean_A, label="WUNN mean")
ax.plot(x_sides, y_sides, ".", ms=3, color="k", label="training data")
ax.plot(grid, target(grid), "--", color="gray", label="target")
ax.set(title="A: the WUNN after training on data with a gap", xlabel="x", ylabel="y", ylim=(-10, 30))
ax.legend(fontsize=8)
ax = axes[1]
for name, sigma_e in curves.items():
    ax.plot(grid, sigma_e, label=name)
ax.plot(grid[::6], sampled_sigma[::6], "k.", ms=4, label=f"C sampled, K = {cfg.K}")
ax.axhline(1.0, color="r", lw=0.8, ls=":", label="epsilon = 1 (task generation)")
ax.axhline(0.8, color="m", lw=0.8, ls=":", label="0.8 = sqrt(kappa epsilon) (training)")
for lo, hi in (LEFT, RIGHT):
    ax.axvspan(lo, hi, color="k", alpha=0.07)
ax.set(title="sigma_e falls where data arrives and as beta shrinks", xlabel="x (shaded: stage-A data)",
       ylabel="sigma_e", yscale="log", ylim=(0.04, 8))
ax.legend(fontsize=7, loc="lower center", ncol=2)
ax = axes[2]
ax.plot(grid, raw_sigma, label="raw x input")
ax.plot(grid, sigma_A, label="bump features")
for lo, hi in (LEFT, RIGHT):
    ax.axvspan(lo, hi, color="k", alpha=0.07)
ax.set(title="after stage A: only the bump features see the gap", xlabel="x", ylabel="sigma_e", yscale="log")
ax.legend(fontsize=8)
fig.tight_layout()
out = tutorial_figure_path(__file__)                    # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# --- the point, loosely ----------------------------------------------------------------------------------------
on_A, gap_A = summary(curves["A: data with a gap, beta 0.05"])
on_B, gap_B = summary(curves["B: gap filled, beta 0.05"])
on_C, gap_C = summary(curves["C: gap filled, beta 0.005"])
assert gap_A > 3 * on_A, "sigma_e should be several times larger in the gap than on the data"
assert gap_B < gap_A / 2, "sigma_e in the gap should fall once the gap has data"
assert on_C < on_B, "sigma_e on the data should fall as beta shrinks"
assert raw_gap / raw_on < (gap_A / on_A) / 2, "on raw x the gap should be (nearly) invisible"
assert err < 0.15, "K = 100 samples should estimate sigma_e to within about 1/sqrt(2K)"
