# SPDX-License-Identifier: MIT
# Frames in the vdso are named from this host's own vdso image, as perf
# names them (perf script: __vdso_clock_gettime and friends). The image
# is read through a memfd, whose inode a later memfd may take again: it
# must never be taken for another file already read: three processes,
# each with its own [vdso] map.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
command -v cc >/dev/null 2>&1 || skip "no cc"
cat > vd.c <<'C'
#include <time.h>
int
main(void)
{
	struct timespec ts, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += 300000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	do
		clock_gettime(CLOCK_MONOTONIC, &ts);
	while (ts.tv_sec < end.tv_sec || ts.tv_nsec < end.tv_nsec);
	return 0;
}
C
cc -O1 -o vd vd.c || fail "cc"
perf record -q -e cpu-clock -F 2000 -g -o vd.data -- \
    sh -c './vd & ./vd & ./vd; wait' 2> rec.err ||
	fail "perf record: $(cat rec.err)"
perf script -F ip,sym,dso -i vd.data 2>/dev/null | grep -c '__vdso_.*(\[vdso\])' > perf.n
[ "$(cat perf.n)" -gt 0 ] || skip "perf names no vdso frame here"
pddump -s vd.data > s.txt 2> err.txt || fail "pddump -s: $(cat err.txt)"
n=$(grep -c '__vdso_[a-z_]*+0x[0-9a-f]* (\[vdso\])' s.txt)
u=$(grep -c '\[unknown\] (\[vdso\])' s.txt)
echo "perf: $(cat perf.n) vdso frames named; pddump -s: $n named, $u unknown"
[ "$n" -gt 0 ] || fail "no vdso frame named ($u [unknown])"
[ "$u" -eq 0 ] || fail "$u vdso frames left [unknown]"
exit 0
