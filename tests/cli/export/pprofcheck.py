# SPDX-License-Identifier: MIT
"""Checks what go tool pprof read from pdstat --pprof against pdstat's
and pddump's own views of the same stream.

  pprofcheck.py raw N.json N.raw        -raw totals = pdstat's per event
  pprofcheck.py traces N.folded T...    one event's -traces = the folded
                                        stacks (the files T of each event:
                                        the folded event's must match)
  pprofcheck.py top N.json N.top        -top's first function = --top 1's
  pprofcheck.py tags N.json N.tags      -tags has pid tid comm cpu host
"""
import collections
import json
import re
import sys


def die(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def raw_totals(path):
    """The sample types and the sum of each column of pprof -raw."""
    lines = open(path).read().split("\n")
    try:
        i = lines.index("Samples:")
    except ValueError:
        die("%s: no Samples: section" % path)
    types = [t.rsplit("/", 1)[0] for t in lines[i + 1].split()]
    types = [t[:-len("[dflt]")] if t.endswith("[dflt]") else t
             for t in types]
    sums = [0] * len(types)
    for ln in lines[i + 2:]:
        if ln.startswith("Locations") or ln.startswith("Mappings"):
            break
        m = re.match(r"^\s+([0-9 ]+):", ln)
        if not m:
            continue
        vals = [int(v) for v in m.group(1).split()]
        if len(vals) != len(types):
            die("%s: %d values for %d types: %r" % (path, len(vals),
                                                   len(types), ln))
        sums = [a + b for a, b in zip(sums, vals)]
    return dict(zip(types, sums))


def check_raw(jpath, rpath):
    st = json.load(open(jpath))
    tot = raw_totals(rpath)
    for ev in st["events"]:
        n, p = ev["name"], ev["name"] + "_samples"
        if tot.get(p) != ev["samples"] or tot.get(n) != ev["period"]:
            die("%s: %s: pprof %s samples, %s period; pdstat %d, %d" % (
                rpath, n, tot.get(p), tot.get(n), ev["samples"],
                ev["period"]))
    if len(tot) != 2 * len(st["events"]):
        die("%s: sample types %s, events %s" % (rpath, sorted(tot),
                                                [e["name"] for e in
                                                 st["events"]]))
    print("%s: %d events, totals as pdstat's" % (rpath, len(st["events"])))


GO_METHOD = re.compile(r"\.\(.*\)\.")


def tidy(name):
    """A pprof function name as the folded stacks write it (fold.c)."""
    if not GO_METHOD.search(name):
        k = 0
        while True:
            k = name.find("(", k)
            if k < 0:
                break
            if not name.startswith("(anonymous namespace)", k):
                name = name[:k]
                break
            k += 1
    return name.replace('"', "").replace("'", "").replace(";", ":")


def traces(path):
    """pprof -traces as a Counter of "comm;outer;...;leaf" -> count."""
    out = collections.Counter()
    blocks = open(path).read().split("-----------+----------------------"
                                     "---------------------------------")
    for b in blocks[1:]:
        if not b.strip():
            continue
        comm, frames, count = None, [], None
        for ln in b.split("\n")[1:]:
            if not ln.strip():
                continue
            m = re.match(r"^\s+comm:\s+(.*)$", ln)
            if m and count is None:
                comm = m.group(1)
                continue
            if re.match(r"^\s+\w+:\s", ln) and count is None:
                continue
            m = re.match(r"^\s+(\d+)\s+(.*)$", ln)
            if m and count is None:
                count = int(m.group(1))
                frames.append(m.group(2))
                continue
            frames.append(ln.strip())
        if count is None:
            die("%s: a trace without a value: %r" % (path, b[:200]))
        if count == 0:
            continue
        if comm is None:
            die("%s: a trace without comm" % path)
        key = ";".join([comm.replace(" ", "_")] +
                       [tidy(f) for f in reversed(frames)])
        out[key] += count
    return out


SUFFIX = re.compile(r"_\[[kji]\]$")


def folded(path):
    out = collections.Counter()
    for ln in open(path):
        stack, n = ln.rstrip("\n").rsplit(" ", 1)
        parts = stack.split(";")
        # A sample with no frame: pprof's has one, [unknown].
        if len(parts) == 1:
            parts.append("[unknown]")
        out[";".join([parts[0]] + [SUFFIX.sub("", f)
                                   for f in parts[1:]])] += int(n)
    return out


def check_traces(fpath, tpaths):
    want = folded(fpath)
    if not want:
        die("%s: no stacks" % fpath)
    for t in tpaths:
        if traces(t) == want:
            print("%s: %d stacks, %d samples, as %s" % (
                t, len(want), sum(want.values()), fpath))
            return
    got = traces(tpaths[0])
    only_f = list((want - got).items())[:3]
    only_p = list((got - want).items())[:3]
    die("%s: no event's traces are the folded stacks; folded only: %r; "
        "pprof only: %r" % (fpath, only_f, only_p))


def check_top(jpath, tpath, ev):
    st = json.load(open(jpath))
    rows = [t["rows"] for t in st["top"] if t["event"] == ev]
    if not rows or not rows[0]:
        die("%s: no --top rows for %s" % (jpath, ev))
    want = rows[0][0]["sym"]
    if want is None:
        die("%s: --top 1 of %s names no symbol" % (jpath, ev))
    lines = open(tpath).read().split("\n")
    i = [k for k, ln in enumerate(lines) if ln.split()[:1] == ["flat"]]
    if not i:
        die("%s: no -top table" % tpath)
    body = [ln.split(None, 5) for ln in lines[i[0] + 1:] if ln.strip()]
    first = [r for r in body if r[0] == body[0][0]]
    if want not in [r[5] for r in first]:
        die("%s: first %r, pdstat --top 1 %r" % (tpath, body[0][5], want))
    print("%s: first function %s, as pdstat --top 1" % (tpath, want))


def check_tags(jpath, tpath):
    st = json.load(open(jpath))
    keys = set(re.findall(r"^ (\w+): Total", open(tpath).read(), re.M))
    need = {"pid", "tid", "comm", "host"}
    if st.get("cpus"):
        need.add("cpu")
    if not need <= keys:
        die("%s: tags %s, not %s" % (tpath, sorted(keys), sorted(need)))
    print("%s: tags %s" % (tpath, " ".join(sorted(keys))))


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    if what == "raw":
        check_raw(*args)
    elif what == "traces":
        check_traces(args[0], args[1:])
    elif what == "top":
        check_top(*args)
    elif what == "tags":
        check_tags(*args)
    else:
        die("unknown check " + what)
