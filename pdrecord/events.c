/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the events: their attrs from the options, perf_event_open on every
 * (CPU, thread) slot with perf's fallbacks, and enabling them.
 */
#include "pdrecord/extern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "libcommon/cli/msg.h"

struct options opt = { .stack_size = 8192, .zlevel = -1 };
struct ev *evs;
size_t nevs;

int
perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group,
	    PERF_FLAG_FD_CLOEXEC);
}


int
mount_tracefs(void)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", TRACEFS);
	if (stat(path, &st) == 0)
		return 0;
	/* Mounted, but its mode (0700 by default) keeps us out. */
	if (errno == EACCES)
		return -2;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) < 0)
		return -1;
	return 0;
}

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

/* kernel.perf_event_paranoid; 2, the kernel's default, if unreadable. */
int
perf_paranoid(void)
{
	FILE *f = fopen(PARANOID_PATH, "re");
	int v = 2;

	if (f != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* 1 when the effective capabilities hold CAP_PERFMON or CAP_SYS_ADMIN. */
static int
perfmon_capable(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (f == NULL)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> 38 & 1) || (eff >> 21 & 1);
}

void
tracefs_error(const char *event, int r)
{
	struct stat st;
	int p = perf_paranoid();

	if (r == -1) {
		pd_warnx("%s: tracefs is not mounted on %s and mounting it "
		    "failed: %s", event, TRACEFS, strerror(errno));
		return;
	}
	if (stat(TRACEFS, &st) < 0)
		st.st_mode = st.st_uid = 0;
	/*
	 * CAP_PERFMON does not open tracefs: its mode does. And a
	 * tracepoint's raw fields need paranoid -1 without CAP_PERFMON.
	 */
	if (p > -1 && !perfmon_capable())
		pd_warnx("%s: tracefs on %s is mounted but not readable by "
		    "uid %u (mode %04o, owner uid %u): run as root, or mount "
		    "-o remount,mode=755 %s and sysctl -w "
		    "kernel.perf_event_paranoid=-1 (it is %d; tracepoint "
		    "samples need -1 without CAP_PERFMON, but for syscalls' "
		    "of your own processes)", event, TRACEFS,
		    (unsigned)getuid(), (unsigned)(st.st_mode & 07777),
		    (unsigned)st.st_uid, TRACEFS, p);
	else
		pd_warnx("%s: tracefs on %s is mounted but not readable by "
		    "uid %u (mode %04o, owner uid %u): run as root, or mount "
		    "-o remount,mode=755 %s", event, TRACEFS,
		    (unsigned)getuid(), (unsigned)(st.st_mode & 07777),
		    (unsigned)st.st_uid, TRACEFS);
}

int
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
void
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
		/* perf's tracepoints: "sys:name", not "tracepoint/.../". */
		int tp = e->type == PERF_TYPE_TRACEPOINT && !e->pmu_syntax;

		memset(a, 0, sizeof(*a));
		a->size = PERF_ATTR_SIZE_VER7;	/* what perf 6.1 reads */
		a->type = e->type;
		a->config = e->config;
		a->config1 = e->config1;
		a->config2 = e->config2;
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
		if (tp)
			st |= PERF_SAMPLE_RAW;
		if (group_read)
			st |= PERF_SAMPLE_READ;
		a->read_format = PERF_FORMAT_ID;
		if (group_read)
			a->read_format |= PERF_FORMAT_GROUP;
		if (group_read && !leader) {
			a->sample_period = 0;	/* only the leader samples */
		} else if (e->has_period) {
			a->sample_period = e->period;
		} else if (e->has_freq) {
			a->freq = 1;
			a->sample_freq = e->freq;
		} else if (opt.count > 0) {
			a->sample_period = opt.count;
		} else if (tp && opt.freq == 0) {
			a->sample_period = 1;
		} else {
			a->freq = 1;
			a->sample_freq = opt.freq > 0 ? opt.freq : 4000;
		}
		if (a->freq || opt.period)
			st |= PERF_SAMPLE_PERIOD;
		a->sample_type = st;
		a->disabled = leader;
		a->inherit = !opt.no_inherit && !group_read &&
		    opt.tids == NULL && !per_cpu_target;
		if (e->has_inherit)
			a->inherit = e->inherit && !group_read &&
			    !per_cpu_target;
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
		/*
		 * Always a clock of clock_gettime's (monotonic unless -k),
		 * never perf's own: only then can CLOCK_DATA put the times
		 * on the wall clock, which merging hosts' recordings needs.
		 */
		a->use_clockid = 1;
		a->clockid = opt.use_clockid ? opt.clockid : CLOCK_MONOTONIC;
		if (i == 0) {
			/* The first event tracks tasks and mappings. */
			a->mmap = a->mmap2 = a->comm = a->comm_exec = 1;
			a->task = 1;
			/*
			 * Build ids in MMAP2 (perf record --buildid-mmap):
			 * a reader can vouch for a file while it reads the
			 * samples, and a recording cut short keeps them.
			 * Kernels before 5.12 refuse it: open_one() drops it.
			 */
			a->build_id = 1;
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
unsigned
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

/*
 * The line for a perf_event_open refused for permission: the kernel's
 * checks in its order (perf_allow_kernel, perf_allow_cpu, the
 * tracepoint's perf_allow_tracepoint, then ptrace access to the
 * target), named with what was asked and the paranoid level it needs.
 */
static void
permission_error(const struct ev *e, pid_t pid)
{
	const struct perf_event_attr *a = &e->attr;
	const char *what = "user-space samples of your own processes need";
	int p = perf_paranoid(), need = 2;
	char hint[64] = "", proc[32];
	struct stat st;

	if (!a->exclude_kernel) {
		need = 1;
		what = "kernel samples need";
		if (a->exclude_user)
			snprintf(hint, sizeof(hint), "; :u records without "
			    "the kernel");
	}
	if (opt.all_cpus || opt.cpu_list != NULL) {
		need = 0;
		what = opt.all_cpus ? "-a (all processes on the CPUs) needs" :
		    "-C (all processes on the CPUs) needs";
	}
	if (a->type == PERF_TYPE_TRACEPOINT &&
	    (a->sample_type & PERF_SAMPLE_RAW)) {
		need = -1;
		what = "tracepoint samples (raw fields) need";
	}
	if (perfmon_capable()) {
		pd_warnx("%s: permission denied although pdrecord has "
		    "CAP_PERFMON or CAP_SYS_ADMIN: a security policy "
		    "(SELinux, lockdown) refuses it; see the audit log",
		    e->spec.name);
		return;
	}
	if (p > need && p > 2 && need == 2) {
		pd_warnx("%s: permission denied: kernel.perf_event_paranoid "
		    "is %d, which allows no events without CAP_PERFMON; %s "
		    "2 (sysctl -w kernel.perf_event_paranoid=2, or run "
		    "as root or with CAP_PERFMON)", e->spec.name, p, what);
		return;
	}
	if (p > need) {
		pd_warnx("%s: permission denied: %s "
		    "kernel.perf_event_paranoid %d or less, and it is %d "
		    "(sysctl -w kernel.perf_event_paranoid=%d, or run as "
		    "root or with CAP_PERFMON%s)", e->spec.name, what, need, p,
		    need, hint);
		return;
	}
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (pid > 0 && stat(proc, &st) == 0 && st.st_uid != getuid()) {
		pd_warnx("%s: permission denied: process %d belongs to uid "
		    "%u, not to uid %u (run as that user, as root, or with "
		    "CAP_PERFMON)", e->spec.name, (int)pid,
		    (unsigned)st.st_uid, (unsigned)getuid());
	} else if (pid > 0) {
		pd_warnx("%s: permission denied: process %d is not one you "
		    "may trace (set-id or not dumpable; run as root or with "
		    "CAP_PERFMON)", e->spec.name, (int)pid);
	} else {
		pd_warnx("%s: permission denied although "
		    "kernel.perf_event_paranoid is %d: a security policy "
		    "(SELinux, lockdown) refuses it; see the audit log",
		    e->spec.name, p);
	}
}

/* One line for a failed perf_event_open, saying what to change. */
static void
open_error(const struct ev *e, int err, pid_t pid)
{
	if (err == EACCES || err == EPERM)
		permission_error(e, pid);
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
 * The name of an event perf_event_paranoid made user-only, as perf 6.1
 * renames it ("cpu-clock:u", "cycles:pu", "clk:u" for name=clk); a
 * tracepoint keeps its "sys:name" apart from the modifier.
 */
static void
rename_user_only(struct pd_event *e)
{
	size_t n = strlen(e->name);
	const char *sep = ":";

	if (strchr(e->name, '/') != NULL || (strchr(e->name, ':') != NULL &&
	    (e->type != PERF_TYPE_TRACEPOINT || e->pmu_syntax ||
	    strchr(strchr(e->name, ':') + 1, ':') != NULL)))
		sep = "";
	snprintf(e->name + n, sizeof(e->name) - n, "%su", sep);
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
	int fd, user_only = 0;

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

			/* The default event falls back without a word. */
			if (strcmp(e->spec.name, user_only ? "cycles:u" :
			    "cycles") != 0 &&
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
		if ((errno == EINVAL || errno == E2BIG) && e->attr.build_id) {
			/* No build ids in MMAP2 here: inodes, as before. */
			e->attr.build_id = 0;
			continue;
		}
		/*
		 * As perf: kernel samples refused, user space only; but
		 * not for an event that asked for the kernel only (:k),
		 * which would then count nothing.
		 */
		if (errno == EACCES && !e->attr.exclude_kernel &&
		    !e->attr.exclude_user && perf_paranoid() > 1) {
			e->attr.exclude_kernel = e->attr.exclude_hv = 1;
			rename_user_only(&e->spec);
			user_only = 1;
			continue;
		}
		return -1;
	}
}

/* Opens every event on every slot and maps one ring per CPU. */
int
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
			pd_die_nomem();
	}
	if ((rings = calloc(ncpus, sizeof(*rings))) == NULL)
		pd_die_nomem();
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
					open_error(&evs[i], errno,
					    threads[t]);
					return -1;
				}
				evs[i].fds[slot] = fd;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
					pd_warnx("PERF_EVENT_IOC_ID: %s",
					    strerror(errno));
					return -1;
				}
				evs[i].ids[evs[i].nids++] = id;
				if (evs[i].spec.filter != NULL && ioctl(fd,
				    PERF_EVENT_IOC_SET_FILTER,
				    evs[i].spec.filter) < 0) {
					pd_warnx("%s: --filter '%s': %s",
					    evs[i].spec.name,
					    evs[i].spec.filter, errno ==
					    EINVAL ? "the kernel refuses it "
					    "(the event's fields are in its "
					    "format file)" : strerror(errno));
					return -1;
				}
				if (ringfd < 0) {
					void *m = mmap(NULL, len,
					    PROT_READ | PROT_WRITE, MAP_SHARED,
					    fd, 0);

					if (m == MAP_FAILED) {
						pd_warnx("mmap of %zu bytes: "
						    "%s (try a smaller -m, or "
						    "raise ulimit -l or "
						    "kernel.perf_event_mlock_kb)",
						    len, strerror(errno));
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

void
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
