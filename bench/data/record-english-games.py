#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes bench/data/english-random-games.txt: python3 bench/data/record-english-games.py > FILE
# Records the positions along random English games (uniform legal jumps, fixed seed).
import random
rows=["  ooo  ","  ooo  ","ooooooo","ooooooo","ooooooo","  ooo  ","  ooo  "]
cells=[(r,c) for r in range(7) for c in range(7) if rows[r][c]=='o']
idx={rc:i for i,rc in enumerate(cells)}
jumps=[]
for (r,c) in cells:
    for dr,dc in ((0,1),(1,0),(0,-1),(-1,0)):
        o=(r+dr,c+dc); t=(r+2*dr,c+2*dc)
        if o in idx and t in idx: jumps.append((idx[(r,c)],idx[o],idx[t]))
rng=random.Random(20)
out=[]
for g in range(40):
    p=[1]*33; p[idx[(3,3)]]=0
    out.append("".join(map(str,p)))
    while True:
        legal=[j for j in jumps if p[j[0]] and p[j[1]] and not p[j[2]]]
        if not legal: break
        f,o,t=rng.choice(legal); p[f]=p[o]=0; p[t]=1
        out.append("".join(map(str,p)))
    out.append("")
print("# Positions along 40 random games on the English board from the central vacancy (a uniformly")
print("# random legal jump each turn, Python random.Random(20)); one 0/1 string per position in")
print("# reading order, a blank line between games. Read by bench/gbench.cpp (BM_Analysis*).")
print("\n".join(out))
