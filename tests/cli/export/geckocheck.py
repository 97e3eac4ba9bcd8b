# SPDX-License-Identifier: MIT
"""Checks pdstat --gecko's JSON: every table and every index of the
gecko profile format (as perf's gecko.py writes it), the samples'
count against pdstat's summary, and, when one event has samples, the
stacks against pddump --folded's.

  geckocheck.py PROFILE.json SUMMARY.json [FOLDED]
"""
import collections
import json
import os
import re
import sys


def die(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def need(cond, msg):
    if not cond:
        die(msg)


def schema(table, names, where):
    need(isinstance(table, dict) and set(table) == {"schema", "data"},
         "%s: not {schema, data}" % where)
    need(table["schema"] == {n: i for i, n in enumerate(names)},
         "%s: schema %r" % (where, table["schema"]))
    need(isinstance(table["data"], list), "%s: data" % where)
    for r in table["data"]:
        need(isinstance(r, list) and len(r) == len(names),
             "%s: row %r" % (where, r))
    return table["data"]


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check(prof, summary, folded_path):
    p = json.load(open(prof))
    st = json.load(open(summary))
    need(set(p) == {"meta", "libs", "threads", "processes",
                    "pausedRanges"}, "top level %r" % sorted(p))
    m = p["meta"]
    for k, t in (("interval", (int, float)), ("startTime", (int, float)),
                 ("version", int), ("product", str),
                 ("presymbolicated", bool), ("categories", list)):
        need(isinstance(m.get(k), t), "meta.%s: %r" % (k, m.get(k)))
    need(m["interval"] > 0, "meta.interval %r" % m["interval"])
    cats = m["categories"]
    need([c["name"] for c in cats] == ["User", "Kernel"],
         "categories %r" % cats)
    for c in cats:
        need(isinstance(c["color"], str) and c["subcategories"],
             "category %r" % c)
    nsamples, tids = 0, set()
    stacks = collections.Counter()
    for th in p["threads"]:
        w = "thread %r" % th.get("tid")
        need(is_int(th["tid"]) and is_int(th["pid"]) and
             isinstance(th["name"], str), w + ": tid, pid, name")
        need(th["tid"] not in tids, w + ": twice")
        tids.add(th["tid"])
        strings = th["stringTable"]
        need(all(isinstance(s, str) for s in strings), w + ": strings")
        frames = schema(th["frameTable"], [
            "location", "relevantForJS", "innerWindowID", "implementation",
            "optimizations", "line", "column", "category", "subcategory"],
            w + " frameTable")
        for f in frames:
            need(is_int(f[0]) and 0 <= f[0] < len(strings),
                 w + ": frame location %r" % f)
            need(is_int(f[7]) and 0 <= f[7] < len(cats),
                 w + ": frame category %r" % f)
            need(f[8] is None or (is_int(f[8]) and 0 <= f[8] <
                                  len(cats[f[7]]["subcategories"])),
                 w + ": frame subcategory %r" % f)
            dso = re.match(r"^.* \(in (.*)\)$", strings[f[0]], re.S)
            need(dso, w + ": frame %r not 'name (in dso)'" % strings[f[0]])
            dso = dso.group(1)
            if dso == "[kernel.kallsyms]" or dso.endswith("vmlinux"):
                need(f[7] == 1, w + ": %r not Kernel" % strings[f[0]])
            elif f[7] == 1:
                need(dso.startswith("[") and dso not in (
                    "[vdso]", "[unknown]", "[heap]", "[stack]"),
                    w + ": %r is Kernel" % strings[f[0]])
        stk = schema(th["stackTable"], ["prefix", "frame"],
                     w + " stackTable")
        for i, s in enumerate(stk):
            need(s[0] is None or (is_int(s[0]) and 0 <= s[0] < i),
                 w + ": stack %d prefix %r" % (i, s[0]))
            need(is_int(s[1]) and 0 <= s[1] < len(frames),
                 w + ": stack %d frame %r" % (i, s[1]))
        schema(th["markers"], ["name", "startTime", "endTime", "phase",
                               "category", "data"], w + " markers")
        rows = schema(th["samples"], ["stack", "time", "responsiveness"],
                      w + " samples")
        last = 0
        for r in rows:
            need(is_int(r[0]) and 0 <= r[0] < len(stk),
                 w + ": sample stack %r" % r)
            need(isinstance(r[1], (int, float)) and r[1] >= last,
                 w + ": sample time %r after %r" % (r[1], last))
            last = r[1]
            names, s = [], r[0]
            while s is not None:
                names.append(strings[frames[stk[s][1]][0]])
                s = stk[s][0]
            stacks[tuple(reversed(names))] += 1
        nsamples += len(rows)
    want = sum(e["samples"] for e in st["events"])
    need(nsamples == want, "%d samples, pdstat counts %d" % (nsamples, want))
    print("%s: %d threads, %d samples, every index in its table" % (
        prof, len(p["threads"]), nsamples))
    if folded_path and sum(1 for e in st["events"] if e["samples"]) == 1:
        check_folded(stacks, folded_path, prof)


def fold_name(frame):
    """'name (in dso)' as pddump --folded names the frame."""
    name, dso = re.match(r"^(.*) \(in (.*)\)$", frame, re.S).groups()
    if name == "[unknown]":
        base = os.path.basename(dso) if dso != "[unknown]" else "unknown"
        if base.endswith(" (deleted)"):
            base = base[:-10]
        name = "[%s]" % base
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import pprofcheck
    return pprofcheck.tidy(name)


def check_folded(stacks, folded_path, prof):
    # A thread is named by its last comm (gecko.py's rule), a folded
    # stack by the comm of its time: the stacks are compared without.
    got = collections.Counter()
    for k, n in stacks.items():
        got[";".join(fold_name(f) for f in k)] += n
    want = collections.Counter()
    for ln in open(folded_path):
        stack, n = ln.rstrip("\n").rsplit(" ", 1)
        parts = stack.split(";")
        if len(parts) == 1:
            parts.append("[unknown]")
        want[";".join(re.sub(r"_\[[kji]\]$", "", f)
                      for f in parts[1:])] += int(n)
    need(got == want, "%s: stacks not the folded ones: folded only %r; "
         "gecko only %r" % (prof, list((want - got).items())[:3],
                            list((got - want).items())[:3]))
    print("%s: %d stacks, as pddump --folded" % (prof, len(want)))


if __name__ == "__main__":
    check(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3
          else None)
