/* ring_test.c: the record buffer: order, wrap-around, exact losses, resize, the record text. */
#include "tests/dev/util.h"

static void
test_record_text(void **unused)
{
	Dev *d = newdev(8);
	char buf[2 * Reclen + 1];

	(void)unused;
	hit(d, 0, 0x401136, 0xffffffffffffffffull);
	hit(d, 1, 0x401136, 0x2a);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 2 * Reclen);
	assert_string_equal(buf,
		"E 0000000000401136 0000000000000100 0000000000000007 ffffffffffffffff 0000000000000002 0000000000000003 0000000000000004\n"
		"X 0000000000401136 0000000000000100 0000000000000007 000000000000002a 0000000000000000 0000000000000000 0000000000000000\n");
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 0);	/* empty: end of file */
	free(d);
}

/* any read size returns the same bytes: a record may be split, none lost or repeated */
static void
test_any_read_size(void **unused)
{
	static const size_t sizes[] = { 1, 2, 7, 60, 120, 121, 122, 241, 242, 1000, 4096 };
	Dev *d;
	char want[50 * Reclen + 1], got[50 * Reclen + 1];
	size_t i;
	int k;

	(void)unused;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		d = newdev(8);
		for (k = 0; k < 50; k++)
			hit(d, k & 1, 0x1000 + k, k);
		/* the same records, formatted one read at a time */
		if (i == 0) {
			assert_int_equal(readall(d, want, sizeof want - 1, sizeof want), 50 * Reclen);
			free(d);
			d = newdev(8);
			for (k = 0; k < 50; k++)
				hit(d, k & 1, 0x1000 + k, k);
		}
		assert_int_equal(readall(d, got, sizeof got - 1, sizes[i]), 50 * Reclen);
		assert_string_equal(got, want);
		assert_int_equal(counter(d, "#read "), 50);
		assert_identity(d);
		free(d);
	}
}

static void
test_wrap_exact_loss(void **unused)
{
	Dev *d = newdev(8);
	char buf[64 * Reclen + 1];
	int k;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);	/* 16 records */
	for (k = 0; k < 40; k++)
		hit(d, 0, 0x1000 + k, k);
	assert_int_equal(counter(d, "#hits "), 40);
	assert_int_equal(counter(d, "#queued "), 16);
	assert_int_equal(counter(d, "#lost "), 24);
	assert_identity(d);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 16 * Reclen);
	assert_memory_equal(buf + 2, "0000000000001018", 16);	/* the oldest kept: record 24 */
	assert_memory_equal(buf + 15 * Reclen + 2, "0000000000001027", 16);
	assert_int_equal(counter(d, "#read "), 16);
	assert_int_equal(counter(d, "#lost "), 24);
	assert_identity(d);
	/* and again, from where the reader stands */
	for (k = 0; k < 20; k++)
		hit(d, 0, 0x2000 + k, k);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 500), 16 * Reclen);
	assert_memory_equal(buf + 2, "0000000000002004", 16);
	assert_int_equal(counter(d, "#lost "), 28);
	assert_identity(d);
	free(d);
}

static void
test_resize_discards_counted(void **unused)
{
	Dev *d = newdev(8);
	char buf[8 * Reclen + 1];
	int k;

	(void)unused;
	for (k = 0; k < 10; k++)
		hit(d, 0, 0x1000 + k, k);
	assert_int_equal(ctl(d, "size 5"), 0);
	assert_int_equal(counter(d, "#queued "), 0);
	assert_int_equal(counter(d, "#lost "), 10);
	for (k = 0; k < 3; k++)
		hit(d, 0, 0x3000 + k, k);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 3 * Reclen);
	assert_memory_equal(buf + 2, "0000000000003000", 16);
	assert_int_equal(ctl(d, "size 8"), 0);
	hit(d, 0, 0x4000, 0);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), Reclen);
	assert_int_equal(counter(d, "#hits "), 14);
	assert_identity(d);
	free(d);
}

/* a writer killed after taking its ticket: the reader waits, then counts it lost */
static void
test_abandoned_ticket(void **unused)
{
	Dev *d = newdev(8);
	char buf[4 * Reclen + 1];

	(void)unused;
	hit(d, 0, 0x1000, 0);
	__atomic_fetch_add(&d->head, 1, __ATOMIC_RELAXED);	/* took a ticket, died */
	hit(d, 0, 0x1002, 0);
	testnsecstep = 1000 * 1000;	/* each look at the clock: 1 ms */
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 2 * Reclen);
	testnsecstep = 0;
	assert_memory_equal(buf + Reclen + 2, "0000000000001002", 16);
	assert_int_equal(counter(d, "#lost "), 1);
	assert_identity(d);
	free(d);
}

/* a writer killed inside its slot: lost, and the slot serves the next lap */
static void
test_dead_writer_slot_reclaimed(void **unused)
{
	Dev *d = newdev(8);
	char buf[300 * Reclen + 1];
	uint64_t t;
	int k;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	t = __atomic_fetch_add(&d->head, 1, __ATOMIC_RELAXED);
	d->slot[t & 15].seq = 2 * t + 1;	/* claimed ... */
	d->slot[t & 15].rec.tid = 666;	/* ... by a thread that is gone */
	testdead = 666;
	testnsecstep = 1000 * 1000;
	for (k = 0; k < 5; k++)
		hit(d, 0, 0x1000 + k, k);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 5 * Reclen);
	/* next lap: every slot works again */
	for (k = 0; k < 16; k++)
		hit(d, 0, 0x2000 + k, k);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 16 * Reclen);
	assert_int_equal(counter(d, "#lost "), 1);
	assert_identity(d);
	testdead = 0;
	testnsecstep = 0;
	free(d);
}

/* counters are 64-bit: nothing wraps past 2^32 */
static void
test_counters_64bit(void **unused)
{
	Dev *d = newdev(8);

	(void)unused;
	d->head = d->tail = d->nread = (1ull << 33) + 5;
	d->nread -= 5;
	d->nlost = 5;
	hit(d, 0, 0x1000, 0);
	assert_int_equal(counter(d, "#hits "), (1ull << 33) + 6);
	assert_int_equal(counter(d, "#queued "), 1);
	assert_identity(d);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_text),
		cmocka_unit_test(test_any_read_size),
		cmocka_unit_test(test_wrap_exact_loss),
		cmocka_unit_test(test_resize_discards_counted),
		cmocka_unit_test(test_abandoned_ticket),
		cmocka_unit_test(test_dead_writer_slot_reclaimed),
		cmocka_unit_test(test_counters_64bit),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
