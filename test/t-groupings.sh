# t-groupings.sh - the groupings that follow MAINTAINERS (--by subsystem,
# maintainers, route), group by group, against a MAINTAINERS written for
# them (gtree, which the plan, commit, split, regroup and format tests use
# too): nested and excluded F:, an N: match outside the section's
# directory, two sections that share their people and list, two that
# share a tree, and files only THE REST covers.

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
	# No history: %(prefix) follows the path as kernel subjects do, and
	# where the files share no subsystem's directory, the section's title.
	has "subsystem: N: joins F:" "$out" "drivers (2 files)
    subject: gpio: do it [GPIO SUBSYSTEM]
    M drivers/gpio/gpio-a.c
    M drivers/misc/gpio-helper.c"
	has "subsystem: the deepest F: owns" "$out" "drivers/i2c/busses (1 file)
    subject: i2c: bcm2835: do it [I2C BCM2835 DRIVER]
    M drivers/i2c/busses/i2c-bcm2835.c"
	has "subsystem: a nested file stays with its section" "$out" "drivers/i2c (2 files)
    subject: i2c: do it [I2C SUBSYSTEM]
    M drivers/i2c/busses/i2c-foo.c
    M drivers/i2c/i2c-core.c"
	# X: leaves THE REST alone: per directory, with THE REST's title.
	has "subsystem: excluded goes per directory" "$out" "drivers/gpio (1 file)
    subject: gpio: legacy: do it [THE REST]
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
	# files with and without Bea's section stay apart.  Two groups of
	# one name are headed with their sections.
	eq "maintainers: groups" "$(groups_of "$out")" ". (1 file)
drivers [GADGET DRIVERS] (2 files)
drivers [GPIO SUBSYSTEM] (2 files)
drivers/gpio (1 file)
drivers/i2c (2 files)
drivers/i2c/busses (1 file)
drivers/net/ethernet (1 file)
drivers/net/phy (1 file)
fs (2 files)"
	has "maintainers: shared people merge" "$out" "drivers [GADGET DRIVERS] (2 files)
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

# One tree spelled two ways in MAINTAINERS (the kernel has
# ".../rafael/linux-pm" and ".../rafael/linux-pm.git") is one route:
# one group, one series to its maintainer, spelled as its first file's.
t_by_route_one_spelling() {
	gtree g-spell
	sed -i '0,/net\.git/! s|git://git.example.org/net\.git|git://git.example.org/net/|' MAINTAINERS
	eq "two spellings" "$(grep -c 'example.org/net' MAINTAINERS) $(grep -c 'net\.git' MAINTAINERS)" "2 1"
	git commit -q -m 'the second network section spells its tree without .git' MAINTAINERS
	run plan --by route
	eq "exit" "$rc" 0
	has "one group for both spellings" "$out" "drivers/net (2 files)
    M drivers/net/ethernet/eth.c
    M drivers/net/phy/phy.c"
	eq "as many groups as with one spelling" "$(groups_of "$out" | wc -l)" 8
}

# route_tree NAME: three trees: the i2c subsystem's (its directory), a
# platform's (its own directory, one i2c driver listed by
# name, and N: foo), and sound's (a codec whose name the platform's N:
# matches); each file changed.
route_tree() {
	newrepo "$1"
	mkdir -p drivers/i2c/busses arch/arm/mach-foo sound
	local f
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 arch/arm/mach-foo/board.c sound/foo-codec.c; do echo 1 > "$f"; done
	cat > MAINTAINERS <<'M'
I2C SUBSYSTEM HOST DRIVERS
M:	Wolf Sang <wolf@example.org>
L:	linux-i2c@example.org
T:	git git://example.org/i2c.git
F:	drivers/i2c/

ARM/FOO PLATFORM
M:	Pla Form <pf@example.org>
L:	linux-arm@example.org
T:	git git://example.org/foo.git
N:	foo
F:	arch/arm/mach-foo/
F:	drivers/i2c/busses/i2c-foo.c

SOUND
M:	Tak Ashi <tak@example.org>
L:	alsa@example.org
T:	git git://example.org/sound.git
F:	sound/
M
	commit_all
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 arch/arm/mach-foo/board.c sound/foo-codec.c; do echo 2 >> "$f"; done
}

# The route of a file is the tree of the section that owns its directory,
# not of a platform's section that lists the file or matches its name.
t_by_route_owner_of_directory() {
	route_tree g-route-dir
	run plan --by route
	eq "route: exit" "$rc" 0
	eq "route: the i2c tree takes both bus drivers" "$(plan_sets "$out")" "arch/arm/mach-foo/board.c 
drivers/i2c/busses/i2c-bar.c drivers/i2c/busses/i2c-foo.c 
sound/foo-codec.c "
}

# With history, the route is the tree of the section whose maintainer
# committed the file's recent patches: the platform's maintainer took
# i2c-foo.c's, so the platform's tree goes first for it; i2c-bar.c's
# committer is in no section, and a sweep by the platform's maintainer
# (three directories) says nothing: the directory's owner, as without.
# plan --by route, plan --compare and format --split route agree.
t_by_route_from_history() {
	route_tree g-route-history
	git checkout -q -- .
	local f
	for f in 1 2; do
		echo "f$f" >> drivers/i2c/busses/i2c-foo.c
		GIT_COMMITTER_EMAIL=PF@example.org git commit -qam "i2c: foo: fix $f"
	done
	echo b >> drivers/i2c/busses/i2c-bar.c
	GIT_COMMITTER_EMAIL=akpm@example.org git commit -qam "i2c: bar: fix"
	for f in drivers/i2c/busses/i2c-bar.c arch/arm/mach-foo/board.c sound/foo-codec.c; do echo s >> "$f"; done
	GIT_COMMITTER_EMAIL=pf@example.org git commit -qam "treewide: sweep"
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 arch/arm/mach-foo/board.c sound/foo-codec.c; do echo 3 >> "$f"; done
	run plan --by route
	eq "history: exit" "$rc" 0
	eq "history: the committer's tree" "$(plan_sets "$out")" "arch/arm/mach-foo/board.c drivers/i2c/busses/i2c-foo.c 
drivers/i2c/busses/i2c-bar.c 
sound/foo-codec.c "
	run plan --compare
	eq "history: --compare, the routes' most to a list" \
		"$(grep '^route ' <<<"$out" | awk '{ print $2, $5 }')" "3 2"
	for f in drivers/i2c/busses/i2c-foo.c drivers/i2c/busses/i2c-bar.c \
		 arch/arm/mach-foo/board.c sound/foo-codec.c; do git commit -qm "x: $f" "$f"; done
	run format --split route -o "$scratch/rh" HEAD~4..HEAD
	eq "history: format --split route exit" "$rc" 0
	eq "history: format --split route's series" "$(cd "$scratch/rh" && ls */*.patch | grep -v cover | tr '\n' ' ')" \
		"1-x-example.org-foo/0001-x-drivers-i2c-busses-i2c-foo.c.patch 1-x-example.org-foo/0002-x-arch-arm-mach-foo-board.c.patch 2-x-example.org-i2c/0001-x-drivers-i2c-busses-i2c-bar.c.patch 3-x-example.org-sound/0001-x-sound-foo-codec.c.patch "
}

# route_merges NAME: a tree whose custodians' trees merge into its main
# line: SPI (a tree that merges), FOO SOC (a tree, its merges named on
# another host), a board without T:, an old tree that merges nothing,
# and a file only THE REST covers; each file changed after the merges.
route_merges() {
	newrepo "$1"
	mkdir -p drivers/spi board/foo board/bar arch/foo lib
	local f
	for f in drivers/spi/spi-core.c drivers/spi/spi-media.c board/foo/foo.c \
		 board/bar/bar.c arch/foo/soc.c lib/x.c; do echo 1 > "$f"; done
	cat > MAINTAINERS <<'M'
THE REST
M:	Tom Main <tom@example.org>
T:	git https://example.org/u-boot.git
F:	*
F:	*/

SPI
M:	Jag Spi <jag@example.org>
T:	git https://example.org/custodians/u-boot-spi.git
F:	drivers/spi/

FOO SOC
M:	Fo Soc <fo@example.org>
T:	git https://example.org/custodians/u-boot-foo.git
F:	arch/foo/

FOO BOARD
M:	Fo Soc <fo@example.org>
F:	board/foo/

BAR BOARD
M:	Ba Board <ba@example.org>
T:	git https://example.org/custodians/u-boot-old.git
F:	board/bar/
M
	commit_all
	git branch -q base
	git checkout -q -b spi base
	echo 2 >> drivers/spi/spi-core.c; git commit -qam "spi: core: fix"
	git checkout -q -b media base
	for f in 1 2; do echo "m$f" >> drivers/spi/spi-media.c; git commit -qam "spi: media: fix $f"; done
	git checkout -q -b foo base
	echo 2 >> board/foo/foo.c; git commit -qam "board: foo: fix"
	echo 2 >> board/bar/bar.c; git commit -qam "board: bar: fix"
	git checkout -q -
	git checkout -q master 2>/dev/null || git checkout -q main
	git merge -q --no-ff -m "Merge branch 'next' of https://example.org/custodians/u-boot-spi" spi
	git merge -q --no-ff -m "Merge tag 'media-1' of https://example.org/custodians/u-boot-media" media
	git merge -q --no-ff -m "Merge tag 'foo-2' of https://mirror.example.net/custodians/u-boot-foo/" foo
	echo 2 >> lib/x.c; git commit -qam "lib: x: fix"
	for f in drivers/spi/spi-core.c drivers/spi/spi-media.c board/foo/foo.c \
		 board/bar/bar.c arch/foo/soc.c lib/x.c; do echo 3 >> "$f"; done
}

# With merges in history, the route of a file is the tree that merged its
# recent patches where MAINTAINERS names none (board/foo/) or names one
# that merged nothing (board/bar/'s old tree): the foo tree, as FOO SOC's
# T: names it, though the merge names another host.  Where MAINTAINERS'
# tree merges (SPI), it wins over the media tree that merged
# spi-media.c; the main line's own commits change nothing (lib/x.c).
t_by_route_from_merges() {
	route_merges g-route-merges
	run plan --by route
	eq "merges: exit" "$rc" 0
	eq "merges: the tree that merged them" "$(plan_sets "$out")" "arch/foo/soc.c board/bar/bar.c board/foo/foo.c 
drivers/spi/spi-core.c drivers/spi/spi-media.c 
lib/x.c "
	git add -A && git commit -qm "x: all"
	git branch -q tip
	git reset -q --hard HEAD~1
	git checkout -q -b one HEAD
	for f in board/foo/foo.c board/bar/bar.c lib/x.c; do echo 4 >> "$f"; git commit -qm "x: $f" "$f"; done
	run format --split route -o "$scratch/rm" HEAD~3..HEAD
	eq "merges: format --split route exit" "$rc" 0
	eq "merges: format --split route's series" "$(cd "$scratch/rm" && ls */*.patch | grep -v cover | tr '\n' ' ')" \
		"1-x-custodians-u-boot-foo/0001-x-board-foo-foo.c.patch 1-x-custodians-u-boot-foo/0002-x-board-bar-bar.c.patch 2-x/0001-x-lib-x.c.patch "
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


# Two sections in one directory make two groups of one name: SEDME gives
# each its own subject (the group's own learned prefix, else its section's
# name in subject form), and %(section) is the group's section.
# i2c_history FILE SUBJECT: a commit of FILE alone with SUBJECT, then the
# change to the two files of drivers/i2c/busses in the work tree.
i2c_history() {
	git checkout -q -- .
	echo 'int z;' >> "$1"
	git commit -qam "$2"
	echo 'int y;' >> drivers/i2c/busses/i2c-bcm2835.c
	echo 'int y;' >> drivers/i2c/busses/i2c-foo.c
}

t_by_subsystem_distinct_subjects() {
	gtree g-distinct
	i2c_history drivers/i2c/busses/i2c-bcm2835.c 'i2c: bcm2835: fix the clock'
	run plan --by subsystem -m 'SEDME: do it [%(section)]'
	eq "distinct: exit" "$rc" 0
	eq "distinct: one name, two groups, each headed with its section" "$(groups_of "$out")" "drivers/i2c/busses [I2C BCM2835 DRIVER] (1 file)
drivers/i2c/busses [I2C SUBSYSTEM] (1 file)"
	# history names bcm2835's file, which is not foo's: foo takes its
	# own from the path
	eq "distinct: subjects" "$(grep subject: <<<"$out")" "    subject: i2c: bcm2835: do it [I2C BCM2835 DRIVER]
    subject: i2c: foo: do it [I2C SUBSYSTEM]"
	eq "distinct: no warning" "$err" ""
	# with a history of its own, each group takes its own prefix
	i2c_history drivers/i2c/busses/i2c-foo.c 'i2c: foo: tidy up'
	run plan --by subsystem -m 'SEDME: do it'
	eq "distinct: own prefixes" "$(grep subject: <<<"$out")" "    subject: i2c: bcm2835: do it
    subject: i2c: foo: do it"
	run commit --by subsystem -m 'SEDME: do it'
	eq "distinct: commit exit" "$rc" 0
	eq "distinct: commit subjects" "$(git log --format=%s -2 | sort)" "i2c: bcm2835: do it
i2c: foo: do it"
	# the dir grouping keeps SEDME the directory: one group, one name
	git reset -q --hard HEAD~2
	echo 'int y;' >> drivers/i2c/busses/i2c-bcm2835.c
	run plan -m 'SEDME: do it'
	eq "distinct: by dir, the name" "$(grep subject: <<<"$out")" "    subject: drivers/i2c/busses: do it"
}

# Subjects that would not tell patches apart draw a warning before
# anything is written: a template without placeholder for several groups
# (plan, commit, split), two groups with one subject, two commits with one
# subject (format).  The work is still done.
t_subject_warnings() {
	gtree g-subject-warn
	git checkout -q -- .
	echo 'int y;' >> fs/one.c
	echo 'int y;' >> drivers/widget/w.c
	local none="series: warning: the template has no SEDME, %(section) or %(prefix): all 2 patches would have one subject"
	run plan -m 'do it'
	eq "warn: plan, no placeholder" "$err" "$none"
	git diff > "$scratch/warn.diff"
	run split -o "$scratch/warn-mails" -m 'do it' "$scratch/warn.diff"
	eq "warn: split, no placeholder" "$err" "$none"
	eq "warn: split still writes" "$(ls "$scratch/warn-mails" | wc -l)" 3
	run plan -m 'SEDME: do it'
	eq "warn: distinct subjects say nothing" "$err" ""
	# fs and drivers/gpio/gpio-legacy.c are THE REST's alone: one section
	echo 'int y;' >> drivers/gpio/gpio-legacy.c
	git checkout -q -- drivers/widget/w.c
	run plan -m '%(section): do it'
	eq "warn: plan, one subject" "$err" 'series: warning: 2 patches (1, 2) would share the subject "THE REST: do it"'
	run commit -m 'do it'
	eq "warn: commit exit" "$rc" 0
	eq "warn: commit, no placeholder" "$err" "$none"
	eq "warn: commit still commits" "$(git log --format=%s -2)" "do it
do it"
	run format -o "$scratch/warn-fmt" HEAD~2..HEAD
	eq "warn: format exit" "$rc" 0
	has "warn: format, one subject" "$err" 'series: warning: 2 patches (1, 2) would share the subject "do it"'
}

# A subject over submitting-patches.rst's 75 characters is warned about
# before anything is written, once, with the longest; 75 says nothing.
t_subject_too_long() {
	gtree g-subject-long
	git checkout -q -- .
	mkdir -p drivers/a-rather-long-directory/with-a-deeper-part/and-deeper-still
	echo "int y;" > drivers/a-rather-long-directory/with-a-deeper-part/and-deeper-still/x.c
	echo 'int y;' >> fs/one.c
	git add -A
	local long="drivers/a-rather-long-directory/with-a-deeper-part/and-deeper-still: drop foo()"
	run plan -m 'SEDME: drop foo()'
	eq "plan: exit" "$rc" 0
	eq "plan: warned once" "$err" "series: warning: 1 subject is longer than 75 characters, as submitting-patches.rst asks (the longest, patch 1, has ${#long}: \"$long\")"
	# 75 characters, counted as characters: é is one
	local t75; t75="fs: $(printf 'é%.0s' $(seq 1 71))"
	run plan -m "$t75" -- fs
	eq "75 characters: nothing said" "$err" ""
	run commit -m 'SEDME: drop foo()'
	eq "commit: exit" "$rc" 0
	has "commit: warned" "$err" "1 subject is longer than 75 characters"
	run format -o "$scratch/long-fmt" HEAD~2..HEAD
	has "format: warned" "$err" "1 subject is longer than 75 characters"
	eq "format: still writes" "$(ls "$scratch/long-fmt" | wc -l)" 3
}
