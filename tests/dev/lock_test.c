/*
 * lock_test.c: the control side's lock, which every attached process
 * can take, against a holder that never lets go: the server's calls
 * give up within a bound and say why (EAGAIN), and once the holder is
 * killed the next call takes the lock back (robust); against a lock
 * word scribbled with any value (busy or taken over within the bound,
 * never a crash); and mutual exclusion among threads of two processes.
 * Also the host's hostzero, which gives a session's written pages back.
 * The real host (host/shm*.c, host/linux.c) on a device in a directory
 * of its own.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <sys/stat.h>
#include "host/shm.h"
#include "dev/host.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_stuck_holder(void **unused)
{
	char dir[] = "/tmp/devtrace-locktest-XXXXXX", buf[Statemax], err[Errmax], c;
	Reader rd = { 0 };
	double t;
	Shm *s;
	int p[2], e;
	pid_t pid;
	size_t n;

	(void)unused;
	alarm(20);	/* a lock that is not timed hangs here: fail, not hang */
	assert_non_null(mkdtemp(dir));
	assert_non_null(shmcreate(dir, 8, Nringdef, 1000000, &s));
	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		shmlock(s);	/* and never unlock: a stopped or malicious process */
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	assert_int_equal(read(p[0], &c, 1), 1);

	t = now();
	errno = 0;
	n = shmstate(s, buf, sizeof buf);
	assert_true(now() - t < 1.0);
	assert_int_equal(n, 0);
	assert_int_equal(errno, EAGAIN);

	t = now();
	e = shmctl(s, "start", 5, getpid(), NULL, err, sizeof err);
	assert_true(now() - t < 1.0);
	assert_int_equal(e, EAGAIN);
	assert_string_equal(err, "device busy: another process holds its lock");

	t = now();
	assert_int_equal(shmtake(s, &rd, buf, sizeof buf), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(shmreader(s, getpid(), 1), EAGAIN);
	assert_true(now() - t < 1.0);

	/* the holder dies: the lock is taken back, the state is whole */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(shmctl(s, "start", 5, getpid(), NULL, err, sizeof err), 0);
	n = shmstate(s, buf, sizeof buf);
	assert_true(n > 0);
	assert_non_null(strstr(buf, "\nstart\n"));
	shmstop(s);
	shmremove(dir);
	rmdir(dir);
	alarm(0);
}

/*
 * The lock word's place is the header's (host/shmdat.h) alone: the test
 * writes the value into every 32-bit word of the header's first Hdrscan
 * bytes, as a scribbler that knows nothing would, which the lock word is
 * one of; the rest of the header is not read by shmlock or shmstate.
 */
enum { Hdrbytes = 4096, Hdrscan = 64 };

static uint32_t *
hdrwords(Shm *s)
{
	return (uint32_t *)((char *)shmdev(s) - Hdrbytes);
}

static void
scribble(Shm *s, uint32_t v)
{
	uint32_t *w = hdrwords(s);
	size_t i;

	for (i = 0; i < Hdrscan / 4; i++)
		__atomic_store_n(&w[i], v, __ATOMIC_RELAXED);
}

/* a pid that was a process's a moment ago: forked, exited, reaped */
static uint32_t
deadpid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (uint32_t)p;
}

/* shmstate over the scribbled word v: want 1, the lock taken over; 0, busy; -1, either */
static void
scribbled(Shm *s, uint32_t v, int want)
{
	static uint32_t saved[Hdrscan / 4];
	char buf[Statemax];
	double t;
	size_t n;

	memcpy(saved, hdrwords(s), sizeof saved);
	scribble(s, v);
	t = now();
	errno = 0;
	n = shmstate(s, buf, sizeof buf);
	if (want < 0)
		assert_true(n > 0 || errno == EAGAIN);
	else if (want)
		assert_true(n > 0);
	else {
		assert_int_equal(n, 0);
		assert_int_equal(errno, EAGAIN);
	}
	assert_true(now() - t < 1.0);
	if (n > 0)	/* taken over: and let go, so the next one finds it free */
		assert_int_equal(shmstate(s, buf, sizeof buf), n);
	memcpy(hdrwords(s), saved, sizeof saved);
}

static void
test_scribbled_word(void **unused)
{
	char dir[] = "/tmp/devtrace-locktest-XXXXXX", buf[Statemax], err[Errmax];
	Shm *s;
	int i;

	(void)unused;
	alarm(30);
	srandom(getpid());
	assert_non_null(mkdtemp(dir));
	assert_non_null(shmcreate(dir, 8, Nringdef, 1000000, &s));
	assert_int_equal(shmctl(s, "start", 5, getpid(), NULL, err, sizeof err), 0);

	scribbled(s, 0xffffffff, 1);	/* no pid: taken over */
	scribbled(s, 0x80000000, 1);
	scribbled(s, 0x7fffffff, 1);
	scribbled(s, deadpid(), 1);	/* its holder died */
	scribbled(s, (uint32_t)syscall(SYS_gettid), 1);	/* ours, but we do not hold it */
	scribbled(s, (uint32_t)getpid(), 1);
	scribbled(s, (uint32_t)getppid(), 0);	/* a live process: busy */
	for (i = 0; i < 200; i++)
		scribbled(s, (uint32_t)random() ^ (uint32_t)random() << 16, -1);
	for (i = 0; i < 50; i++)
		scribbled(s, 1 + (uint32_t)random() % 4194304, -1);	/* pid-like */

	/* scribbled while held: the holder lets go without a crash, the next caller resolves it */
	for (i = 0; i < 50; i++) {
		uint32_t v = i % 2 ? (uint32_t)random() : deadpid();
		size_t n;

		assert_int_equal(shmlock(s), 0);
		scribble(s, v);
		shmunlock(s);
		errno = 0;
		n = shmstate(s, buf, sizeof buf);
		assert_true(n > 0 || errno == EAGAIN);
		scribble(s, 0);
	}
	assert_true(shmstate(s, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, "\nstart\n"));
	shmstop(s);
	shmremove(dir);
	rmdir(dir);
	alarm(0);
}

/*
 * Mutual exclusion: Nthreads threads in each of two processes add 1 to
 * a shared counter Nadds times each under the lock, by a read, a pause
 * and a write, so that two holders at once would lose additions.  A call
 * that gives up (EAGAIN, the bound passed under contention) is retried.
 */
enum { Nthreads = 4, Nadds = 2000 };

static Shm *mxshm;
static volatile uint64_t *counter;

static void *
adder(void *unused)
{
	uint64_t v;
	int i;

	(void)unused;
	for (i = 0; i < Nadds; ) {
		if (shmlock(mxshm) != 0)
			continue;
		v = *counter;
		if (i % 64 == 0)
			sched_yield();
		*counter = v + 1;
		shmunlock(mxshm);
		i++;
	}
	return NULL;
}

static void
addall(void)
{
	pthread_t t[Nthreads];
	int i;

	for (i = 0; i < Nthreads; i++)
		pthread_create(&t[i], NULL, adder, NULL);
	for (i = 0; i < Nthreads; i++)
		pthread_join(t[i], NULL);
}

static void
test_mutual_exclusion(void **unused)
{
	char dir[] = "/tmp/devtrace-locktest-XXXXXX";
	int status;
	pid_t pid;

	(void)unused;
	alarm(60);
	assert_non_null(mkdtemp(dir));
	assert_non_null(shmcreate(dir, 8, Nringdef, 1000000, &mxshm));
	counter = mmap(NULL, sizeof *counter, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0);
	assert_true(counter != MAP_FAILED);
	*counter = 0;
	if ((pid = fork()) == 0) {
		addall();
		_exit(0);
	}
	addall();
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_int_equal(*counter, 2 * Nthreads * Nadds);
	munmap((void *)counter, sizeof *counter);
	shmstop(mxshm);
	shmremove(dir);
	rmdir(dir);
	alarm(0);
}

/* hostzero on a shared tmpfs mapping: zeros exactly where asked, the whole pages inside given back */
static void
test_hostzero(void **unused)
{
	char path[] = "/dev/shm/devtrace-zero.XXXXXX";
	long pg = getpagesize();
	struct stat st;
	unsigned char *p;
	long i;
	int fd;

	(void)unused;
	assert_true((fd = mkstemp(path)) >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, 4 * pg), 0);
	assert_true((p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) != MAP_FAILED);
	memset(p, 0xa5, 4 * pg);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_blocks * 512, 4 * pg);
	hostzero(p + 100, 3 * pg);	/* part of page 0, pages 1 and 2, part of page 3 */
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_blocks * 512, 2 * pg);	/* pages 1 and 2 no longer held (until read: a read fault takes a page) */
	for (i = 0; i < 4 * pg; i++)
		if (p[i] != (i >= 100 && i < 100 + 3 * pg ? 0 : 0xa5))
			fail_msg("byte %ld is %#x", i, p[i]);
	munmap(p, 4 * pg);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stuck_holder),
		cmocka_unit_test(test_scribbled_word),
		cmocka_unit_test(test_mutual_exclusion),
		cmocka_unit_test(test_hostzero),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
