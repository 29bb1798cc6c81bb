/*
 * unit.c - unit tests of series.c through series.h.  Prints one line per
 * failure and "N passed, N failed" last; exits 1 on any failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series.h"
#include "unit.h"

int unit_pass, unit_fail;

static void test_sbuf(void)
{
	struct sbuf sb = SBUF_INIT;

	CHECK(sb.buf[0] == '\0' && sb.len == 0);
	sb_add(&sb, "a\0b", 3);
	CHECK(sb.len == 3 && sb.buf[3] == '\0' && sb.buf[1] == '\0');
	sb_addf(&sb, "%d", 42);
	CHECK(sb.len == 5 && !memcmp(sb.buf, "a\0b42", 6));
	sb_setlen(&sb, 0);
	sb_quote_c(&sb, "plain", 5, 0);
	CHECK_STR(sb.buf, "plain");
	sb_setlen(&sb, 0);
	sb_quote_c(&sb, "plain", 5, 1);
	CHECK_STR(sb.buf, "\"plain\"");
	sb_setlen(&sb, 0);
	sb_quote_c(&sb, "a\tb\n\"\\\x01\x7f\xc3\xbc", 10, 0);
	CHECK_STR(sb.buf, "\"a\\tb\\n\\\"\\\\\\001\\177\xc3\xbc\"");
	sb_release(&sb);
	CHECK(sb.buf[0] == '\0' && sb.alloc == 0);
	/* a failed read is undone */
	sb_adds(&sb, "keep");
	CHECK(sb_read_fd(&sb, -1) < 0 && sb.len == 4 && !strcmp(sb.buf, "keep"));
	CHECK(sb_read_file(&sb, "/nonexistent/x") < 0 && sb.len == 4);
	sb_release(&sb);
}

/* series.c formats with its own printf subset (no floating point): each
 * conversion the file writes comes out as the C library writes it. */
#define SAME(...)                                                          \
	do {                                                               \
		char ref[256];                                             \
		snprintf(ref, sizeof ref, __VA_ARGS__);                    \
		sb_setlen(&sb, 0);                                         \
		sb_addf(&sb, __VA_ARGS__);                                 \
		CHECK_STR(sb.buf, ref);                                    \
	} while (0)

static void test_format(void)
{
	struct sbuf sb = SBUF_INIT;

	SAME("plain, no conversion");
	SAME("%s|%.3s|%-8s|%8s|%.*s|", "abc", "abcdef", "ab", "ab", 2, "xyz");
	SAME("%*s|%*s|%-30s|", 5, "r", -5, "l", "left");
	SAME("%d %d %i %05d %-5d| %3d", 0, -42, 7, -42, 42, 12345);
	SAME("%u %u %ld %lld %lld", 0u, 4294967295u, -1L, -9223372036854775807LL - 1,
	     9223372036854775807LL);
	SAME("%zu %9zu %3zu %04zu %0*zu %*zu", (size_t)0, (size_t)42, (size_t)12345,
	     (size_t)7, 6, (size_t)42, -6, (size_t)42);
	SAME("%x %02x %02X %X %zx %040zx", 0u, 10u, 255u, 3735928559u,
	     (size_t)-1, (size_t)48879);
	SAME("%o %06o %03o", 8u, 0100644u, 7u);
	SAME("%c%c %% %.3d %.0d|%5.3d", 'a', '~', 7, 0, 42);
	const char *volatile none = NULL;       /* unseen by -Wformat */
	sb_setlen(&sb, 0);
	sb_addf(&sb, "%s", none);       /* as both C libraries write it */
	CHECK_STR(sb.buf, "(null)");
	sb_release(&sb);
}

/* scan_number() reads what strtoll reads, in each base the file uses, its
 * end and its overflow included. */
static void test_scan_number(void)
{
	static const char *const in[] = { "0", "42", "  -17x", "+8", "-", "",
		"x1", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "100644 rest", "ff/FF", "\t12\n",
		"\x10\x19", "g7", "Zz", "7@`" };
	static const int base[] = { 8, 10, 16 };

	for (size_t i = 0; i < sizeof in / sizeof *in; i++)
		for (size_t b = 0; b < 3; b++) {
			char *e1, *e2;
			errno = 0;
			long long want = strtoll(in[i], &e1, base[b]);
			int werr = errno;
			errno = 0;
			long long got = scan_number(in[i], &e2, base[b]);
			CHECK(got == want && e1 == e2 && errno == werr);
		}
}

#define H40 "0123456789012345678901234567890123456789"
static void test_status(void)
{
	static const char ok[] =
		"# branch.oid " H40 "\0"
		"1 .M N... 100644 100644 100644 " H40 " " H40 " a b/c d\0"
		"1 D. N... 100644 000000 000000 " H40 " " H40 " gone\0"
		"2 R. N... 100644 100644 100644 " H40 " " H40 " R100 new\tname\0old\nname\0"
		"2 C. N... 100644 100644 100644 " H40 " " H40 " C75 copy\0src\0"
		"u UU N... 100644 100644 100644 100644 " H40 " " H40 " " H40 " conflict\0"
		"? untracked file\0"
		"! ignored\0";
	struct status st = STATUS_INIT;

	CHECK(parse_status(&st, ok, sizeof ok - 1) == 0);
	CHECK(st.nr == 7);
	if (st.nr == 7) {
		CHECK_STR(st.e[0].path, "a b/c d");
		CHECK(st.e[0].x == '.' && st.e[0].y == 'M');
		CHECK(st.e[0].mode_head == 0100644 && st.e[0].mode_wt == 0100644);
		CHECK(st.e[1].mode_wt == 0 && st.e[1].x == 'D');
		CHECK_STR(st.e[2].path, "new\tname");
		CHECK_STR(st.e[2].orig, "old\nname");
		CHECK(st.e[3].kind == E_RENAMED && st.e[3].x == 'C');
		CHECK_STR(st.e[3].orig, "src");
		CHECK(st.e[4].kind == E_UNMERGED);
		CHECK_STR(st.e[4].path, "conflict");
		CHECK(st.e[5].kind == E_UNTRACKED);
		CHECK_STR(st.e[5].path, "untracked file");
		CHECK(st.e[6].kind == E_IGNORED);
	}
	status_release(&st);

	/* malformed records: each must be refused, none may crash */
#define B(lit) { lit, sizeof lit - 1 }
	static const struct { const char *s; size_t n; } bad[] = {
		B("1 .M N... 100644 100644 100644 " H40 " " H40 " \0"),
		B("1 .M N... 100644 100644 100644 " H40 " " H40 " nonul"),
		B("1 .M N... 100644 100644 1006x4 " H40 " " H40 " p\0"),
		B("1 .M N... 100644 100644 100644 " H40 " short p\0"),
		B("2 R. N... 100644 100644 100644 " H40 " " H40 " R100 new\0"),
		B("2 R. N... 100644 100644 100644 " H40 " " H40 " X100 new\0old\0"),
		B("1 .MM N... 100644 100644 100644 " H40 " " H40 " p\0"),
		B("z what\0"),
		B("?"),
		B("# header without nul"),
		B("1 .M N... 1006440000 100644 100644 " H40 " " H40 " p\0"),
		B("1 .M N... 100644 100644 100644 " H40 " " H40),
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct status b = STATUS_INIT;
		CHECK(parse_status(&b, bad[i].s, bad[i].n) < 0);
		CHECK(b.nr == 0);
		status_release(&b);
	}
}

static void test_group_name(void)
{
	struct selection dir = { .by = BY_DIR };
	struct selection d2 = { .by = BY_DIR, .depth = 2 };
	struct selection file = { .by = BY_FILE };
	struct selection tree = { .by = BY_TREE };
	char *s;

#define NAME(sel, path, want) \
	do { s = group_name(path, &(sel)); CHECK_STR(s, want); free(s); } while (0)
	NAME(dir, "top.c", ".");
	NAME(dir, "drivers/i2c/busses/x.c", "drivers/i2c/busses");
	NAME(d2, "drivers/i2c/busses/x.c", "drivers/i2c");
	NAME(d2, "drivers/x.c", "drivers");
	NAME(d2, "x.c", ".");
	NAME(file, "a/b.c", "a/b.c");
	NAME(tree, "a/b.c", "treewide");
}

/* The template's placeholders: SEDME, %(section), %(prefix). */
static void test_templates(void)
{
	struct sbuf sb = SBUF_INIT;

	expand_template(&sb, "SEDME: x SEDMSEDME SEDM", 23, &(struct group){ .name = "a&b\\1|c" });
	CHECK_STR(sb.buf, "a&b\\1|c: x SEDMa&b\\1|c SEDM");
	sb_setlen(&sb, 0);
	expand_template(&sb, "SEDME", 5, &(struct group){ .name = "" });
	CHECK_STR(sb.buf, "");
	sb_setlen(&sb, 0);
	static const char pl[] = "%(prefix)x [%(section)] %(sect) %(prefix %SEDME";
	expand_template(&sb, pl, sizeof pl - 1,
			&(struct group){ .name = "drivers/i2c", .section = "I2C SUBSYSTEM" });
	/* no prefix settled (plan settles every group's): the name */
	CHECK_STR(sb.buf, "drivers/i2c: x [I2C SUBSYSTEM] %(sect) %(prefix %drivers/i2c");
	sb_setlen(&sb, 0);
	expand_template(&sb, "%(prefix)x SEDME", 16, &(struct group){ .name = "d",
			.section = "ARM/Allwinner sunXi SoC support (legacy)", .tag = "t" });
	CHECK_STR(sb.buf, "d: x t");
	sb_setlen(&sb, 0);
	expand_template(&sb, "%(prefix)x", 10, &(struct group){ .name = "fs",
			.section = "THE REST" });
	CHECK_STR(sb.buf, "fs: x");
	sb_setlen(&sb, 0);
	expand_template(&sb, "%(prefix)x", 10, &(struct group){ .name = "fs",
			.section = "I2C SUBSYSTEM", .prefix = "i2c: core: " });
	CHECK_STR(sb.buf, "i2c: core: x");
	sb_setlen(&sb, 0);
	expand_template(&sb, "%(section)", 10, &(struct group){ .name = "." });
	CHECK_STR(sb.buf, ".");
	sb_release(&sb);
}

/* A message cleaned as git commit -F cleans it. */
static void test_cleanup_message(void)
{
	struct sbuf sb = SBUF_INIT;

	sb_adds(&sb, "\n\n  subj  \t\n\n\n\nbody \n\n\n");
	cleanup_message(&sb);
	CHECK_STR(sb.buf, "  subj\n\nbody\n");
	sb_release(&sb);
}

/* A trailer goes in the last paragraph, or one of its own; never twice
 * in a row. */
static void test_add_trailer(void)
{
	struct sbuf sb = SBUF_INIT;

	sb_adds(&sb, "subj: x\n");
	add_trailer(&sb, "Signed-off-by: A <a@b>");
	CHECK_STR(sb.buf, "subj: x\n\nSigned-off-by: A <a@b>\n");
	add_trailer(&sb, "Signed-off-by: A <a@b>");
	CHECK_STR(sb.buf, "subj: x\n\nSigned-off-by: A <a@b>\n");
	add_trailer(&sb, "Signed-off-by: B <b@b>");
	CHECK_STR(sb.buf, "subj: x\n\nSigned-off-by: A <a@b>\nSigned-off-by: B <b@b>\n");
	sb_setlen(&sb, 0);
	sb_adds(&sb, "subj\n\nbody text here\n");
	add_trailer(&sb, "Signed-off-by: A <a@b>");
	CHECK_STR(sb.buf, "subj\n\nbody text here\n\nSigned-off-by: A <a@b>\n");
	sb_release(&sb);
}

/* Dates as date -u -d @SECONDS '+%a, %-d %b %Y %H:%M:%S' writes them:
 * the epoch, leap days of a 400th and a 100th year, before 1970, and a
 * zone west of UTC that moves the day back (those a 32-bit time_t holds). */
static void test_mail_date(void)
{
	static const struct { long long t; int tz; const char *want; } d[] = {
		{ 0, 0, "Thu, 1 Jan 1970 00:00:00 +0000" },
		{ 951782400, 0, "Tue, 29 Feb 2000 00:00:00 +0000" },
		{ 4107542399, 0, "Sun, 28 Feb 2100 23:59:59 +0000" },
		{ -1, 0, "Wed, 31 Dec 1969 23:59:59 +0000" },
		{ -2208988800, 0, "Mon, 1 Jan 1900 00:00:00 +0000" },
		{ 1670000000, 330, "Fri, 2 Dec 2022 22:23:20 +0530" },
		{ 1670000000, -1020, "Thu, 1 Dec 2022 23:53:20 -1700" },
	};
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
		if ((long long)(time_t)d[i].t != d[i].t)
			continue;       /* a 32-bit time_t (i686) */
		sb_setlen(&sb, 0);
		add_mail_date(&sb, (time_t)d[i].t, d[i].tz);
		CHECK_STR(sb.buf, d[i].want);
	}
	sb_release(&sb);
}

/* Runs argv with input on its stdin, its stdout into out; the exit status. */
static int pipe_through(const char *const *argv, const char *input,
			size_t inlen, struct sbuf *out)
{
	struct child c = { .argv = argv, .in = input ? CHILD_PIPE : CHILD_NULL,
			   .out = CHILD_PIPE, .err = CHILD_INHERIT };

	if (child_start(&c) < 0)
		return -1;
	return child_pump(&c, input, inlen, out);
}

/*
 * Megabytes both ways through one child: with a pipe of 64 KB, a runner
 * that writes all its input before it reads (or writes a whole chunk into
 * a pipe with less room) waits for the child while the child waits for it.
 * `git cat-file --batch` over thousands of objects is the real case: its
 * input (the ids) and its output (the objects) both pass a pipe's size.
 */
static void test_child_pump(void)
{
	struct sbuf in = SBUF_INIT, out = SBUF_INIT, ids = SBUF_INIT;
	const char *cat[] = { "cat", NULL };
	char dir[] = "/tmp/series-unit-XXXXXX";
	size_t nblobs = 4000;

	for (size_t i = 0; in.len < 8u << 20; i++)
		sb_addf(&in, "line %zu of the input, for cat to hand back\n", i);
	CHECK(pipe_through(cat, in.buf, in.len, &out) == 0);
	CHECK(out.len == in.len && !memcmp(out.buf, in.buf, in.len));

	CHECK(mkdtemp(dir) != NULL);
	const char *init[] = { "git", "init", "-q", "--bare", dir, NULL };
	CHECK(pipe_through(init, NULL, 0, NULL) == 0);
	sb_setlen(&in, 0);
	for (size_t i = 0; i < nblobs; i++) {
		char body[2048];
		memset(body, 'a' + (int)(i % 26), sizeof body);
		sb_addf(&in, "blob\ndata %zu\n%zu:", sizeof body + 8, i % 10000000);
		sb_add(&in, body, sizeof body);
		sb_addf(&in, "%*s\n", (int)(8 - 1 - snprintf(NULL, 0, "%zu:", i)), "");
	}
	char gitdir[64];
	snprintf(gitdir, sizeof gitdir, "--git-dir=%s", dir);
	const char *import[] = { "git", gitdir, "fast-import", "--quiet", NULL };
	CHECK(pipe_through(import, in.buf, in.len, NULL) == 0);
	const char *list[] = { "git", gitdir, "cat-file", "--batch-all-objects",
			       "--batch-check=%(objectname)", NULL };
	CHECK(pipe_through(list, NULL, 0, &ids) == 0);
	CHECK(ids.len > 65536);
	const char *batch[] = { "git", gitdir, "cat-file", "--batch", NULL };
	sb_setlen(&out, 0);
	CHECK(pipe_through(batch, ids.buf, ids.len, &out) == 0);
	size_t blobs = 0;
	for (const char *p = out.buf; (p = strstr(p, " blob 2056\n")); p++)
		blobs++;
	CHECK(blobs == nblobs);
	CHECK(out.len > nblobs * 2056);
	const char *rm[] = { "rm", "-rf", dir, NULL };
	CHECK(pipe_through(rm, NULL, 0, NULL) == 0);
	sb_release(&in);
	sb_release(&out);
	sb_release(&ids);
}

/* The watchdog: a test that hangs fails by name instead of holding the
 * suite. */
static const char *running;
static void watchdog(int sig)
{
	char msg[160];
	int n = snprintf(msg, sizeof msg, "FAIL unit: %s did not finish in 120 s\n",
			 running);
	(void)sig;
	if (write(1, msg, (size_t)n) < 0)
		_exit(3);
	_exit(3);
}
#define RUN(fn) do { running = #fn; alarm(120); fn(); alarm(0); } while (0)

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--matrix"))
		return unit_matrix(argv[2], argv[3]);
	signal(SIGALRM, watchdog);
	RUN(test_sbuf);
	RUN(test_format);
	RUN(test_scan_number);
	RUN(test_status);
	RUN(test_group_name);
	RUN(test_templates);
	RUN(test_cleanup_message);
	RUN(test_add_trailer);
	RUN(test_mail_date);
	RUN(test_child_pump);
	RUN(unit_more);
	RUN(unit_versions);
	printf("%d passed, %d failed\n", unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}
