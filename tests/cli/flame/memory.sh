# SPDX-License-Identifier: MIT
# Memory grows with distinct stacks, not with samples (pddump --folded
# and pdstat --flamegraph):
# - the same stream with every sample repeated 500 times in place folds
#   to the same stacks with 500 times the counts;
# - a recording with 20 times the samples of another, of the same
#   program, folds in about the same peak RSS. Samples wait for their
#   round to end, as in perf script, and perf's rounds grow when the
#   machine is busy (the same test once measured 14180 KiB for 2034
#   samples, 18380 KiB for 39996): both recordings are sorted and cut
#   into rounds of 64 records (rounds.py), so that only per-sample
#   memory could still make the long one cost more.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
rusage=$PD_TBIN/bench/rusage
[ -x "$rusage" ] || skip "no $rusage"
build_prog

perf record -q -e cpu-clock -F 999 -g -o - -- ./prog 200 > one.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
python3 "$PD_TOP/tests/cli/flame/repeat.py" 500 < one.data > many.data ||
	fail "repeat.py"
pddump --folded < one.data > one.folded || fail "pddump --folded one.data"
pddump --folded < many.data > many.folded || fail "pddump --folded many.data"
awk '{ $NF *= 500; print }' one.folded > want.folded
diff -u want.folded many.folded > diff.txt ||
	fail "500 times the samples, not 500 times the counts: $(head diff.txt)"

rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
for ms in 100 2000; do
	perf record -q -e cpu-clock -F 20000 -g -o - -- ./prog $ms \
	    > $ms.raw 2> rec.err || fail "perf record: $(cat rec.err)"
	pdsort $ms.raw | python3 "$PD_TOP/tests/cli/flame/rounds.py" 64 \
	    > $ms.data || fail "pdsort | rounds.py"
done
n1=$(pddump -t SAMPLE 100.data | grep -c SAMPLE)
n2=$(pddump -t SAMPLE 2000.data | grep -c SAMPLE)
[ "$n2" -ge $((n1 * 10)) ] || fail "$n2 samples, not many more than $n1"
a=$(rss 'pddump --folded < 100.data > 100.folded')
b=$(rss 'pddump --folded < 2000.data > 2000.folded')
echo "pddump --folded: $n1 samples: $a KiB; $n2 samples: $b KiB"
# Allocator and page-cache noise stays well under 2 MiB; per-sample
# memory (80 bytes a sample) would show as more here.
[ "$b" -le $((a + 2048)) ] || fail "pddump --folded: $a KiB, then $b KiB"
a=$(rss 'pdstat --flamegraph 100.svg 100.data > /dev/null')
b=$(rss 'pdstat --flamegraph 2000.svg 2000.data > /dev/null')
echo "pdstat --flamegraph: $a KiB, then $b KiB"
[ "$b" -le $((a + 2048)) ] || fail "pdstat --flamegraph: $a KiB, then $b KiB"
