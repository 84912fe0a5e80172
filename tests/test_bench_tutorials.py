"""The tutorials' benchmark section (la/bench/tutorials.py): what it measures, on small scripts; no
timings asserted beyond what a sleep guarantees (less the reader's lag on a loaded machine)."""
import sys

from la.bench import tutorials


def test_lines_are_stamped_and_the_longest_silence_found():
    script = "import time; print('a', flush=True); time.sleep(1.0); print('b', flush=True)"
    r = tutorials.timed_lines([sys.executable, "-c", script])
    assert r["status"] == 0 and r["lines"] == 2
    assert (r["first_line"] is not None and r["longest_silence"] >= 0.5
            and r["wall"] >= r["longest_silence"])


def test_a_silent_failing_script_is_reported_as_such():
    r = tutorials.timed_lines([sys.executable, "-c", "import sys; sys.exit(3)"])
    assert r["status"] == 3 and r["lines"] == 0 and r["first_line"] is None
    line = tutorials.report({"x.py": r})[1]
    assert "EXIT 3" in line and "first line" in line and "(over: first line)" in line


def test_every_tutorial_is_found_in_reading_order():
    names = [p.name for p in tutorials.tutorials()]
    assert names == sorted(names) and names[0].startswith("00_") and len(names) >= 17
