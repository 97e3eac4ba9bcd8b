#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo: real pipelines through the pdtools, end to end.
#   0. pdrecord | pdsort | pdstat, and pdrecord | perf report --stats -i -
#   1. perf record -o - | pdcat | perf report --stats -i -
#   2. a file-mode perf.data turned into a stream by pdcat, read by
#      perf script -i -, compared with perf script on the file itself
# Needs perf and root (perf_event_open); mounts nothing. Exit 0 when every
# step gave what it should, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
: "${PD_BIN:=$top/bin}"
PATH=$PD_BIN:$PATH

die() { echo "demo: $*" >&2; exit 1; }

command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 ||
	die "perf is not installed: run 'make deps' as root (package linux-perf)"
command -v pdcat >/dev/null 2>&1 || die "no pdcat in $PD_BIN: run make"
if [ "$(id -u)" != 0 ]; then
	p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
	[ "$p" -le 1 ] || die "perf record needs root here" \
	    "(kernel.perf_event_paranoid is $p): run 'sudo make demo'"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pddemo.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 1

# A short CPU-bound workload (about half a second), so that perf has
# samples with call chains to take.
spin='i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done'
rec() { perf record -q -e cpu-clock -F 999 -g "$@" -- sh -c "$spin"; }
samples() {	# the SAMPLE count in perf report --stats output
	awk '/^ *SAMPLE events:/ { print $3; exit }'
}

echo "== 0. pdrecord -g | pdsort | pdstat; pdrecord | perf report --stats -i -"
if command -v pdrecord >/dev/null 2>&1; then
	pdrecord -q -e cpu-clock -F 999 -g -- sh -c "$spin" 2> rec.err |
	    pdsort 2> sort.err | pdstat > pdstat.txt 2> stat.err ||
		die "pipeline 0 failed: $(cat rec.err sort.err stat.err)"
	sed -n '1,20p' pdstat.txt | sed 's/^/   | /'
	pdrecord -q -e cpu-clock -F 999 -g -- sh -c "$spin" 2> rec.err |
	    perf report --stats -i - > stats0.txt 2> report.err ||
		die "pdrecord | perf report failed: $(cat rec.err report.err)"
	n0=$(samples < stats0.txt)
	[ "${n0:-0}" -gt 0 ] || die "perf report counted no samples"
	echo "   perf report read $n0 samples from pdrecord's stream"
else
	echo "   (pdrecord not built)"
fi
echo

echo "== 1. perf record -o - | pdcat | perf report --stats -i -"
rec -o - 2> rec.err | pdcat 2> cat.err | perf report --stats -i - \
    > stats.txt 2> report.err ||
	die "pipeline 1 failed: $(cat rec.err cat.err report.err)"
# The aggregated counts, without the per-event repeat below them.
awk '/^[^ ].*stats:$/ && !/^Aggregated/ { exit } /events:/' stats.txt
n1=$(samples < stats.txt)
[ "${n1:-0}" -gt 0 ] || die "perf report counted no samples"
echo "   perf report read $n1 samples from pdcat's stream"
echo

echo "== 2. perf record -o perf.data (file mode); pdcat perf.data | perf script -i -"
rec -o perf.data 2> rec.err || die "perf record failed: $(cat rec.err)"
perf script -i perf.data > file.txt 2> /dev/null ||
	die "perf script -i perf.data failed"
pdcat perf.data 2> cat.err | perf script -i - > pipe.txt 2> /dev/null ||
	die "pdcat perf.data | perf script -i - failed: $(cat cat.err)"
echo "   the first samples perf script read from pdcat's stream:"
grep -v '^$' pipe.txt | head -n 8 | sed 's/^/   | /'
echo "   perf script on the file: $(wc -l < file.txt) lines;" \
    "on pdcat's stream: $(wc -l < pipe.txt) lines"
cmp -s file.txt pipe.txt || die "the two perf script outputs differ"
echo "   identical"
echo

echo "demo: all pipelines ran"
