"""The command-line entry points: output, exit status, one-line errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from la.domains.sliding_tile import SlidingTile
from la.search import check_plan
from refusals import refused_process

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_solve_korf_instance_as_json():
    out = run("la.solve", "--korf", "12", "--json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert {"solved", "cost", "plan", "generated", "expanded", "seconds"} <= set(record)
    assert record["solved"] and record["cost"] == record["optimal"] == 45
    check_plan(SlidingTile(4), np.array(record["start"]), np.array(record["plan"]))


def test_solve_human_output_and_reference_algorithm():
    out = run("la.solve", "--domain", "8-puzzle", "8 1 2 0 4 3 7 5 6", "--algorithm", "reference")
    assert out.returncode == 0, out.stderr
    assert "cost 21" in out.stdout and "generated" in out.stdout and "nodes/s" in out.stdout


def test_solve_other_domains():
    assert run("la.solve", "--domain", "10-pancake", "9 3 5 1 0 2 8 7 4 6").returncode == 0
    # stacks [1 2] [3 4 5] [6]: 5 and 4 off, then 3, 4, 5 and 6 onto the tower: 6 moves
    out = run("la.solve", "--domain", "6-blocksworld", "--json", "0 1 0 3 4 0")
    assert json.loads(out.stdout)["cost"] == 6


def test_unsolved_within_the_node_limit_exits_1():
    out = run("la.solve", "--korf", "1", "--node-limit", "1000")
    assert out.returncode == 1 and "not solved (node limit)" in out.stdout


@pytest.mark.parametrize("args, message", [
    (["1 2 3"], "has 16 numbers"),
    (["0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15"], "unsolvable"),
    (["--korf", "0"], "--korf: must be at least 1"),
    (["--korf24", "51"], "no instance 51"),
    (["--domain", "15-towers", "1 2"], "unknown domain"),
    (["--domain", "5-pancake", "--heuristic", "md", "0 1 2 3 4"], "'md'"),
    (["--heuristic", "mystery", "--korf", "1"], "invalid choice"),
    (["--korf", "1", "0 1 2"], "exactly one of"),
    ([], "exactly one of"),
    (["--korf", "1", "--node-limit", "0"], "--node-limit: must be at least 1"),
    (["--domain", "4-blocksworld", "0 1 1 0"], "both stand on block 1"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    refused_process(run("la.solve", *args), message)


def test_bench_search_quick_json():
    out = run("la.bench", "--only", "search", "--quick", "--json")
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)["search"]
    assert row["batched"]["nodes_per_second"] > 0 and row["ratio"] > 1


def test_bench_rejects_unknown_sections():
    refused_process(run("la.bench", "--only", "everything"), "unknown benchmark section")


@pytest.mark.slow
def test_bench_network_sections_quick_json():
    out = run("la.bench", "--only", "nn,neural", "--quick", "--json")
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)
    assert {r["name"] for r in results["nn"]} >= {"wunn_sigma_e_sampled", "wunn_sigma_e_exact"}
    assert results["neural"]["ratio"] > 1 and results["neural"]["batched"]["generated"] > 0


def test_solve_help_gives_state_formats_exit_codes_and_json_fields():
    out = run("la.solve", "--help")
    assert out.returncode == 0
    for text in ("<n>-puzzle", "<n>-pancake", "<n>-blocksworld", "exit status", "--json prints",
                 "--order", "--weight"):
        assert text in out.stdout


def test_solve_prints_the_plan_and_a_line_per_iteration():
    out = run("la.solve", "--domain", "8-puzzle", "1", "4", "2", "3", "0", "5", "6", "7", "8")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    plan = lines[lines.index("plan (2 moves), one state per line:") + 1:][:3]
    assert plan == ["1 4 2 3 0 5 6 7 8", "1 0 2 3 4 5 6 7 8", "0 1 2 3 4 5 6 7 8"]
    iterations = out.stderr.splitlines()
    assert len(iterations) == 1 and iterations[0].startswith("iteration: bound 2  3 nodes")


def test_solve_weight_and_order_show_the_two_goals():
    costs = {order: json.loads(run("la.solve", "--korf", "12", "--weight", "2", "--order", order,
                                   "--json").stdout)
             for order in ("depth-first", "batched")}
    reference = json.loads(run("la.solve", "--korf", "12", "--weight", "2", "--algorithm",
                               "reference", "--json").stdout)
    assert ((costs["depth-first"]["cost"], costs["depth-first"]["generated"])
            == (reference["cost"], reference["generated"]))
    assert costs["batched"]["cost"] < costs["depth-first"]["cost"]


@pytest.mark.parametrize("name", ["run1/../x", "a b", "", "run1/.", "run1/test-N:A"])
def test_unit_folder_names_must_be_safe_path_components(name, tmp_path):
    from la.runs.runner import run_units
    with pytest.raises(ValueError, match="unit name"):
        run_units(lambda *a: {}, [{"name": name}], tmp_path, jobs=1, progress=None)


# buffered, the output meets the closed pipe at the end
@pytest.mark.parametrize("unbuffered", [False, True])
def test_output_cut_short_by_its_reader_ends_quietly(unbuffered):
    """`python -m ... | head`: the reader closes the pipe before the command writes; no traceback,
    status 1."""
    env = ({k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
           | ({"PYTHONUNBUFFERED": "1"} if unbuffered else {}))
    process = subprocess.Popen([sys.executable, "-m", "la.experiments.table1_gap"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()                # before the command has imported NumPy, let alone printed
    err = process.stderr.read()
    assert process.wait(timeout=120) == 1 and err == ""


COMMANDS = ("la.solve", "la.pdb.__main__", "la.data.make_test_sets",
            "la.experiments.diagnostics",
            "la.experiments.suboptimality", "la.experiments.efficiency",
            "la.experiments.confidence",
            "la.experiments.label_audit", "la.experiments.confidence_pilot",
            "la.experiments.merge", "la.experiments.table1_gap", "la.experiments.ground_truth",
            "la.experiments.bounded", "la.experiments.ground_truth_blocks")


@pytest.mark.parametrize("module", COMMANDS)
def test_each_commands_help_describes_it_in_a_whole_sentence(module):
    """--help shows the module docstring's first paragraph, joined: a sentence cut at a wrapped
    line (what `__doc__.split("\\n")[0]` gave once the docstrings were wrapped) would show."""
    import importlib

    from la.runs.cli import first_paragraph
    text = first_paragraph(importlib.import_module(module).__doc__)
    assert "\n" not in text and "  " not in text and text.rstrip(")").endswith((".", "?", "/"))
    assert first_paragraph("One line\nand its end.\n\nMore.") == "One line and its end."


def test_solve_reads_korf_numbers_as_other_integers_and_domain_names_in_any_case(capsys):
    """Issue 58, K: `--korf 1e1` is instance 10, and `--domain 15-PUZZLE` goes with `--korf`."""
    import la.solve as solve
    from la import data
    from la.runs import cli
    for argv, instance in [(["--korf", "1e1"], 10), (["--domain", "15-PUZZLE", "--korf", "1"], 1)]:
        assert cli.run(solve.main, [*argv, "--node-limit", "10", "--json"]) == 1
        record = json.loads(capsys.readouterr().out)
        assert record["start"] == data.korf100()[instance - 1].state.tolist()
