/*
 * series.c - turn a tree-wide change into a patch series, one commit per
 * group, and tell whom to send each patch to.
 *
 * Formats it parses, each with its own section below:
 *   git status --porcelain=v2 -z     (the working tree's change)
 *
 * TODO:
 *   - clean/smudge filters and autocrlf: blobs are the work tree's bytes.
 *   - submodule pointer changes are refused, not committed.
 *   - a group whose files all match HEAD again still gets a commit.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

extern char **environ;

/*
 * The one mutable global besides the parsed options: the signal that asked
 * us to stop.  Handlers only set it; the code that owns a transaction looks
 * at it between steps and unwinds.
 */
static volatile sig_atomic_t stop_signal;

/* ---- errors --------------------------------------------------------------
 * Every message goes through report(): "series: what: why" on one line.
 * error() reports and returns -1 for `return error(...)`; die() reports and
 * exits EXIT_FAIL.  Only main() and the x* helpers die.
 */
static void report(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof msg, fmt, ap);
	/* One line: a path with a newline in it must not forge a second. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = '?';
	fprintf(stderr, "series: %s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
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
	exit(EXIT_FAIL);
}

/*
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

void sb_add(struct sbuf *sb, const void *data, size_t n)
{
	if (!n)
		return;
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb_setlen(sb, sb->len + n);
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

void sb_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("bad format string");
	sb_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_setlen(sb, sb->len + (size_t)n);
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

int sb_read_fd(struct sbuf *sb, int fd)
{
	size_t start = sb->len;

	for (;;) {
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

	if (fd < 0)
		return -1;
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

/* ---- child processes -----------------------------------------------------
 * One spawn (child_start) and one wait (child_finish); the fd rules are in
 * series.h.  Every git we run gets the pins of git_argv() first, so that
 * user configuration cannot change the bytes we parse.
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

	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
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
	fflush(NULL);
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
 * so that neither side blocks on a full pipe.  A stop request kills the
 * child (once); the short poll timeout sees a signal that came between two
 * looks at the flag.
 */
static int pump(pid_t pid, int in, const char *input, size_t inlen, int out,
		struct sbuf *sb)
{
	int failed = 0, killed = 0;

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
				if (w < 0 && errno == EINTR)
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

int run_capture(const char *const *argv, const char *const *env,
		const char *input, size_t inlen, struct sbuf *out)
{
	struct child c = { argv, env, NULL, input ? CHILD_PIPE : CHILD_NULL,
			   CHILD_PIPE, CHILD_INHERIT, 0 };

	if (child_start(&c) < 0)
		return -1;
	pump(c.pid, input ? c.in : -1, input, inlen, c.out, out);
	return child_finish(&c);
}

/*
 * git's argv: the pins that keep its output in the form we parse, then the
 * command's own words.  Caller frees the returned array (not the strings).
 */
static const char *const git_pins[] = {
	"git", "--no-pager", "-c", "core.quotePath=false", "-c", "color.ui=false",
	"-c", "status.renames=true", "-c", "status.showUntrackedFiles=no",
	"-c", "status.relativePaths=false", "-c", "diff.noprefix=false",
	"-c", "core.fsmonitor=false", "-c", "log.showSignature=false",
};
#define NPINS (sizeof git_pins / sizeof *git_pins)

static const char **git_argv(const char *const *words)
{
	size_t n = 0;

	while (words[n])
		n++;
	const char **argv = xmalloc(xmul(xadd(NPINS + 1, n), sizeof *argv));
	memcpy(argv, git_pins, sizeof git_pins);
	memcpy(argv + NPINS, words, (n + 1) * sizeof *argv);
	return argv;
}

/* Runs git with words; returns its exit status as run_capture() does. */
static int git(const char *const *words, const char *const *env,
	       const char *input, size_t inlen, struct sbuf *out)
{
	const char **argv = git_argv(words);
	int r = run_capture(argv, env, input, inlen, out);

	free(argv);
	return r;
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

/* Runs git and requires success; out (may be NULL) gets its stdout. */
static int git_ok(const char *step, const char *const *words,
		  const char *const *env, const char *input, size_t inlen,
		  struct sbuf *out)
{
	int r = git(words, env, input, inlen, out);

	return r ? git_failed(step, r) : 0;
}

/* Strips one trailing newline; a line of git output as a C string. */
static void chomp(struct sbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb_setlen(sb, sb->len - 1);
}

/* ---- status parser ---------------------------------------------------------
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

static int hex_field(struct cursor *c)
{
	size_t len;
	const char *s = field(c, &len);

	if (!s || (len != 40 && len != 64))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return -1;
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
	    hex_field(c) < 0 || hex_field(c) < 0 ||
	    (e->kind == E_UNMERGED && hex_field(c) < 0))
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

/* ---- grouping --------------------------------------------------------------
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

static int included(const char *path, const struct selection *sel)
{
	if (!sel->include || !sel->include[0])
		return 1;
	for (const char *const *g = sel->include; *g; g++)
		if (!fnmatch(*g, path, 0))
			return 1;
	return 0;
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

struct keyed {
	char *key;
	const char *path;
	size_t idx;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->path, y->path);
}

size_t make_plan(struct plan *p, const struct status *st,
		 const struct selection *sel)
{
	struct keyed *k = xcalloc(st->nr, sizeof *k);
	size_t n = 0;

	for (size_t i = 0; i < st->nr; i++) {
		const struct entry *e = &st->e[i];
		if (!entry_changes_tree(e) || !included(e->path, sel))
			continue;
		k[n].key = group_name(e->path, sel);
		k[n].path = e->path;
		k[n].idx = i;
		n++;
	}
	qsort(k, n, sizeof *k, cmp_keyed);
	p->g = xcalloc(n, sizeof *p->g);
	p->nr = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(k[j].key, k[i].key))
			j++;
		struct group *g = &p->g[p->nr++];
		g->name = k[i].key;
		g->member = xcalloc(j - i, sizeof *g->member);
		for (size_t m = i; m < j; m++) {
			g->member[g->nr++] = k[m].idx;
			if (m > i)
				free(k[m].key);
		}
		i = j;
	}
	free(k);
	return p->nr;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->g[i].name);
		free(p->g[i].member);
	}
	free(p->g);
	p->g = NULL;
	p->nr = 0;
}

/* ---- commit messages ---------------------------------------------------- */
void expand_template(struct sbuf *out, const char *tmpl, size_t len,
		     const char *name)
{
	static const char key[] = "SEDME";
	const size_t klen = sizeof key - 1;
	const char *p = tmpl, *end = tmpl + len;

	while (p < end) {
		const char *hit = NULL;
		for (const char *q = p; (size_t)(end - q) >= klen; q++)
			if (*q == 'S' && !memcmp(q, key, klen)) {
				hit = q;
				break;
			}
		if (!hit) {
			sb_add(out, p, (size_t)(end - p));
			break;
		}
		sb_add(out, p, (size_t)(hit - p));
		sb_adds(out, name);
		p = hit + klen;
	}
}

void cleanup_message(struct sbuf *msg)
{
	struct sbuf out = SBUF_INIT;
	size_t blank = 0;
	const char *p = msg->buf, *end = msg->buf + msg->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *e = eol;
		while (e > p && isspace((unsigned char)e[-1]))
			e--;
		if (e == p) {
			blank++;
		} else {
			if (blank && out.len)
				sb_addc(&out, '\n');
			blank = 0;
			sb_add(&out, p, (size_t)(e - p));
			sb_addc(&out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	sb_release(msg);
	*msg = out;
}

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

void add_signoff(struct sbuf *msg, const char *sob)
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

/* ---- writers ---------------------------------------------------------------
 * `series commit` as one transaction whose commit point is a single
 * compare-and-swap of HEAD:
 *   1. take the index lock (O_EXCL, as git does), so no git changes the
 *      index under us;
 *   2. stream every group as a commit into one `git fast-import`; its branch
 *      is reset at the end without a value, so fast-import writes objects and
 *      no ref at all; `get-mark` tells us the tip;
 *   3. build the new index in a mkstemp copy of the old one (update-index
 *      of the committed paths);
 *   4. `git update-ref HEAD NEW OLD`: the commit point;
 *   5. rename the copy over the index and drop the lock.
 * Any failure or signal before 4 removes the copy, the lock and any crash
 * report, so HEAD, refs, index and work tree are as before; the work tree is
 * only ever read.
 */
struct repo {
	char *top;      /* absolute work tree top */
	char *gitdir;   /* absolute $GIT_DIR of this work tree */
	char *index;    /* absolute index path ($GIT_INDEX_FILE honoured) */
	char old[72];   /* HEAD's commit, "" when the branch is unborn */
	char *ref;      /* what HEAD names: "refs/heads/x", or "HEAD" detached */
};

static void repo_release(struct repo *r)
{
	free(r->top);
	free(r->gitdir);
	free(r->index);
	free(r->ref);
}

/* Splits git's newline-separated answer into n lines, or fails. */
static int take_lines(struct sbuf *out, char **lines, size_t n)
{
	char *p = out->buf, *end = out->buf + out->len;

	for (size_t i = 0; i < n; i++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || nl == p)
			return -1;
		lines[i] = xstrndup(p, (size_t)(nl - p));
		p = nl + 1;
	}
	return p == end ? 0 : -1;
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
	int st = git(sym, NULL, NULL, 0, &out);

	chomp(&out);
	if (st > 1 || (st == 0 && (strncmp(out.buf, "refs/", 5) ||
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
		st = git(words, NULL, NULL, 0, &out);
		for (char *p = out.buf; !st && *p;) {
			char *nl = strchr(p, '\n'), *sp = strchr(p, ' ');
			if (!nl || !sp || sp > nl) {
				st = -2;
				break;
			}
			*nl = '\0';
			if (!strcmp(sp + 1, r->ref) &&
			    (sp - p == 40 || sp - p == 64))
				memcpy(r->old, p, (size_t)(sp - p));
			p = nl + 1;
		}
		sb_release(&out);
		if (st == -2)
			return error("git for-each-ref: unexpected answer");
		return st ? git_failed("git for-each-ref", st) : 0;
	}
	st = git(head, NULL, NULL, 0, &out);
	chomp(&out);
	if (!st && (out.len == 40 || out.len == 64))
		memcpy(r->old, out.buf, out.len + 1);
	sb_release(&out);
	if (!*r->old)
		return st ? git_failed("git rev-parse", st) :
			error("git rev-parse: unexpected answer");
	return 0;
}

static int repo_open(struct repo *r)
{
	struct sbuf out = SBUF_INIT;
	char *lines[3] = { NULL, NULL, NULL };
	static const char *const where[] = {
		"rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-dir", "--git-path", "index", NULL };

	memset(r, 0, sizeof *r);
	int st = git(where, NULL, NULL, 0, &out);
	if (st == 128)
		return error("git rev-parse: not inside a git work tree");
	if (st)
		return git_failed("git rev-parse", st);
	if (take_lines(&out, lines, 3) < 0) {
		for (int i = 0; i < 3; i++)
			free(lines[i]);
		sb_release(&out);
		return error("git rev-parse: unexpected answer");
	}
	sb_release(&out);
	r->top = lines[0];
	r->gitdir = lines[1];
	r->index = lines[2];
	return read_head(r);
}

/* Runs status from the caller's directory, so pathspecs mean what they say. */
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
	int r = git_ok("git status", w, NULL, NULL, 0, &out);
	free(w);
	if (!r)
		r = parse_status(st, out.buf, out.len);
	sb_release(&out);
	return r;
}

/* What a group commits for one entry: a letter for people, and the work. */
static char entry_letter(const struct entry *e)
{
	if (e->kind == E_UNTRACKED)
		return 'A';
	if (e->kind == E_RENAMED)
		return e->x == 'C' ? 'C' : 'R';
	if (!e->mode_wt)
		return 'D';
	if (!e->mode_head)
		return 'A';
	if ((e->mode_head & 0170000) != (e->mode_wt & 0170000))
		return 'T';
	return 'M';
}

/* Refuses what a series cannot commit: conflicts and submodule pointers. */
static int check_plan(const struct plan *p, const struct status *st)
{
	for (size_t i = 0; i < p->nr; i++)
		for (size_t j = 0; j < p->g[i].nr; j++) {
			const struct entry *e = &st->e[p->g[i].member[j]];
			if (e->kind == E_UNMERGED)
				return error("%s: unmerged; resolve the conflict first",
					     e->path);
			if (e->mode_wt == 0160000 || e->mode_head == 0160000)
				return error("%s: submodule changes are not supported",
					     e->path);
		}
	return 0;
}

struct template {
	const char *text;
	size_t len;
	const char *sob;   /* signoff line or NULL */
};

static void group_message(struct sbuf *msg, const struct template *t,
			  const char *name)
{
	expand_template(msg, t->text, t->len, name);
	cleanup_message(msg);
	if (t->sob)
		add_signoff(msg, t->sob);
}

/* The plan as people read it; with messages != 0 the whole message. */
static void print_plan(const struct plan *p, const struct status *st,
		       const struct template *t, int messages)
{
	struct sbuf out = SBUF_INIT, msg = SBUF_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		const struct group *g = &p->g[i];
		sb_quote_c(&out, g->name, strlen(g->name), 0);
		sb_addf(&out, " (%zu file%s)\n", g->nr, g->nr == 1 ? "" : "s");
		if (t) {
			sb_setlen(&msg, 0);
			group_message(&msg, t, g->name);
			const char *p0 = msg.buf;
			const char *stop = messages ? msg.buf + msg.len :
				memchr(msg.buf, '\n', msg.len);
			while (p0 < stop) {
				const char *nl = memchr(p0, '\n', (size_t)(stop - p0));
				const char *e = nl ? nl : stop;
				sb_adds(&out, messages ? "    | " : "    subject: ");
				sb_add(&out, p0, (size_t)(e - p0));
				sb_addc(&out, '\n');
				p0 = nl ? nl + 1 : stop;
			}
		}
		for (size_t j = 0; j < g->nr; j++) {
			const struct entry *e = &st->e[g->member[j]];
			sb_addf(&out, "    %c ", entry_letter(e));
			if (e->orig) {
				sb_quote_c(&out, e->orig, strlen(e->orig), 0);
				sb_adds(&out, " -> ");
			}
			sb_quote_c(&out, e->path, strlen(e->path), 0);
			sb_addc(&out, '\n');
		}
		fwrite(out.buf, 1, out.len, stdout);
		sb_setlen(&out, 0);
	}
	sb_release(&out);
	sb_release(&msg);
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

/* git's mode for an untracked file, from lstat. */
static unsigned stat_mode(const struct stat *sb)
{
	if (S_ISLNK(sb->st_mode))
		return 0120000;
	if (S_ISREG(sb->st_mode))
		return sb->st_mode & S_IXUSR ? 0100755 : 0100644;
	return 0;
}

/* Streams "M mode inline path" and the work tree's bytes of path. */
static int stream_file(struct stream *s, const char *path, unsigned mode)
{
	struct stat sb;
	char link[PATH_MAX + 1];

	if (lstat(path, &sb) < 0)
		return error("%s: %s", path, strerror(errno));
	if (!mode)
		mode = stat_mode(&sb);
	if ((mode == 0120000) != !!S_ISLNK(sb.st_mode) ||
	    (mode != 0120000 && !S_ISREG(sb.st_mode)) || !mode)
		return error("%s: changed type while series ran", path);
	sb_addf(&s->buf, "M %o inline ", mode);
	sb_quote_c(&s->buf, path, strlen(path), 1);
	sb_addc(&s->buf, '\n');
	if (mode == 0120000) {
		ssize_t n = readlink(path, link, sizeof link);
		if (n < 0)
			return error("%s: %s", path, strerror(errno));
		if ((size_t)n >= sizeof link)
			return error("%s: symbolic link target too long", path);
		stream_data(s, link, (size_t)n);
		return 0;
	}
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return error("%s: %s", path, strerror(errno));
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

static void stream_delete(struct stream *s, const char *path)
{
	sb_adds(&s->buf, "D ");
	sb_quote_c(&s->buf, path, strlen(path), 1);
	sb_addc(&s->buf, '\n');
}

/* One group's commit; deletions first so "a" can become "a/b". */
static int stream_group(struct stream *s, const struct group *g,
			const struct status *st, size_t mark,
			const char *author, const char *committer,
			const struct sbuf *msg)
{
	sb_addf(&s->buf, "commit refs/series/import\nmark :%zu\n"
		"author %s\ncommitter %s\n", mark, author, committer);
	stream_data(s, msg->buf, msg->len);
	for (size_t j = 0; j < g->nr; j++) {
		const struct entry *e = &st->e[g->member[j]];
		if (e->orig && e->x != 'C')
			stream_delete(s, e->orig);
		else if (e->kind != E_UNTRACKED && !e->mode_wt)
			stream_delete(s, e->path);
	}
	for (size_t j = 0; j < g->nr; j++) {
		const struct entry *e = &st->e[g->member[j]];
		if (e->kind != E_UNTRACKED && !e->mode_wt)
			continue;
		if (stream_file(s, e->path, e->mode_wt) < 0)
			return -1;
	}
	return 0;
}

struct txn {
	struct repo *repo;
	const struct plan *plan;
	const struct status *st;
	const struct template *tmpl;
	char *author, *committer;
	char *lock;         /* index.lock, once we hold it */
	char *tmp_index;    /* our copy of the index, once made */
	pid_t importer;     /* fast-import's pid, for its crash report */
	char tip[72];
	size_t files;
};

static int check_stop(const char *step)
{
	if (stop_signal)
		return error("%s: interrupted by signal %d", step, (int)stop_signal);
	return 0;
}

static void progress(size_t k, size_t n, const char *name)
{
	if (isatty(2))
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", k, n, name);
}

static int import_series(struct txn *t)
{
	static const char *const words[] = {
		"fast-import", "--quiet", "--done", "--cat-blob-fd=1",
		"--date-format=raw", NULL };
	const char **argv = git_argv(words);
	struct child c = { argv, NULL, NULL, CHILD_PIPE, CHILD_PIPE,
			   CHILD_INHERIT, 0 };
	struct stream s = { -1, 0, SBUF_INIT };
	struct sbuf msg = SBUF_INIT, out = SBUF_INIT;
	int r = 0;

	if (child_start(&c) < 0) {
		free(argv);
		return -1;
	}
	t->importer = c.pid;
	s.fd = c.in;
	sb_adds(&s.buf, "feature done\nreset refs/series/import\n");
	if (*t->repo->old)
		sb_addf(&s.buf, "from %s\n", t->repo->old);
	for (size_t i = 0; i < t->plan->nr && !r && !s.failed; i++) {
		const struct group *g = &t->plan->g[i];
		progress(i + 1, t->plan->nr, g->name);
		sb_setlen(&msg, 0);
		group_message(&msg, t->tmpl, g->name);
		r = stream_group(&s, g, t->st, i + 1, t->author, t->committer,
				 &msg);
		t->files += g->nr;
		if (!r)
			r = check_stop("git fast-import");
	}
	if (isatty(2))
		fputs("\r\033[K", stderr);
	if (!r)
		sb_addf(&s.buf, "get-mark :%zu\nreset refs/series/import\ndone\n",
			t->plan->nr);
	if (!r)
		stream_flush(&s);
	/* On our own failure, close without "done": fast-import aborts. */
	close(c.in);
	pump(c.pid, -1, NULL, 0, c.out, &out);
	int st = child_finish(&c);
	free(argv);
	if (!r && st)
		r = git_failed("git fast-import", st);
	else if (!r && s.failed)
		r = error("git fast-import: %s", strerror(s.failed));
	chomp(&out);
	if (!r && out.len != strlen(t->repo->old) && *t->repo->old)
		r = error("git fast-import: unexpected answer to get-mark");
	if (!r && out.len != 40 && out.len != 64)
		r = error("git fast-import: unexpected answer to get-mark");
	for (size_t i = 0; !r && i < out.len; i++)
		if (!isxdigit((unsigned char)out.buf[i]))
			r = error("git fast-import: unexpected answer to get-mark");
	if (!r)
		memcpy(t->tip, out.buf, out.len + 1);
	sb_release(&s.buf);
	sb_release(&msg);
	sb_release(&out);
	return r;
}

/* Copies the index to a new temporary file beside it, keeping its mtime
 * (git's racy-entry check compares file times with the index's). */
static int copy_index(struct txn *t)
{
	struct sbuf tmp = SBUF_INIT, data = SBUF_INIT;
	struct stat sb;

	sb_addf(&tmp, "%s/series-index-XXXXXX", t->repo->gitdir);
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error("%s: %s", tmp.buf, strerror(errno));
		sb_release(&tmp);
		return -1;
	}
	t->tmp_index = sb_detach(&tmp, NULL);
	if (stat(t->repo->index, &sb) < 0) {
		close(fd);
		if (errno != ENOENT)
			return error("%s: %s", t->repo->index, strerror(errno));
		/* No index yet: git creates the file, an empty one is corrupt. */
		unlink(t->tmp_index);
		return 0;
	}
	int r = 0;
	if (sb_read_file(&data, t->repo->index) < 0)
		r = error("%s: %s", t->repo->index, strerror(errno));
	else if (write_all(fd, data.buf, data.len) < 0 || fsync(fd) < 0)
		r = error("%s: %s", t->tmp_index, strerror(errno));
	else {
		struct timespec ts[2] = { sb.st_atim, sb.st_mtim };
		futimens(fd, ts);
	}
	if (close(fd) < 0 && !r)
		r = error("%s: %s", t->tmp_index, strerror(errno));
	sb_release(&data);
	return r;
}

/*
 * The new index: the copy with every committed path (and every rename's old
 * path) updated from the work tree, which is what the commits hold, by one
 * update-index that hashes just those files and records their stat data,
 * so `git status` sees them clean without re-reading them.
 */
static int build_index(struct txn *t)
{
	static const char *const words[] = { "update-index", "--add", "--remove",
					     "-z", "--stdin", NULL };
	struct sbuf in = SBUF_INIT, envvar = SBUF_INIT;
	int r;

	if ((r = copy_index(t)) < 0)
		return r;
	for (size_t i = 0; i < t->plan->nr; i++)
		for (size_t j = 0; j < t->plan->g[i].nr; j++) {
			const struct entry *e = &t->st->e[t->plan->g[i].member[j]];
			sb_add(&in, e->path, strlen(e->path) + 1);
			if (e->orig && e->x != 'C')
				sb_add(&in, e->orig, strlen(e->orig) + 1);
		}
	sb_addf(&envvar, "GIT_INDEX_FILE=%s", t->tmp_index);
	const char *env[] = { envvar.buf, NULL };
	r = git_ok("git update-index", words, env, in.buf, in.len, NULL);
	sb_release(&in);
	sb_release(&envvar);
	return r;
}

static int move_head(struct txn *t)
{
	struct sbuf msg = SBUF_INIT;
	int r;

	sb_addf(&msg, "series: %zu commit%s", t->plan->nr,
		t->plan->nr == 1 ? "" : "s");
	const char *words[] = { "update-ref", "-m", msg.buf, "HEAD", t->tip,
				t->repo->old, NULL };
	r = git(words, NULL, NULL, 0, NULL);
	sb_release(&msg);
	if (!r)
		return 0;
	/* Killed or failed after its rename?  Then the series is committed. */
	static const char *const head[] = {
		"rev-parse", "-q", "--verify", "HEAD", NULL };
	struct sbuf now = SBUF_INIT;
	int st = git(head, NULL, NULL, 0, &now);
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

/* Undoes whatever of steps 1-3 happened; safe to call twice. */
static void txn_abort(struct txn *t)
{
	if (t->tmp_index) {
		struct sbuf lock = SBUF_INIT;
		sb_addf(&lock, "%s.lock", t->tmp_index);
		unlink(lock.buf);
		unlink(t->tmp_index);
		sb_release(&lock);
		free(t->tmp_index);
		t->tmp_index = NULL;
	}
	if (t->importer > 0) {
		struct sbuf crash = SBUF_INIT;
		sb_addf(&crash, "%s/fast_import_crash_%ld", t->repo->gitdir,
			(long)t->importer);
		unlink(crash.buf);
		sb_release(&crash);
	}
	if (t->lock) {
		unlink(t->lock);
		free(t->lock);
		t->lock = NULL;
	}
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
	return 0;
}

/* git's identity "Name <email> time tz" for author or committer. */
static char *ident(const char *which)
{
	const char *words[] = { "var", which, NULL };
	struct sbuf out = SBUF_INIT;

	if (git_ok("git var", words, NULL, NULL, 0, &out) < 0) {
		sb_release(&out);
		return NULL;
	}
	chomp(&out);
	if (!out.len || memchr(out.buf, '\n', out.len) || !strchr(out.buf, '>')) {
		sb_release(&out);
		error("git var %s: unexpected answer", which);
		return NULL;
	}
	return sb_detach(&out, NULL);
}

static int commit_series(struct txn *t)
{
	int r;

	if ((r = take_index_lock(t)) < 0)
		return r;
	if ((r = import_series(t)) < 0 || (r = build_index(t)) < 0 ||
	    (r = check_stop("git update-ref")) < 0 || (r = move_head(t)) < 0) {
		txn_abort(t);
		return r;
	}
	/* Committed.  The index copy is ours and the lock is held. */
	if (rename(t->tmp_index, t->repo->index) < 0) {
		error("%s: %s; the commits are made, but the index still shows "
		      "their changes as staged (run `git reset -q`)",
		      t->repo->index, strerror(errno));
		txn_abort(t);
		return -1;
	}
	free(t->tmp_index);
	t->tmp_index = NULL;
	txn_abort(t);
	return 0;
}

/* ---- commands ----------------------------------------------------------------
 * One function per verb, named for it; each checks its own arguments first
 * and returns an exit code.  Options are parsed by one small reader that
 * serves every command.
 */
struct args {
	int argc;
	char **argv;
	int i;
	const char *cmd;
};

/* Matches "-x", "--long" or "--long=value"; *val gets the value when the
 * option takes one (from "=value" or the next word). */
static int opt(struct args *a, const char *shrt, const char *lng,
	       const char **val)
{
	const char *w = a->argv[a->i];
	size_t ll = lng ? strlen(lng) : 0;
	int hit = 0;
	const char *v = NULL;

	if (shrt && !strcmp(w, shrt))
		hit = 1;
	else if (lng && !strncmp(w, lng, ll) && (!w[ll] || (val && w[ll] == '='))) {
		hit = 1;
		if (w[ll] == '=')
			v = w + ll + 1;
	}
	if (!hit)
		return 0;
	if (!val)
		return 1;
	if (!v) {
		if (a->i + 1 >= a->argc)
			return -1;
		v = a->argv[++a->i];
	}
	*val = v;
	return 1;
}

static int usage(const char *why);

static int bad_value(const char *cmd, const char *what, const char *v)
{
	error("%s: %s: bad value '%s'", cmd, what, v);
	return usage(NULL);
}

struct commit_opts {
	struct selection sel;
	const char **include;
	size_t ninclude;
	int untracked, signoff, dry_run;
	const char *file, *message;
	char **pathspec;
};

/* Reads the selection options shared by plan and commit.  Returns 1 if the
 * word was one, 0 if not, -1 for a bad value (after reporting). */
static int selection_opt(struct args *a, struct commit_opts *o)
{
	const char *v;
	int r;

	if ((r = opt(a, NULL, "--by", &v))) {
		if (r < 0)
			return -1;
		if (!strcmp(v, "dir"))
			o->sel.by = BY_DIR;
		else if (!strcmp(v, "file"))
			o->sel.by = BY_FILE;
		else if (!strcmp(v, "tree"))
			o->sel.by = BY_TREE;
		else
			return bad_value(a->cmd, "--by", v), -1;
		return 1;
	}
	if ((r = opt(a, NULL, "--depth", &v))) {
		char *end;
		long n = r < 0 ? 0 : strtol(v, &end, 10);
		if (r < 0 || *end || n < 1 || n > 4096)
			return bad_value(a->cmd, "--depth", r < 0 ? "" : v), -1;
		o->sel.depth = (int)n;
		return 1;
	}
	if ((r = opt(a, NULL, "--include", &v))) {
		if (r < 0)
			return -1;
		o->include = xrealloc(o->include,
				      xmul(o->ninclude + 2, sizeof *o->include));
		o->include[o->ninclude++] = v;
		o->include[o->ninclude] = NULL;
		o->sel.include = o->include;
		return 1;
	}
	if (opt(a, "-u", "--untracked", NULL))
		return o->untracked = 1;
	if ((r = opt(a, "-F", "--file", &v))) {
		if (r < 0)
			return -1;
		o->file = v;
		return 1;
	}
	if ((r = opt(a, "-m", "--message", &v))) {
		if (r < 0)
			return -1;
		o->message = v;
		return 1;
	}
	return 0;
}

static int parse_commit_opts(struct args *a, struct commit_opts *o, int commit)
{
	for (a->i = 1; a->i < a->argc; a->i++) {
		const char *w = a->argv[a->i];
		int r = selection_opt(a, o);
		if (r < 0)
			return usage(NULL);
		if (r)
			continue;
		if (commit && opt(a, "-s", "--signoff", NULL))
			o->signoff = 1;
		else if (commit && opt(a, "-n", "--dry-run", NULL))
			o->dry_run = 1;
		else if (!strcmp(w, "--")) {
			o->pathspec = a->argv + a->i + 1;
			return 0;
		} else {
			error("%s: unknown option or argument '%s' (paths go after --)",
			      a->cmd, w);
			return usage(NULL);
		}
	}
	return 0;
}

/* The message template from -F or -m: no NUL, not blank. */
static int load_template(struct sbuf *text, const struct commit_opts *o)
{
	if (o->file && o->message)
		return error("-F and -m cannot be used together");
	if (o->message)
		sb_adds(text, o->message);
	else if (!strcmp(o->file, "-") ? sb_read_fd(text, 0) < 0 :
		 sb_read_file(text, o->file) < 0)
		return error("%s: %s", o->file, strerror(errno));
	if (memchr(text->buf, '\0', text->len))
		return error("%s: the template holds a NUL byte",
			     o->file ? o->file : "-m");
	struct sbuf probe = SBUF_INIT;
	sb_add(&probe, text->buf, text->len);
	cleanup_message(&probe);
	size_t len = probe.len;
	sb_release(&probe);
	if (!len)
		return error("%s: the template is empty", o->file ? o->file : "-m");
	return 0;
}

/* Shared front half of plan and commit: status, grouping, checks. */
static int prepare(struct commit_opts *o, struct status *st, struct plan *p)
{
	if (read_status(st, o->untracked, (const char *const *)o->pathspec) < 0)
		return EXIT_FAIL;
	make_plan(p, st, &o->sel);
	if (check_plan(p, st) < 0)
		return EXIT_FAIL;
	if (!p->nr) {
		fprintf(stderr, "series: nothing to commit\n");
		return EXIT_NOTHING;
	}
	return EXIT_DONE;
}

static int cmd_plan(struct args *a)
{
	struct commit_opts o = { 0 };
	struct status st = STATUS_INIT;
	struct plan p = PLAN_INIT;
	struct sbuf text = SBUF_INIT;
	struct template t = { NULL, 0, NULL };
	struct repo repo;
	int r;

	if ((r = parse_commit_opts(a, &o, 0)))
		return r;
	if ((o.file || o.message) && load_template(&text, &o) < 0)
		r = EXIT_FAIL;
	else if (repo_open(&repo) < 0)
		r = EXIT_FAIL;
	else {
		repo_release(&repo);
		r = prepare(&o, &st, &p);
	}
	t.text = text.buf;
	t.len = text.len;
	if (r == EXIT_DONE)
		print_plan(&p, &st, text.len ? &t : NULL, 0);
	plan_release(&p);
	status_release(&st);
	sb_release(&text);
	free(o.include);
	return r;
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

static int cmd_commit(struct args *a)
{
	struct commit_opts o = { 0 };
	struct status st = STATUS_INIT;
	struct plan p = PLAN_INIT;
	struct sbuf text = SBUF_INIT, sob = SBUF_INIT;
	struct template tm = { NULL, 0, NULL };
	struct repo repo = { 0 };
	struct txn t = { 0 };
	int r;

	if ((r = parse_commit_opts(a, &o, 1)))
		return r;
	if (!o.file && !o.message) {
		error("commit: a message template is required (-F FILE or -m MSG)");
		return usage(NULL);
	}
	catch_signals();
	if (load_template(&text, &o) < 0 || repo_open(&repo) < 0) {
		r = EXIT_FAIL;
		goto out;
	}
	tm.text = text.buf;
	tm.len = text.len;
	if ((r = prepare(&o, &st, &p)) != EXIT_DONE)
		goto out;
	r = EXIT_FAIL;
	if (!(t.author = ident("GIT_AUTHOR_IDENT")) ||
	    !(t.committer = ident("GIT_COMMITTER_IDENT")))
		goto out;
	if (o.signoff) {
		const char *gt = strrchr(t.committer, '>');
		sb_adds(&sob, "Signed-off-by: ");
		sb_add(&sob, t.committer, (size_t)(gt - t.committer) + 1);
		tm.sob = sob.buf;
	}
	if (o.dry_run) {
		print_plan(&p, &st, &tm, 1);
		r = EXIT_DONE;
		goto out;
	}
	if (chdir(repo.top) < 0) {
		error("%s: %s", repo.top, strerror(errno));
		goto out;
	}
	t.repo = &repo;
	t.plan = &p;
	t.st = &st;
	t.tmpl = &tm;
	if (commit_series(&t) < 0)
		goto out;
	printf("%zu commit%s, %zu file%s on %s: %.12s..%.12s\n", p.nr,
	       p.nr == 1 ? "" : "s", t.files, t.files == 1 ? "" : "s",
	       repo.ref, *repo.old ? repo.old : "(root)", t.tip);
	r = EXIT_DONE;
out:
	free(t.author);
	free(t.committer);
	repo_release(&repo);
	plan_release(&p);
	status_release(&st);
	sb_release(&text);
	sb_release(&sob);
	free(o.include);
	if (stop_signal) {
		signal((int)stop_signal, SIG_DFL);
		raise((int)stop_signal);
	}
	return r;
}

/* ---- main --------------------------------------------------------------- */
struct command {
	const char *name;
	int (*fn)(struct args *);
	const char *synopsis;
};

static const struct command commands[] = {
	{ "plan", cmd_plan,
	  "plan [--by dir|file|tree] [--depth N] [--include GLOB]... "
	  "[--untracked] [-F FILE | -m MSG] [-- PATHSPEC...]" },
	{ "commit", cmd_commit,
	  "commit (-F FILE | -m MSG) [-s] [-n] [--by dir|file|tree] "
	  "[--depth N] [--include GLOB]... [--untracked] [-- PATHSPEC...]" },
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static int usage(const char *why)
{
	FILE *f = why ? stderr : stdout;

	if (why)
		fprintf(stderr, "series: %s\n", why);
	fprintf(f, "usage: series [-h | --version] COMMAND [ARGS]\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "       series %s\n", commands[i].synopsis);
	fprintf(f, "exit: 0 done, 1 nothing to do, 2 usage, 3 failure, "
		   "128+N killed by signal N\n");
	return EXIT_USAGE;
}

#ifndef SERIES_NO_MAIN
static void version(void)
{
	printf("series %s (", SERIES_VERSION);
#if defined(__clang__)
	printf("clang %d.%d.%d", __clang_major__, __clang_minor__,
	       __clang_patchlevel__);
#elif defined(__GNUC__)
	printf("gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
	printf("unknown compiler");
#endif
#if defined(SERIES_LIBC)
	printf(", %s", SERIES_LIBC);
#endif
#if defined(SERIES_STATIC)
	printf(", static");
#endif
	printf(")\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	signal(SIGPIPE, SIG_IGN);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(NULL);
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
			struct args a = { argc - i, argv + i, 0, argv[i] };
			int r = commands[c].fn(&a);
			if (fflush(stdout) == EOF || ferror(stdout))
				die("stdout: %s", strerror(errno));
			return r;
		}
	error("unknown command '%s'", argv[i]);
	return usage(NULL);
}
#endif
