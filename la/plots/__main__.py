"""`python -m la.plots`: every figure of the reproduction, redrawn from saved results.

    python -m la.plots                                   # redraw figures/*.png from figures/*.json
    python -m la.plots --efficiency results/efficiency-paper/results.json --suboptimality \\
        results/suboptimality-full/results.json --copy   # adopt new results, then redraw
    python -m la.plots --table3 results/table3-24-pancake-full/results.json --copy
                                                         # adopt a Table 3 record
    python -m la.plots --confidence results/confidence-15-puzzle/results.json --copy
                                                         # and a confidence record

Every record given (or, by default, committed in figures/) is read and checked, and every file it
will write in --out too (none may be a folder), before any figure is drawn; then each is drawn by
its figure family's module (`la.plots` lists them); --copy also copies each record into --out as
<name>.json (efficiency.json, suboptimality.json, table3_<domain>.json, ...), except those already
in --out (the default reads figures/*_boot.json and *_run<K>.json there, which stay as they are).
All or nothing: the files are written into a temporary folder inside --out and moved into place only
when every one is complete (`all_or_none`).
"""
import contextlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from la.io import PARTIAL
from la.plots import baselines, confidence, confidence_tables, diagnostics, tables
from la.plots.records import read_record, read_table3
from la.plots.style import FIGURES
from la.runs.cli import Parser, existing_file, out_folder, run, when_stopped


def parse_args(argv):
    parser = Parser(prog="python -m la.plots",
                    description="Regenerate every figure from saved results.")
    parser.add_argument("--efficiency", type=existing_file, default=FIGURES / "efficiency.json",
                        help="the efficiency experiment's results.json (default "
                             "figures/efficiency.json)")
    parser.add_argument("--suboptimality", type=existing_file,
                        default=FIGURES / "suboptimality.json",
                        help="the 15-puzzle suboptimality experiment's results.json (default "
                             "figures/suboptimality.json)")
    parser.add_argument("--table3", type=existing_file, action="append", metavar="FILE",
                        help="a Table 3 record (the results.json of la.experiments.suboptimality "
                             "--domain D), once per domain "
                             "(default: every figures/table3_<domain>.json there is)")
    parser.add_argument("--confidence", type=existing_file, action="append", metavar="FILE",
                        help="a confidence record (the results.json of la.experiments.confidence "
                             "--domain D), once per domain "
                             "(default: every figures/confidence_<domain>.json there is)")
    parser.add_argument("--baselines", type=existing_file, action="append", metavar="FILE",
                        help="a record of the baselines beside saved networks "
                             "(suboptimality --only-baselines); the records of a domain are drawn "
                             "as one (default: every figures/baselines_*.json)")
    parser.add_argument("--diagnostics", type=existing_file, default=None,
                        help="the diagnostics experiment's diagnostics.json "
                             "(default figures/diagnostics.json when it is there)")
    parser.add_argument("--out", type=out_folder, default=FIGURES,
                        help="where the figures go (default figures/)")
    parser.add_argument("--copy", action="store_true",
                        help="also copy the results files into --out")
    return parser.parse_args(argv)


def read_all(args) -> tuple:
    """Every record to draw, checked: ({name: record}, {name: its file})."""
    paths = {"efficiency": args.efficiency, "suboptimality": args.suboptimality}
    diagnostics_path = args.diagnostics or (FIGURES / "diagnostics.json"
                                            if (FIGURES / "diagnostics.json").exists() else None)
    if diagnostics_path:
        paths["diagnostics"] = diagnostics_path
    records = {name: diagnostics.read_diagnostics(path) if name == "diagnostics"
               else read_record(path, name)
               for name, path in paths.items()}
    if records["suboptimality"].get("domain", "15-puzzle") != "15-puzzle":
        raise ValueError(f"{str(paths['suboptimality'])!r}: holds Table 3 results on the "
                         f"{records['suboptimality']['domain']}: pass it as --table3")
    families = (("table3", read_table3(args.table3 or sorted(FIGURES.glob("table3_*.json")))),
                ("confidence",
                 confidence.read_all(args.confidence or sorted(FIGURES.glob("confidence_*.json")))),
                ("baselines",
                 baselines.read_all(args.baselines or sorted(FIGURES.glob("baselines_*.json")))))
    for family, by_domain in families:
        for domain, (path, record) in by_domain.items():
            paths[f"{family}_{domain}"], records[f"{family}_{domain}"] = path, record
    return records, paths


def plan(name: str, record: dict, records: dict) -> tuple:
    """(the files `name`'s figures go to, a function drawing them into a folder that returns lines
    to print)."""
    if name == "efficiency":
        files = ["table2_efficiency.png"]

        def draw(folder):
            tables.table2_efficiency(record, folder / files[0])
            return []
    elif name == "diagnostics":
        files = list(diagnostics.FIGURE_NAMES)

        def draw(folder):
            diagnostics.all_from_diagnostics(record, folder)
            return []
    elif name.startswith("confidence_"):
        files = list(confidence.figure_names(record).values())

        def draw(folder):
            confidence.draw(record, folder)
            return []
    elif name.startswith("baselines_"):
        # beside the saved networks' own rows, if committed
        domain, notes = name.removeprefix("baselines_"), []
        own = records.get("suboptimality" if domain == "15-puzzle" else f"table3_{domain}")
        if own is not None and own["config"]["alphas"] != record["config"]["alphas"]:
            notes.append(f"{name}: drawn without the saved networks' own rows: "
                         f"the {domain} record given has other α")
            own = None
        # a row measured twice is refused here
        files = list(baselines.drawn_figures(record, own).values())

        def draw(folder):
            baselines.draw(record, folder, own)
            return notes
    else:
        files = list(tables.drawn_figures(record).values())

        def draw(folder):
            return [f"{name}: {note}" for note in tables.all_from_suboptimality(record, folder)]
    return files, draw


def across_domains(records: dict, out: Path) -> list:
    """The records `confidence_tables.png` in `out` draws: each confidence record given
    (or committed) with Table 3's rows and, for every other domain, the record `out` already holds
    (confidence_<domain>.json, checked), so that redrawing one domain keeps the others in the
    figure. Earlier runs' records (…_run<K>.json) are left out."""
    current = {r["domain"]: r for name, r in records.items() if name.startswith("confidence_")
               and "figure_stem" not in r}
    for path in sorted(out.glob("confidence_*.json")) if out.is_dir() else []:
        if (not confidence.ARCHIVE.fullmatch(path.stem)
                and path.stem.removeprefix("confidence_") not in current):
            record = confidence.read_confidence(path)
            current.setdefault(record["domain"], record)
    return [current[domain] for domain in sorted(current) if current[domain].get("table3")]


def all_plans(records: dict, out: Path) -> dict:
    """Every `plan` by record's name, and the figure across the confidence records' domains
    (`across_domains`)."""
    plans = {name: plan(name, record, records) for name, record in records.items()}
    across = across_domains(records, out)
    if across:
        def draw(folder):
            confidence_tables.across_domains(across, folder / confidence_tables.ACROSS)
            return [f"drew {confidence_tables.ACROSS} from the confidence records of the "
                    + ", ".join(r["domain"] for r in across)]
        plans["confidence_tables"] = ([confidence_tables.ACROSS], draw)
    return plans


def check_targets(out: Path, names: list) -> None:
    """Refuse, before anything is drawn, a file to be written in `out` that is a folder: nothing can
    replace it."""
    for name in names:
        try:
            mode = os.lstat(out / name).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(mode):
            raise ValueError(f"{str(out / name)!r} is a folder, where la.plots would write a file "
                             f"(move the folder away, or choose another --out)")


@contextlib.contextmanager
def all_or_none(out: Path):
    """A temporary folder inside `out` to write into; its files are moved into `out` only when every
    one is complete. A failure part-way (a full disk, a record a figure cannot draw) leaves `out` as
    it was: no half-written file, no new figures beside old ones, and the folders made for `out`
    removed again."""
    # deepest first
    made = [p for p in (out.absolute(), *out.absolute().parents) if not p.exists()]
    folder = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=PARTIAL, dir=out)).absolute()
        yield folder
        done = sorted(folder.iterdir())
    except BaseException as error:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        for place in made:
            with contextlib.suppress(OSError):
                # only if empty: never what someone else put there meanwhile
                place.rmdir()
        if isinstance(error, OSError):
            where = Path(error.filename).absolute() if error.filename else None
            where = (out / where.relative_to(folder)
                     if where and folder and where.is_relative_to(folder) else out)
            raise ValueError(f"cannot write {str(where)!r} ({error.strerror or error}): "
                             f"no figure was written") from None
        raise
    # a rename in one file system: no new data, nothing half-done
    for file in done:
        os.replace(file, out / file.name)
    folder.rmdir()


def copy(path: Path, target: Path) -> None:
    """A results file copied to `target`; an error names `target`."""
    try:
        shutil.copyfile(path, target)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(target)) from None


def main(argv=None) -> int:
    args = parse_args(argv)
    # every input, before any figure
    records, paths = read_all(args)
    plans = all_plans(records, args.out)
    # a record already in --out is adopted: not copied
    copies = [name for name, path in paths.items()
              if args.copy and Path(path).resolve().parent != args.out.resolve()]
    check_targets(args.out,
                  [f for files, _ in plans.values() for f in files] + [f"{n}.json" for n in copies])
    lines = []
    when_stopped(f"no figure was written in {args.out}; run the same command again")
    with all_or_none(args.out) as folder:
        for name, (_, draw) in plans.items():
            if name in copies:
                copy(paths[name], folder / f"{name}.json")
            lines += draw(folder) + ([f"drew the {name} figures from {paths[name]}"]
                                     if name in paths else [])
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
