# SPDX-License-Identifier: MIT
# -e pmu/config=N,name=x/ for the software and tracepoint PMUs, as perf
# record takes it: the same attrs (type, config, period or frequency,
# inherit, modifiers) and the same names in the stream (name= names the
# event); a term or PMU it does not know is a one-line usage error.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
need_tracepoint sched/sched_switch
id=$(cat /sys/kernel/tracing/events/sched/sched_switch/id)
e="software/config=0,name=clk/,software/config=1/u"
e="$e,tracepoint/config=$id,name=sw/"
e="$e,software/config=0x2,period=100000,no-inherit/k"
# The fields both write the same way, one line per event.
fields() {
	perf report --header-only -i - < "$1" 2>/dev/null |
	    sed -n 's/^# event : //p' |
	    sed 's/{ sample_period, sample_freq }/period/; s/, , /, /' |
	    awk -F', ' '{ o = ""
		for (i = 1; i <= NF; i++) {
			split($i, kv, " = ")
			if (kv[1] ~ /^(name|type|config|config1|period|freq|inherit|exclude_user|exclude_kernel)$/)
				o = o " " $i
		}
		print o }'
}
pdrecord -q -e "$e" -- true > pd.data 2> pd.err || fail "pdrecord: $(cat pd.err)"
[ -s pd.err ] && fail "pdrecord: $(cat pd.err)"
perf record -q -e "$e" -o - -- true > perf.data 2> /dev/null ||
	fail "perf record -e $e"
fields pd.data > pd.txt
fields perf.data > perf.txt
[ "$(wc -l < pd.txt)" -eq 4 ] || fail "4 events wanted: $(cat pd.txt)"
diff -u perf.txt pd.txt || fail "pdrecord's events differ from perf's"
grep -q '^ name = clk type = 1 period = 4000' pd.txt ||
	fail "name= not the event's name: $(cat pd.txt)"
# perf script reads it, names included.
perf script -i - < pd.data > /dev/null 2> perr.txt ||
	fail "perf script: $(cat perr.txt)"

expect_fail 2 "unknown term 'bogus' for PMU 'software'" \
    pdrecord -e 'software/config=0,bogus=1/' -- true
expect_fail 2 "no PMU 'nosuchpmu'" pdrecord -e 'nosuchpmu/config=0/' -- true
expect_fail 2 "has no closing '/'" pdrecord -e 'software/config=0' -- true
expect_fail 2 "term 'period' for PMU 'software': a number above 0" \
    pdrecord -e 'software/config=0,period=0/' -- true
