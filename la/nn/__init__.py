"""Neural networks by hand, in NumPy: the two networks of the paper and what they are built from
(§2, §4, §5).

| module       | part of the paper                                                                 |
|--------------|-----------------------------------------------------------------------------------|
| layers.py    | dense layers, ReLU, sigmoid, softmax, inverted dropout, He-normal initialisation  |
|              | (§5), softplus ρ ↦ σ (§2)                                                         |
| ffnn.py      | the planning network: μ and σ_a trained with Eq. (1) (§2, §4)                     |
| wunn.py      | the weight-uncertainty network: Eq. (2), local reparameterisation, σ_e (§2, §5)   |
| adam.py      | Adam (Kingma & Ba, Algorithm 1) and the variant that trained the paper's WUNN     |
| config.py    | FFNNConfig, WUNNConfig (§5)                                                       |
| gradcheck.py | central finite differences, used by the tests and tutorial 03                     |

Heller et al. (2022)'s classification network and its training are in `la.heller`; saving networks
to files is the shell's (`la.runs.persist`).
"""
from la.nn.adam import Adam
from la.nn.config import FFNNConfig, WUNNConfig, build_ffnn, build_wunn
from la.nn.ffnn import FFNN
from la.nn.wunn import WUNN

__all__ = ["FFNN", "WUNN", "Adam", "FFNNConfig", "WUNNConfig", "build_ffnn", "build_wunn"]
