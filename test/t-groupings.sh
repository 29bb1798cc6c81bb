# t-groupings.sh - the groupings that follow MAINTAINERS (--by subsystem,
# maintainers, route), the recipients plan shows, and plan --compare,
# against a MAINTAINERS written for them: nested and excluded F:, an N:
# match outside the section's directory, two sections that share their
# people and list, two that share a tree, and files only THE REST covers.

gtree() {
	newrepo "${1:-gtree}"
	mkdir -p drivers/i2c/busses drivers/gpio drivers/misc drivers/net/ethernet \
		drivers/net/phy drivers/widget drivers/gadget fs
	local f
	for f in drivers/i2c/i2c-core.c drivers/i2c/busses/i2c-foo.c \
		drivers/i2c/busses/i2c-bcm2835.c drivers/gpio/gpio-a.c \
		drivers/gpio/gpio-legacy.c drivers/misc/gpio-helper.c \
		drivers/net/ethernet/eth.c drivers/net/phy/phy.c \
		drivers/widget/w.c drivers/gadget/g.c fs/one.c fs/two.c README; do
		printf 'int x;\n' > "$f"
	done
	cat > MAINTAINERS <<'M'
THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
T:	git git://git.example.org/linux.git
F:	*
F:	*/

ETHERNET PHY LIBRARY
M:	Andrew Lunn <andrew@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
T:	git git://git.example.org/net.git
F:	drivers/net/phy/

GADGET DRIVERS
M:	Wendy Widget <wendy@example.org>
L:	linux-widget@example.org
S:	Maintained
F:	drivers/gadget/

GPIO SUBSYSTEM
M:	Linus Walleij <linusw@example.org>
M:	Bart Gol <brgl@example.org>
L:	linux-gpio@vger.kernel.org
S:	Maintained
T:	git git://git.example.org/gpio.git
F:	drivers/gpio/
X:	drivers/gpio/gpio-legacy.c
N:	gpio

I2C BCM2835 DRIVER
M:	Bea Cem <bea@example.org>
L:	linux-i2c@vger.kernel.org
S:	Maintained
F:	drivers/i2c/busses/i2c-bcm2835.c

I2C SUBSYSTEM
M:	Wolfram Sang <wsa@example.org>
L:	linux-i2c@vger.kernel.org
S:	Maintained
T:	git git://git.example.org/i2c.git
F:	drivers/i2c/

NETWORKING DRIVERS
M:	Dave Miller <davem@example.org>
M:	Jakub Kicin <kuba@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
T:	git git://git.example.org/net.git
F:	drivers/net/

WIDGET DRIVERS
M:	Wendy Widget <wendy@example.org>
L:	linux-widget@example.org
S:	Maintained
F:	drivers/widget/
M
	commit_all
	for f in $(git ls-files | grep -v MAINTAINERS); do echo 'int y;' >> "$f"; done
}

t_by_subsystem() {
	gtree g-subsystem
	run plan --by subsystem -m '%(prefix)do it [%(section)]'
	eq "subsystem: exit" "$rc" 0
	eq "subsystem: groups" "$(groups_of "$out")" ". (1 file)
drivers (2 files)
drivers/gadget (1 file)
drivers/gpio (1 file)
drivers/i2c (2 files)
drivers/i2c/busses (1 file)
drivers/net/ethernet (1 file)
drivers/net/phy (1 file)
drivers/widget (1 file)
fs (2 files)"
	# The N: match outside drivers/gpio lands with the F: match: the point.
	has "subsystem: N: joins F:" "$out" "drivers (2 files)
    subject: drivers: do it [GPIO SUBSYSTEM]
    M drivers/gpio/gpio-a.c
    M drivers/misc/gpio-helper.c"
	has "subsystem: the deepest F: owns" "$out" "drivers/i2c/busses (1 file)
    subject: drivers/i2c/busses: do it [I2C BCM2835 DRIVER]
    M drivers/i2c/busses/i2c-bcm2835.c"
	has "subsystem: a nested file stays with its section" "$out" "drivers/i2c (2 files)
    subject: drivers/i2c: do it [I2C SUBSYSTEM]
    M drivers/i2c/busses/i2c-foo.c
    M drivers/i2c/i2c-core.c"
	# X: leaves THE REST alone: per directory, with THE REST's title.
	has "subsystem: excluded goes per directory" "$out" "drivers/gpio (1 file)
    subject: drivers/gpio: do it [THE REST]
    M drivers/gpio/gpio-legacy.c"
	has "subsystem: THE REST per directory" "$out" "fs (2 files)
    subject: fs: do it [THE REST]"
	has "subsystem: the top is ." "$out" ". (1 file)
    subject: .: do it [THE REST]
    M README"
}

t_by_maintainers() {
	gtree g-maintainers
	run plan --by maintainers
	eq "maintainers: exit" "$rc" 0
	# widget and gadget share Wendy and her list: one group; the i2c
	# files with and without Bea's section stay apart.
	eq "maintainers: groups" "$(groups_of "$out")" ". (1 file)
drivers (2 files)
drivers (2 files)
drivers/gpio (1 file)
drivers/i2c (2 files)
drivers/i2c/busses (1 file)
drivers/net/ethernet (1 file)
drivers/net/phy (1 file)
fs (2 files)"
	has "maintainers: shared people merge" "$out" "drivers (2 files)
    M drivers/gadget/g.c
    M drivers/widget/w.c"
	# Each group's files have exactly the recipients cc gives each alone.
	local want got
	want=$("$SERIES" cc -f drivers/gadget/g.c)
	got=$("$SERIES" cc -f drivers/widget/w.c)
	eq "maintainers: the same set, as cc says" "$got" "$want"
}

t_by_route() {
	gtree g-route
	run plan --by route
	eq "route: exit" "$rc" 0
	# net.git takes both network sections; i2c.git takes Bea's driver
	# through I2C SUBSYSTEM, the next section with a T:.
	eq "route: groups" "$(groups_of "$out")" ". (1 file)
drivers (2 files)
drivers/gadget (1 file)
drivers/gpio (1 file)
drivers/i2c (3 files)
drivers/net (2 files)
drivers/widget (1 file)
fs (2 files)"
	has "route: a shared tree is one group" "$out" "drivers/net (2 files)
    M drivers/net/ethernet/eth.c
    M drivers/net/phy/phy.c"
	has "route: T: of the next section" "$out" "drivers/i2c (3 files)
    M drivers/i2c/busses/i2c-bcm2835.c
    M drivers/i2c/busses/i2c-foo.c
    M drivers/i2c/i2c-core.c"
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
t_plan_keywords() {
	gtree g-kw
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
	echo '/* built with CLANG too */' >> drivers/i2c/i2c-core.c
	echo 'int x_bpf_y;' >> drivers/gpio/gpio-a.c
	echo 'int q7;' >> drivers/net/phy/phy.c
	echo 'long v = 1234z;' >> fs/one.c
	printf 'int a;\nint b; /* Llvm */\n' >> drivers/widget/w.c
	run plan --by file
	eq "K: plan: exit" "$rc" 0
	local f want g n=0
	for f in drivers/i2c/i2c-core.c drivers/gpio/gpio-a.c drivers/net/phy/phy.c \
		 fs/one.c drivers/widget/w.c drivers/gadget/g.c MAINTAINERS; do
		want=$("$SERIES" cc -f "$f" | sed 's/^/x /')
		g=$(sed -n "/^${f//\//\\/} /,/^[^ ]/p" <<<"$out" | grep -E '^    (to|cc): ' | sed 's/^    [a-z]*: /x /')
		eq "K: plan of $f is cc -f's" "$g" "$want"
		n=$((n + 1))
	done
	has "K: icase literal" "$(sed -n '/^drivers\/i2c\/i2c-core.c /,/^[^ ]/p' <<<"$out")" "Cee Lang <clang@example.org>"
	has "K: mixed case literal" "$(sed -n '/^drivers\/widget\/w.c /,/^[^ ]/p' <<<"$out")" "llvm@example.org"
	has "K: between underscores" "$(sed -n '/^drivers\/gpio\/gpio-a.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	has "K: a two-byte literal" "$(sed -n '/^drivers\/net\/phy\/phy.c /,/^[^ ]/p' <<<"$out")" "Ess Hort"
	has "K: a one-byte literal" "$(sed -n '/^fs\/one.c /,/^[^ ]/p' <<<"$out")" "Ess Hort"
	hasnt "K: no hit, no recipient" "$(sed -n '/^drivers\/gadget\/g.c /,/^[^ ]/p' <<<"$out")" "Ess Hort"
	# a literal at every offset of the pass's stride, at a file's start
	# and end, and as the whole file
	local k pad=
	for k in 0 1 2 3; do
		printf '%sbpf%s' "$pad" "$( ((k % 2)) && echo ' x')" > fs/bpf$k.c
		pad="$pad-"
	done
	printf 'bpf' > fs/bpfonly.c
	printf -- '-bpf' > fs/bpfoddend.c
	printf 'int a;\n_Bpf' > fs/bpfcase.c
	run plan --by file -u
	for f in fs/bpf0.c fs/bpf1.c fs/bpf2.c fs/bpf3.c fs/bpfonly.c fs/bpfoddend.c fs/bpfcase.c; do
		want=$("$SERIES" cc -f "$f" | sed 's/^/x /')
		g=$(sed -n "/^${f//\//\\/} /,/^[^ ]/p" <<<"$out" | grep -E '^    (to|cc): ' | sed 's/^    [a-z]*: /x /')
		eq "K: plan of $f is cc -f's" "$g" "$want"
	done
	has "K: literal at odd offset" "$(sed -n '/^fs\/bpf1.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	has "K: literal at the end" "$(sed -n '/^fs\/bpf2.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	has "K: literal alone" "$(sed -n '/^fs\/bpfonly.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	has "K: literal at odd offset at the end" "$(sed -n '/^fs\/bpfoddend.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	hasnt "K: case matters where the line says so" "$(sed -n '/^fs\/bpfcase.c /,/^[^ ]/p' <<<"$out")" "Bee Pief"
	rm fs/bpf*.c
	# one group of all: cc -f of all the files
	run plan --by tree
	want=$("$SERIES" cc -f $(git diff --name-only) | sed 's/^/x /')
	g=$(grep -E '^    (to|cc): ' <<<"$out" | sed 's/^    [a-z]*: /x /')
	eq "K: the tree's recipients are cc -f's of all" "$g" "$want"
	# a K: line that does not compile: an error where its literal is
	printf '\nODD\nM:\tOdd <odd@example.org>\nK:\tvendorx++\n' >> MAINTAINERS
	run plan --compare
	eq "K: unrunnable, literal absent: exit" "$rc" 0
	echo 'int vendorx;' >> fs/two.c
	local before; before=$(snapshot)
	run plan --compare
	eq "K: unrunnable, literal there: exit" "$rc" 3
	has "K: unrunnable: names the line" "$err" "MAINTAINERS:$(grep -c '' MAINTAINERS): K: vendorx++: "
	eq "K: unrunnable: nothing changed" "$(snapshot)" "$before"
}

t_by_needs_maintainers() {
	newrepo g-missing
	mkdir d; echo a > d/a; commit_all; echo b >> d/a
	local before; before=$(snapshot)
	for by in subsystem maintainers route; do
		run plan --by $by
		eq "no MAINTAINERS, --by $by: exit" "$rc" 3
		has "no MAINTAINERS, --by $by: names the option" "$err" "series: --by $by: "
		has "no MAINTAINERS, --by $by: names the file" "$err" "MAINTAINERS: No such file or directory"
		run commit --by $by -m x
		eq "commit, no MAINTAINERS, --by $by: exit" "$rc" 3
	done
	eq "no MAINTAINERS: nothing changed" "$(snapshot)" "$before"
}

# commit groups as plan shows: one commit per group.
t_commit_by_subsystem() {
	gtree g-commit
	run commit --by subsystem -m '%(section): do it'
	eq "commit subsystem: exit" "$rc" 0
	eq "commit subsystem: commits" "$(git log --format=%s main~10..main | sort)" "$(printf '%s\n' \
		'ETHERNET PHY LIBRARY: do it' 'GADGET DRIVERS: do it' 'GPIO SUBSYSTEM: do it' \
		'I2C BCM2835 DRIVER: do it' 'I2C SUBSYSTEM: do it' 'NETWORKING DRIVERS: do it' \
		'THE REST: do it' 'THE REST: do it' 'THE REST: do it' 'WIDGET DRIVERS: do it')"
	eq "commit subsystem: the work tree is committed" "$(git status --porcelain)" ""
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
file               13                5            5              13            8"
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
	# A range is a source too.
	git commit -qam 'the change'
	run plan --compare HEAD~1..HEAD
	eq "compare: a range" "$(grep -c '^[a-z]' <<<"$out")" 8
	run plan --compare
	eq "compare: nothing to compare: exit" "$rc" 1
	newrepo g-compare-none
	echo a > a; commit_all; echo b >> a
	run plan --compare
	eq "compare: no MAINTAINERS: exit" "$rc" 3
	has "compare: no MAINTAINERS: named" "$err" "series: --compare: "
}

# Each file's owning section (what --by subsystem keys by, and %(section))
# is the first section get_maintainer.pl --sections lists for it, THE REST
# aside; each file's recipients are the script's.
t_groupings_vs_script() {
	local gm; gm=$(gm_script) && [ -n "$gm" ] || { skip_no_script; return; }
	gtree g-script
	mkdir -p Documentation arch include init ipc kernel lib scripts
	touch COPYING CREDITS Kbuild Makefile
	cp "$gm" scripts/get_maintainer.pl
	local f theirs mine
	for f in $(git diff --name-only); do
		theirs=$(perl scripts/get_maintainer.pl --no-rolestats --no-git-fallback --sections -f "$f" 2>/dev/null |
			grep -v -e '^$' -e '^[A-Z]:' | grep -vx 'THE REST' | head -n 1)
		[ -n "$theirs" ] || theirs="THE REST"
		mine=$("$SERIES" plan --by subsystem --include "$f" -m '%(section)' | sed -n 's/^    subject: //p')
		eq "owner of $f as the script lists" "$mine" "$theirs"
		theirs=$(perl scripts/get_maintainer.pl --no-rolestats --no-git-fallback -f "$f" 2>/dev/null)
		mine=$("$SERIES" cc -f "$f")
		eq "recipients of $f as the script gives" "$mine" "$theirs"
	done
}

# The file sets of the commits since BASE, one sorted line each, sorted.
commit_sets() {
	local c
	for c in $(git rev-list "$1"..HEAD); do
		git diff-tree -r --no-commit-id --name-only "$c" | sort | tr '\n' ' '; echo
	done | sort
}
# The file sets of the groups plan shows, likewise.
plan_sets() {
	sed -n -e '/^    [A-Z] /{s/^    [A-Z] //p;d;}' -e '/^[^ ]/s/.*/--/p' <<<"$1" |
		awk '$0 == "--" { if (s != "") print s; s = ""; next } { s = s $0 " " } END { if (s != "") print s }' |
		while read -r l; do tr ' ' '\n' <<<"$l" | grep . | sort | tr '\n' ' '; echo; done | sort
}

# regroup into and out of the MAINTAINERS organisations: the final tree is
# HEAD's and the commits are the groups plan --by shows for the range.
t_regroup_by_owner() {
	gtree g-regroup
	local base f from to
	base=$(git rev-parse HEAD)
	for f in $(git diff --name-only); do git commit -qm "$f: y" -- "$f"; done
	local tip tree; tip=$(git rev-parse HEAD); tree=$(git rev-parse HEAD^{tree})
	for from in file dir tree subsystem maintainers route; do
		for to in subsystem maintainers route dir; do
			git reset -q --hard "$tip"
			run regroup --by "$from" -m 'SEDME: y' "$base"..HEAD
			eq "to $from: exit" "$rc" 0
			local want; want=$(plan_sets "$("$SERIES" plan --by "$to" "$base"..HEAD)")
			run regroup --by "$to" -m '%(prefix)y' "$base"..HEAD
			eq "$from -> $to: exit" "$rc" 0
			eq "$from -> $to: HEAD's tree" "$(git rev-parse HEAD^{tree})" "$tree"
			eq "$from -> $to: the groups of plan" "$(commit_sets "$base")" "$want"
			eq "$from -> $to: clean" "$(git status --porcelain)" ""
		done
	done
	# and the sets are the ones counted out above
	git reset -q --hard "$tip"
	run regroup --by route -m '%(prefix)y' "$base"..HEAD
	eq "route: the commits" "$(commit_sets "$base")" "README 
drivers/gadget/g.c 
drivers/gpio/gpio-a.c drivers/misc/gpio-helper.c 
drivers/gpio/gpio-legacy.c 
drivers/i2c/busses/i2c-bcm2835.c drivers/i2c/busses/i2c-foo.c drivers/i2c/i2c-core.c 
drivers/net/ethernet/eth.c drivers/net/phy/phy.c 
drivers/widget/w.c 
fs/one.c fs/two.c "
	has "route: %(prefix) is SEDME: " "$(git log --format=%s "$base"..HEAD)" "drivers/net: y"
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
		"0000-cover-letter.patch 0001-.-y.patch 0002-drivers-y.patch 0003-drivers-gadget-y.patch 0004-drivers-gpio-y.patch 0005-drivers-i2c-y.patch 0006-drivers-net-y.patch 0007-drivers-widget-y.patch 0008-fs-y.patch "
	eq "split --by route: i2c.git's three files" \
		"$(grep '^diff --git' "$scratch/gsplit/r/0005-drivers-i2c-y.patch" | cut -d' ' -f3 | tr '\n' ' ')" \
		"a/drivers/i2c/busses/i2c-bcm2835.c a/drivers/i2c/busses/i2c-foo.c a/drivers/i2c/i2c-core.c "
	eq "split: nothing in the repository changed" "$(snapshot)" "$before"
	# the mails carry their recipients, as format's do
	local m=$scratch/gsplit/r/0005-drivers-i2c-y.patch
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
