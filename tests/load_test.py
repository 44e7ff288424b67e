#!/usr/bin/env python3
"""Load test and latency benchmark of `pegsol serve` on a loopback port (docs/api.md).

  load_test.py PEGSOL [--clients 60] [--seconds 15]   many clients at once: hints, analyses,
      solves, malformed requests, jobs started and cancelled; fails on any answer other than
      200/202/400/413/503, on a connection error, or when the server's memory grows past a bound.
  load_test.py PEGSOL --bench [--positions 200]       one client: "still solvable?", hints and
      whole analyses (with the count of the ways left) for positions along random English games
      (fixed seed), p50/p95 in milliseconds; the game opened --think seconds (2) before the first.
Prints one JSON object of figures."""
import argparse
import json
import os
import random
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
        statuses, lat, errors = {}, {"hint": [], "analysis": []}, []
        rss = [s.rss_kb()]
        stop_at = time.time() + args.seconds

        def client(i):
            rng = random.Random(i)
            while time.time() < stop_at:
                op = rng.choice(["hint", "hint", "analysis", "solve", "malformed", "illegal",
                                 "job"])
                moves = rng.choice(games)
                t0 = time.perf_counter()
                try:
                    if op in ("hint", "analysis"):
                        st, r, _ = s.post("/api/" + op, {"board": "english", "moves": moves,
                                                         "count": False})
                    elif op == "solve":
                        st, r, _ = s.post("/api/solve", {"board": "triangle:5",
                                                         "start": str(rng.randint(1, 15))})
                    elif op == "malformed":
                        st, r, _ = s.post("/api/solve", raw=b'{"board": "english", ')
                    elif op == "illegal":
                        st, r, _ = s.post("/api/hint", {"board": "english", "moves": ["d4-d2"]})
                    else:
                        st, r, _ = s.post("/api/jobs", {"kind": "count", "board": "english"})
                        if st == 202:
                            time.sleep(rng.random() * 0.5)
                            st2, r2, _ = s.post(f"/api/jobs/{r['id']}/cancel", {})
                            with lock:
                                statuses[st2] = statuses.get(st2, 0) + 1
                except Exception as e:  # a connection error is a failure
                    with lock:
                        errors.append(f"{op}: {e}")
                    continue
                dt = time.perf_counter() - t0
                if st == 503:  # a polite client waits as Retry-After says
                    time.sleep(float(_.get("Retry-After", "1")) if _ else 1)
                with lock:
                    statuses[st] = statuses.get(st, 0) + 1
                    if st == 200 and op in lat:
                        lat[op].append(dt)
                    if st not in (200, 202, 400, 413, 503):
                        errors.append(f"{op}: HTTP {st} {r}")
                    if op in ("malformed", "illegal") and st not in (400, 503):
                        errors.append(f"{op}: HTTP {st}, wanted 400")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            rss.append(s.rss_kb())
            time.sleep(0.2)
        for t in threads:
            t.join()
        st, _, _ = s.get("/api/boards")
        figures = {"clients": args.clients, "seconds": args.seconds,
                   "requests": sum(statuses.values()),
                   "statuses": {str(k): v for k, v in sorted(statuses.items())},
                   "hint_p50_ms": pct(lat["hint"], 0.5), "hint_p95_ms": pct(lat["hint"], 0.95),
                   "analysis_p50_ms": pct(lat["analysis"], 0.5),
                   "analysis_p95_ms": pct(lat["analysis"], 0.95),
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
