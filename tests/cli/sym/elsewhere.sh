# SPDX-License-Identifier: MIT
# Issue 20: symbols for a stream whose files are not (or no longer) on
# this machine. The test program is recorded, its files carried off as
# pddump(1)'s EXAMPLES say (pdstat --build-ids, tar), then rebuilt so
# that this machine's copy no longer matches; the right file then comes
# (a) from a --symfs tree, (b) from perf's build-id cache, (c) from a
# real debuginfod serving a directory. Each time pddump -s names every
# frame as perf script does with the same files in place, and
# pdstat --top finds the hot function. An identical copy of the file
# (cp; mv) is used: its build id, in the MMAP2 record, vouches for it.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
# debuginfod 0.188 cannot be told to listen on 127.0.0.1 alone: the case
# runs in a network namespace of its own, where the loopback (brought
# up here) is the only interface.
if [ -z "${PD_NETNS:-}" ] && unshare -n true 2>/dev/null; then
	PD_NETNS=1 exec unshare -n sh "$0"
fi
if [ -n "${PD_NETNS:-}" ]; then
	python3 -c 'import fcntl, socket, struct
s = socket.socket()
# SIOCSIFFLAGS: IFF_UP | IFF_RUNNING
fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", 0x41))' ||
		fail "loopback not up in the namespace"
fi
command -v tar >/dev/null || skip "no tar"
. "$PD_TOP/tests/cli/sym/hot.sub"
here=$(pwd)
build_hot "$here/p"
cd p || fail "cd p"
# User frames only: this is about files; kernel symbols of another host
# are --kallsyms's (perf under --symfs takes none of this host's).
pdrecord -q -g -F 999 -e cpu-clock:u -o ../hot.pd -- ./hot 200 ||
	fail "pdrecord"
cd "$here" || fail "cd"
export PERF_BUILDID_DIR="$here/empty-cache"	# not root's ~/.debug
unset DEBUGINFOD_URLS
export DEBUGINFOD_CACHE_PATH="$here/dcache"

# compare NAME [ARGS]: pddump -s ARGS against perf script (whose own
# options are in $perfopt), frame by frame; then pdstat --top ARGS.
compare() {
	_n=$1; shift
	# shellcheck disable=SC2086
	perf $perfpre script -i - $perfopt --ns -F comm,tid,time,ip,sym,symoff,dso \
	    < hot.pd > $_n.perf 2>$_n.perr || fail "$_n: perf script: $(cat $_n.perr)"
	pddump -s --json -t SAMPLE "$@" hot.pd > $_n.json 2>$_n.notes ||
		fail "$_n: pddump -s"
	python3 "$PD_TOP/tests/cli/sym/symcmp.py" --names-more $_n.json $_n.perf > $_n.cmp ||
		fail "$_n: pddump -s and perf script differ: $(cat $_n.cmp)"
	grep -q '"sym":"leaf".*libhot.so' $_n.json || fail "$_n: no leaf"
	grep -q '"sym":"middle","symoff":[0-9]*,"dso":"[^"]*/hot"' $_n.json ||
		fail "$_n: no middle in hot: $(cat $_n.notes)"
	pdstat --top 3 "$@" hot.pd > $_n.top 2>$_n.terr || fail "$_n: pdstat --top"
	grep -q '] leaf ' $_n.top || fail "$_n: pdstat --top: $(cat $_n.top)"
}

# The build ids came in the MMAP2 records, up front.
pdstat --build-ids hot.pd > ids || fail "pdstat --build-ids"
grep -q "^[0-9a-f]\{40\} $here/p/hot\$" ids || fail "build ids: $(cat ids)"
pddump -t MMAP2 hot.pd | grep -q "misc=0x4002 .*build_id=.*filename=$here/p/hot " ||
	fail "no MMAP2 build id of hot"

# An identical copy at the path, another inode: used.
cp p/hot p/t && mv p/t p/hot || fail "cp; mv"
perfopt= perfpre=
compare copy
[ -s copy.notes ] && fail "copy: notes: $(cat copy.notes)"

# The recipe of pddump(1): the files by path, into a --symfs tree.
sed -n 's|^[0-9a-f]* /||p' ids | tar -C / -chf - -T - > files.tar ||
	fail "tar the files"
mkdir symfs && tar -C symfs -xf files.tar || fail "untar"
[ -f "symfs$here/p/hot" ] || fail "hot not in the tar: $(tar -tf files.tar)"
# The recording host's debug files by build id (libc's, when this
# machine has them: we find them in its /usr/lib/debug, perf under
# --symfs only).
while read -r id path; do
	d=.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	[ -f "/usr/lib/debug/$d" ] || continue
	mkdir -p "symfs/usr/lib/debug/${d%/*}" &&
		cp "/usr/lib/debug/$d" "symfs/usr/lib/debug/$d" || fail "debug file"
done < ids
mkdir orig && cp p/hot p/libhot.so orig/ || fail "keep"

# Rebuilt otherwise: this machine's files no longer match.
build_hot "$here/p" -O2 -DREBUILT
pddump -s -t SAMPLE hot.pd > /dev/null 2> stale.notes || fail "pddump -s stale"
grep -q "p/hot: build id .* does not match" stale.notes ||
	fail "stale: $(cat stale.notes)"

# (a) --symfs
perfopt="--symfs $here/symfs"
compare symfs --symfs symfs
[ -s symfs.notes ] && fail "symfs: notes: $(cat symfs.notes)"
pddump -s -v --symfs symfs -t SAMPLE hot.pd 2>&1 >/dev/null |
	grep -q "p/hot: symfs$here/p/hot: used" || fail "-v says no path"

# (b) perf's build-id cache, as perf buildid-cache fills it
export PERF_BUILDID_DIR="$here/cache"
# (perf takes the directory from --buildid-dir, and one -a at a time)
for f in hot libhot.so; do
	perf --buildid-dir "$here/cache" buildid-cache -a "$here/orig/$f" \
	    2>bc.err || fail "perf buildid-cache: $(cat bc.err)"
done
[ -f "$here/cache/.build-id/$(sed -n "s|^\(..\)\([0-9a-f]*\) $here/p/hot\$|\1/\2|p" ids)/elf" ] ||
	fail "perf buildid-cache wrote elsewhere: $(find cache)"
perfopt= perfpre="--buildid-dir $here/cache"
compare cache
[ -s cache.notes ] && fail "cache: notes: $(cat cache.notes)"
export PERF_BUILDID_DIR="$here/empty-cache"

# Nowhere: said once per file, with where else it looked.
pddump -s --symfs "$here/empty" -t SAMPLE hot.pd > /dev/null 2> none.notes
[ "$(grep -c "p/hot: build id .*looked also in: --symfs $here/empty" none.notes)" = 1 ] ||
	fail "none: $(cat none.notes)"

# (c) debuginfod: a real server on 127.0.0.1 serving orig/.
if ! command -v debuginfod >/dev/null 2>&1; then
	echo "debuginfod: not installed (Debian debuginfod); (c) skipped"
	exit 0
fi
if [ -z "${PD_NETNS:-}" ]; then
	echo "debuginfod: no network namespace here, and it would listen on every interface; (c) skipped"
	exit 0
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -F -p "$port" -d "$here/db.sqlite" -t 0 -g 0 orig > d.log 2>&1 &
dpid=$!
trap 'kill $dpid 2>/dev/null; wait $dpid 2>/dev/null' EXIT
export DEBUGINFOD_URLS="http://127.0.0.1:$port"
bid=$(sed -n "s|^\([0-9a-f]*\) $here/p/hot\$|\1|p" ids)
i=0
# Until it has scanned orig/ (each try with a fresh cache: the client
# remembers a miss).
until rm -rf poll && DEBUGINFOD_CACHE_PATH="$here/poll" \
    debuginfod-find executable "$bid" > /dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "debuginfod did not serve hot: $(tail -3 d.log)"
	sleep 0.1
done
rm -rf dcache
# perf script with the same files in place: perf's cache from (b).
perf --buildid-dir "$here/cache" script -i - --ns \
    -F comm,tid,time,ip,sym,symoff,dso < hot.pd > dfd.perf 2>/dev/null ||
	fail "perf script (cache)"
pddump -s --json -t SAMPLE hot.pd > dfd.json 2> dfd.notes || fail "dfd: pddump -s"
python3 "$PD_TOP/tests/cli/sym/symcmp.py" --names-more dfd.json dfd.perf > dfd.cmp ||
	fail "dfd: pddump -s and perf script differ: $(cat dfd.cmp) $(cat dfd.notes)"
grep -q '"sym":"middle","symoff":[0-9]*,"dso":"[^"]*/hot"' dfd.json ||
	fail "dfd: no middle in hot: $(cat dfd.notes)"
[ -f "dcache/$bid/executable" ] || fail "dfd: not from debuginfod"
pdstat --top 3 hot.pd > dfd.top 2>/dev/null || fail "dfd: pdstat --top"
grep -q '] leaf ' dfd.top || fail "dfd: pdstat --top: $(cat dfd.top)"
# --no-debuginfod: not asked.
rm -rf dcache
pddump -s --no-debuginfod -t SAMPLE hot.pd > /dev/null 2>&1
[ -d "dcache/$bid" ] && fail "--no-debuginfod asked"
exit 0
