# SPDX-License-Identifier: MIT
# Memory grows with distinct stacks, not with samples: the same stream
# with every sample repeated 500 times (rounds kept as small as they
# were: time order holds a round, as perf does) folds to the same stacks
# with 500 times the counts, in about the same peak RSS (pddump --folded
# and pdstat --flamegraph).
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

rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
a=$(rss 'pddump --folded < one.data > one.folded')
b=$(rss 'pddump --folded < many.data > many.folded')
awk '{ $NF *= 500; print }' one.folded > want.folded
diff -u want.folded many.folded > diff.txt ||
	fail "500 times the samples, not 500 times the counts: $(head diff.txt)"
echo "pddump --folded: $(wc -c < one.data) bytes: $a KiB; $(wc -c < many.data) bytes: $b KiB"
# Allocator and page-cache noise stays well under 2 MiB; per-sample
# memory would show as several MiB here.
[ "$b" -le $((a + 2048)) ] || fail "pddump --folded: $a KiB, then $b KiB"

a=$(rss 'pdstat --flamegraph one.svg one.data > /dev/null')
b=$(rss 'pdstat --flamegraph many.svg many.data > /dev/null')
echo "pdstat --flamegraph: $a KiB, then $b KiB"
[ "$b" -le $((a + 2048)) ] || fail "pdstat --flamegraph: $a KiB, then $b KiB"
