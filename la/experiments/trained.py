"""The networks an experiment trained (or was given with --networks), and what they are tested on: their inputs,
made once per process, and the states with known h* along the test tasks' optimal plans."""
import functools
import json
from pathlib import Path

from la.calibration import states_with_h_star
from la.domains import make_domain
from la.experiments import table3
from la.features import describe, for_domain, from_description
from la.network import load_network


def encoding_for(domain: str, description: dict | None = None, pdb_dir=None):
    """The networks' inputs on `domain`: those `description` names (`la.features.describe`, as network files
    record it), or the paper's. Made once per process, so that a worker loads a domain's PDBs once for all its
    units; missing PDBs are built into `pdb_dir` (None: la.pdb.store's default folder) first."""
    folder = None if pdb_dir is None else str(pdb_dir)
    key = (domain, json.dumps(description, sort_keys=True), folder)
    if key not in _ENCODINGS:
        made = make_domain(domain)
        encoding = for_domain(made, folder) if description is None else from_description(made, description, folder)
        # The paper's encoding is the one its description (a saved network's) names: keep a single copy.
        _ENCODINGS[key] = _ENCODINGS.setdefault((domain, json.dumps(describe(encoding), sort_keys=True), folder),
                                                encoding)
    return _ENCODINGS[key]


_ENCODINGS = {}          # (domain, description as JSON, PDB folder) -> encoding, for this process


def trained_network(spec: dict, which: str) -> tuple:
    """Run spec['run']'s saved network `which` ("alpha" or "mean") and the inputs it was trained on."""
    cfg = spec["config"]
    path = Path(spec["networks"]) / f"run{spec['run']}" / which / "network.npz"
    network, about = load_network(path, make_domain(cfg.domain))
    return network, encoding_for(about["domain"], about["encoding"], spec.get("pdb_dir"))


@functools.lru_cache(maxsize=None)
def calibration_states(domain: str) -> tuple:
    """The non-goal states along optimal plans of the domain's test tasks, all of them, and their h*."""
    return states_with_h_star(make_domain(domain), table3.TEST_SETS[domain]())
