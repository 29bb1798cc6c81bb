/*
 * series.h - the types of series.c and the functions its tests and fuzz
 * harnesses call.  Everything here is defined in series.c; build that file
 * with -DSERIES_NO_MAIN to link it into a test program.  The sections
 * follow series.c's parts: kit (errors, buffers, child processes), model
 * (source, plan, recipients), sources (the unified diff, git status, mbox
 * replies), recipients (the patch scanner, the regex engine, MAINTAINERS
 * and its queries), messages, versions (what became of each patch, the
 * series of format --split).
 *
 * Ownership rule, stated once: a function that fills a struct owns what it
 * puts there until the matching *_release() frees it; a function returning a
 * pointer says who frees it.  Nothing here keeps a pointer to its arguments
 * after it returns, unless its comment says so.
 */
#ifndef SERIES_H
#define SERIES_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

/* ==== kit ================================================================ */

/* A function of series.c that the unit tests call, but that the binary
 * keeps to its file: static there, so the compiler may fold it into its
 * callers; declared here, below a "#ifdef SERIES_NO_MAIN", for the tests
 * alone. */
#ifdef SERIES_NO_MAIN
#define UNIT
#else
#define UNIT static
#endif

/* The compiler checks a call's arguments against its printf format (the
 * subset series.c's formatting part writes, without floating point). */
#if defined(__GNUC__) || defined(__clang__)
#define FORMAT(f, a) __attribute__((format(printf, f, a)))
#else
#define FORMAT(f, a)
#endif

/* ---- errors ----------------------------------------------------------
 * error() prints "series: <message>" on stderr and returns -1, so a caller
 * writes `return error(...)`.  die() prints the same and exits with
 * EXIT_FAIL.  warning() prints "series: warning: <message>".
 */
enum exit_code {
	EXIT_DONE = 0,    /* did what was asked (cc: also with no recipient,
			   * as git send-email needs of a --cc-cmd) */
	EXIT_NOTHING = 1, /* nothing to do: nothing to commit, no commit to
			   * format, no trailer to add; for check: a patch
			   * needs the hardware */
	EXIT_USAGE = 2,   /* bad command line */
	EXIT_FAIL = 3     /* git failed, bad input, I/O error; a run stopped
			   * by signal N dies of it (128+N to its parent) */
};
int FORMAT(1, 2) error(const char *fmt, ...);
void FORMAT(1, 2) warning(const char *fmt, ...);
void FORMAT(1, 2) die(const char *fmt, ...);

/* ---- sbuf: a growable byte buffer -------------------------------------
 * Invariants: buf is never NULL and buf[len] == '\0' always, so buf can be
 * passed to string functions even when empty; the bytes may hold NULs (git's
 * -z output does), so len, not strlen(), is the length.  alloc == 0 means
 * buf points at a shared static "" that must not be written.
 * Functions named sb_* and x* die on overflow or OOM and otherwise never
 * fail, but for the two that read a file: sb_read_fd() and sb_read_file()
 * return -1 with errno set.
 */
struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
extern char sbuf_slopbuf[];
#define SBUF_INIT { sbuf_slopbuf, 0, 0 }

void sb_init(struct sbuf *sb);
/* Frees the bytes and leaves sb as after sb_init(). */
void sb_release(struct sbuf *sb);
/* Makes room for extra more bytes (plus the NUL). */
void sb_grow(struct sbuf *sb, size_t extra);
/* Sets len to n <= len (or to n within alloc) and rewrites the NUL. */
void sb_setlen(struct sbuf *sb, size_t n);
/* Puts n bytes of data at offset at (<= len), the rest after them. */
void sb_insert(struct sbuf *sb, size_t at, const void *data, size_t n);
void sb_add(struct sbuf *sb, const void *data, size_t n);
void sb_adds(struct sbuf *sb, const char *s);
void sb_addc(struct sbuf *sb, int c);
void FORMAT(2, 3) sb_addf(struct sbuf *sb, const char *fmt, ...);
/* Returns the malloc'd bytes (caller frees) and resets sb. */
char *sb_detach(struct sbuf *sb, size_t *len);
/* Appends everything readable from fd.  Returns 0, or -1 with errno set and
 * sb exactly as before the call (a failed read is undone). */
int sb_read_fd(struct sbuf *sb, int fd);
/* Appends the whole file; returns 0, or -1 (errno set, sb unchanged). */
int sb_read_file(struct sbuf *sb, const char *path);
/* Appends s as git quotes a path: bare when it holds no byte below 0x20,
 * no DEL, no '"' and no '\\'; otherwise in double quotes with C escapes.
 * With always != 0 the quotes are written even for a plain path (what
 * git fast-import reads back unambiguously). */
void sb_quote_c(struct sbuf *sb, const char *s, size_t n, int always);

/* ---- numbers -----------------------------------------------------------
 * The number at s in base (8, 10 or 16), after white space and a sign,
 * as strtoll() reads it, but for base 16's "0x", which no field read here
 * carries (so "0x1f" is 0, its end at the x): *end (when end is not NULL)
 * just past its digits, or s where it has none; LLONG_MAX or LLONG_MIN,
 * errno ERANGE, where it does not fit.  Nothing is allocated. */
long long scan_number(const char *s, char **end, int base);

/* ---- child processes ---------------------------------------------------
 * fd fields of struct child, before child_start():
 *   CHILD_INHERIT (0)  the child shares ours;
 *   CHILD_PIPE (-1)    a pipe is made and our end is stored back here
 *                      (in: we write; out, err: we read); the caller closes it;
 *   CHILD_NULL (-2)    /dev/null;
 *   fd > 2             dup'ed onto the child's fd, left open in the parent.
 * The child chdirs to dir if set, adds env (NAME=VALUE strings, NULL-
 * terminated) to the environment and execs argv[0] from PATH, with SIGPIPE,
 * SIGINT, SIGTERM and SIGHUP back at their defaults; a failed exec exits
 * 127.  With fn set it runs fn(arg) instead and exits with its value
 * (0-127): a job of ours that runs while we do something else, which keeps
 * our handlers, so that a stop request reaches the git it runs.
 * No shell is ever involved.
 */
enum { CHILD_INHERIT = 0, CHILD_PIPE = -1, CHILD_NULL = -2 };
struct child {
	const char *const *argv;
	const char *const *env;
	const char *dir;
	int in, out, err;
	pid_t pid;
	int (*fn)(void *);
	void *arg;
};
/* Returns 0, or error() when fork or pipe fails (no child then). */
int child_start(struct child *c);
/* Waits for the child.  Returns its exit status, 128+N when signal N killed
 * it, or -1 when waitpid fails. */
int child_finish(struct child *c);
/* For a child started with out = CHILD_PIPE (and in = CHILD_PIPE when input
 * is not NULL): writes the inlen bytes of input to its stdin while reading
 * its stdout into out (NULL: dropped), so that neither side ever waits on a
 * full pipe whatever the sizes, closes both of our ends, then waits.
 * Returns child_finish()'s value; -1 instead of 0 when a pipe failed, so
 * that output cut short is never taken for the whole. */
int child_pump(struct child *c, const char *input, size_t inlen,
	       struct sbuf *out);

/* ==== model ============================================================== */

/* ---- source -----------------------------------------------------------
 * A source turns a change into one list of changed files: the work tree
 * (git status), a unified diff (a file or stdin), or a commit range (git's
 * own diff of it).  Groupings read only this list; sinks read it and, for
 * the diff text, the source's bytes.
 * Invariants: every path is relative to the top of the tree, with no
 * leading "./" and no a/ b/ prefix left; orig is set for a rename or a copy
 * only; a file with text holds bytes [off, off+len) of src->text exactly as
 * the input had them (len 0: the source has no diff text, as the work
 * tree).  For the work tree, each file points at its status entry.
 */
struct entry;
enum sfile_kind { SF_MODIFY = 'M', SF_ADD = 'A', SF_DELETE = 'D',
		  SF_RENAME = 'R', SF_COPY = 'C' };
struct sfile {
	char *path;          /* after the change; for a deletion, before it */
	char *orig;          /* the source of a rename or copy, else NULL */
	char kind;           /* enum sfile_kind */
	int noop;            /* listed, but changes no tree: never grouped */
	unsigned old_mode, new_mode;  /* 0: absent on that side; unknown: 0100644 */
	size_t off, len;     /* the file's diff in src->text */
	size_t body;         /* where its hunks start (traditional files) */
	int keep_header;     /* its header lines name the path as git am
	                      * reads them (-p1), so they are written as they
	                      * are; else the mail writer writes a/PATH b/PATH */
	size_t line;         /* its first line in the input (1-based), 0: none */
	int git;             /* a "diff --git" section (else a traditional one) */
	int strip;           /* leading components its header paths carry */
	size_t added, removed;   /* hunk lines, for the diffstat */
	int binary;          /* a binary patch, or "Binary files ... differ" */
	const struct entry *entry;  /* the work tree's: its status entry, which
				     * the status owns; else NULL */
	int here;            /* its path is where the diff was made, as
			      * patch -p0 reads it there (spatch's bare form):
			      * relative to the current directory */
};
struct source {
	struct sfile *f;
	size_t nr, alloc;
	struct sbuf text;    /* the diff of the files, whole: a diff source's
			      * input, or the work tree's git diff HEAD once
			      * it is read (an untracked file has none) */
	struct wt_patch *diff;  /* the work tree's diff while it runs, or
				 * NULL; finished before the source is
				 * released */
};
#define SOURCE_INIT { NULL, 0, 0, SBUF_INIT, NULL }
void source_release(struct source *src);

/* ---- plan ---------------------------------------------------------------
 * A plan is a list of groups sorted by name (bytewise); each group's members
 * index into the source it was made from and are sorted by path.
 */
enum group_by { BY_DIR, BY_FILE, BY_TREE, BY_SUBSYSTEM, BY_MAINTAINERS,
		BY_ROUTE };
struct selection {
	enum group_by by;
	int depth;                 /* 0: the whole directory */
	const char *const *include; /* globs, NULL-terminated, or NULL */
	/* BY_SUBSYSTEM, BY_MAINTAINERS, BY_ROUTE: per source file, its
	 * owning section, its recipients or its tree; a NULL one (THE REST
	 * only) goes per directory, as BY_DIR would put it. */
	char *const *key;
	char *const *section;      /* per source file, its owning section, or
				    * NULL: what %(section) becomes */
};
/* name: for the MAINTAINERS groupings, the deepest directory that holds
 * all its files ("." for the top).  section: the owning section most of
 * its files have, or NULL.  tag: what SEDME becomes where it is not the
 * name: in a MAINTAINERS grouping, for a group whose name another has,
 * its own learned prefix (without ": ") or its section's name in subject
 * form, so that the two subjects differ; else NULL. */
struct group {
	char *name;
	size_t *member;
	size_t nr;
	char *section;
	char *prefix;       /* from history, else the path; NULL: unsettled */
	char *tag;
	char *msg;          /* its message as it stands (respin: the last
			     * version's), not the template's; or NULL */
};
struct plan {
	struct group *g;
	size_t nr;
};
#define PLAN_INIT { NULL, 0 }
void plan_release(struct plan *p);

/* ---- commits -------------------------------------------------------------
 * One commit of a range, as git log gives it: its id (40 hex digits), its
 * author ("Name <addr>") and author date (seconds, and minutes east of
 * UTC), its message, and the paths it touches in git's order (a rename's
 * new path).  A range's commits are oldest first.
 */
struct rcommit {
	char id[72];
	char *author;
	time_t when;
	int tz;
	char *msg;           /* NULL: a commit not made yet (respin's groups) */
	char **path;
	size_t npath;
};
struct rcommits {
	struct rcommit *c;
	size_t nr, alloc;
};
void rcommits_release(struct rcommits *rc);

/* ---- patch ids -------------------------------------------------------------
 * `git patch-id --stable`'s answer for some commits (or diffs under made-up
 * labels), read once: e holds each patch id and the commit it was given
 * for, in git's order (a range's oldest first); by_pid and by_commit index
 * e, sorted by the one key and then by git's order, so a lookup is a binary
 * search that finds the first of equal keys.
 * Invariants: each pid and commit is NUL-ended, at most 64 characters, the
 * pid hex; by_pid and by_commit are permutations of 0..nr-1 (NULL before
 * the first entries are indexed), sorted again after every change to e;
 * the map owns them all, pids_release() frees them.  All zeroes
 * (PIDS_INIT) is an empty map.
 */
struct pid {
	char pid[65], commit[65];
};
struct pids {
	struct pid *e;
	size_t nr, alloc;
	size_t *by_pid, *by_commit;
};
#define PIDS_INIT { NULL, 0, 0, NULL, NULL }
#ifdef SERIES_NO_MAIN
/* Adds the "PATCH-ID COMMIT" lines of t (other lines are passed over),
 * then sorts the indices again. */
void pids_add_text(struct pids *m, const char *t, size_t len);
void pids_release(struct pids *m);
/* commit's patch id, or NULL; the map owns it. */
const char *patch_of(const struct pids *m, const char *commit);
/* The first commit, in git's order, of patch id pid, or NULL. */
const char *commit_of(const struct pids *m, const char *pid);
#endif

/* ---- recipients ---------------------------------------------------------
 * Whom a set of files goes to, as get_maintainer.pl answers: each
 * recipient's address as the script prints it ("Name <addr>" for a
 * person, a list's address) and the role it gives it ("maintainer:I2C
 * SUBSYSTEM", "open list"; printed after the address under --roles).
 * Invariants: the people (maintainers, reviewers, signers) are v[0..people),
 * the lists v[people..n), in the script's order; each address is there
 * once; an address may be empty (an L: line with none: the script prints
 * an empty line).  The list owns its strings: recipients_release() frees
 * them and leaves it as RECIPIENTS_INIT; recipients_free() frees an
 * array of n lists and the array.
 */
struct span {               /* len bytes at p, a string its owner keeps */
	const char *p;
	size_t len;
};
struct address {            /* parsed as series.c's addresses part says */
	struct span name;   /* empty for a bare box */
	struct span box;    /* the mailbox: "a@b" of "Name <a@b>" */
	int angled;         /* the box was in <> */
};
struct recipient {
	char *addr;
	char *role;
	int list;   /* a list: among the lists, or a person whose address
		     * MAINTAINERS also has on an L: line (R: "NXP Linux Team
		     * <linux-imx@nxp.com>", elsewhere L: linux-imx@nxp.com),
		     * so a cover letter goes to it */
	struct address a;   /* addr parsed, once, as it enters (its spans
			     * are in addr) */
};
struct recipients {
	struct recipient *v;
	size_t n, people, alloc;
};
#define RECIPIENTS_INIT { NULL, 0, 0, 0 }
void recipients_release(struct recipients *r);
void recipients_free(struct recipients *r, size_t n);
/* Appends r as series cc prints it: an address a line, with " (ROLE)"
 * after it where roles is set. */
void recipients_write(struct sbuf *out, const struct recipients *r, int roles);
/* Whether r[0..r->people) or the lists hold addr exactly (people: 1 for
 * the people, 0 for the lists). */
int recipients_have(const struct recipients *r, const char *addr, int people);

/* ==== sources ============================================================ */

/* ---- the unified diff ----------------------------------------------------
 * How a diff names its paths: strip < 0 finds it per file (see series.c),
 * else it is patch's -pN; directory (or NULL) is put before every path, as
 * git apply --directory does. */
struct diff_opts {
	int strip;
	const char *directory;
};
/* Parses the unified diff in src->text into src's files.  Returns 0, or
 * error() naming the input (what, e.g. "-" or a file name) and the line
 * number of what is wrong: no file header at all, a hunk shorter or longer
 * than its header says, a file twice, a NUL byte. */
int parse_diff(struct source *src, const char *what, const struct diff_opts *o);
/* Mails in text (format-patch files, an mbox of them) whose body is
 * quoted-printable or base64 decoded in place into UTF-8, as git am would
 * read them; any other text is left as it is. */
void decode_mails(struct sbuf *text);

/* ---- the work tree: git status ------------------------------------------
 * One path that `git status --porcelain=v2 -z` reported.  path is relative
 * to the top of the work tree; orig is the source of a rename or copy (else
 * NULL).  Modes are git's octal modes (0 = absent on that side).
 */
enum entry_kind { E_CHANGED = '1', E_RENAMED = '2', E_UNMERGED = 'u',
		  E_UNTRACKED = '?', E_IGNORED = '!' };
struct entry {
	char *path;
	char *orig;
	char kind;          /* enum entry_kind */
	char x, y;          /* index and work tree status letters, '.' = none */
	char sub[5];        /* "N..." or "S<c><m><u>" */
	unsigned mode_head, mode_index, mode_wt;
	char oid_head[65];  /* HEAD's object id (of orig for a rename), or "" */
	char oid_index[65]; /* the index's (stage 0), or "" (unmerged) */
};
struct status {
	struct entry *e;
	size_t nr, alloc;
};
#define STATUS_INIT { NULL, 0, 0 }
/* Parses porcelain v2 -z output, appending to st.  Returns 0, or error()
 * naming the malformed record (st then holds the records before it). */
int parse_status(struct status *st, const char *buf, size_t len);
void status_release(struct status *st);
/* The work tree as a source: one file per status entry, in its order,
 * each pointing at its entry (st must outlive src). */
void source_from_status(struct source *src, const struct status *st);

/* ---- replies: the mbox parser ------------------------------------------
 * Replies as a mail client or a list archive saves them. */
/* One message of an mbox: its headers as decoded strings (NULL where it
 * has none), References in order, and the trailer lines of its body
 * (Tested-by: and the like, never a quoted one), each decoded. */
struct mbox_msg {
	char *id, *in_reply_to, *subject, *from;
	char **refs;
	size_t nrefs;
	char **trailer;
	size_t ntrailer, atrailer;
	char *diff;     /* the diff a patch mail carries, decoded; or NULL */
	char *scope;    /* what an ack says it is for ("gpio" of "for the
			 * GPIO part", "drivers/i2c"), lower case; or NULL */
	char *applied;  /* the line saying it was applied ("Applied to
			 * for-next, thanks!"), or NULL */
	char *nak;      /* its first "Nacked-by: ..." line, or NULL: a NAK
			 * is a verdict, never a tag to carry */
	char **listed;  /* after it, the subjects of "[1/3] subject" lines
			 * (b4 ty, a patchwork bot): which were */
	size_t nlisted, alisted;
};
struct mbox {
	struct mbox_msg *m;
	size_t n, alloc;
};
/* Appends the messages of t (len bytes, an mbox) to mb; returns how many.
 * Never fails: what is not a message is skipped.  mbox_release() frees. */
int mbox_parse(const char *t, size_t len, struct mbox *mb);
void mbox_release(struct mbox *mb);


/* ==== recipients ========================================================= */

/* ---- diff parser ---------------------------------------------------------
 * What a patch touches: files in the script's sense (see series.c), sorted
 * and unique per patch, and the ids of its Fixes: lines.  Owns its strings.
 */
struct patch_files {
	char **file;
	size_t nr, alloc;
	char **fixes;
	size_t nfixes, afixes;
};
void patch_files_release(struct patch_files *pf);

/* ---- regex -----------------------------------------------------------------
 * A compiled pattern: program and class table in one allocation, plus
 * scratch for matching, so a struct regex is not shared between threads.
 */
struct regex;
/* Compiles pat (len bytes; xflag: Perl's /x).  Returns the regex (free with
 * re_free), or NULL with the reason appended to err. */
struct regex *re_compile(const char *pat, size_t len, int xflag,
			 struct sbuf *err);
/* 1 if the regex matches s[start..len) anywhere, 0 if not; s[0..start)
 * is context for \b.  Linear in len times the program's size. */
int re_search(struct regex *re, const char *s, size_t len, size_t start);
/* 1 if the regex matches any of the n lines of text (each searched as
 * re_search() searches s[start..len), with the line's skip as start), 0 if
 * not.  The prefilter literals are looked for once in the whole text, and
 * only the lines that hold one are run. */
struct kwline;
int re_search_lines(struct regex *re, const char *text, size_t tlen,
		    const struct kwline *line, size_t nline);
/* The longest run of bytes every match of pat must contain, found in the
 * source without compiling it: its length (0: none) and start (*at). */
size_t re_literal(const char *pat, size_t len, int xflag, size_t *at);
/* Appends the program and the prefilter literals to out, for debugging. */
void re_dump(const struct regex *re, struct sbuf *out);
void re_free(struct regex *re);

/* ---- MAINTAINERS -------------------------------------------------------------
 * The file's text (mapped, or a buffer it owns), the tree's top (for F:
 * directory checks and in-file .yaml addresses) and .mailmap.  Nothing is
 * parsed ahead: each maintainers_query() reads the text once.
 */
struct maintainers;
/* get_maintainer.pl's switches of the same names; git, git_fallback and
 * fixes read git log in the top (where it is a git work tree). */
struct cc_opts {
	int m, r, l, s, moderated, roles, keywords, git_fallback, mailmap,
	    tree, git, email, fixes;
	int lists_anywhere;  /* mark a person whose address is an L: line
			      * elsewhere as a list (struct recipient);
			      * a cover letter wants it, cc does not pay
			      * for it */
	/* where --git and --git-fallback cut: --git-min-signatures,
	 * --git-max-maintainers, --git-min-percent (1, 5, 5) */
	int git_min_sign, git_max_maint, git_min_percent;
	int find_files;      /* --find-maintainer-files: every MAINTAINERS
			      * below the top, read as one (U-Boot's boards) */
	char git_since[32];  /* --git-since: how far back (1-year-ago) */
};
/* The script's defaults, by place (by name it costs 96 bytes more): --m
 * --r --l --moderated --keywords --mailmap --tree --email --fixes on,
 * --git-min-signatures 1, --git-max-maintainers and --git-min-percent 5,
 * --git-since 1-year-ago. */
#define CC_OPTS_INIT { 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 5, 5, 0, \
		       "1-year-ago" }
/* Return the file (free with maintainers_free).  _parse copies buf; _take
 * takes text's bytes (text is left empty); _open maps or reads path, and
 * returns NULL with "path: why" appended to err when it cannot.  What the
 * text holds is checked by the queries. */
struct maintainers *maintainers_parse(const char *buf, size_t len,
				      const char *top);
struct maintainers *maintainers_take(struct sbuf *text, const char *top);
struct maintainers *maintainers_open(const char *path, const char *top,
				     struct sbuf *err);
void maintainers_free(struct maintainers *m);
/* Adds the lines of a .mailmap text. */
void mailmap_parse(struct maintainers *m, const char *buf, size_t len);

/*
 * The text K: patterns are searched in: lines (each with its LF) copied
 * into one buffer, so that whether a literal occurs at all is one search.
 * A line's first skip bytes are context only (a diff line's '+' or '-').
 * Release with kwtext_release; KWTEXT_INIT is empty.
 */
struct kwline {
	size_t off, len, skip;
};
struct kwtext {
	struct sbuf text;
	struct kwline *line;
	size_t nline, aline;
};
#define KWTEXT_INIT { SBUF_INIT, NULL, 0, 0 }
void kwtext_add(struct kwtext *kw, const char *s, size_t len, size_t skip);
void kwtext_release(struct kwtext *kw);

/* Scans a patch: files go to pf; when kw is not NULL, the lines keywords
 * are searched in go to kw.  Returns the number of files it added. */
size_t scan_patch(const char *t, size_t len, struct patch_files *pf,
		  struct kwtext *kw);

/* A growing array of indices; { NULL, 0, 0 } is empty.  Owner frees v. */
struct indices {
	size_t *v;
	size_t n, alloc;
};

/* One set of files whose recipients are wanted (tree paths, in the order
 * the script would hold them), its keyword text (NULL: none) and the
 * commits its Fixes: lines name.  The query borrows all of them.
 * K: lines are searched in kw; or, where khit is not NULL, the K: lines
 * that hit are known already (sorted indices, as khit_out gave them for
 * the same MAINTAINERS): a group's are the union of its files', so each
 * file's text is searched once however many groups hold it. */
struct cc_query {
	char *const *file;
	size_t nfile;
	const struct kwtext *kw;
	char *const *fixes;
	size_t nfixes;
	const size_t *khit;
	size_t nkhit;
	struct indices *khit_out;  /* out, or NULL: the K: lines that hit */
};
/* Fills out[i] (each RECIPIENTS_INIT or empty before) with the recipients
 * of query i, for each of the nq queries, from one pass over the file.
 * Returns 0, or -1 with "MAINTAINERS:LINE: ..." appended to err for a
 * pattern we cannot run that could have matched. */
int maintainers_query(struct maintainers *m, const struct cc_opts *o,
		      const struct cc_query *q, size_t nq,
		      struct recipients *out, struct sbuf *err);

/* Who owns each of the n files (tree paths): the title of the first
 * section get_maintainer.pl lists for it (deepest F: first, an N: match at
 * depth 0), THE REST skipped; its route, the T: of the first of those
 * sections whose M: names one of own[i].by (who committed the file's
 * recent patches, the caller's, most first), else the first T: of the
 * sections listed that owns the file's directory (an F: "dir/" without
 * glob), else the first T: of them all.  NULL where none; rest says
 * whether THE REST (skipped) covers it.  The caller frees both strings
 * of each own[i].  One pass; returns 0, or -1 with err filled. */
struct file_owner {
	char *section;
	char *route;
	int rest;          /* THE REST covers it */
	char **by;         /* in: committers' addresses, or NULL */
	size_t nby;
	char *merged;      /* in: the URL of the tree that merged the most of
			    * its recent patches, "" the main tree's; NULL
			    * where history does not say */
};
int maintainers_owners(struct maintainers *m, char *const *file, size_t n,
		       struct file_owner *own, struct sbuf *err);

/* ==== groupings ========================================================== */

/* The group a path belongs to, malloc'd (caller frees): for BY_DIR its
 * directory cut to depth components ("." at the top), for BY_FILE the path,
 * for BY_TREE "treewide". */
char *group_name(const char *path, const struct selection *sel);
/* Groups the files of src that sel includes and that are no noop; the
 * members index src->f.  Returns the number of groups. */
size_t make_plan(struct plan *p, const struct source *src,
		 const struct selection *sel);

/* ==== messages =========================================================== */

/* Appends tmpl with its placeholders filled, every other byte as it is:
 * SEDME by g's tag, else its name; %(section) by g's section (its name
 * where it has none); %(prefix) by g's prefix (history's, else the
 * path's: plan settles every group's), else its name and ": ". */
void expand_template(struct sbuf *out, const char *tmpl, size_t len,
		     const struct group *g);
/* The kernel's subject prefix of path (a file's where file, else its
 * directory's), from the path alone, as maintainers name a driver
 * ("i2c: mux: ltc4306: " for drivers/i2c/muxes/i2c-mux-ltc4306.c),
 * appended to out; 0 where no rule holds it (out unchanged). */
#ifdef SERIES_NO_MAIN
int path_prefix(struct sbuf *out, const char *path, int file);
/* The subject prefixes history gives each group of p (group.prefix, each
 * malloc'd, replaced), from log: the text git log writes for the history
 * window (series.c's history part gives its grammar), read with no
 * repository.  Built into the unit tests only (-DSERIES_NO_MAIN). */
void prefixes_from_log(struct plan *p, const struct source *src,
		       const char *log, size_t len, int by_file);
#endif
/* git stripspace without comment removal: trailing white space off each
 * line, blank lines at both ends dropped, runs of blank lines squeezed to
 * one, a final newline. */
void cleanup_message(struct sbuf *msg);
/* Appends line ("Token: value") as the message's last trailer, unless
 * the message already ends with exactly that line: into the trailer
 * block it ends in, else as a new one after a blank line. */
void add_trailer(struct sbuf *msg, const char *line);
/* Appends a mail's Date: value for when (seconds since the epoch, UTC)
 * in the zone tz minutes east of UTC: "Thu, 1 Jan 1970 00:00:00 +0000",
 * in English whatever the locale. */
#ifdef SERIES_NO_MAIN
void add_mail_date(struct sbuf *sb, time_t when, int tz);
#endif

/* ==== versions =========================================================== */

/* ---- what became of each patch -------------------------------------------
 * A version format recorded is followed patch by patch: one struct fate
 * per patch of the version, parallel to its commits, in one of the states
 * below.  The fate engine (version_fates() in series.c) sets each: applied
 * in an upstream ref (by a Link: or Message-Id: naming the patch's mail,
 * by its git patch-id --stable, or by its subject, author and files:
 * MODIFIED), REVERTED there since, else ANSWERED or NAKED by a reply,
 * else PENDING.  A state only moves away from PENDING, and an applied
 * one never becomes ANSWERED: a commit upstream outweighs a mail.
 * Invariants: commit is set for the three applied states and REVERTED
 * (revert too for REVERTED); answer for ANSWERED and NAKED only; squashed
 * is 0 or the count of the version's patches one upstream commit holds
 * (2 or more); ref points at the caller's ref string, which outlives it.
 */
enum fate_state { PENDING, BY_LINK, BY_PATCH_ID, MODIFIED, REVERTED, ANSWERED,
		  NAKED };
struct fate {
	int state;              /* enum fate_state */
	const char *ref;        /* applied or reverted in it */
	char commit[72], revert[72];
	char *edited;           /* the files whose change differs, or NULL */
	char *answer;           /* ANSWERED: who, and their line; NAKED:
				 * the Nacked-by: line */
	char *replied;          /* per To: box, 1: they replied */
	size_t squashed;        /* BY_PATCH_ID: the patches in its commit,
				 * where more than it (squashes()) */
};

/* What became of a patch of the last version in the next one: the next
 * commit it became (to; next->nr where none), whether that has its patch
 * id (same: unchanged, else changed), or the upstream commit that applied
 * it (up, into the fate it came from; then to is next->nr).  Each next
 * commit is one patch's at most. */
struct became {
	size_t to;
	const char *up;
	int same;
};

/* The one matcher of a version's patches (prev) to the next version's
 * commits (next): a new array of prev->nr + 1 (the caller frees it), in
 * three passes, each next commit taken once (taken[], next->nr bytes,
 * zeroed by the caller, marks them): the one of the same patch id (pids
 * and npids map prev's and next's commits to theirs); unless up[i]
 * (prev->nr fates) says it is applied upstream, the first of the same
 * subject, else the first sharing a path.  A next commit without a message matches by patch id or
 * path only. */
#ifdef SERIES_NO_MAIN
struct became *became_of(const struct rcommits *prev, const struct pids *pids,
			 const struct rcommits *next, const struct pids *npids,
			 const struct fate *up, char *taken);
#endif

/* Adds the patch id of hex (2n hex digits) to sum (n bytes) as git
 * patch-id --stable sums a commit's per-file hashes: little-endian, the
 * carry running up.  A commit that squashes patches of disjoint files has
 * the sum of their ids. */
#ifdef SERIES_NO_MAIN
void add_patch_id(unsigned char *sum, const char *hex, size_t n);
#endif

/* ---- several series --------------------------------------------------------
 * format --split: a tree-wide change goes out as one series per tree that
 * merges it (or per subsystem, or per first list), each the size a list
 * takes.  The commits keep the range's order; a commit goes with the key
 * most of its files have (one whose files tie between keys is a series of
 * its own), and a series of more than max commits is cut into parts of
 * even size, in order.
 * Invariants: every commit of the range is in exactly one cut; a cut's
 * commits are in the range's order; parts of one key are consecutive,
 * numbered 1..parts, their sizes differ by one at most.
 */
struct cut {
	size_t *commit, n;      /* into the range's commits, in order */
	const char *key;        /* what most of its files have ("" none), or
				 * NULL: its one commit's files tie */
	size_t part, parts;     /* 1-based; parts 1: whole */
	char *prefix;           /* its subjects' common cut, "i2c: " or "" */
	char *tag;              /* where another key's cut has its prefix
				 * (or it has none), what tells it apart:
				 * its key's short name; else NULL */
	char *dir;              /* its folder, "03-i2c-busses" */
	size_t day;             /* when it goes out, from 1 */
};
/* The series of p's groups (a range's commits, subjects subj, files in
 * src, key[i] the key of src's file i, NULL reading "") by key, each at
 * most max commits, into *out (a new array: cuts_free()).  Returns how
 * many.  dir and day are left for the caller. */
#ifdef SERIES_NO_MAIN
size_t cut_series(const struct plan *p, const struct source *src,
		  char *const *key, char *const *subj, size_t max,
		  struct cut **out);
#endif
#ifdef SERIES_NO_MAIN
void cuts_free(struct cut *c, size_t n);
#endif

#endif
