/* SPDX-License-Identifier: MIT */
/*
 * rusage: run one shell command and report its wall time and the peak
 * resident set of the largest process it ran.
 *
 *	rusage [-o file] command
 *
 * Runs `sh -c command`, waits for it, and writes one line
 *
 *	wall 1.234567 cpu 0.456789 maxrss_kb 5120 status 0
 *
 * to file (default: standard error): seconds of wall time, seconds of
 * CPU time (user + system) of all its processes, and the peak. CPU time
 * is the steadier figure on a busy machine. The peak comes from
 * getrusage(RUSAGE_CHILDREN), which covers every descendant that was
 * waited for, so `pdcat < big | cat` reports the larger of the two.
 * The exit status is the command's (128 + signal if it was killed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void
usage(void)
{
	fputs("usage: rusage [-o file] command\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	const char *outpath = NULL;
	FILE *out = stderr;
	double wall, cpu;
	pid_t pid;
	int c, st, status;

	while ((c = getopt(argc, argv, "+o:")) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "rusage: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", argv[optind], (char *)NULL);
		fprintf(stderr, "rusage: /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "rusage: waitpid: %s\n",
			    strerror(errno));
			return 1;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		fprintf(stderr, "rusage: getrusage: %s\n", strerror(errno));
		return 1;
	}
	wall = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	if (outpath != NULL && (out = fopen(outpath, "w")) == NULL) {
		fprintf(stderr, "rusage: %s: %s\n", outpath, strerror(errno));
		return 1;
	}
	fprintf(out, "wall %.6f cpu %.6f maxrss_kb %ld status %d\n", wall,
	    cpu, ru.ru_maxrss, status);
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "rusage: %s: %s\n", outpath, strerror(errno));
		return 1;
	}
	return status;
}
