# A full disk that is a real file system: a 64 KiB tmpfs. Every tool that
# writes a stream or text into it stops with one line naming the cause
# and exit 1; with -o FILE (written atomically) nothing is left behind
# and a FILE that was there stays as it was.
. "$PD_TOP/tests/cli/lib.sh"
need_root
mkdir mnt
mount -t tmpfs -o size=64k tmpfs mnt 2>/dev/null || skip "cannot mount a tmpfs"
trap 'umount mnt 2>/dev/null' EXIT
mkpipe ok >ok.pipe || fail "mkpipe"
cp ok.pipe big.pipe
i=0
while [ "$i" -lt 10 ]; do		# 2^10 copies: about 500 KB
	pdcat big.pipe big.pipe >t.pipe || fail "pdcat join"
	mv t.pipe big.pipe
	i=$((i + 1))
done
[ "$(wc -c <big.pipe)" -gt 262144 ] || fail "big.pipe too small"

full() {	# what command...: stdout into the tmpfs
	_what=$1; shift
	rm -f mnt/*
	"$@" <big.pipe >mnt/out 2>err.txt
	_rc=$?
	[ "$_rc" = 1 ] || fail "$_what >tmpfs: exit $_rc: $(cat err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] ||
		fail "$_what >tmpfs: not one line: $(cat err.txt)"
	grep -q 'No space left on device' err.txt ||
		fail "$_what >tmpfs: '$(cat err.txt)' lacks the cause"
}
full pdcat pdcat
full 'pdcat -d' pdcat -d
full pdsort pdsort
full 'pdswap -t swap' pdswap -t swap
full 'pdstat -p' pdstat -p
full pddump pddump
full 'pddump --json' pddump --json

# -o FILE: an error, no temporary file left, an old FILE untouched.
for cmd in pdcat 'pdcat -z' pdsort 'pdswap -t swap'; do
	rm -f mnt/*
	printf 'old\n' >mnt/keep
	# shellcheck disable=SC2086
	$cmd -o mnt/keep big.pipe 2>err.txt
	rc=$?
	[ "$rc" = 1 ] || fail "$cmd -o: exit $rc: $(cat err.txt)"
	[ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'No space left' err.txt ||
		fail "$cmd -o: $(cat err.txt)"
	[ "$(cat mnt/keep)" = old ] || fail "$cmd -o: the old file changed"
	[ "$(ls mnt)" = keep ] || fail "$cmd -o: left $(ls mnt)"
done
exit 0
