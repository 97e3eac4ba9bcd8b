/* SPDX-License-Identifier: MIT */
/*
 * The stack aggregator: interning, counting, the text order of sorted
 * stacks (checked against strcmp of the joined texts), and no allocation
 * for a stack already seen.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/sym/stacks.h"
#include "tests/unit/t.h"

static uint32_t
in(struct pd_stacks *st, const char *s)
{
	uint32_t id = UINT32_MAX;

	T(pd_stacks_intern(st, s, strlen(s), &id) == 0);
	return id;
}

static void
text(struct pd_stacks *st, const struct pd_stack *s, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ";" : "",
		    pd_stacks_name(st, s->ids[i], NULL));
}

static int
strp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names chosen so that ';' sorts against '-', '+', prefixes and bytes
 * above 0x7f, where frame-by-frame and text order differ. */
static const char *const words[] = {
	"a", "ab", "a-b", "a+b", "a:b", "b", "main", "hot", "[unknown]",
	"\xc3\xa9t\xc3\xa9", "", "zz", "a;b",
};
#define NW	(sizeof(words) / sizeof(words[0]))

static void
sort_order(void)
{
	struct pd_stacks *st = pd_stacks_new();
	char *want[400], got[400][256];
	uint32_t ids[6];
	size_t i, j, n = 0, nst;
	unsigned seed = 1;

	T(st != NULL);
	for (i = 0; i < 400; i++) {
		size_t k = 1 + (seed = seed * 1103515245 + 12345) % 5;
		char buf[256];
		struct pd_stack s;

		for (j = 0; j < k; j++) {
			seed = seed * 1103515245 + 12345;
			ids[j] = in(st, words[(seed >> 8) % NW]);
		}
		T(pd_stacks_add(st, ids, k, 1, 10) == 0);
		s.ids = ids;
		s.n = k;
		text(st, &s, buf, sizeof(buf));
		/* Only distinct id sequences are distinct stacks. */
		for (j = 0; j < n; j++)
			if (strcmp(want[j], buf) == 0)
				break;
		if (j == n)
			want[n++] = strdup(buf);
	}
	T(pd_stacks_sort(st, PD_STACKS_BY_TEXT) == 0);
	nst = pd_stacks_count(st);
	/* "a;b" as one name and as two frames join to the same text. */
	T(nst >= n);
	for (i = 0; i < nst; i++) {
		struct pd_stack s;

		pd_stacks_get(st, i, &s);
		text(st, &s, got[i], sizeof(got[i]));
		if (i > 0)
			T(strcmp(got[i - 1], got[i]) <= 0);
	}
	qsort(want, n, sizeof(*want), strp_cmp);
	for (i = 0, j = 0; i < nst && j < n; i++) {
		if (i > 0 && strcmp(got[i], got[i - 1]) == 0)
			continue;
		T(strcmp(got[i], want[j]) == 0);
		j++;
	}
	T(j == n);
	for (i = 0; i < n; i++)
		free(want[i]);
	pd_stacks_free(st);
}

static void
counting(void)
{
	struct pd_stacks *st = pd_stacks_new();
	uint32_t a, b, c, s1[3], s2[3];
	struct pd_stack s;
	struct mallinfo2 m0, m1;
	size_t i;

	a = in(st, "main");
	b = in(st, "a");
	c = in(st, "hot");
	T(in(st, "main") == a);
	T(a != b && b != c);
	T(pd_stacks_names(st) == 3);
	T(strcmp(pd_stacks_name(st, c, &i), "hot") == 0 && i == 3);
	/* Not NUL-terminated input. */
	T(pd_stacks_intern(st, "hotter", 3, &s1[0]) == 0 && s1[0] == c);

	s1[0] = s2[0] = a;
	s1[1] = b;
	s2[1] = in(st, "b");
	s1[2] = s2[2] = c;
	T(pd_stacks_add(st, s1, 3, 1, 100) == 0);
	T(pd_stacks_add(st, s2, 3, 1, 7) == 0);
	T(pd_stacks_add(st, s1, 2, 1, 1) == 0);
	T(pd_stacks_count(st) == 3);

	/* The same stacks again and again: no memory grows. */
	m0 = mallinfo2();
	for (i = 0; i < 200000; i++)
		T(pd_stacks_add(st, i % 2 ? s1 : s2, 3, 1, 5) == 0);
	m1 = mallinfo2();
	T(m1.uordblks == m0.uordblks);
	T(pd_stacks_count(st) == 3);

	T(pd_stacks_sort(st, PD_STACKS_BY_TEXT) == 0);
	pd_stacks_get(st, 0, &s);	/* main;a */
	T(s.n == 2 && s.count == 1 && s.period == 1);
	pd_stacks_get(st, 1, &s);	/* main;a;hot */
	T(s.n == 3 && s.count == 100001 && s.period == 100 + 500000);
	pd_stacks_get(st, 2, &s);	/* main;b;hot */
	T(s.n == 3 && s.count == 100001 && s.period == 7 + 500000);
	pd_stacks_free(st);
}

static void
many(void)
{
	struct pd_stacks *st = pd_stacks_new();
	char buf[32];
	uint32_t ids[2];
	size_t i;

	/* Enough to make every table grow several times. */
	for (i = 0; i < 50000; i++) {
		snprintf(buf, sizeof(buf), "f%zu", i);
		ids[0] = in(st, "root");
		ids[1] = in(st, buf);
		T(pd_stacks_add(st, ids, 2, 1, 1) == 0);
	}
	T(pd_stacks_count(st) == 50000 && pd_stacks_names(st) == 50001);
	snprintf(buf, sizeof(buf), "f%d", 31337);
	T(in(st, buf) == 31338);
	T(pd_stacks_sort(st, PD_STACKS_BY_TEXT) == 0);
	pd_stacks_free(st);
	pd_stacks_free(NULL);
}

/* By frame: every prefix's stacks are next to each other. */
static void
by_frame(void)
{
	struct pd_stacks *st = pd_stacks_new();
	const char *const lines[][3] = {
		{ "A", "B;", NULL }, { "A", "B", "C" }, { "A", "B-x", NULL },
		{ "A", "B", NULL }, { "A", "Bb", "C" },
	};
	/* Wanted: A;B  A;B;C  A;B-x  A;B;  A;Bb;C (frame by frame). */
	const char *const want[] = { "B", "B", "B-x", "B;", "Bb" };
	struct pd_stack s;
	uint32_t ids[3];
	size_t i, j;

	for (i = 0; i < 5; i++) {
		for (j = 0; j < 3 && lines[i][j] != NULL; j++)
			ids[j] = in(st, lines[i][j]);
		T(pd_stacks_add(st, ids, j, 1, 1) == 0);
	}
	T(pd_stacks_sort(st, PD_STACKS_BY_FRAME) == 0);
	for (i = 0; i < 5; i++) {
		pd_stacks_get(st, i, &s);
		T(strcmp(pd_stacks_name(st, s.ids[1], NULL), want[i]) == 0);
		if (i < 2)
			T(s.n == i + 2);
	}
	pd_stacks_free(st);
}

int
main(void)
{
	counting();
	sort_order();
	many();
	by_frame();
	return T_END();
}
