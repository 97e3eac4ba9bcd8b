# SPDX-License-Identifier: MIT
# A sample whose body does not parse (mkpipe sample-raw: its RAW size
# runs past the record) is counted, never dropped: pdstat's summary has
# it (1 sample, period 1000), and so do both profiles, in an [unknown]
# frame with what its head says (pid and tid 42, the event's period),
# said once on stderr as counted; it is no sample "without an address".
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"

mkpipe sample-raw > raw.data || fail "mkpipe sample-raw"
pdstat --json --pprof p.pb.gz --gecko g.json raw.data > sum.json \
    2> err.txt || fail "pdstat: $(cat err.txt)"
[ "$(grep -c 'of no known layout' err.txt)" = 1 ] &&
    grep -q '^pdstat: raw.data: 1 sample of no known layout counted as \[unknown\] in the profile$' \
    err.txt || fail "stderr: $(cat err.txt)"
grep -q 'without an address' err.txt && fail "stderr: $(cat err.txt)"
PYTHONPATH=$PD_TOP/tests/cli/export python3 - <<'EOP' || exit 1
import json, sys
from pb import decode
summ = json.load(open("sum.json"))
p = decode("p.pb.gz")
if len(p["samples"]) != 1:
    sys.exit("FAIL: pprof: %d samples" % len(p["samples"]))
locs, vals, labs = p["samples"][0]
names = [p["functions"][f] for l in locs for f in p["locations"][l]]
ev = summ["events"][0]
if names != ["[unknown]"] or vals != [ev["samples"], ev["period"]] != [1, 1000]:
    sys.exit("FAIL: pprof: %r %r" % (names, vals))
if labs.get("pid") != 42 or labs.get("tid") != 42 or "cpu" in labs:
    sys.exit("FAIL: pprof labels %r" % labs)
g = json.load(open("g.json"))
rows = [(t["tid"], t["stringTable"][t["frameTable"]["data"][
    t["stackTable"]["data"][r[0]][1]][0]])
    for t in g["threads"] for r in t["samples"]["data"]]
if rows != [(42, "[unknown] (in [unknown])")]:
    sys.exit("FAIL: gecko: %r" % rows)
print("pprof %r %r %r; gecko %r" % (names, vals, labs, rows))
EOP
