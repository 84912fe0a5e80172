"""The competing learners as rows of the suboptimality experiment (`--baselines`), tested like the
paper's rows.

    Boot       the bootstrap learner of Jabbari Arfaee, Zilles & Holte (2011) (`la.rivals.boot`):
               the N/A network and features, trained on the plans IDA* finds from a fixed set of
               random instances; plans with max(round(μ), h_ad)
    OP α       the α network trained on states labelled with their exact h* along optimal plans
               (`la.rivals.optimal_labels`; the like-for-like version of the paper's comparison with
               Ernandes & Gori 2004), as many as the α run's final memory buffer held; planned with
               y^α like ours
    OP4 α      the same with four times as many records: what data buys
    conf α     our α network with a split conformal quantile in place of Φ⁻¹(α)
               (`la.rivals.calibration`), calibrated on the states along optimal plans of random
               instances drawn like the test tasks

Per run they add units after the α and N/A networks are trained: `run<r>/boot`, `run<r>/optimal`,
`run<r>/optimal4` (each a network.npz) and `run<r>/conformal` (each α's q_α and its coverage on
held-out states of the same kind, on the test tasks' optimal plans, and on a sample of the states
IDA* evaluated with it (uniform over every evaluation of `searched_tasks` searches, see `Recorder`),
each labelled optimally: the conformal guarantee holds only for states drawn like the calibration
states; beside each coverage, the mean h the search would use there, conformal and plain, and the
mean h*: coverage bought with a much lower h costs nodes).
"""
import contextlib
import json
from dataclasses import dataclass, field, replace
from multiprocessing import parent_process
from pathlib import Path

import numpy as np

from la.domains.names import make_domain
from la.domains.uniform import uniform_states
from la.experiments.table3 import TEST_SETS
from la.experiments.trained import calibration_states, trained_network
from la.heuristics.likely_admissible import LikelyAdmissible
from la.io import write_json
from la.rivals.boot import BootConfig, boot_config, bootstrap
from la.rivals.boot_searches import SpreadSearches
from la.rivals.calibration import admissible_fraction, conformal_heuristic, plan_states
from la.runs.checkpoint import buffer_size
from la.runs.network import encoding_for, load_network, save_network
from la.runs.processes import Workers
from la.runs.runner import unit_progress, unit_rng
from la.runs.shapes import FRACTION, SECONDS, Is, Range, Records, Where, whole
from la.rivals.optimal_labels import (OptimalPlanConfig, optimal_heuristic, optimal_plan_config,
                                      optimal_solver, train_optimal_plan_network)
from la.search import ida_star

NAMES = ("boot", "optimal", "conformal")          # --baselines
NETWORKS = {"boot": "Boot", "optimal": "OP", "optimal4": "OP4"}   # unit folder -> row prefix
# unit_rng keys after the α (0) and N/A (1)
KEYS = {"boot": 2, "optimal": 3, "optimal4": 4, "conformal": 5}


@dataclass(frozen=True)
class BaselinesConfig:
    """Which baselines run and their settings; the defaults are the full protocol's
    (`baselines_config`)."""
    names: tuple = NAMES
    boot: BootConfig = field(default_factory=BootConfig)
    optimal: OptimalPlanConfig = field(default_factory=OptimalPlanConfig)
    optimal_records: int | None = None  # issue 14: None = as many as the α run's final memory
                                        # buffer held
    more_data: int = 4                  # issue 14: the variant with four times as many records
    conformal_alphas: tuple = (0.9, 0.75, 0.5)   # issue 14: the conformal rows
    calibration_starts: int = 100       # ours: random instances whose optimal plans' states
                                        # calibrate q_α
    held_out_starts: int = 100          # ours: as many again, to measure coverage on states of the
                                        # same kind
    searched_tasks: int = 5             # ours: test tasks whose IDA* searches are sampled ...
    searched_nodes: int = 1_000_000     # ... each up to this many generated nodes ...
    searched_sample: int = 100          # ... and a uniform sample of this many of their
                                        # evaluations, labelled

    def __post_init__(self):
        unknown = set(self.names) - set(NAMES)
        if not self.names or unknown:
            raise ValueError(f"baselines must be among {', '.join(NAMES)}, got "
                             f"{', '.join(self.names) or 'none'}")


def baselines_config(domain: str, scale: str, names=NAMES, optimal_records=None,
                     boot_instances=None) -> BaselinesConfig:
    """The baselines on `domain` at `scale` (quick: toy sizes for a smoke run; otherwise the full
    settings), with Boot on `boot_instances` instances if given (its authors' 5,000 do not fit on 2
    cores: README)."""
    boot = boot_config(domain) if domain != "15-puzzle" else BootConfig()
    optimal = optimal_plan_config(domain)
    cfg = BaselinesConfig(names=tuple(names), boot=boot, optimal=optimal,
                          optimal_records=optimal_records)
    if scale == "quick":
        learn = replace(boot.learn, train_iter=100)
        cfg = replace(cfg,
                      boot=replace(boot, learn=learn, instances=40, ins_min=5, node_limit=20_000,
                                   max_node_limit=80_000, walk_instances=20, max_rounds=4),
                      optimal=replace(optimal,
                                      learn=replace(optimal.learn, num_iter=3, train_iter=100),
                                      walk_lengths=(1, 30)),
                      optimal_records=optimal_records or 300, calibration_starts=6,
                      held_out_starts=4, searched_tasks=1, searched_nodes=20_000, searched_sample=5)
    if boot_instances is None:
        return cfg
    return replace(cfg, boot=fewer_instances(cfg.boot, boot_instances))


def fewer_instances(boot: BootConfig, n: int) -> BootConfig:
    """Boot on n instances with ins_min scaled to keep its share of them (75 of 5,000: 1.5 %), so
    that a pass trains, doubles and stops at the fractions of solved instances its authors' settings
    do (ours); a walk round keeps at least ins_min walks."""
    ins_min = max(1, round(boot.ins_min * n / boot.instances))
    walks = max(boot.walk_instances, ins_min) if boot.walk_instances else 0
    return replace(boot, instances=n, ins_min=ins_min, walk_instances=walks)


def reductions(bcfg: BaselinesConfig | None, scale: str) -> list:
    """What the baselines run smaller than their sources' settings, one phrase each (quick says so
    itself)."""
    if (bcfg is None or scale == "quick" or "boot" not in bcfg.names
            or bcfg.boot.instances == BootConfig.instances):
        return []
    return [f"Boot on {bcfg.boot.instances:,} training instances, ins_min {bcfg.boot.ins_min} (its "
            f"authors': {BootConfig.instances:,}, {BootConfig.ins_min})"]


def rows(bcfg: BaselinesConfig, alphas) -> list:
    """The table's extra rows, in order."""
    out = ["Boot"] if "boot" in bcfg.names else []
    if "optimal" in bcfg.names:
        out += [f"OP {a}" for a in alphas] + [f"OP4 {a}" for a in alphas]
    if "conformal" in bcfg.names:
        out += [f"conf {a}" for a in bcfg.conformal_alphas]
    return out


def load_pdbs(bcfg: BaselinesConfig | None, domain: str, pdb_dir=None) -> None:
    """Before any unit starts: load and check, or build with a progress line each (`BuildProgress`),
    the PDBs of the optimal solver that the optimal-plan and conformal units use (on the 15-puzzle,
    the six of 6-6-3 and its reflection), so that every worker process only reads them, instead of
    each building the same ones."""
    if bcfg is not None and {"optimal", "conformal"} & set(bcfg.names):
        optimal_heuristic(make_domain(domain), pdb_dir)      # loaded here only to be ready on disk


def train_specs(bcfg: BaselinesConfig, runs, base: dict, jobs: int = 1) -> list:
    """The training units of the baselines' networks, per run; Boot's searches may use `jobs`
    processes."""
    which = ((["boot"] if "boot" in bcfg.names else [])
             + (["optimal", "optimal4"] if "optimal" in bcfg.names else []))
    return [{**base, "name": f"run{r}/{w}", "run": r, "network": w,
             **({"jobs": jobs} if w == "boot" else {})}
            for r in runs for w in which]


def records_for(spec: dict) -> int:
    """The optimal-plan network's records: the setting, else as many as the α run's final buffer
    held."""
    bcfg = spec["baselines"]
    n = bcfg.optimal_records
    if n is None:
        n = final_buffer(Path(spec["networks"]) / f"run{spec['run']}" / "alpha")
    return n * (bcfg.more_data if spec["network"] == "optimal4" else 1)


def final_buffer(folder: Path) -> int | None:
    """The α run's final buffer size: its train_log.json's last entry, or its checkpoint's buffer;
    None if neither is there (a folder of saved networks only)."""
    if (folder / "train_log.json").is_file():
        return json.loads((folder / "train_log.json").read_text(encoding="utf-8"))[-1]["buffer"]
    if (folder / "checkpoint.npz").is_file():
        return buffer_size(folder / "checkpoint.npz")
    return None


def check_networks(bcfg: BaselinesConfig, networks: Path, runs) -> None:
    """Before any work: with --networks, the optimal-plan network's size must be known for every
    run."""
    if "optimal" not in bcfg.names or bcfg.optimal_records is not None:
        return
    for r in runs:
        if final_buffer(Path(networks) / f"run{r}" / "alpha") is None:
            raise ValueError(f"--networks {networks}: run {r} has neither alpha/train_log.json nor "
                             f"alpha/checkpoint.npz, so the α run's final buffer size is unknown: "
                             f"give --optimal-records N")


def train_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """Train one baseline network of one run: Boot, or the optimal-plan network (records kept for
    --resume)."""
    cfg, bcfg, which, folder = (spec["config"], spec["baselines"], spec["network"],
                                out / spec["name"])
    domain, progress = make_domain(cfg.domain), unit_progress(folder, spec["name"], verbose)
    encoding = encoding_for(cfg.domain, cfg.encoding, spec.get("pdb_dir"))
    rng = unit_rng(spec["seed"], spec["run"], KEYS[which])
    if which == "boot":
        # boot.npz, not checkpoint.npz: --resume checks every checkpoint.npz as LearnHeuristicPrac's
        # (la.runs.checkpoint)
        # Its searches go to `jobs` workers when this unit runs in the main process (a worker starts
        # no others).
        jobs = spec.get("jobs", 1) if parent_process() is None else 1
        with contextlib.ExitStack() as stack:
            searches = (SpreadSearches(stack.enter_context(Workers(jobs)), spec.get("pdb_dir"))
                        if jobs > 1 else None)
            boot = bootstrap(domain, bcfg.boot, rng, checkpoint=folder / "boot.npz",
                             progress=progress, encoding=encoding, searches=searches)
        save_network(boot.ffnn, encoding, folder / "network.npz")
        write_json(folder / "boot_log.json", boot.log)
        return {"run": spec["run"], "network": which, "rounds": len(boot.log),
                "stopped": boot.stopped, "examples": len(boot.examples),
                "seconds": sum(e["seconds"] for e in boot.log),
                "summary": f"{len(boot.log)} rounds, stopped: {boot.stopped}, "
                           f"{len(boot.examples):,} examples"}
    n = records_for(spec)
    learn = bcfg.optimal.learn
    config = replace(bcfg.optimal, records=n,
                     learn=replace(learn, ffnn_batch=max(learn.ffnn_batch, n)))
    trained = train_optimal_plan_network(domain, config, rng, encoding, spec.get("pdb_dir"),
                                         path=folder / "records.npz", progress=progress)
    save_network(trained.net, encoding, folder / "network.npz")
    return {"run": spec["run"], "network": which, "records": n, "steps": trained.steps,
            "starts_solved": trained.records.solved,
            "seconds": trained.seconds + trained.records.seconds,
            "summary": f"{n:,} records from {trained.records.solved:,} optimal plans, "
                       f"{trained.steps:,} steps"}


def unit_shape(bcfg: BaselinesConfig, cfg, unit: str):
    """What run r's baseline unit ("run2/boot", "run2/optimal4", "run2/conformal") of a run with
    configuration `cfg` holds (`train_unit`, `conformal_unit`), checked before a resume
    (`la.experiments.unit_shapes.unit_shape`): its own run and network, Boot's rounds and examples
    within its caps, the optimal-plan network's records (as set, else at most the α buffer's) and
    steps within its budget, a conformal row per α of the configuration with shares in 0..1."""
    run, last = Is(int(unit.split("/")[0].removeprefix("run"))), unit.rsplit("/", 1)[-1]
    if last == "boot" and "boot" in bcfg.names:
        return {"run": run, "network": Is(last), "rounds": whole(1, bcfg.boot.max_rounds),
                "stopped": Is("budget", "solved", "rounds"),
                "examples": whole(0, bcfg.boot.learn.buffer_size), "seconds": SECONDS}
    if last in ("optimal", "optimal4") and "optimal" in bcfg.names:
        times = bcfg.more_data if last == "optimal4" else 1
        records = (whole(1, cfg.learn.buffer_size * times) if bcfg.optimal_records is None
                   else Is(bcfg.optimal_records * times))
        return {"run": run, "network": Is(last), "records": records,
                "steps": whole(0, bcfg.optimal.max_steps), "starts_solved": whole(),
                "seconds": SECONDS}
    if last == "conformal" and "conformal" in bcfg.names:
        return {"run": run, "calibration_states": whole(1), "rows": Where(
            Records(_conformal_row(bcfg), key="alpha", among=set(bcfg.conformal_alphas),
                    most=len(bcfg.conformal_alphas), complete=True),
            lambda rows: [r["alpha"] for r in rows] == list(bcfg.conformal_alphas),
            "does not list the configuration's conformal α in order")}
    raise ValueError(f"{unit}: not a baseline unit of this run's configuration")


def _conformal_row(bcfg: BaselinesConfig) -> dict:
    """One α's row of the conformal unit: q_α, −Φ⁻¹(α), and per set its states' coverage."""
    def on(states):
        return {"states": states, "conformal": FRACTION, "plain": FRACTION,
                "mean_h_star": Range(0), "mean_h": {"conformal": Range(), "plain": Range()}}
    return {"alpha": Range(0, 1), "q": Range(), "z_alpha": Range(), "held_out": on(whole(1)),
            "test_plans": on(whole(1)), "searched": on(whole(0, bcfg.searched_sample))}


def row_heuristic(spec: dict, row: str, alpha_network):
    """The heuristic of a baseline row; `alpha_network()` gives the run's α network and its
    encoding."""
    prefix, _, alpha = row.partition(" ")
    folder = Path(spec["baseline_networks"]) / f"run{spec['run']}"
    if prefix == "conf":
        result = json.loads((folder / "conformal" / "unit.json").read_text(encoding="utf-8"))
        q = next(r["q"] for r in result["rows"] if str(r["alpha"]) == alpha)
        network, encoding = alpha_network()
        return LikelyAdmissible(network, encoding, float(alpha), quantile=q)
    which = {value: key for key, value in NETWORKS.items()}[prefix]
    network, about = load_network(folder / which / "network.npz",
                                  make_domain(spec["config"].domain))
    encoding = encoding_for(about["domain"], about["encoding"], spec.get("pdb_dir"))
    return LikelyAdmissible(network, encoding, None if prefix == "Boot" else float(alpha))


def optimal_plan_states(starts, solve) -> tuple:
    """The non-goal states along optimal plans of `starts` and their h*."""
    return plan_states([solve(s) for s in starts])


class Recorder:
    """A heuristic that passes states through to another and keeps a uniform sample of `size` of the
    non-goal states it is asked to score over the whole search: every evaluation draws a key U(0, 1)
    and the `size` smallest keys are kept, so each evaluation is equally likely to be in the sample,
    however deep it lies (a state scored in several IDA* iterations is as likely as its evaluations
    are many)."""

    def __init__(self, h, domain, size: int, rng: np.random.Generator):
        self.h, self.domain, self.size, self.rng = h, domain, size, rng
        self.sample, self.keys, self.evaluations = None, np.empty(0), 0

    def __call__(self, states):
        live = states[~self.domain.is_goal(states)]
        self.evaluations += len(live)
        keys = self.rng.random(len(live))
        pool = live if self.sample is None else np.concatenate([self.sample, live])
        keys = np.concatenate([self.keys, keys])
        keep = np.argsort(keys, kind="stable")[:self.size] if len(keys) > self.size else slice(None)
        self.sample, self.keys = pool[keep], keys[keep]
        return self.h(states)


def conformal_unit(spec: dict, out: Path, verbose: bool) -> dict:
    """q_α for each conformal α, and coverage y ≤ h* of the calibrated and of the plain y^α (module
    docstring)."""
    cfg, bcfg = spec["config"], spec["baselines"]
    domain, progress = (make_domain(cfg.domain),
                        unit_progress(out / spec["name"], spec["name"], verbose))
    network, encoding = trained_network(spec, "alpha")
    rng = unit_rng(spec["seed"], spec["run"], KEYS["conformal"])
    solve = optimal_solver(domain, None, spec.get("pdb_dir"))
    calibrate = optimal_plan_states(uniform_states(domain, bcfg.calibration_starts, rng), solve)
    held_out = optimal_plan_states(uniform_states(domain, bcfg.held_out_starts, rng), solve)
    progress(f"{len(calibrate[1]):,} calibration and {len(held_out[1]):,} held-out states labelled")
    sets = {"held_out": held_out, "test_plans": calibration_states(cfg.domain)}
    tasks = [t for t in TEST_SETS[cfg.domain]() if t.id in cfg.instances][:bcfg.searched_tasks]
    result = []
    for alpha in bcfg.conformal_alphas:
        h = conformal_heuristic(network, encoding, *calibrate, alpha)
        plain = LikelyAdmissible(network, encoding, alpha)
        recorder = Recorder(h, domain, bcfg.searched_sample, rng)
        for task in tasks:
            ida_star(domain, recorder, task.state, node_limit=bcfg.searched_nodes)
        searched = (recorder.sample, np.array([len(solve(s)) - 1 for s in recorder.sample]))
        row = {"alpha": alpha, "q": h.quantile, "z_alpha": 0.0 - plain.z_alpha}
        for name, (states, h_star) in {**sets, "searched": searched}.items():
            row[name] = {"states": len(h_star), "conformal": coverage(h, states, h_star),
                         "plain": coverage(plain, states, h_star),
                         "mean_h_star": float(np.mean(h_star)),
                         "mean_h": {"conformal": float(np.mean(h(states))),
                                    "plain": float(np.mean(plain(states)))}}
        result.append(row)
        progress(f"α {alpha}: q_α {h.quantile:+.3f} (plain −Φ⁻¹(α) {row['z_alpha']:+.3f}); y ≤ h* "
                 f"held out {100 * row['held_out']['conformal']:.1f} %, test plans "
                 f"{100 * row['test_plans']['conformal']:.1f} %, searched "
                 f"{100 * row['searched']['conformal']:.1f} %")
    return {"run": spec["run"], "rows": result, "calibration_states": len(calibrate[1]),
            "summary": ", ".join(f"α {r['alpha']}: held out "
                                 f"{100 * r['held_out']['conformal']:.0f} %" for r in result)}


def coverage(h, states, h_star) -> float:
    """The fraction of states whose real-valued y is at most h* (`LikelyAdmissible.values`)."""
    return admissible_fraction(h.values(h.hidden(states)), h_star)
