"""Run the project's benchmarks:

    python -m la.bench [--only search,nn,neural,focal,pdb,exact,features,confidence,startup]
                       [--quick] [--json]

`--only tutorials` runs every tutorial (about 8 minutes on a quiet 2-core machine; not by default).

Speed targets live in the issues and are measured here, never in timed tests. Each section is a
module of `la.bench` with `run(rng, quick) -> results` and `report(results) -> lines`. SIGTERM (a
timeout's kill) stops a run as Ctrl-C does: the PDB section's worker process is stopped and its
temporary folder removed; exit status 143.
"""
import json
import signal
import sys

import numpy as np

from la.bench import (confidence, exact, features, focal, neural, nn, pdb, search, startup,
                      tutorials)
from la.runs.cli import SEED_MAX, Parser, names, run, seed
from la.runs.processes import Terminated, terminated_raises

SECTIONS = {"search": search, "nn": nn, "neural": neural, "focal": focal, "pdb": pdb,
            "exact": exact, "features": features, "confidence": confidence, "startup": startup,
            "tutorials": tutorials}
DEFAULT = [name for name in SECTIONS if name != "tutorials"]


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.bench", description="Run the project's benchmarks.")
    parser.add_argument("--only", type=names(SECTIONS, "benchmark section"),
                        default=",".join(DEFAULT),
                        help=f"comma-separated sections, at least one of: {', '.join(SECTIONS)} "
                             "(default: all but "
                             f"tutorials)")
    parser.add_argument("--quick", action="store_true",
                        help="smaller instance sets and PDBs (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=seed, default=0,
                        help=f"seed of the random inputs, 0..{SEED_MAX} (default 0)")
    args = parser.parse_args(argv)
    results = {}
    try:
        with terminated_raises():              # SIGTERM unwinds: workers stopped, temporary folders
                                               # removed
            for name in args.only:
                results[name] = SECTIONS[name].run(np.random.default_rng(args.seed),
                                                   quick=args.quick)
                if not args.json:
                    print("\n".join(SECTIONS[name].report(results[name])), flush=True)
    except Terminated:
        print("terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
