# Tracepoint RAW fields and the tracing blob change byte order with the
# records: pddump decodes the same fields from a stream and from its
# big-endian copy, the blob's endian flag says the stream's order, and
# the s390x sched stream decodes to the values its host's perf printed.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v python3 > /dev/null || skip "no python3"
B=$C/bigendian

# endian flag of the tracing blob in a stream: 0 little, 1 big
flag() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"\x17\x08Dtracing")
if i < 0:
	sys.exit("no tracing data")
j = d.index(b"\0", i + 10)
print(d[j + 1])' "$1"
}

f=$C/sched.pipe.data
[ -f "$f" ] || fail "no sched.pipe.data"
pddump "$f" | grep ' raw: ' > le.txt || fail "pddump $f"
[ -s le.txt ] || fail "$f: no decoded tracepoint fields"
grep -q 'prev_comm=.* prev_pid=' le.txt || fail "$f: no sched_switch fields"
pdswap -t big < "$f" > big.data 2>err.txt || fail "pdswap: $(cat err.txt)"
[ -s err.txt ] && fail "pdswap -t big: stderr: $(cat err.txt)"
[ "$(flag big.data)" = 1 ] || fail "-t big: blob flag is not big-endian"
pddump big.data | grep ' raw: ' > be.txt || fail "pddump big.data"
diff le.txt be.txt > diff.txt || fail "fields differ: $(head -4 diff.txt)"
# the RAW bytes themselves turned: common_type (u16 at RAW offset 0)
# then common_flags, as the first sample has them, are big-endian now
id=$(sed -n '1s/.* raw: common_type=\([0-9]*\) common_flags=\([0-9]*\) .*/\1 \2/p' le.txt)
[ -n "$id" ] || fail "no common_type"
python3 -c '
import sys
t, fl = int(sys.argv[3]), int(sys.argv[4])
le = open(sys.argv[1], "rb").read()
be = open(sys.argv[2], "rb").read()
l = t.to_bytes(2, "little") + bytes([fl])
b = t.to_bytes(2, "big") + bytes([fl])
if not be.count(b) >= le.count(l) > be.count(l):
	sys.exit("RAW common_type not big-endian: %d %d %d" %
	    (le.count(l), be.count(b), be.count(l)))' "$f" big.data $id ||
	fail "-t big left RAW data little-endian"
# and back to little: the blob says so again
pdswap -t little < big.data > le.data || fail "pdswap -t little"
[ "$(flag le.data)" = 0 ] || fail "-t little: blob flag is not little"
cmp -s le.data "$f" || fail "-t little of -t big differs from the input"

s=$B/s390x-sched.pipe.data
ref=$B/reference/s390x-sched.pipe.data.script.txt
[ -f "$s" ] && [ -f "$ref" ] || fail "no $s or its reference"
[ "$(flag "$s")" = 1 ] || fail "$s: blob flag is not big-endian"
pdswap < "$s" > n.data 2>err.txt || fail "pdswap $s: $(cat err.txt)"
[ -s err.txt ] && fail "pdswap $s: stderr: $(cat err.txt)"
[ "$(flag n.data)" = 0 ] || fail "$s: native blob flag is not little"
# pddump reads the foreign stream directly and its native copy alike
pddump "$s" | grep ' raw: ' > s1.txt || fail "pddump $s"
pddump n.data | grep ' raw: ' > s2.txt || fail "pddump n.data"
diff s1.txt s2.txt > diff.txt || fail "s390x: $(head -4 diff.txt)"
# and the values are what the s390x perf printed (perf script sorts by
# time, pddump keeps stream order: compare them sorted)
for k in prev_pid prev_prio next_pid next_prio; do
	grep -o " $k=[0-9-]*" s1.txt | sort > a.txt
	grep -o " $k=[0-9-]*" "$ref" | sort > b.txt
	[ -s a.txt ] || fail "s390x: no $k"
	cmp -s a.txt b.txt || fail "s390x: $k differs from the reference"
done
