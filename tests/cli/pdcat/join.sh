# SPDX-License-Identifier: MIT
# Joining inputs whose sample ids collide: pdcat renumbers the later
# input's ids, so every id in the output is unique and every sample still
# names an id of its own event; perf counts the sum of the inputs'
# samples, per event.
. "$PD_TOP/tests/cli/lib.sh"
need_perf

# ids FILE: walks a little-endian pipe stream (without out-of-band
# payloads) and prints "attr N ID" for every id of the N-th HEADER_ATTR
# and "sample N ID" for every SAMPLE, N being the attr its id belongs to
# (0 when no attr has it). The id's place comes from the first attr's
# sample_type, as perf finds it.
ids() {
	od -An -v -tu1 "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function u(o, w,   v, k) {
		v = 0
		for (k = w - 1; k >= 0; k--)
			v = v * 256 + b[o + k]
		return v
	}
	function bit(v, k) { return int(v / 2 ^ k) % 2 }
	END {
		o = 16
		while (o + 8 <= n) {
			t = u(o, 4); s = u(o + 6, 2)
			if (s < 8) { print "bad record at " o; exit 1 }
			if (t == 64) {
				na++
				asz = u(o + 12, 4)
				if (na == 1) {
					st = u(o + 32, 8)
					pos = bit(st, 16) ? 0 : bit(st, 0) + \
					    bit(st, 1) + bit(st, 2) + bit(st, 3)
				}
				for (k = o + 8 + asz; k + 8 <= o + s; k += 8) {
					owner[u(k, 8)] = na
					print "attr " na " " u(k, 8)
				}
			} else if (t == 9) {
				id = u(o + 8 + 8 * pos, 8)
				print "sample " (id in owner ? owner[id] : 0) \
				    " " id
			}
			o += s
		}
	}'
}

# check OUT N...: OUT's attr ids are unique, every sample's id is known,
# and attr k has N_k samples.
check() {
	_out=$1
	shift
	ids "$_out" > ids.txt || fail "walking $_out: $(tail -n 1 ids.txt)"
	_dups=$(awk '$1 == "attr" { print $3 }' ids.txt | sort | uniq -d)
	[ -z "$_dups" ] || fail "$_out: ids used twice: $_dups"
	! grep -q '^sample 0 ' ids.txt ||
		fail "$_out: samples with unknown ids"
	_k=1
	for _want; do
		_got=$(grep -c "^sample $_k " ids.txt)
		[ "$_got" = "$_want" ] ||
			fail "$_out: attr $_k has $_got samples, wanted $_want"
		_k=$((_k + 1))
	done
}

# samples OUT: perf's total SAMPLE count for a stream on stdin.
samples() {
	perf report --stats -i - < "$1" 2>/dev/null |
	    awk '/SAMPLE events:/ { print $3; exit }'
}

# The same synthetic stream twice: the second copy's ids 11 and 12 are
# renumbered.
mkpipe ok > a.data
check a.data 3
pdcat a.data a.data > j.data || fail "pdcat a a"
check j.data 3 3
[ "$(samples j.data)" = 6 ] || fail "perf counts $(samples j.data), not 6"
perf script -i - < j.data > j.txt 2>/dev/null
[ "$(wc -l < j.txt)" = 6 ] || fail "perf script: $(wc -l < j.txt) lines"
# Without renumbering the copies would share their ids.
{ cat a.data; tail -c +17 a.data; } > naive.data
ids naive.data | awk '$1 == "attr" { print $3 }' | sort | uniq -d |
    grep -q . || fail "the naive join has no shared ids: the test is blind"
# Three copies, through stdin for one of them.
pdcat a.data - a.data < a.data > j3.data || fail "pdcat a - a"
check j3.data 3 3 3

# Real captures, when the corpus is there: a pipe file twice (two events
# each, the second a dummy), and the file-mode capture after it.
if [ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ]; then
	p=$PD_CORPUS/callchain.pipe.data f=$PD_CORPUS/callchain.file.data
	np=$(perf report --stats -i "$p" 2>/dev/null |
	    awk '/SAMPLE events:/ { print $3; exit }')
	nf=$(perf report --stats -i "$f" 2>/dev/null |
	    awk '/SAMPLE events:/ { print $3; exit }')
	[ -n "$np" ] && [ -n "$nf" ] || fail "perf cannot count the corpus"
	pdcat "$p" "$p" > jp.data || fail "pdcat p p"
	check jp.data "$np" 0 "$np" 0
	[ "$(samples jp.data)" = $((2 * np)) ] ||
		fail "perf counts $(samples jp.data), not $((2 * np))"
	pdcat "$p" "$f" "$p" > jpf.data || fail "pdcat p f p"
	[ "$(samples jpf.data)" = $((2 * np + nf)) ] ||
		fail "perf counts $(samples jpf.data), not $((2 * np + nf))"
	# Symbols and comms are left out: perf resolves them from its
	# machine state, which the other copies' maps and comms change (the
	# copies share pids and times).
	F="-F tid,cpu,time,event,period"
	perf script $F -i - < jpf.data > jpf.txt 2>/dev/null
	perf script $F -i "$p" > p.txt 2>/dev/null
	{ cat p.txt; perf script $F -i "$f" 2>/dev/null; cat p.txt; } |
	    grep -v -e '^$' -e '^	' | awk '{ $1 = $1; print }' |
	    sort > want.txt
	# (For an event that comes after the first ATTRs of a pipe, perf
	# prints the callchain whatever -F says, and pads comm differently:
	# compare sample lines only, blanks squeezed.)
	grep -v -e '^$' -e '^	' jpf.txt | awk '{ $1 = $1; print }' |
	    sort | cmp -s - want.txt ||
		fail "perf script on the join is not the inputs' lines"
fi
exit 0
