# pddump on a small hand-made stream: the text and JSON forms (golden
# files), -t, -x, and the options' errors.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "no python3"
d=$PD_TOP/tests/cli/pddump
mkpipe pddump-basic > b.data || fail "mkpipe"

pddump b.data > out.txt || fail "pddump exit $?"
diff -u "$d/basic.txt" out.txt || fail "text form differs"
pddump < b.data > out2.txt || fail "stdin: exit $?"
cmp -s out.txt out2.txt || fail "stdin and file differ"
pddump --json b.data > out.json || fail "--json exit $?"
diff -u "$d/basic.json" out.json || fail "JSON form differs"
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    json.loads(l)' out.json || fail "not one JSON object per line"

# -t by name (any case, with or without prefix) and by number
pddump -t sample,PERF_RECORD_COMM,200 b.data > t.txt || fail "-t exit $?"
[ "$(awk '/^0x/ {print $3}' t.txt | tr '\n' ' ')" = "COMM SAMPLE 200 " ] ||
	fail "-t selected: $(awk '/^0x/ {print $3}' t.txt)"
expect_fail 2 "unknown record type: NOSUCH" pddump -t NOSUCH b.data
pddump --bogus b.data >/dev/null 2>err.txt; [ $? = 2 ] || fail "bad option: exit not 2"
grep -q "^usage: pddump" err.txt || fail "bad option: no usage line"

# -x: the record's bytes follow it
pddump -x -t FINISHED_ROUND b.data > x.txt || fail "-x exit $?"
grep -q "^    0000: 44 00 00 00 00 00 08 00 " x.txt || fail "-x: $(cat x.txt)"
pddump -x --json -t FINISHED_ROUND b.data | grep -q '"bytes":"4400000000000800"' ||
	fail "-x --json"

pddump --help | grep -q "^usage: pddump" || fail "--help"
pddump --version >/dev/null || fail "--version"

# A stream cut inside a record: everything before it, then one error line.
mkpipe pddump-truncated > t.data
pddump t.data > out.txt 2> err.txt && fail "truncated input exits 0"
[ "$(wc -l < err.txt)" = 1 ] || fail "stderr: $(cat err.txt)"
grep -q "^pddump: t.data: offset 0x184: " err.txt || fail "$(cat err.txt)"
head -n 5 "$d/basic.txt" | cmp -s - out.txt || fail "records before the fault"
exit 0
