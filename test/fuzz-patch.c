/* fuzz-patch.c - libFuzzer harness: the patch scanner, with keywords. */
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
	struct patch_files pf = { 0 };
	size_t *kw = NULL, nkw = 0, akw = 0;

	if (!m)
		m = maintainers_parse(mt, sizeof mt - 1, ".", &err);
	scan_patch(m, (const char *)data, size, &pf, &kw, &nkw, &akw);
	for (size_t i = 0; i < nkw; i++)
		if (kw[i] > 10)
			abort();
	patch_files_release(&pf);
	free(kw);
	sb_release(&err);
	return 0;
}
