"""The tutorials' helper, tutorials/course.py: where figures go, a state on one line, and a
training loop that prints a line per iteration and trains exactly what
`la.learn.learn_heuristic_prac` trains."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from la.config import LearnConfig
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.learn import learn_heuristic_prac

ROOT = Path(__file__).resolve().parents[1]
EIGHT = SlidingTile(3)
TINY = LearnConfig(num_iter=3, node_limit=20_000, max_steps=20, train_iter=20, wunn_blocks=2)


def load_course():
    """The helper, loaded from its file (a tutorial finds it on sys.path)."""
    spec = importlib.util.spec_from_file_location("course", ROOT / "tutorials" / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def course():
    return load_course()


def test_the_helper_knows_the_repository_and_names_a_tutorials_figure(course):
    assert course.ROOT == ROOT and course.FIGURES == ROOT / "figures"
    figure = course.figure_path("00_the_problem")
    assert figure == ROOT / "figures" / "tutorials" / "00_the_problem.png"


@pytest.mark.parametrize("name", ["00_the_problem.py", "tutorials/00_the_problem", "99_nothing"])
def test_a_figure_path_for_no_tutorial_is_refused(course, name):
    with pytest.raises(ValueError, match=f"no tutorial '{name}': expected a file's name without"):
        course.figure_path(name)


def test_a_state_on_one_line(course):
    assert course.state_text(np.array([1, 0, 2], dtype=np.uint8)) == "1 0 2"


def test_train_trains_what_learn_heuristic_prac_does_and_prints_a_line_per_iteration(course):
    lines = []
    rng, encoding = np.random.default_rng(5), OneHot(EIGHT)
    learner = course.train(EIGHT, TINY, rng, encoding, progress=lines.append)
    alone = learn_heuristic_prac(EIGHT, TINY, np.random.default_rng(5), OneHot(EIGHT))
    assert [e["solved"] for e in learner.log] == [e["solved"] for e in alone.log]
    for net in ("ffnn", "wunn"):
        mine, theirs = getattr(learner, net).params, getattr(alone, net).params
        assert mine.keys() == theirs.keys()
        assert all(np.array_equal(mine[k], theirs[k]) for k in mine)
    assert [line.split()[:2] for line in lines] == [["iter", f"{k}/3"] for k in (1, 2, 3)]
    assert "solved" in lines[0] and "β" in lines[0] and lines[0].endswith(" s")


def test_train_is_silent_without_progress(course, capsys):
    config = LearnConfig(num_iter=1, node_limit=2_000, max_steps=5, train_iter=5, wunn_blocks=1)
    course.train(EIGHT, config, np.random.default_rng(0), OneHot(EIGHT), progress=None)
    assert capsys.readouterr().out == ""
