/* fuzz-diff.c - libFuzzer harness: the unified diff source (series split:
 * mails decoded, then the diff parsed), then the grouping over what it
 * found.  Checks the source's invariants:
 * every file's bytes lie inside the text, in input order, without overlap,
 * and its hunks start inside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "series.h"

static void one(const uint8_t *data, size_t size, int strip, const char *dir)
{
	struct source src = SOURCE_INIT;
	struct diff_opts o = { strip, dir };
	struct plan p = PLAN_INIT;
	struct selection sel = { .by = BY_DIR };

	sb_add(&src.text, data, size);
	decode_mails(&src.text);
	if (parse_diff(&src, "fuzz", &o) == 0) {
		size_t end = 0;
		for (size_t i = 0; i < src.nr; i++) {
			const struct sfile *f = &src.f[i];
			if (f->off < end || f->off + f->len > src.text.len ||
			    !f->path || !*f->path ||
			    (!f->keep_header && (f->body < f->off ||
						 f->body > f->off + f->len)))
				abort();
			end = f->off + f->len;
		}
		make_plan(&p, &src, &sel);
		size_t n = 0;
		for (size_t i = 0; i < p.nr; i++)
			n += p.g[i].nr;
		if (n != src.nr)
			abort();
		plan_release(&p);
	}
	source_release(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, -1, NULL);
	one(data, size, 1, "sub/dir");
	return 0;
}
