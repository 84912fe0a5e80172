"""The ground-truth experiment on the 15-blocksworld: Table 3's committed networks measured against
the exact cost (`la.domains.blocksworld_cost`), with nothing trained and nothing searched anew.

    python -m la.experiments.ground_truth_blocks                  # every run Table 3's record has
    python -m la.experiments.ground_truth_blocks --run 2          # run 2 alone
    python -m la.experiments.ground_truth_blocks --resume --out DIR    # runs added to the record
                                                                         since DIR was measured

Per run r of the Table 3 record (--record, default figures/table3_15-blocksworld.json), with its
networks (--networks, default figures/table3-15-blocksworld-networks: run<r>/alpha and run<r>/mean),
each row as IDA* used it there (α: max(round(y^α), h_ad) with the α network, σ_t = σ_a; N/A: the
mean network's max(round(μ), h_ad); max-PDB: h_ad alone, the reference, which must hold everywhere)
is measured (`la.experiments.ground_truth_blocks_units`):

    coverage h <= h* (and y <= h*, before rounding and the floor), by h*: (i) on --sample uniform
    states (Slaney & Thiébaux's exact sampler, `la.domains.blocksworld_uniform`; the goal left
    out), the same in every run; (ii) on every state of every optimal plan of the 50 test tasks
    (the optimal DAG), and on the one optimal plan per task of `optimal_plan` (Table 3's
    calibration states)
    the guarantee: α^|π*| beside the share of tasks Table 3 solved optimally (its record) and the
    exact share of tasks with an optimal plan whose every state has h <= h* (`held`; `held_goal`
    with the goal's h too), by |π*|

The ground-truth experiment's other measures cannot be made here: (iii) the states the test
searches generated (Table 3's records keep only each task's cost, nodes and time; sampling them
means the 120 M-node searches again), the distance to the training data and the label audit (the
committed networks keep no training buffer, and 6.6e13 states admit no breadth-first search).
Results: results.json in --out (default results/ground-truth-15-blocksworld), a unit per run.
"""
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from la.experiments.ground_truth_blocks_units import REFERENCE, measure_unit
from la.experiments.trained import check_networks, trained_network
from la.io import write_json
from la.runs.cli import (Parser, existing_file, existing_folder, first_paragraph, integer,
                         pdb_folder, run)
from la.runs.folder import ROOT, as_recorded, prepare, provenance
from la.runs.runner import add_run_options, mean_std, run_units
from la.runs.shapes import (FRACTION, MAYBE_FRACTION, Is, Records, Where, read_results,
                            whole)

DOMAIN = "15-blocksworld"
SAMPLE_MAX = 10**7            # uniform states: 100,000 take about a minute to draw
RECORD = {"domain": str, "runs": [whole(1)],
          "config": {"alphas": [FRACTION], "instances": [whole(1)]},
          "tests": [{"row": str, "run": whole(1, null=True),
                     "records": [{"id": whole(1), "optimal": whole(), "solved": bool,
                                  "cost": whole(null=True)}]}]}
COLUMNS = ("uniform", "dag", "plan", "uniform_y", "dag_y", "held", "held_goal", "bound",
           "realised")
# A measured row (`ground_truth_blocks_units.row_measures`): coverage on each set, by h*, and the
# guarantee by |π*|
_SET = {"states": whole(), "coverage": MAYBE_FRACTION, "y_coverage": MAYBE_FRACTION,
        "by": Records({"key": whole(), "states": whole(1), "coverage": FRACTION}, key="key")}
ROW = {"row": str, "uniform": _SET, "plan": _SET, "dag": _SET,
       **dict.fromkeys(("held", "held_goal", "realised"), FRACTION),
       **dict.fromkeys(("bound", "bound_goal"), MAYBE_FRACTION),
       "guarantee": Records({"length": whole(), "tasks": whole(1), "bound": MAYBE_FRACTION,
                             **dict.fromkeys(("held", "held_goal", "realised"), FRACTION)},
                            key="length")}


@dataclass(frozen=True)
class BlocksTruthConfig:
    """What is measured: Table 3's rows and our uniform sample."""
    alphas: tuple                # Table 3's α rows, as its record lists them
    sample: int = 100_000        # ours: uniform states, as the ground-truth experiment's spaces
    domain: str = DOMAIN

    def rows(self) -> list:
        return [str(a) for a in self.alphas] + ["N/A", REFERENCE]

    def unit_shape(self, unit: str):
        """What a finished measure unit ("run2/measure") holds, checked before a resume
        (`la.runs.folder.prepare`): its own run, a measured row (`ROW`) per row of the
        configuration, in order, and the sets' sizes, at most `sample` uniform states."""
        run, last = unit.split("/")[0], unit.rsplit("/", 1)[-1]
        if not (run.startswith("run") and run.removeprefix("run").isdigit() and "/" in unit):
            return {"run": int}                                   # no unit of a run
        if last != "measure":
            raise ValueError(f"{unit}: not a unit of this experiment (run<r>/measure)")
        rows = self.rows()
        return {"run": Is(int(run.removeprefix("run"))),
                "rows": Where(Records(ROW, key="row", among=set(rows), most=len(rows),
                                      complete=True),
                              lambda measured: [r["row"] for r in measured] == rows,
                              "does not list the configuration's rows in order"),
                "states": {"uniform": whole(0, self.sample), "plan": whole(), "dag": whole()}}


def read_table3(path: Path, runs) -> tuple:
    """Table 3's record: its α rows, and per run in `runs` (None: all it has) each row's task
    records (the reference's, run once, in every run) in the order of its test tasks."""
    record = read_results(path, "suboptimality", RECORD)
    if record["domain"] != DOMAIN:
        raise ValueError(f"{path}: Table 3 on the {record['domain'][:40]}, not the {DOMAIN}")
    runs = record["runs"] if runs is None else runs
    for r in runs:
        if r not in record["runs"]:
            raise ValueError(f"{path}: no run {r} (it has runs {record['runs']})")
    ids, alphas = record["config"]["instances"], tuple(record["config"]["alphas"])
    by = {(t["row"], t["run"]): t["records"] for t in record["tests"]}
    found = {}
    for r in runs:
        for row in BlocksTruthConfig(alphas).rows():
            tasks = by.get((row, None if row == REFERENCE else r))
            if tasks is None or [t["id"] for t in tasks] != ids:
                raise ValueError(f"{path}: row {row} of run {r} does not hold the records of the "
                                 f"test tasks {ids[0]}..{ids[-1]}, in order")
            found.setdefault(r, {})[row] = tasks
    return alphas, found


def run_values(row: dict) -> dict:
    """One run's values of the table's columns for one measured row (fractions)."""
    return {"uniform": row["uniform"]["coverage"], "dag": row["dag"]["coverage"],
            "plan": row["plan"]["coverage"], "uniform_y": row["uniform"]["y_coverage"],
            "dag_y": row["dag"]["y_coverage"],
            **{k: row[k] for k in ("held", "held_goal", "bound", "realised")}}


def table(cfg: BlocksTruthConfig, measures: list) -> list:
    """Per row, each column's mean and sd over the runs, in %."""
    rows = []
    for row in cfg.rows():
        values = [run_values(next(x for x in m["rows"] if x["row"] == row)) for m in measures]
        entry = {"row": row, "runs": len(values)}
        for column in COLUMNS:
            present = [100 * v[column] for v in values if v[column] is not None]
            entry[column], entry[f"{column}_sd"] = mean_std(present)
        rows.append(entry)
    return rows


def format_table(rows: list) -> str:
    """The table as text: means over runs (the sd in results.json)."""
    def cell(v, width):
        return f"{'—':>{width}}" if v is None else f"{v:{width}.1f}"
    head = (f"{'row':>7} | {'h<=h*: uniform':>14}{'plans':>7}{'one plan':>9} | "
            f"{'y<=h*: uniform':>14}{'plans':>7} | {'held':>6}{'+goal':>7}{'α^|π*|':>8}"
            f"{'optimal':>8}")
    return "\n".join([head] + [
        f"{r['row']:>7} | {cell(r['uniform'], 14)}{cell(r['dag'], 7)}{cell(r['plan'], 9)} | "
        f"{cell(r['uniform_y'], 14)}{cell(r['dag_y'], 7)} | {cell(r['held'], 6)}"
        f"{cell(r['held_goal'], 7)}{cell(r['bound'], 8)}{cell(r['realised'], 8)}" for r in rows])


def parse_args(argv):
    parser = Parser(prog="python -m la.experiments.ground_truth_blocks",
                    description=first_paragraph(__doc__))
    parser.add_argument("--record", type=existing_file,
                        default=ROOT / "figures" / "table3_15-blocksworld.json",
                        help="Table 3's results on the 15-blocksworld (default "
                             "figures/table3_15-blocksworld.json)")
    parser.add_argument("--networks", type=existing_folder,
                        default=ROOT / "figures" / "table3-15-blocksworld-networks",
                        help="its networks, run<r>/alpha and run<r>/mean (default "
                             "figures/table3-15-blocksworld-networks)")
    parser.add_argument("--sample", type=integer(1, SAMPLE_MAX), default=100_000, metavar="N",
                        help="uniform states measured (default 100,000)")
    add_run_options(parser, "results/ground-truth-15-blocksworld", order=False)
    parser.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                        help="where the networks' PDBs are cached (default: $LA_PDB_DIR, else "
                             "~/.cache/la/pdb); built there first if missing")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    alphas, realised = read_table3(args.record, None if args.run is None else [args.run])
    runs = sorted(realised)
    check_networks(args.networks, runs, DOMAIN)
    cfg = BlocksTruthConfig(alphas, args.sample)
    base = {"config": cfg, "seed": args.seed, "networks": str(args.networks),
            "pdb_dir": None if args.pdb_dir is None else str(args.pdb_dir)}
    for r in runs:                  # the PDBs read, or built, before `out` is touched
        trained_network({**base, "run": r}, "alpha")
    out = args.out or ROOT / "results" / "ground-truth-15-blocksworld"
    command = ["python", "-m", "la.experiments.ground_truth_blocks",
               *(argv if argv is not None else sys.argv[1:])]
    prepare(out, {"config": asdict(cfg), "seed": args.seed, "networks": as_recorded(args.networks),
                  "record": as_recorded(args.record)}, args.resume, command,
            unit_shape=cfg.unit_shape)
    print(f"ground truth on the {DOMAIN}: Table 3's runs {runs} measured against the exact cost, "
          f"results in {out}", flush=True)
    measures = run_units(measure_unit, [
        {**base, "name": f"run{r}/measure", "run": r, "realised": realised[r]} for r in runs],
        out, args.jobs, lambda line: print(line, flush=True))
    record = {"experiment": "ground_truth_blocks", "domain": DOMAIN, "seed": args.seed,
              "config": asdict(cfg), "runs": runs, "record": as_recorded(args.record),
              "networks": as_recorded(args.networks), **provenance(out),
              "table": table(cfg, measures), "measures": measures}
    write_json(out / "results.json", record)
    print(format_table(record["table"]))
    print(f"results: {out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
