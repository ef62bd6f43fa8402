/* main.c: placeholder until the CLI lands. */
#include <stdio.h>

#include "oracle.h"

int
main(void)
{
	printf("bufdiff %s\n", bufdiff_version);
	return 0;
}
