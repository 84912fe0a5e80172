"""LearnHeuristicPrac on the 8-puzzle: labels, schedules, buffer, determinism, checkpoints; the
per-domain configurations."""
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from la.buffer import MemoryBuffer
from la.config import DOMAINS, LearnConfig
from la.domains.names import make_domain
from la.domains.sliding_tile import SlidingTile
from la.experiments.table1 import SuboptimalityConfig
from la.features import OneHot
from la.learn import Learner, learn_heuristic_prac
from la.nn.config import FFNNConfig, WUNNConfig
from la.runs.checkpoint import restore_learner, save_learner
from la.runs.training import train
from la.search.bfs import ExactDistances

EIGHT = SlidingTile(3)
# A small run: the paper's schedules and rules, with fewer and shorter training phases so it takes
# seconds.
SMALL = LearnConfig(num_iter=5, node_limit=100_000, max_steps=60, train_iter=60, wunn_blocks=3)


ONE_HOT = OneHot(EIGHT)


def run(config=SMALL, seed=0):
    return learn_heuristic_prac(EIGHT, config, np.random.default_rng(seed), ONE_HOT)


@pytest.fixture(scope="module")
def small_run():
    """One SMALL run, shared by the tests that only read it."""
    return run()


def test_buffer_records_are_plan_suffix_costs_with_the_goal():
    buffer = MemoryBuffer(cap=100, size=9)
    plan = np.array([[1, 2, 0, 3, 4, 5, 6, 7, 8], [1, 0, 2, 3, 4, 5, 6, 7, 8], list(range(9))])
    assert buffer.add_plans([plan]) == 3
    np.testing.assert_array_equal(buffer.states(), plan)
    assert buffer.labels().tolist() == [2, 1, 0]


def test_buffer_duplicate_rule_and_cap():
    buffer = MemoryBuffer(cap=4, size=9)
    goal = np.arange(9)
    one = np.array([[1, 0, 2, 3, 4, 5, 6, 7, 8], goal])
    assert buffer.add_plans([one, one]) == 2                          # exact duplicates are dropped
    longer = np.array([[1, 0, 2, 3, 4, 5, 6, 7, 8], [1, 4, 2, 3, 0, 5, 6, 7, 8],
                       [1, 4, 2, 3, 5, 0, 6, 7, 8], goal])
    # the same state with another label is a new record; the goal's record is old and stays where it
    # was; then the oldest record goes, to keep the cap of 4
    assert buffer.add_plans([longer]) == 3
    assert len(buffer) == 4 and buffer.labels().tolist() == [0, 3, 2, 1]
    np.testing.assert_array_equal(buffer.states(), [goal, *longer[:3]])


def test_training_labels_are_plan_suffix_costs(small_run):
    learner = small_run
    exact = ExactDistances(EIGHT)
    states, labels = learner.buffer.states(), learner.buffer.labels()
    assert len(labels) > 20
    assert (labels >= exact(states)).all()                       # costs along plans, never below h*
    assert (labels[EIGHT.is_goal(states)] == 0).all() and EIGHT.is_goal(states).any()
    # every record (s, y) has a successor record (s', y − 1) from the same plan, down to the goal
    records = {(s.tobytes(), y) for s, y in zip(states, labels)}
    for s, y in zip(states, labels):
        if y > 0:
            _, _, children = EIGHT.expand(s[None])
            assert any((c.tobytes(), y - 1) in records for c in children)


def test_alpha_falls_by_delta_only_when_too_few_are_solved_and_never_below_one_half(small_run):
    starved = run(replace(SMALL, num_iter=13, node_limit=1))       # nothing can be solved in 1 node
    alphas = [e["alpha"] for e in starved.log]
    assert alphas[:3] == [0.99, 0.94, 0.89]
    assert min(alphas) == 0.5 and alphas[-3:] == [0.5, 0.5, 0.5]
    assert all(b == pytest.approx(max(a - 0.05, 0.5)) for a, b in zip(alphas, alphas[1:]))
    assert (all(e["solved"] >= 6 for e in small_run.log)
            and {e["alpha"] for e in small_run.log} == {0.99})


def trained_learner(config):
    learner = Learner(EIGHT, config, np.random.default_rng(0), ONE_HOT)
    learner.run_iteration()                                         # the first Update: WUNN trained
    return learner


def test_beta_decays_only_under_the_reference_conditions():
    cap_reached = replace(SMALL, kappa=1e-12)                           # σ_e can never get that low
    first = Learner(EIGHT, cap_reached, np.random.default_rng(0), ONE_HOT)
    first.run_iteration()
    # not on the first Update
    assert first.log[-1]["beta_decayed"] is False and first.beta == SMALL.beta0
    learner = trained_learner(cap_reached)
    X, y = np.zeros((2, 54), np.float32), np.array([0, 1])
    X[:, 0] = 1
    assert learner.train_wunn(X, y, update_beta=False) == (3, False) and learner.beta == SMALL.beta0
    assert learner.train_wunn(X, y, update_beta=True) == (3, True)
    assert learner.beta == pytest.approx(SMALL.beta0 * SMALL.gamma)
    early_stop = trained_learner(replace(SMALL, kappa=1e6))      # everything is already below √(κε)
    assert (early_stop.train_wunn(X, y, update_beta=True) == (0, False)
            and early_stop.beta == SMALL.beta0)


def test_gamma_reaches_beta_final_after_num_iter_decays():
    assert SMALL.beta0 * SMALL.gamma ** SMALL.num_iter == pytest.approx(SMALL.beta_final)
    assert LearnConfig().gamma == pytest.approx(0.84337, abs=1e-5)   # NumIter = `Global.NITER` = 50


def test_domain_configs_hold_the_papers_values_and_node_budgets():
    assert DOMAINS["15-puzzle"].learn() == LearnConfig()    # the 15-puzzle's runs stay as they were
    assert DOMAINS["15-puzzle"].learn(n_out=1) == SuboptimalityConfig().learn_mean
    # the paper's Table 3 at α = 0.9: (generated nodes, seconds) per task, and t_max = 300 s in
    # those units
    table3 = {"24-puzzle": (628_101_474, 1_371, 137.4e6), "24-pancake": (54_089_822, 199, 81.5e6),
              "15-blocksworld": (112_390_208, 54, 624.4e6)}
    for name, (nodes, seconds, about) in table3.items():
        config = DOMAINS[name]
        make_domain(config.domain)
        alpha, mean = config.learn(), config.learn(n_out=1)
        assert alpha.node_limit == round(300 * nodes / seconds) == pytest.approx(about, rel=0.001)
        assert ((alpha.num_iter, alpha.max_steps, alpha.ffnn.n_hidden, alpha.wunn.n_hidden)
                == (75, 5000, 8, 8))
        assert ((alpha.ffnn.n_out, alpha.ffnn.dropout, mean.ffnn.n_out, mean.ffnn.dropout)
                == (2, 0.0, 1, 0.0))
        assert replace(alpha, num_iter=50, max_steps=1000, node_limit=LearnConfig().node_limit,
                       # every other constant the 15-puzzle's
                       ffnn=FFNNConfig(), wunn=WUNNConfig()) == LearnConfig()


def test_a_checkpoint_saved_before_encodings_were_recorded_resumes_with_the_one_hot(tmp_path):
    learner = trained_learner(SMALL)
    path = tmp_path / "c.npz"
    save_learner(learner, path)
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    meta = json.loads(str(arrays["__meta__"][0]))
    del meta["encoding"]                                            # as la wrote checkpoints before
    arrays["__meta__"] = np.array([json.dumps(meta)])
    np.savez(path, **arrays)
    restored = restore_learner(path, EIGHT, SMALL, ONE_HOT)
    assert restored.iteration == 1 and restored.log == json.loads(json.dumps(learner.log))
    for name, value in learner.ffnn.params.items():
        np.testing.assert_array_equal(restored.ffnn.params[name], value)


def test_the_last_iteration_is_not_trained_on(small_run):
    learner = small_run
    assert "ffnn_steps" in learner.log[-2] and "ffnn_steps" not in learner.log[-1]


def test_same_seed_same_run(small_run):
    a, b = small_run, run(seed=0)
    assert strip_times(a.log) == strip_times(b.log)
    for name in a.ffnn.params:
        np.testing.assert_array_equal(a.ffnn.params[name], b.ffnn.params[name])
    assert strip_times(run(replace(SMALL, num_iter=2), seed=4).log) != strip_times(a.log[:2])


def strip_times(log):
    return [{k: ([{j: w for j, w in t.items() if j != "seconds"} for t in v] if k == "tasks" else v)
             for k, v in e.items() if not k.endswith("seconds")} for e in log]


class Interrupt(Exception):
    pass


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path):
    whole = run(seed=7)
    path = tmp_path / "checkpoint.npz"

    def stop_after_two(line, count=[0]):
        count[0] += 1
        if count[0] == 2:
            raise Interrupt

    with pytest.raises(Interrupt):
        train(EIGHT, SMALL, np.random.default_rng(7), ONE_HOT, checkpoint=path,
              progress=stop_after_two)
    assert restore_learner(path, EIGHT, SMALL, ONE_HOT).iteration == 2
    resumed = train(EIGHT, SMALL, np.random.default_rng(999), ONE_HOT, checkpoint=path,
                    progress=None)
    assert strip_times(resumed.log) == strip_times(whole.log)
    for net in ("ffnn", "wunn"):
        for name, value in getattr(whole, net).params.items():
            np.testing.assert_array_equal(getattr(resumed, net).params[name], value)
    assert resumed.beta == whole.beta and resumed.alpha == whole.alpha and resumed.y_q == whole.y_q


def test_the_time_left_is_estimated_at_the_last_iterations_pace():
    """Iterations grow longer as the tasks do: 1 s each, then 10 s; the estimate follows the last
    five."""
    from la.runs.training import PACE_OVER, recent_pace
    ends = list(np.cumsum([0.0] + [1.0] * 20 + [10.0] * 3))
    assert PACE_OVER == 5 and recent_pace(ends) == pytest.approx((10 * 3 + 1 * 2) / 5)
    assert recent_pace(ends[:3]) == pytest.approx(1.0)                   # two iterations: over both


def test_damaged_or_foreign_checkpoints_are_refused(tmp_path):
    learner = trained_learner(SMALL)
    path = tmp_path / "c.npz"
    save_learner(learner, path)
    with pytest.raises(ValueError, match="another run"):
        restore_learner(path, EIGHT, replace(SMALL, num_iter=9), ONE_HOT)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="checkpoint"):
        restore_learner(path, EIGHT, SMALL, ONE_HOT)


@pytest.mark.parametrize("config", [
    replace(SMALL, task_generation="length_inc", length_inc=2,
            ffnn=FFNNConfig(n_out=1, dropout=0.0)),
    replace(SMALL, ffnn=FFNNConfig(n_out=1, dropout=0.0))])
def test_baselines_run_through_the_same_loop(config):
    learner = run(config)
    assert learner.alpha is None and all(e["alpha"] is None for e in learner.log)
    if config.task_generation == "length_inc":
        assert learner.wunn is None
        assert [t["steps"] for t in learner.log[2]["tasks"]] == [6] * 10     # LengthInc·(n+1) = 2·3
    assert 0 < learner.solved_fraction() <= 1
    assert math.isfinite(learner.y_q)


def test_the_target_scale_lives_with_the_network_and_planning_reads_it_from_there():
    """LearnConfig(target_scale=20) trains on y/20 and plans with μ·20: one scale, kept in the FFNN
    (and its file)."""
    learner = Learner(EIGHT, replace(SMALL, target_scale=20.0), np.random.default_rng(0), ONE_HOT)
    assert learner.ffnn.scale == 20.0 and learner.ffnn.config()["scale"] == 20.0
    h = learner.test_heuristic()
    mu, _ = learner.ffnn.astype(np.float64).predict(ONE_HOT(EIGHT.goal[None]))
    assert (h.scale == 20.0
            and h.values(h.hidden(EIGHT.goal[None]))[0] == pytest.approx(20.0 * mu[0]))
    learner.train_ffnn(ONE_HOT(EIGHT.goal[None]), np.array([0]))
    assert learner.ffnn.scale == 20.0
