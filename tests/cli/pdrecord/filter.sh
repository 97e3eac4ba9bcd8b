# --filter, as perf record's: a tracepoint filter on the events of the
# -e before it, set by the kernel (PERF_EVENT_IOC_SET_FILTER). The same
# samples as perf record with the same filter; a filter the kernel
# refuses, or one after no tracepoint, is one line.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
need_tracepoint sched
run='/bin/true; /bin/true; /bin/true'
n() { pdstat "$1" 2> /dev/null | awk '$1 == "SAMPLE" { print $2 } END { print 0 }' | head -n 1; }
for f in '' 'pid == 1' 'pid != 1'; do
	pdrecord -e sched:sched_process_exec ${f:+--filter "$f"} -- \
	    sh -c "$run" > pd.data 2> pd.err || fail "pdrecord [$f]: $(cat pd.err)"
	perf record -q -e sched:sched_process_exec ${f:+--filter "$f"} \
	    -o - -- sh -c "$run" > perf.data 2> /dev/null || fail "perf [$f]"
	[ "$(n pd.data)" = "$(n perf.data)" ] ||
		fail "[$f]: pdrecord $(n pd.data) samples, perf $(n perf.data)"
	echo "filter '$f': $(n pd.data) samples, as perf"
done
[ "$(n pd.data)" -ge 3 ] || fail "pid != 1: only $(n pd.data) execs"
expect_fail 1 'the kernel refuses it' pdrecord -e sched:sched_process_exec \
    --filter 'nosuch == 1' -- true
expect_fail 2 'goes after an -e of tracepoints' pdrecord -e cpu-clock \
    --filter 'pid == 1' -- true
