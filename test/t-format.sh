# t-format.sh - series format: a range's commits as mails with their
# recipients in the headers, the cover letter, re-spins.  The tree is
# gtree's (t-groupings.sh): its MAINTAINERS and one commit per subsystem.

# fseries NAME: gtree with its change committed per subsystem; FB is the
# base, FT the tip.
fseries() {
	gtree "$1"
	FB=$(git rev-parse HEAD)
	"$SERIES" commit --by subsystem -m 'SEDME: do it

Because.' > /dev/null || bad "fseries: commit"
	FT=$(git rev-parse HEAD)
}

# The addresses of a header (To or Cc) of a mail, one a line: series
# writes each on a line of its own, the first after "To: ", the others
# after a space, all but the last ending in ",".
header_addrs() {
	awk -v h="$2" '/^$/ { exit }
		/^[A-Za-z-]+:/ { on = index($0, h ": ") == 1; if (on) print substr($0, length(h) + 3); next }
		/^[ \t]/ { if (on) { sub("^[ \t]+", ""); print } }' "$1" | sed 's/,$//'
}

t_format_headers() {
	fseries f-head
	run format -o "$scratch/fmt-h" "$FB..$FT"
	eq "format: exit" "$rc" 0
	eq "format: the mails" "$(ls "$scratch/fmt-h" | wc -l)" 11
	has "format: says how to send" "$err" "git send-email --dry-run $scratch/fmt-h/*.patch"
	local m want got all_lists=""
	for m in "$scratch"/fmt-h/00[01]*-*.patch; do
		case $m in *0000-cover*) continue;; esac
		want=$("$SERIES" cc "$m")
		got=$( { header_addrs "$m" To; header_addrs "$m" Cc; } )
		eq "${m##*/}: To: and Cc: are what series cc says" "$got" "$want"
	done
	# people in To:, lists in Cc:
	m=$scratch/fmt-h/0006-drivers-i2c-busses-do-it.patch
	eq "i2c bcm: To:" "$(header_addrs "$m" To)" "Bea Cem <bea@example.org>
Wolfram Sang <wsa@example.org>"
	eq "i2c bcm: Cc:" "$(header_addrs "$m" Cc)" "linux-i2c@vger.kernel.org
linux-kernel@vger.kernel.org"
	# the cover letter: every list of the series, nobody else
	m=$scratch/fmt-h/0000-cover-letter.patch
	eq "cover: no To:" "$(header_addrs "$m" To)" ""
	eq "cover: every list" "$(header_addrs "$m" Cc | sort)" "linux-gpio@vger.kernel.org
linux-i2c@vger.kernel.org
linux-kernel@vger.kernel.org
linux-widget@example.org
netdev@vger.kernel.org"
	has "cover: the subject placeholder" "$(cat "$m")" "Subject: [PATCH 00/10] *** SUBJECT HERE ***"
	has "cover: organised per subsystem" "$(cat "$m")" "This series is organised per subsystem (MAINTAINERS section): 10"
	has "cover: independent" "$(cat "$m")" "No file is in two of them"
	local l counts=""
	for l in $(header_addrs "$m" Cc); do
		counts+=$(printf '  %4d  %s' "$(for p in "$scratch"/fmt-h/00[01]*-*.patch; do
			[ "$p" = "$m" ] || header_addrs "$p" Cc; done | grep -cx "$l")" "$l")$'\n'
	done
	has "cover: the patches per list, counted from the mails, in the order of Cc:" "$(cat "$m")" "letter goes to every list.  Patches per list:
$counts
"
	lacks "cover: not each patch's recipients" "$(cat "$m")" "to: Bea Cem"
	has "cover: offers the forms it is not" "$(tr '\n' ' ' < "$m")" "another form (one patch for the whole tree, per file or per directory), please"
	has "cover: base-commit" "$(cat "$m")" "base-commit: $FB"
	has "cover: the diffstat" "$(cat "$m")" " 13 files changed, 13 insertions(+)"
	# headers are RFC 5322: no line over 78 where a fold can help
	eq "no long header lines" "$(sed '/^$/q' "$scratch"/fmt-h/*.patch | awk 'length > 78' | wc -l)" 0
}

# git am of the mails gives the same commits: tree, subjects, authors.
t_format_am() {
	fseries f-am
	# (a name with '"' cannot come back: git mailinfo drops the quotes,
	# from git format-patch's mails too)
	git -c user.name="Zoë, the Tester" commit -q --amend --no-edit --reset-author
	FT=$(git rev-parse HEAD)
	run format -o "$scratch/fmt-a" "$FB..$FT"
	eq "am: format" "$rc" 0
	has "am: an encoded name" "$(grep '^From: ' "$scratch"/fmt-a/0010-*.patch)" "From: =?UTF-8?q?"
	git checkout -q -b am "$FB"
	git am -q $(ls "$scratch"/fmt-a/*.patch | grep -v cover-letter) 2>&1 | grep -v '^$'
	eq "am: the tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse "$FT^{tree}")"
	eq "am: the subjects" "$(git log --format=%s "$FB..HEAD")" "$(git log --format=%s "$FB..$FT")"
	eq "am: the authors" "$(git log --format='%an <%ae>' "$FB..HEAD")" "$(git log --format='%an <%ae>' "$FB..$FT")"
	eq "am: the messages" "$(git log --format=%B "$FB..HEAD")" "$(git log --format=%B "$FB..$FT")"
}

# --rfc and -v N: the tag, the file names, and the send command.
t_format_rfc_and_version() {
	fseries f-rfc
	run format --rfc -v 2 -o "$scratch/fmt-o" "$FB..$FT"
	eq "exit" "$rc" 0
	eq "-v 2: names" "$(ls "$scratch/fmt-o" | head -2)" "v2-0000-cover-letter.patch
v2-0001-.-do-it.patch"
	has "--rfc -v 2: the tag" "$(cat "$scratch/fmt-o/v2-0006-drivers-i2c-busses-do-it.patch")" \
		"Subject: [RFC PATCH v2 06/10] drivers/i2c/busses: do it"
	has "-v 2: the command names v2" "$err" "$scratch/fmt-o/v2-*.patch"
}

# --to and --cc join every mail's headers, the cover letter's too.
t_format_to_and_cc() {
	fseries f-tocc
	run format --to 'Ann Box <ann@example.org>' --cc 'list@example.org' \
		--cc '"Comma, Carl" <carl@example.org>' -o "$scratch/fmt-t" "$FB..$FT"
	local m=$scratch/fmt-t/0006-drivers-i2c-busses-do-it.patch
	eq "--to joins To:" "$(header_addrs "$m" To)" "Bea Cem <bea@example.org>
Wolfram Sang <wsa@example.org>
Ann Box <ann@example.org>"
	eq "--cc joins Cc:, a comma name quoted" "$(header_addrs "$m" Cc | tail -n 2)" "list@example.org
\"Comma, Carl\" <carl@example.org>"
	eq "cover: --to" "$(header_addrs "$scratch/fmt-t/0000-cover-letter.patch" To)" "Ann Box <ann@example.org>"
}

# The cover letter names the public branch where its remote is known and
# holds the tip (as last fetched or pushed), the push URL first.
t_format_public_branch() {
	fseries f-pub
	local c=$scratch/fmt-p/0000-cover-letter.patch
	git config branch.main.remote origin
	git config remote.origin.url git://git.example.org/tess.git
	run format -o "$scratch/fmt-p" "$FB..$FT"
	eq "not pushed: exit" "$rc" 0
	lacks "not pushed: no branch line" "$(cat "$c")" "The branch is at"
	has "not pushed: said" "$err" "series: warning: the cover letter names no public branch: there is no origin/main here (push the branch, or fetch it)"
	git update-ref refs/remotes/origin/main "$FT~1"
	run format --force -o "$scratch/fmt-p" "$FB..$FT"
	lacks "pushed before the last commit: no branch line" "$(cat "$c")" "The branch is at"
	has "and said" "$err" "origin/main does not hold ${FT:0:12} (push it, then format again)"
	git update-ref refs/remotes/origin/main "$FT"
	run format --force -o "$scratch/fmt-p" "$FB..$FT"
	has "the public branch" "$(cat "$c")" "The branch is at:
  git://git.example.org/tess.git main"
	lacks "nothing said" "$err" "public branch"
	git config remote.origin.pushurl ssh://git.example.org/tess.git
	git config branch.main.pushRemote origin
	run format --force -o "$scratch/fmt-p" "$FB..$FT"
	has "the push URL first" "$(cat "$c")" "  ssh://git.example.org/tess.git main"
}

# No address is in both To: and Cc:, nor twice in one, whatever form it
# is given in: a list passed with --to leaves Cc:, a maintainer passed
# with --cc stays in To: alone.
t_format_no_address_twice() {
	fseries f-twice
	run format --to 'The List <LINUX-KERNEL@vger.kernel.org>' --cc wsa@example.org \
		--cc 'Ann <ann@example.org>' --cc ann@example.org -o "$scratch/fmt-2" "$FB..$FT"
	eq "exit" "$rc" 0
	local m=$scratch/fmt-2/0006-drivers-i2c-busses-do-it.patch c=$scratch/fmt-2/0000-cover-letter.patch
	eq "patch: To:" "$(header_addrs "$m" To)" "Bea Cem <bea@example.org>
Wolfram Sang <wsa@example.org>
The List <LINUX-KERNEL@vger.kernel.org>"
	eq "patch: Cc:" "$(header_addrs "$m" Cc)" "linux-i2c@vger.kernel.org
Ann <ann@example.org>"
	eq "cover: To:" "$(header_addrs "$c" To)" "The List <LINUX-KERNEL@vger.kernel.org>"
	lacks "cover: the list not in Cc: too" "$(header_addrs "$c" Cc)" "linux-kernel@"
	has "cover: the other lists are" "$(header_addrs "$c" Cc)" "linux-i2c@vger.kernel.org"
}

# --all-cc: nobody in To:, everyone in Cc:.
t_format_all_cc() {
	fseries f-allcc
	run format --all-cc -o "$scratch/fmt-c" "$FB..$FT"
	local m=$scratch/fmt-c/0006-drivers-i2c-busses-do-it.patch
	eq "--all-cc: no To:" "$(header_addrs "$m" To)" ""
	eq "--all-cc: all in Cc:" "$(header_addrs "$m" Cc)" "$("$SERIES" cc "$m")"
}

# --individual, and a range of one commit: no cover letter, no n/m.
t_format_without_cover() {
	fseries f-indiv
	run format --individual -o "$scratch/fmt-i" "$FB..$FT"
	eq "--individual: no cover" "$(ls "$scratch/fmt-i" | grep -c cover)" 0
	has "--individual: no n/m" "$(cat "$scratch/fmt-i/0006-drivers-i2c-busses-do-it.patch")" "Subject: [PATCH] drivers/i2c/busses: do it"
	run format -o "$scratch/fmt-1" "$FT~1..$FT"
	eq "one commit: one mail" "$(ls "$scratch/fmt-1")" "0001-fs-do-it.patch"
}

# Without a range, the upstream's: said where there is none.
t_format_default_range() {
	fseries f-range
	run format --prev "$FB..$FT" "$FB..$FT"
	eq "--prev without -v: usage" "$rc" 2
	run format
	eq "no upstream: exit 3" "$rc" 3
	eq "no upstream: the command to type" "$err" "series: no range given, and refs/heads/main has no upstream: give the range (series format BASE..HEAD), or set an upstream (git branch --set-upstream-to=BASE)"
	git branch -q trunk "$FB"; git branch -q -m trunk master
	run format
	has "no upstream: a trunk named" "$err" "(series format master..HEAD), or set an upstream (git branch --set-upstream-to=master)"
	# a revision alone is REV..HEAD, as git format-patch takes it
	run format -o "$scratch/fmt-rev" "$FB"
	eq "a revision alone: exit" "$rc" 0
	eq "a revision alone: REV..HEAD" "$(ls "$scratch/fmt-rev" | wc -l)" 11
	# then the base format recorded, said
	run format --force -o "$scratch/fmt-rev"
	eq "the recorded base: exit" "$rc" 0
	has "the recorded base: said" "$err" "series: no range given: series/main/v1-base..HEAD (the base format recorded)"
	eq "the recorded base: the same mails" "$(ls "$scratch/fmt-rev" | wc -l)" 11
	# a range the wrong way round
	run format -o "$scratch/fmt-rev2" "HEAD..$FB"
	eq "reversed: exit" "$rc" 1
	has "reversed: said" "$err" "no commits to format (the other way round has some: is the range reversed?)"
	# where HEAD forks from the remote's default branch
	git clone -q "$PWD" "$scratch/f-range-clone" && git -C "$scratch/f-range-clone" checkout -q -b topic
	echo 'int t;' >> "$scratch/f-range-clone/fs/one.c"
	git -C "$scratch/f-range-clone" commit -qam 'fs: one more'
	cd "$scratch/f-range-clone" || return
	run format -o "$scratch/fmt-fork"
	eq "fork point: exit" "$rc" 0
	has "fork point: said" "$err" "..HEAD (where HEAD forks from origin/HEAD)"
	eq "fork point: the topic's commit alone" "$(ls "$scratch/fmt-fork")" "0001-fs-one-more.patch"
	cd "$scratch/f-range" || return
	git branch -q up "$FB" && git branch -q -u up
	run format -o "$scratch/fmt-u"
	eq "upstream..HEAD by default" "$(ls "$scratch/fmt-u" | wc -l)" 11
}

# A cover letter still holding the placeholders is one git send-email
# refuses: format says so, names --cover, and does not tell to send yet.
t_format_cover_placeholders() {
	fseries f-ph
	run format -o "$scratch/fmt-ph" "$FB..$FT"
	eq "placeholders: written" "$rc" 0
	has "placeholders: said" "$err" "series: warning: the cover letter $scratch/fmt-ph/0000-cover-letter.patch still says *** SUBJECT HERE ***, which git send-email refuses: write the series' aim into it, or format again with --cover FILE (its first line the subject)"
	has "placeholders: not 'check, then send'" "$err" "series: 11 mails; write the cover letter, check, then send:"
	printf 'drop the frob\n\nThe frob is gone.\n' > "$scratch/ph.cover"
	run format --cover "$scratch/ph.cover" -o "$scratch/fmt-ph2" "$FB..$FT"
	lacks "--cover: no warning" "$err" "SUBJECT HERE"
	has "--cover: check, then send" "$err" "series: 11 mails; check, then send:"
}

# Edits are never lost: a re-run is refused without --force; with it the
# cover letter's subject and aim stay as the user wrote them.
t_format_rerun() {
	fseries f-rerun
	"$SERIES" format -o "$scratch/fmt-r" "$FB..$FT" > /dev/null 2>&1
	local c=$scratch/fmt-r/0000-cover-letter.patch before
	sed -i 's/\*\*\* SUBJECT HERE \*\*\*/drop the frob/; s/^\*\*\* BLURB HERE.*/The frob is gone.\n\nSecond paragraph./' "$c"
	before=$(cat "$c")
	run format -o "$scratch/fmt-r" "$FB..$FT"
	eq "re-run: refused" "$rc" 3
	has "re-run: says --force" "$err" "--force replaces it"
	eq "re-run: the refusal alone, before any warning of work not done" "$err" "series: $scratch/fmt-r: holds a series already (0000-cover-letter.patch); --force replaces it"
	run format --force --cover "$scratch/no-such-cover" -o "$scratch/fmt-r" "$FB..$FT"
	eq "a missing --cover file: the option named" "$err" "series: --cover $scratch/no-such-cover: No such file or directory"
	eq "re-run: the edited letter is as it was" "$(cat "$c")" "$before"
	run format --force -o "$scratch/fmt-r" "$FB..$FT"
	eq "--force: exit" "$rc" 0
	has "--force: the subject kept" "$(cat "$c")" "Subject: [PATCH 00/10] drop the frob"
	has "--force: the aim kept" "$(cat "$c")" "
The frob is gone.

Second paragraph.

This series is organised"
	# --cover FILE
	printf 'drop the frob everywhere\n\nWhy: it is gone.\n' > "$scratch/aim"
	run format --force --cover "$scratch/aim" -o "$scratch/fmt-r" "$FB..$FT"
	has "--cover: subject" "$(cat "$c")" "Subject: [PATCH 00/10] drop the frob everywhere"
	has "--cover: aim" "$(cat "$c")" "Why: it is gone."
}

# split -o DIR, then format --force -o DIR: split's letter holds git's
# placeholders, so format writes its own, with one shortlog and one
# diffstat; where the user wrote split's aim, that aim alone is kept.
t_format_after_split() {
	fseries f-after-split
	git diff "$FB" "$FT" > "$scratch/fas.diff"
	local c=$scratch/fas/0000-cover-letter.patch
	run split -m 'SEDME: do it' -o "$scratch/fas" "$scratch/fas.diff"
	eq "split: exit" "$rc" 0
	run format --force -o "$scratch/fas" "$FB..$FT"
	eq "format: exit" "$rc" 0
	has "format's placeholder" "$(cat "$c")" "
*** BLURB HERE: what the series does, and why ***

This series is organised"
	lacks "not git's placeholder too" "$(cat "$c")" "*** BLURB HERE ***"
	eq "one shortlog" "$(grep -c '^Tess Ter (10):$' "$c")" 1
	eq "one diffstat" "$(grep -c ' files changed, ' "$c")" 1
	run split --force -m 'SEDME: do it' -o "$scratch/fas" "$scratch/fas.diff"
	sed -i 's/\*\*\* SUBJECT HERE \*\*\*/drop the frob/; s/^\*\*\* BLURB HERE \*\*\*$/The frob is gone./' "$c"
	run format --force -o "$scratch/fas" "$FB..$FT"
	eq "edited: exit" "$rc" 0
	has "edited: the aim kept, then format's part" "$(cat "$c")" "
The frob is gone.

This series is organised"
	eq "edited: one shortlog" "$(grep -c '^Tess Ter (10):$' "$c")" 1
	has "edited: the subject kept" "$(cat "$c")" "Subject: [PATCH 00/10] drop the frob"
}

# The warnings due before sending.
t_format_warnings() {
	fseries f-warn
	sed -i 's/^L:\tlinux-widget@example.org$/L:\tlinux-widget@example.org (moderated for non-subscribers)/' MAINTAINERS
	git commit -qam 'moderated'
	local i
	mkdir -p drivers/i2c/many
	mkdir -p drivers/widget/many drivers/net/many
	for i in $(seq 16); do
		for d in i2c widget net; do echo "$i" > drivers/$d/many/f$i.c; git add drivers/$d/many/f$i.c; git commit -qm "$d: f$i"; done
	done
	run format --max-recipients 3 -o "$scratch/fmt-w" "$FB..HEAD"
	eq "warnings: exit" "$rc" 0
	# each list with the rule that holds for it
	has "more than 15 to a vger list" "$err" "series: warning: linux-i2c@vger.kernel.org gets 18 patches of this series; send no more than 15 at once to a vger list (submitting-patches.rst)"
	has "more than 15 to netdev" "$err" "series: warning: netdev@vger.kernel.org gets 18 patches of this series; netdev takes no series over 15 patches (maintainer-netdev.rst)"
	has "more than 15 to another host's list" "$err" "series: warning: linux-widget@example.org gets 18 patches of this series; its host publishes no limit, but vger's 15 at once is what reviewers expect"
	lacks "no vger rule for another host" "$err" "linux-widget@example.org gets 18 patches of this series; send no more"
	has "moderated" "$err" "series: warning: linux-widget@example.org is moderated"
	has "too many recipients" "$err" "0008-drivers-net-phy-do-it.patch goes to 5 recipients (more than 3)"
}

# git send-email sends each mail to exactly its headers (and the --to and
# the sender git adds), with no --cc-cmd.
t_format_send_email() {
	if [ ! -e "$(git --exec-path)/git-send-email" ] || ! perl -MMail::Address -e 1 2>/dev/null; then
		echo "SKIP t_format_send_email: git send-email cannot run here (git-email, libmailtools-perl)"; return
	fi
	fseries f-send
	"$SERIES" format -o "$scratch/fmt-s" "$FB..$FT" > /dev/null 2>&1
	local m got want
	for m in "$scratch"/fmt-s/0006-*.patch "$scratch"/fmt-s/0008-*.patch; do
		got=$(git send-email --dry-run --confirm=never --suppress-cc=self \
			--to=x@example.org "$m" 2>/dev/null | sed -n 's/^RCPT TO:<\(.*\)>$/\1/p' | sort)
		want=$( { echo x@example.org; "$SERIES" cc "$m" | sed 's/.*<\(.*\)>$/\1/'; } | sort)
		eq "send-email --dry-run ${m##*/}" "$got" "$want"
	done
}

# A re-spin: upstream applied one patch of v1 (cherry-picked, so another
# commit), changed a file; v2 is the change made again on the new base.
t_format_respin() {
	fseries f-respin
	local v1base=$FB v1tip=$FT up
	# upstream: takes the gadget patch, and edits README itself
	git checkout -q -b upstream "$v1base"
	git cherry-pick "$(git log --format=%H --grep '^drivers/gadget:' "$v1base..$v1tip")" > /dev/null
	up=$(git rev-parse HEAD)
	echo upstream >> fs/one.c; git commit -qam 'fs: upstream edit'
	# v2: the pattern again on the new base: gadget is done, fs/one.c's
	# patch changes, a new file is hit
	git checkout -q -b v2
	for f in $(git ls-files | grep -v -e MAINTAINERS -e gadget); do echo 'int y;' >> "$f"; done
	echo 'int z;' > drivers/widget/new.c
	mkdir -p lib; echo 'int l;' > lib/newly-hit.c
	"$SERIES" commit -u --by subsystem -m 'SEDME: do it

Because.' > /dev/null
	run format -v 2 --prev "$v1base..$v1tip" -o "$scratch/fmt-v" "upstream..v2"
	eq "respin: exit" "$rc" 0
	local c=$scratch/fmt-v/v2-0000-cover-letter.patch
	has "respin: applied upstream, named" "$(cat "$c")" "- applied upstream as ${up:0:12}: drivers/gadget: do it"
	has "respin: unchanged" "$(cat "$c")" "- unchanged: drivers/i2c: do it"
	has "respin: changed" "$(cat "$c")" "- changed: fs: do it"
	has "respin: changed too (a new file)" "$(cat "$c")" "- changed: drivers/widget: do it"
	has "respin: new" "$(cat "$c")" "- new: lib: do it"
	has "respin: range-diff" "$(cat "$c")" "Range-diff against v1:"
	has "respin: the base" "$(cat "$c")" "base-commit: $(git rev-parse upstream)"
	# a patch of v1 whose files the pattern no longer hits is gone
	git checkout -q -b v2b upstream
	for f in $(git ls-files | grep -v -e MAINTAINERS -e gadget -e '^fs/'); do echo 'int y;' >> "$f"; done
	"$SERIES" commit --by subsystem -m 'SEDME: do it

Because.' > /dev/null
	run format -v 2 --prev "$v1base..$v1tip" -o "$scratch/fmt-v2" "upstream..v2b"
	has "respin: gone" "$(cat "$scratch/fmt-v2/v2-0000-cover-letter.patch")" "- gone (the change no longer touches its files): fs: do it"
	# a patch retitled since (its files the same) is changed, as respin
	# says it: not gone with a new one beside it
	git checkout -q -b v2c v2
	GIT_SEQUENCE_EDITOR="sed -i 's/^pick \(.* fs: do it\)$/reword \1/'" \
		GIT_EDITOR="sed -i '1s/.*/fs: do it, retitled/'" git rebase -q -i upstream > /dev/null
	run format -v 2 --prev "$v1base..$v1tip" -o "$scratch/fmt-v3" "upstream..v2c"
	c=$scratch/fmt-v3/v2-0000-cover-letter.patch
	has "retitled: changed" "$(cat "$c")" "- changed: fs: do it"
	lacks "retitled: not gone" "$(cat "$c")" "- gone"
	lacks "retitled: not new" "$(cat "$c")" "- new: fs: do it, retitled"
}

# A file upstream renamed since v1: its patch is the next version's patch
# of the new name, changed, though its subject names the file (per file)
# and no subject matches; not gone with a new one beside it.
t_format_respin_renamed() {
	gtree f-ren
	local v1base v1tip c
	git reset -q --hard
	v1base=$(git rev-parse HEAD)
	echo 'int y;' >> drivers/net/phy/phy.c; echo 'int y;' >> drivers/widget/w.c
	"$SERIES" commit --by file -m 'SEDME: do it' > /dev/null || bad "commit v1"
	v1tip=$(git rev-parse HEAD)
	git checkout -q -b up3 "$v1base"
	git mv drivers/net/phy/phy.c drivers/net/phy/phy-core.c
	git commit -qm 'net: phy: rename phy.c'
	git checkout -q -b v2r
	echo 'int y;' >> drivers/net/phy/phy-core.c; echo 'int y;' >> drivers/widget/w.c
	"$SERIES" commit --by file -m 'SEDME: do it' > /dev/null || bad "commit v2"
	run format -v 2 --prev "$v1base..$v1tip" -o "$scratch/fmt-ren" "up3..v2r"
	eq "renamed: exit" "$rc" 0
	c=$(cat "$scratch/fmt-ren/v2-0000-cover-letter.patch")
	has "renamed: changed" "$c" "- changed: drivers/net/phy/phy.c: do it"
	has "renamed: the other unchanged" "$c" "- unchanged: drivers/widget/w.c: do it"
	lacks "renamed: not gone" "$c" "- gone"
	lacks "renamed: not new" "$c" "- new"
}

# Where the base is not on the upstream branch: base-commit is where they
# meet, and the commits between come as prerequisite-patch-id lines.
t_format_base() {
	fseries f-base
	git branch -q up "$FB"
	git checkout -q -b local "$FB"
	echo pre > pre.txt; git add pre.txt; git commit -qm prerequisite
	local pre; pre=$(git rev-parse HEAD)
	git branch -q -u up
	echo x >> README; git commit -qam 'README: x'
	run format -o "$scratch/fmt-b" "$pre..HEAD"
	eq "base: one patch, no cover" "$(ls "$scratch/fmt-b" | wc -l)" 1
	run format -o "$scratch/fmt-b2" "$pre~0..HEAD" 
	echo y >> README; git commit -qam 'README: y'
	run format -o "$scratch/fmt-b3" "$pre..HEAD"
	local want; want=$(git show "$pre" | git patch-id --stable | cut -d' ' -f1)
	has "base: the meeting point" "$(cat "$scratch/fmt-b3/0000-cover-letter.patch")" "base-commit: $FB
prerequisite-patch-id: $want"
}

# Names from MAINTAINERS as headers: UTF-8 encoded, specials quoted, a
# long one folded; git send-email reads them back to the same addresses.
t_format_hostile_names() {
	fseries f-names
	sed -i 's/^M:\tBea Cem <bea@example.org>$/M:\tBéa Çem-Ünïcode <bea@example.org>\nR:\t"Quoted, Name (the) Reviewer" <qr@example.org>\nR:\tA Very Long Name Indeed Of Someone Who Reviews Many Drivers <long@example.org>/' MAINTAINERS
	git commit -qam 'names'
	run format -o "$scratch/fmt-n" "$FB..$FT"
	eq "names: exit" "$rc" 0
	local m=$scratch/fmt-n/0006-drivers-i2c-busses-do-it.patch
	has "names: UTF-8 encoded" "$(cat "$m")" "To: =?UTF-8?q?B=C3=A9a_=C3=87em-=C3=9Cn=C3=AFcode?= <bea@example.org>,"
	has "names: specials quoted" "$(cat "$m")" " \"Quoted, Name (the) Reviewer\" <qr@example.org>,"
	# (a message id is one word, never folded: git's are as long)
	eq "names: no header line over 78" "$(sed '/^$/q' "$m" | grep -Ev '^(Message-Id|In-Reply-To|References): <[^ ]*>$' | awk 'length > 78' | wc -l)" 0
	eq "names: 8-bit only in the body" "$(sed '/^$/q' "$m" | LC_ALL=C grep -c '[^ -~]')" 0
	if [ -e "$(git --exec-path)/git-send-email" ] && perl -MMail::Address -e 1 2>/dev/null; then
		local got want
		got=$(git send-email --dry-run --confirm=never --suppress-cc=self --to=x@example.org "$m" 2>/dev/null |
			sed -n 's/^RCPT TO:<\(.*\)>$/\1/p' | sort)
		want=$( { echo x@example.org; "$SERIES" cc "$m" | sed 's/.*<\(.*\)>$/\1/'; } | sort)
		eq "names: send-email reads the addresses back" "$got" "$want"
	fi
}

# An RFC of one subsystem cut from the committed series: --include takes
# the commits that touch it, numbered among themselves.
t_format_include() {
	fseries f-incl
	run format --include 'drivers/i2c/*' -o "$scratch/fmt-inc" "$FB..$FT"
	eq "exit" "$rc" 0
	eq "only the i2c commits" "$(ls "$scratch/fmt-inc" | grep -vc cover)" "$(git rev-list --count "$FB..$FT" -- drivers/i2c)"
	has "numbered among themselves" "$(cat "$scratch"/fmt-inc/0001-*.patch)" "Subject: [PATCH 1/2]"
	eq "no other file" "$(grep -h '^diff --git' "$scratch"/fmt-inc/0*.patch | grep -vc ' a/drivers/i2c/')" 0
}

# The cover letter never offers a form the series already has: a series
# per directory whose directories each have one file is per file too;
# per subsystem is offered only where MAINTAINERS can make it.
t_format_offer() {
	newrepo f-offer
	mkdir -p a b
	echo 1 > a/x; echo 1 > b/y
	commit_all
	local base; base=$(git rev-parse HEAD)
	echo 2 >> a/x; echo 2 >> b/y
	"$SERIES" commit --by dir -m 'SEDME: two' > /dev/null || bad "commit"
	run format -o "$scratch/fmt-offer" "$base..HEAD"
	eq "exit" "$rc" 0
	local c; c=$(tr '\n' ' ' < "$scratch/fmt-offer/0000-cover-letter.patch")
	has "the first form that fits" "$c" "This series is organised per file: 2 patches."
	has "only the form it is not" "$c" "another form (one patch for the whole tree), please say so"
}

# Each version format writes is recorded under the branch its range ends
# at: -v 2 without --prev finds v1 there, after a rebase too, and says so
# where none was recorded.
t_format_respin_recorded() {
	fseries f-rec
	git checkout -q -b work
	run format -o "$scratch/fmt-rec1" "$FB..work"
	eq "v1: exit" "$rc" 0
	eq "v1: recorded" "$(git rev-parse refs/series/work/v1 refs/series/work/v1-base)" "$FT
$FB"
	# upstream moves on; the change is made again on it
	git checkout -q -b upstream "$FB"
	echo upstream > up.txt; git add up.txt; git commit -qm 'upstream'
	git checkout -q -B work upstream
	for f in $(git ls-files | grep -v -e MAINTAINERS -e up.txt -e gadget); do echo 'int y;' >> "$f"; done
	"$SERIES" commit --by subsystem -m 'SEDME: do it

Because.' > /dev/null
	git reflog expire --expire=now --all; git gc -q --prune=now
	run format -v 2 -o "$scratch/fmt-rec2" upstream..
	eq "v2: exit" "$rc" 0
	local c=$scratch/fmt-rec2/v2-0000-cover-letter.patch
	has "v2: v1 found" "$(cat "$c")" "Changes since v1 (series/work/v1-base..series/work/v1):"
	has "v2: v1's commits kept from gc" "$(cat "$c")" "- gone (the change no longer touches its files): drivers/gadget: do it"
	has "v2: range-diff" "$(cat "$c")" "Range-diff against v1:"
	eq "v2: recorded" "$(git rev-parse refs/series/work/v2-base)" "$(git rev-parse upstream)"
	# a branch format never wrote, and a detached HEAD
	git checkout -q -b other
	run format -v 2 --force -o "$scratch/fmt-rec3" upstream..
	eq "none recorded: still written" "$rc" 0
	has "none recorded: said" "$err" "series: warning: the cover letter says nothing of v1: format recorded none of other (no refs/series/other/v1); give --prev OLD-BASE..OLD-TIP"
	lacks "none recorded: no changes section" "$(cat "$scratch/fmt-rec3/v2-0000-cover-letter.patch")" "Changes since"
	git checkout -q --detach
	run format -v 3 -o "$scratch/fmt-rec4" upstream..
	has "detached: said" "$err" "series: warning: the cover letter says nothing of v2: upstream.. ends at no branch"
}

# A version once recorded is what went out: a later format of another
# range (a cut of the branch into a scratch folder, no -v) keeps its
# record and says so; the same range formatted again is the same record;
# --force replaces it, and says that too.
t_format_record_kept() {
	fseries f-keep
	git checkout -q -b work
	run format -o "$scratch/keep1" "$FB..work"
	eq "v1: exit" "$rc" 0
	local ids; ids=$(git rev-parse refs/series/work/v1 refs/series/work/v1-base refs/series/work/v1-mails)
	run format -o "$scratch/keep2" "work~2..work"
	eq "another range: written" "$rc" 0
	has "another range: said" "$err" "series: warning: v1 of work is recorded already for another range: its record is kept (-v 2 records the next version; --force replaces v1's)"
	eq "another range: the record kept" "$(git rev-parse refs/series/work/v1 refs/series/work/v1-base refs/series/work/v1-mails)" "$ids"
	run format -o "$scratch/keep3" "$FB..work"
	eq "the same range: exit" "$rc" 0
	lacks "the same range: nothing said" "$err" "recorded already"
	eq "the same range: the same tip" "$(git rev-parse refs/series/work/v1)" "$(git rev-parse work)"
	run format --force -o "$scratch/keep2" "work~2..work"
	eq "--force: exit" "$rc" 0
	has "--force: said" "$err" "series: warning: v1 of work: its record replaced (--force)"
	eq "--force: replaced" "$(git rev-parse refs/series/work/v1-base)" "$(git rev-parse work~2)"
}

# A lone patch has no letter: -v 2 says what became of v1 below its
# "---", where git format-patch --range-diff puts it, and git am still
# takes the patch.
t_format_lone_v2() {
	fseries f-lone
	git checkout -q -b lone "$FB"
	git cherry-pick "$FT" > /dev/null
	local f; f=$(git diff --name-only HEAD~ HEAD | head -n 1)
	run format -o "$scratch/fl1" "$FB..lone"
	eq "v1: one mail" "$(ls "$scratch/fl1")" "0001-fs-do-it.patch"
	echo 'int z;' >> "$f"
	git commit -q --amend -a --no-edit
	run format -v 2 -o "$scratch/fl2" "$FB..lone"
	eq "v2: exit" "$rc" 0
	local m=$scratch/fl2/v2-0001-fs-do-it.patch
	eq "v2: below ---, what changed, then the range-diff" \
		"$(sed -n '/^---$/,/^diff --git/p' "$m" | sed -E 's/[0-9a-f]{7}/H/g' | head -n 6)" "---
Changes since v1 (series/lone/v1-base..series/lone/v1):
- changed: fs: do it

Range-diff against v1:
1:  H ! 1:  H fs: do it"
	has "v2: the diffstat after a blank line" "$(cat "$m")" "

 $f | "
	git checkout -q -b lone-am "$FB"
	git am -q "$m" || bad "v2: git am"
	eq "v2: git am gives the tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse lone^{tree})"
}

# The subjects are numbered as git format-patch numbers them: padded to
# the total's width, the cover letter 00 of 10 (mail clients sort by
# subject), with -v and --rfc as git writes them.
t_format_numbers_as_git() {
	fseries f-num
	local o
	for o in "" "--rfc -v 2"; do
		rm -rf "$scratch/fnum" "$scratch/fnum-git"
		run format $o -o "$scratch/fnum" "$FB..$FT"
		eq "[$o] exit" "$rc" 0
		git format-patch -q --cover-letter ${o:+--rfc -v2} -o "$scratch/fnum-git" "$FB..$FT"
		eq "[$o] subjects as git's" "$(grep -h '^Subject:' "$scratch"/fnum/*.patch | cut -d']' -f1)" \
			"$(grep -h '^Subject:' "$scratch"/fnum-git/*.patch | cut -d']' -f1)"
	done
	has "padded" "$(cat "$scratch"/fnum/v2-0003-*.patch)" "Subject: [RFC PATCH v2 03/10]"
}

# An empty commit in the range (a note for reviewers, b4's cover-letter
# commit) is left out of the mails and said, never written as a patch git
# am stops at; the others are numbered among themselves and apply.
t_format_empty_commit() {
	fseries f-empty
	git commit -q --allow-empty -m 'a note for reviewers'
	git commit -q --allow-empty -m 'treewide: do it

The aim.

--- b4-submit-tracking ---
# This section is used internally by b4 prep'
	echo 'int z;' >> fs/one.c; git commit -qam 'fs: one more'
	local n; n=$(git rev-list --count "$FB..HEAD")
	run format -o "$scratch/fmt-empty" "$FB..HEAD"
	eq "exit" "$rc" 0
	has "the note said" "$err" "(a note for reviewers) changes nothing: left out of the mails (git am stops at an empty patch)"
	has "b4's cover commit said" "$err" "(treewide: do it) changes nothing: left out of the mails (b4's cover-letter commit"
	eq "a mail per commit with a change, and the cover" "$(ls "$scratch/fmt-empty" | wc -l)" "$((n - 2 + 1))"
	has "numbered among themselves" "$(cat "$scratch"/fmt-empty/0001-*.patch)" "/$((n - 2))]"
	lacks "no empty patch" "$(cat "$scratch"/fmt-empty/*.patch)" "a note for reviewers"
	git checkout -q -b empty-am "$FB"
	git am -q $(ls "$scratch"/fmt-empty/*.patch | grep -v cover-letter) || bad "git am failed"
	eq "git am gives the tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse "main^{tree}" 2>/dev/null || git rev-parse "master^{tree}")"
}

# A list that one section names as a reviewer (R:) and another as a list
# (L:) is a list: the cover letter goes to it and counts its patches, in
# every organisation alike (plan --compare's cover-lists).
t_format_reviewer_list() {
	newrepo f-rlist
	mkdir -p drivers/a
	printf 'int x;\n' > drivers/a/x.c; printf 'int c;\n' > drivers/a/clk.c
	cat > MAINTAINERS <<'M'
A DRIVERS
M:	Ann Drv <ann@example.org>
R:	NXP Team <team@example.org>
L:	linux-a@vger.kernel.org
S:	Maintained
F:	drivers/a/

TEAM CLOCK
M:	Tom Clk <tom@example.org>
L:	team@example.org
S:	Maintained
F:	drivers/a/clk.c
M
	commit_all
	echo 'int y;' >> drivers/a/x.c; git commit -qam 'a: x: more'
	echo 'int y;' >> drivers/a/clk.c; git commit -qam 'a: clk: more'
	run format -o "$scratch/rlist" HEAD~2..HEAD
	eq "exit" "$rc" 0
	local m=$scratch/rlist/0000-cover-letter.patch
	eq "cover: every list, the reviewer's too" "$(header_addrs "$m" Cc | sort)" "linux-a@vger.kernel.org
team@example.org"
	has "cover: the list's patches counted" "$(cat "$m")" "     2  team@example.org"
	git reset -q --hard HEAD~2
	echo 'int y;' >> drivers/a/x.c; echo 'int y;' >> drivers/a/clk.c
	run plan --compare
	local by_sub by_file
	by_sub=$(awk '$1 == "subsystem" { print $4 }' <<<"$out")
	by_file=$(awk '$1 == "file" { print $4 }' <<<"$out")
	eq "compare: cover lists by subsystem" "$by_sub" 2
	eq "compare: cover lists by file" "$by_file" 2
}

# --split subsystem: a series per section, the others named by their
# titles whole (a title's words are not an SCM's name and its URL).
t_format_split_subsystem() {
	split_range fmt-split-sub
	git tag base-split HEAD~5
	run format --split subsystem -o "$scratch/ss" base-split..HEAD
	eq "exit" "$rc" 0
	local c; c=$(cat "$scratch"/ss/1-*/0000-cover-letter.patch)
	has "one for each subsystem" "$c" "each subsystem that takes it.  The others:"
	has "a title whole" "$c" "  2-i2c-bar (1 patch): I2C SUBSYSTEM HOST DRIVERS"
}
# format --split route: one series per tree, each in its own folder, each
# applying to the base on its own (a series whose patch needs another's
# names it), together the tip's tree; cover letters to the tree's people
# and lists, naming the others; a commit of two trees alone, said; parts
# of --max-patches; the send plan.
split_range() {
	route_tree "$1"
	git commit -qm 'i2c: foo: x' drivers/i2c/busses/i2c-foo.c
	git commit -qm 'arm: foo: x' arch/arm/mach-foo/board.c
	git commit -qm 'i2c: bar: x' drivers/i2c/busses/i2c-bar.c
	git commit -qm 'sound: codec: x' sound/foo-codec.c
	echo 4 >> drivers/i2c/busses/i2c-bar.c; echo 4 >> sound/foo-codec.c
	git commit -qam 'misc: both'
	printf 'drop foo()\n\nThe aim of it all.\n' > "$scratch/split.cover"
}

# am_alone DIR: the tree after git am of DIR's patches on the base alone,
# or nothing where they do not apply.
am_alone() {
	git checkout -q -f -B am-alone base-split
	git am -q $(ls -d "$1"/* | grep -v cover-letter) >/dev/null 2>&1 &&
		git rev-parse HEAD^{tree} || { git am --abort >/dev/null 2>&1; true; }
}

t_format_split_route() {
	split_range fmt-split
	git tag base-split HEAD~5
	local tip; tip=$(git rev-parse HEAD^{tree})
	run format --split route --cover "$scratch/split.cover" -o "$scratch/sr" base-split..HEAD
	eq "exit" "$rc" 0
	eq "a folder a series" "$(ls "$scratch/sr" | tr '\n' ' ')" "1-i2c 2-arm-foo 3-sound-codec 4-misc "
	has "the commit of two trees, said" "$err" "its files go to several trees, as many to each: a series of its own (4-misc)"
	local c; c=$(cat "$scratch/sr/1-i2c/0000-cover-letter.patch")
	eq "the series' subject names its tree, no more" "$(grep '^Subject:' <<<"$c")" "Subject: [PATCH 0/2] i2c: drop foo()"
	has "to the tree's people" "$(sed -n '/^To:/,/^Cc:/p' <<<"$c")" " Wolf Sang <wolf@example.org>"
	has "cc its lists" "$(sed -n '/^Cc:/,/^$/p' <<<"$c")" " linux-i2c@example.org"
	has "the user's aim" "$c" "The aim of it all."
	has "names the others and where they go" "$c" "  2-arm-foo (1 patch): git://example.org/foo.git"
	has "each series its base" "$c" "base-commit: $(git rev-parse base-split)"
	local d
	for d in 1-i2c 2-arm-foo 3-sound-codec; do
		[ -n "$(am_alone "$scratch/sr/$d")" ] && ok || bad "$d does not apply to the base alone"
	done
	eq "4-misc needs another first" "$(am_alone "$scratch/sr/4-misc")" ""
	lacks "a lone patch has no cover letter" "$(ls "$scratch/sr/2-arm-foo")" "cover"
	git checkout -q -f -B all base-split
	for d in 1-i2c 2-arm-foo 3-sound-codec 4-misc; do
		git am -q $(ls -d "$scratch/sr/$d"/* | grep -v cover-letter) || bad "all: $d"
	done
	eq "together: the tip's tree" "$(git rev-parse HEAD^{tree})" "$tip"
	git checkout -q -f main
	has "the send plan" "$err" "  day 1: git send-email $scratch/sr/1-i2c/*.patch"
	has "the plan's lists" "$err" "2 patches to linux-arm@example.org, linux-i2c@example.org"
	lacks "one day: no pace named" "$err" "the pace is"
	# parts: a series of at most one patch; a list gets one a day
	run format --split route --max-patches 1 -o "$scratch/sr1" base-split..HEAD
	eq "parts: exit" "$rc" 0
	eq "parts: folders" "$(ls "$scratch/sr1" | tr '\n' ' ')" "1-i2c-foo-part1 2-i2c-bar-part2 3-arm-foo 4-sound-codec 5-misc "
	has "parts: a list a patch a day" "$err" "  day 2: git send-email $scratch/sr1/2-i2c-bar-part2/*.patch"
	has "parts: the list that sets the pace" "$err" "  (the pace is linux-arm@example.org's: 4 patches in all)"
	run format --max-patches 3 base-split..HEAD
	eq "--max-patches alone: usage" "$rc" 2
}

# A series that needs another's patch names it in its cover letter.
t_format_split_prerequisite() {
	split_range fmt-split-pre
	git tag base-split HEAD~5
	echo 5 >> sound/foo-codec.c; echo 5 >> arch/arm/mach-foo/board.c
	git commit -qam 'misc: again'
	run format --split route --cover "$scratch/split.cover" -o "$scratch/srp" base-split..HEAD
	eq "exit" "$rc" 0
	# misc: again touches board.c (2-arm-foo) and the codec (3-sound-codec,
	# then 4-misc): all three go first
	local c; c=$(cat "$scratch/srp/5-misc/0000-cover-letter.patch")
	has "a lone patch that needs others has a letter" "$c" "Subject: [PATCH 0/1] misc: drop foo()"
	has "said" "$c" "It applies after 3 patches of the others, named below by their patch ids."
	local h want
	want=$(for h in $(git rev-list --reverse base-split..HEAD~1); do
		case $(git diff-tree --no-commit-id --name-only -r "$h" | tr '\n' ' ') in
		*board*|*codec*) git show "$h" | git patch-id --stable | cut -d' ' -f1;;
		esac; done | sed 's/^/prerequisite-patch-id: /')
	has "their patch ids" "$c" "$want"
	[ -n "$(am_alone "$scratch/srp/1-i2c")" ] && ok || bad "1-i2c needs none"
}

# A moderated list that several series reach is said once a run.
t_format_split_moderated_once() {
	split_range fmt-split-mod
	sed -i 's/^L:\tlinux-i2c@example.org$/L:\tlinux-i2c@example.org (moderated for non-subscribers)/' MAINTAINERS
	git commit -qam 'moderated'
	git tag base-split HEAD~6
	run format --split route -o "$scratch/smod" base-split..HEAD~1
	eq "exit" "$rc" 0
	eq "two series reach the list" "$(grep -l '^Cc:.*linux-i2c@example.org\|^ linux-i2c@example.org' "$scratch"/smod/*/*.patch | sed 's|/[^/]*$||' | sort -u | wc -l)" 2
	eq "said once" "$(grep -c 'linux-i2c@example.org is moderated' <<<"$err")" 1
}

# A second split into the same folder: refused, nothing written; with
# --force, the folders the new split does not write are gone.
t_format_split_again() {
	split_range fmt-split-again
	git tag base-split HEAD~5
	run format --split route -o "$scratch/sa" base-split..HEAD
	eq "first: exit" "$rc" 0
	local before; before=$(cd "$scratch/sa" && find . -type f | sort | xargs sha1sum)
	run format --split route --max-patches 1 -o "$scratch/sa" base-split..HEAD
	eq "again: refused" "$rc" 3
	has "again: said" "$err" "holds a series already; --force replaces it"
	eq "again: nothing written" "$(cd "$scratch/sa" && find . -type f | sort | xargs sha1sum)" "$before"
	run format --split route --max-patches 1 --force -o "$scratch/sa" base-split..HEAD
	eq "--force: exit" "$rc" 0
	eq "--force: only the new folders" "$(ls "$scratch/sa" | tr '\n' ' ')" "1-i2c-foo-part1 2-i2c-bar-part2 3-arm-foo 4-sound-codec 5-misc "
}

# A change committed as "treewide: ..." gives every series the same
# prefix: each letter then names its tree, so that no two read alike on
# a list both reach.
t_format_split_alike() {
	route_tree fmt-split-alike
	git tag base-alike
	local f
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 arch/arm/mach-foo/board.c sound/foo-codec.c; do
		git commit -qm "treewide: drop foo() from $(basename "$f" .c)" "$f"
	done
	echo 1 > sound/bar-codec.c; git add sound/bar-codec.c
	git commit -qm 'treewide: drop foo() from bar-codec'
	printf 'drop foo()\n\nWhy.\n' > "$scratch/alike.cover"
	run format --split route --cover "$scratch/alike.cover" -o "$scratch/sal" base-alike..HEAD
	eq "exit" "$rc" 0
	eq "folders named by their trees" "$(ls "$scratch/sal" | tr '\n' ' ')" \
		"1-treewide-example.org-i2c 2-treewide-example.org-foo 3-treewide-example.org-sound "
	eq "letters named by their trees" "$(grep -h '^Subject:' "$scratch"/sal/*/0000-cover-letter.patch)" \
		"Subject: [PATCH 0/2] treewide: drop foo() (example.org/i2c)
Subject: [PATCH 0/2] treewide: drop foo() (example.org/sound)"
	# a commit whose files go to two trees has no key to name
	echo 3 >> drivers/i2c/busses/i2c-bar.c; echo 3 >> sound/foo-codec.c
	git commit -qam 'treewide: drop foo() from two'
	run format --split route --cover "$scratch/alike.cover" -o "$scratch/sal3" base-alike..HEAD
	eq "a commit of two trees beside them: exit" "$rc" 0
	eq "a commit of two trees beside them: its folder" "$(ls "$scratch/sal3" | tail -n 1)" "4-treewide"
}

# -v 2 of a split set: each series' letter says what became of its own
# patches of v1, as recorded (refs/series/BRANCH/v1-split).
t_format_split_v2() {
	split_range fmt-split-v2
	git tag base-split HEAD~5
	run format --split route -o "$scratch/sv1" base-split..HEAD
	eq "v1: exit" "$rc" 0
	has "v1: the map recorded" "$(git cat-file blob refs/series/main/v1-split)" "$(git rev-parse HEAD~2) git git://example.org/i2c.git"
	# v2: i2c: bar: changed, the rest the same
	git checkout -q -b v2 base-split
	git cherry-pick main~4 main~3 main~2 > /dev/null
	sed -i '1s/.*/one/' drivers/i2c/busses/i2c-bar.c
	git commit -q --amend -a --no-edit
	git cherry-pick main~1 main > /dev/null
	git checkout -q -B main v2; git branch -D -q v2
	run format --split route -v 2 -o "$scratch/sv2" base-split..HEAD
	eq "v2: exit" "$rc" 0
	local c; c=$(cat "$scratch/sv2/1-i2c/v2-0000-cover-letter.patch")
	has "v2: per series" "$c" "Changes since v1 (series/main/v1-base..series/main/v1) of this series' patches:
- unchanged: i2c: foo: x
- changed: i2c: bar: x"
	lacks "v2: not the others' patches" "$c" "sound: codec: x
"
	has "v2: its own range-diff" "$c" "Range-diff of them against v1:"
	eq "v2: the range-diff's blocks, its patches only" \
		"$(grep -E '^ {0,3}[-0-9]+: ' <<<"$c" | sed -E 's/[0-9a-f]{7}/H/g')" "1:  H = 1:  H i2c: foo: x
3:  H < -:  ------- i2c: bar: x
-:  ------- > 3:  H i2c: bar: x"
	lacks "v2: no other series' block" "$c" "sound: codec: x
-:"
	has "v2: the new map" "$(git cat-file blob refs/series/main/v2-split)" "$(git rev-parse HEAD~2) git git://example.org/i2c.git"
	# a series of one patch has no letter: its patch says it
	local lone; lone=$(ls "$scratch"/sv2/*/v2-0001-sound-codec-x.patch)
	eq "v2: the lone patch's folder has no letter" "$(ls "${lone%/*}" | wc -l)" 1
	has "v2: the lone patch says its fate below ---" \
		"$(sed -n '/^---$/,/^diff --git/p' "$lone")" "---
Changes since v1 (series/main/v1-base..series/main/v1):
- unchanged: sound: codec: x

Range-diff against v1:"
}

# A commit of several trees goes with the tree most of its files go to; a
# file no section names (include/) does not outvote one that has a tree;
# two trees of one file each tie: a series of its own, said.
t_format_split_route_most() {
	route_tree fmt-split-most
	git checkout -q -- .
	mkdir -p include; echo 1 > include/foo.h
	git add include/foo.h; git commit -qm 'include: foo.h'
	git tag base-split
	local f
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 sound/foo-codec.c; do echo 3 >> "$f"; done
	git commit -qam 'i2c: two drivers, a codec'
	echo 3 >> arch/arm/mach-foo/board.c; echo 2 >> include/foo.h
	git commit -qam 'arm: foo: board and header'
	echo 4 >> drivers/i2c/busses/i2c-bar.c; echo 4 >> sound/foo-codec.c
	git commit -qam 'misc: both'
	run format --split route -o "$scratch/sm" base-split..HEAD
	eq "exit" "$rc" 0
	eq "two of three files: the i2c tree; the board's with its header" \
		"$(git cat-file blob refs/series/main/v1-split)" "$(git rev-parse HEAD~2) git git://example.org/i2c.git
$(git rev-parse HEAD~1) git git://example.org/foo.git
$(git rev-parse HEAD) (several)"
	eq "a folder a series" "$(ls "$scratch/sm" | tr '\n' ' ')" "1-i2c 2-arm-foo 3-misc "
	has "a tie: said" "$err" "its files go to several trees, as many to each: a series of its own (3-misc)"
	has "the codec's maintainer still gets its patch" \
		"$(sed -n '/^To:/,/^Subject:/p' "$scratch"/sm/1-i2c/*)" "Tak Ashi <tak@example.org>"
}

# --split list: a series per first list of the patch's files (their
# owning section's first L:), named by it where the subjects share no
# prefix.
t_format_split_list() {
	split_range fmt-split-list
	git tag base-split HEAD~5
	run format --split list -o "$scratch/sl" base-split..HEAD
	eq "exit" "$rc" 0
	eq "a folder a list" "$(ls "$scratch/sl" | tr '\n' ' ')" "1-linux-arm 2-i2c-bar 3-sound-codec 4-misc "
	has "the others by list" "$(cat "$scratch/sl/1-linux-arm/0000-cover-letter.patch")" "  2-i2c-bar (1 patch): linux-i2c@example.org"
	has "a commit of two lists: said" "$err" "its files go to several lists, as many to each: a series of its own (4-misc)"
}
