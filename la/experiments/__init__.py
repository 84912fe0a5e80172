"""The paper's experiments, one module each, on a small shared runner (seeds, resumable output, jobs).

    python -m la.experiments.efficiency      Table 2: GenerateTaskPrac against LengthInc (15-puzzle)
"""
