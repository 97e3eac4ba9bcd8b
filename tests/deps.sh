#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh install|missing PKG...: the Debian packages pdtools needs.
# "install" installs them all; "missing" installs only those not yet
# installed. Without root, it prints the apt-get line instead.
mode=$1; shift
if [ "$mode" = missing ]; then
	need=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'ok installed' || need="$need $p"
	done
	[ -z "$need" ] && exit 0
	set -- $need
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: not a Debian/Ubuntu system; install the equivalents of: $*" >&2
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: as root, run: apt-get install -y $*" >&2
	[ "$mode" = missing ] && exit 1
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq "$@" >/dev/null ||
	{ echo "deps: apt-get install $* failed" >&2; exit 1; }
