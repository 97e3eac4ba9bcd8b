# SPDX-License-Identifier: MIT
# Issue 18, finding 9: with DEBUGINFOD_URLS set, the files a stream names
# make libdwfl ask the servers; a silent one used to cost its timeout per
# file. Now a server that does not answer in 2 s, or fails, is not asked
# again in the run (one note), and --no-debuginfod asks nothing. The
# server is a silent TCP listener on 127.0.0.1 that this test starts and
# stops; nothing else is contacted.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v strip >/dev/null 2>&1 || skip "no strip"

# Three stripped files with build ids and no debug info on this host.
for t in pdcat pdsort pdswap; do
	cp "$PD_BIN/$t" "$t.bin" && strip "$t.bin" || skip "cannot strip $t"
done
here=$(pwd)
mkpipe sym-file "$here/pdcat.bin" "$here/pdsort.bin" "$here/pdswap.bin" > m.pd ||
	fail "mkpipe sym-file"

# Not to be asked, libdebuginfod is not even loaded (dso.c's dlopen):
# libdw 0.188 loads it, and libcurl's thirty libraries with it, for the
# first file without debug info here. LD_DEBUG=files lists what the
# dynamic loader opens.
loaded() { grep -c 'file=libdebuginfod' "$1"; }
(unset DEBUGINFOD_URLS; LD_DEBUG=files pddump -s m.pd > /dev/null 2> ld.err) ||
	fail "pddump -s: $(cat ld.err)"
[ "$(loaded ld.err)" = 0 ] || fail "libdebuginfod loaded without DEBUGINFOD_URLS"
(unset DEBUGINFOD_URLS; LD_DEBUG=files pdstat --flamegraph f.svg m.pd > /dev/null 2> ld.err) ||
	fail "pdstat --flamegraph: $(cat ld.err)"
[ "$(loaded ld.err)" = 0 ] || fail "pdstat: libdebuginfod loaded without DEBUGINFOD_URLS"

python3 -c '
import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open("port", "w").write(str(s.getsockname()[1]))
held = []
t = time.time()
while time.time() - t < 60:
    s.settimeout(1)
    try:
        held.append(s.accept()[0])
    except socket.timeout:
        pass
' &
lpid=$!
trap 'kill $lpid 2>/dev/null' EXIT
i=0
while [ ! -s port ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -s port ] || fail "listener did not start"
port=$(cat port)
export DEBUGINFOD_CACHE_PATH="$here/cache" DEBUGINFOD_TIMEOUT=30
export DEBUGINFOD_URLS="http://127.0.0.1:$port/"
unset DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE

# Silent: one query waits 2 s, the others none (30 s each before).
start=$(date +%s)
LD_DEBUG=files timeout 20 pddump -s m.pd > s.txt 2> s.err
rc=$?
[ "$rc" = 0 ] || fail "pddump -s: exit $rc (124: too slow): $(cat s.err)"
secs=$(( $(date +%s) - start ))
grep -q "pddump: debuginfod:" s.err ||
	skip "this libdw asks no debuginfod (no note in ${secs}s)"
[ "$secs" -le 6 ] || fail "pddump -s took ${secs}s"
[ "$(grep -c "debuginfod: no server answered in 2 s; not asked again" s.err)" = 1 ] ||
	fail "note: $(cat s.err)"
[ "$(grep -c "SAMPLE" s.txt)" = 3 ] || fail "samples: $(cat s.txt)"
[ "$(loaded s.err)" -ge 1 ] || fail "libdebuginfod not loaded with DEBUGINFOD_URLS"
LD_DEBUG=files pddump --no-debuginfod -s m.pd > /dev/null 2> ld.err ||
	fail "pddump --no-debuginfod: $(cat ld.err)"
[ "$(loaded ld.err)" = 0 ] || fail "libdebuginfod loaded with --no-debuginfod"

start=$(date +%s)
timeout 20 pdstat --top 3 m.pd > /dev/null 2> t.err || fail "pdstat --top: exit $?"
[ $(( $(date +%s) - start )) -le 6 ] || fail "pdstat --top too slow"
grep -q "debuginfod: no server answered" t.err || fail "pdstat note: $(cat t.err)"

# --no-debuginfod: no query at all.
for tool in "pddump -s" "pdstat --top 3"; do
	start=$(date +%s)
	timeout 20 $tool --no-debuginfod m.pd > /dev/null 2> n.err ||
		fail "$tool --no-debuginfod: exit $?"
	[ $(( $(date +%s) - start )) -le 1 ] || fail "$tool --no-debuginfod asked"
	grep -q ": debuginfod:" n.err && fail "$tool --no-debuginfod: $(cat n.err)"
done

# A server that refuses: said once, not asked again.
kill $lpid 2>/dev/null
wait $lpid 2>/dev/null
rm -rf cache
timeout 20 pddump -s m.pd > /dev/null 2> r.err || fail "refused: exit $?"
[ "$(grep -c "debuginfod: .*not asked again" r.err)" = 1 ] ||
	fail "refused: $(cat r.err)"
exit 0
