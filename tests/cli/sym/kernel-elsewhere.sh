# SPDX-License-Identifier: MIT
# Issue 20: kernel symbols of another host's kernel, found by the
# stream's kernel build id. Streams recorded here (perf record to a
# file, pdrecord's pipe stream with the build id in its kernel MMAP2,
# perf's pipe stream with it only at the end) are given a made-up kernel
# build id, byte for byte, so that their kernel is no longer this
# machine's, whose hostname and os release they still name. Then this
# machine's /proc/kallsyms is never used for them (their kernel frames
# stay [unknown], one note says which build id was missing and where it
# was looked for); a kallsyms filed under that id in perf's build-id
# cache names them, in the layout perf record writes (the oracle: what
# perf 6.1 puts in PERF_BUILDID_DIR when recording here) and in
# .build-id/xx/rest/kallsyms; --kallsyms FILE wins over both.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
command -v python3 >/dev/null || skip "no python3"
s=$(pwd)
fake=f00dfacef00dfacef00dfacef00dfacef00dface
mkdir -p empty/.build-id
export PERF_BUILDID_DIR="$s/perfcache"	# ours; perf takes --buildid-dir
unset DEBUGINFOD_URLS
work="dd if=/dev/zero of=/dev/null bs=4k count=20000 status=none"

# Kernel samples only: perf files the kernel's kallsyms (and the vdso),
# not copies of every user file hit.
perf --buildid-dir "$s/perfcache" record -q -g -e cpu-clock:k -F 4000 \
    -o perf.data -- $work 2>perf.err ||
	fail "perf record: $(cat perf.err)"
bid=$(pdstat --build-ids perf.data | awk '$2 == "[kernel.kallsyms]" { print $1 }')
[ ${#bid} = 40 ] || fail "perf.data: no kernel build id: $bid"
# The oracle: where perf record filed this kernel's kallsyms.
[ -f "perfcache/[kernel.kallsyms]/$bid/kallsyms" ] ||
	fail "perf wrote no [kernel.kallsyms]/$bid/kallsyms: $(ls -R perfcache | head)"
r=$(cd "perfcache/.build-id/$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-)" &&
    pwd -P) || fail "perf wrote no .build-id link for the kernel"
[ "$r" = "$(cd "perfcache/[kernel.kallsyms]/$bid" && pwd -P)" ] ||
	fail ".build-id link goes to $r"

# other IN OUT: IN with this kernel's build id turned into $fake.
other() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
a, b = bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4])
n = d.count(a)
if n == 0:
    sys.exit("no build id bytes in " + sys.argv[1])
open(sys.argv[2], "wb").write(d.replace(a, b))
' "$1" "$2" "$bid" "$fake" || fail "rewrite $1"
}
# kframes FILE: "kernel frames, named ones"
kframes() {
	echo "$(grep -c '(\[kernel\.kallsyms\])$' "$1") $(grep '(\[kernel\.kallsyms\])$' "$1" |
	    grep -vc '\[unknown\]')"
}
# one_note ERR: exactly one kernel note, the missing build id in it
one_note() {
	[ "$(grep -c 'kernel symbols' "$1")" = 1 ] &&
	_w="no kallsyms of the stream's kernel, build id $fake"
	_w="$_w ($(uname -r) on host $(uname -n); this machine's: $bid;"
	_w="$_w not in the build-id cache $2)"
	grep -qxF "pddump: kernel symbols are not shown: $_w; see --kallsyms" "$1" ||
		fail "note: $(cat "$1")"
}
# A kallsyms of that kernel whose names tell where they came from.
sed 's/^\([0-9a-f]* [A-Za-z]\) /\1 far_/' "perfcache/[kernel.kallsyms]/$bid/kallsyms" > far.kallsyms
mkdir -p "far/.build-id/f0/${fake#f0}" &&
	cp far.kallsyms "far/.build-id/f0/${fake#f0}/kallsyms" || fail "far cache"

# check NAME STREAM: its kernel frames by build id.
check() {
	_n=$1 _in=$2
	PERF_BUILDID_DIR=$s/empty pddump -s -t SAMPLE "$_in" > $_n.here 2>$_n.here.err ||
		fail "$_n: pddump -s"
	set -- $(kframes $_n.here)
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "$_n: no kernel frames named here ($1 $2)"
	other "$_in" $_n.far
	# This machine's kallsyms is of another kernel now: not used.
	PERF_BUILDID_DIR=$s/empty pddump -s -t SAMPLE $_n.far > $_n.none 2>$_n.none.err ||
		fail "$_n: pddump -s, no cache"
	[ "$(kframes $_n.none)" = "$1 0" ] ||
		fail "$_n: kernel frames named from another kernel: $(kframes $_n.none)"
	one_note $_n.none.err "$s/empty"
	# The cache's kallsyms of that kernel: the same frames, its names.
	PERF_BUILDID_DIR=$s/far pddump -s -t SAMPLE $_n.far > $_n.cache 2>$_n.cache.err ||
		fail "$_n: pddump -s, cache"
	grep -q 'kernel symbols' $_n.cache.err && fail "$_n: $(cat $_n.cache.err)"
	[ "$(grep -c ' far_[^ ]* (\[kernel\.kallsyms\])$' $_n.cache)" = "$2" ] ||
		fail "$_n: not every kernel frame named from the cache"
	sed 's/ far_/ /' $_n.cache | cmp -s - $_n.here ||
		fail "$_n: cache names differ: $(sed 's/ far_/ /' $_n.cache | diff - $_n.here | head -n 4)"
}

check perf perf.data
# -v: each place looked.
PERF_BUILDID_DIR=$s/empty pddump -v -s -t SAMPLE perf.far 2>&1 >/dev/null |
    grep '^pddump: \[kernel.kallsyms\]: ' > perf.v
_m="kallsyms: No such file or directory"
[ "$(cat perf.v)" = "pddump: [kernel.kallsyms]: $s/empty/.build-id/f0/${fake#f0}/$_m
pddump: [kernel.kallsyms]: $s/empty/[kernel.kallsyms]/$fake/$_m" ] ||
	fail "perf: -v: $(cat perf.v)"
PERF_BUILDID_DIR=$s/far pdstat --top 10 perf.far > perf.top || fail "perf: pdstat --top"
grep -q '\[k\] far_' perf.top || fail "perf: pdstat --top: $(cat perf.top)"
grep '\[k\] [a-z_]' perf.top | grep -v '\[k\] far_' &&
	fail "perf: pdstat --top names a kernel frame from elsewhere"
# --kallsyms FILE wins.
PERF_BUILDID_DIR=$s/far pddump -s -t SAMPLE --kallsyms /proc/kallsyms perf.far > perf.k ||
	fail "perf: --kallsyms"
cmp -s perf.k perf.here || fail "perf: --kallsyms lost to the cache"
# --symfs DIR: the recording host's root, its proc/kallsyms first.
mkdir -p root/proc && sed 's/ far_/ sfs_/' far.kallsyms > root/proc/kallsyms ||
	fail "root"
PERF_BUILDID_DIR=$s/far pddump -s -t SAMPLE --symfs root perf.far > perf.sfs ||
	fail "perf: --symfs"
sed 's/ sfs_/ far_/' perf.sfs | cmp -s - perf.cache ||
	fail "perf: --symfs: $(sed 's/ sfs_/ far_/' perf.sfs | diff - perf.cache | head -n 4)"
pdrecord -q -g -F 4000 -o pd.pd -- $work ||
	fail "pdrecord"
# pdrecord's kernel map gives the build id before the first sample.
pddump pd.pd | grep -m 1 ' SAMPLE \|MMAP2 misc=0x4001 .*build_id=' > first
grep -q "MMAP2 misc=0x4001 .* build_id=$bid .* filename=\[kernel.kallsyms\]_text" first ||
	fail "pdrecord: no kernel MMAP2 with its build id before the samples: $(cat first)"
check pdrecord pd.pd

# perf's own layout, keyed by the made-up id: [kernel.kallsyms]/ID/kallsyms.
mv "perfcache/[kernel.kallsyms]/$bid" "perfcache/[kernel.kallsyms]/$fake" || fail mv
pddump -s -t SAMPLE perf.far > layout 2>layout.err || fail "pddump -s, perf's cache"
cmp -s layout perf.here || fail "perf's layout: $(diff layout perf.here | head -n 4)"

# A stream whose kernel build id comes only at its end (pdrecord's
# kernel MMAP2 without its build id, as older pdrecord wrote it; perf
# 6.1's pipe streams carry none at all): its kernel frames are named as
# perf names them, from /proc/kallsyms (the stream names this host and
# boot), and a note says that the build id given later is another one.
off=$(pddump pdrecord.far | grep -m 1 'MMAP2 misc=0x4001 ' | cut -d' ' -f1)
python3 -c '
import sys
d = bytearray(open("pdrecord.far", "rb").read())
o = int(sys.argv[1], 16) + 4
assert d[o:o + 2] == b"\x01\x40"
d[o:o + 2] = b"\x01\x00"
open("late.pd", "wb").write(d)
' "$off" || fail "late.pd"
PERF_BUILDID_DIR=$s/empty pddump -s -t SAMPLE late.pd > late.txt 2>late.err ||
	fail "pddump -s late.pd"
cmp -s late.txt pdrecord.here || fail "late.pd: $(diff late.txt pdrecord.here | head -n 4)"
_w="build id $fake, given after its samples, is not this machine's kernel"
_w="$_w ($bid); the kernel names shown from /proc/kallsyms may be wrong"
grep -qxF "pddump: [kernel.kallsyms]: $_w" late.err ||
	fail "late.pd: no late note: $(cat late.err)"
exit 0
