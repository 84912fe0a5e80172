"""Table 1's gap (figures/table1-gap/): the label audit, and the suboptimality options its
experiments use."""
import json

import numpy as np
import pytest

from la.config import LearnConfig
from la.experiments import label_audit, suboptimality
from la.features import OneHot
from la.runs.checkpoint import BUFFER, read_state
from la.runs.training import train
from la.search.bfs import ExactDistances
from refusals import refused
from tests.test_learn import EIGHT

# Long enough that iterations solve several plans each and the buffer skips records it already
# holds.
RUN = LearnConfig(num_iter=9, node_limit=100_000, max_steps=60, train_iter=60, wunn_blocks=3)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """An 8-puzzle LearnHeuristicPrac run with its checkpoint, in results-folder layout
    (run1/alpha)."""
    results = tmp_path_factory.mktemp("results")
    folder = results / "run1" / "alpha"
    folder.mkdir(parents=True)
    train(EIGHT, RUN, np.random.default_rng(3), OneHot(EIGHT), checkpoint=folder / "checkpoint.npz",
          progress=None)
    return results


def test_starts_read_back_from_the_buffer_are_the_logged_ones(toy_run):
    arrays, meta = read_state(toy_run / "run1" / "alpha" / "checkpoint.npz")
    logged = label_audit.logged_starts(meta["log"])
    inferred, missing = label_audit.infer_starts(meta["log"], arrays[BUFFER[0]], arrays[BUFFER[1]],
                                                 EIGHT)
    assert len(logged) > 30 and 0 < len(inferred) and len(inferred) + missing == len(logged)
    # Each inferred start is a logged one, in the logged order (a subsequence: the others were
    # already held).
    keys = [(i, label, s.tobytes()) for i, _, label, s in logged]
    position = -1
    for i, _, label, s in inferred:
        position = keys.index((i, label, s.tobytes()), position + 1)
    # The last iteration's plans are not trained on, so none of its starts is audited.
    assert max(i for i, *_ in logged) == RUN.num_iter - 1


def test_the_audit_finds_each_starts_exact_cost(toy_run, tmp_path, capsys):
    assert label_audit.main([str(toy_run), "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "label-audit.json").read_text())
    unit = record["units"]["run1/alpha"]
    assert unit["source"] == "logged" and unit["not_found"] == 0
    # breadth-first over all 181,440 states
    exact = ExactDistances(EIGHT)
    h_star = exact(np.array([r["start"] for r in unit["records"]], dtype=np.uint8))
    assert [r["h_star"] for r in unit["records"]] == h_star.tolist()
    assert all(r["label"] >= r["h_star"] for r in unit["records"])
    out = capsys.readouterr().out
    assert "plans trained on" in out
    # A fresh audit solved nothing before; a start trained on again is solved once and counted as
    # repeated.
    keys = [(r["label"], tuple(r["start"])) for r in unit["records"]]
    n = len(keys)
    # the toy run trains on some starts again
    assert n > len(set(keys))
    assert f"alpha: {n} of {n} starts (0 solved before, {n - len(set(keys))} repeated)" in out
    # A second call reuses the costs it found (the file is its cache) and prints the same.
    assert label_audit.main([str(toy_run), "--out", str(tmp_path), "--min-label", "3"]) == 0
    again = json.loads(
        (tmp_path / "label-audit.json").read_text())["units"]["run1/alpha"]["records"]
    assert again == [r for r in unit["records"] if r["label"] >= 3]
    n = len(again)
    assert (f"alpha: {n} of {n} starts ({n} solved before, 0 repeated), about 0.0 min left"
            in capsys.readouterr().out)


@pytest.mark.parametrize("damage, message", [
    (lambda r: r["records"][0].update(h_star="12"), "units.run1/alpha.records[0].h_star should be"),
    (lambda r: r["records"][0].update(start=[300] * 9),
     "units.run1/alpha.records[0].start[0] is 300"),
    (lambda r: r.pop("records"), "units.run1/alpha has no 'records'"),
    # what the reader took before the shared record validation (issue 58 gaps, item 7)
    (lambda r: r["records"][0].update(h_star=-5), "units.run1/alpha.records[0].h_star is -5"),
    (lambda r: r["records"][0].update(iteration=0), "units.run1/alpha.records[0].iteration is 0"),
    (lambda r: r["records"][0].update(alpha=1e308), "units.run1/alpha.records[0].alpha is 1e+308"),
    (lambda r: r["records"][0].update(label=r["records"][0]["h_star"] - 1),
     "units.run1/alpha.records[0] has a label below its h*"),
    (lambda r: r.update(not_found=r["plans"] + 1),
     "units.run1/alpha has more starts not found, or audited, than plans"),
])
def test_a_damaged_audit_file_is_refused_in_one_line_and_kept(damage, message, toy_run, tmp_path,
                                                              capsys):
    assert label_audit.main([str(toy_run), "--out", str(tmp_path)]) == 0
    path = tmp_path / "label-audit.json"
    record = json.loads(path.read_text())
    damage(record["units"]["run1/alpha"])
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert label_audit.run(label_audit.main, [str(toy_run), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and str(path) in err
    assert json.loads(path.read_text()) == record                 # left as it was


def test_the_audit_refuses_a_folder_without_a_training_checkpoint(tmp_path, capsys):
    assert label_audit.run(label_audit.main, [str(tmp_path)]) == 2
    assert "no training checkpoint" in capsys.readouterr().err


def test_train_budget_hold_alpha_and_rows_change_only_what_they_say(tmp_path):
    out = tmp_path / "out"
    assert suboptimality.main(["--quick", "--hold-alpha", "--train-budget", "50000",
                               "--rows", "0.9", "--order", "batched", "--test-order", "depth-first",
                               "--jobs", "1", "--out", str(out)]) == 0
    config = json.loads((out / "experiment.json").read_text())["settings"]["config"]
    learn = config["learn"]
    assert learn["node_limit"] == 50_000 and learn["delta"] == 0.0
    assert learn["order"] == "batched" and config["order"] == "depth-first"
    log = json.loads((out / "run1" / "alpha" / "train_log.json").read_text())
    assert {e["alpha"] for e in log} == {0.99}
    assert all(t["generated"] <= 50_001 for e in log for t in e["tasks"])
    results = json.loads((out / "results.json").read_text())
    assert ({r["row"]: r["runs"] for r in results["table"]}
            == {"MD": 0, "0.9": 1, "0.5": 0, "N/A": 0})
    assert not (out / "run1" / "mean").exists()          # no N/A row: its network is not trained
    assert results["rows"] == ["0.9"] and results["machine"]["numpy"] == np.__version__


@pytest.mark.parametrize("argv, message", [
    (["--quick", "--rows", "0.95"], "this scale tests no row 0.95"),
    (["--quick", "--rows", "0.33"], "unknown row '0.33'"),
    (["--quick", "--train-budget", "0"], "must be at least 1"),
])
def test_bad_options_are_refused_before_anything_is_written(argv, message, tmp_path, capsys):
    refused(suboptimality.main, [*argv, "--out", tmp_path / "out"], capsys, message,
            absent=tmp_path / "out")


def test_saved_networks_cannot_be_retrained_with_other_options(tmp_path, capsys):
    (tmp_path / "nets").mkdir()
    refused(suboptimality.main, ["--quick", "--networks", tmp_path / "nets", "--hold-alpha",
                                 "--out", tmp_path / "out"], capsys, absent=tmp_path / "out",
            argparse=False)


# --- the authors' minibatch sampler ---------------------------------------------------------------

def sampler_as_described(weight, n, u):
    """`NNBaseHeuristic.SampleFromMemoryBuffer` for more than n records, step by step from its
    description, with the uniform numbers `u` given: walk the records adding w_i / norm, take the
    first whose sum passes u (else the last record), then norm := 1 − w_i and w_i := 0."""
    w, norm, out = np.array(weight, dtype=float), 1.0, []
    for k in range(n):
        total, chosen = 0.0, len(w) - 1
        for i, wi in enumerate(w):
            if total <= u[k] < total + wi / norm:
                chosen = i
                break
            total += wi / norm
        out.append(chosen)
        norm, w[chosen] = 1.0 - w[chosen], 0.0
    return out


def exact_sequences(weight, n):
    """The probability of every sequence of n draws under the description: a draw takes record i
    with probability w_i / norm, and the last record also gets what the scaled weights leave below
    1."""
    def extend(w, norm, prefix, p):
        if len(prefix) == n:
            yield tuple(prefix), p
            return
        probs = np.array(w) / norm
        probs[-1] += 1 - probs.sum()
        for i, q in enumerate(probs):
            if q > 0:
                nxt = list(w)
                nxt[i] = 0.0
                yield from extend(nxt, 1.0 - w[i], prefix + [i], p * q)
    return dict(extend(list(weight), 1.0, [], 1.0))


def test_the_authors_sampler_draws_as_their_loop_does():
    from la.rivals.authors_sampler import authors_minibatch
    rng = np.random.default_rng(0)
    for m in (101, 250, 1000):
        # a few heavy records, as when σ_e is high on some
        weight = rng.exponential(size=m) ** 3
        weight /= weight.sum()
        for seed in range(5):
            u = np.random.default_rng(seed).random(100)
            assert authors_minibatch(weight, 100, np.random.default_rng(seed)).tolist() == \
                sampler_as_described(weight, 100, u)


def test_the_authors_sampler_has_the_exact_probabilities_on_fixed_weights():
    from la.rivals.authors_sampler import authors_minibatch
    weight = np.array([0.4, 0.3, 0.2, 0.1])
    exact = exact_sequences(weight, 3)
    assert abs(sum(exact.values()) - 1) < 1e-12
    # the last record twice: not sampling without replacement
    assert exact[(0, 3, 3)] > 0
    rng, trials = np.random.default_rng(1), 40_000
    counts = {}
    for _ in range(trials):
        key = tuple(authors_minibatch(weight, 3, rng).tolist())
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) <= set(exact)
    for key, p in exact.items():
        sd = np.sqrt(trials * p * (1 - p))
        assert abs(counts.get(key, 0) - trials * p) <= 5 * sd + 1, key


def test_the_authors_sampler_over_draws_the_newest_record_and_la_does_not():
    from la.buffer import weighted_minibatch
    from la.rivals.authors_sampler import authors_minibatch
    weight, rng = np.full(1000, 1e-3), np.random.default_rng(2)
    newest = np.mean([(authors_minibatch(weight, 100, rng) == 999).sum() for _ in range(300)])
    # about Σ_k (k − 1)/1000 ≈ 4.95 of 100, against 0.1
    assert 4 < newest < 6
    assert all(len(set(weighted_minibatch(weight, 100, rng))) == 100 for _ in range(20))
    assert np.mean([(weighted_minibatch(weight, 100, rng) == 999).sum() for _ in range(300)]) < 0.5


def test_a_run_with_the_authors_sampler_is_recorded_and_resumed_only_with_it(tmp_path):
    out = tmp_path / "out"
    assert suboptimality.main(["--quick", "--sampler", "authors", "--rows", "0.9", "--jobs", "1",
                               "--out", str(out)]) == 0
    assert json.loads((out / "experiment.json").read_text())["settings"]["sampler"] == "authors"
    assert json.loads((out / "results.json").read_text())["sampler"] == "authors"
    # resumed only with the same sampler
    with pytest.raises(ValueError, match="other settings"):
        suboptimality.main(["--quick", "--rows", "0.9", "--jobs", "1", "--out", str(out),
                            "--resume"])


@pytest.mark.slow
def test_an_arms_seeds_merge_with_their_rows_sampler_and_machines(tmp_path):
    """Seeds that tested other rows merge (the control's runs 4–10 leave out α = 0.95): each row
    stands on the runs that tested it; a row no folder tested stays out of the record's rows."""
    from la.experiments import merge
    for k, rows in (("1", "0.9,0.5"), ("2", "0.9")):
        assert suboptimality.main(["--quick", "--runs", "2", "--run", k, "--rows", rows,
                                   "--sampler", "authors", "--jobs", "1",
                                   "--out", str(tmp_path / f"r{k}")]) == 0
    assert merge.main([str(tmp_path / "m"), str(tmp_path / "r1"), str(tmp_path / "r2")]) == 0
    merged = json.loads((tmp_path / "m" / "results.json").read_text())
    assert (merged["rows"] == ["0.9", "0.5"] and merged["sampler"] == "authors"
            and merged["runs"] == [1, 2])
    runs = {r["row"]: r["runs"] for r in merged["table"]}
    assert (runs["0.9"], runs["0.5"], runs["N/A"]) == (2, 1, 0)
    assert [(t["run"], t["row"]) for t in merged["tests"]] == [(1, "0.9"), (1, "0.5"), (2, "0.9")]
    assert [m["numpy"] for m in merged["machines"]] == [np.__version__] * 2
    assert [t["machine"]["numpy"] for t in merged["training"]] == [np.__version__] * 2


def _record(run: int, alphas: list, solved: float, rows: dict) -> dict:
    """A suboptimality record of seed `run` with the α schedule `alphas` and the rows {row: subopt
    %}."""
    tests = [{"run": run, "row": row, "tasks": 100, "unsolved": 0, "records": [], "time": 1.0,
              "generated": 1.0, "subopt": subopt, "optimal": 50.0} for row, subopt in rows.items()]
    return {"experiment": "suboptimality", "seed": 0, "config": {"runs": 10}, "table": [],
            "training": [{"run": run, "network": "alpha", "solved_train": solved}],
            "learning_curves": {"alpha": [[{"iteration": i + 1, "alpha": a}
                                           for i, a in enumerate(alphas)]]},
            "calibration": [{"alpha": 0.9, "y_alpha_below_h_star": 0.4}], "tests": tests}


def test_the_gap_table_pairs_each_arm_with_the_controls_seed(tmp_path, capsys):
    from la.experiments import table1_gap
    from la.runs.cli import run
    from la.io import write_json
    write_json(tmp_path / "control" / "run1" / "results.json",
               _record(1, [0.99, 0.99, 0.94], 0.9, {"0.9": 8.0}))
    write_json(tmp_path / "control" / "run2" / "results.json",
               _record(2, [0.99, 0.94, 0.89], 0.8, {"0.9": 5.0}))
    write_json(tmp_path / "budget-x4" / "run2" / "results.json",
               _record(2, [0.99] * 3, 0.95, {"0.9": 4.0, "0.5": 6.0}))
    records = [{"iteration": 1, "alpha": 0.99, "label": label, "h_star": h, "start": [0, 1, 2]}
               # only the first two count
               for label, h in ((40, 40), (44, 40), (20, 10), (31, None))]
    write_json(tmp_path / "label-audit_control-run1.json", {
        "experiment": "label-audit", "settings": {"min_label": 0, "node_limit": None},
        "units": {"run1/alpha": {"source": "buffer", "plans": 4, "not_found": 0,
                                 "records": records}}})
    table = table1_gap.read_seeds(tmp_path)
    # the control first
    assert list(table) == [("control", 1), ("control", 2), ("budget-x4", 2)]
    one = table[("control", 1)]
    assert one["final_alpha"] == 0.94 and one["held_through"] == 2 and one["solved_train"] == 90.0
    # (0 + 10 %) / 2
    assert one["labels_alpha"] == pytest.approx(5.0) and one["labels_mean"] is None
    assert one["y09_below"] == 40.0 and table[("control", 2)]["labels_alpha"] is None    # no audit
    assert table1_gap.paired(table) == [{"arm": "budget-x4", "row": "0.9", "seeds": [2],
                                         "changes": [-1.0], "mean": -1.0, "common_changes": [None],
                                         "common_tasks": [0], "common_nodes": [None],
                                         "common_mean": None}]
    # seed 2 alone; 0.5 has no control; the records list no tasks, so none were solved by both final
    # α (0.94, 0.89, 0.99) and solved (90, 80, 95 %) against the rows (8, 5, 4 %): by hand, r =
    # −0.05 / (√0.005 · √(26/3)) and ρ = 1 − 6·6 / (3·8) from the ranks; labels: one seed only;
    # y^0.9 <= h*: constant
    assert table1_gap.association(table) == [
        ("final α", 3, pytest.approx(-0.2401922), pytest.approx(-0.5)),
        ("training tasks solved", 3, pytest.approx(-0.0524142), pytest.approx(-0.5))]
    assert run(table1_gap.main, [str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert ("budget-x4  0.9 |        2 | 2: -1.00" in said
            and "final α |     3 |  -0.24 |  -0.50" in said)
    (tmp_path / "budget-x4" / "run2" / "results.json").write_text("{")
    assert run(table1_gap.main, [str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "budget-x4/run2/results.json': not JSON" in err and len(err.strip().splitlines()) == 1
    assert run(table1_gap.main, [str(tmp_path / "control" / "run1")]) == 2
    assert "no <arm>/run<K>/results.json" in capsys.readouterr().err


def test_the_gap_table_also_pairs_the_tasks_both_solved(tmp_path, capsys):
    """An arm that leaves a task unsolved is compared with the control on the tasks both solved."""
    from la.experiments import table1_gap
    from la.io import write_json
    task = lambda i, optimal, cost, nodes=10: {"id": i, "optimal": optimal,  # noqa: E731
                                               "solved": cost is not None, "cost": cost,
                                               "generated": nodes, "seconds": 0.1}
    control, arm = _record(1, [0.99], 0.9, {"0.9": 10.0}), _record(1, [0.99], 0.9, {"0.9": 5.0})
    # 10, 0, 10 % above
    control["tests"][0]["records"] = [task(1, 50, 55), task(2, 40, 40), task(3, 60, 66)]
    # 0, 10 %, unsolved
    arm["tests"][0]["records"] = [task(1, 50, 50, 30), task(2, 40, 44), task(3, 60, None)]
    write_json(tmp_path / "control" / "run1" / "results.json", control)
    write_json(tmp_path / "batched" / "run1" / "results.json", arm)
    [pair] = table1_gap.paired(table1_gap.read_seeds(tmp_path))
    # the rows as recorded: 5 − 10
    assert pair["changes"] == [-5.0] and pair["common_tasks"] == [2]
    assert (pair["common_changes"] == [pytest.approx(0.0)]
            and pair["common_mean"] == pytest.approx(0.0))
    # (30 + 10) / (10 + 10)
    assert pair["common_nodes"] == [2.0]
    assert "1: +0.00 (2) ×2.00" in table1_gap.format_paired([pair])
