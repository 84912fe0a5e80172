"""la: learning likely-admissible heuristics (Marom & Rosman, ICAPS 2020), by hand in NumPy.

The core is the paper's method, and all a student needs to read: `import la.learn` loads exactly
these modules (with `la.search.reference`, the textbook IDA*), none of the shell. Lines: physical,
then code (neither blank, nor comment, nor docstring); tests/test_layout.py checks the list.

    la                                   89    31  this map; one BLAS thread, one rounding, SIGTERM
    la.buffer                            64    33  the memory buffer (§4)
    la.config                           148    83  LearnConfig: Alg. 2's constants; per domain (§5)
    la.domains                           15     0
    la.domains.domain                    94    48  the domain contract
    la.domains.sliding_tile             136    85  the 15-puzzle (§5), any board
    la.domains.walk                      35    22  random walks back from the goal
    la.features                          22     2
    la.features.one_hot                  83    51  the 15-puzzle's input (§5)
    la.heuristics                         9     0
    la.heuristics.base                   53    17  the heuristic contract
    la.heuristics.likely_admissible     215   121  y^α (§3-§5)
    la.learn                            201   122  LearnHeuristicPrac (Alg. 2)
    la.nn                                22     5
    la.nn.adam                           63    38  Adam
    la.nn.config                         83    47  the networks' settings (§5)
    la.nn.ffnn                          182   110  μ and σ_a (Eq. 1)
    la.nn.layers                        105    48  layers, by hand
    la.nn.wunn                          241   154  σ_e (Eq. 2)
    la.search                            12     4
    la.search.depth_first               351   205  IDA*'s depth-first order
    la.search.ida_star                   89    48  batched IDA* (Korf 1985)
    la.search.reference                  97    73  the textbook IDA*
    la.search.result                     61    40  what a search returns
    la.tasks                             65    34  GenerateTaskPrac (Alg. 1)
    in all                             2515  1407

Also core, loaded when used: the other domains, classical and PDB heuristics, PDB features, la.pdb,
la.io, BFS, the batched order (la.search.shallowest), the depth-first order's dive and exact
counts at a node limit (la.search.dive, la.search.limit_counts). The shell imports the core,
never the other way: la.runs (the run machinery), la.rivals (Boot, optimal plans, conformal y^α),
la.heller (Heller et al. 2022), la.experiments, la.plots, la.solve, la.bench, la.data.
"""
import os
import signal
import sys
import warnings


def stopped_while_starting(signum, frame):
    """SIGTERM while a command loads, before `la.runs.stops.run` takes it over: one line, 143."""
    line = (f"terminated: {_COMMAND} was stopped while starting, before it wrote anything; run the "
            "same command again\n")
    try:
        os.write(2, line.encode("ascii", "replace"))
    except OSError:                         # no stderr: the status alone says it
        pass
    os._exit(128 + signum)


# A command (`python -m la.X`: its packages load while argv[0] is "-m") stopped as it imports
# NumPy, matplotlib and la says so, as it would once running; the default would end it silently.
_COMMAND = " ".join(["python", *sys.orig_argv[sys.orig_argv.index("-m"):][:2]]
                    if "-m" in sys.orig_argv else sys.orig_argv[:1])
if sys.argv[:1] == ["-m"]:
    signal.signal(signal.SIGTERM, stopped_while_starting)

# One BLAS thread, set before NumPy loads. The matrices here are small (20 hidden units), so threads
# cost more than they save, and with `--jobs 2` on two cores they fight the other process; worse, a
# threaded sum adds in a different order, so a heuristic value can round the other way and a search
# can take another path.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# One rounding on every machine. OpenBLAS's kernel (Haswell, SkylakeX, ...) and NumPy's SIMD path
# (AVX2, AVX-512) follow the CPU and differ in the last bit, which can change a rounded h, a search,
# and all training after it. So la fixes both to what every x86-64 CPU with AVX2 and FMA runs
# (LA_NATIVE_NUMERICS=1: the CPU's own, other numbers).
# Linux's CPU flags, the first CPU's
with open("/proc/cpuinfo" if os.path.exists("/proc/cpuinfo") else os.devnull,
          encoding="utf-8") as _cpu:
    _flags = set(next((line for line in _cpu if line.startswith("flags")), "").split())
NUMERICS_PINNED = (os.environ.get("LA_NATIVE_NUMERICS") != "1" and os.uname().machine == "x86_64"
                   and {"avx2", "fma"} <= _flags)
if NUMERICS_PINNED:
    if "numpy" in sys.modules:
        warnings.warn("NumPy was imported before la, so la could not fix its numerics: import la "
                      "first (results may differ from another machine's in the last bit, and then "
                      "more)", stacklevel=2)
    os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    # NumPy refuses it beside NPY_ENABLE_CPU_FEATURES
    os.environ.pop("NPY_DISABLE_CPU_FEATURES", None)
    os.environ["NPY_ENABLE_CPU_FEATURES"] = "X86_V3"
