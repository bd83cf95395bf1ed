/* writer_test.c: devfilter's decisions at an entry, the per-thread watch decision and counter shards. */
#include "tests/dev/util.h"

static Tsel sel;

/* a device tracing [1000, 2000) as trace a, started, with PRED if not nil */
static Dev *
tracing(const char *pred)
{
	Dev *d = newdev(16);
	char line[600];

	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	if (pred) {
		snprintf(line, sizeof line, "trace a pred /%s/", pred);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_true(devtsel(d, 0, &sel));
	return d;
}

static Hit
entry(uint64_t a0, uint32_t tid, Writer *w)
{
	Hit h = { .pc = 0x1000, .ticks = 1, .a = { a0, 2, 3, 4 }, .tid = tid, .pid = tid, .w = w };

	return h;
}

/* what devfilter says of an entry with arg0 = a0, and what it counted */
static void
check(const char *pred, uint64_t a0, int want, uint64_t filtered, uint64_t faults)
{
	Dev *d = tracing(pred);
	Writer w = { 0 };
	Hit h = entry(a0, 7, &w);

	assert_int_equal(devfilter(d, &sel, &h), want);
	assert_int_equal(counter(d, "#filtered "), filtered);
	assert_int_equal(counter(d, "#predfaults "), faults);
	assert_int_equal(counter(d, "#hits "), 0);	/* devfilter writes nothing */
	free(d);
}

static void
test_entry_decisions(void **unused)
{
	(void)unused;
	check(NULL, 1, Hrecord|Hfollow, 0, 0);
	check("arg0 == 1", 1, Hrecord|Hfollow, 0, 0);
	/* false now, and false at the exit (arg0 is 0 there): the call is not followed, both hits counted */
	check("arg0 == 5", 1, 0, 2, 0);
	check("pid == 8 && arg2 >= 4096", 1, 0, 2, 0);
	/* false now but true at the exit: followed */
	check("arg0 == 0 && !entry", 1, Hfollow, 1, 0);
	/* no entry or exit-only variable: the entry decides the whole call (whole_test.c) */
	check("arg0 == 0", 1, 0, 2, 0);
	/* the exit depends on what only the exit knows: followed */
	check("retval == 3", 1, Hfollow, 1, 0);
	check("timestamp == 0", 1, Hfollow, 1, 0);
	check("cpu == 1", 1, Hfollow, 1, 0);
	/* a fault at the entry drops the whole call; the exit is not asked */
	check("arg1 / arg0 == 0", 0, 0, 2, 1);
	/* a fault at the entry, and at the exit (arg0 0 there), both counted as they would be there */
	check("entry >= 0 && arg1 / arg0 == 0", 0, 0, 2, 2);
	/* true at the entry: followed, and the exit not asked (devexit) */
	check("arg1 / arg0 == 2", 1, Hrecord|Hfollow, 0, 0);
}

static void
test_off_and_unwatched(void **unused)
{
	Dev *d = tracing(NULL);
	Writer w = { 0 };
	Hit h = entry(1, 7, &w);

	(void)unused;
	assert_int_equal(ctl(d, "watch 8"), 0);
	assert_int_equal(devfilter(d, &sel, &h), 0);
	assert_int_equal(counter(d, "#filtered "), 1);	/* its exit is not followed, so not counted */
	assert_int_equal(ctl(d, "watch 7"), 0);	/* a new generation: decided again */
	assert_int_equal(devfilter(d, &sel, &h), Hrecord|Hfollow);
	assert_int_equal(ctl(d, "trace a off"), 0);
	assert_int_equal(devfilter(d, &sel, &h), 0);
	assert_int_equal(counter(d, "#filtered "), 1);	/* off is not a drop */
	free(d);
}

static void
test_reader_rule_cached(void **unused)
{
	Dev *d = tracing(NULL);
	Writer w = { 0 };
	Hit h = entry(1, 7, &w);

	(void)unused;
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(devreader(d, 7, 1), 0);	/* 7 opens trace: its hits stop at once */
	assert_int_equal(devhit(d, &sel, &h), 0);
	assert_int_equal(devreader(d, 7, 0), 0);
	assert_int_equal(devhit(d, &sel, &h), 1);
	assert_int_equal(counter(d, "#hits "), 2);
	assert_int_equal(counter(d, "#filtered "), 1);
	free(d);
}

/* shards: counts go to the thread's own line, are summed, and survive the thread */
static void
test_shards(void **unused)
{
	Dev *d = tracing("arg0 == 5");
	Writer w[3] = { { 0 } }, late = { 0 };
	Hit h;
	int i;

	(void)unused;
	for (i = 0; i < 3; i++) {
		h = entry(1, 100 + i, &w[i]);
		assert_int_equal(devfilter(d, &sel, &h), 0);
		assert_int_equal(w[i].shard, i + 1);
	}
	h = entry(1, 200, NULL);	/* no Writer: the shared atomic count */
	assert_int_equal(devfilter(d, &sel, &h), 0);
	assert_int_equal(counter(d, "#filtered "), 8);
	assert_int_equal(d->shard[1].filtered, 2);
	devwriterdone(&w[1]);
	assert_null(w[1].d);
	assert_int_equal(d->shard[1].tid, 0);
	assert_int_equal(counter(d, "#filtered "), 8);	/* given back, still counted */
	h = entry(1, 300, &late);
	assert_int_equal(devfilter(d, &sel, &h), 0);
	assert_int_equal(late.shard, 2);		/* the free one, counts and all */
	assert_int_equal(d->shard[1].filtered, 4);
	assert_int_equal(counter(d, "#filtered "), 10);
	free(d);
}

static void
test_shard_reuse_and_full(void **unused)
{
	Dev *d = tracing("arg0 == 5");
	Writer w = { 0 }, again = { 0 };
	Hit h;
	uint32_t i;

	(void)unused;
	for (i = 0; i < Nshard; i++) {
		w = (Writer){ 0 };
		h = entry(1, 1000 + i, &w);
		devfilter(d, &sel, &h);
	}
	assert_int_equal(counter(d, "#filtered "), 2 * Nshard);
	/* the same thread id again (a program after exec): its own shard */
	h = entry(1, 1005, &again);
	devfilter(d, &sel, &h);
	assert_int_equal(again.shard, 6);
	/* full, every owner alive: counted atomically on the shared line */
	again = (Writer){ 0 };
	h = entry(1, 5000, &again);
	devfilter(d, &sel, &h);
	assert_int_equal(again.shard, 0);
	assert_int_equal(d->filtered, 2);
	/* a dead owner's shard is taken, with its counts */
	testdead = 1010;
	again = (Writer){ 0 };
	h = entry(1, 5001, &again);
	devfilter(d, &sel, &h);
	testdead = 0;
	assert_int_equal(again.shard, 11);
	assert_int_equal(d->shard[10].filtered, 4);
	assert_int_equal(counter(d, "#filtered "), 2 * Nshard + 6);
	free(d);
}

/* a Writer of another device starts afresh on this one */
static void
test_writer_follows_device(void **unused)
{
	Dev *d = tracing("arg0 == 5"), *e;
	Writer w = { 0 };
	Hit h = entry(1, 7, &w);

	(void)unused;
	devfilter(d, &sel, &h);
	e = tracing("arg0 == 5");
	devfilter(e, &sel, &h);
	assert_ptr_equal(w.d, e);
	assert_int_equal(counter(e, "#filtered "), 2);
	assert_int_equal(counter(d, "#filtered "), 2);
	free(d);
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_decisions),
		cmocka_unit_test(test_off_and_unwatched),
		cmocka_unit_test(test_reader_rule_cached),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_shard_reuse_and_full),
		cmocka_unit_test(test_writer_follows_device),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
