/* SPDX-License-Identifier: MIT */
#include "pdstat/diff.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/esc.h"
#include "libcommon/sym/stacks.h"
#include "pdstat/flame.h"

/* A profile's weight: its samples, or its nanoseconds off CPU. */
static uint64_t
weight(const struct flame *fl, const struct pd_stack *s)
{
	return flame_is_offcpu(fl) ? s->period : s->count;
}

/*
 * Adds every stack of fl to j, its names interned in j (through map,
 * fl's ids to j's, filled as names are first met), with its weight as
 * count (cur) or period (base). 0, or -1 when out of memory.
 */
static int
join(struct pd_stacks *j, struct flame *fl, int is_base, uint64_t *total)
{
	struct pd_stacks *st = flame_stacks(fl);
	struct pd_stack s;
	size_t i, k, nn = pd_stacks_names(st), len, cap = 0;
	uint32_t *map, *ids = NULL;
	const char *name;
	uint64_t w;
	int r = -1;

	/* UINT32_MAX: not mapped yet. */
	if ((map = malloc((nn + 1) * sizeof(*map))) == NULL)
		return -1;
	memset(map, 0xff, (nn + 1) * sizeof(*map));
	for (i = 0; i < pd_stacks_count(st); i++) {
		pd_stacks_get(st, i, &s);
		if (s.n > cap) {
			uint32_t *p = realloc(ids, s.n * sizeof(*p));

			if (p == NULL)
				goto out;
			ids = p;
			cap = s.n;
		}
		for (k = 0; k < s.n; k++) {
			if (s.ids[k] < nn && map[s.ids[k]] != UINT32_MAX) {
				ids[k] = map[s.ids[k]];
				continue;
			}
			name = pd_stacks_name(st, s.ids[k], &len);
			if (pd_stacks_intern(j, name, len, &ids[k]) < 0)
				goto out;
			if (s.ids[k] < nn)
				map[s.ids[k]] = ids[k];
		}
		w = weight(fl, &s);
		*total += w;
		if (pd_stacks_add(j, ids, s.n, is_base ? 0 : w,
		    is_base ? w : 0) < 0)
			goto out;
	}
	r = 0;
out:
	free(ids);
	free(map);
	return r;
}

struct pd_stacks *
diff_join(struct flame *base, struct flame *cur, int normalize,
    struct flame_opts *o)
{
	struct pd_stacks *j;
	uint64_t tbase = 0, tcur = 0;

	if ((j = pd_stacks_new()) == NULL)
		return NULL;
	if (join(j, base, 1, &tbase) < 0 || join(j, cur, 0, &tcur) < 0) {
		pd_stacks_free(j);
		return NULL;
	}
	o->diff = 1;
	o->base_mul = o->base_div = 0;
	/* difffolded.pl -n: only when the totals differ (and can). */
	if (normalize && tbase != tcur && tbase > 0) {
		o->base_mul = tcur;
		o->base_div = tbase;
	}
	return j;
}

static int
put_stack(FILE *f, const struct pd_stacks *st, const struct pd_stack *s)
{
	char buf[PD_ESC_ROOM(256)];
	const char *name;
	size_t k, len, o;

	for (k = 0; k < s->n; k++) {
		name = pd_stacks_name(st, s->ids[k], &len);
		if (k > 0)
			putc(';', f);
		if (!pd_esc_needed(name, len)) {
			fwrite(name, 1, len, f);
			continue;
		}
		/* Escaped as pddump --folded escapes, a piece at a time. */
		for (; len > 0; name += o, len -= o) {
			o = len < 256 ? len : 256;
			fwrite(buf, 1, pd_esc(buf, name, o), f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/*
 * The lines, sorted by text; stacks with the same text (a comm holding a
 * ';') are one line, as a script's hash makes them.
 */
static int
put_lines(FILE *f, struct pd_stacks *st, const struct flame_opts *o)
{
	struct pd_stack s, next;
	size_t i, n = pd_stacks_count(st);
	uint64_t a, b;

	if (pd_stacks_sort(st, PD_STACKS_BY_TEXT) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		pd_stacks_get(st, i, &s);
		a = s.period;
		b = o->diff || !o->by_period ? s.count : s.period;
		for (; i + 1 < n; i++) {
			pd_stacks_get(st, i + 1, &next);
			if (pd_stacks_cmp(st, &s, &next) != 0)
				break;
			a += next.period;
			b += o->diff || !o->by_period ? next.count :
			    next.period;
		}
		if (put_stack(f, st, &s) < 0)
			return -1;
		if (o->diff)
			fprintf(f, " %" PRIu64, flame_base(o, a));
		fprintf(f, " %" PRIu64 "\n", b);
	}
	return 0;
}

int
diff_folded(struct pd_stacks *st, const char *path,
    const struct flame_opts *o)
{
	return flame_output(path, put_lines, st, o);
}
