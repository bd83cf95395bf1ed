/*
 * predtest: the predicate compiler's errors, the validator's refusals,
 * and what a run asks of its host.  The values it computes are the
 * table test's business (predtab).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dev/pred/pred.h"
#include "dev/error.h"
#include "tests/pred/fixture.h"

#define nelem(a)	(sizeof(a) / sizeof((a)[0]))
#define I(op, arg)	((uint64_t)(op) | (uint64_t)(arg) << 8)

extern int nhostcalls;
extern const char *testexecname;

static const Hit hentry = {Fpc, Fticks, {Farg0, Farg1, Farg2, Farg3}, Ftid, Fpid, Fdepth, 0, NULL, 0};

/* compile, or fail the test with the message */
static void
compile(const char *src, Prog *p)
{
	char err[Errmax];
	int r;

	r = predcompile(src, p, err, sizeof err);
	if (r != 0)
		fail_msg("%s: %d: %s", src, r, err);
	assert_int_equal(predvalid(p), 1);
}

static int
run(const char *src)
{
	Prog p;

	compile(src, &p);
	return predeval(&p, &hentry);
}

/* the exact messages: what a user writing tracectl reads; predcompile names the error, errnum gives its errno */
static const struct {
	const char *src;
	int err;
	const char *msg;
} errs[] = {
	{"arg9 > 3", Einval, "unknown variable\n  arg9 > 3\n  ^"},
	{"arg0 > 1 && Pid == 3", Einval, "unknown variable\n  arg0 > 1 && Pid == 3\n              ^"},
	{"execname + 1", Einval, "string used as a number\n  execname + 1\n  ^"},
	{"arg0 + execname", Einval, "string used as a number\n  arg0 + execname\n         ^"},
	{"!execname", Einval, "string used as a number\n  !execname\n   ^"},
	{"execname", Einval, "string used as a number\n  execname\n  ^"},
	{"1 ? \"x\" : 2", Einval, "string used as a number\n  1 ? \"x\" : 2\n      ^"},
	{"execname && 1", Einval, "string used as a number\n  execname && 1\n  ^"},
	{"execname == 3", Einval, "string compared with a number\n  execname == 3\n           ^"},
	{"arg0 != \"sshd\"", Einval, "string compared with a number\n  arg0 != \"sshd\"\n       ^"},
	{"execname == execname", Einval, "compare execname with a string\n  execname == execname\n           ^"},
	{"\"a\" == \"a\"", Einval, "compare execname with a string\n  \"a\" == \"a\"\n      ^"},
	{"arg0 +", Einval, "expression expected\n  arg0 +\n        ^"},
	{"", Einval, "expression expected\n  \n  ^"},
	{"()", Einval, "expression expected\n  ()\n   ^"},
	{"(arg0 > 1", Einval, "')' expected\n  (arg0 > 1\n           ^"},
	{"arg0 > 1)", Einval, "unbalanced ')'\n  arg0 > 1)\n          ^"},
	{"arg0 3", Einval, "operator expected\n  arg0 3\n       ^"},
	{"1 ? 2", Einval, "':' expected\n  1 ? 2\n       ^"},
	{"1 ? 2 ? 3 : 4", Einval, "':' expected\n  1 ? 2 ? 3 : 4\n               ^"},
	{"arg0 = 1", Einval, "bad character\n  arg0 = 1\n       ^"},
	{"arg0 @ 1", Einval, "bad character\n  arg0 @ 1\n       ^"},
	{"arg0 > 08", Einval, "bad number\n  arg0 > 08\n         ^"},
	{"0x", Einval, "bad number\n  0x\n  ^"},
	{"12ab", Einval, "bad number\n  12ab\n  ^"},
	{"1.5", Einval, "bad character\n  1.5\n   ^"},
	{"18446744073709551616", Einval, "number too large\n  18446744073709551616\n  ^"},
	{"0x10000000000000000", Einval, "number too large\n  0x10000000000000000\n  ^"},
	{"'ab' == 1", Einval, "bad character constant\n  'ab' == 1\n  ^"},
	{"'' == 1", Einval, "bad character constant\n  '' == 1\n  ^"},
	{"'\\x100'", Einval, "bad character constant\n  '\\x100'\n  ^"},
	{"'\\q'", Einval, "bad character constant\n  '\\q'\n  ^"},
	{"'a", Einval, "bad character constant\n  'a\n  ^"},
	{"execname == \"abc", Einval, "unterminated string\n  execname == \"abc\n                  ^"},
	{"execname == \"a\\0b\"", Einval, "NUL in string\n  execname == \"a\\0b\"\n                ^"},
	{"execname == \"a\\qb\"", Einval, "bad string\n  execname == \"a\\qb\"\n                ^"},
	{"arg0\t>\tfoo", Einval, "unknown variable\n  arg0\t>\tfoo\n      \t \t^"},
	{"execname == \"0123456789012345678901234567890123456789012345678901234567890123\"", E2big,
	 "strings too long\n  execname == \"0123456789012345678901234567890123456789012345678901234567890123\"\n              ^"},
	{"!!!!!!!!!!!!!!!!!1", E2big, "expression too deep\n  !!!!!!!!!!!!!!!!!1\n                  ^"},
};

static void
compile_errors(void **state)
{
	char err[1024];
	Prog p;
	size_t i;

	(void)state;
	for (i = 0; i < nelem(errs); i++) {
		memset(err, 'x', sizeof err);
		assert_int_equal(errnum(predcompile(errs[i].src, &p, err, sizeof err)), errs[i].err);
		assert_string_equal(err, errs[i].msg);
		assert_int_equal(p.ninst, 0);	/* nothing runnable is left behind */
		assert_int_equal(predvalid(&p), 0);
	}
}

/* the expression's line and the caret's: the caret is under the byte at col */
static void
assert_caret(const char *src, int col, size_t nerr)
{
	char err[2048], *l2, *l3;
	size_t n;
	Prog p;

	assert_true(nerr <= sizeof err);
	assert_int_not_equal(predcompile(src, &p, err, nerr), 0);
	assert_true(strlen(err) < nerr);
	l2 = strchr(err, '\n');
	assert_non_null(l2);
	l2 += 3;
	l3 = strchr(l2, '\n');
	assert_non_null(l3);
	l3 += 3;
	n = strlen(l3);
	assert_int_equal(l3[n - 1], '^');
	assert_int_equal(l2[n - 1], src[col]);
	assert_int_equal(strncmp(l2 + n - 1, src + col, 4), 0);
}

static void
long_source(void **state)
{
	char src[Predmax], err[Errmax];
	Prog p;
	int i;

	(void)state;
	/* 100 terms, then a bad name: the error keeps the end in view */
	src[0] = 0;
	for (i = 0; i < 60; i++)
		strcat(src, "arg0+");
	strcat(src, "nope+arg1");
	assert_caret(src, 300, 128);
	assert_int_equal(errnum(predcompile(src, &p, err, 128)), Einval);
	assert_non_null(strstr(err, "\n  ..."));
	/* a bad name at the start */
	memcpy(src, "nope", 4);
	assert_caret(src, 0, 128);
	assert_caret(src, 0, 60);
	/* in the middle, both ends cut */
	memcpy(src, "arg0", 4);
	memcpy(src + 150, "nope", 4);
	assert_caret(src, 150, 128);
	assert_caret(src, 150, 200);
	assert_caret(src, 150, Errmax);	/* the device's buffer has room for all of it */
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), Einval);
	assert_null(strstr(err, "..."));
	/* exactly, in a small buffer */
	assert_int_equal(errnum(predcompile("arg0 + arg1 + arg2 + arg3 + pid + tid + nope + depth + ppid + uid", &p, err, 64)), Einval);
	assert_string_equal(err, "unknown variable\n  ... tid + nope + ...\n            ^");
	/* too small for any of the source: the message alone */
	assert_int_equal(errnum(predcompile("arg0 + arg1 + arg2 + arg3 + pid + tid + nope + depth + ppid + uid", &p, err, 40)), Einval);
	assert_string_equal(err, "unknown variable");
}

/* names from the signatures: the same program as the argN they name; refusals point at the name */
static void
argnames(void **state)
{
	char err[256];
	Prog byname, byarg;

	(void)state;
	assert_int_equal(predcompileargs("entry && count > 4096 && buf != 0", "buf=1 count=2 pos=?", &byname, err, sizeof err), 0);
	assert_int_equal(predcompile("entry && arg2 > 4096 && arg1 != 0", &byarg, err, sizeof err), 0);
	assert_memory_equal(&byname, &byarg, sizeof byname);
	/* a prefix or an extension of a name is not the name */
	assert_int_equal(predcompileargs("coun > 1", "count=2", &byname, err, sizeof err), Errargname);
	assert_string_equal(err, "not an argument of the trace's functions\n  coun > 1\n  ^");
	assert_int_equal(predcompileargs("counts > 1", "count=2", &byname, err, sizeof err), Errargname);
	assert_int_equal(predcompileargs("1 + pos", "buf=1 count=2 pos=?", &byname, err, sizeof err), Errargword);
	assert_memory_equal(err, "an argument no record word holds", 32);
	assert_non_null(strstr(err, "\n  1 + pos\n      ^"));
	/* the variables keep their meaning; no names: unknown, as ever */
	assert_int_equal(predcompileargs("arg0 == pid", "arg0=3 pid=1", &byname, err, sizeof err), 0);
	assert_int_equal(predcompile("arg0 == pid", &byarg, err, sizeof err), 0);
	assert_memory_equal(&byname, &byarg, sizeof byname);
	assert_int_equal(predcompileargs("count > 1", NULL, &byname, err, sizeof err), Errvar);
}

static void
small_buffers(void **state)
{
	char err[16];
	Prog p;
	size_t n;

	(void)state;
	assert_int_equal(errnum(predcompile("arg9", &p, NULL, 0)), Einval);
	for (n = 1; n <= sizeof err; n++) {
		memset(err, 'x', sizeof err);
		assert_int_equal(errnum(predcompile("arg9 > 1", &p, err, n)), Einval);
		assert_int_equal(strlen(err), n - 1 < 16 ? n - 1 : 16);
		assert_memory_equal(err, "unknown variable", n - 1);
	}
	/* success leaves an empty message */
	memset(err, 'x', sizeof err);
	assert_int_equal(predcompile("1", &p, err, sizeof err), 0);
	assert_string_equal(err, "");
}

/* n times open, then mid, then n times close */
static void
nested(char *s, const char *open, int n, const char *mid, const char *close)
{
	int i;

	s[0] = 0;
	for (i = 0; i < n; i++)
		strcat(s, open);
	strcat(s, mid);
	for (i = 0; i < n; i++)
		strcat(s, close);
}

static void
too_big(void **state)
{
	char src[1024], err[Errmax];	/* compiled sources may be longer than the device takes */
	char *big;
	Prog p;
	int i;

	(void)state;
	/* n terms take 2n instructions with the return: 64 fit, 65 do not */
	src[0] = 0;
	for (i = 0; i < 64; i++)
		strcat(src, i ? "+arg0" : "arg0");
	compile(src, &p);
	assert_int_equal(p.ninst, Progmax);
	strcat(src, "+arg0");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "program too long\n", 17);
	/* big literals take two words */
	src[0] = 0;
	for (i = 0; i < 43; i++)
		strcat(src, i ? "+0x7fffffffffffffff" : "0x7fffffffffffffff");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "program too long\n", 17);

	/* 1+(1+(...(1+1)...)) holds one value a term: 16 fit, 17 do not */
	nested(src, "1+(", 14, "1+1", ")");
	assert_int_equal(run(src), 1);
	nested(src, "1+(", 15, "1+1", ")");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "expression too deep\n", 20);
	/* parentheses alone nest 15 deep (16 with the whole), no more */
	nested(src, "(", 15, "1", ")");
	assert_int_equal(run(src), 1);
	nested(src, "(", 16, "1", ")");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "expression too deep\n", 20);
	/* 16 unary operators in a row, no more */
	nested(src, "-", 16, "1", "");
	assert_int_equal(run(src), 1);
	nested(src, "-", 17, "1", "");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);

	/* strings share Strmax bytes, NULs included */
	strcpy(src, "execname == \"0123456789012345678901234567890\" || execname == \"0123456789012345678901234567890\"");
	compile(src, &p);
	assert_int_equal(p.nstr, Strmax);
	strcpy(src, "execname == \"0123456789012345678901234567890\" || execname == \"01234567890123456789012345678901\"");
	assert_int_equal(errnum(predcompile(src, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "strings too long\n", 17);
	/* a source longer than any control line is refused whole */
	big = malloc(70000);
	assert_non_null(big);
	memset(big, ' ', 69998);
	strcpy(big + 69998, "1");
	assert_int_equal(errnum(predcompile(big, &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "expression too long\n", 20);
	free(big);
	/* found by fuzz_pred: an empty string when the others filled all but its NUL */
	assert_int_equal(errnum(predcompile("execname == \"012345678901234567890123456789012345678901234567890123456789012\" || execname == \"\"", &p, err, sizeof err)), E2big);
	assert_memory_equal(err, "strings too long\n", 17);
	assert_int_equal(errnum(predcompile("!\"###############################################################\"\"\"", &p, err, sizeof err)), E2big);
}

static void
same_code(void **state)
{
	Prog a, b;

	(void)state;
	memset(&a, 0x55, sizeof a);
	memset(&b, 0xaa, sizeof b);
	compile("pid == 4242 && arg2 >= 4096 && execname == \"sshd\"", &a);
	compile("pid == 4242 && arg2 >= 4096 && execname == \"sshd\"", &b);
	assert_memory_equal(&a, &b, sizeof a);	/* copies compare equal */
}

/* hand-made programs: each refused, next to one accepted that differs little */
typedef struct Bad Bad;
struct Bad {
	const char *why;
	uint32_t ninst;
	uint64_t inst[20];
	uint32_t nstr;
	const char *str;
};

static const Bad bad[] = {
	{"no instructions", 0, {0}, 0, ""},
	{"backward branch", 4, {I(Olit, 1), I(Ojz, 0), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"branch to itself", 4, {I(Olit, 1), I(Ojz, 1), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"jump backward", 4, {I(Olit, 1), I(Ojmp, 0), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"branch past the end", 4, {I(Olit, 1), I(Oandj, 9), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"branch to the end", 4, {I(Olit, 1), I(Oorj, 4), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"branch far past", 4, {I(Olit, 1), I(Ojz, (uint64_t)1 << 55), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"branch into a literal", 5, {I(Olit, 1), I(Ojz, 3), I(Olit64, 0), 0x0300, I(Oret, 0)}, 0, ""},
	{"bad opcode", 2, {I(Nop, 0), I(Oret, 0)}, 0, ""},
	{"bad opcode 0xff", 3, {I(Olit, 1), 0xff, I(Oret, 0)}, 0, ""},
	{"operand where none is", 4, {I(Olit, 1), I(Olit, 1), I(Oadd, 1), I(Oret, 0)}, 0, ""},
	{"operand on a return", 2, {I(Olit, 1), I(Oret, 1)}, 0, ""},
	{"operand on a long literal", 3, {I(Olit64, 1), 5, I(Oret, 0)}, 0, ""},
	{"long literal cut short", 2, {I(Olit, 1), I(Olit64, 0)}, 0, ""},
	{"stack underflow", 3, {I(Olit, 1), I(Oadd, 0), I(Oret, 0)}, 0, ""},
	{"underflow at once", 2, {I(Oneg, 0), I(Oret, 0)}, 0, ""},
	{"return of nothing", 1, {I(Oret, 0)}, 0, ""},
	{"branch on nothing", 3, {I(Ojz, 2), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"stack overflow", 19, {I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1),
		I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1),
		I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Olit, 1), I(Oadd, 0), I(Oret, 0)}, 0, ""},
	{"missing return", 1, {I(Olit, 1)}, 0, ""},
	{"falls off the end", 3, {I(Olit, 1), I(Olit, 2), I(Oadd, 0)}, 0, ""},
	{"return of two values", 3, {I(Olit, 1), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"paths disagree on depth", 4, {I(Olit, 1), I(Ojz, 3), I(Olit, 5), I(Oret, 0)}, 0, ""},
	{"unreachable code", 4, {I(Olit, 1), I(Oret, 0), I(Olit, 1), I(Oret, 0)}, 0, ""},
	{"bad variable", 2, {I(Ovar, Nvar), I(Oret, 0)}, 0, ""},
	{"string past nstr", 2, {I(Ostreq, 4), I(Oret, 0)}, 4, "abc"},
	{"string without its NUL", 2, {I(Ostreq, 0), I(Oret, 0)}, 3, "abc"},
	{"nstr past Strmax", 2, {I(Ostreq, 0), I(Oret, 0)}, Strmax + 1, "abc"},
	{"ninst past Progmax", Progmax + 1, {I(Olit, 1), I(Oret, 0)}, 0, ""},
	/* term tables: Oterms, then pid in 4242..4242 failing to 5, Tret 0, Tret 1 */
	{"Oterms alone", 1, {I(Oterms, 0)}, 0, ""},
	{"Oterms with an operand", 6, {I(Oterms, 1), I(Vpid, 5), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"Oterms not first", 3, {I(Olit, 1), I(Oterms, 0), I(Oret, 0)}, 0, ""},
	{"bad term kind", 6, {I(Oterms, 0), I(Nterm, 5), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"bad term kind 0xff", 6, {I(Oterms, 0), I(0xff, 5), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term fails backward", 6, {I(Oterms, 0), I(Vpid, 0), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term fails to itself", 6, {I(Oterms, 0), I(Vpid, 1), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term fails into a term", 6, {I(Oterms, 0), I(Vpid, 3), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term fails past the end", 6, {I(Oterms, 0), I(Vpid, 6), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term fails far past", 6, {I(Oterms, 0), I(Vpid, 0x105), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"term cut short", 3, {I(Oterms, 0), I(Vpid, 2), 4242}, 0, ""},
	{"last term no Tret", 4, {I(Oterms, 0), I(Vpid, 0), 4242, 0}, 0, ""},
	{"passes off the end", 7, {I(Oterms, 0), I(Tret, 0), I(Vpid, 1), 4242, 0, I(Vtid, 1), 42}, 0, ""},
	{"Tret of 2", 6, {I(Oterms, 0), I(Vpid, 5), 4242, 0, I(Tret, 0), I(Tret, 2)}, 0, ""},
	{"term reserved bits", 6, {I(Oterms, 0), I(Vpid, 0x10005), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	/* the strings as little-endian words: "sshd" is 0x64687373 */
	{"name without a NUL", 6, {I(Oterms, 0), I(Texec, 5), ~0ull, ~0ull, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"name not padded", 6, {I(Oterms, 0), I(Texec, 5), 0x64687373, 1ull << 56, I(Tret, 0), I(Tret, 1)}, 0, ""},
	/* typed: Oext 32 signed; Text | var << 8 | ext << 16 | fail << 24 */
	{"Oext of no width", 3, {I(Ovar, Vretval), I(Oext, 0), I(Oret, 0)}, 0, ""},
	{"Oext of 64 bits", 3, {I(Ovar, Vretval), I(Oext, 64), I(Oret, 0)}, 0, ""},
	{"Oext reserved bits", 3, {I(Ovar, Vretval), I(Oext, 0x160), I(Oret, 0)}, 0, ""},
	{"Oext on nothing", 2, {I(Oext, 0xa0), I(Oret, 0)}, 0, ""},
	{"Text on pid", 6, {I(Oterms, 0), Text | Vpid << 8 | 0xa0 << 16 | 5 << 24, 0, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"Text of no width", 6, {I(Oterms, 0), Text | Vretval << 8 | 0x80 << 16 | 5 << 24, 0, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"Text fails backward", 6, {I(Oterms, 0), Text | Vretval << 8 | 0xa0 << 16 | 1 << 24, 0, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"Text reserved bits", 6, {I(Oterms, 0), Text | Vretval << 8 | 0xa0 << 16 | 5 << 24 | 1ull << 32, 0, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"name NUL then more", 6, {I(Oterms, 0), I(Texecne, 5), 0x6400687373, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
};

static const Bad good[] = {
	{"forward branches", 6, {I(Olit, 1), I(Ojz, 4), I(Olit, 1), I(Ojmp, 5), I(Olit, 2), I(Oret, 0)}, 0, ""},
	{"long literal", 3, {I(Olit64, 0), 5, I(Oret, 0)}, 0, ""},
	{"16 deep", 33, {0}, 0, ""},	/* filled in below */
	{"last variable", 2, {I(Ovar, Nvar - 1), I(Oret, 0)}, 0, ""},
	{"string", 2, {I(Ostreq, 0), I(Oret, 0)}, 4, "abc"},
	{"empty string", 2, {I(Ostreq, 3), I(Oret, 0)}, 4, "abc"},
	{"term table", 6, {I(Oterms, 0), I(Vpid, 5), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"Tret alone", 2, {I(Oterms, 0), I(Tret, 1)}, 0, ""},
	{"every value", 6, {I(Oterms, 0), I(Vdepth, 4), 0, ~0ull, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"last variable term", 6, {I(Oterms, 0), I(Nvar - 1, 5), 4242, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"names", 9, {I(Oterms, 0), I(Texec, 7), 0x64687373, 0, I(Texecne, 8), 0x78, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"a 15-character name", 6, {I(Oterms, 0), I(Texec, 5), 0x6867666564636261ull, 0x006f6e6d6c6b6a69ull, I(Tret, 0), I(Tret, 1)}, 0, ""},
	{"empty name", 6, {I(Oterms, 0), I(Texecne, 5), 0, 0, I(Tret, 1), I(Tret, 0)}, 0, ""},
	{"Oext", 3, {I(Ovar, Vretval), I(Oext, 0xa0), I(Oret, 0)}, 0, ""},
	{"Oext of 63 bits", 3, {I(Ovar, Varg0), I(Oext, 63), I(Oret, 0)}, 0, ""},
	{"Text", 6, {I(Oterms, 0), Text | Vretval << 8 | 0xa0 << 16 | 5 << 24, 0, 0, I(Tret, 0), I(Tret, 1)}, 0, ""},
};

static void
load(Prog *p, const Bad *b)
{
	memset(p, 0, sizeof *p);
	p->ninst = b->ninst;
	memcpy(p->inst, b->inst, sizeof b->inst);
	p->nstr = b->nstr;
	memcpy(p->str, b->str, strlen(b->str) + 1);
}

static void
validator(void **state)
{
	Prog p;
	size_t i;
	int j;

	(void)state;
	for (i = 0; i < nelem(bad); i++) {
		load(&p, &bad[i]);
		if (predvalid(&p) != 0)
			fail_msg("accepted: %s", bad[i].why);
	}
	for (i = 0; i < nelem(good); i++) {
		load(&p, &good[i]);
		if (i == 2) {	/* 16 values, then 15 additions */
			for (j = 0; j < 16; j++)
				p.inst[j] = I(Olit, 1);
			for (; j < 31; j++)
				p.inst[j] = I(Oadd, 0);
			p.inst[j++] = I(Oret, 0);
			p.ninst = j;
		}
		if (predvalid(&p) != 1)
			fail_msg("refused: %s", good[i].why);
		assert_int_not_equal(predeval(&p, &hentry), -1);
		predvars(&p);
	}
	/* and the 16-deep one made 17 deep */
	memmove(p.inst + 1, p.inst, 32 * sizeof p.inst[0]);
	p.inst[32] = I(Oadd, 0);
	p.inst[33] = I(Oret, 0);
	p.ninst = 34;
	assert_int_equal(predvalid(&p), 0);
}

/* every opcode and every variable, through the compiler: each program passes */
static void
compiled_valid(void **state)
{
	static const char *src[] = {
		"arg0 * arg1 / 2 % 3 + arg2 - arg3 << 1 >> 2 < 1 <= 2 > 3 >= 4 == 5 != 6 & 7 ^ 8 | 9",
		"!arg0 || ~arg1 && -arg2 ? +arg3 : retval",
		"entry + pc + pid + tid + ppid + uid + cpu + timestamp + depth",
		"execname == \"sshd\" || execname != \"x\" || \"y\" == execname",
		"0x123456789abcdef0 == -0x123456789abcdef0",
		"1 ? 2 ? 3 : 4 : 5 ? 6 : 7",
	};
	size_t i;
	Prog p;

	(void)state;
	for (i = 0; i < nelem(src); i++) {
		compile(src[i], &p);
		assert_int_not_equal(predeval(&p, &hentry), -1);
	}
}

/* the host is asked only for what the predicate uses, when it uses it */
static void
host_calls(void **state)
{
	(void)state;
	nhostcalls = 0;
	assert_int_equal(run("pid == 4242 && arg0 == 3 && depth == 3"), 1);
	assert_int_equal(nhostcalls, 0);
	assert_int_equal(run("ppid == 1 && uid == 1000 && cpu == 2"), 1);
	assert_int_equal(nhostcalls, 3);
	nhostcalls = 0;
	assert_int_equal(run("pid == 1 && execname == \"sshd\""), 0);
	assert_int_equal(nhostcalls, 0);
	assert_int_equal(run("pid == 4242 && execname == \"sshd\""), 1);
	assert_int_equal(nhostcalls, 1);
}

static void
execname(void **state)
{
	(void)state;
	testexecname = "abcdefghijklmno";	/* 15 characters, the most */
	assert_int_equal(run("execname == \"abcdefghijklmno\""), 1);
	assert_int_equal(run("execname == \"abcdefghijklmn\""), 0);
	assert_int_equal(run("execname == \"abcdefghijklmnop\""), 0);
	assert_int_equal(run("(execname) == (\"abcdefghijklmno\")"), 1);
	testexecname = NULL;	/* a host that cannot tell: the empty name */
	assert_int_equal(run("execname == \"\""), 1);
	assert_int_equal(run("execname != \"sshd\""), 1);
	testexecname = "";
	assert_int_equal(run("execname == \"\""), 1);
	assert_int_equal(run("execname == \"a\""), 0);
	testexecname = Fexecname;
}

/* the common shape becomes a term table; its answers are its stack code's */
static void
terms(void **state)
{
	static const char *shape[] = {
		"pid == 4242 && arg2 >= 4096 && execname == \"sshd\"",
		"arg0 == -1",
		"-1 == arg0",
		"arg0 != 3 || !entry",
		"(arg0 == 1 || arg1 == -1) && (arg2 < 0 || arg2 > 4095) && !(pid == 1 || tid == 1)",
		"!(arg0 && arg3) || !(execname != \"sshd\")",
		"retval > 0x7fffffffffffffff || arg3 < -0x8000000000000000 || depth <= -1",
		"arg3 == 0x8000000000000000 && arg1 == 0xffffffffffffffff && arg0 >= -9223372036854775807",
		"execname == \"abcdefghijklmno\" || execname == \"\" || execname != \"sshd\"",
		"ppid == 1 && uid == 1000 && cpu == 2 && timestamp >= 123456789 && pc == 0x401000",
	};
	static const char *notshape[] = {
		"arg0 + 1 == 0",
		"pid == 1 ? arg0 : arg1",
		"execname == \"abcdefghijklmnop\"",	/* 16 characters: stays stack code */
		"(arg0 == 3) == 1",
		"arg0 < -9223372036854775808 && pid == 4242",	/* a term that never passes */
	};
	static const char *names[] = {"sshd", NULL, "", "abcdefghijklmno", "ssh"};
	static const Hit hexit = {Fpc, Fticks, {Farg0, 0, 0, 0}, Ftid, Fpid, Fdepth, 1, NULL, 0};
	const Hit *hits[] = {&hentry, &hexit};
	Prog p, q;
	size_t i, j, k;

	(void)state;
	for (i = 0; i < nelem(shape); i++) {
		compile(shape[i], &p);
		if (p.inst[0] != Oterms)
			fail_msg("not a term table: %s", shape[i]);
		assert_int_equal(predcompilestack(shape[i], &q, NULL, 0), 0);
		assert_int_equal(predvalid(&q), 1);
		assert_int_not_equal(q.inst[0], Oterms);
		assert_int_equal(predvars(&p), predvars(&q));
		assert_int_equal(predterms(&p), 0);	/* already */
		for (j = 0; j < nelem(names); j++)
			for (k = 0; k < nelem(hits); k++) {
				testexecname = names[j];
				if (predeval(&p, hits[k]) != predeval(&q, hits[k]))
					fail_msg("%s: name %s, hit %zu", shape[i], names[j] ? names[j] : "nil", k);
			}
		testexecname = Fexecname;
		assert_int_equal(predterms(&q), 1);	/* the same rewrite, called directly */
		assert_memory_equal(&p, &q, sizeof p);
	}
	for (i = 0; i < nelem(notshape); i++) {
		compile(notshape[i], &p);
		if (p.inst[0] == Oterms)
			fail_msg("a term table: %s", notshape[i]);
	}
	/* pid == 4242 && arg2 >= 4096 && execname == "sshd", word by word */
	compile(shape[0], &p);
	assert_int_equal(p.ninst, 12);
	assert_int_equal(p.inst[1], I(Vpid, 11));
	assert_int_equal(p.inst[2], 4242);
	assert_int_equal(p.inst[3], 0);
	assert_int_equal(p.inst[4], I(Varg2, 11));
	assert_int_equal(p.inst[5], 4096);
	assert_int_equal(p.inst[6], 0x7fffffffffffffffull - 4096);
	assert_int_equal(p.inst[7], I(Texec, 11));
	assert_memory_equal(&p.inst[8], "sshd\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(p.inst[10], I(Tret, 1));
	assert_int_equal(p.inst[11], I(Tret, 0));
	assert_int_equal(p.nstr, 0);
}

/*
 * Values as their type: arg0..arg3 and retval typed by the args text
 * ("$retval=s32": predargs.c) are their C values, as term tables and as
 * stack code; the words stay raw without it.  The upper bits of each
 * hit's words are garbage, as a register's are above a narrow value.
 */
static void
typed(void **state)
{
	static const char args[] = "$arg0=s16 $arg1=u32 $arg2=u8 $retval=s32 x=0s16";
	static const Hit hin = {Fpc, Fticks, {0xdeadbeef0000fffdull, 0x12345678ffffffeaull, 0x1ff, 5}, Ftid, Fpid, Fdepth, 0, NULL, 0};
	static const Hit hout = {Fpc, Fticks, {0x77777777ffffffeaull, 0, 0, 0}, Ftid, Fpid, Fdepth, 1, NULL, 0};
	static const struct {
		const char *src;
		int in, out;	/* the answers at hin and hout */
		int terms;	/* compiles to a term table */
	} cases[] = {
		{"retval < 0", 0, 1, 1},
		{"retval == -22", 0, 1, 1},
		{"-22 == retval", 0, 1, 1},
		{"retval == 0xffffffea", 0, 0, 1},
		{"retval", 0, 1, 1},
		{"!retval", 1, 0, 1},
		{"arg0 < 0", 1, 0, 1},
		{"arg0 == -3", 1, 0, 1},
		{"x == -3", 1, 0, 1},
		{"arg1 == 4294967274", 1, 0, 1},
		{"arg1 < 0", 0, 0, 1},
		{"arg2 == 255", 1, 0, 1},
		{"arg3 == 5", 1, 0, 1},
		{"entry && arg0 < 0 && arg1 > 0 || retval < -21", 1, 1, 1},
		{"retval + 22 == 0", 0, 1, 0},
		{"(arg0 < 0) + (arg1 > 0) == 2", 1, 0, 0},
	};
	char err[Errmax];
	Prog p, q;
	size_t i;

	(void)state;
	for (i = 0; i < nelem(cases); i++) {
		if (predcompileargs(cases[i].src, args, &p, err, sizeof err) != 0)
			fail_msg("%s: %s", cases[i].src, err);
		assert_int_equal(predcompileargsstack(cases[i].src, args, &q, err, sizeof err), 0);
		if ((p.inst[0] == Oterms) != cases[i].terms)
			fail_msg("%s: %s", cases[i].src, cases[i].terms ? "not a term table" : "a term table");
		if (predeval(&p, &hin) != cases[i].in || predeval(&p, &hout) != cases[i].out)
			fail_msg("%s: %d %d", cases[i].src, predeval(&p, &hin), predeval(&p, &hout));
		if (predeval(&q, &hin) != cases[i].in || predeval(&q, &hout) != cases[i].out)
			fail_msg("%s as stack code: %d %d", cases[i].src, predeval(&q, &hin), predeval(&q, &hout));
		assert_int_equal(predvars(&p), predvars(&q));
	}
	/* retval < 0: one Text term on retval, 32 bits signed */
	assert_int_equal(predcompileargs("retval < 0", args, &p, err, sizeof err), 0);
	assert_int_equal(p.inst[1], Text | Vretval << 8 | (32 | Extsigned) << 16 | 5ull << 24);
	assert_int_equal(predvars(&p), 1u << Vretval);
	/* no types: the words */
	assert_int_equal(predcompileargs("retval < 0", "x=0s16", &p, err, sizeof err), 0);
	assert_int_equal(predeval(&p, &hout), 0);
	assert_int_equal(predcompile("retval == 0x77777777ffffffea", &p, err, sizeof err), 0);
	assert_int_equal(predeval(&p, &hout), 1);
	/* a parameter named arg1 is not $arg1 */
	assert_int_equal(predcompileargs("arg1 < 0", "arg1=0s32", &p, err, sizeof err), 0);
	assert_int_equal(predeval(&p, &hin), 0);
}

static void
faults(void **state)
{
	(void)state;
	assert_int_equal(run("1 / 0"), -1);
	assert_int_equal(run("arg0 % (arg0 - 3)"), -1);
	assert_int_equal(run("arg3 / -1"), -1);
	assert_int_equal(run("arg3 % -1"), -1);
	assert_int_equal(run("arg3 / -2 == 0x4000000000000000"), 1);
	assert_int_equal(run("0 && 1 / 0"), 0);
	assert_int_equal(run("1 || 1 % 0"), 1);
	assert_int_equal(run("pid == 1 ? 1 / 0 : 1"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compile_errors),
		cmocka_unit_test(long_source),
		cmocka_unit_test(small_buffers),
		cmocka_unit_test(too_big),
		cmocka_unit_test(same_code),
		cmocka_unit_test(validator),
		cmocka_unit_test(compiled_valid),
		cmocka_unit_test(host_calls),
		cmocka_unit_test(execname),
		cmocka_unit_test(argnames),
		cmocka_unit_test(terms),
		cmocka_unit_test(typed),
		cmocka_unit_test(faults),
	};

	return cmocka_run_group_tests_name("predtest", tests, NULL, NULL);
}
