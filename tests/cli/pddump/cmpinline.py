# SPDX-License-Identifier: MIT
"""Compare pddump -s --srcline's frames with perf script -F +srcline's.

usage: cmpinline.py PERF_SCRIPT_OUT PDDUMP_OUT MIN

PERF_SCRIPT_OUT is `perf script --ns -F +srcline` (perf 6.1 shows the
functions inlined into DWARF-unwound frames by default, "name+0xoff
(inlined)", each with its source line below it); PDDUMP_OUT is
`pddump -s --srcline -t SAMPLE` of the same stream. Samples are matched
by time; for each, the user frames from the innermost up to main (the
test program's own, inlined ones included) must have the same names and
file:line. Exits 1 on a difference, or when fewer than MIN samples show
mix inlined into churn inlined into work (nothing inlined was named).
"""
import re
import sys

FRAME = re.compile(r"^\s+(?:0x)?([0-9a-f]+) (\S+?)(?:\+0x[0-9a-f]+)?"
                   r"(?: \((.*)\))?$")


def until_main(frames):
    out = []
    for f in frames:
        if f[2] == "[kernel.kallsyms]":
            continue
        out.append(f[:2])
        if f[0] == "main":
            return out
    return None


def perf_samples(path):
    out, cur = {}, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^\S.* (\d+)\.(\d{9}):", line)
        if m:
            cur = out.setdefault(int(m.group(1)) * 10**9 + int(m.group(2)),
                                 [])
            continue
        if cur is None:
            continue
        if line.startswith("  ") and not line.startswith("\t") and cur:
            # The srcline, " (inlined)" after it for an inlined frame.
            src = line.strip()
            if src.endswith(" (inlined)"):
                src = src[:-len(" (inlined)")]
            cur[-1] = (cur[-1][0], src, cur[-1][2])
            continue
        m = FRAME.match(line)
        if m:
            cur.append((m.group(2), None, m.group(3)))
    return out


def pd_samples(path):
    out, cur, chain = {}, None, False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.startswith(" "):
            cur, chain = None, False
            m = re.search(r" SAMPLE .* time=(\d+) ", line)
            if m:
                cur = out.setdefault(int(m.group(1)), [])
            continue
        if line == "  callchain:":
            chain = True
            continue
        if not line.startswith("    "):
            chain = False
            continue
        if not chain or cur is None:
            continue
        if line.startswith("      "):
            cur[-1] = (cur[-1][0], line.strip(), cur[-1][2])
            continue
        m = FRAME.match(line)
        if m:
            cur.append((m.group(2), None, m.group(3)))
    return out


def main():
    perf, ours = perf_samples(sys.argv[1]), pd_samples(sys.argv[2])
    want = int(sys.argv[3])
    same = inlined = 0
    for t, pf in sorted(perf.items()):
        pf = until_main(pf)
        if pf is None:
            continue
        of = until_main(ours.get(t, []))
        if of != pf:
            print("sample at %d differs:\n  perf: %s\n  ours: %s" %
                  (t, pf, of))
            return 1
        same += 1
        names = [f[0] for f in pf]
        if names[:3] == ["mix", "churn", "work"]:
            inlined += 1
    print("%d samples agree to main, %d in mix inlined into churn into "
          "work" % (same, inlined))
    if inlined < want:
        print("fewer than %d samples in mix" % want)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
