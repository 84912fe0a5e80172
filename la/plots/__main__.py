"""`python -m la.plots`: every figure of the reproduction, redrawn from saved results.

    python -m la.plots                                   # redraw figures/*.png from figures/*.json
    python -m la.plots --efficiency results/efficiency-paper/results.json --suboptimality \\
        results/suboptimality-full/results.json --copy   # adopt new results, then redraw
    python -m la.plots --table3 results/table3-24-pancake-full/results.json --copy   # adopt a Table 3 record
    python -m la.plots --confidence results/confidence-15-puzzle/results.json --copy   # and a confidence record

Every record given (or, by default, committed in figures/) is read and checked before any figure is drawn;
then each is drawn by its figure family's module (`la.plots` lists them); --copy also copies each record
into --out as <name>.json (efficiency.json, suboptimality.json, table3_<domain>.json, ...).
"""
import shutil
import sys

from la.experiments.runs.cli import Parser, existing_file, out_folder, run
from la.plots import baselines, confidence, diagnostics, tables
from la.plots.records import read_record, read_table3
from la.plots.style import FIGURES


def main(argv=None) -> int:
    parser = Parser(prog="python -m la.plots", description="Regenerate every figure from saved results.")
    parser.add_argument("--efficiency", type=existing_file, default=FIGURES / "efficiency.json",
                        help="the efficiency experiment's results.json (default figures/efficiency.json)")
    parser.add_argument("--suboptimality", type=existing_file, default=FIGURES / "suboptimality.json",
                        help="the 15-puzzle suboptimality experiment's results.json (default "
                             "figures/suboptimality.json)")
    parser.add_argument("--table3", type=existing_file, action="append", metavar="FILE",
                        help="a Table 3 record (the results.json of la.experiments.suboptimality --domain D), once "
                             "per domain (default: every figures/table3_<domain>.json there is)")
    parser.add_argument("--confidence", type=existing_file, action="append", metavar="FILE",
                        help="a confidence record (the results.json of la.experiments.confidence --domain D), once "
                             "per domain (default: every figures/confidence_<domain>.json there is)")
    parser.add_argument("--baselines", type=existing_file, action="append", metavar="FILE",
                        help="a record of the baselines beside saved networks (suboptimality --only-baselines); "
                             "the records of a domain are drawn as one (default: every figures/baselines_*.json)")
    parser.add_argument("--diagnostics", type=existing_file, default=None,
                        help="the diagnostics experiment's diagnostics.json (default figures/diagnostics.json "
                             "when it is there)")
    parser.add_argument("--out", type=out_folder, default=FIGURES, help="where the figures go (default figures/)")
    parser.add_argument("--copy", action="store_true", help="also copy the results files into --out")
    args = parser.parse_args(argv)
    paths = {"efficiency": args.efficiency, "suboptimality": args.suboptimality}
    diagnostics_path = args.diagnostics or (FIGURES / "diagnostics.json" if (FIGURES / "diagnostics.json").exists()
                                            else None)
    if diagnostics_path:
        paths["diagnostics"] = diagnostics_path
    records = {name: diagnostics.read_diagnostics(path) if name == "diagnostics" else read_record(path, name)
               for name, path in paths.items()}      # every input, before any figure
    if records["suboptimality"].get("domain", "15-puzzle") != "15-puzzle":
        raise ValueError(f"{str(paths['suboptimality'])!r}: holds Table 3 results on the "
                         f"{records['suboptimality']['domain']}: pass it as --table3")
    for domain, (path, record) in read_table3(args.table3 or sorted(FIGURES.glob("table3_*.json"))).items():
        paths[f"table3_{domain}"], records[f"table3_{domain}"] = path, record
    confidence_paths = args.confidence or sorted(FIGURES.glob("confidence_*.json"))
    for domain, (path, record) in confidence.read_all(confidence_paths).items():
        paths[f"confidence_{domain}"], records[f"confidence_{domain}"] = path, record
    for domain, (path, record) in baselines.read_all(args.baselines
                                                     or sorted(FIGURES.glob("baselines_*.json"))).items():
        paths[f"baselines_{domain}"], records[f"baselines_{domain}"] = path, record
    for name, record in records.items():
        path = paths[name]
        if args.copy and path.resolve() != (args.out / f"{name}.json").resolve():
            args.out.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, args.out / f"{name}.json")
        if name == "efficiency":
            tables.table2_efficiency(record, args.out / "table2_efficiency.png")
        elif name == "diagnostics":
            diagnostics.all_from_diagnostics(record, args.out)
        elif name.startswith("confidence_"):
            confidence.draw(record, args.out)
        elif name.startswith("baselines_"):              # beside the saved networks' own rows, if committed
            domain = name.removeprefix("baselines_")
            own = records.get("suboptimality" if domain == "15-puzzle" else f"table3_{domain}")
            if own is not None and own["config"]["alphas"] != record["config"]["alphas"]:
                print(f"{name}: drawn without the saved networks' own rows: the {domain} record given has other α")
                own = None
            baselines.draw(record, args.out, own)
        else:
            for note in tables.all_from_suboptimality(record, args.out):
                print(f"{name}: {note}")
        print(f"drew the {name} figures from {path}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
