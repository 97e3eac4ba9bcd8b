# SPDX-License-Identifier: MIT
# The export EXAMPLES of pdstat(1) (the "$ " lines with --pprof, --gecko
# or go tool pprof), run as written, in order, in a directory where
# `make` runs the two-path test program ./prog and perf.data is a
# recording of it; then their results are checked.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v go >/dev/null 2>&1 ||
	skip "no go (Debian's golang-go: make deps): the examples run it"
command -v make >/dev/null 2>&1 || skip "no make"
HOME=$PWD GOCACHE=$PWD/gocache PPROF_TMPDIR=$PWD
export HOME GOCACHE PPROF_TMPDIR
build_prog
printf 'all:\n\t./prog 150\n' > Makefile
pdrecord -q -g -o perf.data -- ./prog 150 2> rec.err ||
	fail "pdrecord: $(cat rec.err)"

sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdstat.1" |
    sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' |
    grep -e '--pprof' -e 'go tool pprof' -e '--gecko' > examples.txt
[ "$(wc -l < examples.txt)" -ge 3 ] || fail "too few examples: $(cat examples.txt)"

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
done < examples.txt

# 1: make's profile; pprof's top function is the program's hot one.
grep -A1 '^ *flat ' out.1 | grep -q ' pd_flame_hot$' ||
	fail "example 1: pprof -top: $(cat out.1)"
# 2: the program's stacks alone, through pd_flame_a and pd_flame_b.
grep -q 'pd_flame_a' out.2 && grep -q 'pd_flame_b' out.2 ||
	fail "example 2: $(head -20 out.2)"
grep -q 'comm: *make' out.2 && fail "example 2: make's samples in"
# 3: both files of one pass, whole.
pdstat --json perf.data > sum.json 2> /dev/null || fail "pdstat --json"
python3 "$PD_TOP/tests/cli/export/geckocheck.py" profile.json sum.json ||
	exit 1
go tool pprof -top perf.pb.gz > top.txt 2>&1 || fail "perf.pb.gz: $(cat top.txt)"
echo "$i examples ran"
