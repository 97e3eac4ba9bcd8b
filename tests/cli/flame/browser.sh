# SPDX-License-Identifier: MIT
# The flame graph opens in a real browser: headless Chromium renders
# pdstat --flamegraph's SVG of the two-path test program. The script runs
# (a search given in the location reports b's share, about 1/4; a zoom
# given there rewrites the hot function's label), the hot function's
# name is in the rendered page's text, and the screenshot is not blank:
# many colours, and the hot function's box colour over many pixels.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
command -v chromium >/dev/null 2>&1 || skip "no chromium (Debian package chromium)"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
build_prog

perf record -q -e cpu-clock -F 999 -g -o perf.data -- ./prog 300 \
    2> rec.err || fail "perf record: $(cat rec.err)"
pdstat --flamegraph flame.svg perf.data > /dev/null 2> err.txt ||
	fail "pdstat --flamegraph: $(cat err.txt)"

chrome() {	# N args...: a browser with profile N, nothing to fetch
	_p=$1; shift
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
	    --disable-quic --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$PWD/profile.$_p" "$@" 2>> chrome.err
}
url="file://$PWD/flame.svg"

chrome 1 --dump-dom "$url?s=pd_flame_b&z=pd_flame_hot" > dom.html ||
	fail "chromium --dump-dom: $(tail -n 5 chrome.err)"
pct=$(sed -n 's/.*Matched: \([0-9.]*\)%.*/\1/p' dom.html | head -n 1)
[ -n "$pct" ] || fail "the search did not run: $(grep -o '<text id="matched"[^<]*' dom.html)"
# The script's share is the SVG's own (python reads it), about 1/4.
want=$(python3 "$PD_TOP/tests/cli/flame/svgcheck.py" flame.svg \
    --share pd_flame_b | sed -n 's/^share pd_flame_b //p')
[ -n "$want" ] || fail "svgcheck.py --share"
awk -v p="$pct" -v w="$want" 'BEGIN { d = p - w; exit !(d < 0.2 && d > -0.2) }' ||
	fail "pd_flame_b matched $pct% in the browser, $want% in the SVG"
awk -v w="$want" 'BEGIN { exit !(w >= 12 && w <= 40) }' ||
	fail "pd_flame_b has $want% of the samples, not about 25%: $(grep -c . flame.svg) lines"
grep -q '>pd_flame_hot</text>' dom.html ||
	fail "pd_flame_hot is not in the rendered text"
grep -q '<text id="unzoom" class=""' dom.html || fail "the zoom did not run"

# The window holds the whole image: one deep stack (a kernel one caught
# in a page fault, say) makes it taller, and the hot boxes sit at the
# bottom, out of a fixed-size window's sight.
h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' flame.svg | head -n 1)
[ -n "$h" ] || fail "no height in flame.svg: $(grep -m 1 '^<svg' flame.svg)"
chrome 2 --screenshot="$PWD/shot.png" --window-size=1200,$((h + 8)) "$url" \
    > /dev/null || fail "chromium --screenshot: $(tail -n 5 chrome.err)"
[ -s shot.png ] || fail "no screenshot"
# The colour of pd_flame_hot's widest box, as the SVG gives it.
rgb=$(grep -o '<title>pd_flame_hot ([^<]*</title><rect [^>]*/>' flame.svg |
    sed 's/.*fill="rgb(\([0-9,]*\))".*/\1/' | head -n 1)
[ -n "$rgb" ] || fail "no pd_flame_hot box in flame.svg"
set -- $(python3 "$PD_TOP/tests/cli/flame/pngstat.py" shot.png "$rgb") ||
	fail "pngstat.py"
echo "screenshot (1200x$((h + 8))): $2 colours, $5 pixels of pd_flame_hot's rgb($rgb); $pct% matched, $want% in the SVG"
[ "$2" -ge 20 ] || fail "the screenshot is blank: $2 colours"
[ "$5" -ge 2000 ] || fail "pd_flame_hot's box is not drawn: $5 pixels of rgb($rgb)"
