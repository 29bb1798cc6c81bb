/* unit-more.c - the list of unit tests that live outside unit.c. */
#include "series.h"
#include "unit.h"

void unit_more(void)
{
}
