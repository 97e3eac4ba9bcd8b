# SPDX-License-Identifier: MIT
# Stacks that could not be unwound (--call-graph dwarf samples of files
# that are not there) are said once per input, however many views
# (--pprof, --gecko, --flamegraph) unwound them: on mkpipe sym-unwind,
# and on a foreign dwarf capture when the corpus has it.
. "$PD_TOP/tests/cli/lib.sh"

once() {	# FILE WANT: pdstat's note on FILE, exactly once, saying WANT
	pdstat --pprof p.pb.gz --gecko g.json --flamegraph f.svg "$1" \
	    > /dev/null 2> err.txt || fail "pdstat $1: $(cat err.txt)"
	[ "$(grep -c 'could not be unwound' err.txt)" = 1 ] ||
		fail "$1: not once: $(cat err.txt)"
	grep -q "$2 user stacks (--call-graph dwarf) could not be unwound" \
	    err.txt || fail "$1: $(grep 'could not be unwound' err.txt)"
}
mkpipe sym-unwind 3 > unwind.data || fail "mkpipe sym-unwind"
once unwind.data "3 of 3"
echo "mkpipe sym-unwind: said once"

[ -n "${PD_CORPUS:-}" ] || { echo "skipped: the foreign capture (PD_CORPUS unset)"; exit 0; }
need_corpus
f=$C/foreign/perfparser/vector_static_gcc__perf.data
corpus_have "$f" || { echo "skipped: no $f"; exit 0; }
once "$f" "[0-9]* of [0-9]*"
echo "vector_static_gcc__perf.data: said once"
