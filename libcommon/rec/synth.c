/* SPDX-License-Identifier: MIT */
#include "libcommon/rec/synth.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "libcommon/rec/buildid.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"

#ifndef PD_VERSION
#define PD_VERSION "unknown"
#endif

#define NAME_ALIGN	64	/* perf header strings */

int
pd_synth_put(struct pd_synth *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *np;

		while (cap < b->len + n)
			cap *= 2;
		if ((np = realloc(b->p, cap)) == NULL)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	if (p != NULL)
		memcpy(b->p + b->len, p, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
	return 0;
}

void
pd_synth_free(struct pd_synth *b)
{
	struct pd_buildid_cache *bids = b->bids;

	free(b->p);
	memset(b, 0, sizeof(*b));
	b->bids = bids;		/* the caller's */
}

static int
put_hdr(struct pd_synth *b, uint32_t type, uint16_t misc, size_t size)
{
	unsigned char h[PD_REC_HDR_SIZE];

	pd_header_put(h, type, misc, size, 0);
	return pd_synth_put(b, h, sizeof(h));
}

/*
 * Room at the end of the buffer for a record of `size` bytes, which one
 * of event.h's builders (asked for the size first, with cap 0) fills:
 * 0 with *p set, or *p NULL when the record is larger than a record can
 * be (perf leaves such a one out, too); -1 for no memory.
 */
static int
put_rec(struct pd_synth *b, size_t size, unsigned char **p)
{
	*p = NULL;
	if (size > PD_REC_MAX)
		return 0;
	if (pd_synth_put(b, NULL, size) < 0)
		return -1;
	*p = b->p + b->len - size;
	return 0;
}

static int
put_u32(struct pd_synth *b, uint32_t v)
{
	return pd_synth_put(b, &v, sizeof(v));
}

static int
put_u64(struct pd_synth *b, uint64_t v)
{
	return pd_synth_put(b, &v, sizeof(v));
}

/* A NUL-terminated string padded with zeros to a multiple of `align`. */
static int
put_str(struct pd_synth *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1, padded = (n + align - 1) / align * align;

	if (pd_synth_put(b, s, n) < 0)
		return -1;
	return pd_synth_put(b, NULL, padded - n);
}

/* A perf header string: u32 length, then the padded string. */
static int
put_hstr(struct pd_synth *b, const char *s)
{
	size_t n = (strlen(s) + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	if (put_u32(b, (uint32_t)n) < 0)
		return -1;
	return put_str(b, s, NAME_ALIGN);
}

int
pd_synth_attr(struct pd_synth *b, const struct perf_event_attr *attr,
    const uint64_t *ids, size_t nids)
{
	size_t asz = PD_ALIGN8(attr->size), n, done = 0;
	size_t max = pd_record_header_attr_ids_max(attr->size);

	/* More ids than one record holds: several (event.h). */
	do {
		n = nids - done < max ? nids - done : max;
		if (put_hdr(b, PD_RECORD_HEADER_ATTR, done > 0 ?
		    PD_RECORD_MISC_ATTR_MORE : 0, 8 + asz + 8 * n) < 0 ||
		    pd_synth_put(b, attr, attr->size) < 0 ||
		    pd_synth_put(b, NULL, asz - attr->size) < 0 ||
		    pd_synth_put(b, ids + done, 8 * n) < 0)
			return -1;
		done += n;
	} while (done < nids);
	return 0;
}

int
pd_synth_feature(struct pd_synth *b, unsigned feat, const void *body,
    size_t len)
{
	size_t size = pd_record_header_feature_build(NULL, 0, feat, body,
	    len, 0);
	unsigned char *p;

	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_header_feature_build(p, size, feat, body, len, 0);
	return 0;
}

static int
feat_str(struct pd_synth *b, unsigned feat, const char *s)
{
	struct pd_synth body = { 0 };
	int r = -1;

	if (put_hstr(&body, s) == 0)
		r = pd_synth_feature(b, feat, body.p, body.len);
	pd_synth_free(&body);
	return r;
}

/* The value of "key" in a /proc "key : value" file, or "" . */
static void
proc_value(const char *path, const char *key, char *out, size_t len)
{
	char line[1024], *v;
	size_t kl = strlen(key);
	FILE *f;

	out[0] = '\0';
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, kl) != 0 ||
		    (line[kl] != ':' && !isspace((unsigned char)line[kl])))
			continue;
		if ((v = strchr(line, ':')) == NULL)
			continue;
		for (v++; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

/* perf squashes runs of blanks in the cpu description to one. */
static void
squash(char *s)
{
	char *d = s, *s0 = s;
	int sp = 0;

	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s)) {
			sp = 1;
			continue;
		}
		if (sp && d != s0) {
			*d++ = ' ';
		}
		sp = 0;
		*d++ = *s;
	}
	*d = '\0';
}

/* perf's x86 get_cpuid(): "Vendor,family,model,stepping". */
static int
cpuid_str(char *out, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, fam, model, step;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -1;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	step = a & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam >= 0x6)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(out, len, "%s,%u,%u,%u", vendor, fam, model, step);
	return 0;
#else
	(void)out;
	(void)len;
	return -1;
#endif
}

/* The highest cpu number in a /sys cpu list ("0-3,5"), or -1. */
static int
cpulist_max(const char *path)
{
	char line[4096], *p;
	long v, max = -1;
	FILE *f;

	if ((f = fopen(path, "re")) == NULL)
		return -1;
	if (fgets(line, sizeof(line), f) != NULL)
		for (p = line; *p != '\0';) {
			if (!isdigit((unsigned char)*p)) {
				p++;
				continue;
			}
			v = strtol(p, &p, 10);
			if (v > max)
				max = v;
		}
	fclose(f);
	return (int)max;
}

int
pd_synth_features(struct pd_synth *b, int argc, char **argv,
    const struct pd_synth_event *evs, size_t nevs)
{
	struct pd_synth body = { 0 };
	struct utsname u;
	char s[1024], exe[PATH_MAX];
	ssize_t n;
	long online;
	int i, max, all, r = -1;
	size_t k;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	if (feat_str(b, PD_FEAT_HOSTNAME, u.nodename) < 0 ||
	    feat_str(b, PD_FEAT_OSRELEASE, u.release) < 0 ||
	    feat_str(b, PD_FEAT_VERSION, PD_VERSION " (pdtools)") < 0 ||
	    feat_str(b, PD_FEAT_ARCH, u.machine) < 0)
		goto out;

	online = sysconf(_SC_NPROCESSORS_ONLN);
	max = cpulist_max("/sys/devices/system/cpu/present");
	if (put_u32(&body, max >= 0 ? (uint32_t)max + 1 : (uint32_t)online) <
	    0 || put_u32(&body, (uint32_t)online) < 0 ||
	    pd_synth_feature(b, PD_FEAT_NRCPUS, body.p, body.len) < 0)
		goto out;

	proc_value("/proc/cpuinfo", "model name", s, sizeof(s));
	if (s[0] == '\0')
		proc_value("/proc/cpuinfo", "cpu model", s, sizeof(s));
	squash(s);
	if (s[0] != '\0' && feat_str(b, PD_FEAT_CPUDESC, s) < 0)
		goto out;
	if (cpuid_str(s, sizeof(s)) == 0 &&
	    feat_str(b, PD_FEAT_CPUID, s) < 0)
		goto out;

	proc_value("/proc/meminfo", "MemTotal", s, sizeof(s));
	body.len = 0;
	if (put_u64(&body, strtoull(s, NULL, 10)) < 0 ||
	    pd_synth_feature(b, PD_FEAT_TOTAL_MEM, body.p, body.len) < 0)
		goto out;

	body.len = 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (put_u32(&body, argc > 0 ? (uint32_t)argc : 1) < 0 ||
	    put_hstr(&body, n > 0 ? exe : (argc > 0 ? argv[0] : "")) < 0)
		goto out;
	for (i = 1; i < argc; i++)
		if (put_hstr(&body, argv[i]) < 0)
			goto out;
	if (pd_synth_feature(b, PD_FEAT_CMDLINE, body.p, body.len) < 0)
		goto out;

	/*
	 * perf names an event from EVENT_DESC by its first id: when all
	 * of them do not fit one record (more than about 8k), each event
	 * lists that one.
	 */
	for (all = 1; all >= 0; all--) {
		body.len = 0;
		if (put_u32(&body, (uint32_t)nevs) < 0 ||
		    put_u32(&body, nevs ? evs[0].attr->size : 0) < 0)
			goto out;
		for (k = 0; k < nevs; k++) {
			size_t nids = all || evs[k].nids == 0 ? evs[k].nids : 1;

			if (pd_synth_put(&body, evs[k].attr,
			    evs[k].attr->size) < 0 ||
			    put_u32(&body, (uint32_t)nids) < 0 ||
			    put_hstr(&body, evs[k].name) < 0 ||
			    pd_synth_put(&body, evs[k].ids, 8 * nids) < 0)
				goto out;
		}
		if (body.len <= PD_REC_MAX - PD_RECORD_FEATURE_HEAD)
			break;
	}
	if (pd_synth_feature(b, PD_FEAT_EVENT_DESC, body.p, body.len) < 0)
		goto out;
	r = 0;
out:
	pd_synth_free(&body);
	return r;
}

int
pd_synth_clockid(struct pd_synth *b, int clockid)
{
	struct timespec res;
	uint64_t ns = 0;

	if (clock_getres(clockid, &res) == 0)
		ns = (uint64_t)res.tv_sec * 1000000000 + res.tv_nsec;
	return pd_synth_feature(b, PD_FEAT_CLOCKID, &ns, sizeof(ns));
}

static uint64_t
clock_ns(int clockid)
{
	struct timespec t;

	if (clock_gettime(clockid, &t) < 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int
pd_synth_clock_data(struct pd_synth *b, int clockid)
{
	struct pd_feat_clock_data c = { .version = 1, .clockid = clockid };
	unsigned char *p;
	uint64_t before, after;
	size_t size;

	/*
	 * The wall clock between two reads of the events' clock, their
	 * middle taken: better than perf's gettimeofday, which has only
	 * microseconds. Merging hosts' recordings rests on this pair.
	 */
	before = clock_ns(clockid);
	c.tod_ns = clock_ns(CLOCK_REALTIME);
	after = clock_ns(clockid);
	c.clockid_ns = before + (after - before) / 2;
	size = pd_feat_clock_data_build(NULL, 0, &c, 0);
	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_feat_clock_data_build(p, size, &c, 0);
	return 0;
}

/* Appends a whole file's contents; -1 with errno set. */
static int
put_file(struct pd_synth *b, const char *path, size_t *len)
{
	char chunk[16384];
	size_t start = b->len;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (pd_synth_put(b, chunk, n) < 0) {
			close(fd);
			errno = ENOMEM;
			return -1;
		}
	close(fd);
	if (n < 0)
		return -1;
	*len = b->len - start;
	return 0;
}

/* A file as "u64 (or u32) length, then its bytes". */
static int
put_sized_file(struct pd_synth *b, const char *path, int wide)
{
	size_t at = b->len, len = 0;

	if ((wide ? put_u64(b, 0) : put_u32(b, 0)) < 0 ||
	    put_file(b, path, &len) < 0)
		return -1;
	if (wide)
		pd_put_u64(b->p + at, len);
	else
		pd_put_u32(b->p + at, (uint32_t)len);
	return 0;
}

int
pd_synth_tracing_data(struct pd_synth *b, const char *tracefs,
    const struct pd_synth_tp *tps, size_t n)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r',
	    'a', 'c', 'i', 'n', 'g' };
	struct pd_synth blob = { 0 };
	char path[PATH_MAX];
	const char *sys;
	unsigned char c, *p;
	size_t i, j, nsys, cnt, aligned;
	int r = -1, saved;

	if (pd_synth_put(&blob, magic, sizeof(magic)) < 0 ||
	    pd_synth_put(&blob, "0.6", 4) < 0)
		goto nomem;
	c = 0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	c = 1;
#endif
	if (pd_synth_put(&blob, &c, 1) < 0)
		goto nomem;
	c = sizeof(long);
	if (pd_synth_put(&blob, &c, 1) < 0 ||
	    put_u32(&blob, (uint32_t)sysconf(_SC_PAGESIZE)) < 0)
		goto nomem;

	if (pd_synth_put(&blob, "header_page", 12) < 0)
		goto nomem;
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	if (put_sized_file(&blob, path, 1) < 0)
		goto fail;
	if (pd_synth_put(&blob, "header_event", 13) < 0)
		goto nomem;
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	if (put_sized_file(&blob, path, 1) < 0)
		goto fail;
	if (put_u32(&blob, 0) < 0)	/* no ftrace-internal events */
		goto nomem;

	/* Systems in first-seen order, each with its events. */
	for (nsys = 0, i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(tps[j].sys, tps[i].sys) != 0; j++)
			;
		nsys += j == i;
	}
	if (put_u32(&blob, (uint32_t)nsys) < 0)
		goto nomem;
	for (i = 0; i < n; i++) {
		sys = tps[i].sys;
		for (j = 0; j < i && strcmp(tps[j].sys, sys) != 0; j++)
			;
		if (j < i)
			continue;
		for (cnt = 0, j = i; j < n; j++)
			cnt += strcmp(tps[j].sys, sys) == 0;
		if (pd_synth_put(&blob, sys, strlen(sys) + 1) < 0 ||
		    put_u32(&blob, (uint32_t)cnt) < 0)
			goto nomem;
		for (j = i; j < n; j++) {
			if (strcmp(tps[j].sys, sys) != 0)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
			    tracefs, sys, tps[j].name);
			if (put_sized_file(&blob, path, 1) < 0)
				goto fail;
		}
	}
	/* kallsyms: empty, as newer perf writes it (pipe readers cannot seek). */
	if (put_u32(&blob, 0) < 0)
		goto nomem;
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs);
	if (put_sized_file(&blob, path, 0) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs);
	if (put_sized_file(&blob, path, 1) < 0)
		goto fail;

	aligned = PD_ALIGN8(blob.len);
	if (put_rec(b, pd_record_header_tracing_data_build(NULL, 0, 0,
	    aligned, 0), &p) < 0)
		goto nomem;
	pd_record_header_tracing_data_build(p, PD_REC_MAX, 0, aligned, 0);
	if (pd_synth_put(b, blob.p, blob.len) < 0 ||
	    pd_synth_put(b, NULL, aligned - blob.len) < 0)
		goto nomem;
	r = 0;
	goto out;
nomem:
	errno = ENOMEM;
fail:
out:
	saved = errno;
	pd_synth_free(&blob);
	errno = saved;
	return r;
}

int
pd_synth_comm(struct pd_synth *b, pid_t pid, pid_t tid, const char *comm,
    size_t idsz)
{
	struct pd_record_comm c = { pid, tid, comm, strlen(comm), 0 };
	size_t size = pd_record_comm_build(NULL, 0, 0, &c, idsz, 0);
	unsigned char *p;

	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_comm_build(p, size, 0, &c, idsz, 0);
	return 0;
}

int
pd_synth_fork(struct pd_synth *b, pid_t pid, pid_t ppid, pid_t tid,
    pid_t ptid, size_t idsz)
{
	struct pd_record_fork f = { pid, ppid, tid, ptid, 0 };
	size_t size = pd_record_fork_build(NULL, 0, PERF_RECORD_FORK, &f,
	    idsz, 0);
	unsigned char *p;

	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_fork_build(p, size, PERF_RECORD_FORK, &f, idsz, 0);
	return 0;
}

static int
mmap2(struct pd_synth *b, uint16_t misc, const struct pd_record_mmap2 *m,
    size_t idsz)
{
	size_t size = pd_record_mmap2_build(NULL, 0, misc, m, idsz, 0);
	unsigned char *p;

	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_mmap2_build(p, size, misc, m, idsz, 0);
	return 0;
}

/* "Name:", "Tgid:", "PPid:" of /proc/<pid>/task/<tid>/status. */
static int
task_status(pid_t pid, pid_t tid, char *comm, size_t clen, pid_t *tgid,
    pid_t *ppid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid,
	    (int)tid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	*tgid = pid;
	*ppid = 0;
	comm[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "Name:\t", 6) == 0)
			snprintf(comm, clen, "%.63s", line + 6);
		else if (strncmp(line, "Tgid:\t", 6) == 0)
			*tgid = atoi(line + 6);
		else if (strncmp(line, "PPid:\t", 6) == 0)
			*ppid = atoi(line + 6);
	}
	fclose(f);
	return 0;
}

static int
process_maps(struct pd_synth *b, pid_t pid, int data, size_t idsz)
{
	char path[64], line[PATH_MAX + 256], perm[8], *file;
	unsigned long long start, end, pgoff, ino;
	struct pd_record_mmap2 m;
	unsigned char id[20];
	unsigned maj, min;
	uint16_t misc;
	size_t idlen;
	int n, r = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (r == 0 && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		n = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start,
		    &end, perm, &pgoff, &maj, &min, &ino, &n) < 7)
			continue;
		if (strlen(perm) < 4)
			continue;
		if (perm[2] != 'x' && !data)
			continue;
		file = n > 0 ? line + n : line + strlen(line);
		if (*file == '\0')
			file = "//anon";
		if (strcmp(file, "[vsyscall]") == 0)
			continue;
		memset(&m, 0, sizeof(m));
		m.pid = m.tid = pid;
		m.start = start;
		m.len = end - start;
		m.pgoff = pgoff;
		m.maj = maj;
		m.min = min;
		m.ino = ino;
		m.prot = (perm[0] == 'r' ? PROT_READ : 0) |
		    (perm[1] == 'w' ? PROT_WRITE : 0) |
		    (perm[2] == 'x' ? PROT_EXEC : 0);
		m.flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		m.filename = file;
		m.filename_len = strlen(file);
		misc = PERF_RECORD_MISC_USER |
		    (perm[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA);
		if (b->bids != NULL && pd_buildid_of_map(b->bids, file, maj,
		    min, ino, id, &idlen) == 0) {
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			m.build_id = id;
			m.build_id_size = (uint8_t)idlen;
		}
		r = mmap2(b, misc, &m, idsz);
	}
	fclose(f);
	return r;
}

int
pd_synth_process(struct pd_synth *b, pid_t pid, int fork, int data,
    size_t idsz)
{
	char path[64], comm[64];
	struct dirent *de;
	pid_t tid, tgid, ppid;
	DIR *d;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tid = atoi(de->d_name);
		if (task_status(pid, tid, comm, sizeof(comm), &tgid, &ppid) < 0)
			continue;
		if (fork)
			r = tid == pid ?
			    pd_synth_fork(b, pid, ppid, tid, ppid, idsz) :
			    pd_synth_fork(b, pid, pid, tid, pid, idsz);
		if (r == 0)
			r = pd_synth_comm(b, pid, tid, comm, idsz);
	}
	closedir(d);
	/* Kernel threads have no maps file content: nothing is written. */
	if (r == 0)
		r = process_maps(b, pid, data, idsz);
	return r;
}

static int
pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

int
pd_synth_processes_of(struct pd_synth *b, const pid_t *tids, size_t n,
    int data, size_t idsz)
{
	pid_t *tg, *uniq, ppid, at;
	unsigned char *done;
	char comm[64];
	size_t i, nu, k;
	int r = 0;

	/* One read of each thread's status: -p of a 10k-thread process. */
	if ((tg = malloc(2 * n * sizeof(*tg) + 1)) == NULL ||
	    (done = calloc(n + 1, 1)) == NULL) {
		free(tg);
		return -1;
	}
	uniq = tg + n;
	for (i = 0; i < n; i++)
		if (task_status(tids[i], tids[i], comm, sizeof(comm), &tg[i],
		    &ppid) < 0)
			tg[i] = tids[i];
	memcpy(uniq, tg, n * sizeof(*tg));
	qsort(uniq, n, sizeof(*uniq), pid_cmp);
	for (i = nu = 0; i < n; i++)
		if (nu == 0 || uniq[nu - 1] != uniq[i])
			uniq[nu++] = uniq[i];
	/* In the order of each process's first thread. */
	for (i = 0; r == 0 && i < n; i++) {
		at = tg[i];
		k = (pid_t *)bsearch(&at, uniq, nu, sizeof(*uniq), pid_cmp) -
		    uniq;
		if (!done[k]) {
			done[k] = 1;
			r = pd_synth_process(b, at, 0, data, idsz);
		}
	}
	free(done);
	free(tg);
	return r;
}

int
pd_synth_all_processes(struct pd_synth *b, int data, size_t idsz)
{
	struct dirent *de;
	DIR *d;
	int r = 0;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while (r == 0 && (de = readdir(d)) != NULL)
		if (isdigit((unsigned char)de->d_name[0]))
			r = pd_synth_process(b, atoi(de->d_name), 1, data, idsz);
	closedir(d);
	return r;
}

/*
 * A kernel map: with b->bids, an MMAP2 with the build id the kernel
 * shows for itself or the module (as perf record --buildid-mmap writes
 * it), so a reader knows which kernel it is before the first sample;
 * else, or where the notes cannot be read, an MMAP.
 */
static int
kmmap(struct pd_synth *b, const char *name, uint64_t start, uint64_t len,
    uint64_t pgoff, size_t idsz)
{
	struct pd_record_mmap m = { (uint32_t)-1, 0, start, len, pgoff, name,
	    strlen(name) };
	struct pd_record_mmap2 m2;
	unsigned char id[20];
	char notes[PATH_MAX];
	size_t size, idlen;
	unsigned char *p;

	if (name[0] == '[' && strncmp(name, "[kernel.kallsyms]", 17) != 0)
		snprintf(notes, sizeof(notes),
		    "/sys/module/%.*s/notes/.note.gnu.build-id",
		    (int)strcspn(name + 1, "]"), name + 1);
	else
		snprintf(notes, sizeof(notes), "/sys/kernel/notes");
	if (b->bids != NULL && pd_buildid_read(notes, 1, id, &idlen) == 0) {
		memset(&m2, 0, sizeof(m2));
		m2.pid = m.pid;
		m2.start = start;
		m2.len = len;
		m2.pgoff = pgoff;
		m2.build_id = id;
		m2.build_id_size = (uint8_t)idlen;
		m2.prot = PROT_READ | PROT_EXEC;
		m2.flags = MAP_PRIVATE;
		m2.filename = name;
		m2.filename_len = m.filename_len;
		return mmap2(b, PERF_RECORD_MISC_KERNEL |
		    PERF_RECORD_MISC_MMAP_BUILD_ID, &m2, idsz);
	}
	size = pd_record_mmap_build(NULL, 0, PERF_RECORD_MISC_KERNEL, &m,
	    idsz, 0);
	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_mmap_build(p, size, PERF_RECORD_MISC_KERNEL, &m,
		    idsz, 0);
	return 0;
}

/*
 * The size of the kernel's text from /proc/iomem's "Kernel code"
 * resource (_text to _etext, as physical addresses; zeros unless root).
 * 0 when it does not say.
 */
static uint64_t
iomem_code_size(void)
{
	char line[256];
	unsigned long long lo, hi;
	uint64_t size = 0;
	FILE *f;

	if ((f = fopen("/proc/iomem", "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, " : Kernel code") != NULL &&
		    sscanf(line, "%llx-%llx", &lo, &hi) == 2 && hi > lo) {
			size = hi - lo + 1;
			break;
		}
	fclose(f);
	return size;
}

/*
 * A line of /proc/kallsyms, "address type name[\tmodule]": 1 when it
 * names `want`, with its address in *addr.
 */
static int
kallsyms_is(const char *line, const char *want, size_t wlen,
    unsigned long long *addr)
{
	const char *p = strchr(line, ' ');

	if (p == NULL || p[1] == '\0' || p[2] != ' ' ||
	    strncmp(p + 3, want, wlen) != 0 || (p[3 + wlen] != '\n' &&
	    p[3 + wlen] != '\0'))
		return 0;
	*addr = strtoull(line, NULL, 16);
	return 1;
}

int
pd_synth_kernel_mmaps(struct pd_synth *b, size_t idsz)
{
	char line[512];
	unsigned long long addr, text = 0, etext = 0, size;
	uint64_t code;
	FILE *f;
	int r = 0;

	/*
	 * _text is among the first lines of /proc/kallsyms, _etext among
	 * the last of the kernel's own: the kernel generates every line
	 * read, so where /proc/iomem gives the text's size the file is
	 * read no further than _text.
	 */
	code = iomem_code_size();
	if ((f = fopen("/proc/kallsyms", "re")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			if (text == 0 && kallsyms_is(line, "_text", 5, &addr)) {
				text = addr;
				if (code != 0) {
					etext = text + code;
					break;
				}
			} else if (kallsyms_is(line, "_etext", 6, &addr))
				etext = addr;
			if (text != 0 && etext != 0)
				break;
		}
		fclose(f);
	}
	if (text == 0)
		return 0;	/* addresses hidden (kptr_restrict) */
	if (kmmap(b, "[kernel.kallsyms]_text", text,
	    etext > text ? etext - text : ~0ULL - text, text, idsz) < 0)
		return -1;
	if ((f = fopen("/proc/modules", "re")) == NULL)
		return 0;
	while (r == 0 && fgets(line, sizeof(line), f) != NULL) {
		char mod[200], path[256];

		if (sscanf(line, "%199s %llu %*s %*s %*s %llx", mod, &size,
		    &addr) != 3 || addr == 0)
			continue;
		snprintf(path, sizeof(path), "[%s]", mod);
		r = kmmap(b, path, addr, size, 0, idsz);
	}
	fclose(f);
	return r;
}

int
pd_synth_empty(struct pd_synth *b, uint32_t type)
{
	return put_hdr(b, type, 0, 8);
}

int
pd_synth_build_id(struct pd_synth *b, uint16_t misc, int32_t pid,
    const unsigned char *id, size_t idlen, const char *filename)
{
	struct pd_record_header_build_id r = { pid, id, idlen, filename,
	    strlen(filename) };
	size_t size;
	unsigned char *p;

	if (idlen > 20)
		return 0;
	misc |= PD_RECORD_MISC_BUILD_ID_SIZE;
	size = pd_record_header_build_id_build(NULL, 0, misc, &r, 0);
	if (put_rec(b, size, &p) < 0)
		return -1;
	if (p != NULL)
		pd_record_header_build_id_build(p, size, misc, &r, 0);
	return 0;
}
