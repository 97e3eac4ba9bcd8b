# SPDX-License-Identifier: MIT
# The EXAMPLES of pdrecord(1), run as written (the lines that start with
# "$ "), with two changes for a test: "ssh host" runs here, and long
# sleeps are cut to one second. An example that needs a pdtool not
# built yet is left out (and said so); then the results are checked.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
command -v gzip >/dev/null 2>&1 || skip "no gzip"
command -v pidof >/dev/null 2>&1 || skip "no pidof"

sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/pdrecord.1" |
	sed -n 's/^\$ //p' | sed 's/\\-/-/g; s/\\e/\\/g' > examples.txt
[ "$(wc -l < examples.txt)" -ge 6 ] || fail "too few examples: $(cat examples.txt)"

# What the examples name: a log to compress, a server to record.
seq 1 300000 > big.log
cp "$(command -v sleep)" myserver
./myserver 120 & server=$!
trap 'kill $server 2>/dev/null' EXIT

i=0 ran=0
while IFS= read -r cmd; do
	i=$((i + 1))
	missing=
	for t in $(echo "$cmd" | grep -o 'pd[a-z]*' | sort -u); do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	if [ -n "$missing" ]; then
		echo "example $i left out, not built:$missing: $cmd"
		continue
	fi
	run=$(echo "$cmd" | sed 's/^ssh host //; s/sleep [0-9][0-9]*/sleep 1/')
	bash -o pipefail -c "$run" > "out.$i" 2> "err.$i" < /dev/null ||
		fail "example $i failed: $run: $(cat "err.$i")"
	grep -v '^pdrecord: [0-9]* bytes, [0-9]* samples, [0-9]* lost$' \
	    "err.$i" | grep -v '^$' | grep -q . &&
		fail "example $i: $run said: $(cat "err.$i")"
	ran=$((ran + 1))
	case $cmd in
	*pddump*)	[ -s dump.txt ] || fail "no dump.txt";;
	*pdswap*)	[ -s local.data ] || fail "no local.data";;
	*gzip*)		grep -q gzip report.txt || fail "gzip not in report: $(head report.txt)";;
	*sched_switch*)	grep -q sched_switch sched.txt || fail "no sched_switch";;
	*myserver*)	perf script -i - < server.data > server.txt 2> e.txt ||
				fail "server.data: $(cat e.txt)"
			[ -s e.txt ] && fail "server.data: $(cat e.txt)"
			grep -q . server.data || fail "no server.data";;
	*pdstat*)	[ -s stat.txt ] || fail "no stat.txt";;
	*all.data*)	perf script -i - < all.data > all.txt 2> e.txt ||
				fail "all.data: $(cat e.txt)"
			[ -s e.txt ] && fail "all.data: $(cat e.txt)"
			[ -s all.txt ] || fail "all.data: no samples";;
	esac
done < examples.txt
echo "$ran of $i examples ran"
[ "$ran" -ge 3 ] || fail "only $ran examples ran"
