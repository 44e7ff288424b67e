# SPDX-License-Identifier: MIT
# solve, count, table and fewest from Python: solutions replayed on the Python side, counts
# against a plain memoised brute force, to_json() against the command's --json, limits, Ctrl-C
# and the GIL released during long calls.
import re
import json
import os
import signal
import subprocess
import sys
import threading

import pytest

import pegsol
from reference import geometry_of, without_seconds

SMALL = ["triangle:4", "triangle:5", "rect:3x4", "rect:3x3"]


def check_solution(result, problem):
    """The solution replays jump by jump from the start and reaches the goal."""
    ref = geometry_of(problem.board)
    start = ref.mask(problem.start.pegs)
    final = ref.replay(start, result.moves)
    assert final == ref.mask(result.final.pegs)
    if problem.end == "any":
        assert bin(final).count("1") == 1
    elif problem.end is not None:
        assert final == 1 << problem.board.hole(problem.end)
    else:
        assert final == ref.mask(problem.goal.pegs)
    # The library's own play API agrees.
    p = problem.start.copy()
    for j in result.moves:
        p.apply(j)
    assert problem.reached(p)


def test_first_solve_of_the_issue():
    r = pegsol.solve(board="triangle:5", start="4", end="4")
    assert r.to_json()["status"] == "solved" and r.status == "solved" and r.solved
    check_solution(r, r.problem)
    assert r.notation == [r.problem.board.notation(j) for j in r.moves]


@pytest.mark.parametrize("spec", SMALL)
def test_counts_equal_the_brute_force(spec):
    board = pegsol.Board(spec)
    ref = geometry_of(board)
    to_one, games, _ = ref.counter()
    for h in range(board.size):
        start = board.single_vacancy(h)
        pegs = ref.mask(start.pegs)
        expected = to_one(pegs)
        c = pegsol.count(start=start, end="any")
        assert c.status == "complete" and c.stop == "finished"
        assert c.solutions == sum(expected.values())
        assert c.games == games(pegs)
        assert c.solutions_by_final_hole == {board.hole_name(k): n for k, n in expected.items()}
        assert all(isinstance(n, int) for n in c.solutions_by_final_hole.values())
        assert c.to_json()["solutions"] == str(c.solutions)
        # One goal hole: the same figure for that hole alone, and solve agrees.
        end = (h * 7) % board.size
        one = pegsol.count(start=start, end=end)
        assert one.solutions == expected.get(end, 0)
        r = pegsol.solve(start=start, end=end)
        assert r.status == ("solved" if expected.get(end, 0) else "impossible")
        if r.solved:
            check_solution(r, r.problem)


def test_counts_to_a_whole_position():
    board = pegsol.Board("triangle:5")
    ref = geometry_of(board)
    _, _, to_position = ref.counter()
    start = board.single_vacancy("1")
    goal = board.position(["4", "13"])  # two pegs
    c = pegsol.count(start=start, goal=goal)
    assert c.solutions == to_position(ref.mask(start.pegs), ref.mask(goal.pegs))
    r = pegsol.solve(start=start, goal=goal)
    assert r.solved == (c.solutions > 0)
    if r.solved:
        check_solution(r, r.problem)


def test_big_counts_are_python_ints():
    # The English census's games outgrow 64 bits (5.8e20): exact Python ints, strings in the JSON.
    c = pegsol.count(board="english", distinct=False, random_player=False)
    assert c.status == "complete"
    assert c.games > 2**64 and c.to_json()["games"] == str(c.games)
    # The central game's solutions end on d4; the figures per hole count every one-peg end.
    assert c.solutions == int(c.to_json()["solutions"]) == c.solutions_by_final_hole["d4"]
    assert c.solutions_by_final_hole["d1"] < c.solutions


def test_fewest_moves_solutions_replay():
    r = pegsol.solve(board="triangle:5", minimize="moves")
    assert r.solved and r.proven and r.fewest == r.lower_bound == len(r.chains)
    check_solution(r, r.problem)
    f = pegsol.fewest(board="triangle:5")
    assert f.proven and f.fewest <= r.fewest and f.status == "solved"
    p = pegsol.Problem(board="triangle:5", start=f.start, end=f.end)
    ref = geometry_of(p.board)
    assert bin(ref.replay(ref.mask(p.start.pegs), f.moves)).count("1") == 1


def test_finish_a_game_keeping_its_moves():
    r = pegsol.solve(board="english", moves="d2-d4 f3-d3")
    assert r.solved and r.kept_moves == 2
    assert r.notation[:2] == ["d2-d4", "f3-d3"]
    check_solution(r, r.problem)


def test_table_against_the_brute_force():
    board = pegsol.Board("triangle:5")
    ref = geometry_of(board)
    to_one, _, _ = ref.counter()
    t = pegsol.table(board="triangle:5")
    assert t.complete and t.status == "complete"
    for v in range(board.size):
        ends = to_one(ref.mask(board.single_vacancy(v).pegs))
        for h in range(board.size):
            assert t.solvable(v, h) == (h in ends)
        assert t.finals[board.hole_name(v)] == [board.hole_name(h) for h in sorted(ends)]
    ft = pegsol.table(board="triangle:5", minimize="moves")
    assert ft.complete
    for v in range(board.size):
        ends = to_one(ref.mask(board.single_vacancy(v).pegs))
        for h in range(board.size):
            assert (ft.moves(v, h) > 0) == (h in ends)


@pytest.mark.parametrize(
    "call, args",
    [
        (lambda: pegsol.solve(board="triangle:5", start="4", end="4"),
         ["solve", "--board", "triangle:5", "--start", "4", "--end", "4"]),
        (lambda: pegsol.solve(), ["solve"]),
        (lambda: pegsol.solve(board="french", start="d4", end="d4"),
         ["solve", "--board", "french", "--start", "d4", "--end", "d4"]),
        (lambda: pegsol.solve(board="english", moves="d2-d4 f3-d3"),
         ["solve", "--moves", "d2-d4 f3-d3"]),
        (lambda: pegsol.solve(board="triangle:5", minimize="moves"),
         ["solve", "--board", "triangle:5", "--minimize", "moves"]),
        (lambda: pegsol.solve(board="triangle:6", start="1", algorithm="dfs"),
         ["solve", "--board", "triangle:6", "--start", "1", "--algorithm", "dfs"]),
        (lambda: pegsol.count(board="triangle:5"), ["count", "--board", "triangle:5"]),
        (lambda: pegsol.count(board="rect:3x4", start="b2", end="any", threads=1),
         ["count", "--board", "rect:3x4", "--start", "b2", "--end", "any", "--threads", "1"]),
        (lambda: pegsol.table(board="triangle:5"), ["table", "--board", "triangle:5"]),
        (lambda: pegsol.table(board="triangle:5", minimize="moves"),
         ["table", "--board", "triangle:5", "--minimize", "moves"]),
        (lambda: pegsol.fewest(board="triangle:5"), ["fewest", "--board", "triangle:5"]),
    ],
)
def test_to_json_is_what_the_command_prints(command, call, args):
    status, printed = command(*args)
    assert status in (0, 1), printed
    assert without_seconds(call().to_json()) == without_seconds(printed)


def test_boards_and_show_json_are_the_commands(command):
    assert pegsol.catalogue_json() == command("boards")[1]
    assert pegsol.Board("hexagon:3").to_json() == command("show", "--board", "hexagon:3")[1]


@pytest.mark.parametrize(
    "call, args",
    [
        (lambda: pegsol.solve(board="englsh"), ["solve", "--board", "englsh"]),
        (lambda: pegsol.solve(start="z9"), ["solve", "--start", "z9"]),
        (lambda: pegsol.count(board="triangle:5", start="0101"),
         ["count", "--board", "triangle:5", "--start", "0101"]),
        (lambda: pegsol.solve(board="english", moves="d2-d4 d2-d4"),
         ["solve", "--moves", "d2-d4 d2-d4"]),
    ],
)
def test_bad_input_raises_the_library_message(command, call, args):
    status, printed = command(*args)
    assert status == 2 and printed["error"]["kind"] == "input"
    with pytest.raises(pegsol.InputError) as e:
        call()
    # The command's message is the library's, words for its own options and hints aside (the
    # library points to catalogue(), the command to `pegsol boards`).
    library = re.sub(r" \(catalogue\(\) lists.*\)$", "", str(e.value).replace("moves: ", ""))
    assert library in printed["error"]["message"]


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: pegsol.solve(time_limit=-1), "time_limit"),
        (lambda: pegsol.solve(memory_limit=0), "memory_limit"),
        (lambda: pegsol.solve(algorithm="fast"), "auto, dfs, beam or beam-report"),
        (lambda: pegsol.solve(minimize="jumps"), "minimize"),
        (lambda: pegsol.solve(minimize="moves", algorithm="dfs"), "algorithm"),
        (lambda: pegsol.solve(algorithm="dfs", seed=3), "seed"),
        (lambda: pegsol.solve(fewest_beam=10), "fewest_beam"),
        (lambda: pegsol.count(threads=-1), "threads"),
        (lambda: pegsol.count(distinct=False, distinct_limit=5), "distinct_limit"),
        (lambda: pegsol.fewest(board=pegsol.Board("english"), lattice="square8"), "lattice"),
        (lambda: pegsol.table(board="triangle:5", method="passes", search_seconds=1),
         "search_seconds"),
        (lambda: pegsol.count(spill_dir="/nonexistent/dir"), "spill_dir"),
        (lambda: pegsol.solve(end="d4", goal="0" * 33), "either end or goal"),
        (lambda: pegsol.solve(pegsol.Problem(), board="english"), "not both"),
    ],
)
def test_bad_options_raise_input_error_naming_them(call, words):
    with pytest.raises(pegsol.InputError) as e:
        call()
    assert isinstance(e.value, ValueError) and words in str(e.value)


def test_library_errors_name_the_keywords_not_the_library_fields(tmp_path):
    # The library's InputError names its options' fields ("CensusOptions::resume: ..."); the
    # module's exceptions name the keyword arguments that set them.
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(pegsol.InputError) as e:
        pegsol.count(board="triangle:5", resume=str(empty))
    message = str(e.value)
    assert message.startswith("resume: " + str(empty)), message
    assert "no census checkpoint" in message, message
    assert "::" not in message and "Options" not in message, message
    with pytest.raises(pegsol.InputError) as e:
        pegsol.table(board="triangle:5", resume=str(empty))
    assert str(e.value).startswith("resume: "), str(e.value)
    assert "::" not in str(e.value), str(e.value)
    (tmp_path / "fewest.state").write_text("not a state\n")
    with pytest.raises(pegsol.InputError) as e:
        pegsol.fewest(board="triangle:5", resume=str(tmp_path))
    assert "resume" in str(e.value) and "::" not in str(e.value), str(e.value)


def test_a_long_call_stops_at_its_time_limit():
    c = pegsol.count(board="english", time_limit=0.05)
    assert c.status == "stopped" and c.stop == "time"
    j = c.to_json()
    assert j["stop"] == "time" and j["status"] == "stopped"


def test_a_memory_limit_stops_a_census():
    c = pegsol.count(board="english", memory_limit=4)
    assert c.status == "stopped" and c.stop == "memory" and c.stop_note
    # In the module's words: the keyword argument, never the library's field or a command option.
    assert "(memory_limit)" in c.stop_note, c.stop_note
    j = c.to_json()
    assert j["stop_limit"] == {"field": "memory_limit", "bytes": 4 << 20}
    assert "(memory_limit)" in j["reason"], j["reason"]
    for library in ("Options::", "Control::", "--memory-limit", "job_memory"):
        assert library not in c.stop_note and library not in json.dumps(j), library
    # The note's closing period gives way to the rest of the reason.
    assert ".;" not in j["reason"] and "docs/mpi.md); the figures" in j["reason"], j["reason"]


def test_progress_reports_reach_python_and_their_errors_stop_the_call():
    reports = []
    pegsol.count(board="english", start="c1", time_limit=1.5, progress=reports.append)
    assert reports and {"done", "total", "fraction", "phase", "level"} <= set(reports[0])

    def fail(report):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        pegsol.count(board="english", start="c1", time_limit=30, progress=fail)


def test_long_calls_release_the_gil():
    ticks = [0]
    in_call = threading.Event()
    finished = threading.Event()

    def tick():
        while not finished.is_set():
            if in_call.is_set():
                ticks[0] += 1

    t = threading.Thread(target=tick)
    t.start()
    try:
        in_call.set()
        c = pegsol.count(board="english", start="c1", time_limit=1)
        in_call.clear()
    finally:
        finished.set()
        t.join()
    assert c.stop in ("time", "finished")
    assert ticks[0] > 1000, "another Python thread ran while the census did"


CTRL_C_CHILD = r"""
import json, sys
import pegsol
announced = []
def progress(report):
    if not announced:
        announced.append(1)
        print("running", flush=True)
try:
    r = pegsol.count(board="english", start="c1", time_limit=120, progress=progress)
    print(json.dumps({"interrupted": False, "stop": r.stop}), flush=True)
except KeyboardInterrupt as e:
    result = getattr(e, "result", None)
    print(json.dumps({"interrupted": True,
                      "stop": result.stop if result is not None else None}), flush=True)
"""


def test_ctrl_c_stops_the_engine_and_raises_keyboard_interrupt():
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        assert child.stdout.readline().strip() == "running"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    answer = json.loads(out)
    assert answer == {"interrupted": True, "stop": "signal"}
    assert child.returncode == 0
