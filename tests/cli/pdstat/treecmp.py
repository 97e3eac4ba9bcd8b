#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare pdstat --tree with perf report --stdio's call graphs.

usage: treecmp.py OURS PERF

Both made with --sort comm,dso,sym (or sym; the symbol last) on the same
stream, perf with its default -g (graph,0.5,caller): every entry of
perf's, and its graph, must be ours. An entry is its percentages, comm
(when keyed) and symbol ("[.] name"); its graph a tree read from the
drawing by the column each function starts at: a branch is its share
and its run of functions, with the branches under it. Branches of equal
share are compared as a set (perf's order among them is its rb-tree's).
Whitespace is not compared. Entries of [vdso] (keyed by dso) are left
out: perf names those of another host's stream from its own vdso, which
pdstat does not. Prints "N entries, M graphs, K differ".
"""
import re
import sys

ENTRY = re.compile(r"^\s*(\d+\.\d\d%)\s+(?:(\d+\.\d\d%)\s+)?(.*?)\s*$")
SYM = re.compile(r"^(.*?)\s*(\[[.kgGuH]\] .*)$")
BRANCH = re.compile(r"^(.*?)--(\d+\.\d\d)%--(.*)$")


def tree(lines):
    """The graph drawn by lines: (share, names, branches), canonical."""
    root = [None, [], []]
    stack = [(-1, root)]
    for ln in lines:
        if not ln.strip(" |"):
            continue
        m = re.match(r"^(\s*)---(.*)$", ln)
        if m:
            node = [None, [m.group(2)], []]
            root[2].append(node)
            stack = [(-1, root), (len(m.group(1)) + 3, node)]
            continue
        m = BRANCH.match(ln)
        if m:
            # A level is 11 columns: "|" and "--0.80%--" padded.
            col = len(m.group(1)) + 10
            while stack[-1][0] >= col:
                stack.pop()
            node = [m.group(2), [m.group(3)], []]
            stack[-1][1][2].append(node)
            stack.append((col, node))
            continue
        col = len(ln) - len(ln.lstrip(" |"))
        while stack[-1][0] > col:
            stack.pop()
        if stack[-1][0] != col:
            raise SystemExit("no branch at column %d: %r" % (col, ln))
        stack[-1][1][1].append(ln[col:])

    def canon(n):
        kids = sorted((canon(k) for k in n[2]), key=lambda k: (-float(k[0] or 0), repr(k)))
        return (n[0], tuple(n[1]), tuple(kids))
    return canon(root)


def entries(path, ours):
    """{entry: [graph, ...]} of a report, and how many have a graph."""
    out, cur, body = {}, None, []

    def done():
        if cur is not None:
            out.setdefault(cur, []).append(tree(body))
    for ln in open(path, errors="replace"):
        ln = ln.rstrip("\n").rstrip()
        if ln.startswith("#"):
            continue
        m = ENTRY.match(ln)
        if m and SYM.match(m.group(3)):
            done()
            if " [vdso] " in ln:	# perf names another host's from its own
                cur = None
                continue
            rest = m.group(3).split()
            if ours:	# our samples column
                rest = rest[1:]
            sym = SYM.match(m.group(3)).group(2)
            sym = re.sub(r"\s+\(\S+\)$", "", sym)	# ours, dso not keyed
            sym = sym.replace("] " + "0" * 16, "] 0x" + "0" * 16)  # perf's %#llx of 0
            comm = rest[0] if not rest[0].startswith("[") else ""
            cur, body = (m.group(1), m.group(2), comm, sym), []
        elif cur is not None and ln:
            body.append(ln)
    done()
    return out


def main():
    ours, perf = entries(sys.argv[1], True), entries(sys.argv[2], False)
    bad = graphs = 0
    for k, trees in sorted(perf.items()):
        graphs += sum(1 for t in trees if t[2])
        mine = ours.get(k)
        if mine is None:
            print("perf only: %s" % (k,))
            bad += 1
        elif sorted(map(repr, mine)) != sorted(map(repr, trees)):
            print("graph differs: %s\n  ours %s\n  perf %s" % (k, mine, trees))
            bad += 1
    for k in sorted(set(ours) - set(perf)):
        print("ours only: %s" % (k,))
        bad += 1
    print("%d entries, %d graphs, %d differ" % (len(perf), graphs, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
