"""Tutorial 03: backpropagation by hand, for the planning network.

The heuristic that plans in the paper is a small feed-forward network (FFNN): 128 inputs (the
15-puzzle's one-hot encoding, tutorial 01 section 5), 20 hidden ReLU units, and one or two linear
outputs. Training it needs the gradient of a loss with respect to every weight, and with one hidden
layer we can write that gradient down by hand. The authors' code (their repository
OfirMarom/LearnHeuristicWithUncertaintly) writes this network by hand in C# but leaves the gradients
of the WUNN of tutorial 05 to TensorFlow; here every step of both is written out in NumPy, nothing
hidden.

The two outputs. With one output the network predicts μ, its estimate of the cost-to-goal, and
learns by the squared error ½(μ − y)². With two, the second output φ is turned into a spread
σ_a = softplus(clip(φ, −5, 1)), softplus(x) = ln(1 + e^x) > 0, and the loss is the paper's Eq. (1),
the mean over the batch of
    (μ − y)²/(2σ_a²) + ln σ_a.
Tutorial 04 says what σ_a is for; here only its gradient matters. (The clip keeps σ_a between
softplus(−5) = 0.0067 and softplus(1) = 1.31, as the authors' code does.)

Every layer in `la.nn.layers` is a pair of functions:
    forward(inputs)        -> (output, cache)     the cache keeps what the backward pass will need
    backward(d_output, cache) -> d_inputs, d_weights
and the chain rule does the rest: run the forward passes in order, then the backward passes in
reverse, each turning "how the loss changes with my output" into "how the loss changes with my
inputs and my weights".
For the mean-only network with loss L = (1/B) Σ ½(μ − y)²:
    z1 = X·W1 + b1,  a1 = relu(z1),  μ = a1·W2 + b2                      (forward)
    dμ = (μ − y)/B,  dW2 = a1ᵀ·dμ,  da1 = dμ·W2ᵀ,  dz1 = da1 ⊙ [z1 > 0],  dW1 = Xᵀ·dz1   (backward)
The 1/B of the batch mean is applied once, to dμ, so no layer needs to know the batch size.

How do we know the algebra is right? Compare it with finite differences: nudge one weight by ±h,
recompute the loss, and divide, (L(θ + h) − L(θ − h))/2h. This is slow (two forward passes per
weight) but needs no algebra. In float64 with h = 1e-6 the two should agree to a relative error far
below 1e-6; a wrong sign or a missing factor shows up as an error of order 1. Then, with gradients
we trust, Adam fits a toy function.

Run from the repository root:  python tutorials/03_backprop_by_hand.py
"""
import sys

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt
import numpy as np

from la.nn import FFNN, Adam
from la.nn.gradcheck import check_grads, report
from la.nn.layers import dense_backward, dense_forward, relu_backward, relu_forward

# %%
SEED = 3
STEPS = 2000                     # section 3's Adam steps (exercise 2)
LR = 0.01                        # section 3's learning rate (exercise 3)
rng = np.random.default_rng(SEED)

# %%
# --- 1. One forward and one backward pass, layer by layer -----------------------------------------
# float64, the default, for exact checks
net = FFNN(n_in=4, n_hidden=6, n_out=1, rng=rng)
X, y = rng.standard_normal((8, 4)), rng.standard_normal(8)     # a batch of B = 8 rows
p = net.params
z1, cache1 = dense_forward(X, p["W1"], p["b1"])                 # (8, 6)
a1, cache_relu = relu_forward(z1)                               # (8, 6)
out, cache2 = dense_forward(a1, p["W2"], p["b2"])               # (8, 1)
mu = out[:, 0]
loss = 0.5 * np.mean((mu - y) ** 2)
dmu = (mu - y) / len(y)                                         # the batch mean's 1/B, applied once
da1, dW2, db2 = dense_backward(dmu[:, None], cache2)
dz1 = relu_backward(da1, cache_relu)
_, dW1, db1 = dense_backward(dz1, cache1)
by_hand = {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}
net_loss, net_grads = net.loss_and_grads(X, y)                  # the same steps, inside FFNN
assert abs(net_loss - loss) < 1e-12
assert all(np.allclose(by_hand[k], net_grads[k], rtol=1e-12) for k in by_hand)
print(f"loss {loss:.6f}; the layer-by-layer gradients equal FFNN.loss_and_grads")

# %%
# --- 2. Check the gradients against central differences, for both output heads --------------------
# The two-output net's gradients can come out large: untrained, it can be confidently wrong on some
# rows (a small σ_a for a large error, printed below), and Eq. (1) punishes that hard. What the
# check compares is the relative error. It is only meaningful while every φ lies inside the clip
# range [−5, 1]: outside it, the gradient passes straight through the clip by design and is not the
# derivative of the loss (see la/nn/ffnn.py).
worst = 0.0
for n_out in (1, 2):
    net = FFNN(n_in=4, n_hidden=6, n_out=n_out, rng=rng)
    _, grads = net.loss_and_grads(X, y)
    rows = check_grads(lambda: net.loss_and_grads(X, y)[0], net.params, grads)
    print(f"\ngradient check, {n_out} output{'s' if n_out == 2 else ''} "
          f"({'Eq. (1)' if n_out == 2 else '1/2 squared error'}):")
    print(report(rows))
    worst = max(worst, max(r.rel_error for r in rows))
    if n_out == 2:
        mu, sigma_a = net.predict(X)
        k = int(np.argmax(np.abs(mu - y) / sigma_a))
        print("the row it is most confidently wrong on: "
              f"error |μ − y| = {abs(mu[k] - y[k]):.2f} with σ_a = {sigma_a[k]:.3f}")

# %%
# --- 3. Fit a toy function with full-batch Adam ---------------------------------------------------
# Adam (Kingma & Ba 2015, Algorithm 1; `la.nn.adam`), the paper's optimiser, keeps two running
# means per weight θ, its moments, both starting at 0: with g the gradient at step t = 1, 2, ...,
#     m ← β1·m + (1 − β1)·g       the first moment: the gradient's running mean (β1 = 0.9)
#     v ← β2·v + (1 − β2)·g²      the second moment: its square's running mean (β2 = 0.999)
#     θ ← θ − lr·m_hat/(√v_hat + ε),  m_hat = m/(1 − β1^t),  v_hat = v/(1 − β2^t).
# The bias corrections 1 − β^t undo the start at 0 (after one step m = 0.1·g, and m_hat = g); they
# tend to 1 as t grows. Dividing by √v_hat makes each step about lr, whatever the scale of the
# weight's gradients, smaller where they change sign from step to step (m averages out). The WUNN
# runs a variant whose corrections stay at their step-1 values (tutorial 05 says why; both in
# tutorials/GLOSSARY.md).
# Learning rate LR = 0.01 instead of the paper's 0.001: this toy problem is small, and we want it
# done in seconds.
x_train = rng.uniform(-1, 1, 256)
f = lambda x: np.sin(3 * x) + 0.5 * x
y_train = f(x_train) + 0.05 * rng.standard_normal(x_train.size)
net = FFNN(n_in=1, n_hidden=20, n_out=1, rng=rng)
opt = Adam(net.params, lr=LR)
grid = np.linspace(-1, 1, 200)
mu_before, _ = net.predict(grid[:, None])
losses = []
for step in range(STEPS):
    loss, grads = net.loss_and_grads(x_train[:, None], y_train)
    opt.step(net.params, grads)
    losses.append(loss)
mu_after, _ = net.predict(grid[:, None])
mse = float(np.mean((mu_after - f(grid)) ** 2))
print(f"\nfit of sin(3x) + x/2: loss {losses[0]:.3f} -> {losses[-1]:.5f}; "
      f"mean squared error to the truth {mse:.5f}")

# %%
# --- figure ---------------------------------------------------------------------------------------
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
axes[0].plot(x_train, y_train, ".", ms=3, color="k", label="training data")
axes[0].plot(grid, mu_before, label="before training")
axes[0].plot(grid, mu_after, label=f"after {STEPS} Adam steps")
axes[0].set(title="a 1-20-1 ReLU network, gradients by hand", xlabel="x", ylabel="y")
axes[0].legend()
axes[1].semilogy(losses)
axes[1].set(title="training loss, 1/2 mean squared error", xlabel="Adam step", ylabel="loss")
fig.tight_layout()
out = figure_path("03_backprop_by_hand")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert worst < 1e-6, "analytic and numeric gradients should agree"
assert mse < 0.01, "the network should fit the toy function"

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Break the backward pass: in section 1 replace `dz1 = relu_backward(da1, cache_relu)` by
#    `dz1 = da1` (the ReLU forgotten). The comparison with FFNN.loss_and_grads then fails at once,
#    with an AssertionError.
# 2. Set STEPS = 200: section 3's final loss is higher, and the mean squared error to the truth
#    several times larger than after 2,000 steps.
# 3. Set LR = 0.001, the paper's rate: after 2,000 steps the loss is higher than with LR = 0.01.
