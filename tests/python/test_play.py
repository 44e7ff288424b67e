# SPDX-License-Identifier: MIT
# The play API from Python: boards, positions, jumps and moves, games and their text, against
# the plain reference geometry, and bad input raising pegsol.InputError with the message.
import copy

import pytest

import pegsol
from reference import geometry_of

BOARDS = ["english", "french", "triangle:5", "hexagon:3", "rect:3x4", "diamond41"]


@pytest.mark.parametrize("spec", BOARDS)
def test_board_jumps_match_the_lattice(spec):
    board = pegsol.Board(spec)
    ref = geometry_of(board)
    assert board.size == len(board) == len(board.hole_names) == ref.size
    assert sorted(tuple(j) for j in board.jumps) == sorted(ref.jumps)
    for h, name in enumerate(board.hole_names):
        assert board.hole(name) == h and board.hole_name(h) == name
    j = board.jumps[0]
    assert (j[0], j[1], j[-1]) == tuple(j) == (j.from_, j.over, j.to) and j == tuple(j)


def test_board_json_is_the_library_shape():
    j = pegsol.Board("english").to_json()
    assert j["board"] == "english" and j["holes"] == 33 and j["jumps"] == 76
    assert j["names"][16] == "d4"
    g = pegsol.Board("triangle:5").geometry_json()
    assert len(g["coords"]) == 15 and g["default"]["start"].count("0") == 1


def test_catalogue_and_presets():
    specs = [s for s, _ in pegsol.boards()]
    assert "english" in specs and "triangle:5" in specs
    assert [b["board"] for b in pegsol.catalogue_json()["boards"]] == specs
    names = [p["name"] for p in pegsol.presets_json()["presets"]]
    assert "latin-cross" in names
    p = pegsol.preset("latin-cross")
    assert p.board.name == "english" and p.start.peg_count == 6


def test_positions_apply_and_undo_every_legal_jump():
    board = pegsol.Board("english")
    start = board.single_vacancy("d4")
    ref = geometry_of(board)
    pegs = ref.mask(start.pegs)
    legal = start.legal_jumps()
    assert sorted(tuple(j) for j in legal) == sorted(
        j for j in ref.jumps if pegs >> j[0] & 1 and pegs >> j[1] & 1 and not pegs >> j[2] & 1
    )
    for j in legal:
        p = start.copy()
        p.apply(j)
        assert ref.mask(p.pegs) == ref.replay(pegs, [j])
        assert p.peg_count == start.peg_count - 1
        p.undo(j)
        assert p == start
    # The same jumps by name and as tuples.
    p = copy.copy(start)
    p.apply("d2-d4")
    q = start.copy()
    q.apply((board.hole("d2"), board.hole("d3"), board.hole("d4")))
    assert p == q and not p.is_peg("d2") and p.is_peg("d4")


def test_moves_are_chains_of_jumps():
    board = pegsol.Board("english")
    p = board.single_vacancy("d4")
    # The first legal jump each time, until some peg can jump twice in a row.
    while not any(len(m) > 1 for m in p.legal_moves()):
        p.apply(p.legal_jumps()[0])
    chains = p.legal_moves()
    assert all(isinstance(m, pegsol.Move) for m in chains)
    longer = [m for m in chains if len(m) > 1]
    for m in chains:
        assert all(m.jumps[i].to == m.jumps[i + 1].from_ for i in range(len(m) - 1))
        assert p.is_legal(m)
    m = longer[0]
    text = board.notation(m)
    assert board.parse_move(text) == m and len(text.split("-")) == len(m) + 1
    before = p.copy()
    p.apply(m)
    assert p.peg_count == before.peg_count - len(m)
    p.undo(m)
    assert p == before


def test_positions_read_and_print():
    board = pegsol.Board("triangle:5")
    p = board.single_vacancy("1")
    assert p.to_string() == "0" + "1" * 14
    assert pegsol.Position(board, p.to_string()) == p
    assert pegsol.Position("triangle:5", str(p)) == p  # the drawing reads back
    assert pegsol.Position(board, range(1, 15)) == p
    assert p.peg_names == board.hole_names[1:]
    assert p != board.single_vacancy("2")
    assert len({p, board.single_vacancy("1")}) == 1


def test_draw_a_board():
    pos = pegsol.draw("oo.o\n o o\n")
    board = pos.board
    assert board.size == 6 and board.lattice == "square"
    assert pos.to_string() == "110111"
    assert board.default_problem() is None
    tri = pegsol.draw("lattice: triangular\n  .\n o o\no o o\n")
    assert tri.board.lattice == "triangular" and tri.board.size == 6
    assert len(tri.legal_jumps()) == 2


def test_games_play_undo_redo_and_text():
    game = pegsol.Game(board="triangle:5", start="1", end="13")
    assert not game.can_undo and game.position.peg_count == 14
    game.play("4-1")
    game.play("6-4")
    game.play(game.position.legal_moves()[0])
    assert game.cursor == 3 and len(game.played) == 3
    assert game.undo() and game.cursor == 2 and game.can_redo
    assert game.redo() and game.cursor == 3
    assert game.undo()
    text = game.to_text()
    back = pegsol.Game.parse(text)
    assert back.to_text() == text
    assert back.moves == game.moves and back.cursor == game.cursor
    assert back.position == game.position
    j = game.to_json()
    assert j["moves"] == ["4-1", "6-4"] and len(j["undone"]) == 1 and j["text"] == text
    assert j["goal"] == {"kind": "hole", "hole": "13"}
    # A game of moves given at once, as the API's "moves".
    same = pegsol.Game(board="triangle:5", start="1", end="13", moves="4-1 6-4")
    assert same.position == game.position
    # Numbered and comma-separated, as the command prints moves (parse_move_list).
    numbered = pegsol.Game(board="triangle:5", start="1", end="13", moves="1.4-1, 2.6-4")
    assert numbered.position == game.position and numbered.moves == same.moves


def test_problems_from_objects_and_text():
    board = pegsol.Board("english")
    by_text = pegsol.Problem(board="english", start="c1", end="d4")
    by_object = pegsol.Problem(board=board, start=board.hole("c1"), end="d4")
    assert by_text.start == by_object.start and by_text.end == by_object.end == "d4"
    default = pegsol.Problem(board="english")
    assert default.end == "d4" and default.start == board.single_vacancy("d4")
    assert pegsol.Problem(board=board).start == default.start
    target = board.position(["d4"])
    p = pegsol.Problem(start=board.single_vacancy("d4"), goal=target)
    assert p.end is None and p.goal == target and p.reached(target)
    assert "english" in str(default)


def test_bad_input_raises_input_error_with_the_message():
    with pytest.raises(pegsol.InputError) as e:
        pegsol.Board("englsh")
    assert isinstance(e.value, ValueError) and "englsh" in str(e.value)
    with pytest.raises(pegsol.InputError, match="z9"):
        pegsol.Problem(board="english", start="z9")
    with pytest.raises(pegsol.InputError, match="99"):
        pegsol.Problem(board=pegsol.Board("english"), start=99)
    p = pegsol.Board("english").single_vacancy("d4")
    with pytest.raises(pegsol.InputError, match="d1-d3"):
        p.apply("d1-d3")  # d3's peg is there but d3 is not empty
    with pytest.raises(pegsol.InputError, match="drawing:1:2"):
        pegsol.draw("ox\n")
    with pytest.raises(pegsol.InputError, match="33"):
        pegsol.Position(pegsol.Board("english"), "0101")
    with pytest.raises(pegsol.InputError, match="game"):
        pegsol.Game.parse("not a game\n")
    with pytest.raises(pegsol.InputError, match="move 2"):
        pegsol.Game(board="triangle:5", start="1", moves=["4-1", "4-1"])
    with pytest.raises(pegsol.InputError, match="moves: move 2: move 'zz'"):
        pegsol.Game(board="triangle:5", start="1", moves="4-1 zz")
    with pytest.raises(TypeError):
        p.apply(3.5)
