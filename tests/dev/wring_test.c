/*
 * wring_test.c: the writers' rings (dev/ring/wring.c).  A writer claims a
 * ring by its thread id (its own again, a free one, a dead owner's) and
 * gives it back at exit; what a ring holds stays readable after its
 * owner leaves or dies, and the next owner writes on after it; threads
 * past the rings write the shared ring; the reader merges every ring by
 * time; each ring's counts and their sums are exact; size empties every
 * ring (counted lost) and sets each ring's size; a host binds a writer
 * to a ring (devwriterbind); a ring's pages ahead of its head are faulted
 * in (devwriterwarm), a step at a time, each step after the first marked; readers side by side each hold a ring's claim.  newdev makes Testnring (4) rings.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "tests/dev/util.h"
#include "dev/error.h"
#include "dev/fns.h"

enum { Nrec = 16 };	/* size 4 */

static Tsel sel;

/* a device tracing [1000, 2000), started */
static Dev *
tracing(int logmax)
{
	Dev *d = newdev(logmax);

	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(d, 0, &sel));
	return d;
}

/* one record by thread tid through its Writer (nil: none), at time ticks, a0 its mark */
static void
whit(Dev *d, Writer *w, uint32_t tid, uint64_t ticks, uint64_t a0)
{
	Hit h = { .pc = 0x1000, .ticks = ticks, .a = { a0, 2, 3, 4 }, .tid = tid, .pid = tid, .w = w };

	assert_int_equal(devhit(d, &sel, &h), 1);
}

/* every record readable: ticks, tids and marks in the order read; how many */
static int
readrecs(Dev *d, uint64_t *ticks, uint64_t *tid, uint64_t *a0, int max)
{
	static char buf[4096 * Reclen + 1];
	size_t n = readall(d, buf, sizeof buf - 1, 7 * Reclen + 5), i;	/* odd reads: records split */
	int k = 0;

	assert_int_equal(n % Reclen, 0);
	for (i = 0; i < n && k < max; i += Reclen, k++) {
		if (ticks)
			ticks[k] = strtoull(buf + i + 2 + 17, 0, 16);
		if (tid)
			tid[k] = strtoull(buf + i + 2 + 2 * 17, 0, 16);
		if (a0)
			a0[k] = strtoull(buf + i + 2 + 3 * 17, 0, 16);
	}
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

/* the state's line of ring i, without its newline ("" if none) */
static const char *
ringline(Dev *d, int i)
{
	static char line[200];
	char key[32], *s, *nl;

	snprintf(key, sizeof key, "#ring %d ", i);
	line[0] = 0;
	if ((s = strstr(state(d), key)) != NULL && (nl = strchr(s, '\n')) != NULL)
		snprintf(line, sizeof line, "%.*s", (int)(nl - s), s);
	return line;
}

/* claimed in order, one per thread; the same thread keeps its ring; past the rings: the shared ring */
static void
test_claim(void **unused)
{
	Dev *d = tracing(8);
	Writer w[6] = { 0 }, again = { 0 };
	int i;

	(void)unused;
	for (i = 0; i < 6; i++)
		whit(d, &w[i], 50 + i, 100 + i, i);
	for (i = 0; i < 4; i++)
		assert_int_equal(w[i].ring, i + 1);
	assert_int_equal(w[4].ring, 0);	/* no ring left: the shared ring */
	assert_int_equal(w[5].ring, 0);
	assert_int_equal(d->head, 2);	/* their records took the shared ring's tickets */
	whit(d, &again, 52, 200, 9);	/* a new Writer of thread 52 (exec keeps the id): its ring again */
	assert_int_equal(again.ring, 3);
	assert_string_equal(ringline(d, 2), "#ring 2 tid 52 hits 2 read 0 queued 2 lost 0 dropped 0");
	assert_string_equal(ringline(d, 0), "#ring 0 tid 50 hits 1 read 0 queued 1 lost 0 dropped 0");
	counts(d, 7, 0, 7, 0, 0);
	assert_int_equal(readrecs(d, NULL, NULL, NULL, 100), 7);
	counts(d, 7, 7, 0, 0, 0);
	free(d);
}

/* a thread that found no ring free asks again at the next control change, and keeps its order */
static void
test_claim_later(void **unused)
{
	Dev *d = tracing(8);
	Writer w[5] = { 0 };
	uint64_t mark[16];
	int i;

	(void)unused;
	for (i = 0; i < 5; i++)
		whit(d, &w[i], 50 + i, 10 + i, i);
	assert_int_equal(w[4].ring, 0);
	devwriterdone(&w[2]);
	whit(d, &w[4], 54, 20, 5);
	assert_int_equal(w[4].ring, 0);	/* no change yet: not asked again */
	assert_int_equal(ctl(d, "watch 0"), 0);
	whit(d, &w[4], 54, 21, 6);
	assert_int_equal(w[4].ring, 3);	/* the ring 52 gave back */
	assert_string_equal(ringline(d, 2), "#ring 2 tid 54 hits 2 read 0 queued 2 lost 0 dropped 0");
	assert_int_equal(readrecs(d, NULL, NULL, mark, 16), 7);
	for (i = 0; i < 7; i++)
		assert_int_equal(mark[i], i);
	counts(d, 7, 7, 0, 0, 0);
	free(d);
}

/* given back at exit: its records stay readable; the next thread writes on after them */
static void
test_give_back(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	uint64_t tid[8], mark[8];
	int i;

	(void)unused;
	for (i = 0; i < 3; i++)
		whit(d, &a, 60, 10 + i, i);
	assert_int_equal(a.ring, 1);
	devwriterdone(&a);
	assert_int_equal(a.ring, 0);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 0 hits 3 read 0 queued 3 lost 0 dropped 0");
	whit(d, &b, 61, 20, 3);	/* the free ring: the one 60 gave back */
	assert_int_equal(b.ring, 1);
	assert_int_equal(readrecs(d, NULL, tid, mark, 8), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(mark[i], i);
	assert_int_equal(tid[2], 60);
	assert_int_equal(tid[3], 61);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 61 hits 4 read 4 queued 0 lost 0 dropped 0");
	counts(d, 4, 4, 0, 0, 0);
	free(d);
}

/*
 * A ring's owner as a reader finds it (devringowner): its tid and pid;
 * once free, tid 0 and the last owner's pid, for the records it left;
 * a host's static writer's pid 0 (it writes for many).
 */
static void
test_owner(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 }, cpu = { 0 };
	Hit h = { .pc = 0x1000, .ticks = 10, .tid = 60, .pid = 50, .w = &a };
	uint32_t tid = 1, pid = 1;

	(void)unused;
	assert_int_equal(devringowner(d, 0, &tid, &pid), 0);
	assert_int_equal(tid, 0);	/* never claimed */
	assert_int_equal(pid, 0);
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(devringowner(d, 0, &tid, &pid), 0);
	assert_int_equal(tid, 60);
	assert_int_equal(pid, 50);
	devwriterdone(&a);
	assert_int_equal(devringowner(d, 0, &tid, &pid), 0);
	assert_int_equal(tid, 0);
	assert_int_equal(pid, 50);
	h = (Hit){ .pc = 0x1000, .ticks = 20, .tid = 61, .pid = 51, .w = &b };
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(b.ring, 1);
	assert_int_equal(devringowner(d, 0, &tid, &pid), 0);
	assert_int_equal(tid, 61);
	assert_int_equal(pid, 51);
	assert_int_equal(devwriterbind(d, &cpu, 1), 0);
	assert_int_equal(devringowner(d, 1, &tid, &pid), 0);
	assert_int_equal(tid, Tidbound);
	assert_int_equal(pid, 0);
	assert_int_equal(devringowner(d, 4, &tid, &pid), -1);	/* 4 rings: 0..3 */
	free(d);
}

/*
 * A writer killed while it holds its ring, one record half written: the
 * ring goes to a thread that finds none free, which writes over the
 * half record (never counted: its head had not moved) and on after the
 * records the dead one finished, all read.
 */
static void
test_killed_owner(void **unused)
{
	Dev *d = tracing(8);
	Writer w[5] = { 0 };
	uint64_t tid[16], mark[16];
	Slot *s;
	int i;

	(void)unused;
	for (i = 0; i < 4; i++)
		whit(d, &w[i], 70 + i, 10 + i, 100 + i);
	for (i = 0; i < 2; i++)
		whit(d, &w[1], 71, 20 + i, 200 + i);
	s = &w[1].ws[w[1].wr->head & 255];	/* 71 dies writing its next record */
	s->seq = 2 * w[1].wr->head + 1;
	testdead = 71;
	whit(d, &w[4], 74, 30, 300);
	testdead = 0;
	assert_int_equal(w[4].ring, 2);	/* the dead owner's */
	whit(d, &w[4], 74, 31, 301);
	assert_string_equal(ringline(d, 1), "#ring 1 tid 74 hits 5 read 0 queued 5 lost 0 dropped 0");
	assert_int_equal(readrecs(d, NULL, tid, mark, 16), 8);
	assert_int_equal(mark[4], 200);	/* time order: 71's two, then 74's */
	assert_int_equal(mark[5], 201);
	assert_int_equal(tid[6], 74);
	assert_int_equal(mark[6], 300);
	assert_int_equal(mark[7], 301);
	counts(d, 8, 8, 0, 0, 0);
	free(d);
}

/* the reader merges every ring and the shared ring into one stream by time */
static void
test_merge_order(void **unused)
{
	Dev *d = tracing(8);
	Writer w[6] = { 0 };
	uint64_t ticks[64], tid[64];
	uint64_t t;
	int i, n;

	(void)unused;
	/* 6 threads, 4 rings: 2 share the shared ring; times interleaved across them */
	for (t = 1; t <= 48; t++)
		whit(d, &w[(t * 7) % 6], 80 + (t * 7) % 6, t * 10, t);
	whit(d, NULL, 99, 485, 49);	/* a hit with no Writer: the shared ring */
	n = readrecs(d, ticks, tid, NULL, 64);
	assert_int_equal(n, 49);
	for (i = 1; i < n; i++)
		assert_true(ticks[i - 1] < ticks[i]);
	assert_int_equal(ticks[47], 480);
	assert_int_equal(tid[48], 99);
	counts(d, 49, 49, 0, 0, 0);
	free(d);
}

/* raw reads merge the same way */
static void
test_merge_raw(void **unused)
{
	Dev *d = tracing(8);
	Writer w[3] = { 0 };
	Reader r = { 0 };
	Rec out[40];
	size_t n, got = 0;
	uint64_t t;

	(void)unused;
	for (t = 1; t <= 30; t++)
		whit(d, &w[(t / 2) % 3], 90 + (t / 2) % 3, 10 * t, t);	/* two by two, ring after ring */
	while ((n = devreadraw(d, &r, out + got, 4)) > 0)
		got += n;
	assert_int_equal(got, 30);
	for (t = 0; t < 30; t++)
		assert_int_equal(out[t].a[0], t + 1);
	free(d);
}

/* the same records in two devices: devread's text is devreadraw's records through devfmt, byte for byte */
static void
test_raw_text_same(void **unused)
{
	Dev *d[2];
	Writer w[2][6];
	Reader r = { 0 };
	static char text[64 * Reclen + 1], fromraw[64 * Reclen + 1];
	Rec out[64];
	size_t n, got = 0, i;
	uint64_t t;
	int k;

	(void)unused;
	memset(w, 0, sizeof w);
	for (k = 0; k < 2; k++) {
		d[k] = tracing(8);
		for (t = 1; t <= 50; t++)
			whit(d[k], &w[k][t % 6], 20 + t % 6, 7 * t, t * 0x1111);
	}
	assert_int_equal(readall(d[0], text, sizeof text - 1, 3 * Reclen + 17), 50 * Reclen);
	while ((n = devreadraw(d[1], &r, out + got, 7)) > 0)
		got += n;
	assert_int_equal(got, 50);
	for (i = 0; i < got; i++)
		devfmt(fromraw + i * Reclen, &out[i]);
	assert_memory_equal(text, fromraw, 50 * Reclen);
	free(d[0]);
	free(d[1]);
}

/* ring: each ring laps on its own, its lost on its line; the sums exact */
static void
test_counts_ring(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	uint64_t mark[64];
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	for (i = 0; i < 40; i++)
		whit(d, &a, 10, 1000 + i, i);
	for (i = 0; i < 5; i++)
		whit(d, &b, 11, 2000 + i, 500 + i);
	whit(d, NULL, 12, 3000, 900);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 40 read 0 queued 16 lost 24 dropped 0");
	assert_string_equal(ringline(d, 1), "#ring 1 tid 11 hits 5 read 0 queued 5 lost 0 dropped 0");
	assert_string_equal(ringline(d, 2), "");	/* never used: no line */
	counts(d, 46, 0, 22, 24, 0);
	assert_int_equal(readrecs(d, NULL, NULL, mark, 64), 22);
	assert_int_equal(mark[0], 24);	/* the newest 16 of a's */
	assert_int_equal(mark[16], 500);
	assert_int_equal(mark[21], 900);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 40 read 16 queued 0 lost 24 dropped 0");
	counts(d, 46, 22, 0, 24, 0);
	free(d);
}

/* a capture's read of one source, unmerged: a ring's run in its order, the laps counted, a full ring whole, the shared ring last */
static void
test_readring(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	Reader r = { 0 };
	Rec out[64];
	uint32_t q[4];
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	assert_int_equal(devringsqueued(d, q, 4), 0);
	for (i = 0; i < 40; i++)
		whit(d, &a, 10, 1000 + i, i);
	for (i = 0; i < 5; i++)
		whit(d, &b, 11, 2000 + i, 500 + i);
	whit(d, NULL, 12, 3000, 900);
	assert_int_equal(devringsqueued(d, q, 4), 2);	/* rings 0 and 1 hold records; 2 and 3 never used */
	assert_int_equal(q[0], 0);
	assert_int_equal(q[1], 1);
	assert_int_equal(devringsqueued(d, q, 1), 1);	/* at most n */
	assert_int_equal(devreadring(d, &r, 1, out, 3), 3);	/* at most n */
	assert_int_equal(out[0].a[0], 500);
	assert_int_equal(out[2].a[0], 502);
	assert_int_equal(devreadring(d, &r, 0, out, 64), 16);	/* the newest 16, in order; 24 lapped */
	for (i = 0; i < 16; i++)
		assert_int_equal(out[i].a[0], 24 + i);
	assert_int_equal(out[0].ticks, 1024);
	assert_int_equal(out[0].tid, 10);
	assert_int_equal(out[0].a[1], 2);
	assert_int_equal(devreadring(d, &r, 0, out, 64), 0);
	assert_int_equal(devringsqueued(d, q, 4), 1);	/* ring 0 read out: ring 1's 2 left */
	assert_int_equal(q[0], 1);
	assert_int_equal(devreadring(d, &r, 2, out, 64), 0);	/* never used */
	assert_int_equal(devreadring(d, &r, Testnring, out, 64), 1);	/* the shared ring, after the writers' */
	assert_int_equal(out[0].a[0], 900);
	assert_int_equal(devreadring(d, &r, 1, out, 64), 2);
	assert_int_equal(out[1].a[0], 504);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 40 read 16 queued 0 lost 24 dropped 0");
	counts(d, 46, 22, 0, 24, 0);
	/* fill: a full ring (head = tail + size) is no lap: every record comes */
	assert_int_equal(ctl(d, "policy fill"), 0);
	for (i = 0; i < 20; i++)
		whit(d, &a, 10, 4000 + i, 100 + i);
	assert_int_equal(devreadring(d, &r, 0, out, 64), 16);
	assert_int_equal(out[0].a[0], 100);
	assert_int_equal(out[15].a[0], 115);
	counts(d, 66, 38, 0, 24, 4);
	free(d);
}

/*
 * A ring's reader claim: while a reader outside the lock holds it
 * (devreadwring), another such reader, the lock's (devreadring) and a
 * merge leave the ring alone; a claim of a thread that has gone is taken
 * over; one a dead lock holder left is let go by the control side; a
 * size waits for a live reader's claim, Claimwaitms, then takes it.
 * Every reader's records are counted once.
 */
static void
test_readers(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	Reader r = { 0 };
	Rec out[64];
	uint64_t mark[16], waits;
	uint32_t busy;
	int i;

	(void)unused;
	for (i = 0; i < 5; i++)
		whit(d, &a, 10, 100 + i, i);
	for (i = 0; i < 3; i++)
		whit(d, &b, 11, 200 + i, 50 + i);
	assert_int_equal(wringclaim(d, 0, 77), 1);	/* thread 77 copies ring 0 */
	assert_int_equal(devreadwring(d, 0, 78, out, 64, &busy), 0);
	assert_int_equal(busy, 1);
	assert_int_equal(devreadring(d, &r, 0, out, 64), 0);
	assert_int_equal(readrecs(d, NULL, NULL, mark, 16), 3);	/* the merge: ring 1's alone */
	assert_int_equal(mark[0], 50);
	assert_int_equal(mark[2], 52);
	wringunclaim(d, 0);
	assert_int_equal(devreadwring(d, 0, 78, out, 2, &busy), 2);
	assert_int_equal(busy, 0);
	assert_int_equal(out[0].a[0], 0);
	assert_int_equal(out[1].a[0], 1);
	assert_int_equal(wringclaim(d, 0, 79), 1);	/* 79 dies holding it */
	testdead = 79;
	assert_int_equal(devreadwring(d, 0, 78, out, 64, &busy), 3);
	testdead = 0;
	assert_int_equal(out[0].a[0], 2);
	whit(d, &a, 10, 300, 5);
	assert_int_equal(wringclaim(d, 0, Claimlock), 1);	/* a lock holder dies mid-read */
	assert_int_equal(devreadwring(d, 0, 78, out, 64, &busy), 0);
	assert_int_equal(busy, 1);
	state(d);	/* the control side lets it go */
	assert_int_equal(devreadwring(d, 0, 78, out, 64, &busy), 1);
	assert_int_equal(out[0].a[0], 5);
	whit(d, &a, 10, 400, 6);
	assert_int_equal(wringclaim(d, 0, 77), 1);	/* 77 stopped holding it */
	waits = testwaits;
	testnsecstep = 1000000;	/* each look at the clock 1 ms on: Claimwaitms in about 1000 looks */
	assert_int_equal(ctl(d, "size 5"), 0);
	testnsecstep = 0;
	waits = testwaits - waits;
	assert_in_range(waits, 900, 1000);
	assert_int_equal(wringclaim(d, 0, 78), 1);	/* taken, then let go */
	wringunclaim(d, 0);
	counts(d, 10, 9, 0, 1, 0);
	free(d);
}

/* fill: a full ring drops its own writer's records only, counted on its line */
static void
test_counts_fill(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	uint64_t mark[64];
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy fill"), 0);
	for (i = 0; i < 20; i++)
		whit(d, &a, 10, 1000 + i, i);
	for (i = 0; i < 3; i++)
		whit(d, &b, 11, 2000 + i, 500 + i);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 20 read 0 queued 16 lost 0 dropped 4");
	assert_string_equal(ringline(d, 1), "#ring 1 tid 11 hits 3 read 0 queued 3 lost 0 dropped 0");
	counts(d, 23, 0, 19, 0, 4);
	assert_int_equal(readrecs(d, NULL, NULL, mark, 64), 19);
	assert_int_equal(mark[0], 0);	/* the oldest kept */
	assert_int_equal(mark[15], 15);
	whit(d, &a, 10, 3000, 77);	/* room again */
	assert_int_equal(readrecs(d, NULL, NULL, mark, 64), 1);
	assert_int_equal(mark[0], 77);
	counts(d, 24, 20, 0, 0, 4);
	free(d);
}

/* block with no reader: the writer waits its bound once, then its ring drops at once */
static void
test_block_bounded(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 };
	uint64_t waits;
	int i;

	(void)unused;
	assert_int_equal(ctl(d, "size 4\npolicy block 5"), 0);
	for (i = 0; i < 16; i++)
		whit(d, &a, 10, 1000 + i, i);
	waits = testwaits;
	whit(d, &a, 10, 2000, 16);	/* full: waits 5 ms, then drops */
	assert_true(testwaits > waits);
	waits = testwaits;
	whit(d, &a, 10, 2001, 17);	/* stalled at the same tail: no wait */
	assert_int_equal(testwaits, waits);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 18 read 0 queued 16 lost 0 dropped 2");
	counts(d, 18, 0, 16, 0, 2);
	free(d);
}

/* size: every ring's records lost (counted), and each ring holds the new size */
static void
test_resize(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 };
	uint64_t mark[128];
	int i;

	(void)unused;
	for (i = 0; i < 10; i++)
		whit(d, &a, 10, 100 + i, i);
	for (i = 0; i < 5; i++)
		whit(d, &b, 11, 200 + i, i);
	assert_int_equal(ctl(d, "size 5"), 0);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 10 read 0 queued 0 lost 10 dropped 0");
	counts(d, 15, 0, 0, 15, 0);
	for (i = 0; i < 40; i++)
		whit(d, &a, 10, 300 + i, 100 + i);
	assert_string_equal(ringline(d, 0), "#ring 0 tid 10 hits 50 read 0 queued 32 lost 18 dropped 0");
	assert_int_equal(readrecs(d, NULL, NULL, mark, 128), 32);
	assert_int_equal(mark[0], 108);
	assert_int_equal(mark[31], 139);
	assert_true(strstr(state(d), "logsize 32\n") != NULL);	/* per ring */
	counts(d, 55, 32, 0, 23, 0);
	free(d);
}

/* a host's static writers: bound to a ring each, never claimed by a thread */
/*
 * A kernel host's 4 rings a CPU, Nringmax of them all bound: the state
 * stays under Statemax with its own lines whole (the #error after a
 * refusal included); the #ring lines come last, whole, and one more
 * line says how many did not fit.  Each bound writer has its own
 * aggregation table while there are (ring < Naggbuf), which no thread's
 * claim takes, even with its owner's tid unknown to hostalive.
 */
static void
test_bind_many(void **unused)
{
	Dev *d = newdevn(Logmin, Nringmax);
	static Writer w[Nringmax];
	Writer t = { 0 };
	Hit h = { .pc = 0x1000, .tid = 7, .pid = 7, .w = &t };
	char *s, *cut, *e;
	int i, shown = 0;

	(void)unused;
	for (i = 0; i < Nringmax; i++)
		assert_int_equal(devwriterbind(d, &w[i], i), 0);
	assert_int_equal(w[0].aggbuf, 1);
	assert_int_equal(w[Naggbuf - 1].aggbuf, Naggbuf);
	assert_int_equal(w[Naggbuf].aggbuf, Naggbuf + 1);	/* the shared table */
	assert_int_equal(ctl(d, "trace 1000 2000 new a\nagg a entry @n = count()\ntrace a on\nstart"), 0);
	assert_true(devtsel(d, 0, &sel));
	testdead = Tidbound;
	devhit(d, &sel, &h);
	testdead = 0;
	assert_int_equal(t.aggbuf, Naggbuf + 1);	/* every own table is bound */
	assert_null(strstr(state(d), "\n#ring "));	/* bound rings that never wrote are not shown */
	for (i = 0; i < Nringmax; i++) {	/* a record in each (the trace aggregates alone) */
		Hit b = { .pc = 0x1000, .tid = 7, .pid = 7, .w = &w[i] };

		devrecord(d, &b);
	}
	assert_int_not_equal(ctl(d, "trace nosuch new a"), 0);
	s = state(d);
	assert_true(strlen(s) < Statemax);
	assert_non_null(strstr(s, "\n#error "));
	assert_true(strstr(s, "\n#error ") < strstr(s, "\n#ring 0 tid 2147483648 hits 1 read 0 queued 1 lost 0 dropped 0\n"));
	for (e = s; (e = strstr(e, "\n#ring ")) != NULL; e++)
		shown++;
	assert_true(shown > 100);
	assert_true(shown < Nringmax);
	assert_non_null(cut = strstr(s, "\n#rings not shown "));
	assert_int_equal(strtoul(cut + 18, &e, 10), Nringmax - shown);
	assert_string_equal(e, "\n");
	free(d);
}

static void
test_bind(void **unused)
{
	Dev *d = tracing(8);
	Writer cpu = { 0 }, t = { 0 };
	uint64_t tid[4];

	(void)unused;
	assert_int_equal(devwriterbind(d, &cpu, 4), Einval);	/* 4 rings: 0..3 */
	assert_int_equal(devwriterbind(d, &cpu, 0), 0);
	assert_int_equal(cpu.ring, 1);
	whit(d, &cpu, 5, 10, 1);
	whit(d, &t, 6, 20, 2);
	assert_int_equal(t.ring, 2);	/* ring 0 is bound */
	assert_string_equal(ringline(d, 0), "#ring 0 tid 2147483648 hits 1 read 0 queued 1 lost 0 dropped 0");
	assert_int_equal(readrecs(d, NULL, tid, NULL, 4), 2);
	assert_int_equal(tid[0], 5);
	counts(d, 2, 2, 0, 0, 0);
	free(d);
}

/*
 * Scribbled by another process: a ring's tail past its head is counted
 * and repaired; a head far ahead is a lap, its records counted lost, the
 * read bounded by the ring's size; the block's nring changes nothing.
 */
static void
test_hostile(void **unused)
{
	Dev *d = tracing(8);
	Writer a = { 0 }, b = { 0 }, c[4];
	uint64_t mark[300];
	int i;

	(void)unused;
	memset(c, 0, sizeof c);
	for (i = 0; i < 3; i++)
		whit(d, &a, 10, 100 + i, i);
	whit(d, &b, 11, 200, 50);
	rst(&a.wr->tail, 1000);
	assert_int_equal(counter(d, "#corrupt "), 1);
	assert_int_equal(a.wr->tail, 3);	/* as its head: what it held is taken as read */
	whit(d, &a, 10, 300, 3);
	rst(&b.wr->head, (1ull << 40) + 1);	/* 2^40 records no one wrote */
	/* a's 3; b's lap leaves no record whole, its 50 among them: all lost */
	assert_int_equal(readrecs(d, NULL, NULL, mark, 300), 1);
	assert_int_equal(mark[0], 3);
	assert_int_equal(counter(d, "#lost "), (1ull << 40) + 1);
	/* a's 3 taken as read by the repair are neither read nor lost: the balance is off by them, no more */
	assert_int_equal(counter(d, "#hits ") - counter(d, "#read ") - counter(d, "#queued ") - counter(d, "#lost "), 3);
	d->nring = 1000;	/* the block's own count: not the mapping's */
	for (i = 0; i < 4; i++)
		whit(d, &c[i], 20 + i, 400 + i, 60 + i);
	assert_int_equal(c[2].ring, 0);	/* rings 0 and 1 are taken, two more free: then the shared ring */
	assert_int_equal(c[1].ring, 4);
	assert_int_equal(readrecs(d, NULL, NULL, mark, 300), 4);
	assert_int_equal(counter(d, "#corrupt "), 1);
	free(d);
}

/*
 * More rings with records than a read once merged (16): one read takes
 * every ring's records and the shared ring's in time order, a tie to
 * the lower ring; nothing lost, nothing twice.  Ring i writes at
 * 1000 + 64k + (7i mod N), k = 0..3, so each step of time is another
 * ring's; then every ring, the last first, writes once at 2000.
 */
static void
test_many_rings(void **unused)
{
	enum { N = 40, K = 4 };
	Dev *d = newdevn(8, N);
	Writer w[N];
	Reader *r = calloc(1, sizeof *r);
	Rec out[K * N + N + 8];
	size_t n, i, k;

	(void)unused;
	memset(w, 0, sizeof w);
	assert_non_null(r);
	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(d, 0, &sel));
	for (k = 0; k < K; k++)
		for (i = 0; i < N; i++)
			whit(d, &w[i], 30 + i, 1000 + 64 * k + (7 * i) % N, i);
	for (i = N; i-- > 0;)
		whit(d, &w[i], 30 + i, 2000, i);
	whit(d, NULL, 99, 1000 + 64 + 5, 99);	/* the shared ring: ring 5's time in round 1, and before it */
	for (i = 0; i < N; i++)
		assert_int_equal(w[i].ring, i + 1);
	n = devreadraw(d, r, out, K * N + N + 8);
	assert_int_equal(n, K * N + N + 1);
	for (k = 0, i = 0; k < K; k++)
		for (uint64_t t = 0; t < N; t++, i++) {
			if (k == 1 && t == 5)	/* 7 * 35 mod 40 = 5: ring 35's; the shared ring's first */
				i++;
			assert_int_equal(out[i].ticks, 1000 + 64 * k + t);
			assert_int_equal(out[i].a[0], (t * 23) % N);	/* 23 = 7^-1 mod 40 */
		}
	assert_int_equal(out[N + 5].ticks, 1000 + 64 + 5);
	assert_int_equal(out[N + 5].a[0], 99);
	for (i = 0; i < N; i++) {	/* a tie: the lower ring first */
		assert_int_equal(out[K * N + 1 + i].ticks, 2000);
		assert_int_equal(out[K * N + 1 + i].a[0], i);
	}
	counts(d, K * N + N + 1, K * N + N + 1, 0, 0, 0);
	free(r);
	free(d);
}

/* the state with ring lines still replays: they are comments */
static void
test_state_replays(void **unused)
{
	Dev *d = tracing(8), *e = newdev(8);
	Writer a = { 0 };
	char cmds[Statemax];

	(void)unused;
	whit(d, &a, 10, 1, 1);
	assert_true(strstr(state(d), "#ring 0 ") != NULL);
	strcpy(cmds, commands(d));
	assert_int_equal(devctl(e, state(d), strlen(state(d)), 1), 0);
	assert_string_equal(commands(e), cmds);
	free(d);
	free(e);
}

/*
 * A device of 4096-slot rings on pages not in until touched (n: its
 * size, for munmap), tracing [1000, 2000), started; thread 10's Writer w
 * has claimed a ring and written one record: head 1.
 */
static Dev *
lazydev(size_t *n, Writer *w)
{
	Dev *d;

	*n = devsize(12, Testnring);
	d = mmap(NULL, *n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(d != MAP_FAILED);
	devinit(d, 12, Testnring, 1000000);
	devmapped(d, 12, Testnring, 0);
	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(d, 0, &sel));
	whit(d, w, 10, 1, 1);
	assert_non_null(w->wr);
	assert_int_equal(w->wr->head, 1);
	return d;
}

/*
 * devwriterwarm: the pages of a writer's ring from its head on, as many
 * bytes as asked, faulted in for writing (mincore); nothing written in
 * them or to the head; a writer with no ring, or a log past its mapping,
 * is left alone (a slot pointer that faults shows it).
 */
static void
test_warm(void **unused)
{
	Writer a = { 0 }, none = { 0 }, bad;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i, n;
	Dev *d = lazydev(&n, &a);	/* 4096 slots a ring: 64 pages */
	unsigned char vec[24];
	uint64_t head = 1;
	char *from, *base;
	int in = 0;

	(void)unused;
	from = (char *)&a.ws[head & a.mask];
	base = (char *)((uintptr_t)from & ~(uintptr_t)(pg - 1));
	assert_int_equal(mincore(base + pg, 20 * pg, vec), 0);
	for (i = 0; i < 20; i++)
		in += vec[i] & 1;
	assert_int_equal(in, 0);	/* calloc's fresh pages: none in yet past the record's */
	devwriterwarm(&a, 16 * pg);
	assert_int_equal(mincore(base, 24 * pg, vec), 0);
	for (i = 0; i < 24; i++)
		assert_int_equal(vec[i] & 1, i < 16);
	assert_int_equal(a.wr->head, head);
	for (i = 0; i < 15 * pg; i++)
		assert_int_equal(from[sizeof(Slot) + i], 0);
	devwriterwarm(&none, 16 * pg);
	bad = a;
	bad.ws = (Slot *)pg;		/* would fault if touched */
	bad.mask = (bad.mask << 1) | 1;	/* past the mapping's log */
	devwriterwarm(&bad, 16 * pg);
	devunmapped(d);
	munmap(d, n);
}

/*
 * A ring warmed a step at a time: after the first step (devwriterwarm)
 * the records stop at Writer.warm; the one that comes to it faults the
 * next step in and is followed by a W record (Wpages, a0 the ticks it
 * took), the pages past the new bound still out; once the whole ring is
 * in, warm is 0 and the ring policy's fast path (ringlim) is back.
 */
static void
test_warm_steps(void **unused)
{
	static char buf[8192 * Reclen + 1];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), step = 1024, got, i, n;
	Writer a = { 0 };
	Dev *d = lazydev(&n, &a);	/* decided: head 1 */
	unsigned char vec[1];
	int marks = 0, k;

	(void)unused;
	assert_int_equal(a.ringlim, a.lim);
	devwriterwarm(&a, step * sizeof(Slot));
	assert_int_equal(a.warm, 1 + step);
	assert_int_equal(a.warmend, 1 + 4096);
	assert_int_equal(a.ringlim, 0);
	for (k = 0; k < 2500; k++)	/* to head 2501 and the marks: two steps */
		whit(d, &a, 10, 2 + k, 2 + k);
	assert_int_equal(a.warm, 1 + 3 * step);
	assert_int_equal(mincore((void *)(((uintptr_t)&a.ws[(1 + 3 * step) & a.mask] + pg) & ~(uintptr_t)(pg - 1)), pg, vec), 0);
	assert_int_equal(vec[0] & 1, 0);	/* past the bound: not in yet */
	got = readall(d, buf, sizeof buf - 1, 7 * Reclen + 5);
	assert_int_equal(got, (2501 + 2) * Reclen);
	for (i = 0; i < got; i += Reclen)
		if (buf[i] == 'W') {
			marks++;
			assert_true(i > 0 && buf[i - Reclen] == 'E');	/* just after the record that waited */
			assert_true(strtoull(buf + i + 2 + 3 * 17, 0, 16) > 0);	/* a0: the ticks waited */
			assert_int_equal(strtoull(buf + i + 2 + 4 * 17, 0, 16), Wpages);
		}
	assert_int_equal(marks, 2);
	for (k = 0; k < 2000; k++)	/* past the ring's last step: the whole ring in */
		whit(d, &a, 10, 3000 + k, 0);
	assert_int_equal(a.warm, 0);
	assert_int_equal(a.ringlim, a.lim);
	got = readall(d, buf, sizeof buf - 1, 7 * Reclen + 5);
	for (i = 0, marks = 0; i < got; i += Reclen)
		marks += buf[i] == 'W';
	assert_int_equal(marks, 1);	/* the last of 4 steps: 3 marks in all */
	devunmapped(d);
	munmap(d, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim),
		cmocka_unit_test(test_claim_later),
		cmocka_unit_test(test_give_back),
		cmocka_unit_test(test_owner),
		cmocka_unit_test(test_killed_owner),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_merge_raw),
		cmocka_unit_test(test_raw_text_same),
		cmocka_unit_test(test_counts_ring),
		cmocka_unit_test(test_counts_fill),
		cmocka_unit_test(test_readring),
		cmocka_unit_test(test_readers),
		cmocka_unit_test(test_block_bounded),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_many_rings),
		cmocka_unit_test(test_bind_many),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_state_replays),
		cmocka_unit_test(test_warm),
		cmocka_unit_test(test_warm_steps),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
