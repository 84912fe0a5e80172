"""Heller, Ferber, Bitterwolf, Hein & Hoffmann (SoCS 2022): neural network heuristic functions
taking confidence into account (part of the shell: it imports the core).

    teacher             training data: GBFS plans from random-walk seeds, labelled with their
                        remaining cost
    classifier          the classification network: softmax over the costs 0..H, h^NN = argmax,
                        c^NN = max
    config              its hyperparameters (ClassifierConfig)
    classifier_fit      its training: k folds, minibatch Adam, early stopping on a validation fold
    ood                 training with out-of-distribution inputs: uniform and weighted noise, L^OOD
    uncertainty_fit     la's supervised fit of the FFNN (σ_a) and the WUNN (σ_e) on the teacher's
                        data
    best_first          what the best-first searches share: the search space, the evaluator contract
    greedy              greedy best-first search (GBFS), one expansion at a time
    dual_queue          the dual-queue search (Röger & Helmert 2010) with confidence pruning
    batched_best_first  la's batched variants of both
    thresholds          the confidence thresholds: MeanThreshold, AdaptiveThreshold
    evaluators          the NN evaluators: h^NN with max-softmax, −σ_e or −σ_a as the confidence
    fit_checkpoint      a fit under way (a classifier's, the FFNN's, the WUNN's), saved every few
                        epochs
    paper               Heller et al.'s published values (Tables 1-3), printed and drawn beside ours

Importing `la.heller` registers the classifier with the run machinery's files
(`la.runs.persist`), which imports nothing of this room.
"""
from la.heller.classifier import Classifier, layout
from la.runs import persist

persist.register(Classifier, layout)
