# t-run.sh - the suite's own helpers, which every "nothing changed" check
# stands on: snapshot() must see each kind of change, also where its
# cache of hashes holds the file (an mtime older than its racy window).

t_snapshot_sees_changes() {
	newrepo snap
	printf 'one\n' > a; printf 'two\n' > b; ln -s a l
	commit_all
	touch -h -d @1600000000 a b l
	local s0 s1
	s0=$(snapshot); s1=$(snapshot)
	eq "twice: the same" "$s1" "$s0"
	has "the cache holds a" "$(cat "$scratch/.snapcache")" "/a 4 1600000000"
	printf 'ONE\n' > a
	lacks "a byte changed, the size kept: seen" "$(snapshot)" "$(grep '^\./a ' <<<"$s0")"
	printf 'one\n' > a
	eq "the same bytes written again: the same" "$(snapshot)" "$s0"
	chmod +x b
	[ "$(snapshot)" != "$s0" ] && ok || bad "a mode change: not seen"
	chmod -x b
	ln -sf b l
	[ "$(snapshot)" != "$s0" ] && ok || bad "a link's target: not seen"
	ln -sf a l
	eq "put back: the same" "$(snapshot)" "$s0"
	: > new
	[ "$(snapshot)" != "$s0" ] && ok || bad "a new file: not seen"
	rm new
	: > .git/stray
	[ "$(snapshot)" != "$s0" ] && ok || bad "a stray file in .git: not seen"
	rm .git/stray
	git update-ref refs/heads/x HEAD
	[ "$(snapshot)" != "$s0" ] && ok || bad "a new ref: not seen"
	git update-ref -d refs/heads/x
	git rm -q --cached b
	[ "$(snapshot)" != "$s0" ] && ok || bad "the index: not seen"
	git add b
	eq "all put back: the same" "$(snapshot)" "$s0"
}
