/* testutil.h: helpers shared by the Check unit tests. */
#ifndef BUFDIFF_TESTUTIL_H
#define BUFDIFF_TESTUTIL_H
#include <check.h>

#include "ir.h"

/* Parse TIR text given inline (SrcMap line0 = 1, col0 = 0: text line 1 is
 * "file" line 1).  Returns NULL and fills d on error. */
Program *tu_parse(const char *text, Diag *d);
/* Run every suite in `suites` (NULL-terminated); exit code for main. */
int tu_run(Suite **suites);
#endif
