# SPDX-License-Identifier: MIT
# Mutated streams (tests/gen/mutate.c: bit flips, truncations, size
# and count changes) through the symbol paths: pddump -s, --folded,
# --unwind, pdstat --top and --flamegraph: no signal, no hang, exit 0
# or 1 with the offset named.
. "$PD_TOP/tests/cli/lib.sh"
n=400
[ "${PD_SANITIZE:-}" = 1 ] && n=40
mkdir in
for c in ok sample-callchain sample-full file-mode; do
	mkpipe "$c" > in/$c || fail "mkpipe $c"
done
if [ "$(id -u)" = 0 ] && command -v gcc >/dev/null 2>&1; then
	. "$PD_TOP/tests/cli/sym/hot.sub"
	build_hot .
	pdrecord -q -g -o in/hot.pd -- ./hot 50 || fail pdrecord
fi
"$PD_TBIN/gen/mutate" -n "$n" -j 2 -b 40 -s 9 \
    -c 'pddump -s' -c 'pddump -s --json' -c 'pddump --folded' \
    -c 'pddump --unwind' -c 'pdstat --top 5' \
    -c 'pdstat --flamegraph /dev/null' in/* >out.txt 2>&1
rc=$?
cat out.txt
[ "$rc" -eq 0 ] || fail "bad runs (mutants kept as bad-m*)"
grep -q "^pddump: [0-9]* mutants" out.txt || fail "pddump did not run"
grep -q "^pdstat: [0-9]* mutants" out.txt || fail "pdstat did not run"
