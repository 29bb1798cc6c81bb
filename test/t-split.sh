# t-split.sh - series split: a unified diff in, a format-patch series (or
# commits) out.  The rule every test checks: the mails, applied with git am
# onto the tree the diff was made against, give the tree that applying the
# whole diff gives; and every file's diff is in exactly one mail.

# split_base: a repository with files in three directories, committed.
split_base() {
	newrepo "$1"
	mkdir -p drivers/a drivers/b/c sound
	local i
	for i in 1 2 3 4 5 6 7 8; do echo "line $i"; done > drivers/a/x.c
	cp drivers/a/x.c drivers/a/y.c
	cp drivers/a/x.c drivers/b/c/z.c
	cp drivers/a/x.c sound/s.c
	cp drivers/a/x.c "sound/sp ace.c"
	printf 'old\n' > gone.txt
	printf '#!/bin/sh\n' > run.sh
	printf '\0\1\2bin' > blob.bin
	commit_all
}

# tree_of_diff DIFF [APPLY-OPTS...]: the tree that applying the whole diff
# to HEAD gives, without touching the work tree.
tree_of_diff() {
	local d=$1; shift
	rm -f "$scratch/idx"
	GIT_INDEX_FILE=$scratch/idx git read-tree HEAD &&
	GIT_INDEX_FILE=$scratch/idx git apply --cached "$@" "$d" &&
	GIT_INDEX_FILE=$scratch/idx git write-tree
}

# tree_of_mails DIR [AM-OPTS...]: the tree after git am of DIR's patches
# (not the cover letter) on a new branch from HEAD; back on main after.
tree_of_mails() {
	local dir=$1; shift
	git checkout -q -b am-test HEAD &&
	git am -q "$@" $(ls "$dir"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-cover-letter.patch) &&
	git rev-parse HEAD^{tree}
	git am --abort 2>/dev/null
	git checkout -q main && git branch -q -D am-test
}

# each_file_once DIFF DIR: every file section of DIFF (from a diff line or
# a ---/+++ pair up to the next) is in exactly one mail of DIR, byte for byte.
each_file_once() {
	local d=$1 dir=$2 n=0 bad_n=0 f
	rm -rf "$scratch/sec"; mkdir "$scratch/sec"
	awk -v out="$scratch/sec" '
		/^diff / { n++; f = sprintf("%s/%05d", out, n) }
		/^--- / && prev !~ /^diff / && prev !~ /^(index|new file|deleted file|old mode|new mode|similarity|rename|copy) / { n++; f = sprintf("%s/%05d", out, n) }
		{ if (f) print > f; prev = $0 }' "$d"
	for f in "$scratch"/sec/*; do
		n=$((n + 1))
		local hits=0 m
		for m in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
			grep -qF -f /dev/null "$m"
			if python3 - "$f" "$m" <<'PY'
import sys
sec=open(sys.argv[1],'rb').read(); m=open(sys.argv[2],'rb').read()
sys.exit(0 if m.count(sec)==1 else 1)
PY
			then hits=$((hits + 1)); fi
		done
		[ "$hits" -eq 1 ] || bad_n=$((bad_n + 1))
	done
	eq "each of the $n file diffs in exactly one mail" "$bad_n" 0
}

t_split_git_diff() {
	split_base split-git
	sed -i 's/line 3/LINE 3/' drivers/a/x.c drivers/b/c/z.c "sound/sp ace.c"
	sed -i 's/line 8/LINE 8/' drivers/a/y.c
	git mv sound/s.c sound/renamed.c
	chmod +x run.sh
	git rm -q gone.txt
	printf 'new file\n' > drivers/b/new.c
	printf '\3\4bin2' > blob.bin
	printf 'q\n' > 'drivers/a/"q".c'
	git add -A
	git diff --cached -M --binary > "$scratch/git.diff"
	git reset -q --hard
	local want; want=$(tree_of_diff "$scratch/git.diff")
	[ -n "$want" ] || bad "the whole diff applies"
	run split -m 'SEDME: change things' -o "$scratch/m-git" "$scratch/git.diff"
	eq "split exit" "$rc" 0
	eq "split: nothing on stderr" "$err" ""
	eq "the files it wrote, in order" "$(sed "s|$scratch/||" <<<"$out")" \
"m-git/0000-cover-letter.patch
m-git/0001-.-change-things.patch
m-git/0002-drivers-a-change-things.patch
m-git/0003-drivers-b-change-things.patch
m-git/0004-drivers-b-c-change-things.patch
m-git/0005-sound-change-things.patch"
	eq "git am of the mails gives the whole diff's tree" "$(tree_of_mails "$scratch/m-git")" "$want"
	each_file_once "$scratch/git.diff" "$scratch/m-git"
	local m=$scratch/m-git/0005-sound-change-things.patch
	has "format-patch's first line" "$(head -n 1 "$m")" "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	has "the author" "$(cat "$m")" "From: Tess Ter <tess@example.org>"
	has "the subject, numbered" "$(cat "$m")" "Subject: [PATCH 5/5] sound: change things"
	has "a rename in the diffstat" "$(cat "$m")" " sound/s.c => sound/renamed.c"
	has "the signature" "$(tail -n 3 "$m")" "-- "
	m=$scratch/m-git/0001-.-change-things.patch
	has "the top group: a deletion in the summary" "$(cat "$m")" " delete mode 100644 gone.txt"
	has "a mode change in the summary" "$(cat "$m")" " mode change 100644 => 100755 run.sh"
	has "a binary file in the diffstat" "$(cat "$m")" " blob.bin | Bin"
	m=$scratch/m-git/0000-cover-letter.patch
	has "the cover: git's placeholders" "$(cat "$m")" "Subject: [PATCH 0/5] *** SUBJECT HERE ***"
	has "the cover: the shortlog" "$(cat "$m")" "Tess Ter (5):
  .: change things
  drivers/a: change things"
	has "the cover: the whole diffstat" "$(cat "$m")" " 10 files changed, 6 insertions(+), 5 deletions(-)"
	# the same with -s and per file
	run split --by file -s -m 'SEDME: one' -o "$scratch/m-file" "$scratch/git.diff"
	eq "per file: exit" "$rc" 0
	eq "per file: one mail a file, and the cover" "$(wc -l <<<"$out")" 11
	has "-s: the sign-off" "$(cat "$scratch/m-file/0002-drivers-a-q-.c-one.patch" 2>/dev/null || cat "$scratch"/m-file/0002-*)" "Signed-off-by: Tess Ter <tess@example.org>"
	eq "per file: git am gives the same tree" "$(tree_of_mails "$scratch/m-file")" "$want"
	# stdin, and one group: no cover, [PATCH]
	run split --by tree -m 'treewide: all' -o "$scratch/m-one" - < "$scratch/git.diff"
	eq "one group from stdin" "$(sed "s|$scratch/||" <<<"$out")" "m-one/0001-treewide-all.patch"
	has "a lone patch: [PATCH]" "$(cat "$scratch/m-one/0001-treewide-all.patch")" "Subject: [PATCH] treewide: all"
	eq "one patch: the same tree" "$(tree_of_mails "$scratch/m-one")" "$want"
}

# diff -ruN between two copies of the tree, in both layouts.
t_split_diff_ruN() {
	split_base split-ruN
	rm -rf "$scratch/old" "$scratch/new"
	mkdir "$scratch/old" "$scratch/new"
	git archive HEAD | tar -x -C "$scratch/old"
	git archive HEAD | tar -x -C "$scratch/new"
	sed -i 's/line 2/LINE 2/' "$scratch"/new/drivers/a/*.c "$scratch/new/sound/s.c"
	printf 'added\n' > "$scratch/new/drivers/b/c/added.c"
	rm "$scratch/new/gone.txt" "$scratch/new/blob.bin"
	(cd "$scratch" && diff -ruN old new) > "$scratch/ruN.diff"
	local want; want=$(tree_of_diff "$scratch/ruN.diff")
	[ -n "$want" ] || bad "the -ruN diff applies"
	run split -m 'SEDME: x' -o "$scratch/m-ruN" "$scratch/ruN.diff"
	eq "-ruN: exit" "$rc" 0
	has "-ruN: a binary file it cannot carry is said" "$err" "Binary files old/blob.bin and new/blob.bin differ: the diff holds no change for it, so no mail will"
	eq "-ruN: groups by the paths after old/ and new/" "$(sed "s|$scratch/m-ruN/||" <<<"$out")" \
"0000-cover-letter.patch
0001-.-x.patch
0002-drivers-a-x.patch
0003-drivers-b-c-x.patch
0004-sound-x.patch"
	eq "-ruN: git am gives the same tree" "$(tree_of_mails "$scratch/m-ruN")" "$want"
	each_file_once "$scratch/ruN.diff" "$scratch/m-ruN"
	# absolute paths: /tmp/a/... and /tmp/b/...: the header lines are
	# rewritten for git am, the hunks kept
	(cd / && diff -ruN "$scratch/old" "$scratch/new") > "$scratch/abs.diff"
	run split -m 'SEDME: x' -o "$scratch/m-abs" "$scratch/abs.diff"
	eq "absolute: the same groups" "$(sed "s|$scratch/m-abs/||" <<<"$out")" "$(sed "s|$scratch/m-ruN/||" <<<"$(ls -1 "$scratch"/m-ruN/* | sed "s|$scratch/m-ruN/||")")"
	eq "absolute: git am gives the same tree" "$(tree_of_mails "$scratch/m-abs")" "$want"
	lacks "absolute: no tmp path left in a header" "$(grep -h '^+++ ' "$scratch"/m-abs/*)" "$scratch"
	# -p overrides what is found, as patch -pN: too few components is an error
	run split -p 2 -m 'SEDME: x' -o "$scratch/m-p2" "$scratch/ruN.diff"
	eq "-p 2: exit 3" "$rc" 3
	has "-p 2: the file named" "$err" "old/gone.txt: fewer than 2 leading components to strip"
	printf -- '--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n' > "$scratch/p2.diff"
	run split -p1 --directory drivers -m 'SEDME: x' -o "$scratch/m-p2" "$scratch/p2.diff"
	eq "-p1 --directory: the path" "$(sed "s|$scratch/m-p2/||" <<<"$out")" "0001-drivers-x.patch"
	has "-p1 --directory: in the diffstat" "$(cat "$scratch/m-p2/0001-drivers-x.patch")" " drivers/x.c | 2 +-"
}

# The three header shapes of spatch (Coccinelle) over files the test writes.
t_split_spatch() {
	if ! command -v spatch >/dev/null; then
		echo "SKIPPED t_split_spatch: spatch (coccinelle) is not installed"
		return
	fi
	newrepo split-cocci
	mkdir -p drivers/i2c drivers/gpio drivers/gpio/sub
	local f
	for f in drivers/i2c/a.c drivers/i2c/b.c drivers/gpio/c.c drivers/gpio/sub/d.c; do
		cat > "$f" <<-EOF
		static const struct of_device_id m[] = { { .compatible = "v,$f" }, {} };
		static struct platform_driver d = {
			.driver = {
				.name = "$f",
				.of_match_table = of_match_ptr(m),
			},
		};
		EOF
	done
	commit_all
	printf '@@\nexpression e;\n@@\n- of_match_ptr(e)\n+ e\n' > "$scratch/omp.cocci"
	# 1. --patch DIR, as make coccicheck MODE=patch
	spatch --very-quiet --sp-file "$scratch/omp.cocci" --patch . drivers > "$scratch/c1.diff" 2>/dev/null
	local want; want=$(tree_of_diff "$scratch/c1.diff")
	[ -n "$want" ] || bad "spatch --patch: the diff applies"
	run split -m 'SEDME: drop of_match_ptr()' -o "$scratch/c1" "$scratch/c1.diff"
	eq "--patch: exit" "$rc" 0
	eq "--patch: a mail per directory" "$(sed "s|$scratch/c1/||" <<<"$out")" \
"0000-cover-letter.patch
0001-drivers-gpio-drop-of_match_ptr.patch
0002-drivers-gpio-sub-drop-of_match_ptr.patch
0003-drivers-i2c-drop-of_match_ptr.patch"
	eq "--patch: git am gives the tree" "$(tree_of_mails "$scratch/c1")" "$want"
	each_file_once "$scratch/c1.diff" "$scratch/c1"
	# 2. --dir D: paths relative to D; --directory puts D back
	(cd drivers && spatch --very-quiet --sp-file "$scratch/omp.cocci" --dir gpio) > "$scratch/c2.diff" 2>/dev/null
	run split --directory drivers/gpio -m 'SEDME: drop' -o "$scratch/c2" "$scratch/c2.diff"
	eq "--dir: groups under drivers/gpio" "$(sed "s|$scratch/c2/||" <<<"$out")" \
"0000-cover-letter.patch
0001-drivers-gpio-drop.patch
0002-drivers-gpio-sub-drop.patch"
	eq "--dir: git am gives what git apply --directory gives" "$(tree_of_mails "$scratch/c2")" \
		"$(tree_of_diff "$scratch/c2.diff" --directory=drivers/gpio)"
	# 3. bare files: --- PATH, +++ /tmp/cocci-output-...
	spatch --very-quiet --sp-file "$scratch/omp.cocci" drivers/i2c/a.c drivers/gpio/c.c > "$scratch/c3.diff" 2>/dev/null
	has "bare: spatch names a temporary file" "$(cat "$scratch/c3.diff")" "+++ /tmp/cocci-output-"
	run split -m 'SEDME: drop' -o "$scratch/c3" "$scratch/c3.diff"
	eq "bare: the path is the --- side's" "$(sed "s|$scratch/c3/||" <<<"$out")" \
"0000-cover-letter.patch
0001-drivers-gpio-drop.patch
0002-drivers-i2c-drop.patch"
	local both; both=$(cd "$scratch" && patch -s -p0 -d "$R" --dry-run < c3.diff && echo ok)
	eq "bare: patch -p0 takes it" "$both" ok
	git checkout -q -b bare-want && patch -s -p0 < "$scratch/c3.diff" && git add -A && git commit -qm w
	want=$(git rev-parse HEAD^{tree}); git checkout -q main; git branch -q -D bare-want
	eq "bare: git am gives patch's tree" "$(tree_of_mails "$scratch/c3")" "$want"
	# 4. bare files made in a subdirectory, split there: where patch -p0
	# puts them, there
	(cd drivers/i2c && spatch --very-quiet --sp-file "$scratch/omp.cocci" a.c b.c) > "$scratch/c4.diff" 2>/dev/null
	has "sub: spatch names the file as it stands there" "$(cat "$scratch/c4.diff")" "--- a.c"
	cd drivers/i2c
	run split -m 'SEDME: drop' -o "$scratch/c4" "$scratch/c4.diff"
	cd "$R"
	eq "sub: exit" "$rc" 0
	eq "sub: the subdirectory's group" "$(sed "s|$scratch/c4/||" <<<"$out")" "0001-drivers-i2c-drop.patch"
	git checkout -q -b sub-want && (cd drivers/i2c && patch -s -p0 < "$scratch/c4.diff") && git add -A && git commit -qm w
	want=$(git rev-parse HEAD^{tree}); git checkout -q main; git branch -q -D sub-want
	eq "sub: git am gives patch's tree" "$(tree_of_mails "$scratch/c4")" "$want"
}

t_split_mail_format() {
	split_base split-fmt
	sed -i 's/line 1/LINE 1/' drivers/a/x.c
	git diff > "$scratch/one.diff"; git checkout -q .
	GIT_AUTHOR_DATE='@1700000000 +0130' run split -m 'SEDME: ünïcode subject that is long enough to need folding at seventy-eight columns' \
		--author 'Jöhn Q. Doe, Jr <j@example.org>' -o "$scratch/fmt" "$scratch/one.diff"
	eq "fmt: exit" "$rc" 0
	local m; m=$(cat "$scratch"/fmt/0001-*.patch)
	has "a non-ASCII name is encoded" "$m" "From: =?UTF-8?q?"
	has "the date from GIT_AUTHOR_DATE" "$m" "Date: Tue, 14 Nov 2023 23:43:20 +0130"
	has "the subject is encoded" "$m" "Subject: =?UTF-8?q?"
	has "MIME headers for 8-bit text" "$m" "Content-Type: text/plain; charset=UTF-8"
	local long; long=$(awk '/^$/ { exit } length($0) > 78' <<<"$m")
	eq "no header line longer than 78" "$long" ""
	git checkout -q -b fmt-am
	git am -q "$scratch"/fmt/0001-*.patch
	eq "git am reads the author back" "$(git log -1 --format=%an%n%ae)" "Jöhn Q. Doe, Jr
j@example.org"
	eq "git am reads the subject back" "$(git log -1 --format=%s)" "drivers/a: ünïcode subject that is long enough to need folding at seventy-eight columns"
	git checkout -q main
	# a name with a comma, in ASCII: quoted
	run split -m 'SEDME: x' --author 'Doe, Jane <jd@example.org>' -o "$scratch/fmt2" "$scratch/one.diff"
	has "a comma: the name is quoted" "$(cat "$scratch"/fmt2/0001-*)" 'From: "Doe, Jane" <jd@example.org>'
	# CRLF and no newline at the end: kept byte for byte
	printf 'diff --git a/w.txt b/w.txt\r\nnew file mode 100644\r\n--- /dev/null\r\n+++ b/w.txt\r\n@@ -0,0 +1,2 @@\r\n+one\r\n+two\n\\ No newline at end of file\n' > "$scratch/crlf.diff"
	run split -m 'SEDME: crlf' -o "$scratch/crlf" "$scratch/crlf.diff"
	eq "CRLF: exit" "$rc" 0
	each_file_once "$scratch/crlf.diff" "$scratch/crlf"
	eq "CRLF: the path has no CR" "$(grep -c 'w.txt |' "$scratch"/crlf/0001-*)" 1
}

# Without GIT_AUTHOR_DATE the mails are dated now in git's zone (TZ), as
# format-patch dates them, whether or not git knows who the user is.
t_split_dates_in_gits_zone() {
	split_base split-zone
	sed -i 's/line 1/LINE 1/' drivers/a/x.c
	git diff > "$scratch/zone.diff"; git checkout -q .
	out=$(env -u GIT_AUTHOR_DATE TZ=IST-5:30 "$SERIES" split -m 'SEDME: x' \
		-o "$scratch/zone" "$scratch/zone.diff" 2>&1); rc=$?
	eq "zone: exit" "$rc" 0
	has "zone: git's local zone" "$(grep '^Date: ' "$scratch"/zone/0001-*)" " +0530"
	# a home of its own whose configuration names no address: the
	# suite's is shared by the tests running beside this one
	mkdir -p "$scratch/noid" && git config -f "$scratch/noid/.gitconfig" user.name "Tess Ter"
	out=$(HOME=$scratch/noid env -u GIT_AUTHOR_DATE TZ=IST-5:30 "$SERIES" split -m 'SEDME: x' \
		--author 'A U Thor <a@example.org>' -o "$scratch/zone2" "$scratch/zone.diff" 2>&1); rc=$?
	eq "zone, no identity: exit" "$rc" 0
	has "zone, no identity: git's local zone" "$(grep '^Date: ' "$scratch"/zone2/0001-*)" " +0530"
}

t_split_bad_input() {
	split_base split-bad
	local before; before=$(snapshot)
	printf 'just\ntext\n' > "$scratch/none.diff"
	run split -m x -o "$scratch/b1" "$scratch/none.diff"
	eq "no headers: exit 3" "$rc" 3
	eq "no headers: the message" "$err" "series: $scratch/none.diff: no file header (diff --git, or --- and +++) in 2 lines"
	[ -e "$scratch/b1" ] && bad "no headers: an output folder was made" || ok
	printf 'x\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n' > "$scratch/short.diff"
	run split -m x -o "$scratch/b2" "$scratch/short.diff"
	eq "truncated hunk: exit 3" "$rc" 3
	eq "truncated hunk: the line" "$err" "series: $scratch/short.diff:4: the hunk ends early: 1 old and 1 new lines missing at the end of the input"
	printf -- '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n+d\n' > "$scratch/long.diff"
	run split -m x -o "$scratch/b2" "$scratch/long.diff"
	eq "hunk longer than its header: exit 3" "$rc" 3
	has "longer: the line number" "$err" "long.diff:7: "
	printf -- '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/f\n+++ b/f\n@@ -3 +3 @@\n-c\n+d\n' > "$scratch/twice.diff"
	run split -m x -o "$scratch/b2" "$scratch/twice.diff"
	eq "a file twice: exit 3" "$rc" 3
	eq "a file twice: both lines" "$err" "series: $scratch/twice.diff:6: f appears twice (first at line 1)"
	printf -- '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\0\n+b\n' > "$scratch/nul.diff"
	run split -m x -o "$scratch/b2" "$scratch/nul.diff"
	eq "NUL: exit 3" "$rc" 3
	eq "NUL: the line" "$err" "series: $scratch/nul.diff:4: a NUL byte: not a text diff"
	printf -- '--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n' > "$scratch/out.diff"
	run split -m x -o "$scratch/b2" "$scratch/out.diff"
	eq "a path outside the tree: exit 3" "$rc" 3
	has "outside: named" "$err" "../../etc/passwd: not a path inside the tree"
	[ -e "$scratch/b2" ] && bad "bad input: an output folder was made" || ok
	run split -m x -o "$scratch/b2" "$scratch/missing.diff"
	eq "missing diff: exit 3" "$rc" 3
	eq "missing diff: the message" "$err" "series: $scratch/missing.diff: No such file or directory"
	run split -o "$scratch/b2" "$scratch/none.diff"
	eq "no template: usage" "$rc" 2
	run split -m x --author 'nobody' "$scratch/none.diff"
	eq "bad --author: usage of the value" "$rc" 3
	eq "nothing changed in the repository" "$(snapshot)" "$before"
}

t_split_outdir() {
	split_base split-out
	sed -i 's/line 1/LINE 1/' drivers/a/x.c sound/s.c
	git diff > "$scratch/o.diff"; git checkout -q .
	mkdir -p "$scratch/od"
	echo keep > "$scratch/od/notes.txt"
	run split -m 'SEDME: a' -o "$scratch/od" "$scratch/o.diff"
	eq "into an existing folder" "$rc" 0
	run split -m 'SEDME: b' -o "$scratch/od" "$scratch/o.diff"
	eq "an old series is refused" "$rc" 3
	has "refused: says --force" "$err" "holds a series already (0000-cover-letter.patch); --force replaces it"
	run split --by tree -m 'all: c' --force -o "$scratch/od" "$scratch/o.diff"
	eq "--force replaces it" "$rc" 0
	eq "--force: only the new series, other files kept" "$(ls "$scratch/od")" "0001-all-c.patch
notes.txt"
	eq "no temporary folder left" "$(ls -A "$scratch/od" | grep -c '^\.series')" 0
	# no git at all, with --author: mails still come
	mkdir -p "$scratch/nogit" && cd "$scratch/nogit"
	out=$(PATH=/nonexistent "$SERIES" split -m 'SEDME: a' --author 'A U <a@u.org>' -o m "$scratch/o.diff" 2>&1); rc=$?
	eq "no git, --author: exit" "$rc" 0
	has "no git: the mails" "$(ls m)" "0001-drivers-a-a.patch"
	out=$(PATH=/nonexistent "$SERIES" split -m 'SEDME: a' -o m2 "$scratch/o.diff" 2>&1); rc=$?
	eq "no git, no --author: exit 3" "$rc" 3
	eq "no git, no --author: names --author" "$out" "series: no author: give --author 'Name <addr>' (or set git's user.name and user.email)"
	[ -e m2 ] && bad "no author: an output folder was made" || ok
}

t_split_commit() {
	split_base split-commit
	sed -i 's/line 4/LINE 4/' drivers/a/x.c drivers/b/c/z.c sound/s.c
	printf 'new\n' > drivers/b/n.c
	git rm -q gone.txt
	git add -A; git diff --cached --binary > "$scratch/c.diff"; git reset -q --hard
	local want; want=$(tree_of_diff "$scratch/c.diff")
	echo 'local edit' >> sound/s.c
	echo 'staged' > staged.txt; git add staged.txt
	local old; old=$(git rev-parse HEAD)
	local idx; idx=$(git ls-files -s | sha1sum)
	local wt; wt=$(find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)
	run split --commit -s -m 'SEDME: four' "$scratch/c.diff"
	eq "--commit: exit" "$rc" 0
	has "--commit: the summary" "$out" "5 commits, 5 files on refs/heads/main"
	eq "--commit: the final tree" "$(git rev-parse HEAD^{tree})" "$want"
	eq "--commit: on the old HEAD" "$(git rev-parse HEAD~5)" "$old"
	eq "--commit: the branch moved once" "$(git reflog -n 2 --format=%gs refs/heads/main)" "series: 5 commits
commit (initial): base"
	eq "--commit: the index untouched" "$(git ls-files -s | sha1sum)" "$idx"
	eq "--commit: the work tree untouched" "$(find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)" "$wt"
	eq "--commit: subjects" "$(git log --format=%s "$old"..)" "sound: four
drivers/b/c: four
drivers/b: four
drivers/a: four
.: four"
	has "--commit: signed off" "$(git log -1 --format=%B)" "Signed-off-by: Tess Ter <tess@example.org>"
	has "--commit: the way back" "$err" "git read-tree -m -u"
	# a diff that does not apply: nothing changes
	local before; before=$(snapshot)
	run split --commit -m 'SEDME: again' "$scratch/c.diff"
	eq "--commit that fails: exit 3" "$rc" 3
	eq "--commit that fails: nothing changed" "$(snapshot)" "$before"
	run split --commit -o x -m 'SEDME: again' "$scratch/c.diff"
	eq "--commit with -o: usage" "$rc" 2
}

# split groups a diff the same way, with the MAINTAINERS above the current
# directory (the diff's paths are relative to it).
t_split_by_owner() {
	gtree g-split
	git diff > "$scratch/g.diff"; git checkout -q .
	local before; before=$(snapshot)
	mkdir -p "$scratch/gsplit"
	(cd drivers && "$SERIES" split --by route -m '%(prefix)y' --author 'A U <a@u.org>' \
		-o "$scratch/gsplit/r" "$scratch/g.diff") > /dev/null 2>"$scratch/stderr"
	eq "split --by route: exit" "$?" 0
	eq "split --by route: the mails" "$(ls "$scratch/gsplit/r" | tr '\n' ' ')" \
		"0000-cover-letter.patch 0001-.-y.patch 0002-gpio-y.patch 0003-gadget-g-y.patch 0004-gpio-legacy-y.patch 0005-i2c-y.patch 0006-net-y.patch 0007-widget-w-y.patch 0008-fs-y.patch "
	eq "split --by route: i2c.git's three files" \
		"$(grep '^diff --git' "$scratch/gsplit/r/0005-i2c-y.patch" | cut -d' ' -f3 | tr '\n' ' ')" \
		"a/drivers/i2c/busses/i2c-bcm2835.c a/drivers/i2c/busses/i2c-foo.c a/drivers/i2c/i2c-core.c "
	eq "split: nothing in the repository changed" "$(snapshot)" "$before"
	# the mails carry their recipients, as format's do
	local m=$scratch/gsplit/r/0005-i2c-y.patch
	eq "split: To: and Cc: are what series cc says" \
		"$( { header_addrs "$m" To; header_addrs "$m" Cc; } )" "$("$SERIES" cc "$m")"
	eq "split: the cover letter to every list" \
		"$(header_addrs "$scratch/gsplit/r/0000-cover-letter.patch" Cc | sort | tr '\n' ' ')" \
		"linux-gpio@vger.kernel.org linux-i2c@vger.kernel.org linux-kernel@vger.kernel.org linux-widget@example.org netdev@vger.kernel.org "
	mkdir -p "$scratch/gsplit/none" && cd "$scratch/gsplit/none"
	run split --by subsystem -m x --author 'A U <a@u.org>' -o out "$scratch/g.diff"
	eq "split, no MAINTAINERS: exit" "$rc" 3
	eq "split, no MAINTAINERS: said" "$err" "series: --by subsystem: no MAINTAINERS above the current directory"
	[ -e out ] && bad "split, no MAINTAINERS: an output folder was made" || ok
}

# A path git diff quotes (an 8-bit name) is raw UTF-8 in the diffstat: the
# mail declares its charset, as git send-email needs to send it unasked.
t_split_8bit_path_charset() {
	split_base split-8bit
	printf 'x\n' > 'drivers/a/fïle.c'; git add .; git commit -qm 'a file'
	printf 'y\n' >> 'drivers/a/fïle.c'
	git -c core.quotePath=true diff > "$scratch/q.diff"
	grep -q 'f\\303\\257le.c' "$scratch/q.diff" && ok || bad "git diff did not quote the path"
	run split -m 'SEDME: ascii' --author 'A <a@example.org>' -o "$scratch/q8" "$scratch/q.diff"
	eq "exit" "$rc" 0
	local m; m=$(cat "$scratch"/q8/0001-*.patch)
	has "the diffstat names it raw" "$m" " drivers/a/fïle.c | 1 +"
	has "the charset is declared" "$m" "Content-Type: text/plain; charset=UTF-8"
}

# A format-patch mail as list archives hand it out, quoted-printable: its
# diff is decoded as git am decodes it.
t_split_quoted_printable_mail() {
	split_base split-qp
	sed -i 's/line 3/int x = 1;/' drivers/a/x.c
	git commit -qam 'drivers/a: set x'
	local want; want=$(git rev-parse HEAD^{tree})
	git format-patch -q -1 --stdout | perl -MMIME::QuotedPrint -0777 -ne '
		my ($h, $b) = split /\n\n/, $_, 2;
		$h .= "\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable";
		print $h, "\n\n", encode_qp($b);' > "$scratch/qp.mbox"
	grep -q 'int x =3D 1;' "$scratch/qp.mbox" && ok || bad "the mail is not quoted-printable"
	git reset -q --hard HEAD~1
	run split --commit -m 'SEDME: set x' "$scratch/qp.mbox"
	eq "exit" "$rc" 0
	eq "the tree is the mail's" "$(git rev-parse HEAD^{tree})" "$want"
	eq "no =3D committed" "$(git grep -c '=3D' HEAD -- drivers/a/x.c)" ""
}

# A diff cut short is an error naming the line, and nothing is written:
# cut inside its last line, or inside a later hunk's header.
t_split_truncated_diff() {
	split_base split-cut
	sed -i 's/line 2/LINE 2/; s/line 7/LINE 7/' drivers/a/x.c
	sed -i 's/line 1/LINE 1/' drivers/b/c/z.c
	git diff -U1 > "$scratch/cut.diff"; git checkout -q .
	local n; n=$(wc -l < "$scratch/cut.diff")
	head -c -3 "$scratch/cut.diff" > "$scratch/cut1.diff"
	run split -m 'SEDME: x' -o "$scratch/cut1" "$scratch/cut1.diff"
	eq "cut in the last line: exit 3" "$rc" 3
	has "cut in the last line: the line named" "$err" "cut1.diff:$n: the input ends inside this line of a hunk"
	eq "cut in the last line: nothing written" "$(ls "$scratch/cut1" 2>/dev/null)" ""
	awk '/^@@/ { if (++h == 2) { print substr($0, 1, 9); exit } } { print }' "$scratch/cut.diff" > "$scratch/cut2.diff"
	run split -m 'SEDME: x' -o "$scratch/cut2" "$scratch/cut2.diff"
	eq "cut in a hunk header: exit 3" "$rc" 3
	has "cut in a hunk header: the line named" "$err" "cut2.diff:$(wc -l < "$scratch/cut2.diff"): a broken hunk header"
	local before; before=$(snapshot)
	run split --commit -m 'SEDME: x' "$scratch/cut2.diff"
	eq "--commit: exit 3" "$rc" 3
	eq "--commit: nothing changed" "$(snapshot)" "$before"
}

# -s signs off as the committer (git's identity), as -h says, whoever
# --author names.
t_split_signoff_is_the_committer() {
	split_base split-sob
	sed -i 's/line 1/LINE 1/' drivers/a/x.c
	git diff > "$scratch/sob.diff"; git checkout -q .
	run split -s -m 'SEDME: x' --author 'Ann Other <ann@example.org>' -o "$scratch/sob" "$scratch/sob.diff"
	eq "exit" "$rc" 0
	local m; m=$(cat "$scratch"/sob/0001-*.patch)
	has "the author is --author" "$m" "From: Ann Other <ann@example.org>"
	has "the sign-off is the committer's" "$m" "Signed-off-by: Tess Ter <tess@example.org>"
	lacks "not the author's" "$m" "Signed-off-by: Ann Other"
}

# A diff cut inside a file's extended header is an error naming the file's
# line, as git apply refuses it: mid-way through "rename to", right after
# "similarity index", or a diff --git line with nothing after it.
t_split_cut_in_header() {
	split_base split-hdr
	mkdir -p drivers/gpio
	git mv drivers/a/x.c drivers/gpio/x.c
	sed -i 's/line 8/LINE 8/' drivers/gpio/x.c
	git add -A; git diff --cached -M > "$scratch/ren.diff"; git reset -q --hard
	grep -q '^similarity index' "$scratch/ren.diff" || bad "no rename in the fixture diff"
	local cut k
	for k in mid sim bare; do
		case $k in
		mid) sed -n '1,/^rename to/p' "$scratch/ren.diff" | head -c -8 > "$scratch/cut-$k.diff";;
		sim) sed -n '1,/^similarity index/p' "$scratch/ren.diff" > "$scratch/cut-$k.diff";;
		bare) printf 'diff --git a/drivers/a/y.c b/drivers/a/y.c\n' > "$scratch/cut-$k.diff"
		      cat "$scratch/ren.diff" >> "$scratch/cut-$k.diff";;
		esac
		cut=$scratch/cut-$k.diff
		# git apply refuses the two cuts; a bare diff --git line of one
		# name it takes as nothing, where series says what is missing
		[ $k = bare ] || ! git apply --check "$cut" 2>/dev/null || bad "$k: git apply takes the cut diff"
		run split -m 'SEDME: x' -o "$scratch/out-$k" "$cut"
		eq "$k: exit 3" "$rc" 3
		eq "$k: one line" "$(grep -c '^series:' <<<"$err")" 1
		has "$k: says it is cut short" "$err" "cut short?"
		eq "$k: nothing written" "$(ls "$scratch/out-$k" 2>/dev/null)" ""
	done
	has "mid: names the header line" "$(cd "$scratch" && "$SERIES" split -m x -o o cut-mid.diff 2>&1)" "cut-mid.diff:4: the input ends inside this header line"
	has "sim: names the file" "$(cd "$scratch" && "$SERIES" split -m x -o o cut-sim.diff 2>&1)" "cut-sim.diff:1: a similarity index without rename or copy lines"
	has "bare: names the file" "$(cd "$scratch" && "$SERIES" split -m x -o o cut-bare.diff 2>&1)" "cut-bare.diff:1: no change after the diff --git line"
	# the whole diff still splits
	run split -m 'SEDME: x' -o "$scratch/out-whole" "$scratch/ren.diff"
	eq "whole: exit 0" "$rc" 0
}

# split --commit under the fake git failing at each step (the series and
# its judge are t-regroup.sh's: rg_series, rg_split_start, rg_result).
t_split_commit_faults() {
	rg_series rgf-regroup            # for RG_BASE, before the loop
	each_fault rg_split_start rgf-split rg_result split --commit -m SEDME:x "$scratch/rgf.diff"
}
