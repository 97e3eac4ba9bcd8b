# SPDX-License-Identifier: MIT
# The EXAMPLES of pdtools(7), run as written (the lines that start with
# "$ "), in order, with a perf.data recorded here.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdtools.7" |
	sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' > examples.txt
[ -s examples.txt ] || fail "no examples in pdtools.7"
perf record -q -e cpu-clock -F 999 -g -o perf.data -- \
    sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' 2> rec.err ||
	fail "perf record: $(cat rec.err)"
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
	# perf report --stats says "Error" but exits 0; pdtools say "pd...:".
	grep -q '^Error\|^pd[a-z]*:' "err.$i" "out.$i" &&
		fail "example $i: $cmd: $(cat "err.$i" "out.$i")"
	[ -s "out.$i" ] || fail "example $i printed nothing: $cmd"
done < examples.txt
echo "$i examples ran"
