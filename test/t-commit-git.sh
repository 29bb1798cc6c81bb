# t-commit-git.sh - series commit stores what git would: the cases where the
# work tree's bytes, paths or state are not what `git add` makes of them.
# The rule checked throughout: the final tree equals what `git add -u` (with
# --untracked: `git add -A`) and `git write-tree` give in a copy of the
# repository, and afterwards `git status` shows the rest as it was.

# would_commit ADDFLAG: the tree git itself would commit, from a copy of $R.
would_commit() {
	local copy=$scratch/would; rm -rf "$copy"; cp -a "$R" "$copy"
	( cd "$copy" && git add "$1" 2>/dev/null && git write-tree )
	rm -rf "$copy"
}

t_commit_file_dir_replaced() {
	newrepo filedir
	mkdir d; echo 1 > f; echo 1 > ./-x; echo 1 > d/y; echo 1 > keep; commit_all
	rm f; mkdir f; echo 2 > f/g            # a file becomes a directory
	rm ./-x; mkdir ./-x; echo 3 > ./-x/y   # the same, "-x" sorts before "."
	rm -r d; echo 4 > d                    # a directory becomes a file
	local want; want=$(would_commit -A)
	run plan -u
	eq "plan exit" "$rc" 0
	has "replacement in one group" "$out" "$(printf -- '-x (2 files)\n    D -x\n    A -x/y')"
	run commit -u -m 'SEDME: swap'
	eq "exit" "$rc" 0
	eq "tree as git add -A" "$(git rev-parse HEAD^{tree})" "$want"
	eq "clean" "$(git status --porcelain)" ""
	# every commit of the series is a tree git can check out
	local c
	for c in $(git rev-list HEAD~2..HEAD); do
		git ls-tree -r "$c" > /dev/null && ok || bad "commit $c unreadable"
	done
	eq "two commits" "$(git rev-list --count HEAD~2..HEAD)" 2
	# without --untracked the new files are not taken; the deletions are
	newrepo filedir-u
	echo 1 > f; commit_all
	rm f; mkdir f; echo 2 > f/g
	want=$(would_commit -u)
	run commit -m 'SEDME: swap'
	eq "-u exit" "$rc" 0
	eq "-u tree" "$(git rev-parse HEAD^{tree})" "$want"
	eq "-u new file untracked" "$(git status --porcelain)" "?? f/"
}

t_commit_rm_cached_stays_untracked() {
	newrepo rmcached
	mkdir a; echo 1 > a/x.c; echo 1 > a/y.c; commit_all
	git rm -q --cached a/x.c
	echo 2 >> a/y.c
	local want; want=$(would_commit -u)
	run commit -m 'SEDME: fix'
	eq "exit" "$rc" 0
	eq "tree as git add -u" "$(git rev-parse HEAD^{tree})" "$want"
	eq "deleted in the commit" "$(git ls-tree HEAD a/ | wc -l)" 1
	eq "still untracked" "$(git status --porcelain)" "?? a/x.c"
	# with --untracked, git add -A takes it back: the same content is no change
	newrepo rmcached-A
	mkdir a; echo 1 > a/x.c; echo 1 > a/y.c; commit_all
	git rm -q --cached a/x.c; echo 2 >> a/y.c
	want=$(would_commit -A)
	run plan -u
	eq "plan lists only y" "$out" "$(printf 'a (1 file)\n    M a/y.c\n1 group, 1 file')"
	run commit -u -m 'SEDME: fix'
	eq "-A tree" "$(git rev-parse HEAD^{tree})" "$want"
	eq "-A clean" "$(git status --porcelain)" ""
}

t_commit_rename_then_new_file_at_old_path() {
	newrepo renamenew
	mkdir a b; echo old > a/x; echo 1 > b/keep; commit_all
	git mv a/x b/x; echo new > a/x
	local want; want=$(would_commit -A)
	run commit -u -m 'SEDME: move'
	eq "exit" "$rc" 0
	eq "tree as git add -A" "$(git rev-parse HEAD^{tree})" "$want"
	eq "new file kept" "$(git show HEAD:a/x)" "new"
	eq "clean" "$(git status --porcelain)" ""
	newrepo renamenew-u
	mkdir a b; echo old > a/x; echo 1 > b/keep; commit_all
	git mv a/x b/x; echo new > a/x
	want=$(would_commit -u)
	run commit -m 'SEDME: move'
	eq "-u tree" "$(git rev-parse HEAD^{tree})" "$want"
	eq "-u new file untracked" "$(git status --porcelain -uall)" "?? a/x"
}

t_commit_filters_and_eol() {
	newrepo filters
	mkdir a b c d
	printf 'one\ntwo\n' > a/t.txt; printf 'secret\n' > b/s.up; printf 'big\n' > c/big.bin
	printf 'lf\n' > d/e.txt; printf 'bin\r\n' > d/raw.dat; echo x > keep
	commit_all
	git config filter.up.clean 'tr a-z A-Z'; git config filter.up.smudge cat
	# an lfs-like filter: the repository stores a pointer, not the bytes
	git config filter.ptr.clean 'printf "pointer %s\n" "$(wc -c | tr -d " ")"'
	git config filter.ptr.smudge cat
	printf '*.up filter=up\n*.bin filter=ptr\nd/*.txt text eol=lf\n*.dat -text\n' > .gitattributes
	git add .gitattributes; git commit -qm attrs
	git config core.autocrlf true
	printf 'one\r\ntwo\r\nthree\r\n' > a/t.txt
	printf 'secret more\n' > b/s.up
	head -c 100000 /dev/zero > c/big.bin
	printf 'crlf\r\nlines\r\n' > d/e.txt
	printf 'bin\r\nmore\r\n' > d/raw.dat
	local want; want=$(would_commit -u)
	run commit -m 'SEDME: conv'
	eq "exit" "$rc" 0
	eq "tree as git add -u" "$(git rev-parse HEAD^{tree})" "$want"
	eq "clean filter applied" "$(git show HEAD:b/s.up)" "SECRET MORE"
	eq "pointer stored" "$(git show HEAD:c/big.bin)" "pointer 100000"
	eq "autocrlf applied" "$(git show HEAD:a/t.txt | od -An -c | tr -d ' \n')" 'one\ntwo\nthree\n'
	eq "eol=lf applied" "$(git show HEAD:d/e.txt | od -An -c | tr -d ' \n')" 'crlf\nlines\n'
	eq "-text kept" "$(git show HEAD:d/raw.dat | od -An -c | tr -d ' \n')" 'bin\r\nmore\r\n'
	eq "status clean" "$(git status --porcelain)" ""
	eq "index is HEAD" "$(git diff --cached --name-only)" ""
}

t_commit_filemode_false() {
	newrepo filemode
	mkdir a; echo 1 > a/old; commit_all
	git config core.fileMode false
	printf '#!/bin/sh\n' > a/new.sh; chmod +x a/new.sh
	echo 2 >> a/old; chmod +x a/old
	local want; want=$(would_commit -A)
	run commit -u -m 'SEDME: add'
	eq "exit" "$rc" 0
	eq "tree as git add -A" "$(git rev-parse HEAD^{tree})" "$want"
	eq "new file 644 in the commit" "$(git ls-tree HEAD a/new.sh | cut -c1-6)" "100644"
	eq "new file 644 in the index" "$(git ls-files -s a/new.sh | cut -c1-6)" "100644"
	eq "old keeps 644" "$(git ls-tree HEAD a/old | cut -c1-6)" "100644"
	eq "clean" "$(git status --porcelain)" ""
}

t_commit_put_back_is_no_change() {
	newrepo putback
	mkdir a b; echo 1 > a/f; echo 1 > b/f; commit_all
	echo 2 >> a/f; git add a/f; echo 1 > a/f   # staged, then put back
	run plan
	eq "nothing to plan" "$rc" 1
	eq "plan says so" "$err" "series: nothing to commit"
	local s; s=$(snapshot)
	run commit -m 'SEDME: x'
	eq "nothing to commit" "$rc" 1
	eq "unchanged" "$(snapshot)" "$s"
	echo 2 >> b/f
	run plan
	eq "plan lists b only" "$out" "$(printf 'b (1 file)\n    M b/f\n1 group, 1 file')"
	run commit -m 'SEDME: x'
	eq "exit" "$rc" 0
	eq "one commit" "$(git log --format=%s -1)" "b: x"
	eq "no empty commit" "$(git rev-list --count HEAD)" 2
	eq "put-back path clean" "$(git status --porcelain)" ""
}

t_commit_refuses_during_operations() {
	newrepo inprogress
	echo 1 > f; mkdir a; echo 1 > a/x; commit_all
	git checkout -q -b side; echo side > side; git add side; git commit -qm side
	git checkout -q main; git merge -q --no-commit --no-ff side >/dev/null 2>&1
	echo 2 >> a/x
	local s; s=$(snapshot)
	run commit -m 'SEDME: x'
	eq "merge refused" "$rc" 3
	has "names the merge" "$err" "a merge is in progress"
	eq "merge: unchanged" "$(snapshot)" "$s"
	git merge --abort
	local what
	for what in CHERRY_PICK_HEAD:cherry-pick REVERT_HEAD:revert rebase-merge:rebase rebase-apply:rebase; do
		echo 3 >> a/x
		case ${what%%:*} in rebase-*) mkdir .git/"${what%%:*}";;
			*) git rev-parse HEAD > .git/"${what%%:*}";; esac
		s=$(snapshot)
		run commit -m 'SEDME: x'
		eq "${what%%:*} refused" "$rc" 3
		has "${what%%:*} named" "$err" "a ${what#*:}"
		eq "${what%%:*} one line" "$(wc -l <<<"$err")" 1
		eq "${what%%:*} unchanged" "$(snapshot)" "$s"
		rm -rf .git/"${what%%:*}"
	done
	run commit -m 'SEDME: x'
	eq "after the operation" "$rc" 0
}

t_commit_hooks() {
	newrepo hooks
	mkdir a b; echo 1 > a/f; echo 1 > b/f; commit_all
	echo 2 >> a/f; echo 2 >> b/f
	local log=$scratch/hooks.log; : > "$log"
	cat > .git/hooks/pre-commit <<EOF
#!/bin/sh
echo "pre-commit \$(git diff --cached --name-only | tr '\n' ' ')\$(git show :a/f | tail -1)" >> "$log"
EOF
	cat > .git/hooks/commit-msg <<EOF
#!/bin/sh
echo "commit-msg \$(head -1 "\$1")" >> "$log"
printf '\nChange-Id: I%s\n' "\$(head -1 "\$1" | cut -c1)" >> "\$1"
EOF
	chmod +x .git/hooks/pre-commit .git/hooks/commit-msg
	run commit -m 'SEDME: x'
	eq "exit" "$rc" 0
	eq "hooks ran, pre-commit once, on the staged index" "$(cat "$log")" \
		"$(printf 'pre-commit a/f b/f 2\ncommit-msg a: x\ncommit-msg b: x')"
	eq "commit-msg edits kept" "$(git log -1 --format=%B)" "$(printf 'b: x\n\nChange-Id: Ib')"
	eq "clean" "$(git status --porcelain)" ""
	# a failing hook stops the run with nothing changed
	echo 3 >> a/f
	printf '#!/bin/sh\necho refused >&2\nexit 1\n' > .git/hooks/pre-commit
	local s; s=$(snapshot)
	run commit -m 'SEDME: x'
	eq "pre-commit refuses" "$rc" 3
	has "says which" "$err" "pre-commit hook failed (exit 1)"
	eq "pre-commit: unchanged" "$(snapshot)" "$s"
	rm .git/hooks/pre-commit
	printf '#!/bin/sh\nexit 2\n' > .git/hooks/commit-msg
	run commit -m 'SEDME: x'
	eq "commit-msg refuses" "$rc" 3
	has "commit-msg named" "$err" "commit-msg hook failed (exit 2)"
	eq "commit-msg: unchanged" "$(snapshot)" "$s"
	printf '#!/bin/sh\n: > "$1"\n' > .git/hooks/commit-msg
	run commit -m 'SEDME: x'
	eq "emptied message refused" "$rc" 3
	has "emptied" "$err" "emptied the message"
	eq "emptied: unchanged" "$(snapshot)" "$s"
	run commit --no-verify -m 'SEDME: x'
	eq "--no-verify skips hooks" "$rc" 0
	eq "--no-verify message" "$(git log -1 --format=%B)" "a: x"
	# core.hooksPath is where git looks, so series looks there too
	mkdir "$scratch/hookdir"; git config core.hooksPath "$scratch/hookdir"
	printf '#!/bin/sh\nexit 1\n' > "$scratch/hookdir/pre-commit"; chmod +x "$scratch/hookdir/pre-commit"
	echo 4 >> a/f
	run commit -m 'SEDME: x'
	eq "hooksPath honoured" "$rc" 3
	# a hook that is not executable does not run, as in git
	chmod -x "$scratch/hookdir/pre-commit"
	run commit -m 'SEDME: x'
	eq "non-executable hook ignored" "$rc" 0
}

t_commit_signing_refused() {
	newrepo signing
	echo 1 > f; commit_all; echo 2 >> f
	git config commit.gpgSign true
	local s; s=$(snapshot)
	run commit -m 'SEDME: x'
	eq "gpgSign refused" "$rc" 3
	has "says why" "$err" "commit.gpgSign is true, but series cannot sign"
	eq "one line" "$(wc -l <<<"$err")" 1
	eq "unchanged" "$(snapshot)" "$s"
	run commit -n -m 'SEDME: x'
	eq "dry run still shows" "$rc" 0
	run commit --no-gpg-sign -m 'SEDME: x'
	eq "--no-gpg-sign commits" "$rc" 0
	git config --unset commit.gpgSign
	echo 3 >> f
	s=$(snapshot)
	run commit -S -m 'SEDME: x'
	eq "-S refused" "$rc" 3
	has "-S named" "$err" "-S was given"
	eq "-S unchanged" "$(snapshot)" "$s"
}

t_commit_relative_git_dir() {
	newrepo reldir
	mkdir a b; echo 1 > a/f; echo 1 > b/f; commit_all
	echo 2 >> a/f
	GIT_DIR=.git GIT_WORK_TREE=. run commit -m 'SEDME: x'
	eq "GIT_DIR=.git" "$rc" 0
	eq "committed" "$(git log -1 --format=%s)" "a: x"
	echo 2 >> b/f
	( cd a && GIT_DIR=../.git GIT_WORK_TREE=.. run commit -m 'SEDME: y' -- ../b
	  eq "from a subdirectory" "$rc" 0 )
	eq "subdir commit" "$(git log -1 --format=%s)" "b: y"
	eq "clean" "$(git status --porcelain)" ""
	# core.worktree, run from inside the git directory
	newrepo coreworktree
	mkdir "$scratch/cwt"; git config core.worktree "$scratch/cwt"
	cd "$scratch/cwt"; mkdir a; echo 1 > a/f; git --git-dir="$R/.git" add -A
	git --git-dir="$R/.git" commit -qm base; echo 2 >> a/f
	cd "$R/.git"
	run commit -m 'SEDME: z'
	eq "core.worktree from the git dir" "$rc" 0
	eq "core.worktree commit" "$(git log -1 --format=%s)" "a: z"
	eq "core.worktree clean" "$(git status --porcelain)" ""
}

# The fault test again, with a pre-commit hook (git then writes the blobs),
# a commit-msg hook and a clean filter (the converted blobs come from git
# hash-object): a git failing at any of those steps changes nothing.
# A repository whose commit runs a clean filter (a/x.up is stored upper
# case) and, with "hooks", a pre-commit and a commit-msg hook.
fhscenario() {
	newrepo "$1"
	mkdir a b; echo 1 > a/x.up; echo 1 > b/y; commit_all
	git config filter.up.clean 'tr a-z A-Z'; git config filter.up.smudge cat
	echo '*.up filter=up' > .gitattributes; git add .gitattributes; git commit -qm attrs
	echo two >> a/x.up; echo 2 >> b/y
	if [ "$2" = hooks ]; then
		printf '#!/bin/sh\nexit 0\n' > .git/hooks/pre-commit
		printf '#!/bin/sh\nprintf "\\nChange-Id: I1\\n" >> "$1"\n' > .git/hooks/commit-msg
		chmod +x .git/hooks/pre-commit .git/hooks/commit-msg
	fi
	BASE=$(git rev-parse HEAD)
}
fh_hooks() { fhscenario "$1" hooks; }
fh_filter() { fhscenario "$1" filter; }
fh_result() {
	eq "$1 result" "$(git log --format=%s "$BASE"..HEAD | tr '\n' ' ')" "b: fix a: fix "
	eq "$1 tree" "$(git show HEAD~1:a/x.up | tail -1)" "TWO"
	eq "$1 clean" "$(git status --porcelain)" ""
}

t_faults_with_hooks_and_filters() {
	local names_step=1
	local variant
	for variant in hooks filter; do
		each_fault "fh_$variant" "fh-$variant" fh_result commit -m 'SEDME: fix'
		[ "$variant" = filter ] && { grep -q ' hash-object$' "$scratch/fh-filter.steps" && ok || bad "no hash-object step"; }
	done
}
