"""The run archives that left figures/ (figures/ARCHIVES.md): a run folder of Table 1's gap, or of
Table 2 at the paper's protocol, keeps only what something reads, figures/ stays within its budget,
and with --slow every archive comes back from the commit its row names and holds what the section
says its files were for."""
import io
import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from la.domains.names import make_domain
from la.experiments import efficiency
from la.experiments.merge_check import config_of
from la.experiments.suboptimality_table import learning_curves
from la.runs.network import load_network, network_encoding

ROOT = Path(__file__).resolve().parents[1]
GAP, PAPER = "figures/table1-gap", "figures/efficiency-paper"
ARCHIVES = (ROOT / "figures" / "ARCHIVES.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| `(figures/[^`]+)/` \| (\d+) files, ([\d.]+) MB \| "
                 r"`git checkout ([0-9a-f]{40}) -- \1` \|$", re.M)


def section(title: str) -> str:
    """The text of ARCHIVES.md's section `## title`, up to the next section ('' if it has none)."""
    return "".join(part.removeprefix(title + "\n")
                   for part in re.split(r"^## ", ARCHIVES, flags=re.M)
                   if part.startswith(title + "\n"))


def rows(text: str) -> list:
    """(folder, commit) of each restore row of `text`."""
    return [(folder, commit) for folder, _, _, commit in ROW.findall(text)]


ROWS = rows(section("The archives"))                                 # Table 1's gap: one commit
PAPER_ROWS = rows(section("Table 2's runs at the paper's protocol"))  # a commit per row
MAX_FILES, MAX_BYTES = 400, 80_000_000          # figures/ outside unfinished/ (issue 54)
REMOVED = re.compile(                            # the kinds of files the table says left
    r"run\d+/(alpha|mean)/(checkpoint\.npz|train_log\.json|snapshots/iter\d\d-(wunn|ffnn)\.npz)"
    r"|run\d+/alpha/generate_task\.json|run\d+/[\w.-]+/(unit\.json|progress\.log)"
    r"|run\d+/test-[\w.-]+/tasks\.json|\w+\.png|results\.csv")
PAPER_KEPT = ["experiment.json", "results.json"]  # what a Table 2 run folder keeps


def kept(name: str, k: int) -> bool:
    """Whether `name`, relative to the folder of run K, is what the folder keeps (ARCHIVES.md)."""
    return name in ("results.json", "experiment.json", f"run{k}/calibration/unit.json",
                    f"run{k}/alpha/network.npz", f"run{k}/mean/network.npz")


def git(*args, check=True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=check)


@pytest.fixture
def tracked() -> list:
    """The files git tracks under figures/, outside unfinished/: the checks need a git checkout."""
    if shutil.which("git") is None or git("rev-parse", "--is-inside-work-tree",
                                          check=False).returncode != 0:
        pytest.skip("not a git checkout")
    listed = git("ls-files", "-z", "figures", ":!figures/unfinished").stdout.decode()
    return listed.split("\0")[:-1]


def run_of(folder: str) -> int:
    return int(re.fullmatch(r"run(\d+)", Path(folder).name)[1])


def run_folders(pattern: str) -> list:
    """The run folders `runK` with a record under ROOT/`pattern`, relative to ROOT."""
    return sorted(str(p.parent.relative_to(ROOT)) for p in ROOT.glob(pattern)
                  if re.fullmatch(r"run\d+", p.parent.name))


def test_every_restore_row_is_in_one_of_the_two_sections():
    named = [line for line in ARCHIVES.splitlines() if "| `git checkout " in line]
    assert len(named) == len(ROW.findall(ARCHIVES)) == len(ROWS) + len(PAPER_ROWS) > 0
    assert all(folder.startswith(GAP + "/") for folder, _ in ROWS)
    assert all(folder.startswith(PAPER + "/") for folder, _ in PAPER_ROWS)


def test_the_table_names_every_run_folder_once_with_one_commit():
    folders = run_folders(f"{GAP}/*/run*/results.json")
    assert sorted(path for path, _ in ROWS) == folders and len(folders) == 23
    assert len({commit for _, commit in ROWS}) == 1


def test_table_2s_section_names_every_run_folder_once():
    folders = run_folders(f"{PAPER}/run*/results.json")
    assert sorted(path for path, _ in PAPER_ROWS) == folders and len(folders) >= 8


def test_a_run_folder_keeps_only_what_is_read(tracked):
    for folder, _ in ROWS:
        inside = [n.removeprefix(folder + "/") for n in tracked if n.startswith(folder + "/")]
        extra = [name for name in inside if not kept(name, run_of(folder))]
        assert not extra, f"{folder} keeps what figures/ARCHIVES.md says it does not: {extra}"
        k = run_of(folder)
        assert {"results.json", "experiment.json", f"run{k}/calibration/unit.json"} <= set(inside)


def test_a_table_2_run_folder_keeps_only_its_record_and_settings(tracked):
    for folder, _ in PAPER_ROWS:
        inside = sorted(n.removeprefix(folder + "/") for n in tracked if n.startswith(folder + "/"))
        assert inside == PAPER_KEPT, f"{folder} keeps {inside}; figures/ARCHIVES.md: {PAPER_KEPT}"


def test_figures_stays_within_its_budget(tracked):
    size = sum((ROOT / name).stat().st_size for name in tracked)
    assert len(tracked) <= MAX_FILES and size <= MAX_BYTES, \
        f"figures/ outside unfinished/: {len(tracked)} files, {size / 1e6:.1f} MB"


def restore(commit: str, folder: str, into: Path) -> Path:
    """The archive `folder` as commit `commit` holds it, written under `into` (git archive:
    nothing in the repository's tree or index changes)."""
    archive = git("archive", "--format=tar", commit, folder).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return into / folder


def restorable(folder: str, commit: str, request) -> None:
    """Skip unless --slow, or in a shallow clone that lacks `commit`; fail if a full clone does."""
    if not request.config.getoption("--slow"):
        pytest.skip(f"restores {folder} from commit {commit} with git archive: run with --slow")
    if git("cat-file", "-e", f"{commit}^{{commit}}", check=False).returncode != 0:
        if git("rev-parse", "--is-shallow-repository").stdout.strip() == b"true":
            pytest.skip(f"commit {commit} is not in this shallow clone: git fetch --unshallow")
        pytest.fail(f"figures/ARCHIVES.md names commit {commit} for {folder}: no such commit")


def files_of(whole: Path) -> list:
    return sorted(str(p.relative_to(whole)) for p in whole.rglob("*") if p.is_file())


def as_it_was(whole: Path, folder: str, tracked: list) -> None:
    """Each file the tree keeps of `folder` is in the archive `whole`: byte for byte, or for a JSON
    record value for value (the records were rewritten one flat entry per line, la.io.dumps)."""
    for name in (n.removeprefix(folder + "/") for n in tracked if n.startswith(folder + "/")):
        then, now = (whole / name).read_bytes(), (ROOT / folder / name).read_bytes()
        if name.endswith(".json"):
            then, now = json.loads(then), json.loads(now)
        assert then == now, name


@pytest.mark.parametrize("folder, commit", ROWS,
                         ids=[path.removeprefix(GAP + "/") for path, _ in ROWS])
def test_an_archive_comes_back_from_its_commit(folder, commit, tracked, tmp_path, request):
    restorable(folder, commit, request)
    whole, k = restore(commit, folder, tmp_path), run_of(folder)
    names = files_of(whole)
    as_it_was(whole, folder, tracked)
    assert [n for n in names if not kept(n, k) and not REMOVED.fullmatch(n)] == []
    record = json.loads((whole / "results.json").read_text())

    def unit(name: str) -> dict:
        return json.loads((whole / f"run{k}" / name / "unit.json").read_text())

    assert [unit(t["network"]) for t in record["training"]] == record["training"]
    for test in record["tests"]:
        name = "test-mean" if test["row"] == "N/A" else f"test-{test['row']}"
        assert {key: v for key, v in unit(name).items() if key != "summary"} == test
        assert json.loads((whole / f"run{k}" / name / "tasks.json").read_text()) == test["records"]
    assert learning_curves(whole, record["config"]["runs"]) == record["learning_curves"]
    walk = json.loads((whole / f"run{k}" / "alpha" / "generate_task.json").read_text())
    assert record["generate_task"] == (walk if k == 1 else None)     # runs 2-10's: in no record
    assert (whole / f"run{k}" / "alpha" / "checkpoint.npz").is_file()


@pytest.mark.parametrize("folder, commit", PAPER_ROWS,
                         ids=[path.removeprefix(PAPER + "/") for path, _ in PAPER_ROWS])
def test_a_table_2_archive_comes_back_from_its_commit(folder, commit, tracked, tmp_path, request):
    restorable(folder, commit, request)
    whole, k = restore(commit, folder, tmp_path / "archive"), run_of(folder)
    as_it_was(whole, folder, tracked)
    record = json.loads((whole / "results.json").read_text())
    cfg = config_of(record, whole / "results.json")
    networks = [f"run{k}/{variant}/network.npz" for variant in cfg.variants()]  # GTP, 1, ..., 10
    assert len(networks) == 7 and files_of(whole) == sorted(PAPER_KEPT + networks + ["results.csv"])
    removed = [whole / name for name in networks + ["results.csv"]]
    said = {f: (int(count), mb) for f, count, mb, _ in ROW.findall(ARCHIVES)}[folder]
    assert said == (len(removed), f"{sum(p.stat().st_size for p in removed) / 1e6:.2f}")
    puzzle = make_domain("15-puzzle")
    for name in networks:
        net, about = load_network(whole / name, puzzle)      # Table 2's: single-output, 15-puzzle
        assert net.n_out == 1 and net.n_in == network_encoding(about).size, name
    # the CSV: what the experiment's writer makes of the record's units, whose table the record has
    assert efficiency.table(cfg, record["units"]) == record["table"]
    again = tmp_path / "again"
    again.mkdir()
    efficiency.write_results(again, cfg, record["seed"], record["table"], record["units"],
                             {"command": record["command"]})
    assert (whole / "results.csv").read_text() == (again / "results.csv").read_text()
