# SPDX-License-Identifier: MIT
# Differential test: pdstat --tree draws perf report --stdio's call
# graphs (its default -g graph,0.5,caller): under every row the same
# branches, shares and runs of functions (treecmp.py), with and without
# --children, on shipped captures (a -g pipe stream, a file-mode one),
# then on a fresh file-mode -g recording of a shell that spins, then
# execs ./hot (root): --sort sym, where perf leaves the row's own
# symbol off the top of its graph, and --percent-limit, which perf
# applies to the branches too.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_corpus
command -v python3 >/dev/null || skip "no python3"
cmp_py=$PD_TOP/tests/cli/pdstat/treecmp.py
n=0 graphs=0

# same STREAM children|no-children [options...]: perf's graphs are ours.
same() {
	_f=$1 _c=$2; shift 2
	perf report -i "$_f" --stdio --$_c "$@" > perf.$n.txt 2> perf.err \
	    < /dev/null || fail "perf report $_f: $(tail -n 2 perf.err)"
	[ "$_c" = children ] && set -- "$@" --children
	pdstat $PD_KALLSYMS --tree "$@" "$_f" > ours.$n.txt 2> ours.err ||
		fail "pdstat --tree $* $_f: $(tail -n 2 ours.err)"
	python3 "$cmp_py" ours.$n.txt perf.$n.txt > cmp.$n.txt ||
		fail "$_f --$_c $*: not perf's graphs: $(head -n 20 cmp.$n.txt)"
	_g=$(sed -n 's/^.* entries, \([0-9]*\) graphs, 0 differ$/\1/p' cmp.$n.txt)
	[ -n "$_g" ] || fail "treecmp: $(cat cmp.$n.txt)"
	graphs=$((graphs + _g))
	n=$((n + 1))
}

# A pipe stream from this host's kernel version line: perf names its
# kernel addresses from /proc/kallsyms, so we are told to as well.
PD_KALLSYMS="--kallsyms /proc/kallsyms"
same "$C/callchain.pipe.data" no-children --sort comm,dso,sym
# File mode: perf takes kernel symbols only from a matching build id.
PD_KALLSYMS=
same "$C/callchain.file.data" no-children --sort comm,dso,sym
same "$C/callchain.file.data" children --sort comm,dso,sym
[ "$graphs" -ge 50 ] || fail "only $graphs graphs compared"

# -g is --tree; a graph is drawn under its row, blank line after.
pdstat -g --top 1 "$C/callchain.file.data" > g.txt 2>/dev/null || fail "-g"
pdstat --tree --top 1 "$C/callchain.file.data" > tree.txt 2>/dev/null
cmp -s g.txt tree.txt || fail "-g is not --tree"
grep -A 3 '^overhead' g.txt | grep -q '^ *---0x' || fail "-g: $(cat g.txt)"

# JSON: the same branches; one holds all of the top row (gzip's).
pdstat --json --tree --top 1 "$C/callchain.file.data" 2>/dev/null |
    python3 -c 'import json, sys
r = json.load(sys.stdin)["top"][0]["rows"][0]
c = r["callchain"]
assert len(c) == 1 and c[0]["period"] == r["period"], c
assert c[0]["frames"][0].startswith("0x"), c' ||
	fail "--json --tree: no callchain of the top row"

if [ "$(id -u)" != 0 ]; then
	echo "$n reports, $graphs graphs equal perf's; fresh recording skipped: needs root"
	exit 0
fi
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .
# perf's build-id cache of its own: perf 6.1 reading one that other
# perf runs on the machine are writing has aborted here (build-id.c).
PERF_BUILDID_DIR=$PWD/buildid; export PERF_BUILDID_DIR
# hot spins 100 ms of wall time: a machine whose CPU was taken from us
# for that long (seen once in CI: 0 samples of hot) records again.
tries=0
while :; do
	perf record -q -g -F 2000 -o rec.data -- sh -c \
	    'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exec ./hot 100' \
	    2> rec.err || fail "perf record: $(cat rec.err)"
	hot=$(pdstat rec.data 2> /dev/null |
	    awk '/^comm / { on = 1; next } on && $1 == "hot" { print $2 }')
	[ "${hot:-0}" -ge 50 ] && break
	tries=$((tries + 1))
	[ "$tries" -lt 3 ] || fail "fresh: ${hot:-no} samples of hot in 3 recordings"
done
same rec.data no-children --sort comm,dso,sym
same rec.data children --sort comm,dso,sym
same rec.data no-children --sort sym
same rec.data children --sort comm,dso,sym --percent-limit 2
# path FILE SYM: the names down the graph under SYM's row, its largest
# branch first as perf prints it, without the branch marks ("|",
# "---", "--NN.NN%--"): a sample landing elsewhere (main's own, leaf's
# first instruction before its frame is made) adds a branch and puts a
# share on the first one, which is all the same path.
path() {
	awk -v s="] $2" '
	    !on && length($0) >= length(s) &&
	    substr($0, length($0) - length(s) + 1) == s { on = 1; next }
	    on && /^$/ { exit }
	    on {
		gsub(/\|/, " "); gsub(/-+[0-9.]+%-+/, " "); gsub(/---/, " ")
		n = split($0, w, " ")
		for (i = 1; i <= n; i++)
			printf "%s ", w[i]
	    }' "$1"
}
# hot's one path, callee first, and caller first under main.
case $(path ours.$((n - 4)).txt leaf) in
"leaf middle outer main "*) ;;
*) fail "fresh: leaf's callers: $(path ours.$((n - 4)).txt leaf)" ;;
esac
case $(path ours.$((n - 3)).txt main) in
"main outer "*) ;;
*) fail "fresh: what main calls: $(path ours.$((n - 3)).txt main)" ;;
esac
echo "$n reports, $graphs graphs equal perf's"
