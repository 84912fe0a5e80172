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


def small_classifier(seed: int):
    from la.heller.classifier import Classifier
    import la.heller.config  # noqa: F401  (registers the Classifier with la.runs.persist)
    return Classifier(6, 3, np.random.default_rng(seed), hidden=(4,))


def test_a_saved_network_is_read_back_with_its_history(course, tmp_path):
    """Tutorial 19 saves its W50 network for 20 (save_network); 20 reads it (load_network)."""
    net, identity = small_classifier(1), course.network_identity("19_confidence", seed=14, data="d")
    course.save_network(net, tmp_path / "w.npz", identity, [0.5, 0.4])
    back, history = course.load_network(tmp_path / "w.npz", identity)
    assert history == [0.5, 0.4] and back.params.keys() == net.params.keys()
    assert all(np.array_equal(back.params[k], net.params[k]) for k in net.params)


def test_a_damaged_or_foreign_network_is_not_reused(course, tmp_path):
    """Missing, truncated, made from other settings, or weights changed behind its checksum: each
    gives None and the reason, so the tutorial trains the network again."""
    path, identity = tmp_path / "w.npz", course.network_identity("19_confidence", seed=14)
    assert course.load_network(path, identity) == (None, "no w.npz yet")
    course.save_network(small_classifier(1), path, identity, [])
    assert course.load_network(path, {**identity, "seed": 15})[1] == (
        "w.npz was made from other settings, data or code")
    other = course.network_identity("19_confidence", seed=14, data="other")
    assert course.load_network(path, other)[0] is None
    about = course.persist.read_about(path)
    course.persist.save(small_classifier(2), path, about=about)   # other weights, the old checksum
    assert course.load_network(path, identity)[1] == "w.npz's weights do not match their checksum"
    path.write_bytes(path.read_bytes()[:100])
    net, why = course.load_network(path, identity)
    assert net is None and why.startswith("w.npz is unreadable (")


def test_the_committed_table1_is_the_readme_headline(course):
    """Tutorials 10 and 12 print the record whose α = 0.9 row the README's results table quotes."""
    if course.committed_table1() is None:
        pytest.skip("the committed records are not in this checkout")
    record, rows = course.committed_table1()
    r = rows["0.9"]
    quoted = f"| {r['subopt']:.2f} ± {r['subopt_sd']:.2f} %, {r['optimal']:.1f} %, "
    line = next(x for x in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                if x.startswith("| Table 1 (Korf's 100)"))
    assert quoted in line and f"({len(record['runs'])} runs" in line
    assert rows["MD"]["runs"] > 0 and all(row["runs"] > 0 for row in rows.values())


def test_the_teacher_in_parts_is_the_teacher_in_one_call(course):
    """Tutorials 19 and 20 solve the teacher's seeds in parts, a line after each: the same data."""
    from la.heller.teacher import label_plans, teacher_heuristic
    from la.domains.walk import random_walk
    seeds = random_walk(EIGHT, np.arange(1, 13), np.random.default_rng(3), n=12)
    lines, md = [], teacher_heuristic(EIGHT)
    parts = course.teacher_in_parts(EIGHT, md, seeds, 5_000, part=5, progress=lines.append)
    whole = label_plans(EIGHT, seeds, md, 5_000)
    for field in ("states", "costs", "starts", "seeds", "solved"):
        mine, theirs = getattr(parts, field), getattr(whole, field)
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), field
    assert parts.generated == whole.generated
    assert [line.split(" (")[0] for line in lines] == [
        f"  {k} of 12 seeds solved" for k in (5, 10, 12)]


def test_the_committed_table1_header_names_its_runs_and_both_files(course):
    """Tutorials 10 and 12 introduce the committed record with this one line (it used to be typed
    out in both)."""
    line = course.committed_table1_header({"runs": [{}, {}, {}]})
    assert line.startswith("\nthe committed full-scale record, 3 runs of the paper's protocol (")
    assert str(course.TABLE1_RECORD.relative_to(ROOT)) in line
    assert str(course.MD_RECORD.relative_to(ROOT)) in line and line.endswith("on Korf's 100")
