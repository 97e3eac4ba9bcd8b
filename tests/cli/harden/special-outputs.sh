# SPDX-License-Identifier: MIT
# -o FILE and --flamegraph FILE write a device, a FIFO or a symlink in
# place and never replace it; only a regular file (or none) is written
# beside and renamed over. /dev/null is checked too, as the user's
# machine has it: a tool that renamed over it would break the machine.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe ok > in.data || fail mkpipe

# kind PATH: what is at PATH, without following a link.
kind() { stat -c %F "$1" 2>/dev/null; }

# check 'command with @ for the output'
check() {
	_cmd=$1
	# A FIFO: written in place, read from the other end.
	rm -f fifo; mkfifo fifo || fail mkfifo
	timeout 20 cat fifo > fifo.out & _cat=$!
	eval "$(echo "$_cmd" | sed 's|@|fifo|')" 2> err.txt ||
		fail "$_cmd > FIFO: $(cat err.txt)"
	wait $_cat
	[ "$(kind fifo)" = fifo ] || fail "$_cmd: FIFO became $(kind fifo)"
	[ -s fifo.out ] || fail "$_cmd: nothing came through the FIFO"
	# A symlink to a regular file: the link stays, the file changes.
	rm -f target link; echo old > target; ln -s target link
	eval "$(echo "$_cmd" | sed 's|@|link|')" 2> err.txt ||
		fail "$_cmd > symlink: $(cat err.txt)"
	[ "$(kind link)" = "symbolic link" ] || fail "$_cmd: link became $(kind link)"
	cmp -s fifo.out target || fail "$_cmd: the link's target is not the output"
	# A regular file: replaced whole, and no temporary file is left.
	echo old > reg
	eval "$(echo "$_cmd" | sed 's|@|reg|')" 2> err.txt ||
		fail "$_cmd > file: $(cat err.txt)"
	cmp -s fifo.out reg || fail "$_cmd: the regular file differs"
	ls reg.* 2>/dev/null && fail "$_cmd: temporary file left"
	# A character device: (as root) a node of our own first, so that a
	# tool that renames over devices fails here, before /dev/null.
	if [ "$(id -u)" = 0 ]; then
		rm -f null; mknod -m 666 null c 1 3 || fail mknod
		eval "$(echo "$_cmd" | sed 's|@|null|')" 2> err.txt ||
			fail "$_cmd > device: $(cat err.txt)"
		[ "$(kind null)" = "character special file" ] ||
			fail "$_cmd replaced a device with a $(kind null)"
	fi
	eval "$(echo "$_cmd" | sed 's|@|/dev/null|')" 2> err.txt ||
		fail "$_cmd > /dev/null: $(cat err.txt)"
	[ "$(kind /dev/null)" = "character special file" ] ||
		fail "$_cmd replaced /dev/null with a $(kind /dev/null)"
	rm -f fifo fifo.out link target reg null
}

check 'pdcat -o @ in.data'
check 'pdsort -o @ in.data'
check 'pdswap -t swap -o @ in.data'
check 'pdstat --flamegraph @ in.data > /dev/null'
if [ "$(id -u)" = 0 ] && command -v perf >/dev/null 2>&1; then
	# pdrecord's -o: the stream differs run to run, so only the kinds
	# are checked (check's cmp would fail); a short real recording.
	for t in fifo link null; do
		rm -f fifo link target null
		case $t in
		fifo) mkfifo fifo; timeout 20 cat fifo > fifo.out & c=$!;;
		link) echo old > target; ln -s target link;;
		null) mknod -m 666 null c 1 3;;
		esac
		pdrecord -q -e cpu-clock -o $t -- true 2> err.txt ||
			fail "pdrecord -o $t: $(cat err.txt)"
		case $t in
		fifo) wait $c; [ "$(kind fifo)" = fifo ] && [ -s fifo.out ] ||
			fail "pdrecord -o FIFO";;
		link) [ "$(kind link)" = "symbolic link" ] && [ -s target ] &&
			[ "$(cat target)" != old ] || fail "pdrecord -o symlink";;
		null) [ "$(kind null)" = "character special file" ] ||
			fail "pdrecord -o device";;
		esac
	done
fi
[ "$(kind /dev/null)" = "character special file" ] || fail "/dev/null replaced"
exit 0
