# The EXAMPLES of man/pddump.1, run as written (perf.data: a hand-made
# stream; the live one only as root with perf).
. "$PD_TOP/tests/cli/lib.sh"
mkpipe pddump-basic > perf.data || fail mkpipe

pddump perf.data | cat > 1.txt || fail "example 1"
[ "$(grep -c '^0x' 1.txt)" = 6 ] || fail "example 1: $(cat 1.txt)"

if command -v jq >/dev/null; then
	pddump --json -t SAMPLE perf.data | jq -r .event | sort | uniq -c \
	    > 3.txt || fail "example 3"
	[ "$(tr -s ' ' < 3.txt)" = " 1 cpu-clock" ] || fail "example 3: $(cat 3.txt)"
fi

pddump -x -t FEATURE perf.data > 4.txt || fail "example 4"
grep -q "^0xa8 84 FEATURE feat_id=3 feature=hostname hostname=box$" 4.txt ||
	fail "example 4: $(cat 4.txt)"
grep -q "^    0000: 50 00 00 00 00 00 54 00 " 4.txt || fail "example 4: no dump"

# The live example needs root and a working perf with tracepoints.
if [ "$(id -u)" = 0 ] && command -v perf >/dev/null &&
    perf record -a -o - -e sched:sched_switch sleep 1 2>/dev/null |
    pddump -t SAMPLE,COMM > 2.txt && [ -s 2.txt ]; then
	grep -q " SAMPLE .*event=sched:sched_switch " 2.txt ||
		fail "example 2: $(head -n 3 2.txt)"
	grep -q "^  raw: common_type=.* prev_comm=" 2.txt ||
		fail "example 2: no tracepoint fields"
fi
exit 0
