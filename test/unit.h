/* unit.h - the check macros of the unit tests; unit.c holds main(). */
#ifndef UNIT_H
#define UNIT_H
#include <stdio.h>
#include <string.h>

extern int unit_pass, unit_fail;

#define CHECK(cond) do { \
	if (cond) unit_pass++; \
	else { unit_fail++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (g_ && !strcmp(g_, w_)) unit_pass++; \
	else { unit_fail++; printf("FAIL %s:%d: got [%s] want [%s]\n", \
		__FILE__, __LINE__, g_ ? g_ : "(null)", w_); } \
} while (0)

/* The tests of the other unit-*.c files, called by main(). */
void unit_more(void);
void unit_versions(void);
int unit_matrix(const char *pfile, const char *sfile);
#endif
