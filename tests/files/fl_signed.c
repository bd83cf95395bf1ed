/*
 * fl_signed: values as their type.  Each function is called with known
 * values: a negative int returned (-22), a negative short and int
 * argument, an unsigned int past 2^31 (not negative), a signed char,
 * a bool, and an enum with a negative value.
 */
#include <stdbool.h>

enum level { LOW = -1, MID, HIGH };

__attribute__((noinline)) int
neg(int x)
{
	return -x;
}

__attribute__((noinline)) unsigned
negu(unsigned x)
{
	return -x;
}

__attribute__((noinline)) int
down(short s, int i)
{
	return s + i;
}

__attribute__((noinline)) int
tiny(signed char c, bool b)
{
	return b ? c : 0;
}

__attribute__((noinline)) enum level
level(int x)
{
	return x < 0 ? LOW : x > 0 ? HIGH : MID;
}

int
main(void)
{
	int r = 0;

	r += neg(22) + neg(-5) + neg(0);	/* -22, 5, 0 */
	r += negu(22);				/* 4294967274 */
	r += down(-3, 4) + down(2, -7);		/* s < 0 then i < 0 */
	r += tiny(-2, true) + tiny(9, false);
	r += level(-8) + level(0);
	return r & 0;
}
