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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcommon/events.h"
#include "libcommon/msg.h"
#include "libcommon/output.h"
#include "libcommon/perf.h"
#include "libcommon/pipebuf.h"
#include "libcommon/synth.h"
#include "libcommon/writer.h"
#include "libcommon/zenc.h"

#define CHUNK_SIZE	(4 << 20)
#define POOL_MAX	16		/* free chunks kept */
#define POOL_PREFAULT	4		/* chunks touched before recording */
#define QUEUE_MAX	((size_t)1 << 30)	/* user-space buffer bound */
#define TRACEFS		"/sys/kernel/tracing"
#define MAX_CPUS	4096

static const char usage_line[] =
    "usage: pdrecord [-adgPqT] [-C cpus] [-c count] [-e events] [-F freq]\n"
    "                [-k clockid] [-m pages] [-o file] [-p pid[,pid]] "
    "[-t tid]\n"
    "                [-z[level]] [--call-graph mode] [--sample-cpu]\n"
    "                [--switch-events] [-- command [arg ...]]\n";

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
		    "  -F, --freq N          samples per second\n"
		    "  -c, --count N         one sample every N events\n"
		    "  -g                    frame-pointer call chains\n"
		    "      --call-graph MODE fp, or dwarf[,SIZE] (user "
		    "registers and stack)\n"
		    "      --sample-cpu      record the CPU of each sample\n"
		    "  -d, --data            sample addresses, data mmaps\n"
		    "  -P, --period          record the sample period\n"
		    "  -T, --timestamp       record times (always on)\n"
		    "      --switch-events   context switch records\n"
		    "  -k, --clockid ID      clock for times (monotonic, "
		    "realtime, ...)\n"
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

/* The user-space queue: a list of chunks, written out in order. */
struct chunk {
	struct chunk	*next;
	size_t		 len;		/* bytes filled */
	size_t		 off;		/* bytes already written */
	unsigned char	 data[];
};

struct queue {
	struct chunk	*head, *tail;
	struct chunk	*free;		/* written chunks kept for reuse */
	int		 nfree;
	size_t		 bytes;		/* queued, not yet written */
};

struct ring {
	int				 fd;
	struct perf_event_mmap_page	*page;
	unsigned char			*data;
	size_t				 size;	/* data area, power of 2 */
};

struct ev {
	struct pd_event		 spec;
	struct perf_event_attr	 attr;
	uint64_t		*ids;
	size_t			 nids;
	int			*fds;	/* per (cpu, thread) slot */
};

/* The set of mapped file names, for HEADER_BUILD_ID at the end. */
struct strset {
	char	**v;
	size_t	  cap, n;
};

static struct {
	int		 all_cpus, data, period, quiet, sample_cpu, switches;
	int		 callchain;	/* 0, 1 fp, 2 dwarf */
	unsigned	 stack_size;
	const char	*cpu_list, *pids, *tids, *events, *outpath;
	long long	 freq, count;
	int		 clockid, use_clockid;
	unsigned	 mmap_pages;
	int		 zlevel;	/* -1: no compression */
} opt = { .stack_size = 8192, .zlevel = -1 };

static volatile sig_atomic_t got_signal, got_child;
static struct queue q;
static struct ev *evs;
static size_t nevs;
static struct ring *rings;
static int nrings;
static int cpus[MAX_CPUS], ncpus;
static pid_t *threads;
static int nthreads;
static struct strset files;
static unsigned long long nsamples, nlost, nbytes;
static int reader_gone;
static int out_fd = -1, direct_failed;
static int cmd_is_target;	/* the command is recorded (not -p/-t) */
static struct pd_writer *zw;	/* -z: the compressor's writer, into */
static struct pd_zenc *zenc;	/* put_out(); NULL without -z */
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

static int
perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group,
	    PERF_FLAG_FD_CLOEXEC);
}

/* The compressor failed (no memory, or zstd said no). */
static void
zfail(void)
{
	pd_warnx("compressing: %s", strerror(errno));
	exit(PD_EXIT_DATA);
}

static void
nomem(void)
{
	pd_warnx("out of memory");
	exit(PD_EXIT_DATA);
}

/* ---- the queue ---- */

/*
 * A chunk with its pages in place (MAP_POPULATE): one call instead of a
 * page fault per page while the rings wait, which costs seconds on some
 * virtual machines. NULL: no memory.
 */
static struct chunk *
chunk_new(void)
{
	void *m = mmap(NULL, sizeof(struct chunk) + CHUNK_SIZE,
	    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
	    -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

static int
queue_put(const void *p, size_t n)
{
	const unsigned char *s = p;
	struct chunk *c;
	size_t k;

	while (n > 0) {
		c = q.tail;
		if (c == NULL || c->len == CHUNK_SIZE) {
			if (q.free != NULL) {
				c = q.free;
				q.free = c->next;
				q.nfree--;
			} else if ((c = chunk_new()) == NULL)
				return -1;
			c->next = NULL;
			c->len = c->off = 0;
			if (q.tail != NULL)
				q.tail->next = c;
			else
				q.head = c;
			q.tail = c;
		}
		k = CHUNK_SIZE - c->len;
		if (k > n)
			k = n;
		memcpy(c->data + c->len, s, k);
		c->len += k;
		q.bytes += k;
		s += k;
		n -= k;
	}
	return 0;
}

/*
 * Writes queued bytes until the output would block (or everything is
 * out). 0, or -1 with errno set (EPIPE: the reader went away).
 */
static int
queue_write(int fd)
{
	struct chunk *c;
	ssize_t r;

	while ((c = q.head) != NULL) {
		if (c->off < c->len) {
			r = write(fd, c->data + c->off, c->len - c->off);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno == EAGAIN)
				return 0;
			if (r < 0)
				return -1;
			c->off += r;
			q.bytes -= r;
			nbytes += r;
			if (c->off < c->len)
				continue;
		}
		if (c == q.tail && c->len < CHUNK_SIZE)
			return 0;	/* keep filling the tail */
		q.head = c->next;
		if (q.head == NULL)
			q.tail = NULL;
		/* Fresh memory costs a page fault per page: keep some. */
		if (q.nfree < POOL_MAX) {
			c->next = q.free;
			q.free = c;
			q.nfree++;
		} else {
			munmap(c, sizeof(*c) + CHUNK_SIZE);
		}
	}
	return 0;
}

/* Blocking: writes everything. 0 or -1. */
static int
queue_drain(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	for (;;) {
		if (queue_write(fd) < 0)
			return -1;
		if (q.bytes == 0)
			return 0;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
	}
}

/* ---- mapped files, for build ids ---- */

static size_t
str_hash(const char *s, size_t cap)
{
	size_t h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	return h & (cap - 1);
}

static void
strset_add(struct strset *s, const char *name)
{
	size_t h, i;

	if (s->n >= 65536)
		return;		/* enough: the rest go without build ids */
	if ((s->n + 1) * 2 > s->cap) {
		struct strset o = *s;

		s->cap = o.cap ? o.cap * 2 : 1024;
		if ((s->v = calloc(s->cap, sizeof(*s->v))) == NULL)
			nomem();
		for (i = 0; i < o.cap; i++) {
			if (o.v[i] == NULL)
				continue;
			for (h = str_hash(o.v[i], s->cap); s->v[h] != NULL;
			    h = (h + 1) & (s->cap - 1))
				;
			s->v[h] = o.v[i];
		}
		free(o.v);
	}
	for (h = str_hash(name, s->cap); s->v[h] != NULL;
	    h = (h + 1) & (s->cap - 1))
		if (strcmp(s->v[h], name) == 0)
			return;
	if ((s->v[h] = strdup(name)) == NULL)
		nomem();
	s->n++;
}

/* What pdrecord notes about every record it passes on. */
static void
note_record(const unsigned char *rec, size_t size)
{
	uint32_t type = pd_get_u32(rec);
	const char *f;

	switch (type) {
	case PERF_RECORD_SAMPLE:
		nsamples++;
		break;
	case PERF_RECORD_LOST:
		if (size >= 24)
			nlost += pd_get_u64(rec + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			nlost += pd_get_u64(rec + 8);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if ((f = pd_synth_mmap_filename(rec, size)) != NULL)
			strset_add(&files, f);
		break;
	}
}

/* Notes every record of a buffer of whole records. */
static void
note_buf(const unsigned char *p, size_t len)
{
	size_t off = 0, sz;

	while (off + 8 <= len) {
		sz = pd_get_u16(p + off + 6);
		if (sz < 8 || off + sz > len)
			break;
		note_record(p + off, sz);
		off += sz;
	}
}

/*
 * Hands bytes to the output: straight to the fd while nothing waits in
 * the queue (no copy, as perf writes from the ring), and into the queue
 * whatever the output does not take at once. 0, or -1 (no memory).
 * Write errors are left for queue_write() to meet again.
 */
static int
put_out(const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n > 0 && q.bytes == 0 && !direct_failed && out_fd >= 0) {
		w = write(out_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (errno != EAGAIN)
				direct_failed = 1;	/* reported later */
			break;
		}
		nbytes += w;
		p += w;
		n -= w;
	}
	return n > 0 ? queue_put(p, n) : 0;
}

/* ---- ring buffers ---- */

/*
 * Moves one ring's new records into the queue. Returns the bytes moved,
 * or -1 when the queue is full (the kernel then counts what it drops)
 * or memory runs out.
 */
static ssize_t
ring_read(struct ring *r)
{
	static unsigned char wrapbuf[PD_REC_MAX + 1];
	uint64_t head, tail, mask = r->size - 1, moved;
	size_t off, sz, first, start;

	head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	tail = r->page->data_tail;
	if (head == tail)
		return 0;
	if (q.bytes + (head - tail) > QUEUE_MAX)
		return -1;
	while (tail < head) {
		off = tail & mask;
		if (off + 8 <= r->size) {
			sz = pd_get_u16(r->data + off + 6);
		} else {
			first = r->size - off;
			memcpy(wrapbuf, r->data + off, first);
			memcpy(wrapbuf + first, r->data, 8 - first);
			sz = pd_get_u16(wrapbuf + 6);
		}
		if (sz < 8 || sz > head - tail)
			break;		/* cannot happen with a sane kernel */
		if (off + sz <= r->size) {
			note_record(r->data + off, sz);
		} else {
			first = r->size - off;
			memcpy(wrapbuf, r->data + off, first);
			memcpy(wrapbuf + first, r->data, sz - first);
			note_record(wrapbuf, sz);
		}
		tail += sz;
	}
	/* The bytes go out as they lie in the ring: at most two pieces. */
	moved = tail - r->page->data_tail;	/* whole records only */
	start = r->page->data_tail & mask;
	first = moved < r->size - start ? moved : r->size - start;
	if (zenc != NULL) {
		if (pd_zenc_put(zenc, r->data + start, first) < 0 ||
		    pd_zenc_put(zenc, r->data, moved - first) < 0)
			zfail();
	} else if (put_out(r->data + start, first) < 0 ||
	    put_out(r->data, moved - first) < 0) {
		nomem();
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return (ssize_t)moved;
}

/* The compressor's writer hands its bytes on here. */
static int
zsink(void *ctx, const void *p, size_t n)
{
	(void)ctx;
	if (put_out(p, n) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* One pass over every ring; FINISHED_ROUND if it moved anything. */
static int
read_rings(void)
{
	/* Built by synth in this host's order, not as little-endian bytes. */
	static struct pd_buf rb;
	const unsigned char *round;
	ssize_t n, total = 0;
	int i, full = 0;

	if (rb.len == 0 && pd_synth_empty(&rb, PD_RECORD_FINISHED_ROUND) < 0)
		nomem();
	round = rb.p;
	for (i = 0; i < nrings; i++) {
		if ((n = ring_read(&rings[i])) < 0)
			full = 1;
		else
			total += n;
	}
	if (total > 0 && zenc != NULL) {
		/* One push per pass: its chunk ends before the round. */
		if (pd_zenc_plain(zenc, round, rb.len) < 0 ||
		    pd_writer_flush(zw) < 0)
			zfail();
	} else if (total > 0 && put_out(round, rb.len) < 0) {
		nomem();
	}
	return full;
}

/* ---- targets ---- */

static int
parse_cpu_list(const char *s)
{
	char *end;
	long a, b;

	ncpus = 0;
	while (*s != '\0') {
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= MAX_CPUS)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= MAX_CPUS)
				return -1;
		}
		for (; a <= b && ncpus < MAX_CPUS; a++)
			cpus[ncpus++] = (int)a;
		s = end;
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return -1;
	}
	return ncpus > 0 ? 0 : -1;
}

static void
online_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char line[4096];

	if (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (parse_cpu_list(line) == 0) {
			fclose(f);
			return;
		}
	}
	if (f != NULL)
		fclose(f);
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (int i = 0; i < ncpus; i++)
		cpus[i] = i;
}

static void
add_thread(pid_t t)
{
	pid_t *n = realloc(threads, (nthreads + 1) * sizeof(*n));

	if (n == NULL)
		nomem();
	threads = n;
	threads[nthreads++] = t;
}

/* Every thread of each pid in a list; -1 if one does not exist. */
static int
add_pids(const char *list, int all_threads)
{
	char *copy = strdup(list), *tok, *save = NULL, *end, path[64];
	long v;

	if (copy == NULL)
		nomem();
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		v = strtol(tok, &end, 10);
		if (*end != '\0' || v <= 0) {
			pd_warnx("bad process id '%s'", tok);
			free(copy);
			return -1;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", v);
		if (access(path, F_OK) != 0) {
			pd_warnx("no such process: %ld", v);
			free(copy);
			return -1;
		}
		if (all_threads) {
			struct dirent **names;
			int n, i;

			n = scandir(path, &names, NULL, alphasort);
			for (i = 0; i < n; i++) {
				if (names[i]->d_name[0] != '.')
					add_thread(atoi(names[i]->d_name));
				free(names[i]);
			}
			if (n >= 0)
				free(names);
		} else {
			add_thread((pid_t)v);
		}
	}
	free(copy);
	return 0;
}

/* ---- events ---- */

static int
mount_tracefs(void)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", TRACEFS);
	if (stat(path, &st) == 0)
		return 0;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) < 0)
		return -1;
	return 0;
}

static int
parse_clockid(const char *s)
{
	static const struct {
		const char	*name;
		int		 id;
	} clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
		{ "mono", CLOCK_MONOTONIC },
		{ "raw", CLOCK_MONOTONIC_RAW },
		{ "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	char *end;
	long v;
	size_t i;

	if (strncasecmp(s, "CLOCK_", 6) == 0)
		s += 6;
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (strcasecmp(s, clocks[i].name) == 0)
			return clocks[i].id;
	v = strtol(s, &end, 10);
	if (*end != '\0' || end == s || v < 0)
		return -1;
	return (int)v;
}

/* x86_64 and arm64 user registers for DWARF unwinding (perf's masks). */
static uint64_t
dwarf_regs_mask(void)
{
#if defined(__x86_64__)
	return 0xff0fffULL;
#elif defined(__aarch64__)
	return (1ULL << 33) - 1;
#else
	return 0;
#endif
}

/* The attrs, from the parsed events and the options. */
static void
build_attrs(int per_cpu_target, int has_command)
{
	uint64_t st;
	size_t i;
	int raw_any = 0;

	for (i = 0; i < nevs; i++)
		raw_any |= evs[i].spec.type == PERF_TYPE_TRACEPOINT;
	for (i = 0; i < nevs; i++) {
		struct pd_event *e = &evs[i].spec;
		struct perf_event_attr *a = &evs[i].attr;
		int leader = e->leader == (int)i;
		int group_read = evs[e->leader].spec.leader_sample &&
		    evs[e->leader].spec.nr_members > 1;

		memset(a, 0, sizeof(*a));
		a->size = PERF_ATTR_SIZE_VER7;	/* what perf 6.1 reads */
		a->type = e->type;
		a->config = e->config;
		st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		st |= nevs > 1 ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
		if (opt.all_cpus || opt.cpu_list != NULL || opt.sample_cpu)
			st |= PERF_SAMPLE_CPU;
		if (opt.callchain)
			st |= PERF_SAMPLE_CALLCHAIN;
		if (opt.callchain == 2) {
			st |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = dwarf_regs_mask();
			a->sample_stack_user = opt.stack_size;
			a->exclude_callchain_user = 1;
			/*
			 * As perf record: an unwinder reading memory outside
			 * the stack copy needs the data maps too (a leaf in
			 * a shared library is not walked past without them).
			 */
			a->mmap_data = i == 0;
		}
		if (opt.data) {
			st |= PERF_SAMPLE_ADDR;
			a->mmap_data = i == 0;
		}
		if (e->type == PERF_TYPE_TRACEPOINT)
			st |= PERF_SAMPLE_RAW;
		if (group_read)
			st |= PERF_SAMPLE_READ;
		a->read_format = PERF_FORMAT_ID;
		if (group_read)
			a->read_format |= PERF_FORMAT_GROUP;
		if (group_read && !leader) {
			a->sample_period = 0;	/* only the leader samples */
		} else if (opt.count > 0) {
			a->sample_period = opt.count;
		} else if (e->type == PERF_TYPE_TRACEPOINT && opt.freq == 0) {
			a->sample_period = 1;
		} else {
			a->freq = 1;
			a->sample_freq = opt.freq > 0 ? opt.freq : 4000;
		}
		if (a->freq || opt.period)
			st |= PERF_SAMPLE_PERIOD;
		a->sample_type = st;
		a->disabled = leader;
		a->inherit = !group_read && opt.tids == NULL && !per_cpu_target;
		a->enable_on_exec = leader && has_command;
		a->exclude_kernel = e->exclude_kernel;
		a->exclude_user = e->exclude_user;
		a->exclude_hv = e->exclude_kernel;
		a->sample_id_all = 1;
		/*
		 * Wake up when an eighth of the ring is full, not half:
		 * on a busy machine the wakeup is the time it takes to be
		 * scheduled, and the rest of the ring has to absorb it.
		 */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(opt.mmap_pages *
		    (size_t)sysconf(_SC_PAGESIZE) / 8);
		if (opt.use_clockid) {
			a->use_clockid = 1;
			a->clockid = opt.clockid;
		}
		if (i == 0) {
			/* The first event tracks tasks and mappings. */
			a->mmap = a->mmap2 = a->comm = a->comm_exec = 1;
			a->task = 1;
			a->context_switch = opt.switches;
		}
	}
	(void)raw_any;
}

/*
 * Ring pages per CPU: perf's 512 KiB when only that may be locked (not
 * root), else 32 MiB per CPU (at most 256 MiB in all, at least 512 KiB),
 * so that the ring rides out the times the recorder is not scheduled:
 * at -a -g -F 50000 on a loaded virtual machine, 4 MiB and 16 MiB rings
 * still overflowed while pdrecord waited for a CPU; 32 MiB did not.
 */
static unsigned
default_mmap_pages(void)
{
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE), per = 32 << 20;
	unsigned pages, p2;

	if (geteuid() != 0)
		per = 512 * 1024;
	else if (per * ncpus > ((size_t)256 << 20))
		per = ((size_t)256 << 20) / ncpus;
	if (per < 512 * 1024)
		per = 512 * 1024;
	pages = (unsigned)(per / pagesz);
	for (p2 = 1; p2 * 2 <= pages; p2 *= 2)
		;
	return p2;
}

/* One line for a failed perf_event_open, saying what to change. */
static void
open_error(const struct ev *e, int err)
{
	int paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

	if (f != NULL) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	if (err == EACCES || err == EPERM)
		pd_warnx("%s: %s (kernel.perf_event_paranoid is %d: run as "
		    "root, or sysctl -w kernel.perf_event_paranoid=%d)",
		    e->spec.name, strerror(err), paranoid,
		    opt.all_cpus || opt.cpu_list ? 0 : 1);
	else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		pd_warnx("%s: event not supported by this kernel or "
		    "hardware", e->spec.name);
	else if (err == EMFILE)
		pd_warnx("%s: too many open files (raise ulimit -n)",
		    e->spec.name);
	else
		pd_warnx("%s: perf_event_open: %s", e->spec.name,
		    strerror(err));
}

/*
 * Opens event i on (pid, cpu), falling back as perf does: hardware
 * events to cpu-clock when there are no counters, and to excluding the
 * kernel when perf_event_paranoid forbids it. The fd, or -1 (errno).
 */
static int
open_one(size_t i, pid_t pid, int cpu, int group_fd, int first)
{
	struct ev *e = &evs[i];
	int fd;

	for (;;) {
		fd = perf_event_open(&e->attr, pid, cpu, group_fd);
		if (fd >= 0 || !first)
			return fd;
		if ((errno == ENOENT || errno == EOPNOTSUPP ||
		    errno == ENODEV || errno == EINVAL) &&
		    (e->attr.type == PERF_TYPE_HARDWARE ||
		    e->attr.type == PERF_TYPE_HW_CACHE)) {
			const char *mods = strchr(e->spec.name, ':');
			char name[sizeof(e->spec.name)];

			if (strcmp(e->spec.name, "cycles") != 0 &&
			    !opt.quiet && e->spec.name[0] != '\0')
				pd_warnx("%s: no hardware counters, using "
				    "cpu-clock", e->spec.name);
			e->attr.type = PERF_TYPE_SOFTWARE;
			e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			snprintf(name, sizeof(name), "cpu-clock%s",
			    mods != NULL ? mods : "");
			snprintf(e->spec.name, sizeof(e->spec.name), "%s",
			    name);
			continue;
		}
		if ((errno == EACCES || errno == EPERM) &&
		    !e->attr.exclude_kernel) {
			e->attr.exclude_kernel = e->attr.exclude_hv = 1;
			continue;
		}
		return -1;
	}
}

/* Opens every event on every slot and maps one ring per CPU. */
static int
open_events(void)
{
	size_t i, slot, nslots = (size_t)ncpus * nthreads;
	long pagesz = sysconf(_SC_PAGESIZE);
	size_t len = (1 + opt.mmap_pages) * (size_t)pagesz;
	int c, t, fd, ringfd, group_fd;
	uint64_t id;

	for (i = 0; i < nevs; i++) {
		evs[i].fds = malloc(nslots * sizeof(int));
		evs[i].ids = malloc(nslots * sizeof(uint64_t));
		if (evs[i].fds == NULL || evs[i].ids == NULL)
			nomem();
	}
	if ((rings = calloc(ncpus, sizeof(*rings))) == NULL)
		nomem();
	for (c = 0; c < ncpus; c++) {
		ringfd = -1;
		for (t = 0; t < nthreads; t++) {
			slot = (size_t)c * nthreads + t;
			for (i = 0; i < nevs; i++) {
				group_fd = evs[i].spec.leader != (int)i ?
				    evs[evs[i].spec.leader].fds[slot] : -1;
				fd = open_one(i, threads[t], cpus[c],
				    group_fd, slot == 0);
				if (fd < 0) {
					if (errno == ESRCH && threads[t] > 0)
						goto gone;	/* exited */
					open_error(&evs[i], errno);
					return -1;
				}
				evs[i].fds[slot] = fd;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
					pd_warnx("PERF_EVENT_IOC_ID: %s",
					    strerror(errno));
					return -1;
				}
				evs[i].ids[evs[i].nids++] = id;
				if (ringfd < 0) {
					void *m = mmap(NULL, len,
					    PROT_READ | PROT_WRITE, MAP_SHARED,
					    fd, 0);

					if (m == MAP_FAILED) {
						pd_warnx("mmap of %zu bytes: "
						    "%s (try a smaller -m, or "
						    "raise ulimit -l)", len,
						    strerror(errno));
						return -1;
					}
					ringfd = fd;
					rings[nrings].fd = fd;
					rings[nrings].page = m;
					rings[nrings].data = (unsigned char *)m +
					    pagesz;
					rings[nrings].size = len - pagesz;
					nrings++;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
				    ringfd) < 0) {
					pd_warnx("PERF_EVENT_IOC_SET_OUTPUT: "
					    "%s", strerror(errno));
					return -1;
				}
			}
			continue;
gone:
			/* A thread of -p/-t that exited: fill its slot. */
			for (; i < nevs; i++)
				evs[i].fds[slot] = -1;
			for (i = 0; i < nevs; i++)
				if (evs[i].fds[slot] >= 0) {
					/* keep: already bound */
				}
		}
	}
	return 0;
}

static void
enable_events(int on)
{
	size_t i, s, nslots = (size_t)ncpus * nthreads;

	for (i = 0; i < nevs; i++) {
		if (evs[i].spec.leader != (int)i)
			continue;
		for (s = 0; s < nslots; s++)
			if (evs[i].fds[s] >= 0)
				ioctl(evs[i].fds[s], on ? PERF_EVENT_IOC_ENABLE :
				    PERF_EVENT_IOC_DISABLE, 0);
	}
}

/* ---- the preamble and the end ---- */

static size_t
id_hdr_size(const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;

	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

static void
put_buf(struct pd_buf *b)
{
	if (queue_put(b->p, b->len) < 0)
		nomem();
	b->len = 0;
}

static int
preamble(int argc, char **argv, pid_t child)
{
	struct pd_synth_event *sev;
	struct pd_synth_tp *tps;
	struct pd_buf b = { 0 };
	unsigned char hdr[PD_PIPE_HDR_SIZE];
	size_t i, ntp = 0, idsz = id_hdr_size(&evs[0].attr);
	int r = -1;

	pd_put_u64(hdr, PD_MAGIC2);
	pd_put_u64(hdr + 8, PD_PIPE_HDR_SIZE);
	if (pd_buf_put(&b, hdr, sizeof(hdr)) < 0)
		nomem();
	sev = calloc(nevs, sizeof(*sev));
	tps = calloc(nevs, sizeof(*tps));
	if (sev == NULL || tps == NULL)
		nomem();
	for (i = 0; i < nevs; i++) {
		if (pd_synth_attr(&b, &evs[i].attr, evs[i].ids,
		    evs[i].nids) < 0) {
			pd_warnx("%s: too many sample ids for one record",
			    evs[i].spec.name);
			goto out;
		}
		sev[i].attr = &evs[i].attr;
		sev[i].name = evs[i].spec.name;
		sev[i].ids = evs[i].ids;
		sev[i].nids = evs[i].nids;
		if (evs[i].spec.type == PERF_TYPE_TRACEPOINT) {
			tps[ntp].sys = evs[i].spec.tp_sys;
			tps[ntp].name = evs[i].spec.tp_name;
			ntp++;
		}
	}
	if (pd_synth_features(&b, argc, argv, sev, nevs) < 0)
		nomem();
	if (zenc != NULL) {
		/* The COMPRESSED feature, after ours, as perf orders them. */
		put_buf(&b);
		if (pd_zenc_feature(zenc) < 0 || pd_writer_flush(zw) < 0)
			zfail();
	}
	if (ntp > 0 && pd_synth_tracing_data(&b, TRACEFS, tps, ntp) < 0) {
		pd_warnx("tracing data from %s: %s", TRACEFS,
		    strerror(errno));
		goto out;
	}
	put_buf(&b);
	if (!evs[0].attr.exclude_kernel &&
	    pd_synth_kernel_mmaps(&b, idsz) < 0)
		nomem();
	if (opt.all_cpus || opt.cpu_list != NULL) {
		if (pd_synth_all_processes(&b, opt.data, idsz) < 0)
			nomem();
	} else if (child > 0 && cmd_is_target) {
		char comm[16];

		snprintf(comm, sizeof(comm), "%s", pd_progname());
		if (pd_synth_comm(&b, child, child, comm, idsz) < 0)
			nomem();
	} else {
		int t;

		/* -p and -t: the processes of the target threads. */
		for (t = 0; t < nthreads; t++) {
			char path[64];
			pid_t tgid = threads[t];
			FILE *f;
			int seen = 0, u;

			snprintf(path, sizeof(path), "/proc/%d/status",
			    (int)threads[t]);
			if ((f = fopen(path, "re")) != NULL) {
				char line[128];

				while (fgets(line, sizeof(line), f) != NULL)
					if (sscanf(line, "Tgid: %d", &tgid) ==
					    1)
						break;
				fclose(f);
			}
			for (u = 0; u < t; u++) {
				/* Tgid of an earlier thread equal? */
				char p2[64];
				FILE *g;
				pid_t tg2 = threads[u];

				snprintf(p2, sizeof(p2), "/proc/%d/status",
				    (int)threads[u]);
				if ((g = fopen(p2, "re")) != NULL) {
					char line[128];

					while (fgets(line, sizeof(line), g) !=
					    NULL)
						if (sscanf(line, "Tgid: %d",
						    &tg2) == 1)
							break;
					fclose(g);
				}
				seen |= tg2 == tgid;
			}
			if (!seen && pd_synth_process(&b, tgid, 0, opt.data,
			    idsz) < 0)
				nomem();
		}
	}
	if (pd_synth_empty(&b, PD_RECORD_FINISHED_INIT) < 0)
		nomem();
	note_buf(b.p, b.len);
	put_buf(&b);
	r = 0;
out:
	pd_buf_free(&b);
	free(sev);
	free(tps);
	return r;
}

/* HEADER_BUILD_ID for the kernel and every mapped ELF file seen. */
static void
build_ids(void)
{
	struct pd_buf b = { 0 };
	unsigned char id[20];
	char path[PATH_MAX];
	size_t i, idlen;
	const char *f;

	if (!evs[0].attr.exclude_kernel &&
	    pd_elf_build_id("/sys/kernel/notes", 1, id, &idlen) == 0 &&
	    pd_synth_build_id(&b, PERF_RECORD_MISC_KERNEL, -1, id, idlen,
	    "[kernel.kallsyms]") < 0)
		nomem();
	for (i = 0; i < files.cap; i++) {
		if ((f = files.v[i]) == NULL)
			continue;
		if (f[0] == '[') {
			/* Kernel modules: "[name]" -> /sys/module/name. */
			size_t n = strcspn(f + 1, "]");

			if (strncmp(f, "[kernel.kallsyms]", 17) == 0 ||
			    f[1 + n] != ']' || n == 0)
				continue;
			snprintf(path, sizeof(path),
			    "/sys/module/%.*s/notes/.note.gnu.build-id",
			    (int)n, f + 1);
			if (pd_elf_build_id(path, 1, id, &idlen) == 0 &&
			    pd_synth_build_id(&b, PERF_RECORD_MISC_KERNEL,
			    -1, id, idlen, f) < 0)
				nomem();
			continue;
		}
		if (f[0] != '/')
			continue;	/* //anon, memfd and the like */
		if (pd_elf_build_id(f, 0, id, &idlen) == 0 &&
		    pd_synth_build_id(&b, PERF_RECORD_MISC_USER, -1, id, idlen,
		    f) < 0)
			nomem();
	}
	if (zenc != NULL) {
		if (pd_zenc_plain(zenc, b.p, b.len) < 0 ||
		    pd_writer_flush(zw) < 0)
			zfail();
	} else {
		put_buf(&b);
	}
	pd_buf_free(&b);
}

/* ---- the command ---- */

/*
 * Forks the command, held before exec until a byte arrives on go[1].
 * *execfd gets the read end of a close-on-exec pipe: end of file there
 * means the exec happened, an errno value that it failed, so that a
 * command that cannot start leaves no output file behind.
 */
static pid_t
start_command(char **argv, int go[2], int *execfd, int stdout_to_stderr)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	int ex[2];
	pid_t pid;
	size_t i;
	char c;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		pd_warnx("pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) < 0) {
		pd_warnx("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		int e;

		/*
		 * Our handlers first go back to the defaults, then the mask:
		 * a SIGTERM sent before the exec must end the command, not
		 * set a flag in this copy of pdrecord and be lost.
		 */
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		close(ex[0]);
		if (stdout_to_stderr)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		/* Wait until the events are open; EOF means give up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		fprintf(stderr, "%s: %s: %s\n", pd_progname(), argv[0],
		    strerror(e));
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	*execfd = ex[0];
	return pid;
}

int
main(int argc, char **argv)
{
	enum { OPT_CALLGRAPH = 256, OPT_SAMPLECPU, OPT_SWITCH, OPT_VERSION };
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
		{ "freq",		required_argument,	NULL, 'F' },
		{ "help",		no_argument,		NULL, 'h' },
		{ "mmap-pages",		required_argument,	NULL, 'm' },
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
	struct pd_output out;
	struct sigaction sa;
	struct pollfd *pfd;
	sigset_t block, orig;
	char why[256], *end;
	pid_t child = -1;
	int c, go[2] = { -1, -1 }, execfd = -1, status = PD_EXIT_OK, child_status = 0;
	int have_cmd, per_cpu_target, i, outflags, hup, default_pages = 0;
	size_t k;

	pd_setprogname(argv[0]);
	/* "+": options end at the command. */
	while ((c = getopt_long(argc, argv, "+aC:c:de:F:ghk:m:o:Pp:qTt:z::",
	    longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			opt.all_cpus = 1;
			break;
		case 'C':
			opt.cpu_list = optarg;
			break;
		case 'c':
			opt.count = strtoll(optarg, &end, 10);
			if (*end != '\0' || opt.count <= 0)
				usage(stderr, PD_EXIT_USAGE);
			break;
		case 'd':
			opt.data = 1;
			break;
		case 'e':
			if (pd_events_parse(optarg, &specs, &nspecs, why,
			    sizeof(why)) < 0) {
				pd_warnx("-e %s: %s", optarg, why);
				return PD_EXIT_USAGE;
			}
			break;
		case 'F':
			if (strcmp(optarg, "max") == 0) {
				opt.freq = 100000;
				break;
			}
			opt.freq = strtoll(optarg, &end, 10);
			if (*end != '\0' || opt.freq <= 0)
				usage(stderr, PD_EXIT_USAGE);
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
				return PD_EXIT_USAGE;
			}
			opt.use_clockid = 1;
			break;
		case 'm':
			opt.mmap_pages = strtoul(optarg, &end, 10);
			if (*end != '\0' || opt.mmap_pages == 0 ||
			    (opt.mmap_pages & (opt.mmap_pages - 1)) != 0) {
				pd_warnx("-m %s: pages must be a power of 2",
				    optarg);
				return PD_EXIT_USAGE;
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
					return PD_EXIT_USAGE;
				}
			}
			break;
		case OPT_CALLGRAPH:
			if (strcmp(optarg, "fp") == 0) {
				opt.callchain = 1;
			} else if (strncmp(optarg, "dwarf", 5) == 0 &&
			    (optarg[5] == '\0' || optarg[5] == ',')) {
				opt.callchain = 2;
				if (optarg[5] == ',') {
					unsigned long sz = strtoul(optarg + 6,
					    &end, 0);

					if (*end != '\0' || sz == 0 ||
					    sz > 65528) {
						pd_warnx("--call-graph %s: "
						    "size must be 8..65528",
						    optarg);
						return PD_EXIT_USAGE;
					}
					opt.stack_size = (sz + 7) & ~7UL;
				}
			} else {
				pd_warnx("--call-graph %s: fp or "
				    "dwarf[,size]", optarg);
				return PD_EXIT_USAGE;
			}
			break;
		case OPT_SAMPLECPU:
			opt.sample_cpu = 1;
			break;
		case OPT_SWITCH:
			opt.switches = 1;
			break;
		case OPT_VERSION:
			pd_print_version();
			return PD_EXIT_OK;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	argc -= optind;
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
	if (opt.mmap_pages == 0)
		default_pages = 1;

	/* Events: perf's default is cycles, which falls back to cpu-clock. */
	if (nspecs == 0 && pd_events_parse("cycles", &specs, &nspecs, why,
	    sizeof(why)) < 0)
		nomem();
	nevs = nspecs;
	if ((evs = calloc(nevs, sizeof(*evs))) == NULL)
		nomem();
	for (k = 0; k < nevs; k++) {
		evs[k].spec = specs[k];
		if (specs[k].type != PERF_TYPE_TRACEPOINT)
			continue;
		if (mount_tracefs() < 0) {
			pd_warnx("%s: tracefs is not mounted on %s and "
			    "mounting it failed: %s", specs[k].name, TRACEFS,
			    strerror(errno));
			return PD_EXIT_DATA;
		}
		long long tpid = pd_tracepoint_id(TRACEFS, specs[k].tp_sys,
		    specs[k].tp_name);
		if (tpid < 0) {
			pd_warnx("%s: no such tracepoint (see %s/events)",
			    specs[k].name, TRACEFS);
			return PD_EXIT_USAGE;
		}
		evs[k].spec.config = (uint64_t)tpid;
	}
	free(specs);
	specs = NULL;

	/* Targets: CPUs times threads. */
	per_cpu_target = opt.all_cpus || opt.cpu_list != NULL;
	if (opt.cpu_list != NULL) {
		if (parse_cpu_list(opt.cpu_list) < 0) {
			pd_warnx("-C %s: bad CPU list", opt.cpu_list);
			return PD_EXIT_USAGE;
		}
	} else {
		online_cpus();
	}
	if (opt.pids != NULL && add_pids(opt.pids, 1) < 0)
		return PD_EXIT_DATA;
	if (opt.tids != NULL && add_pids(opt.tids, 0) < 0)
		return PD_EXIT_DATA;
	if (default_pages)
		opt.mmap_pages = default_mmap_pages();
	build_attrs(per_cpu_target, cmd_is_target && !per_cpu_target);

	if (pd_output_open(&out, opt.outpath) < 0)
		return PD_EXIT_USAGE;
	if (opt.zlevel >= 0) {
		if ((zw = pd_writer_new_sink(zsink, NULL)) == NULL ||
		    (zenc = pd_zenc_new(zw, opt.zlevel,
		    PD_RECORD_COMPRESSED)) == NULL)
			nomem();
	}

	/* Signals are taken only inside ppoll, so none is missed. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

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
	if (open_events() < 0)
		goto fail;
	if (preamble(argc + optind, argv - optind, child) < 0)
		goto fail;
	/* The stream goes out without blocking while recording. */
	out_fd = out.fd;
	pd_pipe_grow(out.fd);
	/*
	 * The preamble (megabytes with -a) goes out before the events
	 * start: a slow first write must not cost samples.
	 */
	if (queue_drain(out.fd) < 0) {
		if (errno == EPIPE) {
			if (child > 0)
				close(go[1]);
			pd_output_abort(&out);
			pd_die_write(out.name);
		}
		pd_warnx("%s: write: %s", out.name, strerror(errno));
		goto fail;
	}
	outflags = fcntl(out.fd, F_GETFL);
	if (out.path == NULL && outflags >= 0)
		fcntl(out.fd, F_SETFL, outflags | O_NONBLOCK);
	/*
	 * Touch some queue memory now: a page fault per fresh page while
	 * the rings fill is time not spent draining them (and costly in
	 * virtual machines).
	 */
	for (i = 0; i < POOL_PREFAULT; i++) {
		struct chunk *ch = chunk_new();

		if (ch == NULL)
			break;
		ch->next = q.free;
		q.free = ch;
		q.nfree++;
	}

	enable_events(1);
	if (child > 0) {
		/* Go: the events start at exec. */
		if (write(go[1], "", 1) != 1) {
			pd_warnx("starting the command: %s", strerror(errno));
			goto fail;
		}
		close(go[1]);
		go[1] = -1;
		if (read(execfd, &c, sizeof(c)) == sizeof(c)) {
			/* It said why; the stream of nothing is not kept. */
			waitpid(child, NULL, 0);
			pd_output_abort(&out);
			return 127;
		}
		close(execfd);
	}

	if ((pfd = calloc(nrings + 1, sizeof(*pfd))) == NULL)
		nomem();
	for (i = 0; i < nrings; i++) {
		pfd[i].fd = rings[i].fd;
		pfd[i].events = POLLIN;
	}
	pfd[nrings].fd = out.fd;
	for (;;) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		int full;

		full = read_rings();
		if (queue_write(out.fd) < 0) {
			if (errno == EPIPE) {
				reader_gone = 1;
				break;
			}
			pd_warnx("%s: write: %s", out.name, strerror(errno));
			status = PD_EXIT_DATA;
			break;
		}
		if (got_signal)
			break;
		/*
		 * Not only on SIGCHLD: ppoll leaves a signal pending when
		 * fds are ready (the command's events hang up at its exit).
		 */
		if (child > 0) {
			got_child = 0;
			if (waitpid(child, &child_status, WNOHANG) == child) {
				child = 0;
				break;
			}
		}
		/* Writable output wakes us only when bytes wait for it. */
		pfd[nrings].events = q.bytes > 0 ? POLLOUT : 0;
		if (full)
			ts.tv_nsec = 1000 * 1000;	/* let the reader catch up */
		if (ppoll(pfd, nrings + 1, &ts, &orig) < 0 && errno != EINTR) {
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
			if (child > 0 && waitpid(child, &child_status, 0) ==
			    child)
				child = 0;
			break;
		}
	}
	enable_events(0);
	free(pfd);
	if (child > 0) {
		/* Stopped by a signal or the reader: end the command too. */
		kill(child, SIGTERM);
		waitpid(child, &child_status, 0);
		child = 0;
	}
	if (reader_gone) {
		errno = EPIPE;
		pd_output_abort(&out);
		pd_die_write(out.name);
	}
	read_rings();
	build_ids();
	if (zenc != NULL && (pd_zenc_free(zenc) < 0 ||
	    pd_writer_free(zw) < 0))
		zfail();
	zenc = NULL;
	if (out.path == NULL && outflags >= 0)
		fcntl(out.fd, F_SETFL, outflags);
	if (queue_drain(out.fd) < 0) {
		if (errno == EPIPE) {
			pd_output_abort(&out);
			pd_die_write(out.name);
		}
		pd_warnx("%s: write: %s", out.name, strerror(errno));
		status = PD_EXIT_DATA;
	}
	if (pd_output_close(&out, status == PD_EXIT_OK) < 0)
		status = PD_EXIT_DATA;
	if (!opt.quiet)
		fprintf(stderr, "%s: %llu bytes, %llu samples, %llu lost\n",
		    pd_progname(), nbytes, nsamples, nlost);
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
