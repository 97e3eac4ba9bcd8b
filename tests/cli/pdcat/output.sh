# SPDX-License-Identifier: MIT
# Output faults: a full disk is one line and exit 1; a reader that goes
# away ends pdcat quietly with the status of a SIGPIPE death, whether or
# not SIGPIPE is ignored; -o FILE appears whole or not at all.
. "$PD_TOP/tests/cli/lib.sh"

mkpipe ok > a.data || fail "mkpipe"
# A stream far larger than a pipe's buffer: the good stream's records
# after its ATTR, 4096 times over (passed through unparsed).
tail -c +169 a.data > body
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	cat body body > body2 && mv body2 body
done
cat a.data body > big.data
[ "$(wc -c < big.data)" -gt 1000000 ] || fail "big.data too small"
pdcat < big.data | cmp -s - big.data || fail "big.data does not pass"

if [ -w /dev/full ]; then
	pdcat big.data > /dev/full 2> err.txt
	rc=$?
	[ $rc -eq 1 ] || fail "/dev/full: exit $rc"
	[ "$(cat err.txt)" = "pdcat: <stdout>: No space left on device" ] ||
		fail "/dev/full: '$(cat err.txt)'"
	# A small stream fails only when flushed at the end: same line.
	pdcat a.data > /dev/full 2> err.txt
	[ $? -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] ||
		fail "/dev/full, small: $(cat err.txt)"
fi

# The reader goes away: no message, killed by SIGPIPE (128 + 13).
{ pdcat big.data 2> err.txt; echo $? > rc.txt; } | head -c 100 > /dev/null
[ "$(cat rc.txt)" = 141 ] || fail "EPIPE: status $(cat rc.txt)"
[ ! -s err.txt ] || fail "EPIPE: said '$(cat err.txt)'"
# The same with SIGPIPE ignored by the parent: pdcat sees EPIPE.
(
	trap '' PIPE
	{ pdcat big.data 2> err.txt; echo $? > rc.txt; } |
	    head -c 100 > /dev/null
)
[ "$(cat rc.txt)" = 141 ] || fail "EPIPE, ignored: status $(cat rc.txt)"
[ ! -s err.txt ] || fail "EPIPE, ignored: said '$(cat err.txt)'"

# -o FILE: written whole on success, untouched on failure, no leftovers.
mkdir o && cd o || fail "mkdir"
pdcat -o out.data ../a.data ../a.data 2> err.txt || fail "-o: $(cat err.txt)"
pdcat ../a.data ../a.data | cmp -s - out.data || fail "-o: not the stream"
[ "$(ls)" = "err.txt
out.data" ] || fail "-o: leftovers: $(ls)"
cp out.data before.data
mkpipe truncated-last > ../bad.data
pdcat -o out.data ../a.data ../bad.data 2> err.txt
[ $? -eq 1 ] || fail "-o with a bad input: exit not 1"
[ "$(wc -l < err.txt)" -eq 1 ] || fail "-o: $(cat err.txt)"
cmp -s out.data before.data || fail "-o: a failed run changed FILE"
pdcat -o new.data ../bad.data 2> err.txt
[ $? -eq 1 ] || fail "-o new with a bad input: exit not 1"
[ ! -e new.data ] || fail "-o: a failed run left a partial FILE"
[ "$(ls)" = "before.data
err.txt
out.data" ] || fail "-o: leftovers after failures: $(ls)"
exit 0
