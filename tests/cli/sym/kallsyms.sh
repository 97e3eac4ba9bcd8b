# SPDX-License-Identifier: MIT
# --kallsyms FILE: kernel symbols from a file, relocated by the stream's
# kernel map (a kallsyms of another boot, KASLR-shifted here, names the
# same kernel frames as this host's /proc/kallsyms); a file that does
# not exist is a note, not an error; this host's /proc/kallsyms is not
# taken for a stream of another boot.
. "$PD_TOP/tests/cli/lib.sh"
need_root
command -v python3 >/dev/null || skip "no python3"
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .
pdrecord -q -g -o pd.pd -- ./hot 200 || fail pdrecord
pddump -s -t SAMPLE pd.pd > host.txt 2> host.err || fail "pddump -s"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' host.txt ||
	fail "no kernel names from /proc/kallsyms"
# The same kallsyms, every address 16 MiB higher.
python3 -c '
import sys
for l in open("/proc/kallsyms"):
    a, rest = l.split(" ", 1)
    sys.stdout.write("%016x %s" % (int(a, 16) + (16 << 20), rest))
' > shifted || fail "shift"
pddump -s --kallsyms shifted -t SAMPLE pd.pd > file.txt 2> file.err ||
	fail "pddump -s --kallsyms"
cmp -s host.txt file.txt || fail "relocated names differ: $(diff host.txt file.txt | head -n 4)"
pdstat --top 20 --kallsyms shifted pd.pd > top.txt || fail "pdstat --kallsyms"
pdstat --top 20 pd.pd > top2.txt || fail "pdstat --top"
cmp -s top.txt top2.txt || fail "pdstat --kallsyms differs"
pddump -s --kallsyms nonexistent -t SAMPLE pd.pd > none.txt 2> none.err ||
	fail "pddump --kallsyms nonexistent: exit $?"
grep -q '^pddump: nonexistent: No such file or directory; kernel symbols are not shown$' none.err ||
	fail "note: $(cat none.err)"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' none.txt && fail "kernel names without kallsyms"

# This host and kernel, yet another boot: the stream's kernel map puts
# _text 16 MiB away from where /proc/kallsyms has it. That file (read
# ahead on a thread) is not relocated: no kernel names, and a note. An
# empty build-id cache: the run's may hold this kernel's kallsyms, which
# would be relocated (perf's rule for a cache's file).
off=$(pddump pd.pd | grep -m 1 'MMAP2 misc=0x4001 .*filename=\[kernel.kallsyms\]_text' |
    cut -d' ' -f1)
[ -n "$off" ] || fail "pd.pd: no kernel MMAP2"
python3 -c '
import struct, sys
d = bytearray(open("pd.pd", "rb").read())
o = int(sys.argv[1], 16) + 32		# header, pid, tid, addr, len
struct.pack_into("<Q", d, o, struct.unpack_from("<Q", d, o)[0] + (16 << 20))
open("boot.pd", "wb").write(d)
' "$off" || fail "boot.pd"
mkdir -p empty
PERF_BUILDID_DIR=$(pwd)/empty pddump -s -t SAMPLE boot.pd > boot.txt 2> boot.err ||
	fail "pddump -s boot.pd"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' boot.txt &&
	fail "another boot: kernel names from /proc/kallsyms"
grep -q "^pddump: kernel symbols are not shown: the stream's kernel map (_text at 0x[0-9a-f]*) does not match /proc/kallsyms (0x[0-9a-f]*); see --kallsyms$" boot.err ||
	fail "another boot: note: $(cat boot.err)"
# Given as a file, the same kallsyms is moved to the stream's map.
PERF_BUILDID_DIR=$(pwd)/empty pddump -s --kallsyms /proc/kallsyms -t SAMPLE \
    boot.pd > moved.txt ||
	fail "pddump -s --kallsyms /proc/kallsyms boot.pd"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' moved.txt ||
	fail "another boot, --kallsyms: no kernel names"
exit 0
