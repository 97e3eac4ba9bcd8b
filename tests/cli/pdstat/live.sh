# SPDX-License-Identifier: MIT
# -p with standard error on a terminal: a status line (records/s, MB/s,
# samples, lost) while the stream flows, cleared before the summary.
# script(1) gives pdstat a terminal; the input stalls for a second in
# the middle so that a refresh (four a second) falls inside it.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"
command -v script >/dev/null 2>&1 || skip "script(1) missing (util-linux)"

fixture > in.data
script -q -e -c 'sh -c "{ head -c 340 in.data; sleep 1;
    tail -c +341 in.data; } | pdstat -p > out.data"' /dev/null \
    < /dev/null > tty.txt 2>&1 || fail "exit $?: $(cat tty.txt)"
cmp in.data out.data || fail "-p on a terminal changed the stream"
tr '\r' '\n' < tty.txt > lines.txt
grep -Eq 'pdstat: 6 records +[0-9]+ records/s +[0-9.]+ MB/s +2 samples +0 lost' \
    lines.txt || fail "no status line: $(cat lines.txt)"
# The line is cleared (ESC [ K) before the summary starts.
grep -q "$(printf '\033')\[K<stdin>: pipe stream, 596 bytes" lines.txt ||
	fail "summary does not follow a cleared line"

# Not a terminal: no status line at all.
{ head -c 340 in.data; sleep 1; tail -c +341 in.data; } |
    pdstat -p > /dev/null 2> sum.txt
grep -q 'records/s' sum.txt && fail "status line without a terminal"
exit 0
