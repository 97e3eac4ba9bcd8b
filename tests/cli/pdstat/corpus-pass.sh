# SPDX-License-Identifier: MIT
# Real streams: pdstat reads the tracepoint and -z pipe streams that
# perf 6.1's report --stats fails on, and -p passes every native pipe
# stream of the corpus through byte for byte (a bad one: the good
# records before the fault, as a prefix).
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

n=0
for f in $(find "$C" -type f ! -path '*/reference/*' | sort); do
	# Native pipe streams only: "PERFILE2" then the size 16.
	[ "$(od -An -tx1 -N16 "$f" 2>/dev/null | tr -d ' \n')" = \
	    50455246494c45321000000000000000 ] || continue
	pdstat -p < "$f" > out.data 2> err.txt
	rc=$?
	if [ "$rc" -eq 0 ]; then
		cmp -s "$f" out.data || fail "${f#"$C"/}: -p changed the stream"
	elif [ "$rc" -eq 1 ]; then
		# cmp says EOF on out.data when it is a true prefix.
		cmp "$f" out.data 2>&1 | grep -q 'EOF on out.data' ||
			fail "${f#"$C"/}: -p output is not a prefix"
	else
		fail "${f#"$C"/}: exit $rc"
	fi
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n pipe streams found"
echo "$n pipe streams passed through"
