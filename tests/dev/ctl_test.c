/* ctl_test.c: the control language: every command, every refusal, the state round trip. */
#include "tests/dev/util.h"

static const char fresh[] =
	"logsize 8192\n"
	"watch 0\n"
	"stop\n"
	"#hits 0\n"
	"#read 0\n"
	"#queued 0\n"
	"#lost 0\n"
	"#filtered 0\n"
	"#reentered 0\n"
	"#deep 0\n"
	"#predfaults 0\n"
	"#badprogs 0\n"
	"#corrupt 0\n"
	"#hz 1000000\n";

static void
test_fresh_state(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_string_equal(state(d), fresh);
	free(d);
}

static void
test_paper_session(void **unused)
{
	Dev *d = newdev(16);
	char buf[4 * Reclen + 1];

	(void)unused;
	assert_int_equal(ctl(d, "trace 119f61 11aac8 new rtc\n"), 0);
	assert_int_equal(ctl(d, "trace rtc on"), 0);
	assert_int_equal(ctl(d, "start\n"), 0);
	assert_int_equal(ctl(d, "testtracein 11aa68 7be 0x81accb78 0 a"), 0);
	assert_int_equal(ctl(d, "testtracein 11aa70 1 2 3 4"), 0);
	assert_int_equal(ctl(d, "testtracein 200000 1 2 3 4"), 0);	/* untraced: no record */
	assert_string_equal(commands(d),
		"logsize 8192\n"
		"trace 0000000000119f61 000000000011aac8 new rtc\n"
		"trace rtc on\n"
		"watch 0\n"
		"start\n");
	assert_int_equal(counter(d, "#hits "), 2);
	assert_int_equal(counter(d, "#queued "), 2);
	assert_int_equal(readall(d, buf, sizeof buf - 1, 4096), 2 * Reclen);
	assert_memory_equal(buf,
		"E 000000000011aa68 00000000000003e9 000000000000002a 00000000000007be 0000000081accb78 0000000000000000 000000000000000a\n", Reclen);
	assert_memory_equal(buf + Reclen + 2, "000000000011aa70 00000000000003ea", 33);
	assert_int_equal(counter(d, "#read "), 2);
	assert_int_equal(counter(d, "#queued "), 0);
	assert_identity(d);
	free(d);
}

static void
test_trace_on_off_remove(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new a"), 0);
	assert_int_equal(ctl(d, "trace 'x*' new b"), 0);
	assert_int_equal(ctl(d, "trace a on\ntrace b on\ntrace b off"), 0);
	assert_string_equal(commands(d),
		"logsize 8192\n"
		"trace 0000000000001000 0000000000002000 new a\n"
		"trace a on\n"
		"trace x* new b\n"
		"watch 0\n"
		"stop\n");
	assert_int_equal(ctl(d, "trace a remove"), 0);
	assert_int_equal(ctl(d, "trace a on"), Enoent);
	assert_int_equal(ctl(d, "trace 1000 2000 new a"), 0);	/* the range and the name are free again */
	free(d);
}

static void
test_select(void **unused)
{
	Dev *d = newdev(16);
	Tsel sel;
	int s;

	(void)unused;
	assert_int_equal(ctl(d, "trace 401000 402000 new main\ntrace rtc* new rtc\ntrace r* new r"), 0);
	assert_int_equal(devselect(d, 0x401100, 0x401100, 1, "foo"), 0);
	assert_int_equal(devselect(d, 0x555555401100, 0x401100, 1, "foo"), 0);	/* nm's address of a PIE */
	assert_int_equal(devselect(d, 0x7f0000401100, 0x401100, 0, "foo"), -1);	/* not the main program */
	assert_int_equal(devselect(d, 0x7f00, 0x7f00, 0, "rtcread"), 1);	/* the older pattern wins */
	assert_int_equal(devselect(d, 0x7f00, 0x7f00, 0, "read"), 2);
	assert_int_equal(devselect(d, 0x7f00, 0x7f00, 0, "write"), -1);
	s = devselect(d, 0x401100, 0x401100, 1, 0);
	assert_true(devtsel(d, s, &sel));
	assert_false(devsiteon(d, &sel));
	assert_int_equal(ctl(d, "trace main on"), 0);
	assert_false(devsiteon(d, &sel));	/* not started */
	assert_int_equal(ctl(d, "start"), 0);
	assert_true(devsiteon(d, &sel));
	assert_int_equal(ctl(d, "trace main remove\ntrace 401000 402000 new main\ntrace main on"), 0);
	assert_false(devsiteon(d, &sel));	/* a new trace in the slot is not the old one */
	free(d);
}

static void
test_query(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new a\nquery 1fff"), 0);
	assert_non_null(strstr(state(d), "#query 0000000000001fff a\n"));
	assert_int_equal(ctl(d, "query 0x2000"), 0);
	assert_non_null(strstr(state(d), "#query 0000000000002000 untraced\n"));
	free(d);
}

static void
test_size(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(ctl(d, "size 4"), 0);
	assert_non_null(strstr(state(d), "logsize 16\n"));
	assert_int_equal(ctl(d, "logsize 65536"), 0);
	assert_non_null(strstr(state(d), "logsize 65536\n"));
	assert_int_equal(ctl(d, "size 3"), Einval);
	assert_int_equal(ctl(d, "size 17"), Einval);
	assert_int_equal(ctl(d, "logsize 1000"), Einval);
	free(d);
}

static void
test_watch(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_true(devwatched(d, 5, 6));
	assert_int_equal(ctl(d, "watch 5\nwatch 9\nwatch 5"), 0);
	assert_non_null(strstr(state(d), "watch 0\nwatch 5\nwatch 9\n"));
	assert_true(devwatched(d, 5, 6));	/* by process id */
	assert_true(devwatched(d, 1, 9));	/* by thread id */
	assert_false(devwatched(d, 1, 2));
	assert_int_equal(ctl(d, "watch 0"), 0);
	assert_true(devwatched(d, 1, 2));
	assert_int_equal(devreader(d, 1, 1), 0);
	assert_false(devwatched(d, 1, 2));	/* the reader rule */
	assert_non_null(strstr(state(d), "#reader 1\n"));
	assert_int_equal(devreader(d, 1, 0), 0);
	assert_true(devwatched(d, 1, 2));
	free(d);
}

static void
test_watch_filters_records(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart\nwatch 9"), 0);
	assert_int_equal(ctl(d, "testtracein 1000 0 0 0 0"), 0);	/* written by pid 42 */
	assert_int_equal(counter(d, "#hits "), 0);
	assert_int_equal(counter(d, "#filtered "), 1);
	assert_int_equal(ctl(d, "watch 42\ntesttracein 1000 0 0 0 0"), 0);
	assert_int_equal(counter(d, "#hits "), 1);
	assert_int_equal(ctl(d, "stop\ntesttracein 1000 0 0 0 0"), 0);
	assert_int_equal(counter(d, "#hits "), 1);
	free(d);
}

static void
test_comments_and_multiline(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(ctl(d, "#hits 5\ntrace 1 2 new a\n  # note\n"), 0);
	assert_int_equal(ctl(d, "trace a on\nbogus\ntrace a off"), Einval);	/* runs up to the refusal */
	assert_non_null(strstr(commands(d), "trace a on\n"));
	free(d);
}

/* every refusal: its errno, its reason, and no change to the commands */
static const struct {
	const char *line;
	int err;
	const char *why;
} bad[] = {
	{ "", Einval, "empty command" },
	{ "\n", Einval, "empty command" },
	{ "   ", Einval, "empty command" },
	{ "bogus", Einval, "bogus: unknown command" },
	{ "start now", Einval, "start: wrong number of arguments" },
	{ "stop 1", Einval, "stop: wrong number of arguments" },
	{ "size", Einval, "size: wrong number of arguments" },
	{ "size 4 5", Einval, "size: wrong number of arguments" },
	{ "size x", Einval, "size: bad size" },
	{ "size 99", Einval, "size: size out of range" },
	{ "size 3", Einval, "size: size out of range" },
	{ "logsize 100", Einval, "logsize: bad size" },
	{ "trace", Einval, "trace: wrong number of arguments" },
	{ "trace a", Einval, "trace: wrong number of arguments" },
	{ "trace nosuch on", Enoent, "trace: no such trace" },
	{ "trace old bogus", Einval, "trace: bad trace command" },
	{ "trace old on off", Einval, "trace: bad trace command" },
	{ "trace g00 3000 new x", Einval, "trace: bad address" },
	{ "trace 3000 zz new x", Einval, "trace: bad address" },
	{ "trace 3000 11112222333344445 new x", Einval, "trace: bad address" },
	{ "trace 3000 2000 new x", Einval, "trace: empty or reversed range" },
	{ "trace 3000 3000 new x", Einval, "trace: empty or reversed range" },
	{ "trace 1000 2000 new x", Eexist, "trace: range overlaps trace" },
	{ "trace 1800 1900 new x", Eexist, "trace: range overlaps trace" },
	{ "trace 800 3000 new x", Eexist, "trace: range overlaps trace" },
	{ "trace 800 1001 new x", Eexist, "trace: range overlaps trace" },
	{ "trace 1fff 3000 new x", Eexist, "trace: range overlaps trace" },
	{ "trace 3000 4000 new old", Eexist, "trace: trace exists" },
	{ "trace 3000 4000 new abcdefghijklmnop", Einval, "trace: bad trace name" },
	{ "trace 3000 4000 new 9x", Einval, "trace: bad trace name" },
	{ "trace 3000 4000 new a/b", Einval, "trace: bad trace name" },
	{ "trace f* new old", Eexist, "trace: trace exists" },
	{ "trace 3000 4000 old x", Einval, "trace: bad trace command" },
	{ "query", Einval, "query: wrong number of arguments" },
	{ "query xyz", Einval, "query: bad address" },
	{ "testtracein 1000 1 2 3", Einval, "testtracein: wrong number of arguments" },
	{ "testtracein 1000 1 2 3 q", Einval, "testtracein: bad argument" },
	{ "watch", Einval, "watch: wrong number of arguments" },
	{ "watch -1", Einval, "watch: bad pid" },
	{ "watch 99999999999", Einval, "watch: bad pid" },
	{ "watch 12a", Einval, "watch: bad pid" },
	{ "start\001", Einval, "bad character in command" },
	{ "trace \377\376 new x", Einval, "bad character in command" },
	{ "sta\0rt", Einval, "bad character in command" },
	{ "stop\r\n", Einval, "bad character in command" },
	{ "stop\n\nstart", Einval, "empty command" },
};

static void
test_refusals(void **unused)
{
	Dev *d = newdev(16);
	char before[Statemax];
	size_t i, n;

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new old\ntrace 0x5000 0x6000 new other\ntrace old on\nwatch 3\nstart"), 0);
	strcpy(before, commands(d));
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		n = strlen(bad[i].line);
		if (strcmp(bad[i].line, "sta\0rt") == 0)
			n = 6;
		print_message("refusal: %s\n", bad[i].why);
		assert_int_equal(devctl(d, bad[i].line, n, 1), bad[i].err);
		assert_string_equal(deverr(d), bad[i].why);
		assert_string_equal(commands(d), before);
	}
	/* the reason is in the state, as a comment */
	assert_non_null(strstr(state(d), "#error empty command\n"));
	assert_int_equal(ctl(d, "stop"), 0);
	assert_null(strstr(state(d), "#error"));
	free(d);
}

static void
test_long_lines_and_garbage(void **unused)
{
	Dev *d = newdev(16);
	size_t n = 1 << 20, i;
	char *big = malloc(n), before[Statemax];

	(void)unused;
	strcpy(before, state(d));
	memset(big, 'a', n);
	assert_int_equal(devctl(d, big, n, 1), E2big);
	assert_string_equal(deverr(d), "line too long");
	memcpy(big, "trace 1 2 new x\n", 16);	/* a good line first changes nothing either */
	assert_int_equal(devctl(d, big, n, 1), E2big);
	srand(1);
	for (i = 0; i < n; i++)
		big[i] = rand();
	for (i = 0; i + 100 < n; i += 4096)
		assert_int_not_equal(devctl(d, big + i, 100, 1), 0);
	assert_int_equal(ctl(d, "stop"), 0);
	assert_string_equal(state(d), before);
	free(big);
	free(d);
}

static void
test_round_trip(void **unused)
{
	Dev *d = newdev(16), *e = newdev(16);
	char saved[Statemax];

	(void)unused;
	assert_int_equal(ctl(d, "size 10\ntrace 401000 402000 new main\ntrace 'rtc*' new rtc\n"
		"trace rtc on\nwatch 7\nwatch 8\nstart\ntesttracein 401000 1 2 3 4"), 0);
	strcpy(saved, state(d));
	assert_int_equal(devctl(e, saved, strlen(saved), 1), 0);
	assert_string_equal(commands(e), commands(d));
	/* and once more: the replayed state replays to itself */
	strcpy(saved, state(e));
	free(e);
	e = newdev(16);
	assert_int_equal(devctl(e, saved, strlen(saved), 1), 0);
	assert_string_equal(commands(e), commands(d));
	free(d);
	free(e);
}

static void
test_table_limits(void **unused)
{
	Dev *d = newdev(16);
	char line[64];
	int i;

	(void)unused;
	for (i = 0; i < Ntrace; i++) {
		snprintf(line, sizeof line, "trace %x %x new t%d", i * 16, i * 16 + 16, i);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_int_equal(ctl(d, "trace 100000 100010 new x"), Enospc);
	assert_string_equal(deverr(d), "trace: too many traces");
	for (i = 1; i <= Nwatch; i++) {
		snprintf(line, sizeof line, "watch %d", i);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_int_equal(ctl(d, "watch 100"), Enospc);
	for (i = 1; i <= Nreader; i++)
		assert_int_equal(devreader(d, i, 1), 0);
	assert_int_equal(devreader(d, 99, 1), Enospc);
	free(d);
}

static void
test_predicate(void **unused)
{
	Dev *d = newdev(16);
	Dev *e = newdev(16);
	char saved[Statemax];

	(void)unused;
	assert_int_equal(ctl(d, "trace 1000 2000 new a\ntrace a on\nstart"), 0);
	assert_int_equal(ctl(d, "trace a pred /arg0 > 5 && arg1 != 'x'/"), 0);
	assert_non_null(strstr(commands(d), "trace a on\ntrace a pred /arg0 > 5 && arg1 != 'x'/\n"));
	assert_int_equal(ctl(d, "testtracein 1000 3 0 0 0\ntesttracein 1000 6 0 0 0\ntesttracein 1000 7 78 0 0"), 0);
	assert_int_equal(counter(d, "#hits "), 1);
	assert_int_equal(counter(d, "#filtered "), 2);
	/* the round trip keeps it */
	strcpy(saved, state(d));
	assert_int_equal(devctl(e, saved, strlen(saved), 1), 0);
	assert_string_equal(commands(e), commands(d));
	/* a fault is counted and records nothing */
	assert_int_equal(ctl(d, "trace a pred /1 / arg0 == 0/"), 0);
	assert_int_equal(ctl(d, "testtracein 1000 0 0 0 0"), 0);
	assert_int_equal(counter(d, "#predfaults "), 1);
	assert_int_equal(counter(d, "#hits "), 1);
	/* refused: nothing changes, the reason points at the column */
	strcpy(saved, commands(d));
	assert_int_equal(ctl(d, "trace a pred /arg0 > nosuch/"), Einval);
	assert_string_equal(commands(d), saved);
	assert_non_null(strstr(state(d), "#error trace: "));
	assert_non_null(strstr(state(d), "#error   arg0 > nosuch\n#error          ^\n"));
	assert_int_equal(ctl(d, "trace a pred arg0 > 1"), Einval);
	assert_string_equal(deverr(d), "trace: predicate must be /expression/");
	assert_int_equal(ctl(d, "trace nosuch pred /1/"), Enoent);
	/* removed */
	assert_int_equal(ctl(d, "trace a pred"), 0);
	assert_null(strstr(commands(d), "pred"));
	assert_int_equal(ctl(d, "testtracein 1000 0 0 0 0"), 0);
	assert_int_equal(counter(d, "#hits "), 2);
	free(d);
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_state),
		cmocka_unit_test(test_paper_session),
		cmocka_unit_test(test_trace_on_off_remove),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_watch_filters_records),
		cmocka_unit_test(test_comments_and_multiline),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_long_lines_and_garbage),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_table_limits),
		cmocka_unit_test(test_predicate),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
