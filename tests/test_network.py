"""Trained networks on disk (`la.runs.network`) and `python -m la.solve --network`: a file records
its domain and encoding, files saved before still load as 15-puzzle networks, every encoding is
remade from its description, and solving with a saved network gives what the experiments' test code
gives."""
import json
from dataclasses import replace

import numpy as np
import pytest

import la.solve as solve
from la.config import LearnConfig
from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.experiments import suboptimality_units as units, table1
from la.features import OneHot
from la.features.blocksworld import BlockFeatures
from la.features.encodings import ONE_HOT, describe, from_description
from la.features.pancake import PancakeFeatures
from la.features.sliding_tile import TileFeatures
from la.learn import learn_heuristic_prac
from la.nn import FFNN, WUNN, Adam
from la.nn.config import FFNNConfig, WUNNConfig
from la.pdb.sets import abstraction
from la.pdb.store import load
from la.runs import cli
from la.runs.compat import NETWORK_ABOUT
from la.runs.network import load_network, network_encoding, save_network
from la.runs.persist import save
from la.search import ida_star
from refusals import refused

SMALL = {"8-puzzle": (SlidingTile(3), TileFeatures, {"A": [[1, 2, 3, 4], [5, 6, 7, 8]],
                                                     "B": [[1, 4, 7], [2, 5, 8], [3, 6]]}),
         "8-pancake": (Pancake(8), PancakeFeatures, {"A": [[0, 1, 2, 3], [4, 5, 6, 7]],
                                                     "B": [[0, 1, 6, 7], [2, 3, 4, 5]]}),
         "6-blocksworld": (Blocksworld(6), BlockFeatures,
                           {"max": [[1, 2, 3, 4], [3, 4, 5, 6], [1, 2, 5, 6]]})}
TOY = LearnConfig(num_iter=3, node_limit=50_000, max_steps=40, train_iter=60, wunn_blocks=3,
                  ffnn=FFNNConfig(n_hidden=8, dropout=0.0), wunn=WUNNConfig(n_hidden=8))


def quiet(fraction, text):
    """A progress callback that prints nothing."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="module")
def encodings(folder):
    made = {}
    for name, (domain, kind, groups) in SMALL.items():
        made[name] = kind(domain, {g: [load(abstraction(name, p), folder, quiet) for p in patterns]
                                   for g, patterns in groups.items()})
    return made


def solve_json(argv, capsys) -> tuple:
    """Exit status and the JSON record of `python -m la.solve ... --json`, run in-process."""
    status = cli.run(solve.main, [*map(str, argv), "--json"])
    return status, json.loads(capsys.readouterr().out)


# --- files ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SMALL))
def test_every_encoding_is_remade_from_its_description(encodings, folder, name):
    encoding = encodings[name]
    description = json.loads(json.dumps(describe(encoding)))            # as a file holds it
    again = from_description(encoding.domain, description, folder)
    assert type(again) is type(encoding) and again.size == encoding.size
    states = random_walk(encoding.domain, 30, np.random.default_rng(0), n=500)
    np.testing.assert_array_equal(again(states), encoding(states))
    np.testing.assert_array_equal(again.admissible(states), encoding.admissible(states))


def test_descriptions_of_the_one_hot_and_bad_descriptions():
    assert describe(OneHot(SlidingTile(4))) == ONE_HOT
    assert isinstance(from_description(SlidingTile(3), ONE_HOT), OneHot)
    for bad in [{"encoding": "Fourier"}, {}, [], {"encoding": "PancakeFeatures"},
                {"encoding": "PancakeFeatures", "partitions": [[[0, 1], "2"]]},
                {"encoding": "PancakeFeatures", "partitions": [[]]}]:
        with pytest.raises(ValueError, match="encoding|partitions"):
            from_description(Pancake(8), bad)
    with pytest.raises(ValueError):
        describe(object())


def test_a_network_records_its_domain_and_encoding(encodings, folder, tmp_path):
    encoding = encodings["6-blocksworld"]
    for net in (FFNN(encoding.size, 8, 2, np.random.default_rng(0)),
                WUNN(encoding.size, 8, np.random.default_rng(0))):
        path = tmp_path / f"{type(net).__name__}.npz"
        save_network(net, encoding, path)
        loaded, about = load_network(path, Blocksworld(6))
        assert about == {"domain": "6-blocksworld", "encoding": describe(encoding)}
        for key, value in net.params.items():
            np.testing.assert_array_equal(loaded.params[key], value)
        states = random_walk(Blocksworld(6), 20, np.random.default_rng(1), n=100)
        np.testing.assert_array_equal(network_encoding(about, folder)(states), encoding(states))
        with pytest.raises(ValueError, match="trained on the 6-blocksworld, not the 7-blocksworld"):
            load_network(path, Blocksworld(7))
    with pytest.raises(ValueError, match="inputs"):
        save_network(FFNN(3, 8, 2, np.random.default_rng(0)), encoding, tmp_path / "x.npz")


def test_files_saved_before_are_15_puzzle_networks_on_the_one_hot(tmp_path):
    path = tmp_path / "network.npz"
    # how la saved networks before
    save(FFNN(128, 20, 2, np.random.default_rng(0)), path)
    net, about = load_network(path, SlidingTile(4))
    assert (about == NETWORK_ABOUT == {"domain": "15-puzzle", "encoding": ONE_HOT}
            and net.n_in == 128)
    assert isinstance(network_encoding(about), OneHot)
    with pytest.raises(ValueError, match="trained on the 15-puzzle, not the 8-puzzle"):
        load_network(path, SlidingTile(3))
    save(Adam({"w": np.zeros(2)}), tmp_path / "adam.npz")
    (tmp_path / "text.npz").write_text("not a network")
    for bad, message in [("adam.npz", "optimiser"), ("text.npz", "not an .npz archive")]:
        with pytest.raises(ValueError, match=message):
            load_network(tmp_path / bad)


# --- la.solve --network ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def korf_network(tmp_path_factory):
    """A 15-puzzle network fitted briefly to h* along Korf's optimal solutions, saved as an
    experiment saves it (run1/alpha/network.npz)."""
    from la.bench.neural import fitted_network
    networks = tmp_path_factory.mktemp("networks")
    save_network(fitted_network(np.random.default_rng(0)), OneHot(SlidingTile(4)),
                 networks / "run1" / "alpha" / "network.npz")
    return networks


def test_solve_with_a_network_equals_the_experiments_test_code(korf_network, tmp_path, capsys):
    config = replace(table1.QUICK, instances=(12, 79), test_node_limit=1_000_000)
    unit = units.test_unit({"config": config, "row": "0.9", "run": 1, "networks": str(korf_network),
                                    "name": "run1/test-0.9"}, tmp_path, verbose=False)
    assert all(record["solved"] for record in unit["records"])
    path = korf_network / "run1" / "alpha" / "network.npz"
    for record in unit["records"]:
        status, solved = solve_json(["--network", path, "--alpha", "0.9", "--korf", record["id"],
                                     "--node-limit", config.test_node_limit], capsys)
        assert (status == 0
                and (solved["cost"], solved["generated"]) == (record["cost"], record["generated"]))
        assert ((solved["heuristic"], solved["alpha"], solved["optimal"])
                == ("network", 0.9, record["optimal"]))


def test_solve_with_a_feature_domain_network(encodings, folder, tmp_path, capsys):
    encoding = encodings["8-pancake"]
    learner = learn_heuristic_prac(Pancake(8), TOY, np.random.default_rng(0), encoding)
    path = tmp_path / "network.npz"
    save_network(learner.ffnn, encoding, path)
    found = 0
    for start in random_walk(Pancake(8), 12, np.random.default_rng(3), n=3):
        expected = ida_star(Pancake(8), learner.test_heuristic(0.75), start, node_limit=1_000_000)
        text = " ".join(map(str, start))                  # no --domain: the network's own
        status, solved = solve_json(["--network", path, "--alpha", "0.75", "--pdb-dir", folder,
                                     text], capsys)
        assert solved["domain"] == "8-pancake" and status == (0 if expected.solved else 1)
        assert (solved["cost"], solved["generated"]) == (expected.cost, expected.generated)
        found += expected.solved
    assert found >= 2


def test_a_network_used_on_another_domain_is_one_line_exit_2(korf_network, capsys):
    path = korf_network / "run1" / "alpha" / "network.npz"
    refused(solve.main, ["--network", path, "--korf24", "1"], capsys,
            "trained on the 15-puzzle, not the 24-puzzle", argparse=False)



@pytest.mark.parametrize("key, row, value", [("W1", (3, 0), 1e38), ("W2", (5, 0), 1e38),
                                              ("b2", (0,), 2e12), ("b1", (7,), 3e38)])
def test_a_network_whose_heuristic_cannot_fit_an_int64_is_refused_naming_the_file(
        key, row, value, korf_network, tmp_path, capsys):
    """Finite float32 weights can still give y^α beyond any heuristic value (1e38 rounds to
    -9.2e18 in int64): refused on loading, and by la.solve in one line, exit status 2."""
    net, _ = load_network(korf_network / "run1" / "alpha" / "network.npz")
    net.params[key][row] = value
    if key == "b1":                                   # a hidden unit always on, times a huge weight
        net.params["W2"][7, 0] = 3e38
    path = tmp_path / f"huge-{key}.npz"
    save_network(net, OneHot(SlidingTile(4)), path)
    with pytest.raises(ValueError, match=f"{path}: the network's outputs on its domain's inputs"):
        load_network(path)
    line = refused(solve.main, ["--network", path, "--alpha", "0.9", "--korf", "1"], capsys,
                   str(path), argparse=False)
    assert "beyond" in line


def test_the_committed_kind_of_network_is_within_the_bound(korf_network):
    from la.runs.network import H_MAX, output_bound
    net, _ = load_network(korf_network / "run1" / "alpha" / "network.npz")
    assert 0 < output_bound(net) < 1e4 < H_MAX
