"""Heller et al.'s Tables 2 and 3 beside the paper (`la/plots/confidence.py` draws the confidence
record's other figures).

- `tables` (confidence_<domain>_tables.png): the changes of coverage from each block's base row, in
  points, on one domain (mean over runs, error bar: standard error), beside the paper's mean and
  range over its IPC domains (8; the hard block's 7, Storage having no hard task).
- `across_domains` (confidence_tables.png): the same for every domain at once, one marker per
  domain.

`panels` finds a record's values for each panel; the paper's are `PAPER_TABLE2` and `PAPER_TABLE3`.
"""
import numpy as np

from la.heller.paper import BLOCKS, PAPER_TABLE2, PAPER_TABLE3
from la.plots import style
from la.plots.style import or_nan, plt

ACROSS = "confidence_tables.png"
PAPER_LABEL = "paper: mean, range (8 IPC domains; hard block 7)"
DOMAIN_MARKERS = "osD^v"


def _label_row(label: str) -> tuple:
    """The paper's row label -> (la's method, X): 'M40' -> ('M', 40), 'P20' -> ('PA', 20)
    (their P beside PA)."""
    method = label.rstrip("0123456789")
    return ("PA" if method == "P" else method), int(label[len(method):])


def _title(table: int, block: str, queue: str = "dual") -> str:
    if table == 3:
        return f"Table 3, {block}: dual A40, network"
    return f"Table 2, {block}, {'GBFS' if queue == 'single' else 'dual queue'}"


PANELS = [*(_title(2, *key.split()) for key in PAPER_TABLE2),
          *(_title(3, block) for block in BLOCKS)]


def panels(record: dict) -> list:
    """(title, paper's values by label, ours by label, our base row's coverage) per panel, for the
    blocks the record has: Table 2 by block and queue, then Table 3 by block (`PANELS`). Ours:
    (change, its standard error or None), or None if not run; the base coverage is None if not
    run."""
    blocks = record["config"].get("blocks", ["moderate"])
    found, drawn = {}, []
    for r in record["coverage"]:
        if r["signal"] == "softmax" and not r.get("network"):
            found[(r.get("block", "moderate"), r["queue"], r["method"], r["X"])] = r
    for key, paper in PAPER_TABLE2.items():
        block, queue = key.split()
        if block not in blocks:
            continue
        ours = {label: _ours(found.get((block, queue, *_label_row(label))))
                for label in paper if label != "base"}
        drawn.append((_title(2, block, queue), paper, ours,
                      _coverage(found.get((block, queue, "base", None)))))
    for block in blocks:
        by_network = {r["network"]: r for r in record["table3"] if r["block"] == block}
        ours = {label: _ours(by_network.get(label))
                for label in PAPER_TABLE3[block] if label != "Standard"}
        drawn.append((_title(3, block), PAPER_TABLE3[block], ours,
                      _coverage(by_network.get("Standard"))))
    return drawn


def _ours(r: dict | None):
    return None if r is None or r["change"] is None else (r["change"], r.get("change_se"))


def _coverage(r: dict | None):
    return None if r is None else r["coverage"]


def _percent(coverage) -> str:
    return "—" if coverage is None else f"{100 * coverage:.0f} %"


def _paper_base(paper: dict) -> str:
    """The paper's base row of a panel (Table 2's base, Table 3's Standard): its mean [range],
    coverage in %."""
    known = [v for v in paper.get("base", paper.get("Standard")) if v is not None]
    return f"paper {100 * np.mean(known):.0f} % [{100 * min(known):.0f}, {100 * max(known):.0f}]"


def _changes(paper: dict) -> list:
    return [label for label in paper if label not in ("base", "Standard")]


def _paper_markers(ax, paper: dict, x) -> None:
    values = [[v for v in paper[label] if v is not None] for label in _changes(paper)]
    mean = [100 * np.mean(v) for v in values]
    ax.errorbar(x, mean, yerr=[np.subtract(mean, [100 * min(v) for v in values]),
                               np.subtract([100 * max(v) for v in values], mean)],
                fmt="kx", capsize=3, label=PAPER_LABEL)


def _our_markers(ax, mine: list, x, **style_) -> None:
    ax.errorbar(x, or_nan(None if m is None else 100 * m[0] for m in mine),
                yerr=or_nan(None if m is None or m[1] is None else 100 * m[1] for m in mine),
                capsize=3, **style_)


def _frame(ax, labels: list, title: str) -> None:
    ax.axhline(0, color="k", lw=0.6)
    ax.set_xticks(np.arange(len(labels)), labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_title(title, fontsize=8)


def _axes(widths: list, height: float):
    fig, axes = plt.subplots(1, len(widths), figsize=(2.1 + 0.75 * sum(widths), height),
                             sharey=True, gridspec_kw={"width_ratios": widths}, squeeze=False)
    axes[0][0].set_ylabel("change of coverage from the base row (points)")
    return fig, axes[0]


def tables(record: dict, path) -> None:
    """Heller et al.'s Tables 2 and 3 as changes of coverage from each block's base row, in points:
    ours (this domain, mean over runs, error bar: standard error) beside the paper's mean and range
    over its IPC domains."""
    drawn = panels(record)
    fig, axes = _axes([len(_changes(paper)) for _, paper, _, _ in drawn], 4.2)
    for ax, (title, paper, ours, base) in zip(axes, drawn):
        labels = _changes(paper)
        x = np.arange(len(labels))
        _paper_markers(ax, paper, x + 0.12)
        mine = [ours[label] for label in labels]
        _our_markers(ax, mine, x - 0.12, fmt="o", color="tab:blue",
                     label=f"ours ({record['domain']})")
        for i in (i for i, m in enumerate(mine) if m is None):
            ax.text(i, 0, "not run", rotation=90, ha="center",
                    va="bottom", fontsize=7, color="tab:gray")
        _frame(ax, labels, f"{title}\nbase: ours {_percent(base)}, {_paper_base(paper)}")
    axes[0].legend(fontsize=7)
    runs = len(record["runs"])
    fig.suptitle(f"Heller et al. 2022, Tables 2 and 3, on the {record['domain']}: {runs} run(s)"
                 + (", error bars: standard error over runs" if runs > 1
                    else ", one run: no error bars"), fontsize=10)
    fig.tight_layout()
    style.save(fig, path)


def across_domains(records: list, path) -> None:
    """`tables` for several domains at once: each domain's change of coverage from its block's base
    row (mean over its runs, error bar: standard error) beside the paper's mean and range over its
    IPC domains (8; 7 in the hard block). A domain appears in the panels of the blocks it ran; the
    panel's title gives every base row."""
    records = sorted(records, key=lambda r: r["domain"])
    found = {}                                     # title -> (paper, [(domain, ours, base)])
    for record in records:
        for title, paper, ours, base in panels(record):
            found.setdefault(title, (paper, []))[1].append((record["domain"], ours, base))
    drawn = [(title, *found[title]) for title in PANELS if title in found]
    fig, axes = _axes([len(_changes(paper)) for _, paper, _ in drawn], 4.8)
    domains = [r["domain"] for r in records]
    step = 0.6 / (len(domains) + 1)
    for ax, (title, paper, ours) in zip(axes, drawn):
        labels = _changes(paper)
        x = np.arange(len(labels)) - 0.3
        for domain, mine, _ in ours:
            i = domains.index(domain)
            _our_markers(ax, [mine[label] for label in labels], x + i * step,
                         fmt=DOMAIN_MARKERS[i % 5], color=f"C{i}", label=domain)
        _paper_markers(ax, paper, x + len(domains) * step)
        bases = [f"{domain} {_percent(base)}" for domain, _, base in ours]
        lines = [", ".join(bases[i:i + 2]) for i in range(0, len(bases), 2)]
        _frame(ax, labels, "\n".join([title, f"base: {_paper_base(paper)}", *lines]))
    # a domain may be missing from the first panel: every panel's
    handles = {}
    for ax in axes:
        handles.update((label, h) for h, label in zip(*ax.get_legend_handles_labels()))
    names = [name for name in [*domains, PAPER_LABEL] if name in handles]
    fig.legend([handles[name] for name in names], names,
               loc="lower center", ncol=len(names), fontsize=8)
    runs = ", ".join(f"{r['domain']} {len(r['runs'])}" for r in records)
    fig.suptitle(f"Heller et al. 2022, Tables 2 and 3 on la's domains beside the paper's IPC "
                 f"domains (8; hard block 7); runs: {runs}; error bars: standard error over runs",
                 fontsize=10)
    # the legend below the panels, clear of the markers
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    style.save(fig, path)
