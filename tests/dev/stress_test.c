/*
 * stress_test.c: writer threads and a concurrent reader, with a resize
 * in the middle.  Every record read is well formed and comes in its
 * writer's order, none twice, and hits = read + queued + lost at the end.
 * Built a second time with ThreadSanitizer (make check-tsan).
 */
#include <pthread.h>
#include <time.h>
#include "tests/dev/util.h"

enum { Nwriter = 3, Seconds = 3 };

static Dev *dev;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the host's control lock */
static int stopping;
static uint64_t written[Nwriter];

static void *
writer(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	Hit h = { .pc = 0x1000 + id, .tid = 100 + id, .pid = 100 + id };
	uint64_t n;

	for (n = 1; !__atomic_load_n(&stopping, __ATOMIC_RELAXED); n++) {
		h.a[0] = n;
		h.a[1] = ~n;
		h.ticks = n * 3;
		devrecord(dev, &h);
	}
	written[id] = n - 1;
	return 0;
}

static uint64_t last[Nwriter], nread, bad, dup;

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
		dup++;
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

static void
test_stress(void **unused)
{
	pthread_t w[Nwriter];
	uintptr_t i;
	time_t end;
	uint64_t total = 0;
	int resized = 0;

	(void)unused;
	dev = newdev(12);
	for (i = 0; i < Nwriter; i++)
		pthread_create(&w[i], 0, writer, (void *)i);
	end = time(0) + Seconds;
	while (time(0) < end) {
		drain();
		if (!resized && time(0) >= end - Seconds / 2) {
			pthread_mutex_lock(&lock);
			assert_int_equal(devctl(dev, "size 10", 7, 1), 0);
			pthread_mutex_unlock(&lock);
			resized = 1;
		}
	}
	__atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
	for (i = 0; i < Nwriter; i++) {
		pthread_join(w[i], 0);
		total += written[i];
	}
	testnsecstep = 1000 * 1000;	/* tickets a resize sent astray time out at once */
	for (i = 0; i < 1000; i++)
		drain();
	print_message("written %llu read %llu lost %llu\n", (unsigned long long)total,
		(unsigned long long)nread, (unsigned long long)counter(dev, "#lost "));
	assert_int_equal(bad, 0);
	assert_int_equal(dup, 0);
	assert_int_equal(counter(dev, "#hits "), total);
	assert_int_equal(counter(dev, "#read "), nread);
	assert_int_equal(counter(dev, "#queued "), 0);
	assert_identity(dev);
	assert_true(nread > 0);
	free(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
