/* SPDX-License-Identifier: MIT */
/*
 * Tracing data between byte orders: the blob's flag and numbers, and
 * tracepoint RAW fields by the sizes its formats declare.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/swap.h"
#include "libcommon/stream/tracefmt.h"
#include "tests/unit/t.h"
#include "tests/unit/tfblob.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE	1
#else
#define HOST_BE	0
#endif

static const char fmt[] =
    "name: ev\n"
    "ID: 5\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc u32[] ids;\toffset:24;\tsize:4;\tsigned:0;\n"
    "\tfield:int val;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long addr;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned short arr[3];\toffset:40;\tsize:6;\tsigned:0;\n"
    "\tfield:__rel_loc char[] s;\toffset:48;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"comm=%s\", REC->comm\n";

static unsigned char rec[256], copy[256], back[256];
static struct tf_blob tb;

static uint64_t
get(const unsigned char *p, unsigned size, int be)
{
	return pd_tf_get(p, size, be, 0);
}

/* A tracepoint SAMPLE (RAW only) of event `id`, native; its size. */
static size_t
sample(unsigned id)
{
	unsigned char *r = rec + 12;
	int h = HOST_BE;

	memset(rec, 0, sizeof(rec));
	tf_put_at(rec, PERF_RECORD_SAMPLE, 4, h);
	tf_put_at(rec + 6, 80, 2, h);
	tf_put_at(rec + 8, 68, 4, h);
	tf_put_at(r, id, 2, h);
	r[2] = 1;
	tf_put_at(r + 4, 1234, 4, h);
	memcpy(r + 8, "hello", 6);
	tf_put_at(r + 24, 8 << 16 | 52, 4, h);
	tf_put_at(r + 28, (uint32_t)-7, 4, h);
	tf_put_at(r + 32, 0x1122334455667788ULL, 8, h);
	tf_put_at(r + 40, 1, 2, h);
	tf_put_at(r + 42, 2, 2, h);
	tf_put_at(r + 44, 3, 2, h);
	tf_put_at(r + 48, 4 << 16 | 8, 4, h);	/* from 52: at 60 */
	tf_put_at(r + 52, 0x01020304, 4, h);
	tf_put_at(r + 56, 0x05060708, 4, h);
	memcpy(r + 60, "abc", 4);
	return 80;
}

int
main(void)
{
	unsigned char native[4096], foreign[4096], attr[128];
	struct pd_tracefmt *tf;
	struct pd_evlist el;
	const unsigned char *r = rec + 12;
	const char *why;
	uint64_t id = 42;
	size_t nlen, n;
	int f = !HOST_BE;

	/* the blob: flag and numbers, texts as they are; and back */
	tf_blob_build(&tb, fmt, f);
	memcpy(foreign, tb.b, tb.len);
	tf_blob_build(&tb, fmt, HOST_BE);
	memcpy(native, tb.b, tb.len);
	nlen = tb.len;
	T(pd_swap_tracing(tb.b, nlen, 0, &why) == 1);
	T(memcmp(tb.b, foreign, nlen) == 0);
	T(pd_swap_tracing(tb.b, nlen, 1, &why) == 1);
	T(memcmp(tb.b, native, nlen) == 0);
	/* a flag that says the other order: left, it says its own */
	T(pd_swap_tracing(tb.b, nlen, 1, &why) == 0);
	T(memcmp(tb.b, native, nlen) == 0);
	/* counts past the end are an error */
	T(pd_swap_tracing(tb.b, nlen - 40, 0, &why) == -1 && why != NULL);

	tf = pd_tracefmt_new();
	T(tf != NULL);
	T(pd_tracefmt_add(tf, native, nlen, &why) == 0);
	T(pd_tracefmt_finish(tf, &why) == 0);

	memset(attr, 0, sizeof(attr));
	tf_put_at(attr, 2, 4, HOST_BE);			/* tracepoint */
	tf_put_at(attr + 4, 128, 4, HOST_BE);
	tf_put_at(attr + 8, 5, 8, HOST_BE);		/* config */
	tf_put_at(attr + 24, PERF_SAMPLE_RAW, 8, HOST_BE);
	pd_evlist_init(&el);
	T(pd_evlist_add(&el, attr, sizeof(attr), &id, 1, &why) == 0);

	/* without formats: left, and counted; the default name */
	T(pd_evlist_tracefmt(&el) == NULL);
	T(strcmp(pd_evsel_name(&el.evsels[0]), "tracepoint:5") == 0);
	n = sample(5);
	memcpy(copy, rec, n);
	T(pd_swap_rec_out(&el, rec, &why) == 1);
	T(why != NULL && strstr(why, "RAW") != NULL);
	T(memcmp(r, copy + 12, 68) == 0);

	/* with them: every field at its own width */
	T(pd_evlist_set_tracefmt(&el, tf, 0, 1) == 0);
	T(pd_evlist_tracefmt(&el) == tf);
	/* and they name the tracepoint */
	T(strcmp(pd_evsel_name(&el.evsels[0]), "sys:ev") == 0);
	n = sample(5);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(get(rec + 8, 4, f) == 68);
	T(get(r, 2, f) == 5 && r[2] == 1);
	T(get(r + 4, 4, f) == 1234);
	T(memcmp(r + 8, "hello", 6) == 0);
	T(get(r + 24, 4, f) == (8 << 16 | 52));
	T(get(r + 28, 4, f) == (uint32_t)-7);
	T(get(r + 32, 8, f) == 0x1122334455667788ULL);
	T(get(r + 40, 2, f) == 1 && get(r + 42, 2, f) == 2 &&
	    get(r + 44, 2, f) == 3);
	T(get(r + 48, 4, f) == (4 << 16 | 8));
	T(get(r + 52, 4, f) == 0x01020304 && get(r + 56, 4, f) == 0x05060708);
	T(memcmp(r + 60, "abc", 4) == 0);
	/*
	 * and back: only once a foreign blob said the RAW data's order
	 * (formats for the way out do not convert on the way in)
	 */
	pd_swap_header(rec);
	memcpy(back, rec, n);
	T(pd_swap_rec(&el, rec, &why) == 1);
	T(memcmp(rec + 12, back + 12, 68) == 0);
	memcpy(rec, back, n);
	T(pd_evlist_set_tracefmt(&el, tf, 1, 0) == 0);
	T(pd_swap_rec(&el, rec, &why) == 0);
	T(memcmp(rec, copy, n) == 0);

	/* common_type names the format even when config does not */
	tf_put_at(attr + 8, 77, 8, HOST_BE);
	pd_evlist_free(&el);
	pd_evlist_init(&el);
	T(pd_evlist_add(&el, attr, sizeof(attr), &id, 1, &why) == 0);
	T(pd_evlist_set_tracefmt(&el, tf, 0, 1) == 0);
	n = sample(5);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(get(r + 52, 4, f) == 0x01020304);

	/* an unknown format: left, and counted */
	n = sample(99);
	memcpy(copy, rec, n);
	T(pd_swap_rec_out(&el, rec, &why) == 1);
	T(memcmp(r, copy + 12, 68) == 0);

	pd_evlist_free(&el);
	pd_tracefmt_free(tf);
	return T_END();
}
