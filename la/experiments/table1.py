"""Table 1 of the paper (§5) on the 15-puzzle: its values, and the suboptimality experiment's
configuration at each scale (`la.experiments.table3` holds the same for the domains of Table 3).

    FULL      the paper's protocol, one run (--full); SuboptimalityConfig() is its 10 runs (--paper)
    DEFAULT   the paper's training, tested on the 25 instances easiest for Manhattan distance (no
              option)
    QUICK     a smoke run at toy scale (--quick)
"""
from dataclasses import dataclass, field, replace

from la import data
from la.config import LearnConfig
from la.nn.config import FFNNConfig

# The paper's Table 1: row -> (time s, generated nodes, suboptimality %, % optimal).
PAPER = {"MD": (80.7, 363_028_080, 0.0, 100.0), "0.95": (74.6, 78_787_262, 2.2, 67.8),
         "0.9": (26.7, 29_342_747, 2.5, 65.2), "0.75": (8.7, 9_357_055, 3.0, 59.0),
         "0.5": (5.1, 5_284_645, 3.4, 52.3), "0.25": (4.9, 5_107_840, 4.5, 38.3),
         "0.1": (3.9, 4_285_483, 5.3, 30.7), "0.05": (3.8, 4_189_753, 5.6, 25.3),
         "N/A": (2.3, 3_071_956, 10.8, 10.9)}


@dataclass(frozen=True)
class SuboptimalityConfig:
    """The paper's 15-puzzle suboptimality experiment (§5): NumIter 50, t_max 60 s, MaxSteps 1000,
    10 runs."""
    learn: LearnConfig = field(default_factory=LearnConfig)  # two outputs, dropout 2.5 %, α0 = 0.99
    learn_mean: LearnConfig = field(
        default_factory=lambda: LearnConfig(ffnn=FFNNConfig(n_out=1, dropout=0.0)))
    alphas: tuple = (0.95, 0.9, 0.75, 0.5, 0.25, 0.1, 0.05)    # paper Table 1
    instances: tuple = tuple(range(1, 101))                      # Korf's 100
    test_node_limit: int = 2_000_000_000    # per task: ~30 min of the authors' C#, far above the
                                            # paper's means
    md_node_limit: int = 10_000_000_000     # MD needs up to 6.3 billion nodes (Korf #88)
    runs: int = 10                          # paper §5: 10 runs
    order: str = "depth-first"              # IDA*'s goal order when testing (training: learn.order)

    # What `table3.Table3Config` holds as fields, fixed here (so the settings files of 15-puzzle
    # runs keep their shape, and older runs can be resumed): the domain, its one-hot inputs, the
    # baseline MD.
    domain = "15-puzzle"
    encoding = None                         # the paper's: the one-hot (la.features.one_hot)
    baseline, baseline_row = "md", "MD"
    calibration_random = 0

    @property
    def baseline_instances(self) -> tuple:
        return self.instances

    @property
    def baseline_node_limit(self) -> int:
        return self.md_node_limit

    def rows(self) -> list:
        return ["MD"] + [str(a) for a in self.alphas] + ["N/A"]


def easiest_korf(k: int) -> tuple:
    """The k of Korf's 100 that IDA* with Manhattan distance solves in the fewest generated nodes
    (Korf 1985)."""
    counts = data.korf100_md_nodes()
    return tuple(sorted(sorted(counts, key=lambda i: counts[i].reproduced)[:k]))


FULL = replace(SuboptimalityConfig(), runs=1)
# The reduced default: the paper's training (one run, the same networks as --full's first run, seed
# for seed), tested on the 25 instances that are easiest for Manhattan distance (optimal
# lengths 41-56, mean 47.5; MD needs at most 10 M nodes on each), each within 20 M nodes. Only the
# test is reduced: networks trained for 20 iterations with t_max = 6 s planned well only near the
# goal and left 36-76 % of these 25 unsolved, so that table did not read the way the full one does;
# the full training is what makes the rows comparable.
DEFAULT = replace(FULL, instances=easiest_korf(25), test_node_limit=20_000_000,
                  md_node_limit=20_000_000)
# A smoke run: its networks see walks of a step or two in 3 iterations, and no training that fits in
# a minute reaches Korf's tasks (41-66 moves), so the learned rows solve none of the 3; the table
# says so.
_toy = dict(num_iter=3, node_limit=200_000, train_iter=100, wunn_blocks=3, max_steps=100)
QUICK = replace(FULL, learn=replace(FULL.learn, **_toy),
                learn_mean=replace(FULL.learn_mean, **_toy), alphas=(0.9, 0.5),
                instances=(12, 79, 42), test_node_limit=1_000_000, md_node_limit=1_000_000)
