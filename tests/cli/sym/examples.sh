# SPDX-License-Identifier: MIT
# The symbol EXAMPLES of pddump(1) and pdstat(1), run as written with
# ./hot (tests/prog/hot.c) as the program and perf.data recorded here.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .

# The lines of a page's EXAMPLES that mention ./hot, -s or --top.
examples() {
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/$1" |
	    sed -n -e 's/^\.Dl [$#] //p' -e 's/^[$#] //p' |
	    sed 's/\\-/-/g; s/\\e/\\/g' | grep -E -- '(\./hot|-s |--top)' |
	    grep -v -- '--symfs'	# the remote recipe: sym/elsewhere.sh
}
examples pddump.1 > ex.txt
examples pdstat.1 >> ex.txt
[ "$(wc -l < ex.txt)" = 4 ] || fail "expected 4 examples: $(cat ex.txt)"

perf record -q -g -o perf.data -- ./hot 300 2> rec.err || fail "perf record: $(cat rec.err)"
perf record -q -a -g -o system.data -- ./hot 200 2> rec.err ||
	fail "perf record -a: $(cat rec.err)"
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	case $cmd in *jq*) command -v jq >/dev/null || continue;; esac
	bash -o pipefail -c "$cmd" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $cmd: $(cat "err.$i")"
done < ex.txt
# pddump: perf record | pddump -s -t SAMPLE
grep -q '^  sym: leaf+0x[0-9a-f]* (.*/libhot.so)$' out.1 || fail "example 1: $(head out.1)"
# pddump --json | jq: leaf is the hottest
if command -v jq >/dev/null; then
	head -n 1 out.2 | grep -q ' leaf$' || fail "example 2: $(cat out.2)"
fi
# pdstat --top 10 on the live stream: leaf first
grep -Eq '^ +[0-9.]+% +[0-9]+  \[\.\] leaf  ' out.3 || fail "example 3: $(cat out.3)"
# pdstat --json --top 5 --by dso on system.data: libhot.so a row
grep -q '"dso": ".*/libhot.so"' out.4 || fail "example 4: $(cat out.4)"
for e in err.*; do
	grep -q '^pd[a-z]*: ' $e && fail "$e: $(cat $e)"
done
exit 0
