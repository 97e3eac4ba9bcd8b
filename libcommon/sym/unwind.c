/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of sampled user stacks with libdwfl (elfutils): one
 * Dwfl per address space, its modules reported from the symbolizer's
 * maps at each file's load bias, its "process" attached with callbacks
 * that read the sample being unwound (registers, stack copy).
 */
#include "libcommon/sym/unwind.h"

#include <elf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/sym/perfregs.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symbols.h"

/*
 * A file reported to a Dwfl (or tried: ok 0 when libdwfl refused it),
 * known by its path and map start - pgoff.
 */
struct module {
	char		*path;
	uint64_t	 key;
	int		 ok;
	uint64_t	 seen;		/* the sync that last found it mapped */
};

/* One address space: a pid's maps as libdwfl modules. */
struct space {
	int		 used;
	uint32_t	 pid;
	uint64_t	 gen;		/* the maps generation it reflects */
	uint64_t	 stamp;		/* last use, for eviction */
	Dwfl		*dwfl;
	int		 arch;		/* attached with; PD_REGS_NONE: not yet */
	int		 attach_failed;
	struct module	*mods;		/* sorted by key, then path */
	size_t		 nmods, capmods;
	uint64_t	 syncs;
	int		 synced;	/* gen is what the Dwfl has */
	uint64_t	 mapsid;	/* pd_syms_maps_id() synced to, or 0 */
};

/* The sample being unwound, as the callbacks see it. */
struct cur {
	int		 arch;
	uint64_t	 dw[PD_REGS_DWARF_MAX];
	uint64_t	 valid;
	unsigned	 ndw;
	uint64_t	 ip, sp;
	const unsigned char *stack;
	uint64_t	 stack_len;
	uint64_t	*ips;
	size_t		 n, max;
	Dwfl		*dwfl;
	int		 plt;		/* frame 0 is a PLT entry */
};

/* The smallest ELF header libdwfl accepts to learn an arch from. */
struct fake_elf {
	Elf		*elf;
	unsigned char	 buf[sizeof(Elf64_Ehdr)];
};

struct pd_unwind {
	struct pd_syms		*syms;
	struct pd_header_info	 hi;
	struct space		 spaces[PD_UNWIND_SPACES];
	uint64_t		 clock;
	struct cur		 cur;
	struct fake_elf		 fake[4];	/* by PD_REGS_* */
	int			 host;		/* stream from here: 1, not 0 */
	int			 vdso_fd;	/* our vdso image; -1 none yet */
	char			 vdso_path[32];
	uint64_t		 tried, failed;	/* pd_unwind_counts() */
};

/*
 * Modules come from the files the maps name; libdwfl is never asked to
 * look for files or separate debuginfo itself (that could mean
 * debuginfod, the network, per module): .eh_frame, which every
 * unwindable object carries, and the file's own .debug_frame suffice.
 */
static int
no_elf(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr base,
    char **file_name, Elf **elfp)
{
	*elfp = NULL;
	return -1;
}

static int
no_debuginfo(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr base,
    const char *file_name, const char *debuglink, GElf_Word crc,
    char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = no_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t
next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0;
}

/* Every tid is the thread of the sample being unwound. */
static bool
get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static int
word_size(int arch)
{
	return arch == PD_REGS_I386 ? 4 : 8;
}

static bool
read_word(const unsigned char *p, int word, Dwarf_Word *result)
{
	*result = word == 4 ? pd_get_u32(p) : pd_get_u64(p);
	return true;
}

/*
 * Memory as perf's unwinders see it: the sample's stack copy from sp
 * upward, else the bytes of a mapped file (its load segments, as
 * perf's access_dso_mem reads them); anything else fails, and the walk
 * stops there.
 */
static bool
memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pd_unwind *u = arg;
	const struct cur *c = &u->cur;
	int word = word_size(c->arch);
	Dwfl_Module *mod;
	Dwarf_Addr bias, va;
	GElf_Phdr ph;
	Elf *elf;
	const char *raw;
	size_t size, phnum, i;
	uint64_t off;

	if (addr >= c->sp && addr - c->sp < c->stack_len &&
	    c->stack_len - (addr - c->sp) >= (uint64_t)word)
		return read_word(c->stack + (addr - c->sp), word, result);
	if ((mod = dwfl_addrmodule(dwfl, addr)) == NULL ||
	    (elf = dwfl_module_getelf(mod, &bias)) == NULL ||
	    (raw = elf_rawfile(elf, &size)) == NULL ||
	    elf_getphdrnum(elf, &phnum) != 0)
		return false;
	va = addr - bias;
	for (i = 0; i < phnum; i++) {
		if (gelf_getphdr(elf, i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (va < ph.p_vaddr || va - ph.p_vaddr >= ph.p_filesz ||
		    ph.p_filesz - (va - ph.p_vaddr) < (uint64_t)word)
			continue;
		off = ph.p_offset + (va - ph.p_vaddr);
		if (off > size || size - off < (uint64_t)word)
			return false;
		return read_word((const unsigned char *)raw + off, word,
		    result);
	}
	return false;
}

static bool
set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct pd_unwind *u = arg;
	const struct cur *c = &u->cur;
	Dwarf_Word regs[PD_REGS_DWARF_MAX];
	unsigned r, first;

	/* Each run of sampled registers; the others stay undefined. */
	for (r = 0; r < c->ndw; ) {
		if (!(c->valid >> r & 1)) {
			r++;
			continue;
		}
		for (first = r; r < c->ndw && (c->valid >> r & 1); r++)
			regs[r - first] = c->dw[r];
		if (!dwfl_thread_state_registers(thread, first, r - first,
		    regs))
			return false;
	}
	/* arm64 has no DWARF number for the pc. */
	if (c->arch == PD_REGS_ARM64)
		dwfl_thread_state_register_pc(thread, c->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/*
 * Whether pc is the first instruction of a lazy PLT entry on x86-64:
 * jmp *GOT(%rip) (ff 25), push $n (68) at +6, jmp PLT0 (e9) at +11.
 * There nothing is pushed yet and the return address is the word at
 * sp. lld gives .plt no CFI, and libdwfl's fallback would follow frame
 * pointers the code does not keep; libunwind, perf's unwinder, knows
 * these bytes and steps over them. So do we, on the same bytes.
 */
static bool
plt_entry(struct pd_unwind *u, uint64_t pc)
{
	const struct cur *c = &u->cur;
	Dwarf_Word w0, w1;

	return c->arch == PD_REGS_X86_64 &&
	    memory_read(c->dwfl, pc, &w0, u) &&
	    memory_read(c->dwfl, pc + 8, &w1, u) &&
	    (w0 & 0xffff) == 0x25ff && (w0 >> 48 & 0xff) == 0x68 &&
	    (w1 >> 24 & 0xff) == 0xe9;
}

static int
frame_cb(Dwfl_Frame *state, void *arg)
{
	struct pd_unwind *u = arg;
	struct cur *c = &u->cur;
	Dwarf_Addr pc;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	if (c->n > 0) {
		/* A caller: its return address 0 ends the chain. */
		if (pc == 0)
			return DWARF_CB_ABORT;
		/* Name the call, not the instruction after it (perf too). */
		if (!act)
			pc--;
	}
	c->ips[c->n++] = pc;
	if (c->n >= c->max)
		return DWARF_CB_ABORT;
	if (c->n == 1 && plt_entry(u, pc)) {
		c->plt = 1;
		return DWARF_CB_ABORT;
	}
	/*
	 * No file at pc, no CFI: libdwfl would go on guessing from frame
	 * pointers, which the stream's writer did not promise; stop.
	 */
	if (dwfl_addrmodule(c->dwfl, pc) == NULL)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

/* ---- address spaces ---- */

/*
 * Our own vdso as a file libdwfl can open (a memfd), made once: the
 * kernel maps the same image into every process, so on the host that
 * recorded the stream it is the one the samples ran in.
 */
static const char *
vdso_file(struct pd_unwind *u)
{
	const unsigned char *img;
	Elf64_Ehdr eh;
	size_t len;
	int fd;

	if (u->vdso_fd >= 0)
		return u->vdso_path;
	if (u->vdso_fd == -2)
		return NULL;
	u->vdso_fd = -2;
	img = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	if (img == NULL || memcmp(img, ELFMAG, SELFMAG) != 0 ||
	    img[EI_CLASS] != ELFCLASS64)
		return NULL;
	memcpy(&eh, img, sizeof(eh));
	/* The section headers end the image. */
	len = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	if (len < sizeof(eh) || len > (1 << 20))
		return NULL;
	if ((fd = memfd_create("pd-vdso", MFD_CLOEXEC)) < 0)
		return NULL;
	if (write(fd, img, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	u->vdso_fd = fd;
	snprintf(u->vdso_path, sizeof(u->vdso_path), "/proc/self/fd/%d", fd);
	return u->vdso_path;
}

static void
space_reset(struct space *s)
{
	size_t i;

	if (s->dwfl != NULL)
		dwfl_end(s->dwfl);
	for (i = 0; i < s->nmods; i++)
		free(s->mods[i].path);
	free(s->mods);
	memset(s, 0, sizeof(*s));
}

/*
 * The file libdwfl should read for a map: an executable mapping of a
 * file, or the vdso when the stream comes from this host (its image is
 * then ours). NULL for the rest.
 */
static const char *
map_file(struct pd_unwind *u, const struct pd_map *m)
{
	if (m->path == NULL || !(m->prot & PROT_EXEC) ||
	    m->end <= m->start || m->start < m->pgoff)
		return NULL;
	if (m->path[0] == '/')
		return m->path;
	if (strcmp(m->path, "[vdso]") == 0 && u->host)
		return vdso_file(u);
	return NULL;
}

/*
 * Where a shared object's vaddr 0 sits, from the map of one of its load
 * segments: the kernel put the segment holding file offset pgoff at
 * start, page-aligned, so the bias is start - pgoff - (p_vaddr -
 * p_offset) of that segment. perf takes start - pgoff, which is the
 * same for GNU ld's output (p_vaddr == p_offset) but not for lld's,
 * whose later segments sit a max-page-size above their file offset.
 */
static uint64_t
load_bias(Elf *elf, const struct pd_map *m)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t i, n;
	uint64_t best = 0x10000, delta = 0;

	if (gelf_getehdr(elf, &eh) == NULL || eh.e_type != ET_DYN ||
	    elf_getphdrnum(elf, &n) != 0)
		return m->start - m->pgoff;
	/*
	 * The executable segment whose page-aligned file offset is pgoff:
	 * the nearest one at or above it, within the largest page size.
	 */
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(elf, i, &ph) == NULL ||
		    ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    ph.p_offset < m->pgoff || ph.p_offset - m->pgoff >= best)
			continue;
		best = ph.p_offset - m->pgoff;
		delta = ph.p_vaddr - ph.p_offset;
	}
	return m->start - m->pgoff - delta;
}

/* Reports the file of a map to libdwfl at its load bias. 1, or 0. */
static int
report(Dwfl *dwfl, const char *name, const char *file, const struct pd_map *m)
{
	Dwfl_Module *mod;
	Elf *elf;
	uint64_t base;
	struct stat st;
	const char *why;
	int fd;

	if ((fd = pd_syms_open(file, PD_SYMS_ELF_MAX, &st, &why)) < 0)
		return 0;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL) {
		close(fd);
		return 0;
	}
	base = load_bias(elf, m);
	elf_end(elf);
	/* On success libdwfl owns fd. */
	if ((mod = dwfl_report_elf(dwfl, name, file, fd, base, false)) == NULL)
		close(fd);
	return mod != NULL;
}

static int
mod_cmp(uint64_t key, const char *path, const struct module *m)
{
	if (key != m->key)
		return key < m->key ? -1 : 1;
	return strcmp(path, m->path);
}

/* The index of the module (key, path), or where it would go: *found. */
static size_t
mod_find(const struct space *s, uint64_t key, const char *path, int *found)
{
	size_t lo = 0, hi = s->nmods, mid;
	int c;

	*found = 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = mod_cmp(key, path, &s->mods[mid])) == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Brings a space up to the maps of generation `gen`. New files are
 * added to the Dwfl as they are (libdw keeps every module's parsed CFI);
 * when a reported file is no longer mapped there (munmap, exec) the
 * Dwfl starts over. The modules are kept sorted, so a sync costs
 * O(maps log modules), not maps times modules: a stream that maps a
 * new file before every sample would otherwise make it cubic. Returns
 * 0, or -1 when out of memory.
 */
static int
space_sync(struct pd_unwind *u, struct space *s, const struct pd_map *maps,
    size_t n, uint64_t gen)
{
	struct module *mod;
	const char *file;
	size_t i, k, nseen = 0;
	uint64_t key, stamp, since = 0;
	uint32_t pid = s->pid;
	int found;

	stamp = ++s->syncs;
	/*
	 * Nothing unmapped or cut since the last sync: only the maps that
	 * came in since need a look (an integer compare for the others).
	 */
	if (s->dwfl != NULL && s->synced &&
	    pd_syms_maps_cut(u->syms, pid) <= s->gen) {
		since = s->gen;
		goto add;
	}
	/* Which modules are still mapped. */
	for (i = 0; i < n; i++) {
		if (map_file(u, &maps[i]) == NULL)
			continue;
		k = mod_find(s, maps[i].start - maps[i].pgoff, maps[i].path,
		    &found);
		if (found && s->mods[k].seen != stamp) {
			s->mods[k].seen = stamp;
			nseen++;
		}
	}
	if (nseen < s->nmods) {
		space_reset(s);
		s->used = 1;
		s->pid = pid;
		s->syncs = stamp;
	}
add:
	if (s->dwfl == NULL && (s->dwfl = dwfl_begin(&dwfl_cbs)) == NULL)
		return -1;
	dwfl_report_begin_add(s->dwfl);
	for (i = 0; i < n; i++) {
		if (maps[i].gen <= since ||
		    (file = map_file(u, &maps[i])) == NULL)
			continue;
		key = maps[i].start - maps[i].pgoff;
		k = mod_find(s, key, maps[i].path, &found);
		if (found)
			continue;
		if (s->nmods == s->capmods) {
			size_t cap = s->capmods ? 2 * s->capmods : 16;
			struct module *nm = realloc(s->mods,
			    cap * sizeof(*nm));

			if (nm == NULL)
				break;
			s->mods = nm;
			s->capmods = cap;
		}
		memmove(s->mods + k + 1, s->mods + k,
		    (s->nmods - k) * sizeof(*s->mods));
		mod = &s->mods[k];
		if ((mod->path = strdup(maps[i].path)) == NULL) {
			memmove(s->mods + k, s->mods + k + 1,
			    (s->nmods - k) * sizeof(*s->mods));
			break;
		}
		mod->key = key;
		mod->seen = stamp;
		s->nmods++;
		/* A file rebuilt since: its tables would make up frames. */
		mod->ok = pd_syms_file_ok(u->syms, pid, maps[i].start) &&
		    report(s->dwfl, mod->path, file, &maps[i]);
	}
	dwfl_report_end(s->dwfl, NULL, NULL);
	s->gen = gen;
	s->synced = i == n;
	return i == n ? 0 : -1;
}

/*
 * The space for pid's maps: one whose Dwfl already has these very maps
 * (the same pd_syms_maps_id: a FORK's children share their parent's
 * maps, so thousands of them need not each report every file again),
 * else pid's own, synced, else the least recently used one, reset.
 */
static struct space *
space_get(struct pd_unwind *u, uint32_t pid, const struct pd_map *maps,
    size_t n, uint64_t gen)
{
	struct space *s, *victim = NULL;
	uint64_t id = pd_syms_maps_id(u->syms, pid);
	size_t i;

	u->clock++;
	for (i = 0; id != 0 && i < PD_UNWIND_SPACES; i++) {
		s = &u->spaces[i];
		if (s->used && s->synced && s->mapsid == id) {
			s->stamp = u->clock;
			return s;
		}
	}
	for (i = 0; i < PD_UNWIND_SPACES; i++) {
		s = &u->spaces[i];
		if (s->used && s->pid == pid)
			goto found;
		/* A free slot, else the least recently used. */
		if (victim == NULL || (victim->used && (!s->used ||
		    s->stamp < victim->stamp)))
			victim = s;
	}
	s = victim;
	space_reset(s);
	s->used = 1;
	s->pid = pid;
	s->gen = gen + 1;	/* not yet synced */
found:
	s->stamp = u->clock;
	if (s->gen != gen && space_sync(u, s, maps, n, gen) < 0) {
		space_reset(s);
		return NULL;
	}
	s->mapsid = id;
	return s;
}

/* ---- the arch, for attaching ---- */

static Elf *
fake_elf(struct pd_unwind *u, int arch)
{
	struct fake_elf *f = &u->fake[arch];
	int mach = pd_regs_elf_machine(arch);

	if (f->elf != NULL)
		return f->elf;
	if (mach == 0)
		return NULL;
	memset(f->buf, 0, sizeof(f->buf));
	memcpy(f->buf, ELFMAG, SELFMAG);
	f->buf[EI_DATA] = ELFDATA2LSB;
	f->buf[EI_VERSION] = EV_CURRENT;
	if (arch == PD_REGS_I386) {
		Elf32_Ehdr eh;

		memcpy(&eh, f->buf, sizeof(eh));
		eh.e_ident[EI_CLASS] = ELFCLASS32;
		eh.e_type = ET_CORE;
		eh.e_machine = (Elf32_Half)mach;
		eh.e_version = EV_CURRENT;
		eh.e_ehsize = sizeof(eh);
		memcpy(f->buf, &eh, sizeof(eh));
		f->elf = elf_memory((char *)f->buf, sizeof(eh));
	} else {
		Elf64_Ehdr eh;

		memcpy(&eh, f->buf, sizeof(eh));
		eh.e_ident[EI_CLASS] = ELFCLASS64;
		eh.e_type = ET_CORE;
		eh.e_machine = (Elf64_Half)mach;
		eh.e_version = EV_CURRENT;
		eh.e_ehsize = sizeof(eh);
		memcpy(f->buf, &eh, sizeof(eh));
		f->elf = elf_memory((char *)f->buf, sizeof(eh));
	}
	return f->elf;
}

/* ---- the API ---- */

struct pd_unwind *
pd_unwind_new(struct pd_syms *syms)
{
	struct pd_unwind *u;

	if ((u = calloc(1, sizeof(*u))) == NULL)
		return NULL;
	u->syms = syms;
	u->vdso_fd = -1;
	elf_version(EV_CURRENT);
	return u;
}

void
pd_unwind_free(struct pd_unwind *u)
{
	size_t i;

	if (u == NULL)
		return;
	for (i = 0; i < PD_UNWIND_SPACES; i++)
		space_reset(&u->spaces[i]);
	for (i = 0; i < sizeof(u->fake) / sizeof(u->fake[0]); i++)
		if (u->fake[i].elf != NULL)
			elf_end(u->fake[i].elf);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u);
}

void
pd_unwind_record(struct pd_unwind *u, const struct pd_rec *rec)
{
	struct utsname un;

	if (rec->type != PD_RECORD_HEADER_FEATURE)
		return;
	(void)pd_header_info_update(&u->hi, rec);
	/* This host: same name, same kernel (hence the same vdso). */
	u->host = uname(&un) == 0 && u->hi.hostname[0] != '\0' &&
	    strcmp(u->hi.hostname, un.nodename) == 0 &&
	    strcmp(u->hi.osrelease, un.release) == 0;
}

size_t
pd_unwind_sample(struct pd_unwind *u, const struct pd_sample *s,
    uint64_t *ips, size_t max)
{
	struct cur *c = &u->cur;
	const struct pd_map *maps;
	struct space *sp;
	size_t n;
	uint64_t gen, ra;
	Elf *elf;
	pid_t tid;

	/*
	 * Nothing captured, nothing to walk; perf adds no frame either
	 * (its user_stack.size is the dyn_size: 0 when the kernel could
	 * not copy the stack, as during an exec).
	 */
	if (max == 0 || !(s->type & PERF_SAMPLE_REGS_USER) ||
	    !(s->type & PERF_SAMPLE_STACK_USER) || s->stack == NULL ||
	    s->stack_size == 0 || s->stack_dyn_size == 0)
		return 0;
	c->arch = pd_regs_arch(u->hi.arch, s->regs_user_abi,
	    s->regs_user_mask);
	if (c->arch == PD_REGS_NONE ||
	    pd_regs_dwarf(c->arch, s->regs_user_mask, s->regs_user,
	    s->regs_user_nr, c->dw, &c->valid, &c->ndw, &c->ip, &c->sp) < 0)
		return 0;
	ips[0] = c->ip;
	if (max == 1)
		return 1;
	if ((maps = pd_syms_maps(u->syms, s->pid, &n, &gen)) == NULL || n == 0)
		return 1;
	if ((sp = space_get(u, s->pid, maps, n, gen)) == NULL)
		return 1;
	if (sp->arch == PD_REGS_NONE && !sp->attach_failed) {
		if ((elf = fake_elf(u, c->arch)) != NULL &&
		    dwfl_attach_state(sp->dwfl, elf, (pid_t)s->pid, &thread_cbs,
		    u))
			sp->arch = c->arch;
		else
			sp->attach_failed = 1;
	}
	if (sp->arch != c->arch)
		return 1;
	c->stack = s->stack;
	c->stack_len = s->stack_dyn_size < s->stack_size ?
	    s->stack_dyn_size : s->stack_size;
	c->ips = ips;
	c->n = 0;
	c->max = max;
	c->dwfl = sp->dwfl;
	/* Any positive tid will do: get_thread takes them all. */
	tid = s->tid > 0 && s->tid <= INT32_MAX ? (pid_t)s->tid : 1;
	c->plt = 0;
	(void)dwfl_getthread_frames(sp->dwfl, tid, frame_cb, u);
	/*
	 * Out of a PLT entry, as a return would: on from the caller, at
	 * the call (ra - 1, named as perf names a caller), sp past the
	 * return address. A fresh walk, so the caller counts as the
	 * activation it now is and its CFI is looked up at the call.
	 */
	if (c->plt && c->n == 1 && c->stack_len >= 8 &&
	    (ra = pd_get_u64(c->stack)) > 1 &&
	    pd_regs_dwarf_set_pc_sp(c->arch, c->dw, &c->valid, ra - 1,
	    c->sp + 8) == 0) {
		c->plt = 0;
		(void)dwfl_getthread_frames(sp->dwfl, tid, frame_cb, u);
	}
	if (c->n == 0) {
		ips[0] = c->ip;
		return 1;
	}
	return c->n;
}

size_t
pd_unwind_frames(struct pd_unwind *u, const struct pd_sample *s,
    uint16_t misc, struct pd_frame *out, size_t max)
{
	uint64_t ips[PD_UNWIND_MAX];
	size_t n = 0, nu, i;

	if (!(s->type & PERF_SAMPLE_REGS_USER) ||
	    !(s->type & PERF_SAMPLE_STACK_USER))
		return pd_sample_frames(s, misc, out, max);
	/*
	 * The recorded chain (the kernel's part), when it has any entry
	 * besides context markers: pd_sample_frames() would stand in the
	 * sample ip for an empty one, which the unwound frames start with.
	 */
	if (s->type & PERF_SAMPLE_CALLCHAIN)
		for (i = 0; i < s->callchain_nr; i++)
			if (pd_get_u64(s->callchain + 8 * i) <
			    (uint64_t)PERF_CONTEXT_MAX) {
				n = pd_sample_frames(s, misc, out, max);
				break;
			}
	nu = pd_unwind_sample(u, s, ips,
	    max - n < PD_UNWIND_MAX ? max - n : PD_UNWIND_MAX);
	u->tried++;
	if (nu <= 1)
		u->failed++;
	for (i = 0; i < nu; i++) {
		out[n].addr = ips[i];
		out[n].cpumode = PERF_RECORD_MISC_USER;
		n++;
	}
	if (n == 0)
		return pd_sample_frames(s, misc, out, max);
	return n;
}

void
pd_unwind_counts(const struct pd_unwind *u, uint64_t *tried, uint64_t *failed)
{
	*tried = u->tried;
	*failed = u->failed;
}
