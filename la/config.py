"""LearnHeuristicPrac's hyperparameters: frozen dataclasses, the paper's values as defaults.

`LearnConfig` holds every constant of one run (defaults: the 15-puzzle suboptimality experiment);
what the paper changes from domain to domain is `DOMAINS` (below), whose `DOMAINS[name].learn()` is
the LearnConfig of that domain; every experiment, and the rivals, take a domain's settings from
there.

Each field names where its value comes from: the paper (§4, §5) or, where the paper is silent or the
authors' code did something else that produced the paper's numbers, that code
(github.com/OfirMarom/LearnHeuristicWithUncertaintly, cited by file or method under
`HeuristicSearch/`). Experiments build on it with `dataclasses.replace`; the network settings are
in `la.nn.config`.

Budgets. The paper limits each task by wall-clock time (t_max = 60 s, 1 s for the efficiency runs).
A time limit makes results depend on the machine; `la` limits nodes instead, calibrated from the
paper's Table 1, where the authors' C# planned with the network at about 1.1 million generated nodes
per second: α = 0.9: 29,342,747 nodes in 26.7 s = 1.10 M/s (α = 0.95: 78.8 M in 74.6 s = 1.06 M/s;
the N/A row 3.07 M in 2.3 s = 1.34 M/s). So t_max = 1 s becomes 1.1 M generated nodes and 60 s
becomes 66 M. A wall-clock limit stays available (`time_limit`). The other domains' budgets come the
same way from the paper's Table 3 (`DOMAINS`).
"""
from dataclasses import dataclass, field

from la.nn.config import FFNNConfig, WUNNConfig
from la.nn.ffnn import SCALE
from la.search.ida_star import ORDERS

NODES_PER_SECOND = 1_100_000      # the authors' C# with the network, from the paper's Table 1


def node_budget(seconds: float) -> int:
    """The paper's time limit as a number of generated nodes."""
    return round(seconds * NODES_PER_SECOND)


@dataclass(frozen=True)
class LearnConfig:
    """LearnHeuristicPrac (paper §4–5); defaults: the 15-puzzle suboptimality experiment."""
    num_iter: int = 50                      # paper §5: NumIter = 50 (15-puzzle suboptimality)
    tasks_per_iter: int = 10                # paper §5: NumTasksPerIter
    solved_threshold: int = 6               # paper §5: NumTasksPerIterThresh (α falls below 6/10)
    task_generation: str = "gtp"            # "gtp" = GenerateTaskPrac; "length_inc": the baseline
    length_inc: int = 1                     # §5: iteration n walks LengthInc·(n+1) steps
    epsilon: float = 1.0                    # paper §5: ε (σ_e is a standard deviation, as the code)
    max_steps: int = 1000                   # paper §5: MaxSteps for the 15-puzzle
    kappa: float = 0.64                     # paper §5: κ; the WUNN trains until σ_e < √(κε) = 0.8
    alpha0: float = 0.99                    # paper §5: α0
    delta: float = 0.05                     # paper §5: Δ
    alpha_min: float = 0.5                  # paper §4: α is floored at 0.5
    beta0: float = 0.05                     # paper §5: β0
    beta_final: float = 1e-5                # paper §5: β_NumIter; γ = (β_NumIter/β0)^(1/NumIter)
    q: float = 0.95                         # paper §5: the quantile y^q of the training labels
    buffer_size: int = 25_000               # paper §5: MemoryBufferMaxRecords
    # Not in the paper; as the authors' code (`NNBayesHeuristic.GetRecords` and `.Update`): the
    # FFNN's batch is the buffer cycled to 25,000 rows, and its training stops when every record is
    # within 0.5; the WUNN trains in 101 blocks of 50 steps (5,050; the paper says 5,000), σ_e
    # checked after each block.
    ffnn_batch: int = 25_000                # the buffer cycled to 25,000 rows
    train_iter: int = 1000                  # paper §5: TrainIter, full-batch FFNN steps per update
    train_tolerance: float = 0.5            # stop when every record is within 0.5
    wunn_blocks: int = 101                  # 101 × 50 = 5,050 steps (paper: 5,000)
    wunn_block_steps: int = 50              # σ_e is checked every 50 steps
    minibatch: int = 100                    # paper §5: MiniBatchSize
    C: float = 1.0                          # paper §5: weight e^−C for records already below κε
    node_limit: int | None = node_budget(60)   # paper §5: t_max = 60 s, as 66 M nodes (see above)
    time_limit: float | None = None         # a wall-clock limit per task (machine-dependent)
    order: str = "depth-first"              # IDA*'s goal order, as the paper's (la.search.ida_star)
    target_scale: float = SCALE             # the FFNN learns y/10 (la.nn.ffnn), kept in the FFNN
    ffnn: FFNNConfig = field(default_factory=FFNNConfig)   # two outputs, dropout 2.5 % (paper §5)
    wunn: WUNNConfig = field(default_factory=WUNNConfig)

    def __post_init__(self):
        if self.order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {self.order!r}")
        if self.task_generation not in ("gtp", "length_inc"):
            raise ValueError(f"task_generation must be 'gtp' or 'length_inc', "
                             f"got {self.task_generation!r}")
        if self.num_iter < 1 or self.tasks_per_iter < 1:
            raise ValueError("num_iter and tasks_per_iter must be at least 1")
        if self.ffnn_batch < self.buffer_size:
            raise ValueError(f"ffnn_batch ({self.ffnn_batch}) must be at least buffer_size "
                             f"({self.buffer_size}): the FFNN's batch cycles through the whole "
                             f"buffer")

    @property
    def gamma(self) -> float:
        """β's decay factor: γ^NumIter·β0 = β_NumIter (paper §5)."""
        return (self.beta_final / self.beta0) ** (1 / self.num_iter)

    @property
    def sigma_e_target(self) -> float:
        """The WUNN trains until σ_e < √(κε) on every record: 0.8 (paper §4–§5)."""
        return (self.kappa * self.epsilon) ** 0.5

    @property
    def uses_alpha(self) -> bool:
        """Two outputs: plan with y^α and run the α schedule; one output: plan with the mean."""
        return self.ffnn.n_out == 2


@dataclass(frozen=True)
class DomainConfig:
    """LearnHeuristicPrac's settings on one domain (paper §5); `learn()` gives its LearnConfig.

    The defaults are the paper's for its three feature domains (24-puzzle, 24-pancake,
    15-blocksworld); every other constant is the 15-puzzle's, as the paper states (§5).
    """
    domain: str                       # the name `la.domains.names.make_domain` reads
    nodes_per_second: float           # the authors' C# planning with the network here (see DOMAINS)
    num_iter: int = 75                # paper §5: NumIter = 75 on the three feature domains
    max_steps: int = 5000             # paper §5: MaxSteps = 5,000 on those domains
    t_max: float = 300.0              # paper §5: t_max = 300 s per training task on those domains
    n_hidden: int = 8                 # paper §5: 8 hidden units in both networks
    dropout: float = 0.0              # paper §5: none (2.5 % in the 15-puzzle's two-output network)

    @property
    def node_limit(self) -> int:
        """t_max as generated nodes, at the authors' rate on this domain."""
        return round(self.t_max * self.nodes_per_second)

    def learn(self, n_out: int = 2) -> LearnConfig:
        """The LearnConfig of the two-output network (the α rows) or, with n_out=1, of the mean-only
        one (the N/A row)."""
        # The mean-only network never has dropout, as in the authors' `Program.Train` (the paper
        # names dropout for the 15-puzzle's network without saying which).
        return LearnConfig(num_iter=self.num_iter, max_steps=self.max_steps,
                           node_limit=self.node_limit,
                           ffnn=FFNNConfig(n_hidden=self.n_hidden, n_out=n_out,
                                           dropout=self.dropout if n_out == 2 else 0.0),
                           wunn=WUNNConfig(n_hidden=self.n_hidden))


# Budgets per domain, as for the 15-puzzle (module docstring): the paper's Table 3 at α = 0.9 gives
# the mean generated nodes and seconds per test task, the rate of the authors' C# planning with the
# network there:
#   24-puzzle       628,101,474 nodes in 1,371 s = 0.458 M/s, so 300 s is 137,440,147 nodes
#   24-pancake       54,089,822 nodes in   199 s = 0.272 M/s, so 300 s is  81,542,445 nodes
#   15-blocksworld  112,390,208 nodes in    54 s = 2.081 M/s, so 300 s is 624,390,044 nodes
# The 15-puzzle keeps its rounded Table 1 rate (1.1 M/s: 66 M nodes for 60 s), so its numbers stay
# as they were.
DOMAINS = {
    # paper §5: NumIter 50, MaxSteps 1000, 60 s, 20 hidden units, dropout 2.5 %
    "15-puzzle": DomainConfig("15-puzzle", NODES_PER_SECOND, num_iter=50, max_steps=1000,
                              t_max=60.0, n_hidden=20, dropout=0.025),
    "24-puzzle": DomainConfig("24-puzzle", 628_101_474 / 1_371),
    "24-pancake": DomainConfig("24-pancake", 54_089_822 / 199),
    "15-blocksworld": DomainConfig("15-blocksworld", 112_390_208 / 54),
}
