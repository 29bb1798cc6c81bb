# t-cc-args.sh - what series cc makes of its arguments: several patches,
# files without -f, options anywhere, stdin, and the cover letter's series.

t_cc_several_patches_one_answer() {
	cctree
	mkdir -p out
	mkpatch out/0001-a.patch "" drivers/i2c/busses/i2c-designware-core.h
	mkpatch out/0002-b.patch "" drivers/i2c/busses/i2c-bpf.c include/dots.h
	run cc out/0001-a.patch out/0002-b.patch
	eq "exit" "$rc" 0
	eq "no line twice" "$(sort <<<"$out" | uniq -d)" ""
	eq "one list for all files" "$out" "$("$SERIES" cc -f drivers/i2c/busses/i2c-bpf.c drivers/i2c/busses/i2c-designware-core.h include/dots.h | grep -v 'Bee Pief\|bpf@')"
	run cc out/0001-a.patch --no-l
	eq "an option after the patch" "$(grep -c '@vger\|list@\|subs-only' <<<"$out")" 0
	run cc - < out/0001-a.patch
	eq "a patch on stdin" "$out" "$("$SERIES" cc out/0001-a.patch)"
	run cc --bogus out/0001-a.patch
	eq "unknown option" "$rc" 2
	run cc -f drivers/none.c
	eq "-f of a missing file" "$rc" 3
	has "names it" "$err" "drivers/none.c: No such file or directory"
	run cc out/9999-none.patch
	eq "a missing patch" "$rc" 3
}

t_cc_file_without_f() {
	cctree
	git init -q . && git add -A && git commit -qm base
	run cc drivers/i2c/busses/i2c-designware-core.h
	eq "a tracked file is asked for" "$out" "$("$SERIES" cc -f drivers/i2c/busses/i2c-designware-core.h)"
	[ -n "$out" ] && ok || bad "tracked file: empty answer"
	echo 'int u;' > untracked.c
	run cc untracked.c
	eq "untracked, not a patch: nothing" "$out" ""
	has "with the script's hint" "$err" "does not look like a patch"
	run cc drivers/i2c/
	eq "a directory" "$out" "$("$SERIES" cc -f drivers/i2c/)"
}

# numbered OUT SUBJECT FILE...: a patch whose subject is SUBJECT.
numbered() {
	local out=$1 subject=$2; shift 2
	mkpatch "$out" "" "$@"
	sed -i "s|^Subject: .*|Subject: $subject|" "$out"
}

t_cc_cover_letter_siblings() {
	cctree
	mkdir -p out
	# v1 and v2 of a series in one folder
	numbered out/0001-a.patch '[PATCH 1/1] a' drivers/i2c/busses/i2c-designware-core.h
	printf 'Subject: [PATCH 0/1] x\n\nv1.\n' > out/0000-cover-letter.patch
	numbered out/v2-0001-a.patch '[PATCH v2 1/1] a' Documentation/bindings/thing.yaml
	printf 'Subject: [PATCH v2 0/1] x\n\nv2.\n' > out/v2-0000-cover-letter.patch
	run cc out/v2-0000-cover-letter.patch
	has "v2 cover: v2's lists" "$out" "devicetree@vger.kernel.org"
	lacks "v2 cover: not v1's" "$out" "linux-i2c"
	run cc out/0000-cover-letter.patch
	has "v1 cover: v1's lists" "$out" "linux-i2c@vger.kernel.org"
	lacks "v1 cover: not v2's" "$out" "devicetree"
	# a cover letter carrying an interdiff is still a cover letter
	{ printf 'Subject: [PATCH v2 0/1] x\n\nv2.\n\nInterdiff against v1:\n'
	  printf 'diff --git a/include/dots.h b/include/dots.h\n--- a/include/dots.h\n+++ b/include/dots.h\n@@ -1 +1 @@\n-a\n+b\n'; } > out/v2-0000-cover-letter.patch
	run cc out/v2-0000-cover-letter.patch
	has "interdiff cover" "$out" "devicetree@vger.kernel.org"
	lacks "interdiff cover: not the diff's files" "$out" "Dotted"
	# a directory and a dangling link named *.patch are passed over
	mkdir out/0005-dir.patch; ln -s nowhere out/0006-gone.patch
	run cc out/0000-cover-letter.patch
	eq "skips dirs and dangling links" "$rc" 0
	has "still answers" "$out" "linux-i2c@vger.kernel.org"
	# --suffix=.txt and --numbered-files, told by the subjects
	mkdir -p txt num
	numbered txt/0001-a.txt '[PATCH 1/1] a' Documentation/bindings/thing.yaml
	printf 'Subject: [PATCH 0/1] x\n\nc.\n' > txt/0000-cover-letter.txt
	run cc txt/0000-cover-letter.txt
	has "--suffix=.txt" "$out" "devicetree@vger.kernel.org"
	numbered num/1 '[PATCH 1/2] a' Documentation/bindings/thing.yaml
	numbered num/2 '[PATCH 2/2] b' drivers/i2c/busses/i2c-bpf.c
	printf 'Subject: [PATCH 0/2] x\n\nc.\n' > num/0
	run cc num/0
	has "--numbered-files: first" "$out" "devicetree@vger.kernel.org"
	has "--numbered-files: second" "$out" "linux-i2c@vger.kernel.org"
	# no siblings (git send-email --compose): said, not silent
	mkdir -p lone
	printf 'Subject: [PATCH 0/3] x\n\nc.\n' > lone/.gitsendemail.msg.123
	run cc lone/.gitsendemail.msg.123
	eq "lone cover: exit 0 for send-email" "$rc" 0
	eq "lone cover: nothing" "$out" ""
	has "lone cover: a warning" "$err" "no patch of its series"
}

t_cc_args_vs_script() {
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	histtree
	cp "$gm" scripts/get_maintainer.pl
	mkpatch p/a.patch "" drivers/foo/foo.c
	mkpatch p/b.patch "" drivers/odd/odd.c drivers/foo/foo.c
	local theirs mine
	theirs=$(perl scripts/get_maintainer.pl --no-rolestats --no-git-fallback p/a.patch p/b.patch 2>/dev/null)
	mine=$("$SERIES" cc p/a.patch p/b.patch)
	eq "two patches as the script" "$mine" "$theirs"
	theirs=$(perl scripts/get_maintainer.pl --no-rolestats --no-git-fallback drivers/odd/odd.c 2>/dev/null)
	mine=$("$SERIES" cc drivers/odd/odd.c)
	eq "a tracked file as the script" "$mine" "$theirs"
	theirs=$(perl scripts/get_maintainer.pl p/a.patch --no-rolestats --no-git-fallback --no-l 2>/dev/null)
	mine=$("$SERIES" cc p/a.patch --no-l)
	eq "options after the patch as the script" "$mine" "$theirs"
	# a negatable switch is --noX as well as --no-X (Getopt::Long), every one
	local sw
	for sw in nol nom nor nofixes nomoderated nokeywords notree nomailmap; do
		theirs=$(perl scripts/get_maintainer.pl --no-rolestats --no-git-fallback --$sw p/b.patch 2>/dev/null)
		mine=$("$SERIES" cc --$sw p/b.patch)
		eq "--$sw as the script" "$mine" "$theirs"
	done
	run commit --noverify -m x
	eq "--noX is cc's alone: commit's --noverify unknown" "$rc" 2
}

t_usage_errors_exit_2() {
	newrepo usage2
	echo 1 > f; commit_all; echo 2 >> f
	run commit -F "$scratch/x" -m y
	eq "-F with -m" "$rc" 2
	has "says so" "$err" "-F and -m cannot be used together"
	eq "nothing on stdout" "$out" ""
}

# -f with an absolute path, run outside the tree: the path's own tree
# answers, as run from its top; from a subdirectory, a relative path too.
t_cc_absolute_path_elsewhere() {
	cctree
	local top=$PWD want
	want=$("$SERIES" cc -f drivers/i2c/busses/i2c-bpf.c)
	[ -n "$want" ] && ok || bad "the tree's answer is empty"
	mkdir -p "$scratch/elsewhere" && cd "$scratch/elsewhere"
	run cc -f "$top/drivers/i2c/busses/i2c-bpf.c"
	eq "outside: exit" "$rc" 0
	eq "outside: the tree's answer" "$out" "$want"
	cd "$top/drivers"
	run cc -f i2c/busses/i2c-bpf.c
	eq "a subdirectory: the tree's answer" "$out" "$want"
	cd "$scratch/elsewhere"
	run cc -f "$scratch/elsewhere/none.c"
	eq "no tree there nor here: exit 3" "$rc" 3
	has "no tree: says so" "$err" "no MAINTAINERS file above"
}
