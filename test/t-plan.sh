# t-plan.sh - series plan: the groups of the work tree and of a range,
# their files, subjects, prefixes and recipients, and --compare.  The
# scenarios are t-commit.sh's (every kind of change) and t-groupings.sh's
# (a MAINTAINERS written for the groupings).

t_plan_by_dir() {
	scenario
	run plan -m 'SEDME: fix'
	eq "exit" "$rc" 0
	eq "groups" "$(groups_of "$out" | tr '\n' ' ')" \
		". (1 file) a (1 file) a/b (1 file) c (2 files) d (1 file) e (1 file) f (1 file) g (1 file) h (1 file) "
	has "subject" "$out" "    subject: a/b: fix"
	has "rename" "$out" "    R d/old -> d/new"
	has "type change" "$out" "    T f/link"
	has "deletion" "$out" "    D c/w"
	has "added" "$out" "    A e/new"
	lacks "untracked off" "$out" "untracked.txt"
	lacks "added-then-deleted" "$out" "i/ad"
	eq "summary line" "$(tail -n 1 <<<"$out")" "9 groups, 10 files"
	run plan --untracked
	has "untracked on" "$out" "    A a/untracked.txt"
	eq "a has two with -u" "$(grep '^a ' <<<"$out")" "a (2 files)"
}

t_plan_modes() {
	scenario
	run plan --by file
	eq "by file: one group a file" "$(groups_of "$out" | wc -l)" 10
	has "by file name" "$out" "d/new (1 file)"
	run plan --by tree -m 'SEDME: x'
	eq "by tree" "$(groups_of "$out")" "treewide (10 files)"
	has "tree subject" "$out" "subject: treewide: x"
	run plan --depth 1
	eq "depth 1" "$(groups_of "$out" | tr '\n' ' ')" \
		". (1 file) a (2 files) c (2 files) d (1 file) e (1 file) f (1 file) g (1 file) h (1 file) "
	run plan --include '*.txt'
	eq "include" "$(groups_of "$out")" ". (1 file)"
	run plan --include 'a/*' --include 'c/*'
	eq "two includes" "$(groups_of "$out" | tr '\n' ' ')" "a (1 file) a/b (1 file) c (2 files) "
	run plan -- c d
	eq "pathspec" "$(groups_of "$out" | tr '\n' ' ')" "c (2 files) d (1 file) "
}

# Directories split around their subdirectories still form one group.
t_plan_interleaved() {
	newrepo interleave
	mkdir -p d/m
	echo 1 > d/a; echo 1 > d/m/x; echo 1 > d/z; commit_all
	echo 2 >> d/a; echo 2 >> d/m/x; echo 2 >> d/z
	run plan
	eq "groups" "$(groups_of "$out" | tr '\n' ' ')" "d (2 files) d/m (1 file) "
}

# The summary counts with commas, as people read them.
t_plan_summary_thousands() {
	newrepo summary
	mkdir d; for i in $(seq 1 1031); do echo 1 > d/f$i; done; commit_all
	for i in $(seq 1 1031); do echo 2 >> d/f$i; done
	run plan --by file
	eq "exit" "$rc" 0
	eq "summary" "$(tail -n 1 <<<"$out")" "1,031 groups, 1,031 files"
	run plan
	eq "one group" "$(tail -n 1 <<<"$out")" "1 group, 1,031 files"
}

t_plan_range() {
	rg_series rg-plan
	run plan -m 'SEDME: x' "$RG_BASE"..HEAD
	eq "plan of a range: exit" "$rc" 0
	eq "plan of a range" "$out" "   #  files  subject
   1      1  .: x
   2      2  a: x
   3      1  b: x
   4      1  b/c: x

. (1 file)
    subject: .: x
    M top
a (2 files)
    subject: a: x
    M a/x
    M a/y
b (1 file)
    subject: b: x
    M b/z
b/c (1 file)
    subject: b/c: x
    M b/c/w
4 groups, 5 files"
	run plan --by tree HEAD~1..
	eq "TIP defaults to HEAD" "$(groups_of "$out")" "treewide (1 file)"
	run plan nosuch..HEAD
	eq "a bad range: exit 3" "$rc" 3
	eq "a bad range: named" "$err" "series: nosuch: not a commit"
	run plan "$RG_BASE"..HEAD -- a
	eq "a range with PATHSPECs: exit 3" "$rc" 3
}

# plan shows each group's recipients as cc gives them for its files:
# people in to:, lists in cc:, and counts them in the summary.
t_plan_recipients() {
	gtree g-rcpt
	run plan --by subsystem --include 'drivers/i2c/*'
	eq "recipients: exit" "$rc" 0
	eq "recipients: shown" "$out" "drivers/i2c (2 files)
    M drivers/i2c/busses/i2c-foo.c
    M drivers/i2c/i2c-core.c
    to: Wolfram Sang <wsa@example.org>
    cc: linux-i2c@vger.kernel.org
    cc: linux-kernel@vger.kernel.org
drivers/i2c/busses (1 file)
    M drivers/i2c/busses/i2c-bcm2835.c
    to: Bea Cem <bea@example.org>
    to: Wolfram Sang <wsa@example.org>
    cc: linux-i2c@vger.kernel.org
    cc: linux-kernel@vger.kernel.org
2 groups, 3 files, 2 maintainers, 2 lists"
	local g want
	want=$("$SERIES" cc -f drivers/i2c/busses/i2c-bcm2835.c | sed 's/^/x /')
	g=$(sed -n '/^drivers\/i2c\/busses/,/^[^ ]/p' <<<"$out" | grep -E '^    (to|cc): ' | sed 's/^    [a-z]*: /x /')
	eq "recipients: equal cc -f" "$g" "$want"
	# Without MAINTAINERS, the plan has no recipients and the old summary.
	newrepo g-none
	echo a > a; commit_all; echo b >> a
	run plan
	eq "no MAINTAINERS: plain plan" "$out" ". (1 file)
    M a
1 group, 1 file"
}

# A work tree's files are searched for K: as cc -f searches them, each
# whole, one file at a time (no text kept): the plan's recipients of every
# group are cc -f's of its files, with literals of every case and length,
# and a K: line that cannot run is an error only where its literal is.
# kw_patch FILE: the file's change as format's mail would carry it: git
# diff HEAD, or for an untracked file the whole file added.
kw_patch() {
	if git ls-files --error-unmatch -- "$1" > /dev/null 2>&1; then
		git diff HEAD -- "$1"
	else
		git diff --no-index /dev/null "$1"
	fi
}

# The recipients plan shows are cc's of each group's patch, as format's
# mails get them: K: lines search the patch, not the whole file.
# kw_tree NAME: the groupings' tree with three K: sections added.
kw_tree() {
	gtree "$1"
	cat >> MAINTAINERS <<'M'

CLANG BUILD
M:	Cee Lang <clang@example.org>
L:	llvm@example.org
S:	Maintained
K:	\b(?i:clang|llvm)\b

BPF
M:	Bee Pief <bpf@example.org>
S:	Maintained
K:	(?:\b|_)bpf(?:\b|_)

SHORT
M:	Ess Hort <short@example.org>
S:	Maintained
K:	\bq7\b
K:	[0-9]{4}z
M
	git add MAINTAINERS
}

# kw_same WHAT FILE...: each file's group in plan's $out has the
# recipients cc gives the file's own patch.
kw_same() {
	local what=$1 f want g; shift
	for f; do
		want=$(kw_patch "$f" > "$scratch/kw.patch"; "$SERIES" cc "$scratch/kw.patch" | sed 's/^/x /')
		g=$(sed -n "/^${f//\//\\/} /,/^[^ ]/p" <<<"$out" | grep -E '^    (to|cc): ' | sed 's/^    [a-z]*: /x /')
		eq "$what: plan of $f is cc's of its patch" "$g" "$want"
	done
}

# group_of FILE: the lines of FILE's group in plan's $out.
group_of() { sed -n "/^${1//\//\\/} /,/^[^ ]/p" <<<"$out"; }

t_plan_keywords() {
	kw_tree g-kw
	echo '/* built with CLANG too */' >> drivers/i2c/i2c-core.c
	echo 'int x_bpf_y;' >> drivers/gpio/gpio-a.c
	echo 'int q7;' >> drivers/net/phy/phy.c
	echo 'long v = 1234z;' >> fs/one.c
	printf 'int a;\nint b; /* Llvm */\n' >> drivers/widget/w.c
	run plan --by file
	eq "K: plan: exit" "$rc" 0
	kw_same "K:" drivers/i2c/i2c-core.c drivers/gpio/gpio-a.c drivers/net/phy/phy.c \
		fs/one.c drivers/widget/w.c drivers/gadget/g.c MAINTAINERS
	has "K: MAINTAINERS' own patch is searched, as format's mail is" \
		"$(group_of MAINTAINERS)" "Cee Lang"
	has "K: icase literal" "$(group_of drivers/i2c/i2c-core.c)" "Cee Lang <clang@example.org>"
	has "K: mixed case literal" "$(group_of drivers/widget/w.c)" "llvm@example.org"
	has "K: between underscores" "$(group_of drivers/gpio/gpio-a.c)" "Bee Pief"
	has "K: a two-byte literal" "$(group_of drivers/net/phy/phy.c)" "Ess Hort"
	has "K: a one-byte literal" "$(group_of fs/one.c)" "Ess Hort"
	lacks "K: no hit, no recipient" "$(group_of drivers/gadget/g.c)" "Ess Hort"
}

# A literal at every offset of the search's stride, at a file's start and
# end, and as the whole file.
t_plan_keywords_stride() {
	kw_tree g-kw-stride
	local k pad=
	for k in 0 1 2 3; do
		printf '%sbpf%s' "$pad" "$( ((k % 2)) && echo ' x')" > fs/bpf$k.c
		pad="$pad-"
	done
	printf 'bpf' > fs/bpfonly.c
	printf -- '-bpf' > fs/bpfoddend.c
	printf 'int a;\n_Bpf' > fs/bpfcase.c
	run plan --by file -u
	kw_same "K: untracked" fs/bpf0.c fs/bpf1.c fs/bpf2.c fs/bpf3.c fs/bpfonly.c \
		fs/bpfoddend.c fs/bpfcase.c
	has "K: literal at odd offset" "$(group_of fs/bpf1.c)" "Bee Pief"
	has "K: literal at the end" "$(group_of fs/bpf2.c)" "Bee Pief"
	has "K: literal alone" "$(group_of fs/bpfonly.c)" "Bee Pief"
	has "K: literal at odd offset at the end" "$(group_of fs/bpfoddend.c)" "Bee Pief"
	lacks "K: case matters where the line says so" "$(group_of fs/bpfcase.c)" "Bee Pief"
}

# One group of all: cc of the whole patch.
t_plan_keywords_one_group() {
	kw_tree g-kw-tree
	echo '/* built with CLANG too */' >> drivers/i2c/i2c-core.c
	echo 'int x_bpf_y;' >> drivers/gpio/gpio-a.c
	run plan --by tree
	local want g
	want=$(git diff HEAD > "$scratch/kw.patch"; "$SERIES" cc "$scratch/kw.patch" | sed 's/^/x /')
	g=$(grep -E '^    (to|cc): ' <<<"$out" | sed 's/^    [a-z]*: /x /')
	eq "K: the tree's recipients are cc's of the patch" "$g" "$want"
	has "K: the tree's recipients hold a K: hit" "$g" "Bee Pief"
}

# A K: line that does not compile: an error where its literal is (in the
# patch: MAINTAINERS, which holds it, is committed first).
t_plan_keywords_unrunnable() {
	kw_tree g-kw-odd
	git commit -qm 'K: sections'
	printf '\nODD\nM:\tOdd <odd@example.org>\nK:\tvendorx++\n' >> MAINTAINERS
	git commit -qm 'odd K:' MAINTAINERS
	echo 'int x;' >> fs/one.c
	run plan --compare
	eq "K: unrunnable, literal absent: exit" "$rc" 0
	echo 'int vendorx;' >> fs/two.c
	local before; before=$(snapshot)
	run plan --compare
	eq "K: unrunnable, literal there: exit" "$rc" 3
	has "K: unrunnable: names the line" "$err" "MAINTAINERS:$(grep -c '' MAINTAINERS): K: vendorx++: "
	eq "K: unrunnable: nothing changed" "$(snapshot)" "$before"
}

# --include GLOB selects what bash's [[ PATH == GLOB ]] matches ('*'
# crossing '/', '?', [class] with '!' or '^', '\' quoting): the fnmatch()
# series used before, without its [:class:].
t_plan_include_globs() {
	newrepo include-globs
	local f files='a.c b.c ab.c x1.c xb.c dir/y.c dir/sub/y.c dir/z.h a*b [x] q-a'
	for f in $files; do mkdir -p "$(dirname "$f")"; echo 1 > "$f"; done
	commit_all
	for f in $files; do echo 2 >> "$f"; done
	local g want got
	for g in '*.c' 'dir/*' '*/y.c' 'x?.c' '[ab]*' '[!a]*' '[^a]*' 'a\*b' '*[*]*' \
		 'x[a-c].c' '[' '*[' 'q[-]a' 'q[!-]a' '*' 'dir/*/y.c' '\[x]' '?'; do
		want=$(for f in $files; do [[ $f == $g ]] && echo "$f"; done | LC_ALL=C sort)
		run plan --by file --include "$g"
		got=$(groups_of "$out" | sed 's/ (1 file)$//' | LC_ALL=C sort)
		eq "--include '$g'" "$got" "$want"
	done
}

t_plan_compare() {
	gtree g-compare
	run plan --compare
	eq "compare: exit" "$rc" 0
	# Counted by hand: 8 people (Torvalds is never listed) and 5 lists;
	# linux-kernel@ gets every patch, so most-to-a-list is the count.
	eq "compare: table" "$out" "organisation  patches  most-recipients  cover-lists  most-to-a-list  maintainers
tree                1               13            5               1            8
route               8                5            5               8            8
maintainers         9                5            5               9            8
subsystem          10                5            5              10            8
depth 2             8                5            5               8            8
dir                10                5            5              10            8
file               13                5            5              13            8

(patches besides the cover letter; most recipients of one; lists the cover letter goes to; most patches to one list; people who get any)
advice: --by dir (10 patches): the article's good start; say why in the cover letter"
	# Each row is what plan --by shows for that organisation.
	local row
	run plan --by route
	row=$(tail -n 1 <<<"$out")
	eq "compare: route's summary agrees" "$row" "8 groups, 13 files, 8 maintainers, 5 lists"
	# The list column on its own: without THE REST's list, i2c's list
	# gets the two I2C patches of --by subsystem.
	sed -i '/linux-kernel@vger/d' MAINTAINERS
	run plan --compare --include 'drivers/i2c/*'
	eq "compare: a list's patches" "$(grep '^subsystem ' <<<"$out")" "subsystem           2                3            1               2            2"
	eq "compare: a list's patches, tree" "$(grep '^tree ' <<<"$out")" "tree                1                3            1               1            2"
	has "compare: one tree takes every file: one patch" "$out" "advice: --by tree (1 patch): one tree takes every file"
	# A range is a source too.
	git commit -qam 'the change'
	run plan --compare HEAD~1..HEAD
	eq "compare: a range" "$(sed '/^$/q' <<<"$out" | grep -c '^[a-z]')" 8
	run plan --compare
	eq "compare: nothing to compare: exit" "$rc" 1
	# without MAINTAINERS: the forms that need none, counted, and said
	newrepo g-compare-none
	mkdir -p d/e f
	echo a > d/e/a; echo b > d/b; echo c > f/c; commit_all
	echo 2 >> d/e/a; echo 2 >> d/b; echo 2 >> f/c
	run plan --compare
	eq "compare: no MAINTAINERS: exit" "$rc" 0
	eq "compare: no MAINTAINERS: dir, file and tree" "$out" "organisation  patches  most-recipients  cover-lists  most-to-a-list  maintainers
tree                1                -            -               -            -
depth 2             3                -            -               -            -
dir                 3                -            -               -            -
file                3                -            -               -            -

advice: --by dir (3 patches): the article's good start; say why in the cover letter"
	eq "compare: no MAINTAINERS: said" "$err" "series: no MAINTAINERS at the top of the tree: the forms compared without recipients"
	git commit -qam 'the change'
	run plan --compare HEAD~1..HEAD
	eq "compare: no MAINTAINERS, a range: the same" "$(sed '/^$/q' <<<"$out" | grep -c '^[a-z]')" 5
	# two trees, one of whose sections spans two directories: per
	# subsystem is fewer patches than per directory, each still its
	# maintainers' own
	newrepo g-compare-advice
	printf '%s\n' 'FOO DRIVERS' 'M:	Foo Maint <foo@example.org>' \
		'T:	git git://example.org/foo.git' 'F:	foo/' '' 'BAR DRIVERS' \
		'M:	Bar Maint <bar@example.org>' 'T:	git git://example.org/bar.git' \
		'F:	bar/' > MAINTAINERS
	mkdir -p foo/a foo/b bar
	echo x > foo/a/x.c; echo y > foo/b/y.c; echo z > bar/z.c; commit_all
	echo 2 >> foo/a/x.c; echo 2 >> foo/b/y.c; echo 2 >> bar/z.c
	run plan --compare
	has "compare: per subsystem, where fewer" "$out" "advice: --by subsystem (2 patches): the fewest that leave each section's maintainers free"
}

# %(prefix) from the subjects of the history of each group's files:
# agreement, a tie (the most recent wins), merges (not counted), a new
# directory under a top one (which says nothing), no history (the path's
# words, as the kernel writes them: "misc: new: ").
t_prefix_from_history() {
	newrepo prefix
	mkdir -p drivers/i2c/busses drivers/net/stmmac drivers/gpio drivers/misc
	local f
	for f in drivers/i2c/busses/bcm.c drivers/net/stmmac/main.c drivers/gpio/a.c; do
		echo 0 > "$f"
	done
	commit_all "Initial commit"
	for f in a b c; do echo $f >> drivers/i2c/busses/bcm.c; git commit -qam "i2c: bcm2835: fix $f"; done
	echo x >> drivers/i2c/busses/bcm.c; git commit -qam "treewide: one that disagrees"
	echo a >> drivers/net/stmmac/main.c; git commit -qam "net: stmmac: a"
	echo b >> drivers/net/stmmac/main.c; git commit -qam "net: stmmac: b"
	echo c >> drivers/net/stmmac/main.c; git commit -qam "stmmac: c"
	echo d >> drivers/net/stmmac/main.c; git commit -qam "stmmac: d"
	# gpio: one commit on a side branch, merged twice over with subjects
	# that would outvote it if merges counted
	git checkout -q -b side
	echo s >> drivers/gpio/a.c; git commit -qam "gpio: a: side fix"
	git checkout -q main
	echo m > m.txt; git add m.txt; git commit -qm "top: unrelated"
	git merge -q --no-ff -m "Merge: gpio fixes" side
	git checkout -q side; echo t >> drivers/gpio/a.c; git commit -qam "x"
	git checkout -q main; git merge -q --no-ff -m "Merge: more gpio" side
	for f in drivers/i2c/busses/bcm.c drivers/net/stmmac/main.c drivers/gpio/a.c; do
		echo change >> "$f"
	done
	echo new > drivers/misc/new.c
	run plan -u -m '%(prefix)do it'
	eq "prefix: exit" "$rc" 0
	eq "prefix: the plan" "$out" "   #  files  subject
   1      1  gpio: a: do it
   2      1  i2c: bcm2835: do it
   3      1  misc: new: do it
   4      1  stmmac: do it

drivers/gpio (1 file)
    subject: gpio: a: do it
    M drivers/gpio/a.c
drivers/i2c/busses (1 file)
    subject: i2c: bcm2835: do it
    M drivers/i2c/busses/bcm.c
drivers/misc (1 file)
    subject: misc: new: do it
    A drivers/misc/new.c
drivers/net/stmmac (1 file)
    subject: stmmac: do it
    M drivers/net/stmmac/main.c
4 groups, 4 files"
	run commit -u -m '%(prefix)do it'
	eq "prefix: commit" "$(git log --format=%s -4 | sort)" "gpio: a: do it
i2c: bcm2835: do it
misc: new: do it
stmmac: do it"
	# plan of a range looks at the history before its base
	run plan -m '%(prefix)x' HEAD~4..HEAD
	has "prefix: a range's base" "$out" "subject: i2c: bcm2835: x"
	# no history at all: an unborn branch
	newrepo prefix-unborn
	echo a > a.c
	run plan -u -m '%(prefix)x'
	eq "prefix: unborn" "$(grep subject <<<"$out")" "    subject: .: x"
}

# A subject that begins with a byte-order mark (a mailer's, five of Xen's)
# gives its cut without it.
t_prefix_byte_order_mark() {
	newrepo prefix-bom
	echo 0 > a.c; commit_all "Initial commit"
	echo 1 >> a.c; git commit -qam "$(printf '\357\273\277docs: x')"
	echo 2 >> a.c
	run plan -m '%(prefix)y'
	eq "the cut, no mark" "$(grep subject <<<"$out" | od -c | head -n 2)" \
		"$(printf '    subject: docs: y\n' | od -c | head -n 2)"
}

# %(prefix) counts votes: everyone's recent cuts of the file, worth less
# the older they are, outvote a plurality of older ones; the user's own
# cut, even an older one, outvotes both (people keep their own style).
# "Other" is somebody else: another address and another name.
t_prefix_votes() {
	newrepo prefix-votes
	mkdir -p lib
	echo 0 > lib/a.c; echo 0 > lib/b.c
	commit_all "Initial commit"
	local s
	for s in "old: 1" "old: 2" "old: 3" "new: 1" "new: 2"; do
		echo "$s" >> lib/a.c
		GIT_AUTHOR_EMAIL=other@example.org GIT_AUTHOR_NAME=Other git commit -qam "$s"
	done
	echo mine >> lib/b.c; git commit -qam "mine: b"
	for s in "old: 1" "new: 1" "new: 2"; do
		echo "$s" >> lib/b.c
		GIT_AUTHOR_EMAIL=other@example.org GIT_AUTHOR_NAME=Other git commit -qam "$s"
	done
	echo change >> lib/a.c; echo change >> lib/b.c
	run plan --by file -m '%(prefix)x'
	eq "votes: exit" "$rc" 0
	eq "votes: recent over many, own over recent" "$(grep subject <<<"$out")" "    subject: new: x
    subject: mine: x"
}

# The user is known by name as well as by address: commits from an
# address they had before are still their own style ("mine: "), where
# another's more recent cut would win over anyone else's.
t_prefix_own_by_name() {
	newrepo prefix-name
	echo 0 > a.c; commit_all "Initial commit"
	echo 1 >> a.c
	GIT_AUTHOR_EMAIL=tess@old.example.org git commit -qam "mine: a"
	echo 2 >> a.c
	GIT_AUTHOR_EMAIL=other@example.org GIT_AUTHOR_NAME=Other git commit -qam "theirs: a"
	echo 3 >> a.c
	run plan -m '%(prefix)x'
	eq "own by name" "$(grep subject <<<"$out")" "    subject: mine: x"
	GIT_AUTHOR_NAME=Someone run plan -m '%(prefix)x'
	eq "another's, by neither" "$(grep subject <<<"$out")" "    subject: theirs: x"
}

# A prefix never names a file the change does not touch: the user's own
# "i2c: xiic: " (of i2c-xiic.c, same directory) outvotes anything for
# i2c-bcm2835.c, but names another driver, so bcm2835 gets its own from
# the path; a cut of the directory's ("i2c: busses: ") still counts, and
# the user's xiic change itself still gets "i2c: xiic: ".
t_prefix_names_no_other_file() {
	newrepo prefix-other
	mkdir -p drivers/i2c/busses
	echo 0 > drivers/i2c/busses/i2c-xiic.c; echo 0 > drivers/i2c/busses/i2c-bcm2835.c
	commit_all "Initial commit"
	echo 1 >> drivers/i2c/busses/i2c-xiic.c; git commit -qam "i2c: xiic: fix a leak"
	echo 1 >> drivers/i2c/busses/i2c-bcm2835.c
	run plan -m '%(prefix)x'
	eq "own cut of another driver: not taken" "$(grep subject <<<"$out")" "    subject: i2c: bcm2835: x"
	echo 2 >> drivers/i2c/busses/i2c-xiic.c
	run plan --by file -m '%(prefix)x'
	eq "the driver it names: taken" "$(grep subject <<<"$out")" "    subject: i2c: bcm2835: x
    subject: i2c: xiic: x"
	git checkout -q -- drivers/i2c/busses/i2c-xiic.c
	echo 0 > drivers/i2c/busses/i2c-foo.c; git add drivers/i2c/busses/i2c-foo.c
	GIT_AUTHOR_EMAIL=other@example.org GIT_AUTHOR_NAME=Other git commit -qm "i2c: busses: add foo"
	run plan -m '%(prefix)x'
	eq "a cut of the directory: taken" "$(grep subject <<<"$out")" "    subject: i2c: busses: x"
}

# Without history, a plural directory whose files name it in the
# singular is named so, as upstream writes it ("i2c: mux: ltc4306: " of
# drivers/i2c/muxes/i2c-mux-ltc4306.c); a file that does not keeps the
# directory ("i2c: muxes: ").
t_prefix_plural_directory() {
	newrepo prefix-plural
	mkdir -p drivers/i2c/muxes
	local f
	for f in i2c-mux-ltc4306 i2c-mux-gpio i2c-arb-gpio-challenge; do echo 0 > "drivers/i2c/muxes/$f.c"; done
	commit_all "Initial commit"
	for f in drivers/i2c/muxes/*.c; do echo 1 >> "$f"; done
	run plan --by file -m '%(prefix)x'
	eq "plural: the subjects" "$(grep subject <<<"$out")" "    subject: i2c: muxes: x
    subject: i2c: mux: gpio: x
    subject: i2c: mux: ltc4306: x"
}

# A cut that does not name the file hands part of its votes to the
# window's cut of its shape that does ("x86/mm: " to "x86/IO-APIC: " for
# io_apic.c, whatever its case and punctuation): ten "x86/mm: " commits
# of the directory would outvote the file's one "x86/IO-APIC: " alone.
# Cuts that differ only in case pool their votes, and the winner is
# spelled as the user spells it ("x86/HVM: "), wherever they wrote it.
# Under an ancestor, a commit of the parent directory's speaks louder
# than one further off ("near: " over two more recent "far: ").
t_prefix_shapes() {
	newrepo prefix-shapes
	mkdir -p x86/hvm a/b/c/d a/b/c/e a/b/x/y other
	echo 0 > x86/io_apic.c; echo 0 > x86/a.c; echo 0 > x86/hvm/hvm.c
	echo 0 > a/b/c/d/f.c; echo 0 > a/b/c/e/g.c; echo 0 > a/b/x/y/h.c
	echo 0 > other/o.c
	commit_all "Initial commit"
	local i o="GIT_AUTHOR_EMAIL=other@example.org GIT_AUTHOR_NAME=Other"
	echo 1 >> x86/io_apic.c
	env $o git commit -qam "x86/IO-APIC: one"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "$i" >> x86/a.c; env $o git commit -qam "x86/mm: $i"
	done
	echo 1 >> other/o.c; git commit -qam "x86/HVM: mine, elsewhere"
	for i in 1 2; do
		echo "$i" >> x86/hvm/hvm.c; env $o git commit -qam "x86/hvm: $i"
	done
	echo 1 >> a/b/c/e/g.c; env $o git commit -qam "near: 1"
	for i in 1 2; do
		echo "$i" >> a/b/x/y/h.c; env $o git commit -qam "far: $i"
	done
	echo change >> x86/io_apic.c; echo change >> x86/hvm/hvm.c
	echo change >> a/b/c/d/f.c
	run plan --by file -m '%(prefix)x'
	eq "shapes: exit" "$rc" 0
	eq "shapes: named, spelled, near" "$(grep subject <<<"$out")" "    subject: near: x
    subject: x86/HVM: x
    subject: x86/IO-APIC: x"
}

# An unborn branch has no HEAD to diff against: every file is new, so K:
# lines search it whole, and plan answers (it failed on git diff HEAD).
t_plan_unborn_recipients() {
	newrepo p-unborn
	printf 'MAGIC DRIVERS\nM:\tMag Ic <magic@example.org>\nL:\tmagic@lists.example.org\nK:\tmagic_request\n' > MAINTAINERS
	printf 'int f(void) { return magic_request(); }\n' > drv.c
	git add MAINTAINERS drv.c
	run plan --by file
	eq "unborn: exit" "$rc" 0
	eq "unborn: no error" "$err" ""
	has "unborn: K: over the new file" "$out" "drv.c (1 file)
    A drv.c
    to: Mag Ic <magic@example.org>
    cc: magic@lists.example.org"
}

# The work tree and a range of the same change give the same recipients
# and the same --by maintainers groups, those format's mails get: a hwmon
# driver that names a regulator function away from its change does not
# draw the regulator maintainers (K: searches the patch, not the file).
t_plan_either_source() {
	newrepo p-either
	mkdir -p drivers/hwmon
	cat > MAINTAINERS <<'M'
HARDWARE MONITORING
M:	Guen Roeck <linux@example.org>
L:	linux-hwmon@example.org
S:	Maintained
F:	drivers/hwmon/

VOLTAGE AND CURRENT REGULATOR FRAMEWORK
M:	Mark Brown <broonie@example.org>
S:	Supported
K:	regulator_get_optional
M
	local i
	for i in a b; do
		{ echo "static int $i;"; for n in 1 2 3 4 5 6 7 8; do echo "int ${i}_$n;"; done; } > drivers/hwmon/$i.c
	done
	echo 'void f(void) { regulator_get_optional(dev, "vcc"); }' >> drivers/hwmon/a.c
	commit_all
	local base; base=$(git rev-parse HEAD)
	sed -i 's/^static int \(.\);/static long \1;/' drivers/hwmon/a.c drivers/hwmon/b.c
	run plan --by maintainers
	eq "work tree: exit" "$rc" 0
	local wt=$out
	eq "work tree: one group, the directory's" "$(groups_of "$wt")" "drivers/hwmon (2 files)"
	lacks "work tree: not the regulator people" "$wt" "Mark Brown"
	git commit -qam 'hwmon: long'
	run plan --by maintainers "$base..HEAD"
	eq "range: the same groups and recipients" "$out" "$wt"
	run format -o "$scratch/p-either" "$base..HEAD"
	lacks "format: not them either" "$(cat "$scratch"/p-either/0001-*.patch)" "Mark Brown"
	# a change of the call's line: its patch names it (context lines do
	# not count, as in the script)
	git reset -q --soft "$base"
	echo '/* the call is near */' >> drivers/hwmon/a.c
	run plan --by maintainers
	lacks "a context line: not them" "$out" "Mark Brown"
	sed -i 's/"vcc"/"vdd"/' drivers/hwmon/a.c
	run plan --by maintainers
	has "the call's own line: the regulator people" "$out" "Mark Brown"
	eq "and a group of its own" "$(groups_of "$out" | wc -l)" 2
}

# %(prefix) reads history in one git log, bounded to the last 10,000
# commits and without pathspecs (so its cost does not grow with the depth
# of history or the number of groups), and only when a template asks.
t_prefix_one_bounded_log() {
	newrepo prefix-log
	mkdir -p a b c
	local f
	for f in a/x.c b/y.c c/z.c; do echo 0 > "$f"; done
	commit_all "Initial commit"
	for f in a/x.c b/y.c c/z.c; do echo 1 >> "$f"; git commit -qam "${f%%/*}: one"; done
	for f in a/x.c b/y.c c/z.c; do echo 2 >> "$f"; done
	local bin=$scratch/argv-bin
	mkdir -p "$bin"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s"\nexec "%s" "$@"\n' \
		"$scratch/argv" "$REAL_GIT" > "$bin/git"
	chmod +x "$bin/git"
	rm -f "$scratch/argv"
	PATH=$bin:$PATH run plan -m '%(prefix)x'
	eq "bounded log: subjects" "$(grep subject: <<<"$out")" "    subject: a: x
    subject: b: x
    subject: c: x"
	local logs; logs=$(grep -e ' log ' "$scratch/argv")
	eq "bounded log: one git log for three groups" "$(wc -l <<<"$logs")" 1
	has "bounded log: the window" "$logs" "--max-count=10000 HEAD --"
	eq "bounded log: no pathspec" "${logs##*HEAD --}" ""
	rm -f "$scratch/argv"
	PATH=$bin:$PATH run plan -m 'SEDME: x'
	eq "bounded log: no %(prefix), no history read" "$(grep -c -e ' log ' "$scratch/argv")" 0
	rm -f "$scratch/argv"
	PATH=$bin:$PATH run plan
	eq "bounded log: plan without a template reads none" "$(grep -c -e ' log ' "$scratch/argv")" 0
}

# Three files that one section owns and history does not name: each
# %(prefix) names its driver's directory, as the kernel's subjects do,
# though two of the files share a name (ath9k/ahb.c, ath10k/ahb.c).
t_prefix_distinct_names() {
	newrepo prefix-distinct
	mkdir -p drivers/net/wireless/ath/ath9k drivers/net/wireless/ath/ath10k drivers/net/wireless/ath/ath11k
	printf 'WIFI\nM:\tKal Le <kvalo@example.org>\nF:\tdrivers/net/wireless/ath/\n' > MAINTAINERS
	local f
	for f in ath9k/ahb.c ath10k/ahb.c ath11k/pci.c; do echo 1 > "drivers/net/wireless/ath/$f"; done
	commit_all
	for f in ath9k/ahb.c ath10k/ahb.c ath11k/pci.c; do echo 2 >> "drivers/net/wireless/ath/$f"; done
	run plan --by file -m '%(prefix)x'
	eq "exit" "$rc" 0
	eq "no warning" "$err" ""
	eq "each its own subject" "$(grep subject <<<"$out")" "    subject: wifi: ath10k: x
    subject: wifi: ath11k: x
    subject: wifi: ath9k: x"
}

# Below drivers/net/ and drivers/misc/ a directory is its own subsystem
# ("wireguard: ", "eeprom: at24: "), but for the network's shared layers
# ("net: usb: qmi_wwan: ", "net: phy: "); their own files keep "net: "
# and "misc: ".  Before, every one of these began "net: " or "misc: ".
# A driver named for its directory says it once ("team: ", not "team:
# team: ").
t_prefix_net_misc_layers() {
	newrepo prefix-net-misc
	local f files="drivers/net/wireguard/receive.c drivers/net/usb/qmi_wwan.c
		drivers/net/team/team.c
		drivers/net/phy/marvell.c drivers/net/veth.c
		drivers/misc/eeprom/at24.c drivers/misc/fastrpc.c"
	for f in $files; do mkdir -p "$(dirname "$f")"; echo 1 > "$f"; done
	commit_all
	for f in $files; do echo 2 >> "$f"; done
	run plan --by file -m '%(prefix)x'
	eq "exit" "$rc" 0
	eq "each layer its words" "$(grep 'subject: ' <<<"$out")" "    subject: eeprom: at24: x
    subject: misc: fastrpc: x
    subject: net: phy: marvell: x
    subject: team: x
    subject: net: usb: qmi_wwan: x
    subject: net: veth: x
    subject: wireguard: receive: x"
}

# Two sections of one vendor in one directory ("ANALOG DEVICES INC
# AD7124", "... AD7192") gave both groups "analog: inc: ": each group's
# file now tells them apart, with SEDME and with %(prefix) alike.
t_plan_distinct_subjects() {
	newrepo plan-distinct
	mkdir -p drivers/iio/adc
	printf '%s\n' 'ANALOG DEVICES INC AD7124 DRIVER' 'M:	Ana Log <ana@example.org>' 'F:	drivers/iio/adc/ad7124.c' '' \
		'ANALOG DEVICES INC AD7192 DRIVER' 'M:	Dee Vice <dee@example.org>' 'F:	drivers/iio/adc/ad7192.c' > MAINTAINERS
	echo 1 > drivers/iio/adc/ad7124.c; echo 1 > drivers/iio/adc/ad7192.c
	commit_all
	echo 2 >> drivers/iio/adc/ad7124.c; echo 2 >> drivers/iio/adc/ad7192.c
	run plan --by subsystem -m '%(prefix)x'
	eq "%(prefix): exit" "$rc" 0
	eq "%(prefix): distinct" "$(grep subject <<<"$out")" "    subject: iio: adc: ad7124: x
    subject: iio: adc: ad7192: x"
	lacks "%(prefix): nothing shared said" "$err" "share"
	run plan --by subsystem -m 'SEDME: x'
	eq "SEDME: distinct" "$(grep subject <<<"$out")" "    subject: iio: adc: ad7124: x
    subject: iio: adc: ad7192: x"
}

# Without history, %(prefix) follows the kernel's convention from the
# path: right for at least 24 of the 30 T rows of test/data/kernel-subjects
# (upstream subjects, each row cited), 19 of the 30 H rows and 15 of the
# 30 N rows the rule was not tuned on (test/bench prefix prints all three;
# today 26, 21 and 17).
t_plan_prefix_kernel_paths() {
	newrepo plan-kernel-paths
	local table=$here/data/kernel-subjects set want path cite got
	local -A right=() all=()
	while IFS=$'\t' read -r set want path cite; do
		mkdir -p "$(dirname "$path")" && echo 1 > "$path"
	done < <(grep -v '^#' "$table")
	commit_all "Linux 6.1"
	while IFS=$'\t' read -r set want path cite; do echo 2 >> "$path"; done < <(grep -v '^#' "$table")
	run plan --by file -m '%(prefix)x'
	eq "kernel paths: exit" "$rc" 0
	while IFS=$'\t' read -r set want path cite; do
		got=$(grep -A1 -x "$path (1 file)" <<<"$out" | sed -n 's/^    subject: \(.*\)x$/\1/p')
		all[$set]=$((${all[$set]:-0} + 1))
		[ "$got" = "$want" ] && right[$set]=$((${right[$set]:-0} + 1))
		[ -n "$got" ] || bad "kernel paths: no subject for $path"
	done < <(grep -v '^#' "$table")
	eq "kernel paths: rows" "${all[T]}/${all[H]}/${all[N]}" "30/30/30"
	[ "${right[T]:-0}" -ge 24 ] && ok || bad "kernel paths: T rows right ${right[T]:-0} of 30, want >= 24"
	[ "${right[H]:-0}" -ge 19 ] && ok || bad "kernel paths: H rows right ${right[H]:-0} of 30, want >= 19"
	[ "${right[N]:-0}" -ge 15 ] && ok || bad "kernel paths: N rows right ${right[N]:-0} of 30, want >= 15"
}
