"""Boot, the bootstrap learner of Jabbari Arfaee, Zilles & Holte (`la.rivals.boot`), on the 8-puzzle
and a toy 8-pancake: the budget rule, the training examples, the RandomWalk phase, the stopping
rule, a run end to end, checkpoints and the per-domain configurations."""
import json
import re
from dataclasses import replace

import numpy as np
import pytest

import la.rivals.boot
from la.config import DOMAINS, node_budget
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.uniform import uniform_states
from la.domains.walk import random_walk
from la.features.pancake import PancakeFeatures
from la.heuristics.classical import Manhattan
from la.heuristics.likely_admissible import LikelyAdmissible
from la.pdb.sets import abstraction
from la.pdb.store import load
from la.rivals.boot import (Boot, BootConfig, boot_config, bootstrap, draw_instances,
                            initial_heuristic)
from la.rivals.boot_round import RoundProgress
from la.rivals.boot_searches import SpreadSearches
from la.runs.checkpoint import read_state
from la.runs.folder import check_folder
from la.runs.persist import save
from la.runs.processes import Workers
from la.search import check_plan, ida_star

EIGHT = SlidingTile(3)
# The N/A network and its training, with fewer steps; a small Ins of uniform 8-puzzle states (costs
# about 22).
LEARN = replace(DOMAINS["15-puzzle"].learn(n_out=1), train_iter=100)
TINY = BootConfig(learn=LEARN, instances=30, ins_min=5, node_limit=300, max_node_limit=20_000,
                  walk_instances=0)
# MD solves none of those states within 20 nodes: the RandomWalk phase starts with walks of 2 steps.
WALKS = replace(TINY, node_limit=20, walk_instances=10, walk_length=2, walk_increment=2,
                max_rounds=8)


def run(config=TINY, seed=0, **kwargs):
    return bootstrap(EIGHT, config, np.random.default_rng(seed), progress=None, **kwargs)


def strip_seconds(log):
    return [{k: v for k, v in entry.items() if k != "seconds"} for entry in log]


def test_the_budget_doubles_exactly_when_fewer_than_ins_min_are_solved():
    log = run().log
    for entry, following in zip(log, log[1:]):
        doubled = following["node_limit"] == 2 * entry["node_limit"]
        assert doubled == (entry["solved"] < TINY.ins_min)
        assert doubled or following["node_limit"] == entry["node_limit"]
        assert entry["trained"] == (entry["solved"] >= TINY.ins_min) == (entry["steps"] > 0)
    assert {e["solved"] < TINY.ins_min for e in log[:-1]} == {True, False}     # both cases happened


def test_the_examples_are_every_state_of_each_solved_plan_with_its_cost_to_go():
    boot = Boot(EIGHT, TINY, np.random.default_rng(3))
    ins = boot.instances.copy()
    entry = boot.run_round()                            # round 1 plans with h0 = Manhattan distance
    results = [ida_star(EIGHT, Manhattan(EIGHT), s, node_limit=TINY.node_limit) for s in ins]
    plans = [r.plan for r in results if r.solved]
    assert entry["solved"] == len(plans) > 0 and entry["tried"] == len(ins)
    expected = {(state.tobytes(), len(plan) - 1 - i) for plan in plans
                for i, state in enumerate(plan)}
    got = {(s.tobytes(), int(y)) for s, y in zip(boot.examples.states(), boot.examples.labels())}
    assert got == expected and len(boot.examples) == entry["examples"] == entry["added"]
    unsolved = np.array([not r.solved for r in results])
    np.testing.assert_array_equal(boot.instances, ins[unsolved])     # the solved instances left Ins
    for plan, start in zip(plans, ins[~unsolved]):
        check_plan(EIGHT, start, plan)


def test_without_accumulating_the_examples_are_dropped_after_training():
    boot = Boot(EIGHT, replace(TINY, accumulate=False, node_limit=20_000), np.random.default_rng(3))
    entry = boot.run_round()
    assert entry["trained"] and entry["examples"] > 0 and len(boot.examples) == 0


def test_the_random_walk_phase_starts_when_h0_solves_nothing_and_does_not_double():
    log = run(WALKS).log
    first, walk = log[0], log[1]
    assert first["kind"] == "bootstrap" and first["solved"] == 0
    assert (walk["kind"] == "walk" and walk["walk_length"] == 2
            and walk["node_limit"] == first["node_limit"])
    assert (walk["tried"] == WALKS.walk_instances and walk["solved"] == WALKS.walk_instances
            and walk["trained"])
    assert log[2]["kind"] == "bootstrap"                # does the walks' h now solve enough of Ins?
    lengths = [e["walk_length"] for e in log if e["kind"] == "walk"]
    trained_walks = [e["trained"] for e in log if e["kind"] == "walk"]
    for (length, trained), following in zip(zip(lengths, trained_walks), lengths[1:]):
        assert following == length + (WALKS.walk_increment if trained else 0)


def test_when_h0_solves_a_few_the_budget_doubles_instead():
    log = run(replace(WALKS, node_limit=100, max_rounds=2)).log              # MD solves 1 of the 30
    assert 0 < log[0]["solved"] < WALKS.ins_min and not log[0]["trained"]
    assert log[1]["kind"] == "bootstrap" and log[1]["node_limit"] == 200


def test_max_with_h0_plans_with_the_larger_of_the_network_and_manhattan_distance():
    boot = Boot(EIGHT, replace(TINY, max_with_h0=True, node_limit=20_000), np.random.default_rng(3))
    assert boot.heuristic() is boot.h0
    boot.run_round()
    h, states = boot.heuristic(), random_walk(EIGHT, 30, np.random.default_rng(4), n=50)
    learned = LikelyAdmissible(boot.ffnn, boot.encoding)(states)
    np.testing.assert_array_equal(h(states), np.maximum(learned, Manhattan(EIGHT)(states)))
    assert (learned < Manhattan(EIGHT)(states)).any()           # the maximum matters on some states
    start = states[0]
    check_plan(EIGHT, start, ida_star(EIGHT, h, start, node_limit=200_000).plan)


def test_ins_is_drawn_uniformly_from_the_solvable_states():
    for domain in (Blocksworld(6), Pancake(7), EIGHT):
        states = draw_instances(domain, 20, np.random.default_rng(0))
        assert states.shape == (20, domain.size) and states.dtype == np.uint8
        np.testing.assert_array_equal(states, uniform_states(domain, 20, np.random.default_rng(0)))
        for state in states:
            domain.validate(state)


def test_the_stopping_rule_fires_when_too_few_unsolved_instances_remain():
    config = replace(TINY, node_limit=20_000)    # MD solves every 8-puzzle walk within 20,000 nodes
    boot = run(config)
    assert (boot.stopped == "solved" and len(boot.log) == 1
            and boot.log[0]["remaining"] < config.ins_min)
    assert boot.trained and boot.log[0]["stopped"] == "solved"


def test_the_budget_cap_and_the_round_cap_stop_a_run():
    # MD solves hardly any within 80 nodes
    boot = run(replace(TINY, node_limit=20, max_node_limit=80))
    assert boot.stopped == "budget" and [e["node_limit"] for e in boot.log] == [20, 40, 80]
    assert boot.log[-1]["solved"] < TINY.ins_min <= boot.log[-1]["remaining"]
    assert run(replace(WALKS, max_rounds=2)).stopped == "rounds"


def test_end_to_end_the_learned_heuristic_solves_8_puzzles():
    boot = run(replace(TINY, instances=40, ins_min=8, max_node_limit=64_000,
                       learn=replace(LEARN, train_iter=300)))
    assert boot.stopped is not None and boot.trained and sum(e["trained"] for e in boot.log) >= 2
    h = boot.heuristic()
    assert isinstance(h, LikelyAdmissible) and h.alpha is None
    for start in random_walk(EIGHT, 30, np.random.default_rng(11), n=5):
        result = ida_star(EIGHT, h, start, node_limit=200_000)
        assert result.solved
        check_plan(EIGHT, start, result.plan)


class Interrupt(Exception):
    pass


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path):
    whole = run(WALKS, seed=5)
    path = tmp_path / "boot.npz"
    lines = []

    def stop_after_three(line):
        lines.append(line)
        if len(lines) == 3:
            raise Interrupt

    with pytest.raises(Interrupt):
        bootstrap(EIGHT, WALKS, np.random.default_rng(5), checkpoint=path,
                  progress=stop_after_three)
    assert Boot.restore(path, EIGHT, WALKS).round == 3 and all("\n" not in line for line in lines)
    resumed = bootstrap(EIGHT, WALKS, np.random.default_rng(999), checkpoint=path, progress=None)
    assert strip_seconds(resumed.log) == strip_seconds(whole.log) and len(whole.log) > 3
    # the rng drew walks after the interruption
    assert any(e["kind"] == "walk" for e in whole.log[3:])
    for name, value in whole.ffnn.params.items():
        np.testing.assert_array_equal(resumed.ffnn.params[name], value)
    np.testing.assert_array_equal(resumed.instances, whole.instances)
    np.testing.assert_array_equal(resumed.examples.states(), whole.examples.states())
    assert resumed.node_limit == whole.node_limit and resumed.stopped == whole.stopped


def interrupt_after(searches: int, monkeypatch) -> list:
    """Make la.rivals.boot's IDA* raise Interrupt on its (searches + 1)-th call; returns the starts
    it was called on."""
    calls, search = [], la.rivals.boot.ida_star

    def counted(domain, h, start, **kwargs):
        if len(calls) == searches:
            raise Interrupt
        calls.append(np.array(start))
        return search(domain, h, start, **kwargs)

    monkeypatch.setattr(la.rivals.boot, "ida_star", counted)
    return calls


# within the first pass over Ins; within a walk round
@pytest.mark.parametrize("searches", [17, 35])
def test_a_round_interrupted_midway_goes_on_from_its_saved_searches(searches, tmp_path,
                                                                    monkeypatch):
    whole = run(WALKS, seed=5)
    monkeypatch.setattr(la.rivals.boot, "SAVE_SECONDS", 0.0)               # save after every search
    path = tmp_path / "boot.npz"
    calls = interrupt_after(searches, monkeypatch)
    with pytest.raises(Interrupt):
        bootstrap(EIGHT, WALKS, np.random.default_rng(5), checkpoint=path, progress=None)
    partial = RoundProgress.path_for(path)
    assert (len(calls) == searches and (tmp_path / "boot.round.npz").exists()
            and str(partial).endswith(".round.npz"))
    done = Boot.restore(path, EIGHT, WALKS).round if path.exists() else 0
    # mid-round
    assert whole.log[done]["tried"] > searches - sum(e["tried"] for e in whole.log[:done]) > 0
    monkeypatch.undo()
    calls = interrupt_after(10**9, monkeypatch)
    # Before the first checkpoint the run's own rng draws Ins again; after it the checkpoint's rng
    # is used.
    rng = np.random.default_rng(5 if done == 0 else 999)
    resumed = bootstrap(EIGHT, WALKS, rng, checkpoint=path, progress=None)
    assert strip_seconds(resumed.log) == strip_seconds(whole.log)
    assert len(calls) == sum(e["tried"] for e in whole.log) - searches      # nothing searched twice
    for name, value in whole.ffnn.params.items():
        np.testing.assert_array_equal(resumed.ffnn.params[name], value)
    np.testing.assert_array_equal(resumed.examples.states(), whole.examples.states())
    assert not (tmp_path / "boot.round.npz").exists()


def test_searches_spread_over_workers_make_the_same_run_and_resume_mid_round(tmp_path, monkeypatch):
    whole = run(WALKS, seed=5)
    monkeypatch.setattr(la.rivals.boot, "SAVE_SECONDS", 0.0)  # save, and report, after every search
    path = tmp_path / "boot.npz"

    def stop_mid_round(line):                                          # at search 5 of round 3
        if line.startswith("round   3") and " searched 5 of " in line:
            raise Interrupt

    with Workers(2) as workers, pytest.raises(Interrupt):
        bootstrap(EIGHT, WALKS, np.random.default_rng(5), checkpoint=path, progress=stop_mid_round,
                  searches=SpreadSearches(workers))
    assert Boot.restore(path, EIGHT, WALKS).round == 2
    assert len(read_state(tmp_path / "boot.round.npz")[0]["solved"]) == 5    # kept mid-round
    with Workers(2) as workers:                                  # new workers, as a resumed run has
        resumed = bootstrap(EIGHT, WALKS, np.random.default_rng(999), checkpoint=path,
                            progress=None, searches=SpreadSearches(workers))
    assert strip_seconds(resumed.log) == strip_seconds(whole.log)
    assert any(e["trained"] for e in whole.log) and any(e["kind"] == "walk" for e in whole.log)
    for name, value in whole.ffnn.params.items():
        np.testing.assert_array_equal(resumed.ffnn.params[name], value)
    np.testing.assert_array_equal(resumed.examples.states(), whole.examples.states())
    np.testing.assert_array_equal(resumed.instances, whole.instances)


def test_a_search_that_fails_in_a_worker_stops_the_round_in_one_line():
    boot = Boot(EIGHT, TINY, np.random.default_rng(0))
    with Workers(1) as workers:
        with pytest.raises(RuntimeError,
                           match="a Boot search failed in a worker process: ValueError") as error:
            list(SpreadSearches(workers)(boot, np.zeros((2, 9), dtype=np.uint8), TINY.node_limit))
    assert "\n" not in str(error.value)


def test_a_round_under_way_reports_its_searches_and_the_time_left_at_their_pace(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setattr(la.rivals.boot, "SAVE_SECONDS", 0.0)             # a line after every search
    clock = iter(range(0, 10**6, 7))                          # Boot's clock: 7 s more at every look
    monkeypatch.setattr(la.rivals.boot, "time",
                        type("Clock", (), {"perf_counter": lambda: float(next(clock))}))
    lines = []
    boot = bootstrap(EIGHT, replace(TINY, max_rounds=1), np.random.default_rng(3),
                     checkpoint=tmp_path / "b.npz", progress=lines.append)
    solved = np.cumsum([r.solved for r in
                        [ida_star(EIGHT, Manhattan(EIGHT), s, node_limit=TINY.node_limit)
                         for s in Boot(EIGHT, TINY, np.random.default_rng(3)).instances]])
    # 29 searches under way, then the round
    assert len(lines) == 30 and lines[-1] == boot.progress_line()
    for k, line in enumerate(lines[:-1], start=1):
        assert line.startswith(f"round   1  bootstrap  searched {k} of 30, "
                               f"solved {solved[k - 1]}, ")
        spent, left = (float(w) for w in re.fullmatch(r".*, (\S+) s so far, "
                                                      r"about (\S+) s left at this pace",
                                                      line).groups())
        assert spent >= 7 * k and left == pytest.approx(spent / k * (30 - k), abs=1)


def test_a_rounds_progress_file_of_an_earlier_round_is_ignored_and_a_wrong_one_refused(tmp_path):
    boot = Boot(EIGHT, TINY, np.random.default_rng(0))
    path = tmp_path / "boot.round.npz"
    searched = [ida_star(EIGHT, boot.heuristic(), s, node_limit=TINY.node_limit)
                for s in boot.instances[:4]]
    RoundProgress(path, 1, "bootstrap", TINY.node_limit, boot.instances).save(searched, 1.5)
    kept = RoundProgress(path, 1, "bootstrap", TINY.node_limit, boot.instances)
    loaded = kept.load()
    assert [(r.solved, r.generated) for r in loaded] == [(r.solved, r.generated) for r in searched]
    for r, s in zip(loaded, searched):
        assert ((r.plan is None) == (not s.solved)
                and (r.plan is None or np.array_equal(r.plan, s.plan)))
    assert kept.seconds == 1.5
    # stale
    assert RoundProgress(path, 2, "bootstrap", TINY.node_limit, boot.instances).load() == []
    errors = []
    for other in (RoundProgress(path, 1, "bootstrap", 2 * TINY.node_limit, boot.instances),
                  RoundProgress(path, 1, "bootstrap", TINY.node_limit, boot.instances[1:])):
        with pytest.raises(ValueError, match="the progress of another round") as error:
            other.load()
        errors.append(error)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="not a readable Boot round progress") as damaged:
        kept.load()
    for error in (*errors, damaged):
        assert str(path) in str(error.value) and "\n" not in str(error.value)
    # What --resume checks first names the damaged file and deletes nothing; deleting that file is
    # enough.
    folder = tmp_path / "run1" / "boot"
    folder.mkdir(parents=True)
    (folder / "progress.log").write_text("round 1\n")
    path.rename(folder / path.name)
    (tmp_path / "experiment.json").write_text(json.dumps({"settings": {"config": {}},
                                                          "command": "a test"}))
    with pytest.raises(ValueError, match=r"boot\.round\.npz: not a readable \.npz archive .*; "
                                         r"delete it to redo only Boot's round under way, then "
                                         r"--resume again") as found:
        check_folder(tmp_path)
    assert "\n" not in str(found.value) and (folder / path.name).exists()
    (folder / path.name).unlink()
    check_folder(tmp_path)


def test_damaged_or_foreign_checkpoints_are_one_line_errors_naming_the_file(tmp_path):
    boot = Boot(EIGHT, TINY, np.random.default_rng(0))
    boot.run_round()
    path = tmp_path / "boot.npz"
    boot.save(path)
    with pytest.raises(ValueError, match="another Boot run") as foreign:
        Boot.restore(path, EIGHT, replace(TINY, ins_min=6))
    network = tmp_path / "network.npz"
    save(boot.ffnn, network)
    with pytest.raises(ValueError, match="not a Boot checkpoint") as other:
        Boot.restore(network, EIGHT, TINY)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(ValueError, match="not a readable Boot checkpoint") as damaged:
        Boot.restore(path, EIGHT, TINY)
    for error, file in ((foreign, path), (other, network), (damaged, path)):
        assert str(file) in str(error.value) and "\n" not in str(error.value)


def test_on_a_feature_domain_h0_is_the_encodings_admissible_floor(tmp_path):
    domain = Pancake(8)
    quiet = lambda fraction, text: None                                                 # noqa: E731
    groups = {"A": [[0, 1, 2, 3], [4, 5, 6, 7]], "B": [[0, 1, 6, 7], [2, 3, 4, 5]]}
    encoding = PancakeFeatures(domain, {g: [load(abstraction(domain.name, p), tmp_path, quiet)
                                            for p in ps]
                                        for g, ps in groups.items()})
    boot = Boot(domain, replace(TINY, node_limit=5_000), np.random.default_rng(0), encoding)
    states = boot.instances
    np.testing.assert_array_equal(initial_heuristic(encoding)(states), encoding.admissible(states))
    entry = boot.run_round()
    assert entry["solved"] > 0 and boot.ffnn.n_in == encoding.size


def test_the_domain_configurations_convert_one_second_at_each_domains_rate():
    assert (BootConfig().node_limit == node_budget(1.0) == boot_config("15-puzzle").node_limit
            == 1_100_000)
    pancake = boot_config("24-pancake")
    assert pancake.node_limit == round(DOMAINS["24-pancake"].nodes_per_second)
    assert pancake.max_node_limit == DOMAINS["24-pancake"].node_limit
    assert pancake.learn == DOMAINS["24-pancake"].learn(n_out=1) and pancake.learn.ffnn.n_out == 1
    for bad in ({"ins_min": 0}, {"walk_instances": 3}, {"node_limit": 10**9},
                {"learn": DOMAINS["15-puzzle"].learn()}):
        with pytest.raises(ValueError) as error:
            BootConfig(**bad)
        assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="8-puzzle"):
        boot_config("8-puzzle")
