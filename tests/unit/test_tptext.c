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

/* Every format's common fields; its own start at offset 8. */
#define COMMON								\
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static struct tf_blob tb;

/* A tracing data blob of one format, with printk_formats pk, added. */
static int
add(struct pd_tracefmt *tf, const char *fmt, const char *pk, size_t pklen)
{
	const char *why = NULL;

	tf_blob_build_pk(&tb, fmt, 0, pk, pklen);
	return pd_tracefmt_add(tf, tb.b, tb.len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0 ? -1 : 0;
}

/* Event id's text for raw[0..len) with id as its type; "" if none. */
static const char *
render(struct pd_tptext *t, const struct pd_tracefmt *tf, unsigned id,
    unsigned char *raw, size_t len)
{
	static char out[256];
	const char *s;
	size_t n;

	out[0] = '\0';
	tf_put_at(raw, id, 2, 0);
	s = pd_tptext_render(t, tf, pd_tracefmt_event(tf, id), raw, len, &n);
	if (s != NULL && n < sizeof(out)) {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	return out;
}

/* The text of a %s of msg = addr, with printk_formats pk[0..len). */
static const char *
textn(const char *pk, size_t len, uint64_t addr)
{
	static const char fmt[] = "name: ev\nID: 5\nformat:\n" COMMON
	    "\tfield:unsigned long msg;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"msg=%s\", REC->msg\n";
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	const char *s = "";

	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, addr, 8, 0);
	if (tf != NULL && t != NULL && add(tf, fmt, pk, len) == 0)
		s = render(t, tf, 5, raw, sizeof(raw));
	pd_tptext_free(t);
	pd_tracefmt_free(tf);
	return s;
}

#define text(pk, addr)	textn((pk), sizeof(pk) - 1, (addr))

/*
 * Events 5 (its __print_flags names a field it lacks), 6 (fine) and 7
 * (a second deadly one) in one tracing data: 6 has its text, and the
 * others none. 0 when so.
 */
static int
deadly(void)
{
	static const char bad[] = "name: bad\nID: %u\nformat:\n" COMMON
	    "\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"%%s\", __print_flags(REC->nosuch, \"|\", { 1, \"A\" })\n";
	static const char good[] = "name: good\nID: 6\nformat:\n" COMMON
	    "\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"%s\", __print_flags(REC->state, \"|\", { 1, \"A\" }, { 2, \"B\" })\n";
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	char fmt5[512], fmt7[512];
	int r = -1;

	snprintf(fmt5, sizeof(fmt5), bad, 5);
	snprintf(fmt7, sizeof(fmt7), bad, 7);
	if (tf == NULL || t == NULL || add(tf, fmt5, "abc", 3) < 0 ||
	    add(tf, good, "abc", 3) < 0 || add(tf, fmt7, "abc", 3) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, 3, 8, 0);
	if (strcmp(render(t, tf, 5, raw, sizeof(raw)), "") == 0 &&
	    strcmp(render(t, tf, 6, raw, sizeof(raw)), "A|B") == 0 &&
	    strcmp(render(t, tf, 7, raw, sizeof(raw)), "") == 0)
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
	static const char f5[] = "name: small\nID: 5\nformat:\n" COMMON
	    "\tfield:unsigned long v;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"v=%lx\", REC->v\n";
	static const char f6[] = "name: big\nID: 6\nformat:\n" COMMON
	    "\tfield:unsigned long far;\toffset:200;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"far=%lx\", REC->far\n";
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[16];
	size_t n;
	int r = -1;

	if (tf == NULL || t == NULL || add(tf, f5, "abc", 3) < 0 ||
	    add(tf, f6, "abc", 3) < 0)
		goto out;
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, 0xab, 8, 0);
	tf_put_at(raw, 6, 2, 0);
	if (pd_tptext_render(t, tf, pd_tracefmt_event(tf, 5), raw,
	    sizeof(raw), &n) == NULL &&
	    strcmp(render(t, tf, 5, raw, sizeof(raw)), "v=ab") == 0)
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
	static char fmt[512];
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *t = pd_tptext_new();
	unsigned char raw[24];
	const char *s = "";

	snprintf(fmt, sizeof(fmt), "name: div\nID: 5\nformat:\n" COMMON
	    "\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
	    "\tfield:u64 b;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"v=%%d\", %s\n", expr);
	memset(raw, 0, sizeof(raw));
	tf_put_at(raw + 8, 100, 8, 0);
	tf_put_at(raw + 16, b, 8, 0);
	if (tf != NULL && t != NULL && add(tf, fmt, "abc", 3) == 0)
		s = render(t, tf, 5, raw, sizeof(raw));
	pd_tptext_free(t);
	pd_tracefmt_free(tf);
	return s;
}

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
