#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Projects a census's level sizes past the level where a stopped run ended.

Reads `pegsol count --json` output (a stopped or a completed run). The ratio r of a level's size
(canonical positions) to the one above it falls from level to level by a step that shrinks with r:
step = -c * r**a. The exponent a (0.825) is fitted to the whole English central-game census; c is
fitted to the run's own last three steps. The ratios are continued until the last peg. With
--truncate K every level below K pegs is dropped first, to test the method on a completed run.
"""
import argparse
import json
import sys


def project(sizes, a=0.825, fit=3):
    """sizes: [(pegs, positions)] from the start down; the projected continuation and c."""
    ratios = [n1 / n0 for (_, n0), (_, n1) in zip(sizes, sizes[1:])]
    pairs = list(zip(ratios, ratios[1:]))[-fit:]
    c = sum((r0 - r1) / r0**a for r0, r1 in pairs) / len(pairs)
    r = ratios[-1]
    pegs, n = sizes[-1]
    out = []
    while pegs > 1:
        r -= c * r**a
        if r <= 0:
            break
        n *= r
        pegs -= 1
        out.append((pegs, n))
    return out, c


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="pegsol count --json output")
    ap.add_argument("--truncate", type=int, help="drop the levels below this many pegs first")
    ap.add_argument("--exponent", type=float, default=0.825)
    args = ap.parse_args()
    d = json.load(open(args.json))
    sizes = [(lv["pegs"], lv["reachable_up_to_symmetry"]) for lv in d["levels"]]
    actual = sum(n for _, n in sizes)
    if args.truncate:
        sizes = [(p, n) for p, n in sizes if p >= args.truncate]
    proj, c = project(sizes, args.exponent)
    measured = sum(n for _, n in sizes)
    total = measured + sum(n for _, n in proj)
    peak = max(sizes + proj, key=lambda t: t[1])
    print(f"{d['board']} {d['start']} -> {d['goal']}: {len(sizes)} levels measured, down to "
          f"{sizes[-1][0]} pegs ({measured:,} positions up to symmetry); c = {c:.3f}")
    for p, n in proj:
        print(f"  {p:3d} pegs {n:18,.0f}")
    print(f"projected: {total:,.0f} positions up to symmetry, the largest level "
          f"{peak[1]:,.0f} at {peak[0]} pegs")
    if args.truncate:
        print(f"actual: {actual:,} (projected / actual = {total / actual:.2f})")


if __name__ == "__main__":
    sys.exit(main())
