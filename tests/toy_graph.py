"""A directed graph drawn by hand as a domain, and scripted evaluators, for the best-first search
tests.

A state is one byte, the vertex; a move's code is the vertex it leads to. Values and confidences
come from tables indexed by vertex, and every evaluator records the batches it was called with (as
vertex lists), so a test can read the expansion order off the calls.
"""
import numpy as np

from la.domains.domain import Domain


class Graph(Domain):
    """`edges[v]` lists v's successors in move order; `goal` is the goal vertex."""

    def __init__(self, edges: dict, goal: int):
        self.edges, self.size, self.name = edges, 1, "toy graph"
        self.goal = np.array([goal], dtype=np.uint8)
        self.vertices = set(edges) | {w for ws in edges.values() for w in ws} | {goal}

    def successors(self, states, pop=None):
        parent, move = [], []
        for i, v in enumerate(states[:, 0].tolist()):
            for w in self.edges.get(v, []):
                parent.append(i)
                move.append(w)
        return np.array(parent, dtype=np.int64), np.array(move, dtype=np.int64)

    def apply(self, states, parent, move):
        return np.asarray(move, dtype=np.uint8)[:, None]

    def neighbours(self, state: tuple, pop: int = -1) -> list:
        return [(w, (w,)) for w in self.edges.get(state[0], [])]

    def check(self, state):
        if int(state[0]) not in self.vertices:
            raise ValueError(f"vertex {int(state[0])} is not in the graph")


class Table:
    """A classical heuristic read from a table: h(v) = values[v]."""

    def __init__(self, values: dict):
        self.values, self.calls = values, []

    def __call__(self, states):
        vertices = states[:, 0].tolist()
        self.calls.append(vertices)
        return np.array([self.values[v] for v in vertices], dtype=np.int64)


class ScriptedNN:
    """An NN evaluator read from tables: (h^NN(v), c^NN(v)) = (values[v], confidence[v])."""

    def __init__(self, values: dict, confidence: dict):
        self.values, self.confidence, self.calls = values, confidence, []

    def __call__(self, states):
        vertices = states[:, 0].tolist()
        self.calls.append(vertices)
        return (np.array([self.values[v] for v in vertices], dtype=np.int64),
                np.array([self.confidence[v] for v in vertices], dtype=np.float64))
