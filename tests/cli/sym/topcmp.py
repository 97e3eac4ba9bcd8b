#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare pdstat --json --top with perf report --stdio --sort sym|dso.

usage: topcmp.py sym|dso PDSTAT_JSON PERF_REPORT_TXT N

Every row of either top N (perf's table, ours) must be in the other
table with a percentage within 0.5 points. An unresolved address is a
row of its own in both (perf's 0x... rows: the address in its dso).
"""
import json
import os
import re
import sys

by, ours_path, perf_path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

top = json.load(open(ours_path))["top"]
if len(top) != 1:
    raise SystemExit("expected one event, got %d" % len(top))
ours = []
for r in top[0]["rows"]:
    if by == "sym":
        if r["sym"] is None:
            key = ("k" if r["kernel"] else ".", int(r["addr"], 16))
        else:
            key = ("k" if r["kernel"] else ".", r["sym"])
    else:
        key = os.path.basename(r["dso"]) if r["dso"].startswith("/") else r["dso"]
    ours.append((key, r["percent"]))

theirs = []
row = re.compile(r"^\s+([\d.]+)%\s+(.*?)\s*$")
for line in open(perf_path):
    if line.startswith("#"):
        continue
    m = row.match(line)
    if not m:
        continue
    pct, rest = float(m.group(1)), m.group(2)
    if by == "sym":
        s = re.match(r"^\[(.)\]\s+(.*)$", rest)
        if not s:
            continue
        name = s.group(2)
        if re.match(r"^0x[0-9a-f]+$", name):
            name = int(name, 16)
        theirs.append(((s.group(1), name), pct))
    else:
        theirs.append((rest, pct))

if not ours or not theirs:
    raise SystemExit("empty table: ours %d rows, perf %d rows" % (len(ours), len(theirs)))
od, td = dict(ours), dict(theirs)
bad = 0
# Our table has n rows (unresolved ones among them): check those named.
for key, pct in theirs[:n]:
    if key not in od:
        # Below our cut: fine only when it ties with the last we show.
        if len(top[0]["rows"]) >= n and pct <= top[0]["rows"][n - 1]["percent"] + 0.5:
            continue
        print("perf row %s %.2f%% missing from ours" % (key, pct))
        bad += 1
    elif abs(od[key] - pct) > 0.5:
        print("%s: ours %.2f%%, perf %.2f%%" % (key, od[key], pct))
        bad += 1
for key, pct in ours:
    if key not in td:
        print("our row %s %.2f%% not in perf's table" % (key, pct))
        bad += 1
print("%d rows compared, %d differ" % (min(n, len(theirs)), bad))
sys.exit(1 if bad else 0)
