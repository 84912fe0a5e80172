"""Run the project's benchmarks: `python -m la.bench [--only search,nn] [--quick] [--json]`.

Speed targets live in the issues and are measured here, never in timed tests.
"""
import json
import sys

import numpy as np

from la.bench import neural, search
from la.cli import Parser, run

SECTIONS = ("search", "nn", "neural")


def nn_report(rows: list) -> list[str]:
    lines = ["Networks (best of a few repeats)"]
    for r in rows:
        target = "" if r.get("target_seconds") is None else f"   (target <= {r['target_seconds']} s)"
        lines.append(f"  {r['what']:<60} {r['seconds']:8.4f} s{target}")
    return lines


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.bench", description="Run the project's benchmarks.")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections: {', '.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true", help="smaller instance sets (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown benchmark section {unknown[0]!r}: expected some of {', '.join(SECTIONS)}")
    results = {}
    for section in chosen:
        if section == "search":
            results["search"] = search.run(quick=args.quick)
            lines = search.report(results["search"])
        elif section == "neural":
            results["neural"] = neural.run(np.random.default_rng(args.seed), quick=args.quick)
            lines = neural.report(results["neural"])
        else:
            from la.bench import nn
            results["nn"] = nn.run(np.random.default_rng(args.seed))
            lines = nn_report(results["nn"])
        if not args.json:
            print("\n".join(lines), flush=True)
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
