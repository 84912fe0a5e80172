"""Searches at their limits (issue 58, A and B): memory in proportion to the limits, and the
reference's node counts where a node limit stops the search."""
import json
import tracemalloc

import numpy as np
import pytest

import la.search.depth_first as depth_first
import la.search.dive as dive
from la import data
from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.heuristics.classical import Weighted, make_heuristic
from la.search import ida_star, reference
from la.solve import main

# (domain, heuristic, weight, node limits): admissible, weighted and plateau-diving searches
CASES = [("8-puzzle", "md", 1, [1, 2, 5, 17, 60, 200, 1000, 5000]),
         ("8-puzzle", "md", 3, [3, 40, 300, 2000]),
         ("8-puzzle", "hamming", 10**6, [7, 100, 999, 3000]),
         ("7-pancake", "gap", 5, [3, 40, 300, 2000]),
         ("5-blocksworld", "hamming", 4, [5, 50, 500])]


def starts(name, n=2, seed=1):
    domain = make_domain(name)
    return domain, random_walk(domain, 60, np.random.default_rng(seed), n=n)


def heuristic(domain, name, weight):
    h = make_heuristic(name, domain)
    return Weighted(h, weight) if weight > 1 else h


def same_as_reference(domain, h, start, limit, batch_size):
    """The batched search's outcome and counts, and the reference's."""
    r = reference.ida_star(domain, h, start, node_limit=limit)
    b = ida_star(domain, h, start, node_limit=limit, batch_size=batch_size, exact_counts=True)
    assert b.expanded <= b.generated
    if b.solved:
        assert np.array_equal(b.plan, r.plan)
    return (b.status, b.generated, b.expanded), (r.status, r.generated, r.expanded)


@pytest.mark.parametrize("name, h_name, weight, limits", CASES)
def test_counts_at_a_node_limit_are_the_references(name, h_name, weight, limits):
    domain, states = starts(name)
    h = heuristic(domain, h_name, weight)
    for start in states:
        for limit in limits:
            for batch_size in (1, 4, 64):
                ours, theirs = same_as_reference(domain, h, start, limit, batch_size)
                assert ours == theirs, (start, limit, batch_size)


@pytest.mark.parametrize("name, h_name, weight, limits", CASES)
def test_the_dive_keeps_the_references_counts_and_plans(monkeypatch, name, h_name, weight, limits):
    """With no run-ahead allowed, every step dives (la.search.dive) and hands back often."""
    monkeypatch.setattr(depth_first, "AHEAD_FLOOR", 0)
    monkeypatch.setattr(dive, "DIVE_CHILDREN", 5)
    domain, states = starts(name, seed=2)
    h = heuristic(domain, h_name, weight)
    for start in states:
        for limit in limits + ([None] if weight < 1000 else []):
            ours, theirs = same_as_reference(domain, h, start, limit, 4)
            assert ours == theirs, (start, limit)


def test_la_solve_reports_the_references_counts_at_a_node_limit(capsys):
    """`la.solve` promises the reference's counts; the batched engine's were 117 and 828 expanded
    (more than the 701 generated) against the reference's 96 and 416."""
    state = "8 6 7 2 5 4 3 0 1"
    for limit in ("150", "700"):
        outcome = []
        for algorithm in ("batched", "reference"):
            assert main(["--domain", "8-puzzle", state, "--weight", "3", "--node-limit", limit,
                         "--algorithm", algorithm, "--json"]) == 1
            record = json.loads(capsys.readouterr().out)
            outcome.append((record["status"], record["generated"], record["expanded"]))
        assert outcome[0] == outcome[1] and outcome[0][2] <= outcome[0][1]


def test_a_weighted_plateau_keeps_memory_in_proportion_to_the_node_limit():
    """`--korf 1 --weight 1e6 --node-limit 1e5` grew to 24 GB: the chunks ran ahead of a dive."""
    domain = make_domain("15-puzzle")
    h = Weighted(make_heuristic("md", domain), 10**6)
    tracemalloc.start()
    try:
        result = ida_star(domain, h, data.korf100()[0].state, node_limit=10_000,
                          exact_counts=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (result.status, result.generated, result.expanded) == ("node limit", 10_001, 10_000)
    assert peak < 64e6


def test_the_batched_order_caps_a_batch_of_large_states(monkeypatch):
    """A 255-pancake batch of 32,768 nodes has 8.3 M children of 255 cells (15.8 GiB as int64 in a
    weighted gap heuristic): a batch's children hold at most CHUNK_CELLS cells (here 2^20, so
    that the test stays small), so the search stops at most one such batch past its limit."""
    monkeypatch.setattr(depth_first, "CHUNK_CELLS", 1 << 20)
    domain = make_domain("255-pancake")
    start = np.random.default_rng(3).permutation(255).astype(np.uint8)
    result = ida_star(domain, Weighted(make_heuristic("gap", domain), 2), start,
                      node_limit=20_000, order="batched")
    assert result.status == "node limit" and result.expanded <= result.generated
    assert result.generated <= 20_000 + (1 << 20) // 255 + 1


@pytest.mark.parametrize("name, h_name", [("15-puzzle", "md"), ("24-pancake", "gap"),
                                          ("5-blocksworld", "hamming")])
def test_a_weighted_heuristic_is_as_incremental_as_its_own(name, h_name):
    """W·h steps from its parents as h does (a plain h, such as hamming, stays plain): else every
    step builds the children and scores them afresh."""
    domain, states = starts(name, n=50)
    h = make_heuristic(h_name, domain)
    weighted = Weighted(h, 7)
    assert hasattr(weighted, "step") == hasattr(h, "step")
    if not hasattr(h, "step"):
        return
    values, carry = weighted.start(states)
    parent, move, children = domain.expand(states)
    stepped, _ = weighted.step(states, values, carry, parent, move)
    np.testing.assert_array_equal(values, 7 * h(states))
    np.testing.assert_array_equal(stepped, 7 * h(children))


def test_a_weighted_gap_keeps_a_batch_of_large_states_within_its_cells(monkeypatch):
    """`--domain 255-pancake --order batched --weight 2 --node-limit 1e6` peaked at 1.8 GB: each
    batch's children (CHUNK_CELLS cells) were built and scored afresh, the gap's differences as
    int64 (8 bytes a cell, several arrays at once). Stepped from the parents, a batch costs about
    its children's cells; with 2^22 of them the search's peak stays below 16 times that."""
    monkeypatch.setattr(depth_first, "CHUNK_CELLS", 1 << 22)
    domain = make_domain("255-pancake")
    start = np.random.default_rng(3).permutation(255).astype(np.uint8)
    tracemalloc.start()
    try:
        result = ida_star(domain, Weighted(make_heuristic("gap", domain), 2), start,
                          node_limit=20_000, order="batched")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.status == "node limit"
    assert peak < 16 << 22


def test_the_reference_follows_a_plateau_deeper_than_pythons_recursion_limit():
    domain = make_domain("8-puzzle")
    h = Weighted(make_heuristic("hamming", domain), 10**6)
    result = reference.ida_star(domain, h, np.array([8, 6, 7, 2, 5, 4, 3, 0, 1], np.uint8),
                                node_limit=20_000)
    assert (result.status, result.generated) == ("node limit", 20_001)


def test_running_out_of_memory_is_one_line_and_status_1(monkeypatch, capsys):
    def allocate(*args, **kwargs):
        np.empty((1 << 62,), np.uint8)                 # numpy's MemoryError names the size

    monkeypatch.setattr("la.solve.ida_star", allocate)
    assert main(["--korf", "1", "--node-limit", "1e5"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "out of memory" in err[0] and "EiB" in err[0], err
