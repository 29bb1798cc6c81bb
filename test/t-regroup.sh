# t-regroup.sh - series regroup: an existing linear range rewritten into
# another organisation.  Every run is checked
# against the rule: the final tree is HEAD's, the base stays, the branch
# moves once, the index and the work tree are not touched; trailers follow
# the files they were given for.

# rg_series: a base and one commit per file, each with trailers.
rg_series() {
	newrepo "$1"
	mkdir -p a b/c
	local p
	for p in a/x a/y b/z b/c/w top; do printf 'one\ntwo\n' > "$p"; done
	commit_all
	RG_BASE=$(git rev-parse HEAD)
	rg_commit a/x "Acked-by: Ann <ann@example.org>"
	rg_commit a/y "Acked-by: Ann <ann@example.org>
Reviewed-by: Rob <rob@example.org>"
	rg_commit b/z "Tested-by: Tim <tim@example.org>"
	rg_commit b/c/w "Tested-by: Tim <tim@example.org>"
	rg_commit top ""
	RG_TREE=$(git rev-parse HEAD^{tree})
}
rg_commit() {
	echo changed >> "$1"; git add "$1"
	local msg="$1: change"
	if [ -n "$2" ]; then msg="$msg

$2
Signed-off-by: Tess Ter <tess@example.org>"
	else msg="$msg

Signed-off-by: Tess Ter <tess@example.org>"; fi
	git commit -q -m "$msg"
}

# files_of_commits BASE: each commit since BASE, oldest first, as
# "subject: file file...".
files_of_commits() {
	local c
	for c in $(git rev-list --reverse "$1"..HEAD); do
		echo "$(git log -1 --format=%s "$c"): $(git diff-tree -r --no-commit-id --name-only "$c" | tr '\n' ' ')"
	done
}

t_regroup_every_pair() {
	local from to orgs="file dir tree depth1"
	declare -A want=(
		[file]="a/x: x: a/x 
a/y: x: a/y 
b/c/w: x: b/c/w 
b/z: x: b/z 
top: x: top "
		[dir]=".: x: top 
a: x: a/x a/y 
b: x: b/z 
b/c: x: b/c/w "
		[tree]="treewide: x: a/x a/y b/c/w b/z top "
		[depth1]=".: x: top 
a: x: a/x a/y 
b: x: b/c/w b/z ")
	for from in $orgs; do
		for to in $orgs; do
			rg_series "rg-$from-$to"
			regroup_to "$from"
			eq "$from: made" "$rc" 0
			regroup_to "$to"
			eq "$from -> $to: exit" "$rc" 0
			eq "$from -> $to: HEAD's tree" "$(git rev-parse HEAD^{tree})" "$RG_TREE"
			eq "$from -> $to: on the base" "$(git merge-base HEAD "$RG_BASE")" "$RG_BASE"
			local got; got=$(files_of_commits "$RG_BASE")
			if [ "$to" = file ]; then got=$(sort <<<"$got"); fi
			eq "$from -> $to: the commits" "$got" "$(if [ "$to" = file ]; then sort <<<"${want[$to]}"; else echo "${want[$to]}"; fi)"
			eq "$from -> $to: clean" "$(git status --porcelain)" ""
		done
	done
}
regroup_to() {
	case $1 in
	depth1) run regroup --depth 1 -m 'SEDME: x' "$RG_BASE"..HEAD;;
	file) run regroup --by file -m 'SEDME: x' "$RG_BASE"..HEAD;;
	*) run regroup --by "$1" -m 'SEDME: x' "$RG_BASE"..HEAD;;
	esac
}

t_regroup_trailers() {
	rg_series rg-trailers
	local before; before=$(snapshot)
	run regroup -n -s -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "-n: exit" "$rc" 0
	eq "-n: nothing written" "$(snapshot)" "$before"
	has "-n: Ann kept in a" "$out" "    | a: x
    | 
    | Acked-by: Ann <ann@example.org>
    | Signed-off-by: Tess Ter <tess@example.org>"
	has "-n: every fate" "$out" "kept    Acked-by: Ann <ann@example.org>: "
	has "-n: Rob dropped" "$out" "dropped Reviewed-by: Rob <rob@example.org>: "
	local ay; ay=$(git log -1 --format=%H --grep '^a/y: change' | cut -c1-12)
	run regroup -s -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "regroup: exit" "$rc" 0
	has "summary" "$out" "4 commits, 5 files on refs/heads/main: "
	has "summary: was" "$out" "(was 5 commits)"
	eq "the one lost trailer is said" "$(grep -c warning <<<"$err")" 1
	has "Rob: named with its commit" "$err" "series: warning: 'Reviewed-by: Rob <rob@example.org>' of $ay (a/y: change) is dropped from a: the new commit there also holds changes of commits without it"
	has "Rob: dropped from a" "$err" "(a/y: change) is dropped from a:"
	local msg
	msg=$(git log --format=%B --grep '^a: x')
	eq "a keeps Ann, then the user's sign-off once" "$msg" "a: x

Acked-by: Ann <ann@example.org>
Signed-off-by: Tess Ter <tess@example.org>"
	msg=$(git log --format=%B --grep '^b/c: x')
	eq "b/c keeps Tim" "$msg" "b/c: x

Tested-by: Tim <tim@example.org>
Signed-off-by: Tess Ter <tess@example.org>"
	# back to one commit: Tim is in b and b/c, Ann in a only: all dropped
	# without -s the user's own sign-off is a trailer like the others:
	# every commit carried it, so the one new commit keeps it
	run regroup --by tree -m 'treewide: x' "$RG_BASE"..HEAD
	eq "tree: the sign-off every commit carried is kept" "$(git log -1 --format=%B)" "treewide: x

Signed-off-by: Tess Ter <tess@example.org>"
	eq "tree: Ann of a, Tim of b and of b/c said" "$(grep -c warning <<<"$err")" 3
}

# Without -s, a Signed-off-by goes where every commit its files come from
# carried it, and one that cannot be kept is named, as any trailer is.
t_regroup_keeps_signoff() {
	rg_series rg-sob
	echo more >> top; git add top; git commit -qm 'top: more'
	run regroup -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "exit" "$rc" 0
	eq "a keeps Ann and the sign-off" "$(git log --format=%B --grep '^a: x')" "a: x

Acked-by: Ann <ann@example.org>
Signed-off-by: Tess Ter <tess@example.org>"
	eq "top: a commit without it, so none" "$(git log --format=%B --grep '^\.: x')" ".: x"
	has "top: the lost sign-off named" "$err" "'Signed-off-by: Tess Ter <tess@example.org>' of "
	has "top: where" "$err" "(top: change) is dropped from .:"
}

t_regroup_refusals() {
	rg_series rg-refuse
	echo local >> a/x; echo staged > new.txt; git add new.txt
	local before; before=$(snapshot)
	run regroup -m x "$RG_BASE"..HEAD~1
	eq "not ending at HEAD: exit 3" "$rc" 3
	has "not HEAD: said" "$err" "the range must end at HEAD"
	run regroup -m x HEAD~1..HEAD~2
	eq "base not an ancestor" "$rc" 3
	run regroup -m x "$RG_BASE"
	eq "no range: usage" "$rc" 2
	run regroup "$RG_BASE"..HEAD
	eq "no template: usage" "$rc" 2
	eq "nothing changed" "$(snapshot)" "$before"
	# the index and the work tree are not touched by a regroup that works
	local idx wt
	idx=$(git ls-files -s); wt=$(git status --porcelain)
	run regroup -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "with local changes: exit" "$rc" 0
	eq "the index as it was" "$(git ls-files -s)" "$idx"
	eq "the status as it was" "$(git status --porcelain)" "$wt"
	eq "the branch moved once" "$(git reflog -1 --format=%gs)" "series: 4 commits"
	# a merge in the range
	rg_series rg-merge
	git checkout -q -b side "$RG_BASE"; echo s > side.txt; git add side.txt; git commit -qm side
	git checkout -q main; git merge -q --no-edit side
	before=$(snapshot)
	run regroup -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "a merge: exit 3" "$rc" 3
	has "a merge: said" "$err" "is a merge; only a linear range can be regrouped"
	eq "a merge: nothing changed" "$(snapshot)" "$before"
}

# The fake git of t-commit.sh failing at every step of regroup and of
# split --commit: nothing changes, or the result is right.
# The series of rg_series, and its change as one diff (rgf.diff) with
# the branch back at the base, for split --commit.
rg_split_start() {
	rg_series "$1"
	git diff "$RG_BASE" HEAD > "$scratch/rgf.diff"
	git reset -q --hard "$RG_BASE"
}
rg_result() {
	eq "$1: the tree" "$(git rev-parse HEAD^{tree})" "$RG_TREE"
	eq "$1: 4 commits" "$(git rev-list --count "$RG_BASE"..HEAD)" 4
}

t_regroup_faults() {
	rg_series rgf-regroup            # for RG_BASE, before the loop
	each_fault rg_series rgf-regroup rg_result regroup -m SEDME:x "$RG_BASE"..HEAD
}

t_regroup_signals() {
	make_fakegit
	prepared rg_series rg-sig
	fake_run 0 none regroup -m x "$RG_BASE"..HEAD
	cp "$scratch/count.log" "$scratch/rg-sig.steps"
	each_signal rg_series rg-sig "diff-tree fast-import update-ref" "TERM INT" regroup -m x "$RG_BASE"..HEAD
}

# regroup into and out of the MAINTAINERS organisations: the final tree is
# HEAD's and the commits are the groups plan --by shows for the range.
t_regroup_by_owner() {
	gtree g-regroup
	local base f from to
	base=$(git rev-parse HEAD)
	for f in $(git diff --name-only); do git commit -qm "$f: y" -- "$f"; done
	local tip tree; tip=$(git rev-parse HEAD); tree=$(git rev-parse HEAD^{tree})
	for from in file dir tree subsystem maintainers route; do
		for to in subsystem maintainers route dir; do
			git reset -q --hard "$tip"
			run regroup --by "$from" -m 'SEDME: y' "$base"..HEAD
			eq "to $from: exit" "$rc" 0
			local want; want=$(plan_sets "$("$SERIES" plan --by "$to" "$base"..HEAD)")
			run regroup --by "$to" -m '%(prefix)y' "$base"..HEAD
			eq "$from -> $to: exit" "$rc" 0
			eq "$from -> $to: HEAD's tree" "$(git rev-parse HEAD^{tree})" "$tree"
			eq "$from -> $to: the groups of plan" "$(commit_sets "$base")" "$want"
			eq "$from -> $to: clean" "$(git status --porcelain)" ""
		done
	done
	# and the sets are the ones counted out above
	git reset -q --hard "$tip"
	run regroup --by route -m '%(prefix)y' "$base"..HEAD
	eq "route: the commits" "$(commit_sets "$base")" "README 
drivers/gadget/g.c 
drivers/gpio/gpio-a.c drivers/misc/gpio-helper.c 
drivers/gpio/gpio-legacy.c 
drivers/i2c/busses/i2c-bcm2835.c drivers/i2c/busses/i2c-foo.c drivers/i2c/i2c-core.c 
drivers/net/ethernet/eth.c drivers/net/phy/phy.c 
drivers/widget/w.c 
fs/one.c fs/two.c "
	# no history before the base: %(prefix) follows the path, as kernel
	# subjects do (drivers/net/...: "net: ", not NETWORKING DRIVERS)
	has "route: %(prefix) without history" "$(git log --format=%s "$base"..HEAD)" "net: y"
}

# A rename in the range stays one change: in one new commit, with its old
# path gone in that same commit, so no commit has the file twice or not
# at all (bisect keeps building).
t_regroup_keeps_renames() {
	newrepo rg-rename
	mkdir -p a b
	for i in 1 2 3 4 5 6 7 8 9; do echo "line $i"; done > a/file.c
	echo 1 > b/other.c
	commit_all
	local base; base=$(git rev-parse HEAD)
	git mv a/file.c b/file.c; echo changed >> b/file.c; git add -A; git commit -qm 'move file'
	echo 2 >> b/other.c; git commit -qam 'other'
	local tree; tree=$(git rev-parse HEAD^{tree})
	run regroup --by dir -m 'SEDME: x' "$base..HEAD"
	eq "exit" "$rc" 0
	eq "the tree" "$(git rev-parse HEAD^{tree})" "$tree"
	local c n
	for c in $(git rev-list "$base..HEAD"); do
		n=$(git ls-tree -r --name-only "$c" | grep -c 'file.c$')
		eq "$(git log -1 --format=%s "$c"): the file once" "$n" 1
	done
	eq "one commit holds the rename whole" "$(git log --format= --name-status -M "$base..HEAD" | grep -c '^R')" 1
}

# A new commit whose changes all come from one author's commits keeps
# that author (and the last one's date); one that mixes authors is the
# committer's.
t_regroup_keeps_authors() {
	newrepo rg-authors
	mkdir -p a b c
	echo 1 > a/x; echo 1 > a/y; echo 1 > b/z; echo 1 > c/w
	commit_all
	local base; base=$(git rev-parse HEAD)
	echo 2 >> a/x; GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org GIT_AUTHOR_DATE='@1600000000 +0100' git commit -qam 'a/x'
	echo 2 >> a/y; GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org GIT_AUTHOR_DATE='@1600000100 +0100' git commit -qam 'a/y'
	echo 2 >> b/z; echo 2 >> c/w; GIT_AUTHOR_NAME=Bob GIT_AUTHOR_EMAIL=bob@example.org git commit -qam 'b and c'
	echo 3 >> c/w; GIT_AUTHOR_NAME=Cat GIT_AUTHOR_EMAIL=cat@example.org git commit -qam 'c'
	run regroup --by dir -m 'SEDME: x' "$base..HEAD"
	eq "exit" "$rc" 0
	eq "the authors" "$(git log --reverse --format='%s %an %ad' --date=raw "$base..HEAD")" "a: x Ann 1600000100 +0100
b: x Bob 1700000000 +0000
c: x Tess Ter 1700000000 +0000"
}

# A note a person added to an old commit message stays where a new commit
# is exactly that commit, and is named in a warning where none is.
t_regroup_keeps_notes() {
	newrepo rg-notes
	mkdir -p a b
	echo 1 > a/x; echo 1 > b/y; echo 1 > b/z
	commit_all
	local base; base=$(git rev-parse HEAD)
	echo 2 >> a/x; git commit -qam 'a: fix

Tested on a BeagleBone: the LED blinks.'
	echo 2 >> b/y; git commit -qam 'b: fix y

Only y for now.'
	echo 2 >> b/z; git commit -qam 'b: fix z'
	run regroup --by dir -m 'SEDME: fix' "$base..HEAD"
	eq "exit" "$rc" 0
	eq "a is exactly the old commit: the note kept" "$(git log -1 --format=%B HEAD~1)" "a: fix

Tested on a BeagleBone: the LED blinks."
	eq "b merges two: no note" "$(git log -1 --format=%B HEAD)" "b: fix"
	has "and its loss is named" "$err" "(b: fix y) beyond its subject and trailers is dropped"
	lacks "a's is not" "$err" "(a: fix)"
}

# The body every commit of the series shares (its template's) is not a
# note on one commit: a template without it is named once, with how many
# new commits lack it, not once per old commit; a note on one commit is
# still named on its own.
t_regroup_shared_body() {
	newrepo rg-body
	mkdir -p a b c
	echo 1 > a/x; echo 1 > b/y; echo 1 > c/z
	commit_all
	local base; base=$(git rev-parse HEAD)
	echo 2 >> a/x; echo 2 >> b/y; echo 2 >> c/z
	printf 'SEDME: fix\n\nThe series body.\n' > "$scratch/body.msg"
	run commit -F "$scratch/body.msg"
	eq "three commits" "$(git rev-list --count "$base..HEAD")" 3
	git commit -q --amend -m "$(git log -1 --format=%B)

Tested on a board."
	run regroup -n --by tree -m 'treewide: fix' "$base..HEAD"
	eq "-n: exit" "$rc" 0
	eq "the shared body: one warning" "$(grep -c 'The series body' <<<"$err")" 1
	has "the shared body: named once, with the count" "$err" "series: warning: the text all 3 commits share beyond their subjects and trailers is in 0 of 1 new commits (1 paragraph, from \"The series body.\")"
	eq "the note on one commit: still named" "$(grep -c 'dropped: no new commit is exactly it (1 paragraph, from "Tested on a board.")' <<<"$err")" 1
	run regroup -n --by tree -F "$scratch/body.msg" "$base..HEAD"
	lacks "a template with the body: nothing said of it" "$err" "share beyond"
	# a new template in the same form: each new commit is exactly an old
	# one and keeps that one's own note, not the old template's body
	printf 'SEDME: fix it\n\nThe new body.\n' > "$scratch/new.msg"
	run regroup -F "$scratch/new.msg" "$base..HEAD"
	eq "new template: exit" "$rc" 0
	local all; all=$(git log --format=%B "$base..HEAD")
	eq "new template: the new body in each" "$(grep -c '^The new body.$' <<<"$all")" 3
	lacks "new template: not the old body" "$all" "The series body."
	eq "new template: the note on one commit kept" "$(grep -c '^Tested on a board.$' <<<"$all")" 1
}

# --include: the real run makes what -n shows, the included files'
# commits, and says that the rest stays as the base has it.
t_regroup_include() {
	rg_series rg-incl
	local tip; tip=$(git rev-parse HEAD)
	run regroup -n --include 'a/*' -m 'SEDME: x' "$RG_BASE..HEAD"
	eq "-n: exit" "$rc" 0
	local shown; shown=$(grep -E '^[^ ].* \([0-9]+ files?\)$' <<<"$out")
	run regroup --include 'a/*' -m 'SEDME: x' "$RG_BASE..HEAD"
	eq "exit" "$rc" 0
	eq "what -n showed" "$(git log --reverse --format=%s "$RG_BASE..HEAD" | sed 's/: x$//')" "$(sed 's/ (.*//' <<<"$shown")"
	eq "a/ as the tip had it" "$(git rev-parse HEAD:a)" "$(git rev-parse "$tip:a")"
	eq "b/ as the base had it" "$(git rev-parse HEAD:b)" "$(git rev-parse "$RG_BASE:b")"
	has "the rest is said, and the old tip" "$err" "3 files outside --include stay as ${RG_BASE:0:12} has them; the old tip is ${tip:0:12}"
}
