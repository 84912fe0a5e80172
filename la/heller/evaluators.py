"""NN evaluators for the confidence-aware searches: a batch of states -> (h^NN, c), in one call per batch.

The searches of `la.heller` (`gbfs` with `prune`, `dual_queue`, their batched variants) take an NN evaluator,
`states -> (h, c)` (`la.heller.best_first`). Three confidence signals share one heuristic:

    NNEvaluator(classifier, encoding)                h^NN(s) = argmax_i f(s)_i and c = max_i f(s)_i, the
                                                     max-softmax confidence (Heller et al. 2022, Search Methods)
    NNEvaluator(classifier, encoding, SigmaE(wunn))  the same h^NN; c = −σ_e, the WUNN's epistemic standard
                                                     deviation (Marom & Rosman 2020, §2)
    NNEvaluator(classifier, encoding, SigmaA(ffnn))  the same h^NN; c = −σ_a, the two-output FFNN's aleatoric
                                                     standard deviation (Marom & Rosman 2020, Eq. 1)

The σ signals are la's, beyond Heller et al.: the heuristic stays the classifier's h^NN and only the confidence
changes, so that comparing the three isolates the signal. A standard deviation measures uncertainty, so its
confidence is its negative (higher: more confident). The thresholds of `la.heller.thresholds` are percentiles
of the training states' confidences, and a percentile commutes with any increasing map of the signal, so
MeanThreshold and AdaptiveThreshold apply to −σ unchanged. Both σ are in cost units: the WUNN learns the cost
y itself and the FFNN y/10 (the authors' `Program.Main`), so σ_a is scaled back by 10.

The 15-puzzle's one-hot (`la.features.one_hot`) takes a faster first layer, as `la.heuristics.likely_admissible`
does: x has one column bit and one row bit per value, so z1 = x·W1 + b1 is b1 plus one precomputed row
T[s_p, p] = W1[column bit] + W1[row bit] per cell p, a gather and a sum instead of building x and a product.
"""
import numpy as np

from la.features import OneHot, one_hot_index

CHUNK = 8192        # rows per pass when a large batch is scored (training states): bounds the memory of one pass
SIGNALS = ("softmax", "sigma_e", "sigma_a")     # the confidence signals, as the experiment names them


class SigmaE:
    """c = −σ_e: the WUNN's epistemic standard deviation, exactly (`WUNN.predict_exact`, the K → ∞ limit)."""

    name = "sigma_e"

    def __init__(self, wunn):
        self.net, self.n_in = wunn, wunn.n_in                  # predict_exact works in float64 after the moments

    def __call__(self, X) -> np.ndarray:
        return -self.net.predict_exact(X)[1]


class SigmaA:
    """c = −σ_a in cost units: the two-output FFNN's aleatoric standard deviation (Eq. 1) times `scale`."""

    name = "sigma_a"

    def __init__(self, ffnn):
        if ffnn.n_out != 2:
            raise ValueError(f"σ_a needs the two-output FFNN (μ and φ), got one with {ffnn.n_out} output")
        self.net, self.n_in, self.scale = ffnn.astype(np.float64), ffnn.n_in, ffnn.scale

    def __call__(self, X) -> np.ndarray:
        return -self.scale * self.net.predict(X)[1]


class NNEvaluator:
    """states -> (h^NN (n,) int64, c (n,) float64): the classifier's h^NN with the confidence of `signal`
    (None: the max-softmax c^NN; `SigmaE`, `SigmaA`: −σ), for a whole batch in one call."""

    def __init__(self, classifier, encoding, signal=None):
        for net, what in ((classifier, "classifier"), (signal, "σ network")):
            if net is not None and net.n_in != encoding.size:
                raise ValueError(f"the {what} has {net.n_in} inputs, but {encoding!r} gives {encoding.size}")
        self.classifier = classifier.astype(classifier.dtype)  # a frozen copy: training may go on elsewhere
        self.encoding, self.signal = encoding, signal
        self.name = "softmax" if signal is None else signal.name
        self.T = self._one_hot_table() if isinstance(encoding, OneHot) else None

    def _one_hot_table(self) -> np.ndarray:
        """T[v·N + p] = value v on cell p's share of z1, (N·N, hidden[0])."""
        width, n = self.encoding.width, self.encoding.domain.size
        W1 = self.classifier.params["W1"]                                        # (2·W·N, hidden[0])
        col_bit, row_bit = one_hot_index(width, np.arange(n)[:, None], np.arange(n)[None, :])     # (N, N)
        return (W1[col_bit] + W1[row_bit]).reshape(n * n, -1)

    def z1(self, states, X=None) -> np.ndarray:
        """The classifier's first-layer pre-activations, (n, hidden[0]): gathered on the one-hot, else X·W1 + b1."""
        if self.T is None:
            return self.classifier.z1(self.encoding(states) if X is None else X)
        n = self.encoding.domain.size
        index = np.asarray(states, dtype=np.intp) * n + np.arange(n)             # (n, N): rows of T
        z1 = self.T[index].sum(axis=1)                                           # (n, hidden[0])
        z1 += self.classifier.params["b1"]
        return z1

    def __call__(self, states):
        states = np.asarray(states)
        if len(states) > CHUNK:
            parts = [self(states[i:i + CHUNK]) for i in range(0, len(states), CHUNK)]
            return np.concatenate([h for h, _ in parts]), np.concatenate([c for _, c in parts])
        X = None if self.signal is None and self.T is not None else self.encoding(states)
        h, c = self.classifier.predict_from_hidden(self.z1(states, X))
        if self.signal is not None:
            c = self.signal(X)
        return h, c.astype(np.float64, copy=False)
