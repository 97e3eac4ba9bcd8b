/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: what is recorded: the CPUs (-a, -C) and the threads (-p, -t, the
 * command).
 */
#include "pdrecord/extern.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/msg.h"

int cpus[MAX_CPUS], ncpus;
pid_t *threads;
int nthreads;
int cmd_is_target;	/* the command is recorded (not -p/-t) */

int
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

/*
 * After parse_cpu_list(): each cpu is online, or one line names the
 * first that is not and those that are. 0 or -1.
 */
int
check_cpus_online(const char *arg)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char line[4096];
	unsigned char on[MAX_CPUS / 8] = { 0 };
	char *s, *end;
	long a, b;
	int i;

	if (f == NULL)
		return 0;		/* not known: the kernel will say */
	if (fgets(line, sizeof(line), f) == NULL) {
		fclose(f);
		return 0;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	for (s = line; *s != '\0';) {
		a = b = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= MAX_CPUS)
			return 0;
		if (*end == '-' && ((b = strtol(end + 1, &end, 10)) < a ||
		    b >= MAX_CPUS))
			return 0;
		for (; a <= b; a++)
			on[a / 8] |= 1U << (a % 8);
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s != '\0')
			return 0;
	}
	for (i = 0; i < ncpus; i++)
		if (!(on[cpus[i] / 8] & (1U << (cpus[i] % 8)))) {
			pd_warnx("-C %s: cpu %d is not online (online: %s)",
			    arg, cpus[i], line);
			return -1;
		}
	return 0;
}

void
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

void
add_thread(pid_t t)
{
	pid_t *n = realloc(threads, (nthreads + 1) * sizeof(*n));

	if (n == NULL)
		pd_die_nomem();
	threads = n;
	threads[nthreads++] = t;
}

/*
 * Every thread of each pid in a list; -1 if one does not exist, -2 if
 * one is not a number (said).
 */
int
add_pids(const char *list, int all_threads)
{
	char *copy = strdup(list), *tok, *save = NULL, *end, path[64];
	long v;

	if (copy == NULL)
		pd_die_nomem();
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		v = strtol(tok, &end, 10);
		if (end == tok || *end != '\0' || v <= 0) {
			pd_warnx("bad process id '%s' (a number above 0)", tok);
			free(copy);
			return -2;
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
