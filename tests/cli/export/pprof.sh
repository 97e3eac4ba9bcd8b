# SPDX-License-Identifier: MIT
# pdstat --pprof read by the real pprof (go tool pprof, Debian's
# golang-go) on the shipped captures: fp callchains (pipe and file
# mode), --call-graph dwarf, tracepoints, several events, -z, and
# big-endian s390x ones. Per event the -raw totals are pdstat's sample
# count and period sum; -traces of the folded event are pddump --folded's
# stacks; -tags has pid, tid, comm, cpu and host; two recordings merge
# (-proto a b) and diff (-diff_base). A program recorded here (root):
# -top's first function is pdstat --top 1's.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v go >/dev/null 2>&1 ||
	skip "no go (Debian's golang-go: make deps): go tool pprof is the oracle"
need_corpus
# pprof writes nothing here, but whatever go may keep stays in the case.
HOME=$PWD GOCACHE=$PWD/gocache PPROF_TMPDIR=$PWD
export HOME GOCACHE PPROF_TMPDIR
chk=$PD_TOP/tests/cli/export/pprofcheck.py
pp() { go tool pprof -symbolize=none "$@"; }

# export_one NAME FILE: the profile of FILE checked as above.
export_one() {
	_n=$1 _f=$2
	pdstat --json --top 1 --pprof "$_n.pb.gz" "$_f" > "$_n.json" \
	    2> "$_n.err" || fail "pdstat --pprof $_f: $(cat "$_n.err")"
	pddump --folded "$_f" > "$_n.folded" 2> /dev/null ||
		fail "pddump --folded $_f"
	pp -raw "$_n.pb.gz" > "$_n.raw" 2> "$_n.perr" ||
		fail "pprof -raw $_n: $(cat "$_n.perr")"
	python3 "$chk" raw "$_n.json" "$_n.raw" || exit 1
	pp -tags "$_n.pb.gz" > "$_n.tags" 2> "$_n.perr" ||
		fail "pprof -tags $_n: $(cat "$_n.perr")"
	python3 "$chk" tags "$_n.json" "$_n.tags" || exit 1
	# The folded event is the first whose sample comes: try each.
	_t=
	for _e in $(python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["events"]:
    if e["samples"] > 0:
        print(e["name"])' "$_n.json"); do
		pp -traces -sample_index="${_e}_samples" "$_n.pb.gz" \
		    > "$_n.$_e.traces" 2> "$_n.perr" ||
			fail "pprof -traces $_n $_e: $(cat "$_n.perr")"
		_t="$_t $_n.$_e.traces"
	done
	python3 "$chk" traces "$_n.folded" $_t || exit 1
}

for f in callchain.pipe.data callchain.file.data dwarf.pipe.data \
    sched.pipe.data switch-addr.pipe.data zstd.pipe.data \
    bigendian/s390x-callchain.pipe.data bigendian/s390x-sched.pipe.data; do
	corpus_have "$C/$f" || continue
	export_one "$(basename "$f" .data)" "$C/$f"
done

# Two recordings of the same events: one profile, and their difference.
pp -proto callchain.pipe.pb.gz zstd.pipe.pb.gz > merged.pb.gz \
    2> merge.err || fail "pprof -proto a b: $(cat merge.err)"
pp -raw merged.pb.gz > merged.raw 2> merge.err ||
	fail "pprof -raw merged: $(cat merge.err)"
python3 - callchain.pipe.json zstd.pipe.json merged.raw <<'EOP' || exit 1
import json, sys
sys.path.insert(0, __import__("os").environ["PD_TOP"] + "/tests/cli/export")
import pprofcheck
a, b = (json.load(open(p)) for p in sys.argv[1:3])
tot = pprofcheck.raw_totals(sys.argv[3])
for x, y in zip(a["events"], b["events"]):
    n = x["name"]
    if tot[n + "_samples"] != x["samples"] + y["samples"] or \
            tot[n] != x["period"] + y["period"]:
        pprofcheck.die("merged %s: %d, %d" % (n, tot[n + "_samples"], tot[n]))
print("merged: the sums of both")
EOP
# -diff_base: every node shown, in ns, the total is the difference of
# the two recordings' cpu-clock periods; of a profile and itself, 0.
diff_total() {
	pp -top -nodecount=1000000 -nodefraction=0 -unit=ns \
	    -diff_base="$1" "$2" > diff.top 2> diff.err ||
		fail "pprof -diff_base $1 $2: $(cat diff.err)"
	# "accounting for -166000000ns, ...", or for none "for 0, ..."
	sed -n 's/^Showing nodes accounting for \(-*[0-9]*\)\(ns\)*, .*/\1/p' \
	    diff.top
}
period() {
	python3 -c 'import json, sys
print([e["period"] for e in json.load(open(sys.argv[1]))["events"]
       if e["name"] == "cpu-clock"][0])' "$1"
}
want=$(( $(period zstd.pipe.json) - $(period callchain.pipe.json) ))
got=$(diff_total callchain.pipe.pb.gz zstd.pipe.pb.gz)
[ "$got" = "$want" ] ||
	fail "pprof -diff_base: total $got, want $want: $(head -n 8 diff.top)"
got=$(diff_total zstd.pipe.pb.gz zstd.pipe.pb.gz)
[ "$got" = 0 ] || fail "pprof -diff_base of itself: total $got"
echo "diff_base: total $want ns, as the periods' difference"

# A program of ours, named to its functions: -top and the stacks.
if [ "$(id -u)" = 0 ] && command -v cc >/dev/null 2>&1; then
	. "$PD_TOP/tests/cli/flame/lib.inc"
	build_prog
	pdrecord -q -g -- ./prog 150 > prog.data 2> rec.err ||
		fail "pdrecord: $(cat rec.err)"
	export_one prog prog.data
	pp -top prog.pb.gz > prog.top 2> prog.perr ||
		fail "pprof -top: $(cat prog.perr)"
	python3 "$chk" top prog.json prog.top cpu-clock || exit 1
	grep -q 'pd_flame_a' prog.folded || fail "prog: no pd_flame_a stack"
else
	echo "the recorded program skipped: needs root and cc"
fi
