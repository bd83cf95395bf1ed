/*
 * predtab: the table test.  Every predicate of table.h (made by gen
 * and truth.hh from cases.txt and random expressions) is compiled,
 * validated and run on the fixture's entry and exit hits; the answers
 * must be what the C++ compiler computed, and so must the values.
 * A predicate that became a term table is run as stack code too.
 * One TAP line each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "dev/pred/pred.h"
#include "tests/pred/fixture.h"

typedef struct Ent Ent;
struct Ent {
	const char *src;
	int entry, exit;	/* the answers: 1, 0, or -1 for a fault */
	uint64_t ventry, vexit;	/* the values, when no fault */
};

static const Ent tab[] = {
#include "table.h"
};

static const Hit hentry = {Fpc, Fticks, {Farg0, Farg1, Farg2, Farg3}, Ftid, Fpid, Fdepth, 0, NULL, 0};
static const Hit hexit = {Fpc, Fticks, {Farg0, 0, 0, 0}, Ftid, Fpid, Fdepth, 1, NULL, 0};

static void
compile(const char *src, Prog *p)
{
	char err[Errmax];
	int r;

	r = predcompile(src, p, err, sizeof err);
	if (r != 0)
		fail_msg("compile: %d: %s", r, err);
	assert_int_equal(predvalid(p), 1);
}

/* predeval tells truth only: (src) == value checks all 64 bits */
static void
value(const char *src, uint64_t v, const Hit *h)
{
	char s[1024];
	Prog p;

	snprintf(s, sizeof s, "(%s) == %llu", src, (unsigned long long)v);
	compile(s, &p);
	if (predeval(&p, h) != 1)
		fail_msg("value is not %#llx", (unsigned long long)v);
}

static void
check(void **state)
{
	const Ent *e = *state;
	Prog p;

	compile(e->src, &p);
	assert_int_equal(predeval(&p, &hentry), e->entry);
	assert_int_equal(predeval(&p, &hexit), e->exit);
	if ((p.inst[0] & 0xff) == Oterms) {	/* and its stack code, run as such */
		assert_int_equal(predcompilestack(e->src, &p, NULL, 0), 0);
		assert_int_not_equal(p.inst[0], Oterms);
		assert_int_equal(predeval(&p, &hentry), e->entry);
		assert_int_equal(predeval(&p, &hexit), e->exit);
	}
	if (e->entry != -1)
		value(e->src, e->ventry, &hentry);
	if (e->exit != -1)
		value(e->src, e->vexit, &hexit);
}

int
main(void)
{
	struct CMUnitTest *t;
	size_t i, n;

	n = sizeof tab / sizeof tab[0];
	t = calloc(n, sizeof t[0]);
	if (t == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		t[i].name = tab[i].src;
		t[i].test_func = check;
		t[i].initial_state = (void *)&tab[i];
	}
	return _cmocka_run_group_tests("predtab", t, n, NULL, NULL);
}
