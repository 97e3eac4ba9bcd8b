# SPDX-License-Identifier: MIT
# pdstat --gecko: the Firefox Profiler's gecko JSON. On the shipped
# captures (fp callchains, dwarf, tracepoints, several events, -z,
# s390x) every table and index is checked in Python (geckocheck.py),
# the samples are pdstat's and the stacks pddump --folded's. Then the
# Firefox Profiler itself (its command-line package from npm, installed
# by make deps-npm) loads a profile: the threads are there and the call
# tree has the hot path; skipped, with the reason, where npm could not
# install it (CI has no network beyond Debian's archive).
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
need_corpus
chk=$PD_TOP/tests/cli/export/geckocheck.py

for f in callchain.pipe.data callchain.file.data dwarf.pipe.data \
    sched.pipe.data switch-addr.pipe.data zstd.pipe.data \
    bigendian/s390x-callchain.pipe.data bigendian/s390x-sched.pipe.data; do
	corpus_have "$C/$f" || continue
	n=$(basename "$f" .data)
	pdstat --json --gecko "$n.gecko.json" "$C/$f" > "$n.json" \
	    2> "$n.err" || fail "pdstat --gecko $f: $(cat "$n.err")"
	pddump --folded "$C/$f" > "$n.folded" 2> /dev/null ||
		fail "pddump --folded $f"
	python3 "$chk" "$n.gecko.json" "$n.json" "$n.folded" || exit 1
done

# --call-graph dwarf: unwound by default (deeper than the one frame
# recorded), as pddump's; with --no-unwind, as recorded, both.
f=$C/dwarf.pipe.data
pdstat --json --no-unwind --gecko nu.gecko.json "$f" > nu.json 2> nu.err ||
	fail "--no-unwind: $(cat nu.err)"
pddump --folded --no-unwind "$f" > nu.folded 2> /dev/null ||
	fail "pddump --no-unwind"
python3 "$chk" nu.gecko.json nu.json nu.folded || exit 1
# user_deep: the stacks with more than one user frame (not _[k]).
user_deep() {
	awk -F';' '{ u = 0; for (i = 2; i <= NF; i++) if ($i !~ /_\[k\]( [0-9]+)?$/) u++
	    if (u > 1) deep++ } END { print deep + 0 }' "$1"
}
[ "$(user_deep dwarf.pipe.folded)" -gt 0 ] ||
	fail "dwarf: not unwound: $(head -3 dwarf.pipe.folded)"
[ "$(user_deep nu.folded)" -eq 0 ] ||
	fail "dwarf --no-unwind: unwound: $(head -3 nu.folded)"
grep -q 'could not be unwound' dwarf.pipe.err nu.err &&
	fail "dwarf: stacks not unwound: $(cat dwarf.pipe.err)"

# A cut stream writes nothing; "-" writes the same bytes as a file.
head -c 20000 "$C/callchain.pipe.data" > cut.data
pdstat --gecko cut.json cut.data > /dev/null 2>&1
[ $? -eq 1 ] && [ ! -e cut.json ] || fail "cut stream: a profile, or exit 0"
pdstat --gecko - "$C/callchain.pipe.data" > out.json 2> /dev/null ||
	fail "--gecko -"
cmp -s out.json callchain.pipe.gecko.json || fail "--gecko -: other bytes"

cli=${PD_PROFILER_CLI:-$HOME/.cache/pdtools/profiler-cli/node_modules/.bin/profiler-cli}
if [ ! -x "$cli" ] || ! command -v node >/dev/null 2>&1; then
	echo "skipped: the Firefox Profiler CLI: not installed (make deps-npm: npm could not be reached)"
	exit 0
fi
# It keeps the profile in a daemon, started by `profiler-cli load`, which
# gives it 500 ms to come up: on a loaded machine that can be too
# little, so load is tried again (three times in all). Its sessions live
# in the case's own HOME; it is stopped at the end.
HOME=$PWD PROFILER_CLI_SESSION_DIR=$PWD/.profiler-cli
export HOME PROFILER_CLI_SESSION_DIR
trap '"$cli" stop pd > /dev/null 2>&1' EXIT
for try in 1 2 3; do
	"$cli" load "$PWD/callchain.pipe.gecko.json" --session pd \
	    > load.txt 2>&1 && "$cli" status --session pd > status.txt 2>&1 &&
		break
	"$cli" stop pd > /dev/null 2>&1
	[ $try -lt 3 ] || fail "profiler-cli load: $(cat load.txt status.txt)"
	sleep 1
done
"$cli" thread list --session pd > threads.txt 2>&1 || fail "thread list: $(cat threads.txt)"
grep -q ' gzip  .* 12337 ' threads.txt || fail "no gzip thread: $(cat threads.txt)"
"$cli" thread samples --session pd > samples.txt 2>&1 ||
	fail "thread samples: $(cat samples.txt)"
# gzip's hot path: its own code (stripped), then read() in libc.
grep -q '/usr/bin/gzip!\[unknown\] - total: 5[0-9][0-9] ' samples.txt &&
    grep -q 'libc.so.6!read - total: 14 ' samples.txt ||
	fail "gzip's hot path not in the call tree: $(cat samples.txt)"
echo "Firefox Profiler: $(grep -c ' t-[0-9]' threads.txt) threads, gzip's hot path"
