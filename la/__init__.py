"""la: learning likely-admissible heuristics (Marom & Rosman, ICAPS 2020), by hand in NumPy.

Which module implements which part of the paper:

    la.domains      planning domains on batches of states (§5): sliding tiles, pancakes, blocksworld;
                    random walks back from the goal (the LengthInc baseline's tasks and every test set)
    la.heuristics   the heuristic contract; Manhattan distance, the gap heuristic, Hamming
    la.search       IDA* (Korf 1985): batched, and the plain recursive reference; exact distances (BFS)
    la.encoding     the 15-puzzle's 128-input one-hot encoding (reference §7.1)
    la.nn           the networks of §2 by hand: the two-output FFNN (Eq. 1), the WUNN (Eqs. 2–3), Adam
    la.data         benchmark instances with known optimal costs
    la.solve        `python -m la.solve`: solve one task
    la.bench        `python -m la.bench`: the speed benchmarks
"""
