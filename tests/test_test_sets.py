"""The 24-pancake and 15-blocksworld test sets: what their headers say, their costs, and their
regeneration."""
import re
from pathlib import Path

import numpy as np
import pytest

from la import data
from la.data import make_test_sets
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost
from la.domains.blocksworld_uniform import uniform_states
from la.domains.pancake import Pancake
from la.heuristics.classical import Gap
from la.search import ida_star
from la.search.bfs import ExactDistances
from refusals import refused

DATA = Path(data.__file__).resolve().parent
SETS = {"pancake": (data.pancake50_24, Pancake(24)),
        "blocksworld": (data.blocksworld50_15, Blocksworld(15))}


def header(name: str) -> str:
    return "".join(line for line in (DATA / make_test_sets.FILES[name]).read_text().splitlines(True)
                   if line.startswith("#"))


@pytest.mark.parametrize("name", SETS)
def test_fifty_valid_distinct_instances(name):
    load, domain = SETS[name]
    instances = load()
    assert [i.id for i in instances] == list(range(1, 51))
    for i in instances:
        assert i.state.shape == (domain.size,) and i.state.dtype == np.uint8
        domain.check(i.state)
        assert not domain.is_goal(i.state[None])[0]
    assert len(np.unique(np.array([i.state for i in instances]), axis=0)) == 50


@pytest.mark.parametrize("name", SETS)
def test_headers_say_what_how_and_the_summary_matches_the_data(name):
    text = header(name)
    for part in ("FORMAT:", "HOW:", "CHECKS RUN", "SUMMARY:", f"default_rng({make_test_sets.SEED})",
                 "REGENERATE: python -m la.data.make_test_sets"):
        assert part in text
    assert "/work" not in text and text.isascii()
    costs = np.array([i.optimal for i in SETS[name][0]()])
    summary = re.search(
        r"opt_len mean ([0-9.]+) \(sd ([0-9.]+), min (\d+), max (\d+), sum ([\d,]+)\)", text)
    assert summary is not None
    assert ([float(summary[1]), float(summary[2])]
            == [round(costs.mean(), 2), round(costs.std(ddof=1), 2)])
    assert ([int(summary[k].replace(",", "")) for k in (3, 4, 5)]
            == [costs.min(), costs.max(), costs.sum()])


def test_blocksworld_costs_are_the_rule():
    instances = data.blocksworld50_15()
    states = np.array([i.state for i in instances])
    assert np.array_equal(optimal_cost(states), [i.optimal for i in instances])
    costs = np.array([i.optimal for i in instances])
    # uniform 15-block states: about 22.75
    assert 21.75 < costs.mean() < 23.75


def test_blocksworld_cross_checks_in_the_header_are_sound():
    confirmed = re.findall(r"task (\d+): opt_len (\d+), \d+ blocked; .*: confirmed$",
                           header("blocksworld"), re.M)
    assert len(confirmed) >= 1
    costs = {i.id: i.optimal for i in data.blocksworld50_15()}
    assert all(costs[int(task)] == int(cost) for task, cost in confirmed)


def test_pancake_costs_are_at_least_gap_and_in_range():
    instances = data.pancake50_24()
    states = np.array([i.state for i in instances])
    costs = np.array([i.optimal for i in instances])
    gap = Gap(Pancake(24))(states)
    # No parity rule here: a flip changes the gap count by -1, 0 or +1, and the permutation's parity
    # either way.
    assert (costs >= gap).all()
    # bring each largest pancake down: 2 flips each
    assert (costs <= 2 * 24 - 3).all()
    assert 21.5 < costs.mean() < 24                             # the paper's 50: 22.56


def test_the_first_ten_pancake_costs_by_gap_ida_star():
    domain = Pancake(24)
    for i in data.pancake50_24()[:10]:
        assert ida_star(domain, Gap(domain), i.state).cost == i.optimal


@pytest.mark.slow
def test_all_fifty_pancake_costs_by_gap_ida_star():
    domain = Pancake(24)
    for i in data.pancake50_24():
        result = ida_star(domain, Gap(domain), i.state)
        assert result.solved and result.cost == i.optimal


@pytest.mark.slow
def test_the_command_regenerates_both_files_bit_for_bit(tmp_path):
    assert make_test_sets.main(["--out", str(tmp_path)]) == 0
    for file in make_test_sets.FILES.values():
        assert (tmp_path / file).read_bytes() == (DATA / file).read_bytes()


def test_a_random_walks_limit_is_cheaper_than_uniform():
    # The header's reason for uniform states: a long walk's limit weights each state by its number
    # of moves.
    domain = Blocksworld(15)
    states = uniform_states(15, 10_000, np.random.default_rng(8))
    parent, _ = domain.successors(states)
    moves = np.bincount(parent, minlength=len(states))
    costs = optimal_cost(states)
    assert 22.5 < costs.mean() < 23.0
    # "about 21.9"; the paper's walks: 21.72
    assert 21.6 < (moves * costs).sum() / moves.sum() < 22.2


def test_lower_bound_never_claims_more_than_the_truth():
    domain = Blocksworld(6)
    exact = ExactDistances(domain)
    for state in uniform_states(6, 20, np.random.default_rng(9)):
        h_star = int(exact(state[None])[0])
        for limit in (1, 50, 10**6):
            proof = make_test_sets.lower_bound(domain, state, limit)
            assert proof["proved"] <= h_star
        assert proof["proved"] == h_star and proof["solved"]     # with room enough, IDA* solves it


def test_small_sets_are_drawn_checked_and_written(tmp_path):
    pancakes = make_test_sets.pancake_set(1, count=5, n=9)
    assert pancakes["states"].shape == (5, 9) and (pancakes["costs"] >= pancakes["h0"]).all()
    blocks = make_test_sets.blocksworld_set(1, count=5, n=7, cross_checks=2, node_limit=10**6)
    assert np.array_equal(blocks["costs"], ExactDistances(Blocksworld(7))(blocks["states"]))
    assert len(blocks["checks"]) == 2
    text = make_test_sets.blocksworld_text(blocks, 1)
    assert "--seed 1" in text and text.count("\n#   task ") == 2
    rows = [line.split() for line in text.splitlines() if not line.startswith("#")]
    assert [int(r[1]) for r in rows] == blocks["costs"].tolist()
    again = make_test_sets.pancake_set(1, count=5, n=9)                 # same seed, same text
    assert make_test_sets.pancake_text(pancakes, 1) == make_test_sets.pancake_text(again, 1)


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed: must be at least 0"),
    (["--only", "sokoban"], "unknown test set 'sokoban'"),
    (["--out", __file__], "is a file, not a folder"),
])
def test_command_arguments_are_checked(argv, message, capsys):
    refused(make_test_sets.main, argv, capsys, message, bare=True)
