# SPDX-License-Identifier: MIT
# pddump -s and pdstat --top run over every corpus file (other machines'
# streams): no crash, the same exit status as without symbols, and no
# kernel names (the streams are not from this host).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
n=0 k=0
for f in $(find "$C" -type f \( -name '*.data' -o -name '*.perf*' -o \
    -name '*.pd' -o -name 'perf*' \) | sort); do
	pddump -t SAMPLE "$f" > /dev/null 2>&1
	want=$?
	pddump -s -t SAMPLE "$f" > out.txt 2> err.txt
	got=$?
	[ "$got" = "$want" ] || fail "$f: pddump -s exit $got, without -s $want: $(tail -n 2 err.txt)"
	[ "$got" -le 1 ] || fail "$f: exit $got"
	# Another host's kernel is never named from this one's kallsyms.
	pdstat --top 5 "$f" > st.txt 2> serr.txt
	got=$?
	h=$(sed -n 's/^  hostname *//p' st.txt)
	if [ -n "$h" ] && [ "$h" != "$(uname -n)" ]; then
		k=$((k + 1))
		grep -Eq '[^ ]+\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\)' out.txt &&
			fail "$f: from $h, yet kernel names: $(grep -m 1 kallsyms out.txt)"
		grep -q '\[k\] [a-zA-Z_]' st.txt &&
			fail "$f: from $h, yet pdstat --top names kernel symbols"
	fi
	[ "$got" -le 1 ] || fail "$f: pdstat --top exit $got"
	n=$((n + 1))
done
[ "$n" -ge "$(corpus_min 21 14)" ] || fail "only $n corpus files"
[ "$k" -ge "$(corpus_min 11 6)" ] || fail "only $k files from other hosts"
echo "$n files, $k from other hosts"
