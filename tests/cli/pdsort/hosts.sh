# SPDX-License-Identifier: MIT
# Symbols and off-CPU per host in a merged stream: two "hosts" (UTS and
# PID namespaces, as merge.sh makes them) each record system-wide with
# call chains and sched_switch while dd makes syscalls; pdsort merges
# them. Then:
#  - kernel frames are each host's own: with --kallsyms hB=FILE, a
#    kallsyms whose names carry a prefix, every kernel frame of hB's
#    samples has the prefix and none of hA's does (pddump -s, and
#    pdstat --top's table per event); hA's come from this machine's kernel, found by
#    the kernel build id hA's MMAP2 gives;
#  - pdstat --pprof labels each sample with its own host, and each
#    host's label holds exactly its events' samples (pb.py reads it);
#    pdstat --gecko names each thread comm@host, tid 0 (and -1) once
#    per host;
#  - off-CPU time per host: the merged stream's waits are the two
#    inputs' waits, stack by stack, to the nanosecond. The hosts record
#    at once, so each has every switch of the machine with the same
#    prev_pid and next_pid (the machine's own pids): a tracker that
#    mixed the hosts would see each thread switch out twice and in
#    twice, and count other waits.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_tracepoint sched/sched_switch
command -v python3 >/dev/null 2>&1 || skip "no python3"
need_hostns
[ -r /proc/kallsyms ] && awk '$1 !~ /^0+$/ { ok = 1; exit } END { exit !ok }' \
    /proc/kallsyms || skip "no kernel addresses in /proc/kallsyms"

host() {	# NAME: a recording of dd in a new UTS and PID namespace
	unshare --uts --pid --fork --mount-proc sh -c "hostname $1;
	    pdrecord -q -a -g -F 499 -e cpu-clock,sched:sched_switch -- \
	    dd if=/dev/zero of=/dev/null bs=64 count=100000 2>/dev/null" \
	    > "$1.data"
}
# At once: each sees every switch of the machine, the same pids.
host hA & a=$!
host hB & b=$!
wait $a || fail "hA: pdrecord: exit $?"
wait $b || fail "hB: pdrecord: exit $?"
pdsort -o m.data hA.data hB.data 2> err.txt || fail "pdsort: $(cat err.txt)"

# hB's kallsyms: this machine's, every name prefixed.
awk 'NF >= 3 { $3 = "HB_" $3 } { print }' /proc/kallsyms > kB.txt

# Kernel frames by host: "A plain", "B pref", ...; none may be missing.
# A sample's host is its id's event's: ATTR lists the ids, EVENT_UPDATE
# names one of them event@host.
pddump -s --kallsyms hB=kB.txt m.data > s.txt 2> err.txt ||
	fail "pddump -s: $(cat err.txt)"
# pdstat's header lists both hosts (each input's HOSTNAME), text and JSON.
pdstat m.data 2> /dev/null | grep -qx '  hosts         hA, hB' ||
	fail "pdstat: no hosts line: $(pdstat m.data 2>&1 | head -n 3)"
pdstat --json m.data 2> /dev/null | python3 -c 'import json, sys
assert json.load(sys.stdin)["header"]["hosts"] == ["hA", "hB"]' ||
	fail "pdstat --json: no header hosts"
# pddump names the tracepoint events as the merge did: with the host.
for h in hA hB; do
	grep -q " SAMPLE .* event=sched:sched_switch@$h " s.txt ||
		fail "pddump: no sched:sched_switch@$h sample"
done
grep -q " SAMPLE .* event=sched:sched_switch " s.txt &&
	fail "pddump: sched_switch samples named without their host"
awk 'function val(k,  r) {
	if (!match($0, " " k "=[^ ]*"))
		return ""
	return substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
    }
    $3 == "ATTR" { ids[na++] = "," val("ids") "," }
    $3 == "EVENT_UPDATE" && val("name") ~ /@h[AB]$/ {
	for (i = 0; i < na; i++)
		if (index(ids[i], "," val("id") ","))
			hostof[i] = substr(val("name"), length(val("name")))
    }
    $3 == "SAMPLE" {
	h = "?"
	for (i = 0; i < na; i++)
		if (index(ids[i], "," val("id") ","))
			h = hostof[i]
	next
    }
    $3 ~ /^[A-Z_0-9]+$/ { h = "" }
    h != "" && /\(\[kernel\.kallsyms\]\)$/ {
	k = $2 == "[unknown]" ? "unknown" : $2 ~ /^HB_/ ? "pref" : "plain"
	n[h " " k]++
    }
    END { for (k in n) print k, n[k] }' s.txt | sort > frames.txt
grep -q '^A plain' frames.txt && grep -q '^B pref' frames.txt ||
	fail "no kernel frames of both hosts: $(cat frames.txt)"
grep -v -e '^A plain' -e '^B pref' frames.txt > wrong.txt
[ -s wrong.txt ] && fail "kernel frames named from another host's kernel: $(cat wrong.txt)"
# pdstat --top, a table per event: hB's kernel rows all prefixed, hA's none.
pdstat --top 40 --kallsyms hB=kB.txt m.data > top.txt 2> err.txt ||
	fail "pdstat --top: $(cat err.txt)"
awk '/^top symbols of / { h = $4 ~ /@hB$/ ? "B" : "A"; next }
    / \[k\] / { n[h " " ($4 ~ /^HB_/ ? "pref" : "plain")]++ }
    END { for (k in n) print k, n[k] }' top.txt | sort > rows.txt
grep -q '^A plain' rows.txt && grep -q '^B pref' rows.txt ||
	fail "--top: no kernel rows of both hosts: $(cat rows.txt)"
grep -q -e '^A pref' -e '^B plain' rows.txt &&
	fail "--top: kernel rows named from another host's kernel: $(cat rows.txt)"

# pprof: each host's label holds its own events' samples.
pdstat --pprof m.pb.gz m.data > /dev/null 2>&1 || fail "pdstat --pprof"
python3 - "$PD_TOP/tests/cli/export" m.pb.gz > pp.txt <<'EOP' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
import pb
prof = list(pb.fields(pb.profile(sys.argv[2])))
strs = [v for k, v in prof if k == 6]
types = [strs[dict(pb.fields(v)).get(1, 0)].decode() for k, v in prof
         if k == 1]
n = {}
for k, v in prof:
    if k != 2:
        continue
    vals, host = [], "none"
    for f, x in pb.fields(v):
        if f == 2 and isinstance(x, int):
            vals.append(x)
        elif f == 2:
            i = 0
            while i < len(x):
                y, i = pb.varint(x, i)
                vals.append(y)
        elif f == 3:
            lab = dict(pb.fields(x))
            if strs[lab[1]] == b"host":
                host = strs[lab[2]].decode()
    for t, y in zip(types, vals):
        if y and t.endswith("_samples"):
            n[(host, t)] = n.get((host, t), 0) + y
for (host, t), y in sorted(n.items()):
    print(host, t, y)
EOP
for h in hA hB; do
	want=$(grep -c " SAMPLE .* event=cpu-clock@$h " s.txt)
	grep -q "^$h cpu-clock@${h}_samples $want\$" pp.txt ||
		fail "pprof: host $h: want $want cpu-clock samples: $(cat pp.txt)"
done
[ "$(awk '$1 != substr($2, index($2, "@") + 1, 2)' pp.txt)" = "" ] ||
	fail "pprof: samples under another host's label: $(cat pp.txt)"

# gecko: threads named comm@host, each host's idle thread its own.
pdstat --gecko m.json m.data > /dev/null 2>&1 || fail "pdstat --gecko"
python3 - m.json <<'EOP' || exit 1
import json, sys
th = [(t["name"], t["tid"]) for t in json.load(open(sys.argv[1]))["threads"]]
# tid -1 of host k is -1 - k
host = lambda tid: "hA" if tid < 1 << 22 or tid == (1 << 32) - 1 else "hB"
bad = [t for t in th if not t[0].endswith("@" + host(t[1]))]
if bad:
    sys.exit("FAIL: gecko: threads not named by their host: %s" % bad)
if not {"dd@hA", "dd@hB"} <= {n for n, _ in th}:
    sys.exit("FAIL: gecko: no dd thread of each host: %s" % th)
EOP

# Off-CPU: the merge's waits, by kernel stack, are the inputs' waits.
# Only the kernel frames count: a namespace sees the other's processes
# as pid 0 (their COMMs and MMAPs too), which the merge keeps 0 for
# both hosts, so their comms and user frames are named from either.
fold() {	# FILE...: each kernel stack's nanoseconds, over FILEs
	for f in "$@"; do
		pddump --folded=offcpu "$f" 2> err.txt ||
			fail "pddump --folded=offcpu $f: $(cat err.txt)"
	done | awk '{ v = $NF; k = ""
		n = split($1, fr, ";")
		for (i = 1; i <= n; i++)
			if (fr[i] ~ /_\[k\]$/)
				k = k ";" fr[i]
		s[k] += v }
	    END { for (k in s) print k, s[k] }' | sort
}
fold hA.data hB.data > want.off
fold m.data > got.off
[ -s want.off ] || fail "no off-CPU waits"
cmp -s want.off got.off ||
	fail "off-CPU waits differ: $(diff want.off got.off | head -6)"
exit 0
