/* SPDX-License-Identifier: MIT */
/*
 * A pointer field printed with %s shows the printk_formats string at
 * its address, as perf script shows it: each string without its quotes
 * and last "\n", whatever its length, and a section's lines without a
 * string (no ':', or nothing after it, last or not) skipped. The
 * library's own parser read out of bounds on those (ASan saw it).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/tptext.h"
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
    "\tfield:unsigned long msg;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"msg=%s\", REC->msg\n";

static struct tf_blob tb;

/*
 * The text of ev for msg = addr, with printk_formats pk[0..len); ""
 * if none.
 */
static const char *
textn(const char *pk, size_t len, uint64_t addr)
{
	static char out[256];
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	const char *why = NULL, *s;
	size_t n;

	out[0] = '\0';
	tf_blob_build_pk(&tb, fmt, 0, pk, len);
	if (tf == NULL || t == NULL ||
	    pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw, 5, 2, 0);
	tf_put_at(raw + 8, addr, 8, 0);
	s = pd_tptext_render(t, tf, pd_tracefmt_event(tf, 5), raw,
	    sizeof(raw), &n);
	if (s != NULL && n < sizeof(out)) {
		memcpy(out, s, n);
		out[n] = '\0';
	}
out:
	pd_tptext_free(t);
	pd_tracefmt_free(tf);
	return out;
}

#define text(pk, addr)	textn((pk), sizeof(pk) - 1, (addr))

int
main(void)
{
	static const char pk[] =
	    "0x100 : \"hello %d\\n\"\n"
	    "0x200 : \"x\"\n"
	    "0x300 : \"\"\n"
	    "0x400 : \"ab\\n\"\n"
	    "\n"
	    "0x500 : \"\\n\"\n"
	    "0x600 : q\n"
	    "0x700 :\n"
	    "nothing here\n"
	    "0x800 : \"\\n\\n\"\n"
	    "0x900 : \"last\"";

	T(strcmp(text(pk, 0x100), "msg=hello %d") == 0);
	T(strcmp(text(pk, 0x200), "msg=x") == 0);
	T(strcmp(text(pk, 0x300), "msg=") == 0);
	T(strcmp(text(pk, 0x400), "msg=ab") == 0);
	T(strcmp(text(pk, 0x500), "msg=") == 0);
	T(strcmp(text(pk, 0x600), "msg=q") == 0);
	T(strcmp(text(pk, 0x700), "msg=700") == 0);
	T(strcmp(text(pk, 0x800), "msg=\\n") == 0);
	T(strcmp(text(pk, 0x900), "msg=last") == 0);
	T(strcmp(text(pk, 0xa00), "msg=a00") == 0);
	T(strcmp(textn(pk, 0, 0x100), "msg=100") == 0);
	/* A last line with no ':', or none but its last byte. */
	T(strcmp(text("0x100 : \"a\"\n0x200", 0x100), "msg=a") == 0);
	T(strcmp(text("0x100 : \"a\"\n0x200 :", 0x200), "msg=200") == 0);
	T(strcmp(text("0x100 : \"a\"\n0x200 : ", 0x200), "msg=") == 0);
	T(strcmp(text("0x100 : \"", 0x100), "msg=") == 0);
	T(strcmp(text("0x100 : \"\"\"", 0x100), "msg=\"") == 0);
	/* The section ends at a NUL, as the library's copy of it did. */
	T(strcmp(text("0x100 : \"a\"\n\0000x200 : \"b\"", 0x200),
	    "msg=200") == 0);
	return T_END();
}
