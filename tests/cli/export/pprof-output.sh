# SPDX-License-Identifier: MIT
# pdstat --pprof's file (no pprof needed): a gzip stream of a
# profile.proto whose fields decode, written only when the input was read
# to its end (a truncated stream leaves what was there, and no temporary
# file); "-" writes to a pipe, the summary going to stderr; usage errors.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
need_corpus
f=$C/callchain.pipe.data

pdstat --pprof p.pb.gz "$f" > sum.txt 2> err.txt ||
	fail "pdstat --pprof: $(cat err.txt)"
grep -q '^cpu-clock ' sum.txt || fail "no summary on stdout"
# The message fields: a decoder of the wire format, not ours.
PYTHONPATH=$PD_TOP/tests/cli/export python3 - p.pb.gz <<'EOP' || exit 1
import sys
from pb import fields, profile
seen, strings = {}, []
for f, v in fields(profile(sys.argv[1])):
    if f == 6:
        strings.append(v.decode())
    seen[f] = seen.get(f, 0) + 1
# sample_type, sample, mapping, location, function, string_table,
# time_nanos, duration_nanos, period_type, period, default_sample_type
for f in (1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 14):
    if f not in seen:
        sys.exit("FAIL: no field %d: %r" % (f, seen))
if strings[0] != "" or "cpu-clock" not in strings or "gzip" not in strings:
    sys.exit("FAIL: string table %r" % strings[:8])
print("fields %s, %d strings" % (sorted(seen), len(strings)))
EOP

# The values: duration_nanos the samples' time span (pddump's times of
# them), time_nanos the first (no CLOCK_DATA); period_type and period
# the first event's (cpu-clock at -F 2000: 500000 ns a sample), the
# default sample type its period one; a Mapping's has_* flags as its
# Locations show them: line numbers (and file names) where a Line has
# one, functions where one is named (and only for a file that is there),
# no inlined frames without --inline.
pddump -t SAMPLE "$f" 2> /dev/null |
	sed -n 's/.* SAMPLE .* time=\([0-9]*\) .*/\1/p' > times.txt
[ -s times.txt ] || fail "pddump -t SAMPLE: no times"
PYTHONPATH=$PD_TOP/tests/cli/export python3 - p.pb.gz times.txt <<'EOP' || exit 1
import sys
from pb import decode
p = decode(sys.argv[1])
times = [int(t) for t in open(sys.argv[2])]
want = {"time_nanos": min(times), "duration_nanos": max(times) - min(times),
        "period_type": ("cpu-clock", "nanoseconds"), "period": 500000}
for k, v in want.items():
    if p.get(k) != v:
        sys.exit("FAIL: %s %r, not %r" % (k, p.get(k), v))
if p["strings"][p["default_sample_type"]] != "cpu-clock" or \
        p["sample_type"][:2] != [("cpu-clock_samples", "count"),
                                 ("cpu-clock", "nanoseconds")]:
    sys.exit("FAIL: default_sample_type %r of %r" % (
        p["strings"][p["default_sample_type"]], p["sample_type"]))
flags = {}
for m in p["mappings"]:
    mid, name = m[1], p["strings"][m.get(5, 0)]
    locs = [l for l, mm in p["loc_mapping"].items() if mm == mid]
    fns = [f for l in locs for f in p["locations"][l]]
    named = any(not p["functions"][f].startswith("[") for f in fns)
    lines = any(n > 0 for l in locs for n in p["loc_lines"][l])
    has = {k: m.get(n, 0) for k, n in (("functions", 7), ("filenames", 8),
                                        ("line_numbers", 9), ("inline", 10))}
    if has["line_numbers"] != lines or has["filenames"] != lines or \
            has["inline"] or (named and not has["functions"]) or \
            (has["functions"] and not name.startswith("/")) or \
            (has["functions"] and name.endswith("(deleted)")):
        sys.exit("FAIL: mapping %s: %r; named %r, lines %r" % (name, has,
                                                               named, lines))
    flags[name] = has
# Lines need debug info, which a host may lack; symbols are there.
if not any(h["functions"] for h in flags.values()):
    sys.exit("FAIL: no mapping has functions: %r" % flags)
print("duration %d ns, period %d, %d mappings' flags as their locations" %
      (p["duration_nanos"], p["period"], len(flags)))
EOP

# Standard output: the profile; the summary on stderr.
pdstat --pprof - "$f" > out.pb.gz 2> err.txt || fail "--pprof -: $(cat err.txt)"
gzip -t out.pb.gz || fail "--pprof -: not gzip"
grep -q '^cpu-clock ' err.txt || fail "--pprof -: no summary on stderr"
cmp -s p.pb.gz out.pb.gz || fail "--pprof -: not the file's bytes"

# A cut stream: exit 1, the old file kept, no temporary file left.
echo old > keep.pb.gz
head -c 20000 "$f" > cut.data
pdstat --pprof keep.pb.gz cut.data > /dev/null 2> err.txt
[ $? -eq 1 ] || fail "cut: not exit 1"
grep -q 'keep.pb.gz: not written: an input was not read to its end' \
    err.txt || fail "cut: $(cat err.txt)"
[ "$(cat keep.pb.gz)" = old ] || fail "cut: the old file was replaced"
[ "$(ls | grep -c 'keep.pb.gz.')" = 0 ] || fail "cut: a temporary file: $(ls)"
pdstat --pprof new.pb.gz cut.data > /dev/null 2>&1
[ ! -e new.pb.gz ] || fail "cut: a profile was written"

# Usage: one output to standard output at most.
for opts in "-p --pprof -" "--flamegraph - --pprof -"; do
	pdstat $opts "$f" > out.bin 2> err.txt
	[ $? -eq 2 ] || fail "pdstat $opts: not exit 2"
	grep -q '^pdstat: one output to standard output at most' err.txt ||
		fail "pdstat $opts: $(cat err.txt)"
	[ ! -s out.bin ] || fail "pdstat $opts: wrote to stdout"
done
echo "cut stream: no profile; - writes the same bytes"

# time_nanos on the wall clock where the stream has CLOCK_DATA (pdrecord
# writes it); the capture above, without it, keeps the stream's clock.
tn() {	# FILE: the profile's time_nanos
	PYTHONPATH=$PD_TOP/tests/cli/export python3 - "$1" <<'EOP'
import sys
from pb import fields, profile
for f, v in fields(profile(sys.argv[1])):
    if f == 9:
        print(v)
EOP
}
[ "$(tn p.pb.gz)" -lt 100000000000000000 ] ||
	fail "no CLOCK_DATA, yet time_nanos $(tn p.pb.gz) is a date"
if pdrecord -e cpu-clock -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
    > wall.data 2> /dev/null; then
	before=$(date +%s)
	pdstat --pprof wall.pb.gz wall.data > /dev/null 2>&1 ||
		fail "pdstat --pprof (pdrecord's stream)"
	t=$(( $(tn wall.pb.gz) / 1000000000 ))
	[ "$t" -le "$before" ] && [ "$t" -gt $((before - 600)) ] ||
		fail "time_nanos $t s, not on the wall clock (now $before)"
	echo "CLOCK_DATA: time_nanos on the wall clock"
fi
