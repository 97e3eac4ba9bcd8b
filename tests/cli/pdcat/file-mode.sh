# SPDX-License-Identifier: MIT
# A file-mode perf.data becomes the pipe stream perf reads the same: the
# synthetic file's event is named "mkpipe-clock" only in its EVENT_DESC
# feature, which perf's pipe reader ignores for names.
. "$PD_TOP/tests/cli/lib.sh"
need_perf

mkpipe file-mode > f.data || fail "mkpipe"
perf script -i f.data > want.txt 2> /dev/null || fail "perf cannot read f.data"
grep -q mkpipe-clock want.txt || fail "perf does not name the event"
[ "$(wc -l < want.txt)" = 3 ] || fail "perf script: $(wc -l < want.txt) lines"
pdcat f.data > p.data 2> err.txt || fail "pdcat: $(cat err.txt)"
[ "$(od -An -tu8 -j8 -N8 p.data | tr -d ' ')" = 16 ] ||
	fail "not a pipe stream"
perf script -i - < p.data > got.txt 2> /dev/null || fail "perf: pipe"
cmp -s want.txt got.txt || fail "perf script differs: $(diff want.txt got.txt)"
perf report --stats -i - < p.data 2> /dev/null |
    grep -q 'SAMPLE events: *3' || fail "perf report --stats"
