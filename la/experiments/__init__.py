"""The paper's experiments, one module each (part of the shell), on the run machinery of `la.runs`
(seeds, resumable results folders, worker processes, checkpoints). How to run them: README.md in
this folder.

    python -m la.experiments.efficiency       Table 2: GenerateTaskPrac against
                                              LengthInc (15-puzzle)
    python -m la.experiments.suboptimality    Table 1 on Korf's 100, with calibration and the
                                              figures' data
    python -m la.experiments.suboptimality --domain {24-puzzle,24-pancake,15-blocksworld}
                                              Table 3 on that domain: its settings, test tasks,
                                              admissible baseline and the paper's values are in
                                              table3.py
    python -m la.experiments.suboptimality --baselines boot,optimal,conformal
                                              the paper's rivals as rows of the same tables
                                              (baselines.py)
    python -m la.experiments.confidence --domain D
                                              Heller et al. (2022): confidence-aware GBFS and
                                              dual-queue search, OOD training, and la's σ_e / σ_a
                                              confidences (confidence_config.py,
                                              confidence_networks.py, confidence_search.py,
                                              confidence_table.py)
    python -m la.experiments.confidence_pilot --domain D
                                              its budgets: the base rows' coverage at every budget,
                                              off the test set
    python -m la.experiments.bounded --domain D
                                              focal search ordered by the committed networks, with
                                              a certificate cost <= w · C*, beside weighted A* and
                                              the committed IDA* rows (bounded_config.py,
                                              bounded_units.py, bounded_table.py)
    python -m la.experiments.diagnostics      σ_e against walk distance, where calibration is lost
    python -m la.experiments.merge            runs made apart, joined into one record
                                              (merge_check.py checks the folders first;
                                              unit_shapes.py, what --resume keeps of a unit)
    python -m la.experiments.label_audit      how far from optimal the labels of a run's training
                                              plans were
    python -m la.experiments.table1_gap       Table 1's gap (figures/table1-gap/) seed by seed, each
                                              arm against the control
    python -m la.experiments.table2           GTP against each LengthInc, paired
                                              by run (paired.py, shared with table1_gap)

What LearnHeuristicPrac's settings are on each domain of the paper (§5) is `la.config.DOMAINS`.
"""
