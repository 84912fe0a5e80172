"""The encoding contract: the one place it is written down.

An *encoding* turns a batch of states into the networks' inputs (paper §5). Every encoding in
`la.features`, the 15-puzzle's one-hot included, offers the same five things, so that networks,
learner and task generator take any domain without special cases:

    encoding.size                       number of inputs
    x = encoding(states)                (n, N) uint8 -> (n, size) float32
    h_ad = encoding.admissible(states)  (n,) int64: the largest admissible feature, the planning
                                        floor of max(y^α, h_ad) (paper §5); None when there is
                                        none (the one-hot)
    x, h_ad, carry = encoding.start(states)
        the inputs and floor of a batch of roots, and `carry`: None or an array with one row per
        state;
    x, h_ad, carry = encoding.step(states, x, h_ad, carry, parent, move)
        the same for the children `domain.apply(states, parent, move)`, computed from the parents'
        states, inputs, floors and carry; every returned array has one row per child.
    encoding.step_reads
        which of the parents' "x" and "h_ad" `step` reads (it always gets the states and the
        carry); the caller may pass None for the others, and need not keep them.

`start` and `step` mirror the incremental heuristic of `la.heuristics.base`: a search keeps the
carry (and x and h_ad, if `step` reads them) with every node and indexes it with the node's index. A
child's features then cost less than computing them afresh: a sliding-tile move changes only one
tile, and a pancake flip or a blocksworld move changes a parent's layout in a way that is cheaper to
apply than to recompute.

The PDB encodings share one shape (paper §5): a row of admissible integer heuristics HArr, each
divided by its scale (the largest value it can take), then a few inputs that are not heuristics.
h_ad, the planning floor, is the maximum of HArr. `Features` below holds that shape; each domain's
module supplies HArr and the rest.
"""
import numpy as np

from la.pdb.store import PDB


class Features:
    """x = [HArr / scale, other inputs] and h_ad = max(HArr); subclasses set `domain`, `scale`
    (float32 (k,)), `size`, `floor_columns` and implement `h_arr(states)` and `others(states)`.

    `start` and `step` compute from scratch here (carry None); an encoding with a cheaper update
    overrides them.
    """

    domain = None
    scale: np.ndarray
    size: int
    # the HArr columns max(HArr) is taken over (all, unless some never exceed others)
    floor_columns: list[int]
    step_reads = ()                # `step` reads the parents' states and carry only, not x or h_ad

    # HArr is the authors' name (`IMultHeuristic.HArr`); the shape, which §5 leaves open, is their
    # `Representations/Features.cs`.
    def h_arr(self, states) -> np.ndarray:
        """The admissible features, unscaled: (n, k) integers."""
        raise NotImplementedError

    def others(self, states) -> np.ndarray:
        """The inputs after the scaled HArr: (n, size - k) float32."""
        raise NotImplementedError

    def inputs(self, h_arr, others) -> np.ndarray:
        """x: HArr divided by its scale, in float32, then the other inputs."""
        x = np.empty((len(h_arr), self.size), dtype=np.float32)
        k = len(self.scale)
        # int -> float32 first, then divided in float32, as the authors' float arrays
        np.divide(h_arr, self.scale, out=x[:, :k], dtype=np.float32, casting="unsafe")
        x[:, k:] = others
        return x

    def h_ad(self, h_arr) -> np.ndarray:
        """max(HArr) of each row, (n,) int64, over `floor_columns`: the columns that can hold it."""
        columns = self.floor_columns
        h = h_arr[:, columns[0]].astype(np.int64)
        for c in columns[1:]:             # column by column: far faster than max(axis=1) on (n, 14)
            np.maximum(h, h_arr[:, c], out=h)
        return h

    def __call__(self, states) -> np.ndarray:
        return self.start(states)[0]

    def admissible(self, states) -> np.ndarray:
        return self.h_ad(self.h_arr(self.check(states)))

    def start(self, states):
        states = self.check(states)
        h_arr = self.h_arr(states)
        return self.inputs(h_arr, self.others(states)), self.h_ad(h_arr), None

    def step(self, states, x, h_ad, carry, parent, move):
        return self.start(self.domain.apply(states, parent, move))

    def check(self, states) -> np.ndarray:
        """`states` as an (n, N) array of this domain, or ValueError."""
        states = np.asarray(states)
        if states.ndim != 2 or states.shape[1] != self.domain.size:
            raise ValueError(f"{type(self).__name__} encodes {self.domain.name} states, rows of "
                             f"{self.domain.size} numbers; got an array of shape {states.shape}")
        return states

    def __repr__(self):
        return f"{type(self).__name__}({self.domain.name}, {self.size} inputs)"


def partition_list(pdbs: dict, domain, additive: bool) -> tuple[list, list]:
    """The PDBs of named partitions as one list, and each partition's positions in it.

    `pdbs` maps a partition's name to its PDBs (`la.pdb.sets.load_set`). With `additive`, the
    patterns of one partition must be disjoint, or their sum would not be admissible
    (Korf & Felner 2002).
    """
    if not pdbs or not all(len(group) for group in pdbs.values()):
        raise ValueError(f"expected at least one partition with at least one PDB, got {pdbs!r}")
    flat, groups = [], []
    for name, group in pdbs.items():
        groups.append(list(range(len(flat), len(flat) + len(group))))
        flat.extend(group)
        patterns = [set(pdb.abstraction.pattern) for pdb in group]
        if additive and sum(map(len, patterns)) != len(set().union(*patterns)):
            raise ValueError(f"the patterns of partition {name!r} overlap, so their PDBs do not "
                             f"add up: {[sorted(p) for p in patterns]}")
    wrong = [pdb.abstraction for pdb in flat if pdb.abstraction.domain != domain.name]
    if wrong:
        raise ValueError(f"PDB {wrong[0]!r} is not a PDB of the {domain.name}")
    return flat, groups


def pdb_scales(flat: list, groups: list | None = None) -> list[int]:
    """Each PDB's largest value, then (for additive partitions) each partition's sum of them."""
    # the scales, which §5 does not give: the authors' `Scale` in `MultHeuristic24.cs`
    maxima = [int(pdb.max) for pdb in flat]
    return maxima + [sum(maxima[i] for i in group) for group in groups or []]


def end_to_end(pdbs: list) -> tuple[list, np.ndarray, np.ndarray]:
    """The PDBs' tables end to end in one array, so that one gather reads a different PDB per state.

    Returns the PDBs again, now over views of that array (no table is held twice), the array, and
    where each table begins in it."""
    sizes = [pdb.table.size for pdb in pdbs]
    offset = np.cumsum([0] + sizes[:-1], dtype=np.int64)
    table = np.concatenate([pdb.table for pdb in pdbs])
    return ([PDB(pdb.abstraction, table[o:o + s]) for pdb, o, s in zip(pdbs, offset, sizes)],
            table, offset)


def rank_many(cells: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """`la.pdb.rank.rank` of many placements at once, each pattern with weights of its own.

    `cells` (k, ...) holds the places of the patterns' items, in pattern order along the first axis,
    and `weights` (k, ...) their `la.pdb.rank.weights`, broadcast against `cells`. A pattern of
    fewer items is padded at the end with weight 0: an item's digit depends only on the items before
    it, so the padding counts for nothing. Returns the ranks (...) in the weights' integer type."""
    digits = cells.copy()
    for i in range(1, len(cells)):
        for j in range(i):
            digits[i] -= cells[j] < cells[i]       # digit_i = place_i − #{j < i: place_j < place_i}
    rank = digits[0] * weights[0]
    for i in range(1, len(cells)):
        rank += digits[i] * weights[i]
    return rank
