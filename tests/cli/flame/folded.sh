# SPDX-License-Identifier: MIT
# pddump --folded on a test program with two known hot paths (3:1),
# recorded by perf record -g and by pdrecord -g: exactly the stacks and
# counts (and periods) of perf script folded as stackcollapse-perf.pl
# --all folds it; and the 3:1 shows.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
build_prog

perf record -q -e cpu-clock -F 999 -g -o - -- ./prog 400 > perf.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
folded_same perf.data
set -- $(hot_counts got.folded)
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "no hot paths: $(cat got.folded)"
# 3:1 by construction; leave room for a busy machine.
[ $(($1 * 10)) -ge $(($2 * 20)) ] && [ $(($1 * 10)) -le $(($2 * 45)) ] ||
	fail "pd_flame_a:pd_flame_b = $1:$2, not about 3:1"
echo "perf record: $(wc -l < got.folded) stacks, a:b = $1:$2"

pdrecord -q -g -- ./prog 400 > pd.data 2> rec.err ||
	fail "pdrecord: $(cat rec.err)"
folded_same pd.data
set -- $(hot_counts got.folded)
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "pdrecord: no hot paths"
echo "pdrecord: $(wc -l < got.folded) stacks, a:b = $1:$2"

# A whole system while processes start: named in time order, the same
# stacks as from the stream sorted by pdsort first.
( timeout 5 sh -c 'while :; do :; done' & perf record -q -a -g -F 999 \
    -o - -- sh -c './prog 100; ./prog 100; ./prog 100' > sw.data \
    2> rec.err; rc=$?; kill $! 2>/dev/null; exit $rc ) ||
	fail "perf record -a: $(cat rec.err)"
pddump --folded sw.data > sw.folded 2> /dev/null || fail "pddump sw.data"
pdsort sw.data | pddump --folded > sorted.folded 2> /dev/null ||
	fail "pdsort | pddump"
cmp -s sorted.folded sw.folded ||
	fail "perf record -a: not the stacks of the sorted stream: $(diff sorted.folded sw.folded | head -5)"
grep -q '^prog;' sw.folded || fail "perf record -a: no prog stacks"
echo "perf record -a: $(wc -l < sw.folded) stacks, as after pdsort"
