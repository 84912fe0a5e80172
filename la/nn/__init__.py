"""Neural networks by hand, in NumPy: the two networks of the paper and what they are built from.

| module       | part of the paper                                                                         |
|--------------|-------------------------------------------------------------------------------------------|
| layers.py    | dense layers, ReLU, inverted dropout, He-normal initialisation (§5), softplus ρ ↦ σ (§2)   |
| ffnn.py      | the planning network: μ and σ_a trained with Eq. (1) (§2, §4; authors' `FastNN.cs`)       |
| wunn.py      | the weight-uncertainty network: Eq. (2), local reparameterisation, σ_e (§2, §5; `NNBayes.cs`) |
| adam.py      | Adam (Kingma & Ba, Algorithm 1) and the authors' WUNN variant (`AdamOptimizer.cs`)        |
| config.py    | FFNNConfig, WUNNConfig: the paper's hyperparameters for the two networks (§5)              |
| persist.py   | save/load of networks and optimiser state as .npz, without pickle                          |
| gradcheck.py | central finite differences, used by the tests and tutorial 03                              |
"""
from la.nn.adam import Adam
from la.nn.config import FFNNConfig, WUNNConfig, build_ffnn, build_wunn
from la.nn.ffnn import FFNN
from la.nn.persist import load, save
from la.nn.wunn import WUNN

__all__ = ["FFNN", "WUNN", "Adam", "save", "load", "FFNNConfig", "WUNNConfig", "build_ffnn", "build_wunn"]
