"""Gradient checking by central finite differences in float64, with a one-line report per parameter.

For a loss f and one entry θ_i, the numeric gradient is (f(θ + h·e_i) − f(θ − h·e_i)) / 2h, whose
error is O(h²) from truncation plus O(ε_machine·|f|/h) from rounding; h = 1e-6 balances the two in
float64. Each parameter array is summarised by the relative error ‖a − n‖ / max(1e-8, ‖a‖ + ‖n‖) of
its analytic (a) and numeric (n) gradients: an array-wide norm, so that entries whose true gradient
is 0 (a dead ReLU) do not turn rounding noise of 1e-10 into a large ratio.
"""
from dataclasses import dataclass

import numpy as np

TOLERANCE = 1e-6    # what the tests require of every parameter, in float64


@dataclass(frozen=True)
class GradCheck:
    """One parameter's check: gradient norms and their relative error."""
    name: str
    analytic: float     # ‖analytic gradient‖
    numeric: float      # ‖numeric gradient‖
    rel_error: float    # ‖a − n‖ / max(1e-8, ‖a‖ + ‖n‖)

    @property
    def ok(self) -> bool:
        return self.rel_error < TOLERANCE


def numeric_grad(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central-difference gradient of the loss f() w.r.t. the array x (perturbed in place)."""
    if x.dtype != np.float64:
        raise ValueError(f"gradient checks need float64 arrays, got {x.dtype}")
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + h
        f_plus = f()
        x[i] = old - h
        f_minus = f()
        x[i] = old                                    # restore exactly
        grad[i] = (f_plus - f_minus) / (2 * h)
    return grad


def rel_error(a: np.ndarray, n: np.ndarray) -> float:
    """‖a − n‖ / max(1e-8, ‖a‖ + ‖n‖)."""
    return float(np.linalg.norm(a - n) / max(1e-8, np.linalg.norm(a) + np.linalg.norm(n)))


def check_grads(f, params: dict, grads: dict, h: float = 1e-6) -> list:
    """Compare analytic `grads` with central differences of f() over every array in `params`."""
    if params.keys() != grads.keys():
        raise ValueError(f"params have keys {sorted(params)} but grads have {sorted(grads)}")
    rows = []
    for name, x in params.items():
        a = np.asarray(grads[name], dtype=np.float64)
        if a.shape != x.shape:
            raise ValueError(f"gradient '{name}' has shape {a.shape}, expected {x.shape}")
        n = numeric_grad(f, x, h)
        rows.append(GradCheck(name, float(np.linalg.norm(a)), float(np.linalg.norm(n)),
                              rel_error(a, n)))
    return rows


def report(rows: list) -> str:
    """The checks as a table, `name | analytic | numeric | rel. error`, norms over each array."""
    width = max([len("name")] + [len(r.name) for r in rows])
    lines = [f"{'name':<{width}} | {'‖analytic‖':>12} | {'‖numeric‖':>12} | rel. error"]
    for r in rows:
        flag = "" if r.ok else "   <-- FAILS"
        lines.append(f"{r.name:<{width}} | {r.analytic:12.6e} | {r.numeric:12.6e} | "
                     f"{r.rel_error:.1e}{flag}")
    return "\n".join(lines)
