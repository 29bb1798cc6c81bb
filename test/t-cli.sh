# t-cli.sh - the command-line conventions every command shares (git's):
# CMD -h is help on stdout; a usage error is one line naming it, then that
# command's synopsis, on stderr, exit 2, nothing on stdout.

# usage_error WHAT WANT-LINE ARGS...: series ARGS is a usage error saying WANT-LINE.
usage_error() {
	local what=$1 want=$2; shift 2
	run "$@"
	eq "$what: exit" "$rc" 2
	eq "$what: nothing on stdout" "$out" ""
	eq "$what: the reason first" "$(head -n 1 <<<"$err")" "$want"
	eq "$what: then the synopsis, once" "$(tail -n +2 <<<"$err")" "usage: series $(sed -n "s/^       series \\($1 .*\\)/\\1/p" <<<"$help" | head -n 1)"
}

t_cli_conventions() {
	newrepo cli
	echo 1 > f; commit_all; echo 2 >> f
	local help; help=$("$SERIES" -h)
	local cmd
	for cmd in plan commit split cc; do
		run "$cmd" -h
		eq "$cmd -h exits 0" "$rc" 0
		eq "$cmd -h: nothing on stderr" "$err" ""
		has "$cmd -h: its synopsis" "$out" "usage: series $cmd "
		has "$cmd -h: the exit codes" "$out" "2 usage"
		has "series -h lists $cmd" "$help" "series $cmd "
	done
	run plan -h
	has "plan -h: one line an option" "$out" "    --depth N "
	run commit -h
	has "commit -h: its own options" "$out" "--no-verify"
	run cc -h
	has "cc -h: the script's switches" "$out" "--no-l"
	usage_error "missing value" "series: plan: --by needs a value" plan --by
	usage_error "bad choice" "series: plan: --by: bad value 'frob' (dir, file, tree, subsystem, maintainers, route)" plan --by frob
	usage_error "bad number" "series: plan: --depth: bad value 'x' (1 to 4096)" plan --depth x
	usage_error "unknown option" "series: commit: unknown option '--frob'" commit -m x --frob
	usage_error "stray word" "series: plan: unknown argument 'f' (paths go after --; a range is BASE..TIP)" plan f
	usage_error "stray word: commit" "series: commit: unknown argument 'f' (paths go after --)" commit -m x f
	usage_error "no template" "series: commit: a message template is required (-F FILE or -m MSG)" commit
	usage_error "-F and -m" "series: commit: -F and -m cannot be used together" commit -F x -m y
	usage_error "cc: no patch" "series: cc: no patch or file given" cc
	usage_error "cc: unknown" "series: cc: unknown option '--frob'" cc --frob x.patch
	usage_error "cc: --maintainers" "series: cc: --maintainers needs a value" cc x.patch --maintainers
	run plan --by=file
	eq "--long=value" "$rc" 0
	run plan --depth=1 -- f
	eq "--depth=1 and a pathspec" "$rc" 0
}

# The synopses: `series -h`, each `series CMD -h`, a usage error and the
# README's Commands block say the same, for every command, and each
# command's help lists what its exit 1 means.
t_cli_synopses() {
	local help readme cmd line want
	help=$("$SERIES" -h | sed -n 's/^ *series \([a-z]\)/\1/p' | tr -s ' ')
	# the README's block, a continuation line joined to its command's line
	readme=$(sed -n '/^Commands$/,/^    series -h /p' "$here/../README" |
		sed '1,2d;$d' | awk '/^    series /{ if (l) print l; l=$0; next } { l = l $0 } END { print l }' |
		sed 's/^ *series //' | tr -s ' ')
	eq "series -h and the README's Commands block" "$help" "$readme"
	eq "every command has a synopsis" "$(cut -d' ' -f1 <<<"$help" | tr '\n' ' ')" \
		"plan commit check format trailers status respin split regroup cc "
	while read -r cmd line; do
		run "$cmd" -h
		eq "$cmd -h: the synopsis of series -h" "$(head -n 1 <<<"$out" | tr -s ' ')" "usage: series $cmd $line"
		has "$cmd -h: what exit 1 means" "$out" "exit: 0 done, 1 "
	done <<<"$help"
	run check -h
	has "check -h: exit 1" "$out" "1 something needs the hardware,"
	run format -h
	has "format -h: --include" "$out" "    --include GLOB "
	has "series -h: format --include" "$help" "format [-o DIR] [--to ADDR]... [--cc ADDR]... [--all-cc] [--rfc] [-v N [--prev OLD-BASE..OLD-TIP]] [--include GLOB]..."
	run plan -h
	has "plan -h: %(prefix) as it is" "$out" "%(prefix) the subject prefix its history uses"
	lacks "plan -h: no stale words" "$out" "SEDME and"
	run regroup -m x
	eq "regroup: usage error's synopsis" "$(tail -n 1 <<<"$err" | tr -s ' ')" "usage: series $(grep '^regroup ' <<<"$help")"
}

# make demo's script: the main job end to end on the tree it makes, its
# every step's output as a newcomer reads it, and nothing left behind.
t_demo() {
	# a folder of its own: another suite's demo may run beside this one
	local tmp=$scratch/demo-tmp
	mkdir -p "$tmp"
	out=$(TMPDIR=$tmp SERIES=$SERIES bash "$here/demo" 2>&1); rc=$?
	eq "exit" "$rc" 0
	has "the pattern's change" "$out" " M drivers/spi/spi-qux.c"
	has "compare: subsystem" "$out" "subsystem           3                2            3               1            3"
	has "commit" "$out" "3 commits, 5 files on refs/heads/main: "
	has "format" "$out" "series: 4 mails; check, then send:"
	has "a mail's To:" "$out" "    Subject: [PATCH 2/3] drivers/i2c/busses: drop of_match_ptr()
    To: Wolfram Sang <wsa@example.org>
    Cc: linux-i2c@vger.kernel.org"
	has "the cover letter to every list" "$out" "    Cc: linux-gpio@vger.kernel.org,
     linux-i2c@vger.kernel.org,
     linux-spi@vger.kernel.org"
	eq "its folder removed" "$(ls "$tmp" | wc -l)" 0
}

# A slip of a command's or an option's name gets git's "did you mean";
# a word near nothing gets none; either way exit 2 and the synopsis.
t_cli_did_you_mean() {
	run comit
	eq "command: exit" "$rc" 2
	has "command: the guess" "$err" "series: unknown command 'comit' (did you mean 'commit'?)"
	run fromat
	has "swapped letters" "$err" "(did you mean 'format'?)"
	run plan --compre
	eq "option: exit" "$rc" 2
	has "option: the guess" "$err" "series: plan: unknown option '--compre' (did you mean '--compare'?)"
	has "option: the synopsis" "$err" "usage: series plan"
	run frobnicate
	eq "nothing near: no guess" "$(head -n 1 <<<"$err")" "series: unknown command 'frobnicate'"
	run plan --frobnicate
	eq "no option near: no guess" "$(head -n 1 <<<"$err")" "series: plan: unknown option '--frobnicate'"
}

# A failed write to stdout (a full disk, a closed pipe) is said once the
# command is done, exit 3: not lost, and no transaction cut short by it.
t_cli_stdout_failed() {
	newrepo full
	mkdir a b; echo 1 > a/f; echo 1 > b/f; commit_all
	echo 2 >> a/f; echo 2 >> b/f
	"$SERIES" plan >/dev/full 2>"$scratch/stderr"; rc=$?
	eq "plan: exit" "$rc" 3
	eq "plan: the reason" "$(cat "$scratch/stderr")" "series: stdout: No space left on device"
	"$SERIES" commit -m 'SEDME: x' >/dev/full 2>"$scratch/stderr"; rc=$?
	eq "commit: exit" "$rc" 3
	eq "commit: the commits made all the same" "$(git log --format=%s | head -n 2 | sort | tr '\n' ' ')" "a: x b: x "
	eq "commit: the work tree clean" "$(git status --porcelain)" ""
	run plan
	eq "then plan: nothing to do" "$rc" 1
}

# The README's Quick start, its first block run line by line as a user
# pastes it, in a fresh clone of a tree with a MAINTAINERS, on a topic
# branch without an upstream: every line succeeds (check may say 1:
# something to test), and git send-email --dry-run takes the mails
# without --force or a question.
t_quick_start_as_written() {
	if [ ! -e "$(git --exec-path)/git-send-email" ] || ! perl -MMail::Address -e 1 2>/dev/null; then
		echo "SKIP t_quick_start_as_written: git send-email cannot run here (git-email, libmailtools-perl)"; return
	fi
	newrepo qs-up
	mkdir -p drivers/i2c/busses drivers/gpio drivers/spi
	local f line n=0
	for f in drivers/i2c/busses/i2c-foo.c drivers/gpio/gpio-baz.c drivers/spi/spi-qux.c; do
		printf 'static struct platform_driver d = {\n\t.driver = {\n\t\t.of_match_table = of_match_ptr(ids),\n\t},\n};\n' > "$f"
	done
	printf '%s\n' 'GPIO SUBSYSTEM' 'M:	Linus Walleij <linus.walleij@example.org>' \
		'L:	linux-gpio@example.org' 'S:	Maintained' 'F:	drivers/gpio/' '' \
		'I2C SUBSYSTEM' 'M:	Wolfram Sang <wsa@example.org>' 'L:	linux-i2c@example.org' \
		'S:	Maintained' 'F:	drivers/i2c/' '' 'SPI SUBSYSTEM' \
		'M:	Mark Brown <broonie@example.org>' 'L:	linux-spi@example.org' \
		'S:	Maintained' 'F:	drivers/spi/' > MAINTAINERS
	commit_all
	git clone -q "$scratch/qs-up" "$scratch/qs" && cd "$scratch/qs" || return
	mkdir -p "$scratch/qs-bin" && ln -s "$SERIES" "$scratch/qs-bin/series"
	local lines; lines=$(awk '/^Quick start$/ { q = 1 } q && /^    / { print substr($0, 5); b = 1; next }
		q && b { exit }' "$here/../README")
	[ "$(wc -l <<<"$lines")" -ge 8 ] && ok || bad "the Quick start block not found: [$lines]"
	while IFS= read -r line; do
		n=$((n + 1))
		out=$(PATH=$scratch/qs-bin:$PATH bash -c "$line" 2>&1 < /dev/null); rc=$?
		case $line in
		"series check"*) [ "$rc" -le 1 ] && ok || bad "line $n, $line: exit $rc: $out";;
		*) eq "line $n, $line: exit" "$rc" 0;;
		esac
	done <<<"$lines"
	has "the last line sent them all (dry run)" "$out" "Result: OK"
	eq "a cover letter and three patches, each OK" "$(grep -c '^Result: OK' <<<"$out")" 4
	eq "on the topic branch, with no upstream" "$(git rev-parse --abbrev-ref HEAD) $(git rev-parse -q --verify "@{upstream}" 2>/dev/null || echo none)" "drop-of-match-ptr none"
}
