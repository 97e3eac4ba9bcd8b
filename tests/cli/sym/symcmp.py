#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare pddump -s --json with
perf script --ns -F comm,tid,time,ip,sym,symoff,dso.

usage: symcmp.py [--names-more] PDDUMP_JSON PERF_SCRIPT_TXT

Every sample in time order (perf script sorts by time, pddump keeps the
stream's order): the same comm, tid and time, and for the ip (or each
callchain entry) the same "sym+0xoff (dso)". With --names-more, a
frame perf leaves "[unknown] (dso)" may have a name of that dso in
pddump's (every frame perf names, pddump names the same). Exit 0 when
all agree, 1 with the first differences otherwise.
"""
import json
import re
import sys


def frame(sym, off, dso):
    if sym is None:
        return "[unknown] (%s)" % dso
    return "%s+0x%x (%s)" % (sym, off, dso)


def ours(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        if r.get("type") != "SAMPLE":
            continue
        if r.get("callchain"):
            fr = [frame(e.get("sym"), e.get("symoff", 0), e["dso"])
                  for e in r["callchain"]]
        else:
            fr = [frame(r.get("sym"), r.get("symoff", 0), r["dso"])]
        out.append((r.get("comm"), r["tid"], r["time"], fr))
    out.sort(key=lambda x: x[2])    # stable: ties keep stream order
    return out


HEAD = re.compile(r"^\s*(.*?)\s+(\d+)\s+(\d+)\.(\d{9}):\s*(.*)$")
FRAME = re.compile(r"^\s*([0-9a-f]+)\s+(.*)$")


def theirs(path):
    out = []
    cur = None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            cur = None
            continue
        if line.startswith("\t") and cur is not None:
            m = FRAME.match(line)
            cur[3].append(m.group(2) if m else line.strip())
            continue
        m = HEAD.match(line)
        if not m:
            raise SystemExit("cannot parse perf line: %r" % line)
        cur = (m.group(1), int(m.group(2)),
               int(m.group(3)) * 1000000000 + int(m.group(4)), [])
        rest = m.group(5).strip()
        if rest:
            f = FRAME.match(rest)
            cur[3].append(f.group(2) if f else rest)
            out.append(cur)
            cur = None
        else:
            out.append(cur)
    return out


def agree(x, y, more):
    if x == y:
        return True
    if not more or x[:3] != y[:3] or len(x[3]) != len(y[3]):
        return False
    for f, g in zip(x[3], y[3]):
        if f != g and not (g.startswith("[unknown] (") and
                           f.endswith(g[len("[unknown]"):])):
            return False
    return True


def main():
    args = sys.argv[1:]
    more = bool(args) and args[0] == "--names-more"
    if more:
        args = args[1:]
    a, b = ours(args[0]), theirs(args[1])
    bad = 0
    nframes = 0
    if len(a) != len(b):
        print("sample count: pddump %d, perf %d" % (len(a), len(b)))
        bad += 1
    for i, (x, y) in enumerate(zip(a, b)):
        nframes += len(x[3])
        if not agree(x, y, more):
            bad += 1
            if bad <= 5:
                print("sample %d differs:\n  pddump: %s\n  perf:   %s"
                      % (i, x, y))
    print("%d samples, %d frames, %d differ" % (len(a), nframes, bad))
    return 1 if bad else 0


sys.exit(main())
