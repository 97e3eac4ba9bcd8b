# SPDX-License-Identifier: MIT
# The EXAMPLES of pdstat(1), run as written (the lines that start with
# "$ "), in order, on a perf.data recorded here; then their results are
# checked against perf.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
command -v pdcat >/dev/null 2>&1 || skip "pdcat not built"

sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdstat.1" |
	sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' |
	grep -v -e '--pprof' -e 'go tool pprof' -e '--gecko' > examples.txt
# (the export examples are tests/cli/export/examples.sh's)
[ "$(wc -l < examples.txt)" -ge 4 ] || fail "too few examples: $(cat examples.txt)"

perf record -q -e cpu-clock -F 999 -g -o perf.data -- \
    sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' 2> rec.err ||
	fail "perf record: $(cat rec.err)"
# The later recording the --diff example compares with perf.data.
perf record -q -e cpu-clock -F 999 -g -o new.data -- \
    sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' 2> rec.err ||
	fail "perf record: $(cat rec.err)"

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
	# Notes about symbols (--flamegraph: a stripped sh) are not errors.
	grep '^pdstat: ' "err.$i" | grep -qv 'symbol\|notes like these' &&
		fail "example $i: $cmd: $(cat "err.$i")"
done < examples.txt

samples() { awk '/^ *SAMPLE events:/ { print $3; exit }'; }
# 1: the file-mode perf.data, as perf counts it.
a=$(perf report --stats -i perf.data 2> /dev/null | samples)
grep -Eq "^ *SAMPLE +$a " out.1 || fail "example 1: not perf's $a samples"
grep -q 'from the file header:' out.1 || fail "example 1: header records"
# 2: a -z pipe stream, read through.
grep -Eq '^ *COMPRESSED +[1-9]' out.2 || fail "example 2: no COMPRESSED"
grep -q '^ *0 COMPRESSED' out.2 && fail "example 2"
# 3: the summary on stderr, the stream in system.data, unchanged.
grep -q '^<stdin>: pipe stream' err.3 || fail "example 3: no summary on stderr"
b=$(perf report --stats -i - < system.data 2> /dev/null | samples)
grep -Eq "^ *SAMPLE +$b " err.3 || fail "example 3: not perf's $b samples"
# 4: JSON with the same counts.
grep -q "\"SAMPLE\": {\"count\": $b," system.json || fail "example 4"
# The tables: the first row is perf report's (-n) with the same keys.
out_of() { grep -n -- "$1" examples.txt | head -1 | cut -d: -f1; }
first_row() {	# perf report options...
	perf report --stdio -n -g none "$@" 2> /dev/null |
	    awk '!/^#/ && NF { print $1, $2, $3; exit }'
}
i=$(out_of '--by tid system.data')
want=$(first_row -i - --no-children --sort pid < system.data | cut -d' ' -f1,2)
got=$(awk '/^overhead/ { getline; print $1, $2; exit }' "out.$i")
[ "$got" = "$want" ] || fail "--by tid: '$got', perf '$want'"
i=$(out_of '--children --sort dso,sym')
want=$(first_row -i perf.data --children --sort dso,sym)
got=$(awk '/^children/ { getline; print $1, $2, $3; exit }' "out.$i")
[ "$got" = "$want" ] || fail "--children: '$got', perf '$want'"
# The call graphs: perf's (treecmp.py), and at least one drawn.
i=$(out_of '^pdstat -g ')
perf report --stdio --no-children -i perf.data --sort comm,dso,sym \
    --percent-limit 5 > tree.perf 2> /dev/null
if command -v python3 > /dev/null; then
	python3 "$PD_TOP/tests/cli/pdstat/treecmp.py" "out.$i" tree.perf \
	    > tree.cmp || fail "-g: not perf's graphs: $(cat tree.cmp)"
	grep -q ' [1-9][0-9]* graphs, 0 differ$' tree.cmp ||
		fail "-g: $(cat tree.cmp)"
else
	grep -q -- '---' "out.$i" || fail "-g: no graph: $(cat "out.$i")"
fi
echo "perf.data $a samples, system.data $b"
