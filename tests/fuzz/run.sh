#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh TARGET...: runs each libFuzzer target for $SECONDS seconds from
# its seeds; a crash stops with its input under build/fuzz/.
# tests/fuzz/seed-TARGET, where present, holds seeds for that target
# only; the filemode target takes only file-mode inputs from the corpus.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
: "${SECONDS:=60}"
corpus=${PD_CORPUS:-$top/../shared/corpus}
rc=0
# A library's own leak is not a finding (tests/lsan.supp says which).
LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

# Whether $1 starts with a file-mode perf.data header (either order).
is_file_mode() {
	case $(od -An -tx1 -N16 "$1" | tr -d ' \n') in
	50455246494c45321000000000000000|32454c49465245500000000000000010)
		return 1 ;;
	50455246494c4532*|32454c4946524550*)
		return 0 ;;
	esac
	return 1
}

for t; do
	dir=build/fuzz/corpus_$t
	mkdir -p "$dir"
	if [ "$t" = filemode ]; then
		cp tests/fuzz/seed-$t/* "$dir"/
		for f in tests/fuzz/seed/* tests/fuzz/regress/*; do
			is_file_mode "$f" && cp "$f" "$dir"/
		done
		# Small real file-mode captures, whatever their name.
		[ -d "$corpus" ] && find "$corpus" -type f -size -64k |
		    while read -r f; do
			is_file_mode "$f" &&
			    cp "$f" "$dir/$(echo "${f#$corpus/}" | tr / _)"
		done
	else
		cp tests/fuzz/seed/* tests/fuzz/regress/* "$dir"/ 2>/dev/null
		[ -d tests/fuzz/seed-$t ] && cp tests/fuzz/seed-$t/* "$dir"/
		# Small real streams make the best seeds.
		[ -d "$corpus" ] && find "$corpus" -type f -size -64k \
		    -name '*data*' -exec cp {} "$dir"/ \; 2>/dev/null
	fi
	echo "fuzz_$t: ${SECONDS}s, $(ls "$dir" | wc -l) inputs to start"
	./build/fuzz/fuzz_$t -max_total_time="$SECONDS" -max_len=262144 \
	    -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/ "$dir" 2>build/fuzz/$t.log ||
	    { echo "fuzz_$t: FAILED, see build/fuzz/$t.log"; rc=1; }
	grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss' \
	    build/fuzz/$t.log
done
exit $rc
