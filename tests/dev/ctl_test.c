/* ctl_test.c: the control language: every command, every refusal, the state round trip. */
#include "tests/dev/util.h"

static const char fresh[] =
	"logsize 65536\n"
	"policy ring\n"
	"watch 0\n"
	"stop\n"
	"#hits 0\n"
	"#read 0\n"
	"#queued 0\n"
	"#lost 0\n"
	"#dropped 0\n"
	"#filtered 0\n"
	"#reentered 0\n"
	"#deep 0\n"
	"#predfaults 0\n"
	"#badprogs 0\n"
	"#corrupt 0\n"
	"#ringless 0\n"
	"#hz 1000000\n"
	"#clock 0 0\n";

static void
test_fresh_state(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_string_equal(state(d), fresh);
	free(d);
}

/* #clock: the host's ticks and real time, as it read them at this read, and a replay takes the line as a comment */
static void
test_clock_line(void **unused)
{
	Dev *d = newdev(16);
	const char *s;

	(void)unused;
	testclockticks = 123456789012345ull;
	testclockns = 1764034567123456789ull;
	s = state(d);
	testclockticks = testclockns = 0;
	assert_non_null(strstr(s, "\n#hz 1000000\n#clock 123456789012345 1764034567123456789\n"));
	assert_int_equal(ctl(d, s), 0);
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
		"logsize 65536\n"
		"policy ring\n"
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
		"logsize 65536\n"
		"policy ring\n"
		"trace 0000000000001000 0000000000002000 new a\n"
		"trace a on\n"
		"trace x* new b\n"
		"watch 0\n"
		"stop\n");
	assert_int_equal(ctl(d, "trace a remove"), 0);
	assert_int_equal(ctl(d, "trace a on"), Einval);
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

/* watch PID tree: PID and its descendants (what the host says of them), in the state as written */
static void
test_watch_tree(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	testchild = 30, testparent = 20;
	assert_int_equal(ctl(d, "watch 20 tree\nwatch 9"), 0);
	assert_non_null(strstr(state(d), "watch 0\nwatch 20 tree\nwatch 9\n"));
	assert_true(devwatched(d, 20, 20));	/* the pid itself */
	assert_true(devwatched(d, 30, 31));	/* a descendant, any of its threads */
	assert_false(devwatched(d, 40, 41));
	assert_int_equal(ctl(d, "watch 0\nwatch 20\nwatch 9 tree"), 0);
	assert_false(devwatched(d, 30, 31));	/* a plain watch: the pid alone */
	assert_int_equal(ctl(d, "watch 20 tree\nwatch 20"), 0);	/* tree widens it; a plain watch after leaves it wide */
	assert_non_null(strstr(state(d), "watch 0\nwatch 20 tree\nwatch 9 tree\n"));
	assert_true(devwatched(d, 30, 31));
	assert_int_equal(devreader(d, 30, 1), 0);
	assert_false(devwatched(d, 30, 31));	/* the reader rule first */
	testchild = testparent = 0;
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

/* blank lines are no-ops, as # lines are: in one write, across writes, at close (issue 22) */
static void
test_blank_lines(void **unused)
{
	Dev *d = newdev(16);
	Ctlfile f = { 0 };

	(void)unused;
	assert_int_equal(ctl(d, "trace a new x\n\ntrace x on\n"), 0);
	assert_non_null(strstr(commands(d), "trace a new x\ntrace x on\n"));
	assert_int_equal(ctl(d, "\n"), 0);
	assert_int_equal(ctl(d, "   "), 0);
	assert_int_equal(ctl(d, " \t\n\nstart\n\n"), 0);
	assert_non_null(strstr(commands(d), "start\n"));
	assert_int_equal(ctl(d, "stop\n\t\nwatch 7"), 0);
	assert_non_null(strstr(commands(d), "watch 7\nstop\n"));
	assert_string_equal(deverr(d), "");
	/* split across the writes of one open file */
	assert_int_equal(devctlwrite(d, &f, "trace b new y\n", 14, 1), 0);
	assert_int_equal(devctlwrite(d, &f, "\n", 1, 1), 0);
	assert_int_equal(devctlwrite(d, &f, "  \n", 3, 1), 0);
	assert_int_equal(devctlwrite(d, &f, "trace y on\n", 11, 1), 0);
	assert_int_equal(devctlclose(d, &f), 0);
	assert_non_null(strstr(commands(d), "trace b new y\ntrace y on\n"));
	free(d);
}

/* the kernel's rules, through devhostrules and devtraceoff: no block, _text+ offsets, a trace turned off */
static void
test_host_rules(void **unused)
{
	Dev *d = newdev(16), *plain = newdev(16);
	Ctlfile f = { 0 };

	(void)unused;
	/* a device whose host set no rules takes block and refuses _text+ */
	assert_int_equal(ctl(plain, "policy block"), 0);
	assert_int_equal(ctl(plain, "trace _text+10 _text+20 new t"), Einval);
	assert_string_equal(deverr(plain), "trace: bad address");
	devhostrules(d, Rulenoblock | Ruletext, 0x1000);
	assert_int_equal(ctl(d, "policy block"), Einval);
	assert_string_equal(deverr(d), "policy: block would make a probe wait where it may not: ring or fill in the kernel");
	assert_int_equal(ctl(d, "policy block 10"), Einval);
	assert_int_equal(ctl(d, "policy fill"), 0);
	assert_non_null(strstr(commands(d), "policy fill\n"));
	/* split across writes, refused when its line ends */
	assert_int_equal(devctlwrite(d, &f, "policy bl", 9, 1), 0);
	assert_int_equal(devctlwrite(d, &f, "ock\n", 4, 1), Einval);
	assert_int_equal(devctlclose(d, &f), 0);
	assert_non_null(strstr(commands(d), "policy fill\n"));
	/* _text+HEX is an address textbase + HEX, wherever an address goes */
	assert_int_equal(ctl(d, "trace _text+10 _text+0x20 new t\nquery _text+18"), 0);
	assert_non_null(strstr(commands(d), "trace 0000000000001010 0000000000001020 new t\n"));
	assert_non_null(strstr(state(d), "#query 0000000000001018 t\n"));
	assert_int_equal(ctl(d, "trace _text+ _text+30 new u"), Einval);
	assert_string_equal(deverr(d), "trace: bad address");
	assert_int_equal(ctl(d, "trace _text+zz 3000 new u"), Einval);
	/* a trace whose hooks the host failed to set: turned off, kept with its aggregations */
	assert_int_equal(ctl(d, "trace t on\nagg t entry @n = count()"), 0);
	assert_int_equal(devtraceoff(d, 0, Einval, ": no exit probe"), Einval);
	assert_string_equal(deverr(d), "trace: t: no exit probe");
	assert_null(strstr(commands(d), "trace t on\n"));
	assert_non_null(strstr(commands(d), "trace 0000000000001010 0000000000001020 new t\n"));
	assert_non_null(strstr(commands(d), "agg t entry"));
	assert_int_equal(devtraceoff(d, 1, Einval, "gone"), Einval);	/* none there: nothing changes */
	assert_string_equal(deverr(d), "trace: t: no exit probe");
	assert_int_equal(counter(d, "#corrupt "), 0);
	free(d);
	free(plain);
}

/* the host's functions (Devsyms, the kernel's), handed in with a write: trace ... new refuses in the same call */
static const char *const symwhy[] = { "own code", "the tracer's machinery" };
static const Devsym symtab[] = {
	{ 0x1000, "a_ok", "vmlinux", Symok },
	{ 0x1010, "a_nosite", "vmlinux", Symnosite },
	{ 0x1020, "b_denied", "vmlinux", Symdenied + 1 },
	{ 0x1030, "c_ok", "vmlinux", Symok },
	{ 0x1040, "d_nosite", "vmlinux", Symnosite },
	{ 0x1050, "e_denied", "devtrace", Symdenied + 0 },
};
static const Devsyms syms = { symtab, 6, symwhy, 2, "selects no function ftrace can patch (notrace, inlined, or not a function's entry)" };

/* one line written with the host's functions: its errno */
static int
symctl(Dev *d, const char *line)
{
	Ctlfile f = { 0 };

	f.syms = &syms;
	return devctlwrite(d, &f, line, strlen(line), 1);
}

static void
test_host_syms(void **unused)
{
	Dev *d = newdev(16);

	(void)unused;
	assert_int_equal(symctl(d, "trace a_* new a\n"), 0);
	assert_non_null(strstr(commands(d), "trace a_* new a\n"));
	/* a denied function: EPERM, its name and the host's reason, the trace never made */
	assert_int_equal(symctl(d, "trace b_* new b\n"), Eperm);
	assert_string_equal(deverr(d), "trace: b selects b_denied: the tracer's machinery, never traced");
	assert_null(strstr(commands(d), "new b\n"));
	assert_int_equal(symctl(d, "trace e_denied new e\n"), Eperm);
	assert_string_equal(deverr(d), "trace: e selects e_denied: own code, never traced");
	/* the first denied by address, though a traceable one is selected too */
	assert_int_equal(symctl(d, "trace *_* new all\n"), Eperm);
	assert_string_equal(deverr(d), "trace: all selects b_denied: the tracer's machinery, never traced");
	/* none patchable, or none at all: EINVAL */
	assert_int_equal(symctl(d, "trace d_* new d\n"), Einval);
	assert_string_equal(deverr(d), "trace: d selects no function ftrace can patch (notrace, inlined, or not a function's entry)");
	assert_int_equal(symctl(d, "trace nosuch new z\n"), Einval);
	assert_string_equal(deverr(d), "trace: z selects no function ftrace can patch (notrace, inlined, or not a function's entry)");
	/* a function an older trace selects is that trace's: a_ok is a's */
	assert_int_equal(symctl(d, "trace a_ok new a2\n"), Einval);
	assert_string_equal(deverr(d), "trace: a2 selects no function ftrace can patch (notrace, inlined, or not a function's entry)");
	/* ranges, by address */
	assert_int_equal(symctl(d, "trace 1000 1020 new r\n"), Einval);
	assert_int_equal(symctl(d, "trace 1020 1040 new r\n"), Eperm);
	assert_string_equal(deverr(d), "trace: r selects b_denied: the tracer's machinery, never traced");
	assert_int_equal(symctl(d, "trace 1030 1040 new r\n"), 0);
	assert_non_null(strstr(commands(d), "trace 0000000000001030 0000000000001040 new r\n"));
	/* a write without them (user space's) takes any selection */
	assert_int_equal(ctl(d, "trace b_* new b"), 0);
	assert_int_equal(counter(d, "#corrupt "), 0);
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
	{ "bogus", Einval, "bogus: unknown command" },
	{ "start now", Einval, "start: wrong number of arguments" },
	{ "stop 1", Einval, "stop: wrong number of arguments" },
	{ "size", Einval, "size: wrong number of arguments" },
	{ "size 4 5", Einval, "size: wrong number of arguments" },
	{ "size x", Einval, "size: bad size" },
	{ "size 99", Einval, "size: size out of range (4 to 16)" },	/* newdev(16): the range its logmax allows */
	{ "size 3", Einval, "size: size out of range (4 to 16)" },
	{ "size 21", Einval, "size: size out of range (4 to 16)" },
	{ "logsize 8", Einval, "logsize: size out of range (16 to 65536)" },	/* logsize's in records */
	{ "logsize 131072", Einval, "logsize: size out of range (16 to 65536)" },
	{ "logsize 100", Einval, "logsize: bad size" },
	{ "trace", Einval, "trace: wrong number of arguments" },
	{ "trace a", Einval, "trace: wrong number of arguments" },
	{ "trace nosuch on", Einval, "trace: no such trace" },	/* not ENOENT: a shell would print "No such file or directory" */
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
	{ "trace 3000 4000 new abcdefghijklmnop", Einval, "trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)" },
	{ "trace 3000 4000 new abcdefghijklmnopqrst", Einval, "trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)" },
	{ "trace 3000 4000 new 9x", Einval, "trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)" },
	{ "trace 3000 4000 new a/b", Einval, "trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)" },
	{ "trace old trigger stop after 1000000001", Einval, "trace: after N out of range (0 to 1000000000)" },
	{ "trace old trigger stop after 99999999999999", Einval, "trace: after N out of range (0 to 1000000000)" },
	{ "trace old trigger stop after 99999999999999999999999", Einval, "trace: after N out of range (0 to 1000000000)" },	/* past 2^64 */
	{ "trace old trigger stop after -1", Einval, "trace: expected trace NAME trigger stop [after N] [/pred/], trigger start [/pred/], speculate|commit|discard [/pred/], or actions clear" },
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
	{ "watch 2147483648", Einval, "watch: bad pid" },
	{ "watch 0 tree", Einval, "watch: bad pid" },
	{ "watch 12 trees", Einval, "watch: bad argument" },
	{ "watch 12 tree x", Einval, "watch: wrong number of arguments" },
	{ "start\001", Einval, "bad character in command" },
	{ "trace \377\376 new x", Einval, "bad character in command" },
	{ "sta\0rt", Einval, "bad character in command" },
	{ "stop\r\n", Einval, "bad character in command" },
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
	assert_non_null(strstr(state(d), "#error bad character in command\n"));
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
	assert_same(commands, e, d);
	/* and once more: the replayed state replays to itself */
	strcpy(saved, state(e));
	free(e);
	e = newdev(16);
	assert_int_equal(devctl(e, saved, strlen(saved), 1), 0);
	assert_same(commands, e, d);
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
	assert_same(commands, e, d);
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
	assert_int_equal(ctl(d, "trace nosuch pred /1/"), Einval);
	/* removed */
	assert_int_equal(ctl(d, "trace a pred"), 0);
	assert_null(strstr(commands(d), "pred"));
	assert_int_equal(ctl(d, "testtracein 1000 0 0 0 0"), 0);
	assert_int_equal(counter(d, "#hits "), 2);
	free(d);
	free(e);
}

/*
 * Lines split across writes: a host passes each write of an open file
 * with the file's Ctlfile; a line runs whole when its newline comes.
 */
static const char script[] =
	"size 10\n"
	"trace 401000 402000 new main\n"
	"trace 'rtc*' new rtc\n"
	"trace rtc on\n"
	"trace main pred /arg0 > 5 && arg1 != 'x'/\n"
	"trace main on\n"
	"watch 123456789\n"
	"watch 8\n"
	"# a comment\n"
	"start\n"
	"testtracein 401000 6 2 3 4\n"
	"testtracein 401000 1 2 3 4\n"
	"query 401500\n";

/* text as writes of the given sizes (the last takes the rest), then close: the state */
static char *
written(const char *text, size_t len, const size_t *cut, int ncut)
{
	static char out[Statemax];
	Dev *d = newdev(16);
	Ctlfile f = { 0 };
	size_t at = 0, k;
	int i;

	for (i = 0; i <= ncut && at < len; i++) {
		k = i < ncut && cut[i] < len - at ? cut[i] : len - at;
		assert_int_equal(devctlwrite(d, &f, text + at, k, 42), 0);
		at += k;
	}
	assert_int_equal(devctlclose(d, &f), 0);
	strcpy(out, state(d));
	free(d);
	return out;
}

static void
test_split_everywhere(void **unused)
{
	Dev *d = newdev(16);
	char whole[Statemax], text[sizeof script];
	size_t len = strlen(script), k, cut[sizeof script];
	int pass;

	(void)unused;
	assert_int_equal(ctl(d, script), 0);
	strcpy(whole, state(d));
	assert_non_null(strstr(whole, "watch 123456789\n"));
	assert_null(strstr(whole, "#error"));
	/* with its last newline, and without: the unfinished last line runs at close */
	for (pass = 0; pass < 2; pass++) {
		memcpy(text, script, len + 1);
		if (pass)
			text[--len] = 0;
		for (k = 1; k < len; k++) {
			print_message("split at %zu of %zu\n", k, len);
			assert_string_equal(written(text, len, &k, 1), whole);
		}
		for (k = 0; k < len; k++)
			cut[k] = 1;
		assert_string_equal(written(text, len, cut, len), whole);
		/* and every cut in three */
		for (k = 0; k + 2 < len; k++) {
			cut[0] = k + 1;
			cut[1] = (len - k) / 2;
			assert_string_equal(written(text, len, cut, 2), whole);
		}
	}
	free(d);
}

/* the case: watch 12, then 3456789, is one watch */
static void
test_split_line(void **unused)
{
	Dev *d = newdev(16);
	Ctlfile f = { 0 };

	(void)unused;
	assert_int_equal(devctlwrite(d, &f, "watch 12", 8, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nstop\n");
	assert_int_equal(devctlwrite(d, &f, "3456789\n", 8, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 123456789\nstop\n");
	assert_string_equal(deverr(d), "");
	assert_int_equal(devctlclose(d, &f), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 123456789\nstop\n");
	free(d);
}

static void
test_long_line_split(void **unused)
{
	Dev *d = newdev(16);
	Ctlfile f = { 0 };
	char a[Linemax + 8], before[Statemax];

	(void)unused;
	memset(a, 'a', sizeof a);
	/* 600 + 600 bytes without a newline: the second write is refused, nothing of the line runs */
	assert_int_equal(devctlwrite(d, &f, "watch 5\n", 8, 42), 0);
	strcpy(before, commands(d));
	assert_int_equal(devctlwrite(d, &f, a, 600, 42), 0);
	assert_int_equal(devctlwrite(d, &f, a, 600, 42), E2big);
	assert_string_equal(deverr(d), "line too long");
	/* the rest of it, to its newline, is dropped too; what follows runs */
	assert_int_equal(devctlwrite(d, &f, a, 300, 42), 0);
	assert_string_equal(deverr(d), "line too long");
	assert_string_equal(commands(d), before);
	assert_int_equal(devctlwrite(d, &f, "aaa\nwatch 6\n", 12, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nwatch 6\nstop\n");
	assert_string_equal(deverr(d), "");
	/* a write that makes a kept line too long and goes on is refused whole: watch 7 does not run */
	assert_int_equal(devctlwrite(d, &f, a, 1000, 42), 0);
	strcpy(before, commands(d));
	assert_int_equal(devctlwrite(d, &f, "aaaaaaaaaaaaaaaaaaaaaaaaa\nwatch 7\n", 34, 42), E2big);
	assert_string_equal(commands(d), before);
	/* the longest line, 1024 bytes, split anywhere, is one line */
	memcpy(a, "watch 9", 7);
	memset(a + 7, ' ', Linemax - 7);
	a[Linemax] = '\n';
	assert_int_equal(devctlwrite(d, &f, a, 500, 42), 0);
	assert_int_equal(devctlwrite(d, &f, a + 500, Linemax + 1 - 500, 42), 0);
	assert_non_null(strstr(commands(d), "watch 9\n"));
	/* an unfinished line that is too long at close runs neither */
	assert_int_equal(devctlwrite(d, &f, a, 1000, 42), 0);
	assert_int_equal(devctlwrite(d, &f, a, 25, 42), E2big);
	assert_int_equal(devctlclose(d, &f), 0);
	assert_int_equal(f.n, 0);
	free(d);
}

static void
test_close(void **unused)
{
	Dev *d = newdev(16);
	Ctlfile f = { 0 };

	(void)unused;
	/* nothing kept: nothing happens */
	assert_int_equal(devctlclose(d, &f), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nstop\n");
	/* an unfinished line runs at close, as echo -n start > tracectl wants */
	assert_int_equal(devctlwrite(d, &f, "watch 5\nsta", 11, 42), 0);
	assert_int_equal(devctlwrite(d, &f, "rt", 2, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nstop\n");
	assert_int_equal(devctlclose(d, &f), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nstart\n");
	assert_int_equal(f.n, 0);
	/* refused at close: the reason is the device's, as for a write */
	assert_int_equal(devctlwrite(d, &f, "bog", 3, 42), 0);
	assert_int_equal(devctlwrite(d, &f, "us", 2, 42), 0);
	assert_int_equal(devctlclose(d, &f), Einval);
	assert_string_equal(deverr(d), "bogus: unknown command");
	/* blanks alone are a blank line, as in one write: a no-op */
	assert_int_equal(devctlwrite(d, &f, "stop\n \t", 7, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nstop\n");
	assert_int_equal(devctlclose(d, &f), 0);
	assert_string_equal(deverr(d), "");
	/* an unfinished testtracein runs as its writer: 77 is watched, 42 (ctl's) is not */
	assert_int_equal(ctl(d, "watch 0\nwatch 77\ntrace 1000 2000 new t\ntrace t on\nstart\ntesttracein 1000 1 2 3 4"), 0);
	assert_int_equal(counter(d, "#filtered "), 1);
	assert_int_equal(devctlwrite(d, &f, "testtracein 1000 1 2 3 4", 24, 77), 0);
	assert_int_equal(counter(d, "#hits "), 0);
	assert_int_equal(devctlclose(d, &f), 0);
	assert_int_equal(counter(d, "#hits "), 1);
	free(d);
}

/* a refused line stops its write, as ever; the rest of a line it left unfinished is dropped */
static void
test_refusal_across_writes(void **unused)
{
	Dev *d = newdev(16);
	Ctlfile f = { 0 };

	(void)unused;
	assert_int_equal(devctlwrite(d, &f, "watch 5\nwat", 11, 42), 0);
	assert_int_equal(devctlwrite(d, &f, "ch 6\nbogus\nwatch 7\nwat", 22, 42), Einval);
	assert_string_equal(deverr(d), "bogus: unknown command");
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nwatch 6\nstop\n");
	assert_int_equal(devctlwrite(d, &f, "ch 8\nwatch 9\n", 13, 42), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nwatch 6\nwatch 9\nstop\n");
	/* a write refused by its check runs none of its lines, nor the line kept before it */
	assert_int_equal(devctlwrite(d, &f, "wat", 3, 42), 0);
	assert_int_equal(devctlwrite(d, &f, "ch 10\nstart\x01\n", 13, 42), Einval);
	assert_string_equal(deverr(d), "bad character in command");
	assert_int_equal(devctlwrite(d, &f, "start\n", 6, 42), 0);
	assert_int_equal(devctlclose(d, &f), 0);
	assert_string_equal(commands(d), "logsize 65536\npolicy ring\nwatch 0\nwatch 5\nwatch 6\nwatch 9\nstart\n");
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_state),
		cmocka_unit_test(test_clock_line),
		cmocka_unit_test(test_paper_session),
		cmocka_unit_test(test_trace_on_off_remove),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_watch_tree),
		cmocka_unit_test(test_watch_filters_records),
		cmocka_unit_test(test_comments_and_multiline),
		cmocka_unit_test(test_blank_lines),
		cmocka_unit_test(test_host_rules),
		cmocka_unit_test(test_host_syms),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_long_lines_and_garbage),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_table_limits),
		cmocka_unit_test(test_predicate),
		cmocka_unit_test(test_split_everywhere),
		cmocka_unit_test(test_split_line),
		cmocka_unit_test(test_long_line_split),
		cmocka_unit_test(test_close),
		cmocka_unit_test(test_refusal_across_writes),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
