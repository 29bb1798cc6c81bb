# t-trailers.sh - series trailers: review tags from replies in mboxes onto
# the commits they were given for, scoped acks on the cover letter, tags
# carried from the previous version by patch id; the range rewritten with
# its trees unchanged, the branch moved once, nothing changed on failure.

# tr_series NAME: a base and three commits (a/x, a/y, b/z), a MAINTAINERS
# whose A section Ann maintains.
tr_series() {
	newrepo "$1"
	mkdir -p a b
	printf '1\n' > a/x; printf '1\n' > a/y; printf '1\n' > b/z
	cat > MAINTAINERS <<'M'
A DRIVERS
M:	Ann Maint <ann@example.org>
S:	Maintained
F:	a/

B DRIVERS
M:	Bob Maint <bob@example.org>
S:	Maintained
F:	b/
M
	commit_all
	TR_BASE=$(git rev-parse HEAD)
	local f
	for f in a/x a/y b/z; do
		echo 2 >> "$f"
		git commit -qam "$f: fix

Signed-off-by: Tess Ter <tess@example.org>"
	done
	TR_TREE=$(git rev-parse HEAD^{tree})
}

# The mbox of the replies: to patch 1 (by In-Reply-To, a folded header,
# an encoded name, a quoted tag), to patch 3 by subject alone, and to the
# cover letter from Ann (who maintains a/) and from Carl (who maintains
# nothing).
tr_mbox() {
	cat <<'M'
From mboxrd@z Thu Jan  1 00:00:00 1970
From: Tess Ter <tess@example.org>
Subject: [PATCH 0/3] fix things
Message-ID: <cover@example.org>

The cover.

From mboxrd@z Thu Jan  1 00:00:00 1970
From: Tess Ter <tess@example.org>
Subject: [PATCH 1/3] a/x: fix
Message-ID: <p1@example.org>
In-Reply-To: <cover@example.org>

The patch.

From mboxrd@z Thu Jan  1 00:00:00 1970
From: =?UTF-8?q?Ren=C3=A9e_Rev?= <renee@example.org>
Subject: Re: [PATCH 1/3]
 a/x: fix
Message-ID: <r1@example.org>
In-Reply-To: <p1@example.org>
References: <cover@example.org>
 <p1@example.org>

> Tested-by: Quoted Person <quoted@example.org>
> Looks fine to me.

Tested-by: Tim Board <tim@example.org>
Reviewed-by: =?UTF-8?q?Ren=C3=A9e_Rev?= <renee@example.org>

From mboxrd@z Thu Jan  1 00:00:00 1970
From: Bob Maint <bob@example.org>
Subject: Re: [PATCH 3/3] b/z: fix
Message-ID: <r3@example.org>

Acked-by: Bob Maint <bob@example.org>

From mboxrd@z Thu Jan  1 00:00:00 1970
From: Ann Maint <ann@example.org>
Subject: Re: [PATCH 0/3] fix things
Message-ID: <r0a@example.org>
In-Reply-To: <cover@example.org>

For the a/ part:
Acked-by: Ann Maint <ann@example.org>

From mboxrd@z Thu Jan  1 00:00:00 1970
From: Carl Tester <carl@example.org>
Subject: Re: [PATCH 0/3] fix things
Message-ID: <r0c@example.org>
In-Reply-To: <cover@example.org>

Tested-by: Carl Tester <carl@example.org>
M
}

t_trailers_from_replies() {
	tr_series tr-replies
	tr_mbox > "$scratch/tr.mbox"
	echo local >> a/x
	local before; before=$(snapshot)
	run trailers -n "$scratch/tr.mbox" "$TR_BASE..HEAD"
	eq "-n: exit" "$rc" 0
	eq "-n: nothing written" "$(snapshot)" "$before"
	has "-n: what and why" "$out" "    + Tested-by: Tim Board <tim@example.org>   (given in reply to the patch)"
	local idx wt; idx=$(git ls-files -s); wt=$(git status --porcelain)
	run trailers "$scratch/tr.mbox" "$TR_BASE..HEAD"
	eq "trailers: exit" "$rc" 0
	has "trailers: the summary" "$out" "trailers added to 3 commits on refs/heads/main"
	eq "the trees are the same" "$(git rev-parse HEAD^{tree})" "$TR_TREE"
	eq "the base stays" "$(git rev-parse HEAD~3)" "$TR_BASE"
	eq "the branch moved once" "$(git reflog -1 --format=%gs)" "series: 3 commits"
	eq "the index as it was" "$(git ls-files -s)" "$idx"
	eq "the work tree as it was" "$(git status --porcelain)" "$wt"
	eq "a/x: in b4's order, the quoted one not" "$(git log -1 --format=%B HEAD~2)" "a/x: fix

Signed-off-by: Tess Ter <tess@example.org>
Tested-by: Tim Board <tim@example.org>
Tested-by: Carl Tester <carl@example.org>
Reviewed-by: Renée Rev <renee@example.org>
Acked-by: Ann Maint <ann@example.org>"
	# Ann maintains a/: her ack on the cover letter is not b/z's
	eq "a/y: Carl's and Ann's" "$(git log -1 --format=%B HEAD~1)" "a/y: fix

Signed-off-by: Tess Ter <tess@example.org>
Tested-by: Carl Tester <carl@example.org>
Acked-by: Ann Maint <ann@example.org>"
	eq "b/z: by its subject; Carl's, not Ann's" "$(git log -1 --format=%B HEAD)" "b/z: fix

Signed-off-by: Tess Ter <tess@example.org>
Tested-by: Carl Tester <carl@example.org>
Acked-by: Bob Maint <bob@example.org>"
	has "the scope is said" "$err" "'Acked-by: Ann Maint <ann@example.org>' on the cover letter goes to the 2 of the 3 patches it is for (the reply says it is for them)"
	eq "authors kept" "$(git log -3 --format='%an %ad' --date=raw | sort -u | wc -l)" 1
	# again: nothing to add, no duplicates
	run trailers "$scratch/tr.mbox" "$TR_BASE..HEAD"
	eq "again: nothing to add" "$rc" 1
	has "again: said" "$err" "no trailer to add"
}

t_trailers_refusals() {
	tr_series tr-refuse
	tr_mbox > "$scratch/tr.mbox"
	local before; before=$(snapshot)
	run trailers
	eq "no mbox: usage" "$rc" 2
	run trailers "$TR_BASE..HEAD" "$scratch/tr.mbox"
	eq "range first: usage" "$rc" 2
	run trailers "$scratch/nosuch.mbox" "$TR_BASE..HEAD"
	eq "a missing mbox: exit 3" "$rc" 3
	run trailers "$scratch/tr.mbox" "$TR_BASE..HEAD~1"
	eq "not ending at HEAD: exit 3" "$rc" 3
	printf 'From x\nSubject: Re: [PATCH 9/9] elsewhere\n\nAcked-by: Who <who@example.org>\n' > "$scratch/else.mbox"
	run trailers "$scratch/else.mbox" "$TR_BASE..HEAD"
	eq "a reply to another series: nothing to add" "$rc" 1
	has "a reply to another series: said" "$err" "answers no patch of the series: not added"
	eq "nothing changed" "$(snapshot)" "$before"
}

# A lore thread (b4 mbox, lore's t.mbox.gz) holds the series' own mails
# as sent, each a reply to the cover letter, beside the replies: a tag a
# patch already carries is no reply's, and is never handed out again as
# a cover letter's tag.
t_trailers_lore_thread() {
	tr_series tr-lore
	git reset -q --hard "$TR_BASE"
	local f extra
	for f in a/x a/y b/z; do
		echo 2 >> "$f"
		extra=
		[ "$f" != a/x ] || extra=$'\nTested-by: Tim Tester <tim@example.org>\nAcked-by: Ann Maint <ann@example.org>'
		git commit -qam "$f: fix

Signed-off-by: Tess Ter <tess@example.org>$extra"
	done
	eq "the first patch carries its tags" "$(git log -1 --format=%B ':/a/x: fix' | grep -c -e Tested-by -e Acked-by)" 2
	"$SERIES" format --cover /dev/null -o "$scratch/lore" "$TR_BASE..HEAD" > /dev/null 2>&1
	local cover p2
	cover=$(sed -n 's/^Message-I[dD]: //p' "$scratch"/lore/0000-*.patch)
	p2=$(sed -n 's/^Message-I[dD]: //p' "$scratch"/lore/0002-*.patch)
	{ cat "$scratch"/lore/*.patch; cat <<M

From x Mon Sep 17 00:00:00 2001
From: Bob Maint <bob@example.org>
Subject: Re: [PATCH 2/3] a/y: fix
Message-Id: <lore-r1@example.org>
In-Reply-To: $p2
References: $cover $p2

Reviewed-by: Bob Maint <bob@example.org>
M
	} > "$scratch/lore.mbox"
	local before; before=$(git log --format=%B "$TR_BASE..HEAD")
	run trailers "$scratch/lore.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	local after; after=$(git log --format=%B "$TR_BASE..HEAD")
	eq "the review added, to its patch alone" "$(grep -c 'Reviewed-by: Bob Maint' <<<"$after")" 1
	has "to patch 2" "$(git log -1 --format=%B ':/a/y: fix')" "Reviewed-by: Bob Maint <bob@example.org>"
	eq "no Tested-by handed out" "$(grep -c 'Tested-by: Tim Tester' <<<"$after")" 1
	eq "no Acked-by handed out" "$(grep -c 'Acked-by: Ann Maint' <<<"$after")" 1
}

# A range sent split (format --split): a tag on one series' cover letter
# is for that series, as the record of the version says which letter
# each patch went under; not for the patches of the other series.
t_trailers_split_cover() {
	split_range tr-split
	git tag base-split HEAD~5
	"$SERIES" format --split route --cover "$scratch/split.cover" -o "$scratch/trs" base-split..HEAD > /dev/null 2>&1
	local cover; cover=$(sed -n 's/^Message-I[dD]: //p' "$scratch/trs/1-i2c/0000-cover-letter.patch")
	[ -n "$cover" ] && ok || bad "no Message-Id on 1-i2c's letter"
	cat > "$scratch/trs.mbox" <<M
From x Mon Sep 17 00:00:00 2001
From: Rita Rev <rita@example.org>
Subject: Re: [PATCH 0/2] i2c: drop foo()
Message-Id: <trs-r1@example.org>
In-Reply-To: $cover
References: $cover

Reviewed-by: Rita Rev <rita@example.org>
M
	run trailers "$scratch/trs.mbox" base-split..HEAD
	eq "exit" "$rc" 0
	eq "to that series' two patches alone" "$(git log --format=%B base-split..HEAD | grep -c 'Reviewed-by: Rita Rev')" 2
	local c tagged=
	for c in $(git rev-list --reverse base-split..HEAD); do
		git log -1 --format=%B "$c" | grep -q 'Reviewed-by: Rita' &&
			tagged="$tagged$(git log -1 --format=%s "$c" | cut -d: -f1);"
	done
	eq "to the i2c patches" "$tagged" "i2c;i2c;"
}

# An mbox is checked as a diff is: one cut mid-line (an interrupted
# download, the address of its last tag cut in half) or bytes with no
# mail in them is one line naming the file, exit 3, and no commit
# touched; status refuses them alike.
t_trailers_cut_mbox() {
	tr_series tr-cut
	tr_mbox > "$scratch/whole.mbox"
	local before n; before=$(snapshot)
	n=$(wc -c < "$scratch/whole.mbox")
	head -c $((n - 12)) "$scratch/whole.mbox" > "$scratch/cut.mbox"
	run trailers "$scratch/cut.mbox" "$TR_BASE..HEAD"
	eq "cut mid-line: exit" "$rc" 3
	eq "cut mid-line: one line" "$err" "series: $scratch/cut.mbox: its last mail is cut short mid-line (an interrupted download?)"
	head -c 3000 /dev/urandom | tr -d 'F' > "$scratch/noise.mbox"
	run trailers "$scratch/noise.mbox" "$TR_BASE..HEAD"
	eq "noise: exit" "$rc" 3
	eq "noise: one line" "$err" "series: $scratch/noise.mbox: no mbox: it does not start with a 'From ' line"
	: > "$scratch/empty.mbox"
	run trailers "$scratch/empty.mbox" "$TR_BASE..HEAD"
	eq "empty: exit" "$rc" 3
	has "empty: said" "$err" "empty.mbox: no mbox"
	printf 'From x\n' > "$scratch/nomail.mbox"
	run trailers "$scratch/nomail.mbox" "$TR_BASE..HEAD"
	eq "a From line alone: exit" "$rc" 3
	run trailers "$scratch/whole.mbox" "$scratch/cut.mbox" "$TR_BASE..HEAD"
	eq "a whole one and a cut one: exit" "$rc" 3
	eq "nothing changed" "$(snapshot)" "$before"
	"$SERIES" format -o "$scratch/cut-v1" "$TR_BASE..HEAD" > /dev/null 2>&1
	before=$(snapshot)
	run status --mbox "$scratch/cut.mbox"
	eq "status, cut: exit" "$rc" 3
	has "status, cut: said" "$err" "cut.mbox: its last mail is cut short mid-line"
	eq "status: nothing changed" "$(snapshot)" "$before"
	run trailers -n "$scratch/whole.mbox" "$TR_BASE..HEAD"
	eq "the whole one still reads: exit" "$rc" 0
}

# --from: a v2 whose first patch is v1's (the same patch id) and whose
# second changed.
t_trailers_from_previous() {
	tr_series tr-from
	local v1base=$TR_BASE f
	# v1: the same three patches, each reviewed by Rita
	git checkout -q -b v1t "$v1base"
	for f in a/x a/y b/z; do
		echo 2 >> "$f"
		git commit -qam "$f: fix

Signed-off-by: Tess Ter <tess@example.org>
Reviewed-by: Rita Rev <rita@example.org>"
	done
	# v2: a/x the same patch, a/y changed, b/z gone
	git checkout -q -b v2 "$v1base"
	echo 2 >> a/x; git commit -qam "a/x: fix

Signed-off-by: Tess Ter <tess@example.org>"
	echo 3 >> a/y; git commit -qam "a/y: fix

Signed-off-by: Tess Ter <tess@example.org>"
	run trailers --from "$v1base..v1t" "$v1base..HEAD"
	eq "--from: exit" "$rc" 0
	eq "--from: the same patch gets them" "$(git log -1 --format=%B HEAD~1)" "a/x: fix

Signed-off-by: Tess Ter <tess@example.org>
Reviewed-by: Rita Rev <rita@example.org>"
	eq "--from: the changed one does not" "$(git log -1 --format=%B HEAD)" "a/y: fix

Signed-off-by: Tess Ter <tess@example.org>"
	has "--from: what was not carried is said" "$err" "'Reviewed-by: Rita Rev <rita@example.org>' of "
	has "--from: ... with its subject" "$err" "(a/y: fix) is not carried: the patch changed, or is gone"
	has "--from: ... and the gone one" "$err" "(b/z: fix) is not carried"
}

# The fake git failing at every step: nothing changes, or the result is
# right; and signals mid-run.
tr_result() {
	eq "$1: the tree" "$(git rev-parse HEAD^{tree})" "$TR_TREE"
	has "$1: the tags" "$(git log -1 --format=%B HEAD)" "Acked-by: Bob Maint"
}

t_trailers_faults() {
	tr_series trf                    # for TR_BASE, before the loop
	tr_mbox > "$scratch/trf.mbox"
	each_fault tr_series trf tr_result trailers "$scratch/trf.mbox" "$TR_BASE..HEAD"
	each_signal tr_series trf commit-tree "TERM INT" trailers "$scratch/trf.mbox" "$TR_BASE..HEAD"
}

# Two commits with one subject (series makes such subjects): a reply is
# matched by its n/m, and an unnumbered one is refused, not guessed.
t_trailers_same_subject() {
	newrepo tr-same
	mkdir -p a b; echo 1 > a/x; echo 1 > b/y; commit_all
	local base; base=$(git rev-parse HEAD)
	echo 2 >> a/x; git commit -qam "gpio: drop foo()"
	echo 2 >> b/y; git commit -qam "gpio: drop foo()"
	printf 'From x\nSubject: Re: [PATCH 2/2] gpio: drop foo()\nMessage-ID: <r2@x>\n\nReviewed-by: Rita Rev <rita@example.org>\n\nFrom x\nSubject: Re: gpio: drop foo()\nMessage-ID: <r0@x>\n\nAcked-by: Ann Ack <ann@example.org>\n' > "$scratch/same.mbox"
	run trailers "$scratch/same.mbox" "$base..HEAD"
	eq "exit" "$rc" 0
	eq "patch 2 gets it" "$(git log -1 --format=%b HEAD)" "Reviewed-by: Rita Rev <rita@example.org>"
	eq "patch 1 does not" "$(git log -1 --format=%b HEAD~1)" ""
	has "the unnumbered reply is said, not guessed" "$err" "'Acked-by: Ann Ack <ann@example.org>' (from Re: gpio: drop foo()) answers one of several patches with that subject"
}

# Reply bodies are read as git mailinfo reads them: quoted-printable and
# base64 undone, Latin-1 made UTF-8, the text part of a multipart mail.
t_trailers_encoded_bodies() {
	tr_series tr-enc
	local b64; b64=$(printf 'Looks good.\n\nTested-by: Tim Board <tim@example.org>\n' | base64 -w0)
	cat > "$scratch/enc.mbox" <<M
From x
From: Jorg <j@example.org>
Subject: Re: [PATCH 1/3] a/x: fix
Message-ID: <q1@x>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: quoted-printable

Reviewed-by: J=C3=B6rg R=C3=B6del <joerg@example.org>

From x
From: Tim <tim@example.org>
Subject: Re: [PATCH 2/3] a/y: fix
Message-ID: <b2@x>
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: base64

$b64

From x
From: Lena <l@example.org>
Subject: Re: [PATCH 3/3] b/z: fix
Message-ID: <m3@x>
Content-Type: multipart/alternative; boundary="zz"

--zz
Content-Type: text/plain; charset=ISO-8859-1
Content-Transfer-Encoding: quoted-printable

Acked-by: L=E9na Lat <lena@example.org>
--zz
Content-Type: text/html

<p>Acked-by: Html Only &lt;h@example.org&gt;</p>
--zz--
M
	run trailers "$scratch/enc.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	has "quoted-printable: decoded" "$(git log -1 --format=%B HEAD~2)" "Reviewed-by: Jörg Rödel <joerg@example.org>"
	has "base64: decoded" "$(git log -1 --format=%B HEAD~1)" "Tested-by: Tim Board <tim@example.org>"
	has "multipart, Latin-1: the text part, in UTF-8" "$(git log -1 --format=%B HEAD)" "Acked-by: Léna Lat <lena@example.org>"
	lacks "not the HTML part" "$(git log -1 --format=%B HEAD)" "Html Only"
}

# A lore thread that holds v1 and v2: a review of v1's patch counts for
# the v2 commit only where the two are the same patch (git patch-id
# --stable); where the code changed, the tag is named and not added.
t_trailers_older_version() {
	tr_series tr-v1v2
	git format-patch -q --thread --cover-letter -o "$scratch/v1" "$TR_BASE..HEAD"
	# v2: patch 2's code changes, 1 and 3 stay
	git reset -q --hard "$TR_BASE"
	echo 2 >> a/x; git commit -qam 'a/x: fix

Signed-off-by: Tess Ter <tess@example.org>'
	echo 3 >> a/y; git commit -qam 'a/y: fix

Signed-off-by: Tess Ter <tess@example.org>'
	echo 2 >> b/z; git commit -qam 'b/z: fix

Signed-off-by: Tess Ter <tess@example.org>'
	git format-patch -q --thread --cover-letter -v2 -o "$scratch/v2" "$TR_BASE..HEAD"
	local id2 id3
	id2=$(sed -n 's/^Message-ID: //Ip' "$scratch"/v1/0002-*.patch)
	id3=$(sed -n 's/^Message-ID: //Ip' "$scratch"/v1/0003-*.patch)
	{
		for m in "$scratch"/v1/*.patch "$scratch"/v2/*.patch; do cat "$m"; echo; done
		printf 'From rev@x Mon Sep 17 00:00:00 2001\nFrom: Rita Rev <rita@example.org>\nSubject: Re: [PATCH 2/3] a/y: fix\nIn-Reply-To: %s\nMessage-ID: <r2@x>\n\n> code\n\nReviewed-by: Rita Rev <rita@example.org>\n\n' "$id2"
		printf 'From rev@x Mon Sep 17 00:00:00 2001\nFrom: Rita Rev <rita@example.org>\nSubject: Re: [PATCH 3/3] b/z: fix\nIn-Reply-To: %s\nMessage-ID: <r3@x>\n\n> code\n\nReviewed-by: Rita Rev <rita@example.org>\n\n' "$id3"
	} > "$scratch/lore.mbox"
	run trailers "$scratch/lore.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	eq "patch 3, the same code: given" "$(git log -1 --format=%b HEAD | grep -c 'Reviewed-by: Rita Rev')" 1
	eq "patch 2, changed since v1: not given" "$(git log -1 --format=%b HEAD~1 | grep -c 'Reviewed-by')" 0
	has "patch 2: named" "$err" "'Reviewed-by: Rita Rev <rita@example.org>' (from Re: [PATCH 2/3] a/y: fix) answers a patch whose code is not"
	eq "the tree stays" "$(git rev-parse HEAD^{tree})" "$(git rev-parse HEAD@{1}^{tree})"
}

# The same with the replies alone (what a mailing list's digest gives):
# the mail answered is v1's, which format-patch named after its commit
# (<COMMIT.SECONDS.git.ADDR>), so its patch id is that commit's.
t_trailers_older_version_replies_only() {
	tr_series tr-v1only
	git format-patch -q --thread -o "$scratch/o1" "$TR_BASE..HEAD"
	git reset -q --hard "$TR_BASE"
	echo 2 >> a/x; git commit -qam 'a/x: fix'
	echo 3 >> a/y; git commit -qam 'a/y: fix'
	echo 2 >> b/z; git commit -qam 'b/z: fix'
	local id2 id3
	id2=$(sed -n 's/^Message-ID: //Ip' "$scratch"/o1/0002-*.patch)
	id3=$(sed -n 's/^Message-ID: //Ip' "$scratch"/o1/0003-*.patch)
	{
		printf 'From rev@x Mon Sep 17 00:00:00 2001\nFrom: Rita Rev <rita@example.org>\nSubject: Re: [PATCH 2/3] a/y: fix\nIn-Reply-To: %s\nMessage-ID: <r2@x>\n\n> code\n\nReviewed-by: Rita Rev <rita@example.org>\n\n' "$id2"
		printf 'From rev@x Mon Sep 17 00:00:00 2001\nFrom: Rita Rev <rita@example.org>\nSubject: Re: [PATCH 3/3] b/z: fix\nIn-Reply-To: %s\nMessage-ID: <r3@x>\n\n> code\n\nReviewed-by: Rita Rev <rita@example.org>\n\n' "$id3"
	} > "$scratch/replies-only.mbox"
	run trailers "$scratch/replies-only.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	eq "patch 3, the same code: given" "$(git log -1 --format=%b HEAD | grep -c 'Reviewed-by: Rita Rev')" 1
	eq "patch 2, changed since v1: not given" "$(git log -1 --format=%b HEAD~1 | grep -c 'Reviewed-by')" 0
	has "patch 2: named" "$err" "'Reviewed-by: Rita Rev <rita@example.org>' (from Re: [PATCH 2/3] a/y: fix) answers a patch whose code is not"
}

# A tag on an older version's cover letter is for that version's code:
# with the replies only in the mbox, a patch unchanged since v1 gets it, a
# patch changed since does not, and is named.
t_trailers_older_version_cover() {
	tr_series tr-v1cover
	printf 'Fix things\n\nThree fixes.\n' > "$scratch/cover"
	"$SERIES" format --cover "$scratch/cover" -o "$scratch/c1" "$TR_BASE..HEAD" > /dev/null 2>&1 || bad "format v1"
	local cover1; cover1=$(sed -n 's/^Message-I[dD]: //p' "$scratch"/c1/0000-cover-letter.patch)
	# v2: a/y's patch changed, the others as they were
	git reset -q --hard "$TR_BASE"
	echo 2 >> a/x; git commit -qam 'a/x: fix'
	echo 3 >> a/y; git commit -qam 'a/y: fix'
	echo 2 >> b/z; git commit -qam 'b/z: fix'
	"$SERIES" format -v 2 --cover "$scratch/cover" -o "$scratch/c2" "$TR_BASE..HEAD" > /dev/null 2>&1 || bad "format v2"
	printf 'From rev@x Mon Sep 17 00:00:00 2001\nFrom: Ann Maint <ann@example.org>\nSubject: Re: [PATCH 0/3] Fix things\nIn-Reply-To: %s\nMessage-ID: <c1@x>\n\nFor the a part:\n\nAcked-by: Ann Maint <ann@example.org>\n\n' "$cover1" > "$scratch/v1-cover.mbox"
	run trailers "$scratch/v1-cover.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	eq "a/x, the same code: given" "$(git log -1 --format=%b HEAD~2 | grep -c 'Acked-by: Ann Maint')" 1
	eq "a/y, changed since v1: not given" "$(git log -1 --format=%b HEAD~1 | grep -c 'Acked-by')" 0
	eq "b/z, not of the a part: not given" "$(git log -1 --format=%b HEAD | grep -c 'Acked-by')" 0
	has "a/y: named" "$err" "'Acked-by: Ann Maint <ann@example.org>' (from Re: [PATCH 0/3] Fix things) answers a patch whose code is not"
}

# An ack on the cover letter goes where its giver is placed: by address,
# by .mailmap, by name (maintainers answer from other addresses); a reply
# that says what it is for ("for the b part", "for b/") is scoped by its
# words; an ack nobody can place, saying nothing of its scope, is named
# and given to no patch.  A Tested-by from anyone still goes to all.
t_trailers_cover_ack_placed() {
	tr_series tr-cover-ack
	# a .mailmap on the base, the three commits on it
	git checkout -q -b cov "$TR_BASE"
	printf 'Ann Maint <ann@example.org> <ann@work.example.com>\n' > .mailmap
	git add .mailmap; git commit -qm 'mailmap'
	git cherry-pick "$TR_BASE..main" > /dev/null || bad "cherry-pick"
	cover() { printf 'From x Mon Sep 17 00:00:00 2001\nFrom: %s\nSubject: Re: [PATCH 0/3] fix things\nMessage-ID: <%s@x>\n\n%s\n%s\n\n' "$1" "$2" "$3" "$4"; }
	{
		cover 'Ann <ann@work.example.com>' a1 'Thanks.' 'Acked-by: Ann Maint <ann@work.example.com>'
		cover 'Bob <bob@kernel.example.net>' b1 'Nice.' 'Acked-by: Bob Maint <bob@kernel.example.net>'
		cover 'Gus <gus@example.org>' g1 'For the b part:' 'Acked-by: Gus Gpio <gus@example.org>'
		cover 'Nat <nat@example.org>' n1 'Looks fine.' 'Acked-by: Nat Nobody <nat@example.org>'
		cover 'Tim <tim@example.org>' t1 'Works here.' 'Tested-by: Tim Board <tim@example.org>'
	} > "$scratch/cover-acks.mbox"
	run trailers "$scratch/cover-acks.mbox" HEAD~3..HEAD
	eq "exit" "$rc" 0
	local ax ay bz
	ax=$(git log -1 --format=%b HEAD~2); ay=$(git log -1 --format=%b HEAD~1); bz=$(git log -1 --format=%b HEAD)
	has "Ann by .mailmap: a/x" "$ax" "Acked-by: Ann Maint <ann@work.example.com>"
	has "Ann by .mailmap: a/y" "$ay" "Acked-by: Ann Maint <ann@work.example.com>"
	lacks "Ann: not b/z" "$bz" "Ann Maint"
	has "Bob by name: b/z" "$bz" "Acked-by: Bob Maint <bob@kernel.example.net>"
	lacks "Bob: not a/x" "$ax" "Bob Maint"
	has "Gus for the b part: b/z" "$bz" "Acked-by: Gus Gpio"
	lacks "Gus: not a/y" "$ay" "Gus Gpio"
	lacks "Nat, placed nowhere: not added" "$ax$ay$bz" "Nat Nobody"
	has "Nat: named" "$err" "'Acked-by: Nat Nobody <nat@example.org>' on the cover letter: an ack from someone MAINTAINERS does not place"
	has "Tim's test: every patch" "$(git log --format=%b HEAD~3..HEAD | grep -c 'Tested-by: Tim Board')" 3
	has "how Ann was placed" "$err" "(its giver maintains their files (by .mailmap))"
	has "how Bob was placed" "$err" "(its giver maintains their files (by name))"
}

# A cover-letter ack whose words name a part no patch touches ("for the
# driver changes") falls back to its giver: a maintainer found by address
# still gets it on their patches; from someone unplaced it goes nowhere.
t_trailers_cover_scope_falls_back() {
	tr_series tr-cover-fallback
	{
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Bob <bob@example.org>\nSubject: Re: [PATCH 0/3] fix things\nMessage-ID: <b@x>\n\nAll good for the driver changes.\nAcked-by: Bob Maint <bob@example.org>\n\n'
		printf 'From x Mon Sep 17 00:00:00 2001\nFrom: Nat <nat@example.org>\nSubject: Re: [PATCH 0/3] fix things\nMessage-ID: <n@x>\n\nFine for the driver changes.\nAcked-by: Nat Nobody <nat@example.org>\n\n'
	} > "$scratch/fallback.mbox"
	run trailers "$scratch/fallback.mbox" "$TR_BASE..HEAD"
	eq "exit" "$rc" 0
	has "Bob, by address: b/z" "$(git log -1 --format=%b HEAD)" "Acked-by: Bob Maint <bob@example.org>"
	lacks "Bob: not a/x" "$(git log -1 --format=%b HEAD~2)" "Bob Maint"
	lacks "Nat: nowhere" "$(git log --format=%b "$TR_BASE..HEAD")" "Nat Nobody"
	has "Nat: named" "$err" "'Acked-by: Nat Nobody <nat@example.org>' on the cover letter: the part it says it is for names no patch's files"
}
