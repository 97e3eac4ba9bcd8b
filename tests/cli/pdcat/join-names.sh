# SPDX-License-Identifier: MIT
# Issue 18 finding 8, names: EVENT_DESC names events by index, and in a
# join a later input's indices start after the earlier inputs' events.
# Read by index, the second input's EVENT_DESC renamed the first input's
# event. pdcat now says a later input's names as EVENT_UPDATE records (by
# id), and the reader, as perf, lets EVENT_DESC name only unnamed events.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe named evA 11 > a.data && mkpipe named evB 21 > b.data || fail "mkpipe"
names() {
	pdstat "$1" | awk '/^event/ { on = 1; next } on && NF == 0 { exit }
	    on { print $1, $2 }' | tr '\n' ' '
}
pdcat a.data b.data > j.data || fail "pdcat: exit $?"
[ "$(names j.data)" = "evA 1 evB 1 " ] || fail "a+b: $(names j.data)"
pdcat b.data a.data > j.data || fail "pdcat: exit $?"
[ "$(names j.data)" = "evB 1 evA 1 " ] || fail "b+a: $(names j.data)"
# The same ids in both: the second input's are renumbered, names follow.
pdcat a.data a.data > j.data || fail "pdcat: exit $?"
[ "$(names j.data)" = "evA 1 evA 1 " ] || fail "a+a: $(names j.data)"
exit 0
