"""Combine the results folders of separate runs of one experiment into the results of the whole.

    python -m la.experiments.merge OUT DIR...  # e.g. the folders of `--runs 10 --run K`, K = 1..10

Each DIR is a finished run of `la.experiments.suboptimality`, `la.experiments.efficiency`,
`la.experiments.confidence` or `la.experiments.ground_truth` (its results.json written), all of the
same experiment (of the ground truth: one domain and one arm, both in its settings). They merge when
their settings agree: the seed and the whole configuration except the number of runs, compared by a
hash of them (`la.experiments.merge_check.settings_hash`), so folders made on different commits of
the same algorithm merge; the command, commit and run selection (--run K) are provenance, not
settings, and so are the suboptimality rows each folder tested (--rows): a row stands on the runs
that tested it, its `runs` in the table. Every run 1..M must be in exactly one folder. An overlap, a
gap or a mismatch is one line and exit status 2, with nothing written. OUT receives results.json and
results.csv, made by the experiment's own table functions as if the M runs had been one experiment,
and its figure(s); the record lists the command and commit of every folder.

Every file the merge reads is read and checked (`merge_check.SHAPES`: all that the table functions
read) before anything is written, so a damaged folder is refused in one line naming the file. Should
a write still fail (a full disk), or the merge be stopped (Ctrl-C, SIGTERM), what it wrote is
removed: OUT is left as it was, empty or absent. The files are written into a temporary folder in
OUT and moved into place at the end, under OUT's lock (`la.runs.lock`): a second merge into the same
OUT meanwhile is refused, and what a merge killed outright (SIGKILL) leaves, a `.tmp-*` folder and
the lock file, is removed by the next merge into OUT.
"""
import contextlib
import os
import shutil
import sys
import tempfile
from dataclasses import asdict, replace
from pathlib import Path

from la.experiments.merge_check import check, read_folder
from la.io import PARTIAL
from la.runs.cli import Parser, existing_folder, first_paragraph, out_folder, run, when_stopped
from la.runs.lock import LOCK, FolderInUse, hold, release


def provenance(folders: list, command: list) -> dict:
    """The merge's command, every folder's command and commit, and every commit (each once, in
    order)."""
    made = [{"folder": str(f["folder"]), "runs": f["runs"], "command": f["about"]["command"],
             "commit": f["about"].get("commit"), "resumed": f["about"].get("resumed", [])}
            for f in folders]
    commits = [c for m in made for c in [m["commit"], *(r.get("commit") for r in m["resumed"])]
               if c]
    return {"command": " ".join(command), "commit": made[0]["commit"], "resumed": [],
            "commits": list(dict.fromkeys(commits)), "merged": made}


def merge_efficiency(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import efficiency
    from la.plots import tables as plots_tables
    cfg = replace(folders[0]["config"], runs=len(runs))
    order = cfg.variants()
    results = sorted((u for f in folders for u in f["record"]["units"]),
                     key=lambda u: (u["run"], order.index(u["variant"])))
    rows = efficiency.table(cfg, results)
    record = efficiency.write_results(out, cfg, folders[0]["record"]["seed"], rows, results, about)
    plots_tables.table2_efficiency(record, out / "table2_efficiency.png")
    return efficiency.format_table(rows, cfg)


def merge_suboptimality(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import suboptimality as sub, table3
    from la.experiments.suboptimality_table import NETWORKS, calibration_table, draw, \
        format_table, table, write_results
    first = folders[0]["record"]
    cfg = replace(folders[0]["config"], runs=len(runs))
    by_run = sorted(folders, key=lambda f: f["runs"][0])
    # the same in every folder
    baseline = [t for t in first["tests"] if t.get("run") is None]
    extra = [r["row"] for r in first["table"] if r["row"] not in cfg.rows()]   # --baselines' rows
    order = [*cfg.rows(), *extra]
    tests = baseline + sorted((t for f in by_run for t in f["record"]["tests"]
                               if t.get("run") is not None),
                              key=lambda t: (t["run"], order.index(t["row"])))
    calibrations = [c for f in by_run for c in f["calibrations"]]
    record = {**{k: first[k] for k in ("experiment", "domain", "scale", "seed", "reduced",
                                       "calibration_states", "generate_task", "title",
                                       "paper_boot") if k in first},
              "config": asdict(cfg), "runs": runs, **about,
              "table": table(cfg, tests, sub.paper_values(cfg.domain), extra),
              "calibration": calibration_table(calibrations),
              "training": [t for f in by_run for t in f["record"]["training"]],
              "learning_curves": {w: [c for f in by_run
                                      for c in f["record"]["learning_curves"].get(w, [])]
                                  for w in NETWORKS},
              "tests": tests}
    if cfg.calibration_random:
        record["calibration_random"] = calibration_table(calibrations, "calibration_random")
    # the same in every folder
    record.update({"sampler": first["sampler"]} if "sampler" in first else {})
    rows = [row for row in order if any(row in f["record"].get("rows", order) for f in by_run)]
    if rows != order:                             # some rows were left out by every folder's --rows
        record["rows"] = rows
    if any("machine" in f["record"] for f in by_run):                      # what each folder ran on
        record["machines"] = [f["record"].get("machine") for f in by_run]
    if "baselines" in first:
        record.update(baselines=first["baselines"],
                      conformal=[c for f in by_run for c in f["record"]["conformal"]])
    write_results(out, record, tests)
    draw(record, out)
    return format_table(record["table"], table3.BOOT.get(cfg.domain))


def of_runs(folders: list, key: str) -> list:
    """The folders' units under `key` that belong to a run, each folder's in its own order, stably
    sorted by run: their order in one folder of `--runs N`."""
    return sorted((u for f in folders for u in f["record"][key] if u.get("run") is not None),
                  key=lambda u: u["run"])


def merge_confidence(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments import confidence, confidence_table as tables
    from la.plots import confidence as plots_confidence
    first = folders[0]["record"]
    cfg = replace(folders[0]["config"], runs=len(runs))
    # The GBFS classical row (unit "classical", run None) belongs to no run: every folder computes
    # it, `check` found the copies equal but for their times, and the first folder's copy is kept,
    # ahead of the runs' rows as in one folder.
    classical = [t for t in first["tests"] if t.get("run") is None]
    teachers, trained, searched = (of_runs(folders, key)
                                   for key in ("teacher", "training", "tests"))
    record = confidence.results_record(cfg, first["quick"], first["seed"], runs, about, teachers,
                                       trained, classical + searched)
    tables.write_results(out, record)
    plots_confidence.draw(record, out)
    return tables.format_tables(record)


def merge_ground_truth(out: Path, folders: list, runs: list, about: dict) -> str:
    from la.experiments.ground_truth_table import format_table, results_record, write_results
    from la.plots.ground_truth import draw
    first = folders[0]["record"]
    cfg = replace(folders[0]["config"], runs=len(runs))
    by_run = sorted(folders, key=lambda f: f["runs"][0])
    units = {key: sorted((u for f in by_run for u in f["record"].get(key, [])),
                         key=lambda u: u["run"])
             for key in ("training", "tests", "measures", "reference", "conformal")}
    record = results_record(cfg, first["quick"], first["seed"], runs,
                            {**about, "machines": [f["record"].get("machine") for f in by_run]},
                            **units)
    write_results(out, record)
    draw(record, out)
    return format_table(record["table"])


MERGES = {"suboptimality": merge_suboptimality, "efficiency": merge_efficiency,
          "confidence": merge_confidence, "ground_truth": merge_ground_truth}


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.experiments.merge", description=first_paragraph(__doc__))
    parser.add_argument("out", type=out_folder, metavar="OUT",
                        help="the merged results folder (new or empty)")
    parser.add_argument("dirs", type=existing_folder, nargs="+", metavar="DIR",
                        help="finished runs' folders")
    args = parser.parse_args(argv)
    if len({d.resolve() for d in args.dirs}) < len(args.dirs):
        raise ValueError("a folder is named twice: merge each folder once")
    _check_empty(args.out)
    folders = [read_folder(d) for d in args.dirs]
    runs = check(folders)
    command = ["python", "-m", "la.experiments.merge",
               *(argv if argv is not None else sys.argv[1:])]
    about = provenance(folders, [str(c) for c in command])
    # deepest first
    created = [p for p in [args.out, *args.out.absolute().parents] if not p.exists()]
    args.out.mkdir(parents=True, exist_ok=True)
    when_stopped(f"nothing was written in {args.out}; run the same merge again")
    try:
        hold(args.out)
    except FolderInUse as error:             # OUT is positional: the lock's own advice names --out
        _remove_folders(created)
        raise ValueError(f"{args.out} is being written by another merge or run (process "
                         f"{error.holder}): wait for it to end, or name another OUT folder"
                         ) from None
    except BaseException:
        _remove_folders(created)
        raise
    try:
        _check_empty(args.out)               # again, now that no other merge can write there
    except BaseException:
        _unlock(args.out)
        raise
    try:
        text = _merge_into(args.out, folders, runs, about)
    except BaseException:
        remove_written(args.out, created)
        raise
    finally:
        release(args.out)
    print(text)
    print(f"merged runs 1..{len(runs)} of {len(folders)} folders: {args.out / 'results.json'}, "
          f"{args.out / 'results.csv'}")
    return 0


def _check_empty(out: Path) -> None:
    """Refuse an OUT that holds anything but what a merge stopped by SIGKILL leaves (its lock file,
    its temporary folder): a merge writes into a new or empty folder."""
    found = sorted(p.name for p in out.iterdir() if not _leftover(p)) if out.is_dir() else []
    if "results.json" in found:
        raise ValueError(f"{out} already holds merged results (results.json): name another OUT "
                         "folder, or delete that one to merge again")
    if found:
        listed = ", ".join(found[:3]) + (", ..." if len(found) > 3 else "")
        raise ValueError(f"{out} is not empty ({listed}): a merge writes into a new or empty "
                         "folder; name another OUT folder")


def _leftover(path: Path) -> bool:
    return path.name == LOCK or path.name.startswith(PARTIAL)


def _merge_into(out: Path, folders: list, runs: list, about: dict) -> str:
    """Write the merged results into a temporary folder inside OUT, then move them into OUT: a merge
    stopped on the way leaves no file that looks finished. Called holding OUT's lock."""
    for path in out.iterdir():               # a merge killed earlier: no other process writes here
        if path.name.startswith(PARTIAL) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.name.startswith(PARTIAL):
            path.unlink()
    staging = Path(tempfile.mkdtemp(prefix=PARTIAL, dir=out))
    text = MERGES[folders[0]["record"]["experiment"]](staging, folders, runs, about)
    for path in sorted(staging.iterdir()):
        os.replace(path, out / path.name)
    staging.rmdir()
    (out / LOCK).unlink()                    # removed while held: what stays is the results alone
    return text


def remove_written(out: Path, created: list) -> None:
    """Undo a merge that failed part-way (a full disk, Ctrl-C, SIGTERM): OUT was empty, so all in
    it is the merge's (its lock file too, removed while held); then remove the folders the merge
    created."""
    for path in out.iterdir():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    _remove_folders(created)


def _remove_folders(created: list) -> None:
    """Remove the folders this merge created, deepest first, while they are empty."""
    for folder in created:
        try:
            folder.rmdir()
        except OSError:                      # another merge's meanwhile, or not empty: leave it
            return


def _unlock(out: Path) -> None:
    """Give up OUT without writing in it: its lock file goes, and the lock."""
    with contextlib.suppress(FileNotFoundError):
        (out / LOCK).unlink()
    release(out)


if __name__ == "__main__":
    sys.exit(run(main))
