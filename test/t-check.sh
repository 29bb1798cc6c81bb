# t-check.sh - series check: conversions that need the hardware, each rule
# firing on a realistic patch and quiet on a safe one; who could test; and
# the warnings of plan and format.  The drivers are cut down from
# linux-source-6.1's drivers/i2c/busses/i2c-bcm2835.c (a shared IRQ) and a
# plain one with a clock.

# bcm_driver: the probe and remove() of i2c-bcm2835, as 6.1 has them.
bcm_driver() {
	cat <<'C'
static int bcm2835_i2c_probe(struct platform_device *pdev)
{
	struct bcm2835_i2c_dev *i2c_dev;
	int ret;

	ret = clk_prepare_enable(i2c_dev->bus_clk);
	if (ret) {
		dev_err(&pdev->dev, "Couldn't prepare clock");
		goto err_put_exclusive_rate;
	}

	i2c_dev->irq = platform_get_irq(pdev, 0);
	if (i2c_dev->irq < 0) {
		ret = i2c_dev->irq;
		goto err_disable_unprepare_clk;
	}

	ret = request_irq(i2c_dev->irq, bcm2835_i2c_isr, IRQF_SHARED,
			  dev_name(&pdev->dev), i2c_dev);
	if (ret) {
		dev_err(&pdev->dev, "Could not request IRQ\n");
		goto err_disable_unprepare_clk;
	}

	ret = i2c_add_adapter(adap);
	if (ret)
		goto err_free_irq;

	return 0;

err_free_irq:
	free_irq(i2c_dev->irq, i2c_dev);
err_disable_unprepare_clk:
	clk_disable_unprepare(i2c_dev->bus_clk);
err_put_exclusive_rate:
	clk_rate_exclusive_put(i2c_dev->bus_clk);

	return ret;
}

static int bcm2835_i2c_remove(struct platform_device *pdev)
{
	struct bcm2835_i2c_dev *i2c_dev = platform_get_drvdata(pdev);

	clk_rate_exclusive_put(i2c_dev->bus_clk);
	clk_disable_unprepare(i2c_dev->bus_clk);

	free_irq(i2c_dev->irq, i2c_dev);
	i2c_del_adapter(&i2c_dev->adapter);

	return 0;
}

static struct platform_driver bcm2835_i2c_driver = {
	.probe		= bcm2835_i2c_probe,
	.remove		= bcm2835_i2c_remove,
	.driver		= {
		.name	= "i2c-bcm2835",
		.of_match_table = of_match_ptr(bcm2835_i2c_of_match),
	},
};
C
}

# The devm_request_irq() conversion of the 2013 review, applied to it.
devm_irq_conversion() {
	perl -0pi -e '
		s/ret = request_irq\(i2c_dev->irq, bcm2835_i2c_isr, (IRQF_SHARED|0),\n\t\t\t  dev_name/ret = devm_request_irq(&pdev->dev, i2c_dev->irq, bcm2835_i2c_isr,\n\t\t\t       $1, dev_name/;
		s/\t\tgoto err_free_irq;/\t\tgoto err_disable_unprepare_clk;/;
		s/err_free_irq:\n\tfree_irq\(i2c_dev->irq, i2c_dev\);\n//;
		s/\n\tfree_irq\(i2c_dev->irq, i2c_dev\);\n\ti2c_del_adapter/\n\ti2c_del_adapter/;
	' "$1"
}

chk_repo() {
	newrepo "$1"
	mkdir -p drivers/i2c/busses
	bcm_driver > drivers/i2c/busses/i2c-bcm2835.c
	cat > MAINTAINERS <<'M'
BROADCOM BCM2835 ARM ARCHITECTURE
M:	Florian Fainelli <ff@example.org>
L:	linux-rpi-kernel@example.org (moderated for non-subscribers)
S:	Maintained
F:	drivers/i2c/busses/i2c-bcm2835.c
M
	commit_all "i2c: bcm2835: base"
	echo '/* a fix */' >> drivers/i2c/busses/i2c-bcm2835.c
	git commit -q -a -m "i2c: bcm2835: a fix

Tested-by: Stefan Board <stefan@example.org>"
	echo '/* another */' >> drivers/i2c/busses/i2c-bcm2835.c
	git commit -q -a -m "i2c: bcm2835: another fix

Tested-by: Nora Newer <nora@example.org>
Tested-by: Stefan Board <stefan@example.org>"
	CB=$(git rev-parse HEAD)
}

t_check_devm_shared_irq() {
	chk_repo chk-shared
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run check "$CB..HEAD"
	eq "shared irq: exit 1" "$rc" 1
	local line; line=$(grep -n 'devm_request_irq' drivers/i2c/busses/i2c-bcm2835.c | cut -d: -f1)
	has "shared irq: flagged at its line" "$out" "drivers/i2c/busses/i2c-bcm2835.c:$line: a shared interrupt (IRQF_SHARED) becomes devm-managed"
	has "shared irq: the rule" "$out" "[devm-irq-shared]"
	lacks "shared irq: one interrupt finding" "$out" "[devm-irq-remove]"
	has "free_irq leaves remove()" "$out" "[cleanup-removed]"
	has "who: past testers, most recent first" "$out" "    tested these files before:
        Nora Newer <nora@example.org>
        Stefan Board <stefan@example.org>"
	has "who: the maintainers" "$out" "    maintainers:
        Florian Fainelli <ff@example.org>"
	has "the advice" "$err" "send it one by one (series format --individual) and ask for Tested-by:"
	# the same as a mail, outside any repository
	git format-patch -q -1 -o "$scratch/chk-mail"
	mkdir -p "$scratch/chk-out" && cd "$scratch/chk-out"
	run check "$scratch"/chk-mail/0001-*.patch
	eq "a mail: exit 1" "$rc" 1
	has "a mail: the hunk alone says IRQF_SHARED" "$out" "[devm-irq-shared]"
	# the mail under review, as the seed's reviewer had it: the tree
	# at hand is the pre-image, with the plain request_irq()
	cd "$scratch/chk-shared" && git checkout -q "$CB"
	run check "$scratch"/chk-mail/0001-*.patch
	eq "the pre-image checked out: exit 1" "$rc" 1
	has "the pre-image checked out: the patch's flags" "$out" "[devm-irq-shared]"
	lacks "the pre-image checked out: not the remove rule" "$out" "[devm-irq-remove]"
}

# Nothing to test on the board: one line says what was checked (silence
# would not say whether anything was looked at), exit 0.
t_check_nothing_flagged() {
	chk_repo chk-none
	echo '/* a comment */' >> drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: a comment"
	run check "$CB..HEAD"
	eq "exit" "$rc" 0
	eq "nothing on stdout" "$out" ""
	eq "one line" "$err" "series: 1 patch (1 file) checked: none needs testing on the hardware"
}

t_check_devm_irq_remove() {
	chk_repo chk-remove
	# not shared, and remove() leaves the interrupt live
	sed -i 's/IRQF_SHARED/0/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "not shared"
	local base; base=$(git rev-parse HEAD)
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run check "$base..HEAD"
	eq "irq remove: exit 1" "$rc" 1
	has "irq remove: the rule" "$out" "[devm-irq-remove]"
	lacks "irq remove: not shared" "$out" "[devm-irq-shared]"
	# quiet: remove() disables the interrupt itself
	git reset -q --hard "$base"
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	sed -i 's/^\ti2c_del_adapter(&i2c_dev->adapter);/\tdisable_irq(i2c_dev->irq);\n\ti2c_del_adapter(\&i2c_dev->adapter);/' drivers/i2c/busses/i2c-bcm2835.c
	has "irq remove: converted" "$(cat drivers/i2c/busses/i2c-bcm2835.c)" "disable_irq(i2c_dev->irq);
	i2c_del_adapter"
	has "irq remove: converted too" "$(cat drivers/i2c/busses/i2c-bcm2835.c)" "devm_request_irq(&pdev->dev, i2c_dev->irq"
	git commit -qam "i2c: bcm2835: Use devm_request_irq(), and disable it in remove()"
	run check "$base..HEAD"
	lacks "irq remove: quiet when remove() disables it" "$out" "[devm-irq-"
}

t_check_teardown_order() {
	chk_repo chk-clk
	perl -0pi -e 's/\tret = clk_prepare_enable\(i2c_dev->bus_clk\);/\ti2c_dev->bus_clk = devm_clk_get_enabled(&pdev->dev, NULL);\n\tret = PTR_ERR_OR_ZERO(i2c_dev->bus_clk);/; s/\tclk_disable_unprepare\(i2c_dev->bus_clk\);\n\n\tfree_irq/\n\tfree_irq/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_clk_get_enabled()"
	run check "$CB..HEAD"
	eq "teardown: exit 1" "$rc" 1
	has "teardown: the rule" "$out" "[devm-teardown-order]"
	has "teardown: clk_disable_unprepare leaves remove()" "$out" "[cleanup-removed]"
}

t_check_quiet() {
	chk_repo chk-quiet
	# the of_match_ptr() removal: nothing for the hardware
	sed -i 's/of_match_ptr(bcm2835_i2c_of_match)/bcm2835_i2c_of_match/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Drop of_match_ptr()"
	# a cleanup call that moves within remove() is no removal
	perl -0pi -e 's/\n\tfree_irq\(i2c_dev->irq, i2c_dev\);\n\ti2c_del_adapter\(&i2c_dev->adapter\);/\n\ti2c_del_adapter(&i2c_dev->adapter);\n\tfree_irq(i2c_dev->irq, i2c_dev);/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: free the irq last"
	# a devm_request_irq() in a driver with no remove(), not shared
	mkdir -p drivers/misc
	printf 'static int foo_probe(struct platform_device *pdev)\n{\n\treturn request_irq(irq, foo_isr, 0, "foo", foo);\n}\n\nstatic struct platform_driver foo_driver = {\n\t.probe = foo_probe,\n};\n' > drivers/misc/foo.c
	git add drivers/misc/foo.c; git commit -qm "misc: foo"
	local base; base=$(git rev-parse HEAD)
	sed -i 's/return request_irq(irq,/return devm_request_irq(\&pdev->dev, irq,/' drivers/misc/foo.c
	has "quiet: foo converted" "$(cat drivers/misc/foo.c)" "devm_request_irq(&pdev->dev, irq,"
	has "quiet: free_irq moved" "$(cat drivers/i2c/busses/i2c-bcm2835.c)" "i2c_del_adapter(&i2c_dev->adapter);
	free_irq(i2c_dev->irq, i2c_dev);" 
	git commit -qam "misc: foo: devm"
	run check "$CB..HEAD"
	eq "quiet: exit 0" "$rc" 0
	eq "quiet: nothing said" "$out" ""
	# usage and bad input
	run check -h
	has "-h: what exit 1 means here" "$out" "exit: 0 done, 1 something needs the hardware"
	run check "$CB..HEAD" x.patch
	eq "a range goes alone: usage" "$rc" 2
	run check /nonexistent.patch
	eq "a missing patch: exit 3" "$rc" 3
	printf 'not a diff\n' > "$scratch/nodiff.patch"
	run check "$scratch/nodiff.patch"
	eq "no diff: exit 3" "$rc" 3
}

# plan and format say it too, and point at --individual.
t_check_in_plan_and_format() {
	chk_repo chk-pf
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	run plan
	eq "plan: exit" "$rc" 0
	has "plan (work tree): the warning" "$err" "series: warning: drivers/i2c/busses needs testing on the hardware (devm-irq-shared at drivers/i2c/busses/i2c-bcm2835.c:"
	has "plan: --individual" "$err" "series format --individual"
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run plan "$CB..HEAD"
	has "plan (range): the warning" "$err" "needs testing on the hardware (devm-irq-shared"
	run format -o "$scratch/chk-fmt" "$CB..HEAD"
	eq "format: exit" "$rc" 0
	has "format: the warning names the mail" "$err" "series: warning: 0001-i2c-bcm2835-Use-devm_request_irq.patch needs testing on the hardware"
	has "format: --individual advised" "$err" "send such patches one by one (series format --individual) and ask for Tested-by:"
	lacks "format: the command threads the mails" "$err" "--no-thread"
	run format --individual -o "$scratch/chk-fmt-1" "$CB..HEAD"
	eq "format --individual: exit" "$rc" 0
	has "format --individual: the warning asks for a test" "$err" "needs testing on the hardware (devm-irq-shared at drivers/i2c/busses/i2c-bcm2835.c:"
	lacks "format --individual: not for --individual again" "$err" "--individual"
	has "format --individual: no patch sent as a reply to another" "$err" "git send-email --dry-run --no-thread $scratch/chk-fmt-1/*.patch
    git send-email --no-thread $scratch/chk-fmt-1/*.patch"
}

# cpm_driver: i2c-cpm's request in a setup function, its free_irq() on an
# error path and in the shutdown remove() calls, as 6.1 has them (cut).
cpm_driver() {
	cat <<'C'
static int cpm_i2c_setup(struct cpm_i2c *cpm)
{
	int ret;

	ret = request_irq(cpm->irq, cpm_i2c_interrupt, 0, "cpm_i2c",
			  &cpm->adap);
	if (ret)
		return ret;

	i2c_base = of_iomap(ofdev->dev.of_node, 1);
	if (i2c_base == NULL) {
		ret = -EINVAL;
		goto out_irq;
	}
	return 0;

out_irq:
	free_irq(cpm->irq, &cpm->adap);
	return ret;
}

static void cpm_i2c_shutdown(struct cpm_i2c *cpm)
{
	out_8(&cpm->i2c_reg->i2cmr, 0);

	free_irq(cpm->irq, &cpm->adap);

	iounmap(cpm->i2c_reg);
}

static int cpm_i2c_remove(struct platform_device *ofdev)
{
	struct cpm_i2c *cpm = platform_get_drvdata(ofdev);

	cpm_i2c_shutdown(cpm);
	return 0;
}

static struct platform_driver cpm_i2c_driver = {
	.probe		= cpm_i2c_probe,
	.remove		= cpm_i2c_remove,
};
C
}

# A release dropped while the plain request it paired with stays: nothing
# frees the interrupt, wherever the release was.  Dropped from an error
# path alone (the label before it), the remove() side still frees it: the
# error path is flagged.  With the request made devm, neither.
t_check_release_unmanaged() {
	newrepo chk-cpm
	mkdir -p drivers/i2c/busses
	local f=drivers/i2c/busses/i2c-cpm.c
	cpm_driver > "$f"
	commit_all "i2c: cpm: base"
	local base line; base=$(git rev-parse HEAD)
	line=$(grep -n 'free_irq(' "$f" | head -n 1 | cut -d: -f1)
	sed -i '/^\tfree_irq(/d' "$f"
	git commit -qam "i2c: cpm: drop free_irq()"
	run check HEAD~1..HEAD
	eq "both gone: exit 1" "$rc" 1
	has "both gone: nothing frees it" "$out" "$f:$line: a cleanup call goes while the plain call it paired with stays: nothing releases the resource now"
	has "the rule" "$out" "[release-unmanaged]"
	lacks "one finding of the family" "$out" "[cleanup-removed]"
	git reset -q --hard "$base"
	sed -i '/^out_irq:$/{n;d}' "$f"
	git commit -qam "i2c: cpm: drop the error path's free_irq()"
	run check HEAD~1..HEAD
	eq "error path: exit 1" "$rc" 1
	has "error path: flagged, its label before the change" "$out" "$f:$line: an explicit cleanup call leaves remove() or an error path"
	lacks "error path: remove() still frees it" "$out" "[release-unmanaged]"
	git reset -q --hard "$base"
	sed -i '/^\tfree_irq(/d; s/ret = request_irq(cpm->irq,/ret = devm_request_irq(\&ofdev->dev, cpm->irq,/' "$f"
	git commit -qam "i2c: cpm: use devm_request_irq()"
	run check HEAD~1..HEAD
	lacks "made devm: not unpaired" "$out" "[release-unmanaged]"
}

# IRQF_SHARED read from the call's flags, not from a comment: flags 0 and
# the word only in a note is devm-irq-remove; flags through a variable set
# to IRQF_SHARED is shared; a shared call whose flags are an expression
# with parentheses is shared.
t_check_shared_from_the_call() {
	chk_repo chk-comment
	sed -i 's/IRQF_SHARED,/0,/; s|^\ti2c_dev->irq = platform_get_irq(pdev, 0);|\t/* not IRQF_SHARED: the line is ours alone */\n&|' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "a comment"
	local base; base=$(git rev-parse HEAD)
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run check "$base..HEAD"
	eq "comment: exit 1" "$rc" 1
	has "comment: the remove rule" "$out" "[devm-irq-remove]"
	lacks "comment: not shared" "$out" "[devm-irq-shared]"
	git format-patch -q -1 -o "$scratch/chk-comment-mail"
	run check "$scratch"/chk-comment-mail/0001-*.patch
	lacks "comment, as a mail: not shared" "$out" "[devm-irq-shared]"
	# the flags as an expression with parentheses
	git reset -q --hard "$base"
	sed -i 's/bcm2835_i2c_isr, 0,/bcm2835_i2c_isr, (IRQF_SHARED | IRQF_ONESHOT),/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "shared after all"
	base=$(git rev-parse HEAD)
	perl -0pi -e 's/ret = request_irq\(i2c_dev->irq, bcm2835_i2c_isr, \(IRQF_SHARED \| IRQF_ONESHOT\),/ret = devm_request_irq(&pdev->dev, i2c_dev->irq, bcm2835_i2c_isr, (IRQF_SHARED | IRQF_ONESHOT),/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run check "$base..HEAD"
	has "expression: shared" "$out" "[devm-irq-shared]"
	# the flags in a variable: IRQF_SHARED in the code decides
	git reset -q --hard "$base"
	sed -i 's/bcm2835_i2c_isr, (IRQF_SHARED | IRQF_ONESHOT),/bcm2835_i2c_isr, flags,/; s|^\tint ret;|\tunsigned long flags = IRQF_SHARED;\n&|' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "flags"
	base=$(git rev-parse HEAD)
	sed -i 's/ret = request_irq(i2c_dev->irq, bcm2835_i2c_isr, flags,/ret = devm_request_irq(\&pdev->dev, i2c_dev->irq, bcm2835_i2c_isr, flags,/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	run check "$base..HEAD"
	has "variable: shared" "$out" "[devm-irq-shared]"
}

# check of a folder of mails, the README's example: the cover letter is
# skipped (said on stderr), the patches are checked.
t_check_skips_the_cover_letter() {
	chk_repo chk-cover
	devm_irq_conversion drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Use devm_request_irq()"
	sed -i 's/of_match_ptr(bcm2835_i2c_of_match)/bcm2835_i2c_of_match/' drivers/i2c/busses/i2c-bcm2835.c
	git commit -qam "i2c: bcm2835: Drop of_match_ptr()"
	"$SERIES" format -o "$scratch/chk-cover" HEAD~2..HEAD >/dev/null 2>&1
	[ -f "$scratch/chk-cover/0000-cover-letter.patch" ] || bad "no cover letter"
	run check "$scratch"/chk-cover/*.patch
	eq "exit 1: flagged" "$rc" 1
	has "the conversion flagged" "$out" "[devm-irq-shared]"
	has "the cover letter skipped, said" "$err" "0000-cover-letter.patch: a cover letter, skipped"
	has "two patches counted" "$err" "1 of 2 patches needs testing"
	# git's own cover letter, too
	git format-patch -q --cover-letter -o "$scratch/chk-cover-git" HEAD~2..HEAD
	run check "$scratch"/chk-cover-git/*.patch
	eq "git's: exit 1" "$rc" 1
}
