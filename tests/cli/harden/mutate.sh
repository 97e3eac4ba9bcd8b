# Random mutations of the corpus streams and of small fixtures (bit
# flips, truncations, header.size changes, counts and lengths set to 0,
# -1, 2^31..., file header fields, runs of 0x00/0xff): thousands per
# tool, each through one variant of pdcat, pddump, pdstat, pdsort and
# pdswap. No tool may die by a signal (SIGPIPE aside) or run past 5 s,
# exit with anything but 0 or 1, or fail without naming the offset
# (tests/gen/mutate.c). 3000 mutants per tool in the plain build; 100
# under SANITIZE=1, where a run costs 10 to 20 times more (the sanitizer
# runtime's start-up), and the plain build has done the thousands. The count
# per tool is printed; on a machine too loaded to finish within 85 s
# the driver stops there and says so. PD_PRESERVE=1 keeps the bad
# mutants (bad-m<i>) in the scratch directory.
. "$PD_TOP/tests/cli/lib.sh"
n=3000
[ "${PD_SANITIZE:-}" = 1 ] && n=100
mkdir in
for c in ok ok-be unknown-type auxtrace tracing-data sample-full \
    sample-callchain sample-branch sample-raw sample-regs sample-stack \
    sample-stack-dyn sample-read file-mode; do
	mkpipe "$c" >in/$c || fail "mkpipe $c"
done
for f in "$PD_TOP"/tests/fuzz/seed*/*; do
	cp "$f" "in/seed-${f##*/}"
done
# Every corpus stream of ours, the big-endian ones, and the small
# perf.data files other projects wrote (any mode, order or writer).
if [ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ]; then
	for f in "$PD_CORPUS"/*.data "$PD_CORPUS"/bigendian/*.data; do
		[ -f "$f" ] && cp "$f" "in/${f##*/}"
	done
	find "$PD_CORPUS/foreign" -type f -size -64k 2>/dev/null |
	    while read -r f; do
		case $(od -An -c -N8 "$f" | tr -d ' ') in
		PERFILE2|2ELIFREP)
			cp "$f" "in/foreign-$(echo "${f#"$PD_CORPUS"/foreign/}" |
			    tr / _)";;
		esac
	done
fi
"$PD_TBIN/gen/mutate" -n "$n" -j 2 -b 85 -m 131072 \
    -c pdcat -c 'pdcat -d' -c 'pdcat -z' \
    -c pddump -c 'pddump --json' -c 'pddump -x' \
    -c pdstat -c 'pdstat -p' \
    -c pdsort -c 'pdsort -m 64K' \
    -c 'pdswap -t swap' -c 'pdswap -t big' \
    in/* >out.txt 2>&1
rc=$?
cat out.txt
[ "$rc" -eq 0 ] || fail "bad runs (mutants kept as bad-m*)"
# The driver must have run every tool, thousands of times in the plain
# build (unless stopped by the time budget, which it reports).
for t in pdcat pddump pdstat pdsort pdswap; do
	grep -q "^$t: [0-9]* mutants" out.txt || fail "$t did not run"
done
grep -q "^$n of $n mutants" out.txt ||
	grep -q "stopped at the time budget" out.txt || fail "runs missing"
