/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the tracing-data parser. The input is a blob as it
 * follows HEADER_TRACING_DATA; every event it yields has its fields
 * looked up in a RAW buffer made of the input's own bytes, and its text
 * made from a copy of them with its id as their common_type
 * (pd_tptext: libtraceevent parses the formats and applies them, so its
 * faults are found here too).
 *
 * pd_tptext parses the formats in a child first and leaves out those
 * the library dies on. That child would inherit libFuzzer's and the
 * sanitizers' handlers, and its death would leave a crash-* input
 * though the target lives on: a fork handler puts the child's
 * dispositions back to the default and drops the sanitizers' death
 * callback (libFuzzer's), so the child only dies.
 */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/tptext.h"
#include "libcommon/stream/tracefmt.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Only in a sanitizer's runtime: a replay without one has none. */
extern void __sanitizer_set_death_callback(void (*)(void))
    __attribute__((weak));

static void
child_dies_quietly(void)
{
	static const int deadly[] = {
		SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
	};
	size_t i;

	for (i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		(void)signal(deadly[i], SIG_DFL);
	if (__sanitizer_set_death_callback != NULL)
		__sanitizer_set_death_callback(NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int forks_quiet;
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *tt = pd_tptext_new();
	const unsigned char *p;
	const struct pd_tf_field *ct;
	unsigned char *raw = malloc(size + 1);
	const char *s;
	const char *why;
	size_t i, j, k, n;
	uint64_t sum = 0;
	int be;

	if (!forks_quiet) {
		(void)pthread_atfork(NULL, NULL, child_dies_quietly);
		forks_quiet = 1;
	}
	if (tf == NULL || tt == NULL || raw == NULL)
		goto out;
	/* In two pieces, as the reader hands payloads out in chunks. */
	if (pd_tracefmt_add(tf, data, size / 2, &why) == 0 &&
	    pd_tracefmt_add(tf, data + size / 2, size - size / 2, &why) == 0)
		pd_tracefmt_finish(tf, &why);
	be = pd_tracefmt_big_endian(tf);
	for (i = 0; i < pd_tracefmt_nevents(tf); i++) {
		const struct pd_tf_event *ev = pd_tracefmt_event_at(tf, i);

		if (pd_tracefmt_event(tf, ev->id) == NULL)
			__builtin_trap();
		for (k = 0; k < ev->nfields; k++) {
			const struct pd_tf_field *f = &ev->fields[k];

			if (pd_tf_field_bytes(f, be, data, size, &p, &n) ==
			    0 && n > 0) {
				sum += p[n - 1];
				if (f->elem_size == 1 || f->elem_size == 2 ||
				    f->elem_size == 4 || f->elem_size == 8)
					if (n >= f->elem_size)
						sum += pd_tf_get(p,
						    f->elem_size, be,
						    f->is_signed);
			}
		}
		memcpy(raw, data, size);
		if ((ct = pd_tf_event_field(ev, "common_type")) != NULL &&
		    ct->size <= 8 && (size_t)ct->offset + ct->size <= size)
			for (j = 0; j < ct->size; j++)
				raw[ct->offset + j] = (unsigned char)
				    ((uint64_t)ev->id >>
				    8 * (be ? ct->size - 1 - j : j));
		if ((s = pd_tptext_render(tt, tf, ev, raw, size, &n)) !=
		    NULL && n > 0)
			sum += (unsigned char)s[n - 1];
	}
	(void)sum;
out:
	free(raw);
	pd_tptext_free(tt);
	pd_tracefmt_free(tf);
	return 0;
}
