# SPDX-License-Identifier: MIT
# A stream with no FINISHED_ROUND is held until the end; -m caps the
# queue: pdsort warns once, writes half the queue early, loses nothing,
# and its peak RSS stays under the cap plus 32 MB.
. "$PD_TOP/tests/cli/lib.sh"
d=$PD_TOP/tests/cli/pdsort
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
$PY "$d/gen.py" big 24 > big.data || fail "gen"
pdsort -m 2M big.data > out.data 2> err.txt || fail "exit $?: $(cat err.txt)"
[ "$(grep -c 'reached its -m limit' err.txt)" = 1 ] ||
	fail "no single warning: $(cat err.txt)"
[ "$(wc -l < err.txt)" -le 2 ] || fail "stderr: $(cat err.txt)"
$PY "$d/check.py" same big.data out.data || fail "-m 2M lost records"
# Caps below one slab still work, one record at a time.
$PY "$d/gen.py" stream 2 > small.data
for m in 1 64K 100K; do
	pdsort -m $m small.data > out.data 2> /dev/null || fail "-m $m: exit $?"
	$PY "$d/check.py" same small.data out.data || fail "-m $m lost records"
done
# Peak RSS (the sanitizers' shadow memory would not be the tool's).
not_sanitized
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
/usr/bin/time -f %M -o rss.txt pdsort -m 2M big.data > /dev/null 2>&1
kb=$(tail -n 1 rss.txt)
[ "$kb" -lt $(( (2 + 32) * 1024 )) ] || fail "-m 2M: peak RSS $kb KB"
# Without the cap all of it is held, so the figure above means something.
/usr/bin/time -f %M -o rss.txt pdsort big.data > all.data 2>&1
kb2=$(tail -n 1 rss.txt)
[ "$kb2" -gt $(( 24 * 1024 )) ] || fail "no -m: peak RSS only $kb2 KB"
cmp -s big.data all.data && fail "no -m: no FINISHED_ROUND was added"
exit 0
