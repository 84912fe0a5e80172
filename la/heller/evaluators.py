"""NN evaluators for the confidence-aware searches: a batch of states -> (h^NN, c), in one call per
batch.

The searches of `la.heller` (`gbfs` with `prune`, `dual_queue`, their batched variants) take an NN
evaluator, `states -> (h, c)` (`la.heller.best_first`). Three confidence signals share one
heuristic:

    NNEvaluator(classifier, encoding)                h^NN(s) = argmax_i f(s)_i and c = max_i f(s)_i,
                                                     the max-softmax confidence (Heller et al. 2022,
                                                     Search Methods)
    NNEvaluator(classifier, encoding, SigmaE(wunn))  the same h^NN; c = −σ_e, the WUNN's epistemic
                                                     standard deviation (Marom & Rosman 2020, §2)
    NNEvaluator(classifier, encoding, SigmaA(ffnn))  the same h^NN; c = −σ_a, the two-output FFNN's
                                                     aleatoric standard deviation (Marom & Rosman
                                                     2020, Eq. 1)

The σ signals are la's, beyond Heller et al.: the heuristic stays the classifier's h^NN and only the
confidence changes, so that comparing the three isolates the signal. A standard deviation measures
uncertainty, so its confidence is its negative (higher: more confident). The thresholds of
`la.heller.thresholds` are percentiles of the training states' confidences, and a percentile
commutes with any increasing map of the signal, so MeanThreshold and AdaptiveThreshold apply to −σ
unchanged. Both σ are in cost units: the WUNN learns the cost y itself and the FFNN y/10 (the
authors' `Program.Main`), so σ_a is scaled back by 10.

The 15-puzzle's one-hot (`la.features.one_hot`) takes a faster first layer, as
`la.heuristics.likely_admissible` does: x has one column bit and one row bit per value, so z1 =
x·W1 + b1 is b1 plus one precomputed row T[s_p, p] = W1[column bit] + W1[row bit] per cell p, a
gather and a sum instead of building x and a product.

Every matrix product takes BLOCK rows (`in_blocks`), so that a state's (h, c) is the same bits in
whatever batch it comes: among a search's few children or among the training states its threshold is
taken from.
"""
import numpy as np

from la.features import OneHot, one_hot_index

# Rows per network call (`in_blocks`). Within a call of 4 (or 8) rows the pinned kernel
# (la/__init__.py) rounds a row alike at any position; in float32 from 16 rows on it does not. 4
# rather than 8: a sliding-tile expansion has at most 4 children, and padding 3 of them to 8 rows
# cost the 15-puzzle's searches a fifth of their speed.
BLOCK = 4
# rows per pass when a large batch is scored (training states): bounds the memory of one pass
CHUNK = 8192
# the confidence signals, as the experiment names them
SIGNALS = ("softmax", "sigma_e", "sigma_a")


def padded(rows) -> np.ndarray:
    """`rows` filled up to a multiple of BLOCK rows with copies of the last (which are scored and
    dropped)."""
    rows = np.asarray(rows)
    if len(rows) % BLOCK == 0:
        return rows
    return np.concatenate([rows, np.repeat(rows[-1:], BLOCK - len(rows) % BLOCK, axis=0)])


def in_blocks(score, rows):
    """score(rows), computed in calls of exactly BLOCK rows (the last block `padded`).

    Why: the rounding of a matrix product depends on its shape (OpenBLAS takes gemv for one row,
    gemm for more, and splits gemm by size), so without this a state scored among 3 children and the
    same state scored among 100,000 training states differ in the last bit, and a confidence next to
    its threshold (a percentile of those training scores) is kept in one and pruned in the other.
    `score` returns an array or a tuple of them.
    """
    n = len(rows)
    if n == 0:
        return score(np.asarray(rows))
    rows = padded(rows)
    parts = [score(rows[i:i + BLOCK]) for i in range(0, len(rows), BLOCK)]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(column)[:n] for column in zip(*parts))
    return np.concatenate(parts)[:n]


class SigmaE:
    """c = −σ_e: the WUNN's epistemic standard deviation, exactly (`WUNN.predict_exact`, the K → ∞
    limit)."""

    name = "sigma_e"

    def __init__(self, wunn):
        # predict_exact works in float64 after the moments
        self.net, self.n_in = wunn, wunn.n_in

    def __call__(self, X) -> np.ndarray:
        return in_blocks(lambda block: -self.net.predict_exact(block)[1], X)


class SigmaA:
    """c = −σ_a in cost units: the two-output FFNN's aleatoric standard deviation (Eq. 1) times
    `scale`."""

    name = "sigma_a"

    def __init__(self, ffnn):
        if ffnn.n_out != 2:
            raise ValueError("σ_a needs the two-output FFNN (μ and φ), "
                             f"got one with {ffnn.n_out} output")
        self.net, self.n_in, self.scale = ffnn.astype(np.float64), ffnn.n_in, ffnn.scale

    def __call__(self, X) -> np.ndarray:
        return in_blocks(lambda block: -self.scale * self.net.predict(block)[1], X)


class NNEvaluator:
    """states -> (h^NN (n,) int64, c (n,) float64): the classifier's h^NN with the confidence of
    `signal` (None: the max-softmax c^NN; `SigmaE`, `SigmaA`: −σ), for a whole batch, scored in
    blocks (`in_blocks`)."""

    def __init__(self, classifier, encoding, signal=None):
        for net, what in ((classifier, "classifier"), (signal, "σ network")):
            if net is not None and net.n_in != encoding.size:
                raise ValueError(f"the {what} has {net.n_in} inputs, "
                                 f"but {encoding!r} gives {encoding.size}")
        # a frozen copy: training may go on elsewhere
        self.classifier = classifier.astype(classifier.dtype)
        self.encoding, self.signal = encoding, signal
        self.name = "softmax" if signal is None else signal.name
        self.T = self._one_hot_table() if isinstance(encoding, OneHot) else None

    def _one_hot_table(self) -> np.ndarray:
        """T[v·N + p] = value v on cell p's share of z1, (N·N, hidden[0])."""
        width, n = self.encoding.width, self.encoding.domain.size
        # (2·W·N, hidden[0])
        W1 = self.classifier.params["W1"]
        # (N, N)
        col_bit, row_bit = one_hot_index(width, np.arange(n)[:, None], np.arange(n)[None, :])
        return (W1[col_bit] + W1[row_bit]).reshape(n * n, -1)

    def z1(self, states, X=None) -> np.ndarray:
        """The classifier's first-layer pre-activations, (n, hidden[0]): gathered on the one-hot,
        else X·W1 + b1."""
        if self.T is None:
            return self.classifier.z1(self.encoding(states) if X is None else X)
        n = self.encoding.domain.size
        index = np.asarray(states, dtype=np.intp) * n + np.arange(n)             # (n, N): rows of T
        z1 = self.T[index].sum(axis=1)                                           # (n, hidden[0])
        z1 += self.classifier.params["b1"]
        return z1

    def __call__(self, states):
        states = np.asarray(states)
        n = len(states)
        # CHUNK is a multiple of BLOCK: the same blocks, less memory
        if n > CHUNK:
            parts = [self(states[i:i + CHUNK]) for i in range(0, n, CHUNK)]
            return np.concatenate([h for h, _ in parts]), np.concatenate([c for _, c in parts])
        if n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        states = padded(states)
        X = None if self.signal is None and self.T is not None else self.encoding(states)
        # The classifier takes the blocks as a stack (k, BLOCK, width) in one pass: NumPy's matmul
        # multiplies each block by itself, as `in_blocks` would, without a Python call per block.
        h, c = self.classifier.predict_from_hidden(self._z1_blocks(states, X))
        h, c = h.reshape(-1)[:n], c.reshape(-1)[:n]
        if self.signal is not None:
            c = self.signal(X)[:n]                                               # in blocks too
        return h, c.astype(np.float64, copy=False)

    def _z1_blocks(self, states, X) -> np.ndarray:
        """z1 of `padded` states as a stack of blocks, (k, BLOCK, hidden[0])."""
        if self.T is not None:
            # a gather: row by row
            z1 = self.z1(states)
            return z1.reshape(-1, BLOCK, z1.shape[1])
        X = self.classifier.check_inputs(X)
        # BLOCK-row products
        z1 = X.reshape(-1, BLOCK, X.shape[1]) @ self.classifier.params["W1"]
        z1 += self.classifier.params["b1"]
        return z1
