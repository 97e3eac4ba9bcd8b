#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark harness (make bench).
#
# Records once a pipe-mode stream of at least 50 MB with `perf record -a -g`
# over a CPU-bound workload on every CPU, cached outside the tree in
# ${XDG_CACHE_HOME:-$HOME/.cache}/pdtools/bench.data, measures the `cat`
# baseline and the record walk (tests/bench/walk.c, the floor every
# tool's row is then compared with), then sources every
# tests/bench/*.bench in sorted order. A
# .bench file (POSIX sh) uses:
#
#   bench_cmd NAME 'shell command'    best of $BENCH_RUNS wall times (and
#                                     CPU times; four times as many runs
#                                     when one takes under a second, where
#                                     scheduling noise is a larger share),
#                                     and the largest peak RSS
#   bench_cmd NAME 'cmd' NAME2 'cmd2' the same for two commands whose runs
#                                     alternate, for a close comparison
#                                     (ten times as many runs under a
#                                     second)
#   bench_ratio NAME BASE 'target'    NAME's time / BASE's time; a number
#                                     in the target is the ratio not to
#                                     exceed ("<= 1.5x"); none: for
#                                     information only
#   bench_rss NAME MB [why]           NAME's peak RSS must stay under MB
#   bench_rss_ratio NAME BASE 'target' NAME's peak RSS / BASE's
#
# and the variables $BIG (the stream), $BENCH_CACHE (a directory for its
# own cached inputs) and $PD_BIN (the tools). Commands run under
# `sh -c` with PATH starting at $PD_BIN.
#
# The table is printed at the end and written to build/bench.md. The
# exit status is 1 if a target was missed or a command failed.
#
# Environment: BENCH_RUNS (default 3), BENCH_MIN_MB (default 50),
# BENCH_SECS (the first recording's length, default 20), BENCH_ONLY
# (only .bench files whose name contains it), BENCH_MD (where the table
# goes, default build/bench.md), BENCH_VS (a directory of other builds of
# the tools: each of our rows runs paired with its build there, and may
# be at most 5% slower; `make bench VS=DIR`).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${PD_BIN:=$top/bin}" "${PD_TBIN:=$top/build/tests}"
: "${BENCH_RUNS:=3}" "${BENCH_MIN_MB:=50}" "${BENCH_SECS:=20}"
BENCH_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/pdtools
BIG=$BENCH_CACHE/bench.data
PATH=$PD_BIN:$PATH
export PD_BIN PD_TBIN BENCH_CACHE BIG PATH

RUSAGE=$PD_TBIN/bench/rusage
[ -x "$RUSAGE" ] || { echo "bench: $RUSAGE missing (make bench builds it)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pdbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
rows=$work/rows		# name, command, seconds, rss_kb, cpu seconds (tabs)
ratios=$work/ratios	# name, value, cpu ratio, target, met
: > "$rows"
: > "$ratios"
bad=0

# record SECONDS [FILE]: perf record -a -g over one busy loop per CPU,
# into FILE ($BIG by default).
record() {
	_out=${2:-$BIG}
	n=$(nproc)
	echo "bench: recording $1 s of perf record -a -g over $n busy CPUs" >&2
	pids=
	i=0
	while [ "$i" -lt "$n" ]; do
		# The loops end themselves even if this script is killed.
		timeout "$(($1 + 5))" sh -c 'while :; do :; done' &
		pids="$pids $!"
		i=$((i + 1))
	done
	perf record -q -a -g -o - -- sleep "$1" > "$_out.tmp" 2> "$work/rec.err"
	rc=$?
	kill $pids 2>/dev/null
	wait 2>/dev/null
	if [ "$rc" -ne 0 ]; then
		echo "bench: perf record failed (exit $rc):" >&2
		cat "$work/rec.err" >&2
		rm -f "$_out.tmp"
		exit 1
	fi
	mv "$_out.tmp" "$_out"
}

size_mb() { echo $(( $(wc -c < "$1") / 1048576 )); }

if [ ! -s "$BIG" ] || [ "$(size_mb "$BIG")" -lt "$BENCH_MIN_MB" ]; then
	command -v perf >/dev/null 2>&1 ||
		{ echo "bench: perf is needed (make deps)" >&2; exit 1; }
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid \
	    2>/dev/null)" = -1 ] ||
		{ echo "bench: perf record -a needs root" >&2; exit 1; }
	mkdir -p "$BENCH_CACHE"
	secs=$BENCH_SECS
	while :; do
		record "$secs"
		mb=$(size_mb "$BIG")
		[ "$mb" -ge "$BENCH_MIN_MB" ] && break
		# Scale by what this machine gives per second, with room.
		secs=$(( secs * (BENCH_MIN_MB * 13 / 10) / (mb > 0 ? mb : 1) + 1 ))
		echo "bench: got $mb MB, extending to $secs s" >&2
	done
fi
echo "bench: input $BIG ($(size_mb "$BIG") MB)" >&2
# Read it once so that the first row does not pay for the page cache.
cat "$BIG" > /dev/null

# _run NAME COMMAND: one run; sets _w, _c (seconds) and _k (peak RSS KiB).
_run() {
	if ! "$RUSAGE" -o "$work/ru" "$2" 2> "$work/err"; then
		echo "bench: $1 failed: $2" >&2
		tail -n 5 "$work/err" >&2
		bad=1
		printf '%s\t%s\tfailed\t0\t-\n' "$1" "$2" >> "$rows"
		return 1
	fi
	# wall S cpu S maxrss_kb K status N
	set -- $(cat "$work/ru")
	_w=$2 _c=$4 _k=$6
}

_min() { awk -v a="$1" -v b="${2:-$1}" 'BEGIN { print (a < b ? a : b) }'; }

_row() {	# NAME COMMAND BEST CPU RSS
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$5" "$4" >> "$rows"
	printf '  %-16s %8.3f s %8.3f s CPU %8.1f MB\n' "$1" "$3" "$4" \
	    "$(awk -v k="$5" 'BEGIN { print k / 1024 }')" >&2
}

# bench_cmd NAME COMMAND [NAME2 COMMAND2]: with two, the runs alternate,
# so that a change in the machine's load hits both the same.
bench_cmd() {
	if [ -n "${BENCH_VS:-}" ] && [ -z "${_vs:-}" ]; then
		_vs=1
		_vs_cmd "$1" "$2"
		[ $# -ge 4 ] && _vs_cmd "$3" "$4"
		_vs=
		return 0
	fi
	_i=0 _runs=$BENCH_RUNS _b1= _c1= _k1=0 _b2= _c2= _k2=0
	while [ "$_i" -lt "$_runs" ]; do
		_run "$1" "$2" || return 1
		_b1=$(_min "$_w" "$_b1") _c1=$(_min "$_c" "$_c1")
		[ "$_k" -gt "$_k1" ] && _k1=$_k
		if [ $# -ge 4 ]; then
			_run "$3" "$4" || return 1
			_b2=$(_min "$_w" "$_b2") _c2=$(_min "$_c" "$_c2")
			[ "$_k" -gt "$_k2" ] && _k2=$_k
		fi
		# Short runs are noisier: more of them (a pair, closer yet).
		[ "$_i" -eq 0 ] && awk -v a="$_w" 'BEGIN { exit !(a < 1) }' &&
			_runs=$((BENCH_RUNS * ($# >= 4 ? 10 : 4)))
		_i=$((_i + 1))
	done
	_row "$1" "$2" "$_b1" "$_c1" "$_k1"
	[ $# -ge 4 ] && _row "$3" "$4" "$_b2" "$_c2" "$_k2"
	return 0
}

# With BENCH_VS=DIR, a command that runs one of our tools runs paired
# with the same command on DIR's tools (NAME@old), and the ratio of the
# two must stay within 5%: a change's cost, measured in one run.
_vs_cmd() {
	case $2 in
	*pd[a-z]*)
		bench_cmd "$1" "$2" "$1@old" "PATH=$BENCH_VS:\$PATH; $2"
		bench_ratio "$1" "$1@old" "<= 1.05x (against BENCH_VS)" ;;
	*)	bench_cmd "$1" "$2" ;;
	esac
}

_field() {	# NAME COLUMN: a column of NAME's row
	awk -F'\t' -v n="$1" -v c="$2" '$1 == n { v = $c } END { print v }' \
	    "$rows"
}

# _verdict A B 'target': _met is yes when A / B is within the target's
# first number, NO (and the run bad) when not, - when it has none.
_verdict() {
	_lim=$(echo "$3" | grep -Eo '[0-9]+(\.[0-9]+)?' | head -n 1)
	if [ -z "$_lim" ]; then
		_met=-
	elif awk -v a="$1" -v b="$2" -v l="$_lim" \
	    'BEGIN { exit !(a / b <= l) }'; then
		_met=yes
	else
		_met=NO
		bad=1
	fi
}

# bench_ratio NAME BASE 'target text'
bench_ratio() {
	_a=$(_field "$1" 3) _b=$(_field "$2" 3)
	case "$_a$_b" in
	*failed*|"")
		printf '%s/%s\t-\t-\t%s\tno (no time)\n' "$1" "$2" "$3" >> "$ratios"
		bad=1
		return 1;;
	esac
	# Small ratios get a third digit; the target sees the exact one.
	_r=$(awk -v a="$_a" -v b="$_b" \
	    'BEGIN { printf (a / b < 0.1 ? "%.3f" : "%.2f"), a / b }')
	_c=$(awk -v a="$(_field "$1" 5)" -v b="$(_field "$2" 5)" \
	    'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
	_verdict "$_a" "$_b" "$3"
	printf '%s/%s\t%sx\t%s\t%s\t%s\n' "$1" "$2" "$_r" "$_c" "$3" "$_met" \
	    >> "$ratios"
}

# bench_rss NAME MB [WHY]: NAME's peak RSS must stay under MB.
bench_rss() {
	_k=$(_field "$1" 4)
	if [ -z "$_k" ] || [ "$_k" -eq 0 ]; then
		_met="no (no figure)"
		bad=1
	elif [ "$_k" -lt $(($2 * 1024)) ]; then
		_met=yes
	else
		_met=NO
		bad=1
	fi
	printf '%s peak RSS\t%s MB\t-\tunder %s MB%s\t%s\n' "$1" \
	    "$(awk -v k="${_k:-0}" 'BEGIN { printf "%.1f", k / 1024 }')" \
	    "$2" "${3:+ ($3)}" "$_met" >> "$ratios"
}

# bench_rss_ratio NAME BASE 'target': NAME's peak RSS / BASE's.
bench_rss_ratio() {
	_a=$(_field "$1" 4) _b=$(_field "$2" 4)
	if [ -z "$_a" ] || [ -z "$_b" ] || [ "$_b" -eq 0 ]; then
		printf '%s/%s peak RSS\t-\t-\t%s\tno (no figure)\n' "$1" "$2" \
		    "$3" >> "$ratios"
		bad=1
		return 1
	fi
	_verdict "$_a" "$_b" "$3"
	printf '%s/%s peak RSS\t%sx\t-\t%s\t%s\n' "$1" "$2" \
	    "$(awk -v a="$_a" -v b="$_b" 'BEGIN { printf "%.2f", a / b }')" \
	    "$3" "$_met" >> "$ratios"
}

bench_cmd cat 'cat < "$BIG" | cat > /dev/null'
# issue 23: the floor, a walk of the record headers in 1 MiB reads.
PATH=$PATH:$PD_TBIN/bench
bench_cmd walk 'walk < "$BIG" > /dev/null'

for f in "$top"/tests/bench/*.bench; do
	[ -f "$f" ] || continue
	case "${f##*/}" in *"${BENCH_ONLY:-}"*) ;; *) continue;; esac
	echo "bench: ${f##*/}" >&2
	. "$f"
done

# issue 23: every tool's row on the stream against the record walk, with
# that issue's goals as targets (the exporters get the flame graph's).
_walk_goal() {
	case $1 in
	pdcat|pdstat|pdstat-json) echo '<= 1.2x (issue 23)' ;;
	pdsort|pdswap-swap) echo '<= 1.5x (issue 23)' ;;
	pddump|pddump-json) echo '<= 6x (issue 23)' ;;
	pddump-folded|pdstat-flamegraph|pdstat-pprof|pdstat-gecko)
		echo '<= 12x (issue 23)' ;;
	pdstat-top) echo '<= 10x (issue 23)' ;;
	pddump-s) echo '<= 20x (issue 23)' ;;
	*) echo 'information only' ;;
	esac
}
if [ -n "$(_field walk 3)" ]; then
	for _n in $(awk -F'\t' '$2 ~ /^pd[a-z]+ / && $2 ~ /"\$BIG"/ &&
	    $1 !~ /@old$/ && !seen[$1]++ { print $1 }' "$rows"); do
		bench_ratio "$_n" walk "$(_walk_goal "$_n")"
	done
fi
# issue 23: the views that name frames in at most 32 MB.
for _n in pddump-folded pddump-s pdstat-flamegraph pdstat-top pdstat-pprof \
    pdstat-gecko; do
	[ -n "$(_field "$_n" 4)" ] && bench_rss "$_n" 32 "issue 23"
done

{
	echo "Machine: $(nproc) CPUs," \
	    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
	    "Linux $(uname -r); load average at the end:" \
	    "$(cut -d ' ' -f 1-3 /proc/loadavg)."
	echo
	echo "Input: \`perf record -a -g\` pipe stream of" \
	    "$(size_mb "$BIG") MB ($(wc -c < "$BIG") bytes);" \
	    "best of $BENCH_RUNS runs, $((BENCH_RUNS * 4)) for commands under" \
	    "a second and $((BENCH_RUNS * 10)) for pairs compared closely" \
	    "(wall and CPU time, each on its own);" \
	    "peak RSS is that of the largest process."
	echo
	echo "| name | command | seconds | CPU seconds | peak RSS MB |"
	echo "| --- | --- | ---: | ---: | ---: |"
	awk -F'\t' '{
		gsub(/\|/, "\\|", $2)
		printf "| %s | `%s` | %s | %s | %s |\n", $1, $2,
		    ($3 == "failed" ? "failed" : sprintf("%.3f", $3)),
		    ($5 == "-" ? "-" : sprintf("%.3f", $5)),
		    sprintf("%.1f", $4 / 1024)
	}' "$rows"
	if [ -s "$ratios" ]; then
		echo
		echo "| ratio | value | CPU time ratio | target | met |"
		echo "| --- | ---: | ---: | --- | --- |"
		awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n",
		    $1, $2, $3, $4, $5 }' "$ratios"
	fi
} > "$work/table.md"
out=${BENCH_MD:-$top/build/bench.md}
mkdir -p "$(dirname "$out")" && cp "$work/table.md" "$out"
echo >&2
cat "$work/table.md"
exit "$bad"
