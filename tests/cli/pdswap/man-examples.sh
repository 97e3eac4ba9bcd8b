# The EXAMPLES of man/pdswap.1, run on a real stream (the ssh host is
# replaced by a big-endian copy made here).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
cp "$C/callchain.pipe.data" perf.data
grep -q 'pdswap -t swap < perf.data | pdswap -t swap | cmp - perf.data' \
    "$PD_TOP/man/pdswap.1" || fail "man page example changed"
pdswap -t swap < perf.data | pdswap -t swap | cmp - perf.data ||
	fail "round-trip example"
pdswap -t big -o be.data perf.data || fail "-t big -o example"
od -An -tx1 -N8 be.data | grep -q '32 45 4c 49 46 52 45 50' ||
	fail "be.data is not big-endian"
cat be.data | pdswap > local.data || fail "pdswap > local.data"
perf report -i local.data --stdio > report.txt 2>err.txt ||
	fail "perf report: $(cat err.txt)"
grep -q 'Samples' report.txt || fail "perf report printed no samples"
