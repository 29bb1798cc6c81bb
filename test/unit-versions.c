/*
 * unit-versions.c - unit tests of the versions part: the matcher of a
 * version's patches to the next (became_of), the squash sum of patch ids
 * (add_patch_id), the series of format --split (cut_series), and the
 * prefix learner, from history (prefixes_from_log) and from the path
 * (path_prefix).  No git runs here: each input
 * is built in memory as the part's callers build it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "unit.h"

/* A commit of a test range: its id is ID repeated to 40 characters. */
static void commit(struct rcommits *rc, char id, const char *msg,
		   const char *path)
{
	struct rcommit *c;

	rc->c = realloc(rc->c, (rc->nr + 1) * sizeof *rc->c);
	c = &rc->c[rc->nr++];
	memset(c, 0, sizeof *c);
	memset(c->id, id, 40);
	c->msg = msg ? strdup(msg) : NULL;
	c->path = calloc(2, sizeof *c->path);
	c->path[0] = strdup(path);
	c->npath = 1;
	c->author = strdup("A U Thor <a@example.org>");
}

/* "PATCH-ID COMMIT" as git patch-id --stable writes it, into ids: patch
 * id P and commit ID each repeated to 40 characters. */
static void pid(struct pids *ids, char p, char id)
{
	char line[82];

	for (int i = 0; i < 81; i++)
		line[i] = i < 40 ? p : i == 40 ? ' ' : id;
	line[81] = '\n';
	pids_add_text(ids, line, sizeof line);
}

/* The map of git patch-id's lines: each way found, the first of a patch
 * id two commits share (git's order, not the index's), a record's
 * "form N" line and a malformed one passed over, SHA-256 ids kept. */
static void test_pids(void)
{
	static const char text[] =
		"form 2\n"
		"bb00000000000000000000000000000000000000 c200000000000000000000000000000000000000\n"
		"aa00000000000000000000000000000000000000 c100000000000000000000000000000000000000\n"
		"bb00000000000000000000000000000000000000 c000000000000000000000000000000000000000\n"
		"not a line\n"
		"cc00000000000000000000000000000000000000000000000000000000000000 "
		"c300000000000000000000000000000000000000000000000000000000000000\n";
	struct pids m = PIDS_INIT;

	CHECK(!patch_of(&m, "c1") && !commit_of(&m, "aa"));
	pids_add_text(&m, text, sizeof text - 1);
	CHECK(m.nr == 4);
	CHECK_STR(patch_of(&m, "c100000000000000000000000000000000000000"),
		  "aa00000000000000000000000000000000000000");
	CHECK_STR(commit_of(&m, "bb00000000000000000000000000000000000000"),
		  "c200000000000000000000000000000000000000");
	CHECK_STR(patch_of(&m, "c300000000000000000000000000000000000000000000000000000000000000"),
		  "cc00000000000000000000000000000000000000000000000000000000000000");
	CHECK(!patch_of(&m, "c1") && !commit_of(&m, "form"));
	CHECK_STR(m.e[0].commit, "c200000000000000000000000000000000000000");
	pids_release(&m);
	CHECK(m.nr == 0 && !m.e && !patch_of(&m, "c1"));
}

/* The three passes: the same patch id first, then (unless upstream has
 * it) the subject, then a shared file; each next commit taken once. */
static void test_became_of(void)
{
	struct rcommits prev = { 0 }, next = { 0 };
	struct pids pids = PIDS_INIT, npids = PIDS_INIT;
	struct fate up[5];
	char taken[5] = { 0 };

	memset(up, 0, sizeof up);
	commit(&prev, 'a', "a: one\n", "a/x.c");      /* unchanged */
	commit(&prev, 'b', "b: two\n", "b/y.c");      /* retitled, changed */
	commit(&prev, 'c', "c: three\n", "c/z.c");    /* applied upstream */
	/* its subject is next's 'n', whose patch id is prev 'e''s */
	commit(&prev, 'd', "e: five\n", "e/v.c");
	commit(&prev, 'e', "e: five, first\n", "e/w.c");
	commit(&next, 'A', "a: one\n", "a/x.c");
	commit(&next, 'B', "b: two, retitled\n", "b/y.c");
	commit(&next, 'n', "e: five\n", "e/w.c");
	commit(&next, 'N', "n: new\n", "n/u.c");
	pid(&pids, '1', 'a'); pid(&pids, '2', 'b'); pid(&pids, '3', 'c');
	pid(&pids, '4', 'd'); pid(&pids, '5', 'e');
	pid(&npids, '1', 'A'); pid(&npids, '7', 'B'); pid(&npids, '5', 'n');
	pid(&npids, '9', 'N');
	up[2].state = BY_LINK;
	memset(up[2].commit, 'f', 40);

	struct became *b = became_of(&prev, &pids, &next, &npids, up, taken);
	CHECK(b[0].to == 0 && b[0].same && !b[0].up);
	CHECK(b[1].to == 1 && !b[1].same && !b[1].up);
	CHECK(b[2].to == next.nr && b[2].up == up[2].commit);
	/* the patch id wins over the subject: 'e' is 'n', unchanged, and
	 * 'd', of n's subject, is gone, not 'n' changed */
	CHECK(b[4].to == 2 && b[4].same);
	CHECK(b[3].to == next.nr && !b[3].up);
	CHECK(taken[0] && taken[1] && taken[2] && !taken[3]);  /* N: new */
	free(b);

	/* respin's groups: no message; by patch id or by file alone */
	memset(taken, 0, sizeof taken);
	free(next.c[1].msg);
	next.c[1].msg = NULL;
	b = became_of(&prev, &pids, &next, &npids, up, taken);
	CHECK(b[1].to == 1 && !b[1].same);
	free(b);
	rcommits_release(&prev);
	rcommits_release(&next);
	pids_release(&pids);
	pids_release(&npids);
}

/* git patch-id --stable of a commit is the little-endian sum of its
 * files' hashes: two patches squashed sum to the commit's id. */
static void test_add_patch_id(void)
{
	unsigned char sum[3] = { 0 }, want[3] = { 0 };

	add_patch_id(sum, "ff0100", 3);          /* 0x0001ff */
	add_patch_id(sum, "020000", 3);          /* + 2 */
	add_patch_id(want, "010200", 3);         /* 0x000201 */
	CHECK(!memcmp(sum, want, 3));
	add_patch_id(sum, "ffffff", 3);          /* wraps: - 1 */
	unsigned char less[3] = { 0 };
	add_patch_id(less, "000200", 3);
	CHECK(!memcmp(sum, less, 3));
}

/* A source of n files and a plan of one group per file, in order. */
static void plan_of(struct source *src, struct plan *p, const char *const *path,
		    size_t n)
{
	src->f = calloc(n + 1, sizeof *src->f);
	p->g = calloc(n + 1, sizeof *p->g);
	for (size_t i = 0; i < n; i++) {
		src->f[i].path = strdup(path[i]);
		src->f[i].kind = SF_MODIFY;
		p->g[i].name = strdup(path[i]);
		p->g[i].member = calloc(1, sizeof *p->g[i].member);
		p->g[i].member[0] = i;
		p->g[i].nr = 1;
	}
	src->nr = p->nr = n;
}

/* By key, in the range's order; a key of more than max cut in even
 * parts; the subjects' common cut is each series' prefix. */
static void test_cut_series(void)
{
	const char *path[] = { "i2c/a.c", "spi/b.c", "i2c/c.c", "i2c/d.c",
			       "i2c/e.c", "i2c/f.c" };
	char *key[] = { "i2c", "spi", "i2c", "i2c", "i2c", "i2c" };
	char *subj[] = { "i2c: a: x", "spi: b: x", "i2c: c: x", "i2c: d: x",
			 "i2c: e: x", "i2c: f: x" };
	struct source src = SOURCE_INIT;
	struct plan p = { NULL, 0 };
	struct cut *cut = NULL;

	plan_of(&src, &p, path, 6);
	size_t n = cut_series(&p, &src, key, subj, 3, &cut);
	CHECK(n == 3);
	if (n == 3) {
		/* i2c's five in two parts of 2 and 3, in order; spi whole */
		CHECK(!strcmp(cut[0].key, "i2c") && cut[0].n == 2 &&
		      cut[0].part == 1 && cut[0].parts == 2);
		CHECK(cut[0].commit[0] == 0 && cut[0].commit[1] == 2);
		CHECK(cut[1].n == 3 && cut[1].part == 2 && cut[1].commit[2] == 5);
		CHECK(!strcmp(cut[2].key, "spi") && cut[2].n == 1 &&
		      cut[2].parts == 1);
		CHECK_STR(cut[0].prefix, "i2c: ");
		CHECK_STR(cut[2].prefix, "spi: b: ");
	}
	cuts_free(cut, n);
	plan_release(&p);
	source_release(&src);
}

/* Without history, a driver is named as maintainers name it: the
 * subsystem, a plural directory in the singular, the file's own word. */
static void test_path_prefix(void)
{
	static const char *const want[][2] = {
		{ "drivers/i2c/muxes/i2c-mux-ltc4306.c", "i2c: mux: ltc4306: " },
		{ "drivers/i2c/busses/i2c-bcm2835.c", "i2c: bcm2835: " },
		{ "drivers/spi/spi-omap2-mcspi.c", "spi: omap2-mcspi: " },
	};
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		sb_setlen(&sb, 0);
		CHECK(path_prefix(&sb, want[i][0], 1) == 1);
		CHECK_STR(sb.buf, want[i][1]);
	}
	sb_setlen(&sb, 0);
	CHECK(path_prefix(&sb, "README", 1) == 0 && sb.len == 0);
	sb_release(&sb);
}

/* A commit of a history window as git log writes it for the learner:
 * "\1" ID " " PARENT "\2" AUTHOR "\2" NAME "\2" COMMITTER "\2" SUBJECT
 * NUL, LF, each path NUL. */
static void past(struct sbuf *log, int n, const char *subj,
		 const char *path1, const char *path2)
{
	sb_addf(log, "\1%040d %040d\2a@example.org\2A U Thor\2m@example.org"
		"\2%s", n, n + 1, subj);
	sb_add(log, "\0\n", 2);
	sb_add(log, path1, strlen(path1) + 1);
	if (path2)
		sb_add(log, path2, strlen(path2) + 1);
}

/* The learner from history: a file's own commits name it (not as the
 * path's rules would: "omap2"); its directory's commits give it their
 * words where those name no other file ("gpio: "), never another's
 * ("spi: old: "): the path's rules then, as for a file history says
 * nothing of. */
static void test_prefixes_from_log(void)
{
	const char *path[] = { "drivers/i2c/busses/i2c-omap.c",
			       "drivers/spi/spi-new.c",
			       "drivers/gpio/gpio-none.c",
			       "drivers/misc/lonely.c" };
	struct source src = SOURCE_INIT;
	struct plan p = { NULL, 0 };
	struct sbuf log = SBUF_INIT;

	past(&log, 1, "i2c: omap2: fix the clock", path[0], NULL);
	past(&log, 2, "i2c: omap2: drop a line", path[0], NULL);
	past(&log, 3, "i2c: busses: a sweep", "drivers/i2c/busses/i2c-a.c",
	     "drivers/i2c/busses/i2c-b.c");
	past(&log, 4, "spi: old: fix it", "drivers/spi/spi-old.c", NULL);
	past(&log, 5, "spi: old: fix it again", "drivers/spi/spi-old.c", NULL);
	past(&log, 6, "gpio: fix a", "drivers/gpio/gpio-a.c", NULL);
	past(&log, 7, "gpio: fix b", "drivers/gpio/gpio-b.c", NULL);
	plan_of(&src, &p, path, 4);
	prefixes_from_log(&p, &src, log.buf, log.len, 1);
	CHECK_STR(p.g[0].prefix, "i2c: omap2: ");
	CHECK_STR(p.g[1].prefix, "spi: new: ");
	CHECK_STR(p.g[2].prefix, "gpio: ");
	CHECK_STR(p.g[3].prefix, "misc: lonely: ");
	sb_release(&log);
	plan_release(&p);
	source_release(&src);
}

void unit_versions(void)
{
	test_prefixes_from_log();
	test_pids();
	test_became_of();
	test_add_patch_id();
	test_cut_series();
	test_path_prefix();
}
