# SPDX-License-Identifier: MIT
# Ctrl-C on a recording pipeline keeps every record: the terminal sends
# SIGINT to the whole process group; pdrecord stops, flushes and closes,
# and each filter after it, taking the first SIGINT as "the input is
# about to end", reads on to the end and finishes normally. A second
# SIGINT stops a filter at once (exit 130), still writing what it has.
. "$PD_TOP/tests/cli/lib.sh"

# group 'pipeline': runs it in a process group of its own, as a shell
# with job control would, with SIGINT at its default (a non-interactive
# shell starts background commands with it ignored). $pg is the group.
group() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setpgid(0, 0)
os.execvp("sh", ["sh", "-c", "trap : INT; " + sys.argv[1]])' "$1" &
	pg=$!
	groups="$groups $pg"
}
groups=
# Nothing of ours outlives the case, whatever fails.
trap 'for g in $groups; do kill -s KILL -- -"$g" 2>/dev/null; done' EXIT

# ended: waits up to 30 s for the group to end; 1 when it did not.
ended() {
	_t=0
	while kill -s 0 -- -"$pg" 2>/dev/null; do
		[ $_t -ge 150 ] && return 1
		sleep 0.2
		_t=$((_t + 1))
	done
	return 0
}

# count FILE TYPE: how many records of TYPE pdstat counts in FILE.
count() {
	pdstat "$1" | awk -v t="$2" '$1 == t { print $2; exit }'
}

# The second SIGINT on a pipe that does not end: out at once, exit 130,
# every record that came in written (sorted), and the counts printed.
mkpipe sample-full > in.data || fail mkpipe
pdsort in.data > want.data || fail "pdsort in.data"
group '(cat in.data; sleep 60) | { pdsort > out.data 2> err.txt; echo $? > rc; }'
# The signals must find pdsort running, however slowly it starts.
_t=0
until pgrep -x -g "$pg" pdsort > /dev/null; do
	[ $_t -lt 150 ] || fail "pdsort did not start"
	sleep 0.2
	_t=$((_t + 1))
done
sleep 1
pkill -INT -x -g "$pg" pdsort
sleep 0.5
pkill -INT -x -g "$pg" pdsort
start=$(date +%s)
while [ ! -s rc ] && [ $(( $(date +%s) - start )) -lt 20 ]; do sleep 0.2; done
[ -s rc ] || fail "pdsort did not stop at the second SIGINT"
kill -s TERM -- -"$pg" 2>/dev/null
[ "$(cat rc)" = 130 ] || fail "second SIGINT: exit $(cat rc), wanted 130: $(cat err.txt)"
cmp -s want.data out.data || fail "second SIGINT: the records read were not all written"

# An upstream that dies of the same Ctrl-C (an ssh: the recorder is on
# another host and gets none) cuts the stream where it is, often inside
# a record: every whole record is kept, the cut one dropped without an
# error, and the filter finishes as usual. The sleep holds the pipe open
# until the SIGINT, once cat has written all of cut.data.
head -c "$(( $(wc -c < in.data) - 5 ))" in.data > cut.data
pdswap cut.data > want.data 2> /dev/null
group '{ cat cut.data; exec sleep 60; } | pdswap > cut.out 2> cut.err; echo $? > rc4'
t=0
until pgrep -g "$pg" -x sleep > /dev/null && pgrep -g "$pg" -x pdswap > /dev/null; do
	[ $t -ge 200 ] && fail "cut: the pipeline did not start"
	sleep 0.05
	t=$((t + 1))
done
kill -s INT -- -"$pg"
ended || fail "cut: the pipeline did not end after SIGINT"
[ "$(cat rc4)" = 0 ] || fail "cut by the SIGINT upstream: exit $(cat rc4): $(cat cut.err)"
[ -s cut.err ] && fail "cut by the SIGINT upstream: $(cat cut.err)"
cmp -s want.data cut.out || fail "cut by the SIGINT upstream: the whole records were not all kept"

# A regular file: the first SIGINT stops reading; what was read is
# printed, whole records only, and the status is 130. pddump is held by
# a reader that has not started yet, so the SIGINT finds it mid-file.
need_corpus
f=big.data
pdcat "$C/sched.pipe.data" "$C/sched.pipe.data" "$C/sched.pipe.data" \
    "$C/sched.pipe.data" > "$f" || fail "pdcat"
pddump "$f" > all.txt || fail "pddump $f"
group "{ pddump $f 2> err.txt; echo \$? > rc3; } | { sleep 2; cat > part.txt; }; echo done > rc2"
sleep 1
pkill -INT -x -g "$pg" pddump
start=$(date +%s)
while [ ! -s rc2 ] && [ $(( $(date +%s) - start )) -lt 30 ]; do sleep 0.2; done
[ -s rc2 ] || fail "pddump did not stop at SIGINT on a regular file"
grep -q . err.txt && fail "pddump said: $(cat err.txt)"
[ "$(cat rc3)" = 130 ] || fail "SIGINT on a regular file: exit $(cat rc3), wanted 130"
[ "$(wc -c < part.txt)" -lt "$(wc -c < all.txt)" ] || fail "pddump read the whole file after SIGINT"
cmp part.txt all.txt > cmp.txt 2>&1
grep -q EOF cmp.txt || fail "pddump's output is not a prefix of the whole: $(cat cmp.txt)"
tail -n 1 part.txt | cmp -s - /dev/null && fail "empty output"

need_root
need_perf
# pipeline NAME 'filter': records system-wide for a moment through the
# filter, tees what pdrecord wrote to NAME.raw, sends SIGINT to the
# group and waits. The filter's status is in NAME.rc.
pipeline() {
	group "pdrecord -a -g 2> $1.rec | tee -i $1.raw | $2 2> $1.err; echo \$? > $1.rc"
	# Samples must have come through, however slowly it all starts.
	_t=0
	until [ "$(count "$1.raw" SAMPLE 2> /dev/null)" -gt 0 ] 2> /dev/null; do
		[ $_t -lt 150 ] || fail "$1: no sample came in 30 s"
		sleep 0.2
		_t=$((_t + 1))
	done
	sleep 0.5
	kill -s INT -- -"$pg"
	ended || fail "$1: the pipeline did not end after SIGINT"
	[ "$(cat "$1.rc")" = 0 ] || fail "$1: exit $(cat "$1.rc"): $(cat "$1.err")"
	n=$(count "$1.raw" SAMPLE)
	[ "${n:-0}" -gt 0 ] || fail "$1: nothing recorded: $(cat "$1.rec")"
	grep -q " $n samples" "$1.rec" || fail "$1: pdrecord said $(cat "$1.rec"), the pipe carried $n"
}

pipeline sort 'pdsort > sort.data'
[ "$(count sort.data SAMPLE)" = "$n" ] || fail "pdsort kept $(count sort.data SAMPLE) of $n samples"

pipeline cat 'pdcat -o cat.data'
ls cat.data.* 2>/dev/null && fail "pdcat left its temporary file"
cmp -s cat.raw cat.data || fail "pdcat -o: the file is not the stream"

pipeline swap 'pdswap -t swap > swap.data'
pdswap swap.data > back.data || fail "pdswap back"
[ "$(count back.data SAMPLE)" = "$n" ] || fail "pdswap kept $(count back.data SAMPLE) of $n samples"

pipeline stat 'pdstat > stat.txt'
awk '$1 == "SAMPLE" { print $2 }' stat.txt | grep -qx "$n" ||
	fail "pdstat: no summary of $n samples: $(cat stat.txt)"

pipeline dump 'pddump > dump.txt'
[ "$(grep -c 'SAMPLE' dump.txt)" -ge "$n" ] || fail "pddump printed fewer than $n samples"
exit 0
