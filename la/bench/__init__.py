"""Benchmarks, one module per part of the project; `python -m la.bench` runs them all."""
