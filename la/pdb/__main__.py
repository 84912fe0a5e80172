"""Build a domain's pattern databases ahead of time.

    python -m la.pdb build --domain 24-puzzle
    python -m la.pdb build --domain 15-puzzle --pdb-dir pdbs

Each PDB missing from the cache folder is built, with one progress line on stderr and an estimate of
the time left, and saved; those already there are checked (and built again if damaged). Then one
line per PDB on stdout. A folder without room for the missing PDBs, or that cannot be written while
some are missing, is refused before the first build. Exit status: 0 done, 2 bad input.
"""
import argparse
import sys

from la.pdb.sets import DOMAINS, load_set
from la.pdb.store import default_folder
from la.runs.cli import Parser, first_paragraph, pdb_folder, run
from la.runs.progress import BuildProgress

EPILOG = (
    "the cache folder: --pdb-dir if given, else $LA_PDB_DIR, "
    "else la/pdb under $XDG_CACHE_HOME (~/.cache).\n"
    "sets: 15-puzzle (Korf & Felner's 6-6-3 partition and its reflection), "
    "24-puzzle (partitions A and B,\n"
    "  5-5-5-5-4 each), 24-pancake (partitions A and B), "
    "15-blocksworld (twelve 4-block patterns).\n"
)


def parse_args(argv):
    parser = Parser(prog="python -m la.pdb", description=first_paragraph(__doc__), epilog=EPILOG,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser,
                                     metavar="command")
    build = commands.add_parser("build", help="build (or check) the PDBs of one domain",
                                description="Build (or check) the PDBs of one domain.",
                                epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    build.add_argument("--domain", required=True, choices=DOMAINS, metavar="D",
                       help=", ".join(DOMAINS))
    build.add_argument("--pdb-dir", type=pdb_folder, metavar="DIR",
                       help="the cache folder (default: $LA_PDB_DIR, else ~/.cache/la/pdb); "
                            "a read-only one is "
                            "checked, and refused only if a PDB must be built there")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    folder = args.pdb_dir if args.pdb_dir is not None else default_folder()
    for name, pdbs in load_set(args.domain, folder, BuildProgress()).items():
        for pdb in pdbs:
            print(f"{args.domain} {name}: {list(pdb.abstraction.pattern)}  "
                  f"{pdb.abstraction.size:,} entries  "
                  f"max {pdb.max}")
    print(f"in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
