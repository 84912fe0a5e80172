"""Heller et al.'s confidence-aware search: thresholds from hand-made tables, pruning, the dual
queue's alternation and completeness, the prioritising queue's switching rule, and the batched
variant with k = 1."""
import numpy as np
import pytest

from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.classical import Hamming, Manhattan
from la.heller.batched_best_first import batched_dual_queue, batched_gbfs
from la.heller.dual_queue import dual_queue
from la.heller.greedy import gbfs
from la.heller.thresholds import AdaptiveThreshold, MeanThreshold
from la.search import check_plan
from la.heller.thresholds import X_PAPER, cost_groups, values_only
from toy_graph import Graph, ScriptedNN, Table

EIGHT = SlidingTile(3)

# S -> A, B; A -> C (a dead end); B -> D -> G. h^NN prefers A's branch; the network is unconfident
# in B only.
S, A, B, C, D, G = range(6)
FORK = Graph({S: [A, B], A: [C], B: [D], D: [G]}, goal=G)
FORK_NN = {S: 3, A: 1, B: 2, C: 1, D: 1, G: 0}
FORK_C = {S: .9, A: .9, B: .2, C: .9, D: .9, G: .9}
FORK_CLASSICAL = {S: 3, A: 3, B: 1, C: 3, D: 1, G: 0}


class PseudoNN:
    """A stand-in NN evaluator on a puzzle: h^NN = Hamming, c^NN a fixed pseudo-random function of
    the state."""

    def __init__(self, domain, confidence=None):
        self.hamming, self.fixed = Hamming(domain), confidence
        self.weights = np.random.default_rng(7).integers(1, 1000, domain.size)

    def __call__(self, states):
        c = (states.astype(np.int64) @ self.weights % 101) / 101
        return self.hamming(states), c if self.fixed is None else np.full(len(states), self.fixed)


# --- thresholds -----------------------------------------------------------------------------------

def test_mean_threshold_from_a_hand_made_table():
    """c = 0.1, 0.2, ..., 1.0: the 20th percentile lies 1.8 of the 9 gaps up, t = 0.28; 2 of 10 fall
    below it."""
    confidences = np.arange(1, 11) / 10
    threshold = MeanThreshold.from_training(confidences, 20)
    assert threshold.t == pytest.approx(0.28)
    assert (threshold.confident(np.zeros(10, dtype=np.int64), confidences).tolist()
            == [False] * 2 + [True] * 8)
    # X = 0 prunes nothing
    assert MeanThreshold.from_training(confidences, 0).t == pytest.approx(0.1)


def test_small_cost_groups_are_merged_upward_and_a_small_last_group_joins_the_one_below():
    """Costs 0 (1 state), 1 (2), 2 (5), 3 (1), 5 (3), 6 (1), at least 3 states a group: {0, 1}
    reaches 3; {2} holds 5; {3, 4, 5} holds 4 (no state costs 4); {6} holds 1 and joins it: groups
    start at 0, 2, 3."""
    costs = np.repeat([0, 1, 2, 3, 5, 6], [1, 2, 5, 1, 3, 1])
    assert cost_groups(costs, min_group=3).tolist() == [0, 2, 3]
    assert cost_groups(costs, min_group=100).tolist() == [0]                # too few for two groups
    assert cost_groups(costs, min_group=1).tolist() == [0, 1, 2, 3, 5, 6]


def test_adaptive_thresholds_from_a_hand_made_table():
    """Group {0, 1} has confidences 0.9, 0.8, 0.7; group {2} 0.1..0.5; group {3..6} 0.6, 0.4, 0.2,
    0.2, 0.2. The 50th percentiles: 0.8, 0.3, 0.2. A predicted cost of 4 (no training state) uses
    the group below, costs beyond 6 the last group."""
    costs = np.repeat([0, 1, 2, 3, 5, 6], [1, 2, 5, 1, 3, 1])
    confidences = [.9, .8, .7, .1, .2, .3, .4, .5, .6, .4, .2, .2, .2]
    threshold = AdaptiveThreshold.from_training(confidences, costs, 50, min_group=3)
    assert threshold.lower.tolist() == [0, 2, 3]
    np.testing.assert_allclose(threshold.t, [0.8, 0.3, 0.2])
    assert threshold.group([0, 1, 2, 3, 4, 6, 7, 50]).tolist() == [0, 0, 1, 2, 2, 2, 2, 2]
    assert threshold.confident([1, 2, 50], [0.5, 0.5, 0.1]).tolist() == [False, True, False]


def test_a_predicted_cost_below_every_training_cost_uses_the_first_group():
    threshold = AdaptiveThreshold.from_training([.3, .3, .6, .6], [4, 4, 9, 9], 50, min_group=2)
    assert threshold.lower.tolist() == [4, 9]
    assert threshold.group([0, 3, 4, 8, 9, 99]).tolist() == [0, 0, 0, 0, 1, 1]


def test_the_papers_100_states_per_group():
    """Costs 0..5 with 150, 30, 40, 50, 200 and 10 states: {0}, {1, 2, 3} (120) and {4, 5}
    (200 + 10)."""
    counts = [150, 30, 40, 50, 200, 10]
    costs = np.repeat(np.arange(6), counts)
    confidences = np.random.default_rng(0).uniform(size=len(costs))
    threshold = AdaptiveThreshold.from_training(confidences, costs, 40)
    assert threshold.lower.tolist() == [0, 1, 4]
    in_group = [costs == 0, (costs >= 1) & (costs <= 3), costs >= 4]
    np.testing.assert_allclose(threshold.t, [np.percentile(confidences[g], 40) for g in in_group])


@pytest.mark.parametrize("X", X_PAPER)
def test_about_X_percent_of_the_training_data_is_unconfident(X):
    rng = np.random.default_rng(X)
    costs = rng.integers(0, 30, 5000)
    confidences = rng.beta(2, 1 + costs / 10)          # confidence falls with cost, as in the paper
    mean = MeanThreshold.from_training(confidences, X)
    adaptive = AdaptiveThreshold.from_training(confidences, costs, X)
    for threshold in (mean, adaptive):
        assert ((~threshold.confident(costs, confidences)).mean()
                == pytest.approx(X / 100, abs=0.005))
    far = costs >= 20       # the adaptive threshold prunes X % of far states too, the mean one more
    assert (~adaptive.confident(costs, confidences))[far].mean() == pytest.approx(X / 100, abs=0.02)
    assert (~mean.confident(costs, confidences))[far].mean() > X / 100 + 0.02


def test_bad_thresholds_are_refused():
    with pytest.raises(ValueError, match="0..100"):
        MeanThreshold.from_training([0.5], 120)
    with pytest.raises(ValueError, match="finite"):
        MeanThreshold.from_training([0.5, np.nan], 50)
    with pytest.raises(ValueError, match="got none"):
        AdaptiveThreshold.from_training([], [], 50)
    with pytest.raises(ValueError, match="one integer per confidence"):
        AdaptiveThreshold.from_training([0.5, 0.5], [1.0, 2.0], 50)
    with pytest.raises(ValueError, match="increasing"):
        AdaptiveThreshold([3, 1], [0.5, 0.5])


# --- pruning in single-queue search ---------------------------------------------------------------

def test_mean_threshold_pruning_makes_single_queue_search_fail_on_the_fork():
    """Unpruned, GBFS tries A's dead end, then B, D, G. With t = 0.5 (the median of the training
    table) B is pruned when generated, and the search runs dry after S, A and C."""
    nn = ScriptedNN(FORK_NN, FORK_C)
    plain = gbfs(FORK, values_only(nn), np.array([S]))
    assert plain.plan[:, 0].tolist() == [S, B, D, G]
    threshold = MeanThreshold.from_training([.1, .3, .5, .7, .9], 50)
    pruned = gbfs(FORK, nn, np.array([S]), prune=threshold)
    assert (pruned.solved, pruned.status, pruned.expanded) == (False, "no solution", 3)


def test_adaptive_threshold_keeps_an_unconfident_far_state_the_mean_threshold_prunes():
    """Training states of cost 0-1 are confident (0.5), those of cost 2-3 not (0.1): t_0 = 0.5,
    t_1 = 0.1, so B (h^NN 2, c 0.2) stays and the search succeeds, where the mean threshold 0.5
    prunes B."""
    threshold = AdaptiveThreshold.from_training([.5] * 4 + [.1] * 4, [0, 0, 1, 1, 2, 2, 3, 3], 50,
                                                min_group=4)
    np.testing.assert_allclose(threshold.t, [0.5, 0.1])
    result = gbfs(FORK, ScriptedNN(FORK_NN, FORK_C), np.array([S]), prune=threshold)
    assert result.plan[:, 0].tolist() == [S, B, D, G]
    assert not gbfs(FORK, ScriptedNN(FORK_NN, FORK_C), np.array([S]),
                    prune=MeanThreshold(0.5)).solved


# --- dual queue -----------------------------------------------------------------------------------

def test_dual_queue_alternates_one_expansion_per_queue():
    """h^NN expands S; the classical queue B (h 1); h^NN A (h 1, tied with D, generated earlier);
    the classical queue D (h 1); then h^NN pops the goal (h 0)."""
    nn, classical, trace = ScriptedNN(FORK_NN, FORK_C), Table(FORK_CLASSICAL), []
    result = dual_queue(FORK, nn, classical, np.array([S]), trace=trace)
    assert trace == [0, 1, 0, 1]
    assert result.plan[:, 0].tolist() == [S, B, D, G] and result.expanded == 4
    # each state once, per evaluator
    assert nn.calls == classical.calls == [[S], [A, B], [D], [C], [G]]


def test_a_node_expanded_from_one_queue_is_skipped_in_the_other_without_losing_the_turn():
    """S -> A, B; A, B -> G. The classical queue's best is S (h 0), already expanded from the h^NN
    queue: it is skipped and the classical queue expands B, whose child G the h^NN queue then
    pops."""
    S, A, B, G = range(4)
    graph = Graph({S: [A, B], A: [G], B: [G]}, goal=G)
    nn = ScriptedNN({S: 2, A: 1, B: 1, G: 0}, {S: 1, A: 1, B: 1, G: 1})
    trace = []
    result = dual_queue(graph, nn, Table({S: 0, A: 5, B: 1, G: 0}), np.array([S]), trace=trace)
    assert trace == [0, 1] and result.expanded == 2
    assert result.plan[:, 0].tolist() == [S, B, G]


def test_dual_queue_stays_complete_when_the_nn_queue_prunes_everything():
    nn = PseudoNN(EIGHT, confidence=0.0)
    for start in random_walk(EIGHT, 40, np.random.default_rng(1), n=5):
        trace = []
        result = dual_queue(EIGHT, nn, Manhattan(EIGHT), start, prune=MeanThreshold(0.5),
                            trace=trace)
        check_plan(EIGHT, start, result.plan)
        # after the root, only the classical queue
        assert trace == [0] + [1] * (result.expanded - 1)
        single = gbfs(EIGHT, nn, start, prune=MeanThreshold(0.5))
        assert (single.status, single.expanded) == ("no solution", 1)


def test_dual_queue_prunes_only_the_nn_queue():
    """On the fork with h^NN(B) = 0 and a classical heuristic preferring A: unpruned, h^NN expands
    S, the classical queue A, h^NN B, the classical queue D, then h^NN pops G. With B pruned from
    the h^NN queue (c 0.2 < 0.5), h^NN expands C (a dead end) instead, and B waits for the classical
    queue's next turn."""
    values = {**FORK_NN, B: 0}
    classical = {S: 3, A: 1, B: 2, C: 3, D: 1, G: 0}
    unpruned, pruned = [], []
    dual_queue(FORK, ScriptedNN(values, FORK_C), Table(classical), np.array([S]), trace=unpruned)
    result = dual_queue(FORK, ScriptedNN(values, FORK_C), Table(classical), np.array([S]),
                        prune=MeanThreshold(0.5), trace=pruned)
    assert unpruned == [0, 1, 0, 1] and pruned == [0, 1, 0, 1, 0]
    assert result.plan[:, 0].tolist() == [S, B, D, G]


def test_dual_queue_node_limit_stops_the_search():
    puzzle = SlidingTile(4)
    start = random_walk(puzzle, 400, np.random.default_rng(6))[0]
    result = dual_queue(puzzle, PseudoNN(puzzle), Hamming(puzzle), start, node_limit=2_000)
    assert result.status == "node limit" and 2_000 < result.generated <= 2_000 + 4


# --- prioritising queue ---------------------------------------------------------------------------

def test_prioritising_queue_stays_on_confident_states_and_switches_once_after_an_unconfident_one():
    """S -> A, X; A -> B -> C -> G; X -> Y. h^NN leads along A, B, C; the network is unconfident in
    B only; the classical heuristic prefers X and Y.

    Prioritising: h^NN expands S, A (confident), B (unconfident: switch), the classical queue X,
    h^NN C, then pops the goal: queues 0 0 0 1 0. Round-robin would go 0 1 0 1 0 1."""
    S, A, X, B, C, G, Y = range(7)
    graph = Graph({S: [A, X], A: [B], B: [C], C: [G], X: [Y]}, goal=G)
    values = {S: 5, A: 3, X: 9, B: 2, C: 1, G: 0, Y: 9}
    confidence = {S: .9, A: .9, X: .9, B: .1, C: .9, G: .9, Y: .9}
    classical = Table({S: 5, A: 9, X: 1, B: 9, C: 9, G: 0, Y: 1})
    prioritised, round_robin = [], []
    result = dual_queue(graph, ScriptedNN(values, confidence), classical, np.array([S]),
                        prioritise=MeanThreshold(0.5), trace=prioritised)
    assert prioritised == [0, 0, 0, 1, 0] and result.plan[:, 0].tolist() == [S, A, B, C, G]
    dual_queue(graph, ScriptedNN(values, confidence), classical, np.array([S]), trace=round_robin)
    assert round_robin == [0, 1, 0, 1, 0, 1]
    always = []                                                  # every state confident: h^NN alone
    dual_queue(graph, ScriptedNN(values, confidence), classical, np.array([S]),
               prioritise=MeanThreshold(0.05), trace=always)
    assert always == [0, 0, 0, 0]


def test_prune_and_prioritise_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        dual_queue(EIGHT, PseudoNN(EIGHT), Manhattan(EIGHT), EIGHT.goal, prune=MeanThreshold(.5),
                   prioritise=MeanThreshold(.5))


@pytest.mark.parametrize("search", [lambda h: gbfs(EIGHT, h, EIGHT.goal, prune=MeanThreshold(.5)),
                                    lambda h: dual_queue(EIGHT, h, Manhattan(EIGHT), EIGHT.goal),
                                    lambda h: batched_dual_queue(EIGHT, h, Manhattan(EIGHT),
                                                                 EIGHT.goal, k=4)])
def test_a_plain_heuristic_where_an_nn_evaluator_is_needed_is_refused(search):
    with pytest.raises(ValueError, match=r"pair \(h, c\)"):
        search(Manhattan(EIGHT))


# --- the batched variant --------------------------------------------------------------------------

ADAPTIVE = AdaptiveThreshold([0, 4], [0.3, 0.6])
RULES = [{}, {"prune": MeanThreshold(0.5)}, {"prune": ADAPTIVE}, {"prioritise": MeanThreshold(0.5)},
         {"prioritise": ADAPTIVE}]


@pytest.mark.parametrize("rule", RULES, ids=["plain", "prune-mean", "prune-adaptive",
                                             "prioritise-mean", "prioritise-adaptive"])
def test_batched_dual_queue_with_k_1_is_the_faithful_search(rule):
    for start in random_walk(EIGHT, 60, np.random.default_rng(2), n=8):
        a_trace, b_trace = [], []
        a = dual_queue(EIGHT, PseudoNN(EIGHT), Manhattan(EIGHT), start, trace=a_trace, **rule)
        b = batched_dual_queue(EIGHT, PseudoNN(EIGHT), Manhattan(EIGHT), start, k=1, trace=b_trace,
                               **rule)
        assert a_trace == b_trace and (a.generated, a.expanded) == (b.generated, b.expanded)
        np.testing.assert_array_equal(a.plan, b.plan)
        check_plan(EIGHT, start, a.plan)
        assert set(a_trace) == {0, 1}


@pytest.mark.parametrize("rule", RULES[1:3])
def test_batched_gbfs_with_pruning_and_k_1_is_the_faithful_search(rule):
    for start in random_walk(EIGHT, 60, np.random.default_rng(3), n=8):
        a = gbfs(EIGHT, PseudoNN(EIGHT), start, **rule)
        b = batched_gbfs(EIGHT, PseudoNN(EIGHT), start, k=1, **rule)
        assert (a.status, a.generated, a.expanded) == (b.status, b.generated, b.expanded)
        if a.solved:
            np.testing.assert_array_equal(a.plan, b.plan)


@pytest.mark.parametrize("rule", RULES, ids=["plain", "prune-mean", "prune-adaptive",
                                             "prioritise-mean", "prioritise-adaptive"])
def test_batched_dual_queue_returns_valid_plans(rule):
    for start in random_walk(EIGHT, 60, np.random.default_rng(4), n=8):
        trace = []
        result = batched_dual_queue(EIGHT, PseudoNN(EIGHT), Manhattan(EIGHT), start, k=8,
                                    trace=trace, **rule)
        check_plan(EIGHT, start, result.plan)
        assert len(trace) == result.expanded
