# SPDX-License-Identifier: MIT
# pdstat --pprof - refuses a terminal on standard output (a gzipped
# profile is no text): exit 2, the reason in one line, then the usage,
# and no profile written. A terminal from script(1) of util-linux.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v script >/dev/null 2>&1 || skip "no script (util-linux)"
f=$C/callchain.pipe.data

script -qec "pdstat --pprof - '$f' 2> err.txt; echo \$? > rc.txt" \
    /dev/null > tty.txt 2>&1 < /dev/null
[ -s rc.txt ] || fail "script(1) ran nothing: $(cat tty.txt)"
[ "$(cat rc.txt)" = 2 ] || fail "exit $(cat rc.txt), not 2: $(cat err.txt)"
[ "$(head -n 1 err.txt)" = "pdstat: --pprof -: refusing to write binary data to a terminal (give a file or a pipe)" ] ||
	fail "stderr: $(cat err.txt)"
[ "$(grep -c '^pdstat: ' err.txt)" = 1 ] || fail "stderr: $(cat err.txt)"
grep -q '^usage: pdstat ' err.txt || fail "no usage: $(cat err.txt)"
[ ! -s tty.txt ] || fail "wrote to the terminal: $(od -c tty.txt | head -3)"
# The same command to a pipe writes the profile.
pdstat --pprof - "$f" 2> /dev/null | gzip -t || fail "--pprof - | gzip -t"
echo "a terminal: refused (exit 2, one line); a pipe: a profile"
