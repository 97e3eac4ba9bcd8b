# SPDX-License-Identifier: MIT
# Issue 18, finding 3: the stream names the files the symbolizer opens.
# A FIFO must not block, devices and /proc files are not read, a file
# that is not ELF is left after its magic, one over the size cap is not
# read; /tmp/perf-PID.map is read only when it is a regular file owned
# by us or root. Each gives [unknown], one note, exit 0, at once.
. "$PD_TOP/tests/cli/lib.sh"

# sym NOTE PATH: pddump -s names PATH's sample [unknown], says NOTE once.
sym() {
	_note=$1 _path=$2
	mkpipe sym-file "$_path" > s.pd || fail "mkpipe sym-file $_path"
	timeout 10 pddump -s s.pd > s.txt 2> s.err
	_rc=$?
	[ "$_rc" = 0 ] || fail "$_path: exit $_rc: $(cat s.err)"
	grep -qF "sym: [unknown] ($_path)" s.txt || fail "$_path: $(grep sym: s.txt)"
	[ "$(grep -cF "$_path: $_note; its symbols are not shown" s.err)" = 1 ] ||
		fail "$_path: note: $(cat s.err)"
	timeout 10 pdstat --top 3 s.pd > /dev/null 2>&1 ||
		fail "$_path: pdstat --top: exit $?"
}

mkfifo fifo || skip "no mkfifo"
sym "not a regular file" "$(pwd)/fifo"
sym "not a regular file" /dev/full
sym "not a regular file" /dev/urandom
[ -r /proc/self/mem ] && sym "not a regular file" /proc/self/mem
sym "not a regular file" /proc/self/environ
echo "root:x:0:0::/root:/bin/sh" > notelf
sym "not an ELF file" "$(pwd)/notelf"
if truncate -s 2G sparse 2>/dev/null; then
	sym "larger than 1 GiB" "$(pwd)/sparse"
	rm -f sparse
fi
sym "not a regular file" "$(pwd)"

# A JIT's map file: this host, a pid nobody uses.
pid=$((4000000 + $$ % 100000))
map=/tmp/perf-$pid.map
[ -e "$map" ] && skip "$map exists"
trap 'rm -f "$map"' EXIT
mkpipe sym-perfmap $pid > j.pd || fail "mkpipe sym-perfmap"
jit() {	# NOTE|-: the note, or - for the name
	timeout 10 pddump -s j.pd > j.txt 2> j.err
	_rc=$?
	[ "$_rc" = 0 ] || fail "$map ($1): exit $_rc: $(cat j.err)"
	if [ "$1" = - ]; then
		grep -qF "sym: jitfn+0x0 ($map)" j.txt || fail "$map: $(grep sym: j.txt)"
	else
		grep -qF "sym: [unknown] ($map)" j.txt || fail "$map: $(grep sym: j.txt)"
		[ "$(grep -cF "$map: $1" j.err)" = 1 ] || fail "$map: note: $(cat j.err)"
	fi
}
printf '7f0000001000 100 jitfn\n' > "$map"
jit -
rm -f "$map"
mkfifo "$map"
jit "not a regular file"
rm -f "$map"
ln -s /dev/zero "$map"
jit "a symbolic link"
rm -f "$map"
printf '7f0000001000 100 jitfn\n' > jit.map
ln -s "$(pwd)/jit.map" "$map"
jit "a symbolic link"
rm -f "$map"
printf '7f0000001000 100 jitfn\n' > "$map"
if [ "$(id -u)" = 0 ] && chown 65534 "$map" 2>/dev/null; then
	jit "not owned by the current user or root"
fi
exit 0
