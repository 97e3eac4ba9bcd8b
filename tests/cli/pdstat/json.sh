# SPDX-License-Identifier: MIT
# --json: the documented keys and values of a small stream.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"

fixture > in.data
pdstat --json in.data > out.json 2> err.txt || fail "exit $?: $(cat err.txt)"
# Without a JSON parser, the values are still checked as text.
grep -q '"SAMPLE": {"count": 4, "bytes": 192}' out.json || fail "records"
grep -q '"total": {"count": 13, "bytes": 580}' out.json || fail "total"
grep -q '"lost": 7,' out.json || fail "lost"
grep -q '"lost_samples": 3,' out.json || fail "lost_samples"
grep -q '"first_time": 1000000000,' out.json || fail "first_time"
grep -q '"last_time": 3500000000,' out.json || fail "last_time"
command -v python3 >/dev/null 2>&1 || skip "python3 missing: JSON not parsed"
python3 - out.json <<'END' || fail "JSON check failed"
import json, sys
d = json.load(open(sys.argv[1]))
want_types = {"LOST": 1, "COMM": 2, "THROTTLE": 1, "UNTHROTTLE": 1,
    "SAMPLE": 4, "LOST_SAMPLES": 1, "ATTR": 1, "FINISHED_ROUND": 1,
    "FEATURE": 1}
assert {k: v["count"] for k, v in d["records"].items()} == want_types, d["records"]
assert d["records"]["FEATURE"]["bytes"] == 84
assert d["total"] == {"count": 13, "bytes": 580}
assert d["events"] == [{"name": "cpu-clock", "samples": 4, "period": 4000,
    "lost": 10}], d["events"]
assert d["lost"] == 7 and d["lost_samples"] == 3
assert d["throttle"] == 1 and d["unthrottle"] == 1
assert d["first_time"] == 1000000000 and d["last_time"] == 3500000000
assert d["span"] == 2500000000
assert d["cpus"] == [{"cpu": 0, "samples": 2}, {"cpu": 1, "samples": 2}]
assert d["top_pids"] == [{"pid": 100, "comm": "busy", "samples": 3},
    {"pid": 200, "comm": "idle", "samples": 1}], d["top_pids"]
assert d["top_comms"][0] == {"comm": "busy", "samples": 3}
assert d["header"] == {"hostname": "fixture-host"}, d["header"]
assert d["complete"] is True and d["error"] is None
assert d["input"] == "in.data" and d["format"] == "pipe"
assert d["stream_bytes"] == 596
END
# Two inputs: two objects, one after the other.
pdstat --json in.data in.data > two.json || fail "two inputs: exit $?"
python3 - two.json <<'END' || fail "two objects expected"
import json, sys
s = open(sys.argv[1]).read()
dec = json.JSONDecoder()
a, i = dec.raw_decode(s)
b, j = dec.raw_decode(s[i:].lstrip())
assert a == b and not s[i:].lstrip()[j:].strip()
END
