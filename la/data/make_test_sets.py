"""Regenerate the 24-pancake and 15-blocksworld test sets with their optimal costs (files in
`la/data/`).

    python -m la.data.make_test_sets                         # both files, into la/data/, seed 2020
    python -m la.data.make_test_sets --only pancake --out sets

The same seed gives the same files, bit for bit: the headers hold counts, never timings. The paper
tests each of these domains on 50 random tasks (Marom & Rosman 2020, §5); their tasks are not
published, so these are drawn anew:

- 24-pancake: uniformly random stacks, solved by IDA* with Helmert's gap heuristic (a few seconds in
  all).
- 15-blocksworld: states drawn uniformly (`la.domains.blocksworld_uniform`), costed by the exact
  single-tower rule (`la.domains.blocksworld_cost`), every rule plan replayed; the few tasks with
  the fewest blocked blocks are re-solved by IDA* with an admissible heuristic that knows nothing of
  blocked blocks (about a minute).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from la.domains.blocksworld import Blocksworld
from la.domains.blocksworld_cost import blocked, optimal_cost, optimal_plan, well_placed
from la.domains.blocksworld_uniform import number_of_states, uniform_states
from la.domains.pancake import Pancake
from la.heuristics.classical import Gap
from la.io import write_text
from la.runs import cli
from la.runs.cli import Parser, first_paragraph, names, out_folder, run, seed
from la.search import check_plan, ida_star

SEED = 2020                    # the paper's year; fixed before either set was drawn
COUNT = 50                     # tasks per set, as in the paper's §5
PANCAKES, BLOCKS = 24, 15      # the paper's 24-pancake and 15-blocksworld
CROSS_CHECKS = 4               # blocksworld tasks re-solved by IDA* with `not_home` ...
CROSS_CHECK_NODES = 10**8      # ... each up to this many generated nodes (tens of seconds)
FILES = {"pancake": "pancake50_24.txt", "blocksworld": "blocksworld50_15.txt"}
HERE = Path(__file__).resolve().parent


def pancake_set(seed: int, count: int = COUNT, n: int = PANCAKES, progress=None) -> dict:
    """`count` uniformly random n-pancake stacks with their optimal costs by gap IDA*, plans
    replayed."""
    rng = np.random.default_rng(seed)
    states = np.array([rng.permutation(n) for _ in range(count)], dtype=np.uint8).reshape(count, n)
    _check_distinct(states, "pancake")
    domain = Pancake(n)
    gap = Gap(domain)
    costs, nodes = [], []
    for i, state in enumerate(states, start=1):
        result = ida_star(domain, gap, state)
        check_plan(domain, state, result.plan)                 # each step one flip, ending sorted
        costs.append(result.cost)
        nodes.append(result.generated)
        if progress is not None and (i % 10 == 0 or i == count):
            progress(f"pancake: {i}/{count} stacks solved, {sum(nodes):,} nodes")
    costs, h0 = np.array(costs), gap(states)
    if (costs < h0).any():
        raise AssertionError("an IDA* cost is below the gap heuristic, which is admissible")
    return {"states": states, "costs": costs, "h0": h0, "nodes": np.array(nodes)}


def _check_distinct(states, name: str) -> None:
    if len(np.unique(states, axis=0)) != len(states):
        raise AssertionError(f"the {name} set holds a task twice")


def not_home(states) -> np.ndarray:
    """Blocks not yet home, (n,) int64: each must move at least once, so it is admissible (below
    h*)."""
    return (~well_placed(states)).sum(axis=1).astype(np.int64)


def blocksworld_set(seed: int, count: int = COUNT, n: int = BLOCKS,
                    cross_checks: int = CROSS_CHECKS, node_limit: int = CROSS_CHECK_NODES,
                    progress=None) -> dict:
    """`count` uniform n-block states with the rule's optimal costs, checked by replay and by
    IDA*."""
    states = uniform_states(n, count, np.random.default_rng(seed))
    _check_distinct(states, "blocksworld")
    domain = Blocksworld(n)
    costs = optimal_cost(states)
    for state, cost in zip(states, costs):
        plan = optimal_plan(state)                     # the rule's cost is reached: an upper bound
        check_plan(domain, state, plan)
        exact = ida_star(domain, optimal_cost, state)  # the rule as h: one iteration, same cost
        if len(plan) - 1 != cost or exact.iterations != 1 or exact.cost != cost:
            raise AssertionError(f"the cost rule disagrees with its own plan "
                                 f"on {cli.state_text(state)}")
    twice = blocked(states).sum(axis=1)
    chosen = sorted(range(count), key=lambda i: (twice[i], costs[i], i))[:cross_checks]
    checks = []
    for i in chosen:
        checks.append(lower_bound(domain, states[i], node_limit)
                      | {"id": i + 1, "blocked": int(twice[i])})
        if progress is not None:
            progress(f"blocksworld: task {i + 1} (cost {costs[i]}) "
                     f"proved >= {checks[-1]['proved']}")
    return {"states": states, "costs": costs, "h0": not_home(states), "blocked": twice,
            "checks": checks, "node_limit": node_limit}


def lower_bound(domain, state, node_limit: int) -> dict:
    """What IDA* with `not_home` proves about h*(state) within `node_limit` generated nodes.

    With an admissible heuristic, IDA* starts an iteration with bound b only once every plan shorter
    than b has been ruled out, so the last bound it reaches is a lower bound on h* (and h* itself if
    it solves).
    """
    result = ida_star(domain, not_home, state, node_limit=node_limit)
    if result.solved:
        return {"proved": result.cost, "solved": True, "nodes": result.generated}
    return {"proved": result.bounds[-1], "solved": False, "nodes": sum(result.per_iteration[:-1])}


def stats(values, digits: int = 2) -> str:
    """Mean, sd, min, max and sum, as the headers print them."""
    values = np.asarray(values)
    return (f"mean {values.mean():,.{digits}f} (sd {values.std(ddof=1):,.{digits}f}, "
            f"min {values.min():,}, "
            f"max {values.max():,}, sum {values.sum():,})")


def lines(states, costs) -> str:
    """One line per task: id, cost, the state."""
    rows = (" ".join(str(int(v)) for v in [i, c, *s])
            for i, (s, c) in enumerate(zip(states, costs), start=1))
    return "".join(row + "\n" for row in rows)


def command(seed: int) -> str:
    return "python -m la.data.make_test_sets" + ("" if seed == SEED else f" --seed {seed}")


def pancake_text(record: dict, seed: int) -> str:
    states, costs, h0, nodes = record["states"], record["costs"], record["h0"], record["nodes"]
    count, n = states.shape
    return (f"# {count} random {n}-pancake stacks with their optimal costs: this project's "
            f"{n}-pancake test set.\n"
            "# Marom & Rosman (ICAPS 2020, section 5) test on 50 random 24-pancake tasks (mean "
            "optimal cost 22.56), the\n"
            "#   ends of 5,000-step random walks from the goal (their Program.cs, GenTest); the "
            "tasks are not published.\n"
            f"#   Every stack allows the same number of flips, {n - 1}, so such a walk's limit is "
            "uniform and 5,000 steps come\n"
            "#   very close to it: here the stacks are drawn uniformly at random.\n"
            "#\n"
            f"# FORMAT: one instance per line:  id opt_len p0 p1 ... p{n - 1}\n"
            "#   p_i = the pancake at height i, i = 0 at the top (the spatula side), pancakes "
            f"0..{n - 1} (larger = wider);\n"
            "#   goal p_i = i (la.domains.Pancake). opt_len = the fewest flips that sort the "
            "stack.\n"
            "#\n"
            f"# HOW: stack i (i = 1..{count}) is the i-th call of rng.permutation({n}), rng = "
            f"numpy.random.default_rng({seed}).\n"
            "#   Optimal costs by IDA* with Helmert's gap heuristic (SoCS 2010), "
            "la.search.ida_star in depth-first order.\n"
            f"# REGENERATE: {command(seed)}   (rewrites this file and {FILES['blocksworld']} bit "
            "for bit)\n"
            "#\n"
            f"# CHECKS RUN (by that command): {count} distinct permutations of 0..{n - 1}; every "
            "IDA* plan replayed flip by\n"
            "#   flip to the goal (la.search.check_plan), its length the stored cost; cost >= "
            "gap(start) (gap is admissible:\n"
            "#   a flip changes one neighbouring pair). tests/test_test_sets.py re-checks the "
            "file; its slow tier re-solves\n"
            f"#   all {count} and regenerates the file.\n"
            "#\n"
            f"# SUMMARY: opt_len {stats(costs)}\n"
            f"#   gap(start) mean {h0.mean():.2f}; opt_len - gap(start): {_counts(costs - h0)}\n"
            f"#   IDA* generated nodes: {stats(nodes, 0)}\n"
            + lines(states, costs))


def blocksworld_text(record: dict, seed: int) -> str:
    states, costs, checks = record["states"], record["costs"], record["checks"]
    count, n = states.shape
    confirmed = [c["proved"] >= costs[c["id"] - 1] for c in checks]
    checked = "\n".join(
        f"#   task {c['id']}: opt_len {costs[c['id'] - 1]}, {c['blocked']} blocked; "
        + (f"solved at cost {c['proved']} in {c['nodes']:,} nodes" if c["solved"] else
           f"no plan shorter than {c['proved']} (ruled out in {c['nodes']:,} nodes)")
        + (": confirmed" if ok else ": not confirmed")
        for c, ok in zip(checks, confirmed))
    return (f"# {count} {n}-blocksworld states drawn uniformly at random, with their optimal costs "
            "to the single tower: this\n"
            f"# project's {n}-blocksworld test set.\n"
            "# Why uniform: Marom & Rosman (ICAPS 2020, section 5; mean optimal cost 21.72) take "
            "the ends of 5,000-step random\n"
            "#   walks (their Program.cs, GenTest). Such a walk's distribution depends on the "
            "walk's details and only\n"
            "#   approaches its limit, which weights a state by its number of moves: states with "
            "many towers, which are\n"
            "#   cheaper (about 21.9 on average, tests/test_test_sets.py). Uniform states are one "
            "exactly defined\n"
            "#   population, and Boot's 200 tasks (mean 22.73, the paper's footnote 4) seem to be "
            "drawn from it.\n"
            "#\n"
            f"# FORMAT: one instance per line:  id opt_len s1 s2 ... s{n}\n"
            "#   s_b = the block that block b stands on, 0 = the table (la.domains.Blocksworld); "
            f"goal 0 1 ... {n - 1}\n"
            f"#   (1 on the table, 2 on 1, ..., {n} on top). opt_len = the fewest moves of one "
            "clear block.\n"
            "#\n"
            f"# HOW: la.domains.blocksworld_uniform.uniform_states({n}, {count}, "
            f"numpy.random.default_rng({seed})):\n"
            "#   Slaney & Thiebaux's exact counting sampler (\"Blocks World revisited\", AIJ 125, "
            "2001), each of the\n"
            f"#   {number_of_states(n):,} states of {n} blocks with the same probability. Optimal "
            "costs by the exact\n"
            "#   single-tower rule, la.domains.blocksworld_cost.optimal_cost: (blocks not home) + "
            "(blocked blocks),\n"
            "#   proved in its docstring and equal to breadth-first distances on every state of "
            "2..8 blocks\n"
            "#   (tests/test_blocksworld_cost.py).\n"
            f"# REGENERATE: {command(seed)}   (rewrites this file and {FILES['pancake']} bit for "
            "bit)\n"
            "#\n"
            f"# CHECKS RUN (by that command): {count} distinct valid states; for every task the "
            "rule's plan (optimal_plan)\n"
            "#   replayed move by move to the goal, its length the stored cost, and IDA* with the "
            "rule as its heuristic\n"
            f"#   solving it in one iteration at that cost. The {len(checks)} tasks with the "
            "fewest blocked blocks re-solved\n"
            "#   by IDA* with an independent admissible heuristic, the number of blocks not home "
            "(each must move at least\n"
            "#   once; it ignores the second moves of blocked blocks), up to "
            f"{record['node_limit']:,} generated nodes each.\n"
            "#   IDA* with an admissible heuristic starts the iteration with bound b only after "
            "ruling out every shorter\n"
            "#   plan, and a plan of the stored length exists (the replay), so reaching that bound "
            "confirms the cost:\n"
            f"{checked}\n"
            f"#   {sum(confirmed)} of {len(checks)} confirmed optimal.\n"
            "#\n"
            f"# SUMMARY: opt_len {stats(costs)}\n"
            f"#   blocks not home: mean {record['h0'].mean():.2f}; blocked blocks: "
            f"{stats(record['blocked'])}\n"
            + lines(states, costs))


def _counts(values) -> str:
    kinds, counts = np.unique(values, return_counts=True)
    return ", ".join(f"{k}: {c}" for k, c in zip(kinds, counts))


def parse_args(argv):
    parser = Parser(prog="python -m la.data.make_test_sets", description=first_paragraph(__doc__),
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=out_folder, default=HERE, metavar="FOLDER",
                        help="where to write the files "
                             "(default: the la/data folder of this installation)")
    parser.add_argument("--seed", type=seed, default=SEED, help=f"the random seed (default {SEED})")
    parser.add_argument("--only", type=names(tuple(FILES), "test set"), default=list(FILES),
                        help="comma-separated: pancake, blocksworld (default both)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    say = lambda text: print(text, file=sys.stderr, flush=True)         # noqa: E731
    for name in args.only:
        if name == "pancake":
            text = pancake_text(pancake_set(args.seed, progress=say), args.seed)
        else:
            text = blocksworld_text(blocksworld_set(args.seed, progress=say), args.seed)
        write_text(Path(args.out) / FILES[name], text)
        say(f"wrote {Path(args.out) / FILES[name]}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
