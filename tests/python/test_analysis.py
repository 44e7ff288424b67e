# SPDX-License-Identifier: MIT
# The analysis from Python (verdicts, ways left, end holes, hints, first mistake) against the
# plain brute force, along random games on small boards.
import random

import pytest

import pegsol
from reference import geometry_of


def random_game(board_spec, start, end, seed):
    """A game played by random legal moves until no jump is left."""
    rng = random.Random(seed)
    game = pegsol.Game(board=board_spec, start=start, end=end)
    while not game.finished:
        game.play(rng.choice(game.position.legal_moves()))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_analysis_along_a_random_game(seed):
    game = random_game("triangle:5", "1", "13", seed)
    board = game.board
    ref = geometry_of(board)
    to_one, _, _ = ref.counter()
    goal = board.hole("13")
    replay = pegsol.Game(game.problem)
    analyzer = pegsol.Analyzer(game)
    for move in [None] + game.played:
        if move is not None:
            replay.play(move)
        ends = to_one(ref.mask(replay.position.pegs))
        # With the game's start: the census look-ups answer exactly.
        a = pegsol.analyze(replay)
        assert a.exact and a.counted
        assert a.ways_one_peg == sum(ends.values())
        assert a.ways_goal == ends.get(goal, 0)
        assert a.end_holes == [board.hole_name(h) for h in sorted(ends)]
        assert a.one_peg.solvable == bool(ends)
        assert a.goal.solvable == (goal in ends)
        j = a.to_json()
        assert j["ways_goal"] == str(a.ways_goal) and j["goal"]["verdict"] == a.goal.verdict
        if a.goal.solvable is False:
            assert a.goal.reason and a.goal.explanation
        if a.hint is not None:
            p = replay.position.copy()
            p.apply(a.hint)
            after = to_one(ref.mask(p.pegs))
            assert (goal in after) if a.hint_to_goal else bool(after)
        # A position alone, with no start: the searches and the count answer.
        b = analyzer.analyze(replay.position, lookup=False)
        assert b.goal.solvable == (goal in ends) and not b.exact
        if b.counted:
            assert b.ways_goal == ends.get(goal, 0)


@pytest.mark.parametrize("seed", range(8))
def test_first_mistake_is_the_first_losing_move(seed):
    game = random_game("triangle:5", "4", "1", seed)
    board = game.board
    ref = geometry_of(board)
    to_one, _, _ = ref.counter()
    goal = board.hole("1")
    pos = game.problem.start.copy()
    solvable = [goal in to_one(ref.mask(pos.pegs))]
    for m in game.played:
        pos.apply(m)
        solvable.append(goal in to_one(ref.mask(pos.pegs)))
    m = pegsol.first_mistake(game)
    assert m.now == ("solvable" if solvable[-1] else "not solvable")
    assert m.start_lost == (not solvable[0])
    lost = [i for i in range(1, len(solvable)) if solvable[i - 1] and not solvable[i]]
    assert m.move == (lost[0] - 1 if lost and solvable[0] else None)
    if m.move is not None:
        assert m.rewind_to == m.move and m.reason
    j = m.to_json()
    assert j["move"] == m.move and j["start_lost"] == m.start_lost


def test_hints_lead_towards_the_goal():
    board = pegsol.Board("triangle:5")
    ref = geometry_of(board)
    to_one, _, _ = ref.counter()
    pos = board.single_vacancy("1")
    while True:
        h = pegsol.hint(pos, end="13")
        ends = to_one(ref.mask(pos.pegs))
        assert h.verdict == ("solvable" if board.hole("13") in ends else "not solvable")
        if h.move is None:
            break
        pos.apply(h.move)
        assert h.to_json()["move"]["notation"] == board.notation(h.move)
    assert pos.peg_count == 1 and pos.is_peg("13")


def test_analysis_input_errors():
    game = pegsol.Game(board="triangle:5")
    with pytest.raises(pegsol.InputError, match="goal"):
        pegsol.analyze(game, end="1")
    with pytest.raises(pegsol.InputError, match="time_limit"):
        pegsol.analyze(game, time_limit=float("nan"))
    with pytest.raises(TypeError):
        pegsol.analyze("triangle:5")


def test_module_analyze_shares_its_lookups():
    """pegsol.analyze and first_mistake build a game's look-ups once for all their calls."""
    pegsol.clear_lookups()
    game = pegsol.Game(board="triangle:5", start="1", end="13")
    assert pegsol.lookup_status(game)["state"] == "none"
    a = pegsol.analyze(game)
    assert a.exact
    status = pegsol.lookup_status(game)
    assert status["state"] == "ready" and status["bytes"] > 0
    game.play(game.position.legal_moves()[0])
    b = pegsol.analyze(game)
    assert b.exact and b.lookup_note == a.lookup_note  # the same build, its time in the note
    assert pegsol.first_mistake(game).now in ("solvable", "not solvable")
    assert pegsol.lookup_status(game) == status
    pegsol.clear_lookups()
    assert pegsol.lookup_status(game)["state"] == "none"


def test_module_analyze_remembers_a_failed_lookup():
    """A build stopped by lookup_memory is remembered: the later calls search at once."""
    pegsol.clear_lookups()
    game = pegsol.Game(board="english")
    game.play("d2-d4")
    a = pegsol.analyze(game, time_limit=1, lookup_memory=1)
    assert not a.exact and "memory" in a.lookup_note
    assert a.goal.verdict == "solvable"
    status = pegsol.lookup_status(game)
    assert status["state"] == "failed" and "memory" in status["why"]
    game.play("f3-d3")
    b = pegsol.analyze(game, time_limit=1, lookup_memory=1)
    assert b.lookup_note == a.lookup_note and pegsol.lookup_status(game) == status
    # Cleared: the failure is forgotten, to be tried again.
    pegsol.clear_lookups()
    assert pegsol.lookup_status(game)["state"] == "none"


def test_analyzer_memo_bound():
    """An analyzer's search memo is bounded as its caller asks (megabytes, as lookup_memory)."""
    game = pegsol.Game(pegsol.Problem(board="triangle:5"))
    assert pegsol.Analyzer(game).memo_bytes == 64 << 20
    small = pegsol.Analyzer(game, memo_memory=2)
    assert small.memo_bytes == 2 << 20
    assert small.analyze(game.position, time_limit=0).one_peg.solvable is True
    with pytest.raises(pegsol.InputError):
        pegsol.Analyzer(game, memo_memory=0)
    with pytest.raises(TypeError):
        pegsol.Analyzer(game, memo_memory="big")
