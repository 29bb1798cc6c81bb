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
