# t-commit.sh - series commit against throwaway repositories (the scenario
# of every kind of change is plan's too).

# Every kind of change, staged and not, across directories and the top.
scenario() {
	newrepo "${1:-basic}"
	mkdir -p a/b c d f g h i
	for p in top.txt a/x a/b/y c/z c/w d/old f/link g/script h/mm keep.txt; do
		printf 'line 1\nline 2 of %s\n' "$p" > "$p"
	done
	commit_all
	BASE=$(git rev-parse HEAD)
	echo more >> top.txt                      # unstaged, top level
	echo more >> a/x                          # unstaged
	echo more >> a/b/y; git add a/b/y         # staged only
	rm c/z                                    # deleted, unstaged
	git rm -q c/w                             # deleted, staged
	git mv d/old d/new                        # renamed, staged
	mkdir -p e; echo new > e/new; git add e/new   # added
	rm f/link; ln -s ../top.txt f/link        # type change
	chmod +x g/script                         # mode change
	echo staged >> h/mm; git add h/mm; echo worktree >> h/mm   # MM
	echo gone > i/ad; git add i/ad; rm i/ad   # added then deleted: no change
	echo untracked > a/untracked.txt          # only with --untracked
}

t_commit_every_kind() {
	scenario
	local before; before=$(find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)
	local mm; mm=$(cat h/mm)
	run commit -m 'SEDME: fix'
	eq "exit" "$rc" 0
	has "summary" "$out" "9 commits, 10 files on refs/heads/main"
	eq "commits" "$(git rev-list --count "$BASE"..HEAD)" 9
	eq "base is parent" "$(git rev-parse HEAD~9)" "$BASE"
	eq "subjects" "$(git log --reverse --format=%s "$BASE"..HEAD | tr '\n' '|')" \
		".: fix|a: fix|a/b: fix|c: fix|d: fix|e: fix|f: fix|g: fix|h: fix|"
	# i/ad was added, then deleted: no commit changes, so it stays as it was
	eq "status clean" "$(git status --porcelain -uno)" "AD i/ad"
	eq "diff HEAD empty" "$(git diff HEAD --stat)" ""
	eq "work tree untouched" "$(find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)" "$before"
	eq "MM commits the work tree" "$(git show HEAD:h/mm)" "$mm"
	eq "symlink" "$(git ls-tree HEAD f/link | cut -c1-6)" "120000"
	eq "exec bit" "$(git ls-tree HEAD g/script | cut -c1-6)" "100755"
	eq "rename in one commit" "$(git show --format= --name-status -M "$BASE"..HEAD -- d | tr '\t\n' '  ')" "R100 d/old d/new "
	eq "deletes" "$(git ls-tree HEAD c/ | wc -l)" 0
	eq "no stray ref" "$(git for-each-ref refs/series)" ""
	eq "diff-files clean (index refreshed)" "$(git diff-files --name-only)" "i/ad"
	run commit -m 'SEDME: again'
	eq "second run: nothing" "$rc" 1
	has "nothing message" "$err" "nothing to commit"
}

t_commit_keeps_unselected() {
	scenario
	local d1 d2 s1
	d1=$(git diff -- top.txt e h keep.txt); d2=$(git diff --cached -- top.txt e h)
	s1=$(git ls-files -s -- top.txt e h)
	run commit -m 'SEDME: fix' -- a c
	eq "exit" "$rc" 0
	eq "three commits" "$(git rev-list --count "$BASE"..HEAD)" 3
	eq "unstaged elsewhere kept" "$(git diff -- top.txt e h keep.txt)" "$d1"
	eq "staged elsewhere kept" "$(git diff --cached -- top.txt e h)" "$d2"
	eq "index elsewhere kept" "$(git ls-files -s -- top.txt e h)" "$s1"
	eq "selected clean" "$(git status --porcelain -uno -- a c)" ""
	# --include: a filter inside the pathspec
	run commit -m 'SEDME: more' --include '*.txt'
	eq "include commit" "$(git log -1 --format=%s)" ".: more"
	eq "others still staged" "$(git diff --cached --name-only | tr '\n' ' ')" "d/new e/new h/mm i/ad "
}

t_commit_hostile_paths() {
	newrepo hostile
	local names=("sp ace" $'tab\there' $'new\nline' 'quo"te' 'back\slash' \
		'ütf-8 ☃' '-leading' 'amp&er' 'pi|pe' "it's" '$(echo x)' '*star?')
	mkdir -p -- 'd&ir|x\y' '-d'
	for n in "${names[@]}"; do echo 1 > "$n"; echo 1 > "d&ir|x\\y/$n"; echo 1 > "-d/$n"; done
	commit_all
	for n in "${names[@]}"; do echo 2 >> "$n"; echo 2 >> "d&ir|x\\y/$n"; git mv -- "-d/$n" "-d/$n.moved"; done
	run commit --by file -m 'SEDME' -- ':(literal)d&ir|x\y'
	eq "by file exit" "$rc" 0
	eq "one commit a file" "$(git rev-list --count HEAD~${#names[@]}..HEAD)" "${#names[@]}"
	local subjects; subjects=$(git log --format=%B -n ${#names[@]} | grep -c '^d&ir|x\\y/')
	eq "names in subjects" "$subjects" "${#names[@]}"
	eq "selected clean" "$(git status --porcelain -z -- ':(literal)d&ir|x\y' | tr '\0' '\n')" ""
	run commit -m '[SEDME] & \1 | done'
	eq "by dir exit" "$rc" 0
	eq "dir subjects" "$(git log -2 --format=%s | tr '\n' '|')" '[.] & \1 | done|[-d] & \1 | done|'
	eq "all clean" "$(git status --porcelain -z | tr '\0' '\n')" ""
	eq "diff HEAD empty" "$(git diff HEAD --stat)" ""
	eq "content" "$(git show "HEAD:new
line")" "$(printf '1\n2')"
}

t_template_substitution() {
	newrepo tmpl
	mkdir -p 'x&y|z\w'; echo 1 > 'x&y|z\w/f'; commit_all; echo 2 >> 'x&y|z\w/f'
	printf 'SEDME: subject SEDME\n\nBody names SEDME and SEDMESEDME.\n\n\n' > "$scratch/t"
	run commit -F "$scratch/t"
	eq "exit" "$rc" 0
	eq "message" "$(git log -1 --format=%B)" "$(printf '%s\n\n%s' 'x&y|z\w: subject x&y|z\w' 'Body names x&y|z\w and x&y|z\wx&y|z\w.')"
	echo 3 >> 'x&y|z\w/f'
	run commit -F - < "$scratch/t"
	eq "template on stdin" "$(git log -1 --format=%s)" 'x&y|z\w: subject x&y|z\w'
}

t_signoff() {
	newrepo sob
	mkdir a b c; echo 1 > a/f; echo 1 > b/f; echo 1 > c/f; commit_all
	echo 2 >> a/f; echo 2 >> b/f; echo 2 >> c/f
	run commit -s -m 'SEDME: fix' -- a
	eq "signed" "$(git log -1 --format=%B)" "$(printf 'a: fix\n\nSigned-off-by: Tess Ter <tess@example.org>')"
	run commit -s -m "$(printf 'SEDME: fix\n\nSigned-off-by: Tess Ter <tess@example.org>')" -- b
	eq "not twice" "$(git log -1 --format=%B | grep -c Signed-off-by)" 1
	run commit -s -m "$(printf 'SEDME: fix\n\nReported-by: R <r@x>')" -- c
	eq "joins trailers" "$(git log -1 --format=%B)" "$(printf 'c: fix\n\nReported-by: R <r@x>\nSigned-off-by: Tess Ter <tess@example.org>')"
}

t_dry_run_writes_nothing() {
	scenario
	local s; s=$(snapshot)
	run commit -n -s -m 'SEDME: fix'
	eq "exit" "$rc" 0
	has "message shown" "$out" "    | a/b: fix"
	has "signoff shown" "$out" "    | Signed-off-by: Tess Ter <tess@example.org>"
	eq "unchanged" "$(snapshot)" "$s"
}

t_unborn_branch() {
	newrepo unborn
	mkdir -p a b; echo 1 > a/f; echo 1 > b/f; echo 1 > top
	git add a
	run commit -m 'SEDME: init' --untracked
	eq "exit" "$rc" 0
	eq "three commits" "$(git rev-list --count HEAD)" 3
	eq "root" "$(git rev-list --max-parents=0 HEAD)" "$(git rev-parse HEAD~2)"
	eq "on main" "$(git symbolic-ref HEAD)" "refs/heads/main"
	eq "clean" "$(git status --porcelain)" ""
	newrepo unborn-noindex
	echo 1 > f
	run commit -m 'SEDME: init'
	eq "no index, nothing tracked" "$rc" 1
	run commit -m 'SEDME: init' -u
	eq "no index, untracked" "$rc" 0
	eq "clean" "$(git status --porcelain)" ""
}

t_detached_head() {
	scenario detached
	git checkout -q --detach
	run commit -m 'SEDME: fix' -- a
	eq "exit" "$rc" 0
	eq "branch untouched" "$(git rev-parse main)" "$BASE"
	eq "HEAD moved" "$(git rev-parse HEAD~2)" "$BASE"
	eq "still detached" "$(git symbolic-ref -q HEAD; echo $?)" 1
}

t_index_lock_held() {
	scenario locked
	: > .git/index.lock
	local s; s=$(snapshot)
	run commit -m 'SEDME: fix'
	eq "fails" "$rc" 3
	has "names the lock" "$err" "index.lock: File exists"
	eq "one line" "$(wc -l <<<"$err")" 1
	eq "unchanged" "$(snapshot)" "$s"
}

t_exit_codes_and_usage() {
	newrepo codes
	echo 1 > f; commit_all
	run commit -m x;            eq "nothing" "$rc" 1
	run commit;                 eq "no template" "$rc" 2
	has "says why" "$err" "a message template is required"
	run commit -m x --by bogus; eq "bad --by" "$rc" 2
	run plan --depth 0;         eq "bad --depth" "$rc" 2
	run plan stray;             eq "stray word" "$rc" 2
	run frobnicate;             eq "unknown command" "$rc" 2
	run;                        eq "no command" "$rc" 2
	run -h;                     eq "help" "$rc" 0
	has "help lists commit" "$out" "series commit"
	has "help lists exits" "$out" "2 usage"
	echo 2 >> f
	run commit -m '   '; eq "blank template" "$rc" 3
	has "blank" "$err" "template is empty"
	run commit -F "$scratch/none"; eq "missing template" "$rc" 3
	printf 'a\0b' > "$scratch/nul"
	run commit -F "$scratch/nul"; eq "NUL template" "$rc" 3
	has "NUL" "$err" "NUL byte"
	cd "$scratch" && mkdir -p notrepo && cd notrepo
	local c
	printf -- '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-1\n+2\n' > "$scratch/one.diff"
	for c in plan "commit -m x" format check "regroup -m x a..HEAD" "split --commit -m x $scratch/one.diff"; do
		GIT_CEILING_DIRECTORIES=$scratch run $c
		eq "not a repo: $c: exit" "$rc" 3
		eq "not a repo: $c: one line, git's reason as ours" "$err" \
			"series: not a git repository (or any of the parent directories): .git"
	done
	# git's reason and the command it suggests, on one line
	if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
		mkdir -p "$scratch/dubious" && cd "$scratch/dubious" && git init -q &&
			chown -R nobody "$scratch/dubious"
		run plan
		eq "dubious ownership: one line" "$err" "series: detected dubious ownership in repository at '$scratch/dubious' (git config --global --add safe.directory $scratch/dubious)"
		chown -R "$(id -u)" "$scratch/dubious"
	else
		echo "t_exit_codes_and_usage: dubious ownership SKIPPED: needs root"
	fi
}

t_subdirectory_and_worktree() {
	scenario subdir
	cd a
	run commit -m 'SEDME: fix' -- .
	eq "subdir exit" "$rc" 0
	eq "pathspec relative to cwd" "$(git log --format=%s "$BASE"..HEAD | tr '\n' '|')" "a/b: fix|a: fix|"
	cd "$R"
	git worktree add -q "$scratch/wt" -b wt "$BASE"
	cd "$scratch/wt"
	echo wt >> c/z
	run commit -m 'SEDME: wt'
	eq "worktree exit" "$rc" 0
	eq "worktree branch" "$(git log -1 --format=%s wt)" "c: wt"
	eq "worktree clean" "$(git status --porcelain)" ""
	cd "$R"
	eq "main worktree untouched" "$(git status --porcelain -- c | tr '\n' ' ')" "D  c/w  D c/z "
}

t_user_config_pinned() {
	scenario config
	git config core.quotePath true
	git config status.showUntrackedFiles all
	git config status.relativePaths true
	git config status.renames false
	git config diff.noprefix true
	git config color.ui always
	git config status.short true
	git config status.branch true
	echo 1 > 'ü name'; git add 'ü name'
	run commit -m 'SEDME: fix'
	eq "exit" "$rc" 0
	has "untracked not taken" "$(git status --porcelain)" "?? a/untracked.txt"
	eq "only these left" "$(git status --porcelain | tr '\n' ' ')" "AD i/ad ?? a/untracked.txt "
	eq "rename kept whole" "$(git log --format= --name-status -M --grep '^d: fix' | tr '\t\n' '  ')" "R100 d/old d/new "
}

# A failure series can tell from a normal answer (exit 1 of update-index
# --refresh), or garbage in output it does not parse: then the result must
# be right.
faults_result() {
	eq "$1 result" "$(git log --format=%s "$BASE"..HEAD | tr '\n' ' ')" "c: fix a/b: fix a: fix "
	eq "$1 clean" "$(git status --porcelain -uno -- a c)" ""
	eq "$1 others kept" "$(git status --porcelain -uno | wc -l)" 7
}

t_faults_at_every_step() {
	local names_step=1
	each_fault scenario faults faults_result commit -m 'SEDME: fix' -- a c
	[ "$(wc -l < "$scratch/faults.steps")" -ge 8 ] && ok || bad "only $(wc -l < "$scratch/faults.steps") git steps seen"
}

t_signal_mid_run() {
	make_fakegit
	prepared scenario sig
	fake_run 0 none commit -m x -- a      # learn the step numbers
	cp "$scratch/count.log" "$scratch/sig.steps"
	each_signal scenario sig "fast-import update-index update-ref" "TERM INT HUP" commit -m x -- a
}

t_branch_moved_during_run() {
	make_fakegit
	scenario moved
	git commit -q --allow-empty -m elsewhere
	local other; other=$(git rev-parse HEAD); git reset -q --soft HEAD~1
	fake_run 0 none commit -m x -- a
	scenario moved
	git commit -q --allow-empty -m elsewhere; other=$(git rev-parse HEAD); git reset -q --soft HEAD~1
	local k; k=$(grep -n ' update-ref$' "$scratch/count.log" | cut -d: -f1)
	local idx; idx=$(git ls-files -s)
	MOVE_TO=$other fake_run "$k" move commit -m x -- a
	eq "refused" "$rc" 3
	has "says moved" "$err" "did not move"
	eq "someone else's commit kept" "$(git rev-parse HEAD)" "$other"
	eq "index unchanged" "$(git ls-files -s)" "$idx"
	eq "no lock left" "$(ls .git/index.lock 2>/dev/null)" ""
}

# commit groups as plan shows: one commit per group.
t_commit_by_subsystem() {
	gtree g-commit
	run commit --by subsystem -m '%(section): do it'
	eq "commit subsystem: exit" "$rc" 0
	eq "commit subsystem: commits" "$(git log --format=%s main~10..main | sort)" "$(printf '%s\n' \
		'ETHERNET PHY LIBRARY: do it' 'GADGET DRIVERS: do it' 'GPIO SUBSYSTEM: do it' \
		'I2C BCM2835 DRIVER: do it' 'I2C SUBSYSTEM: do it' 'NETWORKING DRIVERS: do it' \
		'THE REST: do it' 'THE REST: do it' 'THE REST: do it' 'WIDGET DRIVERS: do it')"
	eq "commit subsystem: the work tree is committed" "$(git status --porcelain)" ""
}
