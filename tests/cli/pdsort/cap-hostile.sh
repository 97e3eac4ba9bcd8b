# SPDX-License-Identifier: MIT
# Issue 18 finding 7: under -m, times that decrease or are random (and no
# FINISHED_ROUND) made each half flush write about one record after a
# pass over the whole queue, and random times pinned every slab: O(n^2),
# minutes for a few MB. Now a half flush writes at least half the queue
# and compacts what is left: quick, nothing lost, RSS within the cap.
. "$PD_TOP/tests/cli/lib.sh"
count() {
	pdstat "$1" | awk '$1 == "SWITCH" { print $2 }'
}
mkpipe tiny-dec 1000000 > dec.data || fail "mkpipe"
timeout 20 pdsort -m 8M dec.data > out.data 2> err.txt ||
	fail "decreasing: exit $?: $(cat err.txt)"
[ "$(count out.data)" = 1000000 ] || fail "decreasing: lost records"
grep -q "reached its -m limit" err.txt || fail "decreasing: cap never hit"
mkpipe tiny-rand 2000000 > rand.data || fail "mkpipe"
timeout 20 pdsort -m 24M rand.data > out.data 2> err.txt ||
	fail "random: exit $?: $(cat err.txt)"
[ "$(count out.data)" = 2000000 ] || fail "random: lost records"
# Peak RSS: the cap plus 10%, plus the buffers and the program (8 MB).
not_sanitized
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
/usr/bin/time -f %M -o rss.txt pdsort -m 24M rand.data > /dev/null 2>&1
kb=$(tail -n 1 rss.txt)
[ "$kb" -lt $(( 24 * 1024 * 11 / 10 + 8 * 1024 )) ] ||
	fail "-m 24M: peak RSS $kb KB"
exit 0
