# SPDX-License-Identifier: MIT
# The flame-graph EXAMPLES of pddump(1) and pdstat(1) (the "$ " lines
# with --folded or --flamegraph), run as written, in order, in a
# directory with the two-path test program ./prog and a perf.data of it;
# then their results are checked.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
command -v python3 >/dev/null 2>&1 || skip "no python3"
build_prog
perf record -q -e cpu-clock -F 999 -g -o perf.data -- ./prog 300 \
    2> rec.err || fail "perf record: $(cat rec.err)"
# The later run pdstat's --diff example compares with it: b's path grew.
perf record -q -e cpu-clock -F 999 -g -o new.data -- ./prog 200 1 3 \
    2> rec.err || fail "perf record: $(cat rec.err)"

for m in pddump.1 pdstat.1; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/$m" |
	    sed -n 's/^\(\.Dl \)\{0,1\}\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' |
	    grep -e '--folded' -e '--flamegraph'
done > examples.txt
[ "$(wc -l < examples.txt)" -ge 4 ] || fail "too few examples: $(cat examples.txt)"
cat examples.txt

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
done < examples.txt

# pddump: the program's folded stacks, from pdrecord, with its 3:1.
set -- $(hot_counts prog.folded)
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$1" -gt "$2" ] ||
	fail "prog.folded: a:b = $1:$2: $(head prog.folded)"
# pddump: periods, as perf script's folded by collapse.py --period.
perf script -i perf.data 2> /dev/null |
    python3 "$PD_TOP/tests/cli/flame/collapse.py" --period > want.folded
diff -u want.folded perf.folded > diff.txt || fail "perf.folded: $(head diff.txt)"
# pdstat: the picture (the second example's, the summary apart).
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" flame.svg --name pd_flame_hot ||
	fail "flame.svg"
grep -Eq '^ *SAMPLE +[1-9]' summary.txt || fail "summary.txt: $(cat summary.txt)"
# pdstat --diff: coloured from its own two-column text.
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" diff.svg --diff diff.folded ||
	fail "diff.svg"
echo "$i examples ran"
