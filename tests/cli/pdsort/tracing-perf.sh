# SPDX-License-Identifier: MIT
# A merge of inputs that all carry tracepoints, read by perf 6.1. perf
# reads one HEADER_TRACING_DATA: at a second it stopped ("tracing data
# size mismatch ... failed to process type: 66") and printed no sample,
# and it gives formats only to the tracepoint events whose attrs came
# before it. The merge now writes one, after every input's attrs:
#  - two hosts, the same tracepoints (same kernel): the first's;
#  - one input twice (pdsort a a): the same;
#  - other tracepoints on each input: one with both inputs' formats.
# Each time perf script prints every sample of every input with its
# comm, event (event@host) and tracepoint fields, perf report -D counts
# them per event (perf report --stats cannot read a tracepoint pipe in
# 6.1 at all, merged or not: its stub leaves the tracing data unread),
# and pddump formats every tracepoint sample as in its input.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
need_tracepoint sched/sched_switch
need_tracepoint sched/sched_wakeup
command -v unshare >/dev/null 2>&1 || skip "no unshare"
unshare --uts --pid --fork --mount-proc true 2>/dev/null ||
	skip "cannot make UTS and PID namespaces here"
. "$PD_TOP/tests/cli/pdsort/tracing.inc"
# perf's build-id cache of its own (merge.sh says why).
PERF_BUILDID_DIR=$PWD/buildid; export PERF_BUILDID_DIR

host() {	# NAME EVENTS: a recording of dd in a new UTS and PID namespace
	unshare --uts --pid --fork --mount-proc sh -c "hostname $1;
	    pdrecord -q -a -F 499 -e $2 -- \
	    dd if=/dev/zero of=/dev/null bs=64 count=200000 2>/dev/null" \
	    > "$1.data"
}
host hA cpu-clock,sched:sched_switch & a=$!
host hB cpu-clock,sched:sched_switch & b=$!
host hC cpu-clock,sched:sched_wakeup,sched:sched_process_exec & c=$!
wait $a || fail "hA: pdrecord: exit $?"
wait $b || fail "hB: pdrecord: exit $?"
wait $c || fail "hC: pdrecord: exit $?"

pdsort -o ab.data hA.data hB.data 2> err.txt || fail "pdsort hA hB: $(cat err.txt)"
[ -s err.txt ] && fail "pdsort hA hB said: $(cat err.txt)"
check ab.data hA.data hA hB.data hB
pdsort -o aa.data hA.data hA.data 2> err.txt || fail "pdsort hA hA: $(cat err.txt)"
check aa.data hA.data "" hA.data ""
pdsort -o ac.data hA.data hC.data 2> err.txt || fail "pdsort hA hC: $(cat err.txt)"
[ -s err.txt ] && fail "pdsort hA hC said: $(cat err.txt)"
check ac.data hA.data hA hC.data hC
pddump ac.data | grep ' TRACING_DATA .* nr_events=3$' > /dev/null ||
	fail "hA hC: tracing data without both inputs' formats"
exit 0
