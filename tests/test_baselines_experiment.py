"""The competing learners as rows of the suboptimality experiment (`la.experiments.baselines`,
`--baselines`): their units end to end on the toy 8-pancake of tests/test_table3.py (small PDBs, no
paper-sized one), and the command's refusals. Boot, the optimal labels and the conformal quantile
are tested on their own in tests/test_boot.py, tests/test_optimal_labels.py and
tests/test_conformal.py."""
import json
from dataclasses import replace

import numpy as np
import pytest
from test_table3 import (TOY, TOY_MEAN, pdb_folder, run_experiment, toy_config,  # noqa: F401
                         toy_sets)

import la.experiments.suboptimality as suboptimality
import la.experiments.suboptimality_units as units
from la.bench.neural import fitted_network
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.uniform import uniform_states
from la.experiments import baselines, table1
from la.experiments.unit_shapes import unit_shape
from la.experiments.suboptimality_table import format_table, table
from la.features import OneHot
from la.heuristics.classical import Gap
from la.heuristics.likely_admissible import LikelyAdmissible
from la.nn.config import build_ffnn
from la.pdb.sets import PARTITIONS
from la.pdb.sliding_tile import TilePattern
from la.rivals.boot import BootConfig
from la.rivals.calibration import conformal_quantile, plan_states, residuals
from la.rivals.optimal_labels import OptimalPlanConfig, optimal_solver
from la.runs import cli
from la.runs.folder import ROOT, check_folder
from la.runs.network import load_network, save_network
from la.runs.runner import run_units, unit_rng
from la.search import ida_star
from refusals import refused

BASELINES = baselines.BaselinesConfig(
    boot=BootConfig(learn=replace(TOY_MEAN, train_iter=60), instances=30, ins_min=5,
                    node_limit=2_000, max_node_limit=20_000, walk_instances=10, max_rounds=3),
    optimal=OptimalPlanConfig(walk_lengths=(1, 12), learn=TOY), calibration_starts=30,
    held_out_starts=20, searched_tasks=2, searched_nodes=5_000, searched_sample=20)


def test_the_baselines_rows_end_to_end_on_a_toy_pancake(pdb_folder, toy_sets,  # noqa: F811
                                                        tmp_path):
    cfg = toy_config("8-pancake", "gap", pdb_folder)
    run_experiment(cfg, tmp_path, pdb_folder)                      # the α and N/A networks of run 1
    base = {"seed": 0, "config": cfg, "networks": str(tmp_path), "baselines": BASELINES,
            "baseline_networks": str(tmp_path), "pdb_dir": str(pdb_folder)}
    trained = run_units(baselines.train_unit, baselines.train_specs(BASELINES, [1], base), tmp_path,
                        1, None)
    assert [t["network"] for t in trained] == ["boot", "optimal", "optimal4"]
    buffer = json.loads((tmp_path / "run1" / "alpha" / "train_log.json").read_text())[-1]["buffer"]
    # as many as the α run's buffer
    assert [t["records"] for t in trained[1:]] == [buffer, 4 * buffer]
    for which, outputs in (("boot", 1), ("optimal", 2), ("optimal4", 2)):
        network, about = load_network(tmp_path / "run1" / which / "network.npz")
        assert network.n_out == outputs and about["domain"] == "8-pancake"
    (tmp_path / "experiment.json").write_text(json.dumps({"settings": {"config": {}},
                                                          "command": "a test"}))
    check_folder(tmp_path)          # what --resume checks first: every file the units left is whole

    conformal = run_units(baselines.conformal_unit, [{**base, "name": "run1/conformal", "run": 1}],
                          tmp_path, 1, None)[0]
    rows = conformal["rows"]
    assert [r["alpha"] for r in rows] == [0.9, 0.75, 0.5]
    assert rows[0]["q"] <= rows[1]["q"] <= rows[2]["q"]            # a larger α, a lower bound
    network, _ = load_network(tmp_path / "run1" / "alpha" / "network.npz")
    encoding = units.encoding_for("8-pancake", cfg.encoding, pdb_folder)
    domain, rng = Pancake(8), unit_rng(0, 1, baselines.KEYS["conformal"])
    gap = Gap(domain)
    states, h_star = plan_states([ida_star(domain, gap, s).plan
                                  for s in uniform_states(domain, 30, rng)])
    q = conformal_quantile(residuals(LikelyAdmissible(network, encoding, 0.9), states, h_star), 0.9)
    assert rows[0]["q"] == q                           # recomputed from the same calibration states
    states, h_star = plan_states([ida_star(domain, gap, s).plan
                                  for s in uniform_states(domain, 20, rng)])
    for r in rows:
        assert {"held_out", "test_plans", "searched"} <= set(r) and r["searched"]["states"] == 20
        assert all(0 <= r[k][w] <= 1 for k in ("held_out", "test_plans", "searched")
                   for w in ("conformal", "plain"))
        plain = LikelyAdmissible(network, encoding, r["alpha"])
        conf = LikelyAdmissible(network, encoding, r["alpha"], quantile=r["q"])
        assert r["held_out"]["mean_h_star"] == np.mean(h_star)     # the held-out states, drawn next
        assert r["held_out"]["mean_h"] == {"conformal": np.mean(conf(states)),
                                           "plain": np.mean(plain(states))}

    extra = baselines.rows(BASELINES, cfg.alphas)
    assert extra == ["Boot", "OP 0.9", "OP 0.5", "OP4 0.9", "OP4 0.5", "conf 0.9", "conf 0.75",
                     "conf 0.5"]
    specs = [{**base, "name": f"run1/test-{row.replace(' ', '-')}", "run": 1, "row": row}
             for row in extra]
    tests = run_units(units.test_unit, specs, tmp_path, 1, None)
    optimal = {t.id: t.optimal for t in toy_sets["8-pancake"]}
    for t in tests:
        assert [r["id"] for r in t["records"]] == sorted(optimal)
        assert all(r["cost"] >= optimal[r["id"]] for r in t["records"] if r["solved"])
    assert sum(r["solved"] for t in tests for r in t["records"]) > 0
    rows = table(cfg, tests, {}, extra)
    assert [r["row"] for r in rows][-len(extra):] == extra
    assert "conf 0.75" in format_table(rows)
    # what --resume checks: every unit whole and held to its run's settings, the baselines' too
    check_folder(tmp_path, lambda name: unit_shape("suboptimality", name, cfg, extra, BASELINES))


def test_boot_alone_spreads_its_searches_over_jobs_workers(pdb_folder, tmp_path,  # noqa: F811
                                                           monkeypatch):
    cfg = toy_config("8-pancake", "gap", pdb_folder)
    bcfg = replace(BASELINES, names=("boot",))
    made, rounds = {}, []

    class Counted(baselines.SpreadSearches):
        def __call__(self, boot, starts, budget):
            rounds.append(len(starts))
            return super().__call__(boot, starts, budget)

    monkeypatch.setattr(baselines, "SpreadSearches", Counted)
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        base = {"seed": 0, "config": cfg, "networks": str(out), "baselines": bcfg,
                "baseline_networks": str(out), "pdb_dir": str(pdb_folder)}
        specs = baselines.train_specs(bcfg, [1], base, jobs)
        assert [s.get("jobs") for s in specs] == [jobs]
        made[jobs] = (run_units(baselines.train_unit, specs, out, jobs, None)[0],
                      out / "run1" / "boot")
    (one, serial), (two, spread) = made[1], made[2]
    assert len(rounds) == one["rounds"]          # with --jobs 2 every round searched in the workers
    assert ({k: v for k, v in one.items() if k != "seconds"}
            == {k: v for k, v in two.items() if k != "seconds"})
    logs = [[{k: v for k, v in e.items() if k != "seconds"}
             for e in json.loads((f / "boot_log.json").read_text())]
            for f in (serial, spread)]
    assert (logs[0] == logs[1] and sum(e["solved"] for e in logs[0]) > 0
            and any(e["trained"] for e in logs[0]))
    nets = [load_network(f / "network.npz")[0] for f in (serial, spread)]
    for name, value in nets[0].params.items():
        np.testing.assert_array_equal(nets[1].params[name], value)


class Line:
    """States are integers in a column; 0 is the goal."""

    def is_goal(self, states):
        return states[:, 0] == 0


def test_the_searched_sample_is_uniform_over_every_evaluation_however_deep():
    evaluations = np.arange(20_000)[:, None]         # in the order a search scores them, goal first
    batches = np.array_split(evaluations, 173)
    recorder = baselines.Recorder(lambda s: 2 * s[:, 0], Line(), 2_000, np.random.default_rng(1))
    for batch in batches:
        assert np.array_equal(recorder(batch), 2 * batch[:, 0])      # scores pass through unchanged
    assert (recorder.evaluations == 19_999 and len(recorder.sample) == 2_000
            and 0 not in recorder.sample)
    rng = np.random.default_rng(1)                                # the same keys, drawn all at once
    live = evaluations[1:]
    keys = np.concatenate([rng.random(len(b) - (b[0, 0] == 0)) for b in batches])
    assert np.array_equal(np.sort(recorder.sample[:, 0]),
                          np.sort(live[np.argsort(keys)[:2_000], 0]))
    # Uniform: the later half of the search holds half the sample (±4 sd), where the first scores
    # alone hold none.
    late = np.mean(recorder.sample[:, 0] >= 10_000)
    assert abs(late - 0.5) < 4 * np.sqrt(0.25 / 2_000)


@pytest.mark.parametrize("args, message", [
    (["--baselines", "boot,nonsense"], "unknown baseline"),
    (["--baselines", ""], "at least one baseline"),
    (["--optimal-records", "0"], "--optimal-records"),
    (["--baselines", "boot", "--only-baselines"],
     "--only-baselines tests the baselines' rows beside saved"),
    (["--baselines", "boot", "--boot-instances", "0"], "--boot-instances"),
])
def test_the_command_refuses_bad_baseline_options_in_one_line(args, message, tmp_path, capsys):
    refused(suboptimality.main, ["--quick", "--out", tmp_path / "out", *args], capsys, message,
            absent=tmp_path / "out")


def test_the_optimal_solvers_pdbs_are_made_once_before_the_units_which_then_only_read_them(
        tmp_path, monkeypatch, capsys):
    """On the 8-puzzle, given two small tile PDBs as the 15-puzzle has its six: `load_pdbs` builds
    them, saying so, then a unit's optimal solver finds them on disk (a build would trip); only the
    baselines that solve need them."""
    monkeypatch.setitem(PARTITIONS, "8-puzzle", {"A": [(1, 2, 3, 4), (5, 6, 7, 8)]})
    solving = replace(BASELINES, names=("boot", "optimal"))
    baselines.load_pdbs(replace(BASELINES, names=("boot",)), "8-puzzle", tmp_path / "none")
    baselines.load_pdbs(None, "8-puzzle", tmp_path / "none")
    assert not (tmp_path / "none").exists()
    baselines.load_pdbs(solving, "8-puzzle", tmp_path / "pdb")
    assert len(list((tmp_path / "pdb").glob("8-puzzle_*.npy"))) == 2
    assert "8-puzzle PDB 2 of 2" in capsys.readouterr().err          # a line for each build
    monkeypatch.setattr(TilePattern, "build", lambda *args: pytest.fail("a unit built a PDB"))
    solve = optimal_solver(SlidingTile(3), None, tmp_path / "pdb")
    assert len(solve(SlidingTile(3).goal)) == 1

    class Started(Exception):
        """The run would start here."""

    def prepare(*args, **kwargs):
        order.append("prepare")
        raise Started()

    order = []                                           # and the command makes them before the run
    monkeypatch.setattr(baselines, "load_pdbs", lambda *args: order.append("pdbs"))
    monkeypatch.setattr(suboptimality, "prepare", prepare)
    with pytest.raises(Started):
        suboptimality.main(["--quick", "--baselines", "optimal", "--out", str(tmp_path / "out")])
    assert order == ["pdbs", "prepare"]


def test_saved_networks_without_their_training_log_need_the_records_given(tmp_path, capsys):
    networks, encoding = tmp_path / "networks", OneHot(SlidingTile(4))
    save_network(fitted_network(np.random.default_rng(0)), encoding,
                 networks / "run1" / "alpha" / "network.npz")
    mean, _ = build_ffnn(table1.QUICK.learn_mean.ffnn, encoding.size, np.random.default_rng(0))
    save_network(mean, encoding, networks / "run1" / "mean" / "network.npz")
    out = str(tmp_path / "out")
    # --quick has its own count
    argv = ["--networks", str(networks), "--baselines", "optimal", "--out", out]
    assert cli.run(suboptimality.main, argv) == 2
    err = capsys.readouterr().err.strip()
    assert (len(err.splitlines()) == 1 and "--optimal-records" in err
            and not (tmp_path / "out").exists())


def test_the_alpha_runs_buffer_size_comes_from_its_checkpoint_when_the_log_is_not_kept():
    record = json.loads((ROOT / "figures" / "suboptimality.json").read_text())
    logged = [curve[-1]["buffer"] for curve in record["learning_curves"]["alpha"]]
    folders = [ROOT / "figures" / "suboptimality-networks" / f"run{r}" / "alpha" for r in (1, 2, 3)]
    assert not any((f / "train_log.json").exists() for f in folders)
    assert [baselines.final_buffer(f) for f in folders] == logged


def test_fewer_boot_instances_are_said_as_a_reduction():
    assert baselines.reductions(baselines.baselines_config("24-pancake", "full"), "full") == []
    fewer = baselines.baselines_config("24-pancake", "full", boot_instances=500)
    # 7.5 rounds up
    assert (fewer.boot.instances, fewer.boot.ins_min, fewer.boot.walk_instances) == (500, 8, 500)
    assert baselines.reductions(fewer, "full") == ["Boot on 500 training instances, ins_min 8 "
                                                   "(its authors': 5,000, 75)"]
    many = baselines.baselines_config("24-pancake", "full", boot_instances=100_000)
    # a walk round keeps ins_min walks
    assert (many.boot.ins_min, many.boot.walk_instances) == (1500, 1500)
    assert baselines.baselines_config("24-pancake", "full", boot_instances=10).boot.ins_min == 1
    assert baselines.reductions(replace(fewer, names=("optimal",)), "full") == []


def test_baselines_config_refuses_unknown_names():
    with pytest.raises(ValueError, match="baselines must be among"):
        baselines.BaselinesConfig(names=("boot", "other"))
    assert np.isfinite(baselines.baselines_config("15-puzzle", "quick").optimal_records)


def baselines_record(tmp_path, name="baselines_24-pancake.json", **changes):
    """A record as --only-baselines writes it, made from the committed 24-pancake record with
    conformal rows."""
    record = json.loads((ROOT / "figures" / "table3_24-pancake.json").read_text())
    cover = {"states": 100, "conformal": 0.9, "plain": 0.6}
    record.update(only_baselines=True, baselines={"names": ["conformal"]},
                  conformal=[{"run": 1, "rows": [{"alpha": a, "q": 0.1, "z_alpha": -1.0,
                                                  "held_out": cover, "test_plans": cover,
                                                  "searched": cover} for a in (0.9, 0.5)]}])
    record.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def test_la_plots_draws_a_baselines_record_and_refuses_a_wrong_one(tmp_path):
    from la.plots import baselines as plots_baselines
    path = baselines_record(tmp_path)
    (domain, (_, record)), = plots_baselines.read_all([path]).items()
    plots_baselines.draw(record, tmp_path / "out")
    assert domain == "24-pancake"
    assert (sorted(p.name for p in (tmp_path / "out").iterdir())
            == ["baselines_24-pancake.png", "baselines_24-pancake_conformal.png"])
    with pytest.raises(ValueError, match="not a run of the baselines"):
        plots_baselines.read_all([baselines_record(tmp_path, "other.json", only_baselines=False)])
    with pytest.raises(ValueError, match="conformal"):
        plots_baselines.read_all([baselines_record(tmp_path, "bad.json",
                                                   conformal=[{"run": 1, "rows": [{}]}])])
    means = {"states": 100, "conformal": 0.9, "plain": 0.6, "mean_h_star": 30.0,
             "mean_h": {"conformal": 8.0}}
    rows = [{"alpha": 0.9, "q": 0.1, "z_alpha": -1.0, "held_out": means, "test_plans": means,
             "searched": means}]
    with pytest.raises(ValueError, match=r"held_out\.mean_h has no 'plain'"):
        plots_baselines.read_all([baselines_record(tmp_path, "means.json",
                                                   conformal=[{"run": 1, "rows": rows}])])
    with pytest.raises(ValueError, match="row 'Gap' was measured in another baselines record too"):
        plots_baselines.read_all([path, path])


def test_two_baselines_records_of_a_domain_are_drawn_as_one(tmp_path):
    """Boot run on its own beside a run of the other baselines: one table, the paper's rows once."""
    from la.plots import baselines as plots_baselines
    table = json.loads((ROOT / "figures" / "table3_24-pancake.json").read_text())["table"]
    paper = [{**r, "runs": 0} for r in table]
    measured = {r["row"]: r for r in table}
    first = baselines_record(tmp_path, table=paper + [{**measured["0.9"], "row": "conf 0.9"}])
    boot = baselines_record(tmp_path, "baselines_24-pancake_boot.json", conformal=[],
                            baselines={"names": ["boot"]},
                            table=paper + [{**measured["N/A"], "row": "Boot"}])
    (path, record), = plots_baselines.read_all([first, boot]).values()
    assert path == first and len(record["conformal"]) == 1
    rows = [r["row"] for r in record["table"]]
    assert rows == [r["row"] for r in paper] + ["conf 0.9", "Boot"]
    assert all(r["runs"] == 0 for r in record["table"][:len(paper)])
    plots_baselines.draw(record, tmp_path / "out")
    assert (tmp_path / "out" / "baselines_24-pancake.png").is_file()


def test_the_baselines_figure_draws_the_saved_networks_own_rows_beside_them(tmp_path, monkeypatch):
    """`la.plots` hands the networks' own record (figures/table3_<domain>.json) to the baselines'
    figure."""
    from la.plots import baselines as plots_baselines
    own = json.loads((ROOT / "figures" / "table3_24-pancake.json").read_text())
    paper = [{**r, "runs": 0} for r in own["table"]]
    boot = json.loads(baselines_record(tmp_path, conformal=[],
                                       table=paper + [{**paper[-1], "row": "Boot", "runs": 1}])
                      .read_text())
    drawn = []
    monkeypatch.setattr(plots_baselines, "table1_suboptimality",
                        lambda record, path: drawn.append(record))
    plots_baselines.draw(boot, tmp_path / "out", own)
    rows = {r["row"]: r["runs"] for r in drawn[0]["table"]}
    assert rows == {**{r["row"]: 1 for r in own["table"]}, "Boot": 1}
    with pytest.raises(ValueError, match="measured in another baselines record too"):
        plots_baselines.draw(own | {"only_baselines": True}, tmp_path / "out", own)
