/* testutil.c: helpers shared by the Check unit tests. */
#include <stdlib.h>

#include "testutil.h"

Program *
tu_parse(const char *text, Diag *d)
{
	SrcMap map = {1, 0};

	return tir_parse(text, strlen(text), map, d);
}

int
tu_run(Suite **suites)
{
	SRunner *sr = srunner_create(suites[0]);
	int failed;

	for (int i = 1; suites[i]; i++)
		srunner_add_suite(sr, suites[i]);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
