"""The round under way of a Boot run (`la.rivals.boot`): its finished searches, kept so that an
interrupted round goes on from its last saved search."""
import hashlib
import os

import numpy as np

from la.runs import folder
from la.runs.checkpoint import read_state, save_state

ROUND_FORMAT = "la.boot.round/1"    # what `RoundProgress.save` writes (named as `FORMAT` is)
# a round's progress file: the checkpoint's name with this ending
SUFFIX = ".round.npz"
# A damaged one costs only the round under way (what --resume says: la.runs.folder.check_folder).
folder.REMEDIES[SUFFIX] = "delete it to redo only Boot's round under way"


class Searched:
    """What a round keeps of one IDA* search: whether it solved the start, its plan and the nodes it
    generated."""

    def __init__(self, solved: bool, plan, generated: int):
        self.solved, self.plan, self.generated = solved, plan, generated


class RoundProgress:
    """The finished searches of the round under way, saved every SAVE_SECONDS so that a round of
    hours survives an interruption. Within a round h and the budget are fixed and IDA* is
    deterministic, and a resumed run restores the rng as the round began (the checkpoint is saved
    between rounds), so it draws the same starts: the saved searches are the ones an uninterrupted
    round would make. A file of an earlier round (left when a run stopped between saving its
    checkpoint and removing this file) is ignored; one of this round that does not match its starts
    or budget, or a damaged one, is a one-line error naming it."""

    def __init__(self, path, round_number: int, kind: str, budget: int, starts: np.ndarray):
        self.path, self.seconds, self.width = path, 0.0, starts.shape[1]
        self.identity = {
            "format": ROUND_FORMAT, "round": round_number, "kind": kind, "node_limit": budget,
            "starts": len(starts),
            "digest": hashlib.sha256(np.ascontiguousarray(starts).tobytes()).hexdigest()}

    @staticmethod
    def path_for(checkpoint) -> str:
        return os.path.splitext(str(checkpoint))[0] + SUFFIX

    def load(self) -> list:
        """The searches saved for this round (none if there is no file, or it is an earlier
        round's)."""
        if self.path is None or not os.path.exists(self.path):
            return []
        arrays, meta = read_state(self.path, "Boot round progress")
        if meta.get("format") != ROUND_FORMAT:
            raise ValueError(f"{self.path}: not a Boot round's progress "
                             f"(expected format {ROUND_FORMAT!r})")
        if isinstance(meta.get("round"), int) and meta["round"] < self.identity["round"]:
            # the last round's, already in the checkpoint
            return []
        if {key: meta.get(key) for key in self.identity} != self.identity:
            raise ValueError(f"{self.path}: the progress of another round "
                             f"(round, starts or budget differ "
                             f"from the checkpoint's next round {self.identity['round']})")
        try:
            solved, generated, lengths = arrays["solved"], arrays["generated"], arrays["lengths"]
            ends = np.cumsum(lengths)
            if not len(solved) == len(generated) == len(lengths) <= self.identity["starts"] or (
                    len(ends) and ends[-1] != len(arrays["plans"])):
                raise ValueError("its arrays disagree in length")
            plans = np.split(arrays["plans"], ends[:-1]) if len(ends) else []
            self.seconds = float(meta["seconds"])
            return [Searched(bool(s), p if s else None, int(g))
                    for s, g, p in zip(solved, generated, plans)]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{self.path}: not a whole Boot round's progress "
                             f"({type(error).__name__}: {error})") from None

    def save(self, results: list, seconds: float) -> None:
        """The searches finished so far, atomically; `seconds`: the round's time until now."""
        if self.path is None:
            return
        plans = [r.plan for r in results if r.solved]
        arrays = {"solved": np.array([r.solved for r in results], dtype=bool),
                  "generated": np.array([r.generated for r in results], dtype=np.int64),
                  "lengths": np.array([len(r.plan) if r.solved else 0 for r in results],
                                      dtype=np.int64),
                  "plans": (np.concatenate(plans) if plans
                            else np.zeros((0, self.width), dtype=np.uint8))}
        save_state(self.path, {}, arrays, {**self.identity, "seconds": self.seconds + seconds})
