/* fuzz-main.c - runs a fuzz harness over files named on the command line,
 * without libFuzzer: how the suite replays the corpus and every crasher. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct sbuf sb = SBUF_INIT;
		if (sb_read_file(&sb, argv[i]) < 0) {
			perror(argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
		sb_release(&sb);
	}
	printf("%d inputs\n", argc - 1);
	return 0;
}
