/* SPDX-License-Identifier: MIT */
/*
 * pdstat: what is in a perf.data stream, at a glance (a table like
 * `perf report --stats`, or JSON), or live while it passes through (-p).
 * The counts are stats.c's, the summary print.c's; --top and
 * --flamegraph, --pprof and --gecko name the samples through one
 * symbolizer (names.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/cli/duration.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/writer.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"
#include "pdstat/buildids.h"
#include "pdstat/diff.h"
#include "pdstat/flame.h"
#include "pdstat/gecko.h"
#include "pdstat/names.h"
#include "pdstat/pprof.h"
#include "pdstat/print.h"
#include "pdstat/stats.h"
#include "pdstat/status.h"
#include "pdstat/tap.h"
#include "pdstat/top.h"


static const char usage_line[] =
    "usage: pdstat [-pv] [--json] [--flamegraph file.svg]\n"
    "              [--kallsyms [host=]file] [--folded file]\n"
    "              [--diff base [--no-normalize]]\n"
    "              [--offcpu [--offcpu-min time]] [--gecko file.json]\n"
    "              [--pprof file.pb.gz] [--inline] [--no-debuginfod]\n"
    "              [--no-unwind] [--symfs [host=]dir] [--top n] [--sort key,...]\n"
    "              [--by key] [--children] [--percent-limit pct]\n"
    "              [-g | --tree] [--build-ids]\n"
    "              [file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Summarize perf.data inputs: records, events, lost data, "
		    "time, cpus, tasks.\n\n"
		    "      --flamegraph FILE.svg\n"
		    "                   also draw the samples' call stacks as "
		    "an interactive\n"
		    "                   flame graph (- : standard output, the "
		    "summary going\n"
		    "                   to standard error)\n"
		    "      --folded FILE  also write the stacks as folded "
		    "text (- : standard output)\n"
		    "      --diff BASE  compare with profile BASE: the flame "
		    "graph of the inputs,\n"
		    "                   coloured red where a frame grew, blue "
		    "where it shrank;\n"
		    "                   --folded writes stack, base and new "
		    "counts (difffolded.pl)\n"
		    "      --no-normalize  --diff: compare counts as they "
		    "are, base not scaled\n"
		    "                   to the inputs' total\n"
		    "      --offcpu     draw (or fold) time off CPU from "
		    "sched:sched_switch or\n"
		    "                   offcpu-time samples, in ns, by the "
		    "stack that waited\n"
		    "      --offcpu-min TIME  leave out waits shorter than "
		    "TIME (e.g. 1ms, 200us)\n"
		    "      --gecko FILE.json\n"
		    "                   also write the samples as the Firefox "
		    "Profiler's gecko\n"
		    "                   JSON, as perf script report gecko "
		    "(- : standard output)\n"
		    "      --json       print the summary as JSON\n"
		    "  -p, --pass       copy the stream to standard output "
		    "unchanged; the summary\n"
		    "                   (and a live status line on a "
		    "terminal) goes to standard error\n"
		    "      --pprof FILE.pb.gz\n"
		    "                   also write the samples' stacks as a "
		    "gzipped pprof\n"
		    "                   profile.proto, for go tool pprof "
		    "(- : standard output)\n"
		    "      --top N      the N hottest symbols of each event "
		    "by their samples'\n"
		    "                   period, as perf report --sort sym\n"
		    "      --sort KEYS  --top's rows by perf report's keys, "
		    "in order: comm,\n"
		    "                   pid (a thread; or tid), dso, sym; "
		    "without --top, every row\n"
		    "      --by KEY     --sort KEY: one key\n"
		    "      --children   also each row's share through the "
		    "callchains (inclusive)\n"
		    "      --percent-limit PCT  only rows of at least PCT %\n"
		    "  -g, --tree       each row's call graph under it, as "
		    "perf report -g: its\n"
		    "                   callers (with --children, what it "
		    "calls), branches of\n"
		    "                   at least 0.5% (or PCT) of the event\n"
		    "      --kallsyms [HOST=]FILE  kernel symbols for --top "
		    "from FILE; HOST=:\n"
		    "                   for that host of a merged stream "
		    "only\n"
		    "      --no-debuginfod  never ask DEBUGINFOD_URLS' "
		    "servers for debug info\n"
		    "      --symfs [HOST=]DIR  the recording host's files "
		    "under DIR; HOST=:\n"
		    "                   for that host of a merged stream "
		    "only\n"
		    "  -v, --verbose    say each path tried for a file\n"
		    "      --build-ids  instead, each build id and its path, "
		    "as perf buildid-list\n"
		    "      --inline     with --flamegraph, --folded, --pprof: "
		    "the functions\n"
		    "                   inlined at each frame, from debug "
		    "info, as frames\n"
		    "      --no-unwind  leave the user stacks of --call-graph "
		    "dwarf samples\n"
		    "                   as recorded (the stack views, --top "
		    "with --children\n"
		    "                   or --tree among them, unwind them "
		    "by default)\n"
		    "  -h, --help       this help\n"
		    "      --version    print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

struct opts {
	int		 json, pass, build_ids;
	int		 no_unwind;	/* --no-unwind */
	int		 inl;		/* --inline */
	size_t		 topn;		/* --top N; 0: none */
	struct symtop_opts tk;		/* --sort, --children ... */
	const char	*flamepath;
	const char	*foldedpath;	/* --folded */
	const char	*diffbase;	/* --diff */
	int		 no_normalize;
	int		 offcpu;
	uint64_t	 offcpu_min;	/* ns */
	const char	*pprofpath;
	const char	*geckopath;
	struct pd_syms_opts so;
};

/*
 * An output option's FILE that holds a recording is an input given in
 * the wrong place (`pdstat --flamegraph perf.data`): writing the picture
 * there would lose the recording, so nothing is read or written.
 */
static void
not_a_recording(const char *path, const char *opt)
{
	if (path == NULL || !pd_output_holds_recording(path))
		return;
	pd_warnx("%s: holds a perf.data recording: --%s writes a new file "
	    "(the inputs go last)", path, opt);
	usage(stderr, PD_EXIT_USAGE);
}

/* The checks of the options that draw or write stacks. */
static void
stacks_opts(const struct opts *o)
{
	const char *why = NULL;

	if ((o->diffbase != NULL || o->offcpu) && o->flamepath == NULL &&
	    o->foldedpath == NULL)
		why = "--diff and --offcpu need --flamegraph or --folded";
	else if (o->inl && o->flamepath == NULL && o->foldedpath == NULL &&
	    o->pprofpath == NULL)
		why = "--inline goes with --flamegraph, --folded or --pprof";
	else if (o->no_normalize && o->diffbase == NULL)
		why = "--no-normalize goes with --diff";
	else if (o->offcpu_min > 0 && !o->offcpu)
		why = "--offcpu-min goes with --offcpu";
	else if (o->diffbase != NULL && o->pass)
		why = "-p passes one stream through: no --diff";
	else if (o->foldedpath != NULL && strcmp(o->foldedpath, "-") == 0 &&
	    (o->pass || (o->flamepath != NULL &&
	    strcmp(o->flamepath, "-") == 0)))
		why = "one output to standard output: give --folded a file";
	if (why != NULL) {
		pd_warnx("%s", why);
		usage(stderr, PD_EXIT_USAGE);
	}
	not_a_recording(o->flamepath, "flamegraph");
	not_a_recording(o->foldedpath, "folded");
	not_a_recording(o->pprofpath, "pprof");
	not_a_recording(o->geckopath, "gecko");
}

/* Parses the options into o; returns how many argv words they took. */
static int
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "build-ids",	no_argument,	NULL, 'I' },
		{ "by",		required_argument, NULL, 'B' },
		{ "children",	no_argument,	NULL, 'C' },
		{ "diff",	required_argument, NULL, 'd' },
		{ "flamegraph",	required_argument, NULL, 'G' },
		{ "folded",	required_argument, NULL, 'f' },
		{ "gecko",	required_argument, NULL, 'E' },
		{ "help",	no_argument,	NULL, 'h' },
		{ "inline",	no_argument,	NULL, 'i' },
		{ "json",	no_argument,	NULL, 'J' },
		{ "kallsyms",	required_argument, NULL, 'K' },
		{ "no-debuginfod", no_argument,	NULL, 'D' },
		{ "no-normalize", no_argument,	NULL, 'N' },
		{ "offcpu",	no_argument,	NULL, 'O' },
		{ "offcpu-min",	required_argument, NULL, 'M' },
		{ "no-unwind",	no_argument,	NULL, 'W' },
		{ "pass",	no_argument,	NULL, 'p' },
		{ "percent-limit", required_argument, NULL, 'L' },
		{ "pprof",	required_argument, NULL, 'P' },
		{ "sort",	required_argument, NULL, 's' },
		{ "symfs",	required_argument, NULL, 'S' },
		{ "top",	required_argument, NULL, 'T' },
		{ "tree",	no_argument,	NULL, 'g' },
		{ "verbose",	no_argument,	NULL, 'v' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *why;
	char *end;
	int c, table = 0;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "ghpv", longopts, NULL)) != -1) {
		switch (c) {
		case 'B':
		case 's':
			if ((c == 'B' && strchr(optarg, ',') != NULL) ||
			    symtop_parse_sort(&o->tk, optarg, &why) < 0) {
				pd_warnx("--%s %s: %s", c == 'B' ? "by" : "sort",
				    optarg, c == 'B' ? "one key" : why);
				usage(stderr, PD_EXIT_USAGE);
			}
			table = 1;
			break;
		case 'C':
			o->tk.children = table = 1;
			break;
		case 'D':
			/* Nothing in this process asks debuginfod then. */
			o->so.no_debuginfod = 1;
			(void)unsetenv("DEBUGINFOD_URLS");
			break;
		case 'G':
			o->flamepath = optarg;
			break;
		case 'd':
			o->diffbase = optarg;
			break;
		case 'f':
			o->foldedpath = optarg;
			break;
		case 'M':
			if (pd_duration_parse(optarg, &o->offcpu_min) < 0) {
				pd_warnx("--offcpu-min: not a duration (ns, "
				    "us, ms, s): %s", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'N':
			o->no_normalize = 1;
			break;
		case 'O':
			o->offcpu = 1;
			break;
		case 'E':
			o->geckopath = optarg;
			break;
		case 'g':
			o->tk.tree = table = 1;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'J':
			o->json = 1;
			break;
		case 'K':
			if (pd_syms_opts_kallsyms(&o->so, optarg) < 0) {
				pd_warnx("--kallsyms: more than %d hosts",
				    PD_SYMS_KFILES_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'I':
			o->build_ids = 1;
			break;
		case 'L':
			errno = 0;
			o->tk.percent_limit = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(o->tk.percent_limit >= 0)) {
				pd_warnx("--percent-limit: not a percentage: "
				    "%s", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			o->tk.limit_given = table = 1;
			break;
		case 'p':
			o->pass = 1;
			break;
		case 'S':
			if (pd_syms_opts_symfs(&o->so, optarg) < 0) {
				pd_warnx("--symfs: more than %d hosts",
				    PD_SYMS_KFILES_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'v':
			o->so.verbose = 1;
			break;
		case 'W':
			o->no_unwind = 1;
			break;
		case 'i':
			o->inl = 1;
			break;
		case 'P':
			o->pprofpath = optarg;
			break;
		case 'T':
			errno = 0;
			o->topn = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    o->topn == 0 || *optarg == '-') {
				pd_warnx("--top: not a positive count: %s",
				    optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'V':
			pd_print_version();
			exit(PD_EXIT_OK);
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	if (o->build_ids && (o->pass || o->json || o->topn > 0 || table ||
	    o->flamepath != NULL)) {
		pd_warnx("--build-ids goes alone");
		usage(stderr, PD_EXIT_USAGE);
	}
	/* As perf report: a table of every row unless --top says. */
	if (table && o->topn == 0)
		o->topn = SIZE_MAX;
	/* --top by dso reads no file for symbols (names.c may still). */
	o->so.dso_only = symtop_dso_only(&o->tk);
	if (o->pass && argc - optind > 1) {
		pd_warnx("-p passes one stream through; give at most one "
		    "input");
		usage(stderr, PD_EXIT_USAGE);
	}
	if (o->pass && o->flamepath != NULL &&
	    strcmp(o->flamepath, "-") == 0) {
		pd_warnx("-p writes the stream to standard output: give "
		    "--flamegraph a file");
		usage(stderr, PD_EXIT_USAGE);
	}
	{
		int tostdout = o->pass + (o->flamepath != NULL &&
		    strcmp(o->flamepath, "-") == 0) + (o->foldedpath != NULL &&
		    strcmp(o->foldedpath, "-") == 0) + (o->pprofpath != NULL &&
		    strcmp(o->pprofpath, "-") == 0) + (o->geckopath != NULL &&
		    strcmp(o->geckopath, "-") == 0);

		if (tostdout > 1) {
			pd_warnx("one output to standard output at most: give "
			    "--%s a file", o->geckopath != NULL &&
			    strcmp(o->geckopath, "-") == 0 ? "gecko" :
			    "pprof");
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	if (o->pprofpath != NULL && strcmp(o->pprofpath, "-") == 0 &&
	    isatty(STDOUT_FILENO)) {
		pd_warnx("--pprof -: refusing to write binary data to a "
		    "terminal (give a file or a pipe)");
		usage(stderr, PD_EXIT_USAGE);
	}
	stacks_opts(o);
	return optind;
}

/* A run over the inputs: where its outputs go. */
struct run {
	const struct opts *o;
	FILE		*sf;		/* the summaries */
	struct pd_output out;		/* -p: the stream */
	struct pd_writer *w;
	struct flame	*flame;		/* --flamegraph: every input's */
	struct flame	*base;		/* --diff: the base profile's */
	struct flame	*cur;		/* the one the input goes to */
	struct pprof	*pprof;		/* --pprof: every input's */
	struct gecko	*gecko;		/* --gecko: every input's */
	int		 incomplete;	/* an input was not read to its end */
	char		 cmdline[sizeof(((struct pd_header_info *)0)->cmdline)];
	int		 status;
};

/* One input as it passes. */
struct input {
	struct run	*run;
	struct stats	 st;
	struct symtop	*top;
	struct names	*names;
	struct pd_writer *w;		/* -p, unless tapped */
	struct tap	 tap;
	struct status	 ss;
	uint64_t	 flushed;
};

static void __attribute__((noreturn))
write_failed(struct run *run)
{
	pd_output_abort(&run->out);
	pd_die_write(run->out.name);
}

/*
 * -p hands the stream on in pieces of this size rather than in the
 * writer's larger ones, so that the next program in the pipeline works
 * on one piece while pdstat reads the next (as cat's 128 KiB do).
 */
#define FLUSH_EVERY	(128 * 1024)

/*
 * What -p writes: the records as stored. Compressed bytes from the other
 * byte order cannot be converted, and the rest of the stream is, so for
 * such an input the records they hold are written instead, plainly, and
 * the COMPRESSED feature goes (as pdcat -d does).
 */
static int
passes(const struct stats *st, const struct pd_rec *rec)
{
	if (!st->swapped)
		return !(rec->flags & PD_REC_DECOMPRESSED);
	if (rec_is_compressed(rec->type))
		return 0;
	return pd_feat_id(rec) != PD_FEAT_COMPRESSED;
}

/* Each record after it is counted (stats_each_fn). */
static int
pass_on(void *ctx, struct pd_reader *rd, const struct pd_rec *rec,
    const struct pd_evsel *ev, uint64_t time, const char **why)
{
	struct input *in = ctx;
	int r;

	if (in->names != NULL && names_record(in->names, rec, ev, time) < 0) {
		*why = "out of memory";
		return -1;
	}
	if (in->w != NULL && passes(&in->st, rec)) {
		if (pd_writer_rec(in->w, rec) < 0)
			return -2;
		if (pd_writer_offset(in->w) - in->flushed >= FLUSH_EVERY) {
			if (pd_writer_flush(in->w) < 0)
				return -2;
			in->flushed = pd_writer_offset(in->w);
		}
		if (rec->payload > 0 && (r = pd_writer_payload(in->w, rd)) < 0)
			return r == -2 ? -2 : -3;
	}
	if (status_tick)
		status_show(&in->ss, &in->st);
	return 0;
}

/*
 * Opens the input and what it feeds. Returns the reader, or NULL when
 * the input cannot be read (said; the run goes on to the next one).
 */
static struct pd_reader *
input_open(struct run *run, struct input *in, const char *path)
{
	const struct opts *o = run->o;
	struct pd_reader *rd;
	struct pd_err err;
	int flags = PD_RD_DECOMPRESS | PD_RD_KEEP_COMPRESSED, tapped = 0;

	/* --offcpu reads sched_switch's fields by their formats. */
	if (o->offcpu)
		flags |= PD_RD_TRACEFMT;

	memset(in, 0, sizeof(*in));
	in->run = run;
	rd = run->w != NULL ? tap_open(&in->tap, path, flags, &err) :
	    pd_reader_open(path, flags, &err);
	if (rd == NULL) {
		pd_print_err(&err);
		run->status = PD_EXIT_DATA;
		return NULL;
	}
	pd_interrupt_watch(rd);
	if (stats_open(&in->st, rd) < 0 ||
	    (o->topn > 0 && (in->top = symtop_new(&o->tk)) == NULL) ||
	    ((in->top != NULL || run->cur != NULL || run->pprof != NULL ||
	    run->gecko != NULL) &&
	    (in->names = names_open(&o->so, pd_reader_evlist(rd), in->top,
	    run->cur, run->pprof, run->gecko, !o->no_unwind)) == NULL)) {
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
	if (run->w != NULL) {
		/* A native pipe stream is passed on as it comes in. */
		if (!in->st.swapped &&
		    (tapped = tap_start(&in->tap, rd, run->out.fd)) < 0)
			write_failed(run);
		if (!tapped && pd_writer_header(run->w) < 0)
			write_failed(run);
		in->w = tapped ? NULL : run->w;
		if (isatty(STDERR_FILENO))
			status_start(&in->ss);
	}
	return rd;
}

/* Reads, counts and sums up one input; its outputs go to run. */
static void
input_run(struct run *run, const char *path, int first)
{
	struct input in;
	struct pd_reader *rd;
	const char *note;
	int r, bad;

	if ((rd = input_open(run, &in, path)) == NULL)
		return;
	r = stats_scan(&in.st, rd, in.names != NULL || in.w != NULL ||
	    in.ss.on ? pass_on : NULL, &in);
	/*
	 * names_end first (it hands over the last samples), then always
	 * pprof_input_end: it ends its lookups in the input's files.
	 */
	if (in.names != NULL) {
		bad = names_end(in.names) < 0;
		if (run->pprof != NULL &&
		    pprof_input_end(run->pprof, pd_reader_evlist(rd)) < 0)
			bad = 1;
		if (bad && r == 0) {
			snprintf(in.st.error, sizeof(in.st.error),
			    "out of memory");
			r = -1;
		}
	}
	status_stop(&in.ss);
	/* The rest of a bad stream still goes on, unchanged. */
	if (in.w == NULL && run->w != NULL && (in.tap.werr != 0 || r < 0) &&
	    tap_drain(&in.tap) < 0)
		write_failed(run);
	in.st.left_out = pd_reader_dropped(rd, &in.st.left_out_last);
	in.st.inexact = pd_reader_inexact(rd, &in.st.inexact_last);
	/* The good records before an error reach the output. */
	if (r == -2 || (run->w != NULL && pd_writer_flush(run->w) < 0))
		write_failed(run);
	if (!first && !run->o->json)
		fputc('\n', run->sf);
	(run->o->json ? print_json : print_human)(run->sf, &in.st,
	    pd_reader_evlist(rd), in.top, run->o->topn);
	if (fflush(run->sf) == EOF && run->sf == stdout)
		pd_die_write("standard output");
	if (r < 0) {
		pd_warnx("%s: %s", in.st.input, in.st.error);
		run->status = PD_EXIT_DATA;
		run->incomplete = 1;
	}
	while (in.names != NULL && (note = names_note(in.names)) != NULL) {
		if (run->cur != NULL || run->pprof != NULL ||
		    run->gecko != NULL)
			pd_warnx("%s: %s", in.st.input, note);
		else
			pd_warnx("%s", note);
	}
	if (run->cur != NULL && run->cur == run->flame &&
	    run->cmdline[0] == '\0')
		memcpy(run->cmdline, in.st.hi.cmdline, sizeof(run->cmdline));
	names_close(in.names);
	symtop_free(in.top);
	stats_close(&in.st);
	if (run->w != NULL)
		tap_close(&in.tap, rd);
	else
		pd_reader_close(rd);
}

/* What a profile left out, said (input: what it is called). */
static void
flame_notes(struct run *run, struct flame *fl, const char *what)
{
	uint64_t bad;
	const char *why;
	char ebuf[256];

	if (flame_is_offcpu(fl)) {
		if (flame_offcpu_seen(fl, &bad, &why) == 0)
			pd_warnx("%s: no sched:sched_switch or offcpu-time "
			    "samples: nothing off CPU to show", what);
		if (bad > 0) {
			pd_warnx("%s: %" PRIu64 " switch%s left out: %s", what,
			    bad, bad > 1 ? "es" : "", why);
			run->status = PD_EXIT_DATA;
		}
	} else if (flame_left_out(fl) > 0)
		pd_warnx("%s: %" PRIu64 " samples of other events than %s "
		    "left out", what, flame_left_out(fl),
		    pd_esc_str(flame_event(fl), ebuf, sizeof(ebuf)));
}

/*
 * The flame graph of every input, as stackcollapse-perf.pl: one event;
 * and/or its folded text. With --diff, against the base's.
 */
static void
flame_finish(struct run *run)
{
	const struct opts *o = run->o;
	struct flame *fl = run->flame;
	struct pd_stacks *st = flame_stacks(fl), *joined = NULL;
	struct flame_opts fo;
	const char *ev = flame_event(fl);
	char title[400], evbuf[256];
	int off = flame_is_offcpu(fl);

	memset(&fo, 0, sizeof(fo));
	fo.title = title;
	fo.subtitle = run->cmdline;
	fo.by_period = off;
	fo.countname = off ? "ns" : "samples";
	if (run->base != NULL &&
	    (joined = diff_join(run->base, fl, !o->no_normalize, &fo)) ==
	    NULL) {
		pd_warnx("out of memory");
		run->status = PD_EXIT_DATA;
		return;
	}
	if (off)
		snprintf(evbuf, sizeof(evbuf), "off-CPU time, %" PRIu64
		    " waits", flame_samples(fl));
	else if (ev != NULL)
		snprintf(evbuf, sizeof(evbuf), "%s, %" PRIu64 " samples", ev,
		    flame_samples(fl));
	else
		snprintf(evbuf, sizeof(evbuf), "no samples");
	if (joined != NULL)
		snprintf(title, sizeof(title), "Differential Flame Graph: %s "
		    "against %s%s", evbuf, o->diffbase, o->no_normalize ? "" :
		    " (normalized)");
	else
		snprintf(title, sizeof(title), "Flame Graph: %s", evbuf);
	if (joined != NULL)
		st = joined;
	if (o->foldedpath != NULL && diff_folded(st, o->foldedpath, &fo) < 0)
		run->status = PD_EXIT_DATA;
	if (o->flamepath != NULL &&
	    flame_write_stacks(st, o->flamepath, &fo) < 0)
		run->status = PD_EXIT_DATA;
	if (run->base != NULL)
		flame_notes(run, run->base, o->diffbase);
	flame_notes(run, fl, o->flamepath != NULL ? o->flamepath :
	    o->foldedpath);
	pd_stacks_free(joined);
}

/* A new flame for a run, as the options draw it; exits when it cannot. */
static struct flame *
run_flame(const struct opts *o)
{
	struct flame *fl;

	if ((fl = flame_new()) == NULL ||
	    (o->offcpu && flame_offcpu(fl, o->offcpu_min) < 0)) {
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
	flame_set_inline(fl, o->inl);
	return fl;
}

/*
 * Whether a profile of every input is written (only when each was read
 * to its end); says what has no address, counted as [unknown].
 */
static int
profile_ok(struct run *run, const char *path, uint64_t unknown)
{
	if (run->incomplete || pd_interrupted()) {
		pd_warnx("%s: not written: an input was not read to its end",
		    strcmp(path, "-") == 0 ? "<stdout>" : path);
		run->status = PD_EXIT_DATA;
		return 0;
	}
	if (unknown > 0)
		pd_warnx("%s: %" PRIu64 " sample%s without an address to "
		    "name, counted as [unknown]", path, unknown,
		    unknown > 1 ? "s" : "");
	return 1;
}

int
main(int argc, char **argv)
{
	static char *stdin_only[] = { "-", NULL };
	struct opts o;
	struct run run;
	char **inputs;
	int i, n;

	pd_setprogname(argv[0]);
	n = parse_opts(argc, argv, &o);
	inputs = argc > n ? argv + n : stdin_only;
	memset(&run, 0, sizeof(run));
	run.o = &o;
	run.sf = stdout;
	if (o.flamepath != NULL || o.foldedpath != NULL) {
		run.flame = run_flame(&o);
		if (o.diffbase != NULL)
			run.base = run_flame(&o);
		/* The picture on standard output: the summary goes aside. */
		if ((o.flamepath != NULL && strcmp(o.flamepath, "-") == 0) ||
		    (o.foldedpath != NULL && strcmp(o.foldedpath, "-") == 0))
			run.sf = stderr;
	}
	if (o.pprofpath != NULL) {
		if ((run.pprof = pprof_new()) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		pprof_set_inline(run.pprof, o.inl);
		if (strcmp(o.pprofpath, "-") == 0)
			run.sf = stderr;
	}
	if (o.geckopath != NULL) {
		if ((run.gecko = gecko_new()) == NULL)
			return PD_EXIT_DATA;
		if (strcmp(o.geckopath, "-") == 0)
			run.sf = stderr;
	}
	if (o.pass) {
		if (pd_output_open(&run.out, NULL) < 0)
			return PD_EXIT_USAGE;
		if ((run.w = pd_writer_new(run.out.fd)) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		run.sf = stderr;
	}
	pd_interrupt_init();
	if (o.build_ids) {
		for (i = 0; inputs[i] != NULL; i++)
			if (buildids_run(inputs[i], stdout) < 0)
				run.status = PD_EXIT_DATA;
		if (ferror(stdout) || fclose(stdout) == EOF)
			pd_die_write("standard output");
		return run.status;
	}
	/* --diff: the base first, summed up like the others. */
	if (run.base != NULL) {
		run.cur = run.base;
		input_run(&run, o.diffbase, 1);
	}
	run.cur = run.flame;
	for (i = 0; inputs[i] != NULL && !pd_interrupted(); i++)
		input_run(&run, inputs[i], i == 0 && run.base == NULL);
	if (run.w != NULL && (pd_writer_free(run.w) < 0 ||
	    pd_output_close(&run.out, 1) < 0))
		write_failed(&run);
	if (run.flame != NULL) {
		flame_finish(&run);
		flame_free(run.flame);
		flame_free(run.base);
	}
	if (run.pprof != NULL) {
		if (profile_ok(&run, o.pprofpath, pprof_unknown(run.pprof)) &&
		    pprof_write(run.pprof, o.pprofpath) < 0)
			run.status = PD_EXIT_DATA;
		pprof_free(run.pprof);
	}
	if (run.gecko != NULL) {
		if (profile_ok(&run, o.geckopath, gecko_unknown(run.gecko)) &&
		    gecko_write(run.gecko, o.geckopath) < 0)
			run.status = PD_EXIT_DATA;
		gecko_free(run.gecko);
	}
	if (run.sf == stdout && (ferror(stdout) || fclose(stdout) == EOF))
		pd_die_write("standard output");
	if (run.status == PD_EXIT_OK && pd_interrupted())
		run.status = PD_EXIT_INTR;
	return run.status;
}
