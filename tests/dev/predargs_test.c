/*
 * predargs_test.c: the one rule both hosts name arguments by
 * (dev/predargs.c): signature lines in, predcompileargs' text out,
 * exactly.  Classes as devtrace sigs and /dev/tracesigs write them.
 */
#include "tests/dev/util.h"
#include "dev/pred.h"

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
	assert_string_equal(names(one), "a=0s32 b=1u16 e=2u32 c=3u8");
	assert_string_equal(names(two), "ok=0u8 p=1 big=2 v=? x=?");
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
	assert_string_equal(names(lines), "fd=? n=? m=?");
	assert_null(names(none));
	lines[2] = 0;
	assert_string_equal(names(lines), "fd=0s32 n=? m=?");
	lines[1] = 0;
	assert_string_equal(names(lines), "fd=0s32 n=1 m=2");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_every_function),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
