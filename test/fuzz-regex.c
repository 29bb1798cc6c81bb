/* fuzz-regex.c - libFuzzer harness: the regex engine.  Input: flags byte,
 * pattern, NUL, subject. */
#include <stdint.h>
#include <string.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf err = SBUF_INIT;

	if (!size)
		return 0;
	const char *p = (const char *)data + 1;
	size_t n = size - 1;
	const char *nul = memchr(p, '\0', n);
	size_t plen = nul ? (size_t)(nul - p) : n;
	const char *s = nul ? nul + 1 : "";
	size_t slen = nul ? n - plen - 1 : 0;
	struct regex *re = re_compile(p, plen, data[0] & 1, &err);
	if (re) {
		re_search(re, s, slen, 0);
		if (slen)
			re_search(re, s, slen, 1);
		re_free(re);
	}
	sb_release(&err);
	return 0;
}
