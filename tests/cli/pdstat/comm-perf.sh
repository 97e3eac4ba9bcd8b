# SPDX-License-Identifier: MIT
# Differential test: pdstat's comm and process tables equal perf's, on
# recordings where a sample's comm depends on the order of the records:
# - a shell that spins, then execs ./hot: its samples before the exec
#   are sh's, the others hot's (perf report --sort comm), though the
#   thread's last comm is hot;
# - a system-wide recording of shells that fork and exec short-lived
#   programs while another CPU is busy: COMM and FORK records of one
#   CPU reach the stream after the samples another CPU took later;
# each as recorded and after pdsort (time order): both equal perf's.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .

# perf's counts by comm, summed over events (and group members):
# "count name" lines.
perf_comms() {
	perf report -i "$1" --stdio --sort comm -F sample,comm -g none \
	    --no-branch-stack -w 12,40 2>/dev/null |
	    awk '/^#/ || NF == 0 { next }
		{ n = 0; for (i = 1; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i
		  name = $i; for (i++; i <= NF; i++) name = name " " $i
		  c[name] += n }
		END { for (k in c) print c[k], k }'
}

# pdstat's comm table (the ten busiest) as "count name" lines.
pdstat_comms() {
	pdstat "$1" | awk '$1 == "comm" && $2 == "samples" { t = 1; next }
		t && NF == 0 { t = 0 } t && /^  / { t = 0 }
		t { print $NF, substr($0, 1, 16) }' |
	    sed 's/ *$//'
}

# Every row of pdstat's table is perf's count for that comm, and the
# table holds perf's busiest comms (a tie at its end aside).
check() {	# stream, what it is
	perf_comms "$1" | sort -k1,1nr -k2 > perf.txt
	pdstat_comms "$1" > pd.txt
	[ -s pd.txt ] || fail "$2: pdstat has no comm table"
	while read -r n name; do
		grep -qx "$n $name" perf.txt ||
			fail "$2: pdstat $name $n, perf: $(grep " $name\$" perf.txt)"
	done < pd.txt
	k=$(wc -l < pd.txt)
	last=$(tail -1 pd.txt | cut -d' ' -f1)
	head -n "$k" perf.txt | while read -r n name; do
		[ "$n" -le "$last" ] || grep -qx "$n $name" pd.txt ||
			fail "$2: perf's $name ($n) is not in pdstat's table"
	done || exit 1
}

# 1. spin, then exec.
pdrecord -q -o exec.pd -- sh -c \
    'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exec ./hot 200' ||
	fail "pdrecord"
check exec.pd "sh then hot"
grep -q '^[0-9]* sh$' pd.txt && grep -q '^[0-9]* hot$' pd.txt ||
	fail "sh then hot: not both named: $(cat pd.txt)"
pdsort exec.pd > exec.sorted.pd || fail "pdsort"
check exec.sorted.pd "sh then hot, sorted"
# One process: all its samples, named as it ends.
pdstat exec.pd | awk '$1 == "pid" { getline; print $3 }' > name.txt
[ "$(cat name.txt)" = hot ] || fail "process named $(cat name.txt), not hot"

# 2. Short processes on every CPU, one CPU kept busy.
perf record -q -a -o sys.pd -- sh -c '
	sh -c "i=0; while [ \$i -lt 60000 ]; do i=\$((i+1)); done" &
	for k in 1 2 3 4 5 6 7 8; do
		sh -c "./hot 20; j=0; while [ \$j -lt 3000 ]; do j=\$((j+1)); done"
	done
	wait' 2>perf.err || fail "perf record: $(cat perf.err)"
check sys.pd "system-wide"
pdsort sys.pd > sys.sorted.pd || fail "pdsort"
check sys.sorted.pd "system-wide, sorted"
exit 0
