# SPDX-License-Identifier: MIT
# The EXAMPLES of pdcat(1), run as written (the lines that start with
# "$ "), in order, on a perf.data recorded here; then their results are
# checked, since perf report --stats exits 0 even when it fails.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"

# The examples as the page shows them, mdoc escapes undone.
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdcat.1" |
	sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' > examples.txt
[ "$(wc -l < examples.txt)" -ge 7 ] || fail "too few examples: $(cat examples.txt)"

# The perf.data the examples name: file mode, a busy shell loop.
perf record -q -e cpu-clock -F 999 -g -o perf.data -- \
    sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' 2> rec.err ||
	fail "perf record: $(cat rec.err)"

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
	grep -q 'pdcat:' "err.$i" && fail "example $i: $cmd: $(cat "err.$i")"
	# perf report --stats says "Error" but exits 0.
	grep -q '^Error' "err.$i" "out.$i" &&
		fail "example $i: $cmd: $(cat "err.$i" "out.$i")"
done < examples.txt

samples() { awk '/^ *SAMPLE events:/ { print $3; exit }'; }
n=$(perf report --stats -i - < system.data 2> /dev/null | samples)
[ "${n:-0}" -gt 0 ] || fail "example 1: system.data holds no samples"
grep -q 'pdcat -d' examples.txt || fail "no pdcat -d example"
n=$(grep -n 'pdcat -d' examples.txt | head -n 1 | cut -d: -f1)
[ "$(samples < "out.$n")" -gt 0 ] 2> /dev/null ||
	fail "example $n: perf report counted no samples: $(cat "out.$n")"
a=$(perf report --stats -i - < 1.data 2> /dev/null | samples)
b=$(perf report --stats -i - < 2.data 2> /dev/null | samples)
j=$(perf report --stats -i - < both.data 2> /dev/null | samples)
echo "1.data $a samples, 2.data $b, both.data $j"
[ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt 0 ] || fail "no samples recorded"
[ "${j:-0}" -eq $((a + b)) ] || fail "joined: $j samples, not $a + $b"
[ "$(grep -c 'SAMPLE events:' "out.$i")" -ge 1 ] ||
	fail "the last example printed no sample count"
perf script -i perf.data > file.txt 2> /dev/null || fail "perf script"
n=$(grep -n '^pdcat perf.data | perf script' examples.txt | cut -d: -f1)
cmp -s file.txt "out.$n" || fail "pdcat perf.data | perf script differs from perf script -i perf.data"
# The filters' examples: --time as perf script's, --comm into pdstat.
n=$(grep -n 'pdcat --time 10%/2' examples.txt | cut -d: -f1)
perf script -i perf.data --time 10%/2 > tenth.txt 2> /dev/null ||
	fail "perf script --time"
[ -s tenth.txt ] && cmp -s tenth.txt "out.$n" ||
	fail "pdcat --time 10%/2 | perf script differs from perf script --time 10%/2"
n=$(grep -n 'pdcat --comm sh' examples.txt | cut -d: -f1)
grep -q . "out.$n" || fail "example $n printed nothing"
