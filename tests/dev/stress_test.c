/*
 * stress_test.c: writer threads and a concurrent reader, with a resize
 * in the middle.  Every record read is well formed and comes in its
 * writer's order, none twice, and hits = read + queued + lost at the end.
 * First with writers that have no Writer (the shared ring alone), then
 * with Nproc processes of Nthr threads each, more than the device's
 * rings: each claims a ring of its own, the rest share the shared ring,
 * and each gives its ring back as it ends.  Last, readers of the rings
 * side by side outside the lock beside the locked one.
 * Built a second time with ThreadSanitizer (make check-tsan).
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/dev/util.h"

enum {
	Nproc = 3,	/* writing processes of the second test */
	Nthr = 3,	/* threads in each: 9 writers, Testnring rings */
	Nwriter = Nproc * Nthr,
	Seconds = 3,
};

static Dev *dev;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the host's control lock */
/* shared with the writing processes of the second test */
static struct Shared {
	int stopping;
	uint64_t written[Nwriter];
} *sh;
#define stopping	(sh->stopping)
#define written		(sh->written)
static int withwriter;	/* writers go through a Writer and devhit (rings claimed) */
static Tsel sel;

static void *
writer(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	Writer w = { 0 };
	Hit h = { .pc = 0x1000 + id, .tid = 100 + id, .pid = 100 + id };
	uint64_t n;

	for (n = 1; !__atomic_load_n(&stopping, __ATOMIC_RELAXED); n++) {
		h.a[0] = n;
		h.a[1] = ~n;
		h.a[2] = h.a[3] = 0;
		h.ticks = n * 3;
		h.exit = 0;
		if (withwriter) {
			h.w = &w;
			devhit(dev, &sel, &h);
		} else
			devrecord(dev, &h);
	}
	if (withwriter)
		devwriterdone(&w);
	__atomic_store_n(&written[id], n - 1, __ATOMIC_RELAXED);
	return 0;
}

static uint64_t last[Nwriter], nread, bad, dups;

static uint64_t
field(const char *p)
{
	return strtoull(p, 0, 16);
}

static void
check(const char *r)
{
	uint64_t id, n;
	int i;

	for (i = 0; i < Reclen - 1; i++)
		if (i % 17 == 1 ? r[i] != ' ' : i > 0 && !strchr("0123456789abcdef", r[i]))
			bad++;
	if (r[0] != 'E' || r[Reclen - 1] != '\n')
		bad++;
	id = field(r + 2) - 0x1000;
	n = field(r + 2 + 3 * 17);
	if (id >= Nwriter || field(r + 2 + 4 * 17) != ~n || field(r + 2 + 17) != n * 3 || field(r + 2 + 2 * 17) != 100 + id) {
		bad++;
		return;
	}
	if (n <= last[id])
		dups++;
	last[id] = n;
	nread++;
}

static void
drain(void)
{
	static char buf[64 * Reclen + 50];
	static Reader r;
	static char rec[Reclen];
	static int have;
	size_t n, i;

	pthread_mutex_lock(&lock);
	n = devread(dev, &r, buf, 50 + (rand() % 64) * Reclen);	/* odd sizes: records split across reads */
	pthread_mutex_unlock(&lock);
	for (i = 0; i < n; i++) {
		rec[have++] = buf[i];
		if (have == Reclen) {
			check(rec);
			have = 0;
		}
	}
}

/* the reader, with a resize half way, until the writers stop; then the rest */
static void
readfor(int seconds)
{
	time_t end = time(0) + seconds;
	int resized = 0;

	while (time(0) < end) {
		drain();
		if (!resized && time(0) >= end - seconds / 2) {
			pthread_mutex_lock(&lock);
			assert_int_equal(devctl(dev, "size 10", 7, 1), 0);
			pthread_mutex_unlock(&lock);
			resized = 1;
		}
	}
	__atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
}

static void
finish(int nwriter)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < nwriter; i++)
		total += __atomic_load_n(&written[i], __ATOMIC_RELAXED);
	testnsecstep = 1000 * 1000;	/* tickets a resize sent astray time out at once */
	for (i = 0; i < 1000; i++)
		drain();
	testnsecstep = 0;
	print_message("written %llu read %llu lost %llu\n", (unsigned long long)total,
		(unsigned long long)nread, (unsigned long long)counter(dev, "#lost "));
	assert_int_equal(bad, 0);
	assert_int_equal(dups, 0);
	assert_int_equal(counter(dev, "#hits "), total);
	assert_int_equal(counter(dev, "#read "), nread);
	assert_int_equal(counter(dev, "#queued "), 0);
	assert_identity(dev);
	assert_true(nread > 0);
}

static void
test_stress(void **unused)
{
	pthread_t w[Nthr];
	uintptr_t i;

	(void)unused;
	sh = calloc(1, sizeof *sh);
	dev = newdev(12);
	for (i = 0; i < Nthr; i++)
		pthread_create(&w[i], 0, writer, (void *)i);
	readfor(Seconds);
	for (i = 0; i < Nthr; i++)
		pthread_join(w[i], 0);
	finish(Nthr);
	free(dev);
	free(sh);
}

/* one writing process: Nthr threads with Writers, ids from first */
static void
procwriters(uintptr_t first)
{
	pthread_t w[Nthr];
	uintptr_t i;

	for (i = 0; i < Nthr; i++)
		pthread_create(&w[i], 0, writer, (void *)(first + i));
	for (i = 0; i < Nthr; i++)
		pthread_join(w[i], 0);
	_exit(0);
}

/* Nproc processes of Nthr threads, each with its Writer: more writers than rings */
static void
test_stress_rings(void **unused)
{
	size_t size = devsize(12, Testnring);
	pid_t pid[Nproc];
	int i, st;
	char *s;

	(void)unused;
	memset(last, 0, sizeof last);
	nread = bad = dups = 0;
	sh = mmap(0, sizeof *sh, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0);
	dev = mmap(0, size, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0);
	assert_true(sh != MAP_FAILED && dev != MAP_FAILED);
	devinit(dev, 12, Testnring, 1000000);
	devmapped(dev, 12, Testnring, 0);
	assert_int_equal(ctl(dev, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(dev, 0, &sel));
	withwriter = 1;
	for (i = 0; i < Nproc; i++)
		if ((pid[i] = fork()) == 0)
			procwriters(i * Nthr);
	readfor(Seconds);
	for (i = 0; i < Nproc; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	finish(Nwriter);
	/* every ring was used and given back; the shared ring took the rest */
	s = state(dev);
	for (i = 0; i < Testnring; i++) {
		char key[32];

		snprintf(key, sizeof key, "#ring %d tid 0 hits ", i);
		assert_non_null(strstr(s, key));
	}
	assert_true(dev->head > 0);
	munmap(dev, size);
	munmap(sh, sizeof *sh);
}

/*
 * Readers side by side: Nringreader threads read every writer's ring in
 * turn outside the lock, each under the ring's claim (devreadwring, as
 * devtrace record's threads do), while the locked reader merges and
 * resizes.  A chunk holds each writer's records in its order; every
 * reader's count is in #read once (a record read twice would break the
 * identity, one dropped unseen too).
 */
enum { Nringreader = 2 };
static int ringstop;
static uint64_t ringgot[Nringreader], ringbad[Nringreader];	/* each reader's: added up once it is joined */

static void *
ringreader(void *arg)
{
	uintptr_t me = (uintptr_t)arg;
	uint32_t tid = 500 + (uint32_t)me, busy, i;
	uint64_t prev[Nwriter], got = 0, wrong = 0, id, n;
	Rec *out = malloc(256 * sizeof *out);
	size_t k, m;

	while (!__atomic_load_n(&ringstop, __ATOMIC_RELAXED))
		for (i = 0; i < Testnring; i++) {
			m = devreadwring(dev, i, tid, out, 1 + rand() % 256, &busy);
			memset(prev, 0, sizeof prev);
			for (k = 0; k < m; k++) {
				id = out[k].pc - 0x1000;
				n = out[k].a[0];
				if (id >= Nwriter || out[k].a[1] != ~n || out[k].ticks != n * 3 || out[k].tid != 100 + id || n <= prev[id])
					wrong++;
				else
					prev[id] = n;
			}
			got += m;
		}
	ringgot[me] = got;
	ringbad[me] = wrong;
	free(out);
	return 0;
}

static void
test_stress_readers(void **unused)
{
	pthread_t w[Nthr], r[Nringreader];
	uintptr_t i;

	(void)unused;
	memset(last, 0, sizeof last);
	nread = bad = dups = 0;
	sh = calloc(1, sizeof *sh);
	dev = newdev(12);
	assert_int_equal(ctl(dev, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_true(devtsel(dev, 0, &sel));
	withwriter = 1;
	for (i = 0; i < Nthr; i++)
		pthread_create(&w[i], 0, writer, (void *)i);
	for (i = 0; i < Nringreader; i++)
		pthread_create(&r[i], 0, ringreader, (void *)i);
	readfor(Seconds);
	for (i = 0; i < Nthr; i++)
		pthread_join(w[i], 0);
	__atomic_store_n(&ringstop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < Nringreader; i++) {
		pthread_join(r[i], 0);
		nread += ringgot[i];
		bad += ringbad[i];
	}
	finish(Nthr);
	free(dev);
	free(sh);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress),
		cmocka_unit_test(test_stress_rings),
		cmocka_unit_test(test_stress_readers),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
