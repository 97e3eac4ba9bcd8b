# SPDX-License-Identifier: MIT
# Joining inputs whose sample ids collide: pdcat renumbers the later
# input's ids, so every id in the output is unique and every sample still
# names an id of its own event; perf counts the sum of the inputs'
# samples, per event. Joining real recordings with different sample
# layouts: every event gets IDENTIFIER, so perf decodes them all.
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

# Real recordings whose samples are laid out differently: perf finds
# every record's event where the first attr's layout puts the id, so the
# join decodes only because pdcat gives every event IDENTIFIER.
[ "$(id -u)" = 0 ] ||
	skip "perf record needs root (the synthetic joins passed)"
command -v python3 >/dev/null 2>&1 ||
	skip "no python3 (the synthetic joins passed)"
burn='dd if=/dev/zero of=/dev/null bs=64k count=4k 2>/dev/null'
# r1, r2: one event, pipe mode (ID, no IDENTIFIER); ra: -a (IDENTIFIER,
# cpu-clock and a dummy); rf: one event, file mode (no ID in samples).
perf record -q -e cpu-clock -o - -- sh -c "$burn" > r1.data 2> rec.err &&
perf record -q -e cpu-clock -o - -- sh -c "$burn; $burn" > r2.data \
    2>> rec.err &&
perf record -q -a -o - -- sleep 0.2 > ra.data 2>> rec.err &&
perf record -q -e cpu-clock -o rf.data -- sh -c "$burn" 2>> rec.err ||
	fail "perf record: $(cat rec.err)"
# rn: rf as a stream with its ids taken away (an attr that lists none),
# as old perf wrote one event: no ID_INDEX, no EVENT_UPDATE either.
pdcat rf.data > rfp.data || fail "pdcat rf.data"
python3 - rfp.data rn.data <<'PY' || fail "stripping ids"
import struct, sys
d = open(sys.argv[1], 'rb').read()
out, o = [d[:16]], 16
while o + 8 <= len(d):
    t, m, s = struct.unpack_from('<IHH', d, o)
    r = d[o:o + s]
    if t == 64:     # HEADER_ATTR: keep the attr, drop the ids
        asz = struct.unpack_from('<I', r, 12)[0]
        r = struct.pack('<IHH', t, m, 8 + asz) + r[8:8 + asz]
    if t not in (69, 78):   # ID_INDEX, EVENT_UPDATE (names by id)
        out.append(r)
    o += s
open(sys.argv[2], 'wb').write(b''.join(out))
PY

F="-F comm,pid,tid,time,event"
# lines: perf script's sample lines on stdin, blanks squeezed, sorted.
lines() {
	perf script $F -i - 2> /dev/null | grep -v -e '^$' -e '^	' |
	    awk '{ $1 = $1; print }' | sort
}
for x in r1 r2 ra rf rn; do
	if [ $x = rf ]; then pdcat rf.data; else cat $x.data; fi > $x.s
	samples $x.s > $x.n
	[ "$(cat $x.n)" -gt 0 ] 2> /dev/null || fail "$x: no samples"
	lines < $x.s > $x.txt
	[ "$(wc -l < $x.txt)" = "$(cat $x.n)" ] ||
		fail "$x: perf script prints $(wc -l < $x.txt) of $(cat $x.n)"
done
# A single input passes through untouched.
for x in r1 ra; do
	pdcat $x.data | cmp -s - $x.data || fail "pdcat $x: not byte-identical"
done
# Without IDENTIFIER, perf cannot read such a join: the test can fail.
{ cat ra.data; tail -c +17 r1.data; } > naive.data
perf report --stats -i - < naive.data 2>&1 | grep -q "Can't parse sample" ||
	fail "perf reads the naive join: the test is blind"

for order in "r1 r2" "r1 ra" "ra r1" "ra r2 r1" "rf ra" "ra rf r2" \
    "rn ra rn" "r1 rn rf ra"; do
	files= want=0
	for x in $order; do
		files="$files $x.data"
		want=$((want + $(cat $x.n)))
	done
	# shellcheck disable=SC2086
	pdcat $files > j.data 2> err.txt || fail "pdcat $order: $(cat err.txt)"
	perf report --stats -i - < j.data > rep.txt 2>&1
	! grep -qi -e "can't parse" -e error rep.txt ||
		fail "$order: perf report: $(grep -i -e parse -e error rep.txt)"
	got=$(samples j.data)
	[ "$got" = "$want" ] || fail "$order: perf counts $got, not $want"
	for x in $order; do cat $x.txt; done | sort > want.txt
	lines < j.data | cmp -s - want.txt ||
		fail "$order: perf script does not print the inputs' samples"
	# Ids unique, and every sample's id (first: IDENTIFIER) known.
	check j.data
done
exit 0
