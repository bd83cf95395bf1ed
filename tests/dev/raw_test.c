/*
 * raw_test.c: the capture's read (devreadraw) and the saved record's
 * line (devfmt): the same records, tickets, losses and counters as
 * devread, and devfmt's lines the bytes devread gives.
 */
#include "tests/dev/util.h"

/* the same 50 records, varied: entries and exits, several threads, wide values */
static void
fill(Dev *d, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		Hit h = { .pc = 0x401000 + 16 * k, .ticks = 0x123456789abcdef0ull + k,
			.a = { ~0ull - k, 1ull << (k % 64), 0x8000000000000000ull >> (k % 64), k * 0x0101010101010101ull },
			.tid = 1000 + k % 3, .pid = 1000, .exit = k % 3 == 2 };

		devrecord(d, &h);
	}
}

/* devreadraw n at a time, as a host does (a record being written asked for again) */
static size_t
rawall(Dev *d, Rec *out, size_t max, size_t n)
{
	Reader r = { 0 };
	size_t got = 0, k;
	int waits = 0;

	while (got < max && ((k = devreadraw(d, &r, out + got, n < max - got ? n : max - got)) > 0 ||
	    (r.wait && ++waits < 100000)))
		got += k;
	return got;
}

/* the same records read as text, and raw then formatted: the same bytes */
static void
test_raw_formats_as_read(void **unused)
{
	static const size_t sizes[] = { 1, 2, 7, 49, 50, 64 };
	char want[50 * Reclen + 1], got[50 * Reclen + 1];
	Rec rec[64];
	size_t i, k;
	Dev *d;

	(void)unused;
	d = newdev(8);
	fill(d, 50);
	assert_int_equal(readall(d, want, sizeof want - 1, 4096), 50 * Reclen);
	free(d);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		d = newdev(8);
		fill(d, 50);
		assert_int_equal(rawall(d, rec, 64, sizes[i]), 50);
		for (k = 0; k < 50; k++)
			devfmt(got + k * Reclen, &rec[k]);
		got[50 * Reclen] = 0;
		assert_string_equal(got, want);
		assert_int_equal(counter(d, "#read "), 50);
		assert_int_equal(counter(d, "#queued "), 0);
		assert_identity(d);
		free(d);
	}
}

/* the record's fields as they went in; an exit's a[1..3] are 0, as devread shows them */
static void
test_raw_fields(void **unused)
{
	Dev *d = newdev(8);
	Reader r = { 0 };
	Rec rec[4];
	char line[Reclen + 1];

	(void)unused;
	fill(d, 3);
	assert_int_equal(sizeof(Rec), 56);
	assert_int_equal(devreadraw(d, &r, rec, 4), 3);
	assert_int_equal(rec[0].pc, 0x401000);
	assert_int_equal(rec[0].ticks, 0x123456789abcdef0ull);
	assert_int_equal(rec[0].tid, 1000);
	assert_int_equal(rec[0].exit, 0);
	assert_int_equal(rec[0].a[0], ~0ull);
	assert_int_equal(rec[1].a[3], 0x0101010101010101ull);
	assert_int_equal(rec[2].exit, 1);
	assert_int_equal(rec[2].a[0], ~0ull - 2);
	assert_int_equal(rec[2].a[1], 0);
	assert_int_equal(rec[2].a[3], 0);
	devfmt(line, &rec[2]);
	line[Reclen] = 0;
	assert_string_equal(line,
		"X 0000000000401020 123456789abcdef2 00000000000003ea fffffffffffffffd 0000000000000000 0000000000000000 0000000000000000\n");
	assert_int_equal(devreadraw(d, &r, rec, 4), 0);	/* empty */
	assert_int_equal(r.wait, 0);
	free(d);
}

/*
 * Every digit in every place of every field, against printf's %016llx:
 * each nibble of each field takes all 16 values (v: the field's value,
 * nibble k of it set to d on a pattern that changes with k and d).
 */
static void
test_fmt_every_digit(void **unused)
{
	char line[Reclen + 1], want[Reclen + 1];
	unsigned long long v[7];
	Rec rec;
	int f, k, dgt, n;

	(void)unused;
	for (f = 0; f < 7; f++)
		for (k = 0; k < 16; k++)
			for (dgt = 0; dgt < 16; dgt++) {
				for (n = 0; n < 7; n++)
					v[n] = 0x0123456789abcdefull * (unsigned)(n + k + dgt + 1);
				v[2] &= 0xffffffff;	/* tid is 32 bits */
				if (f != 2 || k < 8)
					v[f] = (v[f] & ~(15ull << 4 * k)) | (unsigned long long)dgt << 4 * k;
				rec = (Rec){ .pc = v[0], .ticks = v[1], .tid = v[2], .exit = dgt & 1,
					.a = { v[3], v[4], v[5], v[6] } };
				devfmt(line, &rec);
				line[Reclen] = 0;
				snprintf(want, sizeof want, "%c %016llx %016llx %016llx %016llx %016llx %016llx %016llx\n",
					"EX"[dgt & 1], v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
				assert_string_equal(line, want);
			}
}

/* a lapped ring: the same losses, counted the same, as devread's */
static void
test_raw_exact_loss(void **unused)
{
	Dev *d = newdev(8);
	Rec rec[64];

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);	/* 16 records */
	fill(d, 40);
	assert_int_equal(counter(d, "#lost "), 24);
	assert_int_equal(rawall(d, rec, 64, 5), 16);
	assert_int_equal(rec[0].pc, 0x401000 + 16 * 24);	/* the oldest kept: record 24 */
	assert_int_equal(rec[15].pc, 0x401000 + 16 * 39);
	assert_int_equal(counter(d, "#read "), 16);
	assert_int_equal(counter(d, "#lost "), 24);
	assert_identity(d);
	free(d);
}

/* a writer killed after its ticket: the raw reader waits, then counts it lost, as devread does */
static void
test_raw_abandoned_ticket(void **unused)
{
	Dev *d = newdev(8);
	Reader r = { 0 };
	Rec rec[4];

	(void)unused;
	testnsec = 1000 * 1000 * 1000;	/* a clock past 0: 0 is "not waiting" to the device */
	fill(d, 1);
	__atomic_fetch_add(&d->head, 1, __ATOMIC_RELAXED);	/* took a ticket, died */
	fill(d, 1);
	assert_int_equal(devreadraw(d, &r, rec, 4), 1);
	assert_int_equal(r.wait, 1);	/* the second is being written, as far as the reader knows */
	testnsecstep = 1000 * 1000;	/* each look at the clock: 1 ms */
	assert_int_equal(rawall(d, rec, 4, 4), 1);
	testnsecstep = 0;
	assert_int_equal(counter(d, "#lost "), 1);
	assert_int_equal(counter(d, "#read "), 2);
	assert_identity(d);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_formats_as_read),
		cmocka_unit_test(test_raw_fields),
		cmocka_unit_test(test_fmt_every_digit),
		cmocka_unit_test(test_raw_exact_loss),
		cmocka_unit_test(test_raw_abandoned_ticket),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
