"""`python -m la.plots` when the world is against it: a full disk part-way, a figure's file name
taken by a folder, a figure that fails to draw. Each ends in one line and exit status 2 with the
--out folder as it was; and every file the command writes is among those it checked first. Then two
figures drawn from records that hold little: no learning curves (no empty legend), no solved task
(no log axis of nothing)."""
import copy
import errno
import io
import json
import os
import shutil
import warnings
from pathlib import Path

import matplotlib.figure
import pytest

import la.plots.__main__ as plots
from la.plots import confidence as plots_confidence
from la.plots import style as plots_style
from la.plots import tables as plots_tables
from la.runs.cli import run

DATA = Path(__file__).resolve().parent / "data"
FIGURES = plots_style.FIGURES
SMALL = ["--efficiency", str(DATA / "efficiency_quick.json"),
         "--suboptimality", str(DATA / "suboptimality_quick.json")]


@pytest.fixture
def only_given(monkeypatch, tmp_path):
    """No committed record drawn by default: only those a test names."""
    monkeypatch.setattr(plots, "FIGURES", tmp_path / "no-committed-records")


def tree(folder: Path) -> dict:
    """Every file under `folder` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def full_disk_after(monkeypatch, figures: int) -> None:
    """The disk fills while the figure after the first `figures` is written: half of its PNG, then
    ENOSPC."""
    real, saved = matplotlib.figure.Figure.savefig, []

    def savefig(fig, target, **kwargs):
        saved.append(target)
        if len(saved) <= figures:
            return real(fig, target, **kwargs)
        png = io.BytesIO()
        real(fig, png, **kwargs)
        half = png.getvalue()[:len(png.getvalue()) // 2]
        target.write(half) if hasattr(target, "write") else Path(target).write_bytes(half)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)


def a_figure_fails(monkeypatch, figures: int) -> None:
    """The learning curves, drawn after `figures` = 3 others, fail on a record they cannot draw
    (ValueError)."""
    def learning_curves(*args, **kwargs):
        raise ValueError("learning curves: this record cannot be drawn")
    monkeypatch.setattr(plots_tables, "learning_curves", learning_curves)


@pytest.mark.parametrize("fault, figures, message",
                         [(full_disk_after, 0, "No space left on device"),
                          (full_disk_after, 2, "No space left on device"),
                          (a_figure_fails, 3, "cannot be drawn")])
def test_a_failure_part_way_leaves_the_folder_as_it_was(fault, figures, message, only_given,
                                                        tmp_path, monkeypatch, capsys):
    out = tmp_path / "figs"
    out.mkdir()
    (out / "table2_efficiency.png").write_bytes(b"the old figure")
    (out / "notes.txt").write_text("the user's own file")
    before = tree(out)
    fault(monkeypatch, figures)
    assert run(plots.main, SMALL + ["--out", str(out), "--copy"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1, captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert tree(out) == before and sorted(os.listdir(out)) == ["notes.txt", "table2_efficiency.png"]


def test_a_full_disk_names_the_figure_and_removes_the_folders_it_made(only_given, tmp_path,
                                                                      monkeypatch, capsys):
    full_disk_after(monkeypatch, 1)           # table2_efficiency.png, then table1_suboptimality.png
    out = tmp_path / "new" / "figs"
    assert run(plots.main, SMALL + ["--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert (f"cannot write {str(out / 'table1_suboptimality.png')!r} (No space left on device)"
            in err), err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("taken, copying", [("table2_efficiency.png", False),
                                            ("learning_curves.png", False),
                                            ("suboptimality.json", True)])
def test_a_file_name_taken_by_a_folder_is_refused_before_anything_is_drawn(taken, copying,
                                                                           only_given, tmp_path,
                                                                           monkeypatch, capsys):
    out = tmp_path / "figs"
    (out / taken).mkdir(parents=True)
    (out / taken / "inside.txt").write_text("kept")
    drawn = []
    monkeypatch.setattr(plots_style, "save", lambda fig, path: drawn.append(path))
    assert run(plots.main, SMALL + ["--out", str(out)] + (["--copy"] if copying else [])) == 2
    err = capsys.readouterr().err
    assert f"{str(out / taken)!r} is a folder" in err and len(err.strip().splitlines()) == 1, err
    assert drawn == [] and tree(out) == {f"{taken}/inside.txt": b"kept"}


def test_every_file_written_was_checked_first_and_no_legend_is_empty(tmp_path, monkeypatch):
    """Over every committed record (drawn, not laid out or rendered: `save` only touches the file):
    the files in --out are exactly those `all_plans` lists, which `check_targets` checks; and no
    figure warns (an empty legend)."""
    def save(fig, path):
        Path(path).touch()
        plots_style.plt.close(fig)
    monkeypatch.setattr(plots_style, "save", save)
    # the slow part
    monkeypatch.setattr(matplotlib.figure.Figure, "tight_layout", lambda fig, **kwargs: None)
    out = tmp_path / "figs"
    args = plots.parse_args(["--out", str(out), "--copy"])
    records, paths = plots.read_all(args)
    planned = [f for files, _ in plots.all_plans(records, out).values() for f in files]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert plots.main(["--out", str(out), "--copy"]) == 0
    assert sorted(os.listdir(out)) == sorted(planned + [f"{name}.json" for name in records])
    assert len(set(planned)) == len(planned)               # no two records draw the same file


def test_a_record_without_learning_curves_draws_none_and_no_empty_legend(tmp_path):
    record = json.loads((DATA / "suboptimality_quick.json").read_text())
    # a test of saved networks without their logs
    record["learning_curves"] = {"alpha": [], "mean": []}
    with warnings.catch_warnings():
        warnings.simplefilter("error")                          # "No artists with labels found ..."
        notes = plots_tables.all_from_suboptimality(record, tmp_path)
    assert any(note.startswith("learning curves not drawn") for note in notes)
    assert sorted(os.listdir(tmp_path)) == ["calibration.png", "figure1_generate_task.png",
                                            "table1_suboptimality.png"]


@pytest.mark.parametrize("unsolved", [("single", "dual"), ("dual",)])
def test_a_coverage_panel_without_a_solved_task_says_so_instead_of_a_log_axis(unsolved, tmp_path,
                                                                              monkeypatch):
    """The 24-puzzle's --quick run solves no task within 3,000 nodes: a log axis of no positive
    value cannot be drawn, so those panels say why they are empty."""
    record = copy.deepcopy(plots_confidence.read_confidence(FIGURES / "confidence_24-pancake.json"))
    for r in record["coverage"]:
        if r["queue"] in unsolved or r["signal"] == "classical":   # classical: drawn in both panels
            r.update(coverage=0.0, coverage_sd=0.0, generated=None, generated_sd=None)
    figures = {}
    real = plots_style.save
    monkeypatch.setattr(plots_style, "save",
                        lambda fig, path: figures.update({Path(path).name: fig}) or real(fig, path))
    plots_confidence.coverage(record, tmp_path / "coverage.png")
    assert (tmp_path / "coverage.png").stat().st_size > 0
    for col, queue in enumerate(("single", "dual")):
        ax = figures["coverage.png"].axes[2 + col]                 # the row of mean generated nodes
        said = [t.get_text() for t in ax.texts]
        if queue in unsolved:
            assert said == ["no task solved: no mean to show"] and ax.get_yscale() == "linear"
        else:
            assert said == [] and ax.get_yscale() == "log"


def test_copy_leaves_a_record_already_in_the_out_folder_under_its_own_name(only_given, tmp_path,
                                                                           monkeypatch):
    """figures/baselines_24-puzzle_boot.json is the 24-puzzle's baselines record: `--copy` into
    figures/ must not add a second copy of it as baselines_24-puzzle.json (records from elsewhere
    are still copied)."""
    monkeypatch.setattr(plots_style, "save",
                        lambda fig, path: (Path(path).touch(), plots_style.plt.close(fig)))
    out = tmp_path / "figs"
    out.mkdir()
    shutil.copy(FIGURES / "baselines_24-puzzle_boot.json", out)
    assert plots.main(SMALL + ["--baselines", str(out / "baselines_24-puzzle_boot.json"),
                               "--out", str(out), "--copy"]) == 0
    assert sorted(p.name for p in out.glob("*.json")) == ["baselines_24-puzzle_boot.json",
                                                          "efficiency.json", "suboptimality.json"]
