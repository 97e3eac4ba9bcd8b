# SPDX-License-Identifier: MIT
# Differential test: pdstat's record counts equal `perf report --stats`
# on every corpus stream perf reads (the per-type lines and TOTAL, and
# the samples of each event). Where `--stats` fails on a pipe stream
# (tracepoint and -z pipes in perf 6.1), `perf report -D` is the oracle:
# it ends with the same tables. For the big-endian captures the s390x
# host's own `perf report --stats` (or -D) output in bigendian/reference
# is the oracle.
#
# The mapping, found by running perf 6.1 over the corpus:
# - perf counts every record it processes, FINISHED_ROUND, FEATURE,
#   ATTR and the end-of-features marker included; a COMPRESSED record
#   counts once, and each record it holds counts again: pdstat's table
#   does the same.
# - In file mode the attrs, features, tracing data and build ids live
#   in the header, which perf does not count: pdstat lists the records
#   it made from them apart ("from the file header"), not in the table.
# - Samples of a leader-sampled group (:S, PERF_SAMPLE_READ) are
#   credited by perf to every member; pdstat credits the record to the
#   event whose id it carries. Per-event counts are compared only where
#   perf's per-event counts add up to its SAMPLE line.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
not_sanitized

# perf's tables (from `perf report --stats` or -D output on stdin):
# "type NAME N" per type line, "event I N" for the I-th event with
# samples. Events are matched by position (both list them in attr
# order), not by name: perf adds modifiers (":u", ":HG") to the names
# it makes up from an attr, pdstat does not.
perf_tables() {
	awk '/^Aggregated stats:/ { a = 1; e = 0; delete seen; n = 0; next }
	/ stats:$/ { a = 0; e = 1; next }
	a && / events:/ { t[$1] = $3; next }
	e && $1 == "SAMPLE" && $2 == "events:" { ev[++n] = $3 }
	END { for (k in t) print "type", k, t[k];
		for (i = 1; i <= n; i++) print "event", i, ev[i] }'
}

# The same from pdstat's table.
pdstat_tables() {
	awk '$1 == "record" && $2 == "count" { a = 1; next }
	a && $1 == "TOTAL" { print "type TOTAL", $2; a = 0; next }
	a { print "type", $1, $2; next }
	$1 == "event" && $2 == "samples" { e = 1; next }
	e && NF == 0 { e = 0 }
	e && NF >= 4 && $(NF - 2) > 0 { print "event", ++n, $(NF - 2) }'
}

perf_failed() {	# stderr file, exit status
	[ "$2" -ne 0 ] && return 0
	grep -qE 'failed to process|unexpected end of event stream|bad event header|incompatible file format|^Error' "$1"
}

is_pipe() {	# the header's size field is 16, in either byte order
	s=$(od -An -tx1 -j8 -N8 "$1" 2>/dev/null | tr -d ' \n')
	[ "$s" = 1000000000000000 ] || [ "$s" = 0000000000000010 ]
}

compared=0 noref=0 noswap=0 bad=0
for f in $(find "$C" -type f ! -name '*.md' ! -name '*.sources' \
    ! -name '*.sh' ! -path '*/reference/*' | sort); do
	name=${f#"$C"/}
	ref=$C/bigendian/reference/${f##*/}
	if [ -f "$ref.report-stats.txt" ]; then
		# The s390x perf 6.1 has the same --stats bugs; its -D output
		# (kept uncompressed only where small) is the fallback.
		cp "$ref.report-stats.txt" p.txt
		if grep -qE 'failed to process|unexpected end of event stream' \
		    p.txt; then
			if [ -f "$ref.report-D.txt" ]; then
				cp "$ref.report-D.txt" p.txt
			elif [ -f "$ref.report-D.txt.xz" ] &&
			    command -v xz >/dev/null 2>&1; then
				xz -dc "$ref.report-D.txt.xz" > p.txt
			else
				noref=$((noref + 1))
				continue
			fi
		fi
		perf_tables < p.txt | sort > want
	else
		perf report --stats -i "$f" > p.txt 2> p.err
		rc=$?
		if perf_failed p.err "$rc"; then
			rc=1
			if is_pipe "$f"; then
				perf report -D -i - < "$f" > p.txt 2> p.err
				rc=$?
				perf_failed p.err "$rc" && rc=1
			fi
		fi
		if [ "$rc" -ne 0 ]; then
			noref=$((noref + 1))
			continue
		fi
		perf_tables < p.txt | sort > want
	fi
	pdstat "$f" > s.txt 2> s.err
	if grep -q 'this build cannot convert' s.err; then
		noswap=$((noswap + 1))
		continue
	fi
	pdstat_tables < s.txt | sort > got
	# Compare events only where perf credits each sample once.
	if [ "$(awk '$1 == "event" { s += $NF } END { print s + 0 }' want)" != \
	    "$(awk '$1 == "type" && $2 == "SAMPLE" { print $3 }' want)" ]; then
		grep -v '^event' want > w2; mv w2 want
		grep -v '^event' got > g2; mv g2 got
	fi
	compared=$((compared + 1))
	if ! cmp -s want got; then
		echo "MISMATCH $name (< perf, > pdstat):"
		diff want got | head -10
		bad=$((bad + 1))
	fi
done
echo "compared $compared, no perf oracle $noref, other byte order" \
    "not convertible in this build $noswap, mismatches $bad"
[ "$compared" -ge "$(corpus_min 100 14)" ] || fail "only $compared files compared"
[ "$bad" -eq 0 ] || fail "$bad files differ from perf"
