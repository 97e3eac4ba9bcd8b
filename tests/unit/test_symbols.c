/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's process and map tracking (procs.c), frames from
 * callchains, and symbol lookup in a real ELF file: this test program.
 */
#include "libcommon/sym/symbols.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static struct pd_rec
mkrec(size_t at)
{
	struct pd_rec r;

	memset(&r, 0, sizeof(r));
	r.data = b_buf + at;
	r.type = pd_get_u32(b_buf + at);
	r.misc = pd_get_u16(b_buf + at + 4);
	r.size = pd_get_u16(b_buf + at + 6);
	return r;
}

static int
feed(struct pd_syms *sy, size_t at)
{
	struct pd_rec r = mkrec(at);

	return pd_syms_record(sy, NULL, &r);
}

static size_t
comm(uint32_t pid, uint32_t tid, const char *s, int exec)
{
	size_t at = b_rec(PERF_RECORD_COMM, exec ?
	    PERF_RECORD_MISC_COMM_EXEC : 0);

	b_u32(pid);
	b_u32(tid);
	b_str(s, 8);
	b_end(at);
	return at;
}

static size_t
fork_rec(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	size_t at = b_rec(PERF_RECORD_FORK, 0);

	b_u32(pid);
	b_u32(ppid);
	b_u32(tid);
	b_u32(ptid);
	b_u64(0);
	b_end(at);
	return at;
}

static size_t
mmap2(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
    const char *path, int kernel)
{
	size_t at = b_rec(PERF_RECORD_MMAP2, kernel ?
	    PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);

	b_u32(pid);
	b_u32(pid);
	b_u64(start);
	b_u64(len);
	b_u64(pgoff);
	b_zero(24);
	b_u32(PROT_READ | PROT_EXEC);
	b_u32(MAP_PRIVATE);
	b_str(path, 8);
	b_end(at);
	return at;
}

static void
test_maps(void)
{
	struct pd_syms *sy = pd_syms_new(NULL);
	const struct pd_map *m;
	struct pd_symres r;
	uint64_t gen, gen2;
	size_t n;

	T(sy != NULL);
	T(feed(sy, comm(10, 10, "sh", 0)) == 0);
	T(feed(sy, mmap2(10, 0x1000, 0x3000, 0, "/bin/a", 0)) == 0);
	T(feed(sy, mmap2(10, 0x8000, 0x1000, 0, "/bin/b", 0)) == 0);
	m = pd_syms_maps(sy, 10, &n, &gen);
	T(m != NULL && n == 2);
	T(m != NULL && m[0].start == 0x1000 && m[0].end == 0x4000 &&
	    strcmp(m[0].path, "/bin/a") == 0);
	/* A map in the middle of another cuts it in two. */
	T(feed(sy, mmap2(10, 0x2000, 0x1000, 0x5000, "/bin/c", 0)) == 0);
	m = pd_syms_maps(sy, 10, &n, &gen2);
	T(gen2 != gen);
	T(m != NULL && n == 4);
	if (m != NULL && n == 4) {
		T(m[0].start == 0x1000 && m[0].end == 0x2000);
		T(m[1].start == 0x2000 && m[1].end == 0x3000 &&
		    m[1].pgoff == 0x5000 && strcmp(m[1].path, "/bin/c") == 0);
		T(m[2].start == 0x3000 && m[2].end == 0x4000 &&
		    m[2].pgoff == 0x2000 && strcmp(m[2].path, "/bin/a") == 0);
		T(m[3].start == 0x8000);
	}
	/* A thread shares; a process gets a copy and its parent's comm. */
	T(feed(sy, fork_rec(10, 10, 11, 10)) == 0);
	T(strcmp(pd_syms_comm(sy, 10, 11), "sh") == 0);
	T(pd_syms_maps(sy, 11, &n, NULL) == NULL && n == 0);
	T(feed(sy, fork_rec(20, 10, 20, 10)) == 0);
	T(strcmp(pd_syms_comm(sy, 20, 20), "sh") == 0);
	m = pd_syms_maps(sy, 20, &n, NULL);
	T(m != NULL && n == 4);
	/* exec: the comm changes; a new map covering all replaces all. */
	T(feed(sy, comm(20, 20, "ls", 1)) == 0);
	T(strcmp(pd_syms_comm(sy, 20, 20), "ls") == 0);
	T(strcmp(pd_syms_comm(sy, 10, 10), "sh") == 0);
	T(feed(sy, mmap2(20, 0, 0x10000, 0, "/bin/ls", 0)) == 0);
	m = pd_syms_maps(sy, 20, &n, NULL);
	T(m != NULL && n == 1 && strcmp(m[0].path, "/bin/ls") == 0);
	m = pd_syms_maps(sy, 10, &n, NULL);
	T(n == 4);
	/* A thread's comm falls back to its process's. */
	T(pd_syms_comm(sy, 10, 12) != NULL &&
	    strcmp(pd_syms_comm(sy, 10, 12), "sh") == 0);
	T(pd_syms_comm(sy, 99, 99) == NULL);

	/* Unknown places. */
	pd_syms_resolve(sy, 99, PERF_RECORD_MISC_USER, 0x1000, &r);
	T(r.name == NULL && strcmp(r.dso, "[unknown]") == 0 && !r.kernel);
	pd_syms_resolve(sy, 10, PERF_RECORD_MISC_USER, 0x9000, &r);
	T(r.name == NULL && strcmp(r.dso, "[unknown]") == 0);
	/* A missing file: its name, [unknown], and one note. */
	pd_syms_resolve(sy, 10, PERF_RECORD_MISC_USER, 0x8010, &r);
	T(r.name == NULL && strcmp(r.dso, "/bin/b") == 0);
	pd_syms_resolve(sy, 10, PERF_RECORD_MISC_USER, 0x8020, &r);
	T(pd_syms_next_note(sy) != NULL);
	T(pd_syms_next_note(sy) == NULL);

	/* Bad records are refused, not fatal. */
	{
		size_t at = b_rec(PERF_RECORD_COMM, 0);

		b_u32(1);
		b_end(at);
		T(feed(sy, at) == -1);
	}
	pd_syms_free(sy);
	pd_syms_free(NULL);
}

static void
test_frames(void)
{
	struct pd_sample s;
	struct pd_frame f[8];
	uint64_t cc[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
		0xffffffff81000020ULL, (uint64_t)PERF_CONTEXT_USER, 0x401000,
		0x401100,
	};
	size_t n;

	memset(&s, 0, sizeof(s));
	s.type = PERF_SAMPLE_IP;
	s.ip = 0x1234;
	n = pd_sample_frames(&s, PERF_RECORD_MISC_KERNEL, f, 8);
	T(n == 1 && f[0].addr == 0x1234 &&
	    f[0].cpumode == PERF_RECORD_MISC_KERNEL);
	s.type |= PERF_SAMPLE_CALLCHAIN;
	s.callchain = (const unsigned char *)cc;
	s.callchain_nr = 6;
	n = pd_sample_frames(&s, PERF_RECORD_MISC_KERNEL, f, 8);
	T(n == 4);
	T(f[0].addr == 0xffffffff81000010ULL &&
	    f[0].cpumode == PERF_RECORD_MISC_KERNEL);
	T(f[1].cpumode == PERF_RECORD_MISC_KERNEL);
	T(f[2].addr == 0x401000 && f[2].cpumode == PERF_RECORD_MISC_USER);
	T(f[3].addr == 0x401100 && f[3].cpumode == PERF_RECORD_MISC_USER);
	T(pd_sample_frames(&s, 0, f, 3) == 3);
}

/*
 * This program's own text, mapped at a made-up place with the file
 * offset of the segment that holds it: the symbol must be found.
 */
static void
test_self(void)
{
	struct pd_syms_opts o = { .debug_dir = "/nonexistent" };
	struct pd_syms *sy = pd_syms_new(&o);
	struct pd_symres r;
	char self[4096];
	ssize_t n;
	FILE *f;
	unsigned long lo, hi, off;
	char perm[8], path[4096], line[8192];
	uint64_t fake = 0x10000000, addr = (uint64_t)(uintptr_t)test_self;
	int found = 0;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	T(n > 0);
	if (n <= 0 || (f = fopen("/proc/self/maps", "r")) == NULL)
		return;
	self[n] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095[^\n]", &lo, &hi,
		    perm, &off, path) != 5)
			continue;
		if (addr < lo || addr >= hi || strcmp(path, self) != 0)
			continue;
		b_len = 0;
		T(feed(sy, mmap2(7, fake, hi - lo, off, self, 0)) == 0);
		found = 1;
		pd_syms_resolve(sy, 7, PERF_RECORD_MISC_USER,
		    fake + (addr - lo) + 3, &r);
		T(r.name != NULL && strcmp(r.name, "test_self") == 0);
		T(r.off == 3);
		T(strcmp(r.dso, self) == 0);
		break;
	}
	fclose(f);
	T(found);
	pd_syms_free(sy);
}

static size_t
kmmap(uint64_t start, uint64_t len, const char *path)
{
	size_t at = b_rec(PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);

	b_u32(UINT32_MAX);
	b_u32(0);
	b_u64(start);
	b_u64(len);
	b_u64(start);
	b_str(path, 8);
	b_end(at);
	return at;
}

/*
 * A kallsyms file: aliases (the last listed wins, as perf's order of
 * fixups makes it), symbol ends, a module, relocation by the kernel
 * map's _text, and .init.text beyond the map's end.
 */
static void
test_kallsyms(void)
{
	char path[] = "/tmp/pdsymsXXXXXX";
	struct pd_syms_opts o = { .kallsyms = path };
	struct pd_syms *sy;
	struct pd_symres r;
	FILE *f;
	int fd;

	if ((fd = mkstemp(path)) < 0 || (f = fdopen(fd, "w")) == NULL) {
		T(0);
		return;
	}
	fputs("ffffffff81000000 T _text\n"
	    "ffffffff81000100 T memset\n"
	    "ffffffff81000100 T __memset\n"
	    "ffffffff81000100 T __pi_memset\n"
	    "ffffffff81000200 t helper\n"
	    "ffffffff81000300 D some_data\n"
	    "ffffffff81000400 T _etext\n"
	    "ffffffff81800000 T _sinittext\n"
	    "ffffffff81800010 T start_kernel\n"
	    "ffffffff81800100 T _einittext\n"
	    "ffffffffc0001000 t mod_fn\t[ext4]\n", f);
	fclose(f);
	sy = pd_syms_new(&o);
	T(sy != NULL);
	b_len = 0;
	/* Booted 16 MiB higher than the file says. */
	T(feed(sy, kmmap(0xffffffff82000000ULL, 0x400,
	    "[kernel.kallsyms]_text")) == 0);
	T(feed(sy, kmmap(0xffffffffc0001000ULL, 0x1000,
	    "/lib/modules/x/kernel/fs/ext4/ext4-x.ko")) == 0);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff82000108ULL, &r);
	T(r.name != NULL && strcmp(r.name, "__pi_memset") == 0);
	T(r.off == 8 && r.kernel && strcmp(r.dso, "[kernel.kallsyms]") == 0);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff820002ffULL, &r);
	T(r.name != NULL && strcmp(r.name, "helper") == 0 && r.off == 0xff);
	/* Data symbols are not kept: helper reaches _etext. */
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff82000310ULL, &r);
	T(r.name != NULL && strcmp(r.name, "helper") == 0);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff81000108ULL, &r);
	T(r.name == NULL && strcmp(r.dso, "[unknown]") == 0);
	/* Modules are not relocated here: the module map is where it is. */
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffffc0001010ULL, &r);
	T(strcmp(r.dso, "[ext4_x]") == 0);
	/* .init.text, past the map's _etext: still the kernel's, as perf. */
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff82800014ULL, &r);
	T(r.name != NULL && strcmp(r.name, "start_kernel") == 0 && r.off == 4);
	T(strcmp(r.dso, "[kernel.kallsyms]") == 0);
	/* Past a module's map is nobody's. */
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffffc0002010ULL, &r);
	T(r.name == NULL && strcmp(r.dso, "[unknown]") == 0);
	T(pd_syms_next_note(sy) == NULL);
	pd_syms_free(sy);
	unlink(path);
}

/* A HEADER_BUILD_ID of path: an id of 20 bytes `fill`, pid -1. */
static size_t
bid_rec(const char *path, unsigned char fill)
{
	struct pd_record_header_build_id b;
	unsigned char id[20];
	size_t at = b_len;

	memset(id, fill, sizeof(id));
	memset(&b, 0, sizeof(b));
	b.pid = -1;
	b.build_id = id;
	b.build_id_size = sizeof(id);
	b.filename = path;
	b.filename_len = strlen(path);
	b_len += pd_record_header_build_id_build(b_buf + at,
	    sizeof(b_buf) - at, PD_RECORD_MISC_BUILD_ID_SIZE, &b, 0);
	return at;
}

/* How many notes hold `what`; all of them read. */
static int
notes_with(struct pd_syms *sy, const char *what)
{
	const char *n;
	int k = 0;

	while ((n = pd_syms_next_note(sy)) != NULL)
		k += strstr(n, what) != NULL;
	return k;
}

/*
 * BUILD_ID records (pid -1: whose, they do not say): a path's build id
 * goes to its maps without their own, until the stream gives that path
 * another (a merge of hosts whose files differ): then none does, not
 * even to the maps that took the first, and a file of that path is not
 * read; said once. The kernel's likewise.
 */
static void
test_bid_notes(void)
{
	struct pd_syms *sy = pd_syms_new(NULL);
	struct pd_mapres m;
	struct pd_symres r;

	T(sy != NULL);
	b_len = 0;
	T(feed(sy, bid_rec("/x/a", 0x11)) == 0);
	T(feed(sy, mmap2(5, 0x1000, 0x1000, 0, "/x/a", 0)) == 0);
	T(pd_syms_map_at(sy, 5, PERF_RECORD_MISC_USER, 0x1000, &m) == 0);
	T(m.bidlen == 20 && m.bid[0] == 0x11);
	/* The same one again changes nothing. */
	T(feed(sy, bid_rec("/x/a", 0x11)) == 0);
	T(pd_syms_map_at(sy, 5, PERF_RECORD_MISC_USER, 0x1000, &m) == 0);
	T(m.bidlen == 20 && m.bid[0] == 0x11);
	/* Another: taken back, and given to no later map. */
	T(feed(sy, bid_rec("/x/a", 0x22)) == 0);
	T(pd_syms_map_at(sy, 5, PERF_RECORD_MISC_USER, 0x1000, &m) == 0);
	T(m.bidlen == 0);
	T(feed(sy, mmap2(6, 0x1000, 0x1000, 0, "/x/a", 0)) == 0);
	T(pd_syms_map_at(sy, 6, PERF_RECORD_MISC_USER, 0x1000, &m) == 0);
	T(m.bidlen == 0);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_USER, 0x1010, &r);
	T(r.name == NULL && strcmp(r.dso, "/x/a") == 0);
	pd_syms_resolve(sy, 6, PERF_RECORD_MISC_USER, 0x1010, &r);
	T(r.name == NULL);
	T(pd_syms_map_at(sy, 6, PERF_RECORD_MISC_USER, 0x1000, &m) == 0);
	T(!m.symbols);
	T(notes_with(sy, "/x/a: different build ids in the stream") == 1);
	/* Another path's one build id still counts. */
	T(feed(sy, bid_rec("/x/b", 0x33)) == 0);
	T(feed(sy, mmap2(5, 0x3000, 0x1000, 0, "/x/b", 0)) == 0);
	T(pd_syms_map_at(sy, 5, PERF_RECORD_MISC_USER, 0x3000, &m) == 0);
	T(m.bidlen == 20 && m.bid[0] == 0x33);
	/* The kernel: found without either (here: no host named). */
	T(feed(sy, bid_rec("[kernel.kallsyms]", 0x44)) == 0);
	T(feed(sy, bid_rec("[kernel.kallsyms]", 0x55)) == 0);
	T(feed(sy, kmmap(0xffffffff81000000ULL, 0x400,
	    "[kernel.kallsyms]_text")) == 0);
	T(notes_with(sy, "[kernel.kallsyms]: different build ids") == 1);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff81000010ULL, &r);
	T(r.name == NULL);
	T(notes_with(sy, "4444") == 0);
	pd_syms_free(sy);
	/* Looked for by the first already (a pipe stream's, late): said. */
	sy = pd_syms_new(NULL);
	T(sy != NULL);
	b_len = 0;
	T(feed(sy, kmmap(0xffffffff81000000ULL, 0x400,
	    "[kernel.kallsyms]_text")) == 0);
	T(feed(sy, bid_rec("[kernel.kallsyms]", 0x44)) == 0);
	pd_syms_resolve(sy, 5, PERF_RECORD_MISC_KERNEL,
	    0xffffffff81000010ULL, &r);
	T(notes_with(sy, "4444") == 1);
	T(feed(sy, bid_rec("[kernel.kallsyms]", 0x55)) == 0);
	T(notes_with(sy, "found by the first, maybe another host's") == 1);
	pd_syms_free(sy);
}

/* perf report's comm of a sample: at its time, a thread's first comm later. */
static void
test_report_comm(void)
{
	struct pd_syms *sy = pd_syms_new(NULL);
	const struct pd_syms_later *l, *l2;
	const char *c;

	T(sy != NULL);
	T(feed(sy, comm(10, 10, "sh", 0)) == 0);
	c = pd_syms_report_comm(sy, 10, &l);
	T(c != NULL && strcmp(c, "sh") == 0 && l == NULL);
	/* Interned: equal names, equal pointers. */
	T(feed(sy, comm(30, 30, "sh", 0)) == 0);
	T(pd_syms_report_comm(sy, 30, &l) == c);
	/* The idle task is swapper. */
	c = pd_syms_report_comm(sy, 0, &l);
	T(c != NULL && strcmp(c, "swapper") == 0 && l == NULL);
	/* A thread not named yet: no process fallback, a handle... */
	T(pd_syms_report_comm(sy, 11, &l) == NULL && l != NULL);
	T(l != NULL && l->comm == NULL && l->tid == 11);
	T(pd_syms_report_comm(sy, 11, &l2) == NULL && l2 == l);
	/* ...that its first comm fills in; later ones do not. */
	T(feed(sy, comm(10, 11, "worker", 0)) == 0);
	T(l != NULL && l->comm != NULL && strcmp(l->comm, "worker") == 0);
	c = pd_syms_report_comm(sy, 11, &l2);
	T(c != NULL && strcmp(c, "worker") == 0 && l2 == NULL);
	T(feed(sy, comm(10, 11, "other", 1)) == 0);
	T(l != NULL && strcmp(l->comm, "worker") == 0);
	/* A FORK makes a new thread: the old one's samples stay :tid. */
	T(pd_syms_report_comm(sy, 12, &l) == NULL && l != NULL);
	T(feed(sy, fork_rec(12, 10, 12, 10)) == 0);
	c = pd_syms_report_comm(sy, 12, &l2);
	T(c != NULL && strcmp(c, "sh") == 0 && l2 == NULL);
	T(feed(sy, comm(12, 12, "ls", 1)) == 0);
	T(l != NULL && l->comm == NULL);
	pd_syms_free(sy);
}

int
main(void)
{
	test_maps();
	test_report_comm();
	test_kallsyms();
	test_bid_notes();
	test_frames();
	test_self();
	return T_END();
}
