# SPDX-License-Identifier: MIT
# The man pages' remote examples, through a real sshd (sshd.inc): every
# EXAMPLES block of man/ with an "ssh HOST pdrecord ..." line is run line
# by line, "ssh HOST" being the test's ssh and pdrecord this checkout's
# (by its absolute path, as the remote PATH does not have it), long
# sleeps cut to one second. Then local.data is read by pdstat, pddump -s
# and perf script, which must agree with each other and with the count
# that the remote pdrecord printed (on ssh's stderr) on its samples.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/remote/sshd.inc"
need_perf
command -v bash >/dev/null 2>&1 || skip "no bash (for pipefail)"
start_sshd

# The blocks, one file each: ex.N holds block N's lines.
n=0
for m in "$PD_TOP"/man/*.[1-8]; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$m" | awk -v page="${m##*/}" '
	/^\.Bd/ { inb = 1; nl = 0; next }
	/^\.Ed/ { if (inb && hit) { print "#" page; for (i = 1; i <= nl; i++) print l[i]; print "#end" }
		  inb = 0; hit = 0; next }
	# An indented line goes on the command before it.
	inb && /^[ \t]/ && nl > 0 { l[nl] = l[nl] " " $0; next }
	inb { sub(/^\$ /, ""); l[++nl] = $0
	      if ($0 ~ /^ssh [^ ]+ pdrecord /) hit = 1 }' |
	sed 's/\\-/-/g; s/\\e/\\/g'
done > blocks.txt
[ "$(grep -c '^#end' blocks.txt)" -ge 2 ] ||
	fail "fewer than two remote examples in man/: $(cat blocks.txt)"

# samples_of FILE: the SAMPLE count pdstat gives FILE.
samples_of() {
	pdstat "$1" 2> stat.err | awk '$1 == "SAMPLE" { print $2; exit }'
}

b=0
while IFS= read -r line; do
	case $line in
	'#end')	# The block ran: read what it recorded, three ways.
		[ -s local.data ] || fail "$page: no local.data"
		s=$(sed -n 's/^pdrecord: \([0-9]*\) bytes, \([0-9]*\) samples, [0-9]* lost$/\1 \2/p' "err.$b.$si")
		[ -n "$s" ] || fail "$page: no pdrecord summary on ssh's stderr: $(cat "err.$b.$si")"
		set -- $s
		[ "$(wc -c < local.data)" = "$1" ] ||
			fail "$page: local.data has $(wc -c < local.data) bytes, pdrecord wrote $1"
		st=$(samples_of local.data)
		[ -s stat.err ] && fail "$page: pdstat: $(cat stat.err)"
		[ "${st:-0}" -gt 0 ] || fail "$page: no samples in local.data"
		[ "$st" = "$2" ] || fail "$page: pdstat counts $st samples, pdrecord wrote $2"
		pddump -s local.data > dump.txt 2> dump.err ||
			fail "$page: pddump -s: $(cat dump.err)"
		dn=$(awk '$3 == "SAMPLE"' dump.txt | wc -l)
		[ "$dn" = "$st" ] || fail "$page: pddump -s printed $dn samples, pdstat $st"
		grep -q '^    0x[0-9a-f]* ' dump.txt || fail "$page: pddump -s printed no call chains"
		# The recipe's kallsyms (root's: its addresses are shown).
		if [ -s root/proc/kallsyms ] && [ "$(id -u)" = 0 ]; then
			pddump -s --symfs root local.data | grep -q \
			    '^    0x[0-9a-f]* [a-z_][^ ]*+0x[0-9a-f]* (\[kernel\.kallsyms\])$' ||
				fail "$page: no kernel names from root/proc/kallsyms"
		fi
		perf script -i local.data -G -F pid,time > script.txt 2> script.err ||
			fail "$page: perf script: $(cat script.err)"
		pn=$(wc -l < script.txt)
		[ "$pn" = "$st" ] || fail "$page: perf script printed $pn samples, pdstat $st"
		echo "$page: $st samples, $1 bytes"
		rm -f local.data;;
	'#'*)	page=${line#\#}; b=$((b + 1)); i=0;;
	*)	i=$((i + 1))
		case $line in ssh*pdrecord*) si=$i;; esac
		run=$(echo "$line" | sed "s|^ssh [^ ]* pdrecord |$ssh $ssh_host $PD_BIN/pdrecord |
		    s|^ssh host |$ssh $ssh_host |
		    s#| *ssh host #| $ssh $ssh_host #g
		    s/sleep [0-9][0-9]*/sleep 1/")
		bash -o pipefail -c "$run" > "out.$b.$i" 2> "err.$b.$i" < /dev/null ||
			fail "$page: example failed: $run: $(cat "err.$b.$i")";;
	esac
done < blocks.txt
exit 0
