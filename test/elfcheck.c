/*
 * elfcheck.c - reads an ELF file's program headers and dynamic section and
 * says whether it needs anything at run time: prints "interp" for a
 * PT_INTERP, "needed N" for each DT_NEEDED, then "static" or "dynamic".
 * Any class (32/64) and byte order; no alignment assumed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *img;
static size_t size;
static int big, wide;

static uint64_t get(size_t off, int n)
{
	uint64_t v = 0;

	if (off + (size_t)n > size) {
		fprintf(stderr, "elfcheck: truncated file\n");
		exit(2);
	}
	for (int i = 0; i < n; i++)
		v |= (uint64_t)img[off + (size_t)(big ? n - 1 - i : i)] << (8 * i);
	return v;
}

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	int dynamic = 0;

	if (!f) {
		fprintf(stderr, "usage: elfcheck FILE\n");
		return 2;
	}
	img = malloc(64 << 20);
	size = fread(img, 1, 64 << 20, f);
	fclose(f);
	if (size < 52 || memcmp(img, "\177ELF", 4)) {
		fprintf(stderr, "elfcheck: not an ELF file\n");
		return 2;
	}
	wide = img[4] == 2;
	big = img[5] == 2;
	size_t phoff = get(wide ? 32 : 28, wide ? 8 : 4);
	size_t phentsize = get(wide ? 54 : 42, 2), phnum = get(wide ? 56 : 44, 2);
	for (size_t i = 0; i < phnum; i++) {
		size_t ph = phoff + i * phentsize;
		uint32_t type = (uint32_t)get(ph, 4);
		if (type == 3) {
			printf("interp\n");
			dynamic = 1;
		}
		if (type != 2)
			continue;
		size_t off = get(ph + (wide ? 8 : 4), wide ? 8 : 4);
		size_t fsz = get(ph + (wide ? 32 : 16), wide ? 8 : 4);
		size_t ent = wide ? 16 : 8;
		for (size_t d = off; d + ent <= off + fsz; d += ent) {
			uint64_t tag = get(d, wide ? 8 : 4);
			if (tag == 0)
				break;
			if (tag == 1) {
				printf("needed %llu\n",
				       (unsigned long long)get(d + ent / 2, wide ? 8 : 4));
				dynamic = 1;
			}
		}
	}
	printf("%s\n", dynamic ? "dynamic" : "static");
	free(img);
	return 0;
}
