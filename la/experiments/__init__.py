"""The paper's experiments, one module each, on a small shared runner (seeds, resumable output, jobs).

    python -m la.experiments.efficiency       Table 2: GenerateTaskPrac against LengthInc (15-puzzle)
    python -m la.experiments.suboptimality    Table 1 on Korf's 100, with calibration and the figures' data
"""
