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
		/* refused, never a silent mismatch */
		{ "(?=a)", "a", -1 }, { "(?!a)", "a", -1 }, { "(?<=a)b", "ab", -1 },
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
	}
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
	struct sbuf err = SBUF_INIT;
	struct regex *re = re_compile("ab|c*", 5, 0, &err);
	char buf[4096] = { 0 };
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");

	CHECK(re != NULL);
	if (re && f) {
		re_dump(re, f);
		fclose(f);
		CHECK(strstr(buf, "split") && strstr(buf, "match"));
	}
	re_free(re);
	re = re_compile("(?:\\b|_)bpf(?:\\b|_)", 20, 0, &err);
	f = fmemopen(buf, sizeof buf - 1, "w");
	if (re && f) {
		re_dump(re, f);
		fclose(f);
		CHECK(strstr(buf, "prefilter: bpf") != NULL);
	}
	re_free(re);
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
	size_t *kw = NULL, nkw = 0, akw = 0;
	size_t n = scan_patch(NULL, patch, sizeof patch - 1, &pf, &kw, &nkw, &akw);
	static const char *const want[] = { "added.c", "bin/x.bin", "dev/null",
		"new/name.c", "old/name.c", "plain.c", "sp ace\tt" };

	CHECK(n == sizeof want / sizeof *want);
	for (size_t i = 0; i < n && i < sizeof want / sizeof *want; i++)
		CHECK_STR(pf.file[i], want[i]);
	CHECK(pf.nfixes == 1);
	if (pf.nfixes)
		CHECK_STR(pf.fixes[0], "0123456789ab");
	patch_files_release(&pf);
	/* truncated and odd input: no crash, no invented files */
	static const char *const odd[] = { "", "diff --git", "--- ", "+++ \"a/x",
		"diff --git a/ b/\n", "@@ -1,", "\0\0\0" };
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		memset(&pf, 0, sizeof pf);
		scan_patch(NULL, odd[i], strlen(odd[i]), &pf, &kw, &nkw, &akw);
		CHECK(pf.nr <= 1);
		patch_files_release(&pf);
	}
	free(kw);
}

static void test_maintainers_refusals(void)
{
	struct sbuf err = SBUF_INIT;
	static const char bad[] = "S\nM: a <a@b>\nN: (?=x)\n";
	struct maintainers *m = maintainers_parse(bad, sizeof bad - 1, ".", &err);

	CHECK(m == NULL);
	CHECK(strstr(err.buf, "MAINTAINERS:3: N:") != NULL);
	sb_release(&err);
	static const char nul[] = "S\nM: a\0b\n";
	m = maintainers_parse(nul, sizeof nul - 1, ".", &err);
	CHECK(m == NULL);
	sb_release(&err);
	/* empty, tags before any section, 10,000 sections: all parse */
	m = maintainers_parse("", 0, ".", &err);
	CHECK(m != NULL);
	maintainers_free(m);
	static const char early[] = "F: *\nM: x <x@y>\n";
	m = maintainers_parse(early, sizeof early - 1, ".", &err);
	CHECK(m != NULL);
	maintainers_free(m);
	struct sbuf big = SBUF_INIT;
	for (int i = 0; i < 10000; i++)
		sb_addf(&big, "SECTION %d\nM: P%d <p%d@x.org>\nS: Maintained\nF: d%d/\n\n",
			i, i, i, i);
	m = maintainers_parse(big.buf, big.len, ".", &err);
	CHECK(m != NULL);
	if (m) {
		char *files[] = { "d9999/x.c" };
		struct cc_opts o = CC_OPTS_INIT;
		struct sbuf out = SBUF_INIT;
		maintainers_query(m, &o, files, 1, NULL, 0, &out);
		CHECK_STR(out.buf, "P9999 <p9999@x.org>\n");
		sb_release(&out);
	}
	maintainers_free(m);
	sb_release(&big);
	sb_release(&err);
}

void unit_more(void)
{
	test_regex_table();
	test_regex_hostile();
	test_regex_dump();
	test_patch_scan();
	test_maintainers_refusals();
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
