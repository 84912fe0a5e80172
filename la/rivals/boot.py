"""Boot: the bootstrap learner of Jabbari Arfaee, Zilles & Holte ("Bootstrap Learning of Heuristic
Functions", SoCS 2010; "Learning heuristic functions for large state spaces", AIJ 175, 2011, the
Bootstrap and RandomWalk algorithms of its §3), the baseline of the paper's Table 3, on `la`'s
network, features and IDA*.

    Bootstrap(h0, Ins):
        h := h0; TS := {}; budget := the initial limit
        repeat until fewer than ins_min instances of Ins are left unsolved:
            solve every instance of Ins by IDA* with h within the budget; the solved ones leave Ins
            add every state of each solved plan, with its cost-to-go along the plan, to TS
            if at least ins_min were solved: h := the network trained on TS
            else: budget := 2·budget
    RandomWalk, when h0 is too weak: once a pass with h0 solves no instance at all, rounds of
    instances made by random walks back from the goal (walk_length steps) alternate with passes over
    Ins; a walk round that solves at least ins_min trains h and lengthens the walks by
    walk_increment, a pass over Ins that solves at least ins_min trains h and ends the walks. Those
    passes do not double the budget.

The papers' abstracts (SoCS 2010, AIJ 2011) state the outline: h0 and a fixed set of unlabelled
instances, the instances h_{i-1} solves give the examples for h_i, random walks back from the goal
make successively harder instances when h0 "cannot solve any" of them, repeat until h is strong
enough, IDA* throughout. The rest is in AIJ 2011 §3 (its Bootstrap and RandomWalk pseudocode and
experimental settings), which we could not consult: 5,000 instances, the initial 1 s, ins_min = 75,
doubling when fewer are solved, removing the solved instances and stopping when fewer than ins_min
remain are recollections of it (check them there before relying on them); the walks' lengths and
counts, whether TS accumulates and whether h_i is maxed with h0 are our choices. Each is a
`BootConfig` field whose comment says which.

`la`'s adaptation, so that the comparison isolates the training procedure: the networks' inputs are
the domain's encoding (`la.features`), the network is the single-output "N/A" FFNN of
LearnHeuristicPrac, trained as `Learner.train_ffnn` trains it (warm-started full-batch Adam on TS
held as `la.buffer.MemoryBuffer`), and h_i plans with max(round(μ), h_ad) (`LikelyAdmissible`, α =
None). h0 is h_ad, the encoding's admissible floor; the one-hot has none, so on sliding-tile puzzles
h0 is Manhattan distance. Limits are generated nodes, not seconds (`la.config`): Boot's 1 s becomes
the nodes `DOMAINS[d].nodes_per_second` gives for one second.
"""
import os
import time
from dataclasses import dataclass, field

import numpy as np

from la.buffer import MemoryBuffer
from la.config import DOMAINS, LearnConfig, node_budget
from la.domains.uniform import uniform_states
from la.domains.walk import random_walk
from la.features.encodings import describe, for_domain
from la.heuristics.classical import classical_admissible
from la.heuristics.likely_admissible import LikelyAdmissible
from la.heuristics.pdb import PDBHeuristic
from la.nn.config import build_ffnn
from la.nn.ffnn import fit_full_batch
from la.rivals.boot_round import RoundProgress
from la.runs.checkpoint import as_json, check_identity, read_state, save_state, unpack_parts
from la.runs.progress import BuildProgress
from la.search import ida_star

# Boot's initial time limit per instance (recollection of AIJ 2011, not verified)
INITIAL_SECONDS = 1.0
SAVE_SECONDS = 60.0         # how often a round's finished searches are saved (`RoundProgress`)
# what `Boot.save` writes, so that another file is refused (named when Boot was `la.boot`)
FORMAT = "la.boot/1"
STATE = ("round", "trained", "walking", "stopped", "next_kind", "walk_length", "node_limit", "log")


@dataclass(frozen=True)
class BootConfig:
    """Boot's constants; defaults: the 15-puzzle (`boot_config` gives the other domains')."""
    # the N/A net, trained
    learn: LearnConfig = field(default_factory=lambda: DOMAINS["15-puzzle"].learn(n_out=1))
    # |Ins|, the fixed training set (recollection of AIJ 2011, not verified)
    instances: int = 5000
    # fewest new solved to train, else double (recollection, not verified)
    ins_min: int = 75
    # the initial 1 s as nodes at la.config's rate (1.1 M)
    node_limit: int = node_budget(INITIAL_SECONDS)
    # ours: never above LearnHeuristicPrac's t_max (paper §5); stop there
    max_node_limit: int = node_budget(60)
    max_rounds: int = 1000              # ours: a cap on rounds, so that every run ends
    # ours: TS keeps earlier rounds' examples (the buffer's cap still applies)
    accumulate: bool = True
    # ours: h_i alone, as the N/A net plans (its floor h_ad is h0 on features)
    max_with_h0: bool = False
    walk_instances: int = 500           # ours: instances per walk round (0: no RandomWalk phase)
    walk_length: int = 10               # ours: the first walk round's walk length
    # ours: added to the walk length after each walk round that trains
    walk_increment: int = 10

    def __post_init__(self):
        if self.learn.ffnn.n_out != 1:
            raise ValueError("Boot trains the single-output network, "
                             f"got n_out={self.learn.ffnn.n_out}")
        if not 1 <= self.ins_min <= self.instances:
            raise ValueError(f"ins_min must lie in 1..instances ({self.instances}), "
                             f"got {self.ins_min}")
        if self.walk_instances and self.walk_instances < self.ins_min:
            raise ValueError(f"walk_instances must be 0 or at least ins_min ({self.ins_min}), "
                             f"got {self.walk_instances}")
        if not 1 <= self.node_limit <= self.max_node_limit:
            raise ValueError(f"node_limit must lie in 1..max_node_limit ({self.max_node_limit}), "
                             f"got {self.node_limit}")
        if min(self.walk_length, self.walk_increment, self.max_rounds) < 1:
            raise ValueError("walk_length, walk_increment and max_rounds must be at least 1")


def boot_config(name: str, **changes) -> BootConfig:
    """Boot on a domain of `la.config.DOMAINS`: its N/A network, 1 s and its t_max as nodes at its
    rate."""
    if name not in DOMAINS:
        raise ValueError(f"no Boot configuration for the {name}: "
                         f"expected one of {', '.join(DOMAINS)}")
    d = DOMAINS[name]
    return BootConfig(**{"learn": d.learn(n_out=1),
                         "node_limit": round(INITIAL_SECONDS * d.nodes_per_second),
                         "max_node_limit": d.node_limit, **changes})


def draw_instances(domain, n: int, rng: np.random.Generator) -> np.ndarray:
    """Ins: n states drawn uniformly from the solvable ones (`la.domains.uniform`), as random
    instances are drawn for testing (Korf's 100; the 24-pancake's and 15-blocksworld's test sets);
    (n, size) uint8."""
    return uniform_states(domain, n, rng)


def initial_heuristic(encoding):
    """h0: the encoding's admissible floor h_ad; for an encoding without one (the one-hot), the
    domain's classical admissible heuristic (Manhattan distance on sliding-tile puzzles)."""
    if encoding.admissible(encoding.domain.goal[None]) is not None:
        return PDBHeuristic(encoding, encoding.floor_columns)
    h0 = classical_admissible(encoding.domain)
    if h0 is None:
        raise ValueError(f"{encoding!r} has no admissible floor and the {encoding.domain.name} "
                         f"no classical admissible heuristic to start Boot from")
    return h0


def boot_heuristic(config: BootConfig, encoding, h0, ffnn=None):
    """h0 while nothing is trained (`ffnn` None), then h_i = max(round(μ), h_ad)
    (`LikelyAdmissible`, α = None), maxed with h0 if `config.max_with_h0`."""
    if ffnn is None:
        return h0
    h = LikelyAdmissible(ffnn, encoding)
    return MaxWithH0(h, h0) if config.max_with_h0 else h


class MaxWithH0:
    """h = max(h_i, h0) (`BootConfig.max_with_h0`); scored on built children, without an incremental
    update."""

    def __init__(self, learned, h0):
        self.learned, self.h0 = learned, h0

    def __call__(self, states) -> np.ndarray:
        return np.maximum(self.learned(states), self.h0(states))


class Boot:
    """One Boot run: the network and its Adam, TS, the unsolved part of Ins, the budget, the phase,
    the log."""

    def __init__(self, domain, config: BootConfig,
                 rng: np.random.Generator, encoding=None, instances=None):
        """`encoding`: the network's inputs (default: the paper's for `domain`); `instances`: Ins
        (default: drawn)."""
        encoding = for_domain(domain, progress=BuildProgress()) if encoding is None else encoding
        if encoding.domain.name != domain.name:
            raise ValueError(f"{encoding!r} encodes {encoding.domain.name} states, "
                             f"not {domain.name} ones")
        self.domain, self.config, self.rng, self.encoding = domain, config, rng, encoding
        self.h0 = initial_heuristic(encoding)
        self.ffnn, self.adam = build_ffnn(config.learn.ffnn, encoding.size, rng.spawn(1)[0],
                                          config.learn.target_scale)
        self.examples = MemoryBuffer(config.learn.buffer_size, domain.size)      # TS
        # Ins, still unsolved
        self.instances = (draw_instances(domain, config.instances, rng)
                          if instances is None else instances)
        self.node_limit = config.node_limit
        self.round, self.trained, self.walking, self.stopped = 0, False, False, None
        self.next_kind, self.walk_length = "bootstrap", config.walk_length
        self.log = []

    def heuristic(self):
        """h0 until something is trained, then h_i (`boot_heuristic`)."""
        return boot_heuristic(self.config, self.encoding, self.h0,
                              self.ffnn if self.trained else None)

    def run_round(self, progress_path=None, progress=None, searches=None) -> dict:
        """One pass over Ins (or one walk round), then train or double the budget, then the stopping
        rule.
        `progress_path`: where the round's finished searches are kept (`RoundProgress`), so that an
        interrupted round goes on from its last saved search instead of from its first; `progress`
        gets a line every SAVE_SECONDS of the round (a round at a large budget takes hours);
        `searches(boot, starts, budget)`: IDA* from each start with this round's h, yielded in start
        order (default: here, one after the other; `la.rivals.boot_searches` spreads them over
        worker processes)."""
        cfg, kind, began = self.config, self.next_kind, time.perf_counter()
        budget = self.node_limit
        starts = (random_walk(self.domain, self.walk_length, self.rng, n=cfg.walk_instances)
                  if kind == "walk" else self.instances)
        kept = RoundProgress(progress_path, self.round + 1, kind, budget, starts)
        results, saved = kept.load(), time.perf_counter()
        if searches is None:
            h = self.heuristic()
            found = (ida_star(self.domain, h, s, node_limit=budget, order=cfg.learn.order)
                     for s in starts[len(results):])
        else:
            found = searches(self, starts[len(results):], budget)
        for result in found:
            results.append(result)
            if time.perf_counter() - saved >= SAVE_SECONDS:
                kept.save(results, time.perf_counter() - began)
                saved = time.perf_counter()
                if progress is not None and len(results) < len(starts):
                    progress(self.round_line(kind, results, len(starts),
                                             kept.seconds + saved - began))
        solved = np.array([r.solved for r in results], dtype=bool)
        if kind == "bootstrap":
            self.instances = self.instances[~solved]                # the solved instances leave Ins
        added = self.examples.add_plans([r.plan for r in results if r.solved])
        n_solved, examples = int(solved.sum()), len(self.examples)  # TS as h_i is trained on it
        steps = self.train() if n_solved >= cfg.ins_min else 0
        entry = {"round": self.round + 1, "kind": kind,
                 "walk_length": self.walk_length if kind == "walk" else None,
                 "tried": len(starts), "solved": n_solved, "node_limit": budget,
                 "generated": sum(r.generated for r in results), "added": added,
                 "examples": examples, "trained": n_solved >= cfg.ins_min, "steps": steps}
        self.round += 1
        self.advance(kind, n_solved)
        self.log.append({**entry, "remaining": len(self.instances), "stopped": self.stopped,
                         "seconds": kept.seconds + time.perf_counter() - began})
        return self.log[-1]

    def train(self) -> int:
        """h_i from TS: LearnHeuristicPrac's FFNN training (`Learner.train_ffnn`); TS emptied unless
        it accumulates."""
        lc = self.config.learn
        states, y = self.examples.states(), self.examples.labels()
        steps = fit_full_batch(self.ffnn, self.adam, self.encoding(states), y, lc.ffnn_batch,
                               lc.train_iter, lc.train_tolerance)
        self.trained = True
        if not self.config.accumulate:
            self.examples = MemoryBuffer(lc.buffer_size, self.domain.size)
        return steps

    def advance(self, kind: str, solved: int) -> None:
        """The next round's kind, walk length and budget, and whether to stop (module docstring)."""
        cfg = self.config
        enough = solved >= cfg.ins_min
        if kind == "walk" and enough:
            self.walk_length += cfg.walk_increment
            # does h now solve enough of Ins?
            self.next_kind = "bootstrap"
        elif kind == "bootstrap" and enough:
            self.walking = False
        elif (kind == "bootstrap" and cfg.walk_instances
                and (self.walking or not self.trained and solved == 0)):
            # h0, or h from walks, is still too weak
            self.walking, self.next_kind = True, "walk"
        elif 2 * self.node_limit > cfg.max_node_limit:
            self.stopped = "budget"
        else:
            self.node_limit *= 2
        if self.stopped is None and len(self.instances) < cfg.ins_min:
            # too few unsolved instances are left
            self.stopped = "solved"
        if self.stopped is None and self.round >= cfg.max_rounds:
            self.stopped = "rounds"

    def round_line(self, kind: str, results: list, starts: int, seconds: float) -> str:
        """The round under way: its searches so far, and the time left at their pace."""
        left = seconds / len(results) * (starts - len(results))
        return (f"round {self.round + 1:3d}  {kind:9s}  searched {len(results):,d} of {starts:,d}, "
                f"solved {sum(r.solved for r in results):,d}, {seconds:.0f} s so far, "
                f"about {left:.0f} s left at this pace")

    def progress_line(self) -> str:
        """One line per finished round."""
        e = self.log[-1]
        kind = e["kind"] if e["walk_length"] is None else f"walk {e['walk_length']}"
        stop = "" if e["stopped"] is None else f"  stopped: {e['stopped']}"
        return (f"round {e['round']:3d}  {kind:9s}  solved {e['solved']:5,d}/{e['tried']:<5,d}  "
                f"budget {e['node_limit']:13,d}  examples {e['examples']:7,d}  "
                f"steps {e['steps']:5d}  unsolved {e['remaining']:5,d}  "
                f"{e['seconds']:7.1f} s{stop}")

    # --- checkpoints: one .npz written atomically, a resumed run equal to an uninterrupted
    # one --------------

    def identity(self) -> dict:
        """What a checkpoint must match to continue this run: the domain, the encoding and the
        configuration."""
        return {"domain": self.domain.name, "encoding": as_json(describe(self.encoding)),
                "config": as_json(self.config)}

    def save(self, path) -> None:
        """Everything needed to continue this run, to `path` (.npz) atomically
        (`la.runs.checkpoint`)."""
        arrays = {"examples/states": self.examples.states(),
                  "examples/labels": self.examples.labels(), "instances": self.instances}
        meta = {"format": FORMAT, **self.identity(),
                "state": {key: getattr(self, key) for key in STATE},
                "rng": self.rng.bit_generator.state}
        save_state(path, {"ffnn": self.ffnn, "adam": self.adam}, arrays, meta)

    @classmethod
    def restore(cls, path, domain, config: BootConfig, encoding=None) -> "Boot":
        """The run saved at `path`; ValueError naming the file if it is damaged or belongs to
        another run."""
        arrays, meta = _read(path)
        boot = cls(domain, config, np.random.default_rng(0), encoding,
                   instances=arrays["instances"])
        check_identity(meta, boot.identity(), path, "Boot run")
        if arrays["instances"].ndim != 2 or arrays["instances"].shape[1] != domain.size:
            raise ValueError(f"{path}: its instances have shape {arrays['instances'].shape}, "
                             f"not (n, {domain.size})")
        try:
            parts = unpack_parts(arrays, meta, path, ("ffnn", "adam"))
            boot.ffnn, boot.adam = parts["ffnn"], parts["adam"]
            boot.examples = MemoryBuffer.from_arrays(config.learn.buffer_size,
                                                     arrays["examples/states"],
                                                     arrays["examples/labels"])
            for key in STATE:
                setattr(boot, key, meta["state"][key])
            boot.rng.bit_generator.state = meta["rng"]
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            if isinstance(error, ValueError) and str(error).startswith(str(path)):
                # `unpack` named the file already
                raise
            raise ValueError(f"{path}: not a whole Boot checkpoint "
                             f"({type(error).__name__}: {error})") from None
        return boot


def _read(path) -> tuple[dict, dict]:
    """Every array and the metadata of a Boot checkpoint; ValueError naming `path` if it is not
    one."""
    arrays, meta = read_state(path, "Boot checkpoint")
    if meta.get("format") != FORMAT or "instances" not in arrays:
        raise ValueError(f"{path}: not a Boot checkpoint (expected format {FORMAT!r})")
    return arrays, meta


def bootstrap(domain, config: BootConfig, rng: np.random.Generator, checkpoint=None, progress=print,
              encoding=None, searches=None) -> Boot:
    """Run Boot until its stopping rule fires, saving the whole run to `checkpoint` after every
    round and resuming from it if it exists; the round under way keeps its finished searches beside
    it (`RoundProgress`, `<checkpoint>.round.npz`, removed when the round is saved); `progress` gets
    one line per round and one every SAVE_SECONDS of the round under way (None: silent); `searches`:
    where the rounds' IDA* runs (`Boot.run_round`; the run is the same wherever it runs)."""
    if checkpoint is not None and os.path.exists(checkpoint):
        boot = Boot.restore(checkpoint, domain, config, encoding)
    else:
        boot = Boot(domain, config, rng, encoding)
    partial = None if checkpoint is None else RoundProgress.path_for(checkpoint)
    while boot.stopped is None:
        boot.run_round(partial, progress, searches)
        if checkpoint is not None:
            boot.save(checkpoint)
            if os.path.exists(partial):
                os.remove(partial)
        if progress is not None:
            progress(boot.progress_line())
    return boot
