/* SPDX-License-Identifier: MIT */
/*
 * pdstat --build-ids: each build id of an input with its path, as perf
 * buildid-list prints them, from its BUILD_ID records and the build ids
 * of its MMAP2 records, each pair once.
 */
#ifndef PDSTAT_BUILDIDS_H
#define PDSTAT_BUILDIDS_H

#include <stdio.h>

/* Prints them to out; 0, or -1 when the input is bad (said). */
int	buildids_run(const char *path, FILE *out);

#endif /* PDSTAT_BUILDIDS_H */
