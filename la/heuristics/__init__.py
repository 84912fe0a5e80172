"""Heuristics: the contract every search relies on (`base`) and the classical ones (`classical`)."""
from la.domains import Pancake, SlidingTile
from la.heuristics.base import incremental
from la.heuristics.classical import Gap, Hamming, Manhattan, Weighted

__all__ = ["Manhattan", "Gap", "Hamming", "Weighted", "incremental", "make_heuristic", "classical_admissible",
           "CLASSICAL"]

CLASSICAL = ("md", "gap", "hamming")


def make_heuristic(name: str, domain):
    """The classical heuristic `name` ('md', 'gap' or 'hamming') for `domain`."""
    if name == "md":
        if not isinstance(domain, SlidingTile):
            raise ValueError(f"heuristic 'md' (Manhattan distance) is for sliding-tile puzzles, not the {domain.name}")
        return Manhattan(domain)
    if name == "gap":
        if not isinstance(domain, Pancake):
            raise ValueError(f"heuristic 'gap' is for pancake puzzles, not the {domain.name}")
        return Gap(domain)
    if name == "hamming":
        return Hamming(domain)
    raise ValueError(f"unknown heuristic {name!r}: expected one of {', '.join(CLASSICAL)}")


def classical_admissible(domain):
    """The domain's classical admissible heuristic: Manhattan distance on sliding-tile puzzles, the gap heuristic
    (Helmert 2010) on pancake puzzles; None for a domain without one here (blocksworld, whose h* has a rule)."""
    if isinstance(domain, SlidingTile):
        return Manhattan(domain)
    if isinstance(domain, Pancake):
        return Gap(domain)
    return None
