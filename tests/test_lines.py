"""Lines wrapped at 100 characters in la/, tests/ and tutorials/ (CI runs no linter; this is its one
rule that matters to a reader, the width of a side-by-side diff or a laptop's editor)."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 100                                  # also pyproject.toml's [tool.ruff] line-length
FOLDERS = ("la", "tests", "tutorials")


def too_long(path: Path, width: int = WIDTH) -> list:
    """`path:line: length` for every line of `path` longer than `width` characters (not bytes:
    'α' is one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{i}: {len(line)}"
            for i, line in enumerate(lines, 1) if len(line) > width]


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_line_is_over_100_characters(folder):
    files = sorted((ROOT / folder).rglob("*.py"))
    assert len(files) > 5
    wrong = [entry for path in files for entry in too_long(path)]
    assert wrong == [], f"{len(wrong)} lines over {WIDTH} characters:\n" + "\n".join(wrong[:40])


def test_the_check_counts_characters_and_catches_one_line_over(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("# " + "α" * 98 + "\n" + "x = 1  # " + "β" * 92 + "\n", encoding="utf-8")
    assert too_long(probe) == ["probe.py:2: 101"]          # line 1: 100 characters, 198 bytes


def test_pyproject_sets_the_same_width():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f"line-length = {WIDTH}" in text
