# SPDX-License-Identifier: MIT
# perf reads pdsort's output as it reads the input:
# pdsort < x | perf script -i -  prints what  perf script -i x  prints.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
for f in "$C"/*.data; do
	perf script -i "$f" > want.txt 2>/dev/null || continue
	pdsort < "$f" | perf script -i - > got.txt 2> err.txt ||
		fail "$f: perf script failed: $(tail -n 2 err.txt)"
	[ -s want.txt ] || fail "$f: perf script printed nothing"
	cmp -s want.txt got.txt || fail "$f: perf script output differs"
done
exit 0
