/*
 * whole_test.c: a predicate that reads only what an entry knows decides
 * the whole call at its entry (dev/hit.c: devtsel's Tsel.whole,
 * devfilter, devexit): the exit of a call it passed is recorded, and
 * aggregated, without asking again; one that reads retval, dur,
 * timestamp, cpu or entry is asked at each hit.
 */
#include "tests/dev/util.h"

enum { Fn = 0x1000 };	/* the traced function: trace a is [0x1000, 0x2000) */

static Tsel sel;

/* a device tracing Fn as trace a, started, with predicate PRED and aggregation AGG if not nil */
static Dev *
tracing(const char *pred, const char *agg)
{
	Dev *d = newdev(16);
	char line[600];

	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	snprintf(line, sizeof line, "trace a pred /%s/", pred);
	assert_int_equal(ctl(d, line), 0);
	if (agg) {
		snprintf(line, sizeof line, "agg a %s", agg);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_true(devtsel(d, 0, &sel));
	return d;
}

/* the entry of a call of Fn with arg0 a, by thread 7 */
static Hit
entryhit(uint64_t a, Writer *w)
{
	Hit h = { .pc = Fn, .ticks = 0x100, .a = { a, 2, 3, 4 }, .tid = 7, .pid = 7, .w = w };

	return h;
}

/* its exit, returning ret, 0x100 ticks later */
static Hit
exithit(uint64_t ret, Writer *w)
{
	Hit h = { .pc = Fn, .ticks = 0x200, .a = { ret, 0, 0, 0 }, .tid = 7, .pid = 7, .exit = Kexit, .dur = 0x100, .w = w };

	return h;
}

/* one call as a hook makes it: devfilter at the entry, devexit at the exit if followed; devfilter's answer */
static int
call(Dev *d, Writer *w, uint64_t a, uint64_t ret)
{
	Hit h = entryhit(a, w);
	int r = devfilter(d, &sel, &h);

	if (r & Hrecord)
		devrecord(d, &h);
	if (r & Hfollow) {
		h = exithit(ret, w);
		devexit(d, &sel, &h);
	}
	return r;
}

/* the records, each as its kind and a0 in decimal: "E 4\nX 40\n" */
static char *
records(Dev *d)
{
	static char buf[64 * Reclen + 1], out[64 * 32];
	size_t n = readall(d, buf, sizeof buf - 1, 4096), i, o = 0;

	assert_int_equal(n % Reclen, 0);
	out[0] = 0;
	for (i = 0; i < n; i += Reclen)
		o += snprintf(out + o, sizeof out - o, "%c %llu\n", buf[i],
			(unsigned long long)strtoull(buf + i + 2 + 17 * 3, NULL, 16));
	return out;
}

/* the aggregations, as a host reads them (aggraw) */
static char *
aggs(Dev *d)
{
	static char buf[4096];
	void *work = malloc(devaggwork());
	size_t n;

	assert_non_null(work);
	n = devaggs(d, work, buf, sizeof buf, Amachine, NULL, 0);
	free(work);
	assert_true(n < sizeof buf);
	return buf;
}

/* which predicates decide whole calls */
static void
test_which_are_whole(void **unused)
{
	static const struct {
		const char *pred;
		uint32_t whole;
	} c[] = {
		{ "arg0 > 3", 1 },
		{ "arg3 == 4 && pid != 0 && tid > 1 && depth < 3 && pc == 0x1000", 1 },
		{ "execname == \"x\" || uid == 0 || ppid == 1", 1 },
		{ "retval == 3", 0 },
		{ "dur > 100", 0 },
		{ "timestamp > 0", 0 },
		{ "cpu == 0", 0 },
		{ "entry && arg0 > 3", 0 },	/* asks which hit it sees */
		{ "!entry || arg0 >= 2", 0 },
	};
	Dev *d;
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		d = tracing(c[i].pred, NULL);
		if (sel.whole != c[i].whole)
			fail_msg("%s: whole %u, want %u", c[i].pred, sel.whole, c[i].whole);
		free(d);
	}
}

/* arg0 > 3 over calls 1..6: the three that pass, entries and exits with their return values */
static void
test_whole_calls(void **unused)
{
	Dev *d = tracing("arg0 > 3", NULL);
	Writer w = { 0 };
	uint64_t a;

	(void)unused;
	for (a = 1; a <= 6; a++)
		assert_int_equal(call(d, &w, a, 10 * a), a > 3 ? Hrecord|Hfollow : 0);
	assert_string_equal(records(d), "E 4\nX 40\nE 5\nX 50\nE 6\nX 60\n");
	assert_int_equal(counter(d, "#filtered "), 6);	/* three calls, two hits each, dropped at their entries */
	assert_int_equal(counter(d, "#predfaults "), 0);
	free(d);
}

/* a whole predicate that is true where the arguments read 0: still decided by the entry's arguments */
static void
test_whole_zero_args(void **unused)
{
	Dev *d = tracing("arg0 == 0", NULL);
	Writer w = { 0 };

	(void)unused;
	assert_int_equal(call(d, &w, 1, 10), 0);	/* not followed: no exit of its own */
	assert_int_equal(call(d, &w, 0, 20), Hrecord|Hfollow);
	assert_string_equal(records(d), "E 0\nX 20\n");
	assert_int_equal(counter(d, "#filtered "), 2);
	free(d);
}

/* devhit is per hit (classic hooks, probes): there the same exit reads arg0 as 0 and is dropped */
static void
test_devhit_per_hit(void **unused)
{
	Dev *d = tracing("arg0 > 3", NULL);
	Writer w = { 0 };
	Hit h = exithit(50, &w);

	(void)unused;
	assert_int_equal(devhit(d, &sel, &h), 0);
	h = exithit(50, &w);
	assert_int_equal(devexit(d, &sel, &h), 1);
	assert_string_equal(records(d), "X 50\n");
	free(d);
}

/* predicates that read what only an exit knows, or entry, decide at each hit */
static void
test_per_hit(void **unused)
{
	static const struct {
		const char *pred;
		const char *want;	/* calls 1..3 returning 10, 20, 30 */
		uint64_t filtered;
	} c[] = {
		{ "retval == 20", "X 20\n", 5 },	/* entries fail (retval reads 0); exits asked */
		{ "dur > 0x80 && arg0 == 0", "X 10\nX 20\nX 30\n", 3 },	/* arguments read 0 at an exit */
		{ "entry && arg0 >= 2", "E 2\nE 3\n", 4 },	/* exits asked: entry reads 0 */
		{ "!entry || arg0 >= 2", "X 10\nE 2\nX 20\nE 3\nX 30\n", 1 },
	};
	Writer w;
	Dev *d;
	size_t i;
	uint64_t a;
	char *got;

	(void)unused;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		d = tracing(c[i].pred, NULL);
		w = (Writer){ 0 };
		for (a = 1; a <= 3; a++)
			call(d, &w, a, 10 * a);
		got = records(d);
		if (strcmp(got, c[i].want) != 0 || counter(d, "#filtered ") != c[i].filtered)
			fail_msg("%s: records \"%s\", filtered %llu", c[i].pred, got,
				(unsigned long long)counter(d, "#filtered "));
		free(d);
	}
}

/* an exit aggregation under a whole predicate counts the calls that passed at their entries */
static void
test_whole_exit_aggregation(void **unused)
{
	Dev *d = tracing("arg0 > 3", "exit @r = sum(retval)");
	Writer w = { 0 };
	uint64_t a;

	(void)unused;
	for (a = 1; a <= 6; a++)
		call(d, &w, a, 10 * a);
	assert_string_equal(aggs(d), "@r sum - 3 150\n");	/* 40 + 50 + 60 */
	free(d);
}

/* a whole call's exit still passes the site and watch checks of its moment */
static void
test_whole_exit_unwatched(void **unused)
{
	Dev *d = tracing("arg0 > 3", NULL);
	Writer w = { 0 };
	Hit h = entryhit(5, &w);

	(void)unused;
	assert_int_equal(devfilter(d, &sel, &h), Hrecord|Hfollow);
	assert_int_equal(ctl(d, "watch 8"), 0);
	h = exithit(50, &w);
	assert_int_equal(devexit(d, &sel, &h), 0);
	assert_int_equal(counter(d, "#filtered "), 1);
	assert_int_equal(ctl(d, "watch 0\ntrace a off"), 0);
	h = exithit(50, &w);
	assert_int_equal(devexit(d, &sel, &h), 0);
	assert_int_equal(counter(d, "#filtered "), 1);	/* off is not a drop */
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_which_are_whole),
		cmocka_unit_test(test_whole_calls),
		cmocka_unit_test(test_whole_zero_args),
		cmocka_unit_test(test_devhit_per_hit),
		cmocka_unit_test(test_per_hit),
		cmocka_unit_test(test_whole_exit_aggregation),
		cmocka_unit_test(test_whole_exit_unwatched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
