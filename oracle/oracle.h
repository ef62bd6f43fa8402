/*
 * oracle.h: the oracle/ component, table of contents in data-flow order.
 *   (filled in by the case loader, harness, reports and CLI)
 */
#ifndef BUFDIFF_ORACLE_H
#define BUFDIFF_ORACLE_H

#include "ir.h"

extern const char bufdiff_version[];

#endif
