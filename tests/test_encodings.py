"""Text files in UTF-8 whatever the locale: every text file `la` opens says its encoding, and a run
under an ASCII locale (stricter than Latin-1: any byte above 127 fails instead of being misread)
writes and reads back its records with α and σ in them (issue 58 gaps, item 3). JSON is written
with its non-ASCII characters escaped and la.io writes text as UTF-8, so the run held before the
scan's sites were fixed; the scan keeps every future reader and writer honest."""
import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def unstated(tree) -> list:
    """(line, call) for every text-mode open, read_text or write_text that names no encoding: the
    builtin open, Path.open / read_text / write_text, io.open, os.fdopen. `write_text(path, text)`
    called by its own name is la.io's, which writes UTF-8."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, keywords = node.func, {k.arg for k in node.keywords}
        if "encoding" in keywords:
            continue
        if isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if func.attr in ("read_text", "write_text"):
                found.append((node.lineno, func.attr))
            elif func.attr == "open" and owner != "os" and _text_mode(node, owner == "io"):
                found.append((node.lineno, func.attr))       # Path.open(mode), io.open(file, mode)
            elif func.attr == "fdopen" and _text_mode(node, 1):
                found.append((node.lineno, func.attr))
        elif isinstance(func, ast.Name) and func.id == "open" and _text_mode(node, 1):
            found.append((node.lineno, "open"))
    return found


def _text_mode(call, position: int) -> bool:
    """Whether the call's mode (argument `position`, or mode=) may be text: no "b" in a constant."""
    mode = next((k.value for k in call.keywords if k.arg == "mode"),
                call.args[position] if len(call.args) > position else None)
    return not (isinstance(mode, ast.Constant) and "b" in str(mode.value))


def test_every_text_file_la_opens_names_its_encoding():
    files = sorted((ROOT / "la").rglob("*.py"))
    wrong = [f"{p.relative_to(ROOT)}:{line}: {call}" for p in files
             for line, call in unstated(ast.parse(p.read_text(encoding="utf-8")))]
    assert len(files) > 100 and wrong == []


def test_the_scan_sees_each_kind_of_call_and_passes_binary_and_stated_ones():
    code = ("open(p)\nopen(p, 'w')\npath.read_text()\npath.write_text(t)\npath.open('a')\n"
            "os.fdopen(fd, 'w')\nopen(p, 'rb')\nopen(p, encoding='utf-8')\nos.open(p, flags)\n"
            "path.read_text(encoding='utf-8')\nwrite_text(path, t)\nos.fdopen(fd, 'wb')\n")
    assert [line for line, _ in unstated(ast.parse(code))] == [1, 2, 3, 4, 5, 6]


PROBE = """
import json, locale, sys
from pathlib import Path
import la
from la.io import write_json, write_text
from la.runs.folder import check_folder, prepare, read_experiment, read_result, resume_command
from la.runs.lock import release

assert "utf" not in locale.getpreferredencoding(False).lower(), locale.getpreferredencoding(False)
out = Path(sys.argv[1])
settings = {"config": {"signal": "σ_a", "alpha": "α = 0.95", "bound": "h ≤ 1.5·h*"}}
prepare(out, settings, False, ["python", "-m", "la.experiments.toy", "--out", str(out)])
write_json(out / "run1" / "unit.json", {"summary": "α 0.95: 3/3 solved, σ_a ≤ 1.5"})
check_folder(out)
release(out)
assert read_experiment(out)["settings"] == settings
assert read_result(out / "run1" / "unit.json")["summary"].startswith("α")
write_text(out / "results.csv", "signal,alpha\\nσ_a,0.95\\n")
assert (out / "results.csv").read_bytes().decode("utf-8").startswith("signal,alpha\\nσ_a")
print(resume_command(out))
"""


def test_records_with_alpha_are_written_and_read_back_under_an_ascii_locale(tmp_path):
    """C locale, its coercion to UTF-8 and Python's UTF-8 mode off: an ASCII preferred encoding."""
    environment = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0",
                   "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": "latin-1"}
    probe = tmp_path / "probe.py"          # Python reads its source as UTF-8 whatever the locale
    probe.write_text(PROBE, encoding="utf-8")
    done = subprocess.run([sys.executable, str(probe), str(tmp_path / "out")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**environment, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "-m", "la.experiments.toy", "--out",
                                   str(tmp_path / "out"), "--resume"]
