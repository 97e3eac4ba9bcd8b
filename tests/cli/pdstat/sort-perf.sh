# SPDX-License-Identifier: MIT
# Differential test: pdstat --sort (--by, --children, --percent-limit)
# gives perf report --stdio -n's tables with the same keys on the same
# stream, row for row: Overhead (and Children) to 2 decimals, sample
# counts, and perf's order where it has one (reportcmp.py). On shipped
# captures (a -g pipe stream, a file-mode one, two events, many
# processes), then on a fresh file-mode -g recording of a shell that
# spins, then execs ./hot (root). perf 6.1 ignores --children on pipe
# input: ours on the pipe form of a file equal ours (and so perf's) on
# the file.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_corpus
command -v python3 >/dev/null || skip "no python3"
cmp_py=$PD_TOP/tests/cli/pdstat/reportcmp.py
n=0

# same STREAM KEYS self|children [pdstat options]: makes both tables,
# compared at the end (check), all in one run of reportcmp.py.
same() {
	_f=$1 _k=$2 _c=$3; shift 3
	if [ "$_c" = children ]; then _pc=--children; else _pc=--no-children; fi
	# perf's "pid" is the thread: our "tid" too.
	perf report -i "$_f" --stdio $_pc -n -t ';' -g none \
	    --sort "$(echo "$_k" | sed 's/tid/pid/')" \
	    "$@" > perf.$n.txt 2> perf.err < /dev/null ||
		fail "perf report $_f $_k: $(tail -n 2 perf.err)"
	set -- "$@" --sort "$_k"
	[ "$_c" = children ] && set -- "$@" --children
	pdstat --json $PD_KALLSYMS "$@" "$_f" > ours.$n.json 2> ours.err ||
		fail "pdstat $* $_f: $(tail -n 2 ours.err)"
	echo "$_k $_c ours.$n.json perf.$n.txt [vdso]" >> list.txt
	n=$((n + 1))
}
check() {
	python3 "$cmp_py" list.txt > cmp.txt ||
		fail "not perf's tables: $(grep -v ' 0 differ$' cmp.txt)"
	[ "$(grep -c ' 0 differ$' cmp.txt)" = "$n" ] || fail "not $n tables: $(cat cmp.txt)"
}

# A pipe stream from this host's kernel version line: perf names its
# kernel addresses from /proc/kallsyms, so we are told to as well.
PD_KALLSYMS="--kallsyms /proc/kallsyms"
f=$C/callchain.pipe.data
for k in sym dso comm pid tid comm,pid,dso,sym dso,sym,comm; do
	same "$f" $k self
done
same "$f" comm,pid,dso,sym self --percent-limit 0.5
same "$C/switch-addr.pipe.data" comm self
same "$C/switch-addr.pipe.data" comm,pid,dso,sym self
same "$C/sched.pipe.data" pid self
same "$C/sched.pipe.data" comm,dso self
same "$C/zstd.pipe.data" sym,comm self

# File mode: perf takes kernel symbols only from a matching build id.
PD_KALLSYMS=
f=$C/callchain.file.data
for k in comm,pid,dso,sym dso,sym pid comm dso; do
	same "$f" $k self
	same "$f" $k children
done
same "$f" sym,comm children --percent-limit 0.3

# Inclusive numbers of a pipe stream: those of its file.
pipe_equal() {	# file keys
	pdstat --json --children --sort "$2" "$1" 2>/dev/null |
	    sed -n '/"top"/,$p' > file.top
	pdcat "$1" | pdstat --json --children --sort "$2" 2>/dev/null |
	    sed -n '/"top"/,$p' > pipe.top
	[ -s file.top ] && cmp -s file.top pipe.top ||
		fail "--children $2: pipe and file differ: $(diff file.top pipe.top | head -5)"
}
pipe_equal "$f" comm,pid,dso,sym

# --by is one key; the text table has the rows too.
pdstat --by tid "$f" > by.txt 2>/dev/null || fail "--by tid"
grep -q '^top threads of cpu-clock' by.txt || fail "--by tid: $(cat by.txt)"
grep -Eq '^ +[0-9.]+% +[0-9]+ +[0-9]+:gzip$' by.txt || fail "--by tid: no gzip row"
pdstat --by dso,sym "$f" > /dev/null 2> err.txt
[ $? = 2 ] && grep -q -- '--by dso,sym: one key' err.txt || fail "--by two keys: $(cat err.txt)"
pdstat --sort comm,bogus "$f" > /dev/null 2> err.txt
[ $? = 2 ] && grep -q -- '--sort comm,bogus: keys are' err.txt || fail "--sort bogus: $(cat err.txt)"
pdstat --percent-limit x "$f" > /dev/null 2> err.txt
[ $? = 2 ] && grep -q -- '--percent-limit' err.txt || fail "--percent-limit x: $(cat err.txt)"

check
if [ "$(id -u)" != 0 ]; then
	echo "$n tables equal perf's; fresh recording skipped: needs root"
	exit 0
fi
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .
# Samples of the shell before the exec are sh's, the rest hot's.
perf record -q -g -F 2000 -o rec.data -- sh -c \
    'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exec ./hot 200' \
    2> rec.err || fail "perf record: $(cat rec.err)"
# Keys with sym but not dso before it are left to the fixed captures:
# perf 6.1's comparison of them is no order, and may split a row in two
# depending on what it met first.
for k in comm,pid,dso,sym dso,sym comm,dso,sym; do
	same rec.data $k self
	same rec.data $k children
done
check
grep -q '"comm": "sh"' ours.$((n - 1)).json &&
    grep -q '"comm": "hot"' ours.$((n - 1)).json ||
	fail "fresh: sh and hot not both named"
pipe_equal rec.data comm,dso,sym
echo "$n tables equal perf's"
