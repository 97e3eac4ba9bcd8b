/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: record with perf_event_open(2) straight into a pipe-mode
 * perf.data stream.
 *
 * One thread. The kernel's ring buffers (one per CPU) are drained into a
 * user-space queue, and the queue is written to the output without ever
 * blocking while the rings need draining: a slow reader makes the queue
 * grow (up to QUEUE_MAX), not the kernel drop samples.
 */
#include "pdrecord/extern.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pipebuf.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zenc.h"

static const char usage_line[] =
    "usage: pdrecord [-adgiPqT] [-C cpus] [-c count] [-e events] [-F freq]\n"
    "                [-k clockid] [-m pages] [-o file] [-p pid[,pid]] "
    "[-t tid]\n"
    "                [-z[level]] [--call-graph mode] [--filter filter]\n"
    "                [--sample-cpu] [--switch-events] [-- command [arg ...]]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Record with perf_event_open into a pipe-mode perf.data "
		    "stream.\n\n"
		    "  -a, --all-cpus        all CPUs\n"
		    "  -C, --cpu LIST        these CPUs (0,2-3)\n"
		    "  -p, --pid PID[,PID]   these processes\n"
		    "  -t, --tid TID[,TID]   these threads\n"
		    "  -e, --event LIST      events (default: cycles, or "
		    "cpu-clock without counters)\n"
		    "                        (name[:mods], sys:name, "
		    "pmu/config=N,name=x/)\n"
		    "      --filter EXPR     the kernel's filter for the "
		    "tracepoints of the -e before\n"
		    "  -F, --freq N          samples per second (or max: the "
		    "kernel's)\n"
		    "  -c, --count N         one sample every N events\n"
		    "  -g                    frame-pointer call chains\n"
		    "      --call-graph MODE fp, or dwarf[,SIZE] (user "
		    "registers and stack)\n"
		    "      --sample-cpu      record the CPU of each sample\n"
		    "  -d, --data            sample addresses, data mmaps\n"
		    "  -P, --period          record the sample period\n"
		    "  -T, --timestamp       record times (always on)\n"
		    "      --switch-events   context switch records\n"
		    "  -i, --no-inherit      not the threads and processes "
		    "the targets start\n"
		    "  -k, --clockid ID      clock for times (monotonic, the "
		    "default,\n"
		    "                        realtime, ...); written with "
		    "the wall clock\n"
		    "  -m, --mmap-pages N    ring buffer pages per CPU (power "
		    "of 2)\n"
		    "  -z, --compression-level[=N]  zstd-compress the "
		    "recorded data\n"
		    "  -o, --output FILE     write to FILE (default: standard "
		    "output)\n"
		    "  -q, --quiet           no summary\n"
		    "  -h, --help            this help\n"
		    "      --version         print the version\n", f);
	exit(status);
}

static volatile sig_atomic_t got_signal, got_child;
static struct pd_event *specs;	/* -e, parsed */
static size_t nspecs;

static void
on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_child = 1;
	else
		got_signal = sig;
}

/* --call-graph fp or dwarf[,SIZE]; a bad one ends the program. */
static void
parse_call_graph(const char *arg)
{
	unsigned long sz;
	char *end;

	if (strcmp(arg, "fp") == 0) {
		opt.callchain = 1;
		return;
	}
	if (strncmp(arg, "dwarf", 5) != 0 || (arg[5] != '\0' &&
	    arg[5] != ',')) {
		pd_warnx("--call-graph %s: fp or dwarf[,size]", arg);
		exit(PD_EXIT_USAGE);
	}
	opt.callchain = 2;
	if (arg[5] == '\0')
		return;
	sz = strtoul(arg + 6, &end, 0);
	if (*end != '\0' || sz == 0 || sz > 65528) {
		pd_warnx("--call-graph %s: size must be 8..65528", arg);
		exit(PD_EXIT_USAGE);
	}
	opt.stack_size = (sz + 7) & ~7UL;
}

#define MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"

/* The kernel's limit on -F, as perf reads it (100000 when unknown). */
static long long
max_sample_rate(void)
{
	FILE *f = fopen(MAX_RATE_PATH, "re");
	long long v = 0;

	if (f != NULL) {
		if (fscanf(f, "%lld", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 0 ? v : 100000;
}

/*
 * Above the limit the kernel refuses the event; perf 6.1 lowers -F to
 * it with a warning (--strict-freq would refuse), and so does pdrecord.
 */
static void
limit_freq(const char *arg)
{
	long long max = max_sample_rate();

	if (opt.freq <= max)
		return;
	pd_warnx("-F %s: above the maximum of %lld Hz (%s); recording at "
	    "%lld, as perf does", arg, max, MAX_RATE_PATH, max);
	opt.freq = max;
}

/*
 * The options into opt, and -e's events into specs; returns how many
 * arguments they took. A bad one ends the program (status 2).
 */
static int
parse_options(int argc, char **argv)
{
	enum { OPT_CALLGRAPH = 256, OPT_SAMPLECPU, OPT_SWITCH, OPT_VERSION,
	    OPT_FILTER };
	static const struct option longopts[] = {
		{ "all-cpus",		no_argument,		NULL, 'a' },
		{ "call-graph",		required_argument,	NULL,
		    OPT_CALLGRAPH },
		{ "clockid",		required_argument,	NULL, 'k' },
		{ "compression-level",	optional_argument,	NULL, 'z' },
		{ "count",		required_argument,	NULL, 'c' },
		{ "cpu",		required_argument,	NULL, 'C' },
		{ "data",		no_argument,		NULL, 'd' },
		{ "event",		required_argument,	NULL, 'e' },
		{ "filter",		required_argument,	NULL, OPT_FILTER },
		{ "freq",		required_argument,	NULL, 'F' },
		{ "help",		no_argument,		NULL, 'h' },
		{ "mmap-pages",		required_argument,	NULL, 'm' },
		{ "no-inherit",		no_argument,		NULL, 'i' },
		{ "output",		required_argument,	NULL, 'o' },
		{ "period",		no_argument,		NULL, 'P' },
		{ "pid",		required_argument,	NULL, 'p' },
		{ "quiet",		no_argument,		NULL, 'q' },
		{ "sample-cpu",		no_argument,		NULL,
		    OPT_SAMPLECPU },
		{ "switch-events",	no_argument,		NULL, OPT_SWITCH },
		{ "tid",		required_argument,	NULL, 't' },
		{ "timestamp",		no_argument,		NULL, 'T' },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	char why[256], *end;
	size_t k, last_e = 0;
	int c;

	while ((c = getopt_long(argc, argv, "+aC:c:de:F:ghik:m:o:Pp:qTt:z::",
	    longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			opt.all_cpus = 1;
			break;
		case 'i':
			opt.no_inherit = 1;
			break;
		case 'C':
			opt.cpu_list = optarg;
			break;
		case 'c':
			errno = 0;
			opt.count = strtoll(optarg, &end, 10);
			if (end == optarg || *end != '\0' || errno != 0 ||
			    opt.count <= 0) {
				pd_warnx("-c %s: not a sample period (events "
				    "per sample: 1 or more)", optarg);
				exit(PD_EXIT_USAGE);
			}
			break;
		case 'd':
			opt.data = 1;
			break;
		case 'e':
			last_e = nspecs;
			if (pd_events_parse(optarg, &specs, &nspecs, why,
			    sizeof(why)) < 0) {
				pd_warnx("-e %s: %s", optarg, why);
				exit(PD_EXIT_USAGE);
			}
			break;
		case 'F':
			if (strcmp(optarg, "max") == 0) {
				opt.freq = max_sample_rate();
				break;
			}
			errno = 0;
			opt.freq = strtoll(optarg, &end, 10);
			if (end == optarg || *end != '\0' || errno != 0 ||
			    opt.freq <= 0) {
				pd_warnx("-F %s: not a frequency (samples per "
				    "second: 1 or more, or max)", optarg);
				exit(PD_EXIT_USAGE);
			}
			limit_freq(optarg);
			break;
		case 'g':
			opt.callchain = 1;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'k':
			if ((opt.clockid = parse_clockid(optarg)) < 0) {
				pd_warnx("unknown clock '%s'", optarg);
				exit(PD_EXIT_USAGE);
			}
			opt.use_clockid = 1;
			break;
		case 'm':
			opt.mmap_pages = strtoul(optarg, &end, 10);
			if (*end != '\0' || opt.mmap_pages == 0 ||
			    (opt.mmap_pages & (opt.mmap_pages - 1)) != 0) {
				pd_warnx("-m %s: pages must be a power of 2",
				    optarg);
				exit(PD_EXIT_USAGE);
			}
			break;
		case 'o':
			opt.outpath = optarg;
			break;
		case 'P':
			opt.period = 1;
			break;
		case 'p':
			opt.pids = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'T':
			break;		/* times are always recorded */
		case 't':
			opt.tids = optarg;
			break;
		case 'z':
			opt.zlevel = 1;
			if (optarg != NULL) {
				opt.zlevel = (int)strtol(optarg, &end, 10);
				if (*end != '\0' || opt.zlevel < 1 ||
				    opt.zlevel > 22) {
					pd_warnx("-z%s: level must be 1..22",
					    optarg);
					exit(PD_EXIT_USAGE);
				}
			}
			break;
		case OPT_CALLGRAPH:
			parse_call_graph(optarg);
			break;
		case OPT_SAMPLECPU:
			opt.sample_cpu = 1;
			break;
		case OPT_FILTER:
			/* As perf's: on the tracepoints of the last -e. */
			if (nspecs == 0 || specs[nspecs - 1].type !=
			    PERF_TYPE_TRACEPOINT) {
				pd_warnx("--filter %s: it goes after an -e of "
				    "tracepoints", optarg);
				exit(PD_EXIT_USAGE);
			}
			for (k = nspecs; k > 0 && specs[k - 1].type ==
			    PERF_TYPE_TRACEPOINT && k > last_e; k--)
				specs[k - 1].filter = optarg;
			break;
		case OPT_SWITCH:
			opt.switches = 1;
			break;
		case OPT_VERSION:
			pd_print_version();
			exit(PD_EXIT_OK);
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	return optind;
}

/* The events to open: perf's default, tracepoints' ids from tracefs. */
static void
choose_events(void)
{
	char why[256];
	size_t k;
	int r;

	/* Events: perf's default is cycles, which falls back to cpu-clock. */
	if (nspecs == 0 && pd_events_parse("cycles", &specs, &nspecs, why,
	    sizeof(why)) < 0)
		pd_die_nomem();
	/* Tracepoint globs ("sched:*"), expanded as perf expands them. */
	for (k = 0; k < nspecs; k++) {
		int m;

		if (!pd_event_is_glob(&specs[k]))
			continue;
		if (specs[k].leader != (int)k || specs[k].nr_members > 1) {
			pd_warnx("%s: a tracepoint glob cannot be in a group",
			    specs[k].name);
			exit(PD_EXIT_USAGE);
		}
		if ((r = mount_tracefs()) < 0) {
			tracefs_error(specs[k].name, r);
			exit(PD_EXIT_DATA);
		}
		if ((m = pd_event_glob(TRACEFS, &specs, &nspecs, k)) < 0)
			pd_die_nomem();
		if (m == 0) {
			pd_warnx("%s: no tracepoint matches (see %s/events)",
			    specs[k].name, TRACEFS);
			exit(PD_EXIT_USAGE);
		}
		k += m - 1;
	}
	nevs = nspecs;
	if ((evs = calloc(nevs, sizeof(*evs))) == NULL)
		pd_die_nomem();
	for (k = 0; k < nevs; k++) {
		evs[k].spec = specs[k];
		if (specs[k].type != PERF_TYPE_TRACEPOINT ||
		    specs[k].pmu_syntax)
			continue;
		if ((r = mount_tracefs()) < 0) {
			tracefs_error(specs[k].name, r);
			exit(PD_EXIT_DATA);
		}
		long long tpid = pd_tracepoint_id(TRACEFS, specs[k].tp_sys,
		    specs[k].tp_name);
		if (tpid < 0 && errno == EACCES) {
			tracefs_error(specs[k].name, -2);
			exit(PD_EXIT_DATA);
		}
		if (tpid < 0) {
			pd_warnx("%s: no such tracepoint (see %s/events)",
			    specs[k].name, TRACEFS);
			exit(PD_EXIT_USAGE);
		}
		evs[k].spec.config = (uint64_t)tpid;
	}
	free(specs);
	specs = NULL;

}

/*
 * Signals are taken only inside ppoll, so none is missed: *orig is the
 * mask ppoll waits with.
 */
static void
take_signals(sigset_t *orig)
{
	struct sigaction sa;
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, orig);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * Drains the rings to the output until a signal, the command's end (its
 * status in *child_status, *child then 0), every -p/-t thread's end, or
 * the reader's (reader_gone). PD_EXIT_OK, or PD_EXIT_DATA after saying
 * why.
 */
static int
record(const struct pd_output *out, pid_t *child, int *child_status,
    int per_cpu_target, const sigset_t *orig)
{
	struct pollfd *pfd;
	int i, hup, status = PD_EXIT_OK;

	if ((pfd = calloc(nrings + 1, sizeof(*pfd))) == NULL)
		pd_die_nomem();
	for (i = 0; i < nrings; i++) {
		pfd[i].fd = rings[i].fd;
		pfd[i].events = POLLIN;
	}
	pfd[nrings].fd = out->fd;
	for (;;) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		int full;

		full = read_rings();
		if (queue_write(out->fd) < 0) {
			if (errno == EPIPE) {
				reader_gone = 1;
				break;
			}
			pd_warnx("%s: write: %s", out->name, strerror(errno));
			status = PD_EXIT_DATA;
			break;
		}
		if (got_signal)
			break;
		/*
		 * Not only on SIGCHLD: ppoll leaves a signal pending when
		 * fds are ready (the command's events hang up at its exit).
		 */
		if (*child > 0) {
			got_child = 0;
			if (waitpid(*child, child_status, WNOHANG) == *child) {
				*child = 0;
				break;
			}
		}
		/* Writable output wakes us only when bytes wait for it. */
		pfd[nrings].events = q.bytes > 0 ? POLLOUT : 0;
		if (full)
			ts.tv_nsec = 1000 * 1000;	/* let the reader catch up */
		if (ppoll(pfd, nrings + 1, &ts, orig) < 0 && errno != EINTR) {
			pd_warnx("poll: %s", strerror(errno));
			status = PD_EXIT_DATA;
			break;
		}
		if (pfd[nrings].revents & (POLLERR | POLLHUP)) {
			reader_gone = 1;
			break;
		}
		/* -p/-t: every target thread is gone. */
		for (hup = 0, i = 0; i < nrings; i++)
			hup += (pfd[i].revents & POLLHUP) != 0;
		if (hup == nrings && !per_cpu_target) {
			if (*child > 0 && waitpid(*child, child_status, 0) ==
			    *child)
				*child = 0;
			break;
		}
	}
	free(pfd);
	return status;
}

/*
 * The rest after recording: the rings' last records, the build ids, the
 * compressor's end, the queue written out. A closed output ends the
 * program as SIGPIPE would.
 */
static int
finish(struct pd_output *out, int outflags)
{
	int status = PD_EXIT_OK;

	if (reader_gone) {
		errno = EPIPE;
		pd_output_abort(out);
		pd_die_write(out->name);
	}
	read_rings();
	build_ids();
	if (zenc != NULL && (pd_zenc_free(zenc) < 0 ||
	    pd_writer_free(zw) < 0))
		zfail();
	zenc = NULL;
	if (out->path == NULL && outflags >= 0)
		fcntl(out->fd, F_SETFL, outflags);
	if (queue_drain(out->fd) < 0) {
		if (errno == EPIPE) {
			pd_output_abort(out);
			pd_die_write(out->name);
		}
		pd_warnx("%s: write: %s", out->name, strerror(errno));
		status = PD_EXIT_DATA;
	}
	return status;
}

/*
 * The preamble (megabytes with -a) goes out before the events start: a
 * slow first write must not cost samples. Then the output stops blocking,
 * and some queue memory is touched now: a page fault per fresh page while
 * the rings fill is time not spent draining them (and costly in virtual
 * machines). Returns the output's old flags for finish().
 */
static int
start_output(struct pd_output *out, pid_t child, int go)
{
	struct chunk *ch;
	int i, outflags;

	out_fd = out->fd;
	pd_pipe_grow(out->fd);
	if (queue_drain(out->fd) < 0) {
		if (errno == EPIPE) {
			if (child > 0)
				close(go);
			pd_output_abort(out);
			pd_die_write(out->name);
		}
		pd_warnx("%s: write: %s", out->name, strerror(errno));
		return -2;
	}
	outflags = fcntl(out->fd, F_GETFL);
	if (out->path == NULL && outflags >= 0)
		fcntl(out->fd, F_SETFL, outflags | O_NONBLOCK);
	for (i = 0; i < POOL_PREFAULT && (ch = chunk_new(1)) != NULL; i++) {
		ch->next = q.free;
		q.free = ch;
		q.nfree++;
	}
	return outflags;
}

int
main(int argc, char **argv)
{
	struct pd_output out;
	sigset_t orig;
	pid_t child = -1;
	int go[2] = { -1, -1 }, execfd = -1, err, status, child_status = 0;
	int have_cmd, per_cpu_target, outflags, default_pages, r;

	pd_setprogname(argv[0]);
	/* "+": options end at the command. */
	argc -= parse_options(argc, argv);
	argv += optind;
	have_cmd = argc > 0;
	if (!have_cmd && !opt.all_cpus && opt.cpu_list == NULL &&
	    opt.pids == NULL && opt.tids == NULL) {
		pd_warnx("no target: give -a, -C, -p, -t or a command");
		usage(stderr, PD_EXIT_USAGE);
	}
	if ((opt.pids != NULL || opt.tids != NULL) &&
	    (opt.all_cpus || opt.cpu_list != NULL)) {
		pd_warnx("-p and -t go without -a and -C");
		return PD_EXIT_USAGE;
	}
	/* With -p or -t, a command only says how long to record. */
	cmd_is_target = have_cmd && opt.pids == NULL && opt.tids == NULL;
	default_pages = opt.mmap_pages == 0;
	choose_events();

	/* Targets: CPUs times threads. */
	per_cpu_target = opt.all_cpus || opt.cpu_list != NULL;
	if (opt.cpu_list != NULL) {
		if (parse_cpu_list(opt.cpu_list) < 0) {
			pd_warnx("-C %s: bad CPU list", opt.cpu_list);
			return PD_EXIT_USAGE;
		}
		if (check_cpus_online(opt.cpu_list) < 0)
			return PD_EXIT_USAGE;
	} else {
		online_cpus();
	}
	if (opt.pids != NULL && (r = add_pids(opt.pids, 1)) < 0)
		return r == -2 ? PD_EXIT_USAGE : PD_EXIT_DATA;
	if (opt.tids != NULL && (r = add_pids(opt.tids, 0)) < 0)
		return r == -2 ? PD_EXIT_USAGE : PD_EXIT_DATA;
	if (default_pages)
		opt.mmap_pages = default_mmap_pages();
	build_attrs(per_cpu_target, cmd_is_target && !per_cpu_target);

	if (pd_output_open(&out, opt.outpath) < 0)
		return PD_EXIT_USAGE;
	if (opt.zlevel >= 0) {
		if ((zw = pd_writer_new_sink(zsink, NULL)) == NULL ||
		    (zenc = pd_zenc_new(zw, opt.zlevel,
		    PD_RECORD_COMPRESSED)) == NULL)
			pd_die_nomem();
	}
	take_signals(&orig);
	if (have_cmd) {
		child = start_command(argv, go, &execfd, out.path == NULL);
		if (child < 0)
			goto fail;
		if (!per_cpu_target && cmd_is_target)
			add_thread(child);
	}
	if (per_cpu_target)
		add_thread(-1);
	if (nthreads == 0) {
		pd_warnx("no threads to record");
		goto fail;
	}
	if (open_events() < 0 || preamble(argc + optind, argv - optind,
	    child) < 0 || (outflags = start_output(&out, child, go[1])) == -2)
		goto fail;

	enable_events(1);
	if (child > 0) {
		/* Go: the events start at exec. */
		if (write(go[1], "", 1) != 1) {
			pd_warnx("starting the command: %s", strerror(errno));
			goto fail;
		}
		close(go[1]);
		go[1] = -1;
		if (read(execfd, &err, sizeof(err)) == sizeof(err)) {
			/* It said why; the stream of nothing is not kept. */
			waitpid(child, NULL, 0);
			pd_output_abort(&out);
			return 127;
		}
		close(execfd);
	}
	status = record(&out, &child, &child_status, per_cpu_target, &orig);
	enable_events(0);
	if (child > 0) {
		/* Stopped by a signal or the reader: end the command too. */
		kill(child, SIGTERM);
		waitpid(child, &child_status, 0);
		child = 0;
	}
	if (finish(&out, outflags) != PD_EXIT_OK)
		status = PD_EXIT_DATA;
	if (pd_output_close(&out, status == PD_EXIT_OK) < 0)
		status = PD_EXIT_DATA;
	/*
	 * On a terminal the line is cleared first: a live status line
	 * further down the pipeline (pdstat -p) may still show there.
	 */
	if (!opt.quiet)
		fprintf(stderr, "%s%s: %llu bytes, %llu samples, %llu lost\n",
		    isatty(STDERR_FILENO) ? "\r\033[K" : "", pd_progname(),
		    nbytes, nsamples, nlost);
	if (status == PD_EXIT_OK && have_cmd) {
		if (WIFEXITED(child_status))
			status = WEXITSTATUS(child_status);
		else if (WIFSIGNALED(child_status))
			status = 128 + WTERMSIG(child_status);
	}
	return status;

fail:
	if (child > 0) {
		if (go[1] >= 0)
			close(go[1]);	/* the command gives up unstarted */
		waitpid(child, NULL, 0);
	}
	pd_output_abort(&out);
	return PD_EXIT_DATA;
}
