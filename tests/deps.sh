#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh install|missing PKG...: the Debian packages pdtools needs.
# "install" installs them all; "missing" installs only those not yet
# installed. Without root, it prints the apt-get line instead and goes
# on: the build then fails on a missing library, a test skips without
# its tool.
mode=$1; shift

# Whether a package's job is done: installed, or (linux-perf, which
# Ubuntu calls linux-tools-*) a perf that runs.
have() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed' &&
		return 0
	[ "$1" = linux-perf ] && perf version >/dev/null 2>&1
}

if [ "$mode" = missing ]; then
	need=
	for p in "$@"; do
		have "$p" || need="$need $p"
	done
	[ -z "$need" ] && exit 0
	set -- $need
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: not a Debian/Ubuntu system; install the equivalents of: $*" >&2
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; as root, run:" >&2
	echo "deps:   apt-get install -y --no-install-recommends $*" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "deps: installing $*" >&2
apt-get update -qq >/dev/null ||
	{ echo "deps: apt-get update failed" >&2; exit 1; }
# A name this archive does not have (Ubuntu has no linux-perf) is left
# out with a word, rather than failing the whole install. Packages that
# are installed stay at their version (--no-upgrade).
pkgs=
for p in "$@"; do
	if apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then
		pkgs="$pkgs $p"
	elif [ "$p" = linux-perf ]; then
		echo "deps: no linux-perf here; install perf for this kernel" \
		    "(Ubuntu: linux-tools-\$(uname -r))" >&2
	else
		echo "deps: no package $p in this archive; left out" >&2
	fi
done
[ -z "$pkgs" ] && exit 0
apt-get install -y -qq --no-install-recommends --no-upgrade $pkgs >/dev/null ||
	{ echo "deps: apt-get install$pkgs failed" >&2; exit 1; }
