"""Benchmark: IDA* guided by a learned 15-puzzle heuristic, batched and incremental versus one state
at a time.

The network is fitted here, in a few seconds, to the 5,305 states with known cost-to-goal along the
stored optimal solutions of Korf's 100 (y/10 targets, 400 full-batch Adam steps): a stand-in for a
network trained by LearnHeuristicPrac, with the same shape (128-20-2) and a heuristic of realistic
strength, so that the benchmark needs no training run. Speed is what is measured, not the
heuristic's quality.
"""
import numpy as np

from la import data
from la.bench import speed, speed_line
from la.domains.sliding_tile import SlidingTile
from la.features import OneHot, one_hot_inputs
from la.heuristics.likely_admissible import LikelyAdmissible, to_h
from la.nn import FFNN, Adam
from la.search import ida_star
from la.search.ida_star import ORDERS

INSTANCES = tuple(range(1, 21))     # Korf's first 20, each searched up to NODE_LIMIT nodes
NODE_LIMIT = 3_000_000
QUICK_INSTANCES = (1, 2, 3)
ROUNDS, QUICK_ROUNDS = 3, 1         # the two orders timed in turn, this many rounds: the ratio is a
                                    # median
ONE_AT_A_TIME_NODES = 20_000        # the one-state-at-a-time search is timed on its first nodes
ALPHA = 0.9


FIT_STEPS, FIT_LR = 400, 1e-2      # full-batch Adam steps on y/10


def fit_to_plans(encode, plans: list, n_hidden: int, rng: np.random.Generator) -> FFNN:
    """A two-output FFNN fitted to h* of every state along optimal `plans` (y/10 targets), inputs
    `encode(states)`."""
    X = encode(np.concatenate(plans))
    net = FFNN(X.shape[1], n_hidden, 2, rng, dtype=np.float32)
    y = np.concatenate([np.arange(len(p))[::-1] for p in plans]) / net.scale
    adam = Adam(net.params, lr=FIT_LR)
    for _ in range(FIT_STEPS):
        adam.step(net.params, net.loss_and_grads(X, y)[1])
    return net


def fitted_network(rng: np.random.Generator) -> FFNN:
    """A 128-20-2 FFNN fitted to h* of the states along Korf's optimal solutions."""
    moves = data.optimal_blank_moves("korf100")
    plans = [data.optimal_plan(i.state, moves[i.id]) for i in data.korf100()]
    return fit_to_plans(lambda states: one_hot_inputs(states, 4), plans, 20, rng)


class OneAtATime:
    """The same heuristic values, but the network called once per state: what a naive port does."""

    def __init__(self, heuristic: LikelyAdmissible):
        self.h = heuristic

    def __call__(self, states):
        return np.array([to_h(self.h.values(self.h.hidden(s[None])))[0] for s in states])


def run(rng: np.random.Generator, quick: bool = False) -> dict:
    """Generated nodes per second with the learned heuristic, incremental and batched vs one at a
    time."""
    domain = SlidingTile(4)
    h = LikelyAdmissible(fitted_network(rng), OneHot(domain), alpha=ALPHA)
    ids = QUICK_INSTANCES if quick else INSTANCES
    instances = [i for i in data.korf100() if i.id in ids]
    rounds = QUICK_ROUNDS if quick else ROUNDS
    row = {"alpha": ALPHA, "instances": list(ids), "node_limit": NODE_LIMIT, "rounds": rounds}
    timed = {order: [] for order in ORDERS}
    # in turn task by task, so that a slower stretch of the machine (seconds long on a shared
    # virtual machine) hits both orders alike and neither always goes first
    for round_ in range(rounds):
        searches = {order: [] for order in ORDERS}
        for j, instance in enumerate(instances):
            for order in ORDERS if (j + round_) % 2 == 0 else ORDERS[::-1]:
                searches[order].append(ida_star(domain, h, instance.state, node_limit=NODE_LIMIT,
                                                order=order))
        for order in ORDERS:
            timed[order].append(searches[order])
    ratios = [speed(df)["nodes_per_second"] / speed(b)["nodes_per_second"]
              for df, b in zip(timed["depth-first"], timed["batched"])]
    for order in ORDERS:            # each order's median round (the node counts are the same in
                                    # every round)
        speeds = [speed(results) for results in timed[order]]
        middle = sorted(speeds, key=lambda s: s["nodes_per_second"])[len(speeds) // 2]
        row[order] = {**middle, "solved": sum(r.solved for r in timed[order][0])}
    single = ida_star(domain, OneAtATime(h), instances[0].state, node_limit=ONE_AT_A_TIME_NODES)
    row["one_at_a_time"] = speed([single])
    return {**row, "ratio": row["depth-first"]["nodes_per_second"] / single.nodes_per_second,
            "depth_first_vs_batched": float(np.median(ratios)),
            "depth_first_vs_batched_rounds": ratios,
            "target_nodes_per_second": 5e6, "target_depth_first_vs_batched": 0.9}


def report(row: dict) -> list:
    """Human-readable lines."""
    lines = [f"IDA* + learned heuristic (128-20-2 FFNN, y^α with α = {row['alpha']}), "
             "Korf's 15-puzzle instances "
             f"{row['instances'][0]}..{row['instances'][-1]}, "
             f"up to {row['node_limit']:,} nodes each; the median "
             f"of {row['rounds']} rounds"]
    for order in ORDERS:
        lines.append(speed_line(f"{order}, incremental", row[order],
                                f"({row[order]['solved']} solved; target >= "
                                f"{row['target_nodes_per_second'] / 1e6:.0f} M/s)"))
    s = row["one_at_a_time"]
    lines += [speed_line("one state at a time", s,
                         f"(the first {s['generated']:,} nodes of the first instance)"),
              f"  depth-first / batched: {row['depth_first_vs_batched']:.2f}, "
              "the median of the rounds' "
              f"{', '.join(f'{r:.2f}' for r in row['depth_first_vs_batched_rounds'])} (target >= "
              f"{row['target_depth_first_vs_batched']:.2f});  "
              f"depth-first / one at a time: {row['ratio']:.0f}x"]
    return lines
