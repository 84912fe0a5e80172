"""Tutorial 05: epistemic uncertainty with a weight-uncertainty network (WUNN).

Epistemic uncertainty is what the model does not know yet. Go back to the coin of tutorial 04:
before the first flip, p could be anything, and every flip narrows it down. Unlike the coin's
aleatoric spread p(1 − p), this uncertainty is "explained away" by data. A WUNN (Blundell et al.
2015) represents it by keeping a Gaussian N(μ, σ²) over every weight instead of a single value.
Sampling weights and looking at how much the output moves gives σ_e: the standard deviation of ŷ(x)
over K sampled networks (paper §2; we report the standard deviation, as the authors' code does,
where the paper writes the variance σ_e²).

The WUNN is trained with Eq. (2):   β·KL(q(w) ‖ prior) − E_q[log P(D | w)], where
    q(w)                the Gaussians over the weights w that training adjusts: per weight a mean μ
                        and a σ, kept as ρ with σ = softplus(ρ) = ln(1 + e^ρ), so that any real ρ
                        gives σ > 0 (μ_W, ρ_W in part 3);
    KL(q ‖ prior)       the Kullback–Leibler divergence: how far q lies from the prior, 0 when they
                        are equal;
    E_q[log P(D | w)]   the log-likelihood of the data D, averaged over weights w drawn from q; each
                        training step estimates it from S = 5 sampled outputs per minibatch row
                        (paper §5; part 3 shows how).
The likelihood term pulls weights that the data touches towards values that fit, with small σ. The
KL term pulls every weight back towards the broad prior N(0, 10), variance 10. A weight that no
training input ever uses feels only the KL term, so its σ drifts up towards √10: the network becomes
unsure exactly where it has seen nothing.

Why this matters for the paper. GenerateTaskPrac (paper §4; tutorial 09) builds a training task by
walking backwards from the goal, choosing each step by a softmax over the σ_e of the candidate
states, and stopping at the first state with σ_e >= ε = 1. The walk therefore heads for the unknown
and stops at the edge of what the heuristic has learnt. A "Bayesian" network whose σ_e does not grow
away from its data is useless for this: the softmax would be flat, so the walk would be a random
walk again, and the threshold would fire at once or never, giving tasks that teach nothing or tasks
the heuristic cannot solve. This tutorial checks the property directly, on 1-D data with a gap.

What β does. β weighs the prior against the data. Eq. (2) as written sums the log-likelihood over
the data; the authors' code takes its mean over the examples instead (their repository
OfirMarom/LearnHeuristicWithUncertaintly, `HeuristicSearch/NNs/NNBayes.cs`), and `la` follows it, so
adding data does not by itself shrink σ_e on the data: β alone sets how far it can fall.
LearnHeuristicPrac, the paper's training loop (Alg. 2; tutorial 07), runs for NumIter iterations
(NumIter = 50 in the paper's Table 1 experiment): each plans a few tasks and then trains both
networks on what the plans taught. In each, it trains the WUNN until σ_e² < κε on every training
record, where κ is a constant below 1 (κ = 0.64, paper §5): the target lies a margin below the ε at
which GenerateTaskPrac calls a state unknown (tutorial 08 says why). That is the paper's test, on
the variance; `la`, with σ_e a standard deviation, tests σ_e < √(κε) = 0.8, which is the same test.
With β large the prior wins and σ_e stays above 0.8 even where there is data; so the paper starts
at β0 = 0.05 and, whenever training cannot get below 0.8, multiplies β by a decay factor
γ = (β_NumIter/β0)^(1/NumIter) < 1, chosen so that NumIter decays would take β from β0 down to
β_NumIter = 1e-5 (tutorial 08 prints γ). At most NumIter − 2 decays can happen (tutorial 10 says
why), so β never quite gets there (NumIter, κ, γ and the rest: tutorials/GLOSSARY.md). We will
see both effects: σ_e falls where data arrives, and falls as β shrinks.

Sampled weights, or sampled pre-activations (part 3). Training needs the gradient of
E_q[log P(D | w)], an average over weights drawn from the WUNN's Gaussians. Drawing one set of
weights per minibatch step (the paper's §2) makes every row of the minibatch share the same draw, so
their errors add up instead of averaging out. The local reparameterisation trick (Kingma, Salimans &
Welling 2015; paper §5: "to reduce variance") draws instead, for every row, the layer's
pre-activation z = a·W + b itself: given the inputs a, it is Gaussian with mean m = a·μ_W + μ_b and
variance v = (a²)·σ_W² + σ_b², so z = m + √v·ξ with ξ ~ N(0, 1) for every row and unit. Per row, z
has the same distribution as before; across rows the draws are independent. Part 3 checks both on
one layer, and measures the gradients' variance.

σ_e in closed form. For this one-hidden-layer network, each hidden pre-activation is
z_j ~ N(m_j, v_j), as above, independent across j given x, with m = x·W1_mu + b1_mu and
v = x²·σ_W1² + σ_b1². So a_j = relu(z_j) is a rectified Gaussian with, writing s = √v_j, t = m_j/s,
    E[a_j] = m_j Φ(t) + s φ(t),    E[a_j²] = (m_j² + s²) Φ(t) + m_j s φ(t).
Given a, the output is ŷ ~ N(a·μ2 + μ_b, (a²)·σ2² + σ_b²), and the law of total variance gives
    E[ŷ] = Σ_j E[a_j] μ2_j + μ_b,    Var[ŷ] = Σ_j μ2_j² Var[a_j] + Σ_j σ2_j² E[a_j²] + σ_b².
`WUNN.predict_exact` computes this; `WUNN.predict` samples K outputs, and the two agree as K grows.

Run from the repository root:  python tutorials/05_epistemic_uncertainty.py
"""
import sys
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt
import numpy as np

from la.nn import WUNNConfig, build_wunn
from la.nn.layers import softplus, softplus_grad
from la.nn.wunn import lrt_backward, lrt_forward

# %%
SEED = 5
STEPS = 3000                 # WUNN minibatch steps per stage
                             # (LearnHeuristicPrac's Update: at most 5,050)
BATCH = 100                  # MiniBatchSize, paper §5
BETA_C = 0.005               # stage C's β (exercise 1)
LRT_BATCH = 100              # part 3's minibatch (exercise 2)
K_CHECK = 100                # samples for σ_e, as the paper's K (exercise 3)
CENTRES = np.linspace(-1.5, 1.5, 25)
LEFT, RIGHT, GAP = (-1.0, -0.4), (0.4, 1.0), (-0.4, 0.4)


def target(x):
    """A smooth 'cost-to-goal' curve; the WUNN's likelihood assumes unit noise, as on raw puzzle
    costs."""
    return 10 + 8 * np.sin(2.5 * x)


def bumps(x):
    """Encode x as 25 Gaussian bumps, each input saying 'x is near c_k' (like the puzzle's one-hot
    bits)."""
    width = CENTRES[1] - CENTRES[0]
    return np.exp(-0.5 * ((x[:, None] - CENTRES) / width) ** 2)


def raw(x):
    """x itself, one input."""
    return x[:, None]


def train(net, opt, encode, x, y, beta, rng):
    """STEPS minibatch steps of Eq. (2), each estimating E_q from cfg.S = 5 sampled outputs per
    minibatch row."""
    X = encode(x)
    for _ in range(STEPS):
        batch = rng.choice(len(x), BATCH, replace=False)
        _, grads = net.sample_loss_and_grads(X[batch], y[batch], beta, cfg.S, rng)
        opt.step(net.params, grads)


rng = np.random.default_rng(SEED)
# the paper's WUNN: 20 hidden, prior N(0, 10), the authors' Adam. Adam (tutorial 03) divides its
# bias-corrected first moment m/(1 − β1^t) by the root of its bias-corrected second moment
# v/(1 − β2^t); the authors' TensorFlow optimiser kept both corrections at their step-1 values,
# 1 − β1 and 1 − β2, for ever (`TFComponents/AdamOptimizer.cs`, `AdamOptimizer.Apply`). Once m and
# v have grown from 0 to the gradients' scale, every step is then √(1 − β2)/(1 − β1) = 0.32 of
# textbook Adam's: an effective learning rate of 0.0032 for the paper's 0.01. `la` keeps that
# (`la.nn.config.WUNNConfig`: it is the optimiser behind the paper's numbers; how fast σ_e falls
# decides how many tasks and β decays each iteration gets), and adds Nesterov's momentum as theirs.
cfg = replace(WUNNConfig(), dtype="float64")
x_sides = np.concatenate([rng.uniform(*LEFT, 150), rng.uniform(*RIGHT, 150)])
x_gap = rng.uniform(*GAP, 100)
y_sides = target(x_sides) + 0.3 * rng.standard_normal(x_sides.size)
y_gap = target(x_gap) + 0.3 * rng.standard_normal(x_gap.size)
grid = np.linspace(-1.5, 1.5, 301)
on_data = ((grid >= LEFT[0]) & (grid <= LEFT[1])) | ((grid >= RIGHT[0]) & (grid <= RIGHT[1]))
in_gap = np.abs(grid) <= 0.25                    # the middle of the gap, away from both edges


def summary(sigma_e):
    return np.median(sigma_e[on_data]), sigma_e[in_gap].max()


# %%
# --- 1. On the raw input x, the gap is invisible --------------------------------------------------
# With one input, every hidden unit sees the line x·w + b; the gap lies between data on both sides
# and the network cannot raise its uncertainty there (Foong et al. 2019 prove this for
# one-hidden-layer mean-field networks). σ_e grows only by extrapolation, with |x|.
net_raw, opt_raw = build_wunn(cfg, 1, rng)
train(net_raw, opt_raw, raw, x_sides, y_sides, 0.05, rng)
raw_sigma = net_raw.predict_exact(raw(grid))[1]
raw_on, raw_gap = summary(raw_sigma)
print(f"raw x:  sigma_e on data (median) {raw_on:.2f}, in the gap (max) {raw_gap:.2f}")

# %%
# --- 2. With bump features, each part of the line has its own weights, as each tile placement does
net, opt = build_wunn(cfg, CENTRES.size, rng)
# Untrained, σ_e is small and flat: large σ_e away from the data is not built in, the KL term builds
# it while the likelihood holds σ down on the data.
curves = {"untrained": net.predict_exact(bumps(grid))[1]}
train(net, opt, bumps, x_sides, y_sides, 0.05, rng)
curves["A: data with a gap, beta 0.05"] = net.predict_exact(bumps(grid))[1]
mean_A = net.predict_exact(bumps(grid))[0]
x_all, y_all = np.concatenate([x_sides, x_gap]), np.concatenate([y_sides, y_gap])
train(net, opt, bumps, x_all, y_all, 0.05, rng)    # the gap gets data: "the tasks were solved"
curves["B: gap filled, beta 0.05"] = net.predict_exact(bumps(grid))[1]
# At β = 0.05 σ_e on the data stays above 0.8, so the paper's training loop would give up and decay
# β.
train(net, opt, bumps, x_all, y_all, BETA_C, rng)  # β shrinks, as the paper's schedule does
curves[f"C: gap filled, beta {BETA_C:g}"] = net.predict_exact(bumps(grid))[1]
sampled_mean, sampled_sigma = net.predict(bumps(grid), K_CHECK, rng)

print("bumps:  stage                            sigma_e on data   in the gap")
for name, sigma_e in curves.items():
    on, gap = summary(sigma_e)
    print(f"        {name:<32} {on:14.2f} {gap:12.2f}")
err = np.median(np.abs(sampled_sigma / curves[f"C: gap filled, beta {BETA_C:g}"] - 1))
print(f"sampled sigma_e (K = {K_CHECK}) vs closed form at stage C: "
      f"median relative difference {err:.3f}")

# %%
# --- 3. Sampled weights, or sampled pre-activations: the local reparameterisation trick -----------
# One layer of the WUNN's kind, 20 inputs -> 20 units, with weight means and σ's of the sizes a
# trained WUNN has, and a minibatch of LRT_BATCH non-negative inputs (a hidden layer's ReLU outputs
# are non-negative). R draws of its pre-activations z, three ways:
#   shared:  one weight matrix W ~ N(μ_W, σ_W²) for the whole minibatch, z = a·W + b (Eq. 2's
#            sampling, paper §2);
#   per row: a weight matrix of its own for every row: the same distribution per row, B times the
#            random numbers;
#   LRT:     z = m + √v·ξ with one ξ per row and unit (`la.nn.wunn.lrt_forward`: what the WUNN
#            does).
# The loss is L = (1/B) Σ_rows ½ |z − t|² for fixed targets t; each draw gives a gradient of it for
# μ_W and ρ_W (the weights' means and ρ's, σ_W = softplus(ρ_W)), all three estimators of the same
# expected gradient. The smaller their variance, the less noisy each step.
R, N_IN, N_OUT = 2000, 20, 20
lrng = np.random.default_rng([SEED, 3])
a = np.maximum(lrng.standard_normal((LRT_BATCH, N_IN)), 0)     # (B, n_in)
W_mu, W_rho = lrng.normal(0, 0.3, (N_IN, N_OUT)), lrng.normal(-1.5, 0.5, (N_IN, N_OUT))
b_mu, b_rho = np.zeros(N_OUT), np.full(N_OUT, -5.0)
sigma_W, sigma_b = softplus(W_rho), softplus(b_rho)
t = lrng.standard_normal((LRT_BATCH, N_OUT))
m, v = a @ W_mu + b_mu, (a * a) @ sigma_W ** 2 + sigma_b ** 2  # (B, n_out): z's mean and variance
draws = {}
eps = lrng.standard_normal((R, N_IN, N_OUT))                   # shared: one W per draw
z = (np.einsum("bi,rij->rbj", a, W_mu + sigma_W * eps) + b_mu
     + sigma_b * lrng.standard_normal((R, 1, N_OUT)))
dW = np.einsum("bi,rbj->rij", a, (z - t) / LRT_BATCH)          # dL/dW, (R, n_in, n_out)
draws["shared"] = z, dW, dW * eps * softplus_grad(W_rho)
z_rows, dmu_rows, drho_rows = [], [], []
for chunk in range(0, R, 100):                                 # per row: one W per row and draw
    eps_b = lrng.standard_normal((100, LRT_BATCH, N_IN, N_OUT))
    zc = (np.einsum("bi,rbij->rbj", a, W_mu + sigma_W * eps_b) + b_mu
          + sigma_b * lrng.standard_normal((100, LRT_BATCH, N_OUT)))
    dW_b = a[None, :, :, None] * ((zc - t) / LRT_BATCH)[:, :, None, :]         # (r, B, n_in, n_out)
    z_rows.append(zc)
    dmu_rows.append(dW_b.sum(axis=1))
    drho_rows.append((dW_b * eps_b).sum(axis=1) * softplus_grad(W_rho))
draws["per row"] = np.concatenate(z_rows), np.concatenate(dmu_rows), np.concatenate(drho_rows)
xi = lrng.standard_normal((R, LRT_BATCH, N_OUT))
z, cache = lrt_forward(a, W_mu, W_rho, b_mu, b_rho, xi)        # (R, B, n_out), all draws at once
dz = (z - t) / LRT_BATCH
dv = dz * xi / (2 * np.sqrt(v))                                # per draw, what lrt_backward sums
draws["LRT"] = (z, np.einsum("bi,rbj->rij", a, dz),
                np.einsum("bi,rbj->rij", a * a, dv) * 2 * sigma_W * softplus_grad(W_rho))
_, dW_mu0, dW_rho0, _, _ = lrt_backward(dz[:1], lrt_forward(a, W_mu, W_rho, b_mu, b_rho, xi[:1])[1])
assert np.allclose(dW_mu0, draws["LRT"][1][0]) and np.allclose(dW_rho0, draws["LRT"][2][0]), (
    "as the WUNN computes it")
print(f"\none layer, {N_IN} -> {N_OUT} units, a minibatch of {LRT_BATCH} rows, "
      f"{R:,} draws each way:")
print(f"{'':9} {'z: mean − m':>12} {'z: var/v − 1':>13} | gradient variance for μ_W   for ρ_W "
      "(mean over the weights)")
lrt_stats = {}
for name, (z, dmu, drho) in draws.items():
    mean_err = np.median(np.abs(z.mean(axis=0) - m) / np.sqrt(v))  # in standard deviations
    var_err = np.median(np.abs(z.var(axis=0) / v - 1))
    lrt_stats[name] = (mean_err, var_err, dmu.var(axis=0).mean(), drho.var(axis=0).mean())
    print(f"{name:9} {mean_err:12.3f} {var_err:13.3f} | "
          f"{lrt_stats[name][2]:25.2e} {lrt_stats[name][3]:9.2e}")
print("(the z columns: medians over rows and units, in z's standard deviations "
      "and as a share of its variance)")
ratio = {name: (lrt_stats[name][2] / lrt_stats["LRT"][2], lrt_stats[name][3] / lrt_stats["LRT"][3])
         for name in draws}
print(f"against LRT, the shared draw's gradients have {ratio['shared'][0]:.0f}x the variance "
      f"for μ_W and {ratio['shared'][1]:.0f}x for ρ_W; "
      f"a draw per row {ratio['per row'][0]:.1f}x and {ratio['per row'][1]:.1f}x")
# Reading it. Per row and unit, the three give z the same mean and variance (the errors are of the
# size that 2,000 draws leave). The shared draw's gradient adds up B rows that all saw the same
# weights, so its noise does not average out over the minibatch; the two per-row ways are
# independent across rows. LRT needs one random number per row and unit where a draw per row needs
# one per row and weight, and for ρ_W its gradient is also the less noisy of the two.

# %%
# --- figure ---------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 4, figsize=(20, 4.2))
ax = axes[0]
sigma_A = curves["A: data with a gap, beta 0.05"]
ax.fill_between(grid, mean_A - 2 * sigma_A, mean_A + 2 * sigma_A, alpha=0.3,
                label="mean ± 2 sigma_e")
ax.plot(grid, mean_A, label="WUNN mean")
ax.plot(x_sides, y_sides, ".", ms=3, color="k", label="training data")
ax.plot(grid, target(grid), "--", color="gray", label="target")
ax.set(title="A: the WUNN after training on data with a gap", xlabel="x", ylabel="y",
       ylim=(-10, 30))
ax.legend(fontsize=8)
ax = axes[1]
for name, sigma_e in curves.items():
    ax.plot(grid, sigma_e, label=name)
ax.plot(grid[::6], sampled_sigma[::6], "k.", ms=4, label=f"C sampled, K = {K_CHECK}")
ax.axhline(1.0, color="r", lw=0.8, ls=":", label="epsilon = 1 (task generation)")
ax.axhline(0.8, color="m", lw=0.8, ls=":", label="0.8 = sqrt(kappa epsilon) (training)")
for lo, hi in (LEFT, RIGHT):
    ax.axvspan(lo, hi, color="k", alpha=0.07)
ax.set(title="sigma_e falls where data arrives and as beta shrinks",
       xlabel="x (shaded: stage-A data)", ylabel="sigma_e", yscale="log", ylim=(0.04, 8))
ax.legend(fontsize=7, loc="lower center", ncol=2)
ax = axes[2]
ax.plot(grid, raw_sigma, label="raw x input")
ax.plot(grid, sigma_A, label="bump features")
for lo, hi in (LEFT, RIGHT):
    ax.axvspan(lo, hi, color="k", alpha=0.07)
ax.set(title="after stage A: only the bump features see the gap", xlabel="x", ylabel="sigma_e",
       yscale="log")
ax.legend(fontsize=8)
ax = axes[3]
names = list(draws)
ax.bar(np.arange(3) - 0.2, [lrt_stats[n][2] for n in names], 0.4, label="for μ_W")
ax.bar(np.arange(3) + 0.2, [lrt_stats[n][3] for n in names], 0.4, label="for ρ_W")
ax.set_xticks(np.arange(3), names)
ax.set(title=f"one layer: gradient variance over {R:,} draws",
       ylabel="variance, mean over weights", yscale="log")
ax.legend(fontsize=8)
fig.tight_layout()
out = figure_path("05_epistemic_uncertainty")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
on_A, gap_A = summary(curves["A: data with a gap, beta 0.05"])
on_B, gap_B = summary(curves["B: gap filled, beta 0.05"])
on_C, gap_C = summary(curves[f"C: gap filled, beta {BETA_C:g}"])
assert gap_A > 3 * on_A, "sigma_e should be several times larger in the gap than on the data"
assert gap_B < gap_A / 2, "sigma_e in the gap should fall once the gap has data"
assert on_C < on_B, "sigma_e on the data should fall as beta shrinks"
assert raw_gap / raw_on < (gap_A / on_A) / 2, "on raw x the gap should be (nearly) invisible"
assert err < 2 / np.sqrt(2 * K_CHECK), "K samples estimate sigma_e to within about 1/sqrt(2K)"
assert all(st[0] < 0.05 and st[1] < 0.05 for st in lrt_stats.values()), (
    "the same mean and variance, per row")
assert min(ratio["shared"]) > 1.5, (
    "a weight draw shared by the minibatch gives noisier gradients than LRT")
assert 0.8 < ratio["per row"][0] < 1.25 and ratio["per row"][1] > 1, \
    "a draw per row: as noisy as LRT for μ_W, noisier for ρ_W"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set BETA_C = 0.0005: at stage C the prior weighs even less, and σ_e on the data falls further
#    than at 0.005.
# 2. Set LRT_BATCH = 10: fewer rows share the one weight draw, so in part 3 the shared draw's excess
#    variance over LRT shrinks.
# 3. Set K_CHECK = 10: the sampled σ_e of part 2 now differs from the closed form by about three
#    times as much, as 1/√(2K) says.

