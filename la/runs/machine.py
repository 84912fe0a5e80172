"""What a run's numbers were computed on: the CPU, the NumPy and SciPy versions, the BLAS kernel
that loaded.

With the numerics pinned (`la/__init__.py`) the same seed gives the same numbers on every x86-64 CPU
with AVX2, so this is a record, not a key: it lets a reader check that two runs compared with each
other ran on the same numerics (Table 1's gap experiments, figures/table1-gap/), and find out why
two records differ if they do.
"""
import ctypes
import glob
import os
import platform

import numpy as np
import scipy

import la


def cpu_model() -> str:
    """The CPU's name as Linux reports it (/proc/cpuinfo), else what Python's platform module
    knows."""
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo", encoding="utf-8") as cpu:
            for line in cpu:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def openblas_core() -> str | None:
    """The kernel OpenBLAS chose or was told to use (Haswell, SkylakeX, ...); None if NumPy's
    OpenBLAS is not found.

    NumPy's wheels ship OpenBLAS in `numpy.libs`; it answers `scipy_openblas_get_corename64_`.
    """
    libs = glob.glob(os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs",
                                  "*openblas*"))
    if not libs:
        return None
    try:
        name = ctypes.CDLL(libs[0]).scipy_openblas_get_corename64_
    except (OSError, AttributeError):
        return None
    name.restype = ctypes.c_char_p
    return name().decode()


def machine() -> dict:
    """The record: CPU, NumPy, SciPy, OpenBLAS's kernel, and whether la fixed the numerics
    (`la.NUMERICS_PINNED`)."""
    return {"cpu": cpu_model(), "numpy": np.__version__, "scipy": scipy.__version__,
            "openblas_core": openblas_core(), "numerics_pinned": la.NUMERICS_PINNED}
