"""Timings of the networks at the sizes the 15-puzzle experiments use (issue 3; wired into
`python -m la.bench`).

Every row is the best of a few repeats after one warm-up, timed with time.perf_counter, in float32
as in training. The networks are freshly initialised: the cost of a pass does not depend on the
values of the weights.
"""
import time

import numpy as np

from la.features import one_hot_inputs
from la.nn.config import FFNNConfig, WUNNConfig, build_ffnn, build_wunn

N_STATES = 25_000       # paper §5 MemoryBufferMaxRecords = the FFNN's full batch
                        # (`NNBayesHeuristic.GetRecords`)
MINIBATCH = 100         # paper §5 MiniBatchSize, the WUNN's training batch
                        # (`Global.TFMAXBATCHSIZE`)
WIDTH = 4               # the 15-puzzle


def random_states(n: int, rng: np.random.Generator) -> np.ndarray:
    """n random arrangements of the 15-puzzle's tiles 0..15 (solvable or not: it does not matter for
    timing)."""
    return rng.permuted(np.tile(np.arange(WIDTH * WIDTH, dtype=np.uint8), (n, 1)), axis=1)


def best_time(f, repeats: int) -> float:
    """Best wall-clock time of f() over `repeats` calls, after one untimed warm-up call."""
    f()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def run(rng: np.random.Generator, quick: bool = False) -> list:
    """Time σ_e (sampled and closed form), one WUNN step and one full-batch FFNN step; one dict per
    timing.

    `quick` changes nothing here: these timings take seconds.
    """
    X = one_hot_inputs(random_states(N_STATES, rng), WIDTH)              # (25000, 128) float32
    y = rng.integers(0, 60, N_STATES).astype(np.float32)                 # cost-to-goal-like targets
    wunn_cfg, ffnn_cfg = WUNNConfig(), FFNNConfig()
    wunn, wunn_opt = build_wunn(wunn_cfg, X.shape[1], rng)
    ffnn, ffnn_opt = build_ffnn(ffnn_cfg, X.shape[1], rng)
    # FFNN targets are y/10 (`Program.Main`)
    y_scaled = y / ffnn.scale
    batch = rng.choice(N_STATES, MINIBATCH, replace=False)

    def wunn_step():
        _, grads = wunn.sample_loss_and_grads(X[batch], y[batch], 0.05, wunn_cfg.S, rng)
        wunn_opt.step(wunn.params, grads)

    def ffnn_step():
        _, grads = ffnn.loss_and_grads(X, y_scaled)
        ffnn_opt.step(ffnn.params, grads)

    K, S, H = wunn_cfg.K, wunn_cfg.S, wunn_cfg.n_hidden
    return [
        _row("wunn_sigma_e_sampled", f"sampled sigma_e, K={K}, {N_STATES:,} 15-puzzle states",
             best_time(lambda: wunn.predict(X, K, rng), 3), 1.0),
        _row("wunn_sigma_e_exact", f"closed-form sigma_e, {N_STATES:,} 15-puzzle states",
             best_time(lambda: wunn.predict_exact(X), 5), 0.1),
        _row("wunn_train_step", f"WUNN step, batch {MINIBATCH}, S={S}, 128-{H}-1, gradient + Adam",
             best_time(wunn_step, 20), None),
        _row("ffnn_train_step",
             f"FFNN step, full batch {N_STATES:,} rows, 128-{ffnn_cfg.n_hidden}-2, "
             f"dropout {ffnn_cfg.dropout}, gradient + Adam", best_time(ffnn_step, 5), None),
    ]


def _row(name: str, what: str, seconds: float, target_seconds):
    return {"name": name, "what": what, "seconds": round(seconds, 6),
            "target_seconds": target_seconds}


def report(rows: list) -> list:
    """Human-readable lines."""
    lines = ["Networks (best of a few repeats)"]
    for r in rows:
        target = ("" if r.get("target_seconds") is None
                  else f"   (target <= {r['target_seconds']} s)")
        lines.append(f"  {r['what']:<60} {r['seconds']:8.4f} s{target}")
    return lines
