/*
 * sess_test.c: sessions (dev/sess.c).  Two sessions with their own
 * traces on the same function each read exactly their own records, and
 * the top level neither; one session's policy block with no reader
 * delays the other by no more than the writer's one bound; clone at the
 * limit, a session's size past its rings, another user's open and a
 * free session are refused with their error; the last close, remove and
 * a dead holder end a session (its traces off, counted) and the next
 * clone makes its Dev fresh; a scribbled table is counted and repaired.
 * The tests play the host: a hit goes to every session whose trace
 * selects its pc, with a Writer per session and thread.
 */
#include "tests/dev/util.h"
#include "dev/error.h"

enum { Nsessions = 3, Ndev = 1 + Nsessions };

/* a hit at pc, a0 its mark, through every Dev of the block whose trace selects pc */
static int
hitall(Dev **dv, Writer *w, uint64_t pc, uint64_t a0)
{
	Hit h = { .pc = pc, .ticks = 0, .a = { a0, 2, 3, 4 }, .tid = 7, .pid = 7 };
	Tsel sel;
	int k, slot, n = 0;

	for (k = 0; k < Ndev; k++) {
		if (dv[k] == 0 || (slot = devselect(dv[k], pc, pc, 0, 0)) < 0)
			continue;
		assert_true(devtsel(dv[k], slot, &sel));
		h.ticks = 1000 + a0;
		h.w = &w[k];
		n += devhit(dv[k], &sel, &h);
	}
	return n;
}

/* the records there are: their marks (arg1), how many */
static int
marks(Dev *d, uint64_t *a0, int max)
{
	static char buf[512 * Reclen + 1];
	size_t n = readall(d, buf, sizeof buf - 1, 3 * Reclen + 7), i;
	int k = 0;

	assert_int_equal(n % Reclen, 0);
	for (i = 0; i < n && k < max; i += Reclen, k++)
		a0[k] = strtoull(buf + i + 2 + 3 * 17, 0, 16);
	return (int)(n / Reclen);
}

static void
test_two_sessions_own_records(void **unused)
{
	Dev *d = newsessdev(16, Nsessions), *dv[Ndev] = { d };
	Writer w[Ndev];
	uint64_t a[64];
	int i, na, nb;

	(void)unused;
	memset(w, 0, sizeof w);
	assert_int_equal(devclone(d, 1000, 500), 1);
	assert_int_equal(devclone(d, 1000, 501), 2);
	dv[1] = devsess(d, 1);
	dv[2] = devsess(d, 2);
	assert_non_null(dv[1]);
	assert_non_null(dv[2]);
	assert_ptr_not_equal(dv[1], dv[2]);
	assert_int_equal(ctl(d, "trace 3000 4000 new top\ntrace top on\nstart"), 0);
	assert_int_equal(ctl(dv[1], "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_int_equal(ctl(dv[2], "trace 1000 2000 new b\ntrace b pred /arg0 >= 5/\ntrace b on\nstart"), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(hitall(dv, w, 0x1000, i), 1 + (i >= 5));
	for (i = 0; i < 3; i++)
		assert_int_equal(hitall(dv, w, 0x3000, 100 + i), 1);
	na = marks(dv[1], a, 64);
	assert_int_equal(na, 10);
	for (i = 0; i < 10; i++)
		assert_int_equal(a[i], i);
	nb = marks(dv[2], a, 64);
	assert_int_equal(nb, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(a[i], 5 + i);
	assert_int_equal(marks(d, a, 64), 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(a[i], 100 + i);
	/* counters of their own */
	assert_int_equal(counter(dv[1], "#hits "), 10);
	assert_int_equal(counter(dv[1], "#filtered "), 0);
	assert_int_equal(counter(dv[2], "#hits "), 5);
	assert_int_equal(counter(dv[2], "#filtered "), 5);
	assert_int_equal(counter(d, "#hits "), 3);
	assert_int_equal(counter(dv[1], "#lost "), 0);
	assert_int_equal(counter(dv[2], "#lost "), 0);
	/* each state is its own: a's has no b, the top level neither */
	assert_non_null(strstr(state(dv[1]), "trace a on\n"));
	assert_null(strstr(state(dv[1]), "new b"));
	assert_null(strstr(state(d), "new a"));
	assert_non_null(strstr(state(d), "#sessions live 2 made 2 ended 0 reaped 0 refused 0\n"));
	assert_null(strstr(state(dv[1]), "#sessions"));
	free(d);
}

/* no session made: the top level's state has no line of sessions */
static void
test_top_level_unchanged(void **unused)
{
	Dev *d = newsessdev(16, Nsessions), *p = newdev(16);

	(void)unused;
	assert_same(state, d, p);
	assert_null(devsess(d, 1));
	assert_ptr_equal(devsess(d, 0), d);
	free(d);
	free(p);
}

/*
 * Session 1 under block with no reader, session 2 under ring: the
 * writer waits session 1's bound once, then drops its records at once;
 * session 2 gets every record, none lost, and was waited for by nobody.
 */
static void
test_block_does_not_delay_other(void **unused)
{
	Dev *d = newsessdev(16, Nsessions), *dv[Ndev] = { 0 };
	Writer w[Ndev];
	uint64_t a[64], t0;
	int i;

	(void)unused;
	memset(w, 0, sizeof w);
	assert_int_equal(devclone(d, 1000, 500), 1);
	assert_int_equal(devclone(d, 1000, 500), 2);
	dv[1] = devsess(d, 1);
	dv[2] = devsess(d, 2);
	assert_int_equal(ctl(dv[1], "size 4\npolicy block 100\ntrace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_int_equal(ctl(dv[2], "trace 1000 2000 new b\ntrace b on\nstart"), 0);
	testwaits = 0;
	t0 = testnsec;
	for (i = 0; i < 40; i++)
		hitall(dv, w, 0x1000, i);
	assert_true(testnsec - t0 >= 100 * 1000 * 1000);	/* one stall of session 1: its bound */
	assert_true(testnsec - t0 < 102 * 1000 * 1000);	/* and no more */
	assert_int_equal(marks(dv[2], a, 64), 40);
	for (i = 0; i < 40; i++)
		assert_int_equal(a[i], i);
	assert_int_equal(counter(dv[2], "#lost "), 0);
	assert_int_equal(counter(dv[2], "#dropped "), 0);
	assert_int_equal(counter(dv[1], "#queued "), 16);
	assert_int_equal(counter(dv[1], "#dropped "), 24);
	/* session 2 alone: no wait at all */
	testwaits = 0;
	dv[1] = 0;
	for (i = 0; i < 40; i++)
		hitall(dv, w, 0x1000, 100 + i);
	assert_int_equal(testwaits, 0);
	assert_int_equal(marks(dv[2], a, 64), 40);
	free(d);
}

static void
test_limits(void **unused)
{
	Dev *d = newsessdev(17, Nsessions), *s;
	int n;

	(void)unused;
	for (n = 1; n <= Nsessions; n++)
		assert_int_equal(devclone(d, 1000, 500), n);
	assert_int_equal(devclone(d, 1000, 500), -Enospc);
	assert_string_equal(deverr(d), "clone: too many sessions: end one (close its ctl, or remove it)");
	assert_non_null(strstr(state(d), "#sessions live 3 made 3 ended 0 reaped 0 refused 1\n"));
	/* a session's rings hold 1<<Logsess: size past it is refused, the top level's goes to its own */
	s = devsess(d, 1);
	assert_int_equal(ctl(s, "size 16"), 0);
	assert_int_equal(ctl(s, "size 17"), Einval);
	assert_string_equal(deverr(s), "size: size out of range (4 to 16)");
	assert_int_equal(ctl(d, "size 17"), 0);
	/* a block with no room for sessions refuses clone alike */
	free(d);
	d = newdev(16);
	assert_int_equal(devclone(d, 1000, 500), -Enospc);
	assert_null(devsess(d, 1));
	free(d);
}

static void
test_rights(void **unused)
{
	Dev *d = newsessdev(16, Nsessions);

	(void)unused;
	assert_int_equal(devclone(d, 1000, 500), 1);
	assert_int_equal(devsessopen(d, 1, 1001, 0), Eacces);
	assert_string_equal(deverr(d), "open session: another user's session");
	assert_int_equal(devsessremove(d, 1, 1001), Eacces);
	assert_int_equal(devsessopen(d, 1, 1001, 1), 0);	/* the device's mode lets others in */
	assert_int_equal(devsessopen(d, 1, 0, 0), 0);	/* root */
	assert_int_equal(devsessopen(d, 1, 1000, 0), 0);
	assert_int_equal(devsessopen(d, 2, 1000, 0), Enoent);
	assert_string_equal(deverr(d), "open session: no such session");
	assert_int_equal(devsessopen(d, 99, 1000, 0), Enoent);
	assert_int_equal(devsessremove(d, 2, 1000), Enoent);
	free(d);
}

/*
 * The last close ends a session: its traces off, its Dev gone from
 * devsess, counted; the next clone takes its place fresh, and a Tsel
 * or Writer of the old one writes nothing into the new.
 */
static void
test_end_and_reuse(void **unused)
{
	Dev *d = newsessdev(16, Nsessions), *s, *dv[Ndev] = { 0 };
	Writer w[Ndev];
	Tsel old;
	Hit h = { .pc = 0x1000, .tid = 7, .pid = 7 };
	uint64_t a[64];

	(void)unused;
	memset(w, 0, sizeof w);
	assert_int_equal(devclone(d, 1000, 500), 1);
	s = dv[1] = devsess(d, 1);
	assert_int_equal(ctl(s, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_int_equal(hitall(dv, w, 0x1000, 1), 1);
	/* two more in the Writer's ring: slots 1 and 2 keep seqs the next session's tickets 1 and 2 will use */
	assert_int_equal(hitall(dv, w, 0x1000, 2), 1);
	assert_int_equal(hitall(dv, w, 0x1000, 3), 1);
	assert_true(devtsel(s, 0, &old));
	assert_int_equal(devhit(s, &old, &h), 1);	/* no Writer: the shared ring, three laps of its first slots */
	assert_int_equal(devhit(s, &old, &h), 1);
	assert_int_equal(devsessopen(d, 1, 1000, 0), 0);	/* N/ctl opened beside clone's */
	assert_int_equal(devsessclose(d, 1), 0);
	assert_ptr_equal(devsess(d, 1), s);	/* one open left */
	assert_int_equal(devsessclose(d, 1), 0);
	assert_null(devsess(d, 1));
	assert_int_equal(s->started, 0);
	assert_int_equal(s->trace[0].on, 0);
	h.w = &w[1];
	assert_int_equal(devhit(s, &old, &h), 0);	/* ended: nothing written */
	assert_non_null(strstr(state(d), "#sessions live 0 made 1 ended 1 reaped 0 refused 0\n"));
	assert_int_equal(devsessclose(d, 1), Enoent);
	/* the next clone: the same place, fresh, its generations past the old ones */
	assert_int_equal(devclone(d, 1001, 600), 1);
	assert_ptr_equal(devsess(d, 1), s);
	assert_null(strstr(state(s), "trace"));
	assert_int_equal(counter(s, "#hits "), 0);
	assert_int_equal(counter(s, "#read "), 0);
	assert_int_equal(counter(s, "#lost "), 0);
	assert_int_equal(ctl(s, "trace 1000 2000 new b\ntrace b on\nstart"), 0);
	assert_int_equal(devhit(s, &old, &h), 0);	/* the old trace's Tsel: another generation */
	assert_int_equal(hitall(dv, w, 0x1000, 9), 1);	/* the old Writer decides again and writes */
	assert_true(devtsel(s, 0, &old));
	h.w = 0;
	h.a[0] = 10;
	h.ticks = 5000;
	assert_int_equal(devhit(s, &old, &h), 1);	/* the shared ring's slots are fresh: its claim succeeds */
	/* the Writer's ring was not zeroed: its head, 1, says where the new records end, not the old slots */
	assert_int_equal(marks(s, a, 64), 2);
	assert_int_equal(a[0], 9);
	assert_int_equal(a[1], 10);
	assert_int_equal(counter(s, "#hits "), 2);
	assert_int_equal(counter(s, "#lost "), 0);
	/* remove ends it at once, whatever is open */
	assert_int_equal(devsessopen(d, 1, 1001, 0), 0);
	assert_int_equal(devsessremove(d, 1, 1001), 0);
	assert_null(devsess(d, 1));
	assert_non_null(strstr(state(d), "#sessions live 0 made 2 ended 2 reaped 0 refused 0\n"));
	free(d);
}

/* a session whose holder died is reaped at the next clone, counted; so at the limit */
static void
test_reap(void **unused)
{
	Dev *d = newsessdev(16, Nsessions), *s;
	int n;

	(void)unused;
	for (n = 1; n <= Nsessions; n++)
		assert_int_equal(devclone(d, 1000, 700 + n), n);
	s = devsess(d, 2);
	assert_int_equal(ctl(s, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	testdead = 702;
	assert_int_equal(devclone(d, 1000, 800), 2);	/* its place, after reaping */
	testdead = 0;
	assert_non_null(strstr(state(d), "#sessions live 3 made 4 ended 0 reaped 1 refused 0\n"));
	assert_null(strstr(state(s), "trace"));	/* the new one's, fresh */
	testdead = 703;
	assert_int_equal(devsessreap(d), 1);
	testdead = 0;
	assert_int_equal(devsessreap(d), 0);
	assert_null(devsess(d, 3));
	free(d);
}

/* the table is the block's: a state no command writes is counted and freed; a pid of 0 is no holder */
static void
test_scribbled_table(void **unused)
{
	Dev *d = newsessdev(16, Nsessions);

	(void)unused;
	assert_int_equal(devclone(d, 1000, 500), 1);
	d->sess[0].live = 7;
	d->nsess = 1000;	/* the host's count is the one used */
	assert_null(devsess(d, 1));
	assert_int_equal(counter(d, "#corrupt "), 1);
	assert_int_equal(devclone(d, 1000, 500), 1);
	d->sess[0].pid = 0;
	assert_int_equal(devsessreap(d), 1);
	assert_null(devsess(d, 4));
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sessions_own_records),
		cmocka_unit_test(test_top_level_unchanged),
		cmocka_unit_test(test_block_does_not_delay_other),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_rights),
		cmocka_unit_test(test_end_and_reuse),
		cmocka_unit_test(test_reap),
		cmocka_unit_test(test_scribbled_table),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
