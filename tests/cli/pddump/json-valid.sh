# The JSON of pddump and pdstat is JSON whatever the stream holds (issue
# 18, finding 12): EVENT_UPDATE scales of NaN and infinities come out as
# strings, an EVENT_DESC walk that stops inside an event still closes
# it, and strings with bytes that are not UTF-8 (a hostname, a comm, a
# file name) are escaped while well-formed UTF-8 stays as it is.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "no python3"
mkpipe json-hostile > j.data || fail "mkpipe"
check() {
	python3 -c '
import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    json.loads(l)
' "$1" || fail "$1 is not JSON lines: $(head -c 600 "$1")"
}
timeout 5 pddump --json j.data > d.json || fail "pddump --json"
check d.json
grep -q '"update_type":1,"id":11,"scale":"nan"}' d.json || fail "nan: $(grep scale d.json)"
grep -q '"scale":"inf"}' d.json && grep -q '"scale":"-inf"}' d.json ||
	fail "inf: $(grep scale d.json)"
grep -q '"events":\[{}\],"error":"malformed feature body"}' d.json ||
	fail "event_desc: $(grep event_desc d.json)"
grep -q '"hostname":"h\\u00ff\\"' d.json || fail "hostname: $(grep hostname d.json)"
# Text keeps what it printed.
timeout 5 pddump j.data > d.txt || fail "pddump"
grep -q ' scale=nan$' d.txt && grep -q ' scale=-inf$' d.txt || fail "text scale"
for args in "" "--top 3" "--top 3 --by dso"; do
	timeout 5 pdstat --json $args j.data > s.json 2>/dev/null ||
		fail "pdstat --json $args"
	python3 -m json.tool s.json > /dev/null ||
		fail "pdstat --json $args is not JSON: $(cat s.json)"
	python3 - s.json <<'PY' || fail "pdstat --json $args: strings"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["header"]["hostname"] == "h\u00ff\"\u00e9", d["header"]
assert d["top_comms"][0]["comm"] == "c\u00ff\"\u00e9", d["top_comms"]
for t in d.get("top", []):
    for r in t["rows"]:
        assert r["dso"] == "/nonexistent/m\u00ff\"\u00e9", r
PY
done
