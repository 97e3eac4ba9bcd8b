# Inlined functions and source lines from DWARF, against perf 6.1 on the
# same `perf record --call-graph dwarf` stream of an -O2 -g program
# whose hot path is two always_inline functions (tests/prog/inline.c):
# pddump -s --srcline names the same user frames, inlined ones
# included, with the same file:line as perf script -F +srcline (which
# shows inlined frames by default); --folded/--inline and pdstat's
# --folded, --pprof (read by go tool pprof) show them as frames too.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v gcc >/dev/null 2>&1 || skip "no gcc"
command -v python3 >/dev/null 2>&1 || skip "no python3"
# -fno-plt, -z now: no sample in a lazy PLT stub (atol's), which perf
# 6.1 names by _init and we by "atol@plt".
gcc -O2 -g -fno-plt -Wl,-z,now -o inl "$PD_TOP/tests/prog/inline.c" ||
	fail "building inl"
# The test means something only if the compiler did inline them.
if command -v readelf >/dev/null 2>&1; then
	n=$(readelf --debug-dump=info inl | grep -c DW_TAG_inlined_subroutine)
	[ "$n" -ge 2 ] || fail "inl: no DW_TAG_inlined_subroutine ($n)"
fi
perf record -q -F 1000 --call-graph dwarf -o - -- ./inl 30000 \
    > perf.data 2> rec.err || skip "perf record failed: $(tail -n 1 rec.err)"

perf script --ns -F +srcline -i - < perf.data > perf.txt 2> perf.err ||
	fail "perf script: $(cat perf.err)"
pddump -s --srcline -t SAMPLE perf.data > ours.txt 2> ours.err ||
	fail "pddump -s --srcline: $(cat ours.err)"
python3 "$PD_TOP/tests/cli/pddump/cmpinline.py" perf.txt ours.txt 20 \
    > cmp.txt || fail "$(cat cmp.txt)"
cat cmp.txt
# On unwound stacks --inline asks for what is the default there.
pddump -s --srcline --inline -t SAMPLE perf.data | cmp -s - ours.txt ||
	fail "pddump -s --inline differs from the default on dwarf stacks"
# Recorded (not unwound) callchains, as perf's -g ones: none by
# default, as perf script 6.1; --inline asks for them there too.
pddump -s --no-unwind -t SAMPLE perf.data > nu0.txt || fail "--no-unwind"
grep -q ' (inlined)$' nu0.txt && fail "inlined frames in a recorded chain"
pddump -s --no-unwind --inline -t SAMPLE perf.data > nu1.txt ||
	fail "--no-unwind --inline"
grep -q '^    0x[0-9a-f]* mix+0x[0-9a-f]* (inlined)$' nu1.txt ||
	fail "--inline: no inlined frame in a recorded chain"
# The comparison can fail: without inlined frames it must.
pddump -s --srcline --no-inline -t SAMPLE perf.data > none.txt ||
	fail "pddump --no-inline"
python3 "$PD_TOP/tests/cli/pddump/cmpinline.py" perf.txt none.txt 20 \
    > /dev/null && fail "--no-inline still shows inlined frames"
grep -q ' (inlined)$' none.txt && fail "--no-inline: an inlined frame"

# Folded: off unless asked; asked, work;churn;mix, in pdstat's too.
pddump --folded perf.data > f0.txt || fail "pddump --folded"
grep -q ';churn' f0.txt && fail "--folded shows inlined frames unasked"
pddump --folded --inline perf.data > f1.txt || fail "pddump --folded --inline"
grep -q '^inl;.*;main;work;churn;mix [0-9]*$' f1.txt ||
	fail "--folded --inline: no main;work;churn;mix: $(head -3 f1.txt)"
pdstat --inline --folded - perf.data 2> /dev/null | sort > f2.txt ||
	fail "pdstat --inline --folded"
sort f1.txt | cmp -s - f2.txt || fail "pdstat --folded --inline differs"

# pprof's lines are looked up on a thread of their own, except where
# debuginfod is on (a closed port here: nothing is asked of it): made
# either way, the profiles unpack to the same bytes.
pdstat --inline --pprof t.pb.gz perf.data > /dev/null 2>&1 ||
	fail "pdstat --inline --pprof"
DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_CACHE_PATH=$PWD/dcache \
    pdstat --inline --pprof s.pb.gz perf.data > /dev/null 2>&1 ||
	fail "pdstat --inline --pprof (debuginfod on)"
gzip -dc t.pb.gz > t.pb && gzip -dc s.pb.gz > s.pb || fail "gzip -dc"
grep -q 'inline\.c' t.pb || fail "--pprof: no source file inline.c"
cmp -s t.pb s.pb || fail "--pprof: the lines on a thread differ from in line"

# Compressed debug sections, as Debian's -dbgsym files have them: libdw
# decompresses them into memory of its own, after which the file's own
# pages are dropped (srcline.c, image_drop). The lines, inlined frames
# and profile are the same; objcopy keeps the build id and the code.
if command -v objcopy >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1
then
	objcopy --compress-debug-sections=zlib inl ||
		fail "objcopy --compress-debug-sections"
	readelf -SW inl | grep -q 'debug_info .* C ' ||
		fail "objcopy left .debug_info uncompressed"
	pddump -s --srcline -t SAMPLE perf.data > z.txt 2> z.err ||
		fail "pddump -s --srcline, compressed: $(cat z.err)"
	cmp -s z.txt ours.txt ||
		fail "compressed DWARF: other lines: $(diff ours.txt z.txt | head -5)"
	pdstat --inline --pprof z.pb.gz perf.data > /dev/null 2>&1 ||
		fail "pdstat --inline --pprof, compressed"
	gzip -dc z.pb.gz | cmp -s - t.pb ||
		fail "compressed DWARF: another profile"
fi

# pprof: inlined functions as Lines (-traces marks them), lines as Line.line.
command -v go >/dev/null 2>&1 || {
	echo "go tool pprof part skipped: no go (make deps)"; exit 0; }
pdstat --inline --pprof p.pb.gz perf.data > /dev/null 2>&1 ||
	fail "pdstat --inline --pprof"
pdstat --pprof q.pb.gz perf.data > /dev/null 2>&1 || fail "pdstat --pprof"
export GOCACHE=$PWD/gocache PPROF_TMPDIR=$PWD
pp() { HOME=$PWD go tool pprof -symbolize=none "$@" 2>/dev/null; }
pp -traces p.pb.gz > tr.txt || fail "go tool pprof -traces"
grep -A2 ' mix (inline)$' tr.txt | tr -s ' ' | grep -q '^ churn (inline)$' ||
	fail "-traces: no mix (inline) under churn (inline): $(head -20 tr.txt)"
grep -A2 ' churn (inline)$' tr.txt | grep -q ' work$' ||
	fail "-traces: churn not inlined into work"
pp -lines -top p.pb.gz > lt.txt || fail "go tool pprof -lines"
grep -q ' mix .*inline\.c:[0-9][0-9]* (inline)$' lt.txt ||
	fail "-lines: no mix at inline.c:N: $(cat lt.txt)"
# Without --inline: Line.line of the function itself, no inline frame.
pp -lines -top q.pb.gz > l0.txt || fail "go tool pprof -lines (plain)"
grep -q ' work .*inline\.c:[0-9][0-9]*$' l0.txt ||
	fail "-lines without --inline: no work at inline.c:N: $(cat l0.txt)"
grep -q '(inline)' l0.txt && fail "inline frames without --inline"
echo "pprof: inlined Lines and line numbers read by go tool pprof"
