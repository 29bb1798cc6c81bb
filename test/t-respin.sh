# t-respin.sh - series respin: the next version in one command, in place,
# from the last version's record, the pattern run again on the new base;
# its refusals, faults and signals.  The campaign it starts from is
# t-status.sh's (campaign, replies).

# The campaign one cycle on: upstream also gained a GPIO driver the
# pattern now matches and a line beside widget's; the branch has the
# tags of the replies (series trailers).  $PAT: the pattern as a script.
respin_campaign() {
	campaign "$1"
	git checkout -q up
	printf 'int x;\n' > drivers/gpio/gpio-new.c
	echo 'int z;' >> drivers/widget/w.c
	git add -A && git commit -qm 'gpio: new driver; widget: a line'
	git checkout -q main
	replies > "$scratch/replies.mbox"
	"$SERIES" trailers "$scratch/replies.mbox" "$FB..HEAD" > /dev/null 2>&1 || bad "respin_campaign: trailers"
	PAT=$scratch/$1.pattern
	printf '%s\n' "for f in \$(git ls-files | grep -v MAINTAINERS); do" \
		"grep -q 'int y;' \"\$f\" || echo 'int y;' >> \"\$f\"; done" > "$PAT"
}

# trailers rewrote the branch (new commit ids for the tagged patches and
# those after them); upstream applied patch 10 edited and retitled, with
# its Message-Id: status finds it by that, and respin must too, though the
# branch's commit is no longer the one the record names.
t_respin_after_trailers_by_link() {
	respin_campaign st-relink
	git checkout -q up
	sed '/^+int/s/$/ \/* edited *\//' "$(smail "$scratch/st-relink-v1" 10)" > "$scratch/e10"
	git am -q --message-id "$scratch/e10"
	git commit -q --amend -m "$(printf 'vfs: a title of its own\n\nMessage-Id: <%s>\n' "$(msgid_of 10 | tr -d '<>')")"
	local at; at=$(git rev-parse --short=12 HEAD)
	git checkout -q main
	run status up
	has "status: applied by its Message-Id" "$(squeeze "$out")" " 10 applied fs: do it in up as $at (Link:"
	run respin -n --onto up -- sh "$PAT"
	has "respin: the same" "$out" "gone      fs: do it (applied as $at)"
}

# On a terminal respin says each step on stderr, and the version it made
# last; off one (a pipe, a log) it says none of them.
t_respin_progress() {
	respin_campaign st-progress
	run respin -n --onto up -- sh "$PAT"
	lacks "off a terminal: no steps" "$err" "series: respin: "
	local tty
	tty=$(timeout 60 script -qec "$(printf '%q ' "$SERIES" respin --onto up -- sh "$PAT")" /dev/null | tr -d '\r')
	has "a terminal: the checkout" "$tty" "series: respin: checking out the new base"
	has "a terminal: the pattern" "$tty" "series: respin: running the pattern"
	has "a terminal: the grouping" "$tty" "series: respin: grouping as the last version"
	has "a terminal: the last line" "$(tail -n 1 <<<"$tty")" "series: main is v2; format it: series format -v 2"
}

# respin: the pattern run on the new base; each group of its change is
# the last version's patch (unchanged, its tags kept; changed, its tags
# said below ---), new, or the last version's patch is gone (applied);
# the branch moves once; format -v 2 then says the same.
t_respin_campaign() {
	respin_campaign st-respin
	local old; old=$(git rev-parse main)
	run respin --onto up -- sh "$PAT"
	eq "exit" "$rc" 0
	eq "the report" "$out" "new       drivers/gpio: do it
unchanged drivers/i2c/busses: do it
unchanged drivers/net/ethernet: do it
unchanged drivers/net/phy: do it
changed   drivers/widget: do it
          not carried: Tested-by: Tim Tester <tim@example.org>
unchanged fs: do it
gone      .: do it (applied as $(git rev-parse --short=12 up~7))
gone      drivers: do it (applied as $(git rev-parse --short=12 up~6))
gone      drivers/gadget: do it (applied as $(git rev-parse --short=12 up~5))
gone      drivers/gpio: do it (applied as $(git rev-parse --short=12 up~4))
gone      drivers/i2c: do it (applied as $(git rev-parse --short=12 up~3))
v2: 6 patches on $(git rev-parse --short=12 up) (4 unchanged, 1 changed, 1 new); 5 of v1's gone (5 applied)"
	eq "the branch is on up" "$(git merge-base main up)" "$(git rev-parse up)"
	eq "six commits" "$(git rev-list --count up..main)" 6
	eq "the work tree follows" "$(git status --porcelain)" ""
	eq "the tree is the pattern's" "$(git diff --stat main | wc -l)" 0
	eq "the reflog says so" "$(git reflog -1 --format=%gs main)" "series respin: v2 onto $(git rev-parse --short=12 up)"
	has "an unchanged patch keeps its tag" "$(git log -1 --format=%B ':/drivers/net/phy: do it')" "Acked-by: Andrew Lunn <andrew@example.org>"
	local w; w=$(git log -1 --format=%B ':/drivers/widget: do it')
	lacks "a changed patch loses its tag" "$(sed '/^---$/q' <<<"$w")" "Tested-by"
	has "and says so below ---" "$w" "---
v2: not carried, as the patch changed: Tested-by: Tim Tester <tim@example.org>"
	eq "back on the branch, no marker left" "$(git symbolic-ref HEAD) $(ls .git/series-respin 2>/dev/null | wc -l)" "refs/heads/main 0"
	eq "recorded" "$(git for-each-ref --format='%(refname)' refs/series/main/onto refs/series/main/pattern refs/series/main/v2-respin | wc -l)" 3
	run format -v 2 -o "$scratch/st-respin-v2"
	eq "format -v 2: exit" "$rc" 0
	has "format -v 2: respin's fates" "$(cat "$scratch"/st-respin-v2/v2-0000-cover-letter.patch)" "Changes since v1 ($(git rev-parse --short=12 refs/series/main/v1-base)..$(git rev-parse --short=12 "$old")), found on $(git rev-parse --short=12 up):
- new: drivers/gpio: do it"
	git checkout -q -B am-check up
	git am -q "$scratch"/st-respin-v2/v2-000[1-6]-*.patch || { bad "v2 does not apply on up"; git am --abort; }
	eq "v2 rebuilds the branch" "$(git rev-parse HEAD^{tree})" "$(git rev-parse main^{tree})"
}

# format records each version's form and patch ids (vN-ids), so that
# respin reads no diff of the last version: the record is what it reads
# (a record saying "per file" makes it group per file), and a version
# recorded before vN-ids existed gives the same report from its diffs.
t_respin_recorded_ids() {
	respin_campaign st-ids
	local rec n
	rec=$(git cat-file blob refs/series/main/v1-ids)
	eq "format records the form: per subsystem, as committed" "$(head -n 1 <<<"$rec")" "form 3"
	n=$(grep -c '^[0-9a-f]\{40\} [0-9a-f]\{40\}$' <<<"$rec")
	eq "and a patch id per patch" "$n" "$(git rev-list --count refs/series/main/v1-base..refs/series/main/v1)"
	run respin -n --onto up -- sh "$PAT"
	local with=$out
	git update-ref refs/series/main/v1-ids "$( (echo 'form 1'; tail -n +2 <<<"$rec") | git hash-object -w --stdin)"
	run respin -n --onto up -- sh "$PAT"
	has "the recorded form is the one respin keeps" "$out" "new       drivers/gpio/gpio-new.c: do it"
	git update-ref -d refs/series/main/v1-ids
	run respin -n --onto up -- sh "$PAT"
	eq "no vN-ids: the same report, from the diffs" "$out" "$with"
}

# -n shows the same and writes nothing; the pattern given once is
# recorded, and the next respin needs only --onto.
t_respin_dry_run_and_recorded_pattern() {
	respin_campaign st-respin-n
	local s; s=$(snapshot)
	run respin -n --onto up -- sh "$PAT"
	eq "-n: exit" "$rc" 0
	has "-n: the summary" "$out" "v2: 6 patches on $(git rev-parse --short=12 up) (4 unchanged, 1 changed, 1 new)"
	eq "-n: nothing written" "$(snapshot)" "$s"
	run respin --onto up
	eq "no pattern: refused" "$err" "series: respin: no pattern command given, and none recorded for main (no refs/series/main/pattern): give it after --"
	run respin --onto up -- sh "$PAT"
	eq "given: exit" "$rc" 0
	git reset -q --hard "$(git rev-parse refs/series/main/v1)"
	run respin --onto up
	eq "recorded: exit" "$rc" 0
	has "recorded: the same" "$out" "(4 unchanged, 1 changed, 1 new)"
}

# The last version is read from the records, never from where the branch
# went: a second respin with nothing new says so (exit 1) and changes
# nothing; after upstream moved, it respins v1 again (upstream's commits
# are no patches of it, and the tags trailers gave are kept); an edit of
# the user's since (a fix-up) is refused by name, not dropped.
t_respin_twice() {
	respin_campaign st-twice
	local first s
	run respin --onto up -- sh "$PAT"
	eq "first: exit" "$rc" 0
	first=$out
	s=$(snapshot)
	run respin --onto up
	eq "again, nothing new: exit" "$rc" 1
	eq "again, nothing new: said" "$err" "series: respin: nothing to do: main is v2 on $(git rev-parse --short=12 up) as the pattern makes it"
	eq "again, nothing new: nothing changed" "$(snapshot)" "$s"
	# upstream moves on: a driver and a file of its own
	git checkout -q up
	printf 'int q;\n' > drivers/gpio/gpio-newer.c
	git add -A && git commit -qm 'gpio: newer driver'
	git checkout -q main
	run respin --onto up
	eq "upstream moved: exit" "$rc" 0
	eq "upstream moved: the same report on the new base" "$out" "${first//$(git rev-parse --short=12 up~1)/$(git rev-parse --short=12 up)}"
	eq "upstream moved: six patches" "$(git rev-list --count up..main)" 6
	lacks "upstream moved: no upstream commit is a patch" "$(git log --format=%s up..main)" "gpio: new driver"
	has "upstream moved: the ack trailers gave is kept" "$(git log -1 --format=%B ':/drivers/net/phy: do it')" "Acked-by: Andrew Lunn <andrew@example.org>"
	run format -v 2 -o "$scratch/st-twice-v2"
	eq "format -v 2: exit" "$rc" 0
	lacks "format -v 2: no upstream commit in the letter" "$(cat "$scratch"/st-twice-v2/v2-0000-cover-letter.patch)" "gpio: new driver"
	# v2 sent; an edit after the review: a fix-up commit
	echo 'int fix;' >> fs/one.c
	git commit -qam 'fixup! fs: do it'
	s=$(snapshot)
	run respin --onto up
	eq "a fix-up: refused" "$rc" 3
	has "a fix-up: named" "$err" "series: respin: main is not v2 as it went out: it has $(git rev-parse --short HEAD) fixup! fs: do it since; respin would lose that edit"
	eq "a fix-up: nothing changed" "$(snapshot)" "$s"
}

# With the replies (--mbox), a patch its maintainer answered ("Applied to
# for-next, thanks!") or NAKed is left out of the next version and said,
# as status reads them; --keep N keeps one all the same; a --keep out of
# range is refused.
t_respin_leaves_out() {
	respin_campaign st-left
	{ replies; cat <<M

From x Mon Sep 17 00:00:00 2001
From: Al Viro <viro@example.org>
Subject: Re: [PATCH 10/10] fs: do it
Message-Id: <nak10@example.org>
In-Reply-To: <$(msgid_of 10)>

Nacked-by: Al Viro <viro@example.org>
M
	} > "$scratch/left.mbox"
	local s; s=$(snapshot)
	run respin -n --onto up --mbox "$scratch/left.mbox" --keep 11 -- sh "$PAT"
	eq "--keep out of range: refused" "$err" "series: respin: --keep 11: v1 has patches 1 to 10"
	eq "--keep out of range: nothing changed" "$(snapshot)" "$s"
	# the replies are read before anything moves: a cut mbox stops respin
	# before the pattern runs (it would leave $scratch/ran behind)
	head -c 200 "$scratch/left.mbox" > "$scratch/left-cut.mbox"
	rm -f "$scratch/ran"
	run respin --onto up --mbox "$scratch/left-cut.mbox" -- sh -c "touch '$scratch/ran'; sh '$PAT'"
	eq "a cut mbox: refused" "$rc" 3
	has "a cut mbox: named" "$err" "left-cut.mbox: its last mail is cut short mid-line"
	eq "a cut mbox: the pattern never ran" "$(ls "$scratch/ran" 2>&1 >/dev/null | wc -l)" 1
	eq "a cut mbox: nothing changed" "$(snapshot)" "$s"
	rm -f "$scratch/ran"
	run respin --onto up --mbox "$scratch/left.mbox" --keep 0 -- sh -c "touch '$scratch/ran'; sh '$PAT'"
	eq "--keep 0: refused" "$err" "series: respin: --keep 0: v1 has patches 1 to 10"
	eq "--keep 0: the pattern never ran" "$(ls "$scratch/ran" 2>&1 >/dev/null | wc -l)" 1
	run respin --onto up --mbox "$scratch/left.mbox" -- sh "$PAT"
	eq "exit" "$rc" 0
	has "the answered one, said" "$out" "left out  drivers/net/ethernet: do it (Wolfram Sang <wsa@example.org>: \"Applied to for-next, thanks!\")"
	has "the NAKed one, said" "$out" "left out  fs: do it (Nacked-by: Al Viro <viro@example.org>)"
	has "the summary" "$out" "v2: 4 patches on $(git rev-parse --short=12 up) (2 unchanged, 1 changed, 1 new); 5 of v1's gone (5 applied); 2 left out, as the replies say (--keep N keeps one)"
	eq "four commits" "$(git rev-list --count up..main)" 4
	lacks "not re-sent" "$(git log --format=%s up..main)" "fs: do it"
	has "the letter will say so" "$(git cat-file blob refs/series/main/v2-respin)" "- left out (Nacked-by: Al Viro <viro@example.org>): fs: do it"
	git reset -q --hard "$(git rev-parse refs/series/main/v2-from)"
	git update-ref -d refs/series/main/v2-respin
	run respin --onto up --mbox "$scratch/left.mbox" --keep 10 -- sh "$PAT"
	eq "--keep 10: exit" "$rc" 0
	has "--keep 10: the NAKed one kept" "$(git log --format=%s up..main)" "fs: do it"
	lacks "--keep 10: not said left out" "$out" "left out  fs"
}

# Refusals: one line each, nothing changed, the checkout back on the
# branch and no marker left.
t_respin_refusals() {
	respin_campaign st-respin-r
	local s; s=$(snapshot)
	left() { echo "$(git symbolic-ref HEAD) $(ls .git/series-respin 2>/dev/null | wc -l)"; }
	run respin --onto nowhere -- true
	eq "bad onto" "$err" "series: respin: --onto 'nowhere' is no commit here (fetch it)"
	run respin --onto up -- false
	eq "failing pattern" "$err" "series: respin: false failed (exit 1); nothing changed"
	eq "failing pattern: exit" "$rc" 3
	run respin --onto up -- no-such-command-here
	eq "missing pattern" "$err" "series: respin: could not run no-such-command-here; nothing changed"
	run respin --onto up -- true
	eq "no change" "$err" "series: respin: true changed nothing on $(git rev-parse --short=12 up)"
	eq "nothing changed" "$(snapshot)" "$s"
	eq "no marker left" "$(left)" "refs/heads/main 0"
	echo 'int w;' >> fs/one.c
	run respin --onto up -- sh "$PAT"
	eq "dirty work tree" "$err" "series: respin: the work tree has changes of its own (fs/one.c): commit or stash them first"
	run respin -n --onto up -- sh "$PAT"
	eq "dirty work tree, -n" "$err" "series: respin: the work tree has changes of its own (fs/one.c): commit or stash them first"
	git checkout -q -- fs/one.c
	# the pattern commits (on the new base, where the checkout is)
	run respin --onto up -- sh -c "git commit -q --allow-empty -m stray && sh '$PAT'"
	eq "the pattern commits" "$err" "series: respin: sh moved HEAD off $(git rev-parse --short=12 up); nothing changed"
	eq "the pattern commits: nothing changed" "$(snapshot)" "$s"
	# the branch moves meanwhile (a commit of the user's, elsewhere)
	run respin --onto up -- sh -c "git update-ref refs/heads/main \$(git commit-tree -p main -m meanwhile main^{tree}) && sh '$PAT'"
	eq "moved meanwhile" "$err" "series: respin: main moved meanwhile; it and the work tree are as they were"
	eq "moved: the user's commit stays" "$(git log -1 --format=%s)" "meanwhile"
	eq "moved: clean" "$(git status --porcelain)" ""
	eq "moved: no marker left" "$(left)" "refs/heads/main 0"
	git checkout -q --detach
	run respin --onto up -- sh "$PAT"
	eq "detached" "$err" "series: respin: HEAD is on no branch, under which format records each version"
}

# The pattern of the kernel fixture's of_match_ptr() change, as a script
# respin runs in its checkout.
kernel_pattern() {
	printf '%s\n' "git grep -l 'of_match_ptr(' | xargs sed -i 's/of_match_ptr(\\([^()]*\\))/\\1/g'" > "$1"
}

# Five new drivers upstream that the pattern matches, each in a folder
# of its own.
kernel_new_drivers() {
	local i
	git checkout -q up
	for i in 1 2 3 4 5; do
		mkdir -p "drivers/misc/new$i"
		printf 'static struct platform_driver new%s_driver = {\n\t.driver = {\n\t\t.of_match_table = of_match_ptr(new%s_of_match),\n\t},\n};\n' \
			"$i" "$i" > "drivers/misc/new$i/new$i.c"
	done
	git add -A && git commit -qm 'misc: five new drivers'
	git checkout -q @{-1}
}

# The kernel's cycle: 150 of the 217 patches applied (20 edited), five
# new drivers: respin gives the 67 left unchanged and the five new, says
# the 150 gone as applied, and format -v 2 of it applies on upstream.
t_kernel_respin() {
	kernel_fixture || return 0
	kernel_copy k-respin
	git checkout -q -B campaign ofm
	run format -o "$scratch/kr" base..campaign
	eq "format: exit" "$rc" 0
	kernel_upstream "$scratch/kr" "$scratch/kr-edited" || { bad "the upstream does not build"; return; }
	kernel_new_drivers
	kernel_pattern "$scratch/kr.pattern"
	run respin --onto up -- sh "$scratch/kr.pattern"
	eq "respin: exit" "$rc" 0
	has "respin: the summary" "$out" "v2: 72 patches on $(git rev-parse --short=12 up) (67 unchanged, 0 changed, 5 new); 150 of v1's gone (150 applied)"
	eq "respin: five new" "$(grep -c '^new       drivers/misc/new[1-5]: drop of_match_ptr()$' <<<"$out")" 5
	eq "respin: on up" "$(git rev-list --count up..campaign) $(git merge-base campaign up)" "72 $(git rev-parse up)"
	# the second run of the cycle (a retry): the same patches, nothing new
	local tip; tip=$(git rev-parse campaign)
	run respin --onto up
	eq "respin again: nothing to do" "$rc $err" "1 series: respin: nothing to do: campaign is v2 on $(git rev-parse --short=12 up) as the pattern makes it"
	eq "respin again: the branch as it was" "$(git rev-parse campaign)" "$tip"
	run format -v 2 -o "$scratch/kr2"
	eq "format -v 2: exit" "$rc" 0
	git checkout -q -B am-check up
	git am -q $(ls "$scratch"/kr2/v2-*.patch | grep -v cover-letter) || { bad "v2 does not apply on up"; git am --abort; }
	eq "v2 rebuilds the branch" "$(git rev-parse HEAD^{tree})" "$(git rev-parse campaign^{tree})"
}

# The fake git failing at every step of respin: the branch, index, work
# tree and .git stay as they were, or the result is right.  Only a run
# out of memory may leave its marker (it died, as a SIGKILL would, or no
# git could run to put the checkout back, which it says), and respin
# --abort then puts the checkout back.
rs_result() {
	eq "$1: the tree" "$(git rev-parse HEAD^{tree})" "$RS_TREE"
	eq "$1: clean" "$(git status --porcelain)" ""
	eq "$1: on the branch, no marker" "$(git symbolic-ref HEAD) $(ls .git/series-respin 2>/dev/null | wc -l)" "refs/heads/main 0"
}

rs_undo() {
	[ -e .git/series-respin ] || return 0
	[ "$2" = oom ] || bad "$1: the marker is left"
	# died (the next command names --abort), or said so itself
	case $err in *"series: out of memory"*) ;; *)
		has "$1: says how to undo it" "$err" "series: respin: could not check main out again; \`series respin --abort\` tries again"
		FAULT_EXTRA=1;;
	esac
	"$SERIES" respin --abort > /dev/null 2>&1 || bad "$1: respin --abort failed"
}

t_respin_faults() {
	respin_campaign rsf-once
	# the pattern runs no git: the faults are series' own steps, which
	# run beside it
	local pat=$scratch/rsf-nogit.pattern
	printf '%s\n' "for f in \$(find . -name .git -prune -o -type f ! -name MAINTAINERS -print); do" \
		"grep -q 'int y;' \"\$f\" || echo 'int y;' >> \"\$f\"; done" > "$pat"
	"$SERIES" respin --onto up -- sh "$pat" > /dev/null 2>&1
	RS_TREE=$(git rev-parse HEAD^{tree})
	FAULT_UNDO=rs_undo each_fault respin_campaign rsf rs_result respin --onto up -- sh "$pat"
}

# Killed (SIGKILL) in the pattern: the checkout is left on the new base
# with the marker; respin and commit refuse, naming respin --abort, which
# puts everything back, the user's untracked file kept and the pattern's
# removed.  Stopped (SIGINT): put back at once, the signal's exit code.
# Then the cycle runs as if nothing had happened, and format -v 2 agrees.
t_respin_interrupted() {
	respin_campaign st-killed
	echo mine > notes.txt
	local s; s=$(snapshot)
	run respin --onto up -- sh -c "sh '$PAT'; echo junk > pattern.orig; kill -9 \$PPID"
	eq "killed: exit" "$rc" 137
	eq "killed: on the new base" "$(git rev-parse HEAD)" "$(git rev-parse up)"
	run respin --onto up -- sh "$PAT"
	eq "killed: respin refuses" "$err" "series: respin: a respin (series respin --abort undoes it) is in progress (series-respin exists); finish or abort it first"
	run commit -m 'x: y'
	has "killed: commit refuses" "$err" "series respin --abort"
	run respin --abort
	eq "--abort: exit" "$rc" 0
	eq "--abort: said" "$err" "series: respin: the checkout is back on its branch"
	eq "--abort: all back, notes.txt kept" "$(snapshot)" "$s"
	run respin --abort
	eq "--abort again: refused" "$rc $err" "3 series: respin: --abort: no respin to undo here"
	run respin --onto up -- sh -c "sh '$PAT'; echo junk > pattern.orig; kill -INT \$PPID; sleep 5"
	eq "SIGINT: exit" "$rc" 130
	eq "SIGINT: all back" "$(snapshot)" "$s"
	# after the kill: the same cycle as an uninterrupted one, and format
	# -v 2 says what respin said
	run respin --onto up -- sh "$PAT"
	eq "after --abort: respin" "$rc" 0
	has "after --abort: its summary" "$out" "v2: 6 patches on $(git rev-parse --short=12 up) (4 unchanged, 1 changed, 1 new); 5 of v1's gone (5 applied)"
	local said=$out
	run format -v 2 -o "$scratch/st-killed-v2"
	has "after --abort: format -v 2 says the same new patch" "$(cat "$scratch"/st-killed-v2/v2-0000-cover-letter.patch)" "- new: $(sed -n 's/^new       //p' <<<"$said")"
}
