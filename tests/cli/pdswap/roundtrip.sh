# pdswap -t swap | pdswap -t swap gives the input back byte for byte, for
# our corpus streams and the real big-endian ones, compressed ones too
# (recompressed as perf did); file-mode ones come back as their pipe
# stream (pdcat).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
n=0
for f in "$C"/*.pipe.data "$C"/bigendian/*.pipe.data; do
	pdswap -t swap < "$f" > sw.data 2>err.txt || fail "$f: $(cat err.txt)"
	[ -s err.txt ] && fail "$f: stderr: $(cat err.txt)"
	cmp -s sw.data "$f" && fail "$f: -t swap changed nothing"
	pdswap -t swap < sw.data > rt.data || fail "$f: back"
	cmp rt.data "$f" || fail "$f: round trip differs"
	# an input already in the target order passes unchanged
	case $f in
	*bigendian*)	pdswap -t big < "$f" | cmp - "$f" ||
			    fail "$f: -t big of big input";;
	*)		pdswap -t little < "$f" | cmp - "$f" ||
			    fail "$f: -t little of little input";;
	esac
	n=$((n + 1))
done
for f in "$C"/*.file.data "$C"/bigendian/*.file.data; do
	pdcat "$f" > cat.data || fail "pdcat $f"
	pdswap -t swap "$f" | pdswap -t swap | pdswap > rt.data ||
		fail "$f: round trip"
	cmp rt.data cat.data || fail "$f: round trip differs from pdcat"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n corpus streams"
