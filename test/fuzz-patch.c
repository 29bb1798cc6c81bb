/* fuzz-patch.c - libFuzzer harness: the patch scanner, with keywords, and
 * a query of what it found against a small MAINTAINERS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char mt[] = "S\nM: A <a@b.org>\nK: (?:\\b|_)bpf(?:\\b|_)\n"
		"K: \\b(?i:rust)\\b\nF: */\n";
	static struct maintainers *m;
	struct sbuf err = SBUF_INIT;
	struct recipients out = RECIPIENTS_INIT;
	struct patch_files pf = { 0 };
	struct kwtext kw = KWTEXT_INIT;
	struct cc_opts o = CC_OPTS_INIT;

	if (!m)
		m = maintainers_parse(mt, sizeof mt - 1, ".");
	scan_patch((const char *)data, size, &pf, &kw);
	for (size_t i = 0; i < kw.nline; i++)
		if (kw.line[i].off + kw.line[i].len > kw.text.len ||
		    kw.line[i].skip > kw.line[i].len)
			abort();
	struct cc_query q = { .file = pf.file, .nfile = pf.nr, .kw = &kw,
			      .fixes = pf.fixes, .nfixes = pf.nfixes };
	if (maintainers_query(m, &o, &q, 1, &out, &err) < 0)
		abort();        /* the patterns above all compile */
	patch_files_release(&pf);
	kwtext_release(&kw);
	sb_release(&err);
	recipients_release(&out);
	return 0;
}
