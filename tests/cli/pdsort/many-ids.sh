# SPDX-License-Identifier: MIT
# An event with more sample ids than one pipe-mode HEADER_ATTR holds
# (8173 after a 128-byte attr; perf record -p of a process with 4k
# threads on 2 CPUs has them): a file-mode perf.data with 9000, which
# perf reads, goes through pdcat, pdsort (alone and merged with itself:
# every id renumbered), pdswap and back, as several HEADER_ATTR records
# (the later ones marked as more ids of the same event); perf script
# reads every sample of each, and pdstat counts one event per input;
# merged as two hosts' each record is named event@host, so that perf
# names every sample of each host.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
n=9000
mkpipe file-ids $n > f.data || fail "mkpipe file-ids"
samples() { perf script -i "$1" -F tid,time,ip 2> err.txt | tr -s ' ' | sort; }
samples f.data > want.txt
[ "$(wc -l < want.txt)" = $n ] ||
	fail "perf reads $(wc -l < want.txt) samples of the file: $(head -2 err.txt)"

pdcat f.data > p.data || fail "pdcat: exit $?"
pddump p.data | awk '$3 == "ATTR" { print $4 ~ /^misc=0x8000/ }' > attrs.txt
[ "$(tr -d '\n' < attrs.txt)" = 01 ] ||
	fail "not two ATTR records, the second more ids: $(cat attrs.txt)"
samples p.data > got.txt
cmp -s want.txt got.txt ||
	fail "pdcat: perf reads $(wc -l < got.txt) samples: $(head -2 err.txt)"

pdsort p.data > s.data || fail "pdsort: exit $?"
samples s.data > got.txt
cmp -s want.txt got.txt || fail "pdsort: perf reads $(wc -l < got.txt) samples"

pdsort p.data p.data > m.data || fail "pdsort merge: exit $?"
samples m.data > got.txt
sort want.txt want.txt | cmp -s - got.txt ||
	fail "pdsort merge: perf reads $(wc -l < got.txt) samples"

pdswap p.data | pdswap > w.data || fail "pdswap: exit $?"
cmp -s p.data w.data || fail "pdswap twice changed the stream"

# Two hosts: perf names all of each host's samples by their EVENT_UPDATE.
restream=$PD_TBIN/gen/restream
"$restream" hostname hA < p.data > ha.data || fail "restream hA"
"$restream" hostname hB < p.data > hb.data || fail "restream hB"
pdsort --clock-offset hB=0 ha.data hb.data > h.data || fail "pdsort hosts"
perf script -i h.data -F event 2> err.txt | sort | uniq -c |
    awk '{ print $2, $1 }' > named.txt
[ "$(tr '\n' ' ' < named.txt)" = "cpu-clock@hA: $n cpu-clock@hB: $n " ] ||
	fail "perf names the hosts' samples: $(cat named.txt)"

# One event per input: pdcat's output has one, the merge two.
events() { pdstat "$1" | awk '/^event/ { e = 1; next } e && NF == 0 { exit } e { print $1, $2 }'; }
[ "$(events p.data)" = "cpu-clock $n" ] || fail "pdstat p.data: $(events p.data)"
[ "$(events m.data | tr '\n' ' ')" = "cpu-clock $n cpu-clock $n " ] ||
	fail "pdstat m.data: $(events m.data)"
exit 0
