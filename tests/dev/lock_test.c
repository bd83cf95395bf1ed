/*
 * lock_test.c: the control side's lock, which every attached process
 * can take, against a holder that never lets go: the server's calls
 * give up within a bound and say why (EAGAIN), and once the holder is
 * killed the next call takes the lock back (robust).  The real host
 * (host/shm.c, host/linux.c) on a device in a directory of its own.
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
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "host/shm.h"

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
	Reader rd = { { 0 }, 0, 0, 0 };
	double t;
	Shm *s;
	int p[2], e;
	pid_t pid;
	size_t n;

	(void)unused;
	alarm(20);	/* a lock that is not timed hangs here: fail, not hang */
	assert_non_null(mkdtemp(dir));
	assert_non_null(shmcreate(dir, 8, 1000000, &s));
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
	e = shmctl(s, "start", 5, getpid(), err, sizeof err);
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
	assert_int_equal(shmctl(s, "start", 5, getpid(), err, sizeof err), 0);
	n = shmstate(s, buf, sizeof buf);
	assert_true(n > 0);
	assert_non_null(strstr(buf, "\nstart\n"));
	shmstop(s);
	shmremove(dir);
	rmdir(dir);
	alarm(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stuck_holder),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
