# SPDX-License-Identifier: MIT
# Kernel frames named later: while /proc/kallsyms is still being read
# ahead on a thread, pddump --folded, pdstat --flamegraph and pdstat
# --top (by symbol, no frames) keep a sample's kernel frames (its ip)
# by address, pdstat --pprof and --gecko their places, and they name
# them when the names come
# (at the input's end, for a stream this short) or before the kernel's
# maps change (a second input's, joined by pdcat). The stacks must be
# those made with the names there from the start: --kallsyms naming a
# copy of the same /proc/kallsyms reads no read ahead, keeps nothing.
. "$PD_TOP/tests/cli/lib.sh"
need_root
[ -r /proc/kallsyms ] || skip "no /proc/kallsyms"
cat /proc/kallsyms > kallsyms.txt || fail "copy /proc/kallsyms"
# Kernel frames in most samples: a system-wide recording of a busy loop
# and the syscalls of a reading loop.
( timeout 5 sh -c 'while :; do :; done' &
  timeout 5 sh -c 'while :; do head -c 65536 /dev/zero > /dev/null; done' &
  pdrecord -q -a -g -F 999 -- sleep 1 > sys.data 2> rec.err; rc=$?
  kill %1 %2 2>/dev/null; exit $rc ) || fail "pdrecord -a -g: $(cat rec.err)"

same() {	# NAME INPUT...: every view, named later and now
	pddump --folded "$@" > later.folded 2> later.err ||
		fail "$NAME: pddump --folded: $(cat later.err)"
	pddump --folded --kallsyms kallsyms.txt "$@" > now.folded \
	    2> now.err || fail "$NAME: pddump --folded --kallsyms"
	grep -q '_\[k\]' now.folded || fail "$NAME: no kernel frames"
	cmp -s now.folded later.folded ||
		fail "$NAME: kernel frames named later differ: $(diff now.folded later.folded | head -n 4)"
	cmp -s now.err later.err ||
		fail "$NAME: notes differ: $(diff now.err later.err | head -n 4)"
	pdstat --flamegraph later.svg "$@" > /dev/null 2>&1 ||
		fail "$NAME: pdstat --flamegraph"
	pdstat --flamegraph now.svg --kallsyms kallsyms.txt "$@" > /dev/null \
	    2>&1 || fail "$NAME: pdstat --flamegraph --kallsyms"
	cmp -s now.svg later.svg || fail "$NAME: flame graphs differ"
	# pprof and gecko number what they meet in its turn: the kernel
	# frames' places too, named later.
	# One view a run: the first that asks keeps them, the rest wait.
	pdstat --pprof later.pb.gz "$@" > /dev/null 2>&1 ||
		fail "$NAME: pdstat --pprof"
	pdstat --gecko later.json "$@" > /dev/null 2>&1 ||
		fail "$NAME: pdstat --gecko"
	pdstat --pprof now.pb.gz --gecko now.json --kallsyms kallsyms.txt \
	    "$@" > /dev/null 2>&1 || fail "$NAME: pdstat --pprof --kallsyms"
	cmp -s now.pb.gz later.pb.gz || fail "$NAME: pprof profiles differ"
	cmp -s now.json later.json || fail "$NAME: gecko profiles differ"
	grep -q '(in \[kernel\.kallsyms\])' now.json ||
		fail "$NAME: no kernel frames in the gecko profile"
	for sort in sym comm,sym dso,sym; do
		pdstat --top 40 --sort $sort "$@" > later.top 2>&1 ||
			fail "$NAME: pdstat --top --sort $sort"
		pdstat --top 40 --sort $sort --kallsyms kallsyms.txt "$@" \
		    > now.top 2>&1 || fail "$NAME: pdstat --top --kallsyms"
		grep -q '\[k\] [a-z_]' now.top || fail "$NAME: no kernel rows"
		cmp -s now.top later.top ||
			fail "$NAME: --top --sort $sort differs: $(diff now.top later.top | head -n 4)"
	done
	echo "$NAME: $(wc -l < now.folded) stacks, the same"
}
NAME=one same sys.data
# A second input's kernel maps come after the first's samples.
pdcat sys.data sys.data > two.data || fail "pdcat"
NAME=joined same two.data
# An address no map holds, met as a kernel frame and as a user one:
# both [unknown], the first met names its frame, location and category.
"$PD_TBIN/gen/restream" stray 0x1000 < sys.data > stray.data ||
	fail "restream stray"
NAME=stray same stray.data
