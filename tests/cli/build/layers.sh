# SPDX-License-Identifier: MIT
# The house's rules, read from the code (README, Layout): which part of
# libcommon may include which; stream/ and sym/ never print, exit or
# touch signals; no tool includes another module's private header or
# another tool's files.
. "$PD_TOP/tests/cli/lib.sh"
scratch=$(pwd)	# what this test writes goes here
cd "$PD_TOP" || fail "no checkout"

# What each part may include, besides itself.
allowed() {
	case $1 in
	stream)	echo "stream" ;;
	sym)	echo "stream sym" ;;
	rec)	echo "stream rec" ;;
	cli)	echo "stream cli" ;;
	esac
}

bad=
for part in stream sym rec cli; do
	ok=$(allowed $part)
	for f in libcommon/$part/*.[ch]; do
		grep -o '#include "libcommon/[a-z]*/' "$f" |
		    sed 's|.*libcommon/||; s|/$||' | sort -u |
		while read -r inc; do
			case " $ok " in
			*" $inc "*) ;;
			*) echo "$f includes libcommon/$inc/" ;;
			esac
		done
	done
done >"$scratch/layers.out"
[ -s "$scratch/layers.out" ] && bad="$bad$(cat "$scratch/layers.out")
"
ls libcommon | grep -v '^\(stream\|sym\|rec\|cli\)$' >"$scratch/extra.out"
[ -s "$scratch/extra.out" ] && bad="${bad}libcommon holds more than its four parts: $(cat "$scratch/extra.out")
"

# The library parts that must never print, exit or handle signals.
grep -n 'printf *(\|\bputs *(\|\bexit *(\|\babort *(\|signal\|sigaction\|\berr *(\|\bwarn *(' \
    libcommon/stream/*.[ch] libcommon/sym/*.[ch] libcommon/rec/*.[ch] |
    grep -v 'snprintf\|asprintf\|/\*\| \* ' >"$scratch/io.out"
[ -s "$scratch/io.out" ] && bad="${bad}$(sed 's/^/prints, exits or signals: /' "$scratch/io.out")
"

# Tools: no private header of a module (symint.h), no other tool's file.
for t in pd*/; do
	t=${t%/}
	grep -Hn '#include "' $t/*.[ch] |
	    grep -v "#include \"libcommon/[a-z]*/[a-z0-9_]*\.h\"\|#include \"$t/" |
	    grep -v '#include "[a-z0-9_]*\.h"' >>"$scratch/tools.out"
	grep -Hn '#include "libcommon/sym/symint.h"' $t/*.[ch] >>"$scratch/tools.out"
done
[ -s "$scratch/tools.out" ] && bad="${bad}$(sed 's/^/tool reaches in: /' "$scratch/tools.out")
"

[ -z "$bad" ] || fail "$bad"
exit 0
