# SPDX-License-Identifier: MIT
# Samples without an address (mkpipe no-ip: no IP, no callchain) are
# counted in an [unknown] frame by --pprof and --gecko, never dropped,
# and each profile says how many on stderr, once.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"

mkpipe no-ip > noip.data || fail "mkpipe no-ip"
pdstat --pprof p.pb.gz --gecko g.json noip.data > /dev/null 2> err.txt ||
	fail "pdstat: $(cat err.txt)"
for f in p.pb.gz g.json; do
	[ "$(grep -c "^pdstat: $f: 3 samples without an address to name, counted as \[unknown\]$" err.txt)" = 1 ] ||
		fail "$f: stderr: $(cat err.txt)"
done
[ "$(wc -l < err.txt)" = 2 ] || fail "stderr: $(cat err.txt)"
PYTHONPATH=$PD_TOP/tests/cli/export python3 - <<'EOP' || exit 1
import json, sys
from pb import decode
p = decode("p.pb.gz")
got = [([p["functions"][f] for l in locs for f in p["locations"][l]], vals)
       for locs, vals, labs in p["samples"]]
if got != [(["[unknown]"], [3, 3000])]:
    sys.exit("FAIL: pprof: %r" % got)
g = json.load(open("g.json"))
rows = [t["stringTable"][t["frameTable"]["data"][
    t["stackTable"]["data"][r[0]][1]][0]]
    for t in g["threads"] for r in t["samples"]["data"]]
if rows != ["[unknown] (in [unknown])"] * 3:
    sys.exit("FAIL: gecko: %r" % rows)
print("pprof %r; gecko %d rows in [unknown]" % (got, len(rows)))
EOP
