"""la: learning likely-admissible heuristics (Marom & Rosman, ICAPS 2020), by hand in NumPy.

Which module implements which part of the paper:

    la.domains      planning domains on batches of states (§5): sliding tiles, pancakes, blocksworld;
                    random walks back from the goal (the LengthInc baseline's tasks and every test set)
    la.heuristics   the heuristic contract; Manhattan distance, the gap heuristic, Hamming
    la.search       IDA* (Korf 1985): batched, and the plain recursive reference; exact distances (BFS);
                    greedy best-first and dual-queue search with confidence pruning (Heller et al. 2022)
    la.features     the networks' inputs (§5): the 15-puzzle's one-hot; PDB features for the 24-puzzle,
                    24-pancake and 15-blocksworld, each with its admissible part h_ad
    la.nn           the networks of §2 by hand: the two-output FFNN (Eq. 1), the WUNN (Eqs. 2–3), Adam;
                    Heller et al.'s classification network and its out-of-distribution training
    la.teacher      training data as Heller et al.'s teacher makes it: greedy plans from random-walk seeds
    la.optimal_labels  states labelled with their exact h* from optimal plans, and a network trained on them
    la.boot         Boot, the bootstrap learner of Jabbari Arfaee, Zilles & Holte (2011): the paper's Table 3 rival
    la.data         benchmark instances with known optimal costs
    la.solve        `python -m la.solve`: solve one task
    la.bench        `python -m la.bench`: the speed benchmarks
"""
import os

# One BLAS thread, set before NumPy loads. The matrices here are small (20 hidden units), so threads cost more
# than they save, and with `--jobs 2` on two cores they fight the other process; worse, a threaded sum adds in
# a different order, so a heuristic value can round the other way and a search can take another path. With
# one thread the same seed gives the same numbers on the same machine (across CPU types, BLAS kernels may
# still round differently). Set the variables yourself to override.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
