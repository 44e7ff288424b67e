#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Load test and latency benchmark of `pegsol serve` on a loopback port (docs/api.md).

  load_test.py PEGSOL [--clients 60] [--seconds 15]   many clients at once mixing every endpoint
      (boards, presets, board, game, solve, hint, analysis, mistake, solutions, lookups, status,
      jobs started, polled, paused, resumed and cancelled), malformed and hostile requests (bad
      JSON, an illegal move, an unknown key, a foreign Origin, text/plain, a chunked body) and
      slow clients (a request sent a header line at a time; one never finished, which the server
      closes); fails on any answer but the intended one (200/202, the 4xx each hostile request
      means, 503), on a connection error, or when the server's memory grows past a bound. Prints
      requests/s, p50/p95 per endpoint and the peak RSS.
  load_test.py PEGSOL --bench [--positions 200]       one client: "still solvable?", hints and
      whole analyses (with the count of the ways left) for positions along random English games
      (fixed seed), p50/p95 in milliseconds; the game opened --think seconds (2) before the first.
Prints one JSON object of figures."""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from server_util import Server  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("pegsol")
ap.add_argument("--clients", type=int, default=60)
ap.add_argument("--seconds", type=float, default=15)
ap.add_argument("--bench", action="store_true")
ap.add_argument("--positions", type=int, default=200)
ap.add_argument("--think", type=float, default=2,
                help="--bench: seconds between opening the game and the first move")
ap.add_argument("--max-rss-mb", type=float, default=1500)
args = ap.parse_args()


def random_games(geo, start, count, seed):
    """`count` (start, moves) pairs: prefixes of random English games, the moves as 'd2-d4'."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos, moves = list(start), []
        while True:
            legal = [j for j in geo["jump_list"]
                     if pos[j[0]] == "1" and pos[j[1]] == "1" and pos[j[2]] == "0"]
            if not legal:
                break
            out.append(list(moves))
            f, o, t = rng.choice(legal)
            pos[f] = pos[o] = "0"
            pos[t] = "1"
            moves.append(geo["names"][f] + "-" + geo["names"][t])
    return out[:count]


def pct(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 2) if xs else None


s = Server(args.pegsol, "--slots", "4", "--jobs", "2")
geo = s.get("/api/board?board=english")[1]
games = random_games(geo, geo["default"]["start"], args.positions, 20)
figures = {}
bad = []
try:
    if args.bench:
        # The page asks about the start as it opens a game (which starts building the game's
        # solution-path look-ups); the player's first move comes some seconds later.
        s.post("/api/analysis", {"board": "english", "moves": [], "count": False})
        time.sleep(args.think)
        figures["think_s"] = args.think
        # "Still solvable?" is the page's first question after each move (count: false); the
        # count of the ways left is its second, shown when it comes ("analysis").
        for kind, path, extra in (("solvable", "/api/analysis", {"count": False}),
                                  ("hint", "/api/hint", {}),
                                  ("analysis", "/api/analysis", {})):
            times, verdicts = [], {}
            for moves in games:
                t0 = time.perf_counter()
                st, r, _ = s.post(path, {"board": "english", "moves": moves, **extra})
                times.append(time.perf_counter() - t0)
                if st != 200:
                    bad.append((kind, st, r))
                v = r["verdict"] if kind == "hint" else r["goal"]["verdict"]
                verdicts[v] = verdicts.get(v, 0) + 1
            figures[kind] = {"positions": len(times), "p50_ms": pct(times, 0.5),
                             "p95_ms": pct(times, 0.95), "max_ms": pct(times, 1.0),
                             "verdicts": verdicts}
    else:
        lock = threading.Lock()
        statuses, lat, errors = {}, {}, []
        rss = [s.rss_kb()]
        stop_at = time.time() + args.seconds

        host, port = s.base.split("//")[1].rsplit(":", 1)
        H = b"Host: 127.0.0.1\r\n"

        def slow(finish):
            """A request a header line at a time (0.3 s apart); `finish`: sent whole, else left
            unfinished until the server closes it. (status or 'closed')."""
            with socket.create_connection((host, int(port)), timeout=30) as c:
                lines = [b"GET /api/status HTTP/1.1\r\n", H, b"X-A: 1\r\n", b"X-B: 2\r\n"]
                for line in lines:
                    c.sendall(line)
                    time.sleep(0.3)
                if finish:
                    c.sendall(b"Connection: close\r\n\r\n")
                got = b""
                while True:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    got += chunk
                return int(got[9:12]) if got.startswith(b"HTTP/1.1 ") else "closed"

        # Each op: (what it sends, the statuses it may get besides 503).
        ok = (200,)
        expect = {"boards": ok, "presets": ok, "board": ok, "board-post": ok, "game": ok,
                  "solve": ok, "hint": ok, "analysis": ok, "mistake": ok, "solutions": ok,
                  "lookups": ok, "status": ok, "jobs": ok, "job": (202, 200),
                  "malformed": (400,), "illegal": (400,), "unknown-key": (400,),
                  "cross-origin": (403,), "text-plain": (415,), "chunked": (411,),
                  "slow": ok, "stalled": ("closed", 400, 408)}
        ops = list(expect) + ["hint", "analysis", "solve"]
        for op in expect:
            lat.setdefault(op, [])

        def one(op, rng, moves):
            """(status, body) of one op."""
            tri = {"board": "triangle:5", "start": str(rng.randint(1, 15))}
            if op == "boards":
                return s.get("/api/boards")[:2]
            if op == "presets":
                return s.get("/api/presets")[:2]
            if op == "board":
                return s.get("/api/board?board=" + rng.choice(["english", "french", "triangle:6"]))[:2]
            if op == "board-post":
                return s.post("/api/board", {"drawing": "ooo\nooo\no.o"})[:2]
            if op == "game":
                return s.post("/api/game", {"board": "english", "moves": moves})[:2]
            if op in ("hint", "analysis", "mistake"):
                body = {"board": "english", "moves": moves}
                if op == "analysis":
                    body["count"] = False
                return s.post("/api/" + op, body)[:2]
            if op == "solve":
                return s.post("/api/solve", tri)[:2]
            if op == "solutions":
                return s.post("/api/solutions", {**tri, "limit": 5})[:2]
            if op == "lookups":
                return s.post("/api/lookups", {"board": "triangle:5"})[:2]
            if op == "status":
                return s.get("/api/status")[:2]
            if op == "jobs":
                return s.get("/api/jobs")[:2]
            if op == "malformed":
                return s.post("/api/solve", raw=b'{"board": "english", ')[:2]
            if op == "illegal":
                return s.post("/api/hint", {"board": "english", "moves": ["d4-d2"]})[:2]
            if op == "unknown-key":
                return s.post("/api/solve", {"board": "english", "strat": "c1"})[:2]
            if op == "cross-origin":
                return s.raw(b"POST /api/jobs HTTP/1.1\r\n" + H + b"Origin: http://evil.example"
                             b"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            if op == "text-plain":
                return s.raw(b"POST /api/solve HTTP/1.1\r\n" + H + b"Content-Type: text/plain"
                             b"\r\nContent-Length: 2\r\n\r\n{}")
            if op == "chunked":
                return s.raw(b"POST /api/solve HTTP/1.1\r\n" + H + b"Content-Type: application/"
                             b"json\r\nTransfer-Encoding: chunked\r\n\r\n" +
                             (b"10000\r\n" + b"x" * 65536 + b"\r\n") * 16 + b"0\r\n\r\n")
            if op in ("slow", "stalled"):
                return slow(op == "slow"), None
            # A job: started, polled, paused, resumed, cancelled.
            st, r, _ = s.post("/api/jobs", {"kind": rng.choice(["count", "table"]),
                                            "board": rng.choice(["english", "triangle:6"])})
            if st == 202:
                for action in ("pause", "resume", "cancel"):
                    time.sleep(rng.random() * 0.2)
                    st2, _, _ = s.get(f"/api/jobs/{r['id']}")
                    st3, _, _ = s.post(f"/api/jobs/{r['id']}/{action}", {})
                    with lock:
                        for x in (st2, st3):
                            statuses[x] = statuses.get(x, 0) + 1
                            if x not in (200, 404):
                                errors.append(f"job {action}: HTTP {x}")
            return st, r

        def client(i):
            rng = random.Random(i)
            while time.time() < stop_at:
                op = rng.choice(ops)
                moves = rng.choice(games)
                t0 = time.perf_counter()
                try:
                    st, r = one(op, rng, moves)
                except Exception as e:  # a connection error is a failure
                    with lock:
                        errors.append(f"{op}: {e}")
                    continue
                dt = time.perf_counter() - t0
                if st == 503:  # a polite client waits as Retry-After says
                    time.sleep(1)
                with lock:
                    statuses[st] = statuses.get(st, 0) + 1
                    if st in expect[op] and st != "closed":
                        lat[op].append(dt)
                    if st not in expect[op] and st != 503:
                        errors.append(f"{op}: HTTP {st} {r}")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            rss.append(s.rss_kb())
            time.sleep(0.2)
        for t in threads:
            t.join()
        st, _, _ = s.get("/api/boards")
        requests = sum(statuses.values())
        figures = {"clients": args.clients, "seconds": args.seconds, "requests": requests,
                   "requests_per_s": round(requests / args.seconds, 1),
                   "statuses": {str(k): v for k, v in sorted(statuses.items(), key=str)},
                   "p50_p95_ms": {op: [pct(v, 0.5), pct(v, 0.95)] for op, v in sorted(lat.items())},
                   "rss_start_mb": round(rss[0] / 1024, 1),
                   "rss_max_mb": round(max(rss) / 1024, 1), "errors": len(errors)}
        bad += errors[:20]
        if st != 200:
            bad.append("the server did not answer after the load")
        if max(rss) / 1024 > args.max_rss_mb:
            bad.append(f"memory grew to {max(rss) / 1024:.0f} MB")
        if not lat["hint"] or statuses.get(400, 0) == 0:
            bad.append("no hint answered or no malformed request refused")
    rc = s.stop()
    if rc != 0:
        bad.append(f"pegsol serve exited with {rc} on SIGTERM")
finally:
    if s.proc.poll() is None:
        s.proc.kill()
print(json.dumps(figures))
for b in bad:
    print("FAIL", str(b)[:400])
sys.exit(1 if bad else 0)
