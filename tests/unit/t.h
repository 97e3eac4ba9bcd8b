/* SPDX-License-Identifier: MIT */
/*
 * A one-page unit test harness (libperf's tests.h shape). T(cond) checks
 * and reports; T_END returns the status, so main() ends with it.
 */
#ifndef PD_T_H
#define PD_T_H

#include <stdio.h>

static int t_failed, t_run;

#define T(cond) do {							\
	t_run++;							\
	if (!(cond)) {							\
		t_failed++;						\
		fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__,	\
		    #cond);						\
	}								\
} while (0)

#define T_END() (printf("%d checks, %d failed\n", t_run, t_failed),	\
	t_failed ? 1 : 0)

#endif /* PD_T_H */
