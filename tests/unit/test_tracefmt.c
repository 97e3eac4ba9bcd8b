/* SPDX-License-Identifier: MIT */
/* The tracing data parser on a hand-made blob, both byte orders. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/tracefmt.h"
#include "tests/unit/t.h"
#include "tests/unit/tfblob.h"

static const char fmt[] =
    "name: ev\n"
    "ID: 5\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int val;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long addr;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:u8 arr[4];\toffset:40;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"comm=%s\", REC->comm\n";

static struct tf_blob tb;

static void
check(int be)
{
	struct pd_tracefmt *tf = pd_tracefmt_new();
	const struct pd_tf_event *e;
	const struct pd_tf_field *f;
	const unsigned char *p;
	unsigned char raw[64];
	const char *why = NULL;
	size_t n;

	tf_blob_build(&tb, fmt, be);
	T(pd_tracefmt_add(tf, tb.b, 7, &why) == 0);	/* in two chunks */
	T(pd_tracefmt_add(tf, tb.b + 7, tb.len - 7, &why) == 0);
	T(pd_tracefmt_finish(tf, &why) == 0);
	T(pd_tracefmt_big_endian(tf) == be);
	T(pd_tracefmt_long_size(tf) == 8);
	T(pd_tracefmt_page_size(tf) == 4096);
	T(strcmp(pd_tracefmt_version(tf), "0.6") == 0);
	T(pd_tracefmt_printk(tf).len == 3);
	T(pd_tracefmt_cmdlines(tf).len == 6);
	T(pd_tracefmt_nevents(tf) == 1);
	T(pd_tracefmt_event(tf, 6) == NULL);
	e = pd_tracefmt_event(tf, 5);
	T(e != NULL);
	if (e == NULL)
		goto out;
	T(strcmp(e->system, "sys") == 0 && strcmp(e->name, "ev") == 0);
	T(e->nfields == 7);
	T(strcmp(e->print_fmt, "\"comm=%s\", REC->comm") == 0);
	f = e->fields;
	T(strcmp(f[0].name, "common_type") == 0 && f[0].is_common &&
	    f[0].kind == PD_TF_NUM && f[0].size == 2 && !f[0].is_signed);
	T(strcmp(f[1].type, "int") == 0 && f[1].is_signed && f[1].is_common);
	T(strcmp(f[2].name, "comm") == 0 && f[2].kind == PD_TF_STRING &&
	    f[2].nelem == 16 && !f[2].is_common);
	T(strcmp(f[3].name, "name") == 0 && f[3].kind == PD_TF_DATA_LOC &&
	    f[3].is_char);
	T(f[4].kind == PD_TF_NUM && f[4].is_signed && f[4].offset == 28);
	T(f[5].kind == PD_TF_NUM && f[5].is_pointer && f[5].size == 8);
	T(strcmp(f[6].name, "arr") == 0 && f[6].kind == PD_TF_ARRAY &&
	    f[6].nelem == 4 && f[6].elem_size == 1);

	/* RAW data: name "xyz" at 44, val -2, written in the blob's order */
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw, 5, 2, be);
	tf_put_at(raw + 24, 44 | 4 << 16, 4, be);
	tf_put_at(raw + 28, (uint32_t)-2, 4, be);
	memcpy(raw + 44, "xyz", 4);
	T(pd_tf_get(raw + 28, 4, be, 1) == (uint64_t)-2);
	T(pd_tf_get(raw + 28, 4, be, 0) == 0xfffffffeU);
	T(pd_tf_field_bytes(&f[3], be, raw, 48, &p, &n) == 0 && n == 4 &&
	    p == raw + 44);
	T(pd_tf_field_bytes(&f[3], be, raw, 47, &p, &n) == -1);
	T(pd_tf_field_bytes(&f[2], be, raw, 48, &p, &n) == 0 && n == 16 &&
	    p == raw + 8);
out:
	pd_tracefmt_free(tf);
}

/*
 * pd_tracefmt_build: one blob from two. Alone, a blob comes back as it
 * was (up to its pad); with a second blob's events (one of them the
 * first's again), the result parses to every event once, in its
 * system, with the first blob's other parts.
 */
static void
check_build(int be)
{
	static const char fmt6[] = "name: ev6\nID: 6\nformat:\n"
	    "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"v=%d\", REC->v\n";
	struct pd_tracefmt *a = pd_tracefmt_new(), *all = pd_tracefmt_new();
	struct pd_tracefmt *back = pd_tracefmt_new();
	struct tf_blob b6;
	unsigned char out[8192];
	const struct pd_tf_event *e;
	const char *why = NULL;
	size_t n, pad;

	tf_blob_build(&tb, fmt, be);
	tf_blob_build(&b6, fmt6, be);
	T(pd_tracefmt_add(a, tb.b, tb.len, &why) == 0 &&
	    pd_tracefmt_finish(a, &why) == 0);
	n = pd_tracefmt_build(a, a, out, sizeof(out));
	pad = (8 - (tb.len - 3) % 8) % 8;
	T(n == tb.len - 3 + pad && n % 8 == 0);
	T(memcmp(out, tb.b, tb.len - 3) == 0);
	T(pd_tracefmt_add(all, tb.b, tb.len, &why) == 0 &&
	    pd_tracefmt_finish(all, &why) == 0);
	T(pd_tracefmt_add(all, b6.b, b6.len, &why) == 0 &&
	    pd_tracefmt_finish(all, &why) == 0);
	T(pd_tracefmt_add(all, tb.b, tb.len, &why) == 0 &&
	    pd_tracefmt_finish(all, &why) == 0);
	n = pd_tracefmt_build(a, all, NULL, 0);
	T(n > 0 && n % 8 == 0 && n <= sizeof(out));
	T(pd_tracefmt_build(a, all, out, sizeof(out)) == n);
	T(pd_tracefmt_add(back, out, n, &why) == 0 &&
	    pd_tracefmt_finish(back, &why) == 0);
	T(pd_tracefmt_nevents(back) == 2);
	T(pd_tracefmt_big_endian(back) == be);
	T(pd_tracefmt_printk(back).len == 3 && pd_tracefmt_cmdlines(back).len
	    == 6);
	e = pd_tracefmt_event(back, 6);
	T(e != NULL && strcmp(e->system, "sys") == 0 && e->nfields == 1 &&
	    e->format_len == strlen(fmt6));
	e = pd_tracefmt_event(back, 5);
	T(e != NULL && e->nfields == 7 && e->format_len == strlen(fmt) &&
	    memcmp(e->format, fmt, strlen(fmt)) == 0);
	pd_tracefmt_free(a);
	pd_tracefmt_free(all);
	pd_tracefmt_free(back);
}

int
main(void)
{
	struct pd_tracefmt *tf;
	const char *why = NULL;

	check(0);
	check(1);
	check_build(0);
	check_build(1);

	/* Malformed: bad magic; a blob cut after the event formats. */
	tf = pd_tracefmt_new();
	T(pd_tracefmt_add(tf, "nottracing!", 11, &why) == 0);
	T(pd_tracefmt_finish(tf, &why) == -1 && why != NULL);
	pd_tracefmt_free(tf);
	tf_blob_build(&tb, fmt, 0);
	tf = pd_tracefmt_new();
	T(pd_tracefmt_add(tf, tb.b, tb.len - 20, &why) == 0);
	why = NULL;
	T(pd_tracefmt_finish(tf, &why) == -1 && why != NULL);
	T(pd_tracefmt_nevents(tf) == 1);	/* parsed before the fault */
	pd_tracefmt_free(tf);
	return T_END();
}
