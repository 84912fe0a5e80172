"""The label audit: how far from optimal were the labels a run trained on? (Table 1's gap,
figures/table1-gap/)

    python -m la.experiments.label_audit RESULTS                  # every training unit in
                                                                    RESULTS (run<r>/alpha, ...)
    python -m la.experiments.label_audit RESULTS --min-label 30   # only plans of cost 30 or more

Each solved training task adds its plan to the memory buffer (`la.buffer`): every state with its
plan-suffix cost, so the plan's start carries the plan's cost as its label. A label above the
state's h* is an overestimate the network learns, and y^α's calibration can be no better than its
labels. The audit finds every plan's start, solves it optimally (IDA* with the additive PDBs of
`la.pdb.sets` on the sliding tiles: Korf & Felner's 6-6-3 and its reflection on the 15-puzzle; the
gap heuristic on pancakes; blocksworld's exact rule), and reports label / h* − 1 by iteration and by
the α the task was planned with.

Where the starts come from. A run trained since the learner logs each task's start (`la.learn`,
"start" in the log) names them. An older run's starts are read back from its checkpoint's buffer
(`infer_starts`): each Update appended the new records of its iteration's plans in the order the
tasks were solved, each plan from its start (label = its cost, which the log has) down to the goal,
leaving out records the buffer already held. A record is taken as the next plan's start when its
label is that plan's cost and it is not one move on from the record before it (the same plan going
on); a plan whose start was already held cannot be found, and is counted. On runs that log their
starts, the two agree (tests/test_table1_gap.py). Plans of the last iteration are left out: the
authors' loop never trains on them (`la.learn`).

Optimal costs are kept in `OUT/label-audit.json` after each unit, so an interrupted audit continues
where it stopped, and a second audit of the same RESULTS (another --min-label, say) solves only the
starts not solved before.
"""
import sys
import time
from pathlib import Path

import numpy as np

from la.domains.names import make_domain
from la.io import write_json
from la.rivals.optimal_labels import optimal_solver
from la.runs.checkpoint import BUFFER, check_checkpoint, read_state
from la.runs.cli import (Parser, existing_folder, first_paragraph, integer, node_limit, out_folder,
                         pdb_folder, run)
from la.runs.folder import ROOT
from la.runs.shapes import Range, Where, check_shape, read_results, whole

LONG = 30       # the plans of Korf's 100's lengths (41-66) and a little below: the labels the test
                # depends on


def training_units(results: Path) -> list:
    """The training units' folders under `results` that hold a checkpoint: the suboptimality
    experiment's run<r>/alpha and run<r>/mean, the efficiency experiment's run<r>/GTP and
    run<r>/<LengthInc's step>."""
    units = sorted(p.parent for p in results.glob("run*/*/checkpoint.npz")
                   if p.parent.name in ("alpha", "mean", "GTP") or p.parent.name.isdigit())
    if not units and (results / "checkpoint.npz").exists():
        units = [results]                             # a unit's own folder
    return units


def _trained_on(log: list) -> list:
    """The iterations whose plans went into the buffer: every one that ran an Update (it logs
    "added")."""
    return [entry for entry in log if "added" in entry]


def logged_starts(log: list) -> list | None:
    """(iteration, α, label, start) for every solved task of a trained-on iteration; None if the log
    names no start."""
    entries = _trained_on(log)
    if not all("start" in t for e in entries for t in e["tasks"]):
        return None
    return [(e["iteration"], e["alpha"], t["cost"], np.array(t["start"], dtype=np.uint8))
            for e in entries for t in e["tasks"] if t["solved"]]


def infer_starts(log: list, states: np.ndarray, labels: np.ndarray, domain) -> tuple[list, int]:
    """The plans' starts read back from the buffer (module docstring): (iteration, α, label, start)
    per start found, and how many solved plans' starts were not in it (already held, or dropped at
    the buffer's cap)."""
    entries = _trained_on(log)
    dropped = sum(e["added"] for e in entries) - len(labels)  # the oldest records go beyond the cap
    found, missing, end = [], 0, -dropped
    for e in entries:
        begin, end = end, end + e["added"]
        costs = [t["cost"] for t in e["tasks"] if t["solved"]]
        if begin < 0:                                        # this iteration's records were dropped
            missing += len(costs)
            continue
        k, previous = 0, None                         # the next plan to look for; the record before
        for i in range(begin, end):
            label = int(labels[i])
            goes_on = (previous is not None and label == previous - 1
                       and _one_move(domain, states[i - 1], states[i]))
            if not goes_on and label in costs[k:]:
                nxt = costs.index(label, k)
                missing += nxt - k                        # plans in between: their starts were held
                found.append((e["iteration"], e["alpha"], label, states[i].copy()))
                k = nxt + 1
            previous = label
        missing += len(costs) - k
    return found, missing


def _one_move(domain, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `b` is a successor of `a`."""
    _, _, children = domain.expand(a[None, :])
    return bool((children == b).all(axis=1).any())


def audit_unit(folder: Path, min_label: int, solve, known: dict, progress) -> dict:
    """The starts of one training unit, each with its optimal cost (`known`: h* found before, by
    state and label)."""
    arrays, meta = read_state(folder / "checkpoint.npz")
    domain = make_domain(meta["domain"])
    starts = logged_starts(meta["log"])
    source, missing = "logged", 0
    if starts is None:
        starts, missing = infer_starts(meta["log"], arrays[BUFFER[0]], arrays[BUFFER[1]], domain)
        source = "inferred"
    starts = [s for s in starts if s[2] >= min_label]
    keys = [f"{start.tobytes().hex()}:{label}" for _, _, label, start in starts]
    before = sum(key in known for key in keys)                # solved by an earlier audit (`known`)
    to_solve, solved = len(set(keys) - set(known)), 0             # distinct starts still to solve
    # a start trained on again later in the run
    repeats = len(keys) - before - to_solve
    records, began = [], time.perf_counter()
    for n, ((iteration, alpha, label, start), key) in enumerate(zip(starts, keys), 1):
        if key not in known:
            plan = solve(start)
            known[key] = None if plan is None else len(plan) - 1
            solved += 1
        records.append({"iteration": iteration, "alpha": alpha, "label": label,
                        "h_star": known[key], "start": start.tolist()})
        if n % 25 == 0 or n == len(starts):
            left = (time.perf_counter() - began) / max(solved, 1) * (to_solve - solved)
            progress(f"  {folder.name}: {n} of {len(starts)} starts ({before} solved before, "
                     f"{repeats} repeated), about {left / 60:.1f} min left")
    plans = sum(t["solved"] for e in _trained_on(meta["log"]) for t in e["tasks"])
    return {"source": source, "plans": plans, "not_found": missing, "records": records}


def summary(records: list, key: str) -> list:
    """Per value of `key` (iteration or alpha): starts, mean label, mean h*, mean label/h* − 1 (%),
    % optimal."""
    rows = []
    for value in sorted({r[key] for r in records}, key=lambda v: (v is None, v)):
        mine = [r for r in records if r[key] == value and r["h_star"] is not None]
        rows.append({key: value, "starts": len([r for r in records if r[key] == value]),
                     "solved": len(mine), **columns(mine)})
    return rows


def columns(records: list) -> dict:
    """Over audited starts (each with its h*): mean label, mean h*, mean label/h* − 1 (%; 0 at the
    goal), % optimal."""
    if not records:
        return {"label": None, "h_star": None, "subopt": None, "optimal": None}
    label = np.array([r["label"] for r in records], dtype=float)
    h_star = np.array([r["h_star"] for r in records], dtype=float)
    return {"label": float(label.mean()), "h_star": float(h_star.mean()),
            "subopt": float(100 * np.where(h_star > 0, label / np.maximum(h_star, 1) - 1, 0)
                            .mean()),
            "optimal": float(100 * (label == h_star).mean())}


def _cell(value, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def format_summary(rows: list, key: str) -> str:
    lines = [f"{key:>9} | starts solved | mean label  mean h*  subopt %  optimal %"]
    for r in rows:
        lines.append(f"{_cell(r[key], '>9') if r[key] is not None else 'mean':>9} | "
                     f"{r['starts']:6d} {r['solved']:6d} | {_cell(r['label'], '10.1f')} "
                     f"{_cell(r['h_star'], '8.1f')} {_cell(r['subopt'], '9.2f')} "
                     f"{_cell(r['optimal'], '10.1f')}")
    return "\n".join(lines)


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.label_audit",
                    description=first_paragraph(__doc__))
    parser.add_argument("results", type=existing_folder,
                        help="a results folder of the suboptimality or efficiency experiment, or "
                             "one unit's folder")
    parser.add_argument("--min-label", type=integer(0, 10**6), default=0, metavar="L",
                        help="audit only plans of cost L or more (default 0: all)")
    parser.add_argument("--node-limit", type=node_limit, default=None, metavar="N",
                        help="generated nodes per optimal solve (default: none, every start is "
                             "solved)")
    parser.add_argument("--out", type=out_folder, default=None,
                        help="where label-audit.json goes (default results/label-audit/<results "
                             "folder's name>)")
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where pattern databases are cached (default: $LA_PDB_DIR, else "
                             "~/.cache/la/pdb)")
    return parser.parse_args(argv)


# An audited start: the iteration and α it was trained at (α null for the mean network), its label
# (the cost of the plan it came from) and h* (null: not solved within --node-limit), no label below
# h*; its state's tiles
_RECORD = Where({"iteration": whole(1), "alpha": Range(0, 1, null=True), "label": whole(),
                 "h_star": whole(null=True), "start": [whole(0, 255)]},
                lambda r: r["h_star"] is None or r["label"] >= r["h_star"],
                "has a label below its h* (a plan cheaper than optimal)")
UNIT = Where({"source": str, "plans": whole(), "not_found": whole(), "records": [_RECORD, ...]},
             lambda u: u["not_found"] <= u["plans"] and len(u["records"]) <= u["plans"],
             "has more starts not found, or audited, than plans")
AUDIT = {"settings": {"min_label": whole(), "node_limit": whole(1, null=True)}, "results?": str,
         "units": dict}


def read_audit(path: Path) -> dict:
    """A label-audit.json, every unit's records checked (their fields, types and ranges): a damaged
    one is refused in one line naming the file and the place."""
    audit = read_results(path, "label-audit", AUDIT)
    for name, unit in audit["units"].items():
        check_shape(unit, UNIT, str(path), f"units.{name}")
    return audit


def main(argv=None) -> int:
    args = parse_args(argv)
    units = training_units(args.results)
    if not units:
        raise ValueError(f"{args.results}: no training checkpoint "
                         f"(run<r>/alpha/checkpoint.npz, run<r>/GTP/checkpoint.npz, ...) "
                         f"in it")
    for folder in units:                                  # every input checked before any work
        check_checkpoint(folder / "checkpoint.npz")
    out = args.out or ROOT / "results" / "label-audit" / args.results.resolve().name
    path = out / "label-audit.json"
    settings = {"min_label": args.min_label, "node_limit": args.node_limit}
    known, done = {}, {}
    if path.exists():
        before = read_audit(path)
        if before["settings"] == settings:
            done = before["units"]
        # An h* found is exact whatever the settings were; a start left unsolved stays so at the
        # same node limit.
        if before.get("results") == str(args.results):
            known = {f"{bytes(r['start']).hex()}:{r['label']}": r["h_star"]
                     for unit in before["units"].values() for r in unit["records"]
                     if r["h_star"] is not None
                     or before["settings"].get("node_limit") == args.node_limit}
    domain = make_domain(read_state(units[0] / "checkpoint.npz")[1]["domain"])
    solve = optimal_solver(domain, args.node_limit, args.pdb_dir)
    progress = lambda line: print(line, flush=True)                            # noqa: E731
    result = {"experiment": "label-audit", "results": str(args.results), "settings": settings,
              "units": {}}
    for folder in units:
        name = str(folder.relative_to(args.results)) if folder != args.results else folder.name
        print(f"{name}: recovering the training plans' starts and solving them optimally",
              flush=True)
        result["units"][name] = (done.get(name)
                                 or audit_unit(folder, args.min_label, solve, known, progress))
        write_json(path, result)
    every = [r for unit in result["units"].values() for r in unit["records"]]
    for name, unit in result["units"].items():
        print(f"\n{name}: {unit['plans']} plans trained on, {unit['not_found']} of their starts "
              f"not found in the buffer; {len(unit['records'])} audited ({unit['source']}): "
              + ", ".join(f"{k} {_cell(v, '.2f')}" for k, v in columns(
                  [r for r in unit["records"] if r["h_star"] is not None]).items()))
        long = [r for r in unit["records"] if r["h_star"] is not None and r["label"] >= LONG]
        print(f"plans of cost {LONG} or more ({len(long)}): "
              + ", ".join(f"{k} {_cell(v, '.2f')}" for k, v in columns(long).items()))
        print(format_summary(summary(unit["records"], "alpha"), "alpha"))
    print("\nby iteration, every unit:\n"
          + format_summary(summary(every, "iteration"), "iteration"))
    print(f"\nresults: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
