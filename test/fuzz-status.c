/* fuzz-status.c - libFuzzer harness: the porcelain v2 -z parser. */
#include <stdint.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct status st = STATUS_INIT;
	struct plan p = PLAN_INIT;
	struct source src = SOURCE_INIT;
	struct selection sel = { .by = BY_DIR, .depth = 2 };

	if (parse_status(&st, (const char *)data, size) == 0) {
		source_from_status(&src, &st);
		make_plan(&p, &src, &sel);
		plan_release(&p);
		source_release(&src);
	}
	status_release(&st);
	return 0;
}
