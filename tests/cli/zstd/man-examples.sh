# SPDX-License-Identifier: MIT
# The compression EXAMPLES of pdcat(1) (the lines naming system.z.data),
# run as the page shows them on a corpus stream as system.data: perf
# script prints the same for the compressed stream as for the original.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdcat.1" |
	sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' |
	grep 'system\.z\.data' > examples.txt
[ "$(wc -l < examples.txt)" -eq 2 ] || fail "examples: $(cat examples.txt)"
cp "$C/callchain.pipe.data" system.data
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	sh -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
done < examples.txt
[ "$(wc -c < system.z.data)" -lt "$(wc -c < system.data)" ] ||
	fail "system.z.data is not smaller"
perf script -i system.data > want.txt 2>/dev/null || fail "perf script"
[ -s out.2 ] && cmp -s want.txt out.2 ||
	fail "perf script of system.z.data differs from system.data"
