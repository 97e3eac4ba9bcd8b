#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh TARGET...: runs each libFuzzer target for $SECONDS seconds from
# its seeds; a crash stops with its input under build/fuzz/.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
: "${SECONDS:=60}"
corpus=${PD_CORPUS:-$top/../shared/corpus}
rc=0
for t; do
	dir=build/fuzz/corpus_$t
	mkdir -p "$dir"
	cp tests/fuzz/seed/* tests/fuzz/regress/* "$dir"/ 2>/dev/null
	# Small real streams make the best seeds.
	[ -d "$corpus" ] && find "$corpus" -type f -size -64k \
	    -name '*data*' -exec cp {} "$dir"/ \; 2>/dev/null
	echo "fuzz_$t: ${SECONDS}s"
	./build/fuzz/fuzz_$t -max_total_time="$SECONDS" -max_len=262144 \
	    -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/ "$dir" 2>build/fuzz/$t.log ||
	    { echo "fuzz_$t: FAILED, see build/fuzz/$t.log"; rc=1; }
	grep -E 'stat::number_of_executed_units|stat::peak_rss' \
	    build/fuzz/$t.log
done
exit $rc
