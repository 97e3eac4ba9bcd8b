/* SPDX-License-Identifier: MIT */
#include "libcommon/rec/events.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evname.h"
#include "libcommon/stream/perf.h"

/* Applies modifier letters ("u", "k", "S"...) to ev. */
static int
modifiers(struct pd_event *ev, const char *m, int in_group, char *why,
    size_t len)
{
	int u = 0, k = 0;

	for (; *m != '\0'; m++) {
		switch (*m) {
		case 'u':
			u = 1;
			break;
		case 'k':
			k = 1;
			break;
		case 'S':
			if (!in_group) {
				snprintf(why, len, "modifier S needs a group "
				    "{...}:S");
				return -1;
			}
			ev->leader_sample = 1;
			break;
		case 'p': case 'P': case 'H': case 'G':
			/* Precision and host/guest: no meaning here. */
			break;
		default:
			snprintf(why, len, "unknown event modifier '%c'", *m);
			return -1;
		}
	}
	if (u && !k)
		ev->exclude_kernel = 1;
	if (k && !u)
		ev->exclude_user = 1;
	return 0;
}

/* The type of PMU pmu: the kernel's fixed ones, else from sysfs. */
static int
pmu_type(const char *pmu, uint32_t *type)
{
	char path[256];
	unsigned t;
	FILE *f;
	int ok;

	if (strcmp(pmu, "software") == 0) {
		*type = PERF_TYPE_SOFTWARE;
		return 0;
	}
	if (strcmp(pmu, "tracepoint") == 0) {
		*type = PERF_TYPE_TRACEPOINT;
		return 0;
	}
	if (strchr(pmu, '/') != NULL || strcmp(pmu, "..") == 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/type", PD_PMU_DIR, pmu);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	ok = fscanf(f, "%u", &t) == 1;
	fclose(f);
	*type = t;
	return ok ? 0 : -1;
}

/* A term's number ("0x1a", "42"); 0, or -1 when it is none. */
static int
term_number(const char *v, uint64_t *out)
{
	char *end;

	if (v == NULL || *v == '\0' || *v == '-')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 0);
	return *end != '\0' || errno != 0 ? -1 : 0;
}

#define PMU_TERMS	"config, config1, config2, name, period, freq, " \
			"inherit, no-inherit"

/*
 * "pmu/term,term.../[mods]", as perf's parser takes it: the name is the
 * text as written unless a name= term gives one (modifiers then do not
 * show in it, as in perf).
 */
static int
parse_pmu(struct pd_event *ev, char *s, char *why, size_t len)
{
	char *slash = strchr(s, '/'), *terms, *close, *t, *v, *next;
	const char *name = NULL;
	uint64_t n;

	snprintf(ev->name, sizeof(ev->name), "%s", s);
	if (strlen(s) >= sizeof(ev->name)) {
		snprintf(why, len, "event name longer than %zu bytes",
		    sizeof(ev->name) - 1);
		return -1;
	}
	*slash = '\0';
	terms = slash + 1;
	if ((close = strchr(terms, '/')) == NULL) {
		snprintf(why, len, "'%s/' has no closing '/'", s);
		return -1;
	}
	*close = '\0';
	if (*s == '\0' || pmu_type(s, &ev->type) < 0) {
		snprintf(why, len, "no PMU '%s' (see %s)", s, PD_PMU_DIR);
		return -1;
	}
	ev->pmu_syntax = 1;
	for (t = terms; t != NULL && *t != '\0'; t = next) {
		if ((next = strchr(t, ',')) != NULL)
			*next++ = '\0';
		if ((v = strchr(t, '=')) != NULL)
			*v++ = '\0';
		if (strcmp(t, "name") == 0 && v != NULL && *v != '\0' &&
		    strlen(v) < sizeof(ev->name)) {
			name = v;
			continue;
		}
		if (strcmp(t, "no-inherit") == 0 && v == NULL) {
			ev->has_inherit = 1;
			ev->inherit = 0;
			continue;
		}
		if (strcmp(t, "config") != 0 && strcmp(t, "config1") != 0 &&
		    strcmp(t, "config2") != 0 && strcmp(t, "period") != 0 &&
		    strcmp(t, "freq") != 0 && strcmp(t, "inherit") != 0 &&
		    strcmp(t, "name") != 0) {
			snprintf(why, len, "unknown term '%s' for PMU '%s' "
			    "(pdrecord takes " PMU_TERMS ")", t, s);
			return -1;
		}
		if (term_number(v, &n) < 0 || (n == 0 &&
		    (strcmp(t, "period") == 0 || strcmp(t, "freq") == 0)) ||
		    (n > 1 && strcmp(t, "inherit") == 0)) {
			snprintf(why, len, "term '%s' for PMU '%s': %s", t, s,
			    v == NULL || *v == '\0' ? "no value" :
			    strcmp(t, "name") == 0 ? "name too long" :
			    strcmp(t, "inherit") == 0 ? "0 or 1" :
			    strcmp(t, "period") == 0 ||
			    strcmp(t, "freq") == 0 ? "a number above 0" :
			    "not a number");
			return -1;
		}
		if (strcmp(t, "config") == 0) {
			ev->config = n;
		} else if (strcmp(t, "config1") == 0) {
			ev->config1 = n;
		} else if (strcmp(t, "config2") == 0) {
			ev->config2 = n;
		} else if (strcmp(t, "period") == 0) {
			ev->period = n;
			ev->has_period = 1;
			ev->has_freq = 0;
		} else if (strcmp(t, "freq") == 0) {
			ev->freq = n;
			ev->has_freq = 1;
			ev->has_period = 0;
		} else {
			ev->has_inherit = 1;
			ev->inherit = n != 0;
		}
	}
	if (modifiers(ev, close + 1, 0, why, len) < 0)
		return -1;
	if (name != NULL)
		snprintf(ev->name, sizeof(ev->name), "%s", name);
	return 0;
}

/*
 * One event term, without group braces: "name[:mods]", "sys:name" or
 * "pmu/terms/[mods]".
 */
static int
parse_one(struct pd_event *ev, char *s, char *why, size_t len)
{
	char *colon = strchr(s, ':'), *mods = NULL, *end;

	memset(ev, 0, sizeof(*ev));
	if (strchr(s, '/') != NULL)
		return parse_pmu(ev, s, why, len);
	if (colon != NULL) {
		*colon = '\0';
		if (pd_event_lookup(s, &ev->type, &ev->config) == 0 ||
		    (s[0] == 'r' && s[1] != '\0' &&
		    strspn(s + 1, "0123456789abcdefABCDEF") == strlen(s + 1))) {
			mods = colon + 1;
		} else {
			/* sys:name[:mods] */
			char *c2 = strchr(colon + 1, ':');

			if (c2 != NULL) {
				*c2 = '\0';
				mods = c2 + 1;
			}
			if (*s == '\0' || colon[1] == '\0' ||
			    strlen(s) >= sizeof(ev->tp_sys) ||
			    strlen(colon + 1) >= sizeof(ev->tp_name)) {
				snprintf(why, len, "bad tracepoint '%s:%s'", s,
				    colon + 1);
				return -1;
			}
			ev->type = PERF_TYPE_TRACEPOINT;
			strcpy(ev->tp_sys, s);
			strcpy(ev->tp_name, colon + 1);
			snprintf(ev->name, sizeof(ev->name), "%s:%s", s,
			    colon + 1);
			goto mod;
		}
	}
	if (pd_event_lookup(s, &ev->type, &ev->config) == 0) {
		snprintf(ev->name, sizeof(ev->name), "%s", s);
	} else if (s[0] == 'r' && s[1] != '\0') {
		errno = 0;
		ev->config = strtoull(s + 1, &end, 16);
		if (*end != '\0' || errno != 0) {
			snprintf(why, len, "bad raw event '%s'", s);
			return -1;
		}
		ev->type = PERF_TYPE_RAW;
		snprintf(ev->name, sizeof(ev->name), "%s", s);
	} else {
		snprintf(why, len, "unknown event '%s'", s);
		return -1;
	}
mod:
	if (mods != NULL) {
		if (modifiers(ev, mods, 0, why, len) < 0)
			return -1;
		snprintf(ev->name + strlen(ev->name),
		    sizeof(ev->name) - strlen(ev->name), ":%s", mods);
	}
	return 0;
}

int
pd_events_parse(const char *list, struct pd_event **evs, size_t *n,
    char *why, size_t len)
{
	char *copy = strdup(list), *p, *tok, *close, *gmods;
	struct pd_event *v;
	size_t first = 0, i;
	int r = -1, in_group = 0;

	if (copy == NULL) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	p = copy;
	while (*p != '\0') {
		if (*p == '{') {
			if (in_group) {
				snprintf(why, len, "nested groups");
				goto out;
			}
			in_group = 1;
			first = *n;
			p++;
		}
		/* The token ends at ',' or '}' outside "pmu/.../". */
		tok = p;
		for (; *p != '\0' && *p != ',' && *p != '}'; p++)
			if (*p == '/' && strchr(p + 1, '/') != NULL)
				p = strchr(p + 1, '/');
		close = *p == '}' ? p : NULL;
		if (close != NULL && !in_group) {
			snprintf(why, len, "'}' without '{'");
			goto out;
		}
		if (*p != '\0')
			*p++ = '\0';
		v = realloc(*evs, (*n + 1) * sizeof(*v));
		if (v == NULL) {
			snprintf(why, len, "out of memory");
			goto out;
		}
		*evs = v;
		if (*tok == '\0') {
			snprintf(why, len, "empty event in '%s'", list);
			goto out;
		}
		if (parse_one(&v[*n], tok, why, len) < 0)
			goto out;
		v[*n].leader = in_group ? (int)first : (int)*n;
		v[*n].nr_members = 1;
		(*n)++;
		if (close == NULL)
			continue;
		/* End of a group: ":mods" apply to every member. */
		in_group = 0;
		gmods = NULL;
		if (*p == ':') {
			gmods = p + 1;
			p += strcspn(p, ",");
			if (*p != '\0')
				*p++ = '\0';
		} else if (*p == ',') {
			p++;
		}
		v[first].nr_members = *n - first;
		for (i = first; gmods != NULL && i < *n; i++) {
			if (modifiers(&v[i], gmods, 1, why, len) < 0)
				goto out;
			if (i != first)
				v[i].leader_sample = 0;
		}
	}
	if (in_group) {
		snprintf(why, len, "'{' without '}'");
		goto out;
	}
	r = 0;
out:
	free(copy);
	return r;
}

long long
pd_tracepoint_id(const char *tracefs, const char *sys, const char *name)
{
	char path[512];
	long long id;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys,
	    name);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	ok = fscanf(f, "%lld", &id) == 1;
	fclose(f);
	if (!ok) {
		errno = EINVAL;
		return -1;
	}
	return id;
}

int
pd_event_is_glob(const struct pd_event *ev)
{
	return ev->type == PERF_TYPE_TRACEPOINT &&
	    (strpbrk(ev->tp_sys, "*?[") != NULL ||
	    strpbrk(ev->tp_name, "*?[") != NULL);
}

/*
 * The system and name of a match ".../events/<sys>/<name>/id" into ev;
 * 0, or -1 when either is too long for it.
 */
static int
glob_match(struct pd_event *ev, const char *path, size_t skip)
{
	const char *sys = path + skip, *name, *end;

	if ((name = strchr(sys, '/')) == NULL ||
	    (end = strchr(name + 1, '/')) == NULL ||
	    (size_t)(name - sys) >= sizeof(ev->tp_sys) ||
	    (size_t)(end - name - 1) >= sizeof(ev->tp_name))
		return -1;
	memcpy(ev->tp_sys, sys, name - sys);
	ev->tp_sys[name - sys] = '\0';
	memcpy(ev->tp_name, name + 1, end - name - 1);
	ev->tp_name[end - name - 1] = '\0';
	return 0;
}

int
pd_event_glob(const char *tracefs, struct pd_event **evs, size_t *n,
    size_t i)
{
	struct pd_event tmpl = (*evs)[i], e, *v;
	size_t k, m = 0, skip = strlen(tracefs) + strlen("/events/");
	const char *mods;
	char pat[512];
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/events/%s/%s/id", tracefs,
	    tmpl.tp_sys, tmpl.tp_name);
	if (glob(pat, GLOB_NOSORT, NULL, &g) != 0)
		return 0;	/* GLOB_NOMATCH, or unreadable: none */
	for (k = 0; k < g.gl_pathc; k++)
		m += glob_match(&e, g.gl_pathv[k], skip) == 0;
	if (m == 0) {
		globfree(&g);
		return 0;
	}
	if ((v = realloc(*evs, (*n + m - 1) * sizeof(*v))) == NULL) {
		globfree(&g);
		return -1;
	}
	*evs = v;
	/* What follows evs[i] moves up to make room for the matches. */
	memmove(v + i + m, v + i + 1, (*n - i - 1) * sizeof(*v));
	for (k = i + m; k < *n + m - 1; k++)
		v[k].leader += (int)m - 1;
	/* The modifiers: what the name has after "sys:name". */
	mods = tmpl.name + strlen(tmpl.tp_sys) + 1 + strlen(tmpl.tp_name);
	m = 0;
	for (k = 0; k < g.gl_pathc; k++) {
		e = tmpl;
		if (glob_match(&e, g.gl_pathv[k], skip) < 0)
			continue;
		snprintf(e.name, sizeof(e.name), "%s:%s%s", e.tp_sys,
		    e.tp_name, mods);
		e.leader = (int)(i + m);
		v[i + m++] = e;
	}
	*n += m - 1;
	globfree(&g);
	return (int)m;
}
