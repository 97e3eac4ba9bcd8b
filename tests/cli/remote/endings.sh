# SPDX-License-Identifier: MIT
# How a remote recording ends, through a real sshd (sshd.inc):
# - the local ssh killed (a dropped connection, or a plain kill): the
#   remote pdrecord and its command end, busy (-a) or idle;
# - Ctrl-C, SIGINT to the local pipeline's process group as a terminal
#   sends it: the ssh dies of it, pdswap reads on to the end and keeps
#   every record that arrived; nothing is left running remotely.
# The remote command is a copy of sleep under a path of this case's
# own, so that pgrep finds only this case's remote processes. Waits are
# polls with generous bounds; the time the remote side took to end is
# printed, not judged (a loaded machine may be slow).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/remote/sshd.inc"
need_perf
start_sshd
mark=$here/remote-sleep
cp "$(command -v sleep)" "$mark" || fail "cannot copy sleep"

# group 'pipeline': in a process group of its own with SIGINT at its
# default, as a shell with job control runs it (harden/ctrl-c.sh).
group() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setpgid(0, 0)
os.execvp("sh", ["sh", "-c", "trap : INT; " + sys.argv[1]])' "$1" &
	pg=$!
	groups="$groups $pg"
}
groups=
trap 'for g in $groups; do kill -s KILL -- -"$g" 2>/dev/null; done; stop_sshd' EXIT

# started FILE: waits until the remote command runs (pdrecord has its
# events open then) and FILE has 64 KiB of stream.
started() {
	_t=0
	until pgrep -f -- "^$mark" > /dev/null &&
	    [ "$(wc -c < "$1" 2>/dev/null || echo 0)" -ge 65536 ]; do
		[ $_t -ge 400 ] && fail "$1: the remote recording did not start: $(cat "$1.err" 2>/dev/null)"
		sleep 0.05
		_t=$((_t + 1))
	done
}

# ended: waits up to 30 s for the group to end; 1 when it did not.
ended() {
	_t=0
	while kill -s 0 -- -"$pg" 2>/dev/null; do
		[ $_t -ge 600 ] && return 1
		sleep 0.05
		_t=$((_t + 1))
	done
}

# The local ssh killed, with and without a word to the other side, while
# the remote pdrecord is busy (-a, cpu-clock samples every CPU even when
# idle) and while it is idle (only the sleeping command). The stream up
# to there is whole records.
for how in KILL:-a TERM:; do
	sig=${how%%:*} opt=${how#*:}
	f=kill-$sig.data
	group "$ssh $ssh_host $PD_BIN/pdrecord -e cpu-clock $opt -- $mark 60 < /dev/null 2> $f.err > $f; echo \$? > $f.rc"
	if [ -n "$opt" ]; then
		started "$f"
	else
		_t=0
		until pgrep -f -- "^$mark" > /dev/null; do
			[ $_t -ge 400 ] && fail "$f: the remote command did not start: $(cat "$f.err")"
			sleep 0.05
			_t=$((_t + 1))
		done
	fi
	remote_left "$mark"
	[ "$(wc -l < left.txt)" = 2 ] || fail "$f: not one pdrecord and one command: $(cat left.txt)"
	pkill -"$sig" -f -- "^ssh .*$mark" || fail "$f: no local ssh to kill"
	remote_gone "$mark" || fail "SIG$sig to ssh ${opt:-idle}: still running: $(cat left.txt)"
	echo "SIG$sig to the local ssh ${opt:-(idle)}: the remote pdrecord and command ended in ${gone_ms} ms"
	ended || fail "$f: the local side did not end"
	pdstat "$f" > /dev/null 2> stat.err || [ ! -s "$f" ] ||
		grep -q 'runs past the end of input\|at the end of input' stat.err ||
		fail "$f: $(cat stat.err)"
done

# Ctrl-C: every record that arrived is kept, byte for byte (pdswap from
# this machine's order to this machine's order changes nothing), and the
# output parses to its end.
group "$ssh $ssh_host $PD_BIN/pdrecord -a -g -e cpu-clock -- $mark 60 < /dev/null 2> c.err | tee -i c.raw | pdswap > c.data 2> c.swap; echo \$? > c.rc"
started c.raw
kill -s INT -- -"$pg"
ended || fail "Ctrl-C: the pipeline did not end"
remote_gone "$mark" || fail "Ctrl-C: still running remotely: $(cat left.txt)"
echo "Ctrl-C: the remote pdrecord and command ended in ${gone_ms} ms"
[ "$(cat c.rc)" = 0 ] || fail "Ctrl-C: pdswap exit $(cat c.rc): $(cat c.swap)"
[ -s c.swap ] && fail "Ctrl-C: pdswap said: $(cat c.swap)"
n=$(pdstat c.data 2> stat.err | awk '$1 == "SAMPLE" { print $2; exit }')
[ -s stat.err ] && fail "Ctrl-C: pdstat: $(cat stat.err)"
[ "${n:-0}" -gt 0 ] || fail "Ctrl-C: no samples kept"
pddump c.data > dump.txt 2> dump.err || fail "Ctrl-C: pddump: $(cat dump.err)"
[ -s dump.err ] && fail "Ctrl-C: pddump: $(cat dump.err)"
[ "$(awk '$3 == "SAMPLE"' dump.txt | wc -l)" = "$n" ] ||
	fail "Ctrl-C: pddump and pdstat disagree on $n samples"
# What arrived, in whole records, is what was kept.
pdswap c.raw > want.data 2> want.err
cmp -s want.data c.data || fail "Ctrl-C: the records that arrived were not all kept"
echo "Ctrl-C: $n samples kept, $(wc -c < c.data) of $(wc -c < c.raw) bytes that arrived"
exit 0
