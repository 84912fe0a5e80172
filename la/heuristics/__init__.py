"""Heuristics, one module each.

    base               the heuristic contract every search relies on, and incremental heuristics
    classical          Manhattan distance, the gap heuristic, Hamming; `make_heuristic(name,
                       domain)` and each domain's classical admissible heuristic
                       (`classical_admissible`)
    likely_admissible  y^α from the planning network (paper §3–§5): the likely-admissible heuristic
    pdb                pattern-database heuristics read off the PDB features
"""
