/*
 * act_test.c: a trace's actions.  Triggers: stop after N keeps what led
 * up to the event and exactly N records after it, also when the N are
 * contended by threads; start keeps the records from the event on; a
 * trigger fires once, is shown in the state until re-armed, and the
 * state replays.  Speculations: per thread, committed and discarded by
 * return value under concurrent threads, counts exact; held records
 * that find no room counted.  Refusals.
 */
#include <pthread.h>
#include "tests/dev/util.h"
#include "dev/error.h"
#include "dev/lib.h"

enum {
	Pc = 0x1000,	/* trace t: [0x1000, 0x2000) */
	Work = 0x3000,	/* trace w: [0x3000, 0x4000) */
	Nthr = 4,
	Nreq = 30,	/* requests a thread: every third fails */
};

static void
setup(Dev *d)
{
	assert_int_equal(ctl(d, "trace 1000 2000 new t\ntrace t on\ntrace 3000 4000 new w\ntrace w on\nstart"), 0);
}

/* one hit through the hook's path, as a host makes it */
static int
hitw(Dev *d, Writer *w, uint32_t tid, int exit, uint64_t pc, uint64_t a0)
{
	Hit h = { .pc = pc, .ticks = hostticks(), .a = { a0, 2, 3, 4 }, .tid = tid, .pid = 7, .exit = exit, .w = w };
	Tsel sel;

	assert_int_equal(devtsel(d, pc == Pc ? 0 : 1, &sel), 1);
	return devhit(d, &sel, &h);
}

typedef struct Got Got;
struct Got {
	uint64_t pc, ticks, tid, a0;
	int exit;
};

/* every record read, in order */
static int
readrecs(Dev *d, Got *g, int max)
{
	static char buf[4096 * Reclen + 1];
	size_t n = readall(d, buf, sizeof buf - 1, sizeof buf - 1), i;
	int k = 0;

	assert_int_equal(n % Reclen, 0);
	for (i = 0; i < n && k < max; i += Reclen, k++) {
		g[k].exit = buf[i] == 'X';
		g[k].pc = strtoull(buf + i + 2, 0, 16);
		g[k].ticks = strtoull(buf + i + 2 + 17, 0, 16);
		g[k].tid = strtoull(buf + i + 2 + 2 * 17, 0, 16);
		g[k].a0 = strtoull(buf + i + 2 + 3 * 17, 0, 16);
	}
	return k;
}

/* stop after 3: the ring (16) holds the 12 records before the trigger, its own, and 3 after; the device stopped */
static void
test_trigger_stop_after(void **unused)
{
	Dev *d = newdev(8);
	Writer w = { 0 };
	Got g[64];
	char line[128];
	uint64_t i;
	int n;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	setup(d);
	assert_int_equal(ctl(d, "trace t trigger stop after 3 /arg0 == 30/"), 0);
	for (i = 0; i < 40; i++)
		hitw(d, &w, 9, 0, Pc, i);
	n = readrecs(d, g, 64);
	assert_int_equal(n, 16);
	for (i = 0; i < 16; i++)
		assert_int_equal(g[i].a0, 18 + i);
	assert_null(strstr(state(d), "\nstart\n"));
	assert_non_null(strstr(state(d), "\nstop\n"));
	snprintf(line, sizeof line, "#triggered t 0000000000001000 %016llx 0000000000000009\n", (unsigned long long)g[12].ticks);
	assert_non_null(strstr(state(d), line));
	assert_int_equal(counter(d, "#hits "), 34);
	assert_int_equal(counter(d, "#untriggered "), 0);
	/* a hit in flight when it stopped (past the started test): kept back, counted */
	{
		Hit late = { .pc = Pc, .ticks = hostticks(), .tid = 9, .pid = 7, .w = &w };

		devrecord(d, &late);
	}
	assert_int_equal(counter(d, "#untriggered "), 1);
	assert_int_equal(counter(d, "#hits "), 34);
	/* fired once: start again, hit 30 again, nothing stops */
	assert_int_equal(ctl(d, "start"), 0);
	for (i = 25; i < 35; i++)
		hitw(d, &w, 9, 0, Pc, i);
	assert_int_equal(readrecs(d, g, 64), 10);
	assert_non_null(strstr(state(d), "\nstart\n"));
	assert_non_null(strstr(state(d), line));
	/* re-armed by writing it again: the #triggered line is gone, and it fires again */
	assert_int_equal(ctl(d, "trace t trigger stop /arg0 == 30/"), 0);
	assert_null(strstr(state(d), "#triggered"));
	for (i = 25; i < 35; i++)
		hitw(d, &w, 9, 0, Pc, i);
	n = readrecs(d, g, 64);
	assert_int_equal(n, 6);
	assert_int_equal(g[5].a0, 30);
	assert_non_null(strstr(state(d), "#triggered t "));
	free(d);
}

/* start: nothing before the trigger is kept (counted), everything from it on */
static void
test_trigger_start(void **unused)
{
	Dev *d = newdev(8);
	Writer w = { 0 };
	Got g[64];
	uint64_t i;

	(void)unused;
	setup(d);
	assert_int_equal(ctl(d, "trace t trigger start /arg0 == 5/"), 0);
	for (i = 0; i < 12; i++) {
		hitw(d, &w, 9, 0, Pc, i);
		hitw(d, &w, 9, 0, Work, 100 + i);
	}
	assert_int_equal(readrecs(d, g, 64), 14);
	assert_int_equal(g[0].a0, 5);
	assert_int_equal(g[1].a0, 105);
	assert_int_equal(g[13].a0, 111);
	assert_int_equal(counter(d, "#untriggered "), 10);
	assert_int_equal(counter(d, "#hits "), 14);
	assert_non_null(strstr(state(d), "trace t trigger start /arg0 == 5/\n#triggered t 0000000000001000 "));
	free(d);
}

/*
 * Threads contend for the records after the trigger: each round thread
 * 0 writes, then the others together; the trigger fires in thread 0's
 * turn, so exactly the 5 that follow it are kept, whoever writes them.
 */
enum { Nround = 200, Fire = 120, After = 5 };
static Dev *tdev;
static pthread_barrier_t bar;

static void *
roundthr(void *arg)
{
	uintptr_t k = (uintptr_t)arg;
	Writer w = { 0 };
	int r;

	for (r = 0; r < Nround; r++) {
		if (k == 0)
			hitw(tdev, &w, 100, 0, Pc, r);
		pthread_barrier_wait(&bar);
		if (k != 0)
			hitw(tdev, &w, 100 + k, 0, Work, r);
		pthread_barrier_wait(&bar);
	}
	devwriterdone(&w);
	return 0;
}

static void
test_trigger_threads(void **unused)
{
	pthread_t th[Nthr];
	static Got g[4096];
	uint64_t trig = 0;
	uintptr_t k;
	int n, i, after = 0, before = 0, mine = 0;

	(void)unused;
	tdev = newdev(12);
	setup(tdev);
	assert_int_equal(ctl(tdev, "trace t trigger stop after 5 /arg0 == 120/"), 0);
	pthread_barrier_init(&bar, 0, Nthr);
	for (k = 0; k < Nthr; k++)
		pthread_create(&th[k], 0, roundthr, (void *)k);
	for (k = 0; k < Nthr; k++)
		pthread_join(th[k], 0);
	n = readrecs(tdev, g, 4096);
	for (i = 0; i < n; i++)
		if (g[i].tid == 100 && g[i].a0 == Fire)
			trig = g[i].ticks;
	assert_true(trig != 0);
	for (i = 0; i < n; i++) {
		after += g[i].ticks > trig;
		before += g[i].ticks < trig;
		if (g[i].ticks > trig) {	/* the 3 others' of its round, thread 0's of the next, one other's of the next */
			assert_true(g[i].a0 == (g[i].tid == 100 ? Fire + 1 : Fire) || (g[i].tid != 100 && g[i].a0 == Fire + 1));
			mine += g[i].tid == 100;
		}
	}
	assert_int_equal(after, After);
	assert_int_equal(mine, 1);
	assert_int_equal(before, 4 * Fire);	/* 120 rounds of 4 */
	assert_int_equal(n, 4 * Fire + 1 + After);
	assert_int_equal(counter(tdev, "#hits "), n);
	pthread_barrier_destroy(&bar);
	free(tdev);
}

/* the state replays: the same lines on a fresh device; clear and remove take the actions */
static void
test_replay(void **unused)
{
	Dev *d = newdev(8), *e = newdev(8);
	char saved[Statemax];

	(void)unused;
	setup(d);
	assert_int_equal(ctl(d, "trace t trigger stop after 7 /arg0 == 1/"), 0);
	assert_int_equal(ctl(d, "trace t speculate /entry/"), 0);
	assert_int_equal(ctl(d, "trace t commit /!entry && retval != 0/"), 0);
	assert_int_equal(ctl(d, "trace w discard"), 0);
	assert_string_equal(commands(d),
		"logsize 256\npolicy ring\n"
		"trace 0000000000001000 0000000000002000 new t\ntrace t on\n"
		"trace t trigger stop after 7 /arg0 == 1/\ntrace t speculate /entry/\ntrace t commit /!entry && retval != 0/\n"
		"trace 0000000000003000 0000000000004000 new w\ntrace w on\ntrace w discard\n"
		"watch 0\nstart\n");
	strcpy(saved, state(d));
	assert_int_equal(ctl(e, saved), 0);
	assert_same(commands, e, d);
	/* replaced, not added: one of each class a trace */
	assert_int_equal(ctl(d, "trace t trigger start"), 0);
	assert_non_null(strstr(commands(d), "trace t trigger start\ntrace t speculate"));
	assert_null(strstr(commands(d), "trigger stop"));
	assert_int_equal(ctl(d, "trace t actions clear"), 0);
	assert_null(strstr(commands(d), "trace t trigger"));
	assert_null(strstr(commands(d), "trace t speculate"));
	assert_int_equal(ctl(d, "trace w remove"), 0);
	assert_int_equal(ctl(d, "trace 3000 4000 new w"), 0);
	assert_null(strstr(commands(d), "discard"));
	free(d);
	free(e);
}

static void
test_refusals(void **unused)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "trace t trigger", Erractform },
		{ "trace t trigger go", Erractform },
		{ "trace t trigger start after 3", Erractform },
		{ "trace t trigger stop after", Erractform },
		{ "trace t trigger stop after x", Erractform },
		{ "trace t trigger stop after 1000000001", Errafter },
		{ "trace t speculate stop", Erractform },
		{ "trace t speculate /arg0", Errpredform },
		{ "trace t commit /arg0 ==/", Errexpr },
		{ "trace t actions", Errtracecmd },
		{ "trace t actions off", Errtracecmd },
		{ "trace nosuch speculate", Errnotrace },
	};
	Dev *d = newdev(8);
	char line[128];
	size_t i;

	(void)unused;
	setup(d);
	for (i = 0; i < nelem(bad); i++) {
		assert_int_equal(ctl(d, bad[i].line), errnum(bad[i].err));
		assert_non_null(strstr(deverr(d), errtext(bad[i].err)));
	}
	assert_null(strstr(commands(d), "trigger"));
	/* Nact actions, then no room; a replaced one takes none */
	for (i = 0; i < Nact; i++) {
		snprintf(line, sizeof line, "trace %zx %zx new x%zu\ntrace x%zu discard", 0x10000 + i, 0x10001 + i, i, i);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_int_equal(ctl(d, "trace t discard"), errnum(Erractfull));
	assert_int_equal(ctl(d, "trace x3 discard /entry/"), 0);
	free(d);
}

/* one thread's requests: entry of t, a work call, exit of t with retval 1 (every third fails) or 0 */
static void *
reqthr(void *arg)
{
	uint32_t tid = 200 + (uintptr_t)arg;
	Writer w = { 0 };
	uint64_t i;

	for (i = 0; i < Nreq; i++) {
		hitw(tdev, &w, tid, 0, Pc, i);
		hitw(tdev, &w, tid, 0, Work, i);
		hitw(tdev, &w, tid, 1, Work, 0);
		hitw(tdev, &w, tid, 1, Pc, i % 3 == 0);
	}
	devwriterdone(&w);
	return 0;
}

/* committed by return value: each thread's failing requests whole, in order; the others dropped; counts exact */
static void
test_speculate_threads(void **unused)
{
	pthread_t th[Nthr];
	static Got g[4096];
	uintptr_t k;
	int n, i, j, fails = (Nreq + 2) / 3;
	uint64_t want;
	Writer ow;

	(void)unused;
	tdev = newdev(12);
	setup(tdev);
	assert_int_equal(ctl(tdev, "trace t speculate /entry/\ntrace t commit /!entry && retval != 0/\ntrace t discard /!entry && retval == 0/"), 0);
	for (k = 0; k < Nthr; k++)
		pthread_create(&th[k], 0, reqthr, (void *)k);
	for (k = 0; k < Nthr; k++)
		pthread_join(th[k], 0);
	/* a discard on a thread that holds nothing drops its own record all the same (an outer call's exit) */
	memset(&ow, 0, sizeof ow);
	hitw(tdev, &ow, 300, 1, Pc, 0);
	devwriterdone(&ow);
	n = readrecs(tdev, g, 4096);
	assert_int_equal(n, Nthr * fails * 4);
	for (k = 0; k < Nthr; k++) {
		want = 0;
		for (i = 0, j = 0; i < n; i++) {
			if (g[i].tid != 200 + k)
				continue;
			switch (j++ % 4) {
			case 0: assert_true(g[i].pc == Pc && !g[i].exit && g[i].a0 == want); break;
			case 1: assert_true(g[i].pc == Work && !g[i].exit && g[i].a0 == want); break;
			case 2: assert_true(g[i].pc == Work && g[i].exit); break;
			case 3: assert_true(g[i].pc == Pc && g[i].exit && g[i].a0 == 1); want += 3; break;
			}
		}
		assert_int_equal(j, fails * 4);
	}
	assert_int_equal(counter(tdev, "#specheld "), Nthr * Nreq * 4);
	assert_int_equal(counter(tdev, "#speccommitted "), Nthr * fails * 4);
	assert_int_equal(counter(tdev, "#specdiscarded "), Nthr * (Nreq - fails) * 4);
	assert_int_equal(counter(tdev, "#specnoroom "), 0);
	assert_int_equal(counter(tdev, "#hits "), Nthr * fails * 4);
	free(tdev);
}

/* a speculation holds Specrec records: the rest counted; a commit writes the ones it held */
static void
test_speculate_noroom(void **unused)
{
	Dev *d = newdev(12);
	Writer w = { 0 };
	Got g[1024];
	int i;

	(void)unused;
	setup(d);
	assert_int_equal(ctl(d, "trace t speculate /entry/\ntrace t commit /!entry/"), 0);
	hitw(d, &w, 9, 0, Pc, 0);
	for (i = 0; i < 300; i++)
		hitw(d, &w, 9, 0, Work, i);
	hitw(d, &w, 9, 1, Pc, 0);
	assert_int_equal(readrecs(d, g, 1024), Specrec);
	assert_int_equal(g[0].pc, Pc);
	assert_int_equal(g[Specrec - 1].a0, Specrec - 2);
	assert_int_equal(counter(d, "#specheld "), Specrec);
	assert_int_equal(counter(d, "#speccommitted "), Specrec);
	assert_int_equal(counter(d, "#specnoroom "), 302 - Specrec);
	/* the speculation ended: records are written again */
	hitw(d, &w, 9, 0, Work, 7);
	assert_int_equal(readrecs(d, g, 1024), 1);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trigger_stop_after),
		cmocka_unit_test(test_trigger_start),
		cmocka_unit_test(test_trigger_threads),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_speculate_threads),
		cmocka_unit_test(test_speculate_noroom),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
