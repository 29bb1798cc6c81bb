/* fuzz-mbox.c - libFuzzer harness: the mbox parser of series trailers.
 * Every message it keeps must hold well-formed strings, and a trailer
 * line is never a quoted one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbox mb = { 0 };
	int n = mbox_parse((const char *)data, size, &mb);

	if (n < 0 || (size_t)n != mb.n)
		abort();
	for (size_t i = 0; i < mb.n; i++) {
		const struct mbox_msg *m = &mb.m[i];
		for (size_t k = 0; k < m->ntrailer; k++)
			if (!m->trailer[k] || m->trailer[k][0] == '>' ||
			    strlen(m->trailer[k]) > 2 * size)   /* ISO-8859-1 doubles */
				abort();
		for (size_t k = 0; k < m->nrefs; k++)
			if (m->refs[k][0] != '<')
				abort();
		if (m->id && m->id[0] != '<')
			abort();
	}
	mbox_release(&mb);
	return 0;
}
