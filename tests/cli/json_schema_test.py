#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every `pegsol ... --json` outcome against docs/json-schema.json: exactly one object on stdout
(a second object or trailing text fails json.loads), valid against the $defs entry its command
names, and the exit status the README gives for that outcome.
Usage: json_schema_test.py PEGSOL SCHEMA"""
import json
import os
import signal
import subprocess
import sys
import tempfile

import jsonschema

pegsol, schema_path = sys.argv[1], sys.argv[2]
with open(schema_path) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
tmp = tempfile.mkdtemp()
with open(os.path.join(tmp, "tri.txt"), "w") as f:
    f.write("lattice: triangular\n    .\n   o o\n  o o o\n o o o o\no o o o o\n")
with open(os.path.join(tmp, "bad.txt"), "w") as f:
    f.write("  ooo\n  oxo\n")

# (definition, exit status, arguments[, signal to send after a second])
CASES = [
    ("solve", 0, ["solve", "--json"]),
    ("solve", 0, ["solve", "-b", "triangle:5", "--json"]),
    ("solve", 0, ["solve", "-b", f"@{tmp}/tri.txt", "--json"]),
    ("solve", 1, ["solve", "-b", "french", "-s", "d4", "-e", "d4", "--json"]),
    ("solve", 4, ["solve", "-b", "diamond41", "-s", "e4", "-e", "any", "--algorithm", "dfs",
                  "--time-limit", "0.05", "--json"]),
    ("solve", 0, ["solve", "-b", "wiegleb", "-s", "e5", "-e", "e5", "--algorithm", "beam",
                  "--json"]),
    ("solve", 4, ["solve", "-b", "wiegleb", "-s", "e5", "-e", "e5", "--algorithm", "beam",
                  "--capacity", "1000000000", "--memory-limit", "100", "--time-limit", "0.5",
                  "--json"]),
    ("solve", 130, ["solve", "-b", "wiegleb", "-s", "e5", "-e", "any", "--algorithm", "dfs",
                    "--json"], signal.SIGINT),
    ("census", 0, ["count", "-b", "triangle:5", "--json"]),
    ("census", 0, ["count", "-b", "triangle:5", "-s", "1", "-e", "13", "--json"]),
    ("census", 4, ["count", "-b", "french", "--no-distinct", "--memory-limit", "50", "--json"]),
    ("census", 4, ["count", "-b", "french", "--no-distinct", "--time-limit", "0.3", "--json"]),
    ("census", 143, ["count", "-b", "french", "--no-distinct", "--json"], signal.SIGTERM),
    ("table", 0, ["table", "-b", "triangle:5", "--json"]),
    ("table", 0, ["table", "-b", "triangle:6", "--method", "passes", "--json"]),
    ("table", 4, ["table", "-b", "wiegleb", "--time-limit", "0.5", "--json"]),
    ("solutions", 0, ["solutions", "-b", "triangle:5", "--json"]),
    ("solutions", 0, ["solutions", "-b", "triangle:5", "--limit", "2", "--json"]),
    ("solutions", 0, ["solutions", "-b", "triangle:5", "--distinct", "--json"]),
    ("solutions", 0, ["solutions", "-b", "triangle:4", "-s", "1", "-e", "any", "--games",
                      "--json"]),
    ("solutions", 1, ["solutions", "-b", "triangle:5", "-s", "1", "-e", "2", "--json"]),
    ("solutions", 4, ["solutions", "-b", "english", "--time-limit", "0.3", "--json"]),
    ("solutions", 129, ["solutions", "-b", "english", "--json"], signal.SIGHUP),
    ("solve", 0, ["solve", "-b", "triangle:5", "--minimize", "moves", "--json"]),
    ("solve", 4, ["solve", "-b", "english", "--minimize", "moves", "--time-limit", "0.2",
                  "--json"]),
    ("solve", 0, ["solve", "--moves", "d2-d4 f3-d3", "--json"]),
    ("solve", 0, ["solve", "-b", "triangle:5", "--moves", "4-1", "--minimize", "moves", "--json"]),
    ("solve", 0, ["solve", "--preset", "latin-cross", "--json"]),
    ("fewest", 0, ["fewest", "-b", "triangle:5", "--json"]),
    ("fewest", 4, ["fewest", "-b", "english", "--time-limit", "0.2", "--json"]),
    ("fewest_table", 0, ["table", "-b", "triangle:5", "--minimize", "moves", "--json"]),
    ("fewest_table", 4, ["table", "-b", "english", "--minimize", "moves", "--time-limit", "0.3",
                         "--json"]),
    ("presets", 0, ["presets", "--json"]),
    ("error", 2, ["solve", "--preset", "latin-crosss", "--json"]),
    ("error", 2, ["fewest", "-b", "triangle:16", "--json"]),
    ("board", 0, ["show", "-b", "english", "--json"]),
    ("catalogue", 0, ["boards", "--json"]),
    ("bench", 0, ["bench", "--repeat", "1", "--json"]),
    ("error", 2, ["solve", "-b", "nope", "--json"]),
    ("error", 2, ["solve", "-s", "z9", "--json"]),
    ("error", 2, ["solve", "-b", f"@{tmp}/bad.txt", "--json"]),
    ("error", 2, ["solve", "--time-limit", "nan", "--json"]),
    ("error", 2, ["count", "--threads", "-3", "--json"]),
    ("error", 2, ["count", "-b", "wiegleb+x", "--json"]),
    ("error", 2, ["solutions", "--limit", "-1", "--json"]),
    ("error", 2, ["table", "--bogus", "--json"]),
    ("error", 2, ["show", "-b", "triangle:99", "--json"]),
    ("error", 2, ["count", "-b", "triangle:12", "--json"]),
]

failed = 0
validator = jsonschema.Draft202012Validator(schema)
for case in CASES:
    definition, want, args = case[:3]
    sig = case[3] if len(case) > 3 else None
    proc = subprocess.Popen([pegsol] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if sig is not None:
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    name = " ".join(args)
    problems = []
    if proc.returncode != want:
        problems.append(f"exit status {proc.returncode}, want {want}")
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        problems.append(f"stdout is not exactly one JSON object: {e}")
        doc = None
    if doc is not None and definition == "solutions" and isinstance(doc.get("solutions"), list):
        # The count says how many were streamed; the first 50 stand for the rest (the validator
        # is slow on tens of thousands).
        if doc.get("count") != str(len(doc["solutions"])):
            problems.append(f"count {doc.get('count')} but {len(doc['solutions'])} solutions")
        doc["solutions"] = doc["solutions"][:50]
    if doc is not None:
        sub = {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
        for e in jsonschema.Draft202012Validator(sub).iter_errors(doc):
            problems.append(f"{definition}: {'/'.join(map(str, e.path))}: {e.message[:200]}")
        for e in validator.iter_errors(doc):
            problems.append(f"schema: {e.message[:200]}")
            break
    if problems:
        failed += 1
        print(f"FAIL pegsol {name}")
        for p in problems[:5]:
            print("   ", p)
        print("    stderr:", err.decode(errors="replace")[:300])
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
