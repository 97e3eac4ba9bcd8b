/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from /proc/kallsyms, only when the stream comes from
 * this host and this boot (same os release and hostname, and the
 * kernel mmap's reference symbol at the address kallsyms gives), or from
 * a kallsyms file the user names (then relocated by the difference at
 * that reference symbol, as perf does for KASLR).
 */
#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <gelf.h>

#include "libcommon/stream/perf.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

int
pd_kallsyms_host(struct pd_syms *sy)
{
	struct utsname u;
	const unsigned need = 1U << PD_FEAT_HOSTNAME | 1U << PD_FEAT_OSRELEASE;

	if (sy->host != 0)
		return sy->host - 2;
	if ((sy->hi.seen & need) != need || uname(&u) < 0)
		sy->host = 1;
	else
		sy->host = strcmp(u.release, sy->hi.osrelease) == 0 &&
		    strcmp(u.nodename, sy->hi.hostname) == 0 ? 3 : 2;
	return sy->host - 2;
}

struct kparse {
	struct pd_symtab_builder b;
	uint64_t	 ref;		/* the reference symbol's address */
	int		 has_ref;
	size_t		 n, nonzero;
};

/*
 * The address a kallsyms line starts with: 1 to 16 hex digits and a
 * space. Returns where the space is, or NULL. (strtoull, with its
 * locale and its overflow checks, was a third of loading kallsyms.)
 */
static char *
hex_addr(char *p, uint64_t *a)
{
	uint64_t v = 0;
	unsigned d, n;

	for (n = 0; n < 17; n++, p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	if (n == 0 || n > 16 || *p != ' ')
		return NULL;
	*a = v;
	return p;
}

static int
parse(struct pd_syms *sy, FILE *f, struct kparse *kp)
{
	char *line = NULL, *p, *end, *name, *mod;
	size_t cap = 0;
	ssize_t len;
	uint64_t a;
	char type;
	int r = 0;

	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if ((end = hex_addr(line, &a)) == NULL)
			continue;
		p = end + 1;
		type = *p;
		if (type == '\0' || p[1] != ' ')
			continue;
		name = p + 2;
		mod = strchr(name, '\t');
		if (kp->has_ref == 0 && sy->kref[0] != '\0' &&
		    mod == NULL && strcmp(name, sy->kref) == 0) {
			kp->ref = a;
			kp->has_ref = 1;
		}
		switch (toupper((unsigned char)type)) {
		case 'T':
		case 'W':
			break;
		default:
			continue;
		}
		kp->n++;
		if (a != 0)
			kp->nonzero++;
		if (pd_symtab_add(&kp->b, a, 0, name,
		    mod != NULL ? (size_t)(mod - name) : strlen(name),
		    type == 'W' ? STB_WEAK : isupper((unsigned char)type) ?
		    STB_GLOBAL : STB_LOCAL, mod != NULL) < 0) {
			r = -1;
			break;
		}
	}
	free(line);
	return r;
}

int
pd_kallsyms_load(struct pd_syms *sy)
{
	const char *file = sy->kallsyms_path;
	struct kparse kp;
	int64_t delta = 0;
	size_t i;
	FILE *f;
	int h;

	if (sy->ktried != 0)
		return sy->ktried > 0;
	sy->ktried = -1;
	if (file == NULL) {
		if ((h = pd_kallsyms_host(sy)) != 1) {
			if (h == 0)
				pd_syms_note(sy, "kernel symbols are not shown: "
				    "the stream is from %s (%s), not this host; "
				    "see --kallsyms", sy->hi.hostname,
				    sy->hi.osrelease);
			else
				pd_syms_note(sy, "kernel symbols are not shown: "
				    "the stream does not name its host; "
				    "see --kallsyms");
			return 0;
		}
		file = "/proc/kallsyms";
	}
	if ((f = fopen(file, "re")) == NULL) {
		pd_syms_note(sy, "%s: %s; kernel symbols are not shown", file,
		    strerror(errno));
		return 0;
	}
	memset(&kp, 0, sizeof(kp));
	if (parse(sy, f, &kp) < 0 || ferror(f)) {
		fclose(f);
		pd_symtab_builder_free(&kp.b);
		pd_syms_note(sy, "%s: cannot read it; kernel symbols are not "
		    "shown", file);
		return 0;
	}
	fclose(f);
	if (pd_symtab_finish(&kp.b, &sy->ksyms, 1) < 0)
		return 0;
	if (kp.nonzero == 0) {
		pd_symtab_free(&sy->ksyms);
		pd_syms_note(sy, "%s: %s; kernel symbols are not shown", file,
		    kp.n == 0 ? "no symbols" : "its addresses are hidden "
		    "(kernel.kptr_restrict; run as root)");
		return 0;
	}
	if (kp.has_ref && sy->kref_addr != kp.ref) {
		if (sy->kallsyms_path == NULL) {
			/* This host, yet another boot: never wrong names. */
			pd_symtab_free(&sy->ksyms);
			pd_syms_note(sy, "kernel symbols are not shown: the "
			    "stream's kernel map (%s at 0x%" PRIx64 ") does not "
			    "match %s (0x%" PRIx64 "); see --kallsyms",
			    sy->kref, sy->kref_addr, file, kp.ref);
			return 0;
		}
		delta = (int64_t)(sy->kref_addr - kp.ref);
		for (i = 0; i < sy->ksyms.n; i++) {
			sy->ksyms.syms[i].start += delta;
			sy->ksyms.syms[i].end += delta;
		}
	}
	sy->ktried = 1;
	return 1;
}
