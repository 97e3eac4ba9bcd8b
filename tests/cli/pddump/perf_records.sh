# Fidelity against perf 6.1: the records perf report -D lists (offset,
# type, size) are the records pddump prints, and every sample has the same
# cpu, time, pid, tid, ip, period, addr and callchain (perfcmp.py says
# how offsets and compressed records are matched). Our own corpus and a
# sample of the foreign one: multi-event, Intel PT, COMPRESSED and
# COMPRESSED2 (perf stops there: its records must be a subset of ours),
# namespaces, v1 magic, simpleperf, group_desc, LBR call stacks.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
command -v python3 >/dev/null || skip "no python3"
not_sanitized
F=$C/foreign
n=0
for f in "$C"/*.data \
    "$F"/perf_data_converter/perf.data.piped.hw_and_sw-3.4 \
    "$F"/perf_data_converter/perf.data.intel_pt-4.14 \
    "$F"/perf_data_converter/perf.data.branch-4.14 \
    "$F"/perf_data_converter/perf.data.piped.ctx_switch_namespaces-4.14 \
    "$F"/perf_data_converter/perf.data.group_desc-4.14 \
    "$F"/linux-perf-data/fibo.compressed2.pipe.data \
    "$F"/linux-perf-data/sleep.compressed.pipe.data \
    "$F"/perfparser/parallel_static_gcc__perf.data.zstd \
    "$F"/perfparser/vector_static_gcc__perf.lbr.data \
    "$F"/hotspot/perf.data.true.v1 \
    "$F"/simpleperf/perf_kernel.data; do
	corpus_have "$f" || continue
	pddump --json "$f" > j.json 2> pe.txt ||
		fail "$f: pddump exit $?: $(cat pe.txt)"
	perf report -D -i "$f" > d.txt 2> e.txt
	rc=$?
	python3 "$PD_TOP/tests/cli/pddump/perfcmp.py" records "$f" j.json \
	    d.txt e.txt $rc > cmp.txt || fail "$f: $(cat cmp.txt)"
	echo "${f#"$C"/}: $(tail -n 1 cmp.txt)"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus files"
exit 0
