# SPDX-License-Identifier: MIT
# Random small boards drawn as text (square, square8 and triangular lattices) with random pegs,
# and random starts on catalogue boards: solve and count agree with the plain brute force.
from hypothesis import given, settings
from hypothesis import strategies as st

import pegsol
from reference import Geometry, geometry_of


@st.composite
def drawings(draw):
    """(text, lattice, cells in reading order, pegs as a set of reading-order indices)."""
    lattice = draw(st.sampled_from(["square", "square8", "triangular"]))
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 5))
    if lattice == "triangular":
        # skewed (r, k); drawn staggered, hole (r, k) in column 2k - r
        space = [(r, k) for r in range(rows) for k in range(cols)]
    else:
        space = [(r, c) for r in range(rows) for c in range(cols)]
    holes = draw(st.lists(st.sampled_from(space), min_size=3, max_size=len(space), unique=True))
    cells = sorted(holes) if lattice != "triangular" else sorted(holes, key=lambda h: (h[0], h[1]))
    pegs = draw(st.sets(st.integers(0, len(cells) - 1), min_size=1))
    column = (lambda r, k: 2 * k - r) if lattice == "triangular" else (lambda r, c: c)
    left = min(column(*h) for h in cells)
    lines = []
    for r in range(rows):
        line = [" "] * (2 * cols + rows + 2)
        for i, h in enumerate(cells):
            if h[0] == r:
                line[column(*h) - left] = "o" if i in pegs else "."
        lines.append("".join(line).rstrip())
    header = "" if lattice == "square" else f"lattice: {lattice}\n"
    return header + "\n".join(lines) + "\n", lattice, cells, pegs


@settings(max_examples=60)
@given(drawings())
def test_random_drawn_boards_agree_with_the_brute_force(d):
    text, lattice, cells, pegs = d
    start = pegsol.draw(text)
    board = start.board
    assert board.lattice == lattice and board.size == len(cells)
    ref = Geometry(lattice, cells)
    assert sorted(tuple(j) for j in board.jumps) == sorted(ref.jumps)
    assert set(start.pegs) == pegs
    to_one, games, _ = ref.counter()
    mask = ref.mask(pegs)
    expected = to_one(mask)
    c = pegsol.count(start=start, end="any")
    assert c.solutions == sum(expected.values())
    assert c.games == games(mask)
    assert c.solutions_by_final_hole == {board.hole_name(h): n for h, n in expected.items()}
    r = pegsol.solve(start=start, end="any")
    assert r.status == ("solved" if expected else "impossible")
    if r.solved:
        assert bin(ref.replay(mask, r.moves)).count("1") == 1


@settings(max_examples=40)
@given(
    st.sampled_from(["triangle:5", "rect:3x4", "triangle:4", "english"]),
    st.data(),
)
def test_random_starts_on_catalogue_boards(spec, data):
    board = pegsol.Board(spec)
    ref = geometry_of(board)
    # English positions with few pegs keep the brute force small.
    most = 9 if spec == "english" else board.size
    pegs = data.draw(st.sets(st.integers(0, board.size - 1), min_size=1, max_size=most))
    end = data.draw(st.one_of(st.just("any"), st.integers(0, board.size - 1)))
    start = board.position(sorted(pegs))
    to_one, _, _ = ref.counter()
    expected = to_one(ref.mask(pegs))
    want = sum(expected.values()) if end == "any" else expected.get(end, 0)
    c = pegsol.count(start=start, end=end)
    assert c.solutions == want
    r = pegsol.solve(start=start, end=end)
    assert r.status == ("solved" if want else "impossible")
    if r.solved:
        final = ref.replay(ref.mask(pegs), r.moves)
        assert final == (1 << end if end != "any" else final) and bin(final).count("1") == 1
