/* SPDX-License-Identifier: MIT */
/*
 * pddump --folded: one line per distinct call stack, as perf script |
 * stackcollapse-perf.pl --all folds them.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/fold.h"
#include "libcommon/sym/offcpu.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symq.h"
#include "libcommon/sym/unwind.h"
#include "pddump/out.h"
#include "pddump/pddump.h"

#define FOLD_FRAMES	1024

/*
 * A sample left out of the stacks: counted, and the input's first (by
 * offset: they come in time order) said at its end with why.
 */
static void
fold_unparsed(struct dumper *d, const struct pd_evsel *ev,
    const struct pd_rec *rec)
{
	struct pd_sample s;
	const char *why = NULL;

	if (d->fold_bad++ > 0 && rec->offset >= d->fold_bad_off)
		return;
	if (ev != NULL)
		(void)pd_sample_parse(ev, rec, &s, &why);
	d->fold_bad_off = rec->offset;
	d->fold_bad_why = ev == NULL ? "no event has its id" :
	    why != NULL ? why : "unreadable";
}

/*
 * A sample's stack, added as the symbol queue hands the sample over in
 * time order, with the maps of its time: perf script's order, so that
 * a process's first samples, written before its COMM and MMAPs, get its
 * names as they do from perf. Nothing is printed until the end
 * (fold_print).
 */
void
fold_sample(void *ctx, const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	static struct pd_frame fr[FOLD_FRAMES];
	struct dumper *d = ctx;
	size_t n;

	/* One that does not parse is left out, and said (fold_unparsed). */
	if (s == NULL) {
		fold_unparsed(d, ev, rec);
		return;
	}
	/* --unwind: DWARF-unwound user frames; else the callchain or ip. */
	if (d->uw != NULL)
		n = pd_unwind_frames(d->uw, s, rec->misc, fr, FOLD_FRAMES);
	else
		n = pd_sample_frames(s, rec->misc, fr, FOLD_FRAMES);
	/* --folded=offcpu: the waits, charged when they end. */
	if (d->offcpu != NULL ? pd_offcpu_sample(d->offcpu, d->sy, ev, s, fr,
	    n) < 0 : pd_fold_add_frames(d->fold, d->sy, pd_evsel_name(ev),
	    s->pid, s->tid, fr, n, pd_sample_period(ev, s)) < 0) {
		out_flush();
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
}

/*
 * The stacks in stackcollapse-perf.pl's order (by their text), one line
 * each: "comm;outer;...;inner N". Stacks whose texts are the same (a
 * comm with a ';' in it) are one line, as its hash makes them.
 */
void
fold_print(struct dumper *d)
{
	struct pd_stacks *st = pd_fold_stacks(d->fold);
	struct pd_stack s, next;
	char ebuf[256];
	size_t i, k, nst = pd_stacks_count(st), len;
	uint64_t v;

	if (pd_stacks_sort(st, PD_STACKS_BY_TEXT) < 0) {
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
	for (i = 0; i < nst; i++) {
		pd_stacks_get(st, i, &s);
		v = d->by_period ? s.period : s.count;
		while (i + 1 < nst) {
			pd_stacks_get(st, i + 1, &next);
			if (pd_stacks_cmp(st, &s, &next) != 0)
				break;
			v += d->by_period ? next.period : next.count;
			i++;
		}
		for (k = 0; k < s.n; k++) {
			const char *name = pd_stacks_name(st, s.ids[k], &len);

			if (k > 0)
				out_ch(';');
			out_esc(name, len);
		}
		out_ch(' ');
		out_u64(v);
		out_ch('\n');
	}
	out_flush();
	if (d->offcpu != NULL) {
		const char *why;
		uint64_t bad = pd_offcpu_bad(d->offcpu, &why);

		if (pd_offcpu_seen(d->offcpu) == 0)
			pd_warnx("no sched:sched_switch or offcpu-time samples: "
			    "nothing off CPU to fold");
		if (bad > 0)
			pd_warnx("%" PRIu64 " switch%s left out: %s", bad,
			    bad > 1 ? "es" : "", why);
		return;
	}
	if (pd_fold_left_out(d->fold) > 0)
		pd_warnx("%" PRIu64 " samples of other events than %s left "
		    "out (as stackcollapse-perf.pl does)",
		    pd_fold_left_out(d->fold),
		    pd_esc_str(pd_fold_event(d->fold), ebuf, sizeof(ebuf)));
}
