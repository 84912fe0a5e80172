"""The certified bounded-suboptimal experiment's settings (`la.experiments.bounded`): per domain the
committed networks of Tables 1 and 3, the admissible floor, the test tasks, the weights and the
budgets; and a smoke run.

The focal heuristics are the networks the committed Tables 1 and 3 were made with (the 15-puzzle's
run 1 of three, `--network-run` for the others): y^0.9 and y^0.5 of the α network and the mean of
the single-output one. y^0.5 = μ − σ_a·Φ⁻¹(0.5) = μ exactly (Φ⁻¹(0.5) = 0), so the row y^0.5 is also
the α network's mean; no second row repeats its searches. Each orders FOCAL; the bound rests on the
floor alone (`la.search.focal`). Why each default holds (la/experiments/README.md, "Certified
bounded-suboptimal search"):

    weights 1.0 ... 2.0      the issue's grid: 1.0 is A* (optimal), 2.0 far past every realised
                             suboptimality of Tables 1 and 3 (at most 13.5 %)
    floor                    the domain's admissible row of Tables 1 and 3 where it is a floor of
                             its own (MD on the 15-puzzle), else the networks' own floor h_ad,
                             the largest admissible PDB feature (max-pdb)
    node limit 25 M          generated nodes per task: the search's arrays grow by doubling and
                             took 82-109 bytes per slot (115-170 per stored node between two
                             doublings; measured on the four domains), and at most every
                             generated node is stored, so 25 M nodes fit 2^25 slots, 2.8-3.7 GB
    memory limit 4 GB        bytes of one search's arrays: so the node limit binds first, but on
                             the 24-puzzle (109 bytes a slot) the memory limit may end a search
                             a little before 25 M nodes; two searches at once (--jobs 2) fit a
                             machine of 16 GB
    batch 256                K, the nodes a step expands (one network call scores all their
                             children). A plan of cost C takes at least about C steps, so K · C
                             expansions whatever w. With `la.solve`'s K = 4,096 (its fastest
                             nodes/s), focal search with y^0.9 and weighted A* at w = 1.5, on
                             three tasks of median C* per domain, generated 1.3-15 times the
                             nodes they took with K = 256 on the 15-puzzle, 15 times on the
                             24-pancake, and on the 15-blocksworld solved one of six within 3 M
                             nodes (14 times K = 256's), where K = 256 solved all six within
                             0.18-0.31 M
"""
from dataclasses import dataclass, replace
from pathlib import Path

from la.experiments import table3
from la.runs.folder import ROOT

WEIGHTS = (1.0, 1.05, 1.1, 1.25, 1.5, 2.0)         # issue 57: the bounds w of every search
# the focal heuristic -> (the network, its α; None: the mean)
HEURISTICS = {"y0.9": ("alpha", 0.9), "y0.5": ("alpha", 0.5), "mean": ("mean", None)}
IDA_ROWS = {"y0.9": "0.9", "y0.5": "0.5", "mean": "N/A"}   # the same network's row in Tables 1, 3
DOMAIN_NAMES = ("15-puzzle", *table3.BASELINES)
# the admissible floors `la` has on each domain (`la.solve_bounded.ADMISSIBLE`), the default first
FLOORS = {"15-puzzle": ("md", "pdb"), "24-puzzle": ("max-pdb", "pdb", "md"),
          "24-pancake": ("max-pdb", "gap", "pdb"), "15-blocksworld": ("max-pdb", "hamming")}
NODE_LIMIT = 25_000_000           # generated nodes per task (module docstring)
MEMORY_LIMIT = 4_000_000_000      # bytes of one search's arrays (module docstring)
BATCH = 256                       # K, nodes expanded per step (module docstring)


def networks_folder(domain: str) -> Path:
    """The committed networks of the domain's Table 1 or 3 run."""
    name = "suboptimality-networks" if domain == "15-puzzle" else f"table3-{domain}-networks"
    return ROOT / "figures" / name


def record_path(domain: str) -> Path:
    """The committed Table 1 or 3 record, whose IDA* rows are read beside the searches."""
    name = "suboptimality.json" if domain == "15-puzzle" else f"table3_{domain}.json"
    return ROOT / "figures" / name


@dataclass(frozen=True)
class BoundedConfig:
    """One domain's searches: every (search, heuristic, w) on its test tasks with known C*."""
    domain: str
    floor: str                          # the admissible h_ad under both searches (FLOORS)
    network_run: int = 1                # which committed run's networks (the 15-puzzle has three)
    heuristics: tuple = tuple(HEURISTICS)   # what orders FOCAL
    weights: tuple = WEIGHTS
    instances: tuple = ()               # test task ids; () is every one
    node_limit: int = NODE_LIMIT
    memory_limit: int = MEMORY_LIMIT
    batch: int = BATCH                  # K, the nodes expanded per step (`la.solve`: 4,096)

    def units(self) -> list:
        """(search, heuristic, w) of every unit: focal search with each heuristic, then weighted
        A* on the floor alone, at each w."""
        return ([("focal", h, w) for h in self.heuristics for w in self.weights]
                + [("wastar", None, w) for w in self.weights])

    def tasks(self) -> list:
        """The test tasks searched (`la.data`): Korf's 100, the 24-puzzle's 50, or la's 50."""
        every = table3.TEST_SETS[self.domain]()
        return [t for t in every if not self.instances or t.id in self.instances]


def unit_name(search: str, heuristic: str | None, weight: float) -> str:
    """The unit's folder: focal-y0.9/w1.5, wastar/w1.5."""
    return f"{search}{'' if heuristic is None else '-' + heuristic}/w{weight:g}"


def config_for(domain: str, floor: str | None = None, quick: bool = False) -> BoundedConfig:
    """The full protocol on `domain`, or the smoke run: its 2 cheapest tasks, w 1.0 and 2.0, y^0.9
    and the mean, 40,000 nodes and 50 MB a task (seconds; on the 15-puzzle w = 1.0 solves
    neither task and w = 2.0 both with focal search, one with weighted A*: its numbers say only
    that every part runs)."""
    if domain not in DOMAIN_NAMES:
        raise ValueError(f"unknown domain {domain!r}: expected one of {', '.join(DOMAIN_NAMES)}")
    floor = floor or FLOORS[domain][0]
    if floor not in FLOORS[domain]:
        raise ValueError(f"--floor {floor} is not an admissible floor of the {domain} here: "
                         f"one of {', '.join(FLOORS[domain])}")
    cfg = BoundedConfig(domain, floor)
    if not quick:
        return cfg
    return replace(cfg, heuristics=("y0.9", "mean"), weights=(1.0, 2.0),
                   instances=table3.easiest(domain, 2), node_limit=40_000,
                   memory_limit=50_000_000)
