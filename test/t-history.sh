# t-history.sh - series cc's history: --git-fallback and Fixes: signers,
# on a throwaway kernel-like git tree, against get_maintainer.pl itself
# where linux-source-6.1 provides it.

# The script, from the parity cache or the tarball; empty when absent.
gm_script() {
	local cache=${PARITY_CACHE:-$ORIG_HOME/.cache/series-parity}
	local s=$cache/linux-source-6.1/scripts/get_maintainer.pl tarball
	if [ ! -f "$s" ]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
		[ -n "$tarball" ] && command -v perl >/dev/null || return 0
		tar -C "$scratch" -xf "$tarball" linux-source-6.1/scripts/get_maintainer.pl 2>/dev/null
		s=$scratch/linux-source-6.1/scripts/get_maintainer.pl
	fi
	[ -f "$s" ] && command -v perl >/dev/null && echo "$s"
}

# Says that the calling test is skipped for want of the script.
skip_no_script() {
	echo "${FUNCNAME[1]}: SKIPPED: needs linux-source-6.1 and perl"
}

# commit AUTHOR MESSAGE: commits all changes as AUTHOR ("Name <mail>").
hcommit() {
	local name=${1% <*} mail=${1#*<}
	mail=${mail%>}
	git add -A
	GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$mail GIT_COMMITTER_NAME=$name \
		GIT_COMMITTER_EMAIL=$mail git commit -q -m "$2"
}

# A kernel-like top (the script checks for these) with a year of history.
histtree() {
	H_TREE=$scratch/histtree
	# The script reads --since=1-year-ago: the history is a month old
	# whenever the test runs, so the answer never changes with the clock.
	local when="@$(( $(date +%s) - 30 * 86400 )) +0000"
	export GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when
	rm -rf "$H_TREE"; mkdir -p "$H_TREE"; cd "$H_TREE" || exit 1
	git init -q .
	mkdir -p Documentation arch include fs init ipc kernel lib scripts \
		drivers/bar drivers/odd drivers/foo
	touch COPYING CREDITS Kbuild Makefile README
	cat > MAINTAINERS <<'M'
THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/

FOO DRIVER
M:	Foo Maint <foo@example.org>
L:	foo-list@example.org
S:	Maintained
F:	drivers/foo/

ODD DRIVER
R:	Odd Reviewer <oddrev@example.org>
S:	Odd Fixes
F:	drivers/odd/
M
	printf 'New Name <new@example.org> Old Name <old@example.org>\n' > .mailmap
	printf 'Alan Cox <alan@lxorguk.ukuu.org.uk>\n' > .get_maintainer.ignore
	printf 'int bar;\n' > drivers/bar/bar.c
	printf 'int odd;\n' > drivers/odd/odd.c
	printf 'int foo;\n' > drivers/foo/foo.c
	hcommit "Base Init <base@example.org>" "init

Signed-off-by: Base Init <base@example.org>"
	printf 'int a1;\nint a2;\nint a3;\n' >> drivers/bar/bar.c
	hcommit "Ann A <ann@example.org>" "bar: more

Signed-off-by: Ann A <ann@example.org>
Reviewed-by: Rev B <revb@example.org>"
	sed -i 's/int a1;/int a1x;/' drivers/bar/bar.c
	printf 'int a4;\n' >> drivers/bar/bar.c
	hcommit "Ann A <ann@example.org>" "bar: again

Signed-off-by: Ann A <ann@example.org>
Acked-by: Old Name <old@example.org>"
	printf 'int b1;\n' >> drivers/bar/bar.c
	hcommit "Bob B <bob@example.org>" "bar: bob

Signed-off-by: Bob B <bob@example.org>
Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>
Signed-off-by: Alan Cox <alan@lxorguk.ukuu.org.uk>"
	printf 'int c1;\n' >> drivers/odd/odd.c
	hcommit "Cat C <cat@example.org>" "odd: the bug

Signed-off-by: Cat C <cat@example.org>
Reviewed-by: Fix Rev <fixrev@example.org>"
	H_FIXED=$(git rev-parse --short=12 HEAD)
	printf 'int d1;\n' >> drivers/foo/foo.c
	hcommit "Dan D <dan@example.org>" "foo: dan

Signed-off-by: Dan D <dan@example.org>"
	# a file whose signers all differ in count: the script's order is stable
	mkdir -p drivers/tf
	printf 'int t1;\n' > drivers/tf/tf.c
	hcommit "Xa X <xa@example.org>" "tf: new

Signed-off-by: Xa X <xa@example.org>
Reviewed-by: Yb Y <yb@example.org>
Acked-by: Zc Z <zc@example.org>"
	printf 'int t2;\n' >> drivers/tf/tf.c
	hcommit "Xa X <xa@example.org>" "tf: two

Signed-off-by: Xa X <xa@example.org>
Reviewed-by: Yb Y <yb@example.org>"
	printf 'int t3;\n' >> drivers/tf/tf.c
	hcommit "Xa X <xa@example.org>" "tf: three

Signed-off-by: Xa X <xa@example.org>"
	mkdir -p p
	mkpatch p/0001-x.patch "Fixes: $H_FIXED (\"odd: the bug\")

Signed-off-by: A <a@example.org>" drivers/bar/bar.c drivers/odd/odd.c drivers/foo/foo.c
}

t_cc_history() {
	histtree
	run cc p/0001-x.patch
	eq "default: maintainers, lists and the fixed commit's signers" "$out" \
"Foo Maint <foo@example.org>
Odd Reviewer <oddrev@example.org>
Cat C <cat@example.org>
Fix Rev <fixrev@example.org>
linux-kernel@vger.kernel.org
foo-list@example.org"
	run cc --no-fixes p/0001-x.patch
	lacks "--no-fixes" "$out" "cat@example.org"
	run cc --git-fallback --roles p/0001-x.patch
	eq "rc" "$rc" 0
	# bar.c: no section maintains it (THE REST is no M: for it after
	# Linus goes); 4 commits, Ann signed 2; Linus and the ignored address
	# are dropped; Old Name is mapped by .mailmap
	has "signers with counts" "$out" "Ann A <ann@example.org> (commit_signer:2/4=50%,authored:2/4=50%,added_lines:5/7=71%,removed_lines:1/1=100%)"
	has "reviewers count" "$out" "Rev B <revb@example.org> (commit_signer:1/4=25%)"
	has "mailmapped signer" "$out" "New Name <new@example.org> (commit_signer:1/4=25%)"
	lacks "Linus is never added" "$out" "torvalds"
	lacks "ignored address" "$out" "alan@"
	has "odd.c: Odd Fixes is not maintained, so its history too" "$out" "Cat C <cat@example.org> (commit_signer:1/2=50%,authored:1/2=50%,added_lines:1/2=50%,blamed_fixes:1/1=100%)"
	lacks "foo.c is maintained exactly: no history" "$out" "dan@example.org"
	# outside a git work tree there is no history, as in the script
	rm -rf .git
	run cc --git-fallback p/0001-x.patch
	eq "no .git: maintainers only" "$rc $(grep -c example.org <<<"$out")" "0 3"
}

# The same tree, series against the script: same recipients, and the same
# lines in order where the script's order is stable (no ties).
t_cc_history_vs_script() {
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	histtree
	cp "$gm" scripts/get_maintainer.pl
	local args mine theirs
	for args in "--no-git-fallback" "--git-fallback" "--git-fallback --rolestats" \
		    "--git-fallback --no-fixes" "--git-fallback --no-m"; do
		case $args in *rolestats*) ;; *) args="--no-rolestats $args";; esac
		theirs=$(perl scripts/get_maintainer.pl $args p/0001-x.patch 2>/dev/null | LC_ALL=C sort)
		mine=$("$SERIES" cc ${args/--rolestats/--roles} p/0001-x.patch | LC_ALL=C sort)
		eq "as get_maintainer.pl $args" "$mine" "$theirs"
	done
	for args in "--no-rolestats" "--rolestats"; do
		theirs=$(perl scripts/get_maintainer.pl $args --git-fallback -f drivers/tf/tf.c 2>/dev/null)
		mine=$("$SERIES" cc ${args/rolestats/roles} --git-fallback -f drivers/tf/tf.c)
		eq "in the script's order: $args" "$mine" "$theirs"
	done
}

# A cut inside a tie: six reviewers of one file, two with 2 sign-offs and
# four with 1 (Xen's lib.h before its printk_ratelimit patch).  The script
# keeps 5 and picks among the four by Perl's hash order, differently per
# run; series keeps the tie whole, so it names everyone any run can.
t_cc_history_tie_at_the_cut() {
	histtree
	mkdir -p drivers/lib
	printf 'int l;\n' > drivers/lib/lib.h
	hcommit "Andy C <andy@example.org>" "lib: one

Signed-off-by: Andy C <andy@example.org>
Acked-by: Jan B <jan@example.org>
Acked-by: Mic O <mic@example.org>"
	printf 'int m;\n' >> drivers/lib/lib.h
	hcommit "Andy C <andy@example.org>" "lib: two

Signed-off-by: Andy C <andy@example.org>
Reviewed-by: Ale V <ale@example.org>
Reviewed-by: Ole K <ole@example.org>
Acked-by: Jan B <jan@example.org>
Acked-by: Ber M <ber@example.org>"
	run cc --git-fallback --roles -f drivers/lib/lib.h
	eq "the tie kept whole" "$(grep commit_signer <<<"$out")" "Andy C <andy@example.org> (commit_signer:2/2=100%,authored:2/2=100%,added_lines:2/2=100%)
Jan B <jan@example.org> (commit_signer:2/2=100%)
Ale V <ale@example.org> (commit_signer:1/2=50%)
Ber M <ber@example.org> (commit_signer:1/2=50%)
Mic O <mic@example.org> (commit_signer:1/2=50%)
Ole K <ole@example.org> (commit_signer:1/2=50%)"
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	cp "$gm" scripts/get_maintainer.pl
	local seed theirs mine missing=
	mine=$("$SERIES" cc --git-fallback -f drivers/lib/lib.h)
	for seed in 0 1 2 3 4 5 6 7; do
		theirs=$(PERL_HASH_SEED=$seed perl scripts/get_maintainer.pl --no-rolestats --git-fallback -f drivers/lib/lib.h 2>/dev/null)
		missing+=$(LC_ALL=C comm -23 <(LC_ALL=C sort <<<"$theirs") <(LC_ALL=C sort <<<"$mine"))
	done
	eq "no one any run of the script names is left out" "$missing" ""
}

# A U-Boot-like tree, against the script with the same files: its
# .get_maintainer.conf (--find-maintainer-files; --git cut at 2 people,
# 15% and six months; --maintainer-path=.), a board's MAINTAINERS below
# the top and a directory's own one (U-Boot's drivers/net/MAINTAINERS,
# which once made that directory the tree's top and every answer empty),
# an N: line with look-behind (U-Boot's "(?<!uni)versal", which once
# stopped every command), and the script's own chief penguin, whose
# sign-offs are no one's recipients.
t_cc_uboot_like_vs_script() {
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	histtree
	sed 's/^push(@penguin_chief, "Linus Torvalds:torvalds\\@linux-foundation.org");/push(@penguin_chief, "Tom RINI:trini\\@example.org");/' \
		"$gm" > scripts/get_maintainer.pl
	eq "the chief replaced" "$(grep -c '^push(@penguin_chief, "Tom RINI' scripts/get_maintainer.pl)" 1
	mkdir -p board/acme drivers/net arch/arm/mach-versal
	printf 'ACME BOARD\nM:\tAce Me <ace@example.org>\nS:\tMaintained\nF:\tboard/acme/\n' > board/acme/MAINTAINERS
	printf 'NET HERE\nM:\tNet Here <neth@example.org>\nS:\tMaintained\nF:\tdrivers/net/\n' > drivers/net/MAINTAINERS
	printf '\nARM VERSAL\nM:\tVer Sal <versal@example.org>\nS:\tMaintained\nN:\t(?<!uni)versal\n' >> MAINTAINERS
	printf -- '--find-maintainer-files\n--git\n--git-min-percent 15\n--git-since 6-months-ago\n--git-max-maintainers 2\n--maintainer-path=.\n' > .get_maintainer.conf
	local f i who
	for f in board/acme/acme.c drivers/net/eth.c arch/arm/mach-versal/cpu.c arch/arm/universal.c; do
		echo "int x;" > "$f"
	done
	hcommit "Tom Rini <trini@example.org>" "base

Signed-off-by: Tom Rini <trini@example.org>"
	# signers of acme.c by count 4, 3, 2, 1 (Tom's own not counted)
	for who in "Ann A <ann@example.org>:4" "Bob B <bob@example.org>:3" \
		   "Cat C <cat@example.org>:2" "Dan D <dan@example.org>:1"; do
		for i in $(seq "${who##*:}"); do
			echo "int ${who:0:1}$i;" >> board/acme/acme.c
			echo "int ${who:0:1}$i;" >> drivers/net/eth.c
			hcommit "${who%:*}" "acme: ${who:0:3} $i

Signed-off-by: ${who%:*}
Signed-off-by: Tom Rini <trini@example.org>"
		done
	done
	local mine theirs
	for f in board/acme/acme.c drivers/net/eth.c arch/arm/mach-versal/cpu.c arch/arm/universal.c; do
		theirs=$(perl scripts/get_maintainer.pl --rolestats -f "$f" 2>&1)
		mine=$("$SERIES" cc --roles -f "$f" 2>&1)
		eq "as the script: $f" "$mine" "$theirs"
	done
	has "a board's MAINTAINERS read" "$mine$("$SERIES" cc -f board/acme/acme.c)" "ace@example.org"
	lacks "the chief's sign-offs count for no one" "$("$SERIES" cc -f board/acme/acme.c)" "trini@"
	cd drivers/net || return
	eq "from below, the same top" "$("$SERIES" cc -f eth.c)" "$(cd ../.. && "$SERIES" cc -f drivers/net/eth.c)"
	cd "$H_TREE" || return
	eq "--maintainers FILE: that file alone" "$("$SERIES" cc --maintainers MAINTAINERS -f board/acme/acme.c | grep -c ace@)" 0
	printf -- '--git-min-percent\n' > .get_maintainer.conf
	run cc -f drivers/net/eth.c
	has "a value missing: a warning" "$err" "--git-min-percent: bad value ''; ignored"
	printf -- '--find-maintainer-files\n' > .get_maintainer.conf
	printf 'K:\t(?<=x+)y\n' >> board/acme/MAINTAINERS
	echo "int xy;" >> board/acme/acme.c
	run cc -f board/acme/acme.c
	eq "a board's bad pattern: exit" "$rc" 3
	has "named by its own file and line" "$err" "board/acme/MAINTAINERS:5: K: (?<=x+)y: "
}

# cc of many files with --git reads a few joint logs, not one git log
# --follow per file: each file's signers, authors and line counts must
# still be those the script's own per-file log gives, where history is
# not a line: a commit on a branch whose change the merge dropped (-s
# ours; --follow shows it, a pruned joint log would not), a file renamed
# and changed (its own log follows the old name), one copied from a file
# the same commit only changed (--follow finds copies in the whole tree),
# a path git quotes, and a directory (-f DIR: all below it), whose own
# file is named by no other.  The files
# are older than the year the logs read, as most are.  (The script
# cannot log a path with a space or a glob's bytes, its git running
# through a shell: a glob-named file is checked against our own log of
# it alone, which is git's answer to that pathspec.)
t_cc_joint_logs_vs_script() {
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	histtree
	cp "$gm" scripts/get_maintainer.pl
	local q f
	q="drivers/foo/caf$(printf '\303\251').c"
	mkdir -p drivers/foo/sub
	printf 'int q;\n' > "$q"
	seq 1 40 | sed 's/^/int old_/; s/$/;/' > drivers/foo/old.c
	seq 1 40 | sed 's/^/int src_/; s/$/;/' > drivers/foo/src.c
	mkdir -p drivers/baz
	printf 'int z;\n' > drivers/baz/baz.c
	printf 'int g;\n' > 'drivers/foo/g[1].c'
	printf 'int g1;\n' > drivers/foo/g1.c
	# a new root, two years old, so that the files predate the window
	local old="@$(( $(date +%s) - 730 * 86400 )) +0000"
	git checkout -q --orphan jt
	GIT_AUTHOR_DATE=$old GIT_COMMITTER_DATE=$old hcommit "Old O <old2@example.org>" "all

Signed-off-by: Old O <old2@example.org>"
	echo "int a;" >> drivers/foo/old.c
	hcommit "Ann A <ann@example.org>" "foo: old

Signed-off-by: Ann A <ann@example.org>"
	git checkout -q -b side
	echo "int side;" >> drivers/bar/bar.c
	hcommit "Sid E <side@example.org>" "bar: side

Signed-off-by: Sid E <side@example.org>"
	git checkout -q jt
	echo "int main_;" >> drivers/foo/foo.c
	hcommit "Bob B <bob@example.org>" "foo: main

Signed-off-by: Bob B <bob@example.org>"
	git merge -q -s ours --no-edit side
	git mv drivers/foo/old.c drivers/foo/sub/new.c
	echo "int moved;" >> drivers/foo/sub/new.c
	cp drivers/foo/src.c drivers/foo/copy.c
	echo "int changed;" >> drivers/foo/src.c
	echo "int q2;" >> "$q"
	hcommit "Cat C <cat@example.org>" "foo: move, copy

Signed-off-by: Cat C <cat@example.org>
Signed-off-by: Bob B <bob@example.org>"
	echo "int z2;" >> drivers/baz/baz.c
	echo "int g2;" >> drivers/foo/g1.c
	hcommit "Zed Z <zed@example.org>" "baz, g1

Signed-off-by: Zed Z <zed@example.org>"
	local files=() margs=()
	for f in drivers/bar/bar.c drivers/foo/foo.c drivers/foo/sub/new.c \
		 drivers/foo/copy.c drivers/foo/src.c "$q" drivers/odd/odd.c \
		 drivers/baz; do
		files+=("$f"); margs+=(-f "$f")
	done
	# no cut inside a tie (series keeps a tie whole), and ties in the
	# script's hash order: each answer's lines sorted
	local mine theirs g=(--git --git-max-maintainers 20)
	theirs=$(perl scripts/get_maintainer.pl "${g[@]}" --rolestats "${margs[@]}" 2>&1 | LC_ALL=C sort)
	mine=$("$SERIES" cc "${g[@]}" --roles -f "${files[@]}" 2>&1 | LC_ALL=C sort)
	eq "joint logs: as the script, file by file" "$mine" "$theirs"
	has "joint logs: the dropped side's signer counts" "$mine" "side@example.org"
	has "joint logs: the renamed file's old name followed" \
		"$("$SERIES" cc "${g[@]}" --roles -f drivers/foo/sub/new.c drivers/odd/odd.c)" \
		"Ann A <ann@example.org> (commit_signer:1/2=50%,authored:1/2=50%"
	eq "joint logs: a glob's name, as its own log" \
		"$("$SERIES" cc "${g[@]}" --roles -f 'drivers/foo/g[1].c' drivers/odd/odd.c | grep -c zed@)" \
		"$("$SERIES" cc "${g[@]}" --roles -f 'drivers/foo/g[1].c' | grep -c zed@)"
	for f in "${files[@]}"; do
		eq "joint logs: as the script: $f" \
			"$("$SERIES" cc "${g[@]}" --roles -f "$f" 2>&1 | LC_ALL=C sort)" \
			"$(perl scripts/get_maintainer.pl "${g[@]}" --rolestats -f "$f" 2>&1 | LC_ALL=C sort)"
	done
}
