/* version.c: the version string printed by `bufdiff --version`. */
#include "cli.h"

const char bufdiff_version[] = "0.1.0";
