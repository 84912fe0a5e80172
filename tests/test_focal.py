"""Focal search and weighted A* with their certificate (la.search.focal, la.search.weighted_a_star),
against exact h* (the 8-puzzle's table), the plain references, and a graph where the bound breaks
without reopening; and the closed list they share (la.search.state_table)."""
import numpy as np
import pytest

from la.domains.names import make_domain
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.heuristics.classical import Weighted, make_heuristic
from la.heuristics.likely_admissible import LikelyAdmissible
from la.features.one_hot import OneHot
from la.nn.ffnn import FFNN
from la.pdb.exact import UNSEEN, ExactTable
from la.search import bounded_reference, check_plan
from la.search.focal import focal_search
from la.search.from_parents import FirstLayer, scorer
from la.search.state_table import StateTable, bits_for
from la.search.weighted_a_star import weighted_a_star
from toy_graph import Graph, Table

WEIGHTS = (1.0, 1.05, 1.1, 1.25, 1.5, 2.0)
EIGHT = SlidingTile(3)


@pytest.fixture(scope="module")
def exact():
    """(states, h*) of 40 uniform 8-puzzle states (the whole table, then a sample of its states)."""
    table = ExactTable(EIGHT)
    h = table.build()
    rng = np.random.default_rng(3)
    ranks = rng.choice(np.flatnonzero(h != UNSEEN), 40, replace=False)
    return table.unrank(ranks), h[ranks].astype(int)


def focal_heuristics(domain):
    """Admissible, inadmissible (3 · MD) and a network's y^0.9 (an untrained one: its values are
    arbitrary, which is the point)."""
    md = make_heuristic("md", domain)
    encoding = OneHot(domain)
    network = FFNN(encoding.size, 8, 2, np.random.default_rng(0))
    return {"md": md, "3md": Weighted(md, 3), "network": LikelyAdmissible(network, encoding, 0.9)}


def check_bound(result, state, c_star, w):
    """cost <= w · C*, LB <= C*, the certificate as returned, a legal plan; optimal at w = 1."""
    r = result
    assert r.solved and r.lower_bound <= c_star <= r.cost <= w * c_star + 1e-9
    assert r.certified_ratio <= w and r.cost == pytest.approx(r.certified_ratio * r.lower_bound)
    check_plan(EIGHT, state, r.plan)
    assert r.cost == c_star or w > 1


def bound_cases(states, h_star, k, weights=WEIGHTS):
    md = make_heuristic("md", EIGHT)
    for h_focal in focal_heuristics(EIGHT).values():
        for w in weights:
            for state, c_star in zip(states, h_star):
                check_bound(focal_search(EIGHT, md, h_focal, state, w, k=k), state, c_star, w)
                check_bound(weighted_a_star(EIGHT, md, state, w, k=k), state, c_star, w)


def test_the_bound_holds_on_uniform_8_puzzle_states_for_every_weight_and_focal_heuristic(exact):
    states, h_star = exact
    bound_cases(states[:4], h_star[:4], k=64)


@pytest.mark.slow
def test_the_bound_holds_on_forty_uniform_8_puzzle_states_one_node_at_a_time_and_in_batches(exact):
    states, h_star = exact
    for k in (1, 8, 256):
        bound_cases(states, h_star, k)


@pytest.mark.parametrize("w, focal, n", [(1.0, "md", 2), (1.25, "3md", 2), (2.0, "network", 2)])
def test_one_node_at_a_time_the_batched_searches_equal_the_references(exact, w, focal, n):
    states, _ = exact
    md = make_heuristic("md", EIGHT)
    h_focal = focal_heuristics(EIGHT)[focal]
    fields = ("cost", "lower_bound", "certified_ratio", "generated", "expanded", "reopened",
              "stored", "status")
    for state in states[4:4 + n]:
        pairs = [(focal_search(EIGHT, md, h_focal, state, w),
                  bounded_reference.focal_search(EIGHT, md, h_focal, state, w)),
                 (weighted_a_star(EIGHT, md, state, w),
                  bounded_reference.weighted_a_star(EIGHT, md, state, w))]
        for batched, plain in pairs:
            assert [getattr(batched, f) for f in fields] == [getattr(plain, f) for f in fields]
            np.testing.assert_array_equal(batched.plan, plain.plan)


def test_a_step_whose_nodes_have_no_children_goes_on_on_the_8_blocksworld():
    """Parent pruning leaves a node whose only move undoes the one that made it without children:
    on this 8-blocksworld task a step of K = 1 takes such a node, and the search goes on to the
    reference's plan and counts."""
    domain = make_domain("8-blocksworld")
    hamming = make_heuristic("hamming", domain)
    start = np.array([0, 4, 0, 3, 7, 1, 2, 5], dtype=np.uint8)
    fields = ("cost", "lower_bound", "generated", "expanded", "reopened", "stored", "status")
    pairs = [(weighted_a_star(domain, hamming, start, 2.0),
              bounded_reference.weighted_a_star(domain, hamming, start, 2.0)),
             (focal_search(domain, hamming, hamming, start, 2.0),
              bounded_reference.focal_search(domain, hamming, hamming, start, 2.0))]
    for batched, plain in pairs:
        assert batched.solved and [getattr(batched, f) for f in fields] == \
            [getattr(plain, f) for f in fields]
        np.testing.assert_array_equal(batched.plan, plain.plan)
        check_plan(domain, start, batched.plan)
    in_batches = weighted_a_star(domain, hamming, start, 2.0, k=64)
    assert in_batches.solved and in_batches.certified_ratio <= 2.0
    check_plan(domain, start, in_batches.plan)


def test_in_small_batches_the_bound_still_holds(exact):
    states, h_star = exact
    bound_cases(states[10:12], h_star[10:12], k=4, weights=(1.0, 1.5))


class DrawnGraph(Graph):
    """The toy graph with the inverse-move code a best-first search asks for (none: no pruning)."""

    def inverse(self, move):
        return np.full(len(move), -1, dtype=np.int64)


# S=0 -> A=1 -> X=6 -> Y=7 -> G=8 is optimal (cost 4); S -> P1=2 -> P2=3 -> P3=4 -> P4=5 -> X is a
# detour of 3. h_ad is admissible (each value <= h*) but not consistent; h_F likes the detour. With
# w = 1.5, A sits at f = 4 = min f while the detour (f = 6 <= 1.5 · 4) reaches X at g = 5 and Y;
# then A is expanded and finds X at g = 2, already expanded. Without reopening the optimal path has
# no node left on OPEN, min f jumps to G's 7, and G is returned at cost 7 > 1.5 · 4 with a
# "certificate" of 7 / 7.
EDGES = {0: [1, 2], 1: [6], 2: [3], 3: [4], 4: [5], 5: [6], 6: [7], 7: [8]}
H_AD = {0: 4, 1: 3, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 7: 0, 8: 0}
H_F = {0: 0, 1: 10, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}


def test_without_reopening_focal_search_breaks_its_bound_on_a_drawn_graph():
    graph = DrawnGraph(EDGES, goal=8)
    start = np.array([0], dtype=np.uint8)
    broken = focal_search(graph, Table(H_AD), Table(H_F), start, 1.5, reopen=False)
    assert broken.solved and broken.cost == 7 > 1.5 * 4
    assert broken.lower_bound == 7 > 4                    # no longer a lower bound on C* = 4
    kept = focal_search(graph, Table(H_AD), Table(H_F), start, 1.5)
    assert kept.solved and kept.cost == 4 and kept.lower_bound <= 4 and kept.reopened == 2
    assert [int(s[0]) for s in kept.plan] == [0, 1, 6, 7, 8]
    plain = bounded_reference.focal_search(graph, Table(H_AD), Table(H_F), start, 1.5)
    assert (plain.cost, plain.lower_bound, plain.generated, plain.expanded, plain.reopened) == \
        (kept.cost, kept.lower_bound, kept.generated, kept.expanded, kept.reopened)


def test_a_node_limit_and_a_memory_limit_stop_the_search_unsolved():
    domain = make_domain("15-puzzle")
    md = make_heuristic("md", domain)
    rng = np.random.default_rng(5)
    start = random_walk(domain, np.array([200]), rng, 1)[0]
    by_nodes = focal_search(domain, md, md, start, 1.0, k=16, node_limit=5_000)
    assert not by_nodes.solved and by_nodes.status == "node limit"
    assert by_nodes.cost is None and by_nodes.plan is None and by_nodes.certified_ratio is None
    assert 5_000 < by_nodes.generated <= 5_000 + 16 * 4
    by_memory = weighted_a_star(domain, md, start, 1.0, k=16, memory_limit=2_000_000)
    assert not by_memory.solved and by_memory.status == "memory limit"
    assert by_memory.peak_bytes <= 2_000_000 and by_memory.certified_ratio is None
    unlimited = weighted_a_star(domain, md, start, 1.0, k=16, node_limit=by_memory.generated)
    assert unlimited.stored >= by_memory.stored


def test_bad_arguments_are_refused_in_one_line():
    md = make_heuristic("md", EIGHT)
    start = EIGHT.goal.copy()
    for call, message in [(lambda: focal_search(EIGHT, md, md, start, 0.9), "number >= 1"),
                          (lambda: weighted_a_star(EIGHT, md, start, float("nan")), "number >= 1"),
                          (lambda: focal_search(EIGHT, md, md, start, 1.5, k=0), "at least one"),
                          (lambda: weighted_a_star(EIGHT, md, start, 2, node_limit=0), "positive"),
                          (lambda: weighted_a_star(EIGHT, lambda s: -md(s),
                                                   start[[1, 0, *range(2, 9)]], 2),
                           "never negative")]:
        with pytest.raises(ValueError, match=message):
            call()
    at_goal = focal_search(EIGHT, md, md, start, 1.5)
    assert at_goal.solved and at_goal.cost == 0 and at_goal.certified_ratio == 1.0


@pytest.mark.parametrize("name", ["8-puzzle", "15-puzzle", "2x5-puzzle", "12-pancake"])
def test_children_scored_from_their_parents_get_the_values_scored_from_scratch(name):
    """`la.search.from_parents`: the network's z1 summed from pairs of cells equals the one-hot
    product, and every heuristic gives the children the values it gives them from scratch."""
    domain, rng = make_domain(name), np.random.default_rng(7)
    parents = random_walk(domain, rng.integers(5, 40, 300), rng, 300)
    parent, move = domain.successors(parents, np.full(300, -1))
    children = domain.apply(parents, parent, move)
    if isinstance(domain, SlidingTile):
        encoding = OneHot(domain)
        network = LikelyAdmissible(FFNN(encoding.size, 8, 2, rng), encoding, 0.9)
        np.testing.assert_allclose(FirstLayer(network)(parents), network.hidden(parents),
                                   rtol=0, atol=1e-12)
        heuristics = [network, make_heuristic("md", domain), Weighted(make_heuristic("md", domain),
                                                                      3)]
    else:
        heuristics = [make_heuristic("gap", domain), make_heuristic("hamming", domain)]
    for h in heuristics:
        score = scorer(h, parents[:1])
        np.testing.assert_array_equal(score(parents, h(parents), parent, move, children),
                                      h(children))


@pytest.mark.parametrize("name, words", [("15-puzzle", 1), ("8-puzzle", 1), ("24-puzzle", 3),
                                         ("24-pancake", 2), ("15-blocksworld", 1)])
@pytest.mark.parametrize("capacity", [16, 1 << 14])
def test_the_closed_list_gives_one_id_per_state_in_order_of_first_sight(name, words, capacity):
    """Small, the table grows at every batch; large, it inserts each batch in one probe loop."""
    domain, rng = make_domain(name), np.random.default_rng(11)
    table = StateTable(domain.size, bits_for(domain), capacity=capacity)
    assert table.words == words
    seen = {}
    for _ in range(6):
        states = random_walk(domain, rng.integers(1, 12, 700), rng, 700)
        ids, new = table.find_or_add(states)
        for row, i, fresh in zip(map(bytes, states), ids.tolist(), new.tolist()):
            assert fresh == (row not in seen) and seen.setdefault(row, i) == i
    assert sorted(seen.values()) == list(range(table.count)) == list(range(len(seen)))
    keys = table.pack(np.array([np.frombuffer(k, np.uint8) for k in seen]))
    assert len(np.unique(keys, axis=0)) == len(seen)                    # packing is exact
