# perf record --off-cpu's own samples (event offcpu-time, period = ns off
# CPU) are read as off-CPU time too: a fixture as a perf built with BPF
# writes them (the installed perf may not have BPF), three waits of one
# stack: 200 ms, 100 ms and 5 us.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe offcpu-time > oc.data || fail mkpipe
pddump --folded=offcpu oc.data > all.folded 2> err.txt ||
	fail "pddump --folded=offcpu: $(cat err.txt)"
[ "$(cat all.folded)" = "mkpipe;[unknown];[unknown] 300005000" ] ||
	fail "waits: $(cat all.folded)"
pddump --folded=offcpu --offcpu-min 1ms oc.data > long.folded ||
	fail "--offcpu-min"
[ "$(cat long.folded)" = "mkpipe;[unknown];[unknown] 300000000" ] ||
	fail "--offcpu-min 1ms: $(cat long.folded)"
pdstat --offcpu --folded st.folded oc.data > /dev/null 2> err.txt ||
	fail "pdstat --offcpu: $(cat err.txt)"
cmp all.folded st.folded || fail "pdstat --offcpu differs from pddump"
# Counted as samples, the same stream gives three, not nanoseconds.
[ "$(pddump --folded oc.data)" = "mkpipe;[unknown];[unknown] 3" ] ||
	fail "plain --folded: $(pddump --folded oc.data)"
echo "offcpu-time: $(cat all.folded)"
