# Cpu maps that cost a few bytes and, decoded naively, print without end
# (issue 18, finding 2): a RANGE ending at 0xffff, in a CPU_MAP and in an
# EVENT_UPDATE, wrapped a u16 counter; a MASK whose long_size is 0xffff
# shifted by 64 and spelled out 2^19 bits per word. Each decode is
# bounded by what its record holds; a bad long_size is an error.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe cpumap-hostile > le.data || fail "mkpipe"
mkpipe cpumap-hostile-be > be.data || fail "mkpipe -be"
timeout 5 pddump le.data > out.txt 2>err.txt || fail "pddump: exit $?: $(cat err.txt)"
[ "$(wc -c < out.txt)" -lt 8192 ] || fail "pddump printed $(wc -c < out.txt) bytes"
grep -q ' CPU_MAP map_type=2 any_cpu=0 start_cpu=0 end_cpu=65535$' out.txt ||
	fail "range CPU_MAP: $(grep CPU_MAP out.txt | head -1)"
grep -q ' EVENT_UPDATE update_type=3 id=11 map_type=2 any_cpu=1 start_cpu=0 end_cpu=65535$' out.txt ||
	fail "range EVENT_UPDATE: $(grep EVENT_UPDATE out.txt | head -1)"
[ "$(grep -c 'map_type=1 error="cpu mask long_size is neither 4 nor 8"' out.txt)" = 2 ] ||
	fail "bad long_size: $(grep map_type=1 out.txt | cut -c1-200)"
grep -q ' FINISHED_ROUND' out.txt || fail "records after the maps lost"
timeout 5 pddump --json le.data > out.json || fail "pddump --json"
[ "$(wc -c < out.json)" -lt 8192 ] || fail "--json printed $(wc -c < out.json) bytes"
if command -v python3 >/dev/null; then
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    json.loads(l)
' out.json || fail "--json output is not JSON"
fi
# A foreign stream: the swap stops at the bad mask, after the good records.
off=$(mkpipe -o cpumap-hostile-be) || fail "mkpipe -o"
timeout 5 pddump be.data > be.txt 2>err.txt
[ $? = 1 ] || fail "pddump of the big-endian stream: exit not 1"
[ "$(wc -l < err.txt)" = 1 ] && grep -q "offset $off: CPU_MAP: cpu mask long_size is neither 4 nor 8" err.txt ||
	fail "big-endian error: $(cat err.txt)"
grep -q 'EVENT_UPDATE update_type=3 id=11 map_type=2 any_cpu=1 start_cpu=0 end_cpu=65535$' be.txt ||
	fail "big-endian range: $(cut -c1-200 be.txt)"
