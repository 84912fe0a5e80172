"""The tutorials: numbered from 00 without gaps, each saving its figure through
`la.plots.style.tutorial_figure_path` into the ignored figures/tutorials/, so that reading them leaves a clean
checkout clean. One short tutorial runs in the default tier; the slow tier runs every other one from start to
finish, with its own assertions."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from la.plots.style import tutorial_figure_path

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("[0-9][0-9]_*.py"))
QUICK = ROOT / "tutorials" / "03_backprop_by_hand.py"          # seconds: the default tier runs this one


def git(*args, check=True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=check)


@pytest.fixture
def checkout():
    """The checks below ask git what is tracked and ignored, so they need a git checkout."""
    if shutil.which("git") is None or git("rev-parse", "--is-inside-work-tree", check=False).returncode != 0:
        pytest.skip("not a git checkout")


def figures_as_git_sees_them() -> tuple:
    """git's status under figures/ (a changed figure or a new, unignored file shows there) and every tracked
    figure's mtime and bytes (a figure rewritten with the same bytes shows there only)."""
    status = git("status", "--porcelain", "--untracked-files=all", "--", "figures").stdout
    tracked = {}
    for name in git("ls-files", "--", "figures").stdout.splitlines():
        path = ROOT / name
        tracked[name] = (path.stat().st_mtime_ns, path.read_bytes()) if path.exists() else None
    return status, tracked


def run_tutorial(tutorial: Path) -> None:
    """Run one tutorial: it must pass, save its figure into the ignored folder, and change no tracked figure."""
    figure = tutorial_figure_path(tutorial)
    figure.unlink(missing_ok=True)           # an ignored file of an earlier run, so that this run must write it
    status, tracked = figures_as_git_sees_them()
    out = subprocess.run([sys.executable, str(tutorial)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert figure.exists(), f"{tutorial.name} did not save its figure {figure.relative_to(ROOT)}"
    status_after, tracked_after = figures_as_git_sees_them()
    assert status_after == status, f"{tutorial.name} changed what git sees under figures/:\n{status_after}"
    rewritten = sorted(name for name in tracked if tracked_after.get(name) != tracked[name])
    assert not rewritten, f"{tutorial.name} rewrote tracked files: {rewritten}"


def test_tutorials_are_numbered_without_gaps():
    """00, 01, 02, ...: the path starts with tutorial 00, the problem, and has no gap or repeated number."""
    numbers = [int(t.name[:2]) for t in TUTORIALS]
    assert numbers == list(range(len(numbers)))


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[t.stem for t in TUTORIALS])
def test_each_tutorial_saves_its_figure_through_the_one_helper(tutorial):
    text = tutorial.read_text(encoding="utf-8")
    assert "tutorial_figure_path(__file__)" in text, f"{tutorial.name} does not save through tutorial_figure_path"
    assert not re.search(r"""["']figures["']""", text), f"{tutorial.name} builds a path into figures/ itself"


def test_tutorial_figures_go_to_an_ignored_folder(checkout):
    figure = tutorial_figure_path(QUICK)
    assert figure == ROOT / "figures" / "tutorials" / "03_backprop_by_hand.png"
    ignored = git("check-ignore", "--quiet", str(figure.relative_to(ROOT)), check=False)
    assert ignored.returncode == 0, "figures/tutorials/ must be in .gitignore"


def test_a_short_tutorial_runs_and_leaves_the_checkout_clean(checkout):
    run_tutorial(QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("tutorial", [t for t in TUTORIALS if t != QUICK],
                         ids=[t.stem for t in TUTORIALS if t != QUICK])
def test_tutorial_runs_and_leaves_the_checkout_clean(tutorial, checkout):
    run_tutorial(tutorial)
