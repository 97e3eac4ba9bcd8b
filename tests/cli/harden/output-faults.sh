# Faults on output: a full disk is one error line and exit 1; a reader
# that goes away ends the writer quietly, as SIGPIPE would.
. "$PD_TOP/tests/cli/lib.sh"
[ -w /dev/full ] || skip "no /dev/full"
mkpipe ok >in.pipe || fail "mkpipe"
# Enough records that the output outgrows head's 100 bytes and any buffer.
i=0
: >big.pipe
cat in.pipe >big.pipe
while [ "$i" -lt 13 ]; do
	pdcat big.pipe big.pipe >t.pipe || fail "pdcat join"
	mv t.pipe big.pipe
	i=$((i + 1))
done
[ "$(wc -c <big.pipe)" -gt 2000000 ] || fail "big.pipe too small"

full() {	# command...
	"$@" <in.pipe >/dev/full 2>err.txt
	_rc=$?
	[ "$_rc" = 1 ] || fail "$* >/dev/full: exit $_rc: $(cat err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] ||
		fail "$* >/dev/full: not one line: $(cat err.txt)"
	grep -q 'No space left' err.txt ||
		fail "$* >/dev/full: '$(cat err.txt)' lacks the cause"
}
closed() {	# command...
	# The writer's status, with head reading only 100 bytes of it.
	_rc=$( { "$@" <big.pipe 2>err.txt; echo $? >rc.txt; } | head -c 100 |
	    wc -c)
	[ "$_rc" -eq 100 ] || fail "$* | head: got $_rc bytes"
	_st=$(cat rc.txt)
	[ "$_st" = 141 ] || [ "$_st" = 0 ] ||
		fail "$* | head -c 100: exit $_st: $(cat err.txt)"
	[ ! -s err.txt ] || fail "$* | head -c 100: not quiet: $(cat err.txt)"
}
for cmd in pdcat 'pdcat -z' pdsort 'pdswap -t swap' 'pdstat -p' \
    'pddump'; do
	# shellcheck disable=SC2086
	full $cmd
	# shellcheck disable=SC2086
	closed $cmd
done
if [ "$(id -u)" = 0 ] && command -v perf >/dev/null 2>&1 &&
    perf version >/dev/null 2>&1; then
	pdrecord -q -e cpu-clock -- true >/dev/full 2>err.txt </dev/null
	rc=$?
	[ "$rc" = 1 ] || fail "pdrecord >/dev/full: exit $rc: $(cat err.txt)"
	grep -q 'No space left' err.txt ||
		fail "pdrecord >/dev/full: $(cat err.txt)"
	{ pdrecord -q -e cpu-clock -- dd if=/dev/zero of=/dev/null \
	    bs=1 count=2000000 2>/dev/null </dev/null 2>err.txt
	  echo $? >rc.txt; } | head -c 100 >/dev/null
	st=$(cat rc.txt)
	[ "$st" = 141 ] || [ "$st" = 0 ] ||
		fail "pdrecord | head -c 100: exit $st: $(cat err.txt)"
fi
exit 0
