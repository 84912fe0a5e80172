"""What LearnHeuristicPrac's settings are on each domain of the paper (§5): `DomainConfig`, one instance per
domain in `DOMAINS`, and `DOMAINS[name].learn()`, the `la.config.LearnConfig` it gives. Every experiment, and the
rivals, take a domain's settings from here.
"""
from dataclasses import dataclass

from la.config import NODES_PER_SECOND, LearnConfig
from la.nn.config import FFNNConfig, WUNNConfig


@dataclass(frozen=True)
class DomainConfig:
    """What LearnHeuristicPrac's settings are on one domain (paper §5); `learn()` gives its LearnConfig.

    The defaults are the paper's for its three feature domains (24-puzzle, 24-pancake, 15-blocksworld); every
    other constant is the 15-puzzle's, as the paper states (§5) and the authors' code does (`Program.Train`).
    """
    domain: str                       # the domain's name, as `la.domains.names.make_domain` reads it
    nodes_per_second: float           # the authors' C# planning with the network on this domain (see DOMAINS)
    num_iter: int = 75                # paper §5: NumIter = 75 on the 24-puzzle, 24-pancake and 15-blocksworld
    max_steps: int = 5000             # paper §5: MaxSteps = 5,000 on those domains
    t_max: float = 300.0              # paper §5: t_max = 300 s per training task on those domains
    n_hidden: int = 8                 # paper §5 (`Program.Train`): 8 hidden units in both networks
    dropout: float = 0.0              # paper §5: no dropout (2.5 % only in the 15-puzzle's two-output network)

    @property
    def node_limit(self) -> int:
        """t_max as generated nodes, at the authors' rate on this domain."""
        return round(self.t_max * self.nodes_per_second)

    def learn(self, n_out: int = 2) -> LearnConfig:
        """The LearnConfig of the two-output network (the α rows) or, with n_out=1, of the mean-only one (the
        N/A row, never with dropout, as in the authors' `Program.Train`)."""
        return LearnConfig(num_iter=self.num_iter, max_steps=self.max_steps, node_limit=self.node_limit,
                           ffnn=FFNNConfig(n_hidden=self.n_hidden, n_out=n_out,
                                           dropout=self.dropout if n_out == 2 else 0.0),
                           wunn=WUNNConfig(n_hidden=self.n_hidden))


# Budgets per domain, as for the 15-puzzle (module docstring): the paper's Table 3 at α = 0.9 gives the mean
# generated nodes and seconds per test task, the rate of the authors' C# planning with the network there:
#   24-puzzle       628,101,474 nodes in 1,371 s = 0.458 M/s, so t_max = 300 s is 137,440,147 nodes
#   24-pancake       54,089,822 nodes in   199 s = 0.272 M/s, so 300 s is                81,542,445 nodes
#   15-blocksworld  112,390,208 nodes in    54 s = 2.081 M/s, so 300 s is               624,390,044 nodes
# The 15-puzzle keeps its rounded Table 1 rate (1.1 M/s: 66 M nodes for 60 s), so its numbers stay as they were.
DOMAINS = {
    "15-puzzle": DomainConfig("15-puzzle", NODES_PER_SECOND, num_iter=50, max_steps=1000, t_max=60.0,
                              n_hidden=20, dropout=0.025),      # paper §5: NumIter 50, MaxSteps 1000, 60 s
    "24-puzzle": DomainConfig("24-puzzle", 628_101_474 / 1_371),
    "24-pancake": DomainConfig("24-pancake", 54_089_822 / 199),
    "15-blocksworld": DomainConfig("15-blocksworld", 112_390_208 / 54),
}
