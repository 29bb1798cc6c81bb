# t-corpus.sh - every seed and every kept crasher of the fuzz corpus, run
# through its harness without libFuzzer (under ASan with make check).

t_fuzz_corpus() {
	local f n
	for f in status patch maintainers regex diff mbox; do
		[ -x "$here/corpus-$f" ] || { bad "no test/corpus-$f (make test builds it)"; continue; }
		n=$(ls "$here/corpus/$f" | wc -l)
		[ "$n" -gt 0 ] || { bad "empty corpus $f"; continue; }
		out=$("$here/corpus-$f" "$here"/corpus/"$f"/* 2>/dev/null); rc=$?
		eq "corpus $f: exit" "$rc" 0
		eq "corpus $f: all inputs" "$out" "$n inputs"
	done
}

# test/parity where linux-source-6.1 is installed (it says SKIPPED if not).
t_parity() {
	local log=$scratch/parity.log line
	PARITY_CACHE=${PARITY_CACHE:-$ORIG_HOME/.cache/series-parity} \
		SERIES=$SERIES bash "$here/parity" > "$log" 2>&1
	if grep -q SKIPPED "$log"; then cat "$log"; return; fi
	grep -E '^parity: (equal|[0-9]+ cases)' "$log"
	grep -A6 '^DIFF' "$log" | head -40
	line=$(grep -E '^parity: [0-9]+ passed, [0-9]+ failed$' "$log")
	[ -n "$line" ] || { bad "parity did not finish: $(tail -n 3 "$log")"; return; }
	local p f
	p=$(sed 's/^parity: \([0-9]*\) passed, \([0-9]*\) failed$/\1/' <<<"$line")
	f=$(sed 's/^parity: \([0-9]*\) passed, \([0-9]*\) failed$/\2/' <<<"$line")
	pass=$((pass + p)); failed=$((failed + f))
}
