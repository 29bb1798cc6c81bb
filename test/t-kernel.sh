# t-kernel.sh - the real workload, end to end, at the real scale: two
# tree-wide patterns over Debian's linux-source-6.1, committed as a kernel
# contributor would, then every command that reads a range, a diff or a
# mailbox run on them and checked for its result.
#   ofm: of_match_ptr() dropped from every file of the tree that names it
#        (1,031 files), one commit per directory (217);
#   irq: request_irq() and request_threaded_irq() made devm_* in every
#        platform driver of drivers/ and sound/ that calls them, free_irq()
#        lines dropped (455 files), one commit per file: the article's
#        conversion that needs the hardware, and a second, larger series,
#        so that no limit sits just above the first one.
# The repository holds the tree's MAINTAINERS, .mailmap and
# .get_maintainer.ignore and every file the two patterns touch: nothing
# else in the tree changes what a command reads.  It is built once a run
# (KFIX) and copied by the tests that change it.  SKIPPED where the
# package is not installed.

KFIX=$scratch/kernel-fixture

# The tree test/run unpacked (shared with test/parity), or nothing.
kernel_tree() {
	local cache=${PARITY_CACHE:-$ORIG_HOME/.cache/series-parity}
	[ ! -e "$cache/unpacked" ] || echo "$cache/linux-source-6.1"
}

# kernel_sed PATTERN FILE-LIST: the pattern's edit, in place.
kernel_sed() {
	case $1 in
	ofm) xargs sed -i 's/of_match_ptr(\([^()]*\))/\1/g' < "$2";;
	irq) xargs sed -i -E \
		-e 's/(^|[^a-z_])request_(threaded_)?irq\(/\1devm_request_\2irq(\&pdev->dev, /g' \
		-e '/^[[:space:]]*free_irq\(.*\);[[:space:]]*$/d' < "$2";;
	esac
}

# Builds KFIX once a run, whichever test comes first (the others wait on
# its lock): the base commit, then branch ofm (per directory) and branch
# irq (per file), each made by series commit from the edited work tree.
# KBASE is the base; returns 1 (after saying SKIPPED) without the tree.
kernel_fixture() {
	local tree; tree=$(kernel_tree)
	if [ -z "$tree" ]; then
		echo "${FUNCNAME[1]}: SKIPPED: needs linux-source-6.1"
		return 1
	fi
	( flock 9; [ -f "$KFIX.done" ] || kernel_fixture_build "$tree" ) 9>"$KFIX.lock" ||
		return 1
	KBASE=$(git -C "$KFIX" rev-parse base)
	cd "$KFIX"
}

kernel_fixture_build() {
	local tree=$1
	rm -rf "$KFIX"; mkdir -p "$KFIX"
	( cd "$tree" && grep -rl 'of_match_ptr(' -- * | LC_ALL=C sort ) > "$KFIX.ofm"
	( cd "$tree" && grep -rlE --include='*.c' '(^|[^a-z_])request_(threaded_)?irq\(' drivers sound |
		xargs grep -l 'platform_device' | LC_ALL=C sort ) > "$KFIX.irq"
	sort -u "$KFIX.ofm" "$KFIX.irq" > "$KFIX.all"
	( cd "$tree" && tar -cf - MAINTAINERS .mailmap .get_maintainer.ignore -T "$KFIX.all" ) |
		tar -C "$KFIX" -xf -
	cd "$KFIX" || return 1
	git init -q && git add -f -A . && git commit -qm "Linux 6.1" || return 1
	git tag base
	printf 'SEDME: drop of_match_ptr()\n\nThe match table is built whether or not CONFIG_OF is set.\n\nSigned-off-by: Tess Ter <tess@example.org>\n' > "$KFIX.ofm.msg"
	printf '%%(prefix)use devm_request_irq()\n\nThe interrupt is released by devres.\n\nSigned-off-by: Tess Ter <tess@example.org>\n' > "$KFIX.irq.msg"
	git checkout -q -b ofm base && kernel_sed ofm "$KFIX.ofm" &&
		"$SERIES" commit -F "$KFIX.ofm.msg" > "$KFIX.ofm.out" || return 1
	git checkout -q -b irq base && kernel_sed irq "$KFIX.irq" &&
		"$SERIES" commit --by file -F "$KFIX.irq.msg" > "$KFIX.irq.out" || return 1
	git checkout -q ofm
	touch "$KFIX.done"
}

# kernel_copy NAME: a copy of the fixture to change, made the current
# directory.
kernel_copy() {
	rm -rf "$scratch/$1"; cp -a "$KFIX" "$scratch/$1" && cd "$scratch/$1"
}

# A count as series prints it: 1,031.
commas() { sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<<"$1"; }

# The directories of a list of paths, one each.
dirs_of() { sed 's|/[^/]*$||' "$1" | LC_ALL=C sort -u; }

t_kernel_commit() {
	kernel_fixture || return 0
	local nofm nirq dofm
	nofm=$(wc -l < "$KFIX.ofm"); nirq=$(wc -l < "$KFIX.irq")
	dofm=$(dirs_of "$KFIX.ofm" | wc -l)
	eq "ofm: a commit per directory" "$(git rev-list --count base..ofm)" "$dofm"
	eq "ofm: every file" "$(git diff --name-only base ofm | wc -l)" "$nofm"
	has "ofm: the summary" "$(cat "$KFIX.ofm.out")" "$dofm commits, $(commas "$nofm") files on refs/heads/ofm"
	eq "irq: a commit per file" "$(git rev-list --count base..irq)" "$nirq"
	eq "irq: every file" "$(git diff --name-only base irq | wc -l)" "$nirq"
	# each commit is one directory's files, and the first and last are
	# the first and last directories
	eq "ofm: one directory a commit" "$(git log --format= --name-only base..ofm | grep . | sed 's|/[^/]*$||' | uniq | wc -l)" "$dofm"
	eq "ofm: the last commit" "$(git log -1 --format=%s ofm)" "$(dirs_of "$KFIX.ofm" | tail -n 1): drop of_match_ptr()"
	[ "$nofm" -ge 1000 ] && [ "$dofm" -ge 200 ] && [ "$nirq" -ge 400 ] && ok ||
		bad "the patterns are smaller than the real workload: $nofm files in $dofm directories, $nirq"
}

# plan of a range: every commit's files are one group, whatever the size.
t_kernel_plan_range() {
	kernel_fixture || return 0
	local want got
	run plan base..ofm
	eq "plan ofm: exit" "$rc" 0
	want=$(for c in $(git rev-list --reverse base..ofm); do
		git diff-tree --no-commit-id --name-only -r "$c" | sed -n 1p; done)
	got=$(awk '/^[^ ]/ { g = 1; next } g && /^    M / { print substr($0, 7); g = 0 }' <<<"$out")
	eq "plan ofm: each commit's first file heads a group" "$got" "$want"
	has "plan ofm: the summary" "$out" "$(git rev-list --count base..ofm) groups, $(commas "$(wc -l < "$KFIX.ofm")") files, "
	# at a glance: a table first, a line a group with its To:, then the
	# details; no two group headers alike
	local n; n=$(git rev-list --count base..ofm)
	eq "plan ofm: the table's head" "$(sed -n 1p <<<"$out" | tr -s ' ')" " # files subject to"
	eq "plan ofm: a line a group" "$(sed -n "2,$((n + 1))p" <<<"$out" | grep -c '^ *[0-9]\+  *[0-9]\+  [^ ]')" "$n"
	eq "plan ofm: then a blank line" "$(sed -n "$((n + 2))p" <<<"$out")" ""
	eq "plan ofm: no two headers alike" "$(groups_of "$out" | sort | uniq -d)" ""
	run plan --by subsystem base..ofm
	eq "plan ofm by subsystem: no two headers alike" "$(groups_of "$out" | sort | uniq -d)" ""
	run plan --by file base..irq
	eq "plan irq: exit" "$rc" 0
	eq "plan irq: a group a file" "$(groups_of "$out" | wc -l)" "$(wc -l < "$KFIX.irq")"
	# every organisation's cover letter goes to the same lists: a list
	# some section names as a reviewer (linux-imx@nxp.com) counts too
	run plan --compare base..irq
	eq "compare irq: exit" "$rc" 0
	eq "compare irq: one number of cover lists for all" \
		"$(awk 'NR > 1 && $2 ~ /^[0-9]+$/ { print $(NF - 2) }' <<<"$out" | sort -u | wc -l)" 1
	# the advice names a form of the table with its own patch count
	local by n
	read -r by n < <(sed -n 's/^advice: --by \([a-z]*\) (\([0-9]*\) patch.*/\1 \2/p' <<<"$out")
	eq "compare irq: the advice's count is its row's" "$n" "$(awk -v b="$by" '$1 == b { print $2 }' <<<"$out")"
	has "compare irq: a form the article names" " subsystem dir tree " " $by "
}

# plan of the work tree at full scale: the change's diff is read in two
# parts (455 files, each changed in place), and what plan shows from it,
# each group's recipients and the hardware warnings, is what it shows for
# the same change committed (base..irq, read from its commits).
t_kernel_plan_worktree() {
	kernel_fixture || return 0
	kernel_copy k-wt
	git checkout -q base && kernel_sed irq "$KFIX.irq"
	eq "the work tree: the irq change" "$(git diff --name-only | wc -l)" "$(wc -l < "$KFIX.irq")"
	run plan --by file
	eq "work tree: exit" "$rc" 0
	local wt_out=$out wt_err=$err
	run plan --by file base..irq
	eq "range: exit" "$rc" 0
	eq "each group's recipients, as for the commits" \
		"$(grep -E '^[^ ]|^    (to|cc): ' <<<"$wt_out")" "$(grep -E '^[^ ]|^    (to|cc): ' <<<"$out")"
	eq "the hardware warnings, as for the commits" \
		"$(grep 'needs testing on the hardware' <<<"$wt_err")" "$(grep 'needs testing on the hardware' <<<"$err")"
	local n; n=$(grep -c 'needs testing on the hardware (devm-irq-shared' <<<"$wt_err")
	[ "$n" -ge 50 ] && ok || bad "$n shared-interrupt warnings: too few to mean anything"
}

# check of the irq series: every patch read; the shared-interrupt rule
# fires exactly on the files that name IRQF_SHARED.
t_kernel_check_range() {
	kernel_fixture || return 0
	local want got n
	n=$(wc -l < "$KFIX.irq")
	run check base..irq
	eq "check: exit (something flagged)" "$rc" 1
	has "check: every patch counted" "$err" " of $n patches need testing on the hardware"
	# every file that names IRQF_SHARED but rtc-max77686.c, whose
	# IRQF_SHARED is regmap_add_irq_chip()'s: the request it converts
	# passes flags 0
	want=$(git grep -l IRQF_SHARED irq -- $(cat "$KFIX.irq") | sed 's/^irq://' |
		grep -vx drivers/rtc/rtc-max77686.c | LC_ALL=C sort)
	got=$(grep '\[devm-irq-shared\]$' <<<"$out" | cut -d: -f1 | LC_ALL=C sort)
	eq "check: devm-irq-shared on every IRQF_SHARED file" "$got" "$want"
	git grep -q 'regmap_add_irq_chip(.*' irq -- drivers/rtc/rtc-max77686.c && git grep -q 'request_threaded_irq(&pdev->dev, info->virq, NULL, max77686_rtc_alarm_irq, 0,' irq -- drivers/rtc/rtc-max77686.c &&
		ok || bad "rtc-max77686.c is not as this test knows it"
	lacks "check: rtc-max77686.c's request is not shared" "$(grep rtc-max77686 <<<"$out")" "[devm-irq-shared]"
	[ "$(wc -l <<<"$want")" -ge 50 ] && ok || bad "too few shared interrupts to mean anything"
	# a free_irq() gone while a plain request stays (the sed leaves
	# request_any_context_irq()): found by grep, independently
	want=$(LC_ALL=C comm -12 <(git diff base irq | sed -n 's|^+++ b/||p; /^-.*[^a-z_]free_irq(/p' |
			awk '/^-/ { if (f) print f; f = ""; next } { f = $0 }' | LC_ALL=C sort -u) \
		<(LC_ALL=C comm -23 <(git grep -lE '(^|[^a-z_])request_(threaded_|any_context_)?irq\(' irq -- $(cat "$KFIX.irq") | sed 's/^irq://' | LC_ALL=C sort) \
			<(git grep -lE '(^|[^a-z_])free_irq\(' irq -- $(cat "$KFIX.irq") | sed 's/^irq://' | LC_ALL=C sort)))
	got=$(grep '\[release-unmanaged\]$' <<<"$out" | cut -d: -f1 | LC_ALL=C sort)
	eq "check: release-unmanaged where free_irq() goes and a plain request stays" "$got" "$want"
	[ -n "$want" ] && ok || bad "no such file: the test means nothing"
	run check base..ofm
	eq "check ofm: nothing to flag" "$rc" 0
}

# The patch of the issue: free_irq() dropped from 6.1's i2c-cpm.c while
# its request_irq() stays (it is in cpm_i2c_setup(), no probe a
# Coccinelle rule would convert).
t_kernel_check_i2c_cpm() {
	kernel_fixture || return 0
	kernel_copy k-cpm
	git checkout -q -b cpm base
	local f=drivers/i2c/busses/i2c-cpm.c line
	line=$(grep -n 'free_irq(' "$f" | head -n 1 | cut -d: -f1)
	sed -i '/^[[:space:]]*free_irq(.*);$/d' "$f"
	git commit -qam 'i2c: cpm: drop free_irq()'
	run check HEAD~1..HEAD
	eq "exit: flagged" "$rc" 1
	has "the release that leaks" "$out" "$f:$line: a cleanup call goes while the plain call it paired with stays"
}

# The To: and Cc: addresses of a mail, one a line, as a reader sees them:
# unfolded, RFC 2047 words decoded, a quoted name unquoted.
mail_rcpts() {
	perl -MEncode -e 'local $/; my ($h) = split /\n\n/, <STDIN>, 2;
		$h =~ s/\n[ \t]+/ /g;
		for my $k ("To", "Cc") { for (split /\n/, $h) {
			next unless /^$k: (.*)/; my $v = $1;
			for my $a ($v =~ /((?:"(?:[^"\\]|\\.)*"|[^,])+)/g) {
				$a =~ s/^\s+|\s+$//g;
				$a = encode("UTF-8", decode("MIME-Header", $a));
				$a =~ s/^"(.*)"(\s*<)/$1$2/; print "$a\n" } } }' < "$1"
}
# series cc's answer for a mail, quoted names unquoted, its empty lines
# (the script prints one for an L: line that holds no address) left out.
cc_rcpts() { "$SERIES" cc "$1" | grep . | sed 's/^"\(.*\)" </\1 </'; }

# kernel_am NAME BRANCH MAILS...: git am of the mails on a new branch NAME
# from base; says whether the tree is BRANCH's.
kernel_am() {
	local name=$1 want=$2
	shift 2
	git checkout -q -b "$name" base
	git am -q "$@" > "$scratch/am.log" 2>&1 || { bad "$name: git am failed: $(tail -n 3 "$scratch/am.log")"; git am --abort; }
	eq "$name: git am gives the tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse "$want^{tree}")"
	eq "$name: as many commits" "$(git rev-list --count base..HEAD)" "$(git rev-list --count "base..$want")"
}

# format of both series: git am of the mails rebuilds each; every mail's
# To: and Cc: are what series cc answers for git format-patch's mail of the
# same commit, no address in both; checkpatch.pl finds nothing in the
# cover letter that it does not find in git's own of the range, and the
# letter declares its charset where it is 8-bit.
t_kernel_format() {
	kernel_fixture || return 0
	kernel_copy k-format
	local b n m fp want got bad_rcpt twice
	for b in ofm irq; do
		n=$(git rev-list --count base..$b)
		run format -o "$scratch/kf-$b" base..$b
		eq "format $b: exit" "$rc" 0
		eq "format $b: the mails" "$(ls "$scratch/kf-$b" | wc -l)" $((n + 1))
		kernel_am "am-$b" $b $(ls "$scratch/kf-$b"/*.patch | grep -v cover-letter)
		git format-patch -q --cover-letter -o "$scratch/kfp-$b" base..$b
		eq "format $b: numbered as git numbers (padded)" \
			"$(grep -h '^Subject:' "$scratch/kf-$b"/*.patch | cut -d']' -f1)" \
			"$(grep -h '^Subject:' "$scratch/kfp-$b"/*.patch | cut -d']' -f1)"
		local nlong; nlong=$(git log --format=%s base..$b | LC_ALL=C.UTF-8 awk 'length($0) > 75' | wc -l)
		if [ "$nlong" -gt 0 ]; then
			has "format $b: the subjects over 75 characters said" "$err" "warning: $nlong subject"
		else
			lacks "format $b: no subject over 75 characters, none said" "$err" "longer than 75"
		fi
		bad_rcpt=0 twice=0
		for m in "$scratch/kf-$b"/0*.patch; do
			[ -n "$(mail_rcpts "$m" | sed 's/.*<\(.*\)>$/\1/' | tr A-Z a-z | sort | uniq -d)" ] &&
				twice=$((twice + 1))
			case $m in *0000-cover-letter*) continue;; esac
			fp=$scratch/kfp-$b/${m##*/}
			want=$(cc_rcpts "$fp")
			got=$(mail_rcpts "$m")
			[ "$got" == "$want" ] || { bad_rcpt=$((bad_rcpt + 1)); [ $bad_rcpt -gt 3 ] ||
				bad "format $b ${m##*/}: To:+Cc: [$got], series cc of git's mail [$want]"; }
		done
		eq "format $b: mails whose recipients differ from series cc" "$bad_rcpt" 0
		eq "format $b: mails with an address twice" "$twice" 0
		m=$scratch/kf-$b/0000-cover-letter.patch
		eq "format $b: checkpatch.pl on the cover letter, beyond git's" \
			"$(kernel_checkpatch "$m" "$scratch/kfp-$b/0000-cover-letter.patch")" ""
		if [ $b = irq ]; then
			# the README's own example: check of the folder skips the
			# cover letter and checks every patch
			run check "$scratch/kf-$b"/*.patch
			eq "check $b mails: exit 1 (flagged)" "$rc" 1
			has "check $b mails: the cover letter skipped" "$err" "0000-cover-letter.patch: a cover letter, skipped"
			has "check $b mails: every patch counted" "$err" " of $n patches need"
		fi
		eq "format $b: the cover letter declares a charset if and only if 8-bit" \
			"$(grep -c '^Content-Type: text/plain; charset=UTF-8$' "$m")" \
			"$(LC_ALL=C grep -q $'[\x80-\xff]' "$m" && echo 1 || echo 0)"
	done
}

# kernel_checkpatch MAIL... GITS: the kinds of what checkpatch.pl reports
# in the MAILs that it does not report in GITS (git's mail of the same
# thing).
kernel_checkpatch() {
	local cp gits=${!#}; cp=$(kernel_tree)/scripts/checkpatch.pl
	comm -23 <(perl "$cp" --no-tree --terse --show-types "${@:1:$#-1}" | sed -n 's/^[^:]*:[0-9]*: \([A-Z]*:[A-Z_]*\):.*/\1/p' | sort -u) \
		<(perl "$cp" --no-tree --terse --show-types "$gits" | sed -n 's/^[^:]*:[0-9]*: \([A-Z]*:[A-Z_]*\):.*/\1/p' | sort -u)
}

# split of the ofm change as one diff: every file's diff in exactly one
# mail; git am of the mails gives the tree; the same with one mail a file
# for the irq change.
t_kernel_split() {
	kernel_fixture || return 0
	kernel_copy k-split
	local b by
	for b in ofm irq; do
		by=dir; [ $b = irq ] && by=file
		git diff base $b > "$scratch/ks-$b.diff"
		run split --by $by -F "$KFIX.$b.msg" -o "$scratch/ks-$b" "$scratch/ks-$b.diff"
		eq "split $b: exit" "$rc" 0
		eq "split $b: a mail a group and the cover letter" "$(ls "$scratch/ks-$b" | wc -l)" \
			$(( $(git rev-list --count base..$b) + 1 ))
		eq "split $b: each file's diff in exactly one mail" "$(perl -e '
			local $/; open my $d, "<", shift or die; my $t = <$d>;
			my @sec = grep { /^diff --git / } split /(?=^diff --git )/m, $t;
			my $all = ""; for my $m (@ARGV) { open my $f, "<", $m or die; $all .= <$f>; }
			my $once = 0;
			for my $s (@sec) { my ($c, $p) = (0, 0);
				while (($p = index($all, $s, $p)) >= 0) { $c++; $p++; }
				$once++ if $c == 1; }
			print $once, " of ", scalar @sec;' "$scratch/ks-$b.diff" "$scratch/ks-$b"/0*.patch)" \
			"$(grep -c '^diff --git ' "$scratch/ks-$b.diff") of $(grep -c '^diff --git ' "$scratch/ks-$b.diff")"
		kernel_am "split-$b" $b $(ls "$scratch/ks-$b"/*.patch | grep -v cover-letter)
	done
}

# regroup of the per-directory series per subsystem and back: the tree is
# the same each time, and the groups are plan's.
t_kernel_regroup() {
	kernel_fixture || return 0
	kernel_copy k-regroup
	local tree; tree=$(git rev-parse ofm^{tree})
	local nsub; nsub=$(groups_of "$("$SERIES" plan --by subsystem base..ofm)" | wc -l)
	# a template without the sign-off: every old commit carried the
	# user's, so every new one keeps it (no -s)
	run regroup --by subsystem -m 'SEDME: drop of_match_ptr()' base..HEAD
	eq "regroup --by subsystem: exit" "$rc" 0
	eq "regroup --by subsystem: the tree" "$(git rev-parse HEAD^{tree})" "$tree"
	eq "regroup --by subsystem: plan's groups" "$(git rev-list --count base..HEAD)" "$nsub"
	eq "regroup --by subsystem: every commit keeps the sign-off" \
		"$(git log --format='%(trailers:key=Signed-off-by,valueonly)' base..HEAD | grep -c '^Tess Ter <tess@example.org>$')" "$nsub"
	lacks "regroup --by subsystem: no sign-off named lost" "$err" "'Signed-off-by:"
	[ "$nsub" -ge 200 ] && ok || bad "regroup: only $nsub commits, not a 200+ series"
	run regroup --by dir -F "$KFIX.ofm.msg" base..HEAD
	eq "and back: exit" "$rc" 0
	eq "and back: the tree" "$(git rev-parse HEAD^{tree})" "$tree"
	eq "and back: the directories" "$(git log --format=%s base..HEAD)" "$(git log --format=%s base..ofm)"
	# a file moved to another subsystem on top: the rename stays one
	# change, in one commit, whatever the grouping
	local from; from=$(head -n 1 "$KFIX.ofm")
	mkdir -p lib && git mv "$from" "lib/moved-${from##*/}" && git commit -qm 'move one' || bad "the move"
	tree=$(git rev-parse HEAD^{tree})
	run regroup --by subsystem -F "$KFIX.ofm.msg" base..HEAD
	eq "with a rename: exit" "$rc" 0
	eq "with a rename: the tree" "$(git rev-parse HEAD^{tree})" "$tree"
	eq "with a rename: one commit has it, as a rename" \
		"$(git log -M --format= --name-status base..HEAD | grep -F "$from" | cut -f1,3 | sed "s/^R[0-9]*/R/")" "R	lib/moved-${from##*/}"
}

# trailers from an mbox of replies to 40 of the irq series' mails, by
# Message-ID for half and by subject for the rest: each tag lands on its
# commit once, and no other commit changes.
t_kernel_trailers() {
	kernel_fixture || return 0
	kernel_copy k-trailers
	git checkout -q irq
	local n i c subj k=0 ids=()
	n=$(git rev-list --count base..irq)
	mapfile -t ids < <(git rev-list --reverse base..irq)
	{
	for i in $(seq 1 $((n / 40)) "$n" | head -n 40); do
		c=${ids[$((i - 1))]}
		subj=$(git log -1 --format=%s "$c")
		k=$((k + 1))
		printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Rev %d <rev%d@example.org>\n' $k $k
		printf 'Subject: Re: [PATCH %d/%d] %s\nMessage-ID: <r%d@example.org>\n\n' "$i" "$n" "$subj" $k
		printf '> quoted text\n\nTested-by: Rev %d <rev%d@example.org>\n\n' $k $k
	done
	} > "$scratch/kt.mbox"
	run trailers "$scratch/kt.mbox" base..HEAD
	eq "trailers: exit" "$rc" 0
	eq "trailers: the tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse irq@{1}^{tree})"
	has "trailers: the summary" "$out" "40 trailers added to $n commits"
	local got want
	got=$(git log --reverse --format='%s%x09%(trailers:key=Tested-by,valueonly,separator=;)' base..HEAD | grep -n $'\t.' | sed 's/\t.*\t/\t/')
	want=$(k=0; for i in $(seq 1 $((n / 40)) "$n" | head -n 40); do k=$((k + 1)); printf '%d:%s\tRev %d <rev%d@example.org>\n' "$i" "$(git log -1 --format=%s "${ids[$((i - 1))]}")" $k $k; done)
	eq "trailers: each tag on its commit, once" "$got" "$want"
}

# format --split route of the 217 per-directory commits: every series at
# most 15 patches, applying to the base on its own unless it names what it
# needs, all together the tip's tree; every cover letter goes through git
# send-email --dry-run without a question; the i2c bus drivers' commit
# (i2c-omap.c and i2c-xiic.c among them, each listed by an ARM platform
# section too) goes to the i2c tree, while a file only a platform's tree
# maintains (arch/arm/mach-pxa) goes to the platform's.
t_kernel_format_split() {
	kernel_fixture || return 0
	kernel_copy ksplit
	git checkout -q ofm
	local out_dir=$scratch/ksplit-out d n bad_size=0 bad_am=0
	printf 'drop of_match_ptr()\n\nThe match table is built whether or not CONFIG_OF is set.\n' > "$scratch/ksplit.cover"
	run format --split route --cover "$scratch/ksplit.cover" -o "$out_dir" base..ofm
	eq "exit" "$rc" 0
	for d in "$out_dir"/*/; do
		n=$(ls "$d" | grep -vc cover-letter)
		[ "$n" -le 15 ] || bad_size=$((bad_size + 1))
		grep -qs '^prerequisite-patch-id:' "$d/0000-cover-letter.patch" && continue
		git checkout -q -f -B alone base
		git am -q $(ls -d "$d"* | grep -v cover-letter) > /dev/null 2>&1 ||
			{ bad_am=$((bad_am + 1)); git am --abort; }
	done
	eq "no series over 15 patches" "$bad_size" 0
	# on LKML, which every letter reaches, no two read alike
	eq "no two letters share a subject" "$(for d in "$out_dir"/*/0000-cover-letter.patch; do
		awk '/^Subject:/ { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' "$d"
	done | sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //' | sort | uniq -d)" ""
	eq "each series applies to the base alone" "$bad_am" 0
	git checkout -q -f -B together base
	for d in "$out_dir"/*/; do
		git am -q $(ls -d "$d"* | grep -v cover-letter) > /dev/null 2>&1 || { bad "together: $d"; git am --abort; break; }
	done
	eq "together: the tip's tree" "$(git rev-parse HEAD^{tree})" "$(git rev-parse ofm^{tree})"
	eq "together: every commit" "$(git rev-list --count base..HEAD)" "$(git rev-list --count base..ofm)"
	git checkout -q -f ofm
	# v2 of the same commits: each letter's range-diff holds its own
	# patches' blocks, all unchanged; a lone patch, with no letter, says
	# its own below its "---"
	run format --split route -v 2 -o "$scratch/ksplit-v2" base..ofm
	eq "v2: exit" "$rc" 0
	local mine own=0 letters=0 fates=0 lone=0 lone_said=0
	for d in "$scratch/ksplit-v2"/*/; do
		if [ ! -e "$d/v2-0000-cover-letter.patch" ]; then
			lone=$((lone + 1))
			grep -q '^- unchanged: ' "$d"v2-0001-*.patch &&
				grep -q '^Range-diff against v1:$' "$d"v2-0001-*.patch &&
				lone_said=$((lone_said + 1))
			continue
		fi
		letters=$((letters + 1))
		mine=$(sed -n '/^Range-diff of them against v1:/,/^$/p' "$d/v2-0000-cover-letter.patch" |
			sed -nE 's/^ {0,3}[0-9]+: +[0-9a-f]+ = +[0-9]+: +([0-9a-f]+) .*/\1/p' | sort)
		[ "$mine" = "$(ls "$d"v2-0*.patch | grep -v cover-letter | xargs -n 1 head -n 1 | cut -c 6-12 | sort)" ] &&
			own=$((own + 1))
		[ "$(grep -c '^- unchanged: ' "$d/v2-0000-cover-letter.patch")" = "$(ls "$d" | grep -vc cover-letter)" ] &&
			fates=$((fates + 1))
	done
	eq "v2: every letter's range-diff is its patches'" "$own" "$letters"
	eq "v2: every letter's fates are its patches', each unchanged" "$fates" "$letters"
	eq "v2: every lone patch says its fate and range-diff below ---" "$lone_said" "$lone"
	# git am takes the lone v2 patches back, their notes left out
	local lones; lones=$(for d in "$scratch/ksplit-v2"/*/; do
		[ -e "$d/v2-0000-cover-letter.patch" ] ||
			grep -L '^prerequisite-patch-id:' "$d"v2-0001-*.patch
	done)
	git checkout -q -f -B lone-v2 base
	git am -q $lones > /dev/null 2>&1 || { bad "v2: git am of the lone patches"; git am --abort; }
	eq "v2: every lone patch applied" "$(git rev-list --count base..HEAD)" "$(wc -l <<<"$lones")"
	lacks "v2: no note in a message" "$(git log --format=%B base..HEAD)" "Range-diff"
	git checkout -q -f ofm
	local i2c pxa
	i2c=$(grep -l '^+++ b/drivers/i2c/busses/i2c-xiic.c' "$out_dir"/*/*.patch | sed 's|.*/\([^/]*\)/[^/]*$|\1|')
	has "i2c-omap.c with i2c-xiic.c" "$(ls -d "$out_dir/$i2c"/* | xargs grep -l '^+++ b/drivers/i2c/busses/i2c-omap.c')" "$i2c"
	has "the i2c series goes to the i2c tree" "$(cat "$out_dir"/*/0000-cover-letter.patch)" "  $i2c (1 patch):
    git://git.kernel.org/pub/scm/linux/kernel/git/wsa/linux.git"
	pxa=$(grep -l '^+++ b/arch/arm/mach-pxa/' "$out_dir"/*/*.patch | head -n 1 | sed 's|.*/\([^/]*\)/[^/]*$|\1|')
	lacks "the platform's file is not in the i2c series" "$pxa" "$i2c"
	lacks "the platform's series goes to no i2c tree" "$(grep -h -A 1 "^  $pxa (" "$out_dir"/*/0000-cover-letter.patch | head -n 2)" "wsa/linux.git"
	# the others' trees are wrapped at 75 columns: checkpatch.pl finds
	# nothing in any letter that git's own cover letter does not draw
	git format-patch -q --cover-letter -o "$scratch/ksplit-git" ofm~2..ofm
	eq "checkpatch.pl on every letter, beyond git's" \
		"$(kernel_checkpatch "$out_dir"/*/0000-cover-letter.patch "$scratch/ksplit-git/0000-cover-letter.patch")" ""
	if [ -e "$(git --exec-path)/git-send-email" ] &&
	   perl -e 'use lib split(/:/, $ENV{GITPERLLIB} || "/usr/share/perl5"); require Git::LoadCPAN::Mail::Address;' 2>/dev/null; then
		local sent
		sent=$(git send-email --dry-run --confirm=never --suppress-cc=all "$out_dir"/*/0000-cover-letter.patch 2>&1 </dev/null); rc=$?
		eq "send-email --dry-run of every cover letter: exit" "$rc" 0
		eq "every letter sent" "$(grep -c '^Result: OK' <<<"$sent")" "$(ls "$out_dir"/*/0000-cover-letter.patch | wc -l)"
		lacks "no question: recipients" "$sent" "Who should the emails be sent to"
		lacks "no question: reply" "$sent" "Message-ID to be used as In-Reply-To"
		lacks "no question: sending" "$sent" "Send this email?"
	fi
}

# No two patches share a subject, in any organisation of either change,
# with SEDME or %(prefix): a shared one tells neither maintainers nor the
# reply matcher which patch is meant.
t_kernel_distinct_subjects() {
	kernel_fixture || return 0
	local b by m shared
	for b in ofm irq; do
		for by in dir file subsystem maintainers route; do
			for m in 'SEDME: x' '%(prefix)x'; do
				shared=$("$SERIES" plan --by $by -m "$m" base..$b 2>/dev/null |
					sed -n 's/^    subject: //p' | sort | uniq -d | head -n 3 | tr '\n' ';')
				eq "$b --by $by -m '$m': no subject shared" "$shared" ""
			done
		done
	done
}
