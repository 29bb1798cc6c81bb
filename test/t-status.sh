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

# A version recorded without its mails (a format before Message-Ids were
# recorded): status says so once, though the engine and the table both
# read the record.
t_status_unrecorded_mails_said_once() {
	campaign st-nomails
	git update-ref -d refs/series/main/v1-mails
	run status up
	eq "exit: patches pending" "$rc" 1
	eq "said once" "$(grep -c 'format recorded no mails' <<<"$err")" 1
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
	# a line a patch, what asks the most of the user first
	eq "every patch" "$out" "  6 reverted drivers/i2c/busses: do it    in up as $(git rev-parse --short=12 up~1), reverted by $(git rev-parse --short=12 up); formatted 11 days ago; waiting on bea@example.org, wsa@example.org
  8 pending  drivers/net/phy: do it       formatted 11 days ago; Acked-by: Andrew Lunn <andrew@example.org>; waiting on davem@example.org, kuba@example.org
  9 pending  drivers/widget: do it        formatted 11 days ago; Tested-by: Tim Tester <tim@example.org>; waiting on wendy@example.org
 10 pending  fs: do it                    formatted 11 days ago
  7 answered drivers/net/ethernet: do it  Wolfram Sang <wsa@example.org>: \"Applied to for-next, thanks!\" (in no ref given)
  1 applied  .: do it                     in up as $(git rev-parse --short=12 up~6) (Link:)
  2 applied  drivers: do it               in up as $(git rev-parse --short=12 up~5) (patch id)
  3 applied  drivers/gadget: do it        in up as $(git rev-parse --short=12 up~4) (Link:); changed there: drivers/gadget/g.c
  4 modified drivers/gpio: do it          in up as $(git rev-parse --short=12 up~3) (subject, author and files); changed there: drivers/gpio/gpio-legacy.c
  5 applied  drivers/i2c: do it           in up as $(git rev-parse --short=12 up~2) (patch id)
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
	has "NAKed, with the line, first" "$(head -n 1 <<<"$out")" "  8 NAKed    drivers/net/phy: do it       Nacked-by: Andrew Lunn <andrew@example.org>: rework it, or drop it"
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
		line=$(grep "^ *$n " <<<"$st")
		id=$(sed -n 's/.*in up as \([0-9a-f]*\).*/\1/p' <<<"$line")
		subj=$(sed 's/^ *[0-9]* [a-z]* *//; s/  .*//' <<<"$line")
		has "patch $n ($subj): the letter says what status says" "$letter" "- applied upstream as $id: $subj"
	done
	lacks "edited with its Link: not gone" "$letter" "gone (the change no longer touches its files): drivers/gadget: do it"
	lacks "edited without one: not gone" "$letter" "gone (the change no longer touches its files): drivers/gpio: do it"
}

# squash_up NAME GIT-COMMIT-ARGS...: patches 9 and 10 of campaign NAME's
# v1 applied on up as one commit, made by `git commit ARGS`.
squash_up() {
	local v1=$scratch/$1-v1; shift
	git checkout -q up
	git am -q "$(smail "$v1" 09)" "$(smail "$v1" 10)"
	git reset -q --soft HEAD~2
	git "$@"
	git checkout -q main
}

# Two patches the maintainer squashed into one commit with a Link: to
# each: both are applied, as that commit.
t_status_squashed_with_links() {
	campaign st-squash
	squash_up st-squash commit -qm "drivers/widget, fs: do it

Link: https://lore.kernel.org/r/$(msgid_of 9 | tr -d '<>')
Link: https://lore.kernel.org/r/$(msgid_of 10 | tr -d '<>')"
	run status up
	local at; at=$(git rev-parse --short=12 up)
	has "the first, by its Link:" "$(squeeze "$out")" "  9 applied drivers/widget: do it in up as $at (Link:; one of 2 patches squashed there)"
	has "the second too, as the same commit" "$(squeeze "$out")" " 10 applied fs: do it in up as $at (Link:; one of 2 patches squashed there)"
}

# Two patches squashed into one commit as they were sent, no Link: (the
# maintainer's own subject and author): both applied by patch id, as that
# commit, and said so; respin calls both gone as applied.  A commit of
# only one of them and more is no squash of them.
t_status_squashed_without_links() {
	campaign st-squash2
	local v1=$scratch/st-squash2-v1
	squash_up st-squash2 -c user.name=Mai -c user.email=mai@example.org commit -qm "widget, fs: one commit"
	run status up
	local at; at=$(git rev-parse --short=12 up)
	has "the first, by the sum of their patch ids" "$(squeeze "$out")" "  9 applied drivers/widget: do it in up as $at (patch id; one of 2 patches squashed there)"
	has "the second too" "$(squeeze "$out")" " 10 applied fs: do it in up as $at (patch id; one of 2 patches squashed there)"
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
	eq "status: the first edited is by Link" "$(grep '^  1 applied' <<<"$out" | grep -c '(Link:); changed there')" 1
	eq "status: 101 is modified" "$(grep -c '^101 modified' <<<"$out")" 1
	eq "status: 151 on pending" "$(grep -c '^ *1[5-9][0-9] pending\|^ *2[0-9][0-9] pending' <<<"$out")" $((n - 150))
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
	# upstream edits the code around one unanswered patch's change (its
	# patch changes: respin must say so), and renames another's file
	# (the same patch, changed: not gone with a new one beside it)
	SIM_CTX= SIM_REN=
	for i in $(seq 1 $n); do
		[ "${SIM_ACT[i]}" = silent ] && [ "$i" != "$SIM_DEL" ] || continue
		if [ -z "$SIM_CTX" ] && [ $((RANDOM % 2)) = 0 ]; then
			sed -i 's/^{$/{\n\tint ctx;/' "drivers/d$i/d$i.c"
			git commit -qam "d$i: a local"
			SIM_CTX=$i
		elif [ -z "$SIM_REN" ]; then
			git mv "drivers/d$i/d$i.c" "drivers/d$i/d$i-core.c"
			git commit -qm "d$i: rename the file"
			SIM_REN=$i
		fi
	done
	# an ack on the cover letter for one pending patch's part
	SIM_COVER=
	for i in $(seq 1 $n); do
		if [ "${SIM_ACT[i]}" = silent ] && [ -z "$SIM_COVER" ] && [ $((RANDOM % 2)) = 0 ]; then
			SIM_COVER=$i
			printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Cover Acker <cover@example.org>\nSubject: Re: [PATCH 0/%d] use NEW()\nMessage-Id: <simc-%s@example.org>\nIn-Reply-To: %s\n\nFor drivers/d%s:\n\nAcked-by: Cover Acker <cover@example.org>\n\n' \
				"$n" "$seed" "$(sed -n 's/^Message-I[dD]: //p' "$v1"/0000-cover-letter.patch)" "$i" >> "$mb"
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
		drawn="$drawn ${SIM_ACT[*]} ${SIM_COVER:+cover-ack} ${SIM_CTX:+context-edit} ${SIM_REN:+rename} "
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
		# trailers: each ack to its patch, the cover's to its part's, nothing else
		run trailers "$mb"
		local acks=0
		for i in $(seq 1 $n); do [ "${SIM_ACT[i]}" = acked ] && acks=$((acks + 1)); done
		[ -z "$SIM_COVER" ] || acks=$((acks + 1))
		eq "seed $seed: trailers adds each ack once" "$(git log --format=%B up..HEAD | grep -c '^Acked-by: ')" "$acks"
		[ -z "$SIM_COVER" ] || eq "seed $seed: the cover's ack on its part's patch only" \
			"$(git log --format=%s --grep='Acked-by: Cover Acker' up..HEAD)" "drivers/d$SIM_COVER: use NEW()"
		# a fix-up since v1, in every third seed: respin refuses it by
		# name and changes nothing
		if [ $((seed % 3)) = 0 ]; then
			echo '/* fix */' >> drivers/d1/d1.c
			git commit -qam 'fixup! drivers/d1: use NEW()'
			local snap; snap=$(snapshot)
			run respin --onto up --mbox "$mb" -- sh "$SIM_PAT"
			eq "seed $seed: a fix-up: refused" "$rc" 3
			has "seed $seed: a fix-up: named" "$err" "fixup! drivers/d1: use NEW()"
			eq "seed $seed: a fix-up: nothing changed" "$(snapshot)" "$snap"
			git reset -q --keep HEAD~1
		fi
		# respin onto upstream with the replies
		run respin --onto up --mbox "$mb" -- sh "$SIM_PAT"
		for i in $(seq 1 $n); do
			local subj="drivers/d$i: use NEW()"
			case ${SIM_ACT[i]} in
			sent|edited|retitled|squashed) has "seed $seed, patch $i (${SIM_ACT[i]}): respin says gone, applied" "$out" "gone      $subj (applied as ";;
			naked|thanked) has "seed $seed, patch $i (${SIM_ACT[i]}): respin leaves it out" "$out" "left out  $subj (";;
			*) if [ "$i" = "$SIM_DEL" ]; then
				has "seed $seed, patch $i (deleted upstream): respin says gone" "$out" "gone      $subj (the pattern no longer touches its files)"
			   elif [ "$i" = "$SIM_CTX" ] || [ "$i" = "$SIM_REN" ]; then
				has "seed $seed, patch $i (its code moved upstream): respin says changed" "$out" "changed   $subj"
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
				*) if [ "$i" = "$SIM_CTX" ] || [ "$i" = "$SIM_REN" ]; then
					has "seed $seed, patch $i: v2's letter says changed" "$(grep -F "$subj" <<<"$letter")" "- changed: $subj"
				   elif [ "$i" != "$SIM_DEL" ]; then
					has "seed $seed, patch $i: v2's letter says unchanged" "$(grep -F "$subj" <<<"$letter")" "- unchanged: $subj"
				   fi;;
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
	for act in "${sim_acts[@]}" cover-ack context-edit rename; do
		has "the seeds draw every act: $act" "$drawn " " $act "
	done
}

# Two cycles at the kernel's scale: v1 of the of_match_ptr() change (217
# patches) formatted; upstream takes 150 (100 by Link, 20 of them edited,
# 10 modified without one) and two more squashed into one commit without
# a Link:, gains five drivers the pattern matches; the replies NAK one
# pending patch, thank for another, ack a third and test
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
	# a maintainer squashes two pending patches into a commit of his own
	git checkout -q up
	git am -q "$scratch"/kc/0190-*.patch "$scratch"/kc/0191-*.patch
	git reset -q --soft HEAD~2
	git -c user.name='Squa Sher' -c user.email=squash@example.org commit -qm 'two drivers: drop of_match_ptr()'
	git checkout -q campaign
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
	has "status: the summary" "$st" "217 patches: 152 applied (100 link, 42 patch-id, 10 modified), 1 answered, 1 NAKed, 63 pending, 217 with tags"
	eq "status: the squashed two" "$(grep -c 'one of 2 patches squashed there' <<<"$st")" 2
	# a line a patch: its number, state, subject, and after two spaces
	# what became of it
	applied=$(sed -n 's/^ *[0-9]* \(applied\|modified\) *\([^ ].*\)/\2/p' <<<"$st" | sed 's/  .*//' | LC_ALL=C sort)
	naked=$(sed -n 's/^ *[0-9]* NAKed *\([^ ].*\)/\1/p' <<<"$st" | sed 's/  .*//')
	answered=$(sed -n 's/^ *[0-9]* answered *\([^ ].*\)/\1/p' <<<"$st" | sed 's/  .*//')
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
	has "respin: the summary" "$out" "v2: 68 patches on $(git rev-parse --short=12 up) (63 unchanged, 0 changed, 5 new); 152 of v1's gone (152 applied); 2 left out"
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
