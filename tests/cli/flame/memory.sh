# SPDX-License-Identifier: MIT
# Memory grows with distinct stacks, not with samples (pddump --folded
# and pdstat --flamegraph):
# - the same stream with every sample repeated 500 times in place folds
#   to the same stacks with 500 times the counts;
# - the same recording with every sample repeated 200 times folds in
#   about the same peak RSS. Both are sorted and cut into rounds of 64
#   records (restream rounds): samples wait for their round to end, as in perf
#   script, so only per-sample memory could still make the repeated one
#   cost more. The same samples, the same files: two recordings of
#   different lengths do not touch the same files nor the same pages of
#   them (a user-only pair measured 4.5 MiB, then 11.4, before and after
#   this session alike).
# User frames only (cpu-clock:u, as export/memory.sh): a kernel frame in
# one alone loads kallsyms, 4 MiB (CI once measured 13460 KiB, then
# 17668), and with a kernel map /proc/kallsyms is read ahead on a thread
# that a short run stops sooner than a long one (16120 KiB, then 22212).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
rusage=$PD_TBIN/bench/rusage
[ -x "$rusage" ] || skip "no $rusage"
restream=$PD_TBIN/gen/restream
build_prog

perf record -q -e cpu-clock:u -F 999 -g -o - -- ./prog 200 > one.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
"$restream" repeat 500 < one.data > many.data || fail "restream repeat"
pddump --folded < one.data > one.folded || fail "pddump --folded one.data"
pddump --folded < many.data > many.folded || fail "pddump --folded many.data"
awk '{ $NF *= 500; print }' one.folded > want.folded
diff -u want.folded many.folded > diff.txt ||
	fail "500 times the samples, not 500 times the counts: $(head diff.txt)"

rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
pdsort one.data | "$restream" rounds 64 > 100.data ||
	fail "pdsort | restream rounds"
pdsort one.data | "$restream" repeat 200 | "$restream" rounds 64 \
    > 2000.data || fail "pdsort | restream repeat | restream rounds"
n1=$(pddump -t SAMPLE 100.data | grep -c SAMPLE)
n2=$(pddump -t SAMPLE 2000.data | grep -c SAMPLE)
[ "$n2" = $((n1 * 200)) ] || fail "$n2 samples, not 200 times $n1"
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
