# SPDX-License-Identifier: MIT
# pdstat --pprof and --gecko: memory grows with distinct stacks, not
# with samples. The same recording with every sample repeated to 40k
# and 400k samples (sorted, in rounds of 64 records, as flame/memory makes
# it) exports in about the same peak RSS, and the profiles count 10
# times the samples: pprof adds them into the same Samples, gecko keeps
# its rows in a temporary file and writes a thread of many rows straight
# from it. Ten times 40k samples of one thread is 5.6 MiB more of rows
# (16 bytes each) if they were read back into memory: well over the
# 2 MiB of allocator and page-cache noise allowed.
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

# User frames only: a kernel frame in some recordings (clock_gettime's
# syscall) loads kallsyms, 12 MiB while reading, a peak that hid what
# writing took after it.
perf record -q -e cpu-clock:u -F 999 -g -o - -- ./prog 200 > one.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
# 40k samples, then 400k, whatever the machine's load made of ./prog.
n=$(pddump -t SAMPLE one.data | grep -c SAMPLE)
[ "$n" -gt 0 ] || fail "perf record: no samples"
r=$(( (40000 + n - 1) / n ))
pdsort one.data | "$restream" repeat $r | "$restream" rounds 64 \
    > 1x.data || fail "pdsort | restream repeat $r | restream rounds"
pdsort one.data | "$restream" repeat $((r * 10)) | "$restream" rounds 64 \
    > 10x.data || fail "pdsort | restream repeat $((r * 10)) | restream rounds"

rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
for what in pprof gecko; do
	a=$(rss "pdstat --$what 1x.$what 1x.data > 1x.$what.sum")
	b=$(rss "pdstat --$what 10x.$what 10x.data > 10x.$what.sum")
	echo "pdstat --$what: $((n * r)) samples: $a KiB; $((n * r * 10)): $b KiB"
	# Allocator and page-cache noise stays well under 2 MiB.
	[ "$b" -le $((a + 2048)) ] || fail "pdstat --$what: $a KiB, then $b KiB"
done
# The samples are all there, 10 times.
python3 - <<'EOP' || exit 1
import gzip, json, sys
def samples(p):
    return sum(len(t["samples"]["data"]) for t in json.load(open(p))["threads"])
a, b = samples("1x.gecko"), samples("10x.gecko")
if b != 10 * a:
    sys.exit("FAIL: gecko: %d samples, then %d" % (a, b))
def size(p):
    return len(gzip.open(p).read())
# Counts add up in the same Samples: the profile hardly grows.
x, y = size("1x.pprof"), size("10x.pprof")
if y > x + x // 10 + 64:
    sys.exit("FAIL: pprof: %d bytes, then %d" % (x, y))
print("gecko %d then %d samples; pprof %d then %d bytes" % (a, b, x, y))
EOP
