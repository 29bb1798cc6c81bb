/* fuzz-maintainers.c - libFuzzer harness: MAINTAINERS parsing and a query
 * of a few paths and a small patch against it. */
#include <stdint.h>
#include <stdlib.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf err = SBUF_INIT, out = SBUF_INIT;
	struct maintainers *m = maintainers_parse((const char *)data, size,
						  "/nonexistent", &err);
	static const char patch[] = "Subject: bpf\n---\ndiff --git a/x/y.c b/x/y.c\n"
		"--- a/x/y.c\n+++ b/x/y.c\n@@ -1 +1 @@\n-a\n+rust\n";

	if (m) {
		char *files[] = { "x/y.c", "drivers/net/foo.c", "a.yaml", "" };
		struct cc_opts o = CC_OPTS_INIT;
		struct patch_files pf = { 0 };
		size_t *kw = NULL, nkw = 0, akw = 0;
		o.roles = size & 1;
		maintainers_query(m, &o, files, 4, NULL, 0, &out);
		scan_patch(m, patch, sizeof patch - 1, &pf, &kw, &nkw, &akw);
		maintainers_query(m, &o, pf.file, pf.nr, kw, nkw, &out);
		mailmap_parse(m, (const char *)data, size);
		maintainers_query(m, &o, files, 2, NULL, 0, &out);
		patch_files_release(&pf);
		free(kw);
		maintainers_free(m);
	}
	sb_release(&err);
	sb_release(&out);
	return 0;
}
