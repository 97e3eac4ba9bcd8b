# Three processes of the workload from one shell, the last one exec'd in
# the shell's own pid (its maps replaced): every sample in the workload's
# own code, in every process, unwinds to _start through its whole path.
# perf script is no oracle here: perf 6.1 cuts walks of the second child
# short (after __libc_start_call_main) or leaves frames out of them (in
# ld.so) where the stack copy holds them: for one such sample at
# _dl_setup_hash+0x0 the word at sp is the return address into
# _dl_start, which perf's chain skips. (The cause is in perf, not seen.)
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog
perf record -q -F 1000 --call-graph dwarf -o - -- \
    sh -c './prog 0.1; ./prog 0.1; exec ./prog 0.1' > multi.data 2> rec.err ||
	skip "perf record failed: $(tail -n 1 rec.err)"
pdsort < multi.data | pddump --unwind --no-inline -t SAMPLE > ours.txt 2> ours.err ||
	fail "pddump --unwind: $(cat ours.err)"
python3 - ours.txt <<'PY' || fail "$(cat check.txt)"
import re, sys
path = ["c", "b", "a", "main", "__libc_start_call_main",
        "__libc_start_main@@GLIBC_2.34", "_start"]
procs, bad, cur, inchain = {}, [], None, False
for line in open(sys.argv[1]):
    m = re.match(r"^0x\S+ \d+ SAMPLE .* pid=(\d+) ", line)
    if m:
        cur = [int(m.group(1)), []]
        procs.setdefault(cur[0], []).append(cur)
        continue
    if line.startswith("  callchain:"):
        inchain = True
    elif line.startswith("    0x") and inchain and cur is not None:
        f = line.split()[1:]
        if not f[-1].endswith("kallsyms])"):
            cur[1].append((f[0].split("+")[0], f[-1]))
    elif not line.startswith("    "):
        inchain = False
full = {}
for pid, samples in procs.items():
    for _, fr in samples:
        syms = [s for s, _ in fr]
        if syms[:1] == ["lib_spin"]:
            syms = syms[1:]
        if syms[:1] != ["c"] or not fr[-1][1].endswith("/prog)"):
            if syms[:1] == ["c"]:
                bad.append((pid, syms))
            continue
        if syms == path:
            full[pid] = full.get(pid, 0) + 1
        else:
            bad.append((pid, syms))
out = open("check.txt", "w")
print("processes with full paths: %s; short: %d" % (full, len(bad)), file=out)
for b in bad[:5]:
    print(b, file=out)
sys.exit(1 if bad or len(full) < 3 else 0)
PY
cat check.txt
