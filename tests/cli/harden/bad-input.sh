# Issue 10's table of bad inputs, item by item, through every tool that
# reads streams: each is one stderr line naming the offset, and exit 1.
# The reader is shared, so most rows hold for all five tools; rows that
# only some tools decode say which. Where a fault is past the start of a
# pipe stream, pdswap must also have written every record before it.
# Odd but valid input (unknown record types, a feature whose strings a
# tool need not read) passes through.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"	# le, zeros, hdr, pipe_header

ALL="pdcat pddump pdstat pdsort pdswap"
# Under the sanitizers a run costs ten times more: the rows for every
# tool run in the plain build, pdcat's and pddump's in both.
[ "${PD_SANITIZE:-}" = 1 ] && ALL="pdcat pddump"

# patch FILE OFFSET VALUE BYTES: VALUE little-endian at OFFSET.
patch() {
	le "$3" "$4" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc 2>/dev/null ||
		fail "patch $1"
}

# run TOOL FILE: the tool's usual invocation on FILE (pdswap must convert).
run() {
	case $1 in
	pdswap)	pdswap -t swap "$2";;
	pddump)	pddump ${PDDUMP_T:+-t "$PDDUMP_T"} "$2";;
	*)	"$1" "$2";;
	esac
}

# reject FILE 'offset 0x..: message' [TOOL...]: exit 1 and exactly
# "TOOL: FILE: message" on stderr (a message ending in * is a prefix).
rows=0
reject() {
	_f=$1 _want=$2
	shift 2
	[ $# -gt 0 ] || set -- $ALL
	for _t; do
		run "$_t" "$_f" >out.bin 2>err.txt
		_rc=$?
		[ "$_rc" -eq 1 ] || fail "$_t $_f: exit $_rc, wanted 1: $(cat err.txt)"
		[ "$(wc -l <err.txt)" -eq 1 ] ||
			fail "$_t $_f: stderr not one line: $(cat err.txt)"
		case $_want in
		*\*)	case $(cat err.txt) in
			"$_t: $_f: ${_want%\*}"*) ;;
			*) fail "$_t $_f: '$(cat err.txt)', wanted '$_t: $_f: $_want'";;
			esac;;
		*)	[ "$(cat err.txt)" = "$_t: $_f: $_want" ] ||
			fail "$_t $_f: '$(cat err.txt)', wanted '$_t: $_f: $_want'";;
		esac
		rows=$((rows + 1))
	done
	# The good records before the fault reach the output: pdswap's,
	# converted back, are the input up to the fault (pdcat/bad-input
	# checks pdcat's).
	_off=$(echo "$_want" | sed -n 's/^offset \(0x[0-9a-f]*\):.*/\1/p')
	case " $* :$_want" in
	*zstd*) return 0;;	# (pdswap recompresses: other bytes)
	*" pdswap "*) ;;
	*) return 0;;
	esac
	if [ "$(head -c 8 "$_f")" = PERFILE2 ] && [ $((_off)) -gt 16 ] &&
	    [ "$(od -An -tu8 -j8 -N8 "$_f" | tr -d ' ')" = 16 ]; then
		pdswap -t swap "$_f" >sw.bin 2>/dev/null
		pdswap -t swap sw.bin >back.bin 2>/dev/null ||
			fail "pdswap $_f: its output does not convert back"
		head -c $((_off)) "$_f" | cmp -s - back.bin ||
			fail "pdswap $_f: not the input up to $_off"
	fi
}

# passes FILE TOOL...: exit 0 and the output is the input, byte for byte
# (pdswap: after two conversions; pdsort: the same records, as pddump -x
# shows them, in its order: records without a time go out at once).
passes() {
	_f=$1
	shift
	for _t; do
		case $_t in
		pdswap)	pdswap -t swap "$_f" 2>err.txt | pdswap -t swap \
			    >out.bin 2>>err.txt;;
		pdstat)	pdstat -p "$_f" >out.bin 2>err.txt;;
		*)	"$_t" "$_f" >out.bin 2>err.txt;;
		esac
		_rc=$?
		[ "$_rc" -eq 0 ] || fail "$_t $_f: exit $_rc: $(cat err.txt)"
		if [ "$_t" = pdsort ]; then
			pddump -x "$_f" | sed 's/^0x[0-9a-f]* //' | sort >a.txt
			pddump -x out.bin | sed 's/^0x[0-9a-f]* //' | sort >b.txt
			cmp -s a.txt b.txt || fail "pdsort $_f: records differ"
			[ "$(wc -c <out.bin)" = "$(wc -c <"$_f")" ] ||
				fail "pdsort $_f: size differs"
		else
			cmp -s "$_f" out.bin || fail "$_t $_f: not passed through"
		fi
		rows=$((rows + 1))
	done
}

mkpipe ok >ok.data || fail "mkpipe ok"
len=$(wc -c <ok.data)

# Empty input, 1..15 bytes, wrong magic, header size neither 16 nor 104.
mkpipe empty >empty.data
reject empty.data "offset 0x0: empty input"
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	mkpipe short $n >short$n.data
	reject short$n.data "offset 0x0: input too short for a perf.data header ($n bytes)" pdcat pddump
done
reject short8.data "offset 0x0: input too short for a perf.data header (8 bytes)"
mkpipe bad-magic >magic.data
reject magic.data "offset 0x0: not perf.data (bad magic)"
mkpipe hdr-size >hsize.data
reject hsize.data "offset 0x8: header size 24 is neither 16 (pipe) nor 104 (file)"
cp ok.data hsize0.data
patch hsize0.data 8 0 8
reject hsize0.data "offset 0x8: header size 0 is neither 16 (pipe) nor 104 (file)"

# Record size < 8 (4, and 0, which would never advance).
mkpipe size-lt-8 >size4.data
reject size4.data "offset 0x138: record size 4 < 8"
cp size4.data size0.data
patch size0.data 0x13e 0 2
reject size0.data "offset 0x138: record size 0 < 8"

# A size past the end: the COMM at 0xa8 claims 4096 bytes.
cp ok.data past.data
patch past.data 0xae 4096 2
reject past.data "offset 0xa8: record type 3 (COMM) size 4096 runs past the end of input ($((len - 0xa8)) bytes left)"

# A truncated last record (and a truncated last record header).
mkpipe truncated-last >trunc.data
reject trunc.data "offset 0x170: record type 9 (SAMPLE) size 56 runs past the end of input (51 bytes left)"
mkpipe truncated-header >trunch.data
reject trunch.data "offset 0x1e8: truncated record header: 3 bytes at the end of input"

# Trailing garbage (perf record's messages after the stream).
mkpipe trailing-garbage >garbage.data
reject garbage.data "offset 0x1e8: record type 1701847131 size 29216 runs past the end of input (112 bytes left): trailing garbage?"

# attr.size 0, larger than the record, not a known version's size.
mkpipe attr-size-0 >attr0.data
reject attr0.data "offset 0x10: ATTR attr.size 0 < 64"
mkpipe attr-size-big >attrbig.data
reject attrbig.data "offset 0x10: ATTR attr.size 200 does not fit record size 152"
mkpipe attr-size-odd >attrodd.data
reject attrodd.data "offset 0x10: ATTR attr.size 124 is not a multiple of 8"

# More ids than fit.
mkpipe too-many-ids >ids.data
reject ids.data "offset 0x138: ID_INDEX: 3 entries do not fit record size 80"

# A sample whose variable fields run past the record. The tools that
# decode every field: pdswap (to convert it) and pdcat when joining
# (it rewrites ids) stop with one line; pddump shows the entry with
# error=reason and goes on (its man page: a field that cannot be decoded
# does not stop it); pdstat and pdsort read only the fixed fields.
for c in callchain:"callchain runs past the record" \
    branch:"branch stack runs past the record" \
    raw:"raw data runs past the record" \
    regs:"user regs run past the record:regs_user runs past the record" \
    stack:"user stack runs past the record" \
    stack-dyn:"user stack runs past the record:user stack dyn_size runs past the record" \
    stack-dyn-big:":user stack dyn_size > size" \
    read:"read group values run past the record"; do
	name=${c%%:*} msg=${c#*:}
	swapmsg=${msg%%:*} joinmsg=${msg#*:}
	mkpipe sample-$name >s-$name.data
	off=$(mkpipe -o sample-$name)
	# pdswap checks the fields it converts; dyn_size is a number it
	# converts without needing it to be sane.
	[ -n "$swapmsg" ] &&
		reject s-$name.data "offset $off: SAMPLE: $swapmsg" pdswap
	pdcat ok.data s-$name.data >out.bin 2>err.txt
	rc=$?
	[ "$rc" -eq 1 ] && [ "$(cat err.txt)" = "pdcat: s-$name.data: offset $off: $joinmsg" ] ||
		fail "pdcat ok.data s-$name.data: exit $rc: $(cat err.txt)"
	pddump s-$name.data >out.txt 2>err.txt ||
		fail "pddump s-$name.data: exit $?: $(cat err.txt)"
	grep -q "^$off [0-9]* SAMPLE .* error=\"$joinmsg\"$" out.txt ||
		fail "pddump s-$name.data: no error=\"$joinmsg\" at $off"
	pddump --json s-$name.data | grep -qF "\"error\":\"$joinmsg\"" ||
		fail "pddump --json s-$name.data: no error"
	rows=$((rows + 4))
done

# A corrupt zstd chunk: pdcat -z's stream of ok.data, its COMPRESSED
# record's frame header broken.
pdcat -z ok.data >z.data || fail "pdcat -z"
cp z.data zbad.data
patch zbad.data 0xd4 0xffffff 3
reject zbad.data "offset 0xcc: COMPRESSED: corrupt zstd data*" \
    pddump pdstat pdsort pdswap
pdcat -d zbad.data >out.bin 2>err.txt
[ $? -eq 1 ] && grep -q "^pdcat: zbad.data: offset 0xcc: COMPRESSED: corrupt zstd data" err.txt ||
	fail "pdcat -d zbad.data: $(cat err.txt)"
# A zstd bomb: zbomb.pipe is a FINISHED_ROUND and one COMPRESSED record
# of 1993 bytes that expands to 18 MB of valid records (of an unknown
# type 0x41414141, 16705 bytes each), made by
#   yes AAAAAAAA$(printf '%16696s' '' | tr ' ' A) |
#	head -c $((1100 * 16705)) | zstd -19
cp "$PD_TOP/tests/cli/harden/zbomb.pipe" bomb.data
# (pddump decodes the 1100 records but, with -t, prints none of them.)
PDDUMP_T=SAMPLE
reject bomb.data "offset 0x18: COMPRESSED record expands past 16777216 bytes (a zstd bomb?)" \
    pddump pdstat pdsort pdswap
PDDUMP_T=
pdcat -d bomb.data >out.bin 2>err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "pdcat: bomb.data: offset 0x18: COMPRESSED record expands past 16777216 bytes (a zstd bomb?)" ] ||
	fail "pdcat -d bomb.data: $(cat err.txt)"
rows=$((rows + 2))

# HEADER_TRACING_DATA and AUXTRACE payload sizes past the end.
mkpipe tracing-data-past-end >tpast.data
reject tpast.data "offset 0x138: TRACING_DATA payload runs past the end of input (10 bytes missing)"
mkpipe auxtrace-past-end >apast.data
reject apast.data "offset 0x170: AUXTRACE payload runs past the end of input (8 bytes missing)"
# One too large to read before its record is handed out (over 512 KiB)
# is streamed; from a file, which says its size, one cut short is still
# refused at its record, before any of it is passed on, so the output
# ends where the input's good records do (from a pipe it is found short
# only once read).
cp apast.data abig.data
patch abig.data $((0x170 + 8)) $((1 << 30)) 8
reject abig.data "offset 0x170: AUXTRACE payload runs past the end of input (1073741808 bytes missing)"
pdcat abig.data >out.bin 2>/dev/null
head -c $((0x170)) abig.data | cmp -s - out.bin ||
	fail "pdcat abig.data: not the input up to its AUXTRACE record"
cat abig.data | pdcat >out.bin 2>err.txt
[ $? -eq 1 ] && grep -q "AUXTRACE payload runs past the end of input" err.txt ||
	fail "pdcat < abig.data: $(cat err.txt)"
rows=$((rows + 1))

# File mode: sections past the end, sections that overlap.
for c in "file-section-past-end:offset 0x28: data section [0x108, +0x1140) runs past the end of the file (0x38c)" \
    "file-attrs-past-end:offset 0x18: attrs section [0x78, +0x480) runs past the end of the file (0x38c)" \
    "file-feature-past-end:offset 0x258: feature section [0x2ac, +0xe1) runs past the end of the file (0x38c)" \
    "file-ids-past-end:offset 0xf8: attr ids section [0x68, +0x8000) runs past the end of the file (0x38c)"; do
	mkpipe "${c%%:*}" >"${c%%:*}.data"
	reject "${c%%:*}.data" "${c#*:}"
done
mkpipe file-mode >fm.data
cp fm.data ovfeat.data
patch ovfeat.data 0x248 0x108 8		# hostname section into the data
reject ovfeat.data "offset 0x248: feature section [0x108, +0x44) overlaps the data section [0x108, +0x140)"
cp fm.data ovattr.data
patch ovattr.data 24 0x40 8		# attrs into the file header
reject ovattr.data "offset 0x18: attrs section [0x40, +0x90) overlaps the file header [0x0, +0x68)"
cp fm.data ovdata.data
patch ovdata.data 40 0x100 8		# data into the attrs, same end
patch ovdata.data 48 0x148 8
reject ovdata.data "offset 0x28: data section [0x100, +0x148) overlaps the attrs section [0x78, +0x90)"

# A feature with a bad string length: pdswap must convert the string and
# cannot; pddump shows error=; the others pass the feature on as it is.
{ pipe_header; hdr 80 84; le 3 8; le 1000 4; printf 'host'; zeros 60
    tail -c +17 ok.data; } >featstr.data
reject featstr.data "offset 0x10: FEATURE: feature string runs past its section" pdswap
passes featstr.data pdcat pdsort pdstat
pddump featstr.data >out.txt || fail "pddump featstr.data: exit $?"
grep -q '^0x10 84 FEATURE feat_id=3 feature=hostname error="malformed feature body"$' out.txt ||
	fail "pddump featstr.data: $(head -n 1 out.txt)"
# The same in a file's HOSTNAME section.
cp fm.data ffeat.data
patch ffeat.data 0x268 1000 4
reject ffeat.data "offset 0x268: FEATURE: feature string runs past its section" pdswap
pdcat ffeat.data >out.bin 2>err.txt || fail "pdcat ffeat.data: $(cat err.txt)"
pddump ffeat.data | grep -q 'feature=hostname error="malformed feature body"' ||
	fail "pddump ffeat.data"
rows=$((rows + 3))

# Unknown record types pass through: not an error.
mkpipe unknown-type >unknown.data
passes unknown.data pdcat pdsort pdstat pdswap
pddump unknown.data >out.txt 2>err.txt || fail "pddump unknown.data: $(cat err.txt)"
[ ! -s err.txt ] || fail "pddump unknown.data said $(cat err.txt)"
grep -q '^0x[0-9a-f]* 24 200 ' out.txt && grep -q '^0x[0-9a-f]* 12 32769 ' out.txt ||
	fail "pddump unknown.data: unknown records not shown"
rows=$((rows + 1))

echo "$rows rows"
exit 0
