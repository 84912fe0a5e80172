"""GenerateTaskPrac with stand-in uncertainty models, and random-walk tasks."""
import numpy as np
import pytest

from la.domains.blocksworld import Blocksworld
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot
from la.heuristics.classical import Manhattan
from la.nn.layers import softmax
from la.tasks import generate_task_prac, random_walk_tasks


class DistanceUncertainty:
    """A stand-in WUNN: σ_e = Manhattan distance / 4, so uncertainty grows away from the goal."""

    def __init__(self, domain):
        self.domain, self.md, self.calls = domain, Manhattan(domain), 0

    def predict(self, X, K, rng):
        self.calls += 1
        states = decode(X, self.domain.width)
        return np.zeros(len(X)), self.md(states) / 4


class NoUncertainty:
    """A stand-in WUNN that is sure of everything."""

    def predict(self, X, K, rng):
        return np.zeros(len(X)), np.zeros(len(X))


def decode(X, width):
    """The inverse of la.features.one_hot: tiles at positions from the one-hot columns and rows."""
    n = width * width
    bits = X.reshape(len(X), n, 2, width).argmax(axis=3)             # (rows, value, [col, row])
    position = bits[:, :, 1] * width + bits[:, :, 0]                  # (rows, value)
    states = np.zeros((len(X), n), dtype=np.uint8)
    np.put_along_axis(states, position, np.arange(n, dtype=np.uint8)[None], axis=1)
    return states


def test_softmax():
    p = softmax(np.array([0.0, 1.0, 2.0]))
    assert (p.sum() == pytest.approx(1)
            and np.allclose(p, np.exp([0, 1, 2]) / np.exp([0, 1, 2]).sum()))
    assert np.isfinite(softmax(np.array([1000.0, 1001.0]))).all()


def test_generate_task_stops_at_the_first_sampled_state_with_enough_uncertainty():
    domain = SlidingTile(4)
    model = DistanceUncertainty(domain)
    for seed in range(5):
        task = generate_task_prac(domain, model, np.random.default_rng(seed), epsilon=3.0,
                                  max_steps=1000, trace=True, encoding=OneHot(domain))
        sigma_chosen = [step["sigma_e"][step["chosen"]] for step in task.trace]
        assert sigma_chosen[-1] >= 3.0 and all(s < 3.0 for s in sigma_chosen[:-1])
        assert Manhattan(domain)(task.start[None])[0] / 4 >= 3.0
        assert task.steps == len(task.trace)
        # softmax over the candidates' σ_e
        for step in task.trace:
            np.testing.assert_allclose(step["p"], softmax(step["sigma_e"]))


def test_generate_task_excludes_the_previous_state():
    domain = SlidingTile(4)
    task = generate_task_prac(domain, DistanceUncertainty(domain), np.random.default_rng(1),
                              epsilon=5.0, trace=True, encoding=OneHot(domain))
    for before, step in zip(task.trace, task.trace[1:]):
        assert not np.all(step["candidates"] == before["state"], axis=1).any()


def test_generate_task_respects_max_steps():
    domain = SlidingTile(4)
    task = generate_task_prac(domain, NoUncertainty(), np.random.default_rng(2), epsilon=1.0,
                              max_steps=50, trace=True, encoding=OneHot(domain))
    # the cap is checked before each step
    assert task.steps == 50 and len(task.trace) == 49
    domain.validate(task.start)


class Supports:
    """A stand-in encoding: the state's numbers as inputs (any domain)."""

    def __init__(self, domain):
        self.domain = domain

    def __call__(self, states):
        return states.astype(np.float32)


def test_generate_task_takes_the_undoing_move_where_it_is_the_only_one():
    """In a 2-blocksworld, from block 1 on block 2 the one move puts 1 back on the table: a dead end
    for a walk that never undoes its last step. The walk takes it, as random_walk does, and goes on
    to MaxSteps."""
    domain = Blocksworld(2)
    task = generate_task_prac(domain, NoUncertainty(), np.random.default_rng(5), epsilon=1.0,
                              max_steps=30, trace=True, encoding=Supports(domain))
    assert task.steps == 30 and len(task.trace) == 29
    stuck = [step for step in task.trace if step["state"].tolist() == [2, 0]]
    # back to both on the table
    assert stuck and all(step["candidates"].tolist() == [[0, 0]] for step in stuck)
    with pytest.raises(ValueError, match="encodes 2-blocksworld states, not 3-blocksworld"):
        generate_task_prac(Blocksworld(3), NoUncertainty(), np.random.default_rng(5),
                           encoding=Supports(domain))


def test_generate_task_is_reproducible():
    domain = SlidingTile(4)
    a = generate_task_prac(domain, DistanceUncertainty(domain), np.random.default_rng(3),
                           epsilon=4.0, encoding=OneHot(domain))
    b = generate_task_prac(domain, DistanceUncertainty(domain), np.random.default_rng(3),
                           epsilon=4.0, encoding=OneHot(domain))
    np.testing.assert_array_equal(a.start, b.start)


def test_random_walk_tasks():
    domain = SlidingTile(3)
    tasks = random_walk_tasks(domain, 5, 7, np.random.default_rng(4))
    assert len(tasks) == 5 and all(t.steps == 7 for t in tasks)
