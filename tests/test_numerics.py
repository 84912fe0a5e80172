"""One seed, one table, on every x86-64 machine with AVX2 (la/__init__.py): OpenBLAS's kernel and
NumPy's SIMD paths are fixed before NumPy loads, so the kernels and CPU features a machine would
pick by itself change nothing.

Machines are stood in for on this one by what they would pick: OPENBLAS_CORETYPE for the BLAS
kernel, and NPY_DISABLE_CPU_FEATURES without the AVX-512 groups for a CPU that has none. Without the
pin (LA_NATIVE_NUMERICS=1) two kernels give two tables here (Haswell and Nehalem; SkylakeX too where
the CPU runs it), so the comparison can fail; with it, every stand-in gives the same table, and the
same networks, as a machine with AVX2 only running its own choice. Results files are compared
without their command, commit and timings.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
NO_AVX512 = "X86_V4 AVX512_ICL AVX512_SPR"           # NumPy 2.4's AVX-512 dispatch groups
PROBE = ("import la, ctypes, glob, os, numpy; "
         "from numpy._core._multiarray_umath import __cpu_features__ as f; "
         "lib = ctypes.CDLL(glob.glob(os.path.join("
         "os.path.dirname(os.path.dirname(numpy.__file__)), "
         "'numpy.libs', '*openblas*'))[0]); core = lib.scipy_openblas_get_corename64_; "
         "core.restype = ctypes.c_char_p; print(core().decode(), f['X86_V4'])")
# with every "...seconds...": a run's own timings
UNTIMED = ("command", "commit", "resumed", "time", "machine")


def flags() -> set:
    path = Path("/proc/cpuinfo")
    return set(path.read_text().split()) if path.exists() else set()


pytestmark = pytest.mark.skipif(not {"avx2", "fma"} <= flags() or os.uname().machine != "x86_64",
                                reason="the pin is for x86-64 CPUs with AVX2 and FMA")
PINNED_ENV = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES",
              "LA_NATIVE_NUMERICS")


def environment(**changes) -> dict:
    return {**{k: v for k, v in os.environ.items() if k not in PINNED_ENV}, **changes}


def loaded(env: dict) -> tuple:
    """The OpenBLAS core that loaded under `env`, and whether NumPy runs its AVX-512 (X86_V4)
    paths."""
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True,
                         text=True, check=True)
    core, v4 = out.stdout.split()
    return core, v4 == "True"


def untimed(value):
    """A results file without what changes from run to run by itself: the command, the commit, every
    timing."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in UNTIMED and "second" not in k}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def results(command: list, out: Path, env: dict) -> dict:
    """results.json of `command` run under `env`, untimed, with every trained network's weights
    beside it."""
    subprocess.run([sys.executable, "-m", *command, "--jobs", "1", "--out", str(out)], env=env,
                   cwd=ROOT, capture_output=True, text=True, check=True)
    weights = {}
    for path in sorted(out.glob("run*/**/network.npz")):
        with np.load(path) as arrays:
            weights[str(path.relative_to(out))] = {k: arrays[k].tobytes() for k in arrays.files
                                                   if k != "__meta__"}
    return {**untimed(json.loads((out / "results.json").read_text())), "networks": weights}


STAND_INS = {"Zen": {"OPENBLAS_CORETYPE": "Zen"}, "Nehalem": {"OPENBLAS_CORETYPE": "Nehalem"},
             "no AVX-512": {"NPY_DISABLE_CPU_FEATURES": NO_AVX512}, "native": {}}
# the kernel an Intel AVX-512 CPU picks
if "avx512f" in flags():
    STAND_INS["SkylakeX"] = {"OPENBLAS_CORETYPE": "SkylakeX"}
AVX2_MACHINE = {"LA_NATIVE_NUMERICS": "1", "OPENBLAS_CORETYPE": "Haswell",
                "NPY_DISABLE_CPU_FEATURES": NO_AVX512}


@pytest.mark.slow
def test_two_kernels_differ_without_the_pin_and_agree_with_it(tmp_path):
    efficiency = ["la.experiments.efficiency", "--quick"]
    native = {name: environment(LA_NATIVE_NUMERICS="1", OPENBLAS_CORETYPE=name)
              for name in ("Haswell", "Nehalem")}
    assert [loaded(env)[0] for env in native.values()] == ["Haswell", "Nehalem"]
    haswell = results(efficiency, tmp_path / "h", native["Haswell"])
    nehalem = results(efficiency, tmp_path / "n", native["Nehalem"])
    # the test nodes of LengthInc 6 move
    assert haswell["units"] != nehalem["units"]
    pinned = environment(OPENBLAS_CORETYPE="Nehalem")
    # the pin, not the machine, chose
    assert loaded(pinned) == ("Haswell", False)
    avx2 = results(efficiency, tmp_path / "a", environment(**AVX2_MACHINE))
    assert results(efficiency, tmp_path / "p", pinned) == avx2


QUICK = {"efficiency": ["la.experiments.efficiency", "--quick"],
         "suboptimality": ["la.experiments.suboptimality", "--quick"],
         "table3 24-pancake": ["la.experiments.suboptimality", "--quick", "--domain", "24-pancake"],
         "baselines 24-pancake": ["la.experiments.suboptimality", "--quick",
                                  "--domain", "24-pancake",
                                  "--baselines", "boot,optimal,conformal"],
         "confidence 15-puzzle": ["la.experiments.confidence", "--quick"],
         "confidence 24-pancake": ["la.experiments.confidence", "--quick",
                                   "--domain", "24-pancake"]}


@pytest.mark.slow
@pytest.mark.parametrize("experiment", QUICK)
def test_every_stand_in_machine_gives_an_avx2_machines_table(experiment, tmp_path):
    command = QUICK[experiment]
    expected = results(command, tmp_path / "avx2", environment(**AVX2_MACHINE))
    assert loaded(environment(**AVX2_MACHINE)) == ("Haswell", False)
    # the σ_e and σ_a rows are there too
    if experiment.startswith("confidence"):
        assert {"WUNN", "FFNN"} <= {u["network"] for u in expected["training"]}
    for name, changes in STAND_INS.items():
        env = environment(**changes)
        assert loaded(env) == ("Haswell", False), name
        assert results(command, tmp_path / name.replace(" ", "_"), env) == expected, name
