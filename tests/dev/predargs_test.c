/*
 * predargs_test.c: the one rule both hosts name arguments by
 * (dev/pred/predargs.c): signature lines in, predcompileargs' text out,
 * exactly.  Classes as devtrace sigs and /dev/tracesigs write them.
 */
#include "tests/dev/util.h"
#include "dev/pred/pred.h"

/* the text for these lines, fed as a host would */
static const char *
names(const char **lines)
{
	static Predargs a;
	static char out[512];
	char line[256];

	predargsinit(&a);
	for (; *lines; lines++) {
		snprintf(line, sizeof line, "%s", *lines);
		predargsadd(&a, line);
	}
	return predargstext(&a, out, sizeof out);
}

/* each class its width: signed, unsigned, enum (with its names), char, bool, pointer, struct and float (no word) */
static void
test_classes(void **state)
{
	const char *one[] = {
		"f s32 a:s32:1 b:u16:2 e:enum32{0=OFF,1=ON}:3 c:char:4",
		0,
	};
	const char *two[] = {
		"g void ok:bool:1 p:ptr:2 big:s64:3 v:struct16:0 x:float64:0",
		0,
	};

	(void)state;
	assert_string_equal(names(one), "$arg0=s32 $arg1=u16 $arg2=u32 $arg3=u8 $retval=s32 a=0s32 b=1u16 e=2u32 c=3u8");
	assert_string_equal(names(two), "$arg0=u8 ok=0u8 p=1 big=2 v=? x=?");
}

/* a name is usable only if every function has it in the same word, the same way */
static void
test_every_function(void **state)
{
	const char *lines[] = {
		"f s32 fd:s32:1 n:u64:2 m:u64:3",
		"g s32 fd:s32:1 n:u64:3",
		"h void fd:u32:1",
		0,
	};
	const char *none[] = { 0 };

	(void)state;
	/* arg0: s32, s32, u32 disagree (the word); retval: h's void says nothing */
	assert_string_equal(names(lines), "$retval=s32 fd=? n=? m=?");
	assert_null(names(none));
	lines[2] = 0;
	assert_string_equal(names(lines), "$arg0=s32 $retval=s32 fd=0s32 n=? m=?");
	lines[1] = 0;
	assert_string_equal(names(lines), "$arg0=s32 $retval=s32 fd=0s32 n=1 m=2");
}

/*
 * arg0..arg3 and retval typed by position: a word's parameter whatever
 * its name, an enum with a negative value signed, a 64-bit one or a
 * pointer the word (unsaid), a struct's or a float's word no vote
 */
static void
test_positions(void **state)
{
	const char *lines[] = {
		"f enum32{-1=NEG,0=ZERO} x:s16:1 y:u32:2 z:s64:3 w:u8:4",
		"g enum32{-1=NEG,0=ZERO} arg1:s16:1 q:u32:2 p:ptr:3 d:f64:0",
		0,
	};
	const char *structs[] = {
		"h u8 s:struct16:1 k:s8:3",
		"i s64 a:u16:1 b:u16:2 c:s8:3",
		0,
	};

	(void)state;
	assert_string_equal(names(lines), "$arg0=s16 $arg1=u32 $arg3=u8 $retval=s32 x=? y=? z=? w=? arg1=? q=? p=? d=?");
	/* h's struct holds words 1 and 2: no vote there, so i's types stand; retval: u8 and 64 bits disagree */
	assert_string_equal(names(structs), "$arg0=u16 $arg1=u16 $arg2=s8 s=? k=? a=? b=? c=?");
}

/* a matched function without a signature (no debug information): the positions stay words, the names as before */
static void
test_nosig(void **state)
{
	static Predargs a;
	char out[256], line[] = "f s32 fd:s32:1";

	(void)state;
	predargsinit(&a);
	predargsadd(&a, line);
	predargsnosig(&a);
	assert_string_equal(predargstext(&a, out, sizeof out), "fd=0s32");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_every_function),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_nosig),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
