/* SPDX-License-Identifier: MIT */
/*
 * A pointer field printed with %s shows the printk_formats string at
 * its address, as perf script shows it: each string without its quotes
 * and last "\n", whatever its length, and a section's lines without a
 * string (no ':', or nothing after it, last or not) skipped. The
 * library's own parser read out of bounds on those (ASan saw it).
 *
 * A format that kills libtraceevent's parser (a __print_flags of a
 * field the event does not have) leaves its event without text, and
 * the process and the other events' text alive.
 *
 * The library picks the format by the RAW data's common_type, not by
 * the sample's event: RAW data that says another event (whose fields
 * were not checked against it) has no text.
 *
 * It divides by what the data says: an event whose format divides by
 * other than a constant (0 is SIGFPE) has no text; by a constant, it
 * has.
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

/*
 * Events 5 (its __print_flags names a field it lacks), 6 (fine) and 7
 * (a second deadly one) in one tracing data: 6 has its text, and the
 * others none. 0 when so.
 */
static int
deadly(void)
{
	static const char bad[] =
	    "name: bad\nID: %u\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"%%s\", __print_flags(REC->nosuch, \"|\", { 1, \"A\" })\n";
	static const char good[] =
	    "name: good\nID: 6\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"%%s\", __print_flags(REC->state, \"|\", { 1, \"A\" }, { 2, \"B\" })\n";
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	char fmt5[512], fmt7[512], fmt6[512];
	const char *why = NULL, *s;
	unsigned id;
	size_t n;
	int r = -1;

	snprintf(fmt5, sizeof(fmt5), bad, 5);
	snprintf(fmt6, sizeof(fmt6), good);
	snprintf(fmt7, sizeof(fmt7), bad, 7);
	if (tf == NULL || t == NULL)
		goto out;
	tf_blob_build(&tb, fmt5, 0);
	if (pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	tf_blob_build(&tb, fmt6, 0);
	if (pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	tf_blob_build(&tb, fmt7, 0);
	if (pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, 3, 8, 0);
	for (id = 5; id <= 7; id++) {
		tf_put_at(raw, id, 2, 0);
		s = pd_tptext_render(t, tf, pd_tracefmt_event(tf, id), raw,
		    sizeof(raw), &n);
		if (id == 6 ? s == NULL || n != 3 || memcmp(s, "A|B", 3) != 0 :
		    s != NULL)
			goto out;
	}
	r = 0;
out:
	pd_tptext_free(t);
	pd_tracefmt_free(tf);
	return r;
}

/*
 * Events 5 (8 bytes) and 6 (a field at offset 200): RAW data of 16
 * bytes for event 5 whose common_type says 6 has no text; saying 5, it
 * has event 5's. 0 when so.
 */
static int
other_type(void)
{
	static const char f5[] =
	    "name: small\nID: 5\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:unsigned long v;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"v=%lx\", REC->v\n";
	static const char f6[] =
	    "name: big\nID: 6\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:unsigned long far;\toffset:200;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"far=%lx\", REC->far\n";
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	const char *why = NULL, *s;
	size_t n;
	int r = -1;

	if (tf == NULL || t == NULL)
		goto out;
	tf_blob_build(&tb, f5, 0);
	if (pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	tf_blob_build(&tb, f6, 0);
	if (pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, 0xab, 8, 0);
	tf_put_at(raw, 6, 2, 0);
	if (pd_tptext_render(t, tf, pd_tracefmt_event(tf, 5), raw,
	    sizeof(raw), &n) != NULL)
		goto out;
	tf_put_at(raw, 5, 2, 0);
	s = pd_tptext_render(t, tf, pd_tracefmt_event(tf, 5), raw,
	    sizeof(raw), &n);
	if (s == NULL || n != 4 || memcmp(s, "v=ab", 4) != 0)
		goto out;
	r = 0;
out:
	pd_tptext_free(t);
	pd_tracefmt_free(tf);
	return r;
}

/* The text of v=%d with v = expr, a = 100 and b = b; "" if none. */
static const char *
divided(const char *expr, uint64_t b)
{
	static char dfmt[512], out[64];
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[24];
	const char *why = NULL, *s;
	size_t n;

	out[0] = '\0';
	snprintf(dfmt, sizeof(dfmt), "name: div\nID: 5\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
	    "\tfield:u64 b;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"v=%%d\", %s\n", expr);
	tf_blob_build(&tb, dfmt, 0);
	if (tf == NULL || t == NULL ||
	    pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw, 5, 2, 0);
	tf_put_at(raw + 8, 100, 8, 0);
	tf_put_at(raw + 16, b, 8, 0);
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
	T(deadly() == 0);
	T(other_type() == 0);
	T(strcmp(divided("REC->a / REC->b", 0), "") == 0);
	T(strcmp(divided("REC->a % (int)REC->b", 7), "") == 0);
	T(strcmp(divided("REC->a / 0", 7), "") == 0);
	T(strcmp(divided("__print_symbolic(REC->a / (REC->b - 7), { 1, \"x\" })",
	    7), "") == 0);
	T(strcmp(divided("REC->a / 4", 0), "v=25") == 0);
	T(strcmp(divided("REC->a % (u8)16", 0), "v=4") == 0);
	return T_END();
}
