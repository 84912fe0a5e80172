"""Table 3 (`la.experiments.table3` through `la.experiments.suboptimality --domain`): the paper's
values and budgets, the states calibration reads with their exact h*, the experiment's units and
command end to end on toy feature domains (an 8-pancake and a 6-blocksworld with small PDBs built
into a temporary folder), so that no paper-sized PDB is needed here, and the figures `la.plots`
draws from their records. The 24-pancake's --quick run end to end is in the slow tier
(tests/test_experiments.py)."""
import json
import os
import shutil
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pytest

import la.experiments.suboptimality as suboptimality
import la.experiments.suboptimality_units as units
import la.pdb.store
import la.plots.__main__ as plots
from la import data
from la.config import DOMAINS, LearnConfig
from la.data import Instance
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost
from la.domains.names import make_domain
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.experiments import table1, table3
from la.experiments.suboptimality_table import format_table, reductions, table
from la.features.blocksworld import BlockFeatures
from la.features.encodings import describe
from la.features.pancake import PancakeFeatures
from la.heuristics.classical import Gap
from la.nn import FFNN
from la.nn.config import FFNNConfig, WUNNConfig
from la.pdb.sets import abstraction
from la.pdb.store import load
from la.plots import style as plots_style
from la.rivals.calibration import optimal_plans, states_with_h_star, uniform_blocksworld
from la.runs import cli
from la.runs.network import load_network
from la.runs.persist import save
from la.runs.runner import run_units, unit_rng
from la.search import check_plan
from la.search.bfs import ExactDistances
from refusals import refused, status

ROOT = Path(__file__).resolve().parents[1]

FEATURE_DOMAINS = ("24-puzzle", "24-pancake", "15-blocksworld")
TOY = LearnConfig(num_iter=3, node_limit=50_000, max_steps=40, train_iter=60, wunn_blocks=3,
                  ffnn=FFNNConfig(n_hidden=8, dropout=0.0), wunn=WUNNConfig(n_hidden=8))
TOY_MEAN = replace(TOY, ffnn=FFNNConfig(n_hidden=8, n_out=1, dropout=0.0))
DATA = Path(__file__).resolve().parent / "data"
TOYS = {"8-pancake": (Pancake(8), PancakeFeatures, {"A": [[0, 1, 2, 3], [4, 5, 6, 7]],
                                                    "B": [[0, 1, 6, 7], [2, 3, 4, 5]]}),
        "6-blocksworld": (Blocksworld(6), BlockFeatures,
                          {"max": [[1, 2, 3, 4], [3, 4, 5, 6], [1, 2, 5, 6]]})}


def quiet(fraction, text):
    """A PDB build's progress, not shown."""


# --- the paper's values, budgets and configurations -----------------------------------------------

def test_the_papers_rows_agree_with_the_node_rates_la_config_derives_from_them():
    for domain in FEATURE_DOMAINS:
        rows = table3.PAPER[domain]
        assert {str(a) for a in table3.full(domain).alphas} | {"N/A"} <= set(rows)
        seconds, nodes = rows["0.9"][:2]
        # la/config.py's source
        assert DOMAINS[domain].nodes_per_second == pytest.approx(nodes / seconds)
        assert all(0 <= row[2] <= 100 and 0 <= row[3] <= 100 for row in rows.values())
        budget = table3.test_budget(domain)
        assert budget >= 9.9 * max(row[1] for name, row in rows.items()
                                   if name not in ("PDB", "Gap"))
    assert (table3.PAPER["24-pancake"]["Gap"][1] == 48_599.5
            and table3.PAPER["24-puzzle"]["PDB"][0] is None)


@pytest.mark.parametrize("domain", FEATURE_DOMAINS)
def test_each_scale_keeps_the_papers_settings_or_says_what_it_reduced(domain):
    scales = table3.configs(domain)
    full = scales["full"]
    assert (full.learn == DOMAINS[domain].learn()
            and full.learn_mean == DOMAINS[domain].learn(n_out=1))
    # paper §5: 5 runs, 50 tasks
    assert (full.runs, scales["paper"].runs, len(full.instances)) == (1, 5, 50)
    assert full.rows()[0] == table3.ROW_NAMES[table3.BASELINES[domain]] and full.rows()[-1] == "N/A"
    assert reductions(full, full) == [] and reductions(scales["paper"], full) == []
    said = "; ".join(reductions(scales["reduced"], full))
    assert "NumIter 20 (paper: 75)" in said and "test tasks" in said
    assert set(scales["reduced"].instances) <= set(full.instances)
    assert scales["quick"].learn.num_iter < scales["reduced"].learn.num_iter < full.learn.num_iter


def test_the_easiest_tasks_are_those_with_the_fewest_published_nodes_or_the_lowest_costs():
    published = data.korf50_24_pdb_nodes()
    assert ({i.id: i.optimal for i in data.korf50_24()}
            == {i: row.optimal for i, row in published.items()})
    counts = {i: row.published for i, row in published.items()}
    chosen = table3.easiest("24-puzzle", 10)
    assert max(counts[i] for i in chosen) < min(counts[i] for i in counts if i not in chosen)
    costs = {i.id: i.optimal for i in data.pancake50_24()}
    chosen = table3.easiest("24-pancake", 20)
    assert (len(chosen) == 20
            and max(costs[i] for i in chosen) <= min(costs[i] for i in costs if i not in chosen))


def test_results_folders_are_named_per_domain_and_the_15_puzzle_keeps_its_own():
    assert suboptimality.default_out("15-puzzle", "reduced").name == "suboptimality-reduced"
    assert suboptimality.default_out("24-pancake", "full").name == "table3-24-pancake-full"
    # so 15-puzzle settings files keep their shape
    assert "domain" not in asdict(table1.DEFAULT)


# --- calibration states with exact h* -------------------------------------------------------------

def small_tasks(domain, n, seed):
    """n tasks of a small domain, walks back from the goal, their optimal costs by breadth-first
    search."""
    exact = ExactDistances(domain)
    starts = random_walk(domain, 12, np.random.default_rng(seed), n=n)
    return [Instance(i + 1, s, int(exact(s[None])[0])) for i, s in enumerate(starts)
            if exact(s[None])[0] > 0], exact


@pytest.mark.parametrize("domain", [SlidingTile(3), Pancake(7), Blocksworld(6)])
def test_every_calibration_state_has_its_exact_h_star(domain):
    tasks, exact = small_tasks(domain, 6, seed=1)
    states, h_star = states_with_h_star(domain, tasks)
    np.testing.assert_array_equal(h_star, exact(states))
    assert len(h_star) == sum(t.optimal for t in tasks)


@pytest.mark.parametrize("name, tasks",
                         [("24-puzzle", data.korf50_24), ("24-pancake", data.pancake50_24),
                          ("15-blocksworld", data.blocksworld50_15)])
def test_the_test_sets_optimal_plans_are_legal_and_as_long_as_their_costs(name, tasks):
    domain, instances = make_domain(name), tasks()
    plans = optimal_plans(domain, instances)
    for instance, plan in zip(instances, plans):
        check_plan(domain, instance.state, plan)
    states, h_star = states_with_h_star(domain, instances)
    assert len(states) == sum(i.optimal for i in instances) and h_star.min() == 1
    if isinstance(domain, Pancake):
        assert (Gap(domain)(states) <= h_star).all()
    if isinstance(domain, Blocksworld):
        np.testing.assert_array_equal(optimal_cost(states), h_star)


def test_a_wrong_stored_cost_is_refused():
    instance = data.pancake50_24()[0]
    with pytest.raises(ValueError, match="stored optimal cost"):
        optimal_plans(Pancake(24), [replace(instance, optimal=instance.optimal + 1)])


def test_uniform_blocksworld_states_come_with_their_exact_cost():
    exact = ExactDistances(Blocksworld(6))
    states, h_star = uniform_blocksworld(6, 300, np.random.default_rng(0))
    np.testing.assert_array_equal(h_star, exact(states))
    assert h_star.min() > 0 and len(np.unique(states, axis=0)) > 150


# --- the units on toy feature domains -------------------------------------------------------------

@pytest.fixture(scope="module")
def pdb_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pdb")
    for name, (_, _, groups) in TOYS.items():
        for pattern in {tuple(p) for patterns in groups.values() for p in patterns}:
            load(abstraction(name, pattern), folder, quiet)
    return folder


def toy_config(name, baseline, folder, **changes):
    domain, kind, groups = TOYS[name]
    encoding = kind(domain, {g: [load(abstraction(name, p), folder, quiet) for p in ps]
                             for g, ps in groups.items()})
    return table3.Table3Config(name, TOY, TOY_MEAN, baseline, alphas=(0.9, 0.5),
                               instances=(1, 2, 3, 4), test_node_limit=200_000,
                               baseline_instances=(1, 2, 3, 4), baseline_node_limit=200_000,
                               encoding=describe(encoding), **changes)


@pytest.fixture
def toy_sets(monkeypatch):
    """Test sets for the toy domains, as `table3.TEST_SETS` holds them for the paper's."""
    sets = {name: small_tasks(domain, 4, seed=5)[0] for name, (domain, _, _) in TOYS.items()}
    for name, tasks in sets.items():
        monkeypatch.setitem(table3.TEST_SETS, name, lambda tasks=tasks: tasks)
    return sets


def run_experiment(cfg, out, folder, runs=(1,)):
    """Train, test and calibrate as `suboptimality.main` does, in this process."""
    base = {"seed": 0, "config": cfg, "networks": str(out), "pdb_dir": str(folder)}
    run_units(units.train_unit, [{**base, "name": f"run{r}/{w}", "run": r, "network": w}
                                         for r in runs for w in ("alpha", "mean")], out, 1, None)
    specs = [{**base, "name": cfg.baseline, "row": cfg.baseline_row}]
    specs += [{**base, "name": f"run{r}/test-{'mean' if row == 'N/A' else row}",
               "run": r, "row": row}
              for r in runs for row in cfg.rows()[1:]]
    tests = run_units(units.test_unit, specs, out, 1, None)
    calibrations = run_units(units.calibration_unit,
                             [{**base, "name": f"run{r}/calibration", "run": r} for r in runs],
                             out, 1, None)
    return tests, calibrations


@pytest.mark.parametrize("baseline", ["gap", "pdb", "max-pdb"])
def test_a_toy_pancake_table_end_to_end(baseline, pdb_folder, toy_sets, tmp_path):
    cfg = toy_config("8-pancake", baseline, pdb_folder)
    tests, calibrations = run_experiment(cfg, tmp_path, pdb_folder)
    about = load_network(tmp_path / "run1" / "alpha" / "network.npz")[1]
    assert about["domain"] == "8-pancake" and about["encoding"] == cfg.encoding
    optimal = {t.id: t.optimal for t in toy_sets["8-pancake"]}
    first = tests[0]
    # admissible: all optimal
    assert first["row"] == table3.ROW_NAMES[baseline] and first["unsolved"] == 0
    assert all(r["cost"] == optimal[r["id"]] for r in first["records"])
    for t in tests[1:]:
        assert [r["id"] for r in t["records"]] == sorted(optimal)
        assert all(r["cost"] >= optimal[r["id"]] for r in t["records"] if r["solved"])
    rows = table(cfg, tests, {})
    assert ([r["row"] for r in rows] == cfg.rows()
            and all(set(r["paper"].values()) == {None} for r in rows))
    assert len(calibrations[0]["calibration"]) == 8 and "calibration_random" not in calibrations[0]
    text = format_table(rows, table3.BOOT["24-pancake"])
    assert "Boot" in text and text.count("?") >= 4 * len(rows)


def test_a_toy_blocksworld_table_calibrates_on_uniform_states_too(pdb_folder, toy_sets, tmp_path):
    cfg = toy_config("6-blocksworld", "max-pdb", pdb_folder, calibration_random=200)
    tests, calibrations = run_experiment(cfg, tmp_path, pdb_folder, runs=(1, 2))
    assert tests[0]["unsolved"] == 0 and tests[0]["optimal"] == 100.0
    for result in calibrations:
        assert len(result["calibration_random"]) == 8 and "uniform states" in result["summary"]
    rows = table(cfg, tests, {})
    # the baseline does not depend on the run
    assert [r["runs"] for r in rows] == [1, 2, 2, 2]


def test_each_finished_task_says_how_many_are_done_and_what_is_left_at_the_rows_pace(
        pdb_folder, toy_sets, tmp_path, monkeypatch):
    cfg = toy_config("8-pancake", "gap", pdb_folder)
    spec = {"seed": 0, "config": cfg, "pdb_dir": str(pdb_folder), "name": "gap", "row": "Gap"}
    ida_star = units.ida_star

    # each search "takes" `seconds`; stop after `searches`
    def taking(seconds, searches=None):
        def search(domain, h, state, **options):
            if searches is not None and not searches:
                raise KeyboardInterrupt
            if searches is not None:
                searches.pop()
            return replace(ida_star(domain, h, state, **options), seconds=seconds)
        return search

    monkeypatch.setattr(units, "ida_star", taking(120.0, [1, 1]))
    with pytest.raises(KeyboardInterrupt):
        units.test_unit(spec, tmp_path, False)
    monkeypatch.setattr(units, "ida_star", taking(600.0))
    units.test_unit(spec, tmp_path, False)
    log = (tmp_path / "gap" / "progress.log").read_text().splitlines()
    assert [line[line.rindex("("):] for line in log if "nodes" in line] == [
        "(1 of 4; about 6.0 min left)", "(2 of 4; about 4.0 min left)",
        # (120 + 120 + 600) / 3 s: the kept tasks count too
        "(3 of 4; about 4.7 min left)",
        "(4 of 4; about 0.0 min left)"]


def test_an_interrupted_test_row_continues_after_its_last_finished_task(pdb_folder, toy_sets,
                                                                        tmp_path, monkeypatch):
    cfg = toy_config("8-pancake", "gap", pdb_folder)
    spec = {"seed": 0, "config": cfg, "pdb_dir": str(pdb_folder), "name": "gap", "row": "Gap"}
    whole = units.test_unit(spec, tmp_path / "whole", False)
    searched, ida_star = [], units.ida_star

    def stopped_at_the_third(domain, h, state, **options):
        searched.append(state)
        if len(searched) == 3:
            raise KeyboardInterrupt
        return ida_star(domain, h, state, **options)

    monkeypatch.setattr(units, "ida_star", stopped_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        units.test_unit(spec, tmp_path / "cut", False)
    kept = json.loads((tmp_path / "cut" / "gap" / "tasks.json").read_text())
    assert [r["id"] for r in kept] == [1, 2]
    searched.clear()
    resumed = units.test_unit(spec, tmp_path / "cut", False)
    # only tasks 3 and 4 were searched again
    assert len(searched) == 2
    drop = lambda records: [{k: v for k, v in r.items() if k != "seconds"}   # noqa: E731
                            for r in records]
    assert drop(resumed["records"]) == drop(whole["records"])
    assert "continuing after the 2 tasks" in (tmp_path / "cut" / "gap" / "progress.log").read_text()
    (tmp_path / "cut" / "gap" / "tasks.json").write_text('[{"id": 9}]')
    with pytest.raises(ValueError, match="tasks this row does not test"):
        units.test_unit(spec, tmp_path / "cut", False)
    (tmp_path / "cut" / "gap" / "tasks.json").write_text('{"id": 1}')
    with pytest.raises(ValueError, match=r"tasks\.json is damaged"):
        units.test_unit(spec, tmp_path / "cut", False)


def test_a_process_loads_an_encodings_pdbs_once(pdb_folder, tmp_path, monkeypatch):
    folder = tmp_path / "pdb"
    # a folder no earlier test made encodings from
    shutil.copytree(pdb_folder, folder)
    cfg = toy_config("8-pancake", "gap", folder)
    loads = []
    real = la.pdb.store.load
    monkeypatch.setattr(la.pdb.store, "load",
                        lambda *args, **kwargs: loads.append(args[0]) or real(*args, **kwargs))
    first = units.encoding_for("8-pancake", cfg.encoding, folder)
    again = units.encoding_for("8-pancake", json.loads(json.dumps(cfg.encoding)), str(folder))
    # four distinct patterns, each read once
    assert first is again and len(loads) == 4


# --- the command line -----------------------------------------------------------------------------

def call(argv):
    return status(suboptimality.main, argv)


@pytest.mark.parametrize("argv, message", [
    (["--domain", "25-pancake"], "invalid choice: '25-pancake'"),
    (["--domain", "15-blocksworld", "--networks", "{nets}"],
     "trained on the 24-pancake, not the 15-blocksworld"),
    (["--domain", "24-pancake", "--pdb-dir", "{file}"], "is a file"),
    (["--domain", "24-pancake", "--test-budget", "0"], "--test-budget"),
])
def test_bad_domain_options_are_one_line_before_any_work(argv, message, tmp_path, capsys):
    rng = np.random.default_rng(0)
    # its PDBs are never built
    pancake = {"encoding": "PancakeFeatures", "partitions": [[[0, 1, 2, 3, 4]]]}
    for which, outputs in (("alpha", 2), ("mean", 1)):
        (tmp_path / "nets" / "run1" / which).mkdir(parents=True)
        save(FFNN(14, 8, outputs, rng), tmp_path / "nets" / "run1" / which / "network.npz",
             about={"domain": "24-pancake", "encoding": pancake})
    (tmp_path / "file").write_text("not a folder")
    argv = [a.format(nets=tmp_path / "nets", file=tmp_path / "file") for a in argv]
    refused(suboptimality.main, [*argv, "--out", tmp_path / "out"], capsys, message,
            absent=tmp_path / "out")


def deny_writing(monkeypatch, folder):
    """`folder` read-only for every check, even for root (who may write anywhere)."""
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == folder else real(p, mode))


@pytest.mark.parametrize("where, message",
                         [("LA_PDB_DIR under a file", "cannot create the PDB folder"),
                          ("LA_PDB_DIR read-only", "cannot write in the PDB folder"),
                          ("--pdb-dir read-only", "cannot write in")])
def test_a_pdb_folder_that_cannot_be_written_is_refused_before_the_results_folder(
        where, message, tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "read-only").mkdir()
    deny_writing(monkeypatch, tmp_path / "read-only")
    # no 24-pancake PDB in either
    folder = tmp_path / ("file/pdb" if "under a file" in where else "read-only")
    argv = ["--domain", "24-pancake", "--quick", "--out", tmp_path / "out", "--jobs", "1"]
    if where.startswith("LA_PDB_DIR"):
        monkeypatch.setenv("LA_PDB_DIR", str(folder))
    else:
        argv += ["--pdb-dir", folder]
    refused(suboptimality.main, argv, capsys, message, absent=tmp_path / "out")
    assert list((tmp_path / "read-only").iterdir()) == []


# --- the figures of Table 3 records ---------------------------------------------------------------

# toy domain -> whose paper values
PAPER_OF = {"8-pancake": "24-pancake", "6-blocksworld": "15-blocksworld"}


def run_main(name, baseline, pdb_folder, out, monkeypatch, **changes):
    """`suboptimality.main` in this process on a toy domain, with the paper's values of the domain
    it stands for (so the blocksworld record has a baseline row the paper lacks); its
    results.json."""
    cfg = toy_config(name, baseline, pdb_folder, **changes)
    monkeypatch.setattr(suboptimality, "config_for", lambda domain, scale: cfg)
    monkeypatch.setitem(table3.PAPER, name, table3.PAPER[PAPER_OF[name]])
    assert call(["--domain", PAPER_OF[name], "--quick", "--pdb-dir", pdb_folder, "--out", out,
                 "--jobs", "1"]) == 0
    return json.loads((out / "results.json").read_text())


def test_a_smaller_test_budget_truncates_each_search_and_is_said_with_the_table(
        pdb_folder, toy_sets, tmp_path, monkeypatch, capsys):
    first = run_main("8-pancake", "gap", pdb_folder, tmp_path / "first", monkeypatch)
    generated = sorted(r["generated"] for t in first["tests"] for r in t["records"])
    budget = generated[len(generated) // 2]
    assert generated[0] <= budget < generated[-1]
    assert call(["--domain", "24-pancake", "--quick", "--networks", tmp_path / "first",
                 "--test-budget", budget, "--pdb-dir", pdb_folder, "--out", tmp_path / "again",
                 "--jobs", "1"]) == 0
    again = json.loads((tmp_path / "again" / "results.json").read_text())
    assert again["config"]["test_node_limit"] == again["config"]["baseline_node_limit"] == budget
    assert f"nodes per test task {budget:,} (full: 200,000)" in again["reduced"]
    assert f"nodes per test task {budget:,}" in capsys.readouterr().out
    for before, after in zip(first["tests"], again["tests"], strict=True):
        for b, a in zip(before["records"], after["records"], strict=True):
            # a deterministic search, only cut short: the same result
            if b["generated"] <= budget:
                assert ((a["solved"], a["cost"], a["generated"])
                        == (b["solved"], b["cost"], b["generated"]))
            else:
                assert not a["solved"] and a["generated"] == budget + 1
    # from the networks' folder
    assert again["training"] == first["training"] and len(again["training"]) == 2
    (tmp_path / "first" / "run1" / "mean" / "unit.json").write_text("{not json")
    refused(suboptimality.main, ["--domain", "24-pancake", "--quick", "--networks",
                                 tmp_path / "first", "--pdb-dir", pdb_folder,
                                 "--out", tmp_path / "third", "--jobs", "1"],
            capsys, "unit.json is damaged (not JSON", absent=tmp_path / "third")


@pytest.fixture
def drawn(monkeypatch):
    """Every figure `la.plots` saves, by file name: closed once saved, but its texts can still be
    read."""
    figures, real = {}, plots_style.save
    monkeypatch.setattr(plots_style, "save",
                        lambda fig, path: figures.update({Path(path).name: fig}) or real(fig, path))
    return figures


def texts(fig) -> str:
    """Every title, legend entry and free text of a figure, one string."""
    found = [fig._suptitle.get_text() if fig._suptitle else ""] + [t.get_text() for t in fig.texts]
    # a legend beside the panels
    found += [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    for ax in fig.axes:
        found.append(ax.get_title())
        if ax.get_legend():
            found += [t.get_text() for t in ax.get_legend().get_texts()]
    return " | ".join(found)


@pytest.mark.slow
def test_table3_records_are_drawn_by_their_baselines_name_and_redrawn_by_la_plots(
        pdb_folder, toy_sets, tmp_path, monkeypatch, drawn, capsys):
    pancake = run_main("8-pancake", "gap", pdb_folder, tmp_path / "pancake", monkeypatch)
    blocks = run_main("6-blocksworld", "max-pdb", pdb_folder, tmp_path / "blocks", monkeypatch,
                      calibration_random=200)
    assert (pancake["generate_task"] is None
            and "Figures 1 and 2 not drawn" in capsys.readouterr().out)
    # the paper: no max-PDB row
    assert [r["paper"]["subopt"] for r in blocks["table"]] == [None, 0.07, 1.0, 7.1]
    for record, stem, baseline in ((pancake, "table3_8-pancake", "Gap"),
                                   (blocks, "table3_6-blocksworld", "max-PDB")):
        table = texts(drawn[f"{stem}.png"])
        assert (f"{baseline} (la)" in table and f"{baseline}: 0/4" in table
                and "α = " + baseline not in table)
        assert "MD" not in table and "paper" in table
        states = f"Calibration on {record['calibration_states']:,} states of the {record['domain']}"
        assert states in texts(drawn[f"{stem}_calibration.png"])
        assert f"on the {record['domain']}" in texts(drawn[f"{stem}_learning_curves.png"])
    assert ("200 uniform states of the 6-blocksworld"
            in texts(drawn["table3_6-blocksworld_calibration_uniform.png"]))
    assert sorted(p.name for p in (tmp_path / "blocks").glob("*.png")) == [
        "table3_6-blocksworld.png", "table3_6-blocksworld_calibration.png",
        "table3_6-blocksworld_calibration_uniform.png", "table3_6-blocksworld_learning_curves.png"]

    argv = ["--efficiency", DATA / "efficiency_quick.json",
            "--suboptimality", DATA / "suboptimality_quick.json",
            "--table3", tmp_path / "pancake" / "results.json",
            "--table3", tmp_path / "blocks" / "results.json",
            "--out", tmp_path / "figures", "--copy"]
    assert cli.run(plots.main, [str(a) for a in argv]) == 0
    out = capsys.readouterr().out
    assert "table3_6-blocksworld: Figures 1 and 2 not drawn" in out
    made = sorted(p.name for p in (tmp_path / "figures").iterdir())
    for stem in ("table3_8-pancake", "table3_6-blocksworld"):
        assert {f"{stem}.json", f"{stem}.png", f"{stem}_calibration.png",
                f"{stem}_learning_curves.png"} <= set(made)
    assert ("table3_6-blocksworld_calibration_uniform.png" in made
            and "table1_suboptimality.png" in made)
    assert json.loads((tmp_path / "figures" / "table3_8-pancake.json").read_text()) == pancake


@pytest.mark.parametrize("argv, message", [
    (["--suboptimality", "{pancake}"],
     "holds Table 3 results on the 8-pancake: pass it as --table3"),
    (["--table3", str(DATA / "suboptimality_quick.json")],
     "15-puzzle's results (Table 1): pass it as --suboptimality"),
    (["--table3", "{pancake}", "--table3", "{pancake}"],
     "a second Table 3 record on the 8-pancake"),
    # it names figure files
    (["--table3", "{elsewhere}"], "domain '../8-pancake' is not a domain's name"),
])
def test_la_plots_refuses_a_record_given_as_the_wrong_table(argv, message, pdb_folder, toy_sets,
                                                            tmp_path, monkeypatch, capsys):
    record = run_main("8-pancake", "gap", pdb_folder, tmp_path / "pancake", monkeypatch)
    (tmp_path / "elsewhere.json").write_text(json.dumps({**record, "domain": "../8-pancake"}))
    defaults = {"--efficiency": DATA / "efficiency_quick.json",
                "--suboptimality": DATA / "suboptimality_quick.json"}
    argv = [a.format(pancake=tmp_path / "pancake" / "results.json",
                     elsewhere=tmp_path / "elsewhere.json")
            for a in argv]
    argv += [str(x) for key, value in defaults.items() if key not in argv for x in (key, value)]
    refused(plots.main, argv + ["--out", tmp_path / "figures"], capsys, message,
            absent=tmp_path / "figures")


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["24-pancake", "24-puzzle", "15-blocksworld"])
def test_the_committed_table3_networks_give_their_records_calibration(domain):
    """The committed networks of a finished Table 3 run, re-measured here: their record's
    calibration, every α and column, on blocksworld on its uniform states too (the 24-puzzle builds
    its feature PDBs into la.pdb.store's folder first, minutes once)."""
    from la.experiments.trained import calibration_states, trained_network
    from la.heuristics.likely_admissible import LikelyAdmissible
    from la.rivals.calibration import calibration
    record = json.loads((ROOT / "figures" / f"table3_{domain}.json").read_text())
    spec = {"config": table3.full(domain),
            "networks": ROOT / "figures" / f"table3-{domain}-networks", "run": 1}
    network, encoding = trained_network(spec, "alpha")
    heuristic_for = lambda alpha: LikelyAdmissible(network, encoding, alpha)   # noqa: E731
    measured = [(calibration(heuristic_for, *calibration_states(domain)), record["calibration"])]
    if record["config"]["calibration_random"]:
        states, h_star = uniform_blocksworld(make_domain(domain).size,
                                             record["config"]["calibration_random"],
                                             unit_rng(record["seed"], *units.UNIFORM_KEY))
        measured.append((calibration(heuristic_for, states, h_star), record["calibration_random"]))
    assert len(measured) == (2 if domain == "15-blocksworld" else 1)
    for rows, saved_rows in measured:
        for mine, saved in zip(rows, saved_rows, strict=True):
            for key in ("y_alpha_below_h_star", "h_admissible", "network_above_h_ad"):
                assert mine[key] == pytest.approx(saved[key], abs=1e-12), (
                    domain, mine["alpha"], key)


@pytest.mark.slow
def test_the_24_pancake_quick_run_solves_a_task_with_a_learned_row(tmp_path, capsys):
    """The smoke run shows the pieces working together: its briefly trained networks
    (`table3.quick`) solve a stack within the budget (the paper's PDBs are built into la.pdb.store's
    folder first if missing, 20 s)."""
    assert call(["--domain", "24-pancake", "--quick", "--out", tmp_path / "out",
                 "--jobs", "1"]) == 0
    record = json.loads((tmp_path / "out" / "results.json").read_text())
    learned = [r for r in record["table"] if r["row"] != "Gap"]
    assert [r["row"] for r in learned] == ["0.9", "0.5", "N/A"]
    assert (any(r["subopt"] is not None for r in learned)
            and "No learned row solved" not in capsys.readouterr().out)
