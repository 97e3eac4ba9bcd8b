# SPDX-License-Identifier: MIT
# pdstat --pprof and --gecko: memory grows with distinct stacks, not
# with samples. The same recording with every sample repeated 200 times
# (sorted, in rounds of 64 records, as flame/memory makes it) exports in
# about the same peak RSS, and its profile counts 200 times the samples:
# pprof adds them into the same Samples, gecko keeps its rows in a
# temporary file (and reads back at most 2^20 of them at once).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
rusage=$PD_TBIN/bench/rusage
[ -x "$rusage" ] || skip "no $rusage"
restream=$PD_TBIN/gen/restream
build_prog
TMPDIR=$PWD
export TMPDIR

perf record -q -e cpu-clock -F 999 -g -o - -- ./prog 200 > one.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
pdsort one.data | "$restream" rounds 64 > 100.data ||
	fail "pdsort | restream rounds"
pdsort one.data | "$restream" repeat 200 | "$restream" rounds 64 \
    > 2000.data || fail "pdsort | restream repeat | restream rounds"

rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
for what in pprof gecko; do
	a=$(rss "pdstat --$what 100.$what 100.data > 100.$what.sum")
	b=$(rss "pdstat --$what 2000.$what 2000.data > 2000.$what.sum")
	echo "pdstat --$what: $a KiB, then $b KiB"
	# Allocator and page-cache noise stays well under 2 MiB.
	[ "$b" -le $((a + 2048)) ] || fail "pdstat --$what: $a KiB, then $b KiB"
done
# The samples are all there, 200 times.
python3 - <<'EOP' || exit 1
import gzip, json, sys
def samples(p):
    return sum(len(t["samples"]["data"]) for t in json.load(open(p))["threads"])
a, b = samples("100.gecko"), samples("2000.gecko")
if b != 200 * a:
    sys.exit("FAIL: gecko: %d samples, then %d" % (a, b))
def size(p):
    return len(gzip.open(p).read())
# Counts add up in the same Samples: the profile hardly grows.
x, y = size("100.pprof"), size("2000.pprof")
if y > x + x // 10 + 64:
    sys.exit("FAIL: pprof: %d bytes, then %d" % (x, y))
print("gecko %d then %d samples; pprof %d then %d bytes" % (a, b, x, y))
EOP
