# aarch64: arm64.s (main -> a -> b -> c with CFI) assembled by clang and
# linked by ld.lld for aarch64, and a stream (mkarm.py) holding the one
# sample a kernel would take in c: registers in perf's arm64 order, the
# stack copy with the frame records. perf 6.1 cannot unwind arm64 data on
# this host ("target platform=arm64 is not supported"), so the oracle is
# the construction itself: c+0x4, then each caller 8 bytes in, minus 1.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 ||
	skip "no clang with ld.lld"
clang --target=aarch64-linux-gnu -c "$PD_TOP/tests/cli/unwind/arm64.s" \
    -o arm.o 2> cc.err || skip "clang cannot assemble aarch64: $(head -n 1 cc.err)"
ld.lld -shared --build-id --eh-frame-hdr -o libarm.so arm.o ||
	fail "ld.lld"
lib=$(pwd)/libarm.so
mk() { python3 "$PD_TOP/tests/cli/unwind/mkarm.py" libarm.so "$@"; }
frames() {
	pddump --unwind --no-inline -t SAMPLE "$1" > "$1.txt" 2> "$1.err" ||
		fail "pddump --unwind $1: $(cat "$1.err")"
	sed -n 's/^    0x[0-9a-f]* //p' "$1.txt" | tr '\n' ';'
}
full="c+0x4 ($lib);b+0x7 ($lib);a+0x7 ($lib);main+0x7 ($lib);"

# The arch from the header's arch feature, then from the register mask.
mk aarch64 > named.data || fail "mkarm.py"
[ "$(frames named.data)" = "$full" ] ||
	fail "arch named: $(frames named.data), wanted $full"
mk - > masked.data || fail "mkarm.py"
[ "$(frames masked.data)" = "$full" ] ||
	fail "arch from the mask: $(frames masked.data), wanted $full"

# The kernel filled only 40 bytes: a's return address (at sp + 40) is
# not there, so the walk ends at a.
mk aarch64 40 > cut.data || fail "mkarm.py"
[ "$(frames cut.data)" = "c+0x4 ($lib);b+0x7 ($lib);a+0x7 ($lib);" ] ||
	fail "dyn_size 40: $(frames cut.data)"

# The JSON form carries the same frames.
pddump --unwind --no-inline --json -t SAMPLE named.data > named.json ||
	fail "pddump --unwind --json"
grep -q '"callchain":\[{"addr":"0x7f0000010468","sym":"c","symoff":4,' \
    named.json || fail "json: $(cat named.json)"
