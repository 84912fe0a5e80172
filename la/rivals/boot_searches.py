"""Boot's searches spread over worker processes, so that a pass over hundreds of instances uses
every core.

A round of Boot (`la.rivals.boot.Boot.run_round`) runs IDA* from each of its starts with the round's
heuristic and budget. IDA* is deterministic given both, so it does not matter where each search
runs: `SpreadSearches` sends the starts one at a time to `la.runs.processes.Workers`, each worker
remakes the round's heuristic (its encoding and h0 once per worker, the network once per round) and
returns what the round keeps of the search, and the results come back in start order. A run with
workers is therefore the run without them, search for search, and an interrupted round's saved
searches (`la.rivals.boot_round.RoundProgress`) are a prefix of its starts as before.
"""
import hashlib

from la.features.encodings import describe
from la.rivals.boot import boot_heuristic, initial_heuristic
from la.rivals.boot_round import Searched
from la.runs.checkpoint import Prefixed
from la.runs.network import encoding_for
from la.runs.persist import pack, unpack
from la.search import ida_star


class SpreadSearches:
    """`searches(boot, starts, budget)` for `la.rivals.boot.bootstrap`, on the running `workers`."""

    def __init__(self, workers, pdb_dir=None):
        self.workers, self.pdb_dir = workers, None if pdb_dir is None else str(pdb_dir)

    def __call__(self, boot, starts, budget: int):
        """Yield IDA*'s result from each of `starts` within `budget` nodes with `boot`'s h, in start
        order."""
        network = pack(boot.ffnn) if boot.trained else None
        common = {"domain": boot.domain.name, "encoding": describe(boot.encoding),
                  "pdb_dir": self.pdb_dir, "config": boot.config, "network": network,
                  "key": _digest(network), "budget": budget}
        units = [{**common, "index": i, "start": start} for i, start in enumerate(starts)]
        finished, following = {}, 0
        for unit, kind, payload in self.workers.run(search_unit, units, None):
            if kind == "failed":
                raise RuntimeError(f"a Boot search failed in a worker process: {payload[0]}")
            finished[unit["index"]] = payload
            while following in finished:
                yield finished.pop(following)
                following += 1


def search_unit(unit: dict, out, verbose: bool) -> Searched:
    """In a worker: IDA* from `unit["start"]` with the round's heuristic, remade here
    (`SpreadSearches`)."""
    encoding = encoding_for(unit["domain"], unit["encoding"], unit["pdb_dir"])
    if _MADE.get("key") != unit["key"] or _MADE.get("encoding") is not encoding:
        network = unit["network"]
        ffnn = None if network is None else unpack(network[1], Prefixed(network[0], ""),
                                                   "a Boot round's network")
        _MADE.update(key=unit["key"], encoding=encoding,
                     h=boot_heuristic(unit["config"], encoding, initial_heuristic(encoding), ffnn))
    result = ida_star(encoding.domain, _MADE["h"], unit["start"], node_limit=unit["budget"],
                      order=unit["config"].learn.order)
    return Searched(result.solved, result.plan if result.solved else None, result.generated)


def _digest(network) -> str | None:
    """A name for the round's network: its parameters' bytes, hashed."""
    if network is None:
        return None
    arrays, _ = network
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode() + arrays[name].tobytes())
    return digest.hexdigest()


# in a worker: the last round's heuristic, its network's digest and its encoding
_MADE = {}
