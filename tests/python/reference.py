# SPDX-License-Identifier: MIT
# Plain Python references for the module's tests: jumps from lattice coordinates, replays,
# memoised counts of jump sequences (written apart from the library), and JSON compared
# without its times.
from functools import lru_cache

DIRECTIONS = {
    "square": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "square8": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)],
    # skewed (row, k) coordinates: row r of a triangle holds k = 1..r
    "triangular": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
}


class Geometry:
    """Holes (in reading order) and jumps of a board given by its lattice and coordinates."""

    def __init__(self, lattice, coords):
        self.coords = list(coords)
        self.size = len(self.coords)
        at = {c: i for i, c in enumerate(self.coords)}
        self.jumps = []
        for h, (r, c) in enumerate(self.coords):
            for dr, dc in DIRECTIONS[lattice]:
                over = at.get((r + dr, c + dc))
                to = at.get((r + 2 * dr, c + 2 * dc))
                if over is not None and to is not None:
                    self.jumps.append((h, over, to))
        self.jump_set = set(self.jumps)

    def mask(self, holes):
        m = 0
        for h in holes:
            m |= 1 << h
        return m

    def replay(self, start_mask, jumps):
        """The position after `jumps` from `start_mask`; AssertionError on an illegal jump."""
        pegs = start_mask
        for j in jumps:
            f, o, t = tuple(j)
            assert (f, o, t) in self.jump_set, f"{(f, o, t)} is not a jump of the board"
            assert pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1, f"{(f, o, t)} illegal"
            pegs ^= (1 << f) | (1 << o) | (1 << t)
        return pegs

    def moves_from(self, pegs):
        for f, o, t in self.jumps:
            if pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1:
                yield pegs ^ ((1 << f) | (1 << o) | (1 << t))

    def counter(self):
        """Memoised counts from a position: (sequences to one peg, per final hole; games)."""

        @lru_cache(maxsize=None)
        def to_one(pegs):
            # {hole: sequences ending with one peg there}
            if pegs & (pegs - 1) == 0:
                return {pegs.bit_length() - 1: 1} if pegs else {}
            out = {}
            for nxt in self.moves_from(pegs):
                for h, n in to_one(nxt).items():
                    out[h] = out.get(h, 0) + n
            return out

        @lru_cache(maxsize=None)
        def games(pegs):
            total, any_move = 0, False
            for nxt in self.moves_from(pegs):
                any_move = True
                total += games(nxt)
            return total if any_move else 1

        @lru_cache(maxsize=None)
        def to_position(pegs, goal):
            if pegs == goal:
                return 1
            if bin(pegs).count("1") <= bin(goal).count("1"):
                return 0
            return sum(to_position(nxt, goal) for nxt in self.moves_from(pegs))

        return to_one, games, to_position


def geometry_of(board):
    """The reference geometry of a pegsol.Board from its lattice and coordinates."""
    return Geometry(board.lattice, board.coords)


def without_seconds(value):
    """The value with every "seconds" figure dropped, at any depth (times differ run to run)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value
