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

