"""Test tiers: the default suite runs in a few minutes; `python -m pytest --slow` adds the long
checks."""
import sys
from pathlib import Path

import pytest

# `la` from any folder, tests/ included, whatever pytest makes of pyproject.toml's `pythonpath`
# (a pytest before 7 ignores it)
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import la  # noqa: E402, F401  (so that NumPy loads with one BLAS thread: la/__init__.py)


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the long checks (all of Korf's 100, every tutorial, ...)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long check, run only with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
