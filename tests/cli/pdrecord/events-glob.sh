# Tracepoint globs in -e, expanded as perf record expands them: the same
# events in the same order (their attrs' configs), with modifiers kept;
# no match and a glob in a group are one-line usage errors.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
need_tracepoint sched
configs() { pddump -t ATTR "$1" | grep -o 'config=[^ ]*' | tr '\n' ' '; }
for p in 'sched:sched_process_*' 'sched:*' 'syscalls:sys_enter_open*' \
    'sched:sched_switch*:u'; do
	pdrecord -e "$p" -- true > pd.data 2> pd.err || fail "$p: $(cat pd.err)"
	perf record -q -e "$p" -o - -- true > perf.data 2> /dev/null ||
		fail "$p: perf record"
	a=$(configs pd.data) b=$(configs perf.data)
	[ -n "$a" ] && [ "$a" = "$b" ] ||
		fail "$p: pdrecord: $a; perf: $b"
	echo "$p: $(echo "$a" | wc -w) tracepoints, as perf"
done
# :u stays on each (exclude_kernel).
[ "$(pddump -t ATTR pd.data | grep -c 'exclude_kernel')" -ge 1 ] ||
	fail "the :u of the glob was lost"
expect_fail 2 'no tracepoint matches' pdrecord -e 'sched:nosuch_*' -- true
expect_fail 2 'cannot be in a group' pdrecord -e '{cpu-clock,sched:sched_process_*}' -- true
