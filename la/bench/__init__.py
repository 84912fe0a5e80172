"""Benchmarks, one module per part of the project; `python -m la.bench` runs them all."""


def speed(results) -> dict:
    """Generated nodes, seconds and nodes per second summed over a list of `SearchResult`s."""
    generated, seconds = sum(r.generated for r in results), sum(r.seconds for r in results)
    return {"generated": generated, "seconds": seconds, "nodes_per_second": generated / seconds}


def speed_line(label: str, row: dict, note: str) -> str:
    """One report line: a label, nodes, seconds, millions of nodes per second, and a note."""
    return (f"  {label:<24}{row['generated']:>13,} nodes {row['seconds']:8.2f} s "
            f"{row['nodes_per_second'] / 1e6:8.2f} M nodes/s   {note}")
