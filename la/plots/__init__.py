"""Every figure of the reproduction, regenerated from saved results: `python -m la.plots`
(`__main__.py`).

One function per figure; each reads a results record (the `results.json` an experiment wrote) and
writes one PNG with the Agg backend. The records the committed figures come from are committed
beside them, `figures/efficiency.json`, `figures/suboptimality.json` (Table 1, the 15-puzzle) and,
per Table 3 domain, `figures/table3_<domain>.json`, each with the command and commit that made it.

- `style`: what they all share: matplotlib with the Agg backend, `plt`, `save`, `or_nan`, where
  figures go (`FIGURES`; the tutorials' own figures: tutorials/course.py).
- `records`: the results records, checked before anything is drawn (`read_record`, `read_table3`).
- `generate_task`: Figures 1 and 2, GenerateTaskPrac on 15-puzzle boards.
- `tables`: Table 2 as bars; Table 1 (or 3) against α, its calibration and learning curves
  (`all_from_suboptimality` draws a suboptimality record's figures, Figures 1 and 2 among them).
- `baselines`: the competing learners' rows beside saved networks, and the conformal rows' coverage.
- `confidence_tables`: Heller et al.'s (2022) Tables 2 and 3 beside the paper's, on one domain or
  all at once.
- `confidence`: the confidence experiment's other figures, its OOD and coverage tables.
- `diagnostics`: σ_e against distance from the goal, and where calibration is lost.
- `bounded`: certified bounded-suboptimal search, realised suboptimality and the guarantee against
  nodes (`la.experiments.bounded`; drawn into its results folder).
- `__main__`: the command, `main(argv)`.

Each module imports `style` and the modules listed above it, never one below: no circle.

A Table 3 record (`la.experiments.suboptimality --domain D`) draws figures/table3_<D>.png, with its
calibration (`table3_<D>_calibration.png`; on blocksworld also `_calibration_uniform.png`, uniform
states) and learning curves (`table3_<D>_learning_curves.png`). Figures 1 and 2 draw
GenerateTaskPrac on 15-puzzle boards, so only 15-puzzle records hold their data; on the other
domains they are skipped, and said so. A confidence record (`la.experiments.confidence --domain D`,
figures/confidence_<D>.json) draws its two figures, and a third with Tables 2 and 3 when it has
Table 3's rows (`confidence_tables`); those records, with the others' that the figures folder holds,
also draw Tables 2 and 3 across the domains (confidence_tables.png). The records of the baselines
beside saved networks (figures/baselines_<D>*.json) draw their two (`baselines`).
"""
