# SPDX-License-Identifier: MIT
# A merge takes inputs of any byte order (issue 22): a big-endian copy
# of an input, or of both, merges to the very bytes the native ones do
# (the output is native), and a real s390x stream merges beside an
# x86_64 one with every sample of each, per host.
. "$PD_TOP/tests/cli/lib.sh"
C=$PD_TOP/tests/data/corpus
a=$C/callchain.pipe.data b=$C/sched.pipe.data
pdsort "$a" "$b" > native.data 2> err.txt || fail "pdsort: $(cat err.txt)"
pdswap -t big -o b.big "$b" || fail "pdswap b"
pdswap -t big -o a.big "$a" || fail "pdswap a"
pdsort "$a" b.big > one.data 2> err.txt || fail "pdsort a b.big: $(cat err.txt)"
cmp -s native.data one.data || fail "a big-endian input: other bytes"
pdsort - b.big < a.big > both.data 2> err.txt ||
	fail "pdsort - b.big: $(cat err.txt)"
cmp -s native.data both.data || fail "two big-endian inputs: other bytes"

# s390x beside x86_64: hosts "vm" and "(none)", no CLOCK_DATA: by hand.
s=$C/bigendian/s390x-sched.pipe.data
pdsort --clock-offset '(none)=0' "$b" "$s" > m.data 2> err.txt ||
	fail "pdsort x86_64 s390x: $(cat err.txt)"
counts() { pdstat "$@" 2> /dev/null | awk '/^event/ { on = 1; next }
    on && NF == 0 { exit } on && $2 > 0 { sub(/@.*/, "", $1); print $1, $2 }'; }
counts "$b" | sed 's/$/ vm/' > want.txt
counts "$s" | sed 's/$/ (none)/' >> want.txt
pdstat m.data 2> /dev/null | awk '/^event/ { on = 1; next }
    on && NF == 0 { exit } on && $2 > 0 { h = $1; sub(/^[^@]*@/, "", h)
    sub(/@.*/, "", $1); print $1, $2, h }' > got.txt
sort want.txt > w.txt; sort got.txt > g.txt
[ -s w.txt ] && cmp -s w.txt g.txt ||
	fail "per-host samples: want $(cat w.txt), got $(cat g.txt)"
