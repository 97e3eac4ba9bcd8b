# The streams perf 6.1 cannot read are printed whole: COMPRESSED2,
# attrs larger than perf 6.1's (136 bytes), simpleperf tracepoints (its
# tracing data inside the record), a tracepoint pipe. Sample counts are
# the corpus manifest's, from its own scan.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
F=$C/foreign
n=0
check() {	# file samples tracepoint-samples
	corpus_have "$1" || return 0
	pddump -t SAMPLE,ATTR "$1" > out.txt || fail "$1: exit $?"
	s=$(grep -c '^0x[0-9a-f]* [0-9]* SAMPLE ' out.txt)
	[ "$s" = "$2" ] || fail "$1: $s samples, wanted $2"
	grep -q ' error=' out.txt && fail "$1: $(grep -m1 ' error=' out.txt)"
	r=$(grep -c '^  raw: common_type=' out.txt)
	[ "$r" = "$3" ] || fail "$1: $r tracepoint samples decoded, wanted $3"
	n=$((n + 1))
}
check "$F"/linux-perf-data/fibo.compressed2.pipe.data 547 0
check "$F"/linux-perf-data/sleep.compressed2.data 7 0
check "$F"/linux-perf-data/sleep.data 7 0
check "$F"/hotspot/perf.data.PerfFormatLost 34 0
check "$F"/simpleperf/perf_with_tracepoint_event.data 45 31
check "$F"/simpleperf/perf_with_tracepoint_event_dynamic_field.data 10 10
check "$C"/sched.pipe.data 5289 5289
[ "$n" -gt 0 ] || fail "none of the streams in the corpus"
# An ABI-extended attr shows its newer fields.
f=$F/linux-perf-data/sleep.data
if [ -f "$f" ]; then
	pddump -t ATTR "$f" | grep -q " attr_size=136 .* config3=0x" ||
		fail "$f: attr_size 136 not decoded"
fi
# __data_loc strings: kprobes:myopen's name field.
f=$F/simpleperf/perf_with_tracepoint_event_dynamic_field.data
if [ -f "$f" ]; then
	pddump -t SAMPLE "$f" | grep -q "^  raw: .* name=perf.data dfd=-100$" ||
		fail "$f: __data_loc string"
fi
exit 0
