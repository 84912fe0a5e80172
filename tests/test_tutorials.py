"""The tutorials: numbered from 00 without gaps, each saving its figure through the tutorials'
helper (tutorials/course.py) into the ignored figures/tutorials/, so that reading them leaves a
clean checkout clean; each naming itself by its number, checking its claims at the end, the main
path (00-13) ending with exercises. Each opens as a notebook: `# %%` cells at each part, no
`__file__`, and it runs cell by cell in a fresh interpreter started at the repository root, as a
notebook kernel started there would run it; the path to the full loop (00-10) imports the core and
the helper only. One short tutorial runs in the default tier, as a script and cell by cell; the
slow tier runs every other one both ways, with its own assertions, the pancake tutorial on an
outcome its scale allows but its usual run does not show, and every tutorial on other machines'
numerics."""
import ast
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_course import load_course
from tests.test_layout import CORE, imports, within
from tests.test_numerics import STAND_INS, environment, flags

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("[0-9][0-9]_*.py"))
# seconds: the default tier runs this one
QUICK = ROOT / "tutorials" / "03_backprop_by_hand.py"
# 00-13: through the paper's Tables 1 and 2
MAIN_PATH = 14
FULL_LOOP = 11                                                 # 00-10: the path to the full loop
HELPER = "course"                                              # tutorials/course.py
IDS = [t.stem for t in TUTORIALS]
CELL = re.compile(r"^# %%.*\n", flags=re.MULTILINE)            # a cell marker (percent format)
# Runs a tutorial's cells in order in one namespace, with no `__file__`, as a notebook kernel does:
# Python started with -c puts the folder it starts in (the repository root) on sys.path, as
# a kernel does.
CELL_RUNNER = """
import re, sys
cells = re.split(r"(?m)^# %%.*\\n", open(sys.argv[1], encoding="utf-8").read())
namespace = {"__name__": "__main__"}
for number, cell in enumerate(cells):
    exec(compile(cell, f"{sys.argv[1]}, cell {number}", "exec"), namespace)
print(f"ran {len(cells)} cells")
"""


def figure_of(tutorial: Path) -> Path:
    """Where a tutorial saves its figure (course.figure_path, checked below)."""
    return ROOT / "figures" / "tutorials" / f"{tutorial.stem}.png"


def git(*args, check=True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=check)


@pytest.fixture
def checkout():
    """The checks below ask git what is tracked and ignored, so they need a git checkout."""
    if (shutil.which("git") is None
            or git("rev-parse", "--is-inside-work-tree", check=False).returncode != 0):
        pytest.skip("not a git checkout")


def figures_as_git_sees_them() -> tuple:
    """git's status under figures/ (a changed figure or a new, unignored file shows there) and every
    tracked figure's mtime and bytes (a figure rewritten with the same bytes shows there only)."""
    status = git("status", "--porcelain", "--untracked-files=all", "--", "figures").stdout
    tracked = {}
    for name in git("ls-files", "--", "figures").stdout.splitlines():
        path = ROOT / name
        tracked[name] = (path.stat().st_mtime_ns, path.read_bytes()) if path.exists() else None
    return status, tracked


def command(tutorial: Path, how: str) -> tuple:
    """The command line and the folder it starts in: as a script, or cell by cell as in a notebook
    whose kernel starts at the repository root or in tutorials/ (Jupyter's choice for a file there).
    """
    if how == "script":
        return [sys.executable, str(tutorial)], ROOT
    if how == "cells":
        return [sys.executable, "-c", CELL_RUNNER, tutorial.relative_to(ROOT).as_posix()], ROOT
    if how == "cells in tutorials/":
        return [sys.executable, "-c", CELL_RUNNER, tutorial.name], ROOT / "tutorials"
    raise ValueError(f"how must be 'script', 'cells' or 'cells in tutorials/', got {how!r}")


def run_tutorial(tutorial: Path, how: str = "script") -> subprocess.CompletedProcess:
    """Run one tutorial: it must pass, save its figure into the ignored folder, and change no
    tracked figure."""
    figure = figure_of(tutorial)
    # an ignored file of an earlier run, so that this run must write it
    figure.unlink(missing_ok=True)
    status, tracked = figures_as_git_sees_them()
    args, cwd = command(tutorial, how)
    out = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert figure.exists(), f"{tutorial.name} did not save its figure {figure.relative_to(ROOT)}"
    status_after, tracked_after = figures_as_git_sees_them()
    assert status_after == status, (
        f"{tutorial.name} changed what git sees under figures/:\n{status_after}")
    rewritten = sorted(name for name in tracked if tracked_after.get(name) != tracked[name])
    assert not rewritten, f"{tutorial.name} rewrote tracked files: {rewritten}"
    return out


def test_tutorials_are_numbered_without_gaps():
    """00, 01, 02, ...: the path starts with tutorial 00, the problem, and has no gap or repeated
    number."""
    numbers = [int(t.name[:2]) for t in TUTORIALS]
    assert numbers == list(range(len(numbers)))
    assert len(numbers) > MAIN_PATH, "the main path and at least one extension"


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_saves_its_figure_through_the_one_helper(tutorial):
    text = tutorial.read_text(encoding="utf-8")
    assert f'figure_path("{tutorial.stem}")' in text, \
        f"{tutorial.name} does not save through figure_path"
    assert not re.search(r"""["']figures["']""", text), (
        f"{tutorial.name} builds a path into figures/ itself")


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_names_itself(tutorial):
    """After a renumbering, the title and the run line must follow the file: "Tutorial NN:" and its
    own path."""
    text = tutorial.read_text(encoding="utf-8")
    assert text.startswith(f'"""Tutorial {tutorial.name[:2]}:'), (
        f"{tutorial.name}'s title gives another number")
    assert f"python tutorials/{tutorial.name}" in text, (
        f"{tutorial.name} tells the reader to run another file")


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_checks_its_claims_at_the_end(tutorial):
    """A block of assertions after the last printout, one per claim of the text, and no path of a
    machine."""
    text = tutorial.read_text(encoding="utf-8")
    tail = (text[text.index("# --- the point, loosely"):] if "# --- the point, loosely" in text
            else "")
    assert tail.count("\nassert ") >= 1, f"{tutorial.name} has no final assertions"
    assert not re.search(r"/(work|tmp|home)/", text), f"{tutorial.name} names a path of one machine"


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_each_tutorial_opens_as_a_notebook(tutorial):
    """A `# %%` cell marker before each part (`# --- ...`); a first cell of the docstring and
    imports only, so that it can run again; the helper imported first, through the one line a
    notebook at the repository root needs; and no `__file__`, which a notebook's cells lack."""
    text = tutorial.read_text(encoding="utf-8")
    assert "__file__" not in text, f"{tutorial.name} uses __file__, which a notebook lacks"
    lines = text.splitlines()
    parts = [i for i, line in enumerate(lines) if line.startswith("# --- ")]
    unmarked = [lines[i] for i in parts if not lines[i - 1].startswith("# %%")]
    assert len(parts) >= 3 and unmarked == [], f"{tutorial.name}: unmarked parts {unmarked}"
    first = ast.parse(CELL.split(text)[0]).body
    statements = [ast.unparse(node) for node in first[1:]
                  if not isinstance(node, (ast.Import, ast.ImportFrom))]
    assert statements == ["sys.path.insert(0, 'tutorials')"], \
        f"{tutorial.name}'s first cell runs {statements}"
    modules = [node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
               for node in first if isinstance(node, (ast.Import, ast.ImportFrom))]
    before = modules[:modules.index(HELPER)]
    assert not [m for m in before if m.split(".")[0] in ("la", "numpy", "matplotlib", "scipy")], \
        f"{tutorial.name} imports {before} before the helper, which loads la before NumPy"


def beyond_the_core(path: Path, local=()) -> list:
    """What a tutorial imports, anywhere in it, other than the core, the helper and other
    projects' packages: the shell, and any other module of this repository (a second helper;
    `local`: more such names)."""
    here = {p.stem for p in (ROOT / "tutorials").glob("*.py")} | {p.name for p in ROOT.iterdir()}
    wrong = []
    for line, module in imports(path, "tutorials"):
        top = module.split(".")[0]
        if top == "la":
            allowed = module == "la" or within(module, CORE)
        else:
            allowed = top == HELPER or top not in here | set(local)
        if not allowed:
            wrong.append(f"{path.name}:{line} imports {module}")
    return wrong


@pytest.mark.parametrize("tutorial", TUTORIALS[:FULL_LOOP], ids=IDS[:FULL_LOOP])
def test_the_path_to_the_full_loop_imports_the_core_and_the_helper_only(tutorial):
    assert beyond_the_core(tutorial) == []


def test_the_import_check_catches_the_shell_and_a_second_helper(tmp_path):
    probe = tmp_path / "99_probe.py"
    probe.write_text("from course import ROOT\nimport numpy as np\nfrom la.search import ida_star\n"
                     "import la\nfrom la import data\n"
                     "from la.runs.cli import state_text\n"
                     "def f():\n    import la.plots.style\n    import tools\n", encoding="utf-8")
    assert beyond_the_core(probe, local=("tools",)) == [
        "99_probe.py:5 imports la.data", "99_probe.py:6 imports la.runs.cli",
        "99_probe.py:6 imports la.runs.cli.state_text",
        "99_probe.py:8 imports la.plots.style", "99_probe.py:9 imports tools"]


def test_the_tutorials_have_one_helper():
    others = [p.name for p in (ROOT / "tutorials").glob("*.py") if p not in TUTORIALS]
    assert others == [f"{HELPER}.py"]


@pytest.mark.parametrize("tutorial", TUTORIALS[:MAIN_PATH], ids=IDS[:MAIN_PATH])
def test_each_main_path_tutorial_ends_with_exercises(tutorial):
    """Two or three: a change to make and what the student should see, after the assertions."""
    text = tutorial.read_text(encoding="utf-8")
    assert "# --- exercises" in text, f"{tutorial.name} has no exercises"
    exercises = re.findall(r"^# ([1-9])\. ", text[text.index("# --- exercises"):],
                           flags=re.MULTILINE)
    assert exercises in (["1", "2"], ["1", "2", "3"]), (
        f"{tutorial.name}: exercises numbered {exercises}")


def test_tutorial_figures_go_to_an_ignored_folder(checkout):
    figure = load_course().figure_path(QUICK.stem)
    assert figure == figure_of(QUICK) == ROOT / "figures" / "tutorials" / "03_backprop_by_hand.png"
    ignored = git("check-ignore", "--quiet", str(figure.relative_to(ROOT)), check=False)
    assert ignored.returncode == 0, "figures/tutorials/ must be in .gitignore"


def test_a_short_tutorial_runs_and_leaves_the_checkout_clean(checkout):
    run_tutorial(QUICK)


@pytest.mark.parametrize("how", ["cells", "cells in tutorials/"])
def test_a_short_tutorial_runs_cell_by_cell_as_in_a_notebook(checkout, how):
    out = run_tutorial(QUICK, how)
    cells = len(CELL.split(QUICK.read_text(encoding="utf-8")))
    assert out.stdout.endswith(f"ran {cells} cells\n") and cells > 4


@pytest.mark.slow
@pytest.mark.parametrize("tutorial", [t for t in TUTORIALS if t != QUICK],
                         ids=[t.stem for t in TUTORIALS if t != QUICK])
def test_tutorial_runs_and_leaves_the_checkout_clean(tutorial, checkout):
    run_tutorial(tutorial)


@pytest.mark.slow
@pytest.mark.parametrize("tutorial", [t for t in TUTORIALS if t != QUICK],
                         ids=[t.stem for t in TUTORIALS if t != QUICK])
def test_tutorial_runs_cell_by_cell_as_in_a_notebook_at_the_repository_root(tutorial, checkout):
    run_tutorial(tutorial, "cells")


@pytest.mark.slow
def test_the_pancake_tutorial_says_so_when_no_stack_is_solved_by_every_row(tmp_path):
    """Tutorial 16 compares its rows on the stacks that every row solved. A network that has barely
    trained leaves every stack unsolved in its α row, so there are none: the tutorial must say so
    and go on (it used to compare None < None and crash)."""
    source = (ROOT / "tutorials" / "16_the_method_on_pancakes.py").read_text(encoding="utf-8")
    changes = {"ALPHAS = (0.95, 0.9, 0.75, 0.5, 0.25, 0.05)": "ALPHAS = (0.95,)",
               "TEST_BUDGET = 2_000_000 ": "TEST_BUDGET = 200_000 ",
               "shorter = dict(num_iter=16, node_limit=500_000)":
                   "shorter = dict(num_iter=2, node_limit=500_000)"}
    for old, new in changes.items():
        assert source.count(old) == 1, f"tutorial 16 no longer has {old!r}: update this test"
        source = source.replace(old, new)
    script = tmp_path / "14_the_method_on_pancakes_no_common_stack.py"
    script.write_text(source, encoding="utf-8")
    try:
        out = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                             text=True, timeout=900)
    finally:
        figure_of(ROOT / "tutorials" / "16_the_method_on_pancakes.py").unlink(missing_ok=True)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "on the 0 stacks every row solved:\n  none:" in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("kernel", list(STAND_INS))
@pytest.mark.parametrize("tutorial", TUTORIALS, ids=IDS)
def test_tutorial_runs_to_the_end_on_another_machines_numerics(tutorial, kernel):
    """With la's fixed numerics turned off (LA_NATIVE_NUMERICS=1) and another machine's BLAS kernel
    or SIMD paths forced (the stand-ins of tests/test_numerics.py), the networks train to other
    numbers: each tutorial must still run to its end, saying what happened where its outcome changes
    (on ARM or with MKL a reader gets such numbers)."""
    if not {"avx2", "fma"} <= flags() or platform.machine() != "x86_64":
        pytest.skip("the stand-in kernels are x86-64 ones")
    env = environment(LA_NATIVE_NUMERICS="1", **STAND_INS[kernel])
    try:
        out = subprocess.run([sys.executable, str(tutorial)], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=900)
    finally:
        figure_of(tutorial).unlink(missing_ok=True)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
