# SPDX-License-Identifier: MIT
# Real streams that perf 6.1's report --stats fails on: a tracepoint
# pipe stream (it does not skip the tracing data) and a -z pipe stream
# (it ignores the COMPRESSED feature). pdstat reads both, and -p passes
# them through byte for byte. Their counts are checked against perf
# report -D in perf-stats.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus

pdstat "$C/sched.pipe.data" > sched.txt 2> err.txt ||
	fail "sched.pipe.data: exit $?: $(cat err.txt)"
grep -Eq '^ *TRACING_DATA +1 ' sched.txt || fail "sched: TRACING_DATA"
grep -Eq '^sched:sched_switch +[1-9]' sched.txt || fail "sched: no samples"
grep -q 'out-of-band payload: [1-9][0-9]* bytes' sched.txt ||
	fail "sched: payload"
pdstat "$C/zstd.pipe.data" > zstd.txt 2> err.txt ||
	fail "zstd.pipe.data: exit $?: $(cat err.txt)"
grep -Eq '^ *COMPRESSED +[1-9]' zstd.txt || fail "zstd: COMPRESSED"
grep -Eq '^ *SAMPLE +[1-9]' zstd.txt || fail "zstd: samples inside"

for f in sched.pipe.data zstd.pipe.data; do
	pdstat -p < "$C/$f" > out.data 2> /dev/null || fail "$f: -p: exit $?"
	cmp -s "$C/$f" out.data || fail "$f: -p changed the stream"
done
exit 0
