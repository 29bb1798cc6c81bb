/* fuzz-maintainers.c - libFuzzer harness: a MAINTAINERS text (also read as
 * a .mailmap) answering a few paths and a small patch, one query at a time
 * and all at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf err = SBUF_INIT;
	struct recipients out[3] = { RECIPIENTS_INIT, RECIPIENTS_INIT,
				     RECIPIENTS_INIT };
	struct maintainers *m = maintainers_parse((const char *)data, size,
						  "/nonexistent");
	static const char patch[] = "Subject: bpf\n---\ndiff --git a/x/y.c b/x/y.c\n"
		"--- a/x/y.c\n+++ b/x/y.c\n@@ -1 +1 @@\n-a\n+rust\n";
	char *files[] = { "x/y.c", "drivers/net/foo.c", "a.yaml", "" };
	struct cc_opts o = CC_OPTS_INIT;
	struct patch_files pf = { 0 };
	struct kwtext kw = KWTEXT_INIT;

	o.roles = size & 1;
	scan_patch(patch, sizeof patch - 1, &pf, &kw);
	struct cc_query q[3] = { { .file = files, .nfile = 4 },
				 { .file = pf.file, .nfile = pf.nr, .kw = &kw,
				   .fixes = pf.fixes, .nfixes = pf.nfixes },
				 { .file = files, .nfile = 2 } };
	maintainers_query(m, &o, q, 1, out, &err);
	/* people first, then lists; each address once */
	for (size_t i = 0; i < out[0].n; i++)
		for (size_t j = i + 1; j < out[0].n; j++)
			if (!strcmp(out[0].v[i].addr, out[0].v[j].addr))
				abort();
	if (out[0].people > out[0].n)
		abort();
	recipients_release(&out[0]);
	mailmap_parse(m, (const char *)data, size);
	maintainers_query(m, &o, q, 3, out, &err);
	patch_files_release(&pf);
	kwtext_release(&kw);
	maintainers_free(m);
	sb_release(&err);
	for (int i = 0; i < 3; i++)
		recipients_release(&out[i]);
	return 0;
}
