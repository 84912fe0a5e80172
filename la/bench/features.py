"""Benchmark: IDA* guided by a learned feature heuristic on the 24-puzzle, 24-pancake and
15-blocksworld.

Per domain, `LikelyAdmissible` (y^α with α = 0.9, floored at h_ad) on the paper's PDB features
(`la.features.encodings.for_domain`) plans with IDA* (`la.search`: batched, the heuristic
incremental, the paper's depth-first order) on the first tasks of the domain's test set with a node
limit each, beside the same heuristic called one state at a time. The network is an FFNN with the
paper's 8 hidden units for these domains (`la.config.DOMAINS`), fitted here in a few seconds to h*
of states along optimal plans (y/10 targets, full-batch Adam, as `la.bench.neural` does for the
15-puzzle): a stand-in for a trained network, of realistic strength, so that the benchmark needs no
training.

    24-puzzle       the states along the stored optimal solutions of Korf & Felner's 50 instances
    24-pancake      the states along gap-IDA* plans (optimal: the gap heuristic is admissible) of
                    random stacks
    15-blocksworld  the states along the exact-cost rule's optimal plans
                    (`la.domains.blocksworld_cost`) of uniform random states

The PDBs are the user's cache (`la.pdb.store`, built there on first use). The authors' C# planned at
about 0.46, 0.27 and 2.1 M generated nodes per second in these domains (paper, Table 3), with their
learned heuristics: printed beside as a reference, not a like-for-like comparison.

`quick` cuts every pattern to its first `la.bench.pdb.QUICK_ITEMS` items, builds those PDBs into a
temporary folder (never the user's cache) and runs fewer, shorter searches on fewer training states:
a smoke run of the same code, whose numbers say nothing about the targets.
"""
import tempfile
import time

import numpy as np

from la import data
from la.bench import pdb as bench_pdb
from la.bench import speed, speed_line
from la.bench.neural import fit_to_plans
from la.config import DOMAINS
from la.domains.blocksworld_cost import optimal_plan as blocksworld_plan
from la.domains.blocksworld_uniform import uniform_states
from la.domains.names import make_domain
from la.features.encodings import PAPER_FEATURES, for_domain
from la.heuristics.classical import Gap
from la.heuristics.likely_admissible import LikelyAdmissible
from la.nn import FFNN
from la.pdb import sets, store
from la.runs.progress import BuildProgress
from la.search import check_plan, ida_star

ALPHA = 0.9
TASKS, NODE_LIMIT = 5, 3_000_000          # the first 5 tasks of each test set, up to 3 M nodes each
QUICK_TASKS, QUICK_NODE_LIMIT = 2, 100_000
ONE_AT_A_TIME_NODES, QUICK_ONE_AT_A_TIME_NODES = 5_000, 500   # about a millisecond per state
# Plans fitted to: of Korf & Felner's instances (all 50), random stacks, uniform random states
FIT_PLANS = {"24-puzzle": 50, "24-pancake": 8, "15-blocksworld": 300}
QUICK_FIT_PLANS = {"24-puzzle": 5, "24-pancake": 2, "15-blocksworld": 30}
PANCAKE_PLAN_NODES = 2_000_000    # gap-IDA*'s node limit per stack; an unsolved stack is left out
CASES = {  # per domain: its test set, the issue's target, the authors' speed (paper, Table 3)
    "24-puzzle": {"tasks": data.korf50_24, "target_nodes_per_second": 3e6,
                  "authors_nodes_per_second": 0.46e6},
    "24-pancake": {"tasks": data.pancake50_24, "target_nodes_per_second": 2e6,
                   "authors_nodes_per_second": 0.27e6},
    "15-blocksworld": {"tasks": data.blocksworld50_15, "target_nodes_per_second": 2e6,
                       "authors_nodes_per_second": 2.1e6},
}


def plans(name: str, rng: np.random.Generator, quick: bool) -> list:
    """Optimal plans of the domain, each (length + 1, N) from a start to the goal: state i has h* =
    length − i."""
    count, domain = (QUICK_FIT_PLANS if quick else FIT_PLANS)[name], make_domain(name)
    if name == "24-puzzle":
        moves = data.optimal_blank_moves("korf50_24")
        return [data.optimal_plan(i.state, moves[i.id]) for i in data.korf50_24()[:count]]
    if name == "15-blocksworld":
        return [blocksworld_plan(s) for s in uniform_states(domain.size, count, rng)]
    results = [ida_star(domain, Gap(domain), rng.permutation(domain.size).astype(np.uint8),
                        node_limit=PANCAKE_PLAN_NODES) for _ in range(count)]
    return [r.plan for r in results if r.solved]


def fitted_network(encoding, plans: list, rng: np.random.Generator) -> FFNN:
    """An FFNN with the domain's hidden units (`la.config.DOMAINS`) fitted to h* of the states along
    `plans`."""
    return fit_to_plans(encoding, plans, DOMAINS[encoding.domain.name].n_hidden, rng)


class OneAtATime:
    """The same heuristic values, the network and the features computed once per state: what a naive
    port does."""

    def __init__(self, heuristic: LikelyAdmissible):
        self.h = heuristic

    def __call__(self, states):
        return np.array([self.h(s[None])[0] for s in states])


def encoding_of(name: str, folder, quick: bool):
    """The paper's encoding of the domain: from the user's PDB cache, or (quick) cut patterns built
    in `folder`."""
    domain = make_domain(name)
    if not quick:
        return for_domain(domain, progress=BuildProgress())
    named = bench_pdb.patterns(name, quick=True)
    quiet = lambda fraction, text: None                                     # noqa: E731
    return PAPER_FEATURES[name](domain, {
        group: [store.load(sets.abstraction(name, p), folder, quiet) for p in ps]
        for group, ps in named.items()})


def search(domain, h, tasks, node_limit: int) -> dict:
    """Nodes per second of IDA* over `tasks`, and the CPU seconds taken (on a busy machine, fewer
    than the wall clock's); a solved task's plan must be legal and no shorter than its known optimal
    cost."""
    cpu = time.process_time()
    results = [ida_star(domain, h, task.state, node_limit=node_limit) for task in tasks]
    cpu = time.process_time() - cpu
    for task, r in zip(tasks, results):
        if r.solved:
            check_plan(domain, task.state, r.plan)
            if r.cost < task.optimal:
                raise RuntimeError(f"{domain.name} task {task.id}: a plan of {r.cost} moves, "
                                   "below the optimal "
                                   f"{task.optimal}")
    return {**speed(results), "cpu_seconds": cpu, "solved": sum(r.solved for r in results)}


def measure(name: str, folder, rng: np.random.Generator, quick: bool) -> dict:
    """Fit the domain's network, then time IDA* with it, incremental and one state at a time."""
    case, encoding = CASES[name], encoding_of(name, folder, quick)
    domain = encoding.domain
    fit = plans(name, rng, quick)
    h = LikelyAdmissible(fitted_network(encoding, fit, rng), encoding, alpha=ALPHA)
    tasks = case["tasks"]()[:QUICK_TASKS if quick else TASKS]
    node_limit = QUICK_NODE_LIMIT if quick else NODE_LIMIT
    row = {"quick": quick, "alpha": ALPHA, "inputs": encoding.size, "hidden": h.net.n_hidden,
           "fitted_states": sum(len(p) for p in fit), "tasks": [t.id for t in tasks],
           "node_limit": node_limit}
    row["incremental"] = search(domain, h, tasks, node_limit)
    single = ida_star(domain, OneAtATime(h), tasks[0].state,
                      node_limit=QUICK_ONE_AT_A_TIME_NODES if quick else ONE_AT_A_TIME_NODES)
    row["one_at_a_time"] = speed([single])
    return {**row, "ratio": row["incremental"]["nodes_per_second"] / single.nodes_per_second,
            **{k: case[k] for k in ("target_nodes_per_second", "authors_nodes_per_second")}}


def run(rng: np.random.Generator, quick: bool = False) -> dict:
    """One row per domain, keyed by its name."""
    with tempfile.TemporaryDirectory(prefix="la-bench-features-") as folder:
        return {name: measure(name, folder, rng, quick) for name in CASES}


def report(rows: dict) -> list[str]:
    """Human-readable lines."""
    lines = ["IDA* + learned feature heuristic "
             "(FFNN fitted to h* along optimal plans, y^α floored at h_ad)"]
    for name, row in rows.items():
        kind = (f"patterns cut to {bench_pdb.QUICK_ITEMS} items (quick: no target applies)"
                if row["quick"] else "the paper's PDBs")
        lines.append(f"{name}: {row['inputs']}-{row['hidden']}-2 FFNN "
                     f"on {row['fitted_states']:,} states, α = "
                     f"{row['alpha']}, {kind}; tasks {row['tasks'][0]}..{row['tasks'][-1]}, up to "
                     f"{row['node_limit']:,} nodes each")
        r, s = row["incremental"], row["one_at_a_time"]
        target = ("" if row["quick"]
                  else f"; target >= {row['target_nodes_per_second'] / 1e6:.0f} M/s")
        lines += [speed_line("batched, incremental", r,
                             f"({r['generated'] / r['cpu_seconds'] / 1e6:.2f} M per CPU "
                             f"second; {r['solved']} solved{target})"),
                  speed_line("one state at a time", s,
                             f"({s['nodes_per_second']:,.0f} nodes/s; the first "
                             f"{s['generated']:,} nodes of the first task)"),
                  f"  batched / one at a time: {row['ratio']:,.0f}x;  the authors' C# about "
                  f"{row['authors_nodes_per_second'] / 1e6:.2f} M/s (paper, Table 3)"]
    return lines
