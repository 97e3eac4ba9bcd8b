# pddump --unwind over every corpus stream that holds sampled user stacks
# (x86_64 from perf 3.10 to 6.16, aarch64 from simpleperf): no crash, no
# sanitizer report, a callchain for every sample; frames in files this
# host does not have say [unknown] with their dso. Then our own capture
# (dwarf.pipe.data, --call-graph dwarf,2048 on this machine's image)
# against perf script, when its files are the ones it was recorded with.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
for f in dwarf.pipe.data \
    foreign/hotspot/perf.data.PerfFormatLost \
    foreign/hotspot/perf.data.true.v2 \
    foreign/linux-perf-data/fibo.compressed2.pipe.data \
    foreign/perfparser/contentsize.data \
    foreign/perfparser/cpp-inlining.perf.data \
    foreign/perfparser/fork_static_gcc__perf.data.zstd \
    foreign/perfparser/parallel_static_gcc__perf.data.zstd \
    foreign/perfparser/vector_static_clang__perf.data \
    foreign/perfparser/vector_static_gcc__perf.data \
    foreign/simpleperf/perf_no_unwind.data \
    foreign/simpleperf/perf_unwind_embedded_lib_in_apk.data \
    foreign/simpleperf/perf_with_ip_zero_in_callchain.data \
    foreign/simpleperf/perf_with_arm_regs.data; do
	corpus_have "$C/$f" || continue
	o=$(echo "$f" | tr / _)
	pddump --unwind --no-inline -t SAMPLE "$C/$f" > "$o.txt" 2> "$o.err"
	rc=$?
	[ "$rc" -le 1 ] || fail "$f: exit $rc: $(tail -n 3 "$o.err")"
	grep -q "Sanitizer\|runtime error" "$o.err" &&
		fail "$f: $(grep -m 3 "Sanitizer\|runtime error" "$o.err")"
	ns=$(grep -c " SAMPLE " "$o.txt")
	nc=$(grep -c "^  callchain:" "$o.txt")
	[ "$ns" -gt 0 ] && [ "$ns" = "$nc" ] ||
		fail "$f: $ns samples, $nc callchains"
done

# Files that are not here: named [unknown], never a wrong name.
# x86_64 (perf 4.18, a KDAB build tree) and aarch64 (Android's libc).
for x in "foreign_perfparser_vector_static_gcc__perf.data.txt (/home/milian/" \
    "foreign_simpleperf_perf_no_unwind.data.txt (/system/lib64/libc.so)"; do
	t=${x%% *} d=${x#* }
	[ -f "$t" ] || continue
	grep "^    0x" "$t" | grep -F "$d" > frames.txt
	[ -s frames.txt ] || fail "$t: no frame in $d"
	grep -v " \[unknown\] (" frames.txt > named.txt
	[ ! -s named.txt ] || fail "$t: named frames in a missing file: $(head -n 2 named.txt)"
done

# Our own capture against perf script: the same user frames, where the
# files on this machine are those of the capture (build ids).
command -v perf >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 ||
	exit 0
if grep -qi "build id" dwarf.pipe.data.err; then
	echo "dwarf.pipe.data: files differ from the capture's; not compared"
	exit 0
fi
perf script --no-inline --ns -F time,ip,sym,symoff,dso -i - \
    < "$C/dwarf.pipe.data" > perf.txt 2> perf.err || exit 0
pdsort < "$C/dwarf.pipe.data" | pddump --unwind --no-inline -t SAMPLE > sorted.txt ||
	fail "pdsort | pddump --unwind"
python3 "$PD_TOP/tests/cli/unwind/cmpunwind.py" perf.txt sorted.txt 0 \
    > cmp.txt || fail "dwarf.pipe.data: $(cat cmp.txt)"
cat cmp.txt
