"""Every tutorial runs from start to finish and its own assertions hold (slow tier)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("[0-9][0-9]_*.py"))


def test_tutorials_are_numbered_without_gaps():
    numbers = [int(t.name[:2]) for t in TUTORIALS]
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.slow
@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[t.stem for t in TUTORIALS])
def test_tutorial_runs(tutorial):
    out = subprocess.run([sys.executable, str(tutorial)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
