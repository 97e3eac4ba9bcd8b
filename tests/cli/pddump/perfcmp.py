# SPDX-License-Identifier: MIT
"""Compare `pddump --json` with perf 6.1 on one input.

    python3 perfcmp.py records FILE PDDUMP_JSON PERF_D_OUTPUT PERF_STDERR RC
    python3 perfcmp.py trace PDDUMP_JSON PERF_SCRIPT_OUTPUT

records: the records perf report -D lists (offset, type, size) are the
ones pddump prints (pipe offsets converted: perf counts from after the
16-byte header; COMPRESSED records themselves are not listed by perf,
their contents are, at the COMPRESSED record's offset; records pddump
made from a file header are not records of the input). When perf failed
(RC != 0, or its stderr says it failed or stopped early) its records must
be a subset of ours; records perf re-synthesizes itself ("0@(null)") are
not compared. For every sample:
cpu, time, pid, tid, ip, period, addr and the callchain must match.

trace: every `name=value` of perf script's tracepoint output whose name
is a field of the event matches pddump's decoded RAW field (numerically
when both are numbers; perf's symbolic values such as prev_state=S are
skipped). Exit 0 when all match, 1 with the first differences printed.
"""
import collections
import json
import re
import sys

NAMES = {
    "MMAP": 1, "LOST": 2, "COMM": 3, "EXIT": 4, "THROTTLE": 5,
    "UNTHROTTLE": 6, "FORK": 7, "READ": 8, "SAMPLE": 9, "MMAP2": 10,
    "AUX": 11, "ITRACE_START": 12, "LOST_SAMPLES": 13, "SWITCH": 14,
    "SWITCH_CPU_WIDE": 15, "NAMESPACES": 16, "KSYMBOL": 17,
    "BPF_EVENT": 18, "CGROUP": 19, "TEXT_POKE": 20, "AUX_OUTPUT_HW_ID": 21,
    "CALLCHAIN_DEFERRED": 22, "ATTR": 64, "EVENT_TYPE": 65,
    "TRACING_DATA": 66, "BUILD_ID": 67, "FINISHED_ROUND": 68,
    "ID_INDEX": 69, "AUXTRACE_INFO": 70, "AUXTRACE": 71,
    "AUXTRACE_ERROR": 72, "THREAD_MAP": 73, "CPU_MAP": 74,
    "STAT_CONFIG": 75, "STAT": 76, "STAT_ROUND": 77, "EVENT_UPDATE": 78,
    "TIME_CONV": 79, "FEATURE": 80, "COMPRESSED": 81, "FINISHED_INIT": 82,
    "COMPRESSED2": 83, "BPF_METADATA": 84, "SCHEDSTAT_CPU": 85,
    "SCHEDSTAT_DOMAIN": 86,
}

REC = re.compile(r"^(0x[0-9a-f]+|0)(@\S+)? \[(0x[0-9a-f]+)\]: event: (\d+)$")
SAMPLE = re.compile(r"^((?:-?\d+ )*)(0x[0-9a-f]+) \[(0x[0-9a-f]+)\]: "
                    r"PERF_RECORD_SAMPLE\([^)]*\): (-?\d+)/(-?\d+): "
                    r"(\S+) period: (\d+) addr: (\S+)")
CHAIN = re.compile(r"^\.\.\. (?:FP )?chain: nr:(\d+)")
ENTRY = re.compile(r"^\.\.\.\.\. +\d+: ([0-9a-f]+)$")


def fail(msgs):
    for m in msgs[:10]:
        print(m)
    print("%d difference(s)" % len(msgs))
    sys.exit(1)


def ours(path):
    with open(path, encoding="latin-1") as f:
        for line in f:
            yield json.loads(line)


def records(path, jpath, dpath, perf_failed):
    with open(path, "rb") as f:
        head = f.read(16)
    pipe = len(head) == 16 and int.from_bytes(head[8:], "little") == 16
    mine = collections.Counter()
    msamples = collections.Counter()
    for r in ours(jpath):
        if r.get("synthesized") or r["type"] in ("COMPRESSED", "COMPRESSED2"):
            continue
        t = r["type"] if isinstance(r["type"], int) else NAMES[r["type"]]
        off = r["offset"] - (16 if pipe else 0)
        mine[(off, t, r["size"])] += 1
        if t == 9 and "error" not in r:
            pre = (r["cpu"], r["time"])
            chain = tuple(int(x, 16) for x in r["callchain"] or ())
            msamples[(off, pre, r["pid"], r["tid"], int(r["ip"] or "0", 16),
                      r["period"], int(r["addr"] or "0", 16), chain)] += 1
    theirs = collections.Counter()
    tsamples = collections.Counter()
    cur = None
    collect = False
    with open(dpath, encoding="latin-1") as f:
        for line in f:
            line = line.rstrip("\n")
            m = REC.match(line)
            if m and m[2] == "@(null)":
                continue
            if m:
                theirs[(int(m[1], 16), int(m[4]), int(m[3], 16))] += 1
                continue
            m = SAMPLE.match(line)
            if m:
                if cur is not None:
                    tsamples[tuple(cur)] += 1
                # perf prints cpu and time when any event samples them
                # (-1 for an event that does not).
                toks = [int(x) for x in m[1].split()]
                cpu = toks[0] if len(toks) == 2 else None
                time = toks[-1] if toks else None
                pre = (None if cpu == 4294967295 else cpu,
                       None if time == 2**64 - 1 else time)
                cur = [int(m[2], 16), pre, int(m[4]), int(m[5]),
                       int(m[6], 0), int(m[7]), int(m[8], 0), ()]
                continue
            if cur is not None and CHAIN.match(line):
                # For a branch CALL_STACK event perf prints its "LBR call
                # chain" (made from the branch stack) before the record's
                # own "FP chain": the latter is the one compared.
                collect = "FP chain" in line or "LBR" not in line
                cur[7] = ()
                continue
            m = ENTRY.match(line)
            if cur is not None and m:
                if collect:
                    cur[7] = cur[7] + (int(m[1], 16),)
                continue
            if cur is not None and line.startswith("... "):
                collect = False     # branch stack, read values, ...
                continue
            if cur is not None and not line.startswith("....."):
                tsamples[tuple(cur)] += 1
                cur = None
    if cur is not None:
        tsamples[tuple(cur)] += 1
    msgs = []
    if not perf_failed:
        for k in sorted(set(mine) | set(theirs)):
            if mine[k] != theirs[k]:
                msgs.append("record off=%#x type=%d size=%d: pddump %d, "
                            "perf %d" % (k + (mine[k], theirs[k])))
        for k in set(msamples) | set(tsamples):
            if msamples[k] != tsamples[k]:
                msgs.append("sample %r: pddump %d, perf %d" %
                            (k[:7], msamples[k], tsamples[k]))
    else:
        for k in theirs:
            if mine[k] < theirs[k]:
                msgs.append("record %r listed by perf, not by pddump" % (k,))
        for k in tsamples:
            if msamples[k] < tsamples[k]:
                msgs.append("sample %r decoded by perf, not by pddump"
                            % (k[:7],))
    if not theirs and not perf_failed:
        msgs.append("perf listed no records")
    if msgs:
        fail(msgs)
    print("%d records, %d samples match" % (sum(theirs.values()),
                                           sum(tsamples.values())))


def num(s):
    try:
        return int(s, 0)
    except ValueError:
        try:
            return int(s, 10)
        except ValueError:
            return None


def trace(jpath, spath):
    mine = collections.defaultdict(list)
    for r in ours(jpath):
        if r["type"] == "SAMPLE" and isinstance(r.get("raw"), dict) and \
                "common_type" in r["raw"]:
            mine[(r["time"], r["event"])].append(r["raw"])
    msgs = []
    checked = 0
    line_re = re.compile(r"^\s*(\d+)\.(\d{9}):\s+(\S+):\s?(.*)$")
    with open(spath, encoding="latin-1") as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            t = int(m[1]) * 1000000000 + int(m[2])
            toks = dict(tok.split("=", 1) for tok in m[4].split()
                        if "=" in tok)
            if not toks:
                continue            # not a tracepoint
            cands = mine.get((t, m[3]))
            if not cands:
                msgs.append("no pddump sample at %d %s" % (t, m[3]))
                continue
            ok = False
            for raw in cands:
                bad = []
                for k, v in toks.items():
                    if k not in raw:
                        continue
                    ov = raw[k]
                    if isinstance(ov, int):
                        pv = num(v)
                        if pv is None:
                            continue        # symbolic in perf
                        if pv != ov and pv != ov & 0xffffffffffffffff:
                            bad.append("%s: perf %s, pddump %s" % (k, v, ov))
                    elif isinstance(ov, str) and ov.startswith("0x"):
                        pv = num(v)
                        if pv is not None and pv != int(ov, 16):
                            bad.append("%s: perf %s, pddump %s" % (k, v, ov))
                    elif isinstance(ov, str) and ov != v:
                        bad.append("%s: perf %s, pddump %s" % (k, v, ov))
                    checked += 1
                if not bad:
                    ok = True
                    break
            if not ok:
                msgs.append("%d %s: %s" % (t, m[3], "; ".join(bad)))
    if checked == 0:
        msgs.append("no tracepoint field compared")
    if msgs:
        fail(msgs)
    print("%d tracepoint fields match" % checked)


if __name__ == "__main__":
    if sys.argv[1] == "records":
        with open(sys.argv[5], encoding="latin-1") as f:
            err = f.read()
        failed = int(sys.argv[6]) != 0 or any(
            s in err for s in ("failed to process", "Error:",
                               "bad event header", "unexpected end"))
        records(sys.argv[2], sys.argv[3], sys.argv[4], failed)
    else:
        trace(sys.argv[2], sys.argv[3])
