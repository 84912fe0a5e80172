"""Records labelled by optimal plans, checked against breadth-first distances on small domains
(8-puzzle, 7-pancake, 6-blocksworld), their files, and the optimal-plan network trained on them end
to end."""
from dataclasses import replace

import numpy as np
import pytest

from la.config import DOMAINS, LearnConfig
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.features.encodings import for_domain
from la.nn.config import FFNNConfig, build_ffnn
from la.rivals.optimal_labels import (OptimalPlanConfig, labelled_states, load_records,
                                      optimal_plan_config, optimal_solver,
                                      train_optimal_plan_network)
from la.search import check_plan
from la.search.bfs import ExactDistances

EIGHT = SlidingTile(3)
# Small: 300 records from walks of up to 40 steps (the 8-puzzle's diameter is 31), a 300-row batch.
LEARN = LearnConfig(num_iter=2, train_iter=200, buffer_size=300, ffnn_batch=300,
                    ffnn=FFNNConfig(n_hidden=8, dropout=0.0))
SMALL = OptimalPlanConfig(records=300, walk_lengths=(1, 40), starts_per_batch=5, learn=LEARN)


@pytest.fixture(scope="module")
def exact():
    """h* of every state of each small domain, by breadth-first search."""
    return {d.name: ExactDistances(d) for d in (EIGHT, Pancake(7), Blocksworld(6))}


def label(domain, n=SMALL.records, seed=0, config=SMALL, **options):
    return labelled_states(domain, n, np.random.default_rng(seed), config, **options)


@pytest.mark.parametrize("domain", [EIGHT, Pancake(7), Blocksworld(6)], ids=lambda d: d.name)
def test_every_label_is_the_breadth_first_distance(domain, exact):
    records = label(domain, config=replace(SMALL, walk_lengths=(1, 25)))
    assert records.states.shape == (SMALL.records, domain.size) and records.states.dtype == np.uint8
    assert np.array_equal(records.h_star, exact[domain.name](records.states))
    assert records.solved > 0 and records.unsolved == 0


def test_records_are_distinct_and_begin_with_the_goal_at_zero():
    records = label(EIGHT)
    assert np.array_equal(records.states[0], EIGHT.goal) and records.h_star[0] == 0
    # one label per state: distinct pairs
    assert len(np.unique(records.states, axis=0)) == len(records.states)
    # the walks reach beyond the goal
    assert records.h_star.max() > 15


def test_the_same_seed_gives_the_same_records_and_another_seed_others():
    first, again, other = label(EIGHT), label(EIGHT), label(EIGHT, seed=1)
    assert np.array_equal(first.states, again.states) and np.array_equal(first.h_star, again.h_star)
    assert not np.array_equal(first.states, other.states)


def test_the_solvers_plans_are_legal_and_optimal(exact):
    rng = np.random.default_rng(3)
    for domain in (EIGHT, Pancake(7), Blocksworld(6)):
        solve = optimal_solver(domain)
        for start in rng.permutation(exact[domain.name].states())[:5]:
            plan = solve(start)
            check_plan(domain, start, plan)
            assert len(plan) - 1 == exact[domain.name](start[None])[0]


def test_a_node_limit_leaves_hard_starts_out_and_counts_them(exact):
    records = label(EIGHT, config=replace(SMALL, node_limit=60))
    assert records.unsolved > 0 and len(records.h_star) == SMALL.records
    assert np.array_equal(records.h_star, exact[EIGHT.name](records.states))
    with pytest.raises(ValueError, match="node limit 1 stops every search"):
        label(EIGHT, config=replace(SMALL, walk_lengths=(20, 30), node_limit=1, patience=2))


def test_too_few_reachable_states_is_an_error_not_a_hang():
    with pytest.raises(ValueError, match="2 batches of 5 starts added no record .* walks of 1–1 "
                                         "steps reach too few"):
        label(EIGHT, n=10, config=replace(SMALL, walk_lengths=(1, 1), patience=2))


def test_saved_records_round_trip_and_a_resumed_labelling_ends_as_an_uninterrupted_one(tmp_path):
    path = tmp_path / "records.npz"
    part = label(EIGHT, n=100, path=path)
    saved, about = load_records(path)
    assert len(saved.h_star) >= 100 and about["domain"] == EIGHT.name
    assert (np.array_equal(saved.states[:100], part.states)
            and np.array_equal(saved.h_star[:100], part.h_star))
    assert (saved.solved, saved.unsolved) == (part.solved, part.unsolved)
    resumed, whole = label(EIGHT, path=path), label(EIGHT)
    assert (np.array_equal(resumed.states, whole.states)
            and np.array_equal(resumed.h_star, whole.h_star))
    assert resumed.solved == whole.solved
    with pytest.raises(ValueError, match="another labelling"):
        label(EIGHT, seed=1, path=path)


@pytest.mark.parametrize("damage", [b"not an npz", None])
def test_a_damaged_records_file_is_a_one_line_error_naming_it(damage, tmp_path):
    path = tmp_path / "records.npz"
    label(EIGHT, n=50, path=path)
    data = path.read_bytes()
    path.write_bytes(damage if damage is not None else data[:len(data) // 2])
    with pytest.raises(ValueError) as error:
        load_records(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_bad_configurations_are_refused():
    for changes, message in [({"walk_lengths": (5, 2)}, "walk_lengths"),
                             ({"records": 0}, "records"), ({"node_limit": 0}, "node_limit"),
                             ({"patience": 0}, "patience"), ({"records": 301}, "ffnn_batch")]:
        with pytest.raises(ValueError, match=message):
            replace(SMALL, **changes)


def test_each_domain_takes_its_walk_lengths_and_its_alpha_networks_learn_config():
    assert optimal_plan_config("15-puzzle") == OptimalPlanConfig()
    for name, lengths in [("24-pancake", (1, 150)), ("15-blocksworld", (1, 400))]:
        assert optimal_plan_config(name).walk_lengths == lengths
        # the α network's: 8 hidden units
        assert optimal_plan_config(name).learn == DOMAINS[name].learn()
    # (NumIter − 1) × TrainIter
    assert optimal_plan_config("15-puzzle").max_steps == 49 * 1000
    assert optimal_plan_config("8-puzzle").walk_lengths == OptimalPlanConfig().walk_lengths


def test_training_on_the_records_brings_10_mu_closer_to_h_star():
    seed = 4
    result = train_optimal_plan_network(EIGHT, SMALL, np.random.default_rng(seed))
    records = result.records
    X = result.encoding(records.states)
    # The same initial network: the one train_optimal_plan_network builds from the first child
    # generator.
    untrained, _ = build_ffnn(LEARN.ffnn, X.shape[1], np.random.default_rng(seed).spawn(1)[0])

    def error(net):
        return np.abs(net.scale * net.predict(X)[0] - records.h_star).mean()
    assert result.net.n_out == 2 and 0 < result.steps <= SMALL.max_steps
    assert error(result.net) < 0.5 * error(untrained)
    # the labels used its generator
    assert np.array_equal(records.states, label(EIGHT, seed=seed).states)


def test_an_encoding_of_another_domain_is_refused():
    with pytest.raises(ValueError, match="encodes 15-puzzle states"):
        train_optimal_plan_network(EIGHT, SMALL, np.random.default_rng(0),
                                   encoding=for_domain(SlidingTile(4)))
