# t-hostile.sh - hostile names, patches and templates: a correct result or
# a clear error, never a crash (the runner's watchdog catches hangs).

t_hostile_every_byte_name() {
	newrepo bytes
	mkdir d
	local b name n=0
	for b in $(seq 1 255); do
		[ "$b" = 47 ] && continue                 # '/' separates, it names nothing
		name=$(printf "x\\$(printf %03o "$b")y")
		printf 'v1\n' > "d/$name" && n=$((n + 1))
	done
	commit_all
	for f in d/*; do printf 'v2\n' >> "$f"; done
	run commit --by file -m 'SEDME'
	eq "exit" "$rc" 0
	has "one commit per name" "$out" "$n commits, $n files"
	eq "all clean" "$(git status --porcelain -z | tr '\0' '\n')" ""
	eq "diff HEAD empty" "$(git diff HEAD --stat)" ""
}

t_hostile_long_and_deep() {
	newrepo deep
	local long; long=$(printf 'n%.0s' $(seq 1 255))
	local deep=d; for i in $(seq 1 100); do deep=$deep/d$i; done
	mkdir -p "$deep"
	echo 1 > "$long"; echo 1 > "$deep/f"; commit_all
	echo 2 >> "$long"; echo 2 >> "$deep/f"
	run commit -m 'SEDME: x'
	eq "exit" "$rc" 0
	eq "two groups" "$(git log --format=%s -2 | wc -l)" 2
	has "deep group named" "$(git log --format=%s -2)" "$deep: x"
	eq "clean" "$(git status --porcelain)" ""
	run plan --depth 3 -- .
	eq "depth on a deep tree" "$rc" 1
}

t_hostile_patches() {
	cctree hostile-p
	local p=$scratch/hp
	mkdir -p "$p"
	# CRLF line ends: the path keeps its CR (as in the script); no crash
	printf 'Subject: x\r\n\r\n---\r\ndiff --git a/include/dots.h b/include/dots.h\r\n--- a/include/dots.h\r\n+++ b/include/dots.h\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n' > "$p/crlf.patch"
	# NUL bytes, a 1 MB line, wrong @@ counts, headers only, truncation
	{ printf 'Subject: x\n\n---\ndiff --git a/include/dots.h b/include/dots.h\n--- a/include/dots.h\n+++ b/include/dots.h\n@@ -1,99 +1,99 @@\n+a\0b\n+'; head -c 1048576 /dev/zero | tr '\0' q; printf '\n'; } > "$p/nul-long.patch"
	printf 'From: x\nSubject: only headers\n' > "$p/headers.patch"
	printf 'diff --git a/include/do' > "$p/truncated.patch"
	printf '@@ -1 +1 @@\n--- \n+++ \n--- "a/unterminated\n' > "$p/junk.patch"
	: > "$p/empty.patch"
	local f
	for f in crlf nul-long; do
		run cc "$p/$f.patch"
		eq "$f: exit" "$rc" 0
		has "$f: the file's maintainer" "$out" "Dotted, Name"
	done
	for f in headers truncated junk empty; do
		run cc --maintainers "$T_TREE/MAINTAINERS" "$p/$f.patch"
		eq "$f: exit" "$rc" 0
		lacks "$f: no maintainer invented" "$out" "Dotted"
	done
}

t_hostile_templates() {
	newrepo tmpl-hostile
	mkdir a; echo 1 > a/f; commit_all; echo 2 >> a/f
	head -c 1048576 /dev/zero | tr '\0' 'x' > "$scratch/big"
	printf '\nSEDME\n' >> "$scratch/big"
	run commit -n -F "$scratch/big"
	eq "1 MB template" "$rc" 0
	local many; many=$(printf 'SEDME%.0s' $(seq 1 2000))
	run commit -m "$many"
	eq "2000 SEDMEs" "$rc" 0
	eq "all replaced" "$(git log -1 --format=%s | grep -o a | wc -l)" 2000
	printf 'subject\n\n# not a comment here\n' > "$scratch/hash"
	echo 3 >> a/f
	run commit -F "$scratch/hash"
	has "lines starting with # kept (git commit -F keeps them too)" "$(git log -1 --format=%B)" "# not a comment here"
}

# valgrind's memcheck on the main commands, on a dynamic -g build (memcheck
# cannot see a static binary's heap).
t_valgrind() {
	command -v valgrind >/dev/null || { echo "SKIP t_valgrind: no valgrind"; return; }
	[ -x "$here/../series-vg" ] || { echo "SKIP t_valgrind: no series-vg (make test builds it)"; return; }
	local vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
	cctree vg
	mkdir -p out
	mkpatch out/0001-a.patch "Use bpf." drivers/i2c/busses/i2c-designware-core.h
	printf 'Subject: [PATCH 0/1] x\n\nCover.\n' > out/0000-cover-letter.patch
	$vg "$here/../series-vg" cc out/0001-a.patch >/dev/null 2>"$scratch/vg.log"; eq "memcheck: cc patch" "$?" 0
	$vg "$here/../series-vg" cc out/0000-cover-letter.patch >/dev/null 2>>"$scratch/vg.log"; eq "memcheck: cc cover" "$?" 0
	$vg "$here/../series-vg" cc -f include/dots.h Documentation/bindings/thing.yaml >/dev/null 2>>"$scratch/vg.log"; eq "memcheck: cc -f" "$?" 0
	scenario vg-commit
	$vg "$here/../series-vg" plan -m 'SEDME: x' >/dev/null 2>>"$scratch/vg.log"; eq "memcheck: plan" "$?" 0
	$vg --trace-children=no "$here/../series-vg" commit -s -m 'SEDME: x' >/dev/null 2>>"$scratch/vg.log"; eq "memcheck: commit" "$?" 0
	eq "memcheck: no report" "$(cat "$scratch/vg.log")" ""
}

# Root only: the repository on a small tmpfs that fills up while series
# writes; nothing may be lost and nothing left behind.
t_full_disk() {
	if [ "$(id -u)" != 0 ]; then echo "SKIP t_full_disk: needs root (mount)"; return; fi
	local mnt=$scratch/full
	mkdir -p "$mnt"
	if ! mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null; then
		echo "SKIP t_full_disk: cannot mount a tmpfs here"; return
	fi
	( cd "$mnt" && git init -q r && cd r && mkdir a b &&
	  echo 1 > a/f && echo 1 > b/f && git add -A && git commit -qm base ) >/dev/null
	cd "$mnt/r"
	# incompressible content, so the pack git writes needs real room
	head -c 600000 /dev/urandom > a/f
	head -c 600000 /dev/urandom > b/f
	local free; free=$(df -k --output=avail "$mnt" | tail -n 1)
	head -c $(( (free - 300) * 1024 )) /dev/zero > "$mnt/filler" 2>/dev/null
	local s; s=$(snapshot)
	run commit -m 'SEDME: big'
	[ "$rc" -ne 0 ] && ok || bad "a full disk: exit 0"
	eq "full disk: unchanged" "$(snapshot)" "$s"
	eq "full disk: one line" "$(grep -c '^series:' <<<"$err")" 1
	rm -f "$mnt/filler"
	run commit -m 'SEDME: big'
	eq "room again: commits" "$rc" 0
	eq "room again: clean" "$(git status --porcelain)" ""
	cd "$scratch"
	umount "$mnt"
}
