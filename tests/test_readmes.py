"""The READMEs: every relative link, every repository path and every `la` module they name exists;
the front page stays a front page (at most 260 lines)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = ["README.md", "figures/README.md", "la/experiments/README.md", "la/bench/README.md",
           "figures/unfinished/README.md", "figures/table1-gap/README.md",
           "figures/ARCHIVES.md", "tutorials/GLOSSARY.md"]
MAX_FRONT_PAGE_LINES = 260

# backticked paths under these are repository paths
PREFIXES = ("la/", "figures/", "tutorials/", "tests/")
# `figures/table3_<domain>.json`, `run*/`, `{a,b}`
PLACEHOLDER = re.compile(r"[<*{]")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
MODULE = re.compile(r"^la(\.[A-Za-z_]\w*)+$")
# the tutorials table names files without their folder
TUTORIAL = re.compile(r"^\d\d_\w+\.py$")
# written by running the tutorials, ignored by git
GENERATED = ("figures/tutorials/",)


def code_tokens(text: str) -> list:
    """The whitespace-separated words of every inline code span and fenced block of a markdown
    text."""
    blocks = FENCE.findall(text)
    spans = INLINE_CODE.findall(FENCE.sub("", text))
    return [word.strip(",;:()'\"") for part in blocks + spans for word in part.split()]


def module_exists(name: str) -> bool:
    """`la.a.b` is a module or package of the repository, or a name defined at the top of module
    `la.a`."""
    path = ROOT.joinpath(*name.split("."))
    if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
        return True
    parent, attribute = path.parent, path.name
    for source in (parent.with_suffix(".py"), parent / "__init__.py"):
        if source.is_file():
            defined = re.compile(rf"^(def|class)\s+{attribute}\b|^{attribute}\s*[:=]", re.M)
            return bool(defined.search(source.read_text(encoding="utf-8")))
    return False


def missing(text: str, folder: Path) -> list:
    """What a README in `folder` names that does not exist: relative links (from `folder`),
    backticked repository paths (from the repository root), tutorial files and `la` modules."""
    out = []
    for target in LINK.findall(FENCE.sub("", text)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            # http:, mailto:, an anchor on the same page
            continue
        path = target.split("#")[0]
        if not (folder / path).exists():
            out.append(f"link ({target})")
    for word in code_tokens(text):
        if PLACEHOLDER.search(word):
            continue
        if word.startswith(PREFIXES):
            if not (ROOT / word).exists() and not word.startswith(GENERATED):
                out.append(f"path `{word}`")
        elif TUTORIAL.match(word):
            if not (ROOT / "tutorials" / word).exists():
                out.append(f"tutorial `{word}`")
        elif MODULE.match(word) and not module_exists(word):
            out.append(f"module `{word}`")
    return sorted(set(out))


@pytest.mark.parametrize("readme", READMES)
def test_everything_a_readme_names_exists(readme):
    path = ROOT / readme
    assert path.is_file(), f"{readme} is missing"
    gone = missing(path.read_text(encoding="utf-8"), path.parent)
    assert not gone, (f"{readme} names {len(gone)} thing(s) that do not exist:\n  "
                      + "\n  ".join(gone))


def test_the_front_page_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_FRONT_PAGE_LINES, (f"README.md has {lines} lines, more than "
                                           f"{MAX_FRONT_PAGE_LINES}")


def test_the_check_reports_what_is_missing(tmp_path):
    text = ("See [the results](figures/README.md), [nowhere](no/such/file.md#part), "
            "[a site](https://example.org)\n"
            "and [this page](#top). The learner is `la/learn.py`; `la/no_such_module.py` and "
            "`figures/nothing.json` are not,\n"
            "nor `tutorials/99_nothing.py`; `figures/table3_<domain>.json` and `figures/*.png` "
            "are placeholders.\n"
            "`la.search.ida_star` and `la.config.LearnConfig` exist, `la.no_such_module` and "
            "`la.config.nothing` do not.\n"
            "\n"
            "```\n"
            "python -m la.solve --network figures/no-such-networks/run1/network.npz\n"
            "```\n"
            "\n"
            "| `00_the_problem.py` | `98_no_tutorial.py` |\n")
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "README.md").write_text("")
    assert missing(text, tmp_path) == sorted([
        "link (no/such/file.md#part)",
        "path `la/no_such_module.py`", "path `figures/nothing.json`",
        "path `tutorials/99_nothing.py`", "path `figures/no-such-networks/run1/network.npz`",
        "module `la.no_such_module`", "module `la.config.nothing`", "tutorial `98_no_tutorial.py`",
    ])
