#define _POSIX_C_SOURCE 200809L
/* unit-cc.c - unit tests of the regex engine, the patch scanner, and the
 * MAINTAINERS parser's refusals, through series.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "series.h"
#include "unit.h"

/* 1 match, 0 no match, -1 refused at compile time */
static int rx(const char *pat, const char *subject, int xflag)
{
	struct sbuf err = SBUF_INIT;
	struct regex *re = re_compile(pat, strlen(pat), xflag, &err);
	int r = -1;

	if (re) {
		r = re_search(re, subject, strlen(subject), 0);
		re_free(re);
	}
	sb_release(&err);
	return r;
}

/* re_search_lines() over a text of lines equals re_search() on each line:
 * the subject between two other lines, as a diff's '+' line (skip 1). */
static void check_lines(const char *pat, const char *subject)
{
	struct sbuf err = SBUF_INIT;
	struct regex *re = re_compile(pat, strlen(pat), 0, &err);
	struct kwtext kw = KWTEXT_INIT;
	const char *other[] = { "Clone3 clang_ptp sifive@x phylink_x LLVM\n",
				"\n", "_bpf_ colour aab Rust\n" };
	struct sbuf line = SBUF_INIT;
	int want = 0;

	if (!re) {
		/* a pattern of the table that does not compile tests nothing */
		printf("FAIL check_lines: /%s/ does not compile: %s\n", pat,
		       err.buf);
		unit_fail++;
		sb_release(&err);
		return;
	}
	kwtext_add(&kw, other[0], strlen(other[0]), 0);
	sb_addc(&line, '+');
	sb_adds(&line, subject);
	sb_addc(&line, '\n');
	kwtext_add(&kw, line.buf, line.len, 1);
	kwtext_add(&kw, other[1], strlen(other[1]), 0);
	kwtext_add(&kw, other[2], strlen(other[2]), 0);
	for (size_t l = 0; l < kw.nline; l++)
		want |= re_search(re, kw.text.buf + kw.line[l].off,
				  kw.line[l].len, kw.line[l].skip);
	int got = re_search_lines(re, kw.text.buf, kw.text.len, kw.line, kw.nline);
	if (got != want)
		printf("FAIL re_search_lines /%s/ around \"%s\": got %d want %d\n",
		       pat, subject, got, want);
	CHECK(got == want);
	/* the subject alone, not the other lines */
	got = re_search_lines(re, kw.text.buf, kw.text.len, kw.line + 1, 1);
	want = re_search(re, line.buf, line.len, 1);
	CHECK(got == want);
	kwtext_release(&kw);
	sb_release(&line);
	re_free(re);
}

static void test_regex_table(void)
{
	static const struct { const char *pat, *s; int want; } t[] = {
		{ "abc", "xxabcxx", 1 }, { "abc", "ab", 0 }, { "", "", 1 },
		{ "a.c", "a\nc", 0 }, { "a.c", "abc", 1 },
		{ "^ab", "ab", 1 }, { "^ab", "cab", 0 }, { "ab$", "xab\n", 1 },
		{ "ab$", "abx", 0 }, { "a|b", "b", 1 }, { "(a|b)c", "bc", 1 },
		{ "colou?r", "color", 1 }, { "a+b", "b", 0 }, { "a*b", "b", 1 },
		{ "a{2}", "a", 0 }, { "a{2}", "aa", 1 }, { "a{2,}", "aaa", 1 },
		{ "^a{1,3}$", "aaaa", 0 }, { "^a{1,3}$", "aaa", 1 },
		{ "^x{,3}$", "xx", 1 },       /* Perl 5.34+: {0,3} */
		{ "^x{,3}$", "x{,3}", 0 }, { "a{x", "a{x", 1 },
		{ "[a-c]+z", "bbz", 1 }, { "[^a-c]z", "az", 0 }, { "[]a]", "]", 1 },
		{ "[a-]", "-", 1 }, { "\\d\\d", "a12", 1 }, { "\\D", "1", 0 },
		{ "\\w+", "_", 1 }, { "\\W", "a", 0 }, { "\\s", "\t", 1 },
		{ "\\S", " ", 0 }, { "\\bfoo\\b", "a foo b", 1 },
		{ "\\bfoo\\b", "afoo", 0 }, { "\\Bfoo", "afoo", 1 },
		{ "(?:\\b|_)bpf(?:\\b|_)", "x_bpf_y", 1 },
		{ "(?:\\b|_)bpf(?:\\b|_)", "ebpfx", 0 },
		{ "(?i)clone3", "CLONE3", 1 }, { "\\b(?i:rust)\\b", "Rust code", 1 },
		{ "\\b(?i:rust)\\b", "trust", 0 }, { "a(?i)b", "aB", 1 },
		{ "a(?i)b", "AB", 0 }, { "(?i:a)b", "AB", 0 },
		{ "(devm_)?hwmon_device_(un)?register(|_with_groups|_with_info)",
		  "devm_hwmon_device_register_with_info(", 1 },
		{ "[^@]sifive", "@sifive", 0 }, { "[^@]sifive", " sifive", 1 },
		{ "\\.phylink|>phylink_", "p->phylink_x", 1 },
		{ "\\x41", "A", 1 }, { "a\\/b", "a/b", 1 }, { "\\t", "\t", 1 },
		{ "a*?b", "aab", 1 }, { "(a|)+b", "b", 1 }, { "(a*)*b", "aaab", 1 },
		{ "[\\d_]x", "_x", 1 }, { "[\\s]", " ", 1 },
		/* look-around of fixed runs, as Perl answers (perl -e) */
		{ "(?<!uni)versal", "versal", 1 },
		{ "(?<!uni)versal", "universal", 0 },
		{ "(?<!uni)versal", "xilinx_versal", 1 },
		{ "(?<!uni)versal", "universal-versal", 1 },
		{ "(?<!a|bc)x", "bcx", 0 }, { "(?<!a|bc)x", "ax", 0 },
		{ "(?<!a|bc)x", "cx", 1 }, { "(?<=a|bc)x", "bcx", 1 },
		{ "(?<=a|bc)x", "cx", 0 }, { "(?=ab)a", "ab", 1 },
		{ "(?=ab)a", "ac", 0 }, { "(?!ab)a", "ab", 0 },
		{ "(?!ab)a", "aab", 1 }, { "a(?!b)", "a", 1 },
		{ "(?i)(?<!UNI)versal", "universal", 0 }, { "(?<=\\s)x", " x", 1 },
		{ "(?<=.)x", "x", 0 }, { "(?<=.)x", "yx", 1 },
		{ "(?<![\\w.])a", "x.a", 0 }, { "(?<![\\w.])a", "-a", 1 },
		/* refused, never a silent mismatch */
		{ "(?<=a+)b", "ab", -1 }, { "(?=a*)", "a", -1 },
		{ "(?<=^a)b", "ab", -1 },
		{ "(a)\\1", "aa", -1 }, { "a*+", "a", -1 }, { "\\p{L}", "a", -1 },
		{ "(?<n>a)", "a", -1 }, { "(a", "a", -1 }, { "a)", "a", -1 },
		{ "[a", "a", -1 }, { "*a", "a", -1 }, { "a{3,2}", "a", -1 },
		{ "\\Qa\\E", "a", -1 }, { "[[:alpha:]]", "a", -1 }, { "\\", "", -1 },
		{ "\\xZZ", "", -1 }, { "[z-a]", "", -1 },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int got = rx(t[i].pat, t[i].s, 0);
		if (got != t[i].want)
			printf("FAIL regex /%s/ on \"%s\": got %d want %d\n",
			       t[i].pat, t[i].s, got, t[i].want);
		CHECK(got == t[i].want);
		if (t[i].want != -1)    /* -1: the pattern is refused */
			check_lines(t[i].pat, t[i].s);
	}
	/* a literal of a (?i) pattern in any case, twice on one line, at a
	 * line's very end, and only in the '+' byte that skip passes over */
	static const char *const more[][2] = {
		{ "(?i)clone3", "x CLONE3 y" }, { "(?i)clone3", "cLoNe cLoNe3" },
		{ "(?i)pidfd", "PIDFd" }, { "\\bSGX_", "xSGX_ SGX_" },
		{ "zstd", "a zst zstd" }, { "zstd$", "zstd" },
		{ "\\+x", "x" }, { "mediatek", "mediate" },
		{ "\\b(?i:clang|llvm)\\b", "libLLVM LLVM" },
	};
	for (size_t i = 0; i < sizeof more / sizeof *more; i++)
		check_lines(more[i][0], more[i][1]);
	/* /x: white space and comments in the pattern are not literal */
	CHECK(rx("a b # comment", "ab", 1) == 1);
	CHECK(rx("a b", "ab", 0) == 0);
	CHECK(rx("[ ]", " ", 1) == 1);
}

/* Linear time: a pattern that makes a backtracker explode stays cheap. */
static void test_regex_hostile(void)
{
	size_t n = 200000;
	char *s = malloc(n + 1);

	memset(s, 'a', n);
	s[n] = '\0';
	clock_t t0 = clock();
	CHECK(rx("(a*)*b", s, 0) == 0);
	CHECK(rx("(a|aa)+$x", s, 0) == 0);
	CHECK(rx("(a+a+)+b", s, 0) == 0);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	/* Not a timing test (that is test/bench's): a hang is what fails. */
	CHECK(secs < 60);
	free(s);
	/* a huge counted repetition is refused, not expanded without bound */
	CHECK(rx("(a{1000}){1000}", "a", 0) == -1);
}

static void test_regex_dump(void)
{
	struct sbuf err = SBUF_INIT, out = SBUF_INIT;
	struct regex *re = re_compile("ab|c*", 5, 0, &err);

	/* every CHECK runs: a pattern that stops compiling fails them */
	CHECK(re != NULL);
	if (re)
		re_dump(re, &out);
	CHECK(out.len && strstr(out.buf, "split") && strstr(out.buf, "match"));
	re_free(re);
	sb_setlen(&out, 0);
	re = re_compile("(?:\\b|_)bpf(?:\\b|_)", 20, 0, &err);
	CHECK(re != NULL);
	if (re)
		re_dump(re, &out);
	CHECK(out.len && strstr(out.buf, "prefilter: bpf") != NULL);
	re_free(re);
	sb_release(&out);
	sb_release(&err);
}

static void test_patch_scan(void)
{
	static const char patch[] =
		"From: A <a@b>\nSubject: x\n\nFixes: 0123456789ab (\"y\")\n"
		"Fixes: 12345 (too short)\n---\n"
		"diff --git a/old/name.c b/new/name.c\n"
		"similarity index 90%\nrename from old/name.c\nrename to new/name.c\n"
		"diff --git a/bin/x.bin b/bin/x.bin\n mode change 100644 => 100755 bin/x.bin\n"
		"Binary files a/bin/x.bin and b/bin/x.bin differ\n"
		"diff --git \"a/sp ace\\tt\" \"b/sp ace\\tt\"\n--- \"a/sp ace\\tt\"\n"
		"+++ \"b/sp ace\\tt\"\r\n@@ -1 +1 @@\n-x\n+y\n"
		"--- /dev/null\n+++ b/added.c\n@@ -0,0 +1,1 @@\n+z\n"
		"--- plain.c\t2024-01-01\n+++ plain.c\t2024-01-02\n";
	struct patch_files pf = { 0 };
	struct kwtext kw = KWTEXT_INIT;
	size_t n = scan_patch(patch, sizeof patch - 1, &pf, &kw);
	static const char *const want[] = { "added.c", "bin/x.bin", "dev/null",
		"new/name.c", "old/name.c", "plain.c", "sp ace\tt" };

	CHECK(n == sizeof want / sizeof *want);
	for (size_t i = 0; i < n && i < sizeof want / sizeof *want; i++)
		CHECK_STR(pf.file[i], want[i]);
	CHECK(pf.nfixes == 1);
	if (pf.nfixes)
		CHECK_STR(pf.fixes[0], "0123456789ab");
	/* keyword lines: the header lines with their LF, then only '+' and
	 * '-' lines of the diff, each searched after its first byte */
	CHECK(kw.nline == 10);
	if (kw.nline == 10) {
		CHECK(!strncmp(kw.text.buf + kw.line[0].off, "From: A <a@b>\n",
			       kw.line[0].len) && kw.line[0].skip == 0);
		CHECK(!strncmp(kw.text.buf + kw.line[3].off, "Fixes: 12345 (",
			       14) && kw.line[3].skip == 0);
		CHECK(!strncmp(kw.text.buf + kw.line[7].off, "-x\n",
			       kw.line[7].len) && kw.line[7].skip == 1);
		CHECK(!strncmp(kw.text.buf + kw.line[9].off, "+z\n",
			       kw.line[9].len) && kw.line[9].skip == 1);
	}
	kwtext_release(&kw);
	patch_files_release(&pf);
	/* truncated and odd input: no crash, no invented files */
	static const char *const odd[] = { "", "diff --git", "--- ", "+++ \"a/x",
		"diff --git a/ b/\n", "@@ -1,", "\0\0\0" };
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		memset(&pf, 0, sizeof pf);
		scan_patch(odd[i], strlen(odd[i]), &pf, NULL);
		CHECK(pf.nr <= 1);
		patch_files_release(&pf);
	}
}

/* One query of files (and keyword text) against a MAINTAINERS text:
 * returns 0 with the recipients in out, or -1 with err set. */
static int query_text(const char *text, size_t len, const char *const *files,
		      size_t nfiles, const char *kwtext, int roles,
		      struct sbuf *out, struct sbuf *err)
{
	struct maintainers *m = maintainers_parse(text, len, ".");
	struct cc_opts o = CC_OPTS_INIT;
	struct kwtext kw = KWTEXT_INIT;
	struct cc_query q = { .file = (char *const *)files, .nfile = nfiles,
			      .kw = kwtext ? &kw : NULL };

	o.roles = roles;
	if (kwtext)
		kwtext_add(&kw, kwtext, strlen(kwtext), 0);
	struct recipients r1 = RECIPIENTS_INIT;
	sb_setlen(out, 0);
	sb_setlen(err, 0);
	int r = maintainers_query(m, &o, &q, 1, &r1, err);
	recipients_write(out, &r1, roles);
	recipients_release(&r1);
	kwtext_release(&kw);
	maintainers_free(m);
	return r;
}

static void test_maintainers_refusals(void)
{
	struct sbuf err = SBUF_INIT, out = SBUF_INIT;
	const char *xc[] = { "x.c" }, *foo[] = { "foo.c" }, *bar[] = { "bar.c" },
		   *ac[] = { "a.c" };

	/* a pattern we cannot run: an error naming its line */
	static const char bad[] = "S\nM: a <a@b>\nN: (?=x+)\n";
	CHECK(query_text(bad, sizeof bad - 1, xc, 1, NULL, 0, &out, &err) < 0);
	CHECK(strstr(err.buf, "MAINTAINERS:3: N: (?=x+): ") != NULL);
	/* ... as soon as its literal occurs in the path; before that it
	 * cannot match, in Perl either, so it changes no answer (o++ is
	 * possessive, which the engine refuses) */
	static const char lazy[] = "S\nM: a <a@b>\nN: foo++\n";
	CHECK(query_text(lazy, sizeof lazy - 1, bar, 1, NULL, 0, &out, &err) == 0);
	CHECK_STR(out.buf, "");
	CHECK(query_text(lazy, sizeof lazy - 1, foo, 1, NULL, 0, &out, &err) < 0);
	CHECK(strstr(err.buf, "MAINTAINERS:3: N: foo++: ") != NULL);
	/* the same for K: in the patch text */
	static const char kbad[] = "S\nM: a <a@b>\nF: *\nK: bpff++\n";
	CHECK(query_text(kbad, sizeof kbad - 1, ac, 1, "no keyword\n", 0, &out,
			 &err) == 0);
	CHECK_STR(out.buf, "a <a@b>\n");
	CHECK(query_text(kbad, sizeof kbad - 1, ac, 1, "+a bpff line\n", 0, &out,
			 &err) < 0);
	CHECK(strstr(err.buf, "MAINTAINERS:4: K: ") != NULL);
	static const char nul[] = "S\nM: a\0b\n";
	CHECK(query_text(nul, sizeof nul - 1, xc, 1, NULL, 0, &out, &err) < 0);
	CHECK_STR(err.buf, "MAINTAINERS:2: holds a NUL byte");
	/* empty; tags before any title (the first line is then the title,
	 * as the script holds it: "F:.*"); 10,000 sections */
	CHECK(query_text("", 0, xc, 1, NULL, 0, &out, &err) == 0);
	CHECK_STR(out.buf, "");
	static const char early[] = "F: *\nM: x <x@y>\n";
	CHECK(query_text(early, sizeof early - 1, ac, 1, NULL, 1, &out, &err) == 0);
	CHECK_STR(out.buf, "x <x@y> (unknown:F:.*)\n");
	struct sbuf big = SBUF_INIT;
	for (int i = 0; i < 10000; i++)
		sb_addf(&big, "SECTION %d\nM: P%d <p%d@x.org>\nS: Maintained\nF: d%d/\n\n",
			i, i, i, i);
	const char *d9999[] = { "d9999/x.c" };
	CHECK(query_text(big.buf, big.len, d9999, 1, NULL, 0, &out, &err) == 0);
	CHECK_STR(out.buf, "P9999 <p9999@x.org>\n");
	sb_release(&big);
	sb_release(&err);
	sb_release(&out);
}

/* re_literal(): the run every match must contain, or none. */
static void test_regex_literal(void)
{
	static const struct { const char *pat; const char *lit; } t[] = {
		{ "allwinner", "allwinner" }, { "[^a-z]tegra", "tegra" },
		{ "bcm113*", "bcm11" }, { "bcm[9]?6756", "6756" },
		{ "(?:\\b|_)bpf(?:\\b|_)", "bpf" }, { "\\b(ABS|SYN)_MT_", "_MT_" },
		{ "ab+c", "ab" }, { "fooo{0}", "foo" }, { "x{2,3}yz", "yz" },
		{ "a b", "a" }, { "abc # comment words", "abc" },
		{ "(devm_)?hwmon_device_(un)?register", "hwmon_device_" },
		{ "(?i)clone3", "" }, { "\\b(?i:rust)\\b", "" },
		{ "phylink\\.h|struct\\s+phylink", "" }, { "\\x41bc", "" },
		{ "\\Qa.b", "" }, { "a)b", "" }, { "[abc", "" }, { "", "" },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		size_t at, n = re_literal(t[i].pat, strlen(t[i].pat), 1, &at);
		struct sbuf got = SBUF_INIT;
		sb_add(&got, t[i].pat + at, n);
		CHECK_STR(got.buf, t[i].lit);
		sb_release(&got);
	}
}

void unit_more(void)
{
	test_regex_table();
	test_regex_hostile();
	test_regex_dump();
	test_patch_scan();
	test_maintainers_refusals();
	test_regex_literal();
}

/* For test/run: the 0/1 matrix of patterns (lines of one file, /x) over
 * subjects (lines of another), compared there with Perl's. */
int unit_matrix(const char *pfile, const char *sfile)
{
	struct sbuf p = SBUF_INIT, s = SBUF_INIT, err = SBUF_INIT;

	if (sb_read_file(&p, pfile) < 0 || sb_read_file(&s, sfile) < 0)
		return 2;
	for (char *pp = p.buf; *pp;) {
		char *nl = strchr(pp, '\n');
		if (nl)
			*nl = '\0';
		struct regex *re = re_compile(pp, strlen(pp), 1, &err);
		for (char *ss = s.buf; *ss;) {
			char *snl = strchr(ss, '\n');
			size_t len = snl ? (size_t)(snl - ss) : strlen(ss);
			putchar(re ? '0' + re_search(re, ss, len, 0) : 'E');
			ss += len + (snl ? 1 : 0);
		}
		putchar('\n');
		re_free(re);
		pp = nl ? nl + 1 : pp + strlen(pp);
	}
	sb_release(&p);
	sb_release(&s);
	sb_release(&err);
	return 0;
}
