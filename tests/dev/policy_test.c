/*
 * policy_test.c: the buffer policies (policy ring|fill|block [MS]):
 * which records each keeps when the ring is full, every counter exact
 * (hits = read + queued + lost + dropped); block with a reader thread
 * loses nothing, without one it waits its bound once and counts the
 * rest; the policy line of the state and its replay; the refusals.
 */
#include <pthread.h>
#include <time.h>
#include "tests/dev/util.h"
#include "dev/error.h"
#include "dev/fns.h"

enum {
	Nrec = 16,	/* size 4 */
	Nblock = 5000,	/* records the block test writes through a ring of Nrec */
};

/* one record whose first argument says which it was */
static void
rec(Dev *d, uint64_t a0, Writer *w)
{
	Hit h = { .pc = 0x1000, .ticks = 1, .a = { a0, 2, 3, 4 }, .tid = 7, .pid = 7, .w = w };

	devrecord(d, &h);
}

/* the first argument of each record read, in order; how many */
static int
readargs(Dev *d, uint64_t *a, int max)
{
	static char buf[(Nrec + 1) * Reclen + 1];
	size_t n = readall(d, buf, sizeof buf - 1, sizeof buf - 1), i;
	int k = 0;

	assert_int_equal(n % Reclen, 0);
	for (i = 0; i < n && k < max; i += Reclen)
		a[k++] = strtoull(buf + i + 2 + 3 * 17, 0, 16);
	return k;
}

static void
counts(Dev *d, uint64_t hits, uint64_t read, uint64_t queued, uint64_t lost, uint64_t dropped)
{
	assert_int_equal(counter(d, "#hits "), hits);
	assert_int_equal(counter(d, "#read "), read);
	assert_int_equal(counter(d, "#queued "), queued);
	assert_int_equal(counter(d, "#lost "), lost);
	assert_int_equal(counter(d, "#dropped "), dropped);
	assert_identity(d);
}

/* ring, the default: the newest Nrec kept, the oldest lost */
static void
test_ring_loses_oldest(void **unused)
{
	Dev *d = newdev(8);
	uint64_t a[Nrec + 1];
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	for (i = 0; i < 40; i++)
		rec(d, i, NULL);
	counts(d, 40, 0, Nrec, 40 - Nrec, 0);
	assert_int_equal(readargs(d, a, Nrec + 1), Nrec);
	for (i = 0; i < Nrec; i++)
		assert_int_equal(a[i], 40 - Nrec + i);
	counts(d, 40, Nrec, 0, 40 - Nrec, 0);
	free(d);
}

/* fill: the oldest Nrec kept exactly, the newest dropped; room again once read */
static void
test_fill_drops_newest(void **unused)
{
	Dev *d = newdev(8);
	uint64_t a[Nrec + 1];
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy fill"), 0);
	for (i = 0; i < 40; i++)
		rec(d, i, NULL);
	counts(d, 40, 0, Nrec, 0, 40 - Nrec);
	assert_int_equal(readargs(d, a, Nrec + 1), Nrec);
	for (i = 0; i < Nrec; i++)
		assert_int_equal(a[i], i);
	for (i = 100; i < 103; i++)
		rec(d, i, NULL);
	assert_int_equal(readargs(d, a, Nrec + 1), 3);
	assert_int_equal(a[0], 100);
	assert_int_equal(a[2], 102);
	counts(d, 43, Nrec + 3, 0, 0, 40 - Nrec);
	free(d);
}

/*
 * A thread's Writer that decided under ring takes fill at its next
 * decision (the policy bumps the control generation), and counts its
 * drops in its own ring (a thread without one: in its shard).
 */
static void
test_fill_writer_decides_again(void **unused)
{
	Dev *d = newdev(8);
	Writer w = { 0 };
	Tsel sel;
	Hit h;
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\ntrace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(d, 0, &sel));
	for (i = 0; i < 20; i++) {
		h = (Hit){ .pc = 0x1000, .a = { i }, .tid = 9, .pid = 9, .w = &w };
		assert_int_equal(devhit(d, &sel, &h), 1);
	}
	assert_int_equal(w.ringlim, 8);	/* ring: the fast path */
	counts(d, 20, 0, Nrec, 4, 0);
	assert_int_equal(ctl(d, "policy fill"), 0);
	h = (Hit){ .pc = 0x1000, .tid = 9, .pid = 9, .w = &w };
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(w.ringlim, 0);	/* fill: the slow path */
	counts(d, 21, 0, Nrec, 4, 1);	/* the queue was full: this one dropped, the oldest kept */
	assert_int_equal(w.wr->dropped, 1);
	assert_int_equal(ctl(d, "policy ring"), 0);
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(w.ringlim, 8);
	counts(d, 22, 0, Nrec, 5, 1);	/* ring again: the oldest lost */
	free(d);
}

struct drain {
	Dev *d;
	pthread_mutex_t *lock;	/* the host's: the control side is serialised */
	int got;		/* the writer's records */
	int waits;		/* the device's marks of its waits (W): each after a record, of a wait > 0 */
	int done;		/* the writer has written all it will */
	uint64_t bad;		/* 1 + the first record out of order, or a mark not after one */
};

static void *
drain(void *arg)
{
	struct drain *r = arg;
	static char buf[8 * Reclen];
	Reader rd = { 0 };
	size_t n, i;
	int done;
	struct timespec nap = { 0, 50 * 1000 };

	while (r->got < Nblock) {
		done = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);	/* before the read: what it wrote is there */
		pthread_mutex_lock(r->lock);
		n = devread(r->d, &rd, buf, sizeof buf);	/* whole records: the buffer holds 8 */
		pthread_mutex_unlock(r->lock);
		for (i = 0; i + Reclen <= n; i += Reclen) {
			if (buf[i] == 'W') {
				r->waits++;
				if (r->bad == 0 && (r->got == 0 || strtoull(buf + i + 2 + 3 * 17, 0, 16) == 0))
					r->bad = 1 + r->got;
				continue;
			}
			if (r->bad == 0 && strtoull(buf + i + 2 + 3 * 17, 0, 16) != (uint64_t)r->got)
				r->bad = 1 + r->got;
			r->got++;
		}
		if (n == 0 && done)
			break;	/* nothing more will come: a lost record must not hang the test */
		if (n == 0)
			nanosleep(&nap, NULL);	/* a slow reader: the writer must wait for it */
	}
	return 0;
}

/* block with a reader: Nblock records through a ring of Nrec, none lost, in order */
static void
test_block_reader_loses_nothing(void **unused)
{
	Dev *d = newdev(8);
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct drain r = { d, &lock, 0, 0, 0, 0 };
	Writer w = { 0 };	/* a hook's: only a hook waits */
	pthread_t t;
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy block 60000"), 0);
	testwaits = 0;
	assert_int_equal(pthread_create(&t, 0, drain, &r), 0);
	for (i = 0; i < Nblock; i++)
		rec(d, i, &w);
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, 0), 0);
	assert_int_equal(r.bad, 0);
	assert_int_equal(r.got, Nblock);
	assert_true(testwaits > 0);	/* the ring was full: the writer did wait */
	assert_true(r.waits > 0);	/* and each wait is marked: a mark is a record */
	counts(d, Nblock + r.waits, Nblock + r.waits, 0, 0, 0);
	free(d);
}

static uint64_t
realnsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * block with no reader: the first record that finds the ring full waits
 * the bound (on the test clock and really), the rest are dropped at
 * once, every one counted; once the reader reads, writers wait again.
 */
static void
test_block_no_reader_bounded(void **unused)
{
	Dev *d = newdev(8);
	uint64_t a[Nrec + 1], t0, real, waits;
	Writer w = { 0 };
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy block 100"), 0);
	for (i = 0; i < Nrec; i++)
		rec(d, i, &w);
	testwaits = 0;
	t0 = testnsec;
	real = realnsec();
	rec(d, Nrec, &w);
	real = realnsec() - real;
	assert_true(testnsec - t0 >= 100 * 1000 * 1000);	/* the bound, and at most one nap more */
	assert_true(testnsec - t0 < 102 * 1000 * 1000);
	assert_true(real >= 100 * 1000 * 1000);
	assert_true(real < 2000ull * 1000 * 1000);
	waits = testwaits;
	for (i = Nrec + 1; i < 30; i++)
		rec(d, i, &w);
	assert_int_equal(testwaits, waits);	/* stalled: dropped without a wait */
	counts(d, 30, 0, Nrec, 0, 30 - Nrec);
	/* the reader reads: the oldest, all of them; then room again, and a wait again when full */
	assert_int_equal(readargs(d, a, Nrec + 1), Nrec);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[Nrec - 1], Nrec - 1);
	for (i = 0; i < Nrec; i++)
		rec(d, 100 + i, &w);
	assert_int_equal(testwaits, waits);
	t0 = testnsec;
	rec(d, 200, &w);
	assert_true(testnsec - t0 >= 100 * 1000 * 1000);
	counts(d, 30 + Nrec + 1, Nrec, Nrec, 0, 30 - Nrec + 1);
	free(d);
}

static void *
blocked(void *arg)
{
	Dev *d = arg;
	Writer w = { 0 };

	rec(d, 77, &w);	/* the ring is full: waits */
	return 0;
}

/* a size while a writer waits: it writes into the ring as it is now, and the reader finds it */
static void
test_block_size_while_waiting(void **unused)
{
	Dev *d = newdev(8);
	uint64_t a[Nrec + 1];
	struct timespec ms50 = { 0, 50 * 1000 * 1000 };
	pthread_t t;
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy block 60000"), 0);
	for (i = 0; i < Nrec; i++)
		rec(d, i, NULL);
	testwaits = 0;
	assert_int_equal(pthread_create(&t, 0, blocked, d), 0);
	while (__atomic_load_n(&testwaits, __ATOMIC_RELAXED) == 0)
		nanosleep(&ms50, NULL);
	assert_int_equal(ctl(d, "size 5"), 0);	/* the 16 queued are discarded: room */
	assert_int_equal(pthread_join(t, 0), 0);
	assert_int_equal(readargs(d, a, Nrec + 1), 2);
	assert_int_equal(a[0], 77);
	assert_true(a[1] > 0);	/* its wait's mark, W: the ticks it waited */
	counts(d, Nrec + 2, 2, 0, Nrec, 0);
	free(d);
}

/*
 * testtracein runs under the host's lock: its record never waits, even
 * under block (written if there is room, else dropped, as under fill).
 */
static void
test_block_control_never_waits(void **unused)
{
	Dev *d = newdev(8);
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy block 100\ntrace 1000 2000 new a\ntrace a on\nstart"), 0);
	testwaits = 0;
	for (i = 0; i < Nrec + 3; i++)
		assert_int_equal(ctl(d, "testtracein 1500 1 2 3 4"), 0);
	assert_int_equal(testwaits, 0);
	counts(d, Nrec + 3, 0, Nrec, 0, 3);
	free(d);
}

/* the policy line: printed after logsize, replayed into another device, which prints it the same */
static void
test_policy_state_replay(void **unused)
{
	Dev *d = newdev(16), *e = newdev(16);
	char saved[Statemax];

	(void)unused;
	assert_non_null(strstr(state(d), "logsize 65536\npolicy ring\nwatch 0\n"));
	assert_int_equal(ctl(d, "policy block"), 0);
	assert_non_null(strstr(state(d), "\npolicy block 100\n"));
	assert_int_equal(ctl(d, "policy block 250"), 0);
	assert_non_null(strstr(state(d), "\npolicy block 250\n"));
	strcpy(saved, commands(d));
	assert_int_equal(ctl(e, "policy fill"), 0);
	assert_non_null(strstr(state(e), "\npolicy fill\n"));
	assert_int_equal(devctl(e, saved, strlen(saved), 42), 0);
	assert_string_equal(commands(e), saved);
	assert_int_equal(e->policy, Pblock);
	assert_int_equal(e->waitms, 250);
	/* and back: a ring device's state makes a block one ring again */
	strcpy(saved, commands(newdev(16)));
	assert_int_equal(devctl(e, saved, strlen(saved), 42), 0);
	assert_non_null(strstr(state(e), "\npolicy ring\n"));
	assert_int_equal(e->policy, Pring);
	free(d);
	free(e);
}

/* refusals: the named error, and the policy as it was */
static void
test_policy_refused(void **unused)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "policy", Errnargs },
		{ "policy block 1 2", Errnargs },
		{ "policy lossy", Errpolicy },
		{ "policy Ring", Errpolicy },
		{ "policy ring 5", Errnowait },
		{ "policy fill 100", Errnowait },
		{ "policy block 0", Errwaitms },
		{ "policy block x", Errwaitms },
		{ "policy block -1", Errwaitms },
		{ "policy block 60001", Errwaitms },
		{ "policy block 99999999999999999999999", Errwaitms },
	};
	Dev *d = newdev(16);
	char want[200];
	size_t i;

	(void)unused;
	assert_int_equal(ctl(d, "policy block 7"), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(ctl(d, bad[i].line), errnum(bad[i].err));
		snprintf(want, sizeof want, "policy: %s", errtext(bad[i].err));
		assert_string_equal(deverr(d), want);
		assert_non_null(strstr(state(d), "\npolicy block 7\n"));
	}
	assert_int_equal(ctl(d, "policy block 60000"), 0);
	assert_int_equal(ctl(d, "policy block 1"), 0);
	free(d);
}

/* a policy or bound no command sets, written by another process: counted, repaired, ring */
static void
test_policy_damage(void **unused)
{
	Dev *d = newdev(8);
	uint32_t ms;

	(void)unused;
	d->policy = 77;
	assert_int_equal(ringpolicy(d, &ms), Pring);
	assert_int_equal(counter(d, "#corrupt "), 2);	/* ringpolicy's, then the state's repair */
	assert_non_null(strstr(state(d), "\npolicy ring\n"));
	assert_int_equal(counter(d, "#corrupt "), 2);	/* repaired: no more */
	d->policy = Pblock;
	d->waitms = 4000000000u;	/* a writer would wait Waitmax at most */
	assert_int_equal(ringpolicy(d, &ms), Pblock);
	assert_int_equal(ms, Waitmax);
	assert_non_null(strstr(state(d), "\npolicy block 100\n"));
	assert_int_equal(counter(d, "#corrupt "), 3);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_loses_oldest),
		cmocka_unit_test(test_fill_drops_newest),
		cmocka_unit_test(test_fill_writer_decides_again),
		cmocka_unit_test(test_block_reader_loses_nothing),
		cmocka_unit_test(test_block_no_reader_bounded),
		cmocka_unit_test(test_block_control_never_waits),
		cmocka_unit_test(test_block_size_while_waiting),
		cmocka_unit_test(test_policy_state_replay),
		cmocka_unit_test(test_policy_refused),
		cmocka_unit_test(test_policy_damage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
