/* SPDX-License-Identifier: MIT */
/*
 * The frame-name rules of stackcollapse-perf.pl (its documented behaviour
 * with --all, reimplemented; none of its code), so that our folded output
 * and `perf script | stackcollapse-perf.pl --all` compare with diff.
 */
#include "libcommon/fold.h"

#include <stdio.h>
#include <string.h>

size_t
pd_fold_comm(const char *comm, char *buf, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; comm[i] != '\0' && i < len - 1; i++)
		buf[i] = comm[i] == ' ' ? '_' : comm[i];
	buf[i] = '\0';
	return i;
}

/* Does s hold ".(" and, later, ")."? (a Go method: "net/http.(*Client).Do") */
static int
go_method(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);

	return open != NULL && memmem(open + 2, n - (open + 2 - s), ").",
	    2) != NULL;
}

static int
suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* /tmp/perf-<digits>.map or .../jitted-<digits>-<digits>.so in s */
static int
jit_dso(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "/tmp/perf-")) != NULL; p++) {
		const char *q = p + 10;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (strncmp(q, ".map", 4) == 0)
			return 1;
	}
	for (p = s; (p = strstr(p, "/jitted-")) != NULL; p++) {
		const char *q = p + 8;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q++ != '-' || *q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (strncmp(q, ".so", 3) == 0)
			return 1;
	}
	return 0;
}

/*
 * One part of a name, tidied, into out (room for n + 1 bytes, n >= 1):
 * returns the length.
 */
static size_t
tidy(const char *s, size_t n, const char *dso, int java, char *out,
    size_t room)
{
	const char *p;
	size_t i, o = 0, cut = n;

	if (n == 9 && memcmp(s, "[unknown]", 9) == 0) {
		const char *base = "unknown";

		if (dso != NULL && strcmp(dso, "[unknown]") != 0) {
			base = strrchr(dso, '/');
			base = base != NULL ? base + 1 : dso;
		}
		o = snprintf(out, room, "[%s]", base);
		if (o >= room)
			o = room - 1;
		s = out;
		n = o;
		/* Tidied in place below: the writes never pass the reads. */
		cut = n;
	}
	if (!go_method(s, n)) {
		for (p = s; (p = memchr(p, '(', n - (p - s))) != NULL; p++)
			if (n - (p - s) < 20 ||
			    memcmp(p + 1, "anonymous namespace)", 20) != 0) {
				cut = p - s;
				break;
			}
	}
	o = 0;
	i = 0;
	if (java && memchr(s, '/', cut) != NULL && cut > 0 && s[0] == 'L')
		i = 1;
	for (; i < cut && o < room - 1; i++) {
		char c = s[i];

		if (c == '"' || c == '\'')
			continue;
		out[o++] = c == ';' ? ':' : c;
	}
	return o;
}

ssize_t
pd_fold_frame(const char *name, const char *dso, int java, char *buf,
    size_t len)
{
	static const char *const unknown = "[unknown]";
	const char *part, *end, *arrow;
	size_t o = 0, k = 0, n, nparts;
	const char *ann = NULL;

	if (name == NULL)
		name = unknown;
	if (name[0] == '(')
		return 0;
	if (dso != NULL && (dso[0] == '[' || suffix(dso, "vmlinux")) &&
	    strstr(dso, "unknown") == NULL)
		ann = "_[k]";
	else if (dso != NULL && jit_dso(dso))
		ann = "_[j]";

	/* Perl's split drops trailing empty parts: "a->" is one frame. */
	end = name + strlen(name);
	while (end - name >= 2 && end[-2] == '-' && end[-1] == '>')
		end -= 2;
	if (end == name)
		return 0;
	for (nparts = 1, part = name; (arrow = memmem(part, end - part,
	    "->", 2)) != NULL; part = arrow + 2)
		nparts++;
	if (len < nparts)
		return -1;

	for (part = name; k < nparts; part = arrow + 2, k++) {
		const char *a = k > 0 ? "_[i]" : ann;
		size_t room = len - o - (nparts - k - 1);	/* keep 1 each */

		arrow = memmem(part, end - part, "->", 2);
		if (arrow == NULL)
			arrow = end;
		/* tidy() writes the "[dso]" form first: it needs room. */
		n = tidy(part, arrow - part, dso, java, buf + o, room);
		if (a != NULL) {
			size_t m = strlen(a);

			if (n + m > room - 1)
				m = room - 1 - n;
			memcpy(buf + o + n, a, m);
			n += m;
		}
		buf[o + n] = '\0';
		o += n + 1;
	}
	return nparts;
}
