# SPDX-License-Identifier: MIT
# pdstat --top (by sym and by dso) gives the percentages of perf report
# --stdio --sort sym (dso) within 0.5 points, on streams of a test
# program recorded by perf and by pdrecord; the text table has them too.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .

perf record -g -o - -- ./hot 300 > perf.pd 2>perf.err || fail "perf record: $(cat perf.err)"
pdrecord -q -o pd.pd -- ./hot 300 || fail "pdrecord"

for s in perf.pd pd.pd; do
	for by in sym dso; do
		perf report -i - --stdio --no-children -g none --sort $by \
		    < $s > $s.$by.perf 2>/dev/null || fail "perf report $s"
		pdstat --json --top 10 --by $by $s > $s.$by.json ||
			fail "pdstat --top $s"
		python3 "$PD_TOP/tests/cli/sym/topcmp.py" $by $s.$by.json \
		    $s.$by.perf 10 > $s.$by.cmp ||
			fail "$s by $by: $(cat $s.$by.cmp)"
	done
	pdstat --top 3 $s > $s.txt || fail "pdstat --top text"
	grep -Eq '^ +[0-9.]+% +[0-9]+  \[\.\] leaf  \(.*/libhot.so\)$' $s.txt ||
		fail "$s: no leaf row: $(cat $s.txt)"
	[ "$(grep -c '^ *[0-9.]*% ' $s.txt)" = 3 ] || fail "$s: not 3 rows"
done

# Usage errors.
pdstat --top 3 --by file pd.pd > /dev/null 2>err.txt
[ $? = 2 ] && grep -q -- '--by' err.txt || fail "--by file: $(cat err.txt)"
pdstat --top 0 pd.pd > /dev/null 2>err.txt
[ $? = 2 ] && grep -q -- '--top' err.txt || fail "--top 0: $(cat err.txt)"
exit 0
