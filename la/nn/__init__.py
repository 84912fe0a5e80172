"""Neural networks by hand, in NumPy: the two networks of the paper, Heller et al. (2022)'s classification
heuristic, and what they are built from. Sections (§) are Marom & Rosman's; Heller et al.'s are named.

| module            | part of the paper                                                                         |
|-------------------|-------------------------------------------------------------------------------------------|
| layers.py         | dense layers, ReLU, sigmoid, softmax, inverted dropout, He-normal (§5) and Glorot-uniform  |
|                   | initialisation, softplus ρ ↦ σ (§2)                                                       |
| ffnn.py           | the planning network: μ and σ_a trained with Eq. (1) (§2, §4; authors' `FastNN.cs`)       |
| wunn.py           | the weight-uncertainty network: Eq. (2), local reparameterisation, σ_e (§2, §5; `NNBayes.cs`) |
| classifier.py     | Heller et al.'s network: softmax over the costs 0..H, h^NN = argmax, c^NN = max ("Setup")  |
| classifier_fit.py | its training: k folds, minibatch Adam, early stopping on a validation fold ("Setup")       |
| ood.py            | training with OOD inputs: uniform and weighted noise, L^OOD ("Training with OOD Inputs")   |
| uncertainty_fit.py| la's supervised fit of the FFNN (σ_a) and the WUNN (σ_e) on teacher data, early stopping  |
| adam.py           | Adam (Kingma & Ba, Algorithm 1) and the authors' WUNN variant (`AdamOptimizer.cs`)        |
| config.py         | FFNNConfig, WUNNConfig (§5), ClassifierConfig (Heller et al., "Setup")                   |
| persist.py        | save/load of networks and optimiser state as .npz, without pickle                          |
| gradcheck.py      | central finite differences, used by the tests and tutorial 03                              |
"""
from la.nn.adam import Adam
from la.nn.classifier import Classifier
from la.nn.classifier_fit import History, fit, fit_folds
from la.nn.config import ClassifierConfig, FFNNConfig, WUNNConfig, build_classifier, build_ffnn, build_wunn
from la.nn.ffnn import FFNN
from la.nn.ood import UniformNoise, WeightedNoise
from la.nn.persist import load, save
from la.nn.wunn import WUNN

__all__ = ["FFNN", "WUNN", "Classifier", "Adam", "save", "load", "FFNNConfig", "WUNNConfig", "ClassifierConfig",
           "build_ffnn", "build_wunn", "build_classifier", "fit", "fit_folds", "History", "UniformNoise",
           "WeightedNoise"]
