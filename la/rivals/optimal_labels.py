"""A network trained on optimally solved states: the like-for-like baseline behind the paper's
comparison with Ernandes & Gori (2004), whose 15-puzzle heuristic, learnt from optimally solved
states, was optimal on 63.86 % of the tasks (the figure the paper's α = 0.9 heuristic is said to
reach).

    solve = optimal_solver(domain)  # start -> its optimal plan (states start..goal), or None
    solve = table_solver(domain, h_star)  # the same, read off an exact table (`la.pdb.exact`)
    records = labelled_states(domain, n, rng)  # n distinct (state, h*) records from optimal plans
    result = train_optimal_plan_network(domain, optimal_plan_config(domain.name), rng)

Optimal plans, as in `la.rivals.calibration.optimal_plans`: IDA* with an admissible heuristic, whose
plans are optimal (the additive PDBs of `la.pdb.sets` on the 15-puzzle, Korf & Felner's 6-6-3 and
its reflection, and on the 24-puzzle; Manhattan distance on other sliding tiles; the gap heuristic
on pancakes), and blocksworld's exact single-tower rule (`la.domains.blocksworld_cost`), which needs
no search.

The records are gathered as LearnHeuristicPrac fills its memory buffer (`la.buffer`), so that this
network and the α network differ only in where their labels come from. Start states are random walks
back from the goal, of lengths drawn uniformly from `walk_lengths`; each is solved optimally and
every state of its plan is kept with its cost-to-go, the goal with 0. A suffix of an optimal plan is
optimal, so every label is the exact h*. Plan states rather than only the walks' ends: the α
network's buffer holds plan-suffix records, and one solve labels h* + 1 states instead of one.
Records are distinct (state, label) pairs, the goal's first; starts are drawn in batches, and the
records are saved after each batch to `path` if given, from which a later call resumes (with the
random generator's state) and ends with the records an uninterrupted call would have.
"""
import json
import math
import os
import time
import zipfile
import zlib
from dataclasses import dataclass, field

import numpy as np

from la.buffer import MemoryBuffer
from la.config import DOMAINS, LearnConfig
from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import optimal_plan
from la.domains.sliding_tile import SlidingTile
from la.domains.walk import random_walk
from la.features.encodings import for_domain
from la.heuristics.classical import classical_admissible
from la.heuristics.pdb import pdb_heuristic
from la.io import write_npz
from la.nn.config import build_ffnn
from la.nn.ffnn import fit_full_batch
from la.pdb.sets import PARTITIONS
from la.runs.progress import BuildProgress
from la.search import ida_star

# Walks whose ends reach the test sets' costs, measured on 300 walks (seed 0) per length: a 400-step
# 15-puzzle walk's end has mean Manhattan distance 36.8 (Korf's 100: 37.1, costs 41–66); a 150-step
# 24-pancake walk's end mean gap 22.05 (uniform stacks: 22.1; la's test set costs 21–25); a 400-step
# 15-blocksworld walk's end mean h* 21.9, at most 27 (la's uniform test set: 22.8, 19–27; 1,000
# steps give no more: a walk weights states by their moves). The lengths start at 1, as the α
# network's tasks do (its first are 1-step walks, `la.learn`). Every other domain takes the
# 15-puzzle's.
WALK_LENGTHS = {"15-puzzle": (1, 400), "24-pancake": (1, 150), "15-blocksworld": (1, 400)}
# the buffer's cap: keep every record; the first n are taken at the end
UNBOUNDED = math.inf
KEYS = ("domain", "walk_lengths", "node_limit", "starts_per_batch", "rng_start", "solved",
        "unsolved", "seconds")
IDENTITY = KEYS[:5]             # what a saved file must match to be resumed


@dataclass(frozen=True)
class OptimalPlanConfig:
    """The optimal-plan network's data and training; defaults: the 15-puzzle's
    (`optimal_plan_config`)."""
    # paper §5: MemoryBufferMaxRecords, the α network's buffer when full
    records: int = 25_000
    # measured (WALK_LENGTHS): the ends reach Korf's 100
    walk_lengths: tuple = WALK_LENGTHS["15-puzzle"]
    node_limit: int | None = None           # ours: no limit, so no start is left out for being hard
    # ours: starts walked and solved between saves of the records
    starts_per_batch: int = 20
    # ours: batches in a row adding no record before giving up (1,000 starts)
    patience: int = 50
    # the α network's FFNN, rows, y/10, tolerance, steps
    learn: LearnConfig = field(default_factory=LearnConfig)

    def __post_init__(self):
        low, high = self.walk_lengths
        if not 0 <= low <= high:
            raise ValueError("walk_lengths must be (low, high) with 0 <= low <= high, "
                             f"got {self.walk_lengths}")
        if min(self.records, self.starts_per_batch, self.patience) < 1:
            raise ValueError(f"records, starts_per_batch and patience must be at least 1, "
                             f"got {self.records}, {self.starts_per_batch} and {self.patience}")
        if self.node_limit is not None and self.node_limit < 1:
            raise ValueError(f"node_limit must be None or at least 1, got {self.node_limit}")
        if self.records > self.learn.ffnn_batch:
            raise ValueError(f"records ({self.records}) must not exceed "
                             f"learn.ffnn_batch ({self.learn.ffnn_batch}): "
                             f"the FFNN's batch cycles through every record")

    @property
    def max_steps(self) -> int:
        """(NumIter − 1) × TrainIter: the most full-batch steps the α network's Updates could take
        (`la.learn` skips the last iteration's Update, whose network the authors' code never
        saves)."""
        return (self.learn.num_iter - 1) * self.learn.train_iter


def optimal_plan_config(name: str) -> OptimalPlanConfig:
    """The configuration for the domain `name`: its walk lengths and its α network's LearnConfig
    (`DOMAINS`)."""
    learn = DOMAINS[name].learn() if name in DOMAINS else LearnConfig()
    return OptimalPlanConfig(walk_lengths=WALK_LENGTHS.get(name, OptimalPlanConfig.walk_lengths),
                             learn=learn)


# --- optimal plans
# ---------------------------------------------------------------------------------------------

def optimal_heuristic(domain, pdb_folder=None):
    """The admissible heuristic IDA* solves `domain` with (module docstring); None for
    blocksworld."""
    if isinstance(domain, Blocksworld):
        return None
    if isinstance(domain, SlidingTile) and domain.name in PARTITIONS:  # the tile puzzles with PDBs
        return pdb_heuristic(domain, pdb_folder, BuildProgress())
    h = classical_admissible(domain)
    if h is not None:
        return h
    raise ValueError(f"no optimal solver for the {domain.name}: expected a sliding-tile puzzle, "
                     f"a pancake puzzle or blocksworld")


def optimal_solver(domain, node_limit=None, pdb_folder=None):
    """start -> an optimal plan, the states (h* + 1, N) from start to goal; None where IDA*
    generated more than `node_limit` nodes (blocksworld's rule needs no search and always
    answers)."""
    h = optimal_heuristic(domain, pdb_folder)
    if h is None:
        return optimal_plan

    def solve(start):
        result = ida_star(domain, h, start, node_limit=node_limit)
        return result.plan if result.solved else None
    return solve


def table_solver(domain, h_star):
    """start -> an optimal plan (h* + 1, N) read off an exact table (`la.pdb.exact`;
    `h_star(states)` is each state's h*): from the start, each step to the first child, in move
    order, one step nearer the goal. No search: the oracle-label arm on domains with a table."""
    def solve(start):
        plan = [np.asarray(start, dtype=np.uint8)]
        for v in range(int(h_star(plan[0][None])[0]) - 1, -1, -1):
            _, _, children = domain.expand(plan[-1][None])
            plan.append(children[np.flatnonzero(h_star(children) == v)[0]])
        return np.stack(plan)
    return solve


# --- labelled records
# --------------------------------------------------------------------------------------------

@dataclass
class Records:
    """(state, h*) records from optimal plans, and how they were gathered."""
    states: np.ndarray              # (n, N) uint8, the goal first
    h_star: np.ndarray              # (n,) int64: each state's exact cost-to-goal
    solved: int                     # starts solved, every state of their plans offered as a record
    unsolved: int                   # starts left out: IDA* reached the node limit first
    seconds: float                  # spent gathering them, over every call that wrote the file


def labelled_states(domain, n: int, rng: np.random.Generator,
                    config: OptimalPlanConfig | None = None, pdb_folder=None, path=None,
                    progress=None) -> Records:
    """n distinct (state, h*) records from optimal plans of random-walk starts (module docstring).

    `config` gives the walk lengths, node limit and batch size (default:
    `optimal_plan_config(domain.name)`). A start IDA* cannot solve within the node limit is left out
    and counted in `unsolved`; a limit thus skews the starts towards easy ones, and none is the
    default. With `path`, the records are saved there after each batch and a file already there is
    resumed. ValueError if `config.patience` batches in a row add no record (too few states
    reachable, or a node limit that stops every search), or if `path` holds another labelling's
    records. `progress(line)` is told after each batch.
    """
    config = optimal_plan_config(domain.name) if config is None else config
    began, identity = time.perf_counter(), _identity(domain, config, rng)
    buffer, solved, unsolved, before = MemoryBuffer(UNBOUNDED, domain.size), 0, 0, 0.0
    # the goal, label 0, as the buffer has it
    buffer.add_plans([domain.goal[None]])
    if path is not None and os.path.exists(path):
        saved, about = load_records(path)
        if {key: about[key] for key in IDENTITY} != identity:
            raise ValueError(f"{path}: holds the records of another labelling (domain, "
                             f"walk lengths, node limit, batch size or random generator differ)")
        buffer = MemoryBuffer.from_arrays(UNBOUNDED, saved.states, saved.h_star)
        solved, unsolved, before = saved.solved, saved.unsolved, saved.seconds
        rng.bit_generator.state = about["rng"]
    solve = optimal_solver(domain, config.node_limit, pdb_folder)
    low, high = config.walk_lengths
    # batches in a row that added no record
    idle = 0
    while len(buffer) < n:
        lengths = rng.integers(low, high, endpoint=True, size=config.starts_per_batch)
        plans = [solve(start)
                 for start in random_walk(domain, lengths, rng, n=config.starts_per_batch)]
        unsolved += sum(plan is None for plan in plans)
        solved += sum(plan is not None for plan in plans)
        idle = 0 if buffer.add_plans([plan for plan in plans if plan is not None]) else idle + 1
        if idle == config.patience:
            raise ValueError(f"{idle} batches of {config.starts_per_batch} starts added no record "
                             f"to the {len(buffer):,} found (of {n:,} wanted): the {domain.name}'s "
                             f"walks of {low}–{high} steps reach too few states, or node limit "
                             f"{config.node_limit} stops every search")
        seconds = before + time.perf_counter() - began
        if path is not None:
            save_records(path, Records(buffer.states(), buffer.labels(), solved, unsolved, seconds),
                         {**identity, "rng": rng.bit_generator.state})
        if progress is not None:
            progress(f"{len(buffer):,}/{n:,} records, {solved:,} starts solved, "
                     f"{unsolved:,} over the node limit, {seconds:.0f} s")
    states, h_star = buffer.states(), buffer.labels()
    return Records(states[:n], h_star[:n], solved, unsolved, before + time.perf_counter() - began)


def _identity(domain, config: OptimalPlanConfig, rng) -> dict:
    """What decides the records: a saved file is resumed only if it was begun with the same."""
    return json.loads(json.dumps({"domain": domain.name, "walk_lengths": config.walk_lengths,
                                  "node_limit": config.node_limit,
                                  "starts_per_batch": config.starts_per_batch,
                                  "rng_start": rng.bit_generator.state}))


def save_records(path, records: Records, about: dict) -> None:
    """Write the records and `about` (JSON: the labelling's identity and the generator's state)
    atomically."""
    meta = {**about, "solved": records.solved, "unsolved": records.unsolved,
            "seconds": records.seconds}
    write_npz(path, {"states": records.states, "h_star": records.h_star,
                     "meta": np.array(json.dumps(meta))})


def load_records(path) -> tuple:
    """The Records saved at `path` and the rest of its metadata; ValueError naming the file if it is
    damaged."""
    try:
        with np.load(path, allow_pickle=False) as data:
            states, h_star, meta = data["states"], data["h_star"], json.loads(str(data["meta"]))
    except (OSError, EOFError, KeyError, ValueError, TypeError, zipfile.BadZipFile,
            zlib.error) as error:
        raise ValueError(f"{path}: not a readable file of labelled records "
                         f"({' '.join(str(error).split())})") from None
    if not (isinstance(meta, dict) and all(key in meta for key in KEYS + ("rng",))):
        raise ValueError(f"{path}: its metadata lacks some of {', '.join(KEYS)}, rng")
    if (states.ndim != 2 or states.dtype != np.uint8 or h_star.shape != states.shape[:1]
            or not np.issubdtype(h_star.dtype, np.integer) or (h_star < 0).any()):
        raise ValueError(f"{path}: states {states.shape} {states.dtype} and labels {h_star.shape} "
                         f"{h_star.dtype} are not (n, N) uint8 and (n,) non-negative integers")
    return Records(states, h_star.astype(np.int64), meta["solved"], meta["unsolved"],
                   meta["seconds"]), meta


# --- the network
#---------------------------------------------------------------------------------------------------

@dataclass
class OptimalPlanNetwork:
    """The trained network with what a caller needs to save, evaluate or report it."""
    net: object                     # la.nn.FFNN, two outputs (μ, φ) like the α network's
    adam: object                    # its optimiser, after training
    # the inputs it reads (`la.features`); saved by `la.runs.network`
    encoding: object
    records: Records                # what it was trained on
    steps: int                      # full-batch Adam steps taken
    seconds: float                  # spent training (the records' own seconds are in `records`)


def train_optimal_plan_network(domain, config: OptimalPlanConfig, rng: np.random.Generator,
                               encoding=None, pdb_folder=None, path=None,
                               progress=None) -> OptimalPlanNetwork:
    """The α network's FFNN trained on `config.records` optimal-plan records as LearnHeuristicPrac
    trains it.

    Built by `build_ffnn(config.learn.ffnn, ...)` and trained by `fit_full_batch` with
    LearnHeuristicPrac's rows (ffnn_batch), targets y/10 and tolerance, for up to (NumIter − 1) ×
    TrainIter steps: the most the α network's Updates could take. It sees one fixed data set from
    the start instead of a buffer that grows, and is not warm-started across Updates. `encoding`
    defaults to the paper's for `domain` (PDBs from `pdb_folder`); `path` and `progress` go to
    `labelled_states`.
    """
    if encoding is None:
        encoding = for_domain(domain, pdb_folder, BuildProgress())
    elif encoding.domain.name != domain.name:
        raise ValueError(f"{encoding!r} encodes {encoding.domain.name} states, "
                         f"not {domain.name} ones")
    # the network's own stream (initial weights, dropout masks)
    (net_rng,) = rng.spawn(1)
    records = labelled_states(domain, config.records, rng, config, pdb_folder, path, progress)
    learn = config.learn
    net, adam = build_ffnn(learn.ffnn, encoding.size, net_rng, learn.target_scale)
    began = time.perf_counter()
    steps = fit_full_batch(net, adam, encoding(records.states), records.h_star, learn.ffnn_batch,
                           config.max_steps, learn.train_tolerance)
    return OptimalPlanNetwork(net, adam, encoding, records, steps, time.perf_counter() - began)
