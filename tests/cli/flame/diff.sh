# SPDX-License-Identifier: MIT
# pdstat --diff on two runs of the two-path test program, 3:1 and then
# 1:3: the two-column folded text is exactly what difffolded.pl makes of
# the two runs' pddump --folded (computed here with awk: the base scaled
# to the new total, rounded down; as they are with --no-normalize); the
# differential flame graph colours every frame as flamegraph.pl does
# (svgcheck.py --diff), pd_flame_a's hot path red, pd_flame_b's blue; and
# headless Chromium draws both colours.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
build_prog

perf record -q -e cpu-clock -F 999 -g -o base.data -- ./prog 200 3 1 \
    2> rec.err || fail "perf record: $(cat rec.err)"
perf record -q -e cpu-clock -F 999 -g -o new.data -- ./prog 200 1 3 \
    2> rec.err || fail "perf record: $(cat rec.err)"
pddump --folded base.data > base.folded && pddump --folded new.data > \
    new.folded || fail "pddump --folded"

# difffolded.pl's columns, from the two folded files alone.
want() {	# NORMALIZE
	awk -v norm="$1" '
	    { n = split($0, f, " "); c = f[n]; s = substr($0, 1,
	      length($0) - length(c) - 1) }
	    FNR == NR { a[s] += c; t1 += c; seen[s] = 1; next }
	    { b[s] += c; t2 += c; seen[s] = 1 }
	    END { for (s in seen) { x = a[s] + 0
		if (norm && t1 != t2) x = int(x * t2 / t1)
		print s, x, b[s] + 0 } }' base.folded new.folded | LC_ALL=C sort
}
want 1 > want.norm
want 0 > want.raw
pdstat --flamegraph diff.svg --folded diff.folded --diff base.data \
    new.data > summary.txt 2> err.txt || fail "pdstat --diff: $(cat err.txt)"
LC_ALL=C sort diff.folded | diff -u want.norm - > d.txt ||
	fail "--diff --folded differs from difffolded.pl -n: $(head -n 20 d.txt)"
pdstat --folded - --no-normalize --diff base.data new.data 2> err.txt |
    LC_ALL=C sort | diff -u want.raw - > d.txt ||
	fail "--no-normalize differs from difffolded.pl: $(head -n 20 d.txt)"
# Both inputs summed up, the base first.
[ "$(grep -c '^ *SAMPLE ' summary.txt)" -eq 2 ] ||
	fail "two summaries wanted: $(cat summary.txt)"

python3 "$PD_TOP/tests/cli/flame/svgcheck.py" diff.svg --diff diff.folded \
    --name pd_flame_hot --name pd_flame_a > check.txt || fail "diff.svg"
cat check.txt
grep -q '<text id="title"[^>]*>Differential Flame Graph: cpu-clock, [1-9][0-9]* samples against base.data (normalized)<' \
    diff.svg || fail "title: $(grep 'id="title"' diff.svg)"
# a's share grew (1/4 to 3/4), b's shrank: a red and a blue hot box.
red=$(grep -o '<title>pd_flame_hot ([^<]*; +[^<]*</title><rect [^>]*fill="rgb(255,[0-9]*,[0-9]*)"' diff.svg |
    sed 's/.*fill="rgb(\([0-9,]*\))"/\1/' | head -n 1)
blue=$(grep -o '<title>pd_flame_hot ([^<]*; -[^<]*</title><rect [^>]*fill="rgb([0-9]*,[0-9]*,255)"' diff.svg |
    sed 's/.*fill="rgb(\([0-9,]*\))"/\1/' | head -n 1)
[ -n "$red" ] && [ -n "$blue" ] ||
	fail "no red and blue pd_flame_hot: $(grep -o '<title>pd_flame_hot[^/]*' diff.svg)"

usage_fails() {	# TEXT args...: exit 2, TEXT said, then the usage
	_t=$1; shift
	pdstat "$@" > /dev/null 2> err.txt
	[ $? -eq 2 ] || fail "pdstat $*: not a usage error"
	grep -qF -- "$_t" err.txt && grep -q '^usage: pdstat' err.txt ||
		fail "pdstat $*: $(cat err.txt)"
}
usage_fails 'need --flamegraph or --folded' --diff base.data new.data
usage_fails 'goes with --diff' --folded x --no-normalize new.data
usage_fails 'no --diff' -p --folded x --diff base.data new.data
expect_fail 1 'nobase.data' pdstat --folded x.folded --diff nobase.data new.data

command -v chromium >/dev/null 2>&1 || {
	echo "no chromium: the picture not rendered"; exit 0; }
h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' diff.svg | head -n 1)
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync \
    --user-data-dir="$PWD/profile" --screenshot="$PWD/shot.png" \
    --window-size=1200,$((h + 8)) "file://$PWD/diff.svg" > /dev/null \
    2> chrome.err || fail "chromium: $(tail -n 5 chrome.err)"
set -- $(python3 "$PD_TOP/tests/cli/flame/pngstat.py" shot.png "$red" \
    "$blue") || fail "pngstat.py"
echo "screenshot: $2 colours, $5 pixels rgb($red), $8 pixels rgb($blue)"
[ "$5" -ge 2000 ] && [ "$8" -ge 1000 ] ||
	fail "the red and blue boxes are not drawn: $*"
