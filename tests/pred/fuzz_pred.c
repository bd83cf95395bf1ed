/*
 * fuzz_pred: libFuzzer over the predicate compiler, validator and
 * machine, built with clang's address and undefined-behaviour
 * sanitizers straight from dev/pred/pred.c and dev/pred/predvm.c.  An input is
 *	text			an expression: compile it; what compiles must
 *				validate and run to 1, 0 or -1, and give the
 *				answers its stack code gives where it became a
 *				term table; what does not compile leaves a
 *				NUL-terminated message and no program;
 *	\1 bytes		a Prog, raw: whatever predvalid accepts must
 *				run without a sanitizer's complaint;
 *	\2 text \0 triples	an expression compiled, then triples (offset
 *				low and high byte, value) written over its
 *				Prog, then as \1.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dev/pred/pred.h"
#include "dev/error.h"
#include "tests/pred/fixture.h"

extern const char *testexecname;

static const Hit hits[] = {
	{Fpc, Fticks, {Farg0, Farg1, Farg2, Farg3}, Ftid, Fpid, Fdepth, 0},
	{Fpc, Fticks, {Farg0, 0, 0, 0}, Ftid, Fpid, Fdepth, 1},
	{0, 0, {0, 0, 0, 0}, 0, 0, 0, 0},
	{~0ull, ~0ull, {~0ull, 1ull << 63, (1ull << 63) - 1, 64}, ~0u, ~0u, ~0u, 0},
};

static const char *const names[] = {Fexecname, NULL, "", "ssh", "sshdd", "abcdefghijklmno"};

#define check(x)	do { if (!(x)) __builtin_trap(); } while (0)
#define nelem(a)	(sizeof(a) / sizeof((a)[0]))

/* every hit with every name; with q, the answers must be q's too */
static void
runall(const Prog *p, const Prog *q)
{
	size_t i, j;
	int r;

	predvars(p);
	for (i = 0; i < nelem(hits); i++)
		for (j = 0; j < nelem(names); j++) {
			testexecname = names[j];
			r = predeval(p, &hits[i]);
			check(r == 1 || r == 0 || r == -1);
			if (q != NULL)
				check(predeval(q, &hits[i]) == r);
		}
	testexecname = Fexecname;
}

static void
text(const uint8_t *data, size_t n)
{
	static const size_t nerrs[] = {0, 1, 2, 17, 64, 128, Errmax};
	char src[Predmax + 64], err[Errmax + 1];
	size_t nerr;
	Prog p, q;
	int r;

	if (n >= sizeof src)
		n = sizeof src - 1;
	memcpy(src, data, n);
	src[n] = 0;
	nerr = nerrs[n % (sizeof nerrs / sizeof nerrs[0])];
	memset(err, 'x', sizeof err);
	r = predcompile(src, &p, nerr ? err : NULL, nerr);
	if (nerr > 0)
		check(memchr(err, 0, nerr) != NULL);	/* terminated inside the buffer */
	check(err[nerr] == 'x');	/* and nothing written past it */
	if (r != 0) {
		check(r > 0 && r < Nerror && (errnum(r) == Einval || errnum(r) == E2big));	/* a named error */
		check(nerr < 2 || err[0] != 0);
		check(p.ninst == 0 && predvalid(&p) == 0);
		return;
	}
	check(predvalid(&p) == 1);
	if ((p.inst[0] & 0xff) == Oterms) {	/* the same answers as its stack code */
		check(predcompilestack(src, &q, NULL, 0) == 0 && predvalid(&q) == 1);
		check(q.inst[0] != Oterms && predvars(&q) == predvars(&p));
		runall(&p, &q);
	} else
		runall(&p, NULL);
}

static void
raw(Prog *p)
{
	if (predvalid(p))
		runall(p, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *z;
	uint8_t *b;
	Prog p;
	size_t i, k;

	if (n > 0 && data[0] == 1) {
		memset(&p, 0, sizeof p);
		memcpy(&p, data + 1, n - 1 < sizeof p ? n - 1 : sizeof p);
		raw(&p);
	} else if (n > 0 && data[0] == 2) {
		z = memchr(data + 1, 0, n - 1);
		k = z ? (size_t)(z - data - 1) : n - 1;
		if (k >= Predmax)
			return 0;
		{
			char src[Predmax];

			memcpy(src, data + 1, k);
			src[k] = 0;
			if (predcompile(src, &p, NULL, 0) != 0)
				return 0;
		}
		b = (uint8_t *)&p;
		for (i = k + 2; i + 2 < n; i += 3)
			b[(data[i] | data[i + 1] << 8) % sizeof p] = data[i + 2];
		raw(&p);
	} else
		text(data, n);
	return 0;
}
