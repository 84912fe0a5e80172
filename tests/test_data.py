"""Benchmark data: the instances are what their headers say, and the stored solutions replay."""
import numpy as np

from la import data
from la.domains.sliding_tile import SlidingTile
from la.heuristics.classical import Manhattan
from la.search import check_plan


def test_korf100():
    instances = data.korf100()
    assert [i.id for i in instances] == list(range(1, 101))
    assert sum(i.optimal for i in instances) == 5305                 # mean 53.05, as the paper says
    domain = SlidingTile(4)
    md = Manhattan(domain)(np.array([domain.validate(i.state) for i in instances]))   # all solvable
    optimal = np.array([i.optimal for i in instances])
    assert (md <= optimal).all() and ((optimal - md) % 2 == 0).all()


def test_korf50_24():
    instances = data.korf50_24()
    assert [i.id for i in instances] == list(range(1, 51))
    assert sum(i.optimal for i in instances) == 5039                # mean 100.78, as the paper says
    domain = SlidingTile(5)
    for i in instances:
        domain.validate(i.state)


def test_stored_optimal_solutions_replay_to_the_goal():
    for which, instances, width in [("korf100", data.korf100(), 4),
                                    ("korf50_24", data.korf50_24(), 5)]:
        moves = data.optimal_blank_moves(which)
        for i in instances:
            plan = data.optimal_plan(i.state, moves[i.id])
            assert len(plan) == i.optimal + 1
            check_plan(SlidingTile(width), i.state, plan)


def test_korf_node_counts_table():
    counts = data.korf100_md_nodes()
    assert len(counts) == 100 and sum(c.agree for c in counts.values()) == 97
    assert sum(c.reproduced for c in counts.values()) == 36_302_808_031
    assert all(c.optimal == i.optimal for c, i in zip(counts.values(), data.korf100()))
