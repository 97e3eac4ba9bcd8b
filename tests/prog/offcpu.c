/* SPDX-License-Identifier: MIT */
/*
 * A program that waits for known times, for the off-CPU tests. Three
 * threads, named so that their stacks say who they are:
 *   pd_sleeper  sleeps 200 ms twice, in pd_off_sleep (400 ms off CPU);
 *   pd_piper    blocks on an empty pipe in pd_off_read until main
 *               writes to it, 300 ms after it started (about 300 ms:
 *               less when the thread first ran late, so it times
 *               its read and main prints that);
 *   pd_spinner  burns 200 ms of its own CPU time in pd_off_spin, and
 *               waits for nothing.
 * Built with frame pointers; the waits are long against scheduling
 * noise, so that they hold on a busy machine.
 *
 * Then every thread waits in pause() for good, and main prints "done"
 * and the read's wall time in microseconds on standard output: a
 * recording stopped then has seen each measured wait end and its thread
 * switch out again, alive. (perf sched
 * timehist gives the wait before a thread's exit to a thread -1, since
 * the exiting switch-out's sample carries pid -1.) Kill it afterwards.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int pfd[2];
static sem_t done;
static volatile unsigned long sink;
static long read_us;		/* pd_off_read's read, from call to return */

static void
name(const char *s)
{
	prctl(PR_SET_NAME, s, 0, 0, 0);
}

static __attribute__((noinline)) void
nap(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The wait itself one call down: its caller is in the stack. */
__attribute__((noinline)) void
pd_off_sleep(void)
{
	nap(200);
	sink++;
}

static __attribute__((noinline)) ssize_t
get(char *c)
{
	return read(pfd[0], c, 1);
}

__attribute__((noinline)) void
pd_off_read(void)
{
	struct timespec t0, t1;
	char c;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (get(&c) != 1)
		perror("read");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	read_us = (t1.tv_sec - t0.tv_sec) * 1000000L +
	    (t1.tv_nsec - t0.tv_nsec) / 1000;
	sink++;
}

static long
cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

__attribute__((noinline)) void
pd_off_spin(void)
{
	long start = cpu_ms();

	while (cpu_ms() - start < 200)
		sink++;
}

static void
finish(void)
{
	sem_post(&done);
	for (;;)
		pause();
}

static void *
sleeper(void *arg)
{
	(void)arg;
	name("pd_sleeper");
	pd_off_sleep();
	pd_off_sleep();
	finish();
	return NULL;
}

static void *
piper(void *arg)
{
	(void)arg;
	name("pd_piper");
	pd_off_read();
	finish();
	return NULL;
}

static void *
spinner(void *arg)
{
	(void)arg;
	name("pd_spinner");
	pd_off_spin();
	finish();
	return NULL;
}

int
main(void)
{
	pthread_t t[3];
	int i;

	if (pipe(pfd) < 0 || sem_init(&done, 0, 0) < 0) {
		perror("pipe");
		return 1;
	}
	pthread_create(&t[0], NULL, sleeper, NULL);
	pthread_create(&t[1], NULL, piper, NULL);
	pthread_create(&t[2], NULL, spinner, NULL);
	nap(300);
	if (write(pfd[1], "x", 1) != 1)
		perror("write");
	for (i = 0; i < 3; i++)
		while (sem_wait(&done) != 0)
			;
	/* sem_wait orders read_us's store before this read. */
	printf("done %ld\n", read_us);
	fflush(stdout);
	for (;;)
		pause();
}
