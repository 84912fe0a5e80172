"""The networks an experiment trained (or was given with --networks), and what they are tested on:
their inputs, made once per process (their PDBs loaded, or built, before any work:
`la.runs.network.encoding_for`), and the states with known h* along the test tasks' optimal
plans."""
import functools
from pathlib import Path

from la.domains.names import make_domain
from la.experiments import table3
from la.experiments.suboptimality_table import NETWORKS
from la.pdb.store import default_folder
from la.rivals.calibration import states_with_h_star
from la.runs.folder import read_result
from la.runs.network import encoding_for, load_network


def trained_network(spec: dict, which: str) -> tuple:
    """Run spec['run']'s saved network `which` ("alpha" or "mean") and the inputs it was trained
    on."""
    cfg = spec["config"]
    path = Path(spec["networks"]) / f"run{spec['run']}" / which / "network.npz"
    network, about = load_network(path, make_domain(cfg.domain))
    return network, encoding_for(about["domain"], about["encoding"], spec.get("pdb_dir"))


@functools.lru_cache(maxsize=None)
def calibration_states(domain: str) -> tuple:
    """The non-goal states along optimal plans of the domain's test tasks, all of them, and their
    h*."""
    return states_with_h_star(make_domain(domain), table3.TEST_SETS[domain]())


def check_networks(folder: Path, runs, domain: str = "15-puzzle") -> None:
    """Refuse a --networks folder unless every run's two networks are there, readable, trained on
    `domain` and of the right kind; `runs`: the number of runs, or the list of those to check (--run
    K)."""
    for r in range(1, runs + 1) if isinstance(runs, int) else runs:
        for which, outputs in zip(NETWORKS, (2, 1)):
            path = folder / f"run{r}" / which / "network.npz"
            if not path.is_file():
                raise ValueError(f"--networks {folder}: no network for run {r} "
                                 f"({which}/network.npz)")
            try:
                network, _ = load_network(path, make_domain(domain))
            except ValueError as error:
                raise ValueError(f"--networks: {error}") from None
            if getattr(network, "n_out", None) != outputs:
                raise ValueError(f"--networks: {path} is not a {outputs}-output FFNN, as the "
                                 f"{which!r} network must be")


def saved_training(folder: Path, runs) -> list:
    """What the runs' training units in a --networks folder recorded (run<r>/<network>/unit.json:
    tasks solved, iterations, seconds), for the record of a run that tests those networks; none for
    a folder of networks alone. `runs`: the number of runs, or the list of those tested. ValueError
    naming a damaged file."""
    found = []
    for r in range(1, runs + 1) if isinstance(runs, int) else runs:
        for which in NETWORKS:
            path = folder / f"run{r}" / which / "unit.json"
            if not path.is_file():
                continue
            try:
                unit = read_result(path)
            except ValueError as error:
                raise ValueError(f"--networks: {error}") from None
            if not (unit.get("run") == r and unit.get("network") == which
                    and {"solved_train", "iterations", "seconds"} <= unit.keys()):
                raise ValueError(f"--networks: {path} is not the training record of run {r}'s "
                                 f"{which} network")
            found.append(unit)
    return found


def load_pdbs(cfg, networks: Path | None, pdb_dir, runs=None) -> None:
    """Make, in this process, every encoding the run needs (the one trained, each saved network's,
    the baseline's), so that missing PDBs are built once, here, with a progress line, before any
    worker starts. `main` calls it before the results folder is prepared: a PDB folder that cannot
    be written while PDBs are missing is a one-line error (la.pdb.store) with nothing written in the
    results folder."""
    needed = ([(cfg.domain, cfg.encoding)] if networks is None or cfg.baseline in ("pdb", "max-pdb")
              else [])
    for r in (runs or range(1, cfg.runs + 1)) if networks is not None else ():
        for which in NETWORKS:
            about = load_network(networks / f"run{r}" / which / "network.npz")[1]
            needed.append((about["domain"], about["encoding"]))
    made = {id(e): e
            for e in (encoding_for(domain, description, pdb_dir) for domain, description in needed)}
    for encoding in made.values():
        if hasattr(encoding, "pdbs"):
            folder = pdb_dir or default_folder()
            print(f"{len(encoding.pdbs)} {encoding.domain.name} PDBs ready in {folder}", flush=True)
