"""A closed list for best-first search on batches: every state reached, once, with an integer id.

A state (a row of uint8 values below 2^b) is packed into a key of 64-bit words, b bits per value:
the 15-puzzle's 16 values of 4 bits fill one word exactly, the 24-puzzle's and 24-pancake's 25 and
24 values of 5 bits two words. Packing is exact (two states share a key only if they are equal), so
the table never mistakes one state for another, as a hash of the state could. The keys live in an
open-addressing hash table (linear probing) of NumPy arrays, looked up and inserted a batch at a
time in one probe loop: one loop step per probe round, not one Python call per state; a key absent
from the table claims the empty slot it reaches, so no batch is sorted to find its new keys. The
table doubles when half full.

    table = StateTable(size=16, bits=4)
    ids, new = table.find_or_add(states)      # an id per row; new[i]: row i was never seen before
"""
import sys

import numpy as np

from la.domains.blocksworld import Blocksworld
from la.domains.pancake import Pancake
from la.domains.sliding_tile import SlidingTile

LITTLE = sys.byteorder == "little"   # a word's first byte holds its lowest bits
EMPTY = -1                        # id of an empty slot
GOLDEN = np.uint64(0x9E3779B97F4A7C15)   # Fibonacci hashing's multiplier, 2^64 / the golden ratio


def bits_for(domain) -> int:
    """Bits per value of a domain's states: a permutation of 0..size-1 (tiles, pancakes) needs
    those of size - 1, blocksworld's supports 0..size those of size; any other domain 8."""
    if isinstance(domain, Blocksworld):
        return max(1, int(domain.size).bit_length())
    if isinstance(domain, (SlidingTile, Pancake)):
        return max(1, int(domain.size - 1).bit_length())
    return 8


class StateTable:
    """Packed state keys -> ids 0, 1, 2, ... in the order states were first added."""

    def __init__(self, size: int, bits: int, capacity: int = 1 << 10):
        if not 1 <= bits <= 8:
            raise ValueError(f"a state value takes 1..8 bits, got {bits}")
        self.size, self.bits = size, bits
        self.per_word = 64 // bits
        self.words = -(-size // self.per_word)
        shifts = (np.arange(self.per_word * self.words) % self.per_word) * bits
        self.shifts = shifts[:size].astype(np.uint64)
        self.word_of = np.arange(size) // self.per_word
        self.count = 0
        self.keys = np.zeros((0, self.words), np.uint64)        # id -> key
        self._allocate(max(capacity, 16))

    def _allocate(self, capacity: int) -> None:
        self.mask = capacity - 1
        self.shift = np.uint64(64 - (capacity.bit_length() - 1))   # the hash's top bits pick a slot
        self.slots = np.full(capacity, EMPTY, np.int64)         # slot -> id
        if self.count:
            self._place(np.arange(self.count), self.keys[:self.count])

    @property
    def nbytes(self) -> int:
        """Bytes held by the table's arrays."""
        return self.slots.nbytes + self.keys.nbytes

    def pack(self, states: np.ndarray) -> np.ndarray:
        """(n, size) uint8 -> (n, words) uint64 keys."""
        if self.bits == 4 and LITTLE:     # two values a byte, eight bytes a word: no uint64 shifts
            nibbles = np.zeros((len(states), 16 * self.words), np.uint8)
            nibbles[:, :self.size] = states
            return (nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)).view(np.uint64)
        fields = states.astype(np.uint64) << self.shifts
        if self.words == 1:
            return np.bitwise_or.reduce(fields, axis=1)[:, None]
        keys = np.zeros((len(states), self.words), np.uint64)
        for w in range(self.words):
            keys[:, w] = np.bitwise_or.reduce(fields[:, self.word_of == w], axis=1)
        return keys

    def _hash(self, keys: np.ndarray) -> np.ndarray:
        h = np.zeros(len(keys), np.uint64)
        for w in range(self.words):
            h = (h ^ keys[:, w]) * GOLDEN
        return (h >> self.shift).astype(np.int64)

    def _find(self, keys: np.ndarray) -> np.ndarray:
        """The id of each key, EMPTY where absent."""
        found = np.full(len(keys), EMPTY, np.int64)
        slot = self._hash(keys)
        todo = np.arange(len(keys))
        while len(todo):
            ids = self.slots[slot[todo]]
            here = ids != EMPTY
            same = here.copy()
            same[here] = (self.keys[ids[here]] == keys[todo[here]]).all(axis=1)
            found[todo[same]] = ids[same]
            todo = todo[here & ~same]                     # occupied by another key: probe on
            slot[todo] = (slot[todo] + 1) & self.mask
        return found

    def _place(self, ids: np.ndarray, keys: np.ndarray) -> None:
        """Put distinct absent keys in empty slots (the lowest id first when two want one slot)."""
        slot = self._hash(keys)
        todo = np.arange(len(ids))
        while len(todo):
            empty = self.slots[slot[todo]] == EMPTY
            want = todo[empty]
            self.slots[slot[want][::-1]] = ids[want][::-1]    # for a shared slot, the first wins
            won = self.slots[slot[todo]] == ids[todo]
            todo = todo[~won]
            slot[todo] = (slot[todo] + 1) & self.mask

    def find_or_add(self, states: np.ndarray) -> tuple:
        """(ids, new): each row's id, and which rows were added now. Rows equal to an earlier row of
        the same batch get that row's id and new = False."""
        keys = self.pack(states)
        if 2 * (self.count + len(keys)) <= len(self.slots):
            return self._insert(keys)
        ids = self._find(keys)                 # the table may grow: by the distinct new keys only
        absent = np.flatnonzero(ids == EMPTY)
        new = np.zeros(len(states), bool)
        if len(absent):
            row = np.dtype((np.void, 8 * self.words))
            _, first = np.unique(np.ascontiguousarray(keys[absent]).view(row)[:, 0],
                                 return_index=True)
            self._grow(self.count + len(first))
            ids[absent], new[absent] = self._insert(keys[absent])
        return ids, new

    def _insert(self, keys: np.ndarray) -> tuple:
        """`find_or_add` in one probe loop, when the table has room for every key: a key absent
        from the table claims the empty slot it reaches (the earliest row, when several reach it
        at once; a claim holds the row as -2 - row until the ids are known), and a key meeting an
        equal key, stored or claimed, takes its id."""
        n = len(keys)
        found = np.full(n, EMPTY, np.int64)               # an id, or a claim -2 - row
        at = np.zeros(n, np.int64)                        # a claiming row's slot
        slot = self._hash(keys)
        todo = np.arange(n)
        while len(todo):
            here = self.slots[slot[todo]]
            want = todo[here == EMPTY]
            self.slots[slot[want][::-1]] = -2 - want[::-1]      # for a shared slot, the first wins
            here = self.slots[slot[todo]]
            won = here == -2 - todo
            at[todo[won]] = slot[todo[won]]
            found[todo[won]] = here[won]
            todo, here = todo[~won], here[~won]
            stored = here >= 0                            # an id; else row -2 - here's claim
            other = keys[np.where(stored, 0, -2 - here)]
            other[stored] = self.keys[here[stored]]
            same = (other == keys[todo]).all(axis=1)
            found[todo[same]] = here[same]
            todo = todo[~same]                            # another key's slot: probe on
            slot[todo] = (slot[todo] + 1) & self.mask
        first = np.flatnonzero(found == -2 - np.arange(n))    # new keys, in order of first sight
        rank = np.zeros(n, np.int64)
        rank[first] = self.count + np.arange(len(first))
        claimed = found < EMPTY
        found[claimed] = rank[-2 - found[claimed]]
        self.slots[at[first]] = found[first]
        self._grow(self.count + len(first))
        self.keys[self.count:self.count + len(first)] = keys[first]
        self.count += len(first)
        new = np.zeros(n, bool)
        new[first] = True
        return found, new

    def _grow(self, count: int) -> None:
        if count > len(self.keys):
            keys = np.zeros((max(count, 2 * len(self.keys), 16), self.words), np.uint64)
            keys[:self.count] = self.keys[:self.count]
            self.keys = keys
        if 2 * count > len(self.slots):
            capacity = len(self.slots)
            while 2 * count > capacity:
                capacity *= 2
            self._allocate(capacity)

    def bytes_after(self, count: int) -> int:
        """Bytes the table would hold with `count` keys (what the next growth would allocate)."""
        capacity = len(self.slots)
        while 2 * count > capacity:
            capacity *= 2
        return 8 * capacity + 8 * self.words * max(count, len(self.keys))
