# SPDX-License-Identifier: MIT
# The benchmark harness on a small stream: rusage measures what it
# should, and bench.sh times the pdcat rows and writes its table.
. "$PD_TOP/tests/cli/lib.sh"
ru=$PD_TBIN/bench/rusage
[ -x "$ru" ] || fail "no $ru"

# rusage: the command's status, and a peak that sees a 16 MiB child.
"$ru" -o r.txt 'exit 3'
[ $? -eq 3 ] || fail "rusage did not pass on the exit status"
grep -Eq '^wall [0-9.]+ cpu [0-9.]+ maxrss_kb [0-9]+ status 3$' r.txt ||
	fail "rusage output: $(cat r.txt)"
# sort holds its one 16 MiB line in memory.
"$ru" -o r.txt 'head -c 16777216 /dev/zero | sort > /dev/null' ||
	fail "rusage sort"
set -- $(cat r.txt)
[ "$6" -ge 16384 ] || fail "peak $6 KB for a 16 MiB child"
"$ru" -o r.txt 'true'
set -- $(cat r.txt)
[ "$6" -lt 16384 ] || fail "peak $6 KB for true"

# bench.sh on a small pdcat stream of its own, only the pdcat rows.
need_perf
need_root
mkdir -p cache/pdtools
perf record -q -e cpu-clock -F 999 -g -o - -- \
    sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' \
    > cache/pdtools/bench.data 2> rec.err || fail "perf record: $(cat rec.err)"
XDG_CACHE_HOME=$PWD/cache BENCH_MIN_MB=0 BENCH_RUNS=1 BENCH_ONLY=pdcat \
    BENCH_MD=$PWD/bench.md \
    sh "$PD_TOP/tests/bench/bench.sh" > out.md 2> err.txt
rc=$?
# Timing targets are not asserted on a tiny input: only the exit
# statuses the harness may give, and the table it writes.
[ "$rc" -le 1 ] || fail "bench.sh exit $rc: $(cat err.txt)"
grep -q '^| cat | `cat < "$BIG" \\| cat > /dev/null` |' out.md ||
	fail "no cat row: $(cat out.md err.txt)"
grep -q '^| pdcat | ' out.md || fail "no pdcat row: $(cat out.md)"
grep -q '^| pdcat/cat | [0-9.]*x | ' out.md || fail "no pdcat/cat ratio"
# ASan's shadow memory makes the sanitized pdcat's peak far larger.
met=yes
[ "${PD_SANITIZE:-}" = 1 ] && met='[a-zA-Z]*'
grep -q "^| pdcat peak RSS | [0-9.]* MB | - | under 16 MB | $met |\$" out.md ||
	fail "pdcat peak RSS row: $(cat out.md)"
grep -q failed out.md && fail "a row failed: $(cat out.md err.txt)"
cmp -s out.md bench.md || fail "BENCH_MD is not the table printed"
echo "harness ok"
