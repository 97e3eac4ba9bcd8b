/* SPDX-License-Identifier: MIT */
/*
 * pddump: print every record of perf.data inputs (pipe or file mode,
 * either byte order, compressed or not), every field decoded: one line
 * per record with indented detail lines, or one JSON object per record.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/duration.h"
#include "libcommon/cli/msg.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/tptext.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/sym/fold.h"
#include "libcommon/sym/offcpu.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symq.h"
#include "libcommon/sym/unwind.h"
#include "pddump/out.h"
#include "pddump/pddump.h"

static const char usage_line[] =
    "usage: pddump [-svx] [--json] [--folded[=period|offcpu]] [--inline]\n"
    "              [--kallsyms [host=]file] [--no-debuginfod] [--no-inline]\n"
    "              [--no-unwind] [--offcpu-min time] [--raw] [--srcline]\n"
    "              [--symfs [host=]dir] [-t types] [--unwind] [file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Print every record of perf.data inputs, every field "
		    "decoded.\n\n"
		    "      --folded[=period]  instead, one line per distinct "
		    "call stack:\n"
		    "                    comm;outermost;...;innermost count "
		    "(or period sum),\n"
		    "                    as perf script | stackcollapse-perf.pl "
		    "--all folds them\n"
		    "      --folded=offcpu  the nanoseconds threads waited "
		    "off CPU, by the stack\n"
		    "                    they switched out with "
		    "(sched:sched_switch, offcpu-time)\n"
		    "      --inline      functions inlined at each frame, "
		    "from debug info, as\n"
		    "                    frames of their own (-s: in every "
		    "callchain, not only\n"
		    "                    unwound ones; --folded: at all)\n"
		    "  -j, --json        one JSON object per record and line\n"
		    "      --kallsyms [HOST=]FILE  kernel symbols from FILE "
		    "(with -s); HOST=:\n"
		    "                    for that host of a merged stream "
		    "only\n"
		    "      --no-debuginfod  never ask DEBUGINFOD_URLS' "
		    "servers for debug info\n"
		    "      --no-inline   no inlined frames (-s shows them in "
		    "unwound stacks\n"
		    "                    by default, as perf script does)\n"
		    "      --no-unwind   leave the user stacks of --call-graph "
		    "dwarf samples as\n"
		    "                    recorded (-s and --folded unwind "
		    "them by default)\n"
		    "      --offcpu-min TIME  --folded=offcpu: leave out "
		    "waits shorter than TIME\n"
		    "                    (e.g. 1ms, 200us)\n"
		    "      --raw         a tracepoint's fields only, without "
		    "the text perf script\n"
		    "                    prints for them\n"
		    "  -s, --symbols     name the sample's ip and callchain "
		    "entries: sym+0xoff (dso)\n"
		    "      --srcline     with -s, each frame's source file:line "
		    "below it\n"
		    "      --symfs [HOST=]DIR  the recording host's files "
		    "under DIR (with -s);\n"
		    "                    HOST=: for that host of a merged "
		    "stream only\n"
		    "  -t, --types LIST  only these record types "
		    "(SAMPLE,MMAP2,... or numbers)\n"
		    "      --unwind      -s (which unwinds the user stacks of "
		    "--call-graph dwarf\n"
		    "                    samples from their registers and "
		    "stack copy)\n"
		    "  -v, --verbose     with -s, say each path tried for a "
		    "file\n"
		    "  -x, --hex         a hex dump of each record's bytes\n"
		    "  -h, --help        this help\n"
		    "      --version     print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

static int
parse_types(struct dumper *d, const char *arg)
{
	char *s, *tok, *save = NULL;
	long t;

	if ((s = strdup(arg)) == NULL)
		return -1;
	d->filter = 1;
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		char *end;

		t = strtol(tok, &end, 0);
		if (*end != '\0' || end == tok)
			t = pd_rec_type(tok);
		if (t < 0 || t > 255) {
			pd_warnx("unknown record type: %s", tok);
			free(s);
			return -1;
		}
		d->want[t / 64] |= 1ULL << (t % 64);
	}
	free(s);
	return 0;
}

/* Prints what the symbol queue has ready; all of it when `all`. */
static void
sq_drain(struct dumper *d, int all)
{
	struct pd_rec rec;

	if (d->sq == NULL)
		return;
	if (all)
		pd_symq_flush(d->sq);
	while (pd_symq_next(d->sq, &rec, &d->res) > 0)
		print_rec(d, &rec);
	d->res = NULL;
}

/*
 * A record read: printed at once, or with -s through the symbol queue,
 * which hands records back in order once their samples have names. A
 * record with an out-of-band payload is printed while it is current.
 * 0, or -1 when out of memory.
 */
static int
put_rec(struct dumper *d, const struct pd_rec *rec)
{
	if (d->sq == NULL) {
		print_rec(d, rec);
		return 0;
	}
	if (rec->payload > 0 || rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_SIMPLEPERF_TRACING_DATA) {
		sq_drain(d, 1);
		print_rec(d, rec);
		return 0;
	}
	/* The unwinder's header facts (arch, host), in stream order. */
	if (d->uw != NULL)
		pd_unwind_record(d->uw, rec);
	if (pd_symq_push(d->sq, rec) < 0)
		return -1;
	sq_drain(d, 0);
	return 0;
}

/* -s, --folded, --unwind: the symbols of one input; 0, or -1 (*err). */
static int
syms_start(struct dumper *d, struct pd_err *err)
{
	d->sym_bad = 0;
	d->fold_bad = 0;
	if (!d->syms)
		return 0;
	if ((d->sy = pd_syms_new(&d->sopts)) == NULL ||
	    (d->sq = pd_symq_new(d->sy, d->el)) == NULL)
		return pd_err_io(err, ENOMEM, "symbols");
	if (d->fold != NULL) {
		if (pd_symq_set_sample_fn(d->sq, fold_sample, d) < 0)
			return pd_err_io(err, ENOMEM, "symbols");
		/* A folded stack gets them only when asked (--inline). */
		pd_fold_set_inline(d->fold, d->inl == INL_ALL ? d->sy : NULL);
	}
	if (d->offcpu != NULL)
		(void)pd_offcpu_input(d->offcpu, d->el);
	if (d->unwind) {
		if ((d->uw = pd_unwind_new(d->sy)) == NULL)
			return pd_err_io(err, ENOMEM, "unwind");
		pd_symq_set_unwind(d->sq, d->uw);
	}
	return 0;
}

/* What an input left unsaid, said, and its symbols freed. */
static int
dump_end(struct dumper *d, int status)
{
	const char *what, *name = pd_reader_name(d->rd);
	unsigned dropped;

	out_flush();
	if ((dropped = pd_reader_dropped(d->rd, &what)) > 0)
		pd_warnx("%s: left out %u section%s (last: %s)", name,
		    dropped, dropped > 1 ? "s" : "", what);
	if (d->fold_bad > 0) {
		pd_warnx("%s: offset %#" PRIx64 ": %s; %" PRIu64 " sample%s "
		    "left out of the stacks", name, d->fold_bad_off,
		    d->fold_bad_why, d->fold_bad, d->fold_bad > 1 ? "s" : "");
		status = PD_EXIT_DATA;
	}
	if (d->fold != NULL) {
		if (pd_fold_settle(d->fold) < 0) {
			pd_warnx("%s: out of memory: samples left out of the "
			    "stacks", name);
			status = PD_EXIT_DATA;
		}
		pd_fold_forget(d->fold);	/* the stacks stay */
	}
	if (d->sy != NULL) {
		pd_syms_end(d->sy, d->el);
		print_notes(d);
		if (d->sq != NULL)
			d->sym_bad += pd_symq_bad(d->sq);
		if (d->sym_bad > 0) {
			out_flush();
			pd_warnx("%s: %u process or map record%s not usable "
			    "for symbols", name, d->sym_bad,
			    d->sym_bad > 1 ? "s were" : " was");
		}
	}
	if (d->uw != NULL) {
		uint64_t tried, failed;

		pd_unwind_counts(d->uw, &tried, &failed);
		if (failed > 0) {
			out_flush();
			pd_warnx("%s: %" PRIu64 " of %" PRIu64 " user stacks "
			    "(--call-graph dwarf) could not be unwound past "
			    "their first frame (no file or CFI for it, or "
			    "another architecture)", name, failed, tried);
		}
	}
	pd_symq_free(d->sq);
	d->sq = NULL;
	pd_unwind_free(d->uw);
	d->uw = NULL;
	symtext_free(d);	/* its keys are the symbolizer's names */
	pd_syms_free(d->sy);
	d->sy = NULL;
	evline_free(d);		/* its lines are this input's events' */
	pd_reader_close(d->rd);
	d->rd = NULL;
	return status;
}

/* Dumps one input; PD_EXIT_OK or PD_EXIT_DATA (after printing why). */
static int
dump(struct dumper *d, const char *path)
{
	struct pd_err err;
	struct pd_rec rec;
	int r;

	/* Compressed records, then the records they hold, at their offset. */
	if ((d->rd = pd_reader_open(path, PD_RD_DECOMPRESS |
	    PD_RD_KEEP_COMPRESSED | PD_RD_TRACEFMT, &err)) == NULL) {
		out_flush();
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	pd_interrupt_watch(d->rd);
	d->el = pd_reader_evlist(d->rd);
	if (syms_start(d, &err) < 0)
		goto failed;
	while ((r = pd_reader_next(d->rd, &rec)) > 0)
		if (put_rec(d, &rec) < 0) {
			pd_err_io(&err, ENOMEM, "symbols");
			goto failed;
		}
	if (r < 0) {
		err = *pd_reader_err(d->rd);
		goto failed;
	}
	sq_drain(d, 1);
	return dump_end(d, PD_EXIT_OK);
failed:
	sq_drain(d, 1);
	err.input = pd_reader_name(d->rd);
	out_flush();
	pd_print_err(&err);
	return dump_end(d, PD_EXIT_DATA);
}

/* The options into d; returns the index of the first operand. */
static int
options(int argc, char **argv, struct dumper *d)
{
	static const struct option longopts[] = {
		{ "folded",	optional_argument,	NULL, 'F' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "hex",	no_argument,		NULL, 'x' },
		{ "inline",	no_argument,		NULL, 'I' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "kallsyms",	required_argument,	NULL, 'K' },
		{ "no-debuginfod", no_argument,		NULL, 'D' },
		{ "no-inline",	no_argument,		NULL, 'O' },
		{ "no-unwind",	no_argument,		NULL, 'N' },
		{ "offcpu-min",	required_argument,	NULL, 'M' },
		{ "raw",	no_argument,		NULL, 'R' },
		{ "srcline",	no_argument,		NULL, 'L' },
		{ "symbols",	no_argument,		NULL, 's' },
		{ "symfs",	required_argument,	NULL, 'S' },
		{ "types",	required_argument,	NULL, 't' },
		{ "unwind",	no_argument,		NULL, 'U' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, folded = 0, offcpu_min = 0, raw = 0, no_unwind = 0;

	d->inl = INL_UNWOUND;		/* perf script's default */

	while ((c = getopt_long(argc, argv, "hjst:vx", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			/* Nothing in this process asks debuginfod then. */
			d->sopts.no_debuginfod = 1;
			(void)unsetenv("DEBUGINFOD_URLS");
			break;
		case 'F':
			folded = 1;
			d->syms = 1;
			if (optarg == NULL || strcmp(optarg, "count") == 0)
				d->by_period = 0;
			else if (strcmp(optarg, "period") == 0)
				d->by_period = 1;
			else if (strcmp(optarg, "offcpu") == 0)
				d->by_period = folded = 2;
			else {
				pd_warnx("--folded=%s: count, period or offcpu",
				    optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'I':
			d->inl = INL_ALL;
			break;
		case 'L':
			d->srcline = 1;
			break;
		case 'M':
			if (pd_duration_parse(optarg, &d->offcpu_min) < 0) {
				pd_warnx("--offcpu-min: not a duration (ns, "
				    "us, ms, s): %s", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			offcpu_min = 1;
			break;
		case 'N':
			no_unwind = 1;
			break;
		case 'O':
			d->inl = INL_NONE;
			break;
		case 'j':
			d->json = 1;
			break;
		case 'K':
			if (pd_syms_opts_kallsyms(&d->sopts, optarg) < 0) {
				pd_warnx("--kallsyms: more than %d hosts",
				    PD_SYMS_KFILES_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'R':
			raw = 1;
			break;
		case 's':
			d->syms = 1;
			break;
		case 'S':
			if (pd_syms_opts_symfs(&d->sopts, optarg) < 0) {
				pd_warnx("--symfs: more than %d hosts",
				    PD_SYMS_KFILES_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 't':
			if (parse_types(d, optarg) < 0)
				exit(PD_EXIT_USAGE);
			break;
		case 'U':
			d->syms = 1;
			break;
		case 'v':
			d->sopts.verbose = 1;
			break;
		case 'V':
			pd_print_version();
			exit(PD_EXIT_OK);
		case 'x':
			d->hex = 1;
			break;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	if (folded && (d->json || d->hex || d->filter)) {
		pd_warnx("--folded prints stacks, not records: no -j, -t or -x");
		usage(stderr, PD_EXIT_USAGE);
	}
	if ((d->inl == INL_ALL || d->srcline) && !d->syms) {
		pd_warnx("--inline and --srcline name frames: with -s or "
		    "--folded");
		usage(stderr, PD_EXIT_USAGE);
	}
	if (d->srcline && folded) {
		pd_warnx("--srcline goes with -s, not --folded");
		usage(stderr, PD_EXIT_USAGE);
	}
	if (offcpu_min && folded != 2) {
		pd_warnx("--offcpu-min goes with --folded=offcpu");
		usage(stderr, PD_EXIT_USAGE);
	}
	/* Like perf script: a dwarf sample's user stack, unwound. */
	d->unwind = d->syms && !no_unwind;
	if ((folded && ((d->fold = pd_fold_new()) == NULL || (folded == 2 &&
	    (d->offcpu = pd_offcpu_new(d->fold, d->offcpu_min)) == NULL))) ||
	    (!folded && !raw && (d->tptext = pd_tptext_new()) == NULL)) {
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
	return optind;
}

int
main(int argc, char **argv)
{
	static char *stdin_only[] = { "-", NULL };
	static struct dumper d;
	char **inputs;
	int i, first, status = PD_EXIT_OK;

	pd_setprogname(argv[0]);
	first = options(argc, argv, &d);
	inputs = first < argc ? argv + first : stdin_only;
	pd_interrupt_init();
	for (i = 0; inputs[i] != NULL && !pd_interrupted(); i++)
		if (dump(&d, inputs[i]) != PD_EXIT_OK)
			status = PD_EXIT_DATA;
	/* All inputs' stacks together, as one perf script would give. */
	if (d.fold != NULL) {
		fold_print(&d);
		pd_offcpu_free(d.offcpu);
		pd_fold_free(d.fold);
	}
	pd_tptext_free(d.tptext);
	out_flush();
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	return status;
}
