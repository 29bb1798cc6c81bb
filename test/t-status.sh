# t-status.sh - series status: what became of each patch of the last
# version format recorded, against upstream refs and mboxes of replies.

# The mail of patch N (two digits) of the series format wrote into DIR.
smail() { ls "$1"/00"$2"-*.patch; }

# A campaign: fseries' ten patches formatted as v1 of main into
# $scratch/NAME-v1, then "up", an upstream made from them as
# maintainers do: 1 by git am --message-id (a Link), 2 as sent, 3 with a
# line edited and its Message-Id, 4 with a line edited, 5 under another
# subject, 6 applied and reverted.  $MSGS: the record's lines.
campaign() {
	fseries "$1"
	local v1=$scratch/$1-v1
	run format -o "$v1" "$FB..main"
	eq "campaign: format" "$rc" 0
	MSGS=$(git cat-file blob refs/series/main/v1-mails)
	git checkout -q -b up "$FB"
	git am -q --message-id "$(smail "$v1" 01)"
	git am -q "$(smail "$v1" 02)"
	sed '/^+int/s/$/ \/* edited *\//' "$(smail "$v1" 03)" > "$scratch/e3"
	git am -q --message-id "$scratch/e3"
	sed '/^+int/s/$/ \/* edited *\//' "$(smail "$v1" 04)" > "$scratch/e4"
	git am -q "$scratch/e4"
	git am -q "$(smail "$v1" 05)"
	git commit -q --amend -m 'gpio: another subject'
	git am -q "$(smail "$v1" 06)"
	git revert --no-edit HEAD > /dev/null
	git checkout -q main
}

# The Message-Id format recorded for patch N (1-based).
msgid_of() { awk -v n=$(($1 + 1)) 'NR == n { print $2 }' <<<"$MSGS"; }

# Replies: a thank-you to patch 7 (by its Message-Id), an ack of 8 and a
# test of 9 (by subject), and an ack of 10 only quoted.
replies() {
	cat <<M
From x Mon Sep 17 00:00:00 2001
From: Wolfram Sang <wsa@example.org>
Subject: Re: [PATCH 07/10] drivers/net/ethernet: do it
Message-Id: <r1@example.org>
In-Reply-To: <$(msgid_of 7)>

Applied to for-next, thanks!

From x Mon Sep 17 00:00:00 2001
From: Andrew Lunn <andrew@example.org>
Subject: Re: [PATCH 08/10] drivers/net/phy: do it
Message-Id: <r2@example.org>

Acked-by: Andrew Lunn <andrew@example.org>

From x Mon Sep 17 00:00:00 2001
From: Tim Tester <tim@example.org>
Subject: Re: [PATCH 09/10] drivers/widget: do it
Message-Id: <r3@example.org>

Tested-by: Tim Tester <tim@example.org>

From x Mon Sep 17 00:00:00 2001
From: Quinn <q@example.org>
Subject: Re: [PATCH 10/10] fs: do it
Message-Id: <r4@example.org>

> Acked-by: Someone Else <se@example.org>
I agree with the above.
M
}

# Every state, each found as the issue orders: Link, patch id (under a
# new subject too), subject + author + files for an edited patch, a
# revert undoing one, a thank-you mail, tags given and quoted, who has
# not answered, and how long since.
t_status_campaign() {
	campaign st-camp
	replies > "$scratch/replies.mbox"
	GIT_AUTHOR_DATE='@1701000000 +0000' run status up --mbox "$scratch/replies.mbox"
	eq "exit: not all applied" "$rc" 1
	eq "every patch" "$out" "  1 applied  .: do it
      in up as $(git rev-parse --short=12 up~6) (Link:)
  2 applied  drivers: do it
      in up as $(git rev-parse --short=12 up~5) (patch id)
  3 applied  drivers/gadget: do it
      in up as $(git rev-parse --short=12 up~4) (Link:); changed there: drivers/gadget/g.c
  4 modified drivers/gpio: do it
      in up as $(git rev-parse --short=12 up~3) (subject, author and files); changed there: drivers/gpio/gpio-legacy.c
  5 applied  drivers/i2c: do it
      in up as $(git rev-parse --short=12 up~2) (patch id)
  6 reverted drivers/i2c/busses: do it
      in up as $(git rev-parse --short=12 up~1), reverted by $(git rev-parse --short=12 up); formatted 11 days ago; waiting on bea@example.org, wsa@example.org
  7 answered drivers/net/ethernet: do it
      Wolfram Sang <wsa@example.org>: \"Applied to for-next, thanks!\" (in no ref given)
  8 pending  drivers/net/phy: do it
      formatted 11 days ago; Acked-by: Andrew Lunn <andrew@example.org>; waiting on davem@example.org, kuba@example.org
  9 pending  drivers/widget: do it
      formatted 11 days ago; Tested-by: Tim Tester <tim@example.org>; waiting on wendy@example.org
 10 pending  fs: do it
      formatted 11 days ago
10 patches: 5 applied (2 link, 2 patch-id, 1 modified), 1 answered, 1 reverted, 3 pending, 2 with tags; waiting on 5 maintainers
waiting on:
  bea@example.org: 1 patch (6)
  davem@example.org: 1 patch (8)
  kuba@example.org: 1 patch (8)
  wendy@example.org: 1 patch (9)
  wsa@example.org: 1 patch (6)"
	eq "the quoted ack is not counted" "$(grep -c 'Someone Else' <<<"$out")" 0
}

# A NAK is a verdict: the patch is "NAKed", with the line, not pending;
# it waits on nobody (the move is the contributor's), and a NAK quoted
# in another reply, or a NAK of another patch, changes nothing.
t_status_naked() {
	campaign st-nak
	{ replies; cat <<M

From x Mon Sep 17 00:00:00 2001
From: Andrew Lunn <andrew@example.org>
Subject: Re: [PATCH 08/10] drivers/net/phy: do it
Message-Id: <r5@example.org>
In-Reply-To: <$(msgid_of 8)>

No: the PHY needs the old call.

Nacked-by: Andrew Lunn <andrew@example.org>

From x Mon Sep 17 00:00:00 2001
From: Quinn <q@example.org>
Subject: Re: [PATCH 10/10] fs: do it
Message-Id: <r6@example.org>
In-Reply-To: <$(msgid_of 10)>

> Nacked-by: Someone <so@example.org>
Not me.
M
	} > "$scratch/nak.mbox"
	GIT_AUTHOR_DATE='@1701000000 +0000' run status up --mbox "$scratch/nak.mbox"
	eq "exit" "$rc" 1
	has "NAKed, with the line" "$out" "  8 NAKed    drivers/net/phy: do it
      Nacked-by: Andrew Lunn <andrew@example.org>: rework it, or drop it"
	has "a quoted NAK is none" "$out" " 10 pending  fs: do it"
	has "the summary" "$out" "10 patches: 5 applied (2 link, 2 patch-id, 1 modified), 1 answered, 1 reverted, 1 NAKed, 2 pending, 2 with tags; waiting on 3 maintainers"
	lacks "waits on nobody for it" "$out" "davem@example.org"
	has "the others still wait" "$out" "  wendy@example.org: 1 patch (9)"
}

# A thank-you to v1's patch is not one to v2's of the same subject: its
# In-Reply-To names v1's mail, and its subject says no v2; one that says
# v2 is.
t_status_other_version() {
	campaign st-ver
	local v1id; v1id=$(msgid_of 7)
	GIT_COMMITTER_DATE="@1700000100 +0000" GIT_AUTHOR_DATE="@1700000100 +0000" run format -v 2 -o "$scratch/st-ver-v2" "$FB..main"
	[ "$(git cat-file blob refs/series/main/v2-mails | awk 'NR == 8 { print $2 }')" != "$v1id" ] && ok || bad "v2 has v1's Message-Ids"
	eq "v2: exit" "$rc" 0
	cat > "$scratch/ver.mbox" <<M
From x Mon Sep 17 00:00:00 2001
From: Wolfram Sang <wsa@example.org>
Subject: Re: [PATCH 07/10] drivers/net/ethernet: do it
Message-Id: <t1@example.org>
In-Reply-To: <$v1id>

Applied to for-next, thanks!

From x Mon Sep 17 00:00:00 2001
From: Mark Brown <broonie@example.org>
Subject: Re: [PATCH v2 09/10] drivers/widget: do it
Message-Id: <t2@example.org>

Applied to for-next, thanks!
M
	run status up --mbox "$scratch/ver.mbox"
	has "v1's thank-you: v2's patch still pending" "$out" "  7 pending  drivers/net/ethernet: do it"
	has "v2's thank-you: answered" "$out" "  9 answered drivers/widget: do it"
	run status -v 1 up --mbox "$scratch/ver.mbox"
	has "-v 1: v1's thank-you counts there" "$out" "  7 answered drivers/net/ethernet: do it"
	has "-v 1: not v2's" "$out" "  9 pending  drivers/widget: do it"
}

# format -v 2 asks what became of v1's patches as status does: one
# applied with an edit and its Link:, or edited without one (subject,
# author and files), is applied upstream in the letter too, never "gone".
t_format_v2_agrees_with_status() {
	campaign st-agree
	local v1=$scratch/st-agree-v1 st letter n line id subj
	git checkout -q -b v2 up
	git am -q "$(smail "$v1" 07)" "$(smail "$v1" 08)" "$(smail "$v1" 09)" "$(smail "$v1" 10)"
	run format -v 2 --prev series/main/v1-base..series/main/v1 -o "$scratch/st-agree-v2" up..v2
	eq "format -v 2: exit" "$rc" 0
	letter=$(cat "$scratch"/st-agree-v2/v2-0000-cover-letter.patch)
	git checkout -q main
	run status up
	st=$out
	for n in 1 2 3 4 5; do
		line=$(grep -A1 "^ *$n " <<<"$st")
		id=$(sed -n 's/.*in up as \([0-9a-f]*\).*/\1/p' <<<"$line")
		subj=$(head -n 1 <<<"$line" | sed 's/^ *[0-9]* [a-z]* *//')
		has "patch $n ($subj): the letter says what status says" "$letter" "- applied upstream as $id: $subj"
	done
	lacks "edited with its Link: not gone" "$letter" "gone (the change no longer touches its files): drivers/gadget: do it"
	lacks "edited without one: not gone" "$letter" "gone (the change no longer touches its files): drivers/gpio: do it"
}

# Two patches the maintainer squashed into one commit with a Link: to
# each: both are applied, as that commit.
t_status_squashed_with_links() {
	campaign st-squash
	local v1=$scratch/st-squash-v1
	git checkout -q up
	git am -q "$(smail "$v1" 09)" "$(smail "$v1" 10)"
	git reset -q --soft HEAD~2
	git commit -qm "drivers/widget, fs: do it

Link: https://lore.kernel.org/r/$(msgid_of 9 | tr -d '<>')
Link: https://lore.kernel.org/r/$(msgid_of 10 | tr -d '<>')"
	git checkout -q main
	run status up
	local at; at=$(git rev-parse --short=12 up)
	has "the first, by its Link:" "$out" "  9 applied  drivers/widget: do it
      in up as $at (Link:; one of 2 patches squashed there)"
	has "the second too, as the same commit" "$out" " 10 applied  fs: do it
      in up as $at (Link:; one of 2 patches squashed there)"
}

# Two patches squashed into one commit as they were sent, no Link: (the
# maintainer's own subject and author): both applied by patch id, as that
# commit, and said so; respin calls both gone as applied.  A commit of
# only one of them and more is no squash of them.
t_status_squashed_without_links() {
	campaign st-squash2
	local v1=$scratch/st-squash2-v1
	git checkout -q up
	git am -q "$(smail "$v1" 09)" "$(smail "$v1" 10)"
	git reset -q --soft HEAD~2
	git -c user.name=Mai -c user.email=mai@example.org commit -qm "widget, fs: one commit"
	git checkout -q main
	run status up
	local at; at=$(git rev-parse --short=12 up)
	has "the first, by the sum of their patch ids" "$out" "  9 applied  drivers/widget: do it
      in up as $at (patch id; one of 2 patches squashed there)"
	has "the second too" "$out" " 10 applied  fs: do it
      in up as $at (patch id; one of 2 patches squashed there)"
	printf '%s\n' "echo 'int w;' >> drivers/gpio/gpio-a.c" > "$scratch/sq.pattern"
	run respin -n --onto up -- sh "$scratch/sq.pattern"
	has "respin: gone as applied" "$out" "gone      fs: do it (applied as $(git rev-parse --short=12 up))"
	git checkout -q up
	git reset -q --hard HEAD~1
	git am -q "$(smail "$v1" 09)"
	echo 'int more;' >> fs/two.c
	git commit -q --amend -a -m "widget: and more"
	git checkout -q main
	run status up
	has "one and more: no squash" "$out" " 10 pending  fs: do it"
}

# What looks like a patch but is not it: a commit of another author with
# its subject and files, a stable backport of its change, two commits
# each matching by subject, author and files (not unique), the same
# change outside BASE..UPSTREAM.
t_status_never_applied() {
	campaign st-never
	local v1=$scratch/st-never-v1
	git checkout -q up
	echo "int other;" >> drivers/net/phy/phy.c
	git -c user.name=Other -c user.email=other@example.org commit -qam 'drivers/net/phy: do it'
	git am -q "$(smail "$v1" 09)"
	git commit -q --amend -m "drivers/widget: do it

commit 0123456789abcdef0123456789abcdef01234567 upstream."
	sed '/^+int/s/$/ \/* one *\//' "$(smail "$v1" 10)" > "$scratch/e10"
	git am -q "$scratch/e10"
	sed -i 's/one/two/' fs/one.c fs/two.c
	git commit -qam 'fs: do it'
	git checkout -q -b elsewhere "$FB"
	git am -q "$(smail "$v1" 07)"
	git checkout -q main
	run status up
	eq "exit" "$rc" 1
	has "another author's commit is not it" "$out" "  8 pending  drivers/net/phy: do it"
	has "a backport is not it" "$out" "  9 pending  drivers/widget: do it"
	has "two that match are no match" "$out" " 10 pending  fs: do it"
	has "outside the range is not applied" "$out" "  7 pending  drivers/net/ethernet: do it"
	has "the summary" "$out" "10 patches: 5 applied (2 link, 2 patch-id, 1 modified), 0 answered, 1 reverted, 4 pending, 0 with tags"
}

# All applied: exit 0; the branch's upstream when no ref is given; an
# older version can be asked for.
t_status_all_applied() {
	fseries st-all
	git checkout -q -b topic
	run format -o "$scratch/st-all-v1" "$FB..topic"
	git checkout -q -b up "$FB"
	git am -q $(ls "$scratch"/st-all-v1/*.patch | grep -v cover-letter)
	git checkout -q topic
	git branch -q --set-upstream-to=up
	run status
	eq "exit: every patch applied" "$rc" 0
	has "by patch id" "$out" "10 patches: 10 applied (0 link, 10 patch-id, 0 modified), 0 answered, 0 pending, 0 with tags; waiting on 0 maintainers"
	echo 'int z;' >> fs/one.c; git commit -qam 'fs: one more'
	run format -v 2 -o "$scratch/st-all-v2" "$FB..topic"
	run status up
	eq "v2: its new patch is pending" "$rc" 1
	has "v2: eleven" "$out" "11 patches: 10 applied"
	run status -v 1 up
	eq "-v 1: all applied" "$rc" 0
}

# Refusals are one line, and change nothing.
t_status_refusals() {
	fseries st-ref
	local s; s=$(snapshot)
	run status
	eq "no version: exit" "$rc" 3
	eq "no version: said" "$err" "series: status: format recorded no version of main (no refs/series/main/vN)"
	run format -o "$scratch/st-ref-v1" "$FB..main"
	s=$(snapshot)
	run status no-such-ref
	eq "unknown ref: exit" "$rc" 3
	eq "unknown ref: said" "$err" "series: status: 'no-such-ref' is no commit here (fetch it)"
	run status -v 3
	eq "no v3: said" "$err" "series: status: format recorded no v3 of main (no refs/series/main/v3)"
	git checkout -q --detach
	run status
	eq "detached: said" "$err" "series: status: HEAD is on no branch, under which format records each version"
	git checkout -q main
	eq "nothing changed" "$(snapshot)" "$s"
}

# Split series: a b4 thank-you to one series' cover letter, naming two
# of its patches, answers those two alone.
t_status_split_thanks() {
	split_range st-split
	run format --split route -o "$scratch/st-split" "HEAD~5..main"
	eq "format --split" "$rc" 0
	local cover; cover=$(ls "$scratch"/st-split/*/0000-cover-letter.patch | head -n 1)
	local id; id=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$cover")
	local s1 s2; s1=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$(dirname "$cover")"/0001-*.patch)
	local n; n=$(ls "$(dirname "$cover")" | grep -vc cover)
	printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Wolfram Sang <wsa@example.org>\nSubject: Re: [PATCH 0/%s] (subset) x\nMessage-Id: <ty@example.org>\nIn-Reply-To: <%s>\n\nApplied to\n\n   https://git.example.org/i2c.git (for-next)\n\nThanks!\n\n[1/%s] %s\n      commit: 0123456789ab\n' \
		"$n" "$id" "$n" "$s1" > "$scratch/ty.mbox"
	run status --mbox "$scratch/ty.mbox"
	eq "answered: one" "$(grep -c '^ *[0-9]* answered' <<<"$out")" 1
	has "the listed one" "$out" "answered $s1"
	has "the other, pending" "$out" "pending  i2c: bar: x"
}

# A version that went out split: status rolls each series up, in the
# order of its first patch, with the patches still out of it.
t_status_by_series() {
	split_range st-series
	run format --split route -o "$scratch/st-series" "HEAD~5..main"
	eq "format --split" "$rc" 0
	git checkout -q -b up HEAD~5
	git am -q "$scratch"/st-series/*-arm-foo/*.patch
	git checkout -q main
	run status up
	eq "status: exit (not all in)" "$rc" 1
	eq "status: each series" "$(sed -n '/^by series:/,/^waiting on:/p' <<<"$out")" "by series:
  example.org/i2c: 0 of 2 applied; still out: 1, 3
  example.org/foo: 1 of 1 applied
  example.org/sound: 0 of 1 applied; still out: 4
  (several): 0 of 1 applied; still out: 5
waiting on:"
	run format -o "$scratch/st-whole" "HEAD~5..main" --force -v 2
	run status up
	lacks "a version not split: no series" "$out" "by series:"
}

# The kernel's upstream of a formatted series (the mails in DIR, patches
# in order): branch up at base with the first 150 applied, 1-100 by git
# am --message-id (a Link each), 101-150 as sent; ten of each with a
# line a maintainer edited (1-10, 101-110).  test/bench uses it too.
kernel_upstream() {
	local dir=$1 ed=$2 i=0 m link=() plain=()
	mkdir -p "$ed"
	for m in $(ls "$dir"/*.patch | grep -v cover-letter | head -n 150); do
		i=$((i + 1))
		if [ $i -le 10 ] || { [ $i -gt 100 ] && [ $i -le 110 ]; }; then
			awk '!done && /^\+[^+]/ { $0 = $0 " /* edited */"; done = 1 } { print }' "$m" > "$ed/${m##*/}"
			m=$ed/${m##*/}
		fi
		if [ $i -le 100 ]; then link+=("$m"); else plain+=("$m"); fi
	done
	git checkout -q -B up base &&
		git am -q --message-id "${link[@]}" && git am -q "${plain[@]}" &&
		git checkout -q @{-1}
}

# The 217 commits of the of_match_ptr() change, formatted, and 150 of
# them upstream (20 edited by their maintainer): status finds every one,
# each as it went in, and the 67 others pending.
t_kernel_status() {
	kernel_fixture || return 0
	kernel_copy k-status
	local n; n=$(git rev-list --count base..ofm)
	run format -o "$scratch/ks" base..ofm
	eq "format: exit" "$rc" 0
	kernel_upstream "$scratch/ks" "$scratch/ks-edited" || { bad "the upstream does not build"; return; }
	run status up
	eq "status: exit" "$rc" 1
	has "status: the summary" "$out" "$n patches: 150 applied (100 link, 40 patch-id, 10 modified), 0 answered, $((n - 150)) pending, 0 with tags"
	eq "status: the edited ones said" "$(grep -c 'changed there: ' <<<"$out")" 20
	eq "status: the first edited is by Link" "$(grep -A1 '^  1 applied' <<<"$out" | grep -c '(Link:); changed there')" 1
	eq "status: 101 is modified" "$(grep -c '^101 modified' <<<"$out")" 1
	eq "status: 151 on pending" "$(grep -c '^ *1[5-9][0-9] pending\|^ *2[0-9][0-9] pending' <<<"$out")" $((n - 150))
}

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
	has "a fix-up: named" "$err" "series: respin: main is not v2 as it went out: it has $(git rev-parse --short HEAD) fixup! fs: do it since; respin carries no edit of a patch and would lose it"
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
	"$SERIES" respin --onto up -- sh "$PAT" > /dev/null 2>&1
	RS_TREE=$(git rev-parse HEAD^{tree})
	local pat=$PAT
	FAULT_UNDO=rs_undo each_fault respin_campaign rsf rs_result respin --onto up -- sh "$pat"
}

# Killed (SIGKILL) in the pattern: the checkout is left on the new base
# with the marker; respin and commit refuse, naming respin --abort, which
# puts everything back, the user's untracked file kept and the pattern's
# removed.  Stopped (SIGINT): put back at once, the signal's exit code.
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
}

# ---- a seeded simulation of a campaign ------------------------------------
# sim_campaign SEED: a tree of 9 drivers, each its own section and
# maintainer; the pattern (OLD( to NEW() over them, committed per
# directory and formatted as v1; then each maintainer, as the seed draws
# it, applies the patch as sent (git am --message-id: a Link), applies it
# with an edit of their own and its Link, applies it retitled, NAKs it,
# thanks for it without a tree that has it yet, acks it, says nothing, or
# squashes it with the next one into a commit of their own (no Link:);
# upstream moves beside the series.  The truth it made is in SIM_ACT
# (one word a patch).  Then status, trailers, respin --mbox and format -v
# 2 are asked, and each must say of every patch what the truth says.
sim_acts=(sent edited retitled naked thanked acked silent squashed)

sim_campaign() {
	local seed=$1 i d act n=9 v1 mb
	RANDOM=$seed
	newrepo "sim-$seed"
	for i in $(seq 1 $n); do
		d=drivers/d$i; mkdir -p "$d"
		printf 'int probe(void)\n{\n\treturn OLD(%d);\n}\n' "$i" > "$d/d$i.c"
		printf 'D%s DRIVER\nM:\tMai Ntainer%s <m%s@example.org>\nL:\tlist%s@example.org\nS:\tMaintained\nF:\t%s/\n\n' \
			"$i" "$i" "$i" "$i" "$d" >> MAINTAINERS
	done
	commit_all
	git branch -q up
	SIM_PAT=$scratch/sim-$seed.pattern
	printf '%s\n' "git grep -l 'OLD(' -- drivers | xargs sed -i 's/OLD(/NEW(/'" > "$SIM_PAT"
	sh "$SIM_PAT"
	printf 'SEDME: use NEW()\n\nOLD() goes away.\n' > "$scratch/sim.msg"
	"$SERIES" commit -s -F "$scratch/sim.msg" > /dev/null || { bad "seed $seed: commit"; return 1; }
	v1=$scratch/sim-$seed-v1
	"$SERIES" format --cover "$scratch/sim.msg" -o "$v1" up..HEAD > /dev/null 2>&1 || { bad "seed $seed: format"; return 1; }
	MSGS=$(git cat-file blob refs/series/main/v1-mails)
	mb=$scratch/sim-$seed.mbox; : > "$mb"
	git checkout -q up
	SIM_ACT=()
	for i in $(seq 1 $n); do
		act=${sim_acts[RANDOM % ${#sim_acts[@]}]}
		# the second of a squashed pair went in with the first
		[ "${SIM_ACT[i]:-}" = squashed ] && continue
		[ "$act" = squashed ] && [ "$i" = "$n" ] && act=sent
		SIM_ACT[i]=$act
		local m; m=$(smail "$v1" "$(printf %02d "$i")")
		case $act in
		sent) git am -q --message-id "$m";;
		edited) sed '/^+\treturn NEW/s/;$/; \/* edited *\//' "$m" > "$scratch/sim.e"
			git am -q --message-id "$scratch/sim.e";;
		retitled) git am -q "$m"
			git commit -q --amend -m "d$i: switch to NEW()";;
		squashed) # with the next patch, into one commit of the
			# maintainer's own, no Link:
			SIM_ACT[i + 1]=squashed
			git am -q "$m" "$(smail "$v1" "$(printf %02d $((i + 1)))")"
			git reset -q --soft HEAD~2
			git -c user.name=Mai -c user.email=mai@example.org commit -qm "d$i, d$((i + 1)): use NEW()";;
		naked|thanked|acked)
			local line=
			case $act in
			naked) line="Nacked-by: Mai Ntainer$i <m$i@example.org>";;
			thanked) line="Applied to for-next, thanks!";;
			acked) line="Acked-by: Mai Ntainer$i <m$i@example.org>";;
			esac
			printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Mai Ntainer%s <m%s@example.org>\nSubject: Re: [PATCH %d/%d] drivers/d%s: use NEW()\nMessage-Id: <sim%s-%s@example.org>\nIn-Reply-To: <%s>\n\n%s\n\n' \
				"$i" "$i" "$i" "$n" "$i" "$seed" "$i" "$(msgid_of "$i" | tr -d '<>')" "$line" >> "$mb";;
		esac
		# upstream moves beside the series now and then
		if [ $((RANDOM % 3)) = 0 ]; then
			echo "/* $i */" >> MAINTAINERS; git commit -qam "MAINTAINERS: note $i"
		fi
	done
	# a new driver the pattern matches; and, now and then, a driver whose
	# patch nobody answered deleted upstream
	mkdir -p drivers/d10
	printf 'int probe(void)\n{\n\treturn OLD(10);\n}\n' > drivers/d10/d10.c
	git add -A && git commit -qm 'd10: a new driver'
	SIM_DEL=
	for i in $(seq 1 $n); do
		if [ "${SIM_ACT[i]}" = silent ] && [ -z "$SIM_DEL" ] && [ $((RANDOM % 2)) = 0 ]; then
			git rm -q -r "drivers/d$i" && git commit -qm "d$i: removed"
			SIM_DEL=$i
		fi
	done
	[ -s "$mb" ] || printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Nobody <n@example.org>\nSubject: Re: [PATCH 0/%d] use NEW()\nMessage-Id: <sim-none@example.org>\n\nNothing.\n\n' "$n" >> "$mb"
	git checkout -q main
}

# What each side must say of patch i, from the truth.
sim_status_word() {
	case $1 in sent|edited|squashed) echo applied;; retitled) echo applied;;
	naked) echo NAKed;; thanked) echo answered;; *) echo pending;; esac
}

t_campaign_simulation() {
	local seed i act want got n=9 failed_seeds= drawn=
	for seed in 1 2 3 4 5 6 7 8 9 10; do
		local before=$failed
		sim_campaign "$seed" || continue
		drawn="$drawn ${SIM_ACT[*]} "
		local mb=$scratch/sim-$seed.mbox
		# status
		run status up --mbox "$mb"
		for i in $(seq 1 $n); do
			want=$(sim_status_word "${SIM_ACT[i]}")
			got=$(sed -n "s/^ *$i \([A-Za-z]*\) .*/\1/p" <<<"$out")
			eq "seed $seed, patch $i (${SIM_ACT[i]}): status" "$got" "$want"
		done
		# a stray format of another range keeps v1's record
		local rec; rec=$(git rev-parse refs/series/main/v1 refs/series/main/v1-base refs/series/main/v1-mails)
		run format -o "$scratch/sim-$seed-stray" HEAD~2..HEAD
		has "seed $seed: a stray format says v1 is kept" "$err" "v1 of main is recorded already for another range"
		eq "seed $seed: v1's record as it went out" "$(git rev-parse refs/series/main/v1 refs/series/main/v1-base refs/series/main/v1-mails)" "$rec"
		# trailers: each ack to its patch, nothing else
		run trailers "$mb"
		local acks=0
		for i in $(seq 1 $n); do [ "${SIM_ACT[i]}" = acked ] && acks=$((acks + 1)); done
		eq "seed $seed: trailers adds each ack once" "$(git log --format=%B up..HEAD | grep -c '^Acked-by: ')" "$acks"
		# respin onto upstream with the replies
		run respin --onto up --mbox "$mb" -- sh "$SIM_PAT"
		for i in $(seq 1 $n); do
			local subj="drivers/d$i: use NEW()"
			case ${SIM_ACT[i]} in
			sent|edited|retitled|squashed) has "seed $seed, patch $i (${SIM_ACT[i]}): respin says gone, applied" "$out" "gone      $subj (applied as ";;
			naked|thanked) has "seed $seed, patch $i (${SIM_ACT[i]}): respin leaves it out" "$out" "left out  $subj (";;
			*) if [ "$i" = "$SIM_DEL" ]; then
				has "seed $seed, patch $i (deleted upstream): respin says gone" "$out" "gone      $subj (the pattern no longer touches its files)"
			   else
				has "seed $seed, patch $i (${SIM_ACT[i]}): respin carries it" "$out" "unchanged $subj"
			   fi;;
			esac
		done
		has "seed $seed: the new driver, new" "$out" "new       drivers/d10: use NEW()"
		# the next version: its letter says the same, and it applies
		if git rev-list --count up..HEAD | grep -qv '^0$'; then
			run format -v 2 --cover "$scratch/sim.msg" -o "$scratch/sim-$seed-v2"
			# the cover letter, or below a lone patch's ---
			local letter; letter=$(cat "$scratch/sim-$seed-v2"/v2-*.patch)
			for i in $(seq 1 $n); do
				local subj="drivers/d$i: use NEW()"
				case ${SIM_ACT[i]} in
				sent|edited|retitled|squashed) has "seed $seed, patch $i: v2's letter says applied" "$letter" ": $subj"$'\n'
					has "seed $seed, patch $i: applied upstream" "$(grep -F "$subj" <<<"$letter")" "- applied upstream as ";;
				naked|thanked) has "seed $seed, patch $i: v2's letter says left out" "$(grep -F "$subj" <<<"$letter")" "- left out (";;
				*) [ "$i" = "$SIM_DEL" ] ||
					has "seed $seed, patch $i: v2's letter says unchanged" "$(grep -F "$subj" <<<"$letter")" "- unchanged: $subj";;
				esac
			done
			has "seed $seed: v2's letter, the new driver" "$letter" "- new: drivers/d10: use NEW()"
			git checkout -q -B sim-am up
			git am -q $(ls "$scratch/sim-$seed-v2"/v2-*.patch | grep -v cover-letter) || { bad "seed $seed: v2 does not apply on up"; git am --abort; }
			git checkout -q main
		fi
		# and a second respin with nothing new changes nothing
		run respin --onto up --mbox "$mb"
		eq "seed $seed: respin again: nothing to do" "$rc" 1
		[ "$failed" = "$before" ] || failed_seeds="$failed_seeds $seed"
	done
	[ -z "$failed_seeds" ] || echo "t_campaign_simulation: failing seeds:$failed_seeds"
	for act in "${sim_acts[@]}"; do
		has "the seeds draw every act: $act" "$drawn " " $act "
	done
}

# Two cycles at the kernel's scale: v1 of the of_match_ptr() change (217
# patches) formatted; upstream takes 150 (100 by Link, 20 of them edited,
# 10 modified without one), gains five drivers the pattern matches; the
# replies NAK one pending patch, thank for another, ack a third and test
# the whole on the cover letter.  status, trailers, respin --mbox and
# format -v 2 (plain and --split route) must say the same of every patch,
# and every v2 folder apply on upstream alone and together.
t_kernel_two_cycles() {
	kernel_fixture || return 0
	kernel_copy k-cycles
	git checkout -q -B campaign ofm
	printf 'drop of_match_ptr()\n\nThe match tables are built with or without OF.\n' > "$scratch/kc.cover"
	run format --cover "$scratch/kc.cover" -o "$scratch/kc" base..campaign
	eq "v1: exit" "$rc" 0
	kernel_upstream "$scratch/kc" "$scratch/kc-edited" || { bad "the upstream does not build"; return; }
	kernel_new_drivers
	kernel_pattern "$scratch/kc.pattern"
	MSGS=$(git cat-file blob refs/series/campaign/v1-mails)
	local s160 s170 s180 cover
	s160=$(git log -1 --format=%s "$(sed -n 161p <<<"$MSGS" | cut -d' ' -f1)")
	s170=$(git log -1 --format=%s "$(sed -n 171p <<<"$MSGS" | cut -d' ' -f1)")
	s180=$(git log -1 --format=%s "$(sed -n 181p <<<"$MSGS" | cut -d' ' -f1)")
	cover=$(sed -n 's/^Message-I[dD]: //p' "$scratch"/kc/0000-cover-letter.patch)
	{
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Nak Er <nak@example.org>\nSubject: Re: [PATCH 160/217] %s\nMessage-Id: <kc1@example.org>\nIn-Reply-To: <%s>\n\nNo.\n\nNacked-by: Nak Er <nak@example.org>\n\n' "$s160" "$(msgid_of 160 | tr -d '<>')"
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Tha Nks <thanks@example.org>\nSubject: Re: [PATCH 170/217] %s\nMessage-Id: <kc2@example.org>\nIn-Reply-To: <%s>\n\nApplied to for-next, thanks!\n\n' "$s170" "$(msgid_of 170 | tr -d '<>')"
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Ack Er <ack@example.org>\nSubject: Re: [PATCH 180/217] %s\nMessage-Id: <kc3@example.org>\nIn-Reply-To: <%s>\n\nAcked-by: Ack Er <ack@example.org>\n\n' "$s180" "$(msgid_of 180 | tr -d '<>')"
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Tes Ter <tester@example.org>\nSubject: Re: [PATCH 0/217] drop of_match_ptr()\nMessage-Id: <kc4@example.org>\nIn-Reply-To: %s\n\nTested-by: Tes Ter <tester@example.org>\n' "$cover"
	} > "$scratch/kc.mbox"
	# status
	run status up --mbox "$scratch/kc.mbox"
	local st=$out applied naked answered
	has "status: the summary" "$st" "217 patches: 150 applied (100 link, 40 patch-id, 10 modified), 1 answered, 1 NAKed, 65 pending, 217 with tags"
	applied=$(sed -n 's/^ *[0-9]* \(applied\|modified\) *//p' <<<"$st" | LC_ALL=C sort)
	naked=$(sed -n 's/^ *[0-9]* NAKed *//p' <<<"$st")
	answered=$(sed -n 's/^ *[0-9]* answered *//p' <<<"$st")
	eq "status: the NAKed one" "$naked" "$s160"
	eq "status: the answered one" "$answered" "$s170"
	# trailers: the ack to its patch, the cover's test to every one
	run trailers "$scratch/kc.mbox"
	eq "trailers: exit" "$rc" 0
	eq "trailers: the ack, once" "$(git log --format=%B base..campaign | grep -c '^Acked-by: Ack Er')" 1
	has "trailers: on its patch" "$(git log -1 --format=%B ":/$s180")" "Acked-by: Ack Er <ack@example.org>"
	eq "trailers: the cover's test on every patch" "$(git log --format=%B base..campaign | grep -c '^Tested-by: Tes Ter')" 217
	# respin with the replies
	run respin --onto up --mbox "$scratch/kc.mbox" -- sh "$scratch/kc.pattern"
	eq "respin: exit" "$rc" 0
	has "respin: the summary" "$out" "v2: 70 patches on $(git rev-parse --short=12 up) (65 unchanged, 0 changed, 5 new); 150 of v1's gone (150 applied); 2 left out"
	eq "respin and status: the same applied" "$(sed -n 's/^gone      \(.*\) (applied as [0-9a-f]*)$/\1/p' <<<"$out" | LC_ALL=C sort)" "$applied"
	eq "respin and status: the same left out" "$(sed -n 's/^left out  \(.*\) (.*$/\1/p' <<<"$out" | LC_ALL=C sort)" "$(printf '%s\n' "$s160" "$s170" | LC_ALL=C sort)"
	# format -v 2: the letter says the same, and v2 rebuilds the branch
	run format -v 2 --cover "$scratch/kc.cover" -o "$scratch/kc2"
	eq "format -v 2: exit" "$rc" 0
	local letter; letter=$(cat "$scratch"/kc2/v2-0000-cover-letter.patch)
	eq "format -v 2 and status: the same applied" "$(sed -n 's/^- applied upstream as [0-9a-f]*: //p' <<<"$letter" | LC_ALL=C sort)" "$applied"
	eq "format -v 2: left out, said" "$(grep -c '^- left out (' <<<"$letter")" 2
	local tree; tree=$(git rev-parse campaign^{tree})
	git checkout -q -B kc-am up
	git am -q $(ls "$scratch"/kc2/v2-*.patch | grep -v cover-letter) ||
		{ bad "v2 does not apply on up"; git am --abort; }
	eq "v2 rebuilds the branch" "$(git rev-parse HEAD^{tree})" "$tree"
	git checkout -q campaign
	# format --split route -v 2: each folder alone on up, all together
	run format --split route -v 2 --cover "$scratch/kc.cover" -o "$scratch/kcs"
	eq "--split route -v 2: exit" "$rc" 0
	local d alone=0 n=0
	for d in "$scratch"/kcs/*/; do
		n=$((n + 1))
		git checkout -q -f -B kc-alone up
		git am -q $(ls "$d"*.patch | grep -v cover-letter) > /dev/null 2>&1 && alone=$((alone + 1)) ||
			git am --abort > /dev/null 2>&1
	done
	eq "--split route -v 2: every series applies on up alone" "$alone" "$n"
	git checkout -q -f -B kc-all up
	for d in "$scratch"/kcs/*/; do
		git am -q $(ls "$d"*.patch | grep -v cover-letter) > /dev/null 2>&1 || { bad "all: ${d%/}"; git am --abort; }
	done
	eq "--split route -v 2: together they rebuild the branch" "$(git rev-parse HEAD^{tree})" "$tree"
	git checkout -q -f campaign
}
