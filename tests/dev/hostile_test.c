/*
 * hostile_test.c: a block another process scribbled on.  Every process
 * attached to the device may write all of it, so the device checks what
 * it reads there before using it as an index, a length or a bound: no
 * crash, no read outside the block, no unbounded wait; the damage is
 * counted in #corrupt, exactly.
 */
#include "tests/dev/util.h"

/* "log 30" and a large head: the writer's index would be far outside the 256 slots */
static void
test_writer_log_past_mapping(void **unused)
{
	Dev *d = newdev(8);

	(void)unused;
	rst(&d->log, 30);
	rst(&d->head, 0x3fff0000ull);
	hit(d, 0, 0x1000, 1);
	hit(d, 1, 0x1000, 2);
	assert_int_equal(d->head, 0x3fff0000ull);	/* no ticket taken: nothing to count lost */
	assert_int_equal(d->count[Ccorrupt], 2);
	free(d);
}

/* the same through devhit, with the thread's Writer: the bound it keeps is the host's, not the block's */
static void
test_writer_keeps_its_bound(void **unused)
{
	Dev *d = newdev(8);
	Writer w = { 0 };
	Tsel sel;
	Hit h = { .pc = 0x1500, .tid = 7, .pid = 7, .w = &w };

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new t\ntrace t on\nstart"), 0);
	assert_int_equal(devtsel(d, 0, &sel), 1);
	assert_int_equal(devhit(d, &sel, &h), 1);	/* decides: w.lim from the host */
	assert_int_equal(w.lim, 8);
	rst(&d->logmax, 30);	/* the block's own logmax says nothing */
	rst(&d->log, 30);
	rst(&d->head, 0x3fff0000ull);
	devhit(d, &sel, &h);
	assert_int_equal(d->count[Ccorrupt], 1);
	free(d);
}

/* the reader: a log past the mapping is repaired, what was queued counted lost */
static void
test_reader_log_past_mapping(void **unused)
{
	Dev *d = newdev(8);
	char buf[8 * Reclen + 1];
	int k;

	(void)unused;
	rst(&d->head, 1ull << 35);
	d->tail = 1ull << 35;
	for (k = 0; k < 5; k++)
		hit(d, 0, 0x1000 + k, k);
	rst(&d->log, 40);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 0);
	assert_int_equal(counter(d, "#corrupt "), 1);
	assert_int_equal(counter(d, "#lost "), 5);
	assert_int_equal(counter(d, "logsize "), 256);
	/* repaired: the ring works again */
	hit(d, 0, 0x2000, 0);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), Reclen);
	assert_int_equal(counter(d, "#corrupt "), 1);
	free(d);
}

/* a size command cannot go past the mapping, whatever the block's logmax says */
static void
test_size_past_mapping(void **unused)
{
	Dev *d = newdev(8);

	(void)unused;
	rst(&d->logmax, 30);
	assert_int_equal(ctl(d, "size 30"), Einval);
	assert_int_equal(ctl(d, "size 9"), Einval);
	assert_int_equal(ctl(d, "size 8"), 0);
	free(d);
}

/* a tail past head: damage, repaired at once, no record made up */
static void
test_tail_past_head(void **unused)
{
	Dev *d = newdev(8);
	char buf[8 * Reclen + 1];

	(void)unused;
	hit(d, 0, 0x1000, 0);
	hit(d, 0, 0x1001, 0);
	d->tail = 1000;
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 0);
	assert_int_equal(counter(d, "#corrupt "), 1);
	assert_int_equal(counter(d, "#hits "), 2);
	assert_int_equal(counter(d, "#queued "), 0);
	hit(d, 0, 0x1002, 0);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), Reclen);
	assert_memory_equal(buf + 2, "0000000000001002", 16);
	free(d);
}

/*
 * Every ticket of a full ring with a sequence number that says "being
 * written by a live thread": the reader gives them all up after one
 * wait, not one per record (it was 256 x 20 ms of spinning, under the lock).
 */
static void
test_scribbled_tickets_one_wait(void **unused)
{
	Dev *d = newdev(8);
	Reader r = { 0 };
	char buf[8 * Reclen];
	uint64_t t0;
	int k, waits;

	(void)unused;
	for (k = 0; k < 256; k++)
		hit(d, 0, 0x1000 + k, k);
	for (k = 0; k < 256; k++) {
		d->slot[k].seq = 1;	/* busy, ticket 0's */
		d->slot[k].rec.tid = 7;	/* alive */
	}
	/* the clock moves only when the reader waits: 1 ms a wait */
	testnsecstep = 0;
	t0 = testnsec = 1;
	for (waits = 0; devread(d, &r, buf, sizeof buf) == 0 && r.wait && waits < 100000; waits++)
		testnsec += 1000 * 1000;
	assert_false(r.wait);
	assert_true(testnsec - t0 <= 20ull * 1000 * 1000);	/* one wait of 20 ms in all */
	assert_int_equal(counter(d, "#lost "), 256);
	assert_identity(d);
	free(d);
}

/* devread never waits itself: a record being written is the host's to ask for again */
static void
test_reader_does_not_wait(void **unused)
{
	Dev *d = newdev(8);
	Reader r = { 0 };
	char buf[4096];

	(void)unused;
	rst(&d->head, 1);	/* ticket 0 taken, not written yet */
	testnsecstep = 1000;
	assert_int_equal(devread(d, &r, buf, sizeof buf), 0);
	assert_int_equal(r.wait, 1);
	testnsecstep = 0;
	d->slot[0].seq = 2;
	assert_int_equal(devread(d, &r, buf, sizeof buf), Reclen);
	assert_int_equal(r.wait, 0);
	free(d);
}

/* nwatch 0xffffffff: the loops stop at the array's end; state and watch answer */
static void
test_nwatch_past_array(void **unused)
{
	static char buf[Statemax];
	Dev *d = newdev(8);
	size_t n;
	char *p;
	int k;

	(void)unused;
	assert_int_equal(ctl(d, "watch 5"), 0);
	rst(&d->nwatch, 0xffffffffu);
	n = devstate(d, buf, sizeof buf);
	assert_true(n < sizeof buf);
	assert_int_equal(strlen(buf), n);
	assert_int_equal(d->count[Ccorrupt], 1);
	assert_int_equal(d->nwatch, Nwatch);	/* repaired: what the array holds */
	for (k = 0, p = buf; (p = strstr(p, "\nwatch ")) != NULL; p++)
		k++;
	assert_int_equal(k, 1 + Nwatch);	/* watch 0, then the array */
	rst(&d->nwatch, 0xffffffffu);
	assert_int_equal(ctl(d, "watch 6"), 5);	/* EIO */
	assert_string_equal(deverr(d), "watch: shared device damaged by a process (counted in #corrupt)");
	assert_int_equal(d->count[Ccorrupt], 2);
	free(d);
}

/*
 * Names, patterns and predicates without their NUL, in every trace,
 * and an error text without one: the state is the length written,
 * within the buffer, NUL-terminated, and each field counted once.
 */
static void
test_names_without_nul(void **unused)
{
	static char buf[Statemax], small[100];
	char line[64];
	Dev *d = newdev(8);
	size_t n;
	int k;

	(void)unused;
	for (k = 0; k < Ntrace; k++) {
		snprintf(line, sizeof line, "trace g%d* new t%d", k, k);
		assert_int_equal(ctl(d, line), 0);
		snprintf(line, sizeof line, "trace t%d pred /arg0 > %d/", k, k);
		assert_int_equal(ctl(d, line), 0);
	}
	for (k = 0; k < Ntrace; k++) {
		memset(d->trace[k].name, 'n', Namelen);
		memset(d->trace[k].glob, 'g', Globlen);
		memset(d->trace[k].predsrc, 'p', Predmax);
	}
	memset(d->err, 'e', Errmax);
	n = devstate(d, small, sizeof small);
	assert_int_equal(n, sizeof small - 1);	/* the length written, not the length it wanted */
	assert_int_equal(small[n], 0);
	assert_int_equal(d->count[Ccorrupt], 3 * Ntrace + 1);
	/* repaired: a second look finds nothing more */
	n = devstate(d, buf, sizeof buf);
	assert_true(n < sizeof buf);
	assert_int_equal(strlen(buf), n);
	assert_int_equal(d->count[Ccorrupt], 3 * Ntrace + 1);
	assert_non_null(strstr(buf, "trace nnnnnnnnnnnnnnn pred /"));
	assert_non_null(strstr(buf, "\n#corrupt 193\n"));
	free(d);
}

/* a name with a newline would forge a line in the state a user replays */
static void
test_name_with_newline(void **unused)
{
	Dev *d = newdev(8);

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new t"), 0);
	memcpy(d->trace[0].name, "a\nstart", 8);
	assert_non_null(strstr(state(d), "trace 0000000000001000 0000000000002000 new a?start\n"));
	assert_null(strstr(state(d), "\nstart\n"));
	assert_int_equal(counter(d, "#corrupt "), 1);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_log_past_mapping),
		cmocka_unit_test(test_writer_keeps_its_bound),
		cmocka_unit_test(test_reader_log_past_mapping),
		cmocka_unit_test(test_size_past_mapping),
		cmocka_unit_test(test_tail_past_head),
		cmocka_unit_test(test_scribbled_tickets_one_wait),
		cmocka_unit_test(test_reader_does_not_wait),
		cmocka_unit_test(test_nwatch_past_array),
		cmocka_unit_test(test_names_without_nul),
		cmocka_unit_test(test_name_with_newline),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
