"""The method on the feature domains (paper §5) through the encoding contract, at toy sizes with
small PDBs built into a temporary folder (an 8-puzzle, an 8-pancake, a 6-blocksworld):
h = max(round(y^α), h_ad) at test and at training time, the incremental heuristic inside IDA* equal
to scoring built children, GenerateTaskPrac on the features, LearnHeuristicPrac end to end, a
resumed run equal to an uninterrupted one, checkpoints that refuse another encoding."""
from dataclasses import replace

import numpy as np
import pytest

import la.learn
from la.config import LearnConfig
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features import OneHot
from la.features.blocksworld import BlockFeatures
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures
from la.heuristics.base import FromStates
from la.heuristics.likely_admissible import LikelyAdmissible
from la.learn import Learner, learn_heuristic_prac
from la.nn import FFNN
from la.nn.config import FFNNConfig, WUNNConfig
from la.pdb.sets import abstraction
from la.pdb.store import load
from la.runs.checkpoint import restore_learner, save_learner
from la.runs.training import train
from la.search import check_plan, ida_star
from la.search.bfs import ExactDistances
from la.tasks import generate_task_prac

# Small partitions: disjoint within one partition (additive), B cutting across A; blocksworld's
# overlap (max).
PATTERNS = {"8-puzzle": (SlidingTile(3), TileFeatures, {"A": [[1, 2, 3, 4], [5, 6, 7, 8]],
                                                        "B": [[1, 4, 7], [2, 5, 8], [3, 6]]}),
            "8-pancake": (Pancake(8), PancakeFeatures, {"A": [[0, 1, 2, 3], [4, 5, 6, 7]],
                                                        "B": [[0, 1, 6, 7], [2, 3, 4, 5]]}),
            "6-blocksworld": (Blocksworld(6), BlockFeatures, {"max": [[1, 2, 3, 4], [3, 4, 5, 6],
                                                                      [1, 2, 5, 6]]})}
NAMES = list(PATTERNS)
# A run of seconds: the paper's feature-domain networks (8 hidden units, no dropout), short phases.
TOY = LearnConfig(num_iter=4, node_limit=50_000, max_steps=40, train_iter=60, wunn_blocks=3,
                  ffnn=FFNNConfig(n_hidden=8, dropout=0.0), wunn=WUNNConfig(n_hidden=8))


def quiet(fraction, text):
    """A progress callback that prints nothing."""


def make_encoding(name, folder, partitions=None):
    domain, kind, groups = PATTERNS[name]
    groups = groups if partitions is None else partitions
    return kind(domain, {g: [load(abstraction(domain.name, p), folder, quiet) for p in ps]
                         for g, ps in groups.items()})


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="module")
def encodings(folder):
    return {name: make_encoding(name, folder) for name in NAMES}


def heuristic(encoding, alpha=None, y_q=None, seed=0, goal_zero=False):
    """y^α (or μ, alpha None) of an untrained FFNN on the encoding's inputs, its mean shifted so
    that on random states the median y^α is the median h_ad: then y^α lies below h_ad on some states
    and above it on others. With `goal_zero`, shifted instead so that h(goal) = 0, without which
    IDA* cannot stop at the goal."""
    net = FFNN(encoding.size, 8, 1 if alpha is None else 2, np.random.default_rng(seed))
    states = states_of(encoding.domain, 500, seed=seed + 100)
    h = LikelyAdmissible(net, encoding, alpha, y_q)
    if goal_zero:
        shift = -0.2 - h.values(h.hidden(encoding.domain.goal[None]))[0]
    else:
        shift = np.median(encoding.admissible(states)) - np.median(h.values(h.hidden(states)))
    net.params["b2"][0] += shift / 10
    return LikelyAdmissible(net, encoding, alpha, y_q)


def states_of(domain, n, seed=0, longest=30):
    rng = np.random.default_rng(seed)
    return random_walk(domain, rng.integers(0, longest, n), rng, n=n)


# --- the heuristic --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("alpha, y_q", [(0.9, None), (0.75, 30.0), (0.99, -np.inf), (None, None)])
def test_h_is_round_y_alpha_floored_at_h_ad(encodings, name, alpha, y_q):
    encoding = encodings[name]
    h = heuristic(encoding, alpha, y_q)
    states = states_of(encoding.domain, 3000)
    rounded, h_ad = (np.rint(h.values(h.hidden(states))).astype(np.int64),
                     encoding.admissible(states))
    values = h(states)
    np.testing.assert_array_equal(values, np.maximum(rounded, h_ad))
    np.testing.assert_array_equal(h.floor(states), h_ad)
    # the floor binds on some states, not all
    assert (rounded < h_ad).any() and (rounded > h_ad).any()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("alpha, y_q", [(0.9, None), (0.75, 30.0), (None, None)])
def test_incremental_equals_from_scratch(encodings, name, alpha, y_q):
    encoding = encodings[name]
    h = heuristic(encoding, alpha, y_q, seed=1)
    states = states_of(encoding.domain, 1000, seed=1)
    values, carry = h.start(states)
    np.testing.assert_array_equal(values, h(states))
    for _ in range(2):                                          # two generations: the carry goes on
        parent, move, children = encoding.domain.expand(states)
        values, carry = h.step(states, values, carry, parent, move)
        np.testing.assert_array_equal(values, h(children))
        fresh = encoding.start(children)[2]    # the PDB encodings' steps read only their own carry,
        assert (carry is None) == (fresh is None)     # so the heuristic keeps that and nothing else
        if carry is not None:
            np.testing.assert_array_equal(carry, fresh)
        states = children[::7]
        values, carry = values[::7], None if carry is None else carry[::7]


class ReadsInputs:
    """The 8-puzzle's one-hot as an encoding LikelyAdmissible has no special path for: its `step`
    reads the parents' x, which the heuristic must then keep with every node."""

    step_reads = ("x",)

    def __init__(self):
        self.inner = OneHot(SlidingTile(3))
        self.domain, self.size = self.inner.domain, self.inner.size

    def __call__(self, states):
        return self.inner(states)

    def admissible(self, states):
        return None

    def start(self, states):
        return self.inner.start(states)

    def step(self, states, x, h_ad, carry, parent, move):
        assert x is not None and len(x) == len(states)
        return self.inner.step(states, x, h_ad, carry, parent, move)


def test_an_encoding_whose_step_reads_x_gets_it_back_from_the_carry():
    encoding = ReadsInputs()
    h = LikelyAdmissible(FFNN(encoding.size, 8, 2, np.random.default_rng(4)), encoding, alpha=0.9)
    states = states_of(encoding.domain, 300, seed=4)
    values, carry = h.start(states)
    parent, move, children = encoding.domain.expand(states)
    values, carry = h.step(states, values, carry, parent, move)
    np.testing.assert_array_equal(values, h(children))
    np.testing.assert_array_equal(carry["x"], encoding(children))
    assert carry.dtype.names == ("x",)
    start = states_of(encoding.domain, 1, seed=5, longest=12)[0]
    incremental, plain = (ida_star(encoding.domain, g, start, node_limit=20_000)
                          for g in (h, FromStates(h, encoding.domain)))
    assert (incremental.status, incremental.generated) == (plain.status, plain.generated)


@pytest.mark.parametrize("name", NAMES)
def test_ida_star_with_the_incremental_heuristic_equals_scoring_built_children(encodings, name):
    encoding = encodings[name]
    domain = encoding.domain
    h = heuristic(encoding, alpha=0.5, seed=3, goal_zero=True)
    solved = 0
    for start in states_of(domain, 4, seed=2, longest=20):
        incremental = ida_star(domain, h, start, node_limit=100_000)
        plain = ida_star(domain, FromStates(h, domain), start, node_limit=100_000)
        assert ((incremental.status, incremental.cost, incremental.generated, incremental.expanded)
                == (plain.status, plain.cost, plain.generated, plain.expanded))
        if incremental.solved:
            check_plan(domain, start, incremental.plan)
            solved += 1
    assert solved >= 2


def test_a_network_of_another_input_size_is_refused(encodings):
    with pytest.raises(ValueError, match="inputs"):
        LikelyAdmissible(FFNN(128, 8, 2, np.random.default_rng(0)), encodings["8-pancake"], 0.9)


# --- GenerateTaskPrac -----------------------------------------------------------------------------

class FeatureSum:
    """A stand-in WUNN: σ_e = the sum of the inputs, which grows away from the goal."""

    def predict(self, X, K, rng):
        return np.zeros(len(X)), X.astype(np.float64).sum(axis=1)


@pytest.mark.parametrize("name", NAMES)
def test_generate_task_prac_reads_the_states_through_the_encoding(encodings, name):
    encoding = encodings[name]
    task = generate_task_prac(encoding.domain, FeatureSum(), np.random.default_rng(0), epsilon=4.0,
                              max_steps=100, trace=True, encoding=encoding)
    for step in task.trace:
        np.testing.assert_allclose(step["sigma_e"],
                                   encoding(step["candidates"]).astype(np.float64).sum(axis=1))
    assert task.trace[-1]["sigma_e"][task.trace[-1]["chosen"]] >= 4.0 or task.steps == 100
    with pytest.raises(ValueError, match="encodes"):
        generate_task_prac(Pancake(9), FeatureSum(), np.random.default_rng(0), encoding=encoding)


# --- LearnHeuristicPrac ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pancake_run(encodings):
    return learn_heuristic_prac(Pancake(8), TOY, np.random.default_rng(0), encodings["8-pancake"])


def test_a_feature_domain_learner_runs_end_to_end(pancake_run, encodings):
    learner, encoding = pancake_run, encodings["8-pancake"]
    assert learner.encoding is encoding
    assert ((learner.ffnn.n_in, learner.ffnn.n_hidden, learner.wunn.n_in)
            == (encoding.size, 8, encoding.size))
    assert learner.iteration == TOY.num_iter and 0 < learner.solved_fraction() <= 1
    states, labels = learner.buffer.states(), learner.buffer.labels()
    # costs along plans
    assert len(labels) > 10 and (labels >= ExactDistances(Pancake(8))(states)).all()
    for h in (learner.test_heuristic(0.9), learner.test_heuristic(), learner.planning_heuristic()):
        assert h.encoding is encoding and (h(states) >= encoding.admissible(states)).all()


def test_the_floor_is_applied_while_training(encodings, monkeypatch):
    """Every heuristic LearnHeuristicPrac plans with is max(round(y^α), h_ad), quantile rule
    included."""
    encoding, seen = encodings["8-pancake"], []
    states = states_of(Pancake(8), 500, seed=4)

    def spy(domain, h, start, **kwargs):
        rounded = np.rint(h.values(h.hidden(states))).astype(np.int64)
        np.testing.assert_array_equal(h(states), np.maximum(rounded, encoding.admissible(states)))
        seen.append((h.alpha, h.y_q))
        return ida_star(domain, h, start, **kwargs)

    monkeypatch.setattr(la.learn, "ida_star", spy)
    learn_heuristic_prac(Pancake(8), replace(TOY, num_iter=3), np.random.default_rng(1), encoding)
    assert len(seen) == 30 and all(alpha == 0.99 for alpha, _ in seen)
    assert seen[0][1] == -np.inf and np.isfinite(seen[-1][1])    # before and after the first Update


class Interrupt(Exception):
    pass


def strip_times(log):
    return [{k: ([{j: w for j, w in t.items() if j != "seconds"} for t in v] if k == "tasks" else v)
             for k, v in e.items() if not k.endswith("seconds")} for e in log]


def test_a_resumed_feature_domain_run_equals_an_uninterrupted_one(encodings, tmp_path):
    encoding, domain = encodings["6-blocksworld"], Blocksworld(6)
    whole = learn_heuristic_prac(domain, TOY, np.random.default_rng(7), encoding)
    path = tmp_path / "checkpoint.npz"

    def stop_after_two(line, count=[0]):
        count[0] += 1
        if count[0] == 2:
            raise Interrupt

    with pytest.raises(Interrupt):
        train(domain, TOY, np.random.default_rng(7), encoding, checkpoint=path,
              progress=stop_after_two)
    resumed = train(domain, TOY, np.random.default_rng(99), encoding, checkpoint=path,
                    progress=None)
    assert strip_times(resumed.log) == strip_times(whole.log)
    for net in ("ffnn", "wunn"):
        for name, value in getattr(whole, net).params.items():
            np.testing.assert_array_equal(getattr(resumed, net).params[name], value)
    assert (resumed.alpha, resumed.beta, resumed.y_q) == (whole.alpha, whole.beta, whole.y_q)


def test_checkpoints_and_learners_refuse_another_encoding(encodings, folder, tmp_path):
    encoding = encodings["8-pancake"]
    learner = Learner(Pancake(8), TOY, np.random.default_rng(0), encoding)
    learner.run_iteration()
    path = tmp_path / "c.npz"
    save_learner(learner, path)
    assert restore_learner(path, Pancake(8), TOY, encoding).iteration == 1
    only_a = make_encoding("8-pancake", folder, {"A": [[0, 1, 2, 3], [4, 5, 6, 7]]})
    with pytest.raises(ValueError, match="another run"):
        restore_learner(path, Pancake(8), TOY, only_a)
    with pytest.raises(ValueError, match="encodes 8-pancake states, not 9-pancake"):
        Learner(Pancake(9), TOY, np.random.default_rng(0), encoding)
