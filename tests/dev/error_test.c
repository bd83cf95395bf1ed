/*
 * error_test.c: every error of dev/error.h's table.  For each, what
 * provokes it, and that the refusal carries exactly the table's errno
 * and text (after the command's name); the texts are unique, so a text
 * says which error it was.  Each case runs on a fresh device holding
 * one trace, "old", on 1000-2000.
 */
#include "tests/dev/util.h"
#include "dev/error.h"

/* the host's signatures for the control lines (fn*: x a word, d one no record word holds), for predicates by name */
static const char sigtext[] = "fn void x:s64:1 d:other:0\n";
static Devsigs sigs = { sigtext, sizeof sigtext - 1, NULL };

enum {
	Viactl = 1,	/* a control write */
	Viareader,	/* opening the trace file once too often */
	Viacompiler,	/* only predcompile: no control line is long enough */
	Vianone,	/* a compiler bug: nothing provokes it */
	Viascribble,	/* a control write after another process scribbled a count in the block */
	Viahost,	/* a control write to a device whose host refuses policy block (devhostrules: the kernel's) */
	Viasess,	/* a block with one session's room: line says what to do (sess(), below) */
	Viasyms,	/* a write with the host's functions (Devsyms), whose texts the host gives: ctl_test checks them */
};

static const struct {
	int via;
	int no;			/* the errno users see (EINVAL 22, E2BIG 7, EEXIST 17, ENOENT 2, ENOSPC 28, EIO 5, EACCES 13) */
	const char *cmd;	/* the name before the text, or nil */
	const char *line;	/* what provokes it; a %d line is written n times first */
	const char *fill;
	int n;
	const char *tail;	/* after the table's text: the range the command says (errbound) */
} cases[Nerror] = {
	[Errempty] = { Viactl, Einval, 0, "" },
	[Errlinelong] = { Viactl, E2big, 0, "LONGLINE" },
	[Errbadchar] = { Viactl, Einval, 0, "start\001" },
	[Errunknown] = { Viactl, Einval, "bogus", "bogus" },
	[Errnargs] = { Viactl, Einval, "start", "start now" },
	[Errnotrace] = { Viactl, Einval, "trace", "trace nosuch on" },	/* never ENOENT: a shell prints "No such file or directory" */
	[Errtracecmd] = { Viactl, Einval, "trace", "trace old bogus" },
	[Erraddr] = { Viactl, Einval, "trace", "trace g00 3000 new x" },
	[Errname] = { Viactl, Einval, "trace", "trace 3000 4000 new 9x" },
	[Errexists] = { Viactl, Eexist, "trace", "trace 3000 4000 new old" },
	[Errrange] = { Viactl, Einval, "trace", "trace 3000 2000 new x" },
	[Errglob] = { Viactl, Einval, "trace",	/* EINVAL, not E2BIG: it always was */
		"trace aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa* new x" },
	[Errglobquote] = { Viactl, Einval, "trace", "trace \'\'x\'\' new x" },
	[Erroverlap] = { Viactl, Eexist, "trace", "trace 1800 1900 new x" },
	[Errdenied] = { Viasyms, Eperm },
	[Errnosite] = { Viasyms, Einval },
	[Errntrace] = { Viactl, Enospc, "trace", "trace 9990000 9990001 new last",
		"trace %d0000 %d0001 new t%d", Ntrace - 1 },
	[Errpredform] = { Viactl, Einval, "trace", "trace old pred arg0" },
	[Errpredlong] = { Viactl, E2big, "trace", "LONGPRED" },
	[Erractform] = { Viactl, Einval, "trace", "trace old trigger now" },
	[Errafter] = { Viactl, Einval, "trace", "trace old trigger stop after 1000000001", .tail = " (0 to 1000000000)" },
	[Erractfull] = { Viactl, Enospc, "trace", "trace old discard",
		"trace %1$d0000 %1$d0001 new t%1$d\ntrace t%1$d speculate", Nact },
	[Errsize] = { Viactl, Einval, "size", "size x" },
	[Errsizerange] = { Viactl, Einval, "size", "size 99", .tail = " (4 to 16)" },	/* newdev(16): its logmax */
	[Errarg] = { Viactl, Einval, "testtracein", "testtracein 1000 1 2 3 q" },
	[Errpid] = { Viactl, Einval, "watch", "watch -1" },
	[Errnwatch] = { Viactl, Enospc, "watch", "watch 99", "watch %d", Nwatch },
	[Errnreader] = { Viareader, Enospc, "open trace" },
	[Errnsess] = { Viasess, Enospc, "clone", "clone twice" },
	[Errnosess] = { Viasess, Enoent, "open session", "open a free session" },
	[Errsessown] = { Viasess, Eacces, "open session", "open another user's" },
	[Errpolicy] = { Viactl, Einval, "policy", "policy lossy" },
	[Errwaitms] = { Viactl, Einval, "policy", "policy block 60001" },
	[Errnowait] = { Viactl, Einval, "policy", "policy fill 100" },
	[Errblockhere] = { Viahost, Einval, "policy", "policy block" },
	[Erraggform] = { Viactl, Einval, "agg", "agg old entry count()" },
	[Erraggname] = { Viactl, Einval, "agg", "agg old entry @9x = count()" },
	[Erraggexists] = { Viactl, Eexist, "agg", "agg old exit @dup = count()", "agg old entry @dup = count()", 1 },
	[Errnoagg] = { Viactl, Einval, "agg", "agg @nosuch clear" },
	[Errnagg] = { Viactl, Enospc, "agg", "agg old entry @last = count()", "agg old entry @a%d = count()", Nagg },
	[Erraggfunc] = { Viactl, Einval, "agg", "agg old entry @a = median(arg0)" },
	[Erraggargs] = { Viactl, Einval, "agg", "agg old entry @a = sum()" },
	[Errkeys] = { Viactl, Einval, "agg", "agg old entry @a[execname, execname, pid] = count()" },
	[Errkey] = { Viactl, Einval, "agg", "agg old entry @a[pid, ] = count()" },
	[Errlquant] = { Viactl, Einval, "agg", "agg old entry @a = lquantize(arg0, 0, 100, 30)" },
	[Errrecmode] = { Viactl, Einval, "agg", "agg old records maybe" },
	[Erragglong] = { Viactl, E2big, "agg", "LONGAGG" },
	[Errcorrupt] = { Viascribble, 5 /* EIO */, "watch", "watch 99" },
	[Errexprlong] = { Viacompiler, E2big },
	[Errnumlarge] = { Viactl, Einval, "trace", "trace old pred /99999999999999999999999/" },
	[Errnumber] = { Viactl, Einval, "trace", "trace old pred /0x/" },
	[Errcharconst] = { Viactl, Einval, "trace", "trace old pred /'ab' == 1/" },
	[Errunterm] = { Viactl, Einval, "trace", "trace old pred /execname == \"abc/" },
	[Errstrnul] = { Viactl, Einval, "trace", "trace old pred /execname == \"\\0\"/" },
	[Errstring] = { Viactl, Einval, "trace", "trace old pred /execname == \"\\q\"/" },
	[Errstrlong] = { Viactl, E2big, "trace",
		"trace old pred /execname == \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"/" },
	[Errchar] = { Viactl, Einval, "trace", "trace old pred /arg0 @ 1/" },
	[Errproglong] = { Viactl, E2big, "trace", "LONGPROG" },
	[Errdeep] = { Viactl, E2big, "trace", "trace old pred /((((((((((((((((((1))))))))))))))))))/" },
	[Errstrnum] = { Viactl, Einval, "trace", "trace old pred /execname + 1/" },
	[Errvar] = { Viactl, Einval, "trace", "trace old pred /arg9 > 3/" },
	[Errargname] = { Viactl, Einval, "trace", "trace named pred /count > 3/", "trace fn* new named", 1 },
	[Errargword] = { Viactl, Einval, "trace", "trace named pred /d > 3/", "trace fn* new named", 1 },
	[Errexpr] = { Viactl, Einval, "trace", "trace old pred /arg0 > /" },
	[Errrparen] = { Viactl, Einval, "trace", "trace old pred /(arg0/" },
	[Errstrcmp] = { Viactl, Einval, "trace", "trace old pred /execname == 1/" },
	[Errexeccmp] = { Viactl, Einval, "trace", "trace old pred /execname == execname/" },
	[Errcolon] = { Viactl, Einval, "trace", "trace old pred /arg0 ? 1 2/" },
	[Errunbal] = { Viactl, Einval, "trace", "trace old pred /arg0)/" },
	[Erroperator] = { Viactl, Einval, "trace", "trace old pred /arg0 arg1/" },
	[Errbadprog] = { Vianone },
	[Errbadterms] = { Vianone },
};

/* the long lines, made here rather than typed */
static const char *
line(const char *l, char *buf, size_t n)
{
	size_t i;

	if (strcmp(l, "LONGLINE") == 0) {	/* one byte over Linemax */
		memset(buf, 'x', Linemax + 1);
		buf[Linemax + 1] = 0;
	} else if (strcmp(l, "LONGPRED") == 0) {	/* a source of Predmax bytes */
		snprintf(buf, n, "trace old pred /%0*d/", Predmax, 1);
	} else if (strcmp(l, "LONGAGG") == 0) {	/* a definition of Aggsrcmax bytes in a line shorter than Linemax */
		snprintf(buf, n, "agg old entry @a = sum(1%*s+1)", Aggsrcmax - 10, "");
	} else if (strcmp(l, "LONGPROG") == 0) {	/* 201 instructions, Progmax is 128 */
		strcpy(buf, "trace old pred /arg0");
		for (i = 0; i < 100; i++)
			strcat(buf, "+arg0");
		strcat(buf, "/");
	} else
		return l;
	assert_true(strlen(buf) < n);
	return buf;
}

/* a session's refusals: the block holds one session (dev/sess.c); its errno */
static int
sess(Dev *d, const char *what)
{
	if (strcmp(what, "clone twice") == 0) {
		assert_int_equal(devclone(d, 1000, 500), 1);
		return -devclone(d, 1000, 500);
	}
	if (strcmp(what, "open another user's") == 0)
		assert_int_equal(devclone(d, 1000, 500), 1);
	return devsessopen(d, 1, 1001, 0);
}

/* the first line of s */
static const char *
first(const char *s)
{
	static char buf[Errmax];
	size_t n = strcspn(s, "\n");

	assert_true(n < sizeof buf);
	memcpy(buf, s, n);
	buf[n] = 0;
	return buf;
}

/* err provoked, its errno returned: the text is the table's, after the command's name */
static void
check(int err, int no, const char *cmd, const char *got)
{
	char want[Errmax];

	snprintf(want, sizeof want, "%s%s%s%s", cmd ? cmd : "", cmd ? ": " : "", errtext(err), cases[err].tail ? cases[err].tail : "");
	assert_int_equal(no, cases[err].no);
	assert_int_equal(no, errnum(err));
	assert_string_equal(first(got), want);
}

static void
test_every_error(void **unused)
{
	char buf[2 * Linemax], fill[64];
	const char *l;
	Dev *d;
	int e, i, no;

	(void)unused;
	for (e = Errnone + 1; e < Nerror; e++) {
		print_message("error %d: %s\n", e, errtext(e));
		assert_int_not_equal(cases[e].via, 0);	/* a new error needs a case here */
		if (cases[e].via != Viactl && cases[e].via != Viareader && cases[e].via != Viascribble && cases[e].via != Viahost &&
		    cases[e].via != Viasess)
			continue;
		d = cases[e].via == Viasess ? newsessdev(16, 1) : newdev(16);
		assert_int_equal(ctl(d, "trace 1000 2000 new old"), 0);
		for (i = 1; i <= cases[e].n; i++) {
			snprintf(fill, sizeof fill, cases[e].fill, i, i, i);
			assert_int_equal(ctl(d, fill), 0);
		}
		if (cases[e].via == Viascribble)
			d->nwatch = 0xffffffff;
		if (cases[e].via == Viahost)
			devhostrules(d, Rulenoblock, 0);
		if (cases[e].via == Viasess)
			no = sess(d, cases[e].line);
		else if (cases[e].via == Viareader) {
			for (i = 1; i <= Nreader; i++)
				assert_int_equal(devreader(d, 100 + i, 1), 0);
			no = devreader(d, 200, 1);
		} else {
			l = line(cases[e].line, buf, sizeof buf);
			no = devctlsigs(d, l, strlen(l), 42, &sigs);
		}
		check(e, no, cases[e].cmd, deverr(d));
		free(d);
	}
}

/* no control line reaches the compiler's own limit on a source's length */
static void
test_expression_too_long(void **unused)
{
	static char src[1 << 17];
	char err[256];
	Prog p;

	(void)unused;
	assert_true(Predmax < Linemax);	/* a pred line is cut by Linemax, its source by Predmax */
	memset(src, '1', sizeof src - 1);
	assert_int_equal(predcompile(src, &p, err, sizeof err), Errexprlong);
	check(Errexprlong, errnum(Errexprlong), 0, err);
}

/* only the compiler's own checks of its output are out of reach */
static void
test_unreachable(void **unused)
{
	int e, n = 0;

	(void)unused;
	for (e = Errnone + 1; e < Nerror; e++)
		if (cases[e].via == Vianone) {
			assert_true(e == Errbadprog || e == Errbadterms);
			assert_memory_equal(errtext(e), "internal error: ", 16);
			n++;
		}
	assert_int_equal(n, 2);
}

static void
test_texts_unique(void **unused)
{
	int i, j;

	(void)unused;
	assert_int_equal(errnum(Errnone), 0);
	assert_string_equal(errtext(Errnone), "");
	for (i = Errnone + 1; i < Nerror; i++) {
		assert_true(strlen(errtext(i)) > 0);
		assert_null(strchr(errtext(i), '\n'));
		for (j = i + 1; j < Nerror; j++)
			if (strcmp(errtext(i), errtext(j)) == 0)
				fail_msg("errors %d and %d share the text \"%s\"", i, j, errtext(i));
	}
}

/* a number a fixed text names is the constant's: they cannot drift apart */
static void
test_limits_in_texts(void **unused)
{
	static const struct {
		int err;
		const char *fmt;
		int v;
	} lim[] = {
		{ Errname, "%d at most)", Namelen - 1 },
		{ Erraggname, "%d at most)", Namelen - 1 },
		{ Errwaitms, "(1 to %d ms)", Waitmax },
		{ Errkeys, "(%d words;", Nkeyw },
		{ Errlquant, "into %d buckets", Lqmax },
	};
	char want[64];
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		snprintf(want, sizeof want, lim[i].fmt, lim[i].v);
		if (strstr(errtext(lim[i].err), want) == NULL)
			fail_msg("\"%s\" does not say \"%s\"", errtext(lim[i].err), want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_error),
		cmocka_unit_test(test_expression_too_long),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_texts_unique),
		cmocka_unit_test(test_limits_in_texts),
	};

	sigs.work = malloc(devsigswork());
	return cmocka_run_group_tests(tests, 0, 0);
}
