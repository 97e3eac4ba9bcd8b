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
perf script -F ip,sym,dso -i vd.data > perf.txt 2>/dev/null
pn=$(grep -c '__vdso_.*(\[vdso\])' perf.txt)
pu=$(grep -c '\[unknown\] (\[vdso\])' perf.txt)
[ "$pn" -gt 0 ] || skip "perf names no vdso frame here"
pddump -s vd.data > s.txt 2> err.txt || fail "pddump -s: $(cat err.txt)"
n=$(grep -c '__vdso_[a-z_]*+0x[0-9a-f]* (\[vdso\])' s.txt)
u=$(grep -c '\[unknown\] (\[vdso\])' s.txt)
echo "perf: $pn vdso frames named, $pu unknown; pddump -s: $n named, $u unknown"
[ "$n" -gt 0 ] || fail "no vdso frame named ($u [unknown])"
# pddump -s shows a sample's ip twice (its sym: line and the callchain's
# first frame), perf script once: no more unknown than perf's, twice,
# give or take one in a hundred. (A clean-clone run once had 1 of 2150
# where perf had none, not understood yet; the memfd mix-up this case is
# for left every one of them [unknown].)
[ "$u" -le $((2 * pu + n / 100)) ] ||
	fail "$u vdso frames left [unknown], perf $pu: $(grep -m 3 -B1 '\[unknown\] (\[vdso\])' s.txt)"
exit 0
