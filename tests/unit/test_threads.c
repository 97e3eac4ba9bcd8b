/* SPDX-License-Identifier: MIT */
/*
 * The thread tracker: samples counted by the comm their thread has at
 * their place in perf's delivery order (ordered-events: by time, one
 * FINISHED_ROUND late; records without a time at once), with perf's
 * thread rules: a first comm names the samples before it, a FORK gives
 * the parent's comm and replaces a thread of the same tid.
 */
#include "libcommon/stream/threads.h"

#include <stdint.h>
#include <string.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static struct pd_threads *th;

static void
rec_at(size_t at, uint64_t time)
{
	struct pd_rec r;

	memset(&r, 0, sizeof(r));
	r.data = b_buf + at;
	r.type = pd_get_u32(b_buf + at);
	r.size = pd_get_u16(b_buf + at + 6);
	T(pd_threads_record(th, &r, time) == 0);
}

static void
comm(uint32_t pid, uint32_t tid, const char *name, uint64_t time)
{
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_COMM, 0);
	b_u32(pid);
	b_u32(tid);
	b_str(name, 8);
	b_end(at);
	rec_at(at, time);
}

static void
fork_rec(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
    uint64_t time)
{
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_FORK, 0);
	b_u32(pid);
	b_u32(ppid);
	b_u32(tid);
	b_u32(ptid);
	b_u64(time);
	b_end(at);
	rec_at(at, time);
}

static void
round_end(void)
{
	size_t at;

	b_len = 0;
	at = b_rec(PD_RECORD_FINISHED_ROUND, 0);
	b_end(at);
	rec_at(at, 0);
}

static void
sample(uint32_t pid, uint32_t tid, uint64_t time)
{
	T(pd_threads_sample(th, pid, tid, time) == 0);
}

static void
start(void)
{
	pd_threads_free(th);
	T((th = pd_threads_new()) != NULL);
}

/* The comm table's count for name, 0 when it is not there. */
static uint64_t
comm_count(const char *name)
{
	struct pd_threads_row r[16];
	size_t i, n = pd_threads_top_comms(th, r, 16);

	for (i = 0; i < n; i++)
		if (strcmp(r[i].comm, name) == 0)
			return r[i].samples;
	return 0;
}

static void
end(void)
{
	T(pd_threads_end(th) == 0);
}

int
main(void)
{
	struct pd_threads_row r[4];
	uint64_t late;
	uint32_t i;

	/* A shell that execs: a COMM after the samples it splits. */
	start();
	comm(10, 10, "sh", 0);
	sample(10, 10, 10);
	sample(10, 10, 20);
	sample(10, 10, 30);
	comm(10, 10, "hot", 25);
	sample(10, 10, 40);
	round_end();
	end();
	T(comm_count("sh") == 2);
	T(comm_count("hot") == 2);
	/* The process is named as its main thread ends. */
	T(pd_threads_top_pids(th, r, 4) == 1);
	T(r[0].pid == 10 && r[0].samples == 4 && strcmp(r[0].comm, "hot") == 0);

	/*
	 * One round late: the second round goes out to the first one's
	 * newest time (20), so a COMM at 15 that comes in the third round
	 * is applied after the samples at 10 and 20 (perf warns of an
	 * out-of-order event) and before the one at 30.
	 */
	start();
	comm(11, 11, "a", 0);
	sample(11, 11, 10);
	sample(11, 11, 20);
	round_end();
	sample(11, 11, 30);
	round_end();
	comm(11, 11, "b", 15);
	sample(11, 11, 40);
	round_end();
	end();
	T(comm_count("a") == 2);
	T(comm_count("b") == 2);

	/* Without rounds everything goes out at the end, by time. */
	start();
	comm(12, 12, "a", 0);
	sample(12, 12, 10);
	sample(12, 12, 30);
	comm(12, 12, "b", 20);
	end();
	T(comm_count("a") == 1);
	T(comm_count("b") == 1);

	/* A thread's first comm names its samples before it too. */
	start();
	sample(20, 20, 10);
	sample(20, 20, 20);
	comm(20, 20, "late", 30);
	sample(20, 20, 40);
	sample(21, 21, 40);	/* never named */
	end();
	T(comm_count("late") == 3);
	T(comm_count(":21") == 1);

	/* A FORK: the parent's comm, until the child's own. */
	start();
	comm(30, 30, "parent", 0);
	fork_rec(31, 30, 31, 30, 50);
	sample(31, 31, 60);
	comm(31, 31, "child", 70);
	sample(31, 31, 80);
	end();
	T(comm_count("parent") == 1);
	T(comm_count("child") == 1);

	/* At equal times, the order the records came in. */
	start();
	comm(40, 40, "w", 0);
	sample(40, 40, 100);
	comm(40, 40, "x", 100);
	sample(40, 40, 100);
	round_end();
	sample(40, 40, 200);	/* other batch, same thread */
	round_end();
	end();
	T(comm_count("w") == 1);
	T(comm_count("x") == 2);

	/* A record without a time applies at once, before what waits. */
	start();
	comm(50, 50, "p", 0);
	sample(50, 50, 10);
	comm(50, 50, "q", 0);
	end();
	T(comm_count("p") == 0);
	T(comm_count("q") == 1);

	/*
	 * A process: its threads' samples, named by its main thread; a
	 * FORK of a known tid starts a new thread there, whose counts
	 * add to the old one's.
	 */
	start();
	comm(1, 1, "init", 0);
	comm(60, 60, "main", 0);
	fork_rec(60, 60, 61, 60, 5);
	sample(60, 60, 10);
	sample(60, 61, 11);
	sample(60, 61, 12);
	comm(70, 70, "old", 0);
	sample(70, 70, 13);
	sample(70, 70, 14);
	fork_rec(70, 1, 70, 1, 20);
	sample(70, 70, 30);
	end();
	T(comm_count("main") == 3);
	T(comm_count("old") == 2 && comm_count("init") == 1);
	T(pd_threads_top_pids(th, r, 4) == 2);
	T(r[0].pid == 60 && r[0].samples == 3 && strcmp(r[0].comm, "main") == 0);
	T(r[1].pid == 70 && r[1].samples == 3 && strcmp(r[1].comm, "init") == 0);

	/* The idle task is swapper; samples without a time count at once. */
	start();
	sample(0, 0, 0);
	sample(0, 0, 5);
	end();
	T(comm_count("swapper") == 2);

	/*
	 * Many samples over many rounds, two threads taking turns (the
	 * inline path, and lists that grow): a COMM in the middle.
	 */
	start();
	comm(80, 80, "one", 0);
	comm(81, 81, "two", 0);
	for (i = 1; i <= 100000; i++) {
		sample(80 + (i / 7) % 2, 80 + (i / 7) % 2, i);
		if (i == 50000)
			comm(80, 80, "uno", 49000);
		if (i % 1000 == 0)
			round_end();
	}
	end();
	/* Thread 80's samples after time 49000 are uno's. */
	for (i = 1, late = 0; i <= 100000; i++)
		late += (i / 7) % 2 == 0 && i > 49000;
	T(comm_count("uno") == late);
	T(comm_count("one") == 50000 - late);
	T(comm_count("two") == 50000);

	/* Threads past PD_THREADS_MAX are counted apart. */
	start();
	for (i = 1; i <= PD_THREADS_MAX + 10; i++)
		sample(i, i, 0);
	end();
	T(pd_threads_untracked(th) == 11);	/* tid 0 holds a slot */
	pd_threads_free(th);
	return T_END();
}
