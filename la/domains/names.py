"""Domains by the names the command lines and experiments use: `make_domain("15-puzzle")`."""
import math
import re

from la.domains.blocksworld import Blocksworld
from la.domains.domain import STATE_MAX, Domain
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile


def make_domain(name: str) -> Domain:
    """The domain called `name`, e.g. '15-puzzle', '2x5-puzzle' (2 rows of 5), '24-pancake',
    '15-blocksworld'."""
    text = name.strip().lower()
    match = re.fullmatch(r"([0-9]+)-(puzzle|pancake|blocksworld)", text)
    board = re.fullmatch(r"([0-9]+)x([0-9]+)-puzzle", text)
    shown = repr(name) if len(name) <= 40 else f"{name[:20]!r}... ({len(name)} characters)"
    if match is None and board is None:
        raise ValueError(f"unknown domain {shown}: expected 8-puzzle, 15-puzzle, 24-puzzle, "
                         f"<rows>x<columns>-puzzle, <n>-pancake or <n>-blocksworld")
    numbers = (match or board).groups()[:1 if match else 2]
    if any(len(n.lstrip("0")) > 30 for n in numbers):  # before int(): Python refuses huge ints
        raise ValueError(f"domain {shown} is far too large: states are rows of uint8, so a domain "
                         f"holds at most {STATE_MAX} tiles, pancakes or blocks")
    if board is not None:
        height, width = int(board.group(1)), int(board.group(2))
        return SlidingTile(width, height)
    n, kind = int(match.group(1)), match.group(2)
    if kind == "puzzle":
        width = math.isqrt(n + 1)
        if width * width != n + 1:
            raise ValueError(f"no sliding-tile puzzle has {n} tiles: n + 1 must be a square "
                             f"(8, 15, 24, ...), or name a rectangle as <rows>x<columns>-puzzle")
        return SlidingTile(width)
    return Pancake(n) if kind == "pancake" else Blocksworld(n)
