# SPDX-License-Identifier: MIT
# make install puts the tools and their pages where man and a shell find
# them; make uninstall takes them away again.
. "$PD_TOP/tests/cli/lib.sh"
command -v make >/dev/null 2>&1 || skip "no make"
# This make is not part of the outer one's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL
root=$PWD/root
pdmake() {
	make -s --no-print-directory -C "$PD_TOP" SANITIZE="${PD_SANITIZE:-}" \
	    DESTDIR="$root" PREFIX=/usr "$@"
}
pdmake install > install.log 2>&1 || fail "make install: $(cat install.log)"

n=0
for t in "$PD_TOP"/pd*/; do
	t=${t%/}
	t=${t##*/}
	[ -f "$PD_TOP/$t/$t.c" ] || continue
	n=$((n + 1))
	[ -x "$root/usr/bin/$t" ] || fail "$t not installed in /usr/bin"
	v=$("$root/usr/bin/$t" --version) || fail "$t --version failed"
	case $v in "$t "*) ;; *) fail "$t --version: '$v'";; esac
done
[ "$n" -gt 0 ] || fail "no tools found"
for m in "$PD_TOP"/man/*.[1-8]; do
	f=${m##*/}
	[ -f "$root/usr/share/man/man${f##*.}/$f" ] ||
		fail "$f not installed in man${f##*.}"
done

if command -v man >/dev/null 2>&1; then
	w=$(man -M "$root/usr/share/man" -w pdcat) ||
		fail "man -w pdcat did not find the page"
	[ "$w" = "$root/usr/share/man/man1/pdcat.1" ] ||
		[ "$w" = "$root/usr/share/man/man1/pdcat.1.gz" ] ||
		fail "man -w pdcat: $w"
	MANPATH=$root/usr/share/man man pdcat 2> man.err > man.txt ||
		fail "man pdcat: $(cat man.err)"
	grep -q 'join perf.data inputs into one pipe-mode stream' man.txt ||
		fail "man pdcat did not show the page: $(head -n 5 man.txt)"
	MANPATH=$root/usr/share/man man 7 pdtools 2> /dev/null |
		grep -q 'small filters for the perf.data pipe stream' ||
		fail "man 7 pdtools did not show the page"
else
	echo "no man(1): pages checked as files only"
fi

pdmake uninstall > uninstall.log 2>&1 ||
	fail "make uninstall: $(cat uninstall.log)"
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
