# Fidelity against perf 6.1 perf script: every name=value of a tracepoint
# sample's output whose name is a field of the event (decoded by pddump
# from the formats in the tracing data) has the same value. A pipe with
# HEADER_TRACING_DATA and a compressed file-mode capture.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
command -v python3 >/dev/null || skip "no python3"
not_sanitized
for f in "$C"/sched.pipe.data \
    "$C"/foreign/perfparser/parallel_static_gcc__perf.data.zstd; do
	corpus_have "$f" || continue
	pddump --json "$f" > j.json || fail "$f: pddump exit $?"
	perf script -F time,event,trace --ns -i "$f" > s.txt 2>/dev/null ||
		fail "$f: perf script failed"
	python3 "$PD_TOP/tests/cli/pddump/perfcmp.py" trace j.json s.txt \
	    > cmp.txt || fail "$f: $(cat cmp.txt)"
	echo "${f#"$C"/}: $(tail -n 1 cmp.txt)"
done
exit 0
