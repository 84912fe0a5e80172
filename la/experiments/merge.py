"""Combine the results folders of separate runs of one experiment into the results of the whole.

    python -m la.experiments.merge OUT DIR...     # e.g. the folders of `--runs 10 --run K`, K = 1..10

Each DIR is a finished run of `la.experiments.suboptimality`, `la.experiments.efficiency` or
`la.experiments.confidence` (its results.json written), all of the same experiment. They merge when their
settings agree: the seed and the whole configuration except the number of runs, compared by a hash of them
(`settings_hash`), so folders made on different commits of the same algorithm merge; the command, commit and run
selection (--run K) are provenance, not settings. Every run 1..M must be in exactly one folder. An overlap, a
gap or a mismatch is one line and exit status 2, with nothing written. OUT receives results.json and results.csv,
made by the experiment's own table functions as if the M runs had been one experiment, and its figure(s); the
record lists the command and commit of every folder.
"""
import hashlib
import json
import sys
import typing
from dataclasses import asdict, fields, is_dataclass, replace
from pathlib import Path

from la.experiments.runs.cli import Parser, existing_folder, out_folder, run
from la.experiments.runs.folder import read_experiment

EXPERIMENTS = ("suboptimality", "efficiency", "confidence")
RUNLESS = {"suboptimality": "the baseline row", "confidence": "the GBFS classical row"}   # computed by every folder


def settings_hash(settings: dict) -> str:
    """A hash of what decides a run's results: the settings without the number of runs and the run selection."""
    kept = {**{k: v for k, v in settings.items() if k != "run"},
            "config": {k: v for k, v in settings["config"].items() if k != "runs"}}
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16]


def rebuild(cls, values: dict):
    """The configuration dataclass `cls` from its `asdict` form as JSON kept it (nested dataclasses, tuples)."""
    hints = typing.get_type_hints(cls)
    made = {}
    for f in fields(cls):
        if f.name in values:
            value = values[f.name]
            made[f.name] = rebuild(hints[f.name], value) if is_dataclass(hints[f.name]) else \
                tuple(value) if isinstance(value, list) else value
    cfg = cls(**made)
    if json.loads(json.dumps(asdict(cfg))) != values:
        raise ValueError(f"a configuration recorded in results.json is not a {cls.__name__}")
    return cfg


def read_folder(folder: Path) -> dict:
    """A finished run's experiment.json and results.json, its settings' hash and the runs it holds."""
    about = read_experiment(folder)
    path = folder / "results.json"
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        raise ValueError(f"{folder} holds no finished run (no readable results.json): finish it with --resume "
                         f"first") from None
    if record.get("experiment") not in EXPERIMENTS:
        raise ValueError(f"{path}: experiment {record.get('experiment')!r}, expected one of {', '.join(EXPERIMENTS)}")
    units = record["units"] if record["experiment"] == "efficiency" else record["tests"]
    runs = sorted({u["run"] for u in units if u.get("run") is not None})
    return {"folder": folder, "about": about, "record": record, "hash": settings_hash(about["settings"]),
            "runs": runs}


def check(folders: list) -> list:
    """Refuse mismatched settings, overlapping runs and gaps (ValueError, one line); the runs, in order."""
    first, kind = folders[0], folders[0]["record"]["experiment"]
    for f in folders[1:]:
        if f["record"]["experiment"] != kind:
            raise ValueError(f"{f['folder']} holds a {f['record']['experiment']} experiment and {first['folder']} "
                             f"a {kind} one: they cannot be merged")
        if f["hash"] != first["hash"]:
            config, other = first["about"]["settings"]["config"], f["about"]["settings"]["config"]
            differ = sorted(k for k in set(config) | set(other) if k != "runs" and config.get(k) != other.get(k))
            raise ValueError(f"{f['folder']} and {first['folder']} were made with different settings (hash "
                             f"{f['hash']} vs {first['hash']}" + (f"; config differs in {', '.join(differ)}"
                                                                  if differ else "") + "): they cannot be merged")
    untimed = lambda f: [[{k: v for k, v in r.items() if k != "seconds"} for r in t["records"]]   # noqa: E731
                         for t in f["record"].get("tests", []) if t.get("run") is None]
    for f in folders[1:]:
        if kind in RUNLESS and untimed(f) != untimed(first):
            raise ValueError(f"{f['folder']} and {first['folder']} disagree on {RUNLESS[kind]}, which does not "
                             f"depend on the run: they cannot be merged")
    where = {}
    for f in folders:
        for r in f["runs"]:
            if r in where:
                raise ValueError(f"run {r} is in both {where[r]} and {f['folder']}: merge each run once")
            where[r] = f["folder"]
    missing = sorted(set(range(1, max(where) + 1)) - set(where))
    if missing:
        raise ValueError(f"runs {', '.join(map(str, missing))} of 1..{max(where)} are in none of the folders: "
                         f"add their folders")
    return sorted(where)


def provenance(folders: list, command: list) -> dict:
    """The merge's command, every folder's command and commit, and every commit (each once, in order)."""
    made = [{"folder": str(f["folder"]), "runs": f["runs"], "command": f["about"]["command"],
             "commit": f["about"].get("commit"), "resumed": f["about"].get("resumed", [])} for f in folders]
    commits = [c for m in made for c in [m["commit"], *(r.get("commit") for r in m["resumed"])] if c]
    return {"command": " ".join(command), "commit": made[0]["commit"], "resumed": [],
            "commits": list(dict.fromkeys(commits)), "merged": made}


def merge_efficiency(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import efficiency
    from la.plots import tables as plots_tables
    cfg = replace(rebuild(efficiency.EfficiencyConfig, folders[0]["record"]["config"]), runs=len(runs))
    order = cfg.variants()
    results = sorted((u for f in folders for u in f["record"]["units"]),
                     key=lambda u: (u["run"], order.index(u["variant"])))
    rows = efficiency.table(cfg, results)
    record = efficiency.write_results(out, cfg, folders[0]["record"]["seed"], rows, results, about)
    plots_tables.table2_efficiency(record, out / "table2_efficiency.png")
    return efficiency.format_table(rows, cfg)


def merge_suboptimality(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import suboptimality as sub, table3
    from la.experiments.suboptimality_table import NETWORKS, calibration_table, draw, format_table, table, \
        write_results
    first = folders[0]["record"]
    cls = sub.SuboptimalityConfig if first["domain"] == "15-puzzle" else table3.Table3Config
    cfg = replace(rebuild(cls, first["config"]), runs=len(runs))
    by_run = sorted(folders, key=lambda f: f["runs"][0])
    baseline = [t for t in first["tests"] if t.get("run") is None]             # the same in every folder
    extra = [r["row"] for r in first["table"] if r["row"] not in cfg.rows()]   # --baselines' rows
    order = [*cfg.rows(), *extra]
    tests = baseline + sorted((t for f in by_run for t in f["record"]["tests"] if t.get("run") is not None),
                              key=lambda t: (t["run"], order.index(t["row"])))
    calibrations = [json.loads((f["folder"] / f"run{r}" / "calibration" / "unit.json").read_text())
                    for f in by_run for r in f["runs"]]
    record = {**{k: first[k] for k in ("experiment", "domain", "scale", "seed", "reduced", "calibration_states",
                                       "generate_task", "title", "paper_boot") if k in first},
              "config": asdict(cfg), "runs": runs, **about,
              "table": table(cfg, tests, sub.paper_values(cfg.domain), extra),
              "calibration": calibration_table(calibrations),
              "training": [t for f in by_run for t in f["record"]["training"]],
              "learning_curves": {w: [c for f in by_run for c in f["record"]["learning_curves"].get(w, [])]
                                  for w in NETWORKS},
              "tests": tests}
    if cfg.calibration_random:
        record["calibration_random"] = calibration_table(calibrations, "calibration_random")
    if "baselines" in first:
        record.update(baselines=first["baselines"], conformal=[c for f in by_run for c in f["record"]["conformal"]])
    write_results(out, record, tests)
    draw(record, out)
    return format_table(record["table"], table3.BOOT.get(cfg.domain))


def of_runs(folders: list, key: str) -> list:
    """The folders' units under `key` that belong to a run, each folder's in its own order, stably sorted by run:
    their order in one folder of `--runs N`."""
    return sorted((u for f in folders for u in f["record"][key] if u.get("run") is not None), key=lambda u: u["run"])


def merge_confidence(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import confidence, confidence_table as tables
    from la.experiments.confidence_config import ConfidenceConfig
    from la.plots import confidence as plots_confidence
    first = folders[0]["record"]
    cfg = replace(rebuild(ConfidenceConfig, first["config"]), runs=len(runs))
    # The GBFS classical row (unit "classical", run None) belongs to no run: every folder computes it, `check`
    # found the copies equal but for their times, and the first folder's copy is kept, ahead of the runs' rows as
    # in one folder.
    classical = [t for t in first["tests"] if t.get("run") is None]
    teachers, trained, searched = (of_runs(folders, key) for key in ("teacher", "training", "tests"))
    record = confidence.results_record(cfg, first["quick"], first["seed"], runs, about, teachers, trained,
                                       classical + searched)
    tables.write_results(out, record)
    plots_confidence.draw(record, out)
    return tables.format_tables(record)


MERGES = {"suboptimality": merge_suboptimality, "efficiency": merge_efficiency, "confidence": merge_confidence}


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.experiments.merge", description=__doc__.split("\n")[0])
    parser.add_argument("out", type=out_folder, metavar="OUT", help="the merged results folder (new or empty)")
    parser.add_argument("dirs", type=existing_folder, nargs="+", metavar="DIR", help="finished runs' folders")
    args = parser.parse_args(argv)
    if len({d.resolve() for d in args.dirs}) < len(args.dirs):
        raise ValueError("a folder is named twice: merge each folder once")
    if args.out.exists() and any(args.out.iterdir()):
        raise ValueError(f"{args.out} is not empty: choose a new folder for the merged results")
    folders = [read_folder(d) for d in args.dirs]
    runs = check(folders)
    command = ["python", "-m", "la.experiments.merge", *(argv if argv is not None else sys.argv[1:])]
    about = provenance(folders, [str(c) for c in command])
    args.out.mkdir(parents=True, exist_ok=True)
    print(MERGES[folders[0]["record"]["experiment"]](args.out, folders, runs, about))
    print(f"merged runs 1..{len(runs)} of {len(folders)} folders: {args.out / 'results.json'}, "
          f"{args.out / 'results.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
