"""The ground-truth experiment's settings per domain (`la.experiments.ground_truth`): the method at
full strength, and a smoke run.

Full strength is the paper's 15-puzzle protocol (§5), the paper's one domain with a one-hot input:
`la.config.DOMAINS["15-puzzle"]`, unchanged on every domain here. Why each value holds (the table is
in la/experiments/README.md, "Ground truth"):

    NumIter 50, NumTasksPerIter 10, threshold 6   paper §5; none depends on the domain's size
    MaxSteps 1,000       paper §5; a walk back from the goal that long mixes far past these
                         diameters (31–55), so more steps could make no harder task
    node budget 66 M     paper §5's t_max = 60 s at the authors' 1.1 M nodes/s (`la.config`); on
                         these small spaces it rarely binds, and a cut would bias the labels
    20 hidden units      paper §5, for the 15-puzzle's one-hot (128 inputs; here 70–100)
    dropout 2.5 %        paper §5, the α network only, as the authors' `Program.Train`
    ε, κ, α0, Δ, β0, β_NumIter, q, buffer 25,000, TrainIter 1,000, minibatch 100   paper §5
    inputs               the one-hot: the 15-puzzle's on the boards (`la.features.one_hot`), one
                         over pancakes on the stacks (`la.features.pancake_one_hot`, ours)

The measurement's settings are ours: 1,000 uniform test tasks per run (drawn with the run's own
random stream), each searched within 66 M generated nodes (the training budget; a task that needs
more is counted unsolved, never dropped); coverage over every state where the space has at most
400,000 (the 8-puzzle, the 9-pancake), else over 100,000 uniform states, the same in every run;
20 of the states each test search generates, drawn uniformly from all it generated
(`la.experiments.ground_truth_units.Sampler`).

The arms (`--arm`, la/experiments/README.md "Ground truth"), each one change to the paper's method:

    paper       LearnHeuristicPrac as the paper has it: IDA*'s depth-first goal order (the default)
    batched     IDA*'s batched goal order (the shallowest goal within the bound) in training and
                testing, as the batched arm of Table 1's gap (figures/table1-gap/)
    oracle      each solved training task's plan replaced by an optimal one from the same start,
                read off the exact table, so every label is h* (Table 1's oracle-label arm)
    conformal   the paper's training; each α row's y^α with a split-conformal quantile q_α in place
                of Φ⁻¹(α), calibrated on the states searches generated on `calibration_tasks`
                uniform tasks (`la.rivals.calibration`)
"""
from dataclasses import dataclass, field, replace

from la.config import DOMAINS, LearnConfig
from la.domains.names import make_domain
from la.pdb.exact import ExactTable

TABLE1_ALPHAS = (0.95, 0.9, 0.75, 0.5, 0.25, 0.1, 0.05)        # the paper's Table 1 rows
QUANTILES = tuple(round(0.05 * k, 2) for k in range(1, 20))    # the reliability diagram's grid
PANCAKE_ONE_HOT = {"encoding": "PancakeOneHot"}               # `la.features.encodings.describe`
DOMAIN_NAMES = ("8-puzzle", "2x5-puzzle", "9-pancake", "10-pancake")
EVERY_STATE_UP_TO = 400_000   # coverage over every state up to this many, else a uniform sample
ARMS = ("paper", "batched", "oracle", "conformal")
CALIBRATION_TASKS = 100       # ours: the conformal arm's uniform calibration tasks per run
# Settings added with the arms: a results folder made before them ran the paper's arm with these
# values (`la.runs.folder.prepare`, `la.experiments.merge_check`).
ADDED = {"arm": "paper", "calibration_tasks": None}


def _full_learn(n_out: int) -> LearnConfig:
    """The paper's 15-puzzle LearnHeuristicPrac (§5) for the α (n_out 2) or N/A (1) network."""
    return DOMAINS["15-puzzle"].learn(n_out)


@dataclass(frozen=True)
class GroundTruthConfig:
    """One domain's full-strength training (paper §5) and the measurements' settings (ours)."""
    domain: str
    encoding: dict | None = None        # None: the paper's for the domain (the one-hot on boards)
    learn: LearnConfig = field(default_factory=lambda: _full_learn(2))
    learn_mean: LearnConfig = field(default_factory=lambda: _full_learn(1))
    alphas: tuple = TABLE1_ALPHAS
    test_tasks: int = 1000              # ours: uniform test tasks per run
    test_node_limit: int = DOMAINS["15-puzzle"].node_limit   # ours: the training budget, 66 M
    coverage_sample: int | None = None  # ours: None = every state, else this many uniform ones
    searched_per_task: int = 20         # ours: states sampled from each test search's generated
    quantiles: tuple = QUANTILES        # ours: the reliability diagram's p
    runs: int = 1
    order: str = "depth-first"          # IDA*'s goal order in testing (training: learn.order)
    arm: str = "paper"                  # the method's variant (module docstring)
    calibration_tasks: int | None = None  # the conformal arm's calibration tasks (None: no arm)

    def rows(self) -> list:
        return [str(a) for a in self.alphas] + ["N/A"]

    @property
    def reference(self) -> str:
        """The admissible reference row: Manhattan distance on boards, the gap on pancakes."""
        return "gap" if "pancake" in self.domain else "MD"


def full(domain: str) -> GroundTruthConfig:
    """The full-strength configuration of `domain` (module docstring)."""
    states = ExactTable(make_domain(domain)).reachable
    return GroundTruthConfig(domain, encoding=PANCAKE_ONE_HOT if "pancake" in domain else None,
                             coverage_sample=None if states <= EVERY_STATE_UP_TO else 100_000)


# A smoke run on the 8-puzzle, well under a minute: 3 iterations of toy training, 10 test tasks.
# Its numbers say only that every part runs.
_toy = dict(num_iter=3, node_limit=200_000, train_iter=100, wunn_blocks=3, max_steps=100)
QUICK = replace(full("8-puzzle"), learn=replace(full("8-puzzle").learn, **_toy),
                learn_mean=replace(full("8-puzzle").learn_mean, **_toy), alphas=(0.9, 0.5),
                test_tasks=10, test_node_limit=100_000, coverage_sample=5_000,
                searched_per_task=5)


def with_arm(cfg: GroundTruthConfig, arm: str,
             calibration_tasks: int = CALIBRATION_TASKS) -> GroundTruthConfig:
    """`cfg` as `arm` runs it (module docstring); the paper's arm is `cfg` unchanged."""
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}: expected one of {', '.join(ARMS)}")
    if arm == "batched":
        return replace(cfg, arm=arm, order="batched", learn=replace(cfg.learn, order="batched"),
                       learn_mean=replace(cfg.learn_mean, order="batched"))
    if arm == "conformal":
        return replace(cfg, arm=arm, calibration_tasks=calibration_tasks)
    return replace(cfg, arm=arm)


def config_for(domain: str, quick: bool, arm: str = "paper") -> GroundTruthConfig:
    """The smoke run (the 8-puzzle's) or the full-strength configuration of `domain`, as `arm`
    runs it."""
    if domain not in DOMAIN_NAMES:
        raise ValueError(f"unknown domain {domain!r} for the ground-truth experiment: expected "
                         f"one of {', '.join(DOMAIN_NAMES)}")
    if quick and domain != "8-puzzle":
        raise ValueError(f"--quick is a smoke run on the 8-puzzle, not the {domain}")
    # the smoke run calibrates on 10 tasks: 50 states, enough for its α of 0.9 (n >= 9)
    return with_arm(QUICK, arm, 10) if quick else with_arm(full(domain), arm)
