# SPDX-License-Identifier: MIT
"""Compare the user frames of `pddump --unwind` with perf script's.

usage: cmpunwind.py PERF_SCRIPT_OUT PDDUMP_OUT [MIN_FULL]

PERF_SCRIPT_OUT is `perf script --no-inline --ns -F time,ip,sym,symoff,dso`
(inline frames are perf's own addition from DWARF line info, not frames of
the stack); PDDUMP_OUT is `pddump --unwind -t SAMPLE` on the same stream.
Samples are matched by time; for each one the user frames, as
"sym+0xoff (dso)", must be the same list, with three allowances. Two are for
perf's libunwind memory reader (util/unwind-libunwind-local.c,
access_mem), which answers a read outside the sampled stack copy with
the value 0, and libunwind's step still yields that frame:

 1. perf then prints one more frame, the return address 0 minus 1
    (perf decrements every caller's address):
    "ffffffffffffffff [unknown] ([unknown])". It is not a frame of the
    stack and is dropped from perf's list; our walk ends where the copy
    does.
 2. its range check (`addr + 8 >= end`) also refuses the last 8 bytes of
    the copy, so when a return address sits exactly there perf ends with
    that bogus frame where we still read the real caller: then our list
    may have exactly one frame more than perf's (before the bogus one).

The third is for perf 6.1's names of PLT entries. It gives _init, the
size-0 symbol before a GNU ld .plt, the room up to the next symbol,
over the whole .plt, and names an entry by it ("_init+0x50"); for lld,
which leaves .plt's sh_entsize 0, it says "[unknown]". We name the
entry ("lib_step@plt+0x0"). So perf's "_init+0x.. (dso)" or
"[unknown] (dso)" matches our "...@plt+0x.. (dso)" of the same dso.

Prints a summary; exits 1 on any other difference, or when fewer than
MIN_FULL samples show the test program's own path (lib_spin, lib_step,
a PLT entry of the program, or c, then b, a, main in that order, from
its own files), which would mean nothing was really unwound.
"""
import re
import sys

BOGUS = "ffffffffffffffff [unknown] ([unknown])"


def perf_samples(path):
    out, cur = {}, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^\s*(\d+)\.(\d{9}):\s*$", line)
        if m:
            cur = out.setdefault(int(m.group(1)) * 10**9 + int(m.group(2)),
                                 [])
            continue
        m = re.match(r"^\s+([0-9a-f]+) (.*)$", line)
        if m and cur is not None:
            if m.group(2).endswith("([kernel.kallsyms])"):
                continue
            cur.append(m.group(1) + " " + m.group(2))
    return out


def pd_samples(path):
    out, cur, inchain = {}, None, False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.startswith(" "):
            cur, inchain = None, False
            m = re.search(r" SAMPLE .* time=(\d+) ", line)
            if m:
                cur = out.setdefault(int(m.group(1)), [])
            continue
        if line.startswith("  callchain:"):
            inchain = True
            continue
        if line.startswith("  ") and not line.startswith("    "):
            inchain = False
            continue
        m = re.match(r"^    0x([0-9a-f]+) (.*)$", line)
        if m and inchain and cur is not None:
            if m.group(2).endswith("([kernel.kallsyms])"):
                continue
            cur.append(m.group(1) + " " + m.group(2))
    return out


def names(frames):
    return [f.split(" ", 1)[1] for f in frames]


def plt_named(ours, perf):
    """Our name of a PLT entry where perf 6.1 has another (see above)."""
    m = re.match(r"^\S+@plt\+0x[0-9a-f]+ (\(.*\))$", ours)
    return bool(m) and re.match(
        r"^(\[unknown\]|_init\+0x[0-9a-f]+) \(", perf) \
        is not None and perf.endswith(" " + m.group(1))


def same(a, b):
    return len(a) == len(b) and all(
        x == y or plt_named(y, x) for x, y in zip(a, b))


def full_path(fr):
    """The program's own path, innermost first: [lib_spin,] c, b, a, main."""
    want = ["c", "b", "a", "main"]
    syms = [(f.split("+")[0], f) for f in fr]
    i = 0
    if syms and syms[0][0] in ("lib_spin", "lib_step"):
        if "libunwlib.so)" not in syms[0][1]:
            return False
        i = 1
    elif syms and syms[0][0].endswith("@plt"):
        if "/prog)" not in syms[0][1]:
            return False
        i = 1
    got = [s for s, _ in syms[i:i + 4]]
    return got == want and all("/prog)" in f for _, f in syms[i:i + 4])


def main():
    perf = perf_samples(sys.argv[1])
    ours = pd_samples(sys.argv[2])
    min_full = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    same_n = allowed = bad = full = plt = 0
    if not perf or set(perf) != set(ours):
        print("sample times differ: perf %d, pddump %d, common %d" %
              (len(perf), len(ours), len(set(perf) & set(ours))))
        return 1
    for t in sorted(perf):
        p = perf[t]
        bogus = bool(p) and p[-1] == BOGUS
        if bogus:
            p = p[:-1]
        a, b = names(p), names(ours[t])
        if same(a, b):
            same_n += 1
        elif bogus and same(a, b[:-1]):
            allowed += 1
        else:
            bad += 1
            if bad <= 5:
                print("sample time %d differs:\n  perf:   %s\n  pddump: %s" %
                      (t, a, b))
        if full_path(b):
            full += 1
            plt += b[0].split("+")[0].endswith("@plt")
    print("%d samples: %d same, %d one frame past perf's end of stack, "
          "%d differ; %d with the full program path, %d of them from a "
          "PLT entry" % (len(perf), same_n, allowed, bad, full, plt))
    if full < min_full:
        print("fewer than %d samples with the full path" % min_full)
        return 1
    return 1 if bad else 0


sys.exit(main())
