"""PDB heuristics for IDA* (`la.heuristics.pdb`) and `la.solve --heuristic pdb|max-pdb|exact`.

Small domains (an 8-puzzle, an 8-pancake, a 6-blocksworld) with PDBs built into a temporary folder;
the paper-sized sets are in the slow tier.
"""
import json
import subprocess
import sys

import numpy as np
import pytest

from la import data
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_cost
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features.blocksworld import BlockFeatures
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures
from la.heuristics.pdb import PDBHeuristic, max_pdb_heuristic, partition_sums, pdb_heuristic
from la.pdb.blocksworld import BlockPattern
from la.pdb.pancake import PancakePattern
from la.pdb.sliding_tile import TilePattern
from la.pdb.store import load
from la.search import check_plan, ida_star, reference
from la.search.bfs import ExactDistances
from refusals import refused_process


def quiet(fraction, text):
    """A progress callback that prints nothing."""


def every_state(domain):
    """All states of a small domain and their h*, from the breadth-first table's keys."""
    exact = ExactDistances(domain)
    return exact.states(), exact.distance


def built(groups: dict, make, folder) -> dict:
    return {name: [load(make(p), folder, quiet) for p in patterns]
            for name, patterns in groups.items()}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="module")
def puzzle8(folder):
    groups = {"A": [[1, 2, 3, 4], [5, 6, 7, 8]], "B": [[1, 4, 7], [2, 5, 8], [3, 6]]}
    return TileFeatures(SlidingTile(3), built(groups, lambda p: TilePattern(3, p), folder))


def test_pdb_is_the_larger_partition_sum_and_admissible_on_every_8_puzzle_state(puzzle8):
    h = PDBHeuristic(puzzle8, partition_sums(puzzle8))
    states, h_star = every_state(SlidingTile(3))
    values = h(states)
    by_pdb = np.stack([pdb(states) for pdb in puzzle8.pdbs], axis=1)
    np.testing.assert_array_equal(values, np.maximum(by_pdb[:, :2].sum(1), by_pdb[:, 2:].sum(1)))
    assert (values <= h_star).all() and (values > 0).sum() == len(states) - 1


@pytest.mark.parametrize("weight", [1, 2])
def test_ida_star_with_a_pdb_heuristic_is_the_reference_search(puzzle8, weight):
    """The incremental update inside the batched IDA* gives the reference's plan and node counts."""
    h = PDBHeuristic(puzzle8, partition_sums(puzzle8))
    for start in random_walk(SlidingTile(3), 40, np.random.default_rng(weight), n=6):
        fast = ida_star(SlidingTile(3), h, start, batch_size=7)
        plain = reference.ida_star(SlidingTile(3), h, start)
        assert ((fast.cost, fast.generated, fast.bounds)
                == (plain.cost, plain.generated, plain.bounds))
        np.testing.assert_array_equal(fast.plan, plain.plan)


def test_max_pdb_on_pancakes_and_blocksworld_solves_optimally(folder):
    pancake, blocks = Pancake(8), Blocksworld(6)
    encodings = [
        PancakeFeatures(pancake, built({"A": [[0, 1, 2, 3], [4, 5, 6, 7]],
                                        "B": [[0, 1, 6, 7], [2, 3, 4, 5]]},
                                       lambda p: PancakePattern(8, p), folder)),
        BlockFeatures(blocks, built({"max": [[1, 2, 3, 4], [3, 4, 5, 6]]},
                                    lambda p: BlockPattern(6, p), folder))]
    for encoding in encodings:
        domain = encoding.domain
        states, h_star = every_state(domain)
        h = PDBHeuristic(encoding, encoding.floor_columns)
        assert (h(states) <= h_star).all()
        exact = ExactDistances(domain)
        for start in random_walk(domain, 30, np.random.default_rng(3), n=5):
            assert ida_star(domain, h, start).cost == exact(start[None])[0]


def test_the_heuristics_refuse_domains_without_their_pdbs():
    with pytest.raises(ValueError, match="'pdb' needs additive PDB partitions"):
        pdb_heuristic(SlidingTile(3))
    with pytest.raises(ValueError, match="'pdb' needs additive"):
        pdb_heuristic(Blocksworld(15))
    with pytest.raises(ValueError, match="'max-pdb'.*not the 15-puzzle"):
        max_pdb_heuristic(SlidingTile(4))


def solve(*args):
    return subprocess.run([sys.executable, "-m", "la.solve", *args], capture_output=True, text=True,
                          timeout=600)


def test_solve_with_the_exact_blocksworld_rule_walks_straight_down_an_optimal_plan():
    state = np.array([0, 1, 0, 3, 4, 0, 6, 2])
    out = solve("--domain", "8-blocksworld", "--heuristic", "exact", "--json", *map(str, state))
    record = json.loads(out.stdout)
    assert (out.returncode == 0
            and record["cost"] == optimal_cost(state[None])[0] == record["bounds"][0])
    assert record["iterations"] == 1 and record["heuristic"] == "exact"


@pytest.mark.parametrize("args, message", [
    (["--domain", "8-puzzle", "--heuristic", "pdb", "1", "0", "2", "3", "4", "5", "6", "7", "8"],
     "'pdb' needs additive PDB partitions"),
    (["--korf", "1", "--heuristic", "exact"], "far too many for an exact table"),
    (["--korf24", "1", "--heuristic", "exact"], "far too many for an exact table"),
    (["--korf", "1", "--heuristic", "max-pdb"], "'max-pdb'"),
    (["--korf", "1", "--heuristic", "pdb", "--pdb-dir", ""], "--pdb-dir"),
])
def test_solve_refuses_a_heuristic_without_its_pdbs_in_one_line(args, message):
    refused_process(solve(*args), message)


# --- the paper-sized sets (PDBs built on first use: minutes) --------------------------------------

@pytest.mark.slow
def test_pdb_solves_all_of_korfs_15_puzzles_optimally(tmp_path):
    """Korf & Felner's 6-6-3 partition and its reflection (built here: about a minute)."""
    domain = SlidingTile(4)
    h = pdb_heuristic(domain, tmp_path, quiet)
    for instance in data.korf100():
        result = ida_star(domain, h, instance.state)
        assert result.cost == instance.optimal
        check_plan(domain, instance.state, result.plan)


@pytest.mark.slow
def test_pdb_solves_24_puzzle_tasks_of_moderate_depth_optimally():
    """Random walks of 40 steps from the goal, whose optimal costs IDA* with Manhattan distance
    finds too."""
    from la.heuristics.classical import Manhattan
    domain = SlidingTile(5)
    h = pdb_heuristic(domain)
    for start in random_walk(domain, 40, np.random.default_rng(4), n=3):
        with_pdb, with_md = ida_star(domain, h, start), ida_star(domain, Manhattan(domain), start)
        assert with_pdb.cost == with_md.cost and with_pdb.generated <= with_md.generated


@pytest.mark.slow
def test_max_pdb_confirms_the_cheapest_blocksworld_test_costs(tmp_path):
    """An independent check of the exact cost rule on the shipped 15-blocksworld tasks: admissible
    IDA* with the twelve 4-block PDBs (and Hamming) finds the same optimal costs."""
    domain = Blocksworld(15)
    h = max_pdb_heuristic(domain, tmp_path, quiet)
    for instance in sorted(data.blocksworld50_15(), key=lambda i: i.optimal)[:3]:
        result = ida_star(domain, h, instance.state)
        assert result.cost == instance.optimal == optimal_cost(instance.state[None])[0]
        check_plan(domain, instance.state, result.plan)
