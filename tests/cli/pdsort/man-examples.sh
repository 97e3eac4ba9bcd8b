# SPDX-License-Identifier: MIT
# The EXAMPLES of pdsort(1) run as written, and the page is clean.
. "$PD_TOP/tests/cli/lib.sh"
if command -v mandoc >/dev/null; then
	mandoc -Tlint -Wwarning "$PD_TOP/man/pdsort.1" > lint.txt 2>&1 ||
		fail "mandoc: $(cat lint.txt)"
fi
need_corpus
cp "$C/zstd.pipe.data" .
pdsort -m 64M --strict -o sorted.data zstd.pipe.data || fail "example 2"
[ -s sorted.data ] || fail "example 2 wrote nothing"
need_perf
need_root
perf record -a -o - -- sleep 1 2> rec.txt | pdsort | perf script -i - \
	> script.txt 2> err.txt || fail "example 1: $(cat err.txt)"
[ -s script.txt ] || fail "example 1: perf script printed nothing"
exit 0
