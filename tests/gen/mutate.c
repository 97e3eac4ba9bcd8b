// SPDX-License-Identifier: MIT
/*
 * mutate: runs the tools on random mutations of the given streams, many
 * thousands of runs in a minute, for the hardening tests:
 *	mutate [-j JOBS] [-n N] [-s SEED] [-b BUDGET] [-m MAXLEN]
 *	    -c CMD [-c CMD]... INPUT...
 * Mutant i (i < N) is input i % ninputs with one to three of: bit flips,
 * a truncation (anywhere or near a record boundary), a change of some
 * record's header.size, an interesting value (0, 1, -1, 2^31, ...) in a
 * u32 or u64 of some record or of the file header, a run of 0x00/0xff.
 * Byte order and file mode are understood, so the record and header
 * mutations hit real fields. Deterministic: mutant i depends only on
 * SEED and i. A pipe-mode input longer than MAXLEN (default 256 KiB)
 * is cut at the last record boundary before it: every run pays for the
 * bytes it reads, and the records past that point add no new kinds.
 *
 * Every mutant goes through one variant of each tool (a CMD is a
 * command line split at spaces; CMDs with the same first word are
 * variants of one tool, taken in turn), on standard input from a memfd
 * (a regular file, so file mode works), standard output to /dev/null.
 * A run is bad if the tool dies by a signal other than SIGPIPE, runs
 * past 5 s, exits with anything but 0 or 1, exits 1 without a line
 * naming the offset ("offset 0x"), or prints a sanitizer report. Each
 * bad mutant is kept as bad-m<i>. Runs stop early, said so, once
 * BUDGET seconds (default 100) have passed. Exit 0 if nothing was bad.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD	16
#define MAXJOBS	8
#define TIMEOUT	5.0

extern char **environ;

struct cmd {
	char	*line;		/* as given, for messages */
	char	*argv[16];
	int	 tool;		/* index into tools[] */
};

struct tool {
	const char	*name;
	int		 first, nvar;	/* its variants: cmds[first..] */
	long		 runs, bad;
	double		 slowest;
};

struct slot {
	pid_t	 pid;		/* 0: idle */
	long	 mutant;
	int	 in;		/* memfd holding the mutant */
	int	 err;		/* memfd for the tool's stderr */
	int	 tool;		/* which tool runs now */
	double	 start;
	int	 timed_out;
};

static struct cmd cmds[MAXCMD];
static struct tool tools[MAXCMD];
static int ncmd, ntool;
static unsigned char **in;
static size_t *inlen;
static const char **inname;
static int nin;
static uint64_t seed = 1;
static unsigned char *mbuf;
static long nbad;

/* splitmix64: small, and the same on every libc. */
static uint64_t rng;

static uint64_t
rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t
rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die(const char *what)
{
	fprintf(stderr, "mutate: %s: %s\n", what, strerror(errno));
	exit(2);
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n = 0, r;

	if (f == NULL)
		die(path);
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(p, cap)) == NULL)
				die("realloc");
		}
		r = fread(p + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return p;
}

/* The stream's layout, as far as its header tells. */
struct layout {
	int	be;		/* big-endian writer */
	int	file;		/* file mode */
	size_t	data, end;	/* where records are */
};

static uint64_t
get(const unsigned char *p, int n, int be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * (be ? n - 1 - i : i);
	return v;
}

static void
put(unsigned char *p, uint64_t v, int n, int be)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = v >> 8 * (be ? n - 1 - i : i);
}

static int
layout(const unsigned char *p, size_t len, struct layout *l)
{
	uint64_t hsz, off, sz;

	memset(l, 0, sizeof(*l));
	if (len < 16)
		return -1;
	if (memcmp(p, "2ELIFREP", 8) == 0)
		l->be = 1;
	else if (memcmp(p, "PERFILE2", 8) != 0)
		return -1;
	hsz = get(p + 8, 8, l->be);
	if (hsz == 16) {
		l->data = 16;
		l->end = len;
		return 0;
	}
	if ((hsz != 104 && hsz != 72) || len < hsz)
		return -1;
	l->file = 1;
	off = get(p + 40, 8, l->be);
	sz = get(p + 48, 8, l->be);
	if (off > len)
		return -1;
	l->data = off;
	l->end = sz > len - off ? len : off + sz;
	return 0;
}

/* Offsets of up to `max` record headers. */
static size_t
records(const unsigned char *p, size_t len, const struct layout *l,
    size_t *off, size_t max)
{
	size_t o = l->data, n = 0;
	uint64_t sz;

	while (o + 8 <= l->end && o + 8 <= len && n < max) {
		off[n++] = o;
		sz = get(p + o + 6, 2, l->be);
		if (sz < 8)
			break;
		o += sz;
	}
	return n;
}

/* A pipe-mode stream's length up to the last record end before `max`. */
static size_t
cut_at_record(const unsigned char *p, size_t len, size_t max)
{
	struct layout l;
	size_t o, sz;

	if (layout(p, len, &l) < 0 || l.file)
		return len;
	for (o = l.data; o + 8 <= len; o += sz) {
		sz = get(p + o + 6, 2, l.be);
		if (sz < 8 || o + sz > max)
			break;
	}
	return o;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 9, 16, 64, 0xff, 0x100, 0xfff8, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x100000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xfffffffffffffff8ULL,
	0xffffffffffffffffULL
};
#define NINTERESTING	(sizeof(interesting) / sizeof(interesting[0]))

static size_t
mutate(unsigned char *p, size_t len)
{
	static size_t off[4096];
	static const uint16_t sizes[] = { 0, 1, 7, 8, 9, 16, 0xfff8, 0xffff };
	struct layout l;
	size_t nrec, o, i, k;
	uint64_t v;
	int m = 1 + rnd(3), w;

	while (m-- > 0 && len > 0) {
		nrec = layout(p, len, &l) < 0 ? 0 :
		    records(p, len, &l, off, 4096);
		switch (rnd(8)) {
		case 0:	/* bit flips */
			for (k = 1 + rnd(4); k > 0; k--)
				p[rnd(len)] ^= 1u << rnd(8);
			break;
		case 1:	/* truncation, anywhere or near a record's end */
			if (nrec > 0 && rnd(2)) {
				o = off[rnd(nrec)] + rnd(17);
				if (o < len)
					len = o;
			} else
				len = rnd(len);
			break;
		case 2:	/* header.size of some record */
		case 3:
			if (nrec == 0) {
				p[rnd(len)] = rnd(256);
				break;
			}
			o = off[rnd(nrec)] + 6;
			v = get(p + o, 2, l.be);
			switch (rnd(3)) {
			case 0:	v = sizes[rnd(8)]; break;
			case 1:	v += (rnd(2) ? 8 : -8) * (1 + rnd(4)); break;
			default: v = rnd(65536); break;
			}
			put(p + o, v, 2, l.be);
			break;
		case 4:	/* a count, length or offset inside a record */
		case 5:
			if (nrec == 0)
				break;
			k = rnd(nrec);
			o = off[k];
			v = get(p + o + 6, 2, l.be);
			if (v <= 8 || o + v > len)
				break;
			w = rnd(2) ? 8 : 4;
			o += 8 + rnd((v - 8) / w) * w;
			if (o + w > len)
				break;
			v = interesting[rnd(NINTERESTING)];
			if (rnd(3) == 0)	/* near the old value */
				v = get(p + o, w, l.be) + rnd(17) - 8;
			put(p + o, v, w, l.be);
			break;
		case 6:	/* a file header field: sizes, sections, bits */
			if (!l.file || len < 104) {
				p[rnd(len)] ^= 1u << rnd(8);
				break;
			}
			o = 16 + 8 * rnd(11);
			v = interesting[rnd(NINTERESTING)];
			if (rnd(2))
				v = get(p + o, 8, l.be) + rnd(33) - 16;
			put(p + o, v, 8, l.be);
			break;
		default: /* a run of 0x00 or 0xff, e.g. counts and lengths */
			o = rnd(len);
			k = 1 + rnd(8);
			for (i = 0; i < k && o + i < len; i++)
				p[o + i] = rnd(2) ? 0xff : 0;
			break;
		}
	}
	return len;
}

/* Mutant i in a fresh memfd, rewound. */
static int
make_mutant(long i)
{
	size_t len;
	int j = i % nin, fd;

	rng = seed * 1000003u + (uint64_t)i;
	memcpy(mbuf, in[j], inlen[j]);
	len = mutate(mbuf, inlen[j]);
	if ((fd = memfd_create("mutant", MFD_CLOEXEC)) < 0)
		die("memfd_create");
	if (len > 0 && write(fd, mbuf, len) != (ssize_t)len)
		die("write");
	return fd;
}

static void
keep(long i)
{
	char path[64];
	FILE *f;
	size_t len;
	int j = i % nin;

	rng = seed * 1000003u + (uint64_t)i;
	memcpy(mbuf, in[j], inlen[j]);
	len = mutate(mbuf, inlen[j]);
	snprintf(path, sizeof(path), "bad-m%ld", i);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(mbuf, 1, len, f) != len || fclose(f) != 0)
		die(path);
}

static int devnull;

static void
spawn(struct slot *s)
{
	posix_spawn_file_actions_t fa;
	struct tool *t = &tools[s->tool];
	struct cmd *c = &cmds[t->first + s->mutant % t->nvar];
	int rc;

	if (lseek(s->in, 0, SEEK_SET) < 0 || ftruncate(s->err, 0) < 0 ||
	    lseek(s->err, 0, SEEK_SET) < 0)
		die("lseek");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, s->in, 0);
	posix_spawn_file_actions_adddup2(&fa, devnull, 1);
	posix_spawn_file_actions_adddup2(&fa, s->err, 2);
	rc = posix_spawnp(&s->pid, c->argv[0], &fa, NULL, c->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		die(c->argv[0]);
	}
	s->start = now();
	s->timed_out = 0;
}

/* Whether the tool's stderr is as it should be for exit status `st`. */
static const char *
judge_err(const char *e, int st)
{
	if (strstr(e, "Sanitizer") != NULL || strstr(e, "runtime error:"))
		return "a sanitizer report";
	if (st == 1 && strstr(e, "offset 0x") == NULL)
		return "an error without an offset";
	return NULL;
}

static void
finish(struct slot *s, int status)
{
	struct tool *t = &tools[s->tool];
	struct cmd *c = &cmds[t->first + s->mutant % t->nvar];
	char e[4096], what[128];
	double took = now() - s->start;
	const char *why = NULL;
	ssize_t n;

	n = pread(s->err, e, sizeof(e) - 1, 0);
	e[n > 0 ? n : 0] = '\0';
	t->runs++;
	if (took > t->slowest)
		t->slowest = took;
	if (s->timed_out) {
		why = "ran past 5 s";
	} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGPIPE) {
		snprintf(what, sizeof(what), "killed by signal %d",
		    WTERMSIG(status));
		why = what;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) > 1) {
		snprintf(what, sizeof(what), "exit %d", WEXITSTATUS(status));
		why = what;
	} else if (WIFEXITED(status))
		why = judge_err(e, WEXITSTATUS(status));
	if (why == NULL)
		return;
	t->bad++;
	if (nbad++ < 20) {
		printf("BAD: %s < bad-m%ld (from %s): %s\n%s", c->line,
		    s->mutant, inname[s->mutant % nin], why, e);
		keep(s->mutant);
	}
}

static void
on_alarm(int sig)
{
	(void)sig;
}

static void
usage(void)
{
	fprintf(stderr, "usage: mutate [-j jobs] [-n N] [-s seed] "
	    "[-b budget] [-m maxlen] -c cmd [-c cmd]... input...\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct slot slots[MAXJOBS];
	struct sigaction sa;
	struct itimerval it;
	size_t maxlen = 0;
	long n = 1000, next = 0, done = 0;
	double budget = 100, t0;
	size_t cut = 256 * 1024;
	int jobs = 2, opt, i, j, busy, stopped = 0;
	char *p;

	while ((opt = getopt(argc, argv, "b:c:j:m:n:s:")) != -1) {
		switch (opt) {
		case 'm':
			cut = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			budget = atof(optarg);
			break;
		case 'c':
			if (ncmd == MAXCMD)
				usage();
			cmds[ncmd].line = optarg;
			if ((p = strdup(optarg)) == NULL)
				die("strdup");
			for (i = 0; i < 15 &&
			    (cmds[ncmd].argv[i] = strtok(i ? NULL : p, " "));
			    i++)
				;
			if (cmds[ncmd].argv[0] == NULL)
				usage();
			ncmd++;
			break;
		case 'j':
			jobs = atoi(optarg);
			if (jobs < 1 || jobs > MAXJOBS)
				usage();
			break;
		case 'n':
			n = atol(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (ncmd == 0 || optind == argc)
		usage();
	/* Variants (same first word) of one tool are one tool. */
	for (i = 0; i < ncmd; i++) {
		for (j = 0; j < ntool; j++)
			if (strcmp(tools[j].name, cmds[i].argv[0]) == 0)
				break;
		if (j == ntool) {
			tools[ntool].name = cmds[i].argv[0];
			tools[ntool++].first = i;
		} else if (tools[j].first + tools[j].nvar != i) {
			fprintf(stderr, "mutate: give a tool's variants "
			    "one after another\n");
			return 2;
		}
		tools[j].nvar++;
		cmds[i].tool = j;
	}
	nin = argc - optind;
	in = calloc(nin, sizeof(*in));
	inlen = calloc(nin, sizeof(*inlen));
	inname = calloc(nin, sizeof(*inname));
	if (in == NULL || inlen == NULL || inname == NULL)
		die("calloc");
	for (j = 0; j < nin; j++) {
		inname[j] = argv[optind + j];
		in[j] = slurp(inname[j], &inlen[j]);
		if (inlen[j] > cut)
			inlen[j] = cut_at_record(in[j], inlen[j], cut);
		if (inlen[j] > maxlen)
			maxlen = inlen[j];
	}
	if ((mbuf = malloc(maxlen + 1)) == NULL)
		die("malloc");
	if ((devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		die("/dev/null");

	/* A tick that interrupts waitpid, to find runs past the timeout. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	it.it_interval.tv_sec = it.it_value.tv_sec = 0;
	it.it_interval.tv_usec = it.it_value.tv_usec = 250000;
	setitimer(ITIMER_REAL, &it, NULL);

	t0 = now();
	memset(slots, 0, sizeof(slots));
	for (i = 0; i < jobs; i++) {
		slots[i].in = -1;
		if ((slots[i].err = memfd_create("err", MFD_CLOEXEC)) < 0)
			die("memfd_create");
	}
	for (;;) {
		/* Give idle slots their next mutant. */
		for (i = 0; i < jobs; i++) {
			if (slots[i].pid != 0 || slots[i].in >= 0)
				continue;
			if (!stopped && now() - t0 > budget)
				stopped = 1;
			if (next >= n || stopped)
				continue;
			slots[i].mutant = next++;
			slots[i].in = make_mutant(slots[i].mutant);
			slots[i].tool = 0;
			spawn(&slots[i]);
		}
		for (busy = 0, i = 0; i < jobs; i++)
			busy += slots[i].pid != 0;
		if (busy == 0)
			break;
		{
			int status;
			pid_t pid = waitpid(-1, &status, 0);
			double tnow = now();

			if (pid < 0 && errno != EINTR)
				die("waitpid");
			for (i = 0; i < jobs; i++) {
				struct slot *s = &slots[i];

				if (s->pid == 0)
					continue;
				if (pid < 0 || s->pid != pid) {
					if (!s->timed_out &&
					    tnow - s->start > TIMEOUT) {
						kill(s->pid, SIGKILL);
						s->timed_out = 1;
					}
					continue;
				}
				s->pid = 0;
				finish(s, status);
				if (++s->tool < ntool) {
					spawn(s);
				} else {
					close(s->in);
					s->in = -1;
					done++;
				}
			}
		}
	}
	for (j = 0; j < ntool; j++)
		printf("%s: %ld mutants, %d variant%s, %ld bad, slowest "
		    "%.2f s\n", tools[j].name, tools[j].runs, tools[j].nvar,
		    tools[j].nvar > 1 ? "s" : "", tools[j].bad,
		    tools[j].slowest);
	printf("%ld of %ld mutants of %d inputs, %d jobs, %.1f s%s\n", done,
	    n, nin, jobs, now() - t0,
	    stopped ? " (stopped at the time budget)" : "");
	for (j = 0; j < nin; j++)
		free(in[j]);
	free(in);
	free(inlen);
	free(inname);
	free(mbuf);
	return nbad > 0;
}
