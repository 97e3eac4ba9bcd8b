#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare pdstat --json --sort KEYS with perf report -n -t ';' --sort KEYS.

usage: reportcmp.py LIST

Each line of LIST is one comparison, "KEYS children|self PDSTAT_JSON
PERF_REPORT_TXT [DSO]", where the tables were made with --sort KEYS:

Every event's table must be perf's, row for row: the same rows (keys,
Overhead to 2 decimals, Children too with --children, sample counts),
and in perf's order wherever perf defines one: rows of equal shown
percentages whose periods are equal (ours) must come in the order of
perf's sort keys, those that tie there (two unresolved symbols) in any.
Rows of DSO (with sym among the keys) are left out on both sides: perf
names [vdso] symbols of another host's stream from its own vdso, which
pdstat does not.

perf cuts a comm to its column's width, which it computes before a
thread's first comm renames its earlier samples: a perf comm that only
begins one of ours is taken as that one.
"""
import json
import os
import sys

def compare(keys, mode, ours_path, perf_path, skip_dso=None):
    sys_keys = [keys, mode]
    keys = keys.split(",")
    children = mode == "children"
    alias = {"tid": "pid", "symbol": "sym"}
    keys = [alias.get(k, k) for k in keys]


    def short(dso):
        return os.path.basename(dso) if dso.startswith("/") else dso


    def sym_key(level, name):
        return (level, name)


    # perf's tables: one list of rows per event, in its order.
    perf = []
    for line in open(perf_path, errors="replace"):
        if line.startswith("# Samples:"):
            perf.append([])
            continue
        if line.startswith("#") or not line.strip():
            continue
        f = [x.strip() for x in line.rstrip("\n").split(";")]
        want = len(keys) + (3 if children else 2)
        if len(f) != want or not perf:
            raise SystemExit("perf line of %d fields, not %d: %r" % (len(f), want, line))
        row = {"children": f[0] if children else None}
        f = f[1:] if children else f
        row["self"], row["samples"] = f[0], int(f[1])
        vals = []
        for k, v in zip(keys, f[2:]):
            if k == "pid":
                tid, _, comm = v.partition(":")
                vals.append((int(tid), comm))
            elif k == "sym":
                level, name = v[1], v[4:]
                if name.startswith("0x"):
                    name = int(name, 16)
                elif name == "0" * 16:	# perf's %#llx of 0
                    name = 0
                vals.append((level, name))
            else:
                vals.append(v)
        row["keys"] = tuple(vals)
        perf[-1].append(row)
    perf = [t for t in perf if t]
    perf_comms = [{v for r in t for k, v in zip(keys, r["keys"]) if k == "comm"}
                  for t in perf]


    def perf_comm(c, e):
        comms = perf_comms[e] if e < len(perf_comms) else set()
        if c in comms:
            return c
        cut = [p for p in comms if p and c.startswith(p)]
        return max(cut, key=len) if cut else c

    ours = []
    for e, ev in enumerate(json.load(open(ours_path))["top"]):
        t = []
        for r in ev["rows"]:
            vals = []
            for k in keys:
                if k == "comm":
                    vals.append(perf_comm(r["comm"], e))
                elif k == "pid":
                    vals.append((r["pid"], r["pid_comm"]))
                elif k == "dso":
                    vals.append(short(r["dso"]))
                else:
                    name = r["sym"] if r["sym"] is not None else int(r["addr"], 16)
                    vals.append(("k" if r["kernel"] else ".", name))
            t.append({"keys": tuple(vals), "samples": r["samples"],
                      "self": "%.2f%%" % r["percent"],
                      "children": "%.2f%%" % r["children_percent"] if children else None,
                      "period": (r["period"], r.get("children_period")),
                      "dso": r.get("dso")})
        if t:
            ours.append(t)


    if skip_dso is not None and "sym" in keys:
        # Ours by dso; perf's by dso, or by the vdso's "__vdso_" names.
        si = keys.index("sym")
        di = keys.index("dso") if "dso" in keys else None
        for t in perf:
            t[:] = [r for r in t if not (r["keys"][di] == skip_dso if di is not None
                    else str(r["keys"][si][1]).startswith("__vdso_"))]
        for t in ours:
            t[:] = [r for r in t if r["dso"] != skip_dso]


    def perf_order(row):
        """What perf's sort compares after the percentages."""
        out = []
        for k, v in zip(keys, row["keys"]):
            if k == "pid":
                out.append(v[0])
            elif k == "dso":
                out.append((v == "[unknown]", v))
            elif k == "sym":
                out.append((isinstance(v[1], int), "" if isinstance(v[1], int) else v[1]))
            else:
                out.append(v)
        return out


    def ident(row):
        return (row["keys"], row["self"], row["children"], row["samples"])


    bad = 0
    nrows = 0
    if len(ours) != len(perf):
        print("events: ours %d, perf %d" % (len(ours), len(perf)))
        bad += 1
    for e, (o, p) in enumerate(zip(ours, perf)):
        if sorted(map(ident, o), key=repr) != sorted(map(ident, p), key=repr):
            so, sp = set(map(ident, o)), set(map(ident, p))
            for x in sorted(so - sp, key=repr)[:10]:
                print("event %d: ours only: %s" % (e, x))
            for x in sorted(sp - so, key=repr)[:10]:
                print("event %d: perf only: %s" % (e, x))
            bad += 1
            continue
        nrows += len(o)
        i = 0
        while i < len(p):
            j = i
            while j < len(p) and (p[j]["self"], p[j]["children"]) == (p[i]["self"], p[i]["children"]):
                j += 1
            ob, pb = o[i:j], p[i:j]
            if sorted(map(ident, ob), key=repr) != sorted(map(ident, pb), key=repr):
                print("event %d rows %d-%d: not the same rows" % (e, i, j - 1))
                bad += 1
            elif len({r["period"] for r in ob}) == 1 and \
                    [perf_order(r) for r in ob] != [perf_order(r) for r in pb]:
                print("event %d rows %d-%d: not perf's order: ours %s, perf %s"
                      % (e, i, j - 1, [r["keys"] for r in ob], [r["keys"] for r in pb]))
                bad += 1
            i = j
    print("%s %s: %d rows compared, %d differ" % (perf_path, " ".join(sys_keys), nrows, bad))
    return 1 if bad or nrows == 0 else 0


failed = 0
for line in open(sys.argv[1]):
    if line.strip():
        failed += compare(*line.split())
sys.exit(1 if failed else 0)
