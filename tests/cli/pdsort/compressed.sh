# SPDX-License-Identifier: MIT
# COMPRESSED records are decompressed and sorted like any other: the
# output is plain, has no COMPRESSED feature, and perf reads it.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
d=$PD_TOP/tests/cli/pdsort
f=$C/zstd.pipe.data
[ -f "$f" ] || fail "no zstd.pipe.data"
pdsort "$f" > out.data || fail "exit $?"
$PY "$d/check.py" plain out.data > res.txt || fail "$(cat res.txt)"
# The same records as pdcat -d reads from it, less FINISHED_ROUND.
pdcat -d "$f" > plain.data || fail "pdcat -d"
$PY "$d/check.py" same plain.data out.data > res.txt ||
	fail "$(cat res.txt)"
$PY "$d/check.py" mono out.data > res.txt 2>/dev/null ||
	{ command -v perf >/dev/null && fail "$(cat res.txt)"; }
exit 0
