# SPDX-License-Identifier: MIT
# A merge of six inputs (five captures of this host, one of them, as
# restream rewrote its hostname, from another one, whose pids are then
# moved) under -m caps small enough that the queue is written half at a
# time: every cap writes the uncapped merge's records, each once, byte
# for byte (check.py same: the multiset, less FINISHED_ROUNDs), and says
# once that it reached the cap. The capped merges come out in another
# order than the uncapped one, so the cap did bite.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
d=$PD_TOP/tests/cli/pdsort
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
restream=$PD_TBIN/gen/restream
[ -x "$restream" ] || skip "no $restream"
for f in callchain.pipe.data switch-addr.pipe.data group-read.pipe.data \
    callchain.file.data zstd.pipe.data sched.pipe.data; do
	corpus_have "$C/$f" || skip "no $C/$f"
done
"$restream" hostname other < "$C/switch-addr.pipe.data" > other.data ||
	fail "restream hostname"
set -- "$C/callchain.pipe.data" other.data "$C/group-read.pipe.data" \
    "$C/callchain.file.data" "$C/zstd.pipe.data" "$C/sched.pipe.data"
pdsort --clock-offset other=0 "$@" > all.data 2> err.txt ||
	fail "uncapped: exit $?: $(cat err.txt)"
[ -s err.txt ] && fail "uncapped: $(cat err.txt)"
n=$($PY "$d/check.py" same all.data all.data | sed 's/[^0-9]//g')
[ "${n:-0}" -gt 10000 ] || fail "only ${n:-0} records merged"
for m in 1 64K 256K 512K; do
	pdsort -m $m --clock-offset other=0 "$@" > cap.data 2> err.txt ||
		fail "-m $m: exit $?: $(cat err.txt)"
	[ "$(grep -c 'reached its -m limit' err.txt)" = 1 ] ||
		fail "-m $m: no single warning: $(cat err.txt)"
	$PY "$d/check.py" same all.data cap.data > same.txt ||
		fail "-m $m: not the uncapped merge's records: $(cat same.txt)"
	cmp -s all.data cap.data && fail "-m $m: the same bytes as uncapped"
done
exit 0
