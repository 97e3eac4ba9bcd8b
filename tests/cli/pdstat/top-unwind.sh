# SPDX-License-Identifier: MIT
# --top unwinds --call-graph dwarf samples as the other stack views do
# (issue 21): with --children the callers only the unwinder finds
# (__libc_start_call_main) get their rows, and --tree draws the frames
# perf report draws for the same file (the same return addresses under
# every user row: names may differ, perf's come with inlined frames and
# libc's debug symbols), while --no-unwind keeps the recorded stacks.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "no python3"
D=$PD_TOP/tests/data/corpus/dwarf.pipe.data
# The capture's gzip and libc are this host's only on a Debian 12 host.
pddump --folded "$D" > folded.txt 2> /dev/null || fail "pddump --folded"
grep -q '__libc_start_call_main' folded.txt ||
	skip "this host's gzip or libc is not the capture's: nothing unwinds"

children() {
	pdstat --top 40 --children --sort sym "$@" "$D" > top.txt 2> top.err ||
		fail "pdstat --top --children $*: $(tail -n 2 top.err)"
	awk '$NF ~ /\)$/ && $5 == "__libc_start_call_main" { print $1 }' \
	    top.txt
}
pct=$(children)
case $pct in
9[0-9].*%) ;;
*)	fail "--children: no __libc_start_call_main row over 90%: $(head -n 30 top.txt)" ;;
esac
[ -z "$(children --no-unwind)" ] ||
	fail "--children --no-unwind: unwound: $(head -n 30 top.txt)"

pdstat --tree --sort comm,dso,sym "$D" > ours.txt 2> ours.err ||
	fail "pdstat --tree: $(tail -n 2 ours.err)"
grep -q '^ *__libc_start_call_main$' ours.txt ||
	fail "--tree: not unwound: $(head -n 30 ours.txt)"
pdstat --tree --no-unwind --sort comm,dso,sym "$D" > nu.txt 2> /dev/null ||
	fail "pdstat --tree --no-unwind"
grep -q '__libc_start_call_main' nu.txt && fail "--tree --no-unwind: unwound"

need_perf
# perf report unwinds a file-mode copy (perf 6.1 draws no graph of a pipe).
perf inject -i - -o dw.data < "$D" 2> inject.err ||
	fail "perf inject: $(tail -n 2 inject.err)"
perf report -i dw.data --stdio --no-children --sort comm,dso,sym \
    > perf.txt 2> perf.err < /dev/null ||
	fail "perf report: $(tail -n 2 perf.err)"
python3 - ours.txt perf.txt <<'PY' || fail "--tree: not perf's unwound frames"
import collections, re, sys

def graphs(path):
    """User rows -> multiset of the return addresses under them."""
    g, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"\s+[0-9.]+%.*\[\.\] (\S+)", line)
        if m:
            cur = g.setdefault(m.group(1), collections.Counter())
            continue
        if line.strip() == "" or line.startswith("#"):
            continue
        if cur is not None:
            # kernel frames: perf names them from this host's kallsyms
            cur.update(a for a in re.findall(r"0x[0-9a-f]{8,}", line)
                       if not a.startswith("0xffff"))
    return g

ours, perf = graphs(sys.argv[1]), graphs(sys.argv[2])
bad = [k for k in perf if ours.get(k) != perf[k]]
frames = sum(sum(c.values()) for c in perf.values())
if not perf or frames < 100 or bad:
    print("%d user rows, %d frames; differ: %s" % (len(perf), frames,
          bad[:5]))
    for k in bad[:3]:
        print(k, "ours", ours.get(k), "perf", perf[k])
    sys.exit(1)
print("%d user rows, %d return addresses as perf's" % (len(perf), frames))
PY
