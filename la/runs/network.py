"""A trained network on disk with what it was trained on: its domain and its encoding.

    save_network(net, encoding, path)     an FFNN or a WUNN (`la.runs.persist`), with about =
                                          {"domain": the domain's name, "encoding":
                                          `la.features.encodings.describe(encoding)`}
    net, about = load_network(path)       the network and that record, checked; no PDB is loaded yet
    encoding = network_encoding(about)    the encoding remade (PDBs loaded, or built on first use)
    encoding_for(domain, description)     the same, made once per process (shared by its units)

A network reads states only through its encoding, so it is usable only on the domain and encoding it
was trained on: `load_network(path, domain)` refuses any other domain in one line. Files saved
before networks recorded this (the committed networks under figures/ and in results folders) hold
none; they are read as 15-puzzle networks on the one-hot, the only kind `la` trained then
(`la.runs.compat`).
"""
import json
import zipfile
import zlib

import numpy as np

from la.domains.names import make_domain
from la.features.encodings import check_description, describe, for_domain, from_description
from la.nn.ffnn import FFNN
from la.nn.layers import softplus
from la.runs.compat import network_about
from la.runs.persist import load, read_about, save
from la.runs.progress import BuildProgress

# The largest heuristic value a search can hold: weighted IDA*'s f = g + W·h is an int64 for every
# W up to la.runs.cli.WEIGHT_MAX (10^6), so h stays below 2^62 / 10^6, about 4.6e12.
H_MAX = 2**62 // 10**6
Z_MAX = 40.0   # |Φ⁻¹(α)| for any float α strictly between 0 and 1 (the extremes give about 38.5)


def save_network(net, encoding, path) -> None:
    """Write `net` (an FFNN or a WUNN on `encoding`'s inputs) to `path` atomically, with its domain
    and encoding."""
    if net.n_in != encoding.size:
        raise ValueError(f"the network has {net.n_in} inputs, "
                         f"but {encoding!r} gives {encoding.size}")
    save(net, path, about={"domain": encoding.domain.name, "encoding": describe(encoding)})


def load_network(path, domain=None) -> tuple:
    """The network saved at `path` and what it was trained on, {"domain": name, "encoding":
    description}.

    ValueError naming the file if it cannot be read or is not a network, or, with `domain`, if the
    network was trained on another domain."""
    try:
        about, net = read_about(path), load(path)
    except (OSError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as error:
        raise ValueError(f"{path}: not a readable network ({error})") from None
    if not hasattr(net, "n_in") or not hasattr(net, "params"):
        raise ValueError(f"{path}: holds an optimiser state, not a network")
    about = network_about(about)
    if not (isinstance(about, dict) and isinstance(about.get("domain"), str)
            and isinstance(about.get("encoding"), dict)):
        raise ValueError(f"{path}: its record of what it was trained on is damaged: {about!r}")
    try:
        check_description(make_domain(about["domain"]), about["encoding"], patterns=False)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    if domain is not None:
        check_domain(about, domain, path)
    if isinstance(net, FFNN):             # a planning network (not a WUNN, not a classifier)
        check_outputs(net, path)
    return net, about


def output_bound(net) -> float:
    """The largest |y^α| in cost units the FFNN `net` can give, for any α, over every input in
    [0, 1]^n_in, where every encoding's inputs lie (`la.features.base`): interval arithmetic through
    both layers (inf if a bound overflows)."""
    p = {name: value.astype(np.float64) for name, value in net.params.items()}
    with np.errstate(over="ignore", invalid="ignore"):
        low = p["b1"] + np.minimum(p["W1"], 0).sum(axis=0)              # (H,) z1's range over the
        high = p["b1"] + np.maximum(p["W1"], 0).sum(axis=0)             # box of inputs
        a_low, a_high = np.maximum(low, 0), np.maximum(high, 0)        # ReLU keeps the order
        W2 = p["W2"][:, 0]
        mu = np.abs(p["b2"][0]) + np.maximum(np.abs(W2 * a_low), np.abs(W2 * a_high)).sum()
        sigma = 0.0 if net.n_out == 1 else float(softplus(net.phi_max))      # σ_a's clip
        bound = net.scale * (mu + sigma * Z_MAX)
    return float(bound) if np.isfinite(bound) else float("inf")


def check_outputs(net, path) -> None:
    """ValueError naming the file if the network's y^α on the domain's inputs can be non-finite or,
    rounded into a heuristic value, beyond H_MAX: a finite weight of 1e38 is no NaN, but its h
    would wrap to -9.2e18 in int64."""
    bound = output_bound(net)
    if not bound <= H_MAX:
        reach = "are not finite" if bound == float("inf") else f"reach {bound:.3g}"
        raise ValueError(f"{path}: the network's outputs on its domain's inputs {reach}, beyond "
                         f"{H_MAX:,}, the largest heuristic value a search holds (a damaged or "
                         f"diverged network)")


def check_domain(about: dict, domain, path) -> None:
    """ValueError naming the file unless the network at `path`, trained as `about` says, is for
    `domain`."""
    if about["domain"] != domain.name:
        raise ValueError(f"{path}: a network trained on the {about['domain']}, "
                         f"not the {domain.name}")


def network_encoding(about: dict, pdb_folder=None, progress=None, path=None):
    """The encoding `about` names, on its domain; PDBs from `pdb_folder` (built there when
    missing). A ValueError (a pattern not of the domain) names the network's file `path`."""
    try:
        return from_description(make_domain(about["domain"]), about["encoding"], pdb_folder,
                                progress)
    except ValueError as error:
        if path is None:
            raise
        raise ValueError(f"{path}: its encoding: {error}") from None


def encoding_for(domain: str, description: dict | None = None, pdb_dir=None):
    """The networks' inputs on `domain`: those `description` names
    (`la.features.encodings.describe`, as network files record it), or the paper's. Made once per
    process, so that a worker loads a domain's PDBs once for all its units; missing PDBs are built
    into `pdb_dir` (None: la.pdb.store's default folder) first."""
    folder = None if pdb_dir is None else str(pdb_dir)
    key = (domain, json.dumps(description, sort_keys=True), folder)
    if key not in _ENCODINGS:
        made = make_domain(domain)
        built = BuildProgress()                        # a line on stderr for each PDB built
        encoding = for_domain(made, folder, built) if description is None else \
            from_description(made, description, folder, built)
        # The paper's encoding is the one its description (a saved network's) names: keep a single
        # copy.
        _ENCODINGS[key] = _ENCODINGS.setdefault(
            (domain, json.dumps(describe(encoding), sort_keys=True), folder), encoding)
    return _ENCODINGS[key]


_ENCODINGS = {}          # (domain, description as JSON, PDB folder) -> encoding, for this process
