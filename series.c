/*
 * series.c - turn a tree-wide change into a patch series that maintainers
 * can take, and tell whom to send each patch to.
 *
 * Formats it parses, each where its part reads it:
 *   git status --porcelain=v2 -z      the work tree's change (sources)
 *   unified diffs: git diff, format-patch mails and mboxes, diff -ruN,
 *     spatch's three header shapes      (sources: the diff; recipients: the
 *                                        script's line rules of a patch;
 *                                        sinks: hunks, for check's rules)
 *   git log -z --name-only            a range's commits (sources); the
 *                                     last 10,000 commits' authors,
 *                                     committers, subjects and paths
 *                                     (sources: history), for %(prefix)
 *                                     and the routes
 *   mbox files                        replies, for trailers and status
 *                                     (sources)
 *   format's records under refs/series/BRANCH/ (vN-mails, vN-split,
 *     vN-ids, vN-respin, pattern)       (versions)
 *   MAINTAINERS, .mailmap, .get_maintainer.conf and .ignore, .yaml
 *     bindings' addresses, git log for history (recipients)
 *   Perl regexes of N: and K: lines, a linear-time subset (recipients)
 *   git ls-files -s -z, fast-import marks (sinks: the commit transaction)
 *
 * The parts, in the order data flows:
 *   1. kit         formatting, errors, memory, buffers, text, child
 *                  processes and the git runner, the repository,
 *                  identities, options
 *   2. model       source, plan, commits, recipients, template
 *   3. sources     the work tree, the unified diff, a commit range (whole,
 *                  or per commit), patch files, mbox replies, the window
 *                  of history before a revision
 *   4. recipients  the engine (get_maintainer.pl's answer in one pass),
 *                  configuration, owners
 *   5. groupings   dir, depth, file, tree; subsystem, maintainers, route;
 *                  the organisations
 *   6. messages    templates, prefixes from history and from the path,
 *                  trailers
 *   7. sinks       the plan printer, the mail writer and the one pipeline
 *                  of a series of mails, the transaction core (commit,
 *                  apply, take, reword), the hardware checks
 *   8. versions    what format knows of a series beyond its mails: the
 *                  cover letter's parts, each version recorded, what
 *                  became of the last one's patches (the one fate engine),
 *                  several series, respin's run (the checkout off the
 *                  branch and back, the landing)
 *   9. commands    a context, then each command as named steps: plan,
 *                  commit, split, regroup, cc, format, check, trailers,
 *                  status, respin
 *  10. main
 * A command is one source, one grouping and one sink: plan = work tree or
 * range + grouping + plan printer; commit = work tree + grouping + commit;
 * split = diff + grouping + mail writer or apply; regroup = range +
 * grouping + take; format = range per commit + versions + mail writer;
 * check = patches or range per commit + hardware checks; trailers = range
 * per commit + replies + reword; cc = patches + the recipients engine;
 * status = a recorded version + upstream + replies; respin = the work
 * tree of a checkout + the last version's grouping + commit.
 *
 * TODO:
 *   - cc: a call still reads all of MAINTAINERS (~1.3 ms of CPU on the
 *     kernel's); a cache of the F: index beside it would cut that.
 *   - cc: .get_maintainer.conf and .ignore are read at the top only, not
 *     in $HOME; --maintainer-path is taken only where it names the top.
 *   - cc: --find-maintainer-files lstat()s every entry of the tree, as the
 *     script's File::Find does (0.17 s of U-Boot's 0.2 s per cc -f).
 *   - commit: signing (-S, commit.gpgSign) is refused, not done;
 *     submodule pointer changes are refused, not committed.
 *   - check: the rules read C text, not C; a remove() reached through a
 *     macro or a bus-specific callback name is not found.
 *   - messages: %(prefix) is right for 60-63% of Xen's single-directory
 *     commits on the first three windows of history, but 53-62% on four
 *     fresh ones (README); the directory's history holds the real prefix
 *     for 78-86% of them, and the choice among the area's own prefixes,
 *     which its authors themselves alternate between, is where fifty
 *     ways of voting tried land within 55-60% of the tuning windows.
 *   - format --split: each series asks MAINTAINERS for its mails'
 *     recipients apart (15% of its own time); one query for all would
 *     need every series' texts before the first is written.
 *   - messages: without history, the path's words are right for 26 and
 *     21 of the two sets of 30 kernel files tuned on, 17 of the 30 not;
 *     misses are words a path does not hold: a vendor's driver that
 *     drops "net: " (ice:, mlxsw:, nfp:), a core's "SUB: core: ",
 *     "Drivers: hv: ", "vt: " below tty/.
 *   - plan --compare: 0.37 s on the kernel's 1,031-file change (goal
 *     0.2 s); the recipients of ~1,100 groups after the diff take 0.11 s,
 *     and only the owners pass runs beside it.
 *   - split --commit still applies each group to a whole index (git apply
 *     --cached, write-tree, commit-tree per group): its cost follows the
 *     tree; regroup's take path cannot serve it (no commit has the files).
 *   - routes from history cost a bounded git log beside the range (0.3 s
 *     on Xen's 10,000 commits), read for --by route and --compare even
 *     where no file's committer is in MAINTAINERS.
 *   - routes: with the merges' own word where MAINTAINERS has no tree
 *     that merges, and a commit of several trees with the tree of most
 *     of its files, 67% of U-Boot's recently merged commits go to the
 *     tree that merged them, 50% and 57% of two older windows (test/bench
 *     routes); a platform's tree that merges a subsystem's driver loses
 *     to the subsystem's T:, a commit of THE REST's files alone goes to
 *     the main tree though a custodian took it with the rest of a
 *     series, and a renamed tree (u-boot-microblaze, now u-boot-amd)
 *     keeps its MAINTAINERS name.
 *   - cc --git: a file its window created keeps its own git log
 *     --follow (0.75 s on U-Boot, where --follow looks for a copy's
 *     source in the whole tree); the rest share four joint logs.
 *   - groupings: --by maintainers keys files by their recipients' text
 *     (owners.rcpt) beside the recipients themselves (owners.alone).
 *   - status: "how long since" counts from format, not from the mail's
 *     sending; a version formatted before format recorded Message-Ids
 *     matches no Link: and no reply by id.
 *   - respin carries no edit of the user's (a fix-up, an amended patch)
 *     onto the new base: it refuses by name (same_patches()).
 *   - trailers: a tag on an older version's cover letter is taken back
 *     from a changed patch after cover_tag() said where it goes, so its
 *     "goes to the N of M patches" line counts that patch too.
 *   - status: a squash that the maintainer also edited matches no sum of
 *     patch ids, and its patches stay pending.
 *   - size: 23,810 lines (goal: under 22,397).  `duplicates` over the
 *     file cut into its functions finds no run of four lines or more
 *     repeated but release and option-table boilerplate: what is left
 *     to cut is code, not copies.
 */
#define _POSIX_C_SOURCE 200809L

/* 32-bit systems: 64-bit inode numbers and sizes, or readdir() and stat()
 * fail with EOVERFLOW on today's file systems. */
#define _FILE_OFFSET_BITS 64

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>      /* rename() alone: output goes through put_out() */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "series.h"

#ifndef SERIES_VERSION
#define SERIES_VERSION "0.1"
#endif

/*
 * The mutable globals, three (options are parsed into each command's own
 * struct, on its stack): the signal that asked us to stop, the first
 * failed write to stdout (what stdio's error flag was: main() reports
 * it), and the temporary paths die() removes (temps, in the kit's first
 * part).  Handlers only set the signal; the code that owns a transaction
 * looks at it between steps and unwinds.
 */
static volatile sig_atomic_t stop_signal;
static int out_errno;

/* ==== 1. kit =============================================================
 * What every part uses: formatting, temporary paths, errors, memory,
 * buffers, text, child processes and the git runner, the repository and
 * the run's signals, identities, command-line options.
 */

/* ---- formatting ------------------------------------------------------------
 * The printf subset this file writes, here so that the C library's printf
 * and its floating point (11 KB of a static binary) stay out of it:
 *	%[-0][WIDTH|*][.PREC|.*][hh|h|l|ll|z](d|i|u|x|X|o|c|s|%)
 * fmt_v() writes at most size - 1 bytes and a NUL, and returns the length
 * the whole output wants, as vsnprintf() does.  The compiler checks each
 * call's arguments against its format (FORMAT, series.h).
 */
struct fmt_out {
	char *buf;
	size_t size, len;       /* len: what the output wants, not what fit */
};

static void fmt_put(struct fmt_out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, o->len++)
		if (o->len + 1 < o->size)
			o->buf[o->len] = s[i];
}

static void fmt_pad(struct fmt_out *o, char c, size_t n)
{
	while (n--)
		fmt_put(o, &c, 1);
}

/* The digits of v in base (16 and 'X' for upper case), at the end of a
 * buffer of 24; returns where they start. */
static char *fmt_digits(char *end, unsigned long long v, unsigned base,
			int upper)
{
	const char *digit = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	do
		*--end = digit[v % base];
	while (v /= base);
	return end;
}

/* A number of conversion c with length modifier len (0 int, 1 long, 2 long
 * long, 3 size_t), formatted as its precision asks. */
static size_t fmt_number(char *buf, int c, int len, int prec, va_list *ap,
			 char *sign)
{
	unsigned long long v;
	char *end = buf + 24;

	*sign = 0;
	if (c == 'd' || c == 'i') {
		long long s = len == 0 ? va_arg(*ap, int) :
			      len == 1 ? va_arg(*ap, long) :
			      len == 2 ? va_arg(*ap, long long) :
			      (long long)va_arg(*ap, ptrdiff_t);
		v = s < 0 ? 0 - (unsigned long long)s : (unsigned long long)s;
		*sign = s < 0 ? '-' : 0;
	} else {
		v = len == 0 ? va_arg(*ap, unsigned) :
		    len == 1 ? va_arg(*ap, unsigned long) :
		    len == 2 ? va_arg(*ap, unsigned long long) :
		    va_arg(*ap, size_t);
	}
	char *p = fmt_digits(end, v, c == 'o' ? 8 : c == 'x' || c == 'X' ? 16 : 10,
			     c == 'X');
	if (!prec && !v)
		p = end;
	while (prec > 0 && end - p < prec)
		*--p = '0';
	memmove(buf, p, (size_t)(end - p));
	return (size_t)(end - p);
}

/* One conversion's flags, width, precision (-1: none) and length
 * modifier (0 int, 1 long, 2 long long, 3 size_t). */
struct fmt_spec {
	int left, zero, width, prec, len;
};

/* Reads the spec after a '%' at *fmt, and the '*' arguments it takes. */
static void fmt_spec(const char **fmt, va_list *ap, struct fmt_spec *sp)
{
	const char *f = *fmt;

	*sp = (struct fmt_spec){ 0, 0, 0, -1, 0 };
	for (;; f++)
		if (*f == '-')
			sp->left = 1;
		else if (*f == '0')
			sp->zero = 1;
		else
			break;
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		sp->left |= sp->width < 0;
		sp->width = sp->width < 0 ? -sp->width : sp->width;
		f++;
	}
	for (; *f >= '0' && *f <= '9'; f++)
		sp->width = sp->width * 10 + *f - '0';
	if (*f == '.') {
		sp->prec = 0;
		if (*++f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		for (; *f >= '0' && *f <= '9'; f++)
			sp->prec = sp->prec * 10 + *f - '0';
	}
	for (; *f == 'h' || *f == 'l' || *f == 'z'; f++)
		sp->len = *f == 'z' ? 3 : *f == 'l' ? sp->len + 1 : sp->len;
	*fmt = f;
}

static size_t fmt_v(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { buf, size, 0 };
	struct fmt_spec sp;
	va_list args;

	va_copy(args, ap);
	for (;;) {
		const char *pct = strchr(fmt, '%');
		fmt_put(&o, fmt, pct ? (size_t)(pct - fmt) : strlen(fmt));
		if (!pct)
			break;
		fmt = pct + 1;
		fmt_spec(&fmt, &args, &sp);
		char tmp[24], sign = 0;
		const char *s = tmp;
		size_t n = 1;
		int c = *fmt ? *fmt++ : '%';
		if (c == 's') {
			s = va_arg(args, const char *);
			s = s ? s : "(null)";   /* as both C libraries write it */
			n = sp.prec < 0 ? strlen(s) : strnlen(s, (size_t)sp.prec);
			sp.zero = 0;
		} else if (c == 'c') {
			tmp[0] = (char)va_arg(args, int);
			sp.zero = 0;
		} else if (strchr("diuxXo", c)) {
			n = fmt_number(tmp, c, sp.len, sp.prec, &args, &sign);
			sp.zero &= sp.prec < 0;
		} else {
			tmp[0] = (char)c;       /* "%%", and what no format here has */
			sp.width = 0;
		}
		size_t w = (size_t)sp.width, have = n + !!sign;
		size_t pad = w > have ? w - have : 0;
		if (!sp.left && !sp.zero)
			fmt_pad(&o, ' ', pad);
		if (sign)
			fmt_put(&o, &sign, 1);
		if (!sp.left && sp.zero)
			fmt_pad(&o, '0', pad);
		fmt_put(&o, s, n);
		if (sp.left)
			fmt_pad(&o, ' ', pad);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

static size_t FORMAT(3, 4) fmt_buf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	size_t n = fmt_v(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- temporary paths -------------------------------------------------------
 * What a run makes beside the user's files and removes itself (an object
 * quarantine, an index copy, index.lock, a message file, a folder of
 * mails being written) is held here while it exists, so that die(), which
 * can strike anywhere (out of memory), removes it too: a fatal error
 * leaves nothing behind.  The owners keep the path strings.  Removing
 * may run because no memory could be had, and listing a folder takes some
 * (opendir()): while anything is held, a reserve is kept, given back the
 * first time a folder cannot be opened for want of memory.
 */
static struct {
	const char *path[8];
	pid_t pid;              /* the process that holds them: a forked job
				 * that dies must leave its parent's alone */
	void *reserve;          /* large enough to be mapped on its own */
} temps;

/* Names path (its owner keeps the string) as one die() must remove. */
static void temp_hold(const char *path)
{
	if (!temps.reserve)
		temps.reserve = malloc(256 << 10);
	temps.pid = getpid();
	for (size_t i = 0; i < sizeof temps.path / sizeof *temps.path; i++)
		if (!temps.path[i]) {
			temps.path[i] = path;
			return;
		}
	die("more temporary paths at once than a run makes (a bug)");
}

/* path is removed, or kept, by its owner from here on. */
static void temp_drop(const char *path)
{
	for (size_t i = 0; i < sizeof temps.path / sizeof *temps.path; i++)
		if (temps.path[i] == path)
			temps.path[i] = NULL;
}

/* Where temporary files go: $TMPDIR, else /tmp. */
static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

/* A new file dir/series-WHAT-XXXXXX (mkstemp), its name into path: kept
 * where keep (the caller holds it, temp_hold()), else unlinked at once,
 * so that nothing is left behind.  Its descriptor, or -1 with errno set. */
static int temp_file(struct sbuf *path, const char *dir, const char *what,
		     int keep)
{
	sb_addf(path, "%s/series-%s-XXXXXX", dir, what);
	int fd = mkstemp(path->buf);

	if (fd >= 0 && !keep && unlink(path->buf) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Removes path, a file or a folder with what is in it depth levels down
 * (pack/, xx/), and the lock git may have taken beside it. */
static void remove_tree(const char *path, int depth)
{
	char sub[PATH_MAX];
	DIR *d;

	if (fmt_buf(sub, sizeof sub, "%s.lock", path) < sizeof sub)
		unlink(sub);
	if (!unlink(path) || depth < 0)
		return;
	if (!(d = opendir(path)) && errno == ENOMEM && temps.reserve) {
		free(temps.reserve);
		temps.reserve = NULL;
		d = opendir(path);
	}
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    fmt_buf(sub, sizeof sub, "%s/%s", path, de->d_name) <
		    sizeof sub)
			remove_tree(sub, depth - 1);
	closedir(d);
	rmdir(path);
}

/* What die() does before it exits. */
static void temps_remove(void)
{
	if (getpid() != temps.pid)
		return;
	for (size_t i = 0; i < sizeof temps.path / sizeof *temps.path; i++)
		if (temps.path[i]) {
			remove_tree(temps.path[i], 32);
			temps.path[i] = NULL;
		}
}

/* ---- errors --------------------------------------------------------------
 * Every message goes through report(): "series: what: why" on one line.
 * error() reports and returns -1 for `return error(...)`; die() reports and
 * exits EXIT_FAIL.  Only main() and the helpers that never fail die: the
 * x* ones and the sb_* buffer functions (out of memory, a size overflow).
 */

/* Writes all of buf, retrying short writes; returns 0 or -1 (errno set).
 * A signal that asks us to stop ends the retries. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR && !stop_signal)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void report(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096], line[sizeof msg + 32];

	fmt_v(msg, sizeof msg, fmt, ap);
	/* One line: a path with a newline in it must not forge a second. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = '?';
	size_t n = fmt_buf(line, sizeof line, "series: %s%s\n", prefix, msg);
	write_all(2, line, n);     /* one write: the line stays whole */
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

/* error() of a system call that failed on what (a path): "series: WHAT:
 * REASON", the reason errno's. */
static int error_on(const char *what)
{
	return error("%s: %s", what, strerror(errno));
}

/* A line of what series did or found, "series: ..." on stderr, as error()
 * and warning() write theirs. */
static void FORMAT(1, 2) note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	temps_remove();
	exit(EXIT_FAIL);
}

/* ---- memory ----------------------------------------------------------------
 * The x* rule: a helper whose name starts with x never returns failure; it
 * dies instead.  Only allocation and arithmetic overflow take that road.
 */
static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

static void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

static void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

static size_t xadd(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		die("size overflow");
	return a + b;
}

static size_t xmul(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		die("size overflow");
	return a * b;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(xadd(n, 1));

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* Merges the sorted halves of the n elements at v (the first h, the
 * rest) through tmp, the left one's first where they compare equal. */
static void merge_sort(char *v, char *tmp, size_t n, size_t size,
		       int (*cmp)(const void *, const void *, const void *),
		       const void *ctx)
{
	size_t h = n / 2, i = 0, j = h;

	if (n < 2)
		return;
	merge_sort(v, tmp, h, size, cmp, ctx);
	merge_sort(v + h * size, tmp, n - h, size, cmp, ctx);
	for (size_t k = 0; k < n; k++) {
		size_t from = j == n || (i < h && cmp(v + i * size, v + j * size,
						      ctx) <= 0) ? i++ : j++;
		memcpy(tmp + k * size, v + from * size, size);
	}
	memcpy(v, tmp, n * size);
}

/* The one sort: of n elements (an empty, even NULL, array too), each
 * size bytes, by cmp(a, b, ctx).  Stable, so that equal elements keep
 * their order whatever the libc (qsort's order of them is its own). */
static void sort_ctx(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *, const void *),
		     const void *ctx)
{
	if (n < 2)
		return;
	char *tmp = xmalloc(xmul(n, size));
	merge_sort(base, tmp, n, size, cmp, ctx);
	free(tmp);
}

struct plain_cmp {
	int (*cmp)(const void *, const void *);
};

static int plain_cmp(const void *a, const void *b, const void *ctx)
{
	return ((const struct plain_cmp *)ctx)->cmp(a, b);
}

/* sort_ctx() by a comparison of two elements alone. */
static void sort_n(void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	struct plain_cmp c = { cmp };

	sort_ctx(base, n, size, plain_cmp, &c);
}

/* A path and what it belongs to (an index: the keyed entry it comes
 * from, the group it is in, the file of another source), to sort and
 * bsearch() by path. */
struct owned {
	const char *path;
	size_t k;
};

static int cmp_owned(const void *a, const void *b)
{
	return strcmp(((const struct owned *)a)->path,
		      ((const struct owned *)b)->path);
}

/* The one binary search: lo moves to the first index of [lo, hi) at
 * which `below`, an expression of mid, is false, for a `below` that holds
 * on a prefix of the range and not after it (a lower bound).  A macro, so
 * that each search compares inline. */
#define BSEARCH(lo, hi, mid, below) \
	while ((lo) < (hi)) { \
		size_t mid = (lo) + ((hi) - (lo)) / 2; \
		if (below) \
			(lo) = mid + 1; \
		else \
			(hi) = mid; \
	}

/* Grows *arr (of *alloc elements of size sz) to hold at least n. */
static void *xgrow(void *arr, size_t n, size_t *alloc, size_t sz)
{
	if (n <= *alloc)
		return arr;
	size_t a = *alloc < 16 ? 16 : xmul(*alloc, 2);
	if (a < n)
		a = n;
	*alloc = a;
	return xrealloc(arr, xmul(a, sz));
}

#define GROW(arr, n, alloc) ((arr) = xgrow((arr), (n), &(alloc), sizeof *(arr)))

/* ---- buffers ---------------------------------------------------------------
 * struct sbuf (see series.h): never NULL, always NUL-terminated, length
 * tracked.  Reads that fail restore the length they started with.
 */

char sbuf_slopbuf[1];

void sb_init(struct sbuf *sb)
{
	sb->buf = sbuf_slopbuf;
	sb->len = sb->alloc = 0;
}

void sb_release(struct sbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb_init(sb);
}

void sb_grow(struct sbuf *sb, size_t extra)
{
	size_t need = xadd(xadd(sb->len, extra), 1);

	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	size_t a = sb->alloc < 64 ? 64 : sb->alloc;
	while (a < need)
		a = xmul(a, 2);
	sb->buf = xrealloc(sb->buf, a);
	sb->alloc = a;
	if (!sb->len)
		sb->buf[0] = '\0';
}

void sb_setlen(struct sbuf *sb, size_t n)
{
	if (n > (sb->alloc ? sb->alloc - 1 : 0))
		die("sb_setlen beyond allocation");
	sb->len = n;
	if (sb->alloc)
		sb->buf[n] = '\0';
}

void sb_insert(struct sbuf *sb, size_t at, const void *data, size_t n)
{
	if (!n)
		return;
	sb_grow(sb, n);
	memmove(sb->buf + at + n, sb->buf + at, sb->len - at);
	memcpy(sb->buf + at, data, n);
	sb_setlen(sb, sb->len + n);
}

void sb_add(struct sbuf *sb, const void *data, size_t n)
{
	sb_insert(sb, sb->len, data, n);
}

void sb_adds(struct sbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(struct sbuf *sb, int c)
{
	char ch = (char)c;

	sb_add(sb, &ch, 1);
}

static void sb_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list again;

	va_copy(again, ap);
	size_t n = fmt_v(NULL, 0, fmt, ap);
	sb_grow(sb, n);
	fmt_v(sb->buf + sb->len, n + 1, fmt, again);
	va_end(again);
	sb_setlen(sb, sb->len + n);
}

void sb_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* sb emptied, then as sb_addf(): a path or key made again in a loop. */
static void FORMAT(2, 3) sb_setf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	sb_setlen(sb, 0);
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *sb_detach(struct sbuf *sb, size_t *len)
{
	char *p;

	if (len)
		*len = sb->len;
	p = sb->alloc ? sb->buf : xcalloc(1, 1);
	sb_init(sb);
	return p;
}

/* A new string, as sb_addf() writes it; the caller frees it. */
static char *FORMAT(1, 2) xstrfmt(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb, NULL);
}

/* Writes s[0..n) whole to fd, 1 (stdout) or 2 (stderr).  No stdio: what
 * series prints is built in an sbuf first, so its buffers would only copy
 * it again.  Unlike toybox's xwrite, no death here: stdout's first failed
 * write is kept (out_errno), which main() reports once the command is
 * done (as git's close_stdout does), so a closed pipe never cuts a
 * transaction or respin's put_back() short. */
static void put_out(int fd, const char *s, size_t n)
{
	if (write_all(fd, s, n) < 0 && fd == 1 && !out_errno)
		out_errno = errno;
}

/* Writes to fd what sb_addf() would add, in one write. */
static void FORMAT(2, 3) xfprintf(int fd, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	put_out(fd, sb.buf, sb.len);
	sb_release(&sb);
}

int sb_read_fd(struct sbuf *sb, int fd)
{
	size_t start = sb->len;

	for (;;) {
		if (sb->alloc - sb->len < 2)
			sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			sb_setlen(sb, start);
			errno = saved;
			return -1;
		}
		if (!n)
			return 0;
		sb_setlen(sb, sb->len + (size_t)n);
	}
}

int sb_read_file(struct sbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0)
		return -1;
	/* One allocation for a regular file, not a doubling series. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX / 2)
		sb_grow(sb, (size_t)st.st_size + 1);
	int r = sb_read_fd(sb, fd);
	int saved = errno;
	close(fd);
	errno = saved;
	return r;
}

static int needs_quote(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == '"' || c == '\\';
}

void sb_quote_c(struct sbuf *sb, const char *s, size_t n, int always)
{
	size_t i;

	for (i = 0; i < n && !needs_quote((unsigned char)s[i]); i++)
		;
	if (i == n && !always) {
		sb_add(sb, s, n);
		return;
	}
	sb_addc(sb, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		static const char esc[] = "\a\b\t\n\v\f\r";
		const char *e = c ? strchr(esc, c) : NULL;
		if (e)
			sb_addf(sb, "\\%c", "abtnvfr"[e - esc]);
		else if (c == '"' || c == '\\')
			sb_addf(sb, "\\%c", c);
		else if (needs_quote(c))
			sb_addf(sb, "\\%03o", c);
		else
			sb_addc(sb, c);
	}
	sb_addc(sb, '"');
}

/* Frees an array of n buffers (messages, file texts) and the array. */
static void sbufs_free(struct sbuf *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		sb_release(&v[i]);
	free(v);
}

/* ---- text kit --------------------------------------------------------------
 * The small parts every parser here shares.  White space has one
 * definition, Perl's \s (space, \t \n \v \f \r: what MAINTAINERS and git
 * mean by it), never the C library's isspace(), whose answer depends on
 * the locale.  A span is bytes that another buffer owns.
 */

static int is_space(int c)
{
	return c == ' ' || (unsigned)(c - '\t') < 5;
}

/* strtoll() without the C library's scanner and the FILE machinery it
 * reads through (2.7 KB of the binary); series.h says what it reads. */
long long scan_number(const char *s, char **end, int base)
{
	const char *p = s;

	while (is_space((unsigned char)*p))
		p++;
	int neg = *p == '-';
	p += *p == '-' || *p == '+';
	const char *digits = p;
	unsigned long long v = 0, lim = (unsigned long long)LLONG_MAX + neg;
	int over = 0;
	for (;; p++) {
		int c = (unsigned char)*p;
		int x = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'z' ? c - 'a' + 10 :
			c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
		if (x >= base)
			break;
		if (v > (lim - (unsigned)x) / (unsigned)base)
			over = 1;
		else
			v = v * (unsigned)base + (unsigned)x;
	}
	if (end)
		*end = (char *)(p == digits ? s : p);
	if (over) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return !neg ? (long long)v : v ? -(long long)(v - 1) - 1 : 0;
}

/* The line at *pos of [*pos, end), without its LF, in *line; *pos moves
 * past the LF.  Returns 0 at the end; a last line without LF is a line. */
static int next_line(const char **pos, const char *end, struct span *line)
{
	if (*pos >= end)
		return 0;
	const char *nl = memchr(*pos, '\n', (size_t)(end - *pos));
	line->p = *pos;
	line->len = (size_t)((nl ? nl : end) - *pos);
	*pos = nl ? nl + 1 : end;
	return 1;
}

/* s without white space at either end. */
static struct span trim_span(struct span s)
{
	while (s.len && is_space((unsigned char)s.p[0])) {
		s.p++;
		s.len--;
	}
	while (s.len && is_space((unsigned char)s.p[s.len - 1]))
		s.len--;
	return s;
}

/* Whether the bytes at s, up to end (NULL: s's NUL), start with prefix. */
static int starts_with(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return end ? (size_t)(end - s) >= n && !memcmp(s, prefix, n) :
		     !strncmp(s, prefix, n);
}

/* Whether s[0..len) is an object id: 40 (SHA-1) or 64 (SHA-256) hex
 * digits, in either case. */
static int is_oid(const char *s, size_t len)
{
	if (len != 40 && len != 64)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Whether s is one of the NUL-terminated strings of set. */
static int in_set(const struct sbuf *set, const char *s)
{
	for (const char *p = set->buf, *e = set->buf + set->len; p < e;
	     p += strlen(p) + 1)
		if (!strcmp(p, s))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts v[0..*n) bytewise and keeps each string once; the repeats are
 * freed where the array owns its strings. */
static void sort_unique(char **v, size_t *n, int owned)
{
	size_t w = 0;

	sort_n(v, *n, sizeof *v, cmp_str);
	for (size_t i = 0; i < *n; i++) {
		if (w && !strcmp(v[w - 1], v[i])) {
			if (owned)
				free(v[i]);
			continue;
		}
		v[w++] = v[i];
	}
	*n = w;
}

/* strcmp of v against the len bytes at s. */
static int cmp_bytes(const char *v, const char *s, size_t len)
{
	int c = strncmp(v, s, len);

	return c ? c : v[len] ? 1 : 0;
}

/* The directory part of path ("." for none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* C-unquotes the quoted token at s (s[0] == '"'); *end gets the byte after
 * the closing quote.  Returns NULL if it is not a well-formed quote. */
static char *unquote_c(const char *s, const char *lim, const char **end)
{
	struct sbuf out = SBUF_INIT;

	for (s++; s < lim && *s != '"'; s++) {
		if (*s != '\\') {
			sb_addc(&out, *s);
			continue;
		}
		if (++s >= lim)
			break;
		const char *e = strchr("abtnvfr\"\\", *s);
		if (*s && e) {
			sb_addc(&out, "\a\b\t\n\v\f\r\"\\"[e - "abtnvfr\"\\"]);
		} else if (lim - s >= 3 && s[0] >= '0' && s[0] <= '3' &&
			   s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			sb_addc(&out, (s[0] - '0') * 64 + (s[1] - '0') * 8 + s[2] - '0');
			s += 2;
		} else {
			break;
		}
	}
	if (s >= lim || *s != '"') {
		sb_release(&out);
		return NULL;
	}
	*end = s + 1;
	return sb_detach(&out, NULL);
}

/* The \S+ token at s, or a quoted one; NULL when there is none. */
static char *path_token(const char *s, const char *lim, const char **end)
{
	if (s < lim && *s == '"') {
		char *q = unquote_c(s, lim, end);
		if (q)
			return q;
	}
	const char *e = s;
	while (e < lim && !is_space((unsigned char)*e))
		e++;
	if (e == s)
		return NULL;
	*end = e;
	return xstrndup(s, (size_t)(e - s));
}

/* A hex digit's value, or -1. */
static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* Frees the n strings of v, and v. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* How common a byte is in C source and paths: the printable bytes and
 * white space, most common first, as counted over the kernel's drivers;
 * a byte not listed is rarer than all.  find_bytes() hunts for a needle's
 * rarest byte with memchr. */
static int byte_rank(unsigned char c)
{
	static const char order[] =
		" et_\tri\nasdncoulpm;f)(,vhEg-*=0>TbRIASx2CMDOL.NPk/1wy\"{}G3"
		"&UF5q6B#84<HV:7X[]Kz9W|+Y%\\!QZ@j'~?J`$";
	const char *at = c ? strchr(order, c) : NULL;

	return at ? (int)(sizeof order - (size_t)(at - order)) : 0;
}

/* The index of the rarest byte of s[0..n) (0 when n is 0). */
static size_t rarest_byte(const char *s, size_t n)
{
	size_t k = 0;
	int best = n ? byte_rank((unsigned char)s[0]) : 0;

	for (size_t i = 1; i < n && best; i++) {
		int r = byte_rank((unsigned char)s[i]);
		if (r < best) {
			best = r;
			k = i;
		}
	}
	return k;
}

/* find_bytes() with the needle's byte to hunt for, k, chosen already:
 * for a needle sought in many places. */
static const char *find_bytes_at(const char *h, size_t hn, const char *needle,
				 size_t nn, size_t k)
{
	if (!nn)
		return h;
	if (hn < nn)
		return NULL;
	/* the needle starts k bytes before each place its byte k is found */
	for (const char *p = h + k, *e = h + hn - (nn - k - 1); p < e; p++) {
		p = memchr(p, needle[k], (size_t)(e - p));
		if (!p)
			return NULL;
		if (!memcmp(p - k, needle, nn))
			return p - k;
	}
	return NULL;
}

/* The first place needle (nn bytes) occurs in h (hn bytes), or NULL.  In
 * a short h, hunting for the first byte costs less than choosing one. */
static const char *find_bytes(const char *h, size_t hn, const char *needle,
			      size_t nn)
{
	return find_bytes_at(h, hn, needle, nn,
			     hn < 256 ? 0 : rarest_byte(needle, nn));
}

/* strstr(3), found as find_bytes() finds it: the file's one substring
 * search, not libc's second one beside it (musl's two-way search is
 * 1.2 KB of the binary). */
static char *str_find(const char *h, const char *needle)
{
	return (char *)find_bytes(h, strlen(h), needle, strlen(needle));
}

/* ASCII-only case-insensitive strstr: Perl's /i on bytes, without locale. */
static const char *strcasestr_ascii(const char *h, const char *n)
{
	size_t m = strlen(n);

	for (; *h; h++) {
		size_t i = 0;
		while (i < m && h[i] && tolower((unsigned char)h[i]) ==
					 tolower((unsigned char)n[i]))
			i++;
		if (i == m)
			return h;
	}
	return NULL;
}

static void lower_ascii(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s + 32);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* The last c in s[0..n), or NULL. */
static const char *memrchr_bytes(const char *s, size_t n, char c)
{
	while (n--)
		if (s[n] == c)
			return s + n;
	return NULL;
}

/* ---- addresses ----------------------------------------------------------------
 * An address as MAINTAINERS, a trailer, a mail header or the command line
 * writes it; the one parser of them (git's stricter identity, with its
 * date, is parsed where identities are):
 *   address = [name] '<' box '>' [junk] | box
 * The last '<' that a '>' follows opens the box; white space around each
 * part is not part of it; name is as written, quotes and all.  Two
 * addresses reach the same person where their boxes are equal without
 * case.  A header's addresses are a struct addresses: each box once, in
 * the order they came, their spans into strings their owners keep
 * (struct address is in series.h, where a recipient holds one).
 */
struct addresses {
	struct address *v;
	size_t n, alloc;
};
#define ADDRESSES_INIT { NULL, 0, 0 }

static struct address parse_address(struct span l)
{
	struct address a = { { l.p, 0 }, trim_span(l), 0 };
	const char *lt = memrchr_bytes(l.p, l.len, '<');
	const char *gt = lt ? memchr(lt, '>', l.len - (size_t)(lt - l.p)) : NULL;

	if (gt) {
		a.name = trim_span((struct span){ l.p, (size_t)(lt - l.p) });
		a.box = (struct span){ lt + 1, (size_t)(gt - lt - 1) };
		a.angled = 1;
	}
	return a;
}

/* parse_address() of string s (NULL: an empty one). */
static struct address address_of(const char *s)
{
	return parse_address((struct span){ s ? s : "", s ? strlen(s) : 0 });
}

static int span_caseeq(struct span a, struct span b)
{
	return a.len == b.len && !strncasecmp(a.p, b.p, a.len);
}

/* Whether l (may be NULL) reaches box. */
static int addresses_have(const struct addresses *l, struct span box)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (span_caseeq(l->v[i].box, box))
			return 1;
	return 0;
}

/* Appends a to l unless l or other (may be NULL) reaches its box already:
 * a header never names one twice, and Cc: never one that To: has. */
static void addresses_add(struct addresses *l, struct address a,
			  const struct addresses *other)
{
	if (!a.box.len || addresses_have(l, a.box) || addresses_have(other, a.box))
		return;
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 8;
		l->v = xrealloc(l->v, xmul(l->alloc, sizeof *l->v));
	}
	l->v[l->n++] = a;
}

/* addresses_add() of each line of text (a string its caller keeps). */
static void addresses_add_lines(struct addresses *l, const char *text,
				const struct addresses *other)
{
	const char *pos = text, *end = text + strlen(text);

	for (struct span line; next_line(&pos, end, &line);)
		addresses_add(l, parse_address(line), other);
}

static void addresses_release(struct addresses *l)
{
	free(l->v);
	*l = (struct addresses)ADDRESSES_INIT;
}

/* text as lines of at most width columns, broken at spaces, the first
 * indented by lead spaces and the others by hang (a word too long for
 * that stands alone at the margin), then a newline. */
static void add_wrapped(struct sbuf *sb, const char *text, size_t width,
			size_t lead, size_t hang)
{
	size_t col = lead, start = lead;

	sb_addf(sb, "%*s", (int)lead, "");
	for (const char *p = text; *p;) {
		size_t spaces = strspn(p, " ");
		const char *w = p + spaces;
		size_t n = strcspn(w, " ");
		if (!n)
			break;
		if (col > start && col + spaces + n > width) {
			col = start = hang + n > width ? 0 : hang;
			sb_addf(sb, "\n%*s", (int)col, "");
		} else if (col > start) {
			sb_add(sb, p, spaces);
			col += spaces;
		}
		sb_add(sb, w, n);
		col += n;
		p = w + n;
	}
	sb_addc(sb, '\n');
}

/* Single-quotes s for a shell, as the user will paste it. */
static void add_shell_word(struct sbuf *sb, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-./+,:@%") == strlen(s)) {
		sb_adds(sb, s);
		return;
	}
	sb_addc(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sb_adds(sb, "'\\''");
		else
			sb_addc(sb, *s);
	sb_addc(sb, '\'');
}

/* n with a comma every three digits, as people read counts: "1,031". */
static void sb_add_count(struct sbuf *sb, size_t n)
{
	char digits[32];
	size_t len = fmt_buf(digits, sizeof digits, "%zu", n);

	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			sb_addc(sb, ',');
		sb_addc(sb, digits[i]);
	}
}

static void plural(struct sbuf *sb, size_t n, const char *what, const char *tail)
{
	sb_addf(sb, "%zu %s%s%s", n, what, n == 1 ? "" : "s", tail);
}

static size_t decimal_width(size_t n)
{
	size_t w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

/* ---- child processes -----------------------------------------------------
 * One spawn (child_start) and one wait (child_finish); the fd rules are in
 * series.h.  git is run through one runner (struct git_run, below) that
 * puts its pins first, so that user configuration cannot change the bytes
 * we parse.
 */

static void child_fd(int spec, int pipefd[2], int target, int parent_reads)
{
	if (spec == CHILD_PIPE) {
		int mine = parent_reads ? pipefd[1] : pipefd[0];
		dup2(mine, target);
		close(pipefd[0]);
		close(pipefd[1]);
	} else if (spec == CHILD_NULL) {
		int fd = open("/dev/null", target ? O_WRONLY : O_RDONLY);
		if (fd >= 0 && fd != target) {
			dup2(fd, target);
			close(fd);
		}
	} else if (spec > 2) {
		dup2(spec, target);
	}
}

static void child_exec(struct child *c, int p[3][2])
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP };

	/* A job of ours keeps our handlers: a stop request must reach the
	 * git it runs before it exits, or that git would outlive the run. */
	for (size_t i = 0; !c->fn && i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
	child_fd(c->in, p[0], 0, 0);
	child_fd(c->out, p[1], 1, 1);
	child_fd(c->err, p[2], 2, 1);
	if (c->dir && chdir(c->dir) < 0)
		_exit(127);
	for (const char *const *e = c->env; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[256];
		if (!eq || (size_t)(eq - *e) >= sizeof name)
			_exit(127);
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = '\0';
		if (setenv(name, eq + 1, 1) < 0)
			_exit(127);
	}
	if (c->fn)
		_exit(c->fn(c->arg) & 0x7f);
	execvp(c->argv[0], (char *const *)c->argv);
	_exit(127);
}

int child_start(struct child *c)
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int *spec[3] = { &c->in, &c->out, &c->err };

	for (int i = 0; i < 3; i++)
		if (*spec[i] == CHILD_PIPE && pipe(p[i]) < 0) {
			int saved = errno;
			for (int j = 0; j < i; j++)
				if (*spec[j] == CHILD_PIPE) {
					close(p[j][0]);
					close(p[j][1]);
				}
			return error("pipe: %s", strerror(saved));
		}
	c->pid = fork();
	if (c->pid < 0) {
		int saved = errno;
		for (int i = 0; i < 3; i++)
			if (*spec[i] == CHILD_PIPE) {
				close(p[i][0]);
				close(p[i][1]);
			}
		return error("fork: %s", strerror(saved));
	}
	if (!c->pid)
		child_exec(c, p);
	for (int i = 0; i < 3; i++)
		if (*spec[i] == CHILD_PIPE) {
			close(i ? p[i][1] : p[i][0]);
			*spec[i] = i ? p[i][0] : p[i][1];
		}
	return 0;
}

int child_finish(struct child *c)
{
	int status;

	if (stop_signal)
		kill(c->pid, SIGTERM);
	for (;;) {
		pid_t r = waitpid(c->pid, &status, 0);
		if (r == c->pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		/* A stop request reaches our child too, however it was sent. */
		if (stop_signal)
			kill(c->pid, SIGTERM);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/*
 * Feeds input to the child's stdin while draining its stdout, with poll(),
 * so that neither side blocks on a full pipe.  Our end of stdin is made
 * non-blocking: POLLOUT promises room for one byte, not for a whole chunk,
 * and a blocking write of 64 KB into a pipe whose reader waits for us to
 * read its output would never return (git cat-file --batch of a thousand
 * objects did exactly that).  A stop request kills the child (once); the
 * short poll timeout sees a signal that came between two looks at the flag.
 */
static int pump(pid_t pid, int in, const char *input, size_t inlen, int out,
		struct sbuf *sb)
{
	int failed = 0, killed = 0;

	if (in >= 0 && fcntl(in, F_SETFL, fcntl(in, F_GETFL) | O_NONBLOCK) < 0)
		failed = -1;
	while (in >= 0 || out >= 0) {
		struct pollfd pfd[2];
		nfds_t n = 0;
		if (stop_signal && !killed++)
			kill(pid, SIGTERM);
		if (in >= 0)
			pfd[n++] = (struct pollfd){ .fd = in, .events = POLLOUT };
		if (out >= 0)
			pfd[n++] = (struct pollfd){ .fd = out, .events = POLLIN };
		if (poll(pfd, n, 200) < 0) {
			if (errno == EINTR)
				continue;
			failed = -1;
			break;
		}
		for (nfds_t i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == in) {
				size_t chunk = inlen < 65536 ? inlen : 65536;
				ssize_t w = chunk ? write(in, input, chunk) : 0;
				if (w < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				if (w < 0)
					failed = -1; /* EPIPE: the child's status says why */
				if (w > 0) {
					input += w;
					inlen -= (size_t)w;
				}
				if (w <= 0 || !inlen) {
					close(in);
					in = -1;
				}
			} else {
				char buf[65536];
				ssize_t r = read(out, buf, sizeof buf);
				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0)
					failed = -1;
				if (r <= 0) {
					close(out);
					out = -1;
				} else if (sb) {
					sb_add(sb, buf, (size_t)r);
				}
			}
		}
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return failed;
}

int child_pump(struct child *c, const char *input, size_t inlen,
	       struct sbuf *out)
{
	int failed = pump(c->pid, input ? c->in : -1, input, inlen, c->out, out);
	int st = child_finish(c);

	return st == 0 && failed ? -1 : st;
}

/*
 * git, the one way series runs it.  Every git gets git_pins first: they
 * keep its output in the form we parse whatever the user's configuration
 * says (quoting, colour, rename detection, untracked files, relative paths,
 * prefixes, fsmonitor, signatures in log).  A call that needs more says
 * why where it adds its own "-c".
 */
static const char *const git_pins[] = {
	"git", "--no-pager", "-c", "core.quotePath=false", "-c", "color.ui=false",
	"-c", "status.renames=true", "-c", "status.showUntrackedFiles=no",
	"-c", "status.relativePaths=false", "-c", "diff.noprefix=false",
	"-c", "diff.mnemonicPrefix=false",
	"-c", "core.fsmonitor=false", "-c", "log.showSignature=false",
};

#define NPINS (sizeof git_pins / sizeof *git_pins)

/* One run of git: what it gets, where its output goes. */
struct git_run {
	const char *const *words;  /* what follows the pins, NULL-terminated */
	const char *const *env;    /* NAME=VALUE added, or NULL */
	const char *dir;           /* where it runs; NULL: here */
	const char *input;         /* its stdin (inlen bytes); NULL: /dev/null */
	size_t inlen;
	struct sbuf *out;          /* gets its stdout; NULL: dropped */
	int quiet;                 /* stderr to /dev/null: a question, whose
				    * "no" is not the user's business */
	int feed;                  /* git_start(): child.in is a pipe the
				    * caller writes and closes itself */
	int out_fd;                /* > 2: stdout goes to this open file, not
				    * to out, and git runs on while we do
				    * other work (it never waits on us) */
	struct sbuf *err;          /* gets its stderr (quiet then does not
				    * matter), through an unlinked file, so
				    * that it never waits on a full pipe */
	int errfd;                 /* that file, while started with err */
	struct child child;        /* once started */
	const char **argv;         /* pins and words, while started */
};

/* Starts g.  Returns 0, or -1 after error() (nothing runs then). */
static int git_start(struct git_run *g)
{
	size_t n = 0;

	while (g->words[n])
		n++;
	g->argv = xmalloc(xmul(xadd(NPINS + 1, n), sizeof *g->argv));
	memcpy(g->argv, git_pins, sizeof git_pins);
	memcpy(g->argv + NPINS, g->words, (n + 1) * sizeof *g->argv);
	/* no temporary file (a chroot without /tmp): git's stderr is ours */
	if (g->err) {
		struct sbuf path = SBUF_INIT;
		g->errfd = temp_file(&path, tmp_dir(), "err", 0);
		sb_release(&path);
	}
	g->child = (struct child){
		.argv = g->argv, .env = g->env, .dir = g->dir,
		.in = g->input || g->feed ? CHILD_PIPE : CHILD_NULL,
		.out = g->out_fd > 2 ? g->out_fd : CHILD_PIPE,
		.err = g->err && g->errfd >= 0 ? g->errfd :
		       g->quiet ? CHILD_NULL : CHILD_INHERIT };
	if (child_start(&g->child) < 0) {
		free(g->argv);
		g->argv = NULL;
		if (g->err && g->errfd >= 0)
			close(g->errfd);
		return -1;
	}
	return 0;
}

/* Feeds the input (unless the caller feeds it), drains stdout into out and
 * waits.  Returns the exit status, 128+N for signal N, or -1. */
static int git_finish(struct git_run *g)
{
	int r = g->out_fd > 2 ? child_finish(&g->child) :
		child_pump(&g->child, g->feed ? NULL : g->input, g->inlen,
			   g->out);

	if (g->err && g->errfd >= 0) {
		if ((lseek(g->errfd, 0, SEEK_SET) < 0 ||
		     sb_read_fd(g->err, g->errfd) < 0) && !r)
			r = -1;
		close(g->errfd);
	}

	free(g->argv);
	g->argv = NULL;
	return r;
}

/* Runs g to its end; git_finish()'s value, or -1 when it could not start. */
static int run_git(struct git_run *g)
{
	return git_start(g) < 0 ? -1 : git_finish(g);
}

/* Explains a git status code in an error naming the step. */
static int git_failed(const char *step, int status)
{
	if (stop_signal)
		return error("%s: interrupted by signal %d", step, (int)stop_signal);
	if (status == 127)
		return error("%s: could not run git", step);
	if (status > 128)
		return error("%s: git was killed by signal %d", step, status - 128);
	if (status < 0)
		return error("%s: could not wait for git", step);
	return error("%s: git failed with exit code %d", step, status);
}

/* Runs g and requires success: 0, or -1 after an error naming step. */
static int git_ok(const char *step, struct git_run *g)
{
	int r = run_git(g);

	return r ? git_failed(step, r) : 0;
}

/* Strips one trailing newline; a line of git output as a C string. */
static void chomp(struct sbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb_setlen(sb, sb->len - 1);
}

/* Runs g, whose answer is one object id, into id (72 bytes).  0, or -1
 * after error(). */
static int git_id(const char *step, struct git_run *g, char *id)
{
	struct sbuf out = SBUF_INIT;
	int r;

	g->out = &out;
	r = git_ok(step, g);
	chomp(&out);
	if (!r && !is_oid(out.buf, out.len))
		r = error("%s: unexpected answer", step);
	if (!r)
		memcpy(id, out.buf, out.len + 1);
	sb_release(&out);
	return r;
}

/* The words of a git command over paths taken as they are: head (NULL-
 * terminated) after --literal-pathspecs, then "--"; room for n paths and
 * the NULL after them, from *w on.  The caller frees the array only. */
static const char **pathspec_words(const char *const *head, size_t n,
				   size_t *w)
{
	size_t nh = 0;

	while (head[nh])
		nh++;
	const char **words = xcalloc(xadd(xadd(nh, n), 3), sizeof *words);
	*w = 0;
	words[(*w)++] = "--literal-pathspecs";
	for (size_t i = 0; i < nh; i++)
		words[(*w)++] = head[i];
	words[(*w)++] = "--";
	return words;
}

/* ---- the repository --------------------------------------------------------
 * Where the work tree, the git directory, the index and the objects are,
 * and what HEAD is, asked of git once (repo_open); the refusals that hold
 * for the whole run (an operation in progress); the signals that ask a run
 * to stop (they only set stop_signal; the owner of a transaction looks at
 * it between steps and unwinds).
 */

struct repo {
	char *top;      /* absolute work tree top */
	char *gitdir;   /* absolute $GIT_DIR of this work tree */
	char *index;    /* absolute index path ($GIT_INDEX_FILE honoured) */
	char *objects;  /* absolute object directory (the common one) */
	char old[72];   /* HEAD's commit, "" when the branch is unborn */
	char *ref;      /* what HEAD names: "refs/heads/x", or "HEAD" detached */
	char *hook_pre_commit, *hook_commit_msg; /* where git looks for them */
};

static void repo_release(struct repo *r)
{
	free(r->hook_pre_commit);
	free(r->hook_commit_msg);
	free(r->top);
	free(r->gitdir);
	free(r->index);
	free(r->objects);
	free(r->ref);
}

/* Splits git's newline-separated answer into n lines, or fails. */
static int take_lines(struct sbuf *out, char **lines, size_t n)
{
	const char *pos = out->buf, *end = out->buf + out->len;
	struct span l;

	for (size_t i = 0; i < n; i++) {
		if (!next_line(&pos, end, &l) || !l.len || l.p + l.len == end)
			return -1;   /* missing, empty, or without its LF */
		lines[i] = xstrndup(l.p, l.len);
	}
	return pos == end ? 0 : -1;
}

/*
 * HEAD's state.  `rev-parse -q --verify` exits 1 both for an unborn branch
 * and for a git that failed, so an unborn branch is only ever concluded from
 * a successful for-each-ref that lists no such ref.
 */
static int read_head(struct repo *r)
{
	struct sbuf out = SBUF_INIT;
	static const char *const sym[] = { "symbolic-ref", "-q", "HEAD", NULL };
	static const char *const head[] = {
		"rev-parse", "-q", "--verify", "HEAD^{commit}", NULL };
	int st = run_git(&(struct git_run){ .words = sym, .out = &out });

	chomp(&out);
	if (st > 1 || (st == 0 && (!starts_with(out.buf, NULL, "refs/") ||
				   memchr(out.buf, '\n', out.len)))) {
		sb_release(&out);
		return st ? git_failed("git symbolic-ref", st) :
			error("git symbolic-ref: unexpected answer");
	}
	r->ref = xstrdup(st == 0 ? out.buf : "HEAD");
	sb_setlen(&out, 0);
	if (st == 0) {
		const char *words[] = { "for-each-ref",
			"--format=%(objectname) %(refname)", r->ref, NULL };
		st = run_git(&(struct git_run){ .words = words, .out = &out });
		for (char *p = out.buf; !st && *p;) {
			char *nl = strchr(p, '\n'), *sp = strchr(p, ' ');
			if (!nl || !sp || sp > nl) {
				st = -2;
				break;
			}
			*nl = '\0';
			if (!strcmp(sp + 1, r->ref) && is_oid(p, (size_t)(sp - p)))
				memcpy(r->old, p, (size_t)(sp - p));
			p = nl + 1;
		}
		sb_release(&out);
		if (st == -2)
			return error("git for-each-ref: unexpected answer");
		return st ? git_failed("git for-each-ref", st) : 0;
	}
	st = run_git(&(struct git_run){ .words = head, .out = &out });
	chomp(&out);
	if (!st && is_oid(out.buf, out.len))
		memcpy(r->old, out.buf, out.len + 1);
	sb_release(&out);
	if (!*r->old)
		return st ? git_failed("git rev-parse", st) :
			error("git rev-parse: unexpected answer");
	return 0;
}

/*
 * Children run in the top of the work tree while the user may have named
 * the repository relative to where they stood (GIT_DIR=.git, a relative
 * GIT_WORK_TREE, core.worktree seen from inside the git directory): every
 * git after this one gets both, absolute, in its environment.
 */
static int pin_repo_env(const struct repo *r)
{
	if (setenv("GIT_DIR", r->gitdir, 1) < 0 ||
	    setenv("GIT_WORK_TREE", r->top, 1) < 0 ||
	    (getenv("GIT_INDEX_FILE") && setenv("GIT_INDEX_FILE", r->index, 1) < 0))
		return error("setenv: %s", strerror(errno));
	return 0;
}

/* error() with what git said on stderr as one line: its first line
 * without "fatal: ", and a command it suggests (a line that starts with a
 * tab and "git "), if any. */
static int git_reason(const struct sbuf *said)
{
	const char *pos = said->buf, *end = said->buf + said->len;
	struct span first = { "", 0 }, cmd = { NULL, 0 };

	for (struct span l; next_line(&pos, end, &l);) {
		struct span t = trim_span(l);
		if (!first.len && t.len)
			first = t;
		else if (!cmd.p && l.len > 5 && !memcmp(l.p, "\tgit ", 5))
			cmd = t;
	}
	if (first.len > 7 && !memcmp(first.p, "fatal: ", 7)) {
		first.p += 7;
		first.len -= 7;
	}
	if (!first.len)
		return error("git rev-parse: not inside a git work tree");
	if (cmd.p)
		return error("%.*s (%.*s)", (int)first.len, first.p,
			     (int)cmd.len, cmd.p);
	return error("%.*s", (int)first.len, first.p);
}

static int repo_open(struct repo *r)
{
	struct sbuf out = SBUF_INIT;
	char *lines[6] = { NULL };
	static const char *const where[] = {
		"rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-dir", "--git-path", "index", "--git-path", "objects",
		"--git-path", "hooks/pre-commit", "--git-path", "hooks/commit-msg",
		NULL };

	memset(r, 0, sizeof *r);
	struct sbuf why = SBUF_INIT;
	int st = run_git(&(struct git_run){ .words = where, .out = &out,
					    .err = &why });
	if (st == 128 && why.len) {
		/* git's reason, as our one line: "fatal: not a git
		 * repository ...", or dubious ownership with its command */
		int e = git_reason(&why);
		sb_release(&why);
		sb_release(&out);
		return e;
	}
	put_out(2, why.buf, why.len);    /* anything else: as git said */
	sb_release(&why);
	if (st)
		return git_failed("git rev-parse", st);
	if (take_lines(&out, lines, 6) < 0) {
		for (int i = 0; i < 6; i++)
			free(lines[i]);
		sb_release(&out);
		return error("git rev-parse: unexpected answer");
	}
	sb_release(&out);
	r->top = lines[0];
	r->gitdir = lines[1];
	r->index = lines[2];
	r->objects = lines[3];
	r->hook_pre_commit = lines[4];
	r->hook_commit_msg = lines[5];
	if (pin_repo_env(r) < 0)
		return -1;
	return read_head(r);
}

/* The branch HEAD is on ("x" of refs/heads/x), or NULL: detached. */
static const char *repo_branch(const struct repo *r)
{
	return r->ref && starts_with(r->ref, NULL, "refs/heads/") ? r->ref + 11 :
	       NULL;
}

/* Refuses to let command `who` commit in the middle of an operation whose
 * state a series of new commits would lose (the merge parent, the rest of a
 * rebase). */
static int check_idle(const struct repo *r, const char *who)
{
	static const struct { const char *file, *what; } ops[] = {
		{ "MERGE_HEAD", "a merge" },
		{ "CHERRY_PICK_HEAD", "a cherry-pick" },
		{ "REVERT_HEAD", "a revert" },
		{ "rebase-merge", "a rebase" },
		{ "rebase-apply", "a rebase or git am" },
		{ "series-respin", "a respin (series respin --abort undoes it)" },
	};
	struct sbuf path = SBUF_INIT;
	struct stat sb;

	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		sb_setf(&path, "%s/%s", r->gitdir, ops[i].file);
		if (!lstat(path.buf, &sb)) {
			sb_release(&path);
			return error("%s: %s is in progress (%s exists); finish "
				     "or abort it first", who, ops[i].what,
				     ops[i].file);
		}
	}
	sb_release(&path);
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Dies again of the signal that stopped us, so our parent sees it. */
static void reraise_stop(void)
{
	if (stop_signal) {
		signal((int)stop_signal, SIG_DFL);
		raise((int)stop_signal);
	}
}

/* ---- identities --------------------------------------------------------------
 * An identity as git writes it, the one parser of them.  Grammar:
 *   NAME ' '* '<' ADDR '>' [' ' SECONDS ' ' ('+'|'-') HH MM]
 * NAME is not empty and holds no '<'; ADDR holds no '>'.  The spans point
 * into the parsed string.
 */
struct ident {
	struct span name;     /* its trailing spaces off */
	struct span addr;     /* without the brackets */
	struct span who;      /* "Name <addr>", as a trailer names a person */
	int dated;            /* the date part was there */
	time_t when;
	int tz;               /* minutes east of UTC */
};

/* 0 with *id filled, or -1 when s is no identity. */
static int parse_ident(const char *s, struct ident *id)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	memset(id, 0, sizeof *id);
	if (!lt || lt == s || !gt || strchr(lt + 1, '<'))
		return -1;
	id->name = (struct span){ s, (size_t)(lt - s) };
	while (id->name.len && id->name.p[id->name.len - 1] == ' ')
		id->name.len--;
	id->addr = (struct span){ lt + 1, (size_t)(gt - lt - 1) };
	id->who = (struct span){ s, (size_t)(gt + 1 - s) };
	if (!gt[1])
		return 0;
	char *end;
	long long t = scan_number(gt + 1, &end, 10);
	if (gt[1] != ' ' || end == gt + 2 || *end != ' ' ||
	    (end[1] != '+' && end[1] != '-') || strspn(end + 2, "0123456789") != 4 ||
	    end[6])
		return -1;
	int z = (int)scan_number(end + 2, NULL, 10);
	id->dated = 1;
	id->when = (time_t)t;
	id->tz = (end[1] == '-' ? -1 : 1) * ((z / 100) * 60 + z % 100);
	return 0;
}

/* The env of a commit's identity: GIT_<WHO>_NAME, _EMAIL, _DATE from an
 * ident, into three buffers. */
static void ident_env(struct sbuf *e, const char *who, const char *ident)
{
	struct ident id;

	parse_ident(ident, &id);
	sb_addf(&e[0], "GIT_%s_NAME=%.*s", who, (int)id.name.len, id.name.p);
	sb_addf(&e[1], "GIT_%s_EMAIL=%.*s", who, (int)id.addr.len, id.addr.p);
	const char *date = id.who.p[id.who.len] ? id.who.p + id.who.len + 1 : "";
	sb_addf(&e[2], "GIT_%s_DATE=%s%s", who, *date ? "@" : "", date);
}

/* git's identity "Name <email> time tz" for author or committer. */
static char *ident(const char *which)
{
	const char *words[] = { "var", which, NULL };
	struct sbuf out = SBUF_INIT;

	if (git_ok("git var", &(struct git_run){ .words = words, .out = &out }) < 0) {
		sb_release(&out);
		return NULL;
	}
	chomp(&out);
	struct ident id;
	if (!out.len || memchr(out.buf, '\n', out.len) ||
	    parse_ident(out.buf, &id) < 0) {
		sb_release(&out);
		error("git var %s: unexpected answer", which);
		return NULL;
	}
	return sb_detach(&out, NULL);
}

/* git config's value of key, or NULL. */
static char *config_value(const char *key)
{
	struct sbuf out = SBUF_INIT;
	const char *words[] = { "config", "--get", key, NULL };

	if (run_git(&(struct git_run){ .words = words, .out = &out,
				       .quiet = 1 }) || !out.len) {
		sb_release(&out);
		return NULL;
	}
	chomp(&out);
	return sb_detach(&out, NULL);
}

/* ---- options, from tables ----------------------------------------------------
 * A row names a switch and where its value goes:
 * an offset into the command's own options struct.  Each command lists its
 * tables (the command table below main's section opens), one parser reads
 * them, and its synopsis (`series -h`, `series CMD -h`, a usage error) and
 * its help are printed from the same rows: a row's syn flags say how it
 * reads in the synopsis, the command only adds its words (PATCH...).
 * Conventions, git's: "--long=value", "--long value" or "-x value"; "--"
 * ends the options; -h anywhere is help on stdout and exit 0; a usage
 * error is one line naming it, then that command's synopsis, on stderr,
 * and exit 2, with nothing on stdout.
 */
enum opt_kind {
	OPT_FLAG,     /* int = val */
	OPT_VALUE,    /* const char * = the value */
	OPT_LIST,     /* struct opt_list += the value */
	OPT_NUMBER,   /* int = the value, in min..max */
	OPT_CHOICE    /* int = the index of the value in choices */
};

struct opt {
	const char *shrt, *lng;
	unsigned char kind;           /* enum opt_kind */
	unsigned short off;           /* into an options struct: small */
	short val;
	unsigned char syn;            /* SYN_*: how the synopsis shows it */
	const char *arg;              /* the value's name in help */
	const char *help;             /* NULL: an alias, not listed */
	union {                       /* by kind: one word, not two */
		const char *const *choices;   /* OPT_CHOICE: NULL-terminated */
		struct { int min, max; };     /* OPT_NUMBER's range */
	};
};

/* A row's place in the synopsis.  Each row is "[-x ARG]" (its short name
 * where it has one), "[-x ARG]..." if repeatable; an alias (no help) is
 * left out like SYN_HIDE. */
enum {
	SYN_HIDE = 1,   /* in the help only */
	SYN_OR = 2,     /* an alternative to the row before: [-F FILE | -m MSG] */
	SYN_IN = 4,     /* only with the row before: [-v N [--prev RANGE]] */
	SYN_LONG = 8,   /* shown by its long name though it has a short one */
	SYN_NOX = 16    /* "--no-X" that "--noX" names too, as Getopt::Long
			 * reads a negatable switch (get_maintainer.pl's) */
};

/* A repeated option's values, NULL-terminated (v is NULL when n is 0). */
struct opt_list {
	const char **v;
	size_t n;
};

struct args {
	int argc;
	char **argv;
	int i;
	const struct command *cmd;
	const char **word;   /* the words that are no option, in order */
	size_t nword;
	size_t dashdash;     /* how many of them came before "--" */
	struct opt_list **lists;  /* the repeated options' values, which
				   * args_release() frees */
	size_t nlists;
};

struct command {
	const char *name;
	int (*fn)(struct args *);
	const struct opt *const *tables; /* NULL-terminated; rows end at lng NULL */
	const struct opt *required;  /* a table of which one row must be given:
				      * "(-F FILE | -m MSG)"; or NULL */
	const char *words;   /* the synopsis's words after the options */
	int anywhere;        /* 1: words anywhere; 0: only after "--" */
	const char *exit1;   /* what exit 1 means */
};

/* Appends "NAME [OPTION]... WORDS", cmd's synopsis, to sb. */
static void add_synopsis(struct sbuf *sb, const struct command *cmd)
{
	char close[8];          /* the brackets open, innermost last */
	size_t open = 0;

	sb_adds(sb, cmd->name);
	for (const struct opt *const *t = cmd->tables; *t; t++) {
		for (const struct opt *o = *t; o->lng || o->shrt; o++) {
			if (!o->help || (o->syn & SYN_HIDE))
				continue;
			if (!(o->syn & (SYN_OR | SYN_IN)))
				while (open)
					sb_addc(sb, close[--open]);
			if (o->syn & SYN_OR) {
				sb_adds(sb, " | ");
			} else {
				/* one option required alone needs no brackets */
				int req = *t == cmd->required && !open;
				int alone = req && !(o[1].syn & SYN_OR);
				sb_adds(sb, alone ? " " : req ? " (" : " [");
				if (!alone)
					close[open++] = req ? ')' : ']';
			}
			sb_adds(sb, o->shrt && !(o->syn & SYN_LONG) ? o->shrt : o->lng);
			if (o->kind != OPT_FLAG)
				sb_addf(sb, " %s", o->arg);
			if (o->kind == OPT_LIST)
				sb_addf(sb, "%c...", close[--open]);
		}
		while (open)
			sb_addc(sb, close[--open]);
	}
	sb_addf(sb, " %s", cmd->words);
}

/* Prints "usage: series SYNOPSIS" on fd. */
static void print_synopsis(int fd, const char *lead, const struct command *cmd)
{
	struct sbuf sb = SBUF_INIT;

	add_synopsis(&sb, cmd);
	xfprintf(fd, "%s%s\n", lead, sb.buf);
	sb_release(&sb);
}

/* A usage error of cmd: "series: CMD: why", then its synopsis, on stderr.
 * Returns EXIT_USAGE. */
static int FORMAT(2, 3) cmd_usage(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;
	char why[1024];

	va_start(ap, fmt);
	fmt_v(why, sizeof why, fmt, ap);
	va_end(ap);
	error("%s: %s", cmd->name, why);
	print_synopsis(2, "usage: series ", cmd);
	return EXIT_USAGE;
}

/* The edit distance of a and b, as git's "did you mean" counts it: an
 * insertion, a deletion, a substitution or two neighbours swapped is 1.
 * Names longer than 31 bytes are too far from anything. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), d[33][33];

	if (n > 31 || m > 31)
		return SIZE_MAX;
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			size_t v = !i ? j : !j ? i : d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (i && j && d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (i && j && d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

/* Of the n names at name[0], name[step], ..., the one a slip of w most
 * likely meant (at most 2 edits away, and fewer than half of w), or
 * NULL. */
static const char *closest(const char *w, const char *const *name, size_t n,
			   size_t step)
{
	const char *best = NULL;
	size_t most = strlen(w) / 2 < 2 ? strlen(w) / 2 : 2;

	for (size_t i = 0; i < n; i++) {
		const char *c = *(const char *const *)((const char *)name + i * step);
		size_t d = c ? edit_distance(w, c) : SIZE_MAX;
		if (d && d <= most)
			best = c, most = d - 1;
	}
	return best;
}

/* The row that w names (its "=value" part aside), or NULL. */
static const struct opt *find_opt(const struct opt *const *tables,
				  const char *w, const char **inline_val)
{
	*inline_val = NULL;
	for (const struct opt *const *t = tables; t && *t; t++)
		for (const struct opt *o = *t; o->lng || o->shrt; o++) {
			if (o->shrt && !strcmp(w, o->shrt))
				return o;
			/* "-p1", as patch and git apply take it */
			if (o->shrt && o->kind != OPT_FLAG && !o->shrt[2] &&
			    w[0] == '-' && w[1] == o->shrt[1] && w[2]) {
				*inline_val = w + 2;
				return o;
			}
			size_t n = o->lng ? strlen(o->lng) : 0;
			if (!n || strncmp(w, o->lng, n))
				continue;
			if (!w[n])
				return o;
			if (w[n] == '=' && o->kind != OPT_FLAG) {
				*inline_val = w + n + 1;
				return o;
			}
		}
	if (!strncmp(w, "--no", 4) && w[4] && w[4] != '-') {
		char no[80];
		fmt_buf(no, sizeof no, "--no-%s", w + 4);
		const struct opt *o = find_opt(tables, no, inline_val);
		if (o && (o->syn & SYN_NOX))
			return o;
	}
	return NULL;
}

/* Stores v (NULL for a flag) as row o says.  0, or a usage error. */
static int set_opt(struct args *a, const struct opt *o, void *opts,
		   const char *v)
{
	const struct command *cmd = a->cmd;
	char *field = (char *)opts + o->off;
	const char *name = o->lng ? o->lng : o->shrt;

	switch (o->kind) {
	case OPT_FLAG:
		*(int *)(void *)field = o->val;
		return 0;
	case OPT_VALUE:
		*(const char **)(void *)field = v;
		return 0;
	case OPT_LIST: {
		struct opt_list *l = (struct opt_list *)(void *)field;
		if (!l->v) {
			a->lists = xrealloc(a->lists, xmul(a->nlists + 1,
							   sizeof *a->lists));
			a->lists[a->nlists++] = l;
		}
		l->v = xrealloc(l->v, xmul(l->n + 2, sizeof *l->v));
		l->v[l->n++] = v;
		l->v[l->n] = NULL;
		return 0;
	}
	case OPT_NUMBER: {
		char *end;
		errno = 0;
		long long n = scan_number(v, &end, 10);
		if (!*v || *end || errno || n < o->min || n > o->max)
			return cmd_usage(cmd, "%s: bad value '%s' (%d to %d)", name,
					 v, o->min, o->max);
		*(int *)(void *)field = (int)n;
		return 0;
	}
	case OPT_CHOICE:
		for (int i = 0; o->choices[i]; i++)
			if (!strcmp(v, o->choices[i])) {
				*(int *)(void *)field = i;
				return 0;
			}
		struct sbuf names = SBUF_INIT;
		for (int i = 0; o->choices[i]; i++)
			sb_addf(&names, "%s%s", i ? ", " : "", o->choices[i]);
		int r = cmd_usage(cmd, "%s: bad value '%s' (%s)", name, v,
				  names.buf);
		sb_release(&names);
		return r;
	}
	return 0;
}

/* Prints `series CMD -h`: the synopsis, then a line for each option. */
static void print_help(const struct command *cmd)
{
	struct sbuf line = SBUF_INIT;

	print_synopsis(1, "usage: series ", cmd);
	put_out(1, "\n", 1);
	for (const struct opt *const *t = cmd->tables; t && *t; t++)
		for (const struct opt *o = *t; o->lng || o->shrt; o++) {
			if (!o->help)
				continue;
			sb_setf(&line, "    %s%s%s", o->shrt ? o->shrt : "",
				o->shrt && o->lng ? ", " : "", o->lng ? o->lng : "");
			if (o->kind != OPT_FLAG)
				sb_addf(&line, " %s", o->arg);
			xfprintf(1, "%-30s %s\n", line.buf, o->help);
		}
	xfprintf(1, "\nexit: 0 done, 1 %s, 2 usage, 3 failure, "
		 "128+N killed by signal N\n", cmd->exit1);
	sb_release(&line);
}

/* A return of parse_opts(): -h was asked for and answered. */
#define HELP_SHOWN (-2)

/*
 * Reads a->argv[1..] by the command's tables into opts; the other words go
 * to a->word (a->dashdash of them before "--").  Returns 0, HELP_SHOWN, or
 * EXIT_USAGE after saying why.
 */
static int parse_opts(struct args *a, void *opts)
{
	const struct command *cmd = a->cmd;
	int dashdash = 0;

	a->word = xcalloc((size_t)a->argc, sizeof *a->word);
	a->nword = a->dashdash = 0;
	for (a->i = 1; a->i < a->argc; a->i++) {
		const char *w = a->argv[a->i], *v;
		if (dashdash || w[0] != '-' || !w[1]) {
			if (!dashdash && !cmd->anywhere)
				return cmd_usage(cmd, "unknown argument '%s' (paths "
						 "go after --)", w);
			a->word[a->nword++] = w;
			if (!dashdash)
				a->dashdash = a->nword;
			continue;
		}
		if (!strcmp(w, "--")) {
			dashdash = 1;
			a->dashdash = a->nword;
			continue;
		}
		if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
			print_help(cmd);
			return HELP_SHOWN;
		}
		const struct opt *o = find_opt(cmd->tables, w, &v);
		const char *near = NULL;
		for (const struct opt *const *t = cmd->tables; !o && t && *t && !near; t++) {
			size_t n = 0;
			while ((*t)[n].lng || (*t)[n].shrt)
				n++;
			near = closest(w, &(*t)->lng, n, sizeof **t);
		}
		if (!o && near)
			return cmd_usage(cmd, "unknown option '%s' (did you mean "
					 "'%s'?)", w, near);
		if (!o)
			return cmd_usage(cmd, "unknown option '%s'", w);
		if (o->kind != OPT_FLAG && !v) {
			if (a->i + 1 >= a->argc)
				return cmd_usage(cmd, "%s needs a value", w);
			v = a->argv[++a->i];
		}
		int r = set_opt(a, o, opts, v);
		if (r)
			return r;
	}
	if (!dashdash)
		a->dashdash = a->nword;
	return 0;
}

/* Frees what parse_opts() allocated: the words, the repeated options'
 * values. */
static void args_release(struct args *a)
{
	for (size_t i = 0; i < a->nlists; i++) {
		free(a->lists[i]->v);
		*a->lists[i] = (struct opt_list){ NULL, 0 };
	}
	free(a->lists);
	free(a->word);
	a->lists = NULL;
	a->word = NULL;
	a->nlists = a->nword = 0;
}

/* ==== 2. model ===========================================================
 * What flows between the parts, each with its invariants in series.h or
 * here: a source (the changed files, struct source), a plan (groups of a
 * source's files), a range's commits (struct rcommits), recipients
 * (struct recipients) and a message template (struct template).  Every
 * command starts from one source; what follows (groupings, sinks) reads
 * that list and nothing else of the input, so a new input is a new source
 * and no new command path.
 */

void source_release(struct source *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		free(src->f[i].path);
		free(src->f[i].orig);
	}
	free(src->f);
	sb_release(&src->text);
	src->f = NULL;
	src->nr = src->alloc = 0;
}

static struct sfile *source_add(struct source *src)
{
	GROW(src->f, src->nr + 1, src->alloc);
	struct sfile *f = &src->f[src->nr++];
	memset(f, 0, sizeof *f);
	return f;
}

/* Moves file j of src into dst, its diff text with it; returns its index
 * in dst.  src keeps an entry without names. */
static size_t source_take(struct source *dst, struct source *src, size_t j)
{
	struct sfile *f = source_add(dst), *g = &src->f[j];
	size_t at = dst->text.len;

	*f = *g;
	sb_add(&dst->text, src->text.buf + g->off, g->len);
	f->off = at;
	f->body = g->body >= g->off ? at + (g->body - g->off) : at;
	g->path = g->orig = NULL;
	return dst->nr - 1;
}

/* Frees what a group owns: its name, members, section, prefix and tag. */
static void group_release(struct group *g)
{
	free(g->name);
	free(g->tag);
	free(g->member);
	free(g->section);
	free(g->prefix);
	free(g->msg);
	memset(g, 0, sizeof *g);
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nr; i++)
		group_release(&p->g[i]);
	free(p->g);
	p->g = NULL;
	p->nr = 0;
}

/* A commit's author as git writes an ident: "Name <addr> SECONDS ZONE". */
static void author_ident(struct sbuf *out, const struct rcommit *c)
{
	int tz = c->tz < 0 ? -c->tz : c->tz;

	sb_addf(out, "%s %lld %c%02d%02d", c->author, (long long)c->when,
		c->tz < 0 ? '-' : '+', tz / 60, tz % 60);
}

static void rcommit_release(struct rcommit *c)
{
	free(c->msg);
	free(c->author);
	free_strings(c->path, c->npath);
	memset(c, 0, sizeof *c);
}

void rcommits_release(struct rcommits *rc)
{
	for (size_t i = 0; i < rc->nr; i++)
		rcommit_release(&rc->c[i]);
	free(rc->c);
	memset(rc, 0, sizeof *rc);
}

/* Recipients (series.h): the engine fills them, everything after reads
 * them as data. */
void recipients_release(struct recipients *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].addr);
		free(r->v[i].role);
	}
	free(r->v);
	*r = (struct recipients)RECIPIENTS_INIT;
}

void recipients_free(struct recipients *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		recipients_release(&r[i]);
	free(r);
}

static void recipients_add(struct recipients *r, const char *addr,
			   const char *role, int list)
{
	GROW(r->v, r->n + 1, r->alloc);
	struct recipient *v = &r->v[r->n++];
	v->addr = xstrdup(addr);
	v->role = xstrdup(role);
	v->list = list;
	v->a = address_of(v->addr);
}

/* A copy of r into out (empty before). */
static void recipients_copy(struct recipients *out, const struct recipients *r)
{
	for (size_t i = 0; i < r->n; i++)
		recipients_add(out, r->v[i].addr, r->v[i].role, r->v[i].list);
	out->people = r->people;
}

/* Whether r sends to the list box (in either part: see struct
 * recipient's list; a list is its mailbox alone, a reviewer's "NXP Linux
 * Team <linux-imx@nxp.com>" the list linux-imx@nxp.com). */
static int recipients_list(const struct recipients *r, struct span box)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].list && span_caseeq(r->v[i].a.box, box))
			return 1;
	return 0;
}

void recipients_write(struct sbuf *out, const struct recipients *r, int roles)
{
	for (size_t i = 0; i < r->n; i++) {
		sb_adds(out, r->v[i].addr);
		if (roles)
			sb_addf(out, " (%s)", r->v[i].role);
		sb_addc(out, '\n');
	}
}

int recipients_have(const struct recipients *r, const char *addr, int people)
{
	for (size_t i = people ? 0 : r->people; i < (people ? r->people : r->n); i++)
		if (!strcmp(r->v[i].addr, addr))
			return 1;
	return 0;
}

struct template {
	const char *text;
	size_t len;
	const char *sob;   /* signoff line or NULL */
};

/* ==== 3. sources =========================================================
 * Each turns an input into a source: the work tree (git status), a
 * unified diff (a file, stdin, mails), a commit range (git's diff of it,
 * or one entry per commit), patch files; and the replies of an mbox.
 */

/* ---- status parser: the work tree as a source -------------------------------
 * Grammar of `git status --porcelain=v2 -z` (man git-status); -z means no
 * quoting at all and every record ends in NUL:
 *   "# " header                                   (skipped)
 *   "1 XY sub mH mI mW hH hI path"
 *   "2 XY sub mH mI mW hH hI Xscore path" NUL "origPath"
 *                                                  (new path, then old path)
 *   "u XY sub m1 m2 m3 mW h1 h2 h3 path"
 *   "? path"   "! path"
 * States: RECORD -> fields separated by single spaces -> PATH (the rest, any
 * byte but NUL) -> for "2" one more NUL-terminated ORIG -> RECORD.
 */

struct cursor {
	const char *p, *end;
};

/* The next space-terminated field, or NULL when there is none. */
static const char *field(struct cursor *c, size_t *len)
{
	const char *s = c->p;
	const char *e = memchr(s, ' ', (size_t)(c->end - s));

	if (!e || e == s)
		return NULL;
	*len = (size_t)(e - s);
	c->p = e + 1;
	return s;
}

static int octal_field(struct cursor *c, unsigned *mode)
{
	size_t len;
	const char *s = field(c, &len);
	unsigned v = 0;

	if (!s || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '7')
			return -1;
		v = v * 8 + (unsigned)(s[i] - '0');
	}
	*mode = v;
	return 0;
}

/* An object id field; copied to oid (65 bytes) when oid is not NULL. */
static int hex_field(struct cursor *c, char *oid)
{
	size_t len;
	const char *s = field(c, &len);

	if (!s || !is_oid(s, len))
		return -1;
	if (oid) {
		memcpy(oid, s, len);
		oid[len] = '\0';
	}
	return 0;
}

/* A NUL-terminated path at the cursor, or NULL. */
static char *path_field(struct cursor *c)
{
	const char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul || nul == c->p)
		return NULL;
	char *s = xstrndup(c->p, (size_t)(nul - c->p));
	c->p = nul + 1;
	return s;
}

static int parse_changed(struct cursor *c, struct entry *e)
{
	size_t len;
	const char *xy = field(c, &len);

	if (!xy || len != 2)
		return -1;
	e->x = xy[0];
	e->y = xy[1];
	const char *sub = field(c, &len);
	if (!sub || len != 4)
		return -1;
	memcpy(e->sub, sub, 4);
	e->sub[4] = '\0';
	unsigned m3;
	if (octal_field(c, &e->mode_head) < 0 ||
	    (e->kind == E_UNMERGED && octal_field(c, &m3) < 0) ||
	    octal_field(c, &e->mode_index) < 0 ||
	    octal_field(c, &e->mode_wt) < 0 ||
	    hex_field(c, e->oid_head) < 0 ||
	    hex_field(c, e->kind == E_UNMERGED ? NULL : e->oid_index) < 0 ||
	    (e->kind == E_UNMERGED && hex_field(c, NULL) < 0))
		return -1;
	if (e->kind == E_RENAMED) {
		const char *score = field(c, &len);
		if (!score || (score[0] != 'R' && score[0] != 'C'))
			return -1;
	}
	if (!(e->path = path_field(c)))
		return -1;
	if (e->kind == E_RENAMED && !(e->orig = path_field(c)))
		return -1;
	return 0;
}

static void entry_release(struct entry *e)
{
	free(e->path);
	free(e->orig);
}

int parse_status(struct status *st, const char *buf, size_t len)
{
	struct cursor c = { buf, buf + len };

	while (c.p < c.end) {
		struct entry e = { 0 };
		const char *rec = c.p;
		e.kind = *c.p;
		if (c.end - c.p < 3 || c.p[1] != ' ')
			goto bad;
		c.p += 2;
		if (e.kind == '#') {
			const char *nul = memchr(c.p, '\0', (size_t)(c.end - c.p));
			if (!nul)
				goto bad;
			c.p = nul + 1;
			continue;
		}
		if (e.kind == E_UNTRACKED || e.kind == E_IGNORED) {
			e.x = e.y = e.kind;
			if (!(e.path = path_field(&c)))
				goto bad;
		} else if (e.kind == E_CHANGED || e.kind == E_RENAMED ||
			   e.kind == E_UNMERGED) {
			if (parse_changed(&c, &e) < 0) {
				entry_release(&e);
				goto bad;
			}
		} else {
			goto bad;
		}
		GROW(st->e, st->nr + 1, st->alloc);
		st->e[st->nr++] = e;
		continue;
bad:
		{
			struct sbuf q = SBUF_INIT;
			size_t n = (size_t)(c.end - rec);
			sb_quote_c(&q, rec, n > 60 ? 60 : n, 0);
			error("git status: malformed record at byte %zu: %s",
			      (size_t)(rec - buf), q.buf);
			sb_release(&q);
			return -1;
		}
	}
	return 0;
}

void status_release(struct status *st)
{
	for (size_t i = 0; i < st->nr; i++)
		entry_release(&st->e[i]);
	free(st->e);
	st->e = NULL;
	st->nr = st->alloc = 0;
}

/* Runs status from the caller's directory, so pathspecs mean what they
 * say; untracked files listed where untracked is set.  Quiet where
 * untracked is 2: a failing git is not said (the caller tries again). */
static int read_status(struct status *st, int untracked,
		       const char *const *pathspec)
{
	const char *words[64 + 1];
	size_t n = 0;
	words[n++] = "--no-optional-locks";
	words[n++] = "status";
	words[n++] = "--porcelain=v2";
	words[n++] = "-z";
	words[n++] = untracked ? "--untracked-files=all" :
				 "--untracked-files=no";
	words[n++] = "--ignore-submodules=dirty";
	words[n++] = "--";
	size_t np = 0;
	while (pathspec && pathspec[np])
		np++;
	const char **w = xmalloc(xmul(n + np + 1, sizeof *w));
	memcpy(w, words, n * sizeof *w);
	memcpy(w + n, pathspec ? pathspec : words + n, np * sizeof *w);
	w[n + np] = NULL;

	struct sbuf out = SBUF_INIT;
	struct git_run g = { .words = w, .out = &out, .quiet = untracked == 2 };
	int r = untracked == 2 ? (run_git(&g) ? -1 : 0) : git_ok("git status", &g);
	free(w);
	if (!r)
		r = parse_status(st, out.buf, out.len);
	sb_release(&out);
	return r;
}

/* Whether committing the work tree's side of e changes the tree at all. */
static int entry_changes_tree(const struct entry *e)
{
	if (e->kind == E_IGNORED)
		return 0;
	if (e->kind == E_UNTRACKED || e->kind == E_RENAMED)
		return 1;
	/* Added to the index, then deleted: absent on both sides. */
	return e->mode_head || e->mode_wt;
}

void source_from_status(struct source *src, const struct status *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		const struct entry *e = &st->e[i];
		struct sfile *f = source_add(src);
		f->path = xstrdup(e->path);
		f->orig = e->orig ? xstrdup(e->orig) : NULL;
		f->noop = !entry_changes_tree(e);
		f->old_mode = e->kind == E_UNTRACKED ? 0 : e->mode_head;
		f->new_mode = e->kind == E_UNTRACKED ? 0100644 : e->mode_wt;
		f->kind = e->orig ? (e->x == 'C' ? SF_COPY : SF_RENAME) :
			  !f->new_mode ? SF_DELETE :
			  !f->old_mode ? SF_ADD : SF_MODIFY;
		f->entry = e;
	}
}

/* What no series can commit: a conflict, a submodule's pointer.  0, or
 * -1 after error() naming path. */
static int refuse_path(const char *path, int unmerged, int submodule)
{
	if (unmerged)
		return error("%s: unmerged; resolve the conflict first", path);
	if (submodule)
		return error("%s: submodule changes are not supported", path);
	return 0;
}

/* Refuses what a series cannot commit: conflicts, submodule pointers and
 * nested repositories (an untracked directory git shows whole). */
static int check_plan(const struct plan *p, const struct source *src)
{
	int r = 0;

	for (size_t i = 0; i < p->nr && !r; i++)
		for (size_t j = 0; j < p->g[i].nr && !r; j++) {
			const struct entry *e = src->f[p->g[i].member[j]].entry;
			r = refuse_path(e->path, e->kind == E_UNMERGED,
					e->mode_wt == 0160000 || e->mode_head == 0160000 ||
					e->mode_index == 0160000 ||
					e->path[strlen(e->path) - 1] == '/');
		}
	return r;
}

/* ---- mails: encodings --------------------------------------------------------
 * A mail's text as git mailinfo reads it: RFC 2047 words in headers, a
 * body in quoted-printable or base64, a Latin-1 charset, MIME parts.  The
 * unified diff reads mails through it, and so do the replies.
 */

static int b64val(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 :
	       c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 (RFC 2045) of s onto out; white space between the groups is
 * passed over.  0, or -1 at a byte that is none of its alphabet. */
static int decode_base64(struct sbuf *out, const char *s, size_t n)
{
	unsigned acc = 0;
	int bits = 0;

	for (const char *t = s, *end = s + n; t < end && *t != '='; t++) {
		int v = b64val((unsigned char)*t);
		if (v < 0 && is_space((unsigned char)*t))
			continue;
		if (v < 0)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sb_addc(out, (char)((acc >> bits) & 0xff));
		}
	}
	return 0;
}

/* Quoted-printable of s onto out: "=XX" is the byte, "=" at a line's end
 * a soft break; in a header's encoded word (word) "_" is a space. */
static void decode_qp(struct sbuf *out, const char *s, size_t n, int word)
{
	for (const char *t = s, *end = s + n; t < end; t++) {
		if (*t == '_' && word)
			sb_addc(out, ' ');
		else if (*t == '=' && end - t >= 3 && hexval(t[1]) >= 0 &&
			 hexval(t[2]) >= 0) {
			sb_addc(out, (char)(hexval(t[1]) * 16 + hexval(t[2])));
			t += 2;
		} else if (*t == '=' && end - t >= 2 && t[1] == '\n')
			t++;
		else if (*t == '=' && end - t >= 3 && t[1] == '\r' && t[2] == '\n')
			t += 2;
		else
			sb_addc(out, *t);
	}
}

/* The charsets a mail's text is read in: 1 for ISO-8859-1 (and its
 * names), 0 for UTF-8 or US-ASCII, -1 for any other. */
static int charset_latin1(const char *cs, size_t n)
{
	static const char *const latin1[] = { "iso-8859-1", "latin1",
		"iso_8859-1", "windows-1252", "cp1252", NULL };

	if ((n == 5 && !strncasecmp(cs, "utf-8", 5)) ||
	    (n == 8 && !strncasecmp(cs, "us-ascii", 8)))
		return 0;
	for (const char *const *l = latin1; *l; l++)
		if (n == strlen(*l) && !strncasecmp(cs, *l, n))
			return 1;
	return -1;
}

/* raw onto out, as UTF-8: from ISO-8859-1 where latin1 is set. */
static void add_utf8(struct sbuf *out, const struct sbuf *raw, int latin1)
{
	for (size_t i = 0; i < raw->len; i++) {
		unsigned char c = (unsigned char)raw->buf[i];
		if (latin1 && c >= 0x80) {
			sb_addc(out, (char)(0xc0 | (c >> 6)));
			sb_addc(out, (char)(0x80 | (c & 0x3f)));
		} else
			sb_addc(out, (char)c);
	}
}

/* One encoded word's text "CHARSET?E?TEXT" decoded onto out; 0, or -1
 * where it is not one we read (then it stays as it was). */
static int decode_word(struct sbuf *out, const char *w, size_t n)
{
	const char *q1 = memchr(w, '?', n);
	if (!q1 || (size_t)(q1 - w) + 3 > n || q1[2] != '?')
		return -1;
	int latin1 = charset_latin1(w, (size_t)(q1 - w));
	char enc = (char)toupper((unsigned char)q1[1]);
	const char *t = q1 + 3;
	struct sbuf raw = SBUF_INIT;
	int r = latin1 < 0 || (enc != 'Q' && enc != 'B') ? -1 : 0;
	if (!r && enc == 'Q')
		decode_qp(&raw, t, (size_t)(w + n - t), 1);
	else if (!r)
		r = decode_base64(&raw, t, (size_t)(w + n - t));
	if (!r)
		add_utf8(out, &raw, latin1);
	sb_release(&raw);
	return r;
}

/* A header's value with its encoded words decoded; white space between
 * two encoded words goes, as RFC 2047 says. */
static char *decode_header(const char *v, size_t n)
{
	struct sbuf out = SBUF_INIT;
	const char *p = v, *end = v + n;
	int after_word = 0;

	while (p < end) {
		const char *open = find_bytes(p, (size_t)(end - p), "=?", 2);
		const char *close = open ? find_bytes(open + 2, (size_t)(end - open - 2),
						      "?=", 2) : NULL;
		/* "?=" inside "?Q?" is not the close: charset?E?text */
		while (close && open && close < open + 4) {
			const char *again = find_bytes(close + 1, (size_t)(end - close - 1),
						       "?=", 2);
			close = again;
		}
		if (!open || !close) {
			sb_add(&out, p, (size_t)(end - p));
			break;
		}
		struct span gap = { p, (size_t)(open - p) };
		if (!(after_word && !trim_span(gap).len))
			sb_add(&out, gap.p, gap.len);
		size_t before = out.len;
		if (decode_word(&out, open + 2, (size_t)(close - open - 2)) < 0) {
			sb_setlen(&out, before);
			sb_add(&out, open, (size_t)(close + 2 - open));
			after_word = 0;
		} else
			after_word = 1;
		p = close + 2;
	}
	return sb_detach(&out, NULL);
}

/* How a message's (or a MIME part's) body is written, from its
 * Content-Type and Content-Transfer-Encoding. */
struct body_form {
	char cte;          /* 'q' quoted-printable, 'b' base64, 0 as it is */
	int latin1;        /* as charset_latin1() says; -1: not read */
	int text;          /* text/plain, or no Content-Type at all */
	char *boundary;    /* multipart: "--" and its boundary, else NULL */
};

/* The value of parameter name ("charset", "boundary") in a Content-Type
 * value, its quotes off, malloc'd; or NULL. */
static char *type_param(const char *v, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strchr(v, ';'); p; p = strchr(p + 1, ';')) {
		const char *q = p + 1;
		while (is_space((unsigned char)*q))
			q++;
		if (strncasecmp(q, name, n) || q[n] != '=')
			continue;
		q += n + 1;
		if (*q == '"') {
			const char *e = strchr(q + 1, '"');
			return e ? xstrndup(q + 1, (size_t)(e - q - 1)) : NULL;
		}
		size_t len = strcspn(q, "; \t");
		return xstrndup(q, len);
	}
	return NULL;
}

/* The body form a header line h ("Name: value") gives, where it is a
 * Content- one; 1 when it was. */
static int body_header(struct body_form *bf, const char *h, size_t nl,
		       const char *val)
{
	if (nl == 25 && !strncasecmp(h, "Content-Transfer-Encoding", nl)) {
		bf->cte = !strncasecmp(val, "quoted-printable", 16) ? 'q' :
			  !strncasecmp(val, "base64", 6) ? 'b' : 0;
		return 1;
	}
	if (nl != 12 || strncasecmp(h, "Content-Type", nl))
		return 0;
	bf->text = !strncasecmp(val, "text/plain", 10);
	char *cs = type_param(val, "charset");
	bf->latin1 = cs ? charset_latin1(cs, strlen(cs)) : 0;
	free(cs);
	if (!strncasecmp(val, "multipart/", 10)) {
		char *b = type_param(val, "boundary");
		if (b) {
			struct sbuf d = SBUF_INIT;
			sb_addf(&d, "--%s", b);
			free(bf->boundary);
			bf->boundary = sb_detach(&d, NULL);
			free(b);
		}
	}
	return 1;
}

/* The body form a whole header line h gives, where it is a Content- one. */
static void content_header(struct body_form *bf, const struct sbuf *h)
{
	const char *colon = memchr(h->buf, ':', h->len);

	if (colon) {
		struct span v = trim_span((struct span){ colon + 1,
			h->len - (size_t)(colon + 1 - h->buf) });
		char *val = xstrndup(v.p, v.len);
		body_header(bf, h->buf, (size_t)(colon - h->buf), val);
		free(val);
	}
}

/* A MIME part's header lines (folded ones unfolded) into its body form;
 * where its body starts (after the first empty line). */
static const char *part_headers(struct body_form *bf, const char *t,
				const char *end)
{
	struct sbuf h = SBUF_INIT;
	const char *pos = t;

	for (struct span l; next_line(&pos, end, &l);) {
		if (l.len && l.p[l.len - 1] == '\r')
			l.len--;
		if (l.len && (l.p[0] == ' ' || l.p[0] == '\t') && h.len) {
			sb_add(&h, l.p, l.len);
			continue;
		}
		if (h.len)
			content_header(bf, &h);
		sb_setlen(&h, 0);
		if (!l.len)
			break;
		sb_add(&h, l.p, l.len);
	}
	if (h.len)
		content_header(bf, &h);
	sb_release(&h);
	return pos;
}

/* Whether the line at p looks like a mail header ("Name: value"). */
static int header_line(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (isalnum((unsigned char)*q) || *q == '-'))
		q++;
	return q > p && end - q >= 2 && q[0] == ':' && q[1] == ' ';
}

/*
 * Mails in text (a format-patch file, an mbox of them, a list archive's)
 * whose body is quoted-printable or base64 get it decoded into UTF-8 in
 * place, as git am would read them, so that their diffs are the diffs.  A
 * mail starts at the text's start where that is a header or a "From "
 * line, or at a "From " line after an empty one, and runs to the next.
 * A multipart mail is left as it is.
 */
void decode_mails(struct sbuf *text)
{
	struct sbuf out = SBUF_INIT;
	const char *pos = text->buf, *end = text->buf + text->len;
	int changed = 0;

	if (!text->len || !(starts_with(pos, end, "From ") || header_line(pos, end)))
		return;
	while (pos < end) {
		struct body_form bf = { 0, 0, 1, NULL };
		const char *body = part_headers(&bf, pos, end), *next = body;
		for (struct span l; next < end; ) {
			const char *at = next;
			next_line(&next, end, &l);
			if (at > body && at[-1] == '\n' && at - body >= 2 &&
			    at[-2] == '\n' && starts_with(l.p, end, "From ")) {
				next = at;
				break;
			}
		}
		sb_add(&out, pos, (size_t)(body - pos));
		struct sbuf raw = SBUF_INIT;
		if (!bf.boundary && bf.latin1 >= 0 && bf.cte == 'q')
			decode_qp(&raw, body, (size_t)(next - body), 0);
		else if (!bf.boundary && bf.latin1 >= 0 && bf.cte == 'b' &&
			 decode_base64(&raw, body, (size_t)(next - body)) < 0)
			sb_setlen(&raw, 0);
		if (raw.len) {
			add_utf8(&out, &raw, bf.latin1);
			changed = 1;
		} else
			sb_add(&out, body, (size_t)(next - body));
		sb_release(&raw);
		free(bf.boundary);
		pos = next;
	}
	if (changed) {
		sb_release(text);
		*text = out;
	} else
		sb_release(&out);
}

/* ---- the unified diff as a source ------------------------------------------
 * What `series split` reads: git diff, git format-patch mails (an mbox of
 * them too), diff -u / -ruN, and spatch output.  Grammar, one line at a
 * time (lines end at LF; a CR before it belongs to the line and is kept):
 *   input  := (junk | file)*
 *   file   := ["diff " ARGS] git-ext* [binary | "--- " OLD "+++ " NEW hunk+]
 *             (a git file starts at "diff --git A B" and may have no
 *             ---/+++ at all: a mode change, a pure rename, an empty file)
 *   git-ext:= "old mode " | "new mode " | "deleted file mode " |
 *             "new file mode " | "similarity index " | "dissimilarity index "
 *             | "rename from " | "rename to " | "copy from " | "copy to " |
 *             "index "
 *   binary := "GIT binary patch" (("literal "|"delta ") N  lines  "")+
 *             | "Binary files " ... " differ"
 *   hunk   := "@@ -A[,B] +C[,D] @@" ...  then exactly B old and D new lines:
 *             ' ' counts for both, '-' old, '+' new, an empty line is a ' '
 *             line whose space was eaten; "\ No newline" may follow any
 *             (a missing ,len means 1).  Where a hunk may start, a line
 *             starting "@@" is a hunk header: one that does not read as
 *             one is an error, as is a hunk line without its LF at the
 *             end of the input (a diff cut short, not a smaller change)
 *   junk   := anything else outside a file: mail headers and message, the
 *             "---" line and diffstat of a mail, "Only in" lines, signatures
 * A traditional file is a "--- " line directly followed by "+++ "; a
 * "diff ..." line just before it belongs to the file.  OLD and NEW end at a
 * TAB (diff's timestamp) or the line's end; a quoted name is unquoted.
 * The path (see file_path) is the name less the leading part where the two
 * sides differ, or -p N components; the +++ side of spatch's bare form
 * names a temporary file, so there the --- side is the path.
 */

struct dline {
	const char *p, *lim;  /* the line, without its LF */
	size_t len;
	size_t off, end;    /* its bytes in the text, LF included */
	size_t no;          /* 1-based */
};

struct dparse {
	const struct sbuf *text;
	const char *what;
	size_t pos, no;     /* the next line's offset and number */
	struct dline ln;    /* the line read last */
	int have;           /* ln is read but not yet taken */
};

/* Reads the next line into d->ln unless one is waiting.  0 at the end. */
static int dpeek(struct dparse *d)
{
	if (d->have)
		return 1;
	const char *b = d->text->buf, *end = b + d->text->len;
	const char *pos = b + d->pos;
	struct span s;
	if (!next_line(&pos, end, &s))
		return 0;
	d->ln = (struct dline){ s.p, s.p + s.len, s.len, d->pos,
				(size_t)(pos - b), ++d->no };
	d->pos = (size_t)(pos - b);
	d->have = 1;
	return 1;
}

static void dtake(struct dparse *d)
{
	d->have = 0;
}

static int FORMAT(3, 4) derror(const struct dparse *d, size_t no, const char *fmt, ...)
{
	struct sbuf msg = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	char tmp[256];
	fmt_v(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	sb_adds(&msg, tmp);
	error("%s:%zu: %s", d->what, no, msg.buf);
	sb_release(&msg);
	return -1;
}

/* A header's name: quoted, or up to a TAB or the line's end (less a CR).
 * Returns the name malloc'd, or NULL. */
static char *header_name(const char *s, const char *lim)
{
	const char *e;

	if (s >= lim)
		return NULL;
	if (*s == '"')
		return unquote_c(s, lim, &e);
	const char *tab = memchr(s, '\t', (size_t)(lim - s));
	e = tab ? tab : lim;
	if (!tab && e > s && e[-1] == '\r')
		e--;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}

/* What a file's headers said, before its path is settled. */
struct draw {
	char *old, *new;          /* ---/+++ or diff --git names, as written */
	char *from, *to;          /* rename/copy from/to: paths already */
	int old_epoch, new_epoch; /* diff -N's 1970 timestamp: absent side */
	int deleted, created;
};

static void draw_release(struct draw *r)
{
	free(r->old);
	free(r->new);
	free(r->from);
	free(r->to);
}

/* Splits "a/X b/Y" of a diff --git line; with unquoted names that hold
 * spaces, the split is where both halves name the same file. */
static void diff_git_names(const char *s, const char *lim, struct draw *r)
{
	const char *e;

	if (s < lim && *s == '"') {
		r->old = unquote_c(s, lim, &e);
		if (r->old && e < lim && *e == ' ')
			r->new = header_name(e + 1, lim);
		return;
	}
	if (lim > s && lim[-1] == '\r')
		lim--;
	size_t n = (size_t)(lim - s);
	if (n % 2 && n > 5) {
		size_t h = n / 2;
		if (s[h] == ' ' && !memcmp(s + 2, s + h + 3, h - 2)) {
			r->old = xstrndup(s, h);
			r->new = xstrndup(s + h + 1, h);
			return;
		}
	}
	const char *sp = memchr(s, ' ', n);
	if (!sp)
		return;
	r->old = xstrndup(s, (size_t)(sp - s));
	r->new = header_name(sp + 1, lim);
}

/* The extended header lines of a git file: 1 + the line's index in ext[]
 * (its bit in read_file's mask) when l was one, else 0. */
static int git_ext(struct dline *l, struct draw *r, struct sfile *f)
{
	static const char *const ext[] = {
		"old mode ", "new mode ", "deleted file mode ", "new file mode ",
		"similarity index ", "dissimilarity index ", "rename from ",
		"rename to ", "copy from ", "copy to ", "index ", NULL };
	size_t i = 0;

	while (ext[i] && !starts_with(l->p, l->lim, ext[i]))
		i++;
	if (!ext[i])
		return 0;
	const char *v = l->p + strlen(ext[i]), *lim = l->p + l->len;
	unsigned mode = (unsigned)scan_number(v, NULL, 8);
	switch (i) {
	case 0: f->old_mode = mode; break;
	case 1: f->new_mode = mode; break;
	case 2: f->old_mode = mode; r->deleted = 1; break;
	case 3: f->new_mode = mode; r->created = 1; break;
	case 6: case 8: free(r->from); r->from = header_name(v, lim);
		f->kind = i == 6 ? SF_RENAME : SF_COPY; break;
	case 7: case 9: free(r->to); r->to = header_name(v, lim); break;
	case 10: {
		/* "index OLD..NEW MODE": the mode of an unchanged-mode file */
		const char *sp = memchr(v, ' ', (size_t)(lim - v));
		if (sp && !f->old_mode && !f->new_mode)
			f->old_mode = f->new_mode = (unsigned)scan_number(sp + 1, NULL, 8);
		break;
	}
	}
	return (int)i + 1;
}

/* Whether a git file's extended header lines (bit k: git_ext's line k) say
 * a whole change on their own or before the data that follows: git apply
 * refuses a header cut short, as after "similarity index" or between
 * "rename from" and "rename to", and a diff --git line with nothing. */
static const char *git_ext_gap(unsigned seen, int data)
{
	const unsigned pair[][2] = { { 1u << 0, 1u << 1 }, { 1u << 6, 1u << 7 },
				     { 1u << 8, 1u << 9 } };
	static const char *const lack[] = { "old mode without new mode",
		"rename from without rename to", "copy from without copy to" };

	for (int k = 0; k < 3; k++)
		if (!(seen & pair[k][0]) != !(seen & pair[k][1]))
			return lack[k];
	if (seen & (1u << 4) && !(seen & (0xfu << 6)))
		return "a similarity index without rename or copy lines";
	if (!data && !(seen & ~(1u << 10)))
		return "no change after the diff --git line";
	return NULL;
}

/* "@@ -A[,B] +C[,D] @@": B and D; -1 when it is no hunk header. */
static int hunk_counts(const struct dline *l, size_t *b, size_t *d)
{
	const char *p = l->p + 4, *lim = l->p + l->len;
	size_t *c[2] = { b, d };

	if (!starts_with(l->p, l->lim, "@@ -"))
		return -1;
	for (int side = 0; side < 2; side++) {
		if (side) {
			if (lim - p < 2 || p[0] != ' ' || p[1] != '+')
				return -1;
			p += 2;
		}
		size_t v = 0, n = 0;
		for (; p < lim && isdigit((unsigned char)*p); p++, n++)
			if (n > 9)
				return -1;
		if (!n)
			return -1;
		*c[side] = 1;
		if (p < lim && *p == ',') {
			for (p++, n = 0; p < lim && isdigit((unsigned char)*p); p++, n++) {
				if (n > 9)
					return -1;
				v = v * 10 + (size_t)(*p - '0');
			}
			if (!n)
				return -1;
			*c[side] = v;
		}
	}
	return lim - p >= 3 && !memcmp(p, " @@", 3) ? 0 : -1;
}

/* Whether the line at the cursor starts a file: a diff --git line, or a
 * --- line (or a diff line before one) with +++ on the next line. */
static int file_starts(struct dparse *d)
{
	if (starts_with(d->ln.p, d->ln.lim, "diff --git "))
		return 1;
	const char *b = d->text->buf, *end = b + d->text->len;
	const char *pos = b + d->ln.end;
	struct span s, t;
	if (starts_with(d->ln.p, d->ln.lim, "diff ")) {
		if (!next_line(&pos, end, &s) || s.len < 4 || memcmp(s.p, "--- ", 4))
			return 0;
	} else if (!starts_with(d->ln.p, d->ln.lim, "--- "))
		return 0;
	return next_line(&pos, end, &t) && t.len >= 4 && !memcmp(t.p, "+++ ", 4);
}

/* Whether the line after a complete hunk still looks like one of its
 * lines: '+', or '-' that is no mail's "---" or "-- " line and starts no
 * file. */
static int longer_hunk(struct dparse *d)
{
	const struct dline *l = &d->ln;

	if (!l->len || (l->p[0] != '+' && l->p[0] != '-'))
		return 0;
	if (l->p[0] == '+')
		return !starts_with(l->p, l->lim, "+++ ");
	return !(starts_with(l->p, l->lim, "---") ||
		 starts_with(l->p, l->lim, "-- ") ||
		 (l->len == 2 && l->p[1] == '-') || file_starts(d));
}

/* The hunks after a +++ line: at least one, each exactly as long as its
 * header says. */
static int read_hunks(struct dparse *d, struct sfile *f)
{
	size_t b, n, hunks = 0;

	while (dpeek(d) && starts_with(d->ln.p, d->ln.lim, "@@")) {
		size_t at = d->ln.no;
		if (hunk_counts(&d->ln, &b, &n) < 0)
			return derror(d, at, "a broken hunk header (cut short?)");
		dtake(d);
		hunks++;
		while (b || n) {
			if (!dpeek(d))
				return derror(d, at, "the hunk ends early: %zu old "
					      "and %zu new lines missing at the "
					      "end of the input", b, n);
			char c = d->ln.len ? d->ln.p[0] : ' ';
			if (c == '\\') {
				dtake(d);
				continue;
			}
			if ((c == ' ' && (!b || !n)) || (c == '-' && !b) ||
			    (c == '+' && !n) || !strchr(" -+", c))
				return derror(d, d->ln.no, "the hunk of line %zu "
					      "ends early: %zu old and %zu new "
					      "lines missing", at, b, n);
			if (c != '+')
				b--;
			if (c != '-')
				n--;
			f->added += c == '+';
			f->removed += c == '-';
			if (d->ln.end == d->text->len && d->text->buf[d->ln.end - 1] != '\n')
				return derror(d, d->ln.no, "the input ends inside this "
					      "line of a hunk (cut short?)");
			dtake(d);
		}
		if (dpeek(d) && d->ln.len && d->ln.p[0] == '\\')
			dtake(d);
		if (dpeek(d) && longer_hunk(d))
			return derror(d, d->ln.no, "the hunk of line %zu is longer "
				      "than its header says", at);
	}
	if (!hunks)
		return derror(d, d->no + !d->have, "no hunk after the +++ line");
	return 0;
}

/* "GIT binary patch", then one or two blocks, each ending at an empty
 * line. */
static int read_binary(struct dparse *d, size_t at)
{
	int blocks = 0;

	while (dpeek(d) && (starts_with(d->ln.p, d->ln.lim, "literal ") ||
			    starts_with(d->ln.p, d->ln.lim, "delta "))) {
		dtake(d);
		blocks++;
		for (;;) {
			if (!dpeek(d))
				return derror(d, at, "the binary patch ends early");
			size_t len = d->ln.len;
			dtake(d);
			if (!len)
				break;
		}
	}
	return blocks ? 0 : derror(d, at, "a binary patch without data");
}

static int is_epoch(const char *s, const char *lim)
{
	const char *tab = memchr(s, '\t', (size_t)(lim - s));

	return tab && lim - tab > 11 && !memcmp(tab + 1, "1970-01-01", 10);
}

/* A ---/+++ pair at the cursor (the --- line waiting): names and hunks. */
static int read_traditional(struct dparse *d, struct draw *r, struct sfile *f)
{
	struct dline minus = d->ln;
	const char *lim = minus.p + minus.len;

	dtake(d);
	if (!dpeek(d) || !starts_with(d->ln.p, d->ln.lim, "+++ "))
		return derror(d, minus.no, "--- without a +++ line after it");
	free(r->old);
	free(r->new);
	r->old = header_name(minus.p + 4, lim);
	r->old_epoch = is_epoch(minus.p + 4, lim);
	r->new = header_name(d->ln.p + 4, d->ln.p + d->ln.len);
	r->new_epoch = is_epoch(d->ln.p + 4, d->ln.p + d->ln.len);
	if (!r->old || !r->new)
		return derror(d, minus.no, "a file header without a name");
	dtake(d);
	f->body = d->pos;
	return read_hunks(d, f);
}

/* One file, from its first line (waiting at the cursor). */
static int read_file(struct dparse *d, struct sfile *f, struct draw *r)
{
	f->off = d->ln.off;
	f->line = d->ln.no;
	if (starts_with(d->ln.p, d->ln.lim, "diff --git ")) {
		f->git = 1;
		diff_git_names(d->ln.p + 11, d->ln.p + d->ln.len, r);
		if (!r->old || !r->new)
			return derror(d, d->ln.no, "diff --git without two names");
		dtake(d);
		unsigned seen = 0;
		for (int k; dpeek(d) && (k = git_ext(&d->ln, r, f)); dtake(d)) {
			seen |= 1u << (k - 1);
			if (d->ln.end == d->text->len &&
			    d->text->buf[d->ln.end - 1] != '\n')
				return derror(d, d->ln.no, "the input ends inside "
					      "this header line (cut short?)");
		}
		int data = dpeek(d) && (starts_with(d->ln.p, d->ln.lim, "GIT binary patch") ||
					starts_with(d->ln.p, d->ln.lim, "Binary files ") ||
					starts_with(d->ln.p, d->ln.lim, "--- "));
		const char *gap = git_ext_gap(seen, data);
		if (gap)
			return derror(d, f->line, "%s (cut short?)", gap);
		if (dpeek(d) && starts_with(d->ln.p, d->ln.lim, "GIT binary patch")) {
			size_t at = d->ln.no;
			dtake(d);
			f->binary = 1;
			if (read_binary(d, at) < 0)
				return -1;
		} else if (dpeek(d) && starts_with(d->ln.p, d->ln.lim, "Binary files ")) {
			dtake(d);
			f->binary = 1;
		} else if (dpeek(d) && starts_with(d->ln.p, d->ln.lim, "--- ")) {
			if (read_traditional(d, r, f) < 0)
				return -1;
		}
	} else {
		if (starts_with(d->ln.p, d->ln.lim, "diff "))
			dtake(d);
		if (!dpeek(d) || !starts_with(d->ln.p, d->ln.lim, "--- "))
			return derror(d, f->line, "a diff line without a file "
				      "header after it");
		if (read_traditional(d, r, f) < 0)
			return -1;
	}
	f->len = d->pos - (d->have ? d->ln.end - d->ln.off : 0) - f->off;
	return 0;
}

/* The number of leading components where a and b differ (0: they differ
 * only in the last one, or not at all), or -1 when they cannot be
 * compared. */
static int differing_prefix(const char *a, const char *b)
{
	int n = 0;

	for (;;) {
		const char *sa = strchr(a, '/'), *sb = strchr(b, '/');
		if (!sa || !sb)
			return 0;
		size_t la = (size_t)(sa - a), lb = (size_t)(sb - b);
		n++;
		if (la != lb || memcmp(a, b, la))
			return n;
		a = sa + 1;
		b = sb + 1;
	}
}

static int is_dev_null(const char *s)
{
	return !strcmp(s, "/dev/null");
}

/* s less n leading components (NULL when it has fewer). */
static const char *strip_components(const char *s, int n)
{
	while (n-- > 0) {
		const char *sl = strchr(s, '/');
		if (!sl)
			return NULL;
		s = sl + 1;
		while (*s == '/')
			s++;
	}
	return s;
}

static int is_temp_output(const char *s)
{
	const char *base = strrchr(s, '/');

	return s[0] == '/' && starts_with(base + 1, NULL, "cocci-output-");
}

/* How many components to drop from this file's names, where its two names
 * tell: -1 when they do not (one side absent). */
static int own_strip(const struct draw *r)
{
	int on = !is_dev_null(r->old), nn = !is_dev_null(r->new);

	if (!on || !nn)
		return -1;
	if (is_temp_output(r->new))
		return 0;
	int k = differing_prefix(r->old, r->new);
	if (k > 0)
		return k;
	/* same directories: a/x.c vs a/x.c.orig, or names without prefix */
	return 0;
}

/* dir and a slash (none when dir is NULL or empty), as git apply
 * --directory puts it before a path. */
static void add_directory(struct sbuf *sb, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	while (n && dir[n - 1] == '/')
		n--;
	if (n) {
		sb_add(sb, dir, n);
		sb_addc(sb, '/');
	}
}

/* A relative path with no empty, "." or ".." component. */
static int inside_tree(const char *p)
{
	if (!*p || *p == '/')
		return 0;
	for (const char *c = p; *c;) {
		const char *sl = strchr(c, '/');
		size_t n = sl ? (size_t)(sl - c) : strlen(c);
		if (!n || (n == 1 && c[0] == '.') || (n == 2 && !memcmp(c, "..", 2)))
			return 0;
		c += n + (sl != NULL);
		if (sl && !*c)
			return 0;
	}
	return 1;
}

/* Settles f's path (and orig) from its raw names: -p, or its own strip,
 * or the diff's usual one. */
static int file_path(struct dparse *d, struct sfile *f, struct draw *r,
		     const struct diff_opts *o, int usual)
{
	int strip = o->strip >= 0 ? o->strip : own_strip(r);
	if (strip < 0)
		strip = usual >= 0 ? usual :
			(starts_with(r->old, NULL, "a/") || starts_with(r->new, NULL, "b/"));
	const char *old = is_dev_null(r->old) ? NULL : r->old;
	const char *new = is_dev_null(r->new) || r->new_epoch || r->deleted ?
			  NULL : r->new;
	if (r->old_epoch || r->created)
		old = NULL;
	if (is_temp_output(r->new)) {
		new = old;
		f->here = !(o->directory && *o->directory);
	}
	const char *name = new ? new : old;
	if (!name)
		return derror(d, f->line, "both sides of the file are /dev/null");
	const char *p = strip_components(name, strip);
	if (!p || !*p)
		return derror(d, f->line, "%s: fewer than %d leading "
			      "components to strip", name, strip);
	f->strip = strip;
	f->keep_header = f->git || (strip == 1 && !(o->directory && *o->directory) &&
				   !is_temp_output(r->new) &&
				   (!old || !new || !strcmp(strip_components(old, 1) ?
				    strip_components(old, 1) : "", p)));
	struct sbuf path = SBUF_INIT;
	add_directory(&path, o->directory);
	if (f->git && r->to && f->kind)
		p = r->to;      /* rename to, copy to: paths as they are */
	while (starts_with(p, NULL, "./"))
		p += 2;
	sb_adds(&path, p);
	f->path = sb_detach(&path, NULL);
	if (f->kind == SF_RENAME || f->kind == SF_COPY) {
		if (!r->from || !inside_tree(r->from))
			return derror(d, f->line, "rename or copy without a "
				      "from line inside the tree");
		add_directory(&path, o->directory);
		sb_adds(&path, r->from);
		f->orig = sb_detach(&path, NULL);
	} else if (!old) {
		f->kind = SF_ADD;
	} else if (!new) {
		f->kind = SF_DELETE;
	} else {
		f->kind = SF_MODIFY;
	}
	if (f->kind == SF_ADD)
		f->old_mode = 0;
	else if (!f->old_mode)
		f->old_mode = 0100644;
	if (f->kind == SF_DELETE)
		f->new_mode = 0;
	else if (!f->new_mode)
		f->new_mode = f->old_mode ? f->old_mode : 0100644;
	return inside_tree(f->path) ? 0 :
	       derror(d, f->line, "%s: not a path inside the tree", f->path);
}

static int cmp_sfile_path(const void *a, const void *b)
{
	const struct sfile *const *x = a, *const *y = b;
	int c = strcmp((*x)->path, (*y)->path);

	return c ? c : ((*x)->line > (*y)->line) - ((*x)->line < (*y)->line);
}

/* A file named twice is refused, but for the pair git writes for a type
 * change: the deletion of one kind and the addition of the other. */
static int check_twice(struct dparse *d, struct source *src)
{
	struct sfile **v = xcalloc(src->nr, sizeof *v);
	int r = 0;

	for (size_t i = 0; i < src->nr; i++)
		v[i] = &src->f[i];
	sort_n(v, src->nr, sizeof *v, cmp_sfile_path);
	for (size_t i = 1; i < src->nr && !r; i++) {
		const struct sfile *a = v[i - 1], *b = v[i];
		if (strcmp(a->path, b->path))
			continue;
		if (i + 1 < src->nr && !strcmp(b->path, v[i + 1]->path))
			b = v[i + 1];
		else if ((a->kind == SF_DELETE && b->kind == SF_ADD) ||
			 (a->kind == SF_ADD && b->kind == SF_DELETE))
			continue;
		r = derror(d, b->line, "%s appears twice (first at line %zu)",
			   b->path, a->line);
	}
	free(v);
	return r;
}

int parse_diff(struct source *src, const char *what, const struct diff_opts *o)
{
	struct dparse d = { &src->text, what, 0, 0, { 0 }, 0 };
	struct draw *raw = NULL;
	size_t first = src->nr, nraw = 0, araw = 0;
	int r = 0;

	const char *nul = memchr(src->text.buf, '\0', src->text.len);
	if (nul) {
		size_t no = 1;
		for (const char *p = src->text.buf; p < nul; p++)
			no += *p == '\n';
		return derror(&d, no, "a NUL byte: not a text diff");
	}
	while (dpeek(&d)) {
		if (!file_starts(&d)) {
			if (starts_with(d.ln.p, d.ln.lim, "Binary files ") ||
			    starts_with(d.ln.p, d.ln.lim, "Only in "))
				warning("%s:%zu: %.*s: the diff holds no change "
					"for it, so no mail will", what, d.ln.no,
					(int)(d.ln.len > 200 ? 200 : d.ln.len), d.ln.p);
			dtake(&d);
			continue;
		}
		struct sfile *f = source_add(src);
		GROW(raw, nraw + 1, araw);
		struct draw *rw = &raw[nraw++];
		memset(rw, 0, sizeof *rw);
		if ((r = read_file(&d, f, rw)) < 0)
			break;
	}
	if (!r && src->nr == first)
		r = error("%s: no file header (diff --git, or --- and +++) in "
			  "%zu line%s", what, d.no, d.no == 1 ? "" : "s");
	/* The usual strip: the one most files that show it have. */
	int usual = -1;
	size_t votes[8] = { 0 };
	for (size_t i = 0; !r && i < nraw; i++) {
		int s = own_strip(&raw[i]);
		if (s >= 0 && s < 8)
			votes[s]++;
	}
	for (int s = 0; s < 8; s++)
		if (votes[s] && (usual < 0 || votes[s] > votes[usual]))
			usual = s;
	for (size_t i = 0; !r && i < nraw; i++)
		r = file_path(&d, &src->f[first + i], &raw[i], o, usual);
	if (!r)
		r = check_twice(&d, src);
	for (size_t i = 0; i < nraw; i++)
		draw_release(&raw[i]);
	free(raw);
	return r;
}

static int read_diff(struct source *src, const char *what)
{
	int r = strcmp(what, "-") ? sb_read_file(&src->text, what) :
				    sb_read_fd(&src->text, 0);
	if (r < 0)
		return error_on(what);
	decode_mails(&src->text);
	return 0;
}

/* ---- a commit range as a source ----------------------------------------------
 * BASE..TIP becomes git's own diff of the two trees (binary patches, full
 * ids, renames found, no textconv or external diff driver), read by
 * the diff source above; its commits, for what follows them (regroup's
 * trailers), come from one git log.  TIP defaults to HEAD.
 */

struct range {
	char base[72], tip[72];
	char *spec;          /* as the user wrote it */
};

/* The commit rev names into id, or -1 with nothing said: a question. */
static int resolve_commit_quietly(const char *rev, char *id)
{
	struct sbuf arg = SBUF_INIT, out = SBUF_INIT;

	sb_addf(&arg, "%s^{commit}", rev);
	const char *words[] = { "rev-parse", "-q", "--verify", "--end-of-options",
				arg.buf, NULL };
	int st = run_git(&(struct git_run){ .words = words, .out = &out,
					    .quiet = 1 });
	chomp(&out);
	int ok = !st && is_oid(out.buf, out.len);
	if (ok)
		memcpy(id, out.buf, out.len + 1);
	sb_release(&arg);
	sb_release(&out);
	return ok ? 0 : -1;
}

static int resolve_commit(const char *rev, char *id)
{
	return resolve_commit_quietly(rev, id) ? error("%s: not a commit", rev) : 0;
}

/* Whether w is a range "BASE..TIP" (TIP may be empty: HEAD). */
static int is_range(const char *w)
{
	const char *dots = str_find(w, "..");

	return dots && dots > w && dots[2] != '.';
}

static int resolve_range(const char *spec, struct range *r)
{
	const char *dots = str_find(spec, "..");
	char *base = xstrndup(spec, (size_t)(dots - spec));
	int rc = resolve_commit(base, r->base);

	free(base);
	if (!rc)
		rc = resolve_commit(dots[2] ? dots + 2 : "HEAD", r->tip);
	r->spec = xstrdup(spec);
	return rc;
}

/* The highest N of refs/series/BRANCH/vN, 0 where none is, or -1 after
 * error(). */
static int last_version(const char *br)
{
	struct sbuf pre = SBUF_INIT, out = SBUF_INIT;
	int v = 0;

	sb_addf(&pre, "refs/series/%s/", br);
	const char *words[] = { "for-each-ref", "--format=%(refname)", pre.buf,
				NULL };
	if (git_ok("git for-each-ref", &(struct git_run){ .words = words,
							  .out = &out }))
		v = -1;
	else {
		const char *pos = out.buf, *end = out.buf + out.len;
		for (struct span l; next_line(&pos, end, &l);) {
			const char *n = l.p + pre.len + 1;
			size_t digits = strspn(n, "0123456789");
			if (l.len > pre.len + 1 && l.p[pre.len] == 'v' && digits &&
			    n + digits == l.p + l.len && scan_number(n, NULL, 10) > v)
				v = (int)scan_number(n, NULL, 10);
		}
	}
	sb_release(&pre);
	sb_release(&out);
	return v;
}

/* Whether commit a is an ancestor of commit b (or b itself). */
static int is_ancestor(const char *a, const char *b)
{
	const char *words[] = { "merge-base", "--is-ancestor", a, b, NULL };

	return !run_git(&(struct git_run){ .words = words, .quiet = 1 });
}

/* The base a range left unsaid starts from, as git's own tools default
 * it, into base (a revision, malloc'd): the branch's @{upstream}; else
 * the base format recorded for its last version, where HEAD is on it;
 * else where HEAD forks from the remote's default branch (origin/HEAD).
 * Said on stderr where it is not the upstream; NULL where none fits. */
static char *default_base(const struct repo *repo)
{
	const char *br = repo_branch(repo);
	char id[72], *base = NULL;
	const char *why = "the base format recorded";
	int v;

	if (!resolve_commit_quietly("@{upstream}", id))
		return xstrdup("@{upstream}");
	if (br && (v = last_version(br)) > 0) {
		base = xstrfmt("series/%s/v%d-base", br, v);
		if (resolve_commit_quietly(base, id) || !is_ancestor(id, "HEAD")) {
			free(base);
			base = NULL;
		}
	}
	const char *mb[] = { "merge-base", "HEAD", "refs/remotes/origin/HEAD", NULL };
	struct sbuf out = SBUF_INIT;
	if (!base && !run_git(&(struct git_run){ .words = mb, .out = &out,
						  .quiet = 1 })) {
		chomp(&out);
		if (is_oid(out.buf, out.len))
			base = xstrndup(out.buf, 12);
		why = "where HEAD forks from origin/HEAD";
	}
	sb_release(&out);
	if (base)
		note("no range given: %s..HEAD (%s)", base,
			 why);
	return base;
}

/* spec resolved: "BASE..TIP", or a revision REV alone as REV..HEAD (as
 * git format-patch takes it); NULL: from default_base(), and where none
 * fits, an error that gives command cmd as the user would type it. */
static int open_range(const char *cmd, const char *spec,
		      const struct repo *repo, struct range *r)
{
	char *made = NULL;
	int rc;

	if (!spec && !(made = default_base(repo))) {
		const char *trunk = "BASE", *names[] = { "main", "master" };
		char id[72];
		for (size_t i = 0; i < 2 && !strcmp(trunk, "BASE"); i++) {
			char *ref = xstrfmt("refs/heads/%s", names[i]);
			if ((!repo->ref || strcmp(repo->ref, ref)) &&
			    !resolve_commit_quietly(ref, id))
				trunk = names[i];
			free(ref);
		}
		return error("no range given, and %s has no upstream: give the "
			     "range (series %s %s..HEAD), or set an upstream "
			     "(git branch --set-upstream-to=%s)",
			     repo->ref ? repo->ref : "HEAD", cmd, trunk, trunk);
	}
	if (made || !is_range(spec)) {
		char *m = xstrfmt("%s..HEAD", made ? made : spec);
		free(made);
		spec = made = m;
	}
	rc = resolve_range(spec, r);
	free(made);
	return rc;
}

static int source_from_range(struct source *src, const struct range *r)
{
	/* -M: a rename is one change, which groups keep whole (commit and
	 * format do) */
	const char *words[] = { "diff", "--binary", "--full-index", "-M",
				"--no-ext-diff", "--no-textconv", "--no-color",
				"--ignore-submodules=none", r->base, r->tip, "--",
				NULL };
	struct diff_opts o = { 1, NULL };

	if (git_ok("git diff", &(struct git_run){ .words = words,
						  .out = &src->text }) < 0)
		return -1;
	if (!src->text.len)
		return 0;
	return parse_diff(src, r->spec, &o);
}

/*
 * A git command run beside ours: its output goes to a file in dir,
 * unlinked at once (no pipe to fill, nothing left behind), and is read
 * when wanted.  Zeroed: not started; run.quiet and run.dir may be set
 * before it starts.
 */
struct git_bg {
	struct git_run run;
	const char **words;     /* owned, the strings not */
	int started, fd;
};

/* Starts git with words (malloc'd; b owns it from here), its output into
 * a file in dir.  0, or -1 after error(). */
static int bg_start(struct git_bg *b, const char *dir, const char **words)
{
	struct sbuf path = SBUF_INIT;

	b->words = words;
	b->fd = temp_file(&path, dir, "out", 0);
	if (b->fd < 0) {
		int r = error_on(path.buf);
		sb_release(&path);
		free(b->words);
		return r;
	}
	sb_release(&path);
	b->run = (struct git_run){ .words = b->words, .out_fd = b->fd,
				   .quiet = b->run.quiet, .dir = b->run.dir };
	if (git_start(&b->run) < 0) {
		close(b->fd);
		free(b->words);
		return -1;
	}
	b->started = 1;
	return 0;
}

/* Waits for git and reads its output into out (NULL: drops it).  git's
 * status as run_git() gives it, 0 where it was not started, or -1 after
 * error() where its output cannot be read. */
static int bg_finish(struct git_bg *b, struct sbuf *out)
{
	if (!b->started)
		return 0;
	const char *const *verb = b->words;   /* past git's own options */
	int r = git_finish(&b->run);

	b->started = 0;
	while (verb[0] && verb[1] && verb[0][0] == '-')
		verb++;
	if (!r && out && (lseek(b->fd, 0, SEEK_SET) < 0 ||
			  sb_read_fd(out, b->fd) < 0))
		r = error("git %s: its output: %s", verb[0], strerror(errno));
	free(b->words);
	close(b->fd);
	return r;
}

/*
 * The work tree's change as a patch, what K: lines search in a range's or
 * a mail's and the hardware rules read: git diff HEAD of the files git
 * status found, with the range's pins.  On the kernel it takes longer
 * than all the rest of plan, so it runs beside the owners pass, read when
 * wanted, and a large change is split between two gits, since git diff
 * runs on one processor (two parts take 0.14 s where one takes 0.24 s on
 * the kernel's 1,031 files; four, 0.15 s on two processors).  Only a
 * change of plain modifications is split: a rename pairs a deleted file
 * with an added one, and the two could fall into different parts.
 * Zeroed: nothing runs.
 */
enum { WT_PARTS = 2 };
struct wt_patch {
	struct git_bg part[WT_PARTS];
	size_t n;            /* started */
	char **dir;          /* the parts' directory pathspecs, owned */
	size_t ndir;
};

/* Into how many parts src's diff is split: 1, or WT_PARTS where src has
 * 64 files or more, each of them changed in place, and their paths fit
 * in a command line many times over. */
static size_t wt_parts(const struct source *src)
{
	size_t bytes = 0;

	if (src->nr < 64)
		return 1;
	for (size_t i = 0; i < src->nr; i++) {
		const struct sfile *f = &src->f[i];
		if (!f->entry || f->entry->kind != E_CHANGED ||
		    f->kind != SF_MODIFY || f->noop ||
		    (f->old_mode & 0170000) != (f->new_mode & 0170000) ||
		    (f->old_mode & 0170000) == 0160000)
			return 1;
		bytes += strlen(f->path) + 1;
	}
	return bytes > 256 * 1024 ? 1 : WT_PARTS;
}

/* Where src is the whole change (git status had no pathspec), the parts
 * ask for directories, not files: each file's first two components
 * ("drivers/i2c"), each to the part with fewer files so far.  git matches
 * every pathspec against every entry of the index: on the whole kernel
 * tree (78,635 entries) half of the 1,031 paths took 0.50 s, where both
 * parts of the 72 directories take 0.28 s side by side.  src is sorted,
 * so a directory's files are one run. */
static void wt_dir_parts(struct wt_patch *wp, const struct source *src,
			 size_t parts, const char **words[], size_t at[])
{
	size_t load[WT_PARTS] = { 0 }, a = 0;

	for (size_t i = 0, j; i < src->nr; i = j) {
		const char *p = src->f[i].path, *sl = strchr(p, '/');
		sl = sl ? strchr(sl + 1, '/') : NULL;
		size_t len = sl ? (size_t)(sl - p) : strlen(p);
		for (j = i + 1; j < src->nr && !strncmp(src->f[j].path, p, len) &&
		     (src->f[j].path[len] == '/' || !src->f[j].path[len]); j++)
			;
		size_t k = 0;
		for (size_t q = 1; q < parts; q++)
			if (load[q] < load[k])
				k = q;
		load[k] += j - i;
		GROW(wp->dir, wp->ndir + 1, a);
		wp->dir[wp->ndir] = xstrndup(p, len);
		words[k][at[k]++] = wp->dir[wp->ndir++];
	}
}

/* Starts src->diff, the diff of src's files (the work tree's, pathspec
 * the one git status was given), each part's output in a file in gitdir.
 * 0, or -1 after error(); what started is then waited for by
 * wt_patch_finish(). */
static int wt_patch_start(struct source *src, const char *gitdir,
			  const char *top, const char *const *pathspec)
{
	static const char *const head[] = { "diff", "--binary", "--full-index",
		"-M", "--no-ext-diff", "--no-textconv", "--no-color",
		"--ignore-submodules=none", "HEAD", "--", NULL };
	size_t nh = sizeof head / sizeof *head - 1, parts = wt_parts(src);
	struct wt_patch *wp = src->diff = xcalloc(1, sizeof *src->diff);

	if (parts == 1) {       /* here, with git status's pathspec */
		size_t np = 0;
		while (pathspec && pathspec[np])
			np++;
		const char **words = xcalloc(xadd(nh, np) + 1, sizeof *words);
		memcpy(words, head, nh * sizeof *words);
		for (size_t i = 0; i < np; i++)
			words[nh + i] = pathspec[i];
		wp->n = 1;
		return bg_start(&wp->part[0], gitdir, words);
	}
	const char **words[WT_PARTS];
	size_t at[WT_PARTS];
	for (size_t k = 0; k < parts; k++) {
		words[k] = pathspec_words(head, src->nr / parts + 1, &at[k]);
		at[k]--;                /* pathspec_words() adds the "--" */
	}
	if (pathspec && *pathspec)
		for (size_t i = 0; i < src->nr; i++)
			words[i % parts][at[i % parts]++] = src->f[i].path;
	else
		wt_dir_parts(wp, src, parts, words, at);
	for (size_t k = 0; k < parts; k++) {
		wp->part[k].run.dir = top;
		if (bg_start(&wp->part[k], gitdir, words[k]) < 0) {
			while (++k < parts)
				free(words[k]);
			return -1;
		}
		wp->n++;
	}
	return 0;
}

/* Gives src's file i the diff of patch's file k: its text is src->text. */
static void adopt_diff(struct sfile *f, const struct sfile *d)
{
	f->off = d->off;
	f->len = d->len;
	f->body = d->body;
	f->line = d->line;
	f->git = d->git;
	f->strip = d->strip;
	f->keep_header = d->keep_header;
	f->added = d->added;
	f->removed = d->removed;
	f->binary = d->binary;
}

/* Waits for src->diff and, with keep, makes it src's text: each file's
 * diff there (an untracked file has none; the diff's file order does not
 * matter).  Nothing where none was started.  0, or -1 after error(). */
static int wt_patch_finish(struct source *src, int keep)
{
	struct wt_patch *wp = src->diff;
	struct source patch = SOURCE_INIT;
	struct diff_opts o = { 1, NULL };
	int r = 0;

	if (!wp)
		return 0;
	for (size_t k = 0; k < wp->n; k++) {
		int rk = bg_finish(&wp->part[k], keep && !r ? &patch.text : NULL);
		r = r ? r : rk;
	}
	free_strings(wp->dir, wp->ndir);
	free(wp);
	src->diff = NULL;
	if (r)
		return r > 0 ? git_failed("git diff HEAD", r) : -1;
	if (keep && patch.text.len &&
	    (r = parse_diff(&patch, "git diff HEAD", &o)) == 0) {
		struct owned *by = xcalloc(patch.nr + 1, sizeof *by);
		for (size_t k = 0; k < patch.nr; k++)
			by[k] = (struct owned){ patch.f[k].path, k };
		sort_n(by, patch.nr, sizeof *by, cmp_owned);
		for (size_t i = 0; i < src->nr; i++) {
			struct owned key = { src->f[i].path, 0 }, *hit =
				bsearch(&key, by, patch.nr, sizeof *by, cmp_owned);
			if (hit)
				adopt_diff(&src->f[i], &patch.f[hit->k]);
		}
		free(by);
		struct sbuf t = src->text;
		src->text = patch.text;
		patch.text = t;
	}
	source_release(&patch);
	return r;
}

/* The tree of commit, into tree (72 bytes).  0, or -1 after error(). */
static int tree_of(const char *commit, char *tree)
{
	char *arg = xstrfmt("%s^{tree}", commit);
	const char *words[] = { "rev-parse", "--verify", arg, NULL };
	int r = git_id("git rev-parse", &(struct git_run){ .words = words },
		       tree);

	free(arg);
	return r;
}

/* ---- patch ids -----------------------------------------------------------
 * What `git patch-id --stable` answers, "PATCH-ID COMMIT" lines, read
 * once into a map (struct pids, series.h): a commit's patch id and a
 * patch id's commit are binary searches of its two indices.
 */
struct pid_order {
	const struct pid *e;
	size_t off;             /* the key's offset: of pid or of commit */
};

static int cmp_pid_order(const void *a, const void *b, const void *ctx)
{
	const struct pid_order *o = ctx;

	return strcmp((const char *)&o->e[*(const size_t *)a] + o->off,
		      (const char *)&o->e[*(const size_t *)b] + o->off);
}

/* Sorts m's indices again, after entries were added. */
static void pids_index(struct pids *m)
{
	size_t **by[] = { &m->by_pid, &m->by_commit };

	for (int k = 0; k < 2; k++) {
		struct pid_order o = { m->e, k ? offsetof(struct pid, commit) :
					     offsetof(struct pid, pid) };
		free(*by[k]);
		*by[k] = xcalloc(m->nr + 1, sizeof **by[k]);
		for (size_t i = 0; i < m->nr; i++)
			(*by[k])[i] = i;
		sort_ctx(*by[k], m->nr, sizeof **by[k], cmp_pid_order, &o);
	}
}

/* Appends the entry of patch id pid (n bytes) for commit (cn bytes);
 * pids_index() then.  Either longer than an object id is no entry. */
static void pids_put(struct pids *m, const char *pid, size_t n,
		     const char *commit, size_t cn)
{
	if (!n || n >= sizeof m->e->pid || !cn || cn >= sizeof m->e->commit)
		return;
	GROW(m->e, m->nr + 1, m->alloc);
	struct pid *e = &m->e[m->nr++];
	memcpy(e->pid, pid, n);
	e->pid[n] = '\0';
	memcpy(e->commit, commit, cn);
	e->commit[cn] = '\0';
}

/* Grammar: (PATCH-ID SP COMMIT LF)*, PATCH-ID in hex; any other line
 * (a record's "form N") is passed over. */
UNIT void pids_add_text(struct pids *m, const char *t, size_t len)
{
	const char *pos = t, *end = t + len;

	for (struct span l; next_line(&pos, end, &l);) {
		const char *sp = memchr(l.p, ' ', l.len);
		size_t n = sp ? (size_t)(sp - l.p) : 0;
		if (n && is_oid(l.p, n))
			pids_put(m, l.p, n, sp + 1, l.len - n - 1);
	}
	pids_index(m);
}

UNIT void pids_release(struct pids *m)
{
	free(m->e);
	free(m->by_pid);
	free(m->by_commit);
	*m = (struct pids)PIDS_INIT;
}

/* The first entry, in git's order, whose key (at off) is key, by the
 * index by: or NULL. */
static const struct pid *pid_find(const struct pids *m, const size_t *by,
				  size_t off, const char *key)
{
	size_t lo = 0, hi = m->nr;

	BSEARCH(lo, hi, mid, strcmp((const char *)&m->e[by[mid]] + off, key) < 0);
	return lo < m->nr && !strcmp((const char *)&m->e[by[lo]] + off, key) ?
	       &m->e[by[lo]] : NULL;
}

UNIT const char *patch_of(const struct pids *m, const char *commit)
{
	const struct pid *e = pid_find(m, m->by_commit,
				       offsetof(struct pid, commit), commit);
	return e ? e->pid : NULL;
}

UNIT const char *commit_of(const struct pids *m, const char *pid)
{
	const struct pid *e = pid_find(m, m->by_pid, offsetof(struct pid, pid),
				       pid);
	return e ? e->commit : NULL;
}

/* `git patch-id --stable` over in (diffs, each after a "commit ID" line
 * of its own), into the map out.  The one place that says how series
 * ids a patch; no diff, no run. */
static int run_patch_id(const struct sbuf *in, struct pids *out)
{
	const char *pw[] = { "patch-id", "--stable", NULL };
	struct sbuf text = SBUF_INIT;
	int r = in->len ? git_ok("git patch-id", &(struct git_run){ .words = pw,
				 .input = in->buf, .inlen = in->len,
				 .out = &text }) : 0;

	if (!r)
		pids_add_text(out, text.buf, text.len);
	sb_release(&text);
	return r;
}

/* The patch ids of the commits of spec (a range), oldest first, into
 * out. */
static int patch_ids(const char *spec, struct pids *out)
{
	struct sbuf log = SBUF_INIT;
	const char *lw[] = { "log", "--reverse", "--no-merges", "-p",
			     "--full-index", "--no-renames", "--no-ext-diff",
			     "--no-textconv", "--no-color", "--format=commit %H",
			     spec, "--", NULL };
	int r = git_ok("git log", &(struct git_run){ .words = lw, .out = &log });

	if (!r)
		r = run_patch_id(&log, out);
	sb_release(&log);
	return r;
}

/* The same for the commits ids names ("ID\n" each), their diffs made
 * with algo ("histogram"; NULL: git's default), appended to out; the
 * diffs (git diff-tree --stdin's: each commit's id alone on a line, then
 * its diff) into diff. */
static int commit_patch_ids(const char *ids, const char *algo, struct pids *out,
			    struct sbuf *diff)
{
	struct sbuf a = SBUF_INIT;
	sb_addf(&a, "--diff-algorithm=%s", algo ? algo : "");
	const char *dw[] = { "diff-tree", "-p", "--stdin", "--full-index",
			     "--no-renames", "--no-ext-diff", "--no-textconv",
			     "--no-color", algo ? a.buf : NULL, NULL };
	int r = *ids ? git_ok("git diff-tree", &(struct git_run){ .words = dw,
			.input = ids, .inlen = strlen(ids), .out = diff }) : 0;

	if (!r)
		r = run_patch_id(diff, out);
	sb_release(&a);
	return r;
}

/* The patch id of each group of p (its members' diffs in src), after
 * its name (a commit's id, as source_from_commits() names them) where
 * named, else after its index in 40 hex digits, into out. */
static int group_patch_ids(const struct plan *p, const struct source *src,
			   int named, struct pids *out)
{
	struct sbuf in = SBUF_INIT;

	for (size_t g = 0; g < p->nr; g++) {
		if (named)
			sb_addf(&in, "commit %s\n", p->g[g].name);
		else
			sb_addf(&in, "commit %040zx\n", g);
		for (size_t j = 0; j < p->g[g].nr; j++) {
			const struct sfile *f = &src->f[p->g[g].member[j]];
			sb_add(&in, src->text.buf + f->off, f->len);
		}
	}
	int r = run_patch_id(&in, out);
	sb_release(&in);
	return r;
}

/*
 * Commits, oldest first, from one git log (words: its options and
 * range, then "--" and any paths).  Grammar of `git log -z --name-only
 * --date=raw --format=%x01%H%n%an <%ae>%n%ad%n%B%x02`: per commit "\1"
 * ID LF AUTHOR LF SECONDS SP ZONE LF MESSAGE "\2", then NUL, then (after
 * an LF) its paths, each ending in NUL; -z means no quoting, and git
 * keeps LF out of names.  A message holding \1 or \2 is refused, as it
 * would make the stream ambiguous.
 */
#define COMMITS_FORMAT "--format=%x01%H%n%an <%ae>%n%ad%n%B%x02"

static int log_commits(const char *const *words, struct rcommits *rc)
{
	struct sbuf out = SBUF_INIT;
	int ret = git_ok("git log", &(struct git_run){ .words = words,
						       .out = &out });

	for (const char *p = out.buf, *end = p + out.len; p < end && !ret;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stx = nl ? memchr(nl, '\2', (size_t)(end - nl)) : NULL;
		const char *nl2 = stx ? memchr(nl + 1, '\n', (size_t)(stx - nl - 1)) : NULL;
		const char *nl3 = nl2 ? memchr(nl2 + 1, '\n', (size_t)(stx - nl2 - 1)) : NULL;
		if (*p != '\1' || !nl3 || !is_oid(p + 1, (size_t)(nl - p - 1)) ||
		    memchr(nl, '\1', (size_t)(stx - nl))) {
			ret = error("git log: unexpected output at byte %zu",
				    (size_t)(p - out.buf));
			break;
		}
		GROW(rc->c, rc->nr + 1, rc->alloc);
		struct rcommit *c = &rc->c[rc->nr++];
		memset(c, 0, sizeof *c);
		memcpy(c->id, p + 1, (size_t)(nl - p - 1));
		c->author = xstrndup(nl + 1, (size_t)(nl2 - nl - 1));
		char *zone;
		long long t = scan_number(nl2 + 1, &zone, 10);
		int z = (int)scan_number(zone, NULL, 10);
		c->when = (time_t)t;
		c->tz = (z / 100) * 60 + z % 100;
		c->msg = xstrndup(nl3 + 1, (size_t)(stx - nl3 - 1));
		p = stx + 1;
		if (p < end && *p == '\0')
			p++;
		if (p < end && *p == '\n')
			p++;
		size_t a = 0;
		while (p < end && *p != '\1') {
			const char *nul = memchr(p, '\0', (size_t)(end - p));
			if (!nul) {
				ret = error("git log: a path without its NUL");
				break;
			}
			if (nul > p) {
				GROW(c->path, c->npath + 1, a);
				c->path[c->npath++] = xstrndup(p, (size_t)(nul - p));
			}
			p = nul + 1;
		}
	}
	sb_release(&out);
	return ret;
}

/* The range's commits, oldest first (log_commits); a merge in the range
 * is an error, what names the command (verb) in it. */
static int read_range_commits(const struct range *r, struct rcommits *rc,
			      const char *verb)
{
	struct sbuf arg = SBUF_INIT, out = SBUF_INIT;
	int ret;

	sb_addf(&arg, "%s..%s", r->base, r->tip);
	const char *merges[] = { "rev-list", "--merges", "--max-count=1",
				 arg.buf, "--", NULL };
	const char *log[] = { "log", "--reverse", "--no-renames", "--name-only",
			      "-z", "--no-show-signature", "--date=raw",
			      COMMITS_FORMAT, arg.buf, "--", NULL };
	if ((ret = git_ok("git rev-list", &(struct git_run){
			.words = merges, .out = &out })) < 0)
		goto out;
	chomp(&out);
	if (out.len)
		ret = error("%s: %.12s is a merge; only a linear range can be "
			    "%s", r->spec, out.buf, verb);
	else
		ret = log_commits(log, rc);
out:
	sb_release(&arg);
	sb_release(&out);
	return ret;
}

/* ---- a range per commit ---------------------------------------------------
 * The range's commits as a source with one group per commit, oldest first:
 * one `git diff-tree --stdin -p` for all of them.  Its output is, per
 * commit, the id alone on a line (--always), then that commit's diff; no
 * line of a diff is a bare object id (diff lines begin with ' ', '+', '-',
 * '\', a keyword, or a base85 length letter on a line of 1+5k bytes), so
 * each id line cuts the stream.  Each commit's diff is parsed by itself
 * (a file may be in several commits) and appended.
 */
static int source_from_commits(struct source *src, struct plan *p,
			       const struct rcommits *rc, const char *what)
{
	const char *words[] = { "diff-tree", "-r", "--stdin", "--always", "-p",
				"-M", "--binary", "--full-index",
				"--no-ext-diff", "--no-textconv", "--no-color",
				"--ignore-submodules=none", NULL };
	struct sbuf in = SBUF_INIT, out = SBUF_INIT;
	int r = 0;

	for (size_t i = 0; i < rc->nr; i++)
		sb_addf(&in, "%s\n", rc->c[i].id);
	if (git_ok("git diff-tree", &(struct git_run){ .words = words,
			.input = in.buf, .inlen = in.len, .out = &out }) < 0) {
		sb_release(&in);
		return -1;
	}
	p->g = xcalloc(rc->nr + 1, sizeof *p->g);
	const char *pos = out.buf, *end = out.buf + out.len;
	for (size_t i = 0; i < rc->nr && !r; i++) {
		size_t idlen = strlen(rc->c[i].id);
		if ((size_t)(end - pos) <= idlen || memcmp(pos, rc->c[i].id, idlen) ||
		    pos[idlen] != '\n') {
			r = error("git diff-tree: no diff of %.12s", rc->c[i].id);
			break;
		}
		pos += idlen + 1;
		const char *next = end;
		if (i + 1 < rc->nr) {
			struct sbuf cut = SBUF_INIT;
			sb_addf(&cut, "\n%s\n", rc->c[i + 1].id);
			const char *at = find_bytes(pos - 1, (size_t)(end - pos + 1),
						    cut.buf, cut.len);
			next = at ? at + 1 : end;
			sb_release(&cut);
		}
		struct source one = SOURCE_INIT;
		struct diff_opts d = { 1, NULL };
		sb_add(&one.text, pos, (size_t)(next - pos));
		struct group *g = &p->g[p->nr++];
		g->name = xstrdup(rc->c[i].id);
		if (one.text.len && (r = parse_diff(&one, what, &d)) < 0) {
			source_release(&one);
			break;
		}
		g->member = xcalloc(one.nr + 1, sizeof *g->member);
		for (size_t j = 0; j < one.nr; j++)
			g->member[g->nr++] = source_take(src, &one, j);
		source_release(&one);
		pos = next;
	}
	sb_release(&in);
	sb_release(&out);
	return r;
}

/* ---- patch files ----------------------------------------------------------
 * Patches as mails, each a group (check), and how a mail series names its
 * parts: the numbering of a subject, format-patch's file names, a cover
 * letter and its siblings (cc).
 */

/*
 * A mail's numbering, from its Subject: "[PATCH v2 3/7] x" is tag
 * "PATCH v2", 3 of 7.  Grammar: the header block (up to the first empty
 * line), a "Subject:" line (any case), '[', the tag, white space, K "/" N
 * in digits, ']'.  found is 0 when there is no such subject.
 */
struct numbering {
	char tag[256];
	unsigned long k, n;
	int found;
};

static void read_numbering(const char *t, size_t len, struct numbering *nb)
{
	memset(nb, 0, sizeof *nb);
	const char *pos = t, *end = t + len;
	for (struct span l; next_line(&pos, end, &l);) {
		const char *p = l.p, *e = l.p + l.len;
		if (e == p || (e - p == 1 && *p == '\r'))
			return;
		if (e - p > 8 && !strncasecmp(p, "subject:", 8)) {
			const char *lb = memchr(p, '[', (size_t)(e - p));
			const char *rb = lb ? memchr(lb, ']', (size_t)(e - lb)) : NULL;
			const char *sl = rb ? lb : NULL;
			for (const char *q = lb; sl && q < rb; q++)
				if (*q == '/')
					sl = q;
			if (!sl || sl == lb)
				return;
			const char *ks = sl;
			while (ks > lb + 1 && isdigit((unsigned char)ks[-1]))
				ks--;
			const char *tag_end = ks;
			while (tag_end > lb + 1 && is_space((unsigned char)tag_end[-1]))
				tag_end--;
			char *ne;
			if (ks == sl || !isdigit((unsigned char)sl[1]) ||
			    (size_t)(tag_end - lb - 1) >= sizeof nb->tag)
				return;
			nb->k = scan_number(ks, NULL, 10);
			nb->n = scan_number(sl + 1, &ne, 10);
			if (ne != rb)
				return;
			memcpy(nb->tag, lb + 1, (size_t)(tag_end - lb - 1));
			nb->found = 1;
			return;
		}
	}
}

/* The parts of a format-patch file name: "v2-0003-x.patch" is version
 * prefix "v2-", number 3, suffix ".patch"; --numbered-files names are
 * bare numbers.  Returns 0 when the name is not of that form. */
struct patch_name {
	size_t vlen;          /* length of the "vN-" prefix, 0 if none */
	unsigned long number;
	const char *suffix;   /* from the last '.', "" if none */
};

static int parse_patch_name(const char *base, struct patch_name *pn)
{
	const char *p = base;

	pn->vlen = 0;
	if (*p == 'v' && isdigit((unsigned char)p[1])) {
		const char *q = p + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '-')
			pn->vlen = (size_t)(q + 1 - base);
	}
	p = base + pn->vlen;
	if (!isdigit((unsigned char)*p))
		return 0;
	pn->number = scan_number(p, NULL, 10);
	while (isdigit((unsigned char)*p))
		p++;
	if (*p && *p != '-')
		return 0;
	const char *dot = strrchr(base, '.');
	pn->suffix = *p && dot && dot > p ? dot : "";
	return 1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Whether the mail at path (text) is a cover letter: numbered 0 in its
 * subject, or in its file name, or a mail that carries no diff. */
static int is_cover(const char *path, const char *t, size_t len, size_t nfiles)
{
	struct numbering nb;
	struct patch_name pn;

	read_numbering(t, len, &nb);
	if (nb.found)
		return nb.k == 0;
	if (path && parse_patch_name(base_name(path), &pn) && pn.number == 0)
		return 1;
	return !nfiles && ((len > 5 && !memcmp(t, "From ", 5)) ||
			   find_bytes(t, len, "\nSubject:", 9));
}

/* The source of check: each patch file a group, its files' texts from the
 * work tree (the tree the patches apply to) where there is one. */
static int source_from_patches(struct source *src, struct plan *p,
			       const char *const *word, size_t n)
{
	p->g = xcalloc(n + 1, sizeof *p->g);
	for (size_t i = 0; i < n; i++) {
		struct source one = SOURCE_INIT;
		struct diff_opts d = { -1, NULL };
		if (read_diff(&one, word[i]) < 0) {
			source_release(&one);
			return -1;
		}
		int has_diff = find_bytes(one.text.buf, one.text.len, "\n--- ", 5) ||
			       find_bytes(one.text.buf, one.text.len, "\ndiff --git ", 12);
		if (is_cover(word[i], one.text.buf, one.text.len, has_diff)) {
			note("%s: a cover letter, skipped", word[i]);
			source_release(&one);
			continue;
		}
		if (parse_diff(&one, word[i], &d) < 0) {
			source_release(&one);
			return -1;
		}
		struct group *g = &p->g[p->nr++];
		g->name = xstrdup(word[i]);
		g->member = xcalloc(one.nr + 1, sizeof *g->member);
		for (size_t j = 0; j < one.nr; j++)
			g->member[g->nr++] = source_take(src, &one, j);
		source_release(&one);
	}
	return 0;
}

/*
 * Whether other (a file beside the cover letter) is a patch of its series:
 * where both subjects are numbered, by them (the same tag and count, 1..N:
 * this tells v1 from v2 and covers --suffix and --numbered-files); else by
 * the names (the same "vN-" prefix and suffix, a number above 0; for a
 * cover letter not named by format-patch, any numbered *.patch).
 */
static int is_sibling(const struct numbering *cover, const char *cover_base,
		      const char *other, const char *t, size_t len)
{
	struct numbering nb;

	read_numbering(t, len, &nb);
	if (cover->found && nb.found)
		return nb.k >= 1 && nb.k <= cover->n && nb.n == cover->n &&
		       !strcmp(nb.tag, cover->tag);
	struct patch_name a, b;
	if (!parse_patch_name(other, &b) || !b.number)
		return 0;
	if (!parse_patch_name(cover_base, &a))
		return has_suffix(other, ".patch");
	return a.vlen == b.vlen &&
	       !strncmp(cover_base, other, a.vlen) && !strcmp(a.suffix, b.suffix);
}

/* Reads a patch: path, or standard input for "-".  0, or -1 after error(). */
static int read_mail(const char *path, struct sbuf *text)
{
	if (!strcmp(path, "-") ? sb_read_fd(text, 0) < 0 :
	    sb_read_file(text, path) < 0)
		return error("cc: %s: %s", path, strerror(errno));
	return 0;
}

/* ---- replies: the mbox parser -----------------------------------------------
 * Replies come as mbox files, as a mail client or a list archive saves
 * them.  Grammar: a message starts at a line "From " at the top of the file
 * or after an empty line; its header lines run to the first empty line,
 * a line starting with a space or a tab continuing the one before (its
 * fold undone: the line break goes, the white space stays); the body runs
 * to the next message.  Of the headers, Message-ID, In-Reply-To,
 * References, Subject and From are kept, RFC 2047 encoded words (Q or B,
 * UTF-8, US-ASCII or ISO-8859-1) decoded.  The body is read as git
 * mailinfo reads it: Content-Transfer-Encoding quoted-printable or base64
 * undone, a Latin-1 charset made UTF-8, and of a multipart/ body each
 * text/plain part (MIME parts: their headers, an empty line, the body,
 * between "--BOUNDARY" lines).  Of that text, the trailer lines: "Tag:
 * value" at a line's start with Tag one of trailer_tags (any case); a
 * line that says the patches were applied (says_applied), and the
 * subjects listed below it; a quoted line ("> Tested-by: ...") never
 * counts.
 */

static const char *const trailer_tags[] = { "Reported-by", "Suggested-by",
	"Tested-by", "Reviewed-by", "Acked-by", NULL };

void mbox_release(struct mbox *mb)
{
	for (size_t i = 0; i < mb->n; i++) {
		struct mbox_msg *m = &mb->m[i];
		free(m->id);
		free(m->in_reply_to);
		free(m->subject);
		free(m->from);
		free_strings(m->refs, m->nrefs);
		free_strings(m->trailer, m->ntrailer);
		free(m->diff);
		free(m->scope);
		free(m->applied);
		free(m->nak);
		free_strings(m->listed, m->nlisted);
	}
	free(mb->m);
	memset(mb, 0, sizeof *mb);
}

/* The message ids ("<...>") in v, in order. */
static void message_ids(const char *v, char ***ids, size_t *n)
{
	size_t a = *n;

	for (const char *p = v; (p = strchr(p, '<'));) {
		const char *gt = strchr(p, '>');
		if (!gt)
			break;
		GROW(*ids, *n + 1, a);
		(*ids)[(*n)++] = xstrndup(p, (size_t)(gt + 1 - p));
		p = gt + 1;
	}
}

/* The tag of a trailer line, or NULL. */
static const char *trailer_tag(const char *s, size_t n)
{
	for (const char *const *t = trailer_tags; *t; t++) {
		size_t k = strlen(*t);
		if (n > k + 1 && !strncasecmp(s, *t, k) && s[k] == ':' &&
		    (s[k + 1] == ' ' || s[k + 1] == '\t'))
			return *t;
	}
	return NULL;
}

static void add_header_field(struct mbox_msg *m, struct body_form *bf,
			     const struct sbuf *h)
{
	const char *colon = memchr(h->buf, ':', h->len);
	if (!colon)
		return;
	size_t nl = (size_t)(colon - h->buf);
	struct span v = trim_span((struct span){ colon + 1,
		h->len - nl - 1 });
	char *val = decode_header(v.p, v.len);
#define IS(name) (nl == strlen(name) && !strncasecmp(h->buf, name, nl))
	if (body_header(bf, h->buf, nl, val))
		;
	else if (IS("Message-ID") && m && !m->id) {
		char **ids = NULL;
		size_t n = 0;
		message_ids(val, &ids, &n);
		if (n)
			m->id = xstrdup(ids[0]);
		free_strings(ids, n);
	} else if (IS("In-Reply-To") && m && !m->in_reply_to) {
		char **ids = NULL;
		size_t n = 0;
		message_ids(val, &ids, &n);
		if (n)
			m->in_reply_to = xstrdup(ids[n - 1]);
		free_strings(ids, n);
	} else if (IS("References") && m)
		message_ids(val, &m->refs, &m->nrefs);
	else if (IS("Subject") && m && !m->subject) {
		m->subject = val;
		val = NULL;
	} else if (IS("From") && m && !m->from) {
		m->from = val;
		val = NULL;
	}
#undef IS
	free(val);
}

/* What a line of a reply says its tags are for, lower case, or NULL.
 * Grammar, in any case, anywhere in the line:
 *   "for " ["the "] WORD (" " ("part" | "parts" | "bits" | "bit" |
 *   "changes" | "change" | "side" | "patches" | "driver" | "drivers")
 *   | WORD holding a '/')
 * WORD is letters, digits and "_-./"; "for drivers/i2c" and "For the
 * GPIO part" scope, "for the series" or "for all" does not. */
static char *scope_of(struct span l)
{
	static const char *const what[] = { "part", "parts", "bits", "bit",
		"changes", "change", "side", "patches", "driver", "drivers", NULL };
	char *line = xstrndup(l.p, l.len), *r = NULL;

	lower_ascii(line);
	for (char *p = line; !r && (p = str_find(p, "for ")); p++) {
		if (p > line && isalnum((unsigned char)p[-1]))
			continue;
		char *w = p + 4;
		if (!strncmp(w, "the ", 4))
			w += 4;
		size_t n = strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789_-./");
		while (n && w[n - 1] == '.')
			n--;
		int path = n && memchr(w, '/', n) != NULL;
		while (n > 1 && w[n - 1] == '/')
			n--;
		if (!n)
			continue;
		for (size_t k = 0; !path && what[k] && w[n] == ' '; k++) {
			size_t kl = strlen(what[k]);
			path = !strncmp(w + n + 1, what[k], kl) &&
			       !isalnum((unsigned char)w[n + 1 + kl]);
		}
		if (path)
			r = xstrndup(w, n);
	}
	free(line);
	return r;
}

/* Whether a line of a reply says that what it answers was applied.
 * Grammar, in any case, after white space:
 *   ("applied" | "queued" | ("thanks" | "thank you") ["," | "!"] " applied")
 *   followed by no letter; or "was applied to" or "were applied to"
 *   anywhere (a patchwork bot's "This series was applied to ...").
 * "Not applied", "can't be applied" and "applies" do not say it. */
static int says_applied(struct span l)
{
	static const char *const starts[] = { "applied", "queued",
		"thanks, applied", "thanks! applied", "thanks applied",
		"thank you, applied", "thank you! applied", NULL };
	struct span t = trim_span(l);

	for (size_t k = 0; starts[k]; k++) {
		size_t n = strlen(starts[k]);
		if (t.len >= n && !strncasecmp(t.p, starts[k], n) &&
		    (t.len == n || !isalpha((unsigned char)t.p[n])))
			return 1;
	}
	char *low = xstrndup(t.p, t.len);
	lower_ascii(low);
	int r = str_find(low, "was applied to") || str_find(low, "were applied to");
	free(low);
	return r;
}

/* The subject of a line listing an applied patch: "[1/3] subject" (b4
 * ty), "- [net-next,1/3] subject" (a patchwork bot), or NULL. */
static char *listed_subject(struct span l)
{
	struct span t = trim_span(l);

	if (t.len > 2 && (*t.p == '-' || *t.p == '*') && t.p[1] == ' ')
		t = trim_span((struct span){ t.p + 2, t.len - 2 });
	const char *close = t.len && *t.p == '[' ? memchr(t.p, ']', t.len) : NULL;
	const char *slash = close ? memchr(t.p, '/', (size_t)(close - t.p)) : NULL;
	if (!slash || !isdigit((unsigned char)slash[-1]) ||
	    !isdigit((unsigned char)slash[1]) || (size_t)(close + 2 - t.p) >= t.len)
		return NULL;
	return xstrndup(close + 2, t.len - (size_t)(close + 2 - t.p));
}

/* The trailer lines of a decoded text, each decoded; a quoted line
 * ("> Tested-by: ...") never counts. */
static void scan_trailers(struct mbox_msg *m, const char *t, size_t len)
{
	const char *pos = t, *end = t + len;

	for (struct span l; next_line(&pos, end, &l);) {
		if (l.len && l.p[l.len - 1] == '\r')
			l.len--;
		if (l.len && l.p[0] != '>' && !m->scope)
			m->scope = scope_of(l);
		char *ls = l.len && l.p[0] != '>' && m->applied ?
			   listed_subject(l) : NULL;
		if (ls) {
			GROW(m->listed, m->nlisted + 1, m->alisted);
			m->listed[m->nlisted++] = ls;
		}
		if (l.len && l.p[0] != '>' && !m->applied && says_applied(l)) {
			struct span a = trim_span(l);
			m->applied = xstrndup(a.p, a.len);
		}
		if (!m->nak && l.len > 10 && !strncasecmp(l.p, "Nacked-by:", 10))
			m->nak = decode_header(l.p, trim_span(l).len);
		if (!l.len || l.p[0] == '>' || !trailer_tag(l.p, l.len))
			continue;
		char *v = decode_header(l.p, trim_span(l).len);
		GROW(m->trailer, m->ntrailer + 1, m->atrailer);
		m->trailer[m->ntrailer++] = v;
	}
}

/*
 * A body as git mailinfo reads it: decoded from its transfer encoding
 * into UTF-8, and for a multipart one each text/plain part so (nested
 * parts too, to a depth of 8).  Its trailer lines go to m.
 */
static void scan_body(struct mbox_msg *m, const char *t, size_t len,
		      const struct body_form *bf, int depth)
{
	if (bf->boundary && depth < 8) {
		const char *pos = t, *end = t + len, *part = NULL;
		size_t blen = strlen(bf->boundary);
		for (struct span l; next_line(&pos, end, &l);) {
			if (l.len < blen || memcmp(l.p, bf->boundary, blen))
				continue;
			if (part) {
				/* a part: its headers, then its body */
				struct body_form pbf = { 0, 0, 1, NULL };
				const char *b = part_headers(&pbf, part, l.p);
				scan_body(m, b, (size_t)(l.p - b), &pbf, depth + 1);
				free(pbf.boundary);
			}
			part = pos;
		}
		return;
	}
	if (!bf->text || bf->latin1 < 0)
		return;
	struct sbuf raw = SBUF_INIT, text = SBUF_INIT;
	if (bf->cte == 'q')
		decode_qp(&raw, t, len, 0);
	else if (bf->cte != 'b' || decode_base64(&raw, t, len) < 0)
		sb_add(&raw, t, len);
	add_utf8(&text, &raw, bf->latin1);
	scan_trailers(m, text.buf, text.len);
	/* a patch mail's diff, up to its signature, for its patch id */
	const char *d = text.len > 11 && !memcmp(text.buf, "diff --git ", 11) ?
			text.buf : find_bytes(text.buf, text.len, "\ndiff --git ", 12);
	if (d && !m->diff) {
		d += *d == '\n';
		size_t left = text.len - (size_t)(d - text.buf);
		const char *sig = find_bytes(d, left, "\n-- \n", 5);
		m->diff = xstrndup(d, sig ? (size_t)(sig - d) + 1 : left);
	}
	sb_release(&raw);
	sb_release(&text);
}

/* The message ends: its body read as its form says. */
static void end_message(struct mbox_msg *m, struct body_form *bf,
			struct sbuf *body)
{
	if (m)
		scan_body(m, body->buf, body->len, bf, 0);
	free(bf->boundary);
	*bf = (struct body_form){ 0, 0, 1, NULL };
	sb_setlen(body, 0);
}

int mbox_parse(const char *t, size_t len, struct mbox *mb)
{
	const char *pos = t, *end = t + len;
	struct mbox_msg *m = NULL;
	struct sbuf h = SBUF_INIT, body = SBUF_INIT;
	struct body_form bf = { 0, 0, 1, NULL };
	int in_head = 0, prev_blank = 1;
	size_t at = mb->n;

	for (struct span l; next_line(&pos, end, &l);) {
		struct span raw = l;
		if (l.len && l.p[l.len - 1] == '\r')
			l.len--;
		if (prev_blank && l.len >= 5 && !memcmp(l.p, "From ", 5)) {
			if (m && h.len)
				add_header_field(m, &bf, &h);
			sb_setlen(&h, 0);
			end_message(m, &bf, &body);
			GROW(mb->m, mb->n + 1, mb->alloc);
			m = &mb->m[mb->n++];
			memset(m, 0, sizeof *m);
			in_head = 1;
			prev_blank = 0;
			continue;
		}
		prev_blank = l.len == 0;
		if (!m)
			continue;
		if (!in_head) {
			sb_add(&body, raw.p, raw.len);
			sb_addc(&body, '\n');
		} else if (!l.len) {
			if (h.len)
				add_header_field(m, &bf, &h);
			sb_setlen(&h, 0);
			in_head = 0;
		} else if ((l.p[0] == ' ' || l.p[0] == '\t') && h.len)
			sb_add(&h, l.p, l.len);
		else {
			if (h.len)
				add_header_field(m, &bf, &h);
			sb_setlen(&h, 0);
			sb_add(&h, l.p, l.len);
		}
	}
	if (m && in_head && h.len)
		add_header_field(m, &bf, &h);
	end_message(m, &bf, &body);
	sb_release(&h);
	sb_release(&body);
	return (int)(mb->n - at);
}

/* The version a patch mail's subject names: N of "[PATCH vN 3/5]", 1
 * of a "[PATCH ...]" tag without one, 0 where it has no such tag. */
static int subject_version(const char *s)
{
	const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close || !find_bytes(open, (size_t)(close - open), "PATCH", 5))
		return 0;
	for (const char *p = open + 1; p + 1 < close; p++)
		if ((p[-1] == '[' || p[-1] == ' ') && *p == 'v' &&
		    isdigit((unsigned char)p[1]))
			return (int)scan_number(p + 1, NULL, 10);
	return 1;
}

/* ---- history: the commits before a revision ----------------------------------
 * What the recent history says of the files, read once and bounded: the
 * last HISTORY_WINDOW commits before rev, whatever the depth of history
 * behind them, looked up in memory after (subject prefixes, merge routes):
 *   git log --min-parents=1 -z --format=%x01%H %P%x02%ae%x02%an%x02%ce%x02%s
 *           --name-only --no-renames --max-count=HISTORY_WINDOW REV
 * (a root commit is an import, not a patch: a tarball's 78,000 paths
 * would cost more than the rest of the window).
 * Grammar: per commit "\1" ID [" " PARENT]... "\2" AUTHOR "\2" NAME "\2"
 * COMMITTER "\2" SUBJECT NUL, then (with paths) LF and its paths, each
 * ending in NUL; a merge lists no paths.  An address, a name or a subject
 * holds no NUL or LF (%s is one line; git drops newlines from names); a
 * record starts with \1 only after a NUL, so a path that starts with \1
 * is misread as a record, which then has no "\2" and is dropped.
 *
 * A subject's cut is its leading run of "WORD: ", a word having no blank
 * and no ':' ("xen/arm: vgic: " of "xen/arm: vgic: fix x: y"; a revert has
 * none).  Only focused commits are kept: a cut, at most HISTORY_FILES
 * files in at most HISTORY_DIRS directories; a sweep says nothing of one
 * area, neither its words nor who takes its patches.
 *
 * Every commit is a node of the graph, for the tree that merged it: the
 * main line is the first parents from rev; a commit off it came in with
 * the oldest merge of the main line that reaches it, whose subject names
 * the tree ("Merge tag 'x' of URL", "Merge branch 'x' of URL into y",
 * "Merge URL"); a merge that names none, and the main line's own
 * commits, are the main tree's.
 */

#define HISTORY_WINDOW 10000
#define HISTORY_FILES 20
#define HISTORY_DIRS 2
#define ROUTE_COMMITS 5

/* A focused commit of the log: its author's address and name, its
 * committer's address, its cut, its paths (window.path[path0 .. path0 +
 * npath)) and their directories ("." for the top), and its node.  Spans and paths point
 * into window.log. */
struct past {
	struct span author, name, committer, cut;
	size_t path0, npath;
	struct span dir[HISTORY_DIRS];
	size_t ndir;
	size_t node;
};

/* A commit of the log, focused or not: its id, its parents as the log
 * lists them ("P1 P2"), and its subject; by, the node of the main line
 * it came in with (a merge, or itself where it is on the main line), or
 * NO_MERGE where no merge in the window reaches it.  Spans point into
 * window.log. */
struct node {
	struct span id, parents, subject;
	size_t by;
};
#define NO_MERGE ((size_t)-1)

struct window {
	struct git_bg bg;        /* the log, while it runs */
	struct sbuf log;
	struct past *c;          /* most recent first */
	size_t nr, alloc;
	const char **path;
	size_t npath, apath;
	struct node *node;       /* in the log's order */
	size_t nnode, anode;
	int read;                /* window_read() done */
};
#define WINDOW_INIT { { { 0 }, NULL, 0, 0 }, SBUF_INIT, NULL, 0, 0, NULL, 0, 0, \
		      NULL, 0, 0, 0 }

/* The length of the leading "WORD: " run of s (n bytes). */
static size_t cut_len(const char *s, size_t n)
{
	size_t at = 0;

	for (;;) {
		size_t w = at;
		while (w < n && s[w] != ':' && s[w] != ' ' && s[w] != '\t')
			w++;
		if (w == at || w + 1 >= n || s[w] != ':' || s[w + 1] != ' ')
			return at;
		at = w + 2;
	}
}

static struct span dir_span(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (struct span){ path, (size_t)(slash - path) } :
		       (struct span){ ".", 1 };
}

static int span_is(struct span s, const char *str, size_t n)
{
	return s.len == n && !memcmp(s.p, str, n);
}

/* Keeps the commit last read when it is focused; else forgets its paths. */
static void keep_past(struct window *w, struct past *c)
{
	c->ndir = 0;
	int focused = c->cut.len && c->npath && c->npath <= HISTORY_FILES;
	for (size_t i = 0; focused && i < c->npath; i++) {
		struct span d = dir_span(w->path[c->path0 + i]);
		size_t k = 0;
		while (k < c->ndir && !span_is(c->dir[k], d.p, d.len))
			k++;
		if (k == c->ndir && (focused = c->ndir < HISTORY_DIRS))
			c->dir[c->ndir++] = d;
	}
	if (!focused) {
		w->npath = c->path0;
		return;
	}
	GROW(w->c, w->nr + 1, w->alloc);
	w->c[w->nr++] = *c;
}

/* The next field of a record, up to a '\2' before end, into f; where
 * there is none, 0. */
static int next_field(const char **pos, const char *end, struct span *f)
{
	const char *sep = memchr(*pos, '\2', (size_t)(end - *pos));

	if (!sep)
		return 0;
	*f = (struct span){ *pos, (size_t)(sep - *pos) };
	*pos = sep + 1;
	return 1;
}

/* Reads a record's head "\1" ID [" " PARENT]... "\2" AUTHOR "\2" NAME
 * "\2" COMMITTER "\2" SUBJECT (NUL at end) into a new node and cur; 0
 * where it is not one. */
static int read_record(struct window *w, const char *pos, const char *end,
		       struct past *cur)
{
	struct span head, author, name, committer;

	pos++;
	if (!next_field(&pos, end, &head) || !next_field(&pos, end, &author) ||
	    !next_field(&pos, end, &name) || !next_field(&pos, end, &committer))
		return 0;
	const char *sp = memchr(head.p, ' ', head.len);
	size_t idlen = sp ? (size_t)(sp - head.p) : head.len;
	GROW(w->node, w->nnode + 1, w->anode);
	w->node[w->nnode] = (struct node){
		{ head.p, idlen },
		{ head.p + idlen + !!sp, head.len - idlen - !!sp },
		{ pos, (size_t)(end - pos) }, NO_MERGE };
	/* a byte-order mark some mailer put first (5 subjects of Xen's) is
	 * no part of the cut that %(prefix) hands on */
	if (end - pos >= 3 && !memcmp(pos, "\xEF\xBB\xBF", 3))
		pos += 3;
	*cur = (struct past){ .author = author, .name = name,
		.committer = committer,
		.cut = { pos, cut_len(pos, (size_t)(end - pos)) },
		.path0 = w->npath, .node = w->nnode++ };
	return 1;
}

/* The commits of w->log, as the grammar above reads it: every node, and
 * the focused ones. */
static void parse_window(struct window *w)
{
	const char *pos = w->log.buf, *end = pos + w->log.len;
	struct past cur = { 0 };
	int in = 0;

	for (const char *nul; pos < end &&
	     (nul = memchr(pos, '\0', (size_t)(end - pos))); pos = nul + 1) {
		if (*pos == '\1') {
			if (in)
				keep_past(w, &cur);
			in = read_record(w, pos, nul, &cur);
			continue;
		}
		const char *path = pos + (*pos == '\n');
		if (!in || !*path)
			continue;
		GROW(w->path, w->npath + 1, w->apath);
		w->path[w->npath++] = path;
		cur.npath++;
	}
	if (in)
		keep_past(w, &cur);
}

/* A node's id and index, to sort and bsearch by id. */
struct id_at {
	struct span id;
	size_t node;
};

/* memcmp of two spans, the shorter first where one begins the other. */
static int cmp_span(struct span a, struct span b)
{
	int c = memcmp(a.p, b.p, a.len < b.len ? a.len : b.len);

	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int cmp_id_at(const void *a, const void *b)
{
	return cmp_span(((const struct id_at *)a)->id,
			((const struct id_at *)b)->id);
}

/* Pushes onto the stack the nodes of node i's parents from the k-th
 * (0: the first) to before the e-th, those the window holds. */
static void push_parents(const struct window *w, const struct id_at *ix,
			 size_t i, size_t k, size_t e, size_t **stack,
			 size_t *n, size_t *alloc)
{
	struct span p = w->node[i].parents;

	for (size_t j = 0; p.len && j < e; j++) {
		const char *sp = memchr(p.p, ' ', p.len);
		size_t len = sp ? (size_t)(sp - p.p) : p.len, lo = 0, hi = w->nnode;
		struct id_at key = { { p.p, len }, 0 };
		BSEARCH(lo, hi, mid, cmp_id_at(&ix[mid], &key) < 0);
		if (j >= k && lo < w->nnode && !cmp_id_at(&ix[lo], &key)) {
			GROW(*stack, *n + 1, *alloc);
			(*stack)[(*n)++] = ix[lo].node;
		}
		p.p += len + (sp != NULL);
		p.len -= len + (sp != NULL);
	}
}

/* Which merge of the main line brought each node in (node.by), as the
 * part's head says: the main line's own are their own; a merge's
 * second and later parents, and all they reach that nothing older
 * reached first, are the merge's. */
static void attribute_merges(struct window *w)
{
	size_t n = w->nnode, *line = xcalloc(n + 1, sizeof *line), nline = 0;
	size_t *stack = NULL, ns = 0, as = 0;
	struct id_at *ix = xcalloc(n + 1, sizeof *ix);

	for (size_t i = 0; i < n; i++)
		ix[i] = (struct id_at){ w->node[i].id, i };
	sort_n(ix, n, sizeof *ix, cmp_id_at);
	for (size_t i = 0; n && w->node[i].by == NO_MERGE; ) {
		w->node[i].by = i;
		line[nline++] = i;
		ns = 0;
		push_parents(w, ix, i, 0, 1, &stack, &ns, &as);
		if (!ns)
			break;
		i = stack[0];
	}
	for (size_t k = nline; k-- > 0; ) {
		size_t m = line[k];
		ns = 0;
		push_parents(w, ix, m, 1, SIZE_MAX, &stack, &ns, &as);
		while (ns) {
			size_t x = stack[--ns];
			if (w->node[x].by != NO_MERGE)
				continue;
			w->node[x].by = m;
			push_parents(w, ix, x, 0, SIZE_MAX, &stack, &ns, &as);
		}
	}
	free(line);
	free(stack);
	free(ix);
}

/* Whether node m is a merge (two parents or more). */
static int is_merge(const struct node *m)
{
	return memchr(m->parents.p, ' ', m->parents.len) != NULL;
}

/* The first word of v with "://" in it (a URL); p NULL where none. */
static struct span url_word(struct span v)
{
	const char *end = v.p + v.len, *p = find_bytes(v.p, v.len, "://", 3);

	if (!p)
		return (struct span){ NULL, 0 };
	const char *b = p, *e = p;
	while (b > v.p && b[-1] != ' ' && b[-1] != '\t')
		b--;
	while (e < end && *e != ' ' && *e != '\t')
		e++;
	return (struct span){ b, (size_t)(e - b) };
}

/* The tree that merged c, as its merge's subject names it ("Merge ...",
 * its url_word()): an empty span for the main tree; p NULL where the
 * window does not say. */
static struct span merged_by(const struct window *w, const struct past *c)
{
	size_t by = w->node[c->node].by;

	if (by == NO_MERGE)
		return (struct span){ NULL, 0 };
	const struct node *m = &w->node[by];
	struct span s = m->subject, u = url_word(s);
	if (!is_merge(m) || !starts_with(s.p, s.p + s.len, "Merge ") || !u.p)
		return (struct span){ s.p, 0 };
	return u;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* Starts reading the window before rev beside the caller's work, its file
 * in dir (the git directory); where it cannot start, there is none. */
static void window_start(struct window *w, const char *dir, const char *rev)
{
	static const char *const head[] = { "log",
		"--min-parents=1", "-z",
		"--format=%x01%H %P%x02%ae%x02%an%x02%ce%x02%s",
		"--name-only", "--no-renames", ("--max-count=" STR(HISTORY_WINDOW)) };
	const char **words = xcalloc(sizeof head / sizeof *head + 3,
				     sizeof *words);

	memcpy(words, head, sizeof head);
	words[sizeof head / sizeof *head] = rev;
	words[sizeof head / sizeof *head + 1] = "--";
	w->bg.run.quiet = 1;
	if (bg_start(&w->bg, dir, words) < 0)
		w->bg.started = 0;
}

/* The window before rev, started or not, read once (a second call keeps
 * the first's); no history (an unborn branch, a failing git, no
 * repository: dir NULL) is an empty one. */
static void window_read(struct window *w, const char *dir, const char *rev)
{
	if (w->read++)
		return;
	if (!w->bg.started && dir)
		window_start(w, dir, rev);
	if (!w->bg.started || bg_finish(&w->bg, &w->log))
		sb_setlen(&w->log, 0);
	parse_window(w);
	attribute_merges(w);
}

static void window_release(struct window *w)
{
	bg_finish(&w->bg, NULL);
	sb_release(&w->log);
	free(w->c);
	free(w->path);
	free(w->node);
}

/* ==== 4. recipients ======================================================
 * get_maintainer.pl's answer, for any set of files and patch text, from
 * one pass over MAINTAINERS: what a patch touches (the script's own line
 * rules), the N:/K: regex engine, the file's scan, addresses, .mailmap,
 * .yaml addresses, history, the answer; then where MAINTAINERS is, and
 * the owners of a source's files that the groupings need.
 */

/* ---- diff parser -------------------------------------------------------------
 * What a patch touches, read line by line the way get_maintainer.pl reads it,
 * so that both name the same files (a line matching an earlier rule is not
 * looked at by later ones):
 *   " mode change 100644 => 100755 PATH"
 *   "rename from PATH" / "rename to PATH"
 *   "diff --git a/OLD b/NEW"                    (both pushed)
 *   "Fixes: 0123abc..."                          (6-40 hex digits)
 *   "+++ PATH" / "--- PATH"                      (first component dropped:
 *                                                 a/ b/ or any; /dev/null
 *                                                 becomes dev/null, as there)
 *   "@@ -N,M ..."                                (skipped)
 *   anything else: searched for K: keywords; once the first ---/+++ line is
 *   seen, only lines starting with + or - are, from their second byte.
 * Unlike the script, a quoted path ("a/x y" with C escapes) is unquoted
 * whole.  Lines end at LF; a CR before it is part of the line, as in Perl.
 */

static void push_file(struct patch_files *pf, char *path)
{
	GROW(pf->file, pf->nr + 1, pf->alloc);
	pf->file[pf->nr++] = path;
}

static int only_space(const char *s, const char *lim)
{
	while (s < lim && is_space((unsigned char)*s))
		s++;
	return s == lim;
}

/* The "PATH" a rule ends with, alone up to the line's end: pushed. */
static int take_path(struct patch_files *pf, const char *p, const char *lim)
{
	const char *e;
	char *a = path_token(p, lim, &e);

	if (!a)
		return 0;
	if (!only_space(e, lim)) {
		free(a);
		return 0;
	}
	push_file(pf, a);
	return 1;
}

/* The end of a run of octal digits at p (p itself when there is none). */
static const char *octal_run(const char *p, const char *lim)
{
	while (p < lim && *p >= '0' && *p <= '7')
		p++;
	return p;
}

/* " mode change OLD => NEW PATH" */
static int take_mode_change(struct patch_files *pf, const char *p,
			    const char *lim, int *in_diff)
{
	const char *e = octal_run(p, lim);

	(void)in_diff;
	if (e == p || !starts_with(e, lim, " => "))
		return 0;
	p = e + 4;
	e = octal_run(p, lim);
	return e > p && e < lim && *e == ' ' && take_path(pf, e + 1, lim);
}

/* "rename from PATH", "rename to PATH" */
static int take_rename(struct patch_files *pf, const char *p, const char *lim,
		       int *in_diff)
{
	(void)in_diff;
	return take_path(pf, p, lim);
}

/* "diff --git a/OLD b/NEW": both, without their a/ and b/. */
static int take_diff_git(struct patch_files *pf, const char *p,
			 const char *lim, int *in_diff)
{
	const char *e;
	char *a = path_token(p, lim, &e), *b = NULL;
	int ok = 0;

	(void)in_diff;
	if (a && e < lim && *e == ' ')
		b = path_token(e + 1, lim, &e);
	if (b && only_space(e, lim) && starts_with(a, NULL, "a/") &&
	    starts_with(b, NULL, "b/") && a[2] && b[2]) {
		push_file(pf, xstrdup(a + 2));
		push_file(pf, xstrdup(b + 2));
		ok = 1;
	}
	free(a);
	free(b);
	return ok;
}

/* "Fixes:" white space, then 6 to 40 hex digits. */
static int take_fixes(struct patch_files *pf, const char *p, const char *lim,
		      int *in_diff)
{
	(void)in_diff;
	if (p >= lim || !is_space((unsigned char)*p))
		return 0;
	while (p < lim && is_space((unsigned char)*p))
		p++;
	const char *e = p;
	while (e < lim && e - p < 40 && isxdigit((unsigned char)*e))
		e++;
	if (e - p < 6)
		return 0;
	GROW(pf->fixes, pf->nfixes + 1, pf->afixes);
	pf->fixes[pf->nfixes++] = xstrndup(p, (size_t)(e - p));
	return 1;
}

/* "+++ PATH", "--- PATH": the path less its first component; from here on
 * the patch's lines are diff lines. */
static int take_file_header(struct patch_files *pf, const char *p,
			    const char *lim, int *in_diff)
{
	const char *e;

	if (p >= lim || !is_space((unsigned char)*p))
		return 0;
	while (p < lim && is_space((unsigned char)*p))
		p++;
	char *a = path_token(p, lim, &e);
	if (!a)
		return 0;
	char *slash = strchr(a, '/');
	push_file(pf, xstrdup(slash ? slash + 1 : a));
	free(a);
	*in_diff = 1;
	return 1;
}

/* "@@ -N,M": a hunk header, taken so that it is no keyword line. */
static int take_hunk(struct patch_files *pf, const char *p, const char *lim,
		     int *in_diff)
{
	const char *e = p;

	(void)pf;
	(void)in_diff;
	while (e < lim && isdigit((unsigned char)*e))
		e++;
	return e > p && e + 1 < lim && *e == ',' && isdigit((unsigned char)e[1]);
}

/* The rules of the grammar above, in the script's order: a line goes to
 * the first rule whose prefix it has and which takes it. */
static const struct patch_rule {
	const char *prefix;
	int (*take)(struct patch_files *, const char *, const char *, int *);
} patch_rules[] = {
	{ " mode change ", take_mode_change },
	{ "rename from ", take_rename },
	{ "rename to ", take_rename },
	{ "diff --git ", take_diff_git },
	{ "Fixes:", take_fixes },
	{ "+++", take_file_header },
	{ "---", take_file_header },
	{ "@@ -", take_hunk },
};

/* One line (without its LF): 1 when a rule took it, 0 when it is for the
 * keyword search. */
static int patch_line(struct patch_files *pf, const char *s, const char *lim,
		      int *in_diff)
{
	for (size_t i = 0; i < sizeof patch_rules / sizeof *patch_rules; i++) {
		const struct patch_rule *r = &patch_rules[i];
		if (starts_with(s, lim, r->prefix) &&
		    r->take(pf, s + strlen(r->prefix), lim, in_diff))
			return 1;
	}
	return 0;
}

void kwtext_add(struct kwtext *kw, const char *s, size_t len, size_t skip)
{
	GROW(kw->line, kw->nline + 1, kw->aline);
	kw->line[kw->nline++] = (struct kwline){ kw->text.len, len, skip };
	sb_add(&kw->text, s, len);
}

void kwtext_release(struct kwtext *kw)
{
	sb_release(&kw->text);
	free(kw->line);
	kw->line = NULL;
	kw->nline = kw->aline = 0;
}

/*
 * Scans a patch: its files (sorted, unique, as the script leaves them),
 * Fixes: ids, and the lines K: patterns are searched in.  Returns the
 * number of files.
 */
size_t scan_patch(const char *t, size_t len, struct patch_files *pf,
		  struct kwtext *kw)
{
	int in_diff = 0;
	size_t first = pf->nr;

	const char *pos = t, *end = t + len;
	for (struct span ln; next_line(&pos, end, &ln);) {
		const char *p = ln.p, *e = p + ln.len;
		if (!patch_line(pf, p, e, &in_diff) && kw) {
			/* The line as Perl holds it: with its LF.  In the
			 * diff, only a '+' or '-' line, after that byte. */
			size_t l = ln.len + (e < end);
			if (!in_diff)
				kwtext_add(kw, p, l, 0);
			else if (l && (*p == '+' || *p == '-'))
				kwtext_add(kw, p, l, 1);
		}
	}
	size_t added = pf->nr - first;
	sort_unique(pf->file + first, &added, 1);
	pf->nr = first + added;
	return added;
}

void patch_files_release(struct patch_files *pf)
{
	for (size_t i = 0; i < pf->nr; i++)
		free(pf->file[i]);
	for (size_t i = 0; i < pf->nfixes; i++)
		free(pf->fixes[i]);
	free(pf->file);
	free(pf->fixes);
	memset(pf, 0, sizeof *pf);
}

/* ---- regex -----------------------------------------------------------------
 * A Perl-subset regex engine for MAINTAINERS' N: and K: lines, in the manner
 * of Russ Cox's re1: parse into a small tree, count the instructions, emit
 * them into one allocation, and run a Pike VM over two thread lists with a
 * generation mark per instruction, so a match costs O(text x program) at
 * worst: no pattern can make it backtrack.
 *
 * Accepted (as Perl reads it, byte semantics, /x where asked):
 *   literals, '.', [classes] with ranges and negation, \d \D \w \W \s \S,
 *   \b \B, ^ $ (no /m), escapes \t \n \r \f \e \xHH and any escaped
 *   punctuation, (...), (?:...), (?i), (?i:...), a|b, * + ? {n} {n,} {n,m}
 *   and their lazy forms (a yes/no answer does not depend on laziness);
 *   look-around (?<!...) (?<=...) (?!...) (?=...) whose alternatives are
 *   each a fixed run of bytes (U-Boot's "(?<!uni)versal"): a test of the
 *   bytes beside the position, so the VM stays a Pike VM.
 * Refused with an error naming the construct: backreferences, look-around
 * of another shape, possessive quantifiers, named groups, other (?...)
 * forms, \p, \Q, \G, \z, unknown letter escapes, a program over
 * RE_MAX_INST instructions.
 * The only answer is "does it match anywhere": no captures are kept.
 */

enum { R_LIT, R_CLASS, R_ANY, R_CAT, R_ALT, R_STAR, R_PLUS, R_QUEST,
       R_EMPTY, R_BOL, R_EOL, R_WORDB, R_NWORDB, R_LOOK };

enum { I_CLASS, I_ANY, I_SPLIT, I_JMP, I_BOL, I_EOL, I_WORDB, I_NWORDB,
       I_LOOK, I_MATCH };

_Static_assert(R_NWORDB - R_BOL == I_NWORDB - I_BOL && R_EOL - R_BOL == 1 &&
	       I_EOL - I_BOL == 1 && R_WORDB - R_BOL == 2 && I_WORDB - I_BOL == 2,
	       "the assertions stand in the same order in both enums");

/* R_LOOK's lit and I_LOOK's y: which way it looks, and whether the bytes
 * must not be there. */
enum { LOOK_ON = 1, LOOK_BEHIND = 2, LOOK_NEG = 4 };

#define RE_MAX_INST 20000

#define RE_MAX_NODES 10000

#define RE_MAX_LEN 4096     /* bytes of pattern; MAINTAINERS' longest is 180 */

struct rnode {
	int op;
	int left, right;        /* children, -1 when none; R_LOOK: its run */
	unsigned char set[32];  /* R_LIT / R_CLASS: the bytes it accepts */
	unsigned char lit;      /* R_LIT: the byte, for the prefilter;
				 * R_LOOK: its LOOK_ flags */
	unsigned char icase;
};

struct rparse {
	const char *p, *end, *pat;
	int xflag;
	struct rnode *n;        /* stack[] until it outgrows it, then heap */
	size_t nr, alloc;
	const char *err;
	struct rnode stack[128];
};

struct rinst {
	unsigned char op;
	unsigned cls;           /* I_CLASS, I_LOOK: index into the class table */
	unsigned x, y;          /* I_SPLIT / I_JMP targets; I_LOOK: how many
				 * classes from cls, its LOOK_ flags */
};

struct regex {
	struct rinst *prog;
	unsigned char (*cls)[32];
	size_t ninst, ncls;
	char **lits;            /* prefilter: one of these must occur... */
	unsigned char *lit_icase;
	size_t nlits;
	unsigned *mark;         /* scratch for the VM */
	unsigned *list[2];
	unsigned gen;
	int one_line;           /* no match spans a '\n' nor needs ^ or $ */
};

static void set_bit(unsigned char *set, unsigned c)
{
	set[c >> 3] |= (unsigned char)(1u << (c & 7));
}

static int has_bit(const unsigned char *set, unsigned c)
{
	return set[c >> 3] >> (c & 7) & 1;
}

static int is_word(int c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static int rnew(struct rparse *rp, int op, int l, int r)
{
	if (rp->nr >= RE_MAX_NODES) {
		rp->err = "pattern too large";
		return -1;
	}
	if (rp->n == rp->stack && rp->nr == rp->alloc) {
		rp->n = xmalloc(xmul(rp->alloc * 2, sizeof *rp->n));
		memcpy(rp->n, rp->stack, sizeof rp->stack);
		rp->alloc *= 2;
	}
	GROW(rp->n, rp->nr + 1, rp->alloc);
	struct rnode *n = &rp->n[rp->nr];
	memset(n, 0, sizeof *n);
	n->op = op;
	n->left = l;
	n->right = r;
	return (int)rp->nr++;
}

static void fold_set(unsigned char *set)
{
	for (unsigned c = 'a'; c <= 'z'; c++)
		if (has_bit(set, c) || has_bit(set, c - 32)) {
			set_bit(set, c);
			set_bit(set, c - 32);
		}
}

/* \d \w \s and their negations into set; returns 0 if e is none of them. */
static int perl_class(int e, unsigned char *set)
{
	unsigned char s[32] = { 0 };
	int neg = isupper(e);

	switch (tolower(e)) {
	case 'd':
		for (unsigned c = '0'; c <= '9'; c++)
			set_bit(s, c);
		break;
	case 'w':
		for (unsigned c = 0; c < 256; c++)
			if (is_word((int)c))
				set_bit(s, c);
		break;
	case 's':
		for (const char *w = " \t\n\r\f\v"; *w; w++)
			set_bit(s, (unsigned char)*w);
		break;
	default:
		return 0;
	}
	for (int i = 0; i < 32; i++)
		set[i] |= (unsigned char)(neg ? ~s[i] : s[i]);
	return 1;
}

/* One escaped byte after '\' (not a class escape); -1 on error. */
static int escape_byte(struct rparse *rp)
{
	int e = (unsigned char)*rp->p++;

	switch (e) {
	case 't': return '\t';
	case 'n': return '\n';
	case 'r': return '\r';
	case 'f': return '\f';
	case 'e': return 27;
	case 'a': return 7;
	case 'x':
		if (rp->end - rp->p >= 2 && hexval(rp->p[0]) >= 0 &&
		    hexval(rp->p[1]) >= 0) {
			int v = hexval(rp->p[0]) * 16 + hexval(rp->p[1]);
			rp->p += 2;
			return v;
		}
		rp->err = "\\x needs two hex digits";
		return -1;
	}
	if (isalnum(e)) {
		rp->err = isdigit(e) ? "backreferences are not supported" :
			"unsupported escape";
		return -1;
	}
	return e;
}

static int parse_class(struct rparse *rp, unsigned char *set, int icase)
{
	int neg = 0, first = 1;

	if (rp->p < rp->end && *rp->p == '^') {
		neg = 1;
		rp->p++;
	}
	for (;;) {
		if (rp->p >= rp->end) {
			rp->err = "missing ]";
			return -1;
		}
		int c = (unsigned char)*rp->p;
		if (c == ']' && !first) {
			rp->p++;
			break;
		}
		first = 0;
		rp->p++;
		if (c == '[' && rp->p < rp->end && *rp->p == ':') {
			rp->err = "POSIX classes are not supported";
			return -1;
		}
		if (c == '\\') {
			if (rp->p >= rp->end) {
				rp->err = "trailing \\";
				return -1;
			}
			if (perl_class(*rp->p, set)) {
				rp->p++;
				continue;
			}
			if (*rp->p == 'b') {
				rp->p++;
				c = 8;
			} else if ((c = escape_byte(rp)) < 0)
				return -1;
		}
		if (rp->end - rp->p >= 2 && rp->p[0] == '-' && rp->p[1] != ']') {
			rp->p++;
			int hi = (unsigned char)*rp->p++;
			if (hi == '\\') {
				if (rp->p >= rp->end || (hi = escape_byte(rp)) < 0) {
					rp->err = rp->err ? rp->err : "bad range";
					return -1;
				}
			}
			if (hi < c) {
				rp->err = "bad class range";
				return -1;
			}
			for (int x = c; x <= hi; x++)
				set_bit(set, (unsigned)x);
		} else {
			set_bit(set, (unsigned)c);
		}
	}
	if (icase)
		fold_set(set);
	if (neg)
		for (int i = 0; i < 32; i++)
			set[i] = (unsigned char)~set[i];
	return 0;
}

static void skip_x(struct rparse *rp)
{
	while (rp->xflag && rp->p < rp->end) {
		if (is_space((unsigned char)*rp->p))
			rp->p++;
		else if (*rp->p == '#')
			while (rp->p < rp->end && *rp->p != '\n')
				rp->p++;
		else
			break;
	}
}

/* An atom other than a group (the pattern's loop takes those). */
static int parse_atom(struct rparse *rp, int icase)
{
	int c = (unsigned char)*rp->p++, n;

	switch (c) {
	case '[':
		if ((n = rnew(rp, R_CLASS, -1, -1)) < 0)
			return -1;
		return parse_class(rp, rp->n[n].set, icase) < 0 ? -1 : n;
	case '.':
		return rnew(rp, R_ANY, -1, -1);
	case '^':
		return rnew(rp, R_BOL, -1, -1);
	case '$':
		return rnew(rp, R_EOL, -1, -1);
	case '*': case '+': case '?':
		/* A '{' here starts no count (parse_repeat looked): literal. */
		rp->err = "quantifier without an operand";
		return -1;
	case '\\':
		if (rp->p >= rp->end) {
			rp->err = "trailing \\";
			return -1;
		}
		if (*rp->p == 'b' || *rp->p == 'B') {
			return rnew(rp, *rp->p++ == 'b' ? R_WORDB : R_NWORDB, -1, -1);
		}
		if (strchr("dDwWsS", *rp->p) && *rp->p) {
			if ((n = rnew(rp, R_CLASS, -1, -1)) < 0)
				return -1;
			perl_class(*rp->p++, rp->n[n].set);
			return n;
		}
		if ((c = escape_byte(rp)) < 0)
			return -1;
		break;
	}
	if ((n = rnew(rp, R_LIT, -1, -1)) < 0)
		return -1;
	set_bit(rp->n[n].set, (unsigned)c);
	rp->n[n].lit = (unsigned char)c;
	rp->n[n].icase = (unsigned char)(icase && isalpha(c));
	if (rp->n[n].icase)
		fold_set(rp->n[n].set);
	return n;
}

/* A deep copy of subtree n, for counted repetition. */
static int rcopy(struct rparse *rp, int n)
{
	if (n < 0)
		return -1;
	int l = rcopy(rp, rp->n[n].left), r = rcopy(rp, rp->n[n].right);
	if (rp->err)
		return -1;
	int m = rnew(rp, rp->n[n].op, l, r);
	if (m < 0)
		return -1;
	memcpy(rp->n[m].set, rp->n[n].set, sizeof rp->n[m].set);
	rp->n[m].lit = rp->n[n].lit;
	rp->n[m].icase = rp->n[n].icase;
	return m;
}

static int parse_count(struct rparse *rp, long *v)
{
	if (rp->p >= rp->end || !isdigit((unsigned char)*rp->p))
		return -1;
	*v = 0;
	while (rp->p < rp->end && isdigit((unsigned char)*rp->p)) {
		*v = *v * 10 + (*rp->p++ - '0');
		if (*v > 1000)
			return -1;
	}
	return 0;
}

/* x{lo,hi} (hi < 0: unbounded) as copies of x. */
static int repeat(struct rparse *rp, int x, long lo, long hi)
{
	int out = -1;

	for (long i = 0; i < lo; i++) {
		int c = i ? rcopy(rp, x) : x;
		out = out < 0 ? c : rnew(rp, R_CAT, out, c);
		if (rp->err)
			return -1;
	}
	if (hi < 0) {
		int s = rnew(rp, R_STAR, lo ? rcopy(rp, x) : x, -1);
		return out < 0 ? s : rnew(rp, R_CAT, out, s);
	}
	int tail = -1;
	for (long i = lo; i < hi; i++) {
		int c = (i || lo) ? rcopy(rp, x) : x;
		tail = rnew(rp, R_QUEST, tail < 0 ? c : rnew(rp, R_CAT, c, tail), -1);
		if (rp->err)
			return -1;
	}
	if (tail < 0)
		return out < 0 ? rnew(rp, R_EMPTY, -1, -1) : out;
	return out < 0 ? tail : rnew(rp, R_CAT, out, tail);
}

/* x with the quantifiers that follow it applied. */
static int quantify(struct rparse *rp, int x)
{
	while (x >= 0) {
		skip_x(rp);
		if (rp->p >= rp->end)
			break;
		int q = (unsigned char)*rp->p;
		long lo = 0, hi = -1;
		if (q == '{') {
			const char *save = rp->p++;
			if (rp->p < rp->end && *rp->p == ',' && rp->p + 1 < rp->end &&
			    isdigit((unsigned char)rp->p[1])) {
				lo = 0;         /* Perl 5.34+: {,n} is {0,n} */
			} else if (parse_count(rp, &lo) < 0) {
				rp->p = save;   /* Perl: a '{' that starts no count */
				break;
			}
			hi = lo;
			if (rp->p < rp->end && *rp->p == ',') {
				rp->p++;
				hi = -1;
				if (rp->p < rp->end && *rp->p != '}' &&
				    parse_count(rp, &hi) < 0) {
					rp->err = "bad {n,m}";
					return -1;
				}
			}
			if (rp->p >= rp->end || *rp->p != '}' || (hi >= 0 && hi < lo)) {
				rp->err = "bad {n,m}";
				return -1;
			}
			rp->p++;
		} else if (q == '*' || q == '+' || q == '?') {
			rp->p++;
		} else {
			break;
		}
		if (rp->p < rp->end && *rp->p == '+') {
			rp->err = "possessive quantifiers are not supported";
			return -1;
		}
		if (rp->p < rp->end && *rp->p == '?')
			rp->p++;        /* lazy: the same yes/no answer */
		if (q == '*')
			x = rnew(rp, R_STAR, x, -1);
		else if (q == '+')
			x = rnew(rp, R_PLUS, x, -1);
		else if (q == '?')
			x = rnew(rp, R_QUEST, x, -1);
		else
			x = repeat(rp, x, lo, hi);
	}
	return x;
}

/* A group being read: its alternatives so far, the one being read, and
 * whether (?i) is in force in it. */
struct rgroup {
	int alt, cat;           /* trees, or -1 when none yet */
	int icase;
	int look;               /* a look-around's LOOK_ flags, or 0 */
};

/* Ends the group's current alternative (an empty one is R_EMPTY) and
 * joins it to the others; the group's tree so far, or -1. */
static int close_alt(struct rparse *rp, struct rgroup *g)
{
	int cat = g->cat < 0 ? rnew(rp, R_EMPTY, -1, -1) : g->cat;

	g->cat = -1;
	if (cat < 0)
		return -1;
	return g->alt = g->alt < 0 ? cat : rnew(rp, R_ALT, g->alt, cat);
}

/* After a '(': "?:" or nothing opens a group (1), "?i:" one that ignores
 * case (*icase set, 1); "?i)" ignores case for the rest of the group it
 * stands in (*icase set, 0); "?<!" "?<=" "?!" "?=" open a look-around
 * (*look set, 1); any other "?" form is refused (-1). */
static int open_group(struct rparse *rp, int *icase, int *look)
{
	if (rp->p >= rp->end || *rp->p != '?')
		return 1;
	rp->p++;
	if (rp->p < rp->end && *rp->p == ':') {
		rp->p++;
		return 1;
	}
	int behind = rp->p < rp->end && *rp->p == '<';
	const char *q = rp->p + behind;
	if (q < rp->end && (*q == '!' || *q == '=')) {
		*look = LOOK_ON | (behind ? LOOK_BEHIND : 0) |
			(*q == '!' ? LOOK_NEG : 0);
		rp->p = q + 1;
		return 1;
	}
	if (rp->end - rp->p >= 2 && rp->p[0] == 'i' &&
	    (rp->p[1] == ')' || rp->p[1] == ':')) {
		*icase = 1;
		rp->p += 2;
		return rp->p[-1] == ':';
	}
	rp->err = "unsupported (? group";
	return -1;
}

/* How many bytes the run n matches (literals, classes, '.' in a row),
 * or -1 where it is no fixed run. */
static int look_len(const struct rparse *rp, int n)
{
	const struct rnode *x = &rp->n[n];

	if (x->op == R_LIT || x->op == R_CLASS || x->op == R_ANY)
		return 1;
	if (x->op == R_EMPTY)
		return 0;
	if (x->op != R_CAT)
		return -1;
	int l = look_len(rp, x->left), r = look_len(rp, x->right);
	return l < 0 || r < 0 ? -1 : l + r;
}

/* A look-around's body as R_LOOK nodes, one per alternative: a negative
 * one holds where all of them do (R_CAT), a positive one where any does
 * (R_ALT).  -1 with rp->err where an alternative is no fixed run. */
static int look_node(struct rparse *rp, int body, int flags)
{
	if (body < 0)
		return -1;
	if (rp->n[body].op == R_ALT) {
		int l = look_node(rp, rp->n[body].left, flags);
		int r = l < 0 ? -1 : look_node(rp, rp->n[body].right, flags);
		return r < 0 ? -1 : rnew(rp, flags & LOOK_NEG ? R_CAT : R_ALT, l, r);
	}
	if (look_len(rp, body) < 0) {
		rp->err = "look-around that is not a fixed run of bytes";
		return -1;
	}
	int n = rnew(rp, R_LOOK, body, -1);
	if (n >= 0)
		rp->n[n].lit = (unsigned char)flags;
	return n;
}

/*
 * The whole pattern.  Grammar: alt := cat ('|' cat)*; cat := (atom
 * quantifier*)*; atom := '(' alt ')' | a byte, class or escape.  Open
 * groups are kept on a stack of their own rather than by recursion, so no
 * nesting can exhaust ours.  Returns the tree's root, or -1 with rp->err.
 */
static int parse_pattern(struct rparse *rp)
{
	size_t depth = 0, alloc = 0;
	struct rgroup *g = NULL;
	int root = -1;

	GROW(g, 1, alloc);
	g[0] = (struct rgroup){ -1, -1, 0, 0 };
	while (!rp->err) {
		skip_x(rp);
		if (rp->p >= rp->end) {
			if (depth)
				rp->err = "missing )";
			else
				root = close_alt(rp, &g[0]);
			break;
		}
		int x, c = (unsigned char)*rp->p;
		if (c == '|') {
			rp->p++;
			close_alt(rp, &g[depth]);
			continue;
		}
		if (c == ')') {
			if (!depth) {
				rp->err = "unmatched )";
				break;
			}
			rp->p++;
			x = close_alt(rp, &g[depth--]);
			if (g[depth + 1].look)
				x = look_node(rp, x, g[depth + 1].look);
		} else if (c == '(') {
			int icase = g[depth].icase, look = 0;
			rp->p++;
			int opens = open_group(rp, &icase, &look);
			if (opens > 0) {
				GROW(g, depth + 2, alloc);
				g[++depth] = (struct rgroup){ -1, -1, icase, look };
				continue;
			}
			g[depth].icase = icase;
			x = opens < 0 ? -1 : rnew(rp, R_EMPTY, -1, -1);
		} else {
			x = parse_atom(rp, g[depth].icase);
		}
		if ((x = quantify(rp, x)) < 0)
			break;
		struct rgroup *cur = &g[depth];
		cur->cat = cur->cat < 0 ? x : rnew(rp, R_CAT, cur->cat, x);
	}
	free(g);
	return rp->err ? -1 : root;
}

static size_t rcount(const struct rparse *rp, int n, size_t *ncls)
{
	const struct rnode *x = &rp->n[n];

	switch (x->op) {
	case R_LIT: case R_CLASS:
		(*ncls)++;
		return 1;
	case R_CAT:
		return rcount(rp, x->left, ncls) + rcount(rp, x->right, ncls);
	case R_ALT:
		return 2 + rcount(rp, x->left, ncls) + rcount(rp, x->right, ncls);
	case R_STAR:
		return 2 + rcount(rp, x->left, ncls);
	case R_PLUS: case R_QUEST:
		return 1 + rcount(rp, x->left, ncls);
	case R_LOOK:
		*ncls += (size_t)look_len(rp, x->left);
		return 1;
	case R_EMPTY:
		return 0;
	default:
		return 1;
	}
}

/* The classes of look-around run n, in order, onto the class table. */
static void look_rows(const struct rparse *rp, int n, struct regex *re)
{
	const struct rnode *x = &rp->n[n];
	unsigned char *row = re->cls[re->ncls];

	if (x->op == R_CAT) {
		look_rows(rp, x->left, re);
		look_rows(rp, x->right, re);
	} else if (x->op == R_ANY) {
		memset(row, 0xff, 32);
		row['\n' >> 3] &= (unsigned char)~(1u << ('\n' & 7));
		re->ncls++;
	} else if (x->op != R_EMPTY) {
		memcpy(row, x->set, 32);
		re->ncls++;
	}
}

static void remit(const struct rparse *rp, int n, struct regex *re)
{
	const struct rnode *x = &rp->n[n];
	struct rinst *pc = &re->prog[re->ninst], *p;
	size_t at = re->ninst;

	switch (x->op) {
	case R_LIT: case R_CLASS:
		pc->op = I_CLASS;
		pc->cls = (unsigned)re->ncls;
		memcpy(re->cls[re->ncls++], x->set, 32);
		re->ninst++;
		break;
	case R_ANY: case R_BOL: case R_EOL: case R_WORDB: case R_NWORDB:
		/* the four assertions in the same order in both enums */
		pc->op = x->op == R_ANY ? I_ANY : I_BOL + (x->op - R_BOL);
		re->ninst++;
		break;
	case R_LOOK:
		pc->op = I_LOOK;
		pc->cls = (unsigned)re->ncls;
		look_rows(rp, x->left, re);
		pc->x = (unsigned)re->ncls - pc->cls;
		pc->y = x->lit;
		re->ninst++;
		break;
	case R_EMPTY: break;
	case R_CAT:
		remit(rp, x->left, re);
		remit(rp, x->right, re);
		break;
	case R_ALT: case R_STAR: case R_QUEST:
		/* split L1, L2; L1: left; [jmp L3 (alt) or the split (star)];
		 * L2: [right (alt)]; L3: */
		re->ninst++;
		pc->op = I_SPLIT;
		pc->x = (unsigned)re->ninst;
		remit(rp, x->left, re);
		p = &re->prog[re->ninst];
		if (x->op != R_QUEST) {
			re->ninst++;
			p->op = I_JMP;
			p->x = (unsigned)at;
		}
		re->prog[at].y = (unsigned)re->ninst;
		if (x->op == R_ALT) {
			remit(rp, x->right, re);
			p->x = (unsigned)re->ninst;
		}
		break;
	case R_PLUS:
		remit(rp, x->left, re);
		p = &re->prog[re->ninst++];
		p->op = I_SPLIT;
		p->x = (unsigned)at;
		p->y = (unsigned)re->ninst;
		break;
	}
}

/*
 * The prefilter: literals one of which every match must contain, or none
 * (nlits == 0: no filter).  A run of literal nodes in a concatenation is a
 * candidate; an alternation needs one from each side.
 */
struct litset {
	struct sbuf s[16];
	unsigned char icase[16];
	size_t n;
	int none;
};

static void litset_release(struct litset *ls)
{
	for (size_t i = 0; i < 16; i++)
		sb_release(&ls->s[i]);
	ls->n = 0;
}

static size_t litset_min(const struct litset *ls)
{
	size_t m = SIZE_MAX;

	for (size_t i = 0; i < ls->n; i++)
		if (ls->s[i].len < m)
			m = ls->s[i].len;
	return ls->none || !ls->n ? 0 : m;
}

static void litset_init(struct litset *ls)
{
	for (size_t i = 0; i < 16; i++)
		sb_init(&ls->s[i]);
	ls->n = 0;
	ls->none = 1;
}

/* Keeps whichever of a and b filters better in a; frees the other. */
static void litset_best(struct litset *a, struct litset *b)
{
	if (litset_min(b) > litset_min(a)) {
		litset_release(a);
		*a = *b;
		litset_init(b);
	} else {
		litset_release(b);
	}
}

/* A run of literals as a one-string candidate for out; empties run. */
static void offer_run(struct litset *out, struct sbuf *run, int icase)
{
	struct litset a;

	if (!run->len)
		return;
	litset_init(&a);
	a.none = 0;
	a.n = 1;
	sb_add(&a.s[0], run->buf, run->len);
	a.icase[0] = (unsigned char)icase;
	litset_best(out, &a);
	sb_setlen(run, 0);
}

static void rlits(const struct rparse *rp, int n, struct litset *out, int depth)
{
	const struct rnode *x = &rp->n[n];
	struct litset a, b;

	litset_init(out);
	/* The prefilter is optional: a deep tree just goes without one. */
	if (depth > 64)
		return;
	if (x->op == R_PLUS) {
		rlits(rp, x->left, out, depth + 1);
	} else if (x->op == R_ALT) {
		rlits(rp, x->left, &a, depth + 1);
		rlits(rp, x->right, &b, depth + 1);
		if (!a.none && !b.none && a.n + b.n <= 16) {
			*out = a;
			for (size_t i = 0; i < b.n; i++) {
				out->s[out->n] = b.s[i];
				out->icase[out->n++] = b.icase[i];
				sb_init(&b.s[i]);
			}
			out->none = 0;
			litset_release(&b);
			return;
		}
		litset_release(&a);
		litset_release(&b);
	} else if (x->op == R_CAT) {
		/* Flatten the left-leaning chain, then scan for literal runs. */
		int items[256];
		size_t ni = 0;
		int m = n;
		while (rp->n[m].op == R_CAT && ni < 255) {
			items[ni++] = rp->n[m].right;
			m = rp->n[m].left;
		}
		items[ni++] = m;
		struct sbuf run = SBUF_INIT;
		int run_icase = 0;
		for (size_t k = ni; k-- > 0;) {
			const struct rnode *it = &rp->n[items[k]];
			if (it->op == R_LIT && (!run.len || it->icase == run_icase)) {
				run_icase = it->icase;
				sb_addc(&run, it->icase ? tolower(it->lit) : it->lit);
			} else {
				offer_run(out, &run, run_icase);
				if (it->op == R_LIT) {
					run_icase = it->icase;
					sb_addc(&run, it->icase ? tolower(it->lit) : it->lit);
				} else {
					rlits(rp, items[k], &a, depth + 1);
					litset_best(out, &a);
				}
			}
		}
		offer_run(out, &run, run_icase);
		sb_release(&run);
	} else if (x->op == R_LIT) {
		out->none = 0;
		out->n = 1;
		sb_addc(&out->s[0], x->icase ? tolower(x->lit) : x->lit);
		out->icase[0] = x->icase;
	}
}

void re_free(struct regex *re)
{
	if (!re)
		return;
	for (size_t i = 0; i < re->nlits; i++)
		free(re->lits[i]);
	free(re->lits);
	free(re->lit_icase);
	free(re);
}

/* One allocation: the struct, the program of ninst instructions, the
 * VM's marks and two thread lists, then the class table of ncls rows
 * (32 bytes each, so aligned). */
static struct regex *re_alloc(size_t ninst, size_t ncls)
{
	size_t head = (sizeof(struct regex) + 15) / 16 * 16;
	size_t progsz = (xmul(ninst, sizeof(struct rinst)) + 15) / 16 * 16;
	size_t scratch = (xmul(xmul(ninst, 3), sizeof(unsigned)) + 15) / 16 * 16;
	char *block = xcalloc(1, xadd(xadd(head, progsz),
				      xadd(scratch, xmul(ncls + 1, 32))));
	struct regex *re = (struct regex *)(void *)block;

	re->prog = (struct rinst *)(void *)(block + head);
	re->mark = (unsigned *)(void *)(block + head + progsz);
	re->list[0] = re->mark + ninst;
	re->list[1] = re->mark + 2 * ninst;
	re->cls = (unsigned char (*)[32])(void *)(block + head + progsz + scratch);
	return re;
}

/* Whether no match of re's program can hold a '\n': then a search may
 * go line by line. */
static int re_one_line(const struct regex *re)
{
	for (size_t i = 0; i < re->ninst; i++) {
		const struct rinst *in = &re->prog[i];
		if (in->op == I_BOL || in->op == I_EOL ||
		    (in->op == I_CLASS && has_bit(re->cls[in->cls], '\n')))
			return 0;
		/* a look at a '\n' would see where a line's search ends */
		for (size_t k = 0; in->op == I_LOOK && k < in->x; k++)
			if (has_bit(re->cls[in->cls + k], '\n'))
				return 0;
	}
	return 1;
}

/* The prefilter's literals of the tree at root into re, where every
 * match holds one of them and each is two bytes or more. */
static void re_prefilter(struct regex *re, const struct rparse *rp, int root)
{
	struct litset ls;

	rlits(rp, root, &ls, 0);
	if (!ls.none && ls.n && litset_min(&ls) >= 2) {
		re->lits = xcalloc(ls.n, sizeof *re->lits);
		re->lit_icase = xcalloc(ls.n, 1);
		for (size_t i = 0; i < ls.n; i++) {
			re->lits[i] = sb_detach(&ls.s[i], NULL);
			re->lit_icase[i] = ls.icase[i];
		}
		re->nlits = ls.n;
	}
	litset_release(&ls);
}

struct regex *re_compile(const char *pat, size_t len, int xflag,
			 struct sbuf *err)
{
	struct rparse rp;       /* its stack left as it is: no pattern of a
				 * MAINTAINERS line pays to clear it */
	struct regex *re = NULL;

	rp.p = rp.pat = pat;
	rp.end = pat + len;
	rp.xflag = xflag;
	rp.n = rp.stack;
	rp.nr = 0;
	rp.alloc = sizeof rp.stack / sizeof *rp.stack;
	rp.err = NULL;
	if (len > RE_MAX_LEN) {
		sb_addf(err, "pattern longer than %d bytes", RE_MAX_LEN);
		return NULL;
	}
	int root = parse_pattern(&rp);
	size_t ncls = 0, ninst = root < 0 || rp.err ? 0 :
			      rcount(&rp, root, &ncls) + 1;
	if (root < 0 || rp.err)
		sb_addf(err, "%s at offset %zu", rp.err ? rp.err : "bad pattern",
			(size_t)(rp.p - pat));
	else if (ninst > RE_MAX_INST)
		sb_addf(err, "pattern too large (%zu instructions)", ninst);
	else {
		re = re_alloc(ninst, ncls);
		remit(&rp, root, re);
		re->prog[re->ninst++].op = I_MATCH;
		re->one_line = re_one_line(re);
		re_prefilter(re, &rp, root);
	}
	if (rp.n != rp.stack)
		free(rp.n);
	return re;
}

void re_dump(const struct regex *re, struct sbuf *out)
{
	static const char *const names[] = { "class", "any", "split", "jmp",
		"bol", "eol", "wordb", "nwordb", "look", "match" };

	for (size_t i = 0; i < re->ninst; i++) {
		const struct rinst *in = &re->prog[i];
		sb_addf(out, "%3zu. %s", i, names[in->op]);
		if (in->op == I_SPLIT)
			sb_addf(out, " %u, %u", in->x, in->y);
		else if (in->op == I_JMP)
			sb_addf(out, " %u", in->x);
		else if (in->op == I_CLASS) {
			sb_adds(out, " [");
			for (unsigned c = 0; c < 256; c++)
				if (has_bit(re->cls[in->cls], c))
					sb_addf(out, isgraph((int)c) ? "%c" : "\\x%02x", c);
			sb_addc(out, ']');
		}
		sb_addc(out, '\n');
	}
	for (size_t i = 0; i < re->nlits; i++)
		sb_addf(out, "prefilter%s: %s\n", re->lit_icase[i] ? " (icase)" : "",
			 re->lits[i]);
}

static int contains(const char *s, size_t n, const char *lit, int icase)
{
	size_t m = strlen(lit);

	if (!icase)
		return find_bytes(s, n, lit, m) != NULL;
	for (size_t i = 0; i + m <= n; i++) {
		size_t j;
		for (j = 0; j < m && tolower((unsigned char)s[i + j]) ==
				      (unsigned char)lit[j]; j++)
			;
		if (j == m)
			return 1;
	}
	return 0;
}

/* Whether look-around in holds at pos of s[0..len). */
static int look_holds(const struct regex *re, const struct rinst *in,
		      const char *s, size_t len, size_t pos)
{
	size_t k = in->x, at = in->y & LOOK_BEHIND ? pos - k : pos;
	int hit = in->y & LOOK_BEHIND ? pos >= k : len - pos >= k;

	for (size_t i = 0; hit && i < k; i++)
		hit = has_bit(re->cls[in->cls + i], (unsigned char)s[at + i]);
	return hit != !!(in->y & LOOK_NEG);
}

/* Adds pc and what it leads to without consuming input. */
static int addthread(struct regex *re, unsigned *list, size_t *n, unsigned pc,
		     const char *s, size_t len, size_t pos)
{
	unsigned stack[64];
	size_t sp = 0;

	stack[sp++] = pc;
	while (sp) {
		pc = stack[--sp];
		if (re->mark[pc] == re->gen)
			continue;
		re->mark[pc] = re->gen;
		const struct rinst *in = &re->prog[pc];
		int prev = pos ? (unsigned char)s[pos - 1] : -1;
		int cur = pos < len ? (unsigned char)s[pos] : -1;
		switch (in->op) {
		case I_JMP:
			stack[sp++] = in->x;
			break;
		case I_SPLIT:
			/* A pc may be pushed more than once (the mark is looked
			 * at when it is popped), so a full stack follows one
			 * branch by recursion; the marks bound that depth by
			 * the program's size. */
			if (sp + 2 > sizeof stack / sizeof *stack) {
				if (addthread(re, list, n, in->y, s, len, pos))
					return 1;
			} else {
				stack[sp++] = in->y;
			}
			stack[sp++] = in->x;
			break;
		case I_BOL:
			if (!pos)
				stack[sp++] = pc + 1;
			break;
		case I_EOL:
			if (pos == len || (pos + 1 == len && cur == '\n'))
				stack[sp++] = pc + 1;
			break;
		case I_WORDB: case I_NWORDB:
			if ((is_word(prev) != is_word(cur)) == (in->op == I_WORDB))
				stack[sp++] = pc + 1;
			break;
		case I_LOOK:
			if (look_holds(re, in, s, len, pos))
				stack[sp++] = pc + 1;
			break;
		case I_MATCH:
			return 1;
		default:
			list[(*n)++] = pc;
		}
	}
	return 0;
}

/* A new generation of marks; on wrap-around the marks are cleared. */
static void next_gen(struct regex *re)
{
	if (++re->gen == 0) {
		memset(re->mark, 0, re->ninst * sizeof *re->mark);
		re->gen = 1;
	}
}

/* The Pike VM itself: s[start..len) against the program, s[0..start)
 * context for \b. */
static int vm_search(struct regex *re, const char *s, size_t len,
		     size_t start)
{
	size_t nc = 0, nn = 0;
	unsigned *cl = re->list[0], *nl = re->list[1];

	/* One generation of marks per position, as in re1: the threads that
	 * step onto pos+1 and the new thread the unanchored search starts
	 * there share it, so none is added twice. */
	next_gen(re);
	if (addthread(re, cl, &nc, 0, s, len, start))
		return 1;
	for (size_t pos = start; pos < len; pos++) {
		unsigned c = (unsigned char)s[pos];
		next_gen(re);
		nn = 0;
		for (size_t i = 0; i < nc; i++) {
			const struct rinst *in = &re->prog[cl[i]];
			int ok = in->op == I_ANY ? c != '\n' :
				 has_bit(re->cls[in->cls], c);
			if (ok && addthread(re, nl, &nn, cl[i] + 1, s, len, pos + 1))
				return 1;
		}
		if (addthread(re, nl, &nn, 0, s, len, pos + 1))
			return 1;
		unsigned *t = cl;
		cl = nl;
		nl = t;
		nc = nn;
	}
	return 0;
}

int re_search(struct regex *re, const char *s, size_t len, size_t start)
{
	if (re->nlits) {
		size_t i;
		for (i = 0; i < re->nlits; i++)
			if (contains(s + start, len - start, re->lits[i],
				     re->lit_icase[i]))
				break;
		if (i == re->nlits)
			return 0;
	}
	return vm_search(re, s, len, start);
}

/* ASCII case folding, as Perl's /i on bytes without a locale. */
static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* The first place in h[0..n) that holds lit (lit lower case where icase),
 * or NULL.  memchr finds the candidates for both cases of its first byte. */
static const char *find_lit(const char *h, size_t n, const char *lit,
			    int icase)
{
	size_t m = strlen(lit);

	if (!icase)
		return find_bytes(h, n, lit, m);
	unsigned char lo = (unsigned char)lit[0];
	unsigned char up = lo >= 'a' && lo <= 'z' ? (unsigned char)(lo - 32) : lo;
	const char *end = h + n, *a = NULL, *b = NULL;
	int want_a = 1, want_b = up != lo;   /* that case can still occur */

	for (const char *p = h; m && (size_t)(end - p) >= m;) {
		size_t room = (size_t)(end - p) - m + 1;
		if (want_a && (!a || a < p) && !(a = memchr(p, lo, room)))
			want_a = 0;
		if (want_b && (!b || b < p) && !(b = memchr(p, up, room)))
			want_b = 0;
		const char *q = want_a && want_b ? (a < b ? a : b) :
				want_a ? a : want_b ? b : NULL;
		if (!q)
			return NULL;
		size_t j = 1;
		while (j < m && fold((unsigned char)q[j]) == (unsigned char)lit[j])
			j++;
		if (j == m)
			return q;
		p = q + 1;
	}
	return m ? NULL : h;
}

/* Runs the program on what holds text[at] in line k: the whole line, or
 * for a one-line program only the physical line around it (a match
 * through there lies inside it; the bytes before stay context for \b).
 * Sets *next to where the next literal is worth looking for. */
static int search_at(struct regex *re, const char *text,
		     const struct kwline *k, size_t at, size_t *next)
{
	size_t from = at, to = at, lo = k->off + k->skip, hi = k->off + k->len;

	if (!re->one_line) {
		*next = hi;
		return vm_search(re, text + k->off, k->len, k->skip);
	}
	while (from > lo && text[from - 1] != '\n')
		from--;
	while (to < hi && text[to] != '\n')
		to++;
	*next = to;
	return vm_search(re, text + k->off, to - k->off, from - k->off);
}

int re_search_lines(struct regex *re, const char *text, size_t tlen,
		    const struct kwline *line, size_t nline)
{
	if (!re->nlits) {
		for (size_t l = 0; l < nline; l++)
			if (vm_search(re, text + line[l].off, line[l].len,
				      line[l].skip))
				return 1;
		return 0;
	}
	/* Only a line that holds one of the literals can match: find them
	 * in the whole text, and run the program on their lines alone. */
	for (size_t i = 0; i < re->nlits; i++) {
		size_t m = strlen(re->lits[i]), l = 0, next;
		const char *p = text, *end = text + tlen, *q;
		while ((q = find_lit(p, (size_t)(end - p), re->lits[i],
				     re->lit_icase[i]))) {
			size_t at = (size_t)(q - text);
			while (l < nline && line[l].off + line[l].len < at + m)
				l++;
			if (l == nline)
				break;
			const struct kwline *k = &line[l];
			if (at < k->off + k->skip) {
				p = q + 1;      /* between lines, or in a skip */
				continue;
			}
			if (search_at(re, text, k, at, &next))
				return 1;
			p = text + (next > at ? next : at + 1);
		}
	}
	return 0;
}

/*
 * The longest run of bytes every match of pat must contain, read from the
 * source without compiling it, so a caller can skip a pattern whose run its
 * subject lacks.  Conservative: only bytes outside groups count, in a
 * pattern with no top-level '|'; a byte a quantifier follows is optional;
 * escapes and classes end a run; (?i) and the other (?...) forms but (?:,
 * and escapes that take arguments, give no run at all.
 */
size_t re_literal(const char *pat, size_t len, int xflag, size_t *at)
{
	size_t best = 0, run = 0, start = 0;
	int depth = 0;

	*at = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)pat[i];
		int lit = 0;
		if (c == '\\') {
			unsigned char e = i + 1 < len ? (unsigned char)pat[i + 1] : 0;
			if (!e || (isalnum(e) && !strchr("bBsSwWdDntrfe", e)))
				return 0;
			i++;
		} else if (c == '(') {
			if (i + 1 < len && pat[i + 1] == '?' &&
			    (i + 2 >= len || pat[i + 2] != ':'))
				return 0;
			depth++;
		} else if (c == ')') {
			if (!depth--)
				return 0;
		} else if (c == '|') {
			if (!depth)
				return 0;
		} else if (c == '[') {
			size_t j = i + 1;
			if (j < len && pat[j] == '^')
				j++;
			if (j < len && pat[j] == ']')
				j++;
			for (; j < len && pat[j] != ']'; j++)
				if (pat[j] == '\\')
					j++;
			if (j >= len)
				return 0;
			i = j;
		} else if (c == '*' || c == '?' || c == '{') {
			if (run)
				run--;          /* the byte before is optional */
			if (c == '{') {
				const char *close = memchr(pat + i, '}', len - i);
				if (!close)
					return 0;
				i = (size_t)(close - pat);
			}
		} else if (xflag && c == '#') {
			break;                  /* a comment to the end */
		} else {
			lit = !strchr(".^$+}", c) && !(xflag && is_space(c)) && c;
		}
		if (lit && !depth) {
			if (!run)
				start = i;
			run++;
		} else {
			if (run > best) {
				best = run;
				*at = start;
			}
			run = 0;
		}
	}
	if (run > best) {
		best = run;
		*at = start;
	}
	return best;
}

/* ---- MAINTAINERS ---------------------------------------------------------------
 * The file is not parsed into a table: one pass over its text answers all
 * the queries of a call at once (a patch, or every patch of a cover
 * letter) and keeps only the sections that some file or keyword hits.
 * The text is mapped, not copied, and never written to.
 *
 * The pass numbers lines as get_maintainer.pl's @typevalue does: every
 * "X: value" line (X a capital letter) and every other non-blank,
 * non-comment line (a title) gets the next index.  A section is a run of
 * tag lines; its key (the script's $tvi) is the index of its first tag
 * line, and its title the line before it (or, when the file starts with a
 * tag line, that line itself, which add_categories() skips as the script
 * does).  Keyword sections are added in the string order of their K:
 * line's index, as the script sorts them.
 *
 * F:/X: are globs that the script turns into regexes ('.' literal, '*' any
 * run, '?' any byte, [..] a class) matched at the start of the path; without
 * a trailing '/' the path must have as many '/' as the pattern, and a
 * pattern naming a directory of the tree gets the '/' added (asked only
 * once a path matched).  A pattern is tried only on the paths that start
 * with its literal prefix: a binary search in the sorted paths.  N: is a
 * regex searched in the path, K: in the patch, both with /x.  Each is
 * compiled only when the literal every match must contain (re_literal())
 * occurs in what it is matched against: so a call compiles a handful of
 * the file's patterns, and one we cannot run is an error naming its line
 * whenever it could change an answer.
 */

struct maintainers {
	const char *text;         /* the file, len bytes: mapped, or own.buf */
	size_t len;
	void *map;                /* the mapping, or NULL */
	struct sbuf own;
	char *top;                /* directory for -d and in-file lookups */
	struct sbuf mm;           /* .mailmap: see mailmap_parse() */
	struct mm_line *mml;
	size_t nmml, amml;
	uint32_t *mmhead;         /* chains by address hash, nmmhead a 2^k */
	size_t nmmhead;
	struct sbuf ignore;       /* .get_maintainer.ignore, NUL-separated */
	struct memo *canon;       /* deduplicate_email()'s pure steps */
	struct memo *lists;       /* names_a_list()'s set */
	/* With --find-maintainer-files the text is several files: part[i]
	 * (its path below top) starts at line part_line[i] (ascending). */
	char **part;
	size_t *part_line, nparts;
	/* The script's @penguin_chief (Linus; U-Boot's own script names
	 * Tom Rini): "Name", then "Name <address>", for each. */
	char **chief;
	size_t nchief;
};

/* A section some query hits: offsets into the text. */
struct msec {
	size_t key;             /* the script's $tvi */
	size_t title, tlen;     /* its title line */
	size_t body, end;       /* its tag lines (and blank ones between) */
	size_t cats;            /* where add_categories() starts: body, or
				   after the first line when that is the title */
	int tag_title;          /* the title is the first tag line */
};

/* A file's hit on a section: the depth of the last F:/N: that matched. */
struct fhit {
	size_t file, sec;       /* into scan.file and scan.sec */
	int depth;
	int deep;               /* an F: as deep as the file matched */
	int dir;                /* an F: naming a directory matched: "dir/",
				 * no glob (the section owns the file's
				 * directory, not a file or a name in it) */
};

/* A pattern line that matched a file, while its section is read. */
struct fmatch {
	size_t file;
	int depth;
	char type;
	int dir;
};

struct khit {
	size_t query, sec, idx; /* idx: the K: line's index */
};

struct scan {
	struct maintainers *m;
	const struct cc_query *q;
	size_t nq;
	int keywords;
	char **file;            /* every query's files, sorted, unique */
	size_t *flen;           /* of each, its length */
	size_t *fplain;         /* of each, the length without glob bytes */
	size_t nfile;
	size_t common;          /* the length of the start they all share */
	struct msec *sec;
	size_t nsec, asec;
	struct fhit *fh;
	size_t nfh, afh;
	struct fmatch *fm;
	size_t nfm, afm;
	struct khit *kh;
	size_t nkh, akh;
	struct msec cur;        /* the section being read */
	int cur_kept;           /* it is sec[nsec - 1] */
	struct sbuf value;      /* the tag value being tried, NUL-terminated */
	/* The K: lines' literals, found before the pass (NULL: not looked
	 * for); khas[q * kx->nk + k], whether query q's keyword text holds
	 * a literal of line k. */
	struct kwindex *kx;
	unsigned char *khas;
	size_t *added;          /* for answer(): see struct query */
	/* With --git or --git-fallback: per file, its git log, read before
	 * the answers (hist_ok[i]: 1 git gave it, 0 git failed, 2 it was
	 * not started; NULL: none was read). */
	struct sbuf *hist;
	char *hist_ok;
};

static int is_tag(const char *line, size_t len)
{
	return len >= 2 && line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':';
}

/* The script skips /^\s*$/ and /^\s*#/ lines without an index. */
static int blank_or_comment(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && is_space((unsigned char)p[i]))
		i++;
	return i == n || p[i] == '#';
}

/* The value of a tag line: after "X:" and blanks. */
static size_t tag_value(const char *p, size_t n)
{
	size_t i = 2;

	while (i < n && is_space((unsigned char)p[i]))
		i++;
	return i;
}

/* The index in p[0..n) of the first byte c or NUL (with *nul set for a
 * NUL), or n: eight bytes at a time, as the lines searched are short and
 * the C library's memchr() is slow to start.  The first flagged byte of a
 * word is found by arithmetic on little-endian machines, byte by byte
 * elsewhere. */
static size_t span_until(const char *p, size_t n, unsigned char c, int *nul)
{
	const uint64_t ones = 0x0101010101010101u, high = ones << 7,
		       cs = ones * c;
	const uint16_t probe = 1;
	unsigned char little;
	size_t i = 0;

	memcpy(&little, &probe, 1);
	for (; n - i >= 8; i += 8) {
		uint64_t w, x, hit;
		memcpy(&w, p + i, 8);
		x = w ^ cs;
		hit = ((x - ones) & ~x & high) | ((w - ones) & ~w & high);
		if (!hit)
			continue;
		if (!little)
			break;
		/* the lowest flagged byte is exact; its index, 0..7 */
		i += (size_t)((((hit & -hit) >> 7) * 0x0001020304050607u) >> 56);
		*nul = !p[i];
		return i;
	}
	for (; i < n && (unsigned char)p[i] != c; i++)
		if (!p[i]) {
			*nul = 1;
			break;
		}
	return i;
}

/* The script's F:/X: conversion: '.' literal, '*' to ".*", '?' to ".". */
static void perl_glob(struct sbuf *out, const char *value)
{
	for (const char *p = value; *p; p++)
		sb_adds(out, *p == '.' ? "\\." : *p == '*' ? ".*" :
			*p == '?' ? "." : (char[2]){ *p, 0 });
}

/* The script's $value_pd: slashes, one more without a trailing '/'; -1
 * for a pattern that starts with '*'. */
static int glob_depth(const char *v, size_t n)
{
	int slashes = 0;

	for (size_t i = 0; i < n; i++)
		slashes += v[i] == '/';
	if (n && v[0] == '*')
		return -1;
	return slashes + (!n || v[n - 1] != '/');
}

static uint32_t fnv_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}

#define FNV_INIT 2166136261u

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = FNV_INIT;

	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

/*
 * A memo of a pure function of strings: key to value, each a run of bytes
 * of its own length (NULs allowed).  Open addressing in a table of 2^k
 * slots, never more than half full.  The engine asks the same addresses
 * through .mailmap and its formats once per file of a tree-wide plan;
 * each is worked out once.
 */
struct memo_ent {
	char *key, *val;          /* NULL key: the slot is free */
	size_t klen, vlen;
	uint32_t h;
};

struct memo {
	struct memo_ent *v;
	size_t cap, n;
};

static void memo_free(struct memo *mo)
{
	for (size_t i = 0; mo && i < mo->cap; i++) {
		free(mo->v[i].key);
		free(mo->v[i].val);
	}
	if (mo)
		free(mo->v);
	free(mo);
}

/* The slot of key k (hash h), or the free one where it would go. */
static struct memo_ent *memo_slot(const struct memo *mo, const char *k,
				  size_t kl, uint32_t h)
{
	size_t i = h & (mo->cap - 1);

	while (mo->v[i].key && (mo->v[i].h != h || mo->v[i].klen != kl ||
				memcmp(mo->v[i].key, k, kl)))
		i = (i + 1) & (mo->cap - 1);
	return &mo->v[i];
}

/* The value of key k, or NULL where none was put. */
static const struct memo_ent *memo_get(const struct memo *mo, const char *k,
				       size_t kl)
{
	if (!mo || !mo->cap)
		return NULL;
	const struct memo_ent *e = memo_slot(mo, k, kl, hash_bytes(k, kl));
	return e->key ? e : NULL;
}

/* Puts k's value v, where k has none yet; *mop is made on first use. */
static void memo_put(struct memo **mop, const char *k, size_t kl,
		     const char *v, size_t vl)
{
	uint32_t h = hash_bytes(k, kl);

	if (!*mop)
		*mop = xcalloc(1, sizeof **mop);
	struct memo *mo = *mop;
	if (2 * (mo->n + 1) > mo->cap) {
		struct memo old = *mo;
		mo->cap = old.cap ? 2 * old.cap : 16;
		mo->v = xcalloc(mo->cap, sizeof *mo->v);
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].key)
				*memo_slot(mo, old.v[i].key, old.v[i].klen,
					   old.v[i].h) = old.v[i];
		free(old.v);
	}
	struct memo_ent *e = memo_slot(mo, k, kl, h);
	if (e->key)
		return;
	*e = (struct memo_ent){ xmalloc(kl + 1), xmalloc(vl + 1), kl, vl, h };
	memcpy(e->key, k, kl);
	e->key[kl] = '\0';
	memcpy(e->val, v, vl);
	e->val[vl] = '\0';
	mo->n++;
}

void maintainers_free(struct maintainers *m)
{
	if (!m)
		return;
	if (m->map)
		munmap(m->map, m->len);
	sb_release(&m->own);
	sb_release(&m->mm);
	sb_release(&m->ignore);
	free(m->mml);
	free(m->mmhead);
	free(m->top);
	memo_free(m->canon);
	memo_free(m->lists);
	free_strings(m->part, m->nparts);
	free(m->part_line);
	free_strings(m->chief, 2 * m->nchief);
	free(m);
}

static struct maintainers *maintainers_new(const char *top)
{
	struct maintainers *m = xcalloc(1, sizeof *m);

	sb_init(&m->own);
	sb_init(&m->mm);
	sb_init(&m->ignore);
	m->text = m->own.buf;
	m->top = xstrdup(top ? top : ".");
	m->chief = xcalloc(2, sizeof *m->chief);
	m->chief[0] = xstrdup("Linus Torvalds");
	m->chief[1] = xstrdup("Linus Torvalds <torvalds@linux-foundation.org>");
	m->nchief = 1;
	return m;
}

struct maintainers *maintainers_parse(const char *buf, size_t len,
				      const char *top)
{
	struct sbuf text = SBUF_INIT;

	sb_add(&text, buf, len);
	return maintainers_take(&text, top);
}

struct maintainers *maintainers_take(struct sbuf *text, const char *top)
{
	struct maintainers *m = maintainers_new(top);

	m->own = *text;
	sb_init(text);
	m->text = m->own.buf;
	m->len = m->own.len;
	return m;
}

struct maintainers *maintainers_open(const char *path, const char *top,
				     struct sbuf *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct maintainers *m = maintainers_new(top);
	void *map = MAP_FAILED;
	if (S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size <= SIZE_MAX)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map != MAP_FAILED) {
		m->map = map;
		m->text = map;
		m->len = (size_t)st.st_size;
	} else if (sb_read_fd(&m->own, fd) < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		close(fd);
		maintainers_free(m);
		return NULL;
	} else {
		m->text = m->own.buf;
		m->len = m->own.len;
	}
	close(fd);
	return m;
}

/* The [class] at *gp against c: 1 it holds c, 0 not, -1 it is no class
 * (no closing ']'); on a class *gp moves past it.  '^' negates it, as in
 * the regex an F: line becomes; with bang, '!' too, as fnmatch() has it. */
static int glob_class(const char **gp, unsigned char c, int bang)
{
	const char *g = *gp + 1;
	int neg = 0, hit = 0, first = 1;

	if (*g == '^' || (bang && *g == '!')) {
		neg = 1;
		g++;
	}
	for (; *g && (*g != ']' || first); g++, first = 0) {
		unsigned char lo = (unsigned char)*g, hi = lo;
		if (g[1] == '-' && g[2] && g[2] != ']') {
			hi = (unsigned char)g[2];
			g += 2;
		}
		if (c >= lo && c <= hi)
			hit = 1;
	}
	if (*g != ']')
		return -1;
	*gp = g + 1;
	return hit != neg;
}

/*
 * Whether glob g matches s (up to its end or a newline): '*' any bytes,
 * '/' too; '?' one; [class].  An F:/X: line's glob (fn 0) matches where
 * it matches a prefix of s, as its regex does; a glob of --include (fn 1)
 * reads as fnmatch() without flags reads it ('!' negates a class, '\'
 * quotes a byte; no [:class:]) and must match the whole of s.
 */
static int glob_match(const char *g, const char *s, int fn)
{
	const char *star_g = NULL, *star_s = NULL;

	for (;;) {
		if (!*g && (!fn || !*s || *s == '\n'))
			return 1;
		if (*g == '*') {
			star_g = ++g;
			star_s = s;
			continue;
		}
		if (*g && *s && *s != '\n') {
			const char *ng = g + 1;
			int ok;
			if (*g == '[') {
				ng = g;
				ok = glob_class(&ng, (unsigned char)*s, fn);
				if (ok < 0)
					ok = *s == '[', ng = g + 1;
			} else if (fn && *g == '\\' && g[1]) {
				ok = g[1] == *s;
				ng = g + 2;
			} else {
				ok = *g == '?' || *g == *s;
			}
			if (ok) {
				g = ng;
				s++;
				continue;
			}
		}
		if (star_g && *star_s && *star_s != '\n') {
			g = star_g;
			s = ++star_s;
			continue;
		}
		return 0;
	}
}

static int count_slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* The script's "-d $value" on the converted pattern. */
static int pattern_is_dir(const struct maintainers *m, const char *v)
{
	struct sbuf path = SBUF_INIT;
	struct stat st;

	sb_addf(&path, "%s/", m->top);
	perl_glob(&path, v);
	int dir = !stat(path.buf, &st) && S_ISDIR(st.st_mode);
	sb_release(&path);
	return dir;
}

/* file_match_pattern() of the script, for the value v of an F:/X: line
 * (re: its regex when the glob matcher cannot do it). */
static int file_match_pattern(const struct maintainers *m, const char *v,
			      size_t vlen, struct regex *re, const char *file)
{
	if (re ? !re_search(re, file, strlen(file), 0) : !glob_match(v, file, 0))
		return 0;
	if (vlen && v[vlen - 1] == '/')
		return 1;
	if (!re && pattern_is_dir(m, v))
		return !strncmp(file, v, vlen) && file[vlen] == '/';
	return count_slashes(file) == count_slashes(v);
}

/* The index in s->sec of the section being read, kept on first need. */
static size_t keep_section(struct scan *s)
{
	if (!s->cur_kept) {
		GROW(s->sec, s->nsec + 1, s->asec);
		s->sec[s->nsec++] = s->cur;
		s->cur_kept = 1;
	}
	return s->nsec - 1;
}

/* A section ends: per file, no X: may have matched, and the last F: or
 * N: that did gives the depth. */
static void close_section(struct scan *s, size_t end)
{
	if (!s->cur_kept)
		return;
	size_t sec = s->nsec - 1;
	s->sec[sec].end = end;
	for (size_t i = 0; i < s->nfm; i++) {
		size_t f = s->fm[i].file, j;
		for (j = 0; j < i && s->fm[j].file != f; j++)
			;
		if (j < i)
			continue;       /* this file is done */
		int excluded = 0, found = 0, deep = 0, depth = 0, dir = 0;
		int file_pd = count_slashes(s->file[f]);
		for (j = i; j < s->nfm; j++) {
			const struct fmatch *x = &s->fm[j];
			if (x->file != f)
				continue;
			if (x->type == 'X') {
				excluded = 1;
				continue;
			}
			found = 1;
			depth = x->depth;
			if (x->type == 'F' && depth >= file_pd)
				deep = 1;
			dir |= x->dir;
		}
		if (found && !excluded) {
			GROW(s->fh, s->nfh + 1, s->afh);
			s->fh[s->nfh++] = (struct fhit){ f, sec, depth, deep, dir };
		}
	}
	s->nfm = 0;
	s->cur_kept = 0;
}

static void push_match(struct scan *s, size_t file, int depth, char type,
		       int dir)
{
	keep_section(s);
	GROW(s->fm, s->nfm + 1, s->afm);
	s->fm[s->nfm++] = (struct fmatch){ file, depth, type, dir };
}

/* The bytes that end an F:/X: literal: 1, a glob's; 2, a regex's (then
 * the script's conversion yields a regex our glob matcher cannot run). */
static const unsigned char glob_byte[256] = {
	['*'] = 1, ['?'] = 1, ['['] = 1,
	['('] = 2, [')'] = 2, ['+'] = 2, ['|'] = 2, ['^'] = 2, ['$'] = 2,
	['{'] = 2, ['}'] = 2, ['\\'] = 2,
};

/* Compares path f with the literal start of an F:/X: value (v, n bytes)
 * as strncmp() would: the literal ends at the first glob or regex byte, or
 * before a byte a '{' quantifies.  The bytes f and v share need no look:
 * fplain, the length of f's start without such bytes, says whether the
 * literal ended among them.  *at: where they part. */
static int literal_cmp(const char *f, size_t fplain, const char *v, size_t n,
		       size_t *at)
{
	size_t k = 0;

	while (k < n && f[k] == v[k])
		k++;
	*at = k;
	if (k > fplain || k == n || glob_byte[(unsigned char)v[k]] ||
	    (k + 1 < n && v[k + 1] == '{'))
		return 0;
	return (unsigned char)f[k] < (unsigned char)v[k] ? -1 : 1;
}

/* The first of the sorted files that starts with v's literal. */
static size_t first_with_literal(const struct scan *s, const char *v, size_t n)
{
	size_t lo = 0, hi = s->nfile, at;

	BSEARCH(lo, hi, mid, literal_cmp(s->file[mid], s->fplain[mid], v, n,
					 &at) < 0);
	return lo;
}

/* Where line lineno of m's text was read: "FILE:LINE", onto err. */
static void add_where(struct sbuf *err, const struct maintainers *m,
		      size_t lineno)
{
	size_t i = m->nparts;

	while (i && m->part_line[i - 1] > lineno)
		i--;
	if (!i)
		sb_addf(err, "MAINTAINERS:%zu", lineno);
	else
		sb_addf(err, "%s:%zu", m->part[i - 1],
			lineno - m->part_line[i - 1] + 1);
}

static struct regex *compile_line(const struct maintainers *m, char type,
				  const char *v, size_t vlen, size_t lineno,
				  struct sbuf *err)
{
	struct sbuf pat = SBUF_INIT, e = SBUF_INIT;
	int glob = type == 'F' || type == 'X';

	if (glob) {
		/* The script's conversion, then our regex engine, anchored. */
		sb_addc(&pat, '^');
		perl_glob(&pat, v);
	} else {
		sb_add(&pat, v, vlen);
	}
	struct regex *re = re_compile(pat.buf, pat.len, !glob, &e);
	if (!re) {
		add_where(err, m, lineno);
		sb_addf(err, ": %c: ", type);
		sb_add(err, v, vlen);
		sb_addf(err, ": %s", e.buf);
	}
	sb_release(&pat);
	sb_release(&e);
	return re;
}

/* Whether an F: value names a directory as it is: "dir/", no glob. */
static int plain_dir(const char *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (glob_byte[(unsigned char)v[i]])
			return 0;
	return n && v[n - 1] == '/';
}

/* An F: or X: line: tried on the files that start with its literal, or on
 * every file when it holds a '|' (the script's regex then alternates). */
static int scan_glob(struct scan *s, char type, const char *v, size_t vlen,
		     size_t lineno, struct sbuf *err)
{
	int nul = 0, alt = span_until(v, vlen, '|', &nul) < vlen, rx = -1;
	struct regex *re = NULL;
	size_t at;

	/* Parting from the files' common start, it parts from all of them. */
	if (!alt && s->nfile && literal_cmp(s->file[0], s->fplain[0], v, vlen,
					    &at) && at < s->common)
		return 0;
	sb_setlen(&s->value, 0);
	for (size_t f = alt ? 0 : first_with_literal(s, v, vlen);
	     f < s->nfile && (alt || !literal_cmp(s->file[f], s->fplain[f], v,
						  vlen, &at)); f++) {
		if (rx < 0) {
			sb_add(&s->value, v, vlen);
			rx = 0;
			for (size_t i = 0; i < vlen; i++)
				rx |= glob_byte[(unsigned char)v[i]] == 2;
		}
		if (rx && !re &&
		    !(re = compile_line(s->m, type, s->value.buf, vlen, lineno,
					err)))
			return -1;
		if (file_match_pattern(s->m, s->value.buf, vlen, re, s->file[f]))
			push_match(s, f, type == 'F' ? glob_depth(v, vlen) : 0,
				   type, type == 'F' && plain_dir(v, vlen));
	}
	re_free(re);
	return 0;
}

/* An N: line: a regex searched in each path that holds its literal. */
static int scan_name(struct scan *s, const char *v, size_t vlen,
		     size_t lineno, struct sbuf *err)
{
	size_t at, n = re_literal(v, vlen, 1, &at);
	size_t k = rarest_byte(v + at, n);
	struct regex *re = NULL;

	for (size_t f = 0; f < s->nfile; f++) {
		if (n && !find_bytes_at(s->file[f], s->flen[f], v + at, n, k))
			continue;
		if (!re && !(re = compile_line(s->m, 'N', v, vlen, lineno, err)))
			return -1;
		if (re_search(re, s->file[f], s->flen[f], 0))
			push_match(s, f, 0, 'N', 0);
	}
	re_free(re);
	return 0;
}

/*
 * Every K: line compiled before the pass, and its prefilter literals (one
 * of which each match must hold) looked for in a keyword text in one pass
 * over it, instead of one search of it per K: line.  The pass hashes each
 * three adjacent bytes into a bitmap of the triples the literals hold (for
 * each literal its rarest triple, in every case where it matches either
 * case): a hit is rare (pairs hit 1.5% of the bytes of C, triples far
 * fewer), and only then are the literals of that hash compared.  A line
 * that does not compile, or has a literal shorter than three bytes, is
 * left to the regex (or to its error) as before.
 */
struct klit {
	size_t k;               /* the K: line it is a literal of */
	const char *p;
	size_t len;
	long at;                /* its triple starts at p[at]; -1: the byte
				 * before p, then p[0], p[1] */
	int icase;              /* p is lower case and matches either case */
	unsigned hash;          /* of one spelling of that triple */
};

struct kwindex {
	size_t nk;              /* K: lines, in the order of the text */
	size_t *at;             /* where line k's value starts (ascending) */
	size_t *len, *idx, *lineno; /* its value's length, the script's
				 * index of the line, its line number */
	struct regex **re;      /* each compiled, or NULL where it did not */
	char *paired;           /* every literal of it has a triple */
	struct klit *kl;        /* sorted by hash */
	size_t nl;
	unsigned char *bits;    /* the hashes of kl */
};

#define TRIPLE_BITS 18

static unsigned triple_hash(unsigned char a, unsigned char b, unsigned char c)
{
	uint32_t w = (uint32_t)a << 16 | (uint32_t)b << 8 | c;

	return (unsigned)((w * UINT32_C(2654435761)) >> (32 - TRIPLE_BITS));
}

static int cmp_klit_hash(const void *a, const void *b)
{
	unsigned x = ((const struct klit *)a)->hash;
	unsigned y = ((const struct klit *)b)->hash;

	return x < y ? -1 : x > y;
}

/* Where in p[0..n) the triple of the rarest bytes starts, among the
 * offsets of parity odd (n >= 3 + odd); for odd with n == 3, -1: the
 * byte before p and p[0], p[1]. */
static long rarest_triple(const char *p, size_t n, int odd)
{
	long k = -1;
	int best = INT_MAX;

	for (size_t i = (size_t)odd; i + 2 < n; i += 2) {
		int r = byte_rank((unsigned char)p[i]) +
			byte_rank((unsigned char)p[i + 1]) +
			byte_rank((unsigned char)p[i + 2]);
		if (r < best) {
			best = r;
			k = (long)i;
		}
	}
	return k;
}

static int klit_at(const struct klit *l, const char *x, size_t xn, size_t i)
{
	if ((l->at > 0 && i < (size_t)l->at) ||
	    i - (size_t)l->at + l->len > xn)
		return 0;
	const char *at = x + i - (size_t)l->at;
	if (!l->icase)
		return !memcmp(at, l->p, l->len);
	for (size_t j = 0; j < l->len; j++)
		if (fold((unsigned char)at[j]) != (unsigned char)l->p[j])
			return 0;
	return 1;
}

/* The literal's triple at offset at, in every spelling its case allows
 * (and with at -1, after every byte), into x->kl. */
static void add_triples(struct kwindex *x, size_t *al, size_t k,
			const char *lit, int icase, long at)
{
	size_t ln = strlen(lit);
	const unsigned char *b = (const unsigned char *)lit + at;

	/* bits 0-2 of the spelling: byte j upper case; above, the byte
	 * before the literal where the triple starts there */
	for (unsigned sp = 0; sp < (at < 0 ? 8u << 8 : 8u); sp++) {
		unsigned char c[3];
		int ok = 1;
		for (int j = 0; j < 3; j++) {
			int up = sp >> j & 1;
			if (at < 0 && !j) {
				ok &= !up;
				c[0] = (unsigned char)(sp >> 3);
				continue;
			}
			ok &= !up || (icase && b[j] >= 'a' && b[j] <= 'z');
			c[j] = (unsigned char)(b[j] - 32 * up);
		}
		if (!ok)
			continue;
		GROW(x->kl, x->nl + 1, *al);
		x->kl[x->nl++] = (struct klit){ k, lit, ln, at, icase,
			triple_hash(c[0], c[1], c[2]) };
	}
}

/* The K: lines of m, numbered as the pass numbers them (see above). */
static struct kwindex *kwindex_build(const struct maintainers *m)
{
	struct kwindex *x = xcalloc(1, sizeof *x);
	const char *t = m->text;
	size_t len = m->len, ak = 0, al = 0, idx = 0, lineno = 0;
	struct sbuf err = SBUF_INIT;

	for (size_t pos = 0; pos < len;) {
		const char *p = t + pos;
		const char *eol = memchr(p, '\n', len - pos);
		size_t n = eol ? (size_t)(eol - p) : len - pos;
		lineno++;
		if (n >= 2 && p[0] == 'K' && p[1] == ':') {
			size_t v = tag_value(p, n), k = x->nk;
			struct regex *re = re_compile(p + v, n - v, 1, &err);
			sb_setlen(&err, 0);
			if (k == ak) {
				ak = ak ? 2 * ak : 16;
				x->at = xrealloc(x->at, xmul(ak, sizeof *x->at));
				x->len = xrealloc(x->len, xmul(ak, sizeof *x->len));
				x->idx = xrealloc(x->idx, xmul(ak, sizeof *x->idx));
				x->lineno = xrealloc(x->lineno,
						     xmul(ak, sizeof *x->lineno));
				x->re = xrealloc(x->re, xmul(ak, sizeof *x->re));
			}
			x->at[k] = pos + v;
			x->len[k] = n - v;
			x->idx[k] = idx;
			x->lineno[k] = lineno;
			x->re[k] = re;
			x->nk++;
		}
		if (is_tag(p, n) || !blank_or_comment(p, n))
			idx++;
		pos += n + 1;
	}
	sb_release(&err);
	x->paired = xcalloc(x->nk + 1, 1);
	for (size_t k = 0; k < x->nk; k++) {
		const struct regex *re = x->re[k];
		x->paired[k] = re && re->nlits;
		for (size_t i = 0; x->paired[k] && i < re->nlits; i++)
			x->paired[k] = strlen(re->lits[i]) >= 3;
		/* the pass looks at every other byte: each literal has a
		 * triple for starts at even places and one for odd ones */
		for (size_t i = 0; x->paired[k] && i < re->nlits; i++) {
			size_t ln = strlen(re->lits[i]);
			for (int odd = 0; odd < 2; odd++)
				add_triples(x, &al, k, re->lits[i],
					    re->lit_icase[i],
					    rarest_triple(re->lits[i], ln, odd));
		}
	}
	sort_n(x->kl, x->nl, sizeof *x->kl, cmp_klit_hash);
	x->bits = xcalloc((1u << TRIPLE_BITS) / 8, 1);
	for (size_t i = 0; i < x->nl; i++)
		x->bits[x->kl[i].hash >> 3] |=
			(unsigned char)(1u << (x->kl[i].hash & 7));
	return x;
}

static void kwindex_free(struct kwindex *x)
{
	if (!x)
		return;
	for (size_t k = 0; k < x->nk; k++)
		re_free(x->re[k]);
	free(x->at);
	free(x->len);
	free(x->idx);
	free(x->lineno);
	free(x->re);
	free(x->paired);
	free(x->kl);
	free(x->bits);
	free(x);
}

/* Every literal whose triple's hash is h and which is at t[i]: has[]. */
static void triple_hits(const struct kwindex *x, const char *t, size_t n,
			size_t i, unsigned h, unsigned char *has)
{
	size_t lo = 0, hi = x->nl;

	BSEARCH(lo, hi, mid, x->kl[mid].hash < h);
	for (; lo < x->nl && x->kl[lo].hash == h; lo++)
		if (!has[x->kl[lo].k] && klit_at(&x->kl[lo], t, n, i))
			has[x->kl[lo].k] = 1;
}

/* has[k] (x->nk of them): whether line k could match t[0..n): a literal
 * of it is there, or it has none the pass can look for. */
static void kwindex_find(const struct kwindex *x, const char *t, size_t n,
			 unsigned char *has)
{
	const unsigned char *u = (const unsigned char *)t;

	for (size_t k = 0; k < x->nk; k++)
		has[k] = !x->paired[k];
	for (size_t i = 0; i + 2 < n; i += 2) {
		unsigned h = triple_hash(u[i], u[i + 1], u[i + 2]);
		if (x->bits[h >> 3] & (1u << (h & 7)))
			triple_hits(x, t, n, i, h, has);
	}
}

#define KW_PREPASS_BYTES (1 << 20)

static void find_keyword_literals(struct scan *s)
{
	struct kwindex *x = kwindex_build(s->m);

	s->kx = x;
	s->khas = xcalloc(s->nq * x->nk + 1, 1);
	for (size_t q = 0; q < s->nq; q++) {
		const struct kwtext *kw = s->q[q].kw;
		unsigned char *has = s->khas + q * x->nk;
		if (kw && !s->q[q].khit)
			kwindex_find(x, kw->text.buf, kw->text.len, has);
		else
			for (size_t k = 0; k < x->nk; k++)
				has[k] = !x->paired[k];
	}
}

/* The K: lines a whole file's text t[0..n) hits (cc -f reads K: so), as
 * the script's indices, ascending, appended to out.  0, or -1 with err
 * filled where a line that could match does not compile. */
static int file_keyword_hits(const struct kwindex *x,
			     const struct maintainers *m, const char *t,
			     size_t n, struct indices *out, struct sbuf *err)
{
	const char *mtext = m->text;
	unsigned char *has = xcalloc(x->nk + 1, 1);
	struct kwline whole = { 0, n, 0 };
	int r = 0;

	kwindex_find(x, t, n, has);
	for (size_t k = 0; !r && k < x->nk; k++) {
		const char *v = mtext + x->at[k];
		size_t at, lit;
		if (!has[k] || !n)
			continue;
		if (!x->re[k]) {
			/* as scan_keyword(): an error only where it could hit */
			lit = re_literal(v, x->len[k], 1, &at);
			if (lit && !find_bytes(t, n, v + at, lit))
				continue;
			struct regex *re = compile_line(m, 'K', v, x->len[k],
							x->lineno[k], err);
			re_free(re);
			r = -1;
		} else if (re_search_lines(x->re[k], t, n, &whole, 1)) {
			GROW(out->v, out->n + 1, out->alloc);
			out->v[out->n++] = x->idx[k];
		}
	}
	free(has);
	return r;
}

/* The K: line whose value starts at v (a pointer into the text), as
 * kwindex_build() numbered them, or nk where it did not. */
static size_t keyword_line(const struct scan *s, const char *v)
{
	size_t off = (size_t)(v - s->m->text), lo = 0, hi = s->kx->nk;

	BSEARCH(lo, hi, mid, s->kx->at[mid] < off);
	return lo < s->kx->nk && s->kx->at[lo] == off ? lo : s->kx->nk;
}

static int has_index(const size_t *v, size_t n, size_t x)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, v[mid] < x);
	return lo < n && v[lo] == x;
}

/* A K: line: searched in each query's keyword lines that could hold it,
 * or looked up in the hits the query already knows. */
static int scan_keyword(struct scan *s, const char *v, size_t vlen,
			size_t idx, size_t lineno, struct sbuf *err)
{
	size_t nk = s->kx ? s->kx->nk : 0;
	size_t k = nk ? keyword_line(s, v) : nk;
	int known = k < nk && s->kx->re[k];   /* compiled, literals found */
	size_t at, n = known ? 0 : re_literal(v, vlen, 1, &at);
	struct regex *re = known ? s->kx->re[k] : NULL;

	for (size_t i = 0; i < s->nq; i++) {
		const struct cc_query *q = &s->q[i];
		const struct kwtext *kw = q->kw;
		int hit;
		if (q->khit)
			hit = has_index(q->khit, q->nkhit, idx);
		else if (!kw || !kw->nline ||
			 (known && !s->khas[i * nk + k]) ||
			 (n && !find_bytes(kw->text.buf, kw->text.len, v + at, n)))
			continue;
		else if (!re && !(re = compile_line(s->m, 'K', v, vlen, lineno,
						    err)))
			return -1;
		else
			hit = re_search_lines(re, kw->text.buf, kw->text.len,
					      kw->line, kw->nline);
		if (!hit)
			continue;
		GROW(s->kh, s->nkh + 1, s->akh);
		s->kh[s->nkh++] = (struct khit){ i, keep_section(s), idx };
		if (q->khit_out) {
			struct indices *o = q->khit_out;
			GROW(o->v, o->n + 1, o->alloc);
			o->v[o->n++] = idx;
		}
	}
	if (!known)
		re_free(re);
	return 0;
}

static int scan_tag(struct scan *s, const char *p, size_t n, size_t idx,
		    size_t lineno, struct sbuf *err)
{
	size_t v;

	switch (p[0]) {
	case 'F':
	case 'X':
		v = tag_value(p, n);
		return scan_glob(s, p[0], p + v, n - v, lineno, err);
	case 'N':
		v = tag_value(p, n);
		return scan_name(s, p + v, n - v, lineno, err);
	case 'K':
		v = tag_value(p, n);
		return s->keywords ? scan_keyword(s, p + v, n - v, idx, lineno, err) : 0;
	}
	return 0;
}

/* The one pass over the file (see the section's comment). */
static int scan_maintainers(struct scan *s, struct sbuf *err)
{
	const char *t = s->m->text;
	size_t len = s->m->len, idx = 0, lineno = 0, title = 0, tlen = 0;
	int in_run = 0;

	for (size_t pos = 0; pos < len;) {
		const char *p = t + pos;
		int nul = 0;
		size_t n = span_until(p, len - pos, '\n', &nul);
		lineno++;
		if (nul) {
			sb_addf(err, "MAINTAINERS:%zu: holds a NUL byte", lineno);
			return -1;
		}
		if (is_tag(p, n)) {
			if (!in_run) {
				int first = idx == 0;
				s->cur = (struct msec){ idx, first ? pos : title,
							first ? n : tlen, pos, len,
							first ? pos + n + (n < len - pos) : pos,
							first };
				s->cur_kept = 0;
				in_run = 1;
			}
			if (scan_tag(s, p, n, idx, lineno, err) < 0)
				return -1;
			idx++;
		} else if (!blank_or_comment(p, n)) {
			if (in_run)
				close_section(s, pos);
			in_run = 0;
			title = pos;
			tlen = n;
			idx++;
		}
		pos += n + (n < len - pos);
	}
	if (in_run)
		close_section(s, len);
	return 0;
}

static int cmp_fhit(const void *a, const void *b)
{
	const struct fhit *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->depth != y->depth)
		return y->depth > x->depth ? 1 : -1;
	return x->sec < y->sec ? -1 : x->sec > y->sec;
}

static size_t file_index(const struct scan *s, const char *file)
{
	size_t lo = 0, hi = s->nfile;

	BSEARCH(lo, hi, mid, strcmp(s->file[mid], file) < 0);
	return lo;
}

/* The first of the file's hits (in the script's order), or s->nfh. */
static size_t first_hit(const struct scan *s, size_t fi)
{
	struct fhit key = { fi, 0, INT_MAX, 0, 0 };
	size_t h = 0, hi = s->nfh;

	BSEARCH(h, hi, mid, cmp_fhit(&s->fh[mid], &key) < 0);
	return h;
}

/* ---- addresses ----------------------------------------------------------
 * parse_email() and format_email() as get_maintainer.pl has them: a name
 * holding anything but [A-Za-z0-9_ -] (UTF-8 included: Perl's \w is ASCII
 * on bytes) is put in double quotes with its own quotes escaped.
 */

static void trim(struct sbuf *sb)
{
	size_t s = 0, e = sb->len;

	while (s < e && is_space((unsigned char)sb->buf[s]))
		s++;
	while (e > s && is_space((unsigned char)sb->buf[e - 1]))
		e--;
	memmove(sb->buf, sb->buf + s, e - s);
	sb_setlen(sb, e - s);
}

static void quote_name(struct sbuf *name)
{
	trim(name);
	if (name->len && name->buf[0] == '"') {
		memmove(name->buf, name->buf + 1, name->len - 1);
		sb_setlen(name, name->len - 1);
	}
	if (name->len && name->buf[name->len - 1] == '"')
		sb_setlen(name, name->len - 1);
	int must = 0;
	for (size_t i = 0; i < name->len; i++) {
		unsigned char c = (unsigned char)name->buf[i];
		if (!is_word(c) && c != ' ' && c != '-')
			must = 1;
	}
	if (!must)
		return;
	struct sbuf q = SBUF_INIT;
	sb_addc(&q, '"');
	for (size_t i = 0; i < name->len; i++) {
		if (name->buf[i] == '"' && (!i || name->buf[i - 1] != '\\'))
			sb_addc(&q, '\\');
		sb_addc(&q, name->buf[i]);
	}
	sb_addc(&q, '"');
	sb_release(name);
	*name = q;
}

static void parse_email(const char *in, struct sbuf *name, struct sbuf *addr)
{
	size_t len = strlen(in);
	const char *lt = strchr(in, '<');

	sb_setlen(name, 0);
	sb_setlen(addr, 0);
	if (lt && lt > in) {
		/* ^([^<]+)<(.+\@.*)>.*$ : up to the last '>' */
		const char *gt = strrchr(in, '>');
		const char *at = gt ? memchr(lt + 2 <= gt ? lt + 2 : gt, '@',
					     (size_t)(gt - (lt + 2 <= gt ? lt + 2 : gt))) : NULL;
		if (gt && gt > lt && at && at < gt) {
			sb_add(name, in, (size_t)(lt - in));
			sb_add(addr, lt + 1, (size_t)(gt - lt - 1));
			goto done;
		}
	}
	const char *p = in;
	while (is_space((unsigned char)*p))
		p++;
	if (*p == '<') {
		/* ^\s*<(.+\@\S*)>.*$ : the last '@' whose run holds a '>' */
		const char *start = p + 1;
		for (const char *at = in + len; at-- > start + 1;) {
			if (*at != '@')
				continue;
			const char *run = at + 1, *gt = NULL;
			while (*run && !is_space((unsigned char)*run)) {
				if (*run == '>')
					gt = run;
				run++;
			}
			if (gt) {
				sb_add(addr, start, (size_t)(gt - start));
				goto done;
			}
		}
	}
	/* ^(.+\@\S*).*$ : through the last '@' and the non-blanks after it */
	const char *at = strrchr(in, '@');
	if (at && at > in) {
		const char *e = at + 1;
		while (*e && !is_space((unsigned char)*e))
			e++;
		sb_add(addr, in, (size_t)(e - in));
	}
done:
	quote_name(name);
	trim(addr);
}

static void format_email(struct sbuf *out, const char *name, const char *addr,
			 int usename)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT;

	sb_adds(&n, name);
	sb_adds(&a, addr);
	quote_name(&n);
	trim(&a);
	sb_setlen(out, 0);
	if (usename && n.len)
		sb_addf(out, "%s <%s>", n.buf, a.buf);
	else
		sb_add(out, a.buf, a.len);
	sb_release(&n);
	sb_release(&a);
}

/* ---- .mailmap, read as the script reads it -------------------------------
 * The text is kept, cut into lines at '\n' and at '#', and a line is parsed
 * only when an address it may map is looked up.  A line's key is "addr" or
 * "name <addr>", where addr is its last <...> (trimmed, for the forms whose
 * key the script runs through parse_email()): so lines are chained by the
 * hash of that address, in file order, and a lookup parses its chain, plus
 * the odd lines whose key's address cannot be told without parsing.  The
 * last line that maps a key wins, for the name and the address each, as
 * the script's hash assignments do.
 */

struct mm_line {
	size_t off;             /* the line: mm.buf + off, NUL-terminated */
	uint32_t hash, next;    /* next: the chain, or NO_MM */
	int odd;                /* tried for every address */
};

#define NO_MM UINT32_MAX

/* One line's mapping: key, and the name and/or address it maps to. */
struct mm_entry {
	struct sbuf key, name, addr, n2, a2, tmp;
	int has_name, has_addr;
};

#define MM_ENTRY_INIT { SBUF_INIT, SBUF_INIT, SBUF_INIT, SBUF_INIT, SBUF_INIT, \
			SBUF_INIT, 0, 0 }

static void mm_entry_release(struct mm_entry *e)
{
	sb_release(&e->key);
	sb_release(&e->name);
	sb_release(&e->addr);
	sb_release(&e->n2);
	sb_release(&e->a2);
	sb_release(&e->tmp);
}

/* name and addr joined as "name <addr>" (the name trimmed), then parsed
 * as the script parses an address (parse_email()) into n and a. */
static void email_parts(const char *name, size_t nlen, const char *addr,
			size_t alen, struct sbuf *tmp, struct sbuf *n,
			struct sbuf *a)
{
	sb_setlen(tmp, 0);
	sb_add(tmp, name, nlen);
	trim(tmp);
	sb_adds(tmp, " <");
	sb_add(tmp, addr, alen);
	sb_addc(tmp, '>');
	parse_email(tmp->buf, n, a);
}

/* The <...> groups of a trimmed line: one or two, each "<x>" with no '>'
 * inside.  Returns the form (1-4 as below) or 0 for a line that maps
 * nothing. */
struct mm_groups {
	const char *lt1, *gt1, *lt2, *gt2;
};

static int mm_form(const char *l, struct mm_groups *g)
{
	const char *mark[4] = { NULL, NULL, NULL, NULL };
	size_t n = strlen(l);
	int nul = 0;

	/* strchr(l,'<'), then '>', '<', '>', each after the one before */
	for (size_t k = 0, at = 0; k < 4; k++) {
		at += span_until(l + at, n - at, (unsigned char)"<><>"[k], &nul);
		if (at >= n)
			break;
		mark[k] = l + at;
	}
	const char *p = l + n;
	g->lt1 = mark[0];
	g->gt1 = mark[1];
	g->lt2 = mark[2];
	g->gt2 = mark[3];
	if (!g->gt1)
		return 0;
	int ends1 = g->gt1 == p - 1, ends2 = g->gt2 && g->gt2 == p - 1;
	if (g->lt1 > l && ends1)
		return 1;       /* name1 <mail1> */
	if (g->lt1 == l && ends2 && only_space(g->gt1 + 1, g->lt2))
		return 2;       /* <mail1> <mail2> */
	if (g->lt1 > l && ends2 && only_space(g->gt1 + 1, g->lt2))
		return 3;       /* name1 <mail1> <mail2> */
	if (g->lt1 > l && ends2)
		return 4;       /* name1 <mail1> name2 <mail2> */
	return 0;
}

/* The entry of one line (trimmed, comment cut); 0 when it maps nothing. */
static int mm_parse_line(const char *l, struct mm_entry *e)
{
	struct mm_groups g;
	int form = mm_form(l, &g);

	e->has_name = e->has_addr = 0;
	sb_setlen(&e->key, 0);
	if (form == 1 || form == 3 || form == 4)
		email_parts(l, (size_t)(g.lt1 - l), g.lt1 + 1,
			    (size_t)(g.gt1 - g.lt1 - 1), &e->tmp, &e->name,
			    &e->addr);
	if (form == 1) {
		sb_add(&e->key, e->addr.buf, e->addr.len);
		e->has_name = 1;
	} else if (form == 2 || form == 3) {
		sb_add(&e->key, g.lt2 + 1, (size_t)(g.gt2 - g.lt2 - 1));
		if (form == 2) {
			sb_setlen(&e->addr, 0);
			sb_add(&e->addr, g.lt1 + 1, (size_t)(g.gt1 - g.lt1 - 1));
		}
		e->has_addr = 1;
		e->has_name = form == 3;
	} else if (form == 4) {
		email_parts(g.gt1 + 1, (size_t)(g.lt2 - g.gt1 - 1), g.lt2 + 1,
			    (size_t)(g.gt2 - g.lt2 - 1), &e->tmp, &e->n2, &e->a2);
		format_email(&e->key, e->n2.buf, e->a2.buf, 1);
		e->has_name = e->has_addr = 1;
	}
	return form != 0;
}

/* Whether <s..e> holds an '@' after its first byte: then parse_email()
 * gives back exactly its trimmed text as the address. */
static int plain_address(const char *s, const char *e)
{
	return e - s > 1 && memchr(s + 1, '@', (size_t)(e - s - 1));
}

static uint32_t trimmed_hash(const char *s, const char *e)
{
	while (s < e && is_space((unsigned char)*s))
		s++;
	while (e > s && is_space((unsigned char)e[-1]))
		e--;
	return hash_bytes(s, (size_t)(e - s));
}

/* Files a line under the address its key ends with. */
static void mm_index_line(struct maintainers *m, size_t off)
{
	const char *l = m->mm.buf + off;
	struct mm_groups g;
	int form = mm_form(l, &g);
	struct mm_line ml = { off, 0, NO_MM, 0 };

	if (!form)
		return;
	if (form == 2 || form == 3)
		ml.hash = hash_bytes(g.lt2 + 1, (size_t)(g.gt2 - g.lt2 - 1));
	else if (form == 1 ? plain_address(g.lt1 + 1, g.gt1) :
			     plain_address(g.lt2 + 1, g.gt2))
		ml.hash = form == 1 ? trimmed_hash(g.lt1 + 1, g.gt1) :
				      trimmed_hash(g.lt2 + 1, g.gt2);
	else
		ml.odd = 1;
	GROW(m->mml, m->nmml + 1, m->amml);
	m->mml[m->nmml++] = ml;
}

void mailmap_parse(struct maintainers *m, const char *buf, size_t len)
{
	size_t at = m->mm.len;

	sb_add(&m->mm, buf, len);
	sb_addc(&m->mm, '\n');
	for (size_t p = at; p < m->mm.len;) {
		char *l = m->mm.buf + p;
		size_t rest = m->mm.len - p;
		int nul = 0;
		size_t n = span_until(l, rest, '\n', &nul);
		if (nul)
			n = (size_t)((char *)memchr(l + n, '\n', rest - n) - l);
		l[n] = '\0';
		p += n + 1;
		/* The comment is cut; a NUL before it drops the line. */
		nul = 0;
		size_t e = span_until(l, n, '#', &nul), s = 0;
		if (nul)
			continue;
		while (s < e && is_space((unsigned char)l[s]))
			s++;
		while (e > s && is_space((unsigned char)l[e - 1]))
			e--;
		l[e] = '\0';
		if (e > s)
			mm_index_line(m, (size_t)(l + s - m->mm.buf));
	}
	/* The chains, rebuilt whole: newest line first, read backwards. */
	m->nmmhead = 64;
	while (m->nmmhead < 2 * m->nmml)
		m->nmmhead *= 2;
	free(m->mmhead);
	m->mmhead = xcalloc(m->nmmhead, sizeof *m->mmhead);
	for (size_t i = 0; i < m->nmmhead; i++)
		m->mmhead[i] = NO_MM;
	for (size_t i = m->nmml; i-- > 0;) {
		if (m->mml[i].odd)
			continue;
		uint32_t *head = &m->mmhead[m->mml[i].hash & (m->nmmhead - 1)];
		m->mml[i].next = *head;
		*head = (uint32_t)i;
	}
}

/* What .mailmap says of one address: the name and the address of the
 * last line that gave each, for the key (one of them set when the other is
 * not).  line is scratch for parsing. */
struct mm_answer {
	struct sbuf name, addr;
	int has_name, has_addr;
	struct mm_entry line;
};

#define MM_ANSWER_INIT { SBUF_INIT, SBUF_INIT, 0, 0, MM_ENTRY_INIT }

static void mm_answer_release(struct mm_answer *a)
{
	sb_release(&a->name);
	sb_release(&a->addr);
	mm_entry_release(&a->line);
}

/* The .mailmap lines for key (an address, or "Name <address>") of addr. */
static void mailmap_find(const struct maintainers *m, const char *key,
			 const char *addr, struct mm_answer *ans)
{
	uint32_t h = hash_bytes(addr, strlen(addr));
	uint32_t i = m->nmml ? m->mmhead[h & (m->nmmhead - 1)] : NO_MM;
	size_t odd = 0;
	struct mm_entry *e = &ans->line;

	ans->has_name = ans->has_addr = 0;
	/* The chain and the odd lines, merged in file order. */
	for (;;) {
		while (odd < m->nmml && !m->mml[odd].odd)
			odd++;
		size_t k;
		if (i != NO_MM && (odd >= m->nmml || i < odd)) {
			k = i;
			i = m->mml[i].next;
			if (m->mml[k].hash != h)
				continue;
		} else if (odd < m->nmml) {
			k = odd++;
		} else {
			break;
		}
		if (!mm_parse_line(m->mm.buf + m->mml[k].off, e) ||
		    strcmp(e->key.buf, key))
			continue;
		if (e->has_name) {
			sb_setlen(&ans->name, 0);
			sb_add(&ans->name, e->name.buf, e->name.len);
			ans->has_name = 1;
		}
		if (e->has_addr) {
			sb_setlen(&ans->addr, 0);
			sb_add(&ans->addr, e->addr.buf, e->addr.len);
			ans->has_addr = 1;
		}
	}
}

/* mailmap_email(): out gets "name <addr>" after the .mailmap. */
static void mailmap_email(const struct maintainers *m, struct sbuf *out,
			  const char *line)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT, email = SBUF_INIT;
	struct mm_answer ans = MM_ANSWER_INIT;

	parse_email(line, &n, &a);
	format_email(&email, n.buf, a.buf, 1);
	mailmap_find(m, email.buf, a.buf, &ans);
	if (!ans.has_name && !ans.has_addr)
		mailmap_find(m, a.buf, a.buf, &ans);
	format_email(out, ans.has_name ? ans.name.buf : n.buf,
		     ans.has_addr ? ans.addr.buf : a.buf, 1);
	mm_answer_release(&ans);
	sb_release(&n);
	sb_release(&a);
	sb_release(&email);
}

/* ---- addresses in files: .yaml bindings ---------------------------------------
 * A patch that touches a devicetree binding also goes to the addresses its
 * maintainers: list holds, cleaned as the script cleans them.
 */

/* The bytes of the script's [A-Za-zÀ-ÿ...] classes: its source is UTF-8 read
 * as bytes, so "À-ÿ" is \xC3, \x80-\xC3 and \xBF. */
static int latin_byte(unsigned char c)
{
	return isalpha(c) || (c >= 0x80 && c <= 0xC3) || c == 0xBF;
}

static int name_byte(unsigned char c)
{
	return latin_byte(c) || (c && strchr("\"' ,.+-", c));
}

static int local_byte(unsigned char c)
{
	return isalnum(c) || (c && strchr("_.+-", c));
}

static int domain_byte(unsigned char c)
{
	return isalnum(c) || c == '.' || c == '-';
}

/* s/[(<{]?(LOCAL+@DOMAIN+)[)>}]?/<$1>/g of the script, match into e. */
static void bracket_addresses(const char *match, size_t len, struct sbuf *e)
{
	for (size_t i = 0; i < len;) {
		const char *at = memchr(match + i, '@', len - i);
		if (!at) {
			sb_add(e, match + i, len - i);
			break;
		}
		size_t ai = (size_t)(at - match), q = ai, r = ai + 1;
		while (q > i && local_byte((unsigned char)match[q - 1]))
			q--;
		while (r < len && domain_byte((unsigned char)match[r]))
			r++;
		if (q == ai || r == ai + 1) {
			sb_add(e, match + i, ai + 1 - i);
			i = ai + 1;
			continue;
		}
		size_t p = q;
		if (p > i && strchr("(<{", match[p - 1]))
			p--;
		sb_add(e, match + i, p - i);
		sb_addc(e, '<');
		sb_add(e, match + q, r - q);
		sb_addc(e, '>');
		if (r < len && strchr(")>}", match[r]))
			r++;
		i = r;
	}
}

/* The script's cut of a long name: its last three words, as Perl's
 * split() on what is no name byte gives them, less the first where
 * neither of the first two is an initial. */
static void last_words(struct sbuf *n)
{
	struct { const char *s; size_t l; } fld[256];
	size_t nf = 0, last_nonempty = 0;

	for (size_t s = 0, k = 0; k <= n->len && nf < 256; k++)
		if (k == n->len || !(latin_byte((unsigned char)n->buf[k]) ||
				     strchr("',.+-", n->buf[k]))) {
			fld[nf].s = n->buf + s;
			fld[nf].l = k - s;
			if (k - s)
				last_nonempty = nf + 1;
			nf++;
			s = k + 1;
		}
	nf = last_nonempty;        /* split drops trailing empty fields */
	if (nf <= 2)
		return;
	const char *w[3];
	size_t wl[3];
	for (size_t k = 0; k < 3; k++) {
		w[k] = fld[nf - 3 + k].s;
		wl[k] = fld[nf - 3 + k].l;
	}
	int initial = (wl[0] == 1 && isalpha((unsigned char)w[0][0])) ||
		      (wl[0] == 2 && w[0][1] == '.') || wl[1] == 1 ||
		      (wl[1] == 2 && w[1][1] == '.');
	struct sbuf nn = SBUF_INIT;
	if (initial)
		sb_addf(&nn, "%.*s ", (int)wl[0], w[0]);
	sb_addf(&nn, "%.*s %.*s", (int)wl[1], w[1], (int)wl[2], w[2]);
	sb_release(n);
	*n = nn;
}

/* clean_file_emails() of the script for one extracted match. */
static void clean_file_email(const char *match, size_t len, struct sbuf *out)
{
	struct sbuf e = SBUF_INIT, n = SBUF_INIT, a = SBUF_INIT;

	bracket_addresses(match, len, &e);
	parse_email(e.buf, &n, &a);
	if (n.len == 3 && n.buf[0] == '"' && n.buf[2] == '"' &&
	    (n.buf[1] == ',' || n.buf[1] == '.'))
		sb_setlen(&n, 0);
	last_words(&n);
	/* a trailing, then a leading ',' or '.' off (inside its quotes) */
	if (n.len && (n.buf[n.len - 1] == ',' || n.buf[n.len - 1] == '.')) {
		sb_setlen(&n, n.len - 1);
	} else if (n.len >= 2 && n.buf[n.len - 1] == '"' &&
		   (n.buf[n.len - 2] == ',' || n.buf[n.len - 2] == '.')) {
		n.buf[n.len - 2] = '"';
		sb_setlen(&n, n.len - 1);
	}
	if (n.len && (n.buf[0] == ',' || n.buf[0] == '.')) {
		memmove(n.buf, n.buf + 1, n.len - 1);
		sb_setlen(&n, n.len - 1);
	} else if (n.len >= 2 && n.buf[0] == '"' &&
		   (n.buf[1] == ',' || n.buf[1] == '.')) {
		memmove(n.buf + 1, n.buf + 2, n.len - 2);
		sb_setlen(&n, n.len - 1);
	}
	format_email(out, n.buf, a.buf, 1);
	sb_release(&e);
	sb_release(&n);
	sb_release(&a);
}
/*
 * The addresses written in a file, found as the script's regex
 *   NAME* \s* ,* \s* [(<{]? LOCAL+ @ DOMAIN+ \. ALNUM+ [)>}]?
 * finds them, leftmost first: the match ends after the last ".tld" of the
 * domain and starts as far left as NAME bytes and blanks reach.
 */
static void file_emails(const char *t, size_t len, struct sbuf *list)
{
	struct sbuf one = SBUF_INIT;

	for (size_t pos = 0; pos < len;) {
		const char *atp = memchr(t + pos, '@', len - pos);
		if (!atp)
			break;
		size_t a = (size_t)(atp - t), q = a, r = a + 1, k = 0;
		while (q > pos && local_byte((unsigned char)t[q - 1]))
			q--;
		while (r < len && domain_byte((unsigned char)t[r]))
			r++;
		for (size_t i = r; i-- > a + 2;)
			if (i + 1 < r && t[i] == '.' && isalnum((unsigned char)t[i + 1])) {
				k = i;
				break;
			}
		if (q == a || !k) {
			pos = a + 1;
			continue;
		}
		size_t end = k + 1;
		while (end < len && isalnum((unsigned char)t[end]))
			end++;
		if (end < len && strchr(")>}", t[end]) && t[end])
			end++;
		/* Leftwards: [(<{]?, then \s* ,* \s* (states 0,1,2), then NAME*. */
		size_t p = q;
		if (p > pos && strchr("(<{", t[p - 1]) && t[p - 1])
			p--;
		unsigned states = 0xf; /* bit0: trailing ws, 1: commas, 2: ws, 3: name */
		while (p > pos) {
			unsigned char c = (unsigned char)t[p - 1];
			int ws = c == ' ' || (c >= '\t' && c <= '\r');
			unsigned next = 0;
			if ((states & 1) && ws)
				next |= 1 | 2 | 4 | 8;
			if ((states & 3) && c == ',')
				next |= 2 | 4 | 8;
			if ((states & 7) && ws)
				next |= 4 | 8;
			if (name_byte(c))
				next |= 8;
			if (!next)
				break;
			states = next;
			p--;
		}
		sb_setlen(&one, 0);
		clean_file_email(t + p, end - p, &one);
		if (!in_set(list, one.buf))
			sb_add(list, one.buf, one.len + 1);
		pos = end;
	}
	sb_release(&one);
}

/* ---- who gets a patch ----------------------------------------------------------
 * get_maintainers() of the script, for one set of files and keyword hits:
 * per file, the sections whose F:/N: match (no X: matching), deepest
 * pattern first (ties: file order, where the script's order is Perl's hash
 * order and so not stable); then the K: sections; then .mailmap and
 * de-duplication by name and by address; with --git-fallback, the history
 * of files no section maintains exactly; Linus dropped; the addresses
 * written in a .yaml file the patch touches; the signers of Fixes: commits.
 */

struct rcpt {
	char *email, *role;
};

struct query {
	struct maintainers *m;
	const struct cc_opts *o;
	struct rcpt *to, *lists;
	size_t nto, ato, nlists, alists;
	/* sets of lower-case names, addresses and lists (values empty);
	 * dedup pairs, lower-case name (dd[0]) or address (dd[1]) to the
	 * first "name\0addr" seen for it: memos, for a tree-wide group
	 * has hundreds */
	struct memo *seen_names, *seen_addrs, *seen_lists, *dd[2];
	size_t *added, stamp;   /* per section of the scan: stamp where
				 * this query added it and it warned of
				 * nothing (the scan's, reused by each) */
	int warned;             /* a warning since the last add */
};

static int memo_has(const struct memo *mo, const char *k)
{
	size_t kl = strlen(k);

	return memo_get(mo, k, kl) != NULL;
}

/* Puts s, lower-cased, in the set mo. */
static void memo_add_lc(struct memo **mo, const char *s)
{
	char *lc = xstrdup(s);
	size_t kl = strlen(lc);

	lower_ascii(lc);
	memo_put(mo, lc, kl, "", 0);
	free(lc);
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static void push_rcpt(struct rcpt **v, size_t *n, size_t *alloc,
		      const char *email, const char *role)
{
	GROW(*v, *n + 1, *alloc);
	(*v)[*n].email = xstrdup(email);
	(*v)[*n].role = xstrdup(role);
	(*n)++;
}

/* A name and an address as one memo value, "name\0addr": pair_get()
 * fills n and a from key's, and says whether there was one. */
static int pair_get(const struct memo *mo, const struct sbuf *key,
		    struct sbuf *n, struct sbuf *a)
{
	const struct memo_ent *e = memo_get(mo, key->buf, key->len);

	if (!e)
		return 0;
	sb_setlen(n, 0);
	sb_adds(n, e->val);
	sb_setlen(a, 0);
	sb_adds(a, e->val + n->len + 1);
	return 1;
}

static void pair_put(struct memo **mo, const struct sbuf *key,
		     const struct sbuf *n, const struct sbuf *a)
{
	struct sbuf v = SBUF_INIT;

	sb_add(&v, n->buf, n->len + 1);
	sb_add(&v, a->buf, a->len);
	memo_put(mo, key->buf, key->len, v.buf, v.len);
	sb_release(&v);
}

/* The memo's key of a step: its tag, then its input. */
static void memo_key(struct sbuf *key, char tag, const char *in, size_t len)
{
	sb_setlen(key, 0);
	sb_addc(key, tag);
	sb_add(key, in, len);
}

/* parse_email() through the memo (tag 'p'): a section's lines are read
 * once per file of a tree-wide plan.  With mapped, deduplicate_email()'s
 * step (tag 'c'): the name and address after .mailmap. */
static void canon_email(struct maintainers *m, const char *email, int mapped,
			struct sbuf *n, struct sbuf *a)
{
	struct sbuf key = SBUF_INIT, f = SBUF_INIT, mm = SBUF_INIT;

	memo_key(&key, mapped ? 'c' : 'p', email, strlen(email));
	if (!pair_get(m->canon, &key, n, a)) {
		parse_email(email, n, a);
		if (mapped) {
			format_email(&f, n->buf, a->buf, 1);
			mailmap_email(m, &mm, f.buf);
			parse_email(mm.buf, n, a);
		}
		pair_put(&m->canon, &key, n, a);
	}
	sb_release(&key);
	sb_release(&f);
	sb_release(&mm);
}

static int push_email_address(struct query *q, const char *line,
			      const char *role)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT, lc = SBUF_INIT, f = SBUF_INIT;
	int r = 0;

	canon_email(q->m, line, 0, &n, &a);
	if (a.len) {
		r = 1;
		int inuse = 0;
		if (n.len) {
			sb_adds(&lc, n.buf);
			lower_ascii(lc.buf);
			inuse = memo_has(q->seen_names, lc.buf);
		}
		sb_setlen(&lc, 0);
		sb_adds(&lc, a.buf);
		lower_ascii(lc.buf);
		inuse = inuse || memo_has(q->seen_addrs, lc.buf);
		if (!inuse) {
			format_email(&f, n.buf, a.buf, 1);
			push_rcpt(&q->to, &q->nto, &q->ato, f.buf, role);
			if (n.len)
				memo_add_lc(&q->seen_names, n.buf);
			memo_add_lc(&q->seen_addrs, a.buf);
		}
	}
	sb_release(&n);
	sb_release(&a);
	sb_release(&lc);
	sb_release(&f);
	return r;
}

/* The next part of an M:/R: value from *pos: up to a comma outside
 * double quotes.  0 after the last (*pos NULL). */
static int next_address(const char **pos, struct span *part)
{
	const char *p = *pos;
	int quoted = 0;

	if (!p)
		return 0;
	for (part->p = p; *p && (*p != ',' || quoted); p++)
		if (*p == '"')
			quoted = !quoted;
	part->len = (size_t)(p - part->p);
	*pos = *p ? p + 1 : NULL;
	return 1;
}

/* Several addresses on one M:/R: line, comma-separated, each with an '@';
 * anything else is one address (the script's rfc822 checks, in effect). */
static void push_email_addresses(struct query *q, const char *value,
				 const char *role)
{
	struct sbuf part = SBUF_INIT;
	struct span pt;
	int all_have_at = 1, parts = 0;
	const char *pos = value;

	while (next_address(&pos, &pt)) {
		all_have_at &= memchr(pt.p, '@', pt.len) != NULL;
		parts++;
	}
	if (parts > 1 && all_have_at) {
		for (pos = value; next_address(&pos, &pt);) {
			sb_setlen(&part, 0);
			sb_add(&part, pt.p, pt.len);
			trim(&part);
			push_email_address(q, part.buf, role);
		}
	} else if (!push_email_address(q, value, role)) {
		warning("invalid MAINTAINERS address: '%s'", value);
		q->warned = 1;
	}
	sb_release(&part);
}

/* The next tag line of a section from *pos: its type, and its value in v.
 * 0 at the section's end. */
static int section_tag(const struct maintainers *m, const struct msec *sec,
		       size_t *pos, char *type, struct sbuf *v)
{
	while (*pos < sec->end) {
		const char *p = m->text + *pos;
		const char *nl = memchr(p, '\n', sec->end - *pos);
		size_t n = nl ? (size_t)(nl - p) : sec->end - *pos;
		*pos += n + (nl ? 1 : 0);
		if (!is_tag(p, n))
			continue;       /* a blank or comment line */
		size_t i = tag_value(p, n);
		*type = p[0];
		sb_setlen(v, 0);
		sb_add(v, p + i, n - i);
		return 1;
	}
	return 0;
}

/* get_subsystem_name(): the title, cut to 50 bytes as the script cuts it.
 * A title that is a tag line reads as the script holds it: "X:value". */
static void subsystem_name(const struct maintainers *m, const struct msec *sec,
			   struct sbuf *out)
{
	sb_setlen(out, 0);
	if (sec->tag_title) {
		struct sbuf v = SBUF_INIT;
		size_t pos = sec->body;
		char type = 0;
		section_tag(m, sec, &pos, &type, &v);
		sb_addf(out, "%c:", type);
		if (type == 'F' || type == 'X')
			perl_glob(out, v.buf);
		else
			sb_add(out, v.buf, v.len);
		sb_release(&v);
	} else {
		sb_add(out, m->text + sec->title, sec->tlen);
	}
	if (out->len > 50) {
		sb_setlen(out, 47);
		while (out->len && is_space((unsigned char)out->buf[out->len - 1]))
			sb_setlen(out, out->len - 1);
		sb_adds(out, "...");
	}
}

/* The section's status (its last S: line) as a role, with its name sub. */
static void maintainer_role(const struct maintainers *m, const struct msec *sec,
			    const char *sub, struct sbuf *out)
{
	static const char *const map[][2] = {
		{ "supported", "supporter" }, { "maintained", "maintainer" },
		{ "odd fixes", "odd fixer" }, { "orphan", "orphan minder" },
		{ "obsolete", "obsolete minder" },
		{ "buried alive in reporters", "chief penguin" } };
	struct sbuf role = SBUF_INIT, v = SBUF_INIT;
	size_t pos = sec->cats;
	char type;

	sb_adds(&role, "unknown");
	while (section_tag(m, sec, &pos, &type, &v))
		if (type == 'S') {
			sb_setlen(&role, 0);
			sb_add(&role, v.buf, v.len);
		}
	lower_ascii(role.buf);
	sb_setlen(out, 0);
	const char *r = role.buf;
	for (size_t k = 0; k < sizeof map / sizeof *map; k++)
		if (!strcmp(r, map[k][0]))
			r = map[k][1];
	sb_addf(out, "%s:%s", r, sub);
	sb_release(&role);
	sb_release(&v);
}

static void add_list(struct query *q, const char *sub, const char *v)
{
	struct sbuf addr = SBUF_INIT, lc = SBUF_INIT;
	const char *sp = v, *extra = "";

	while (*sp && !is_space((unsigned char)*sp))
		sp++;
	sb_add(&addr, v, (size_t)(sp - v));
	if (*sp) {
		extra = sp;
		while (is_space((unsigned char)*extra))
			extra++;
	}
	int rest = !strcmp(sub, "THE REST");
	const char *kind = str_find(extra, "subscribers-only") ?
		(q->o->s ? "subscriber list" : NULL) :
		!q->o->l ? NULL :
		str_find(extra, "moderated") ?
		(q->o->moderated ? "moderated list" : NULL) :
		"open list";
	sb_add(&lc, addr.buf, addr.len);
	lower_ascii(lc.buf);
	if (kind && !memo_has(q->seen_lists, lc.buf)) {
		memo_add_lc(&q->seen_lists, addr.buf);
		struct sbuf r = SBUF_INIT;
		sb_addf(&r, "%s%s%s", kind, rest ? "" : ":", rest ? "" : sub);
		push_rcpt(&q->lists, &q->nlists, &q->alists, addr.buf, r.buf);
		sb_release(&r);
	}
	sb_release(&addr);
	sb_release(&lc);
}

/* add_categories(): the lists, maintainers and reviewers of a section. */
static void add_categories(struct query *q, const struct msec *sec)
{
	const struct maintainers *m = q->m;
	struct sbuf sub = SBUF_INIT, mrole = SBUF_INIT, rrole = SBUF_INIT,
		    v = SBUF_INIT;
	size_t pos = sec->cats;
	char type;

	/* the section's name and roles, once for all its lines */
	subsystem_name(m, sec, &sub);
	sb_addf(&rrole, "reviewer:%s", sub.buf);
	while (section_tag(m, sec, &pos, &type, &v)) {
		if (type == 'L') {
			add_list(q, sub.buf, v.buf);
		} else if (type == 'M' && q->o->m) {
			if (!mrole.len)
				maintainer_role(m, sec, sub.buf, &mrole);
			push_email_addresses(q, v.buf, mrole.buf);
		} else if (type == 'R' && q->o->r) {
			push_email_addresses(q, v.buf, rrole.buf);
		}
	}
	sb_release(&sub);
	sb_release(&mrole);
	sb_release(&rrole);
	sb_release(&v);
}

/* A section the query has added once adds nothing again: every address
 * and list of it is in the seen sets, which only grow.  So each is added
 * once, unless it warned (the script warns as often as it adds). */
static void add_section(struct query *q, const struct scan *s, size_t sec)
{
	if (q->added[sec] == q->stamp)
		return;
	q->warned = 0;
	add_categories(q, &s->sec[sec]);
	q->added[sec] = q->warned ? 0 : q->stamp;
}

/* add_role(): appends role to every entry of that name or address. */
static void add_role(struct query *q, const char *email, const char *role)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT, en = SBUF_INIT, ea = SBUF_INIT;

	parse_email(email, &n, &a);
	for (size_t i = 0; i < q->nto; i++) {
		parse_email(q->to[i].email, &en, &ea);
		if ((strcmp(n.buf, en.buf) && strcmp(a.buf, ea.buf)) ||
		    (*role && str_find(q->to[i].role, role)))
			continue;
		struct sbuf r = SBUF_INIT;
		sb_addf(&r, "%s%s%s", q->to[i].role, *q->to[i].role ? "," : "",
			role);
		free(q->to[i].role);
		q->to[i].role = sb_detach(&r, NULL);
	}
	sb_release(&n);
	sb_release(&a);
	sb_release(&en);
	sb_release(&ea);
}

/* The memo's last step of deduplicate_email() (tag 'f'): a name and an
 * address to the line .mailmap makes of them. */
static char *final_email(struct maintainers *m, const struct sbuf *n,
			 const struct sbuf *a)
{
	struct sbuf key = SBUF_INIT, f = SBUF_INIT, mm = SBUF_INIT;

	memo_key(&key, 'f', n->buf, n->len + 1);
	sb_add(&key, a->buf, a->len);
	const struct memo_ent *e = memo_get(m->canon, key.buf, key.len);
	if (e) {
		sb_add(&mm, e->val, e->vlen);
	} else {
		format_email(&f, n->buf, a->buf, 1);
		mailmap_email(m, &mm, f.buf);
		memo_put(&m->canon, key.buf, key.len, mm.buf, mm.len);
	}
	sb_release(&key);
	sb_release(&f);
	return sb_detach(&mm, NULL);
}

/* deduplicate_email(): the first (name, address) seen for a name or an
 * address stands for every later one. */
static void deduplicate_email(struct query *q, char **email)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT, lc = SBUF_INIT;
	int matched = 0;

	canon_email(q->m, *email, 1, &n, &a);
	for (int t = 0; t < 2 && !matched; t++) {
		if (t == 0 && !n.len)
			continue;
		sb_setlen(&lc, 0);
		sb_adds(&lc, t ? a.buf : n.buf);
		lower_ascii(lc.buf);
		/* The script reads the address back through the name it
		 * just replaced: same entry here. */
		matched = pair_get(q->dd[t], &lc, &n, &a);
	}
	for (int t = 0; !matched && t < 2; t++) {
		sb_setlen(&lc, 0);
		sb_adds(&lc, t ? a.buf : n.buf);
		lower_ascii(lc.buf);
		pair_put(&q->dd[t], &lc, &n, &a);
	}
	free(*email);
	*email = final_email(q->m, &n, &a);
	sb_release(&n);
	sb_release(&a);
	sb_release(&lc);
}

/* ---- history ---------------------------------------------------------------
 * History, as the script's vcs_* functions read it: `git log` in the tree's
 * top, its lines stripped of leading blanks and empty ones dropped.  Used
 * for --git-fallback (a file no section maintains exactly gets its recent
 * signers, authors and the authors of its changed lines) and for a patch's
 * Fixes: lines (the fixed commit's signers).  Where the tree is no git work
 * tree, or git cannot run, there is no history, as in the script.
 */

static const char *const signature_tags[] = {
	"Signed-off-by:", "Reviewed-by:", "Acked-by:"
};

#define LOG_FORMAT "--format=GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate: %aD%n" \
		   "GitSubject: %s%n%b%n"

struct history {
	struct sbuf text;       /* git's output, lines cut in place */
	char **line;
	size_t nline, aline;
	size_t commits;
	char **signers, **authors;      /* formatted and de-duplicated */
	size_t nsigners, asigners, nauthors, aauthors;
	size_t *added, *removed;        /* per author, when every commit's
					   numstat line was found */
};

#define HISTORY_INIT { SBUF_INIT, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, 0, \
		       NULL, NULL }

static int has_history(const struct maintainers *m)
{
	struct sbuf dotgit = SBUF_INIT;
	struct stat st;

	sb_addf(&dotgit, "%s/.git", m->top);
	int r = !lstat(dotgit.buf, &st);
	sb_release(&dotgit);
	return r;
}

/* h->text (git log's output) cut into h's lines. */
static void log_lines(struct history *h)
{
	const char *pos = h->text.buf, *end = pos + h->text.len;
	for (struct span l; next_line(&pos, end, &l);) {
		struct span t = trim_span(l);
		if (!t.len)
			continue;
		char *p = (char *)t.p;   /* the buffer is ours: lines in place */
		p[l.p + l.len - t.p] = '\0';
		GROW(h->line, h->nline + 1, h->aline);
		h->line[h->nline++] = p;
	}
}

/* Runs git log with words in the top; 0 with its lines in h, or -1. */
static int read_log(const struct maintainers *m, const char *const *words,
		    struct history *h)
{
	if (run_git(&(struct git_run){ .words = words, .dir = m->top,
				       .out = &h->text, .quiet = 1 }) != 0)
		return -1;
	log_lines(h);
	return 0;
}

static int is_signature(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	for (size_t i = 0; i < sizeof signature_tags / sizeof *signature_tags; i++)
		if (!strncmp(l, signature_tags[i], strlen(signature_tags[i])))
			return strchr(l, '@') != NULL;
	return 0;
}

/* extract_formatted_signatures(): what follows the last ':' that has
 * something after it (the script's s/\s*.*:\s*(.+)\s*\/$1/), then
 * de-duplicated. */
static char *signature_email(struct query *q, const char *l)
{
	const char *colon = NULL;

	for (const char *p = l; *p; p++)
		if (*p == ':' && p[1])
			colon = p;
	const char *v = colon ? colon + 1 : l;
	while (is_space((unsigned char)*v) && v[1])
		v++;
	char *email = xstrdup(v);
	deduplicate_email(q, &email);
	return email;
}

static int hex40(const char *s)
{
	for (int i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Whether line names a chief penguin, as the script's /(NAME|...)/i. */
static int names_chief(const struct maintainers *m, const char *line)
{
	for (size_t i = 0; i < m->nchief; i++)
		if (strcasestr_ascii(line, m->chief[2 * i]))
			return 1;
	return 0;
}

/* vcs_find_signers(): commits, signers (not a chief penguin) and authors
 * of the log, and with file, each commit's numstat line of it. */
static void find_signers(struct query *q, struct history *h, const char *file)
{
	size_t nstats = 0, fl = file ? strlen(file) : 0;
	char **stats = xcalloc(h->nline + 1, sizeof *stats);
	char **authors = xcalloc(h->nline + 1, sizeof *authors);
	size_t na = 0;

	for (size_t i = 0; i < h->nline; i++) {
		const char *l = h->line[i];
		if (starts_with(l, NULL, "GitCommit: ") && hex40(l + 11))
			h->commits++;
		else if (starts_with(l, NULL, "GitAuthor: "))
			authors[na++] = h->line[i];
		else if (is_signature(l) && !names_chief(q->m, l)) {
			GROW(h->signers, h->nsigners + 1, h->asigners);
			h->signers[h->nsigners++] = h->line[i];
		}
		/* ^(\d+)\t(\d+)\t$file$ */
		const char *p = l;
		size_t d1 = strspn(p, "0123456789");
		size_t d2 = d1 && p[d1] == '\t' ? strspn(p + d1 + 1, "0123456789") : 0;
		if (file && d2 && p[d1 + 1 + d2] == '\t' &&
		    !strcmp(p + d1 + d2 + 2, file) && fl)
			stats[nstats++] = h->line[i];
	}
	if (!h->nsigners)
		h->commits = 0;
	/* The script reads the authors first, then the signers. */
	for (size_t i = 0; i < na; i++) {
		GROW(h->authors, h->nauthors + 1, h->aauthors);
		h->authors[h->nauthors++] = signature_email(q, authors[i]);
	}
	/* and both of the script's callers de-duplicate signers again */
	for (size_t i = 0; i < h->nsigners; i++) {
		h->signers[i] = signature_email(q, h->signers[i]);
		deduplicate_email(q, &h->signers[i]);
	}
	if (file && na && na == nstats) {
		h->added = xcalloc(na, sizeof *h->added);
		h->removed = xcalloc(na, sizeof *h->removed);
		for (size_t i = 0; i < na; i++) {
			char *end;
			h->added[i] = (size_t)scan_number(stats[i], &end, 10);
			h->removed[i] = (size_t)scan_number(end + 1, NULL, 10);
		}
	}
	free(stats);
	free(authors);
}

static void history_release(struct history *h)
{
	for (size_t i = 0; i < h->nsigners; i++)
		free(h->signers[i]);
	for (size_t i = 0; i < h->nauthors; i++)
		free(h->authors[i]);
	free(h->signers);
	free(h->authors);
	free(h->line);
	free(h->added);
	free(h->removed);
	sb_release(&h->text);
}

struct tally {
	char *email;
	size_t count;
};

static int cmp_tally(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->email, y->email);
}

/* The script's sprintf("%.0f", min(100, hundred / divisor)): to the
 * nearest, a half to the even one, as C's and perl's printf round. */
static size_t percent_of(size_t hundred, size_t divisor)
{
	size_t q = hundred / divisor, r = hundred % divisor;

	q += 2 * r > divisor || (2 * r == divisor && q % 2);
	return q > 100 ? 100 : q;
}

/* vcs_assign(): the addresses of lines (each counted weight[i] times, or
 * once) by count, most first (ties: in byte order, where the script's
 * order is Perl's hash order), while they have --git-min-signatures (1),
 * --git-min-percent of divisor (5), and are among the first
 * --git-max-maintainers (5) - or tie with the last of those: where
 * the cut falls inside a tie the script keeps whichever its hash order
 * puts first, a different person from run to run (on Xen's
 * printk_ratelimit patch, 3 of 4 reviewers of lib.h), so series keeps
 * them all and never leaves out one the script can name. */
static void vcs_assign(struct query *q, const char *role, size_t divisor,
		       char *const *lines, const size_t *weight, size_t n)
{
	struct tally *t = xcalloc(n ? n : 1, sizeof *t);
	size_t nt = 0, count = 0;
	struct sbuf r = SBUF_INIT;

	if (!divisor)
		divisor = 1;
	for (size_t i = 0; i < n; i++) {
		if (weight && !weight[i])
			continue;
		struct sbuf mm = SBUF_INIT;
		mailmap_email(q->m, &mm, lines[i]);
		size_t k;
		for (k = 0; k < nt && strcmp(t[k].email, mm.buf); k++)
			;
		if (k == nt)
			t[nt++].email = sb_detach(&mm, NULL);
		else
			sb_release(&mm);
		t[k].count += weight ? weight[i] : 1;
	}
	sort_n(t, nt, sizeof *t, cmp_tally);
	size_t fifth = 0;
	for (size_t i = 0; i < nt; i++) {
		size_t hundred = t[i].count * 100;
		if (in_set(&q->m->ignore, t[i].email))
			continue;
		const struct cc_opts *o = q->o;
		if (t[i].count < (size_t)o->git_min_sign ||
		    (++count > (size_t)o->git_max_maint && t[i].count != fifth) ||
		    hundred < (size_t)o->git_min_percent * divisor)
			break;
		if (count == (size_t)o->git_max_maint)
			fifth = t[i].count;
		push_email_address(q, t[i].email, "");
		sb_setlen(&r, 0);
		if (q->o->roles)
			sb_addf(&r, "%s:%zu/%zu=%zu%%", role, t[i].count, divisor,
				percent_of(hundred, divisor));
		else
			sb_adds(&r, role);
		add_role(q, t[i].email, r.buf);
	}
	for (size_t i = 0; i < nt; i++)
		free(t[i].email);
	free(t);
	sb_release(&r);
}

/* git log's words for vcs_file_signoffs(), since (a buffer of 48) made
 * from --git-since. */
static void signoffs_words(const char **w, char *since, const struct cc_opts *o,
			   const char *file)
{
	const char *words[] = { "-c", "core.quotePath=true", "log", "--no-color",
		"--follow", since, "--numstat", "--no-merges",
		LOG_FORMAT, "--", file, NULL };

	fmt_buf(since, 48, "--since=%s", o->git_since);
	memcpy(w, words, sizeof words);
}

/* vcs_file_signoffs(): the file's history since --git-since, from s's
 * prefetched logs (or git, where it was not read). */
static void file_signoffs(struct scan *s, struct query *q, const char *file)
{
	const char *words[12];
	char since[48];
	struct history h = HISTORY_INIT;
	size_t fi = file_index(s, file);
	int ok;

	/* the prefetched log is copied: log_lines() cuts lines in place */
	if (s->hist && fi < s->nfile && s->hist_ok[fi] < 2) {
		ok = s->hist_ok[fi];
		sb_add(&h.text, s->hist[fi].buf, s->hist[fi].len);
		log_lines(&h);
	} else {
		signoffs_words(words, since, q->o, file);
		ok = read_log(q->m, words, &h) == 0;
	}
	if (ok) {
		find_signers(q, &h, file);
		vcs_assign(q, "commit_signer", h.commits, h.signers, NULL,
			   h.nsigners);
		vcs_assign(q, "authored", h.commits, h.authors, NULL, h.nauthors);
		if (h.added) {
			size_t added = 0, removed = 0;
			for (size_t i = 0; i < h.nauthors; i++) {
				added += h.added[i];
				removed += h.removed[i];
			}
			vcs_assign(q, "added_lines", added, h.authors, h.added,
				   h.nauthors);
			vcs_assign(q, "removed_lines", removed, h.authors,
				   h.removed, h.nauthors);
		}
	}
	history_release(&h);
}

/* vcs_add_commit_signers(): the signers of a commit a Fixes: line names. */
static void fixes_signers(struct query *q, const char *commit)
{
	const char *words[] = { "log", "--no-color", "--numstat", LOG_FORMAT,
		"-1", commit, "--", NULL };
	struct history h = HISTORY_INIT;

	if (read_log(q->m, words, &h) == 0) {
		find_signers(q, &h, NULL);
		vcs_assign(q, "blamed_fixes", 1, h.signers, NULL, h.nsigners);
	}
	history_release(&h);
}

/* ---- the answer --------------------------------------------------------------
 * One query's recipients from the hits of the pass (answer), and the one
 * entry point, maintainers_query(), that every caller asks: a set of files,
 * the patch's keyword text and its Fixes: commits in, the recipients out.
 */

/* Sections of the keyword hits of one query, as the script sorts the K:
 * lines' indices: as strings, each once. */
struct kwsec {
	char idx[24];
	size_t sec;
};

static int cmp_kwsec(const void *a, const void *b)
{
	return strcmp(((const struct kwsec *)a)->idx,
		      ((const struct kwsec *)b)->idx);
}

static void keyword_sections(struct scan *s, struct query *q, size_t qi)
{
	struct kwsec *k = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < s->nkh; i++)
		if (s->kh[i].query == qi) {
			GROW(k, n + 1, alloc);
			fmt_buf(k[n].idx, sizeof k[n].idx, "%zu", s->kh[i].idx);
			k[n++].sec = s->kh[i].sec;
		}
	sort_n(k, n, sizeof *k, cmp_kwsec);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(k[i].idx, k[i - 1].idx))
			add_section(q, s, k[i].sec);
	free(k);
}

/* range_is_maintained() and range_has_maintainer() of the script. */
static int section_maintained(const struct maintainers *m,
			      const struct msec *sec)
{
	struct sbuf v = SBUF_INIT;
	size_t pos = sec->body;
	int s = 0, has_m = 0;
	char type;

	while (section_tag(m, sec, &pos, &type, &v)) {
		if (type == 'S' && (strcasestr_ascii(v.buf, "maintain") ||
				    strcasestr_ascii(v.buf, "support")))
			s = 1;
		has_m |= type == 'M';
	}
	sb_release(&v);
	return s && has_m;
}

static void query_release(struct query *q)
{
	for (size_t i = 0; i < q->nto; i++) {
		free(q->to[i].email);
		free(q->to[i].role);
	}
	for (size_t i = 0; i < q->nlists; i++) {
		free(q->lists[i].email);
		free(q->lists[i].role);
	}
	free(q->to);
	free(q->lists);
	memo_free(q->seen_names);
	memo_free(q->seen_addrs);
	memo_free(q->seen_lists);
	memo_free(q->dd[0]);
	memo_free(q->dd[1]);
}

/* Whether a file named whole (cc -f, a work tree's) is searched for K:
 * lines: the script skips MAINTAINERS, the file of those lines. */
static int keyword_searched(const char *path)
{
	return strcmp(path, "MAINTAINERS") != 0;
}

/* Reads top/file if it is a regular file; returns 0 or -1. */
static int read_tree_file(const struct maintainers *m, const char *file,
			  struct sbuf *out)
{
	struct sbuf path = SBUF_INIT;
	struct stat st;
	int r = -1;

	sb_addf(&path, "%s/%s", m->top, file);
	if (!stat(path.buf, &st) && S_ISREG(st.st_mode))
		r = sb_read_file(out, path.buf);
	sb_release(&path);
	return r;
}

/* The script's $exact_pattern_match_hash: an F: as deep as the file in a
 * maintained section with an M: line. */
static int exactly_maintained(const struct scan *s, size_t fi)
{
	for (size_t h = first_hit(s, fi); h < s->nfh && s->fh[h].file == fi; h++)
		if (s->fh[h].deep &&
		    section_maintained(s->m, &s->sec[s->fh[h].sec]))
			return 1;
	return 0;
}

/* The sections of each file, in the script's order (its hits are sorted
 * by file, deepest pattern first); a .yaml binding's in-file addresses go
 * to femails. */
static void file_sections(struct scan *s, struct query *q,
			  const struct cc_query *cq, struct sbuf *femails)
{
	struct sbuf text = SBUF_INIT;

	for (size_t i = 0; i < cq->nfile; i++) {
		const char *file = cq->file[i];
		size_t fi = file_index(s, file);
		for (size_t h = first_hit(s, fi); h < s->nfh && s->fh[h].file == fi; h++)
			add_section(q, s, s->fh[h].sec);
		if (has_suffix(file, ".yaml") && !has_suffix(file, "MAINTAINERS")) {
			sb_setlen(&text, 0);
			if (!read_tree_file(s->m, file, &text))
				file_emails(text.buf, text.len, femails);
		}
	}
	sb_release(&text);
}

/* Whether file fi's history is read: --git, every file's; --git-fallback,
 * those of the files no section maintains exactly. */
static int file_wants_history(const struct scan *s, const struct cc_opts *o,
			      size_t fi)
{
	return o->git || (o->git_fallback &&
			  !has_suffix(s->file[fi], "MAINTAINERS") &&
			  !exactly_maintained(s, fi));
}

enum { HIST_JOBS = 4 };

/* Whether find_signers() may read the trimmed line t: LOG_FORMAT's own
 * "Git...", one with an address, a numstat's, and any other that starts
 * so. */
static int signer_line(struct span t)
{
	return t.len && (memchr(t.p, '@', t.len) || *t.p == 'G' ||
			 isdigit((unsigned char)*t.p));
}

/* Of git log's output, onto out, trimmed, the lines find_signers() may
 * read: a year of a busy file's log is mostly commit messages, and every
 * file's log is held until the answers are made. */
static void keep_signer_lines(const struct sbuf *log, struct sbuf *out)
{
	const char *pos = log->buf, *end = log->buf + log->len;

	for (struct span l; next_line(&pos, end, &l);) {
		struct span t = trim_span(l);
		if (signer_line(t)) {
			sb_add(out, t.p, t.len);
			sb_addc(out, '\n');
		}
	}
}

/* Whether l is a line of --summary (" create mode 100644 PATH"). */
static int summary_line(struct span l)
{
	static const char *const kind[] = { " create mode ", " delete mode ",
		" mode change ", " rename ", " copy " };

	for (size_t i = 0; i < sizeof kind / sizeof *kind; i++)
		if (starts_with(l.p, l.p + l.len, kind[i]))
			return 1;
	return 0;
}

/* The path of a numstat line "ADDED TAB REMOVED TAB PATH" (each count
 * digits, or "-" for a binary file); p NULL where l is not one. */
static struct span numstat_path(struct span l)
{
	size_t at = 0;

	for (int field = 0; field < 2; field++) {
		size_t d = at;
		if (d < l.len && l.p[d] == '-')
			d++;
		else
			while (d < l.len && isdigit((unsigned char)l.p[d]))
				d++;
		if (d == at || d >= l.len || l.p[d] != '\t')
			return (struct span){ NULL, 0 };
		at = d + 1;
	}
	return (struct span){ l.p + at, l.len - at };
}

/* The file of s that is the len bytes at p, and that mode[] marks with
 * want; else s->nfile. */
static size_t wanted_file(const struct scan *s, const char *mode, int want,
			  struct span p)
{
	size_t lo = 0, hi = s->nfile;

	BSEARCH(lo, hi, mid, cmp_bytes(s->file[mid], p.p, p.len) < 0);
	return lo < s->nfile && !cmp_bytes(s->file[lo], p.p, p.len) &&
	       mode[lo] == want ? lo : s->nfile;
}

/*
 * One log of many files (joint_words()) read as a log of each: a commit
 * block "GitCommit: ..." up to the next is a commit of each file its
 * numstat lines name, which gets the block's signer lines and its own
 * numstat line, as its own git log --follow gives them.  That holds
 * because --follow turns off the history's pruning (revision.c: "Can't
 * prune commits with rename following") as --full-history does, and
 * --no-merges shows the same commits.  A file some commit of the window
 * creates (" create mode", --no-renames making a rename one) may have had
 * another name, where --follow goes on (it looks for a copy's source in
 * the whole tree before: a file the commit only changed may be one), so
 * it is marked 2, for its own log.
 */
static void split_joint_log(struct scan *s, const struct sbuf *log, char *mode)
{
	const char *pos = log->buf, *end = pos + log->len;
	struct sbuf keep = SBUF_INIT;
	size_t *hit = NULL, nhit = 0, ahit = 0;
	struct span *stat = NULL;

	for (struct span l; pos < end || nhit; ) {
		int more = next_line(&pos, end, &l);
		if (!more || starts_with(l.p, l.p + l.len, "GitCommit: ")) {
			for (size_t k = 0; k < nhit; k++) {
				sb_add(&s->hist[hit[k]], keep.buf, keep.len);
				sb_add(&s->hist[hit[k]], stat[k].p, stat[k].len);
				sb_addc(&s->hist[hit[k]], '\n');
			}
			sb_setlen(&keep, 0);
			nhit = 0;
			if (!more)
				break;
		}
		struct span p = numstat_path(l), t = trim_span(l);
		size_t fi;
		if (starts_with(l.p, l.p + l.len, " create mode ") && t.len > 19 &&
		    (fi = wanted_file(s, mode, 1, (struct span){ t.p + 19,
							t.len - 19 })) < s->nfile)
			mode[fi] = 2;
		else if (p.p && (fi = wanted_file(s, mode, 1, p)) < s->nfile) {
			GROW(hit, nhit + 1, ahit);
			stat = xrealloc(stat, ahit * sizeof *stat);
			hit[nhit] = fi;
			stat[nhit++] = t;
		} else if (!p.p && signer_line(t) && !summary_line(l)) {
			sb_add(&keep, t.p, t.len);
			sb_addc(&keep, '\n');
		}
	}
	sb_release(&keep);
	free(hit);
	free(stat);
}

/* The words of one git log of files[0..n) since --git-since (a buffer of
 * 48), malloc'd (the strings not). */
static const char **joint_words(char *since, const struct cc_opts *o,
				char *const *files, size_t n)
{
	static const char *const head[] = { "-c", "core.quotePath=true",
		"log", "--no-color", "--full-history", "--no-renames", NULL,
		"--numstat", "--summary", "--no-merges", LOG_FORMAT, "--" };
	size_t nh = sizeof head / sizeof *head;
	const char **w = xcalloc(nh + n + 1, sizeof *w);

	memcpy(w, head, sizeof head);
	fmt_buf(since, 48, "--since=%s", o->git_since);
	w[6] = since;
	memcpy(w + nh, files, n * sizeof *files);
	return w;
}

/* Whether a joint log gives path's history as its own log does: git
 * writes the path as it is in a numstat line (core.quotePath quotes the
 * others, which find_signers() then does not match), as a pathspec it
 * names only itself (no glob, no ":(magic)"), and it is no directory of
 * the tree below top (-f DIR: its own log is of all below). */
static int joint_path(const char *top, const char *path)
{
	struct sbuf full = SBUF_INIT;
	struct stat st;

	if (*path == ':')
		return 0;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || strchr("\"\\*?[", *p))
			return 0;
	sb_addf(&full, "%s/%s", top, path);
	int dir = lstat(full.buf, &st) == 0 && S_ISDIR(st.st_mode);
	sb_release(&full);
	return !dir;
}

/* The files of s whose history is read, mode[i] 1 where one joint log
 * may give it, 2 where it needs its own; how many of each. */
static void history_modes(const struct scan *s, const struct cc_opts *o,
			  char *mode, size_t *njoint)
{
	*njoint = 0;
	for (size_t i = 0; i < s->nfile; i++)
		if (file_wants_history(s, o, i)) {
			mode[i] = joint_path(s->m->top, s->file[i]) ? 1 : 2;
			*njoint += mode[i] == 1;
		}
	if (*njoint < 2)        /* one file: its own log is as cheap */
		for (size_t i = 0; i < s->nfile; i++)
			if (mode[i] == 1)
				mode[i] = 2, --*njoint;
}

/* A joint log's paths stay well inside the kernel's 2 MB of arguments. */
enum { JOINT_BYTES = 256 * 1024 };

/* The logs of the files mode[] marks 1, in joint logs of neighbouring
 * files, HIST_JOBS or more (git's walk costs less the fewer paths it
 * matches; each at most JOINT_BYTES of paths), HIST_JOBS at a time; where
 * one fails, its files are marked 2. */
static void joint_histories(struct scan *s, const struct cc_opts *o,
			    char *mode, size_t njoint)
{
	struct git_bg job[HIST_JOBS];
	char since[HIST_JOBS][48];
	size_t from[HIST_JOBS + 1], bytes = 0, nf = 0;
	char **files = xcalloc(njoint + 1, sizeof *files);

	for (size_t i = 0; i < s->nfile; i++)
		if (mode[i] == 1)
			bytes += strlen(files[nf++] = s->file[i]) + 1;
	size_t parts = bytes / JOINT_BYTES + 1;
	parts = parts < HIST_JOBS ? HIST_JOBS : parts;
	size_t per = (nf + parts - 1) / parts;
	for (size_t at = 0; at < nf; ) {
		size_t n = 0;
		for (; n < HIST_JOBS && at < nf; n++, at += per) {
			size_t k = nf - at < per ? nf - at : per;
			from[n] = at;
			job[n] = (struct git_bg){ .run = { .quiet = 1,
						.dir = s->m->top } };
			bg_start(&job[n], tmp_dir(),
				 joint_words(since[n], o, files + at, k));
		}
		from[n] = at < nf ? at : nf;
		for (size_t j = 0; j < n; j++) {
			struct sbuf log = SBUF_INIT;
			if (job[j].started && bg_finish(&job[j], &log) == 0)
				split_joint_log(s, &log, mode);
			else
				for (size_t k = from[j]; k < from[j + 1]; k++)
					mode[file_index(s, files[k])] = 2;
			sb_release(&log);
		}
	}
	for (size_t i = 0; i < s->nfile; i++)
		if (mode[i] == 1)
			s->hist_ok[i] = 1;
	free(files);
}

/* The logs of the files mode[] marks 2, each its own git log --follow,
 * HIST_JOBS at a time. */
static void own_histories(struct scan *s, const struct cc_opts *o,
			  const char *mode)
{
	struct git_bg job[HIST_JOBS];
	size_t who[HIST_JOBS], next = 0;
	char since[HIST_JOBS][48];

	while (next < s->nfile) {
		size_t n = 0;
		for (; n < HIST_JOBS && next < s->nfile; next++) {
			if (mode[next] != 2)
				continue;
			const char **w = xcalloc(12, sizeof *w);
			signoffs_words(w, since[n], o, s->file[next]);
			job[n] = (struct git_bg){ .run = { .quiet = 1,
						.dir = s->m->top } };
			if (bg_start(&job[n], tmp_dir(), w) == 0)
				who[n++] = next;
			else            /* file_signoffs() runs it then */
				s->hist_ok[next] = 2;
		}
		for (size_t j = 0; j < n; j++) {
			struct sbuf log = SBUF_INIT;
			s->hist_ok[who[j]] = bg_finish(&job[j], &log) == 0;
			sb_setlen(&s->hist[who[j]], 0);
			keep_signer_lines(&log, &s->hist[who[j]]);
			sb_release(&log);
		}
	}
}

/* The logs of every file some query wants history of, each read once
 * before the answers: one git log --follow per file took 0.13 s on
 * U-Boot (whose conf asks --git of every file), and a cover letter's
 * query asked again for every file of its patches.  Most come from a
 * few joint logs (the 217 files of 30 U-Boot series: 14 s of logs per
 * file, 2 s joint), the rest from their own. */
static void prefetch_histories(struct scan *s, const struct cc_opts *o)
{
	char *mode = xcalloc(s->nfile + 1, 1);
	size_t njoint;

	s->hist = xcalloc(s->nfile + 1, sizeof *s->hist);
	s->hist_ok = xcalloc(s->nfile + 1, 1);
	for (size_t i = 0; i < s->nfile; i++)
		sb_init(&s->hist[i]);
	history_modes(s, o, mode, &njoint);
	if (njoint)
		joint_histories(s, o, mode, njoint);
	own_histories(s, o, mode);
	free(mode);
}

/* The signers, authors and authors of the lines of each of cq's files
 * that wants them. */
static void history_signers(struct scan *s, struct query *q,
			    const struct cc_query *cq)
{
	const struct cc_opts *o = q->o;

	for (size_t i = 0; i < cq->nfile; i++)
		if (file_wants_history(s, o, file_index(s, cq->file[i])))
			file_signoffs(s, q, cq->file[i]);
}

/* THE REST names Linus; the script drops its chief penguins unless asked
 * (--git-chief-penguins, which series does not take). */
static void drop_chiefs(struct query *q)
{
	size_t w = 0;

	for (size_t i = 0; i < q->nto; i++) {
		size_t k = 0;
		while (k < q->m->nchief &&
		       !str_find(q->to[i].email, q->m->chief[2 * k + 1]))
			k++;
		if (k < q->m->nchief) {
			free(q->to[i].email);
			free(q->to[i].role);
			continue;
		}
		q->to[w++] = q->to[i];
	}
	q->nto = w;
}

/* The in-file addresses (NUL-separated), after .mailmap, as "in file". */
static void add_file_emails(struct query *q, const struct sbuf *femails)
{
	struct sbuf f = SBUF_INIT, n = SBUF_INIT, a = SBUF_INIT;

	for (const char *p = femails->buf, *e = p + femails->len; p < e;
	     p += strlen(p) + 1) {
		mailmap_email(q->m, &f, p);
		parse_email(f.buf, &n, &a);
		format_email(&f, n.buf, a.buf, 1);
		push_email_address(q, f.buf, "");
		add_role(q, f.buf, "in file");
	}
	sb_release(&f);
	sb_release(&n);
	sb_release(&a);
}

/* The signers of each commit a Fixes: line names, each commit once. */
static void fixes_of(struct query *q, const struct cc_query *cq)
{
	for (size_t i = 0; i < cq->nfixes; i++) {
		size_t k;
		for (k = 0; k < i && strcmp(cq->fixes[k], cq->fixes[i]); k++)
			;
		if (k == i)
			fixes_signers(q, cq->fixes[i]);
	}
}

/* Whether MAINTAINERS has email's address on an L: line anywhere.  The
 * set of those (lower-cased) is read on first use. */
static int names_a_list(struct maintainers *m, const char *email)
{
	struct sbuf n = SBUF_INIT, a = SBUF_INIT;

	if (!m->lists) {
		memo_put(&m->lists, "", 0, "", 0);
		const char *pos = m->text, *end = m->text + m->len;
		for (struct span l; next_line(&pos, end, &l);) {
			if (l.len < 3 || memcmp(l.p, "L:", 2))
				continue;
			char *v = xstrndup(l.p + 2, l.len - 2);
			sb_setlen(&a, 0);
			sb_adds(&a, v + strspn(v, " \t"));
			a.len = strcspn(a.buf, " \t");
			a.buf[a.len] = '\0';
			if (a.len)
				memo_add_lc(&m->lists, a.buf);
			free(v);
		}
	}
	sb_setlen(&a, 0);
	parse_email(email, &n, &a);
	lower_ascii(a.buf);
	int r = a.len && memo_has(m->lists, a.buf);
	sb_release(&n);
	sb_release(&a);
	return r;
}

/* merge_email() of the script: maintainers and reviewers, then lists,
 * each address once. */
static void merge_email(const struct query *q, struct recipients *out)
{
	struct sbuf seen = SBUF_INIT;

	for (int pass = 0; pass < 2; pass++) {
		const struct rcpt *v = pass ? q->lists : q->to;
		size_t nv = pass ? q->nlists : q->nto;
		if (pass && !q->o->l)
			break;
		for (size_t i = 0; i < nv; i++) {
			if (in_set(&seen, v[i].email))
				continue;
			if (has_control(v[i].email)) {
				/* A CR or the like could forge a mail header. */
				warning("dropped an address with control bytes: %s",
					v[i].email);
				continue;
			}
			sb_add(&seen, v[i].email, strlen(v[i].email) + 1);
			recipients_add(out, v[i].email, v[i].role, pass ||
				       (q->o->lists_anywhere &&
					names_a_list(q->m, v[i].email)));
			out->people += !pass;
		}
	}
	sb_release(&seen);
}

/* One query's recipients, from the hits of the pass: get_maintainer.pl's
 * phases, in its order. */
static void answer(struct scan *s, const struct cc_opts *o, size_t qi,
		   struct recipients *out)
{
	const struct cc_query *cq = &s->q[qi];
	struct query q = { .m = s->m, .o = o,
			   .added = s->added, .stamp = qi + 1 };
	struct sbuf femails = SBUF_INIT;
	int history = o->email && has_history(s->m);

	file_sections(s, &q, cq, &femails);
	if (o->keywords)
		keyword_sections(s, &q, qi);
	for (size_t i = 0; i < q.nto; i++)
		deduplicate_email(&q, &q.to[i].email);
	for (size_t i = 0; i < q.nlists; i++)
		deduplicate_email(&q, &q.lists[i].email);
	if (history)
		history_signers(s, &q, cq);
	drop_chiefs(&q);
	add_file_emails(&q, &femails);
	if (history && o->fixes)
		fixes_of(&q, cq);
	merge_email(&q, out);
	sb_release(&femails);
	query_release(&q);
}

static void scan_release(struct scan *s)
{
	free(s->file);
	free(s->fplain);
	free(s->flen);
	free(s->sec);
	free(s->fh);
	free(s->fm);
	free(s->kh);
	kwindex_free(s->kx);
	free(s->khas);
	free(s->added);
	for (size_t i = 0; s->hist && i < s->nfile; i++)
		sb_release(&s->hist[i]);
	free(s->hist);
	free(s->hist_ok);
	sb_release(&s->value);
}

/* The one pass over MAINTAINERS for nq queries: s holds every section a
 * file or keyword hits, and the file hits sorted in the script's order.
 * 0, or -1 with err filled; scan_release() in both cases. */
static int scan_queries(struct scan *s_, struct maintainers *m,
			const struct cc_query *q, size_t nq, int keywords,
			struct sbuf *err)
{
	struct scan s = { 0 };
	size_t total = 0;

	s.m = m;
	s.q = q;
	s.nq = nq;
	s.keywords = keywords;
	sb_init(&s.value);
	for (size_t i = 0; i < nq; i++)
		total += q[i].nfile;
	s.file = xcalloc(total ? total : 1, sizeof *s.file);
	for (size_t i = 0; i < nq; i++)
		for (size_t k = 0; k < q[i].nfile; k++)
			s.file[s.nfile++] = q[i].file[k];
	sort_unique(s.file, &s.nfile, 0);
	size_t w = s.nfile;
	s.fplain = xcalloc(w ? w : 1, sizeof *s.fplain);
	s.flen = xcalloc(w ? w : 1, sizeof *s.flen);
	for (size_t i = 0; i < w; i++)
		s.flen[i] = strlen(s.file[i]);
	for (size_t i = 0; i < w; i++)
		while (s.file[i][s.fplain[i]] &&
		       !glob_byte[(unsigned char)s.file[i][s.fplain[i]]])
			s.fplain[i]++;
	if (w)
		while (s.file[0][s.common] &&
		       s.file[0][s.common] == s.file[w - 1][s.common])
			s.common++;
	/* worth its compiles only over much text: a plan of a tree-wide
	 * change, not one patch (cc's call compiles only what can match) */
	size_t kwbytes = 0;
	for (size_t i = 0; i < nq; i++)
		kwbytes += q[i].kw ? q[i].kw->text.len : 0;
	if (keywords && kwbytes >= KW_PREPASS_BYTES)
		find_keyword_literals(&s);
	int r = scan_maintainers(&s, err);
	if (!r)
		sort_n(s.fh, s.nfh, sizeof *s.fh, cmp_fhit);
	s.added = xcalloc(s.nsec + 1, sizeof *s.added);
	*s_ = s;
	return r;
}

int maintainers_query(struct maintainers *m, const struct cc_opts *o,
		      const struct cc_query *q, size_t nq,
		      struct recipients *out, struct sbuf *err)
{
	struct scan s;
	int r = scan_queries(&s, m, q, nq, o->keywords, err);

	if (!r && (o->git || o->git_fallback) && o->email && has_history(m))
		prefetch_histories(&s, o);
	for (size_t i = 0; !r && i < nq; i++)
		answer(&s, o, i, &out[i]);
	scan_release(&s);
	return r;
}

static int is_the_rest(const struct maintainers *m, const struct msec *sec)
{
	return sec->tlen == 8 && !memcmp(m->text + sec->title, "THE REST", 8);
}

/* The section's first T: value, malloc'd, or NULL. */
static char *section_tree(const struct maintainers *m, const struct msec *sec)
{
	struct sbuf v = SBUF_INIT;
	size_t pos = sec->body;
	char type = 0;
	char *r = NULL;

	while (!r && section_tag(m, sec, &pos, &type, &v))
		if (type == 'T') {
			struct span t = trim_span((struct span){ v.buf, v.len });
			if (t.len)
				r = xstrndup(t.p, t.len);
		}
	sb_release(&v);
	return r;
}

/* Whether the section names addr (n bytes) as a maintainer (M:). */
static int section_maintainer(const struct maintainers *m,
			      const struct msec *sec, const char *addr, size_t n)
{
	struct sbuf v = SBUF_INIT;
	size_t pos = sec->body;
	char type = 0;
	struct ident id;
	int r = 0;

	while (!r && section_tag(m, sec, &pos, &type, &v))
		r = type == 'M' && parse_ident(v.buf, &id) == 0 &&
		    id.addr.len == n && !strncasecmp(id.addr.p, addr, n);
	sb_release(&v);
	return r;
}

/* The tree of the first of the file's sections (THE REST aside) that
 * names one of those who committed its recent patches, the one with the
 * most first, as its maintainer and has a T:, malloc'd; or NULL. */
static char *committers_tree(const struct scan *s, const struct maintainers *m,
			     size_t fi, const struct file_owner *own)
{
	for (size_t k = 0; k < own->nby; k++)
		for (size_t h = first_hit(s, fi); h < s->nfh && s->fh[h].file == fi; h++) {
			const struct msec *sec = &s->sec[s->fh[h].sec];
			char *t;
			if (!is_the_rest(m, sec) &&
			    section_maintainer(m, sec, own->by[k], strlen(own->by[k])) &&
			    (t = section_tree(m, sec)))
				return t;
		}
	return NULL;
}

int maintainers_owners(struct maintainers *m, char *const *file, size_t n,
		       struct file_owner *own, struct sbuf *err)
{
	struct cc_query q = { .file = file, .nfile = n };
	struct scan s;
	int r = scan_queries(&s, m, &q, 1, 0, err);

	for (size_t i = 0; i < n; i++)
		own[i].section = own[i].route = NULL, own[i].rest = 0;
	for (size_t i = 0; !r && i < n; i++) {
		size_t fi = file_index(&s, file[i]);
		own[i].route = committers_tree(&s, m, fi, &own[i]);
		int owns_dir = own[i].route != NULL;
		for (size_t h = first_hit(&s, fi); h < s.nfh && s.fh[h].file == fi; h++) {
			const struct msec *sec = &s.sec[s.fh[h].sec];
			if (is_the_rest(m, sec)) {
				own[i].rest = 1;
				continue;
			}
			/* the route, where history did not say: the tree of
			 * the first section that owns the file's directory,
			 * else of the first with a tree (a platform's section
			 * lists a driver file by name or N:, but the
			 * subsystem's tree merges it) */
			if (!owns_dir && s.fh[h].dir) {
				char *t = section_tree(m, sec);
				if (t) {
					free(own[i].route);
					own[i].route = t;
					owns_dir = 1;
				}
			}
			if (!own[i].section) {
				struct sbuf t = SBUF_INIT;
				if (sec->tag_title)
					subsystem_name(m, sec, &t);
				else
					sb_add(&t, m->text + sec->title, sec->tlen);
				own[i].section = sb_detach(&t, NULL);
			}
			if (!own[i].route)
				own[i].route = section_tree(m, sec);
		}
	}
	scan_release(&s);
	return r;
}

/* ---- configuration -----------------------------------------------------------
 * Where MAINTAINERS is and how the script is told to read it: the nearest
 * directory holding one (its top is the tree's), .get_maintainer.conf's
 * switches, .get_maintainer.ignore, .mailmap.
 */

/* Whether dir/name exists (a regular file, where file). */
static int dir_has(const struct sbuf *dir, const char *name, int file,
		   struct sbuf *probe)
{
	struct stat st;

	sb_setf(probe, "%s/%s", dir->buf, name);
	return !stat(probe->buf, &st) && (!file || S_ISREG(st.st_mode));
}

/* The tree's top at or above start: the nearest directory that holds a
 * MAINTAINERS and either scripts/get_maintainer.pl or .git (a tree's
 * top: U-Boot keeps a MAINTAINERS in drivers/net/ and 688 others below
 * its top), else the nearest that holds a MAINTAINERS; or NULL. */
static char *find_up(const char *start)
{
	struct sbuf dir = SBUF_INIT, probe = SBUF_INIT;
	char *nearest = NULL;

	if (start[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof cwd))
			return NULL;
		sb_adds(&dir, cwd);
		if (strcmp(start, "."))
			sb_addf(&dir, "/%s", start);
	} else {
		sb_adds(&dir, start);
	}
	for (;;) {
		if (dir_has(&dir, "MAINTAINERS", 1, &probe)) {
			if (dir_has(&dir, "scripts/get_maintainer.pl", 1, &probe) ||
			    dir_has(&dir, ".git", 0, &probe)) {
				free(nearest);
				nearest = xstrdup(dir.buf);
				break;
			}
			if (!nearest)
				nearest = xstrdup(dir.buf);
		}
		char *slash = strrchr(dir.buf, '/');
		if (!slash || dir.len == 1)
			break;
		sb_setlen(&dir, slash == dir.buf ? 1 : (size_t)(slash - dir.buf));
	}
	sb_release(&dir);
	sb_release(&probe);
	return nearest;
}

/* The switches of get_maintainer.pl that `series cc` honours, as option
 * rows into struct cc_opts (all ints: flags and numbers), for the command
 * line and for .get_maintainer.conf alike. */
#define CCO(f) offsetof(struct cc_opts, f)

/* SW: a switch the synopsis leaves to the help; SWS: one it shows. */
#define SW(n, f, v, h) { NULL, n, OPT_FLAG, CCO(f), v, SYN_HIDE | SYN_NOX, \
			 NULL, h, { NULL } }
#define SWS(n, f, v, h) { NULL, n, OPT_FLAG, CCO(f), v, SYN_NOX, NULL, h, \
			  { NULL } }

static const struct opt cc_switches[] = {
	SW("--m", m, 1, "maintainers (M:), the default"),
	SWS("--no-m", m, 0, "no maintainers"),
	SW("--r", r, 1, "reviewers (R:), the default"),
	SWS("--no-r", r, 0, "no reviewers"),
	SW("--l", l, 1, "lists (L:), the default"),
	SWS("--no-l", l, 0, "no lists"),
	SW("--s", s, 1, "subscriber lists too"),
	SW("--no-s", s, 0, NULL),
	SW("--moderated", moderated, 1, NULL),
	SW("--no-moderated", moderated, 0, "no moderated lists"),
	SWS("--roles", roles, 1, "say each address's role"),
	SW("--no-roles", roles, 0, NULL),
	SW("--rolestats", roles, 1, NULL), SW("--no-rolestats", roles, 0, NULL),
	{ "-k", "--keywords", OPT_FLAG, CCO(keywords), 1, 0, NULL, NULL, { NULL } },
	SW("--no-keywords", keywords, 0, "do not match K: keywords"),
	SWS("--git-fallback", git_fallback, 1,
	   "recent signers where no section maintains a file"),
	SW("--no-git-fallback", git_fallback, 0, NULL),
	SW("--mailmap", mailmap, 1, NULL),
	SW("--no-mailmap", mailmap, 0, "do not apply .mailmap"),
	SW("--tree", tree, 1, NULL), SW("--no-tree", tree, 0, NULL),
	SW("--git", git, 1, "recent signers for every file"),
	SW("--no-git", git, 0, NULL),
	SW("--fixes", fixes, 1, NULL),
	SWS("--no-fixes", fixes, 0, "not the signers of Fixes: commits"),
	SW("--email", email, 1, NULL),
	SW("--find-maintainer-files", find_files, 1,
	   "read every MAINTAINERS below the top"),
	{ NULL, "--git-min-signatures", OPT_NUMBER, CCO(git_min_sign), 0, SYN_HIDE, "N",
	  "history: at least N signatures (1)", .min = 0, .max = 1000000 },
	{ NULL, "--git-max-maintainers", OPT_NUMBER, CCO(git_max_maint), 0, SYN_HIDE, "N",
	  "history: at most N people (5)", .min = 0, .max = 1000000 },
	{ NULL, "--git-min-percent", OPT_NUMBER, CCO(git_min_percent), 0, SYN_HIDE, "N",
	  "history: at least N% of the commits (5)", .min = 0, .max = 100 },
	{ 0 }
};

#undef SW
#undef SWS

#undef CCO

static const struct opt *const cc_switch_tables[] = { cc_switches, NULL };

/* Applies the switch row (its value v, a number's; NULL for a flag) to
 * o; 0, or -1 where v is none it takes. */
static int cc_set(struct cc_opts *o, const struct opt *row, const char *v)
{
	char *end = NULL;
	long long n = v ? scan_number(v, &end, 10) : row->val;

	if ((row->kind == OPT_NUMBER) != (v != NULL) ||
	    (v && (!*v || *end || n < row->min || n > row->max)))
		return -1;
	*(int *)(void *)((char *)o + row->off) = (int)n;
	return 0;
}

/* Whether w is the conf's option name (alone, or "name=value"); *v the
 * value, from w or the word after it (*i moves past that). */
static int conf_value(char **w, size_t n, size_t *i, const char *name,
		      const char **v)
{
	size_t len = strlen(name);

	if (strncmp(w[*i], name, len) || (w[*i][len] && w[*i][len] != '='))
		return 0;
	*v = w[*i][len] ? w[*i] + len + 1 : *i + 1 < n ? w[++*i] : NULL;
	return 1;
}

/* .get_maintainer.conf at the top: its words go before ours, as the
 * script unshifts them onto its arguments (a value may be the next word:
 * "--git-min-percent 15"). */
static void read_conf(struct cc_opts *o, const char *top)
{
	struct sbuf path = SBUF_INIT, text = SBUF_INIT;
	char **w = NULL;
	size_t n = 0, alloc = 0;

	sb_addf(&path, "%s/.get_maintainer.conf", top);
	if (sb_read_file(&text, path.buf) < 0) {
		sb_release(&path);
		return;
	}
	const char *pos = text.buf, *end = text.buf + text.len;
	for (struct span l; next_line(&pos, end, &l);) {
		char *p = (char *)l.p, *e = p + l.len;   /* ours: cut in place */
		while (p < e) {
			while (p < e && is_space((unsigned char)*p))
				p++;
			char *tok = p;
			while (p < e && !is_space((unsigned char)*p))
				p++;
			if (tok == p || *tok == '#')
				break;
			*p++ = '\0';
			GROW(w, n + 1, alloc);
			w[n++] = tok;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *v = NULL, *name = w[i];
		if (conf_value(w, n, &i, "--git-since", &v)) {
			if (!v || strlen(v) >= sizeof o->git_since)
				warning("%s: --git-since: bad value; ignored", path.buf);
			else
				fmt_buf(o->git_since, sizeof o->git_since, "%s", v);
			continue;
		}
		if (conf_value(w, n, &i, "--maintainer-path", &v) ||
		    conf_value(w, n, &i, "--mpath", &v)) {
			/* the top is where series reads MAINTAINERS anyway */
			if (!v || (strcmp(v, ".") && strcmp(v, "./")))
				warning("%s: --maintainer-path other than the "
					"top is not supported; ignored", path.buf);
			continue;
		}
		const struct opt *row = find_opt(cc_switch_tables, name, &v);
		if (row && row->kind == OPT_NUMBER && !v)
			v = i + 1 < n ? w[++i] : "";
		if (!row)
			warning("%s: option '%s' is not supported; ignored",
				path.buf, name);
		else if (cc_set(o, row, v) < 0)
			warning("%s: %s: bad value '%s'; ignored", path.buf,
				name, v ? v : "");
	}
	free(w);
	sb_release(&path);
	sb_release(&text);
}

/* .get_maintainer.ignore at the top: addresses the history never adds.
 * Each line trimmed, then cut at '#' (as the script cuts it: after). */
static void read_ignore(struct maintainers *m, const char *top)
{
	struct sbuf path = SBUF_INIT, text = SBUF_INIT;
	struct span line;

	sb_addf(&path, "%s/.get_maintainer.ignore", top);
	if (sb_read_file(&text, path.buf) == 0)
		for (const char *pos = text.buf, *end = pos + text.len;
		     next_line(&pos, end, &line);) {
			struct span t = trim_span(line);
			char *p = (char *)t.p;   /* ours: cut in place */
			p[t.len] = '\0';
			char *hash = strchr(p, '#');
			if (hash)
				*hash = '\0';
			if (strchr(p, '@') && strlen(p) == (hash ? (size_t)(hash - p) : t.len))
				sb_add(&m->ignore, p, strlen(p) + 1);
		}
	sb_release(&path);
	sb_release(&text);
}

/* The files named MAINTAINERS below the directory dir, appended to *v,
 * in the order the script's File::Find meets them: a directory's own
 * files in readdir() order, then each subdirectory, in that order, as
 * deep as it goes; no .git, no symbolic link to a directory. */
static void find_mfiles(struct sbuf *dir, char ***v, size_t *n, size_t *alloc)
{
	DIR *d = opendir(dir->buf);
	char **sub = NULL;
	size_t nsub = 0, asub = 0, len = dir->len;
	struct stat st;

	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		const char *nm = e->d_name;
		if (!strcmp(nm, ".") || !strcmp(nm, "..") || !strcmp(nm, ".git"))
			continue;
		sb_setlen(dir, len);
		sb_addf(dir, "/%s", nm);
		if (!lstat(dir->buf, &st) && S_ISDIR(st.st_mode)) {
			GROW(sub, nsub + 1, asub);
			sub[nsub++] = xstrdup(nm);
		} else if (!strcmp(nm, "MAINTAINERS") && !stat(dir->buf, &st) &&
			   S_ISREG(st.st_mode)) {
			GROW(*v, *n + 1, *alloc);
			(*v)[(*n)++] = xstrdup(dir->buf);
		}
	}
	closedir(d);
	for (size_t i = 0; i < nsub; i++) {
		sb_setlen(dir, len);
		sb_addf(dir, "/%s", sub[i]);
		find_mfiles(dir, v, n, alloc);
	}
	sb_setlen(dir, len);
	free_strings(sub, nsub);
}

/* --find-maintainer-files: every MAINTAINERS below top as one text, as
 * the script reads them into one list of lines; each file's first line
 * kept for messages.  NULL after error() where there is none. */
static struct maintainers *open_all_maintainers(const char *top)
{
	struct sbuf dir = SBUF_INIT, text = SBUF_INIT;
	char **v = NULL;
	size_t n = 0, alloc = 0, lines = 0;

	sb_adds(&dir, top);
	find_mfiles(&dir, &v, &n, &alloc);
	sb_release(&dir);
	if (!n) {
		error("%s: no MAINTAINERS file below it", top);
		return NULL;
	}
	size_t *first = xcalloc(n, sizeof *first);
	for (size_t i = 0; i < n; i++) {
		size_t at = text.len;
		first[i] = lines + 1;
		if (sb_read_file(&text, v[i]) < 0) {
			error_on(v[i]);
			sb_release(&text);
			free_strings(v, n);
			free(first);
			return NULL;
		}
		if (text.len > at && text.buf[text.len - 1] != '\n')
			sb_addc(&text, '\n');
		for (size_t k = at; k < text.len; k++)
			lines += text.buf[k] == '\n';
		/* messages name it from the top */
		memmove(v[i], v[i] + strlen(top) + 1, strlen(v[i] + strlen(top)));
	}
	struct maintainers *m = maintainers_take(&text, top);
	m->part = v;
	m->part_line = first;
	m->nparts = n;
	return m;
}

/* The chief penguins of the tree's own scripts/get_maintainer.pl, its
 * lines 'push(@penguin_chief, "NAME:ADDRESS");' (the name up to the last
 * ':', "\\@" an '@'), in place of Linus where the tree has that script. */
static void read_chiefs(struct maintainers *m, const char *top)
{
	static const char push[] = "push(@penguin_chief, \"";
	struct sbuf path = SBUF_INIT, text = SBUF_INIT, a = SBUF_INIT;
	size_t alloc = 0;

	sb_addf(&path, "%s/scripts/get_maintainer.pl", top);
	if (sb_read_file(&text, path.buf) == 0) {
		free_strings(m->chief, 2 * m->nchief);
		m->chief = NULL;
		m->nchief = 0;
	}
	const char *pos = text.buf, *end = text.buf + text.len;
	for (struct span l; next_line(&pos, end, &l);) {
		struct span t = trim_span(l);
		const char *q = t.len > sizeof push - 1 &&
			!memcmp(t.p, push, sizeof push - 1) ?
			memchr(t.p + sizeof push - 1, '"', t.len - (sizeof push - 1)) : NULL;
		if (!q)
			continue;
		const char *v = t.p + sizeof push - 1, *colon = q;
		while (colon > v && colon[-1] != ':')
			colon--;
		if (colon == v)
			continue;
		sb_setlen(&a, 0);
		for (const char *c = colon; c < q; c++)
			if (!(*c == '\\' && c + 1 < q && c[1] == '@'))
				sb_addc(&a, *c);
		GROW(m->chief, 2 * m->nchief + 2, alloc);
		m->chief[2 * m->nchief] = xstrndup(v, (size_t)(colon - 1 - v));
		m->chief[2 * m->nchief + 1] = xstrfmt("%s <%s>",
			m->chief[2 * m->nchief], a.buf);
		m->nchief++;
	}
	sb_release(&path);
	sb_release(&text);
	sb_release(&a);
}

static struct maintainers *load_maintainers(const char *file, const char *top,
					    const struct cc_opts *o)
{
	struct sbuf err = SBUF_INIT, text = SBUF_INIT, mm = SBUF_INIT;
	struct maintainers *m = o->find_files ? open_all_maintainers(top) :
				maintainers_open(file, top, &err);

	if (!m) {
		if (err.len)
			error("%s", err.buf);
		sb_release(&err);
		return NULL;
	}
	sb_addf(&mm, "%s/.mailmap", top);
	if (o->mailmap && sb_read_file(&text, mm.buf) == 0)
		mailmap_parse(m, text.buf, text.len);
	read_ignore(m, top);
	read_chiefs(m, top);
	sb_release(&text);
	sb_release(&mm);
	sb_release(&err);
	return m;
}

/* ---- owners ------------------------------------------------------------------
 * The facts the MAINTAINERS groupings group by and plan shows, for a
 * source's files: the tree's MAINTAINERS, loaded once, then per file its
 * owning section, its tree (T:) and (for --by maintainers) its
 * recipients, each from one pass; and the recipients of any groups of
 * them.  Invariants: every per-file array has n entries; section[i] NULL
 * means only THE REST has file i.
 */
struct owners {
	struct maintainers *m;    /* NULL: the tree has no MAINTAINERS */
	struct cc_opts o;         /* as series cc would use them */
	/* Per source file, NULL where only THE REST has it: its owning
	 * section's title; its merge route (T:); its recipients, as cc -f
	 * prints them (filled only where asked: a pass of its own). */
	char **section, **route, **rcpt;
	char **title;   /* for %(section): the section, else "THE REST" where
			 * that covers the file */
	struct indices *khit;   /* the K: lines each file hits, or NULL */
	struct recipients *alone; /* with khit: each file's answer alone */
	size_t n;
};

static void free_indices(struct indices *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].v);
	free(v);
}

static void owners_release(struct owners *ow)
{
	free_strings(ow->section, ow->n);
	free_strings(ow->route, ow->n);
	free_strings(ow->rcpt, ow->n);
	free_strings(ow->title, ow->n);
	recipients_free(ow->alone, ow->n);
	free_indices(ow->khit, ow->n);
	if (ow->m)
		maintainers_free(ow->m);
	memset(ow, 0, sizeof *ow);
}

/* MAINTAINERS at top: loaded, or, where there is none, an error when the
 * grouping needs it (by names it) and nothing otherwise. */
static int load_owners(struct owners *ow, const char *top, const char *by)
{
	struct sbuf path = SBUF_INIT;
	struct stat st;

	ow->o = (struct cc_opts)CC_OPTS_INIT;
	if (!top)       /* no tree at all (split outside a repository) */
		return by ? error("%s: no tree, so no MAINTAINERS", by) : 0;
	sb_addf(&path, "%s/MAINTAINERS", top);
	if (stat(path.buf, &st) < 0) {
		int saved = errno;
		sb_release(&path);
		return by ? error("%s: %s/MAINTAINERS: %s", by, top,
				  strerror(saved)) : 0;
	}
	read_conf(&ow->o, top);
	ow->o.lists_anywhere = 1;
	ow->m = load_maintainers(path.buf, top, &ow->o);
	sb_release(&path);
	return ow->m ? 0 : -1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* q asks for a patch: its files and Fixes: (pf), its K: text (kw). */
static void patch_query(struct cc_query *q, const struct patch_files *pf,
			const struct kwtext *kw)
{
	*q = (struct cc_query){ .file = pf->file, .nfile = pf->nr, .kw = kw,
				.fixes = pf->fixes, .nfixes = pf->nfixes };
}

/* n queries of patches as maintainers_query() takes them, each query's
 * files and K: text (pf[i], kw[i]) its own. */
struct patch_queries {
	struct cc_query *q;
	struct patch_files *pf;
	struct kwtext *kw;
	size_t n;
};

static void patch_queries_init(struct patch_queries *pq, size_t n)
{
	pq->n = n;
	pq->q = xcalloc(n + 1, sizeof *pq->q);
	pq->pf = xcalloc(n + 1, sizeof *pq->pf);
	pq->kw = xcalloc(n + 1, sizeof *pq->kw);
	for (size_t i = 0; i < n; i++)
		pq->kw[i] = (struct kwtext)KWTEXT_INIT;
}

/* pq's queries answered into out, unless failed (err says why), then pq
 * released.  0, or -1 after error() with err. */
static int patch_queries_run(struct maintainers *m, const struct cc_opts *o,
			     struct patch_queries *pq, struct recipients *out,
			     int failed, struct sbuf *err)
{
	int r = failed ? -1 : maintainers_query(m, o, pq->q, pq->n, out, err);

	if (r < 0)
		error("%s", err->buf);
	for (size_t i = 0; i < pq->n; i++) {
		patch_files_release(&pq->pf[i]);
		kwtext_release(&pq->kw[i]);
	}
	free(pq->q);
	free(pq->pf);
	free(pq->kw);
	return r;
}

/* The recipients of each of the ng groups of src's files, as series cc
 * gives them for the group's patch, which is what format's mail of it
 * gets: K: lines search each file's diff (a work tree's is git diff
 * HEAD's; an untracked file's is the file whole, its patch's every line).
 * One pass; out[i] (empty before) gets group i's. */

static int recipients_of(struct owners *ow, const struct source *src,
			 const struct group *g, size_t ng,
			 struct recipients *out, struct indices *khit_out)
{
	struct patch_queries pq;
	struct indices *hit = xcalloc(ng + 1, sizeof *hit);
	struct sbuf err = SBUF_INIT, text = SBUF_INIT;
	struct kwindex *kx = NULL;
	int failed = 0;

	patch_queries_init(&pq, ng);
	/* An untracked file is read whole, and searched for the K: lines at
	 * once (kwindex), not once per K: line. */
	for (size_t i = 0; i < ng; i++) {
		struct patch_files *pf = &pq.pf[i];
		for (size_t j = 0; j < g[i].nr; j++) {
			size_t fi = g[i].member[j];
			const struct sfile *f = &src->f[fi];
			struct patch_files scratch = { 0 };
			push_file(pf, xstrdup(f->path));
			if (f->orig)
				push_file(pf, xstrdup(f->orig));
			if (!ow->o.keywords)
				;
			else if (ow->khit)
				for (size_t k = 0; k < ow->khit[fi].n; k++) {
					GROW(hit[i].v, hit[i].n + 1, hit[i].alloc);
					hit[i].v[hit[i].n++] = ow->khit[fi].v[k];
				}
			else if (f->len)
				scan_patch(src->text.buf + f->off, f->len, &scratch,
					   &pq.kw[i]);
			else if (f->new_mode && !failed &&
				 keyword_searched(f->path)) {
				sb_setlen(&text, 0);
				if (!kx)
					kx = kwindex_build(ow->m);
				if (!read_tree_file(ow->m, f->path, &text) &&
				    file_keyword_hits(kx, ow->m, text.buf,
						      text.len, &hit[i], &err) < 0)
					failed = 1;
			}
			patch_files_release(&scratch);
		}
		sort_unique(pf->file, &pf->nr, 1);
		sort_n(hit[i].v, hit[i].n, sizeof *hit[i].v, cmp_size);
		pq.q[i] = (struct cc_query){ .file = pf->file, .nfile = pf->nr,
					     .kw = &pq.kw[i],
					     .khit = ow->khit || kx ? hit[i].v : NULL,
					     .nkhit = hit[i].n,
					     .khit_out = khit_out ? &khit_out[i] : NULL };
	}
	int r = patch_queries_run(ow->m, &ow->o, &pq, out, failed, &err);
	kwindex_free(kx);
	for (size_t i = 0; i < ng; i++)
		free(hit[i].v);
	free(hit);
	sb_release(&err);
	sb_release(&text);
	return r;
}

/* Each file's recipients alone, as cc -f gives them: ow->rcpt[i] for
 * file i, NULL where ow->section[i] is (THE REST alone has it); and the
 * K: lines each file hits, kept in ow for the groups asked about later.
 * One pass, after owner_facts(). */
static int file_recipients(struct owners *ow, const struct source *src)
{
	size_t n = src->nr;
	struct group *one = xcalloc(n + 1, sizeof *one);
	size_t *idx = xcalloc(n + 1, sizeof *idx);
	struct recipients *r = xcalloc(n + 1, sizeof *r);
	struct indices *khit = xcalloc(n + 1, sizeof *khit);

	for (size_t i = 0; i < n; i++) {
		idx[i] = i;
		one[i] = (struct group){ .name = src->f[i].path,
					 .member = &idx[i], .nr = 1 };
	}
	int failed = recipients_of(ow, src, one, n, r, khit) < 0;
	for (size_t i = 0; !failed && i < n; i++)
		if (ow->section[i]) {
			struct sbuf key = SBUF_INIT;
			recipients_write(&key, &r[i], 0);
			ow->rcpt[i] = sb_detach(&key, NULL);
		}
	if (!failed) {
		ow->khit = khit;
		ow->alone = r;
	} else {
		free_indices(khit, n);
		recipients_free(r, n);
	}
	free(one);
	free(idx);
	return failed ? -1 : 0;
}

/* A file of a source under a key (its path, its directory, a grouping's
 * key), sorted by key, then path. */
struct keyed {
	char *key;
	const char *path;
	size_t idx;
	size_t root;        /* union-find parent, an index into the keyed array */
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->path, y->path);
}

/* Notes c as a recent commit of the files of k[0..n) keyed s (len
 * bytes), at most ROUTE_COMMITS a file: seen[file * ROUTE_COMMITS + j]. */
static void note_commit(const struct keyed *k, size_t n, const char *s,
			size_t len, const struct past *c,
			const struct past **seen, size_t *nseen)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, cmp_bytes(k[mid].key, s, len) < 0);
	for (; lo < n && !cmp_bytes(k[lo].key, s, len); lo++)
		if (nseen[k[lo].idx] < ROUTE_COMMITS)
			seen[k[lo].idx * ROUTE_COMMITS + nseen[k[lo].idx]++] = c;
}

/* The distinct spans of v (most recent first, those with p NULL left
 * out) into *out, malloc'd: those of more commits first, the most recent
 * on a tie. */
static void rank_spans(const struct span *v, size_t nv, char ***out,
		       size_t *nout)
{
	size_t count[ROUTE_COMMITS] = { 0 }, nd = 0;
	struct span d[ROUTE_COMMITS];

	for (size_t a = 0; a < nv; a++) {
		size_t k = 0;
		if (!v[a].p)
			continue;
		while (k < nd && !span_is(d[k], v[a].p, v[a].len))
			k++;
		if (k == nd)
			d[nd++] = v[a];
		count[k]++;
	}
	*out = xcalloc(nd + 1, sizeof **out);
	*nout = 0;
	for (size_t most = nv; most; most--)
		for (size_t k = 0; k < nd; k++)
			if (count[k] == most)
				(*out)[(*nout)++] = xstrndup(d[k].p, d[k].len);
}

/* What the recent focused patches of each of src's files say, of the
 * window's last ROUTE_COMMITS touching the file, else its directory:
 * who committed them into own[i].by, most commits first, the most recent
 * on a tie; into own[i].merged the tree that merged the most of them, as
 * merged_by() names it (NULL where the window does not say).  The caller
 * frees both. */
static void recent_committers(const struct window *w, const struct source *src,
			      struct file_owner *own)
{
	size_t n = src->nr;
	struct keyed *path = xcalloc(n + 1, sizeof *path), *dir = xcalloc(n + 1, sizeof *dir);
	const struct past **seen = xcalloc(2 * n * ROUTE_COMMITS + 1, sizeof *seen);
	size_t *nseen = xcalloc(2 * n + 1, sizeof *nseen);

	for (size_t i = 0; i < n; i++) {
		path[i] = (struct keyed){ src->f[i].path, src->f[i].path, i, 0 };
		dir[i] = (struct keyed){ dir_of(src->f[i].path), src->f[i].path, i, 0 };
	}
	sort_n(path, n, sizeof *path, cmp_keyed);
	sort_n(dir, n, sizeof *dir, cmp_keyed);
	for (size_t j = 0; j < w->nr; j++) {
		const struct past *c = &w->c[j];
		for (size_t i = 0; i < c->npath; i++)
			note_commit(path, n, w->path[c->path0 + i],
				    strlen(w->path[c->path0 + i]), c, seen, nseen);
		for (size_t i = 0; i < c->ndir; i++)
			note_commit(dir, n, c->dir[i].p, c->dir[i].len, c,
				    seen + n * ROUTE_COMMITS, nseen + n);
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = nseen[i] ? i : n + i, nv = nseen[at];
		struct span who[ROUTE_COMMITS], tree[ROUTE_COMMITS];
		char **t;
		size_t nt;
		for (size_t k = 0; k < nv; k++) {
			who[k] = seen[at * ROUTE_COMMITS + k]->committer;
			tree[k] = merged_by(w, seen[at * ROUTE_COMMITS + k]);
		}
		rank_spans(who, nv, &own[i].by, &own[i].nby);
		rank_spans(tree, nv, &t, &nt);
		own[i].merged = nt ? xstrdup(t[0]) : NULL;
		free_strings(t, nt);
		free(dir[i].key);
	}
	free(path);
	free(dir);
	free(seen);
	free(nseen);
}

/* The tree in a T: value or a merge's subject word, by its path: the
 * first word with "://", its scheme and host, trailing '/' and ".git"
 * cut (a tree keeps its path where its host moves: source.denx.de to
 * git.u-boot-project.org); p NULL where there is none. */
static struct span url_core(struct span v)
{
	struct span u = url_word(v);

	if (!u.p)
		return u;
	const char *p = find_bytes(u.p, u.len, "://", 3) + 3, *e = u.p + u.len;
	const char *slash = memchr(p, '/', (size_t)(e - p));
	p = slash ? slash + 1 : e;
	while (e > p && e[-1] == '/')
		e--;
	if (e - p > 4 && !memcmp(e - 4, ".git", 4))
		e -= 4;
	return (struct span){ p, (size_t)(e - p) };
}

/* Whether two url_core()s are one tree. */
static int same_tree(struct span a, struct span b)
{
	return a.p && b.p && a.len == b.len && !memcmp(a.p, b.p, a.len);
}

/* The trees the window's merges name, as url_core() cuts them, each
 * once, into *out (malloc'd; spans into w's log). */
static size_t merging_trees(const struct window *w, struct span **out)
{
	size_t nd = 0;

	*out = xcalloc(w->nnode + 1, sizeof **out);
	for (size_t i = 0; i < w->nnode; i++) {
		const struct node *m = &w->node[i];
		if (!is_merge(m))
			continue;
		struct span c = url_core(m->subject);
		size_t k = 0;
		while (k < nd && !same_tree((*out)[k], c))
			k++;
		if (c.p && k == nd)
			(*out)[nd++] = c;
	}
	return nd;
}

/* The T: value of MAINTAINERS that names the tree c (a url_core()),
 * malloc'd, or NULL. */
static char *tree_value(const struct maintainers *m, struct span c)
{
	const char *pos = m->text, *end = m->text + m->len;

	for (struct span line; next_line(&pos, end, &line); ) {
		if (line.len < 2 || memcmp(line.p, "T:", 2))
			continue;
		struct span v = trim_span((struct span){ line.p + 2, line.len - 2 });
		if (same_tree(url_core(v), c))
			return xstrndup(v.p, v.len);
	}
	return NULL;
}

/* One tree, one route: MAINTAINERS spells some trees two ways (".../
 * linux-pm" and ".../linux-pm.git"), and each spelling would be a route
 * of its own, two series to one maintainer.  Each route takes the
 * spelling of the first file whose route is that tree. */
static void one_spelling(struct file_owner *own, size_t n)
{
	char **seen = xcalloc(n + 1, sizeof *seen);
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		if (!own[i].route)
			continue;
		struct span c = url_core((struct span){ own[i].route,
							strlen(own[i].route) });
		size_t k = 0;
		while (k < ns && strcmp(seen[k], own[i].route) &&
		       !same_tree(url_core((struct span){ seen[k], strlen(seen[k]) }), c))
			k++;
		if (k == ns)
			seen[ns++] = own[i].route;
		else if (strcmp(seen[k], own[i].route)) {
			free(own[i].route);
			own[i].route = xstrdup(seen[k]);
		}
	}
	free(seen);
}

/* Each route where history outweighs MAINTAINERS: where the tree that
 * merged the most of the file's recent patches (own[i].merged) is one
 * a merge names, not the main line, and MAINTAINERS names no tree for
 * the file or one that merged nothing in the window (a board section
 * without T:, a tree renamed or retired), that tree, as the T: that
 * names it, else as "git URL".  test/bench routes measures it on
 * U-Boot's history (README, Figures); the main line's own commits say
 * nothing (the files only THE REST covers keep their route), and where
 * MAINTAINERS names a tree that merges, it wins (a platform's tree
 * takes a subsystem's driver now and then). */
static void routes_from_merges(const struct maintainers *m,
			       const struct window *w, struct file_owner *own,
			       size_t n)
{
	struct span *merging = NULL, *memo = NULL;
	char **value = NULL;
	size_t nmerging = SIZE_MAX, nmemo = 0;

	for (size_t i = 0; i < n; i++) {
		if (!own[i].merged || !*own[i].merged)
			continue;
		if (nmerging == SIZE_MAX)
			nmerging = merging_trees(w, &merging);
		struct span c = url_core((struct span){ own[i].merged,
							strlen(own[i].merged) });
		if (own[i].route) {
			struct span r = url_core((struct span){ own[i].route,
								strlen(own[i].route) });
			size_t k = 0;
			while (k < nmerging && !same_tree(merging[k], r))
				k++;
			if (k < nmerging)
				continue;
		}
		size_t k = 0;
		while (k < nmemo && !same_tree(memo[k], c))
			k++;
		if (k == nmemo) {
			memo = xrealloc(memo, (nmemo + 1) * sizeof *memo);
			value = xrealloc(value, (nmemo + 1) * sizeof *value);
			memo[nmemo] = c;
			value[nmemo] = tree_value(m, c);
			if (!value[nmemo++])
				value[k] = xstrfmt("git %s", own[i].merged);
		}
		free(own[i].route);
		own[i].route = xstrdup(value[k]);
	}
	free(merging);
	free(memo);
	free_strings(value, nmemo);
}

/* Fills ow's facts for src's files: owners and routes, from one pass
 * (file_recipients() adds the recipients), the routes from who committed
 * the files' patches where the window w (NULL: none) says.  Nothing where
 * the tree has no MAINTAINERS. */
static int owner_facts(struct owners *ow, const struct source *src,
		       const struct window *w)
{
	size_t n = src->nr;
	struct sbuf err = SBUF_INIT;

	if (!ow->m)
		return 0;
	char **path = xcalloc(n + 1, sizeof *path);
	struct file_owner *own = xcalloc(n + 1, sizeof *own);
	for (size_t i = 0; i < n; i++)
		path[i] = src->f[i].path;
	if (w)
		recent_committers(w, src, own);
	int r = maintainers_owners(ow->m, path, n, own, &err);
	if (r < 0)
		error("%s", err.buf);
	else if (w)
		routes_from_merges(ow->m, w, own, n);
	one_spelling(own, n);
	ow->n = n;
	ow->section = xcalloc(n + 1, sizeof *ow->section);
	ow->route = xcalloc(n + 1, sizeof *ow->route);
	ow->rcpt = xcalloc(n + 1, sizeof *ow->rcpt);
	ow->title = xcalloc(n + 1, sizeof *ow->title);
	for (size_t i = 0; i < n; i++) {
		ow->section[i] = own[i].section;
		ow->route[i] = own[i].route;
		if (own[i].section || own[i].rest)
			ow->title[i] = xstrdup(own[i].section ? own[i].section :
					       "THE REST");
		free_strings(own[i].by, own[i].nby);
		free(own[i].merged);
	}
	free(path);
	free(own);
	sb_release(&err);
	return r;
}

/* ---- series cc's answers -----------------------------------------------------
 * What series cc prints beyond one query's answer: paths of the tree as
 * the script names them, the answers of several queries, and a cover
 * letter's recipients from the patches beside it.
 */

/* path (relative to the current directory) relative to top, "dir/" for a
 * directory, as the script strips its own prefixes. */
static char *tree_path(const char *top, const char *path)
{
	struct sbuf abs = SBUF_INIT, out = SBUF_INIT;
	char cwd[PATH_MAX];
	struct stat st;

	if (path[0] != '/' && getcwd(cwd, sizeof cwd))
		sb_addf(&abs, "%s/", cwd);
	sb_adds(&abs, path);
	/* lexical clean-up of "." and ".." and "//" */
	for (char *p = abs.buf; *p;) {
		char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || n == 0) {
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(out.buf, '/');
			sb_setlen(&out, s ? (size_t)(s - out.buf) : 0);
		} else {
			sb_addc(&out, '/');
			sb_add(&out, p, n);
		}
		p = e ? e + 1 : p + n;
	}
	size_t tl = strlen(top);
	char *r;
	if (!strncmp(out.buf, top, tl) && out.buf[tl] == '/')
		r = xstrdup(out.buf + tl + 1);
	else
		r = xstrdup(path);
	sb_release(&abs);
	sb_release(&out);
	if (!stat(path, &st) && S_ISDIR(st.st_mode) && *r &&
	    r[strlen(r) - 1] != '/') {
		size_t n = strlen(r);
		r = xrealloc(r, n + 2);
		memcpy(r + n, "/", 2);
	}
	return r;
}

/* The nq queries' answers as series cc prints them, into out[i]. */
static int run_queries(struct maintainers *m, const struct cc_opts *o,
		       const struct cc_query *q, size_t nq, struct sbuf *out)
{
	struct sbuf err = SBUF_INIT;
	struct recipients *r = xcalloc(nq + 1, sizeof *r);
	int failed = maintainers_query(m, o, q, nq, r, &err);

	if (failed < 0)
		error("%s", err.buf);
	for (size_t i = 0; !failed && i < nq; i++)
		recipients_write(&out[i], &r[i], o->roles);
	recipients_free(r, nq);
	sb_release(&err);
	return failed;
}

/* Appends the lines of text to out, sorted and each once. */
static void add_sorted_unique_lines(struct sbuf *out, struct sbuf *text)
{
	char **lines = NULL;
	size_t nl = 0, al = 0;

	const char *pos = text->buf, *end = text->buf + text->len;
	for (struct span l; next_line(&pos, end, &l);) {
		char *p = (char *)l.p;   /* ours: cut in place */
		p[l.len] = '\0';
		GROW(lines, nl + 1, al);
		lines[nl++] = p;
	}
	sort_unique(lines, &nl, 0);
	for (size_t i = 0; i < nl; i++)
		sb_addf(out, "%s\n", lines[i]);
	free(lines);
}

/* One patch of a cover letter's series and what its query needs. */
struct sibling {
	char *name;
	struct patch_files pf;
	struct kwtext kw;
};

static int cmp_sibling(const void *a, const void *b)
{
	return strcmp(((const struct sibling *)a)->name,
		      ((const struct sibling *)b)->name);
}

/* The patches of the cover letter at path's series that lie beside it,
 * each scanned (with kw, its K: text), sorted by name, into *s.
 * Directories and dangling links are passed over.  Their number, or -1
 * after error(). */
static long cover_siblings(const char *path, const char *text, size_t len,
			   int kw, struct sibling **s)
{
	char *dir = dir_of(path);
	const char *base = base_name(path);
	struct numbering cover;
	struct sbuf one = SBUF_INIT, t = SBUF_INIT;
	size_t ns = 0, as = 0;
	int r = 0;
	DIR *d = strcmp(path, "-") ? opendir(dir) : NULL;

	read_numbering(text, len, &cover);
	*s = NULL;
	if (!d && strcmp(path, "-"))
		r = error_on(dir);
	for (struct dirent *de; d && !r && (errno = 0, de = readdir(d));) {
		struct stat sb;
		struct patch_name pn;
		if (de->d_name[0] == '.' || !strcmp(de->d_name, base))
			continue;
		sb_setf(&one, "%s/%s", dir, de->d_name);
		if (stat(one.buf, &sb) < 0 || !S_ISREG(sb.st_mode) ||
		    (!parse_patch_name(de->d_name, &pn) &&
		     !has_suffix(de->d_name, ".patch")))
			continue;
		sb_setlen(&t, 0);
		if (sb_read_file(&t, one.buf) < 0)
			r = error_on(one.buf);
		else if (is_sibling(&cover, base, de->d_name, t.buf, t.len)) {
			GROW(*s, ns + 1, as);
			struct sibling *x = &(*s)[ns++];
			*x = (struct sibling){ xstrdup(de->d_name), { 0 },
					       KWTEXT_INIT };
			scan_patch(t.buf, t.len, &x->pf, kw ? &x->kw : NULL);
		}
	}
	if (d && errno && !r)
		r = error_on(dir);
	if (d)
		closedir(d);
	sort_n(*s, ns, sizeof **s, cmp_sibling);
	free(dir);
	sb_release(&one);
	sb_release(&t);
	return r < 0 ? -1 : (long)ns;
}

static void siblings_release(struct sibling *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		patch_files_release(&s[i].pf);
		kwtext_release(&s[i].kw);
	}
	free(s);
}

/*
 * A cover letter's recipients: the sorted union of the lists (and
 * reviewers: the script runs --no-m) of every patch of its series beside
 * it, each answered on its own, all from one pass over MAINTAINERS.  No
 * sibling at all is a warning, not a silent empty answer.
 */
static int cc_cover(struct maintainers *m, const struct cc_opts *o,
		    const char *path, const char *text, size_t len,
		    struct sbuf *out)
{
	struct cc_opts no_m = *o;
	struct sibling *s;
	long ns = cover_siblings(path, text, len, o->keywords, &s);
	int r = ns < 0 ? -1 : 0;

	no_m.m = 0;
	if (!ns)
		warning("cc: %s is a cover letter, but no patch of its series "
			"lies beside it: no recipients", path);
	struct cc_query *q = xcalloc((size_t)(ns > 0 ? ns : 0) + 1, sizeof *q);
	struct sbuf *outs = xcalloc((size_t)(ns > 0 ? ns : 0) + 1, sizeof *outs);
	size_t nq = 0;
	for (long i = 0; i < ns; i++)
		if (s[i].pf.nr)
			patch_query(&q[nq++], &s[i].pf, &s[i].kw);
	for (size_t i = 0; i < nq; i++)
		sb_init(&outs[i]);
	if (!r && nq)
		r = run_queries(m, &no_m, q, nq, outs);
	struct sbuf all = SBUF_INIT;
	for (size_t i = 0; i < nq; i++) {
		sb_add(&all, outs[i].buf, outs[i].len);
		sb_release(&outs[i]);
	}
	if (!r)
		add_sorted_unique_lines(out, &all);
	siblings_release(s, ns > 0 ? (size_t)ns : 0);
	free(q);
	free(outs);
	sb_release(&all);
	return r;
}

/* Whether git tracks path (as the script's vcs_file_exists asks it, from
 * the current directory): a file that is not a patch is then asked for. */
static int git_tracks(const char *path)
{
	const char *words[] = { "ls-files", "--", path, NULL };
	struct sbuf out = SBUF_INIT;
	int r = run_git(&(struct git_run){ .words = words, .out = &out,
					   .quiet = 1 }) == 0 && out.len;

	sb_release(&out);
	return r;
}

/* Adds a file asked for by name: its tree path, and its text for K:. */
static void add_named_file(struct maintainers *m, const struct cc_opts *o,
			   const char *top, const char *path,
			   struct patch_files *pf, struct kwtext *kw)
{
	struct sbuf text = SBUF_INIT;
	char *file = tree_path(top, path);

	if (o->keywords && keyword_searched(file) &&
	    !read_tree_file(m, file, &text))
		kwtext_add(kw, text.buf, text.len, 0);
	GROW(pf->file, pf->nr + 1, pf->alloc);
	pf->file[pf->nr++] = file;
	sb_release(&text);
}

/* One patch's files, Fixes: and keyword lines (one, kw1: emptied and
 * released) added to the query's (pf, kw): cc of several patches asks
 * once for them all, as the script does. */
static void join_patch(struct patch_files *pf, struct kwtext *kw,
		       struct patch_files *one, struct kwtext *kw1)
{
	for (size_t j = 0; j < one->nr; j++) {
		GROW(pf->file, pf->nr + 1, pf->alloc);
		pf->file[pf->nr++] = one->file[j];
	}
	for (size_t j = 0; j < one->nfixes; j++) {
		GROW(pf->fixes, pf->nfixes + 1, pf->afixes);
		pf->fixes[pf->nfixes++] = one->fixes[j];
	}
	one->nr = one->nfixes = 0;
	patch_files_release(one);
	for (size_t j = 0; j < kw1->nline; j++)
		kwtext_add(kw, kw1->text.buf + kw1->line[j].off,
			   kw1->line[j].len, kw1->line[j].skip);
	kwtext_release(kw1);
	sort_unique(pf->file, &pf->nr, 1);
}

/* ==== 5. groupings =======================================================
 * A plan of a source's files: per directory (cut to a depth), per file,
 * one for the tree, or from MAINTAINERS per owning section, per recipient
 * set or per merge route.
 *
 * An entry belongs to the group of its (new) path; a rename's old path goes
 * with it, so no commit of the series has the file twice or not at all.
 * Entries sort by (group, path) and each run of one group is one group:
 * sorting by path alone would split a directory around its subdirectories.
 */

char *group_name(const char *path, const struct selection *sel)
{
	if (sel->by == BY_TREE)
		return xstrdup("treewide");
	if (sel->by == BY_FILE)
		return xstrdup(path);
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	size_t len = (size_t)(slash - path);
	if (sel->depth > 0) {
		int n = 0;
		for (size_t i = 0; i < len; i++)
			if (path[i] == '/' && ++n == sel->depth) {
				len = i;
				break;
			}
	}
	return xstrndup(path, len);
}

/* Whether path matches one of the --include globs (none given: it does);
 * '*' crosses '/'. */
static int included(const char *path, const char *const *include)
{
	if (!include || !include[0])
		return 1;
	for (const char *const *g = include; *g; g++)
		if (glob_match(*g, path, 1))
			return 1;
	return 0;
}

static size_t find_root(struct keyed *k, size_t i)
{
	while (k[i].root != i)
		i = k[i].root = k[k[i].root].root;
	return i;
}

static void unite(struct keyed *k, size_t a, size_t b)
{
	a = find_root(k, a);
	b = find_root(k, b);
	if (a != b)
		k[b].root = a;
}

/* The first of the n sorted paths that is >= s (n when none is). */
static size_t lower_bound(const struct owned *o, size_t n, const char *s,
			  size_t len)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, strncmp(o[mid].path, s, len) < 0 ||
			     (!strncmp(o[mid].path, s, len) &&
			      strlen(o[mid].path) < len));
	return lo;
}

/*
 * A file replaced by a directory, or a directory by a file, is one change:
 * no tree can hold both "a" and "a/b", so the deletion of one and the
 * addition of the other must be in the same commit.  Each such pair's
 * entries are united, and a union takes the smallest of its groups.
 */
static void unite_replacements(struct keyed *k, size_t n,
			       const struct source *src)
{
	struct owned *present = xcalloc(n, sizeof *present), *gone = NULL;
	size_t np = 0, ng = 0, ag = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sfile *e = &src->f[k[i].idx];
		if (e->new_mode)
			present[np++] = (struct owned){ e->path, i };
		else {
			GROW(gone, ng + 1, ag);
			gone[ng++] = (struct owned){ e->path, i };
		}
		if (e->kind == SF_RENAME) {
			GROW(gone, ng + 1, ag);
			gone[ng++] = (struct owned){ e->orig, i };
		}
	}
	sort_n(present, np, sizeof *present, cmp_owned);
	for (size_t g = 0; g < ng; g++) {
		const char *d = gone[g].path;
		size_t dl = strlen(d);
		/* files now below the deleted path: "d/..." */
		char *under = xmalloc(dl + 2);
		memcpy(under, d, dl);
		memcpy(under + dl, "/", 2);
		for (size_t i = lower_bound(present, np, under, dl + 1);
		     i < np && !strncmp(present[i].path, under, dl + 1); i++)
			unite(k, gone[g].k, present[i].k);
		free(under);
		/* a file now where a directory of the deleted path was */
		for (size_t j = 0; j < dl; j++) {
			if (d[j] != '/')
				continue;
			size_t i = lower_bound(present, np, d, j);
			if (i < np && strlen(present[i].path) == j &&
			    !strncmp(present[i].path, d, j))
				unite(k, gone[g].k, present[i].k);
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t r = find_root(k, i);
		if (strcmp(k[i].key, k[r].key) < 0)
			k[r].key = k[i].key;   /* keys are freed below, by owner */
	}
	free(present);
	free(gone);
}

/* The key a file is grouped by: its group's name, or for the MAINTAINERS
 * groupings "\1" and its owner (section, recipients, tree), or "\2" and
 * its directory where THE REST alone has it. */
static char *plan_key(const char *path, size_t i, const struct selection *sel)
{
	if (sel->by < BY_SUBSYSTEM)
		return group_name(path, sel);
	struct sbuf k = SBUF_INIT;
	if (sel->key && sel->key[i]) {
		sb_addc(&k, '\1');
		sb_adds(&k, sel->key[i]);
	} else {
		struct selection dir = { BY_DIR, sel->depth, NULL, NULL, NULL };
		char *d = group_name(path, &dir);
		sb_addc(&k, '\2');
		sb_adds(&k, d);
		free(d);
	}
	return sb_detach(&k, NULL);
}

/* Cuts the directory a (".": the top) to the deepest one that also holds
 * the file path: their common leading components. */
static void common_dir(struct sbuf *a, const char *path)
{
	char *d = dir_of(path);
	size_t n = 0, keep = 0;

	if (strcmp(a->buf, ".") && strcmp(d, ".")) {
		for (; n < a->len && a->buf[n] == d[n]; n++)
			if (a->buf[n] == '/')
				keep = n;
		/* both end here, or one ends where the other has a '/' */
		if ((n == a->len || a->buf[n] == '/') && (!d[n] || d[n] == '/'))
			keep = n;
	}
	sb_setlen(a, keep);
	if (!keep)
		sb_adds(a, ".");
	free(d);
}

static void name_keyed_group(struct group *g, const char *key,
			     const struct source *src)
{
	struct sbuf name = SBUF_INIT;

	if (key[0] == '\2') {
		sb_adds(&name, key + 1);
	} else {
		char *d = dir_of(src->f[g->member[0]].path);
		sb_adds(&name, d);
		free(d);
		for (size_t m = 1; m < g->nr; m++)
			common_dir(&name, src->f[g->member[m]].path);
	}
	g->name = sb_detach(&name, NULL);
}

/* The group's section: the one most of its files have (the first of them
 * on a tie), or NULL where none has one. */
static void section_of_group(struct group *g, const struct selection *sel)
{
	size_t most = 0;

	for (size_t m = 0; sel->section && m < g->nr; m++) {
		const char *t = sel->section[g->member[m]];
		size_t k = 0;
		if (!t || (g->section && !strcmp(t, g->section)))
			continue;
		for (size_t j = m; j < g->nr; j++)
			k += sel->section[g->member[j]] &&
			     !strcmp(sel->section[g->member[j]], t);
		if (k > most) {
			most = k;
			free(g->section);
			g->section = xstrdup(t);
		}
		if (2 * most > g->nr - m)
			break;  /* no later title can outnumber it */
	}
}

/* Groups by name, then by their first file: two owners in one directory
 * stay two groups, in a stable order. */
struct named_group {
	const char *first;
	struct group g;
};

static int cmp_named_group(const void *a, const void *b)
{
	const struct named_group *x = a, *y = b;
	int c = strcmp(x->g.name, y->g.name);

	return c ? c : strcmp(x->first, y->first);
}

static void sort_groups(struct plan *p, const struct source *src)
{
	struct named_group *v = xcalloc(p->nr + 1, sizeof *v);

	for (size_t i = 0; i < p->nr; i++)
		v[i] = (struct named_group){ src->f[p->g[i].member[0]].path, p->g[i] };
	sort_n(v, p->nr, sizeof *v, cmp_named_group);
	for (size_t i = 0; i < p->nr; i++)
		p->g[i] = v[i].g;
	free(v);
}

size_t make_plan(struct plan *p, const struct source *src,
		 const struct selection *sel)
{
	struct keyed *k = xcalloc(src->nr, sizeof *k);
	char **own = xcalloc(src->nr, sizeof *own);
	size_t n = 0;

	for (size_t i = 0; i < src->nr; i++) {
		const struct sfile *e = &src->f[i];
		if (e->noop || !included(e->path, sel->include))
			continue;
		own[n] = k[n].key = plan_key(e->path, i, sel);
		k[n].path = e->path;
		k[n].idx = i;
		k[n].root = n;
		n++;
	}
	unite_replacements(k, n, src);
	for (size_t i = 0; i < n; i++)
		k[i].key = k[find_root(k, i)].key;
	sort_n(k, n, sizeof *k, cmp_keyed);
	p->g = xcalloc(n, sizeof *p->g);
	p->nr = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(k[j].key, k[i].key))
			j++;
		struct group *g = &p->g[p->nr++];
		g->member = xcalloc(j - i, sizeof *g->member);
		for (size_t m = i; m < j; m++)
			g->member[g->nr++] = k[m].idx;
		if (sel->by < BY_SUBSYSTEM)
			g->name = xstrdup(k[i].key);
		else
			name_keyed_group(g, k[i].key, src);
		section_of_group(g, sel);
		i = j;
	}
	if (sel->by >= BY_SUBSYSTEM)
		sort_groups(p, src);
	for (size_t i = 0; i < n; i++)
		free(own[i]);
	free(own);
	free(k);
	return p->nr;
}

/* Points sel at the facts its grouping keys files by. */
static void select_keys(struct selection *sel, const struct owners *ow)
{
	sel->section = ow->title;
	sel->key = sel->by == BY_SUBSYSTEM ? ow->section :
		   sel->by == BY_ROUTE ? ow->route :
		   sel->by == BY_MAINTAINERS ? ow->rcpt : NULL;
}

/* ---- the organisations -------------------------------------------------------
 * The forms a tree-wide series can take, the article's four and the
 * MAINTAINERS ones: plan --compare shows each, format's cover letter names
 * the one a series has.
 */
static const struct organisation {
	const char *name;
	enum group_by by;
	int depth;
} organisations[] = {
	{ "tree", BY_TREE, 0 }, { "route", BY_ROUTE, 0 },
	{ "maintainers", BY_MAINTAINERS, 0 }, { "subsystem", BY_SUBSYSTEM, 0 },
	{ "depth 2", BY_DIR, 2 }, { "dir", BY_DIR, 0 }, { "file", BY_FILE, 0 },
};

#define NORGS (sizeof organisations / sizeof *organisations)

/* The forms a cover letter names, the article's four first: what it
 * says a series is organised as, and the grouping that makes it so. */
static const struct form {
	const char *says, *offer;
	enum group_by by;
} forms[] = {
	{ "as one patch for the whole tree", "one patch for the whole tree", BY_TREE },
	{ "per file", "per file", BY_FILE },
	{ "per directory", "per directory", BY_DIR },
	{ "per subsystem (MAINTAINERS section)", "per subsystem", BY_SUBSYSTEM },
	{ "per maintainer set", NULL, BY_MAINTAINERS },
	{ "per merge route (the git tree that takes it)", NULL, BY_ROUTE },
};

#define NFORMS (sizeof forms / sizeof *forms)

/* Whether grouping the commits' files by form f gives exactly the
 * commits: 1 or 0, or -1 when it cannot be known (no MAINTAINERS, or
 * recipients that failed). */
static int form_fits(const struct source *src, const struct plan *commits,
		     struct owners *ow, const struct form *f)
{
	if (f->by == BY_TREE)
		return commits->nr == 1;
	if (f->by >= BY_SUBSYSTEM && !ow->m)
		return -1;
	if (f->by == BY_MAINTAINERS && !ow->khit &&
	    file_recipients(ow, src) < 0)
		return -1;
	int fits = 1;
	struct selection sel = { .by = f->by };
	select_keys(&sel, ow);
	char **key = xcalloc(src->nr + 1, sizeof *key);
	for (size_t i = 0; i < src->nr; i++)
		key[i] = plan_key(src->f[i].path, i, &sel);
	/* each commit one key, and no key in two commits (an empty commit
	 * has none) */
	for (size_t c = 0; c < commits->nr && fits; c++) {
		const struct group *g = &commits->g[c];
		for (size_t j = 0; j < g->nr && fits; j++)
			fits = !strcmp(key[g->member[j]], key[g->member[0]]);
		for (size_t d = 0; d < c && fits && g->nr; d++)
			fits = !commits->g[d].nr ||
			       strcmp(key[commits->g[d].member[0]],
				      key[g->member[0]]) != 0;
	}
	free_strings(key, src->nr);
	return fits;
}

/* Whether some file is in two commits; its path into *path then. */
static int shared_file(const struct source *src, const struct plan *p,
		       const char **path)
{
	char **v = xcalloc(src->nr + 1, sizeof *v);
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < p->nr; i++)
		for (size_t j = 0; j < p->g[i].nr; j++)
			v[n++] = src->f[p->g[i].member[j]].path;
	sort_n(v, n, sizeof *v, cmp_str);
	for (size_t i = 1; i < n && !r; i++)
		if (!strcmp(v[i], v[i - 1])) {
			*path = v[i];
			r = 1;
		}
	free(v);
	return r;
}

/* The form commits p of src have (per file, per directory, ...: the first
 * whose groups are its patches; per directory where none fits), rc their
 * commits.  A patch of one file is per file and per directory alike:
 * per directory then, unless the subjects name the files ("drivers/a/x.c: "). */
static enum group_by form_of(const struct source *src, const struct plan *p,
			     struct owners *ow, const struct rcommits *rc)
{
	for (size_t i = 1; i < NFORMS; i++)
		if (form_fits(src, p, ow, &forms[i]) == 1)
			return forms[i].by == BY_FILE && rc->nr && rc->c[0].npath &&
			       form_fits(src, p, ow, &forms[2]) == 1 &&
			       !starts_with(rc->c[0].msg, NULL, rc->c[0].path[0]) ?
			       BY_DIR : forms[i].by;
	return BY_DIR;
}

/* What format records of a version: its form ("form N") and its
 * commits' patch ids (group_patch_ids()), into out. */
static int form_ids(const struct source *src, const struct plan *p,
		    struct owners *ow, const struct rcommits *rc, struct sbuf *out)
{
	struct pids m = PIDS_INIT;
	int r = group_patch_ids(p, src, 1, &m);

	sb_addf(out, "form %d\n", (int)form_of(src, p, ow, rc));
	for (size_t i = 0; i < m.nr; i++)
		sb_addf(out, "%s %s\n", m.e[i].pid, m.e[i].commit);
	pids_release(&m);
	return r;
}

/* ==== 6. messages =======================================================
 * What a commit or a mail says: the user's template with its placeholders
 * filled (SEDME, %(section), %(prefix)) and cleaned as git commit does;
 * the subject prefixes history gives; the subject of a message; and
 * trailers (Signed-off-by: and the review tags), as regroup carries them
 * from old commits to new ones and trailers takes them from replies.
 */

/* ---- templates ------------------------------------------------------------ */

/* The message template from -F file (- for stdin) or -m message: no
 * NUL, not blank.  0, or -1 after error(). */
static int load_template(struct sbuf *text, const char *file,
			 const char *message)
{
	if (message)
		sb_adds(text, message);
	else if (!strcmp(file, "-") ? sb_read_fd(text, 0) < 0 :
		 sb_read_file(text, file) < 0)
		return error_on(file);
	if (memchr(text->buf, '\0', text->len))
		return error("%s: the template holds a NUL byte",
			     file ? file : "-m");
	struct sbuf probe = SBUF_INIT;
	sb_add(&probe, text->buf, text->len);
	cleanup_message(&probe);
	size_t len = probe.len;
	sb_release(&probe);
	if (!len)
		return error("%s: the template is empty", file ? file : "-m");
	return 0;
}

/* A section's name as subjects give it: the first two words of its title
 * that say which subsystem, lower case, joined by ": " ("I2C BCM2835
 * DRIVER" gives "i2c: bcm2835", "ARM/Allwinner sunXi SoC support"
 * "arm/allwinner: sunxi"); words in parentheses and generic ones
 * (SUBSYSTEM, DRIVER, SUPPORT, ...) are skipped.  Appended to out; 0
 * where the title has no such word (THE REST). */
static int section_words(struct sbuf *out, const char *title)
{
	static const char *const generic[] = { "AND", "API", "CORE",
		"DEVICE", "DEVICES", "DRIVER", "DRIVERS", "FOR", "FRAMEWORK",
		"INFRASTRUCTURE", "LAYER", "OF", "REST", "SUBSYSTEM",
		"SUBSYSTEMS", "SUPPORT", "THE", "-", NULL };
	size_t n = 0, start = out->len;

	for (const char *p = title; *p && n < 2;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		size_t len = strcspn(p, " \t,");
		if (!len)
			break;
		size_t k = 0;
		while (generic[k] && !(strlen(generic[k]) == len &&
				       !strncasecmp(generic[k], p, len)))
			k++;
		if (*p != '(' && !generic[k]) {
			if (n++)
				sb_adds(out, ": ");
			for (size_t i = 0; i < len; i++)
				sb_addc(out, (char)tolower((unsigned char)p[i]));
		}
		p += len;
	}
	if (!n)
		sb_setlen(out, start);
	return n > 0;
}

void expand_template(struct sbuf *out, const char *tmpl, size_t len,
		     const struct group *g)
{
	static const char *const key[] = { "SEDME", "%(section)", "%(prefix)" };
	const char *p = tmpl, *end = tmpl + len;

	while (p < end) {
		const char *q = p;
		size_t k = 0, klen = 0;
		for (; q < end; q++) {
			if (*q != 'S' && *q != '%')
				continue;
			for (k = 0; k < 3; k++) {
				klen = strlen(key[k]);
				if ((size_t)(end - q) >= klen && !memcmp(q, key[k], klen))
					break;
			}
			if (k < 3)
				break;
		}
		sb_add(out, p, (size_t)(q - p));
		if (q == end)
			break;
		if (k == 0)
			sb_adds(out, g->tag ? g->tag : g->name);
		else if (k == 1)
			sb_adds(out, g->section ? g->section : g->name);
		else if (g->prefix)
			sb_adds(out, g->prefix);
		else    /* unsettled (settle_prefixes()): the name */
			sb_addf(out, "%s: ", g->name);
		p = q + klen;
	}
}

void cleanup_message(struct sbuf *msg)
{
	struct sbuf out = SBUF_INIT;
	size_t blank = 0;
	const char *pos = msg->buf, *end = msg->buf + msg->len;

	for (struct span l; next_line(&pos, end, &l);) {
		while (l.len && is_space((unsigned char)l.p[l.len - 1]))
			l.len--;
		if (!l.len) {
			blank++;
			continue;
		}
		if (blank && out.len)
			sb_addc(&out, '\n');
		blank = 0;
		sb_add(&out, l.p, l.len);
		sb_addc(&out, '\n');
	}
	sb_release(msg);
	*msg = out;
}

static void group_message(struct sbuf *msg, const struct template *t,
			  const struct group *g)
{
	if (g->msg) {
		sb_adds(msg, g->msg);
		return;
	}
	expand_template(msg, t->text, t->len, g);
	cleanup_message(msg);
	if (t->sob)
		add_trailer(msg, t->sob);
}

/* Each group's message from the template, as an array the caller frees
 * with sbufs_free(). */
static struct sbuf *group_messages(const struct plan *p, const struct template *t)
{
	struct sbuf *m = xcalloc(p->nr + 1, sizeof *m);

	for (size_t i = 0; i < p->nr; i++) {
		sb_init(&m[i]);
		group_message(&m[i], t, &p->g[i]);
	}
	return m;
}

/* Whether the template asks for %(prefix), which history fills. */
static int uses_prefix(const struct template *t)
{
	return t->text && find_bytes(t->text, t->len, "%(prefix)", 9) != NULL;
}

/* The subject (the first paragraph, its lines joined by spaces) and where
 * the body starts, of a cleaned-up message. */
static char *message_subject(const struct sbuf *msg, const char **body)
{
	struct sbuf s = SBUF_INIT;
	const char *pos = msg->buf, *end = msg->buf + msg->len;
	struct span ln;

	while (next_line(&pos, end, &ln) && ln.len) {
		if (s.len)
			sb_addc(&s, ' ');
		sb_add(&s, ln.p, ln.len);
	}
	*body = pos;
	return sb_detach(&s, NULL);
}

static char *subject_of(const char *msg)
{
	struct sbuf m = SBUF_INIT;
	const char *body;

	sb_adds(&m, msg);
	char *s = message_subject(&m, &body);
	sb_release(&m);
	return s;
}

/* The subjects of rc's commits: a new array of rc->nr strings
 * (free_strings()). */
static char **commit_subjects(const struct rcommits *rc)
{
	char **subj = xcalloc(rc->nr + 1, sizeof *subj);

	for (size_t i = 0; i < rc->nr; i++)
		subj[i] = subject_of(rc->c[i].msg);
	return subj;
}

/* ---- prefixes from history ---------------------------------------------- */

/*
 * Subject prefixes from history, as maintainers expect them ("i2c:
 * bcm2835: ", "x86/mm: "), from the window of history before rev (part
 * 3).  The focused commits near a group vote for their cuts: those
 * touching its files (level 0), its directories (1), or under their
 * ancestors of two components or more ("drivers/net", never "drivers"):
 * 2 under the parent directory, 3 under the one above, 4 further off.
 * Each level hears everyone's last PREFIX_ALL, a vote worth less the
 * older it is, and the user's own last PREFIX_OWN, each worth
 * PREFIX_OWN_VOTE (people keep their own style; the user is known by
 * address or by name, as addresses change with employers); a level's
 * votes count level_weight[] times.  Then two rules of how Xen's
 * maintainers write (test/bench prefix; README, Figures):
 *   - a cut that does not name the group hands SHAPE_VOTE tenths of its
 *     votes to the window's latest cut of its shape that does:
 *     "x86/pvh: " to "x86/io-apic: " for io_apic.c, "xen/arm: vgic: "
 *     to "xen/arm: vgic-v3: " for vgic-v3.c.  A group's names are its one
 *     file's stem, its directories' last components, and that file's
 *     whole name ("CHANGELOG.md: " names CHANGELOG.md); a word names one
 *     where both agree in letters and digits, whatever the case;
 *   - cuts that differ only in case pool their votes ("x86/HVM: ",
 *     "x86/hvm: "), and the winner is spelled as the user last spelled
 *     it in the window, else as its most voted spelling.
 * The first heard wins a tie.  What else was tried, and lost, is in the
 * README: votes by distinct authors, more where a maintainer committed
 * the cut, the user's cuts elsewhere, the diff's identifiers.
 */
#define PREFIX_OWN 3
#define PREFIX_ALL 10
#define PREFIX_LEVELS 5
#define PREFIX_OWN_VOTE 3000
#define SHAPE_VOTE 3
static const unsigned level_weight[PREFIX_LEVELS] = { 20, 6, 4, 2, 1 };
/* 1000 * 0.8^i, the vote of everyone's i-th most recent commit */
static const unsigned recency_vote[PREFIX_ALL] = {
	1000, 800, 640, 512, 410, 328, 262, 210, 168, 134
};
/* the levels' cuts, and one handed on by each */
#define BALLOT (2 * PREFIX_LEVELS * (PREFIX_OWN + PREFIX_ALL))

/* The cuts heard so far, in the order first heard, with their votes. */
struct ballot {
	struct span cut[BALLOT];
	unsigned long votes[BALLOT];
	char other[BALLOT];     /* 2: every commit that voted for it names
				 * by it a file the group does not touch
				 * (names_other()): it hands its votes on,
				 * and never wins; 1: one does not; 0: no
				 * commit voted, it was handed votes */
	size_t nr;
};

/* A group's files, directories and their ancestors, each sorted, and
 * its names (spans into file and dir). */
struct area {
	char **file, **dir, **up;
	size_t nfile, ndir, nup;
	struct span *name;
	size_t nname;
};

/* A cut of the window split at its last word: head "x86/", word "mm" of
 * "x86/mm: "; head "xen: ", word "arm" of "xen: arm: ".  at is its
 * commit's place in the window, most recent first. */
struct shape {
	struct span head, word, cut;
	size_t at;
};

/* The user, as the window's commits name their author. */
struct me {
	char *text;             /* git var GIT_AUTHOR_IDENT; owns the spans */
	struct ident id;
};

/* strcmp of a and b's letters and digits, case folded: "IO-APIC" and
 * "io_apic" are one word. */
static int cmp_folded(struct span a, struct span b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a.len && !isalnum((unsigned char)a.p[i]))
			i++;
		while (j < b.len && !isalnum((unsigned char)b.p[j]))
			j++;
		if (i == a.len || j == b.len)
			return (i < a.len) - (j < b.len);
		int x = tolower((unsigned char)a.p[i++]),
		    y = tolower((unsigned char)b.p[j++]);
		if (x != y)
			return x - y;
	}
}

/* Whether span s holds a letter or digit. */
static int has_alnum(struct span s)
{
	for (size_t i = 0; i < s.len; i++)
		if (isalnum((unsigned char)s.p[i]))
			return 1;
	return 0;
}

/* The last component of path, up to its first dot for a file whose
 * name does not start with one ("io_apic" of x86/io_apic.c). */
static struct span path_name(const char *path, int file)
{
	const char *b = base_name(path);
	struct span s = { b, strlen(b) };
	const char *dot = file && s.len && *s.p != '.' ?
			  memchr(s.p, '.', s.len) : NULL;

	if (dot)
		s.len = (size_t)(dot - s.p);
	return s;
}

/* Adds name s to the area's, unless it is empty or there already. */
static void add_name(struct area *a, struct span s)
{
	if (!has_alnum(s))
		return;
	for (size_t i = 0; i < a->nname; i++)
		if (!cmp_folded(a->name[i], s))
			return;
	a->name[a->nname++] = s;
}

static void area_of(struct area *a, const struct group *g,
		    const struct source *src)
{
	memset(a, 0, sizeof *a);
	a->file = xcalloc(2 * g->nr + 1, sizeof *a->file);
	a->dir = xcalloc(2 * g->nr + 1, sizeof *a->dir);
	size_t aup = 0;
	for (size_t j = 0; j < g->nr; j++) {
		const struct sfile *f = &src->f[g->member[j]];
		for (const char *p = f->path; p; p = p == f->path ? f->orig : NULL) {
			a->file[a->nfile++] = xstrdup(p);
			char *d = a->dir[a->ndir++] = dir_of(p);
			/* "drivers/net", never "drivers": a top directory
			 * holds too many subsystems to speak for one */
			char *s = strchr(d, '/');
			while (s && (s = strchr(s + 1, '/'))) {
				GROW(a->up, a->nup + 1, aup);
				a->up[a->nup++] = xstrndup(d, (size_t)(s - d));
			}
		}
	}
	sort_unique(a->file, &a->nfile, 1);
	sort_unique(a->dir, &a->ndir, 1);
	sort_unique(a->up, &a->nup, 1);
	a->name = xcalloc(a->ndir + 3, sizeof *a->name);
	if (a->nfile == 1)
		add_name(a, path_name(a->file[0], 1));
	for (size_t i = 0; i < a->ndir; i++)
		if (strcmp(a->dir[i], "."))
			add_name(a, path_name(a->dir[i], 0));
	if (a->nfile == 1)
		add_name(a, path_name(a->file[0], 0));
}

static void area_release(struct area *a)
{
	free_strings(a->file, a->nfile);
	free_strings(a->dir, a->ndir);
	free_strings(a->up, a->nup);
	free(a->name);
}

/* Whether the sorted v holds the len bytes at s. */
static int has_string(char *const *v, size_t n, const char *s, size_t len)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, cmp_bytes(v[mid], s, len) < 0);
	return lo < n && !cmp_bytes(v[lo], s, len);
}

/* The number of path components of d ("." has none). */
static size_t components(struct span d)
{
	size_t n = !span_is(d, ".", 1);

	for (size_t i = 0; i < d.len; i++)
		n += d.p[i] == '/';
	return n;
}

/* The number of leading components d and e share. */
static size_t shared_components(struct span d, struct span e)
{
	size_t n = 0, i = 0;

	while (i < d.len && i < e.len && d.p[i] == e.p[i]) {
		i++;
		if ((i == d.len || d.p[i] == '/') && (i == e.len || e.p[i] == '/'))
			n++;
	}
	return n;
}

/* The level of a commit under an ancestor: 1 + how many components of
 * the nearest of the area's directories it does not share, at most
 * PREFIX_LEVELS - 1. */
static int cousin_level(const struct past *c, const struct area *a)
{
	size_t best = PREFIX_LEVELS - 1;

	for (size_t i = 0; i < c->ndir; i++)
		for (size_t k = 0; k < a->ndir; k++) {
			struct span d = { a->dir[k], strlen(a->dir[k]) };
			size_t l = 1 + components(d) - shared_components(c->dir[i], d);
			best = l < best ? l : best;
		}
	return (int)best;
}

/* How near c comes to the area: 0 its files, 1 its directories, 2 and
 * on under their ancestors (cousin_level()), PREFIX_LEVELS not at all. */
static int nearness(const struct window *w, const struct past *c,
		    const struct area *a)
{
	for (size_t i = 0; i < c->npath; i++) {
		const char *p = w->path[c->path0 + i];
		if (has_string(a->file, a->nfile, p, strlen(p)))
			return 0;
	}
	for (size_t i = 0; i < c->ndir; i++)
		if (has_string(a->dir, a->ndir, c->dir[i].p, c->dir[i].len))
			return 1;
	for (size_t i = 0; i < c->ndir; i++)
		for (size_t k = 0; k < a->nup; k++) {
			size_t n = strlen(a->up[k]);
			if (c->dir[i].len >= n && !memcmp(c->dir[i].p, a->up[k], n) &&
			    (c->dir[i].len == n || c->dir[i].p[n] == '/'))
				return cousin_level(c, a);
		}
	return PREFIX_LEVELS;
}

/* Whether c is the user's (by address or by name). */
static int is_mine(const struct past *c, const struct me *me)
{
	return me && (span_caseeq(c->author, me->id.addr) ||
		      (me->id.name.len && span_caseeq(c->name, me->id.name)));
}

/* Gives cut n more votes, hearing it first where it is new. */
static size_t vote(struct ballot *b, struct span cut, unsigned long n)
{
	size_t i = 0;

	while (i < b->nr && !span_is(b->cut[i], cut.p, cut.len))
		i++;
	if (i == b->nr) {
		b->cut[b->nr] = cut;
		b->other[b->nr] = 0;
		b->votes[b->nr++] = 0;
	}
	b->votes[i] += n;
	return i;
}

/* The head and last word of a cut ("x86/" and "mm" of "x86/mm: "). */
static struct shape shape_of(struct span cut, size_t at)
{
	struct span body = { cut.p, cut.len - 2 };
	size_t h = 0;

	for (size_t i = 0; i < body.len; i++)
		if (body.p[i] == '/')
			h = i + 1;
		else if (body.p[i] == ':' && i + 1 < body.len && body.p[i + 1] == ' ')
			h = i + 2;
	return (struct shape){ { cut.p, h }, { cut.p + h, body.len - h }, cut, at };
}

/* Whether the len bytes at s end in "-" or "_" and the n at end, in
 * any case. */
static int ends_in_part(const char *s, size_t len, const char *end, size_t n)
{
	return len > n + 1 && (s[len - n - 1] == '-' || s[len - n - 1] == '_') &&
	       !strncasecmp(s + len - n, end, n);
}

/* Whether word names name: the same letters and digits, or name ends in
 * it after a '-' or '_' ("xiic" names "i2c-xiic"). */
static int word_names(struct span word, struct span name)
{
	return !cmp_folded(word, name) ||
	       ends_in_part(name.p, name.len, word.p, word.len);
}

/* Whether word is one of path's parts between '/', '-', '_' and '.'
 * ("mce" of "x86/mce_intel.c", "pygrub" of "tools/pygrub/src/x.py"), in
 * any case. */
static int part_of(struct span word, const char *path)
{
	struct span name = { path, strlen(path) };

	for (size_t at = 0; at < name.len;) {
		size_t n = 0;
		while (at + n < name.len && !strchr("/-_.", name.p[at + n]))
			n++;
		if (span_caseeq((struct span){ name.p + at, n }, word))
			return 1;
		at += n + 1;
	}
	return 0;
}

/* Whether c's cut names a file c touched that is not the area's, and
 * none of the area's names nor a part of its paths: "i2c: xiic: " of a
 * change to i2c-xiic.c names another driver than i2c-bcm2835.c's ("x86/
 * MCE: " of mce.c still names mce_intel.c's). */
static int names_other(const struct window *w, const struct past *c,
		       const struct area *a)
{
	struct span word = shape_of(c->cut, 0).word;

	for (size_t k = 0; k < a->nname; k++)
		if (word_names(word, a->name[k]))
			return 0;
	for (size_t k = 0; k < a->nfile; k++)
		if (part_of(word, a->file[k]))
			return 0;
	for (size_t i = 0; i < c->npath; i++) {
		const char *p = w->path[c->path0 + i];
		if (!has_string(a->file, a->nfile, p, strlen(p)) &&
		    word_names(word, path_name(p, 1)))
			return 1;
	}
	return 0;
}

/* n votes for c's cut; a cut each of whose voters names another file by
 * it (names_other()) is marked so: "i2c: xiic: " for i2c-bcm2835.c, but
 * not "oxenstored: " for its directory's files, which other commits of
 * theirs used too. */
static void hear(struct ballot *b, const struct window *w, const struct area *a,
		 const struct past *c, unsigned long n)
{
	size_t i = vote(b, c->cut, n);

	b->other[i] = names_other(w, c, a) ? (char)(b->other[i] ? b->other[i] : 2) : 1;
}

/* The levels' votes: everyone's last PREFIX_ALL and the user's last
 * PREFIX_OWN at each level (hear()). */
static void hear_levels(struct ballot *b, const struct window *w,
			const struct area *a, const struct me *me)
{
	const struct past *own[PREFIX_LEVELS][PREFIX_OWN], *all[PREFIX_LEVELS][PREFIX_ALL];
	size_t nown[PREFIX_LEVELS] = { 0 }, nall[PREFIX_LEVELS] = { 0 };
	int full = 0;

	for (size_t i = 0; i < w->nr && full < 2 * PREFIX_LEVELS; i++) {
		const struct past *c = &w->c[i];
		int l = nearness(w, c, a);
		if (l == PREFIX_LEVELS)
			continue;
		if (nown[l] < PREFIX_OWN && is_mine(c, me)) {
			own[l][nown[l]++] = c;
			full += nown[l] == PREFIX_OWN;
		}
		if (nall[l] < PREFIX_ALL) {
			all[l][nall[l]++] = c;
			full += nall[l] == PREFIX_ALL;
		}
	}
	for (int l = 0; l < PREFIX_LEVELS; l++) {
		for (size_t i = 0; i < nall[l]; i++)
			hear(b, w, a, all[l][i], 10ul * level_weight[l] * recency_vote[i]);
		for (size_t i = 0; i < nown[l]; i++)
			hear(b, w, a, own[l][i], 10ul * level_weight[l] * PREFIX_OWN_VOTE);
	}
}

static int cmp_shape(const void *x, const void *y)
{
	const struct shape *a = x, *b = y;
	int c = cmp_span(a->head, b->head);

	if (!c)
		c = cmp_folded(a->word, b->word);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* The window's cuts by shape, sorted (cmp_shape()): the caller frees it. */
static struct shape *shapes_of(const struct window *w)
{
	struct shape *s = xcalloc(w->nr + 1, sizeof *s);

	for (size_t i = 0; i < w->nr; i++)
		s[i] = shape_of(w->c[i].cut, i);
	sort_n(s, w->nr, sizeof *s, cmp_shape);
	return s;
}

/* The window's latest cut of head and a word name names, or p NULL. */
static struct span shape_find(const struct shape *s, size_t n,
			      struct span head, struct span name)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, cmp_span(s[mid].head, head) < 0 ||
		(!cmp_span(s[mid].head, head) && cmp_folded(s[mid].word, name) < 0));
	if (lo < n && !cmp_span(s[lo].head, head) && !cmp_folded(s[lo].word, name))
		return s[lo].cut;
	return (struct span){ NULL, 0 };
}

/* Each cut that names none of the area's names hands SHAPE_VOTE tenths
 * of its votes to the window's latest cut of its shape that does. */
static void hand_on(struct ballot *b, const struct area *a,
		    const struct shape *s, size_t ns)
{
	for (size_t i = 0, n = b->nr; i < n; i++) {
		struct shape c = shape_of(b->cut[i], 0);
		size_t k = 0;
		while (k < a->nname && cmp_folded(c.word, a->name[k]))
			k++;
		for (size_t j = 0; k == a->nname && j < a->nname; j++) {
			struct span to = shape_find(s, ns, c.head, a->name[j]);
			if (!to.p)
				continue;
			if (!span_is(to, c.cut.p, c.cut.len))
				vote(b, to, b->votes[i] * SHAPE_VOTE / 10);
			break;
		}
	}
}

/* The ballot's winner, its spellings' votes pooled, spelled as the user
 * last spelled it, else as most voted; none of the cuts that name
 * another file (p NULL where only those were heard). */
static struct span winner(const struct ballot *b, const struct window *w,
			  const struct me *me)
{
	size_t best = b->nr;
	unsigned long most = 0;

	for (size_t i = 0; i < b->nr; i++) {
		unsigned long sum = 0;
		size_t j = 0;
		int other = 0;
		while (j < i && !span_caseeq(b->cut[j], b->cut[i]))
			j++;
		for (size_t k = i; j == i && k < b->nr; k++)
			if (span_caseeq(b->cut[k], b->cut[i])) {
				sum += b->votes[k];
				other |= b->other[k] == 2;
			}
		if (j == i && !other && (best == b->nr || sum > most))
			best = i, most = sum;
	}
	if (best == b->nr)
		return (struct span){ NULL, 0 };
	for (size_t i = 0; me && i < w->nr; i++)
		if (span_caseeq(w->c[i].cut, b->cut[best]) && is_mine(&w->c[i], me))
			return w->c[i].cut;
	for (size_t k = best + 1; k < b->nr; k++)
		if (span_caseeq(b->cut[k], b->cut[best]) &&
		    b->votes[k] > b->votes[best])
			best = k;
	return b->cut[best];
}

/* The group's prefix from the window (s: its ns cuts by shape), or NULL. */
static char *prefix_of(const struct window *w, const struct area *a,
		       const struct me *me, const struct shape *s, size_t ns)
{
	struct ballot b = { .nr = 0 };

	hear_levels(&b, w, a, me);
	if (!b.nr)
		return NULL;
	hand_on(&b, a, s, ns);
	struct span cut = winner(&b, w, me);
	return cut.p ? xstrndup(cut.p, cut.len) : NULL;
}

/* The user's identity as git gives it (git var GIT_AUTHOR_IDENT), or
 * NULL; the caller frees it with free(me->text) and free(me). */
static struct me *user_ident(void)
{
	const char *words[] = { "var", "GIT_AUTHOR_IDENT", NULL };
	struct sbuf out = SBUF_INIT;
	struct me *me = xcalloc(1, sizeof *me);

	if (!run_git(&(struct git_run){ .words = words, .out = &out,
					 .quiet = 1 })) {
		chomp(&out);
		me->text = sb_detach(&out, NULL);
		if (parse_ident(me->text, &me->id) == 0)
			return me;
	}
	sb_release(&out);
	free(me->text);
	free(me);
	return NULL;
}

/* The last k components of a group's name, the extension off for a file,
 * as prefix words: "ahb: " (k 1) or "ath9k: ahb: " (k 2) of
 * drivers/net/wireless/ath/ath9k/ahb.c; fewer where the name has fewer,
 * none for ".". */
static void add_components(struct sbuf *sb, const struct group *g, int file,
			   int k)
{
	const char *name = g->name, *end = name + strlen(name), *at = end;

	if (!strcmp(name, "."))
		return;
	for (int n = 0; n < k && at > name; n++)
		for (at--; at > name && at[-1] != '/'; at--)
			;
	const char *dot = file ? memrchr_bytes(at, (size_t)(end - at), '.') : NULL;
	if (dot && dot > at && dot[-1] != '/')
		end = dot;
	for (const char *p = at; p < end; p++)
		if (*p == '/')
			sb_adds(sb, ": ");
		else
			sb_addc(sb, *p);
	sb_adds(sb, ": ");
}

/* Whether prefix ends in the word c (already names the group). */
static int ends_in_word(const char *prefix, const char *c, size_t len)
{
	size_t n = strlen(prefix);

	return n >= len + 2 && !memcmp(prefix + n - len - 2, c, len) &&
	       (n == len + 2 || prefix[n - len - 3] == ' ' ||
		prefix[n - len - 3] == '/');
}

/* ---- prefixes from the path ---------------------------------------------- */

/*
 * Where history says nothing (a tarball, a shallow clone, a file nobody
 * touched), the kernel's own convention from the path: a driver's file
 * drivers/SUB/.../SUB-NAME.c or .../NAME.c gives "SUB: NAME: " ("i2c:
 * xiic: " of drivers/i2c/busses/i2c-xiic.c), a file of a driver's own
 * directory that directory ("wifi: ath9k: " of .../ath/ath9k/ahb.c), a
 * directory group its subsystem and driver directory.  SUB is the
 * component after drivers/, or what the table says where a subsystem
 * writes its own words ("wifi", "ASoC", "drm/bridge": %s takes the next
 * component).  Below drivers/misc/ and drivers/net/ a directory is a
 * subsystem of its own ("eeprom: at24: ", "wireguard: "), but for the
 * network's shared layers ("net: phy: ", "net: usb: qmi_wwan: "); their
 * own files keep "misc: " and "net: ".  Directories that only sort
 * drivers (busses/, host/) are passed over, and below a "vendor" entry
 * one vendor directory (ethernet/stmicro/stmmac; a file in it names its
 * own driver: ethernet/freescale/fec_main.c).  sound/'s own files keep their names
 * ("ASoC: soc-pcm: ").  Else a section's title where it reads as a
 * subject, else the group's directory.
 */
struct path_words {
	const char *dir;      /* a leading path, ending in '/' */
	const char *words;    /* its subjects' words; "%s": the next component */
	const char *named;    /* printf of words and the driver; NULL: "%s: %s: " */
	int vendor;
};

static const struct path_words path_words[] = {
	{ "drivers/", "%s", NULL, 0 },
	{ "drivers/acpi/", "ACPI", NULL, 0 },
	{ "drivers/bluetooth/", "Bluetooth", NULL, 0 },
	{ "drivers/char/hw_random/", "hwrng", NULL, 0 },
	{ "drivers/char/ipmi/", "ipmi", NULL, 0 },
	{ "drivers/char/tpm/", "tpm", NULL, 0 },
	{ "drivers/crypto/", "crypto", "%s: %s - ", 0 },
	{ "drivers/dma/", "dmaengine", NULL, 0 },
	{ "drivers/gpu/drm/", "drm/%s", NULL, 0 },
	{ "drivers/hid/", "HID", NULL, 0 },
	{ "drivers/hwmon/", "hwmon", "%s: (%s) ", 0 },
	{ "drivers/iio/", "iio: %s", NULL, 0 },
	{ "drivers/input/", "Input", "%s: %s - ", 0 },
	{ "drivers/media/", "media", NULL, 1 },
	{ "drivers/mtd/nand/raw/", "mtd: rawnand", NULL, 0 },
	{ "drivers/misc/", "%s", NULL, 0 },
	{ "drivers/mtd/ubi/", "ubi", NULL, 0 },
	{ "drivers/net/", "%s", NULL, 0 },
	{ "drivers/net/can/", "can", NULL, 0 },
	{ "drivers/net/dsa/", "net: dsa", NULL, 0 },
	{ "drivers/net/ethernet/", "net", NULL, 1 },
	{ "drivers/net/ipa/", "net: ipa", NULL, 0 },
	{ "drivers/net/mdio/", "net: mdio", NULL, 0 },
	{ "drivers/net/pcs/", "net: pcs", NULL, 0 },
	{ "drivers/net/phy/", "net: phy", NULL, 0 },
	{ "drivers/net/usb/", "net: usb", NULL, 0 },
	{ "drivers/net/wireless/", "wifi", NULL, 1 },
	{ "drivers/net/wwan/", "net: wwan", NULL, 0 },
	{ "drivers/pci/", "PCI", NULL, 0 },
	{ "drivers/platform/", "platform/%s", NULL, 0 },
	{ "drivers/power/", "power: %s", NULL, 0 },
	{ "drivers/tty/serial/", "serial", NULL, 0 },
	{ "drivers/video/backlight/", "backlight", NULL, 0 },
	{ "drivers/video/fbdev/", "fbdev", NULL, 0 },
	{ "sound/", "ALSA", NULL, 0 },
	{ "sound/soc/", "ASoC", NULL, 0 },
};

/* Whether the len bytes at s name a directory that only sorts drivers. */
static int sorts_drivers(const char *s, size_t len)
{
	static const char *const v[] = { "busses", "chips", "class",
		"codecs", "controller", "host", "i2c", "joystick", "keyboard",
		"master", "misc", "mouse", "pci", "platform", "spi", "tablet",
		"test-drivers", "touchscreen", "usb", NULL };

	for (size_t i = 0; v[i]; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], s, len))
			return 1;
	return 0;
}

/* The driver's name in a file's stem (the len bytes at s), SUB being
 * the subsystem's directory: "xiic" of "i2c-xiic", "ocp" of "ptp_ocp",
 * "da9063" of "da9063-regulator", "fec" of the main file "fec_main". */
static struct span driver_of_stem(const char *s, size_t len, struct span sub)
{
	if (len > sub.len + 1 && !memcmp(s, sub.p, sub.len) &&
	    (s[sub.len] == '-' || s[sub.len] == '_'))
		s += sub.len + 1, len -= sub.len + 1;
	if (ends_in_part(s, len, sub.p, sub.len))
		len -= sub.len + 1;
	else if (ends_in_part(s, len, "core", 4) || ends_in_part(s, len, "main", 4))
		len -= 5;
	return (struct span){ s, len };
}

/* The table's longest entry holding path ("drivers/dma/x.c", or the
 * directory "drivers/dma"), or NULL. */
static const struct path_words *path_entry(const char *path)
{
	const struct path_words *e = NULL;
	size_t elen = 0;

	for (size_t i = 0; i < sizeof path_words / sizeof *path_words; i++) {
		size_t len = strlen(path_words[i].dir);
		if (len > elen && !strncmp(path, path_words[i].dir, len - 1) &&
		    (path[len - 1] == '/' || !path[len - 1]))
			e = &path_words[i], elen = len;
	}
	return e;
}

/* A plural directory (dir) whose file (its name, SUB being the
 * subsystem's directory) names it in the singular, as the kernel writes
 * it: "i2c: mux: ltc4306: " of muxes/i2c-mux-ltc4306.c after words "i2c",
 * appended to out; whether it is so. */
static int singular_prefix(struct sbuf *out, const char *words,
			   struct span dir, struct span file, struct span sub)
{
	const char *dot = memchr(file.p, '.', file.len);
	struct span st = driver_of_stem(file.p, dot ? (size_t)(dot - file.p) :
					file.len, sub);
	size_t k = 0;

	while (k < st.len && k < dir.len && st.p[k] == dir.p[k])
		k++;
	struct span rest = { dir.p + k, dir.len - k };
	if (!k || k + 1 >= st.len || !strchr("-_", st.p[k]) ||
	    !(span_is(rest, "s", 1) || span_is(rest, "es", 2)))
		return 0;
	sb_addf(out, "%s: %.*s: %.*s: ", words, (int)k, dir.p,
		(int)(st.len - k - 1), st.p + k + 1);
	return 1;
}

/* The kernel's prefix of a path (a file where file), as the comment
 * above says, appended to out; 0 where no entry of the table holds it. */
UNIT int path_prefix(struct sbuf *out, const char *path, int file)
{
	const struct path_words *e = path_entry(path);
	struct span c[64];
	size_t n = 0, at = 0;

	if (!e)
		return 0;
	size_t elen = strlen(e->dir);
	const char *p = path + elen - 1;
	for (p += *p == '/'; *p && n < 64; n++) {
		size_t len = strcspn(p, "/");
		c[n] = (struct span){ p, len };
		p += len + (p[len] == '/');
	}
	size_t dirs = file && n ? n - 1 : n;
	struct span sub = { e->dir + elen - 1, 0 };
	while (e->dir[0] == 'd' && sub.p > e->dir && sub.p[-1] != '/')
		sub.p--, sub.len++;
	const char *pct = str_find(e->words, "%s");
	struct sbuf w = SBUF_INIT;
	if (pct && at >= dirs) {        /* "drm", "iio" of the directory */
		if (pct == e->words && !strcmp(e->dir, "drivers/"))
			return 0;
		if (pct == e->words)    /* drivers/misc/'s own files */
			sb_add(&w, sub.p, sub.len);
		sb_add(&w, e->words, (size_t)(pct - e->words));
		while (w.len && (w.buf[w.len - 1] == '/' || w.buf[w.len - 1] == ' ' ||
				 w.buf[w.len - 1] == ':'))
			sb_setlen(&w, w.len - 1);
	} else if (pct) {
		sub = c[at++];
		sb_addf(&w, "%.*s%.*s%s", (int)(pct - e->words), e->words,
			(int)sub.len, sub.p, pct + 2);
	} else {
		sb_adds(&w, e->words);
	}
	struct span name = { NULL, 0 }, d[64];
	size_t nd = 0;
	for (; at < dirs; at++)
		if (!sorts_drivers(c[at].p, c[at].len))
			d[nd++] = c[at];
	if (nd && !(e->vendor && nd == 1 && file))
		name = d[e->vendor && nd > 1];
	else if (file && n) {
		const char *dot = memchr(c[n - 1].p, '.', c[n - 1].len);
		name = driver_of_stem(c[n - 1].p, dot ? (size_t)(dot - c[n - 1].p) :
				      c[n - 1].len, sub);
	}
	if (file && n && nd && name.p == d[nd - 1].p && !e->named &&
	    singular_prefix(out, w.buf, name, c[n - 1], sub)) {
		sb_release(&w);
		return 1;
	}
	if (name.len && !(name.len == sub.len && !memcmp(name.p, sub.p, sub.len))) {
		/* "hv: " of drivers/hv/hv.c: a word twice is no subject */
		char *nm = xstrndup(name.p, name.len);
		sb_addf(out, e->named ? e->named : "%s: %s: ", w.buf, nm);
		free(nm);
	} else {
		sb_addf(out, "%s: ", w.buf);
	}
	sb_release(&w);
	return 1;
}

/* Whether a section's title reads as a subject: none of the words that
 * say it is a MAINTAINERS entry and not a part of the tree. */
static int title_reads(const char *title)
{
	static const char *const v[] = { "ARM/", "SUPPORT", "DRIVER",
		"ARCHITECTURE", "+", "/", NULL };

	for (size_t i = 0; v[i]; i++)
		if (str_find(title, v[i]))
			return 0;
	return 1;
}

/* What %(prefix) becomes where history gave none, as the comment above
 * says: from the path the group's files share (the file itself for
 * one), else its section's title, else their directory (the top's:
 * the title all the same, else the group's name). */
static void fallback_prefix(struct sbuf *out, const struct group *g,
			    const struct source *src)
{
	const char *one = g->nr ? src->f[g->member[0]].path : g->name;
	char *dir = dir_of(one);
	struct sbuf d = SBUF_INIT;
	int file = 1;

	sb_adds(&d, dir);
	for (size_t j = 1; j < g->nr; j++) {
		file &= !strcmp(src->f[g->member[j]].path, one);
		common_dir(&d, src->f[g->member[j]].path);
	}
	int top = !strcmp(d.buf, ".");
	if (path_prefix(out, file ? one : d.buf, file))
		;
	else if (g->section && (top || title_reads(g->section)) &&
		 section_words(out, g->section))
		sb_adds(out, ": ");
	else
		sb_addf(out, "%s: ", top ? g->name : d.buf);
	sb_release(&d);
	free(dir);
}

/* Every group's prefix, learned or not: where history said nothing, the
 * path's words, else the section's (fallback_prefix()).  Two
 * groups with one prefix then each add their name's last component, as
 * kernel subjects name the driver ("usb: " to "usb: fusb302: "), unless
 * the prefix already ends in it; where that is shared still (ath9k/ahb.c
 * and ath10k/ahb.c), the components above it too, up to four: no two
 * groups share a subject that their names can tell apart. */
static void settle_prefixes(struct plan *p, const struct source *src,
			    int by_file)
{
	char **base = xcalloc(p->nr + 1, sizeof *base);
	char *shared = xcalloc(p->nr + 1, 1);

	for (size_t i = 0; i < p->nr; i++) {
		if (!p->g[i].prefix) {
			struct sbuf f = SBUF_INIT;
			fallback_prefix(&f, &p->g[i], src);
			p->g[i].prefix = sb_detach(&f, NULL);
		}
		base[i] = xstrdup(p->g[i].prefix);
	}
	for (int k = 1, any = 1; any && k <= 4; k++) {
		any = 0;
		memset(shared, 0, p->nr);
		/* 1: shared; 2: shared with one of the same name, which
		 * no component tells apart (two sections, one directory) */
		for (size_t i = 0; i < p->nr; i++)
			for (size_t j = i + 1; j < p->nr; j++)
				if (!strcmp(p->g[i].prefix, p->g[j].prefix)) {
					char v = strcmp(p->g[i].name, p->g[j].name) ? 1 : 2;
					shared[i] = shared[i] > v ? shared[i] : v;
					shared[j] = shared[j] > v ? shared[j] : v;
					any = 1;
				}
		for (size_t i = 0; i < p->nr; i++) {
			struct sbuf t = SBUF_INIT;
			add_components(&t, &p->g[i], by_file, k);
			if (shared[i] != 1 || t.len < 3 || (k == 1 &&
			    ends_in_word(base[i], t.buf, t.len - 2))) {
				sb_release(&t);
				continue;
			}
			free(p->g[i].prefix);
			struct sbuf v = SBUF_INIT;
			sb_addf(&v, "%s%s", base[i], t.buf);
			p->g[i].prefix = sb_detach(&v, NULL);
			sb_release(&t);
		}
	}
	free_strings(base, p->nr);
	free(shared);
}

/* Each group's prefix from the window w, read, as the comment above the
 * part says, for the user me (NULL: none known); then settled
 * (settle_prefixes()). */
static void prefixes_from(struct plan *p, const struct source *src,
			  const struct window *w, const struct me *me,
			  int by_file)
{
	struct shape *s = shapes_of(w);

	for (size_t i = 0; i < p->nr; i++) {
		struct area a;
		area_of(&a, &p->g[i], src);
		free(p->g[i].prefix);
		p->g[i].prefix = prefix_of(w, &a, me, s, w->nr);
		area_release(&a);
	}
	free(s);
	settle_prefixes(p, src, by_file);
}

/* prefixes_from() the window before rev (w, started or not; dir: where
 * git's output may go, NULL for none), as the user git names. */
static void learn_prefixes(struct plan *p, const struct source *src,
			   struct window *w, const char *dir, const char *rev,
			   int by_file)
{
	window_read(w, rev ? dir : NULL, rev);
	struct me *me = w->nr ? user_ident() : NULL;

	prefixes_from(p, src, w, me, by_file);
	if (me)
		free(me->text);
	free(me);
}

#ifdef SERIES_NO_MAIN
/* The learner with no repository, for the unit tests: prefixes_from() a
 * window read from log (the history part's grammar), no user known. */
void prefixes_from_log(struct plan *p, const struct source *src,
		       const char *log, size_t len, int by_file)
{
	struct window w = WINDOW_INIT;

	sb_add(&w.log, log, len);
	w.read = 1;
	parse_window(&w);
	attribute_merges(&w);
	prefixes_from(p, src, &w, NULL, by_file);
	window_release(&w);
}
#endif

/* Whether two groups of p, sorted by name, have one name. */
static int names_repeat(const struct plan *p)
{
	for (size_t i = 1; i < p->nr; i++)
		if (!strcmp(p->g[i - 1].name, p->g[i].name))
			return 1;
	return 0;
}

/* Whether no other group named as group i has its prefix. */
static int prefix_alone(const struct plan *p, size_t i)
{
	for (size_t j = 0; j < p->nr; j++)
		if (j != i && !strcmp(p->g[j].name, p->g[i].name) &&
		    p->g[j].prefix && !strcmp(p->g[j].prefix, p->g[i].prefix))
			return 0;
	return 1;
}

/* Tags the groups of a MAINTAINERS grouping whose name another has (one
 * directory, several sections): SEDME becomes the group's own learned
 * prefix, else its section's name in subject form. */
static void distinct_tags(struct plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		struct group *g = &p->g[i];
		if (!(i && !strcmp(p->g[i - 1].name, g->name)) &&
		    !(i + 1 < p->nr && !strcmp(p->g[i + 1].name, g->name)))
			continue;
		struct sbuf t = SBUF_INIT;
		if (g->prefix && prefix_alone(p, i))
			sb_add(&t, g->prefix, strlen(g->prefix) - 2);
		else if (!g->section || !section_words(&t, g->section))
			continue;
		free(g->tag);
		g->tag = sb_detach(&t, NULL);
	}
}

/* What tells group g's subject from another's: its first file's stem
 * ("pata_arasan_cf" of drivers/ata/pata_arasan_cf.c), less a "WORD-" or
 * "WORD_" whose WORD starts the subject ("omap" of i2c-omap.c under
 * "i2c: "). */
static void telling_part(struct sbuf *out, const struct group *g,
			 const struct source *src, const char *subj)
{
	const char *path = g->nr ? src->f[g->member[0]].path : g->name;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	size_t w = strcspn(subj, ":/ ");

	if (w && n > w + 1 && !strncasecmp(base, subj, w) &&
	    (base[w] == '-' || base[w] == '_'))
		base += w + 1, n -= w + 1;
	sb_add(out, base, n);
}

/* Subjects two groups would share, made distinct where their files tell
 * them apart: SEDME (each one's tag) and %(prefix) (its prefix) gain the
 * group's telling part ("libata: pata: " becomes "libata: pata:
 * arasan_cf: ").  What stays shared, warn_subjects() says. */
static void distinct_subjects(struct plan *p, const struct source *src,
			      const struct template *t)
{
	char **subj = xcalloc(p->nr + 1, sizeof *subj), *twice;
	int sedme = t->text && find_bytes(t->text, t->len, "SEDME", 5);
	int prefix = t->text && find_bytes(t->text, t->len, "%(prefix)", 9);

	for (size_t i = 0; (sedme || prefix) && i < p->nr; i++) {
		struct sbuf m = SBUF_INIT;
		expand_template(&m, t->text, t->len, &p->g[i]);
		subj[i] = subject_of(m.buf);
		sb_release(&m);
	}
	twice = xcalloc(p->nr + 1, 1);
	for (size_t i = 0; (sedme || prefix) && i < p->nr; i++)
		for (size_t j = i + 1; j < p->nr; j++)
			if (!strcmp(subj[i], subj[j]))
				twice[i] = twice[j] = 1;
	for (size_t i = 0; i < p->nr; i++) {
		struct group *g = &p->g[i];
		struct sbuf part = SBUF_INIT, v = SBUF_INIT;
		if (!twice[i])
			continue;
		telling_part(&part, g, src, subj[i]);
		if (sedme) {
			sb_addf(&v, "%s: %s", g->tag ? g->tag : g->name, part.buf);
			free(g->tag);
			g->tag = sb_detach(&v, NULL);
		}
		if (prefix) {
			expand_template(&v, "%(prefix)", 9, g);
			sb_addf(&v, "%s: ", part.buf);
			free(g->prefix);
			g->prefix = sb_detach(&v, NULL);
		}
		sb_release(&part);
	}
	free_strings(subj, p->nr);
	free(twice);
}

/* Characters, not bytes: UTF-8's continuation bytes do not count. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Warns once where subjects are longer than submitting-patches.rst's 75
 * characters (70 to 75 for the summary, the [PATCH] tag not counted):
 * how many, and the longest. */
static void warn_long_subjects(char *const *subject, size_t n)
{
	size_t over = 0, longest = 0, at = 0;

	for (size_t i = 0; i < n; i++) {
		size_t w = text_width(subject[i]);
		over += w > 75;
		if (w > longest)
			longest = w, at = i;
	}
	if (over)
		warning("%zu subject%s longer than 75 characters, as "
			"submitting-patches.rst asks (the longest, patch %zu, "
			"has %zu: \"%s\")", over, over == 1 ? " is" : "s are",
			at + 1, longest, subject[at]);
}

/* Warns, before anything is written, where subjects would not tell the
 * patches apart (nor the reply matcher, nor the reader): a template with
 * no placeholder for several groups (t may be NULL), else each subject
 * two or more of the n share; patches are counted from 1, in order. */
static void warn_subjects(char *const *subject, size_t n,
			  const struct template *t)
{
	if (n > 1 && t && t->text && !find_bytes(t->text, t->len, "SEDME", 5) &&
	    !find_bytes(t->text, t->len, "%(section)", 10) &&
	    !find_bytes(t->text, t->len, "%(prefix)", 9)) {
		warning("the template has no SEDME, %%(section) or %%(prefix): "
			"all %zu patches would have one subject", n);
		return;
	}
	warn_long_subjects(subject, n);
	struct owned *v = xcalloc(n + 1, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (struct owned){ subject[i], i };
	sort_n(v, n, sizeof *v, cmp_owned);
	for (size_t i = 0, j; i < n; i = j) {
		size_t first = SIZE_MAX, second = SIZE_MAX;
		for (j = i; j < n && !strcmp(v[j].path, v[i].path); j++)
			if (v[j].k < first) {
				second = first;
				first = v[j].k;
			} else if (v[j].k < second) {
				second = v[j].k;
			}
		if (j - i > 1)
			warning("%zu patches (%zu, %zu%s) would share the subject "
				"\"%s\"", j - i, first + 1, second + 1,
				j - i > 2 ? ", ..." : "", v[i].path);
	}
	free(v);
}

/* The subjects of n messages, for warn_subjects(); free_strings(). */
static char **subjects_of(const struct sbuf *msgs, size_t n)
{
	char **v = xcalloc(n + 1, sizeof *v);
	const char *body;

	for (size_t i = 0; i < n; i++)
		v[i] = message_subject(&msgs[i], &body);
	return v;
}

/* warn_subjects() of n messages made from template t. */
static void warn_messages(const struct sbuf *msgs, size_t n,
			  const struct template *t)
{
	char **subject = subjects_of(msgs, n);

	warn_subjects(subject, n, t);
	free_strings(subject, n);
}

/* ---- trailers ---------------------------------------------------------------
 * git's trailer block: the last paragraph of a message, not its subject,
 * whose every line is "Token: value".
 */

/* Whether the line looks like a trailer ("Token: value"). */
static int is_trailer(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '-'))
		i++;
	return i > 0 && i + 1 < len && s[i] == ':' && s[i + 1] == ' ';
}

/*
 * Whether msg[0..end) ends in a trailer block: a last paragraph, not the
 * subject's, whose every line is a trailer (git's rule, less its 25%
 * tolerance for other lines).
 */
static int ends_in_trailers(const char *msg, size_t end)
{
	size_t start = end;

	while (start && !(msg[start - 1] == '\n' && start >= 2 &&
			  msg[start - 2] == '\n'))
		start--;
	if (!start)
		return 0;
	for (size_t p = start; p < end;) {
		const char *nl = memchr(msg + p, '\n', end - p);
		size_t e = nl ? (size_t)(nl - msg) : end;
		if (!is_trailer(msg + p, e - p))
			return 0;
		p = e + 1;
	}
	return 1;
}

/* The trailer lines of msg (its last paragraph, when it is not the first
 * and every line is "Token: value"), as a new array of strings in *out
 * (the caller frees both). */
static void message_trailers(const char *msg, char ***out, size_t *n)
{
	size_t end = strlen(msg), a = 0;

	*out = NULL;
	*n = 0;
	while (end && (msg[end - 1] == '\n' || msg[end - 1] == ' '))
		end--;
	if (!ends_in_trailers(msg, end))
		return;
	size_t start = end;
	while (start && !(msg[start - 1] == '\n' && start >= 2 &&
			  msg[start - 2] == '\n'))
		start--;
	for (const char *pos = msg + start, *e = msg + end; pos < e;) {
		struct span ln;
		next_line(&pos, e, &ln);
		ln = trim_span(ln);
		if (!ln.len)
			continue;
		GROW(*out, *n + 1, a);
		(*out)[(*n)++] = xstrndup(ln.p, ln.len);
	}
}

void add_trailer(struct sbuf *msg, const char *sob)
{
	size_t end = msg->len;

	while (end && msg->buf[end - 1] == '\n')
		end--;
	size_t start = end;
	while (start && msg->buf[start - 1] != '\n')
		start--;
	size_t slen = strlen(sob);
	if (end - start == slen && !memcmp(msg->buf + start, sob, slen))
		return;
	sb_setlen(msg, end);
	if (end)
		sb_adds(msg, ends_in_trailers(msg->buf, end) ? "\n" : "\n\n");
	sb_adds(msg, sob);
	sb_addc(msg, '\n');
}

/* Whether one of the n lines is line, in any case. */
static int has_line(char *const *v, size_t n, const char *line)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(v[i], line))
			return 1;
	return 0;
}

/* ---- regroup's trailers ---------------------------------------------------- */

/* What regroup knows of the range's trailers: per commit its trailers
 * (less the user's own sign-off); per source file the commits that touch
 * it.  The commits are the caller's. */
struct regroup {
	const struct rcommits *commits;
	char ***trailer;         /* per commit: its trailers, less the user's sign-off */
	size_t *ntrailer;
	size_t **fcommit;        /* per source file: the commits touching it */
	size_t *nfcommit;
};

static int cmp_owned_path(const void *a, const void *b)
{
	return strcmp(((const struct owned *)a)->path, ((const struct owned *)b)->path);
}

/* Which commits touch each of src's files, by its path (a renamed
 * file's new one: a commit of its old path alone is not counted). */
static void map_file_commits(struct regroup *rg, const struct source *src)
{
	struct owned *by = xcalloc(src->nr + 1, sizeof *by);

	for (size_t i = 0; i < src->nr; i++)
		by[i] = (struct owned){ src->f[i].path, i };
	sort_n(by, src->nr, sizeof *by, cmp_owned_path);
	rg->fcommit = xcalloc(src->nr + 1, sizeof *rg->fcommit);
	rg->nfcommit = xcalloc(src->nr + 1, sizeof *rg->nfcommit);
	for (size_t c = 0; c < rg->commits->nr; c++)
		for (size_t j = 0; j < rg->commits->c[c].npath; j++) {
			struct owned key = { rg->commits->c[c].path[j], 0 };
			struct owned *hit = bsearch(&key, by, src->nr, sizeof *by,
						    cmp_owned_path);
			if (!hit)
				continue;   /* changed and changed back */
			size_t f = hit->k, n = rg->nfcommit[f];
			if (n && rg->fcommit[f][n - 1] == c)
				continue;
			rg->fcommit[f] = xrealloc(rg->fcommit[f], xmul(n + 1, sizeof **rg->fcommit));
			rg->fcommit[f][rg->nfcommit[f]++] = c;
		}
	free(by);
}

static int has_trailer(const struct regroup *rg, size_t c, const char *t)
{
	for (size_t i = 0; i < rg->ntrailer[c]; i++)
		if (!strcmp(rg->trailer[c][i], t))
			return 1;
	return 0;
}

/* Whether group g keeps trailer t: every commit of its files carried it. */
static int group_keeps(const struct regroup *rg, const struct group *g,
		       const char *t)
{
	for (size_t i = 0; i < g->nr; i++)
		for (size_t j = 0; j < rg->nfcommit[g->member[i]]; j++)
			if (!has_trailer(rg, rg->fcommit[g->member[i]][j], t))
				return 0;
	return 1;
}

/* Whether group g holds a change of commit c. */
static int group_has_commit(const struct regroup *rg, const struct group *g,
			    size_t c)
{
	for (size_t i = 0; i < g->nr; i++)
		for (size_t j = 0; j < rg->nfcommit[g->member[i]]; j++)
			if (rg->fcommit[g->member[i]][j] == c)
				return 1;
	return 0;
}

/* Each group's author, as an ident: the author of all the commits its
 * changes come from, where that is one person (at the last one's date);
 * NULL where they are several (the committer's then).  The caller frees
 * the array and its strings (free_strings, p->nr). */
static char **regroup_authors(const struct regroup *rg, const struct plan *p)
{
	char **who = xcalloc(p->nr + 1, sizeof *who);

	for (size_t i = 0; i < p->nr; i++) {
		const struct rcommit *one = NULL;
		int mixed = 0;
		for (size_t c = 0; c < rg->commits->nr && !mixed; c++) {
			const struct rcommit *rc = &rg->commits->c[c];
			if (!group_has_commit(rg, &p->g[i], c))
				continue;
			mixed = one && strcmp(one->author, rc->author);
			one = rc;
		}
		if (!one || mixed)
			continue;
		struct sbuf id = SBUF_INIT;
		author_ident(&id, one);
		who[i] = sb_detach(&id, NULL);
	}
	return who;
}

/* The paragraphs of msg that a person wrote into it beyond what the
 * template gives now (new, its new message): neither its subject nor its
 * trailer block, and not in new.  A new array of strings, or NULL. */
static char **own_text(const char *msg, const char *new, size_t *n)
{
	const char *pos = msg, *end = msg + strlen(msg), *para = NULL;
	char **v = NULL;
	size_t a = 0, lines = 0;

	*n = 0;
	for (struct span l;; lines++) {
		const char *at = pos;
		int more = next_line(&pos, end, &l);
		if (more && trim_span(l).len) {
			para = para ? para : at;
			continue;
		}
		if (para && lines) {
			size_t len = (size_t)(at - para);
			while (len && (para[len - 1] == '\n' || para[len - 1] == ' '))
				len--;
			char *p = xstrndup(para, len);
			int subject = para == msg, trailers = !more &&
				ends_in_trailers(msg, (size_t)(para + len - msg));
			if (!subject && !trailers && !str_find(new, p)) {
				GROW(v, *n + 1, a);
				v[(*n)++] = p;
			} else
				free(p);
		}
		para = NULL;
		if (!more)
			break;
	}
	return v;
}

/* The one old commit whose changes group g holds, all of them and no
 * other's, or commits->nr where there is none. */
static size_t sole_commit(const struct regroup *rg, const struct plan *p,
			  size_t g)
{
	size_t one = rg->commits->nr;

	for (size_t c = 0; c < rg->commits->nr; c++) {
		if (!group_has_commit(rg, &p->g[g], c))
			continue;
		if (one < rg->commits->nr)
			return rg->commits->nr;
		one = c;
		for (size_t k = 0; k < p->nr; k++)
			if (k != g && group_has_commit(rg, &p->g[k], c))
				return rg->commits->nr;
	}
	return one;
}

/* The paragraphs beyond the subject and trailers that every commit of a
 * range of two or more has: the series' own words (the body of the
 * template it was made from), not a note on one commit.  *n of them. */
static char **shared_text(const struct regroup *rg, size_t *n)
{
	size_t k = 0;
	char **v = rg->commits->nr > 1 ? own_text(rg->commits->c[0].msg, "", n) :
		   (*n = 0, NULL);

	for (size_t i = 0; i < *n; i++) {
		int all = 1;
		for (size_t c = 1; c < rg->commits->nr && all; c++)
			all = str_find(rg->commits->c[c].msg, v[i]) != NULL;
		if (all)
			v[k++] = v[i];
		else
			free(v[i]);
	}
	*n = k;
	return v;
}

/* Appends the old message's own text to m, before the trailers to come:
 * not the body all the old commits share (shared, ns paragraphs: their
 * template's, which the new template replaces; report_own_text() names
 * it where the new one lacks it). */
static void add_own_text(struct sbuf *m, const char *old, char *const *shared,
			 size_t ns)
{
	struct sbuf known = SBUF_INIT;
	size_t n;

	sb_add(&known, m->buf, m->len);
	for (size_t i = 0; i < ns; i++)
		sb_addf(&known, "\n%s\n", shared[i]);
	char **v = own_text(old, known.buf, &n);
	for (size_t i = 0; i < n; i++)
		sb_addf(m, "\n%s\n", v[i]);
	free_strings(v, n);
	sb_release(&known);
}

/* Each old commit's own text that no new commit keeps (its changes went
 * to several, or with others'), named in a warning; what every old commit
 * shares, once, with how many new commits lack it. */
static void report_own_text(const struct regroup *rg, const struct plan *p,
			    const struct sbuf *msgs)
{
	size_t ns, lacking = 0;
	char **shared = shared_text(rg, &ns);

	for (size_t g = 0; g < p->nr; g++) {
		int has = 1;
		for (size_t k = 0; k < ns && has; k++)
			has = str_find(msgs[g].buf, shared[k]) != NULL;
		lacking += !has;
	}
	if (lacking)
		warning("the text all %zu commits share beyond their subjects "
			"and trailers is in %zu of %zu new commits (%zu "
			"paragraph%s, from \"%.40s\"): the template (-F FILE) "
			"can carry it", rg->commits->nr, p->nr - lacking, p->nr,
			ns, ns == 1 ? "" : "s", shared[0]);
	for (size_t c = 0; c < rg->commits->nr; c++) {
		const struct rcommit *rc = &rg->commits->c[c];
		int kept = 0;
		for (size_t g = 0; g < p->nr && !kept; g++)
			kept = sole_commit(rg, p, g) == c;
		size_t n, lost = 0;
		char **v = kept ? NULL : own_text(rc->msg, "", &n);
		for (size_t i = 0; v && i < n; i++) {
			int found = 0;
			for (size_t k = 0; k < ns && !found; k++)
				found = !strcmp(v[i], shared[k]);
			for (size_t g = 0; g < p->nr && !found; g++)
				found = group_has_commit(rg, &p->g[g], c) &&
					str_find(msgs[g].buf, v[i]);
			if (!found)
				v[lost++] = v[i];
			else
				free(v[i]);
		}
		if (lost) {
			char *s = subject_of(rc->msg);
			warning("the text of %.12s (%s) beyond its subject and "
				"trailers is dropped: no new commit is exactly it "
				"(%zu paragraph%s, from \"%.40s\")", rc->id, s, lost,
				lost == 1 ? "" : "s", v[0]);
			free(s);
		}
		free_strings(v, lost);
	}
	free_strings(shared, ns);
}

/* Each group's message: the template, then where the group is exactly one
 * old commit the text a person added to that commit's message, the
 * trailers it keeps (in the order the range first gave them), then the
 * user's sign-off with -s. */
static struct sbuf *regroup_messages(const struct regroup *rg,
				     const struct plan *p,
				     const struct template *t, const char *sob)
{
	/* the sign-off goes last, after the trailers the group keeps */
	struct template bare = { t->text, t->len, NULL };
	struct sbuf *m = group_messages(p, &bare);
	size_t ns;
	char **shared = shared_text(rg, &ns);

	for (size_t i = 0; i < p->nr; i++) {
		size_t c = sole_commit(rg, p, i);
		if (c < rg->commits->nr)
			add_own_text(&m[i], rg->commits->c[c].msg, shared, ns);
		for (c = 0; c < rg->commits->nr; c++) {
			if (!group_has_commit(rg, &p->g[i], c))
				continue;
			for (size_t k = 0; k < rg->ntrailer[c]; k++)
				if (group_keeps(rg, &p->g[i], rg->trailer[c][k]) &&
				    !str_find(m[i].buf, rg->trailer[c][k]))
					add_trailer(&m[i], rg->trailer[c][k]);
		}
		if (sob)
			add_trailer(&m[i], sob);
	}
	free_strings(shared, ns);
	return m;
}

/* Every trailer's fate.  Dropped ones go to stderr as warnings (always);
 * with all, every fate goes to stdout.  Returns how many were dropped. */
static size_t report_trailers(const struct regroup *rg, const struct plan *p,
			      int all)
{
	size_t dropped = 0;
	struct sbuf where = SBUF_INIT;

	for (size_t c = 0; c < rg->commits->nr; c++) {
		const struct rcommit *rc = &rg->commits->c[c];
		const char *nl = strchr(rc->msg, '\n');
		int slen = (int)(nl ? (size_t)(nl - rc->msg) : strlen(rc->msg));
		for (size_t k = 0; k < rg->ntrailer[c]; k++) {
			const char *t = rg->trailer[c][k];
			size_t kept = 0, lost = 0;
			sb_setlen(&where, 0);
			for (size_t i = 0; i < p->nr; i++) {
				if (!group_has_commit(rg, &p->g[i], c))
					continue;
				if (group_keeps(rg, &p->g[i], t)) {
					kept++;
					continue;
				}
				sb_addf(&where, "%s%s", lost++ ? ", " : "", p->g[i].name);
			}
			if (lost || !kept) {
				dropped++;
				warning("'%s' of %.12s (%.*s) is dropped from %s: %s",
					t, rc->id, slen, rc->msg,
					lost ? where.buf : "every commit",
					lost ? "the new commit there also holds changes of commits without it"
					     : "none of its changes is left");
			}
			if (all)
				xfprintf(1, "%s %s: %.12s %.*s\n", lost || !kept ?
					 "dropped" : "kept   ", t, rc->id, slen, rc->msg);
		}
	}
	sb_release(&where);
	return dropped;
}

static void regroup_release(struct regroup *rg, size_t nfiles)
{
	for (size_t c = 0; c < rg->commits->nr; c++) {
		for (size_t k = 0; rg->trailer && k < rg->ntrailer[c]; k++)
			free(rg->trailer[c][k]);
		if (rg->trailer)
			free(rg->trailer[c]);
	}
	free(rg->trailer);
	free(rg->ntrailer);
	for (size_t f = 0; rg->fcommit && f < nfiles; f++)
		free(rg->fcommit[f]);
	free(rg->fcommit);
	free(rg->nfcommit);
}

/* The trailers of each commit, less sob (the user's own, where -s gives it
 * again at the end; NULL without -s, when it is one trailer like any
 * other: kept where every commit carried it, else named). */
static void collect_trailers(struct regroup *rg, const char *sob)
{
	size_t n = rg->commits->nr;

	rg->trailer = xcalloc(n + 1, sizeof *rg->trailer);
	rg->ntrailer = xcalloc(n + 1, sizeof *rg->ntrailer);
	for (size_t c = 0; c < n; c++) {
		message_trailers(rg->commits->c[c].msg, &rg->trailer[c],
				 &rg->ntrailer[c]);
		size_t w = 0;
		for (size_t k = 0; k < rg->ntrailer[c]; k++) {
			if (sob && !strcmp(rg->trailer[c][k], sob))
				free(rg->trailer[c][k]);
			else
				rg->trailer[c][w++] = rg->trailer[c][k];
		}
		rg->ntrailer[c] = w;
	}
}

/* ---- the tags of replies ---------------------------------------------------- */

/* A subject as a patch mail has it: "[RFC PATCH v2 3/7] text" gives 3, 7
 * and where the text starts; a reply's "Re: " prefixes are skipped.  0
 * when it has no [..PATCH..] tag (n and m then 0). */
static int patch_subject(const char *s, size_t *n, size_t *m, const char **text,
			 int *reply)
{
	*n = *m = 0;
	*reply = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		if (!strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3)) {
			s += 3;
			*reply = 1;
			continue;
		}
		break;
	}
	int tagged = 0;
	while (*s == '[') {
		const char *close = strchr(s, ']');
		if (!close)
			break;
		struct span tag = { s + 1, (size_t)(close - s - 1) };
		if (find_bytes(tag.p, tag.len, "PATCH", 5)) {
			tagged = 1;
			const char *slash = memrchr_bytes(tag.p, tag.len, '/');
			if (slash) {
				const char *d = slash;
				while (d > tag.p && isdigit((unsigned char)d[-1]))
					d--;
				*n = scan_number(d, NULL, 10);
				*m = scan_number(slash + 1, NULL, 10);
			}
		}
		s = close + 1;
		while (*s == ' ')
			s++;
	}
	*text = s;
	return tagged;
}

/* The message of mb an id names, or NULL. */
static const struct mbox_msg *message_by_id(const struct mbox *mb,
					    const char *id)
{
	for (size_t i = 0; id && i < mb->n; i++)
		if (mb->m[i].id && !strcmp(mb->m[i].id, id))
			return &mb->m[i];
	return NULL;
}

/* Which commit of rc a reply is for: by the patch mail its In-Reply-To or
 * References name (nearest first), else by its own subject; its text is
 * matched against the commits' subjects (its n/m telling apart those
 * that share one), then its n/m alone against the range.  Returns the
 * index, COVER for the cover letter, NOWHERE for none, AMBIGUOUS for a
 * subject several commits share where the reply does not number it. */
#define COVER ((size_t)-1)

#define NOWHERE ((size_t)-2)
#define AMBIGUOUS ((size_t)-3)  /* a subject several patches have, no n/m */

static size_t reply_target(const struct mbox *mb, const struct mbox_msg *r,
			   const struct rcommits *rc, char *const *subj,
			   const struct mbox_msg **patch)
{
	const char *chain[64];
	size_t nc = 0;

	*patch = NULL;
	if (r->in_reply_to)
		chain[nc++] = r->in_reply_to;
	for (size_t i = r->nrefs; i-- > 0 && nc < 63;)
		chain[nc++] = r->refs[i];
	for (size_t i = 0; i <= nc; i++) {
		const struct mbox_msg *m = i < nc ? message_by_id(mb, chain[i]) : r;
		if (!m || !m->subject)
			continue;
		size_t n, total;
		const char *text;
		int reply;
		int tagged = patch_subject(m->subject, &n, &total, &text, &reply);
		if (i < nc && reply)
			continue;       /* another reply: look further up */
		if (tagged && n == 0 && total)
			return COVER;
		*patch = i < nc ? m : NULL;
		/* the subject, and where subjects repeat the number too */
		int numbered = tagged && total == rc->nr && n >= 1 && n <= rc->nr;
		size_t hit = NOWHERE, hits = 0;
		for (size_t c = 0; c < rc->nr; c++)
			if (!strcmp(subj[c], text) && !hits++)
				hit = c;
		if (hits > 1 && numbered && !strcmp(subj[n - 1], text))
			return n - 1;
		if (hits)
			return hits > 1 ? AMBIGUOUS : hit;
		if (numbered)
			return n - 1;
	}
	*patch = NULL;
	return NOWHERE;
}

/* The address of a trailer ("Tested-by: Name <addr>"), lower case. */
static char *trailer_address(const char *t, size_t n)
{
	const char *colon = memchr(t, ':', n);
	struct span v = colon ? (struct span){ colon + 1, n - (size_t)(colon + 1 - t) } :
				(struct span){ t, n };
	struct span a = parse_address(v).box;
	char *r = xstrndup(a.p, a.len);
	lower_ascii(r);
	return r;
}

/* Where b4 puts them: Reported-by, Suggested-by, Tested-by, Reviewed-by,
 * Acked-by; the order of trailer_tags. */
static size_t trailer_rank(const char *t)
{
	size_t k = 0;

	for (; trailer_tags[k]; k++)
		if (!strncasecmp(t, trailer_tags[k], strlen(trailer_tags[k])))
			break;
	return k;
}

/* A trailer to add: to commit c, with why, as said on stderr. */
struct addition {
	size_t c;
	char *line, *why;
};

struct additions {
	struct addition *v;
	size_t n, alloc;
};

static void add_addition(struct additions *ad, size_t c, const char *line,
			 const char *why)
{
	for (size_t i = 0; i < ad->n; i++)
		if (ad->v[i].c == c && !strcasecmp(ad->v[i].line, line))
			return;
	GROW(ad->v, ad->n + 1, ad->alloc);
	ad->v[ad->n++] = (struct addition){ c, xstrdup(line), xstrdup(why) };
}

static int cmp_addition(const void *a, const void *b)
{
	const struct addition *x = a, *y = b;

	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	size_t rx = trailer_rank(x->line), ry = trailer_rank(y->line);
	return rx != ry ? (rx < ry ? -1 : 1) : 0;
}

/* The patch id of each mail of mb that carries a diff (NULL for the
 * others), from one `git patch-id --stable` over all of them, each
 * introduced by a made-up "commit" line that names its index.  The
 * caller frees the array (free_strings, mb->n). */
static int mail_patch_ids(const struct mbox *mb, char ***pid)
{
	struct sbuf in = SBUF_INIT;
	struct pids out = PIDS_INIT;

	*pid = xcalloc(mb->n + 1, sizeof **pid);
	for (size_t i = 0; i < mb->n; i++)
		if (mb->m[i].diff)
			sb_addf(&in, "commit %040zx\n%s", i, mb->m[i].diff);
	int r = run_patch_id(&in, &out);
	for (size_t k = 0; k < out.nr; k++) {
		size_t i = (size_t)scan_number(out.e[k].commit, NULL, 16);
		if (i < mb->n && !(*pid)[i])
			(*pid)[i] = xstrdup(out.e[k].pid);
	}
	sb_release(&in);
	pids_release(&out);
	return r;
}

/* Whether reply m, to the patch mail pm, may give its tags to commit c:
 * the mail's patch must be c's (git patch-id --stable), or the review
 * was of other code (an older version's patch, since changed).  Where
 * the mbox has the mail with its diff, that diff's id (mpid, each mail's:
 * mail_patch_ids(); ids, the range's); else, where the mail answered is
 * one format wrote ("<COMMIT.SECONDS.git.ADDR>") of another commit here,
 * that commit's.  Nothing to compare (no id on a side) is no objection. */
static int same_code(const struct mbox *mb, const struct mbox_msg *m,
		     const struct mbox_msg *pm, char *const *mpid,
		     const struct pids *ids, const struct rcommit *c)
{
	char was[72], x[72];
	const char *mine = pm && pm->diff ? mpid[pm - mb->m] : NULL;
	const char *to = m->in_reply_to ? m->in_reply_to : "";

	to += *to == '<';
	const char *pid = patch_of(ids, c->id);
	if (mine)
		return !pid || !strcmp(mine, pid);
	if (strlen(to) < 41 || to[40] != '.' || !is_oid(to, 40) ||
	    !strncmp(to, c->id, 40) || resolve_commit_quietly(
		fmt_buf(x, sizeof x, "%.40s", to) ? x : x, was) < 0)
		return 1;
	struct sbuf in = SBUF_INIT, diff = SBUF_INIT;
	struct pids out = PIDS_INIT;
	sb_addf(&in, "%s\n%s\n", was, c->id);
	const char *a, *b;
	int same = commit_patch_ids(in.buf, NULL, &out, &diff) < 0 ||
		   !(a = patch_of(&out, was)) || !(b = patch_of(&out, c->id)) ||
		   !strcmp(a, b);
	sb_release(&in);
	pids_release(&out);
	sb_release(&diff);
	return same;
}

/* Whether commit c is of the part scope names: a path under it
 * ("drivers/i2c"), a path component that is it or starts it
 * ("gpio-ixp4xx.c" for "gpio"), or a subject prefix that is it. */
static int in_scope(const struct rcommit *c, const char *subj,
		    const char *scope)
{
	size_t n = strlen(scope);

	if (!strncasecmp(subj, scope, n) && (subj[n] == ':' || subj[n] == '/'))
		return 1;
	for (size_t k = 0; k < c->npath; k++) {
		const char *p = c->path[k];
		if (strchr(scope, '/')) {
			if (!strncasecmp(p, scope, n) && (!p[n] || p[n] == '/'))
				return 1;
			continue;
		}
		for (const char *q = p; q; q = strchr(q, '/'), q = q ? q + 1 : q)
			if (!strncasecmp(q, scope, n) && strchr("/-_.", q[n] ? q[n] : '/'))
				return 1;
	}
	return 0;
}

/* Whether the giver of tag t is the person v: by address, else (step 1)
 * by the address .mailmap gives either, else (step 2) by name. */
static int same_giver(const char *t, const char *v, int step,
		      const struct maintainers *mm)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT, x = SBUF_INIT, y = SBUF_INIT;
	const char *colon = strchr(t, ':');
	int r;

	struct span g = trim_span((struct span){ colon ? colon + 1 : t,
					       strlen(colon ? colon + 1 : t) });
	sb_add(&a, g.p, g.len);
	sb_adds(&b, v);
	if (step == 1 && mm) {
		mailmap_email(mm, &x, a.buf);
		mailmap_email(mm, &y, b.buf);
		struct sbuf ta = a, tb = b;
		a = x, b = y, x = ta, y = tb;
	}
	if (step < 2) {
		char *p = trailer_address(a.buf, a.len), *q = trailer_address(b.buf, b.len);
		r = !strcmp(p, q);
		free(p);
		free(q);
	} else {
		sb_setlen(&x, 0);
		sb_setlen(&y, 0);
		struct sbuf ad = SBUF_INIT;
		parse_email(a.buf, &x, &ad);
		parse_email(b.buf, &y, &ad);
		sb_release(&ad);
		r = x.len && !strcasecmp(x.buf, y.buf);
	}
	sb_release(&a);
	sb_release(&b);
	sb_release(&x);
	sb_release(&y);
	return r;
}

/* Which patches a tag on the cover letter is for, marked in own[] and
 * counted in *mine, and how that was found; NULL where nothing places
 * it.  The reply's own words first ("for the GPIO part": scope_of), then,
 * where they name no patch's files, its giver among the people each patch
 * goes to: by address, by the address .mailmap gives, by name
 * (maintainers often answer from another address than MAINTAINERS
 * lists). */
static const char *cover_scope(const struct mbox_msg *m, const char *t,
			       const struct rcommits *rc, char *const *subj,
			       const struct recipients *people,
			       const struct maintainers *mm, char *own,
			       size_t *mine)
{
	static const char *const how[] = { "its giver maintains their files",
		"its giver maintains their files (by .mailmap)",
		"its giver maintains their files (by name)" };

	if (m->scope) {
		for (size_t j = 0; j < rc->nr; j++)
			*mine += own[j] = (char)in_scope(&rc->c[j], subj[j], m->scope);
		if (*mine)
			return "the reply says it is for them";
	}
	for (int step = 0; step < 3 && people; step++) {
		for (size_t j = 0; j < rc->nr; j++) {
			for (size_t q = 0; q < people[j].people && !own[j]; q++)
				own[j] = (char)same_giver(t, people[j].v[q].addr, step, mm);
			*mine += own[j] != 0;
		}
		if (*mine)
			return how[step];
	}
	return NULL;
}

/* Whether id ("<x>" as the mbox parser keeps it) is x. */
static int is_msgid(const char *id, const char *x)
{
	size_t n = strlen(id);

	return x && n > 2 && *id == '<' && strlen(x) == n - 2 &&
	       !strncmp(id + 1, x, n - 2);
}

/* The commits that went under the cover letter reply m answers, as the
 * version's record says (cover: per commit, its letter's Message-Id, or
 * NULL), marked in a new array; NULL where the record names no letter of
 * m's thread (then the whole range is the series). */
static char *cover_series(const struct mbox_msg *m, char *const *cover,
			  size_t n)
{
	char *in = cover ? xcalloc(n + 1, 1) : NULL;
	size_t any = 0;

	for (size_t j = 0; in && j < n; j++) {
		in[j] = (char)(m->in_reply_to && is_msgid(m->in_reply_to, cover[j]));
		for (size_t k = 0; !in[j] && k < m->nrefs; k++)
			in[j] = (char)is_msgid(m->refs[k], cover[j]);
		any += (size_t)in[j];
	}
	if (!any) {
		free(in);
		in = NULL;
	}
	return in;
}

/* A tag on the cover letter onto the patches cover_scope() finds; an ack
 * (or a reply that scopes itself) placed nowhere is named and given to no
 * patch; any other tag goes to every patch, as b4 gives it. */
static void cover_tag(const struct mbox_msg *m, const char *t,
		      const struct rcommits *rc, char *const *subj,
		      const struct recipients *people,
		      const struct maintainers *mm, const char *in,
		      struct additions *ad, struct sbuf *said)
{
	char *own = xcalloc(rc->nr + 1, 1);
	size_t mine = 0, of = rc->nr;
	const char *how = cover_scope(m, t, rc, subj, people, mm, own, &mine);
	int ack = !strncasecmp(t, "Acked-by:", 9);

	for (size_t j = 0; in && j < rc->nr; j++) {
		of -= !in[j];
		mine -= own[j] && !in[j];
		own[j] &= in[j];
	}

	if (!how && (ack || m->scope))
		warning("'%s' on the cover letter: %s, so it goes "
			"to no patch", t, m->scope ? "the part it says it "
			"is for names no patch's files, and MAINTAINERS "
			"does not place its giver" :
			"an ack from someone MAINTAINERS does not "
			"place (by address, .mailmap or name) and who "
			"says not what it is for");
	for (size_t j = 0; j < rc->nr && (how || !(ack || m->scope)); j++)
		if ((!how || own[j]) && (!in || in[j]))
			add_addition(ad, j, t, how ? how :
				"given on the cover letter by someone who "
				"maintains none of the series' files");
	if (how)
		sb_addf(said, "series: '%s' on the cover letter goes to "
			"the %zu of the %zu patches it is for (%s)\n",
			t, mine, of, how);
	free(own);
}

/* Says that tag t (from the mail subject from) was given for code that
 * is not commit id's, and so is not added. */
static void other_code(const char *t, const char *from, const char *id)
{
	warning("'%s' (from %s) answers a patch whose code is not %.12s's (git "
		"patch-id --stable): not added", t, from, id);
}

/* The patch ids of version v of branch br as format recorded it
 * (refs/series/BR/vN-base..vN) into out: 1, or 0 where none is. */
static int version_patch_ids(const char *br, int v, struct pids *out)
{
	char *spec = xstrfmt("series/%s/v%d-base..series/%s/v%d", br, v, br, v);
	int r = v <= last_version(br) && !patch_ids(spec, out);

	free(spec);
	return r;
}

/* The additions from at on, given by a reply to a cover letter of a
 * version whose patch ids are old: one whose commit's patch (ids, the
 * range's) is none of them is taken back and named, as the review was of
 * other code (an older version's, since changed). */
static void stale_cover_tags(struct additions *ad, size_t at,
			     const struct rcommits *rc, const struct pids *ids,
			     const struct pids *old, const char *from)
{
	size_t w = at;

	for (size_t k = at; k < ad->n; k++) {
		struct addition *a = &ad->v[k];
		const char *pid = patch_of(ids, rc->c[a->c].id);
		if (pid && commit_of(old, pid)) {
			ad->v[w++] = *a;
			continue;
		}
		other_code(a->line, from, rc->c[a->c].id);
		free(a->line);
		free(a->why);
	}
	ad->n = w;
}

/* The replies' trailers onto ad.  A cover letter's go to every commit,
 * unless their giver is a person MAINTAINERS names for some of the
 * series' files: then only to the commits that touch those files.  A
 * reply to a patch mail whose code is not the commit's gives nothing. */
static int reply_trailers(const struct mbox *mb, const struct range *rg,
			  const struct rcommits *rc, char *const *subj,
			  const struct recipients *people,
			  const struct maintainers *mm, char *const *cover,
			  const char *br, struct additions *ad,
			  struct sbuf *said)
{
	char **mpid = NULL;
	struct sbuf spec = SBUF_INIT;
	struct pids ids = PIDS_INIT, old = PIDS_INIT;
	int r = mail_patch_ids(mb, &mpid), ov = 0, sv;

	sb_addf(&spec, "%s..%s", rg->base, rg->tip);
	for (size_t i = 0; !r && i < mb->n && !ids.nr; i++)
		if (mpid[i])
			r = patch_ids(spec.buf, &ids);
	for (size_t i = 0; !r && i < mb->n; i++) {
		const struct mbox_msg *m = &mb->m[i], *pm;
		size_t n, total;
		const char *text;
		int reply;
		/* a patch mail as sent (a lore thread holds the series' own,
		 * each a reply to the cover letter): its tags are its own */
		if (!m->ntrailer || (m->subject && patch_subject(m->subject, &n,
				&total, &text, &reply) && !reply))
			continue;
		size_t c = reply_target(mb, m, rc, subj, &pm);
		char *in = c == COVER ? cover_series(m, cover, rc->nr) : NULL;
		/* a cover letter's tags are for the code of its version */
		if (c == COVER && br && m->subject &&
		    (sv = subject_version(m->subject)) && sv != ov) {
			pids_release(&old);
			ov = version_patch_ids(br, sv, &old) ? sv : 0;
			if (ov && !ids.nr)
				r = patch_ids(spec.buf, &ids);
		}
		for (size_t k = 0; !r && k < m->ntrailer; k++) {
			const char *t = m->trailer[k];
			if (c < rc->nr && !same_code(mb, m, pm, mpid, &ids, &rc->c[c])) {
				other_code(t, m->subject ? m->subject : "a mail",
					   rc->c[c].id);
				continue;
			}
			if (c == NOWHERE || c == AMBIGUOUS) {
				warning("'%s' (from %s) answers %s: not added", t,
					m->subject ? m->subject : "a mail",
					c == NOWHERE ? "no patch of the series" :
					"one of several patches with that subject, "
					"and says not which");
				continue;
			}
			if (c != COVER) {
				add_addition(ad, c, t, "given in reply to the patch");
				continue;
			}
			size_t at = ad->n;
			cover_tag(m, t, rc, subj, people, mm, in, ad, said);
			if (ov && ov == subject_version(m->subject))
				stale_cover_tags(ad, at, rc, &ids, &old, m->subject);
		}
		free(in);
	}
	free_strings(mpid, mb->n);
	pids_release(&old);
	pids_release(&ids);
	sb_release(&spec);
	return r;
}

static void additions_release(struct additions *ad)
{
	for (size_t i = 0; i < ad->n; i++) {
		free(ad->v[i].line);
		free(ad->v[i].why);
	}
	free(ad->v);
	memset(ad, 0, sizeof *ad);
}

/* ==== 7. sinks ==========================================================
 * What consumes a plan's groups: the plan printer; the mail writer and
 * the one pipeline of a series of mails (make_series(), for split, format
 * and each series of format --split); the transaction core, with its
 * users: commit and respin (the work tree through fast-import), apply
 * (diff text per group: split --commit), take (each file as a commit has
 * it, through fast-import: regroup) and reword (trailers); and the
 * hardware checks.
 */

/* ---- the plan printer ------------------------------------------------------ */

/* What a source's file is, as a letter for people: A M D T R C. */
static char sfile_letter(const struct sfile *f)
{
	if (f->kind == SF_RENAME || f->kind == SF_COPY || f->kind == SF_ADD ||
	    f->kind == SF_DELETE)
		return f->kind;
	return (f->old_mode & 0170000) != (f->new_mode & 0170000) ? 'T' : 'M';
}

/* A group's recipients under it, as its mail would have them: people in
 * To:, lists in Cc:. */
static void add_recipients(struct sbuf *out, const struct recipients *r)
{
	for (size_t i = 0; i < r->n; i++)
		sb_addf(out, "    %s %s\n", i < r->people ? "to:" : "cc:",
			r->v[i].addr);
}

/* How many distinct people and lists the n groups' recipients name. */
static void count_recipients(const struct recipients *r, size_t n,
			     size_t *people, size_t *lists)
{
	char **v = NULL;   /* "P" or "L", then the address */
	size_t nv = 0, av = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].n; k++) {
			struct sbuf e = SBUF_INIT;
			sb_addf(&e, "%c%s", k < r[i].people ? 'P' : 'L',
				r[i].v[k].addr);
			GROW(v, nv + 1, av);
			v[nv++] = sb_detach(&e, NULL);
		}
	sort_unique(v, &nv, 1);
	*people = *lists = 0;
	for (size_t i = 0; i < nv; i++) {
		*(v[i][0] == 'P' ? people : lists) += 1;
		free(v[i]);
	}
	free(v);
}

/* Group i's subject (its message's first line), else its name. */
static struct span plan_subject(const struct plan *p, const struct sbuf *msgs,
				size_t i)
{
	const char *nl;

	if (!msgs)
		return (struct span){ p->g[i].name, strlen(p->g[i].name) };
	nl = memchr(msgs[i].buf, '\n', msgs[i].len);
	return (struct span){ msgs[i].buf, nl ? (size_t)(nl - msgs[i].buf) :
					       msgs[i].len };
}

/* A plan longer than a glance (PLAN_TABLE groups or more) opens with a
 * line a group: its number, files, subject, and the first person of its
 * To: with how many more. */
enum { PLAN_TABLE = 4 };

static void add_plan_table(struct sbuf *out, const struct plan *p,
			   const struct sbuf *msgs, const struct recipients *rcpt)
{
	int w = 7;

	for (size_t i = 0; i < p->nr; i++) {
		size_t n = plan_subject(p, msgs, i).len;
		w = n > (size_t)w ? (n > 60 ? 60 : (int)n) : w;
	}
	sb_addf(out, rcpt ? "   #  files  %-*s  to\n" : "   #  files  %.*s\n", w,
		"subject");
	for (size_t i = 0; i < p->nr; i++) {
		struct span sj = plan_subject(p, msgs, i);
		sb_addf(out, " %3zu  %5zu  %-*.*s", i + 1, p->g[i].nr, w,
			(int)(sj.len > 60 ? 60 : sj.len), sj.p);
		if (rcpt && rcpt[i].people) {
			const struct address *ad = &rcpt[i].v[0].a;
			struct span who = ad->name.len ? ad->name : ad->box;
			sb_addf(out, "  %.*s", (int)who.len, who.p);
			if (rcpt[i].people > 1)
				sb_addf(out, " +%zu", rcpt[i].people - 1);
		}
		while (out->len && out->buf[out->len - 1] == ' ')
			sb_setlen(out, out->len - 1);
		sb_addc(out, '\n');
	}
	sb_addc(out, '\n');
}

/* The plan as people read it, ending in "N groups, N files"; with
 * messages != 0 each group's whole message.  letter[i] is file i's.  A
 * group whose name another has is headed with its section, or its
 * number, too: no two headers read alike. */
static void print_plan(const struct plan *p, const struct source *src,
		       const char *letter, const struct sbuf *msgs,
		       int messages, const struct recipients *rcpt)
{
	struct sbuf out = SBUF_INIT;
	size_t files = 0;

	if (p->nr >= PLAN_TABLE)
		add_plan_table(&out, p, msgs, rcpt);
	for (size_t i = 0; i < p->nr; i++) {
		const struct group *g = &p->g[i];
		size_t k = 0;
		while (k < p->nr && (k == i || strcmp(p->g[k].name, g->name)))
			k++;
		sb_quote_c(&out, g->name, strlen(g->name), 0);
		if (k < p->nr && g->section)
			sb_addf(&out, " [%s]", g->section);
		else if (k < p->nr)
			sb_addf(&out, " #%zu", i + 1);
		sb_addf(&out, " (%zu file%s)\n", g->nr, g->nr == 1 ? "" : "s");
		if (msgs) {
			const struct sbuf *m = &msgs[i];
			const char *pos = m->buf, *end = m->buf + m->len;
			for (struct span l; next_line(&pos, end, &l);) {
				sb_adds(&out, messages ? "    | " : "    subject: ");
				sb_add(&out, l.p, l.len);
				sb_addc(&out, '\n');
				if (!messages)
					break;
			}
		}
		for (size_t j = 0; j < g->nr; j++) {
			const struct sfile *e = &src->f[g->member[j]];
			sb_addf(&out, "    %c ", letter[g->member[j]]);
			if (e->orig) {
				sb_quote_c(&out, e->orig, strlen(e->orig), 0);
				sb_adds(&out, " -> ");
			}
			sb_quote_c(&out, e->path, strlen(e->path), 0);
			sb_addc(&out, '\n');
		}
		if (rcpt)
			add_recipients(&out, &rcpt[i]);
		put_out(1, out.buf, out.len);
		sb_setlen(&out, 0);
		files += g->nr;
	}
	sb_add_count(&out, p->nr);
	sb_adds(&out, p->nr == 1 ? " group, " : " groups, ");
	sb_add_count(&out, files);
	sb_adds(&out, files == 1 ? " file" : " files");
	if (rcpt) {
		size_t people, lists;
		count_recipients(rcpt, p->nr, &people, &lists);
		sb_adds(&out, ", ");
		sb_add_count(&out, people);
		sb_adds(&out, people == 1 ? " maintainer, " : " maintainers, ");
		sb_add_count(&out, lists);
		sb_adds(&out, lists == 1 ? " list" : " lists");
	}
	sb_addc(&out, '\n');
	put_out(1, out.buf, out.len);
	sb_release(&out);
}

struct org_figures {
	size_t patches, most_rcpt, cover_lists, most_to_list, people;
};

/* The figures of one organisation's n groups and their recipients. */
static struct org_figures org_figures(const struct recipients *r, size_t n)
{
	struct org_figures f = { .patches = n };
	char **list = NULL;
	size_t nl = 0, al = 0;

	for (size_t i = 0; i < n; i++) {
		size_t first = nl;
		for (size_t k = 0; k < r[i].n; k++) {
			if (!r[i].v[k].list)
				continue;
			GROW(list, nl + 1, al);
			struct span box = r[i].v[k].a.box;
			list[nl] = xstrndup(box.p, box.len);
			lower_ascii(list[nl]);
			size_t j = first;  /* a reviewer and a list of one address */
			while (j < nl && strcmp(list[j], list[nl]))
				j++;
			if (j < nl)
				free(list[nl]);
			else
				nl++;
		}
		if (r[i].n > f.most_rcpt)
			f.most_rcpt = r[i].n;
	}
	/* a list is once in a group's answer: its run is its patch count */
	sort_n(list, nl, sizeof *list, cmp_str);
	for (size_t i = 0, j; i < nl; i = j) {
		for (j = i; j < nl && !strcmp(list[j], list[i]); j++)
			;
		f.cover_lists++;
		if (j - i > f.most_to_list)
			f.most_to_list = j - i;
	}
	count_recipients(r, n, &f.people, &(size_t){ 0 });
	free_strings(list, nl);
	return f;
}

static int cmp_members(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	for (size_t i = 0; i < x->nr; i++)
		if (x->member[i] != y->member[i])
			return x->member[i] < y->member[i] ? -1 : 1;
	return 0;
}

/* recipients_of() for groups that the organisations share: groups of the
 * same files have the same answer, so each set is asked once, and a file
 * alone is what file_recipients() asked already. */
static int same_files_answers(struct owners *ow, const struct source *src,
			      const struct group *g, size_t ng,
			      struct recipients *out)
{
	const struct group **by = xcalloc(ng + 1, sizeof *by);
	struct group *ask = xcalloc(ng + 1, sizeof *ask);
	size_t *from = xcalloc(ng + 1, sizeof *from); /* by[i]'s answer: */
	char *alone = xcalloc(ng + 1, 1);    /* in ow->alone, else in ask's */
	size_t nask = 0;

	for (size_t i = 0; i < ng; i++)
		by[i] = &g[i];
	sort_n(by, ng, sizeof *by, cmp_members);
	for (size_t i = 0; i < ng; i++) {
		if (i && !cmp_members(&by[i], &by[i - 1])) {
			from[i] = from[i - 1];
			alone[i] = alone[i - 1];
		} else if (by[i]->nr == 1 && ow->alone) {
			from[i] = by[i]->member[0];
			alone[i] = 1;
		} else {
			from[i] = nask;
			ask[nask++] = *by[i];
		}
	}
	struct recipients *a = xcalloc(nask + 1, sizeof *a);
	int r = recipients_of(ow, src, ask, nask, a, NULL);
	for (size_t i = 0; !r && i < ng; i++) {
		const struct recipients *x = alone[i] ? &ow->alone[from[i]] :
						       &a[from[i]];
		recipients_copy(&out[by[i] - g], x);
	}
	recipients_free(a, nask);
	free(alone);
	free(from);
	free(ask);
	free(by);
	return r;
}

/* Each group's recipients, where MAINTAINERS is loaded (else NULL). */
static struct recipients *plan_recipients(struct owners *ow,
					  const struct source *src,
					  const struct plan *p)
{
	if (!ow || !ow->m || !p->nr)
		return NULL;
	struct recipients *r = xcalloc(p->nr, sizeof *r);
	if (recipients_of(ow, src, p->g, p->nr, r, NULL) < 0) {
		recipients_free(r, p->nr);
		return NULL;
	}
	return r;
}

/* Under plan --compare's table: what its columns count, and the
 * article's advice applied to its figures (p, each organisation's plan;
 * people: recipients were counted): the whole tree in one patch where one
 * tree takes every file (the API changes at once; it is frowned upon
 * where several must merge it); else as few patches as keep each
 * maintainer free to apply their own: per subsystem where that is fewer
 * than per directory, else per directory, "a good start if you are
 * unsure". */
static void print_advice(const struct plan *p, int people)
{
	size_t by = p[1].nr == 1 ? 0 : p[3].nr && p[3].nr < p[5].nr ? 3 : 5;

	if (people)
		xfprintf(1, "\n(patches besides the cover letter; most "
			 "recipients of one; lists the cover letter goes to; most "
			 "patches to one list; people who get any)\n");
	xfprintf(1, "%sadvice: --by %s (%zu patch%s): %s; say why in the "
		 "cover letter\n",
		 people ? "" : "\n", organisations[by].name, p[by].nr,
		 p[by].nr == 1 ? "" : "es", !by ? "one tree takes every file, "
		 "its maintainer handles any dependency" : by == 3 ? "the fewest "
		 "that leave each section's maintainers free" : "the article's "
		 "good start");
}

/*
 * plan --compare: the same change under every organisation, one row each,
 * with what a maintainer or a list will see of it.  The organisations'
 * groups are all asked about in one pass over MAINTAINERS.  0, or -1
 * after error().
 */
static int print_compare(const struct selection *base, const struct source *src,
			 struct owners *ow)
{
	struct plan p[NORGS];
	size_t total = 0, at = 0;

	for (size_t k = 0; k < NORGS; k++) {
		struct selection sel = *base;
		p[k] = (struct plan)PLAN_INIT;
		/* without MAINTAINERS: the forms that need none, no recipients */
		if (!ow->m && organisations[k].by >= BY_SUBSYSTEM)
			continue;
		sel.by = organisations[k].by;
		sel.depth = organisations[k].depth;
		select_keys(&sel, ow);
		total += make_plan(&p[k], src, &sel);
	}
	struct group *all = xcalloc(total + 1, sizeof *all);
	struct recipients *rc = xcalloc(total + 1, sizeof *rc);
	for (size_t k = 0; k < NORGS; k++)
		for (size_t i = 0; i < p[k].nr; i++)
			all[at++] = p[k].g[i];
	int r = ow->m ? same_files_answers(ow, src, all, total, rc) : 0;
	if (!r)
		xfprintf(1, "organisation  patches  most-recipients  cover-lists  "
			 "most-to-a-list  maintainers\n");
	at = 0;
	for (size_t k = 0; k < NORGS; k++) {
		struct org_figures f = org_figures(rc + at, p[k].nr);
		if (!r && ow->m)
			xfprintf(1, "%-12s%9zu%17zu%13zu%16zu%13zu\n",
				 organisations[k].name, f.patches, f.most_rcpt,
				 f.cover_lists, f.most_to_list, f.people);
		else if (!r && p[k].nr)
			xfprintf(1, "%-12s%9zu%17s%13s%16s%13s\n",
				 organisations[k].name, f.patches, "-", "-", "-", "-");
		at += p[k].nr;
	}
	if (!r && !ow->m)
		note("no MAINTAINERS at the top of the tree: "
			 "the forms compared without recipients");
	if (!r)
		print_advice(p, ow->m != NULL);
	for (size_t k = 0; k < NORGS; k++)
		plan_release(&p[k]);
	recipients_free(rc, total);
	free(all);
	return r;
}

/* Marks the source's files that the settled plan p left out as no change,
 * so that other groupings of it leave them out too. */
static void settled_source(struct source *src, const struct plan *p)
{
	char *kept = xcalloc(src->nr + 1, 1);

	for (size_t i = 0; i < p->nr; i++)
		for (size_t j = 0; j < p->g[i].nr; j++)
			kept[p->g[i].member[j]] = 1;
	for (size_t i = 0; i < src->nr; i++)
		if (!kept[i])
			src->f[i].noop = 1;
	free(kept);
}

/* plan's output: the groups with their files (letter[i], file i's
 * letter; NULL: the source's own), each group's message where msgs is
 * given (whole with messages, else its subject) and its recipients where
 * ow has MAINTAINERS (ow NULL: none). */
static void print_groups(const struct plan *p, const struct source *src,
			 const char *letter, const struct sbuf *msgs,
			 int messages, struct owners *ow)
{
	char *own = NULL;

	if (!letter) {
		own = xcalloc(src->nr + 1, 1);
		for (size_t i = 0; i < src->nr; i++)
			own[i] = sfile_letter(&src->f[i]);
		letter = own;
	}
	struct recipients *rcpt = plan_recipients(ow, src, p);
	print_plan(p, src, letter, msgs, messages, rcpt);
	recipients_free(rcpt, p->nr);
	free(own);
}

/* ---- the mail writer -----------------------------------------------------------
 * A sink: one mail per group, in `git format-patch` layout, so that git am
 * and git send-email take them as they take git's:
 *   From <zero id> Mon Sep 17 00:00:00 2001     (the mbox separator)
 *   From:, Date:, Subject: [PATCH n/m] ...      (RFC 5322: folded, and
 *                                                RFC 2047 where not ASCII)
 *   the message body, "---", a diffstat with its summary,
 *   the group's file diffs byte for byte as the source holds them,
 *   "-- ", the version.
 * With more than one patch, 0000-cover-letter.patch comes first, with git's
 * placeholders, the shortlog and the whole diffstat.  The series is written
 * into a temporary folder first, so a failure while writing leaves OUTDIR
 * as it was; a new OUTDIR is that folder renamed, while into one that
 * exists the mails are renamed one by one (a failure there can leave some
 * of the new series beside the old).
 */

struct mail_opts {
	const char *author;     /* "Name <addr>" */
	time_t when;
	int tz;                 /* minutes east of UTC */
	const char *outdir;
	int force;
	const char *id;         /* the From line's commit id, or NULL: zeros */
	const struct addresses *to, *cc;   /* or NULL */
	const char *msgid;      /* Message-Id, without <>, or NULL: none */
	const char *reply_to;   /* the cover letter's, for In-Reply-To and
				 * References (git's shallow thread), or NULL */
};

/* Date: as RFC 5322 writes it, whatever the locale.  The calendar is
 * computed here (days to civil date, proleptic Gregorian, in 400-year
 * eras): libc's gmtime_r() brings its time zone reader along, 5 KB. */
UNIT void add_mail_date(struct sbuf *sb, time_t when, int tz)
{
	static const char day[][4] = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue",
				       "Wed" };
	static const char mon[][4] = { "Mar", "Apr", "May", "Jun", "Jul", "Aug",
				       "Sep", "Oct", "Nov", "Dec", "Jan", "Feb" };
	long long t = (long long)when + tz * 60LL, secs = (t % 86400 + 86400) % 86400;
	long long days = (t - secs) / 86400 + 719468;   /* from 0000-03-01 */
	long long era = (days >= 0 ? days : days - 146096) / 146097;
	long long doe = days - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long m = (5 * doy + 2) / 153;      /* 0: March */
	int a = tz < 0 ? -tz : tz;

	sb_addf(sb, "%s, %lld %s %lld %02lld:%02lld:%02lld %c%02d%02d",
		day[((days - 719468) % 7 + 7) % 7], doy - (153 * m + 2) / 5 + 1,
		mon[m], yoe + era * 400 + (m >= 10), secs / 3600, secs / 60 % 60,
		secs % 60, tz < 0 ? '-' : '+', a / 60, a % 60);
}

static int is_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/* s as RFC 2047 encoded words ("=?UTF-8?q?...?="), each at most 75 bytes,
 * with the fold before each but the first; col is the column so far. */
static void add_encoded(struct sbuf *sb, const char *s, size_t n, size_t col)
{
	size_t word = 0;

	sb_adds(sb, "=?UTF-8?q?");
	word = 10;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t need = (isalnum(c) || strchr("!*+-/", c)) && c ? 1 : 3;
		/* keep a UTF-8 sequence within one word */
		size_t seq = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		if (col + word + seq * 3 + 2 > 76) {
			sb_adds(sb, "?=\n =?UTF-8?q?");
			col = 1;
			word = 10;
		}
		if (c == ' ')
			sb_addc(sb, '_'), need = 1;
		else if (need == 1)
			sb_addc(sb, (char)c);
		else
			sb_addf(sb, "=%02X", c);
		word += need;
	}
	sb_adds(sb, "?=");
}

/* "Name: value": ASCII values folded at spaces to lines of 78 bytes at
 * most (where a word allows), others encoded. */
static void add_header(struct sbuf *sb, const char *name, const char *v)
{
	size_t n = strlen(v), col = strlen(name) + 2;

	sb_addf(sb, "%s: ", name);
	if (!is_ascii(v, n)) {
		add_encoded(sb, v, n, col);
		sb_addc(sb, '\n');
		return;
	}
	for (size_t i = 0; i < n;) {
		size_t w = i;
		while (w < n && v[w] != ' ')
			w++;
		if (i && col + (w - i) + 1 > 78) {
			sb_adds(sb, "\n ");
			col = 1;
		} else if (i) {
			sb_addc(sb, ' ');
			col++;
		}
		sb_add(sb, v + i, w - i);
		col += w - i;
		i = w;
		while (i < n && v[i] == ' ')
			i++;
	}
	sb_addc(sb, '\n');
}

/* One address as a header holds it: the name unquoted first if it was
 * quoted, then quoted where it has specials, or RFC 2047-encoded where it
 * is not ASCII, then "<box>"; col is the column so far. */
static void add_address(struct sbuf *sb, const struct address *a, size_t col)
{
	const char *v = a->name.p;
	size_t nl = a->name.len, at = sb->len;
	struct sbuf name = SBUF_INIT;

	if (nl >= 2 && v[0] == '"' && v[nl - 1] == '"') {
		for (size_t i = 1; i + 1 < nl; i++) {
			if (v[i] == '\\' && i + 2 < nl)
				i++;
			sb_addc(&name, v[i]);
		}
	} else
		sb_add(&name, v, nl);
	if (!is_ascii(name.buf, name.len)) {
		add_encoded(sb, name.buf, name.len, col);
		sb_addc(sb, ' ');
	} else if (name.len && strcspn(name.buf, "()<>[]:;@\\,.\"") < name.len) {
		sb_addc(sb, '"');
		for (size_t i = 0; i < name.len; i++) {
			if (name.buf[i] == '"' || name.buf[i] == '\\')
				sb_addc(sb, '\\');
			sb_addc(sb, name.buf[i]);
		}
		sb_adds(sb, "\" ");
	} else if (name.len) {
		sb_add(sb, name.buf, name.len);
		sb_addc(sb, ' ');
	}
	sb_release(&name);
	if (!a->angled) {
		sb_add(sb, a->box.p, a->box.len);
		return;
	}
	/* a line of 78 at most where a fold can help, as git does */
	const char *nlp = memrchr_bytes(sb->buf + at, sb->len - at, '\n');
	size_t line = nlp ? (size_t)(sb->buf + sb->len - nlp - 1) :
			    col + sb->len - at;
	if (sb->len > at && line + a->box.len + 2 > 78) {
		sb_setlen(sb, sb->len - 1);     /* the space */
		sb_adds(sb, "\n ");
	}
	sb_addf(sb, "<%.*s>", (int)a->box.len, a->box.p);
}

/* "From: Name <addr>". */
static void add_from(struct sbuf *sb, const char *ident)
{
	struct address a = address_of(ident);

	sb_adds(sb, "From: ");
	add_address(sb, &a, 6);
	sb_addc(sb, '\n');
}

/* "To: a,\n b" from l (NULL or empty: nothing), each address on a line of
 * its own after the first. */
static void add_address_header(struct sbuf *sb, const char *name,
			       const struct addresses *l)
{
	for (size_t i = 0; l && i < l->n; i++) {
		if (i)
			sb_adds(sb, ",\n ");
		else
			sb_addf(sb, "%s: ", name);
		add_address(sb, &l->v[i], i ? 1 : strlen(name) + 2);
	}
	if (l && l->n)
		sb_addc(sb, '\n');
}

/* "a/PATH" as a header name: quoted where git would quote it, with git's
 * TAB after a name holding a space. */
static void add_header_path(struct sbuf *sb, const char *side, const char *path)
{
	struct sbuf n = SBUF_INIT;

	sb_adds(&n, side);
	sb_adds(&n, path);
	sb_quote_c(sb, n.buf, n.len, 0);
	if (strchr(path, ' '))
		sb_addc(sb, '\t');
	sb_release(&n);
}

/* " k/n" as git format-patch numbers mail k of n: k padded with zeros to
 * n's width ("01/12", "003/265"), so that mail clients sort the thread by
 * subject. */
static void add_patch_number(struct sbuf *sb, size_t k, size_t n)
{
	sb_addf(sb, " %0*zu/%zu", (int)decimal_width(n), k, n);
}

/*
 * A mail's file name as git format-patch 2.39 makes it: "v2-" for a
 * re-spin, "0003-", then the first line of the message with letters,
 * digits, '.' and '_' kept (a run of dots as one), every other run one
 * '-' (none before the first kept byte), no '.' or '-' at the end; the
 * whole cut to 57 bytes (format.filenameMaxLength's 64 less ".patch"
 * and one), then ".patch".  Number 0 is the cover letter.  The caller
 * frees the name.
 */
static char *mail_name(int version, size_t nr, const char *msg)
{
	struct sbuf nm = SBUF_INIT;
	int space = 2;

	if (version > 1)
		sb_addf(&nm, "v%d-", version);
	sb_addf(&nm, "%04zu-", nr);
	size_t start = nm.len;
	for (const char *p = nr ? msg : "cover-letter"; *p && *p != '\n'; p++) {
		unsigned char c = (unsigned char)*p;
		if (!((c < 128 && isalnum(c)) || c == '.' || c == '_')) {
			space |= 1;
			continue;
		}
		if (space == 1)
			sb_addc(&nm, '-');
		space = 0;
		sb_addc(&nm, (char)c);
		while (c == '.' && p[1] == '.')
			p++;
	}
	while (nm.len > start && (nm.buf[nm.len - 1] == '.' ||
				  nm.buf[nm.len - 1] == '-'))
		sb_setlen(&nm, nm.len - 1);
	if (nm.len > 57)
		sb_setlen(&nm, 57);
	sb_adds(&nm, ".patch");
	return sb_detach(&nm, NULL);
}

/* The name a file has in a diffstat: "old => new" for a rename or copy. */
static void stat_name(struct sbuf *sb, const struct sfile *f)
{
	if (f->orig) {
		sb_adds(sb, f->orig);
		sb_adds(sb, " => ");
	}
	sb_adds(sb, f->path);
}

/* The widths of a diffstat's columns, as git's show_stats() sets them
 * for 72 columns (format-patch's width). */
struct stat_widths {
	int name, number, graph;
	size_t max_change;
};

static struct stat_widths stat_widths(const struct source *src,
				      const size_t *member, size_t n)
{
	const int width = 72;
	size_t max_len = 0, max_change = 0;
	struct sbuf name = SBUF_INIT;
	int bin = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sfile *f = &src->f[member[i]];
		sb_setlen(&name, 0);
		stat_name(&name, f);
		if (name.len > max_len)
			max_len = name.len;
		if (f->added + f->removed > max_change)
			max_change = f->added + f->removed;
		bin |= f->binary;
	}
	sb_release(&name);
	struct stat_widths w = { (int)(max_len > 1000 ? 1000 : max_len),
				 (int)decimal_width(max_change),
				 (int)(max_change > 1000 ? 1000 : max_change),
				 max_change };
	if (bin && w.number < 3)
		w.number = 3;
	if (w.name + w.number + 6 + w.graph > width) {
		if (w.graph > width * 3 / 8 - w.number - 6) {
			w.graph = width * 3 / 8 - w.number - 6;
			if (w.graph < 6)
				w.graph = 6;
		}
		if (w.name > width - w.number - 6 - w.graph)
			w.name = width - w.number - 6 - w.graph;
		else
			w.graph = width - w.number - 6 - w.name;
	}
	return w;
}

/* One file's row: its name padded (or cut with "..."), its count, its
 * bar scaled as git's scale_linear() does (anything is at least one). */
static void stat_row(struct sbuf *sb, const struct sfile *f,
		     const struct stat_widths *w)
{
	struct sbuf name = SBUF_INIT;

	stat_name(&name, f);
	sb_addc(sb, ' ');
	if ((int)name.len > w->name) {
		size_t keep = (size_t)(w->name > 3 ? w->name - 3 : 0);
		sb_adds(sb, "...");
		sb_add(sb, name.buf + name.len - keep, keep);
	} else {
		sb_add(sb, name.buf, name.len);
		for (int k = (int)name.len; k < w->name; k++)
			sb_addc(sb, ' ');
	}
	sb_release(&name);
	if (f->binary) {
		sb_addf(sb, " | %*s\n", w->number, "Bin");
		return;
	}
	size_t total = f->added + f->removed, a = f->added, d = f->removed;
	sb_addf(sb, " | %*zu%s", w->number, total, total ? " " : "");
	if (w->max_change > (size_t)w->graph && w->max_change) {
		a = a ? 1 + a * (size_t)(w->graph - 1) / w->max_change : 0;
		d = d ? 1 + d * (size_t)(w->graph - 1) / w->max_change : 0;
	}
	for (size_t k = 0; k < a; k++)
		sb_addc(sb, '+');
	for (size_t k = 0; k < d; k++)
		sb_addc(sb, '-');
	sb_addc(sb, '\n');
}

/* git's diffstat of the n files: a row each, the totals, then the
 * summary of created, deleted and mode-changed files. */
static void add_diffstat(struct sbuf *sb, const struct source *src,
			 const size_t *member, size_t n)
{
	struct stat_widths w = stat_widths(src, member, n);
	size_t ins = 0, del = 0;

	for (size_t i = 0; i < n; i++) {
		stat_row(sb, &src->f[member[i]], &w);
		ins += src->f[member[i]].added;
		del += src->f[member[i]].removed;
	}
	sb_addc(sb, ' ');
	plural(sb, n, "file", " changed");
	if (ins || !del) {
		sb_adds(sb, ", ");
		plural(sb, ins, "insertion", "(+)");
	}
	if (del || !ins) {
		sb_adds(sb, ", ");
		plural(sb, del, "deletion", "(-)");
	}
	sb_addc(sb, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct sfile *f = &src->f[member[i]];
		if (f->kind == SF_ADD)
			sb_addf(sb, " create mode %06o %s\n", f->new_mode, f->path);
		else if (f->kind == SF_DELETE)
			sb_addf(sb, " delete mode %06o %s\n", f->old_mode, f->path);
		else if (f->git && f->old_mode != f->new_mode && f->old_mode &&
			 f->new_mode)
			sb_addf(sb, " mode change %06o => %06o %s\n", f->old_mode,
				f->new_mode, f->path);
	}
}

/* A mail's head as git format-patch writes it, To: and Cc: (mo's, where
 * given) after Subject:, then a blank line.  Where To: stands: a head
 * written without them gets them there (address_mails()). */
static size_t add_mail_head(struct sbuf *m, const struct mail_opts *mo,
			    const char *tag, const char *subject, int mime)
{
	struct sbuf subj = SBUF_INIT;

	sb_addf(m, "From %s Mon Sep 17 00:00:00 2001\n",
		mo->id ? mo->id : "0000000000000000000000000000000000000000");
	if (mo->msgid)
		sb_addf(m, "Message-Id: <%s>\n", mo->msgid);
	if (mo->reply_to)
		sb_addf(m, "In-Reply-To: <%s>\nReferences: <%s>\n", mo->reply_to,
			mo->reply_to);
	add_from(m, mo->author);
	sb_adds(m, "Date: ");
	add_mail_date(m, mo->when, mo->tz);
	sb_addc(m, '\n');
	sb_addf(&subj, "%s %s", tag, subject);
	add_header(m, "Subject", subj.buf);
	size_t at = m->len;
	add_address_header(m, "To", mo->to);
	add_address_header(m, "Cc", mo->cc);
	if (mime)
		sb_adds(m, "MIME-Version: 1.0\n"
			   "Content-Type: text/plain; charset=UTF-8\n"
			   "Content-Transfer-Encoding: 8bit\n");
	sb_addc(m, '\n');
	sb_release(&subj);
	return at;
}

static void add_signature(struct sbuf *m)
{
	sb_adds(m, "-- \nseries " SERIES_VERSION "\n\n");
}

/* A file's diff as mails and git apply get it: its bytes as the input had
 * them, or, where its header lines do not name the path as git am reads
 * it (a temporary file, a path below --directory, -p other than 1), new
 * header lines before its hunks, which are kept byte for byte. */
static void add_file_diff(struct sbuf *sb, const struct source *src,
			  const struct sfile *f)
{
	const char *t = src->text.buf;

	if (f->keep_header) {
		sb_add(sb, t + f->off, f->len);
	} else {
		sb_adds(sb, "--- ");
		if (f->kind == SF_ADD)
			sb_adds(sb, "/dev/null");
		else
			add_header_path(sb, "a/", f->orig ? f->orig : f->path);
		sb_adds(sb, "\n+++ ");
		if (f->kind == SF_DELETE)
			sb_adds(sb, "/dev/null");
		else
			add_header_path(sb, "b/", f->path);
		sb_addc(sb, '\n');
		sb_add(sb, t + f->body, f->off + f->len - f->body);
	}
	/* a diff whose input ended without LF still ends its line */
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		sb_addc(sb, '\n');
}

/* One patch mail to write: its head (author, date, id), its group of
 * the source, its message, its tag ("[PATCH 3/7]") and what is said
 * below its "---", ending in a blank line (a lone patch's changes since
 * the last version, where git format-patch puts its --range-diff). */
struct mail_item {
	struct mail_opts mo;
	const struct group *g;
	struct sbuf msg, tag, notes;
};

/* One mail, with mo's head: the item's message and its files' diffs.
 * Where its To: stands (add_mail_head()). */
static size_t write_patch_mail(struct sbuf *m, const struct mail_opts *mo,
			       const struct source *src,
			       const struct mail_item *it)
{
	const struct sbuf *msg = &it->msg;
	const struct group *g = it->g;
	const char *body, *tag = it->tag.buf;
	char *subject = message_subject(msg, &body);
	struct sbuf text = SBUF_INIT;

	sb_add(&text, body, (size_t)(msg->buf + msg->len - body));
	sb_adds(&text, "---\n");
	sb_add(&text, it->notes.buf, it->notes.len);
	add_diffstat(&text, src, g->member, g->nr);
	sb_addc(&text, '\n');
	for (size_t i = 0; i < g->nr; i++)
		add_file_diff(&text, src, &src->f[g->member[i]]);
	/* 8-bit anywhere (a path the diff quoted is raw in the diffstat)
	 * is declared, or git send-email asks which charset it is */
	size_t at = add_mail_head(m, mo, tag, subject,
				  !is_ascii(text.buf, text.len) ||
				  !is_ascii(mo->author, strlen(mo->author)));
	sb_add(m, text.buf, text.len);
	add_signature(m);
	sb_release(&text);
	free(subject);
	return at;
}

static int cmp_member(const void *a, const void *b, const void *src)
{
	const struct sfile *f = ((const struct source *)src)->f;

	return strcmp(f[*(const size_t *)a].path, f[*(const size_t *)b].path);
}

/* Sorts file indexes by their paths, as git orders a diff. */
static void sort_members(size_t *v, size_t n, const struct source *src)
{
	sort_ctx(v, n, sizeof *v, cmp_member, src);
}

static int write_file(const char *path, const struct sbuf *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);

	if (fd < 0 || write_all(fd, data->buf, data->len) < 0) {
		int saved = errno;
		if (fd >= 0)
			close(fd);
		return error("%s: %s", path, strerror(saved));
	}
	return close(fd) < 0 ? error_on(path) : 0;
}

/* Whether name is one of a series: "NNNN-*.patch". */
static int is_series_name(const char *name)
{
	if (name[0] == 'v' && isdigit((unsigned char)name[1])) {
		const char *d = name + 1;
		while (isdigit((unsigned char)*d))
			d++;
		if (*d == '-')
			name = d + 1;
	}
	size_t n = strlen(name);

	for (int i = 0; i < 4; i++)
		if (!isdigit((unsigned char)name[i]))
			return 0;
	return name[4] == '-' && n > 11 && !strcmp(name + n - 6, ".patch");
}

/* The series names already in dir (sorted, malloc'd), or -1. */
static int old_series(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	size_t a = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : error_on(dir);
	for (struct dirent *de; (de = readdir(d));)
		if (is_series_name(de->d_name)) {
			GROW(*names, *n + 1, a);
			(*names)[(*n)++] = xstrdup(de->d_name);
		}
	closedir(d);
	sort_unique(*names, n, 1);
	return 0;
}

/* The refusal of a folder that holds a series already, without force:
 * -1 after error(), else 0.  format asks it before any work, so that no
 * warning of work it then does not do comes first. */
static int refuse_old_series(const char *dir, char *const *old, size_t nold,
			     int force)
{
	return nold && !force ? error("%s: holds a series already (%s); "
				      "--force replaces it", dir, old[0]) : 0;
}

/* refuse_old_series() of what dir holds now. */
static int series_dir_free(const char *dir, int force)
{
	char **old = NULL;
	size_t nold = 0;
	int r = old_series(dir, &old, &nold) < 0 ? -1 :
		refuse_old_series(dir, old, nold, force);

	free_strings(old, nold);
	return r;
}

/* The old series' files (old) in dir that the new one (names) did not
 * overwrite, removed: with --force, the folder holds the new series alone. */
static void remove_replaced(const char *dir, char *const *old, size_t nold,
			    char *const *names, size_t n)
{
	struct sbuf path = SBUF_INIT;

	for (size_t i = 0; i < nold; i++) {
		size_t k = 0;
		while (k < n && strcmp(names[k], old[i]))
			k++;
		if (k < n)
			continue;
		sb_setf(&path, "%s/%s", dir, old[i]);
		unlink(path.buf);
	}
	sb_release(&path);
}

/*
 * Puts the n files (names[i], data[i]) into mo->outdir: they are written
 * into a mkdtemp folder (inside OUTDIR when it exists, else beside it),
 * then renamed in, one by one (a new OUTDIR is the folder itself, renamed
 * in one step).  An old series there is refused, or with force replaced:
 * its files that the new series does not overwrite are removed last.
 * Prints each path.
 */
static int write_series(const struct mail_opts *mo, char *const *names,
			const struct sbuf *data, size_t n)
{
	struct stat sb;
	int exists = stat(mo->outdir, &sb) == 0;
	char **old = NULL;
	size_t nold = 0;
	struct sbuf tmp = SBUF_INIT, from = SBUF_INIT, to = SBUF_INIT;
	int r = 0;

	if (exists && !S_ISDIR(sb.st_mode))
		return error("%s: not a directory", mo->outdir);
	if (exists && old_series(mo->outdir, &old, &nold) < 0)
		return -1;
	if ((r = refuse_old_series(mo->outdir, old, nold, mo->force)) < 0)
		goto out;
	char *parent = exists ? NULL : dir_of(mo->outdir);
	sb_addf(&tmp, "%s/.series-XXXXXX", exists ? mo->outdir : parent);
	free(parent);
	if (!mkdtemp(tmp.buf)) {
		r = error_on(tmp.buf);
		goto out;
	}
	temp_hold(tmp.buf);
	for (size_t i = 0; i < n && !r; i++) {
		sb_setf(&from, "%s/%s", tmp.buf, names[i]);
		r = write_file(from.buf, &data[i]);
		if (!r && stop_signal)
			r = error("interrupted by signal %d", (int)stop_signal);
	}
	if (!r && !exists && rename(tmp.buf, mo->outdir) < 0)
		r = error_on(mo->outdir);
	for (size_t i = 0; i < n && !r && exists; i++) {
		sb_setlen(&from, 0);
		sb_setlen(&to, 0);
		sb_addf(&from, "%s/%s", tmp.buf, names[i]);
		sb_addf(&to, "%s/%s", mo->outdir, names[i]);
		if (rename(from.buf, to.buf) < 0)
			r = error_on(to.buf);
	}
	temp_drop(tmp.buf);
	if (r)
		remove_tree(tmp.buf, 0);
	else if (exists)
		rmdir(tmp.buf);
	if (!r)
		remove_replaced(mo->outdir, old, nold, names, n);
	for (size_t i = 0; i < n && !r; i++)
		xfprintf(1, "%s/%s\n", mo->outdir, names[i]);
out:
	free_strings(old, nold);
	sb_release(&tmp);
	sb_release(&from);
	sb_release(&to);
	return r;
}

/* The mails' texts and names, and what each patch's headers hold. */
struct series_mails {
	size_t n;               /* patches; the cover letter is extra */
	int cover;              /* there is one: text[0] */
	char **name;
	struct sbuf *text;
	struct recipients *rcpt;   /* per patch, as series cc gives them */
	char **msgid;           /* per mail as name, or NULL: none written */
};

static void series_mails_release(struct series_mails *sm)
{
	size_t nf = sm->n + (size_t)sm->cover;

	for (size_t i = 0; i < nf; i++) {
		free(sm->name[i]);
		sb_release(&sm->text[i]);
	}
	free(sm->name);
	free(sm->text);
	free_strings(sm->msgid, nf);
	recipients_free(sm->rcpt, sm->n);
	memset(sm, 0, sizeof *sm);
}

/* Who gets every mail besides its own recipients, and how: --to, --cc,
 * --all-cc of format; split has none of them. */
struct addressing {
	int all_cc;
	const char *const *to, *const *cc;
	size_t nto, ncc;
};

/* To: and Cc: of a patch: its people and lists (all in Cc: with
 * all_cc), then the extra addresses. */
static void patch_addresses(const struct addressing *ad,
			    const struct recipients *r, struct addresses *to,
			    struct addresses *cc)
{
	for (size_t k = 0; k < r->people && !ad->all_cc; k++)
		addresses_add(to, r->v[k].a, NULL);
	for (size_t i = 0; i < ad->nto; i++)
		addresses_add_lines(to, ad->to[i], NULL);
	for (size_t k = ad->all_cc ? 0 : r->people; k < r->n; k++)
		addresses_add(cc, r->v[k].a, to);
	for (size_t i = 0; i < ad->ncc; i++)
		addresses_add_lines(cc, ad->cc[i], to);
}

/* What series cc answers for each of the n mail texts: the same scan of
 * the same bytes, and one pass over MAINTAINERS for all of them. */
static int mail_recipients(struct maintainers *m, const struct cc_opts *co,
			   const struct sbuf *text, size_t n,
			   struct recipients *out)
{
	struct patch_queries pq;
	struct sbuf err = SBUF_INIT;

	patch_queries_init(&pq, n);
	for (size_t i = 0; i < n; i++) {
		struct patch_files *pf = &pq.pf[i];
		scan_patch(text[i].buf, text[i].len, pf,
			   co->keywords ? &pq.kw[i] : NULL);
		patch_query(&pq.q[i], pf, &pq.kw[i]);
	}
	int r = patch_queries_run(m, co, &pq, out, 0, &err);
	sb_release(&err);
	return r;
}

static void mail_items_release(struct mail_item *it, size_t n)
{
	for (size_t i = 0; it && i < n; i++) {
		sb_release(&it[i].msg);
		sb_release(&it[i].tag);
		sb_release(&it[i].notes);
	}
	free(it);
}

/*
 * Writes each patch's mail with its recipients in To: and Cc:.  They are
 * what series cc (and get_maintainer.pl, which git send-email would run)
 * answers for the mail as git format-patch writes it, with no To: or Cc:
 * yet: a K: pattern that matches a list address (the kernel's "K: riscv"
 * against linux-riscv@) must not add people because of our own headers.
 * m NULL: no MAINTAINERS, only the extra addresses.
 */
static int address_mails(struct series_mails *sm, struct maintainers *m,
			 const struct cc_opts *co, const struct addressing *ad,
			 const struct source *src, const struct mail_item *it)
{
	size_t n = sm->n, base = (size_t)sm->cover;
	size_t *at = xcalloc(n + 1, sizeof *at);
	struct sbuf h = SBUF_INIT;
	int r = 0;

	sm->rcpt = xcalloc(n + 1, sizeof *sm->rcpt);
	for (size_t i = 0; i < n; i++)
		at[i] = write_patch_mail(&sm->text[base + i], &it[i].mo, src,
					 &it[i]);
	if (m)
		r = mail_recipients(m, co, sm->text + base, n, sm->rcpt);
	for (size_t i = 0; !r && i < n; i++) {
		struct addresses to = ADDRESSES_INIT, cc = ADDRESSES_INIT;
		patch_addresses(ad, &sm->rcpt[i], &to, &cc);
		sb_setlen(&h, 0);
		add_address_header(&h, "To", &to);
		add_address_header(&h, "Cc", &cc);
		sb_insert(&sm->text[base + i], at[i], h.buf, h.len);
		addresses_release(&to);
		addresses_release(&cc);
	}
	free(at);
	sb_release(&h);
	return r;
}

/* The lists of the whole series, each once, in the order they first come. */
static void series_lists(const struct series_mails *sm,
			 struct addresses *lists)
{
	for (size_t i = 0; i < sm->n; i++) {
		const struct recipients *r = &sm->rcpt[i];
		for (size_t k = 0; k < r->n; k++)
			if (r->v[k].list)
				addresses_add(lists, (struct address){
					{ NULL, 0 }, r->v[k].a.box, 0 }, NULL);
	}
}

/* How many patches of the series go to the list box. */
static size_t patches_to(const struct series_mails *sm, struct span box)
{
	size_t count = 0;

	for (size_t i = 0; i < sm->n; i++)
		count += recipients_list(&sm->rcpt[i], box);
	return count;
}

/* The placeholders of a cover letter nobody has written yet: git
 * format-patch's, which split writes as git does, and format's longer
 * blurb.  What series writes into a letter starts at COVER_GENERATED, or
 * where there is none at the shortlog: everything above is the user's and
 * survives a re-run. */
#define COVER_SUBJECT "*** SUBJECT HERE ***"
#define GIT_BLURB "*** BLURB HERE ***"
#define COVER_BLURB "*** BLURB HERE: what the series does, and why ***"
#define COVER_GENERATED "This series is organised "

/*
 * A cover letter, for split and format alike: the head, the user's aim
 * (or git's placeholder), what only the command knows (each an option:
 * how the series is organised, where it is published, what changed since
 * the last version, how many patches each list gets), git's shortlog of the
 * patches, the diffstat and the base.  Its body declares UTF-8 where it
 * holds 8-bit text.
 */
struct cover {
	struct mail_opts mo;          /* author, date, To:, Cc: */
	const char *tag, *subject, *aim;
	const char *organised;        /* a paragraph, wrapped here, or NULL */
	const char *branch;           /* "URL BRANCH", or NULL */
	const char *changes;          /* since the last version, or NULL */
	const struct series_mails *sm;   /* patches per list, or NULL */
	char *const *author, *const *subject_of;  /* per patch, n of them */
	size_t n;
	const struct source *src;     /* the diffstat: these files of src */
	const size_t *member;
	size_t nmember;
	const char *base;             /* base-commit: lines, or NULL */
};

/* git shortlog's form: each author's name with a count, then the
 * subjects of their patches, authors in the order they first come. */
static void add_shortlog(struct sbuf *m, char *const *author,
			 char *const *subject, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0, count = 0;
		while (j < i && strcmp(author[j], author[i]))
			j++;
		if (j < i)
			continue;
		for (size_t k = i; k < n; k++)
			count += !strcmp(author[k], author[i]);
		struct span name = address_of(author[i]).name;
		sb_addf(m, "%.*s (%zu):\n", (int)name.len, name.p, count);
		for (size_t k = i; k < n; k++)
			if (!strcmp(author[k], author[i]))
				sb_addf(m, "  %s\n", subject[k]);
		sb_addc(m, '\n');
	}
}

/* How many patches each list of the series gets, in the order of Cc:,
 * under a line on who gets what; nothing where no patch has a list.  Not
 * a table of every patch's recipients: it grew ten lines a patch, and its
 * indented "to:" and "cc:" lines read to checkpatch.pl as bad sign-offs. */
static void add_list_counts(struct sbuf *body, const struct series_mails *sm)
{
	struct addresses lists = ADDRESSES_INIT;

	series_lists(sm, &lists);
	if (lists.n)
		sb_adds(body, "Each patch goes to its own maintainers (To:) and "
			"lists (Cc:); this\nletter goes to every list.  "
			"Patches per list:\n");
	for (size_t i = 0; i < lists.n; i++) {
		struct span b = lists.v[i].box;
		sb_addf(body, "  %4zu  %.*s\n", patches_to(sm, b), (int)b.len, b.p);
	}
	if (lists.n)
		sb_addc(body, '\n');
	addresses_release(&lists);
}

static void write_cover(struct sbuf *m, const struct cover *c)
{
	struct sbuf body = SBUF_INIT;

	sb_adds(&body, c->aim);
	if (c->organised) {
		sb_addc(&body, '\n');
		add_wrapped(&body, c->organised, 72, 0, 0);
		sb_addc(&body, '\n');
	}
	if (c->branch)
		sb_addf(&body, "The branch is at:\n  %s\n\n", c->branch);
	if (c->changes)
		sb_adds(&body, c->changes);
	if (c->sm)
		add_list_counts(&body, c->sm);
	add_shortlog(&body, c->author, c->subject_of, c->n);
	add_diffstat(&body, c->src, c->member, c->nmember);
	sb_addc(&body, '\n');
	if (c->base)
		sb_adds(&body, c->base);
	add_mail_head(m, &c->mo, c->tag, c->subject,
		      !is_ascii(body.buf, body.len) ||
		      !is_ascii(c->subject, strlen(c->subject)));
	sb_add(m, body.buf, body.len);
	add_signature(m);
	sb_release(&body);
}

/*
 * One series of mails, whoever makes it (split: a diff's groups; format:
 * a range's commits): the patches' items, what every mail adds to its
 * recipients, and the cover letter's specification (its To: and Cc: and
 * the patches-per-list paragraph are the pipeline's).  make_series() is
 * the one pipeline: each patch's mail, its recipients from the engine,
 * then the letter to their lists.
 */
struct series_spec {
	struct mail_item *it;         /* per patch, n of them */
	size_t n;
	int version;                  /* vN- file names where above 1 */
	int cover;                    /* with a cover letter: cv */
	int list_counts;              /* the letter says what each list gets */
	int people_to;                /* the letter goes to the patches'
				       * people too: one tree's series */
	const char *thread;           /* "SECONDS.git.ADDR": each mail's
				       * Message-Id ends so, the patches
				       * answer the letter (format-patch
				       * --thread); NULL: no ids */
	const char *cover_id;         /* the letter's id's start ("cover") */
	struct addressing ad;
	struct cover cv;
};

/* Message-Ids as git format-patch --thread makes them: "cover.THREAD" for
 * the letter, "COMMIT.THREAD" for a patch, each answering the letter. */
static void thread_mails(struct series_mails *sm, const struct series_spec *s)
{
	size_t base = (size_t)sm->cover;

	sm->msgid = xcalloc(sm->n + base + 1, sizeof *sm->msgid);
	if (base)
		sm->msgid[0] = xstrfmt("%s.%s", s->cover_id, s->thread);
	for (size_t i = 0; i < sm->n; i++) {
		sm->msgid[base + i] = xstrfmt("%s.%s", s->it[i].mo.id, s->thread);
		s->it[i].mo.msgid = sm->msgid[base + i];
		s->it[i].mo.reply_to = base ? sm->msgid[0] : NULL;
	}
}

/* The cover letter's To: (the extra To:; with people, every person the
 * patches go to) and Cc: (every list of the series, then the extra Cc:). */
static void cover_addresses(const struct series_mails *sm,
			    const struct addressing *ad, int people,
			    struct addresses *to, struct addresses *cc)
{
	struct addresses lists = ADDRESSES_INIT;

	for (size_t i = 0; people && i < sm->n; i++)
		for (size_t k = 0; k < sm->rcpt[i].people; k++)
			if (!sm->rcpt[i].v[k].list)
				addresses_add(to, sm->rcpt[i].v[k].a, NULL);
	for (size_t i = 0; i < ad->nto; i++)
		addresses_add_lines(to, ad->to[i], NULL);
	series_lists(sm, &lists);
	for (size_t i = 0; i < lists.n; i++)
		addresses_add(cc, lists.v[i], to);
	for (size_t i = 0; i < ad->ncc; i++)
		addresses_add_lines(cc, ad->cc[i], to);
	addresses_release(&lists);
}

/* The series s describes, into sm (empty before; the caller releases
 * it): names, mails and their recipients (m NULL: no MAINTAINERS), the
 * cover letter.  0, or -1 after error(). */
static int make_series(struct series_mails *sm, const struct series_spec *s,
		       const struct source *src, struct maintainers *m,
		       const struct cc_opts *co)
{
	sm->n = s->n;
	sm->cover = s->cover;
	size_t nf = sm->n + (size_t)sm->cover;
	sm->name = xcalloc(nf + 1, sizeof *sm->name);
	sm->text = xcalloc(nf + 1, sizeof *sm->text);
	for (size_t i = 0; i < nf; i++) {
		size_t k = i + !sm->cover;
		sb_init(&sm->text[i]);
		sm->name[i] = mail_name(s->version, k, k ? s->it[k - 1].msg.buf : NULL);
	}
	if (s->thread)
		thread_mails(sm, s);
	if (address_mails(sm, m, co, &s->ad, src, s->it) < 0)
		return -1;
	if (sm->cover) {
		struct addresses to = ADDRESSES_INIT, cc = ADDRESSES_INIT;
		struct cover cv = s->cv;
		cv.mo.msgid = sm->msgid ? sm->msgid[0] : NULL;
		cover_addresses(sm, &s->ad, s->people_to, &to, &cc);
		cv.mo.to = &to;
		cv.mo.cc = &cc;
		cv.sm = s->list_counts ? sm : NULL;
		write_cover(&sm->text[0], &cv);
		addresses_release(&to);
		addresses_release(&cc);
	}
	return 0;
}

/* split's items: group i with message msgs[i], "[PATCH i/n]". */
static struct mail_item *group_items(const struct mail_opts *mo,
				     const struct plan *p,
				     const struct sbuf *msgs)
{
	struct mail_item *it = xcalloc(p->nr + 1, sizeof *it);

	for (size_t i = 0; i < p->nr; i++) {
		it[i] = (struct mail_item){ *mo, &p->g[i], SBUF_INIT, SBUF_INIT,
					    SBUF_INIT };
		sb_add(&it[i].msg, msgs[i].buf, msgs[i].len);
		sb_adds(&it[i].tag, "[PATCH");
		if (p->nr > 1)
			add_patch_number(&it[i].tag, i + 1, p->nr);
		sb_addc(&it[i].tag, ']');
	}
	return it;
}

/* The mail sink: the plan's groups as a numbered series in mo->outdir,
 * each patch with its recipients in To: and Cc: where m (MAINTAINERS) is
 * given, and with more than one, git format-patch's cover letter (its
 * placeholders, the shortlog, the whole diffstat) to every list.  msgs[i]
 * is group i's cleaned-up message. */
static int write_mails(const struct mail_opts *mo, const struct source *src,
		       const struct plan *p, const struct sbuf *msgs,
		       struct maintainers *m, const struct cc_opts *co)
{
	struct series_mails sm = { 0 };
	struct sbuf tag = SBUF_INIT;
	char **author = xcalloc(p->nr + 1, sizeof *author);
	char **subject = xcalloc(p->nr + 1, sizeof *subject);
	size_t *all = NULL, nall = 0;

	for (size_t i = 0; i < p->nr; i++) {
		author[i] = (char *)mo->author;
		subject[i] = subject_of(msgs[i].buf);
		all = xrealloc(all, xmul(nall + p->g[i].nr, sizeof *all));
		memcpy(all + nall, p->g[i].member, p->g[i].nr * sizeof *all);
		nall += p->g[i].nr;
	}
	sort_members(all, nall, src);
	sb_adds(&tag, "[PATCH");
	add_patch_number(&tag, 0, p->nr);
	sb_addc(&tag, ']');
	struct series_spec s = { .it = group_items(mo, p, msgs), .n = p->nr,
		.cover = p->nr > 1,
		.cv = { .mo = *mo, .tag = tag.buf, .subject = COVER_SUBJECT,
			.aim = GIT_BLURB "\n\n", .author = author,
			.subject_of = subject, .n = p->nr, .src = src,
			.member = all, .nmember = nall } };
	int r = make_series(&sm, &s, src, m, co);
	if (!r)
		r = write_series(mo, sm.name, sm.text, sm.n + (size_t)sm.cover);
	series_mails_release(&sm);
	mail_items_release(s.it, p->nr);
	free_strings(subject, p->nr);
	free(author);
	free(all);
	sb_release(&tag);
	return r;
}

/* ---- before sending ---------------------------------------------------------
 * What a series' lists and recipients call for before it goes out.
 */

/* How a list's L: line in MAINTAINERS marks it: "moderated",
 * "subscribers-only", or NULL.  llines: the L: lines, from l_lines(). */
static const char *list_status(const struct sbuf *llines, const char *addr)
{
	const char *pos = llines->buf, *end = llines->buf + llines->len;
	size_t n = strlen(addr), k = rarest_byte(addr, n);

	for (struct span l; next_line(&pos, end, &l);) {
		if (!find_bytes_at(l.p, l.len, addr, n, k))
			continue;
		if (find_bytes(l.p, l.len, "moderated", 9))
			return "moderated";
		if (find_bytes(l.p, l.len, "subscribers-only", 16))
			return "subscribers-only";
	}
	return NULL;
}

/* The rule of the kernel's process documents on how many patches a list
 * takes at once, for the lists it names (netdev's, then every vger list);
 * NULL elsewhere. */
static const char *list_rule(const char *addr)
{
	const char *at = strchr(addr, '@');

	if (!strcasecmp(addr, "netdev@vger.kernel.org"))
		return "netdev takes no series over 15 patches "
		       "(maintainer-netdev.rst)";
	if (at && !strcasecmp(at, "@vger.kernel.org"))
		return "send no more than 15 at once to a vger list "
		       "(submitting-patches.rst)";
	return NULL;
}

/* Every L: line of MAINTAINERS, one a line. */
static void l_lines(const struct maintainers *m, struct sbuf *out)
{
	const char *pos = m->text, *end = m->text + m->len;

	for (struct span l; next_line(&pos, end, &l);)
		if (l.len >= 2 && l.p[0] == 'L' && l.p[1] == ':') {
			sb_add(out, l.p, l.len);
			sb_addc(out, '\n');
		}
}

/* What a run of several series has looked at already: the lists whose
 * status it checked, each once (owned strings), and MAINTAINERS' L:
 * lines, read once (l_lines()). */
struct said {
	char **v;
	size_t n, alloc;
	struct sbuf llines;
};
#define SAID_INIT { NULL, 0, 0, SBUF_INIT }

static void said_release(struct said *sd)
{
	free_strings(sd->v, sd->n);
	sb_release(&sd->llines);
}

/* The warnings due before anything is sent: a list given more than 15
 * patches, a moderated or subscribers-only list (once a run: said, or
 * NULL for a run of one series), too many recipients. */
static void sending_warnings(const struct series_mails *sm,
			     const struct maintainers *m, int max_rcpt,
			     size_t extra, struct said *said)
{
	struct addresses lists = ADDRESSES_INIT;
	struct said one = SAID_INIT, *sd = said ? said : &one;

	series_lists(sm, &lists);
	if (m && !sd->llines.len)
		l_lines(m, &sd->llines);
	for (size_t i = 0; i < lists.n; i++) {
		struct span box = lists.v[i].box;
		char *addr = xstrndup(box.p, box.len);
		size_t count = patches_to(sm, box);
		const char *rule = list_rule(addr);
		if (count > 15)
			warning("%s gets %zu patches of this series; %s: send it "
				"in batches, or group it otherwise (plan "
				"--compare)", addr, count, rule ? rule :
				"its host publishes no limit, but vger's 15 at "
				"once is what reviewers expect");
		if (!m || has_line(sd->v, sd->n, addr)) {
			free(addr);
			continue;
		}
		GROW(sd->v, sd->n + 1, sd->alloc);
		sd->v[sd->n++] = addr;
		const char *st = list_status(&sd->llines, addr);
		if (st)
			warning("%s is %s: a mail from a non-member waits for a "
				"moderator, or bounces", addr, st);
	}
	for (size_t i = 0; i < sm->n; i++) {
		size_t k = sm->rcpt[i].n + extra;
		if ((int)k > max_rcpt)
			warning("%s goes to %zu recipients (more than %d)",
				sm->name[i + (size_t)sm->cover], k, max_rcpt);
	}
	addresses_release(&lists);
	said_release(&one);
}

/* ---- the transaction core -----------------------------------------------
 * Every command that writes commits (commit, split --commit, regroup,
 * trailers) is one transaction with one commit point:
 *   1. its git commands write objects only, into a quarantine: an object
 *      directory of the run's own under .git (mkdtemp), the real one as
 *      its alternate, named to each git by the environment txn_env()
 *      gives (with the author and the run's committer);
 *   2. txn_land(): the quarantine's objects move in, then `git update-ref
 *      HEAD NEW OLD` moves HEAD once, by compare-and-swap, from the commit
 *      the repository had when it was opened: the commit point;
 *   3. before that point, any failure or signal ends in txn_abort(),
 *      which removes the quarantine, the run's index and the index lock
 *      (where the run took one), so HEAD, refs, the index and the work
 *      tree are as they were.
 * Invariants: a field is set exactly while what it names exists; txn_abort()
 * may run any number of times; commits and files count what landed.
 */
struct txn {
	struct repo *repo;
	char *author, *committer;     /* idents: "Name <addr> SECONDS ZONE" */
	char *quarantine;             /* the run's object directory */
	struct sbuf env_obj, env_alt; /* the environment that points there */
	char *tmp_index;              /* an index of the run's own */
	char *lock;                   /* index.lock, where the run holds it */
	char tip[72];                 /* the last commit, once written */
	size_t commits, files;
};
#define TXN_INIT { .env_obj = SBUF_INIT, .env_alt = SBUF_INIT }

static int check_stop(const char *step)
{
	if (stop_signal)
		return error("%s: interrupted by signal %d", step, (int)stop_signal);
	return 0;
}

static void progress(size_t k, size_t n, const char *name)
{
	if (isatty(2))
		xfprintf(2, "\r\033[K[%zu/%zu] %s", k, n, name);
}

/* The progress line cleared, on a terminal. */
static void progress_end(void)
{
	if (isatty(2))
		put_out(2, "\r\033[K", 4);
}

/* A step of a long command, said on a terminal: "series: CMD: WHAT". */
static void phase(const char *cmd, const char *what)
{
	if (isatty(2))
		note("%s: %s", cmd, what);
}

/* Opens the transaction on repo: git's committer ident, and its author
 * where the commits are the run's own (authored) and the command gave
 * none; the quarantine.  0, or -1 after error(); txn_abort() removes what
 * was made. */
static int txn_begin(struct txn *t, struct repo *repo, int authored)
{
	struct sbuf dir = SBUF_INIT;

	t->repo = repo;
	if (!t->committer && !(t->committer = ident("GIT_COMMITTER_IDENT")))
		return -1;
	if (authored && !t->author && !(t->author = ident("GIT_AUTHOR_IDENT")))
		return -1;
	sb_addf(&dir, "%s/series-objects-XXXXXX", repo->gitdir);
	if (!mkdtemp(dir.buf)) {
		int saved = errno;
		sb_release(&dir);
		return error("%s: %s", repo->gitdir, strerror(saved));
	}
	t->quarantine = sb_detach(&dir, NULL);
	temp_hold(t->quarantine);
	sb_addf(&dir, "%s/pack", t->quarantine);
	int r = mkdir(dir.buf, 0777);
	sb_release(&dir);
	if (r < 0)
		return error("%s/pack: %s", t->quarantine, strerror(errno));
	const char *alt = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	sb_addf(&t->env_obj, "GIT_OBJECT_DIRECTORY=%s", t->quarantine);
	sb_addf(&t->env_alt, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%s%s%s",
		t->repo->objects, alt && *alt ? ":" : "", alt ? alt : "");
	return 0;
}

/* The environment of a git that writes into the quarantine, with author
 * (an ident; NULL: the run's) and the run's committer: env[0..9) (NULL-
 * terminated), its strings in id[6], which the caller releases. */
static void txn_env(const struct txn *t, const char *author, struct sbuf *id,
		    const char **env)
{
	ident_env(id, "AUTHOR", author ? author : t->author);
	ident_env(id + 3, "COMMITTER", t->committer);
	const char *v[] = { t->env_obj.buf, t->env_alt.buf, id[0].buf,
			    id[1].buf, id[2].buf, id[3].buf, id[4].buf,
			    id[5].buf, NULL };
	memcpy(env, v, sizeof v);
}

/* One commit of tree on parent ("": a root commit; 72 bytes) with msg,
 * by author (NULL: the run's), into the quarantine; its id replaces
 * parent.  0, or -1 after error(). */
static int txn_commit_tree(const struct txn *t, const char *tree,
			   char *parent, const struct sbuf *msg,
			   const char *author)
{
	struct sbuf id[6];
	const char *env[9];
	char was[72];
	const char *words[] = { "commit-tree", tree, "-p", was, NULL };

	memcpy(was, parent, sizeof was);
	for (int i = 0; i < 6; i++)
		sb_init(&id[i]);
	txn_env(t, author, id, env);
	if (!*was)
		words[2] = NULL;
	int r = check_stop("git commit-tree");
	if (!r)
		r = git_id("git commit-tree", &(struct git_run){
			.words = words, .env = env,
			.input = msg->buf, .inlen = msg->len }, parent);
	for (int i = 0; i < 6; i++)
		sb_release(&id[i]);
	return r;
}

/* Moves the files of from/sub into to/sub (made if need be); packs with
 * each .pack before its .idx, as git does, so no reader sees an index
 * without its pack. */
static int move_objects(const char *from, const char *to, const char *sub)
{
	struct sbuf dir = SBUF_INIT, src = SBUF_INIT, dst = SBUF_INIT;
	int r = 0, pack = !strcmp(sub, "pack");

	sb_addf(&dir, "%s/%s", from, sub);
	sb_addf(&dst, "%s/%s", to, sub);
	if (!pack && mkdir(dst.buf, 0777) < 0 && errno != EEXIST)
		r = error_on(dst.buf);
	for (int pass = 0; pass < 2 && !r; pass++) {
		DIR *d = opendir(dir.buf);
		if (!d) {
			r = error_on(dir.buf);
			break;
		}
		for (struct dirent *de; !r && (de = readdir(d));) {
			if (de->d_name[0] == '.')
				continue;
			if (pack && (!starts_with(de->d_name, NULL, "pack-") ||
				     (pass == 0) != has_suffix(de->d_name, ".pack") ||
				     (pass == 1 && !has_suffix(de->d_name, ".idx"))))
				continue;
			if (!pack && pass)
				continue;
			sb_setlen(&src, 0);
			sb_setlen(&dst, 0);
			sb_addf(&src, "%s/%s", dir.buf, de->d_name);
			sb_addf(&dst, "%s/%s/%s", to, sub, de->d_name);
			if (rename(src.buf, dst.buf) < 0)
				r = error_on(dst.buf);
		}
		closedir(d);
	}
	sb_release(&dir);
	sb_release(&src);
	sb_release(&dst);
	return r;
}

/* Moves the quarantine's loose objects (xx/ directories), then its pack,
 * into the object directory. */
static int release_quarantine(struct txn *t)
{
	DIR *d = opendir(t->quarantine);
	int r = 0;

	if (!d)
		return error_on(t->quarantine);
	for (struct dirent *de; !r && (de = readdir(d));)
		if (strlen(de->d_name) == 2 && isxdigit((unsigned char)de->d_name[0]) &&
		    isxdigit((unsigned char)de->d_name[1]))
			r = move_objects(t->quarantine, t->repo->objects, de->d_name);
	closedir(d);
	return r ? r : move_objects(t->quarantine, t->repo->objects, "pack");
}

/* HEAD from the repository's old commit to t->tip, by compare-and-swap;
 * its reflog names the number of commits. */
static int move_head(struct txn *t)
{
	struct sbuf msg = SBUF_INIT;
	int r;

	sb_addf(&msg, "series: %zu commit%s", t->commits,
		t->commits == 1 ? "" : "s");
	const char *words[] = { "update-ref", "-m", msg.buf, "HEAD", t->tip,
				t->repo->old, NULL };
	r = run_git(&(struct git_run){ .words = words });
	sb_release(&msg);
	if (!r)
		return 0;
	/* Killed or failed after its rename?  Then the series is committed. */
	static const char *const head[] = {
		"rev-parse", "-q", "--verify", "HEAD", NULL };
	struct sbuf now = SBUF_INIT;
	int st = run_git(&(struct git_run){ .words = head, .out = &now });
	chomp(&now);
	int moved = !st && !strcmp(now.buf, t->tip);
	sb_release(&now);
	if (moved)
		return 0;
	if (r == 1 || r == 128)
		return error("git update-ref: %s did not move; it changed during "
			     "the run or is locked, so nothing was committed",
			     t->repo->ref);
	return git_failed("git update-ref", r);
}

/* The commit point: commits commits end at tip, which is in the
 * quarantine; its objects move in, then HEAD moves once.  0, or -1 after
 * error() (HEAD as it was). */
static int txn_land(struct txn *t, const char *tip, size_t commits)
{
	int r;

	if (strlen(tip) >= sizeof t->tip || !is_oid(tip, strlen(tip)))
		return error("the last commit is no object id: %s", tip);
	memmove(t->tip, tip, strlen(tip) + 1);
	t->commits = commits;
	if ((r = release_quarantine(t)) < 0 ||
	    (r = check_stop("git update-ref")) < 0)
		return r;
	return move_head(t);
}

/* What a run that landed prints on stdout, one line: "217 commits, 1,031
 * files on refs/heads/x: OLD..NEW" and what follows (" (was 3 commits)"). */
static void txn_print(const struct txn *t, const char *from, const char *more)
{
	struct sbuf line = SBUF_INIT;

	sb_add_count(&line, t->commits);
	sb_adds(&line, t->commits == 1 ? " commit, " : " commits, ");
	sb_add_count(&line, t->files);
	sb_addf(&line, " file%s on %s: %.12s..%.12s%s\n", t->files == 1 ? "" : "s",
		t->repo->ref, *from ? from : "(root)", t->tip, more ? more : "");
	put_out(1, line.buf, line.len);
	sb_release(&line);
}

/* Copies index to a new temporary file in dir, keeping its mtime (git's
 * racy-entry check compares file times with the index's); *tmp names it.
 * No index yet: *tmp names a file that does not exist, which git creates. */
static int copy_index(const char *index, const char *dir, char **tmp)
{
	struct sbuf path = SBUF_INIT, data = SBUF_INIT;
	struct stat sb;

	int fd = temp_file(&path, dir, "index", 1);
	if (fd < 0) {
		error_on(path.buf);
		sb_release(&path);
		return -1;
	}
	*tmp = sb_detach(&path, NULL);
	temp_hold(*tmp);
	if (stat(index, &sb) < 0) {
		close(fd);
		unlink(*tmp);
		if (errno != ENOENT)
			return error_on(index);
		return 0;
	}
	int r = 0;
	if (sb_read_file(&data, index) < 0)
		r = error_on(index);
	else if (write_all(fd, data.buf, data.len) < 0)
		r = error_on(*tmp);
	else {
		struct timespec ts[2] = { sb.st_atim, sb.st_mtim };
		futimens(fd, ts);
	}
	if (close(fd) < 0 && !r)
		r = error_on(*tmp);
	sb_release(&data);
	return r;
}

/* Removes a temporary file of the run (an index copy, a message) and the
 * lock git may have left beside it; frees *tmp and sets it NULL. */
static void remove_temp(char **tmp)
{
	if (!*tmp)
		return;
	temp_drop(*tmp);
	remove_tree(*tmp, -1);
	free(*tmp);
	*tmp = NULL;
}

/* Undoes whatever happened before the commit point; safe to call twice. */
static void txn_abort(struct txn *t)
{
	if (t->quarantine) {
		temp_drop(t->quarantine);
		remove_tree(t->quarantine, 2);
		free(t->quarantine);
		t->quarantine = NULL;
	}
	remove_temp(&t->tmp_index);
	if (t->lock) {
		temp_drop(t->lock);
		unlink(t->lock);
		free(t->lock);
		t->lock = NULL;
	}
}

static void txn_release(struct txn *t)
{
	txn_abort(t);
	sb_release(&t->env_obj);
	sb_release(&t->env_alt);
	free(t->author);
	free(t->committer);
}

static int take_index_lock(struct txn *t)
{
	struct sbuf lock = SBUF_INIT;

	sb_addf(&lock, "%s.lock", t->repo->index);
	int fd = open(lock.buf, O_CREAT | O_EXCL | O_WRONLY, 0666);
	if (fd < 0) {
		int saved = errno;
		error("%s: %s%s", lock.buf, strerror(saved), saved == EEXIST ?
		      " (another git process is running, or one crashed; "
		      "remove the file if none is)" : "");
		sb_release(&lock);
		return -1;
	}
	close(fd);
	t->lock = sb_detach(&lock, NULL);
	temp_hold(t->lock);
	return 0;
}

/* A file of the quarantine, opened for writing; -1 after error(). */
static int quarantine_file(const struct txn *t, const char *name)
{
	struct sbuf path = SBUF_INIT;

	sb_addf(&path, "%s/%s", t->quarantine, name);
	int fd = open(path.buf, O_CREAT | O_WRONLY | O_TRUNC, 0666);
	if (fd < 0)
		error_on(path.buf);
	sb_release(&path);
	return fd;
}

/* Reads a file of the quarantine into sb; returns 0 or -1 after error(). */
static int read_quarantine_file(const struct txn *t, const char *name,
				struct sbuf *sb)
{
	struct sbuf path = SBUF_INIT;
	int r = 0;

	sb_addf(&path, "%s/%s", t->quarantine, name);
	if (sb_read_file(sb, path.buf) < 0)
		r = error_on(path.buf);
	sb_release(&path);
	return r;
}

/* ---- commit: the work tree's groups through git fast-import -------------
 * `series commit` as one transaction whose commit point is a single
 * compare-and-swap of HEAD:
 *   1. take the index lock (O_EXCL, as git does), so no git changes the
 *      index under us;
 *   2. in a mkstemp copy of the index, git stages the selection as
 *      `git add` would (update-index: filters, autocrlf, core.fileMode),
 *      which gives each path the mode and id the commits must hold;
 *   3. stream every group as a commit into one `git fast-import`, into a
 *      quarantine (a mkdtemp object directory under .git, the real one as
 *      its alternate); its branch is reset at the end without a value, so
 *      it writes objects and no ref; its marks file gives the tip.  Where
 *      what it stored is not what git staged, git writes the blobs and the
 *      import runs again.  Step 2 runs beside step 3 when it cannot change
 *      the plan (see commit_series);
 *   4. move the quarantine's objects in, then `git update-ref HEAD NEW
 *      OLD`: the commit point;
 *   5. rename the copy over the index and drop the lock.
 * Any failure or signal before 4 removes the copy, the quarantine, the lock
 * and any crash report, so HEAD, refs, index and work tree are as before;
 * the work tree is only ever read.
 */

/* What one path of the selection becomes, once git has staged it. */
struct change {
	const char *path;     /* borrowed from the status */
	size_t group, file;   /* its group in the plan, its file in the source */
	const struct entry *e;   /* that file's status entry */
	int take;             /* 1: the work tree's side, as `git add` takes
	                       * it; 0: out of the index, the file (if any)
	                       * left untracked (git rm --cached, a rename's
	                       * old path) */
	unsigned head_mode;   /* in HEAD; 0: not there */
	const char *head_oid;
	unsigned mode;        /* staged by git; 0: absent */
	char oid[65];
	unsigned wt_mode;     /* as streamed to fast-import; 0: deleted */
	char wt_oid[65];      /* the id fast-import gave it */
	int have_object;      /* the staged blob is in the object store */
	int shared;           /* more than one entry names the path */
	int convert;          /* git stores other bytes than the work tree's */
	size_t mark;          /* its blob's mark in the fast-import stream */
};

struct changes {
	struct change *c;
	size_t nr;
};

static int cmp_change_path(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : y->take - x->take;
}

static int cmp_change_group(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->path, y->path);
}

/*
 * The paths the plan's entries own, each once, sorted by (group, path): an
 * entry's path, and a rename's old path (a copy leaves it).  A path named twice (a staged
 * deletion and the untracked file of the same name; a rename's old path
 * taken by a new file) keeps the side that takes the work tree, with HEAD's
 * state from whichever knows it, in that side's group.
 */
static void collect_changes(struct changes *cs, const struct plan *p,
			    const struct source *src)
{
	size_t n = 0, a = 0;
	struct change *c = NULL;

	for (size_t g = 0; g < p->nr; g++)
		for (size_t j = 0; j < p->g[g].nr; j++) {
			size_t idx = p->g[g].member[j];
			const struct entry *e = src->f[idx].entry;
			int tracked = e->kind == E_CHANGED;
			GROW(c, n + 2, a);
			c[n++] = (struct change){
				.path = e->path, .group = g, .file = idx, .e = e,
				.take = !(tracked && !e->mode_index),
				.head_mode = tracked ? e->mode_head : 0,
				.head_oid = tracked ? e->oid_head : "" };
			if (e->orig && e->x != 'C')
				c[n++] = (struct change){
					.path = e->orig, .group = g, .file = idx,
					.e = e, .take = 0, .head_mode = e->mode_head,
					.head_oid = e->oid_head };
		}
	sort_n(c, n, sizeof *c, cmp_change_path);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(c[k - 1].path, c[i].path)) {
			c[k - 1].shared = 1;
			if (!c[k - 1].head_mode) {
				c[k - 1].head_mode = c[i].head_mode;
				c[k - 1].head_oid = c[i].head_oid;
			}
			continue;
		}
		c[k++] = c[i];
	}
	sort_n(c, k, sizeof *c, cmp_change_group);
	cs->c = c;
	cs->nr = k;
}

/* Whether the staged path is what HEAD has: then it changes nothing. */
static int change_is_noop(const struct change *c)
{
	return c->mode == c->head_mode &&
	       (!c->mode || !strcmp(c->oid, c->head_oid));
}

/* One entry of `git ls-files -s -z`, pointing into its output. */
struct staged {
	const char *path, *oid;
	unsigned mode, stage;
};

static int cmp_staged(const void *a, const void *b)
{
	return strcmp(((const struct staged *)a)->path,
		      ((const struct staged *)b)->path);
}

/*
 * Grammar of `git ls-files -s -z`: records "MODE SP OID SP STAGE TAB PATH"
 * each ending in NUL; -z means no quoting.  The spaces and the tab become
 * NULs so that the fields are strings in place.
 */
static int parse_staged(struct sbuf *out, struct staged **list, size_t *nr)
{
	size_t n = 0, a = 0;
	struct staged *l = NULL;
	int sorted = 1;

	for (char *p = out->buf, *end = p + out->len; p < end;) {
		char *nul = memchr(p, '\0', (size_t)(end - p));
		char *sp1 = nul ? memchr(p, ' ', (size_t)(nul - p)) : NULL;
		char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(nul - sp1 - 1)) : NULL;
		char *tab = sp2 ? memchr(sp2 + 1, '\t', (size_t)(nul - sp2 - 1)) : NULL;
		struct cursor c = { p, sp1 ? sp1 + 1 : p };
		struct staged s = { 0 };
		if (!tab || tab + 1 == nul || sp2 - sp1 - 1 > 64 ||
		    octal_field(&c, &s.mode) < 0 || tab - sp2 != 2 ||
		    sp2[1] < '0' || sp2[1] > '3') {
			free(l);
			return error("git ls-files: unexpected answer at byte %zu",
				     (size_t)(p - out->buf));
		}
		*sp2 = *tab = '\0';
		s.oid = sp1 + 1;
		s.stage = (unsigned)(sp2[1] - '0');
		s.path = tab + 1;
		if (!is_oid(s.oid, strlen(s.oid))) {
			free(l);
			return error("git ls-files: unexpected answer at byte %zu",
				     (size_t)(p - out->buf));
		}
		if (n && strcmp(l[n - 1].path, s.path) > 0)
			sorted = 0;
		GROW(l, n + 1, a);
		l[n++] = s;
		p = nul + 1;
	}
	if (!sorted)
		sort_n(l, n, sizeof *l, cmp_staged);
	*list = l;
	*nr = n;
	return 0;
}

/* Feeds paths (NUL-terminated each) to `git update-index WORDS -z --stdin`. */
static int update_index(const char *step, const char *const *words,
			const char *const *env, const struct sbuf *paths)
{
	if (!paths->len)
		return 0;
	return git_ok(step, &(struct git_run){ .words = words, .env = env,
		      .input = paths->buf, .inlen = paths->len });
}

/*
 * Stages the changes into the index file `index` as `git add` would: the
 * taken paths by one update-index --add --remove --replace (git's own
 * clean/smudge filters, autocrlf, eol and core.fileMode apply), the dropped
 * ones by one --force-remove, so an untracked file stays untracked.  With
 * write_objects the blobs go into the object directory objenv names (else
 * they are only hashed: fast-import writes them).
 */
static int stage_index(const struct changes *cs, const char *index,
		       const char *const *objenv, int write_objects)
{
	static const char *const drop[] = { "update-index", "-z",
		"--force-remove", "--stdin", NULL };
	static const char *const take[] = { "update-index", "--add",
		"--remove", "--replace", "-z", "--stdin", NULL };
	static const char *const hash_only[] = { "update-index", "--add",
		"--remove", "--replace", "--info-only", "-z", "--stdin", NULL };
	struct sbuf ienv = SBUF_INIT, dropped = SBUF_INIT, taken = SBUF_INIT;
	const char *env[4] = { NULL, NULL, NULL, NULL };
	int r;

	sb_addf(&ienv, "GIT_INDEX_FILE=%s", index);
	env[0] = ienv.buf;
	if (write_objects && objenv) {
		env[1] = objenv[0];
		env[2] = objenv[1];
	}
	for (size_t i = 0; i < cs->nr; i++)
		sb_add(cs->c[i].take ? &taken : &dropped, cs->c[i].path,
		       strlen(cs->c[i].path) + 1);
	if (!(r = update_index("git update-index", drop, env, &dropped)))
		r = update_index("git update-index", write_objects ? take :
				 hash_only, env, &taken);
	sb_release(&ienv);
	sb_release(&dropped);
	sb_release(&taken);
	return r;
}

/* Appends `git ls-files -s -z` of the index file `index` to out. */
static int list_index(const char *index, struct sbuf *out)
{
	static const char *const list[] = { "ls-files", "-s", "-z", NULL };
	struct sbuf ienv = SBUF_INIT;

	sb_addf(&ienv, "GIT_INDEX_FILE=%s", index);
	const char *env[] = { ienv.buf, NULL };
	int r = git_ok("git ls-files", &(struct git_run){ .words = list, .env = env, .out = out });
	sb_release(&ienv);
	return r;
}

/* Each change's staged mode and id, from the listing (which it edits). */
static int apply_listing(struct changes *cs, struct sbuf *listing,
			 int have_objects)
{
	struct staged *l = NULL;
	size_t nl = 0;
	int r = parse_staged(listing, &l, &nl);

	for (size_t i = 0; !r && i < cs->nr; i++) {
		struct change *c = &cs->c[i];
		struct staged key = { c->path, NULL, 0, 0 };
		struct staged *s = nl ? bsearch(&key, l, nl, sizeof *l,
						cmp_staged) : NULL;
		c->mode = 0;
		*c->oid = '\0';
		if (!s)
			continue;
		if ((r = refuse_path(c->path, s->stage != 0, s->mode == 0160000)))
			break;
		c->mode = s->mode;
		memcpy(c->oid, s->oid, strlen(s->oid) + 1);
		c->have_object = have_objects;
	}
	free(l);
	return r;
}

/* Stages and reads back: every change gets git's mode and id. */
static int stage_changes(struct changes *cs, const char *index,
			 const char *const *objenv, int write_objects)
{
	struct sbuf out = SBUF_INIT;
	int r = stage_index(cs, index, objenv, write_objects);

	if (!r)
		r = list_index(index, &out);
	if (!r)
		r = apply_listing(cs, &out, write_objects);
	for (size_t i = 0; !r && i < cs->nr; i++)
		cs->c[i].wt_mode = cs->c[i].mode;
	sb_release(&out);
	return r;
}

/*
 * Drops what changes nothing: paths staged as HEAD has them, then entries
 * left with no path, then groups left with no entry.  Group numbers in the
 * changes follow; they stay sorted by (group, path).
 */
static void prune_plan(struct plan *p, struct changes *cs, size_t nfiles)
{
	char *live = xcalloc(nfiles + 1, 1);
	size_t *renum = xcalloc(p->nr, sizeof *renum);
	size_t k = 0, ng = 0;

	for (size_t i = 0; i < cs->nr; i++)
		if (!change_is_noop(&cs->c[i])) {
			live[cs->c[i].file] = 1;
			cs->c[k++] = cs->c[i];
		}
	cs->nr = k;
	for (size_t g = 0; g < p->nr; g++) {
		struct group *grp = &p->g[g];
		size_t m = 0;
		for (size_t j = 0; j < grp->nr; j++)
			if (live[grp->member[j]])
				grp->member[m++] = grp->member[j];
		grp->nr = m;
		if (!m) {
			group_release(grp);
			continue;
		}
		renum[g] = ng;
		p->g[ng++] = *grp;
	}
	p->nr = ng;
	for (size_t i = 0; i < cs->nr; i++)
		cs->c[i].group = renum[cs->c[i].group];
	free(live);
	free(renum);
}

/* The change of path among c[0..n), sorted by path, or NULL. */
static const struct change *find_change(const struct change *c, size_t n,
					const char *path)
{
	size_t lo = 0, hi = n;

	BSEARCH(lo, hi, mid, strcmp(c[mid].path, path) < 0);
	return lo < n && !strcmp(c[lo].path, path) ? &c[lo] : NULL;
}

/* What a group commits for one entry, as a letter for people: from HEAD's
 * mode and the staged one where the entry's path was staged. */
static char entry_letter(const struct entry *e, const struct change *c)
{
	if (e->kind == E_RENAMED)
		return e->x == 'C' ? 'C' : 'R';
	unsigned head = c ? c->head_mode : e->mode_head;
	unsigned now = c ? c->mode : (e->kind == E_UNTRACKED ? 0100644 : e->mode_wt);
	if (!now)
		return 'D';
	if (!head)
		return 'A';
	if ((head & 0170000) != (now & 0170000))
		return 'T';
	return 'M';
}

/* The letters of the work tree's files once staged: from HEAD's mode and
 * the staged one.  Malloc'd, one per entry. */
static char *staged_letters(const struct plan *p, const struct source *src,
			    const struct changes *cs)
{
	char *letter = xcalloc(src->nr + 1, 1);
	size_t lo = 0;

	for (size_t i = 0; i < p->nr; i++) {
		size_t hi = lo;
		while (hi < cs->nr && cs->c[hi].group == i)
			hi++;
		for (size_t j = 0; j < p->g[i].nr; j++) {
			const struct entry *e = src->f[p->g[i].member[j]].entry;
			letter[p->g[i].member[j]] = entry_letter(e,
				find_change(cs->c + lo, hi - lo, e->path));
		}
		lo = hi;
	}
	return letter;
}

/* A buffered stream into a child's stdin; the first failure sticks. */
struct stream {
	int fd;
	int failed;
	struct sbuf buf;
};

static void stream_flush(struct stream *s)
{
	if (!s->failed && write_all(s->fd, s->buf.buf, s->buf.len) < 0)
		s->failed = errno;
	sb_setlen(&s->buf, 0);
}

static void stream_room(struct stream *s)
{
	if (s->buf.len >= 1 << 16)
		stream_flush(s);
}

static void stream_data(struct stream *s, const char *data, size_t len)
{
	sb_addf(&s->buf, "data %zu\n", len);
	sb_add(&s->buf, data, len);
	sb_addc(&s->buf, '\n');
	stream_room(s);
}

/*
 * Streams "blob", its mark and the work tree's bytes of path: a symbolic
 * link's target, or a regular file's contents (also for mode 120000 where
 * core.symlinks=false keeps links as plain files).  Whether git would have
 * stored these bytes is checked against the staged id afterwards.
 */
static int stream_blob(struct stream *s, const char *path, unsigned mode,
		       size_t mark)
{
	struct stat sb;
	char link[PATH_MAX + 1];

	if (lstat(path, &sb) < 0)
		return error_on(path);
	if ((S_ISLNK(sb.st_mode) && mode != 0120000) ||
	    (!S_ISLNK(sb.st_mode) && !S_ISREG(sb.st_mode)))
		return error("%s: changed type while series ran", path);
	sb_addf(&s->buf, "blob\nmark :%zu\n", mark);
	if (S_ISLNK(sb.st_mode)) {
		ssize_t n = readlink(path, link, sizeof link);
		if (n < 0)
			return error_on(path);
		if ((size_t)n >= sizeof link)
			return error("%s: symbolic link target too long", path);
		stream_data(s, link, (size_t)n);
		return 0;
	}
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return error_on(path);
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return error("%s: changed type while series ran", path);
	}
	size_t left = (size_t)sb.st_size;
	sb_addf(&s->buf, "data %zu\n", left);
	for (;;) {
		sb_grow(&s->buf, 65536);
		size_t want = left < 65536 ? left : 65536;
		ssize_t n = read(fd, s->buf.buf + s->buf.len, want ? want : 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			close(fd);
			return error("%s: %s", path, strerror(saved));
		}
		if ((size_t)n > left || (!n && left)) {
			close(fd);
			return error("%s: changed size while series ran", path);
		}
		if (!n)
			break;
		sb_setlen(&s->buf, s->buf.len + (size_t)n);
		left -= (size_t)n;
		stream_room(s);
	}
	close(fd);
	sb_addc(&s->buf, '\n');
	stream_room(s);
	return 0;
}

/*
 * One group's commit: the blobs git has not stored yet, then the commit
 * with its deletions first (so "a" can become "a/b") and its files by
 * mode and id or mark.  c[0..n) are the group's changes.
 */
static int stream_group(struct stream *s, struct change *c, size_t n,
			size_t mark, size_t *next_blob, const char *author,
			const char *committer, const struct sbuf *msg)
{
	for (size_t j = 0; j < n; j++) {
		if (!c[j].wt_mode || c[j].have_object)
			continue;
		c[j].mark = (*next_blob)++;
		if (stream_blob(s, c[j].path, c[j].wt_mode, c[j].mark) < 0)
			return -1;
	}
	sb_addf(&s->buf, "commit refs/series/import\nmark :%zu\n"
		"author %s\ncommitter %s\n", mark, author, committer);
	stream_data(s, msg->buf, msg->len);
	for (size_t j = 0; j < n; j++)
		if (!c[j].wt_mode) {
			sb_adds(&s->buf, "D ");
			sb_quote_c(&s->buf, c[j].path, strlen(c[j].path), 1);
			sb_addc(&s->buf, '\n');
		}
	for (size_t j = 0; j < n; j++) {
		if (!c[j].wt_mode)
			continue;
		if (c[j].have_object)
			sb_addf(&s->buf, "M %o %s ", c[j].wt_mode, c[j].oid);
		else
			sb_addf(&s->buf, "M %o :%zu ", c[j].wt_mode, c[j].mark);
		sb_quote_c(&s->buf, c[j].path, strlen(c[j].path), 1);
		sb_addc(&s->buf, '\n');
		stream_room(s);
	}
	return 0;
}

/*
 * The mode a path is streamed with before git has staged it: what status
 * saw (git's own mode rule) for a tracked path, the file's for a new one.
 * The staged mode is checked against it afterwards.
 */
static unsigned guess_mode(const struct change *c)
{
	const struct entry *e = c->e;
	struct stat sb;

	if (!c->take || strcmp(c->path, e->path))
		return 0;
	if (e->kind != E_UNTRACKED)
		return e->mode_wt;
	if (lstat(c->path, &sb) < 0)
		return 0;
	if (S_ISLNK(sb.st_mode))
		return 0120000;
	return S_ISREG(sb.st_mode) ? (sb.st_mode & S_IXUSR ? 0100755 : 0100644) : 0;
}

/*
 * Whether a change may turn out to be none, so that only staging can tell
 * whether its group makes a commit: both the index and the work tree differ
 * from what came before (a staged change put back), or HEAD's state came
 * from another entry (an untracked file where a deleted one was).
 */
static int may_be_noop(const struct change *c)
{
	const struct entry *e = c->e;

	if (!c->take || !c->head_mode)
		return 0;
	if (e->kind != E_CHANGED)
		return 1;
	return e->x != '.' && e->y != '.';
}

/* What status says of a change, where that is all there is to know:
 * returns 1 with c->mode (and c->oid where the index holds the content),
 * or 0 where only staging tells (both sides changed, renames, untracked,
 * intent-to-add, a path two entries name). */
static int status_decides(struct change *c, const struct entry *e)
{
	if (c->shared || e->kind != E_CHANGED || strcmp(c->path, e->path))
		return 0;
	if (e->y == '.') {      /* the work tree is the index */
		c->mode = e->mode_index;
		memcpy(c->oid, e->oid_index, sizeof c->oid);
		return 1;
	}
	if (e->x != '.' || !strchr("MTD", e->y))
		return 0;
	/* The index is HEAD's, and git found the work tree's cleaned bytes
	 * or mode other than the index's: a change, whose id only hashing
	 * would give, and nothing here needs it. */
	c->mode = e->y == 'D' ? 0 : e->mode_wt;
	*c->oid = '\0';
	return 1;
}

/*
 * The plan as git would commit it, then what changes nothing dropped.  What
 * status decides is taken from it; the rest is staged into a copy of the
 * index (only hashed, nothing written), so that a tree-wide edit of the work
 * tree costs no hashing at all.  Returns 0, or -1 after an error.
 */
static int settle_plan(struct plan *p, const struct source *src,
		       struct changes *cs, const char *index)
{
	char *tmp = NULL;
	int r = 0;

	collect_changes(cs, p, src);
	struct changes rest = { xcalloc(cs->nr + 1, sizeof *rest.c), 0 };
	size_t *at = xcalloc(cs->nr + 1, sizeof *at);
	for (size_t i = 0; i < cs->nr; i++)
		if (!status_decides(&cs->c[i], cs->c[i].e)) {
			at[rest.nr] = i;
			rest.c[rest.nr++] = cs->c[i];
		}
	if (rest.nr)
		r = copy_index(index, tmp_dir(), &tmp);
	if (!r && rest.nr)
		r = stage_changes(&rest, tmp, NULL, 0);
	for (size_t j = 0; !r && j < rest.nr; j++)
		cs->c[at[j]] = rest.c[j];
	if (!r)
		prune_plan(p, cs, src->nr);
	remove_temp(&tmp);
	free(rest.c);
	free(at);
	return r;
}

/* series commit's run of the transaction: the plan and the work tree it
 * commits, the changes git staged and each group's message; the
 * commit-msg hook's file while it exists; fast-import's pid, for its
 * crash report.  The core (t, the caller's) holds the index lock and the
 * index copy. */
struct import {
	struct txn *t;
	struct plan *plan;
	const struct source *src;   /* the work tree, its files' entries */
	struct changes *cs;
	const struct template *tmpl;
	int no_verify;
	struct sbuf *msg;
	char *msg_file;
	pid_t importer;
};

/* txn_abort(), and what only series commit leaves: the hook's file,
 * fast-import's crash report. */
static void import_abort(struct import *im)
{
	remove_temp(&im->msg_file);
	if (im->importer > 0) {
		struct sbuf crash = SBUF_INIT;
		sb_addf(&crash, "%s/fast_import_crash_%ld", im->t->repo->gitdir,
			(long)im->importer);
		unlink(crash.buf);
		sb_release(&crash);
	}
	txn_abort(im->t);
}

static void import_release(struct import *im)
{
	import_abort(im);
	sbufs_free(im->msg, im->msg ? im->plan->nr : 0);
	im->msg = NULL;
}

/* A program of the user's (a hook, respin's pattern) in dir, with env,
 * its stdout sent to stderr (ours is the report), and meanwhile(arg)
 * while it runs, where given (its failure, -1 after error(), stops the
 * program): the program's exit status (127: it could not run), or -1
 * after error(). */
static int run_program(const char *const *argv, const char *const *env,
		       const char *dir, int (*meanwhile)(void *), void *arg)
{
	int out = dup(2), r = 0;
	struct child c = { .argv = argv, .env = env, .dir = dir,
			   .in = CHILD_NULL, .out = out > 2 ? out : CHILD_INHERIT,
			   .err = CHILD_INHERIT };
	int st = child_start(&c) < 0 ? -1 : 0;

	if (!st && meanwhile && (r = meanwhile(arg)) < 0)
		kill(c.pid, SIGTERM);
	if (!st)
		st = child_finish(&c);
	if (out >= 0)
		close(out);
	return r < 0 ? -1 : st;
}

/* Runs a hook as git does: from the top of the work tree, with env.
 * Returns 0, or error() naming it. */
static int run_hook(const char *name, const char *path, const char *arg,
		    const char *const *env, const char *top)
{
	const char *argv[] = { path, arg, NULL };
	int st = run_program(argv, env, top, NULL, NULL);

	if (st <= 0)
		return st;
	if (stop_signal)
		return error("%s hook: interrupted by signal %d", name,
			     (int)stop_signal);
	if (st == 127)
		return error("%s hook: could not run %s", name, path);
	return error("%s hook failed (exit %d); nothing was committed", name, st);
}

/* Whether the hook at path would run: git runs executable files only. */
static int hook_exists(const char *path)
{
	struct stat sb;

	return path && !stat(path, &sb) && S_ISREG(sb.st_mode) &&
	       !access(path, X_OK);
}

/* Every group's message: the template's (its subjects checked), then the
 * commit-msg hook on it (it may edit it), then git's clean-up. */
static int make_messages(struct import *im)
{
	struct txn *t = im->t;
	int hook = !im->no_verify && hook_exists(t->repo->hook_commit_msg);
	struct sbuf ienv = SBUF_INIT;
	int r = 0;

	im->msg = group_messages(im->plan, im->tmpl);
	warn_messages(im->msg, im->plan->nr, im->tmpl);
	sb_addf(&ienv, "GIT_INDEX_FILE=%s", t->tmp_index);
	const char *env[] = { ienv.buf, "GIT_EDITOR=:", NULL };
	for (size_t i = 0; i < im->plan->nr && !r; i++) {
		struct sbuf *m = &im->msg[i];
		if (!hook)
			continue;
		if (!im->msg_file) {
			struct sbuf path = SBUF_INIT;
			int fd = temp_file(&path, t->repo->gitdir, "msg", 1);
			if (fd < 0) {
				r = error_on(path.buf);
				sb_release(&path);
				break;
			}
			close(fd);
			im->msg_file = sb_detach(&path, NULL);
			temp_hold(im->msg_file);
		}
		int fd = open(im->msg_file, O_WRONLY | O_TRUNC);
		if (fd < 0 || write_all(fd, m->buf, m->len) < 0 || close(fd) < 0) {
			r = error_on(im->msg_file);
			break;
		}
		if ((r = run_hook("commit-msg", t->repo->hook_commit_msg,
				  im->msg_file, env, t->repo->top)) < 0)
			break;
		sb_setlen(m, 0);
		if (sb_read_file(m, im->msg_file) < 0)
			r = error_on(im->msg_file);
		cleanup_message(m);
		if (!r && !m->len)
			r = error("commit-msg hook emptied the message of %s; "
				  "nothing was committed", im->plan->g[i].name);
	}
	remove_temp(&im->msg_file);
	sb_release(&ienv);
	return r;
}

/* The marks fast-import exported (":N ID" lines) into ids[1..n]. */
static int read_marks(const char *path, char (*ids)[65], size_t n)
{
	struct sbuf text = SBUF_INIT;
	int r = 0;

	if (sb_read_file(&text, path) < 0) {
		int saved = errno;
		sb_release(&text);
		return error("git fast-import: %s: %s", path, strerror(saved));
	}
	/* Grammar: ":MARK SP OID LF" a line. */
	const char *pos = text.buf, *end = text.buf + text.len;
	for (struct span l; !r && next_line(&pos, end, &l);) {
		const char *sp = memchr(l.p, ' ', l.len);
		char *num_end = NULL;
		unsigned long long m = sp && *l.p == ':' ?
			scan_number(l.p + 1, &num_end, 10) : 0;
		size_t ol = sp ? (size_t)(l.p + l.len - sp - 1) : 0;
		if (!m || num_end != sp || m > n || !is_oid(sp + 1, ol))
			r = error("git fast-import: unexpected marks file");
		else {
			memcpy(ids[m], sp + 1, ol);
			ids[m][ol] = '\0';
		}
	}
	sb_release(&text);
	return r;
}

/* One git fast-import run into the transaction's quarantine, for commit,
 * regroup and respin alike: the import ref reset to from ("": none, a
 * root commit), the caller streams its commits into s, and the marks it
 * exported give their ids.  unpackLimit=0: always a pack, which the
 * quarantine moves whole. */
struct fast_import {
	struct sbuf marks, export;
	const char *words[8], *env[3];
	struct git_run g;
	struct stream s;
};

/* Starts fi; 0, or -1 after error() with nothing to finish. */
static int fast_import_start(struct fast_import *fi, const struct txn *t,
			     const char *from)
{
	memset(fi, 0, sizeof *fi);
	fi->marks = fi->export = fi->s.buf = (struct sbuf)SBUF_INIT;
	sb_addf(&fi->marks, "%s/marks", t->quarantine);
	sb_addf(&fi->export, "--export-marks=%s", fi->marks.buf);
	const char *w[] = { "-c", "fastimport.unpackLimit=0", "fast-import",
			    "--quiet", "--done", "--date-format=raw",
			    fi->export.buf, NULL };
	memcpy(fi->words, w, sizeof w);
	fi->env[0] = t->env_obj.buf;
	fi->env[1] = t->env_alt.buf;
	fi->g = (struct git_run){ .words = fi->words, .env = fi->env, .feed = 1 };
	if (git_start(&fi->g) < 0) {
		sb_release(&fi->marks);
		sb_release(&fi->export);
		return -1;
	}
	fi->s.fd = fi->g.child.in;
	sb_adds(&fi->s.buf, "feature done\nreset refs/series/import\n");
	if (*from)
		sb_addf(&fi->s.buf, "from %s\n", from);
	return 0;
}

/* Ends fi: "done" after the caller's success r (0), else a close without
 * it, which makes fast-import abort; then the ids of marks 1..n into ids,
 * mark tip the last commit.  Returns r, or -1 after error(). */
static int fast_import_finish(struct fast_import *fi, int r, char (*ids)[65],
			      size_t n, size_t tip)
{
	progress_end();
	if (!r) {
		sb_adds(&fi->s.buf, "reset refs/series/import\ndone\n");
		stream_flush(&fi->s);
	}
	close(fi->g.child.in);
	int st = git_finish(&fi->g);
	if (!r && st)
		r = git_failed("git fast-import", st);
	else if (!r && fi->s.failed)
		r = error("git fast-import: %s", strerror(fi->s.failed));
	if (!r)
		r = read_marks(fi->marks.buf, ids, n);
	if (!r && !*ids[tip])
		r = error("git fast-import: unexpected marks file");
	unlink(fi->marks.buf);
	sb_release(&fi->s.buf);
	sb_release(&fi->marks);
	sb_release(&fi->export);
	return r;
}

/*
 * One run of fast-import over every group.  Writes objects and no ref:
 * its branch is reset at the end without a value; the marks file gives the
 * tip and each inline blob's id (wt_oid).
 */
static int import_once(struct import *im)
{
	struct txn *t = im->t;
	struct fast_import fi;
	size_t ng = im->plan->nr, next_blob = ng + 1;
	int r = 0;

	if (fast_import_start(&fi, t, t->repo->old) < 0)
		return -1;
	im->importer = fi.g.child.pid;
	t->files = 0;
	for (size_t i = 0, lo = 0; i < ng && !r && !fi.s.failed; i++) {
		const struct group *g = &im->plan->g[i];
		size_t hi = lo;
		while (hi < im->cs->nr && im->cs->c[hi].group == i)
			hi++;
		progress(i + 1, ng, g->name);
		r = stream_group(&fi.s, im->cs->c + lo, hi - lo, i + 1, &next_blob,
				 t->author, t->committer, &im->msg[i]);
		t->files += g->nr;
		lo = hi;
		if (!r)
			r = check_stop("git fast-import");
	}
	char (*ids)[65] = xcalloc(next_blob, sizeof *ids);
	r = fast_import_finish(&fi, r, ids, next_blob - 1, ng);
	if (!r)
		memcpy(t->tip, ids[ng], sizeof ids[ng]);
	for (size_t i = 0; !r && i < im->cs->nr; i++) {
		struct change *ch = &im->cs->c[i];
		if (!ch->wt_mode)
			*ch->wt_oid = '\0';
		else
			memcpy(ch->wt_oid, ch->have_object ? ch->oid : ids[ch->mark],
			       sizeof ch->wt_oid);
	}
	free(ids);
	return r;
}

/*
 * The blobs of the paths whose work-tree bytes are not what git stores,
 * written by git itself (hash-object applies the same conversion as the
 * update-index that staged them) into the quarantine, whose pack of the
 * first run is dropped.  An id that still differs is a file changed while
 * series ran.
 */
static int store_converted(struct import *im)
{
	struct txn *t = im->t;
	static const char *const words[] = { "hash-object", "-w",
					     "--stdin-paths", NULL };
	const char *env[] = { t->env_obj.buf, t->env_alt.buf, NULL };
	struct sbuf in = SBUF_INIT, out = SBUF_INIT, pack = SBUF_INIT;
	int r;

	sb_addf(&pack, "%s/pack", t->quarantine);
	remove_tree(pack.buf, 0);
	if (mkdir(pack.buf, 0777) < 0) {
		r = error_on(pack.buf);
		sb_release(&pack);
		return r;
	}
	for (size_t i = 0; i < im->cs->nr; i++)
		if (im->cs->c[i].convert) {
			const char *p = im->cs->c[i].path;
			sb_quote_c(&in, p, strlen(p), 0);
			sb_addc(&in, '\n');
		}
	r = git_ok("git hash-object", &(struct git_run){ .words = words,
		   .env = env, .input = in.buf, .inlen = in.len, .out = &out });
	const char *pos = out.buf, *end = out.buf + out.len;
	for (size_t i = 0; !r && i < im->cs->nr; i++) {
		struct change *c = &im->cs->c[i];
		struct span l;
		if (!c->convert)
			continue;
		if (!next_line(&pos, end, &l))
			r = error("git hash-object: unexpected answer");
		else if (l.len != strlen(c->oid) || memcmp(l.p, c->oid, l.len))
			r = error("%s: changed while series ran", c->path);
		else
			c->have_object = 1;
	}
	sb_release(&in);
	sb_release(&out);
	sb_release(&pack);
	return r;
}

/*
 * What was imported against what git staged: a blob whose id is not the
 * staged one holds bytes git converts (clean filter, autocrlf, eol,
 * working-tree-encoding), a mode that differs is one git chose otherwise
 * (core.fileMode=false).  Each is set to git's answer for the next import;
 * returns how many there were.
 */
static size_t mismatches(struct changes *cs)
{
	size_t n = 0;

	for (size_t i = 0; i < cs->nr; i++) {
		struct change *c = &cs->c[i];
		if (c->wt_mode == c->mode &&
		    (!c->mode || !strcmp(c->wt_oid, c->oid)))
			continue;
		n++;
		c->wt_mode = c->mode;
		if (c->mode && !c->have_object && strcmp(c->wt_oid, c->oid))
			c->convert = 1;
	}
	return n;
}

/* The import again where it did not store what git staged: git's own
 * blobs for converted files, git's modes; a second miss is an error. */
static int import_again(struct import *im)
{
	int r;

	if (!mismatches(im->cs))
		return 0;
	if ((r = store_converted(im)) < 0 || (r = import_once(im)) < 0)
		return r;
	return mismatches(im->cs) ? error("git fast-import: blobs differ from "
					 "the staged ones") : 0;
}

/* The staging that runs beside fast-import: stage_index(), then the
 * listing on its stdout (a file in the quarantine). */
struct stage_job {
	const struct changes *cs;
	const char *index;
};

static int run_stage_job(void *arg)
{
	const struct stage_job *j = arg;
	struct sbuf out = SBUF_INIT;
	int r = stage_index(j->cs, j->index, NULL, 0) < 0 ||
		list_index(j->index, &out) < 0;

	if (!r && write_all(1, out.buf, out.len) < 0)
		r = error("staging: %s", strerror(errno)) < 0;
	sb_release(&out);
	return r;
}

/*
 * Starts the staging job: its listing goes to <quarantine>/listing, its
 * messages to <quarantine>/stage-err, shown only if the job fails by
 * itself (not when the run stops it because something else failed).
 */
static int start_stage_job(struct import *im, struct child *job,
			   struct stage_job *j)
{
	struct txn *t = im->t;
	int out = quarantine_file(t, "listing"), err = -1, r = -1;

	if (out > 2 && (err = quarantine_file(t, "stage-err")) > 2) {
		j->cs = im->cs;
		j->index = t->tmp_index;
		*job = (struct child){ .fn = run_stage_job, .arg = j,
				       .in = CHILD_NULL, .out = out, .err = err };
		r = child_start(job);
	} else if (out >= 0 && out <= 2) {
		r = error("staging: no descriptor");
	}
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return r;
}

/* Waits for the staging job and takes its listing, or shows its messages. */
static int finish_stage_job(struct import *im, struct child *job)
{
	struct txn *t = im->t;
	struct sbuf text = SBUF_INIT;
	int st = child_finish(job), r;

	job->pid = 0;
	if (st) {
		if (!read_quarantine_file(t, "stage-err", &text))
			put_out(2, text.buf, text.len);
		/* the job's own line (a failing git, or its death for want
		 * of memory) is the reason; a job killed says nothing */
		r = text.len ? -1 : git_failed("staging", st);
	} else if (!(r = read_quarantine_file(t, "listing", &text))) {
		r = apply_listing(im->cs, &text, 0);
	}
	sb_release(&text);
	return r;
}

/* The pre-commit hook on the run's index (GIT_INDEX_FILE), as git commit
 * runs it: 0, or -1 after error() where it refused. */
static int run_pre_commit(const struct txn *t)
{
	struct sbuf ienv = SBUF_INIT;

	sb_addf(&ienv, "GIT_INDEX_FILE=%s", t->tmp_index);
	const char *env[] = { ienv.buf, t->env_obj.buf, t->env_alt.buf,
			      "GIT_EDITOR=:", NULL };
	int r = run_hook("pre-commit", t->repo->hook_pre_commit, NULL, env,
			 t->repo->top);
	sb_release(&ienv);
	return r;
}

/* After the commits landed: the run's index copy (ours, the lock held)
 * becomes the repository's.  0, or -1 after error() saying what to run. */
static int index_in_place(struct txn *t)
{
	temp_drop(t->tmp_index);
	if (rename(t->tmp_index, t->repo->index) < 0)
		return error("%s: %s; the commits are made, but the index still "
			     "shows their changes as staged (run `git reset -q`)",
			     t->repo->index, strerror(errno));
	free(t->tmp_index);
	t->tmp_index = NULL;
	return 0;
}

/*
 * The transaction.  Returns 0 when committed, 1 when staging showed that
 * nothing changes (nothing was done), -1 after an error (nothing was done).
 *
 * Where staging decides the plan (a change may be none) or a pre-commit
 * hook reads the staged index, git stages first and fast-import then takes
 * git's ids and modes.  Otherwise, the common case, git stages while
 * fast-import runs on the work tree's bytes and status's modes, and what
 * was imported is checked against what git staged afterwards; where they
 * differ, the import runs again with git's answers (import_again).
 */
static int commit_series(struct import *im)
{
	struct txn *t = im->t;
	int pre_commit = !im->no_verify && hook_exists(t->repo->hook_pre_commit);
	struct child job = { 0 };
	struct stage_job sj;
	int r, first = pre_commit;

	if ((r = take_index_lock(t)) < 0)
		return r;
	if ((r = copy_index(t->repo->index, t->repo->gitdir, &t->tmp_index)) < 0 ||
	    (r = txn_begin(t, t->repo, 1)) < 0)
		goto fail;
	collect_changes(im->cs, im->plan, im->src);
	for (size_t i = 0; i < im->cs->nr; i++)
		first |= may_be_noop(&im->cs->c[i]);
	const char *objenv[] = { t->env_obj.buf, t->env_alt.buf, NULL };
	if (first) {
		/* A pre-commit hook reads the staged blobs: git writes them. */
		if ((r = stage_changes(im->cs, t->tmp_index, objenv, pre_commit)) < 0)
			goto fail;
		prune_plan(im->plan, im->cs, im->src->nr);
		if (!im->plan->nr) {
			r = 1;
			goto fail;
		}
	} else {
		for (size_t i = 0; i < im->cs->nr; i++)
			im->cs->c[i].wt_mode = guess_mode(&im->cs->c[i]);
		if ((r = start_stage_job(im, &job, &sj)) < 0)
			goto fail;
	}
	if ((pre_commit && (r = run_pre_commit(t)) < 0) ||
	    (r = check_stop("commit-msg hook")) < 0 ||
	    (r = make_messages(im)) < 0 || (r = import_once(im)) < 0)
		goto fail;
	if (job.pid && (r = finish_stage_job(im, &job)) < 0)
		goto fail;
	if ((r = import_again(im)) < 0 ||
	    (r = txn_land(t, t->tip, im->plan->nr)) < 0)
		goto fail;
	r = index_in_place(t);
	import_abort(im);
	return r;
fail:
	if (job.pid) {
		kill(job.pid, SIGTERM);
		child_finish(&job);
	}
	import_abort(im);
	return r;
}

/* ---- apply: groups of diff text -------------------------------------------
 * The changes that come as diff text (split --commit): an index of
 * the run's own starts at the base's tree; each group's diffs go through
 * `git apply --cached` into it, `git write-tree` and txn_commit_tree() make
 * the group's commit on the previous one, all into the quarantine; then
 * txn_land().  The user's index and work tree are never written.
 */

static int apply_group_part(struct txn *t, const char *text, size_t len,
			    int strip, const char *directory,
			    const char *const *env)
{
	struct sbuf p = SBUF_INIT, dir = SBUF_INIT;
	const char *words[8];
	size_t n = 0;

	sb_addf(&p, "-p%d", strip);
	words[n++] = "apply";
	words[n++] = "--cached";
	words[n++] = "--whitespace=nowarn";
	words[n++] = p.buf;
	if (directory && *directory) {
		sb_addf(&dir, "--directory=%s", directory);
		words[n++] = dir.buf;
	}
	words[n] = NULL;
	int r = git_ok("git apply", &(struct git_run){
		.words = words, .env = env, .dir = t->repo->top,
		.input = text, .inlen = len });
	sb_release(&p);
	sb_release(&dir);
	return r;
}

/* Applies group g to the index env names: traditional files (their headers
 * rewritten where need be) with -p1, git's with their own -p and
 * --directory. */
static int apply_group(struct txn *t, const struct source *src,
		       const struct group *g, const char *directory,
		       const char *const *env)
{
	struct sbuf text = SBUF_INIT;
	int r = 0;

	for (size_t i = 0; i < g->nr; i++) {
		const struct sfile *f = &src->f[g->member[i]];
		if (!f->git)
			add_file_diff(&text, src, f);
	}
	if (text.len)
		r = apply_group_part(t, text.buf, text.len, 1, NULL, env);
	for (int strip = 0; !r && strip < 64; strip++) {
		sb_setlen(&text, 0);
		for (size_t i = 0; i < g->nr; i++) {
			const struct sfile *f = &src->f[g->member[i]];
			if (f->git && f->strip == strip)
				add_file_diff(&text, src, f);
		}
		if (text.len)
			r = apply_group_part(t, text.buf, text.len, strip,
					     directory, env);
	}
	sb_release(&text);
	return r;
}

/*
 * The third way to lay a plan's groups as commits, for regroup: every file
 * already has its final state in a commit (the range's tip), so no diff is
 * applied; one fast-import stream sets each group's paths to the tip's
 * mode and blob (or deletes them) on the commit before, and its cost
 * follows the changed files, not the size of the tree.
 */

/* A path the range changes, as its tip has it (mode 0: gone). */
struct tip_file {
	char *path;
	unsigned mode;
	char oid[65];
};

static int cmp_tip_file(const void *a, const void *b)
{
	return strcmp(((const struct tip_file *)a)->path,
		      ((const struct tip_file *)b)->path);
}

/* Every path base..tip changes, sorted, from one `git diff-tree -r -z
 * --no-renames --raw`.  Its grammar, a record each:
 *   ":" OLDMODE SP NEWMODE SP OLDOID SP NEWOID SP STATUS NUL PATH NUL */
static int tip_files(const char *base, const char *tip, struct tip_file **v,
		     size_t *n)
{
	const char *words[] = { "diff-tree", "-r", "-z", "--no-renames", "--raw",
				"--ignore-submodules=none", base, tip, "--", NULL };
	struct sbuf out = SBUF_INIT;
	size_t a = 0;
	int r = git_ok("git diff-tree", &(struct git_run){ .words = words,
							   .out = &out });

	*v = NULL;
	*n = 0;
	for (const char *p = out.buf, *end = p + out.len; !r && p < end;) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		const char *path = nul ? nul + 1 : end;
		const char *pend = path < end ?
			memchr(path, '\0', (size_t)(end - path)) : NULL;
		char *me = NULL;
		const char *f[5];
		size_t nf = 0;
		for (const char *q = p; nul && q < nul && nf < 5; q++)
			if (q == p || q[-1] == ' ')
				f[nf++] = q;
		if (*p != ':' || nf != 5 || !pend || f[4] - f[3] - 1 > 64) {
			r = error("git diff-tree: unexpected output at byte %zu",
				  (size_t)(p - out.buf));
			break;
		}
		GROW(*v, *n + 1, a);
		struct tip_file *t = &(*v)[(*n)++];
		t->path = xstrndup(path, (size_t)(pend - path));
		t->mode = (unsigned)scan_number(f[1], &me, 8);
		memcpy(t->oid, f[3], (size_t)(f[4] - f[3] - 1));
		t->oid[f[4] - f[3] - 1] = '\0';
		p = pend + 1;
	}
	sb_release(&out);
	sort_n(*v, *n, sizeof **v, cmp_tip_file);
	return r;
}

static void tip_files_free(struct tip_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* One path of a group as the tip has it: "M MODE OID PATH" or "D PATH"
 * (a path the tip does not change is as the base had it: nothing). */
static void stream_taken_path(struct stream *s, const struct tip_file *v,
			      size_t n, const char *path)
{
	struct tip_file key = { (char *)path, 0, "" };
	const struct tip_file *t = bsearch(&key, v, n, sizeof *v, cmp_tip_file);

	if (!t)
		return;
	if (t->mode)
		sb_addf(&s->buf, "M %o %s ", t->mode, t->oid);
	else
		sb_adds(&s->buf, "D ");
	sb_quote_c(&s->buf, path, strlen(path), 1);
	sb_addc(&s->buf, '\n');
	stream_room(s);
}

/* Group g's commit (mark :mark): its deletions first (so "a" can become
 * "a/b"), then its files; a rename's old path goes with it. */
static void stream_taken(struct stream *s, const struct group *g,
			 const struct source *src, const struct tip_file *v,
			 size_t n, size_t mark, const char *author,
			 const char *committer, const struct sbuf *msg)
{
	sb_addf(&s->buf, "commit refs/series/import\nmark :%zu\n"
		"author %s\ncommitter %s\n", mark, author, committer);
	stream_data(s, msg->buf, msg->len);
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < g->nr; j++) {
			const struct sfile *f = &src->f[g->member[j]];
			if (!pass && f->orig)
				stream_taken_path(s, v, n, f->orig);
			if (!pass == !f->new_mode)
				stream_taken_path(s, v, n, f->path);
		}
}

/* One fast-import run of the plan's groups on base (see stream_taken),
 * into the quarantine; ids[1..p->nr] get the commits.  0, or -1 after
 * error(). */
static int import_taken(struct txn *t, const struct plan *p,
			const struct source *src, const struct sbuf *msgs,
			const char *base, const struct tip_file *v, size_t nv,
			char *const *author, char (*ids)[65])
{
	struct fast_import fi;
	int r = 0;

	if (fast_import_start(&fi, t, base) < 0)
		return -1;
	for (size_t i = 0; i < p->nr && !r && !fi.s.failed; i++) {
		progress(i + 1, p->nr, p->g[i].name);
		stream_taken(&fi.s, &p->g[i], src, v, nv, i + 1, author && author[i] ?
			     author[i] : t->author, t->committer, &msgs[i]);
		t->files += p->g[i].nr;
		r = check_stop("git fast-import");
	}
	return fast_import_finish(&fi, r, ids, p->nr, p->nr);
}

/* The plan's groups as commits on base whose files take tip's state, each
 * with msgs[i] and by author[i] (NULL: the run's); the last commit's tree
 * must be want_tree, checked before the commit point.  0, or -1 after
 * error(), nothing changed. */
static int take_series(struct txn *t, const struct plan *p,
		       const struct source *src, const struct sbuf *msgs,
		       const char *base, const char *tip, const char *want_tree,
		       char *const *author)
{
	struct sbuf spec = SBUF_INIT, tree = SBUF_INIT;
	struct tip_file *v = NULL;
	size_t nv = 0;
	char (*ids)[65] = xcalloc(p->nr + 1, sizeof *ids);
	int r;

	if (!(r = txn_begin(t, t->repo, 1)) && !(r = tip_files(base, tip, &v, &nv)) &&
	    !(r = import_taken(t, p, src, msgs, base, v, nv, author, ids))) {
		const char *env[] = { t->env_obj.buf, t->env_alt.buf, NULL };
		sb_addf(&spec, "%s^{tree}", ids[p->nr]);
		const char *words[] = { "rev-parse", "--verify", spec.buf, NULL };
		r = git_ok("git rev-parse", &(struct git_run){ .words = words,
				.env = env, .out = &tree });
		chomp(&tree);
		if (!r && want_tree && strcmp(tree.buf, want_tree))
			r = error("git fast-import: the last commit's tree %.12s "
				  "is not %.12s; nothing was changed", tree.buf,
				  want_tree);
		if (!r)
			r = txn_land(t, ids[p->nr], p->nr);
	}
	txn_abort(t);
	tip_files_free(v, nv);
	free(ids);
	sb_release(&spec);
	sb_release(&tree);
	return r;
}

/* The plan's groups of src (a diff) as commits on HEAD, each with its
 * message, the diffs applied under directory (NULL: none, as git apply
 * --directory).  0, or -1 after error(), nothing changed. */
static int apply_series(struct txn *t, const struct plan *p,
			const struct source *src, const struct sbuf *msgs,
			const char *directory)
{
	struct sbuf ienv = SBUF_INIT;
	char tree[72], parent[72];
	int r;

	if ((r = txn_begin(t, t->repo, 1)) < 0)
		goto out;
	const char *base = *t->repo->old ? t->repo->old : NULL;
	int fd = temp_file(&ienv, t->repo->gitdir, "index", 1);
	if (fd < 0) {
		r = error_on(ienv.buf);
		goto out;
	}
	close(fd);
	t->tmp_index = xstrdup(ienv.buf);
	temp_hold(t->tmp_index);
	sb_setf(&ienv, "GIT_INDEX_FILE=%s", t->tmp_index);
	const char *env[] = { ienv.buf, t->env_obj.buf, t->env_alt.buf, NULL };
	const char *read_tree[] = { "read-tree", base ? base : "--empty", NULL };
	if ((r = git_ok("git read-tree", &(struct git_run){
			.words = read_tree, .env = env })) < 0)
		goto out;
	memcpy(parent, t->repo->old, sizeof parent);
	for (size_t i = 0; i < p->nr && !r; i++) {
		const struct group *g = &p->g[i];
		static const char *const write_tree[] = { "write-tree", NULL };
		progress(i + 1, p->nr, g->name);
		if ((r = check_stop("git apply")) < 0 ||
		    (r = apply_group(t, src, g, directory, env)) < 0 ||
		    (r = git_id("git write-tree", &(struct git_run){
				.words = write_tree, .env = env }, tree)) < 0)
			break;
		r = txn_commit_tree(t, tree, parent, &msgs[i], NULL);
		t->files += g->nr;
	}
	progress_end();
	if (r < 0)
		goto out;
	r = txn_land(t, parent, p->nr);
out:
	txn_abort(t);
	sb_release(&ienv);
	return r;
}

/* ---- reword: the same trees with new messages -----------------------------
 * The range's commits again (series trailers), each on the same tree, by
 * the same author at the same date, with its new message; then
 * txn_land().
 */
static int reword_series(struct txn *t, const struct rcommits *rc,
			 const struct sbuf *msgs, const char *base)
{
	struct sbuf tree = SBUF_INIT, who = SBUF_INIT;
	char parent[72];
	int r = txn_begin(t, t->repo, 0);

	memcpy(parent, base, strlen(base) + 1);
	for (size_t i = 0; i < rc->nr && !r; i++) {
		const struct rcommit *c = &rc->c[i];
		sb_setlen(&who, 0);
		author_ident(&who, c);
		sb_setf(&tree, "%s^{tree}", c->id);
		r = txn_commit_tree(t, tree.buf, parent, &msgs[i], who.buf);
	}
	if (!r)
		r = txn_land(t, parent, rc->nr);
	txn_abort(t);
	sb_release(&tree);
	sb_release(&who);
	return r;
}

/* ---- conversions that need hardware ----------------------------------------
 * A sink that reads each file's diff and reports the changes a reviewer
 * would want tested on the board before they are applied: moving a driver
 * to the managed-resources API (devm_*) changes when things are torn down,
 * and with a shared interrupt the handler can run after remove() (the
 * i2c-bcm2835 review of 2013).  The rules are one table; each fires on the
 * lines a hunk adds or removes (a call: the name right after a byte that
 * cannot be in an identifier), and some need facts from the whole file
 * (IRQF_SHARED, a remove() callback, what remove() does), read from the
 * file as the tree has it.  A rule reports once per file, at its first
 * line.  The hunk walker's grammar: "@@ -a[,b] +c[,d] @@ CONTEXT", then
 * ' ', '+', '-' and '\' lines; c is the new file's line of the first ' '
 * or '+', a missing ,d means 1; CONTEXT is git's (and spatch -p's)
 * function name, which tells remove() from an error path.
 */

enum { NEEDS_SHARED = 1, NEEDS_REMOVE = 2, NEEDS_REMOVE_KEEPS_IRQ = 4,
       NEEDS_CLEANUP_SITE = 8, NEEDS_NOT_READDED = 16,
       NEEDS_PLAIN_REQUEST = 32 };

static const char *const irq_devm[] = { "devm_request_irq(",
	"devm_request_threaded_irq(", "devm_request_any_context_irq(", NULL };

static const char *const irq_plain[] = { "request_irq(",
	"request_threaded_irq(", "request_any_context_irq(", NULL };

static const char *const res_devm[] = { "devm_clk_get", "devm_clk_bulk_get",
	"devm_regulator_get", "devm_regulator_bulk_get", "dmam_",
	"devm_dma_request_chan(", "devm_gpiod_get", "devm_gpio_request",
	"devm_reset_control_get", "devm_pm_runtime_enable(",
	"devm_add_action_or_reset(", NULL };

static const char *const res_plain[] = { "clk_get(", "clk_bulk_get(",
	"clk_prepare_enable(", "regulator_get(", "regulator_bulk_get(",
	"regulator_enable(", "dma_alloc_coherent(", "dma_request_chan(",
	"gpiod_get(", "gpio_request(", "reset_control_get(",
	"reset_control_deassert(", "pm_runtime_enable(", NULL };

static const char *const cleanups[] = { "free_irq(", "clk_disable_unprepare(",
	"clk_disable(", "clk_unprepare(", "clk_put(", "clk_bulk_disable_unprepare(",
	"regulator_disable(", "regulator_put(", "regulator_bulk_disable(",
	"dma_free_coherent(", "dma_release_channel(", "gpiod_put(", "gpio_free(",
	"reset_control_assert(", "iounmap(", "pm_runtime_disable(", NULL };

/* Each cleanup call and the plain calls whose resource it releases: a
 * cleanup dropped while one of these is still in the file releases it
 * nowhere. */
static const struct release_pair {
	const char *release;
	const char *const *requests;
} release_pairs[] = {
	{ "free_irq(", irq_plain },
	{ "clk_disable_unprepare(", (const char *const[]){ "clk_prepare_enable(", NULL } },
	{ "clk_disable(", (const char *const[]){ "clk_enable(", NULL } },
	{ "clk_unprepare(", (const char *const[]){ "clk_prepare(", NULL } },
	{ "clk_put(", (const char *const[]){ "clk_get(", NULL } },
	{ "clk_bulk_disable_unprepare(",
	  (const char *const[]){ "clk_bulk_prepare_enable(", NULL } },
	{ "regulator_disable(", (const char *const[]){ "regulator_enable(", NULL } },
	{ "regulator_put(", (const char *const[]){ "regulator_get(", NULL } },
	{ "regulator_bulk_disable(",
	  (const char *const[]){ "regulator_bulk_enable(", NULL } },
	{ "dma_free_coherent(", (const char *const[]){ "dma_alloc_coherent(", NULL } },
	{ "dma_release_channel(", (const char *const[]){ "dma_request_chan(",
	  "dma_request_channel(", NULL } },
	{ "gpiod_put(", (const char *const[]){ "gpiod_get(", NULL } },
	{ "gpio_free(", (const char *const[]){ "gpio_request(",
	  "gpio_request_one(", NULL } },
	{ "reset_control_assert(",
	  (const char *const[]){ "reset_control_deassert(", NULL } },
	{ "iounmap(", (const char *const[]){ "ioremap(", "of_iomap(",
	  "ioremap_wc(", NULL } },
	{ "pm_runtime_disable(", (const char *const[]){ "pm_runtime_enable(", NULL } },
};

/* The rules, most telling first: of the rules of one family, only the
 * first that fires reports on a file. */
static const struct check_rule {
	const char *name;
	const char *const *added;     /* a '+' line calls one of these */
	const char *const *removed;   /* a '-' line calls one of these */
	int needs, family;
	const char *why;
} check_rules[] = {
	{ "devm-irq-shared", irq_devm, irq_plain, NEEDS_SHARED, 1,
	  "a shared interrupt (IRQF_SHARED) becomes devm-managed: another "
	  "device on the line can run the handler after remove(), with the "
	  "driver's data gone" },
	{ "devm-irq-remove", irq_devm, irq_plain,
	  NEEDS_REMOVE | NEEDS_REMOVE_KEEPS_IRQ, 1,
	  "the interrupt becomes devm-managed, but remove() does not disable "
	  "it: it stays live until after remove() returns" },
	{ "devm-teardown-order", res_devm, res_plain, NEEDS_REMOVE, 2,
	  "a resource becomes devm-managed in a driver with a remove() "
	  "callback: it is now released after remove() returns, in another "
	  "order" },
	{ "release-unmanaged", NULL, cleanups,
	  NEEDS_NOT_READDED | NEEDS_PLAIN_REQUEST, 3,
	  "a cleanup call goes while the plain call it paired with stays: "
	  "nothing releases the resource now (an interrupt's handler stays "
	  "registered after remove(), with the driver's data gone)" },
	{ "cleanup-removed", NULL, cleanups,
	  NEEDS_CLEANUP_SITE | NEEDS_NOT_READDED, 3,
	  "an explicit cleanup call leaves remove() or an error path: "
	  "something else must now do it, at the right time" },
};

#define NRULES (sizeof check_rules / sizeof *check_rules)

/* The first name of names that line[0..len) calls, or NULL. */
static const char *calls(const char *line, size_t len,
			 const char *const *names)
{
	for (; names && *names; names++) {
		size_t n = strlen(*names);
		const char *p = line, *end = line + len, *q;
		while ((q = find_bytes(p, (size_t)(end - p), *names, n))) {
			unsigned char before = q > line ? (unsigned char)q[-1] : ' ';
			if (!isalnum(before) && before != '_')
				return *names;
			p = q + 1;
		}
	}
	return NULL;
}

/* How many calls of names text holds. */
static size_t count_calls(const char *text, size_t len, const char *const *names)
{
	size_t n = 0;

	for (; names && *names; names++) {
		size_t k = strlen(*names), rare = rarest_byte(*names, k);
		for (const char *p = text, *end = text + len, *q;
		     (q = find_bytes_at(p, (size_t)(end - p), *names, k, rare));
		     p = q + 1) {
			unsigned char before = q > text ? (unsigned char)q[-1] : ' ';
			n += !isalnum(before) && before != '_';
		}
	}
	return n;
}

/* Whether a change from old to new text could fire a rule, from counts
 * alone: a conversion has more managed calls and fewer plain ones after,
 * a cleanup's removal fewer cleanup calls.  No diff is needed to say no. */
static int could_fire(const struct sbuf *old, const struct sbuf *new)
{
	/* what the two share at both ends, in whole lines, counts alike */
	size_t pre = 0, suf = 0, min = old->len < new->len ? old->len : new->len;
	while (pre < min && old->buf[pre] == new->buf[pre])
		pre++;
	while (pre && old->buf[pre - 1] != '\n')
		pre--;
	while (suf < min - pre && old->buf[old->len - 1 - suf] ==
				  new->buf[new->len - 1 - suf])
		suf++;
	while (suf && old->buf[old->len - suf] != '\n')
		suf--;
	const char *o = old->buf + pre, *n = new->buf + pre;
	size_t ol = old->len - pre - suf, nl = new->len - pre - suf;

	for (size_t r = 0; r < NRULES; r++) {
		const struct check_rule *c = &check_rules[r];
		if (c->added && count_calls(n, nl, c->added) <=
				count_calls(o, ol, c->added))
			continue;
		if (count_calls(n, nl, c->removed) >= count_calls(o, ol, c->removed))
			continue;
		return 1;
	}
	return 0;
}

/* One line a hunk adds or removes, where it stands in the new file, and
 * the function git named in its hunk header. */
struct hline {
	char op;              /* '+' or '-' */
	struct span text;     /* without the op */
	size_t line;          /* in the new file */
	struct span func;     /* the hunk header's context */
	int label;            /* the hunk has a "label:" line (an error path) */
};

/* The lines a file's diff adds and removes, as the walker reads them. */
static size_t hunk_lines(const char *t, size_t len, struct hline **out)
{
	const char *pos = t, *end = t + len;
	size_t n = 0, alloc = 0, nline = 0, first = 0;
	struct span func = { "", 0 };
	int in_hunk = 0, label = 0;

	*out = NULL;
	for (struct span l; next_line(&pos, end, &l);) {
		if (l.len >= 2 && !memcmp(l.p, "@@", 2)) {
			const char *plus = memchr(l.p, '+', l.len);
			const char *close = l.len > 2 ?
				find_bytes(l.p + 2, l.len - 2, "@@", 2) : NULL;
			nline = plus ? scan_number(plus + 1, NULL, 10) : 0;
			func = close ? trim_span((struct span){ close + 2,
				(size_t)(l.p + l.len - close - 2) }) :
				(struct span){ "", 0 };
			in_hunk = 1;
			label = 0;
			first = n;
			continue;
		}
		if (!in_hunk || !l.len || !strchr(" +-\\", l.p[0])) {
			in_hunk = in_hunk && l.len == 0;
			continue;
		}
		struct span body = { l.p + 1, l.len - 1 };
		/* a label line (err_free_irq:) anywhere in the hunk, before
		 * its changes or after, marks them as an error path's */
		struct span tb = trim_span(body);
		if (tb.len > 1 && tb.p[tb.len - 1] == ':' &&
		    strspn(tb.p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_") == tb.len - 1) {
			label = 1;
			for (size_t k = first; k < n; k++)
				(*out)[k].label = 1;
		}
		if (l.p[0] == '+' || l.p[0] == '-') {
			GROW(*out, n + 1, alloc);
			(*out)[n] = (struct hline){ l.p[0], body, nline, func, label };
			n++;
		}
		if (l.p[0] != '-' && l.p[0] != '\\')
			nline++;
	}
	return n;
}

/* The body of the file's remove() callback: the function named in
 * ".remove = NAME" (or .remove_new), from its line to the next line that
 * starts with '}'.  Empty where there is none. */
static struct span remove_body(const char *t, size_t len)
{
	const char *pos = t, *end = t + len;
	struct span name = { NULL, 0 };

	for (struct span l; !name.p && next_line(&pos, end, &l);) {
		struct span s = trim_span(l);
		if ((s.len > 8 && !memcmp(s.p, ".remove", 7)) &&
		    (s.p[7] == ' ' || s.p[7] == '\t' || s.p[7] == '=' ||
		     !memcmp(s.p + 7, "_new", 4))) {
			const char *eq = memchr(s.p, '=', s.len);
			if (!eq)
				continue;
			struct span v = trim_span((struct span){ eq + 1,
				(size_t)(s.p + s.len - eq - 1) });
			while (v.len && (v.p[v.len - 1] == ',' || is_space(v.p[v.len - 1])))
				v.len--;
			if (v.len)
				name = v;
		}
	}
	if (!name.p)
		return (struct span){ NULL, 0 };
	/* its definition: NAME( at the start of a line's text, not a call
	 * ending in ';' */
	pos = t;
	for (struct span l; next_line(&pos, end, &l);) {
		const char *q = find_bytes(l.p, l.len, name.p, name.len);
		if (!q || q + name.len >= l.p + l.len || q[name.len] != '(' ||
		    memchr(l.p, ';', l.len) || is_space(l.p[0]))
			continue;
		const char *from = l.p, *stop = end;
		for (struct span b; next_line(&pos, end, &b);)
			if (b.len && b.p[0] == '}') {
				stop = b.p + b.len;
				break;
			}
		return (struct span){ from, (size_t)(stop - from) };
	}
	return (struct span){ NULL, 0 };
}

/* C code without its comments, each one a space, so that a word in a
 * note ("not IRQF_SHARED") is not taken for code; string and character
 * literals are copied as they are (a "/" "*" in one starts nothing). */
static void strip_comments(struct sbuf *out, const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		if (*p == '"' || *p == '\'') {
			const char *q = p + 1;
			while (q < end && *q != *p && *q != '\n')
				q += *q == '\\' && q + 1 < end ? 2 : 1;
			q += q < end && *q == *p;
			sb_add(out, p, (size_t)(q - p));
			p = q;
		} else if (end - p > 1 && p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
			const char *q = p[1] == '*' ?
				find_bytes(p + 2, (size_t)(end - p - 2), "*/", 2) :
				memchr(p, '\n', (size_t)(end - p));
			p = !q ? end : p[1] == '*' ? q + 2 : q;
			sb_addc(out, ' ');
		} else
			sb_addc(out, *p++);
	}
}

/* Whether the managed interrupt requests in code share their line, read
 * from the flags argument of each call (the fourth; the fifth of the
 * threaded one): 1 where one names IRQF_SHARED, 0 where every call's
 * flags are constants without it, -1 where one's are a variable or its
 * arguments are not all there (code is a hunk's lines), -2 where code
 * makes no managed request. */
static int devm_irq_shared(const char *code, size_t len)
{
	int r = -2;

	for (size_t k = 0; irq_devm[k]; k++) {
		size_t n = strlen(irq_devm[k]), flags = k == 1 ? 4 : 3;
		for (const char *p = code, *end = code + len, *q;
		     (q = find_bytes(p, (size_t)(end - p), irq_devm[k], n)); p = q + 1) {
			if (q > code && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
				continue;
			const char *arg = NULL, *arg_end = NULL;
			size_t commas = 0;
			int depth = 0;
			for (const char *a = q + n; a < end && !arg_end && depth >= 0; a++) {
				if (*a == '(' || *a == ')')
					depth += *a == '(' ? 1 : -1;
				if (arg && (depth < 0 || (!depth && *a == ',')))
					arg_end = a;
				else if (!depth && *a == ',' && ++commas == flags)
					arg = a + 1;
			}
			if (!arg_end)
				return -1;
			if (r == -2)
				r = 0;
			for (const char *w = arg; w < arg_end; w++) {
				if (!isalpha((unsigned char)*w) && *w != '_')
					continue;
				const char *e = w;
				while (e < arg_end && (isalnum((unsigned char)*e) || *e == '_'))
					e++;
				if (e - w == 11 && !memcmp(w, "IRQF_SHARED", 11))
					return 1;
				if (e - w < 5 || memcmp(w, "IRQF_", 5))
					r = -1;
				w = e;
			}
		}
	}
	return r;
}

/* Whether the interrupt the file's change makes managed is shared: from
 * the calls' flags in what the patch leaves (its hunks' context and added
 * lines: the file at hand may be the pre-image, a mail under review),
 * else in the file as the tree has it (t); where the flags are a variable
 * or no call is there, IRQF_SHARED anywhere in the code (comments aside):
 * the file's, else the hunks'. */
static int irq_is_shared(const struct sbuf *t, const struct hline *h, size_t n)
{
	struct sbuf code = SBUF_INIT, post = SBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (h[i].op != '-')
			sb_add(&post, h[i].text.p, h[i].text.len), sb_addc(&post, '\n');
	strip_comments(&code, post.buf, post.len);
	int r = devm_irq_shared(code.buf, code.len);
	if (r < 0 && t->len) {
		sb_setlen(&code, 0);
		strip_comments(&code, t->buf, t->len);
		int in_tree = devm_irq_shared(code.buf, code.len);
		r = in_tree >= 0 ? in_tree : r;
	}
	if (r < 0)
		r = find_bytes(code.buf, code.len, "IRQF_SHARED", 11) != NULL;
	sb_release(&code);
	sb_release(&post);
	return r;
}

/* What a rule needs to know of the file it looks at. */
struct file_facts {
	int shared;           /* irq_is_shared() */
	struct span remove;   /* remove()'s body, or { NULL, 0 } */
	struct span text;     /* the file after the change; empty: unknown */
};

/* Whether the cleanup call release, gone from the file, leaves a plain
 * call it paired with in it: then nothing releases that resource.  Not
 * where the file is unknown (a mail with no tree). */
static int release_unpaired(const char *release, const struct file_facts *ff)
{
	if (!ff->text.len || count_calls(ff->text.p, ff->text.len,
					 (const char *const[]){ release, NULL }))
		return 0;
	for (size_t i = 0; i < sizeof release_pairs / sizeof *release_pairs; i++)
		if (!strcmp(release_pairs[i].release, release))
			return calls(ff->text.p, ff->text.len,
				     release_pairs[i].requests) != NULL;
	return 0;
}

static int rule_fires(const struct check_rule *r, const struct hline *h,
		      size_t n, const struct file_facts *ff, size_t *at)
{
	const struct hline *hit = NULL;

	for (size_t i = 0; i < n && !hit; i++) {
		const char *const *want = r->added ? r->added : r->removed;
		char op = r->added ? '+' : '-';
		if (h[i].op != op || !calls(h[i].text.p, h[i].text.len, want))
			continue;
		if (r->needs & NEEDS_CLEANUP_SITE) {
			int in_remove = h[i].func.len &&
				find_bytes(h[i].func.p, h[i].func.len, "remove", 6);
			if (!in_remove && !h[i].label)
				continue;
		}
		if (r->needs & NEEDS_NOT_READDED) {
			const char *c = calls(h[i].text.p, h[i].text.len, want);
			int again = 0;
			for (size_t j = 0; j < n && !again; j++)
				again = h[j].op == '+' &&
					calls(h[j].text.p, h[j].text.len,
					      (const char *const[]){ c, NULL });
			if (again)
				continue;
		}
		if ((r->needs & NEEDS_PLAIN_REQUEST) &&
		    !release_unpaired(calls(h[i].text.p, h[i].text.len, want), ff))
			continue;
		hit = &h[i];
	}
	if (!hit)
		return 0;
	/* a conversion: the plain call goes where the managed one comes */
	if (r->added) {
		int gone = 0;
		for (size_t i = 0; i < n && !gone; i++)
			gone = h[i].op == '-' &&
			       calls(h[i].text.p, h[i].text.len, r->removed);
		if (!gone)
			return 0;
	}
	if ((r->needs & NEEDS_SHARED) && !ff->shared)
		return 0;
	if ((r->needs & NEEDS_REMOVE) && !ff->remove.p)
		return 0;
	if ((r->needs & NEEDS_REMOVE_KEEPS_IRQ) &&
	    (ff->shared || calls(ff->remove.p, ff->remove.len,
				 (const char *const[]){ "disable_irq(",
				   "disable_irq_nosync(", "free_irq(",
				   "devm_free_irq(", NULL })))
		return 0;
	*at = hit->line;
	return 1;
}

/* A finding: FILE:LINE: why [rule]. */
struct finding {
	size_t patch;         /* the group (patch) it is in */
	const char *path;
	size_t line;
	const struct check_rule *rule;
};

struct findings {
	struct finding *v;
	size_t n, alloc;
};

/*
 * Runs every rule on every file of every group of p: the hunks from the
 * source's diff text, the file's facts from text[i] (file i as the tree
 * has it; empty where unknown, then the hunks alone tell).  Appends to
 * *f; returns how many.
 */
static size_t check_groups(const struct source *src, const struct plan *p,
			   const struct sbuf *text, struct findings *f)
{
	size_t before = f->n;

	for (size_t g = 0; g < p->nr; g++)
		for (size_t j = 0; j < p->g[g].nr; j++) {
			size_t fi = p->g[g].member[j];
			const struct sfile *e = &src->f[fi];
			struct hline *h;
			size_t n = hunk_lines(src->text.buf + e->off, e->len, &h);
			struct file_facts ff = { 0 };
			const struct sbuf *t = &text[fi];
			ff.shared = irq_is_shared(t, h, n);
			ff.remove = remove_body(t->buf, t->len);
			ff.text = (struct span){ t->buf, t->len };
			unsigned said = 0;     /* the families reported */
			for (size_t r = 0; r < NRULES; r++) {
				size_t at = 0;
				unsigned fam = 1u << check_rules[r].family;
				if ((said & fam) ||
				    !rule_fires(&check_rules[r], h, n, &ff, &at))
					continue;
				said |= fam;
				GROW(f->v, f->n + 1, f->alloc);
				f->v[f->n++] = (struct finding){ g, e->path, at,
								 &check_rules[r] };
			}
			free(h);
		}
	return f->n - before;
}

/*
 * Each file of the groups as the tree has it after its commit: one
 * `git cat-file --batch` for all.  Its grammar: per request "OID TYPE
 * SIZE" LF, SIZE bytes, LF; or "NAME missing" LF (a deleted file).
 * rev[g] is group g's commit, or NULL for the work tree (then the file is
 * read from top).  text[i] gets file i.
 */
static int tree_texts(const struct source *src, const struct plan *p,
		      char *const *rev, const char *top, struct sbuf *text)
{
	struct sbuf in = SBUF_INIT, out = SBUF_INIT, path = SBUF_INIT;
	size_t *order = xcalloc(src->nr + 1, sizeof *order), no = 0;
	int r = 0;

	for (size_t g = 0; g < p->nr; g++)
		for (size_t j = 0; j < p->g[g].nr; j++) {
			size_t fi = p->g[g].member[j];
			if (!src->f[fi].new_mode)
				continue;       /* deleted: no text after */
			if (!rev || !rev[g]) {
				sb_setf(&path, "%s/%s", top, src->f[fi].path);
				sb_read_file(&text[fi], path.buf);  /* none: unknown */
				continue;
			}
			sb_addf(&in, "%s:%s\n", rev[g], src->f[fi].path);
			order[no++] = fi;
		}
	const char *words[] = { "cat-file", "--batch", NULL };
	if (no && (r = git_ok("git cat-file", &(struct git_run){ .words = words,
			.input = in.buf, .inlen = in.len, .out = &out })) < 0)
		goto out;
	const char *pos = out.buf, *end = out.buf + out.len;
	for (size_t k = 0; k < no && !r; k++) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		if (!nl) {
			r = error("git cat-file: %zu of %zu objects missing from "
				  "its output", no - k, no);
			break;
		}
		const char *sp = memrchr_bytes(pos, (size_t)(nl - pos), ' ');
		if (!sp || ((size_t)(nl - sp) == 8 && !memcmp(sp, " missing", 8))) {
			pos = nl + 1;
			continue;
		}
		size_t size = scan_number(sp + 1, NULL, 10);
		if (size > (size_t)(end - nl - 1)) {
			r = error("git cat-file: a short object");
			break;
		}
		sb_add(&text[order[k]], nl + 1, size);
		pos = nl + 1 + size + 1;
	}
out:
	free(order);
	sb_release(&in);
	sb_release(&out);
	sb_release(&path);
	return r;
}

/* Who tested changes to these files before: the Tested-by: lines of the
 * last CHECK_LOG commits that touch them, most recent first, each person
 * once, at most five.  Appended one a line. */
#define CHECK_LOG 500

static void past_testers(char *const *path, size_t n, struct sbuf *out)
{
	struct addresses seen = ADDRESSES_INIT;
	struct sbuf log = SBUF_INIT, max = SBUF_INIT;
	size_t w, found = 0;

	sb_addf(&max, "--max-count=%d", CHECK_LOG);
	const char *head[] = { "log", "--format=%B", max.buf, NULL };
	const char **words = pathspec_words(head, n, &w);
	for (size_t i = 0; i < n; i++)
		words[w++] = path[i];
	if (!run_git(&(struct git_run){ .words = words, .out = &log, .quiet = 1 })) {
		const char *pos = log.buf, *end = log.buf + log.len;
		for (struct span l; found < 5 && next_line(&pos, end, &l);) {
			struct span t = trim_span(l);
			if (t.len <= 10 || strncasecmp(t.p, "Tested-by:", 10))
				continue;
			struct span who = trim_span((struct span){ t.p + 10, t.len - 10 });
			size_t before = seen.n;
			addresses_add(&seen, parse_address(who), NULL);
			if (seen.n > before) {
				sb_add(out, who.p, who.len);
				sb_addc(out, '\n');
				found++;
			}
		}
	}
	addresses_release(&seen);
	free(words);
	sb_release(&log);
	sb_release(&max);
}

/* Whether file i's diff in d adds or removes the calls a rule counts:
 * could_fire() of its removed lines against its added ones. */
static int hunks_could_fire(const struct source *d, size_t i)
{
	struct sbuf side[2] = { SBUF_INIT, SBUF_INIT };   /* '-', '+' */
	struct hline *h;
	size_t n = hunk_lines(d->text.buf + d->f[i].off, d->f[i].len, &h);

	for (size_t k = 0; k < n; k++) {
		sb_add(&side[h[k].op == '+'], h[k].text.p, h[k].text.len);
		sb_addc(&side[h[k].op == '+'], '\n');
	}
	int r = could_fire(&side[0], &side[1]);
	sb_release(&side[0]);
	sb_release(&side[1]);
	free(h);
	return r;
}

/* The findings of a plan's groups over src; rev as for tree_texts().  0,
 * or -1 after error(). */
static int check_plan_groups(const struct source *src, const struct plan *p,
			     char *const *rev, const char *top,
			     struct findings *f)
{
	struct sbuf *text = xcalloc(src->nr + 1, sizeof *text);
	struct plan dp = { xcalloc(p->nr + 1, sizeof *dp.g), p->nr };
	size_t any = 0;
	int r = 0;

	/* only the files whose hunks could fire a rule are read whole: on a
	 * change no rule is about, no blob at all */
	for (size_t g = 0; g < p->nr; g++) {
		dp.g[g].member = xcalloc(p->g[g].nr + 1, sizeof *dp.g[g].member);
		for (size_t j = 0; j < p->g[g].nr; j++)
			if (hunks_could_fire(src, p->g[g].member[j]))
				dp.g[g].member[dp.g[g].nr++] = p->g[g].member[j];
		any += dp.g[g].nr;
	}
	for (size_t i = 0; i < src->nr; i++)
		sb_init(&text[i]);
	if (any && !(r = tree_texts(src, &dp, rev, top, text)))
		check_groups(src, &dp, text, f);
	for (size_t g = 0; g < p->nr; g++)
		free(dp.g[g].member);
	free(dp.g);
	sbufs_free(text, src->nr);
	return r;
}

/* The warning plan and format give for a patch that needs the hardware;
 * alone: it is already sent one by one (format --individual), so the
 * advice is only to ask for a test. */
static void warn_hardware(const struct findings *f, size_t g, const char *what,
			  int alone)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].patch == g) {
			warning("%s needs testing on the hardware (%s at %s:%zu; "
				"series check says more): %sask for Tested-by:",
				what, f->v[i].rule->name, f->v[i].path,
				f->v[i].line, alone ? "" : "send such patches one "
				"by one (series format --individual) and ");
			return;
		}
}

/* Whether group g has a finding. */
static int group_flagged(const struct findings *f, size_t g)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].patch == g)
			return 1;
	return 0;
}

/* The warning of plan and format for each group of src's plan p whose
 * conversions need the hardware: group g's files as the tree has them at
 * its commit where commits (a range per commit names each group by its
 * commit), else at tip for every group (tip NULL: in the work tree under
 * top), named name[g] (name NULL: the group's name); alone: the patches
 * go one by one already. */
static void hardware_warnings(const struct source *src, const struct plan *p,
			      int commits, const char *tip, const char *top,
			      char *const *name, int alone)
{
	struct findings f = { 0 };
	char **at = xcalloc(p->nr + 1, sizeof *at);

	for (size_t g = 0; g < p->nr; g++)
		at[g] = commits ? p->g[g].name : (char *)tip;
	if (!check_plan_groups(src, p, at, top, &f))
		for (size_t g = 0; g < p->nr; g++)
			warn_hardware(&f, g, name ? name[g] : p->g[g].name,
				      alone);
	free(at);
	free(f.v);
}

/* Prints the findings of group g and who could test it. */
static void report_patch(const struct findings *f, size_t g,
			 const struct source *src, const struct plan *p,
			 const char *what, struct owners *ow)
{
	char **path = NULL;
	size_t np = 0, ap = 0;
	struct sbuf testers = SBUF_INIT;

	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].patch != g)
			continue;
		xfprintf(1, "%s:%zu: %s [%s]\n", f->v[i].path, f->v[i].line,
			 f->v[i].rule->why, f->v[i].rule->name);
		GROW(path, np + 1, ap);
		path[np++] = (char *)f->v[i].path;
	}
	xfprintf(1, "    in %s\n", what);
	past_testers(path, np, &testers);
	if (testers.len) {
		xfprintf(1, "    tested these files before:\n");
		const char *pos = testers.buf, *end = pos + testers.len;
		for (struct span l; next_line(&pos, end, &l);)
			xfprintf(1, "        %.*s\n", (int)l.len, l.p);
	}
	if (ow->m) {
		struct recipients r = RECIPIENTS_INIT;
		if (!recipients_of(ow, src, &p->g[g], 1, &r, NULL) && r.people) {
			xfprintf(1, "    maintainers:\n");
			for (size_t k = 0; k < r.people; k++)
				xfprintf(1, "        %s\n", r.v[k].addr);
		}
		recipients_release(&r);
	}
	free(path);
	sb_release(&testers);
}

/* ---- the checkout moved off its branch and back -------------------------------
 * As git rebase works in place: a marker in .git names the branch (and
 * the untracked files there were), the checkout moves to another commit,
 * detached, and put_back() restores the branch's checkout from the
 * marker after any failure, a signal, or a kill and `respin --abort`.
 * Every command that commits refuses to run while the marker is there
 * (check_idle()).
 */

/* The marker of a respin whose checkout is off the branch, in .git:
 *   REF '\n' (PATH '\0')*
 * the branch, and the untracked files there were before (put_back()
 * keeps those, and removes the ones the pattern made).  The caller frees
 * the path. */
static char *respin_marker(const struct repo *home)
{
	return xstrfmt("%s/series-respin", home->gitdir);
}

/* The work tree of home clean (the untracked files aside, which are
 * listed into the marker), the marker written (*moved set), then the
 * checkout moved to onto, detached: what moves is what differs from the
 * branch. */
static int checkout_off(const struct repo *home, const char *onto, int *moved)
{
	struct status st = STATUS_INIT;
	struct sbuf m = SBUF_INIT;
	char *marker = respin_marker(home);
	int r = chdir(home->top) < 0 ? error_on(home->top) :
		read_status(&st, 1, NULL);

	sb_addf(&m, "%s\n", home->ref);
	for (size_t i = 0; !r && i < st.nr; i++) {
		if (st.e[i].kind != E_UNTRACKED)
			r = error("respin: the work tree has changes of its own "
				  "(%s): commit or stash them first", st.e[i].path);
		sb_add(&m, st.e[i].path, strlen(st.e[i].path) + 1);
	}
	if (!r && !(r = write_file(marker, &m)))
		*moved = 1;
	status_release(&st);
	sb_release(&m);
	free(marker);
	/* in parallel where there are cores, as the kernel's files are many */
	const char *words[] = { "-c", "checkout.workers=0", "checkout", "--quiet",
				"--detach", onto, "--", NULL };
	return r ? r : git_ok("git checkout", &(struct git_run){ .words = words });
}

/* The files the pattern made (untracked, not in the marker's list from
 * at), removed; then the branch checked out again, its index and files
 * as its commit has them (checkout -f: respin started on a clean tree).
 * 0, or -1 with git's reason unsaid (put_back() tries twice). */
static int checkout_back(const char *ref, const struct sbuf *m, size_t at)
{
	struct status st = STATUS_INIT;
	struct sbuf needle = SBUF_INIT;
	const char *words[] = { "-c", "checkout.workers=0", "checkout", "-f",
				"--quiet", ref + 11, "--", NULL };
	int r = read_status(&st, 2, NULL);

	for (size_t i = 0; !r && i < st.nr; i++) {
		if (st.e[i].kind != E_UNTRACKED)
			continue;
		sb_setlen(&needle, 0);
		sb_addc(&needle, '\0');
		sb_add(&needle, st.e[i].path, strlen(st.e[i].path) + 1);
		if (!find_bytes(m->buf + at - 1, m->len - at + 1, needle.buf,
				needle.len))
			unlink(st.e[i].path);
	}
	status_release(&st);
	sb_release(&needle);
	return r ? r : run_git(&(struct git_run){ .words = words, .quiet = 1 })
		       ? -1 : 0;
}

/* The checkout a respin moved off its branch put back as it was, from
 * the marker, which goes then: for a respin that failed or was stopped
 * (the stop set aside meanwhile, as git must run), and for --abort.
 * 0, or -1 after error(), the marker kept. */
static int put_back(const struct repo *home)
{
	char *marker = respin_marker(home);
	struct sbuf m = SBUF_INIT;
	sig_atomic_t sig = stop_signal;
	int r = sb_read_file(&m, marker) < 0 ? error_on(marker) : 0;
	char *nl = r ? NULL : memchr(m.buf, '\n', m.len);

	if (!r && (!nl || !starts_with(m.buf, NULL, "refs/heads/") ||
		   (m.len && m.buf[m.len - 1] != '\0' && m.buf[m.len - 1] != '\n')))
		r = error("%s: not a respin's marker", marker);
	if (!r) {
		*nl = '\0';
		stop_signal = 0;
		if (chdir(home->top) < 0 || pin_repo_env(home) < 0 ||
		    (checkout_back(m.buf, &m, (size_t)(nl - m.buf) + 1) < 0 &&
		     checkout_back(m.buf, &m, (size_t)(nl - m.buf) + 1) < 0))
			r = error("respin: could not check %s out again; `series "
				  "respin --abort` tries again", m.buf + 11);
		stop_signal = sig;
	}
	if (!r && unlink(marker) < 0)
		r = error_on(marker);
	free(marker);
	sb_release(&m);
	return r;
}

/* ---- a run ------------------------------------------------------------------
 * What the steps of a command share while it runs: the repository, the
 * source and its plan, the owners, the range and its commits, the message
 * template and the transaction; the versions part and the commands work
 * on it.  A step returns 0 or an exit code (EXIT_FAIL after error(),
 * EXIT_NOTHING after saying so).  Invariants: every field is empty (its
 * *_INIT) or owned by the run; msgs has nmsgs entries.
 */
struct cmd {
	struct args *a;
	struct repo repo;
	struct status st;
	struct source src;
	struct plan p;
	struct owners ow;
	struct range rg;
	struct rcommits rc;
	struct sbuf text;       /* the message template's text */
	struct template tm;     /* over text (and sob) */
	struct sbuf sob;        /* "Signed-off-by: Name <addr>", with -s */
	struct sbuf *msgs;      /* one a group, once made */
	size_t nmsgs;
	char *top;              /* the tree's top, where no repo is opened */
	struct txn t;
	struct window win;      /* history, for %(prefix) */
};
#define CMD_INIT(args) { .a = (args), .st = STATUS_INIT, .src = SOURCE_INIT, \
			 .p = PLAN_INIT, .rg = { "", "", NULL },            \
			 .text = SBUF_INIT, .sob = SBUF_INIT, .t = TXN_INIT, \
			 .win = WINDOW_INIT }

/* A step's -1 (after error()) as the command's exit code. */
static int failed(int r)
{
	return r < 0 ? EXIT_FAIL : r;
}

/* ==== 8. versions ========================================================
 * What format knows of a series beyond its mails: how it is organised,
 * its base, where it is published, the cover letter the user wrote last
 * time, and its versions: each one format wrote is recorded, and the next
 * says what became of the last one's patches.
 */

/* ---- the cover letter's parts ------------------------------------------------ */

/* Whether line l of a cover letter (the rest of the text at [pos, end))
 * starts what series wrote into it: format's COVER_GENERATED paragraph,
 * or, in a letter split wrote as git does, the shortlog's first head
 * ("Name (3):" followed by an indented subject). */
static int generated_starts(struct span l, const char *pos, const char *end)
{
	struct span next;
	size_t n = strlen(COVER_GENERATED);

	if (l.len >= n && !memcmp(l.p, COVER_GENERATED, n))
		return 1;
	if (l.len < 5 || memcmp(l.p + l.len - 2, "):", 2) ||
	    !next_line(&pos, end, &next) || next.len < 3 ||
	    memcmp(next.p, "  ", 2) || next.p[2] == ' ')
		return 0;
	const char *open = memrchr_bytes(l.p, l.len, '(');
	return open && open > l.p && open[-1] == ' ' &&
	       strspn(open + 1, "0123456789") == (size_t)(l.p + l.len - open - 3) &&
	       open + 1 < l.p + l.len - 2;
}

/* The user's part of an existing cover letter in dir: its subject (less
 * the tag) and everything above COVER_GENERATED.  1 when found and edited
 * (not the placeholders), 0 when none or unedited. */
static int old_cover(const char *dir, struct sbuf *subject, struct sbuf *aim)
{
	DIR *d = opendir(dir);
	struct sbuf path = SBUF_INIT, text = SBUF_INIT;
	int found = 0;

	for (struct dirent *de; d && !found && (de = readdir(d));)
		if (has_suffix(de->d_name, "0000-cover-letter.patch") &&
		    is_series_name(de->d_name)) {
			sb_addf(&path, "%s/%s", dir, de->d_name);
			found = sb_read_file(&text, path.buf) == 0;
		}
	if (d)
		closedir(d);
	const char *pos = text.buf, *end = text.buf + text.len;
	int in_body = 0, done = 0;
	for (struct span l; found && !done && next_line(&pos, end, &l);) {
		if (!in_body) {
			if (!l.len)
				in_body = 1;
			else if (l.len >= 9 && !memcmp(l.p, "Subject: ", 9)) {
				const char *s = l.p + 9, *e = l.p + l.len;
				if (s < e && *s == '[') {
					const char *close = memchr(s, ']', (size_t)(e - s));
					if (close)
						s = close + 1 + (close + 1 < e && close[1] == ' ');
				}
				sb_add(subject, s, (size_t)(e - s));
			}
			continue;
		}
		if (generated_starts(l, pos, end))
			done = 1;
		else {
			sb_add(aim, l.p, l.len);
			sb_addc(aim, '\n');
		}
	}
	cleanup_message(aim);
	sb_release(&path);
	sb_release(&text);
	if (!found)
		return 0;
	return strcmp(subject->buf, COVER_SUBJECT) ||
	       (strcmp(aim->buf, COVER_BLURB "\n") &&
		strcmp(aim->buf, GIT_BLURB "\n"));
}

/* The cover letter's text: --cover's (its first line the subject), else
 * what the user wrote into the one in outdir, else the placeholders. */
static int cover_text(const char *cover, int individual, const char *outdir,
		      struct sbuf *subject, struct sbuf *aim)
{
	if (cover) {
		struct sbuf t = SBUF_INIT;
		if (sb_read_file(&t, cover) < 0) {
			sb_release(&t);
			return error("--cover %s: %s", cover, strerror(errno));
		}
		const char *nl = memchr(t.buf, '\n', t.len);
		sb_add(subject, t.buf, nl ? (size_t)(nl - t.buf) : t.len);
		if (nl)
			sb_add(aim, nl + 1, t.len - (size_t)(nl + 1 - t.buf));
		cleanup_message(aim);
		sb_release(&t);
	} else if (!individual && !old_cover(outdir, subject, aim)) {
		sb_setlen(subject, 0);
		sb_setlen(aim, 0);
	}
	if (!subject->len)
		sb_adds(subject, COVER_SUBJECT);
	if (!aim->len)
		sb_adds(aim, COVER_BLURB "\n");
	return 0;
}

/* Whether REMOTE's copy of branch br, as last fetched or pushed, holds
 * tip: a branch line the remote cannot show is a wrong address.  The
 * reason it is left out goes to stderr. */
static int remote_has(const char *remote, const char *br, const char *tip)
{
	struct sbuf ref = SBUF_INIT;
	char id[72];
	int has = 0;

	sb_addf(&ref, "refs/remotes/%s/%s", remote, br);
	if (resolve_commit_quietly(ref.buf, id) < 0)
		warning("the cover letter names no public branch: there is no "
			"%s/%s here (push the branch, or fetch it)", remote, br);
	else if (!(has = is_ancestor(tip, id)))
		warning("the cover letter names no public branch: %s/%s does "
			"not hold %.12s (push it, then format again)", remote,
			br, tip);
	sb_release(&ref);
	return has;
}

/* "URL BRANCH" where the branch is published and holds tip:
 * branch.NAME.pushRemote (or remote.pushDefault), else
 * branch.NAME.remote; NULL when none is set or it lacks tip. */
static char *public_branch(const struct repo *repo, const char *tip)
{
	const char *br = repo_branch(repo);
	struct sbuf key = SBUF_INIT;
	char *remote = NULL, *url = NULL, *r = NULL;

	if (!br)
		return NULL;
	sb_addf(&key, "branch.%s.pushRemote", br);
	if (!(remote = config_value(key.buf)))
		remote = config_value("remote.pushDefault");
	if (!remote) {
		sb_setf(&key, "branch.%s.remote", br);
		remote = config_value(key.buf);
	}
	if (remote) {
		sb_setf(&key, "remote.%s.pushurl", remote);
		if (!(url = config_value(key.buf))) {
			sb_setf(&key, "remote.%s.url", remote);
			url = config_value(key.buf);
		}
	}
	if (url && remote_has(remote, br, tip)) {
		sb_setf(&key, "%s %s", url, br);
		r = sb_detach(&key, NULL);
	}
	sb_release(&key);
	free(remote);
	free(url);
	return r;
}

/* base-commit: and, where the base is not on the upstream branch, the
 * patch ids of the commits between the two, as format-patch --base. */
static int add_base(struct sbuf *m, const struct range *rg)
{
	char up[72], mb[72];
	struct sbuf out = SBUF_INIT, spec = SBUF_INIT;
	struct pids ids = PIDS_INIT;
	const char *words[] = { "merge-base", rg->base, up, NULL };
	int r = 0;

	if (resolve_commit_quietly("@{upstream}", up) < 0) {
		sb_addf(m, "base-commit: %s\n", rg->base);
		return 0;
	}
	if (git_ok("git merge-base", &(struct git_run){ .words = words,
							 .out = &out }) < 0)
		return -1;
	chomp(&out);
	fmt_buf(mb, sizeof mb, "%s", out.buf);
	sb_addf(m, "base-commit: %s\n", mb);
	if (strcmp(mb, rg->base)) {
		sb_addf(&spec, "%s..%s", mb, rg->base);
		r = patch_ids(spec.buf, &ids);
		for (size_t i = 0; !r && i < ids.nr; i++)
			sb_addf(m, "prerequisite-patch-id: %s\n", ids.e[i].pid);
	}
	pids_release(&ids);
	sb_release(&out);
	sb_release(&spec);
	return r;
}

/* The paragraph on the series' form: the first form that fits, whether
 * its patches apply on their own (no file in two: each applies to the
 * base alone), and the article's offer of the forms known not to fit
 * (one that fits too, per directory where each has one file, is the same
 * series). */
static void organisation_paragraph(struct sbuf *para, const struct source *src,
				   const struct plan *p, struct owners *ow,
				   size_t n, const char **shared)
{
	const char *says = "as it was committed", *offer[NFORMS];
	size_t k = 0;

	for (size_t i = 0; i < NFORMS; i++) {
		/* the forms not offered only name a series no other fits: each
		 * file's recipients are a pass of their own */
		if (!forms[i].offer && strcmp(says, "as it was committed"))
			break;
		int fits = form_fits(src, p, ow, &forms[i]);
		if (fits == 1 && !strcmp(says, "as it was committed"))
			says = forms[i].says;
		if (fits == 0 && forms[i].offer)
			offer[k++] = forms[i].offer;
	}
	sb_addf(para, COVER_GENERATED "%s: %zu patches.  ", says, n);
	if (shared_file(src, p, shared))
		sb_addf(para, "Some touch the same files (%s): they apply in "
			"order.", *shared);
	else
		sb_adds(para, "No file is in two of them: each applies to the "
			"base on its own.");
	if (!k)
		return;
	sb_adds(para, "  If you would rather take the change in another form (");
	for (size_t i = 0; i < k; i++)
		sb_addf(para, "%s%s", i ? (i + 1 < k ? ", " : " or ") : "", offer[i]);
	sb_adds(para, "), please say so: it can come again that way.");
}

/* The files of the diffstat of the whole range, as git diff BASE TIP:
 * where no file is in two commits, the commits' own (src); else git's
 * diff of the range, into all.  *from gets the source, *v its files in
 * git's order (the caller frees it).  0, or -1 after error(). */
static int range_diffstat(const struct source *src, const struct range *rg,
			  int shared, struct source *all,
			  const struct source **from, size_t **v)
{
	*from = src;
	if (shared && source_from_range(all, rg) < 0)
		return -1;
	if (shared)
		*from = all;
	*v = xcalloc((*from)->nr + 1, sizeof **v);
	for (size_t i = 0; i < (*from)->nr; i++)
		(*v)[i] = i;
	sort_members(*v, (*from)->nr, *from);
	return 0;
}

/* ---- versions -----------------------------------------------------------------
 * Each version format writes is recorded, as b4 keeps a tag for each
 * version sent: refs/series/BRANCH/vN is its tip, refs/series/BRANCH/vN-base
 * its base, BRANCH the one the range's tip names.  -v N without --prev
 * reads version N-1's from there.  The refs are private (neither pushed
 * nor fetched) and keep an old version's commits from gc after a rebase.
 */

/* The branch the range's tip names: "irq" for base..irq, HEAD's for
 * base.. or base..HEAD; NULL (nothing said) for a commit id or a
 * detached HEAD.  The caller frees it. */
static char *range_branch(const struct range *rg)
{
	const char *dots = str_find(rg->spec, "..");
	const char *tip = dots && dots[2] ? dots + 2 : "HEAD";
	/* (git 2.39's rev-parse prints --end-of-options in this mode) */
	const char *words[] = { "rev-parse", "--symbolic-full-name", tip, NULL };
	struct sbuf out = SBUF_INIT;
	char *br = NULL;

	if (*tip != '-' && !run_git(&(struct git_run){ .words = words,
						      .out = &out, .quiet = 1 })) {
		chomp(&out);
		if (starts_with(out.buf, NULL, "refs/heads/"))
			br = xstrdup(out.buf + 11);
	}
	sb_release(&out);
	return br;
}

/* The id of a blob holding text (len bytes), written into the object
 * store, into id (72 bytes).  0, or -1 after error(). */
static int write_blob(const char *text, size_t len, char *id)
{
	const char *hash[] = { "hash-object", "-w", "--stdin", NULL };

	return git_id("git hash-object", &(struct git_run){ .words = hash,
		      .input = text, .inlen = len }, id);
}

/* Whether version v of branch br is recorded for another range than rg
 * (another base or tip). */
static int recorded_other(const char *br, int v, const struct range *rg)
{
	struct sbuf ref = SBUF_INIT;
	char tip[72], base[72];
	int other;

	sb_addf(&ref, "refs/series/%s/v%d", br, v);
	other = !resolve_commit_quietly(ref.buf, tip);
	sb_adds(&ref, "-base");
	if (other)
		other = strcmp(tip, rg->tip) ||
			resolve_commit_quietly(ref.buf, base) ||
			strcmp(base, rg->base);
	sb_release(&ref);
	return other;
}

/* Records rg as version v of its branch's series, under
 * refs/series/BRANCH/: vN and vN-base; where it was split, which series
 * each commit went to (map: "ID KEY" lines) as vN-split; what was sent to
 * whom (rec, from record_mails) as vN-mails; its form and patch ids (ids:
 * "form N", then git patch-id's lines) as vN-ids, so that respin needs no
 * diff of them.  A version recorded for
 * another range is what went out: a later format (into a scratch folder,
 * of a cut of the branch) leaves it, and says so, unless force.  0 where
 * its tip names no branch (-v N+1 will say so), or -1 after error(). */
static int record_version(const struct range *rg, int v, const char *map,
			  const char *rec, const struct sbuf *ids, int force)
{
	char *br = range_branch(rg), split[72] = "", mails[72] = "", pids[72] = "";
	struct sbuf in = SBUF_INIT;
	const char *words[] = { "update-ref", "--stdin", NULL };
	int r = 0;

	if (br && recorded_other(br, v, rg)) {
		if (!force) {
			warning("v%d of %s is recorded already for another "
				"range: its record is kept (-v %d records the "
				"next version; --force replaces v%d's)", v, br,
				v + 1, v);
			free(br);
			return 0;
		}
		warning("v%d of %s: its record replaced (--force)", v, br);
	}
	if (br && ((map && write_blob(map, strlen(map), split) < 0) ||
		   (rec && write_blob(rec, strlen(rec), mails) < 0) ||
		   write_blob(ids->buf, ids->len, pids) < 0))
		r = -1;
	if (br && !r) {
		const char *what[] = { "", "-base", "-split", "-mails", "-ids" };
		const char *id[] = { rg->tip, rg->base, split, mails, pids };
		for (size_t i = 0; i < 5; i++)
			if (*id[i])
				sb_addf(&in, "update refs/series/%s/v%d%s %s\n",
					br, v, what[i], id[i]);
		r = git_ok("git update-ref", &(struct git_run){ .words = words,
			   .input = in.buf, .inlen = in.len });
	}
	free(br);
	sb_release(&in);
	return r;
}

/* The range of version v-1 of rg's branch, as format recorded it, into
 * *prev ("series/BRANCH/vN-base..series/BRANCH/vN": git finds them under
 * refs/, and the cover letter shows them so); 0 when none is recorded,
 * after a warning that the cover letter says nothing of it. */
static int recorded_prev(const struct range *rg, int v, struct sbuf *prev)
{
	char *br = range_branch(rg), id[72];
	struct sbuf tip = SBUF_INIT, base = SBUF_INIT;

	if (br) {
		sb_addf(&tip, "refs/series/%s/v%d", br, v - 1);
		sb_addf(&base, "refs/series/%s/v%d-base", br, v - 1);
	}
	if (br && !resolve_commit_quietly(tip.buf, id) &&
	    !resolve_commit_quietly(base.buf, id))
		sb_addf(prev, "%s..%s", base.buf + 5, tip.buf + 5);
	else if (br)
		warning("the cover letter says nothing of v%d: format recorded "
			"none of %s (no %s); give --prev OLD-BASE..OLD-TIP", v - 1,
			br, tip.buf);
	else
		warning("the cover letter says nothing of v%d: %s ends at no "
			"branch, under which format records each version; give "
			"--prev OLD-BASE..OLD-TIP", v - 1, rg->spec);
	free(br);
	sb_release(&tip);
	sb_release(&base);
	return prev->len > 0;
}

/* The key map records for commit id ("ID KEY" lines), or NULL. */
static struct span mapped_key(const char *map, const char *id)
{
	size_t n = strlen(id);

	for (const char *l = map; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, id, n) && l[n] == ' ') {
			const char *e = strchr(l + n + 1, '\n');
			return (struct span){ l + n + 1, e ? (size_t)(e - l - n - 1) :
						 strlen(l + n + 1) };
		}
	return (struct span){ NULL, 0 };
}

/* The blob ref names (a record under refs/series/) appended to out: 1,
 * or 0 where there is none, out as it was. */
static int read_blob(const char *ref, struct sbuf *out)
{
	const char *words[] = { "cat-file", "blob", ref, NULL };
	size_t at = out->len;

	if (!run_git(&(struct git_run){ .words = words, .out = out, .quiet = 1 }))
		return 1;
	sb_setlen(out, at);
	return 0;
}

/* Version v of branch br's form and patch ids as format records them
 * (vN-ids: "form N", then git patch-id --stable's "PATCH-ID COMMIT" lines,
 * oldest first) into out; where a format before vN-ids left none, made
 * so from the version's diffs and top's MAINTAINERS.  0, or -1 after
 * error(). */
static int version_ids(const char *br, int v, const char *top, struct sbuf *out)
{
	char *ref = xstrfmt("refs/series/%s/v%d-ids", br, v);
	char *spec = xstrfmt("series/%s/v%d-base..series/%s/v%d", br, v, br, v);
	struct range rg = { "", "", NULL };
	struct rcommits rc = { 0 };
	struct source src = SOURCE_INIT;
	struct plan p = PLAN_INIT;
	struct owners ow = { 0 };
	int r = read_blob(ref, out) ? 0 : resolve_range(spec, &rg) < 0 ||
		read_range_commits(&rg, &rc, "respun") < 0 ||
		source_from_commits(&src, &p, &rc, spec) < 0 ||
		load_owners(&ow, top, NULL) < 0 ||
		owner_facts(&ow, &src, NULL) < 0 ||
		form_ids(&src, &p, &ow, &rc, out) < 0 ? -1 : 0;

	free(ref);
	free(spec);
	free(rg.spec);
	rcommits_release(&rc);
	owners_release(&ow);
	plan_release(&p);
	source_release(&src);
	return r;
}

/* Version v of branch br's map ("COMMIT KEY" a line), as
 * record_version() wrote it, into map; whether it has one. */
static int split_map(const char *br, int v, struct sbuf *map)
{
	char *ref = xstrfmt("refs/series/%s/v%d-split", br, v);

	read_blob(ref, map);
	free(ref);
	return map->len > 0;
}

/* Version v's map of rg's branch into map: 1 read, 0 none (after a
 * warning that the letters say nothing of it). */
static int recorded_split(const struct range *rg, int v, struct sbuf *map)
{
	char *br = range_branch(rg);

	if (!br || !split_map(br, v, map))
		warning("the letters say nothing of v%d: it was not sent "
			"split, or not recorded so (no refs/series/%s/v%d-split)",
			v, br ? br : "", v);
	free(br);
	return map->len > 0;
}

/* The record respin wrote of version v of branch br, as respin_land()
 * writes it: "tip ID" LF, then the fates as the cover letter says them.
 * 1 with the tip in tip (72 bytes) and the fates appended to fates (when
 * not NULL), else 0. */
static int read_respin(const char *br, int v, char *tip, struct sbuf *fates)
{
	char *ref = xstrfmt("refs/series/%s/v%d-respin", br, v);
	struct sbuf blob = SBUF_INIT;
	int r = read_blob(ref, &blob) && blob.len > 45 &&
		!strncmp(blob.buf, "tip ", 4) &&
		is_oid(blob.buf + 4, 40) && blob.buf[44] == '\n';

	if (r) {
		memcpy(tip, blob.buf + 4, 40);
		tip[40] = '\0';
		if (fates)
			sb_add(fates, blob.buf + 45, blob.len - 45);
	}
	free(ref);
	sb_release(&blob);
	return r;
}

/* What respin found for version v of now's branch, where it made the
 * version that ends at now's tip, onto m: 1 so, else 0. */
static int recorded_respin(const struct range *now, int v, struct sbuf *m)
{
	char *br = range_branch(now), tip[72];
	struct sbuf f = SBUF_INIT;
	int r = br && read_respin(br, v, tip, &f) && !strcmp(tip, now->tip);

	if (r)
		sb_add(m, f.buf, f.len);
	free(br);
	sb_release(&f);
	return r;
}

/* git range-diff's words, of the version prev_spec against news
 * ("BASE..TIP"): malloc'd, the strings the caller's. */
static const char **range_diff_words(const char *prev_spec, const char *news)
{
	const char **w = xcalloc(5, sizeof *w);

	w[0] = "range-diff", w[1] = "--no-color", w[2] = prev_spec, w[3] = news;
	return w;
}

/* git range-diff of prev_spec and now's range into out: 0, or -1 after
 * error(). */
static int range_diff(const char *prev_spec, const struct range *now,
		      struct sbuf *out)
{
	char *news = xstrfmt("%s..%s", now->base, now->tip);
	const char **words = range_diff_words(prev_spec, news);
	int st = run_git(&(struct git_run){ .words = words, .out = out });

	free(words);
	free(news);
	return st ? git_failed("git range-diff", st) : 0;
}

/* The two headings of a new version's notes, worded as git format-patch
 * --range-diff words its own: of says whose ("" the whole series'). */
static void add_changes_heading(struct sbuf *m, int was, const char *since,
				const char *of)
{
	sb_addf(m, "Changes since v%d (%s)%s:\n", was, since, of);
}

static void add_range_diff_heading(struct sbuf *m, int was, const char *of)
{
	sb_addf(m, "\nRange-diff%s against v%d:\n", of, was);
}

/* ---- what became of each patch ------------------------------------------------
 * status follows the last version format recorded until every patch is
 * in: against the upstream refs the user fetched (offline: what git has)
 * and the replies of mboxes.  A patch is applied in a ref when one commit
 * of BASE..REF that touches its files, and is no revert and no stable
 * backport, is it, found uniquely by, in turn: a Link: or Message-Id:
 * naming its Message-Id (b4 am, git am --message-id); its patch id (git
 * patch-id --stable, then again with the histogram diff); its subject,
 * author and files together ("modified").  A later revert of that commit
 * undoes it.  Else a reply saying it was applied answers it; else it is
 * pending, with the tags of its replies and the To: maintainers who have
 * not replied.  Invariant: sent, fate and the version's commits are
 * parallel arrays.
 */
struct sent {
	char *msgid, *cover;    /* its Message-Id, its letter's; or NULL */
	char **to;              /* its To: boxes, lower case */
	size_t nto;
};

/* Whether the patch is in the tree: by its link, its patch id, or
 * edited on the way. */
static int is_applied(const struct fate *f)
{
	return f->state == BY_LINK || f->state == BY_PATCH_ID ||
	       f->state == MODIFIED;
}

/* BASE..REF's commits that touch the series' files, and their patch
 * ids; skip marks reverts and backports, taken those matched. */
struct upstream {
	const char *ref;
	struct rcommits rc;
	struct pids ids;        /* patch ids of what may match */
	struct sbuf diff;       /* and its diffs */
	char *skip, *taken;
};

/* Frees n of each (either may be NULL) and the arrays. */
static void sent_release(struct sent *s, struct fate *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s) {
			free(s[i].msgid);
			free(s[i].cover);
			free_strings(s[i].to, s[i].nto);
		}
		if (f) {
			free(f[i].edited);
			free(f[i].answer);
			free(f[i].replied);
		}
	}
	free(s);
	free(f);
}

/* What format recorded of version tag's mails (refs/series/BRANCH/vN-
 * mails, record_mails' lines after "date SECONDS"): a new array parallel
 * to rc (sent_release() frees it), empty where none is recorded (said
 * unless quiet; tag NULL: none to read); *date gets when it was
 * formatted. */
static struct sent *read_sent(const char *tag, const struct rcommits *rc,
			      time_t *date, int quiet)
{
	struct sent *s = xcalloc(rc->nr + 1, sizeof *s);
	struct sbuf ref = SBUF_INIT, text = SBUF_INIT;
	sb_addf(&ref, "%s-mails", tag ? tag : "");
	int r = tag && read_blob(ref.buf, &text);

	if (!r && tag && !quiet)
		warning("format recorded no mails of %s (no %s): no Link: "
			"and no reply is matched by its Message-Id", tag, ref.buf);
	const char *pos = text.buf, *end = text.buf + text.len;
	for (struct span l; r && next_line(&pos, end, &l);) {
		/* "COMMIT MSGID COVER|- TO..." (record_mails()), or "date
		 * SECONDS" */
		char **w = NULL;
		size_t nw = 0, aw = 0, i = 0;
		for (const char *p = l.p, *e = p + l.len, *sp; p < e; p = sp + 1) {
			sp = memchr(p, ' ', (size_t)(e - p));
			sp = sp ? sp : e;
			GROW(w, nw + 1, aw);
			w[nw++] = xstrndup(p, (size_t)(sp - p));
		}
		if (nw == 2 && !strcmp(w[0], "date"))
			*date = (time_t)scan_number(w[1], NULL, 10);
		while (nw > 2 && i < rc->nr && strcmp(rc->c[i].id, w[0]))
			i++;
		if (nw > 2 && i < rc->nr && !s[i].msgid) {
			free(w[0]);
			s[i].msgid = w[1];
			s[i].cover = strcmp(w[2], "-") ? w[2] : (free(w[2]), NULL);
			memmove(w, w + 3, (nw - 3) * sizeof *w);
			for (s[i].to = w; s[i].nto < nw - 3; s[i].nto++)
				lower_ascii(w[s[i].nto]);
			w = NULL, nw = 0;
		}
		free_strings(w, nw);
	}
	sb_release(&ref);
	sb_release(&text);
	return s;
}

/* The Message-Ids a commit message names: on a "Message-Id: <ID>" line
 * (git am --message-id) or a "Link: URL" line whose last part is ID
 * (b4 am's https://lore.kernel.org/r/ID, %XX escapes undone), each
 * followed by LF, into out. */
static void linked_ids(const char *msg, struct sbuf *out)
{
	const char *pos = msg, *end = msg + strlen(msg);

	for (struct span l; next_line(&pos, end, &l);) {
		struct span v = { NULL, 0 };
		if (l.len > 11 && !strncasecmp(l.p, "Message-Id:", 11))
			v = trim_span((struct span){ l.p + 11, l.len - 11 });
		else if (l.len > 5 && !strncasecmp(l.p, "Link:", 5))
			v = trim_span((struct span){ l.p + 5, l.len - 5 });
		if (v.len && *v.p == '<' && v.p[v.len - 1] == '>')
			v = (struct span){ v.p + 1, v.len - 2 };
		else if (v.len) {
			while (v.len && v.p[v.len - 1] == '/')
				v.len--;
			const char *slash = memrchr_bytes(v.p, v.len, '/');
			if (slash)
				v = (struct span){ slash + 1, v.len - (size_t)(slash + 1 - v.p) };
		}
		for (size_t k = 0; k < v.len; k++) {
			if (v.p[k] == '%' && k + 2 < v.len && hexval(v.p[k + 1]) >= 0 &&
			    hexval(v.p[k + 2]) >= 0) {
				sb_addc(out, hexval(v.p[k + 1]) * 16 + hexval(v.p[k + 2]));
				k += 2;
			} else
				sb_addc(out, v.p[k]);
		}
		if (v.len)
			sb_addc(out, '\n');
	}
}

/* Whether commit message msg reverts or backports another: "This reverts
 * commit X", "commit X upstream.", "[ Upstream commit X ]". */
static int not_a_patch(const char *msg)
{
	char *low = xstrdup(msg);

	lower_ascii(low);
	int r = !strncmp(low, "revert \"", 8) || str_find(low, "this reverts commit ") ||
		str_find(low, "upstream commit ");
	for (const char *p = low; !r && (p = str_find(p, "commit ")); p += 7) {
		size_t n = strspn(p + 7, "0123456789abcdef");
		r = n >= 12 && !strncmp(p + 7 + n, " upstream", 9);
	}
	free(low);
	return r;
}

/* Whether commit c touches one of the n paths of sorted (cmp_str). */
static int touches(const struct rcommit *c, char *const *sorted, size_t n)
{
	for (size_t k = 0; n && k < c->npath; k++)
		if (bsearch(&c->path[k], sorted, n, sizeof *sorted, cmp_str))
			return 1;
	return 0;
}

/* The paths of rc's commits (those keep marks; NULL: all), sorted, into
 * *path (the caller frees the array, not the strings); how many. */
static size_t paths_of(const struct rcommits *rc, const char *keep,
		       char ***path)
{
	size_t np = 0, a = 0;

	*path = NULL;
	for (size_t i = 0; i < rc->nr; i++)
		for (size_t k = 0; (!keep || keep[i]) && k < rc->c[i].npath; k++) {
			GROW(*path, np + 1, a);
			(*path)[np++] = rc->c[i].path[k];
		}
	sort_n(*path, np, sizeof **path, cmp_str);
	return np;
}

/* rc's paths that git finds renamed between from and to, within the
 * directories of those paths (a rename elsewhere is not the same patch's
 * file), replaced by their new names: a patch of a file upstream renamed
 * is the next version's patch of the new name, changed, not gone with a
 * new one beside it.  0, or -1 after error(). */
static int follow_renames(struct rcommits *rc, const char *from, const char *to)
{
	const char *head[] = { "diff", "-z", "--name-status", "-M",
			       "--diff-filter=R", "--no-ext-diff", from, to, "--" };
	size_t nh = sizeof head / sizeof *head, nd = 0, a = 0;
	char **dir = NULL;
	struct sbuf out = SBUF_INIT;

	for (size_t i = 0; i < rc->nr; i++)
		for (size_t k = 0; k < rc->c[i].npath; k++) {
			GROW(dir, nd + 1, a);
			dir[nd++] = dir_of(rc->c[i].path[k]);
		}
	sort_unique(dir, &nd, 1);
	const char **words = xcalloc(nh + nd + 1, sizeof *words);
	memcpy(words, head, sizeof head);
	memcpy(words + nh, dir, nd * sizeof *dir);
	int r = nd ? git_ok("git diff", &(struct git_run){ .words = words,
			   .out = &out }) : 0;
	/* "R100" NUL OLD NUL NEW NUL, a rename each */
	for (const char *p = out.buf, *e = p + out.len; !r && p < e;) {
		const char *old = p + strlen(p) + 1;
		const char *new = old < e ? old + strlen(old) + 1 : e;
		if (new >= e)
			break;
		for (size_t i = 0; i < rc->nr; i++)
			for (size_t k = 0; k < rc->c[i].npath; k++)
				if (!strcmp(rc->c[i].path[k], old)) {
					free(rc->c[i].path[k]);
					rc->c[i].path[k] = xstrdup(new);
				}
		p = new + strlen(new) + 1;
	}
	free(words);
	free_strings(dir, nd);
	sb_release(&out);
	return r;
}

/* Reads the commits of BASE..u->ref (base: the version's) that touch the
 * series' files: one git log of the names, filtered here (a log limited
 * by a thousand pathspecs takes ten times as long). */
static int read_upstream(struct upstream *u, const char *base,
			 const struct rcommits *rc)
{
	char id[72];
	struct sbuf spec = SBUF_INIT;
	char **path;
	size_t w = 0;

	if (resolve_commit_quietly(u->ref, id) < 0)
		return error("status: '%s' is no commit here (fetch it)", u->ref);
	size_t np = paths_of(rc, NULL, &path);
	sb_addf(&spec, "%s..%s", base, id);
	const char *words[] = { "log", "--reverse", "--no-merges", "--no-renames",
				"--name-only", "-z", "--no-show-signature",
				"--date=raw", COMMITS_FORMAT, spec.buf, "--", NULL };
	int r = log_commits(words, &u->rc);
	for (size_t j = 0; j < u->rc.nr; j++) {
		if (!touches(&u->rc.c[j], path, np)) {
			rcommit_release(&u->rc.c[j]);
			continue;
		}
		u->rc.c[w++] = u->rc.c[j];
	}
	u->rc.nr = w;
	u->skip = xcalloc(u->rc.nr + 1, 1);
	u->taken = xcalloc(u->rc.nr + 1, 1);
	for (size_t j = 0; j < u->rc.nr; j++)
		u->skip[j] = (char)not_a_patch(u->rc.c[j].msg);
	free(path);
	sb_release(&spec);
	return r;
}

static void upstream_release(struct upstream *u)
{
	rcommits_release(&u->rc);
	pids_release(&u->ids);
	sb_release(&u->diff);
	free(u->skip);
	free(u->taken);
}

/* The one commit of u, not skipped nor taken, that is(c, j) holds for;
 * u->rc.nr where none or several.  A commit that names the patch by its
 * Message-Id is it though another patch took it (shared): two patches
 * squashed into one commit, each with its Link:. */
static size_t only_commit(const struct upstream *u, int (*is)(const void *, size_t),
			  const void *c, int shared)
{
	size_t hit = u->rc.nr;

	for (size_t j = 0; j < u->rc.nr; j++)
		if (!u->skip[j] && (shared || !u->taken[j]) && is(c, j)) {
			if (hit < u->rc.nr)
				return u->rc.nr;
			hit = j;
		}
	return hit;
}

/* What the predicates of only_commit() compare: patch i's facts. */
struct wanted {
	const struct upstream *u;
	const char *msgid, *pid;
	const struct pids *ids;     /* u's patch ids to compare pid with */
	const struct sbuf *links;   /* per upstream commit, linked_ids() */
	const struct rcommit *c;
	const char *subject;
};

static int names_msgid(const void *w, size_t j)
{
	const struct wanted *x = w;
	const char *pos = x->links[j].buf, *end = pos + x->links[j].len;

	for (struct span l; x->msgid && next_line(&pos, end, &l);)
		if (span_is(l, x->msgid, strlen(x->msgid)))
			return 1;
	return 0;
}

static int same_patch_id(const void *w, size_t j)
{
	const struct wanted *x = w;
	const char *pid = patch_of(x->ids, x->u->rc.c[j].id);

	return x->pid && pid && !strcmp(pid, x->pid);
}

/* A subject less its "[PATCH ...]" tags and case, for comparing. */
static char *plain_subject(const char *msg)
{
	size_t n, m;
	const char *text;
	int reply;
	char *s = subject_of(msg), *r;

	patch_subject(s, &n, &m, &text, &reply);
	r = xstrdup(text);
	lower_ascii(r);
	free(s);
	return r;
}

static int same_commit_facts(const void *w, size_t j)
{
	const struct wanted *x = w;
	const struct rcommit *t = &x->u->rc.c[j];

	struct span a = address_of(t->author).box;
	struct span b = address_of(x->c->author).box;
	if (t->npath != x->c->npath || a.len != b.len ||
	    strncasecmp(a.p, b.p, a.len))
		return 0;
	for (size_t k = 0; k < t->npath; k++)
		if (strcmp(t->path[k], x->c->path[k]))
			return 0;
	char *s = plain_subject(t->msg);
	int r = !strcmp(s, x->subject);
	free(s);
	return r;
}

/* The commit of u that reverts commit id, or NULL. */
static const char *reverted_by(const struct upstream *u, const char *id)
{
	char needle[40];

	fmt_buf(needle, sizeof needle, "reverts commit %.12s", id);
	for (size_t j = 0; j < u->rc.nr; j++)
		if (u->skip[j] && str_find(u->rc.c[j].msg, needle))
			return u->rc.c[j].id;
	return NULL;
}

/* Patch i of rc found as commit j of u, by how. */
static void applied_as(struct fate *f, struct upstream *u, size_t j, int how)
{
	const char *rev = reverted_by(u, u->rc.c[j].id);

	u->taken[j] = 1;
	f->state = rev ? REVERTED : how;
	f->ref = u->ref;
	memcpy(f->commit, u->rc.c[j].id, sizeof f->commit);
	if (rev)
		memcpy(f->revert, rev, strlen(rev) + 1);
}

/* A file's change in one commit: the lines it adds and removes (not its
 * context, whose lines move as the tree does). */
struct fchange {
	char id[41];
	char *path;
	struct sbuf lines;
};

/* The changes in diff (commit_patch_ids' diffs); *v gets n of them, which
 * the caller frees (fchanges_free). */
static void read_fchanges(const struct sbuf *diff, struct fchange **v,
			  size_t *n)
{
	const char *pos = diff->buf, *end = diff->buf + diff->len;
	char id[41] = "";
	size_t a = 0;

	for (struct span l; next_line(&pos, end, &l);) {
		if (l.len == 40 && is_oid(l.p, 40))
			memcpy(id, l.p, 40), id[40] = '\0';
		else if (l.len > 11 && !memcmp(l.p, "diff --git ", 11)) {
			const char *b = find_bytes(l.p, l.len, " b/", 3);
			GROW(*v, *n + 1, a);
			struct fchange *c = &(*v)[(*n)++];
			memcpy(c->id, id, sizeof c->id);
			c->path = b ? xstrndup(b + 3, l.len - (size_t)(b + 3 - l.p)) :
				      xstrdup("");
			sb_init(&c->lines);
		} else if (*n && l.len && (*l.p == '+' || *l.p == '-') &&
			   !(l.len >= 4 && (!memcmp(l.p, "+++ ", 4) ||
					    !memcmp(l.p, "--- ", 4)))) {
			sb_add(&(*v)[*n - 1].lines, l.p, l.len);
			sb_addc(&(*v)[*n - 1].lines, '\n');
		}
	}
}

static void fchanges_free(struct fchange *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		sb_release(&v[i].lines);
	}
	free(v);
}

/* The files whose change differs between commits a and b, ", "-joined,
 * or NULL: none. */
static char *differing_files(const struct fchange *v, size_t n, const char *a,
			     const char *b)
{
	struct sbuf out = SBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		int mine = !strcmp(v[i].id, a);
		if (!mine && strcmp(v[i].id, b))
			continue;
		size_t k = 0;
		while (k < n && (strcmp(v[k].id, mine ? b : a) ||
				 strcmp(v[k].path, v[i].path)))
			k++;
		int same = k < n && v[k].lines.len == v[i].lines.len &&
			   !memcmp(v[k].lines.buf, v[i].lines.buf, v[i].lines.len);
		if (!same && (mine || k == n))
			sb_addf(&out, "%s%s", out.len ? ", " : "", v[i].path);
	}
	return out.len ? sb_detach(&out, NULL) : NULL;
}

/* "ID\n" of the commits a patch id may match in: the patches of rc
 * still pending (or, with mine, found by link in u) that share a file
 * with a commit of u still free, and those commits (or the ones found
 * by link). */
static void may_match(const struct upstream *u, const struct rcommits *rc,
		      const struct fate *f, int linked, struct sbuf *ids)
{
	char **path, *free_one = xcalloc(u->rc.nr + 1, 1);

	for (size_t j = 0; j < u->rc.nr; j++)
		if (!u->skip[j] && u->taken[j] == (char)linked) {
			sb_addf(ids, "%s\n", u->rc.c[j].id);
			free_one[j] = !linked;
		}
	size_t np = paths_of(&u->rc, free_one, &path);
	free(free_one);
	for (size_t i = 0; i < rc->nr; i++)
		if (linked ? f[i].state == BY_LINK && f[i].ref == u->ref :
		    f[i].state == PENDING && touches(&rc->c[i], path, np))
			sb_addf(ids, "%s\n", rc->c[i].id);
	free(path);
}

/* The files each patch found in u by link or by its facts changes
 * otherwise than the commit there, from u's diffs. */
static void edited_files(const struct upstream *u, const struct rcommits *rc,
			 struct fate *f)
{
	struct fchange *v = NULL;
	size_t n = 0;

	read_fchanges(&u->diff, &v, &n);
	for (size_t i = 0; i < rc->nr; i++)
		if ((f[i].state == BY_LINK || f[i].state == MODIFIED) &&
		    f[i].ref == u->ref)
			f[i].edited = differing_files(v, n, rc->c[i].id, f[i].commit);
	fchanges_free(v, n);
}

/* Adds patch id hex to sum, as git patch-id --stable adds a commit's
 * files' hashes: little-endian numbers of n bytes, carried over. */
UNIT void add_patch_id(unsigned char *sum, const char *hex, size_t n)
{
	unsigned carry = 0;

	for (size_t i = 0; i < n; i++) {
		carry += sum[i] + (unsigned)(hexval(hex[2 * i]) << 4 |
					     hexval(hex[2 * i + 1]));
		sum[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* Patches squashed into one commit of u as they were sent: that
 * commit's patch id is the sum of theirs, the files of each are among
 * its files, and there are two or more.  Each commit of u against the
 * patches of rc whose files it holds all of, pending or found there by
 * a Link: (the one the maintainer's commit names). */
static void squashes(struct upstream *u, const struct rcommits *rc,
		     struct fate *f)
{
	char *in = xcalloc(rc->nr + 1, 1);

	for (size_t j = 0; j < u->rc.nr; j++) {
		const struct rcommit *t = &u->rc.c[j];
		const char *pid = patch_of(&u->ids, t->id), *one;
		unsigned char sum[32] = { 0 }, want[32] = { 0 };
		size_t n = 0, len;
		if (u->skip[j] || !pid || (len = strlen(pid) / 2) > sizeof sum)
			continue;
		add_patch_id(want, pid, len);
		for (size_t i = 0; i < rc->nr; i++) {
			size_t k = 0, q = 0;
			in[i] = f[i].state == PENDING || (f[i].state == BY_LINK &&
							  !strcmp(f[i].commit, t->id));
			for (; in[i] && k < rc->c[i].npath; k++) {
				while (q < t->npath && strcmp(t->path[q],
							     rc->c[i].path[k]))
					q++;
				in[i] = q < t->npath;
			}
			/* its id looked up last: most patches share no file */
			in[i] = in[i] && (one = patch_of(&u->ids, rc->c[i].id));
			if (in[i] && ++n)
				add_patch_id(sum, one, len);
		}
		for (size_t i = 0; n > 1 && !memcmp(sum, want, len) && i < rc->nr; i++)
			if (in[i]) {
				if (f[i].state == PENDING)
					applied_as(&f[i], u, j, BY_PATCH_ID);
				f[i].squashed = n;
			}
	}
	free(in);
}

/* Which patches of rc upstream u holds, into f: by link; by patch id,
 * git's diff and then the histogram one, of what may match (one diff of
 * those commits, kept for edited_files); by subject, author and files. */
static int match_upstream(struct upstream *u, const struct rcommits *rc,
			  const struct sent *s, struct fate *f)
{
	struct sbuf *links = xcalloc(u->rc.nr + 1, sizeof *links);
	struct sbuf ids = SBUF_INIT, hdiff = SBUF_INIT;
	struct pids hist = PIDS_INIT;
	int r = 0;

	for (size_t j = 0; j < u->rc.nr; j++)
		linked_ids(u->rc.c[j].msg, &links[j]);
	for (int pass = 0; pass < 4 && !r; pass++) {
		const struct pids *pids = pass == 2 ? &hist : &u->ids;
		sb_setlen(&ids, 0);
		if (pass == 1) {
			may_match(u, rc, f, 1, &ids);
			may_match(u, rc, f, 0, &ids);
			r = commit_patch_ids(ids.buf, NULL, &u->ids, &u->diff);
		} else if (pass == 2) {
			may_match(u, rc, f, 0, &ids);
			r = commit_patch_ids(ids.buf, "histogram", &hist, &hdiff);
		}
		for (size_t i = 0; i < rc->nr && !r; i++) {
			if (f[i].state != PENDING)
				continue;
			char *subj = pass == 3 ? plain_subject(rc->c[i].msg) : NULL;
			struct wanted w = { u, s[i].msgid, patch_of(pids, rc->c[i].id),
					    pids, links, &rc->c[i], subj };
			size_t j = only_commit(u, pass == 0 ? names_msgid : pass < 3 ?
					       same_patch_id : same_commit_facts, &w,
					       pass == 0);
			if (j < u->rc.nr)
				applied_as(&f[i], u, j, pass == 0 ? BY_LINK : pass < 3 ?
					   BY_PATCH_ID : MODIFIED);
			free(subj);
		}
		if (pass == 1 && !r)
			squashes(u, rc, f);
	}
	if (!r)
		edited_files(u, rc, f);
	for (size_t j = 0; j < u->rc.nr; j++)
		sb_release(&links[j]);
	free(links);
	sb_release(&ids);
	pids_release(&hist);
	sb_release(&hdiff);
	return r;
}

/* Which patches reply m answers, marked in hit[]: the patch, or all of
 * the letter, its In-Reply-To or References name (nearest first) by the
 * Message-Ids format recorded; else the one trailers finds for it. */
static void answered_patches(const struct mbox *mb, const struct mbox_msg *m,
			     const struct rcommits *rc, char *const *subj,
			     const struct sent *s, int v, char *hit)
{
	const char *chain[65];
	const struct mbox_msg *pm;
	size_t nc = 0;

	if (m->in_reply_to)
		chain[nc++] = m->in_reply_to;
	for (size_t i = m->nrefs; i-- > 0 && nc < 65;)
		chain[nc++] = m->refs[i];
	for (size_t k = 0; k < nc; k++) {
		int any = 0;
		for (size_t i = 0; i < rc->nr && !any; i++)
			any = hit[i] = (char)is_msgid(chain[k], s[i].msgid);
		for (size_t i = 0; i < rc->nr && !any; i++)
			hit[i] = (char)is_msgid(chain[k], s[i].cover);
		for (size_t i = 0; i < rc->nr; i++)
			any |= hit[i];
		if (any)
			return;
	}
	size_t c = reply_target(mb, m, rc, subj, &pm);
	const char *said = pm && pm->subject ? pm->subject : m->subject;
	int sv = said ? subject_version(said) : 0;
	if (sv && sv != v)
		return;         /* of another version: its patch may differ */
	if (c == COVER)
		memset(hit, 1, rc->nr);
	else if (c < rc->nr)
		hit[c] = 1;
}

/* Whether thank-you mail m, answering patch subject subj among others,
 * says that one was applied: its list names it, or it lists none and is
 * not a "(subset)". */
static int thanks_for(const struct mbox_msg *m, const char *subj)
{
	for (size_t k = 0; k < m->nlisted; k++)
		if (!strcasecmp(m->listed[k], subj))
			return 1;
	return !m->nlisted && !(m->subject && str_find(m->subject, "(subset)"));
}

/* The replies of mb to version v onto f: who of each patch's To: replied, which
 * pending patches a reply says were applied, and which it NAKs. */
static void read_answers(const struct mbox *mb, const struct rcommits *rc,
			 char *const *subj, const struct sent *s, int v,
			 struct fate *f)
{
	char *hit = xcalloc(rc->nr + 1, 1);

	for (size_t i = 0; i < rc->nr; i++)
		f[i].replied = xcalloc(s[i].nto + 1, 1);
	for (size_t r = 0; r < mb->n; r++) {
		const struct mbox_msg *m = &mb->m[r];
		struct span from = address_of(m->from).box;
		memset(hit, 0, rc->nr);
		answered_patches(mb, m, rc, subj, s, v, hit);
		for (size_t i = 0; i < rc->nr; i++) {
			for (size_t k = 0; hit[i] && k < s[i].nto; k++)
				f[i].replied[k] |= (char)(strlen(s[i].to[k]) == from.len &&
					!strncasecmp(s[i].to[k], from.p, from.len));
			if (hit[i] && m->nak && f[i].state == PENDING) {
				f[i].state = NAKED;
				f[i].answer = xstrdup(m->nak);
			} else if (hit[i] && m->applied && f[i].state == PENDING &&
			    thanks_for(m, subj[i])) {
				f[i].state = ANSWERED;
				f[i].answer = xstrfmt("%s: \"%s\"", m->from ? m->from :
						      "someone", m->applied);
			}
		}
	}
	free(hit);
}

/* Patch i's line of details: where it went, or what it waits for. */
static void add_fate_details(struct sbuf *sb, const struct fate *f,
			     const struct sent *s, const struct additions *ad,
			     size_t i, long days)
{
	static const char *const how[] = { "", "Link:", "patch id",
		"subject, author and files" };

	if (is_applied(f)) {
		sb_addf(sb, "in %s as %.12s (%s", f->ref, f->commit, how[f->state]);
		if (f->squashed)
			sb_addf(sb, "; one of %zu patches squashed there",
				f->squashed);
		sb_addc(sb, ')');
		if (f->edited)
			sb_addf(sb, "; changed there: %s", f->edited);
	} else if (f->state == REVERTED)
		sb_addf(sb, "in %s as %.12s, reverted by %.12s", f->ref,
			f->commit, f->revert);
	else if (f->state == ANSWERED)
		sb_addf(sb, "%s (in no ref given)", f->answer);
	else if (f->state == NAKED)
		sb_addf(sb, "%s: rework it, or drop it", f->answer);
	if (f->state == PENDING || f->state == REVERTED) {
		sb_addf(sb, "%sformatted %ld day%s ago", f->state == REVERTED ?
			"; " : "", days, days == 1 ? "" : "s");
		for (size_t k = 0; k < ad->n; k++)
			if (ad->v[k].c == i)
				sb_addf(sb, "; %s", ad->v[k].line);
		size_t w = 0;
		for (size_t k = 0; k < s->nto; k++)
			if (!f->replied[k])
				sb_addf(sb, "%s%s", w++ ? ", " : "; waiting on ",
					s->to[k]);
	}
}

/* The key as a reader follows it: a T: line's URL and branch, without
 * its SCM's name ("git"); any other key (a list, a section's title) as
 * it is. */
static const char *key_url(const char *key)
{
	const char *sp = strchr(key, ' ');

	return sp && !memchr(key, ':', (size_t)(sp - key)) &&
	       str_find(sp + 1, "://") ? sp + 1 : key;
}

/* A key's short name, malloc'd: a tree's last two path components
 * without ".git", then its branch ("tip/tip timers/core" of "git
 * git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip.git
 * timers/core"); a list's address or a section's title as it is; NULL
 * for none. */
static char *key_name(const char *key)
{
	if (!key || !*key)
		return NULL;
	const char *url = key_url(key);
	if (!str_find(url, "://"))
		return xstrdup(key);
	const char *end = url + strcspn(url, " "), *e = end, *at;
	while (e > url && e[-1] == '/')
		e--;
	int k = 0;
	for (at = e; at > url && !(at[-1] == '/' && ++k == 2); at--)
		;
	size_t n = (size_t)(e - at);
	if (n > 4 && !memcmp(e - 4, ".git", 4))
		n -= 4;
	return xstrfmt("%.*s%s", (int)n, at, end);
}

static int same_key(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Who of the To: of patches still out has not answered, with how many
 * of them and which (1-based). */
struct waiter {
	const char *box;
	struct sbuf which;
	size_t n;
};

static int cmp_waiter(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;

	return x->n != y->n ? (x->n > y->n ? -1 : 1) : strcmp(x->box, y->box);
}

/* The maintainers still owed an answer, most patches first, onto out;
 * how many. */
static size_t add_waiting(struct sbuf *out, const struct sent *s,
			  const struct fate *f, size_t n)
{
	struct waiter *w = NULL;
	size_t nw = 0, a = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; (f[i].state == PENDING || f[i].state == REVERTED) &&
				   k < s[i].nto; k++) {
			if (f[i].replied[k])
				continue;
			size_t j = 0;
			while (j < nw && strcmp(w[j].box, s[i].to[k]))
				j++;
			if (j == nw) {
				GROW(w, nw + 1, a);
				w[nw++] = (struct waiter){ s[i].to[k], SBUF_INIT, 0 };
			}
			sb_addf(&w[j].which, "%s%zu", w[j].n++ ? ", " : "", i + 1);
		}
	sort_n(w, nw, sizeof *w, cmp_waiter);
	for (size_t j = 0; j < nw; j++) {
		sb_addf(out, "%s  %s: %zu patch%s (%s)\n", j ? "" : "waiting on:\n",
			w[j].box, w[j].n, w[j].n == 1 ? "" : "es", w[j].which.buf);
		sb_release(&w[j].which);
	}
	free(w);
	return nw;
}

/* Where the version went out split (map: its "COMMIT KEY" lines), each
 * series in the order of its first patch, with what became of its
 * patches and which are still out (1-based): whose tree is done, whose
 * owes the campaign patches. */
static void add_by_series(struct sbuf *out, const struct rcommits *rc,
			  const struct fate *f, const char *map)
{
	char *done = xcalloc(rc->nr + 1, 1);
	struct span *of = xcalloc(rc->nr + 1, sizeof *of);   /* each one's */
	size_t series = 0;

	for (size_t i = 0; map && *map && i < rc->nr; i++)
		of[i] = mapped_key(map, rc->c[i].id);
	for (size_t i = 0; map && *map && i < rc->nr; i++) {
		struct span key = of[i];
		if (done[i] || !key.p)
			continue;
		size_t n = 0, in = 0;
		struct sbuf still = SBUF_INIT;
		for (size_t j = i; j < rc->nr; j++) {
			if (done[j] || !of[j].p || !span_is(of[j], key.p, key.len))
				continue;
			done[j] = 1;
			n++;
			if (is_applied(&f[j]))
				in++;
			else
				sb_addf(&still, "%s%zu", still.len ? ", " : "", j + 1);
		}
		char *k = xstrndup(key.p, key.len), *name = key_name(k);
		sb_addf(out, "%s  %s: %zu of %zu applied", series++ ? "" :
			"by series:\n", name ? name : "none named", in, n);
		if (still.len)
			sb_addf(out, "; still out: %s", still.buf);
		sb_addc(out, '\n');
		free(name);
		free(k);
		sb_release(&still);
	}
	free(of);
	free(done);
}

/* The status of each patch, the summary, each series' where the version
 * went out split (map, or NULL), who owes an answer; whether every patch
 * is applied. */
static int print_status(const struct rcommits *rc, char *const *subj,
			const struct sent *s, const struct fate *f,
			const struct additions *ad, long days, const char *map)
{
	static const char *const word[] = { "pending", "applied", "applied",
		"modified", "reverted", "answered", "NAKed" };
	/* what asks the most of the user first: NAKed, reverted, pending,
	 * answered, applied */
	static const char rank[] = { 2, 4, 4, 4, 1, 3, 0 };
	size_t count[7] = { 0 }, tagged = 0, applied = 0, width = 0;
	struct sbuf line = SBUF_INIT, waiting = SBUF_INIT;

	for (size_t i = 0; i < rc->nr; i++) {
		size_t tags = 0;
		for (size_t k = 0; k < ad->n; k++)
			tags += ad->v[k].c == i;
		tagged += tags > 0;
		count[f[i].state]++;
		applied += is_applied(&f[i]);
		size_t len = strlen(subj[i]);
		if (len > width)
			width = len < 50 ? len : 50;
	}
	for (char r = 0; r < 5; r++)
		for (size_t i = 0; i < rc->nr; i++) {
			if (rank[f[i].state] != r)
				continue;
			sb_setlen(&line, 0);
			add_fate_details(&line, &f[i], &s[i], ad, i, days);
			xfprintf(1, "%3zu %-8s %-*s  %s\n", i + 1,
				 word[f[i].state], (int)width, subj[i], line.buf);
		}
	add_by_series(&waiting, rc, f, map);
	size_t nw = add_waiting(&waiting, s, f, rc->nr);
	xfprintf(1, "%zu patch%s: %zu applied (%zu link, %zu patch-id, %zu modified), "
		 "%zu answered, ", rc->nr, rc->nr == 1 ? "" : "es", applied,
		 count[BY_LINK], count[BY_PATCH_ID], count[MODIFIED], count[ANSWERED]);
	if (count[REVERTED])
		xfprintf(1, "%zu reverted, ", count[REVERTED]);
	if (count[NAKED])
		xfprintf(1, "%zu NAKed, ", count[NAKED]);
	xfprintf(1, "%zu pending, %zu with tags; waiting on %zu maintainer%s\n%s",
		 count[PENDING], tagged, nw, nw == 1 ? "" : "s", waiting.buf);
	sb_release(&line);
	sb_release(&waiting);
	return applied == rc->nr;
}

/* The one answer to "what became of each patch" of the version tag
 * names (NULL: none recorded, so no Link: can name one; rc its commits,
 * v its number), into f: applied or reverted in one of the nref refs since
 * base (read_upstream(), match_upstream()), else answered or NAKed by the
 * replies of mb (read_answers(); NULL: none), else pending; sent, what
 * format recorded of its mails, where the caller has read it (NULL: read
 * here).  status, respin, and through prev_open() format -v N and
 * trailers --from ask it.  0, or -1 after error(). */
static int version_fates(const char *tag, const char *const *ref, size_t nref,
			 const char *base, const struct rcommits *rc,
			 const struct sent *sent, const struct mbox *mb, int v,
			 struct fate *f)
{
	time_t date;
	struct sent *own = sent ? NULL : read_sent(tag, rc, &date, 0);
	const struct sent *s = sent ? sent : own;
	char **subj = commit_subjects(rc);
	int r = 0;

	for (size_t k = 0; k < nref && !r; k++) {
		struct upstream u = { ref[k], { 0 }, PIDS_INIT, SBUF_INIT, NULL,
				      NULL };
		r = read_upstream(&u, base, rc);
		if (!r)
			r = match_upstream(&u, rc, s, f);
		upstream_release(&u);
	}
	if (!r && mb)
		read_answers(mb, rc, subj, s, v, f);
	free_strings(subj, rc->nr);
	sent_release(own, NULL, rc->nr);
	return r;
}

/* The previous version against this one (format -v N): its commits,
 * what upstream did with them (up, per commit: version_fates()), the
 * patch ids of its commits and of the new ones; taken marks the new
 * commits a previous one became. */
struct prev_version {
	struct range old;
	struct rcommits prev;
	struct fate *up;
	struct pids oldids, newids;
	char *taken;
	struct became *became;  /* per previous commit */
};
#define PREV_VERSION_INIT { .old = { "", "", NULL } }

static void prev_close(struct prev_version *rs)
{
	free(rs->old.spec);
	if (rs->up)
		sent_release(NULL, rs->up, rs->prev.nr);
	rcommits_release(&rs->prev);
	pids_release(&rs->oldids);
	pids_release(&rs->newids);
	free(rs->taken);
	free(rs->became);
}

/* Whether c and d share a path. */
static int share_a_file(const struct rcommit *c, const struct rcommit *d)
{
	for (size_t a = 0; a < c->npath; a++)
		for (size_t b = 0; b < d->npath; b++)
			if (!strcmp(c->path[a], d->path[b]))
				return 1;
	return 0;
}

/* The one answer to "what became of each patch of the last version in
 * the next": per prev commit (a new array, prev->nr + 1 long), the next
 * commit it became, each taken by one only (taken, per next commit): in
 * three passes, the one of its patch id (unchanged; pids and npids map
 * commits to patch ids); unless upstream applied it (up, as
 * version_fates() found: gone, applied as that commit), the first of its
 * subject, else the first sharing a file with it (changed).  A next commit
 * without a message (respin's groups, before they have one) has no
 * subject to match. */
UNIT struct became *became_of(const struct rcommits *prev, const struct pids *pids,
			 const struct rcommits *next, const struct pids *npids,
			 const struct fate *up, char *taken)
{
	struct became *b = xcalloc(prev->nr + 1, sizeof *b);

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < prev->nr; i++) {
			char *subj = subject_of(prev->c[i].msg);
			const char *pid = pass ? NULL : patch_of(pids, prev->c[i].id);
			const char *same = pid ? commit_of(npids, pid) : NULL;
			if (!pass)
				b[i].to = next->nr;
			else if (b[i].to == next->nr && is_applied(&up[i]))
				b[i].up = up[i].commit;
			for (size_t j = 0; b[i].to == next->nr && !b[i].up &&
			     j < next->nr; j++) {
				const struct rcommit *c = &next->c[j];
				char *sj = pass == 1 && c->msg ? subject_of(c->msg) :
					   NULL;
				if (!taken[j] && (!pass ? same && !strcmp(same,
				    c->id) : pass == 1 ? sj &&
				    !strcmp(sj, subj) : share_a_file(&prev->c[i], c)))
					b[i] = (struct became){ j, NULL, !pass },
					taken[j] = 1;
				free(sj);
			}
			free(subj);
		}
	return b;
}

/* Reads the previous version prev_spec against now (rc its commits).
 * 0, or -1 after error(); prev_close() either way. */
static int prev_open(struct prev_version *rs, const char *prev_spec,
		       const struct range *now, const struct rcommits *rc)
{
	struct sbuf spec = SBUF_INIT;
	const char *dots = str_find(prev_spec, "..");
	/* a recorded version (recorded_prev()): its mails name it for Link: */
	char *tag = dots && starts_with(dots + 2, NULL, "series/") ?
		    xstrfmt("refs/%s", dots + 2) : NULL;
	int r;

	*rs = (struct prev_version)PREV_VERSION_INIT;
	rs->taken = xcalloc(rc->nr + 1, 1);
	if (resolve_range(prev_spec, &rs->old) < 0 ||
	    read_range_commits(&rs->old, &rs->prev, "formatted") < 0) {
		free(tag);
		return -1;
	}
	rs->up = xcalloc(rs->prev.nr + 1, sizeof *rs->up);
	sb_addf(&spec, "%s..%s", now->base, now->tip);
	const char *up = now->base;
	r = version_fates(tag, &up, 1, rs->old.base, &rs->prev, NULL, NULL, 0,
			  rs->up) < 0 ||
	    patch_ids(prev_spec, &rs->oldids) < 0 ||
	    patch_ids(spec.buf, &rs->newids) < 0 ? -1 : 0;
	sb_release(&spec);
	free(tag);
	if (!r && !(r = follow_renames(&rs->prev, rs->old.base, now->base)))
		rs->became = became_of(&rs->prev, &rs->oldids, rc, &rs->newids,
				       rs->up, rs->taken);
	return r;
}

/* --from: the trailers of the previous version's commits whose patch id
 * (git patch-id --stable) is a new commit's go to it; those of changed
 * patches are listed as not carried. */
static int carried_trailers(const char *from, const struct range *now,
			    const struct rcommits *rc, struct additions *ad)
{
	struct prev_version pv;
	int r = prev_open(&pv, from, now, rc);

	for (size_t i = 0; !r && i < pv.prev.nr; i++) {
		char **t;
		size_t nt, c = pv.became[i].same ? pv.became[i].to : rc->nr;
		message_trailers(pv.prev.c[i].msg, &t, &nt);
		for (size_t k = 0; k < nt; k++) {
			if (!trailer_tag(t[k], strlen(t[k])))
				continue;
			if (c < rc->nr) {
				add_addition(ad, c, t[k], "carried from the previous "
					     "version: the same patch");
				continue;
			}
			char *s = subject_of(pv.prev.c[i].msg);
			warning("'%s' of %.12s (%s) is not carried: the patch "
				"changed, or is gone", t[k], pv.prev.c[i].id, s);
			free(s);
		}
		free_strings(t, nt);
	}
	prev_close(&pv);
	return r;
}

/* One line of a "Changes since" block, as format's cover letter and
 * respin's record say it: what became of a patch (what: "unchanged",
 * "changed", "new", "gone"; why, where set, in parentheses after it), or
 * where it was applied upstream (up, where set). */
static void add_fate_line(struct sbuf *m, const char *what, const char *why,
			  const char *up, const char *subj)
{
	if (up)
		sb_addf(m, "- applied upstream as %.12s: %s\n", up, subj);
	else
		sb_addf(m, why ? "- %s (%s): %s\n" : "- %s: %s\n", what,
			why ? why : subj, subj);
}

/* The fates of the previous commits a letter speaks for, then its new
 * commits that none became: of those that became a new commit where in
 * (per new commit) says, of the others where orphan (per previous
 * commit) says; NULL: all.  "- applied upstream as X: ", "- unchanged: ",
 * "- changed: ", "- gone ...", "- new: ", each with the subject. */
static void add_fates(struct sbuf *m, const struct prev_version *rs,
		      const struct rcommits *rc, const char *in,
		      const char *orphan)
{
	for (size_t i = 0; i < rs->prev.nr; i++) {
		const struct became *f = &rs->became[i];
		if (f->to < rc->nr ? in && !in[f->to] : orphan && !orphan[i])
			continue;
		char *subj = subject_of(rs->prev.c[i].msg);
		add_fate_line(m, f->to >= rc->nr ? "gone" : f->same ?
			      "unchanged" : "changed", f->to >= rc->nr ? "the "
			      "change no longer touches its files" : NULL,
			      f->up, subj);
		free(subj);
	}
	for (size_t x = 0; x < rc->nr; x++)
		if (!rs->taken[x] && (!in || in[x])) {
			char *sj = subject_of(rc->c[x].msg);
			add_fate_line(m, "new", NULL, NULL, sj);
			free(sj);
		}
}

/* What became of each commit of the previous version (prev_open():
 * applied upstream, as version_fates() finds it on the new base;
 * unchanged, changed or gone, as became_of() says), unless respin
 * recorded it already; then the new commits, and git range-diff of the
 * two, which runs beside the rest (its file in gitdir): each takes as
 * long as the other. */
static int add_respin(struct sbuf *m, const char *prev_spec, int version,
		      const struct range *now, const struct rcommits *rc,
		      const char *gitdir)
{
	struct prev_version rs;
	struct sbuf rd = SBUF_INIT, news = SBUF_INIT;
	struct git_bg rdiff = { 0 };
	int r = -1;

	sb_addf(&news, "%s..%s", now->base, now->tip);
	if (bg_start(&rdiff, gitdir, range_diff_words(prev_spec, news.buf)) < 0) {
		sb_release(&news);
		return -1;
	}
	if (prev_open(&rs, prev_spec, now, rc) < 0)
		goto out;
	if (!recorded_respin(now, version, m)) {
		add_changes_heading(m, version - 1, prev_spec, "");
		add_fates(m, &rs, rc, NULL, NULL);
	}
	int st = bg_finish(&rdiff, &rd);
	if (st) {
		if (st > 0)
			git_failed("git range-diff", st);
		goto out;
	}
	add_range_diff_heading(m, version - 1, "");
	sb_add(m, rd.buf, rd.len);
	sb_addc(m, '\n');
	r = 0;
out:
	bg_finish(&rdiff, NULL);   /* after an early failure: wait, drop it */
	prev_close(&rs);
	sb_release(&news);
	sb_release(&rd);
	return r;
}

/* ---- several series ----------------------------------------------------------
 * A tree-wide change goes out as one series per tree that merges it (or
 * per subsystem), each the size a list takes (struct cut, series.h); the
 * days of the send plan give no list more than max patches a day.
 */

/* The key most of group g's files have in key[] (NULL reads ""), "" only
 * where no file has another, or NULL where two keys tie.  A patch goes
 * to the tree that takes most of it, with its other maintainers' acks,
 * as maintainers route a patch of several trees; a file no tree names
 * (THE REST's include/, doc/) is anyone's, so it does not outvote the
 * others.  test/bench routes measures it (README, Figures). */
static const char *group_key(const struct group *g, char *const *key)
{
	const char **k = xcalloc(g->nr + 1, sizeof *k), *best = "";
	size_t most = 0, run;
	int tie = 0;

	for (size_t j = 0; j < g->nr; j++)
		k[j] = key[g->member[j]] ? key[g->member[j]] : "";
	sort_n(k, g->nr, sizeof *k, cmp_str);
	/* "" sorts first: its run counts only where it is the only one */
	for (size_t i = 0; i < g->nr; i += run) {
		for (run = 1; i + run < g->nr && !strcmp(k[i], k[i + run]); run++)
			;
		if (!*k[i] && i + run < g->nr)
			continue;
		if (run == most)
			tie = 1;
		if (run > most)
			best = k[i], most = run, tie = 0;
	}
	free(k);
	return tie ? NULL : best;
}

/* The leading "WORD: " run the n subjects share, malloc'd ("" none). */
static char *common_cut(char *const *subj, size_t n)
{
	size_t len = n ? cut_len(subj[0], strlen(subj[0])) : 0;

	for (size_t i = 1; i < n && len; i++) {
		size_t m = cut_len(subj[i], strlen(subj[i])), j = 0;
		while (j < len && j < m && subj[i][j] == subj[0][j])
			j++;
		while (j && !(j >= 2 && subj[0][j - 2] == ':' &&
			      subj[0][j - 1] == ' '))
			j--;
		len = j;
	}
	return xstrndup(n ? subj[0] : "", len);
}

/* Tags each cut whose letter would read as another key's does (the same
 * prefix, or none) with its key's short name, or the whole key where
 * that is shared too: on LKML, which every letter of a kernel campaign
 * reaches, two letters "drivers/usb: drop X" tell neither maintainer
 * which is his. */
static void tag_alike(struct cut *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int alike = !*c[i].prefix;
		for (size_t j = 0; j < n && !alike; j++)
			alike = !same_key(c[i].key, c[j].key) &&
				!strcmp(c[i].prefix, c[j].prefix);
		if (alike)
			c[i].tag = key_name(c[i].key);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && c[i].tag; j++)
			if (!same_key(c[i].key, c[j].key) && c[j].tag &&
			    !strcmp(c[i].tag, c[j].tag) &&
			    !strcmp(c[i].prefix, c[j].prefix)) {
				free(c[i].tag);
				c[i].tag = xstrdup(c[i].key);
			}
}

/* The folder-name words of s ("i2c-busses" of "i2c/busses: "), up to an
 * address's '@', after a '-' where d holds some already. */
static void add_name_words(struct sbuf *d, size_t start, const char *s)
{
	if (d->len > start)
		sb_addc(d, '-');
	for (const char *p = s; *p && *p != '@'; p++)
		if (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
			sb_addc(d, *p);
		else if (d->len > start && d->buf[d->len - 1] != '-')
			sb_addc(d, '-');
	while (d->len > start && d->buf[d->len - 1] == '-')
		sb_setlen(d, d->len - 1);
}

/* Names cut i of n by its prefix, else by its list's name, then its tag:
 * "03-i2c-busses", "04-linux-arm", "05-drivers-usb-gregkh-usb", "-part2"
 * after it. */
static void name_cut(struct cut *c, size_t i, size_t n)
{
	struct sbuf d = SBUF_INIT;
	const char *by = *c->prefix || !c->key || !strchr(c->key, '@') ?
			 c->prefix : c->key;

	sb_addf(&d, "%0*zu-", (int)decimal_width(n), i + 1);
	size_t start = d.len;
	add_name_words(&d, start, by);
	if (c->tag && by != c->key)
		add_name_words(&d, start, c->tag);
	if (d.len == start)
		sb_adds(&d, c->key ? "series" : "several");
	if (c->parts > 1)
		sb_addf(&d, "-part%zu", c->part);
	c->dir = sb_detach(&d, NULL);
}

/* The deepest directory that holds every file of c's commits, as a
 * subject prefix ("sound/soc: "), or "" where that is the top. */
static char *cut_dir(const struct cut *c, const struct plan *p,
		     const struct source *src)
{
	struct sbuf d = SBUF_INIT;

	for (size_t j = 0; j < c->n; j++)
		for (size_t x = 0; x < p->g[c->commit[j]].nr; x++) {
			const char *f = src->f[p->g[c->commit[j]].member[x]].path;
			if (!j && !x) {
				char *d0 = dir_of(f);
				sb_adds(&d, d0);
				free(d0);
			}
			common_dir(&d, f);
		}
	if (d.len == 1 && *d.buf == '.')
		sb_setlen(&d, 0);
	else
		sb_adds(&d, ": ");
	return sb_detach(&d, NULL);
}

/* What the letter of c's commits starts its subject with: their
 * subjects' common cut, else their files' common directory. */
static char *cut_prefix(const struct cut *c, const struct plan *p,
			const struct source *src, char *const *subj)
{
	char **cs = xcalloc(c->n + 1, sizeof *cs);

	for (size_t j = 0; j < c->n; j++)
		cs[j] = subj[c->commit[j]];
	char *s = common_cut(cs, c->n);
	free(cs);
	if (!*s) {
		free(s);
		s = cut_dir(c, p, src);
	}
	return s;
}

/* The series of p's groups (a range's commits, subjects subj, files in
 * src) by key, each at most max commits, into *out.  Returns how many. */
UNIT size_t cut_series(const struct plan *p, const struct source *src,
		  char *const *key, char *const *subj, size_t max,
		  struct cut **out)
{
	struct cut *b = xcalloc(p->nr + 1, sizeof *b);   /* whole, by key */
	size_t nb = 0, nc = 0;

	for (size_t k = 0; k < p->nr; k++) {
		const char *gk = group_key(&p->g[k], key);
		size_t i = 0;
		while (i < nb && !(gk && b[i].key && !strcmp(b[i].key, gk)))
			i++;
		if (i == nb)
			b[nb++] = (struct cut){ xcalloc(p->nr + 1, sizeof *b->commit),
						0, gk, 1, 1, NULL, NULL, NULL, 0 };
		b[i].commit[b[i].n++] = k;
	}
	for (size_t i = 0; i < nb; i++)
		nc += (b[i].n + max - 1) / max;
	*out = xcalloc(nc + 1, sizeof **out);
	nc = 0;
	for (size_t i = 0; i < nb; i++) {
		size_t parts = (b[i].n + max - 1) / max, at = 0;
		for (size_t part = 1; part <= parts; part++) {
			size_t size = (b[i].n - at) / (parts - part + 1);
			struct cut *c = &(*out)[nc++];
			*c = (struct cut){ xcalloc(size + 1, sizeof *c->commit), size,
					   b[i].key, part, parts, NULL, NULL, NULL,
					   0 };
			memcpy(c->commit, b[i].commit + at, size * sizeof *c->commit);
			at += size;
			c->prefix = cut_prefix(c, p, src, subj);
		}
		free(b[i].commit);
	}
	free(b);
	tag_alike(*out, nc);
	for (size_t i = 0; i < nc; i++)
		name_cut(&(*out)[i], i, nc);
	return nc;
}

/* What the version map records of a series: its key, "(several)". */
static const char *cut_key(const struct cut *c)
{
	return c->key ? c->key : "(several)";
}

UNIT void cuts_free(struct cut *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++) {
		free(c[i].commit);
		free(c[i].prefix);
		free(c[i].tag);
		free(c[i].dir);
	}
	free(c);
}

/* The send plan's loads: patches a list gets on a day. */
struct load {
	char *list;
	size_t day, n;
};
struct loads {
	struct load *v;
	size_t n, alloc;
};

static size_t *load_of(struct loads *l, struct span list, size_t day)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].day == day && span_caseeq((struct span){ l->v[i].list,
				strlen(l->v[i].list) }, list))
			return &l->v[i].n;
	GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n] = (struct load){ xstrndup(list.p, list.len), day, 0 };
	return &l->v[l->n++].n;
}

/* The first day on which each list of sm may take its patches without
 * getting more than max that day; they are counted in. */
static size_t send_day(struct loads *l, const struct series_mails *sm,
		       size_t max)
{
	struct addresses lists = ADDRESSES_INIT;
	size_t day = 1;

	series_lists(sm, &lists);
	for (size_t i = 0; i < lists.n; i++) {
		size_t had = *load_of(l, lists.v[i].box, day);
		if (had && had + patches_to(sm, lists.v[i].box) > max) {
			day++;
			i = (size_t)-1;         /* every list again, that day */
		}
	}
	for (size_t i = 0; i < lists.n; i++)
		*load_of(l, lists.v[i].box, day) += patches_to(sm, lists.v[i].box);
	addresses_release(&lists);
	return day;
}

/* The list that gets the most patches in all, into *total: the one that
 * sets the send plan's pace (on the kernel, linux-kernel@, which every
 * patch reaches). */
static const char *busiest_list(const struct loads *l, size_t *total)
{
	const char *most = NULL;

	*total = 0;
	for (size_t i = 0; i < l->n; i++) {
		size_t n = 0;
		for (size_t j = 0; j < l->n; j++)
			n += !strcmp(l->v[j].list, l->v[i].list) ? l->v[j].n : 0;
		if (n > *total) {
			*total = n;
			most = l->v[i].list;
		}
	}
	return most;
}

static void loads_release(struct loads *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].list);
	free(l->v);
}

/* ---- respin's run -------------------------------------------------------------
 * What respin does beside the command's steps: the last version read from
 * its record, the pattern run (on the checkout the sinks moved off the
 * branch) with the reading that needs git's objects alone, and the
 * landing, one transaction of the refs.
 */

/* What respin works with: the branch and its last version, the pattern,
 * the new base.  Invariant: moved is set from the moment the marker is
 * written until put_back() or landing removed it. */
struct respin_run {
	struct repo home;       /* the user's work tree, as respin found it */
	const char *br;         /* the branch, "x" of refs/heads/x */
	char onto[72];
	int v;                  /* the last version */
	struct range old;       /* the last version's patches: vN-base..their
				 * tip (respin_source) */
	struct rcommits prev;
	struct pids ids;        /* their patch ids */
	char **argv;            /* the pattern command */
	size_t argc;
	int given;              /* on the command line: record it */
	int moved;              /* the checkout is off the branch */
	size_t *was;            /* per new group, its patch of the last
				 * version, or prev.nr: new */
	struct became *became; /* per old patch: became_of() */
	struct fate *up;        /* per old patch, as status finds it on onto
				 * with the replies (version_fates()) */
	struct mbox mb;         /* the replies (--mbox), read first */
	enum group_by by;       /* the last version's form (respin_form()) */
	char *kept;             /* per old patch, 1: --keep names it */
	char **dropped;         /* per old patch, the tags it lost */
	char **left;            /* per old patch, why the replies leave it
				 * out (answered, NAKed), or NULL */
	char **left_out;        /* "WHY\nSUBJECT" of each patch left out:
				 * those, and those an earlier respin left
				 * out, out again */
	size_t nleft, aleft;
};

/* Whether ranges a and b have the same patches in the same order (git
 * patch-id --stable): 1 or 0, or -1 after error(). */
static int same_patch_ids(const char *a, const char *b)
{
	struct pids ids[2] = { PIDS_INIT, PIDS_INIT };
	int r = patch_ids(a, &ids[0]) < 0 || patch_ids(b, &ids[1]) < 0 ? -1 : 0;

	if (!r)
		r = ids[0].nr == ids[1].nr;
	for (size_t i = 0; r > 0 && i < ids[0].nr; i++)
		r = !strcmp(ids[0].e[i].pid, ids[1].e[i].pid);
	pids_release(&ids[0]);
	pids_release(&ids[1]);
	return r;
}

/* Whether the branch (at tip) is version v as format recorded it (vtip)
 * with other messages only: the same patches in the same order, as
 * trailers or a reword leave them.  Else error() naming the first
 * commit that is no patch of vN, or says that one of vN's is missing. */
static int same_patches(const struct respin_run *rr, const char *vtip)
{
	struct sbuf subj = SBUF_INIT;
	char *a = xstrfmt("series/%s/v%d-base..%s", rr->br, rr->v, vtip);
	char *b = xstrfmt("series/%s/v%d-base..%s", rr->br, rr->v, rr->home.old);
	int r = same_patch_ids(a, b);

	if (r > 0)
		r = 0;
	else if (!r) {
		/* the first commit whose patch is none of vN's (a rewrite by
		 * trailers is no edit) */
		char *sym = xstrfmt("%s...%s", vtip, rr->home.old);
		const char *lw[] = { "log", "--reverse", "--format=%h %s",
				     "--cherry-pick", "--right-only", sym, "--",
				     NULL };
		run_git(&(struct git_run){ .words = lw, .out = &subj, .quiet = 1 });
		free(sym);
		const char *nl = memchr(subj.buf, '\n', subj.len);
		sb_setlen(&subj, nl ? (size_t)(nl - subj.buf) : subj.len);
		r = error("respin: %s is not v%d as it went out: %s%s%s; respin "
			  "would lose that edit: send it as v%d first (series "
			  "format -v %d), or drop it (git reset --keep "
			  "series/%s/v%d)",
			  rr->br, rr->v, subj.len ? "it has " : "a patch of "
			  "it is missing or edited", subj.buf, subj.len ?
			  " since" : "", rr->v + 1, rr->v + 1, rr->br, rr->v);
	}
	free(a);
	free(b);
	sb_release(&subj);
	return r;
}

/* Which commits are the last version (rr->old.tip), read from the
 * records, never from where the branch has gone since: vN as format
 * recorded it, or the branch where that is vN with other messages; where
 * the branch is the version the last respin made, the commits that
 * respin started from (vN+1-from).  A branch with any other change is
 * refused by name: respin would drop it. */
static int respin_source(struct respin_run *rr)
{
	char vtip[72], made[72];
	char *ref = xstrfmt("refs/series/%s/v%d", rr->br, rr->v);
	char *from = xstrfmt("refs/series/%s/v%d-from", rr->br, rr->v + 1);
	int r = resolve_commit(ref, vtip);

	if (!r && read_respin(rr->br, rr->v + 1, made, NULL) &&
	    !strcmp(made, rr->home.old)) {
		if (resolve_commit_quietly(from, rr->old.tip) < 0)
			r = error("respin: %s is the v%d an earlier respin made, "
				  "which recorded no %s: reset it to v%d first "
				  "(git reset --keep series/%s/v%d)", rr->br,
				  rr->v + 1, from, rr->v, rr->br, rr->v);
	} else if (!r) {
		memcpy(rr->old.tip, rr->home.old, sizeof rr->old.tip);
		if (strcmp(vtip, rr->home.old))
			r = same_patches(rr, vtip);
	}
	free(ref);
	free(from);
	return r;
}

/* The pattern's exit status st, as respin reads it: 0, or -1 after
 * error(). */
static int pattern_status(const struct respin_run *rr, int st)
{
	if (st < 0)
		return -1;
	if (st == 127)
		return error("respin: could not run %s; nothing changed", rr->argv[0]);
	if (st)
		return error("respin: %s failed (exit %d); nothing changed",
			     rr->argv[0], st);
	return check_stop("respin");
}

/* The campaign's form and the last version's patch ids (version_ids()):
 * v1's form into rr->by, vN's ids into rr->ids, each given to the commit
 * of rr->prev at its place (trailers may have rewritten them since;
 * same_patches() holds them the same patches in the same order, empty
 * commits aside, which have none).  0, or -1 after error(). */
static int respin_ids(struct respin_run *rr)
{
	struct sbuf first = SBUF_INIT, last = SBUF_INIT;
	int r = version_ids(rr->br, 1, rr->home.top, &first) < 0 ||
		(rr->v > 1 && version_ids(rr->br, rr->v, rr->home.top, &last) < 0);
	const struct sbuf *text = rr->v > 1 ? &last : &first;
	struct pids ids = PIDS_INIT;
	size_t k = 0, n = rr->prev.nr;

	if (!r && first.len > 5)
		rr->by = (enum group_by)scan_number(first.buf + 5, NULL, 10);
	pids_add_text(&ids, text->buf, text->len);
	for (size_t i = 0; !r && i < ids.nr; i++, k++) {
		while (k < n && !rr->prev.c[k].npath)
			k++;
		if (k < n)
			pids_put(&rr->ids, ids.e[i].pid, strlen(ids.e[i].pid),
				 rr->prev.c[k].id, strlen(rr->prev.c[k].id));
	}
	pids_index(&rr->ids);
	if (k > n)      /* not the branch's patches: match by subject */
		pids_release(&rr->ids);
	pids_release(&ids);
	sb_release(&first);
	sb_release(&last);
	return r ? -1 : 0;
}

/* What became of the last version's patches, as status finds it on the
 * new base and in the replies: of its commits as it went out (the record
 * names their Message-Ids; trailers may have rewritten the branch's
 * since), in the same order as the branch's. */
static int respin_fates(struct respin_run *rr)
{
	char *tag = xstrfmt("refs/series/%s/v%d", rr->br, rr->v);
	char *spec = xstrfmt("series/%s/v%d-base..series/%s/v%d", rr->br, rr->v,
			     rr->br, rr->v);
	const char *onto = rr->onto;
	struct range sent = { "", "", NULL };
	struct rcommits rc = { 0 };
	const struct rcommits *of = !resolve_range(spec, &sent) &&
		!read_range_commits(&sent, &rc, "respun") &&
		rc.nr == rr->prev.nr ? &rc : &rr->prev;
	int r = version_fates(tag, &onto, 1, rr->old.base, of, NULL, &rr->mb,
			      rr->v, rr->up);

	free(tag);
	free(spec);
	free(sent.spec);
	rcommits_release(&rc);
	return r;
}

/* While the pattern runs, what needs git's objects alone (the pattern
 * changes files only): the last version's form and what became of its
 * patches.  Their time hides behind the pattern's.  0, or -1 after
 * error(). */
static int respin_meanwhile(void *arg)
{
	struct respin_run *rr = arg;

	rr->up = xcalloc(rr->prev.nr + 1, sizeof *rr->up);
	return respin_ids(rr) < 0 ? -1 : respin_fates(rr);
}

/* The branch moved from the last version to tip, where the checkout is
 * (respin_build() committed there, detached), once, with what respin
 * remembers (the pattern where given, the base as refs/series/BRANCH/
 * onto, the fates for the version that ends at tip: vN-respin, "tip ID"
 * and the cover letter's paragraph): HEAD on the branch again, then one
 * transaction of the refs, which fails if the branch no longer holds what
 * respin read; then the marker gone. */
static int respin_land(struct respin_run *rr, const char *tip,
		       const struct sbuf *fates)
{
	struct sbuf words = SBUF_INIT, in = SBUF_INIT, why = SBUF_INIT;
	char pat[72] = "", said[72];
	int r = 0;

	for (size_t i = 0; rr->given && i < rr->argc; i++)
		sb_add(&words, rr->argv[i], strlen(rr->argv[i]) + 1);
	sb_addf(&in, "tip %s\n%s", tip, fates->buf);
	if ((words.len && write_blob(words.buf, words.len, pat) < 0) ||
	    write_blob(in.buf, in.len, said) < 0)
		r = -1;
	sb_setf(&in, "update %s %s %s\n"
		"update refs/series/%s/onto %s\n"
		"update refs/series/%s/v%d-respin %s\n"
		"update refs/series/%s/v%d-from %s\n", rr->home.ref, tip,
		rr->home.old, rr->br, rr->onto, rr->br, rr->v + 1, said, rr->br,
		rr->v + 1, rr->old.tip);
	if (*pat)
		sb_addf(&in, "update refs/series/%s/pattern %s\n", rr->br, pat);
	sb_addf(&why, "series respin: v%d onto %.12s", rr->v + 1, rr->onto);
	const char *up[] = { "update-ref", "-m", why.buf, "--stdin", NULL };
	const char *sym[] = { "symbolic-ref", "HEAD", rr->home.ref, NULL };
	/* HEAD on the branch first, so that the refs' transaction is the
	 * last git, the commit point: where it fails, put_back() checks the
	 * branch out again as it stands */
	if (!r && git_ok("git symbolic-ref", &(struct git_run){ .words = sym }) < 0)
		r = -1;
	if (!r && run_git(&(struct git_run){ .words = up, .input = in.buf,
					     .inlen = in.len, .quiet = 1 }))
		r = error("respin: %s moved meanwhile; it and the work tree are "
			  "as they were", rr->br);
	char *marker = respin_marker(&rr->home);
	if (!r && unlink(marker) < 0)
		r = error_on(marker);
	free(marker);
	rr->moved = r < 0;
	sb_release(&words);
	sb_release(&in);
	sb_release(&why);
	return r;
}

/* When the mails are dated: git's author date, now in git's zone unless
 * GIT_AUTHOR_DATE says otherwise, as for format-patch (a name and address
 * of ours make git answer where the user has none set; the date is what
 * is asked).  Where git cannot answer, now in UTC. */
static void split_date(struct mail_opts *mo)
{
	static const char *const words[] = { "var", "GIT_AUTHOR_IDENT", NULL };
	static const char *const env[] = { "GIT_AUTHOR_NAME=series",
					   "GIT_AUTHOR_EMAIL=series@localhost",
					   NULL };
	struct sbuf out = SBUF_INIT;
	struct ident id;

	mo->when = time(NULL);
	mo->tz = 0;
	if (!run_git(&(struct git_run){ .words = words, .env = env, .out = &out,
					.quiet = 1 })) {
		chomp(&out);
		if (!parse_ident(out.buf, &id) && id.dated) {
			mo->when = id.when;
			mo->tz = id.tz;
		}
	}
	sb_release(&out);
}

/* ---- a version's replies ------------------------------------------------------
 * What trailers takes from the replies to a version: the mboxes read and
 * checked, the tags each commit gets (those of its own replies, a cover
 * letter's scoped to what their giver maintains), the branch reworded;
 * and the branch's last version, as status and respin name it.
 */

/* The messages of the n mboxes named, into mb.  An mbox is checked as a
 * diff is: it starts with a "From " line (what git format-patch, b4 and
 * lore write), and its last line ends, so that a download cut short is
 * not read as a shorter mail (an address cut in half would become a tag). */
static int read_mboxes(char *const *name, size_t n, struct mbox *mb)
{
	for (size_t i = 0; i < n; i++) {
		struct sbuf text = SBUF_INIT;
		const char *why = NULL;
		if (sb_read_file(&text, name[i]) < 0) {
			sb_release(&text);
			return failed(error_on(name[i]));
		}
		if (text.len < 5 || memcmp(text.buf, "From ", 5))
			why = "no mbox: it does not start with a 'From ' line";
		else if (text.buf[text.len - 1] != '\n')
			why = "its last mail is cut short mid-line (an interrupted download?)";
		else {
			size_t at = mb->n, mails = 0;
			mbox_parse(text.buf, text.len, mb);
			for (size_t j = at; j < mb->n; j++)
				mails += mb->m[j].from || mb->m[j].subject ||
					 mb->m[j].id;
			if (!mails)
				why = "no mail in it (no From:, Subject: or Message-ID: header)";
		}
		sb_release(&text);
		if (why)
			return failed(error("%s: %s", name[i], why));
	}
	return 0;
}

/* Who maintains each commit's files (the people of its recipients), for
 * a cover letter's tags: NULL where no reply needs it or there is no
 * MAINTAINERS. */
static int commit_people(struct cmd *c, const struct mbox *mb,
			 struct recipients **people)
{
	*people = NULL;
	if (!mb->n || !c->rc.nr)
		return 0;
	if (source_from_commits(&c->src, &c->p, &c->rc, c->rg.spec) < 0 ||
	    load_owners(&c->ow, c->repo.top, NULL) < 0)
		return EXIT_FAIL;
	if (!c->ow.m)
		return 0;
	*people = xcalloc(c->rc.nr + 1, sizeof **people);
	return failed(recipients_of(&c->ow, &c->src, c->p.g, c->p.nr, *people,
				    NULL));
}

/* Each commit's message with the additions it lacks, in b4's order, into
 * c->msgs; what and why to stdout (-n) or into said.  How many. */
static size_t add_trailers(struct cmd *c, struct additions *ad,
			   char *const *subj, int dry_run, struct sbuf *said)
{
	size_t added = 0;

	sort_n(ad->v, ad->n, sizeof *ad->v, cmp_addition);
	c->msgs = xcalloc(c->rc.nr + 1, sizeof *c->msgs);
	c->nmsgs = c->rc.nr;
	for (size_t i = 0; i < c->rc.nr; i++) {
		const struct rcommit *rc = &c->rc.c[i];
		char **have;
		size_t nh, ah;
		sb_init(&c->msgs[i]);
		sb_adds(&c->msgs[i], rc->msg);
		message_trailers(rc->msg, &have, &nh);
		ah = nh;
		for (size_t k = 0; k < ad->n; k++) {
			if (ad->v[k].c != i || has_line(have, nh, ad->v[k].line))
				continue;
			add_trailer(&c->msgs[i], ad->v[k].line);
			GROW(have, nh + 1, ah);
			have[nh++] = xstrdup(ad->v[k].line);
			added++;
			if (dry_run)
				xfprintf(1, "%.12s %s\n    + %s   (%s)\n", rc->id, subj[i],
					 ad->v[k].line, ad->v[k].why);
			else
				sb_addf(said, "series: %.12s %s: + %s (%s)\n",
					rc->id, subj[i], ad->v[k].line, ad->v[k].why);
		}
		free_strings(have, nh);
	}
	return added;
}

/* The range rewritten with its new messages, then where each went. */
static int reword_step(struct cmd *c, size_t added, const struct sbuf *said)
{
	c->t.repo = &c->repo;
	if (reword_series(&c->t, &c->rc, c->msgs, c->rg.base) < 0)
		return EXIT_FAIL;
	put_out(2, said->buf, said->len);
	xfprintf(1, "%zu trailer%s added to %zu commit%s on %s: %.12s..%.12s\n",
		 added, added == 1 ? "" : "s", c->rc.nr, c->rc.nr == 1 ? "" : "s",
		 c->repo.ref, c->repo.old, c->t.tip);
	return 0;
}

/* What the replies give the range's commits (c->rc), as trailers adds
 * it: the mboxes, each commit's subject and people (a cover letter's
 * tags go by them), the tags with why, what was said of them. */
struct replies {
	struct mbox mb;
	struct additions ad;
	struct recipients *people;
	struct sbuf said;
	char **subj;
	size_t n;
};
#define REPLIES_INIT { .said = SBUF_INIT }

/* The tags of rp->mb (read) for c's commits, into rp. */
static int replies_tags(struct cmd *c, struct replies *rp,
			char *const *cover)
{
	int r;

	rp->n = c->rc.nr;
	rp->subj = commit_subjects(&c->rc);
	if ((r = commit_people(c, &rp->mb, &rp->people)))
		return r;
	return failed(reply_trailers(&rp->mb, &c->rg, &c->rc, rp->subj,
				     rp->people, c->ow.m, cover,
				     repo_branch(&c->repo), &rp->ad, &rp->said));
}

/* The cover letter each of c's commits went under, as the record of the
 * branch's last version says (a new array of c->rc.nr strings, NULL
 * where none is recorded): a tag on one series' letter is for that
 * series' patches. */
static char **sent_covers(struct cmd *c)
{
	const char *br = repo_branch(&c->repo);
	int v = br ? last_version(br) : 0;
	char *tag = v > 0 ? xstrfmt("refs/series/%s/v%d", br, v) : NULL;
	char **cover = xcalloc(c->rc.nr + 1, sizeof *cover);
	time_t date;
	struct sent *s = read_sent(tag, &c->rc, &date, 1);

	for (size_t i = 0; i < c->rc.nr; i++)
		cover[i] = s[i].cover, s[i].cover = NULL;
	sent_release(s, NULL, c->rc.nr);
	free(tag);
	return cover;
}

static void replies_release(struct replies *rp)
{
	free_strings(rp->subj, rp->n);
	recipients_free(rp->people, rp->n);
	additions_release(&rp->ad);
	mbox_release(&rp->mb);
	sb_release(&rp->said);
}

/* The branch HEAD is on (ref, NULL: none) with its version *v (0: the
 * last that format recorded, then set) and that version's base into
 * base: the branch's name (in ref), or NULL after error() naming cmd. */
static const char *recorded_branch(const char *cmd, const char *ref, int *v,
				   char *base)
{
	if (!ref || !starts_with(ref, NULL, "refs/heads/")) {
		error("%s: HEAD is on no branch, under which format records "
		      "each version", cmd);
		return NULL;
	}
	const char *br = ref + 11;
	if (!*v && (*v = last_version(br)) < 0)
		return NULL;
	if (!*v) {
		error("%s: format recorded no version of %s (no refs/series/%s/vN)",
		      cmd, br, br);
		return NULL;
	}
	char *tag = xstrfmt("refs/series/%s/v%d-base", br, *v);
	int r = resolve_commit_quietly(tag, base);
	if (r < 0)      /* format writes vN and vN-base together */
		error("%s: format recorded no v%d of %s (no refs/series/%s/v%d)",
		      cmd, *v, br, br, *v);
	free(tag);
	return r < 0 ? NULL : br;
}

/* ---- respin's steps -----------------------------------------------------------
 * The next version in one command, on the series' branch, in place as
 * git rebase works: the branch's checkout moves to the new base (git
 * writes only the files that differ), the pattern runs there, its change
 * is grouped in the form the last version has, a commit per group on the
 * base (the last version's message where a group is one of its patches),
 * and the branch moves there once.  While the checkout is off the branch
 * a marker in .git names it: any failure or signal puts the branch's
 * checkout back (put_back()), and after a SIGKILL `respin --abort` does;
 * every command that commits refuses to run meanwhile (check_idle()).  Each
 * patch of the last version is unchanged (its patch id: its tags come
 * along), changed (its tags stay behind, said below "---"), gone
 * (applied there, as status finds it, or matching no more), and a group
 * none of them had is new.
 */
struct respin_opts {
	const char *onto;
	int dry_run, abort;
	struct opt_list mbox, keep;
};

/* The pattern command: after "--", else as recorded for the branch
 * (refs/series/BRANCH/pattern, its words NUL-ended). */
static int respin_pattern(struct respin_run *rr, const struct args *a)
{
	struct sbuf ref = SBUF_INIT, blob = SBUF_INIT;

	if (a->dashdash < a->nword || a->nword) {
		if (a->dashdash)
			return error("respin: '%s': the pattern command goes "
				     "after --", a->word[0]);
		rr->argc = a->nword;
		rr->argv = xcalloc(a->nword + 1, sizeof *rr->argv);
		for (size_t i = 0; i < a->nword; i++)
			rr->argv[i] = xstrdup(a->word[i]);
		rr->given = 1;
		return 0;
	}
	sb_addf(&ref, "refs/series/%s/pattern", rr->br);
	if (!read_blob(ref.buf, &blob) || !blob.len) {
		sb_release(&blob);
		error("respin: no pattern command given, and none recorded for "
		      "%s (no %s): give it after --", rr->br, ref.buf);
		sb_release(&ref);
		return -1;
	}
	for (size_t at = 0; at < blob.len; at += strlen(blob.buf + at) + 1) {
		rr->argv = xrealloc(rr->argv, xmul(rr->argc + 2, sizeof *rr->argv));
		rr->argv[rr->argc++] = xstrdup(blob.buf + at);
		rr->argv[rr->argc] = NULL;
	}
	sb_release(&blob);
	sb_release(&ref);
	return 0;
}

/* The branch, its last version and its patches; the new base. */
static int respin_open_branch(struct respin_run *rr, const char *onto)
{
	if (!(rr->br = recorded_branch("respin", rr->home.ref, &rr->v,
					rr->old.base)))
		return -1;
	if (resolve_commit_quietly(onto, rr->onto) < 0)
		return error("respin: --onto '%s' is no commit here (fetch it)",
			     onto);
	int r = respin_source(rr);
	if (r)
		return r;
	rr->old.spec = xstrfmt("series/%s/v%d-base..%s", rr->br, rr->v,
			       rr->old.tip);
	return read_range_commits(&rr->old, &rr->prev, "respun");
}

/* msg less its review tags (trailer_tags), into out; those into lost. */
static void drop_tags(const char *msg, struct sbuf *out, struct sbuf *lost)
{
	const char *pos = msg, *end = msg + strlen(msg);

	for (struct span l; next_line(&pos, end, &l);) {
		struct sbuf *to = trailer_tag(l.p, l.len) ? lost : out;
		if (to == lost && lost->len)
			sb_adds(lost, "; ");
		sb_add(to, l.p, l.len);
		if (to == out)
			sb_addc(out, '\n');
	}
}

/* The template of a group the last version had not: its first patch's
 * message, its subject's prefix ("i2c: ") SEDME, less review tags. */
static void respin_template(struct cmd *c, const struct respin_run *rr)
{
	struct sbuf lost = SBUF_INIT;
	const char *msg = rr->prev.nr ? rr->prev.c[0].msg : "SEDME: respin\n";
	const char *colon = str_find(msg, ": "), *nl = strchr(msg, '\n');

	if (colon && nl && colon > nl)
		colon = NULL;
	sb_adds(&c->text, colon ? "SEDME" : "SEDME: ");
	drop_tags(colon ? colon : msg, &c->text, &lost);
	c->tm = (struct template){ c->text.buf, c->text.len, NULL };
	sb_release(&lost);
}

/* c's groups as commits named "%040zx" of their index, with their
 * files and no message, for became_of(); into *out. */
static void groups_as_commits(const struct cmd *c, struct rcommits *out)
{
	*out = (struct rcommits){ xcalloc(c->p.nr + 1, sizeof *out->c),
				  c->p.nr, c->p.nr };
	for (size_t g = 0; g < c->p.nr; g++) {
		struct rcommit *rc = &out->c[g];
		fmt_buf(rc->id, sizeof rc->id, "%040zx", g);
		rc->npath = c->p.g[g].nr;
		rc->path = xcalloc(rc->npath + 1, sizeof *rc->path);
		for (size_t j = 0; j < rc->npath; j++)
			rc->path[j] = xstrdup(c->src.f[c->p.g[g].member[j]].path);
	}
}

/* Which patch of the last version each group of c->p is (became_of(),
 * after the fates: respin_fates()), and each group's message: the
 * patch's, less its tags where the patch changed. */
static int respin_match(struct cmd *c, struct respin_run *rr)
{
	struct pids out = PIDS_INIT;
	struct rcommits groups;
	char *taken = xcalloc(c->p.nr + 1, 1);
	int r = group_patch_ids(&c->p, &c->src, 0, &out);

	groups_as_commits(c, &groups);
	rr->was = xcalloc(c->p.nr + 1, sizeof *rr->was);
	for (size_t g = 0; g < c->p.nr; g++)
		rr->was[g] = rr->prev.nr;
	if (!r && !(r = follow_renames(&rr->prev, rr->old.base, rr->onto)))
		rr->became = became_of(&rr->prev, &rr->ids, &groups, &out,
				       rr->up, taken);
	for (size_t k = 0; !r && k < rr->prev.nr; k++) {
		size_t g = rr->became[k].to;
		if (g == c->p.nr) {
			rr->became[k].to = SIZE_MAX;    /* gone */
			continue;
		}
		rr->was[g] = k;
		struct sbuf m = SBUF_INIT, lost = SBUF_INIT;
		if (rr->became[k].same)
			sb_adds(&m, rr->prev.c[k].msg);
		else
			drop_tags(rr->prev.c[k].msg, &m, &lost);
		cleanup_message(&m);
		if (lost.len)
			sb_addf(&m, "---\nv%d: not carried, as the patch changed: %s\n",
				rr->v + 1, lost.buf);
		c->p.g[g].msg = sb_detach(&m, NULL);
		rr->dropped[k] = lost.len ? sb_detach(&lost, NULL) : NULL;
		sb_release(&lost);
	}
	rcommits_release(&groups);
	free(taken);
	pids_release(&out);
	return r;
}

/* The replies and --keep, read before anything moves: each --keep names
 * a patch of the last version.  0, or -1 after error(). */
static int respin_inputs(struct respin_run *rr, const struct respin_opts *o)
{
	rr->kept = xcalloc(rr->prev.nr + 1, 1);
	for (size_t i = 0; i < o->keep.n; i++) {
		long long k = scan_number(o->keep.v[i], NULL, 10);
		if (k < 1 || (unsigned long long)k > rr->prev.nr)
			return error("respin: --keep %s: v%d has patches 1 to %zu",
				     o->keep.v[i], rr->v, rr->prev.nr);
		rr->kept[k - 1] = 1;
	}
	return read_mboxes((char *const *)o->mbox.v, o->mbox.n, &rr->mb) ? -1 : 0;
}

/* The branch, the new base, the replies and the pattern, refusals first
 * (a work tree with changes of its own); then the checkout moved there
 * and the pattern run in it, what needs git's objects alone beside it. */
static int respin_start(struct respin_run *rr, const struct args *a,
			const struct respin_opts *o)
{
	int r = repo_open(&rr->home) < 0 || check_idle(&rr->home, "respin") < 0 ||
		respin_open_branch(rr, o->onto) < 0 || respin_inputs(rr, o) < 0 ||
		respin_pattern(rr, a) < 0 ? -1 : 0;

	if (!r)
		phase("respin", "checking out the new base");
	if (!r && checkout_off(&rr->home, rr->onto, &rr->moved) < 0)
		r = -1;

	/* the pattern, and every git after it, find the repository there */
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	if (!r) {
		phase("respin", "running the pattern");
		r = pattern_status(rr, run_program((const char *const *)rr->argv,
						   NULL, rr->home.top,
						   respin_meanwhile, rr));
	}
	return failed(r);
}

/* A patch an earlier respin left out (its record's "- left out (WHY):
 * SUBJECT" lines) is no new patch of this one: the replies that left it
 * out answered an older version, whose mails this version's record does
 * not hold.  Per group of c's plan, "WHY\nSUBJECT" where a new group is
 * such a patch, else NULL (a new array). */
static char **carried_left_out(struct cmd *c, const struct respin_run *rr)
{
	char tip[72], **why = xcalloc(c->p.nr + 1, sizeof *why);
	struct sbuf rec = SBUF_INIT;

	if (!read_respin(rr->br, rr->v, tip, &rec))
		return why;
	struct sbuf *m = group_messages(&c->p, &c->tm);
	for (size_t g = 0; g < c->p.nr; g++) {
		char *subj = subject_of(m[g].buf);
		const char *pos = rec.buf, *end = rec.buf + rec.len;
		size_t sl = strlen(subj);
		for (struct span l; rr->was[g] == rr->prev.nr && !why[g] &&
		     next_line(&pos, end, &l);)
			if (l.len > 15 + sl && !memcmp(l.p, "- left out (", 12) &&
			    !memcmp(l.p + l.len - sl - 3, "): ", 3) &&
			    !memcmp(l.p + l.len - sl, subj, sl))
				why[g] = xstrfmt("%.*s\n%s", (int)(l.len - sl - 15),
						 l.p + 12, subj);
		free(subj);
	}
	sbufs_free(m, c->p.nr);
	sb_release(&rec);
	return why;
}

/* The groups of the patches left out (rr->left, and those an earlier
 * respin left out: carried_left_out()) out of c's plan, into
 * rr->left_out; their files back as onto has them, as the new version
 * has them and the checkout must when the branch lands there.  0, or an
 * exit code after error(). */
static int leave_out(struct cmd *c, struct respin_run *rr)
{
	size_t n = rr->prev.nr, np = c->p.nr, g = 0, nb = 0;
	char **again = carried_left_out(c, rr);
	const char **back = xcalloc(2 * c->src.nr + 5, sizeof *back);
	int r = 0;

	back[nb++] = "checkout";
	back[nb++] = rr->onto;
	back[nb++] = "--";
	for (size_t i = 0; i < np; i++) {
		size_t k = rr->was[i];
		if ((k >= n || !rr->left[k]) && !again[i]) {
			c->p.g[g] = c->p.g[i];
			rr->was[g++] = k;
			continue;
		}
		for (size_t j = 0; j < c->p.g[i].nr; j++) {
			const struct sfile *sf = &c->src.f[c->p.g[i].member[j]];
			if (sf->orig)
				back[nb++] = sf->orig;
			if (sf->old_mode)
				back[nb++] = sf->path;
			else
				unlink(sf->path);
		}
		char *subj = again[i] ? NULL : subject_of(rr->prev.c[k].msg);
		GROW(rr->left_out, rr->nleft + 1, rr->aleft);
		rr->left_out[rr->nleft++] = again[i] ? again[i] :
					    xstrfmt("%s\n%s", rr->left[k], subj);
		again[i] = NULL;
		free(subj);
		group_release(&c->p.g[i]);
	}
	c->p.nr = g;
	if (nb > 3)
		r = failed(git_ok("git checkout", &(struct git_run){ .words = back }));
	free(back);
	free_strings(again, np);
	return r;
}

/* What the replies say of the last version's patches (respin_fates()):
 * one answered (its maintainer queued it) or NAKed is left out of the
 * next version (leave_out()), unless --keep names it. */
static int respin_verdicts(struct cmd *c, struct respin_run *rr)
{
	size_t n = rr->prev.nr;

	rr->left = xcalloc(n + 1, sizeof *rr->left);
	for (size_t k = 0; k < n; k++)
		if ((rr->up[k].state == ANSWERED || rr->up[k].state == NAKED) &&
		    !rr->kept[k])
			rr->left[k] = xstrdup(rr->up[k].answer);
	return leave_out(c, rr);
}

/* One line of respin's report: "WORD      SUBJECT (WHY)" on stdout
 * (WHY: "applied as UP" where up is set), and as format's letter says it
 * (add_fate_line()) into rec. */
static void report_fate(struct sbuf *rec, const char *word, const char *why,
			const char *up, const char *subj)
{
	xfprintf(1, why ? "%-9s %s (%s%.12s)\n" : "%-9s %s\n", word, subj,
		 up ? "applied as " : why, up ? up : "");
	add_fate_line(rec, word, why, up, subj);
}

/* The next version's patches and what became of the last one's, to
 * stdout and, as format's cover letter says it, into fates; a summary. */
static void respin_report(const struct cmd *c, const struct respin_run *rr,
			  struct sbuf *fates)
{
	static const char *const word[] = { "changed", "unchanged", "new" };
	struct sbuf *m = group_messages(&c->p, &c->tm);
	size_t count[3] = { 0 }, gone = 0, applied = 0;

	char *since = xstrfmt("%.12s..%.12s", rr->old.base, rr->old.tip);
	char *on = xstrfmt(", found on %.12s", rr->onto);
	add_changes_heading(fates, rr->v, since, on);
	free(since);
	free(on);
	for (size_t g = 0; g < c->p.nr; g++) {
		size_t k = rr->was[g];
		int w = k < rr->prev.nr ? rr->became[k].same : 2;
		char *subj = subject_of(m[g].buf);
		count[w]++;
		report_fate(fates, word[w], NULL, NULL, subj);
		if (k < rr->prev.nr && rr->dropped[k]) {
			xfprintf(1, "          not carried: %s\n", rr->dropped[k]);
			sb_addf(fates, "  (not carried: %s)\n", rr->dropped[k]);
		}
		free(subj);
	}
	for (size_t k = 0; k < rr->nleft; k++) {
		char *why = xstrdup(rr->left_out[k]), *nl = strchr(why, '\n');
		*nl = '\0';
		report_fate(fates, "left out", why, NULL, nl + 1);
		free(why);
	}
	for (size_t k = 0; k < rr->prev.nr; k++) {
		const struct fate *f = &rr->up[k];
		int in = is_applied(f);
		char *subj = subject_of(rr->prev.c[k].msg);
		if (rr->became[k].to == SIZE_MAX) {
			gone++;
			applied += in;
			report_fate(fates, "gone", in ? "" : "the pattern no longer "
				    "touches its files", in ? f->commit : NULL, subj);
		}
		free(subj);
	}
	xfprintf(1, "v%d: %zu patch%s on %.12s (%zu unchanged, %zu changed, %zu new); "
		 "%zu of v%d's gone (%zu applied)", rr->v + 1, c->p.nr,
		 c->p.nr == 1 ? "" : "es", rr->onto, count[1],
		 count[0], count[2], gone, rr->v, applied);
	xfprintf(1, rr->nleft ? "; %zu left out, as the replies say "
		 "(--keep N keeps one)\n" : "\n", rr->nleft);
	sbufs_free(m, c->p.nr);
}

/* Whether the commits onto..tip are the branch's as it stands, patch by
 * patch, and the branch is on onto as the last respin left it: a respin
 * with nothing new (the messages are made from the same commits, so the
 * same patches have the same messages). */
static int same_as_branch(const struct respin_run *rr, const char *tip)
{
	char *ra = xstrfmt("%s..%s", rr->onto, tip);
	char *rb = xstrfmt("%s..%s", rr->onto, rr->home.old);
	char *ref = xstrfmt("refs/series/%s/onto", rr->br), onto[72];
	int same = is_ancestor(rr->onto, rr->home.old) &&
		   !resolve_commit_quietly(ref, onto) && !strcmp(onto, rr->onto) &&
		   same_patch_ids(ra, rb) > 0;

	free(ra);
	free(rb);
	free(ref);
	return same;
}

/* The commits on the new base, where the checkout is (the branch is not
 * moved yet); EXIT_NOTHING where they are what the branch already is. */
static int respin_build(struct cmd *c, struct respin_run *rr)
{
	struct changes cs = { NULL, 0 };
	struct import im = { .t = &c->t, .plan = &c->p, .src = &c->src,
			     .cs = &cs, .tmpl = &c->tm };

	c->t.repo = &c->repo;
	int r = commit_series(&im);
	import_release(&im);
	free(cs.c);
	if (r)
		return r < 0 ? EXIT_FAIL :
		       failed(error("respin: the pattern's change is no change"));
	if (same_as_branch(rr, c->t.tip)) {
		note("respin: nothing to do: %s is v%d on "
			 "%.12s as the pattern makes it", rr->br, rr->v + 1,
			 rr->onto);
		return EXIT_NOTHING;
	}
	return 0;
}

/* The branch moved onto the commits respin_build() made. */
static int respin_finish(struct cmd *c, struct respin_run *rr,
			 const struct sbuf *fates)
{
	if (pin_repo_env(&rr->home) < 0 || respin_land(rr, c->t.tip, fates) < 0)
		return EXIT_FAIL;
	note("%s is v%d; format it: series format -v %d",
		 rr->br, rr->v + 1, rr->v + 1);
	return 0;
}

/* respin --abort: the checkout a killed respin left put back. */
static int respin_abort(struct respin_run *rr)
{
	struct stat sb;
	char *marker;

	if (repo_open(&rr->home) < 0)
		return EXIT_FAIL;
	marker = respin_marker(&rr->home);
	int none = lstat(marker, &sb) < 0;
	free(marker);
	if (none)
		return failed(error("respin: --abort: no respin to undo here"));
	if (put_back(&rr->home) < 0)
		return EXIT_FAIL;
	note("respin: the checkout is back on its branch");
	return 0;
}

static void respin_release(struct respin_run *rr)
{
	repo_release(&rr->home);
	free(rr->old.spec);
	if (rr->up)
		sent_release(NULL, rr->up, rr->prev.nr);
	free_strings(rr->dropped, rr->prev.nr);
	free_strings(rr->left, rr->prev.nr);
	free_strings(rr->left_out, rr->nleft);
	mbox_release(&rr->mb);
	free(rr->kept);
	rcommits_release(&rr->prev);
	pids_release(&rr->ids);
	free_strings(rr->argv, rr->argc);
	free(rr->was);
	free(rr->became);
}

/* ---- a version's mails -------------------------------------------------------
 * What format writes of a version: a range's commits as a mail series,
 * through the mail writer, with each patch's recipients in its headers
 * (people in To:, lists in Cc:), a cover letter to every list of the
 * series, and, for a re-spin, what became of the previous version; and
 * what it records of them.
 */
struct format_opts {
	const char *outdir, *cover, *prev;
	struct opt_list to, cc, include;
	int rfc, version, individual, all_cc, force, max_rcpt;
	int split;              /* -1, or the index of split_names */
	int max_patches;        /* 0: 15 */
};

static const char *const split_names[] = { "route", "subsystem", "list",
					    NULL };

enum { SPLIT_ROUTE, SPLIT_SUBSYSTEM, SPLIT_LIST };

/* The tag of mail k of n ("[RFC PATCH v2 3/7]"); k 0 is the cover.  One
 * patch is numbered where it has a cover letter (1/1), as git does. */
static void add_tag(struct sbuf *sb, const struct format_opts *o, size_t k,
		    size_t n, int cover)
{
	sb_addf(sb, "[%sPATCH", o->rfc ? "RFC " : "");
	if (o->version > 1)
		sb_addf(sb, " v%d", o->version);
	if (!o->individual && (n > 1 || cover))
		add_patch_number(sb, k, n);
	sb_addc(sb, ']');
}

/* format's mails: commit i of the range is item i. */
static struct mail_item *commit_items(const struct format_opts *o,
				      const struct rcommits *rc,
				      const struct plan *p, const size_t *k,
				      size_t n, int cover)
{
	struct mail_item *it = xcalloc(n + 1, sizeof *it);

	for (size_t i = 0; i < n; i++) {
		size_t j = k ? k[i] : i;
		const struct rcommit *c = &rc->c[j];
		it[i] = (struct mail_item){ { .author = c->author, .when = c->when,
					      .tz = c->tz, .id = c->id },
					    &p->g[j], SBUF_INIT, SBUF_INIT, SBUF_INIT };
		sb_adds(&it[i].msg, c->msg);
		add_tag(&it[i].tag, o, i + 1, n, cover);
	}
	return it;
}

/* What format's cover letter is made of, and owns. */
struct format_cover {
	struct sbuf tag, subject, aim, para, changes, base;
	struct source all;      /* the range's diff, where commits share files */
	size_t *member, n;
	char **author, **subj;
	char *branch;
};
#define FORMAT_COVER_INIT { .tag = SBUF_INIT, .subject = SBUF_INIT,        \
			    .aim = SBUF_INIT, .para = SBUF_INIT,              \
			    .changes = SBUF_INIT, .base = SBUF_INIT,          \
			    .all = SOURCE_INIT }

static void format_cover_release(struct format_cover *f)
{
	struct sbuf *sb[] = { &f->tag, &f->subject, &f->aim, &f->para,
			      &f->changes, &f->base };

	for (size_t i = 0; i < sizeof sb / sizeof *sb; i++)
		sb_release(sb[i]);
	source_release(&f->all);
	free(f->member);
	free(f->author);
	free_strings(f->subj, f->n);
	free(f->branch);
}

/* The shortlog's authors and subjects of the n commits k[] of rc (k
 * NULL: the first n), into f. */
static void cover_commits(struct format_cover *f, const struct rcommits *rc,
			  const size_t *k, size_t n)
{
	f->n = n;
	f->author = xcalloc(n + 1, sizeof *f->author);
	f->subj = xcalloc(n + 1, sizeof *f->subj);
	for (size_t j = 0; j < n; j++) {
		f->author[j] = rc->c[k ? k[j] : j].author;
		f->subj[j] = subject_of(rc->c[k ? k[j] : j].msg);
	}
}

/* The cover letter of f's parts, signed by the last patch's author and
 * dated now; its shortlog and diffstat of src's member files. */
static struct cover cover_of(const struct format_cover *f,
			     const struct mail_opts *now, const char *branch,
			     const struct source *src, size_t nmember)
{
	return (struct cover){ .mo = { .author = f->author[f->n - 1],
				       .when = now->when, .tz = now->tz },
		.tag = f->tag.buf, .subject = f->subject.buf, .aim = f->aim.buf,
		.organised = f->para.len ? f->para.buf : NULL, .branch = branch,
		.changes = f->changes.len ? f->changes.buf : NULL,
		.author = f->author, .subject_of = f->subj, .n = f->n,
		.src = src, .member = f->member, .nmember = nmember,
		.base = f->base.buf };
}

/* format's cover letter into *cv, its parts in f: the user's subject and
 * aim, how the series is organised and why so, the public branch, what
 * changed since the last version, the shortlog, the diffstat of the
 * range, base-commit (the pipeline adds the addresses and the patches per
 * list).  The text is read for every series: --cover must be there. */
static int format_cover(struct cmd *c, const struct format_opts *o,
			const char *outdir, int cover,
			const struct mail_opts *now, struct format_cover *f,
			struct cover *cv)
{
	const struct source *from;
	const char *shared = NULL;
	size_t n = f->n = c->rc.nr;
	int r = cover_text(o->cover, o->individual, outdir, &f->subject, &f->aim);

	if (r || !cover)
		return failed(r);
	f->branch = public_branch(&c->repo, c->rg.tip);
	add_tag(&f->tag, o, 0, n, 1);
	organisation_paragraph(&f->para, &c->src, &c->p, &c->ow, n, &shared);
	cover_commits(f, &c->rc, NULL, n);
	/* with --include the range's diff holds commits left out: their own */
	r = range_diffstat(&c->src, &c->rg, shared && !o->include.n, &f->all,
			   &from, &f->member);
	if (!r && o->prev)
		r = add_respin(&f->changes, o->prev, o->version, &c->rg, &c->rc,
			       c->repo.gitdir);
	if (!r)
		r = add_base(&f->base, &c->rg);
	*cv = cover_of(f, now, f->branch, from, r ? 0 : from->nr);
	return failed(r);
}

/* What every Message-Id of a series formatted now ends in, as git
 * format-patch --thread writes it: "SECONDS.git.ADDR", ADDR the last
 * commit's author's (who signs the cover letter).  The caller frees it. */
static char *thread_of(const struct mail_opts *now, const char *author)
{
	struct span box = address_of(author).box;

	return xstrfmt("%lld.git.%.*s", (long long)now->when, (int)box.len,
		       box.p);
}

/* Into rec, for status: per patch of sm "COMMIT MSGID COVER-ID|- TO...",
 * its To: boxes as written. */
static void record_mails(struct sbuf *rec, const struct series_mails *sm,
			 const struct series_spec *s)
{
	for (size_t i = 0; sm->msgid && i < sm->n; i++) {
		struct addresses to = ADDRESSES_INIT, cc = ADDRESSES_INIT;
		patch_addresses(&s->ad, &sm->rcpt[i], &to, &cc);
		sb_addf(rec, "%s %s %s", s->it[i].mo.id, s->it[i].mo.msgid,
			s->it[i].mo.reply_to ? s->it[i].mo.reply_to : "-");
		for (size_t k = 0; k < to.n; k++)
			sb_addf(rec, " %.*s", (int)to.v[k].box.len, to.v[k].box.p);
		sb_addc(rec, '\n');
		addresses_release(&to);
		addresses_release(&cc);
	}
}

/* The range's commits as mails with their recipients, and the cover
 * letter, into sm; what was sent to whom into rec. */
static int format_mails(struct cmd *c, const struct format_opts *o,
			struct series_mails *sm, const char *outdir,
			struct sbuf *rec)
{
	struct format_cover f = FORMAT_COVER_INIT;
	struct mail_opts now;
	split_date(&now);       /* in git's zone, as format-patch does */
	char *thread = thread_of(&now, c->rc.c[c->rc.nr - 1].author);
	struct series_spec s = { .it = commit_items(o, &c->rc, &c->p, NULL,
						    c->rc.nr, 0),
		.n = c->rc.nr, .version = o->version,
		.cover = !o->individual && c->rc.nr > 1, .list_counts = 1,
		.thread = thread, .cover_id = "cover",
		.ad = { o->all_cc, o->to.v, o->cc.v, o->to.n, o->cc.n } };
	int r = format_cover(c, o, outdir, s.cover, &now, &f, &s.cv);

	/* a lone patch says what changed below its "---", as git's would */
	if (!r && o->prev && s.n == 1 && !s.cover)
		r = failed(add_respin(&s.it[0].notes, o->prev, o->version,
				      &c->rg, &c->rc, c->repo.gitdir));
	if (!r)
		r = failed(make_series(sm, &s, &c->src, c->ow.m, &c->ow.o));
	sb_addf(rec, "date %lld\n", (long long)now.when);
	if (!r)
		record_mails(rec, sm, &s);
	mail_items_release(s.it, s.n);
	format_cover_release(&f);
	free(thread);
	return r;
}

/* The mails into outdir, then what to run next, each word as a shell
 * takes it. */
static int write_format_series(const struct series_mails *sm,
			       const struct format_opts *o, const char *outdir)
{
	struct mail_opts mo = { .outdir = outdir, .force = o->force };
	struct sbuf cmd = SBUF_INIT;
	size_t nf = sm->n + (size_t)sm->cover;

	if (write_series(&mo, sm->name, sm->text, nf) < 0)
		return EXIT_FAIL;
	add_shell_word(&cmd, outdir);
	if (o->version > 1)
		sb_addf(&cmd, "/v%d-*.patch", o->version);
	else
		sb_adds(&cmd, "/*.patch");
	/* one by one: no patch is a reply to another, whose recipients
	 * differ */
	const char *thread = o->individual ? "--no-thread " : "";
	/* git send-email refuses a letter that still has them */
	int unwritten = sm->cover && find_bytes(sm->text[0].buf, sm->text[0].len,
						COVER_SUBJECT, strlen(COVER_SUBJECT));
	if (unwritten)
		warning("the cover letter %s/%s still says %s, which git "
			"send-email refuses: write the series' aim into it, or "
			"format again with --cover FILE (its first line the "
			"subject)", outdir, sm->name[0], COVER_SUBJECT);
	xfprintf(2, "series: %zu mail%s; %s, then send:\n"
		 "    git send-email --dry-run %s%s\n    git send-email %s%s\n",
		 nf, nf == 1 ? "" : "s", unwritten ? "write the cover letter, "
		 "check" : "check", thread, cmd.buf, thread, cmd.buf);
	sb_release(&cmd);
	return 0;
}

/* ---- a version's mails, cut (format --split) ---------------------------------
 * The range as several series (cut_series()), each written as format
 * writes one into a folder of its own under DIR, its cover letter to its
 * people and lists; then the send plan.
 */
struct split_run {
	struct cmd *c;
	const struct format_opts *o;
	const char *outdir;
	struct cut *cut;
	size_t n, max, *cut_of;         /* cut_of: per commit, its series */
	struct pids ids;                /* the needed commits' patch ids */
	struct sbuf subject, aim;       /* --cover's */
	struct said said;               /* the lists checked */
	struct sbuf base;               /* base-commit: and what it needs */
	struct mail_opts date;          /* when the letters are dated */
	struct prev_version rs;         /* with -v N: the previous version */
	int respun;                     /* rs is open, and was split: */
	struct sbuf prev_map;           /* its map, as record_version() */
	struct span *prev_key;          /* per previous commit, its key there */
	char *branch;
	char **name, **lists;           /* per commit its mail; per series */
	struct loads loads;
	char **first_list;              /* --split list: the keys, per file */
	char *thread;                   /* the mails' ids' end (thread_of) */
	struct sbuf *rec;               /* what was sent to whom */
	struct sbuf rdiff;              /* with -v N: git range-diff of it all */
	char *need;                     /* a row per series: the commits it
					 * needs first (mark_needed) */
};

/* The number of a range-diff header's side at *p ("12:"), 0 for "-:";
 * *p past it and the blanks after.  -1 where it is none. */
static long rdiff_side(const char **p)
{
	char *end;
	long n = 0;

	if (**p == '-') {
		while (**p == '-')
			(*p)++;
	} else if (isdigit((unsigned char)**p)) {
		n = scan_number(*p, &end, 10);
		*p = end;
	} else {
		return -1;
	}
	if (**p != ':')
		return -1;
	for ((*p)++; **p == ' '; (*p)++)
		;
	return n;
}

/* The series a range-diff header line (line, up to lim) speaks of: its
 * new commit's, else its old commit's key's; sr->n where none or where
 * the line is no header.  Grammar (git range-diff --no-color): up to
 * three blanks, "OLD:  HASH OP NEW:  HASH SUBJECT", a side being a number
 * padded on the left to the widest's width, or "-" (HASH then dashes)
 * where the commit is on the other side only; the lines of a block are
 * indented by four. */
static size_t rdiff_series(const struct split_run *sr, const char *line,
			   const char *lim)
{
	const char *p = line;
	size_t k = 0;

	while (p < lim && *p == ' ' && p - line < 4)
		p++;
	long old = rdiff_side(&p), now;
	if (old < 0)
		return sr->n;
	while (p < lim && *p != ' ')        /* the hash */
		p++;
	if (p + 3 > lim || p[0] != ' ' || !strchr("=!<>", p[1]) || p[2] != ' ')
		return sr->n;
	for (p += 3; p < lim && *p == ' '; p++)      /* the number's padding */
		;
	if ((now = rdiff_side(&p)) < 0)
		return sr->n;
	if (now > 0 && (size_t)now <= sr->c->rc.nr)
		return sr->cut_of[now - 1];
	if (old < 1 || (size_t)old > sr->rs.prev.nr || !sr->prev_key[old - 1].p)
		return sr->n;
	while (k < sr->n && !(sr->cut[k].key &&
	       span_is(sr->prev_key[old - 1], sr->cut[k].key,
		       strlen(sr->cut[k].key))))
		k++;
	return k;
}

/* The blocks of sr->rdiff that speak of series i, onto m; how many.  A
 * line neither empty nor indented by four starts a block. */
static size_t add_cut_range_diff(struct sbuf *m, const struct split_run *sr,
				 size_t i)
{
	const char *p = sr->rdiff.buf, *end = p + sr->rdiff.len;
	size_t n = 0, at = sr->n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lim = nl ? nl : end;
		if (lim > p && !starts_with(p, lim, "    ")) {
			at = rdiff_series(sr, p, lim);
			n += at == i;
		}
		if (at == i)
			sb_addf(m, "%.*s\n", (int)(lim - p), p);
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* The paragraph that says the series is one of sr->n, and where the
 * others go. */
static void add_split_paragraph(struct sbuf *m, const struct split_run *sr,
				size_t self)
{
	sb_addf(m, "This series is one of %zu that together make one tree-wide "
		"change, one for\neach %s that takes it.  The others:\n", sr->n,
		sr->o->split == SPLIT_ROUTE ? "tree" :
		sr->o->split == SPLIT_SUBSYSTEM ? "subsystem" : "list");
	struct sbuf line = SBUF_INIT;
	for (size_t i = 0; i < sr->n; i++)
		if (i != self) {
			sb_setlen(&line, 0);
			const char *key = sr->cut[i].key;
			sb_addf(&line, "%s (%zu patch%s): %s", sr->cut[i].dir,
				sr->cut[i].n, sr->cut[i].n == 1 ? "" : "es",
				!key ? "files of several" :
				*key ? key_url(key) : "none named");
			/* 75 columns, as checkpatch.pl wants a message */
			add_wrapped(m, line.buf, 75, 2, 4);
		}
	sb_release(&line);
	sb_addc(m, '\n');
}

/* Marks in seen the commits of other series before series i's that
 * touch its files: those it needs first. */
static void mark_needed(const struct split_run *sr, size_t i, char *seen)
{
	const struct cut *cut = &sr->cut[i];
	const struct plan *p = &sr->c->p;
	const struct source *src = &sr->c->src;

	for (size_t a = 0; a < cut->n; a++)
		for (size_t j = 0, k = cut->commit[a]; j < k; j++) {
			if (seen[j] || sr->cut_of[j] == i)
				continue;
			for (size_t x = 0; x < p->g[j].nr && !seen[j]; x++)
				for (size_t y = 0; y < p->g[k].nr && !seen[j]; y++)
					seen[j] = !strcmp(src->f[p->g[j].member[x]].path,
							  src->f[p->g[k].member[y]].path);
		}
}

/* Marks in sr->need each series' commits needed first, and puts the
 * patch ids of all of them into sr->ids:
 * theirs only, where a git log -p of the whole range took as long as
 * reading the patches.  0, or -1 after error(). */
static int needed_patch_ids(struct split_run *sr)
{
	size_t n = sr->c->rc.nr;
	struct sbuf ids = SBUF_INIT, diff = SBUF_INIT;

	sr->need = xcalloc(xmul(sr->n, n + 1) + 1, 1);
	for (size_t i = 0; i < sr->n; i++)
		mark_needed(sr, i, sr->need + i * (n + 1));
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < sr->n; i++)
			if (sr->need[i * (n + 1) + j]) {
				sb_addf(&ids, "%s\n", sr->c->rc.c[j].id);
				break;
			}
	int r = commit_patch_ids(ids.buf, NULL, &sr->ids, &diff);
	sb_release(&ids);
	sb_release(&diff);
	return r;
}

/* Series i's "prerequisite-patch-id:" lines for base, and how many. */
static size_t add_prerequisites(struct sbuf *base, const struct split_run *sr,
				size_t i)
{
	size_t nc = sr->c->rc.nr, n = 0;
	const char *need = sr->need + i * (nc + 1), *pid;

	for (size_t j = 0; j < nc; j++)
		if (need[j] && (pid = patch_of(&sr->ids, sr->c->rc.c[j].id))) {
			sb_addf(base, "prerequisite-patch-id: %s\n", pid);
			n++;
		}
	return n;
}

/* The fates of series i's previous patches: those that became one of
 * its commits, and, in the first part of its key, those of the key that
 * became none. */
static void cut_fates(struct sbuf *m, const struct split_run *sr, size_t i)
{
	const struct cut *cut = &sr->cut[i];
	const char *key = cut_key(cut);
	char *in = xcalloc(sr->c->rc.nr + 1, 1);
	char *orphan = xcalloc(sr->rs.prev.nr + 1, 1);

	for (size_t x = 0; x < sr->c->rc.nr; x++)
		in[x] = sr->cut_of[x] == i;
	for (size_t p = 0; p < sr->rs.prev.nr && cut->part <= 1; p++)
		orphan[p] = sr->prev_key[p].p &&
			    span_is(sr->prev_key[p], key, strlen(key));
	add_fates(m, &sr->rs, &sr->c->rc, in, orphan);
	free(in);
	free(orphan);
}

/* What became of series i's previous patches and their range-diff, for
 * its letter (of them: what names them) or below a lone patch's "---",
 * where git format-patch --range-diff puts it. */
static void cut_changes(struct sbuf *m, const struct split_run *sr, size_t i,
			const char *patches, const char *them)
{
	int was = sr->o->version - 1;

	add_changes_heading(m, was, sr->o->prev, patches);
	cut_fates(m, sr, i);
	size_t at = m->len;
	add_range_diff_heading(m, was, them);
	if (!add_cut_range_diff(m, sr, i))
		sb_setlen(m, at);
	sb_addc(m, '\n');
}

/* Series i's cover letter into *cv, its strings in f. */
static void split_cover(struct split_run *sr, size_t i, const struct sbuf *pre,
			size_t npre, struct format_cover *f, struct cover *cv)
{
	const struct cut *cut = &sr->cut[i];
	struct cmd *c = sr->c;
	size_t nall = 0;

	add_tag(&f->tag, sr->o, 0, cut->n, 1);
	sb_addf(&f->subject, "%s%s", cut->prefix, sr->subject.buf);
	if (cut->tag || cut->parts > 1)
		sb_addf(&f->subject, " (%s%s", cut->tag ? cut->tag : "",
			cut->tag && cut->parts > 1 ? ", " : "");
	if (cut->parts > 1)
		sb_addf(&f->subject, "part %zu of %zu", cut->part, cut->parts);
	if (cut->tag || cut->parts > 1)
		sb_addc(&f->subject, ')');
	sb_addf(&f->aim, "%s\n", sr->aim.buf);
	add_split_paragraph(&f->aim, sr, i);
	sb_adds(&f->base, sr->base.buf);
	sb_adds(&f->base, pre->buf);
	if (npre)
		sb_addf(&f->aim, "It applies after %zu patch%s of the others, "
			"named below by their patch ids.\n\n", npre,
			npre == 1 ? "" : "es");
	if (sr->respun)
		cut_changes(&f->changes, sr, i, " of this series' patches",
			    " of them");
	cover_commits(f, &c->rc, cut->commit, cut->n);
	for (size_t j = 0; j < cut->n; j++) {
		const struct group *g = &c->p.g[cut->commit[j]];
		f->member = xrealloc(f->member, xmul(nall + g->nr + 1,
						     sizeof *f->member));
		memcpy(f->member + nall, g->member, g->nr * sizeof *f->member);
		nall += g->nr;
	}
	sort_members(f->member, nall, &c->src);
	*cv = cover_of(f, &sr->date, sr->branch, &c->src, nall);
}

/* Series i: its mails into OUTDIR/its folder, its day in the plan. */
static int write_cut(struct split_run *sr, size_t i)
{
	struct cut *cut = &sr->cut[i];
	const struct format_opts *o = sr->o;
	struct format_cover f = FORMAT_COVER_INIT;
	struct series_mails sm = { 0 };
	struct sbuf dir = SBUF_INIT, lists = SBUF_INIT;
	char cover_id[32];
	fmt_buf(cover_id, sizeof cover_id, "cover.%zu", i + 1);
	struct series_spec s = { .n = cut->n, .version = o->version,
		.list_counts = 1, .people_to = 1, .thread = sr->thread,
		.cover_id = cover_id,
		.ad = { o->all_cc, o->to.v, o->cc.v, o->to.n, o->cc.n } };

	/* one patch goes alone, but for one that needs others' first: its
	 * letter says which */
	struct sbuf pre = SBUF_INIT;
	size_t npre = add_prerequisites(&pre, sr, i);
	s.cover = cut->n > 1 || npre;
	s.it = commit_items(o, &sr->c->rc, &sr->c->p, cut->commit, cut->n,
			    s.cover);
	if (s.cover)
		split_cover(sr, i, &pre, npre, &f, &s.cv);
	else if (sr->respun)
		cut_changes(&s.it[0].notes, sr, i, "", "");
	sb_release(&pre);
	sb_addf(&dir, "%s/%s", sr->outdir, cut->dir);
	int r = make_series(&sm, &s, &sr->c->src, sr->c->ow.m, &sr->c->ow.o);
	if (!r) {
		struct mail_opts mo = { .outdir = dir.buf, .force = o->force };
		sending_warnings(&sm, sr->c->ow.m, o->max_rcpt, o->to.n + o->cc.n,
				 &sr->said);
		r = write_series(&mo, sm.name, sm.text, sm.n + (size_t)sm.cover);
	}
	if (!r)
		record_mails(sr->rec, &sm, &s);
	for (size_t j = 0; !r && j < cut->n; j++) {
		sb_setf(&lists, "%s/%s", cut->dir, sm.name[j + (size_t)sm.cover]);
		sr->name[cut->commit[j]] = sb_detach(&lists, NULL);
	}
	if (!r) {
		struct addresses l = ADDRESSES_INIT;
		series_lists(&sm, &l);
		for (size_t k = 0; k < l.n; k++)
			sb_addf(&lists, "%s%.*s", k ? ", " : "", (int)l.v[k].box.len,
				l.v[k].box.p);
		addresses_release(&l);
		sr->lists[i] = sb_detach(&lists, NULL);
		cut->day = send_day(&sr->loads, &sm, sr->max);
	}
	series_mails_release(&sm);
	mail_items_release(s.it, s.n);
	format_cover_release(&f);
	sb_release(&dir);
	sb_release(&lists);
	return r;
}

/* The send plan, on stderr: each series on its day, with what to run. */
static void print_send_plan(const struct split_run *sr)
{
	size_t mails = 0, days = 0;

	for (size_t i = 0; i < sr->n; i++) {
		mails += sr->cut[i].n + (sr->cut[i].n > 1);
		if (sr->cut[i].day > days)
			days = sr->cut[i].day;
	}
	note("%zu series, %zu mails; check each, then send "
		 "them over %zu day%s (no list gets more than %zu patch%s a "
		"day):", sr->n, mails, days, days == 1 ? "" : "s", sr->max,
		 sr->max == 1 ? "" : "es");
	size_t most;
	const char *pace = busiest_list(&sr->loads, &most);
	if (days > 1 && pace)
		xfprintf(2, "  (the pace is %s's: %zu patches in all)\n",
			 pace, most);
	for (size_t d = 1; d <= days; d++)
		for (size_t i = 0; i < sr->n; i++) {
			if (sr->cut[i].day != d)
				continue;
			struct sbuf w = SBUF_INIT;
			add_shell_word(&w, sr->outdir);
			xfprintf(2, "  day %zu: git send-email %s/%s/*.patch\n"
				 "         %zu patch%s to %s\n", d, w.buf,
				 sr->cut[i].dir, sr->cut[i].n,
				 sr->cut[i].n == 1 ? "" : "es",
				 *sr->lists[i] ? sr->lists[i] : "no list");
			sb_release(&w);
		}
}

static void split_run_release(struct split_run *sr)
{
	free_strings(sr->name, sr->c->rc.nr);
	free_strings(sr->lists, sr->n);
	cuts_free(sr->cut, sr->n);
	free(sr->cut_of);
	free(sr->need);
	pids_release(&sr->ids);
	sb_release(&sr->subject);
	sb_release(&sr->aim);
	said_release(&sr->said);
	sb_release(&sr->base);
	prev_close(&sr->rs);
	sb_release(&sr->prev_map);
	free(sr->prev_key);
	free_strings(sr->first_list, sr->c->src.nr);
	free(sr->branch);
	free(sr->thread);
	loads_release(&sr->loads);
	sb_release(&sr->rdiff);
}

/* With -v N, the previous version as it was split: its commits, each
 * one's key there, what became of them, and the range-diff of it all.
 * Where it was not sent split, nothing (after a warning).  0, or -1
 * after error(). */
static int split_previous(struct split_run *sr)
{
	struct cmd *c = sr->c;
	int r = 0;

	if (recorded_split(&c->rg, sr->o->version - 1, &sr->prev_map))
		r = prev_open(&sr->rs, sr->o->prev, &c->rg, &c->rc);
	if (r || !(sr->respun = sr->prev_map.len > 0))
		return r;
	sr->prev_key = xcalloc(sr->rs.prev.nr + 1, sizeof *sr->prev_key);
	for (size_t i = 0; i < sr->rs.prev.nr; i++)
		sr->prev_key[i] = mapped_key(sr->prev_map.buf, sr->rs.prev.c[i].id);
	return range_diff(sr->o->prev, &c->rg, &sr->rdiff);
}

/* The folders of an earlier split in outdir ("NN-name" holding a
 * series): without remove, refused unless force (before anything is
 * written, so a refusal writes nothing); with remove, those this split
 * did not write are emptied of their mails and removed (a stale folder
 * would be sent with the rest).  0, or -1 after error(). */
static int stale_cuts(const struct split_run *sr, int remove)
{
	DIR *d = opendir(sr->outdir);
	struct sbuf path = SBUF_INIT;
	int r = 0;

	for (struct dirent *de; !r && d && (de = readdir(d));) {
		size_t k = 0, digits = strspn(de->d_name, "0123456789");
		if (!digits || de->d_name[digits] != '-')
			continue;
		while (k < sr->n && strcmp(sr->cut[k].dir, de->d_name))
			k++;
		if (remove && k < sr->n)
			continue;
		char **old;
		size_t nold;
		sb_setf(&path, "%s/%s", sr->outdir, de->d_name);
		if (old_series(path.buf, &old, &nold) < 0) {
			r = -1;
			break;
		}
		if (nold && !sr->o->force)
			r = error("%s: holds a series already; --force replaces "
				  "it", path.buf);
		for (size_t i = 0; i < nold; i++) {
			if (remove) {
				struct sbuf f = SBUF_INIT;
				sb_addf(&f, "%s/%s", path.buf, old[i]);
				unlink(f.buf);
				sb_release(&f);
			}
			free(old[i]);
		}
		free(old);
		if (remove && nold)
			rmdir(path.buf);
	}
	if (d)
		closedir(d);
	sb_release(&path);
	return r;
}

/* Per file of the range, the first list its recipients alone have (its
 * owning section's), or NULL: the key of --split list.  The caller frees
 * it with free_strings(..., c->src.nr). */
static char **first_lists(struct cmd *c)
{
	char **v = xcalloc(c->src.nr + 1, sizeof *v);

	if (c->ow.m && !c->ow.alone && file_recipients(&c->ow, &c->src) < 0)
		return v;
	for (size_t i = 0; c->ow.alone && i < c->src.nr; i++)
		for (size_t k = 0; k < c->ow.alone[i].n && !v[i]; k++)
			if (c->ow.alone[i].v[k].list) {
				struct span b = c->ow.alone[i].v[k].a.box;
				v[i] = xstrndup(b.p, b.len);
			}
	return v;
}

/* The range cut into series by the key --split names (cut_series()),
 * each commit's series in sr->cut_of, "COMMIT KEY" lines into map; a
 * commit whose files tie between keys, said. */
static void split_cuts(struct split_run *sr, struct sbuf *map)
{
	const struct cmd *c = sr->c;
	int by = sr->o->split;
	char **subj = commit_subjects(&c->rc);

	sr->first_list = by == SPLIT_LIST ? first_lists(sr->c) : NULL;
	sr->n = cut_series(&c->p, &c->src, by == SPLIT_ROUTE ? c->ow.route :
			   by == SPLIT_SUBSYSTEM ? c->ow.section : sr->first_list,
			   subj, sr->max, &sr->cut);
	free_strings(subj, c->rc.nr);
	sr->cut_of = xcalloc(c->rc.nr + 1, sizeof *sr->cut_of);
	for (size_t i = 0; i < sr->n; i++)
		for (size_t j = 0; j < sr->cut[i].n; j++) {
			sr->cut_of[sr->cut[i].commit[j]] = i;
			sb_addf(map, "%s %s\n", c->rc.c[sr->cut[i].commit[j]].id,
				cut_key(&sr->cut[i]));
		}
	for (size_t i = 0; i < sr->n; i++)
		if (!sr->cut[i].key)
			warning("%s: its files go to several %s, as many to each: a "
				"series of its own (%s)", c->rc.c[sr->cut[i].commit[0]].id,
				by == SPLIT_ROUTE ? "trees" : by == SPLIT_SUBSYSTEM ?
				"subsystems" : "lists", sr->cut[i].dir);
}

/* format --split: the series, then the hardware warnings by mail, then
 * the send plan. */
static int format_split(struct cmd *c, const struct format_opts *o,
			const char *outdir, struct sbuf *map, struct sbuf *rec)
{
	struct split_run sr = { .c = c, .o = o, .outdir = outdir,
		.max = o->max_patches ? (size_t)o->max_patches : 15,
		.subject = SBUF_INIT, .aim = SBUF_INIT,
		.said = SAID_INIT, .base = SBUF_INIT, .rs = PREV_VERSION_INIT,
		.prev_map = SBUF_INIT, .rec = rec, .rdiff = SBUF_INIT };
	size_t nk = c->rc.nr;
	struct stat st;
	int r = cover_text(o->cover, 0, outdir, &sr.subject, &sr.aim) < 0 ||
		add_base(&sr.base, &c->rg) < 0 ? -1 : 0;

	split_date(&sr.date);
	sr.thread = thread_of(&sr.date, c->rc.c[nk - 1].author);
	sb_addf(rec, "date %lld\n", (long long)sr.date.when);
	split_cuts(&sr, map);
	if (!r)
		r = needed_patch_ids(&sr);
	if (!r && o->prev)
		r = split_previous(&sr);
	sr.name = xcalloc(nk + 1, sizeof *sr.name);
	sr.lists = xcalloc(sr.n + 1, sizeof *sr.lists);
	sr.branch = r ? NULL : public_branch(&c->repo, c->rg.tip);
	if (!r && stat(outdir, &st) < 0 && mkdir(outdir, 0777) < 0)
		r = error_on(outdir);
	if (!r)
		r = stale_cuts(&sr, 0);
	for (size_t i = 0; !r && i < sr.n; i++)
		r = write_cut(&sr, i);
	if (!r)
		r = stale_cuts(&sr, 1);
	if (!r) {
		hardware_warnings(&c->src, &c->p, 1, NULL, c->repo.top, sr.name,
				  0);
		print_send_plan(&sr);
	}
	split_run_release(&sr);
	return failed(r);
}

/* Keeps the commits of rc that touch a path matching one of include.  An
 * empty commit (a note for reviewers, b4's cover-letter commit) is left
 * out and said: as a mail it is a patch git am stops at, and b4's is the
 * cover letter, not a patch. */
static void keep_commits(struct rcommits *rc, const char *const *include)
{
	size_t w = 0;

	for (size_t i = 0; i < rc->nr; i++) {
		if (!rc->c[i].npath) {
			char *s = subject_of(rc->c[i].msg);
			warning("%.12s (%s) changes nothing: left out of the "
				"mails (%s)", rc->c[i].id, s,
				str_find(rc->c[i].msg, "\n--- b4-submit-tracking ---") ?
				"b4's cover-letter commit; --cover FILE gives the "
				"letter its text" : "git am stops at an empty patch");
			free(s);
			rcommit_release(&rc->c[i]);
			continue;
		}
		int hit = 0;
		for (size_t j = 0; j < rc->c[i].npath && !hit; j++)
			hit = included(rc->c[i].path[j], include);
		if (hit) {
			rc->c[w++] = rc->c[i];
			continue;
		}
		rcommit_release(&rc->c[i]);
	}
	rc->nr = w;
}

/* The range's commits (those touching include, where given), one group
 * each, with their files' owners (routes: and the routes history gives,
 * from before the range's base). */
static int format_source(struct cmd *c, const char *spec,
			 const char *const *include, int routes)
{
	const char *br = repo_branch(&c->repo);
	char *onto = br ? xstrfmt("refs/series/%s/onto", br) : NULL, id[72];
	char *respun = NULL;

	/* after respin, the branch from the base it went onto */
	if (!spec && onto && !resolve_commit_quietly(onto, id))
		spec = respun = xstrfmt("%s..HEAD", id);
	int r = failed(open_range(c->a->cmd->name, spec, &c->repo, &c->rg) < 0 ? -1 : 0);
	if (!r && routes)       /* the window of history, beside the range */
		window_start(&c->win, c->repo.gitdir, c->rg.base);
	if (!r)
		r = failed(read_range_commits(&c->rg, &c->rc, "formatted"));

	free(onto);
	free(respun);
	if (r)
		return r;
	keep_commits(&c->rc, include);
	if (!c->rc.nr) {
		error("%s: no commits to format%s", c->rg.spec,
		      is_ancestor(c->rg.tip, c->rg.base) && strcmp(c->rg.tip,
		      c->rg.base) ? " (the other way round has some: is the "
		      "range reversed?)" : "");
		return EXIT_NOTHING;
	}
	if (routes)
		window_read(&c->win, c->repo.gitdir, c->rg.base);
	return failed(source_from_commits(&c->src, &c->p, &c->rc, c->rg.spec) < 0 ||
		      load_owners(&c->ow, c->repo.top, NULL) < 0 ||
		      owner_facts(&c->ow, &c->src, routes ? &c->win : NULL) < 0 ? -1 : 0);
}

/* The warnings due before the series goes out: the lists' limits, too
 * many recipients, the patches that need the hardware. */
static void format_warnings(struct cmd *c, const struct format_opts *o,
			    const struct series_mails *sm)
{
	char **subject = commit_subjects(&c->rc);

	warn_subjects(subject, c->rc.nr, NULL);
	free_strings(subject, c->rc.nr);
	sending_warnings(sm, c->ow.m, o->max_rcpt, o->to.n + o->cc.n, NULL);
	hardware_warnings(&c->src, &c->p, 1, NULL, c->repo.top,
			  sm->name + sm->cover, o->individual);
}

/* ==== 9. commands ======================================================= */

/* ---- the command context -----------------------------------------------
 * A command is a short composition of the parts above: it checks its
 * arguments, then runs named steps over one struct cmd (the run, at the
 * end of the sinks).  It stops at the first step that is not 0 and
 * leaves through cmd_end(), which frees whatever was filled, dies again
 * of a signal that stopped the run and returns the code: one way out.
 */

/* An empty context for the command whose arguments are a. */
static void cmd_init(struct cmd *c, struct args *a)
{
	static const struct cmd empty = CMD_INIT(NULL);

	*c = empty;
	c->a = a;
}

static int cmd_end(struct cmd *c, int r)
{
	sbufs_free(c->msgs, c->nmsgs);
	owners_release(&c->ow);
	plan_release(&c->p);
	wt_patch_finish(&c->src, 0);
	source_release(&c->src);
	status_release(&c->st);
	rcommits_release(&c->rc);
	free(c->rg.spec);
	sb_release(&c->text);
	sb_release(&c->sob);
	free(c->top);
	txn_release(&c->t);
	window_release(&c->win);
	repo_release(&c->repo);
	args_release(c->a);
	reraise_stop();
	return failed(r);
}

/* Before a command has a context: its arguments' end (-h answered, or a
 * usage error said). */
static int args_end(struct args *a, int r)
{
	args_release(a);
	return r == HELP_SHOWN ? EXIT_DONE : r;
}

static int nothing_to_commit(void)
{
	note("nothing to commit");
	return EXIT_NOTHING;
}

/* Opens the repository we stand in. */
static int open_repo(struct cmd *c)
{
	return failed(repo_open(&c->repo));
}

/* The commits of a range (NULL: the upstream's), which must be linear;
 * what names the command (verb) in the error. */
static int open_commits(struct cmd *c, const char *spec, const char *verb)
{
	return failed(open_range(c->a->cmd->name, spec, &c->repo, &c->rg) < 0 ||
		      read_range_commits(&c->rg, &c->rc, verb) < 0 ? -1 : 0);
}

/* The range must end at HEAD and start on one of its ancestors: what
 * regroup and trailers rewrite is the branch. */
static int range_ends_at_head(struct cmd *c)
{
	const struct range *r = &c->rg;

	if (!*c->repo.old || strcmp(r->tip, c->repo.old))
		return failed(error("%s %s: the range must end at HEAD (%.12s)",
				    c->a->cmd->name, r->spec,
				    *c->repo.old ? c->repo.old : "unborn"));
	const char *words[] = { "merge-base", "--is-ancestor", r->base, r->tip,
				NULL };
	int st = run_git(&(struct git_run){ .words = words, .quiet = 1 });
	if (st == 1)
		return failed(error("%s %s: %.12s is not an ancestor of HEAD",
				    c->a->cmd->name, r->spec, r->base));
	return failed(st ? git_failed("git merge-base", st) : 0);
}

/* "Signed-off-by: " and the committer's name and address, into c->sob. */
static int signoff_line(struct cmd *c)
{
	struct ident id;

	if (!c->t.committer && !(c->t.committer = ident("GIT_COMMITTER_IDENT")))
		return EXIT_FAIL;
	parse_ident(c->t.committer, &id);
	sb_addf(&c->sob, "Signed-off-by: %.*s", (int)id.who.len, id.who.p);
	return 0;
}

/* ---- plan, commit, split and regroup: their options and shared steps ---- */

/* The options of plan, commit, split and regroup, where the tables put
 * them. */
struct commit_opts {
	int by, depth;
	struct opt_list include;
	int untracked, signoff, dry_run, no_verify, gpg_sign; /* -1: --no-gpg-sign */
	const char *file, *message;
	const char *author, *directory, *outdir;   /* split */
	int strip, force, commit;                  /* split; strip -1: found */
	int compare;                               /* plan */
	int show;       /* the plan is shown, with recipients (plan, -n) */
	int prefixes;   /* learn %(prefix) from history (plan, or a template
			 * that holds it) */
	struct selection sel;
	const char *const *pathspec;
};

static const char *const by_names[] = { "dir", "file", "tree", "subsystem",
					 "maintainers", "route", NULL };

/* The option that needs MAINTAINERS, as the user wrote it, or NULL. */
static const char *needs_maintainers(const struct commit_opts *o)
{
	static const char *const opt[] = { "--by subsystem",
					   "--by maintainers", "--by route" };

	return o->sel.by >= BY_SUBSYSTEM ? opt[o->sel.by - BY_SUBSYSTEM] : NULL;
}

#define CO(f) offsetof(struct commit_opts, f)

static const struct opt selection_opts[] = {
	{ NULL, "--by", OPT_CHOICE, CO(by), 0, 0, "ORG",
	  "dir (default), file, tree (one group), or from MAINTAINERS: "
	  "subsystem (owning section), maintainers (same recipients), "
	  "route (same T: tree)", .choices = by_names },
	{ NULL, "--depth", OPT_NUMBER, CO(depth), 0, 0, "N",
	  "cut directories to their first N components",
	  .min = 1, .max = 4096 },
	{ NULL, "--include", OPT_LIST, CO(include), 0, 0, "GLOB",
	  "only paths matching GLOB (repeatable; * crosses /)", { NULL } },
	{ 0 }
};

static const struct opt worktree_opts[] = {
	{ "-u", "--untracked", OPT_FLAG, CO(untracked), 1, SYN_LONG, NULL,
	  "take untracked files too", { NULL } },
	{ 0 }
};

static const struct opt signoff_opts[] = {
	{ "-s", "--signoff", OPT_FLAG, CO(signoff), 1, 0, NULL,
	  "add Signed-off-by: with the committer's identity", { NULL } },
	{ 0 }
};

static const struct opt split_only_opts[] = {
	{ NULL, "--author", OPT_VALUE, CO(author), 0, 0, "'NAME <ADDR>'",
	  "the mails' author (default: git's user.name and user.email)",
	  { NULL } },
	{ "-p", NULL, OPT_NUMBER, CO(strip), 0, 0, "N",
	  "drop N leading components of the diff's paths (default: found)",
	  .min = 0, .max = 4096 },
	{ NULL, "--directory", OPT_VALUE, CO(directory), 0, 0, "DIR",
	  "put DIR/ before every path of the diff, as git apply does",
	  { NULL } },
	{ "-o", "--output-directory", OPT_VALUE, CO(outdir), 0, 0, "DIR",
	  "write the mails into DIR (default: .)", { NULL } },
	{ NULL, "--force", OPT_FLAG, CO(force), 1, 0, NULL,
	  "replace a series already in the output directory", { NULL } },
	{ NULL, "--commit", OPT_FLAG, CO(commit), 1, 0, NULL,
	  "commit the groups on HEAD instead (index and work tree untouched)",
	  { NULL } },
	{ 0 }
};

static const struct opt template_opts[] = {
	{ "-F", "--file", OPT_VALUE, CO(file), 0, 0, "FILE",
	  "the message template (- for stdin): SEDME is the group's "
	  "name, %(section) its owning section's title, %(prefix) the "
	  "subject prefix its history uses (\"i2c: omap: \")", { NULL } },
	{ "-m", "--message", OPT_VALUE, CO(message), 0, SYN_OR, "MSG",
	  "the message template itself", { NULL } },
	{ 0 }
};

static const struct opt commit_only_opts[] = {
	{ "-n", "--dry-run", OPT_FLAG, CO(dry_run), 1, 0, NULL,
	  "show the commits and their messages; write nothing", { NULL } },
	{ NULL, "--no-verify", OPT_FLAG, CO(no_verify), 1, 0, NULL,
	  "run neither the pre-commit nor the commit-msg hook", { NULL } },
	{ "-S", "--gpg-sign", OPT_FLAG, CO(gpg_sign), 1, SYN_HIDE, NULL,
	  "sign (refused: series cannot sign)", { NULL } },
	{ NULL, "--no-gpg-sign", OPT_FLAG, CO(gpg_sign), -1, 0, NULL,
	  "commit unsigned even where commit.gpgSign is set", { NULL } },
	{ 0 }
};

static const struct opt plan_only_opts[] = {
	{ NULL, "--compare", OPT_FLAG, CO(compare), 1, 0, NULL,
	  "a row of figures per organisation, to choose one with", { NULL } },
	{ 0 }
};

static const struct opt regroup_only_opts[] = {
	{ "-n", "--dry-run", OPT_FLAG, CO(dry_run), 1, 0, NULL,
	  "show the new commits and every trailer's fate; write nothing",
	  { NULL } },
	{ 0 }
};

#undef CO

static const struct opt *const plan_tables[] = {
	selection_opts, worktree_opts, template_opts, plan_only_opts, NULL };

static const struct opt *const commit_tables[] = {
	template_opts, signoff_opts, commit_only_opts, selection_opts,
	worktree_opts, NULL };

static const struct opt *const regroup_tables[] = {
	template_opts, signoff_opts, regroup_only_opts, selection_opts, NULL };

static const struct opt *const split_tables[] = {
	template_opts, signoff_opts, selection_opts, split_only_opts, NULL };

/* Reads the options of plan, commit, split or regroup, then checks what
 * the tables cannot: -F with -m, and that one is there where the command
 * requires a template. */
static int parse_commit_opts(struct args *a, struct commit_opts *o)
{
	int r = parse_opts(a, o);

	if (r)
		return r;
	o->sel.by = (enum group_by)o->by;   /* by_names is in enum order */
	o->sel.depth = o->depth;
	o->sel.include = o->include.v;
	o->pathspec = a->word;
	if (o->file && o->message)
		return cmd_usage(a->cmd, "-F and -m cannot be used together");
	if (a->cmd->required && !o->file && !o->message)
		return cmd_usage(a->cmd, "a message template is required "
				 "(-F FILE or -m MSG)");
	return 0;
}

/* The template of -F or -m into c->tm (neither given: none). */
static int template_step(struct cmd *c, const struct commit_opts *o)
{
	if (!o->file && !o->message)
		return 0;
	if (load_template(&c->text, o->file, o->message) < 0)
		return EXIT_FAIL;
	c->tm = (struct template){ c->text.buf, c->text.len, NULL };
	return 0;
}

/* The sign-off of -s into the template: the committer's, whoever the
 * author is (split --author). */
static int signoff_step(struct cmd *c, const struct commit_opts *o)
{
	if (!o->signoff)
		return 0;
	if (signoff_line(c))
		return EXIT_FAIL;
	c->tm.sob = c->sob.buf;
	return 0;
}

/* Whether plan shows the work tree's groups, whose hardware warnings read
 * the change as a patch (--compare shows rows, and no warnings). */
static int shows_hardware(const struct commit_opts *o)
{
	return o->show && !o->compare;
}

/* The work tree's change as a patch (started by worktree_step()), read
 * where K: lines are searched, so that the recipients are those format
 * gives the commits, and where plan shows the groups: the hardware rules
 * read its hunks. */
static int worktree_patch(struct cmd *c, const struct commit_opts *o)
{
	int want = (c->ow.m && c->ow.o.keywords) || shows_hardware(o);

	return wt_patch_finish(&c->src, want);
}

/* Whether the plan reads the window of history: for the prefixes, or
 * the routes (--by route, and --compare's route row). */
static int wants_history(const struct commit_opts *o)
{
	return o->prefixes || o->sel.by == BY_ROUTE || o->compare;
}

/* MAINTAINERS at top (an error where the grouping needs it and there is
 * none), each file's owner for the selection, and its recipients where
 * the groups or --compare's rows want them (after the work tree's patch,
 * which the owners pass does not need); then the plan, with the prefixes
 * history gives before rev where asked. */
static int group_step(struct cmd *c, struct commit_opts *o, const char *top,
		      const char *rev)
{
	int rcpt = o->sel.by == BY_MAINTAINERS || o->compare;
	int routes = o->sel.by == BY_ROUTE || o->compare;

	if (routes)
		window_read(&c->win, rev ? c->repo.gitdir : NULL, rev);
	if (load_owners(&c->ow, top, needs_maintainers(o)) < 0 ||
	    owner_facts(&c->ow, &c->src, routes ? &c->win : NULL) < 0 ||
	    worktree_patch(c, o) < 0 ||
	    (rcpt && c->ow.m && file_recipients(&c->ow, &c->src) < 0))
		return EXIT_FAIL;
	select_keys(&o->sel, &c->ow);
	if (!make_plan(&c->p, &c->src, &o->sel))
		return nothing_to_commit();
	int tags = o->sel.by >= BY_SUBSYSTEM && c->tm.text &&
		   find_bytes(c->tm.text, c->tm.len, "SEDME", 5) &&
		   names_repeat(&c->p);
	if ((o->prefixes || tags) && !o->compare)
		learn_prefixes(&c->p, &c->src, &c->win, c->repo.gitdir, rev,
			       o->sel.by == BY_FILE);
	if (tags)
		distinct_tags(&c->p);
	distinct_subjects(&c->p, &c->src, &c->tm);
	return 0;
}

/* Each group's message from the template, into c->msgs. */
static void messages_step(struct cmd *c)
{
	c->msgs = group_messages(&c->p, &c->tm);
	c->nmsgs = c->p.nr;
	warn_messages(c->msgs, c->nmsgs, &c->tm);
}

/* ---- plan and commit ------------------------------------------------- */

/* The work tree as the source: git status, the plan of it, what a commit
 * cannot take refused.  File i of the source is status entry i. */
static int worktree_step(struct cmd *c, struct commit_opts *o)
{
	struct sbuf mnt = SBUF_INIT;
	struct stat st;
	int r = 0;

	if (c->repo.old[0] && wants_history(o))
		window_start(&c->win, c->repo.gitdir, "HEAD");  /* beside */
	if (read_status(&c->st, o->untracked, o->pathspec) < 0)
		return EXIT_FAIL;
	source_from_status(&c->src, &c->st);
	/* the hardware rules and the recipients want the change as a patch:
	 * its diff runs beside the owners pass (on an unborn branch every
	 * file is new, and read whole) */
	sb_addf(&mnt, "%s/MAINTAINERS", c->repo.top);
	if (c->repo.old[0] && (shows_hardware(o) ||
	    ((o->show || o->compare || o->sel.by == BY_MAINTAINERS) &&
	     !stat(mnt.buf, &st))))
		r = wt_patch_start(&c->src, c->repo.gitdir, c->repo.top,
				   o->pathspec);
	sb_release(&mnt);
	if (r)
		return EXIT_FAIL;
	if ((r = group_step(c, o, c->repo.top, "HEAD")) ||
	    check_plan(&c->p, &c->src) < 0)
		return r ? r : EXIT_FAIL;
	if (chdir(c->repo.top) < 0)
		return failed(error_on(c->repo.top));
	return 0;
}

/*
 * plan of the work tree, and commit -n: the plan settled (settle_plan()),
 * so that what it shows is what commit would do (a file put back as HEAD
 * has it is no change), then its groups, or --compare's rows.
 */
static int show_worktree(struct cmd *c, const struct commit_opts *o,
			 int messages)
{
	struct changes cs = { NULL, 0 };
	int r = failed(settle_plan(&c->p, &c->src, &cs, c->repo.index));

	if (!r && !c->p.nr)
		r = nothing_to_commit();
	if (!r) {
		settled_source(&c->src, &c->p);
		if (o->compare)
			r = failed(print_compare(&o->sel, &c->src, &c->ow));
		else {
			char *letter = staged_letters(&c->p, &c->src, &cs);
			if (c->tm.text)
				messages_step(c);
			print_groups(&c->p, &c->src, letter, c->msgs, messages,
				     &c->ow);
			/* the rules read each file's hunks with the file as
			 * the work tree has it */
			if (c->src.text.len)
				hardware_warnings(&c->src, &c->p, 0, NULL,
						  c->repo.top, NULL, 0);
			free(letter);
		}
	}
	if (stop_signal && !r)
		r = failed(error("interrupted by signal %d", (int)stop_signal));
	free(cs.c);
	return r;
}

/* plan BASE..TIP: how the range's combined change would group. */
static int plan_range(struct cmd *c, struct commit_opts *o, const char *spec)
{
	int r;

	if (o->pathspec && o->pathspec[0])
		return failed(error("plan %s: PATHSPECs do not go with a range; "
				    "use --include", spec));
	if (resolve_range(spec, &c->rg) < 0)
		return EXIT_FAIL;
	if (wants_history(o))
		window_start(&c->win, c->repo.gitdir, c->rg.base);  /* beside */
	if (source_from_range(&c->src, &c->rg) < 0)
		return EXIT_FAIL;
	if ((r = group_step(c, o, c->repo.top, c->rg.base)))
		return r;
	if (o->compare)
		return failed(print_compare(&o->sel, &c->src, &c->ow));
	if (c->tm.text)
		messages_step(c);
	print_groups(&c->p, &c->src, NULL, c->msgs, 0, &c->ow);
	hardware_warnings(&c->src, &c->p, 0, c->rg.tip, c->repo.top, NULL, 0);
	return 0;
}

static int cmd_plan(struct args *a)
{
	struct commit_opts o = { 0 };
	int r = parse_commit_opts(a, &o);

	if (!r && a->dashdash && (a->dashdash > 1 || !is_range(a->word[0])))
		r = cmd_usage(a->cmd, "unknown argument '%s' (paths go after --; "
			      "a range is BASE..TIP)",
			      a->word[a->dashdash > 1 || is_range(a->word[0])]);
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	o.pathspec = a->word + a->dashdash;
	o.show = 1;
	catch_signals();
	if (!(r = template_step(&c, &o)) && !(r = open_repo(&c))) {
		o.prefixes = uses_prefix(&c.tm);  /* history only when asked */
		if (a->dashdash)
			r = plan_range(&c, &o, a->word[0]);
		else if (!(r = worktree_step(&c, &o)))
			r = show_worktree(&c, &o, 0);
	}
	return cmd_end(&c, r);
}

/* Refuses to write unsigned commits where the user asked for signed ones:
 * -S, or commit.gpgSign without --no-gpg-sign. */
static int check_signing(const struct commit_opts *o)
{
	static const char *const words[] = { "config", "--type=bool", "--get",
					     "commit.gpgSign", NULL };
	struct sbuf out = SBUF_INIT;
	const char *why = o->gpg_sign > 0 ? "-S was given" : NULL;

	if (!why && !o->gpg_sign) {
		int st = run_git(&(struct git_run){ .words = words, .out = &out });
		chomp(&out);
		if (st > 1) {
			sb_release(&out);
			return git_failed("git config", st);
		}
		if (!st && !strcmp(out.buf, "true"))
			why = "commit.gpgSign is true";
		sb_release(&out);
	}
	if (why)
		return error("commit: %s, but series cannot sign commits; "
			     "use --no-gpg-sign to commit unsigned, then sign "
			     "with git rebase --exec 'git commit --amend "
			     "--no-edit -S'", why);
	return 0;
}

/* The plan as commits: one transaction (commit_series()). */
static int commit_step(struct cmd *c, const struct commit_opts *o)
{
	struct changes cs = { NULL, 0 };
	struct import im = { .t = &c->t, .plan = &c->p, .src = &c->src,
			     .cs = &cs, .tmpl = &c->tm, .no_verify = o->no_verify };

	c->t.repo = &c->repo;
	int done = commit_series(&im);
	if (!done)
		txn_print(&c->t, c->repo.old, NULL);
	import_release(&im);
	free(cs.c);
	return done < 0 ? EXIT_FAIL : done ? nothing_to_commit() : 0;
}

/* What commit refuses before it looks at the change: an operation in
 * progress, signing; a dry run writes nothing, so it refuses neither. */
static int commit_refusals(struct cmd *c, const struct commit_opts *o)
{
	if (o->dry_run)
		return 0;
	return failed(check_idle(&c->repo, c->a->cmd->name) < 0 ||
		      check_signing(o) < 0 ? -1 : 0);
}

static int cmd_commit(struct args *a)
{
	struct commit_opts o = { 0 };
	int r = parse_commit_opts(a, &o);

	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	catch_signals();
	if (!(r = template_step(&c, &o)) && !(r = open_repo(&c)) &&
	    !(r = commit_refusals(&c, &o))) {
		o.prefixes = uses_prefix(&c.tm);
		o.show = o.dry_run;
		if (!(r = worktree_step(&c, &o)) && !(r = signoff_step(&c, &o)))
			r = o.dry_run ? show_worktree(&c, &o, 1) : commit_step(&c, &o);
	}
	return cmd_end(&c, r);
}

/* ---- split ----------------------------------------------------------------
 * A unified diff (a file or stdin) as the source, the grouping of plan
 * and commit, and the mail writer as the sink, or with --commit the apply
 * transaction.  Needs no repository for mails.
 */

/* The mails' author, "Name <addr>": --author, else git's identity. */
static int split_author(const struct commit_opts *o, char **author)
{
	struct ident id;

	if (o->author) {
		if (parse_ident(o->author, &id) < 0 || id.dated ||
		    strchr(o->author, '\n'))
			return error("--author: '%s' is not 'Name <addr>'",
				     o->author);
		*author = xstrdup(o->author);
		return 0;
	}
	static const char *const words[] = { "var", "GIT_AUTHOR_IDENT", NULL };
	struct sbuf out = SBUF_INIT;
	int st = run_git(&(struct git_run){ .words = words, .out = &out,
					    .quiet = 1 });
	chomp(&out);
	if (st || parse_ident(out.buf, &id) < 0) {
		sb_release(&out);
		return error("no author: give --author 'Name <addr>' (or set "
			     "git's user.name and user.email)");
	}
	*author = xstrndup(id.who.p, id.who.len);
	sb_release(&out);
	return 0;
}

/* The diff as the source: the file named (or stdin), parsed. */
static int diff_step(struct cmd *c, const struct commit_opts *o,
		     const char *what)
{
	struct diff_opts d = { o->strip, o->directory };

	return failed(read_diff(&c->src, what) < 0 ||
		      parse_diff(&c->src, what, &d) < 0 ? -1 : 0);
}

/* MAINTAINERS: the one above the current directory, whose directory the
 * diff's paths are relative to; none is an error only where the grouping
 * needs it. */
static int split_tree(struct cmd *c, const struct commit_opts *o)
{
	c->top = find_up(".");
	if (!c->top && needs_maintainers(o))
		return failed(error("%s: no MAINTAINERS above the current "
				    "directory", needs_maintainers(o)));
	return 0;
}

/* spatch's bare form names its files where it ran (patch -p0 reads them
 * there): split from a subdirectory of the tree puts that directory
 * before them.  The tree's top is MAINTAINERS' directory, else git's;
 * with neither, the current directory is the top. */
static int files_from_here(struct cmd *c)
{
	struct sbuf prefix = SBUF_INIT;
	char cwd[PATH_MAX];
	int any = 0;

	for (size_t i = 0; i < c->src.nr; i++)
		any |= c->src.f[i].here;
	if (!any)
		return 0;
	if (c->top && getcwd(cwd, sizeof cwd) && strcmp(cwd, c->top)) {
		size_t n = strlen(c->top);
		if (strncmp(cwd, c->top, n) || cwd[n] != '/')
			return failed(error("%s is not below the tree's top %s: "
					    "run split there, or give --directory",
					    cwd, c->top));
		sb_addf(&prefix, "%s/", cwd + n + 1);
	} else if (!c->top) {
		static const char *const words[] = { "rev-parse", "--show-prefix",
						     NULL };
		if (run_git(&(struct git_run){ .words = words, .out = &prefix,
					       .quiet = 1 }))
			sb_setlen(&prefix, 0);
		chomp(&prefix);
	}
	for (size_t i = 0; prefix.len && i < c->src.nr; i++) {
		struct sfile *f = &c->src.f[i];
		if (!f->here)
			continue;
		struct sbuf p = SBUF_INIT;
		sb_addf(&p, "%s%s", prefix.buf, f->path);
		free(f->path);
		f->path = sb_detach(&p, NULL);
	}
	sb_release(&prefix);
	return 0;
}

/* --commit: the groups as commits on HEAD; the index and the work tree are
 * not written. */
static int split_commit(struct cmd *c, const struct commit_opts *o,
			const char *author)
{
	struct txn *t = &c->t;

	if (open_repo(c) || check_idle(&c->repo, c->a->cmd->name) < 0 ||
	    (!t->committer && !(t->committer = ident("GIT_COMMITTER_IDENT"))))
		return EXIT_FAIL;
	if (o->author) {
		/* the author's name with the committer's time */
		struct ident id;
		struct sbuf a = SBUF_INIT;
		parse_ident(t->committer, &id);
		sb_addf(&a, "%s%s", author, id.who.p + id.who.len);
		t->author = sb_detach(&a, NULL);
	}
	t->repo = &c->repo;
	if (apply_series(t, &c->p, &c->src, c->msgs, o->directory) < 0)
		return EXIT_FAIL;
	txn_print(t, c->repo.old, NULL);
	if (*c->repo.old)
		note("the index and the work tree still hold "
			 "%.12s; `git read-tree -m -u %.12s HEAD` brings them to "
			 "the new HEAD", c->repo.old, c->repo.old);
	return 0;
}

static int split_mails(struct cmd *c, const struct commit_opts *o,
		       const char *author)
{
	struct mail_opts mo = { .author = author,
				.outdir = o->outdir ? o->outdir : ".",
				.force = o->force };

	split_date(&mo);
	return failed(write_mails(&mo, &c->src, &c->p, c->msgs, c->ow.m,
				  &c->ow.o));
}

static int cmd_split(struct args *a)
{
	struct commit_opts o = { .strip = -1 };
	int r = parse_commit_opts(a, &o);

	if (!r && a->nword > 1)
		r = cmd_usage(a->cmd, "one diff at a time ('%s' is a second)",
			      a->word[1]);
	if (!r && o.commit && o.outdir)
		r = cmd_usage(a->cmd, "--commit writes no mails: -o cannot go "
			      "with it");
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	char *author = NULL;
	catch_signals();
	if (!(r = template_step(&c, &o)) &&
	    !(r = diff_step(&c, &o, a->nword ? a->word[0] : "-")) &&
	    !(r = failed(split_author(&o, &author))) && !(r = split_tree(&c, &o)) &&
	    !(r = files_from_here(&c))) {
		o.prefixes = uses_prefix(&c.tm);
		if (!(r = group_step(&c, &o, c.top, "HEAD")) &&
		    !(r = signoff_step(&c, &o))) {
			messages_step(&c);
			r = o.commit ? split_commit(&c, &o, author) :
				       split_mails(&c, &o, author);
		}
	}
	free(author);
	return cmd_end(&c, r);
}

/* ---- regroup --------------------------------------------------------------
 * A commit range as the source, any grouping, and the take transaction
 * (take_series) as the sink, on the range's base; the last commit's tree
 * must be the range's, and the trailers each old commit carried go where all of a new
 * commit's changes carried them.
 */

/* The range, which must be the branch's end, as commits and as one change;
 * its tip's tree into want. */
static int regroup_source(struct cmd *c, const struct commit_opts *o,
			  const char *spec, char *want)
{
	int r;

	if (!o->dry_run && check_idle(&c->repo, c->a->cmd->name) < 0)
		return EXIT_FAIL;
	if (resolve_range(spec, &c->rg) < 0)
		return EXIT_FAIL;
	if ((r = range_ends_at_head(c)))
		return r;
	return failed(read_range_commits(&c->rg, &c->rc, "regrouped") < 0 ||
		      source_from_range(&c->src, &c->rg) < 0 ||
		      tree_of(c->rg.tip, want) < 0 ? -1 : 0);
}

/* The files --include leaves out, said: the new commits have them as the
 * base had them. */
static void report_left_out(const struct cmd *c, const struct commit_opts *o)
{
	size_t out = 0;

	for (size_t i = 0; i < c->src.nr; i++)
		out += !included(c->src.f[i].path, o->sel.include);
	if (out)
		note("%zu file%s outside --include stay%s as "
			 "%.12s has %s; the old tip is %.12s", out,
			 out == 1 ? "" : "s", out == 1 ? "s" : "", c->rg.base,
			 out == 1 ? "it" : "them", c->rg.tip);
}

/* The new commits: shown with every trailer's fate (-n), or made; with
 * --include, of the included files alone (want NULL). */
static int regroup_commits(struct cmd *c, const struct regroup *rg,
			   const char *want, int dry_run)
{
	if (dry_run) {
		print_groups(&c->p, &c->src, NULL, c->msgs, 1, NULL);
		report_trailers(rg, &c->p, 1);
		return 0;
	}
	c->t.repo = &c->repo;
	char **author = regroup_authors(rg, &c->p);
	int r = take_series(&c->t, &c->p, &c->src, c->msgs, c->rg.base,
			    c->rg.tip, want, author);
	free_strings(author, c->p.nr);
	if (r < 0)
		return EXIT_FAIL;
	report_trailers(rg, &c->p, 0);
	char was[64];
	fmt_buf(was, sizeof was, " (was %zu commit%s)", c->rc.nr,
		 c->rc.nr == 1 ? "" : "s");
	txn_print(&c->t, c->rg.base, was);
	return 0;
}

static int cmd_regroup(struct args *a)
{
	struct commit_opts o = { 0 };
	int r = parse_commit_opts(a, &o);

	if (!r && (a->nword != 1 || !is_range(a->word[0])))
		r = cmd_usage(a->cmd, a->nword ? "one range BASE..HEAD, not '%s'" :
			      "a range BASE..HEAD is required",
			      a->nword ? a->word[a->nword > 1] : "");
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct regroup rg = { .commits = &c.rc };
	char want[72];
	catch_signals();
	if (!(r = template_step(&c, &o)) && !(r = open_repo(&c)) &&
	    !(r = regroup_source(&c, &o, a->word[0], want))) {
		o.prefixes = uses_prefix(&c.tm);
		if (!(r = group_step(&c, &o, c.repo.top, c.rg.base)) &&
		    !(r = signoff_line(&c))) {
			collect_trailers(&rg, o.signoff ? c.sob.buf : NULL);
			map_file_commits(&rg, &c.src);
			c.msgs = regroup_messages(&rg, &c.p, &c.tm,
						  o.signoff ? c.sob.buf : NULL);
			c.nmsgs = c.p.nr;
			report_own_text(&rg, &c.p, c.msgs);
			report_left_out(&c, &o);
			r = regroup_commits(&c, &rg, o.include.n ? NULL : want,
					    o.dry_run);
		}
	}
	regroup_release(&rg, c.src.nr);
	return cmd_end(&c, r);
}

/* ---- cc -------------------------------------------------------------------
 * get_maintainer.pl's answer for patches (or, with -f, files of the tree),
 * as git send-email's --cc-cmd runs it: the tree's MAINTAINERS found above
 * the first patch, .get_maintainer.conf's switches under the command
 * line's, one query for all the arguments, or for a cover letter the
 * lists of its series.
 */

/*
 * The command line of `series cc`: options anywhere (as Getopt permutes
 * them), "--" ends them; --maintainers and -f are ours, the rest the
 * script's switches, read into sw.  sw starts with every field -1, so the
 * fields the command line set are known: they win over the conf file.
 */
struct cc_args {
	struct cc_opts sw;   /* first: the switch rows are offsets into it */
	const char *mfile, *since;
	int from_files;
	const char **arg;
	size_t narg;
};

static const struct opt cc_own_opts[] = {
	{ NULL, "--maintainers", OPT_VALUE, offsetof(struct cc_args, mfile), 0, 0,
	  "FILE", "this MAINTAINERS; its directory is the tree's top",
	  { NULL } },
	{ "-f", "--file", OPT_FLAG, offsetof(struct cc_args, from_files), 1, SYN_HIDE,
	  NULL, "the arguments are paths in the tree, not patches", { NULL } },
	{ NULL, "--git-since", OPT_VALUE, offsetof(struct cc_args, since), 0, SYN_HIDE,
	  "WHEN", "history: since WHEN (git log's --since; 1-year-ago)",
	  { NULL } },
	{ 0 }
};

static const struct opt *const cc_tables[] = { cc_own_opts, cc_switches, NULL };

static int parse_cc_args(struct args *a, struct cc_args *c)
{
	for (const struct opt *o = cc_switches; o->lng; o++)
		*(int *)(void *)((char *)&c->sw + o->off) = -1;
	int r = parse_opts(a, c);
	if (r)
		return r;
	c->arg = a->word;
	c->narg = a->nword;
	if (!c->narg)
		return cmd_usage(a->cmd, "no patch or file given");
	if (c->since && strlen(c->since) >= sizeof c->sw.git_since)
		return cmd_usage(a->cmd, "--git-since: too long");
	return 0;
}

/* The conf's switches in o, then the command line's over them. */
static void apply_switches(struct cc_opts *o, const struct cc_args *c)
{
	for (const struct opt *row = cc_switches; row->lng; row++) {
		int v = *(const int *)(const void *)((const char *)&c->sw + row->off);
		if (v != -1)
			*(int *)(void *)((char *)o + row->off) = v;
	}
	if (c->since)
		fmt_buf(o->git_since, sizeof o->git_since, "%s", c->since);
}

/* Where MAINTAINERS and the tree's top are (see find_up): above the first
 * patch or -f path (an absolute one names its own tree, wherever we run),
 * else above the current directory. */
static int find_tree(const struct cc_args *c, char **top, char **mpath)
{
	if (c->mfile) {
		*mpath = xstrdup(c->mfile);
		*top = dir_of(c->mfile);
		return 0;
	}
	const char *first = c->arg[0];
	char *d = !strcmp(first, "-") ? xstrdup(".") : dir_of(first);
	*top = find_up(d);
	free(d);
	if (!*top)
		*top = find_up(".");
	if (!*top)
		return error("cc: no MAINTAINERS file above %s or the current "
			     "directory (use --maintainers FILE)", first);
	struct sbuf p = SBUF_INIT;
	sb_addf(&p, "%s/MAINTAINERS", *top);
	*mpath = sb_detach(&p, NULL);
	return 0;
}

/*
 * Builds the one query of the command line, as the script does: every
 * argument's files in one list (a patch's files, sorted with those before;
 * a file asked for by -f, by being a directory, or by being tracked by git
 * and no patch), keywords from all of them.  A lone cover letter is
 * answered by cc_cover instead; *cover says so.
 */
static int build_cc_query(struct maintainers *m, const struct cc_opts *o,
			  const struct cc_args *c, const char *top,
			  struct patch_files *pf, struct kwtext *kw,
			  struct sbuf *out, int *cover)
{
	struct sbuf text = SBUF_INIT;
	int r = 0;

	*cover = 0;
	for (size_t i = 0; i < c->narg && !r; i++) {
		const char *path = c->arg[i];
		struct stat sb;
		if (strcmp(path, "-") && stat(path, &sb) < 0) {
			r = error("cc: %s: %s", path, strerror(errno));
			break;
		}
		if (c->from_files || (strcmp(path, "-") && S_ISDIR(sb.st_mode))) {
			add_named_file(m, o, top, path, pf, kw);
			continue;
		}
		sb_setlen(&text, 0);
		if ((r = read_mail(path, &text)) < 0)
			break;
		struct patch_files one = { 0 };
		struct kwtext okw = KWTEXT_INIT;
		size_t n = scan_patch(text.buf, text.len, &one, o->keywords ? &okw : NULL);
		if (c->narg == 1 && is_cover(strcmp(path, "-") ? path : NULL,
					     text.buf, text.len, n)) {
			patch_files_release(&one);
			kwtext_release(&okw);
			*cover = 1;
			r = cc_cover(m, o, path, text.buf, text.len, out);
			break;
		}
		if (!n && strcmp(path, "-") && git_tracks(path)) {
			patch_files_release(&one);
			kwtext_release(&okw);
			add_named_file(m, o, top, path, pf, kw);
			continue;
		}
		if (!n)
			warning("cc: %s does not look like a patch (-f asks for "
				"the file)", path);
		join_patch(pf, kw, &one, &okw);
	}
	sb_release(&text);
	return r;
}

/* The answer to the command line: a lone cover letter's, or its one
 * query's. */
static int cc_answer(struct maintainers *m, const struct cc_opts *o,
		     const struct cc_args *ca, const char *top, struct sbuf *out)
{
	struct patch_files pf = { 0 };
	struct kwtext kw = KWTEXT_INIT;
	int cover = 0, r = build_cc_query(m, o, ca, top, &pf, &kw, out, &cover);

	if (!r && !cover && pf.nr) {
		struct cc_query q;
		patch_query(&q, &pf, &kw);
		r = run_queries(m, o, &q, 1, out);
	}
	patch_files_release(&pf);
	kwtext_release(&kw);
	return failed(r);
}

static int cmd_cc(struct args *a)
{
	struct cc_args ca = { 0 };
	int r = parse_cc_args(a, &ca);

	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct cc_opts o = CC_OPTS_INIT;
	struct maintainers *m = NULL;
	struct sbuf out = SBUF_INIT;
	char *mpath = NULL;
	if (!(r = failed(find_tree(&ca, &c.top, &mpath)))) {
		/* the conf first, then the command line over it; a file
		 * named is that file alone, as the script's --mpath FILE */
		read_conf(&o, c.top);
		apply_switches(&o, &ca);
		o.find_files &= !ca.mfile;
		m = load_maintainers(mpath, c.top, &o);
		r = m ? cc_answer(m, &o, &ca, c.top, &out) : EXIT_FAIL;
	}
	if (!r)
		put_out(1, out.buf, out.len);
	if (m)
		maintainers_free(m);
	free(mpath);
	sb_release(&out);
	return cmd_end(&c, r);
}

/* ---- format -------------------------------------------------------------
 * A range's commits as mails (a version's mails, in the versions part),
 * then the record of the version.
 */
#define FO(f) offsetof(struct format_opts, f)

static const struct opt format_table[] = {
	{ "-o", "--output-directory", OPT_VALUE, FO(outdir), 0, 0, "DIR",
	  "write the mails into DIR (default: .)", { NULL } },
	{ NULL, "--to", OPT_LIST, FO(to), 0, 0, "ADDR",
	  "also To: of every mail (repeatable)", { NULL } },
	{ NULL, "--cc", OPT_LIST, FO(cc), 0, 0, "ADDR",
	  "also Cc: of every mail (repeatable)", { NULL } },
	{ NULL, "--all-cc", OPT_FLAG, FO(all_cc), 1, 0, NULL,
	  "everyone in Cc:, only --to in To:", { NULL } },
	{ NULL, "--rfc", OPT_FLAG, FO(rfc), 1, 0, NULL,
	  "[RFC PATCH] instead of [PATCH]", { NULL } },
	{ "-v", "--reroll-count", OPT_NUMBER, FO(version), 0, 0, "N",
	  "version N: [PATCH vN n/m] and vN- file names",
	  .min = 1, .max = 9999 },
	{ NULL, "--prev", OPT_VALUE, FO(prev), 0, SYN_IN, "OLD-BASE..OLD-TIP",
	  "the previous version's commits, to say what became of each (default "
	  "with -v N: version N-1 as format recorded it)",
	  { NULL } },
	{ NULL, "--include", OPT_LIST, FO(include), 0, 0, "GLOB",
	  "only the commits that touch a path matching GLOB (repeatable; * "
	  "crosses /): an RFC of one subsystem", { NULL } },
	{ NULL, "--individual", OPT_FLAG, FO(individual), 1, 0, NULL,
	  "no cover letter and no n/m: each patch stands alone", { NULL } },
	{ NULL, "--cover", OPT_VALUE, FO(cover), 0, 0, "FILE",
	  "the cover letter's subject (its first line) and aim (the rest)",
	  { NULL } },
	{ NULL, "--split", OPT_CHOICE, FO(split), 0, 0, "ORG",
	  "a series per merge route, owning section or first list, each in "
	  "a folder of DIR",
	  .choices = split_names },
	{ NULL, "--max-patches", OPT_NUMBER, FO(max_patches), 0, SYN_IN, "N",
	  "with --split: at most N patches a series, and a list N a day "
	  "(default 15)", .min = 1, .max = 100000 },
	{ NULL, "--max-recipients", OPT_NUMBER, FO(max_rcpt), 0, 0, "N",
	  "warn about a mail to more than N (default 40)",
	  .min = 1, .max = 1000000 },
	{ NULL, "--force", OPT_FLAG, FO(force), 1, 0, NULL,
	  "replace a series already in DIR (its cover letter's subject and "
	  "aim are kept)", { NULL } },
	{ 0 }
};

#undef FO

static const struct opt *const format_tables[] = { format_table, NULL };

/* format's arguments beyond the tables. */
static int format_args(struct args *a, const struct format_opts *o)
{
	if (a->nword > 1)
		return cmd_usage(a->cmd, "one range at a time ('%s' is a second)",
				 a->word[1]);
	if (o->prev && o->version < 2)
		return cmd_usage(a->cmd, "--prev needs -v N, the new version (2 "
				 "or more)");
	if (o->prev && !is_range(o->prev))
		return cmd_usage(a->cmd, "--prev: '%s' is no range (BASE..TIP)",
				 o->prev);
	if (o->max_patches && o->split < 0)
		return cmd_usage(a->cmd, "--max-patches needs --split");
	if (o->split >= 0 && o->individual)
		return cmd_usage(a->cmd, "--split writes series with cover "
				 "letters: --individual cannot go with it");
	if (o->individual && (o->cover || o->prev))
		return cmd_usage(a->cmd, "--individual writes no cover letter: "
				 "--cover and --prev cannot go with it");
	return 0;
}

static int cmd_format(struct args *a)
{
	struct format_opts o = { .max_rcpt = 40, .split = -1 };
	int r = parse_opts(a, &o);

	if (!r)
		r = format_args(a, &o);
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct series_mails sm = { 0 };
	struct sbuf prev = SBUF_INIT, map = SBUF_INIT, rec = SBUF_INIT;
	struct sbuf ids = SBUF_INIT;
	const char *outdir = o.outdir ? o.outdir : ".";
	catch_signals();
	if (o.split < 0 && series_dir_free(outdir, o.force) < 0)
		r = EXIT_FAIL;
	if (!r && !(r = open_repo(&c)) &&
	    !(r = format_source(&c, a->nword ? a->word[0] : NULL, o.include.v,
				o.split == SPLIT_ROUTE))) {
		if (o.version > 1 && !o.prev && !o.individual &&
		    recorded_prev(&c.rg, o.version, &prev))
			o.prev = prev.buf;
		if (o.split >= 0)
			r = format_split(&c, &o, outdir, &map, &rec);
		else if (!(r = format_mails(&c, &o, &sm, outdir, &rec))) {
			format_warnings(&c, &o, &sm);
			r = write_format_series(&sm, &o, outdir);
		}
	}
	/* a cut of the series (--include) is no version of it */
	if (!r && !o.include.n) {
		r = failed(form_ids(&c.src, &c.p, &c.ow, &c.rc, &ids) < 0 ||
			   record_version(&c.rg, o.version > 1 ? o.version : 1,
					  map.len ? map.buf : NULL, rec.buf,
					  &ids, o.force) < 0 ? -1 : 0);
	}
	series_mails_release(&sm);
	sb_release(&prev);
	sb_release(&map);
	sb_release(&rec);
	sb_release(&ids);
	return cmd_end(&c, r);
}

/* ---- check ----------------------------------------------------------------
 * The patches (mails, or the commits of a range) whose conversions need
 * testing on the hardware, each finding as FILE:LINE: why [rule], then for
 * each such patch who could test it.  Exit 1 when something is flagged,
 * so scripts can stop.
 */
static const struct opt *const check_tables[] = { NULL };

/* The patches to check: a range's commits (*rev gets each one's id), or
 * patch files (no rev; the tree they apply to, where at hand, is the one
 * above the current directory). */
static int check_source(struct cmd *c, int range, char ***rev)
{
	struct args *a = c->a;
	int r;

	if (!range) {
		if (source_from_patches(&c->src, &c->p, a->word, a->nword) < 0)
			return EXIT_FAIL;
		c->top = find_up(".");
		if (!c->top)
			c->top = xstrdup(".");
		return 0;
	}
	if ((r = open_repo(c)) ||
	    (r = open_commits(c, a->nword ? a->word[0] : NULL, "checked")))
		return r;
	if (source_from_commits(&c->src, &c->p, &c->rc, c->rg.spec) < 0)
		return EXIT_FAIL;
	*rev = xcalloc(c->rc.nr + 1, sizeof **rev);
	for (size_t i = 0; i < c->rc.nr; i++)
		(*rev)[i] = c->rc.c[i].id;
	c->top = xstrdup(c->repo.top);
	return 0;
}

/* Each flagged patch's findings and who could test it, then the advice;
 * EXIT_NOTHING when something was flagged. */
static int check_report(struct cmd *c, const struct findings *f, int range)
{
	size_t flagged = 0;

	for (size_t g = 0; g < c->p.nr; g++) {
		if (!group_flagged(f, g))
			continue;
		flagged++;
		struct sbuf what = SBUF_INIT;
		if (range) {
			char *s = subject_of(c->rc.c[g].msg);
			sb_addf(&what, "%.12s %s", c->rc.c[g].id, s);
			free(s);
		} else
			sb_adds(&what, c->p.g[g].name);
		report_patch(f, g, &c->src, &c->p, what.buf, &c->ow);
		sb_release(&what);
	}
	if (flagged)
		note("%zu of %zu patch%s need%s testing on the "
			 "hardware: send %s one by one (series format --individual) "
			 "and ask for Tested-by:", flagged, c->p.nr,
			 c->p.nr == 1 ? "" : "es", flagged == 1 ? "s" : "",
			 flagged == 1 ? "it" : "them");
	else    /* silence would not say what was looked at */
		note("%zu patch%s (%zu file%s) checked: none "
			 "needs testing on the hardware", c->p.nr,
			 c->p.nr == 1 ? "" : "es", c->src.nr, c->src.nr == 1 ?
			 "" : "s");
	return flagged ? EXIT_NOTHING : EXIT_DONE;
}

static int cmd_check(struct args *a)
{
	int r = parse_opts(a, NULL);

	for (size_t i = 0; !r && a->nword > 1 && i < a->nword; i++)
		if (is_range(a->word[i]))
			r = cmd_usage(a->cmd, "a range goes alone ('%s')", a->word[i]);
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct findings f = { 0 };
	char **rev = NULL;
	int range = !a->nword || is_range(a->word[0]);
	catch_signals();
	if (!(r = check_source(&c, range, &rev))) {
		if (check_plan_groups(&c.src, &c.p, rev, c.top, &f) < 0 ||
		    load_owners(&c.ow, c.top, NULL) < 0 ||
		    owner_facts(&c.ow, &c.src, NULL) < 0)
			r = EXIT_FAIL;
		else
			r = check_report(&c, &f, range);
	}
	free(f.v);
	free(rev);
	return cmd_end(&c, r);
}

/* ---- trailers -------------------------------------------------------------
 * The review tags given in replies (mboxes) onto the commits they were
 * given for, and those of a previous version's commits whose patch is the
 * same; then the range is rewritten (reword_series()): the same trees, the
 * branch moved once, nothing changed on any failure.
 */
struct trailers_opts {
	int dry_run;
	const char *from;
};

#define TO(f) offsetof(struct trailers_opts, f)

static const struct opt trailers_table[] = {
	{ "-n", "--dry-run", OPT_FLAG, TO(dry_run), 1, 0, NULL,
	  "show what would be added, and why; write nothing", { NULL } },
	{ NULL, "--from", OPT_VALUE, TO(from), 0, 0, "OLD-BASE..OLD-TIP",
	  "carry the trailers of the previous version's commits whose patch "
	  "is the same", { NULL } },
	{ 0 }
};

#undef TO

static const struct opt *const trailers_tables[] = { trailers_table, NULL };

/* trailers' arguments beyond the tables: mboxes, then at most a range;
 * *nmbox gets how many mboxes. */
static int trailers_args(struct args *a, const struct trailers_opts *o,
			 size_t *nmbox)
{
	*nmbox = a->nword;
	if (*nmbox && is_range(a->word[*nmbox - 1]))
		(*nmbox)--;
	if (!*nmbox && !o->from)
		return cmd_usage(a->cmd, "give the mboxes of the replies, or "
				 "--from the previous version");
	for (size_t i = 0; i < *nmbox; i++)
		if (is_range(a->word[i]))
			return cmd_usage(a->cmd, "the range comes last ('%s')",
					 a->word[i]);
	if (o->from && !is_range(o->from))
		return cmd_usage(a->cmd, "--from: '%s' is no range (BASE..TIP)",
				 o->from);
	return 0;
}

/* The branch's commits to give trailers: the range (NULL: the
 * upstream's), which must end at HEAD. */
static int trailers_range(struct cmd *c, const char *spec, int dry_run)
{
	int r;

	if ((r = open_repo(c)))
		return r;
	if (!dry_run && check_idle(&c->repo, c->a->cmd->name) < 0)
		return EXIT_FAIL;
	if (open_range(c->a->cmd->name, spec, &c->repo, &c->rg) < 0)
		return EXIT_FAIL;
	if ((r = range_ends_at_head(c)))
		return r;
	return failed(read_range_commits(&c->rg, &c->rc, "given trailers"));
}

static int cmd_trailers(struct args *a)
{
	struct trailers_opts o = { 0 };
	size_t nmbox = 0;
	int r = parse_opts(a, &o);

	if (!r)
		r = trailers_args(a, &o, &nmbox);
	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct replies rp = REPLIES_INIT;
	catch_signals();
	char **cover = NULL;
	if (!(r = read_mboxes((char *const *)a->word, nmbox, &rp.mb)) &&
	    !(r = trailers_range(&c, nmbox < a->nword ? a->word[nmbox] : NULL,
				 o.dry_run)))
		r = replies_tags(&c, &rp, cover = sent_covers(&c));
	if (!r && (!o.from || !(r = failed(carried_trailers(o.from, &c.rg,
							     &c.rc, &rp.ad))))) {
		size_t added = add_trailers(&c, &rp.ad, rp.subj, o.dry_run,
					    &rp.said);
		if (!added) {
			note("no trailer to add");
			r = EXIT_NOTHING;
		} else if (o.dry_run)
			put_out(2, rp.said.buf, rp.said.len);
		else
			r = reword_step(&c, added, &rp.said);
	}
	free_strings(cover, c.rc.nr);
	replies_release(&rp);
	return cmd_end(&c, r);
}

/* ---- status ---------------------------------------------------------------
 * What became of each patch of the last version format recorded for the
 * branch: applied in which upstream ref and how found, answered by a
 * thank-you mail, or pending with its tags and whom it waits on.  Exit 1
 * while a patch is not applied.
 */
struct status_opts {
	struct opt_list mbox;
	int version;
};

#define SO(f) offsetof(struct status_opts, f)

static const struct opt status_table[] = {
	{ NULL, "--mbox", OPT_LIST, SO(mbox), 0, 0, "FILE",
	  "the replies: tags, thank-you mails, who answered (repeatable)",
	  { NULL } },
	{ "-v", "--version", OPT_NUMBER, SO(version), 0, 0, "N",
	  "follow version N (default: the last format recorded)",
	  .min = 1, .max = 9999 },
	{ 0 }
};

#undef SO

static const struct opt *const status_tables[] = { status_table, NULL };

/* The version followed: its range into c->rg and its commits into c->rc;
 * *tag gets "refs/series/BRANCH/vN" (the caller frees it). */
static int status_version(struct cmd *c, int v, char **tag, struct sbuf *map)
{
	int r;

	if ((r = open_repo(c)))
		return r;
	const char *br = recorded_branch("status", c->repo.ref, &v, c->rg.base);
	if (!br)
		return EXIT_FAIL;
	*tag = xstrfmt("refs/series/%s/v%d", br, v);
	c->rg.spec = xstrfmt("series/%s/v%d-base..series/%s/v%d", br, v, br, v);
	if (resolve_commit_quietly(*tag, c->rg.tip) < 0)
		return failed(error("status: format recorded no v%d of %s (no %s)",
				    v, br, *tag));
	split_map(br, v, map);
	return failed(read_range_commits(&c->rg, &c->rc, "followed"));
}

/* The upstream refs status follows: those given, else the branch's
 * upstream where it has one (into *ref, one), else none, said. */
static size_t status_refs(const char *const **ref, size_t nref)
{
	static const char *const dflt[] = { "@{upstream}" };
	char id[72];

	if (nref)
		return nref;
	*ref = dflt;
	if (resolve_commit_quietly(dflt[0], id) < 0) {
		warning("no upstream given, and the branch follows none: no "
			"patch is found applied");
		return 0;
	}
	return 1;
}

static int cmd_status(struct args *a)
{
	struct status_opts o = { { NULL, 0 }, 0 };
	int r = parse_opts(a, &o);

	if (r)
		return args_end(a, r);
	struct cmd c;
	cmd_init(&c, a);
	struct replies rp = REPLIES_INIT;
	struct mail_opts now;
	struct sent *s = NULL;
	struct fate *f = NULL;
	char *tag = NULL;
	time_t date = 0;
	struct sbuf map = SBUF_INIT;
	if (!(r = status_version(&c, o.version, &tag, &map))) {
		s = read_sent(tag, &c.rc, &date, 0);
		f = xcalloc(c.rc.nr + 1, sizeof *f);
		r = read_mboxes((char *const *)o.mbox.v, o.mbox.n, &rp.mb);
	}
	char **cover = xcalloc(c.rc.nr + 1, sizeof *cover);
	for (size_t i = 0; s && i < c.rc.nr; i++)
		cover[i] = s[i].cover;
	const char *const *ref = (const char *const *)a->word;
	size_t nref = r ? 0 : status_refs(&ref, a->nword);
	if (!r && !(r = replies_tags(&c, &rp, cover)) &&
	    !(r = failed(version_fates(tag, ref, nref, c.rg.base, &c.rc, s, &rp.mb,
				       (int)scan_number(strrchr(tag, 'v') + 1,
				       NULL, 10), f)))) {
		split_date(&now);
		r = print_status(&c.rc, rp.subj, s, f, &rp.ad,
				 date ? (long)((now.when - date) / 86400) : 0,
				 map.buf) ? 0 : EXIT_NOTHING;
	}
	sb_release(&map);
	free(cover);
	if (s)
		sent_release(s, f, c.rc.nr);
	free(tag);
	replies_release(&rp);
	return cmd_end(&c, r);
}

/* ---- respin ---------------------------------------------------------------
 * The next version in one command (respin's run and steps, in the
 * versions part): the last version read, the pattern run on the new base,
 * the groups committed in its form, the branch moved once.
 */
#define RO(f) offsetof(struct respin_opts, f)

static const struct opt respin_onto[] = {
	{ NULL, "--onto", OPT_VALUE, RO(onto), 0, 0, "REF",
	  "the new base: the branch's checkout moves there, and the pattern "
	  "runs in it", { NULL } },
	{ 0 }
};

static const struct opt respin_table[] = {
	{ "-n", "--dry-run", OPT_FLAG, RO(dry_run), 1, 0, NULL,
	  "show the next version and what became of the last one's "
	  "patches; write nothing", { NULL } },
	{ NULL, "--mbox", OPT_LIST, RO(mbox), 0, 0, "FILE",
	  "replies: a patch queued or NAKed there is left out", { NULL } },
	{ NULL, "--keep", OPT_LIST, RO(keep), 0, 0, "N",
	  "keep the last version's patch N all the same", { NULL } },
	{ NULL, "--abort", OPT_FLAG, RO(abort), 1, 0, NULL,
	  "put back the branch's checkout a killed respin left on the new "
	  "base", { NULL } },
	{ 0 }
};

#undef RO

static const struct opt *const respin_tables[] = { respin_onto, respin_table,
						   NULL };

/* The pattern's change on the new base, grouped in the last version's
 * form, each group matched to its patch of the last version. */
static int respin_group(struct cmd *c, struct respin_run *rr)
{
	struct commit_opts o = { .show = 1 };
	int r;

	phase("respin", "grouping as the last version");
	o.sel.by = rr->by;
	if ((r = open_repo(c)) || read_status(&c->st, 0, NULL) < 0)
		return r ? r : EXIT_FAIL;
	if (strcmp(c->repo.ref, "HEAD") || strcmp(c->repo.old, rr->onto))
		return failed(error("respin: %s moved HEAD off %.12s; nothing "
				    "changed", rr->argv[0], rr->onto));
	source_from_status(&c->src, &c->st);
	if (!c->src.nr)
		return failed(error("respin: %s changed nothing on %.12s",
				    rr->argv[0], rr->onto));
	if (wt_patch_start(&c->src, c->repo.gitdir, c->repo.top, NULL) < 0)
		return EXIT_FAIL;
	respin_template(c, rr);
	if ((r = group_step(c, &o, c->repo.top, NULL)) ||
	    check_plan(&c->p, &c->src) < 0)
		return r ? r : EXIT_FAIL;
	rr->dropped = xcalloc(rr->prev.nr + 1, sizeof *rr->dropped);
	return failed(respin_match(c, rr));
}

static int cmd_respin(struct args *a)
{
	struct respin_opts o = { .onto = NULL };
	int r = parse_opts(a, &o);

	if (!r && !o.onto && !o.abort)
		r = cmd_usage(a->cmd, "--onto REF: the new base to respin onto");
	if (r)
		return args_end(a, r);
	struct cmd c;
	struct respin_run rr;
	cmd_init(&c, a);
	memset(&rr, 0, sizeof rr);
	catch_signals();
	struct sbuf fates = SBUF_INIT;
	if (o.abort)
		r = respin_abort(&rr);
	else if (!(r = respin_start(&rr, a, &o)) &&
		 !(r = respin_group(&c, &rr)) &&
		 !(r = respin_verdicts(&c, &rr)) &&
		 !(r = o.dry_run ? 0 : respin_build(&c, &rr))) {
		respin_report(&c, &rr, &fates);
		if (!o.dry_run)
			r = respin_finish(&c, &rr, &fates);
	}
	if (rr.moved && put_back(&rr.home) < 0 && r != EXIT_FAIL)
		r = EXIT_FAIL;
	sb_release(&fates);
	respin_release(&rr);
	return cmd_end(&c, r);
}

/* ==== 10. main ============================================================
 * The command table and the dispatch.
 */

/* Not static: the unit-test build has no main(), and this table is what
 * reaches the commands. */
const struct command commands[] = {
	{ "plan", cmd_plan, plan_tables, NULL,
	  "[BASE..TIP | -- PATHSPEC...]", 1, "nothing to commit" },
	{ "commit", cmd_commit, commit_tables, template_opts,
	  "[-- PATHSPEC...]", 0, "nothing to commit" },
	{ "check", cmd_check, check_tables, NULL,
	  "[PATCH... | BASE..TIP]", 1, "something needs the hardware" },
	{ "format", cmd_format, format_tables, NULL,
	  "[BASE..TIP]", 1, "no commit to format" },
	{ "trailers", cmd_trailers, trailers_tables, NULL,
	  "[MBOX...] [BASE..HEAD]", 1, "no trailer to add" },
	{ "status", cmd_status, status_tables, NULL,
	  "[UPSTREAM...]", 1, "a patch is not applied yet" },
	{ "respin", cmd_respin, respin_tables, respin_onto,
	  "[-- PATTERN-COMMAND...]", 1, "never" },
	{ "split", cmd_split, split_tables, template_opts,
	  "[DIFF | -]", 1, "nothing to commit" },
	{ "regroup", cmd_regroup, regroup_tables, template_opts,
	  "BASE..HEAD", 1, "nothing to commit" },
	{ "cc", cmd_cc, cc_tables, NULL,
	  "(PATCH... | -f PATH...)", 1, "never (no recipient is 0)" },
};

#define NCOMMANDS (sizeof commands / sizeof *commands)

#ifndef SERIES_NO_MAIN

/* The synopses on fd; returns EXIT_USAGE.  After a usage error that is
 * stderr, so nothing reaches a pipe that reads our output. */
static int print_usage(int fd)
{
	xfprintf(fd, "usage: series [-h | --version] COMMAND [ARGS]\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		print_synopsis(fd, "       series ", &commands[i]);
	xfprintf(fd, "exit: 0 done, 1 nothing to do, 2 usage, 3 failure, "
		 "128+N killed by signal N\n");
	return EXIT_USAGE;
}

static int usage(const char *why)
{
	if (why)
		note("%s", why);
	return print_usage(2);
}

static void version(void)
{
	xfprintf(1, "series %s (", SERIES_VERSION);
		 #if defined(__clang__)
		 xfprintf(1, "clang %d.%d.%d", __clang_major__, __clang_minor__,
			  __clang_patchlevel__);
		 #elif defined(__GNUC__)
		 xfprintf(1, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
		 #else
		 xfprintf(1, "unknown compiler");
		 #endif
		 #if defined(SERIES_LIBC)
		 xfprintf(1, ", %s", SERIES_LIBC);
		 #endif
		 #if defined(SERIES_STATIC)
		 xfprintf(1, ", static");
		 #endif
		 xfprintf(1, ")\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	signal(SIGPIPE, SIG_IGN);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_usage(1);
			return EXIT_DONE;
		}
		if (!strcmp(argv[i], "--version")) {
			version();
			return EXIT_DONE;
		}
		error("unknown option '%s'", argv[i]);
		return usage(NULL);
	}
	if (i >= argc)
		return usage("no command given");
	for (size_t c = 0; c < NCOMMANDS; c++)
		if (!strcmp(argv[i], commands[c].name)) {
			struct args a = { .argc = argc - i, .argv = argv + i,
					  .cmd = &commands[c] };
			int r = commands[c].fn(&a);
			if (out_errno)
				die("stdout: %s", strerror(out_errno));
			return r;
		}
	const char *near = closest(argv[i], &commands[0].name, NCOMMANDS,
				   sizeof *commands);
	if (near)
		error("unknown command '%s' (did you mean '%s'?)", argv[i], near);
	else
		error("unknown command '%s'", argv[i]);
	return usage(NULL);
}

#endif
