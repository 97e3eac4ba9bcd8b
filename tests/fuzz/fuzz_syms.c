/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the symbolizer as pddump -s and --folded run it:
 * every record through the symbol queue (processes, maps, comms, kernel
 * symbol records, time order), every sample's frames named and folded,
 * and, when the data's last byte says so, user stacks unwound. The
 * files a stream names are looked for under a --symfs that holds none
 * and the kernel's symbols in a file that does not exist, so a run
 * reads nothing but its input: what is tried is the stream's handling,
 * which the sanitizers watch.
 *
 * With PD_FUZZ_FILES=1 in the environment, and the last byte's bit 3
 * set, the files are this machine's own instead (and the kernel's
 * symbols /proc/kallsyms where the stream is this host's): the ELF
 * files, their CFI and the unwinder meet stack bytes from the input.
 * A replay (make check) never does this: what it reads stays the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/fold.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symq.h"
#include "libcommon/sym/unwind.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FRAMES_MAX	256

struct run {
	struct pd_syms		*sy;
	struct pd_unwind	*uw;
	struct pd_fold		*fold;
};

static void
fold_sample(void *ctx, const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	static struct pd_frame fr[FRAMES_MAX];
	struct run *r = ctx;
	size_t n;

	if (s == NULL)
		return;
	n = r->uw != NULL ? pd_unwind_frames(r->uw, s, rec->misc, fr,
	    FRAMES_MAX) : pd_sample_frames(s, rec->misc, fr, FRAMES_MAX);
	if (pd_fold_add_frames(r->fold, r->sy, pd_evsel_name(ev), s->pid,
	    s->tid, fr, n, pd_sample_period(ev, s)) < 0)
		abort();
}

/* What -s prints of a sample: each frame's name, touched. */
static unsigned
touch(const struct pd_symq_res *res)
{
	unsigned sum = 0;
	size_t i;

	if (res == NULL)
		return 0;
	if (res->comm != NULL)
		sum += strlen(res->comm);
	if (res->has_ip && res->ip.name != NULL)
		sum += strlen(res->ip.name) + strlen(res->ip.dso);
	for (i = 0; i < res->nframes; i++)
		if (res->syms[i].name != NULL)
			sum += strlen(res->syms[i].name) +
			    strlen(res->syms[i].dso);
	return sum;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_syms_opts so;
	struct pd_reader *rd;
	struct pd_symq *sq;
	struct pd_err err;
	struct pd_rec rec, out;
	const struct pd_symq_res *res;
	struct run r = { NULL, NULL, NULL };
	unsigned pick = size > 0 ? data[size - 1] : 0, sum = 0;
	int fd = memfd_create("fuzz", 0);
	size_t i;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET) < 0 ||
	    (rd = pd_reader_fdopen(fd, "fuzz", PD_RD_DECOMPRESS, &err)) ==
	    NULL) {
		close(fd);
		return 0;
	}
	memset(&so, 0, sizeof(so));
	so.no_debuginfod = 1;
	so.dso_only = pick & 1;
	if (!(pick & 8) || getenv("PD_FUZZ_FILES") == NULL) {
		so.symfs = "/nonexistent/pdtools-fuzz";
		so.kallsyms = "/nonexistent/pdtools-fuzz/kallsyms";
	}
	if ((r.sy = pd_syms_new(&so)) == NULL ||
	    (r.fold = pd_fold_new()) == NULL ||
	    (sq = pd_symq_new(r.sy, pd_reader_evlist(rd))) == NULL)
		abort();
	if (pick & 2) {
		if (pd_symq_set_sample_fn(sq, fold_sample, &r) < 0)
			abort();
		if ((pick & 4) && (r.uw = pd_unwind_new(r.sy)) != NULL)
			pd_symq_set_unwind(sq, r.uw);
	}
	while (pd_reader_next(rd, &rec) > 0) {
		if (r.uw != NULL)
			pd_unwind_record(r.uw, &rec);
		if (pd_symq_push(sq, &rec) < 0)
			break;
		while (pd_symq_next(sq, &out, &res) > 0)
			sum += touch(res);
	}
	pd_symq_flush(sq);
	while (pd_symq_next(sq, &out, &res) > 0)
		sum += touch(res);
	pd_syms_end(r.sy, pd_reader_evlist(rd));
	pd_fold_forget(r.fold);
	{
		struct pd_stacks *st = pd_fold_stacks(r.fold);
		struct pd_stack s;

		if (pd_stacks_sort(st, 0) == 0)
			for (i = 0; i < pd_stacks_count(st); i++)
				pd_stacks_get(st, i, &s);
	}
	(void)sum;
	pd_symq_free(sq);
	pd_unwind_free(r.uw);
	pd_fold_free(r.fold);
	pd_syms_free(r.sy);
	pd_reader_close(rd);
	close(fd);
	return 0;
}
