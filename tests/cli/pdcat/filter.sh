# SPDX-License-Identifier: MIT
# Issue 24: pdcat --comm, --pid, --tid, --cpu and --time as perf script
# has them. On the shipped captures the samples pdcat keeps are the ones
# perf script --comm/... prints (perf script reading pdcat's output,
# sample for sample), pdcat -v's counts are perf script's, and every
# record but a SAMPLE passes. --comm on callchain.pipe.data needs perf's
# delivery order: the gzip exec COMM comes after samples of cpu 0 that are
# later than it, in a stream of two FINISHED_ROUNDs.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
F="-G -F comm,pid,tid,time"

# same FILE FILTER...: perf script's samples with the filter, and
# pdcat's with it read back by perf script, are the same lines.
same() {
	_f=$C/$1; shift
	perf script -i "$_f" "$@" $F > want.txt 2> perf.err ||
		fail "perf script $*: $(cat perf.err)"
	pdcat -v "$@" "$_f" 2> v.txt > out.data ||
		fail "pdcat $*: exit $?: $(cat v.txt)"
	perf script -i - $F < out.data > got.txt 2> perf.err ||
		fail "perf script of pdcat $*: $(cat perf.err)"
	cmp -s want.txt got.txt ||
		fail "$1 $*: $(diff want.txt got.txt | head -5)"
	_kept=$(sed -n 's/.*, kept \([0-9]*\)$/\1/p' v.txt)
	[ "$_kept" = "$(wc -l < want.txt)" ] ||
		fail "$*: -v says '$(cat v.txt)', perf $(wc -l < want.txt)"
	[ -s want.txt ] || [ "${EMPTY_OK:-}" = 1 ] || fail "$*: no samples"
}

for f in callchain.pipe.data sched.pipe.data switch-addr.pipe.data \
    callchain.file.data; do
	corpus_have "$C/$f" || skip "no $f"
done
same callchain.pipe.data --comm gzip
same callchain.pipe.data --comm perf-exec,swapper
same sched.pipe.data --comm kworker/u8:0-ev
same switch-addr.pipe.data --comm gzip
same callchain.pipe.data --pid 0
same callchain.pipe.data --tid 12337
same callchain.pipe.data --time 308.4,308.5
same callchain.pipe.data --time ,308.4
same callchain.pipe.data --time '308.3,308.35 308.4,308.5'
# perf 6.1 takes --cpu and percents from a file's header only.
same callchain.file.data --cpu 1
same callchain.file.data --time 10%/2
same callchain.file.data --time 0%-10%,30%-40%
same callchain.file.data --time 25%
same callchain.file.data --comm gzip --cpu 0 --time 50%-90%

# Nothing but samples goes: the other records, type by type, stay.
types() {
	pddump "$1" | awk '/^0x/ && $3 != "SAMPLE" { n[$3]++ }
	    END { for (t in n) print t, n[t] }' | sort
}
pdcat --comm gzip "$C/callchain.pipe.data" > out.data || fail "pdcat"
types "$C/callchain.pipe.data" > want.txt
types out.data > got.txt
cmp -s want.txt got.txt || fail "records: $(diff want.txt got.txt | head)"

# A percent needs the span: a pipe is refused in one line, exit 2.
cat "$C/callchain.file.data" | expect_fail 2 "a pipe cannot be read twice" \
    pdcat --time 10%/2
expect_fail 2 "--time '5'" pdcat --time 5 "$C/callchain.pipe.data"
expect_fail 2 "--time '2,1'" pdcat --time 2,1 "$C/callchain.pipe.data"
expect_fail 2 "--cpu 'x'" pdcat --cpu x "$C/callchain.pipe.data"
expect_fail 2 "--pid '1,'" pdcat --pid 1, "$C/callchain.pipe.data"
# A filter on a field the samples lack: said, not a silent empty output.
expect_fail 1 "PERF_SAMPLE_CPU" pdcat --cpu 0 "$C/dwarf.pipe.data"
exit 0
