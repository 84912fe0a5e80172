"""What every figure module shares: matplotlib with the Agg backend (files only, no window), `plt`,
where the figures live, and how a figure is saved.

The figure modules draw with `plt` from here and save through `style.save`, looked up here at each
call, so that a test can watch every figure saved by replacing this one function."""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from la.io import write_binary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "figures"


def save(fig, path) -> None:
    """Write `fig` to `path` (its folder made if need be) at 120 dpi, atomically (`la.io`), and
    close it."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_binary(path,
                 lambda f: fig.savefig(f, format=Path(path).suffix[1:].lower() or None, dpi=120))
    plt.close(fig)


def or_nan(values) -> list:
    """Numbers for plotting: None (no value: no solved task, or none in the paper) becomes NaN, not
    drawn."""
    return [np.nan if v is None else v for v in values]
