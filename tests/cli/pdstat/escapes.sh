# SPDX-License-Identifier: MIT
# Issue 18 finding 11: strings from the stream (hostname, cmdline, event
# name, comm, a mapped path) hold terminal escapes (ESC, BEL, the C1 CSI
# byte 0x9b). pdstat, pdstat --top, pddump -s and pddump --folded print
# them escaped as plain pddump does (\x1b), on stdout and stderr alike.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe esc-strings > e.data || fail "mkpipe"
raw() {
	# Any ESC, BEL or byte from 0x80 up in the file fails.
	[ "$(LC_ALL=C tr -d '\000-\006\010-\032\034-\177' < "$1" | wc -c)" = 0 ] ||
		fail "$2: raw control bytes: $(cat -v "$1")"
	grep -qF '\x1b]0;TITLE\x07\x1b[2' "$1" || fail "$2: not escaped: $(cat -v "$1")"
}
pdstat e.data > out.txt 2> err.txt || fail "pdstat: exit $?"
raw out.txt pdstat
grep -qF 'host\x1b' out.txt && grep -qF 'cmd\x1b' out.txt &&
	grep -qF 'ev\x1b' out.txt && grep -qF 'co\x1b' out.txt ||
	fail "pdstat: a string is missing: $(cat -v out.txt)"
pdstat --top 3 e.data > out.txt 2> err.txt || fail "pdstat --top: exit $?"
raw out.txt "pdstat --top"
raw err.txt "pdstat --top (stderr)"
pddump -s e.data > out.txt 2> err.txt || fail "pddump -s: exit $?"
raw out.txt "pddump -s"
raw err.txt "pddump -s (stderr)"
pddump --folded e.data > out.txt 2> err.txt || fail "pddump --folded: exit $?"
raw out.txt "pddump --folded"
raw err.txt "pddump --folded (stderr)"
exit 0
