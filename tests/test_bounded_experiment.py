"""`python -m la.experiments.bounded --quick`, end to end in-process: its rows, results files and
figure; every certificate checked against the known optimal costs; the same results (but the
timings) after a unit cut short and resumed (and, in the slow tier, with two jobs); bad input
refused in one line (exit 2) with nothing written."""
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from la import data
from la.experiments import bounded
from la.experiments.bounded_config import config_for, networks_folder
from la.experiments.trained import trained_network
from la.heuristics.likely_admissible import LikelyAdmissible
from la.search.best_first import within
from refusals import refused
from tests.test_numerics import untimed


def results(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("bounded") / "quick"
    assert bounded.main(["--quick", "--out", str(out)]) == 0
    return out, results(out)


def test_the_quick_run_writes_its_rows_files_and_figure(quick):
    out, record = quick
    cfg = config_for("15-puzzle", quick=True)
    names = [(r["search"], r["heuristic"], r["weight"]) for r in record["table"]]
    assert names == cfg.units() + [("ida", h, None) for h in cfg.heuristics]
    assert all(r["tasks"] == 2 for r in record["table"])
    # the committed IDA* rows, read, not run: Korf #16 and #55 of Table 1's run 1
    ida = {r["heuristic"]: r for r in record["ida"]}
    assert [t["id"] for t in ida["y0.9"]["records"]] == [16, 55]
    csv = (out / "results.csv").read_text().splitlines()
    assert csv[0].startswith("search,heuristic,weight,id,optimal")
    assert len(csv) == 1 + 2 * len(record["table"])
    assert (out / "bounded_15-puzzle.png").read_bytes()[:4] == b"\x89PNG"


def test_every_certificate_holds_against_the_known_optimal_cost(quick):
    _, record = quick
    optimal = {i.id: i.optimal for i in data.korf100()}
    solved = unsolved = 0
    for unit in record["units"]:
        w = unit["weight"]
        for r in unit["records"]:
            assert r["optimal"] == optimal[r["id"]]
            assert r["lower_bound"] <= r["optimal"]
            if r["solved"]:
                solved += 1
                assert r["cost"] <= within(w, r["optimal"]) and r["certified_ratio"] <= w
                assert r["cost"] <= w * r["lower_bound"] + 1e-9
            else:
                unsolved += 1
                assert r["status"] in ("node limit", "memory limit") and r["cost"] is None
        assert unit["violations"] == 0
    assert solved and unsolved          # both kinds of record are checked


def test_a_unit_cut_short_resumes_to_the_same_results(quick, tmp_path, capsys):
    source, record = quick
    out = tmp_path / "cut"
    shutil.copytree(source, out)
    unit = out / "focal-y0.9" / "w2"
    done = json.loads((unit / "unit.json").read_text())["records"]
    (unit / "unit.json").unlink()
    (unit / "tasks.json").write_text(json.dumps(done[:1]))
    (out / "results.json").unlink()
    assert bounded.main(["--quick", "--out", str(out), "--resume"]) == 0
    assert "continuing after the 1 tasks done before" in capsys.readouterr().out
    assert untimed(results(out)) == untimed(record)


@pytest.mark.slow
def test_two_jobs_give_the_same_results(quick, tmp_path):
    _, record = quick
    assert bounded.main(["--quick", "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    assert untimed(results(tmp_path / "two")) == untimed(record)


def test_y_half_is_the_alpha_networks_mean():
    """Why no row repeats y^0.5 as "μ of the α network": Φ⁻¹(0.5) = 0, so the two are one."""
    spec = {"config": config_for("15-puzzle"), "networks": str(networks_folder("15-puzzle")),
            "run": 1}
    network, encoding = trained_network(spec, "alpha")
    states = np.stack([i.state for i in data.korf100()])
    np.testing.assert_array_equal(LikelyAdmissible(network, encoding, 0.5)(states),
                                  LikelyAdmissible(network, encoding, None)(states))


@pytest.mark.parametrize("argv, message", [
    (["--domain", "3x4-puzzle"], "invalid choice"),
    (["--domain", "15-blocksworld", "--floor", "gap"], "--floor gap is not an admissible floor"),
    (["--floor", "max-pdb"], "--floor max-pdb is not an admissible floor of the 15-puzzle"),
    (["--domain", "24-pancake", "--network-run", "2"], "--network-run 2: the committed"),
    (["--node-limit", "0"], "--node-limit: must be at least 1"),
    (["--weights", "1.5,0.9"], "--weights: must be at least 1, got '0.9'"),
    (["--weights", ","], "--weights: name at least one weight"),
    (["--memory-limit", "1.5"], "--memory-limit: expected an integer"),
    (["--quick", "--resume"], "nothing to resume"),
    (["--quick", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    refused(bounded.main, [*argv, "--out", tmp_path / "x"], capsys, message, absent=tmp_path / "x")
