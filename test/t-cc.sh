# t-cc.sh - series cc against a MAINTAINERS written for the tests.

# A small tree: THE REST, nested F: depths, X:, N:, K:, list kinds, a quoted
# name, a directory pattern without '/', and a .mailmap.
cctree() {
	T_TREE=$scratch/${1:-cctree}
	rm -rf "$T_TREE"; mkdir -p "$T_TREE"; cd "$T_TREE" || exit 1
	mkdir -p drivers/i2c/busses lib/dirpattern/sub include arch/arm/mach-foo12 Documentation/bindings
	printf 'int x;\n' > drivers/i2c/busses/i2c-designware-core.h
	printf 'int bpf_prog;\n' > drivers/i2c/busses/i2c-bpf.c
	printf 'int y;\n' > drivers/i2c/busses/i2c-excluded.c
	printf 'int z;\n' > lib/dirpattern/sub/x.c
	printf 'int z;\n' > lib/notadir.c
	printf 'int z;\n' > include/dots.h
	printf 'int b;\n' > arch/arm/mach-foo12/board.c
	printf 'title: x\nmaintainers:\n  - Yam L. Person <yaml@example.org>\n  - "Quoted, Guy" <quoted@example.org>\nexample: i2c@10054000\n' > Documentation/bindings/thing.yaml
	cat > MAINTAINERS <<'M'
Some prose before the first section.
	M: not a tag, it is indented

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/

I2C SUBSYSTEM
M:	Wolf Sang <wsa@old.example>
R:	Rev Iewer <rev@example.org>
L:	linux-i2c@vger.kernel.org
S:	Maintained
F:	drivers/i2c/
X:	drivers/i2c/busses/i2c-excluded.c

I2C DESIGNWARE
M:	Jarkko Nik <jarkko@example.org>
L:	mod-list@example.org (moderated for non-subscribers)
S:	Supported
F:	drivers/i2c/busses/i2c-designware-*

I2C BUSSES SUBSCRIBERS
M:	Sub Scriber <sub@example.org>
L:	subs-only@example.org (subscribers-only)
S:	Odd Fixes
F:	drivers/i2c/busses/

ARM/FOO MACHINE SUPPORT
M:	Foo Arm <foo@example.org>
S:	Maintained
N:	foo[0-9]+

BPF (Safe dynamic programs and tools)
M:	Bee Pief <bpf@example.org>
L:	bpf@vger.kernel.org
S:	Supported
K:	(?:\b|_)bpf(?:\b|_)

DOTS
M:	"Dotted, Name" <dots@example.org>
M:	Jörg Ümlaut <joerg@example.org>
S:	Maintained
F:	include/dots.h

DIR PATTERNS
M:	Dir Only <dir@example.org>
S:	Maintained
F:	lib/dirpattern
F:	lib/notadir

DEVICE TREE BINDINGS
M:	Dt Keeper <dt@example.org>
L:	devicetree@vger.kernel.org
S:	Maintained
F:	Documentation/bindings/
M
	printf 'Wolfram Sang <wsa@kernel.org> <wsa@old.example>\n' > .mailmap
}

# A patch touching FILES (one added line each); EXTRA goes before the diff.
mkpatch() {
	local out=$1 extra=$2; shift 2
	{
		printf 'From 1 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\nSubject: [PATCH] x\n\n%s\n---\n' "$extra"
		for f in "$@"; do
			printf 'diff --git a/%s b/%s\nindex 1..2 100644\n--- a/%s\n+++ b/%s\n@@ -1,1 +1,2 @@\n int x;\n+int y;\n' "$f" "$f" "$f" "$f"
		done
		printf -- '-- \n2.39.5\n'
	} > "$out"
}

t_cc_file_order_and_roles() {
	cctree
	run cc -f drivers/i2c/busses/i2c-designware-core.h
	eq "exit" "$rc" 0
	eq "deepest first, mailmap, lists last, no Linus" "$out" "Jarkko Nik <jarkko@example.org>
Sub Scriber <sub@example.org>
Wolfram Sang <wsa@kernel.org>
Rev Iewer <rev@example.org>
mod-list@example.org
linux-i2c@vger.kernel.org
linux-kernel@vger.kernel.org"
	run cc --roles -f drivers/i2c/busses/i2c-designware-core.h
	has "role" "$out" "Jarkko Nik <jarkko@example.org> (supporter:I2C DESIGNWARE)"
	has "odd fixer" "$out" "(odd fixer:I2C BUSSES SUBSCRIBERS)"
	has "reviewer" "$out" "Rev Iewer <rev@example.org> (reviewer:I2C SUBSYSTEM)"
	has "moderated" "$out" "mod-list@example.org (moderated list:I2C DESIGNWARE)"
	has "THE REST list" "$out" "linux-kernel@vger.kernel.org (open list)"
	run cc --s -f drivers/i2c/busses/i2c-designware-core.h
	has "--s adds subscriber lists" "$out" "subs-only@example.org"
	run cc --no-moderated -f drivers/i2c/busses/i2c-designware-core.h
	lacks "--no-moderated" "$out" "mod-list"
	run cc --no-m -f drivers/i2c/busses/i2c-designware-core.h
	eq "--no-m" "$out" "Rev Iewer <rev@example.org>
mod-list@example.org
linux-i2c@vger.kernel.org
linux-kernel@vger.kernel.org"
	run cc --no-r --no-l -f drivers/i2c/busses/i2c-designware-core.h
	eq "--no-r --no-l" "$out" "Jarkko Nik <jarkko@example.org>
Sub Scriber <sub@example.org>
Wolfram Sang <wsa@kernel.org>"
}

t_cc_patterns() {
	cctree
	run cc -f drivers/i2c/busses/i2c-excluded.c
	lacks "X: excludes" "$out" "Wolfram"
	has "other sections still" "$out" "Sub Scriber"
	run cc -f arch/arm/mach-foo12/board.c
	has "N: regex on the path" "$out" "Foo Arm <foo@example.org>"
	run cc -f lib/dirpattern/sub/x.c
	has "a directory pattern without / matches below" "$out" "Dir Only"
	run cc -f lib/notadir.c
	has "a file pattern matches by prefix at the same depth" "$out" "Dir Only"
	run cc -f include/dots.h
	eq "quoted names" "$out" '"Dotted, Name" <dots@example.org>
"Jörg Ümlaut" <joerg@example.org>
linux-kernel@vger.kernel.org'
	run cc -f drivers/i2c/busses/i2c-bpf.c
	has "K: on a -f file's text" "$out" "Bee Pief"
	run cc --no-keywords -f drivers/i2c/busses/i2c-bpf.c
	lacks "--no-keywords" "$out" "Bee Pief"
	run cc -f Documentation/bindings/thing.yaml
	has "yaml in-file address ('.' in a name: quoted, as the script does)" "$out" '"Yam L. Person" <yaml@example.org>'
	has "yaml quoted" "$out" '"Quoted, Guy" <quoted@example.org>'
	lacks "not i2c@10054000" "$out" "10054000"
	cd drivers/i2c
	run cc -f busses/i2c-designware-core.h
	has "paths relative to the current directory" "$out" "Jarkko Nik"
}

t_cc_patches_and_cover() {
	cctree
	mkdir -p out
	mkpatch out/0001-a.patch "" drivers/i2c/busses/i2c-designware-core.h
	mkpatch out/0002-b.patch "Fixes: 0123456789ab (\"x\")" include/dots.h
	printf 'Subject: [PATCH 0/2] x\n\nA cover.\n' > out/0000-cover-letter.patch
	run cc out/0001-a.patch
	eq "patch" "$out" "$("$SERIES" cc -f drivers/i2c/busses/i2c-designware-core.h)"
	run cc out/0000-cover-letter.patch
	eq "cover: sorted union of --no-m" "$out" "$( { "$SERIES" cc --no-m out/0001-a.patch; "$SERIES" cc --no-m out/0002-b.patch; } | LC_ALL=C sort -u)"
	has "cover has the lists" "$out" "linux-i2c@vger.kernel.org"
	lacks "cover has no maintainers" "$out" "Jarkko"
	cp out/0000-cover-letter.patch out/cover.txt
	run cc out/cover.txt
	has "a mail with no diff is a cover letter" "$out" "linux-i2c@vger.kernel.org"
	# keywords: in the message, on +/- lines; not on context lines
	mkpatch "$scratch/kw1.patch" "Use bpf here." include/dots.h
	run cc "$scratch/kw1.patch"
	has "K: in the message" "$out" "Bee Pief"
	mkpatch "$scratch/kw2.patch" "" include/dots.h
	sed -i 's/^ int x;$/ int bpf;/' "$scratch/kw2.patch"
	run cc --maintainers "$T_TREE/MAINTAINERS" "$scratch/kw2.patch"
	lacks "K: not on context lines" "$out" "Bee Pief"
	sed -i 's/^+int y;$/+int bpf_y;/' "$scratch/kw2.patch"
	run cc --maintainers "$T_TREE/MAINTAINERS" "$scratch/kw2.patch"
	has "K: on added lines" "$out" "Bee Pief"
}

# .get_maintainer.conf: its switches, under the command line's; an
# unknown one a warning.
t_cc_conf() {
	cctree
	printf '# comment\n--no-rolestats --no-git-fallback\n--frobnicate # trailing\n' > .get_maintainer.conf
	run cc -f include/dots.h
	eq "conf: exit" "$rc" 0
	has "unknown conf option: a warning" "$err" "option '--frobnicate' is not supported"
	lacks "no roles" "$out" "("
	printf -- '--roles\n' > .get_maintainer.conf
	run cc -f include/dots.h
	has "conf --roles" "$out" "(maintainer:DOTS)"
	run cc --no-roles -f include/dots.h
	lacks "command line wins" "$out" "(maintainer"
}

# Usage errors exit 2, a missing patch or MAINTAINERS 3; --maintainers
# names one elsewhere.
t_cc_errors() {
	cctree
	run cc --bogus -f x;  eq "bad option" "$rc" 2
	run cc;               eq "no argument" "$rc" 2
	run cc "$scratch/none.patch"; eq "missing patch" "$rc" 3
	has "names the patch" "$err" "none.patch"
	cd "$scratch" && mkdir -p nomaint && cd nomaint
	echo x > p.patch
	run cc p.patch
	eq "no MAINTAINERS" "$rc" 3
	has "says so" "$err" "no MAINTAINERS file"
	mkdir -p include; : > include/dots.h
	run cc --maintainers "$T_TREE/MAINTAINERS" -f include/dots.h
	has "--maintainers from elsewhere" "$out" "Dotted, Name"
}

# A pattern the engine cannot run is an error naming its line, as soon
# as its literal occurs in the path or the text, and not before.
t_cc_unsupported_pattern() {
	mkdir -p "$scratch/ccpat" && cd "$scratch/ccpat" || return
	printf 'S1\nM: A <a@x>\nK: (?<=x+)y\n' > M2
	echo 'some text' > y
	run cc --maintainers M2 -f y
	eq "unsupported regex" "$rc" 3
	has "names the line" "$err" "MAINTAINERS:3: K: (?<=x+)y: look-around that is not a fixed run of bytes"
	eq "nothing printed" "$out" ""
	printf 'S1\nM: A <a@x>\nF: *\nN: vendor++\nK: vendor++\n' > M4
	run cc --maintainers M4 -f y
	eq "no literal, no error" "$rc $out" "0 A <a@x>"
	echo 'a vendor line' > y
	run cc --maintainers M4 -f y
	eq "the literal in the text: the K: line is compiled" "$rc" 3
	has "and named" "$err" "MAINTAINERS:5: K: vendor++: "
	: > vendor.c
	run cc --maintainers M4 -f vendor.c
	has "the literal in the path: the N: line" "$err" "MAINTAINERS:4: N: vendor++: "
}

# No address in the output can forge a mail header.
t_cc_control_bytes() {
	mkdir -p "$scratch/ccctl" && cd "$scratch/ccctl" || return
	echo 'some text' > y
	printf 'S1\nM: Evil <e@x>\rBcc: v@x\nM: Esc <e\033[2J@x>\nF: *\n' > M3
	run cc --maintainers M3 -f y
	eq "a CR after the address is cut off with the rest" "$out" "Evil <e@x>"
	has "an address with control bytes is dropped, with a warning" "$err" "control bytes"
}

t_cc_hostile_regex() {
	newrepo hostile-re
	printf 'S1\nM: A <a@x.org>\nS: Maintained\nK: (a*)*q\nK: (x+x+)+y\n' > MAINTAINERS
	{ printf 'Subject: x\n\n'; head -c 200000 /dev/zero | tr '\0' a; printf '\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n+'; head -c 100000 /dev/zero | tr '\0' x; printf '\n'; } > p.patch
	run cc p.patch
	eq "pathological patterns finish, no match" "$out" ""
	eq "exit" "$rc" 0
}

# git send-email calls us once per mail with the file name.
t_cc_send_email() {
	if [ ! -e "$(git --exec-path)/git-send-email" ]; then
		echo "SKIP t_cc_send_email: git send-email is not installed (apt-get install git-email)"; return
	fi
	# git-email's perl modules (Mail::Address: libmailtools-perl) are only a
	# Recommends: without them send-email cannot run at all.
	local why
	if ! why=$(perl -e 'use lib split(/:/, $ENV{GITPERLLIB} || "/usr/share/perl5");
			    require Git::LoadCPAN::Mail::Address;' 2>&1 </dev/null); then
		echo "SKIP t_cc_send_email: git send-email cannot run here: $(head -n 1 <<<"$why")"; return
	fi
	cctree send
	mkdir -p out
	mkpatch out/0001-a.patch "" drivers/i2c/busses/i2c-designware-core.h
	printf 'From 1 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\nSubject: [PATCH 0/1] x\n\nA cover.\n' > out/0000-cover-letter.patch
	git init -q . 2>/dev/null
	out=$(git send-email --dry-run --confirm=never --suppress-cc=self --to=to@example.org \
		--cc-cmd="$SERIES cc" out/0000-cover-letter.patch out/0001-a.patch 2>&1 </dev/null)
	local cover patch
	cover=$(awk '/^Result:/ { exit } { print }' <<<"$out")
	patch=$(awk 'done { print } /^Result:/ { done = 1 }' <<<"$out")
	has "patch cc'd to its maintainer" "$patch" "(cc-cmd) Adding cc: Jarkko Nik <jarkko@example.org>"
	has "patch cc'd to the mailmapped maintainer" "$patch" "(cc-cmd) Adding cc: Wolfram Sang <wsa@kernel.org>"
	has "cover cc'd to the lists" "$cover" "(cc-cmd) Adding cc: linux-i2c@vger.kernel.org"
	eq "cover not to maintainers" "$(grep -c Jarkko <<<"$cover")" 0
}

# Our engine against Perl on every K:/N: pattern of the kernel's MAINTAINERS.
t_regex_vs_perl() {
	command -v perl >/dev/null || { echo "SKIP t_regex_vs_perl: no perl"; return; }
	local d=$here/data ours theirs
	ours=$("$UNIT" --matrix "$d/kernel-kn-patterns.txt" "$d/regex-subjects.txt")
	theirs=$(perl -e '
		open(P, "<", $ARGV[0]) or die; my @p = <P>; chomp @p;
		open(S, "<", $ARGV[1]) or die; my @s = <S>; chomp @s;
		for my $p (@p) { print join("", map { /$p/x ? 1 : 0 } @s), "\n"; }' \
		"$d/kernel-kn-patterns.txt" "$d/regex-subjects.txt")
	eq "pattern count" "$(wc -l <<<"$ours")" "$(wc -l < "$d/kernel-kn-patterns.txt")"
	local i=0 p
	while IFS= read -r p; do
		i=$((i + 1))
		eq "/$p/x on $(wc -l < "$d/regex-subjects.txt") subjects" \
			"$(sed -n "${i}p" <<<"$ours")" "$(sed -n "${i}p" <<<"$theirs")"
	done < "$d/kernel-kn-patterns.txt"
	local hits; hits=$(tr -cd 1 <<<"$ours" | wc -c)
	[ "$hits" -gt 100 ] && ok || bad "only $hits matches in the matrix: the subjects test too little"
}

# test/parity where linux-source-6.1 is installed (it says SKIPPED if not).
t_parity() {
	local log=$scratch/parity.log line
	PARITY_CACHE=${PARITY_CACHE:-$ORIG_HOME/.cache/series-parity} \
		SERIES=$SERIES bash "$here/parity" > "$log" 2>&1
	if grep -q SKIPPED "$log"; then cat "$log"; return; fi
	grep -E '^parity: (equal|[0-9]+ cases)' "$log"
	grep -A6 '^DIFF' "$log" | head -40
	line=$(grep -E '^parity: [0-9]+ passed, [0-9]+ failed$' "$log")
	[ -n "$line" ] || { bad "parity did not finish: $(tail -n 3 "$log")"; return; }
	local p f
	p=$(sed 's/^parity: \([0-9]*\) passed, \([0-9]*\) failed$/\1/' <<<"$line")
	f=$(sed 's/^parity: \([0-9]*\) passed, \([0-9]*\) failed$/\2/' <<<"$line")
	pass=$((pass + p)); failed=$((failed + f))
}
