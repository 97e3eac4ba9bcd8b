# SPDX-License-Identifier: MIT
# How pdrecord ends: with the command (whose exit status it returns, and
# whose standard output goes to stderr when the stream is on stdout),
# on SIGINT and SIGTERM (with the summary line), and quietly when the
# reader goes away.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
command -v bash >/dev/null 2>&1 || skip "no bash (for PIPESTATUS)"

# The command's status, and its stdout kept out of the stream.
# (The output is not in the command line, which the stream carries.)
pdrecord -e cpu-clock -- sh -c 'echo hel""lo; exit 3' > s.data 2> err.txt
rc=$?
[ "$rc" = 3 ] || fail "exit $rc, wanted the command's 3: $(cat err.txt)"
grep -q '^hello$' err.txt || fail "command output not on stderr: $(cat err.txt)"
grep -q 'hello' s.data && fail "command output in the stream"
grep -Eq '^pdrecord: [0-9]+ bytes, [0-9]+ samples, 0 lost$' err.txt ||
	fail "no summary: $(cat err.txt)"
perf script -i - < s.data > /dev/null 2> perr.txt || fail "perf script: $(cat perr.txt)"
[ -s perr.txt ] && fail "perf script: $(cat perr.txt)"

# A command killed by a signal: 128 + the signal, as the shell says it.
pdrecord -q -- sh -c 'kill -TERM $$' > k.data 2> err.txt
rc=$?
[ "$rc" = 143 ] || fail "killed command: exit $rc, wanted 143: $(cat err.txt)"

# -o FILE; -q prints nothing.
pdrecord -q -o out.data -- true 2> err.txt || fail "-o: $(cat err.txt)"
[ -s err.txt ] && fail "-q printed: $(cat err.txt)"
perf script -i - < out.data > /dev/null 2> perr.txt || fail "perf script -o: $(cat perr.txt)"

# SIGINT and SIGTERM end a system-wide recording cleanly.
for sig in INT TERM; do
	pdrecord -a > a.data 2> err.txt & p=$!
	sleep 3		# setting up takes a while on a loaded machine
	kill -$sig $p
	wait $p || fail "SIG$sig: exit $?: $(cat err.txt)"
	grep -Eq '^pdrecord: [0-9]+ bytes, [0-9]+ samples, [0-9]+ lost$' err.txt ||
		fail "SIG$sig: no summary: $(cat err.txt)"
	[ "$(wc -l < err.txt)" = 1 ] || fail "SIG$sig: $(cat err.txt)"
	n=$(perf report --stats -i - < a.data 2>/dev/null |
	    awk '/^ *SAMPLE events:/ { print $3; exit }')
	[ "${n:-0}" -gt 0 ] || fail "SIG$sig: no samples"
done

# The reader goes away: no words, and soon.
start=$(date +%s)
bash -c 'timeout 60 pdrecord -a | head -c 1000 > head.out; echo "${PIPESTATUS[0]}" > st' 2> err.txt
[ -s err.txt ] && fail "reader gone: pdrecord said: $(cat err.txt)"
[ "$(wc -c < head.out)" = 1000 ] || fail "head got $(wc -c < head.out) bytes"
st=$(cat st)
[ "$st" = 141 ] || fail "reader gone: exit $st, wanted 141 (SIGPIPE)"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "reader gone: did not end soon"

# The reader goes away while a command runs: pdrecord ends the command
# (SIGTERM, as perf record does) and itself at once, idle or busy, and
# through -z too; not when the command would have ended (23 s). The
# sleep's argument is this run's own, for pgrep.
secs=23.$$
for opts in '-a' '-z -a' '-a -g -F 20000'; do
	start=$(date +%s)
	bash -c "pdrecord $opts -- sleep $secs | head -c 1000 > /dev/null; echo \"\${PIPESTATUS[0]}\" > st" 2> err.txt
	took=$(( $(date +%s) - start ))
	[ "$took" -lt 10 ] || fail "pdrecord $opts -- sleep $secs | head: ran ${took}s"
	[ "$(cat st)" = 141 ] || fail "pdrecord $opts -- sleep $secs | head: exit $(cat st)"
	pgrep -x -f "sleep $secs" >/dev/null && fail "pdrecord $opts: the command still runs"
done

# A command that cannot start leaves no output behind.
rm -f gone.data
pdrecord -o gone.data -- ./does-not-exist 2> err.txt
rc=$?
[ "$rc" = 127 ] || fail "command not found: exit $rc, wanted 127"
grep -q 'does-not-exist' err.txt || fail "command not found: $(cat err.txt)"
ls gone.data* 2>/dev/null && fail "command not found: output file left behind"
exit 0
