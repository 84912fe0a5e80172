"""The tutorials: numbered from 00 without gaps, each saving its figure through
`la.plots.style.tutorial_figure_path` into the ignored figures/tutorials/, so that reading them leaves a clean
checkout clean; each naming itself by its number, checking its claims at the end, the main path (00-12) ending with
exercises. One short tutorial runs in the default tier; the slow tier runs every other one from start to finish,
with its own assertions, the pancake tutorial on an outcome its scale allows but its usual run does not show, and
every tutorial on other machines' numerics."""
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from la.plots.style import tutorial_figure_path
from tests.test_numerics import STAND_INS, environment, flags

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("[0-9][0-9]_*.py"))
QUICK = ROOT / "tutorials" / "03_backprop_by_hand.py"          # seconds: the default tier runs this one
MAIN_PATH = 13                                                 # 00-12: through the paper's Tables 1 and 2
IDS = [t.stem for t in TUTORIALS]


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
    assert len(numbers) > MAIN_PATH, "the main path and at least one extension"


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_saves_its_figure_through_the_one_helper(tutorial):
    text = tutorial.read_text(encoding="utf-8")
    assert "tutorial_figure_path(__file__)" in text, f"{tutorial.name} does not save through tutorial_figure_path"
    assert not re.search(r"""["']figures["']""", text), f"{tutorial.name} builds a path into figures/ itself"


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_names_itself(tutorial):
    """After a renumbering, the title and the run line must follow the file: "Tutorial NN:" and its own path."""
    text = tutorial.read_text(encoding="utf-8")
    assert text.startswith(f'"""Tutorial {tutorial.name[:2]}:'), f"{tutorial.name}'s title gives another number"
    assert f"python tutorials/{tutorial.name}" in text, f"{tutorial.name} tells the reader to run another file"


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_checks_its_claims_at_the_end(tutorial):
    """A block of assertions after the last printout, one per claim of the text, and no path of a machine."""
    text = tutorial.read_text(encoding="utf-8")
    tail = text[text.index("# --- the point, loosely"):] if "# --- the point, loosely" in text else ""
    assert tail.count("\nassert ") >= 1, f"{tutorial.name} has no final assertions"
    assert not re.search(r"/(work|tmp|home)/", text), f"{tutorial.name} names a path of one machine"


@pytest.mark.parametrize("tutorial", TUTORIALS[:MAIN_PATH], ids=IDS[:MAIN_PATH])
def test_each_main_path_tutorial_ends_with_exercises(tutorial):
    """Two or three: a change to make and what the student should see, after the assertions."""
    text = tutorial.read_text(encoding="utf-8")
    assert "# --- exercises" in text, f"{tutorial.name} has no exercises"
    exercises = re.findall(r"^# ([1-9])\. ", text[text.index("# --- exercises"):], flags=re.MULTILINE)
    assert exercises in (["1", "2"], ["1", "2", "3"]), f"{tutorial.name}: exercises numbered {exercises}"


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


@pytest.mark.slow
def test_the_pancake_tutorial_says_so_when_no_stack_is_solved_by_every_row(tmp_path):
    """Tutorial 14 compares its rows on the stacks that every row solved. A network that has barely trained leaves
    every stack unsolved in its α row, so there are none: the tutorial must say so and go on (it used to compare
    None < None and crash)."""
    source = (ROOT / "tutorials" / "14_the_method_on_pancakes.py").read_text(encoding="utf-8")
    changes = {"ROOT = Path(__file__).resolve().parents[1]": f"ROOT = Path({str(ROOT)!r})",
               "ALPHAS = (0.95, 0.9, 0.75, 0.5, 0.25, 0.05)": "ALPHAS = (0.95,)",
               "TEST_BUDGET = 2_000_000 ": "TEST_BUDGET = 200_000 ",
               "shorter = dict(num_iter=16, node_limit=500_000)": "shorter = dict(num_iter=2, node_limit=500_000)"}
    for old, new in changes.items():
        assert source.count(old) == 1, f"tutorial 14 no longer has {old!r}: update this test"
        source = source.replace(old, new)
    script = tmp_path / "14_the_method_on_pancakes_no_common_stack.py"
    script.write_text(source, encoding="utf-8")
    try:
        out = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    finally:
        tutorial_figure_path(script).unlink(missing_ok=True)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "on the 0 stacks every row solved:\n  none:" in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("kernel", list(STAND_INS))
@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_tutorial_runs_to_the_end_on_another_machines_numerics(tutorial, kernel):
    """With la's fixed numerics turned off (LA_NATIVE_NUMERICS=1) and another machine's BLAS kernel or SIMD paths
    forced (the stand-ins of tests/test_numerics.py), the networks train to other numbers: each tutorial must still
    run to its end, saying what happened where its outcome changes (on ARM or with MKL a reader gets such numbers)."""
    if not {"avx2", "fma"} <= flags() or platform.machine() != "x86_64":
        pytest.skip("the stand-in kernels are x86-64 ones")
    env = environment(LA_NATIVE_NUMERICS="1", **STAND_INS[kernel])
    try:
        out = subprocess.run([sys.executable, str(tutorial)], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=900)
    finally:
        tutorial_figure_path(tutorial).unlink(missing_ok=True)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
